/* mshed-diff.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The structural diff of docs/diff.md: alignment (docs/diff.md §2), what counts as a change
 * (docs/diff.md §3) and the one-line text of each difference (docs/diff.md §4).
 */
#define G_LOG_DOMAIN "mshed-diff"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-dfm.h"
#include "mshed-error.h"
#include "mshed-diff-private.h"
#include "mshed-source.h"

struct _MshedDiff {
  GArray          *items;     /* MshedDiffItem */
  GArray          *counts;    /* MshedDiffCount */
  MshedDiffOptions options;
  char            *table;     /* options.table, owned */
  /* the address the next items inherit */
  gint             res_a;
  gint             res_b;
  guint32          res_type;
  const char      *entry;
  char            *path;
};

/* Alignment (docs/diff.md §2) ------------------------------------------------------------ */

/* Middles above this many LCS cells (after the common prefix and suffix) are paired by
 * index instead: 4 Mi cells of 4 bytes. */
#define LCS_MAX_CELLS (4u * 1024u * 1024u)

static void
push_pair (GArray *pairs,
           guint   a,
           guint   b)
{
  MshedDiffPair p = { a, b };

  g_array_append_val (pairs, p);
}

static void
flush_gap (GArray           *pairs,
           guint             a0,
           guint             ka,
           guint             b0,
           guint             kb,
           MshedDiffGapMode  mode)
{
  guint paired = 0;

  if (mode == MSHED_DIFF_GAP_PAIR_ALL || (mode == MSHED_DIFF_GAP_PAIR_EQUAL && ka == kb))
    paired = MIN (ka, kb);
  for (guint k = 0; k < paired; k++)
    push_pair (pairs, a0 + k, b0 + k);
  for (guint k = paired; k < ka; k++)
    push_pair (pairs, a0 + k, MSHED_DIFF_NO_ROW);
  for (guint k = paired; k < kb; k++)
    push_pair (pairs, MSHED_DIFF_NO_ROW, b0 + k);
}

/**
 * mshed_diff_align:
 * @eq: whether row @i of A and row @j of B hold the same key
 *
 * Pairs the rows of A and B in order: the common prefix and suffix, then a longest common
 * subsequence of the middle (when it is small enough), the rows between two matches paired
 * as @mode says and the rest added or removed (docs/diff.md §2).
 *
 * Returns: (transfer full): the MshedDiffPair list
 */
GArray *
mshed_diff_align (guint             na,
                  guint             nb,
                  MshedDiffEqFunc   eq,
                  gpointer          data,
                  MshedDiffGapMode  mode)
{
  GArray *pairs = g_array_sized_new (FALSE, FALSE, sizeof (MshedDiffPair), MAX (na, nb));
  guint pre = 0, suf = 0, ma, mb;

  while (pre < na && pre < nb && eq (data, pre, pre))
    pre++;
  while (suf < na - pre && suf < nb - pre && eq (data, na - 1 - suf, nb - 1 - suf))
    suf++;
  for (guint i = 0; i < pre; i++)
    push_pair (pairs, i, i);
  ma = na - pre - suf;
  mb = nb - pre - suf;
  if (ma > 0 && mb > 0 && (guint64) (ma + 1) * (mb + 1) <= LCS_MAX_CELLS)
    {
      guint w = mb + 1;
      guint32 *t = g_new0 (guint32, (gsize) (ma + 1) * w);
      guint i = 0, j = 0, ga = 0, gb = 0;

      for (guint ii = ma; ii-- > 0;)
        for (guint jj = mb; jj-- > 0;)
          t[ii * w + jj] = eq (data, pre + ii, pre + jj) ? t[(ii + 1) * w + jj + 1] + 1
                           : MAX (t[(ii + 1) * w + jj], t[ii * w + jj + 1]);
      while (i < ma && j < mb)
        {
          if (t[i * w + j] == t[(i + 1) * w + j + 1] + 1 && eq (data, pre + i, pre + j))
            {
              flush_gap (pairs, pre + ga, i - ga, pre + gb, j - gb, mode);
              push_pair (pairs, pre + i, pre + j);
              ga = ++i;
              gb = ++j;
            }
          else if (t[(i + 1) * w + j] >= t[i * w + j + 1])
            i++;
          else
            j++;
        }
      flush_gap (pairs, pre + ga, ma - ga, pre + gb, mb - gb, mode);
      g_free (t);
    }
  else
    flush_gap (pairs, pre, ma, pre, mb, mode == MSHED_DIFF_GAP_PAIR_NONE
                                        ? mode : MSHED_DIFF_GAP_PAIR_ALL);
  for (guint k = 0; k < suf; k++)
    push_pair (pairs, na - suf + k, nb - suf + k);
  return pairs;
}

/* Items ---------------------------------------------------------------------------------- */

#define INHERIT G_MININT  /* item_init: take the resource address from the diff */

static void
item_clear (MshedDiffItem *item)
{
  g_free (item->old_value);
  g_free (item->new_value);
  g_free (item->entry);
  g_free (item->path);
}

static MshedDiff *
diff_new (const MshedDiffOptions *options)
{
  MshedDiff *self = g_new0 (MshedDiff, 1);

  self->items = g_array_new (FALSE, TRUE, sizeof (MshedDiffItem));
  g_array_set_clear_func (self->items, (GDestroyNotify) item_clear);
  self->counts = g_array_new (FALSE, TRUE, sizeof (MshedDiffCount));
  if (options)
    self->options = *options;
  self->table = g_strdup (self->options.table);
  self->options.table = self->table;
  if (!(self->options.tolerance >= 0))  /* also NaN */
    self->options.tolerance = 0;
  self->res_a = self->res_b = -1;
  return self;
}

void
mshed_diff_free (MshedDiff *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->items);
  g_array_unref (self->counts);
  g_free (self->table);
  g_free (self->path);
  g_free (self);
}

static const char *
count_key (const MshedDiffItem *item)
{
  if (item->table_name)
    return item->table_name;
  switch (item->kind)
    {
    case MSHED_DIFF_RESOURCE_ADDED:
    case MSHED_DIFF_RESOURCE_REMOVED:
    case MSHED_DIFF_RESOURCE_CHANGED:
    case MSHED_DIFF_RENAMED:
      return item->entry && item->path == NULL && item->res_type == 0 ? "entries" : "resources";
    default:
      return "bytes";
    }
}

/* Takes @item's strings; fills in the current address. Items whose table (count_key) is not
 * options.table are dropped. */
