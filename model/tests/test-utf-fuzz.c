/* test-utf-fuzz.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hostile UTF input (docs/utf.md §9): every truncation, thousands of bit flips, inflated
 * header and entry fields, and every possible sibling/child link (cycles, overlapping and
 * misaligned entries) over generated files, in strict and tolerant mode. Nothing may crash,
 * hang or read out of bounds (CI runs this under ASan/UBSan); a load either fails with a
 * GError or gives a tree that can be walked, looked up, edited and written, and what is written
 * reads back in tolerant mode. The read-only parse (mshed_utf_parse_readonly) of every input
 * gives the same findings, error and tree. Set MSHED_FUZZ_ITERATIONS to run longer.
 */
#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-utf-generator.h"
#include "mshed-utf.h"
#include "utf-same-util.h"

static guint64 sink;

typedef struct {
  guint failed;
  guint loaded;
} Stats;

static guint64
rnd (guint64 *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* reads everything a view would read */
static void
walk (MshedUtf *utf)
{
  MshedUtfNode *root = mshed_utf_get_root (utf);

  for (MshedUtfNode *n = root; n; n = mshed_utf_node_next_preorder (n, root))
    {
      g_autofree char *path = mshed_utf_node_dup_path (n);
      gsize size;
      const guint8 *data = mshed_utf_node_peek_data (n, &size);
      MshedUtfEntry e;

      sink += mshed_utf_node_get_crc (n) + strlen (path) + mshed_utf_node_get_n_children (n);
      if (size)
        sink += data[0] + data[size - 1];
      if (mshed_utf_node_get_source_entry (utf, n, NULL, &e))
        sink += e.child_offset;
      if (mshed_utf_node_get_parent (n))
        sink += mshed_utf_node_lookup (mshed_utf_node_get_parent (n),
                                       mshed_utf_node_get_name (n)) != NULL;
    }
}

/* a file that loaded: walk it, write it unchanged and after an edit, read the results */
static void
exercise (MshedUtf *utf,
          GBytes   *in)
{
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *first = mshed_utf_node_get_first_child (root);
  g_autoptr(GBytes) same = NULL;
  g_autoptr(GBytes) canonical = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GError) error = NULL;

  walk (utf);
  same = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
  g_assert_true (g_bytes_equal (same, in));

  canonical = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
  if (canonical)
    {
      g_autoptr(MshedUtf) back = mshed_utf_parse (canonical, MSHED_MODE_TOLERANT, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (mshed_utf_get_n_nodes (back), ==, mshed_utf_get_n_nodes (utf));
    }

  if (first)
    {
      g_autoptr(GBytes) data = g_bytes_new ("fuzz", 4);
      g_autofree char *old = mshed_utf_rename (utf, first, "renamed by the fuzzer");

      if (!mshed_utf_node_is_directory (first))
        g_bytes_unref (mshed_utf_set_data (utf, first, data));
      else
        mshed_utf_insert_child (utf, first, 0, mshed_utf_node_new_file (utf, "extra", data), NULL);
      edited = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
      if (edited)
        {
          g_autoptr(MshedUtf) back = mshed_utf_parse (edited, MSHED_MODE_TOLERANT, NULL, &error);

          g_assert_no_error (error);
          g_assert_cmpuint (mshed_utf_get_n_nodes (back), ==, mshed_utf_get_n_nodes (utf));
          g_assert_nonnull (mshed_utf_lookup (back, "renamed by the fuzzer"));
        }
    }
}

/* the read-only parse of @in in @mode against the full one (@utf, @diags, @error) */
static void
check_readonly (GBytes                 *in,
                MshedMode               mode,
                MshedUtf               *utf,
                const MshedDiagnostics *diags,
                const GError           *error)
{
  g_autoptr(GError) ro_error = NULL;
  g_autoptr(MshedDiagnostics) ro_diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) ro = mshed_utf_parse_readonly (in, mode, ro_diags, &ro_error);
  g_autoptr(GBytes) same = NULL;

  t_assert_same_diagnostics (diags, ro_diags);
  if (utf == NULL)
    {
      g_assert_null (ro);
      g_assert_error (ro_error, error->domain, error->code);
      g_assert_cmpstr (ro_error->message, ==, error->message);
      return;
    }
  g_assert_no_error (ro_error);
  t_assert_same_tree (utf, ro);
  walk (ro);
  same = mshed_utf_serialize (ro, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
  g_assert_true (g_bytes_equal (same, in));
}

static void
try_parse (GBytes *in,
           Stats  *stats)
{
  for (MshedMode mode = MSHED_MODE_STRICT; mode <= MSHED_MODE_TOLERANT; mode++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedUtf) utf = mshed_utf_parse (in, mode, diags, &error);

      check_readonly (in, mode, utf, diags, error);
      if (utf == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == MSHED_MODEL_ERROR);
          g_assert_cmpuint (diags->n_errors, >=, 1);
          stats->failed++;
          continue;
        }
      g_assert_no_error (error);
      if (mode == MSHED_MODE_STRICT)
        g_assert_cmpuint (diags->n_errors, ==, 0);
      for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
        g_assert_true (g_utf8_validate (mshed_diagnostics_get (diags, i)->message, -1, NULL));
      stats->loaded++;
      exercise (utf, in);
    }
}

