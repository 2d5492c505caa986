/* mshed-document-edits.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Cell, record, name, raw-byte and resource edits, the stale marks they leave (the
 * dependency matrix applied to one concrete edit) and the recompute actions.
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-document-private.h"
#include "mshed-error.h"
#include "mshed-schema.h"

static MshedNres *
doc_nres (MshedDocument *self)
{
  return mshed_model_get_nres (self->model);
}

static guint64
merge_key (guint  res_index,
           gsize  offset)
{
  return (G_GUINT64_CONSTANT (1) << 63) | ((guint64) res_index << 40) | (guint64) offset;
}

/* Stale marks for one concrete edit ---------------------------------------------------------- */

void
_mshed_document_batch_slots (MshedDocument *self,
                             guint          batch,
                             GArray        *slots)
{
  guint n = mshed_model_get_n_rows (self->model, MSHED_TABLE_SLOTS);

  for (guint s = 0; s < n; s++)
    {
      MshedSlot slot;

      mshed_model_get_slot (self->model, s, &slot);
      if (slot.batch_start <= batch && batch < (guint) slot.batch_start + slot.batch_count)
        g_array_append_val (slots, s);
    }
}

static void
append_range (GArray *rows,
              guint   start,
              guint   count)
{
  for (guint i = 0; i < count && rows->len <= MSHED_STALE_MAX_ROWS; i++)
    {
      guint r = start + i;
      g_array_append_val (rows, r);
    }
}

/* A slot's geometry or descriptor mapping changed: its bounds and its descriptors are stale. */
void
_mshed_document_mark_slot_geometry (MshedDocument *self,
                                    guint          slot,
                                    MshedEditKind  cause,
                                    const char    *reason)
{
  MshedSlot s;
  g_autoptr(GArray) descs = g_array_new (FALSE, FALSE, sizeof (guint));
  MshedDerived required = mshed_deps_get (cause, NULL);

  if (!mshed_model_get_slot (self->model, slot, &s))
    return;
  if (required & MSHED_DERIVED_SLOT_BOUNDS)
    _mshed_document_mark (self, MSHED_DERIVED_SLOT_BOUNDS, cause, &slot, 1, reason);
  if (!mshed_slot_has_tri_mapping (self->model, slot))
    {
      /* its triangle range no longer matches its batches: the mapping is gone */
      if (required & MSHED_DERIVED_SLOT_RANGES)
        _mshed_document_mark (self, MSHED_DERIVED_SLOT_RANGES, cause, &slot, 1, reason);
    }
  else
    {
      append_range (descs, s.tri_start, s.tri_count);
      if (required & MSHED_DERIVED_TRI_NORMALS)
        _mshed_document_mark_array (self, MSHED_DERIVED_TRI_NORMALS, cause, descs, reason);
      if (required & MSHED_DERIVED_TRI_LINKS)
        _mshed_document_mark_array (self, MSHED_DERIVED_TRI_LINKS, cause, descs, reason);
    }
}

static void
mark_vertex (MshedDocument *self,
             guint          vertex)
{
  MshedGeomIndex *geom = _mshed_document_get_geom (self);
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) descs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) verts = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *reason = g_strdup_printf (_("Vertex %u moved"), vertex);
  guint zero = 0;

  mshed_geom_index_vertex_users (geom, vertex, slots, descs, verts);
  _mshed_document_mark_array (self, MSHED_DERIVED_SLOT_BOUNDS, MSHED_EDIT_MOVE_VERTICES, slots,
                              reason);
  if (mshed_model_get_resource (self->model, 2))
    _mshed_document_mark (self, MSHED_DERIVED_HEADER_BOUNDS, MSHED_EDIT_MOVE_VERTICES, &zero, 1,
                          reason);
  _mshed_document_mark_array (self, MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS,
                              MSHED_EDIT_MOVE_VERTICES, descs, reason);
  if (mshed_model_get_resource (self->model, 4))
    _mshed_document_mark_array (self, MSHED_DERIVED_VERTEX_NORMALS, MSHED_EDIT_MOVE_VERTICES,
                                verts, reason);
}

/* Res6 element @i changed from @old_value: its triangle in every batch that covers it. */
static void
mark_index (MshedDocument *self,
            guint          i,
            guint          old_value)
{
  guint n_batches = mshed_model_get_n_rows (self->model, MSHED_TABLE_BATCHES);
  g_autofree char *reason = g_strdup_printf (_("Index %u changed"), i);
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) descs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) verts = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint b = 0; b < n_batches; b++)
    {
      MshedBatch batch;
      guint t, first;

      mshed_model_get_batch (self->model, b, &batch);
      if (i < batch.index_start || i >= (guint64) batch.index_start + batch.index_count / 3u * 3u)
        continue;
      t = (i - batch.index_start) / 3u;
      first = batch.index_start + 3u * t;
      for (guint k = 0; k < 3; k++)
        {
          guint16 v;

          if (mshed_model_get_index (self->model, first + k, &v))
            {
              guint vv = batch.base_vertex + v;
              g_array_append_val (verts, vv);
            }
        }
      {
        guint vv = batch.base_vertex + old_value;
        g_array_append_val (verts, vv);
      }
      g_array_set_size (slots, 0);
      _mshed_document_batch_slots (self, b, slots);
      for (guint k = 0; k < slots->len; k++)
        {
          guint s = g_array_index (slots, guint, k);
          MshedSlot slot;
          guint ordinal = 0;

          _mshed_document_mark (self, MSHED_DERIVED_SLOT_BOUNDS, MSHED_EDIT_TOPOLOGY, &s, 1,
                                reason);
          if (!mshed_slot_has_tri_mapping (self->model, s))
            continue;
          mshed_model_get_slot (self->model, s, &slot);
          for (guint bb = slot.batch_start; bb < b; bb++)
            {
              MshedBatch other;

              mshed_model_get_batch (self->model, bb, &other);
              ordinal += other.index_count / 3u;
            }
          g_array_set_size (descs, 0);
          {
            guint d = slot.tri_start + ordinal + t;
            g_array_append_val (descs, d);
          }
          /* its partners follow when its links are recomputed (links are mutual) */
          _mshed_document_mark_array (self, MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS,
                                      MSHED_EDIT_TOPOLOGY, descs, reason);
        }
    }
  if (mshed_model_get_resource (self->model, 4))
    _mshed_document_mark_array (self, MSHED_DERIVED_VERTEX_NORMALS, MSHED_EDIT_TOPOLOGY, verts,
                                reason);
}

