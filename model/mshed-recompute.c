/* mshed-recompute.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The conventions are described in mshed-recompute.h.
 */
#define G_LOG_DOMAIN "mshed-recompute"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-recompute.h"
#include "mshed-recompute-private.h"

const guint8 *
_mshed_recompute_res_data (const MshedModel *model,
                           guint32           type,
                           gsize            *size)
{
  const MshedNresEntry *e = mshed_model_get_resource (model, type);

  *size = 0;
  return e ? mshed_nres_entry_get_data (e, size) : NULL;
}

/* The smallest float whose square covers @d2. */
float
_mshed_recompute_radius_up (double d2)
{
  float r = (float) sqrt (d2);

  while ((double) r * (double) r < d2)
    r = nextafterf (r, INFINITY);
  return r;
}

/* Slot geometry ---------------------------------------------------------------------------- */

guint
mshed_slot_foreach_triangle (const MshedModel *model,
                             guint             slot,
                             MshedTriangleFunc func,
                             gpointer          user_data)
{
  MshedSlot s;
  gsize isize, psize;
  const guint8 *idx = _mshed_recompute_res_data (model, 6, &isize);
  guint64 n_idx, n_vert;
  guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  guint ordinal = 0;

  _mshed_recompute_res_data (model, 3, &psize);
  n_idx = isize / 2;
  n_vert = psize / 12;
  if (!mshed_model_get_slot (model, slot, &s))
    return 0;

  for (guint b = s.batch_start; b < (guint) s.batch_start + s.batch_count && b < n_batches; b++)
    {
      MshedBatch batch;
      guint n_tris;

      mshed_model_get_batch (model, b, &batch);
      n_tris = batch.index_count / 3u;
      for (guint t = 0; t < n_tris; t++)
        {
          guint64 first = (guint64) batch.index_start + 3u * (guint64) t;
          guint32 v[3] = { 0, 0, 0 };
          gboolean valid = first + 3 <= n_idx;

          for (guint k = 0; valid && k < 3; k++)
            {
              guint64 vv = (guint64) batch.base_vertex + mshed_read_u16 (idx + 2 * (first + k));

              valid = vv < n_vert;
              v[k] = (guint32) vv;
            }
          if (func)
            func (ordinal, b, t, v, valid, user_data);
          ordinal++;
        }
    }
  return ordinal;
}

gboolean
mshed_slot_has_tri_mapping (const MshedModel *model,
                            guint             slot)
{
  MshedSlot s;

  if (!mshed_model_get_slot (model, slot, &s))
    return FALSE;
  if ((guint) s.tri_start + s.tri_count > mshed_model_get_n_rows (model, MSHED_TABLE_TRIS))
    return FALSE;
  /* the same count mshed_slot_foreach_triangle() reaches, without walking the indices */
  {
    guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
    guint64 total = 0;

    for (guint b = s.batch_start; b < (guint) s.batch_start + s.batch_count && b < n_batches; b++)
      {
        MshedBatch batch;

        mshed_model_get_batch (model, b, &batch);
        total += batch.index_count / 3u;
      }
    return total == s.tri_count;
  }
}

/* Slot bounds ------------------------------------------------------------------------------ */

typedef struct {
  const guint8 *pos;
  float         mn[3];
  float         mx[3];
  float         centre[3];
  double        d2;
  gboolean      any;
  gboolean      second_pass;
} BoundsAcc;

static void
bounds_tri (guint          ordinal,
            guint          batch,
            guint          tri_in_batch,
            const guint32  v[3],
            gboolean       valid,
            gpointer       user_data)
{
  BoundsAcc *acc = user_data;

  if (!valid)
    return;
  for (guint i = 0; i < 3; i++)
    {
      const guint8 *p = acc->pos + (gsize) v[i] * 12;

      if (!acc->second_pass)
        {
          for (guint k = 0; k < 3; k++)
            {
              float f = mshed_read_f32 (p + 4 * k);

              acc->mn[k] = MIN (acc->mn[k], f);
              acc->mx[k] = MAX (acc->mx[k], f);
            }
          acc->any = TRUE;
        }
      else
        {
          double e2 = 0.0;

          for (guint k = 0; k < 3; k++)
            {
              double d = (double) mshed_read_f32 (p + 4 * k) - acc->centre[k];

              e2 += d * d;
            }
          acc->d2 = MAX (acc->d2, e2);
        }
    }
}

gboolean
mshed_compute_slot_bounds (const MshedModel *model,
                           guint             slot,
                           guint8            out[40])
{
  BoundsAcc acc = { 0 };
  gsize psize;

  acc.pos = _mshed_recompute_res_data (model, 3, &psize);
  for (guint k = 0; k < 3; k++)
    {
      acc.mn[k] = INFINITY;
      acc.mx[k] = -INFINITY;
    }
  mshed_slot_foreach_triangle (model, slot, bounds_tri, &acc);
  memset (out, 0, 40);
  if (!acc.any)
    return FALSE;
  for (guint k = 0; k < 3; k++)
    acc.centre[k] = (acc.mn[k] + acc.mx[k]) * 0.5f;
  acc.second_pass = TRUE;
  mshed_slot_foreach_triangle (model, slot, bounds_tri, &acc);
  for (guint k = 0; k < 3; k++)
    {
      mshed_write_f32 (out + 4 * k, acc.mn[k]);
      mshed_write_f32 (out + 12 + 4 * k, acc.mx[k]);
      mshed_write_f32 (out + 24 + 4 * k, acc.centre[k]);
    }
  mshed_write_f32 (out + 36, _mshed_recompute_radius_up (acc.d2));
  return TRUE;
}

