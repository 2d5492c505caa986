/* mshed-document.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The core of the document: the primitives every edit is made of, the history glue, change
 * signals, the stale set and incremental validation. Edits themselves live in
 * mshed-document-edits.c and mshed-document-rows.c, saving in mshed-document-save.c.
 *
 * One public operation = op_begin .. op_end. Inside, each primitive is applied to the
 * container at once (so later steps read the updated tables), recorded in the history, and
 * noted as a pending MshedChange; op_end of the outermost operation re-validates what was
 * touched and only then emits the signals, so listeners always see bytes and tables agree.
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-document-private.h"
#include "mshed-error.h"
#include "mshed-save.h"
#include "mshed-schema.h"
#include "mshed-validate.h"

enum {
  PROP_0,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_MODIFIED,
  PROP_UNDO_LABEL,
  PROP_REDO_LABEL,
  PROP_TITLE,
  PROP_PATH,
  PROP_HAS_STALE,
  N_PROPS
};

enum {
  CHANGED,
  STALE_CHANGED,
  DIAGNOSTICS_CHANGED,
  SAVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (MshedDocument, mshed_document, G_TYPE_OBJECT)

/* Boxed types ------------------------------------------------------------------------------ */

MshedChange *
mshed_change_copy (const MshedChange *self)
{
  return g_memdup2 (self, sizeof *self);
}

void
mshed_change_free (MshedChange *self)
{
  g_free (self);
}

G_DEFINE_BOXED_TYPE (MshedChange, mshed_change, mshed_change_copy, mshed_change_free)

MshedStale *
mshed_stale_copy (const MshedStale *self)
{
  MshedStale *copy = g_memdup2 (self, sizeof *self);

  copy->rows = g_memdup2 (self->rows, sizeof (guint) * self->n_rows);
  copy->reason = g_strdup (self->reason);
  return copy;
}

void
mshed_stale_free (MshedStale *self)
{
  if (self == NULL)
    return;
  g_free (self->rows);
  g_free (self->reason);
  g_free (self);
}

G_DEFINE_BOXED_TYPE (MshedStale, mshed_stale, mshed_stale_copy, mshed_stale_free)

/* Changes ---------------------------------------------------------------------------------- */

gboolean
_mshed_is_fixed_stride_type (guint32  type_id,
                             guint   *header,
                             guint   *stride)
{
  static const guint strides[20] = {
    [1] = 38, [2] = 68, [3] = 12, [4] = 4, [5] = 4, [6] = 2, [7] = 16, [8] = 24,
    [13] = 20, [15] = 8, [16] = 8, [18] = 4, [19] = 2,
  };

  if (type_id >= G_N_ELEMENTS (strides) || strides[type_id] == 0)
    return FALSE;
  if (header)
    *header = type_id == 2 ? MSHED_RES2_HEADER_SIZE : 0;
  if (stride)
    *stride = strides[type_id];
  return TRUE;
}

/* The schema field exactly covered by [rec_off, rec_off + len) of a record, or NULL. */
static const char *
single_field (MshedTableId table,
              gsize        rec_off,
              gsize        len)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);

  for (guint i = 0; i < info->n_fields; i++)
    if (info->fields[i].offset == rec_off && mshed_field_type_size (info->fields[i].type) == len)
      return info->fields[i].name;
  return NULL;
}

static void
add_change (MshedDocument     *self,
            const MshedChange *change)
{
  if (self->pending->len > 0)
    {
      MshedChange *last = &g_array_index (self->pending, MshedChange, self->pending->len - 1);

      /* coalesce in-place changes of neighbouring rows of one table (recompute-all) */
      if (last->table == change->table && last->res_index == change->res_index &&
          last->node == change->node &&
          last->origin == change->origin && last->table != MSHED_TABLE_NONE &&
          last->n_removed == last->n_added && change->n_removed == change->n_added &&
          change->flags == 0 && last->flags == 0 &&
          change->first_row <= last->first_row + last->n_added &&
          change->first_row + change->n_added >= last->first_row)
        {
          guint first = MIN (last->first_row, change->first_row);
          guint end = MAX (last->first_row + last->n_added, change->first_row + change->n_added);
          gsize bstart = MIN (last->offset, change->offset);
          gsize bend = MAX (last->offset + last->length, change->offset + change->length);

          if (last->field != change->field || last->first_row != change->first_row)
            last->field = NULL;
          last->first_row = first;
          last->n_removed = last->n_added = end - first;
          last->offset = bstart;
          last->old_length = last->length = bend - bstart;
          return;
        }
    }
  g_array_append_val (self->pending, *change);
}

