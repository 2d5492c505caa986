/* bench-model.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model core benchmark (not a test): open + strict validation throughput over a
 * generated corpus of files, whether reading or mapping a file of a given size is faster, time
 * and memory to open the 200k-triangle model, and round-trip time. One thread.
 *
 *   meson test --benchmark -C BUILDDIR -v      or      BUILDDIR/tests/bench-model [OPTION…]
 */
#include "config.h"

#include <glib/gstdio.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "mshed-diagnostic.h"
#include "mshed-generator.h"
#include "mshed-document.h"
#include "mshed-gltf-import.h"
#include "mshed-gltf.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-source.h"
#include "mshed-validate.h"

static int   n_models = 400;
static int   n_passes = 7;
static int   big_triangles = 200000;
static char *keep_dir = NULL;
static char *child_open = NULL;

static GOptionEntry entries[] = {
  { "models", 'm', 0, G_OPTION_ARG_INT, &n_models, "Corpus size (default 400)", "N" },
  { "passes", 'p', 0, G_OPTION_ARG_INT, &n_passes, "Timed passes over the corpus (default 7)",
    "N" },
  { "big", 'b', 0, G_OPTION_ARG_INT, &big_triangles, "Triangles of the big model (200000)",
    "N" },
  { "dir", 'd', 0, G_OPTION_ARG_FILENAME, &keep_dir,
    "Write the corpus to DIR and keep it (default: a temporary directory, removed)", "DIR" },
  { "child-open", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &child_open, NULL, NULL },
  { NULL }
};

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* kB from /proc/self/status, -1 when unknown */
static gint64
proc_status_kb (const char *key)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return -1;
  line = strstr (text, key);
  if (line == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen (key) + 1, NULL, 10);
}

static gsize
heap_in_use (void)
{
  struct mallinfo2 info = mallinfo2 ();

  return info.uordblks + info.hblkhd;
}

/* The child: opens one file as the app does and reports time and memory on stdout. Run in a
 * fresh process so the peak RSS is this open's peak, not the generator's. */
static int
run_child_open (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedSource) source = NULL;
  gint64 hwm_before = proc_status_kb ("VmHWM:");
  gint64 rss_before = proc_status_kb ("VmRSS:");
  gsize heap_before = heap_in_use ();
  double t0, t1;
  gint64 hwm_after, rss_after;
  gsize heap_after;

  t0 = now ();
  source = mshed_source_open (path, MSHED_MODE_STRICT, diags, &error);
  t1 = now ();
  if (source == NULL || diags->n_errors)
    {
      g_printerr ("cannot open %s strictly: %s\n", path, error ? error->message : "errors");
      return 1;
    }
  hwm_after = proc_status_kb ("VmHWM:");
  rss_after = proc_status_kb ("VmRSS:");
  heap_after = heap_in_use ();
  printf ("open_s=%.6f hwm_before_kb=%" G_GINT64_FORMAT " hwm_after_kb=%" G_GINT64_FORMAT
          " rss_before_kb=%" G_GINT64_FORMAT " rss_after_kb=%" G_GINT64_FORMAT
          " heap_kb=%.1f\n", t1 - t0, hwm_before, hwm_after, rss_before, rss_after,
          ((double) heap_after - (double) heap_before) / 1024.0);
  return 0;
}

typedef struct {
  GPtrArray *paths;
  guint64    bytes;
} Corpus;

static void
write_or_die (const char *path,
              GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                            (gssize) g_bytes_get_size (bytes), &error))
    g_error ("%s", error->message);
}

/* Every resource marked changed, then written: the writer really encodes every byte. */
static GBytes *
reencode (MshedNres *nres)
{
  for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
    mshed_nres_touch (nres, i);
  return mshed_nres_serialize (nres, NULL);
}

/* One pass: load (mshed_load_file), parse the container, build the model (which validates
 * strictly). */
static gboolean
open_validate_all (const Corpus *corpus,
                   guint        *n_findings)
{
  *n_findings = 0;
  for (guint i = 0; i < corpus->paths->len; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(GBytes) bytes = mshed_load_file (g_ptr_array_index (corpus->paths, i), &error);
      g_autoptr(MshedNres) nres = NULL;
      g_autoptr(MshedModel) model = NULL;

      if (bytes)
        nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, diags, &error);
      if (nres)
        model = mshed_model_new (nres, MSHED_MODE_STRICT, diags, &error);
      if (model == NULL)
        {
          g_printerr ("%s: %s\n", (char *) g_ptr_array_index (corpus->paths, i),
                      error ? error->message : "?");
          return FALSE;
        }
      *n_findings += diags->n_errors + diags->n_warnings;
    }
  return TRUE;
}

