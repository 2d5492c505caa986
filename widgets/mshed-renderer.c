/* mshed-renderer.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Buffers: positions, normals and UVs in three vertex buffers (one entry per Res3 row), one
 * element buffer with the validated triangles of every batch (MshedRenderScene), a second
 * element buffer with the selected triangles, a selection flag per vertex, and a line buffer
 * rebuilt each frame for the grid, axes and bounds. Each draw item (node, slot, batch) is one
 * glDrawElements with the node's world matrix, so gl_PrimitiveID is the triangle's number in
 * the item; picking writes (item + 1, gl_PrimitiveID) into an RG32UI target.
 *
 * The GLSL sources and programs live in mshed-renderer-shaders.c, the line buffer's
 * geometry (grid, axes, bounds) in mshed-renderer-overlays.c; the struct they share in
 * mshed-renderer-private.h.
 */
#define G_LOG_DOMAIN "mshed-render"

#include "config.h"

#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-renderer.h"
#include "mshed-renderer-private.h"

G_DEFINE_QUARK (mshed-render-error-quark, mshed_render_error)

/* Colours -------------------------------------------------------------------------------- */

static const float clay[4] = { 0.74f, 0.72f, 0.68f, 1.0f };
static const float select_fill[N_SEL_LEVELS][4] = {
  { 1.0f, 0.55f, 0.10f, 0.15f },   /* node / slot */
  { 1.0f, 0.55f, 0.10f, 0.35f },   /* batch */
  { 1.0f, 0.50f, 0.05f, 0.60f },   /* triangles */
};
const float _mshed_renderer_select_line[4] = { 1.0f, 0.60f, 0.15f, 1.0f };
static const float normal_color[4] = { 0.25f, 0.60f, 1.0f, 1.0f };
static const float material_palette[8][3] = {
  { 0.74f, 0.72f, 0.68f }, { 0.55f, 0.70f, 0.85f }, { 0.85f, 0.62f, 0.55f },
  { 0.60f, 0.80f, 0.58f }, { 0.82f, 0.76f, 0.50f }, { 0.72f, 0.60f, 0.82f },
  { 0.52f, 0.78f, 0.76f }, { 0.86f, 0.58f, 0.72f },
};

/* GL helpers ----------------------------------------------------------------------------- */

static void GLAPIENTRY
debug_message_cb (GLenum        source,
                  GLenum        type,
                  GLuint        id,
                  GLenum        severity,
                  GLsizei       length,
                  const GLchar *message,
                  const void   *user_data)
{
  MshedRenderer *self = (MshedRenderer *) user_data;

  if (type == GL_DEBUG_TYPE_ERROR)
    {
      self->stats.n_gl_errors++;
      g_warning ("GL error (KHR_debug): %s", message);
    }
  else if (severity == GL_DEBUG_SEVERITY_HIGH)
    g_message ("GL: %s", message);
  else
    g_debug ("GL: %s", message);
}

static void
check_gl (MshedRenderer *self,
          const char    *where)
{
  GLenum err;

  if (!self->debug)
    return;
  while ((err = glGetError ()) != GL_NO_ERROR)
    {
      /* With KHR_debug the callback has already counted and described it. */
      if (self->debug_callback)
        g_debug ("glGetError 0x%04x after %s", err, where);
      else
        {
          self->stats.n_gl_errors++;
          g_warning ("GL error 0x%04x after %s", err, where);
        }
    }
}

/* Life cycle ----------------------------------------------------------------------------- */

MshedRenderer *
mshed_renderer_new (void)
{
  MshedRenderer *self = g_new0 (MshedRenderer, 1);
  static const float default_bg[4] = { 0.16f, 0.16f, 0.18f, 1.0f };

  mshed_camera_init (&self->camera);
  mshed_pose_options_init (&self->pose_options);
  self->overlays = MSHED_OVERLAY_DEFAULT;
  self->weight_bone = -1;
  memcpy (self->background, default_bg, sizeof default_bg);
  self->hidden_nodes = g_hash_table_new (NULL, NULL);
  for (guint k = 0; k < MSHED_N_SELECT_KINDS; k++)
    self->selection[k] = g_hash_table_new (NULL, NULL);
  self->sel_ranges = g_array_new (FALSE, TRUE, sizeof (SelRanges));
  self->lines = g_array_new (FALSE, FALSE, sizeof (LineVertex));
#ifndef NDEBUG
  self->debug = TRUE;
#endif
  if (g_getenv ("MSHED_GL_DEBUG") != NULL)
    self->debug = g_strcmp0 (g_getenv ("MSHED_GL_DEBUG"), "0") != 0;
  /* MSHED_CPU_SKINNING=1: skin DFMs on the CPU, the path before GPU skinning (benchmarks) */
  self->gpu_skinning = g_getenv ("MSHED_CPU_SKINNING") == NULL ||
                       g_strcmp0 (g_getenv ("MSHED_CPU_SKINNING"), "0") == 0;
  return self;
}

void
mshed_renderer_free (MshedRenderer *self)
{
  if (self == NULL)
    return;
  if (self->realized)
    g_warning ("MshedRenderer freed while realized: GL objects leak");
  g_clear_pointer (&self->scene, mshed_render_scene_free);
  g_clear_pointer (&self->model, mshed_model_unref);
  g_clear_pointer (&self->dfm, mshed_dfm_unref);
  g_clear_pointer (&self->diff_marks, g_byte_array_unref);
  g_hash_table_unref (self->hidden_nodes);
  for (guint k = 0; k < MSHED_N_SELECT_KINDS; k++)
    g_hash_table_unref (self->selection[k]);
  g_array_unref (self->sel_ranges);
  g_array_unref (self->lines);
  g_free (self->recomputed);
  g_free (self);
}

