/* bench-diff.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The diff benchmark (not a test): two 200,000-triangle generated models, identical, and
 * differing in one vertex (docs/diff.md §8). Each timing is the whole mshed_diff_models call
 * on models already in memory. One thread.
 *
 * Then the compare window's ghost colours (mshed-diff-marks.h) of the same pairs, and of the
 * worst case (every vertex moved, so every drawn triangle goes through the position hash):
 * each timing is what the preview does after a change, mshed_diff_marks_new on the two render
 * scenes plus the vertex marks of both sides.
 *
 *   meson test --benchmark -C BUILDDIR -v bench-diff   or
 *   BUILDDIR/tests/bench-diff [--triangles N] [--runs N]
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mshed-diff-marks.h"
#include "mshed-diff.h"
#include "mshed-generator.h"

static int n_triangles = 200000;
static int n_runs = 30;

static GOptionEntry entries[] = {
  { "triangles", 't', 0, G_OPTION_ARG_INT, &n_triangles, "Triangles (200000)", "N" },
  { "runs", 'r', 0, G_OPTION_ARG_INT, &n_runs, "Runs per timing (30)", "N" },
  { NULL }
};

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
time_diff (MshedModel *a,
           MshedModel *b,
           guint       expect_items,
           const char *what)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));

  for (int r = 0; r < n_runs; r++)
    {
      double t0 = now (), ms;
      g_autoptr(MshedDiff) d = mshed_diff_models (a, b, NULL);

      ms = (now () - t0) * 1000;
      g_array_append_val (samples, ms);
      if (mshed_diff_get_n_items (d) != expect_items)
        g_error ("%s: %u differences, expected %u", what, mshed_diff_get_n_items (d),
                 expect_items);
    }
  g_array_sort (samples, compare_double);
  printf ("  %-40s median %8.3f ms   p90 %8.3f ms   max %8.3f ms\n", what,
          g_array_index (samples, double, samples->len / 2),
          g_array_index (samples, double, samples->len * 9 / 10),
          g_array_index (samples, double, samples->len - 1));
}

static void
time_marks (MshedModel *a,
            MshedModel *b,
            double      tolerance,
            guint       expect_changed,   /* G_MAXUINT: every drawn triangle */
            const char *what)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  MshedRenderScene *scenes[2] = { mshed_render_scene_new (a), mshed_render_scene_new (b) };
  guint drawn = 0;

  for (int r = 0; r < n_runs; r++)
    {
      double t0 = now (), c0 = cpu_now (), ms;
      g_autoptr(MshedDiffMarks) marks = mshed_diff_marks_new (scenes[0], scenes[1], tolerance);

      for (guint s = 0; s < 2; s++)
        {
          guint n = 0;

          g_free (mshed_diff_marks_dup_vertex_marks (marks, s, scenes[s], &n));
        }
      ms = (now () - t0) * 1000;
      g_array_append_val (samples, ms);
      ms = (cpu_now () - c0) * 1000;
      g_array_append_val (cpu, ms);
      drawn = marks->sides[1].counts[0] + marks->sides[1].counts[1] + marks->sides[1].counts[2];
      if (marks->sides[1].counts[MSHED_DIFF_MARK_CHANGED] !=
          (expect_changed == G_MAXUINT ? drawn : expect_changed))
        g_error ("%s: %u triangles moved, expected %u", what,
                 marks->sides[1].counts[MSHED_DIFF_MARK_CHANGED], expect_changed);
    }
  g_array_sort (samples, compare_double);
  g_array_sort (cpu, compare_double);
  /* the CPU time too: on a shared machine the wall clock waits for the CPU */
  printf ("  %-40s median %8.3f ms   p90 %8.3f ms   max %8.3f ms   CPU median %8.3f ms\n",
          what, g_array_index (samples, double, samples->len / 2),
          g_array_index (samples, double, samples->len * 9 / 10),
          g_array_index (samples, double, samples->len - 1),
          g_array_index (cpu, double, cpu->len / 2));
  mshed_render_scene_free (scenes[0]);
  mshed_render_scene_free (scenes[1]);
}

