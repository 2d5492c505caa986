/* test-diff.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The structural diff (docs/diff.md): each edit made through MshedDocument on a generated
 * model is named exactly by the diff of the model before and after it. Expected values come
 * from the edits the tests make.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-generator.h"
#include "mshed-diff.h"
#include "mshed-error.h"
#include "mshed-document.h"
#include "mshed-generator.h"
#include "mshed-source.h"
#include "tests/doc-test-util.h"

/* A generated model as a document, and the same model before any edit. */
typedef struct {
  MshedDocument *doc;
  MshedModel    *before;
} Pair;

static void
pair_init (Pair *p)
{
  g_autoptr(GBytes) bytes = NULL;

  p->doc = doc_test_new (31, 900, TRUE, TRUE);
  bytes = doc_test_bytes (p->doc);
  p->before = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
  g_assert_nonnull (p->before);
}

static void
pair_clear (Pair *p)
{
  g_clear_object (&p->doc);
  g_clear_pointer (&p->before, mshed_model_unref);
}

static MshedDiff *
pair_diff (Pair   *p,
           double  tolerance)
{
  MshedDiffOptions o = { tolerance, NULL };

  return mshed_diff_models (p->before, mshed_document_get_model (p->doc), &o);
}

static void
print_diff (const MshedDiff *d)
{
  for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
    {
      g_autofree char *line = mshed_diff_item_format (mshed_diff_get_item (d, i));

      g_test_message ("%s", line);
    }
}

static void
test_self (void)
{
  Pair p;
  g_autoptr(MshedDiff) d = NULL;
  g_autoptr(MshedDiff) same = NULL;
  g_autoptr(MshedDiff) mixed = NULL;
  g_autoptr(MshedDocument) dfm = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GError) error = NULL;
  MshedDfmGenParams gp;

  pair_init (&p);
  d = pair_diff (&p, 0);
  g_assert_true (mshed_diff_is_empty (d));
  g_assert_cmpuint (mshed_diff_get_n_counts (d), ==, 0);
  same = mshed_diff_documents (p.doc, p.doc, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_diff_is_empty (same));
  mshed_dfm_gen_params_init (&gp, MSHED_DFM_GEN_HAND, 1);
  utf = mshed_dfm_generate (&gp);
  dfm = mshed_document_new_for_utf (utf, MSHED_MODE_TOLERANT);
  mixed = mshed_diff_documents (p.doc, dfm, NULL, &error);
  g_assert_null (mixed);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  pair_clear (&p);
}

/* The text of @field in @record after writing @value (the schema's own formatter). */
static char *
format_value (const MshedField *field,
              const guint8     *record,
              guint             stride,
              double            value)
{
  g_autofree guint8 *copy = g_memdup2 (record, stride);

  mshed_field_write (field, copy, value);
  return mshed_field_format (field, copy);
}

typedef struct {
  MshedTableId table;
  const char  *field;
  guint        row;
} FieldEdit;

static const FieldEdit field_edits[] = {
  { MSHED_TABLE_NODES, "hdr0", 1 },
  { MSHED_TABLE_HEADER, "capR", 0 },
  { MSHED_TABLE_SLOTS, "unk34", 2 },
  { MSHED_TABLE_POSITIONS, "y", 7 },
  { MSHED_TABLE_NORMALS, "nw", 4 },
  { MSHED_TABLE_UVS, "v", 9 },
  { MSHED_TABLE_INDICES, "index", 5 },
  { MSHED_TABLE_TRIS, "flags", 3 },
  { MSHED_TABLE_KEYS, "posZ", 1 },
  { MSHED_TABLE_BATCHES, "unk6", 1 },
  { MSHED_TABLE_EXTRA15, "w1", 0 },
  { MSHED_TABLE_EXTRA16, "b", 0 },
  { MSHED_TABLE_EXTRA18, "value", 6 },
  { MSHED_TABLE_MAP, "key", 2 },
  { MSHED_TABLE_DIRECTORY, "attr2", 8 },
};