gboolean
mshed_renderer_realize (MshedRenderer  *self,
                        GError        **error)
{
  g_return_val_if_fail (!self->realized, TRUE);

  if (epoxy_gl_version () < 33 || !epoxy_is_desktop_gl ())
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_UNSUPPORTED,
                   _("OpenGL 3.3 is required, the context offers %d.%d"),
                   epoxy_gl_version () / 10, epoxy_gl_version () % 10);
      return FALSE;
    }

  self->debug_callback = FALSE;
  if (self->debug && (epoxy_gl_version () >= 43 || epoxy_has_gl_extension ("GL_KHR_debug")))
    {
      glEnable (GL_DEBUG_OUTPUT);
      glEnable (GL_DEBUG_OUTPUT_SYNCHRONOUS);
      glDebugMessageCallback (debug_message_cb, self);
      self->debug_callback = TRUE;
    }
  while (glGetError () != GL_NO_ERROR)
    ;

  if (!_mshed_renderer_build_programs (self, error))
    {
      if (self->debug_callback)
        glDebugMessageCallback (NULL, NULL);
      self->debug_callback = FALSE;
      return FALSE;
    }

  glGenVertexArrays (1, &self->vao);
  glGenBuffers (1, &self->vbo_pos);
  glGenBuffers (1, &self->vbo_nrm);
  glGenBuffers (1, &self->vbo_uv);
  glGenBuffers (1, &self->vbo_sel);
  glGenBuffers (1, &self->ebo);
  glGenBuffers (1, &self->sel_ebo);
  glGenBuffers (1, &self->vbo_joints);
  glGenBuffers (1, &self->vbo_weights);
  glGenBuffers (1, &self->skin_buffer);
  glGenTextures (1, &self->skin_texture);
  self->max_skin_texels = 0;
  glGetIntegerv (GL_MAX_TEXTURE_BUFFER_SIZE, &self->max_skin_texels);
  glBindBuffer (GL_TEXTURE_BUFFER, self->skin_buffer);
  glBufferData (GL_TEXTURE_BUFFER, 12 * sizeof (float), NULL, GL_DYNAMIC_DRAW);
  glBindTexture (GL_TEXTURE_BUFFER, self->skin_texture);
  glTexBuffer (GL_TEXTURE_BUFFER, GL_RGBA32F, self->skin_buffer);
  glBindTexture (GL_TEXTURE_BUFFER, 0);
  glBindBuffer (GL_TEXTURE_BUFFER, 0);
  glBindVertexArray (self->vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pos);
  glVertexAttribPointer (ATTR_POS, 3, GL_FLOAT, GL_FALSE, 0, NULL);
  glEnableVertexAttribArray (ATTR_POS);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_nrm);
  glVertexAttribPointer (ATTR_NRM, 3, GL_FLOAT, GL_FALSE, 0, NULL);
  glEnableVertexAttribArray (ATTR_NRM);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_uv);
  glVertexAttribPointer (ATTR_UV, 2, GL_FLOAT, GL_FALSE, 0, NULL);
  glEnableVertexAttribArray (ATTR_UV);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_sel);
  glVertexAttribPointer (ATTR_SEL, 1, GL_UNSIGNED_BYTE, GL_TRUE, 0, NULL);
  glEnableVertexAttribArray (ATTR_SEL);
  /* enabled while a DFM skins on the GPU (prepare) */
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_joints);
  glVertexAttribIPointer (ATTR_JOINTS, 4, GL_UNSIGNED_SHORT, 0, NULL);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_weights);
  glVertexAttribPointer (ATTR_WEIGHTS, 4, GL_FLOAT, GL_FALSE, 0, NULL);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->ebo);
  glBindVertexArray (0);

  glGenVertexArrays (1, &self->line_vao);
  glGenBuffers (1, &self->line_vbo);
  glBindVertexArray (self->line_vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->line_vbo);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, sizeof (LineVertex),
                         (void *) G_STRUCT_OFFSET (LineVertex, p));
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (1, 4, GL_FLOAT, GL_FALSE, sizeof (LineVertex),
                         (void *) G_STRUCT_OFFSET (LineVertex, c));
  glEnableVertexAttribArray (1);
  glBindVertexArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);

  self->realized = TRUE;
  self->skin_on_gpu = FALSE;
  self->dirty_skin = TRUE;
  self->gl_n_vertices = 0;
  self->dirty_vertices_all = TRUE;
  self->dirty_elements = TRUE;
  self->dirty_selection = TRUE;
  check_gl (self, "realize");
  return TRUE;
}

void
mshed_renderer_unrealize (MshedRenderer *self)
{
  GLuint buffers[10];

  if (!self->realized)
    return;
  _mshed_renderer_delete_programs (self);
  buffers[0] = self->vbo_pos;
  buffers[1] = self->vbo_nrm;
  buffers[2] = self->vbo_uv;
  buffers[3] = self->vbo_sel;
  buffers[4] = self->ebo;
  buffers[5] = self->sel_ebo;
  buffers[6] = self->line_vbo;
  buffers[7] = self->vbo_joints;
  buffers[8] = self->vbo_weights;
  buffers[9] = self->skin_buffer;
  glDeleteBuffers (10, buffers);
  glDeleteTextures (1, &self->skin_texture);
  self->skin_texture = 0;
  glDeleteVertexArrays (1, &self->vao);
  glDeleteVertexArrays (1, &self->line_vao);
  if (self->pick_fbo)
    {
      glDeleteFramebuffers (1, &self->pick_fbo);
      glDeleteRenderbuffers (1, &self->pick_color);
      glDeleteRenderbuffers (1, &self->pick_depth);
    }
  self->pick_fbo = self->pick_color = self->pick_depth = 0;
  self->pick_width = self->pick_height = 0;
  self->vao = self->line_vao = 0;
  check_gl (self, "unrealize");
  if (self->debug_callback)
    {
      glDebugMessageCallback (NULL, NULL);
      glDisable (GL_DEBUG_OUTPUT);
    }
  self->debug_callback = FALSE;
  self->realized = FALSE;
}

gboolean
mshed_renderer_is_realized (MshedRenderer *self)
{
  return self->realized;
}

/* Model and changes ---------------------------------------------------------------------- */

static void
invalidate_all (MshedRenderer *self)
{
  self->dirty_vertices_all = TRUE;
  self->dirty_elements = TRUE;
  self->dirty_selection = TRUE;
}

void
mshed_renderer_set_model (MshedRenderer *self,
                          MshedModel    *model)
{
  if (model != NULL && model == self->model)
    return;
  g_clear_pointer (&self->scene, mshed_render_scene_free);
  g_clear_pointer (&self->model, mshed_model_unref);
  g_clear_pointer (&self->dfm, mshed_dfm_unref);
  self->weight_bone = -1;
  g_hash_table_remove_all (self->hidden_nodes);
  for (guint k = 0; k < MSHED_N_SELECT_KINDS; k++)
    g_hash_table_remove_all (self->selection[k]);
  g_clear_pointer (&self->recomputed, g_free);
  self->n_recomputed = 0;
  self->has_recomputed_header = FALSE;
  if (model)
    {
      self->model = mshed_model_ref (model);
      self->scene = mshed_render_scene_new (model);
      mshed_render_scene_set_time (self->scene, self->time, &self->pose_options);
      mshed_render_scene_set_view (self->scene, self->lod, self->group);
      if (!self->framed_once)
        {
          mshed_renderer_frame_all (self, 1.0f);
          self->framed_once = TRUE;
        }
    }
  invalidate_all (self);
}

MshedModel *
mshed_renderer_get_model (MshedRenderer *self)
{
  return self->model;
}

