/* mshed-gltf-rebuild.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Topology changes of a glTF import (docs/gltf.md §6.2). Each rebuilt or new slot is a
 * "piece": the old ranges it owned in the vertex streams (Res3/4/5), the indices (Res6), the
 * batches (Res13) and the descriptors (Res7), and the new content that replaces them. The
 * pieces are spliced into copies of the tables; every range start of an untouched slot,
 * batch or descriptor link moves with the splices and nothing else of it changes. A piece
 * whose old ranges are shared with another slot is refused.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-gltf-rebuild.h"
#include "mshed-recompute-private.h"
#include "mshed-recompute.h"
#include "mshed-schema.h"

#define MAX_BATCH_TRIS (G_MAXUINT16 / 3)   /* a batch's indexCount is 16-bit */
#define SLOT_HEADER 140

enum { V, I, B, T, N_TABLES };             /* vertices, indices, batches, descriptors */

typedef struct {
  guint       mesh;
  guint       slot;
  gboolean    is_new;
  guint       old_start[N_TABLES];
  guint       old_len[N_TABLES];
  guint       new_start[N_TABLES];
  guint       new_len[N_TABLES];
  GByteArray *pos, *nrm, *uv, *idx, *bat, *desc;
  GByteArray *extra[3];                      /* Res15, Res16, Res18 in step with Res3 */
  GArray     *bare;                          /* piece vertices the glTF gave no normal */
} Piece;

typedef struct {
  guint  start, len, new_len;
  guint *new_start;
} Span;

struct _MshedGltfRebuild {
  MshedModel      *model;
  const MshedGltf *gltf;
  GPtrArray       *pieces;
  GArray          *add_nodes;                /* glTF node indices, parents first */
  guint            n[N_TABLES];
  guint            n_slots;
  guint            n_new_slots;
  gboolean         has_nrm, has_uv, has_desc;
  gboolean         has_extra[3];             /* Res15/16/18 with one record per vertex */
  GArray          *spans[N_TABLES];
  GByteArray      *nodes;                    /* new node records (hdr3 filled on apply) */
  GArray          *bare_rows;                /* absolute Res3 rows for the normal recompute */
};

#define fail(rb, error, ...) mshed_gltf_fail ((rb)->gltf, error, __VA_ARGS__)

static void
piece_free (Piece *p)
{
  g_byte_array_unref (p->pos);
  g_byte_array_unref (p->nrm);
  g_byte_array_unref (p->uv);
  g_byte_array_unref (p->idx);
  g_byte_array_unref (p->bat);
  g_byte_array_unref (p->desc);
  for (guint e = 0; e < 3; e++)
    g_byte_array_unref (p->extra[e]);
  g_array_unref (p->bare);
  g_free (p);
}

MshedGltfRebuild *
mshed_gltf_rebuild_new (MshedModel      *model,
                        const MshedGltf *gltf)
{
  MshedGltfRebuild *rb = g_new0 (MshedGltfRebuild, 1);

  rb->model = model;
  rb->gltf = gltf;
  rb->pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) piece_free);
  rb->add_nodes = g_array_new (FALSE, FALSE, sizeof (guint));
  rb->nodes = g_byte_array_new ();
  rb->bare_rows = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint t = 0; t < N_TABLES; t++)
    rb->spans[t] = g_array_new (FALSE, FALSE, sizeof (Span));
  rb->n[V] = mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS);
  rb->n[I] = mshed_model_get_n_rows (model, MSHED_TABLE_INDICES);
  rb->n[B] = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  rb->n[T] = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);
  rb->n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  return rb;
}

void
mshed_gltf_rebuild_free (MshedGltfRebuild *rb)
{
  if (rb == NULL)
    return;
  g_ptr_array_unref (rb->pieces);
  g_array_unref (rb->add_nodes);
  g_byte_array_unref (rb->nodes);
  g_array_unref (rb->bare_rows);
  for (guint t = 0; t < N_TABLES; t++)
    g_array_unref (rb->spans[t]);
  g_free (rb);
}

static Piece *
piece_new (MshedGltfRebuild *rb,
           guint             mesh,
           guint             slot,
           gboolean          is_new)
{
  Piece *p = g_new0 (Piece, 1);

  p->mesh = mesh, p->slot = slot, p->is_new = is_new;
  p->pos = g_byte_array_new ();
  p->nrm = g_byte_array_new ();
  p->uv = g_byte_array_new ();
  p->idx = g_byte_array_new ();
  p->bat = g_byte_array_new ();
  p->desc = g_byte_array_new ();
  for (guint e = 0; e < 3; e++)
    p->extra[e] = g_byte_array_new ();
  p->bare = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (rb->pieces, p);
  return p;
}

void
mshed_gltf_rebuild_slot (MshedGltfRebuild *rb,
                         guint             mesh,
                         guint             slot)
{
  for (guint i = 0; i < rb->pieces->len; i++)
    if (((Piece *) rb->pieces->pdata[i])->mesh == mesh)
      return;
  piece_new (rb, mesh, slot, FALSE);
}

guint
mshed_gltf_rebuild_new_slot (MshedGltfRebuild *rb,
                             guint             mesh)
{
  guint slot = rb->n_slots + rb->n_new_slots++;

  piece_new (rb, mesh, slot, TRUE);
  return slot;
}

void
mshed_gltf_rebuild_add_node (MshedGltfRebuild *rb,
                             guint             node)
{
  g_array_append_val (rb->add_nodes, node);
}

gboolean
mshed_gltf_rebuild_is_empty (MshedGltfRebuild *rb)
{
  return rb->pieces->len == 0 && rb->add_nodes->len == 0;
}

guint
mshed_gltf_rebuild_n_slots (MshedGltfRebuild *rb)
{
  return rb->pieces->len;
}

guint
mshed_gltf_rebuild_n_nodes (MshedGltfRebuild *rb)
{
  return rb->add_nodes->len;
}