static void
mark_field (MshedDocument    *self,
            MshedTableId      table,
            guint             row,
            const MshedField *field,
            const guint8     *old_record)
{
  MshedEditKind kind = mshed_deps_classify_field (table, field->name);
  g_autofree char *reason = NULL;

  switch (kind)
    {
    case MSHED_EDIT_MOVE_VERTICES:
      mark_vertex (self, row);
      break;

    case MSHED_EDIT_TOPOLOGY:
      if (table == MSHED_TABLE_INDICES)
        mark_index (self, row, mshed_read_u16 (old_record));
      else if (table == MSHED_TABLE_BATCHES)
        {
          g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));

          reason = g_strdup_printf (_("Batch %u, %s changed"), row, field->name);
          _mshed_document_batch_slots (self, row, slots);
          for (guint i = 0; i < slots->len; i++)
            _mshed_document_mark_slot_geometry (self, g_array_index (slots, guint, i),
                                                MSHED_EDIT_TOPOLOGY, reason);
        }
      break;

    case MSHED_EDIT_SLOT_RANGES:
      reason = g_strdup_printf (_("Slot %u, %s changed"), row, field->name);
      _mshed_document_mark_slot_geometry (self, row, MSHED_EDIT_SLOT_RANGES, reason);
      break;

    case MSHED_EDIT_ANIMATION:
      if (table == MSHED_TABLE_MAP)
        break;  /* the map words are the derived data themselves */
      if (table == MSHED_TABLE_KEYS && strcmp (field->name, "time") != 0)
        break;  /* only key times and track bounds shape the frame map */
      reason = g_strdup_printf (_("%s %u, %s changed"),
                                _(mshed_schema_get_table (table)->title), row, field->name);
      _mshed_document_mark (self, MSHED_DERIVED_ANIMATION_MAP, MSHED_EDIT_ANIMATION, NULL, 0,
                            reason);
      break;

    default:
      break;
    }
}

/* Marks what changing @table[@row] from @old_record to @new_record made stale. */
void
_mshed_document_mark_record (MshedDocument *self,
                             MshedTableId   table,
                             guint          row,
                             const guint8  *old_record,
                             const guint8  *new_record)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);
  gboolean topology_done = FALSE;

  for (guint i = 0; i < info->n_fields; i++)
    {
      const MshedField *f = &info->fields[i];
      guint size = mshed_field_type_size (f->type);
      MshedEditKind kind;

      if (memcmp (old_record + f->offset, new_record + f->offset, size) == 0)
        continue;
      kind = mshed_deps_classify_field (table, f->name);
      /* one pass per record is enough for position and range kinds */
      if (kind == MSHED_EDIT_MOVE_VERTICES || kind == MSHED_EDIT_SLOT_RANGES ||
          (kind == MSHED_EDIT_TOPOLOGY && table == MSHED_TABLE_BATCHES))
        {
          if (topology_done)
            continue;
          topology_done = TRUE;
        }
      mark_field (self, table, row, f, old_record);
    }
}

static void
mark_directory (MshedDocument *self,
                guint          res_index)
{
  MshedEntryHeader want, have;

  if (!mshed_compute_attributes (self->model, res_index, &want))
    return;
  mshed_entry_header_get (mshed_nres_peek_entry (doc_nres (self), res_index), &have);
  if (want.attr1 != have.attr1 || want.attr2 != have.attr2 || want.attr3 != have.attr3)
    {
      g_autofree char *reason = g_strdup_printf (_("Resource %u (Res%u): attributes edited"),
                                                 res_index, have.type_id);

      _mshed_document_mark (self, MSHED_DERIVED_ATTRIBUTES, MSHED_EDIT_DIRECTORY, &res_index, 1,
                            reason);
    }
}