void
mshed_renderer_set_dfm (MshedRenderer *self,
                        MshedDfm      *dfm)
{
  if (dfm != NULL && dfm == self->dfm)
    return;
  mshed_renderer_set_model (self, NULL);
  if (dfm == NULL)
    return;
  self->dfm = mshed_dfm_ref (dfm);
  self->scene = mshed_render_scene_new_for_dfm (dfm);
  mshed_render_scene_set_view (self->scene, self->lod, 0);
  if (!self->framed_once)
    {
      mshed_renderer_frame_all (self, 1.0f);
      self->framed_once = TRUE;
    }
  invalidate_all (self);
}

MshedDfm *
mshed_renderer_get_dfm (MshedRenderer *self)
{
  return self->dfm;
}

void
mshed_renderer_pose_changed (MshedRenderer *self)
{
  if (self->scene == NULL || self->dfm == NULL)
    return;
  mshed_render_scene_pose_changed (self->scene);
  /* on the GPU only the matrices change; on the CPU every skinned vertex */
  self->dirty_skin = TRUE;
  if (!self->skin_on_gpu)
    self->dirty_vertices_all = TRUE;
}

void
mshed_renderer_set_gpu_skinning (MshedRenderer *self,
                                 gboolean       gpu)
{
  gpu = !!gpu;
  if (gpu == self->gpu_skinning)
    return;
  self->gpu_skinning = gpu;
  self->dirty_vertices_all = TRUE;
}

gboolean
mshed_renderer_get_gpu_skinning (MshedRenderer *self)
{
  return self->gpu_skinning;
}

gboolean
mshed_renderer_skins_on_gpu (MshedRenderer *self)
{
  return self->skin_on_gpu;
}

void
mshed_renderer_set_weight_bone (MshedRenderer *self,
                                gint           bone)
{
  bone = MAX (bone, -1);
  if (bone == self->weight_bone)
    return;
  self->weight_bone = bone;
  self->dirty_vertices_all = TRUE;
}

void
mshed_renderer_set_diff_marks (MshedRenderer *self,
                               const guint8  *marks,
                               guint          n_marks,
                               gboolean       added)
{
  if (marks == NULL && self->diff_marks == NULL)
    return;  /* nothing to upload again */
  g_clear_pointer (&self->diff_marks, g_byte_array_unref);
  if (marks != NULL)
    self->diff_marks = g_byte_array_append (g_byte_array_new (), marks, n_marks);
  self->diff_added = added;
  self->dirty_vertices_all = TRUE;
}

gint
mshed_renderer_get_weight_bone (MshedRenderer *self)
{
  return self->weight_bone;
}

MshedRenderScene *
mshed_renderer_get_scene (MshedRenderer *self)
{
  return self->scene;
}

void
mshed_renderer_vertices_changed (MshedRenderer *self,
                                 guint          first,
                                 guint          count)
{
  guint end;

  if (count == 0)
    return;
  end = first + count < first ? G_MAXUINT : first + count;
  if (self->dirty_first >= self->dirty_end)
    {
      self->dirty_first = first;
      self->dirty_end = end;
    }
  else
    {
      self->dirty_first = MIN (self->dirty_first, first);
      self->dirty_end = MAX (self->dirty_end, end);
    }
}

void
mshed_renderer_topology_changed (MshedRenderer *self)
{
  if (self->scene)
    mshed_render_scene_topology_changed (self->scene);
  self->dirty_elements = TRUE;
  self->dirty_selection = TRUE;
  if (self->dfm)
    self->dirty_vertices_all = TRUE;   /* the bind pose, the weights or the skeleton */
}

void
mshed_renderer_nodes_changed (MshedRenderer *self)
{
  if (self->scene)
    mshed_render_scene_nodes_changed (self->scene);
  self->dirty_selection = TRUE;
}

void
mshed_renderer_animation_changed (MshedRenderer *self)
{
  if (self->scene)
    mshed_render_scene_set_time (self->scene, self->time, &self->pose_options);
}

void
mshed_renderer_bounds_changed (MshedRenderer *self)
{
  /* Bounds are read from the model on every draw; nothing is cached. */
}

void
mshed_renderer_model_changed (MshedRenderer *self)
{
  if (self->scene)
    {
      mshed_render_scene_topology_changed (self->scene);
      mshed_render_scene_set_time (self->scene, self->time, &self->pose_options);
    }
  invalidate_all (self);
}

void
mshed_renderer_set_view (MshedRenderer *self,
                         guint          lod,
                         guint          group)
{
  /* a DFM's level may be past the MSH LODs; the scene clamps to what the model has */
  self->lod = self->dfm ? MIN (lod, 255) : MIN (lod, MSHED_N_LODS - 1);
  self->group = MIN (group, MSHED_N_GROUPS - 1);
  if (self->scene)
    mshed_render_scene_set_view (self->scene, self->lod, self->group);
  self->dirty_selection = TRUE;
  if (self->dfm)
    {
      /* another level: other vertices and triangles */
      self->dirty_vertices_all = TRUE;
      self->dirty_elements = TRUE;
    }
}

void
mshed_renderer_set_time (MshedRenderer *self,
                         float          frame)
{
  self->time = isfinite (frame) ? frame : 0.0f;
  if (self->scene)
    mshed_render_scene_set_time (self->scene, self->time, &self->pose_options);
}

float
mshed_renderer_get_time (MshedRenderer *self)
{
  return self->time;
}

void
mshed_renderer_set_pose_options (MshedRenderer          *self,
                                 const MshedPoseOptions *options)
{
  self->pose_options = *options;
  if (self->scene)
    mshed_render_scene_set_time (self->scene, self->time, &self->pose_options);
}

void
mshed_renderer_set_overlays (MshedRenderer *self,
                             MshedOverlays  overlays)
{
  self->overlays = overlays;
}

MshedOverlays
mshed_renderer_get_overlays (MshedRenderer *self)
{
  return self->overlays;
}

void
mshed_renderer_set_background (MshedRenderer *self,
                               const float    rgba[4])
{
  memcpy (self->background, rgba, sizeof self->background);
}

void
mshed_renderer_set_node_visible (MshedRenderer *self,
                                 guint          node,
                                 gboolean       visible)
{
  if (visible)
    g_hash_table_remove (self->hidden_nodes, GUINT_TO_POINTER (node + 1));
  else
    g_hash_table_add (self->hidden_nodes, GUINT_TO_POINTER (node + 1));
}

gboolean
mshed_renderer_get_node_visible (MshedRenderer *self,
                                 guint          node)
{
  return !g_hash_table_contains (self->hidden_nodes, GUINT_TO_POINTER (node + 1));
}

void
mshed_renderer_show_all_nodes (MshedRenderer *self)
{
  g_hash_table_remove_all (self->hidden_nodes);
}

gboolean
_mshed_renderer_item_visible (MshedRenderer       *self,
                              const MshedDrawItem *item)
{
  return item->node == MSHED_NONE ||
         !g_hash_table_contains (self->hidden_nodes, GUINT_TO_POINTER (item->node + 1));
}

