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

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-recompute.h"

static const guint8 *
res_data (const MshedModel *model,
          guint32           type,
          gsize            *size)
{
  const MshedNresEntry *e = mshed_model_get_resource (model, type);

  *size = 0;
  return e ? mshed_nres_entry_get_data (e, size) : NULL;
}

/* The smallest float whose square covers @d2. */
static float
radius_up (double d2)
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
  const guint8 *idx = res_data (model, 6, &isize);
  guint64 n_idx, n_vert;
  guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  guint ordinal = 0;

  res_data (model, 3, &psize);
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

void
mshed_compute_slot_bounds (const MshedModel *model,
                           guint             slot,
                           guint8            out[40])
{
  BoundsAcc acc = { 0 };
  gsize psize;

  acc.pos = res_data (model, 3, &psize);
  for (guint k = 0; k < 3; k++)
    {
      acc.mn[k] = INFINITY;
      acc.mx[k] = -INFINITY;
    }
  mshed_slot_foreach_triangle (model, slot, bounds_tri, &acc);
  memset (out, 0, 40);
  if (!acc.any)
    return;
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
  mshed_write_f32 (out + 36, radius_up (acc.d2));
}

void
mshed_compute_header (const MshedModel *model,
                      guint8            out[140])
{
  gsize psize;
  const guint8 *pos = res_data (model, 3, &psize);
  gsize n = psize / 12;
  float mn[3] = { INFINITY, INFINITY, INFINITY }, mx[3] = { -INFINITY, -INFINITY, -INFINITY };
  float centre[3], a[3], b[3];
  double d2 = 0.0, c2 = 0.0;
  guint axis = 0;

  memset (out, 0, 140);
  if (n == 0)
    return;
  for (gsize i = 0; i < n; i++)
    for (guint k = 0; k < 3; k++)
      {
        float f = mshed_read_f32 (pos + i * 12 + 4 * k);

        mn[k] = MIN (mn[k], f);
        mx[k] = MAX (mx[k], f);
      }
  for (guint k = 0; k < 3; k++)
    {
      centre[k] = (mn[k] + mx[k]) * 0.5f;
      if (mx[k] - mn[k] > mx[axis] - mn[axis])
        axis = k;
    }
  for (guint k = 0; k < 3; k++)
    a[k] = b[k] = centre[k];
  a[axis] = mn[axis];
  b[axis] = mx[axis];
  for (gsize i = 0; i < n; i++)
    {
      double e2 = 0.0, f2 = 0.0;

      for (guint k = 0; k < 3; k++)
        {
          double d = (double) mshed_read_f32 (pos + i * 12 + 4 * k) - centre[k];

          e2 += d * d;
          if (k != axis)
            f2 += d * d;
        }
      d2 = MAX (d2, e2);
      c2 = MAX (c2, f2);
    }
  for (guint i = 0; i < 8; i++)
    for (guint k = 0; k < 3; k++)
      mshed_write_f32 (out + (i * 3 + k) * 4, (i >> k) & 1 ? mx[k] : mn[k]);
  for (guint k = 0; k < 3; k++)
    mshed_write_f32 (out + 0x60 + k * 4, centre[k]);
  mshed_write_f32 (out + 0x6C, radius_up (d2));
  for (guint k = 0; k < 3; k++)
    {
      mshed_write_f32 (out + 0x70 + k * 4, a[k]);
      mshed_write_f32 (out + 0x7C + k * 4, b[k]);
    }
  mshed_write_f32 (out + 0x88, radius_up (c2));
}

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

/* Descriptors ------------------------------------------------------------------------------ */

typedef struct {
  guint first;
  guint second;
} EdgeUsers;

typedef struct {
  const guint8 *pos;
  guint8       *out;
  gboolean      normals;
  GHashTable   *edges;     /* guint64 key -> EdgeUsers* */
  GArray       *tri_v;     /* 3 × guint32 per ordinal, G_MAXUINT32 when invalid */
} DescAcc;

static inline guint64
edge_key (guint32 a,
          guint32 b)
{
  return a < b ? ((guint64) a << 32) | b : ((guint64) b << 32) | a;
}

