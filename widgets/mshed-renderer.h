/* mshed-renderer.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model drawn as the runtime would draw it (docs/msh.md §6.3, §7), independent of GTK: it
 * takes a current OpenGL 3.3 core context, the framebuffer bound by the caller and a
 * viewport size. The GtkGLArea, `mshed-cli render` and the display-less tests share it.
 *
 * GL work happens only in realize, unrealize, draw, pick and prepare (the caller makes the
 * context current). Everything else records what changed; the next draw uploads only that:
 * per-vertex attributes live in separate buffers, so an edit of one vertex re-uploads its
 * 12 + 12 + 8 bytes, not the model.
 */
#pragma once

#include <glib.h>

#include "mshed-anim.h"
#include "mshed-camera.h"
#include "mshed-diff-marks.h"
#include "mshed-model.h"
#include "mshed-render-scene.h"
#include "mshed-selection.h"

G_BEGIN_DECLS

#define MSHED_RENDER_ERROR (mshed_render_error_quark ())

typedef enum {
  MSHED_RENDER_ERROR_UNSUPPORTED,   /* no EGL surfaceless platform, no GL 3.3 core */
  MSHED_RENDER_ERROR_CONTEXT,       /* context creation or make-current failed */
  MSHED_RENDER_ERROR_SHADER,        /* a shader failed to compile or link */
  MSHED_RENDER_ERROR_FRAMEBUFFER,   /* an FBO is incomplete */
  MSHED_RENDER_ERROR_IO,            /* writing an image failed */
} MshedRenderError;

GQuark mshed_render_error_quark (void);

typedef enum {
  MSHED_OVERLAY_NONE           = 0,
  MSHED_OVERLAY_SHADED         = 1 << 0,   /* the surfaces */
  MSHED_OVERLAY_WIREFRAME      = 1 << 1,
  MSHED_OVERLAY_NORMALS        = 1 << 2,   /* vertex normals as lines */
  MSHED_OVERLAY_UV_CHECKER     = 1 << 3,
  MSHED_OVERLAY_SLOT_BOXES     = 1 << 4,   /* drawn slots' AABBs */
  MSHED_OVERLAY_SLOT_SPHERES   = 1 << 5,
  MSHED_OVERLAY_HULL           = 1 << 6,   /* header: 8 hull points (order undocumented) */
  MSHED_OVERLAY_HEADER_SPHERE  = 1 << 7,
  MSHED_OVERLAY_CAPSULE        = 1 << 8,
  MSHED_OVERLAY_GRID           = 1 << 9,
  MSHED_OVERLAY_AXES           = 1 << 10,
  MSHED_OVERLAY_MATERIALS      = 1 << 11,  /* tint batches by materialIndex (DFM: by group) */
  MSHED_OVERLAY_SKELETON       = 1 << 12,  /* DFM: bones from parent to child */
  MSHED_OVERLAY_HARDPOINTS     = 1 << 13,  /* DFM: hardpoint frames as three axes */
} MshedOverlays;

#define MSHED_OVERLAY_DEFAULT (MSHED_OVERLAY_SHADED | MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES)

typedef enum {
  MSHED_SELECT_NODE,
  MSHED_SELECT_SLOT,
  MSHED_SELECT_BATCH,
  MSHED_SELECT_TRIANGLE,   /* MSHED_TRIANGLE_KEY (batch, triangle number in the batch) */
  MSHED_SELECT_VERTEX,     /* Res3 row */
  MSHED_N_SELECT_KINDS
} MshedSelectKind;

/* A triangle of a batch as one number (indexCount is 16-bit: at most 21845 triangles). */
#define MSHED_TRIANGLE_KEY(batch, triangle) \
  (((guint) (batch) << 15) | ((guint) (triangle) & 0x7fff))

