/* bench-hex-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How long the hex view takes to draw a screenful of a 10 MB model file, to jump to its end,
 * and to scroll (one painted frame per step). Run under Xvfb:
 *   xvfb-run -a -s '-screen 0 1280x800x24' meson test --benchmark -C BUILDDIR bench-hex-view -v
 */
#include "config.h"

#include <string.h>

#include "hex-test-util.h"
#include "mshed-hex-view.h"
#include "mshed-nres.h"

static guint n_paints;

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  n_paints++;
}

/* Waits for the next painted frame; returns the time it took in ms. */
static double
wait_frame (gint64 since)
{
  guint before = n_paints;
  gint64 deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  while (n_paints == before && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (100);
  return (g_get_monotonic_time () - since) / 1000.0;
}

static double
snapshot_ms (GtkWidget  *view,
             double     *render_ms)
{
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  int w = gtk_widget_get_width (view), h = gtk_widget_get_height (view);
  gint64 t0, t1;

  /* the widget's own snapshot function: exactly the work of one redraw of the view */
  t0 = g_get_monotonic_time ();
  GTK_WIDGET_GET_CLASS (view)->snapshot (view, snapshot);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert (node != NULL);
  t1 = g_get_monotonic_time ();
  if (render_ms)
    {
      GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (view));
      gint64 t2 = g_get_monotonic_time ();

      texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
      *render_ms = (g_get_monotonic_time () - t2) / 1000.0;
    }
  return (t1 - t0) / 1000.0;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
report (const char *what,
        GArray     *times)
{
  double sum = 0;

  g_array_sort (times, compare_double);
  for (guint i = 0; i < times->len; i++)
    sum += g_array_index (times, double, i);
  g_print ("  %-42s mean %7.2f ms   median %7.2f   p95 %7.2f   max %7.2f   (n=%u)\n", what,
           sum / times->len, g_array_index (times, double, times->len / 2),
           g_array_index (times, double, (guint) (times->len * 0.95)),
           g_array_index (times, double, times->len - 1), times->len);
}

int
main (int   argc,
      char *argv[])
{
  MshedGenParams params;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(GBytes) big = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) snap = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) render = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  MshedModel *model;
  MshedDocument *doc;
  GtkWidget *view, *window;
  GdkFrameClock *clock;
  guint8 *filler;
  gsize size, ws, we;
  gint res9;
  gint64 t0;
  GtkAdjustment *adj = NULL;
  guint32 state = 12345;

  if (!widget_test_init (&argc, &argv))
    {
      g_print ("bench-hex-view: no display, skipped (run under xvfb-run)\n");
      return 77;
    }

  /* the largest generated model plus a 5 MB opaque Res9: about 10 MB */
  t0 = g_get_monotonic_time ();
  mshed_gen_params_init (&params, 99);
  params.n_triangles = MSHED_GEN_MAX_TRIANGLES;
  params.n_nodes = 32;
  params.with_res18_20 = TRUE;
  nres = mshed_generate_model (&params);
  res9 = mshed_nres_find_type (nres, 9);
  g_assert (res9 >= 0);
  filler = g_malloc (5 * 1024 * 1024);
  for (gsize i = 0; i < 5 * 1024 * 1024; i++)
    {
      state = state * 1664525u + 1013904223u;
      filler[i] = (guint8) (state >> 24);
    }
  big = g_bytes_new_take (filler, 5 * 1024 * 1024);
  mshed_nres_set_payload (nres, (guint) res9, big);
  file = mshed_nres_serialize (nres, NULL);
  model = mshed_model_new_from_bytes (file, MSHED_MODE_TOLERANT, NULL, &error);
  g_assert_no_error (error);
  doc = mshed_document_new_for_model (model, MSHED_MODE_TOLERANT);
  mshed_model_unref (model);
  g_print ("bench-hex-view: model file of %.1f MB built in %.0f ms\n",
           g_bytes_get_size (file) / 1048576.0, (g_get_monotonic_time () - t0) / 1000.0);

  view = mshed_hex_view_new ();
  mshed_hex_view_set_document (MSHED_HEX_VIEW (view), doc);
  window = widget_test_window (view, 1100, 800);
  clock = gtk_widget_get_frame_clock (window);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);

  mshed_hex_view_show_resource (MSHED_HEX_VIEW (view), 0);
  t0 = g_get_monotonic_time ();
  mshed_hex_view_show_resource (MSHED_HEX_VIEW (view), MSHED_HEX_SOURCE_FILE);
  mshed_hex_model_get_window (mshed_hex_view_get_model (MSHED_HEX_VIEW (view)), &ws, &we);
  size = we;
  g_print ("  showing the whole file (%" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT
           " lines): %.2f ms\n", size, (size + 15) / 16,
           (g_get_monotonic_time () - t0) / 1000.0);
  gtk_widget_queue_draw (view);
  wait_frame (g_get_monotonic_time ());

  /* a screenful at random places: building the render nodes, then rasterizing them */
  for (guint i = 0; i < 60; i++)
    {
      double r = 0;

      state = state * 1664525u + 1013904223u;
      mshed_hex_view_goto_offset (MSHED_HEX_VIEW (view), (gsize) (state % size));
      wait_frame (g_get_monotonic_time ());  /* layout first, as a real frame does */
      {
        double s = snapshot_ms (view, i % 3 == 0 ? &r : NULL);

        g_array_append_val (snap, s);
        if (i % 3 == 0)
          g_array_append_val (render, r);
      }
    }
  {
    gsize vs, ve;

    mshed_hex_view_get_visible_range (MSHED_HEX_VIEW (view), &vs, &ve);
    g_print ("  a screenful is %" G_GSIZE_FORMAT " bytes (%" G_GSIZE_FORMAT " lines)\n",
             ve - vs, (ve - vs) / 16);
  }
  report ("draw a screenful (snapshot, CPU)", snap);
  report ("rasterize it (GSK renderer, llvmpipe)", render);

  /* jump to the end: API call until the frame is on screen */
  g_array_set_size (frames, 0);
  for (guint i = 0; i < 10; i++)
    {
      double ms;

      mshed_hex_view_goto_offset (MSHED_HEX_VIEW (view), 0);
      gtk_widget_queue_draw (view);
      wait_frame (g_get_monotonic_time ());
      t0 = g_get_monotonic_time ();
      mshed_hex_view_goto_offset (MSHED_HEX_VIEW (view), size - 1);
      ms = wait_frame (t0);
      g_array_append_val (frames, ms);
    }
  {
    gsize vs, ve;

    mshed_hex_view_get_visible_range (MSHED_HEX_VIEW (view), &vs, &ve);
    g_assert (ve == size);
  }
  report ("jump to the end (until painted)", frames);

  /* scrolling: three lines per step, one painted frame each */
  g_array_set_size (frames, 0);
  mshed_hex_view_goto_offset (MSHED_HEX_VIEW (view), size / 2);
  gtk_widget_queue_draw (view);
  wait_frame (g_get_monotonic_time ());
  for (GtkWidget *c = gtk_widget_get_first_child (view); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_SCROLLBAR (c))
      adj = gtk_scrollbar_get_adjustment (GTK_SCROLLBAR (c));
  g_assert (adj != NULL);
  for (guint i = 0; i < 120; i++)
    {
      double ms;

      t0 = g_get_monotonic_time ();
      gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) +
                                3 * gtk_adjustment_get_step_increment (adj));
      ms = wait_frame (t0);
      g_array_append_val (frames, ms);
    }
  report ("scroll 3 lines (until painted)", frames);

  /* an edit while the whole file is shown: the file is serialized again for the view */
  g_array_set_size (frames, 0);
  for (guint i = 0; i < 10; i++)
    {
      guint8 b = (guint8) i;
      g_autoptr(GBytes) one = g_bytes_new (&b, 1);
      gsize target = size / 3 + i;
      double ms;

      mshed_hex_view_goto_offset (MSHED_HEX_VIEW (view), target);
      gtk_widget_queue_draw (view);
      wait_frame (g_get_monotonic_time ());
      t0 = g_get_monotonic_time ();
      if (!mshed_hex_view_replace_bytes (MSHED_HEX_VIEW (view), target, 1, one, &error))
        g_error ("edit failed: %s", error->message);
      ms = wait_frame (t0);
      g_array_append_val (frames, ms);
    }
  report ("edit one byte, whole file shown (painted)", frames);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (doc);
  return 0;
}
