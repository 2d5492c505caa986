/* test-utf-edit.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing UTF files (docs/utf.md §7, §8): generated trees in the canonical and every
 * non-canonical layout come back byte for byte; each container edit writes a file that reads
 * back as the edited tree while the bytes nobody edited stay where they were; undoing every
 * edit gives back the source bytes; the DFM skeleton has the node table of a deformable model.
 */
#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-utf-generator.h"
#include "mshed-utf.h"

/* Helpers ----------------------------------------------------------------------------------- */

static MshedUtf *
parse_strict (GBytes           *bytes,
              MshedDiagnostics *diags)
{
  g_autoptr(GError) error = NULL;
  MshedUtf *utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, diags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (utf);
  return utf;
}

static GBytes *
write_preserve (MshedUtf *utf)
{
  g_autoptr(GError) error = NULL;
  gboolean repacked = TRUE;
  GBytes *out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, &repacked, &error);

  g_assert_no_error (error);
  g_assert_nonnull (out);
  g_assert_false (repacked);
  return out;
}

/* the same tree: names (exact bytes), kinds, payloads, attributes, timestamps, order */
static void
assert_same_tree (MshedUtf *a,
                  MshedUtf *b)
{
  MshedUtfNode *ra = mshed_utf_get_root (a), *rb = mshed_utf_get_root (b);
  MshedUtfNode *x = ra, *y = rb;

  g_assert_cmpuint (mshed_utf_get_n_nodes (a), ==, mshed_utf_get_n_nodes (b));
  for (; x && y; x = mshed_utf_node_next_preorder (x, ra), y = mshed_utf_node_next_preorder (y, rb))
    {
      g_autofree char *path = mshed_utf_node_dup_path (x);

      g_test_message ("%s", path);
      g_assert_cmpstr (mshed_utf_node_get_name (x), ==, mshed_utf_node_get_name (y));
      g_assert_cmpint (mshed_utf_node_is_directory (x), ==, mshed_utf_node_is_directory (y));
      g_assert_cmpuint (mshed_utf_node_get_n_children (x), ==, mshed_utf_node_get_n_children (y));
      g_assert_cmphex (mshed_utf_node_get_attributes (x), ==, mshed_utf_node_get_attributes (y));
      for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
        g_assert_cmphex (mshed_utf_node_get_time (x, t), ==, mshed_utf_node_get_time (y, t));
      if (!mshed_utf_node_is_directory (x))
        g_assert_true (g_bytes_equal (mshed_utf_node_get_data (x), mshed_utf_node_get_data (y)));
    }
  g_assert_null (x);
  g_assert_null (y);
}

/* the bytes of @a and @b agree outside the listed ranges [start, end) (same length) */
static void
assert_same_except (GBytes        *a,
                    GBytes        *b,
                    const guint64 *ranges,
                    guint          n_ranges)
{
  gsize la, lb;
  const guint8 *pa = g_bytes_get_data (a, &la), *pb = g_bytes_get_data (b, &lb);

  g_assert_cmpuint (la, ==, lb);
  for (gsize i = 0; i < la; i++)
    {
      gboolean allowed = FALSE;

      for (guint k = 0; k < n_ranges; k++)
        allowed |= i >= ranges[2 * k] && i < ranges[2 * k + 1];
      if (!allowed && pa[i] != pb[i])
        g_error ("byte 0x%zx changed: %02x -> %02x", i, pa[i], pb[i]);
    }
}

/* the container writes exactly @src (every edit was undone) */
static void
assert_writes (MshedUtf *utf,
               GBytes   *src)
{
  g_autoptr(GBytes) out = write_preserve (utf);

  g_assert_true (g_bytes_equal (out, src));
}

static GBytes *
bytes_str (const char *s)
{
  return g_bytes_new (s, strlen (s) + 1);
}

/* Generated trees, every layout ------------------------------------------------------------- */

static const MshedUtfGenLayout layouts[] = {
  0,
  MSHED_UTF_GEN_NAMES_FIRST,
  MSHED_UTF_GEN_DATA_FIRST,
  MSHED_UTF_GEN_NAMES_FIRST | MSHED_UTF_GEN_DATA_FIRST,
  MSHED_UTF_GEN_SHUFFLE_ENTRIES,
  MSHED_UTF_GEN_NAMES_SLACK,
  MSHED_UTF_GEN_LEADING_EMPTY,
  MSHED_UTF_GEN_NO_DEDUP,
  MSHED_UTF_GEN_EXACT_ALLOC,
  MSHED_UTF_GEN_PAD_JUNK,
  MSHED_UTF_GEN_SHARE_PAYLOADS,
  MSHED_UTF_GEN_GAPS,
  MSHED_UTF_GEN_TREE_SLACK,
  MSHED_UTF_GEN_HEADER_EXTRA,
  MSHED_UTF_GEN_REVERSE_DATA,
  MSHED_UTF_GEN_ALL_LAYOUTS,
  MSHED_UTF_GEN_ALL_LAYOUTS & ~MSHED_UTF_GEN_NAMES_FIRST,
  MSHED_UTF_GEN_SHARE_PAYLOADS | MSHED_UTF_GEN_EXACT_ALLOC | MSHED_UTF_GEN_SHUFFLE_ENTRIES,
};