static void
push (MshedDiff     *self,
      MshedDiffItem *item)
{
  const char *key;
  guint i;

  if (item->res_a == INHERIT)
    {
      item->res_a = self->res_a;
      item->res_b = self->res_b;
      item->res_type = self->res_type;
    }
  item->entry = g_strdup (self->entry);
  item->path = g_strdup (self->path);
  key = count_key (item);
  if (self->table && strcmp (key, self->table) != 0)
    {
      item_clear (item);
      return;
    }
  g_array_append_val (self->items, *item);
  for (i = 0; i < self->counts->len; i++)
    {
      MshedDiffCount *c = &g_array_index (self->counts, MshedDiffCount, i);

      if (strcmp (c->table_name, key) == 0)
        {
          c->count++;
          return;
        }
    }
  {
    MshedDiffCount c = { key, 1 };

    g_array_append_val (self->counts, c);
  }
}

static MshedDiffItem
item_init (MshedDiffKind  kind,
           gint           table,
           const char    *table_name)
{
  MshedDiffItem item = { 0 };

  item.kind = kind;
  item.table = table;
  item.table_name = table_name;
  item.row_a = item.row_b = MSHED_DIFF_NO_ROW;
  item.res_a = item.res_b = INHERIT;
  return item;
}

gboolean
mshed_diff_is_empty (const MshedDiff *self)
{
  return self->items->len == 0;
}

double
mshed_diff_get_tolerance (const MshedDiff *self)
{
  return self->options.tolerance;
}

guint
mshed_diff_get_n_items (const MshedDiff *self)
{
  return self->items->len;
}

const MshedDiffItem *
mshed_diff_get_item (const MshedDiff *self,
                     guint            index)
{
  g_return_val_if_fail (index < self->items->len, NULL);
  return &g_array_index (self->items, MshedDiffItem, index);
}

guint
mshed_diff_get_n_counts (const MshedDiff *self)
{
  return self->counts->len;
}

const MshedDiffCount *
mshed_diff_get_count (const MshedDiff *self,
                      guint            index)
{
  g_return_val_if_fail (index < self->counts->len, NULL);
  return &g_array_index (self->counts, MshedDiffCount, index);
}

/* Bytes ---------------------------------------------------------------------------------- */

#define BYTES_JOIN 8      /* differing runs closer than this are one item */
#define BYTES_MAX_RUNS 32 /* then one item to the end */
#define BYTES_SHOWN 16

/* Up to BYTES_SHOWN bytes as hexadecimal, "…" after them when there are more. */
char *
mshed_diff_hex (const guint8 *p,
                gsize         n)
{
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < MIN (n, BYTES_SHOWN); i++)
    g_string_append_printf (s, i ? " %02X" : "%02X", p[i]);
  if (n > BYTES_SHOWN)
    g_string_append (s, " …");
  return g_string_free (s, FALSE);
}

static void
push_bytes (MshedDiff    *self,
            gint          table,
            const char   *table_name,
            const guint8 *a,
            const guint8 *b,
            guint64       offset,
            guint64       len_a,
            guint64       len_b)
{
  MshedDiffItem item = item_init (MSHED_DIFF_BYTES, table, table_name);

  item.offset = offset;
  item.length_a = len_a;
  item.length_b = len_b;
  item.old_value = mshed_diff_hex (a + offset, len_a);
  item.new_value = mshed_diff_hex (b + offset, len_b);
  push (self, &item);
}

/* Byte ranges that differ between two payloads (docs/diff.md §3.3); @base is where the
 * compared bytes start in the payload (item offsets are payload offsets). */
static void
diff_bytes (MshedDiff    *self,
            gint          table,
            const char   *table_name,
            const guint8 *a,
            gsize         na,
            const guint8 *b,
            gsize         nb,
            gsize         base)
{
  gsize common = MIN (na, nb), i = 0, run_start = 0, run_end = 0;
  guint runs = 0;
  gboolean in_run = FALSE;

  while (i < common)
    {
      if (a[i] == b[i])
        {
          if (in_run && i - run_end >= BYTES_JOIN)
            {
              push_bytes (self, table, table_name, a - base, b - base, base + run_start,
                          run_end - run_start, run_end - run_start);
              in_run = FALSE;
              runs++;
            }
          i++;
          continue;
        }
      if (!in_run)
        {
          in_run = TRUE;
          run_start = i;
          if (runs + 1 >= BYTES_MAX_RUNS)
            {
              run_end = common;
              break;
            }
        }
      run_end = ++i;
    }
  if (na != nb)
    {
      if (!in_run || common - run_end >= BYTES_JOIN)
        {
          if (in_run)
            push_bytes (self, table, table_name, a - base, b - base, base + run_start,
                        run_end - run_start, run_end - run_start);
          run_start = common;
        }
      push_bytes (self, table, table_name, a - base, b - base, base + run_start,
                  na - run_start, nb - run_start);
    }
  else if (in_run)
    push_bytes (self, table, table_name, a - base, b - base, base + run_start,
                run_end - run_start, run_end - run_start);
}

/* Records (docs/diff.md §3.1) ----------------------------------------------------------- */

static double
decoded (const MshedField *f,
         const guint8     *record)
{
  double v = mshed_field_read (f, record);

  return f->divisor > 0 ? v / f->divisor : v;
}

static void
compare_texts (MshedDiff         *self,
               const MshedDiffTable *t,
               const guint8      *ra,
               const guint8      *rb,
               guint              i,
               guint              j,
               gsize              off_a)
{
  for (guint k = 0; k < t->n_texts; k++)
    {
      const MshedDfmTextField *tf = &t->texts[k];
      g_autofree char *sa = NULL, *sb = NULL;

      if (memcmp (ra + tf->offset, rb + tf->offset, tf->size) == 0)
        continue;
      sa = g_strndup ((const char *) ra + tf->offset, tf->size);
      sb = g_strndup ((const char *) rb + tf->offset, tf->size);
      if (strcmp (sa, sb) != 0)
        {
          MshedDiffItem item = item_init (MSHED_DIFF_TEXT, t->table, t->table_name);

          item.row_a = i;
          item.row_b = j;
          item.field = tf->name;
          item.offset = off_a + tf->offset;
          item.old_value = mshed_cp1251_to_utf8 ((const guint8 *) sa, strlen (sa), NULL);
          item.new_value = mshed_cp1251_to_utf8 ((const guint8 *) sb, strlen (sb), NULL);
          push (self, &item);
        }
      else  /* only the bytes after the terminator */
        diff_bytes (self, t->table, t->table_name, ra + tf->offset, tf->size, rb + tf->offset,
                    tf->size, off_a + tf->offset);
    }
}

