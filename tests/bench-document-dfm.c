/* bench-document-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DFM document benchmark (not a test): the largest generated body opened as a document
 * (read, strict checks, typed view), a point edit + undo + redo with the checks each edit runs
 * (docs/dfm.md §14 over the tree), a Cons edit, a tree edit (a face group removed and put back,
 * which re-reads the container rules), serialize and save. One thread.
 *
 *   meson test --benchmark -C BUILDDIR -v bench-document-dfm   or
 *   BUILDDIR/tests/bench-document-dfm [--points N] [--edits N]
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <time.h>

#include "mshed-dfm-generator.h"
#include "mshed-document.h"

static int n_points = 8000;
static int n_edits = 200;

static GOptionEntry entries[] = {
  { "points", 'p', 0, G_OPTION_ARG_INT, &n_points, "Points of Mesh0 (8000)", "N" },
  { "edits", 'e', 0, G_OPTION_ARG_INT, &n_edits, "Edits per timing (200)", "N" },
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

static void
report (GArray     *samples,
        const char *what)
{
  g_array_sort (samples, compare_double);
  printf ("  %-46s median %8.3f ms   p90 %8.3f ms   max %8.3f ms\n", what,
          g_array_index (samples, double, samples->len / 2),
          g_array_index (samples, double, samples->len * 9 / 10),
          g_array_index (samples, double, samples->len - 1));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (double));
  MshedDfmGenParams params;
  MshedDfm *dfm;
  MshedDfmLevel level;
  MshedDfmGroup group;
  MshedDfmJoint joint;
  MshedUtfNode *points;
  double t0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  dir = g_dir_make_tmp ("mshed-bench-XXXXXX", NULL);
  path = g_build_filename (dir, "body.dfm", NULL);
  out = g_build_filename (dir, "saved.dfm", NULL);

  /* the largest body: most bones of a retail body, many points, UV1 and Edge data */
  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 7);
  params.n_bones = 57;
  params.n_points = (guint) n_points;
  params.n_groups = 4;
  params.uv1 = TRUE;
  params.edges = TRUE;
  bytes = mshed_dfm_generate_bytes (&params);
  g_assert (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                 (gssize) g_bytes_get_size (bytes), NULL));

  for (int i = 0; i < 21; i++)
    {
      g_autoptr(MshedDocument) d = NULL;

      t0 = now ();
      d = mshed_document_open (path, MSHED_MODE_STRICT, &error);
      g_array_append_val (samples, (double) { (now () - t0) * 1e3 });
      g_assert_no_error (error);
    }
  doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  dfm = mshed_document_get_dfm (doc);
  g_assert (mshed_dfm_get_level (dfm, 0, &level));
  printf ("largest body: %" G_GSIZE_FORMAT " KiB, %u bones, %u levels, Mesh0 %u points, "
          "%u elements\n", g_bytes_get_size (bytes) / 1024, mshed_dfm_get_n_bones (dfm),
          mshed_dfm_get_n_levels (dfm), level.n_points, level.n_elements);
  report (samples, "open (read + strict checks + typed view)");

  g_array_set_size (samples, 0);
  for (int i = 0; i < 51; i++)
    {
      t0 = now ();
      mshed_document_revalidate (doc);
      g_array_append_val (samples, (double) { (now () - t0) * 1e3 });
    }
  report (samples, "full checks (container re-read + DFM rules)");

  points = mshed_utf_lookup (mshed_document_get_utf (doc), "\\MultiLevel\\Mesh0\\Geometry\\Points");
  g_array_set_size (samples, 0);
  for (int i = 0; i < n_edits; i++)
    {
      g_autofree char *text = g_strdup_printf ("%d.25", i);

      t0 = now ();
      g_assert (mshed_document_dfm_set_field (doc, points, (guint) (i * 7919) % level.n_points,
                                              "y", text, NULL));
      mshed_document_undo (doc);
      mshed_document_redo (doc);
      g_array_append_val (samples, (double) { (now () - t0) * 1e3 });
    }
  report (samples, "point y: edit + undo + redo (3 checks)");

  g_assert (mshed_dfm_get_joint (dfm, 1, &joint));
  g_array_set_size (samples, 0);
  for (int i = 0; i < n_edits; i++)
    {
      g_autofree char *text = g_strdup_printf ("%d.5", i);

      t0 = now ();
      g_assert (mshed_document_dfm_set_field (doc, joint.node, joint.record,
                                              joint.kind == MSHED_DFM_JOINT_SPHERE ? "parentX"
                                                                                 : "posX",
                                              text, NULL));
      mshed_document_undo (doc);
      mshed_document_redo (doc);
      g_array_append_val (samples, (double) { (now () - t0) * 1e3 });
    }
  report (samples, "joint x: edit + undo + redo (bone marks)");

  g_assert (mshed_dfm_get_group (dfm, 0, 0, &group));
  g_array_set_size (samples, 0);
  for (int i = 0; i < n_edits / 4 + 1; i++)
    {
      t0 = now ();
      g_assert (mshed_document_utf_remove (doc, group.node, NULL));
      mshed_document_undo (doc);
      g_array_append_val (samples, (double) { (now () - t0) * 1e3 });
    }
  report (samples, "face group removed + undo (tree re-read)");

  g_array_set_size (samples, 0);
  for (int i = 0; i < 11; i++)
    {
      g_autoptr(GBytes) written = NULL;

      t0 = now ();
      written = mshed_document_serialize_file (doc);
      g_array_append_val (samples, (double) { (now () - t0) * 1e3 });
    }
  report (samples, "serialize after edits (patched source)");

  g_array_set_size (samples, 0);
  for (int i = 0; i < 11; i++)
    {
      t0 = now ();
      g_assert (mshed_document_save_as (doc, out, MSHED_SAVE_NO_BACKUP, &error));
      g_array_append_val (samples, (double) { (now () - t0) * 1e3 });
      g_assert_no_error (error);
    }
  report (samples, "save (strict check + temp + fsync + rename)");

  g_unlink (out);
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
