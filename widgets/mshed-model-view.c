/* mshed-model-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After GNOME/gtk demos/gtk-demo/gtkgears.c: GL objects live between realize and unrealize,
 * the render vfunc draws into the framebuffer GtkGLArea has bound, gtk_gl_area_get_error is
 * checked first. Everything GL-specific is MshedRenderer's; this file maps document changes,
 * input and properties onto it.
 */
#define G_LOG_DOMAIN "mshed-model-view"

#include "config.h"

#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-model-view-private.h"
#include "mshed-model-view.h"
#include "mshed-offscreen.h"
#include "mshed-recompute.h"

#define CLICK_SLOP 4.0   /* pixels a press may move and still be a click */

struct _MshedModelView {
  GtkGLArea       parent_instance;

  MshedDocument  *document;
  GSignalGroup   *document_signals;
  MshedRenderer  *renderer;
  gboolean        gl_ready;        /* realized without error */
  gboolean        needs_framing;   /* frame everything at the next draw (size known then) */
  gboolean        bounds_dirty;    /* recompute the stale-bounds overlay */

  guint           lod;
  guint           group;
  double          frame;
  gboolean        playing;
  double          fps;
  guint           tick_id;
  gint64          last_tick;
  MshedOverlays   overlays;
  gboolean        show_stale_bounds;
  gboolean        runtime_rotation;
  gboolean        y_up;

  MshedPick       last_pick;
  GArray         *selected_vertices;

  /* a DFM */
  gint            dfm_level;       /* by hand, or -1: by the camera distance */
  float           framed_distance; /* the camera distance that frames the model, 0 unknown */

  /* camera drag */
  guint           drag_button;
  GdkModifierType drag_modifiers;
  double          drag_x;
  double          drag_y;
  double          drag_last_x;
  double          drag_last_y;
};

G_DEFINE_FINAL_TYPE (MshedModelView, mshed_model_view, GTK_TYPE_GL_AREA)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_LOD,
  PROP_GROUP,
  PROP_FRAME,
  PROP_FRAME_COUNT,
  PROP_PLAYING,
  PROP_FPS,
  PROP_SHOW_STALE_BOUNDS,
  PROP_RUNTIME_ROTATION,
  PROP_Y_UP,
  PROP_DFM_LEVEL,
  PROP_DFM_DRAWN_LEVEL,
  PROP_SHOW_SHADED,        /* the overlay booleans, in the order of overlay_props */
  PROP_SHOW_WIREFRAME,
  PROP_SHOW_NORMALS,
  PROP_SHOW_UV_CHECKER,
  PROP_SHOW_SLOT_BOXES,
  PROP_SHOW_SLOT_SPHERES,
  PROP_SHOW_HULL,
  PROP_SHOW_HEADER_SPHERE,
  PROP_SHOW_CAPSULE,
  PROP_SHOW_GRID,
  PROP_SHOW_AXES,
  PROP_SHOW_MATERIALS,
  PROP_SHOW_SKELETON,
  PROP_SHOW_HARDPOINTS,
  N_PROPS
};

static const struct {
  const char   *name;      /* property "show-NAME", action "view.NAME" */
  const char   *nick;
  MshedOverlays flag;
} overlay_props[] = {
  { "shaded", N_("Shaded surfaces"), MSHED_OVERLAY_SHADED },
  { "wireframe", N_("Wireframe"), MSHED_OVERLAY_WIREFRAME },
  { "normals", N_("Vertex normals"), MSHED_OVERLAY_NORMALS },
  { "uv-checker", N_("UV checker"), MSHED_OVERLAY_UV_CHECKER },
  { "slot-boxes", N_("Slot bounding boxes"), MSHED_OVERLAY_SLOT_BOXES },
  { "slot-spheres", N_("Slot bounding spheres"), MSHED_OVERLAY_SLOT_SPHERES },
  { "hull", N_("Header hull points"), MSHED_OVERLAY_HULL },
  { "header-sphere", N_("Header bounding sphere"), MSHED_OVERLAY_HEADER_SPHERE },
  { "capsule", N_("Header capsule"), MSHED_OVERLAY_CAPSULE },
  { "grid", N_("Ground grid"), MSHED_OVERLAY_GRID },
  { "axes", N_("Axes"), MSHED_OVERLAY_AXES },
  { "materials", N_("Tint by material"), MSHED_OVERLAY_MATERIALS },
  { "skeleton", N_("Skeleton"), MSHED_OVERLAY_SKELETON },
  { "hardpoints", N_("Hardpoints"), MSHED_OVERLAY_HARDPOINTS },
};

G_STATIC_ASSERT (G_N_ELEMENTS (overlay_props) == N_PROPS - PROP_SHOW_SHADED);

enum {
  PICKED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Helpers -------------------------------------------------------------------------------- */

static MshedModel *
current_model (MshedModelView *self)
{
  return self->document ? mshed_document_get_model (self->document) : NULL;
}

/* A DFM's level: the one chosen, or the one for the camera's distance. Changing it clears
 * what was picked and selected (their numbers are the old level's). */
static void
update_dfm_level (MshedModelView *self)
{
  MshedRenderScene *scene = mshed_renderer_get_scene (self->renderer);
  MshedDfm *dfm = mshed_renderer_get_dfm (self->renderer);
  guint level;

  if (dfm == NULL || scene == NULL)
    return;
  level = self->dfm_level >= 0
            ? (guint) self->dfm_level
            : _mshed_model_view_dfm_level_for_camera (self->renderer, self->framed_distance);
  level = MIN (level, MAX (mshed_dfm_get_n_levels (dfm), 1) - 1);
  if (level == mshed_render_scene_get_lod (scene))
    return;
  mshed_renderer_set_view (self->renderer, level, 0);
  mshed_renderer_pose_changed (self->renderer);
  mshed_renderer_clear_selection (self->renderer);
  g_array_set_size (self->selected_vertices, 0);
  self->last_pick.hit = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DFM_DRAWN_LEVEL]);
}