static gboolean
position_moved (const MshedDiff *self,
                const guint8    *ra,
                const guint8    *rb,
                double          *displacement)
{
  double d2 = 0;

  for (guint k = 0; k < 3; k++)
    {
      float fa, fb;
      guint32 ua = mshed_read_u32 (ra + 4 * k), ub = mshed_read_u32 (rb + 4 * k);

      memcpy (&fa, &ua, 4);
      memcpy (&fb, &ub, 4);
      d2 += ((double) fa - fb) * ((double) fa - fb);
    }
  *displacement = sqrt (d2);
  if (isnan (*displacement))
    {
      *displacement = INFINITY;
      return TRUE;
    }
  return *displacement > self->options.tolerance ||
         (self->options.tolerance == 0 && memcmp (ra, rb, 12) != 0);
}

static void
compare_record (MshedDiff            *self,
                const MshedDiffTable *t,
                const guint8         *mask,
                const guint8         *ra,
                const guint8         *rb,
                guint                 i,
                guint                 j,
                gsize                 off_a)
{
  double tol = self->options.tolerance;
  double disp;

  if (memcmp (ra, rb, t->stride) == 0)
    return;
  if (t->geometry && !position_moved (self, ra, rb, &disp))
    return;
  for (guint k = 0; k < t->n_fields; k++)
    {
      const MshedField *f = &t->fields[k];
      guint size = mshed_field_type_size (f->type);
      MshedDiffItem item;

      if (f->offset + size > t->stride || memcmp (ra + f->offset, rb + f->offset, size) == 0)
        continue;
      if (tol > 0 && !t->geometry && (f->type == MSHED_FIELD_F32 || f->divisor > 0) &&
          fabs (decoded (f, ra) - decoded (f, rb)) <= tol)
        continue;
      item = item_init (MSHED_DIFF_FIELD, t->table, t->table_name);
      item.row_a = i;
      item.row_b = j;
      item.field = f->name;
      item.offset = off_a + f->offset;
      item.old_value = mshed_field_format (f, ra);
      item.new_value = mshed_field_format (f, rb);
      push (self, &item);
    }
  compare_texts (self, t, ra, rb, i, j, off_a);
  /* bytes no field covers */
  for (guint k = 0; k < t->stride;)
    {
      guint end;

      if (mask[k] || ra[k] == rb[k])
        {
          k++;
          continue;
        }
      for (end = k; end < t->stride && !mask[end] && ra[end] != rb[end]; end++)
        ;
      push_bytes (self, t->table, t->table_name, ra - off_a, rb - off_a, off_a + k, end - k,
                  end - k);
      k = end;
    }
}

typedef struct {
  const MshedDiffTable *t;
  const guint8         *a;
  const guint8         *b;
} RecordKeys;

static gboolean
records_equal (gpointer data,
               guint    i,
               guint    j)
{
  const RecordKeys *k = data;
  guint s = k->t->stride;

  return memcmp (k->a + k->t->header + (gsize) i * s, k->b + k->t->header + (gsize) j * s,
                 s) == 0;
}

static void
bounds_of (const guint8 *data,
           guint         n,
           gsize         header,
           guint         stride,
           float         out[6])
{
  for (guint k = 0; k < 3; k++)
    {
      out[k] = n ? INFINITY : 0;
      out[k + 3] = n ? -INFINITY : 0;
    }
  for (guint r = 0; r < n; r++)
    for (guint k = 0; k < 3; k++)
      {
        guint32 u = mshed_read_u32 (data + header + (gsize) r * stride + 4 * k);
        float v;

        memcpy (&v, &u, 4);
        if (isnan (v))
          continue;
        out[k] = MIN (out[k], v);
        out[k + 3] = MAX (out[k + 3], v);
      }
}

static void
diff_geometry (MshedDiff            *self,
               const MshedDiffTable *t,
               GArray               *pairs,
               const guint8         *a,
               guint                 na,
               const guint8         *b,
               guint                 nb)
{
  MshedDiffItem item = item_init (MSHED_DIFF_GEOMETRY, t->table, t->table_name);
  g_autofree guint8 *moved = g_new0 (guint8, MAX (nb, 1));
  gboolean bounds_changed = FALSE;

  for (guint p = 0; p < (pairs ? pairs->len : MIN (na, nb)); p++)
    {
      MshedDiffPair pr = pairs ? g_array_index (pairs, MshedDiffPair, p)
                               : (MshedDiffPair) { p, p };
      double disp;

      if (pr.b == MSHED_DIFF_NO_ROW)
        continue;
      if (pr.a == MSHED_DIFF_NO_ROW)
        {
          moved[pr.b] = 1;
          continue;
        }
      if (memcmp (a + t->header + (gsize) pr.a * t->stride,
                  b + t->header + (gsize) pr.b * t->stride, 12) == 0)
        continue;
      if (position_moved (self, a + t->header + (gsize) pr.a * t->stride,
                          b + t->header + (gsize) pr.b * t->stride, &disp))
        {
          moved[pr.b] = 1;
          item.moved_vertices++;
          item.max_displacement = MAX (item.max_displacement, disp);
        }
    }
  bounds_of (a, na, t->header, t->stride, item.bounds_a);
  bounds_of (b, nb, t->header, t->stride, item.bounds_b);
  for (guint k = 0; k < 6; k++)
    bounds_changed |= !(fabs ((double) item.bounds_a[k] - item.bounds_b[k]) <=
                        self->options.tolerance);
  if (item.moved_vertices == 0 && na == nb && !bounds_changed)
    return;
  if (t->count_triangles)
    item.changed_triangles = t->count_triangles (t->triangles_data, moved, nb);
  item.row_a = na;
  item.row_b = nb;
  push (self, &item);
}

/**
 * mshed_diff_records:
 *
 * Diffs two payloads holding table @t: records by index when the counts agree, else aligned
 * by their bytes; the bytes after the last whole record as a byte range.
 */