/* Record updates ---------------------------------------------------------------------------- */

static gboolean
close_float (float a,
             float b)
{
  return a == b || fabsf (a - b) <= 1e-6f * MAX (1.0f, fabsf (b));
}

void
mshed_gltf_update_position (guint8      *rec,
                            const float *g)
{
  for (guint c = 0; c < 3; c++)
    if (!close_float (g[c], mshed_read_f32 (rec + 4 * c)))
      mshed_write_f32 (rec + 4 * c, g[c]);
}

void
mshed_gltf_update_normal (guint8      *rec,
                          const float *g)
{
  float len = sqrtf (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  float old_len = 0, old[3];

  for (guint k = 0; k < 3; k++)
    {
      old[k] = mshed_decode_normal ((gint8) rec[k]);
      old_len += old[k] * old[k];
    }
  old_len = sqrtf (old_len);
  if (!(len > 0))
    return;
  if (old_len > 0)
    {
      for (guint k = 0; k < 3; k++)
        if (fabsf (g[k] / len - old[k] / old_len) > 1.0f / 127.0f)
          break;
        else if (k == 2)
          return;
    }
  for (guint k = 0; k < 3; k++)
    rec[k] = (guint8) mshed_encode_normal (g[k] / len);
}

void
mshed_gltf_update_uv (guint8      *rec,
                      const float *g)
{
  for (guint c = 0; c < 2; c++)
    {
      gint16 stored = (gint16) mshed_read_u16 (rec + 2 * c);

      if (mshed_encode_uv (g[c]) != stored &&
          fabsf (g[c] - mshed_decode_uv (stored)) > 0.5f / 1024.0f)
        mshed_write_u16 (rec + 2 * c, (guint16) mshed_encode_uv (g[c]));
    }
}

/* Old ranges -------------------------------------------------------------------------------- */

typedef struct {
  guint lo, hi;       /* rows a batch draws, inclusive; lo > hi when none */
} VSpan;

/* The Res3 rows each batch draws. */
static VSpan *
batch_vertex_spans (MshedGltfRebuild *rb)
{
  VSpan *spans = g_new (VSpan, MAX (rb->n[B], 1));

  for (guint b = 0; b < rb->n[B]; b++)
    {
      MshedBatch batch;

      spans[b].lo = G_MAXUINT, spans[b].hi = 0;
      if (!mshed_model_get_batch (rb->model, b, &batch))
        continue;
      for (guint i = batch.index_start;
           i < rb->n[I] && i < (guint64) batch.index_start + batch.index_count; i++)
        {
          guint64 v = (guint64) batch.base_vertex +
                      mshed_read_u16 (mshed_model_get_record (rb->model,
                                                              MSHED_TABLE_INDICES, i));

          if (v >= rb->n[V])
            continue;
          spans[b].lo = MIN (spans[b].lo, (guint) v);
          spans[b].hi = MAX (spans[b].hi, (guint) v);
        }
    }
  return spans;
}

static gboolean
overlap (guint a,
         guint na,
         guint b,
         guint nb)
{
  return na > 0 && nb > 0 && a < b + nb && b < a + na;
}

/* Finds the old ranges of piece @p's slot; FALSE when another slot shares them. */
static gboolean
old_ranges (MshedGltfRebuild *rb,
            Piece            *p,
            const VSpan      *spans,
            GError          **error)
{
  MshedSlot slot;
  guint b0, nb, imin = G_MAXUINT, iend = 0, isum = 0, vlo = G_MAXUINT, vhi = 0;
  gboolean shared = FALSE;

  for (guint t = 0; t < N_TABLES; t++)
    p->old_start[t] = rb->n[t], p->old_len[t] = 0;
  if (p->is_new || !mshed_model_get_slot (rb->model, p->slot, &slot))
    return TRUE;
  b0 = MIN (slot.batch_start, rb->n[B]);
  nb = MIN ((guint) slot.batch_count, rb->n[B] - b0);
  for (guint b = b0; b < b0 + nb; b++)
    {
      MshedBatch batch;

      mshed_model_get_batch (rb->model, b, &batch);
      imin = MIN (imin, batch.index_start);
      iend = MAX (iend, batch.index_start + batch.index_count);
      isum += batch.index_count;
      if (spans[b].lo <= spans[b].hi)
        vlo = MIN (vlo, spans[b].lo), vhi = MAX (vhi, spans[b].hi);
    }
  if (nb > 0)
    {
      p->old_start[B] = b0, p->old_len[B] = nb;
      if (isum > 0)
        p->old_start[I] = imin, p->old_len[I] = isum;
      if (vlo <= vhi)
        p->old_start[V] = vlo, p->old_len[V] = vhi - vlo + 1;
    }
  if (slot.tri_count > 0 && slot.tri_start < rb->n[T])
    p->old_start[T] = slot.tri_start,
    p->old_len[T] = MIN ((guint) slot.tri_count, rb->n[T] - slot.tri_start);
  if (isum > 0 && (iend - imin != isum || iend > rb->n[I]))
    shared = TRUE;
  for (guint s = 0; s < rb->n_slots && !shared; s++)
    {
      MshedSlot o;

      if (s == p->slot || !mshed_model_get_slot (rb->model, s, &o))
        continue;
      if (overlap (p->old_start[B], p->old_len[B], o.batch_start, o.batch_count) ||
          overlap (p->old_start[T], p->old_len[T], o.tri_start, o.tri_count))
        shared = TRUE;
    }
  for (guint b = 0; b < rb->n[B] && !shared; b++)
    {
      MshedBatch batch;
      guint vend = p->old_start[V] + p->old_len[V];

      if ((b >= b0 && b < b0 + nb) || !mshed_model_get_batch (rb->model, b, &batch))
        continue;
      if (overlap (p->old_start[I], p->old_len[I], batch.index_start, batch.index_count) ||
          (spans[b].lo <= spans[b].hi &&
           (overlap (p->old_start[V], p->old_len[V], spans[b].lo, spans[b].hi - spans[b].lo + 1) ||
            (p->old_len[V] > 0 && spans[b].lo >= vend && batch.base_vertex < vend))))
        shared = TRUE;
    }
  if (shared)
    return fail (rb, error, _("meshes[%u] (“%s”): slot %u shares vertices, indices, batches or "
                              "descriptors with another slot; the import cannot rebuild shared "
                              "geometry"), p->mesh, rb->gltf->meshes[p->mesh].name, p->slot);
  return TRUE;
}

/* New content ------------------------------------------------------------------------------- */

typedef struct {
  guint32 v[3];
} Tri;

/* Old descriptors of a slot by their triangle (Res3 rows, smallest corner first). */
typedef struct {
  GHashTable *by_tri;   /* Tri -> descriptor + 1 */
  guint       tri_start;
} OldDesc;

static guint
tri_hash (gconstpointer key)
{
  const guint32 *v = key;

  return v[0] * 0x9E3779B1u ^ v[1] * 0x85EBCA77u ^ v[2] * 0xC2B2AE3Du;
}

static gboolean
tri_equal (gconstpointer a,
           gconstpointer b)
{
  return memcmp (a, b, sizeof (Tri)) == 0;
}

static Tri
tri_canonical (guint32 a,
               guint32 b,
               guint32 c)
{
  Tri t;

  if (a <= b && a <= c)
    t.v[0] = a, t.v[1] = b, t.v[2] = c;
  else if (b <= a && b <= c)
    t.v[0] = b, t.v[1] = c, t.v[2] = a;
  else
    t.v[0] = c, t.v[1] = a, t.v[2] = b;
  return t;
}

static void
old_desc_add (guint          ordinal,
              guint          batch,
              guint          tri_in_batch,
              const guint32  v[3],
              gboolean       valid,
              gpointer       user_data)
{
  OldDesc *od = user_data;
  Tri t = tri_canonical (v[0], v[1], v[2]);

  if (valid && !g_hash_table_contains (od->by_tri, &t))
    g_hash_table_insert (od->by_tri, g_memdup2 (&t, sizeof t),
                         GUINT_TO_POINTER (od->tri_start + ordinal + 1));
}

static const MshedTableId extra_tables[3] = {
  MSHED_TABLE_EXTRA15, MSHED_TABLE_EXTRA16, MSHED_TABLE_EXTRA18
};
static const guint extra_types[3] = { 15, 16, 18 };
static const guint extra_strides[3] = { 8, 8, 4 };

/* The vertex @k of primitive @prim as Res3/4/5 records appended to @p. */
static void
add_vertex (MshedGltfRebuild         *rb,
            Piece                    *p,
            const MshedGltfPrimitive *prim,
            guint                     k,
            guint32                   row)
{
  guint8 pos[12] = { 0 }, nrm[4] = { 0 }, uv[4] = { 0 };
  gboolean old = row != G_MAXUINT32;
  guint index = p->pos->len / 12;

  if (old)
    memcpy (pos, mshed_model_get_record (rb->model, MSHED_TABLE_POSITIONS, row), 12);
  else
    for (guint c = 0; c < 3; c++)
      mshed_write_f32 (pos + 4 * c, prim->positions[3 * (gsize) k + c]);
  mshed_gltf_update_position (pos, prim->positions + 3 * (gsize) k);
  g_byte_array_append (p->pos, pos, 12);
  if (rb->has_nrm)
    {
      if (old)
        memcpy (nrm, mshed_model_get_record (rb->model, MSHED_TABLE_NORMALS, row), 4);
      if (prim->normals)
        mshed_gltf_update_normal (nrm, prim->normals + 3 * (gsize) k);
      else if (!old)
        g_array_append_val (p->bare, index);
      g_byte_array_append (p->nrm, nrm, 4);
    }
  if (rb->has_uv)
    {
      if (old)
        memcpy (uv, mshed_model_get_record (rb->model, MSHED_TABLE_UVS, row), 4);
      if (prim->uvs)
        mshed_gltf_update_uv (uv, prim->uvs + 2 * (gsize) k);
      g_byte_array_append (p->uv, uv, 4);
    }
  for (guint e = 0; e < 3; e++)  /* unknown meaning: kept for old vertices, zero for new */
    if (rb->has_extra[e])
      {
        guint8 x[8] = { 0 };

        if (old)
          memcpy (x, mshed_model_get_record (rb->model, extra_tables[e], row),
                  extra_strides[e]);
        g_byte_array_append (p->extra[e], x, extra_strides[e]);
      }
}

/* The old Res3 row a glTF vertex names by TEXCOORD_1, when it is one of the slot's. */
static guint32
id_row (const Piece              *p,
        const MshedGltfPrimitive *prim,
        guint                     k)
{
  float id;

  if (p->is_new || prim->ids == NULL)
    return G_MAXUINT32;
  id = prim->ids[2 * (gsize) k];
  if (!(id >= p->old_start[V] && id < (double) p->old_start[V] + p->old_len[V]) ||
      id != floorf (id))
    return G_MAXUINT32;
  return (guint32) id;
}

typedef struct {
  guint prim;
  guint first;        /* index of the triangle's first corner in the primitive */
} TriRef;

static guint
material_of (MshedGltfRebuild         *rb,
             const MshedGltfPrimitive *prim,
             guint                     fallback)
{
  if (prim->material >= 0 && (guint) prim->material < rb->gltf->n_materials &&
      rb->gltf->material_index[prim->material] >= 0)
    return (guint) rb->gltf->material_index[prim->material];
  return fallback;
}

/* The batch record to copy for material @mat: the slot's first batch of that material, else
 * its first batch, else zeros. */
static void
batch_template (MshedGltfRebuild *rb,
                Piece            *p,
                guint             mat,
                guint8            out[20])
{
  memset (out, 0, 20);
  for (guint b = p->old_start[B]; b < p->old_start[B] + p->old_len[B]; b++)
    {
      const guint8 *rec = mshed_model_get_record (rb->model, MSHED_TABLE_BATCHES, b);

      if (b == p->old_start[B] || mshed_read_u16 (rec + 2) == mat)
        memcpy (out, rec, 20);
      if (mshed_read_u16 (rec + 2) == mat)
        break;
    }
  mshed_write_u16 (out + 2, (guint16) mat);
}

typedef struct {
  guint   prim, k, seq;
  guint32 row;
} Corner;

/* Old vertices first, in their old order (so a diff shows what really changed), then the new
 * ones in first-use order. */
static gint
corner_compare (gconstpointer a,
                gconstpointer b)
{
  const Corner *x = a, *y = b;

  if (x->row != y->row)
    return x->row < y->row ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One batch of @n triangles of @tris, with its own vertices. */
static void
add_batch (MshedGltfRebuild *rb,
           Piece            *p,
           const TriRef     *tris,
           guint             n,
           guint             mat,
           guint           **local,
           guint           **stamp,
           guint             chunk,
           OldDesc          *od)
{
  const MshedGltfMesh *mesh = &rb->gltf->meshes[p->mesh];
  g_autoptr(GArray) corners = g_array_new (FALSE, FALSE, sizeof (Corner));
  guint8 rec[20];
  guint base = p->pos->len / 12, index_start = p->idx->len / 2;

  for (guint t = 0; t < n; t++)
    for (guint c = 0; c < 3; c++)
      {
        const MshedGltfPrimitive *prim = &mesh->primitives[tris[t].prim];
        guint k = prim->indices[tris[t].first + c];
        Corner corner = { tris[t].prim, k, corners->len, id_row (p, prim, k) };

        if (stamp[tris[t].prim][k] == chunk)
          continue;
        stamp[tris[t].prim][k] = chunk;
        g_array_append_val (corners, corner);
      }
  g_array_sort (corners, corner_compare);
  for (guint i = 0; i < corners->len; i++)
    {
      const Corner *c = &g_array_index (corners, Corner, i);

      local[c->prim][c->k] = i;
      add_vertex (rb, p, &mesh->primitives[c->prim], c->k, c->row);
    }
  for (guint t = 0; t < n; t++)
    {
      const MshedGltfPrimitive *prim = &mesh->primitives[tris[t].prim];
      guint32 rows[3];
      guint8 d[16] = { 0 };

      for (guint c = 0; c < 3; c++)
        {
          guint k = prim->indices[tris[t].first + c];

          rows[c] = id_row (p, prim, k);
          mshed_write_u16 (rec, (guint16) local[tris[t].prim][k]);
          g_byte_array_append (p->idx, rec, 2);
        }
      if (od)
        {
          Tri key = tri_canonical (rows[0], rows[1], rows[2]);
          guint found = GPOINTER_TO_UINT (g_hash_table_lookup (od->by_tri, &key));

          if (found > 0 && rows[0] != G_MAXUINT32 && rows[1] != G_MAXUINT32 &&
              rows[2] != G_MAXUINT32)
            memcpy (d, mshed_model_get_record (rb->model, MSHED_TABLE_TRIS, found - 1), 16);
          for (guint l = 0; l < 3; l++)
            mshed_write_u16 (d + 2 + 2 * l, MSHED_NONE);
          g_byte_array_append (p->desc, d, 16);
        }
    }
  batch_template (rb, p, mat, rec);
  mshed_write_u16 (rec + 8, (guint16) (3 * n));
  mshed_write_u32 (rec + 10, index_start);         /* relative; made absolute on apply */
  mshed_write_u32 (rec + 16, base);
  g_byte_array_append (p->bat, rec, 20);
}

static gboolean
build_piece (MshedGltfRebuild *rb,
             Piece            *p,
             GError          **error)
{
  const MshedGltfMesh *mesh = &rb->gltf->meshes[p->mesh];
  g_autoptr(GArray) tris = g_array_new (FALSE, FALSE, sizeof (TriRef));
  g_autoptr(GArray) mats = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint **local = g_new0 (guint *, MAX (mesh->n_primitives, 1));
  g_autofree guint **stamp = g_new0 (guint *, MAX (mesh->n_primitives, 1));
  guint fallback = 0, chunk = 0;
  OldDesc od = { NULL, 0 };

  if (p->old_len[B] > 0)
    fallback = mshed_read_u16 (mshed_model_get_record (rb->model, MSHED_TABLE_BATCHES,
                                                       p->old_start[B]) + 2);
  for (guint q = 0; q < mesh->n_primitives; q++)
    {
      guint mat = material_of (rb, &mesh->primitives[q], fallback), j;

      local[q] = g_new (guint, MAX (mesh->primitives[q].n_vertices, 1));
      stamp[q] = g_new0 (guint, MAX (mesh->primitives[q].n_vertices, 1));
      for (j = 0; j < mats->len && g_array_index (mats, guint, j) != mat; j++)
        ;
      if (j == mats->len)
        g_array_append_val (mats, mat);
    }
  if (rb->has_desc)
    {
      od.by_tri = g_hash_table_new_full (tri_hash, tri_equal, g_free, NULL);
      if (!p->is_new && mshed_slot_has_tri_mapping (rb->model, p->slot))
        {
          MshedSlot s;

          mshed_model_get_slot (rb->model, p->slot, &s);
          od.tri_start = s.tri_start;
          mshed_slot_foreach_triangle (rb->model, p->slot, old_desc_add, &od);
        }
    }
  for (guint j = 0; j < mats->len; j++)
    {
      guint mat = g_array_index (mats, guint, j);

      g_array_set_size (tris, 0);
      for (guint q = 0; q < mesh->n_primitives; q++)
        if (material_of (rb, &mesh->primitives[q], fallback) == mat)
          for (guint i = 0; i + 2 < mesh->primitives[q].n_indices; i += 3)
            {
              TriRef r = { q, i };

              g_array_append_val (tris, r);
            }
      for (guint t = 0; t < tris->len; t += MAX_BATCH_TRIS)
        add_batch (rb, p, &g_array_index (tris, TriRef, t), MIN (MAX_BATCH_TRIS, tris->len - t),
                   mat, local, stamp, ++chunk, od.by_tri ? &od : NULL);
    }
  for (guint q = 0; q < mesh->n_primitives; q++)
    g_free (local[q]), g_free (stamp[q]);
  g_clear_pointer (&od.by_tri, g_hash_table_unref);
  p->new_len[V] = p->pos->len / 12;
  p->new_len[I] = p->idx->len / 2;
  p->new_len[B] = p->bat->len / 20;
  p->new_len[T] = p->desc->len / 16;
  if (p->new_len[B] > G_MAXUINT16)
    return fail (rb, error, _("meshes[%u] (“%s”): %u batches; a slot holds at most 65,535"),
                 p->mesh, mesh->name, p->new_len[B]);
  return TRUE;
}

/* Layout ------------------------------------------------------------------------------------ */

static gint
span_compare (gconstpointer a,
              gconstpointer b)
{
  const Span *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static void
layout (MshedGltfRebuild *rb)
{
  for (guint t = 0; t < N_TABLES; t++)
    {
      gint64 delta = 0;

      g_array_set_size (rb->spans[t], 0);
      for (guint i = 0; i < rb->pieces->len; i++)
        {
          Piece *p = rb->pieces->pdata[i];
          Span s = { p->old_start[t], p->old_len[t], p->new_len[t], &p->new_start[t] };

          g_array_append_val (rb->spans[t], s);
        }
      g_array_sort (rb->spans[t], span_compare);  /* stable in practice: glib's is a merge sort */
      for (guint i = 0; i < rb->spans[t]->len; i++)
        {
          Span *s = &g_array_index (rb->spans[t], Span, i);

          *s->new_start = (guint) (s->start + delta);
          delta += (gint64) s->new_len - s->len;
        }
    }
}

/* Where old position @pos of table @t is after the splices. */
static guint64
map_pos (MshedGltfRebuild *rb,
         guint             t,
         guint64           pos)
{
  gint64 delta = 0;

  for (guint i = 0; i < rb->spans[t]->len; i++)
    {
      const Span *s = &g_array_index (rb->spans[t], Span, i);

      if (pos >= s->start && pos < (guint64) s->start + s->len)
        return *s->new_start + MIN (pos - s->start, s->new_len);
      if ((guint64) s->start + s->len <= pos)
        delta += (gint64) s->new_len - s->len;
    }
  return (guint64) ((gint64) pos + delta);
}

static guint
new_total (MshedGltfRebuild *rb,
           guint             t)
{
  gint64 total = rb->n[t];

  for (guint i = 0; i < rb->pieces->len; i++)
    {
      Piece *p = rb->pieces->pdata[i];

      total += (gint64) p->new_len[t] - p->old_len[t];
    }
  return (guint) total;
}

/* Nodes ------------------------------------------------------------------------------------- */

static guint
new_node_index (MshedGltfRebuild *rb,
                guint             gltf_node)
{
  guint n_nodes = mshed_model_get_n_rows (rb->model, MSHED_TABLE_NODES);

  for (guint i = 0; i < rb->add_nodes->len; i++)
    if (g_array_index (rb->add_nodes, guint, i) == gltf_node)
      return n_nodes + i;
  return G_MAXUINT;
}

/* Orders the new nodes parents first (glTF lists them in any order). */
static void
order_nodes (MshedGltfRebuild *rb)
{
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint8 *done = g_malloc0 (MAX (rb->gltf->n_nodes, 1));
  gboolean progress = TRUE;

  while (out->len < rb->add_nodes->len && progress)
    {
      progress = FALSE;
      for (guint i = 0; i < rb->add_nodes->len; i++)
        {
          guint g = g_array_index (rb->add_nodes, guint, i);
          gint parent = rb->gltf->nodes[g].parent;
          gboolean parent_new = FALSE;

          for (guint j = 0; j < rb->add_nodes->len; j++)
            if ((gint) g_array_index (rb->add_nodes, guint, j) == parent)
              parent_new = TRUE;
          if (done[g] || (parent_new && !done[parent]))
            continue;
          done[g] = 1, progress = TRUE;
          g_array_append_val (out, g);
        }
    }
  g_array_set_size (rb->add_nodes, 0);
  g_array_append_vals (rb->add_nodes, out->data, out->len);
}

/* The slot new node cell shows glTF mesh @m in: the mesh's own slot when a node of the model
 * shows it too (its extras name it), else one new slot per mesh. */
static guint
slot_for_mesh (MshedGltfRebuild *rb,
               guint             m,
               const guint8     *kept,
               guint            *slot_of_mesh)
{
  guint s;

  if (kept[m] && mshed_gltf_extra_uint (rb->gltf->meshes[m].mshed, "slot", rb->n_slots, &s))
    return s;
  if (slot_of_mesh[m] == G_MAXUINT)
    {
      slot_of_mesh[m] = rb->n_slots + rb->n_new_slots++;
      piece_new (rb, m, slot_of_mesh[m], TRUE);
    }
  return slot_of_mesh[m];
}

/* The other-cell nodes (extras lod, group) under new glTF node @g, a copy of an exported node
 * with its children, give record @rec those cells. */
static gboolean
plan_cells (MshedGltfRebuild *rb,
            guint             g,
            guint8           *rec,
            const guint8     *kept,
            guint            *slot_of_mesh,
            GError          **error)
{
  for (guint c = 0; c < rb->gltf->n_nodes; c++)
    {
      const MshedGltfNode *node = &rb->gltf->nodes[c];
      guint lod, group, cell;

      if (node->parent != (gint) g || node->mesh < 0 ||
          !mshed_gltf_extra_uint (node->mshed, "lod", MSHED_N_LODS, &lod) ||
          !mshed_gltf_extra_uint (node->mshed, "group", MSHED_N_GROUPS, &group))
        continue;
      cell = lod * MSHED_N_GROUPS + group;
      if (mshed_read_u16 (rec + 8 + 2 * cell) != MSHED_NONE)
        return fail (rb, error, _("nodes[%u] (“%s”): a second mesh for LOD %u / group %u of "
                                  "nodes[%u] (“%s”); an MSH node has one mesh per cell"), c,
                     node->name, lod, group, g, rb->gltf->nodes[g].name);
      mshed_write_u16 (rec + 8 + 2 * cell,
                       (guint16) slot_for_mesh (rb, (guint) node->mesh, kept, slot_of_mesh));
    }
  return TRUE;
}

static gboolean
plan_nodes (MshedGltfRebuild *rb,
            const guint      *msh_of_gltf,
            const guint8     *kept,
            GError          **error)
{
  g_autofree guint *slot_of_mesh = g_new (guint, MAX (rb->gltf->n_meshes, 1));
  guint n_nodes = mshed_model_get_n_rows (rb->model, MSHED_TABLE_NODES);

  if (rb->add_nodes->len > 0 && !mshed_model_has_node_records (rb->model))
    return fail (rb, error, _("nodes[%u] (“%s”): a node added to a model with 24-byte node "
                              "records, which cannot take new nodes"),
                 g_array_index (rb->add_nodes, guint, 0),
                 rb->gltf->nodes[g_array_index (rb->add_nodes, guint, 0)].name);
  if (n_nodes + rb->add_nodes->len >= G_MAXUINT16)
    return fail (rb, error, _("%u nodes; a model holds at most 65,534"),
                 n_nodes + rb->add_nodes->len);
  for (guint m = 0; m < rb->gltf->n_meshes; m++)
    slot_of_mesh[m] = G_MAXUINT;
  order_nodes (rb);
  for (guint i = 0; i < rb->add_nodes->len; i++)
    {
      guint g = g_array_index (rb->add_nodes, guint, i), parent = MSHED_NONE;
      const MshedGltfNode *node = &rb->gltf->nodes[g];
      guint8 rec[38];

      if (node->parent >= 0)
        {
          parent = msh_of_gltf[node->parent];
          if (parent == G_MAXUINT)
            parent = new_node_index (rb, (guint) node->parent);
          if (parent == G_MAXUINT || parent >= n_nodes + i)
            return fail (rb, error, _("nodes[%u] (“%s”): its parent nodes[%d] is not an MSH "
                                      "node"), g, node->name, node->parent);
        }
      memset (rec, 0xFF, sizeof rec);
      mshed_write_u16 (rec, 0);
      mshed_write_u16 (rec + 2, (guint16) parent);
      if (node->mesh >= 0)  /* LOD 0, group 0 */
        mshed_write_u16 (rec + 8, (guint16) slot_for_mesh (rb, (guint) node->mesh, kept,
                                                           slot_of_mesh));
      if (!plan_cells (rb, g, rec, kept, slot_of_mesh, error))
        return FALSE;
      g_byte_array_append (rb->nodes, rec, sizeof rec);
    }
  if (rb->n_slots + rb->n_new_slots >= G_MAXUINT16)
    return fail (rb, error, _("%u slots; a model holds at most 65,534"),
                 rb->n_slots + rb->n_new_slots);
  return TRUE;
}

gboolean
mshed_gltf_rebuild_plan (MshedGltfRebuild *rb,
                         const guint      *msh_of_gltf,
                         const guint8     *kept,
                         GError          **error)
{
  g_autofree VSpan *spans = NULL;
  guint n_norm = mshed_model_get_n_rows (rb->model, MSHED_TABLE_NORMALS);
  guint n_uv = mshed_model_get_n_rows (rb->model, MSHED_TABLE_UVS);
  guint desc_total;

  if (!plan_nodes (rb, msh_of_gltf, kept, error))
    return FALSE;
  if (rb->pieces->len == 0)
    return TRUE;
  rb->has_nrm = mshed_model_get_resource (rb->model, 4) != NULL;
  rb->has_uv = mshed_model_get_resource (rb->model, 5) != NULL;
  rb->has_desc = mshed_model_get_resource (rb->model, 7) != NULL;
  if ((rb->has_nrm && n_norm != rb->n[V]) || (rb->has_uv && n_uv != rb->n[V]))
    return fail (rb, error, _("meshes[%u]: the model's Res4 or Res5 does not have one record "
                              "per vertex, so its vertices cannot be rebuilt"),
                 ((Piece *) rb->pieces->pdata[0])->mesh);
  for (guint e = 0; e < 3; e++)
    rb->has_extra[e] = mshed_model_get_resource (rb->model, extra_types[e]) != NULL &&
                       mshed_model_get_n_rows (rb->model, extra_tables[e]) == rb->n[V];
  spans = batch_vertex_spans (rb);
  for (guint i = 0; i < rb->pieces->len; i++)
    if (!old_ranges (rb, rb->pieces->pdata[i], spans, error) ||
        !build_piece (rb, rb->pieces->pdata[i], error))
      return FALSE;
  desc_total = new_total (rb, T);
  if (desc_total > G_MAXUINT16)  /* descriptors do not fit: the pieces get none */
    for (guint i = 0; i < rb->pieces->len; i++)
      {
        Piece *p = rb->pieces->pdata[i];

        g_byte_array_set_size (p->desc, 0);
        p->new_len[T] = 0;
      }
  if (new_total (rb, T) > G_MAXUINT16 || new_total (rb, B) > G_MAXUINT16)
    return fail (rb, error, _("meshes[%u]: the model would have %u batches and %u triangle "
                              "descriptors; Res2 addresses at most 65,535 of each"),
                 ((Piece *) rb->pieces->pdata[0])->mesh, new_total (rb, B), new_total (rb, T));
  layout (rb);
  return TRUE;
}

/* Applying ---------------------------------------------------------------------------------- */

/* @old (stride bytes per row) with every piece's rows of table @t spliced in. */
static GByteArray *
splice (MshedGltfRebuild *rb,
        guint             t,
        const guint8     *old,
        guint             n_old,
        guint             stride,
        gsize             field)
{
  GByteArray *out = g_byte_array_sized_new ((guint) ((gsize) new_total (rb, t) * stride));
  guint at = 0;

  for (guint i = 0; i < rb->spans[t]->len; i++)
    {
      const Span *s = &g_array_index (rb->spans[t], Span, i);
      Piece *p = NULL;

      for (guint j = 0; j < rb->pieces->len; j++)
        if (&((Piece *) rb->pieces->pdata[j])->new_start[t] == s->new_start)
          p = rb->pieces->pdata[j];
      g_byte_array_append (out, old + (gsize) at * stride, (guint) ((gsize) (s->start - at) *
                                                                    stride));
      g_byte_array_append (out, (*(GByteArray **) ((guint8 *) p + field))->data,
                           s->new_len * stride);
      at = s->start + s->len;
    }
  g_byte_array_append (out, old + (gsize) at * stride, (guint) ((gsize) (n_old - at) * stride));
  return out;
}

static gboolean
in_piece (MshedGltfRebuild *rb,
          guint             t,
          guint             new_row)
{
  for (guint i = 0; i < rb->pieces->len; i++)
    {
      Piece *p = rb->pieces->pdata[i];

      if (new_row >= p->new_start[t] && new_row < p->new_start[t] + p->new_len[t])
        return TRUE;
    }
  return FALSE;
}

/* Range starts: the pieces' own made absolute, the others moved with the splices. */
static void
fix_references (MshedGltfRebuild *rb,
                GByteArray       *bat,
                GByteArray       *desc)
{
  for (guint i = 0; i < rb->pieces->len; i++)
    {
      Piece *p = rb->pieces->pdata[i];

      for (guint b = 0; b < p->new_len[B]; b++)
        {
          guint8 *rec = bat->data + (gsize) (p->new_start[B] + b) * 20;

          mshed_write_u32 (rec + 10, mshed_read_u32 (rec + 10) + p->new_start[I]);
          mshed_write_u32 (rec + 16, mshed_read_u32 (rec + 16) + p->new_start[V]);
        }
    }
  for (guint b = 0; b < bat->len / 20; b++)
    {
      guint8 *rec = bat->data + (gsize) b * 20;

      if (in_piece (rb, B, b))
        continue;
      mshed_write_u32 (rec + 10, (guint32) map_pos (rb, I, mshed_read_u32 (rec + 10)));
      mshed_write_u32 (rec + 16, (guint32) map_pos (rb, V, mshed_read_u32 (rec + 16)));
    }
  for (guint d = 0; desc && d < desc->len / 16; d++)
    {
      guint8 *rec = desc->data + (gsize) d * 16;

      if (in_piece (rb, T, d))
        continue;
      for (guint l = 0; l < 3; l++)
        {
          guint link = mshed_read_u16 (rec + 2 + 2 * l);

          if (link != MSHED_NONE)
            mshed_write_u16 (rec + 2 + 2 * l, (guint16) MIN (map_pos (rb, T, link), MSHED_NONE));
        }
    }
}

static GByteArray *
slots_payload (MshedGltfRebuild *rb)
{
  gsize size = 0;
  const guint8 *old = _mshed_recompute_res_data (rb->model, 2, &size);
  GByteArray *out = g_byte_array_new ();
  guint8 zero[68] = { 0 };

  g_byte_array_append (out, old, (guint) size);
  for (guint s = 0; s < rb->n_new_slots; s++)
    g_byte_array_append (out, zero, 68);
  for (guint s = 0; s < rb->n_slots + rb->n_new_slots; s++)
    {
      guint8 *rec = out->data + SLOT_HEADER + (gsize) s * 68;
      Piece *p = NULL;

      for (guint i = 0; i < rb->pieces->len; i++)
        if (((Piece *) rb->pieces->pdata[i])->slot == s)
          p = rb->pieces->pdata[i];
      if (p)
        {
          mshed_write_u16 (rec, (guint16) (p->new_len[T] ? p->new_start[T] : 0));
          mshed_write_u16 (rec + 2, (guint16) p->new_len[T]);
          mshed_write_u16 (rec + 4, (guint16) p->new_start[B]);
          mshed_write_u16 (rec + 6, (guint16) p->new_len[B]);
          continue;
        }
      mshed_write_u16 (rec, (guint16) MIN (map_pos (rb, T, mshed_read_u16 (rec)), MSHED_NONE));
      mshed_write_u16 (rec + 4, (guint16) MIN (map_pos (rb, B, mshed_read_u16 (rec + 4)),
                                               MSHED_NONE));
    }
  return out;
}

static gboolean
set_payload (MshedDocument *doc,
             guint32        type,
             GByteArray    *bytes,
             guint         *edits,
             GError       **error)
{
  MshedModel *model = mshed_document_get_model (doc);
  gint res = mshed_model_find_resource (model, type);
  gsize size = 0;
  const guint8 *now = _mshed_recompute_res_data (model, type, &size);
  g_autoptr(GBytes) payload = NULL;

  if (res < 0 || (size == bytes->len && memcmp (now, bytes->data, size) == 0))
    return TRUE;
  payload = g_bytes_new (bytes->data, bytes->len);
  if (!mshed_document_set_resource_payload (doc, (guint) res, payload, error))
    return FALSE;
  (*edits)++;
  return TRUE;
}

static gboolean
apply_geometry (MshedGltfRebuild *rb,
                MshedDocument    *doc,
                guint            *edits,
                GError          **error)
{
  MshedModel *model = mshed_document_get_model (doc);
  const struct { guint32 type; guint t; guint stride; gsize field; gint extra; } tables[] = {
    { 3, V, 12, G_STRUCT_OFFSET (Piece, pos), -1 },
    { 4, V, 4, G_STRUCT_OFFSET (Piece, nrm), -1 },
    { 5, V, 4, G_STRUCT_OFFSET (Piece, uv), -1 },
    { 6, I, 2, G_STRUCT_OFFSET (Piece, idx), -1 },
    { 13, B, 20, G_STRUCT_OFFSET (Piece, bat), -1 },
    { 7, T, 16, G_STRUCT_OFFSET (Piece, desc), -1 },
    { 15, V, 8, G_STRUCT_OFFSET (Piece, extra[0]), 0 },
    { 16, V, 8, G_STRUCT_OFFSET (Piece, extra[1]), 1 },
    { 18, V, 4, G_STRUCT_OFFSET (Piece, extra[2]), 2 },
  };
  GByteArray *out[G_N_ELEMENTS (tables)] = { NULL };
  g_autoptr(GByteArray) slots = NULL;
  gboolean ok = TRUE;

  if (rb->pieces->len == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      gsize size = 0;
      const guint8 *old = _mshed_recompute_res_data (model, tables[i].type, &size);

      if ((old == NULL && mshed_model_find_resource (model, tables[i].type) < 0) ||
          (tables[i].extra >= 0 && !rb->has_extra[tables[i].extra]))
        continue;
      out[i] = splice (rb, tables[i].t, old, (guint) (size / tables[i].stride), tables[i].stride,
                       tables[i].field);
    }
  fix_references (rb, out[4], out[5]);
  slots = slots_payload (rb);
  for (guint i = 0; i < G_N_ELEMENTS (tables) && ok; i++)
    if (out[i])
      ok = set_payload (doc, tables[i].type, out[i], edits, error);
  ok = ok && set_payload (doc, 2, slots, edits, error);
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (out[i])
      g_byte_array_unref (out[i]);
  for (guint i = 0; i < rb->pieces->len; i++)
    {
      Piece *p = rb->pieces->pdata[i];

      for (guint k = 0; k < p->bare->len; k++)
        {
          guint r = p->new_start[V] + g_array_index (p->bare, guint, k);

          g_array_append_val (rb->bare_rows, r);
        }
    }
  return ok;
}

static gboolean
apply_nodes (MshedGltfRebuild *rb,
             MshedDocument    *doc,
             guint            *edits,
             GError          **error)
{
  MshedModel *model = mshed_document_get_model (doc);
  guint first = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);

  if (rb->add_nodes->len == 0)
    return TRUE;
  if (!mshed_document_insert_rows (doc, MSHED_TABLE_NODES, first, rb->add_nodes->len, NULL,
                                   error))
    return FALSE;
  (*edits)++;
  for (guint i = 0; i < rb->add_nodes->len; i++)
    {
      const MshedGltfNode *node = &rb->gltf->nodes[g_array_index (rb->add_nodes, guint, i)];
      guint8 *rec = rb->nodes->data + (gsize) i * 38, key[24];
      g_autoptr(GBytes) bytes = NULL, key_bytes = NULL;
      guint hdr3;
      float len = 0;
      g_autoptr(GError) local = NULL;

      model = mshed_document_get_model (doc);
      hdr3 = mshed_read_u16 (mshed_model_get_record (model, MSHED_TABLE_NODES, first + i) + 6);
      mshed_write_u16 (rec + 4, MSHED_NONE);
      mshed_write_u16 (rec + 6, (guint16) hdr3);
      bytes = g_bytes_new (rec, 38);
      if (!mshed_document_set_record (doc, MSHED_TABLE_NODES, first + i, bytes, error))
        return FALSE;
      if (node->name[0] != '\0' &&
          !mshed_document_rename_node (doc, first + i, node->name, &local))
        return fail (rb, error, _("nodes[%u] (“%s”): %s"),
                     g_array_index (rb->add_nodes, guint, i), node->name, local->message);
      memcpy (key, mshed_model_get_record (mshed_document_get_model (doc), MSHED_TABLE_KEYS,
                                           hdr3), 24);
      for (guint k = 0; k < 3; k++)
        mshed_write_f32 (key + 4 * k, node->translation[k]);
      for (guint k = 0; k < 4; k++)
        len += node->rotation[k] * node->rotation[k];
      len = sqrtf (len);
      for (guint k = 0; k < 4; k++)
        mshed_write_u16 (key + 16 + 2 * k, (guint16) mshed_encode_quat (len > 0 ?
                                                                          node->rotation[k] / len
                                                                          : k == 3));
      key_bytes = g_bytes_new (key, 24);
      if (!mshed_document_set_record (doc, MSHED_TABLE_KEYS, hdr3, key_bytes, error))
        return FALSE;
      *edits += 3;
    }
  return TRUE;
}

gboolean
mshed_gltf_rebuild_apply (MshedGltfRebuild *rb,
                          MshedDocument    *doc,
                          guint            *edits,
                          GError          **error)
{
  return apply_geometry (rb, doc, edits, error) && apply_nodes (rb, doc, edits, error);
}

void
mshed_gltf_rebuild_finish (MshedGltfRebuild *rb,
                           MshedDocument    *doc)
{
  GPtrArray *left;

  if (mshed_gltf_rebuild_is_empty (rb))
    return;
  if (rb->bare_rows->len > 0)
    mshed_document_recompute (doc, MSHED_DERIVED_VERTEX_NORMALS,
                              (const guint *) rb->bare_rows->data, rb->bare_rows->len, NULL);
  left = mshed_document_list_stale (doc);
  for (guint i = 0; i < left->len; i++)
    {
      const MshedStale *s = left->pdata[i];

      if (s->target & (MSHED_DERIVED_BATCH_RANGES | MSHED_DERIVED_SLOT_RANGES |
                       MSHED_DERIVED_EXTRA_STREAMS))
        mshed_document_acknowledge_stale (doc, s->target, s->cause);
    }
  g_ptr_array_unref (left);
}
