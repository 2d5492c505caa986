/* mshed-gltf-import.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glTF -> MSH as an update of the model a glTF was exported from (docs/gltf.md §6): the
 * extras name the MSH node, slot and Res3 row behind every glTF node and vertex, so what
 * changed in the glTF becomes edits of exactly those records, as ONE undoable step of the
 * document, followed by the recompute of what they made stale. Nothing changed: nothing is
 * edited, and the model serialises to its original bytes.
 */
#pragma once

#include <glib.h>

#include "mshed-document.h"
#include "mshed-gltf-read.h"
#include "mshed-nres.h"
#include "mshed-progress.h"

G_BEGIN_DECLS

typedef struct {
  guint renamed;         /* nodes */
  guint reparented;      /* nodes */
  guint deleted;         /* nodes */
  guint posed;           /* nodes whose rest pose (fallback key) changed */
  guint positions;       /* Res3 rows */
  guint normals;         /* Res4 rows */
  guint uvs;             /* Res5 rows */
  guint keys;            /* Res8 rows changed by animation channels */
  guint rebuilt;         /* slots whose geometry was rebuilt or added (topology changes) */
  guint added;           /* nodes added */
  guint still_stale;     /* stale cells the recompute could not clear (0: all done) */
} MshedGltfImportStats;

/* Applies @gltf to the model of @document as one undo step labelled "Import glTF". On
 * failure (a glTF that was not exported from this model, or a change MSH cannot take)
 * nothing changed and @error names the glTF object. @progress (nullable) hears a step per
 * glTF mesh compared and per table applied; cancelled before the changes are applied, the
 * import fails with G_IO_ERROR_CANCELLED and nothing changed (no undo step); once applying
 * started it runs to the end. @stats nullable. */
gboolean mshed_gltf_import_into (MshedDocument        *document,
                                 const MshedGltf      *gltf,
                                 MshedProgress        *progress,
                                 MshedGltfImportStats *stats,
                                 GError              **error);

/* A new model from any glTF, extras or not (docs/gltf.md §6.1): nodes, one slot per mesh, one
 * batch per primitive, transforms and animation as keys, the derived data computed. NULL with
 * @error naming the glTF object for what MSH cannot hold (a mesh without a node, more than
 * 65,535 vertices in a primitive, skins, ...). */
MshedNres *mshed_gltf_build_model (const MshedGltf  *gltf,
                                   GError          **error);
/* The same with the slot of every LOD: @lod_meshes holds 3 mesh indices (or -1) per node for
 * the group-0 cells of LOD 0, 1, 2 (a mesh named twice is one shared slot); the nodes' own
 * `mesh` is then not used. NULL: each node's mesh at LOD 0. */
MshedNres *mshed_gltf_build_model_lods (const MshedGltf  *gltf,
                                        const gint       *lod_meshes,
                                        GError          **error);

G_END_DECLS