typedef struct {
  guint node;             /* MSHED_NONE: nothing at the pixel (or all-batches mode) */
  guint slot;
  guint batch;
  guint triangle;         /* triangle number inside the batch */
  guint index_position;   /* Res6 element of its first index: indexStart + 3 * triangle */
  guint vertices[3];      /* absolute Res3 rows */
  guint descriptor;       /* Res7 row by the slot mapping (mshed-render-scene.h), or G_MAXUINT */
  guint item;             /* draw item number */
  gboolean hit;
} MshedPick;

typedef struct {
  guint   n_items;          /* draw items of the current view */
  guint   n_draw_calls;     /* GL draw calls of the last draw */
  guint64 n_triangles;      /* triangles of the shaded pass */
  gsize   upload_bytes;     /* bytes sent by the last prepare */
  guint   n_gl_errors;      /* glGetError / KHR_debug errors seen since realize */
} MshedRenderStats;

typedef struct _MshedRenderer MshedRenderer;

MshedRenderer *mshed_renderer_new              (void);
void           mshed_renderer_free             (MshedRenderer       *self);

/* Need the context current. Realize compiles the shaders; unrealize frees every GL object. */
gboolean       mshed_renderer_realize          (MshedRenderer       *self,
                                                GError             **error);
void           mshed_renderer_unrealize        (MshedRenderer       *self);
gboolean       mshed_renderer_is_realized      (MshedRenderer       *self);

/* The model (NULL: nothing). The camera is framed on the first model only. */
void           mshed_renderer_set_model        (MshedRenderer       *self,
                                                MshedModel          *model);
MshedModel    *mshed_renderer_get_model        (MshedRenderer       *self);
MshedRenderScene *mshed_renderer_get_scene     (MshedRenderer       *self);

/* A deformable model instead (NULL: nothing), drawn skinned by the scene's pose
 * (mshed_render_scene_get_dfm_pose); set_view's @lod is the level. */
void           mshed_renderer_set_dfm          (MshedRenderer       *self,
                                                MshedDfm            *dfm);
MshedDfm      *mshed_renderer_get_dfm          (MshedRenderer       *self);
/* The pose's values changed: skin again. On the GPU (the default) that uploads only the
 * skinning matrices; the bind-pose vertices go up once per model, level or edit. */
void           mshed_renderer_pose_changed     (MshedRenderer       *self);
/* Skin a DFM in the vertex shader (TRUE, the default; MSHED_CPU_SKINNING=1 in the environment
 * makes FALSE the default) or upload the CPU-skinned vertices (FALSE). The GPU is used when
 * asked and the skeleton's matrices fit GL_MAX_TEXTURE_BUFFER_SIZE; skins_on_gpu tells what
 * the last prepare did. Either way the scene's CPU skinning is the reference. */
void           mshed_renderer_set_gpu_skinning (MshedRenderer       *self,
                                                gboolean             gpu);
gboolean       mshed_renderer_get_gpu_skinning (MshedRenderer       *self);
gboolean       mshed_renderer_skins_on_gpu     (MshedRenderer       *self);
/* Shade a DFM by the weights of @bone (a heat map; -1: normal shading). */
void           mshed_renderer_set_weight_bone  (MshedRenderer       *self,
                                                gint                 bone);
gint           mshed_renderer_get_weight_bone  (MshedRenderer       *self);
/* The compare window's ghost overlay (docs/diff.md §7): one mark per vertex of the scene,
 * MshedDiffMark (mshed_diff_marks_dup_vertex_marks); a triangle with a marked corner is
 * coloured (orange: changed; only on this side: red, or green when @added), the rest ghosted
 * grey. NULL clears (normal shading). */
void           mshed_renderer_set_diff_marks   (MshedRenderer       *self,
                                                const guint8        *marks,
                                                guint                n_marks,
                                                gboolean             added);
/* Where model point @p lands in a @width x @height view (top-left origin); FALSE when it is
 * behind the camera. */