static void
test_generated_roundtrip (void)
{
  for (guint l = 0; l < G_N_ELEMENTS (layouts); l++)
    for (guint64 seed = 1; seed <= 12; seed++)
      {
        MshedUtfGenParams params = { seed, 0, 0, 0, seed % 3 == 0, layouts[l] };
        g_autoptr(MshedUtf) tree = mshed_utf_generate_tree (&params);
        g_autoptr(GBytes) bytes = mshed_utf_layout (tree, layouts[l], seed);
        g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
        g_autoptr(MshedUtf) utf = parse_strict (bytes, diags);
        g_autoptr(GBytes) canonical = mshed_utf_serialize (tree, MSHED_UTF_WRITE_CANONICAL, NULL,
                                                           NULL);
        g_autoptr(MshedUtf) again = NULL;
        g_autoptr(GBytes) rewritten = NULL;
        g_autoptr(GBytes) forced = NULL;
        MshedUtfNode *root;

        g_test_message ("layout 0x%x seed %" G_GUINT64_FORMAT ": %zu bytes, %u nodes",
                        layouts[l], seed, g_bytes_get_size (bytes), mshed_utf_get_n_nodes (tree));
        g_assert_cmpuint (diags->n_errors, ==, 0);
        assert_same_tree (tree, utf);
        if (layouts[l] == 0)
          {
            /* two independent writers of §8 agree, and the reader recognises the layout */
            g_assert_true (g_bytes_equal (bytes, canonical));
            g_assert_true (mshed_utf_is_canonical (utf));
            g_assert_cmpuint (diags->n_warnings, ==, 0);
          }

        /* an edit and its inverse: the patch writer regenerates every entry and must give
         * back the source byte for byte */
        root = mshed_utf_get_root (utf);
        {
          MshedUtfNode *first = mshed_utf_node_get_first_child (root);
          g_autofree char *old = mshed_utf_rename (utf, first, "renamed for a moment");
          g_autofree char *back = mshed_utf_rename (utf, first, old);
        }
        g_assert_true (mshed_utf_is_modified (utf));
        forced = write_preserve (utf);
        g_assert_true (g_bytes_equal (forced, bytes));

        /* the canonical rewrite of any layout holds the same tree */
        rewritten = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
        g_assert_true (g_bytes_equal (rewritten, canonical));
        again = parse_strict (rewritten, NULL);
        assert_same_tree (tree, again);
      }
}

/* Edits on the §8 example and on a generated file ------------------------------------------- */

static GBytes *
example_file (void)
{
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *dir;
  g_autoptr(GBytes) a = bytes_str ("alpha");
  g_autoptr(GBytes) b = g_bytes_new ("0123456789", 10);
  g_autoptr(GBytes) c = bytes_str ("c");

  mshed_utf_set_filetime (utf, MSHED_UTF_LIBRELANCER_FILETIME);
  mshed_utf_set_new_entry_time (utf, MSHED_UTF_LIBRELANCER_TIME);
  for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
    mshed_utf_set_time (utf, root, t, MSHED_UTF_LIBRELANCER_TIME);
  dir = mshed_utf_node_new_directory (utf, "Dir");
  g_assert_true (mshed_utf_insert_child (utf, root, G_MAXUINT, dir, NULL));
  g_assert_true (mshed_utf_insert_child (utf, dir, G_MAXUINT,
                                         mshed_utf_node_new_file (utf, "A", a), NULL));
  g_assert_true (mshed_utf_insert_child (utf, dir, G_MAXUINT,
                                         mshed_utf_node_new_file (utf, "B", b), NULL));
  g_assert_true (mshed_utf_insert_child (utf, root, G_MAXUINT,
                                         mshed_utf_node_new_file (utf, "C", c), NULL));
  return mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
}

/*  Canonical layout of example_file (§8):
 *    header 0..56; tree 56..276 (\ 0, Dir 44, A 88, B 132, C 176); names 276..288
 *    ("\", "Dir", "A", "B", "C": 12 bytes used and allocated); data 288..312: A "alpha\0"
 *    0..8, B 8..20, C "c\0" 20..24 */
#define T0 56u
#define SLOT_A 88u
#define SLOT_B 132u
#define SLOT_C 176u
#define N0 276u
#define D0 288u

static void
test_example_layout (void)
{
  g_autoptr(GBytes) src = example_file ();
  const guint8 *p = g_bytes_get_data (src, NULL);

  g_assert_cmpuint (g_bytes_get_size (src), ==, D0 + 24);
  g_assert_cmpuint (mshed_read_u32 (p + 24), ==, N0);
  g_assert_cmpuint (mshed_read_u32 (p + 28), ==, 12);
  g_assert_cmpuint (mshed_read_u32 (p + 32), ==, 12);
  g_assert_cmpuint (mshed_read_u32 (p + 36), ==, D0);
  g_assert_cmpmem (p + N0, 12, "\\\0Dir\0A\0B\0C\0", 12);
  g_assert_cmpuint (mshed_read_u32 (p + T0 + SLOT_B + 16), ==, 8);    /* B's data offset */
  g_assert_cmpuint (mshed_read_u32 (p + T0 + SLOT_B + 20), ==, 12);   /* allocated */
  g_assert_cmpuint (mshed_read_u32 (p + T0 + 44), ==, SLOT_C);        /* Dir → next C */
}

