/* test-document.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "doc-test-util.h"
#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-recompute.h"
#include "mshed-schema.h"
#include "mshed-source.h"

/* Set every field of every typed table --------------------------------------------------- */

typedef struct {
  MshedTableId table;
  guint        row;
  const char  *field;
  double       value;
} SetField;

static gboolean
op_set_field (MshedDocument *doc,
              gpointer       data,
              GError       **error)
{
  SetField *s = data;

  return mshed_document_set_field (doc, s->table, s->row, s->field, s->value, error);
}

static double
other_value (const MshedField *f,
             double            v)
{
  switch (f->type)
    {
    case MSHED_FIELD_F32:
      return v + 1.25;
    case MSHED_FIELD_U8:
      return v >= G_MAXUINT8 ? v - 1 : v + 1;
    case MSHED_FIELD_I8:
      return v >= G_MAXINT8 ? v - 1 : v + 1;
    case MSHED_FIELD_U16:
      return v >= G_MAXUINT16 ? v - 1 : v + 1;
    case MSHED_FIELD_I16:
      return v >= G_MAXINT16 ? v - 1 : v + 1;
    case MSHED_FIELD_U32:
      return v >= G_MAXUINT32 ? v - 1 : v + 1;
    case MSHED_FIELD_I32:
    default:
      return v >= G_MAXINT32 ? v - 1 : v + 1;
    }
}

static void
test_set_every_field (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (11, 400, TRUE, TRUE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n_checked = 0;

  for (MshedTableId t = 0; t < MSHED_N_TABLES; t++)
    {
      const MshedTableInfo *info = mshed_schema_get_table (t);
      guint n_rows = mshed_model_get_n_rows (model, t);

      if (t == MSHED_TABLE_NAMES)
        continue;
      if (t != MSHED_TABLE_EXTRA16)
        g_assert_cmpuint (n_rows, >, 0);
      for (guint i = 0; i < info->n_fields && n_rows > 0; i++)
        {
          const MshedField *f = &info->fields[i];
          guint row = n_rows / 2;
          SetField s = { t, row, f->name, 0 };

          if (t == MSHED_TABLE_DIRECTORY)
            {
              if (g_strcmp0 (f->name, "size") == 0 || g_strcmp0 (f->name, "data_offset") == 0 ||
                  g_strcmp0 (f->name, "sort_index") == 0)
                {
                  g_autoptr(GError) error = NULL;

                  g_assert_false (mshed_document_set_field (doc, t, row, f->name, 1, &error));
                  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
                  continue;
                }
              if (g_strcmp0 (f->name, "type") == 0)
                row = mshed_model_find_resource (model, 9);  /* retyping Res9 is harmless */
              s.row = row;
              s.value = other_value (f, f->name[4] == '1' ? mshed_nres_peek_entry (
                                       mshed_model_get_nres (model), row)->attr1 : 0);
              if (g_strcmp0 (f->name, "type") == 0)
                s.value = 30;
              else if (g_strcmp0 (f->name, "attr2") == 0)
                s.value = mshed_nres_peek_entry (mshed_model_get_nres (model), row)->attr2 + 1;
              else if (g_strcmp0 (f->name, "attr3") == 0)
                s.value = mshed_nres_peek_entry (mshed_model_get_nres (model), row)->attr3 + 1;
            }
          else
            s.value = other_value (f, mshed_field_read (f, mshed_model_get_record (model, t, row)));
          doc_test_do_undo_redo (doc, op_set_field, &s);
          g_assert_true (mshed_document_undo (doc));
          n_checked++;
        }
    }
  g_assert_cmpuint (n_checked, >, 100);
  g_assert_false (mshed_document_get_modified (doc));
}

static void
test_set_field_errors (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (12, 200, FALSE, FALSE);
  g_autoptr(GError) error = NULL;
  guint n_slots = mshed_model_get_n_rows (mshed_document_get_model (doc), MSHED_TABLE_SLOTS);

  g_assert_false (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, n_slots, "batchCount", 1,
                                            &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "slots"));
  g_clear_error (&error);

  g_assert_false (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "bogus", 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "bogus"));
  g_assert_nonnull (strstr (error->message, "batchCount"));
  g_clear_error (&error);

  g_assert_false (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "batchCount", 70000,
                                            &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "batchCount"));
  g_clear_error (&error);

  g_assert_false (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "batchCount", 1.5,
                                            &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);

  g_assert_false (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x", NAN, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);

  g_assert_false (mshed_document_set_field_text (doc, MSHED_TABLE_NODES, 0, "hdr1", "abc",
                                                 &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "nodes"));
  g_clear_error (&error);

  g_assert_true (mshed_document_set_field_text (doc, MSHED_TABLE_NODES, 1, "hdr0", "0x1234",
                                                &error));
  g_assert_no_error (error);

  g_assert_false (mshed_document_set_field (doc, MSHED_TABLE_NAMES, 0, "x", 0, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);

  /* nothing above changed the model except the one valid edit */
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_undo (doc));
  g_assert_false (mshed_document_get_modified (doc));
}

static void
test_legacy_nodes (void)
{
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;

  mshed_gen_params_init (&p, 5);
  p.legacy_nodes = TRUE;
  bytes = mshed_generate_model_bytes (&p);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  doc = mshed_document_new_for_model (model, MSHED_MODE_STRICT);
  g_assert_false (mshed_document_set_field (doc, MSHED_TABLE_NODES, 0, "hdr0", 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (mshed_document_delete_rows (doc, MSHED_TABLE_NODES, 0, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (mshed_document_delete_rows (doc, MSHED_TABLE_SLOTS, 0, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  /* appending a slot renumbers nothing */
  g_assert_true (mshed_document_insert_rows (doc, MSHED_TABLE_SLOTS,
                                             mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS),
                                             1, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_can_redo (doc));
}

/* History behaviour through the document: merge, groups, save point ------------------------- */

static void
test_merge_cells (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (13, 200, FALSE, FALSE);
  g_autoptr(GBytes) orig = doc_test_bytes (doc);
  g_autoptr(GBytes) mid = NULL;

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 3, "x", 1.0, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 3, "x", 2.0, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 3, "x", 3.0, NULL));
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Set vertices[3].x");
  mid = doc_test_bytes (doc);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 3, "y", 3.0, NULL));
  g_assert_true (mshed_document_undo (doc));
  {
    g_autoptr(GBytes) now = doc_test_bytes (doc);
    g_assert_true (g_bytes_equal (now, mid));
  }
  g_assert_true (mshed_document_undo (doc));  /* the three x edits were one step */
  {
    g_autoptr(GBytes) now = doc_test_bytes (doc);
    g_assert_true (g_bytes_equal (now, orig));
  }
  g_assert_false (mshed_document_can_undo (doc));
  g_assert_false (mshed_document_get_modified (doc));
}

typedef enum { APPLY, UNDO, REDO, BEGIN, END, SAVE } StepKind;

typedef struct {
  StepKind    kind;
  double      value;      /* APPLY: new x of vertex 0 */
  double      expect;     /* x of vertex 0 afterwards */
  gboolean    can_undo;
  gboolean    can_redo;
  gboolean    modified;
} Step;

static void
run_steps (const Step *steps,
           guint       n)
{
  g_autoptr(MshedDocument) doc = doc_test_new (14, 100, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  float orig[3];

  mshed_model_get_position (model, 0, orig);
  for (guint i = 0; i < n; i++)
    {
      float pos[3];

      switch (steps[i].kind)
        {
        case APPLY:
          /* two cells in a group, so that nothing merges */
          mshed_document_begin_group (doc, "apply");
          g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x",
                                                   steps[i].value, NULL));
          g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 1, "x",
                                                   steps[i].value, NULL));
          mshed_document_end_group (doc);
          break;
        case UNDO:
          mshed_document_undo (doc);
          break;
        case REDO:
          mshed_document_redo (doc);
          break;
        case BEGIN:
          mshed_document_begin_group (doc, "group");
          break;
        case END:
          mshed_document_end_group (doc);
          break;
        case SAVE:
          {
            g_autofree char *dir = g_dir_make_tmp ("mshed-doc-XXXXXX", NULL);
            g_autofree char *path = g_build_filename (dir, "m.msh", NULL);
            g_autofree char *bak = g_strconcat (path, ".bak", NULL);

            g_assert_true (mshed_document_save_as (doc, path, MSHED_SAVE_FLAGS_NONE, NULL));
            g_unlink (path);
            g_unlink (bak);
            g_rmdir (dir);
            break;
          }
        }
      mshed_model_get_position (model, 0, pos);
      g_assert_cmpfloat (pos[0], ==, steps[i].expect < -999 ? orig[0] : steps[i].expect);
      g_assert_cmpint (mshed_document_can_undo (doc), ==, steps[i].can_undo);
      g_assert_cmpint (mshed_document_can_redo (doc), ==, steps[i].can_redo);
      g_assert_cmpint (mshed_document_get_modified (doc), ==, steps[i].modified);
    }
}

