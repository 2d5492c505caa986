/* test-copy.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Copy across (mshed-copy.h): two documents on one generated model, one edited; after a copy
 * of each unit the diff restricted to what was copied is empty, the copy is one undo step and
 * undo gives back the exact bytes.
 */
#include "config.h"

#include <string.h>

#include "mshed-copy.h"
#include "mshed-dfm-generator.h"
#include "mshed-diff.h"
#include "mshed-error.h"
#include "tests/doc-test-util.h"

#define SEED 91

typedef struct {
  MshedDocument *left;   /* the target of the copies */
  MshedDocument *right;  /* the edited source */
  GBytes        *before; /* left's bytes before the copy */
} Fixture;

static MshedDocument *
new_dfm_doc (void)
{
  return doc_test_new_dfm (120);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->left = data ? new_dfm_doc () : doc_test_new (SEED, 600, TRUE, TRUE);
  f->right = data ? new_dfm_doc () : doc_test_new (SEED, 600, TRUE, TRUE);
  f->before = mshed_document_serialize (f->left);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_clear_object (&f->left);
  g_clear_object (&f->right);
  g_clear_pointer (&f->before, g_bytes_unref);
}

static guint
n_diffs (Fixture    *f,
         const char *table)
{
  MshedDiffOptions o = { 0, table };
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = mshed_diff_documents (f->left, f->right, &o, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < mshed_diff_get_n_items (d) && g_test_verbose (); i++)
    {
      g_autofree char *line = mshed_diff_item_format (mshed_diff_get_item (d, i));

      g_test_message ("%s", line);
    }
  return mshed_diff_get_n_items (d);
}

/* The copy is one undo step: undo gives back left's exact bytes, redo the copy again. */
static void
assert_one_step (Fixture *f)
{
  g_autoptr(GBytes) after = mshed_document_serialize (f->left);
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;

  g_assert_false (g_bytes_equal (after, f->before));
  g_assert_true (mshed_document_undo (f->left));
  undone = mshed_document_serialize (f->left);
  g_assert_true (g_bytes_equal (undone, f->before));
  g_assert_false (mshed_document_can_undo (f->left));
  g_assert_true (mshed_document_redo (f->left));
  redone = mshed_document_serialize (f->left);
  g_assert_true (g_bytes_equal (redone, after));
}

static void
test_cell (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_SLOTS, 2, "unk30", 7, &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_SLOTS, 3, "unk30", 9, &error));
  g_assert_cmpuint (n_diffs (f, "slots"), ==, 2);
  g_assert_true (mshed_copy_cell (f->left, 2, f->right, 2, MSHED_TABLE_SLOTS, "unk30", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, "slots"), ==, 1);  /* only slots[3] is left */
  assert_one_step (f);
  /* a directory attribute */
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_DIRECTORY, 1, "attr3", 0x55,
                                           &error));
  g_assert_true (mshed_copy_cell (f->left, 1, f->right, 1, MSHED_TABLE_DIRECTORY, "attr3",
                                  &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, "dir"), ==, 0);
}

static void
test_record_and_table (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_POSITIONS, 5, "y", 1.5, &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_POSITIONS, 5, "x", -2, &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_POSITIONS, 9, "z", 3, &error));
  g_assert_true (mshed_copy_record (f->left, 5, f->right, 5, MSHED_TABLE_POSITIONS, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, "vertices"), >, 0);  /* vertex 9 still differs */
  g_assert_true (mshed_copy_table (f->left, f->right, MSHED_TABLE_POSITIONS, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, "vertices"), ==, 0);
  g_assert_true (mshed_document_undo (f->left));
  g_assert_true (mshed_document_undo (f->left));
  {
    g_autoptr(GBytes) now = mshed_document_serialize (f->left);

    g_assert_true (g_bytes_equal (now, f->before));
  }
  /* the slots table keeps the target's Res2 header */
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_HEADER, 0, "capR", 4, &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_SLOTS, 0, "unk3C", 4, &error));
  g_assert_true (mshed_copy_table (f->left, f->right, MSHED_TABLE_SLOTS, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, "slots"), ==, 0);
  g_assert_cmpuint (n_diffs (f, "header"), ==, 1);
}