static void
test_edit_data_in_place (void)
{
  g_autoptr(GBytes) src = example_file ();
  g_autoptr(MshedUtf) utf = parse_strict (src, NULL);
  MshedUtfNode *b = mshed_utf_lookup (utf, "\\dir\\b");
  g_autoptr(GBytes) shorter = g_bytes_new ("xyz", 3);
  g_autoptr(GBytes) old = mshed_utf_set_data (utf, b, shorter);
  g_autoptr(GBytes) out = write_preserve (utf);
  g_autoptr(MshedUtf) back = parse_strict (out, NULL);
  const guint8 *q = g_bytes_get_data (out, NULL);
  /* only B's payload allocation and its used/uncompressed sizes may change */
  const guint64 allowed[] = { D0 + 8, D0 + 20, T0 + SLOT_B + 24, T0 + SLOT_B + 32 };

  assert_same_except (src, out, allowed, 2);
  g_assert_cmpmem (q + D0 + 8, 12, "xyz\0\0\0\0\0\0\0\0\0", 12);   /* zero-filled (§7) */
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_B + 20), ==, 12);   /* allocation kept */
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_B + 24), ==, 3);
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_B + 28), ==, 3);
  assert_same_tree (utf, back);

  /* the inverse edit: the source bytes again */
  g_bytes_unref (mshed_utf_set_data (utf, b, old));
  assert_writes (utf, src);
}

static void
test_edit_data_grow (void)
{
  g_autoptr(GBytes) src = example_file ();
  g_autoptr(MshedUtf) utf = parse_strict (src, NULL);
  MshedUtfNode *a = mshed_utf_lookup (utf, "\\Dir\\A");
  g_autoptr(GBytes) longer = bytes_str ("alphabet soup");   /* 14 bytes: allocation 8 → 16 */
  g_autoptr(GBytes) old = mshed_utf_set_data (utf, a, longer);
  g_autoptr(GBytes) out = write_preserve (utf);
  g_autoptr(MshedUtf) back = parse_strict (out, NULL);
  const guint8 *p = g_bytes_get_data (src, NULL), *q = g_bytes_get_data (out, NULL);

  /* everything before the data block is the same but A's sizes and the offsets of B and C;
   * B and C moved by 8 bytes, unchanged */
  g_assert_cmpuint (g_bytes_get_size (out), ==, g_bytes_get_size (src) + 8);
  {
    const guint64 allowed[] = { T0 + SLOT_A + 20, T0 + SLOT_A + 32,
                                T0 + SLOT_B + 16, T0 + SLOT_B + 20,
                                T0 + SLOT_C + 16, T0 + SLOT_C + 20 };
    g_autoptr(GBytes) head_a = g_bytes_new (p, D0);
    g_autoptr(GBytes) head_b = g_bytes_new (q, D0);

    assert_same_except (head_a, head_b, allowed, 3);
  }
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_A + 16), ==, 0);
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_A + 20), ==, 16);
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_B + 16), ==, 16);
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_C + 16), ==, 28);
  g_assert_cmpmem (q + D0, 16, "alphabet soup\0\0\0", 16);
  g_assert_cmpmem (q + D0 + 16, 16, p + D0 + 8, 16);
  assert_same_tree (utf, back);

  g_bytes_unref (mshed_utf_set_data (utf, a, old));
  assert_writes (utf, src);
}

static void
test_edit_rename (void)
{
  g_autoptr(GBytes) src = example_file ();
  g_autoptr(MshedUtf) utf = parse_strict (src, NULL);
  MshedUtfNode *c = mshed_utf_lookup (utf, "c");
  MshedUtfNode *b = mshed_utf_lookup (utf, "\\Dir\\B");
  g_autoptr(GError) error = NULL;
  g_autofree char *old_c = NULL;
  g_autofree char *old_b = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(MshedUtf) back = NULL;
  const guint8 *q;

  /* a user may not give B the name of its sibling A, whatever the case */
  g_assert_false (mshed_utf_check_child_name (mshed_utf_node_get_parent (b), "a", b, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (mshed_utf_validate_name ("x\\y", &error));
  g_clear_error (&error);
  g_assert_false (mshed_utf_validate_name ("", NULL));
  g_assert_true (mshed_utf_check_child_name (mshed_utf_node_get_parent (b), "b", b, NULL));

  /* C → "A": exactly a name of the dictionary, shared (§4); B → "dir": differs from "Dir"
   * only in case, so it is appended (case preserved, §3.4); the dictionary has no unused
   * bytes, so its allocation grows from 12 to 16 and the data moves by 4 */
  old_c = mshed_utf_rename (utf, c, "A");
  old_b = mshed_utf_rename (utf, b, "dir");
  out = write_preserve (utf);
  back = parse_strict (out, NULL);
  q = g_bytes_get_data (out, NULL);
  g_assert_cmpuint (g_bytes_get_size (out), ==, g_bytes_get_size (src) + 4);
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_C + 4), ==, 6);     /* "A" */
  g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_B + 4), ==, 12);    /* appended */
  g_assert_cmpuint (mshed_read_u32 (q + 28), ==, 16);
  g_assert_cmpuint (mshed_read_u32 (q + 32), ==, 16);
  g_assert_cmpuint (mshed_read_u32 (q + 36), ==, D0 + 4);
  g_assert_cmpmem (q + N0, 16, "\\\0Dir\0A\0B\0C\0dir", 16);
  g_assert_cmpuint (mshed_utf_node_get_crc (mshed_utf_lookup (back, "\\Dir\\DIR")), ==,
                    mshed_utf_crc ("Dir"));
  assert_same_tree (utf, back);
  {
    const guint8 *p = g_bytes_get_data (src, NULL);

    g_assert_cmpmem (q + D0 + 4, 24, p + D0, 24);   /* payloads unchanged, moved */
  }

  g_free (mshed_utf_rename (utf, b, old_b));
  g_free (mshed_utf_rename (utf, c, old_c));
  assert_writes (utf, src);
}