static void
redraw (MshedModelView *self)
{
  update_dfm_level (self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
device_size (MshedModelView *self,
             int            *width,
             int            *height)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  *width = MAX (gtk_widget_get_width (GTK_WIDGET (self)) * scale, 1);
  *height = MAX (gtk_widget_get_height (GTK_WIDGET (self)) * scale, 1);
}

static float
aspect (MshedModelView *self)
{
  int w, h;

  device_size (self, &w, &h);
  return (float) w / (float) h;
}

/* The theme's view background (GTK 4.8 has no gtk_widget_get_color). */
static void
lookup_background (MshedModelView *self,
                   float           rgba[4])
{
  static const char *names[] = { "view_bg_color", "theme_base_color", "theme_bg_color" };
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GdkRGBA color = { 0.16f, 0.16f, 0.18f, 1.0f };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (gtk_style_context_lookup_color (context, names[i], &color))
      break;
  rgba[0] = color.red;
  rgba[1] = color.green;
  rgba[2] = color.blue;
  rgba[3] = 1.0f;   /* the GL area is opaque */
}

static void
update_background (MshedModelView *self)
{
  float rgba[4];

  lookup_background (self, rgba);
  mshed_renderer_set_background (self->renderer, rgba);
}

static void
apply_pose_options (MshedModelView *self,
                    MshedRenderer  *renderer)
{
  MshedPoseOptions options;

  mshed_pose_options_init (&options);
  options.convention = self->runtime_rotation ? MSHED_ROTATION_RUNTIME : MSHED_ROTATION_FPARKAN;
  mshed_renderer_set_pose_options (renderer, &options);
}

static void
update_frame_count (MshedModelView *self,
                    guint           old_count)
{
  if (mshed_model_view_get_frame_count (self) != old_count)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRAME_COUNT]);
}

/* Stale bounds: what "recompute" would write, next to what is stored. */
static void
update_recomputed_bounds (MshedModelView *self)
{
  MshedModel *model = current_model (self);
  g_autofree MshedSlotBounds *slots = NULL;
  MshedHeader header;
  gboolean any = FALSE, header_stale = FALSE;
  guint n_slots;

  self->bounds_dirty = FALSE;
  if (model == NULL || !self->show_stale_bounds || !mshed_document_has_stale (self->document))
    {
      mshed_renderer_set_recomputed_bounds (self->renderer, NULL, 0, NULL);
      return;
    }
  n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  slots = g_new0 (MshedSlotBounds, MAX (n_slots, 1));
  for (guint s = 0; s < n_slots; s++)
    if (mshed_document_get_row_stale (self->document, MSHED_TABLE_SLOTS, s) &
        MSHED_DERIVED_SLOT_BOUNDS)
      {
        guint8 raw[40];

        mshed_compute_slot_bounds (model, s, raw);
        for (guint k = 0; k < 3; k++)
          {
            slots[s].aabb_min[k] = mshed_read_f32 (raw + 4 * k);
            slots[s].aabb_max[k] = mshed_read_f32 (raw + 12 + 4 * k);
            slots[s].sphere_center[k] = mshed_read_f32 (raw + 24 + 4 * k);
          }
        slots[s].sphere_radius = mshed_read_f32 (raw + 36);
        slots[s].valid = TRUE;
        any = TRUE;
      }
  if (mshed_document_get_row_stale (self->document, MSHED_TABLE_HEADER, 0) &
      MSHED_DERIVED_HEADER_BOUNDS)
    {
      guint8 raw[140];
      float *f = (float *) &header;

      mshed_compute_header (model, raw);
      for (guint i = 0; i < 35; i++)
        f[i] = mshed_read_f32 (raw + 4 * i);
      header_stale = TRUE;
    }
  mshed_renderer_set_recomputed_bounds (self->renderer, any ? slots : NULL, any ? n_slots : 0,
                                        header_stale ? &header : NULL);
}

/* Document ------------------------------------------------------------------------------- */

