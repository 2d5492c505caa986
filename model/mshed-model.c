/* mshed-model.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-model"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-model.h"
#include "mshed-source.h"
#include "mshed-validate.h"

#define MAX_TYPE 21

struct _MshedModel {
  gatomicrefcount ref_count;
  MshedNres *nres;
  gint       res[MAX_TYPE];    /* first directory index of each core type, -1 when absent */
  guint      node_stride;      /* Res1.attr3 as stored (38, 24, or anything broken) */
  GArray    *name_offsets;     /* guint32 offset of each Res10 record that could be walked */
};

G_DEFINE_BOXED_TYPE (MshedModel, mshed_model, mshed_model_ref, mshed_model_unref)

static void
build_name_index (MshedModel *self)
{
  const MshedNresEntry *e = mshed_model_get_resource (self, 10);
  guint n_nodes = mshed_model_get_n_rows (self, MSHED_TABLE_NODES);
  gsize size = 0;
  const guint8 *data;
  guint64 pos = 0;

  g_array_set_size (self->name_offsets, 0);
  if (e == NULL)
    return;
  if (!mshed_model_has_node_records (self))
    {
      const MshedNresEntry *r1 = mshed_model_get_resource (self, 1);
      n_nodes = r1 ? r1->attr1 : 0;
    }
  data = mshed_nres_entry_get_data (e, &size);
  for (guint i = 0; i < n_nodes; i++)
    {
      guint32 len;

      if (!mshed_range_ok (pos, 4, size))
        break;
      len = mshed_read_u32 (data + pos);
      if (len > 0 && !mshed_range_ok (pos + 4, (guint64) len + 1, size))
        break;
      g_array_append_val (self->name_offsets, (guint32) { (guint32) pos });
      pos += 4 + (len ? (guint64) len + 1 : 0);
    }
}

/**
 * mshed_model_refresh:
 *
 * Re-reads the directory (after resources were added, removed or retyped) and the name index.
 */
void
mshed_model_refresh (MshedModel *self)
{
  guint n = mshed_nres_get_n_entries (self->nres);

  for (guint t = 0; t < MAX_TYPE; t++)
    self->res[t] = -1;
  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (self->nres, i);

      if (e->type_id < MAX_TYPE && self->res[e->type_id] < 0)
        self->res[e->type_id] = (gint) i;
    }
  self->node_stride = 0;
  if (self->res[1] >= 0)
    self->node_stride = mshed_nres_peek_entry (self->nres, (guint) self->res[1])->attr3;
  build_name_index (self);
}

void
mshed_model_names_changed (MshedModel *self)
{
  build_name_index (self);
}

/* A model resource type (docs/msh.md §2): 1 to 20, but not 11 and 14, which belong to terrain
 * archives, as does 21 (listed there only so that nobody takes them for model types). */
static gboolean
is_model_type (guint32 type_id)
{
  return type_id >= 1 && type_id <= 20 && type_id != 11 && type_id != 14;
}

/**
 * mshed_nres_looks_like_model:
 *
 * Decides whether an NRes file is a model or an archive, from its directory alone and never
 * from whether the model is complete: a model that lacks a required resource is still a model
 * (validation then reports `missing-type`, docs/msh.md §9.1), not an archive of no models. Every
 * command of mshed-cli and the editor's open path decide through this one function.
 *
 * 1. The directory holds the types 1, 2, 3, 6 and 13: a model (fparkan's rule for a loose
 *    model, docs/nres.md §10), whatever else it holds.
 * 2. Otherwise it is a model when it has at least one entry, no entry is named `*.msh`, and
 *    every entry's type is a model resource type (1–20 except the terrain types 11 and 14).
 * 3. Everything else is an archive: FourCC types (`WEAR`, `Texm`, `MAT0`, …), type 0, types
 *    above 20 or of terrain, an entry named `*.msh` (a nested model), or no entries at all.
 *
 * Returns: TRUE for a model
 */