#define ORIG -1000.0

static void
test_history_table (void)
{
  /* STYLE §7: the undo behaviour as a table */
  static const Step plain[] = {
    { APPLY, 5, 5, TRUE, FALSE, TRUE },
    { APPLY, 6, 6, TRUE, FALSE, TRUE },
    { UNDO, 0, 5, TRUE, TRUE, TRUE },
    { UNDO, 0, ORIG, FALSE, TRUE, FALSE },
    { UNDO, 0, ORIG, FALSE, TRUE, FALSE },
    { REDO, 0, 5, TRUE, TRUE, TRUE },
    { REDO, 0, 6, TRUE, FALSE, TRUE },
    { REDO, 0, 6, TRUE, FALSE, TRUE },
  };
  static const Step save_point[] = {
    { APPLY, 5, 5, TRUE, FALSE, TRUE },
    { SAVE, 0, 5, TRUE, FALSE, FALSE },
    { APPLY, 7, 7, TRUE, FALSE, TRUE },
    { UNDO, 0, 5, TRUE, TRUE, FALSE },
    { UNDO, 0, ORIG, FALSE, TRUE, TRUE },
    { REDO, 0, 5, TRUE, TRUE, FALSE },
    { APPLY, 9, 9, TRUE, FALSE, TRUE },       /* the saved state is still below */
    { UNDO, 0, 5, TRUE, TRUE, FALSE },
    { UNDO, 0, ORIG, FALSE, TRUE, TRUE },
    { APPLY, 4, 4, TRUE, FALSE, TRUE },       /* redo dropped: the saved state is gone */
    { UNDO, 0, ORIG, FALSE, TRUE, TRUE },
  };
  static const Step groups[] = {
    { BEGIN, 0, ORIG, FALSE, FALSE, FALSE },
    { APPLY, 1, 1, FALSE, FALSE, TRUE },
    { BEGIN, 0, 1, FALSE, FALSE, TRUE },
    { APPLY, 2, 2, FALSE, FALSE, TRUE },
    { END, 0, 2, FALSE, FALSE, TRUE },
    { APPLY, 3, 3, FALSE, FALSE, TRUE },
    { END, 0, 3, TRUE, FALSE, TRUE },
    { UNDO, 0, ORIG, FALSE, TRUE, FALSE },    /* one step for the whole group */
    { REDO, 0, 3, TRUE, FALSE, TRUE },
    { BEGIN, 0, 3, FALSE, FALSE, TRUE },
    { END, 0, 3, TRUE, FALSE, TRUE },         /* empty groups are dropped */
    { UNDO, 0, ORIG, FALSE, TRUE, FALSE },
  };

  run_steps (plain, G_N_ELEMENTS (plain));
  run_steps (save_point, G_N_ELEMENTS (save_point));
  run_steps (groups, G_N_ELEMENTS (groups));
}

static void
test_group_label (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (15, 100, FALSE, FALSE);

  mshed_document_begin_group (doc, "Paste 2 cells");
  mshed_document_begin_group (doc, "inner");
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_UVS, 0, "u", 3, NULL));
  mshed_document_end_group (doc);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_UVS, 1, "u", 3, NULL));
  g_assert_false (mshed_document_undo (doc));  /* not while a group is open */
  mshed_document_end_group (doc);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Paste 2 cells");
  g_assert_true (mshed_document_undo (doc));
  g_assert_cmpstr (mshed_document_get_redo_label (doc), ==, "Paste 2 cells");
  g_assert_false (mshed_document_can_undo (doc));
}

/* Names ------------------------------------------------------------------------------------ */

typedef struct {
  guint       node;
  const char *name;
} Rename;

static gboolean
op_rename (MshedDocument *doc,
           gpointer       data,
           GError       **error)
{
  Rename *r = data;

  return mshed_document_rename_node (doc, r->node, r->name, error);
}