static void
on_document_changed (MshedModelView    *self,
                     const MshedChange *change,
                     MshedDocument     *document)
{
  MshedModel *model = mshed_document_get_model (document);
  guint old_frames = mshed_model_view_get_frame_count (self);

  if (model != mshed_renderer_get_model (self->renderer))
    {
      mshed_renderer_set_model (self->renderer, model);
      self->needs_framing = TRUE;
    }
  else if (change->flags & (MSHED_CHANGE_FLAG_ALL | MSHED_CHANGE_FLAG_DIRECTORY))
    mshed_renderer_model_changed (self->renderer);
  else
    switch (change->table)
      {
      case MSHED_TABLE_POSITIONS:
      case MSHED_TABLE_NORMALS:
      case MSHED_TABLE_UVS:
        if (change->n_added == change->n_removed && !(change->flags & MSHED_CHANGE_FLAG_LAYOUT))
          mshed_renderer_vertices_changed (self->renderer, change->first_row, change->n_added);
        else
          mshed_renderer_topology_changed (self->renderer);  /* vertex count: all buffers */
        break;
      case MSHED_TABLE_INDICES:
      case MSHED_TABLE_BATCHES:
        mshed_renderer_topology_changed (self->renderer);
        break;
      case MSHED_TABLE_SLOTS:
        /* bounds and tail words are read at draw time; ranges change the draw items */
        if (change->field == NULL || (!g_str_has_prefix (change->field, "aabb") &&
                                      !g_str_has_prefix (change->field, "sphere") &&
                                      !g_str_has_prefix (change->field, "unk")))
          mshed_renderer_nodes_changed (self->renderer);
        break;
      case MSHED_TABLE_NODES:
        mshed_renderer_nodes_changed (self->renderer);
        break;
      case MSHED_TABLE_KEYS:
      case MSHED_TABLE_MAP:
        mshed_renderer_animation_changed (self->renderer);
        break;
      case MSHED_TABLE_TRIS:      /* the descriptor mapping of the selection */
      case MSHED_TABLE_HEADER:
      case MSHED_TABLE_NAMES:
      default:
        break;
      }
  self->bounds_dirty = TRUE;
  update_frame_count (self, old_frames);
  redraw (self);
}

static void
on_stale_changed (MshedModelView *self,
                  MshedDocument  *document)
{
  self->bounds_dirty = TRUE;
  redraw (self);
}

void
mshed_model_view_set_document (MshedModelView *self,
                               MshedDocument  *document)
{
  guint old_frames;

  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (document == self->document)
    return;
  old_frames = mshed_model_view_get_frame_count (self);
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  mshed_renderer_set_model (self->renderer, current_model (self));
  memset (&self->last_pick, 0, sizeof self->last_pick);
  self->needs_framing = TRUE;
  self->bounds_dirty = TRUE;
  if (self->selected_vertices)
    g_array_set_size (self->selected_vertices, 0);
  update_frame_count (self, old_frames);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  redraw (self);
}

void
mshed_model_view_set_dfm (MshedModelView *self,
                          MshedDfm       *dfm)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));

  if (dfm == mshed_renderer_get_dfm (self->renderer))
    return;
  if (dfm)
    mshed_renderer_set_dfm (self->renderer, dfm);
  else if (self->document == NULL)
    mshed_renderer_set_model (self->renderer, NULL);
  memset (&self->last_pick, 0, sizeof self->last_pick);
  self->needs_framing = TRUE;
  self->framed_distance = 0.0f;
  redraw (self);
}

void
mshed_model_view_set_dfm_level (MshedModelView *self,
                                gint            level)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  level = MAX (level, -1);
  if (level == self->dfm_level)
    return;
  self->dfm_level = level;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DFM_LEVEL]);
  redraw (self);
}

gint
mshed_model_view_get_dfm_level (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), -1);
  return self->dfm_level;
}

guint
mshed_model_view_get_dfm_drawn_level (MshedModelView *self)
{
  MshedRenderScene *scene;

  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), 0);
  scene = mshed_renderer_get_scene (self->renderer);
  return scene && mshed_renderer_get_dfm (self->renderer) ? mshed_render_scene_get_lod (scene) : 0;
}

void
mshed_model_view_dfm_changed (MshedModelView *self,
                              gboolean        topology)
{
  MshedRenderScene *scene = mshed_renderer_get_scene (self->renderer);

  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  if (scene == NULL || mshed_renderer_get_dfm (self->renderer) == NULL)
    return;
  if (topology)
    {
      mshed_render_scene_topology_changed (scene);
      mshed_renderer_topology_changed (self->renderer);
    }
  mshed_renderer_pose_changed (self->renderer);
  redraw (self);
}

MshedDocument *
mshed_model_view_get_document (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), NULL);
  return self->document;
}

/* View state ----------------------------------------------------------------------------- */

void
mshed_model_view_set_lod (MshedModelView *self,
                          guint           lod)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  lod = MIN (lod, MSHED_N_LODS - 1);
  if (lod == self->lod)
    return;
  self->lod = lod;
  mshed_renderer_set_view (self->renderer, self->lod, self->group);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOD]);
  redraw (self);
}

guint
mshed_model_view_get_lod (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), 0);
  return self->lod;
}

void
mshed_model_view_set_group (MshedModelView *self,
                            guint           group)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  group = MIN (group, MSHED_N_GROUPS - 1);
  if (group == self->group)
    return;
  self->group = group;
  mshed_renderer_set_view (self->renderer, self->lod, self->group);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROUP]);
  redraw (self);
}

guint
mshed_model_view_get_group (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), 0);
  return self->group;
}

void
mshed_model_view_set_frame (MshedModelView *self,
                            double          frame)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  if (!isfinite (frame))
    frame = 0.0;
  if (frame == self->frame)
    return;
  self->frame = frame;
  mshed_renderer_set_time (self->renderer, (float) frame);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRAME]);
  redraw (self);
}

double
mshed_model_view_get_frame (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), 0.0);
  return self->frame;
}

guint
mshed_model_view_get_frame_count (MshedModelView *self)
{
  MshedModel *model;

  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), 1);
  model = current_model (self);
  return model ? MAX (mshed_model_get_frame_count (model), 1) : 1;
}

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  MshedModelView *self = MSHED_MODEL_VIEW (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double frames = mshed_model_view_get_frame_count (self);
  double frame = self->frame;

  if (self->last_tick != 0)
    frame += (now - self->last_tick) / 1e6 * self->fps;
  self->last_tick = now;
  /* docs/msh.md §7.8: loop with the period frameCount */
  if (frames > 1.0)
    frame = fmod (frame, frames);
  else
    frame = 0.0;
  mshed_model_view_set_frame (self, frame);
  return G_SOURCE_CONTINUE;
}

