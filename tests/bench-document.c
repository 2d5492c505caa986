/* bench-document.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The document benchmark (not a test): a single-cell edit + undo + redo on the 200k-triangle
 * model (and on a small one, to show it does not depend on the model size), the one-time
 * cost of the first edit of a resource, recompute-all-bounds, save, and the memory the undo
 * history holds after 10,000 edits. One thread.
 *
 *   meson test --benchmark -C BUILDDIR -v      or      BUILDDIR/tests/bench-document [OPTION…]
 */
#include "config.h"

#include <glib/gstdio.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mshed-document.h"
#include "mshed-generator.h"
#include "mshed-model.h"

static int big_triangles = 200000;
static int n_edits = 10000;

static GOptionEntry entries[] = {
  { "big", 'b', 0, G_OPTION_ARG_INT, &big_triangles, "Triangles of the big model (200000)", "N" },
  { "edits", 'e', 0, G_OPTION_ARG_INT, &n_edits, "Edits for the timing and memory runs (10000)",
    "N" },
  { NULL }
};

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
percentile (GArray *samples,
            double  p)
{
  g_array_sort (samples, compare_double);
  return g_array_index (samples, double, (guint) (p * (samples->len - 1)));
}

static gsize
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();

  return mi.uordblks + mi.hblkhd;
}

static char *
write_model (const char *dir,
             const char *name,
             guint       triangles,
             guint64     seed)
{
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL;
  char *path = g_build_filename (dir, name, NULL);

  mshed_gen_params_init (&p, seed);
  p.n_triangles = triangles;
  p.n_nodes = 12;
  p.animated = TRUE;
  bytes = mshed_generate_model_bytes (&p);
  g_assert (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                 (gssize) g_bytes_get_size (bytes), NULL));
  return path;
}

/* edit + undo + redo of one cell, each on another row; returns the median in µs */
static void
time_cells (MshedDocument *doc,
            MshedTableId   table,
            const char    *field,
            guint          n_rows,
            guint          n,
            const char    *what)
{
  g_autoptr(GArray) samples = g_array_sized_new (FALSE, FALSE, sizeof (double), n);
  MshedModel *model = mshed_document_get_model (doc);

  for (guint i = 0; i < n; i++)
    {
      guint row = (i * 7919u) % n_rows;
      const MshedTableInfo *info = mshed_schema_get_table (table);
      const MshedField *f = mshed_schema_find_field (info, field);
      double v = mshed_field_read (f, mshed_model_get_record (model, table, row));
      double t0;

      v = f->type == MSHED_FIELD_F32 ? v + 0.25 : (v > 0 ? v - 1 : v + 1);
      t0 = now ();
      mshed_document_set_field (doc, table, row, field, v, NULL);
      mshed_document_undo (doc);
      mshed_document_redo (doc);
      g_array_append_val (samples, (double) { (now () - t0) * 1e6 });
    }
  printf ("  %-44s median %7.2f µs   p99 %7.2f µs   max %8.1f µs\n", what,
          percentile (samples, 0.5), percentile (samples, 0.99),
          percentile (samples, 1.0));
}

static void
bench_edits (const char *path,
             const char *label,
             guint       n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  MshedModel *model;
  double t0, t_first_uv, t_first_vertex, t_first_slot;
  guint n_vert, n_slots, n_idx, n_batches;

  t0 = now ();
  doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  model = mshed_document_get_model (doc);
  n_vert = mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS);
  n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  n_idx = mshed_model_get_n_rows (model, MSHED_TABLE_INDICES);
  n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  printf ("%s: %u vertices, %u indices, %u batches, %u slots; open + validate %.1f ms\n",
          label, n_vert, n_idx, n_batches, n_slots, (now () - t0) * 1e3);

  /* one-time costs: the first edit of a resource copies its payload once; the first vertex
   * edit also builds the reverse geometry index used to mark stale rows */
  t0 = now ();
  mshed_document_set_field (doc, MSHED_TABLE_UVS, 1, "u", 7, NULL);
  t_first_uv = now () - t0;
  t0 = now ();
  mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 1, "x", 7, NULL);
  t_first_vertex = now () - t0;
  t0 = now ();
  mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "unk30", 7, NULL);
  t_first_slot = now () - t0;
  printf ("  first edit of Res5 (payload copy, %u KiB)        %8.2f ms\n", n_vert * 4 / 1024,
          t_first_uv * 1e3);
  printf ("  first edit of Res3 (copy %u KiB + reverse index) %8.2f ms\n", n_vert * 12 / 1024,
          t_first_vertex * 1e3);
  printf ("  first edit of Res2 (copy)                        %8.2f ms\n", t_first_slot * 1e3);

  time_cells (doc, MSHED_TABLE_POSITIONS, "y", n_vert, n, "vertex y: edit + undo + redo");
  time_cells (doc, MSHED_TABLE_UVS, "v", n_vert, n, "uv v: edit + undo + redo");
  time_cells (doc, MSHED_TABLE_SLOTS, "sphereR", n_slots, n / 10,
              "slot sphereR (local re-check)");
  time_cells (doc, MSHED_TABLE_BATCHES, "materialIndex", n_batches, n / 10,
              "batch materialIndex (local re-check)");
  time_cells (doc, MSHED_TABLE_INDICES, "index", n_idx, n / 10,
              "index (topology marks, local re-check)");
  t0 = now ();
  mshed_document_revalidate (doc);
  printf ("  full re-validation (for comparison)              %8.2f ms\n",
          (now () - t0) * 1e3);
}

