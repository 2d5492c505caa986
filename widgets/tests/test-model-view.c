/* test-model-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MshedModelView in a real window (run under Xvfb; skipped without a display): the GtkGLArea
 * really puts the model on screen (composited pixels read back through
 * gtk_widget_paintable_new, not just the GL calls), document edits reach the view with a
 * partial upload, picking, hiding nodes, LOD, animation and PNG export.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "mshed-document.h"
#include "mshed-model-view.h"
#include "quads-model.h"
#include "test-require.h"

#define VIEW_SIZE 240
#define CAM_DISTANCE 10.0f

static gboolean have_display;

typedef struct {
  GtkWidget      *window;
  MshedModelView *view;
  MshedDocument  *document;
  MshedModel     *model;
  guint           renders;
  guint8         *pixels;     /* B G R A premultiplied (cairo ARGB32), window size */
  int             width;
  int             height;
  int             stride;
  graphene_rect_t bounds;     /* the view inside the window */
  guint           picks;
  guint           picked[4];
} Fixture;

static gboolean
count_render (GtkGLArea    *area,
              GdkGLContext *context,
              Fixture      *f)
{
  f->renders++;
  return FALSE;   /* let the view's own handler draw */
}

static void
on_picked (MshedModelView *view,
           guint           node,
           guint           slot,
           guint           batch,
           guint           descriptor,
           Fixture        *f)
{
  f->picks++;
  f->picked[0] = node;
  f->picked[1] = slot;
  f->picked[2] = batch;
  f->picked[3] = descriptor;
}

static gboolean
quit_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, quit_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Looking along +y from (0, -10, 0), as in test-render.c. */
static void
set_front_camera (Fixture *f)
{
  MshedCamera *cam = mshed_renderer_get_camera (mshed_model_view_get_renderer (f->view));

  glm_vec3_zero (cam->target);
  cam->distance = CAM_DISTANCE;
  cam->yaw = -(float) G_PI / 2.0f;
  cam->pitch = 0.0f;
  cam->fov_y = glm_rad (40.0f);
  cam->scene_radius = 3.0f;
  gtk_gl_area_queue_render (GTK_GL_AREA (f->view));
}

/* Composited window pixels, as the screen shows them. */
static void
capture (Fixture *f)
{
  GdkPaintable *paintable;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  GdkTexture *texture;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (f->window));
  guint before = f->renders;

  /* let a frame happen, then snapshot (the GL area renders inside its snapshot if needed) */
  for (guint i = 0; i < 50 && f->renders == before; i++)
    spin (20);
  f->width = gtk_widget_get_width (f->window);
  f->height = gtk_widget_get_height (f->window);
  paintable = gtk_widget_paintable_new (f->window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, f->width, f->height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, f->width, f->height));
  g_clear_pointer (&f->pixels, g_free);
  f->stride = 4 * gdk_texture_get_width (texture);
  f->pixels = g_malloc ((gsize) f->stride * gdk_texture_get_height (texture));
  gdk_texture_download (texture, f->pixels, f->stride);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (f->view), f->window, &f->bounds));
  g_object_unref (texture);
  gsk_render_node_unref (node);
  g_object_unref (paintable);
}

static void
world_to_window (Fixture *f,
                 float    x,
                 float    z,
                 int     *px,
                 int     *py)
{
  float w = f->bounds.size.width, h = f->bounds.size.height;
  float k = (h / 2.0f) / (CAM_DISTANCE * tanf (glm_rad (20.0f)));

  *px = (int) (f->bounds.origin.x + w / 2.0f + x * k);
  *py = (int) (f->bounds.origin.y + h / 2.0f - z * k);
}

static const guint8 *
pixel (Fixture *f,
       int      x,
       int      y)
{
  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, f->width);
  g_assert_cmpint (y, <, f->height);
  return f->pixels + (gsize) y * f->stride + 4 * (gsize) x;
}

