/* mshed-nres-layout.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The lossless layout of an edited non-canonical NRes archive, and the list of what a repack
 * would drop.
 *
 * docs/nres.md §6 says a lossless editor keeps bytes that no directory record references unless the
 * user explicitly asks for a compacting repack; §7.3 says to keep the original bytes and offsets
 * of untouched entries of a non-canonical archive, and that when a payload changes size
 * "everything after it moves". §8 requires nothing of the data region beyond bounds, so the
 * regions may lie in any order, overlap, or leave gaps.
 *
 * The algorithm works on the source file in FILE order, not directory order:
 *
 *  1. Every entry that came from the source contributes its source region [orig_offset,
 *     orig_offset + orig_size); every entry removed since load contributes its region as a
 *     region that shrinks to nothing. A region is "resized" when its payload size changed.
 *  2. The regions are sorted by offset (then size, then directory index) and grouped into
 *     clusters of regions that overlap (share at least one byte). Everything between clusters
 *     (gaps, foreign bytes, padding) is unreferenced and is copied as it is.
 *  3. A running shift `delta` (a multiple of 8, so every moved payload keeps its position
 *     modulo 8, hence its 8-byte alignment, §6) is added to every copied source position:
 *       - a cluster with no resized region is copied as it is, shifted by delta; its entries
 *         keep their relative position (delta 0 before the first resized region: untouched
 *         entries before it keep their offsets);
 *       - a cluster of one resized region is rewritten: the new payload at the old start +
 *         delta, zero padding to the next multiple of 8 (relative to the old start, §6), and the
 *         old padding is consumed when it was all zero (canonical padding, §6); non-zero bytes
 *         there are foreign data and are kept after the new padding. Then
 *         delta = ceil8 (end of the new padded payload - end of the old one), so everything
 *         after it in the file (payloads and unreferenced bytes alike) shifts by the size
 *         difference, as the engine does for a canonical archive (§6, last paragraph);
 *       - a cluster of several overlapping regions with a resized one cannot be shifted without
 *         breaking the regions that share its bytes: its bytes are copied as they are (the
 *         other entries keep reading them), and each resized payload is placed at the end of
 *         the data region instead (step 4).
 *  4. After the last cluster and the bytes up to the old directory, the payloads that have no
 *     place yet (relocated ones, entries inserted since load) follow in directory order, each at
 *     the next multiple of 8.
 *  5. The directory follows (at the next multiple of 8 when payloads were appended, else right
 *     where the shifted data region ends, like the source); total_size = directory + 64 * count
 *     (§2). Bytes the source had after its total_size are kept after the new directory.
 *
 * With no resized region every delta is 0 and the result is the source with payloads patched in
 * place. Applied to a canonical source the same rules give the §7.1 layout, which is why a
 * canonical source is simply rebuilt canonically (mshed-nres.c).
 */
#define G_LOG_DOMAIN "mshed-nres"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-nres-private.h"

typedef struct {
  guint64 start;
  guint64 size;
  gint    index;    /* directory index, -1 for a removed entry */
  gboolean resized; /* size changed, or removed */
} Region;

static int
region_cmp (gconstpointer a,
            gconstpointer b)
{
  const Region *ra = a;
  const Region *rb = b;

  if (ra->start != rb->start)
    return ra->start < rb->start ? -1 : 1;
  if (ra->size != rb->size)
    return ra->size < rb->size ? -1 : 1;
  /* removed entries (-1) sort after live ones at the same place */
  if (ra->index != rb->index)
    return (guint) ra->index < (guint) rb->index ? -1 : 1;
  return 0;
}

static inline guint64
align8 (guint64 v)
{
  return (v + 7) & ~(guint64) 7;
}

/* The smallest multiple of 8 that is >= v, for a signed v. */
static inline gint64
ceil8 (gint64 v)
{
  return v >= 0 ? (v + 7) / 8 * 8 : -((-v) / 8 * 8);
}