static void
note_splice (MshedDocument *self,
             guint          res_index,
             guint32        type,
             gsize          offset,
             gsize          old_len,
             gsize          new_len,
             guint          name_row,
             guint          old_names)
{
  MshedChange c = { 0 };
  guint header, stride;

  c.table = MSHED_TABLE_NONE;
  c.res_index = (gint) res_index;
  c.res_type = type;
  c.offset = offset;
  c.old_length = old_len;
  c.length = new_len;
  c.origin = self->origin;
  c.flags = old_len != new_len ? MSHED_CHANGE_FLAG_LAYOUT : 0;

  if (type == 10)
    {
      guint now = mshed_model_get_n_rows (self->model, MSHED_TABLE_NAMES);

      c.table = MSHED_TABLE_NAMES;
      c.first_row = name_row;
      c.n_removed = old_names > name_row ? old_names - name_row : 0;
      c.n_added = now > name_row ? now - name_row : 0;
      if (old_names == now && c.n_added > 0)
        c.n_removed = c.n_added = 1;  /* a rename; later records only moved (LAYOUT) */
      add_change (self, &c);
      return;
    }

  if (_mshed_is_fixed_stride_type (type, &header, &stride) &&
      (type != 1 || mshed_model_has_node_records (self->model)))
    {
      MshedTableId table = mshed_schema_table_for_type (type)->id;

      if (type == 2 && offset < header)
        {
          MshedChange h = c;
          gsize end = MIN (offset + old_len, header);

          h.table = MSHED_TABLE_HEADER;
          h.first_row = 0;
          h.n_removed = h.n_added = 1;
          h.old_length = h.length = end - offset;
          h.flags = 0;
          h.field = old_len == new_len ? single_field (MSHED_TABLE_HEADER, offset, old_len) : NULL;
          add_change (self, &h);
          if (offset + old_len <= header && offset + new_len <= header)
            return;
          old_len -= end - offset;
          new_len = new_len > end - offset ? new_len - (end - offset) : 0;
          offset = header;
        }
      c.table = table;
      c.first_row = (guint) ((offset - header) / stride);
      if (old_len == new_len)
        {
          guint last = old_len ? (guint) ((offset + old_len - 1 - header) / stride) : c.first_row;

          c.n_removed = c.n_added = last - c.first_row + 1;
          if (c.n_added == 1)
            c.field = single_field (table, (offset - header) % stride, old_len);
        }
      else
        {
          c.n_removed = (guint) ((old_len + stride - 1) / stride);
          c.n_added = (guint) ((new_len + stride - 1) / stride);
        }
    }
  add_change (self, &c);
}

/* Validation bookkeeping --------------------------------------------------------------------- */

static void
dirty_record (MshedDocument *self,
              MshedTableId   table,
              guint          row)
{
  if (self->full_validate)
    return;
  g_hash_table_add (self->dirty_records,
                    (gpointer) (((guint64) table << 32 | row) + 1));
  if (g_hash_table_size (self->dirty_records) > 512)
    self->full_validate = TRUE;
}

static void
note_validation (MshedDocument *self,
                 guint32        type,
                 gsize          offset,
                 gsize          old_len,
                 gsize          new_len)
{
  guint64 first, last;

  if (old_len != new_len)
    {
      self->full_validate = TRUE;
      return;
    }
  if (old_len == 0)
    return;
  switch (type)
    {
    case 2:
      if (offset < MSHED_RES2_HEADER_SIZE)
        dirty_record (self, MSHED_TABLE_HEADER, 0);
      if (offset + old_len > MSHED_RES2_HEADER_SIZE)
        {
          first = (MAX (offset, MSHED_RES2_HEADER_SIZE) - MSHED_RES2_HEADER_SIZE) / 68;
          last = (offset + old_len - 1 - MSHED_RES2_HEADER_SIZE) / 68;
          for (guint64 r = first; r <= last && !self->full_validate; r++)
            dirty_record (self, MSHED_TABLE_SLOTS, (guint) r);
        }
      break;
    case 13:
    case 7:
      for (guint64 r = offset / (type == 13 ? 20 : 16);
           r <= (offset + old_len - 1) / (type == 13 ? 20 : 16) && !self->full_validate; r++)
        dirty_record (self, type == 13 ? MSHED_TABLE_BATCHES : MSHED_TABLE_TRIS, (guint) r);
      break;
    case 6:
      first = offset / 2;
      last = (offset + old_len - 1) / 2;
      if (last - first > 64)
        self->full_validate = TRUE;
      else
        {
          guint n = mshed_model_get_n_rows (self->model, MSHED_TABLE_BATCHES);

          for (guint b = 0; b < n && !self->full_validate; b++)
            {
              MshedBatch batch;

              mshed_model_get_batch (self->model, b, &batch);
              if (batch.index_start <= last &&
                  first < (guint64) batch.index_start + batch.index_count)
                dirty_record (self, MSHED_TABLE_BATCHES, b);
            }
        }
      break;
    case 1:
      if (!mshed_model_has_node_records (self->model))
        {
          self->full_validate = TRUE;
          break;
        }
      for (guint64 r = offset / 38; r <= (offset + old_len - 1) / 38; r++)
        {
          guint64 rs = r * 38;

          /* hdr2/hdr3 take part in the global animation-layout checks */
          if (offset < rs + 8 && offset + old_len > rs + 4)
            self->full_validate = TRUE;
          else
            dirty_record (self, MSHED_TABLE_NODES, (guint) r);
        }
      break;
    case 3:
    case 4:
    case 5:
    case 15:
    case 16:
    case 18:
      break;
    default:
      self->full_validate = TRUE;
      break;
    }
}

static void
drop_geom (MshedDocument *self)
{
  g_clear_pointer (&self->geom, mshed_geom_index_free);
}

MshedGeomIndex *
_mshed_document_get_geom (MshedDocument *self)
{
  if (self->geom == NULL)
    self->geom = mshed_geom_index_new (self->model);
  return self->geom;
}

static void
note_geometry (MshedDocument *self,
               guint32        type,
               gsize          offset,
               gsize          old_len,
               gsize          new_len)
{
  switch (type)
    {
    case 6:
    case 13:
      drop_geom (self);
      break;
    case 2:
      if (old_len != new_len)
        drop_geom (self);
      else
        for (gsize o = offset; o < offset + old_len; o++)
          if (o >= MSHED_RES2_HEADER_SIZE && (o - MSHED_RES2_HEADER_SIZE) % 68 < 8)
            {
              drop_geom (self);
              break;
            }
      break;
    case 3:
    case 7:
      if (old_len != new_len)
        drop_geom (self);
      break;
    default:
      break;
    }
}

