/* mshed-gltf-dfm-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the parts of the glTF -> DFM import share (docs/gltf.md §8.3):
 * model/mshed-gltf-dfm-import.c takes the points, texture coordinates, normals and weights,
 * model/mshed-gltf-dfm-groups.c the face groups, their triangles and their materials, and
 * model/mshed-gltf-dfm-grow.c adds and removes a level's points and elements.
 */
#pragma once

#include <math.h>

#include "mshed-document.h"
#include "mshed-dfm.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-read.h"

G_BEGIN_DECLS

#define MSHED_GLTF_DFM_POSITION_TOLERANCE 3e-5f  /* Blender's trip through its armature */

/* Equal within a float's rounding through another program (docs/gltf.md §8.3). */
static inline gboolean
_mshed_gltf_near (float a,
                  float b,
                  float tolerance)
{
  return fabsf (a - b) <= tolerance * MAX (1.0f, fabsf (b));
}

static inline gboolean
_mshed_gltf_near3 (const float *a,
                   const float *b,
                   float        tolerance)
{
  return _mshed_gltf_near (a[0], b[0], tolerance) && _mshed_gltf_near (a[1], b[1], tolerance) &&
         _mshed_gltf_near (a[2], b[2], tolerance);
}

/* One level's new and removed points and elements. */
typedef struct _MshedGltfDfmGrow MshedGltfDfmGrow;

/* A new vertex: what a new element and its point get. */
typedef struct {
  const float   *position;
  const float   *normal;        /* nullable */
  const float   *uv0;           /* nullable: (0, 0) */
  const float   *uv1;           /* nullable: (0, 0) */
  guint          n_influences;  /* 1 to 4 */
  const guint16 *bones;
  const guint32 *weights;       /* the float bits as stored, summing to 1 */
} MshedGltfDfmVertex;

MshedGltfDfmGrow *_mshed_gltf_dfm_grow_new     (MshedDfm         *dfm,
                                                guint             level);
void              _mshed_gltf_dfm_grow_free    (MshedGltfDfmGrow *grow);
/* The first pass over the vertices of every glTF mesh of the level: for each stored element,
 * the vertex naming it (TEXCOORD_1.u) closest to its stored point. */
void              _mshed_gltf_dfm_grow_see_level (MshedGltfDfmGrow *grow,
                                                  const MshedGltf  *gltf);
/* TRUE when the vertex is element @id by the rule of docs/gltf.md §8.3, then *element. */
gboolean          _mshed_gltf_dfm_grow_is_element (MshedGltfDfmGrow *grow,
                                                   float             id,
                                                   const float      *position,
                                                   guint            *element);
/* The new element of a new vertex (shared with an equal one), or FALSE with @error past the
 * 65,535 elements face groups can name; @what and @v name the vertex. */
gboolean          _mshed_gltf_dfm_grow_add     (MshedGltfDfmGrow         *grow,
                                                const MshedGltf          *gltf,
                                                const char               *what,
                                                guint                     v,
                                                const MshedGltfDfmVertex *vertex,
                                                guint                    *element,
                                                GError                  **error);
/* Appends the new points and elements to the level's files. */
gboolean          _mshed_gltf_dfm_grow_apply   (MshedGltfDfmGrow *grow,
                                                MshedDocument    *doc,
                                                guint            *added_elements,
                                                guint            *added_points,
                                                GError          **error);
/* After the triangles are written: removes the elements deleted in Blender and the points
 * they leave unused, renumbering what refers to later ones. */
gboolean          _mshed_gltf_dfm_grow_remove  (MshedGltfDfmGrow *grow,
                                                MshedDocument    *doc,
                                                guint            *removed_elements,
                                                guint            *removed_points,
                                                GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedGltfDfmGrow, _mshed_gltf_dfm_grow_free)

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