/* A whole payload of @type_id was replaced. */
void
_mshed_document_mark_payload (MshedDocument *self,
                              guint32        type_id,
                              gsize          old_size,
                              gsize          new_size)
{
  g_autofree char *reason = g_strdup_printf (_("Res%u replaced"), type_id);
  guint zero = 0;
  gboolean count_changed = old_size != new_size;

  switch (type_id)
    {
    case 3:
      {
        MshedEditKind kind = count_changed ? MSHED_EDIT_VERTEX_COUNT : MSHED_EDIT_MOVE_VERTICES;

        _mshed_document_mark (self, MSHED_DERIVED_SLOT_BOUNDS, kind, NULL, 0, reason);
        _mshed_document_mark (self, MSHED_DERIVED_HEADER_BOUNDS, kind, &zero, 1, reason);
        _mshed_document_mark (self, MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS, kind,
                              NULL, 0, reason);
        if (mshed_model_get_resource (self->model, 4))
          _mshed_document_mark (self, MSHED_DERIVED_VERTEX_NORMALS, kind, NULL, 0, reason);
        if (count_changed)
          {
            _mshed_document_mark (self, MSHED_DERIVED_BATCH_RANGES, kind, NULL, 0, reason);
            _mshed_document_mark (self, MSHED_DERIVED_EXTRA_STREAMS, kind, NULL, 0, reason);
          }
        break;
      }
    case 6:
    case 13:
    case 7:
      if (type_id != 7)
        {
          _mshed_document_mark (self, MSHED_DERIVED_SLOT_BOUNDS, MSHED_EDIT_TOPOLOGY, NULL, 0,
                                reason);
          if (mshed_model_get_resource (self->model, 4))
            _mshed_document_mark (self, MSHED_DERIVED_VERTEX_NORMALS, MSHED_EDIT_TOPOLOGY, NULL,
                                  0, reason);
        }
      _mshed_document_mark (self, MSHED_DERIVED_TRI_NORMALS, MSHED_EDIT_TOPOLOGY, NULL, 0,
                            reason);
      _mshed_document_mark (self, MSHED_DERIVED_TRI_LINKS, MSHED_EDIT_TOPOLOGY, NULL, 0, reason);
      if (count_changed && type_id == 6)
        _mshed_document_mark (self, MSHED_DERIVED_BATCH_RANGES, MSHED_EDIT_TOPOLOGY, NULL, 0,
                              reason);
      if (count_changed && type_id != 6)
        _mshed_document_mark (self, MSHED_DERIVED_SLOT_RANGES, MSHED_EDIT_TOPOLOGY, NULL, 0,
                              reason);
      break;
    case 2:
      _mshed_document_mark (self, MSHED_DERIVED_SLOT_BOUNDS, MSHED_EDIT_SLOT_RANGES, NULL, 0,
                            reason);
      _mshed_document_mark (self, MSHED_DERIVED_TRI_NORMALS, MSHED_EDIT_SLOT_RANGES, NULL, 0,
                            reason);
      _mshed_document_mark (self, MSHED_DERIVED_TRI_LINKS, MSHED_EDIT_SLOT_RANGES, NULL, 0,
                            reason);
      break;
    case 8:
    case 19:
      _mshed_document_mark (self, MSHED_DERIVED_ANIMATION_MAP, MSHED_EDIT_ANIMATION, NULL, 0,
                            reason);
      break;
    default:
      break;
    }
}

/* Resolving a typed cell ------------------------------------------------------------------ */

typedef struct {
  const MshedTableInfo *info;
  gint                  res_index;
  gsize                 offset;     /* of the record in the payload */
  const guint8         *record;
} Cell;

static gboolean
resolve_row (MshedDocument *self,
             MshedTableId   table,
             guint          row,
             Cell          *cell,
             GError       **error)
{
  const MshedTableInfo *info;
  guint n;

  if (table < 0 || table >= MSHED_N_TABLES)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("There is no table number %d"), (int) table);
      return FALSE;
    }
  info = mshed_schema_get_table (table);
  cell->info = info;
  if (table == MSHED_TABLE_NAMES)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Table names: rename a node instead of setting a field"));
      return FALSE;
    }
  if (table == MSHED_TABLE_NODES && !mshed_model_has_node_records (self->model) &&
      mshed_model_get_resource (self->model, 1) != NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Table nodes: the node records are not 38 bytes long (legacy or unknown "
                     "layout), so they cannot be edited field by field"));
      return FALSE;
    }
  if (table == MSHED_TABLE_DIRECTORY)
    {
      n = mshed_nres_get_n_entries (doc_nres (self));
      cell->res_index = (gint) row;
    }
  else
    {
      cell->res_index = mshed_model_find_resource (self->model, info->res_type);
      if (cell->res_index < 0)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                       _("Table %s: the model has no Res%u"), info->name, info->res_type);
          return FALSE;
        }
      n = mshed_model_get_n_rows (self->model, table);
    }
  if (row >= n)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   g_dngettext (GETTEXT_PACKAGE, "Table %s has %u row; row %u does not exist",
                                "Table %s has %u rows; row %u does not exist", n),
                   info->name, n, row);
      return FALSE;
    }
  if (table != MSHED_TABLE_DIRECTORY)
    {
      cell->offset = info->header_size + (gsize) row * info->stride;
      cell->record = mshed_model_get_record (self->model, table, row);
    }
  return TRUE;
}

static const MshedField *
resolve_field (const MshedTableInfo *info,
               guint                 row,
               const char           *name,
               GError              **error)
{
  const MshedField *f = mshed_schema_find_field (info, name);

  if (f == NULL)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < info->n_fields; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "", info->fields[i].name);
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Table %s, row %u: there is no field “%s” (fields: %s)"),
                   info->name, row, name, names->str);
    }
  return f;
}

static gboolean
check_value (const MshedTableInfo *info,
             guint                 row,
             const MshedField     *f,
             double                value,
             GError              **error)
{
  double min, max;

  switch (f->type)
    {
    case MSHED_FIELD_U8: min = 0; max = G_MAXUINT8; break;
    case MSHED_FIELD_I8: min = G_MININT8; max = G_MAXINT8; break;
    case MSHED_FIELD_U16: min = 0; max = G_MAXUINT16; break;
    case MSHED_FIELD_I16: min = G_MININT16; max = G_MAXINT16; break;
    case MSHED_FIELD_U32: min = 0; max = G_MAXUINT32; break;
    case MSHED_FIELD_I32: min = G_MININT32; max = G_MAXINT32; break;
    case MSHED_FIELD_F32:
    default:
      if (!isfinite (value) || !isfinite ((float) value))
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Table %s, row %u, field %s: %g is not a finite 32-bit float"),
                       info->name, row, f->name, value);
          return FALSE;
        }
      return TRUE;
    }
  if (!(value >= min && value <= max) || value != floor (value))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Table %s, row %u, field %s: %g is not an integer in %.0f…%.0f"),
                   info->name, row, f->name, value, min, max);
      return FALSE;
    }
  return TRUE;
}

