/* test-cli-diff.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli diff and merge (docs/diff.md), run as a user runs them: exit statuses 0/1/2, the
 * text and JSON output of known edits, --tolerance, --table, --summary, archives and
 * ARCHIVE:ENTRY, deformable models, and merge with and without conflicts. The edited files are
 * made here through MshedDocument; expected values come from those edits.
 */
#include "config.h"

#include <string.h>

#include "mshed-dfm-generator.h"
#include "mshed-document.h"
#include "mshed-generator.h"
#include "test-cli-util.h"

static GBytes *base_bytes;

static MshedDocument *
base_doc (void)
{
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (base_bytes, MSHED_MODE_STRICT, NULL,
                                                            NULL);

  g_assert_nonnull (model);
  return mshed_document_new_for_model (model, MSHED_MODE_STRICT);
}

static void
write_doc (MshedDocument *doc,
           const char    *name)
{
  g_autoptr(GBytes) bytes = mshed_document_serialize (doc);

  write_file (name, bytes);
}

static void
set_field (MshedDocument *doc,
           MshedTableId   table,
           guint          row,
           const char    *field,
           double         value)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_document_set_field (doc, table, row, field, value, &error));
  g_assert_no_error (error);
}

/* The text of slots[2].unk30 in the base model. */
static char *
base_unk30 (void)
{
  g_autoptr(MshedDocument) doc = base_doc ();
  const MshedField *f = mshed_schema_find_field (mshed_schema_get_table (MSHED_TABLE_SLOTS),
                                                 "unk30");

  return mshed_field_format (f, mshed_model_get_record (mshed_document_get_model (doc),
                                                        MSHED_TABLE_SLOTS, 2));
}

static void
make_files (void)
{
  g_autoptr(MshedDocument) b = base_doc ();
  g_autoptr(MshedDocument) mine = base_doc ();
  g_autoptr(MshedDocument) theirs = base_doc ();
  g_autoptr(MshedDocument) both = base_doc ();
  g_autoptr(MshedDocument) other = base_doc ();
  g_autoptr(MshedDocument) moved = base_doc ();
  float p[3];

  write_file ("a.msh", base_bytes);
  set_field (b, MSHED_TABLE_SLOTS, 2, "unk30", 0x5A5A);
  write_doc (b, "b.msh");
  set_field (mine, MSHED_TABLE_SLOTS, 2, "unk30", 0x5A5A);
  write_doc (mine, "mine.msh");
  set_field (theirs, MSHED_TABLE_BATCHES, 1, "unk4", 5);
  write_doc (theirs, "theirs.msh");
  set_field (both, MSHED_TABLE_SLOTS, 2, "unk30", 0x5A5A);
  set_field (both, MSHED_TABLE_BATCHES, 1, "unk4", 5);
  write_doc (both, "both.msh");
  set_field (other, MSHED_TABLE_SLOTS, 2, "unk30", 0x6B6B);
  write_doc (other, "other.msh");
  {
    g_autoptr(MshedDocument) broken = base_doc ();
    g_autoptr(GError) error = NULL;
    gint res3 = mshed_model_find_resource (mshed_document_get_model (broken), 3);

    g_assert_true (mshed_document_remove_resource (broken, (guint) res3, &error));
    g_assert_no_error (error);
    write_doc (broken, "broken.msh");
  }
  g_assert_true (mshed_model_get_position (mshed_document_get_model (moved), 4, p));
  set_field (moved, MSHED_TABLE_POSITIONS, 4, "z", (float) (p[2] + 0.01f));
  write_doc (moved, "moved.msh");
}