/* Triangle descriptors ---------------------------------------------------------------------- */

static void
face_normal (const guint8  *pos,
             const guint32  v[3],
             double         n[3])
{
  double p[3][3], e1[3], e2[3];

  for (guint i = 0; i < 3; i++)
    for (guint k = 0; k < 3; k++)
      p[i][k] = mshed_read_f32 (pos + (gsize) v[i] * 12 + 4 * k);
  for (guint k = 0; k < 3; k++)
    {
      e1[k] = p[1][k] - p[0][k];
      e2[k] = p[2][k] - p[0][k];
    }
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

static gint32 quantise_unit (double v,
                             double scale,
                             double lo,
                             double hi);

void
mshed_encode_face_normal (const float p0[3],
                          const float p1[3],
                          const float p2[3],
                          gint16      out[3])
{
  double e1[3], e2[3], n[3], len;

  for (guint k = 0; k < 3; k++)
    {
      e1[k] = (double) p1[k] - p0[k];
      e2[k] = (double) p2[k] - p0[k];
    }
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (guint k = 0; k < 3; k++)
    out[k] = (gint16) (len > 0.0 ? quantise_unit (n[k] / len, 32767.0, -32767.0, 32767.0) : 0);
}

/* Quantises the unit vector component @v (double) with @scale, C round() (halves away from
 * zero, docs/msh.md §5), clamped to [lo, hi]. */
static gint32
quantise_unit (double v,
               double scale,
               double lo,
               double hi)
{
  if (isnan (v))
    return 0;
  return (gint32) CLAMP (round (v * scale), lo, hi);
}

/* TRUE when every stored component is within one quantisation step of the exact one, so
 * the stored value is an encoding of this direction and is kept (never re-quantised). */
static gboolean
quantised_close (const gint32  stored[3],
                 const double  exact[3],
                 double        scale)
{
  for (guint k = 0; k < 3; k++)
    if (fabs ((double) stored[k] - exact[k] * scale) > 1.0 + 1e-9)
      return FALSE;
  return TRUE;
}

/* One slot's triangles with the position classes of their corners. */
typedef struct {
  guint       slot;
  guint       tri_start;
  guint       n;            /* triangles (== triCount: the mapping is defined) */
  guint32    *v;            /* 3 vertices per triangle, G_MAXUINT32 when invalid */
  guint32    *cls;          /* 3 position classes per triangle */
  GHashTable *edges;        /* guint64 class pair -> GArray of triangles (guint) */
} SlotTris;

typedef struct {
  const guint8 *pos;
  SlotTris     *st;
  GHashTable   *classes;    /* position (12 bytes, -0 folded) -> class */
} SlotTrisBuild;

static guint
pos_hash (gconstpointer key)
{
  const guint32 *w = key;

  return w[0] * 0x9E3779B1u ^ w[1] * 0x85EBCA77u ^ w[2] * 0xC2B2AE3Du;
}

static gboolean
pos_equal (gconstpointer a,
           gconstpointer b)
{
  return memcmp (a, b, 12) == 0;
}

static void
slot_tris_add (guint          ordinal,
               guint          batch,
               guint          tri_in_batch,
               const guint32  v[3],
               gboolean       valid,
               gpointer       user_data)
{
  SlotTrisBuild *b = user_data;
  SlotTris *st = b->st;

  for (guint k = 0; k < 3; k++)
    {
      st->v[3 * (gsize) ordinal + k] = valid ? v[k] : G_MAXUINT32;
      st->cls[3 * (gsize) ordinal + k] = G_MAXUINT32;
    }
  if (!valid)
    return;
  for (guint k = 0; k < 3; k++)
    {
      guint32 key[3];
      gpointer found;

      for (guint c = 0; c < 3; c++)
        {
          float f = mshed_read_f32 (b->pos + (gsize) v[k] * 12 + 4 * c) + 0.0f;  /* -0 -> 0 */

          memcpy (&key[c], &f, 4);
        }
      found = g_hash_table_lookup (b->classes, key);
      if (found == NULL)
        {
          guint32 *kp = g_memdup2 (key, sizeof key);

          found = GUINT_TO_POINTER (g_hash_table_size (b->classes) + 1);
          g_hash_table_insert (b->classes, kp, found);
        }
      st->cls[3 * (gsize) ordinal + k] = GPOINTER_TO_UINT (found) - 1;
    }
}

static inline guint64
class_edge (guint32 a,
            guint32 b)
{
  return a < b ? ((guint64) a << 32) | b : ((guint64) b << 32) | a;
}

static void
slot_tris_free (SlotTris *st)
{
  if (st == NULL)
    return;
  g_free (st->v);
  g_free (st->cls);
  g_clear_pointer (&st->edges, g_hash_table_unref);
  g_free (st);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlotTris, slot_tris_free)

static SlotTris *
slot_tris_new (const MshedModel *model,
               guint             slot,
               gboolean          edges)
{
  SlotTris *st;
  SlotTrisBuild b;
  MshedSlot s;
  gsize psize;

  if (!mshed_slot_has_tri_mapping (model, slot))
    return NULL;
  mshed_model_get_slot (model, slot, &s);
  st = g_new0 (SlotTris, 1);
  st->slot = slot;
  st->tri_start = s.tri_start;
  st->n = s.tri_count;
  st->v = g_new (guint32, 3 * (gsize) st->n + 1);
  st->cls = g_new (guint32, 3 * (gsize) st->n + 1);
  b.pos = _mshed_recompute_res_data (model, 3, &psize);
  b.st = st;
  b.classes = g_hash_table_new_full (pos_hash, pos_equal, g_free, NULL);
  mshed_slot_foreach_triangle (model, slot, slot_tris_add, &b);
  g_hash_table_unref (b.classes);

  if (edges)
    {
      st->edges = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                         (GDestroyNotify) g_array_unref);
      for (guint t = 0; t < st->n; t++)
        for (guint k = 0; k < 3; k++)
          {
            guint32 a = st->cls[3 * (gsize) t + k], c = st->cls[3 * (gsize) t + (k + 1) % 3];
            guint64 key;
            GArray *users;

            if (a == G_MAXUINT32 || a == c)
              continue;  /* invalid or degenerate edge */
            key = class_edge (a, c);
            users = g_hash_table_lookup (st->edges, &key);
            if (users == NULL)
              {
                users = g_array_new (FALSE, FALSE, sizeof (guint));
                g_hash_table_insert (st->edges, g_memdup2 (&key, sizeof key), users);
              }
            if (users->len == 0 || g_array_index (users, guint, users->len - 1) != t)
              g_array_append_val (users, t);
          }
    }
  return st;
}