static void
test_field_every_table (void)
{
  guint tested = 0;

  for (guint e = 0; e < G_N_ELEMENTS (field_edits); e++)
    {
      const FieldEdit *edit = &field_edits[e];
      const MshedTableInfo *info = mshed_schema_get_table (edit->table);
      const MshedField *f = mshed_schema_find_field (info, edit->field);
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiff) d = NULL;
      g_autofree char *old_text = NULL, *new_text = NULL;
      const MshedDiffItem *item;
      guint8 dir_record[MSHED_NRES_RECORD_SIZE] = { 0 };
      const guint8 *record;
      double old_value, new_value;
      guint first = 0;
      Pair p;

      pair_init (&p);
      if (mshed_model_get_n_rows (p.before, edit->table) <= edit->row)
        {
          g_test_message ("no %s[%u] in the generated model", info->name, edit->row);
          pair_clear (&p);
          continue;
        }
      if (edit->table == MSHED_TABLE_DIRECTORY)
        {
          const MshedNresEntry *entry =
            mshed_nres_peek_entry (mshed_model_get_nres (p.before), edit->row);

          mshed_write_u32 (dir_record + f->offset, entry->attr2);
          record = dir_record;
        }
      else
        record = mshed_model_get_record (p.before, edit->table, edit->row);
      g_assert_nonnull (record);
      old_value = mshed_field_read (f, record);
      new_value = f->type == MSHED_FIELD_F32 ? old_value + 0.5 :
                  edit->table == MSHED_TABLE_INDICES ? (old_value == 0 ? 1 : old_value - 1) :
                  edit->table == MSHED_TABLE_MAP ? (old_value == 0 ? 1 : 0) :
                  old_value == 7 ? 8 : 7;
      g_assert_true (mshed_document_set_field (p.doc, edit->table, edit->row, edit->field,
                                               new_value, &error));
      g_assert_no_error (error);
      old_text = mshed_field_format (f, record);
      new_text = format_value (f, record, info->stride ? info->stride : 64, new_value);

      d = pair_diff (&p, 0);
      print_diff (d);
      if (edit->table == MSHED_TABLE_POSITIONS)
        {
          item = mshed_diff_get_item (d, first++);
          g_assert_cmpint (item->kind, ==, MSHED_DIFF_GEOMETRY);
          g_assert_cmpuint (item->moved_vertices, ==, 1);
          g_assert_cmpfloat_with_epsilon (item->max_displacement, 0.5, 1e-6);
          g_assert_cmpuint (item->changed_triangles, >, 0);
        }
      g_assert_cmpuint (mshed_diff_get_n_items (d), ==, first + 1);
      item = mshed_diff_get_item (d, first);
      g_assert_cmpint (item->kind, ==, MSHED_DIFF_FIELD);
      g_assert_cmpint (item->table, ==, edit->table);
      g_assert_cmpstr (item->table_name, ==, info->name);
      g_assert_cmpuint (item->row_a, ==, edit->row);
      g_assert_cmpuint (item->row_b, ==, edit->row);
      g_assert_cmpstr (item->field, ==, edit->field);
      g_assert_cmpstr (item->old_value, ==, old_text);
      g_assert_cmpstr (item->new_value, ==, new_text);
      g_assert_cmpstr (item->old_value, !=, item->new_value);
      if (edit->table != MSHED_TABLE_DIRECTORY)
        g_assert_cmpint (item->res_type, ==, info->res_type);
      {
        g_autofree char *line = mshed_diff_item_format (item);
        g_autofree char *want = g_strdup_printf ("%s[%u].%s: %s → %s", info->name, edit->row,
                                                 edit->field, old_text, new_text);

        g_assert_cmpstr (line, ==, want);
      }
      g_assert_cmpuint (mshed_diff_get_n_counts (d), ==, 1);
      g_assert_cmpstr (mshed_diff_get_count (d, 0)->table_name, ==, info->name);
      g_assert_cmpuint (mshed_diff_get_count (d, 0)->count, ==, first + 1);
      tested++;
      pair_clear (&p);
    }
  g_assert_cmpuint (tested, >=, G_N_ELEMENTS (field_edits) - 1);
}

