/* mshed-gltf-dfm-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the two halves of the glTF -> DFM import share (docs/gltf.md §8.3):
 * model/mshed-gltf-dfm-import.c takes the points, texture coordinates, normals and weights,
 * model/mshed-gltf-dfm-groups.c the face groups, their triangles and their materials.
 */
#pragma once

#include <glib.h>

#include "mshed-gltf-dfm.h"

G_BEGIN_DECLS

/* A glTF triangle by the elements of its corners. */
typedef struct {
  guint16 e[3];               /* elements, the smallest first, the winding kept */
  gint    material;           /* the glTF material, -1 for none */
} MshedGltfDfmTri;

/* The triangle of elements (a, b, c) turned to start at its smallest element, without a
 * material. */
MshedGltfDfmTri _mshed_gltf_dfm_tri_of       (guint16                  a,
                                              guint16                  b,
                                              guint16                  c);

/* Level @level's face groups from @tris (MshedGltfDfmTri: every glTF triangle of the level
 * with three different corners, in glTF order): triangles kept, moved between groups and
 * added, groups renamed, added and removed, materials added to the library, with the counts
 * that follow recomputed; each change a document edit inside the caller's undo group. */
gboolean        _mshed_gltf_dfm_import_groups (MshedDocument           *doc,
                                              const MshedGltf          *gltf,
                                              guint                     level,
                                              GArray                   *tris,
                                              MshedGltfDfmImportStats  *stats,
                                              GError                  **error);

G_END_DECLS
