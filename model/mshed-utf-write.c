/* mshed-utf-write.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing a UTF tree. The layout rules, with the sections of docs/utf.md they follow:
 *
 * Unmodified file (§7 items 1–5): the source bytes, unchanged.
 *
 * Edited file, "patch, don't regenerate" (§7): the output is the source with byte ranges
 * inserted and deleted, and every entry of the tree rewritten in place from its node; an entry,
 * name or payload that no edit touched keeps its bytes, and only offsets that point past an
 * inserted or deleted range change (by the size of that range). In detail:
 *
 * - Header (§2): every field is kept except the region offsets and sizes the edits change;
 *   `entryOffset`, `unusedOffset` and `unusedSize` are kept as read, never interpreted.
 * - Regions (§1): keep their order and the bytes between and after them.
 * - Tree block (§3): every entry stays where it was. New entries are appended after the last
 *   whole 44-byte slot of the block (before trailing bytes that are no entry), in pre-order.
 *   The slots of removed entries are cut out of the block. Links (`nextOffset`,
 *   `childOffset`) follow the structure of the tree; the root's `nextOffset` is kept (§3.2).
 *   Untouched entries keep `sharingAttributes`, their three sizes and their timestamps.
 * - Dictionary (§4): kept byte for byte, including names no entry uses any more and the unused
 *   allocated tail. A node whose name did not change keeps its `nameOffset`. A changed or new
 *   name reuses an identical string that starts a name of the source dictionary (exact bytes:
 *   names that differ only in case stay distinct, §3.4), else it is appended after
 *   `namesSizeUsed`, first into the unused allocated bytes, then into bytes inserted after the
 *   allocation; `namesSizeAllocated` then becomes `(used + 3) & ~3` (Librelancer's rule, §4).
 * - Data block (§5): payloads stay where they were; unreferenced bytes and padding are kept.
 *   A new payload of an existing file that is not shared with another file (§5: shared ranges
 *   are legal) is written in place: when it fits in `dataSizeAllocated` the allocation keeps
 *   its size and the rest of it is zero-filled (§7: zero, as Librelancer); when it is larger,
 *   the allocation grows to `(len + 3) & ~3` and only the bytes after it move. A shared
 *   payload that changes, and the payloads of new files, are appended after the last
 *   payload, each allocated `(len + 3) & ~3` and zero-filled (§8 item 4). A payload range that
 *   no remaining file uses (a removed file's, or the old range of a moved one) is cut out.
 * - New entries (§7 "one documented policy"): attributes 0x10 or 0x80, `sharingAttributes` 0,
 *   directories with sizes 0, all three timestamps = the container's new-entry time
 *   (mshed_utf_set_new_entry_time; the current local time by default). Edited entries keep
 *   their timestamps.
 *
 * A source whose regions overlap each other or the header (mshed_utf_is_patchable) cannot be
 * patched safely; an edited one is written canonically and the caller is told.
 *
 * Canonical layout (§8), for new trees and on request: header; entries in depth-first
 * pre-order from offset 56 (root first); the dictionary right after, distinct names by exact
 * bytes in order of first appearance, allocated `(used + 3) & ~3` with zeros; the data block
 * after the allocated dictionary, each payload allocated `(len + 3) & ~3` with zeros and not
 * shared; `entryOffset`, `unusedOffset`, `unusedSize` and `sharingAttributes` 0; directories
 * with sizes 0; attributes keep their other bits but get exactly one of 0x10 and 0x80 (§3.1);
 * timestamps and the header FILETIME as the tree has them.
 */
#define G_LOG_DOMAIN "mshed-utf"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-utf-private.h"

#define ALIGN4(x) (((x) + 3) & ~(guint64) 3)

static void
write_entry (guint8        *p,
             const guint32  f[N_FIELDS])
{
  for (guint i = 0; i < N_FIELDS; i++)
    mshed_write_u32 (p + 4 * i, f[i]);
}

