/* test-cli-convert.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli convert: generated deformable models to MSH in both modes (with the WEAR table
 * beside the output) and models to DFM, each result clean under `validate`; the printed and
 * the JSON loss report; the WEAR table found beside an input model; and every refusal with
 * its exit status and with nothing written.
 */
#include "config.h"

#include <string.h>

#include "test-cli-util.h"

static void
test_convert_dfm (void)
{
  static const char *const kinds[] = { "head", "body", "hand", "four-level" };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *dfm = g_strdup_printf ("%s.dfm", kinds[k]);
      g_autofree char *stat = g_strdup_printf ("%s-static.msh", kinds[k]);
      g_autofree char *stat_wear = g_strdup_printf ("%s-static.wea", kinds[k]);
      g_autofree char *rigid = g_strdup_printf ("%s-rigid.MSH", kinds[k]);
      g_autofree char *rigid_wear = g_strdup_printf ("%s-rigid.WEA", kinds[k]);
      g_autofree char *back = g_strdup_printf ("%s-back.dfm", kinds[k]);
      g_auto(Run) run = { 0 };

      run_cli_ok ("generate", "-q", "-s", "4", "--dfm", kinds[k], "-o", dfm, NULL);
      run_cli (&run, "convert", dfm, stat, NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "Not carried over:"));
      g_assert_nonnull (strstr (run.out, "bones with their skin weights"));
      g_assert_nonnull (strstr (run.out, "Triangles keep the DFM's winding and axes"));
      assert_validates_clean (stat);
      g_assert_true (tmp_file_exists (stat) && tmp_file_exists (stat_wear));
      run_clear (&run);
      run_cli (&run, "convert", "--mode", "rigid", dfm, rigid, NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "points with 2 to 4 influences"));
      g_assert_null (strstr (run.out, "bones with their skin weights"));
      assert_validates_clean (rigid);
      g_assert_true (tmp_file_exists (rigid_wear));
      /* and back: the rigid model with the WEAR table beside it */
      run_clear (&run);
      run_cli (&run, "convert", rigid, back, NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_null (strstr (run.out, "materials without a WEAR name"));
      assert_validates_clean (back);
    }
}

static void
test_convert_msh (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(MshedUtf) utf = NULL;
  MshedUtfNode *group;
  gsize size;
  const guint8 *name;

  run_cli_ok ("generate", "-q", "-s", "3", "-t", "800", "-a", "--res18", "--cyrillic",
              "-o", "anim.msh", NULL);
  run_cli (&run, "convert", "anim.msh", "anim.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "anim.dfm: "));
  g_assert_nonnull (strstr (run.out, "animated nodes: their key tracks"));
  g_assert_nonnull (strstr (run.out, "materials without a WEAR name, named material_<row>"));
  assert_validates_clean ("anim.dfm");
  utf = read_utf_tree ("anim.dfm", MSHED_MODE_STRICT);
  group = mshed_utf_lookup (utf, "\\MultiLevel\\Mesh0\\Face_groups\\Group0\\Material_name");
  g_assert_nonnull (group);
  name = mshed_utf_node_peek_data (group, &size);
  g_assert_true (size > 9 && memcmp (name, "material_", 9) == 0);

  /* --wear names the materials */
  g_assert_true (write_text ("anim.txt", "16\r\n0 steel\r\n1 glass\r\n2 rust\r\n3 a\r\n"
                             "4 b\r\n5 c\r\n6 d\r\n7 e\r\n8 f\r\n9 g\r\n10 h\r\n11 i\r\n"
                             "12 j\r\n13 k\r\n14 l\r\n15 m\r\n"));
  run_clear (&run);
  run_cli (&run, "convert", "--wear", "anim.txt", "anim.msh", "anim2.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "materials without a WEAR name"));
  assert_validates_clean ("anim2.dfm");
}

static void
test_convert_json (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o;
  JsonArray *lost;
  gboolean fractions = FALSE;

  run_cli_ok ("generate", "-q", "-s", "8", "--dfm", "head", "-o", "j.dfm", NULL);
  run_cli (&run, "convert", "--json", "--mode", "rigid", "j.dfm", "j.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  check_json_with_python (run.out);
  root = parse_json (run.out);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "output"), ==, "j.msh");
  g_assert_cmpstr (json_object_get_string_member (o, "wear"), ==, "j.wea");
  g_assert_cmpint (json_object_get_int_member (o, "levels"), ==, 3);
  lost = json_object_get_array_member (o, "lost");
  for (guint i = 0; i < json_array_get_length (lost); i++)
    {
      JsonObject *l = json_array_get_object_element (lost, i);

      if (g_strcmp0 (json_object_get_string_member (l, "id"), "fractions") == 0)
        {
          g_assert_cmpint (json_object_get_int_member (l, "count"), ==, 6);
          fractions = TRUE;
        }
    }
  g_assert_true (fractions);
}

/* The entry of @type in @nres; fails the test when there is none. */
static const MshedNresEntry *
entry_of (MshedNres *nres,
          guint32    type)
{
  gint i = mshed_nres_find_type (nres, type);

  g_assert_cmpint (i, >=, 0);
  return mshed_nres_peek_entry (nres, (guint) i);
}

static void
assert_same_payload (MshedNres *a,
                     MshedNres *b,
                     guint32    type)
{
  gsize size_a = 0, size_b = 0;
  const guint8 *da = mshed_nres_entry_get_data (entry_of (a, type), &size_a);
  const guint8 *db = mshed_nres_entry_get_data (entry_of (b, type), &size_b);

  g_assert_cmpmem (da, size_a, db, size_b);
  g_assert_cmpuint (entry_of (a, type)->attr1, ==, entry_of (b, type)->attr1);
  g_assert_cmpuint (entry_of (a, type)->attr3, ==, entry_of (b, type)->attr3);
}

static MshedNres *
parse_msh (const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);

  return mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
}