void
mshed_model_view_set_playing (MshedModelView *self,
                              gboolean        playing)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  playing = !!playing;
  if (playing == self->playing)
    return;
  self->playing = playing;
  if (playing)
    {
      self->last_tick = 0;
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick_cb, NULL, NULL);
    }
  else if (self->tick_id)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

gboolean
mshed_model_view_get_playing (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), FALSE);
  return self->playing;
}

void
mshed_model_view_set_overlays (MshedModelView *self,
                               MshedOverlays   overlays)
{
  MshedOverlays changed;

  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  changed = overlays ^ self->overlays;
  if (changed == 0)
    return;
  self->overlays = overlays;
  mshed_renderer_set_overlays (self->renderer, overlays);
  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < G_N_ELEMENTS (overlay_props); i++)
    if (changed & overlay_props[i].flag)
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SHADED + i]);
  g_object_thaw_notify (G_OBJECT (self));
  redraw (self);
}

MshedOverlays
mshed_model_view_get_overlays (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), 0);
  return self->overlays;
}

/* Selection and visibility --------------------------------------------------------------- */

static void
apply_vertex_selection (MshedModelView *self)
{
  for (guint i = 0; self->selected_vertices && i < self->selected_vertices->len; i++)
    mshed_renderer_select (self->renderer, MSHED_SELECT_VERTEX,
                           g_array_index (self->selected_vertices, guint, i), TRUE);
}

void
mshed_model_view_set_selection (MshedModelView       *self,
                                const MshedSelection *selection)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  mshed_renderer_set_selection (self->renderer, selection);
  /* The picked triangle stays marked while its batch is selected, even when the selection
   * names no descriptor for it (no mapping, or the caller selected the batch only). */
  if (selection && self->last_pick.hit &&
      mshed_selection_contains (selection, MSHED_TABLE_BATCHES, self->last_pick.batch))
    mshed_renderer_select (self->renderer, MSHED_SELECT_TRIANGLE,
                           MSHED_TRIANGLE_KEY (self->last_pick.batch, self->last_pick.triangle),
                           TRUE);
  apply_vertex_selection (self);
  redraw (self);
}

void
mshed_model_view_set_selected_vertices (MshedModelView *self,
                                        const guint    *vertices,
                                        guint           n_vertices)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  for (guint i = 0; i < self->selected_vertices->len; i++)
    mshed_renderer_select (self->renderer, MSHED_SELECT_VERTEX,
                           g_array_index (self->selected_vertices, guint, i), FALSE);
  g_array_set_size (self->selected_vertices, 0);
  if (vertices && n_vertices)
    g_array_append_vals (self->selected_vertices, vertices, n_vertices);
  apply_vertex_selection (self);
  redraw (self);
}

void
mshed_model_view_set_node_visible (MshedModelView *self,
                                   guint           node,
                                   gboolean        visible)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  mshed_renderer_set_node_visible (self->renderer, node, visible);
  redraw (self);
}

gboolean
mshed_model_view_get_node_visible (MshedModelView *self,
                                   guint           node)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), TRUE);
  return mshed_renderer_get_node_visible (self->renderer, node);
}

void
mshed_model_view_frame_all (MshedModelView *self)
{
  g_return_if_fail (MSHED_IS_MODEL_VIEW (self));
  mshed_renderer_frame_all (self->renderer, aspect (self));
  self->framed_distance = mshed_renderer_get_camera (self->renderer)->distance;
  self->needs_framing = FALSE;
  redraw (self);
}

gboolean
mshed_model_view_frame_selection (MshedModelView *self)
{
  gboolean framed;

  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), FALSE);
  framed = mshed_renderer_frame_selection (self->renderer, aspect (self));
  redraw (self);
  return framed;
}

MshedRenderer *
mshed_model_view_get_renderer (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), NULL);
  return self->renderer;
}

/* Picking -------------------------------------------------------------------------------- */

gboolean
mshed_model_view_pick (MshedModelView *self,
                       double          x,
                       double          y,
                       MshedPick      *out)
{
  int scale, w, h;

  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), FALSE);
  /* a DFM: on the skinned positions, without GL */
  if (mshed_renderer_get_dfm (self->renderer) != NULL)
    return _mshed_model_view_dfm_pick (self->renderer, gtk_widget_get_width (GTK_WIDGET (self)),
                                       gtk_widget_get_height (GTK_WIDGET (self)), x, y, out);
  memset (out, 0, sizeof *out);
  out->node = out->slot = out->batch = out->descriptor = G_MAXUINT;
  if (!self->gl_ready)
    return FALSE;
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (gtk_gl_area_get_error (GTK_GL_AREA (self)) != NULL)
    return FALSE;
  scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  device_size (self, &w, &h);
  return mshed_renderer_pick (self->renderer, w, h, (int) floor (x * scale),
                              (int) floor (y * scale), out);
}

const MshedPick *
mshed_model_view_get_last_pick (MshedModelView *self)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), NULL);
  return &self->last_pick;
}