static gboolean
set_directory_field (MshedDocument    *self,
                     guint             row,
                     const MshedField *f,
                     double            value,
                     GError          **error)
{
  MshedEntryHeader h;
  g_autofree char *label = NULL;
  guint32 v = (guint32) value;

  mshed_entry_header_get (mshed_nres_peek_entry (doc_nres (self), row), &h);
  if (strcmp (f->name, "type") == 0)
    h.type_id = v;
  else if (strcmp (f->name, "attr1") == 0)
    h.attr1 = v;
  else if (strcmp (f->name, "attr2") == 0)
    h.attr2 = v;
  else if (strcmp (f->name, "attr3") == 0)
    h.attr3 = v;
  else
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Table dir, row %u, field %s: the writer computes it from the payloads; "
                     "it cannot be set"), row, f->name);
      return FALSE;
    }
  label = g_strdup_printf (_("Set %s[%u].%s"), "dir", row, f->name);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_set_header (self, row, &h);
  mark_directory (self, row);
  _mshed_document_op_end (self);
  return TRUE;
}

gboolean
mshed_document_set_field (MshedDocument *self,
                          MshedTableId   table,
                          guint          row,
                          const char    *field,
                          double         value,
                          GError       **error)
{
  Cell cell = { 0 };
  const MshedField *f;
  guint8 old_record[140], new_record[140];
  g_autofree char *label = NULL;
  guint size;

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (field != NULL, FALSE);

  if (!resolve_row (self, table, row, &cell, error))
    return FALSE;
  if ((f = resolve_field (cell.info, row, field, error)) == NULL ||
      !check_value (cell.info, row, f, value, error))
    return FALSE;
  if (table == MSHED_TABLE_DIRECTORY)
    return set_directory_field (self, row, f, value, error);

  g_assert (cell.info->stride <= sizeof old_record);
  memcpy (old_record, cell.record, cell.info->stride);
  memcpy (new_record, cell.record, cell.info->stride);
  mshed_field_write (f, new_record, value);
  size = mshed_field_type_size (f->type);
  if (memcmp (old_record + f->offset, new_record + f->offset, size) == 0)
    return TRUE;

  label = g_strdup_printf (_("Set %s[%u].%s"), cell.info->name, row, f->name);
  _mshed_document_op_begin (self, label, merge_key ((guint) cell.res_index,
                                                    cell.offset + f->offset));
  _mshed_document_splice (self, (guint) cell.res_index, cell.offset + f->offset, size,
                          new_record + f->offset, size);
  _mshed_document_mark_record (self, table, row, old_record, new_record);
  _mshed_document_op_end (self);
  return TRUE;
}

gboolean
mshed_document_set_field_text (MshedDocument *self,
                               MshedTableId   table,
                               guint          row,
                               const char    *field,
                               const char    *text,
                               GError       **error)
{
  Cell cell = { 0 };
  const MshedField *f;
  g_autoptr(GError) local = NULL;
  double value;

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (!resolve_row (self, table, row, &cell, error) ||
      (f = resolve_field (cell.info, row, field, error)) == NULL)
    return FALSE;
  if (!mshed_field_parse (f, text, &value, &local))
    {
      g_set_error (error, MSHED_MODEL_ERROR, local->code, _("Table %s, row %u: %s"),
                   cell.info->name, row, local->message);
      return FALSE;
    }
  return mshed_document_set_field (self, table, row, f->name, value, error);
}

gboolean
mshed_document_set_record (MshedDocument *self,
                           MshedTableId   table,
                           guint          row,
                           GBytes        *record,
                           GError       **error)
{
  Cell cell = { 0 };
  g_autofree guint8 *old_record = NULL;
  g_autofree char *label = NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (record, &len);

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (!resolve_row (self, table, row, &cell, error))
    return FALSE;
  if (table == MSHED_TABLE_DIRECTORY || len != cell.info->stride)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Table %s, row %u: a record is %u bytes long, not %zu"),
                   cell.info->name, row, cell.info->stride, len);
      return FALSE;
    }
  old_record = g_memdup2 (cell.record, len);
  if (memcmp (old_record, data, len) == 0)
    return TRUE;
  label = g_strdup_printf (_("Replace %s[%u]"), cell.info->name, row);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_splice (self, (guint) cell.res_index, cell.offset, len, data, len);
  _mshed_document_mark_record (self, table, row, old_record, data);
  _mshed_document_op_end (self);
  return TRUE;
}

/* Names ----------------------------------------------------------------------------------- */