/* @size bytes at @offset of every @stride record after @header of resource @type in @out
 * equal those of the first record in @templ. */
static void
assert_fields_from (MshedNres *out,
                    MshedNres *templ,
                    guint32    type,
                    gsize      header,
                    gsize      stride,
                    gsize      offset,
                    gsize      size)
{
  gsize n = 0, nt = 0;
  const guint8 *d = mshed_nres_entry_get_data (entry_of (out, type), &n);
  const guint8 *t = mshed_nres_entry_get_data (entry_of (templ, type), &nt);

  g_assert_cmpuint (n, >, header);
  for (gsize at = header; at + stride <= n; at += stride)
    g_assert_cmpmem (d + at + offset, size, t + header + offset, size);
}

static void
test_convert_template (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(MshedNres) templ = NULL, out = NULL, again = NULL;
  gsize size = 0;
  const guint8 *res15, *first;
  guint n_vertices;

  run_cli_ok ("generate", "-q", "-s", "5", "--dfm", "head", "-o", "t.dfm", NULL);
  run_cli_ok ("generate", "-q", "-s", "6", "-t", "300", "--res17", "-o", "tpl.msh", NULL);
  /* without a template: Res9, Res15 and Res17 are reported missing */
  run_cli (&run, "convert", "t.dfm", "plain.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "3  resources Res9, Res15 and Res17 that every retail "
                                     "model has (no template model given: --template)"));
  run_clear (&run);
  run_cli (&run, "convert", "t.dfm", "tpl-out.msh", "--template", "tpl.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "no template model given"));
  g_assert_nonnull (strstr (run.out, "Res15 records not the template's own"));
  assert_validates_clean ("tpl-out.msh");
  templ = parse_msh ("tpl.msh");
  out = parse_msh ("tpl-out.msh");
  g_assert_nonnull (templ);
  g_assert_nonnull (out);
  assert_same_payload (out, templ, 9);
  assert_same_payload (out, templ, 17);
  g_assert_cmpuint (mshed_nres_entry_get_size (entry_of (templ, 17)), >, 0);
  /* retail order: Res15 before Res13, Res9 before Res10, Res17 last */
  g_assert_cmpint (mshed_nres_find_type (out, 15) + 1, ==, mshed_nres_find_type (out, 13));
  g_assert_cmpint (mshed_nres_find_type (out, 9) + 1, ==, mshed_nres_find_type (out, 10));
  g_assert_cmpint (mshed_nres_find_type (out, 17) + 1, ==, (gint) mshed_nres_get_n_entries (out));
  /* Res15: one record per vertex, each the template's first (the counts differ) */
  n_vertices = entry_of (out, 3)->attr1;
  g_assert_cmpuint (n_vertices, !=, entry_of (templ, 15)->attr1);
  g_assert_cmpuint (entry_of (out, 15)->attr1, ==, n_vertices);
  res15 = mshed_nres_entry_get_data (entry_of (out, 15), &size);
  first = mshed_nres_entry_get_data (entry_of (templ, 15), NULL);
  g_assert_cmpuint (size, ==, 8 * (gsize) n_vertices);
  for (guint v = 0; v < n_vertices; v++)
    g_assert_cmpmem (res15 + 8 * (gsize) v, 8, first, 8);
  /* hdr0, slot tail words, batch unknowns, triFlags and selPacked: the template's first */
  assert_fields_from (out, templ, 1, 0, 38, 0, 2);
  assert_fields_from (out, templ, 2, 140, 68, 48, 20);
  assert_fields_from (out, templ, 13, 0, 20, 0, 2);
  assert_fields_from (out, templ, 13, 0, 20, 4, 4);
  assert_fields_from (out, templ, 13, 0, 20, 14, 2);
  assert_fields_from (out, templ, 7, 0, 16, 0, 2);
  assert_fields_from (out, templ, 7, 0, 16, 14, 2);
  /* a template of the same vertex count gives its Res15 as it is */
  run_clear (&run);
  run_cli (&run, "convert", "t.dfm", "again.msh", "--template", "tpl-out.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "Res15 records"));
  again = parse_msh ("again.msh");
  assert_same_payload (again, out, 15);
  /* refusals: a template for MSH input, a template that is no model */
  run_clear (&run);
  run_cli (&run, "convert", "tpl.msh", "x.dfm", "--template", "tpl.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--template is for deformable model input"));
  run_clear (&run);
  run_cli (&run, "convert", "t.dfm", "x.msh", "--template", "t.dfm", NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_false (tmp_file_exists ("x.msh"));
}

static void
test_convert_refusals (void)
{
  g_auto(Run) run = { 0 };
  static const guint8 broken[] = { 'U', 'T', 'F', ' ', 1, 1, 0, 0 };
  g_autoptr(GBytes) broken_bytes = g_bytes_new_static (broken, sizeof broken);

  run_cli_ok ("generate", "-q", "-s", "2", "--dfm", "hand", "-o", "r.dfm", NULL);
  run_cli_ok ("generate", "-q", "-s", "2", "-t", "200", "-o", "r.msh", NULL);
  /* usage: exit 2 */
  run_cli (&run, "convert", "r.dfm", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
  run_cli (&run, "convert", "--mode", "posed", "r.dfm", "x.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "unknown --mode “posed”"));
  run_clear (&run);
  run_cli (&run, "convert", "--mode", "rigid", "r.msh", "x.dfm", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--mode is for deformable model input"));
  run_clear (&run);
  run_cli (&run, "convert", "--wear", "w.wea", "r.dfm", "x.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
  run_cli (&run, "convert", "r.dfm", "r.dfm", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "is the input"));
  run_clear (&run);
  run_cli (&run, "convert", "missing.dfm", "x.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  /* a broken deformable model: exit 1, nothing written */
  write_file ("broken.dfm", broken_bytes);
  run_clear (&run);
  run_cli (&run, "convert", "broken.dfm", "x.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "broken.dfm"));
  /* a model too large for 16-bit face indices: exit 1, nothing written */
  run_cli_ok ("generate", "-q", "-s", "2", "-t", "200000", "-n", "1", "-o", "big.msh", NULL);
  run_clear (&run);
  run_cli (&run, "convert", "big.msh", "x.dfm", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "LOD 0 uses more than 65,536 vertices; a DFM face index "
                                     "is 16-bit"));
  g_assert_false (tmp_file_exists ("x.dfm"));
  g_assert_false (tmp_file_exists ("x.msh"));
  g_assert_false (tmp_file_exists ("x.wea"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 1;
  run_set_timeout (120);
  g_test_add_func ("/convert/dfm", test_convert_dfm);
  g_test_add_func ("/convert/msh", test_convert_msh);
  g_test_add_func ("/convert/json", test_convert_json);
  g_test_add_func ("/convert/template", test_convert_template);
  g_test_add_func ("/convert/refusals", test_convert_refusals);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
