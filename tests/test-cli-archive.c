/* test-cli-archive.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli archive, run as a user runs it ($MSHED_CLI), on generated archives. After every
 * edit the archive validates clean and every entry the edit did not touch has the same type,
 * attributes, raw name and payload bytes as before (read back with the NRes reader).
 */
#include "config.h"

#include <string.h>

#include "mshed-generator.h"
#include "mshed-nres.h"
#include "test-cli-util.h"

#define N_MODELS "3"

/* Writes a generated archive of three models under @name and returns its bytes. */
static GBytes *
make_archive (const char *name)
{
  run_cli_ok ("generate", "-q", "--archive", N_MODELS, "--triangles", "200", "-o", name, NULL);
  return read_file (name);
}

static MshedNres *
parse_archive (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MshedNres *nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  return nres;
}

/* Entry @i of @a and entry @j of @b agree in everything a record and a payload hold. */
static void
assert_same_entry (MshedNres *a,
                   guint      i,
                   MshedNres *b,
                   guint      j)
{
  const MshedNresEntry *ea = mshed_nres_peek_entry (a, i);
  const MshedNresEntry *eb = mshed_nres_peek_entry (b, j);
  gsize la, lb;
  const guint8 *pa = mshed_nres_entry_get_data (ea, &la);
  const guint8 *pb = mshed_nres_entry_get_data (eb, &lb);

  g_assert_cmpmem (ea->name, MSHED_NRES_NAME_SIZE, eb->name, MSHED_NRES_NAME_SIZE);
  g_assert_cmpuint (ea->type_id, ==, eb->type_id);
  g_assert_cmpuint (ea->attr1, ==, eb->attr1);
  g_assert_cmpuint (ea->attr2, ==, eb->attr2);
  g_assert_cmpuint (ea->attr3, ==, eb->attr3);
  g_assert_cmpmem (pa, la, pb, lb);
}

/* Every entry of @before except @skip (G_MAXUINT: none) is in @after, in the same order and
 * unchanged, around the entry @skip_after of @after (G_MAXUINT: none) that the edit added. */
static void
assert_others_kept (MshedNres *before,
                    guint      skip,
                    MshedNres *after,
                    guint      skip_after)
{
  guint j = 0;

  for (guint i = 0; i < mshed_nres_get_n_entries (before); i++)
    {
      if (i == skip)
        continue;
      if (j == skip_after)
        j++;
      g_assert_cmpuint (j, <, mshed_nres_get_n_entries (after));
      assert_same_entry (before, i, after, j);
      j++;
    }
}

/* The file is exactly @expected, no backup and no temporary file beside it. */
static void
assert_unchanged (const char *name,
                  GBytes     *expected)
{
  g_autoptr(GBytes) now = read_file (name);
  g_autofree char *bak = g_strdup_printf ("%s.bak", name);
  g_autofree char *path = path_in_tmp (name);
  g_autofree char *dirname = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *temp = g_strdup_printf (".%s.mshed-", base);
  GDir *dir = g_dir_open (dirname, 0, NULL);
  const char *entry;

  g_assert_true (g_bytes_equal (now, expected));
  g_assert_false (tmp_file_exists (bak));
  while ((entry = g_dir_read_name (dir)))
    g_assert_false (g_str_has_prefix (entry, temp));
  g_dir_close (dir);
}

