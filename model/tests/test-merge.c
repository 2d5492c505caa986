/* test-merge.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The three-way merge (docs/diff.md §5): edits made through MshedDocument on copies of one
 * generated model; the merge of edits that do not overlap gives the bytes of a document that
 * made all of them; overlapping different edits are conflicts; equal edits are not.
 */
#include "config.h"

#include <string.h>

#include "mshed-dfm-generator.h"
#include "mshed-error.h"
#include "mshed-merge.h"
#include "mshed-merge-changes.h"
#include "tests/doc-test-util.h"

#define SEED 77

static MshedDocument *
new_doc (void)
{
  return doc_test_new (SEED, 900, TRUE, TRUE);
}

/* BASE, MINE and THEIRS: three documents on one generated model (DFM when @data is set). */
typedef struct {
  MshedDocument *base;
  MshedDocument *mine;
  MshedDocument *theirs;
} Trio;

static MshedDocument *new_dfm_doc (void);

static void
trio_setup (Trio          *f,
            gconstpointer  data)
{
  f->base = data ? new_dfm_doc () : new_doc ();
  f->mine = data ? new_dfm_doc () : new_doc ();
  f->theirs = data ? new_dfm_doc () : new_doc ();
}

static void
trio_teardown (Trio          *f,
               gconstpointer  data)
{
  g_clear_object (&f->base);
  g_clear_object (&f->mine);
  g_clear_object (&f->theirs);
}

static void
assert_same_bytes (GBytes *a,
                   GBytes *b)
{
  g_assert_cmpuint (g_bytes_get_size (a), ==, g_bytes_get_size (b));
  g_assert_true (g_bytes_equal (a, b));
}

static MshedMerge *
merge_docs (MshedDocument *base,
            MshedDocument *mine,
            MshedDocument *theirs)
{
  return mshed_merge_models (mshed_document_get_model (base), mshed_document_get_model (mine),
                             mshed_document_get_model (theirs));
}

static MshedDocument *
apply_ok (MshedMerge *m)
{
  g_autoptr(GError) error = NULL;
  MshedDocument *doc = mshed_merge_apply (m, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* The merge applies without an error and gives exactly @want's bytes. */
static void
assert_merge_gives (MshedMerge    *m,
                    MshedDocument *want)
{
  g_autoptr(MshedDocument) merged = apply_ok (m);
  g_autoptr(GBytes) a = mshed_document_serialize (merged);
  g_autoptr(GBytes) b = mshed_document_serialize (want);

  assert_same_bytes (a, b);
}

/* mine's edits (@doc: mine or both); both sides edit Res1, Res2 and Res10, other fields */
static void
edit_mine (MshedDocument *doc)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 1, "unk30", 5, &error));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_NODES, 1, "hdr0", 0x33, &error));
  g_assert_true (mshed_document_rename_node (doc, 2, "Колесо", &error));
  g_assert_true (mshed_document_insert_rows (doc, MSHED_TABLE_BATCHES, 1, 1, NULL, &error));
  g_assert_no_error (error);
}

static void
edit_theirs (MshedDocument *doc)
{
  g_autoptr(GError) error = NULL;
  gint res17 = mshed_model_find_resource (mshed_document_get_model (doc), 17);
  g_autoptr(GBytes) payload = g_bytes_new_static ("note", 4);

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 3, "x", 1.5, &error));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_NODES, 4, "hdr0", 0x21, &error));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 4, "unk38", 9, &error));
  g_assert_true (mshed_document_rename_node (doc, 0, "Корпус", &error));
  g_assert_true (mshed_document_remove_resource (doc, (guint) res17, &error));
  g_assert_cmpint (mshed_document_add_resource (doc, G_MAXUINT, 0x4C4C554Eu, "notes", 1, 0, 0,
                                                payload, &error), >=, 0);
  g_assert_no_error (error);
}

