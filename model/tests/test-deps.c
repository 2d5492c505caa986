/* test-deps.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The dependency matrix (docs/msh.md §10.3) and the stale marks edits leave.
 */
#include "config.h"

#include "doc-test-util.h"
#include "mshed-deps.h"
#include "mshed-schema.h"

static void
test_matrix_labels (void)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) dnames = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint k = 0; k < MSHED_N_EDIT_KINDS; k++)
    {
      MshedDerived optional, required = mshed_deps_get (k, &optional);

      g_assert_nonnull (mshed_edit_kind_get_label (k));
      g_assert_true (g_hash_table_add (names, (gpointer) mshed_edit_kind_get_name (k)));
      g_assert_cmpuint (required & optional, ==, 0);
      for (guint t = 0; t < MSHED_N_DERIVED; t++)
        {
          MshedDerived target = 1u << t;
          const char *why = mshed_deps_describe (k, target);

          /* every cell of the matrix has a reason, and only those */
          if ((required | optional) & target)
            g_assert_nonnull (why);
          else
            g_assert_null (why);
        }
    }
  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    {
      MshedDerived target = 1u << t;

      g_assert_cmpint (mshed_derived_get_index (target), ==, (gint) t);
      g_assert_nonnull (mshed_derived_get_label (target));
      g_assert_true (g_hash_table_add (dnames, (gpointer) mshed_derived_get_name (target)));
      g_assert_cmpint (mshed_derived_get_table (target), >=, 0);
      g_assert_cmpint (mshed_derived_is_recomputable (target), ==,
                       (MSHED_DERIVED_RECOMPUTABLE & target) != 0);
    }
  g_assert_cmpint (mshed_derived_get_index (MSHED_DERIVED_BOUNDS), ==, -1);
  /* the rows of docs/msh.md §10.3; moving vertices also touches the links, because our link
   * convention meets triangles by corner position (docs/conventions.md) */
  g_assert_cmpuint (mshed_deps_get (MSHED_EDIT_MOVE_VERTICES, NULL), ==,
                    MSHED_DERIVED_SLOT_BOX | MSHED_DERIVED_SLOT_SPHERE |
                    MSHED_DERIVED_HEADER_BOUNDS | MSHED_DERIVED_TRI_NORMALS |
                    MSHED_DERIVED_TRI_LINKS);
  g_assert_true (mshed_derived_is_convention (MSHED_DERIVED_SLOT_SPHERE));
  g_assert_false (mshed_derived_is_convention (MSHED_DERIVED_SLOT_BOX));
  g_assert_false (mshed_derived_is_convention (MSHED_DERIVED_ANIMATION_MAP));
  g_assert_false (mshed_derived_is_convention (MSHED_DERIVED_SLOT_BOUNDS));
  g_assert_true (mshed_deps_get (MSHED_EDIT_TOPOLOGY, NULL) & MSHED_DERIVED_TRI_LINKS);
  g_assert_true (mshed_deps_get (MSHED_EDIT_TOPOLOGY, NULL) & MSHED_DERIVED_SLOT_RANGES);
  g_assert_cmpuint (mshed_deps_get (MSHED_EDIT_MATERIAL, NULL), ==, 0);
  g_assert_cmpuint (mshed_deps_get (MSHED_EDIT_UVS, NULL), ==, 0);
  g_assert_cmpuint (mshed_deps_get (MSHED_EDIT_RENAME, NULL), ==, 0);
  g_assert_cmpuint (mshed_deps_get (MSHED_EDIT_ANIMATION, NULL), ==, MSHED_DERIVED_ANIMATION_MAP);
}

