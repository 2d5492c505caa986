/* mshed-copy.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Copy across between two documents (mshed-copy.h, docs/diff.md §6).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-copy.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-schema.h"
#include "mshed-utf.h"

/* Every copy is one undo step: a group, undone again when a step inside it failed. */
typedef struct {
  MshedDocument *doc;
  gsize          history;
  gboolean       could_undo;
} Step;

static Step
step_begin (MshedDocument *doc,
            const char    *label)
{
  Step s = { doc, mshed_document_get_history_size (doc), mshed_document_can_undo (doc) };

  mshed_document_begin_group (doc, label);
  return s;
}

static gboolean
step_end (Step     *s,
          gboolean  ok)
{
  mshed_document_end_group (s->doc);
  if (!ok && (mshed_document_get_history_size (s->doc) != s->history ||
              mshed_document_can_undo (s->doc) != s->could_undo))
    mshed_document_undo (s->doc);
  return ok;
}

static gboolean
need_models (MshedDocument  *target,
             MshedDocument  *source,
             GError        **error)
{
  if (mshed_document_get_model (target) != NULL && mshed_document_get_model (source) != NULL)
    return TRUE;
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
               _("Copy across: %s and %s are not both Parkan models"),
               mshed_document_get_title (source), mshed_document_get_title (target));
  return FALSE;
}

static gboolean
missing_row (MshedDocument        *doc,
             const MshedTableInfo *info,
             guint                 row,
             GError              **error)
{
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
               _("Copy across: %s has no row %u in table %s"),
               mshed_document_get_title (doc), row, info->name);
  return FALSE;
}

static const MshedTableInfo *
fixed_table (MshedTableId   table,
             GError       **error)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);

  if (info == NULL || info->stride == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Copy across: table %s has no fixed-size records"),
                   info ? info->name : "?");
      return NULL;
    }
  return info;
}

static guint32
entry_attr (const MshedNresEntry *e,
            const char           *field)
{
  if (strcmp (field, "attr1") == 0)
    return e->attr1;
  if (strcmp (field, "attr2") == 0)
    return e->attr2;
  if (strcmp (field, "attr3") == 0)
    return e->attr3;
  return e->type_id;
}

gboolean
mshed_copy_cell (MshedDocument  *target,
                 guint           target_row,
                 MshedDocument  *source,
                 guint           source_row,
                 MshedTableId    table,
                 const char     *field,
                 GError        **error)
{
  MshedModel *src;
  const MshedTableInfo *info = mshed_schema_get_table (table);
  const MshedField *f = info ? mshed_schema_find_field (info, field) : NULL;
  double value;

  if (!need_models (target, source, error))
    return FALSE;
  src = mshed_document_get_model (source);
  if (f == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Copy across: table %s has no field “%s”"), info ? info->name : "?", field);
      return FALSE;
    }
  if (table == MSHED_TABLE_DIRECTORY)
    {
      MshedNres *nres = mshed_model_get_nres (src);

      if (source_row >= mshed_nres_get_n_entries (nres))
        return missing_row (source, info, source_row, error);
      value = entry_attr (mshed_nres_peek_entry (nres, source_row), field);
    }
  else
    {
      const guint8 *record = mshed_model_get_record (src, table, source_row);

      if (record == NULL)
        return missing_row (source, info, source_row, error);
      value = mshed_field_read (f, record);
    }
  return mshed_document_set_field (target, table, target_row, field, value, error);
}

static GBytes *
source_record (MshedDocument        *source,
               const MshedTableInfo *info,
               guint                 row,
               GError              **error)
{
  const guint8 *record = mshed_model_get_record (mshed_document_get_model (source), info->id,
                                                 row);

  if (record == NULL)
    {
      missing_row (source, info, row, error);
      return NULL;
    }
  return g_bytes_new (record, info->stride);
}

static gboolean
insertable (MshedTableId table)
{
  return table == MSHED_TABLE_NODES || table == MSHED_TABLE_SLOTS ||
         table == MSHED_TABLE_BATCHES;
}

