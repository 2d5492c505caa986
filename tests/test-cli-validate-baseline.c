/* test-cli-validate-baseline.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli validate --write-baseline / --baseline (README, "Baselines"), run as a user runs
 * it: a generated game folder (loose models, an archive, a deformable model) with planted
 * defects; the baseline records exactly them, hides them on the next run (also from another
 * copy of the folder: the file names are relative to the PATH argument), and a defect planted
 * afterwards is the only one reported, with exit status 1. Baselines of another version and
 * malformed JSON are refused with exit status 2. The defects are planted with `mshed-cli edit`
 * at hand-picked cells, and the expected findings come from those cells.
 */
#include "config.h"

#include <string.h>

#include "test-cli-util.h"

static JsonObject *
object_at (JsonArray *array,
           guint      i)
{
  return json_array_get_object_element (array, i);
}

static void
test_baseline (void)
{
  g_autoptr(JsonNode) base = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GBytes) text = NULL;
  Run run = { 0 };
  JsonArray *findings, *diags;
  JsonObject *f, *summary;
  guint n_errors = 0;

  make_planted_game ("game");

  /* without a baseline: the two planted errors, exit 1 */
  run_cli (&run, "validate", "game", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "2 errors"));
  run_clear (&run);

  /* --write-baseline records every finding and exits 0 */
  run_cli (&run, "validate", "--write-baseline", "base.json", "game", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  text = read_file ("base.json");
  base = parse_json (g_bytes_get_data (text, NULL));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (base), "mshed-baseline"),
                   ==, 1);
  findings = json_object_get_array_member (json_node_get_object (base), "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    {
      f = object_at (findings, i);
      g_assert_false (json_object_has_member (f, "offset"));
      if (strcmp (json_object_get_string_member (f, "severity"), "error") != 0)
        continue;
      n_errors++;
      if (strcmp (json_object_get_string_member (f, "file"), "a.msh") == 0)
        {
          g_assert_true (json_object_get_null_member (f, "entry"));
          g_assert_cmpstr (json_object_get_string_member (f, "check"), ==, "slot-batch-range");
          g_assert_cmpint (json_object_get_int_member (f, "res_type"), ==, 2);
          g_assert_cmpstr (json_object_get_string_member (f, "table"), ==, "slots");
          g_assert_cmpint (json_object_get_int_member (f, "record"), ==, 1);
        }
      else
        {
          g_assert_cmpstr (json_object_get_string_member (f, "file"), ==, "sub/pack.rlb");
          g_assert_cmpstr (json_object_get_string_member (f, "entry"), ==, "Hangar_1.MSH");
          g_assert_cmpstr (json_object_get_string_member (f, "check"), ==, "node-slot");
          g_assert_cmpstr (json_object_get_string_member (f, "table"), ==, "nodes");
          g_assert_cmpint (json_object_get_int_member (f, "record"), ==, 2);
          g_assert_cmpstr (json_object_get_string_member (f, "field"), ==, "slot5");
        }
    }
  g_assert_cmpuint (n_errors, ==, 2);

  /* with it: nothing new, exit 0, the known ones counted */
  run_cli (&run, "validate", "--baseline", "base.json", "game", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "0 errors"));
  g_assert_null (strstr (run.out, "error:"));
  run_clear (&run);

  /* a copy of the folder elsewhere, named with a trailing separator: the same findings */
  make_planted_game ("copy/game2");
  run_cli (&run, "validate", "--baseline", "base.json", "copy/game2/", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "error:"));
  run_clear (&run);

  /* one new defect in another file: exactly it is reported, exit 1 */
  run_cli_plant ("game/b.msh", "nodes[0].slot0=7000");
  run_cli (&run, "validate", "--baseline", "base.json", "game", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "game/b.msh: error: Res1 node 0, field slot0"));
  g_assert_null (strstr (run.out, "a.msh"));
  g_assert_null (strstr (run.out, "pack.rlb"));
  g_assert_nonnull (strstr (run.out, "1 error,"));
  run_clear (&run);

  /* the same in --json: one diagnostic, the hidden ones counted in the summary */
  run_cli (&run, "validate", "--json", "--baseline", "base.json", "game", NULL);
  g_assert_cmpint (run.status, ==, 1);
  report = parse_json (run.out);
  diags = json_object_get_array_member (json_node_get_object (report), "diagnostics");
  summary = json_object_get_object_member (json_node_get_object (report), "summary");
  g_assert_cmpuint (json_array_get_length (diags), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (object_at (diags, 0), "check"), ==,
                   "node-slot");
  g_assert_cmpint (json_object_get_int_member (summary, "errors"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "known"), ==,
                   json_array_get_length (findings));
  run_clear (&run);
}

static void
test_baseline_refused (void)
{
  static const struct {
    const char *text;
    const char *message;
  } cases[] = {
    { "{ \"mshed-baseline\" : 2, \"findings\" : [] }", "version 2 is not supported" },
    { "{ \"mshed-baseline\" : 1, \"findings\" : [ }", "line 1:" },
    { "{ \"findings\" : [] }", "not an mshed baseline" },
    { "{ \"mshed-baseline\" : 1, \"findings\" : [ { \"file\" : 3 } ] }", "finding 0" },
    { "[1, 2]", "not an mshed baseline" },
  };
  Run run = { 0 };

  run_cli_ok ("generate", "-q", "-o", "clean.msh", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (write_text ("refused.json", cases[i].text));
      run_cli (&run, "validate", "--baseline", "refused.json", "clean.msh", NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, "refused.json"));
      g_assert_nonnull (strstr (run.err, cases[i].message));
      run_clear (&run);
    }
  run_cli (&run, "validate", "--baseline", "missing.json", "clean.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;

  g_test_add_func ("/cli/validate/baseline/new-only", test_baseline);
  g_test_add_func ("/cli/validate/baseline/refused", test_baseline_refused);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