/* The other triangles of the slot across edge @k of triangle @t, ascending. */
static GArray *
edge_users (const SlotTris *st,
            guint           t,
            guint           k)
{
  guint32 a = st->cls[3 * (gsize) t + k], c = st->cls[3 * (gsize) t + (k + 1) % 3];
  guint64 key;

  if (a == G_MAXUINT32 || a == c)
    return NULL;
  key = class_edge (a, c);
  return g_hash_table_lookup (st->edges, &key);
}

/* The corner positions of descriptor @d through the mapping of the first slot that maps it;
 * FALSE when no slot does or its triangle is invalid. */
static gboolean
descriptor_positions (const MshedModel *model,
                      guint             d,
                      float             p[3][3])
{
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  gsize psize;
  const guint8 *pos = _mshed_recompute_res_data (model, 3, &psize);

  for (guint s = 0; s < n_slots; s++)
    {
      MshedSlot slot;
      guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
      guint ordinal;

      mshed_model_get_slot (model, s, &slot);
      if (d < slot.tri_start || d >= (guint) slot.tri_start + slot.tri_count ||
          !mshed_slot_has_tri_mapping (model, s))
        continue;
      ordinal = d - slot.tri_start;
      for (guint b = slot.batch_start; b < (guint) slot.batch_start + slot.batch_count &&
           b < n_batches; b++)
        {
          MshedBatch batch;
          guint n_tris;

          mshed_model_get_batch (model, b, &batch);
          n_tris = batch.index_count / 3u;
          if (ordinal < n_tris)
            {
              for (guint k = 0; k < 3; k++)
                {
                  guint16 idx;
                  guint64 v;

                  if (!mshed_model_get_index (model, batch.index_start + 3u * ordinal + k, &idx))
                    return FALSE;
                  v = (guint64) batch.base_vertex + idx;
                  if (v >= psize / 12)
                    return FALSE;
                  for (guint c = 0; c < 3; c++)
                    p[k][c] = mshed_read_f32 (pos + v * 12 + 4 * c) + 0.0f;
                }
              return TRUE;
            }
          ordinal -= n_tris;
        }
      return FALSE;
    }
  return FALSE;
}

/* TRUE when the triangles of descriptors @t (of @st) and @other share an edge by position. */
static gboolean
shares_edge (const MshedModel *model,
             const SlotTris   *st,
             guint             t,
             guint             other)
{
  gsize psize;
  const guint8 *pos = _mshed_recompute_res_data (model, 3, &psize);
  float p[3][3], q[3][3];
  guint same = 0;

  if (st->v[3 * (gsize) t] == G_MAXUINT32 || !descriptor_positions (model, other, q))
    return FALSE;
  for (guint k = 0; k < 3; k++)
    for (guint c = 0; c < 3; c++)
      p[k][c] = mshed_read_f32 (pos + (gsize) st->v[3 * (gsize) t + k] * 12 + 4 * c) + 0.0f;
  for (guint i = 0; i < 3; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < 3 && !found; j++)
        found = p[i][0] == q[j][0] && p[i][1] == q[j][1] && p[i][2] == q[j][2];
      same += found;
    }
  return same >= 2;
}

/* Links of triangle @t: link k names the other triangle across edge k when exactly two
 * triangles share that edge (by position), so links are mutual. @keep: the stored links that
 * still name a triangle sharing an edge stay where they are, and the missing neighbours fill
 * free places, their own edge's first. */