static void
test_exit_status (void)
{
  g_autofree char *old = base_unk30 ();
  g_autofree char *want = g_strdup_printf ("slots[2].unk30: %s → 0x00005A5A\n"
                                           "slots: 1\n1 difference\n", old);
  Run run = { 0 };

  run_cli (&run, "diff", "a.msh", "a.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "");
  run_clear (&run);

  run_cli (&run, "diff", "a.msh", "b.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, want);
  run_clear (&run);

  run_cli (&run, "diff", "--summary", "a.msh", "b.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "slots: 1\n1 difference\n");
  run_clear (&run);

  run_cli (&run, "diff", "--table", "batches", "a.msh", "b.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);

  run_cli (&run, "diff", "a.msh", "missing.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "missing.msh"));
  run_clear (&run);

  run_cli (&run, "diff", "a.msh", ".", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);

  run_cli (&run, "diff", "--tolerance", "-1", "a.msh", "b.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);

  run_cli (&run, "diff", "--table", "nosuch", "a.msh", "b.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);

  run_cli (&run, "diff", "a.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
}

static void
test_json (void)
{
  g_autofree char *old = base_unk30 ();
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o, *item;
  JsonArray *items;
  Run run = { 0 };

  run_cli (&run, "diff", "--json", "a.msh", "b.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  check_json_with_python (run.out);
  root = parse_json (run.out);
  o = json_node_get_object (root);
  g_assert_false (json_object_get_boolean_member (o, "equal"));
  g_assert_cmpint (json_object_get_int_member (o, "total"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "summary"),
                                               "slots"), ==, 1);
  items = json_object_get_array_member (o, "differences");
  g_assert_cmpuint (json_array_get_length (items), ==, 1);
  item = json_array_get_object_element (items, 0);
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "field");
  g_assert_cmpstr (json_object_get_string_member (item, "table"), ==, "slots");
  g_assert_cmpint (json_object_get_int_member (item, "row_a"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (item, "field"), ==, "unk30");
  g_assert_cmpstr (json_object_get_string_member (item, "old"), ==, old);
  g_assert_cmpstr (json_object_get_string_member (item, "new"), ==, "0x00005A5A");
  g_assert_cmpint (json_object_get_int_member (item, "type"), ==, 2);
  /* slot 2 starts after the 140-byte header and two 68-byte slots; unk30 is at +0x30 */
  g_assert_cmpint (json_object_get_int_member (item, "offset"), ==, 140 + 2 * 68 + 0x30);
  run_clear (&run);
}

static void
test_tolerance (void)
{
  Run run = { 0 };

  run_cli (&run, "diff", "--tolerance", "0.1", "a.msh", "moved.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  run_cli (&run, "diff", "--tolerance", "0.001", "a.msh", "moved.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "vertices[4].z: "));
  g_assert_nonnull (strstr (run.out, "vertices: 1 vertex moved"));
  run_clear (&run);
}

static void
test_archives (void)
{
  g_autoptr(GBytes) a = mshed_generate_archive_bytes (6, 3, 300);
  g_autoptr(GBytes) b = mshed_generate_archive_bytes (6, 4, 300);
  g_autoptr(MshedNres) na = mshed_nres_parse (a, MSHED_MODE_TOLERANT, NULL, NULL);
  g_autoptr(MshedNres) nb = mshed_nres_parse (b, MSHED_MODE_TOLERANT, NULL, NULL);
  g_autofree char *first = NULL, *spec_a = NULL, *spec_b = NULL;
  guint added = 0;
  Run run = { 0 };

  write_file ("a.lib", a);
  write_file ("b.lib", b);
  /* the larger archive holds the smaller one's entries and more */
  for (guint i = 0; i < mshed_nres_get_n_entries (nb); i++)
    {
      g_autofree char *name = mshed_nres_entry_dup_name (mshed_nres_peek_entry (nb, i));

      if (mshed_nres_lookup_name (na, name) < 0)
        added++;
    }
  g_assert_cmpuint (added, >, 0);
  run_cli (&run, "diff", "--json", "a.lib", "b.lib", NULL);
  g_assert_cmpint (run.status, ==, 1);
  {
    g_autoptr(JsonNode) root = parse_json (run.out);
    JsonObject *o = json_node_get_object (root);
    JsonArray *items = json_object_get_array_member (o, "differences");

    g_assert_cmpuint (json_array_get_length (items), ==, added);
    for (guint i = 0; i < added; i++)
      {
        JsonObject *item = json_array_get_object_element (items, i);

        g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "added");
        g_assert_cmpint (mshed_nres_lookup_name (nb, json_object_get_string_member (item,
                                                                                   "entry")),
                         >=, 0);
      }
  }
  run_clear (&run);
  run_cli (&run, "diff", "b.lib", "a.lib", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, ": removed\n"));
  run_clear (&run);

  first = mshed_nres_entry_dup_name (mshed_nres_peek_entry (na, 0));
  spec_a = g_strdup_printf ("a.lib:%s", first);
  spec_b = g_strdup_printf ("b.lib:%s", first);
  run_cli (&run, "diff", spec_a, spec_b, NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  run_cli (&run, "diff", spec_a, "b.lib", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
}

static void
test_dfm (void)
{
  MshedDfmGenParams p;
  g_autoptr(GBytes) a = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GBytes) b = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { 0 };

  mshed_dfm_gen_params_init (&p, MSHED_DFM_GEN_HAND, 3);
  a = mshed_dfm_generate_bytes (&p);
  write_file ("a.dfm", a);
  utf = mshed_utf_parse (a, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  doc = mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
  g_assert_true (mshed_document_dfm_set_field (doc, mshed_utf_lookup (utf, "\\Cmpnd\\Scale"),
                                               0, "scale", "1.5", &error));
  g_assert_no_error (error);
  b = mshed_document_serialize (doc);
  write_file ("b.dfm", b);
  run_cli (&run, "diff", "a.dfm", "a.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  run_cli (&run, "diff", "a.dfm", "b.dfm", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "\\Cmpnd\\Scale[0].scale: 1 → 1.5\nscale: 1\n1 difference\n");
  run_clear (&run);
  run_cli (&run, "diff", "a.dfm", "a.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
}

static void
test_merge (void)
{
  g_autofree char *old = base_unk30 ();
  g_autofree char *conflict = g_strdup_printf ("conflict: slots[2].unk30: base %s, mine "
                                               "0x00005A5A, theirs 0x00006B6B\n", old);
  g_autoptr(GBytes) want = read_file ("both.msh");
  g_autoptr(GBytes) a_before = read_file ("a.msh");
  Run run = { 0 };

  run_cli (&run, "merge", "a.msh", "mine.msh", "theirs.msh", "-o", "merged.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  {
    g_autoptr(GBytes) got = read_file ("merged.msh");

    g_assert_true (g_bytes_equal (got, want));
  }

  run_cli (&run, "merge", "a.msh", "mine.msh", "other.msh", "-o", "c.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, conflict);
  g_assert_false (tmp_file_exists ("c.msh"));
  run_clear (&run);

  run_cli (&run, "merge", "a.msh", "mine.msh", "other.msh", "-o", "c.msh", "--prefer",
           "theirs", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  {
    g_autoptr(GBytes) got = read_file ("c.msh");
    g_autoptr(GBytes) other = read_file ("other.msh");

    g_assert_true (g_bytes_equal (got, other));
  }

  run_cli (&run, "merge", "a.msh", "mine.msh", "theirs.msh", "-o", "a.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
  {
    g_autoptr(GBytes) after = read_file ("a.msh");

    g_assert_true (g_bytes_equal (after, a_before));
  }
  run_cli (&run, "merge", "a.msh", "mine.msh", "theirs.msh", "-o", "a.msh", "--force", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  {
    g_autoptr(GBytes) after = read_file ("a.msh");

    g_assert_true (g_bytes_equal (after, want));
  }
  write_file ("a.msh", a_before);

  /* a result that fails strict validation (mine removed Res3) is not written */
  run_cli (&run, "merge", "a.msh", "broken.msh", "theirs.msh", "-o", "bad.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "bad.msh"));
  g_assert_false (tmp_file_exists ("bad.msh"));
  run_clear (&run);

  run_cli (&run, "merge", "a.msh", "mine.msh", "-o", "x.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
  run_cli (&run, "merge", "a.msh", "mine.msh", "missing.msh", "-o", "x.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
  run_cli (&run, "merge", "a.msh", "mine.msh", "theirs.msh", "-o", "x.msh", "--prefer", "both",
           NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
}

int
main (int    argc,
      char **argv)
{
  MshedGenParams p;
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;
  mshed_gen_params_init (&p, 21);
  p.n_triangles = 800;
  p.n_nodes = 5;
  base_bytes = mshed_generate_model_bytes (&p);
  make_files ();

  g_test_add_func ("/cli/diff/exit-status", test_exit_status);
  g_test_add_func ("/cli/diff/json", test_json);
  g_test_add_func ("/cli/diff/tolerance", test_tolerance);
  g_test_add_func ("/cli/diff/archives", test_archives);
  g_test_add_func ("/cli/diff/dfm", test_dfm);
  g_test_add_func ("/cli/diff/merge", test_merge);
  status = g_test_run ();
  cli_test_finish (status);
  g_bytes_unref (base_bytes);
  return status;
}