gboolean
mshed_copy_record (MshedDocument  *target,
                   guint           target_row,
                   MshedDocument  *source,
                   guint           source_row,
                   MshedTableId    table,
                   GError        **error)
{
  const MshedTableInfo *info;
  g_autoptr(GBytes) record = NULL;

  if (!need_models (target, source, error) || (info = fixed_table (table, error)) == NULL ||
      (record = source_record (source, info, source_row, error)) == NULL)
    return FALSE;
  if (insertable (table) &&
      target_row == mshed_model_get_n_rows (mshed_document_get_model (target), table))
    return mshed_document_insert_rows (target, table, target_row, 1, record, error);
  return mshed_document_set_record (target, table, target_row, record, error);
}

/* The payload of the resource holding @table in @doc, -1 when it has none. */
static gint
table_resource (MshedDocument        *doc,
                const MshedTableInfo *info,
                const guint8        **data,
                gsize                *size)
{
  MshedModel *model = mshed_document_get_model (doc);
  gint res = mshed_model_find_resource (model, info->res_type);

  if (res >= 0)
    *data = mshed_nres_entry_get_data (mshed_nres_peek_entry (mshed_model_get_nres (model),
                                                              (guint) res), size);
  return res;
}

gboolean
mshed_copy_table (MshedDocument  *target,
                  MshedDocument  *source,
                  MshedTableId    table,
                  GError        **error)
{
  const MshedTableInfo *info;
  const guint8 *sd = NULL, *td = NULL;
  gsize ss = 0, ts = 0;
  gint sres, tres;
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;

  if (!need_models (target, source, error) || (info = fixed_table (table, error)) == NULL)
    return FALSE;
  sres = table_resource (source, info, &sd, &ss);
  tres = table_resource (target, info, &td, &ts);
  if (sres < 0 || tres < 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Copy across: table %s is missing from %s; copy its resource instead"),
                   info->name, mshed_document_get_title (sres < 0 ? source : target));
      return FALSE;
    }
  if (info->res_type == 2 && (ss < MSHED_RES2_HEADER_SIZE || ts < MSHED_RES2_HEADER_SIZE))
    return missing_row (ss < MSHED_RES2_HEADER_SIZE ? source : target, info, 0, error);
  if (table == MSHED_TABLE_SLOTS)  /* the target's header, the source's slots */
    {
      g_byte_array_append (payload, td, MSHED_RES2_HEADER_SIZE);
      g_byte_array_append (payload, sd + MSHED_RES2_HEADER_SIZE, ss - MSHED_RES2_HEADER_SIZE);
    }
  else if (table == MSHED_TABLE_HEADER)
    {
      g_byte_array_append (payload, sd, MSHED_RES2_HEADER_SIZE);
      g_byte_array_append (payload, td + MSHED_RES2_HEADER_SIZE, ts - MSHED_RES2_HEADER_SIZE);
    }
  else
    g_byte_array_append (payload, sd, ss);
  bytes = g_bytes_new (payload->data, payload->len);
  return mshed_document_set_resource_payload (target, (guint) tres, bytes, error);
}

static char *
node_name (MshedDocument *doc,
           guint          node)
{
  char *name = mshed_model_dup_name (mshed_document_get_model (doc), node);

  return name ? name : g_strdup ("");
}

/* The new node goes in at @target_node with new copies of its slots after the target's. */
static gboolean
insert_node (MshedDocument  *target,
             guint           target_node,
             MshedDocument  *source,
             const guint8   *src_record,
             guint           stride,
             const MshedNode *node,
             GError        **error)
{
  MshedModel *tm = mshed_document_get_model (target);
  const MshedTableInfo *slots = mshed_schema_get_table (MSHED_TABLE_SLOTS);
  const MshedField *cell0 = mshed_schema_find_field (mshed_schema_get_table (MSHED_TABLE_NODES),
                                                     "slot0");
  guint first = mshed_model_get_n_rows (tm, MSHED_TABLE_SLOTS), n = 0;
  g_autoptr(GByteArray) records = g_byte_array_new ();
  g_autofree guint8 *record = g_memdup2 (src_record, stride);
  g_autoptr(GBytes) node_bytes = NULL;

  for (guint k = 0; k < MSHED_N_SLOT_CELLS; k++)
    {
      g_autoptr(GBytes) slot = NULL;
      guint16 cell = MSHED_NONE;

      if (node->slot[k] != MSHED_NONE)
        {
          if ((slot = source_record (source, slots, node->slot[k], error)) == NULL)
            return FALSE;
          g_byte_array_append (records, g_bytes_get_data (slot, NULL), slots->stride);
          cell = (guint16) (first + n++);
        }
      record[cell0->offset + 2 * k] = (guint8) (cell & 0xFF);
      record[cell0->offset + 2 * k + 1] = (guint8) (cell >> 8);
    }
  if (n > 0)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (records->data, records->len);

      if (!mshed_document_insert_rows (target, MSHED_TABLE_SLOTS, first, n, bytes, error))
        return FALSE;
    }
  node_bytes = g_bytes_new (record, stride);
  return mshed_document_insert_rows (target, MSHED_TABLE_NODES, target_node, 1, node_bytes,
                                     error);
}

