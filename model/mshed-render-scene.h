/* mshed-render-scene.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the runtime would draw (docs/msh.md §6.3), worked out on the CPU without any GL: decoded
 * per-vertex attributes, a validated element list per batch (absolute vertex numbers, broken
 * ranges and triangles dropped), the draw items (node, slot, batch) of one LOD and group,
 * and the node poses of one frame. MshedRenderer uploads what this computes; tests check it
 * directly.
 */
#pragma once

#include <glib.h>

#include "mshed-anim.h"
#include "mshed-dfm-pose.h"
#include "mshed-dfm.h"
#include "mshed-model.h"

G_BEGIN_DECLS

typedef struct _MshedRenderScene MshedRenderScene;

typedef struct {
  guint node;        /* MSHED_NONE in all-batches mode (no 38-byte node table) */
  guint slot;        /* MSHED_NONE in all-batches mode */
  guint batch;
  guint elem_first;  /* into mshed_render_scene_get_elements () */
  guint elem_count;  /* 3 * drawable triangles */
  guint tri_first;   /* into mshed_render_scene_get_tri_map () */
} MshedDrawItem;

typedef struct {
  float    aabb_min[3];
  float    aabb_max[3];
  float    sphere_center[3];
  float    sphere_radius;
  gboolean valid;
} MshedSlotBounds;

typedef enum {
  MSHED_SCENE_SKIP_BATCH_SHORT,        /* indexCount < 3 */
  MSHED_SCENE_SKIP_BATCH_RANGE,        /* index range past Res6 */
  MSHED_SCENE_SKIP_TRIANGLE_VERTEX,    /* a vertex (index + baseVertex) past Res3 */
  MSHED_SCENE_SKIP_SLOT_BATCH_RANGE,   /* a slot's batch range past Res13 */
  MSHED_SCENE_N_SKIPS
} MshedSceneSkip;

MshedRenderScene    *mshed_render_scene_new            (MshedModel             *model);
void                 mshed_render_scene_free           (MshedRenderScene       *self);
MshedModel          *mshed_render_scene_get_model      (MshedRenderScene       *self);

/* A deformable model: one level (set_view's @lod), skinned by the scene's pose
 * (docs/dfm.md §6.3). Vertices are the level's elements (docs/dfm.md §6.1) and the draw
 * items its face groups (item.batch is the group, item.node and item.slot MSHED_NONE);
 * model is NULL. */
MshedRenderScene    *mshed_render_scene_new_for_dfm    (MshedDfm               *dfm);
MshedDfm            *mshed_render_scene_get_dfm        (MshedRenderScene       *self);
/* The pose the scene skins with (NULL for an MSH model): change its values, then call
 * pose_changed to skin again (on the CPU, when positions or bounds are next read).
 * topology_changed re-reads the DFM after an edit and keeps the values of the joints that
 * still exist. */
MshedDfmPose        *mshed_render_scene_get_dfm_pose   (MshedRenderScene       *self);
void                 mshed_render_scene_pose_changed   (MshedRenderScene       *self);
/* The DFM point vertex @v shows, G_MAXUINT when none. */
guint                mshed_render_scene_get_vertex_point (MshedRenderScene     *self,
                                                        guint                   v);
/* The summed weight of @bone on vertex @v's point (0 when none). */
float                mshed_render_scene_get_bone_weight (MshedRenderScene      *self,
                                                        guint                   v,
                                                        guint                   bone);

/* The same vertices in the bind pose, for skinning on the GPU (docs/conventions.md "Posing a
 * DFM"): per vertex its stored point and normal and up to four (matrix, weight) pairs; a point
 * with more influences keeps its four largest weights, scaled to the sum of all of them
 * (get_n_cut_points counts such points of the level). Matrix j < bones is the pose's
 * S_j = Pose_j · InvBind_j, the last one the identity (an influence naming no bone, a point
 * without influences). Skinning these reproduces read_vertices, which stays the reference.
 * get_n_skin_matrices is 0 for an MSH model or a skeleton too large for 16-bit numbers. */
guint                mshed_render_scene_get_n_skin_matrices (MshedRenderScene  *self);
/* 12 floats per matrix, row by row: row r is (M[r][0], M[r][1], M[r][2], translation[r]). */
void                 mshed_render_scene_read_skin_matrices (MshedRenderScene   *self,
                                                        float                  *rows);
void                 mshed_render_scene_read_bind_vertices (MshedRenderScene   *self,
                                                        guint                   first,
                                                        guint                   count,
                                                        float                  *positions,
                                                        float                  *normals,
                                                        guint16                *joints,
                                                        float                  *weights);
guint                mshed_render_scene_get_n_cut_points (MshedRenderScene     *self);
/* A triangle a ray hit. */
typedef struct {
  guint item;            /* the draw item */
  guint batch;           /* its batch (DFM: the face group) */
  guint triangle;        /* the triangle's number in the batch (mshed_render_scene_get_tri_map) */
  guint vertices[3];     /* its corners (DFM: elements of the level) */
  float distance;        /* along the ray, in lengths of @dir */
  float barycentric[3];  /* of the hit point, one per corner */
} MshedSceneHit;

/* The nearest drawn triangle (either face) that the ray @origin + t @dir (t > 0) crosses, on
 * the skinned positions as they are drawn. DFM scenes only; FALSE when none. */