static void
test_add (void)
{
  g_autoptr(GBytes) before_bytes = make_archive ("add.rlb");
  g_autoptr(MshedNres) before = parse_archive (before_bytes);
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GBytes) after_bytes = NULL;
  g_autoptr(MshedNres) after = NULL;
  g_autoptr(GBytes) bak = NULL;
  g_auto(Run) run = { 0 };
  MshedGenParams p;
  const MshedNresEntry *e;
  gsize size;
  const guint8 *data;

  mshed_gen_params_init (&p, 5);
  p.n_triangles = 100;
  model = mshed_generate_model_bytes (&p);
  write_file ("new.msh", model);

  run_cli (&run, "archive", "add.rlb", "add", "new.msh", "--name", "Added_Model.MSH", "--at", "2",
           NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_validates_clean ("add.rlb");
  after_bytes = read_file ("add.rlb");
  after = parse_archive (after_bytes);
  g_assert_cmpuint (mshed_nres_get_n_entries (after), ==, mshed_nres_get_n_entries (before) + 1);
  assert_others_kept (before, G_MAXUINT, after, 2);

  /* the new entry: the file's bytes, the name zero-filled, type 0 and zero attributes (an
   * outer model entry's type and attributes have no known meaning, docs/nres.md §10) */
  e = mshed_nres_peek_entry (after, 2);
  data = mshed_nres_entry_get_data (e, &size);
  g_assert_cmpmem (data, size, g_bytes_get_data (model, NULL), g_bytes_get_size (model));
  g_assert_cmpmem (e->name, 16, "Added_Model.MSH\0", 16);
  for (guint k = 16; k < MSHED_NRES_NAME_SIZE; k++)
    g_assert_cmpuint (e->name[k], ==, 0);
  g_assert_cmpuint (e->type_id, ==, 0);
  g_assert_cmpuint (e->attr1 | e->attr2 | e->attr3, ==, 0);
  g_assert_cmpint (mshed_nres_lookup_name (after, "added_model.msh"), ==, 2);

  /* the listing marks it as a model; the first save kept the original as .bak */
  run_cli (&run, "archive", "add.rlb", "list", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_regex_match_simple ("\n +2 +0 +\\d+ +0 +0 +0 +Added_Model\\.MSH +model\n",
                                       run.out, 0, 0));
  bak = read_file ("add.rlb.bak");
  g_assert_true (g_bytes_equal (bak, before_bytes));

  /* --type and --attrN on add; appended by default */
  run_cli (&run, "archive", "add.rlb", "add", "new.msh", "--name", "blob.bin", "--type", "WEAR",
           "--attr1", "7", "--attr3", "0x10", "--no-backup", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_clear_pointer (&after, mshed_nres_unref);
  g_clear_pointer (&after_bytes, g_bytes_unref);
  after_bytes = read_file ("add.rlb");
  after = parse_archive (after_bytes);
  e = mshed_nres_peek_entry (after, mshed_nres_get_n_entries (after) - 1);
  g_assert_cmpuint (e->type_id, ==, 0x52414557u);  /* "WEAR" read as a little-endian u32 */
  g_assert_cmpuint (e->attr1, ==, 7);
  g_assert_cmpuint (e->attr2, ==, 0);
  g_assert_cmpuint (e->attr3, ==, 16);
}

static void
test_replace (void)
{
  g_autoptr(GBytes) before_bytes = make_archive ("replace.rlb");
  g_autoptr(MshedNres) before = parse_archive (before_bytes);
  g_autoptr(GBytes) after_bytes = NULL;
  g_autoptr(MshedNres) after = NULL;
  g_autoptr(GBytes) blob = g_bytes_new_static ("0123456789abc", 13);  /* 13: not a multiple of 8 */
  const MshedNresEntry *old = mshed_nres_peek_entry (before, 1);
  const MshedNresEntry *e;
  g_auto(Run) run = { 0 };
  gsize size;
  const guint8 *data;

  write_file ("blob.bin", blob);
  run_cli (&run, "archive", "replace.rlb", "replace", "#1", "blob.bin", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_validates_clean ("replace.rlb");
  after_bytes = read_file ("replace.rlb");
  after = parse_archive (after_bytes);
  g_assert_cmpuint (mshed_nres_get_n_entries (after), ==, mshed_nres_get_n_entries (before));
  for (guint i = 0; i < mshed_nres_get_n_entries (before); i++)
    if (i != 1)
      assert_same_entry (before, i, after, i);
  e = mshed_nres_peek_entry (after, 1);
  data = mshed_nres_entry_get_data (e, &size);
  g_assert_cmpmem (data, size, "0123456789abc", 13);
  /* the record keeps its name, type and attributes */
  g_assert_cmpmem (e->name, MSHED_NRES_NAME_SIZE, old->name, MSHED_NRES_NAME_SIZE);
  g_assert_cmpuint (e->type_id, ==, old->type_id);
  g_assert_cmpuint (e->attr1, ==, old->attr1);

  /* by name, with a model: the entry validates as a nested model */
  {
    g_autofree char *name = mshed_nres_entry_dup_name (mshed_nres_peek_entry (before, 0));

    run_cli_ok ("extract", "replace.rlb", "#4", "-o", "other.msh", NULL);
    run_cli (&run, "archive", "replace.rlb", "replace", name, "other.msh", NULL);
    g_assert_cmpint (run.status, ==, 0);
    assert_validates_clean ("replace.rlb");
  }
}

static void
test_remove_add_back (void)
{
  g_autoptr(GBytes) before_bytes = make_archive ("remove.rlb");
  g_autoptr(MshedNres) before = parse_archive (before_bytes);
  g_autoptr(GBytes) after_bytes = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(MshedNres) after = NULL;
  const MshedNresEntry *e = mshed_nres_peek_entry (before, 4);
  g_autofree char *name = mshed_nres_entry_dup_name (e);
  g_autofree char *type = g_strdup_printf ("%u", e->type_id);
  g_autofree char *attr1 = g_strdup_printf ("%u", e->attr1);
  g_autofree char *attr2 = g_strdup_printf ("%u", e->attr2);
  g_autofree char *attr3 = g_strdup_printf ("%u", e->attr3);
  g_auto(Run) run = { 0 };

  run_cli_ok ("extract", "remove.rlb", "#4", "-o", "removed.bin", NULL);
  run_cli (&run, "archive", "remove.rlb", "remove", name, "--no-backup", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_validates_clean ("remove.rlb");
  after_bytes = read_file ("remove.rlb");
  after = parse_archive (after_bytes);
  g_assert_cmpuint (mshed_nres_get_n_entries (after), ==, mshed_nres_get_n_entries (before) - 1);
  assert_others_kept (before, 4, after, G_MAXUINT);
  g_assert_cmpint (mshed_nres_lookup_name (after, name), <, 0);

  /* the same file back at the same index with the same record: the generated archive is
   * canonical (docs/nres.md §7.3), so the §7.1 layout gives the original bytes */
  run_cli (&run, "archive", "remove.rlb", "add", "removed.bin", "--name", name, "--at", "4",
           "--type", type, "--attr1", attr1, "--attr2", attr2, "--attr3", attr3, "--no-backup",
           NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_validates_clean ("remove.rlb");
  again = read_file ("remove.rlb");
  g_assert_true (g_bytes_equal (again, before_bytes));
}

static void
test_rename (void)
{
  g_autoptr(GBytes) before_bytes = make_archive ("rename.rlb");
  g_autoptr(MshedNres) before = parse_archive (before_bytes);
  g_autoptr(GBytes) after_bytes = NULL;
  g_autoptr(MshedNres) after = NULL;
  const MshedNresEntry *e;
  g_auto(Run) run = { 0 };
  gsize la, lb;
  const guint8 *pa, *pb;

  /* "[" sorts before letters under the engine's lower-case fold (docs/nres.md §5.2): the
   * sort table must be recomputed for validate to stay clean */
  run_cli (&run, "archive", "rename.rlb", "rename", "#2", "[renamed].TX", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_validates_clean ("rename.rlb");
  after_bytes = read_file ("rename.rlb");
  after = parse_archive (after_bytes);
  g_assert_cmpuint (mshed_nres_get_n_entries (after), ==, mshed_nres_get_n_entries (before));
  for (guint i = 0; i < mshed_nres_get_n_entries (before); i++)
    if (i != 2)
      assert_same_entry (before, i, after, i);
  e = mshed_nres_peek_entry (after, 2);
  g_assert_cmpmem (e->name, 13, "[renamed].TX\0", 13);
  for (guint k = 13; k < MSHED_NRES_NAME_SIZE; k++)
    g_assert_cmpuint (e->name[k], ==, 0);
  pa = mshed_nres_entry_get_data (mshed_nres_peek_entry (before, 2), &la);
  pb = mshed_nres_entry_get_data (e, &lb);
  g_assert_cmpmem (pa, la, pb, lb);
  g_assert_true (mshed_nres_sort_matches_names (after));
  g_assert_cmpint (mshed_nres_lookup_name (after, "[RENAMED].tx"), ==, 2);
}

static void
test_move (void)
{
  g_autoptr(GBytes) before_bytes = make_archive ("move.rlb");
  g_autoptr(MshedNres) before = parse_archive (before_bytes);
  g_autoptr(GBytes) after_bytes = NULL;
  g_autoptr(MshedNres) after = NULL;
  g_auto(Run) run = { 0 };
  guint n = mshed_nres_get_n_entries (before);
  guint order[64];

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (order));
  /* #0 to #5: the entries 1..5 move up one place */
  for (guint i = 0; i < n; i++)
    order[i] = i;
  for (guint i = 0; i < 5; i++)
    order[i] = i + 1;
  order[5] = 0;

  run_cli (&run, "archive", "move.rlb", "move", "#0", "5", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_validates_clean ("move.rlb");
  after_bytes = read_file ("move.rlb");
  after = parse_archive (after_bytes);
  g_assert_cmpuint (mshed_nres_get_n_entries (after), ==, n);
  for (guint j = 0; j < n; j++)
    assert_same_entry (before, order[j], after, j);

  /* and back: the original bytes */
  run_cli (&run, "archive", "move.rlb", "move", "#5", "0", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_clear_pointer (&after_bytes, g_bytes_unref);
  after_bytes = read_file ("move.rlb");
  g_assert_true (g_bytes_equal (after_bytes, before_bytes));
}

static void
test_set (void)
{
  g_autoptr(GBytes) before_bytes = make_archive ("set.rlb");
  g_autoptr(MshedNres) before = parse_archive (before_bytes);
  g_autoptr(GBytes) after_bytes = NULL;
  g_autoptr(MshedNres) after = NULL;
  const MshedNresEntry *e;
  g_auto(Run) run = { 0 };

  run_cli (&run, "archive", "set.rlb", "set", "#2", "--type", "Texm", "--attr1", "1",
           "--attr2", "4294967295", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_validates_clean ("set.rlb");
  after_bytes = read_file ("set.rlb");
  after = parse_archive (after_bytes);
  for (guint i = 0; i < mshed_nres_get_n_entries (before); i++)
    if (i != 2)
      assert_same_entry (before, i, after, i);
  e = mshed_nres_peek_entry (after, 2);
  g_assert_cmpuint (e->type_id, ==, 0x6D786554u);  /* "Texm" */
  g_assert_cmpuint (e->attr1, ==, 1);
  g_assert_cmpuint (e->attr2, ==, 0xFFFFFFFFu);
  g_assert_cmpuint (e->attr3, ==, mshed_nres_peek_entry (before, 2)->attr3);
}

/* Refused edits write nothing; the exit status follows README "Exit status": 1 for an edit
 * this archive refuses, 2 for bad usage or an unreadable input. */
static void
test_refused (void)
{
  g_autoptr(GBytes) before = make_archive ("refused.rlb");
  g_autoptr(MshedNres) nres = parse_archive (before);
  g_autofree char *taken = mshed_nres_entry_dup_name (mshed_nres_peek_entry (nres, 1));
  g_autofree char *upper = g_ascii_strup (taken, -1);
  g_autoptr(GBytes) junk = g_bytes_new_static ("not a model at all", 18);
  static const char long_name[] = "abcdefghijklmnopqrstuvwxyz0123456789";  /* 36 bytes */
  struct {
    int         status;
    const char *args[8];
    const char *message;
  } cases[] = {
    { 1, { "remove", "no-such-entry" }, "no entry" },
    { 1, { "remove", "#999" }, "no entry" },
    { 2, { "rename", "#0", long_name }, "at most 35" },
    { 2, { "add", "junk.bin", "--name", long_name }, "at most 35" },
    { 1, { "rename", "#0", upper }, "is taken by entry #1" },
    { 1, { "add", "junk.bin", "--name", taken }, "is taken by entry #1" },
    { 1, { "add", "junk.bin", "--name", "broken.msh" }, "strict validation" },
    { 2, { "add", "missing.bin" }, "missing.bin" },
    { 2, { "add", "junk.bin", "--at", "99" }, "--at 99" },
    { 2, { "move", "#0", "99" }, "99" },
    { 2, { "set", "#0" }, "--attr1" },
    { 2, { "set", "#0", "--attr1", "-1" }, "--attr1 -1" },
    { 2, { "remove", "#0", "--type", "5" }, "--type" },
    { 2, { "frobnicate" }, "frobnicate" },
  };

  write_file ("junk.bin", junk);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const char *args[12] = { "archive", "refused.rlb" };
      g_auto(Run) run = { 0 };

      for (guint k = 0; cases[c].args[k]; k++)
        args[2 + k] = cases[c].args[k];
      run_cli_argv (&run, args);
      g_test_message ("case %u: %s", c, cases[c].args[0]);
      g_assert_cmpint (run.status, ==, cases[c].status);
      g_assert_nonnull (strstr (run.err, cases[c].message));
      assert_unchanged ("refused.rlb", before);
    }

  /* --dry-run reports and writes nothing; --allow-duplicate lets the name through */
  {
    g_auto(Run) run = { 0 };

    run_cli (&run, "archive", "refused.rlb", "add", "junk.bin", "--name", taken,
             "--allow-duplicate", "--dry-run", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, "dry run"));
    assert_unchanged ("refused.rlb", before);
  }
}

/* -o writes the result elsewhere and leaves the archive alone. */
static void
test_output (void)
{
  g_autoptr(GBytes) before = make_archive ("out-src.rlb");
  g_autoptr(MshedNres) src = parse_archive (before);
  g_autoptr(GBytes) result = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_auto(Run) run = { 0 };

  run_cli (&run, "archive", "out-src.rlb", "remove", "#0", "-o", "out-dst.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_unchanged ("out-src.rlb", before);
  result = read_file ("out-dst.rlb");
  nres = parse_archive (result);
  g_assert_cmpuint (mshed_nres_get_n_entries (nres), ==,
                    mshed_nres_get_n_entries (src) - 1);
  assert_validates_clean ("out-dst.rlb");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;

  g_test_add_func ("/cli/archive/add", test_add);
  g_test_add_func ("/cli/archive/replace", test_replace);
  g_test_add_func ("/cli/archive/remove-add-back", test_remove_add_back);
  g_test_add_func ("/cli/archive/rename", test_rename);
  g_test_add_func ("/cli/archive/move", test_move);
  g_test_add_func ("/cli/archive/set", test_set);
  g_test_add_func ("/cli/archive/refused", test_refused);
  g_test_add_func ("/cli/archive/output", test_output);

  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