static void
test_non_overlapping (Trio          *f,
                      gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedDocument) both = new_doc ();
  g_autoptr(MshedDocument) merged = NULL;
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(GBytes) want = NULL, got = NULL;

  edit_mine (mine);
  edit_theirs (theirs);
  edit_mine (both);
  edit_theirs (both);
  m = merge_docs (base, mine, theirs);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 0);
  merged = apply_ok (m);
  want = doc_test_bytes (both);
  got = doc_test_bytes (merged);
  assert_same_bytes (got, want);
  doc_test_assert_valid (merged);
  /* the merge is one undo step on BASE */
  g_assert_true (mshed_document_undo (merged));
  {
    g_autoptr(GBytes) undone = doc_test_bytes (merged);
    g_autoptr(GBytes) original = doc_test_bytes (base);

    assert_same_bytes (undone, original);
  }
}

static void
test_conflict (Trio          *f,
               gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) none = NULL;
  const MshedMergeConflict *c;
  guint8 rec[68] = { 0 };
  const MshedField *field = mshed_schema_find_field (mshed_schema_get_table (MSHED_TABLE_SLOTS),
                                                 "unk30");
  const guint8 *base_rec = mshed_model_get_record (mshed_document_get_model (base),
                                                   MSHED_TABLE_SLOTS, 1);
  g_autofree char *base_text = mshed_field_format (field, base_rec);

  g_assert_true (mshed_document_set_field (mine, MSHED_TABLE_SLOTS, 1, "unk30", 5, &error));
  g_assert_true (mshed_document_set_field (theirs, MSHED_TABLE_SLOTS, 1, "unk30", 6, &error));
  /* also an edit only one side made: merged without a conflict */
  g_assert_true (mshed_document_set_field (theirs, MSHED_TABLE_SLOTS, 2, "unk34", 7, &error));
  g_assert_no_error (error);
  m = merge_docs (base, mine, theirs);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 1);
  c = mshed_merge_get_conflict (m, 0);
  g_assert_cmpint (c->kind, ==, MSHED_MERGE_CONFLICT_FIELD);
  g_assert_cmpint (c->table, ==, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (c->row, ==, 1);
  g_assert_cmpstr (c->field, ==, "unk30");
  g_assert_cmpstr (c->base_value, ==, base_text);
  g_assert_cmpstr (c->mine_value, ==, "0x00000005");
  g_assert_cmpstr (c->theirs_value, ==, "0x00000006");
  g_assert_cmpuint (c->res_type, ==, 2);
  {
    g_autofree char *line = mshed_merge_conflict_format (c);
    g_autofree char *want = g_strdup_printf ("slots[1].unk30: base %s, mine 0x00000005, "
                                             "theirs 0x00000006", base_text);

    g_assert_cmpstr (line, ==, want);
  }
  none = mshed_merge_apply (m, &error);
  g_assert_null (none);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);

  for (guint side = MSHED_MERGE_MINE; side <= MSHED_MERGE_THEIRS; side++)
    {
      g_autoptr(MshedDocument) merged = NULL;
      MshedModel *model;

      mshed_merge_resolve (m, 0, (MshedMergeChoice) side);
      g_assert_cmpuint (mshed_merge_get_n_unresolved (m), ==, 0);
      merged = apply_ok (m);
      model = mshed_document_get_model (merged);
      memcpy (rec, mshed_model_get_record (model, MSHED_TABLE_SLOTS, 1), 68);
      g_assert_cmpfloat (mshed_field_read (field, rec), ==, side == MSHED_MERGE_MINE ? 5 : 6);
      memcpy (rec, mshed_model_get_record (model, MSHED_TABLE_SLOTS, 2), 68);
      g_assert_cmpfloat (mshed_field_read (mshed_schema_find_field (
                           mshed_schema_get_table (MSHED_TABLE_SLOTS), "unk34"), rec), ==, 7);
    }
}

/* A choice changed in a built and edited result (docs/diff.md §5.5): one undo step that
 * writes the chosen side's value and keeps the edit; the result tells which side it holds. */
