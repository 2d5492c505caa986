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
 *
 * First, the largest generated DFM body (57 bones, 8,000 points): open to first drawn
 * preview, then frames of the preview as it is (steady) and after a joint move, with the
 * mesh skinned on the GPU, or on the CPU with --cpu-skinning (MSHED_CPU_SKINNING=1, the
 * path before GPU skinning); --dfm-only stops there.
 *   bench-gui [--pages N] [--quick] [--cpu-skinning] [--dfm-only]
 *   N: scroll at most N pages (default: the whole grid)
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "bench-util.h"
#include "mshed-application.h"
#include "mshed-dfm-generator.h"
#include "mshed-generator.h"
#include "mshed-window-private.h"

static guint paints;
static guint renders;
static guint render_paint;   /* paints counted when the preview last rendered */
static int max_pages = 0;
static gboolean quick = FALSE;
static gboolean cpu_skinning = FALSE;
static gboolean dfm_only = FALSE;

static GOptionEntry entries[] = {
  { "pages", 'p', 0, G_OPTION_ARG_INT, &max_pages, "Scroll at most N pages (default: all)",
    "N" },
  { "quick", 'q', 0, G_OPTION_ARG_NONE, &quick,
    "A 20k-triangle model and 20 pages: the same code paths in a few seconds (the test)", NULL },
  { "cpu-skinning", 0, 0, G_OPTION_ARG_NONE, &cpu_skinning,
    "Skin the DFM on the CPU (MSHED_CPU_SKINNING=1)", NULL },
  { "dfm-only", 0, 0, G_OPTION_ARG_NONE, &dfm_only, "Only the DFM preview", NULL },
  { NULL }
};

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

static gboolean
on_render (GtkGLArea    *area,
           GdkGLContext *context,
           gpointer      user_data)
{
  renders++;
  render_paint = paints;
  return FALSE;   /* the view's own handler draws */
}

/* Waits until the preview has rendered and that frame has been painted. */
static void
wait_rendered (void)
{
  guint target = renders + 1;

  while (renders < target || paints <= render_paint)
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

/* Opens @path in @window and waits for the window to be drawn with it (separate functions so
 * that a profiler can be pointed at each phase: valgrind --tool=callgrind
 * --collect-atstart=no --toggle-collect=open_and_draw). Returns when the opening returned. */
G_GNUC_NO_INLINE static gint64
open_and_draw (MshedWindow *window,
               const char  *path)
{
  gint64 opened;

  mshed_window_open (window, path);
  opened = g_get_monotonic_time ();
  wait_paints (1);
  return opened;
}

/* Scrolls down a page per frame, from the top to the bottom or max_pages pages. */
G_GNUC_NO_INLINE static guint
scroll_pages (GtkAdjustment *adj)
{
  guint pages = 0;

  while (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) <
         gtk_adjustment_get_upper (adj) - 1 && (max_pages <= 0 || pages < (guint) max_pages))
    {
      gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) +
                                     gtk_adjustment_get_page_size (adj));
      wait_paints (1);
      pages++;
    }
  return pages;
}

/* Opens the body and times the preview: first frame, steady frames, frames after a joint move
 * (wall time median, the process's CPU time mean). */