/* Selection ------------------------------------------------------------------------------ */

void
mshed_renderer_clear_selection (MshedRenderer *self)
{
  for (guint k = 0; k < MSHED_N_SELECT_KINDS; k++)
    g_hash_table_remove_all (self->selection[k]);
  self->dirty_selection = TRUE;
}

void
mshed_renderer_select (MshedRenderer   *self,
                       MshedSelectKind  kind,
                       guint            index,
                       gboolean         selected)
{
  g_return_if_fail (kind < MSHED_N_SELECT_KINDS);
  if (index == G_MAXUINT)
    return;
  if (selected)
    g_hash_table_add (self->selection[kind], GUINT_TO_POINTER (index + 1));
  else
    g_hash_table_remove (self->selection[kind], GUINT_TO_POINTER (index + 1));
  self->dirty_selection = TRUE;
}

gboolean
mshed_renderer_is_selected (MshedRenderer   *self,
                            MshedSelectKind  kind,
                            guint            index)
{
  g_return_val_if_fail (kind < MSHED_N_SELECT_KINDS, FALSE);
  return g_hash_table_contains (self->selection[kind], GUINT_TO_POINTER (index + 1));
}

gboolean
mshed_renderer_has_selection (MshedRenderer *self)
{
  for (guint k = 0; k < MSHED_N_SELECT_KINDS; k++)
    if (g_hash_table_size (self->selection[k]) > 0)
      return TRUE;
  return FALSE;
}

/* 0: node or slot selected, 1: batch selected, -1: neither */
static int
item_level (MshedRenderer       *self,
            const MshedDrawItem *item)
{
  if (mshed_renderer_is_selected (self, MSHED_SELECT_BATCH, item->batch))
    return 1;
  if ((item->node != MSHED_NONE &&
       mshed_renderer_is_selected (self, MSHED_SELECT_NODE, item->node)) ||
      (item->slot != MSHED_NONE &&
       mshed_renderer_is_selected (self, MSHED_SELECT_SLOT, item->slot)))
    return 0;
  return -1;
}

static void
select_triangle_cb (guint    batch,
                    guint    triangle,
                    gpointer user_data)
{
  mshed_renderer_select (user_data, MSHED_SELECT_TRIANGLE, MSHED_TRIANGLE_KEY (batch, triangle),
                         TRUE);
}

static void
select_rows (MshedRenderer   *self,
             MshedSelectKind  kind,
             GArray          *rows)
{
  for (guint i = 0; rows && i < rows->len; i++)
    mshed_renderer_select (self, kind, g_array_index (rows, guint, i), TRUE);
}

void
mshed_renderer_set_selection (MshedRenderer        *self,
                              const MshedSelection *selection)
{
  mshed_renderer_clear_selection (self);
  if (selection == NULL)
    return;
  select_rows (self, MSHED_SELECT_NODE, selection->nodes);
  select_rows (self, MSHED_SELECT_SLOT, selection->slots);
  select_rows (self, MSHED_SELECT_BATCH, selection->batches);
  if (self->scene && selection->tris && selection->tris->len > 0)
    {
      guint n_slots = self->model ? mshed_model_get_n_rows (self->model, MSHED_TABLE_SLOTS) : 0;

      for (guint s = 0; s < n_slots; s++)
        mshed_render_scene_descriptors_to_triangles (self->scene, s,
                                                     (const guint *) selection->tris->data,
                                                     selection->tris->len,
                                                     select_triangle_cb, self);
    }
}

void
mshed_renderer_set_recomputed_bounds (MshedRenderer         *self,
                                      const MshedSlotBounds *slots,
                                      guint                  n_slots,
                                      const MshedHeader     *header)
{
  g_clear_pointer (&self->recomputed, g_free);
  self->n_recomputed = 0;
  if (slots && n_slots)
    {
      self->recomputed = g_memdup2 (slots, sizeof *slots * (gsize) n_slots);
      self->n_recomputed = n_slots;
    }
  self->has_recomputed_header = header != NULL;
  if (header)
    self->recomputed_header = *header;
}

/* Camera --------------------------------------------------------------------------------- */

MshedCamera *
mshed_renderer_get_camera (MshedRenderer *self)
{
  return &self->camera;
}

static gboolean
frame_bounds (MshedRenderer *self,
              const float    min[3],
              const float    max[3],
              float          aspect)
{
  vec3 center;
  float radius = 0.0f;

  for (guint k = 0; k < 3; k++)
    {
      float h = 0.5f * (max[k] - min[k]);

      center[k] = 0.5f * (min[k] + max[k]);
      radius += h * h;
    }
  radius = sqrtf (radius);
  if (!isfinite (radius) || !isfinite (center[0]) || !isfinite (center[1]) || !isfinite (center[2]))
    return FALSE;
  if (radius < 1e-4f)
    radius = 1.0f;
  mshed_camera_frame_sphere (&self->camera, center, radius, aspect);
  return TRUE;
}

static gboolean
visible_filter (const MshedDrawItem *item,
                gpointer             user_data)
{
  return _mshed_renderer_item_visible (user_data, item);
}

void
mshed_renderer_frame_all (MshedRenderer *self,
                          float          aspect)
{
  float min[3], max[3];
  MshedHeader header;

  if (self->scene &&
      mshed_render_scene_compute_world_bounds (self->scene, visible_filter, self, min, max) &&
      frame_bounds (self, min, max, aspect))
    return;
  /* Nothing drawn: the header sphere, else the unit sphere. */
  if (self->model && mshed_model_get_header (self->model, &header) &&
      isfinite (header.sphere[3]) && header.sphere[3] > 0.0f &&
      isfinite (header.sphere[0]) && isfinite (header.sphere[1]) && isfinite (header.sphere[2]))
    {
      mshed_camera_frame_sphere (&self->camera, header.sphere, header.sphere[3], aspect);
      return;
    }
  mshed_camera_frame_sphere (&self->camera, (vec3) { 0, 0, 0 }, 1.0f, aspect);
}

static gboolean
selection_filter (const MshedDrawItem *item,
                  gpointer             user_data)
{
  MshedRenderer *self = user_data;
  guint n_items;
  const MshedDrawItem *items = mshed_render_scene_get_items (self->scene, &n_items);
  guint index = (guint) (item - items);

  if (!_mshed_renderer_item_visible (self, item) || index >= self->sel_ranges->len)
    return FALSE;
  for (guint l = 0; l < N_SEL_LEVELS; l++)
    if (g_array_index (self->sel_ranges, SelRanges, index).count[l] > 0)
      return TRUE;
  return FALSE;
}

static void rebuild_selection_ranges (MshedRenderer *self,
                                      GArray        *elements);