/* Applying primitives ---------------------------------------------------------------------- */

static guint
name_row_at (MshedDocument *self,
             gsize          offset)
{
  guint n = mshed_model_get_n_rows (self->model, MSHED_TABLE_NAMES);
  guint lo = 0, hi = n;

  /* the last record starting at or before @offset */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (mshed_model_get_name_record_offset (self->model, mid) <= offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? lo - 1 : 0;
}

void
_mshed_document_add_change (MshedDocument     *self,
                            const MshedChange *change)
{
  add_change (self, change);
}

static void
apply_command (gpointer            user_data,
               const MshedCommand *cmd,
               gboolean            reverse)
{
  MshedDocument *self = user_data;
  MshedNres *nres;

  if (self->utf != NULL)
    {
      if (cmd->kind == MSHED_COMMAND_CUSTOM)
        _mshed_document_apply_stale_op (self, cmd->data, reverse);
      else
        _mshed_document_utf_apply (self, cmd, reverse);
      return;
    }
  nres = mshed_model_get_nres (self->model);

  switch (cmd->kind)
    {
    case MSHED_COMMAND_SPLICE:
      {
        const MshedNresEntry *e = mshed_nres_peek_entry (nres, cmd->res_index);
        guint32 type = e->type_id;
        gsize l0 = g_bytes_get_size (reverse ? cmd->new_bytes : cmd->old_bytes);
        gsize l1 = g_bytes_get_size (reverse ? cmd->old_bytes : cmd->new_bytes);
        guint name_row = 0, old_names = 0;
        gboolean is_names = (gint) cmd->res_index == mshed_model_find_resource (self->model, 10);

        if (is_names)
          {
            name_row = name_row_at (self, cmd->offset);
            old_names = mshed_model_get_n_rows (self->model, MSHED_TABLE_NAMES);
          }
        if (!mshed_command_apply (cmd, nres, reverse))
          return;
        if (is_names || (type == 1 && l0 != l1))
          mshed_model_names_changed (self->model);
        note_geometry (self, type, cmd->offset, l0, l1);
        note_validation (self, type, cmd->offset, l0, l1);
        if (mshed_model_find_resource (self->model, type) != (gint) cmd->res_index)
          {
            /* a second entry of a core type: the model does not read it */
            MshedChange c = { .table = MSHED_TABLE_NONE, .res_index = (gint) cmd->res_index,
                              .res_type = type, .offset = cmd->offset, .old_length = l0,
                              .length = l1, .origin = self->origin };
            add_change (self, &c);
          }
        else
          note_splice (self, cmd->res_index, type, cmd->offset, l0, l1, name_row, old_names);
        break;
      }

    case MSHED_COMMAND_DIRECTORY:
      {
        const MshedEntryHeader *from = reverse ? &cmd->new_header : &cmd->old_header;
        const MshedEntryHeader *to = reverse ? &cmd->old_header : &cmd->new_header;
        MshedChange c = { 0 };

        mshed_command_apply (cmd, nres, reverse);
        mshed_model_refresh (self->model);
        self->full_validate = TRUE;
        c.table = MSHED_TABLE_DIRECTORY;
        c.first_row = cmd->res_index;
        c.n_removed = c.n_added = 1;
        c.res_index = (gint) cmd->res_index;
        c.res_type = to->type_id;
        c.origin = self->origin;
        c.flags = MSHED_CHANGE_FLAG_DIRECTORY;
        if (from->type_id != to->type_id || (to->type_id == 1 && from->attr3 != to->attr3))
          {
            c.flags |= MSHED_CHANGE_FLAG_ALL;
            drop_geom (self);
          }
        add_change (self, &c);
        break;
      }

    case MSHED_COMMAND_INSERT_ENTRY:
    case MSHED_COMMAND_REMOVE_ENTRY:
      {
        gboolean insert = (cmd->kind == MSHED_COMMAND_INSERT_ENTRY) != reverse;
        const MshedEntryHeader *h = cmd->kind == MSHED_COMMAND_INSERT_ENTRY ? &cmd->new_header
                                                                           : &cmd->old_header;
        MshedChange c = { 0 };

        mshed_command_apply (cmd, nres, reverse);
        mshed_model_refresh (self->model);
        drop_geom (self);
        self->full_validate = TRUE;
        c.table = MSHED_TABLE_DIRECTORY;
        c.first_row = cmd->res_index;
        c.n_removed = insert ? 0 : 1;
        c.n_added = insert ? 1 : 0;
        c.res_index = (gint) cmd->res_index;
        c.res_type = h->type_id;
        c.origin = self->origin;
        c.flags = MSHED_CHANGE_FLAG_DIRECTORY | MSHED_CHANGE_FLAG_LAYOUT | MSHED_CHANGE_FLAG_ALL;
        add_change (self, &c);
        break;
      }

    case MSHED_COMMAND_CUSTOM:
    default:
      _mshed_document_apply_stale_op (self, cmd->data, reverse);
      break;
    }
}

static void
record (MshedDocument *self,
        MshedCommand  *cmd)
{
  apply_command (self, cmd, FALSE);
  mshed_history_push (self->history, cmd);
}

void
_mshed_document_record (MshedDocument *self,
                        MshedCommand  *command)
{
  record (self, command);
}

/* The MSH entry points refuse a UTF document with a message, not a crash. */
gboolean
_mshed_document_need_model (MshedDocument *self,
                            GError       **error)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (self->model != NULL)
    return TRUE;
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
               _("%s is a Freelancer UTF file; this edit applies to Parkan models only"),
               self->title);
  return FALSE;
}

