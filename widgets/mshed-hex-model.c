/* mshed-hex-model.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-hex-model"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-hex-model-private.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-table-model.h"

G_DEFINE_FINAL_TYPE (MshedHexModel, mshed_hex_model, G_TYPE_OBJECT)

/* Types with a known fixed record layout (docs/msh.md §2); every other type is a variable-size
 * raw resource whose length may change. */
static gboolean
type_is_fixed (guint32 type)
{
  switch (type)
    {
    case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8:
    case 10: case 13: case 15: case 16: case 18: case 19:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
drop_file_cache (MshedHexModel *self)
{
  g_clear_pointer (&self->file_bytes, g_bytes_unref);
  g_array_set_size (self->segments, 0);
  self->dir_offset = 0;
  self->n_entries = 0;
  self->file_valid = FALSE;
}

static void
mshed_hex_model_finalize (GObject *object)
{
  MshedHexModel *self = (MshedHexModel *) object;

  drop_file_cache (self);
  g_clear_pointer (&self->segments, g_array_unref);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (mshed_hex_model_parent_class)->finalize (object);
}

static void
mshed_hex_model_class_init (MshedHexModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_hex_model_finalize;
}

static void
mshed_hex_model_init (MshedHexModel *self)
{
  self->res_index = MSHED_HEX_SOURCE_FILE;
  self->win_length = G_MAXSIZE;
  self->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
}

MshedHexModel *
mshed_hex_model_new (void)
{
  return g_object_new (MSHED_TYPE_HEX_MODEL, NULL);
}

static MshedModel *
get_model (MshedHexModel *self)
{
  return self->document ? mshed_document_get_model (self->document) : NULL;
}

static MshedNres *
get_nres (MshedHexModel *self)
{
  MshedModel *model = get_model (self);

  return model ? mshed_model_get_nres (model) : NULL;
}

static const guint8 *
payload_data (MshedHexModel *self,
              gint           res_index,
              gsize         *size)
{
  MshedNres *nres = get_nres (self);
  const MshedNresEntry *e;
  const guint8 *data;

  *size = 0;
  if (res_index == MSHED_HEX_SOURCE_UTF)
    return _mshed_hex_model_utf_data (self, size);
  if (nres == NULL || res_index < 0 || (guint) res_index >= mshed_nres_get_n_entries (nres))
    return NULL;
  e = mshed_nres_peek_entry (nres, (guint) res_index);
  data = mshed_nres_entry_get_data (e, size);
  return data;
}

static guint32
payload_type (MshedHexModel *self,
              gint           res_index)
{
  MshedNres *nres = get_nres (self);

  if (nres == NULL || res_index < 0 || (guint) res_index >= mshed_nres_get_n_entries (nres))
    return 0;
  return mshed_nres_peek_entry (nres, (guint) res_index)->type_id;
}

static int
compare_segments (gconstpointer a,
                  gconstpointer b)
{
  const Segment *sa = a, *sb = b;

  return sa->start < sb->start ? -1 : sa->start > sb->start ? 1 : 0;
}

/* Serializes the model and walks the directory of the result (bounds-checked: the bytes come
 * from our own writer, but a tolerant document may hold a broken container). */
static void
ensure_file (MshedHexModel *self)
{
  const guint8 *data;
  gsize size = 0;
  guint32 n, total;

  if (self->file_valid || self->document == NULL)
    return;

  drop_file_cache (self);
  self->file_valid = TRUE;
  self->file_bytes = mshed_document_serialize (self->document);
  if (self->file_bytes == NULL)
    self->file_bytes = g_bytes_new (NULL, 0);
  data = g_bytes_get_data (self->file_bytes, &size);
  /* a UTF file has no NRes directory: its files are shown one at a time */
  if (size < MSHED_NRES_HEADER_SIZE || get_nres (self) == NULL)
    return;
  n = mshed_read_u32 (data + 8);
  total = mshed_read_u32 (data + 12);
  if ((guint64) n * MSHED_NRES_RECORD_SIZE > total || total > size ||
      total - (guint64) n * MSHED_NRES_RECORD_SIZE < MSHED_NRES_HEADER_SIZE)
    return;
  self->n_entries = n;
  self->dir_offset = total - (guint64) n * MSHED_NRES_RECORD_SIZE;
  for (guint i = 0; i < n; i++)
    {
      const guint8 *rec = data + self->dir_offset + (guint64) i * MSHED_NRES_RECORD_SIZE;
      guint32 psize = mshed_read_u32 (rec + 12);
      guint32 poff = mshed_read_u32 (rec + 56);
      Segment seg;

      if (!mshed_range_ok (poff, psize, size) || psize == 0)
        continue;
      seg.start = poff;
      seg.end = (gsize) poff + psize;
      seg.res_index = (gint) i;
      g_array_append_val (self->segments, seg);
    }
  g_array_sort (self->segments, compare_segments);
}

static const Segment *
find_segment (MshedHexModel *self,
              gsize          offset)
{
  guint lo = 0, hi;

  ensure_file (self);
  hi = self->segments->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const Segment *s = &g_array_index (self->segments, Segment, mid);

      if (offset < s->start)
        hi = mid;
      else if (offset >= s->end)
        lo = mid + 1;
      else
        return s;
    }
  /* overlapping payloads (hostile input): fall back to a linear scan */
  for (guint i = 0; i < self->segments->len; i++)
    {
      const Segment *s = &g_array_index (self->segments, Segment, i);

      if (offset >= s->start && offset < s->end)
        return s;
    }
  return NULL;
}

void
mshed_hex_model_set_document (MshedHexModel *self,
                              MshedDocument *document)
{
  g_return_if_fail (MSHED_IS_HEX_MODEL (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  drop_file_cache (self);
  g_set_object (&self->document, document);
  self->utf_node = NULL;
  self->res_index = MSHED_HEX_SOURCE_FILE;
  self->res_type = 0;
  self->win_start = 0;
  self->win_length = G_MAXSIZE;
}

MshedDocument *
mshed_hex_model_get_document (MshedHexModel *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), NULL);
  return self->document;
}

gsize
mshed_hex_model_get_size (MshedHexModel *self)
{
  gsize size = 0;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), 0);

  if (self->document == NULL)
    return 0;
  if (self->res_index == MSHED_HEX_SOURCE_FILE)
    {
      ensure_file (self);
      return g_bytes_get_size (self->file_bytes);
    }
  payload_data (self, self->res_index, &size);
  return size;
}