static void
test_choose_in_result (Trio          *f,
                       gconstpointer  data)
{
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(MshedDocument) result = NULL;
  g_autoptr(MshedDocument) want = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) got = NULL, expected = NULL, mine_edited = NULL;
  g_autofree char *name = NULL;

  g_assert_true (mshed_document_set_field (f->mine, MSHED_TABLE_SLOTS, 1, "unk30", 5, &error));
  g_assert_true (mshed_document_rename_node (f->mine, 2, "Колесо", &error));
  g_assert_true (mshed_document_set_field (f->theirs, MSHED_TABLE_SLOTS, 1, "unk30", 6, &error));
  g_assert_true (mshed_document_rename_node (f->theirs, 2, "Wheel", &error));
  /* a resource THEIRS removes: the directory of the result is shorter than BASE's */
  g_assert_true (mshed_document_remove_resource (f->theirs, (guint) mshed_model_find_resource (
                                                   mshed_document_get_model (f->theirs), 17),
                                                 &error));
  g_assert_no_error (error);
  m = merge_docs (f->base, f->mine, f->theirs);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_true (mshed_merge_can_choose_in_result (m, i));
  mshed_merge_resolve_all (m, MSHED_MERGE_MINE);
  result = apply_ok (m);
  /* the user's edit in the result */
  g_assert_true (mshed_document_set_field (result, MSHED_TABLE_SLOTS, 3, "unk30", 11, &error));
  g_assert_no_error (error);
  mine_edited = doc_test_bytes (result);
  g_assert_cmpint (mshed_merge_read_result_choice (m, result, 0), ==, MSHED_MERGE_MINE);

  /* Theirs for every conflict: one step, the edit stays */
  g_assert_true (mshed_merge_choose_in_result (m, result, G_MAXUINT, MSHED_MERGE_THEIRS,
                                               &error));
  g_assert_no_error (error);
  g_assert_cmpint (mshed_merge_get_conflict (m, 0)->choice, ==, MSHED_MERGE_THEIRS);
  g_assert_cmpint (mshed_merge_get_conflict (m, 1)->choice, ==, MSHED_MERGE_THEIRS);
  g_assert_cmpint (mshed_merge_read_result_choice (m, result, 0), ==, MSHED_MERGE_THEIRS);
  g_assert_cmpint (mshed_merge_read_result_choice (m, result, 1), ==, MSHED_MERGE_THEIRS);
  name = mshed_model_dup_name (mshed_document_get_model (result), 2);
  g_assert_cmpstr (name, ==, "Wheel");
  /* exactly what the merge built with Theirs, plus the same edit */
  want = apply_ok (m);
  g_assert_true (mshed_document_set_field (want, MSHED_TABLE_SLOTS, 3, "unk30", 11, &error));
  g_assert_no_error (error);
  got = doc_test_bytes (result);
  expected = doc_test_bytes (want);
  assert_same_bytes (got, expected);

  /* one undo step back to Mine, as the result reads */
  g_assert_true (mshed_document_undo (result));
  g_clear_pointer (&got, g_bytes_unref);
  got = doc_test_bytes (result);
  assert_same_bytes (got, mine_edited);
  g_assert_cmpint (mshed_merge_read_result_choice (m, result, 0), ==, MSHED_MERGE_MINE);
  g_assert_cmpint (mshed_merge_read_result_choice (m, result, 1), ==, MSHED_MERGE_MINE);
  /* a third value: neither side */
  g_assert_true (mshed_document_set_field (result, MSHED_TABLE_SLOTS, 1, "unk30", 9, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mshed_merge_read_result_choice (m, result, 0), ==, MSHED_MERGE_UNRESOLVED);
}

/* The changes taken without asking, for the merge view (docs/diff.md §5.5): each side's own
 * edit marked with its side, the same edit on both sides once as "both", and the cell of the
 * conflict left out (it is listed as the conflict). */