gboolean             mshed_render_scene_dfm_ray_pick   (MshedRenderScene       *self,
                                                        const float             origin[3],
                                                        const float             dir[3],
                                                        MshedSceneHit          *out);
/* The bone with the largest weight summed over the points of @vertices (the lowest bone on a
 * tie); -1 when none has a weight above 0. */
gint                 mshed_render_scene_dfm_strongest_bone (MshedRenderScene   *self,
                                                        const guint            *vertices,
                                                        guint                   n_vertices);

/* Re-reads what depends on the corresponding tables. */
void                 mshed_render_scene_topology_changed (MshedRenderScene     *self);
void                 mshed_render_scene_nodes_changed  (MshedRenderScene       *self);

/* The per-vertex attributes (count = Res3 rows). A missing normal decodes as (0, 0, 0): the
 * shader then uses the face normal. A missing UV decodes as (0, 0). */
guint                mshed_render_scene_get_n_vertices (MshedRenderScene       *self);
void                 mshed_render_scene_read_vertices  (MshedRenderScene       *self,
                                                        guint                   first,
                                                        guint                   count,
                                                        float                  *positions,
                                                        float                  *normals,
                                                        float                  *uvs);

/* Elements of every Res13 batch (absolute vertex numbers, 3 per triangle) and, per element
 * triple, the triangle's number inside its batch (its Res6 element = indexStart + 3 * it). */
const guint32       *mshed_render_scene_get_elements   (MshedRenderScene       *self,
                                                        guint                  *n_elements);
const guint32       *mshed_render_scene_get_tri_map    (MshedRenderScene       *self,
                                                        guint                  *n_triangles);
gboolean             mshed_render_scene_get_batch_range (MshedRenderScene      *self,
                                                        guint                   batch,
                                                        guint                  *elem_first,
                                                        guint                  *elem_count,
                                                        guint                  *tri_first);
guint                mshed_render_scene_get_skip_count (MshedRenderScene       *self,
                                                        MshedSceneSkip          what);

/* Draw items of the chosen LOD (0..2) and group (0..4), in node order then batch order. */
void                 mshed_render_scene_set_view       (MshedRenderScene       *self,
                                                        guint                   lod,
                                                        guint                   group);
guint                mshed_render_scene_get_lod        (MshedRenderScene       *self);
guint                mshed_render_scene_get_group      (MshedRenderScene       *self);
gboolean             mshed_render_scene_is_all_batches (MshedRenderScene       *self);
const MshedDrawItem *mshed_render_scene_get_items      (MshedRenderScene       *self,
                                                        guint                  *n_items);

/* Node poses at time @t (frames). */
void                 mshed_render_scene_set_time       (MshedRenderScene       *self,
                                                        float                   t,
                                                        const MshedPoseOptions *options);
float                mshed_render_scene_get_time       (MshedRenderScene       *self);
guint                mshed_render_scene_get_n_nodes    (MshedRenderScene       *self);
/* The node's world matrix (identity for MSHED_NONE or an unknown node). */
const float         *mshed_render_scene_get_world      (MshedRenderScene       *self,
                                                        guint                   node);
MshedAnimIssue       mshed_render_scene_get_node_issues (MshedRenderScene      *self,
                                                        guint                   node);

/* The Res7 descriptor <-> triangle correspondence is open (docs/msh.md §12.4); the project's
 * convention (mshed-recompute.h): slot s owns descriptors [triStart, +triCount), and when
 * triCount equals the number of triangles (indexCount / 3) of its batches in batch order
 * and the range fits Res7, descriptor triStart + j is the slot's j-th triangle.
 * triangle_to_descriptor gives G_MAXUINT where the slot has no defined mapping. */
gboolean             mshed_render_scene_slot_has_tri_mapping (MshedRenderScene *self,
                                                        guint                   slot);
guint                mshed_render_scene_triangle_to_descriptor (MshedRenderScene *self,
                                                        guint                   slot,
                                                        guint                   batch,
                                                        guint                   triangle);
/* Calls @func (batch, triangle) for every descriptor of @descriptors (sorted ascending,
 * unique) that slot @slot maps. */
typedef void (*MshedTriangleCallback) (guint    batch,
                                       guint    triangle,
                                       gpointer user_data);
void                 mshed_render_scene_descriptors_to_triangles (MshedRenderScene *self,
                                                        guint                   slot,
                                                        const guint            *descriptors,
                                                        guint                   n_descriptors,
                                                        MshedTriangleCallback   func,
                                                        gpointer                user_data);

/* The AABB and sphere of what a slot draws (vertices of its drawable triangles), in the
 * owning node's local space: the preview's estimate of a recomputed bound. */
gboolean             mshed_render_scene_compute_slot_bounds (MshedRenderScene  *self,
                                                        guint                   slot,
                                                        MshedSlotBounds        *out);
/* World-space AABB of the drawn vertices of the items for which @filter returns TRUE
 * (@filter NULL: all items). FALSE when nothing is drawn. */
typedef gboolean (*MshedItemFilter) (const MshedDrawItem *item,
                                     gpointer             user_data);
gboolean             mshed_render_scene_compute_world_bounds (MshedRenderScene *self,
                                                        MshedItemFilter         filter,
                                                        gpointer                user_data,
                                                        float                   min[3],
                                                        float                   max[3]);

G_END_DECLS