gboolean
mshed_copy_node (MshedDocument  *target,
                 guint           target_node,
                 MshedDocument  *source,
                 guint           source_node,
                 GError        **error)
{
  MshedModel *sm, *tm;
  MshedNode sn, tn;
  const guint8 *src_record;
  g_autofree char *label = NULL, *name = NULL;
  const MshedField *cell0 = mshed_schema_find_field (mshed_schema_get_table (MSHED_TABLE_NODES),
                                                     "slot0");
  guint stride;
  gboolean ok = TRUE;
  Step step;

  if (!need_models (target, source, error))
    return FALSE;
  sm = mshed_document_get_model (source);
  tm = mshed_document_get_model (target);
  stride = mshed_model_get_node_stride (sm);
  if (!mshed_model_get_node (sm, source_node, &sn) ||
      (src_record = mshed_model_get_record (sm, MSHED_TABLE_NODES, source_node)) == NULL)
    return missing_row (source, mshed_schema_get_table (MSHED_TABLE_NODES), source_node, error);
  if (stride != mshed_model_get_node_stride (tm) || !mshed_model_has_node_records (tm))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Copy across: the node records of %s and %s differ in size"),
                   mshed_document_get_title (source), mshed_document_get_title (target));
      return FALSE;
    }
  name = node_name (source, source_node);
  label = g_strdup_printf (_("Copy node %u"), source_node);
  step = step_begin (target, label);
  if (target_node >= mshed_model_get_n_rows (tm, MSHED_TABLE_NODES))
    ok = insert_node (target, mshed_model_get_n_rows (tm, MSHED_TABLE_NODES), source,
                      src_record, stride, &sn, error);
  else if (!mshed_model_get_node (tm, target_node, &tn))
    ok = missing_row (target, mshed_schema_get_table (MSHED_TABLE_NODES), target_node, error);
  else
    {
      g_autofree guint8 *record = g_memdup2 (src_record, stride);
      g_autoptr(GBytes) bytes = NULL;

      /* the node keeps pointing at its own slots, which take the source's records */
      for (guint k = 0; ok && k < MSHED_N_SLOT_CELLS; k++)
        {
          if ((sn.slot[k] == MSHED_NONE) != (tn.slot[k] == MSHED_NONE))
            {
              g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                           _("Copy across: node %u of %s and node %u of %s use different slot "
                             "cells (slot%u); copy the nodes and slots tables instead"),
                           source_node, mshed_document_get_title (source), target_node,
                           mshed_document_get_title (target), k);
              ok = FALSE;
            }
          else if (sn.slot[k] != MSHED_NONE)
            ok = mshed_copy_record (target, tn.slot[k], source, sn.slot[k], MSHED_TABLE_SLOTS,
                                    error);
        }
      memcpy (record + cell0->offset,
              mshed_model_get_record (tm, MSHED_TABLE_NODES, target_node) + cell0->offset,
              2 * MSHED_N_SLOT_CELLS);
      bytes = g_bytes_new (record, stride);
      ok = ok && mshed_document_set_record (target, MSHED_TABLE_NODES, target_node, bytes,
                                            error);
    }
  if (ok && target_node >= mshed_model_get_n_rows (tm, MSHED_TABLE_NODES))
    target_node = mshed_model_get_n_rows (tm, MSHED_TABLE_NODES) - 1;
  ok = ok && mshed_document_rename_node (target, target_node, name, error);
  return step_end (&step, ok);
}