static void
click_pick (MshedModelView *self,
            double          x,
            double          y)
{
  MshedPick pick;

  mshed_model_view_pick (self, x, y, &pick);
  self->last_pick = pick;
  if (!pick.hit)
    {
      self->last_pick.hit = FALSE;
      g_signal_emit (self, signals[PICKED], 0, G_MAXUINT, G_MAXUINT, G_MAXUINT, G_MAXUINT);
      return;
    }
  g_signal_emit (self, signals[PICKED], 0,
                 pick.node == MSHED_NONE ? G_MAXUINT : pick.node,
                 pick.slot == MSHED_NONE ? G_MAXUINT : pick.slot,
                 pick.batch, pick.descriptor);
}

/* Default handler: with no one to feed a selection back, highlight what was hit. */
static void
mshed_model_view_real_picked (MshedModelView *self,
                              guint           node,
                              guint           slot,
                              guint           batch,
                              guint           descriptor)
{
  mshed_renderer_clear_selection (self->renderer);
  if (batch != G_MAXUINT)
    {
      /* a DFM face group is much of the model: the triangle alone, over the heat map */
      if (mshed_renderer_get_dfm (self->renderer) == NULL)
        mshed_renderer_select (self->renderer, MSHED_SELECT_BATCH, batch, TRUE);
      mshed_renderer_select (self->renderer, MSHED_SELECT_TRIANGLE,
                             MSHED_TRIANGLE_KEY (batch, self->last_pick.triangle), TRUE);
    }
  apply_vertex_selection (self);
  redraw (self);
}

/* Input ---------------------------------------------------------------------------------- */

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               MshedModelView *self)
{
  self->drag_button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  self->drag_modifiers =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  self->drag_x = x;
  self->drag_y = y;
  self->drag_last_x = self->drag_last_y = 0.0;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                MshedModelView *self)
{
  MshedCamera *camera = mshed_renderer_get_camera (self->renderer);
  double ddx = dx - self->drag_last_x, ddy = dy - self->drag_last_y;
  int height = MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);

  self->drag_last_x = dx;
  self->drag_last_y = dy;
  if (self->drag_button == GDK_BUTTON_MIDDLE || self->drag_button == GDK_BUTTON_SECONDARY ||
      (self->drag_modifiers & GDK_SHIFT_MASK))
    mshed_camera_pan (camera, (float) ddx, (float) ddy, height);
  else
    mshed_camera_orbit (camera, (float) ddx, (float) ddy, height);
  redraw (self);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             MshedModelView *self)
{
  if (self->drag_button == GDK_BUTTON_PRIMARY && hypot (dx, dy) < CLICK_SLOP)
    click_pick (self, self->drag_x + dx, self->drag_y + dy);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           MshedModelView           *self)
{
  mshed_camera_zoom (mshed_renderer_get_camera (self->renderer), (float) pow (1.15, dy));
  redraw (self);
  return TRUE;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                MshedModelView        *self)
{
  MshedCamera *camera = mshed_renderer_get_camera (self->renderer);
  int height = MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;
  float step = height / 24.0f;
  float dx = 0, dy = 0;

  /* keys with Ctrl or Alt are the window's (Ctrl+F finds a node, not "frame") */
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Left: dx = -step; break;
    case GDK_KEY_Right: dx = step; break;
    case GDK_KEY_Up: dy = -step; break;
    case GDK_KEY_Down: dy = step; break;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      mshed_camera_zoom (camera, 1.0f / 1.2f);
      redraw (self);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      mshed_camera_zoom (camera, 1.2f);
      redraw (self);
      return TRUE;
    case GDK_KEY_Home:
      mshed_model_view_frame_all (self);
      return TRUE;
    case GDK_KEY_f:
    case GDK_KEY_F:
      if (!mshed_model_view_frame_selection (self))
        mshed_model_view_frame_all (self);
      return TRUE;
    case GDK_KEY_space:
      mshed_model_view_set_playing (self, !self->playing);
      return TRUE;
    case GDK_KEY_period:
    case GDK_KEY_comma:
      {
        double frames = mshed_model_view_get_frame_count (self);
        double frame = floor (self->frame + 0.5) + (keyval == GDK_KEY_period ? 1.0 : -1.0);

        mshed_model_view_set_frame (self, frames > 1.0 ? fmod (frame + frames, frames) : 0.0);
        return TRUE;
      }
    default:
      return FALSE;
    }
  if (shift)
    mshed_camera_pan (camera, dx, dy, height);
  else
    mshed_camera_orbit (camera, dx, dy, height);
  redraw (self);
  return TRUE;
}

/* Offscreen rendering -------------------------------------------------------------------- */

static GdkTexture *
texture_from_rgba (guint8 *pixels,
                   int     width,
                   int     height)
{
  g_autoptr(GBytes) bytes = g_bytes_new_take (pixels, 4 * (gsize) width * height);

  return gdk_memory_texture_new (width, height, GDK_MEMORY_R8G8B8A8, bytes, 4 * (gsize) width);
}