static void
test_rename (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (16, 300, TRUE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  Rename r1 = { 1, "турель" }, r2 = { 0, "" }, r3 = { 2, "a much longer name than before" };
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *name0 = mshed_model_dup_name (model, 0);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);

  doc_test_do_undo_redo (doc, op_rename, &r1);
  name = mshed_model_dup_name (model, 1);
  g_assert_cmpstr (name, ==, "турель");
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Rename node 1");
  doc_test_do_undo_redo (doc, op_rename, &r2);
  g_assert_null (mshed_model_dup_name (model, 0));
  doc_test_do_undo_redo (doc, op_rename, &r3);
  g_clear_pointer (&name, g_free);
  name = mshed_model_dup_name (model, 2);
  g_assert_cmpstr (name, ==, r3.name);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NAMES), ==, n);
  doc_test_assert_valid (doc);

  /* characters without a Windows-1251 form */
  g_assert_false (mshed_document_rename_node (doc, 1, "башня 塔", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING);
  g_assert_nonnull (strstr (error->message, "Node 1"));
  g_clear_error (&error);
  g_assert_false (mshed_document_rename_node (doc, n, "x", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* renaming to the same name changes nothing */
  while (mshed_document_undo (doc))
    ;
  {
    g_autoptr(GBytes) before = doc_test_bytes (doc);
    g_autoptr(GBytes) after = NULL;

    if (name0)
      g_assert_true (mshed_document_rename_node (doc, 0, name0, NULL));
    after = doc_test_bytes (doc);
    g_assert_true (g_bytes_equal (before, after));
    g_assert_false (mshed_document_get_modified (doc));
  }
}

/* An unedited name keeps its bytes even when its terminator is not zero. */
static void
test_rename_keeps_bytes (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (17, 100, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  gint r10 = mshed_model_find_resource (model, 10);
  guint32 off = mshed_model_get_name_record_offset (model, 1);
  const guint8 *text;
  guint32 len;
  guint8 junk = 0x5A;
  g_autoptr(GBytes) b = g_bytes_new (&junk, 1);
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autofree char *name = NULL;

  g_assert_true (mshed_model_get_name_raw (model, 1, &text, &len));
  g_assert_cmpuint (len, >, 0);
  g_assert_true (mshed_document_replace_bytes (doc, (guint) r10, off + 4 + len, 1, b, NULL));
  before = doc_test_bytes (doc);
  name = mshed_model_dup_name (model, 1);
  g_assert_true (mshed_document_rename_node (doc, 1, name, NULL));
  after = doc_test_bytes (doc);
  g_assert_true (g_bytes_equal (before, after));
}

/* Rows ------------------------------------------------------------------------------------- */

typedef struct {
  MshedTableId table;
  gint         op;      /* 0 insert, 1 delete, 2 duplicate, 3 move */
  guint        position;
  guint        n;
  guint        to;
} RowEdit;

static gboolean
op_rows (MshedDocument *doc,
         gpointer       data,
         GError       **error)
{
  RowEdit *r = data;

  switch (r->op)
    {
    case 0:
      return mshed_document_insert_rows (doc, r->table, r->position, r->n, NULL, error);
    case 1:
      return mshed_document_delete_rows (doc, r->table, r->position, r->n, error);
    case 2:
      return mshed_document_duplicate_rows (doc, r->table, r->position, r->n, error);
    default:
      return mshed_document_move_rows (doc, r->table, r->position, r->n, r->to, error);
    }
}

static void
test_delete_slot_fixups (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (18, 3000, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  g_autofree MshedNode *before = g_new (MshedNode, n_nodes);
  RowEdit del = { MSHED_TABLE_SLOTS, 1, 0, 1, 0 };
  guint victim;

  g_assert_cmpuint (n_slots, >=, 3);
  victim = n_slots / 2;
  del.position = victim;
  for (guint i = 0; i < n_nodes; i++)
    mshed_model_get_node (model, i, &before[i]);
  doc_test_do_undo_redo (doc, op_rows, &del);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS), ==, n_slots - 1);
  g_assert_cmpuint (mshed_nres_peek_entry (mshed_model_get_nres (model),
                                           mshed_model_find_resource (model, 2))->attr1,
                    ==, n_slots - 1);
  for (guint i = 0; i < n_nodes; i++)
    {
      MshedNode now;

      mshed_model_get_node (model, i, &now);
      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        {
          guint16 was = before[i].slot[c];
          guint16 want = was == MSHED_NONE ? MSHED_NONE
                       : was == victim ? MSHED_NONE
                       : was > victim ? (guint16) (was - 1) : was;

          g_assert_cmpuint (now.slot[c], ==, want);
        }
    }
  doc_test_assert_valid (doc);
}

static void
test_slot_rows (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (19, 2000, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  RowEdit edits[] = {
    { MSHED_TABLE_SLOTS, 0, 1, 2, 0 },
    { MSHED_TABLE_SLOTS, 2, 0, 1, 0 },
    { MSHED_TABLE_SLOTS, 3, 0, 1, n - 1 },
    { MSHED_TABLE_SLOTS, 3, n - 1, 1, 0 },
    { MSHED_TABLE_SLOTS, 1, 0, 2, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      doc_test_do_undo_redo (doc, op_rows, &edits[i]);
      doc_test_assert_valid (doc);
    }
  /* a moved slot is still drawn by the same cells */
  {
    MshedSlot a, b;
    guint cell_before = G_MAXUINT;

    while (mshed_document_undo (doc))
      ;
    mshed_model_get_slot (model, 0, &a);
    for (guint i = 0; i < mshed_model_get_n_rows (model, MSHED_TABLE_NODES); i++)
      for (guint c = 0; c < 15 && cell_before == G_MAXUINT; c++)
        if (mshed_model_find_slot (model, i, c / 5, c % 5) == 0)
          cell_before = i * 15 + c;
    g_assert_true (mshed_document_move_rows (doc, MSHED_TABLE_SLOTS, 0, 1, 2, NULL));
    mshed_model_get_slot (model, 2, &b);
    g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
    if (cell_before != G_MAXUINT)
      g_assert_cmpuint (mshed_model_find_slot (model, cell_before / 15, cell_before % 15 / 5,
                                               cell_before % 5), ==, 2);
  }
}

static void
test_batch_rows (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (20, 4000, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  guint ns = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  MshedSlot s0;
  RowEdit edits[] = {
    { MSHED_TABLE_BATCHES, 3, 0, 1, 1 },
    { MSHED_TABLE_BATCHES, 3, n - 1, 1, 0 },
    { MSHED_TABLE_BATCHES, 2, 0, 1, 0 },
    { MSHED_TABLE_BATCHES, 0, n, 1, 0 },
    { MSHED_TABLE_BATCHES, 1, 1, 1, 0 },
  };
  guint slot = G_MAXUINT;

  g_assert_cmpuint (n, >=, 2);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      doc_test_do_undo_redo (doc, op_rows, &edits[i]);
      doc_test_assert_valid (doc);
    }
  while (mshed_document_undo (doc))
    ;

  /* deleting a batch of a slot shrinks that slot and shifts the later ones */
  for (guint s = 0; s < ns && slot == G_MAXUINT; s++)
    {
      mshed_model_get_slot (model, s, &s0);
      if (s0.batch_count >= 1)
        slot = s;
    }
  g_assert_cmpuint (slot, !=, G_MAXUINT);
  {
    g_autofree MshedSlot *was = g_new (MshedSlot, ns);
    guint victim = s0.batch_start;

    for (guint s = 0; s < ns; s++)
      mshed_model_get_slot (model, s, &was[s]);
    g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_BATCHES, victim, 1, NULL));
    for (guint s = 0; s < ns; s++)
      {
        MshedSlot now;
        gboolean inside = was[s].batch_start <= victim &&
                          victim < (guint) was[s].batch_start + was[s].batch_count;

        mshed_model_get_slot (model, s, &now);
        g_assert_cmpuint (now.batch_count, ==, was[s].batch_count - (inside ? 1 : 0));
        g_assert_cmpuint (now.batch_start, ==,
                          was[s].batch_start - (was[s].batch_start > victim ? 1 : 0));
      }
    /* the slot that lost a batch has stale bounds and descriptors */
    g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_SLOTS, slot) &
                   MSHED_DERIVED_SLOT_BOUNDS);
    doc_test_assert_valid (doc);
  }
}

static void
test_node_rows (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (21, 1500, TRUE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  RowEdit edits[] = {
    { MSHED_TABLE_NODES, 1, 1, 1, 0 },
    { MSHED_TABLE_NODES, 0, 1, 2, 0 },
    { MSHED_TABLE_NODES, 2, 0, 1, 0 },
    { MSHED_TABLE_NODES, 1, 0, 1, 0 },
    { MSHED_TABLE_NODES, 0, 0, 1, 0 },
  };

  g_assert_cmpuint (n, >=, 3);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_autoptr(MshedDiagnostics) d = mshed_diagnostics_new ();

      doc_test_do_undo_redo (doc, op_rows, &edits[i]);
      doc_test_assert_valid (doc);
      /* the docs/msh.md §7.7 layout survives (no animation warnings either) */
      mshed_validate_model (model, MSHED_MODE_STRICT, d);
      g_assert_cmpuint (d->n_warnings, ==, 0);
      g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NAMES), ==,
                        mshed_model_get_n_rows (model, MSHED_TABLE_NODES));
    }
  while (mshed_document_undo (doc))
    ;

  /* names move with their nodes */
  {
    g_autofree char *n2 = mshed_model_dup_name (model, 2);
    g_autofree char *moved = NULL;
    MshedNode node;
    guint target = n - 1;
    gboolean has_child = FALSE;

    for (guint i = 3; i < n; i++)
      {
        mshed_model_get_node (model, i, &node);
        has_child |= node.hdr1 == 2;
      }
    if (!has_child)
      {
        g_assert_true (mshed_document_move_rows (doc, MSHED_TABLE_NODES, 2, 1, target, NULL));
        moved = mshed_model_dup_name (model, target);
        g_assert_cmpstr (moved, ==, n2);
        doc_test_assert_valid (doc);
        g_assert_true (mshed_document_undo (doc));
      }
  }

  /* moving a parent after its child is refused */
  for (guint i = 1; i < n; i++)
    {
      MshedNode node;

      mshed_model_get_node (model, i, &node);
      if (node.hdr1 != MSHED_NONE)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GBytes) before = doc_test_bytes (doc);
          g_autoptr(GBytes) after = NULL;

          g_assert_false (mshed_document_move_rows (doc, MSHED_TABLE_NODES, node.hdr1, 1, i,
                                                    &error));
          g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
          after = doc_test_bytes (doc);
          g_assert_true (g_bytes_equal (before, after));
          break;
        }
    }

  /* deleting a parent re-parents its children to the grandparent */
  for (guint i = 1; i < n; i++)
    {
      MshedNode node, parent;

      mshed_model_get_node (model, i, &node);
      if (node.hdr1 == MSHED_NONE)
        continue;
      mshed_model_get_node (model, node.hdr1, &parent);
      g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_NODES, node.hdr1, 1, NULL));
      mshed_model_get_node (model, i - 1, &node);
      g_assert_cmpuint (node.hdr1, ==, parent.hdr1);
      doc_test_assert_valid (doc);
      break;
    }
}