void
_mshed_document_splice (MshedDocument *self,
                        guint          res_index,
                        gsize          offset,
                        gsize          old_length,
                        const guint8  *data,
                        gsize          length)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (mshed_model_get_nres (self->model), res_index);
  const guint8 *cur = mshed_nres_entry_get_data (e, NULL);
  g_autoptr(GBytes) old_bytes = g_bytes_new (cur ? cur + offset : NULL, old_length);
  g_autoptr(GBytes) new_bytes = g_bytes_new (data, length);

  if (old_length == length && (length == 0 || memcmp (cur + offset, data, length) == 0))
    return;
  record (self, mshed_command_new_splice (res_index, offset, old_bytes, new_bytes));
}

void
_mshed_document_replace_payload (MshedDocument *self,
                                 guint          res_index,
                                 const guint8  *data,
                                 gsize          length)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (mshed_model_get_nres (self->model), res_index);
  gsize old_len = 0;
  const guint8 *cur = mshed_nres_entry_get_data (e, &old_len);
  gsize prefix = 0, suffix = 0, limit = MIN (old_len, length);
  guint header = 0, stride = 1;

  while (prefix < limit && cur[prefix] == data[prefix])
    prefix++;
  if (prefix == old_len && old_len == length)
    return;
  while (suffix < limit - prefix && cur[old_len - 1 - suffix] == data[length - 1 - suffix])
    suffix++;
  if (_mshed_is_fixed_stride_type (e->type_id, &header, &stride) &&
      (old_len - header) % stride == 0 && (length - header) % stride == 0 &&
      old_len >= header && length >= header)
    {
      if (prefix >= header)
        prefix = header + (prefix - header) / stride * stride;
      suffix = suffix / stride * stride;
      if (suffix > MIN (old_len, length) - header)
        suffix = 0;
    }
  _mshed_document_splice (self, res_index, prefix, old_len - prefix - suffix, data + prefix,
                          length - prefix - suffix);
}

void
_mshed_document_set_header (MshedDocument          *self,
                            guint                   res_index,
                            const MshedEntryHeader *header)
{
  MshedEntryHeader old;

  mshed_entry_header_get (mshed_nres_peek_entry (mshed_model_get_nres (self->model), res_index),
                          &old);
  if (memcmp (&old, header, sizeof old) == 0)
    return;
  record (self, mshed_command_new_directory (res_index, &old, header));
}

void
_mshed_document_set_attr1 (MshedDocument *self,
                           guint32        type_id,
                           guint32        attr1)
{
  gint index = mshed_model_find_resource (self->model, type_id);
  MshedEntryHeader h;

  if (index < 0)
    return;
  mshed_entry_header_get (mshed_nres_peek_entry (mshed_model_get_nres (self->model),
                                                 (guint) index), &h);
  h.attr1 = attr1;
  _mshed_document_set_header (self, (guint) index, &h);
}

void
_mshed_document_insert_entry (MshedDocument          *self,
                              guint                   position,
                              const MshedEntryHeader *header,
                              GBytes                 *payload)
{
  record (self, mshed_command_new_insert_entry (position, header, payload));
}

void
_mshed_document_remove_entry (MshedDocument *self,
                              guint          res_index)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (mshed_model_get_nres (self->model), res_index);
  g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (e);
  MshedEntryHeader h;

  mshed_entry_header_get (e, &h);
  record (self, mshed_command_new_remove_entry (res_index, &h, payload));
}

gint
_mshed_document_res_index (MshedDocument *self,
                           guint32        type_id)
{
  return mshed_model_find_resource (self->model, type_id);
}

/* Operations, validation and signals --------------------------------------------------------- */

static gboolean
diag_equal (const MshedDiagnostic *a,
            const MshedDiagnostic *b)
{
  return a->severity == b->severity && a->check == b->check && a->table == b->table &&
         a->record == b->record && a->offset == b->offset &&
         g_strcmp0 (a->message, b->message) == 0;
}

/* Makes @fresh the document's findings. Returns TRUE when they differ from the old ones. */
gboolean
_mshed_document_replace_diags (MshedDocument    *self,
                               MshedDiagnostics *fresh)
{
  gboolean changed = fresh->items->len != self->diags->items->len;

  for (guint i = 0; i < fresh->items->len && !changed; i++)
    changed = !diag_equal (g_ptr_array_index (fresh->items, i),
                           g_ptr_array_index (self->diags->items, i));
  if (changed)
    {
      mshed_diagnostics_clear (self->diags);
      mshed_diagnostics_append (self->diags, fresh);
    }
  return changed;
}

/* Moves the items @drop selects out of @diags (into @removed, or frees them). */
static void
remove_diag_items (MshedDiagnostics *diags,
                   gboolean        (*drop) (const MshedDiagnostic *, gpointer),
                   gpointer          user_data,
                   GPtrArray        *removed)
{
  guint j = 0;

  for (guint i = 0; i < diags->items->len; i++)
    {
      MshedDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (drop (d, user_data))
        {
          if (d->severity == MSHED_SEVERITY_ERROR)
            diags->n_errors--;
          else if (d->severity == MSHED_SEVERITY_WARNING)
            diags->n_warnings--;
          if (removed)
            g_ptr_array_add (removed, d);
          else
            mshed_diagnostic_free (d);
        }
      else
        diags->items->pdata[j++] = d;
    }
  /* the moved-out items are owned elsewhere now: shrink without the free function */
  g_ptr_array_set_free_func (diags->items, NULL);
  g_ptr_array_set_size (diags->items, j);
  g_ptr_array_set_free_func (diags->items, (GDestroyNotify) mshed_diagnostic_free);
}