/* Parses @bytes and builds the model strictly; FALSE when that fails. */
static gboolean
parse_validate (GBytes *bytes)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_autoptr(MshedModel) model = NULL;

  if (nres != NULL)
    model = mshed_model_new (nres, MSHED_MODE_STRICT, NULL, NULL);
  return model != NULL;
}

/* Read or map: for models of growing size, the time per file to open it, bring its bytes in
 * either way and validate it (the files are in the page cache, as in a folder validated
 * twice). This is where MSHED_READ_LIMIT comes from. */
static gboolean
measure_read_or_map (const char *dir)
{
  static const guint triangles[] = { 400, 1500, 3000, 4200, 5500, 7000, 10000, 20000, 60000 };

  printf ("read or map (open + parse + strict validate per file, best of 5 passes):\n"
          "     size  files     read      map  faster\n");
  for (guint t = 0; t < G_N_ELEMENTS (triangles); t++)
    {
      g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GBytes) bytes = NULL;
      MshedGenParams params;
      double best[2] = { G_MAXDOUBLE, G_MAXDOUBLE };
      gsize size;
      guint n;

      mshed_gen_params_init (&params, 31 + t);
      params.n_triangles = triangles[t];
      bytes = mshed_generate_model_bytes (&params);
      size = g_bytes_get_size (bytes);
      n = (guint) CLAMP (16e6 / size, 8, 400);
      for (guint i = 0; i < n; i++)
        {
          char *path = g_strdup_printf ("%s/sweep-%u-%03u.msh", dir, t, i);

          write_or_die (path, bytes);
          g_ptr_array_add (paths, path);
        }
      for (int pass = 0; pass < 6; pass++)
        for (int way = 0; way < 2; way++)
          {
            double t0 = now ();

            for (guint i = 0; i < n; i++)
              {
                const char *path = g_ptr_array_index (paths, i);
                g_autoptr(GBytes) loaded = NULL;
                g_autoptr(GMappedFile) mapped = NULL;
                char *data = NULL;
                gsize len = 0;

                if (way == 0 && g_file_get_contents (path, &data, &len, NULL))
                  loaded = g_bytes_new_take (data, len);
                else if (way == 1 && (mapped = g_mapped_file_new (path, FALSE, NULL)))
                  loaded = g_mapped_file_get_bytes (mapped);
                if (loaded == NULL || !parse_validate (loaded))
                  {
                    g_printerr ("%s does not load and validate\n", path);
                    return FALSE;
                  }
              }
            if (pass > 0)  /* the first pass warms the page cache */
              best[way] = MIN (best[way], now () - t0);
          }
      printf ("  %4zu KiB  %5u  %5.1f us  %5.1f us  %s\n", size / 1024, n, best[0] * 1e6 / n,
              best[1] * 1e6 / n, best[0] <= best[1] ? "read" : "map");
      for (guint i = 0; i < n; i++)
        g_unlink (g_ptr_array_index (paths, i));
    }
  printf ("  (mshed_load_file reads files up to %d KiB and maps larger ones)\n",
          MSHED_READ_LIMIT / 1024);
  return TRUE;
}

static double
median (GArray *times)
{
  g_array_sort (times, compare_double);
  return g_array_index (times, double, times->len / 2);
}

/* glTF import (mshed-cli import without the file I/O) of the big model's own export: read the
 * glTF, import it into a fresh document and serialise; unchanged (no edit), and with every
 * vertex moved (one edit per Res3 row, then the recompute). Best of 3. */