static void
test_row_errors (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (22, 100, FALSE, FALSE);
  guint n = mshed_model_get_n_rows (mshed_document_get_model (doc), MSHED_TABLE_SLOTS);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) short_rec = g_bytes_new ("abc", 3);

  g_assert_false (mshed_document_delete_rows (doc, MSHED_TABLE_SLOTS, n, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (mshed_document_delete_rows (doc, MSHED_TABLE_POSITIONS, 0, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (mshed_document_insert_rows (doc, MSHED_TABLE_SLOTS, 0, 1, short_rec, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_document_move_rows (doc, MSHED_TABLE_SLOTS, 0, 1, n, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_document_can_undo (doc));
}

/* Raw bytes and resources ------------------------------------------------------------------- */

typedef struct {
  guint32 type;
  gsize   offset;
  gsize   old_length;
  gsize   new_length;
} RawEdit;

static gboolean
op_raw (MshedDocument *doc,
        gpointer       data,
        GError       **error)
{
  RawEdit *r = data;
  MshedModel *model = mshed_document_get_model (doc);
  gint res = mshed_nres_find_type (mshed_model_get_nres (model), r->type);
  g_autofree guint8 *buf = g_malloc (r->new_length + 1);
  g_autoptr(GBytes) bytes = NULL;

  for (gsize i = 0; i < r->new_length; i++)
    buf[i] = (guint8) (0xA5 ^ i);
  bytes = g_bytes_new (buf, r->new_length);
  return mshed_document_replace_bytes (doc, (guint) res, r->offset, r->old_length, bytes, error);
}

static void
test_raw_bytes (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (23, 200, FALSE, TRUE);
  RawEdit grow = { 9, 1, 2, 7 }, shrink = { 20, 0, 3, 1 }, unk = { 2, 140 + 48, 4, 4 };
  RawEdit tail = { 17, 0, 0, 5 };
  g_autoptr(GError) error = NULL;
  RawEdit bad = { 3, 0, 12, 8 };

  doc_test_do_undo_redo (doc, op_raw, &grow);
  doc_test_do_undo_redo (doc, op_raw, &shrink);
  doc_test_do_undo_redo (doc, op_raw, &unk);
  doc_test_do_undo_redo (doc, op_raw, &tail);
  g_assert_false (op_raw (doc, &bad, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "Res3"));
  g_clear_error (&error);
  doc_test_assert_valid (doc);
}

/* A hex keystroke in a typed table is the same command as the cell edit. */
static void
test_hex_equals_cell (void)
{
  g_autoptr(MshedDocument) a = doc_test_new (24, 500, FALSE, FALSE);
  g_autoptr(MshedDocument) b = doc_test_new (24, 500, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (a);
  guint8 le[4];
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) ba = NULL;
  g_autoptr(GBytes) bb = NULL;
  g_autoptr(GPtrArray) sa = NULL;
  g_autoptr(GPtrArray) sb = NULL;

  g_assert_true (mshed_document_set_field (a, MSHED_TABLE_POSITIONS, 7, "y", 2.5, NULL));
  mshed_write_f32 (le, 2.5f);
  bytes = g_bytes_new (le, 4);
  g_assert_true (mshed_document_replace_bytes (b, (guint) mshed_model_find_resource (model, 3),
                                               7 * 12 + 4, 4, bytes, NULL));
  ba = doc_test_bytes (a);
  bb = doc_test_bytes (b);
  g_assert_true (g_bytes_equal (ba, bb));
  sa = mshed_document_list_stale (a);
  sb = mshed_document_list_stale (b);
  g_assert_cmpuint (sa->len, ==, sb->len);
  g_assert_cmpuint (sa->len, >=, 3);
  for (guint i = 0; i < sa->len; i++)
    {
      MshedStale *x = g_ptr_array_index (sa, i), *y = g_ptr_array_index (sb, i);

      g_assert_cmpint (x->target, ==, y->target);
      g_assert_cmpuint (x->n_rows, ==, y->n_rows);
      g_assert_cmpmem (x->rows, x->n_rows * sizeof (guint), y->rows, y->n_rows * sizeof (guint));
    }
}

static gboolean
op_remove_res18 (MshedDocument *doc,
                 gpointer       data,
                 GError       **error)
{
  gint r = mshed_model_find_resource (mshed_document_get_model (doc), 18);

  return mshed_document_remove_resource (doc, (guint) r, error);
}

static gboolean
op_add_resource (MshedDocument *doc,
                 gpointer       data,
                 GError       **error)
{
  g_autoptr(GBytes) payload = g_bytes_new ("hello", 5);

  return mshed_document_add_resource (doc, 3, 77, "extra.bin", 1, 2, 3, payload, error) == 3;
}

static gboolean
op_payload (MshedDocument *doc,
            gpointer       data,
            GError       **error)
{
  MshedModel *model = mshed_document_get_model (doc);
  gint r = mshed_model_find_resource (model, 15);
  gsize size = mshed_nres_entry_get_size (mshed_model_get_resource (model, 15));
  g_autofree guint8 *buf = g_malloc0 (size + 16);
  g_autoptr(GBytes) payload = g_bytes_new (buf, size + 16);

  return mshed_document_set_resource_payload (doc, (guint) r, payload, error);
}

static void
test_resources (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (25, 300, FALSE, TRUE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n = mshed_nres_get_n_entries (mshed_model_get_nres (model));

  doc_test_do_undo_redo (doc, op_remove_res18, NULL);
  g_assert_cmpint (mshed_model_find_resource (model, 18), <, 0);
  g_assert_cmpuint (mshed_nres_get_n_entries (mshed_model_get_nres (model)), ==, n - 1);
  doc_test_assert_valid (doc);
  doc_test_do_undo_redo (doc, op_add_resource, NULL);
  g_assert_cmpuint (mshed_nres_peek_entry (mshed_model_get_nres (model), 3)->type_id, ==, 77);
  doc_test_do_undo_redo (doc, op_payload, NULL);
  /* attr1 follows the new size */
  g_assert_cmpuint (mshed_model_get_resource (model, 15)->attr1, ==,
                    mshed_nres_entry_get_size (mshed_model_get_resource (model, 15)) / 8);
  while (mshed_document_undo (doc))
    ;
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_cmpuint (mshed_nres_get_n_entries (mshed_model_get_nres (model)), ==, n);
}

/* Signals ------------------------------------------------------------------------------- */

typedef struct {
  GArray *changes;
  guint   n_stale;
  guint   n_diags;
} Spy;

static void
on_changed (MshedDocument     *doc,
            const MshedChange *change,
            Spy               *spy)
{
  g_array_append_val (spy->changes, *change);
}

static void
on_stale (MshedDocument *doc,
          Spy           *spy)
{
  spy->n_stale++;
}

static void
on_diags (MshedDocument *doc,
          Spy           *spy)
{
  spy->n_diags++;
}

static const MshedChange *
find_change (Spy          *spy,
             MshedTableId  table)
{
  for (guint i = 0; i < spy->changes->len; i++)
    if (g_array_index (spy->changes, MshedChange, i).table == table)
      return &g_array_index (spy->changes, MshedChange, i);
  return NULL;
}

static void
test_signals (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (26, 3000, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  Spy spy = { g_array_new (FALSE, FALSE, sizeof (MshedChange)), 0, 0 };
  const MshedChange *c;
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);

  g_signal_connect (doc, "changed", G_CALLBACK (on_changed), &spy);
  g_signal_connect (doc, "stale-changed", G_CALLBACK (on_stale), &spy);
  g_signal_connect (doc, "diagnostics-changed", G_CALLBACK (on_diags), &spy);

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 1, "batchCount", 0, NULL));
  g_assert_cmpuint (spy.changes->len, ==, 1);
  c = &g_array_index (spy.changes, MshedChange, 0);
  g_assert_cmpint (c->table, ==, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (c->first_row, ==, 1);
  g_assert_cmpuint (c->n_removed, ==, 1);
  g_assert_cmpuint (c->n_added, ==, 1);
  g_assert_cmpstr (c->field, ==, "batchCount");
  g_assert_cmpuint (c->offset, ==, 140 + 68 + 6);
  g_assert_cmpuint (c->length, ==, 2);
  g_assert_cmpint (c->origin, ==, MSHED_CHANGE_ORIGIN_EDIT);
  g_assert_cmpuint (spy.n_stale, ==, 1);

  g_array_set_size (spy.changes, 0);
  g_assert_true (mshed_document_undo (doc));
  g_assert_cmpuint (spy.changes->len, ==, 1);
  g_assert_cmpint (g_array_index (spy.changes, MshedChange, 0).origin, ==,
                   MSHED_CHANGE_ORIGIN_UNDO);
  g_assert_cmpuint (spy.n_stale, ==, 2);

  /* a structural edit: rows removed in the slot table, node cells rewritten */
  g_array_set_size (spy.changes, 0);
  g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_SLOTS, n_slots - 1, 1, NULL));
  c = find_change (&spy, MSHED_TABLE_SLOTS);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->first_row, ==, n_slots - 1);
  g_assert_cmpuint (c->n_removed, ==, 1);
  g_assert_cmpuint (c->n_added, ==, 0);
  g_assert_true (c->flags & MSHED_CHANGE_FLAG_LAYOUT);
  g_assert_nonnull (find_change (&spy, MSHED_TABLE_DIRECTORY));

  /* an invalid value: the diagnostics change, incrementally */
  spy.n_diags = 0;
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "batchStart", 60000, NULL));
  g_assert_cmpuint (spy.n_diags, ==, 1);
  g_assert_cmpuint (mshed_document_get_diagnostics (doc)->n_errors, ==, 1);
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (doc),
                                            MSHED_CHECK_SLOT_BATCH_RANGE));
  doc_test_assert_diags_fresh (doc);
  g_assert_true (mshed_document_undo (doc));
  g_assert_cmpuint (spy.n_diags, ==, 2);
  g_assert_cmpuint (mshed_document_get_diagnostics (doc)->n_errors, ==, 0);
  /* an edit that changes no finding emits no diagnostics-changed */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "unk30", 7, NULL));
  g_assert_cmpuint (spy.n_diags, ==, 2);

  /* a rename changes one row of the name table */
  g_array_set_size (spy.changes, 0);
  g_assert_true (mshed_document_rename_node (doc, 2, "a longer name than before", NULL));
  c = find_change (&spy, MSHED_TABLE_NAMES);
  g_assert_nonnull (c);
  g_assert_cmpuint (c->first_row, ==, 2);
  g_assert_cmpuint (c->n_removed, ==, 1);
  g_assert_cmpuint (c->n_added, ==, 1);
  g_assert_true (c->flags & MSHED_CHANGE_FLAG_LAYOUT);

  g_signal_handlers_disconnect_by_data (doc, &spy);
  g_array_unref (spy.changes);
}