static void
test_edit_structure (void)
{
  g_autoptr(GBytes) src = example_file ();
  g_autoptr(MshedUtf) utf = parse_strict (src, NULL);
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *dir = mshed_utf_lookup (utf, "Dir");
  MshedUtfNode *a = mshed_utf_lookup (utf, "Dir\\A");
  MshedUtfNode *c = mshed_utf_lookup (utf, "C");
  MshedUtfNode *parent = NULL, *removed, *sub, *old_parent = NULL;
  g_autoptr(GBytes) pay = bytes_str ("new");
  g_autoptr(GError) error = NULL;
  guint index = 0, old_index = 0;

  mshed_utf_set_new_entry_time (utf, 0x5A8E6C21u);

  /* remove A: its slot and its payload are cut out; nothing else changes but offsets */
  removed = mshed_utf_remove (utf, a, &parent, &index);
  g_assert_true (removed == a);
  g_assert_true (parent == dir);
  g_assert_cmpuint (index, ==, 0);
  {
    g_autoptr(GBytes) out = write_preserve (utf);
    g_autoptr(MshedUtf) back = parse_strict (out, NULL);
    const guint8 *q = g_bytes_get_data (out, NULL);

    g_assert_cmpuint (g_bytes_get_size (out), ==, g_bytes_get_size (src) - 44 - 8);
    g_assert_cmpuint (mshed_read_u32 (q + 12), ==, 4 * 44);
    g_assert_null (mshed_utf_lookup (back, "Dir\\A"));
    /* B now sits in A's old slot (88) and is Dir's first child; its payload at data 0 */
    g_assert_cmpuint (mshed_read_u32 (q + T0 + 44 + 16), ==, SLOT_A);
    g_assert_cmpuint (mshed_read_u32 (q + T0 + SLOT_A + 16), ==, 0);
    assert_same_tree (utf, back);
  }

  /* add a sibling after C and a directory with a child into the root: two new entries at the
   * end of the tree block */
  sub = mshed_utf_node_new_directory (utf, "Sub");
  g_assert_true (mshed_utf_check_child_name (root, "Sub", NULL, NULL));
  g_assert_true (mshed_utf_insert_child (utf, root, 1, sub, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_utf_insert_child (utf, sub, G_MAXUINT,
                                         mshed_utf_node_new_file (utf, "Leaf", pay), NULL));
  g_assert_true (mshed_utf_insert_sibling (utf, c, mshed_utf_node_new_file (utf, "D", pay), NULL));
  {
    MshedUtfNode *x = mshed_utf_node_new_file (utf, "X", pay);

    /* the root has no siblings; a directory outside the tree takes no children */
    g_assert_false (mshed_utf_insert_sibling (utf, root, x, &error));
    g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
    g_clear_error (&error);
    g_assert_false (mshed_utf_insert_child (utf, a, 0, x, &error));
    g_clear_error (&error);
    mshed_utf_node_free (x);
  }

  /* move C into Sub, first */
  g_assert_true (mshed_utf_move (utf, c, sub, 0, &old_parent, &old_index, &error));
  g_assert_no_error (error);
  g_assert_true (old_parent == root);
  g_assert_cmpuint (old_index, ==, 2);
  g_assert_false (mshed_utf_move (utf, dir, dir, 0, NULL, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (mshed_utf_move (utf, sub, mshed_utf_lookup (utf, "Sub\\Leaf"), 0, NULL, NULL,
                                  &error));
  g_clear_error (&error);
  {
    g_autoptr(GBytes) out = write_preserve (utf);
    g_autoptr(MshedUtf) back = parse_strict (out, NULL);
    MshedUtfNode *leaf = mshed_utf_lookup (back, "\\sub\\leaf");

    assert_same_tree (utf, back);
    g_assert_nonnull (leaf);
    g_assert_cmphex (mshed_utf_node_get_time (leaf, MSHED_UTF_TIME_MODIFY), ==, 0x5A8E6C21u);
    g_assert_true (mshed_utf_node_get_nth_child (mshed_utf_lookup (back, "sub"), 0)
                   == mshed_utf_lookup (back, "sub\\c"));
    /* "new\0" is stored once per file (the writer appends, it does not share, §7) */
    g_assert_cmpuint (mshed_utf_get_n_nodes (back), ==, 7);
  }

  /* the inverses, in reverse order, give back the source */
  g_assert_true (mshed_utf_move (utf, c, old_parent, old_index, NULL, NULL, NULL));
  mshed_utf_node_free (mshed_utf_remove (utf, mshed_utf_lookup (utf, "D"), NULL, NULL));
  mshed_utf_node_free (mshed_utf_remove (utf, sub, NULL, NULL));
  g_assert_true (mshed_utf_insert_child (utf, parent, index, removed, NULL));
  assert_writes (utf, src);
}

/* A file in the voice-bank order with shared payloads: editing one of two files that share a
 * range appends the new payload and leaves the other one where it was. */
static void
test_edit_shared (void)
{
  MshedUtfGenLayout layout = MSHED_UTF_GEN_NAMES_FIRST | MSHED_UTF_GEN_SHARE_PAYLOADS
                             | MSHED_UTF_GEN_NAMES_SLACK | MSHED_UTF_GEN_PAD_JUNK;
  g_autoptr(MshedUtf) tree = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (tree);
  g_autoptr(GBytes) same = g_bytes_new ("shared!", 7);
  g_autoptr(GBytes) other = g_bytes_new ("tail", 4);
  g_autoptr(GBytes) src = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GBytes) fresh = g_bytes_new ("changed", 7);
  g_autoptr(GBytes) old = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(MshedUtf) back = NULL;
  guint32 d_before, d_after;

  mshed_utf_insert_child (tree, root, G_MAXUINT, mshed_utf_node_new_file (tree, "one", same), NULL);
  mshed_utf_insert_child (tree, root, G_MAXUINT, mshed_utf_node_new_file (tree, "two", same), NULL);
  mshed_utf_insert_child (tree, root, G_MAXUINT, mshed_utf_node_new_file (tree, "three", other),
                          NULL);
  src = mshed_utf_layout (tree, layout, 7);
  utf = parse_strict (src, NULL);
  g_assert_true (mshed_utf_node_peek_data (mshed_utf_lookup (utf, "one"), NULL)
                 == mshed_utf_node_peek_data (mshed_utf_lookup (utf, "two"), NULL));

  old = mshed_utf_set_data (utf, mshed_utf_lookup (utf, "one"), fresh);
  out = write_preserve (utf);
  back = parse_strict (out, NULL);
  assert_same_tree (utf, back);
  {
    MshedUtfEntry e1, e2;

    mshed_utf_node_get_source_entry (utf, mshed_utf_lookup (utf, "two"), NULL, &e1);
    mshed_utf_node_get_source_entry (back, mshed_utf_lookup (back, "two"), NULL, &e2);
    d_before = e1.child_offset;
    d_after = e2.child_offset;
    g_assert_cmpuint (d_before, ==, d_after);    /* "two" keeps its range */
    mshed_utf_node_get_source_entry (back, mshed_utf_lookup (back, "one"), NULL, &e2);
    g_assert_cmpuint (e2.child_offset, >, d_before);   /* "one" was appended */
    g_assert_cmpuint (g_bytes_get_size (out), ==, g_bytes_get_size (src) + 8);
  }
  g_bytes_unref (mshed_utf_set_data (utf, mshed_utf_lookup (utf, "one"), old));
  assert_writes (utf, src);
}

/* A source whose regions overlap cannot be patched: edits are written canonically and the
 * caller is told (docs/utf.md §9, utf-overlap). */
static void
test_edit_unpatchable (void)
{
  g_autoptr(GBytes) src = example_file ();
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (src, NULL), g_bytes_get_size (src));
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GBytes) out = NULL;
  gboolean repacked = FALSE;

  mshed_write_u32 (copy + 12, 5 * 44 + 8);   /* the tree block reaches into the dictionary */
  bad = g_bytes_new (copy, g_bytes_get_size (src));
  utf = parse_strict (bad, NULL);
  g_assert_false (mshed_utf_is_patchable (utf));
  g_free (mshed_utf_rename (utf, mshed_utf_lookup (utf, "C"), "E"));
  out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, &repacked, NULL);
  g_assert_true (repacked);
  {
    g_autoptr(MshedUtf) back = parse_strict (out, NULL);

    g_assert_true (mshed_utf_is_canonical (back));
    assert_same_tree (utf, back);
  }
}