static GdkTexture *
render_in_area (MshedModelView  *self,
                int              width,
                int              height,
                GError         **error)
{
  GLuint fbo = 0, rb[2] = { 0, 0 };
  guint8 *pixels, *flipped;
  gsize stride = 4 * (gsize) width;
  GLint prev_fbo = 0;

  gtk_gl_area_make_current (GTK_GL_AREA (self));
  glGetIntegerv (GL_FRAMEBUFFER_BINDING, &prev_fbo);
  glGenFramebuffers (1, &fbo);
  glGenRenderbuffers (2, rb);
  glBindRenderbuffer (GL_RENDERBUFFER, rb[0]);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindRenderbuffer (GL_RENDERBUFFER, rb[1]);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glBindRenderbuffer (GL_RENDERBUFFER, 0);
  glBindFramebuffer (GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    {
      glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) prev_fbo);
      glDeleteFramebuffers (1, &fbo);
      glDeleteRenderbuffers (2, rb);
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_FRAMEBUFFER,
                   _("Cannot create a %d×%d framebuffer for the picture"), width, height);
      return NULL;
    }
  mshed_renderer_draw (self->renderer, width, height);
  pixels = g_malloc (stride * (gsize) height);
  flipped = g_malloc (stride * (gsize) height);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadBuffer (GL_COLOR_ATTACHMENT0);
  glReadPixels (0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  for (int y = 0; y < height; y++)
    memcpy (flipped + stride * y, pixels + stride * (height - 1 - y), stride);
  g_free (pixels);
  glBindFramebuffer (GL_FRAMEBUFFER, (GLuint) prev_fbo);
  glDeleteFramebuffers (1, &fbo);
  glDeleteRenderbuffers (2, rb);
  return texture_from_rgba (flipped, width, height);
}

static GdkTexture *
render_offscreen (MshedModelView  *self,
                  int              width,
                  int              height,
                  GError         **error)
{
  MshedOffscreen *offscreen = mshed_offscreen_new (width, height, 4, error);
  MshedRenderer *renderer;
  guint8 *pixels = NULL;
  float rgba[4];

  if (offscreen != NULL)
    {
      /* A renderer of its own (GL objects belong to one context), in the same state. */
      renderer = mshed_renderer_new ();
      if (mshed_renderer_realize (renderer, error))
        {
          lookup_background (self, rgba);
          mshed_renderer_set_background (renderer, rgba);
          mshed_renderer_set_overlays (renderer, self->overlays);
          mshed_renderer_set_view (renderer, self->lod, self->group);
          mshed_renderer_set_time (renderer, (float) self->frame);
          apply_pose_options (self, renderer);
          mshed_renderer_set_model (renderer, current_model (self));
          *mshed_renderer_get_camera (renderer) = *mshed_renderer_get_camera (self->renderer);
          mshed_offscreen_bind (offscreen);
          mshed_renderer_draw (renderer, width, height);
          pixels = mshed_offscreen_read_rgba (offscreen);
          mshed_renderer_unrealize (renderer);
        }
      mshed_renderer_free (renderer);
      mshed_offscreen_free (offscreen);
    }
  /* GDK remembers which of its contexts is current; ours replaced it behind its back. */
  gdk_gl_context_clear_current ();
  return pixels ? texture_from_rgba (pixels, width, height) : NULL;
}

GdkTexture *
mshed_model_view_render_texture (MshedModelView  *self,
                                 int              width,
                                 int              height,
                                 GError         **error)
{
  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), NULL);

  if (width <= 0 || height <= 0)
    device_size (self, &width, &height);
  if (self->gl_ready && gtk_gl_area_get_error (GTK_GL_AREA (self)) == NULL)
    return render_in_area (self, width, height, error);
  return render_offscreen (self, width, height, error);
}

gboolean
mshed_model_view_save_png (MshedModelView  *self,
                           const char      *path,
                           GError         **error)
{
  g_autoptr(GdkTexture) texture = NULL;

  g_return_val_if_fail (MSHED_IS_MODEL_VIEW (self), FALSE);
  texture = mshed_model_view_render_texture (self, 0, 0, error);
  if (texture == NULL)
    return FALSE;
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write the picture to “%s”"),
                   path);
      return FALSE;
    }
  return TRUE;
}

/* GtkGLArea ------------------------------------------------------------------------------ */

static void
mshed_model_view_realize (GtkWidget *widget)
{
  MshedModelView *self = MSHED_MODEL_VIEW (widget);
  GtkGLArea *area = GTK_GL_AREA (widget);
  g_autoptr(GError) error = NULL;

  GTK_WIDGET_CLASS (mshed_model_view_parent_class)->realize (widget);

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    return;
  if (gdk_gl_context_get_use_es (gtk_gl_area_get_context (area)))
    {
      g_set_error (&error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_UNSUPPORTED,
                   _("The preview needs desktop OpenGL 3.3; only OpenGL ES is available"));
      gtk_gl_area_set_error (area, error);
      return;
    }
  if (!mshed_renderer_realize (self->renderer, &error))
    {
      gtk_gl_area_set_error (area, error);
      return;
    }
  self->gl_ready = TRUE;
  update_background (self);
}

static void
mshed_model_view_unrealize (GtkWidget *widget)
{
  MshedModelView *self = MSHED_MODEL_VIEW (widget);

  if (self->gl_ready)
    {
      gtk_gl_area_make_current (GTK_GL_AREA (widget));
      if (gtk_gl_area_get_error (GTK_GL_AREA (widget)) == NULL)
        mshed_renderer_unrealize (self->renderer);
      self->gl_ready = FALSE;
    }
  GTK_WIDGET_CLASS (mshed_model_view_parent_class)->unrealize (widget);
}

static gboolean
mshed_model_view_render (GtkGLArea    *area,
                         GdkGLContext *context)
{
  MshedModelView *self = MSHED_MODEL_VIEW (area);
  int w, h;

  if (gtk_gl_area_get_error (area) != NULL || !self->gl_ready)
    return FALSE;
  device_size (self, &w, &h);
  if (self->needs_framing && (current_model (self) || mshed_renderer_get_dfm (self->renderer)))
    {
      mshed_renderer_frame_all (self->renderer, (float) w / h);
      self->framed_distance = mshed_renderer_get_camera (self->renderer)->distance;
      self->needs_framing = FALSE;
    }
  if (self->bounds_dirty)
    update_recomputed_bounds (self);
  mshed_renderer_draw (self->renderer, w, h);
  return TRUE;
}