gboolean
mshed_hex_model_set_source (MshedHexModel *self,
                            gint           res_index,
                            gsize          start,
                            gsize          length)
{
  MshedNres *nres;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);

  nres = get_nres (self);
  if (res_index != MSHED_HEX_SOURCE_FILE &&
      (nres == NULL || res_index < 0 || (guint) res_index >= mshed_nres_get_n_entries (nres)))
    return FALSE;
  self->utf_node = NULL;
  self->res_index = res_index;
  self->res_type = payload_type (self, res_index);
  self->win_start = start;
  self->win_length = length;
  return TRUE;
}

gint
mshed_hex_model_get_res_index (MshedHexModel *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), MSHED_HEX_SOURCE_FILE);
  return self->res_index;
}

gboolean
mshed_hex_model_is_whole (MshedHexModel *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), TRUE);
  return self->win_start == 0 && self->win_length == G_MAXSIZE;
}

void
mshed_hex_model_get_window (MshedHexModel *self,
                            gsize         *start,
                            gsize         *end)
{
  gsize size, s, e;

  g_return_if_fail (MSHED_IS_HEX_MODEL (self));

  size = mshed_hex_model_get_size (self);
  s = MIN (self->win_start, size);
  e = self->win_length == G_MAXSIZE || self->win_length > size - s ? size : s + self->win_length;
  if (start)
    *start = s;
  if (end)
    *end = e;
}

gboolean
mshed_hex_model_invalidate (MshedHexModel *self)
{
  MshedNres *nres;
  gint found;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);

  drop_file_cache (self);
  if (self->res_index == MSHED_HEX_SOURCE_FILE)
    return TRUE;
  if (self->res_index == MSHED_HEX_SOURCE_UTF && _mshed_hex_model_utf_alive (self))
    return TRUE;
  self->utf_node = NULL;
  nres = get_nres (self);
  if (nres != NULL && self->res_index >= 0 &&
      (guint) self->res_index < mshed_nres_get_n_entries (nres) &&
      payload_type (self, self->res_index) == self->res_type)
    return TRUE;
  /* an entry was inserted or removed before ours, or ours was removed or retyped */
  found = nres ? mshed_nres_find_type (nres, self->res_type) : -1;
  if (found >= 0)
    {
      self->res_index = found;
      return TRUE;
    }
  self->res_index = MSHED_HEX_SOURCE_FILE;
  self->res_type = 0;
  self->win_start = 0;
  self->win_length = G_MAXSIZE;
  return FALSE;
}