/**
 * mshed_copy_attributes:
 *
 * Gives resource @res of @doc the attributes of @from, one set-field command per attribute
 * that differs (inside the caller's group).
 */
gboolean
mshed_copy_attributes (MshedDocument         *doc,
                       guint                  res,
                       const MshedNresEntry  *from,
                       GError               **error)
{
  static const char *const names[] = { "attr1", "attr2", "attr3" };
  MshedNres *nres = mshed_model_get_nres (mshed_document_get_model (doc));

  for (guint k = 0; k < 3; k++)
    {
      guint32 want = entry_attr (from, names[k]);
      guint32 have = entry_attr (mshed_nres_peek_entry (nres, res), names[k]);

      if (want != have && !mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, res, names[k],
                                                     want, error))
        return FALSE;
    }
  return TRUE;
}

static gint
find_entry (MshedNres            *nres,
            const MshedNresEntry *like)
{
  for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);

      if (e->type_id == like->type_id && mshed_nres_name_compare (e->name, like->name) == 0)
        return (gint) i;
    }
  return -1;
}

gboolean
mshed_copy_resource (MshedDocument  *target,
                     MshedDocument  *source,
                     guint           source_index,
                     GError        **error)
{
  MshedNres *sn, *tn;
  const MshedNresEntry *e;
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *name = NULL, *label = NULL;
  gint res;
  gboolean ok;
  Step step;

  if (!need_models (target, source, error))
    return FALSE;
  sn = mshed_model_get_nres (mshed_document_get_model (source));
  tn = mshed_model_get_nres (mshed_document_get_model (target));
  if (source_index >= mshed_nres_get_n_entries (sn))
    return missing_row (source, mshed_schema_get_table (MSHED_TABLE_DIRECTORY), source_index,
                        error);
  e = mshed_nres_peek_entry (sn, source_index);
  payload = mshed_nres_entry_dup_bytes (e);
  name = mshed_nres_entry_dup_name (e);
  res = find_entry (tn, e);
  if (res < 0)
    return mshed_document_add_resource (target, MIN (source_index, mshed_nres_get_n_entries (tn)),
                                        e->type_id, name, e->attr1, e->attr2, e->attr3, payload,
                                        error) >= 0;
  label = g_strdup_printf (_("Copy resource %u"), (guint) res);
  step = step_begin (target, label);
  ok = mshed_document_set_resource_payload (target, (guint) res, payload, error) &&
       mshed_copy_attributes (target, (guint) res, e, error);
  return step_end (&step, ok);
}

/* UTF ------------------------------------------------------------------------------------ */

static MshedUtfNode *
utf_lookup (MshedDocument *doc,
            const char    *path)
{
  MshedUtf *utf = mshed_document_get_utf (doc);

  if (path == NULL || utf == NULL)
    return NULL;
  return strcmp (path, MSHED_UTF_ROOT_NAME) == 0 ? mshed_utf_get_root (utf)
                                                : mshed_utf_lookup (utf, path);
}

/**
 * mshed_copy_utf_subtree:
 *
 * Adds a copy of @src (a node of any tree) under @parent of @doc at @index, each node one
 * command of the open group.
 */
gboolean
mshed_copy_utf_subtree (MshedDocument  *doc,
                        MshedUtfNode   *parent,
                        guint           index,
                        MshedUtfNode   *src,
                        GError        **error)
{
  MshedUtfNode *made;
  g_autoptr(GBytes) data = NULL;

  if (!mshed_utf_node_is_directory (src))
    {
      data = mshed_utf_node_get_data (src);  /* (transfer none) */
      data = data ? g_bytes_ref (data) : g_bytes_new (NULL, 0);
    }
  made = mshed_document_utf_add (doc, parent, MIN (index, mshed_utf_node_get_n_children (parent)),
                                 mshed_utf_node_get_name (src), data, error);
  if (made == NULL)
    return FALSE;
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (src); c; c = mshed_utf_node_get_next (c))
    if (!mshed_copy_utf_subtree (doc, made, G_MAXUINT, c, error))
      return FALSE;
  return TRUE;
}

static gboolean
utf_missing (MshedDocument  *doc,
             const char     *path,
             GError        **error)
{
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
               _("Copy across: %s has no node %s"), mshed_document_get_title (doc),
               path ? path : "?");
  return FALSE;
}