static void
write_header (guint8               *out,
              const MshedUtfHeader *h)
{
  mshed_write_u32 (out + 0, h->signature);
  mshed_write_u32 (out + 4, h->version);
  mshed_write_u32 (out + 8, h->tree_offset);
  mshed_write_u32 (out + 12, h->tree_size);
  mshed_write_u32 (out + 16, h->entry_offset);
  mshed_write_u32 (out + 20, h->entry_size);
  mshed_write_u32 (out + 24, h->names_offset);
  mshed_write_u32 (out + 28, h->names_size_allocated);
  mshed_write_u32 (out + 32, h->names_size_used);
  mshed_write_u32 (out + 36, h->data_offset);
  mshed_write_u32 (out + 40, h->unused_offset);
  mshed_write_u32 (out + 44, h->unused_size);
  mshed_write_u32 (out + 48, (guint32) (h->filetime & 0xFFFFFFFFu));
  mshed_write_u32 (out + 52, (guint32) (h->filetime >> 32));
}

static gboolean
too_large (guint64  total,
           GError **error)
{
  if (total <= G_MAXUINT32)
    return FALSE;
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
               _("The UTF file would be %" PRIu64 " bytes long; its 32-bit offsets reach "
                 "4 GiB at most"), total);
  return TRUE;
}

static GPtrArray *
preorder (MshedUtf *self)
{
  GPtrArray *nodes = g_ptr_array_new ();

  for (MshedUtfNode *n = self->root; n; n = mshed_utf_node_next_preorder (n, self->root))
    g_ptr_array_add (nodes, n);
  return nodes;
}

/* §3.1: exactly one of the two kind bits, the others kept */
static guint32
canonical_attributes (const MshedUtfNode *n)
{
  guint32 keep = n->is_dir ? MSHED_UTF_ATTR_DIRECTORY : MSHED_UTF_ATTR_FILE;
  guint32 drop = n->is_dir ? MSHED_UTF_ATTR_FILE : MSHED_UTF_ATTR_DIRECTORY;

  return (n->attributes | keep) & ~drop;
}

/* Canonical layout, §8 ------------------------------------------------------------------- */

static GBytes *
build_canonical (MshedUtf  *self,
                 GError   **error)
{
  g_autoptr(GPtrArray) nodes = preorder (self);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GByteArray) dict = g_byte_array_new ();
  guint64 n = nodes->len, tree_size = n * MSHED_UTF_ENTRY_SIZE, names_alloc, data_size = 0;
  MshedUtfHeader h = { 0 };
  guint64 total;
  guint8 *out;

  for (guint i = 0; i < nodes->len; i++)
    {
      MshedUtfNode *node = g_ptr_array_index (nodes, i);
      gpointer found;

      node->out_slot = (guint32) (i * MSHED_UTF_ENTRY_SIZE);
      if (g_hash_table_lookup_extended (names, node->name, NULL, &found))
        node->out_name = GPOINTER_TO_UINT (found);
      else
        {
          node->out_name = dict->len;
          g_hash_table_insert (names, node->name, GUINT_TO_POINTER (dict->len));
          g_byte_array_append (dict, (const guint8 *) node->name, strlen (node->name) + 1);
        }
      if (!node->is_dir)
        {
          node->out_data = (guint32) MIN (data_size, G_MAXUINT32);
          node->out_alloc = (guint32) MIN (ALIGN4 (g_bytes_get_size (node->data)), G_MAXUINT32);
          data_size += ALIGN4 (g_bytes_get_size (node->data));
        }
    }
  names_alloc = ALIGN4 (dict->len);
  total = MSHED_UTF_HEADER_SIZE + tree_size + names_alloc + data_size;
  if (too_large (total, error))
    return NULL;

  h.signature = MSHED_UTF_SIGNATURE;
  h.version = MSHED_UTF_VERSION;
  h.tree_offset = MSHED_UTF_HEADER_SIZE;
  h.tree_size = (guint32) tree_size;
  h.entry_size = MSHED_UTF_ENTRY_SIZE;
  h.names_offset = (guint32) (MSHED_UTF_HEADER_SIZE + tree_size);
  h.names_size_allocated = (guint32) names_alloc;
  h.names_size_used = dict->len;
  h.data_offset = (guint32) (h.names_offset + names_alloc);
  h.filetime = self->header.filetime;

  out = g_malloc0 (total);
  write_header (out, &h);
  memcpy (out + h.names_offset, dict->data, dict->len);
  for (guint i = 0; i < nodes->len; i++)
    {
      MshedUtfNode *node = g_ptr_array_index (nodes, i);
      guint32 f[N_FIELDS] = { 0 };

      f[F_NEXT] = node->next && node->parent ? node->next->out_slot : 0;
      f[F_NAME] = node->out_name;
      f[F_ATTR] = canonical_attributes (node);
      if (node->is_dir)
        f[F_CHILD] = node->first_child ? node->first_child->out_slot : 0;
      else
        {
          gsize size = 0;
          const guint8 *data = g_bytes_get_data (node->data, &size);

          f[F_CHILD] = node->out_data;
          f[F_ALLOC] = node->out_alloc;
          f[F_USED] = f[F_UNCOMPRESSED] = (guint32) size;
          if (size)
            memcpy (out + h.data_offset + node->out_data, data, size);
        }
      f[F_CTIME] = node->times[0];
      f[F_ATIME] = node->times[1];
      f[F_MTIME] = node->times[2];
      write_entry (out + MSHED_UTF_HEADER_SIZE + node->out_slot, f);
    }
  return g_bytes_new_take (out, total);
}