static void
desc_tri (guint          ordinal,
          guint          batch,
          guint          tri_in_batch,
          const guint32  v[3],
          gboolean       valid,
          gpointer       user_data)
{
  DescAcc *acc = user_data;
  guint32 none[3] = { G_MAXUINT32, G_MAXUINT32, G_MAXUINT32 };

  g_array_append_vals (acc->tri_v, valid ? v : none, 3);
  if (!valid)
    return;
  if (acc->normals)
    {
      double n[3], len;
      guint8 *rec = acc->out + (gsize) ordinal * 16;

      face_normal (acc->pos, v, n);
      len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      for (guint k = 0; k < 3; k++)
        mshed_write_u16 (rec + 8 + 2 * k,
                         (guint16) mshed_encode_tri_normal (len > 0.0 ? (float) (n[k] / len)
                                                                       : 0.0f));
    }
  if (acc->edges)
    for (guint k = 0; k < 3; k++)
      {
        guint64 key = edge_key (v[k], v[(k + 1) % 3]);
        EdgeUsers *u = g_hash_table_lookup (acc->edges, &key);

        if (u == NULL)
          {
            guint64 *kp = g_new (guint64, 1);

            *kp = key;
            u = g_new (EdgeUsers, 1);
            u->first = ordinal;
            u->second = G_MAXUINT;
            g_hash_table_insert (acc->edges, kp, u);
          }
        else if (u->second == G_MAXUINT && u->first != ordinal)
          u->second = ordinal;
      }
}

gboolean
mshed_compute_slot_descriptors (const MshedModel *model,
                                guint             slot,
                                gboolean          normals,
                                gboolean          links,
                                guint8           *out)
{
  MshedSlot s;
  DescAcc acc = { 0 };
  gsize psize;

  if (!mshed_slot_has_tri_mapping (model, slot))
    return FALSE;
  mshed_model_get_slot (model, slot, &s);
  if (s.tri_count == 0)
    return TRUE;
  memcpy (out, mshed_model_get_record (model, MSHED_TABLE_TRIS, s.tri_start),
          (gsize) s.tri_count * 16);
  acc.pos = res_data (model, 3, &psize);
  acc.out = out;
  acc.normals = normals;
  acc.tri_v = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 3 * s.tri_count);
  if (links)
    acc.edges = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  mshed_slot_foreach_triangle (model, slot, desc_tri, &acc);

  if (links)
    {
      for (guint j = 0; j < s.tri_count; j++)
        {
          const guint32 *v = &g_array_index (acc.tri_v, guint32, 3 * (gsize) j);
          guint8 *rec = out + (gsize) j * 16;

          if (v[0] == G_MAXUINT32)
            continue;
          for (guint k = 0; k < 3; k++)
            {
              guint64 key = edge_key (v[k], v[(k + 1) % 3]);
              EdgeUsers *u = g_hash_table_lookup (acc.edges, &key);
              guint other = u->first == j ? u->second : u->first;

              mshed_write_u16 (rec + 2 + 2 * k,
                               other == G_MAXUINT ? MSHED_NONE
                                                  : (guint16) (s.tri_start + other));
            }
        }
      g_hash_table_unref (acc.edges);
    }
  g_array_unref (acc.tri_v);
  return TRUE;
}

/* Vertex normals --------------------------------------------------------------------------- */

GBytes *
mshed_compute_vertex_normals (const MshedModel *model)
{
  gsize psize, nsize, isize;
  const guint8 *pos = res_data (model, 3, &psize);
  const guint8 *nrm = res_data (model, 4, &nsize);
  const guint8 *idx = res_data (model, 6, &isize);
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

      if (len > 0.0)
        for (guint k = 0; k < 3; k++)
          out[4 * i + k] = (guint8) mshed_encode_normal ((float) (a[k] / len));
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
      header->attr2 = 0;
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
      header->attr2 = 0;
      header->attr3 = 4;
      return TRUE;
    case 10:
      {
        const MshedNresEntry *r1 = mshed_model_get_resource (model, 1);
        guint st = r1 && r1->attr3 == 24 ? 24 : 38;

        header->attr1 = r1 ? (guint32) (mshed_nres_entry_get_size (r1) / st) : 0;
        header->attr2 = 0;
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
  header->attr2 = 0;
  header->attr3 = stride;
  return TRUE;
}

/* Animation map (msh.md §7.7 writer procedure) --------------------------------------------- */

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
                         "node order (msh.md §7.7), so the frame map cannot be rebuilt"),
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
  const guint8 *idx = res_data (model, 6, &isize);
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  guint64 total = 0;
  g_autofree guint32 *fill = NULL;

  res_data (model, 3, &psize);
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