static void
test_node (Fixture       *f,
           gconstpointer  data)
{
  MshedModel *left = mshed_document_get_model (f->left);
  guint nodes = mshed_model_get_n_rows (left, MSHED_TABLE_NODES);
  guint slots = mshed_model_get_n_rows (left, MSHED_TABLE_SLOTS);
  g_autoptr(GError) error = NULL;
  MshedNode n;

  /* the same node: its record, name and slot records */
  g_assert_true (mshed_document_rename_node (f->right, 1, "Башня", &error));
  g_assert_true (mshed_model_get_node (mshed_document_get_model (f->right), 1, &n));
  g_assert_cmpuint (n.slot[0], !=, MSHED_NONE);
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_SLOTS, n.slot[0], "unk40", 3,
                                           &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_NODES, 1, "hdr0", 0x21,
                                           &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, NULL), ==, 3);
  g_assert_true (mshed_copy_node (f->left, 1, f->right, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, NULL), ==, 0);
  assert_one_step (f);
  g_assert_true (mshed_document_undo (f->left));

  /* a new node: inserted with new copies of its slots */
  g_assert_true (mshed_copy_node (f->left, nodes, f->right, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_model_get_n_rows (left, MSHED_TABLE_NODES), ==, nodes + 1);
  g_assert_true (mshed_model_get_node (left, nodes, &n));
  g_assert_cmpuint (n.slot[0], ==, slots);
  {
    g_autofree char *name = mshed_model_dup_name (left, nodes);

    g_assert_cmpstr (name, ==, "Башня");
  }
  doc_test_assert_valid (f->left);
  assert_one_step (f);
}

static void
test_resource (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GBytes) note = g_bytes_new_static ("notes", 5);
  g_autoptr(GError) error = NULL;
  gint added = mshed_document_add_resource (f->right, G_MAXUINT, 0x4C4C554E, "notes", 0, 0, 0,
                                            note, &error);

  g_assert_no_error (error);
  g_assert_cmpint (added, >=, 0);
  g_assert_cmpuint (n_diffs (f, "resources"), ==, 1);
  g_assert_true (mshed_copy_resource (f->left, f->right, (guint) added, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, NULL), ==, 0);
  assert_one_step (f);
  /* a resource both have: payload and attributes */
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_DIRECTORY, 0, "attr2", 0x44,
                                           &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_NODES, 0, "hdr3", 9, &error));
  g_assert_true (mshed_copy_resource (f->left, f->right, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, "nodes"), ==, 0);
  g_assert_cmpuint (n_diffs (f, "dir"), ==, 0);
}

/* Every difference of a mixed edit copied one at a time (each one undo step) makes the two
 * documents equal, in either direction. A copied row insertion fixes up references the way
 * the edit did on the other side, so cells copied before it may differ again: the count need
 * not fall at every step, but the copies converge. */
static void
copy_all (Fixture  *f,
          gboolean  to_right)
{
  g_autoptr(GError) error = NULL;

  for (guint round = 0; round < 256; round++)
    {
      g_autoptr(MshedDiff) d = mshed_diff_documents (f->left, f->right, NULL, &error);

      g_assert_no_error (error);
      if (mshed_diff_is_empty (d))
        return;
      g_assert_true (mshed_copy_difference (f->left, f->right, mshed_diff_get_item (d, 0),
                                            to_right, &error));
      g_assert_no_error (error);
    }
  g_assert_not_reached ();
}

static void
test_difference (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GBytes) note = g_bytes_new_static ("notes", 5);
  g_autoptr(GBytes) right = NULL, left = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  guint8 bytes[2] = { 0xAB, 0xCD };
  g_autoptr(GBytes) patch = g_bytes_new_static (bytes, 2);
  gint r17 = mshed_model_find_resource (mshed_document_get_model (f->right), 17);

  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_SLOTS, 1, "unk30", 5, &error));
  g_assert_true (mshed_document_rename_node (f->right, 2, "Колесо", &error));
  g_assert_true (mshed_document_insert_rows (f->right, MSHED_TABLE_BATCHES, 1, 1, NULL, &error));
  g_assert_true (mshed_document_delete_rows (f->right, MSHED_TABLE_SLOTS, 4, 1, &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_POSITIONS, 3, "y", 2, &error));
  g_assert_cmpint (r17, >=, 0);
  g_assert_true (mshed_document_replace_bytes (f->right, (guint) r17, 2, 2, patch, &error));
  g_assert_cmpint (mshed_document_add_resource (f->right, G_MAXUINT, 0x4C4C554E, "notes", 0, 0,
                                                0, note, &error), >=, 0);
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, NULL), >=, 7);

  /* one difference: the name; exactly one item goes */
  d = mshed_diff_documents (f->left, f->right, NULL, &error);
  for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
    if (mshed_diff_get_item (d, i)->kind == MSHED_DIFF_TEXT)
      {
        guint n = mshed_diff_get_n_items (d);

        g_assert_true (mshed_copy_difference (f->left, f->right, mshed_diff_get_item (d, i),
                                              FALSE, &error));
        g_assert_no_error (error);
        g_assert_cmpuint (n_diffs (f, NULL), ==, n - 1);
        assert_one_step (f);
        g_assert_true (mshed_document_undo (f->left));
        break;
      }

  copy_all (f, FALSE);
  right = mshed_document_serialize (f->right);
  left = mshed_document_serialize (f->left);
  g_assert_true (g_bytes_equal (left, right));
  while (mshed_document_undo (f->left))
    ;
  g_clear_pointer (&left, g_bytes_unref);
  left = mshed_document_serialize (f->left);
  g_assert_true (g_bytes_equal (left, f->before));
  /* the other way: right becomes left */
  copy_all (f, TRUE);
}