static void
test_classify (void)
{
  static const struct {
    MshedTableId  table;
    const char   *field;
    MshedEditKind kind;
  } cases[] = {
    { MSHED_TABLE_POSITIONS, "x", MSHED_EDIT_MOVE_VERTICES },
    { MSHED_TABLE_NORMALS, "ny", MSHED_EDIT_VERTEX_NORMALS },
    { MSHED_TABLE_NORMALS, "nw", MSHED_EDIT_OPAQUE },
    { MSHED_TABLE_UVS, "u", MSHED_EDIT_UVS },
    { MSHED_TABLE_INDICES, "index", MSHED_EDIT_TOPOLOGY },
    { MSHED_TABLE_BATCHES, "indexCount", MSHED_EDIT_TOPOLOGY },
    { MSHED_TABLE_BATCHES, "baseVertex", MSHED_EDIT_TOPOLOGY },
    { MSHED_TABLE_BATCHES, "materialIndex", MSHED_EDIT_MATERIAL },
    { MSHED_TABLE_BATCHES, "unk14", MSHED_EDIT_OPAQUE },
    { MSHED_TABLE_SLOTS, "batchCount", MSHED_EDIT_SLOT_RANGES },
    { MSHED_TABLE_SLOTS, "aabbMinX", MSHED_EDIT_DERIVED },
    { MSHED_TABLE_SLOTS, "unk40", MSHED_EDIT_OPAQUE },
    { MSHED_TABLE_HEADER, "capR", MSHED_EDIT_DERIVED },
    { MSHED_TABLE_NODES, "hdr0", MSHED_EDIT_OPAQUE },
    { MSHED_TABLE_NODES, "hdr1", MSHED_EDIT_HIERARCHY },
    { MSHED_TABLE_NODES, "hdr3", MSHED_EDIT_ANIMATION },
    { MSHED_TABLE_NODES, "slot7", MSHED_EDIT_LOD_GROUP },
    { MSHED_TABLE_TRIS, "link2", MSHED_EDIT_DERIVED },
    { MSHED_TABLE_TRIS, "selPacked", MSHED_EDIT_OPAQUE },
    { MSHED_TABLE_KEYS, "time", MSHED_EDIT_ANIMATION },
    { MSHED_TABLE_MAP, "key", MSHED_EDIT_ANIMATION },
    { MSHED_TABLE_EXTRA15, "w0", MSHED_EDIT_OPAQUE },
    { MSHED_TABLE_DIRECTORY, "attr1", MSHED_EDIT_DIRECTORY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (mshed_deps_classify_field (cases[i].table, cases[i].field), ==,
                     cases[i].kind);
}

/* Every field edit marks only cells of its own matrix row. */
static void
test_marks_follow_matrix (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (51, 1500, TRUE, TRUE);
  MshedModel *model = mshed_document_get_model (doc);

  for (MshedTableId t = 0; t < MSHED_N_TABLES; t++)
    {
      const MshedTableInfo *info = mshed_schema_get_table (t);
      guint n = mshed_model_get_n_rows (model, t);

      if (t == MSHED_TABLE_NAMES || t == MSHED_TABLE_DIRECTORY || n == 0)
        continue;
      for (guint i = 0; i < info->n_fields; i++)
        {
          const MshedField *f = &info->fields[i];
          MshedEditKind kind = mshed_deps_classify_field (t, f->name);
          MshedDerived optional, allowed = mshed_deps_get (kind, &optional);
          guint row = n / 3;
          double v = mshed_field_read (f, mshed_model_get_record (model, t, row));
          g_autoptr(GPtrArray) stale = NULL;

          v = f->type == MSHED_FIELD_F32 ? v + 0.5 : (v > 0 ? v - 1 : v + 1);
          g_assert_true (mshed_document_set_field (doc, t, row, f->name, v, NULL));
          stale = mshed_document_list_stale (doc);
          for (guint s = 0; s < stale->len; s++)
            {
              MshedStale *cell = g_ptr_array_index (stale, s);

              g_assert_cmpint (cell->cause, ==, kind);
              g_assert_true (cell->target & (allowed | optional));
              g_assert_cmpint (cell->optional, ==, (cell->target & optional) != 0);
              g_assert_cmpint (cell->table, ==, mshed_derived_get_table (cell->target));
              g_assert_nonnull (cell->reason);
            }
          /* the stale set is part of undo */
          g_assert_true (mshed_document_undo (doc));
          g_assert_false (mshed_document_has_stale (doc));
        }
    }
}

static GPtrArray *
stale_after (MshedDocument *doc,
             MshedTableId   table,
             guint          row,
             const char    *field,
             double         value)
{
  g_assert_true (mshed_document_set_field (doc, table, row, field, value, NULL));
  return mshed_document_list_stale (doc);
}

static MshedDerived
targets (GPtrArray *stale)
{
  MshedDerived all = 0;

  for (guint i = 0; i < stale->len; i++)
    all |= ((MshedStale *) g_ptr_array_index (stale, i))->target;
  return all;
}

static void
test_marks_per_kind (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (52, 2000, TRUE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  MshedKey key;
  MshedBatch batch;
  guint r3 = (guint) mshed_model_find_resource (model, 3);

  {
    g_autoptr(GPtrArray) s = stale_after (doc, MSHED_TABLE_POSITIONS, 10, "x", 50);
    g_assert_cmpuint (targets (s), ==, MSHED_DERIVED_SLOT_BOUNDS | MSHED_DERIVED_HEADER_BOUNDS |
                                       MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS |
                                       MSHED_DERIVED_VERTEX_NORMALS);
    g_assert_true (mshed_document_undo (doc));
  }
  {
    g_autoptr(GPtrArray) s = stale_after (doc, MSHED_TABLE_UVS, 10, "u", 50);
    g_assert_cmpuint (s->len, ==, 0);
    g_assert_true (mshed_document_undo (doc));
  }
  {
    g_autoptr(GPtrArray) s = stale_after (doc, MSHED_TABLE_BATCHES, 0, "materialIndex", 3);
    g_assert_cmpuint (s->len, ==, 0);
    g_assert_true (mshed_document_undo (doc));
  }
  {
    g_autoptr(GPtrArray) s = NULL;
    g_autoptr(GPtrArray) s2 = NULL;

    mshed_model_get_batch (model, 0, &batch);
    s = stale_after (doc, MSHED_TABLE_BATCHES, 0, "indexCount", batch.index_count - 3);
    /* fewer triangles than the slot's triCount: its range is stale, not its descriptors */
    g_assert_true (targets (s) & MSHED_DERIVED_SLOT_BOUNDS);
    g_assert_true (targets (s) & MSHED_DERIVED_SLOT_RANGES);
    g_assert_false (targets (s) & MSHED_DERIVED_TRI_LINKS);
    g_assert_true (mshed_document_undo (doc));
    s2 = stale_after (doc, MSHED_TABLE_BATCHES, 0, "baseVertex", batch.base_vertex + 1);
    g_assert_true (targets (s2) & MSHED_DERIVED_TRI_LINKS);
    g_assert_true (targets (s2) & MSHED_DERIVED_TRI_NORMALS);
    g_assert_true (mshed_document_undo (doc));
  }
  {
    g_autoptr(GPtrArray) s = stale_after (doc, MSHED_TABLE_SLOTS, 0, "batchCount", 0);
    MshedStale *sb = g_ptr_array_index (s, 0);

    g_assert_cmpint (sb->target, ==, MSHED_DERIVED_SLOT_BOX);
    g_assert_cmpuint (sb->n_rows, ==, 1);
    g_assert_cmpuint (sb->rows[0], ==, 0);
    g_assert_true (mshed_document_undo (doc));
  }
  {
    g_autoptr(GPtrArray) s = NULL;

    mshed_model_get_key (model, 1, &key);
    s = stale_after (doc, MSHED_TABLE_KEYS, 1, "time", key.time + 1);
    g_assert_cmpuint (targets (s), ==, MSHED_DERIVED_ANIMATION_MAP);
    g_assert_true (mshed_document_undo (doc));
  }
  {
    g_autoptr(GPtrArray) s = stale_after (doc, MSHED_TABLE_DIRECTORY, r3, "attr1", 1);
    MshedStale *at = g_ptr_array_index (s, 0);

    g_assert_cmpint (at->target, ==, MSHED_DERIVED_ATTRIBUTES);
    g_assert_cmpuint (at->rows[0], ==, r3);
    g_assert_true (mshed_document_recompute_stale (doc, at->target, at->cause, NULL));
    g_assert_cmpuint (mshed_model_get_resource (model, 3)->attr1, ==,
                      mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS));
    g_assert_false (mshed_document_has_stale (doc));
    g_assert_true (mshed_document_undo (doc));
    g_assert_true (mshed_document_undo (doc));
  }
  g_assert_true (mshed_document_rename_node (doc, 0, "x", NULL));
  g_assert_false (mshed_document_has_stale (doc));
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_get_modified (doc));
}

/* Stale rows follow row edits of their table. */
static void
test_stale_rows_follow (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (53, 3000, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  guint last = n - 1;

  MshedSlot slot;

  g_assert_cmpuint (n, >=, 3);
  mshed_model_get_slot (model, last, &slot);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, last, "batchCount",
                                           slot.batch_count ? slot.batch_count - 1 : 0, NULL)
                 || TRUE);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, last, "triCount", 0, NULL));
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, last) &
                 MSHED_DERIVED_SLOT_BOUNDS);
  g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_SLOTS, 0, 1, NULL));
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, last - 1) &
                 MSHED_DERIVED_SLOT_BOUNDS);
  g_assert_false (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, last) &
                  MSHED_DERIVED_SLOT_BOUNDS);
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, last) &
                 MSHED_DERIVED_SLOT_BOUNDS);
  g_assert_true (mshed_document_insert_rows (doc, MSHED_TABLE_SLOTS, 1, 2, NULL, NULL));
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, last + 2) &
                 MSHED_DERIVED_SLOT_BOUNDS);
  /* deleting the stale row itself drops the mark */
  g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_SLOTS, last + 2, 1, NULL));
  for (guint r = 0; r < mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS); r++)
    g_assert_false (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, r) &
                    MSHED_DERIVED_SLOT_BOUNDS);
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, last + 2) &
                 MSHED_DERIVED_SLOT_BOUNDS);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/deps/matrix", test_matrix_labels);
  g_test_add_func ("/model/deps/classify", test_classify);
  g_test_add_func ("/model/deps/marks-follow-matrix", test_marks_follow_matrix);
  g_test_add_func ("/model/deps/marks-per-kind", test_marks_per_kind);
  g_test_add_func ("/model/deps/stale-rows-follow", test_stale_rows_follow);

  return g_test_run ();
}