guint64
_mshed_nres_source_dir (const MshedNres *self,
                        guint64         *total)
{
  const guint8 *src = g_bytes_get_data (self->source, NULL);
  guint64 t = mshed_read_u32 (src + 12);

  if (total)
    *total = t;
  return t - (guint64) mshed_read_u32 (src + 8) * MSHED_NRES_RECORD_SIZE;
}

static GArray *
collect_regions (const MshedNres *self)
{
  GArray *regions = g_array_new (FALSE, FALSE, sizeof (Region));

  for (guint i = 0; i < self->entries->len; i++)
    {
      const MshedNresEntry *e = &g_array_index (self->entries, MshedNresEntry, i);
      Region r = { e->orig_offset, e->orig_size, (gint) i, FALSE };

      if (!e->in_source)
        continue;
      r.resized = mshed_nres_entry_get_size (e) != e->orig_size;
      g_array_append_val (regions, r);
    }
  for (guint i = 0; self->removed && i < self->removed->len; i++)
    {
      const MshedNresBlock *b = &g_array_index (self->removed, MshedNresBlock, i);
      Region r = { b->offset, b->size, -1, TRUE };

      g_array_append_val (regions, r);
    }
  g_array_sort (regions, region_cmp);
  return regions;
}

static void
plan_copy (MshedNresPlan *plan,
           guint64        from,
           guint64        to,
           gint64         delta)
{
  MshedNresCopy c = { from, (guint64) ((gint64) from + delta), to - from };

  if (to > from)
    g_array_append_val (plan->copies, c);
}

static gboolean
all_zero (const guint8 *data,
          guint64       from,
          guint64       to)
{
  for (guint64 p = from; p < to; p++)
    if (data[p] != 0)
      return FALSE;
  return TRUE;
}

/**
 * _mshed_nres_plan_lossless:
 * @plan: (out caller-allocates): filled in; release with _mshed_nres_plan_clear()
 *
 * Lays out an edited archive that has a source, following the rules at the top of this file.
 */
void
_mshed_nres_plan_lossless (const MshedNres *self,
                           MshedNresPlan   *plan)
{
  gsize len = 0;
  const guint8 *src = g_bytes_get_data (self->source, &len);
  guint n = self->entries->len;
  guint64 src_total, src_dir = _mshed_nres_source_dir (self, &src_total);
  g_autoptr(GArray) regions = collect_regions (self);
  g_autofree guint8 *placed = g_malloc0 (n + 1);
  gint64 delta = 0;
  guint64 cursor = MSHED_NRES_HEADER_SIZE, pos;
  gboolean appended = FALSE;
  guint k = 0;

  plan->offsets = g_new0 (guint64, n + 1);
  plan->write = g_malloc0 (n + 1);
  plan->copies = g_array_new (FALSE, FALSE, sizeof (MshedNresCopy));
  plan->trailer = len > src_total ? len - src_total : 0;

  while (k < regions->len)
    {
      const Region *first = &g_array_index (regions, Region, k);
      guint64 c_start = first->start, c_end = first->start + first->size;
      guint j = k + 1, n_resized = first->resized;

      while (j < regions->len && g_array_index (regions, Region, j).start < c_end)
        {
          const Region *r = &g_array_index (regions, Region, j);

          c_end = MAX (c_end, r->start + r->size);
          n_resized += r->resized;
          j++;
        }
      plan_copy (plan, cursor, c_start, delta);

      if (n_resized == 1 && j == k + 1)
        {
          /* one resized payload: rewrite it, shift what follows */
          guint64 next = j < regions->len ? g_array_index (regions, Region, j).start : src_dir;
          guint64 pad_end = MIN (c_start + align8 (c_end - c_start), MIN (next, src_dir));
          guint64 at = (guint64) ((gint64) c_start + delta), out_end = at;

          if (pad_end < c_end || !all_zero (src, c_end, pad_end))
            pad_end = c_end;  /* foreign bytes in the padding: keep them as data */
          if (first->index >= 0)
            {
              guint64 size = mshed_nres_entry_get_size (&g_array_index (self->entries,
                                                                        MshedNresEntry,
                                                                        first->index));

              plan->offsets[first->index] = at;
              plan->write[first->index] = TRUE;
              placed[first->index] = TRUE;
              out_end = at + align8 (size);
            }
          delta = ceil8 ((gint64) out_end - (gint64) pad_end);
          cursor = pad_end;
        }
      else
        {
          /* untouched, or overlapping regions: the bytes stay; resized members go to the end */
          plan_copy (plan, c_start, c_end, delta);
          for (guint m = k; m < j; m++)
            {
              const Region *r = &g_array_index (regions, Region, m);
              const MshedNresEntry *e;

              if (r->index < 0 || r->resized)
                continue;
              e = &g_array_index (self->entries, MshedNresEntry, r->index);
              plan->offsets[r->index] = (guint64) ((gint64) r->start + delta);
              plan->write[r->index] = e->touched;
              placed[r->index] = TRUE;
            }
          cursor = MAX (cursor, c_end);
        }
      k = j;
    }
  plan_copy (plan, cursor, src_dir, delta);

  /* relocated and inserted payloads, in directory order, before the directory */
  pos = (guint64) ((gint64) src_dir + delta);
  for (guint i = 0; i < n; i++)
    {
      if (placed[i])
        continue;
      pos = align8 (pos);
      plan->offsets[i] = pos;
      plan->write[i] = TRUE;
      pos += mshed_nres_entry_get_size (&g_array_index (self->entries, MshedNresEntry, i));
      appended = TRUE;
    }
  plan->dir_offset = appended ? align8 (pos) : pos;
  plan->total = plan->dir_offset + (guint64) n * MSHED_NRES_RECORD_SIZE;
}