static void
compute_links (const MshedModel *model,
               const SlotTris   *st,
               guint             t,
               gboolean          keep,
               guint8           *rec)
{
  guint n_desc = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);
  guint16 out[3] = { MSHED_NONE, MSHED_NONE, MSHED_NONE };
  guint16 stored[3];

  for (guint k = 0; k < 3; k++)
    stored[k] = mshed_read_u16 (rec + 2 + 2 * k);
  if (st->v[3 * (gsize) t] == G_MAXUINT32)
    return;  /* an invalid triangle has no edges to judge its links by */

  if (keep)
    for (guint k = 0; k < 3; k++)
      {
        guint16 l = stored[k];
        gboolean valid = FALSE;

        if (l == MSHED_NONE || l >= n_desc || l == st->tri_start + t)
          continue;
        if (l >= st->tri_start && l < st->tri_start + st->n)
          for (guint e = 0; e < 3 && !valid; e++)
            {
              GArray *users = edge_users (st, t, e);

              for (guint i = 0; users && i < users->len && !valid; i++)
                valid = st->tri_start + g_array_index (users, guint, i) == l;
            }
        else
          valid = shares_edge (model, st, t, l);
        for (guint j = 0; j < k && valid; j++)
          valid = out[j] != l;
        if (valid)
          out[k] = l;
      }

  /* a new link only across an edge exactly two triangles share, so links stay mutual */
  for (guint k = 0; k < 3; k++)
    {
      GArray *users = edge_users (st, t, k);
      guint o;
      guint16 d;
      gboolean linked = FALSE;

      if (users == NULL || users->len != 2)
        continue;
      o = g_array_index (users, guint, g_array_index (users, guint, 0) == t ? 1 : 0);
      if (o == t)
        continue;
      d = (guint16) (st->tri_start + o);
      for (guint j = 0; j < 3; j++)
        linked |= out[j] == d;
      if (!linked)
        {
          guint place = k;

          if (out[place] != MSHED_NONE)
            for (place = 0; place < 3 && out[place] != MSHED_NONE; place++)
              ;
          if (place < 3)
            out[place] = d;
        }
    }
  for (guint k = 0; k < 3; k++)
    mshed_write_u16 (rec + 2 + 2 * k, out[k]);
}

static void
compute_face_normal (const MshedModel *model,
                     const SlotTris   *st,
                     guint             t,
                     gboolean          keep,
                     guint8           *rec)
{
  gsize psize;
  const guint8 *pos = _mshed_recompute_res_data (model, 3, &psize);
  double n[3], len;
  gint32 stored[3];

  if (st->v[3 * (gsize) t] == G_MAXUINT32)
    return;
  face_normal (pos, st->v + 3 * (gsize) t, n);
  len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len > 0.0)
    for (guint k = 0; k < 3; k++)
      n[k] /= len;
  else if (keep)
    return;  /* a degenerate triangle has no direction to check the stored one against */
  for (guint k = 0; k < 3; k++)
    stored[k] = (gint16) mshed_read_u16 (rec + 8 + 2 * k);
  if (keep && len > 0.0 && quantised_close (stored, n, 32767.0))
    return;
  for (guint k = 0; k < 3; k++)
    mshed_write_u16 (rec + 8 + 2 * k,
                     (guint16) (gint16) (len > 0.0 ? quantise_unit (n[k], 32767.0, -32767.0,
                                                                     32767.0) : 0));
}