gboolean
mshed_renderer_frame_selection (MshedRenderer *self,
                                float          aspect)
{
  float min[3], max[3];

  if (self->scene == NULL || !mshed_renderer_has_selection (self))
    return FALSE;
  /* Whole items or items with selected triangles (vertex-only selections frame their items
   * too coarsely; good enough to bring them into view). */
  rebuild_selection_ranges (self, NULL);
  if (!mshed_render_scene_compute_world_bounds (self->scene, selection_filter, self, min, max))
    return FALSE;
  return frame_bounds (self, min, max, aspect);
}

/* Uploads -------------------------------------------------------------------------------- */

/* @count elements of @elem_size bytes from @data into @buffer at element @first, or (when
 * @allocate) as the buffer's whole new store */
static void
upload_array (GLuint        buffer,
              gconstpointer data,
              gsize         elem_size,
              guint         first,
              guint         count,
              gboolean      allocate)
{
  glBindBuffer (GL_ARRAY_BUFFER, buffer);
  if (allocate)
    glBufferData (GL_ARRAY_BUFFER, elem_size * (gsize) count, data, GL_DYNAMIC_DRAW);
  else
    glBufferSubData (GL_ARRAY_BUFFER, elem_size * (gsize) first, elem_size * (gsize) count, data);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

static void
upload_vertices (MshedRenderer *self,
                 guint          first,
                 guint          count,
                 gboolean       allocate)
{
  g_autofree float *pos = g_new (float, 3 * (gsize) MAX (count, 1));
  g_autofree float *nrm = g_new (float, 3 * (gsize) MAX (count, 1));
  g_autofree float *uv = g_new (float, 2 * (gsize) MAX (count, 1));
  gsize n3 = 3 * sizeof (float) * (gsize) count;
  gsize n2 = 2 * sizeof (float) * (gsize) count;

  if (self->skin_on_gpu)
    {
      /* the bind pose and the influences; the shader skins */
      g_autofree guint16 *joints = g_new (guint16, 4 * (gsize) MAX (count, 1));
      g_autofree float *weights = g_new (float, 4 * (gsize) MAX (count, 1));

      mshed_render_scene_read_bind_vertices (self->scene, first, count, pos, nrm, joints,
                                             weights);
      mshed_render_scene_read_vertices (self->scene, first, count, NULL, NULL, uv);
      upload_array (self->vbo_joints, joints, 4 * sizeof (guint16), first, count, allocate);
      upload_array (self->vbo_weights, weights, 4 * sizeof (float), first, count, allocate);
      self->stats.upload_bytes += (4 * sizeof (guint16) + 4 * sizeof (float)) * (gsize) count;
    }
  else
    mshed_render_scene_read_vertices (self->scene, first, count, pos, nrm, uv);
  if (self->dfm && self->weight_bone >= 0)
    for (guint i = 0; i < count; i++)
      uv[2 * (gsize) i] = mshed_render_scene_get_bone_weight (self->scene, first + i,
                                                              (guint) self->weight_bone);
  else if (self->diff_marks)
    for (guint i = 0; i < count; i++)
      {
        guint8 m = first + i < self->diff_marks->len ? self->diff_marks->data[first + i] : 0;

        uv[2 * (gsize) i] = m == MSHED_DIFF_MARK_CHANGED;
        uv[2 * (gsize) i + 1] = m == MSHED_DIFF_MARK_ONLY;
      }
  upload_array (self->vbo_pos, pos, 3 * sizeof (float), first, count, allocate);
  upload_array (self->vbo_nrm, nrm, 3 * sizeof (float), first, count, allocate);
  upload_array (self->vbo_uv, uv, 2 * sizeof (float), first, count, allocate);
  self->stats.upload_bytes += 2 * n3 + n2;
}

/* Skinning on the GPU when asked, for a DFM whose matrices fit the texture buffer. */
static gboolean
want_gpu_skinning (MshedRenderer *self)
{
  guint n = self->dfm && self->scene ? mshed_render_scene_get_n_skin_matrices (self->scene) : 0;

  return self->gpu_skinning && n > 0 && 3 * (gint64) n <= (gint64) self->max_skin_texels;
}

static void
upload_skin_matrices (MshedRenderer *self)
{
  guint n = mshed_render_scene_get_n_skin_matrices (self->scene);
  g_autofree float *rows = g_new (float, 12 * (gsize) MAX (n, 1));
  gsize size = 12 * sizeof (float) * (gsize) n;

  mshed_render_scene_read_skin_matrices (self->scene, rows);
  glBindBuffer (GL_TEXTURE_BUFFER, self->skin_buffer);
  glBufferData (GL_TEXTURE_BUFFER, size, rows, GL_DYNAMIC_DRAW);
  glBindBuffer (GL_TEXTURE_BUFFER, 0);
  self->stats.upload_bytes += size;
}

/* the skinning inputs of @prog: on (matrices on unit 0) or off */
static void
use_skinning (MshedRenderer *self,
              const Program *prog)
{
  if (prog->u_skinned < 0)
    return;
  glUniform1i (prog->u_skinned, self->skin_on_gpu);
  if (self->skin_on_gpu)
    {
      glActiveTexture (GL_TEXTURE0);
      glBindTexture (GL_TEXTURE_BUFFER, self->skin_texture);
    }
}

/* Fills sel_ranges (per item and level) and, when @elements is given, the selected
 * elements: level 0 of every item, then level 1, then level 2. */
static void
rebuild_selection_ranges (MshedRenderer *self,
                          GArray        *elements)
{
  guint n_items = 0, n_elem = 0, n_tris = 0;
  const MshedDrawItem *items = self->scene ? mshed_render_scene_get_items (self->scene, &n_items)
                                           : NULL;
  const guint32 *all = self->scene ? mshed_render_scene_get_elements (self->scene, &n_elem) : NULL;
  const guint32 *tri_map = self->scene ? mshed_render_scene_get_tri_map (self->scene, &n_tris)
                                       : NULL;
  GHashTable *tris = self->selection[MSHED_SELECT_TRIANGLE];
  guint total = 0;

  g_array_set_size (self->sel_ranges, n_items);
  for (guint level = 0; level < N_SEL_LEVELS; level++)
    for (guint i = 0; i < n_items; i++)
      {
        const MshedDrawItem *item = &items[i];
        SelRanges *ranges = &g_array_index (self->sel_ranges, SelRanges, i);

        ranges->first[level] = total;
        ranges->count[level] = 0;
        if (level < 2)
          {
            if (item_level (self, item) == (int) level)
              {
                if (elements)
                  g_array_append_vals (elements, all + item->elem_first, item->elem_count);
                ranges->count[level] = item->elem_count;
              }
          }
        else if (g_hash_table_size (tris) > 0)
          {
            for (guint t = 0; t < item->elem_count / 3; t++)
              {
                guint key = MSHED_TRIANGLE_KEY (item->batch, tri_map[item->tri_first + t]);

                if (g_hash_table_contains (tris, GUINT_TO_POINTER (key + 1)))
                  {
                    if (elements)
                      g_array_append_vals (elements, all + item->elem_first + 3 * t, 3);
                    ranges->count[level] += 3;
                  }
              }
          }
        total += ranges->count[level];
      }
}

static void
upload_selection (MshedRenderer *self)
{
  g_autoptr(GArray) elements = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTable *verts = self->selection[MSHED_SELECT_VERTEX];
  guint n_vertices = self->gl_n_vertices;
  g_autofree guint8 *flags = g_malloc0 (MAX (n_vertices, 1));
  GHashTableIter iter;
  gpointer key;

  rebuild_selection_ranges (self, elements);
  glBindBuffer (GL_ARRAY_BUFFER, self->sel_ebo);  /* any binding point will do for data */
  glBufferData (GL_ARRAY_BUFFER, elements->len * sizeof (guint32), elements->data, GL_DYNAMIC_DRAW);

  self->n_selected_vertices = 0;
  g_hash_table_iter_init (&iter, verts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint v = GPOINTER_TO_UINT (key) - 1;

      if (v < n_vertices)
        {
          flags[v] = 255;
          self->n_selected_vertices++;
        }
    }
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_sel);
  glBufferData (GL_ARRAY_BUFFER, n_vertices, flags, GL_DYNAMIC_DRAW);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

void
mshed_renderer_prepare (MshedRenderer *self)
{
  guint n_vertices;

  g_return_if_fail (self->realized);
  self->stats.upload_bytes = 0;
  n_vertices = self->scene ? mshed_render_scene_get_n_vertices (self->scene) : 0;

  if (self->scene == NULL)
    {
      self->dirty_vertices_all = self->dirty_elements = self->dirty_skin = FALSE;
      self->dirty_first = self->dirty_end = 0;
      self->dirty_selection = FALSE;
      self->gl_n_vertices = 0;
      g_array_set_size (self->sel_ranges, 0);
      return;
    }

  if (want_gpu_skinning (self) != self->skin_on_gpu)
    {
      self->skin_on_gpu = !self->skin_on_gpu;
      self->dirty_vertices_all = TRUE;
      glBindVertexArray (self->vao);
      if (self->skin_on_gpu)
        {
          glEnableVertexAttribArray (ATTR_JOINTS);
          glEnableVertexAttribArray (ATTR_WEIGHTS);
        }
      else
        {
          glDisableVertexAttribArray (ATTR_JOINTS);
          glDisableVertexAttribArray (ATTR_WEIGHTS);
        }
      glBindVertexArray (0);
    }

  if (self->dirty_vertices_all || n_vertices != self->gl_n_vertices)
    {
      upload_vertices (self, 0, n_vertices, TRUE);
      self->dirty_skin = TRUE;
      self->gl_n_vertices = n_vertices;
      self->dirty_vertices_all = FALSE;
      self->dirty_first = self->dirty_end = 0;
      self->dirty_selection = TRUE;
    }
  else if (self->dirty_first < self->dirty_end)
    {
      guint first = MIN (self->dirty_first, n_vertices);
      guint end = MIN (self->dirty_end, n_vertices);

      if (first < end)
        upload_vertices (self, first, end - first, FALSE);
      self->dirty_first = self->dirty_end = 0;
    }

  if (self->skin_on_gpu && self->dirty_skin)
    upload_skin_matrices (self);
  self->dirty_skin = FALSE;

  if (self->dirty_elements)
    {
      guint n_elem;
      const guint32 *elements = mshed_render_scene_get_elements (self->scene, &n_elem);

      glBindVertexArray (self->vao);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->ebo);
      glBufferData (GL_ELEMENT_ARRAY_BUFFER, n_elem * sizeof (guint32), elements, GL_STATIC_DRAW);
      glBindVertexArray (0);
      self->stats.upload_bytes += n_elem * sizeof (guint32);
      self->dirty_elements = FALSE;
      self->dirty_selection = TRUE;
    }

  if (self->dirty_selection)
    {
      upload_selection (self);
      self->dirty_selection = FALSE;
    }
  check_gl (self, "prepare");
}