static void
test_rename (void)
{
  Pair p;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  g_autofree char *old_name = NULL;
  const MshedDiffItem *item;

  pair_init (&p);
  old_name = mshed_model_dup_name (p.before, 2);
  g_assert_true (mshed_document_rename_node (p.doc, 2, "Колесо", &error));
  g_assert_no_error (error);
  d = pair_diff (&p, 0);
  print_diff (d);
  g_assert_cmpuint (mshed_diff_get_n_items (d), ==, 1);
  item = mshed_diff_get_item (d, 0);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_TEXT);
  g_assert_cmpint (item->table, ==, MSHED_TABLE_NAMES);
  g_assert_cmpuint (item->row_a, ==, 2);
  g_assert_cmpuint (item->row_b, ==, 2);
  g_assert_cmpstr (item->old_value, ==, old_name);
  g_assert_cmpstr (item->new_value, ==, "Колесо");
  pair_clear (&p);
}

/* Every item other than the row edit is a fix-up: a reference into @table, or the count. */
static void
assert_only_fixups (const MshedDiff *d,
                    MshedTableId     table,
                    MshedDiffKind    kind,
                    guint            row)
{
  guint found = 0;
  gboolean rows_changed[MSHED_N_TABLES] = { FALSE };

  /* a neutral node brings its own fallback key: references into Res8 move too */
  rows_changed[table] = TRUE;
  for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
    {
      const MshedDiffItem *item = mshed_diff_get_item (d, i);

      if (item->kind == MSHED_DIFF_ROW_ADDED || item->kind == MSHED_DIFF_ROW_REMOVED)
        rows_changed[item->table] = TRUE;
    }
  for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
    {
      const MshedDiffItem *item = mshed_diff_get_item (d, i);

      if (item->table != (gint) table && item->kind != MSHED_DIFF_FIELD)
        g_assert_true (table == MSHED_TABLE_NODES && item->table == MSHED_TABLE_KEYS);
      else if (item->table == (gint) table && item->kind != MSHED_DIFF_FIELD)
        {
          g_assert_cmpint (item->kind, ==, kind);
          g_assert_cmpuint (kind == MSHED_DIFF_ROW_ADDED ? item->row_b : item->row_a, ==, row);
          found++;
        }
      else if (item->table == MSHED_TABLE_DIRECTORY)
        g_assert_cmpstr (item->field, ==, "attr1");
      else
        {
          const MshedField *f = mshed_schema_find_field (mshed_schema_get_table (item->table),
                                                         item->field);

          g_assert_cmpint (item->kind, ==, MSHED_DIFF_FIELD);
          g_assert_nonnull (f);
          g_assert_cmpint (f->ref, !=, MSHED_TABLE_NONE);
          g_assert_true (rows_changed[f->ref]);
        }
    }
  g_assert_cmpuint (found, ==, 1);
}

static void
test_rows (void)
{
  static const struct {
    MshedTableId table;
    gboolean     insert;
    guint        row;
  } cases[] = {
    { MSHED_TABLE_SLOTS, TRUE, 1 },
    { MSHED_TABLE_SLOTS, FALSE, 3 },
    { MSHED_TABLE_NODES, TRUE, 2 },
    { MSHED_TABLE_NODES, FALSE, 4 },
    { MSHED_TABLE_BATCHES, TRUE, 0 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Pair p;
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiff) d = NULL;

      pair_init (&p);
      if (cases[c].insert)
        g_assert_true (mshed_document_insert_rows (p.doc, cases[c].table, cases[c].row, 1,
                                                   NULL, &error));
      else
        g_assert_true (mshed_document_delete_rows (p.doc, cases[c].table, cases[c].row, 1,
                                                   &error));
      g_assert_no_error (error);
      d = pair_diff (&p, 0);
      print_diff (d);
      assert_only_fixups (d, cases[c].table, cases[c].insert ? MSHED_DIFF_ROW_ADDED
                                                             : MSHED_DIFF_ROW_REMOVED,
                          cases[c].row);
      pair_clear (&p);
    }
}