static void
test_changes (Trio          *f,
              gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(MshedMergeChanges) changes = NULL;
  g_autoptr(GError) error = NULL;
  static const struct {
    MshedMergeOrigin origin;
    MshedTableId     table;
    guint            row;
    const char      *field;
    const char      *line;
  } want[] = {
    { MSHED_MERGE_FROM_MINE, MSHED_TABLE_NODES, 1, "hdr0", "mine: nodes[1].hdr0: " },
    { MSHED_MERGE_FROM_THEIRS, MSHED_TABLE_SLOTS, 2, "unk34", "theirs: slots[2].unk34: " },
    { MSHED_MERGE_FROM_BOTH, MSHED_TABLE_BATCHES, 2, "unk6", "both: batches[2].unk6: " },
  };

  g_assert_true (mshed_document_set_field (mine, MSHED_TABLE_SLOTS, 1, "unk30", 5, &error));
  g_assert_true (mshed_document_set_field (theirs, MSHED_TABLE_SLOTS, 1, "unk30", 6, &error));
  g_assert_true (mshed_document_set_field (mine, MSHED_TABLE_NODES, 1, "hdr0", 0x33, &error));
  g_assert_true (mshed_document_set_field (theirs, MSHED_TABLE_SLOTS, 2, "unk34", 7, &error));
  g_assert_true (mshed_document_set_field (mine, MSHED_TABLE_BATCHES, 2, "unk6", 3, &error));
  g_assert_true (mshed_document_set_field (theirs, MSHED_TABLE_BATCHES, 2, "unk6", 3, &error));
  g_assert_no_error (error);
  m = merge_docs (base, mine, theirs);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 1);
  changes = mshed_merge_changes_new (m, base, mine, theirs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_merge_changes_get_n (changes), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const MshedMergeChange *c = mshed_merge_changes_get (changes, i);
      g_autofree char *line = mshed_merge_change_format (c);

      g_assert_cmpint (c->origin, ==, want[i].origin);
      g_assert_cmpint (c->item->table, ==, want[i].table);
      g_assert_cmpuint (c->item->row_a, ==, want[i].row);
      g_assert_cmpstr (c->item->field, ==, want[i].field);
      g_assert_true (g_str_has_prefix (line, want[i].line));
    }
  {
    g_autofree char *line = mshed_merge_change_format (mshed_merge_changes_get (changes, 1));

    g_assert_true (g_str_has_suffix (line, " → 0x00000007"));
  }
}

static void
test_same_edit (Trio          *f,
                gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(GError) error = NULL;

  for (guint s = 0; s < 2; s++)
    {
      MshedDocument *doc = s ? theirs : mine;

      g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_BATCHES, 2, "unk6", 3, &error));
      g_assert_true (mshed_document_rename_node (doc, 1, "Башня", &error));
      g_assert_no_error (error);
    }
  m = merge_docs (base, mine, theirs);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 0);
  assert_merge_gives (m, mine);
}

static void
test_name_conflict (Trio          *f,
                    gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(MshedDocument) merged = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  const MshedMergeConflict *c;

  g_assert_true (mshed_document_rename_node (mine, 3, "Левый", &error));
  g_assert_true (mshed_document_rename_node (theirs, 3, "Правый", &error));
  g_assert_no_error (error);
  m = merge_docs (base, mine, theirs);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 1);
  c = mshed_merge_get_conflict (m, 0);
  g_assert_cmpint (c->kind, ==, MSHED_MERGE_CONFLICT_TEXT);
  g_assert_cmpuint (c->row, ==, 3);
  g_assert_cmpstr (c->mine_value, ==, "Левый");
  g_assert_cmpstr (c->theirs_value, ==, "Правый");
  mshed_merge_resolve_all (m, MSHED_MERGE_THEIRS);
  merged = apply_ok (m);
  name = mshed_model_dup_name (mshed_document_get_model (merged), 3);
  g_assert_cmpstr (name, ==, "Правый");
}

/* Rows inserted on both sides of one table: the whole resource is one conflict. */
static void
test_rows_both_sides (Trio          *f,
                      gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(GError) error = NULL;
  guint whole = 0;

  g_assert_true (mshed_document_insert_rows (mine, MSHED_TABLE_SLOTS, 1, 1, NULL, &error));
  g_assert_true (mshed_document_insert_rows (theirs, MSHED_TABLE_SLOTS, 3, 2, NULL, &error));
  g_assert_no_error (error);
  m = merge_docs (base, mine, theirs);
  for (guint i = 0; i < mshed_merge_get_n_conflicts (m); i++)
    {
      const MshedMergeConflict *c = mshed_merge_get_conflict (m, i);

      if (c->kind == MSHED_MERGE_CONFLICT_RESOURCE)
        {
          g_assert_cmpuint (c->res_type, ==, 2);
          whole++;
        }
    }
  g_assert_cmpuint (whole, ==, 1);
  mshed_merge_resolve_all (m, MSHED_MERGE_MINE);
  assert_merge_gives (m, mine);
}

