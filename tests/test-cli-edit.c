/* test-cli-edit.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli edit, run as a user runs it ($MSHED_CLI).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "mshed-bytes.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-source.h"
#include "tests/hand-nres.h"

typedef struct {
  char *dir;
  char *model;
} Fixture;

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL;

  f->dir = g_dir_make_tmp ("mshed-cli-edit-XXXXXX", NULL);
  f->model = g_build_filename (f->dir, "m.msh", NULL);
  mshed_gen_params_init (&p, 9);
  p.n_triangles = 1500;
  p.n_nodes = 6;
  p.animated = TRUE;
  bytes = mshed_generate_model_bytes (&p);
  g_assert_true (g_file_set_contents (f->model, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  GDir *d = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (f->dir, name, NULL);
      g_unlink (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->model);
}

static int
run_cli (char **out,
         char **err,
         ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("MSHED_CLI");
  const char *arg;
  int status = 0;
  va_list ap;

  g_assert_nonnull (cli);
  g_ptr_array_add (args, (gpointer) cli);
  g_ptr_array_add (args, "edit");
  va_start (ap, err);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static MshedModel *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedSource) source = mshed_source_open (path, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  return mshed_model_ref (source->model);
}

static void
test_edit_to_output (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *out_path = g_build_filename (f->dir, "out.msh", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(MshedModel) before = load (f->model);
  g_autoptr(MshedModel) after = NULL;
  g_autofree char *name = NULL;
  MshedSlot slot;

  g_assert_cmpint (run_cli (&out, &err, f->model, "--set", "slots[1].batchCount=1",
                            "--set", "vertices[5].z=12.5", "--rename-node", "2=башня",
                            "--recompute", "stale", "--recompute", "conventions", "-o", out_path,
                            NULL), ==, 0);
  g_assert_nonnull (strstr (out, "slots[1].batchCount:"));
  g_assert_nonnull (strstr (out, "node 2 name:"));
  g_assert_nonnull (strstr (out, "recompute stale:"));
  g_assert_nonnull (strstr (out, "(mshed convention, the stale rows only)"));
  g_assert_nonnull (strstr (out, "wrote"));
  after = load (out_path);
  mshed_model_get_slot (after, 1, &slot);
  g_assert_cmpuint (slot.batch_count, ==, 1);
  name = mshed_model_dup_name (after, 2);
  g_assert_cmpstr (name, ==, "башня");
  /* the input is untouched */
  {
    g_autoptr(GBytes) a = mshed_model_serialize (before);
    g_autoptr(MshedModel) again = load (f->model);
    g_autoptr(GBytes) b = mshed_model_serialize (again);

    g_assert_true (g_bytes_equal (a, b));
  }
}

static void
test_edit_in_place (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *bak = g_strconcat (f->model, ".bak", NULL);
  g_autofree char *orig = NULL;
  g_autofree char *now = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gsize orig_len, now_len;

  g_assert_true (g_file_get_contents (f->model, &orig, &orig_len, NULL));
  g_assert_cmpint (run_cli (&out, &err, f->model, "--set", "batches[0].materialIndex=0x3",
                            NULL), ==, 0);
  g_assert_nonnull (strstr (out, "saved"));
  g_assert_true (g_file_get_contents (bak, &now, &now_len, NULL));
  g_assert_cmpmem (orig, orig_len, now, now_len);
  {
    g_autoptr(MshedModel) m = load (f->model);
    MshedBatch b;

    mshed_model_get_batch (m, 0, &b);
    g_assert_cmpuint (b.material_index, ==, 3);
  }
  /* nothing to change: the file is left alone */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&out, &err, f->model, "--set", "batches[0].materialIndex=3", NULL),
                   ==, 0);
  g_assert_nonnull (strstr (out, "unchanged"));
  g_assert_nonnull (strstr (out, "nothing changed"));
}

/* Exit status 2 for what no model could accept (bad usage), 1 for an edit this model refuses;
 * either way nothing is written. */