gboolean
mshed_hex_model_affected_by (MshedHexModel     *self,
                             const MshedChange *change)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), TRUE);

  if (change == NULL ||
      (change->flags & (MSHED_CHANGE_FLAG_ALL | MSHED_CHANGE_FLAG_LAYOUT |
                        MSHED_CHANGE_FLAG_DIRECTORY)) ||
      change->origin == MSHED_CHANGE_ORIGIN_RELOAD)
    return TRUE;
  if (self->res_index == MSHED_HEX_SOURCE_FILE)
    return TRUE;
  if (self->res_index == MSHED_HEX_SOURCE_UTF)
    return change->node == NULL || change->node == self->utf_node;
  return change->res_index == self->res_index || change->res_index < 0;
}

const guint8 *
mshed_hex_model_peek (MshedHexModel *self,
                      gsize          offset,
                      gsize         *available)
{
  const guint8 *data;
  gsize size = 0;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), NULL);

  if (available)
    *available = 0;
  if (self->document == NULL)
    return NULL;
  if (self->res_index == MSHED_HEX_SOURCE_FILE)
    {
      ensure_file (self);
      data = g_bytes_get_data (self->file_bytes, &size);
    }
  else
    data = payload_data (self, self->res_index, &size);
  if (data == NULL || offset >= size)
    return NULL;
  if (available)
    *available = size - offset;
  return data + offset;
}

gsize
mshed_hex_model_read (MshedHexModel *self,
                      gsize          offset,
                      guint8        *buffer,
                      gsize          n)
{
  gsize avail = 0;
  const guint8 *p = mshed_hex_model_peek (self, offset, &avail);

  if (p == NULL)
    return 0;
  n = MIN (n, avail);
  memcpy (buffer, p, n);
  return n;
}

/* Overlays ---------------------------------------------------------------------------- */

static void
overlay_clear (MshedHexOverlay *out,
               gsize            offset)
{
  memset (out, 0, sizeof *out);
  out->kind = MSHED_HEX_OVERLAY_NONE;
  out->res_index = -1;
  out->table = MSHED_TABLE_NONE;
  out->record = -1;
  out->label = "padding";
  out->start = offset;
  out->length = 1;
}

/* The field of @info covering byte @r of a record, with its index (-1 when none). */
static const MshedField *
field_at (const MshedTableInfo *info,
          guint                 r,
          guint                *index)
{
  for (guint i = 0; i < info->n_fields; i++)
    {
      const MshedField *f = &info->fields[i];

      if (r >= f->offset && r < f->offset + mshed_field_type_size (f->type))
        {
          *index = i;
          return f;
        }
    }
  return NULL;
}

static void
overlay_record (const MshedTableInfo *info,
                guint                 stride,
                gsize                 base,     /* payload offset of record 0 */
                gsize                 size,     /* payload size */
                gsize                 o,
                MshedHexOverlay      *out)
{
  gsize n_whole = size > base ? (size - base) / stride : 0;
  gsize rec = (o - base) / stride;
  guint r = (guint) ((o - base) % stride);
  const MshedField *f;
  guint index = 0;

  out->table = info->id;
  if (rec >= n_whole)
    {
      out->kind = MSHED_HEX_OVERLAY_UNKNOWN;
      out->label = "trailing";
      out->start = base + n_whole * stride;
      out->length = size - out->start;
      return;
    }
  out->record = (gint64) rec;
  f = field_at (info, r, &index);
  if (f == NULL)
    {
      out->kind = MSHED_HEX_OVERLAY_UNKNOWN;
      out->label = "gap";
      out->start = o;
      out->length = 1;
      return;
    }
  out->field = f;
  out->label = f->name;
  out->kind = (f->flags & MSHED_FIELD_FLAG_UNKNOWN) ? MSHED_HEX_OVERLAY_UNKNOWN
                                                    : MSHED_HEX_OVERLAY_KNOWN;
  out->start = base + rec * stride + f->offset;
  out->length = mshed_field_type_size (f->type);
  out->color = index;
}

static void
overlay_names (MshedHexModel   *self,
               const guint8    *data,
               gsize            size,
               gsize            o,
               MshedHexOverlay *out)
{
  MshedModel *model = get_model (self);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NAMES);
  guint lo = 0, hi = n;
  guint32 rec_off, len;
  guint64 text_end;

  out->table = MSHED_TABLE_NAMES;
  /* the last record starting at or before o */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (mshed_model_get_name_record_offset (model, mid) <= o)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    goto unknown;
  rec_off = mshed_model_get_name_record_offset (model, lo - 1);
  if (!mshed_range_ok (rec_off, 4, size))
    goto unknown;
  len = mshed_read_u32 (data + rec_off);
  out->record = lo - 1;
  out->kind = MSHED_HEX_OVERLAY_KNOWN;
  if (o < (gsize) rec_off + 4)
    {
      out->label = "len";
      out->start = rec_off;
      out->length = 4;
      out->color = 0;
      return;
    }
  text_end = (guint64) rec_off + 4 + (len ? (guint64) len + 1 : 0);
  if (o < text_end && text_end <= size)
    {
      out->label = "text";
      out->start = (gsize) rec_off + 4;
      out->length = (gsize) (text_end - out->start);
      out->color = 1;
      return;
    }
  out->record = -1;