void
mshed_diff_records (MshedDiff            *self,
                    const MshedDiffTable *t,
                    const guint8         *a,
                    gsize                 size_a,
                    const guint8         *b,
                    gsize                 size_b)
{
  guint na, nb;
  g_autoptr(GArray) pairs = NULL;
  g_autofree guint8 *mask = NULL;
  gsize tail_a, tail_b;

  if (size_a < t->header || size_b < t->header || t->stride == 0)
    {
      diff_bytes (self, t->table, t->table_name, a, size_a, b, size_b, 0);
      return;
    }
  if (t->header > 0 && memcmp (a, b, t->header) != 0 && t->header_is_bytes)
    diff_bytes (self, t->table, t->table_name, a, t->header, b, t->header, 0);
  mask = mshed_diff_table_mask (t);
  na = (guint) MIN ((size_a - t->header) / t->stride, G_MAXUINT - 1);
  nb = (guint) MIN ((size_b - t->header) / t->stride, G_MAXUINT - 1);
  if (na != nb)
    {
      RecordKeys keys = { t, a, b };

      pairs = mshed_diff_align (na, nb, records_equal, &keys, MSHED_DIFF_GAP_PAIR_ALL);
    }
  if (t->geometry)
    diff_geometry (self, t, pairs, a, na, b, nb);
  for (guint p = 0; p < (pairs ? pairs->len : na); p++)
    {
      MshedDiffPair pr = pairs ? g_array_index (pairs, MshedDiffPair, p)
                               : (MshedDiffPair) { p, p };
      gsize off_a = t->header + (gsize) pr.a * t->stride;

      if (pr.a != MSHED_DIFF_NO_ROW && pr.b != MSHED_DIFF_NO_ROW)
        compare_record (self, t, mask, a + off_a, b + t->header + (gsize) pr.b * t->stride,
                        pr.a, pr.b, off_a);
      else
        {
          MshedDiffItem item = item_init (pr.a == MSHED_DIFF_NO_ROW ? MSHED_DIFF_ROW_ADDED
                                          : MSHED_DIFF_ROW_REMOVED, t->table, t->table_name);

          item.row_a = pr.a;
          item.row_b = pr.b;
          item.offset = pr.a != MSHED_DIFF_NO_ROW ? off_a : 0;
          push (self, &item);
        }
    }
  tail_a = t->header + (gsize) na * t->stride;
  tail_b = t->header + (gsize) nb * t->stride;
  if (size_a - tail_a != size_b - tail_b ||
      memcmp (a + tail_a, b + tail_b, size_a - tail_a) != 0)
    {
      if (tail_a == tail_b)
        diff_bytes (self, t->table, t->table_name, a + tail_a, size_a - tail_a, b + tail_b,
                    size_b - tail_b, tail_a);
      else
        {
          MshedDiffItem item = item_init (MSHED_DIFF_BYTES, t->table, t->table_name);

          item.offset = tail_a;
          item.length_a = size_a - tail_a;
          item.length_b = size_b - tail_b;
          item.old_value = mshed_diff_hex (a + tail_a, item.length_a);
          item.new_value = mshed_diff_hex (b + tail_b, item.length_b);
          push (self, &item);
        }
    }
}

static void
set_address (MshedDiff  *self,
             gint        res_a,
             gint        res_b,
             guint32     res_type,
             const char *path)
{
  self->res_a = res_a;
  self->res_b = res_b;
  self->res_type = res_type;
  g_free (self->path);
  self->path = g_strdup (path);
}

/* MSH models (docs/diff.md §2.1) -------------------------------------------------------- */

/* Table @table of the MSH schema; @stride 0: the schema's (node records vary, docs/msh.md §4). */
MshedDiffTable
mshed_diff_msh_table (MshedTableId table,
                      guint        stride)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);
  MshedDiffTable t = { 0 };

  t.table = table;
  t.table_name = info->name;
  t.fields = info->fields;
  t.n_fields = info->n_fields;
  t.stride = stride ? stride : info->stride;
  t.header = info->header_size;
  t.geometry = table == MSHED_TABLE_POSITIONS;
  return t;
}

/* A typed file of a deformable model (mshed-dfm-schema.h). */
MshedDiffTable
mshed_diff_dfm_table (MshedDfmTable table)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);
  MshedDiffTable t = { 0 };

  t.table = table;
  t.table_name = info->name;
  t.fields = info->fields;
  t.n_fields = info->n_fields;
  t.texts = info->texts;
  t.n_texts = info->n_texts;
  t.stride = info->stride;
  t.geometry = table == MSHED_DFM_TABLE_POINTS;
  return t;
}

/* One flag per byte of a record: TRUE where a field or text field covers it. */
guint8 *
mshed_diff_table_mask (const MshedDiffTable *t)
{
  guint8 *mask = g_malloc0 (MAX (t->stride, 1));

  for (guint k = 0; k < t->n_fields; k++)
    for (guint o = 0; o < mshed_field_type_size (t->fields[k].type); o++)
      if (t->fields[k].offset + o < t->stride)
        mask[t->fields[k].offset + o] = 1;
  for (guint k = 0; k < t->n_texts; k++)
    for (guint o = 0; o < t->texts[k].size && t->texts[k].offset + o < t->stride; o++)
      mask[t->texts[k].offset + o] = 1;
  return mask;
}

static guint
msh_count_triangles (gpointer      data,
                     const guint8 *moved,
                     guint         n_vertices)
{
  MshedModel *b = data;
  guint n = mshed_model_get_n_rows (b, MSHED_TABLE_BATCHES), count = 0;
  const MshedNresEntry *res6 = mshed_model_get_resource (b, 6);
  gsize n_indices = 0;
  const guint8 *indices = res6 ? mshed_nres_entry_get_data (res6, &n_indices) : NULL;

  n_indices /= 2;

  for (guint i = 0; i < n; i++)
    {
      MshedBatch batch;

      if (!mshed_model_get_batch (b, i, &batch))
        continue;
      for (guint t = 0; t + 3 <= batch.index_count; t += 3)
        {
          gboolean hit = FALSE;

          for (guint k = 0; k < 3; k++)
            {
              guint64 at = (guint64) batch.index_start + t + k;
              guint64 vertex;

              if (at < n_indices)
                {
                  vertex = (guint64) batch.base_vertex + mshed_read_u16 (indices + at * 2);
                  hit |= vertex < n_vertices && moved[vertex];
                }
            }
          count += hit;
        }
    }
  return count;
}

typedef struct {
  MshedModel *a;
  MshedModel *b;
} NodeKeys;

