/* bench-gui.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prints (a benchmark, not a test): the time from opening the 200k-triangle model to the
 * first frame of the window drawn with it, and the time to scroll the triangle grid from top
 * to bottom one page per frame. Needs a display (run under xvfb-run).
 *
 * Every GLib warning or critical aborts it, also when it is run by hand. With --quick (the
 * 'app' test suite runs it so) it opens a 20k-triangle model and scrolls 20 pages: the same
 * code paths in a few seconds.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "mshed-application.h"
#include "mshed-generator.h"
#include "mshed-window-private.h"

static guint paints;

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  paints++;
}

static void
wait_paints (guint n)
{
  guint target = paints + n;

  while (paints < target)
    g_main_context_iteration (NULL, TRUE);
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);
      if (found)
        return found;
    }
  return NULL;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  MshedGenParams params;
  MshedApplication *app;
  MshedWindow *window;
  GdkFrameClock *clock;
  GtkScrolledWindow *scroller;
  GtkAdjustment *adj;
  gint64 t0, t1;
  guint pages = 0, frames;
  gboolean quick = argc > 1 && g_strcmp0 (argv[1], "--quick") == 0;
  guint max_pages = quick ? 20 : G_MAXUINT;

  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);
  if (!gtk_init_check ())
    {
      g_print ("bench-gui: no display (run it under xvfb-run)\n");
      return 0;
    }

  mshed_gen_params_init (&params, 7);
  params.n_triangles = quick ? 20000 : 200000;
  params.n_nodes = 12;
  bytes = mshed_generate_model_bytes (&params);
  dir = g_dir_make_tmp ("mshed-bench-XXXXXX", NULL);
  path = g_build_filename (dir, "big.msh", NULL);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL);

  app = mshed_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  window = mshed_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 740);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)))
    g_main_context_iteration (NULL, TRUE);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  wait_paints (2);

  t0 = g_get_monotonic_time ();
  mshed_window_open (window, path);
  wait_paints (1);
  t1 = g_get_monotonic_time ();
  g_print ("open %uk-triangle model (%.1f MB) to first drawn window: %.1f ms\n",
           params.n_triangles / 1000, g_bytes_get_size (bytes) / 1e6, (t1 - t0) / 1000.0);

  _mshed_window_select_grid (window, MSHED_TABLE_TRIS);
  wait_paints (3);
  scroller = GTK_SCROLLED_WINDOW (find_type (GTK_WIDGET (window->grids[3]), GTK_TYPE_SCROLLED_WINDOW));
  adj = gtk_scrolled_window_get_vadjustment (scroller);
  frames = paints;
  t0 = g_get_monotonic_time ();
  while (pages < max_pages &&
         gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) <
         gtk_adjustment_get_upper (adj) - 1)
    {
      gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) +
                                     gtk_adjustment_get_page_size (adj));
      wait_paints (1);
      pages++;
    }
  t1 = g_get_monotonic_time ();
  frames = paints - frames;
  g_print ("scroll the triangle grid (%u rows) top to bottom, a page per frame: %u pages, "
           "%.2f s, %.1f ms per page\n",
           mshed_model_get_n_rows (mshed_document_get_model (mshed_window_get_document (window)),
                                   MSHED_TABLE_TRIS),
           pages, (t1 - t0) / 1e6, pages ? (t1 - t0) / 1000.0 / pages : 0.0);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