/* An inserted node with a name: nodes after it stay paired with themselves by name. */
static void
test_node_alignment (void)
{
  Pair p;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  guint n = 0;

  pair_init (&p);
  g_assert_true (mshed_document_insert_rows (p.doc, MSHED_TABLE_NODES, 1, 1, NULL, &error));
  g_assert_true (mshed_document_rename_node (p.doc, 1, "Новый", &error));
  g_assert_no_error (error);
  d = pair_diff (&p, 0);
  print_diff (d);
  for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
    {
      const MshedDiffItem *item = mshed_diff_get_item (d, i);

      g_assert_cmpint (item->kind, !=, MSHED_DIFF_TEXT);
      if (item->kind == MSHED_DIFF_ROW_ADDED && item->table == MSHED_TABLE_KEYS)
        continue;  /* the new node's fallback key */
      if (item->kind == MSHED_DIFF_ROW_ADDED)
        {
          g_assert_cmpint (item->table, ==, MSHED_TABLE_NODES);
          g_assert_cmpuint (item->row_b, ==, 1);
          g_assert_cmpstr (item->new_value, ==, "Новый");
          n++;
        }
      else if (item->table == MSHED_TABLE_NODES)
        {
          /* only parents and fallback keys renumbered (the new node has its own key):
           * node i of the old model is node i + 1 now */
          g_assert_true (g_strcmp0 (item->field, "hdr1") == 0 ||
                         g_strcmp0 (item->field, "hdr3") == 0);
          g_assert_cmpuint (item->row_b, ==, item->row_a + 1);
        }
    }
  g_assert_cmpuint (n, ==, 1);
  pair_clear (&p);
}

static void
test_resources (void)
{
  Pair p;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  g_autoptr(GBytes) payload = g_bytes_new_static ("abcd", 4);
  const MshedDiffItem *item;
  gint res17, added;

  pair_init (&p);
  res17 = mshed_model_find_resource (p.before, 17);
  g_assert_cmpint (res17, >=, 0);
  g_assert_true (mshed_document_remove_resource (p.doc, (guint) res17, &error));
  added = mshed_document_add_resource (p.doc, G_MAXUINT, 0x4C4C554Eu, "notes", 1, 2, 3,
                                       payload, &error);
  g_assert_no_error (error);
  g_assert_cmpint (added, >=, 0);
  d = pair_diff (&p, 0);
  print_diff (d);
  g_assert_cmpuint (mshed_diff_get_n_items (d), ==, 2);
  item = mshed_diff_get_item (d, 0);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_RESOURCE_REMOVED);
  g_assert_cmpint (item->res_a, ==, res17);
  g_assert_cmpuint (item->res_type, ==, 17);
  item = mshed_diff_get_item (d, 1);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_RESOURCE_ADDED);
  g_assert_cmpint (item->res_b, ==, added);
  g_assert_cmpstr (item->new_value, ==, "notes");
  {
    g_autofree char *line = mshed_diff_item_format (item);

    /* 0x4C4C554E is "NULL" in its four characters */
    g_assert_cmpstr (line, ==, "NULL “notes”: added");
  }
  g_assert_cmpuint (mshed_diff_get_count (d, 0)->count, ==, 2);
  g_assert_cmpstr (mshed_diff_get_count (d, 0)->table_name, ==, "resources");
  pair_clear (&p);
}

static void
test_opaque_bytes (void)
{
  Pair p;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new_static ("\xAB\xCD", 2);
  const MshedDiffItem *item;
  gint res9 = -1;

  pair_init (&p);
  res9 = mshed_model_find_resource (p.before, 9);
  g_assert_cmpint (res9, >=, 0);
  g_assert_true (mshed_document_replace_bytes (p.doc, (guint) res9, 6, 2, bytes, &error));
  g_assert_no_error (error);
  d = pair_diff (&p, 0);
  print_diff (d);
  g_assert_cmpuint (mshed_diff_get_n_items (d), ==, 1);
  item = mshed_diff_get_item (d, 0);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_BYTES);
  g_assert_cmpuint (item->res_type, ==, 9);
  g_assert_cmpint (item->res_a, ==, res9);
  g_assert_cmpuint (item->offset, <=, 6);
  g_assert_cmpuint (item->offset + item->length_a, >=, 8);
  g_assert_cmpuint (item->length_a, ==, item->length_b);
  pair_clear (&p);
}