static gboolean
node_names_equal (gpointer data,
                  guint    i,
                  guint    j)
{
  NodeKeys *k = data;
  const guint8 *ta = NULL, *tb = NULL;
  guint32 la = 0, lb = 0;

  mshed_model_get_name_raw (k->a, i, &ta, &la);
  mshed_model_get_name_raw (k->b, j, &tb, &lb);
  return la == lb && (la == 0 || memcmp (ta, tb, la) == 0);
}

static char *
node_name (MshedModel *model,
           guint       node)
{
  const guint8 *text = NULL;
  guint32 len = 0;

  if (!mshed_model_get_name_raw (model, node, &text, &len))
    return NULL;
  return mshed_cp1251_to_utf8 (text, len, NULL);
}

/**
 * mshed_diff_align_nodes:
 *
 * Pairs the first @na nodes of @a with the first @nb of @b by their Res10 names, as the diff
 * aligns them (docs/diff.md §2.1): also the compare window's ghost colours.
 *
 * Returns: (transfer full): the MshedDiffPair list
 */
GArray *
mshed_diff_align_nodes (MshedModel *a,
                        MshedModel *b,
                        guint       na,
                        guint       nb)
{
  NodeKeys keys = { a, b };

  return mshed_diff_align (na, nb, node_names_equal, &keys, MSHED_DIFF_GAP_PAIR_EQUAL);
}

static void
diff_nodes (MshedDiff    *self,
            MshedModel   *a,
            MshedModel   *b,
            const guint8 *da,
            gsize         sa,
            const guint8 *db,
            gsize         sb)
{
  guint stride = mshed_model_get_node_stride (a);
  MshedDiffTable t = mshed_diff_msh_table (MSHED_TABLE_NODES, stride);
  NodeKeys keys = { a, b };
  guint na, nb;
  g_autoptr(GArray) pairs = NULL;
  g_autofree guint8 *mask = NULL;

  if (stride == 0 || stride != mshed_model_get_node_stride (b))
    {
      diff_bytes (self, MSHED_TABLE_NODES, t.table_name, da, sa, db, sb, 0);
      return;
    }
  mask = mshed_diff_table_mask (&t);
  na = (guint) (sa / stride);
  nb = (guint) (sb / stride);
  pairs = mshed_diff_align_nodes (a, b, na, nb);
  for (guint p = 0; p < pairs->len; p++)
    {
      MshedDiffPair pr = g_array_index (pairs, MshedDiffPair, p);
      MshedDiffItem item;

      if (pr.a != MSHED_DIFF_NO_ROW && pr.b != MSHED_DIFF_NO_ROW)
        {
          compare_record (self, &t, mask, da + (gsize) pr.a * stride,
                          db + (gsize) pr.b * stride, pr.a, pr.b, (gsize) pr.a * stride);
          if (!node_names_equal (&keys, pr.a, pr.b))
            {
              item = item_init (MSHED_DIFF_TEXT, MSHED_TABLE_NAMES, "names");
              item.row_a = pr.a;
              item.row_b = pr.b;
              item.old_value = node_name (a, pr.a);
              item.new_value = node_name (b, pr.b);
              item.res_a = mshed_model_find_resource (a, 10);
              item.res_b = mshed_model_find_resource (b, 10);
              item.res_type = 10;
              if (item.res_a >= 0)  /* inside the Res10 payload */
                item.offset = mshed_model_get_name_record_offset (a, pr.a) -
                              mshed_model_get_resource (a, 10)->data_offset;
              push (self, &item);
            }
          continue;
        }
      item = item_init (pr.a == MSHED_DIFF_NO_ROW ? MSHED_DIFF_ROW_ADDED
                        : MSHED_DIFF_ROW_REMOVED, MSHED_TABLE_NODES, t.table_name);
      item.row_a = pr.a;
      item.row_b = pr.b;
      if (pr.a != MSHED_DIFF_NO_ROW)
        {
          item.offset = (gsize) pr.a * stride;
          item.old_value = node_name (a, pr.a);
        }
      else
        item.new_value = node_name (b, pr.b);
      push (self, &item);
    }
  if (sa % stride != 0 || sb % stride != 0)
    diff_bytes (self, MSHED_TABLE_NODES, t.table_name, da + (gsize) na * stride, sa % stride,
                db + (gsize) nb * stride, sb % stride, (gsize) na * stride);
}

static void
diff_msh_payload (MshedDiff    *self,
                  MshedModel   *a,
                  MshedModel   *b,
                  guint32       type,
                  const guint8 *da,
                  gsize         sa,
                  const guint8 *db,
                  gsize         sb)
{
  const MshedTableInfo *info;
  MshedDiffTable t;

  if (type == 1)
    {
      diff_nodes (self, a, b, da, sa, db, sb);
      return;
    }
  if (type == 10 && mshed_model_find_resource (a, 1) >= 0 &&
      mshed_model_find_resource (b, 1) >= 0)
    return;  /* the names, compared with their nodes */
  if (type == 2)
    {
      MshedDiffTable h = mshed_diff_msh_table (MSHED_TABLE_HEADER, 0);

      h.header = 0;
      if (sa >= MSHED_RES2_HEADER_SIZE && sb >= MSHED_RES2_HEADER_SIZE)
        mshed_diff_records (self, &h, da, MSHED_RES2_HEADER_SIZE, db, MSHED_RES2_HEADER_SIZE);
    }
  info = mshed_schema_table_for_type (type);
  if (info == NULL || info->stride == 0)
    {
      diff_bytes (self, MSHED_TABLE_NONE, NULL, da, sa, db, sb, 0);
      return;
    }
  t = mshed_diff_msh_table (info->id, 0);
  if (t.geometry)
    {
      t.count_triangles = msh_count_triangles;
      t.triangles_data = b;
    }
  mshed_diff_records (self, &t, da, sa, db, sb);
}

typedef struct {
  MshedNres *a;
  MshedNres *b;
} EntryKeys;

static gboolean
entries_equal (gpointer data,
               guint    i,
               guint    j)
{
  EntryKeys *k = data;
  const MshedNresEntry *ea = mshed_nres_peek_entry (k->a, i);
  const MshedNresEntry *eb = mshed_nres_peek_entry (k->b, j);

  return ea->type_id == eb->type_id && mshed_nres_name_compare (ea->name, eb->name) == 0;
}