gboolean
mshed_nres_looks_like_model (const MshedNres *nres)
{
  static const guint32 required[] = { 1, 2, 3, 6, 13 };
  guint n = mshed_nres_get_n_entries (nres);
  gboolean complete = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    complete &= mshed_nres_find_type (nres, required[i]) >= 0;
  if (complete)
    return TRUE;
  if (n == 0)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);

      if (!is_model_type (e->type_id) || mshed_entry_is_model_name (e))
        return FALSE;
    }
  return TRUE;
}

/**
 * mshed_model_new:
 * @nres: (transfer none): the model's container
 * @mode: strict fails on any error-level finding; tolerant always gives a model
 * @diags: (nullable): receives every finding
 *
 * Returns: (transfer full) (nullable): the model
 */
MshedModel *
mshed_model_new (MshedNres         *nres,
                 MshedMode          mode,
                 MshedDiagnostics  *diags,
                 GError           **error)
{
  g_autoptr(MshedModel) self = g_new0 (MshedModel, 1);
  g_autoptr(MshedDiagnostics) own = NULL;
  MshedDiagnostics *d = diags;
  guint before;

  g_atomic_ref_count_init (&self->ref_count);
  self->nres = mshed_nres_ref (nres);
  self->name_offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  mshed_model_refresh (self);

  if (d == NULL)
    d = own = mshed_diagnostics_new ();
  before = d->n_errors;
  if (!mshed_validate_model (self, mode, d) && mode == MSHED_MODE_STRICT)
    {
      const MshedDiagnostic *first = NULL;

      for (guint i = 0; i < d->items->len && first == NULL; i++)
        {
          const MshedDiagnostic *item = g_ptr_array_index (d->items, i);
          if (item->severity == MSHED_SEVERITY_ERROR)
            first = item;
        }
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   g_dngettext (GETTEXT_PACKAGE,
                                "The model fails strict validation with %u error; the first: %s",
                                "The model fails strict validation with %u errors; the first: %s",
                                d->n_errors - before),
                   d->n_errors - before, first ? first->message : "?");
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * mshed_model_new_from_bytes:
 * @bytes: the model's NRes bytes (kept referenced, not copied)
 *
 * Returns: (transfer full) (nullable): the model
 */
MshedModel *
mshed_model_new_from_bytes (GBytes            *bytes,
                            MshedMode          mode,
                            MshedDiagnostics  *diags,
                            GError           **error)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, mode, diags, error);

  if (nres == NULL)
    return NULL;
  return mshed_model_new (nres, mode, diags, error);
}

MshedModel *
mshed_model_ref (MshedModel *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
mshed_model_unref (MshedModel *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_pointer (&self->nres, mshed_nres_unref);
      g_clear_pointer (&self->name_offsets, g_array_unref);
      g_free (self);
    }
}

/**
 * mshed_model_get_nres:
 *
 * Returns: (transfer none): the container
 */
MshedNres *
mshed_model_get_nres (MshedModel *self)
{
  return self->nres;
}

/**
 * mshed_model_serialize:
 *
 * Returns: (transfer full): the model's NRes bytes (the source bytes when unmodified)
 */
GBytes *
mshed_model_serialize (MshedModel *self)
{
  return mshed_nres_serialize (self->nres, NULL);
}

gint
mshed_model_find_resource (const MshedModel *self,
                           guint32           type_id)
{
  if (type_id < MAX_TYPE)
    return self->res[type_id];
  return mshed_nres_find_type (self->nres, type_id);
}

const MshedNresEntry *
mshed_model_get_resource (const MshedModel *self,
                          guint32           type_id)
{
  gint i = mshed_model_find_resource (self, type_id);

  return i < 0 ? NULL : mshed_nres_peek_entry (self->nres, (guint) i);
}

guint
mshed_model_get_node_stride (const MshedModel *self)
{
  return self->node_stride;
}

gboolean
mshed_model_has_node_records (const MshedModel *self)
{
  return self->node_stride == 38;
}

static const guint8 *
table_data (const MshedModel     *self,
            MshedTableId          table,
            const MshedTableInfo **info,
            gsize                *size,
            gint                 *res_index)
{
  const MshedTableInfo *t = mshed_schema_get_table (table);
  gint index;

  *info = t;
  *size = 0;
  if (t == NULL || t->stride == 0 || table == MSHED_TABLE_DIRECTORY)
    return NULL;
  if (table == MSHED_TABLE_NODES && !mshed_model_has_node_records (self))
    return NULL;
  index = mshed_model_find_resource (self, t->res_type);
  if (res_index)
    *res_index = index;
  if (index < 0)
    return NULL;
  return mshed_nres_entry_get_data (mshed_nres_peek_entry (self->nres, (guint) index), size);
}

