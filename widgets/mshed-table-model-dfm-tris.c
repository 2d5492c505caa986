/* mshed-table-model-dfm-tris.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Triangles table of a face group (MSHED_DFM_TABLE_TRIANGLES, docs/dfm.md §5): one row
 * per triangle the group draws, its strip unrolled by §5.1 (degenerate windows dropped) or its
 * list read by triples, columns i0, i1, i2 as 6-byte records. The rows are built from the
 * group's index file and rebuilt when that payload changes (a new GBytes: the cache holds the
 * one it was built from, so its address cannot be reused). Edits go through
 * mshed_document_dfm_set_triangle_corner(), which writes the group back as a whole.
 */
#define G_LOG_DOMAIN "mshed-table-model"

#include "config.h"

#include "mshed-bytes.h"
#include "mshed-dfm-strip.h"
#include "mshed-table-model-private.h"

typedef struct {
  GBytes  *src;       /* the payload the rows come from */
  gboolean strip;
  gsize    n;
  guint8  *records;   /* 6 bytes per triangle, little-endian u16 corners */
  gsize   *windows;   /* a strip's: the position of the window that drew each triangle */
} TriCache;

static void
tri_cache_free (gpointer data)
{
  TriCache *cache = data;

  g_clear_pointer (&cache->src, g_bytes_unref);
  g_free (cache->records);
  g_free (cache->windows);
  g_free (cache);
}

/* The group's index file: its strip, else its list. */
MshedUtfNode *
_mshed_table_model_tris_node (MshedTableModel *self,
                              gboolean        *strip)
{
  MshedDfm *dfm = self->document ? mshed_document_get_dfm (self->document) : NULL;
  MshedUtfNode *node;

  if (dfm == NULL)
    return NULL;
  node = mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_TRISTRIP, self->dfm_a, self->dfm_b);
  if (strip)
    *strip = node != NULL;
  return node ? node : mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_FACE_INDICES, self->dfm_a,
                                            self->dfm_b);
}

static const TriCache *
get_cache (MshedTableModel *self)
{
  static GQuark quark;
  TriCache *cache;
  gboolean strip = FALSE;
  MshedUtfNode *node = _mshed_table_model_tris_node (self, &strip);
  GBytes *src = node ? mshed_utf_node_get_data (node) : NULL;
  g_autofree guint16 *tris = NULL;
  const guint8 *data;
  gsize size = 0, n_entries;

  if (quark == 0)
    quark = g_quark_from_static_string ("mshed-dfm-triangles");
  cache = g_object_get_qdata (G_OBJECT (self), quark);
  if (cache != NULL && cache->src == src)
    return cache;
  cache = g_new0 (TriCache, 1);
  g_object_set_qdata_full (G_OBJECT (self), quark, cache, tri_cache_free);
  if (src == NULL)
    return cache;
  cache->src = g_bytes_ref (src);
  cache->strip = strip;
  data = g_bytes_get_data (src, &size);
  n_entries = size / 2;
  if (n_entries < 3)
    return cache;
  tris = g_new (guint16, 3 * n_entries);
  if (strip)
    {
      cache->windows = g_new (gsize, n_entries);
      cache->n = mshed_dfm_strip_unroll_windows (data, n_entries, tris, cache->windows);
    }
  else
    cache->n = mshed_dfm_list_unroll (data, n_entries, tris);
  cache->records = g_malloc (6 * cache->n + 1);
  for (gsize k = 0; k < 3 * cache->n; k++)
    mshed_write_u16 (cache->records + 2 * k, tris[k]);
  return cache;
}

guint
_mshed_table_model_tris_count (MshedTableModel *self)
{
  return (guint) MIN (get_cache (self)->n, G_MAXUINT);
}

const guint8 *
_mshed_table_model_tris_record (MshedTableModel *self,
                                guint            row)
{
  const TriCache *cache = get_cache (self);

  return row < cache->n ? cache->records + 6 * (gsize) row : NULL;
}