static void
push_resource (MshedDiff            *self,
               MshedDiffKind         kind,
               const MshedNresEntry *e,
               gint                  res_a,
               gint                  res_b,
               gboolean              archive)
{
  MshedDiffItem item = item_init (kind, -1, NULL);
  g_autofree char *name = mshed_nres_entry_dup_name (e);
  g_autofree char *utf8 = mshed_cp1251_to_utf8 ((const guint8 *) name, strlen (name), NULL);
  const char *saved = self->entry;

  item.res_a = res_a;
  item.res_b = res_b;
  item.res_type = archive ? 0 : e->type_id;
  if (archive)
    self->entry = utf8;
  else if (kind == MSHED_DIFF_RESOURCE_ADDED)
    item.new_value = g_strdup (utf8);
  else
    item.old_value = g_strdup (utf8);
  push (self, &item);
  self->entry = saved;
}

static void
diff_attributes (MshedDiff            *self,
                 const MshedNresEntry *ea,
                 const MshedNresEntry *eb,
                 guint                 ia,
                 guint                 ib)
{
  const MshedTableInfo *dir = mshed_schema_get_table (MSHED_TABLE_DIRECTORY);
  static const char *const names[] = { "attr1", "attr2", "attr3" };
  guint32 va[3] = { ea->attr1, ea->attr2, ea->attr3 };
  guint32 vb[3] = { eb->attr1, eb->attr2, eb->attr3 };

  for (guint k = 0; k < 3; k++)
    {
      const MshedField *f = mshed_schema_find_field (dir, names[k]);
      guint8 ra[MSHED_NRES_RECORD_SIZE] = { 0 }, rb[MSHED_NRES_RECORD_SIZE] = { 0 };
      MshedDiffItem item;

      if (va[k] == vb[k])
        continue;
      mshed_write_u32 (ra + f->offset, va[k]);
      mshed_write_u32 (rb + f->offset, vb[k]);
      item = item_init (MSHED_DIFF_FIELD, MSHED_TABLE_DIRECTORY, dir->name);
      item.row_a = ia;
      item.row_b = ib;
      item.field = f->name;
      item.old_value = mshed_field_format (f, ra);
      item.new_value = mshed_field_format (f, rb);
      item.res_a = (gint) ia;
      item.res_b = (gint) ib;
      item.res_type = ea->type_id;
      push (self, &item);
    }
  if (memcmp (ea->name, eb->name, MSHED_NRES_NAME_SIZE) != 0)
    {
      g_autofree char *na = mshed_nres_entry_dup_name (ea);
      g_autofree char *nb = mshed_nres_entry_dup_name (eb);

      if (strcmp (na, nb) != 0)
        {
          MshedDiffItem item = item_init (MSHED_DIFF_TEXT, MSHED_TABLE_DIRECTORY, dir->name);

          item.row_a = ia;
          item.row_b = ib;
          item.field = "name";
          item.old_value = mshed_cp1251_to_utf8 ((const guint8 *) na, strlen (na), NULL);
          item.new_value = mshed_cp1251_to_utf8 ((const guint8 *) nb, strlen (nb), NULL);
          item.res_a = (gint) ia;
          item.res_b = (gint) ib;
          item.res_type = ea->type_id;
          push (self, &item);
        }
    }
}

static gboolean
payload_equal (const MshedNresEntry *ea,
               const MshedNresEntry *eb)
{
  gsize sa = 0, sb = 0;
  const guint8 *da = mshed_nres_entry_get_data (ea, &sa);
  const guint8 *db = mshed_nres_entry_get_data (eb, &sb);

  return sa == sb && (sa == 0 || memcmp (da, db, sa) == 0);
}

/* Res10 of the two models differs (the names are compared with their nodes). */
static gboolean
names_differ (MshedModel *a,
              MshedModel *b)
{
  const MshedNresEntry *ea = mshed_model_get_resource (a, 10);
  const MshedNresEntry *eb = mshed_model_get_resource (b, 10);

  if (ea == NULL || eb == NULL)
    return ea != eb;
  return !payload_equal (ea, eb);
}

static void
diff_models_into (MshedDiff  *self,
                  MshedModel *a,
                  MshedModel *b)
{
  EntryKeys keys = { mshed_model_get_nres (a), mshed_model_get_nres (b) };
  g_autoptr(GArray) pairs = mshed_diff_align (mshed_nres_get_n_entries (keys.a),
                                              mshed_nres_get_n_entries (keys.b),
                                              entries_equal, &keys, MSHED_DIFF_GAP_PAIR_NONE);

  for (guint p = 0; p < pairs->len; p++)
    {
      MshedDiffPair pr = g_array_index (pairs, MshedDiffPair, p);
      const MshedNresEntry *ea, *eb;
      const guint8 *da, *db;
      gsize sa = 0, sb = 0;

      set_address (self, -1, -1, 0, NULL);
      if (pr.b == MSHED_DIFF_NO_ROW)
        {
          push_resource (self, MSHED_DIFF_RESOURCE_REMOVED,
                         mshed_nres_peek_entry (keys.a, pr.a), (gint) pr.a, -1, FALSE);
          continue;
        }
      if (pr.a == MSHED_DIFF_NO_ROW)
        {
          push_resource (self, MSHED_DIFF_RESOURCE_ADDED,
                         mshed_nres_peek_entry (keys.b, pr.b), -1, (gint) pr.b, FALSE);
          continue;
        }
      ea = mshed_nres_peek_entry (keys.a, pr.a);
      eb = mshed_nres_peek_entry (keys.b, pr.b);
      diff_attributes (self, ea, eb, pr.a, pr.b);
      da = mshed_nres_entry_get_data (ea, &sa);
      db = mshed_nres_entry_get_data (eb, &sb);
      if (sa == sb && (sa == 0 || memcmp (da, db, sa) == 0) &&
          (ea->type_id != 1 || !names_differ (a, b)))
        continue;
      set_address (self, (gint) pr.a, (gint) pr.b, ea->type_id, NULL);
      diff_msh_payload (self, a, b, ea->type_id, da, sa, db, sb);
    }
  set_address (self, -1, -1, 0, NULL);
}

/**
 * mshed_diff_models:
 * @options: (nullable): tolerance and table filter; NULL: exact, every table
 *
 * Returns: (transfer full): the differences from @a to @b
 */
MshedDiff *
mshed_diff_models (MshedModel             *a,
                   MshedModel             *b,
                   const MshedDiffOptions *options)
{
  MshedDiff *self = diff_new (options);

  diff_models_into (self, a, b);
  return self;
}

/**
 * mshed_diff_archives:
 *
 * Entries aligned by type and name; entries only in one archive are added or removed; an
 * entry whose payload differs is a MSHED_DIFF_RESOURCE_CHANGED item followed by the diff of
 * the two models when both hold one (mshed_entry_holds_model), else by its byte ranges.
 *
 * Returns: (transfer full): the differences from @a to @b
 */
