/* widget-test-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Helpers shared by the widget tests (and the app's GUI test): a generated model in a document, a
 * shown window with the app's style sheet, waiting for GTK, and screenshots.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "test-require.h"

static inline MshedDocument *
widget_test_document (guint64   seed,
                    guint     n_triangles,
                    guint     n_nodes,
                    MshedMode mode)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MshedModel *model;
  MshedDocument *doc;

  mshed_gen_params_init (&params, seed);
  params.n_triangles = n_triangles;
  params.n_nodes = n_nodes;
  params.cyrillic_names = TRUE;
  params.empty_names = TRUE;
  params.animated = TRUE;
  bytes = mshed_generate_model_bytes (&params);
  model = mshed_model_new_from_bytes (bytes, mode, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  doc = mshed_document_new_for_model (model, mode);
  mshed_model_unref (model);
  return doc;
}

static inline void
widget_test_css_error_cb (GtkCssProvider *provider,
                        GtkCssSection  *section,
                        const GError   *error)
{
  g_autofree char *where = gtk_css_section_to_string (section);

  g_error ("style.css: %s: %s", where, error->message);
}

static gboolean widget_test_display;

/* Whether GTK could open a display (gtk_init_check() must not be retried after a failure). */
static inline gboolean
widget_test_have_display (void)
{
  return widget_test_display;
}

static inline gboolean
widget_test_init (int    *argc,
                char ***argv)
{
  GtkCssProvider *provider;

  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);
  g_test_init (argc, argv, NULL);
  if (!(widget_test_display = gtk_init_check ()))
    return FALSE;

  /* the app loads the style sheet display-wide; a parse error fails the test */
  provider = gtk_css_provider_new ();
  g_signal_connect (provider, "parsing-error", G_CALLBACK (widget_test_css_error_cb), NULL);
  gtk_css_provider_load_from_resource (provider, "/org/mshed/Mshed/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  return TRUE;
}

/* A skip, or a failure where every test must run (MSHED_REQUIRE_ALL_TESTS, see test-require.h). */
static inline void
widget_test_skip (void)
{
  mshed_test_skip ("no display (run under xvfb-run)");
}

static inline void
widget_test_iterate (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  do
    {
      while (g_main_context_pending (NULL))
        g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  while (g_get_monotonic_time () < end);
}

/* Shows @child in a window of the given size and waits until it is drawn. */
static inline GtkWidget *
widget_test_window (GtkWidget *child,
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
  widget_test_iterate (80);
  return window;
}

/* Renders @window to DIR/@name when MSHED_TEST_SCREENSHOT_DIR is set. */
static inline void
widget_test_screenshot (GtkWidget  *window,
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
  widget_test_iterate (150);
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

/* Grabs the whole X screen (popovers included) with ImageMagick's import when
 * MSHED_TEST_SCREENSHOT_DIR is set and import is installed. */
static inline void
widget_test_screenshot_root (const char *name)
{
  const char *dir = g_getenv ("MSHED_TEST_SCREENSHOT_DIR");
  g_autofree char *import = g_find_program_in_path ("import");
  g_autofree char *path = NULL;
  g_autofree char *cmd = NULL;

  if (dir == NULL || import == NULL)
    return;
  widget_test_iterate (200);
  path = g_build_filename (dir, name, NULL);
  cmd = g_strdup_printf ("%s -window root %s", import, path);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  g_test_message ("screenshot: %s", path);
}

static inline gboolean
widget_test_bytes_equal (GBytes *a,
                       GBytes *b)
{
  return g_bytes_equal (a, b);
}