static GPtrArray *
corpus (void)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  static const MshedUtfGenLayout layouts[] = {
    0, MSHED_UTF_GEN_ALL_LAYOUTS, MSHED_UTF_GEN_NAMES_FIRST | MSHED_UTF_GEN_SHUFFLE_ENTRIES,
    MSHED_UTF_GEN_SHARE_PAYLOADS | MSHED_UTF_GEN_EXACT_ALLOC | MSHED_UTF_GEN_DATA_FIRST,
  };

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      MshedUtfGenParams params = { 900 + i, 12 + 3 * i, 4, 24, i == 1, layouts[i] };

      g_ptr_array_add (files, mshed_utf_generate (&params));
    }
  {
    MshedUtfDfmParams p = { 5, 4, 4, 1, 8, 1, TRUE, FALSE };
    g_autoptr(MshedUtf) dfm = mshed_utf_generate_dfm (&p);

    g_ptr_array_add (files, mshed_utf_serialize (dfm, MSHED_UTF_WRITE_CANONICAL, NULL, NULL));
  }
  return files;
}

static void
test_truncated (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  Stats stats = { 0 };

  for (guint f = 0; f < files->len; f++)
    {
      GBytes *file = g_ptr_array_index (files, f);
      gsize len = g_bytes_get_size (file);

      for (gsize cut = 0; cut < len; cut++)
        {
          g_autoptr(GBytes) in = g_bytes_new_from_bytes (file, 0, cut);

          try_parse (in, &stats);
        }
    }
  g_test_message ("truncations: %u refused, %u loaded", stats.failed, stats.loaded);
  g_assert_cmpuint (stats.failed, >, 0);
}

static guint
iterations (guint fallback)
{
  const char *env = g_getenv ("MSHED_FUZZ_ITERATIONS");

  return env ? (guint) g_ascii_strtoull (env, NULL, 10) : fallback;
}

static void
test_bit_flips (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  guint n = iterations (g_test_slow () ? 40000 : 4000);
  guint64 s = 0x9E3779B97F4A7C15u;
  Stats stats = { 0 };

  for (guint it = 0; it < n; it++)
    {
      GBytes *file = g_ptr_array_index (files, it % files->len);
      gsize len = g_bytes_get_size (file);
      g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (file, NULL), len);
      g_autoptr(GBytes) in = NULL;
      guint flips = 1 + rnd (&s) % 4;

      for (guint k = 0; k < flips; k++)
        {
          /* mostly the header and the tree, where the structure is */
          gsize at = rnd (&s) % 2 ? rnd (&s) % MIN (len, 400u) : rnd (&s) % len;

          copy[at] ^= (guint8) (1u << (rnd (&s) % 8));
        }
      in = g_bytes_new_take (g_steal_pointer (&copy), len);
      try_parse (in, &stats);
    }
  g_test_message ("bit flips: %u refused, %u loaded", stats.failed, stats.loaded);
  g_assert_cmpuint (stats.loaded, >, 0);
  g_assert_cmpuint (stats.failed, >, 0);
}