static void
notify_count (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_properties (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (27, 100, FALSE, FALSE);
  guint n_modified = 0, n_label = 0;
  g_autofree char *label = NULL;
  gboolean can_undo;

  g_signal_connect (doc, "notify::modified", G_CALLBACK (notify_count), &n_modified);
  g_signal_connect (doc, "notify::undo-label", G_CALLBACK (notify_count), &n_label);
  g_assert_true (mshed_document_rename_node (doc, 4, "x", NULL));
  g_assert_cmpuint (n_modified, ==, 1);
  g_assert_cmpuint (n_label, ==, 1);
  g_object_get (doc, "undo-label", &label, "can-undo", &can_undo, NULL);
  g_assert_cmpstr (label, ==, "Rename node 4");
  g_assert_true (can_undo);
  g_assert_true (mshed_document_rename_node (doc, 4, "y", NULL));
  g_assert_cmpuint (n_modified, ==, 1);  /* notified only on a real change */
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_undo (doc));
  g_assert_cmpuint (n_modified, ==, 2);
  g_assert_cmpstr (mshed_document_get_title (doc), ==, "Unsaved model");
}

/* Stale set and recompute ------------------------------------------------------------------ */

static void
use_tri (guint          ordinal,
         guint          batch,
         guint          tri,
         const guint32  v[3],
         gboolean       valid,
         gpointer       data)
{
  guint *found = data;

  if (valid && (v[0] == found[0] || v[1] == found[0] || v[2] == found[0]))
    found[1] = TRUE;
}