static gboolean
drop_model_item (const MshedDiagnostic *d,
                 gpointer               user_data)
{
  return d->check >= MSHED_CHECK_MISSING_TYPE;
}

static gboolean
drop_dirty_item (const MshedDiagnostic *d,
                 gpointer               user_data)
{
  GHashTable *dirty = user_data;

  return d->record >= 0 && _mshed_check_is_local (d->check) &&
         g_hash_table_contains (dirty, (gpointer) (((guint64) d->table << 32 |
                                                    (guint64) d->record) + 1));
}

static gboolean
has_gating_errors (const MshedDiagnostics *diags)
{
  for (guint i = 0; i < diags->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (d->check >= MSHED_CHECK_MISSING_TYPE && d->check < MSHED_CHECK_BATCH_INDEX_RANGE &&
          d->severity != MSHED_SEVERITY_INFO)
        return TRUE;
    }
  return FALSE;
}

/* Returns TRUE when the diagnostics changed. */
static gboolean
revalidate (MshedDocument *self,
            gboolean       full)
{
  gboolean changed = FALSE;

  if (self->utf != NULL)
    return _mshed_document_utf_revalidate (self, full);
  if (!full && g_hash_table_size (self->dirty_records) == 0)
    return FALSE;
  if (!full && has_gating_errors (self->diags))
    full = TRUE;

  if (full)
    {
      g_autoptr(MshedDiagnostics) fresh = mshed_diagnostics_new ();
      guint n_old = 0, k = 0;

      mshed_diagnostics_set_context (fresh, self->diags->base_offset, self->diags->entry);
      mshed_validate_model (self->model, self->mode, fresh);
      for (guint i = 0; i < self->diags->items->len; i++)
        if (((MshedDiagnostic *) g_ptr_array_index (self->diags->items, i))->check >=
            MSHED_CHECK_MISSING_TYPE)
          n_old++;
      if (n_old != fresh->items->len)
        changed = TRUE;
      for (guint i = 0; i < self->diags->items->len && !changed; i++)
        {
          const MshedDiagnostic *d = g_ptr_array_index (self->diags->items, i);

          if (d->check < MSHED_CHECK_MISSING_TYPE)
            continue;
          if (!diag_equal (d, g_ptr_array_index (fresh->items, k++)))
            changed = TRUE;
        }
      if (changed)
        {
          remove_diag_items (self->diags, drop_model_item, NULL, NULL);
          mshed_diagnostics_append (self->diags, fresh);
        }
    }
  else
    {
      g_autoptr(GPtrArray) removed =
        g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_diagnostic_free);
      GHashTableIter iter;
      gpointer key;
      guint kept;

      remove_diag_items (self->diags, drop_dirty_item, self->dirty_records, removed);
      kept = self->diags->items->len;
      g_hash_table_iter_init (&iter, self->dirty_records);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          guint64 k = (guint64) key - 1;

          _mshed_check_record (self->model, self->mode, (MshedTableId) (k >> 32),
                               (guint) (k & G_MAXUINT32), self->diags);
        }
      changed = self->diags->items->len - kept != removed->len;
      for (guint i = 0; i < removed->len && !changed; i++)
        {
          gboolean found = FALSE;

          for (guint j = kept; j < self->diags->items->len && !found; j++)
            found = diag_equal (g_ptr_array_index (removed, i),
                                g_ptr_array_index (self->diags->items, j));
          changed = !found;
        }
    }
  g_hash_table_remove_all (self->dirty_records);
  return changed;
}

static void
notify_if (MshedDocument *self,
           gboolean      *was,
           gboolean       now,
           guint          prop)
{
  if (*was != now)
    {
      *was = now;
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
    }
}

static void
notify_label (MshedDocument *self,
              char         **was,
              const char    *now,
              guint          prop)
{
  if (g_strcmp0 (*was, now) != 0)
    {
      g_free (*was);
      *was = g_strdup (now);
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
    }
}