/* Differs from the view's background (its top left corner) by more than noise. */
static gboolean
drawn_at (Fixture *f,
          float    x,
          float    z)
{
  const guint8 *bg = pixel (f, (int) f->bounds.origin.x + 2, (int) f->bounds.origin.y + 2);
  const guint8 *p;
  int px, py, d = 0;

  world_to_window (f, x, z, &px, &py);
  p = pixel (f, px, py);
  for (guint k = 0; k < 3; k++)
    d = MAX (d, ABS ((int) p[k] - (int) bg[k]));
  return d > 24;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  memset (f, 0, sizeof *f);
  if (!have_display)
    return;
  f->model = build_model (38);
  f->document = mshed_document_new_for_model (f->model, MSHED_MODE_TOLERANT);
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), VIEW_SIZE, VIEW_SIZE);
  f->view = MSHED_MODEL_VIEW (mshed_model_view_new ());
  g_signal_connect (f->view, "render", G_CALLBACK (count_render), f);
  g_signal_connect (f->view, "picked", G_CALLBACK (on_picked), f);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  mshed_model_view_set_document (f->view, f->document);
  gtk_window_present (GTK_WINDOW (f->window));
  for (guint i = 0;
       i < 100 && (f->renders == 0 || !gtk_widget_get_mapped (GTK_WIDGET (f->view)));
       i++)
    spin (20);
  g_assert_cmpuint (f->renders, >, 0);
  g_assert_no_error (gtk_gl_area_get_error (GTK_GL_AREA (f->view)));
  mshed_model_view_frame_all (f->view);
  set_front_camera (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  MshedRenderStats stats;

  if (!have_display)
    return;
  mshed_renderer_get_stats (mshed_model_view_get_renderer (f->view), &stats);
  g_assert_cmpuint (stats.n_gl_errors, ==, 0);
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (20);
  g_clear_object (&f->document);
  g_clear_pointer (&f->model, mshed_model_unref);
  g_free (f->pixels);
}

#define NEED_DISPLAY() \
  G_STMT_START { if (!have_display) { mshed_test_skip ("no display"); return; } } G_STMT_END

static void
test_draws (Fixture       *f,
            gconstpointer  data)
{
  NEED_DISPLAY ();
  capture (f);
  g_assert_true (drawn_at (f, -1.5f, 0.5f));     /* quad A */
  g_assert_true (drawn_at (f, 1.5f, 0.5f));      /* quad B (node 1, posed) */
  g_assert_false (drawn_at (f, 0.0f, 0.5f));     /* between them */
  g_assert_false (drawn_at (f, 1.5f, 2.5f));     /* above B */
  g_assert_cmpuint (mshed_model_view_get_frame_count (f->view), ==, 3);
}

static void
test_edit (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  MshedRenderStats stats;

  NEED_DISPLAY ();
  capture (f);
  g_assert_false (drawn_at (f, 1.9f, 2.1f));
  /* moving vertex 6 (quad B's top right corner) to z = 2 re-uploads that vertex only */
  g_assert_true (mshed_document_set_field (f->document, MSHED_TABLE_POSITIONS, 6, "z", 2.0,
                                           &error));
  g_assert_no_error (error);
  capture (f);
  mshed_renderer_get_stats (mshed_model_view_get_renderer (f->view), &stats);
  g_assert_cmpuint (stats.upload_bytes, ==, 32);
  g_assert_true (drawn_at (f, 1.9f, 2.1f));
  /* undo comes back through the same path */
  g_assert_true (mshed_document_undo (f->document));
  capture (f);
  g_assert_false (drawn_at (f, 1.9f, 2.1f));
  /* a batch edit (topology): batch 1 draws quad A's vertices under node 1 */
  g_assert_true (mshed_document_set_field (f->document, MSHED_TABLE_BATCHES, 1, "baseVertex", 0,
                                           &error));
  g_assert_no_error (error);
  capture (f);
  g_assert_true (drawn_at (f, 0.0f, 0.5f));
  g_assert_false (drawn_at (f, 1.5f, 0.5f));
}

static void
test_pick (Fixture       *f,
           gconstpointer  data)
{
  MshedPick pick;
  int px, py;

  NEED_DISPLAY ();
  capture (f);
  world_to_window (f, 1.75f, 0.0f, &px, &py);
  g_assert_true (mshed_model_view_pick (f->view, px - f->bounds.origin.x, py - f->bounds.origin.y,
                                        &pick));
  g_assert_cmpuint (pick.node, ==, 1);
  g_assert_cmpuint (pick.batch, ==, 1);
  g_assert_cmpuint (pick.triangle, ==, 0);
  g_assert_cmpuint (pick.descriptor, ==, 2);
  world_to_window (f, 0.0f, 0.5f, &px, &py);
  g_assert_false (mshed_model_view_pick (f->view, px - f->bounds.origin.x, py - f->bounds.origin.y,
                                         &pick));
}

