/* mshed-renderer-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The renderer's struct, shared by mshed-renderer.c (life cycle, model and selection state,
 * camera framing, buffers and uploads, drawing, picking), mshed-renderer-shaders.c (the GLSL
 * sources and the programs built from them) and mshed-renderer-overlays.c (the line buffer:
 * grid, axes, slot boxes and spheres, header hull, sphere and capsule).
 */
#pragma once

#include <epoxy/gl.h>

#include "mshed-renderer.h"

G_BEGIN_DECLS

#define ATTR_POS 0
#define ATTR_NRM 1
#define ATTR_UV  2
#define ATTR_SEL 3
#define ATTR_JOINTS  4   /* DFM on the GPU: four skinning matrix numbers (uint16) */
#define ATTR_WEIGHTS 5   /* and their weights */

#define MODE_SHADED  0
#define MODE_CHECKER 1
#define MODE_FLAT    2
#define MODE_HEAT    3   /* a DFM bone's weights, carried in the UV's u */
#define MODE_DIFF_A  4   /* diff marks: UV u changed, v only here (red) */
#define MODE_DIFF_B  5   /* the same, only here in green */

typedef struct {
  float p[3];
  float c[4];
} LineVertex;

/* Highlight levels, drawn weakest first: an item's node or slot is selected (context), its
 * batch is, or single triangles are. */
#define N_SEL_LEVELS 3

typedef struct {
  guint first[N_SEL_LEVELS];   /* into the selection element buffer */
  guint count[N_SEL_LEVELS];
} SelRanges;

typedef struct {
  GLuint program;
  GLint  u_vp;
  GLint  u_model;
  GLint  u_normal_mat;
  GLint  u_color;
  GLint  u_mode;
  GLint  u_eye;
  GLint  u_item;
  GLint  u_length;
  GLint  u_wire;
  GLint  u_skinned;   /* 1: skin a_pos and a_nrm with the matrices in u_skin */
} Program;

struct _MshedRenderer {
  MshedModel       *model;
  MshedDfm         *dfm;
  gint              weight_bone;
  GByteArray       *diff_marks;     /* MshedDiffMark per vertex, NULL: none */
  gboolean          diff_added;
  MshedRenderScene *scene;
  gboolean          framed_once;
  MshedCamera       camera;
  guint             lod;
  guint             group;
  float             time;
  MshedPoseOptions  pose_options;
  MshedOverlays     overlays;
  float             background[4];
  GHashTable       *hidden_nodes;
  GHashTable       *selection[MSHED_N_SELECT_KINDS];

  MshedSlotBounds  *recomputed;
  guint             n_recomputed;
  gboolean          has_recomputed_header;
  MshedHeader       recomputed_header;

  /* pending uploads */
  gboolean          dirty_vertices_all;
  guint             dirty_first;
  guint             dirty_end;
  gboolean          dirty_elements;
  gboolean          dirty_selection;
  gboolean          dirty_skin;       /* the pose changed: new matrices (GPU skinning) */

  /* skinning a DFM: in the vertex shader (bind-pose vertices uploaded once, per pose only the
   * matrices, a texture buffer of 3 RGBA32F texels each) or, when asked or when the skeleton
   * does not fit, on the CPU (skinned positions uploaded) */
  gboolean          gpu_skinning;     /* asked for */
  gboolean          skin_on_gpu;      /* what the uploaded vertices are */
  GLint             max_skin_texels;  /* GL_MAX_TEXTURE_BUFFER_SIZE */
  GLuint            vbo_joints;
  GLuint            vbo_weights;
  GLuint            skin_buffer;
  GLuint            skin_texture;

  /* GL */
  gboolean          realized;
  gboolean          debug;
  gboolean          debug_callback;
  GLuint            vao;
  GLuint            vbo_pos;
  GLuint            vbo_nrm;
  GLuint            vbo_uv;
  GLuint            vbo_sel;
  GLuint            ebo;
  GLuint            sel_ebo;
  guint             gl_n_vertices;
  GArray           *sel_ranges;     /* SelRanges per item */
  guint             n_selected_vertices;
  GLuint            line_vao;
  GLuint            line_vbo;
  GArray           *lines;          /* LineVertex pairs */
  Program           mesh;
  Program           mesh_wire;      /* shaded with the wireframe in one pass (geometry shader) */
  Program           normals;
  Program           pick;
  Program           lineprog;
  Program           points;
  GLuint            pick_fbo;
  GLuint            pick_color;
  GLuint            pick_depth;
  int               pick_width;
  int               pick_height;

  MshedRenderStats  stats;
};

/* mshed-renderer.c */
extern const float _mshed_renderer_select_line[4];

gboolean _mshed_renderer_item_visible    (MshedRenderer       *self,
                                          const MshedDrawItem *item);

/* mshed-renderer-shaders.c */
gboolean _mshed_renderer_build_programs  (MshedRenderer       *self,
                                          GError             **error);
void     _mshed_renderer_delete_programs (MshedRenderer       *self);

/* mshed-renderer-overlays.c */
float    _mshed_renderer_luminance       (const float          c[4]);
void     _mshed_renderer_build_grid      (MshedRenderer       *self);
void     _mshed_renderer_build_bounds    (MshedRenderer       *self);
void     _mshed_renderer_build_skeleton  (MshedRenderer       *self);
void     _mshed_renderer_draw_lines      (MshedRenderer       *self,
                                          const mat4           vp);

G_END_DECLS