/* Drawing -------------------------------------------------------------------------------- */

static void
set_item_uniforms (const Program *prog,
                   const float    m[16])
{
  mat4 model;
  mat3 m3, inv;

  memcpy (model, m, sizeof model);
  if (prog->u_model >= 0)
    glUniformMatrix4fv (prog->u_model, 1, GL_FALSE, m);
  if (prog->u_normal_mat >= 0)
    {
      glm_mat4_pick3 (model, m3);
      if (fabsf (glm_mat3_det (m3)) > 1e-12f)
        {
          glm_mat3_inv (m3, inv);
          glm_mat3_transpose (inv);
        }
      else
        glm_mat3_copy (m3, inv);
      glUniformMatrix3fv (prog->u_normal_mat, 1, GL_FALSE, (const float *) inv);
    }
}

static void
draw_items (MshedRenderer *self,
            const Program *prog,
            GLenum         mode,
            gboolean       tint)
{
  guint n_items;
  const MshedDrawItem *items = mshed_render_scene_get_items (self->scene, &n_items);

  for (guint i = 0; i < n_items; i++)
    {
      const MshedDrawItem *item = &items[i];

      if (!_mshed_renderer_item_visible (self, item))
        continue;
      set_item_uniforms (prog, mshed_render_scene_get_world (self->scene, item->node));
      if (tint)
        {
          MshedBatch batch;
          float c[4] = { clay[0], clay[1], clay[2], 1.0f };

          if ((self->overlays & MSHED_OVERLAY_MATERIALS) && self->dfm)
            memcpy (c, material_palette[item->batch % 8], 3 * sizeof (float));
          else if ((self->overlays & MSHED_OVERLAY_MATERIALS) &&
                   mshed_model_get_batch (self->model, item->batch, &batch))
            memcpy (c, material_palette[batch.material_index % 8], 3 * sizeof (float));
          glUniform4fv (prog->u_color, 1, c);
        }
      if (prog->u_item >= 0)
        glUniform1ui (prog->u_item, i + 1);
      glDrawElements (mode, (GLsizei) item->elem_count, GL_UNSIGNED_INT,
                      (void *) ((gsize) item->elem_first * sizeof (guint32)));
      self->stats.n_draw_calls++;
      if (mode == GL_TRIANGLES && tint)
        self->stats.n_triangles += item->elem_count / 3;
    }
}

static void
view_projection (MshedRenderer *self,
                 int            width,
                 int            height,
                 mat4           vp)
{
  mat4 view, proj;

  mshed_camera_view (&self->camera, view);
  mshed_camera_projection (&self->camera, (float) width / MAX (height, 1), proj);
  glm_mat4_mul (proj, view, vp);
}