/* Patching, §7 --------------------------------------------------------------------------- */

typedef enum {
  R_NONE,   /* an item: inserts at its offset go before it */
  R_TREE,
  R_NAMES,
  R_DATA,
} RegionId;

typedef enum {
  RANK_GROW,     /* a payload growing in place: before anything else that starts there */
  RANK_APPEND,   /* entries, names or payloads appended at the end of a region */
  RANK_DELETE,
} Rank;

typedef struct {
  guint64  pos;
  guint64  del;
  guint64  ins;
  RegionId owner;
  Rank     rank;
  guint    seq;
  guint64  out_pos;   /* where the inserted bytes landed */
} Splice;

typedef struct {
  guint64 start;
  guint64 end;
} Range;

static int
splice_cmp (gconstpointer a,
            gconstpointer b)
{
  const Splice *x = a, *y = b;

  if (x->pos != y->pos)
    return _mshed_utf_cmp_u64 (x->pos, y->pos);
  if (x->rank != y->rank)
    return _mshed_utf_cmp_u64 (x->rank, y->rank);
  return _mshed_utf_cmp_u64 (x->seq, y->seq);
}

static int
range_cmp (gconstpointer a,
           gconstpointer b)
{
  const Range *x = a, *y = b;

  if (x->start != y->start)
    return _mshed_utf_cmp_u64 (x->start, y->start);
  return _mshed_utf_cmp_u64 (x->end, y->end);
}

typedef struct {
  MshedUtf     *utf;
  const guint8 *src;
  gsize         len;
  GArray       *splices;    /* Splice, sorted before mapping */
  gint64       *cum;        /* cum[i] = net size change of splices 0..i-1 */
} Patch;

static void
add_splice (Patch   *p,
            guint64  pos,
            guint64  del,
            guint64  ins,
            RegionId owner,
            Rank     rank)
{
  Splice s = { pos, del, ins, owner, rank, p->splices->len, 0 };

  g_array_append_val (p->splices, s);
}

/* Where source byte @x lands. Bytes inside a cut range land where the cut was. Inserts at @x
 * go before it, except those of @region: @x is the start of that region (an empty region
 * keeps its start in front of what is appended to it) or of an empty payload in it. */
static guint64
map_pos (const Patch *p,
         guint64      x,
         RegionId     region)
{
  GArray *sp = p->splices;
  guint lo = 0, hi = sp->len;
  gint64 delta;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (sp, Splice, mid).pos < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  delta = p->cum[lo];
  if (lo > 0)
    {
      const Splice *before = &g_array_index (sp, Splice, lo - 1);

      if (before->del && x < before->pos + before->del)
        delta += (gint64) (before->pos + before->del - x);
    }
  for (guint i = lo; i < sp->len; i++)
    {
      const Splice *s = &g_array_index (sp, Splice, i);

      if (s->pos != x)
        break;
      if (s->ins && !(region != R_NONE && s->owner == region))
        delta += (gint64) s->ins;
    }
  return (guint64) ((gint64) x + delta);
}

