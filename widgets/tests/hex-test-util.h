/* hex-test-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Helpers shared by the hex view, data inspector and unknown-table tests: a generated model
 * in a document, a shown window, and waiting for GTK.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"
#include "mshed-generator.h"
#include "mshed-model.h"

/* A strict, generated model with Res9/Res17/Res18/Res20 and at least 8 slots. */
static inline MshedDocument *
hex_test_document (guint64 seed,
                   guint   n_triangles)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MshedModel *model;
  MshedDocument *doc;

  mshed_gen_params_init (&params, seed);
  params.n_triangles = n_triangles;
  params.n_nodes = 12;
  params.with_res18_20 = TRUE;
  params.res17_data = TRUE;
  params.cyrillic_names = TRUE;
  bytes = mshed_generate_model_bytes (&params);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  doc = mshed_document_new_for_model (model, MSHED_MODE_STRICT);
  mshed_model_unref (model);
  return doc;
}

static inline gboolean
hex_test_init (int    *argc,
               char ***argv)
{
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);
  g_test_init (argc, argv, NULL);
  if (!gtk_init_check ())
    return FALSE;
  {
    /* the app loads the style sheet display-wide; so do the tests */
    GtkCssProvider *css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/org/mshed/Mshed/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref (css);
  }
  return TRUE;
}

static inline void
hex_test_skip (void)
{
  g_test_skip ("no display (run under xvfb-run)");
}

static inline void
hex_test_iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* Shows @child in a window of the given size and waits until it is allocated. */
static inline GtkWidget *
hex_test_window (GtkWidget *child,
                 int        width,
                 int        height)
{
  GtkWidget *window = gtk_window_new ();
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  while ((!gtk_widget_get_mapped (child) || gtk_widget_get_height (child) <= 0) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_mapped (child));
  hex_test_iterate (50);
  return window;
}

/* Renders @widget's window to a PNG when MSHED_TEST_SCREENSHOT_DIR is set. */
static inline void
hex_test_screenshot (GtkWidget  *window,
                     const char *name)
{
  const char *dir = g_getenv ("MSHED_TEST_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GskRenderer *renderer;
  int w, h;

  if (dir == NULL)
    return;
  hex_test_iterate (100);
  w = gtk_widget_get_width (window);
  h = gtk_widget_get_height (window);
  paintable = gtk_widget_paintable_new (window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}