MshedDiff *
mshed_diff_archives (MshedNres              *a,
                     MshedNres              *b,
                     const MshedDiffOptions *options)
{
  MshedDiff *self = diff_new (options);
  EntryKeys keys = { a, b };
  g_autoptr(GArray) pairs = mshed_diff_align (mshed_nres_get_n_entries (a),
                                              mshed_nres_get_n_entries (b),
                                              entries_equal, &keys, MSHED_DIFF_GAP_PAIR_NONE);

  for (guint p = 0; p < pairs->len; p++)
    {
      MshedDiffPair pr = g_array_index (pairs, MshedDiffPair, p);
      const MshedNresEntry *ea, *eb;
      const guint8 *da, *db;
      gsize sa = 0, sb = 0;
      g_autofree char *raw = NULL, *name = NULL;

      if (pr.b == MSHED_DIFF_NO_ROW || pr.a == MSHED_DIFF_NO_ROW)
        {
          gboolean removed = pr.b == MSHED_DIFF_NO_ROW;

          push_resource (self, removed ? MSHED_DIFF_RESOURCE_REMOVED : MSHED_DIFF_RESOURCE_ADDED,
                         removed ? mshed_nres_peek_entry (a, pr.a)
                                 : mshed_nres_peek_entry (b, pr.b),
                         removed ? (gint) pr.a : -1, removed ? -1 : (gint) pr.b, TRUE);
          continue;
        }
      ea = mshed_nres_peek_entry (a, pr.a);
      eb = mshed_nres_peek_entry (b, pr.b);
      raw = mshed_nres_entry_dup_name (eb);
      name = mshed_cp1251_to_utf8 ((const guint8 *) raw, strlen (raw), NULL);
      self->entry = name;
      diff_attributes (self, ea, eb, pr.a, pr.b);
      da = mshed_nres_entry_get_data (ea, &sa);
      db = mshed_nres_entry_get_data (eb, &sb);
      if (!(sa == sb && (sa == 0 || memcmp (da, db, sa) == 0)))
        {
          g_autoptr(MshedModel) ma = NULL;
          g_autoptr(MshedModel) mb = NULL;

          self->entry = NULL;
          push_resource (self, MSHED_DIFF_RESOURCE_CHANGED, eb, (gint) pr.a, (gint) pr.b,
                         TRUE);
          self->entry = name;
          if (mshed_entry_holds_model (ea) && mshed_entry_holds_model (eb))
            {
              g_autoptr(GBytes) ba = mshed_nres_entry_dup_bytes (ea);
              g_autoptr(GBytes) bb = mshed_nres_entry_dup_bytes (eb);

              ma = mshed_model_new_from_bytes (ba, MSHED_MODE_TOLERANT, NULL, NULL);
              mb = mshed_model_new_from_bytes (bb, MSHED_MODE_TOLERANT, NULL, NULL);
            }
          if (ma && mb)
            diff_models_into (self, ma, mb);
          else
            {
              set_address (self, (gint) pr.a, (gint) pr.b, ea->type_id, NULL);
              diff_bytes (self, MSHED_TABLE_NONE, NULL, da, sa, db, sb, 0);
              set_address (self, -1, -1, 0, NULL);
            }
        }
      self->entry = NULL;
    }
  return self;
}

/* UTF files and deformable models (docs/diff.md §2.2) ----------------------------------- */

typedef struct {
  MshedDfm *dfm_a;
  MshedDfm *dfm_b;
} UtfCtx;

typedef struct {
  GPtrArray *a;
  GPtrArray *b;
} ChildKeys;

static gboolean
children_equal (gpointer data,
                guint    i,
                guint    j)
{
  ChildKeys *k = data;

  return mshed_utf_name_compare (mshed_utf_node_get_name (g_ptr_array_index (k->a, i)),
                                 mshed_utf_node_get_name (g_ptr_array_index (k->b, j))) == 0;
}

/* The children of @dir in order (the container for mshed_diff_align). */
GPtrArray *
mshed_diff_children (MshedUtfNode *dir)
{
  GPtrArray *out = g_ptr_array_new ();

  for (MshedUtfNode *c = mshed_utf_node_get_first_child (dir); c; c = mshed_utf_node_get_next (c))
    g_ptr_array_add (out, c);
  return out;
}

typedef struct {
  MshedDfm *dfm;
  guint     level;
} DfmTriangles;

static guint
dfm_count_triangles (gpointer      data,
                     const guint8 *moved,
                     guint         n_points)
{
  DfmTriangles *d = data;
  MshedDfmLevel level;
  MshedDfmArray pi;
  guint count = 0;

  if (!mshed_dfm_get_level (d->dfm, d->level, &level) ||
      !mshed_dfm_get_array (d->dfm, MSHED_DFM_TABLE_POINT_INDICES, d->level, 0, &pi))
    return 0;
  for (guint g = 0; g < level.n_groups; g++)
    {
      gsize n = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (d->dfm, d->level, g, &n);

      for (gsize t = 0; t < n; t++)
        {
          gboolean hit = FALSE;

          for (guint k = 0; k < 3; k++)
            {
              guint e = tris[3 * t + k];
              guint32 point;

              if (e >= pi.count)
                continue;
              point = mshed_read_u32 (pi.data + (gsize) e * 4);
              hit |= point < n_points && moved[point];
            }
          count += hit;
        }
    }
  return count;
}