/* Empty payloads have an offset but no bytes: one at the start of the data block stays there
 * when the dictionary in front of it grows, and an edit that empties a shared payload gives it
 * a valid offset after the last payload. */
static void
test_edit_empty_payloads (void)
{
  g_autoptr(MshedUtf) tree = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (tree);
  g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
  g_autoptr(GBytes) xyz = g_bytes_new ("xyz", 3);
  g_autoptr(GBytes) src = NULL;
  g_autoptr(MshedUtf) utf = NULL;

  mshed_utf_insert_child (tree, root, G_MAXUINT, mshed_utf_node_new_file (tree, "E", empty), NULL);
  mshed_utf_insert_child (tree, root, G_MAXUINT, mshed_utf_node_new_file (tree, "F", xyz), NULL);
  mshed_utf_insert_child (tree, root, G_MAXUINT, mshed_utf_node_new_file (tree, "G", xyz), NULL);
  src = mshed_utf_layout (tree, MSHED_UTF_GEN_SHARE_PAYLOADS, 1);
  utf = parse_strict (src, NULL);

  /* a new long name: the dictionary (allocated to the next multiple of 4) must grow */
  g_free (mshed_utf_rename (utf, mshed_utf_lookup (utf, "F"), "a much longer name"));
  g_bytes_unref (mshed_utf_set_data (utf, mshed_utf_lookup (utf, "G"), empty));
  {
    g_autoptr(GBytes) out = write_preserve (utf);
    g_autoptr(MshedUtf) back = parse_strict (out, NULL);
    MshedUtfEntry e;

    assert_same_tree (utf, back);
    mshed_utf_node_get_source_entry (back, mshed_utf_lookup (back, "E"), NULL, &e);
    g_assert_cmpuint (e.child_offset, ==, 0);
    mshed_utf_node_get_source_entry (back, mshed_utf_lookup (back, "G"), NULL, &e);
    g_assert_cmpuint (e.child_offset, ==, 4);    /* after the shared "xyz" that F keeps */
    g_assert_cmpuint (e.data_size_used, ==, 0);
  }
}