gboolean
mshed_document_rename_node (MshedDocument *self,
                            guint          node,
                            const char    *name,
                            GError       **error)
{
  g_autoptr(GBytes) encoded = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *label = NULL;
  const guint8 *text, *enc;
  guint32 len;
  gsize enc_len = 0;
  gint res;
  guint n_nodes;
  guint8 *rec;
  gsize rec_len;

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  res = mshed_model_find_resource (self->model, 10);
  n_nodes = mshed_model_has_node_records (self->model)
              ? mshed_model_get_n_rows (self->model, MSHED_TABLE_NODES)
              : mshed_model_get_n_rows (self->model, MSHED_TABLE_NAMES);
  if (res < 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Node %u: the model has no name table (Res10)"), node);
      return FALSE;
    }
  if (!mshed_model_names_ok (self->model))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Node %u: the name table (Res10) is broken, so names cannot be edited"),
                   node);
      return FALSE;
    }
  if (node >= n_nodes || !mshed_model_get_name_raw (self->model, node, &text, &len))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   g_dngettext (GETTEXT_PACKAGE, "The model has %u node; node %u does not exist",
                                "The model has %u nodes; node %u does not exist", n_nodes),
                   n_nodes, node);
      return FALSE;
    }
  encoded = mshed_utf8_to_cp1251 (name, &local);
  if (encoded == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING,
                   _("Node %u, name: %s"), node, local->message);
      return FALSE;
    }
  enc = g_bytes_get_data (encoded, &enc_len);
  if (enc_len > 0 && memchr (enc, 0, enc_len) != NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING,
                   _("Node %u, name: a name cannot contain a NUL character"), node);
      return FALSE;
    }
  /* an unchanged name keeps its bytes (even a non-zero terminator) */
  if (enc_len == len && (len == 0 || memcmp (enc, text, len) == 0))
    return TRUE;

  rec_len = 4 + (enc_len ? enc_len + 1 : 0);
  rec = g_malloc0 (rec_len);
  mshed_write_u32 (rec, (guint32) enc_len);
  if (enc_len)
    memcpy (rec + 4, enc, enc_len);
  label = g_strdup_printf (_("Rename node %u"), node);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_splice (self, (guint) res, mshed_model_get_name_record_offset (self->model, node),
                          4 + (len ? (gsize) len + 1 : 0), rec, rec_len);
  _mshed_document_op_end (self);
  g_free (rec);
  return TRUE;
}

gboolean
mshed_document_set_resource_name (MshedDocument *self,
                                  guint          res_index,
                                  const char    *name,
                                  GError       **error)
{
  MshedEntryHeader h;
  g_autofree char *label = NULL;
  gsize len;

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (res_index >= mshed_nres_get_n_entries (doc_nres (self)))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("There is no resource %u"), res_index);
      return FALSE;
    }
  len = strlen (name);
  if (len > MSHED_NRES_NAME_SIZE - 1)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("NRes directory record %u, field name: “%s” is %zu bytes long; "
                     "at most 35 fit"),
                   res_index, name, len);
      return FALSE;
    }
  mshed_entry_header_get (mshed_nres_peek_entry (doc_nres (self), res_index), &h);
  memset (h.name, 0, sizeof h.name);
  memcpy (h.name, name, len);
  label = g_strdup_printf (_("Rename resource %u"), res_index);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_set_header (self, res_index, &h);
  _mshed_document_op_end (self);
  return TRUE;
}

/* Raw bytes and whole resources ------------------------------------------------------------- */

static gboolean
check_res_index (MshedDocument *self,
                 guint          res_index,
                 GError       **error)
{
  if (res_index < mshed_nres_get_n_entries (doc_nres (self)))
    return TRUE;
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
               _("There is no resource %u (the model has %u)"), res_index,
               mshed_nres_get_n_entries (doc_nres (self)));
  return FALSE;
}

/* The typed table the model reads from entry @res_index, or MSHED_TABLE_NONE. */
static MshedTableId
entry_table (MshedDocument *self,
             guint          res_index,
             guint32        type)
{
  const MshedTableInfo *info = mshed_schema_table_for_type (type);

  if (info == NULL || info->stride == 0 ||
      mshed_model_find_resource (self->model, type) != (gint) res_index)
    return MSHED_TABLE_NONE;
  if (type == 1 && !mshed_model_has_node_records (self->model))
    return MSHED_TABLE_NONE;
  return info->id;
}

gboolean
mshed_document_replace_bytes (MshedDocument *self,
                              guint          res_index,
                              gsize          offset,
                              gsize          old_length,
                              GBytes        *bytes,
                              GError       **error)
{
  const MshedNresEntry *e;
  gsize size, len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autofree guint8 *before = NULL;
  g_autofree char *label = NULL;
  MshedTableId table;
  guint header = 0, stride = 0;

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (!check_res_index (self, res_index, error))
    return FALSE;
  e = mshed_nres_peek_entry (doc_nres (self), res_index);
  size = mshed_nres_entry_get_size (e);
  if (!mshed_range_ok (offset, old_length, size))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Resource %u (Res%u): bytes %zu..+%zu lie outside its %zu bytes"),
                   res_index, e->type_id, offset, old_length, size);
      return FALSE;
    }
  if (len != old_length && (_mshed_is_fixed_stride_type (e->type_id, NULL, NULL) ||
                            e->type_id == 10))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Resource %u (Res%u) holds fixed-size records: replacing %zu bytes with %zu "
                     "would change its length. Use the row commands (or a rename for Res10) "
                     "instead."),
                   res_index, e->type_id, old_length, len);
      return FALSE;
    }
  if (len == old_length &&
      (len == 0 || memcmp (mshed_nres_entry_get_data (e, NULL) + offset, data, len) == 0))
    return TRUE;

  table = entry_table (self, res_index, e->type_id);
  _mshed_is_fixed_stride_type (e->type_id, &header, &stride);
  if (table != MSHED_TABLE_NONE)
    before = g_memdup2 (mshed_nres_entry_get_data (e, NULL), size);

  label = g_strdup_printf (_("Edit bytes of resource %u (Res%u)"), res_index, e->type_id);
  _mshed_document_op_begin (self, label, len == old_length ? merge_key (res_index, offset) : 0);
  _mshed_document_splice (self, res_index, offset, old_length, data, len);
  if (table != MSHED_TABLE_NONE)
    {
      const guint8 *now = mshed_nres_entry_get_data (mshed_nres_peek_entry (doc_nres (self),
                                                                            res_index), NULL);

      if (e->type_id == 2 && offset < header)
        _mshed_document_mark_record (self, MSHED_TABLE_HEADER, 0, before, now);
      if (offset + old_length > header)
        {
          gsize first = (MAX (offset, header) - header) / stride;
          gsize last = (offset + old_length - 1 - header) / stride;

          for (gsize r = first; r <= last; r++)
            _mshed_document_mark_record (self, table, (guint) r, before + header + r * stride,
                                         now + header + r * stride);
        }
    }
  _mshed_document_op_end (self);
  return TRUE;
}