/* every u32 field of the header and of the first entries set to extreme values */
static void
test_inflated (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  Stats stats = { 0 };

  for (guint f = 0; f < files->len; f++)
    {
      GBytes *file = g_ptr_array_index (files, f);
      gsize len = g_bytes_get_size (file);
      const guint8 *src = g_bytes_get_data (file, NULL);
      guint32 tree = mshed_read_u32 (src + 8);
      guint32 values[] = { 0, 1, 43, 44, 45, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 0xFFFFFFD4u,
                           (guint32) len, (guint32) len - 1, (guint32) len + 1, tree };
      g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint at = 8; at < 48; at += 4)
        g_array_append_val (fields, at);
      for (guint at = tree; at + 4 <= MIN ((gsize) tree + 4 * 44, len); at += 4)
        g_array_append_val (fields, at);

      for (guint i = 0; i < fields->len; i++)
        for (guint v = 0; v < G_N_ELEMENTS (values); v++)
          {
            g_autofree guint8 *copy = g_memdup2 (src, len);
            g_autoptr(GBytes) in = NULL;

            mshed_write_u32 (copy + g_array_index (fields, guint, i), values[v]);
            in = g_bytes_new_take (g_steal_pointer (&copy), len);
            try_parse (in, &stats);
          }
    }
  g_test_message ("inflated fields: %u refused, %u loaded", stats.failed, stats.loaded);
}

/* every value of every link of a small canonical file: cycles of every length, links into
 * the middle of entries, overlapping and misaligned entries, links past the block */
static void
test_links (void)
{
  MshedUtfGenParams params = { 77, 9, 3, 8, FALSE, 0 };
  g_autoptr(GBytes) file = mshed_utf_generate (&params);
  gsize len = g_bytes_get_size (file);
  const guint8 *src = g_bytes_get_data (file, NULL);
  guint32 tree = mshed_read_u32 (src + 8), tree_size = mshed_read_u32 (src + 12);
  Stats stats = { 0 };
  guint cycles = 0;

  for (guint32 slot = 0; slot < tree_size; slot += MSHED_UTF_ENTRY_SIZE)
    for (guint field = 0; field <= 16; field += 16)
      for (guint32 value = 0; value <= tree_size + 4; value++)
        {
          g_autofree guint8 *copy = g_memdup2 (src, len);
          g_autoptr(GBytes) in = NULL;
          g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
          g_autoptr(MshedUtf) utf = NULL;

          if (field == 16 && !(mshed_read_u32 (copy + tree + slot + 8) & MSHED_UTF_ATTR_DIRECTORY))
            continue;   /* a file's childOffset is a payload offset */
          mshed_write_u32 (copy + tree + slot + field, value);
          in = g_bytes_new_take (g_steal_pointer (&copy), len);
          utf = mshed_utf_parse (in, MSHED_MODE_TOLERANT, diags, NULL);
          cycles += mshed_diagnostics_find (diags, MSHED_CHECK_UTF_CYCLE) != NULL;
          if (utf)
            {
              /* a tree never holds more entries than fit in the block */
              g_assert_cmpuint (mshed_utf_get_n_nodes (utf), <=, tree_size / 44);
              stats.loaded++;
              exercise (utf, in);
            }
          else
            stats.failed++;
        }
  g_test_message ("links: %u refused (%u cycles), %u loaded", stats.failed, cycles, stats.loaded);
  g_assert_cmpuint (cycles, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/utf-fuzz/truncated", test_truncated);
  g_test_add_func ("/model/utf-fuzz/bit-flips", test_bit_flips);
  g_test_add_func ("/model/utf-fuzz/inflated", test_inflated);
  g_test_add_func ("/model/utf-fuzz/links", test_links);
  return g_test_run ();
}