/**
 * mshed_model_get_n_rows:
 *
 * Returns: the number of whole records of @table (0 when its resource is absent); for the
 *   directory, the number of entries; for names, the number of walkable Res10 records
 */
guint
mshed_model_get_n_rows (const MshedModel *self,
                        MshedTableId      table)
{
  const MshedTableInfo *info;
  gsize size;

  if (table == MSHED_TABLE_DIRECTORY)
    return mshed_nres_get_n_entries (self->nres);
  if (table == MSHED_TABLE_NAMES)
    return self->name_offsets->len;
  if (table_data (self, table, &info, &size, NULL) == NULL || size < info->header_size)
    return 0;
  if (table == MSHED_TABLE_HEADER)
    return size >= MSHED_RES2_HEADER_SIZE ? 1 : 0;
  return (guint) MIN ((size - info->header_size) / info->stride, G_MAXUINT);
}

/**
 * mshed_model_get_record:
 *
 * Returns: (nullable): the bytes of record @row (stride bytes), or NULL when out of range
 */
const guint8 *
mshed_model_get_record (const MshedModel *self,
                        MshedTableId      table,
                        guint             row)
{
  const MshedTableInfo *info;
  gsize size;
  const guint8 *data = table_data (self, table, &info, &size, NULL);
  guint64 off;

  if (data == NULL || (table == MSHED_TABLE_HEADER && row > 0))
    return NULL;
  off = info->header_size + (guint64) row * info->stride;
  if (!mshed_range_ok (off, info->stride, size))
    return NULL;
  return data + off;
}

/**
 * mshed_model_get_record_offset:
 *
 * Returns: the byte offset of record @row inside the model's NRes in its current layout
 */
guint32
mshed_model_get_record_offset (const MshedModel *self,
                               MshedTableId      table,
                               guint             row)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);
  gint index;

  if (table == MSHED_TABLE_DIRECTORY)
    return (guint32) (mshed_nres_get_directory_offset (self->nres) +
                      (guint64) row * MSHED_NRES_RECORD_SIZE);
  if (table == MSHED_TABLE_NAMES)
    {
      index = mshed_model_find_resource (self, 10);
      if (index < 0)
        return 0;
      return mshed_nres_peek_entry (self->nres, (guint) index)->data_offset +
             (row < self->name_offsets->len ? g_array_index (self->name_offsets, guint32, row) : 0);
    }
  index = mshed_model_find_resource (self, info->res_type);
  if (index < 0)
    return 0;
  return (guint32) (mshed_nres_peek_entry (self->nres, (guint) index)->data_offset +
                    info->header_size + (guint64) row * info->stride);
}

guint32
mshed_model_get_frame_count (const MshedModel *self)
{
  const MshedNresEntry *e = mshed_model_get_resource (self, 19);

  return e ? e->attr2 : 1;
}

gboolean
mshed_model_get_node (const MshedModel *self,
                      guint             index,
                      MshedNode        *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_NODES, index);

  if (r == NULL)
    return FALSE;
  out->hdr0 = mshed_read_u16 (r + 0);
  out->hdr1 = mshed_read_u16 (r + 2);
  out->hdr2 = mshed_read_u16 (r + 4);
  out->hdr3 = mshed_read_u16 (r + 6);
  for (guint i = 0; i < MSHED_N_SLOT_CELLS; i++)
    out->slot[i] = mshed_read_u16 (r + 8 + 2 * i);
  return TRUE;
}

gboolean
mshed_model_get_header (const MshedModel *self,
                        MshedHeader      *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_HEADER, 0);
  float *f = (float *) out;

  G_STATIC_ASSERT (sizeof (MshedHeader) == 140);
  if (r == NULL)
    return FALSE;
  for (guint i = 0; i < 35; i++)
    f[i] = mshed_read_f32 (r + 4 * i);
  return TRUE;
}