unknown:
  out->kind = MSHED_HEX_OVERLAY_UNKNOWN;
  out->label = "trailing";
  out->start = o;
  out->length = 1;
}

/* Overlay of payload offset @o of resource @res_index, in payload offsets. */
static void
overlay_payload (MshedHexModel   *self,
                 gint             res_index,
                 gsize            o,
                 MshedHexOverlay *out)
{
  MshedModel *model = get_model (self);
  gsize size = 0;
  const guint8 *data = payload_data (self, res_index, &size);
  guint32 type = payload_type (self, res_index);
  gboolean typed;
  const MshedTableInfo *info;

  overlay_clear (out, o);
  out->res_index = res_index;
  out->res_type = type;
  if (res_index == MSHED_HEX_SOURCE_UTF)
    {
      _mshed_hex_model_utf_overlay (self, o, out);
      return;
    }
  typed = type_is_fixed (type) && mshed_model_find_resource (model, type) == res_index;

  if (typed && type == 1)
    {
      guint stride = mshed_model_get_node_stride (model);

      if (stride == 38)
        overlay_record (mshed_schema_get_table (MSHED_TABLE_NODES), 38, 0, size, o, out);
      else if (stride > 0)
        {
          /* legacy 24-byte records: layout unknown (docs/msh.md §4.1) */
          out->kind = MSHED_HEX_OVERLAY_UNKNOWN;
          out->table = MSHED_TABLE_NODES;
          out->label = "legacy";
          out->record = (gint64) (o / stride);
          out->start = (o / stride) * stride;
          out->length = MIN ((gsize) stride, size - out->start);
        }
      else
        goto opaque;
      return;
    }
  if (typed && type == 2)
    {
      if (o < MSHED_RES2_HEADER_SIZE)
        overlay_record (mshed_schema_get_table (MSHED_TABLE_HEADER), MSHED_RES2_HEADER_SIZE,
                        0, MIN (size, (gsize) MSHED_RES2_HEADER_SIZE), o, out);
      else
        overlay_record (mshed_schema_get_table (MSHED_TABLE_SLOTS), 68,
                        MSHED_RES2_HEADER_SIZE, size, o, out);
      return;
    }
  if (typed && type == 10)
    {
      overlay_names (self, data, size, o, out);
      return;
    }
  if (typed && (info = mshed_schema_table_for_type (type)) != NULL && info->stride > 0)
    {
      overlay_record (info, info->stride, info->header_size, size, o, out);
      return;
    }

opaque:
  out->kind = MSHED_HEX_OVERLAY_UNKNOWN;
  out->table = MSHED_TABLE_NONE;
  out->label = "opaque";
  out->start = 0;
  out->length = size;
}