static void
test_stale_vertex (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (28, 3000, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  guint vertex = 17;
  g_autoptr(GPtrArray) stale = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GArray) expect = g_array_new (FALSE, FALSE, sizeof (guint));
  MshedStale *sb = NULL, *hb = NULL;

  g_assert_false (mshed_document_has_stale (doc));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, vertex, "z", 123.0, NULL));

  /* independent: the slots whose triangles use vertex 17 */
  for (guint s = 0; s < n_slots; s++)
    {
      guint found[2] = { vertex, FALSE };

      mshed_slot_foreach_triangle (model, s, use_tri, found);
      if (found[1])
        g_array_append_val (expect, s);
    }
  g_assert_cmpuint (expect->len, >, 0);

  stale = mshed_document_list_stale (doc);
  for (guint i = 0; i < stale->len; i++)
    {
      MshedStale *s = g_ptr_array_index (stale, i);

      g_assert_cmpint (s->cause, ==, MSHED_EDIT_MOVE_VERTICES);
      if (s->target == MSHED_DERIVED_SLOT_BOX)
        sb = s;
      if (s->target == MSHED_DERIVED_HEADER_BOUNDS)
        hb = s;
      g_assert_nonnull (strstr (s->reason, "Vertex 17"));
    }
  g_assert_nonnull (sb);
  g_assert_nonnull (hb);
  g_assert_true (sb->recomputable);
  g_assert_cmpmem (sb->rows, sb->n_rows * sizeof (guint), expect->data,
                   expect->len * sizeof (guint));

  /* recompute slot boxes and spheres: one undo step each, equal to an independent
   * computation */
  g_assert_true (mshed_document_recompute_stale (doc, MSHED_DERIVED_SLOT_BOX,
                                                 MSHED_EDIT_MOVE_VERTICES, NULL));
  g_assert_true (mshed_document_recompute_stale (doc, MSHED_DERIVED_SLOT_SPHERE,
                                                 MSHED_EDIT_MOVE_VERTICES, NULL));
  for (guint i = 0; i < expect->len; i++)
    {
      guint s = g_array_index (expect, guint, i);
      MshedSlot slot;
      float mn[3] = { INFINITY, INFINITY, INFINITY }, mx[3] = { -INFINITY, -INFINITY, -INFINITY };
      float c[3];
      double r2 = 0;

      mshed_model_get_slot (model, s, &slot);
      for (guint b = slot.batch_start; b < slot.batch_start + slot.batch_count; b++)
        {
          MshedBatch batch;

          mshed_model_get_batch (model, b, &batch);
          for (guint k = 0; k < batch.index_count; k++)
            {
              guint16 idx;
              float p[3];

              mshed_model_get_index (model, batch.index_start + k, &idx);
              mshed_model_get_position (model, batch.base_vertex + idx, p);
              for (guint a = 0; a < 3; a++)
                {
                  mn[a] = MIN (mn[a], p[a]);
                  mx[a] = MAX (mx[a], p[a]);
                }
            }
        }
      for (guint a = 0; a < 3; a++)
        c[a] = (mn[a] + mx[a]) / 2;
      for (guint b = slot.batch_start; b < slot.batch_start + slot.batch_count; b++)
        {
          MshedBatch batch;

          mshed_model_get_batch (model, b, &batch);
          for (guint k = 0; k < batch.index_count; k++)
            {
              guint16 idx;
              float p[3];
              double d = 0;

              mshed_model_get_index (model, batch.index_start + k, &idx);
              mshed_model_get_position (model, batch.base_vertex + idx, p);
              for (guint a = 0; a < 3; a++)
                d += ((double) p[a] - c[a]) * ((double) p[a] - c[a]);
              r2 = MAX (r2, d);
            }
        }
      for (guint a = 0; a < 3; a++)
        {
          g_assert_cmpfloat (slot.aabb_min[a], ==, mn[a]);
          g_assert_cmpfloat (slot.aabb_max[a], ==, mx[a]);
          g_assert_cmpfloat (slot.sphere_center[a], ==, c[a]);
        }
      g_assert_cmpfloat ((double) slot.sphere_radius * slot.sphere_radius, >=, r2);
      g_assert_cmpfloat_with_epsilon (slot.sphere_radius, sqrt (r2), 1e-4 * (1 + sqrt (r2)));
      g_assert_cmpfloat (slot.aabb_max[2], >=, 123.0f);
    }
  again = mshed_document_list_stale (doc);
  g_assert_cmpuint (again->len, ==, stale->len - 2);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Recompute: Slot bounding spheres");

  /* undo restores the stale cells as they were */
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_undo (doc));
  g_clear_pointer (&again, g_ptr_array_unref);
  again = mshed_document_list_stale (doc);
  g_assert_cmpuint (again->len, ==, stale->len);

  /* acknowledge: cleared, the document stays as modified as it was; undo brings it back */
  g_assert_true (mshed_document_acknowledge_stale (doc, MSHED_DERIVED_HEADER_BOUNDS,
                                                   MSHED_EDIT_MOVE_VERTICES));
  g_assert_cmpuint (mshed_document_get_row_stale (doc, MSHED_TABLE_HEADER, 0), ==, 0);
  g_assert_true (mshed_document_undo (doc));
  g_assert_cmpuint (mshed_document_get_row_stale (doc, MSHED_TABLE_HEADER, 0), ==,
                    MSHED_DERIVED_HEADER_BOUNDS);

  /* undo the vertex move: nothing stale any more */
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_has_stale (doc));
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_true (mshed_document_redo (doc));
  g_assert_true (mshed_document_has_stale (doc));
}

static void
test_acknowledge_clean (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (29, 300, FALSE, FALSE);
  g_autofree char *dir = g_dir_make_tmp ("mshed-doc-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "m.msh", NULL);
  g_autofree char *bak = g_strconcat (path, ".bak", NULL);

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 5, "x", 9.0, NULL));
  g_assert_true (mshed_document_save_as (doc, path, MSHED_SAVE_FLAGS_NONE, NULL));
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_true (mshed_document_acknowledge_stale (doc, MSHED_DERIVED_SLOT_BOX,
                                                   MSHED_EDIT_MOVE_VERTICES));
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_get_modified (doc));
  g_unlink (path);
  g_unlink (bak);
  g_rmdir (dir);
}

static gboolean
op_recompute (MshedDocument *doc,
              gpointer       data,
              GError       **error)
{
  return mshed_document_recompute (doc, GPOINTER_TO_UINT (data), NULL, 0, error);
}

static void
test_recompute_each (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (35, 2000, TRUE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n_tris = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  MshedDerived each[] = {
    MSHED_DERIVED_SLOT_BOX, MSHED_DERIVED_SLOT_SPHERE, MSHED_DERIVED_HEADER_BOUNDS,
    MSHED_DERIVED_TRI_NORMALS,
    MSHED_DERIVED_TRI_LINKS, MSHED_DERIVED_VERTEX_NORMALS, MSHED_DERIVED_ATTRIBUTES,
    MSHED_DERIVED_ANIMATION_MAP,
  };

  g_autoptr(MshedNres) orig_nres = mshed_nres_copy (mshed_model_get_nres (model));

  /* damage everything a recompute restores */
  mshed_document_begin_group (doc, "damage");
  for (guint s = 0; s < n_slots; s++)
    {
      g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, s, "sphereR", 99, NULL));
      g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, s, "aabbMaxX", 99, NULL));
    }
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_HEADER, 0, "capR", 1, NULL));
  for (guint t = 0; t < n_tris; t += 7)
    {
      MshedTriDesc desc;

      /* far from any encoding of the real normal: a recompute must replace it */
      mshed_model_get_tri (model, t, &desc);
      g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, t, "nX",
                                               desc.normal[0] > 0 ? desc.normal[0] - 5000
                                                                  : desc.normal[0] + 5000,
                                               NULL));
      g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, t, "link1", MSHED_NONE,
                                               NULL));
    }
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_NORMALS, 3, "nx", 100, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, 2, "attr1", 5, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_MAP, 0, "key", 0, NULL));
  mshed_document_end_group (doc);

  for (guint i = 0; i < G_N_ELEMENTS (each); i++)
    {
      doc_test_do_undo_redo (doc, op_recompute, GUINT_TO_POINTER (each[i]));
      doc_test_assert_diags_fresh (doc);
    }
  /* after all recomputes, everything but the vertex normals is as generated */
  g_assert_true (mshed_document_recompute (doc, MSHED_DERIVED_RECOMPUTABLE &
                                           ~MSHED_DERIVED_VERTEX_NORMALS, NULL, 0, NULL));
  {
    g_autoptr(GPtrArray) stale = mshed_document_list_stale (doc);
    MshedNres *nres = mshed_model_get_nres (model);

    for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
      {
        const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
        const MshedNresEntry *o = mshed_nres_peek_entry (orig_nres, i);
        g_autoptr(GBytes) a = mshed_nres_entry_dup_bytes (e);
        g_autoptr(GBytes) b = mshed_nres_entry_dup_bytes (o);

        g_assert_cmpuint (e->attr1, ==, o->attr1);
        g_assert_cmpuint (e->attr2, ==, o->attr2);
        g_assert_cmpuint (e->attr3, ==, o->attr3);
        if (e->type_id != 4)
          g_assert_true (g_bytes_equal (a, b));
      }

    for (guint i = 0; i < stale->len; i++)
      g_assert_false (((MshedStale *) g_ptr_array_index (stale, i))->recomputable &&
                      !((MshedStale *) g_ptr_array_index (stale, i))->optional);
  }
  doc_test_assert_valid (doc);
}

