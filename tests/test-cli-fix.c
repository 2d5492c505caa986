/* test-cli-fix.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli fix, run as a user runs it, on a generated game folder with planted defects (a
 * loose model, a model in an archive, a deformable model): --plan lists exactly the planted
 * cells; --plan then --apply-plan writes the same bytes as --apply; the files validate clean
 * afterwards and FILE.bak keeps the originals; an edited plan (a line removed) applies the
 * rest; a stale plan is refused and writes nothing.
 */
#include "config.h"

#include <string.h>

#include "test-cli-util.h"

static const char *const files[] = { "a.msh", "b.msh", "sub/pack.rlb", "sub/body.dfm" };

static GBytes *
game_file (const char *dir,
           const char *name)
{
  g_autofree char *path = g_strdup_printf ("%s/%s", dir, name);

  return read_file (path);
}

/* The rows of @table (mshed-cli dump --json). */
static guint
json_rows (const char *file,
           const char *table)
{
  g_auto(Run) run = { 0 };
  g_autoptr(JsonNode) root = NULL;

  run_cli (&run, "dump", file, "--table", table, "--range", "0..0", "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_json (run.out);
  return (guint) json_object_get_int_member (json_node_get_object (root), "rows");
}

static guint
batch_start (const char *file,
             guint       slot)
{
  g_auto(Run) run = { 0 };
  g_autofree char *range = g_strdup_printf ("%u..%u", slot, slot);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *records;

  run_cli (&run, "dump", file, "--table", "slots", "--range", range, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_json (run.out);
  records = json_object_get_array_member (json_node_get_object (root), "records");
  return (guint) json_object_get_int_member (json_array_get_object_element (records, 0),
                                             "batchStart");
}

static void
test_plan_apply (void)
{
  g_auto(Run) run = { 0 };
  g_auto(GStrv) lines = NULL;
  guint n_changes = 0;

  make_planted_game ("p");
  make_planted_game ("q");

  run_cli (&run, "fix", "--plan", "--plan-file", "plan.txt", "p", NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (lines[i][0] != '\0' && lines[i][0] != '#')
      n_changes++;
  g_assert_cmpuint (n_changes, ==, 3);
  /* slot 1's batches clamped to the end of Res13 */
  {
    g_autofree char *line = g_strdup_printf ("p/a.msh\tslots[1].batchCount: 9000 -> %u\t"
                                             "# slot-batch-range\n",
                                             json_rows ("p/a.msh", "batches") -
                                             batch_start ("p/a.msh", 1));

    g_assert_nonnull (strstr (run.out, line));
  }
  g_assert_nonnull (strstr (run.out, "p/sub/pack.rlb:Hangar_1.MSH\tnodes[2].slot5: 60000 -> "
                                     "none\t# node-slot\n"));
  g_assert_nonnull (strstr (run.out, "p/sub/body.dfm\t\\MultiLevel\\Mesh1\\Face_groups\\Count"
                                     "[0].count: 7 -> 1\t# dfm-group-count\n"));
  {
    g_autoptr(GBytes) text = read_file ("plan.txt");

    g_assert_cmpmem (g_bytes_get_data (text, NULL), g_bytes_get_size (text), run.out,
                     strlen (run.out));
  }

  /* the plan, applied later, writes what --apply writes */
  run_cli (&run, "fix", "--apply-plan", "plan.txt", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_cli (&run, "fix", "--apply", "q", NULL);
  g_assert_cmpint (run.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GBytes) p = game_file ("p", files[i]);
      g_autoptr(GBytes) q = game_file ("q", files[i]);

      g_assert_true (g_bytes_equal (p, q));
    }
  /* the fixed files (the folder holds the backups too) */
  run_cli (&run, "validate", "p/a.msh", "p/b.msh", "p/sub/pack.rlb", "p/sub/body.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "0 errors, 0 warnings"));
  g_assert_true (tmp_file_exists ("p/a.msh.bak"));
  g_assert_true (tmp_file_exists ("p/sub/pack.rlb.bak"));
  g_assert_false (tmp_file_exists ("p/b.msh.bak"));  /* nothing to fix: not written */

  /* the plan is stale now: refused, nothing written */
  {
    g_autoptr(GBytes) before = game_file ("p", "a.msh");
    g_autoptr(GBytes) after = NULL;

    run_cli (&run, "fix", "--apply-plan", "plan.txt", NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "p/a.msh: slots[1].batchCount is "));
    g_assert_nonnull (strstr (run.err, ", not 9000 as the plan says"));
    g_assert_nonnull (strstr (run.err, "Nothing was written"));
    after = game_file ("p", "a.msh");
    g_assert_true (g_bytes_equal (before, after));
  }
}

static void
test_edited_plan (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(GString) edited = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GBytes) a_before = NULL;
  g_autoptr(GBytes) a_after = NULL;

  make_planted_game ("r");
  a_before = game_file ("r", "a.msh");
  run_cli (&run, "fix", "r", NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (!g_str_has_prefix (lines[i], "r/a.msh\t"))
      g_string_append_printf (edited, "%s\n", lines[i]);
  g_assert_true (write_text ("edited.txt", edited->str));
  run_cli (&run, "fix", "--apply-plan", "edited.txt", NULL);
  g_assert_cmpint (run.status, ==, 0);
  a_after = game_file ("r", "a.msh");
  g_assert_true (g_bytes_equal (a_before, a_after));
  run_cli (&run, "validate", "r/a.msh", "r/b.msh", "r/sub/pack.rlb", "r/sub/body.dfm", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "r/a.msh: error:"));
  g_assert_nonnull (strstr (run.out, "1 error, 0 warnings"));

  /* malformed plans and bad usage: exit 2 */
  g_assert_true (write_text ("bad.txt", "r/a.msh\tslots[1]batchCount 3\n"));
  run_cli (&run, "fix", "--apply-plan", "bad.txt", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "bad.txt"));
  g_assert_nonnull (strstr (run.err, "line 1"));
  run_cli (&run, "fix", "--plan", "--apply", "r", NULL);
  g_assert_cmpint (run.status, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;

  g_test_add_func ("/cli/fix/plan-apply", test_plan_apply);
  g_test_add_func ("/cli/fix/edited-plan", test_edited_plan);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
