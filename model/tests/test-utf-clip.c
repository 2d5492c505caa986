/* test-utf-clip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * UTF subtrees on the clipboard (docs/conventions.md, "UTF subtrees on the clipboard"): a
 * copied subtree is a small canonical UTF file whose root holds the copied nodes; it parses
 * back with the same names, payload bytes and structure; pasting it into another document is
 * one undo step that renames colliding names to "NAME (2)", "NAME (3)", ...; a clipboard that
 * is not such a file is refused and changes nothing. The trees are made by hand here and the
 * expected layout comes from docs/utf.md §2, §3.
 */
#include "config.h"

#include <string.h>

#include "mshed-error.h"
#include "mshed-utf-clip.h"
#include "mshed-utf.h"

static GBytes *
bytes_of (const char *text,
          gsize       len)
{
  return g_bytes_new (text, len);
}

static MshedUtfNode *
add (MshedUtf     *utf,
     MshedUtfNode *parent,
     const char   *name,
     const char   *data,
     gsize         len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = data ? bytes_of (data, len) : NULL;
  MshedUtfNode *node = data ? mshed_utf_node_new_file (utf, name, bytes)
                            : mshed_utf_node_new_directory (utf, name);

  g_assert_true (mshed_utf_insert_child (utf, parent, G_MAXUINT, node, &error));
  g_assert_no_error (error);
  return node;
}

/* \Part\ { Mesh (3 bytes), Sub\ { Bin (4 bytes with a NUL) } }, \Other (1 byte) */
static MshedUtf *
make_tree (void)
{
  MshedUtf *utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *part = add (utf, root, "Part", NULL, 0);
  MshedUtfNode *sub;

  add (utf, part, "Mesh", "abc", 3);
  sub = add (utf, part, "Sub", NULL, 0);
  add (utf, sub, "Bin", "\x01\x00\xff\x7f", 4);
  add (utf, root, "Other", "z", 1);
  return utf;
}

static void
assert_data (MshedUtfNode *node,
             const char   *expected,
             gsize         len)
{
  gsize size = 0;
  const guint8 *data;

  g_assert_nonnull (node);
  g_assert_false (mshed_utf_node_is_directory (node));
  data = mshed_utf_node_peek_data (node, &size);
  g_assert_cmpmem (data, size, expected, len);
}

/* the Part subtree of make_tree under @dir, named @name */
static void
assert_part (MshedUtfNode *dir,
             const char   *name)
{
  MshedUtfNode *part = mshed_utf_node_lookup (dir, name);
  MshedUtfNode *sub;

  g_assert_nonnull (part);
  g_assert_cmpstr (mshed_utf_node_get_name (part), ==, name);
  g_assert_true (mshed_utf_node_is_directory (part));
  g_assert_cmpuint (mshed_utf_node_get_n_children (part), ==, 2);
  g_assert_cmpstr (mshed_utf_node_get_name (mshed_utf_node_get_nth_child (part, 0)), ==, "Mesh");
  assert_data (mshed_utf_node_get_nth_child (part, 0), "abc", 3);
  sub = mshed_utf_node_get_nth_child (part, 1);
  g_assert_cmpstr (mshed_utf_node_get_name (sub), ==, "Sub");
  g_assert_cmpuint (mshed_utf_node_get_n_children (sub), ==, 1);
  assert_data (mshed_utf_node_lookup (sub, "Bin"), "\x01\x00\xff\x7f", 4);
}

static GBytes *
canonical (MshedDocument *doc)
{
  g_autoptr(GError) error = NULL;
  GBytes *out = mshed_utf_serialize (mshed_document_get_utf (doc), MSHED_UTF_WRITE_CANONICAL,
                                     NULL, &error);

  g_assert_no_error (error);
  return out;
}

static void
test_serialize (void)
{
  g_autoptr(MshedUtf) utf = make_tree ();
  MshedUtfNode *part = mshed_utf_lookup (utf, "\\Part");
  MshedUtfNode *other = mshed_utf_lookup (utf, "\\Other");
  MshedUtfNode *nodes[] = { part, other };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) clip = mshed_utf_clip_serialize (nodes, 2, &error);
  g_autoptr(GPtrArray) back = NULL;
  g_autoptr(MshedUtf) plain = NULL;
  g_autofree char *text = NULL;
  gsize size = 0;
  const guint8 *data;

  g_assert_no_error (error);
  g_assert_nonnull (clip);
  /* a UTF file (docs/utf.md §2): "UTF ", version 0x101 */
  data = g_bytes_get_data (clip, &size);
  g_assert_cmpuint (size, >=, 56);
  g_assert_cmpmem (data, 4, "UTF ", 4);
  g_assert_cmpuint (data[4] | data[5] << 8, ==, 0x101);
  /* the plain reader sees the two nodes as the root's entries, the source left alone */
  plain = mshed_utf_parse (clip, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_utf_get_n_nodes (plain), ==, 6);
  assert_part (mshed_utf_get_root (plain), "Part");
  assert_data (mshed_utf_lookup (plain, "\\Other"), "z", 1);
  g_assert_true (mshed_utf_node_get_parent (part) == mshed_utf_get_root (utf));

  back = mshed_utf_clip_parse (clip, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->len, ==, 2);
  g_assert_null (mshed_utf_node_get_parent (back->pdata[0]));
  g_assert_cmpstr (mshed_utf_node_get_name (back->pdata[1]), ==, "Other");
  assert_data (back->pdata[1], "z", 1);

  text = mshed_utf_clip_dup_text (nodes, 2);
  g_assert_cmpstr (text, ==,
                   "\\Part\\\n\\Part\\Mesh\n\\Part\\Sub\\\n\\Part\\Sub\\Bin\n\\Other\n");

  /* the root itself is not a subtree to copy */
  {
    MshedUtfNode *root[] = { mshed_utf_get_root (utf) };
    g_autoptr(GBytes) none = mshed_utf_clip_serialize (root, 1, &error);

    g_assert_null (none);
    g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  }
}

