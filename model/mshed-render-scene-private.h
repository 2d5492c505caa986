/* mshed-render-scene-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The render scene's struct, shared by mshed-render-scene.c (MSH models) and
 * mshed-render-scene-dfm.c (deformable models: one skinned level).
 */
#pragma once

#include "mshed-render-scene.h"

G_BEGIN_DECLS

typedef struct {
  guint elem_first;
  guint elem_count;
  guint tri_first;
} BatchRange;

struct _MshedRenderScene {
  MshedModel      *model;         /* NULL for a DFM */
  GArray          *elements;      /* guint32 */
  GArray          *tri_map;       /* guint32 */
  GArray          *batch_ranges;  /* BatchRange, one per Res13 row (DFM: per face group) */
  GArray          *items;         /* MshedDrawItem */
  guint            skips[MSHED_SCENE_N_SKIPS];
  guint            lod;           /* DFM: the level */
  guint            group;
  gboolean         all_batches;
  float            time;
  MshedPoseOptions pose_options;
  guint            n_nodes;
  float           *world;         /* 16 per node */
  MshedAnimIssue  *issues;        /* one per node */

  /* a DFM */
  MshedDfm        *dfm;
  MshedDfmPose    *pose;
  GArray          *dfm_pos;       /* float[3] per vertex (element of the level), skinned */
  GArray          *dfm_nrm;       /* float[3], skinned */
  gboolean         dfm_skin_stale; /* the pose changed since dfm_pos/dfm_nrm were skinned */
  GArray          *dfm_uv;        /* float[2] */
  GArray          *dfm_point;     /* guint32: the vertex's point */
  /* the same vertices in the bind pose with up to four influences, for the GPU */
  GArray          *dfm_bind_pos;  /* float[3] */
  GArray          *dfm_bind_nrm;  /* float[3] */
  GArray          *dfm_joints;    /* guint16[4]: skinning matrices, n_bones for the identity */
  GArray          *dfm_weights;   /* float[4] */
  guint            dfm_n_cut;     /* points of the level with more than four influences */
};

MshedRenderScene *_mshed_render_scene_alloc           (void);
void              _mshed_render_scene_dfm_clear       (MshedRenderScene *self);
void              _mshed_render_scene_dfm_build       (MshedRenderScene *self);
void              _mshed_render_scene_dfm_ensure_skinned (MshedRenderScene *self);
void              _mshed_render_scene_dfm_read_vertices (MshedRenderScene *self,
                                                       guint             first,
                                                       guint             count,
                                                       float            *positions,
                                                       float            *normals,
                                                       float            *uvs);

G_END_DECLS