gboolean
mshed_document_set_resource_payload (MshedDocument *self,
                                     guint          res_index,
                                     GBytes        *payload,
                                     GError       **error)
{
  const MshedNresEntry *e;
  gsize len = 0, old_size;
  const guint8 *data = g_bytes_get_data (payload, &len);
  guint header = 0, stride = 0;
  g_autofree char *label = NULL;
  MshedEntryHeader h;
  guint32 type;

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (!check_res_index (self, res_index, error))
    return FALSE;
  e = mshed_nres_peek_entry (doc_nres (self), res_index);
  type = e->type_id;
  old_size = mshed_nres_entry_get_size (e);
  if (_mshed_is_fixed_stride_type (type, &header, &stride))
    {
      if (type == 1 && e->attr3 == 24)
        stride = 24;
      if (len < header || (len - header) % stride != 0)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Resource %u (Res%u): %zu bytes is not %u header "
                         "bytes plus whole %u-byte records"),
                       res_index, type, len, header, stride);
          return FALSE;
        }
    }
  label = g_strdup_printf (_("Replace the payload of resource %u (Res%u)"), res_index, type);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_replace_payload (self, res_index, data ? data : (const guint8 *) "", len);
  if (mshed_model_find_resource (self->model, type) == (gint) res_index)
    {
      if (mshed_compute_attributes (self->model, res_index, &h))
        _mshed_document_set_header (self, res_index, &h);
      if (type == 1 && old_size != len)
        {
          gint r10 = mshed_model_find_resource (self->model, 10);

          if (r10 >= 0 && mshed_compute_attributes (self->model, (guint) r10, &h))
            _mshed_document_set_header (self, (guint) r10, &h);
        }
      _mshed_document_mark_payload (self, type, old_size, len);
    }
  _mshed_document_op_end (self);
  return TRUE;
}

gint
mshed_document_add_resource (MshedDocument *self,
                             guint          position,
                             guint32        type_id,
                             const char    *name,
                             guint32        attr1,
                             guint32        attr2,
                             guint32        attr3,
                             GBytes        *payload,
                             GError       **error)
{
  MshedEntryHeader h = { 0 };
  g_autoptr(GBytes) empty = NULL;
  g_autofree char *label = NULL;
  g_autofree guint *map = NULL;
  guint n;
  gsize len = name ? strlen (name) : 0;

  if (!_mshed_document_need_model (self, error))
    return -1;
  n = mshed_nres_get_n_entries (doc_nres (self));

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), -1);
  if (len > MSHED_NRES_NAME_SIZE - 1)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("New resource, field name: “%s” is %zu bytes long; at "
                     "most 35 fit"), name, len);
      return -1;
    }
  if (payload == NULL)
    payload = empty = g_bytes_new (NULL, 0);
  if (position > n)
    position = n;
  h.type_id = type_id;
  h.attr1 = attr1;
  h.attr2 = attr2;
  h.attr3 = attr3;
  if (len)
    memcpy (h.name, name, len);

  map = g_new (guint, n + 1);
  for (guint i = 0; i < n; i++)
    map[i] = i < position ? i : i + 1;
  label = g_strdup_printf (_("Add resource Res%u"), type_id);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_remap_stale (self, MSHED_TABLE_DIRECTORY, map, n);
  _mshed_document_insert_entry (self, position, &h, payload);
  _mshed_document_op_end (self);
  return (gint) position;
}

gboolean
mshed_document_remove_resource (MshedDocument *self,
                                guint          res_index,
                                GError       **error)
{
  g_autofree char *label = NULL;
  g_autofree guint *map = NULL;
  guint n;

  if (!_mshed_document_need_model (self, error))
    return FALSE;
  n = mshed_nres_get_n_entries (doc_nres (self));

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (!check_res_index (self, res_index, error))
    return FALSE;
  map = g_new (guint, n + 1);
  for (guint i = 0; i < n; i++)
    map[i] = i < res_index ? i : (i == res_index ? G_MAXUINT : i - 1);
  label = g_strdup_printf (_("Remove resource %u (Res%u)"), res_index,
                           mshed_nres_peek_entry (doc_nres (self), res_index)->type_id);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_remap_stale (self, MSHED_TABLE_DIRECTORY, map, n);
  _mshed_document_remove_entry (self, res_index);
  _mshed_document_op_end (self);
  return TRUE;
}

/* Recompute ------------------------------------------------------------------------------- */