gboolean
mshed_sorted_rows_contain (const guint *rows,
                           guint        n_rows,
                           guint        row)
{
  guint lo = 0, hi = n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (rows[mid] == row)
        return TRUE;
      if (rows[mid] < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

/* The record of descriptor @d as the partner edits leave it (a copy in @partners). */
static guint8 *
partner_record (const MshedModel *model,
                GHashTable       *partners,
                guint             d)
{
  guint8 *rec = g_hash_table_lookup (partners, GUINT_TO_POINTER (d + 1));

  if (rec == NULL)
    {
      rec = g_memdup2 (mshed_model_get_record (model, MSHED_TABLE_TRIS, d), 16);
      g_hash_table_insert (partners, GUINT_TO_POINTER (d + 1), rec);
    }
  return rec;
}

/* Links are mutual: descriptor @d (triangle @t of @st) dropped or gained the links between
 * @before and @after; partners outside @rows follow (a dropped partner forgets @d, a new
 * one links back into a free place, its shared edge's first). */
static void
follow_partners (const MshedModel *model,
                 const SlotTris   *st,
                 guint             t,
                 const guint16     before[3],
                 const guint8     *after_rec,
                 const guint      *rows,
                 guint             n_rows,
                 GHashTable       *partners)
{
  guint n_desc = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);
  guint16 d = (guint16) (st->tri_start + t);
  guint16 after[3];

  for (guint k = 0; k < 3; k++)
    after[k] = mshed_read_u16 (after_rec + 2 + 2 * k);

  for (guint k = 0; k < 3; k++)
    {
      guint16 o = before[k];
      guint8 *rec;

      if (o == MSHED_NONE || o >= n_desc || o == d || o == after[0] || o == after[1] ||
          o == after[2] || mshed_sorted_rows_contain (rows, n_rows, o))
        continue;
      rec = partner_record (model, partners, o);
      for (guint j = 0; j < 3; j++)
        if (mshed_read_u16 (rec + 2 + 2 * j) == d)
          mshed_write_u16 (rec + 2 + 2 * j, MSHED_NONE);
    }

  for (guint k = 0; k < 3; k++)
    {
      guint16 n = after[k];
      guint local, place = 3;
      guint8 *rec;
      gboolean linked = FALSE;

      if (n == MSHED_NONE || n == before[0] || n == before[1] || n == before[2] ||
          n < st->tri_start || n >= st->tri_start + st->n ||
          mshed_sorted_rows_contain (rows, n_rows, n))
        continue;
      local = n - st->tri_start;
      rec = partner_record (model, partners, n);
      for (guint j = 0; j < 3; j++)
        linked |= mshed_read_u16 (rec + 2 + 2 * j) == d;
      if (linked)
        continue;
      for (guint e = 0; e < 3 && place == 3; e++)
        {
          GArray *users = edge_users (st, local, e);

          for (guint i = 0; users && i < users->len; i++)
            if (g_array_index (users, guint, i) == t && mshed_read_u16 (rec + 2 + 2 * e) ==
                MSHED_NONE)
              place = e;
        }
      for (guint e = 0; e < 3 && place == 3; e++)
        if (mshed_read_u16 (rec + 2 + 2 * e) == MSHED_NONE)
          place = e;
      if (place < 3)
        mshed_write_u16 (rec + 2 + 2 * place, d);
    }
}

guint
mshed_compute_descriptors (const MshedModel *model,
                           const guint      *rows,
                           guint             n_rows,
                           MshedDerived      what,
                           gboolean          keep,
                           guint8           *out,
                           gboolean         *mapped,
                           GHashTable       *partners)
{
  guint n_desc = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  g_autofree gboolean *done = g_new0 (gboolean, n_rows + 1);
  guint n_done = 0;

  for (guint i = 0; i < n_rows; i++)
    {
      const guint8 *cur = rows[i] < n_desc ? mshed_model_get_record (model, MSHED_TABLE_TRIS,
                                                                     rows[i]) : NULL;

      if (cur)
        memcpy (out + 16 * (gsize) i, cur, 16);
      else
        memset (out + 16 * (gsize) i, 0, 16);
      if (mapped)
        mapped[i] = FALSE;
    }

  /* each row through the first slot that maps it */
  for (guint s = 0; s < n_slots && n_done < n_rows; s++)
    {
      MshedSlot slot;
      g_autoptr(SlotTris) st = NULL;

      mshed_model_get_slot (model, s, &slot);
      for (guint i = 0; i < n_rows; i++)
        {
          guint8 *rec = out + 16 * (gsize) i;
          guint16 before[3];
          guint t;

          if (done[i] || rows[i] < slot.tri_start ||
              rows[i] >= (guint) slot.tri_start + slot.tri_count)
            continue;
          if (st == NULL)
            {
              st = slot_tris_new (model, s, (what & MSHED_DERIVED_TRI_LINKS) != 0);
              if (st == NULL)
                break;  /* no mapping through this slot */
            }
          t = rows[i] - st->tri_start;
          for (guint k = 0; k < 3; k++)
            before[k] = mshed_read_u16 (rec + 2 + 2 * k);
          if (what & MSHED_DERIVED_TRI_NORMALS)
            compute_face_normal (model, st, t, keep, rec);
          if (what & MSHED_DERIVED_TRI_LINKS)
            {
              compute_links (model, st, t, keep, rec);
              if (partners)
                follow_partners (model, st, t, before, rec, rows, n_rows, partners);
            }
          done[i] = TRUE;
          if (mapped)
            mapped[i] = TRUE;
          n_done++;
        }
    }
  return n_done;
}

gboolean
mshed_compute_slot_descriptors (const MshedModel *model,
                                guint             slot,
                                gboolean          normals,
                                gboolean          links,
                                guint8           *out)
{
  MshedSlot s;
  g_autoptr(SlotTris) st = NULL;

  if (!mshed_model_get_slot (model, slot, &s))
    return FALSE;
  st = slot_tris_new (model, slot, links);
  if (st == NULL)
    return FALSE;
  memcpy (out, mshed_model_get_record (model, MSHED_TABLE_TRIS, s.tri_start),
          (gsize) s.tri_count * 16);
  for (guint t = 0; t < st->n; t++)
    {
      if (normals)
        compute_face_normal (model, st, t, FALSE, out + 16 * (gsize) t);
      if (links)
        compute_links (model, st, t, FALSE, out + 16 * (gsize) t);
    }
  return TRUE;
}

/* Neighbours of a descriptor, for stale marks --------------------------------------------- */

void
mshed_descriptor_neighbours (const MshedModel *model,
                             guint             slot,
                             guint             descriptor,
                             GArray           *out)
{
  g_autoptr(SlotTris) st = slot_tris_new (model, slot, TRUE);
  guint t;

  if (st == NULL || descriptor < st->tri_start || descriptor >= st->tri_start + st->n)
    return;
  t = descriptor - st->tri_start;
  for (guint k = 0; k < 3; k++)
    {
      GArray *users = edge_users (st, t, k);

      for (guint i = 0; users && i < users->len; i++)
        if (g_array_index (users, guint, i) != t)
          {
            guint d = st->tri_start + g_array_index (users, guint, i);

            g_array_append_val (out, d);
          }
    }
}

/* Vertex normals --------------------------------------------------------------------------- */

GBytes *
mshed_compute_vertex_normals (const MshedModel *model,
                              gboolean          keep)
{
  gsize psize, nsize, isize;
  const guint8 *pos = _mshed_recompute_res_data (model, 3, &psize);
  const guint8 *nrm = _mshed_recompute_res_data (model, 4, &nsize);
  const guint8 *idx = _mshed_recompute_res_data (model, 6, &isize);
  guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  gsize n_vert = psize / 12;
  g_autofree double *acc = NULL;
  guint8 *out;

  if (mshed_model_get_resource (model, 3) == NULL || mshed_model_get_resource (model, 4) == NULL
      || nsize / 4 != n_vert || nsize % 4 != 0)
    return NULL;
  acc = g_new0 (double, 3 * n_vert + 1);
  for (guint b = 0; b < n_batches; b++)
    {
      MshedBatch batch;

      mshed_model_get_batch (model, b, &batch);
      for (guint t = 0; t < batch.index_count / 3u; t++)
        {
          guint64 first = (guint64) batch.index_start + 3u * (guint64) t;
          guint32 v[3];
          gboolean valid = first + 3 <= isize / 2;
          double n[3];

          for (guint k = 0; valid && k < 3; k++)
            {
              guint64 vv = (guint64) batch.base_vertex + mshed_read_u16 (idx + 2 * (first + k));

              valid = vv < n_vert;
              v[k] = (guint32) vv;
            }
          if (!valid)
            continue;
          face_normal (pos, v, n);
          for (guint i = 0; i < 3; i++)
            for (guint k = 0; k < 3; k++)
              acc[3 * (gsize) v[i] + k] += n[k];
        }
    }
  out = g_memdup2 (nrm, nsize);
  for (gsize i = 0; i < n_vert; i++)
    {
      double *a = acc + 3 * i;
      double len = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
      gint32 stored[3];

      if (len <= 0.0)
        continue;
      for (guint k = 0; k < 3; k++)
        {
          a[k] /= len;
          stored[k] = (gint8) out[4 * i + k];
        }
      if (keep && quantised_close (stored, a, 127.0))
        continue;
      for (guint k = 0; k < 3; k++)
        out[4 * i + k] = (guint8) (gint8) quantise_unit (a[k], 127.0, -128.0, 127.0);
    }
  return g_bytes_new_take (out, nsize);
}

/* Attributes ------------------------------------------------------------------------------- */

gboolean
mshed_compute_attributes (const MshedModel *model,
                          guint             res_index,
                          MshedEntryHeader *header)
{
  MshedNres *nres = mshed_model_get_nres ((MshedModel *) model);
  const MshedNresEntry *e = mshed_nres_peek_entry (nres, res_index);
  gsize size = mshed_nres_entry_get_size (e);
  guint stride = 0;

  /* attr1 (the count) and attr3 (the stride) are what docs/msh.md §3 determines; attr2 is kept
   * as stored: it is 0 in every known file, its meaning is unknown (a non-zero value is
   * only a warning), and Res19's is the frame count, which the frame map recompute owns */
  mshed_entry_header_get (e, header);
  switch (e->type_id)
    {
    case 1:
      stride = e->attr3 == 24 ? 24 : 38;
      header->attr1 = (guint32) (size / stride);
      header->attr3 = stride;
      return TRUE;
    case 2:
      header->attr1 = size >= 140 ? (guint32) ((size - 140) / 68) : 0;
      header->attr3 = 68;
      return TRUE;
    case 3: stride = 12; break;
    case 4: case 5: case 18: stride = 4; break;
    case 6: stride = 2; break;
    case 7: stride = 16; break;
    case 13: stride = 20; break;
    case 15: case 16: stride = 8; break;
    case 8:
      header->attr1 = (guint32) (size / 24);
      header->attr3 = 4;
      return TRUE;
    case 10:
      {
        const MshedNresEntry *r1 = mshed_model_get_resource (model, 1);
        guint st = r1 && r1->attr3 == 24 ? 24 : 38;

        header->attr1 = r1 ? (guint32) (mshed_nres_entry_get_size (r1) / st) : 0;
        header->attr3 = 0;
        return TRUE;
      }
    case 19:
      header->attr1 = (guint32) (size / 2);
      header->attr2 = MAX (e->attr2, 1);
      header->attr3 = 2;
      return TRUE;
    default:
      return FALSE;
    }
  header->attr1 = (guint32) (size / stride);
  header->attr3 = stride;
  return TRUE;
}

/* Animation map (docs/msh.md §7.7 writer procedure) -------------------------------------------- */

gboolean
mshed_compute_animation_map (const MshedModel *model,
                             GBytes          **res19,
                             guint32          *frame_count,
                             guint16         **hdr2,
                             GError          **error)
{
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  guint n_keys = mshed_model_get_n_rows (model, MSHED_TABLE_KEYS);
  g_autofree guint16 *out_hdr2 = g_new0 (guint16, n_nodes + 1);
  g_autoptr(GByteArray) words = g_byte_array_new ();
  guint32 frames = 1;
  guint start = 0;

  if (!mshed_model_has_node_records (model) || mshed_model_get_resource (model, 8) == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("The frame map needs 38-byte node records and a key pool (Res8)"));
      return FALSE;
    }
  for (guint n = 0; n < n_nodes; n++)
    {
      MshedNode node;
      MshedKey key;

      mshed_model_get_node (model, n, &node);
      if (node.hdr3 == MSHED_NONE || node.hdr3 < start || node.hdr3 >= n_keys)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("Node %u, field hdr3: %u does not end a track of the key pool in "
                         "node order (docs/msh.md §7.7), so the frame map cannot be rebuilt"),
                       n, node.hdr3);
          return FALSE;
        }
      mshed_model_get_key (model, node.hdr3, &key);
      if (!isfinite (key.time) || key.time < 0 || key.time > 65534)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("Key %u, field time: %g is not a frame number"), node.hdr3, key.time);
          return FALSE;
        }
      frames = MAX (frames, (guint32) key.time + 1);
      start = node.hdr3 + 1u;
    }

  start = 0;
  for (guint n = 0; n < n_nodes; n++)
    {
      MshedNode node;

      mshed_model_get_node (model, n, &node);
      out_hdr2[n] = MSHED_NONE;
      if (node.hdr2 != MSHED_NONE)
        {
          guint end = node.hdr3;
          MshedKey ks, ke;

          if (words->len / 2 + frames > MSHED_NONE)
            {
              g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                           _("The frame map would not fit 16-bit node offsets"));
              return FALSE;
            }
          out_hdr2[n] = (guint16) (words->len / 2);
          mshed_model_get_key (model, start, &ks);
          mshed_model_get_key (model, end, &ke);
          for (guint32 f = 0; f < frames; f++)
            {
              guint16 w = (guint16) end;
              guint8 le[2];

              if (!((float) f < ks.time || (float) f >= ke.time))
                for (guint i = start; i < end; i++)
                  {
                    MshedKey k0, k1;

                    mshed_model_get_key (model, i, &k0);
                    mshed_model_get_key (model, i + 1, &k1);
                    if (k0.time <= (float) f && (float) f < k1.time)
                      {
                        w = (guint16) i;
                        break;
                      }
                  }
              mshed_write_u16 (le, w);
              g_byte_array_append (words, le, 2);
            }
        }
      start = node.hdr3 + 1u;
    }

  *frame_count = frames;
  *hdr2 = g_steal_pointer (&out_hdr2);
  *res19 = g_byte_array_free_to_bytes (g_steal_pointer (&words));
  return TRUE;
}