/* Random edits ------------------------------------------------------------------------------ */

typedef enum { OP_DATA, OP_RENAME, OP_ADD_FILE, OP_ADD_DIR, OP_REMOVE, OP_MOVE, OP_TIME, N_OPS } Op;

typedef struct {
  Op            op;
  MshedUtfNode *node;
  MshedUtfNode *parent;
  guint         index;
  char         *name;
  GBytes       *data;
  guint32       time;
} Undo;

static guint64
next_rand (guint64 *s)
{
  *s = *s * G_GUINT64_CONSTANT (6364136223846793005) + G_GUINT64_CONSTANT (1442695040888963407);
  return *s >> 33;
}

static MshedUtfNode *
pick (GPtrArray *nodes,
      guint64   *s,
      gboolean   dirs,
      gboolean   no_root)
{
  for (guint tries = 0; tries < 64; tries++)
    {
      MshedUtfNode *n = g_ptr_array_index (nodes, next_rand (s) % nodes->len);

      if (dirs && !mshed_utf_node_is_directory (n))
        continue;
      if (no_root && mshed_utf_node_get_parent (n) == NULL)
        continue;
      return n;
    }
  return NULL;
}

static gboolean
apply_random (MshedUtf *utf,
              guint64  *s,
              Undo     *u)
{
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *n, *dir;
  g_autofree char *name = g_strdup_printf ("n%u", (guint) (next_rand (s) % 40));

  for (n = root; n; n = mshed_utf_node_next_preorder (n, root))
    g_ptr_array_add (nodes, n);
  memset (u, 0, sizeof *u);
  u->op = next_rand (s) % N_OPS;
  switch (u->op)
    {
    case OP_DATA:
      n = pick (nodes, s, FALSE, TRUE);
      if (n == NULL || mshed_utf_node_is_directory (n))
        return FALSE;
      {
        gsize len = next_rand (s) % 40;
        g_autofree guint8 *p = g_malloc (len + 1);
        g_autoptr(GBytes) data = NULL;

        for (gsize i = 0; i < len; i++)
          p[i] = (guint8) next_rand (s);
        data = g_bytes_new (p, len);
        u->data = mshed_utf_set_data (utf, n, data);
      }
      u->node = n;
      return TRUE;
    case OP_RENAME:
      n = pick (nodes, s, FALSE, TRUE);
      if (n == NULL || !mshed_utf_check_child_name (mshed_utf_node_get_parent (n), name, n, NULL))
        return FALSE;
      u->node = n;
      u->name = mshed_utf_rename (utf, n, name);
      return TRUE;
    case OP_ADD_FILE:
    case OP_ADD_DIR:
      dir = pick (nodes, s, TRUE, FALSE);
      if (dir == NULL || !mshed_utf_check_child_name (dir, name, NULL, NULL))
        return FALSE;
      if (u->op == OP_ADD_FILE)
        {
          g_autoptr(GBytes) data = g_bytes_new (name, strlen (name));

          n = mshed_utf_node_new_file (utf, name, data);
        }
      else
        n = mshed_utf_node_new_directory (utf, name);
      g_assert_true (mshed_utf_insert_child (utf, dir, next_rand (s) % 4, n, NULL));
      if (u->op == OP_ADD_DIR)
        {
          g_autoptr(GBytes) data = g_bytes_new ("x", 1);

          mshed_utf_insert_child (utf, n, 0, mshed_utf_node_new_file (utf, "inner", data), NULL);
        }
      u->node = n;
      return TRUE;
    case OP_REMOVE:
      n = pick (nodes, s, FALSE, TRUE);
      if (n == NULL)
        return FALSE;
      u->node = mshed_utf_remove (utf, n, &u->parent, &u->index);
      return TRUE;
    case OP_MOVE:
      n = pick (nodes, s, FALSE, TRUE);
      dir = pick (nodes, s, TRUE, FALSE);
      if (n == NULL || dir == NULL || mshed_utf_node_is_ancestor (n, dir)
          || !mshed_utf_check_child_name (dir, mshed_utf_node_get_name (n), n, NULL))
        return FALSE;
      u->node = n;
      g_assert_true (mshed_utf_move (utf, n, dir, next_rand (s) % 5, &u->parent, &u->index,
                                     NULL));
      return TRUE;
    case OP_TIME:
    default:
      n = pick (nodes, s, FALSE, FALSE);
      u->node = n;
      u->time = mshed_utf_set_time (utf, n, MSHED_UTF_TIME_ACCESS, (guint32) next_rand (s));
      return TRUE;
    }
}