static gboolean
data_unchanged (const MshedUtfNode   *n,
                const MshedUtfSource *s)
{
  return n->data == s->data || g_bytes_equal (n->data, s->data);
}

/* Cuts @cand (sorted) minus @keep (sorted, merged) out of the data block. */
static void
cut_unused_payloads (Patch  *p,
                     GArray *cand,
                     GArray *keep)
{
  guint k = 0;
  Range cur = { 0, 0 };

  g_array_sort (cand, range_cmp);
  for (guint i = 0; i <= cand->len; i++)
    {
      Range next = i < cand->len ? g_array_index (cand, Range, i) : (Range) { G_MAXUINT64, 0 };

      if (i < cand->len && next.start <= cur.end && cur.end > cur.start)
        {
          cur.end = MAX (cur.end, next.end);
          continue;
        }
      /* emit cur minus keep */
      while (cur.end > cur.start)
        {
          guint64 piece_end;

          while (k < keep->len && g_array_index (keep, Range, k).end <= cur.start)
            k++;
          if (k < keep->len && g_array_index (keep, Range, k).start <= cur.start)
            {
              cur.start = MIN (cur.end, g_array_index (keep, Range, k).end);
              continue;
            }
          piece_end = k < keep->len ? MIN (cur.end, g_array_index (keep, Range, k).start)
                                    : cur.end;
          add_splice (p, cur.start, piece_end - cur.start, 0, R_DATA, RANK_DELETE);
          cur.start = piece_end;
        }
      cur = next;
    }
}

static GArray *
merge_ranges (GArray *ranges)
{
  GArray *merged = g_array_new (FALSE, FALSE, sizeof (Range));

  g_array_sort (ranges, range_cmp);
  for (guint i = 0; i < ranges->len; i++)
    {
      Range r = g_array_index (ranges, Range, i);

      if (merged->len && r.start <= g_array_index (merged, Range, merged->len - 1).end)
        {
          Range *last = &g_array_index (merged, Range, merged->len - 1);

          last->end = MAX (last->end, r.end);
        }
      else
        g_array_append_val (merged, r);
    }
  return merged;
}

typedef enum {
  PLACE_NONE,
  PLACE_KEEP,      /* unchanged payload where it was */
  PLACE_IN_PLACE,  /* new payload in the old allocation, possibly grown */
  PLACE_APPEND,    /* new payload after the last one */
} Placement;