static void
overlay_file (MshedHexModel   *self,
              gsize            o,
              MshedHexOverlay *out)
{
  static const char *header_labels[] = { "magic", "version", "count", "size" };
  const Segment *seg;
  gsize dir_end;

  overlay_clear (out, o);
  ensure_file (self);

  if (get_nres (self) == NULL)
    {
      /* a UTF file: its fields show with the file selected in the tree */
      out->kind = MSHED_HEX_OVERLAY_CONTAINER;
      out->label = "utf";
      out->start = 0;
      out->length = mshed_hex_model_get_size (self);
      return;
    }
  if (o < MSHED_NRES_HEADER_SIZE)
    {
      out->kind = MSHED_HEX_OVERLAY_CONTAINER;
      out->label = header_labels[o / 4];
      out->start = o & ~(gsize) 3;
      out->length = 4;
      out->color = (guint) (o / 4);
      return;
    }
  dir_end = self->dir_offset + (gsize) self->n_entries * MSHED_NRES_RECORD_SIZE;
  if (self->n_entries > 0 && o >= self->dir_offset && o < dir_end)
    {
      const MshedTableInfo *info = mshed_schema_get_table (MSHED_TABLE_DIRECTORY);
      gsize rec = (o - self->dir_offset) / MSHED_NRES_RECORD_SIZE;
      guint r = (guint) ((o - self->dir_offset) % MSHED_NRES_RECORD_SIZE);
      gsize base = self->dir_offset + rec * MSHED_NRES_RECORD_SIZE;
      const MshedField *f;
      guint index = 0;

      out->kind = MSHED_HEX_OVERLAY_CONTAINER;
      out->table = MSHED_TABLE_DIRECTORY;
      out->record = (gint64) rec;
      out->res_index = (gint) rec;
      if (r >= 20 && r < 20 + MSHED_NRES_NAME_SIZE)
        {
          out->label = "name";
          out->start = base + 20;
          out->length = MSHED_NRES_NAME_SIZE;
          out->color = 5;
          return;
        }
      f = field_at (info, r, &index);
      if (f != NULL)
        {
          out->field = f;
          out->label = f->name;
          out->start = base + f->offset;
          out->length = mshed_field_type_size (f->type);
          out->color = index < 5 ? index : index + 1;
        }
      return;
    }
  seg = find_segment (self, o);
  if (seg != NULL)
    {
      overlay_payload (self, seg->res_index, o - seg->start, out);
      out->start += seg->start;
      if (out->start + out->length > seg->end)
        out->length = seg->end - out->start;
    }
}

gboolean
mshed_hex_model_get_overlay (MshedHexModel   *self,
                             gsize            offset,
                             MshedHexOverlay *out)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  overlay_clear (out, offset);
  if (self->document == NULL || offset >= mshed_hex_model_get_size (self))
    return FALSE;
  if (self->res_index == MSHED_HEX_SOURCE_FILE)
    overlay_file (self, offset, out);
  else
    overlay_payload (self, self->res_index, offset, out);
  if (out->length == 0)
    out->length = 1;
  return TRUE;
}

static const char *
table_title (MshedTableId table)
{
  if (mshed_dfm_schema_get_table ((MshedDfmTable) table) != NULL)
    return _(mshed_dfm_schema_get_table ((MshedDfmTable) table)->title);
  if (table < 0 || table >= MSHED_N_TABLES)
    return NULL;
  return _(mshed_schema_get_table (table)->title);
}

char *
mshed_hex_overlay_describe (const MshedHexOverlay *ov)
{
  const char *title = table_title (ov->table);
  g_autofree char *gloss = NULL;

  g_return_val_if_fail (ov != NULL, NULL);

  if (ov->kind == MSHED_HEX_OVERLAY_CONTAINER && g_strcmp0 (ov->label, "utf") == 0)
    return g_strdup (_("UTF file: select a file in the tree to see its fields"));
  if (ov->kind == MSHED_HEX_OVERLAY_CONTAINER && ov->table == MSHED_TABLE_NONE)
    /* translators: %s is a field of the 16-byte container header, e.g. "magic" */
    return g_strdup_printf (_("NRes header · %s"), ov->label);
  if (ov->kind == MSHED_HEX_OVERLAY_NONE)
    return g_strdup (_("Padding between payloads"));
  if (ov->table == MSHED_TABLE_NONE)
    /* translators: an NRes resource whose layout is not known */
    return g_strdup_printf (_("Resource %d (type %u): opaque payload, meaning unknown"),
                            ov->res_index, ov->res_type);
  if (g_strcmp0 (ov->label, "legacy") == 0)
    return g_strdup_printf (_("%s · record %" PRId64 " · legacy 24-byte record, "
                              "layout unknown"), title, ov->record);
  if (ov->record < 0)
    return g_strdup_printf (_("%s · bytes after the last whole record (unknown)"), title);
  if (ov->kind == MSHED_HEX_OVERLAY_UNKNOWN)
    /* translators: table · record index · field name; the field's meaning is unknown */
    return g_strdup_printf (_("%s · record %" PRId64 " · %s (unknown)"),
                            title, ov->record, ov->label);
  gloss = mshed_table_field_gloss (ov->table, ov->label);
  if (gloss != NULL)
    /* translators: table · record index · field name (what it means, e.g. "L1 G2") */
    return g_strdup_printf (_("%s · record %" PRId64 " · %s (%s)"),
                            title, ov->record, ov->label, gloss);
  /* translators: table · record index · field name */
  return g_strdup_printf (_("%s · record %" PRId64 " · %s"),
                          title, ov->record, ov->label);
}