static void
test_tolerance (void)
{
  Pair p;
  g_autoptr(GError) error = NULL;
  float before[3], after[3];
  double moved;

  pair_init (&p);
  g_assert_true (mshed_model_get_position (p.before, 11, before));
  g_assert_true (mshed_document_set_field (p.doc, MSHED_TABLE_POSITIONS, 11, "x",
                                           (float) (before[0] + 0.01f), &error));
  g_assert_no_error (error);
  g_assert_true (mshed_model_get_position (mshed_document_get_model (p.doc), 11, after));
  moved = fabs ((double) after[0] - before[0]);
  {
    g_autoptr(MshedDiff) d = pair_diff (&p, 0.02);

    print_diff (d);
    g_assert_true (mshed_diff_is_empty (d));
  }
  {
    g_autoptr(MshedDiff) d = pair_diff (&p, 0.005);
    const MshedDiffItem *item;

    print_diff (d);
    g_assert_cmpuint (mshed_diff_get_n_items (d), ==, 2);
    item = mshed_diff_get_item (d, 0);
    g_assert_cmpint (item->kind, ==, MSHED_DIFF_GEOMETRY);
    g_assert_cmpfloat (item->max_displacement, ==, moved);
    g_assert_cmpuint (item->moved_vertices, ==, 1);
    item = mshed_diff_get_item (d, 1);
    g_assert_cmpuint (item->row_a, ==, 11);
    g_assert_cmpstr (item->field, ==, "x");
  }
  pair_clear (&p);
}

static void
test_table_filter (void)
{
  Pair p;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  MshedDiffOptions o = { 0, "batches" };

  pair_init (&p);
  g_assert_true (mshed_document_set_field (p.doc, MSHED_TABLE_SLOTS, 0, "unk30", 9, &error));
  g_assert_true (mshed_document_set_field (p.doc, MSHED_TABLE_BATCHES, 1, "unk4", 9, &error));
  g_assert_no_error (error);
  d = mshed_diff_models (p.before, mshed_document_get_model (p.doc), &o);
  g_assert_cmpuint (mshed_diff_get_n_items (d), ==, 1);
  g_assert_cmpstr (mshed_diff_get_item (d, 0)->table_name, ==, "batches");
  g_assert_cmpuint (mshed_diff_get_n_counts (d), ==, 1);
  /* the names of resource-level differences filter too */
  g_assert_true (mshed_document_remove_resource (p.doc, (guint) mshed_model_find_resource (
                   mshed_document_get_model (p.doc), 17), &error));
  g_assert_no_error (error);
  o.table = "resources";
  {
    g_autoptr(MshedDiff) r = mshed_diff_models (p.before, mshed_document_get_model (p.doc),
                                                &o);

    g_assert_cmpuint (mshed_diff_get_n_items (r), ==, 1);
    g_assert_cmpint (mshed_diff_get_item (r, 0)->kind, ==, MSHED_DIFF_RESOURCE_REMOVED);
  }
  pair_clear (&p);
}

/* Archives ------------------------------------------------------------------------------- */

static gint
first_model_entry (MshedNres *nres)
{
  for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
    if (mshed_entry_holds_model (mshed_nres_peek_entry (nres, i)))
      return (gint) i;
  return -1;
}