static void
undo (MshedUtf *utf,
      Undo     *u)
{
  switch (u->op)
    {
    case OP_DATA:
      g_bytes_unref (mshed_utf_set_data (utf, u->node, u->data));
      g_bytes_unref (u->data);
      break;
    case OP_RENAME:
      g_free (mshed_utf_rename (utf, u->node, u->name));
      g_free (u->name);
      break;
    case OP_ADD_FILE:
    case OP_ADD_DIR:
      mshed_utf_node_free (mshed_utf_remove (utf, u->node, NULL, NULL));
      break;
    case OP_REMOVE:
      g_assert_true (mshed_utf_insert_child (utf, u->parent, u->index, u->node, NULL));
      break;
    case OP_MOVE:
      g_assert_true (mshed_utf_move (utf, u->node, u->parent, u->index, NULL, NULL, NULL));
      break;
    case OP_TIME:
    default:
      mshed_utf_set_time (utf, u->node, MSHED_UTF_TIME_ACCESS, u->time);
      break;
    }
}

static void
test_random_edits (void)
{
  const char *env = g_getenv ("MSHED_FUZZ_ITERATIONS");
  guint runs = env ? (guint) g_ascii_strtoull (env, NULL, 10) : g_test_slow () ? 20000 : 1000;

  for (guint run = 0; run < runs; run++)
    {
      guint64 s = run * 7919 + 13;
      MshedUtfGenLayout layout = layouts[run % G_N_ELEMENTS (layouts)];
      MshedUtfGenParams params = { run + 100, 10 + run % 90, 0, 0, FALSE, layout };
      g_autoptr(GBytes) src = mshed_utf_generate (&params);
      g_autoptr(MshedUtf) utf = parse_strict (src, NULL);
      g_autoptr(GArray) undos = g_array_new (FALSE, FALSE, sizeof (Undo));
      guint n_edits = 1 + run % 23;

      mshed_utf_set_new_entry_time (utf, 0x5A8E6C21u);
      while (undos->len < n_edits)
        {
          Undo u;

          if (apply_random (utf, &s, &u))
            {
              g_autofree char *path = mshed_utf_node_dup_path (u.node);

              g_test_message ("  edit %d on %s", u.op, path);
              g_array_append_val (undos, u);
            }
        }

      /* the written file reads back as the edited tree, and both rewrite canonically alike */
      {
        g_autoptr(GBytes) out = write_preserve (utf);
        g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
        g_autoptr(MshedUtf) back = parse_strict (out, diags);
        g_autoptr(GBytes) c1 = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
        g_autoptr(GBytes) c2 = mshed_utf_serialize (back, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);

        g_test_message ("run %u: layout 0x%x, %u edits, %zu -> %zu bytes", run, layout, n_edits,
                        g_bytes_get_size (src), g_bytes_get_size (out));
        g_assert_cmpuint (diags->n_errors, ==, 0);
        assert_same_tree (utf, back);
        g_assert_true (g_bytes_equal (c1, c2));
      }

      for (guint i = undos->len; i > 0; i--)
        undo (utf, &g_array_index (undos, Undo, i - 1));
      assert_writes (utf, src);
    }
}

