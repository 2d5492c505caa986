/* test-cli-roundtrip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `mshed-cli roundtrip` re-encodes every table from its fields: with an encoder bug planted
 * (MSHED_TEST_ROUNDTRIP_FAULT=TABLE[ROW].FIELD) it reports a difference at that field's byte,
 * naming table, record and field, and exits 1; without one the sample and its archive are
 * identical. Offsets come from the library's record accessors, never from the CLI.
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-source.h"
#include "test-require.h"

typedef struct {
  int   status;
  char *out;
  char *err;
} Run;

/* Runs `mshed-cli roundtrip FILE` with @fault planted (NULL: none). */
static void
roundtrip (Run        *run,
           const char *file,
           const char *fault)
{
  const char *argv[] = { g_getenv ("MSHED_CLI"), "roundtrip", file, NULL };
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  envp = fault ? g_environ_setenv (envp, "MSHED_TEST_ROUNDTRIP_FAULT", fault, TRUE)
               : g_environ_unsetenv (envp, "MSHED_TEST_ROUNDTRIP_FAULT");
  if (!g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &run->out,
                     &run->err, &wait_status, &error))
    g_error ("cannot run mshed-cli: %s", error->message);
  g_assert_true (WIFEXITED (wait_status));
  run->status = WEXITSTATUS (wait_status);
  g_test_message ("exit %d\nstdout: %s\nstderr: %s", run->status, run->out, run->err);
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

static MshedModel *
load (const char *path)
{
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);
  g_autoptr(GBytes) bytes = NULL;

  g_assert_nonnull (file);
  bytes = g_mapped_file_get_bytes (file);
  return mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
}

static void
test_identical (void)
{
  const char *files[] = { g_getenv ("MSHED_SAMPLE"), g_getenv ("MSHED_SAMPLE_ARCHIVE") };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      Run run = { 0 };
      g_autofree char *expect = NULL;
      g_autoptr(GMappedFile) file = g_mapped_file_new (files[i], FALSE, NULL);

      roundtrip (&run, files[i], NULL);
      expect = g_strdup_printf ("%s: OK, %zu bytes identical\n", files[i],
                                g_mapped_file_get_length (file));
      g_assert_cmpint (run.status, ==, 0);
      g_assert_cmpstr (run.out, ==, expect);
      g_assert_cmpstr (run.err, ==, "");
      run_clear (&run);
    }
}

/* A planted bug in one field of each kind of table, in the loose sample. */
static void
test_planted (void)
{
  static const struct {
    const char  *fault;
    MshedTableId table;
    guint        row;
    guint        field_offset;
    const char  *where;
  } cases[] = {
    { "slots[3].aabbMinX", MSHED_TABLE_SLOTS, 3, 8, "Res2 slots record 3, field aabbMinX" },
    { "header.capR", MSHED_TABLE_HEADER, 0, 136, "Res2 header, field capR" },
    { "nodes[4].slot7", MSHED_TABLE_NODES, 4, 22, "Res1 nodes record 4, field slot7" },
    { "uvs[2].v", MSHED_TABLE_UVS, 2, 2, "Res5 uvs record 2, field v" },
    { "keys[1].qw", MSHED_TABLE_KEYS, 1, 22, "Res8 keys record 1, field qw" },
    { "batches[1].baseVertex", MSHED_TABLE_BATCHES, 1, 16,
      "Res13 batches record 1, field baseVertex" },
  };
  const char *sample = g_getenv ("MSHED_SAMPLE");
  g_autoptr(MshedModel) model = load (sample);

  g_assert_nonnull (model);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Run run = { 0 };
      guint32 at = mshed_model_get_record_offset (model, cases[i].table, cases[i].row) +
                   cases[i].field_offset;
      g_autofree char *expect = g_strdup_printf ("%s: DIFFERS at offset %u (0x%X) in %s: ",
                                                 sample, at, at, cases[i].where);

      roundtrip (&run, sample, cases[i].fault);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_true (g_str_has_prefix (run.out, expect));
      run_clear (&run);
    }
}

/* In an archive the report names the nested model's entry. */
static void
test_planted_in_archive (void)
{
  const char *archive = g_getenv ("MSHED_SAMPLE_ARCHIVE");
  g_autoptr(GMappedFile) file = g_mapped_file_new (archive, FALSE, NULL);
  g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (file);
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *name = NULL;
  g_autofree char *expect = NULL;
  const MshedNresEntry *e = NULL;
  Run run = { 0 };
  guint32 at;

  g_assert_nonnull (nres);
  for (guint i = 0; e == NULL || !mshed_entry_is_model_name (e); i++)
    {
      g_assert_cmpuint (i, <, mshed_nres_get_n_entries (nres));
      e = mshed_nres_peek_entry (nres, i);
    }
  name = mshed_nres_entry_dup_name (e);
  payload = mshed_nres_entry_dup_bytes (e);
  model = mshed_model_new_from_bytes (payload, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (model);
  at = e->data_offset + mshed_model_get_record_offset (model, MSHED_TABLE_TRIS, 5) + 2;
  expect = g_strdup_printf ("%s: DIFFERS at offset %u (0x%X) in entry “%s”: "
                            "Res7 tris record 5, field link0: ", archive, at, at, name);

  roundtrip (&run, archive, "tris[5].link0");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (g_str_has_prefix (run.out, expect));
  run_clear (&run);
}

static void
test_bad_fault (void)
{
  Run run = { 0 };

  roundtrip (&run, g_getenv ("MSHED_SAMPLE"), "slots[3].nosuchfield");
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, "slots[3].nosuchfield"));
  run_clear (&run);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("MSHED_CLI") == NULL || g_getenv ("MSHED_SAMPLE") == NULL ||
      g_getenv ("MSHED_SAMPLE_ARCHIVE") == NULL)
    return mshed_test_skip_program ("MSHED_CLI and the samples are named by meson test");

  g_test_add_func ("/cli/roundtrip/identical", test_identical);
  g_test_add_func ("/cli/roundtrip/planted", test_planted);
  g_test_add_func ("/cli/roundtrip/planted-in-archive", test_planted_in_archive);
  g_test_add_func ("/cli/roundtrip/bad-fault", test_bad_fault);
  return g_test_run ();
}