static void
test_archives (void)
{
  g_autoptr(MshedNres) a = mshed_generate_archive (5, 4, 300);
  g_autoptr(MshedNres) b = mshed_nres_copy (a);
  g_autoptr(MshedDiff) d = NULL;
  g_autoptr(GBytes) inner = NULL, edited = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autofree char *removed = NULL, *changed = NULL;
  guint8 *data;
  gint m, res3, last;
  guint kinds[3] = { 0 };

  m = first_model_entry (b);
  g_assert_cmpint (m, >=, 0);
  changed = mshed_nres_entry_dup_name (mshed_nres_peek_entry (b, (guint) m));
  inner = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (b, (guint) m));
  model = mshed_model_new_from_bytes (inner, MSHED_MODE_TOLERANT, NULL, NULL);
  res3 = mshed_model_find_resource (model, 3);
  data = mshed_nres_entry_make_mutable (mshed_model_get_nres (model), (guint) res3);
  mshed_write_u32 (data + 12 * 2 + 4, 0x40000000u);  /* vertex 2, y = 2 */
  mshed_model_refresh (model);
  edited = mshed_model_serialize (model);
  mshed_nres_set_payload (b, (guint) m, edited);
  last = (gint) mshed_nres_get_n_entries (b) - 1;
  g_assert_cmpint (last, !=, m);
  removed = mshed_nres_entry_dup_name (mshed_nres_peek_entry (b, (guint) last));
  mshed_nres_remove_entry (b, (guint) last);
  mshed_nres_append_entry (b, MSHED_TEXM_TYPE, 0, 0, 0, "new.tex", "xyz", 3);

  d = mshed_diff_archives (a, b, NULL);
  print_diff (d);
  for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
    {
      const MshedDiffItem *item = mshed_diff_get_item (d, i);

      switch (item->kind)
        {
        case MSHED_DIFF_RESOURCE_REMOVED:
          g_assert_cmpstr (item->entry, ==, removed);
          kinds[0]++;
          break;
        case MSHED_DIFF_RESOURCE_ADDED:
          g_assert_cmpstr (item->entry, ==, "new.tex");
          kinds[1]++;
          break;
        case MSHED_DIFF_RESOURCE_CHANGED:
          g_assert_cmpstr (item->entry, ==, changed);
          kinds[2]++;
          break;
        default:
          /* inside the changed model: the vertex (and its geometry summary) */
          g_assert_cmpstr (item->entry, ==, changed);
          g_assert_cmpint (item->table, ==, MSHED_TABLE_POSITIONS);
          if (item->kind == MSHED_DIFF_FIELD)
            {
              g_assert_cmpuint (item->row_a, ==, 2);
              g_assert_cmpstr (item->field, ==, "y");
              g_assert_cmpstr (item->new_value, ==, "2");
            }
          break;
        }
    }
  g_assert_cmpuint (kinds[0], ==, 1);
  g_assert_cmpuint (kinds[1], ==, 1);
  g_assert_cmpuint (kinds[2], ==, 1);
}

/* Deformable models ---------------------------------------------------------------------- */

typedef struct {
  MshedDocument *doc;
  MshedUtf      *before;
} DfmPair;

static void
dfm_pair_init (DfmPair *p)
{
  MshedDfmGenParams gp;
  g_autoptr(MshedUtf) utf = NULL;

  mshed_dfm_gen_params_init (&gp, MSHED_DFM_GEN_HEAD, 4);
  gp.n_points = 200;
  utf = mshed_dfm_generate (&gp);
  p->before = mshed_dfm_generate (&gp);
  p->doc = mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
  g_assert_nonnull (mshed_document_get_dfm (p->doc));
}

static void
dfm_pair_clear (DfmPair *p)
{
  g_clear_object (&p->doc);
  g_clear_pointer (&p->before, mshed_utf_unref);
}

static MshedDiff *
dfm_pair_diff (DfmPair *p)
{
  return mshed_diff_utf (p->before, mshed_document_get_utf (p->doc), NULL);
}

static void
test_dfm_point (void)
{
  DfmPair p;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  MshedUtfNode *points;
  const MshedDiffItem *item;

  dfm_pair_init (&p);
  points = mshed_utf_lookup (mshed_document_get_utf (p.doc),
                             "\\MultiLevel\\Mesh0\\Geometry\\Points");
  g_assert_nonnull (points);
  g_assert_true (mshed_document_dfm_set_field (p.doc, points, 5, "y", "1.25", &error));
  g_assert_no_error (error);
  d = dfm_pair_diff (&p);
  print_diff (d);
  g_assert_cmpuint (mshed_diff_get_n_items (d), ==, 2);
  item = mshed_diff_get_item (d, 0);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_GEOMETRY);
  g_assert_cmpuint (item->moved_vertices, ==, 1);
  g_assert_cmpuint (item->changed_triangles, >, 0);
  item = mshed_diff_get_item (d, 1);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_FIELD);
  g_assert_cmpint (item->table, ==, MSHED_DFM_TABLE_POINTS);
  g_assert_cmpstr (item->path, ==, "\\MultiLevel\\Mesh0\\Geometry\\Points");
  g_assert_cmpuint (item->row_a, ==, 5);
  g_assert_cmpstr (item->field, ==, "y");
  g_assert_cmpstr (item->new_value, ==, "1.25");
  dfm_pair_clear (&p);
}