static void
test_hide_lod_frame (Fixture       *f,
                     gconstpointer  data)
{
  NEED_DISPLAY ();
  mshed_model_view_set_node_visible (f->view, 1, FALSE);
  capture (f);
  g_assert_true (drawn_at (f, -1.5f, 0.5f));
  g_assert_false (drawn_at (f, 1.5f, 0.5f));
  mshed_model_view_set_node_visible (f->view, 1, TRUE);

  /* lod 1: quad C only */
  g_object_set (f->view, "lod", 1, NULL);
  capture (f);
  g_assert_true (drawn_at (f, -1.75f, 0.25f));
  g_assert_false (drawn_at (f, -1.25f, 1.0f));
  g_assert_false (drawn_at (f, 1.5f, 0.5f));
  g_object_set (f->view, "lod", 0, NULL);

  /* frame 1: node 1 halfway down; z 1.25 is no longer covered, z -0.75 is */
  g_object_set (f->view, "frame", 1.0, NULL);
  capture (f);
  g_assert_false (drawn_at (f, 1.5f, 1.25f));
  g_assert_true (drawn_at (f, 1.5f, -0.75f));
}

static void
test_play (Fixture       *f,
           gconstpointer  data)
{
  double frame;

  NEED_DISPLAY ();
  g_object_set (f->view, "fps", 10.0, NULL);
  gtk_widget_activate_action (GTK_WIDGET (f->view), "view.playing", NULL);
  g_assert_true (mshed_model_view_get_playing (f->view));
  spin (300);
  frame = mshed_model_view_get_frame (f->view);
  g_assert_cmpfloat (frame, >, 0.0);
  g_assert_cmpfloat (frame, <, 3.0);   /* loops with the period frameCount */
  mshed_model_view_set_playing (f->view, FALSE);
}

static void
test_overlays_actions (Fixture       *f,
                       gconstpointer  data)
{
  gboolean wire;

  NEED_DISPLAY ();
  g_object_get (f->view, "show-wireframe", &wire, NULL);
  g_assert_false (wire);
  gtk_widget_activate_action (GTK_WIDGET (f->view), "view.wireframe", NULL);
  g_object_get (f->view, "show-wireframe", &wire, NULL);
  g_assert_true (wire);
  g_assert_true (mshed_model_view_get_overlays (f->view) & MSHED_OVERLAY_WIREFRAME);
  g_object_set (f->view, "show-slot-boxes", TRUE, "show-normals", TRUE, "show-capsule", TRUE,
                "show-uv-checker", TRUE, NULL);
  capture (f);
  g_assert_true (drawn_at (f, -1.5f, 0.5f));
}

static void
test_save_png (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  int fd;

  NEED_DISPLAY ();
  fd = g_file_open_tmp ("mshed-view-XXXXXX.png", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (mshed_model_view_save_png (f->view, path, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==,
                   gtk_widget_get_width (GTK_WIDGET (f->view)) *
                   gtk_widget_get_scale_factor (GTK_WIDGET (f->view)));
  g_remove (path);

  /* a fixed size */
  g_clear_object (&texture);
  texture = mshed_model_view_render_texture (f->view, 64, 48, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 64);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, 48);
}

static void
test_document_switch (Fixture       *f,
                      gconstpointer  data)
{
  NEED_DISPLAY ();
  mshed_model_view_set_document (f->view, NULL);
  capture (f);
  g_assert_false (drawn_at (f, -1.5f, 0.5f));
  g_assert_cmpuint (mshed_model_view_get_frame_count (f->view), ==, 1);
  mshed_model_view_set_document (f->view, f->document);
  mshed_model_view_frame_all (f->view);
  set_front_camera (f);
  capture (f);
  g_assert_true (drawn_at (f, -1.5f, 0.5f));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  have_display = gtk_init_check ();

#define ADD(path, func) \
  g_test_add ("/model-view/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("draws", test_draws);
  ADD ("edit", test_edit);
  ADD ("pick", test_pick);
  ADD ("hide-lod-frame", test_hide_lod_frame);
  ADD ("play", test_play);
  ADD ("overlays-actions", test_overlays_actions);
  ADD ("save-png", test_save_png);
  ADD ("document-switch", test_document_switch);
#undef ADD

  return g_test_run ();
}