static void
draw_selection (MshedRenderer *self,
                const mat4     vp)
{
  guint n_items;
  const MshedDrawItem *items = mshed_render_scene_get_items (self->scene, &n_items);
  gboolean any = FALSE;

  n_items = MIN (n_items, self->sel_ranges->len);
  for (guint i = 0; i < n_items && !any; i++)
    for (guint l = 0; l < N_SEL_LEVELS; l++)
      any |= g_array_index (self->sel_ranges, SelRanges, i).count[l] > 0;

  glBindVertexArray (self->vao);
  if (any)
    {
      glUseProgram (self->mesh.program);
      use_skinning (self, &self->mesh);
      glUniformMatrix4fv (self->mesh.u_vp, 1, GL_FALSE, (const float *) vp);
      glUniform1i (self->mesh.u_mode, MODE_FLAT);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->sel_ebo);
      glEnable (GL_BLEND);
      glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
      /* fills of every level, weakest first, then the outline of the selected triangles */
      for (guint pass = 0; pass <= N_SEL_LEVELS; pass++)
        {
          guint level = pass < N_SEL_LEVELS ? pass : N_SEL_LEVELS - 1;

          glUniform4fv (self->mesh.u_color, 1,
                        pass < N_SEL_LEVELS ? select_fill[level] : _mshed_renderer_select_line);
          glPolygonMode (GL_FRONT_AND_BACK, pass < N_SEL_LEVELS ? GL_FILL : GL_LINE);
          for (guint i = 0; i < n_items; i++)
            {
              const SelRanges *ranges = &g_array_index (self->sel_ranges, SelRanges, i);

              if (ranges->count[level] == 0 || !_mshed_renderer_item_visible (self, &items[i]))
                continue;
              set_item_uniforms (&self->mesh,
                                 mshed_render_scene_get_world (self->scene, items[i].node));
              glDrawElements (GL_TRIANGLES, (GLsizei) ranges->count[level], GL_UNSIGNED_INT,
                              (void *) ((gsize) ranges->first[level] * sizeof (guint32)));
              self->stats.n_draw_calls++;
            }
        }
      glPolygonMode (GL_FRONT_AND_BACK, GL_FILL);
      glDisable (GL_BLEND);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->ebo);
    }
  if (self->n_selected_vertices > 0)
    {
      glEnable (GL_PROGRAM_POINT_SIZE);
      glUseProgram (self->points.program);
      use_skinning (self, &self->points);
      glUniformMatrix4fv (self->points.u_vp, 1, GL_FALSE, (const float *) vp);
      glUniform4fv (self->points.u_color, 1, _mshed_renderer_select_line);
      glDepthFunc (GL_ALWAYS);
      draw_items (self, &self->points, GL_POINTS, FALSE);
      glDepthFunc (GL_LEQUAL);
      glDisable (GL_PROGRAM_POINT_SIZE);
    }
  glBindVertexArray (0);
}

void
mshed_renderer_draw (MshedRenderer *self,
                     int            width,
                     int            height)
{
  mat4 vp;
  vec3 eye;

  g_return_if_fail (self->realized);
  if (self->debug)
    while (glGetError () != GL_NO_ERROR)
      ;  /* whatever the caller left behind is not ours */

  mshed_renderer_prepare (self);
  self->stats.n_draw_calls = 0;
  self->stats.n_triangles = 0;

  glViewport (0, 0, MAX (width, 1), MAX (height, 1));
  glClearColor (self->background[0], self->background[1], self->background[2], self->background[3]);
  glClearDepth (1.0);
  glDepthMask (GL_TRUE);
  glColorMask (GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_CULL_FACE);
  glDisable (GL_BLEND);
  glDisable (GL_SCISSOR_TEST);
  glDisable (GL_STENCIL_TEST);

  view_projection (self, width, height, vp);
  mshed_camera_eye (&self->camera, eye);
  g_array_set_size (self->lines, 0);
  if (self->overlays & (MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES))
    _mshed_renderer_build_grid (self);

  if (self->scene)
    {
      glBindVertexArray (self->vao);
      if (self->overlays & MSHED_OVERLAY_SHADED)
        {
          gboolean wire = (self->overlays & MSHED_OVERLAY_WIREFRAME) != 0;
          const Program *prog = wire ? &self->mesh_wire : &self->mesh;
          static const float wire_color[4] = { 0.08f, 0.08f, 0.10f, 0.85f };

          glUseProgram (prog->program);
          use_skinning (self, prog);
          glUniformMatrix4fv (prog->u_vp, 1, GL_FALSE, (const float *) vp);
          glUniform3fv (prog->u_eye, 1, eye);
          glUniform1i (prog->u_mode,
                       self->dfm && self->weight_bone >= 0 ? MODE_HEAT :
                       self->diff_marks ? (self->diff_added ? MODE_DIFF_B : MODE_DIFF_A) :
                       (self->overlays & MSHED_OVERLAY_UV_CHECKER) ? MODE_CHECKER : MODE_SHADED);
          if (wire)
            glUniform4fv (prog->u_wire, 1, wire_color);
          glEnable (GL_POLYGON_OFFSET_FILL);
          glPolygonOffset (1.0f, 1.0f);
          draw_items (self, prog, GL_TRIANGLES, TRUE);
          glDisable (GL_POLYGON_OFFSET_FILL);
        }
      else if (self->overlays & MSHED_OVERLAY_WIREFRAME)
        {
          /* wireframe alone: every edge, hidden ones too */
          gboolean light = _mshed_renderer_luminance (self->background) > 0.5f;
          const float wire[4] = { light ? 0.08f : 0.85f, light ? 0.08f : 0.85f,
                                  light ? 0.10f : 0.88f, 1.0f };

          glUseProgram (self->mesh.program);
          use_skinning (self, &self->mesh);
          glUniformMatrix4fv (self->mesh.u_vp, 1, GL_FALSE, (const float *) vp);
          glUniform1i (self->mesh.u_mode, MODE_FLAT);
          glUniform4fv (self->mesh.u_color, 1, wire);
          glPolygonMode (GL_FRONT_AND_BACK, GL_LINE);
          draw_items (self, &self->mesh, GL_TRIANGLES, FALSE);
          glPolygonMode (GL_FRONT_AND_BACK, GL_FILL);
        }
      if (self->overlays & MSHED_OVERLAY_NORMALS)
        {
          glUseProgram (self->normals.program);
          use_skinning (self, &self->normals);
          glUniformMatrix4fv (self->normals.u_vp, 1, GL_FALSE, (const float *) vp);
          glUniform4fv (self->normals.u_color, 1, normal_color);
          glUniform1f (self->normals.u_length, MAX (self->camera.scene_radius * 0.04f, 1e-4f));
          draw_items (self, &self->normals, GL_TRIANGLES, FALSE);
        }
      glBindVertexArray (0);
      draw_selection (self, vp);
      _mshed_renderer_build_bounds (self);
    }
  _mshed_renderer_draw_lines (self, vp);
  if (self->dfm && (self->overlays & (MSHED_OVERLAY_SKELETON | MSHED_OVERLAY_HARDPOINTS)))
    {
      /* the skeleton lies inside the skin: drawn on top */
      g_array_set_size (self->lines, 0);
      _mshed_renderer_build_skeleton (self);
      glDisable (GL_DEPTH_TEST);
      _mshed_renderer_draw_lines (self, vp);
      glEnable (GL_DEPTH_TEST);
    }
  glUseProgram (0);
  glBindTexture (GL_TEXTURE_BUFFER, 0);
  check_gl (self, "draw");
}