static GBytes *
build_patched (MshedUtf  *self,
               GError   **error)
{
  const MshedUtfHeader *h = &self->header;
  Patch p = { self, NULL, 0, NULL, NULL };
  g_autoptr(GPtrArray) nodes = preorder (self);
  GArray *src = self->src;
  g_autofree guint8 *claimed = g_malloc0 (src->len + 1);
  g_autofree guint8 *placement = g_malloc0 (nodes->len + 1);
  g_autofree const MshedUtfSource **srcs = g_new0 (const MshedUtfSource *, nodes->len + 1);
  g_autoptr(GArray) splices = g_array_new (FALSE, FALSE, sizeof (Splice));
  g_autoptr(GArray) keep_raw = g_array_new (FALSE, FALSE, sizeof (Range));
  g_autoptr(GArray) cand = g_array_new (FALSE, FALSE, sizeof (Range));
  g_autoptr(GArray) keep = NULL;
  g_autoptr(GHashTable) dict = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GByteArray) new_names = g_byte_array_new ();
  g_autoptr(GHashTable) new_name_at = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 t0 = h->tree_offset, n0 = h->names_offset, d0 = h->data_offset;
  guint64 names_ext = MAX (h->names_size_allocated, h->names_size_used);
  guint64 tree_ins_at, data_end = d0, append_size = 0, total, removed = 0, added = 0;
  guint64 used2 = h->names_size_used, alloc2 = h->names_size_allocated;
  MshedUtfHeader h2 = *h;
  guint8 *out;
  guint tree_splice = G_MAXUINT, data_splice;

  p.src = g_bytes_get_data (self->source, &p.len);
  p.splices = splices;

  /* which source entries live on (a node copied into two places claims its entry once) */
  for (guint i = 0; i < nodes->len; i++)
    {
      MshedUtfNode *n = g_ptr_array_index (nodes, i);
      const MshedUtfSource *s = _mshed_utf_node_source (self, n);

      if (s && !claimed[n->src])
        {
          claimed[n->src] = 1;
          srcs[i] = s;
        }
    }

  /* tree block: cut removed entries, append new ones after the last whole slot */
  tree_ins_at = h->tree_size - h->tree_size % MSHED_UTF_ENTRY_SIZE;
  for (guint i = 0; i < src->len; i++)
    {
      const MshedUtfSource *s = &g_array_index (src, MshedUtfSource, i);

      if (s->slot < tree_ins_at && s->slot + MSHED_UTF_ENTRY_SIZE > tree_ins_at)
        tree_ins_at = h->tree_size;   /* a misaligned entry straddles it (tolerant reads) */
      if (s->is_file)
        data_end = MAX (data_end, s->ext_start + s->ext_len);
      if (!claimed[i])
        {
          add_splice (&p, t0 + s->slot, MSHED_UTF_ENTRY_SIZE, 0, R_TREE, RANK_DELETE);
          removed++;
        }
    }
  for (guint i = 0; i < nodes->len; i++)
    added += srcs[i] == NULL;
  if (added)
    {
      tree_splice = splices->len;
      add_splice (&p, t0 + tree_ins_at, 0, added * MSHED_UTF_ENTRY_SIZE, R_TREE, RANK_APPEND);
    }

  /* dictionary: names that start a source string can be shared (§4) */
  for (guint64 off = 0; off < h->names_size_used;)
    {
      const guint8 *start = p.src + n0 + off;
      const guint8 *nul = memchr (start, 0, h->names_size_used - off);

      if (nul == NULL)
        break;
      if (!g_hash_table_contains (dict, start))
        g_hash_table_insert (dict, (gpointer) start, GUINT_TO_POINTER ((guint) off));
      off += (guint64) (nul - start) + 1;
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      MshedUtfNode *n = g_ptr_array_index (nodes, i);
      const MshedUtfSource *s = srcs[i];
      gpointer found;

      if (s && strcmp (n->name, s->name) == 0)
        n->out_name = s->f[F_NAME];
      else if (g_hash_table_lookup_extended (dict, n->name, NULL, &found))
        n->out_name = GPOINTER_TO_UINT (found);
      else if (g_hash_table_lookup_extended (new_name_at, n->name, NULL, &found))
        n->out_name = GPOINTER_TO_UINT (found);
      else
        {
          guint64 at = h->names_size_used + new_names->len;

          if (at > G_MAXUINT32)
            {
              (void) too_large (n0 + at, error);
              return NULL;
            }
          n->out_name = (guint32) at;
          g_hash_table_insert (new_name_at, n->name, GUINT_TO_POINTER (n->out_name));
          g_byte_array_append (new_names, (const guint8 *) n->name, strlen (n->name) + 1);
        }
    }
  if (new_names->len)
    {
      used2 = h->names_size_used + (guint64) new_names->len;
      if (used2 > h->names_size_allocated)
        {
          alloc2 = ALIGN4 (used2);
          add_splice (&p, n0 + names_ext, 0, alloc2 - names_ext, R_NAMES, RANK_APPEND);
        }
    }

  /* data block: keep, write in place (maybe growing) or append (§5, §7) */
  for (guint i = 0; i < nodes->len; i++)
    {
      MshedUtfNode *n = g_ptr_array_index (nodes, i);
      const MshedUtfSource *s = srcs[i];

      if (n->is_dir)
        continue;
      if (s && s->is_file && data_unchanged (n, s))
        {
          Range r = { s->ext_start, s->ext_start + s->ext_len };

          placement[i] = PLACE_KEEP;
          g_array_append_val (keep_raw, r);
        }
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      MshedUtfNode *n = g_ptr_array_index (nodes, i);
      const MshedUtfSource *s = srcs[i];
      gboolean exclusive;
      guint64 len;

      if (n->is_dir || placement[i] == PLACE_KEEP)
        continue;
      len = g_bytes_get_size (n->data);
      exclusive = s && s->is_file && s->ext_len > 0;
      for (guint k = 0; exclusive && k < nodes->len; k++)
        {
          const MshedUtfSource *o = srcs[k];

          if (k != i && o && o->is_file && o->ext_len > 0
              && o->ext_start < s->ext_start + s->ext_len
              && s->ext_start < o->ext_start + o->ext_len)
            exclusive = FALSE;
        }
      if (exclusive)
        {
          Range r = { s->ext_start, s->ext_start + s->ext_len };
          guint64 alloc = len <= s->f[F_ALLOC] ? s->f[F_ALLOC] : ALIGN4 (len);

          placement[i] = PLACE_IN_PLACE;
          n->out_alloc = (guint32) MIN (alloc, G_MAXUINT32);
          if (alloc > s->ext_len)
            add_splice (&p, s->ext_start + s->ext_len, 0, alloc - s->ext_len, R_DATA, RANK_GROW);
          g_array_append_val (keep_raw, r);
        }
      else
        {
          placement[i] = PLACE_APPEND;
          n->out_data = (guint32) MIN (append_size, G_MAXUINT32);
          n->out_alloc = (guint32) MIN (ALIGN4 (len), G_MAXUINT32);
          append_size += ALIGN4 (len);
        }
    }
  for (guint i = 0; i < src->len; i++)
    {
      const MshedUtfSource *s = &g_array_index (src, MshedUtfSource, i);
      Range r = { s->ext_start, s->ext_start + s->ext_len };

      if (s->is_file && s->ext_len > 0)
        g_array_append_val (cand, r);
    }
  keep = merge_ranges (keep_raw);
  cut_unused_payloads (&p, cand, keep);
  /* always placed, so that empty appended payloads have an offset too */
  data_splice = splices->len;
  add_splice (&p, data_end, 0, append_size, R_DATA, RANK_APPEND);

  /* apply the splices to a copy of the source */
  {
    g_autoptr(GArray) order = g_array_copy (splices);
    guint64 cur = 0, opos = 0;
    gint64 net = 0;

    g_array_sort (splices, splice_cmp);
    p.cum = g_new0 (gint64, splices->len + 1);
    for (guint i = 0; i < splices->len; i++)
      {
        const Splice *s = &g_array_index (splices, Splice, i);

        net += (gint64) s->ins - (gint64) s->del;
        p.cum[i + 1] = net;
      }
    total = (guint64) ((gint64) p.len + net);
    if (too_large (total, error))
      {
        g_free (p.cum);
        return NULL;
      }
    out = g_malloc0 (MAX (total, 1));
    for (guint i = 0; i < splices->len; i++)
      {
        Splice *s = &g_array_index (splices, Splice, i);

        memcpy (out + opos, p.src + cur, s->pos - cur);
        opos += s->pos - cur;
        cur = s->pos;
        s->out_pos = opos;
        opos += s->ins;   /* inserted bytes are zero */
        cur += s->del;
        g_array_index (order, Splice, s->seq).out_pos = s->out_pos;
      }
    memcpy (out + opos, p.src + cur, p.len - cur);

    h2.tree_offset = (guint32) map_pos (&p, t0, R_TREE);
    h2.tree_size = (guint32) (h->tree_size + added * MSHED_UTF_ENTRY_SIZE
                              - removed * MSHED_UTF_ENTRY_SIZE);
    h2.names_offset = (guint32) map_pos (&p, n0, R_NAMES);
    h2.names_size_used = (guint32) used2;
    h2.names_size_allocated = (guint32) alloc2;
    h2.data_offset = (guint32) map_pos (&p, d0, R_DATA);
    write_header (out, &h2);
    if (new_names->len)
      memcpy (out + h2.names_offset + h->names_size_used, new_names->data, new_names->len);

    /* slots and payload offsets in the new file */
    {
      guint64 next_new = tree_splice != G_MAXUINT
                         ? g_array_index (order, Splice, tree_splice).out_pos : 0;
      guint64 append_at = g_array_index (order, Splice, data_splice).out_pos;

      for (guint i = 0; i < nodes->len; i++)
        {
          MshedUtfNode *n = g_ptr_array_index (nodes, i);
          const MshedUtfSource *s = srcs[i];

          if (s)
            n->out_slot = (guint32) (map_pos (&p, t0 + s->slot, R_NONE) - h2.tree_offset);
          else
            {
              n->out_slot = (guint32) (next_new - h2.tree_offset);
              next_new += MSHED_UTF_ENTRY_SIZE;
            }
          if (n->is_dir)
            continue;
          if (placement[i] == PLACE_APPEND)
            n->out_data = (guint32) (append_at + n->out_data - h2.data_offset);
          else
            /* an empty payload stays in front of what its own block inserts there */
            n->out_data = (guint32) (map_pos (&p, s->ext_start, s->ext_len ? R_NONE : R_DATA)
                                     - h2.data_offset);
        }
    }
    g_free (p.cum);
  }

  /* entries and new payloads */
  for (guint i = 0; i < nodes->len; i++)
    {
      MshedUtfNode *n = g_ptr_array_index (nodes, i);
      const MshedUtfSource *s = srcs[i];
      guint32 f[N_FIELDS] = { 0 };

      f[F_NEXT] = n->next && n->parent ? n->next->out_slot : 0;
      if (n->parent == NULL && s)
        f[F_NEXT] = s->f[F_NEXT];   /* §3.2: never followed, kept */
      f[F_NAME] = n->out_name;
      f[F_ATTR] = n->attributes;
      f[F_SHARE] = n->sharing;
      if (n->is_dir)
        {
          f[F_CHILD] = n->first_child ? n->first_child->out_slot : 0;
          f[F_ALLOC] = n->sizes[0];
          f[F_USED] = n->sizes[1];
          f[F_UNCOMPRESSED] = n->sizes[2];
        }
      else if (placement[i] == PLACE_KEEP)
        {
          f[F_CHILD] = n->out_data;
          f[F_ALLOC] = s->f[F_ALLOC];
          f[F_USED] = s->f[F_USED];
          f[F_UNCOMPRESSED] = s->f[F_UNCOMPRESSED];
        }
      else
        {
          gsize size = 0;
          const guint8 *data = g_bytes_get_data (n->data, &size);
          guint8 *dst = out + h2.data_offset + n->out_data;
          guint64 clear = n->out_alloc;

          if (placement[i] == PLACE_IN_PLACE)
            clear = MAX (clear, s->ext_len);
          memset (dst, 0, clear);
          if (size)
            memcpy (dst, data, size);
          f[F_CHILD] = n->out_data;
          f[F_ALLOC] = n->out_alloc;
          f[F_USED] = f[F_UNCOMPRESSED] = (guint32) size;
        }
      f[F_CTIME] = n->times[0];
      f[F_ATIME] = n->times[1];
      f[F_MTIME] = n->times[2];
      write_entry (out + h2.tree_offset + n->out_slot, f);
    }
  return g_bytes_new_take (out, total);
}

