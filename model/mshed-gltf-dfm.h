/* mshed-gltf-dfm.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DFM <-> glTF 2.0 (docs/gltf.md §8): a deformable model as a skinned mesh per level, the
 * bones as joints with their inverse bind matrices, the hardpoints as empty nodes, and the
 * whole UTF file in the scene's extras so that an unchanged export comes back byte for byte;
 * and a glTF back into a DFM: moved vertices and texture coordinates as one undoable edit of
 * the document, or a new DFM from any skinned glTF.
 */
#pragma once

#include <glib.h>

#include "mshed-document.h"
#include "mshed-dfm.h"
#include "mshed-gltf.h"
#include "mshed-gltf-read.h"

G_BEGIN_DECLS

typedef struct {
  guint nodes;       /* glTF nodes: skeleton root, bones, hardpoints, levels */
  guint bones;
  guint hardpoints;
  guint levels;
  guint triangles;   /* of every level */
  guint materials;
} MshedGltfDfmStats;

/* The whole .glb or .gltf file; @level is the level listed first (Blender's default view).
 * NULL with @error for a model whose levels or bones cannot be read, or with
 * G_IO_ERROR_CANCELLED when @progress (nullable; a step per bone and per level) was
 * cancelled. @stats nullable. */
GBytes    *mshed_gltf_export_dfm     (MshedDfm          *dfm,
                                      MshedGltfFormat    format,
                                      guint              level,
                                      MshedProgress     *progress,
                                      MshedGltfDfmStats *stats,
                                      GError           **error);

typedef struct {
  guint positions;   /* Points rows changed */
  guint uvs;         /* UV0 rows changed */
  guint still_stale; /* stale cells the recompute could not clear */
  guint normals;     /* Vertex_normals rows changed */
  guint skins;       /* points whose influences changed */
  guint groups;      /* face groups whose triangles were rewritten */
  guint materials;   /* face groups whose Material_name changed */
  guint added_elements;    /* new elements (vertices added in Blender) */
  guint added_points;      /* new points they made */
  guint removed_elements;  /* elements deleted in Blender */
  guint removed_points;    /* points those left unused */
  guint groups_added;    /* face groups added for a material no group of the level has */
  guint groups_removed;  /* face groups left without triangles, removed */
  guint materials_added; /* materials added to the Material library */
} MshedGltfDfmImportStats;

/* Point @point's influences as the export writes them (docs/gltf.md §8.1): at most four,
 * weights summing to 1; returns how many (0: bone 0 with weight 1, for no influence). */
guint      mshed_gltf_dfm_point_skin (MshedDfm          *dfm,
                                      guint              level,
                                      guint              point,
                                      guint16            joints[4],
                                      float              weights[4]);

/* TRUE when @gltf was exported from a DFM (its scene extras say so). */
gboolean   mshed_gltf_is_dfm_export  (const MshedGltf   *gltf);
/* The DFM file the export carries in its extras (docs/gltf.md §8.2), NULL with @error. */
GBytes    *mshed_gltf_dfm_source     (const MshedGltf   *gltf,
                                      GError           **error);
/* Applies what changed in @gltf to the DFM of @document as one undo step "Import glTF".
 * @progress (nullable) hears a step per level; cancelled before the levels are applied, it
 * fails with G_IO_ERROR_CANCELLED and nothing changed. */
gboolean   mshed_gltf_dfm_import_into (MshedDocument          *document,
                                       const MshedGltf        *gltf,
                                       MshedProgress          *progress,
                                       MshedGltfDfmImportStats *stats,
                                       GError                **error);
/* A new DFM from a skinned glTF without extras (docs/gltf.md §8.4). */
GBytes    *mshed_gltf_build_dfm      (const MshedGltf   *gltf,
                                      GError           **error);

G_END_DECLS