/* Deformable models ---------------------------------------------------------------------- */

static MshedDocument *
new_dfm_doc (void)
{
  return doc_test_new_dfm (200);
}

static MshedUtfNode *
node_at (MshedDocument *doc,
         const char    *path)
{
  MshedUtfNode *node = mshed_utf_lookup (mshed_document_get_utf (doc), path);

  g_assert_nonnull (node);
  return node;
}

#define POINTS "\\MultiLevel\\Mesh0\\Geometry\\Points"
#define SCALE "\\Cmpnd\\Scale"

static void
test_dfm (Trio          *f,
          gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedDocument) both = new_dfm_doc ();
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(GError) error = NULL;

  for (guint s = 0; s < 2; s++)
    {
      MshedDocument *doc = s ? both : mine;

      g_assert_true (mshed_document_dfm_set_field (doc, node_at (doc, POINTS), 4, "x", "0.75",
                                                   &error));
      g_assert_true (mshed_document_utf_remove (doc, node_at (doc, "\\MultiLevel\\Mesh3"
                                                              "\\Geometry\\UV0"), &error));
      g_assert_no_error (error);
    }
  for (guint s = 0; s < 2; s++)
    {
      MshedDocument *doc = s ? both : theirs;

      g_assert_true (mshed_document_dfm_set_field (doc, node_at (doc, POINTS), 9, "z", "-0.5",
                                                   &error));
      g_assert_true (mshed_document_dfm_set_field (doc, node_at (doc, SCALE), 0, "scale", "2",
                                                   &error));
      g_assert_no_error (error);
    }
  m = mshed_merge_documents (base, mine, theirs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 0);
  assert_merge_gives (m, both);

  /* the same point moved differently: one field conflict, named by its path */
  g_assert_true (mshed_document_dfm_set_field (theirs, node_at (theirs, POINTS), 4, "x",
                                               "0.25", &error));
  g_assert_no_error (error);
  {
    g_autoptr(MshedMerge) m2 = mshed_merge_utf (mshed_document_get_utf (base),
                                                mshed_document_get_utf (mine),
                                                mshed_document_get_utf (theirs));
    const MshedMergeConflict *c;

    g_assert_cmpuint (mshed_merge_get_n_conflicts (m2), ==, 1);
    c = mshed_merge_get_conflict (m2, 0);
    g_assert_cmpint (c->kind, ==, MSHED_MERGE_CONFLICT_FIELD);
    g_assert_cmpstr (c->path, ==, POINTS);
    g_assert_cmpuint (c->row, ==, 4);
    g_assert_cmpstr (c->field, ==, "x");
    g_assert_cmpstr (c->mine_value, ==, "0.75");
    g_assert_cmpstr (c->theirs_value, ==, "0.25");
    {
      const MshedField *x = mshed_dfm_schema_find_field (
        mshed_dfm_schema_get_table (MSHED_DFM_TABLE_POINTS), "x");
      const guint8 *points = mshed_utf_node_peek_data (node_at (base, POINTS), NULL);
      g_autofree char *old = mshed_field_format (x, points + 4 * 12);
      g_autofree char *want = g_strdup_printf (POINTS "[4].x: base %s, mine 0.75, theirs 0.25",
                                               old);
      g_autofree char *line = mshed_merge_conflict_format (c);

      g_assert_cmpstr (c->base_value, ==, old);
      g_assert_cmpstr (line, ==, want);
    }
  }
}

/* Nodes added on one side (a directory holding a file and an empty file) and removed on the
 * other come through; the result equals a document that made every edit. */