static void
bench_import (MshedModel *model,
              GBytes     *msh)
{
  printf ("glTF import (mshed_gltf_read + mshed_gltf_import_into + serialise, %d-triangle "
          "model, best of 3):\n", big_triangles);
  for (int moved = 0; moved <= 1; moved++)
    for (int format = MSHED_GLTF_BINARY; format <= MSHED_GLTF_TEXT; format++)
      {
        MshedGltfOptions options;
        g_autoptr(GBytes) gltf_bytes = NULL;
        double best = G_MAXDOUBLE;
        guint changed = 0;

        mshed_gltf_options_init (&options);
        options.format = format;
        gltf_bytes = mshed_gltf_export (model, &options, NULL, NULL, NULL);
        for (int run = 0; run < 3; run++)
          {
            g_autoptr(GError) error = NULL;
            g_autoptr(MshedModel) copy = mshed_model_new_from_bytes (msh, MSHED_MODE_STRICT,
                                                                     NULL, &error);
            g_autoptr(MshedDocument) doc = mshed_document_new_for_model (copy,
                                                                         MSHED_MODE_STRICT);
            g_autoptr(MshedGltf) gltf = NULL;
            g_autoptr(GBytes) out = NULL;
            MshedGltfImportStats stats;
            double t = now ();

            gltf = mshed_gltf_read (gltf_bytes, NULL, &error);
            if (gltf == NULL)
              g_error ("%s", error->message);
            for (guint m = 0; moved && m < gltf->n_meshes; m++)
              for (guint p = 0; p < gltf->meshes[m].n_primitives; p++)
                for (guint v = 0; v < gltf->meshes[m].primitives[p].n_vertices; v++)
                  gltf->meshes[m].primitives[p].positions[3 * v] += 0.125f;
            if (!mshed_gltf_import_into (doc, gltf, NULL, &stats, &error))
              g_error ("%s", error->message);
            out = mshed_document_serialize (doc);
            t = now () - t;
            best = MIN (best, t);
            changed = stats.positions;
            if (!moved && !g_bytes_equal (out, msh))
              g_error ("the unchanged import is not byte-identical");
          }
        printf ("  %s, %s: %.1f ms (%u positions changed)\n",
                format == MSHED_GLTF_BINARY ? ".glb" : ".gltf",
                moved ? "every vertex moved" : "unchanged", best * 1e3, changed);
      }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- mshed model benchmark");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) t_open = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) t_parse = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) t_validate = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) t_read = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GPtrArray) mapped = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) models = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_model_unref);
  g_autofree char *dir = NULL;
  g_autofree char *big_path = NULL;
  g_autofree char *exe = NULL;
  g_autofree char *child_out = NULL;
  Corpus corpus = { g_ptr_array_new_with_free_func (g_free), 0 };
  double t0, gen_s, mb;
  guint n_findings = 0, n_animated = 0, n_legacy = 0;
  guint64 total_tris = 0;
  volatile guint64 sink = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (child_open)
    return run_child_open (child_open);
  n_models = CLAMP (n_models, 1, 100000);
  n_passes = CLAMP (n_passes, 1, 1000);
  big_triangles = CLAMP (big_triangles, 12, (int) MSHED_GEN_MAX_TRIANGLES);

  if (keep_dir)
    {
      dir = g_strdup (keep_dir);
      g_mkdir_with_parents (dir, 0755);
    }
  else if ((dir = g_dir_make_tmp ("mshed-bench-XXXXXX", &error)) == NULL)
    g_error ("%s", error->message);

  printf ("mshed model benchmark: one thread, %s build; MB = 10^6 bytes\n",
#ifdef __OPTIMIZE__
          "optimized"
#else
          "unoptimized (numbers are not meaningful)"
#endif
          );

  /* The corpus: shapes drawn from the seed with the retail corpus' proportions. */
  t0 = now ();
  for (int i = 0; i < n_models; i++)
    {
      MshedGenParams params;
      g_autoptr(GBytes) bytes = NULL;
      char *path = g_strdup_printf ("%s/model-%04d.msh", dir, i);

      mshed_gen_params_init_from_seed (&params, 1000 + (guint64) i);
      bytes = mshed_generate_model_bytes (&params);
      write_or_die (path, bytes);
      corpus.bytes += g_bytes_get_size (bytes);
      total_tris += params.n_triangles;
      n_animated += params.animated && !params.legacy_nodes;
      n_legacy += params.legacy_nodes;
      g_ptr_array_add (corpus.paths, path);
    }
  {
    MshedGenParams params;
    g_autoptr(GBytes) bytes = NULL;

    mshed_gen_params_init (&params, 200000);
    params.n_triangles = (guint) big_triangles;
    params.n_nodes = 38;
    params.animated = TRUE;
    params.cyrillic_names = TRUE;
    bytes = mshed_generate_model_bytes (&params);
    big_path = g_strdup_printf ("%s/big.msh", dir);
    write_or_die (big_path, bytes);
  }
  gen_s = now () - t0;
  mb = corpus.bytes / 1e6;
  printf ("corpus: %d models (%u animated, %u legacy), %" G_GUINT64_FORMAT
          " triangles, %.1f MB; generated and written in %.2f s\n",
          n_models, n_animated, n_legacy, total_tris, mb, gen_s);

  /* Warm-up: page cache and the allocator. */
  if (!open_validate_all (&corpus, &n_findings))
    return 1;
  if (n_findings)
    {
      g_printerr ("the generated corpus has %u findings; the generator or validator is wrong\n",
                  n_findings);
      return 1;
    }

  /* open + strict validate */
  for (int p = 0; p < n_passes; p++)
    {
      double t = now ();

      if (!open_validate_all (&corpus, &n_findings))
        return 1;
      t = now () - t;
      g_array_append_val (t_open, t);
    }

  /* Breakdown: container parse only; model validation only (models already open); a plain
   * read of the same mapped bytes as the memory-bandwidth reference. */
  for (guint i = 0; i < corpus.paths->len; i++)
    {
      g_autoptr(GBytes) bytes = mshed_load_file (g_ptr_array_index (corpus.paths, i), NULL);
      g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);

      g_ptr_array_add (mapped, g_bytes_ref (bytes));
      g_ptr_array_add (models, mshed_model_new (nres, MSHED_MODE_TOLERANT, NULL, NULL));
    }
  for (int p = 0; p < n_passes; p++)
    {
      double t = now ();

      for (guint i = 0; i < mapped->len; i++)
        {
          g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
          g_autoptr(MshedNres) nres = mshed_nres_parse (g_ptr_array_index (mapped, i),
                                                        MSHED_MODE_STRICT, diags, NULL);
          sink += nres != NULL;
        }
      t = now () - t;
      g_array_append_val (t_parse, t);

      t = now ();
      for (guint i = 0; i < models->len; i++)
        {
          g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();

          sink += mshed_validate_model (g_ptr_array_index (models, i), MSHED_MODE_STRICT, diags);
        }
      t = now () - t;
      g_array_append_val (t_validate, t);

      t = now ();
      for (guint i = 0; i < mapped->len; i++)
        {
          gsize size = 0;
          const guint64 *words = g_bytes_get_data (g_ptr_array_index (mapped, i), &size);
          guint64 acc = 0;

          for (gsize w = 0; w < size / 8; w++)
            acc += words[w];
          sink += acc;
        }
      t = now () - t;
      g_array_append_val (t_read, t);
    }

  {
    double best_open, best_parse, best_validate, best_read;

    g_array_sort (t_open, compare_double);
    g_array_sort (t_parse, compare_double);
    g_array_sort (t_validate, compare_double);
    g_array_sort (t_read, compare_double);
    best_open = g_array_index (t_open, double, 0);
    best_parse = g_array_index (t_parse, double, 0);
    best_validate = g_array_index (t_validate, double, 0);
    best_read = g_array_index (t_read, double, 0);
    printf ("open (read or map) + strict validate: %.0f MB/s (best of %d passes, %.1f ms; "
            "median %.0f MB/s)\n", mb / best_open, n_passes, best_open * 1e3,
            mb / median (t_open));
    printf ("  container parse only:               %.0f MB/s (%.1f ms)\n", mb / best_parse,
            best_parse * 1e3);
    printf ("  model validation only (open models): %.0f MB/s (%.1f ms)\n", mb / best_validate,
            best_validate * 1e3);
    printf ("  reference, summing the same bytes:  %.0f MB/s (%.1f ms)\n", mb / best_read,
            best_read * 1e3);
    printf ("  per model: %.1f us open + validate\n", best_open * 1e6 / n_models);
  }
  g_ptr_array_set_size (models, 0);
  g_ptr_array_set_size (mapped, 0);

  if (!measure_read_or_map (dir))
    return 1;

  /* The big model, opened in a fresh process so that its peak memory is its own. */
  exe = g_file_read_link ("/proc/self/exe", NULL);
  {
    const char *child_argv[] = { exe ? exe : argv[0], "--child-open", big_path, NULL };
    g_autofree char *child_err = NULL;
    gint64 hwm_before = 0, hwm_after = 0, rss_before = 0, rss_after = 0;
    double open_s = 0, heap_kb = 0, best = G_MAXDOUBLE;
    int wait_status = 0;
    GStatBuf st = { 0 };
    gsize big_size;

    g_stat (big_path, &st);
    big_size = (gsize) st.st_size;
    for (int run = 0; run < 3; run++)
      {
        g_clear_pointer (&child_out, g_free);
        g_clear_pointer (&child_err, g_free);
        if (!g_spawn_sync (NULL, (char **) child_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                           &child_out, &child_err, &wait_status, &error) ||
            !WIFEXITED (wait_status) || WEXITSTATUS (wait_status) != 0 ||
            sscanf (child_out, "open_s=%lf hwm_before_kb=%" G_GINT64_FORMAT " hwm_after_kb=%"
                    G_GINT64_FORMAT " rss_before_kb=%" G_GINT64_FORMAT " rss_after_kb=%"
                    G_GINT64_FORMAT " heap_kb=%lf", &open_s, &hwm_before, &hwm_after,
                    &rss_before, &rss_after, &heap_kb) != 6)
          {
            g_printerr ("the open measurement failed: %s%s\n", error ? error->message : "",
                        child_err ? child_err : "");
            return 1;
          }
        best = MIN (best, open_s);
      }
    printf ("%d-triangle model (%.1f MB): open + strict validate %.1f ms (best of 3, fresh "
            "process; %.0f MB/s)\n", big_triangles, big_size / 1e6, best * 1e3,
            big_size / 1e6 / best);
    printf ("  peak RSS %+.1f MB (%.1f -> %.1f MB; mapped file pages, shared with the page "
            "cache), heap %+.1f KB (copies and decoded state)\n",
            (hwm_after - hwm_before) / 1024.0, hwm_before / 1024.0, hwm_after / 1024.0,
            heap_kb);
  }

  /* Round trip: decode, mark every resource changed, write, compare. */
  {
    g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
    gsize big_size = 0;
    double corpus_s;

    for (int run = 0; run < 5; run++)
      {
        g_autoptr(GBytes) bytes = mshed_load_file (big_path, &error);
        g_autoptr(MshedNres) nres = NULL;
        g_autoptr(MshedModel) model = NULL;
        g_autoptr(GBytes) out = NULL;
        double t = now ();

        nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, &error);
        model = nres ? mshed_model_new (nres, MSHED_MODE_STRICT, NULL, &error) : NULL;
        if (model == NULL)
          g_error ("%s", error->message);
        out = reencode (nres);
        if (!g_bytes_equal (out, bytes))
          {
            g_printerr ("round trip of %s is not byte-identical\n", big_path);
            return 1;
          }
        t = now () - t;
        big_size = g_bytes_get_size (bytes);
        g_array_append_val (times, t);
      }
    g_array_sort (times, compare_double);
    printf ("round trip (open, validate, re-encode every resource, compare):\n");
    printf ("  %d-triangle model: %.1f ms (best of 5; %.0f MB/s)\n", big_triangles,
            g_array_index (times, double, 0) * 1e3,
            big_size / 1e6 / g_array_index (times, double, 0));

    t0 = now ();
    for (guint i = 0; i < corpus.paths->len; i++)
      {
        g_autoptr(GBytes) bytes = mshed_load_file (g_ptr_array_index (corpus.paths, i), NULL);
        g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
        g_autoptr(GBytes) out = NULL;

        if (nres == NULL)
          return 1;
        out = reencode (nres);
        if (!g_bytes_equal (out, bytes))
          {
            g_printerr ("round trip of %s is not byte-identical\n",
                        (char *) g_ptr_array_index (corpus.paths, i));
            return 1;
          }
      }
    corpus_s = now () - t0;
    printf ("  corpus: %.1f ms for %d models (%.0f MB/s)\n", corpus_s * 1e3, n_models,
            mb / corpus_s);
  }

  /* glTF export (mshed-cli export without the file write): both formats, best of 5. */
  {
    g_autoptr(GBytes) bytes = mshed_load_file (big_path, &error);
    g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL,
                                                              &error);

    if (model == NULL)
      g_error ("%s", error->message);
    printf ("glTF export (mshed_gltf_export, %d-triangle model, best of 5):\n", big_triangles);
    for (int format = MSHED_GLTF_BINARY; format <= MSHED_GLTF_TEXT; format++)
      {
        double best = G_MAXDOUBLE;
        gsize size = 0;

        for (int run = 0; run < 5; run++)
          {
            MshedGltfOptions options;
            g_autoptr(GBytes) out = NULL;
            double t;

            mshed_gltf_options_init (&options);
            options.format = format;
            t = now ();
            out = mshed_gltf_export (model, &options, NULL, NULL, NULL);
            t = now () - t;
            best = MIN (best, t);
            size = g_bytes_get_size (out);
          }
        printf ("  %s: %.1f ms, %.1f MB\n", format == MSHED_GLTF_BINARY ? ".glb" : ".gltf",
                best * 1e3, size / 1e6);
      }
    bench_import (model, bytes);
  }

  {
    struct rusage usage;

    getrusage (RUSAGE_SELF, &usage);
    printf ("benchmark process peak RSS: %.1f MB (includes generating the corpus)\n",
            usage.ru_maxrss / 1024.0);
  }

  if (!keep_dir)
    {
      for (guint i = 0; i < corpus.paths->len; i++)
        g_unlink (g_ptr_array_index (corpus.paths, i));
      g_unlink (big_path);
      g_rmdir (dir);
    }
  g_ptr_array_unref (corpus.paths);
  (void) sink;
  return 0;
}