static void
test_dfm (Fixture       *f,
          gconstpointer  data)
{
  MshedUtf *utf = mshed_document_get_utf (f->right);
  MshedUtfNode *points = mshed_utf_lookup (utf, "\\MultiLevel\\Mesh0\\Geometry\\Points");
  MshedUtfNode *cmpnd = mshed_utf_lookup (utf, "\\Cmpnd");
  g_autoptr(GBytes) data_bytes = g_bytes_new_static ("\1\2\3\4", 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) left = NULL, right = NULL;

  g_assert_nonnull (points);
  g_assert_nonnull (cmpnd);
  g_assert_true (mshed_document_dfm_set_field (f->right, points, 5, "y", "1.25", &error));
  g_assert_nonnull (mshed_document_utf_add (f->right, cmpnd, G_MAXUINT, "Extra", data_bytes,
                                            &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_diffs (f, NULL), >=, 2);
  copy_all (f, FALSE);
  left = mshed_document_serialize (f->left);
  right = mshed_document_serialize (f->right);
  g_assert_true (g_bytes_equal (left, right));
  while (mshed_document_undo (f->left))
    ;
  copy_all (f, TRUE);  /* removes Extra from the right */
  g_assert_null (mshed_utf_lookup (mshed_document_get_utf (f->right), "\\Cmpnd\\Extra"));
}

static void
test_errors (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) dfm = new_dfm_doc ();
  g_autoptr(GBytes) after = NULL;
  guint slots = mshed_model_get_n_rows (mshed_document_get_model (f->right), MSHED_TABLE_SLOTS);
  MshedNode n;

  g_assert_false (mshed_copy_cell (f->left, 0, f->right, slots + 3, MSHED_TABLE_SLOTS, "unk30",
                                   &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (mshed_copy_cell (f->left, 0, f->right, 0, MSHED_TABLE_SLOTS, "nope", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (mshed_copy_table (f->left, dfm, MSHED_TABLE_SLOTS, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  /* a node whose slot cells differ: refused after its first slot was copied, nothing changed */
  g_assert_true (mshed_model_get_node (mshed_document_get_model (f->right), 1, &n));
  g_assert_cmpuint (n.slot[0], !=, MSHED_NONE);
  g_assert_cmpuint (n.slot[14], ==, MSHED_NONE);
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_SLOTS, n.slot[0], "unk40", 3,
                                           &error));
  g_assert_true (mshed_document_set_field (f->right, MSHED_TABLE_NODES, 1, "slot14", 0, &error));
  g_assert_false (mshed_copy_node (f->left, 1, f->right, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  after = mshed_document_serialize (f->left);
  g_assert_true (g_bytes_equal (after, f->before));
  g_assert_false (mshed_document_can_undo (f->left));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn, dfm) \
  g_test_add ("/model/copy/" path, Fixture, (dfm) ? "dfm" : NULL, setup, fn, teardown)
  ADD ("cell", test_cell, FALSE);
  ADD ("record-and-table", test_record_and_table, FALSE);
  ADD ("node", test_node, FALSE);
  ADD ("resource", test_resource, FALSE);
  ADD ("difference", test_difference, FALSE);
  ADD ("dfm", test_dfm, TRUE);
  ADD ("errors", test_errors, FALSE);
#undef ADD
  return g_test_run ();
}