gboolean
mshed_model_get_slot (const MshedModel *self,
                      guint             index,
                      MshedSlot        *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_SLOTS, index);

  if (r == NULL)
    return FALSE;
  out->tri_start = mshed_read_u16 (r + 0);
  out->tri_count = mshed_read_u16 (r + 2);
  out->batch_start = mshed_read_u16 (r + 4);
  out->batch_count = mshed_read_u16 (r + 6);
  for (guint i = 0; i < 3; i++)
    {
      out->aabb_min[i] = mshed_read_f32 (r + 8 + 4 * i);
      out->aabb_max[i] = mshed_read_f32 (r + 20 + 4 * i);
      out->sphere_center[i] = mshed_read_f32 (r + 32 + 4 * i);
    }
  out->sphere_radius = mshed_read_f32 (r + 44);
  for (guint i = 0; i < 5; i++)
    out->unk[i] = mshed_read_u32 (r + 48 + 4 * i);
  return TRUE;
}

gboolean
mshed_model_get_batch (const MshedModel *self,
                       guint             index,
                       MshedBatch       *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_BATCHES, index);

  if (r == NULL)
    return FALSE;
  out->flags = mshed_read_u16 (r + 0);
  out->material_index = mshed_read_u16 (r + 2);
  out->unk4 = mshed_read_u16 (r + 4);
  out->unk6 = mshed_read_u16 (r + 6);
  out->index_count = mshed_read_u16 (r + 8);
  out->index_start = mshed_read_u32 (r + 10);
  out->unk14 = mshed_read_u16 (r + 14);
  out->base_vertex = mshed_read_u32 (r + 16);
  return TRUE;
}

gboolean
mshed_model_get_tri (const MshedModel *self,
                     guint             index,
                     MshedTriDesc     *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_TRIS, index);

  if (r == NULL)
    return FALSE;
  out->flags = mshed_read_u16 (r + 0);
  for (guint i = 0; i < 3; i++)
    {
      out->link[i] = mshed_read_u16 (r + 2 + 2 * i);
      out->normal[i] = mshed_read_i16 (r + 8 + 2 * i);
    }
  out->sel_packed = mshed_read_u16 (r + 14);
  return TRUE;
}

gboolean
mshed_model_get_key (const MshedModel *self,
                     guint             index,
                     MshedKey         *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_KEYS, index);

  if (r == NULL)
    return FALSE;
  for (guint i = 0; i < 3; i++)
    out->pos[i] = mshed_read_f32 (r + 4 * i);
  out->time = mshed_read_f32 (r + 12);
  for (guint i = 0; i < 4; i++)
    out->q[i] = mshed_read_i16 (r + 16 + 2 * i);
  return TRUE;
}

gboolean
mshed_model_get_position (const MshedModel *self,
                          guint             index,
                          float             out[3])
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_POSITIONS, index);

  if (r == NULL)
    return FALSE;
  for (guint i = 0; i < 3; i++)
    out[i] = mshed_read_f32 (r + 4 * i);
  return TRUE;
}

gboolean
mshed_model_get_normal (const MshedModel *self,
                        guint             index,
                        float             out[3])
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_NORMALS, index);

  if (r == NULL)
    return FALSE;
  for (guint i = 0; i < 3; i++)
    out[i] = mshed_decode_normal ((gint8) r[i]);
  return TRUE;
}

gboolean
mshed_model_get_uv (const MshedModel *self,
                    guint             index,
                    float             out[2])
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_UVS, index);

  if (r == NULL)
    return FALSE;
  out[0] = mshed_decode_uv (mshed_read_i16 (r));
  out[1] = mshed_decode_uv (mshed_read_i16 (r + 2));
  return TRUE;
}

gboolean
mshed_model_get_index (const MshedModel *self,
                       guint             index,
                       guint16          *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_INDICES, index);

  if (r == NULL)
    return FALSE;
  *out = mshed_read_u16 (r);
  return TRUE;
}

gboolean
mshed_model_get_map_word (const MshedModel *self,
                          guint             index,
                          guint16          *out)
{
  const guint8 *r = mshed_model_get_record (self, MSHED_TABLE_MAP, index);

  if (r == NULL)
    return FALSE;
  *out = mshed_read_u16 (r);
  return TRUE;
}