static int
cmp_uint (const void *a,
          const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static gboolean
row_wanted (const guint *rows,
            guint        n_rows,
            guint        row)
{
  return rows == NULL || mshed_sorted_rows_contain (rows, n_rows, row);
}

static void
recompute_slot_bounds (MshedDocument *self,
                       MshedDerived   what,
                       const guint   *rows,
                       guint          n_rows)
{
  gint res = mshed_model_find_resource (self->model, 2);
  guint n = mshed_model_get_n_rows (self->model, MSHED_TABLE_SLOTS);
  guint8 bounds[40];

  if (res < 0)
    return;
  for (guint s = 0; s < n; s++)
    {
      gsize base = MSHED_RES2_HEADER_SIZE + (gsize) s * 68;

      if (!row_wanted (rows, n_rows, s))
        continue;
      /* a slot that draws no vertex has nothing to compute its bounds from: kept */
      if (!mshed_compute_slot_bounds (self->model, s, bounds))
        continue;
      if (what & MSHED_DERIVED_SLOT_BOX)
        _mshed_document_splice (self, (guint) res, base + 8, 24, bounds, 24);
      if (what & MSHED_DERIVED_SLOT_SPHERE)
        _mshed_document_splice (self, (guint) res, base + 32, 16, bounds + 24, 16);
    }
  _mshed_document_unmark (self, what & MSHED_DERIVED_SLOT_BOUNDS, -1, rows, n_rows);
}

static void
recompute_header (MshedDocument *self)
{
  gint res = mshed_model_find_resource (self->model, 2);
  guint8 header[140];

  if (res < 0 || mshed_model_get_record (self->model, MSHED_TABLE_HEADER, 0) == NULL)
    return;
  mshed_compute_header (self->model, header);
  _mshed_document_splice (self, (guint) res, 0, 140, header, 140);
  _mshed_document_unmark (self, MSHED_DERIVED_HEADER_BOUNDS, -1, NULL, 0);
}

static void
recompute_descriptors (MshedDocument *self,
                       MshedDerived   what,
                       const guint   *rows,
                       guint          n_rows)
{
  gint res = mshed_model_find_resource (self->model, 7);
  guint n = mshed_model_get_n_rows (self->model, MSHED_TABLE_TRIS);
  g_autofree guint *all = NULL;
  g_autofree guint8 *recs = NULL;
  g_autofree gboolean *mapped = NULL;
  g_autoptr(GArray) done = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) partners = NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint i = 0;

  if (res < 0)
    return;
  if (rows == NULL)
    {
      all = g_new (guint, n + 1);
      for (guint r = 0; r < n; r++)
        all[r] = r;
      rows = all;
      n_rows = n;
    }
  recs = g_malloc ((gsize) n_rows * 16 + 1);
  mapped = g_new0 (gboolean, n_rows + 1);
  partners = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  mshed_compute_descriptors (self->model, rows, n_rows, what, TRUE, recs, mapped, partners);

  /* write runs of consecutive changed rows, so the undo delta stays small */
  while (i < n_rows)
    {
      guint j = i;

      if (!mapped[i] || rows[i] >= n ||
          memcmp (mshed_model_get_record (self->model, MSHED_TABLE_TRIS, rows[i]),
                  recs + 16 * (gsize) i, 16) == 0)
        {
          if (mapped[i])
            g_array_append_val (done, rows[i]);
          i++;
          continue;
        }
      while (j + 1 < n_rows && mapped[j + 1] && rows[j + 1] == rows[j] + 1 && rows[j + 1] < n)
        j++;
      /* the model changes under each splice: copy the run first */
      {
        g_autofree guint8 *run = g_memdup2 (recs + 16 * (gsize) i, 16 * (gsize) (j - i + 1));

        _mshed_document_splice (self, (guint) res, (gsize) rows[i] * 16,
                                16 * (gsize) (j - i + 1), run, 16 * (gsize) (j - i + 1));
      }
      for (; i <= j; i++)
        g_array_append_val (done, rows[i]);
    }
  /* the partners of changed links, outside @rows: only their link words change */
  g_hash_table_iter_init (&iter, partners);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint d = GPOINTER_TO_UINT (key) - 1;

      _mshed_document_splice (self, (guint) res, (gsize) d * 16 + 2, 6, (guint8 *) value + 2, 6);
    }
  if (all != NULL)
    _mshed_document_unmark (self, what, -1, NULL, 0);
  else if (done->len > 0)
    _mshed_document_unmark (self, what, -1, (const guint *) (gpointer) done->data, done->len);
}

static void
recompute_vertex_normals (MshedDocument *self,
                          const guint   *rows,
                          guint          n_rows)
{
  gint res = mshed_model_find_resource (self->model, 4);
  g_autoptr(GBytes) computed = mshed_compute_vertex_normals (self->model, TRUE);
  g_autofree guint8 *out = NULL;
  gsize size = 0;
  const guint8 *cur;

  if (res < 0 || computed == NULL)
    return;
  cur = mshed_nres_entry_get_data (mshed_nres_peek_entry (doc_nres (self), (guint) res), &size);
  out = g_memdup2 (cur, size);
  for (gsize v = 0; v < size / 4; v++)
    if (row_wanted (rows, n_rows, (guint) v))
      memcpy (out + 4 * v, (const guint8 *) g_bytes_get_data (computed, NULL) + 4 * v, 3);
  _mshed_document_replace_payload (self, (guint) res, out, size);
  _mshed_document_unmark (self, MSHED_DERIVED_VERTEX_NORMALS, -1, rows, n_rows);
}

static void
recompute_attributes (MshedDocument *self,
                      const guint   *rows,
                      guint          n_rows)
{
  guint n = mshed_nres_get_n_entries (doc_nres (self));

  for (guint i = 0; i < n; i++)
    {
      MshedEntryHeader h;

      if (row_wanted (rows, n_rows, i) && mshed_compute_attributes (self->model, i, &h))
        _mshed_document_set_header (self, i, &h);
    }
  _mshed_document_unmark (self, MSHED_DERIVED_ATTRIBUTES, -1, rows, n_rows);
}