gboolean
mshed_renderer_project (MshedRenderer *self,
                        int            width,
                        int            height,
                        const float    p[3],
                        float         *x,
                        float         *y)
{
  mat4 vp;
  vec4 in = { p[0], p[1], p[2], 1.0f }, out;

  view_projection (self, width, height, vp);
  glm_mat4_mulv (vp, in, out);
  if (!(out[3] > 1e-6f))
    return FALSE;
  *x = (out[0] / out[3] * 0.5f + 0.5f) * (float) width;
  *y = (0.5f - out[1] / out[3] * 0.5f) * (float) height;
  return isfinite (*x) && isfinite (*y);
}

/* Picking -------------------------------------------------------------------------------- */

static gboolean
ensure_pick_target (MshedRenderer *self,
                    int            width,
                    int            height)
{
  if (self->pick_fbo && self->pick_width == width && self->pick_height == height)
    return TRUE;
  if (!self->pick_fbo)
    {
      glGenFramebuffers (1, &self->pick_fbo);
      glGenRenderbuffers (1, &self->pick_color);
      glGenRenderbuffers (1, &self->pick_depth);
    }
  glBindRenderbuffer (GL_RENDERBUFFER, self->pick_color);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RG32UI, width, height);
  glBindRenderbuffer (GL_RENDERBUFFER, self->pick_depth);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glBindRenderbuffer (GL_RENDERBUFFER, 0);
  glBindFramebuffer (GL_FRAMEBUFFER, self->pick_fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                             self->pick_color);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                             self->pick_depth);
  self->pick_width = width;
  self->pick_height = height;
  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    {
      g_warning ("The picking framebuffer is incomplete");
      return FALSE;
    }
  return TRUE;
}

gboolean
mshed_renderer_pick (MshedRenderer *self,
                     int            width,
                     int            height,
                     int            x,
                     int            y,
                     MshedPick     *out)
{
  GLint prev_draw = 0, prev_read = 0, prev_viewport[4];
  const GLuint zero[4] = { 0, 0, 0, 0 };
  GLuint value[2] = { 0, 0 };
  mat4 vp;
  gboolean ok;

  g_return_val_if_fail (self->realized, FALSE);
  memset (out, 0, sizeof *out);
  out->node = out->slot = out->batch = MSHED_NONE;
  out->triangle = out->index_position = out->item = out->descriptor = G_MAXUINT;
  out->vertices[0] = out->vertices[1] = out->vertices[2] = G_MAXUINT;
  if (self->scene == NULL || width <= 0 || height <= 0 || x < 0 || y < 0 || x >= width ||
      y >= height)
    return FALSE;

  mshed_renderer_prepare (self);
  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &prev_draw);
  glGetIntegerv (GL_READ_FRAMEBUFFER_BINDING, &prev_read);
  glGetIntegerv (GL_VIEWPORT, prev_viewport);

  ok = ensure_pick_target (self, width, height);
  if (ok)
    {
      glBindFramebuffer (GL_FRAMEBUFFER, self->pick_fbo);
      glViewport (0, 0, width, height);
      glDisable (GL_BLEND);
      glDisable (GL_SCISSOR_TEST);
      glEnable (GL_DEPTH_TEST);
      glDepthFunc (GL_LEQUAL);
      glDepthMask (GL_TRUE);
      glClearBufferuiv (GL_COLOR, 0, zero);
      glClearDepth (1.0);
      glClear (GL_DEPTH_BUFFER_BIT);
      view_projection (self, width, height, vp);
      glUseProgram (self->pick.program);
      use_skinning (self, &self->pick);
      glUniformMatrix4fv (self->pick.u_vp, 1, GL_FALSE, (const float *) vp);
      glBindVertexArray (self->vao);
      draw_items (self, &self->pick, GL_TRIANGLES, FALSE);
      glBindVertexArray (0);
      glUseProgram (0);
      glBindTexture (GL_TEXTURE_BUFFER, 0);
      glReadBuffer (GL_COLOR_ATTACHMENT0);
      glPixelStorei (GL_PACK_ALIGNMENT, 4);
      glReadPixels (x, height - 1 - y, 1, 1, GL_RG_INTEGER, GL_UNSIGNED_INT, value);
    }

  glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint) prev_draw);
  glBindFramebuffer (GL_READ_FRAMEBUFFER, (GLuint) prev_read);
  glViewport (prev_viewport[0], prev_viewport[1], prev_viewport[2], prev_viewport[3]);
  check_gl (self, "pick");
  if (!ok || value[0] == 0)
    return FALSE;

  {
    guint n_items, n_elem, n_tris;
    const MshedDrawItem *items = mshed_render_scene_get_items (self->scene, &n_items);
    const guint32 *elements = mshed_render_scene_get_elements (self->scene, &n_elem);
    const guint32 *tri_map = mshed_render_scene_get_tri_map (self->scene, &n_tris);
    const MshedDrawItem *item;
    guint prim = value[1];
    MshedBatch batch;

    if (value[0] - 1 >= n_items)
      return FALSE;
    item = &items[value[0] - 1];
    if (prim >= item->elem_count / 3 || item->tri_first + prim >= n_tris)
      return FALSE;
    out->hit = TRUE;
    out->item = value[0] - 1;
    out->node = item->node;
    out->slot = item->slot;
    out->batch = item->batch;
    out->triangle = tri_map[item->tri_first + prim];
    if (self->model && mshed_model_get_batch (self->model, item->batch, &batch))
      out->index_position = batch.index_start + 3 * out->triangle;
    if (item->slot != MSHED_NONE)
      out->descriptor = mshed_render_scene_triangle_to_descriptor (self->scene, item->slot,
                                                                   item->batch, out->triangle);
    for (guint k = 0; k < 3; k++)
      out->vertices[k] = elements[item->elem_first + 3 * prim + k];
  }
  return TRUE;
}

void
mshed_renderer_get_stats (MshedRenderer    *self,
                          MshedRenderStats *out)
{
  *out = self->stats;
  out->n_items = 0;
  if (self->scene)
    mshed_render_scene_get_items (self->scene, &out->n_items);
}