gboolean       mshed_renderer_project          (MshedRenderer       *self,
                                                int                  width,
                                                int                  height,
                                                const float          p[3],
                                                float               *x,
                                                float               *y);

/* What changed in the model since the last draw. */
void           mshed_renderer_vertices_changed (MshedRenderer       *self,
                                                guint                first,
                                                guint                count);
void           mshed_renderer_topology_changed (MshedRenderer       *self);
void           mshed_renderer_nodes_changed    (MshedRenderer       *self);
void           mshed_renderer_animation_changed (MshedRenderer      *self);
void           mshed_renderer_bounds_changed   (MshedRenderer       *self);
void           mshed_renderer_model_changed    (MshedRenderer       *self);

void           mshed_renderer_set_view         (MshedRenderer       *self,
                                                guint                lod,
                                                guint                group);
void           mshed_renderer_set_time         (MshedRenderer       *self,
                                                float                frame);
float          mshed_renderer_get_time         (MshedRenderer       *self);
void           mshed_renderer_set_pose_options (MshedRenderer       *self,
                                                const MshedPoseOptions *options);
void           mshed_renderer_set_overlays     (MshedRenderer       *self,
                                                MshedOverlays        overlays);
MshedOverlays  mshed_renderer_get_overlays     (MshedRenderer       *self);
void           mshed_renderer_set_background   (MshedRenderer       *self,
                                                const float          rgba[4]);
void           mshed_renderer_set_node_visible (MshedRenderer       *self,
                                                guint                node,
                                                gboolean             visible);
gboolean       mshed_renderer_get_node_visible (MshedRenderer       *self,
                                                guint                node);
void           mshed_renderer_show_all_nodes   (MshedRenderer       *self);

void           mshed_renderer_clear_selection  (MshedRenderer       *self);
void           mshed_renderer_select           (MshedRenderer       *self,
                                                MshedSelectKind      kind,
                                                guint                index,
                                                gboolean             selected);
gboolean       mshed_renderer_is_selected      (MshedRenderer       *self,
                                                MshedSelectKind      kind,
                                                guint                index);
gboolean       mshed_renderer_has_selection    (MshedRenderer       *self);
/* Replaces the selection with the linked-views one: nodes, slots, batches, and the
 * triangles that Res7 descriptors map to. NULL clears. */
void           mshed_renderer_set_selection    (MshedRenderer       *self,
                                                const MshedSelection *selection);

/* Recomputed bounds (e.g. after a vertex edit): when set, the model's stored bounds that
 * differ from them are drawn in a warning colour next to them. NULL / 0 clears. */
void           mshed_renderer_set_recomputed_bounds (MshedRenderer  *self,
                                                const MshedSlotBounds *slots,
                                                guint                n_slots,
                                                const MshedHeader   *header);

MshedCamera   *mshed_renderer_get_camera       (MshedRenderer       *self);
/* Fit the camera to what is drawn / to the selection (FALSE when nothing is selected). */
void           mshed_renderer_frame_all        (MshedRenderer       *self,
                                                float                aspect);
gboolean       mshed_renderer_frame_selection  (MshedRenderer       *self,
                                                float                aspect);

/* Uploads whatever changed (context current). */
void           mshed_renderer_prepare          (MshedRenderer       *self);
/* Draws into the framebuffer bound now, with a viewport of @width x @height pixels. */
void           mshed_renderer_draw             (MshedRenderer       *self,
                                                int                  width,
                                                int                  height);
/* What is under pixel (@x, @y) (top-left origin) of a @width x @height view. Renders ids into
 * a private integer framebuffer and restores the caller's framebuffer and viewport. */
gboolean       mshed_renderer_pick             (MshedRenderer       *self,
                                                int                  width,
                                                int                  height,
                                                int                  x,
                                                int                  y,
                                                MshedPick           *out);

void           mshed_renderer_get_stats        (MshedRenderer       *self,
                                                MshedRenderStats    *out);

G_END_DECLS