/* Reverse index ---------------------------------------------------------------------------- */

typedef struct {
  guint32 slot;
  guint32 desc_base;  /* descriptor of the batch's triangle 0, G_MAXUINT32: no mapping */
} BatchSlot;

struct _MshedGeomIndex {
  guint      n_vertices;
  guint      n_batches;
  guint      n_tris;
  guint32   *tri_base;        /* n_batches + 1: first global triangle of each batch */
  guint32   *tri_verts;       /* 3 per global triangle, G_MAXUINT32 when invalid */
  guint32   *vert_start;      /* n_vertices + 1 */
  guint32   *vert_tris;       /* global triangles per vertex */
  guint32   *bslot_start;     /* n_batches + 1 */
  BatchSlot *bslots;
};

MshedGeomIndex *
mshed_geom_index_new (const MshedModel *model)
{
  MshedGeomIndex *self = g_new0 (MshedGeomIndex, 1);
  gsize psize, isize;
  const guint8 *idx = _mshed_recompute_res_data (model, 6, &isize);
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  guint64 total = 0;
  g_autofree guint32 *fill = NULL;

  _mshed_recompute_res_data (model, 3, &psize);
  self->n_vertices = (guint) (psize / 12);
  self->n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  self->tri_base = g_new0 (guint32, self->n_batches + 1);
  for (guint b = 0; b < self->n_batches; b++)
    {
      MshedBatch batch;

      mshed_model_get_batch (model, b, &batch);
      self->tri_base[b] = (guint32) total;
      total += batch.index_count / 3u;
    }
  self->tri_base[self->n_batches] = (guint32) total;
  self->n_tris = (guint) total;
  self->tri_verts = g_new (guint32, 3 * total + 1);
  self->vert_start = g_new0 (guint32, self->n_vertices + 2);

  for (guint b = 0; b < self->n_batches; b++)
    {
      MshedBatch batch;

      mshed_model_get_batch (model, b, &batch);
      for (guint t = 0; t < batch.index_count / 3u; t++)
        {
          guint64 first = (guint64) batch.index_start + 3u * (guint64) t;
          guint32 *v = self->tri_verts + 3 * ((gsize) self->tri_base[b] + t);
          gboolean valid = first + 3 <= isize / 2;

          for (guint k = 0; valid && k < 3; k++)
            {
              guint64 vv = (guint64) batch.base_vertex + mshed_read_u16 (idx + 2 * (first + k));

              valid = vv < self->n_vertices;
              v[k] = (guint32) vv;
            }
          if (!valid)
            {
              v[0] = v[1] = v[2] = G_MAXUINT32;
              continue;
            }
          for (guint k = 0; k < 3; k++)
            self->vert_start[v[k] + 1]++;
        }
    }
  for (guint i = 0; i < self->n_vertices; i++)
    self->vert_start[i + 1] += self->vert_start[i];
  self->vert_tris = g_new (guint32, self->vert_start[self->n_vertices] + 1);
  fill = g_memdup2 (self->vert_start, sizeof (guint32) * (self->n_vertices + 1));
  for (guint32 t = 0; t < self->n_tris; t++)
    {
      const guint32 *v = self->tri_verts + 3 * (gsize) t;

      if (v[0] == G_MAXUINT32)
        continue;
      for (guint k = 0; k < 3; k++)
        self->vert_tris[fill[v[k]]++] = t;
    }

  /* batch -> (slot, descriptor base) */
  self->bslot_start = g_new0 (guint32, self->n_batches + 2);
  for (guint s = 0; s < n_slots; s++)
    {
      MshedSlot slot;

      mshed_model_get_slot (model, s, &slot);
      for (guint b = slot.batch_start; b < (guint) slot.batch_start + slot.batch_count &&
           b < self->n_batches; b++)
        self->bslot_start[b + 1]++;
    }
  for (guint b = 0; b < self->n_batches; b++)
    self->bslot_start[b + 1] += self->bslot_start[b];
  self->bslots = g_new (BatchSlot, self->bslot_start[self->n_batches] + 1);
  g_free (fill);
  fill = g_memdup2 (self->bslot_start, sizeof (guint32) * (self->n_batches + 1));
  for (guint s = 0; s < n_slots; s++)
    {
      MshedSlot slot;
      gboolean mapped = mshed_slot_has_tri_mapping (model, s);
      guint32 ordinal = 0;

      mshed_model_get_slot (model, s, &slot);
      for (guint b = slot.batch_start; b < (guint) slot.batch_start + slot.batch_count &&
           b < self->n_batches; b++)
        {
          BatchSlot *bs = &self->bslots[fill[b]++];

          bs->slot = s;
          bs->desc_base = mapped ? slot.tri_start + ordinal : G_MAXUINT32;
          ordinal += self->tri_base[b + 1] - self->tri_base[b];
        }
    }
  return self;
}

