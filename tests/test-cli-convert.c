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
  g_test_add_func ("/convert/refusals", test_convert_refusals);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