/* Copies share the source and can exchange subtrees */
static void
test_copy (void)
{
  g_autoptr(GBytes) src = example_file ();
  g_autoptr(MshedUtf) utf = parse_strict (src, NULL);
  g_autoptr(MshedUtf) copy = mshed_utf_copy (utf);
  MshedUtfNode *b;
  g_autoptr(GBytes) out = NULL;

  g_free (mshed_utf_rename (copy, mshed_utf_lookup (copy, "C"), "Changed"));
  g_assert_cmpstr (mshed_utf_node_get_name (mshed_utf_lookup (utf, "C")), ==, "C");
  /* a subtree of the copy moves into a new tree: written as new entries */
  b = mshed_utf_remove (copy, mshed_utf_lookup (copy, "Dir\\B"), NULL, NULL);
  {
    g_autoptr(MshedUtf) fresh = mshed_utf_new ();

    g_assert_true (mshed_utf_insert_child (fresh, mshed_utf_get_root (fresh), 0, b, NULL));
    out = mshed_utf_serialize (fresh, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
    g_assert_cmpmem (mshed_utf_node_peek_data (mshed_utf_lookup (fresh, "b"), NULL), 10,
                     "0123456789", 10);
  }
  {
    g_autoptr(GBytes) orig = write_preserve (utf);

    g_assert_true (g_bytes_equal (orig, src));
  }
}

/* DFM skeleton ------------------------------------------------------------------------------- */

static gsize
size_of (MshedUtf   *utf,
         const char *path)
{
  MshedUtfNode *n = mshed_utf_lookup (utf, path);

  g_assert_nonnull (n);
  return g_bytes_get_size (mshed_utf_node_get_data (n));
}

static void
test_dfm_skeleton (void)
{
  static const char *const order[] = {
    "Exporter Version", "MultiLevel", "Material library", "Texture library", "Skeleton", "Cmpnd",
  };

  for (guint head = 0; head < 2; head++)
    {
      MshedUtfDfmParams p = { 42 + head, head ? 6 : 4, 12, 3, 300, 0, head, head };
      g_autoptr(MshedUtf) dfm = mshed_utf_generate_dfm (&p);
      g_autoptr(GBytes) bytes = mshed_utf_serialize (dfm, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedUtf) utf = parse_strict (bytes, diags);
      MshedUtfNode *root = mshed_utf_get_root (utf), *n;
      guint levels = head ? 6 : 4, bone = 0, groups = 0, parts = 0;
      gsize points;

      g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 0);
      assert_same_tree (dfm, utf);
      for (guint i = 0; i < G_N_ELEMENTS (order); i++)
        g_assert_cmpstr (mshed_utf_node_get_name (mshed_utf_node_get_nth_child (root, i)), ==,
                         order[i]);
      g_assert_cmpuint (size_of (utf, "MultiLevel\\Fractions"), ==, 4 * levels);
      g_assert_nonnull (mshed_utf_lookup (utf, "multilevel\\mesh0\\geometry"));
      n = mshed_utf_lookup (utf, "MultiLevel\\Mesh0\\Face_groups");
      for (n = mshed_utf_node_get_first_child (n); n; n = mshed_utf_node_get_next (n))
        groups += mshed_utf_node_is_directory (n);
      g_assert_cmpuint (groups, ==, 3);
      g_assert_cmpuint (mshed_read_u32 (mshed_utf_node_peek_data (mshed_utf_lookup (utf,
                          "MultiLevel\\Mesh0\\Face_groups\\Count"), NULL)), ==, groups);
      points = size_of (utf, "MultiLevel\\Mesh0\\Geometry\\Points") / 12;
      g_assert_cmpuint (points, ==, 300);
      g_assert_cmpuint (size_of (utf, "MultiLevel\\Mesh0\\Geometry\\Vertex_normals"), ==,
                        12 * points);
      g_assert_cmpuint (size_of (utf, "MultiLevel\\Mesh0\\Geometry\\Point_bone_first"), ==,
                        4 * points);
      g_assert_cmpuint (size_of (utf, "MultiLevel\\Mesh0\\Geometry\\UV0_indices"), ==,
                        size_of (utf, "MultiLevel\\Mesh0\\Geometry\\Point_indices"));
      g_assert_cmpint (mshed_utf_lookup (utf, "MultiLevel\\Mesh0\\Geometry\\UV1") != NULL, ==,
                       head);
      g_assert_cmpint (mshed_utf_lookup (utf, "MultiLevel\\Mesh0\\Geometry\\UV_default_list")
                       != NULL, ==, head);
      g_assert_cmpuint (size_of (utf, "Cmpnd\\Scale"), ==, 4);
      if (mshed_utf_lookup (utf, "Cmpnd\\Cons\\Sphere"))
        g_assert_cmpuint (size_of (utf, "Cmpnd\\Cons\\Sphere") % 212, ==, 0);
      if (mshed_utf_lookup (utf, "Cmpnd\\Cons\\Loose"))
        g_assert_cmpuint (size_of (utf, "Cmpnd\\Cons\\Loose") % 176, ==, 0);

      /* bones: every .3db directory has a 48-byte Bone to root and a 1-byte Lod Bits; each
       * part's Index is the position of its File name among the bone directories */
      for (n = mshed_utf_node_get_first_child (root); n; n = mshed_utf_node_get_next (n))
        {
          const char *name = mshed_utf_node_get_name (n);
          MshedUtfNode *part;

          if (!g_str_has_suffix (name, ".3db"))
            continue;
          g_assert_cmpuint (g_bytes_get_size (mshed_utf_node_get_data (
                              mshed_utf_node_lookup (n, "bone to root"))), ==, 48);
          g_assert_cmpuint (g_bytes_get_size (mshed_utf_node_get_data (
                              mshed_utf_node_lookup (n, "Lod Bits"))), ==, 1);
          for (part = mshed_utf_node_get_first_child (mshed_utf_lookup (utf, "Cmpnd")); part;
               part = mshed_utf_node_get_next (part))
            {
              MshedUtfNode *file = mshed_utf_node_lookup (part, "File name");

              if (file && strcmp ((const char *) mshed_utf_node_peek_data (file, NULL), name) == 0)
                {
                  g_assert_cmpuint (mshed_read_u32 (mshed_utf_node_peek_data (
                                      mshed_utf_node_lookup (part, "Index"), NULL)), ==, bone);
                  parts++;
                }
            }
          bone++;
        }
      g_assert_cmpuint (bone, ==, 12);
      g_assert_cmpuint (parts, ==, head ? 11 : 12);   /* the detached Neck has no part */
      g_assert_nonnull (mshed_utf_lookup (utf, "Skeleton\\Name"));
      g_assert_cmphex (mshed_utf_node_get_crc (mshed_utf_lookup (utf, "material library")), ==,
                       0xFA36003Du);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/utf-edit/generated-roundtrip", test_generated_roundtrip);
  g_test_add_func ("/model/utf-edit/example-layout", test_example_layout);
  g_test_add_func ("/model/utf-edit/data-in-place", test_edit_data_in_place);
  g_test_add_func ("/model/utf-edit/data-grow", test_edit_data_grow);
  g_test_add_func ("/model/utf-edit/rename", test_edit_rename);
  g_test_add_func ("/model/utf-edit/structure", test_edit_structure);
  g_test_add_func ("/model/utf-edit/shared", test_edit_shared);
  g_test_add_func ("/model/utf-edit/unpatchable", test_edit_unpatchable);
  g_test_add_func ("/model/utf-edit/empty-payloads", test_edit_empty_payloads);
  g_test_add_func ("/model/utf-edit/random", test_random_edits);
  g_test_add_func ("/model/utf-edit/copy", test_copy);
  g_test_add_func ("/model/utf-edit/dfm-skeleton", test_dfm_skeleton);
  return g_test_run ();
}