char *
mshed_hex_model_format_value (MshedHexModel         *self,
                              const MshedHexOverlay *ov)
{
  guint8 rec[256];
  gsize avail = 0;
  const guint8 *p;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), NULL);

  p = mshed_hex_model_peek (self, ov->start, &avail);
  if (p == NULL || avail < ov->length)
    return NULL;

  if (ov->field != NULL)
    {
      const MshedField *f = ov->field;
      guint fsize = mshed_field_type_size (f->type);
      g_autofree char *raw = NULL;
      double v;

      if (fsize > ov->length || f->offset + fsize > sizeof rec)
        return NULL;
      memset (rec, 0, sizeof rec);
      memcpy (rec + f->offset, p, fsize);
      raw = mshed_field_format (f, rec);
      v = mshed_field_read (f, rec);
      if (f->divisor > 0)
        {
          double d = v / f->divisor;

          if (f->divisor == 127.0)
            d = CLAMP (d, -1.0, 1.0);
          return g_strdup_printf ("%s (÷%g = %.6g)", raw, f->divisor, d);
        }
      if (g_strcmp0 (f->name, "selPacked") == 0)
        {
          guint16 sp = (guint16) v;
          char s[3][8];

          for (guint k = 0; k < 3; k++)
            {
              guint16 sel = mshed_selector (sp, k);

              if (sel == MSHED_NONE)
                g_strlcpy (s[k], "none", sizeof s[k]);
              else
                g_snprintf (s[k], sizeof s[k], "%u", sel);
            }
          /* translators: the three 2-bit selectors of a triangle descriptor, then the
           * unknown upper bits */
          return g_strdup_printf (_("%s (selectors %s, %s, %s; bits 6–15: 0x%03X)"),
                                  raw, s[0], s[1], s[2], (guint) (sp >> 6));
        }
      if (f->type == MSHED_FIELD_U32 && (f->flags & MSHED_FIELD_FLAG_UNKNOWN))
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          /* an unknown word might be a float: show both readings */
          return g_strdup_printf (_("%s (as f32: %s)"), raw,
                                  g_ascii_formatd (buf, sizeof buf, "%.7g", mshed_read_f32 (p)));
        }
      return g_steal_pointer (&raw);
    }
  if (g_strcmp0 (ov->label, "len") == 0 || ov->kind == MSHED_HEX_OVERLAY_CONTAINER)
    {
      if (g_strcmp0 (ov->label, "name") == 0)
        {
          gsize n = 0;

          while (n < ov->length && p[n] != 0)
            n++;
          return mshed_cp1251_to_utf8 (p, n, NULL);
        }
      if (ov->length == 4)
        return g_strdup_printf ("%u (0x%08X)", mshed_read_u32 (p), mshed_read_u32 (p));
      return NULL;
    }
  if (g_strcmp0 (ov->label, "text") == 0)
    {
      g_autofree char *text = mshed_cp1251_to_utf8 (p, ov->length > 0 ? ov->length - 1 : 0,
                                                    NULL);
      return g_strdup_printf ("“%s”", text);
    }
  return NULL;
}

/* Offsets ------------------------------------------------------------------------------ */

gboolean
mshed_hex_model_to_resource (MshedHexModel *self,
                             gsize          offset,
                             gint          *res_index,
                             gsize         *res_offset)
{
  const Segment *seg;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);

  *res_index = -1;
  *res_offset = offset;
  if (self->document == NULL)
    return FALSE;
  if (self->res_index != MSHED_HEX_SOURCE_FILE)
    {
      *res_index = self->res_index;
      return TRUE;
    }
  seg = find_segment (self, offset);
  if (seg == NULL)
    return FALSE;
  *res_index = seg->res_index;
  *res_offset = offset - seg->start;
  return TRUE;
}

gboolean
mshed_hex_model_file_to_resource (MshedHexModel *self,
                                  guint64        file_offset,
                                  gint          *res_index,
                                  gsize         *res_offset)
{
  const Segment *seg;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);

  *res_index = -1;
  *res_offset = (gsize) file_offset;
  if (self->document == NULL || file_offset > G_MAXSIZE)
    return FALSE;
  seg = find_segment (self, (gsize) file_offset);
  if (seg == NULL)
    return FALSE;
  *res_index = seg->res_index;
  *res_offset = (gsize) file_offset - seg->start;
  return TRUE;
}

gsize
mshed_hex_model_from_resource (MshedHexModel *self,
                               gint           res_index,
                               gsize          res_offset)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), G_MAXSIZE);

  if (self->res_index != MSHED_HEX_SOURCE_FILE)
    return res_index == self->res_index ? res_offset : G_MAXSIZE;
  ensure_file (self);
  for (guint i = 0; i < self->segments->len; i++)
    {
      const Segment *s = &g_array_index (self->segments, Segment, i);

      if (s->res_index == res_index && res_offset < s->end - s->start)
        return s->start + res_offset;
    }
  return G_MAXSIZE;
}