static gboolean
copy_utf_rename (MshedDocument        *a,
                 MshedDocument        *b,
                 const MshedDiffItem  *item,
                 gboolean              to_b,
                 GError              **error)
{
  /* the path is B's; A's node has the old name under the same parent */
  MshedUtfNode *node_b = utf_lookup (b, item->path), *node_a = NULL;

  if (node_b != NULL && mshed_utf_node_get_parent (node_b) != NULL)
    {
      g_autofree char *parent = mshed_utf_node_dup_path (mshed_utf_node_get_parent (node_b));
      MshedUtfNode *dir = utf_lookup (a, parent);

      node_a = dir && item->old_value ? mshed_utf_node_lookup (dir, item->old_value) : NULL;
    }
  if (node_a == NULL || node_b == NULL)
    return utf_missing (node_a ? b : a, item->path, error);
  if (to_b)
    return mshed_document_utf_rename (b, node_b, mshed_utf_node_get_name (node_a), error);
  return mshed_document_utf_rename (a, node_a, mshed_utf_node_get_name (node_b), error);
}

static gboolean
copy_utf_item (MshedDocument        *target,
               MshedDocument        *source,
               const MshedDiffItem  *item,
               GError              **error)
{
  MshedUtfNode *src = utf_lookup (source, item->path), *dst = utf_lookup (target, item->path);

  if (src == NULL && dst == NULL)
    return utf_missing (source, item->path, error);
  if (src == NULL)
    return mshed_document_utf_remove (target, dst, error);
  if (dst == NULL || mshed_utf_node_is_directory (src) != mshed_utf_node_is_directory (dst))
    {
      g_autofree char *ppath = mshed_utf_node_dup_path (mshed_utf_node_get_parent (src));
      MshedUtfNode *parent = utf_lookup (target, ppath);
      guint index = mshed_utf_node_get_index (src);
      g_autofree char *label = g_strdup_printf (_("Copy %s"), item->path);
      Step step;
      gboolean ok = TRUE;

      if (parent == NULL)
        return utf_missing (target, ppath, error);
      step = step_begin (target, label);
      if (dst != NULL)
        ok = mshed_document_utf_remove (target, dst, error);
      ok = ok && mshed_copy_utf_subtree (target, parent, index, src, error);
      return step_end (&step, ok);
    }
  if (mshed_utf_node_is_directory (src))
    return TRUE;
  return mshed_document_utf_set_data (target, dst, mshed_utf_node_get_data (src), error);
}

/* Models --------------------------------------------------------------------------------- */

static gboolean
copy_row (MshedDocument        *target,
          guint                 target_row,
          MshedDocument        *source,
          guint                 source_row,
          const MshedDiffItem  *item,
          GError              **error)
{
  MshedTableId table = (MshedTableId) item->table;
  MshedModel *tm = mshed_document_get_model (target);

  if (source_row == MSHED_DIFF_NO_ROW)  /* only the target has it: delete it */
    {
      if (insertable (table))
        return mshed_document_delete_rows (target, table, target_row, 1, error);
      return mshed_copy_table (target, source, table, error);
    }
  if (!insertable (table))
    return mshed_copy_table (target, source, table, error);
  /* only the source has it: insert it where the pairing puts it */
  if (target_row == MSHED_DIFF_NO_ROW)
    target_row = MIN (source_row, mshed_model_get_n_rows (tm, table));
  if (table == MSHED_TABLE_NODES)
    {
      gboolean ok;
      g_autofree char *label = g_strdup_printf (_("Copy node %u"), source_row);
      guint n = mshed_model_get_n_rows (tm, table);
      Step step = step_begin (target, label);

      ok = mshed_copy_node (target, n, source, source_row, error);
      if (ok && target_row < n)
        ok = mshed_document_move_rows (target, table, n, 1, target_row, error);
      return step_end (&step, ok);
    }
  {
    const MshedTableInfo *info = mshed_schema_get_table (table);
    g_autoptr(GBytes) record = source_record (source, info, source_row, error);

    return record != NULL &&
           mshed_document_insert_rows (target, table, target_row, 1, record, error);
  }
}