static void
update_properties (MshedDocument *self)
{
  g_object_freeze_notify (G_OBJECT (self));
  notify_if (self, &self->was_can_undo, mshed_history_can_undo (self->history), PROP_CAN_UNDO);
  notify_if (self, &self->was_can_redo, mshed_history_can_redo (self->history), PROP_CAN_REDO);
  notify_if (self, &self->was_modified, mshed_history_is_modified (self->history), PROP_MODIFIED);
  notify_if (self, &self->was_has_stale, mshed_document_has_stale (self), PROP_HAS_STALE);
  notify_label (self, &self->was_undo_label, mshed_history_get_undo_label (self->history),
                PROP_UNDO_LABEL);
  notify_label (self, &self->was_redo_label, mshed_history_get_redo_label (self->history),
                PROP_REDO_LABEL);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
flush (MshedDocument *self)
{
  g_autoptr(GArray) pending = NULL;
  gboolean diags_changed, stale_changed;

  diags_changed = revalidate (self, self->full_validate);
  self->full_validate = FALSE;
  stale_changed = self->stale_dirty;
  self->stale_dirty = FALSE;
  pending = g_steal_pointer (&self->pending);
  self->pending = g_array_new (FALSE, FALSE, sizeof (MshedChange));

  g_object_ref (self);
  for (guint i = 0; i < pending->len; i++)
    g_signal_emit (self, signals[CHANGED], 0, &g_array_index (pending, MshedChange, i));
  if (stale_changed)
    g_signal_emit (self, signals[STALE_CHANGED], 0);
  if (diags_changed)
    g_signal_emit (self, signals[DIAGNOSTICS_CHANGED], 0);
  update_properties (self);
  g_object_unref (self);
}

void
_mshed_document_op_begin (MshedDocument *self,
                          const char    *label,
                          guint64        merge_key)
{
  if (self->op_depth++ == 0)
    self->origin = MSHED_CHANGE_ORIGIN_EDIT;
  mshed_history_begin_group (self->history, label, merge_key);
}

void
_mshed_document_op_end (MshedDocument *self)
{
  g_return_if_fail (self->op_depth > 0);
  mshed_history_end_group (self->history);
  if (--self->op_depth == 0)
    flush (self);
}

/* GObject ---------------------------------------------------------------------------------- */

static void
mshed_document_dispose (GObject *object)
{
  MshedDocument *self = MSHED_DOCUMENT (object);

  g_clear_object (&self->history);
  G_OBJECT_CLASS (mshed_document_parent_class)->dispose (object);
}

static void
mshed_document_finalize (GObject *object)
{
  MshedDocument *self = MSHED_DOCUMENT (object);

  _mshed_document_clear_stale (self);
  drop_geom (self);
  g_clear_pointer (&self->source, mshed_source_free);
  g_clear_pointer (&self->model, mshed_model_unref);
  g_clear_pointer (&self->dfm, mshed_dfm_unref);
  g_clear_pointer (&self->utf, mshed_utf_unref);
  g_clear_pointer (&self->utf_source, g_bytes_unref);
  g_clear_pointer (&self->diags, mshed_diagnostics_free);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_pointer (&self->dirty_records, g_hash_table_unref);
  g_free (self->path);
  g_free (self->entry);
  g_free (self->title);
  g_free (self->was_undo_label);
  g_free (self->was_redo_label);
  G_OBJECT_CLASS (mshed_document_parent_class)->finalize (object);
}

static void
mshed_document_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  MshedDocument *self = MSHED_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, mshed_document_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, mshed_document_can_redo (self));
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, mshed_document_get_modified (self));
      break;
    case PROP_UNDO_LABEL:
      g_value_set_string (value, mshed_document_get_undo_label (self));
      break;
    case PROP_REDO_LABEL:
      g_value_set_string (value, mshed_document_get_redo_label (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, mshed_document_get_title (self));
      break;
    case PROP_PATH:
      g_value_set_string (value, mshed_document_get_path (self));
      break;
    case PROP_HAS_STALE:
      g_value_set_boolean (value, mshed_document_has_stale (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_document_class_init (MshedDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = mshed_document_dispose;
  object_class->finalize = mshed_document_finalize;
  object_class->get_property = mshed_document_get_property;

  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE, flags);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE, flags);
  properties[PROP_MODIFIED] = g_param_spec_boolean ("modified", NULL, NULL, FALSE, flags);
  properties[PROP_UNDO_LABEL] = g_param_spec_string ("undo-label", NULL, NULL, NULL, flags);
  properties[PROP_REDO_LABEL] = g_param_spec_string ("redo-label", NULL, NULL, NULL, flags);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  properties[PROP_HAS_STALE] = g_param_spec_boolean ("has-stale", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                   MSHED_TYPE_CHANGE | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[STALE_CHANGED] = g_signal_new ("stale-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
  signals[DIAGNOSTICS_CHANGED] = g_signal_new ("diagnostics-changed", G_TYPE_FROM_CLASS (klass),
                                               G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                               G_TYPE_NONE, 0);
  signals[SAVED] = g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mshed_document_init (MshedDocument *self)
{
  self->history = mshed_history_new (apply_command, self);
  mshed_history_set_max_depth (self->history, 10000);
  self->pending = g_array_new (FALSE, FALSE, sizeof (MshedChange));
  self->dirty_records = g_hash_table_new (NULL, NULL);
  self->mode = MSHED_MODE_STRICT;
}

static void
update_title (MshedDocument *self)
{
  g_free (self->title);
  if (self->path == NULL)
    self->title = g_strdup (_("Unsaved model"));
  else
    {
      g_autofree char *base = g_path_get_basename (self->path);

      self->title = self->entry ? g_strdup_printf ("%s:%s", base, self->entry)
                                : g_steal_pointer (&base);
    }
}

void
_mshed_document_init_title (MshedDocument *self)
{
  update_title (self);
}

static gboolean
adopt_source (MshedDocument *self,
              MshedSource   *source,
              GError       **error)
{
  if (source->model == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_A_MODEL,
                   _("%s is an archive, not a model; name an entry as ARCHIVE:ENTRY"),
                   source->path);
      mshed_source_free (source);
      return FALSE;
    }
  g_clear_pointer (&self->source, mshed_source_free);
  self->source = source;
  if (self->model == NULL)
    self->model = mshed_model_ref (source->model);
  g_free (self->path);
  g_free (self->entry);
  self->path = g_strdup (source->path);
  self->entry = g_strdup (source->entry);
  if (source->entry_index >= 0)
    mshed_diagnostics_set_context (self->diags,
                                   mshed_nres_peek_entry (source->file_nres,
                                                          (guint) source->entry_index)->data_offset,
                                   source->entry);
  update_title (self);
  return TRUE;
}

/**
 * mshed_document_open:
 * @spec: FILE or ARCHIVE:ENTRY
 *
 * Returns: (transfer full) (nullable): the document
 */
MshedDocument *
mshed_document_open (const char  *spec,
                     MshedMode    mode,
                     GError     **error)
{
  g_autoptr(MshedDocument) self = g_object_new (MSHED_TYPE_DOCUMENT, NULL);
  MshedSource *source;

  self->mode = mode;
  self->diags = mshed_diagnostics_new ();
  if (mshed_utf_file_has_signature (spec))
    {
      g_autoptr(GBytes) bytes = mshed_load_file (spec, error);

      if (bytes == NULL || !_mshed_document_load_utf (self, spec, bytes, error))
        return NULL;
      return g_steal_pointer (&self);
    }
  source = mshed_source_open (spec, mode, self->diags, error);
  if (source == NULL || !adopt_source (self, source, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * mshed_document_new_for_model:
 * @model: (transfer none): the model (the document keeps a reference and edits it)
 *
 * Returns: (transfer full): a document without a file
 */
MshedDocument *
mshed_document_new_for_model (MshedModel *model,
                              MshedMode   mode)
{
  MshedDocument *self = g_object_new (MSHED_TYPE_DOCUMENT, NULL);

  self->mode = mode;
  self->model = mshed_model_ref (model);
  self->diags = mshed_diagnostics_new ();
  mshed_validate_model (model, mode, self->diags);
  update_title (self);
  return self;
}

/* Brings the model's container to the bytes of @fresh with the ordinary primitives, so the
 * whole change is one undo step: per directory position the payload (by its smallest splice)
 * and the directory entry, then the extra entries removed or the missing ones inserted. */
static void
splice_to (MshedDocument *self,
           MshedNres     *fresh)
{
  MshedNres *nres = mshed_model_get_nres (self->model);
  guint n_old = mshed_nres_get_n_entries (nres);
  guint n_new = mshed_nres_get_n_entries (fresh);

  for (guint i = 0; i < MIN (n_old, n_new); i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (fresh, i);
      gsize len = 0;
      const guint8 *data = mshed_nres_entry_get_data (e, &len);
      MshedEntryHeader header;

      _mshed_document_replace_payload (self, i, data, len);
      mshed_entry_header_get (e, &header);
      _mshed_document_set_header (self, i, &header);
    }
  for (guint i = n_old; i > n_new; i--)
    _mshed_document_remove_entry (self, i - 1);
  for (guint i = n_old; i < n_new; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (fresh, i);
      g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (e);
      MshedEntryHeader header;

      mshed_entry_header_get (e, &header);
      _mshed_document_insert_entry (self, i, &header, payload);
    }
}

/**
 * mshed_document_reload:
 *
 * Re-reads the document's file and makes the model equal to it as one undo step ("Reload
 * from disk"): undo brings back the edits the reload replaced. The stale set is cleared (also
 * undoably) and the reloaded state is the saved one. When nothing differs no step is added.
 */
gboolean
mshed_document_reload (MshedDocument *self,
                       GError       **error)
{
  g_autofree char *spec = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  MshedSource *source;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (self->op_depth == 0, FALSE);
  g_return_val_if_fail (mshed_history_get_depth (self->history) == 0, FALSE);
  if (self->path == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                   _("The model has no file to reload from"));
      return FALSE;
    }
  if (self->utf != NULL)
    {
      if (!_mshed_document_utf_reload (self, error))
        return FALSE;
      self->source_state = mshed_history_get_state_id (self->history);
      mshed_history_set_save_point (self->history);
      update_properties (self);
      return TRUE;
    }
  spec = self->entry ? g_strdup_printf ("%s:%s", self->path, self->entry) : g_strdup (self->path);
  source = mshed_source_open (spec, self->mode, diags, error);
  if (source == NULL)
    return FALSE;
  if (source->model == NULL)
    {
      mshed_source_free (source);
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_A_MODEL,
                   _("%s no longer holds a model"), spec);
      return FALSE;
    }

  _mshed_document_op_begin (self, _("Reload from disk"), 0);
  splice_to (self, mshed_model_get_nres (source->model));
  _mshed_document_unmark (self, (MshedDerived) ((1u << MSHED_N_DERIVED) - 1), -1, NULL, 0);
  self->full_validate = TRUE;
  _mshed_document_op_end (self);

  /* the file's own findings (container included) describe the model now */
  mshed_diagnostics_free (self->diags);
  self->diags = g_steal_pointer (&diags);
  adopt_source (self, source, NULL);
  self->source_state = mshed_history_get_state_id (self->history);
  mshed_history_set_save_point (self->history);
  update_properties (self);
  g_signal_emit (self, signals[DIAGNOSTICS_CHANGED], 0);
  return TRUE;
}

/* After a repacking save: the document starts over from the file just written, with a fresh
 * history, so that neither a later save nor an undo brings the old layout back. */
gboolean
_mshed_document_reset_to_file (MshedDocument *self,
                               GError       **error)
{
  g_autofree char *spec = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  MshedSource *source;
  MshedChange c = { 0 };

  if (self->utf != NULL)
    {
      g_autoptr(GBytes) bytes = mshed_load_file (self->path, error);
      g_autofree char *path = g_strdup (self->path);

      /* the history goes first: its commands may hold subtrees of the old tree */
      if (bytes == NULL)
        return FALSE;
      g_clear_object (&self->history);
      self->history = mshed_history_new (apply_command, self);
      if (!_mshed_document_load_utf (self, path, bytes, error))
        return FALSE;
    }
  else
    {
      spec = self->entry ? g_strdup_printf ("%s:%s", self->path, self->entry)
                         : g_strdup (self->path);
      source = mshed_source_open (spec, self->mode, diags, error);
      if (source == NULL)
        return FALSE;
      if (source->model == NULL)
        {
          mshed_source_free (source);
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_A_MODEL,
                       _("%s no longer holds a model"), spec);
          return FALSE;
        }
      mshed_diagnostics_free (self->diags);
      self->diags = g_steal_pointer (&diags);
      g_clear_pointer (&self->model, mshed_model_unref);
      adopt_source (self, source, NULL);
    }
  g_clear_object (&self->history);
  self->history = mshed_history_new (apply_command, self);
  mshed_history_set_max_depth (self->history, 10000);
  self->source_state = mshed_history_get_state_id (self->history);
  _mshed_document_clear_stale (self);
  drop_geom (self);

  c.table = MSHED_TABLE_NONE;
  c.res_index = -1;
  c.origin = MSHED_CHANGE_ORIGIN_RELOAD;
  c.flags = MSHED_CHANGE_FLAG_ALL | MSHED_CHANGE_FLAG_LAYOUT | MSHED_CHANGE_FLAG_DIRECTORY;
  g_array_append_val (self->pending, c);
  self->stale_dirty = TRUE;
  flush (self);
  update_properties (self);
  g_signal_emit (self, signals[DIAGNOSTICS_CHANGED], 0);
  return TRUE;
}

/* Accessors -------------------------------------------------------------------------------- */

/**
 * mshed_document_get_model:
 *
 * Returns: (transfer none): the model; read it, never write to it
 */
MshedModel *
mshed_document_get_model (MshedDocument *self)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), NULL);
  return self->model;
}