/* Face normals and links equal an independent computation after a topology edit. */
static void
test_recompute_descriptors (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (36, 600, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  MshedSlot slot;
  MshedBatch batch;
  guint16 i0, i1;
  guint s = 0;

  mshed_model_get_slot (model, s, &slot);
  g_assert_true (mshed_slot_has_tri_mapping (model, s));
  mshed_model_get_batch (model, slot.batch_start, &batch);
  /* flip the winding of the slot's first triangle */
  mshed_model_get_index (model, batch.index_start + 1, &i0);
  mshed_model_get_index (model, batch.index_start + 2, &i1);
  mshed_document_begin_group (doc, "flip");
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_INDICES, batch.index_start + 1,
                                           "index", i1, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_INDICES, batch.index_start + 2,
                                           "index", i0, NULL));
  mshed_document_end_group (doc);
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_TRIS, slot.tri_start) &
                 MSHED_DERIVED_TRI_NORMALS);
  g_assert_true (mshed_document_recompute (doc, MSHED_DERIVED_TRI_NORMALS |
                                                MSHED_DERIVED_TRI_LINKS, NULL, 0, NULL));
  {
    MshedTriDesc d;
    float p[3][3];
    double e1[3], e2[3], n[3], len;
    guint16 idx[3];

    for (guint k = 0; k < 3; k++)
      {
        mshed_model_get_index (model, batch.index_start + k, &idx[k]);
        mshed_model_get_position (model, batch.base_vertex + idx[k], p[k]);
      }
    for (guint a = 0; a < 3; a++)
      {
        e1[a] = p[1][a] - p[0][a];
        e2[a] = p[2][a] - p[0][a];
      }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    mshed_model_get_tri (model, slot.tri_start, &d);
    for (guint a = 0; a < 3; a++)
      g_assert_cmpint (d.normal[a], ==, (gint) lround (n[a] / len * 32767));
    /* each link names a descriptor of the slot whose triangle shares two corner positions
     * with this one (links are placed by docs/conventions.md, not necessarily at edge k) and
     * links back */
    for (guint k = 0; k < 3; k++)
      if (d.link[k] != MSHED_NONE)
        {
          guint t = d.link[k] - slot.tri_start;
          MshedTriDesc o;
          guint hits = 0;

          g_assert_cmpuint (t, <, slot.tri_count);
          /* the slot's first batch holds enough triangles in generated models */
          g_assert_cmpuint (t, <, batch.index_count / 3);
          for (guint m = 0; m < 3; m++)
            {
              guint16 oi;
              float q[3];
              gboolean same = FALSE;

              mshed_model_get_index (model, batch.index_start + 3 * t + m, &oi);
              mshed_model_get_position (model, batch.base_vertex + oi, q);
              for (guint c = 0; c < 3; c++)
                same |= memcmp (p[c], q, sizeof q) == 0;
              hits += same;
            }
          g_assert_cmpuint (hits, ==, 2);
          mshed_model_get_tri (model, d.link[k], &o);
          g_assert_true (o.link[0] == slot.tri_start || o.link[1] == slot.tri_start ||
                         o.link[2] == slot.tri_start);
        }
  }
  doc_test_assert_valid (doc);
  g_assert_false (mshed_document_get_row_stale (doc, MSHED_TABLE_TRIS, slot.tri_start) &
                  (MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS));
}

/* After a vertex moved far out, the recomputed header (hull box, sphere, capsule axis) holds
 * it wherever the nodes that draw it put it (docs/msh.md §7 poses, frame 0, both conventions). */
static void
test_recompute_header (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (42, 1000, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  g_autofree float *world = g_new (float, 16 * (gsize) n_nodes);
  MshedHeader h;
  float p[3];
  guint drawn = 0;

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 3, "y", 500, NULL));
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_HEADER, 0) &
                 MSHED_DERIVED_HEADER_BOUNDS);
  g_assert_true (mshed_document_recompute (doc, MSHED_DERIVED_HEADER_BOUNDS, NULL, 0, NULL));
  g_assert_false (mshed_document_has_stale (doc) &&
                  (mshed_document_get_row_stale (doc, MSHED_TABLE_HEADER, 0) != 0));
  g_assert_true (mshed_model_get_header (model, &h));
  mshed_model_get_position (model, 3, p);
  for (guint conv = 0; conv < 2; conv++)
    {
      MshedPoseOptions options;

      mshed_pose_options_init (&options);
      options.convention = conv ? MSHED_ROTATION_RUNTIME : MSHED_ROTATION_FPARKAN;
      mshed_anim_compute_world (model, 0.0f, &options, world, n_nodes, NULL);
      for (guint n = 0; n < n_nodes; n++)
        {
          MshedNode node;
          gboolean draws = FALSE;

          mshed_model_get_node (model, n, &node);
          for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
            {
              guint found[2] = { 3, FALSE };

              if (node.slot[c] != MSHED_NONE)
                mshed_slot_foreach_triangle (model, node.slot[c], use_tri, found);
              draws |= found[1];
            }
          if (!draws)
            continue;
          {
            const float *m = world + 16 * n;
            double w[3], d2 = 0;

            for (guint r = 0; r < 3; r++)
              w[r] = (double) m[r] * p[0] + (double) m[4 + r] * p[1] + (double) m[8 + r] * p[2] +
                     m[12 + r];
            for (guint k = 0; k < 3; k++)
              {
                g_assert_cmpfloat (w[k], >=, h.hull[0][k] - 1e-3);
                g_assert_cmpfloat (w[k], <=, h.hull[7][k] + 1e-3);
                d2 += (w[k] - h.sphere[k]) * (w[k] - h.sphere[k]);
              }
            g_assert_cmpfloat (d2, <=, (double) h.sphere[3] * h.sphere[3]);
            drawn++;
          }
        }
    }
  g_assert_cmpuint (drawn, >, 0);
  /* the capsule runs along the longest side of the box, through the sphere's centre */
  {
    guint axis = 0;

    for (guint k = 1; k < 3; k++)
      if (h.hull[7][k] - h.hull[0][k] > h.hull[7][axis] - h.hull[0][axis])
        axis = k;
    for (guint k = 0; k < 3; k++)
      {
        g_assert_cmpfloat (h.capsule[k], ==, k == axis ? h.hull[0][k] : h.sphere[k]);
        g_assert_cmpfloat (h.capsule[3 + k], ==, k == axis ? h.hull[7][k] : h.sphere[k]);
      }
  }
}

static void
test_recompute_vertex_normals (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (43, 800, FALSE, FALSE);
  MshedModel *model = mshed_document_get_model (doc);
  guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  guint vertex = 40;
  double sum[3] = { 0, 0, 0 }, len;
  float got[3];
  const guint8 *before_nw = mshed_model_get_record (model, MSHED_TABLE_NORMALS, vertex);
  guint8 nw = before_nw[3];

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, vertex, "x", 3, NULL));
  g_assert_true (mshed_document_get_row_stale (doc, MSHED_TABLE_NORMALS, vertex) &
                 MSHED_DERIVED_VERTEX_NORMALS);
  g_assert_true (mshed_document_recompute (doc, MSHED_DERIVED_VERTEX_NORMALS, NULL, 0, NULL));
  for (guint b = 0; b < n_batches; b++)
    {
      MshedBatch batch;

      mshed_model_get_batch (model, b, &batch);
      for (guint t = 0; t + 2 < batch.index_count; t += 3)
        {
          guint16 idx[3];
          float p[3][3];
          double e1[3], e2[3];
          gboolean uses = FALSE;

          for (guint k = 0; k < 3; k++)
            {
              mshed_model_get_index (model, batch.index_start + t + k, &idx[k]);
              uses |= batch.base_vertex + idx[k] == vertex;
              mshed_model_get_position (model, batch.base_vertex + idx[k], p[k]);
            }
          if (!uses)
            continue;
          for (guint a = 0; a < 3; a++)
            {
              e1[a] = p[1][a] - p[0][a];
              e2[a] = p[2][a] - p[0][a];
            }
          sum[0] += e1[1] * e2[2] - e1[2] * e2[1];
          sum[1] += e1[2] * e2[0] - e1[0] * e2[2];
          sum[2] += e1[0] * e2[1] - e1[1] * e2[0];
        }
    }
  len = sqrt (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
  g_assert_cmpfloat (len, >, 0);
  mshed_model_get_normal (model, vertex, got);
  for (guint a = 0; a < 3; a++)
    g_assert_cmpfloat_with_epsilon (got[a], sum[a] / len, 1.0 / 127);
  g_assert_cmpuint (mshed_model_get_record (model, MSHED_TABLE_NORMALS, vertex)[3], ==, nw);
  g_assert_false (mshed_document_get_row_stale (doc, MSHED_TABLE_NORMALS, vertex));
}

