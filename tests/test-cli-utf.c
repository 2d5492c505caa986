/* test-cli-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli info, ls, extract and roundtrip on Freelancer UTF files (docs/utf.md), run as a
 * user runs them. The files are a DFM node skeleton and generic trees in the canonical and in
 * non-canonical layouts, from the UTF generator; expected values come from the tree the test
 * built, read back through the model library.
 */
#include "config.h"

#include <string.h>

#include "mshed-utf-generator.h"
#include "mshed-utf.h"
#include "test-cli-util.h"

static MshedUtf *
read_tree (const char *name)
{
  return read_utf_tree (name, MSHED_MODE_STRICT);
}

static void
make_fixtures (void)
{
  MshedUtfDfmParams dp = { 0 };
  MshedUtfGenParams gp = { 0 };
  g_autoptr(MshedUtf) dfm = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) odd = NULL;
  g_autoptr(GError) error = NULL;

  dp.seed = 3;
  dp.head = TRUE;
  dfm = mshed_utf_generate_dfm (&dp);
  bytes = mshed_utf_serialize (dfm, MSHED_UTF_WRITE_CANONICAL, NULL, &error);
  g_assert_no_error (error);
  write_file ("head.dfm", bytes);

  gp.seed = 11;
  gp.n_nodes = 60;
  gp.layout = MSHED_UTF_GEN_GAPS | MSHED_UTF_GEN_NAMES_SLACK | MSHED_UTF_GEN_SHUFFLE_ENTRIES |
              MSHED_UTF_GEN_PAD_JUNK;
  odd = mshed_utf_generate (&gp);
  write_file ("odd.cmp", odd);
}

static void
test_info (void)
{
  Run run = { 0 };
  g_autoptr(MshedUtf) utf = read_tree ("head.dfm");
  g_autofree char *nodes = g_strdup_printf ("%u nodes", mshed_utf_get_n_nodes (utf));

  run_cli (&run, "info", "head.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Container:   UTF version 0x101"));
  g_assert_nonnull (strstr (run.out, nodes));
  g_assert_nonnull (strstr (run.out, "canonical layout"));
  g_assert_nonnull (strstr (run.out, "no errors or warnings"));
  run_clear (&run);

  run_cli (&run, "info", "odd.cmp", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "not in the canonical layout"));
  run_clear (&run);
}

/* every node, in tree order, with its size and the Freelancer CRC of its name */
static void
test_ls (void)
{
  Run run = { 0 };
  g_autoptr(MshedUtf) utf = read_tree ("head.dfm");
  g_auto(GStrv) lines = NULL;
  MshedUtfNode *root = mshed_utf_get_root (utf), *node;
  guint i = 1;

  run_cli (&run, "ls", "head.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  for (node = root; node; node = mshed_utf_node_next_preorder (node, root), i++)
    {
      g_autofree char *path = mshed_utf_node_dup_path (node);
      g_autofree char *crc = g_strdup_printf ("%08X", mshed_utf_node_get_crc (node));

      g_assert_nonnull (lines[i]);
      g_assert_nonnull (strstr (lines[i], path));
      g_assert_nonnull (strstr (lines[i], crc));
      if (!mshed_utf_node_is_directory (node))
        {
          gsize size = 0;
          g_autofree char *text = NULL;

          mshed_utf_node_peek_data (node, &size);
          text = g_strdup_printf ("%10zu  ", size);
          g_assert_true (g_str_has_prefix (lines[i], text));
        }
    }
  g_assert_cmpstr (lines[i], ==, "");
  run_clear (&run);
}

static void
test_extract (void)
{
  Run run = { 0 };
  g_autoptr(MshedUtf) utf = read_tree ("head.dfm");
  MshedUtfNode *root = mshed_utf_get_root (utf), *leaf = root;
  g_autofree char *path = NULL;
  g_autofree char *spec = NULL;
  GBytes *want;
  g_autoptr(GBytes) got = NULL;

  while (leaf && mshed_utf_node_is_directory (leaf))
    leaf = mshed_utf_node_next_preorder (leaf, root);
  g_assert_nonnull (leaf);
  path = mshed_utf_node_dup_path (leaf);
  want = mshed_utf_node_get_data (leaf);

  /* FILE:\path, in another case and with forward slashes */
  spec = g_strdup_printf ("head.dfm:%s", path);
  for (char *p = strchr (spec, ':'); *p; p++)
    *p = *p == '\\' ? '/' : g_ascii_toupper (*p);
  run_cli (&run, "extract", spec, "-o", "leaf.bin", NULL);
  g_assert_cmpint (run.status, ==, 0);
  got = read_file ("leaf.bin");
  g_assert_true (g_bytes_equal (want, got));
  run_clear (&run);

  run_cli (&run, "extract", "head.dfm:\\NoSuchNode", "-o", "x.bin", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "no node"));
  run_clear (&run);
}

static void
test_roundtrip (void)
{
  Run run = { 0 };

  run_cli (&run, "roundtrip", "head.dfm", "odd.cmp", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "head.dfm: OK"));
  g_assert_nonnull (strstr (run.out, "odd.cmp: OK"));
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
  make_fixtures ();

  g_test_add_func ("/cli/utf/info", test_info);
  g_test_add_func ("/cli/utf/ls", test_ls);
  g_test_add_func ("/cli/utf/extract", test_extract);
  g_test_add_func ("/cli/utf/roundtrip", test_roundtrip);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