static void
diff_utf_file (MshedDiff    *self,
               UtfCtx       *ctx,
               MshedUtfNode *fa,
               MshedUtfNode *fb)
{
  gsize sa = 0, sb = 0;
  const guint8 *da = mshed_utf_node_peek_data (fa, &sa);
  const guint8 *db = mshed_utf_node_peek_data (fb, &sb);
  MshedDfmTable table = MSHED_DFM_TABLE_NONE;
  const MshedDfmTableInfo *info = NULL;
  g_autofree char *path = NULL;
  static const guint8 empty[1] = { 0 };

  if (sa == sb && (sa == 0 || memcmp (da, db, sa) == 0))
    return;
  da = da ? da : empty;
  db = db ? db : empty;
  path = mshed_utf_node_dup_path (fb);
  set_address (self, -1, -1, 0, path);
  if (ctx->dfm_b)
    table = mshed_dfm_schema_table_for_node (fb);
  if (table != MSHED_DFM_TABLE_NONE)
    info = mshed_dfm_schema_get_table (table);
  if (info && info->stride == 0)
    {
      g_autofree char *ta = g_strndup ((const char *) da, sa);
      g_autofree char *tb = g_strndup ((const char *) db, sb);

      if (strcmp (ta, tb) != 0)
        {
          MshedDiffItem item = item_init (MSHED_DIFF_TEXT, table, info->name);

          item.old_value = mshed_cp1251_to_utf8 ((const guint8 *) ta, strlen (ta), NULL);
          item.new_value = mshed_cp1251_to_utf8 ((const guint8 *) tb, strlen (tb), NULL);
          push (self, &item);
        }
      else
        diff_bytes (self, table, info->name, da, sa, db, sb, 0);
    }
  else if (info)
    {
      MshedDiffTable t = mshed_diff_dfm_table (table);
      DfmTriangles tri = { ctx->dfm_b, 0 };

      if (t.geometry)
        for (guint l = 0; l < mshed_dfm_get_n_levels (ctx->dfm_b); l++)
          if (mshed_dfm_find_node (ctx->dfm_b, MSHED_DFM_TABLE_POINTS, l, 0) == fb)
            {
              tri.level = l;
              t.count_triangles = dfm_count_triangles;
              t.triangles_data = &tri;
            }
      mshed_diff_records (self, &t, da, sa, db, sb);
    }
  else
    diff_bytes (self, -1, NULL, da, sa, db, sb, 0);
  set_address (self, -1, -1, 0, NULL);
}

static void
push_node (MshedDiff     *self,
           MshedDiffKind  kind,
           MshedUtfNode  *node,
           const char    *old_name)
{
  MshedDiffItem item = item_init (kind, -1, NULL);
  g_autofree char *path = mshed_utf_node_dup_path (node);

  set_address (self, -1, -1, 0, path);
  if (kind == MSHED_DIFF_RENAMED)
    {
      item.old_value = mshed_utf_name_to_display (old_name);
      item.new_value = mshed_utf_name_to_display (mshed_utf_node_get_name (node));
    }
  push (self, &item);
  set_address (self, -1, -1, 0, NULL);
}

static void
diff_utf_dir (MshedDiff    *self,
              UtfCtx       *ctx,
              MshedUtfNode *da,
              MshedUtfNode *db)
{
  ChildKeys keys = { mshed_diff_children (da), mshed_diff_children (db) };
  g_autoptr(GArray) pairs = mshed_diff_align (keys.a->len, keys.b->len, children_equal, &keys,
                                              MSHED_DIFF_GAP_PAIR_EQUAL);

  for (guint p = 0; p < pairs->len; p++)
    {
      MshedDiffPair pr = g_array_index (pairs, MshedDiffPair, p);
      MshedUtfNode *na = pr.a != MSHED_DIFF_NO_ROW ? g_ptr_array_index (keys.a, pr.a) : NULL;
      MshedUtfNode *nb = pr.b != MSHED_DIFF_NO_ROW ? g_ptr_array_index (keys.b, pr.b) : NULL;

      if (na && nb && mshed_utf_node_is_directory (na) != mshed_utf_node_is_directory (nb))
        {
          push_node (self, MSHED_DIFF_RESOURCE_REMOVED, na, NULL);
          push_node (self, MSHED_DIFF_RESOURCE_ADDED, nb, NULL);
          continue;
        }
      if (nb == NULL)
        {
          push_node (self, MSHED_DIFF_RESOURCE_REMOVED, na, NULL);
          continue;
        }
      if (na == NULL)
        {
          push_node (self, MSHED_DIFF_RESOURCE_ADDED, nb, NULL);
          continue;
        }
      if (strcmp (mshed_utf_node_get_name (na), mshed_utf_node_get_name (nb)) != 0)
        push_node (self, MSHED_DIFF_RENAMED, nb, mshed_utf_node_get_name (na));
      if (mshed_utf_node_is_directory (nb))
        diff_utf_dir (self, ctx, na, nb);
      else
        diff_utf_file (self, ctx, na, nb);
    }
  g_ptr_array_unref (keys.a);
  g_ptr_array_unref (keys.b);
}

/**
 * mshed_diff_utf:
 *
 * Two UTF trees, nodes aligned by name ignoring case; the files of deformable models (when
 * both trees are one) compared as the typed tables of mshed-dfm-schema.h.
 *
 * Returns: (transfer full): the differences from @a to @b
 */
MshedDiff *
mshed_diff_utf (MshedUtf               *a,
                MshedUtf               *b,
                const MshedDiffOptions *options)
{
  MshedDiff *self = diff_new (options);
  UtfCtx ctx = { NULL, NULL };

  if (mshed_utf_looks_like_dfm (a) && mshed_utf_looks_like_dfm (b))
    {
      ctx.dfm_a = mshed_dfm_new (a, MSHED_MODE_TOLERANT, NULL, NULL);
      ctx.dfm_b = mshed_dfm_new (b, MSHED_MODE_TOLERANT, NULL, NULL);
      if (ctx.dfm_a == NULL || ctx.dfm_b == NULL)
        {
          g_clear_pointer (&ctx.dfm_a, mshed_dfm_unref);
          g_clear_pointer (&ctx.dfm_b, mshed_dfm_unref);
        }
    }
  diff_utf_dir (self, &ctx, mshed_utf_get_root (a), mshed_utf_get_root (b));
  g_clear_pointer (&ctx.dfm_a, mshed_dfm_unref);
  g_clear_pointer (&ctx.dfm_b, mshed_dfm_unref);
  return self;
}

/**
 * mshed_diff_documents:
 *
 * Returns: (transfer full) (nullable): the differences from @a to @b, NULL when the two
 *   documents hold different containers
 */
MshedDiff *
mshed_diff_documents (MshedDocument          *a,
                      MshedDocument          *b,
                      const MshedDiffOptions *options,
                      GError                **error)
{
  if (mshed_document_get_container (a) != mshed_document_get_container (b))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Cannot compare “%s” with “%s”: one is a model, the other a UTF file"),
                   mshed_document_get_title (a), mshed_document_get_title (b));
      return NULL;
    }
  if (mshed_document_get_model (a))
    return mshed_diff_models (mshed_document_get_model (a), mshed_document_get_model (b),
                              options);
  return mshed_diff_utf (mshed_document_get_utf (a), mshed_document_get_utf (b), options);
}