static void
test_free_name (void)
{
  g_autoptr(MshedUtf) utf = make_tree ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  char long_name[256];
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

  a = mshed_utf_clip_free_name (root, "New");
  g_assert_cmpstr (a, ==, "New");
  b = mshed_utf_clip_free_name (root, "part");  /* names compare ignoring case */
  g_assert_cmpstr (b, ==, "part (2)");
  add (utf, root, "Part (2)", NULL, 0);
  c = mshed_utf_clip_free_name (root, "Part");
  g_assert_cmpstr (c, ==, "Part (3)");
  memset (long_name, 'n', 255);
  long_name[255] = '\0';
  add (utf, root, long_name, "", 0);
  d = mshed_utf_clip_free_name (root, long_name);
  g_assert_cmpuint (strlen (d), ==, 255);
  g_assert_true (g_str_has_suffix (d, "nnn (2)"));
}

static void
test_paste (void)
{
  g_autoptr(MshedUtf) a = make_tree ();
  g_autoptr(MshedUtf) b = make_tree ();
  MshedUtfNode *nodes[] = { mshed_utf_lookup (a, "\\Part") };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) clip = mshed_utf_clip_serialize (nodes, 1, &error);
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GBytes) before = NULL, after = NULL, undone = NULL, redone = NULL;
  g_autoptr(GPtrArray) pasted = NULL;
  MshedUtfNode *root;

  g_assert_no_error (error);
  doc = mshed_document_new_for_utf (b, MSHED_MODE_STRICT);
  root = mshed_utf_get_root (mshed_document_get_utf (doc));
  before = canonical (doc);

  /* into the root: Part is taken, so "Part (2)" at the end */
  g_assert_true (mshed_utf_clip_paste (doc, root, clip, &pasted, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pasted->len, ==, 1);
  g_assert_cmpuint (mshed_utf_node_get_n_children (root), ==, 3);
  g_assert_true (mshed_utf_node_get_nth_child (root, 2) == pasted->pdata[0]);
  assert_part (root, "Part (2)");
  assert_part (root, "Part");
  after = canonical (doc);
  /* one undo step gives back the exact bytes; redo the pasted ones */
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_can_undo (doc));
  undone = canonical (doc);
  g_assert_true (g_bytes_equal (undone, before));
  g_assert_true (mshed_document_redo (doc));
  redone = canonical (doc);
  g_assert_true (g_bytes_equal (redone, after));
  g_clear_pointer (&pasted, g_ptr_array_unref);

  /* onto a file: right after it, as its sibling; the second collision is "Part (3)" */
  g_assert_true (mshed_utf_clip_paste (doc, mshed_utf_lookup (mshed_document_get_utf (doc),
                                                              "\\Part\\Mesh"),
                                       clip, &pasted, &error));
  g_assert_no_error (error);
  {
    MshedUtfNode *part = mshed_utf_lookup (mshed_document_get_utf (doc), "\\Part");

    g_assert_cmpuint (mshed_utf_node_get_n_children (part), ==, 3);
    g_assert_cmpstr (mshed_utf_node_get_name (mshed_utf_node_get_nth_child (part, 1)), ==,
                     "Part");
    assert_part (part, "Part");
  }
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_utf_clip_paste (doc, root, clip, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (mshed_utf_lookup (mshed_document_get_utf (doc), "\\Part (2)"));
}

static void
test_refused (void)
{
  g_autoptr(MshedUtf) b = make_tree ();
  g_autoptr(MshedDocument) doc = mshed_document_new_for_utf (b, MSHED_MODE_STRICT);
  MshedUtfNode *root = mshed_utf_get_root (mshed_document_get_utf (doc));
  g_autoptr(MshedUtf) empty = mshed_utf_new ();
  g_autoptr(GBytes) before = canonical (doc);
  g_autoptr(GBytes) empty_clip = NULL;
  g_autoptr(GBytes) text = bytes_of ("\\Part\\Mesh\n", 11);
  GBytes *clips[3];

  empty_clip = mshed_utf_serialize (empty, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
  g_assert_nonnull (empty_clip);
  clips[0] = text;                                            /* not a UTF file */
  clips[1] = empty_clip;                                      /* a root without entries */
  clips[2] = g_bytes_new_from_bytes (empty_clip, 0, 40);      /* cut inside the header */
  for (guint i = 0; i < G_N_ELEMENTS (clips); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) now = NULL;
      GPtrArray *out = NULL;

      g_assert_false (mshed_utf_clip_paste (doc, root, clips[i], &out, &error));
      g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "no usable UTF subtree"));
      g_assert_null (out);
      g_assert_false (mshed_document_can_undo (doc));
      now = canonical (doc);
      g_assert_true (g_bytes_equal (now, before));
    }
  g_bytes_unref (clips[2]);
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (mshed_utf_clip_paste (doc, root, NULL, NULL, &error));
    g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/utf-clip/serialize", test_serialize);
  g_test_add_func ("/utf-clip/free-name", test_free_name);
  g_test_add_func ("/utf-clip/paste", test_paste);
  g_test_add_func ("/utf-clip/refused", test_refused);
  return g_test_run ();
}