void
mshed_geom_index_free (MshedGeomIndex *self)
{
  if (self == NULL)
    return;
  g_free (self->tri_base);
  g_free (self->tri_verts);
  g_free (self->vert_start);
  g_free (self->vert_tris);
  g_free (self->bslot_start);
  g_free (self->bslots);
  g_free (self);
}

gsize
mshed_geom_index_get_memory_size (const MshedGeomIndex *self)
{
  return sizeof *self + 4 * ((gsize) self->n_batches + 1) * 2 + 12 * (gsize) self->n_tris +
         4 * ((gsize) self->n_vertices + 1) + 4 * (gsize) self->vert_start[self->n_vertices] +
         sizeof (BatchSlot) * self->bslot_start[self->n_batches];
}

static guint
batch_of_tri (const MshedGeomIndex *self,
              guint32               t)
{
  guint lo = 0, hi = self->n_batches;

  /* the last batch whose first triangle is <= t (empty batches are skipped over) */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->tri_base[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
  while (lo + 1 < self->n_batches && self->tri_base[lo + 1] <= t)
    lo++;
  return lo;
}

static void
add_batch_users (const MshedGeomIndex *self,
                 guint                 batch,
                 gint64                tri_in_batch,  /* -1: all of them */
                 GArray               *slots,
                 GArray               *descriptors)
{
  for (guint32 i = self->bslot_start[batch]; i < self->bslot_start[batch + 1]; i++)
    {
      const BatchSlot *bs = &self->bslots[i];

      if (slots)
        g_array_append_val (slots, bs->slot);
      if (descriptors && bs->desc_base != G_MAXUINT32)
        {
          if (tri_in_batch >= 0)
            {
              guint d = bs->desc_base + (guint) tri_in_batch;
              g_array_append_val (descriptors, d);
            }
          else
            for (guint32 t = 0; t < self->tri_base[batch + 1] - self->tri_base[batch]; t++)
              {
                guint d = bs->desc_base + t;
                g_array_append_val (descriptors, d);
              }
        }
    }
}

void
mshed_geom_index_vertex_users (const MshedGeomIndex *self,
                               guint                 vertex,
                               GArray               *slots,
                               GArray               *descriptors,
                               GArray               *vertices)
{
  if (vertex >= self->n_vertices)
    return;
  for (guint32 i = self->vert_start[vertex]; i < self->vert_start[vertex + 1]; i++)
    {
      guint32 t = self->vert_tris[i];
      guint b = batch_of_tri (self, t);

      add_batch_users (self, b, t - self->tri_base[b], slots, descriptors);
      if (vertices)
        g_array_append_vals (vertices, self->tri_verts + 3 * (gsize) t, 3);
    }
}

void
mshed_geom_index_batch_users (const MshedGeomIndex *self,
                              guint                 batch,
                              GArray               *slots,
                              GArray               *descriptors)
{
  if (batch >= self->n_batches)
    return;
  add_batch_users (self, batch, -1, slots, descriptors);
}