/**
 * mshed_utf_serialize:
 * @mode: %MSHED_UTF_WRITE_PRESERVE keeps the source layout (see the top of this file),
 *   %MSHED_UTF_WRITE_CANONICAL writes the §8 layout
 * @out_repacked: (out) (optional): TRUE when preservation was asked for but the source's
 *   overlapping regions forced a canonical write (docs/utf.md §9, utf-overlap)
 *
 * A container without a source is always written canonically. An unmodified one gives back
 * exactly its source bytes; so does one whose edits were all undone.
 *
 * Returns: (transfer full) (nullable): the file, or NULL when it would exceed 4 GiB
 */
GBytes *
mshed_utf_serialize (MshedUtf           *self,
                     MshedUtfWriteMode   mode,
                     gboolean           *out_repacked,
                     GError            **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (!self->readonly || (mode == MSHED_UTF_WRITE_PRESERVE && !self->modified),
                        NULL);

  if (out_repacked)
    *out_repacked = FALSE;
  if (mode == MSHED_UTF_WRITE_CANONICAL || self->source == NULL)
    return build_canonical (self, error);
  if (!self->modified)
    return g_bytes_ref (self->source);
  if (!self->patchable)
    {
      if (out_repacked)
        *out_repacked = TRUE;
      return build_canonical (self, error);
    }
  return build_patched (self, error);
}