static void
test_utf_tree (Trio          *f,
               gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedDocument) both = new_dfm_doc ();
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(GError) error = NULL;

  for (guint s = 0; s < 2; s++)
    {
      MshedDocument *doc = s ? both : mine;
      MshedUtfNode *root = mshed_utf_get_root (mshed_document_get_utf (doc));
      g_autoptr(GBytes) note = g_bytes_new_static ("note", 4);
      g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
      MshedUtfNode *dir = mshed_document_utf_add (doc, root, 1, "Extra", NULL, &error);

      g_assert_nonnull (dir);
      g_assert_nonnull (mshed_document_utf_add (doc, dir, 0, "Note", note, &error));
      g_assert_nonnull (mshed_document_utf_add (doc, dir, 1, "Empty", empty, &error));
      g_assert_no_error (error);
    }
  for (guint s = 0; s < 2; s++)
    {
      MshedDocument *doc = s ? both : theirs;

      g_assert_true (mshed_document_utf_remove (doc, node_at (doc, "\\MultiLevel\\Mesh2"
                                                              "\\Geometry\\UV0"), &error));
      g_assert_no_error (error);
    }
  m = mshed_merge_documents (base, mine, theirs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 0);
  assert_merge_gives (m, both);
  {
    g_autoptr(MshedDocument) merged = apply_ok (m);
    MshedUtfNode *empty = node_at (merged, "\\Extra\\Empty");

    g_assert_false (mshed_utf_node_is_directory (empty));
  }
}

/* A file one side removed and the other changed: one conflict for the whole node. */
static void
test_utf_remove_vs_change (Trio          *f,
                           gconstpointer  data)
{
  MshedDocument *base = f->base, *mine = f->mine, *theirs = f->theirs;
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(GError) error = NULL;
  const MshedMergeConflict *c;
  const char *uv0 = "\\MultiLevel\\Mesh1\\Geometry\\UV0";

  g_assert_true (mshed_document_utf_remove (mine, node_at (mine, uv0), &error));
  g_assert_true (mshed_document_dfm_set_field (theirs, node_at (theirs, uv0), 2, "u", "0.5",
                                               &error));
  g_assert_no_error (error);
  m = mshed_merge_documents (base, mine, theirs, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (m), ==, 1);
  c = mshed_merge_get_conflict (m, 0);
  g_assert_cmpint (c->kind, ==, MSHED_MERGE_CONFLICT_RESOURCE);
  g_assert_cmpstr (c->path, ==, uv0);
  g_assert_null (c->mine_value);
  g_assert_nonnull (c->theirs_value);
  mshed_merge_resolve (m, 0, MSHED_MERGE_THEIRS);
  assert_merge_gives (m, theirs);
  mshed_merge_resolve (m, 0, MSHED_MERGE_MINE);
  assert_merge_gives (m, mine);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/merge/non-overlapping", Trio, NULL, trio_setup, test_non_overlapping,
              trio_teardown);
  g_test_add ("/merge/conflict", Trio, NULL, trio_setup, test_conflict, trio_teardown);
  g_test_add ("/merge/choose-in-result", Trio, NULL, trio_setup, test_choose_in_result,
              trio_teardown);
  g_test_add ("/merge/changes", Trio, NULL, trio_setup, test_changes, trio_teardown);
  g_test_add ("/merge/same-edit", Trio, NULL, trio_setup, test_same_edit, trio_teardown);
  g_test_add ("/merge/name-conflict", Trio, NULL, trio_setup, test_name_conflict, trio_teardown);
  g_test_add ("/merge/rows-both-sides", Trio, NULL, trio_setup, test_rows_both_sides,
              trio_teardown);
  g_test_add ("/merge/dfm", Trio, GINT_TO_POINTER (1), trio_setup, test_dfm, trio_teardown);
  g_test_add ("/merge/utf-tree", Trio, GINT_TO_POINTER (1), trio_setup, test_utf_tree,
              trio_teardown);
  g_test_add ("/merge/utf-remove-vs-change", Trio, GINT_TO_POINTER (1), trio_setup,
              test_utf_remove_vs_change, trio_teardown);
  return g_test_run ();
}