/* A copy of @bytes with every Res3 position moved by @dx along x. */
static MshedModel *
moved_all (GBytes *bytes,
           float   dx)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
  g_autoptr(GBytes) out = NULL;
  gint res3 = mshed_nres_find_type (nres, 3);
  gsize size = mshed_nres_entry_get_size (mshed_nres_peek_entry (nres, (guint) res3));
  guint8 *data = mshed_nres_entry_make_mutable (nres, (guint) res3);

  for (gsize v = 0; v + 12 <= size; v += 12)
    {
      float x;

      memcpy (&x, data + v, 4);
      x += dx;
      memcpy (data + v, &x, 4);
    }
  out = mshed_nres_serialize (nres, NULL);
  return mshed_model_new_from_bytes (out, MSHED_MODE_TOLERANT, NULL, NULL);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- diff benchmark");
  g_autoptr(GError) error = NULL;
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL, copy = NULL, edited = NULL;
  g_autoptr(MshedModel) a = NULL, b = NULL, c = NULL;
  g_autoptr(MshedNres) nres = NULL;
  guint8 *data;
  gint res3;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  mshed_gen_params_init (&p, 2026);
  p.n_triangles = (guint) n_triangles;
  p.animated = TRUE;
  bytes = mshed_generate_model_bytes (&p);
  copy = g_bytes_new (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  a = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
  b = mshed_model_new_from_bytes (copy, MSHED_MODE_TOLERANT, NULL, NULL);
  /* the third model: vertex 1000 moved by 1 along x */
  nres = mshed_nres_parse (copy, MSHED_MODE_TOLERANT, NULL, NULL);
  res3 = mshed_nres_find_type (nres, 3);
  data = mshed_nres_entry_make_mutable (nres, (guint) res3);
  {
    float x;

    memcpy (&x, data + 12 * 1000, 4);
    x += 1;
    memcpy (data + 12 * 1000, &x, 4);
  }
  edited = mshed_nres_serialize (nres, NULL);
  c = mshed_model_new_from_bytes (edited, MSHED_MODE_TOLERANT, NULL, NULL);
  g_assert (a && b && c);
  printf ("diff of two %d-triangle models (%.1f MiB each), %d runs:\n", n_triangles,
          g_bytes_get_size (bytes) / 1048576.0, n_runs);
  time_diff (a, b, 0, "identical");
  time_diff (a, c, 2, "one vertex moved");  /* the geometry summary and the field */

  {
    g_autoptr(MshedModel) d = moved_all (bytes, 1.0f / 256);
    MshedRenderScene *scene = mshed_render_scene_new (c);
    const MshedDrawItem *items;
    guint n_items = 0, n_elements = 0, uses = 0, drawn = 0;
    const guint32 *elements = mshed_render_scene_get_elements (scene, &n_elements);

    /* the triangles drawn (LOD 0, group 0) that use vertex 1000 */
    items = mshed_render_scene_get_items (scene, &n_items);
    for (guint i = 0; i < n_items; i++)
      for (guint e = items[i].elem_first; e < items[i].elem_first + items[i].elem_count; e += 3)
        {
          uses += elements[e] == 1000 || elements[e + 1] == 1000 || elements[e + 2] == 1000;
          drawn++;
        }
    mshed_render_scene_free (scene);
    printf ("ghost colours of the same pairs (both scenes at LOD 0, group 0: %u triangles "
            "drawn), %d runs:\n", drawn, n_runs);
    time_marks (a, b, 0, 0, "identical");
    time_marks (a, c, 0, uses, "one vertex moved");
    time_marks (a, d, 0, G_MAXUINT, "every vertex moved (worst case)");
    time_marks (a, d, 0.01, 0, "every vertex moved, tolerance 0.01");
  }
  return 0;
}