/* Saving ------------------------------------------------------------------------------------ */

static void
test_save_roundtrip (void)
{
  g_autoptr(MshedDocument) gen = doc_test_new (37, 800, TRUE, TRUE);
  g_autofree char *dir = g_dir_make_tmp ("mshed-doc-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.msh", NULL);
  g_autofree char *bak = g_strconcat (path, ".bak", NULL);
  g_autoptr(GBytes) orig = doc_test_bytes (gen);
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (orig, NULL),
                                      (gssize) g_bytes_get_size (orig), NULL));
  doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mshed_document_get_title (doc), ==, "model.msh");

  /* unedited: byte-identical, and no backup needed for identical bytes either way */
  g_assert_true (mshed_document_save (doc, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpmem (contents, len, g_bytes_get_data (orig, NULL), g_bytes_get_size (orig));
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_test (bak, G_FILE_TEST_EXISTS));

  /* edit, save, reopen */
  g_assert_true (mshed_document_rename_node (doc, 0, "корпус", NULL));
  g_assert_true (mshed_document_save (doc, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_get_modified (doc));
  {
    g_autoptr(MshedDocument) again = mshed_document_open (path, MSHED_MODE_STRICT, &error);
    g_autofree char *name = NULL;

    g_assert_no_error (error);
    name = mshed_model_dup_name (mshed_document_get_model (again), 0);
    g_assert_cmpstr (name, ==, "корпус");
  }
  /* the backup still holds the original */
  g_assert_true (g_file_get_contents (bak, &contents, &len, NULL));
  g_assert_cmpmem (contents, len, g_bytes_get_data (orig, NULL), g_bytes_get_size (orig));

  /* undo everything and save: the original bytes again */
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_get_modified (doc));
  g_assert_true (mshed_document_save (doc, MSHED_SAVE_FLAGS_NONE, &error));
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpmem (contents, len, g_bytes_get_data (orig, NULL), g_bytes_get_size (orig));

  /* reload: the file's state, and itself an undo step (test-document-reload.c) */
  g_assert_true (mshed_document_rename_node (doc, 0, "x", NULL));
  g_assert_true (mshed_document_reload (doc, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Reload from disk");

  g_unlink (path);
  g_unlink (bak);
  g_rmdir (dir);
}

static void
test_save_refuses_invalid (void)
{
  g_autoptr(MshedDocument) doc = doc_test_new (38, 300, FALSE, FALSE);
  g_autofree char *dir = g_dir_make_tmp ("mshed-doc-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.msh", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_NODES, 0, "slot0", 5000, NULL));
  g_assert_false (mshed_document_save_as (doc, path, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "slot0"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (mshed_document_get_modified (doc));
  g_clear_error (&error);
  g_assert_true (mshed_document_save_as (doc, path, MSHED_SAVE_ANYWAY, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_get_modified (doc));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_nested_archive (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-doc-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "game.rlb", NULL);
  g_autoptr(GBytes) archive = mshed_generate_archive_bytes (40, 4, 2000);
  g_autoptr(MshedNres) outer = NULL;
  g_autoptr(MshedNres) saved = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autofree char *spec = NULL;
  g_autofree char *entry = NULL;
  gint model_index = -1;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (archive, NULL),
                                      (gssize) g_bytes_get_size (archive), NULL));
  outer = mshed_nres_parse (archive, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < mshed_nres_get_n_entries (outer) && model_index < 0; i++)
    if (mshed_entry_is_model_name (mshed_nres_peek_entry (outer, i)))
      model_index = (gint) i;
  g_assert_cmpint (model_index, >=, 0);
  entry = mshed_nres_entry_dup_name (mshed_nres_peek_entry (outer, (guint) model_index));
  spec = g_strdup_printf ("%s:%s", path, entry);

  doc = mshed_document_open (spec, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mshed_document_get_entry (doc), ==, entry);
  file = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (file, archive));
  g_clear_pointer (&file, g_bytes_unref);

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x", 42, NULL));
  g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_BATCHES, 0, 1, NULL));
  g_assert_true (mshed_document_save (doc, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_no_error (error);

  file = mshed_load_file (path, &error);
  g_assert_no_error (error);
  saved = mshed_nres_parse (file, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_nres_get_n_entries (saved), ==, mshed_nres_get_n_entries (outer));
  for (guint i = 0; i < mshed_nres_get_n_entries (outer); i++)
    {
      g_autoptr(GBytes) a = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (outer, i));
      g_autoptr(GBytes) b = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (saved, i));
      g_autoptr(GBytes) m = mshed_document_serialize (doc);

      if ((gint) i == model_index)
        g_assert_true (g_bytes_equal (b, m));
      else
        g_assert_true (g_bytes_equal (a, b));
    }
  g_clear_pointer (&file, g_bytes_unref);
  {
    g_autofree char *bak = g_strconcat (path, ".bak", NULL);

    g_unlink (bak);
  }
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_finalize (void)
{
  MshedDocument *doc = doc_test_new (41, 200, TRUE, FALSE);

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x", 1, NULL));
  g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_NODES, 1, 1, NULL));
  g_assert_true (mshed_document_undo (doc));
  g_assert_finalize_object (doc);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/document/set-field/every-table", test_set_every_field);
  g_test_add_func ("/model/document/set-field/errors", test_set_field_errors);
  g_test_add_func ("/model/document/legacy-nodes", test_legacy_nodes);
  g_test_add_func ("/model/document/history/merge", test_merge_cells);
  g_test_add_func ("/model/document/history/table", test_history_table);
  g_test_add_func ("/model/document/history/group-label", test_group_label);
  g_test_add_func ("/model/document/rename", test_rename);
  g_test_add_func ("/model/document/rename/keeps-bytes", test_rename_keeps_bytes);
  g_test_add_func ("/model/document/rows/delete-slot", test_delete_slot_fixups);
  g_test_add_func ("/model/document/rows/slots", test_slot_rows);
  g_test_add_func ("/model/document/rows/batches", test_batch_rows);
  g_test_add_func ("/model/document/rows/nodes", test_node_rows);
  g_test_add_func ("/model/document/rows/errors", test_row_errors);
  g_test_add_func ("/model/document/raw", test_raw_bytes);
  g_test_add_func ("/model/document/raw/hex-equals-cell", test_hex_equals_cell);
  g_test_add_func ("/model/document/resources", test_resources);
  g_test_add_func ("/model/document/signals", test_signals);
  g_test_add_func ("/model/document/properties", test_properties);
  g_test_add_func ("/model/document/stale/vertex", test_stale_vertex);
  g_test_add_func ("/model/document/stale/acknowledge-clean", test_acknowledge_clean);
  g_test_add_func ("/model/document/recompute/each", test_recompute_each);
  g_test_add_func ("/model/document/recompute/descriptors", test_recompute_descriptors);
  g_test_add_func ("/model/document/recompute/header", test_recompute_header);
  g_test_add_func ("/model/document/recompute/vertex-normals", test_recompute_vertex_normals);
  g_test_add_func ("/model/document/save/roundtrip", test_save_roundtrip);
  g_test_add_func ("/model/document/save/refuses-invalid", test_save_refuses_invalid);
  g_test_add_func ("/model/document/save/nested", test_nested_archive);
  g_test_add_func ("/model/document/finalize", test_finalize);

  return g_test_run ();
}