guint64
mshed_hex_model_get_base_offset (MshedHexModel *self)
{
  const MshedDiagnostics *diags;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), 0);

  if (self->document == NULL)
    return 0;
  /* a nested model's diagnostics count from the outer file, like mshed-cli validate */
  diags = mshed_document_get_diagnostics (self->document);
  return diags != NULL ? diags->base_offset : 0;
}

/* Where the source's byte 0 lies in the model file (the payload's data offset in the current
 * layout, which is where the writer puts it). */
static gboolean
source_start (MshedHexModel *self,
              guint64       *start)
{
  MshedNres *nres;

  *start = 0;
  if (self->res_index == MSHED_HEX_SOURCE_FILE)
    return TRUE;
  if (self->res_index == MSHED_HEX_SOURCE_UTF)
    return _mshed_hex_model_utf_start (self, start);
  nres = get_nres (self);
  if (nres == NULL || (guint) self->res_index >= mshed_nres_get_n_entries (nres))
    return FALSE;
  *start = mshed_nres_peek_entry (nres, (guint) self->res_index)->data_offset;
  return TRUE;
}

gsize
mshed_hex_model_get_file_size (MshedHexModel *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), 0);

  if (self->document == NULL)
    return 0;
  ensure_file (self);
  return g_bytes_get_size (self->file_bytes);
}

guint64
mshed_hex_model_to_file_offset (MshedHexModel *self,
                                gsize          offset)
{
  guint64 start;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), G_MAXUINT64);

  if (self->document == NULL || !source_start (self, &start))
    return G_MAXUINT64;
  return mshed_hex_model_get_base_offset (self) + start + offset;
}

gsize
mshed_hex_model_from_file_offset (MshedHexModel *self,
                                  guint64        file_offset)
{
  guint64 base, start;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), G_MAXSIZE);

  base = mshed_hex_model_get_base_offset (self);
  if (self->document == NULL || !source_start (self, &start) || file_offset < base + start ||
      file_offset - base - start >= mshed_hex_model_get_size (self))
    return G_MAXSIZE;
  return (gsize) (file_offset - base - start);
}

char *
mshed_hex_describe_file_offset (MshedDocument *document,
                                guint64        file_offset)
{
  const MshedDiagnostics *diags;
  MshedNres *nres;
  const char *entry;
  guint64 base;
  GString *s;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (document), NULL);

  diags = mshed_document_get_diagnostics (document);
  base = diags != NULL ? diags->base_offset : 0;
  nres = mshed_document_get_model (document) != NULL
           ? mshed_model_get_nres (mshed_document_get_model (document)) : NULL;
  s = g_string_new (NULL);
  /* translators: the offset of a byte in the file on disk, in hexadecimal and decimal */
  g_string_append_printf (s, _("File offset 0x%08" PRIX64 " (%" PRIu64 ")"), file_offset,
                          file_offset);
  for (guint i = 0; nres != NULL && file_offset >= base && i < mshed_nres_get_n_entries (nres); i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      guint64 start = base + e->data_offset;
      gsize res_off;

      if (file_offset < start || file_offset - start >= mshed_nres_entry_get_size (e))
        continue;
      res_off = (gsize) (file_offset - start);
      g_string_append_c (s, '\n');
      /* translators: the offset of a byte inside a resource payload (hexadecimal, decimal),
       * then the resource's NRes type and directory index */
      g_string_append_printf (s, _("0x%zX (%zu) inside Res%u (resource %u)"), res_off, res_off,
                              e->type_id, i);
      break;
    }
  entry = mshed_document_get_entry (document);
  if (entry != NULL && file_offset >= base)
    {
      g_string_append_c (s, '\n');
      /* translators: the offset of a byte inside a model nested in an archive (hexadecimal,
       * decimal), then the archive entry's name */
      g_string_append_printf (s, _("0x%" PRIX64 " (%" PRIu64 ") inside the model “%s”"),
                              file_offset - base, file_offset - base, entry);
    }
  return g_string_free (s, FALSE);
}

char *
mshed_hex_model_describe_offset (MshedHexModel *self,
                                 gsize          offset)
{
  guint64 file;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), NULL);

  file = mshed_hex_model_to_file_offset (self, offset);
  if (file == G_MAXUINT64)
    return NULL;
  return mshed_hex_describe_file_offset (self->document, file);
}

/* Edits -------------------------------------------------------------------------------- */