void
_mshed_nres_plan_clear (MshedNresPlan *plan)
{
  g_clear_pointer (&plan->offsets, g_free);
  g_clear_pointer (&plan->write, g_free);
  g_clear_pointer (&plan->copies, g_array_unref);
}

/**
 * mshed_nres_list_unreferenced:
 *
 * The bytes of the source that no current entry references and that a repack
 * (mshed_nres_repack) therefore drops: gaps and foreign bytes of the data region, non-zero
 * padding, payloads of entries removed since load, and bytes after the stored total_size.
 * Zero padding up to the next multiple of 8 after a payload is not listed (§6: a repack
 * writes it again).
 *
 * Returns: (transfer full) (element-type MshedNresBlock): the blocks in file order, offsets
 *   relative to the start of the archive; empty for a new archive
 */
GArray *
mshed_nres_list_unreferenced (const MshedNres *self)
{
  GArray *blocks = g_array_new (FALSE, FALSE, sizeof (MshedNresBlock));
  g_autoptr(GArray) regions = NULL;
  const guint8 *src;
  gsize len = 0;
  guint64 src_total, src_dir, cursor = MSHED_NRES_HEADER_SIZE;
  gboolean after_payload = FALSE;

  if (self->source == NULL)
    return blocks;
  src = g_bytes_get_data (self->source, &len);
  src_dir = _mshed_nres_source_dir (self, &src_total);
  regions = collect_regions (self);
  for (guint k = 0; k <= regions->len; k++)
    {
      const Region *r = k < regions->len ? &g_array_index (regions, Region, k) : NULL;
      guint64 start = r ? r->start : src_dir;

      if (r && r->index < 0)
        continue;  /* a removed entry's bytes are unreferenced now */
      if (start > cursor)
        {
          MshedNresBlock b = { cursor, start - cursor };
          guint64 pad_end = MIN (align8 (cursor), start);

          /* the zero padding right after a payload is no data */
          if (after_payload && all_zero (src, cursor, pad_end))
            {
              b.offset = pad_end;
              b.size = start - pad_end;
            }
          if (b.size > 0)
            g_array_append_val (blocks, b);
        }
      if (r)
        {
          cursor = MAX (cursor, r->start + r->size);
          after_payload = TRUE;
        }
    }
  if (len > src_total)
    {
      MshedNresBlock b = { src_total, len - src_total };

      g_array_append_val (blocks, b);
    }
  return blocks;
}