gboolean
_mshed_table_model_tris_set (MshedTableModel        *self,
                             const MshedTableColumn *c,
                             guint                   row,
                             const char             *text,
                             GError                **error)
{
  double value;

  if (c->field == NULL || !mshed_field_parse (c->field, text, &value, error))
    return FALSE;
  return mshed_document_dfm_set_triangle_corner (self->document, self->dfm_a, self->dfm_b, row,
                                                 c->field->offset / 2, (guint) value, error);
}

/**
 * mshed_table_model_get_triangle_bytes:
 * @corner: 0, 1 or 2 for one corner, -1 for the whole triangle
 * @start: (out): the first byte in the group's index file
 * @end: (out): the byte after the last
 *
 * Where a row of the Triangles table lies in the index file: for a strip, the three entries
 * of the window that drew it (docs/dfm.md §5.1; an odd window's first two corners are its
 * second and first entries); for a list, its triple.
 *
 * Returns: FALSE for another table or a row past the end
 */
gboolean
mshed_table_model_get_triangle_bytes (MshedTableModel *self,
                                      guint            row,
                                      gint             corner,
                                      gsize           *start,
                                      gsize           *end)
{
  const TriCache *cache;
  gsize first, entry;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);

  if (self->dfm_table != MSHED_DFM_TABLE_TRIANGLES)
    return FALSE;
  cache = get_cache (self);
  if (row >= cache->n)
    return FALSE;
  first = cache->strip ? cache->windows[row] : 3 * (gsize) row;
  if (corner < 0 || corner > 2)
    {
      *start = 2 * first;
      *end = 2 * first + 6;
      return TRUE;
    }
  entry = (gsize) corner;
  if (cache->strip && (first & 1) == 1 && corner < 2)
    entry = 1 - entry;
  *start = 2 * (first + entry);
  *end = *start + 2;
  return TRUE;
}

/* The rows using entry @entry of the index file, and the corner it is in each. */
static guint
triangles_of_entry (const TriCache *cache,
                    gsize           entry,
                    guint           rows[3],
                    guint           corners[3])
{
  gsize lo = 0, hi = cache->n;
  guint n = 0;

  if (!cache->strip)
    {
      if (entry / 3 >= cache->n)
        return 0;
      rows[0] = (guint) (entry / 3);
      corners[0] = (guint) (entry % 3);
      return 1;
    }
  /* the first window ending at or after @entry (the windows are ascending) */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (cache->windows[mid] + 2 < entry)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (gsize r = lo; r < cache->n && cache->windows[r] <= entry && n < 3; r++)
    {
      gsize first = cache->windows[r];
      guint e = (guint) (entry - first);

      rows[n] = (guint) r;
      /* an odd window's first two corners are its second and first entries */
      corners[n++] = (first & 1) == 1 && e < 2 ? 1 - e : e;
    }
  return n;
}

/**
 * mshed_table_model_diagnostic_triangles:
 * @d: a diagnostic about an entry of a `Tristrip_indices` or `Face_indices` file
 * @rows: (out caller-allocates): the rows of this Triangles table that use the entry
 * @corners: (out caller-allocates): the corner of each row that the entry is
 *
 * The inverse of mshed_table_model_get_triangle_bytes() for one entry: a strip entry i is in
 * the windows i − 2, i − 1 and i that draw a triangle, a list entry in its triple.
 *
 * Returns: the number of rows written, 0 to 3 (0: another table or group's file)
 */
guint
mshed_table_model_diagnostic_triangles (MshedTableModel       *self,
                                        const MshedDiagnostic *d,
                                        guint                  rows[3],
                                        guint                  corners[3])
{
  MshedUtfNode *node;
  g_autofree char *path = NULL;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), 0);

  if (self->dfm_table != MSHED_DFM_TABLE_TRIANGLES || d->record < 0 || d->path == NULL ||
      (d->table != MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRISTRIP) &&
       d->table != MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_FACE_INDICES)) ||
      (node = _mshed_table_model_tris_node (self, NULL)) == NULL)
    return 0;
  path = mshed_utf_node_dup_path (node);
  if (g_ascii_strcasecmp (path, d->path) != 0)
    return 0;
  return triangles_of_entry (get_cache (self), (gsize) d->record, rows, corners);
}