static void
test_edit_errors (Fixture       *f,
                  gconstpointer  data)
{
  static const struct {
    const char *option, *value, *fragment;
    int         status;
  } cases[] = {
    { "--set", "slots[999].batchCount=1", "row 999", 1 },
    { "--set", "slots[1].nosuch=1", "nosuch", 2 },
    { "--set", "slots[1].batchCount=-4", "batchCount", 2 },
    { "--set", "nope[1].x=1", "nope", 2 },
    { "--set", "slots1.x", "TABLE[ROW].FIELD=VALUE", 2 },
    { "--rename-node", "1=塔", "Windows-1251", 2 },
    { "--recompute", "everything", "--recompute everything", 2 },
    { "--recompute", "bounds", "--recompute bounds", 2 },
    { "--set", "nodes[0].slot0=900", "--save-anyway", 1 },
  };
  g_autofree char *orig = NULL;
  gsize orig_len;

  g_assert_true (g_file_get_contents (f->model, &orig, &orig_len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *now = NULL;
      gsize now_len;

      g_assert_cmpint (run_cli (&out, &err, f->model, cases[i].option, cases[i].value, NULL),
                       ==, cases[i].status);
      if (strstr (err, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” not in: %s", i, cases[i].fragment, err);
      g_assert_nonnull (strstr (err, "Nothing was written"));
      g_assert_true (g_file_get_contents (f->model, &now, &now_len, NULL));
      g_assert_cmpmem (orig, orig_len, now, now_len);
    }
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    g_assert_cmpint (run_cli (&out, &err, "/nonexistent.msh", NULL), ==, 2);
  }
}

/* Recomputes of an unmodified model: what the format determines comes out as stored, the
 * conventions touch only stale rows (there are none), so the output equals the input. Only
 * --all-rows applies a convention everywhere, and says so. */
static void
test_edit_recompute_unmodified (Fixture       *f,
                                gconstpointer  data)
{
  g_autofree char *out_path = g_build_filename (f->dir, "same.msh", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *orig = NULL;
  g_autofree char *now = NULL;
  gsize orig_len, now_len;

  /* derived data as another tool may have written it, valid but not by our conventions:
   * links in another order, larger spheres (normals in another rounding: test-recompute) */
  {
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(MshedNres) nres = NULL;
    g_autoptr(MshedModel) model = load (f->model);
    g_autoptr(GBytes) out_bytes = NULL;
    gint r2 = mshed_model_find_resource (model, 2), r7 = mshed_model_find_resource (model, 7);
    guint8 *res2, *res7;
    gsize size2, size7;

    nres = mshed_nres_copy (mshed_model_get_nres (model));
    res2 = mshed_nres_entry_make_mutable (nres, (guint) r2);
    res7 = mshed_nres_entry_make_mutable (nres, (guint) r7);
    size2 = mshed_nres_entry_get_size (mshed_nres_peek_entry (nres, (guint) r2));
    size7 = mshed_nres_entry_get_size (mshed_nres_peek_entry (nres, (guint) r7));
    for (gsize d = 0; d < size7 / 16; d++)
      {
        guint8 *r = res7 + 16 * d;
        guint16 l0 = mshed_read_u16 (r + 2);

        mshed_write_u16 (r + 2, mshed_read_u16 (r + 4));
        mshed_write_u16 (r + 4, mshed_read_u16 (r + 6));
        mshed_write_u16 (r + 6, l0);
      }
    mshed_write_f32 (res2 + 0x6C, mshed_read_f32 (res2 + 0x6C) * 1.5f);
    for (gsize s = 0; s < (size2 - 140) / 68; s++)
      mshed_write_f32 (res2 + 140 + 68 * s + 44, mshed_read_f32 (res2 + 140 + 68 * s + 44) * 1.25f);
    out_bytes = mshed_nres_build_canonical (nres);
    g_assert_true (g_file_set_contents (f->model, g_bytes_get_data (out_bytes, NULL),
                                        (gssize) g_bytes_get_size (out_bytes), NULL));
    (void) bytes;
  }
  g_assert_true (g_file_get_contents (f->model, &orig, &orig_len, NULL));
  g_assert_cmpint (run_cli (&out, &err, f->model, "--recompute", "all", "--recompute", "stale",
                            "--recompute", "links", "--recompute", "header", "--recompute",
                            "normals", "--recompute", "slot-spheres", "-o", out_path, NULL),
                   ==, 0);
  g_assert_nonnull (strstr (out, "nothing stale, nothing changed"));
  g_assert_nonnull (strstr (out, "(determined by the format)"));
  g_assert_true (g_file_get_contents (out_path, &now, &now_len, NULL));
  g_assert_cmpmem (orig, orig_len, now, now_len);

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  /* every row by our rules: the other tool's links keep their places, the normals are
   * encodings of the same directions */
  g_assert_cmpint (run_cli (&out, &err, f->model, "--recompute", "links", "--recompute",
                            "normals", "--all-rows", "-o", out_path, NULL), ==, 0);
  g_clear_pointer (&now, g_free);
  g_assert_true (g_file_get_contents (out_path, &now, &now_len, NULL));
  g_assert_cmpmem (orig, orig_len, now, now_len);
  g_assert_nonnull (strstr (out, "(mshed convention, every row; values no edit touched may "
                                 "change too)"));
}

/* --recompute all on the legacy 24-byte node layout: the frame map cannot be rebuilt there,
 * the rest still runs and the skipped one is named. */
static void
test_edit_recompute_legacy (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *legacy = g_build_filename (f->dir, "legacy.msh", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GBytes) bytes = NULL;
  MshedGenParams p;

  mshed_gen_params_init (&p, 12);
  p.legacy_nodes = TRUE;
  bytes = mshed_generate_model_bytes (&p);
  g_assert_true (g_file_set_contents (legacy, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  g_assert_cmpint (run_cli (&out, &err, legacy, "--recompute", "all", "--dry-run", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Slot bounding boxes (determined by the format)"));
  g_assert_nonnull (strstr (out, "NRes attributes (determined by the format)"));
  g_assert_nonnull (strstr (err, "Animation frame map"));
  g_assert_nonnull (strstr (err, "skipped"));
  /* asked for alone, it is a failure */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (&out, &err, legacy, "--recompute", "anim-map", "--dry-run", NULL),
                   ==, 1);
}

/* Non-canonical archives (docs/nres.md §6, §7.3) -------------------------------------------- */

#define NEW_NAME "longer_name_for_node_zero"

/* gap.rlb: a.dat, a 16-byte block, SHIP_29.msh, a 2040-byte block before the untouched
 * tex.dat, an 8-byte block before the directory; all laid out by hand. */
static const HandItem gap_items[] = {
  HAND_PAYLOAD (0), HAND_BLOCK (16, 0xB8), HAND_PAYLOAD (1), HAND_BLOCK (2040, 0xA7),
  HAND_PAYLOAD (2), HAND_BLOCK (8, 0xC9),
};

static GArray *
gap_entries (GBytes *model)
{
  GArray *entries = hand_entries_new ();

  hand_add_entry (entries, 0x54414441, "a.dat", 8, 0x10, 0);
  hand_add_entry (entries, 0, "SHIP_29.msh", 0, 0, 1);
  hand_add_entry (entries, 0x6D786554, "tex.dat", 24, 0x30, 2);
  hand_set_payload (entries, 1, model);
  return entries;
}

/* Writes @name in the test directory: the gap.rlb layout around @model. Returns its path; the
 * entries (with the offsets they got) and the bytes go to @entries and @bytes. */
static char *
write_gap_archive (Fixture     *f,
                   const char  *name,
                   GBytes      *model,
                   GArray     **entries,
                   GBytes     **bytes)
{
  char *path = g_build_filename (f->dir, name, NULL);

  *entries = gap_entries (model);
  *bytes = hand_nres_build (*entries, gap_items, G_N_ELEMENTS (gap_items));
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (*bytes, NULL),
                                      (gssize) g_bytes_get_size (*bytes), NULL));
  return path;
}

static GBytes *
gap_model (void)
{
  MshedGenParams p;

  mshed_gen_params_init (&p, 29);
  p.n_triangles = 200;
  p.n_nodes = 4;
  p.cyrillic_names = TRUE;
  return mshed_generate_model_bytes (&p);
}

static char *
write_bytes (Fixture    *f,
             const char *name,
             GBytes     *bytes)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  return path;
}

/* The command: the blocks stay, untouched entries before the model keep their
 * offsets, and only what follows the model moves by its padded growth. */
static void
test_edit_keeps_layout (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GBytes) model = gap_model ();
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GBytes) in = NULL;
  g_autofree char *path = write_gap_archive (f, "gap.rlb", model, &entries, &in);
  g_autofree char *spec = g_strdup_printf ("%s:SHIP_29.msh", path);
  g_autofree char *out_path = g_build_filename (f->dir, "out.rlb", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *written = NULL;
  g_autoptr(GArray) inner = hand_nres_read (model);
  g_autoptr(GBytes) names = NULL;
  g_autoptr(GBytes) model_out = NULL;
  g_autoptr(GBytes) expected = NULL;
  gint res10 = hand_find_type (inner, 10);
  gsize len = 0;

  g_assert_cmpint (run_cli (&out, &err, spec, "--rename-node", "0=" NEW_NAME, "-o", out_path,
                            NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_file_get_contents (out_path, &written, &len, NULL));

  /* expected: the model is canonical, so it is rebuilt canonically with the new name table;
   * the archive keeps its hand layout around it */
  names = hand_rename_node0 (g_array_index (inner, HandEntry, res10).payload, NEW_NAME);
  hand_set_payload (inner, (guint) res10, names);
  {
    g_autofree HandItem *items = g_new0 (HandItem, inner->len);

    for (guint i = 0; i < inner->len; i++)
      items[i] = (HandItem) HAND_PAYLOAD ((gint) i);
    model_out = hand_nres_build (inner, items, inner->len);
  }
  g_assert_cmpuint (g_bytes_get_size (model_out), >, g_bytes_get_size (model));
  hand_set_payload (entries, 1, model_out);
  expected = hand_nres_build (entries, gap_items, G_N_ELEMENTS (gap_items));
  g_assert_cmpmem (written, len, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
  g_assert_cmpuint (g_array_index (entries, HandEntry, 0).offset, ==, 16);
}

/* --repack drops the blocks, and names each one first. */
static void
test_edit_repack (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GBytes) model = gap_model ();
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GBytes) in = NULL;
  g_autofree char *path = write_gap_archive (f, "gap.rlb", model, &entries, &in);
  g_autofree char *spec = g_strdup_printf ("%s:SHIP_29.msh", path);
  g_autofree char *out_path = g_build_filename (f->dir, "packed.rlb", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *block = NULL;
  g_autoptr(GBytes) packed = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(GError) error = NULL;
  guint32 block_at = (g_array_index (entries, HandEntry, 1).offset +
                      (guint32) g_bytes_get_size (model) + 7) & ~7u;

  g_assert_cmpint (run_cli (&out, &err, spec, "--rename-node", "0=" NEW_NAME, "--repack",
                            "-o", out_path, NULL), ==, 0);
  block = g_strdup_printf ("warning: repack: %s: 2040 unreferenced bytes at offset %u", path,
                           block_at);
  if (strstr (err, block) == NULL || strstr (err, "16 unreferenced bytes at offset 24") == NULL
      || strstr (err, "8 unreferenced bytes at offset") == NULL)
    g_error ("the dropped blocks are not named: %s", err);
  packed = mshed_load_file (out_path, &error);
  g_assert_no_error (error);
  nres = mshed_nres_parse (packed, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_nres_is_canonical (nres));
  g_assert_cmpuint (g_bytes_get_size (packed), <, g_bytes_get_size (in));
}

/* A file whose container fails strict validation is not written without --save-anyway: a
 * loose model with NRes version 0x200, and a model with a bad sort index inside an archive. */
static void
test_edit_refuses_container (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GBytes) model = gap_model ();
  gsize len = g_bytes_get_size (model);
  g_autofree guint8 *bad_version = g_memdup2 (g_bytes_get_data (model, NULL), len);
  g_autofree guint8 *bad_sort = g_memdup2 (g_bytes_get_data (model, NULL), len);
  g_autoptr(GBytes) v = NULL;
  g_autoptr(GBytes) s = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GBytes) archive = NULL;
  g_autofree char *loose = NULL;
  g_autofree char *arc = NULL;
  g_autofree char *spec = NULL;
  g_autofree char *out_msh = g_build_filename (f->dir, "out.msh", NULL);
  g_autofree char *out_rlb = g_build_filename (f->dir, "out.rlb", NULL);
  static const struct {
    const char *flag;
    int         status;
  } runs[] = { { NULL, 1 }, { "--save-anyway", 0 } };

  g_assert_cmpuint (len, >, 16);
  hand_put_u32 (bad_version + 4, 0x200);
  hand_put_u32 (bad_sort + hand_u32 (bad_sort + 12) - hand_u32 (bad_sort + 8) * 64 + 60, 99);
  v = g_bytes_new (bad_version, len);
  s = g_bytes_new (bad_sort, len);
  loose = write_bytes (f, "021_nres-version.msh", v);
  arc = write_gap_archive (f, "sort.rlb", s, &entries, &archive);
  spec = g_strdup_printf ("%s:SHIP_29.msh", arc);

  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run_cli (&out, &err, loose, "--tolerant", "--set", "nodes[0].hdr0=0",
                                "-o", out_msh, runs[r].flag, NULL), ==, runs[r].status);
      if (runs[r].status != 0)
        {
          if (strstr (err, "NRes header, field version") == NULL ||
              strstr (err, "Nothing was written") == NULL || strstr (err, out_msh) == NULL)
            g_error ("loose: %s", err);
          g_assert_false (g_file_test (out_msh, G_FILE_TEST_EXISTS));
        }
      else
        g_assert_true (g_file_test (out_msh, G_FILE_TEST_EXISTS));
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);

      g_assert_cmpint (run_cli (&out, &err, spec, "--tolerant", "--set", "nodes[0].hdr0=0",
                                "-o", out_rlb, runs[r].flag, NULL), ==, runs[r].status);
      if (runs[r].status != 0)
        {
          if (strstr (err, "SHIP_29.msh: NRes directory record 0, field sort_index") == NULL)
            g_error ("nested: %s", err);
          g_assert_false (g_file_test (out_rlb, G_FILE_TEST_EXISTS));
        }
      else
        g_assert_true (g_file_test (out_rlb, G_FILE_TEST_EXISTS));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cli/edit/output", Fixture, NULL, setup, test_edit_to_output, teardown);
  g_test_add ("/cli/edit/in-place", Fixture, NULL, setup, test_edit_in_place, teardown);
  g_test_add ("/cli/edit/errors", Fixture, NULL, setup, test_edit_errors, teardown);
  g_test_add ("/cli/edit/recompute-unmodified", Fixture, NULL, setup,
              test_edit_recompute_unmodified, teardown);
  g_test_add ("/cli/edit/recompute-legacy", Fixture, NULL, setup, test_edit_recompute_legacy,
              teardown);
  g_test_add ("/cli/edit/keeps-layout", Fixture, NULL, setup, test_edit_keeps_layout, teardown);
  g_test_add ("/cli/edit/repack", Fixture, NULL, setup, test_edit_repack, teardown);
  g_test_add ("/cli/edit/refuses-container", Fixture, NULL, setup, test_edit_refuses_container,
              teardown);

  return g_test_run ();
}