static gboolean
copy_bytes (MshedDocument        *target,
            MshedDocument        *source,
            gint                  target_res,
            gint                  source_res,
            const MshedDiffItem  *item,
            gboolean              to_b,
            GError              **error)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (
    mshed_model_get_nres (mshed_document_get_model (source)), (guint) source_res);
  gsize size = 0;
  const guint8 *data = mshed_nres_entry_get_data (e, &size);
  guint64 src_len = to_b ? item->length_a : item->length_b;
  guint64 dst_len = to_b ? item->length_b : item->length_a;
  g_autoptr(GBytes) bytes = NULL;

  if (item->offset > size || src_len > size - item->offset)
    return missing_row (source, mshed_schema_get_table (MSHED_TABLE_DIRECTORY),
                        (guint) source_res, error);
  bytes = g_bytes_new (data + item->offset, src_len);
  return mshed_document_replace_bytes (target, (guint) target_res, item->offset, dst_len, bytes,
                                       error);
}

static gboolean
copy_msh_item (MshedDocument        *target,
               MshedDocument        *source,
               const MshedDiffItem  *item,
               gboolean              to_b,
               GError              **error)
{
  guint trow = to_b ? item->row_b : item->row_a, srow = to_b ? item->row_a : item->row_b;
  gint tres = to_b ? item->res_b : item->res_a, sres = to_b ? item->res_a : item->res_b;
  MshedTableId table = (MshedTableId) item->table;

  switch (item->kind)
    {
    case MSHED_DIFF_FIELD:
      return mshed_copy_cell (target, trow, source, srow, table, item->field, error);
    case MSHED_DIFF_TEXT:
      if (table == MSHED_TABLE_DIRECTORY)
        {
          g_autofree char *name = mshed_nres_entry_dup_name (mshed_nres_peek_entry (
            mshed_model_get_nres (mshed_document_get_model (source)), srow));
          g_autofree char *utf8 = mshed_cp1251_to_utf8 ((const guint8 *) name, strlen (name),
                                                        NULL);

          return mshed_document_set_resource_name (target, trow, utf8, error);
        }
      {
        g_autofree char *name = node_name (source, srow);

        return mshed_document_rename_node (target, trow, name, error);
      }
    case MSHED_DIFF_ROW_ADDED:
    case MSHED_DIFF_ROW_REMOVED:
      return copy_row (target, trow, source, srow, item, error);
    case MSHED_DIFF_GEOMETRY:
      return mshed_copy_table (target, source, table, error);
    case MSHED_DIFF_BYTES:
      if (tres < 0 || sres < 0)
        break;
      if (table != MSHED_TABLE_NONE && mshed_schema_get_table (table)->stride > 0 &&
          item->length_a != item->length_b)
        return mshed_copy_table (target, source, table, error);
      return copy_bytes (target, source, tres, sres, item, to_b, error);
    case MSHED_DIFF_RESOURCE_ADDED:
    case MSHED_DIFF_RESOURCE_REMOVED:
    case MSHED_DIFF_RESOURCE_CHANGED:
      if (sres < 0 && tres >= 0)
        return mshed_document_remove_resource (target, (guint) tres, error);
      if (sres >= 0)
        return mshed_copy_resource (target, source, (guint) sres, error);
      break;
    case MSHED_DIFF_RENAMED:
    default:
      break;
    }
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
               _("Copy across: this difference cannot be copied (%s)"),
               item->table_name ? item->table_name : "?");
  return FALSE;
}

gboolean
mshed_copy_difference (MshedDocument       *a,
                       MshedDocument       *b,
                       const MshedDiffItem *item,
                       gboolean             to_b,
                       GError             **error)
{
  MshedDocument *target = to_b ? b : a, *source = to_b ? a : b;

  g_return_val_if_fail (item != NULL, FALSE);

  if (mshed_document_get_container (a) != mshed_document_get_container (b))
    return need_models (target, source, error);
  if (mshed_document_get_utf (a) != NULL && item->kind == MSHED_DIFF_RENAMED)
    return copy_utf_rename (a, b, item, to_b, error);
  if (mshed_document_get_utf (a) != NULL)
    return copy_utf_item (target, source, item, error);
  return copy_msh_item (target, source, item, to_b, error);
}