static void
test_dfm_cons (void)
{
  DfmPair p;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiff) d = NULL;
  MshedUtfNode *cons;
  const MshedDiffItem *item;
  const char *field = "posX";

  dfm_pair_init (&p);
  cons = mshed_utf_lookup (mshed_document_get_utf (p.doc), "\\Cmpnd\\Cons\\Loose");
  if (cons == NULL)
    {
      cons = mshed_utf_lookup (mshed_document_get_utf (p.doc), "\\Cmpnd\\Cons\\Sphere");
      field = "parentX";
    }
  g_assert_nonnull (cons);
  g_assert_true (mshed_document_dfm_set_field (p.doc, cons, 1, field, "0.5", &error));
  g_assert_no_error (error);
  d = dfm_pair_diff (&p);
  print_diff (d);
  g_assert_cmpuint (mshed_diff_get_n_items (d), ==, 1);
  item = mshed_diff_get_item (d, 0);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_FIELD);
  g_assert_cmpuint (item->row_a, ==, 1);
  g_assert_cmpstr (item->field, ==, field);
  g_assert_cmpstr (item->new_value, ==, "0.5");
  dfm_pair_clear (&p);
}

static void
test_dfm_bone_rename_and_removal (void)
{
  DfmPair p;
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm;
  MshedDfmBone bone;
  g_autofree char *old_name = NULL, *old_path = NULL, *removed_path = NULL;
  MshedUtfNode *victim;
  guint renamed = 0, removed = 0;

  dfm_pair_init (&p);
  dfm = mshed_document_get_dfm (p.doc);
  g_assert_true (mshed_dfm_get_bone (dfm, 3, &bone));
  old_name = g_strdup (mshed_utf_node_get_name (bone.node));
  old_path = mshed_utf_node_dup_path (bone.node);
  g_assert_true (mshed_document_utf_rename (p.doc, bone.node, "Renamed.3db", &error));
  g_assert_no_error (error);
  victim = mshed_utf_lookup (mshed_document_get_utf (p.doc), "\\MultiLevel\\Mesh1\\Geometry\\UV0");
  g_assert_nonnull (victim);
  removed_path = mshed_utf_node_dup_path (victim);
  g_assert_true (mshed_document_utf_remove (p.doc, victim, &error));
  g_assert_no_error (error);
  {
    g_autoptr(MshedDiff) d = dfm_pair_diff (&p);

    print_diff (d);
    for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
      {
        const MshedDiffItem *item = mshed_diff_get_item (d, i);

        if (item->kind == MSHED_DIFF_RENAMED)
          {
            g_assert_cmpstr (item->old_value, ==, old_name);
            g_assert_cmpstr (item->new_value, ==, "Renamed.3db");
            renamed++;
          }
        else if (item->kind == MSHED_DIFF_RESOURCE_REMOVED)
          {
            g_assert_cmpstr (item->path, ==, removed_path);
            removed++;
          }
        else
          {
            /* the part's File name that names the bone directory follows the rename */
            g_assert_cmpint (item->kind, ==, MSHED_DIFF_TEXT);
            g_assert_cmpint (item->table, ==, MSHED_DFM_TABLE_FILE_NAME);
            g_assert_cmpstr (item->new_value, ==, "Renamed.3db");
          }
      }
  }
  g_assert_cmpuint (renamed, ==, 1);
  g_assert_cmpuint (removed, ==, 1);
  dfm_pair_clear (&p);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff/self", test_self);
  g_test_add_func ("/diff/field-every-table", test_field_every_table);
  g_test_add_func ("/diff/rename", test_rename);
  g_test_add_func ("/diff/rows", test_rows);
  g_test_add_func ("/diff/node-alignment", test_node_alignment);
  g_test_add_func ("/diff/resources", test_resources);
  g_test_add_func ("/diff/opaque-bytes", test_opaque_bytes);
  g_test_add_func ("/diff/tolerance", test_tolerance);
  g_test_add_func ("/diff/table-filter", test_table_filter);
  g_test_add_func ("/diff/archives", test_archives);
  g_test_add_func ("/diff/dfm-point", test_dfm_point);
  g_test_add_func ("/diff/dfm-cons", test_dfm_cons);
  g_test_add_func ("/diff/dfm-bone-rename-and-removal", test_dfm_bone_rename_and_removal);
  return g_test_run ();
}