MshedContainerKind
mshed_document_get_container (MshedDocument *self)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), MSHED_CONTAINER_NRES);
  return self->utf != NULL ? MSHED_CONTAINER_UTF : MSHED_CONTAINER_NRES;
}

/**
 * mshed_document_get_utf:
 *
 * Returns: (transfer none) (nullable): the UTF tree; read it, never write to it
 */
MshedUtf *
mshed_document_get_utf (MshedDocument *self)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), NULL);
  return self->utf;
}

/**
 * mshed_document_get_dfm:
 *
 * Returns: (transfer none) (nullable): the deformable model's typed view
 */
MshedDfm *
mshed_document_get_dfm (MshedDocument *self)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), NULL);
  return self->dfm;
}

const MshedDiagnostics *
mshed_document_get_diagnostics (MshedDocument *self)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), NULL);
  return self->diags;
}

MshedMode
mshed_document_get_mode (MshedDocument *self)
{
  return self->mode;
}

const char *
mshed_document_get_path (MshedDocument *self)
{
  return self->path;
}

const char *
mshed_document_get_entry (MshedDocument *self)
{
  return self->entry;
}

const char *
mshed_document_get_title (MshedDocument *self)
{
  return self->title;
}

gboolean
mshed_document_get_modified (MshedDocument *self)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  return mshed_history_is_modified (self->history);
}