/* Names ---------------------------------------------------------------------------------- */

gboolean
mshed_model_get_name_raw (const MshedModel *self,
                          guint             node,
                          const guint8    **text,
                          guint32          *len)
{
  const MshedNresEntry *e = mshed_model_get_resource (self, 10);
  const guint8 *data;
  guint32 off;

  if (e == NULL || node >= self->name_offsets->len)
    return FALSE;
  data = mshed_nres_entry_get_data (e, NULL);
  off = g_array_index (self->name_offsets, guint32, node);
  *len = mshed_read_u32 (data + off);
  *text = data + off + 4;
  return TRUE;
}

guint32
mshed_model_get_name_record_offset (const MshedModel *self,
                                    guint             node)
{
  if (node >= self->name_offsets->len)
    return 0;
  return g_array_index (self->name_offsets, guint32, node);
}

/**
 * mshed_model_dup_name:
 *
 * Returns: (transfer full) (nullable): the node's name for display (UTF-8, unconvertible bytes
 *   as \xNN), or NULL when the node has no name record or an empty one
 */
char *
mshed_model_dup_name (const MshedModel *self,
                      guint             node)
{
  const guint8 *text;
  guint32 len;

  if (!mshed_model_get_name_raw (self, node, &text, &len) || len == 0)
    return NULL;
  return mshed_cp1251_to_utf8 (text, len, NULL);
}

gboolean
mshed_model_names_ok (const MshedModel *self)
{
  const MshedNresEntry *r1 = mshed_model_get_resource (self, 1);
  guint n_nodes = mshed_model_has_node_records (self)
                    ? mshed_model_get_n_rows (self, MSHED_TABLE_NODES)
                    : (r1 ? r1->attr1 : 0);

  return mshed_model_get_resource (self, 10) != NULL && self->name_offsets->len == n_nodes;
}

guint
mshed_model_find_slot (const MshedModel *self,
                       guint             node,
                       guint             lod,
                       guint             group)
{
  const guint8 *r;
  guint16 s;

  if (lod >= MSHED_N_LODS || group >= MSHED_N_GROUPS)
    return MSHED_NONE;
  r = mshed_model_get_record (self, MSHED_TABLE_NODES, node);
  if (r == NULL)
    return MSHED_NONE;
  s = mshed_read_u16 (r + 8 + 2 * (lod * MSHED_N_GROUPS + group));
  if (s == MSHED_NONE || s >= mshed_model_get_n_rows (self, MSHED_TABLE_SLOTS))
    return MSHED_NONE;
  return s;
}

/* Decode / encode (docs/msh.md §5) ------------------------------------------------------------ */

float
mshed_decode_normal (gint8 v)
{
  return CLAMP (v / 127.0f, -1.0f, 1.0f);
}

gint8
mshed_encode_normal (float v)
{
  if (isnan (v))
    return 0;
  return (gint8) CLAMP (roundf (v * 127.0f), -128.0f, 127.0f);
}

float
mshed_decode_uv (gint16 v)
{
  return v / 1024.0f;
}

gint16
mshed_encode_uv (float v)
{
  if (isnan (v))
    return 0;
  return (gint16) CLAMP (roundf (v * 1024.0f), -32768.0f, 32767.0f);
}

float
mshed_decode_tri_normal (gint16 v)
{
  return v / 32767.0f;
}

gint16
mshed_encode_tri_normal (float v)
{
  if (isnan (v))
    return 0;
  return (gint16) CLAMP (roundf (v * 32767.0f), -32767.0f, 32767.0f);
}

float
mshed_decode_quat (gint16 v)
{
  return v * (1.0f / 32767.0f);
}

gint16
mshed_encode_quat (float v)
{
  if (isnan (v))
    return 0;
  return (gint16) CLAMP (roundf (v * 32767.0f), -32767.0f, 32767.0f);
}

/* 3 (none) becomes MSHED_NONE, as the runtime does */
guint16
mshed_selector (guint16 sel_packed,
                guint   k)
{
  guint16 s = (sel_packed >> (2 * k)) & 3;

  return s == 3 ? MSHED_NONE : s;
}