static gboolean
recompute_animation_map (MshedDocument *self,
                         GError       **error)
{
  g_autoptr(GBytes) res19 = NULL;
  g_autofree guint16 *hdr2 = NULL;
  guint32 frames;
  gint r19 = mshed_model_find_resource (self->model, 19);
  gint r1 = mshed_model_find_resource (self->model, 1);
  guint n_nodes = mshed_model_get_n_rows (self->model, MSHED_TABLE_NODES);
  MshedEntryHeader h;
  g_autofree guint8 *nodes = NULL;
  gsize size = 0;

  if (r19 < 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("The model has no frame map (Res19) to recompute"));
      return FALSE;
    }
  if (!mshed_compute_animation_map (self->model, &res19, &frames, &hdr2, error))
    return FALSE;
  {
    const guint8 *cur = mshed_nres_entry_get_data (mshed_nres_peek_entry (doc_nres (self),
                                                                          (guint) r1), &size);

    nodes = g_memdup2 (cur, size);
  }
  for (guint n = 0; n < n_nodes; n++)
    mshed_write_u16 (nodes + (gsize) n * 38 + 4, hdr2[n]);
  _mshed_document_replace_payload (self, (guint) r1, nodes, size);
  _mshed_document_replace_payload (self, (guint) r19, g_bytes_get_data (res19, NULL),
                                   g_bytes_get_size (res19));
  mshed_entry_header_get (mshed_nres_peek_entry (doc_nres (self), (guint) r19), &h);
  h.attr1 = (guint32) (g_bytes_get_size (res19) / 2);
  h.attr2 = frames;
  h.attr3 = 2;
  _mshed_document_set_header (self, (guint) r19, &h);
  _mshed_document_unmark (self, MSHED_DERIVED_ANIMATION_MAP, -1, NULL, 0);
  return TRUE;
}

/* Recomputes @what (flags) inside an open operation; rows sorted or NULL. */
static gboolean
recompute_in_op (MshedDocument *self,
                 MshedDerived   what,
                 const guint   *rows,
                 guint          n_rows,
                 GError       **error)
{
  gboolean ok = TRUE;

  if (self->utf != NULL)
    return _mshed_document_dfm_recompute (self, what, rows, n_rows, error);
  /* the only step that can fail goes first, so a failure changes nothing */
  if (what & MSHED_DERIVED_ANIMATION_MAP)
    ok = recompute_animation_map (self, error);
  if (ok && (what & MSHED_DERIVED_ATTRIBUTES))
    recompute_attributes (self, rows, n_rows);
  if (ok && (what & MSHED_DERIVED_SLOT_BOUNDS))
    recompute_slot_bounds (self, what & MSHED_DERIVED_SLOT_BOUNDS, rows, n_rows);
  if (ok && (what & MSHED_DERIVED_HEADER_BOUNDS))
    recompute_header (self);
  if (ok && (what & (MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS)))
    recompute_descriptors (self, what & (MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS),
                           rows, n_rows);
  if (ok && (what & MSHED_DERIVED_VERTEX_NORMALS))
    recompute_vertex_normals (self, rows, n_rows);
  return ok;
}

gboolean
mshed_document_recompute (MshedDocument *self,
                          MshedDerived   what,
                          const guint   *rows,
                          guint          n_rows,
                          GError       **error)
{
  g_autofree guint *sorted = NULL;
  const char *label;
  gboolean ok;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if ((what & MSHED_DERIVED_RECOMPUTABLE) == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Nothing to recompute: ranges and extra streams cannot be derived; "
                     "review them and keep them"));
      return FALSE;
    }
  if (rows != NULL)
    {
      sorted = g_memdup2 (rows, sizeof (guint) * n_rows);
      qsort (sorted, n_rows, sizeof (guint), cmp_uint);
    }

  if (mshed_derived_get_index (what & MSHED_DERIVED_RECOMPUTABLE) >= 0)
    label = mshed_derived_get_label (what & MSHED_DERIVED_RECOMPUTABLE);
  else
    label = _("derived data");
  {
    g_autofree char *full = g_strdup_printf (_("Recompute: %s"), label);

    _mshed_document_op_begin (self, full, 0);
  }
  ok = recompute_in_op (self, what, sorted, n_rows, error);
  _mshed_document_op_end (self);
  return ok;
}

gboolean
mshed_document_recompute_stale_all (MshedDocument *self,
                                    MshedDerived   allowed,
                                    GError       **error)
{
  g_autoptr(GPtrArray) stale = NULL;
  g_autoptr(GError) first_error = NULL;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  stale = mshed_document_list_stale (self);
  _mshed_document_op_begin (self, _("Recompute stale data"), 0);
  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    {
      MshedDerived target = 1u << t;
      g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint));
      gboolean any = FALSE, whole = FALSE;
      g_autoptr(GError) local = NULL;

      if (!(allowed & target) || !mshed_derived_is_recomputable (target))
        continue;
      for (guint i = 0; i < stale->len; i++)
        {
          const MshedStale *st = g_ptr_array_index (stale, i);

          if (st->target != target)
            continue;
          any = TRUE;
          if (st->n_rows == 0)
            whole = TRUE;
          else
            g_array_append_vals (rows, st->rows, st->n_rows);
        }
      if (!any)
        continue;
      if (!whole)
        g_array_sort (rows, cmp_uint);
      if (!recompute_in_op (self, target, whole ? NULL : (const guint *) (gpointer) rows->data,
                            whole ? 0 : rows->len, &local) && first_error == NULL)
        first_error = g_steal_pointer (&local);
    }
  _mshed_document_op_end (self);
  if (first_error)
    {
      g_propagate_error (error, g_steal_pointer (&first_error));
      return FALSE;
    }
  return TRUE;
}