gboolean
mshed_document_can_undo (MshedDocument *self)
{
  return mshed_history_can_undo (self->history) && mshed_history_get_depth (self->history) == 0;
}

gboolean
mshed_document_can_redo (MshedDocument *self)
{
  return mshed_history_can_redo (self->history) && mshed_history_get_depth (self->history) == 0;
}

const char *
mshed_document_get_undo_label (MshedDocument *self)
{
  return mshed_history_get_undo_label (self->history);
}

const char *
mshed_document_get_redo_label (MshedDocument *self)
{
  return mshed_history_get_redo_label (self->history);
}

static gboolean
undo_redo (MshedDocument *self,
           gboolean       undo)
{
  gboolean ok;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (self->op_depth == 0, FALSE);
  if (mshed_history_get_depth (self->history) > 0)
    return FALSE;
  self->origin = undo ? MSHED_CHANGE_ORIGIN_UNDO : MSHED_CHANGE_ORIGIN_REDO;
  ok = undo ? mshed_history_undo (self->history) : mshed_history_redo (self->history);
  if (ok)
    flush (self);
  return ok;
}

gboolean
mshed_document_undo (MshedDocument *self)
{
  return undo_redo (self, TRUE);
}

gboolean
mshed_document_redo (MshedDocument *self)
{
  return undo_redo (self, FALSE);
}

void
mshed_document_begin_group (MshedDocument *self,
                            const char    *label)
{
  g_return_if_fail (MSHED_IS_DOCUMENT (self));
  mshed_history_begin_group (self->history, label, 0);
}

void
mshed_document_end_group (MshedDocument *self)
{
  g_return_if_fail (MSHED_IS_DOCUMENT (self));
  g_return_if_fail (mshed_history_get_depth (self->history) > self->op_depth);
  mshed_history_end_group (self->history);
  if (self->op_depth == 0)
    update_properties (self);
}

void
mshed_document_set_max_undo (MshedDocument *self,
                             guint          max_steps)
{
  mshed_history_set_max_depth (self->history, max_steps);
  update_properties (self);
}

void
mshed_document_clear_history (MshedDocument *self)
{
  g_return_if_fail (self->op_depth == 0);
  mshed_history_clear (self->history);
  update_properties (self);
}

gsize
mshed_document_get_history_size (MshedDocument *self)
{
  return mshed_history_get_memory_size (self->history);
}

void
mshed_document_revalidate (MshedDocument *self)
{
  g_return_if_fail (MSHED_IS_DOCUMENT (self));
  if (revalidate (self, TRUE))
    g_signal_emit (self, signals[DIAGNOSTICS_CHANGED], 0);
}

/* Saving (the rest is in mshed-document-save.c) -------------------------------------------- */

/* A save to @path succeeded: the history's save point, the document's file, the signals. */
void
_mshed_document_saved (MshedDocument *self,
                       const char    *path)
{
  gboolean moved = g_strcmp0 (path, self->path) != 0;

  mshed_history_set_save_point (self->history);
  if (moved)
    {
      g_free (self->path);
      self->path = g_strdup (path);
      update_title (self);
    }
  update_properties (self);
  if (moved)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
  g_signal_emit (self, signals[SAVED], 0);
}