static void
mshed_model_view_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (mshed_model_view_parent_class)->css_changed (widget, change);
  update_background (MSHED_MODEL_VIEW (widget));
  redraw (MSHED_MODEL_VIEW (widget));
}

/* GObject -------------------------------------------------------------------------------- */

static void
mshed_model_view_dispose (GObject *object)
{
  MshedModelView *self = MSHED_MODEL_VIEW (object);

  mshed_model_view_set_playing (self, FALSE);
  if (self->document_signals)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (mshed_model_view_parent_class)->dispose (object);
}

static void
mshed_model_view_finalize (GObject *object)
{
  MshedModelView *self = MSHED_MODEL_VIEW (object);

  mshed_renderer_set_model (self->renderer, NULL);
  mshed_renderer_free (self->renderer);
  g_array_unref (self->selected_vertices);
  G_OBJECT_CLASS (mshed_model_view_parent_class)->finalize (object);
}

static void
mshed_model_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  MshedModelView *self = MSHED_MODEL_VIEW (object);

  if (prop_id >= PROP_SHOW_SHADED && prop_id < N_PROPS)
    {
      g_value_set_boolean (value,
                           (self->overlays & overlay_props[prop_id - PROP_SHOW_SHADED].flag) != 0);
      return;
    }
  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_LOD:
      g_value_set_uint (value, self->lod);
      break;
    case PROP_GROUP:
      g_value_set_uint (value, self->group);
      break;
    case PROP_FRAME:
      g_value_set_double (value, self->frame);
      break;
    case PROP_FRAME_COUNT:
      g_value_set_uint (value, mshed_model_view_get_frame_count (self));
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playing);
      break;
    case PROP_FPS:
      g_value_set_double (value, self->fps);
      break;
    case PROP_SHOW_STALE_BOUNDS:
      g_value_set_boolean (value, self->show_stale_bounds);
      break;
    case PROP_RUNTIME_ROTATION:
      g_value_set_boolean (value, self->runtime_rotation);
      break;
    case PROP_Y_UP:
      g_value_set_boolean (value, self->y_up);
      break;
    case PROP_DFM_LEVEL:
      g_value_set_int (value, self->dfm_level);
      break;
    case PROP_DFM_DRAWN_LEVEL:
      g_value_set_uint (value, mshed_model_view_get_dfm_drawn_level (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_model_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  MshedModelView *self = MSHED_MODEL_VIEW (object);

  if (prop_id >= PROP_SHOW_SHADED && prop_id < N_PROPS)
    {
      MshedOverlays flag = overlay_props[prop_id - PROP_SHOW_SHADED].flag;

      mshed_model_view_set_overlays (self, g_value_get_boolean (value) ? (self->overlays | flag)
                                                                       : (self->overlays & ~flag));
      return;
    }
  switch (prop_id)
    {
    case PROP_DOCUMENT:
      mshed_model_view_set_document (self, g_value_get_object (value));
      break;
    case PROP_LOD:
      mshed_model_view_set_lod (self, g_value_get_uint (value));
      break;
    case PROP_GROUP:
      mshed_model_view_set_group (self, g_value_get_uint (value));
      break;
    case PROP_FRAME:
      mshed_model_view_set_frame (self, g_value_get_double (value));
      break;
    case PROP_PLAYING:
      mshed_model_view_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_FPS:
      if (self->fps != g_value_get_double (value))
        {
          self->fps = g_value_get_double (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SHOW_STALE_BOUNDS:
      if (self->show_stale_bounds != g_value_get_boolean (value))
        {
          self->show_stale_bounds = g_value_get_boolean (value);
          self->bounds_dirty = TRUE;
          g_object_notify_by_pspec (object, pspec);
          redraw (self);
        }
      break;
    case PROP_RUNTIME_ROTATION:
      if (self->runtime_rotation != g_value_get_boolean (value))
        {
          self->runtime_rotation = g_value_get_boolean (value);
          apply_pose_options (self, self->renderer);
          g_object_notify_by_pspec (object, pspec);
          redraw (self);
        }
      break;
    case PROP_Y_UP:
      if (self->y_up != g_value_get_boolean (value))
        {
          self->y_up = g_value_get_boolean (value);
          mshed_camera_set_up (mshed_renderer_get_camera (self->renderer),
                               self->y_up ? MSHED_UP_Y : MSHED_UP_Z);
          g_object_notify_by_pspec (object, pspec);
          redraw (self);
        }
      break;
    case PROP_DFM_LEVEL:
      mshed_model_view_set_dfm_level (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
frame_all_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  mshed_model_view_frame_all (MSHED_MODEL_VIEW (widget));
}

static void
frame_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  if (!mshed_model_view_frame_selection (MSHED_MODEL_VIEW (widget)))
    mshed_model_view_frame_all (MSHED_MODEL_VIEW (widget));
}

/* GtkGLArea hands GSK a GL texture. GSK 4.8's cairo renderer (what windows draw with when GL
 * is software, see mshed-application.c) turns every texture of the window into a new cairo
 * surface on every frame it draws, even when only a grid scrolled elsewhere: for the preview
 * that is a glReadPixels, an allocation and a conversion of the whole picture, a quarter of
 * the cost of scrolling a grid (bench-gui under callgrind). So under that renderer the
 * preview is drawn into a cairo surface once per render, and the window keeps painting that
 * surface, only where it is damaged. The GL renderer keeps using the GL texture. */
static void
mshed_model_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  MshedModelView *self = MSHED_MODEL_VIEW (widget);
  GtkNative *native = gtk_widget_get_native (widget);
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  cairo_surface_t *surface;
  GtkSnapshot *own;
  GskRenderNode *node;
  cairo_t *cr;

  if (native == NULL || !GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (native)) ||
      w <= 0 || h <= 0)
    {
      GTK_WIDGET_CLASS (mshed_model_view_parent_class)->snapshot (widget, snapshot);
      _mshed_model_view_dfm_labels (widget, self->renderer, snapshot);
      return;
    }
  own = gtk_snapshot_new ();
  GTK_WIDGET_CLASS (mshed_model_view_parent_class)->snapshot (widget, own);
  node = gtk_snapshot_free_to_node (own);
  if (node == NULL)
    return;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, h * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  gsk_render_node_unref (node);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  _mshed_model_view_dfm_labels (widget, self->renderer, snapshot);
}

static void
mshed_model_view_class_init (MshedModelViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkGLAreaClass *area_class = GTK_GL_AREA_CLASS (klass);

  object_class->dispose = mshed_model_view_dispose;
  object_class->finalize = mshed_model_view_finalize;
  object_class->get_property = mshed_model_view_get_property;
  object_class->set_property = mshed_model_view_set_property;
  widget_class->realize = mshed_model_view_realize;
  widget_class->unrealize = mshed_model_view_unrealize;
  widget_class->css_changed = mshed_model_view_css_changed;
  widget_class->snapshot = mshed_model_view_snapshot;
  area_class->render = mshed_model_view_render;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, MSHED_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOD] =
    g_param_spec_uint ("lod", NULL, NULL, 0, MSHED_N_LODS - 1, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUP] =
    g_param_spec_uint ("group", NULL, NULL, 0, MSHED_N_GROUPS - 1, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRAME] =
    g_param_spec_double ("frame", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRAME_COUNT] =
    g_param_spec_uint ("frame-count", NULL, NULL, 1, G_MAXUINT, 1,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PLAYING] =
    g_param_spec_boolean ("playing", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FPS] =
    g_param_spec_double ("fps", NULL, NULL, 0.0, 1000.0, 15.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_STALE_BOUNDS] =
    g_param_spec_boolean ("show-stale-bounds", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNTIME_ROTATION] =
    g_param_spec_boolean ("runtime-rotation", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_Y_UP] =
    g_param_spec_boolean ("y-up", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DFM_LEVEL] =
    g_param_spec_int ("dfm-level", NULL, NULL, -1, 255, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DFM_DRAWN_LEVEL] =
    g_param_spec_uint ("dfm-drawn-level", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  for (guint i = 0; i < G_N_ELEMENTS (overlay_props); i++)
    {
      g_autofree char *name = g_strconcat ("show-", overlay_props[i].name, NULL);

      properties[PROP_SHOW_SHADED + i] =
        g_param_spec_boolean (g_intern_string (name), NULL, NULL,
                              (MSHED_OVERLAY_DEFAULT & overlay_props[i].flag) != 0,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_NAME);
    }
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[PICKED] =
    g_signal_new_class_handler ("picked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                G_CALLBACK (mshed_model_view_real_picked), NULL, NULL, NULL,
                                G_TYPE_NONE, 4, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);

  for (guint i = 0; i < G_N_ELEMENTS (overlay_props); i++)
    {
      g_autofree char *action = g_strconcat ("view.", overlay_props[i].name, NULL);

      gtk_widget_class_install_property_action (
        widget_class, action, g_param_spec_get_name (properties[PROP_SHOW_SHADED + i]));
    }
  gtk_widget_class_install_property_action (widget_class, "view.stale-bounds", "show-stale-bounds");
  gtk_widget_class_install_property_action (widget_class, "view.playing", "playing");
  gtk_widget_class_install_action (widget_class, "view.frame-all", NULL, frame_all_action);
  gtk_widget_class_install_action (widget_class, "view.frame-selection", NULL,
                                   frame_selection_action);

  gtk_widget_class_set_css_name (widget_class, "modelview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
mshed_model_view_init (MshedModelView *self)
{
  GtkGLArea *area = GTK_GL_AREA (self);
  GtkGesture *drag;
  GtkEventController *scroll, *keys;

  self->renderer = mshed_renderer_new ();
  self->overlays = MSHED_OVERLAY_DEFAULT;
  self->fps = 15.0;
  self->show_stale_bounds = TRUE;
  self->selected_vertices = g_array_new (FALSE, FALSE, sizeof (guint));
  self->dfm_level = -1;
  mshed_renderer_set_overlays (self->renderer, self->overlays);

  gtk_gl_area_set_required_version (area, 3, 3);
  gtk_gl_area_set_use_es (area, FALSE);
  gtk_gl_area_set_has_depth_buffer (area, TRUE);
  gtk_gl_area_set_auto_render (area, TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 120, 120);

  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed",
                                  G_CALLBACK (on_document_changed), self);
  g_signal_group_connect_swapped (self->document_signals, "stale-changed",
                                  G_CALLBACK (on_stale_changed), self);

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);

  keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

GtkWidget *
mshed_model_view_new (void)
{
  return g_object_new (MSHED_TYPE_MODEL_VIEW, NULL);
}