static char *
resource_label (MshedHexModel *self,
                gint           res_index)
{
  guint32 type = payload_type (self, res_index);
  const MshedTableInfo *info;

  if (res_index == MSHED_HEX_SOURCE_UTF)
    return _mshed_hex_model_utf_label (self);
  info = type_is_fixed (type) ? mshed_schema_table_for_type (type) : NULL;

  if (info != NULL)
    /* translators: e.g. "Res2 (Slots)" */
    return g_strdup_printf (_("Res%u (%s)"), type, _(info->title));
  return g_strdup_printf (_("Res%u"), type);
}

gboolean
mshed_hex_model_can_edit (MshedHexModel  *self,
                          gsize           offset,
                          GError        **error)
{
  gint res = -1;
  gsize res_off;
  gsize ws, we;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);

  if (self->document == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("No document is open"));
      return FALSE;
    }
  mshed_hex_model_get_window (self, &ws, &we);
  if (offset < ws || offset > we || (offset == we && !mshed_hex_model_can_resize (self, offset)))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Offset 0x%zX lies outside the bytes shown"), offset);
      return FALSE;
    }
  if (self->res_index == MSHED_HEX_SOURCE_FILE &&
      !mshed_hex_model_to_resource (self, offset, &res, &res_off))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("File offset 0x%zX is not inside a resource payload: "
                     "the NRes header, directory and padding are written by the container "
                     "writer (edit entries in the directory table)"), offset);
      return FALSE;
    }
  return TRUE;
}

gboolean
mshed_hex_model_can_resize (MshedHexModel *self,
                            gsize          offset)
{
  gint res = -1;
  gsize res_off;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);

  if (self->document == NULL || !mshed_hex_model_is_whole (self))
    return FALSE;
  if (self->res_index != MSHED_HEX_SOURCE_FILE)
    res = self->res_index;
  else if (!mshed_hex_model_to_resource (self, offset, &res, &res_off))
    return FALSE;
  return res == MSHED_HEX_SOURCE_UTF || !type_is_fixed (payload_type (self, res));
}

gboolean
mshed_hex_model_replace (MshedHexModel  *self,
                         gsize           offset,
                         gsize           old_length,
                         GBytes         *bytes,
                         GError        **error)
{
  g_autoptr(GBytes) empty = NULL;
  gsize new_length;
  gint res = -1;
  gsize res_off = offset;
  gsize payload_size = 0;
  gsize ws, we;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (bytes == NULL)
    bytes = empty = g_bytes_new (NULL, 0);
  new_length = g_bytes_get_size (bytes);

  if (!mshed_hex_model_can_edit (self, offset, error))
    return FALSE;
  mshed_hex_model_get_window (self, &ws, &we);
  if (!mshed_range_ok (offset, old_length, we))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("%zu bytes at offset 0x%zX run past "
                     "the end of the bytes shown"), old_length, offset);
      return FALSE;
    }
  if (!mshed_hex_model_to_resource (self, offset, &res, &res_off))
    return FALSE;  /* can_edit() said why already; not reached */
  payload_data (self, res, &payload_size);
  if (!mshed_range_ok (res_off, old_length, payload_size))
    {
      g_autofree char *label = resource_label (self, res);

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("The edit at offset 0x%zX runs past the end of %s"),
                   offset, label);
      return FALSE;
    }
  if (new_length != old_length && !mshed_hex_model_can_resize (self, offset))
    {
      g_autofree char *label = resource_label (self, res);

      if (type_is_fixed (payload_type (self, res)))
        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                     _("%s has fixed-size records: an edit there cannot change its length "
                       "(overwrite bytes instead)"), label);
      else
        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                     _("Bytes of %s can only be inserted or deleted while the whole resource "
                       "is shown"), label);
      return FALSE;
    }
  if (new_length == old_length && old_length > 0)
    {
      const guint8 *cur = mshed_hex_model_peek (self, offset, NULL);

      if (cur != NULL && memcmp (cur, g_bytes_get_data (bytes, NULL), old_length) == 0)
        return TRUE;  /* nothing to change: no empty undo step */
    }
  if (old_length == 0 && new_length == 0)
    return TRUE;
  if (res == MSHED_HEX_SOURCE_UTF)
    {
      MshedPayloadRef ref = MSHED_PAYLOAD_UTF (self->utf_node);

      return mshed_document_replace_payload_bytes (self->document, &ref, res_off, old_length,
                                                   bytes, error);
    }
  return mshed_document_replace_bytes (self->document, (guint) res, res_off, old_length, bytes,
                                       error);
}