static void
bench_big (const char *dir,
           const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  g_autofree char *out = g_build_filename (dir, "saved.msh", NULL);
  g_autofree char *bak = g_strconcat (out, ".bak", NULL);
  MshedModel *model;
  gsize heap0, heap1, hist;
  guint n_vert;
  double t0;

  g_assert_no_error (error);
  model = mshed_document_get_model (doc);
  n_vert = mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS);

  mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x", 5, NULL);
  t0 = now ();
  g_assert (mshed_document_recompute (doc, MSHED_DERIVED_BOUNDS, NULL, 0, NULL));
  printf ("  recompute all bounds (slots + posed header)      %8.2f ms\n", (now () - t0) * 1e3);
  t0 = now ();
  mshed_document_undo (doc);
  printf ("  ... and its undo                                 %8.2f ms\n", (now () - t0) * 1e3);
  t0 = now ();
  g_assert (mshed_document_recompute (doc, MSHED_DERIVED_RECOMPUTABLE &
                                      ~MSHED_DERIVED_VERTEX_NORMALS, NULL, 0, NULL));
  printf ("  recompute everything, every row (bounds, descriptors, attrs, map) %6.2f ms\n",
          (now () - t0) * 1e3);
  t0 = now ();
  mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 1, "y", 3, NULL);
  g_assert (mshed_document_recompute_stale_all (doc, MSHED_DERIVED_RECOMPUTABLE, NULL));
  printf ("  one vertex moved, then every stale entry recomputed %8.2f ms\n",
          (now () - t0) * 1e3);

  t0 = now ();
  {
    g_autoptr(GBytes) bytes = mshed_document_serialize_file (doc);

    printf ("  serialize (%" G_GSIZE_FORMAT " KiB)                             %8.2f ms\n",
            g_bytes_get_size (bytes) / 1024, (now () - t0) * 1e3);
  }
  t0 = now ();
  g_assert (mshed_document_save_as (doc, out, MSHED_SAVE_NO_BACKUP, &error));
  printf ("  save (strict check + temp + fsync + rename)      %8.2f ms\n", (now () - t0) * 1e3);
  g_unlink (out);
  g_unlink (bak);

  /* the undo history after n edits of distinct cells */
  mshed_document_clear_history (doc);
  mshed_document_set_max_undo (doc, 0);
  heap0 = heap_in_use ();
  t0 = now ();
  for (int i = 0; i < n_edits; i++)
    mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, (guint) ((i * 7919u) % n_vert), "z",
                              (double) i, NULL);
  heap1 = heap_in_use ();
  hist = mshed_document_get_history_size (doc);
  printf ("  %d vertex edits: %.1f ms; history %" G_GSIZE_FORMAT " KiB (%.0f bytes/edit, "
          "counted), heap +%" G_GSIZE_FORMAT " KiB (%.0f bytes/edit, incl. stale marks)\n",
          n_edits, (now () - t0) * 1e3, hist / 1024, (double) hist / n_edits,
          (heap1 - heap0) / 1024, (double) (heap1 - heap0) / n_edits);
  t0 = now ();
  while (mshed_document_undo (doc))
    ;
  printf ("  undo all %d: %.1f ms\n", n_edits, (now () - t0) * 1e3);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *big = NULL;
  g_autofree char *small = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  dir = g_dir_make_tmp ("mshed-bench-XXXXXX", NULL);
  big = write_model (dir, "big.msh", (guint) big_triangles, 7);
  small = write_model (dir, "small.msh", 2000, 7);

  bench_edits (small, "small model (2000 triangles)", (guint) n_edits);
  bench_edits (big, "big model", (guint) n_edits);
  bench_big (dir, big);

  g_unlink (big);
  g_unlink (small);
  g_rmdir (dir);
  return 0;
}