static void
bench_dfm (MshedWindow *window,
           const char  *dir)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = g_build_filename (dir, "body.dfm", NULL);
  MshedRenderer *renderer = mshed_model_view_get_renderer (window->model_view);
  MshedDfmPose *pose;
  const char *how = cpu_skinning ? "CPU" : "GPU";
  double wall[15];
  gint64 t0, c0, t1, c1, t_call, c_frame;
  MshedDfmLevel level;
  guint n = quick ? 3 : G_N_ELEMENTS (wall);

  if (quick)
    mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 7);
  else
    bench_largest_body (&params);
  bytes = mshed_dfm_generate_bytes (&params);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       NULL);
  g_signal_connect (window->model_view, "render", G_CALLBACK (on_render), NULL);

  t0 = g_get_monotonic_time ();
  c0 = bench_cpu_time ();
  mshed_window_open (window, path);
  t_call = g_get_monotonic_time ();
  wait_rendered ();
  t1 = g_get_monotonic_time ();
  c1 = bench_cpu_time ();
  g_assert (mshed_renderer_get_dfm (renderer) != NULL);
  mshed_dfm_get_level (mshed_renderer_get_dfm (renderer), 0, &level);
  g_print ("DFM body (%u points, %u bones), %s skinning: open to first drawn preview %.1f ms "
           "(opening %.1f ms; CPU time of all threads %.1f ms)\n", level.n_points,
           mshed_dfm_get_n_bones (mshed_renderer_get_dfm (renderer)), how, (t1 - t0) / 1000.0,
           (t_call - t0) / 1000.0, (c1 - c0) / 1000.0);
  g_assert (mshed_renderer_skins_on_gpu (renderer) == !cpu_skinning);

  for (guint pass = 0; pass < 2; pass++)
    {
      pose = mshed_render_scene_get_dfm_pose (mshed_renderer_get_scene (renderer));
      c0 = bench_cpu_time ();
      for (guint i = 0; i < n; i++)
        {
          t0 = g_get_monotonic_time ();
          if (pass == 1)
            {
              mshed_dfm_pose_set_value (pose, 0, 0, 0.05f * (float) (i + 1));
              mshed_model_view_dfm_changed (window->model_view, FALSE);
            }
          else
            gtk_gl_area_queue_render (GTK_GL_AREA (window->model_view));
          wait_rendered ();
          wall[i] = (g_get_monotonic_time () - t0) / 1000.0;
        }
      c_frame = (bench_cpu_time () - c0) / n;
      g_print ("DFM %s skinning, %s: %.1f ms a frame (median of %u; CPU time %.1f ms)\n", how,
               pass ? "after a joint move" : "steady", bench_median (wall, n), n,
               c_frame / 1000.0);
    }
  g_signal_handlers_disconnect_by_func (window->model_view, on_render, NULL);
  g_unlink (path);
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
  gint64 t0, t1, t_call, c0, c1;
  guint pages;
  g_autoptr(GOptionContext) context = g_option_context_new ("- mshed window benchmark");
  g_autoptr(GError) error = NULL;

  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (quick && max_pages <= 0)
    max_pages = 20;
  if (cpu_skinning)
    g_setenv ("MSHED_CPU_SKINNING", "1", TRUE);
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
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       NULL);

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

  bench_dfm (window, dir);
  if (dfm_only)
    {
      gtk_window_destroy (GTK_WINDOW (window));
      g_rmdir (dir);
      return 0;
    }

  t0 = g_get_monotonic_time ();
  c0 = bench_cpu_time ();
  t_call = open_and_draw (window, path);
  t1 = g_get_monotonic_time ();
  c1 = bench_cpu_time ();
  g_print ("open %uk-triangle model (%.1f MB) to first drawn window: %.1f ms (opening %.1f ms, "
           "first frame %.1f ms; CPU time of all threads %.1f ms)\n",
           params.n_triangles / 1000, g_bytes_get_size (bytes) / 1e6, (t1 - t0) / 1000.0,
           (t_call - t0) / 1000.0, (t1 - t_call) / 1000.0, (c1 - c0) / 1000.0);

  /* a grid builds its rows when first shown */
  t0 = g_get_monotonic_time ();
  c0 = bench_cpu_time ();
  _mshed_window_select_grid (window, MSHED_TABLE_TRIS);
  wait_paints (1);
  t1 = g_get_monotonic_time ();
  c1 = bench_cpu_time ();
  g_print ("first switch to the triangle grid, until drawn: %.1f ms (CPU time %.1f ms)\n",
           (t1 - t0) / 1000.0, (c1 - c0) / 1000.0);
  wait_paints (2);
  scroller = GTK_SCROLLED_WINDOW (find_type (GTK_WIDGET (window->grids[3]),
                                             GTK_TYPE_SCROLLED_WINDOW));
  adj = gtk_scrolled_window_get_vadjustment (scroller);
  t0 = g_get_monotonic_time ();
  c0 = bench_cpu_time ();
  pages = scroll_pages (adj);
  t1 = g_get_monotonic_time ();
  c1 = bench_cpu_time ();
  g_print ("scroll the triangle grid (%u rows) from the top, a page per frame: %u pages, "
           "%.2f s, %.1f ms per page (%.0f pages a second; CPU time %.1f ms per page)\n",
           mshed_model_get_n_rows (mshed_document_get_model (mshed_window_get_document (window)),
                                   MSHED_TABLE_TRIS),
           pages, (t1 - t0) / 1e6, pages ? (t1 - t0) / 1000.0 / pages : 0.0,
           t1 > t0 ? pages * 1e6 / (t1 - t0) : 0.0, pages ? (c1 - c0) / 1000.0 / pages : 0.0);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
