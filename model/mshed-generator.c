/* mshed-generator.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a model is built (see mshed-generator.h for what it covers):
 *
 *  1. nodes: parent links (always to a lower index), names, which (lod, group) cells draw a
 *     slot; a cell may reuse a slot of another cell, and cells stay 0xFFFF (gaps);
 *  2. slots: each is one parametric surface (ellipsoid, tube, cone or wavy plate) in the
 *     owning node's local space; a slot's triangles are split over 1..n batches, each batch a
 *     grid strip of the surface with its own baseVertex, so Res6 stays u16 and a batch holds
 *     at most MAX_BATCH_TRIS triangles (indexCount is u16 as well);
 *  3. Res7: one descriptor per triangle with the grid neighbours as links while the model has
 *     at most 65535 triangles; above that each slot gets a proportional share of 65535
 *     descriptors (the descriptor <-> triangle correspondence is unknown, docs/msh.md §12);
 *  4. bounds of slots and the Res2 header from the quantised positions;
 *  5. keys and the frame map in the canonical docs/msh.md §7.7 layout.
 */
#define G_LOG_DOMAIN "mshed-generator"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-random.h"
#include "mshed-recompute.h"

#define MAX_BATCH_TRIS   16000u    /* 48000 indices: below the u16 indexCount limit */
#define MAX_DESCRIPTORS  65535u    /* triStart/triCount and links are u16 */
#define MAX_SLOTS        400u
#define POS_SCALE        256.0     /* positions are multiples of 1/256 */
#define MAX_TRACK_KEYS   6u
#define MAX_KEY_STEP     24u

/* Random numbers: xoshiro256** seeded through splitmix64 ----------------------------------- */

typedef struct {
  guint64 s[4];
} Rng;

enum {
  STREAM_MODEL = 1,
  STREAM_PARAMS,
  STREAM_ARCHIVE,
  STREAM_ARCHIVE_MODEL,
};

static void
rng_init (Rng     *rng,
          guint64  seed,
          guint64  stream)
{
  guint64 x = seed ^ (stream * G_GUINT64_CONSTANT (0xD1B54A32D192ED03));

  for (guint i = 0; i < 4; i++)
    rng->s[i] = mshed_splitmix64 (&x);
}

static inline guint64
rotl (guint64 x,
      int     k)
{
  return (x << k) | (x >> (64 - k));
}

static guint64
rng_next (Rng *rng)
{
  guint64 *s = rng->s;
  guint64 result = rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

/* uniform in [0, n), n >= 1 */
static guint
rng_below (Rng   *rng,
           guint  n)
{
  return (guint) (((rng_next (rng) >> 32) * (guint64) n) >> 32);
}

/* uniform in [lo, hi] */
static guint
rng_range (Rng   *rng,
           guint  lo,
           guint  hi)
{
  return lo + rng_below (rng, hi - lo + 1);
}

/* uniform in [0, 1) with 53 random bits */
static double
rng_unit (Rng *rng)
{
  return (double) (rng_next (rng) >> 11) * (1.0 / 9007199254740992.0);
}

static double
rng_between (Rng    *rng,
             double  lo,
             double  hi)
{
  return lo + (hi - lo) * rng_unit (rng);
}

static gboolean
rng_chance (Rng    *rng,
            double  p)
{
  return rng_unit (rng) < p;
}

static void
rng_fill (Rng    *rng,
          guint8 *out,
          gsize   len)
{
  for (gsize i = 0; i < len; i++)
    out[i] = (guint8) (rng_next (rng) >> 56);
}

/* Model plan ------------------------------------------------------------------------------- */

typedef enum {
  SHAPE_ELLIPSOID,
  SHAPE_TUBE,
  SHAPE_CONE,
  SHAPE_PLATE,
  N_SHAPES
} ShapeKind;

typedef struct {
  ShapeKind kind;
  double    centre[3];
  double    size[3];
  double    waves;        /* plate: number of bumps */
  double    uv_scale;
} Shape;

typedef struct {
  Shape   shape;
  double  weight;         /* share of the triangles */
  guint   n_tris;
  guint   batch_start;
  guint   batch_count;
  guint   tri_start;      /* Res7 */
  guint   tri_count;
  guint32 unk[5];
  guint8  colour[3];      /* Res18 */
} GenSlot;

typedef struct {
  guint   slot;
  guint   n_tris;
  guint   cols;           /* quads per grid row */
  guint   rows;           /* quad rows, the last one possibly partial */
  guint   n_verts;
  guint   slot_tri_base;  /* first triangle of this batch inside its slot */
  guint32 base_vertex;
  guint32 index_start;
  double  v0, v1;         /* the strip of the slot's surface */
  guint16 flags;
  guint16 material;
  guint16 unk4;
  guint16 unk6;
  guint16 unk14;
  guint32 extra15;        /* Res15 tail word */
} GenBatch;

typedef struct {
  guint16       flags;
  guint16       parent;
  guint16       map_start;
  guint16       last_key;
  guint16       cell[MSHED_N_SLOT_CELLS];
  guint         n_keys;
  gboolean      mapped;
  double        offset[3];
  const guint8 *name;
  guint         name_len;
  char          name_buf[24];
} GenNode;

typedef struct {
  Rng                   rng;
  const MshedGenParams *params;
  guint                 n_tris;
  guint                 n_nodes;
  guint                 n_materials;
  gboolean              legacy;
  gboolean              animated;
  GenNode              *nodes;
  GArray               *slots;     /* GenSlot */
  GArray               *batches;   /* GenBatch */
  guint                 n_verts;
  guint                 n_descriptors;
  float                *pos;       /* n_verts * 3, quantised */
} Gen;

/* Windows-1251 node names (docs/msh.md §4.10: raw 8-bit text) */
static const char *const cyrillic_names[] = {
  "\xc1\xe0\xf8\xed\xff",                 /* Башня */
  "\xca\xee\xf0\xef\xf3\xf1",             /* Корпус */
  "\xcf\xf3\xf8\xea\xe0",                 /* Пушка */
  "\xca\xee\xeb\xe5\xf1\xee",             /* Колесо */
  "\xd1\xf2\xe2\xee\xeb",                 /* Ствол */
  "\xc0\xed\xf2\xe5\xed\xed\xe0",         /* Антенна */
  "\xc3\xf3\xf1\xe5\xed\xe8\xf6\xe0",     /* Гусеница */
  "\xcb\xfe\xea",                         /* Люк */
};

static const char *const ascii_names[] = {
  "body", "base", "turret", "gun", "barrel_L", "barrel_R", "wheel", "antenna", "hatch",
  "radar", "track_L", "track_R", "light", "fx_smoke", "dummy", "Cabin", "ROTOR", "door",
};

static GenSlot *
slot_at (Gen  *gen,
         guint index)
{
  return &g_array_index (gen->slots, GenSlot, index);
}

static GenBatch *
batch_at (Gen  *gen,
          guint index)
{
  return &g_array_index (gen->batches, GenBatch, index);
}

static void
random_shape (Gen   *gen,
              Shape *shape)
{
  Rng *rng = &gen->rng;

  shape->kind = (ShapeKind) rng_below (rng, N_SHAPES);
  for (guint k = 0; k < 3; k++)
    {
      shape->centre[k] = rng_between (rng, -1.0, 1.0);
      shape->size[k] = rng_between (rng, 0.25, 3.0);
    }
  shape->waves = (double) rng_range (rng, 1, 4);
  shape->uv_scale = (double) rng_range (rng, 1, 4);
}

/* Picks the slot for one (lod, group) cell: a new one, or an existing one (shared slot). */
static guint16
assign_cell (Gen           *gen,
             guint          lod,
             guint          max_slots,
             const GenSlot *lod0)
{
  GenSlot slot = { 0 };
  Rng *rng = &gen->rng;

  if (gen->slots->len > 0 && (gen->slots->len >= max_slots || rng_chance (rng, 0.08)))
    return (guint16) rng_below (rng, gen->slots->len);

  if (lod0 != NULL)
    slot.shape = lod0->shape;  /* a coarser version of the same part */
  else
    random_shape (gen, &slot.shape);
  slot.weight = (lod == 0 ? 1.0 : lod == 1 ? 0.45 : 0.2) * rng_between (rng, 0.5, 1.5);
  for (guint k = 0; k < 5; k++)
    slot.unk[k] = rng_chance (rng, 0.5) ? 0 : rng_below (rng, 1u << (4 * k + 4));
  for (guint k = 0; k < 3; k++)
    slot.colour[k] = (guint8) rng_range (rng, 64, 255);
  g_array_append_val (gen->slots, slot);
  return (guint16) (gen->slots->len - 1);
}

static void
plan_nodes (Gen *gen)
{
  Rng *rng = &gen->rng;
  guint max_slots = CLAMP (gen->n_tris / 6, 1, MAX_SLOTS);
  guint cyr = 0, ascii = rng_below (rng, G_N_ELEMENTS (ascii_names));

  gen->nodes = g_new0 (GenNode, gen->n_nodes);
  for (guint n = 0; n < gen->n_nodes; n++)
    {
      GenNode *node = &gen->nodes[n];
      static const guint16 flag_values[] = { 0x0000, 0x0000, 0x0001, 0x0002, 0x0004, 0x0010 };

      node->flags = flag_values[rng_below (rng, G_N_ELEMENTS (flag_values))];
      if (n == 0 || rng_chance (rng, 0.15))
        node->parent = MSHED_NONE;
      else
        node->parent = (guint16) rng_below (rng, n);  /* parent before child */
      for (guint k = 0; k < 3; k++)
        node->offset[k] = n == 0 ? 0.0 : rng_between (rng, -2.0, 2.0);
      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        node->cell[c] = MSHED_NONE;

      if (gen->n_nodes == 1 || rng_chance (rng, 0.85))
        {
          guint group = rng_chance (rng, 0.8) ? 0 : rng_below (rng, MSHED_N_GROUPS);
          guint16 s0 = assign_cell (gen, 0, max_slots, NULL);
          guint new_slot = gen->slots->len - 1;
          const GenSlot *lod0 = s0 == new_slot ? slot_at (gen, s0) : NULL;
          GenSlot lod0_copy;

          if (lod0)
            {
              lod0_copy = *lod0;  /* the array may move */
              lod0 = &lod0_copy;
            }
          node->cell[group] = s0;
          if (rng_chance (rng, 0.4))
            node->cell[5 + group] = assign_cell (gen, 1, max_slots, lod0);
          if (rng_chance (rng, 0.25))
            /* lod 1 may be a gap */
            node->cell[10 + group] = assign_cell (gen, 2, max_slots, lod0);
          if (rng_chance (rng, 0.15))
            {
              guint other = (group + 1 + rng_below (rng, MSHED_N_GROUPS - 1)) % MSHED_N_GROUPS;

              node->cell[other] = assign_cell (gen, 0, max_slots, NULL);
            }
        }

      /* names: Cyrillic for node 0 and some others, the last one empty, ASCII otherwise */
      if (gen->params->empty_names && n == gen->n_nodes - 1 &&
          (n > 0 || !gen->params->cyrillic_names))
        {
          node->name = NULL;
          node->name_len = 0;
        }
      else if (gen->params->empty_names && n > 0 && rng_chance (rng, 0.15))
        {
          node->name = NULL;
          node->name_len = 0;
        }
      else if (gen->params->cyrillic_names && (n == 0 || rng_chance (rng, 0.4)))
        {
          const char *text = cyrillic_names[(cyr++ + n) % G_N_ELEMENTS (cyrillic_names)];

          node->name = (const guint8 *) text;
          node->name_len = (guint) strlen (text);
        }
      else
        {
          guint which = (ascii + n) % G_N_ELEMENTS (ascii_names);

          if (n < G_N_ELEMENTS (ascii_names))
            g_strlcpy (node->name_buf, ascii_names[which], sizeof node->name_buf);
          else
            g_snprintf (node->name_buf, sizeof node->name_buf, "%s%02u", ascii_names[which], n);
          node->name = (const guint8 *) node->name_buf;
          node->name_len = (guint) strlen (node->name_buf);
        }
    }

  if (gen->slots->len == 0)
    gen->nodes[0].cell[0] = assign_cell (gen, 0, max_slots, NULL);
}

/* Splits @total into @n parts of at least @min each, proportional to @weights (NULL: equal).
 * The parts add up to @total exactly. */
static void
distribute (guint         total,
            guint         n,
            guint         min,
            const double *weights,
            gsize         weight_stride,
            guint        *out,
            gsize         out_stride)
{
  double sum = 0.0;
  guint rest = total - n * min, given = 0;

  for (guint i = 0; i < n; i++)
    sum += weights ? *(const double *) ((const guint8 *) weights + i * weight_stride) : 1.0;
  for (guint i = 0; i < n; i++)
    {
      double w = weights ? *(const double *) ((const guint8 *) weights + i * weight_stride) : 1.0;
      guint share = (guint) floor ((double) rest * w / sum);
      guint *dst = (guint *) ((guint8 *) out + i * out_stride);

      share = MIN (share, rest - given);
      *dst = min + share;
      given += share;
    }
  for (guint i = 0; given < rest; i = (i + 1) % n, given++)
    (*(guint *) ((guint8 *) out + i * out_stride))++;
}

static void
plan_geometry (Gen *gen)
{
  Rng *rng = &gen->rng;
  guint n_slots = gen->slots->len;
  guint32 base_vertex = 0, index_start = 0;
  guint tri_start = 0;

  distribute (gen->n_tris, n_slots, 2, &slot_at (gen, 0)->weight, sizeof (GenSlot),
              &slot_at (gen, 0)->n_tris, sizeof (GenSlot));

  for (guint s = 0; s < n_slots; s++)
    {
      GenSlot *slot = slot_at (gen, s);
      guint need = (slot->n_tris + MAX_BATCH_TRIS - 1) / MAX_BATCH_TRIS;
      guint n_batches = need + rng_below (rng, 3);
      guint base = 0;

      n_batches = MAX (need, MIN (n_batches, slot->n_tris / 4));
      n_batches = MAX (n_batches, 1);
      slot->batch_start = gen->batches->len;
      slot->batch_count = n_batches;

      for (guint b = 0; b < n_batches; b++)
        {
          GenBatch batch = { 0 };
          double aspect = slot->shape.kind == SHAPE_PLATE ? 1.0 : 2.5;
          guint quads, last;

          batch.slot = s;
          batch.n_tris = slot->n_tris / n_batches + (b < slot->n_tris % n_batches ? 1 : 0);
          quads = (batch.n_tris + 1) / 2;
          /* the strip is 1/n_batches of the surface high: wider than tall */
          batch.cols = (guint) CLAMP (sqrt ((double) quads * aspect * n_batches), 1.0,
                                      (double) quads);
          batch.rows = (quads + batch.cols - 1) / batch.cols;
          last = quads - (batch.rows - 1) * batch.cols;
          /* full vertex rows 0..rows-1, then the top row as far as the last quad needs */
          batch.n_verts = batch.rows * (batch.cols + 1) + last + 1;
          g_assert (batch.n_verts <= 65536);
          batch.slot_tri_base = base;
          batch.base_vertex = base_vertex;
          batch.index_start = index_start;
          batch.v0 = (double) b / n_batches;
          batch.v1 = (double) (b + 1) / n_batches;
          batch.flags = rng_chance (rng, 0.7) ? 0 : (guint16) (1u << rng_below (rng, 4));
          batch.material = (guint16) rng_below (rng, gen->n_materials);
          batch.unk4 = (guint16) (rng_chance (rng, 0.5) ? 0 : rng_below (rng, 256));
          batch.unk6 = (guint16) (rng_chance (rng, 0.5) ? 0 : rng_below (rng, 256));
          batch.unk14 = (guint16) (rng_chance (rng, 0.7) ? 0 : rng_below (rng, 65536));
          batch.extra15 = (guint32) rng_next (rng);
          base += batch.n_tris;
          base_vertex += batch.n_verts;
          index_start += 3 * batch.n_tris;
          g_array_append_val (gen->batches, batch);
        }
    }
  gen->n_verts = base_vertex;

  /* Res7 descriptors per slot */
  for (guint s = 0; s < n_slots; s++)
    {
      GenSlot *slot = slot_at (gen, s);

      if (gen->n_tris <= MAX_DESCRIPTORS)
        slot->tri_count = slot->n_tris;
      else
        slot->tri_count = MAX (1, (guint) ((guint64) slot->n_tris * (MAX_DESCRIPTORS - n_slots)
                                           / gen->n_tris));
      slot->tri_start = tri_start;
      tri_start += slot->tri_count;
    }
  g_assert (tri_start <= MAX_DESCRIPTORS);
  gen->n_descriptors = tri_start;
}

/* Geometry --------------------------------------------------------------------------------- */

static void
eval_shape (const Shape *shape,
            double       u,
            double       v,
            double       pos[3],
            double       nrm[3])
{
  const double *c = shape->centre, *s = shape->size;
  double lon = 2.0 * G_PI * u;
  double cl = cos (lon), sl = sin (lon);
  double len;

  switch (shape->kind)
    {
    case SHAPE_ELLIPSOID:
      {
        double lat = (v - 0.5) * G_PI * 0.9;
        double ca = cos (lat), sa = sin (lat);

        pos[0] = s[0] * ca * cl;
        pos[1] = s[1] * sa;
        pos[2] = s[2] * ca * sl;
        nrm[0] = ca * cl / s[0];
        nrm[1] = sa / s[1];
        nrm[2] = ca * sl / s[2];
      }
      break;
    case SHAPE_TUBE:
      pos[0] = s[0] * cl;
      pos[1] = s[1] * (2.0 * v - 1.0);
      pos[2] = s[2] * sl;
      nrm[0] = cl / s[0];
      nrm[1] = 0.0;
      nrm[2] = sl / s[2];
      break;
    case SHAPE_CONE:
      {
        double r = 1.0 - 0.7 * v;

        pos[0] = s[0] * r * cl;
        pos[1] = s[1] * (2.0 * v - 1.0);
        pos[2] = s[2] * r * sl;
        nrm[0] = cl / s[0];
        nrm[1] = 0.35 / s[1];
        nrm[2] = sl / s[2];
      }
      break;
    case SHAPE_PLATE:
    default:
      {
        double k = 2.0 * G_PI * shape->waves, a = 0.25 * s[1];

        pos[0] = s[0] * (2.0 * u - 1.0);
        pos[2] = s[2] * (2.0 * v - 1.0);
        pos[1] = a * sin (k * u) * sin (k * v);
        nrm[0] = -a * k * cos (k * u) * sin (k * v) / (2.0 * s[0]);
        nrm[1] = 1.0;
        nrm[2] = -a * k * sin (k * u) * cos (k * v) / (2.0 * s[2]);
      }
      break;
    }
  for (guint i = 0; i < 3; i++)
    pos[i] += c[i];
  len = sqrt (nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  for (guint i = 0; i < 3; i++)
    nrm[i] = len > 0.0 ? nrm[i] / len : 0.0;
}

static float
quantise (double v)
{
  return (float) ((double) lrint (v * POS_SCALE) / POS_SCALE);
}

/* The three local vertex numbers of triangle @t of a batch grid. */
static void
grid_triangle (const GenBatch *batch,
               guint           t,
               guint           out[3])
{
  guint q = t / 2, qi = q % batch->cols, qj = q / batch->cols, w = batch->cols + 1;
  guint a = qj * w + qi, b = a + 1, d = a + w, c = d + 1;

  if ((t & 1) == 0)
    {
      out[0] = a;
      out[1] = c;
      out[2] = b;
    }
  else
    {
      out[0] = a;
      out[1] = d;
      out[2] = c;
    }
}

/* Fills Res3/4/5/15/18, Res6 and Res13. */
static void
build_geometry (Gen    *gen,
                guint8 *res3,
                guint8 *res4,
                guint8 *res5,
                guint8 *res6,
                guint8 *res13,
                guint8 *res15,
                guint8 *res18)
{
  for (guint bi = 0; bi < gen->batches->len; bi++)
    {
      const GenBatch *batch = batch_at (gen, bi);
      const GenSlot *slot = slot_at (gen, batch->slot);
      guint w = batch->cols + 1;
      guint8 *rec = res13 + (gsize) bi * 20;

      for (guint lv = 0; lv < batch->n_verts; lv++)
        {
          guint i = lv % w, j = lv / w;
          guint32 v = batch->base_vertex + lv;
          double u = (double) i / batch->cols;
          double vv = batch->v0 + (batch->v1 - batch->v0) * j / batch->rows;
          double p[3], n[3];
          float *dst = gen->pos + 3 * (gsize) v;

          eval_shape (&slot->shape, u, vv, p, n);
          for (guint k = 0; k < 3; k++)
            {
              dst[k] = quantise (p[k]);
              mshed_write_f32 (res3 + (gsize) v * 12 + k * 4, dst[k]);
              res4[(gsize) v * 4 + k] = (guint8) mshed_encode_normal ((float) n[k]);
            }
          res4[(gsize) v * 4 + 3] = 0;
          mshed_write_u16 (res5 + (gsize) v * 4,
                           (guint16) mshed_encode_uv ((float) (u * slot->shape.uv_scale)));
          mshed_write_u16 (res5 + (gsize) v * 4 + 2,
                           (guint16) mshed_encode_uv ((float) (vv * slot->shape.uv_scale)));
          /* Res15: a second (lightmap-like) UV pair and a per-batch word */
          mshed_write_u16 (res15 + (gsize) v * 8, (guint16) mshed_encode_uv ((float) u));
          mshed_write_u16 (res15 + (gsize) v * 8 + 2, (guint16) mshed_encode_uv ((float) vv));
          mshed_write_u32 (res15 + (gsize) v * 8 + 4, batch->extra15);
          if (res18)
            {
              double shade = 0.6 + 0.4 * CLAMP (n[1], -1.0, 1.0);

              for (guint k = 0; k < 3; k++)
                res18[(gsize) v * 4 + k] = (guint8) (slot->colour[k] * shade);
              res18[(gsize) v * 4 + 3] = 0xFF;
            }
        }

      for (guint t = 0; t < batch->n_tris; t++)
        {
          guint tri[3];

          grid_triangle (batch, t, tri);
          for (guint k = 0; k < 3; k++)
            {
              g_assert (tri[k] < batch->n_verts);
              mshed_write_u16 (res6 + ((gsize) batch->index_start + 3 * t + k) * 2,
                               (guint16) tri[k]);
            }
        }

      mshed_write_u16 (rec + 0, batch->flags);
      mshed_write_u16 (rec + 2, batch->material);
      mshed_write_u16 (rec + 4, batch->unk4);
      mshed_write_u16 (rec + 6, batch->unk6);
      mshed_write_u16 (rec + 8, (guint16) (3 * batch->n_tris));
      mshed_write_u32 (rec + 10, batch->index_start);
      mshed_write_u16 (rec + 14, batch->unk14);
      mshed_write_u32 (rec + 16, batch->base_vertex);
    }
}

static void
build_descriptors (Gen    *gen,
                   guint8 *res7)
{
  Rng *rng = &gen->rng;
  static const guint16 tri_flags[] = { 0x0000, 0x0000, 0x0001, 0x0002, 0x0008, 0x0020 };

  for (guint s = 0; s < gen->slots->len; s++)
    {
      const GenSlot *slot = slot_at (gen, s);
      gboolean one_to_one = slot->tri_count == slot->n_tris;
      guint bi = slot->batch_start;

      for (guint j = 0; j < slot->tri_count; j++)
        {
          guint k = (guint) ((guint64) j * slot->n_tris / slot->tri_count);
          const GenBatch *batch;
          guint8 *rec = res7 + ((gsize) slot->tri_start + j) * 16;
          guint tri[3];
          const float *p[3];
          gint16 normal[3] = { 0, 0, 0 };
          guint16 links[3] = { MSHED_NONE, MSHED_NONE, MSHED_NONE };
          guint16 sel;

          while (k >= batch_at (gen, bi)->slot_tri_base + batch_at (gen, bi)->n_tris)
            bi++;
          batch = batch_at (gen, bi);
          grid_triangle (batch, k - batch->slot_tri_base, tri);
          for (guint i = 0; i < 3; i++)
            p[i] = gen->pos + 3 * ((gsize) batch->base_vertex + tri[i]);

          /* a mapped slot's normals and links come from the geometry (derive ()); the
           * descriptors of an unmapped slot describe a sample of its triangles */
          if (!one_to_one)
            {
              mshed_encode_face_normal (p[0], p[1], p[2], normal);
              links[0] = j > 0 ? (guint16) (slot->tri_start + j - 1) : MSHED_NONE;
              links[1] = j + 1 < slot->tri_count ? (guint16) (slot->tri_start + j + 1)
                                                 : MSHED_NONE;
            }

          sel = (guint16) (rng_below (rng, 4) | (rng_below (rng, 4) << 2)
                           | (rng_below (rng, 4) << 4));
          if (rng_chance (rng, 0.05))
            sel |= (guint16) (rng_below (rng, 1024) << 6);

          mshed_write_u16 (rec + 0, tri_flags[rng_below (rng, G_N_ELEMENTS (tri_flags))]);
          for (guint i = 0; i < 3; i++)
            {
              mshed_write_u16 (rec + 2 + 2 * i, links[i]);
              mshed_write_u16 (rec + 8 + 2 * i, (guint16) normal[i]);
            }
          mshed_write_u16 (rec + 14, sel);
        }
    }
}

static void
write_slots (Gen    *gen,
             guint8 *res2)
{
  for (guint s = 0; s < gen->slots->len; s++)
    {
      const GenSlot *slot = slot_at (gen, s);
      guint8 *rec = res2 + MSHED_RES2_HEADER_SIZE + (gsize) s * 68;

      mshed_write_u16 (rec + 0, (guint16) slot->tri_start);
      mshed_write_u16 (rec + 2, (guint16) slot->tri_count);
      mshed_write_u16 (rec + 4, (guint16) slot->batch_start);
      mshed_write_u16 (rec + 6, (guint16) slot->batch_count);
      /* bounds: filled in by derive() */
      for (guint k = 0; k < 5; k++)
        mshed_write_u32 (rec + 48 + 4 * k, slot->unk[k]);
    }
}

/* Animation, docs/msh.md §7.7 ------------------------------------------------------------------ */

static void
write_key (guint8       *rec,
           const double  pos[3],
           guint         time,
           guint         axis,
           double        angle)
{
  double h = angle * 0.5;
  double q[4] = { 0.0, 0.0, 0.0, cos (h) };

  q[axis] = sin (h);
  for (guint k = 0; k < 3; k++)
    mshed_write_f32 (rec + 4 * k, quantise (pos[k]));
  mshed_write_f32 (rec + 12, (float) time);
  for (guint k = 0; k < 4; k++)
    mshed_write_u16 (rec + 16 + 2 * k, (guint16) mshed_encode_quat ((float) q[k]));
}

/* Builds Res8 and Res19 and sets hdr2/hdr3 of every node. */
static void
build_animation (Gen     *gen,
                 GBytes **res8_out,
                 GBytes **res19_out,
                 guint   *frame_count_out)
{
  Rng *rng = &gen->rng;
  guint n_keys = 0, frame_count = 1, n_mapped = 0;
  g_autofree guint *times = NULL;
  guint8 *res8;
  guint16 *map;
  guint words = 0;

  if (gen->legacy)
    {
      double origin[3] = { 0.0, 0.0, 0.0 };

      res8 = g_malloc0 (24);
      write_key (res8, origin, 0, 1, 0.0);
      *res8_out = g_bytes_new_take (res8, 24);
      *res19_out = g_bytes_new (NULL, 0);
      *frame_count_out = 1;
      return;
    }

  if (gen->animated)
    {
      for (guint n = 0; n < gen->n_nodes; n++)
        gen->nodes[n].mapped = rng_chance (rng, 0.5);
      gen->nodes[rng_below (rng, gen->n_nodes)].mapped = TRUE;
    }
  for (guint n = 0; n < gen->n_nodes; n++)
    {
      gen->nodes[n].n_keys = gen->nodes[n].mapped ? rng_range (rng, 2, MAX_TRACK_KEYS) : 1;
      n_keys += gen->nodes[n].n_keys;
    }

  times = g_new (guint, n_keys);
  res8 = g_malloc0 ((gsize) n_keys * 24);
  n_keys = 0;
  for (guint n = 0; n < gen->n_nodes; n++)
    {
      GenNode *node = &gen->nodes[n];
      guint axis = rng_below (rng, 3), t = 0;
      double angle = rng_chance (rng, 0.5) ? 0.0 : rng_between (rng, -G_PI, G_PI);
      double spin = rng_between (rng, -1.0, 1.0);
      double pos[3];

      for (guint k = 0; k < 3; k++)
        pos[k] = node->offset[k];
      for (guint i = 0; i < node->n_keys; i++)
        {
          if (i > 0)
            {
              t += rng_range (rng, 1, MAX_KEY_STEP);
              angle += spin;
              pos[rng_below (rng, 3)] += rng_between (rng, -0.5, 0.5);
            }
          times[n_keys] = t;
          write_key (res8 + (gsize) n_keys * 24, pos, t, axis, angle);
          n_keys++;
        }
      node->last_key = (guint16) (n_keys - 1);
      frame_count = MAX (frame_count, t + 1);
      if (node->mapped)
        n_mapped++;
    }

  map = g_new (guint16, (gsize) n_mapped * frame_count + 1);
  for (guint n = 0, start = 0; n < gen->n_nodes; n++)
    {
      GenNode *node = &gen->nodes[n];
      guint end = node->last_key;

      node->map_start = MSHED_NONE;
      if (node->mapped)
        {
          guint idx = start;

          node->map_start = (guint16) words;
          for (guint f = 0; f < frame_count; f++)
            {
              if (f < times[start] || f >= times[end])
                map[words++] = (guint16) end;
              else
                {
                  while (times[idx + 1] <= f)
                    idx++;
                  map[words++] = (guint16) idx;
                }
            }
        }
      start = end + 1;
    }
  g_assert (words < MSHED_NONE);

  for (guint i = 0; i < words; i++)
    mshed_write_u16 ((guint8 *) &map[i], map[i]);  /* to little-endian in place */
  *res8_out = g_bytes_new_take (res8, (gsize) n_keys * 24);
  *res19_out = g_bytes_new_take (map, (gsize) words * 2);
  *frame_count_out = frame_count;
}

/* Assembly --------------------------------------------------------------------------------- */

static void
add_entry (MshedNres  *nres,
           guint32     type_id,
           guint32     attr1,
           guint32     attr2,
           guint32     attr3,
           const char *name,
           GBytes     *payload)
{
  MshedNresEntry templ = { 0 };

  templ.type_id = type_id;
  templ.attr1 = attr1;
  templ.attr2 = attr2;
  templ.attr3 = attr3;
  g_strlcpy ((char *) templ.name, name, MSHED_NRES_NAME_SIZE);
  mshed_nres_insert_entry (nres, G_MAXUINT, &templ, payload);
}

static GBytes *
random_blob (Rng   *rng,
             gsize  size)
{
  guint8 *data = g_malloc (size + 1);

  rng_fill (rng, data, size);
  return g_bytes_new_take (data, size);
}

static GBytes *
build_nodes (Gen *gen)
{
  guint stride = gen->legacy ? 24 : 38;
  guint8 *out = g_malloc0 ((gsize) gen->n_nodes * stride);

  for (guint n = 0; n < gen->n_nodes; n++)
    {
      const GenNode *node = &gen->nodes[n];
      guint8 *rec = out + (gsize) n * stride;

      if (gen->legacy)
        {
          /* layout unknown (docs/msh.md §4.1): twelve plausible words */
          mshed_write_u16 (rec + 0, node->flags);
          mshed_write_u16 (rec + 2, node->parent);
          mshed_write_u16 (rec + 4, MSHED_NONE);
          mshed_write_u16 (rec + 6, 0);
          for (guint k = 0; k < 8; k++)
            mshed_write_u16 (rec + 8 + 2 * k, k < 3 ? node->cell[k * 5] : MSHED_NONE);
          continue;
        }
      mshed_write_u16 (rec + 0, node->flags);
      mshed_write_u16 (rec + 2, node->parent);
      mshed_write_u16 (rec + 4, node->map_start);
      mshed_write_u16 (rec + 6, node->last_key);
      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        mshed_write_u16 (rec + 8 + 2 * c, node->cell[c]);
    }
  return g_bytes_new_take (out, (gsize) gen->n_nodes * stride);
}

static GBytes *
build_names (Gen *gen)
{
  GByteArray *out = g_byte_array_new ();

  for (guint n = 0; n < gen->n_nodes; n++)
    {
      const GenNode *node = &gen->nodes[n];
      guint8 len[4];

      mshed_write_u32 (len, node->name_len);
      g_byte_array_append (out, len, 4);
      if (node->name_len > 0)
        g_byte_array_append (out, node->name, node->name_len + 1);  /* text + NUL */
    }
  return g_byte_array_free_to_bytes (out);
}

static void
clamp_params (const MshedGenParams *params,
              Gen                  *gen)
{
  Rng *rng = &gen->rng;

  gen->params = params;
  gen->n_tris = CLAMP (params->n_triangles, MSHED_GEN_MIN_TRIANGLES, MSHED_GEN_MAX_TRIANGLES);
  gen->legacy = params->legacy_nodes;
  gen->animated = params->animated && !params->legacy_nodes;
  if (params->n_nodes > 0)
    gen->n_nodes = MIN (params->n_nodes, MSHED_GEN_MAX_NODES);
  else if (gen->legacy)
    gen->n_nodes = rng_range (rng, 1, 3);
  else
    gen->n_nodes = rng_chance (rng, 0.5) ? rng_range (rng, 1, 6) : rng_range (rng, 1, 38);
  if (params->n_materials > 0)
    gen->n_materials = MIN (params->n_materials, MSHED_GEN_MAX_MATERIALS);
  else
    gen->n_materials = rng_range (rng, 1, 8);
}

/* The derived data (slot bounds, the Res2 header, the face normals and links of mapped
 * slots) from the finished geometry and animation, through the same functions the editor
 * recomputes with (mshed-recompute.h), so the generator carries no second copy of them. */
void
mshed_generate_derive (MshedNres *nres)
{
  g_autoptr(MshedModel) model = mshed_model_new (nres, MSHED_MODE_TOLERANT,
                                                 NULL, NULL);
  gint r2 = mshed_model_find_resource (model, 2), r7 = mshed_model_find_resource (model, 7);
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  gsize size2 = 0, size7 = 0;
  g_autoptr(GBytes) b2 = NULL, b7 = NULL;
  g_autofree guint8 *res2 = g_memdup2 (mshed_nres_entry_get_data (
                                         mshed_nres_peek_entry (nres, (guint) r2), &size2),
                                       mshed_nres_entry_get_size (
                                         mshed_nres_peek_entry (nres, (guint) r2)));
  const guint8 *data7 = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, (guint) r7),
                                                   &size7);
  g_autofree guint8 *res7 = g_malloc0 (size7 + 1);  /* + 1: never a NULL for no descriptor */

  if (size7 > 0)
    memcpy (res7, data7, size7);
  for (guint s = 0; s < n_slots; s++)
    {
      MshedSlot slot;

      mshed_compute_slot_bounds (model, s, res2 + MSHED_RES2_HEADER_SIZE + (gsize) s * 68 + 8);
      mshed_model_get_slot (model, s, &slot);
      if (slot.tri_count > 0)
        mshed_compute_slot_descriptors (model, s, TRUE, TRUE,
                                        res7 + (gsize) slot.tri_start * 16);
    }
  mshed_compute_header (model, res2);
  b2 = g_bytes_new_take (g_steal_pointer (&res2), size2);
  b7 = g_bytes_new_take (g_steal_pointer (&res7), size7);
  mshed_nres_set_payload (nres, (guint) r2, b2);
  mshed_nres_set_payload (nres, (guint) r7, b7);
}

/**
 * mshed_generate_model:
 * @params: what to generate; out-of-range values are clamped
 *
 * Builds a model archive in memory (nothing is serialised yet).
 *
 * Returns: (transfer full): the model's NRes container
 */
MshedNres *
mshed_generate_model (const MshedGenParams *params)
{
  Gen gen = { 0 };
  MshedNres *nres;
  gboolean ext;
  guint n_slots, n_batches, n_idx, frame_count = 1, vn;
  guint8 *res2, *res3, *res4, *res5, *res6, *res7, *res13, *res15, *res18 = NULL;
  g_autoptr(GBytes) b1 = NULL, b2 = NULL, b3 = NULL, b4 = NULL, b5 = NULL, b6 = NULL;
  g_autoptr(GBytes) b7 = NULL, b8 = NULL, b9 = NULL, b10 = NULL, b13 = NULL, b15 = NULL;
  g_autoptr(GBytes) b17 = NULL, b18 = NULL, b19 = NULL, b20 = NULL;
  guint n9, n17, n20 = 0;

  g_return_val_if_fail (params != NULL, NULL);

  rng_init (&gen.rng, params->seed, STREAM_MODEL);
  clamp_params (params, &gen);
  gen.slots = g_array_new (FALSE, TRUE, sizeof (GenSlot));
  gen.batches = g_array_new (FALSE, TRUE, sizeof (GenBatch));
  ext = params->with_res18_20;

  plan_nodes (&gen);
  plan_geometry (&gen);

  n_slots = gen.slots->len;
  n_batches = gen.batches->len;
  n_idx = 3 * gen.n_tris;
  vn = gen.n_verts;

  gen.pos = g_new (float, 3 * (gsize) vn);
  res2 = g_malloc0 (MSHED_RES2_HEADER_SIZE + (gsize) n_slots * 68);
  res3 = g_malloc ((gsize) vn * 12);
  res4 = g_malloc ((gsize) vn * 4);
  res5 = g_malloc ((gsize) vn * 4);
  res6 = g_malloc ((gsize) n_idx * 2);
  res7 = g_malloc ((gsize) gen.n_descriptors * 16 + 1);
  res13 = g_malloc ((gsize) n_batches * 20);
  res15 = g_malloc ((gsize) vn * 8);
  if (ext)
    res18 = g_malloc ((gsize) vn * 4);

  build_geometry (&gen, res3, res4, res5, res6, res13, res15, res18);
  build_descriptors (&gen, res7);
  write_slots (&gen, res2);
  build_animation (&gen, &b8, &b19, &frame_count);

  b1 = build_nodes (&gen);
  b2 = g_bytes_new_take (res2, MSHED_RES2_HEADER_SIZE + (gsize) n_slots * 68);
  b3 = g_bytes_new_take (res3, (gsize) vn * 12);
  b4 = g_bytes_new_take (res4, (gsize) vn * 4);
  b5 = g_bytes_new_take (res5, (gsize) vn * 4);
  b6 = g_bytes_new_take (res6, (gsize) n_idx * 2);
  b7 = g_bytes_new_take (res7, (gsize) gen.n_descriptors * 16);
  b10 = build_names (&gen);
  b13 = g_bytes_new_take (res13, (gsize) n_batches * 20);
  b15 = g_bytes_new_take (res15, (gsize) vn * 8);

  /* opaque resources: invented sizes and attributes (their meaning is unknown) */
  n9 = rng_range (&gen.rng, 4, 64);
  b9 = random_blob (&gen.rng, (gsize) n9 * 4);
  n17 = params->res17_data ? rng_range (&gen.rng, 1, 32) : 0;
  b17 = random_blob (&gen.rng, (gsize) n17 * 8);
  if (ext)
    {
      b18 = g_bytes_new_take (res18, (gsize) vn * 4);
      n20 = rng_range (&gen.rng, 2, 32);
      b20 = random_blob (&gen.rng, (gsize) n20 * 4);
    }

  nres = mshed_nres_new ();
  add_entry (nres, 1, gen.n_nodes, 0, gen.legacy ? 24 : 38, "Res1", b1);
  add_entry (nres, 2, n_slots, 0, 68, "Res2", b2);
  add_entry (nres, 3, vn, 0, 12, "Res3", b3);
  add_entry (nres, 4, vn, 0, 4, "Res4", b4);
  add_entry (nres, 5, vn, 0, 4, "Res5", b5);
  if (ext)
    add_entry (nres, 18, vn, 0, 4, "Res18", b18);
  add_entry (nres, 15, vn, 0, 8, "Res15", b15);
  add_entry (nres, 13, n_batches, 0, 20, "Res13", b13);
  add_entry (nres, 6, n_idx, 0, 2, "Res6", b6);
  add_entry (nres, 7, gen.n_descriptors, 0, 16, "Res7", b7);
  add_entry (nres, 8, (guint32) (g_bytes_get_size (b8) / 24), 0, 4, "Res8", b8);
  add_entry (nres, 19, (guint32) (g_bytes_get_size (b19) / 2), frame_count, 2, "Res19", b19);
  add_entry (nres, 9, n9, 0, 4, "Res9", b9);
  add_entry (nres, 10, gen.n_nodes, 0, 0, "Res10", b10);
  add_entry (nres, 17, n17, 0, n17 ? 8 : 0, "Res17", b17);
  if (ext)
    add_entry (nres, 20, n20, 0, 4, "Res20", b20);

  mshed_generate_derive (nres);

  g_free (gen.pos);
  g_free (gen.nodes);
  g_array_unref (gen.slots);
  g_array_unref (gen.batches);
  return nres;
}

/**
 * mshed_generate_model_bytes:
 *
 * Returns: (transfer full): the model serialised canonically (docs/nres.md §7.1), a loose `.msh`
 */
GBytes *
mshed_generate_model_bytes (const MshedGenParams *params)
{
  g_autoptr(MshedNres) nres = mshed_generate_model (params);

  return mshed_nres_build_canonical (nres);
}

/* Parameters ------------------------------------------------------------------------------- */

/**
 * mshed_gen_params_init:
 *
 * A plain model: first resource order, static, 1000 triangles, node and material counts
 * picked from @seed, no Cyrillic or empty names, empty Res17.
 */
void
mshed_gen_params_init (MshedGenParams *params,
                       guint64         seed)
{
  g_return_if_fail (params != NULL);

  memset (params, 0, sizeof *params);
  params->seed = seed;
  params->n_triangles = 1000;
}

/**
 * mshed_gen_params_init_from_seed:
 *
 * Lets @seed pick the shape too, with roughly the corpus' proportions (docs/msh.md §11): sizes
 * from 12 to ~15,000 triangles (mostly small), 1..38 nodes, about 5% with Res18/Res20, a
 * third animated, 1% legacy 24-byte nodes, Cyrillic and empty names, sometimes a non-empty
 * Res17.
 */
void
mshed_gen_params_init_from_seed (MshedGenParams *params,
                                 guint64         seed)
{
  Rng rng;
  guint band;

  g_return_if_fail (params != NULL);

  rng_init (&rng, seed, STREAM_PARAMS);
  memset (params, 0, sizeof *params);
  params->seed = seed;
  band = rng_below (&rng, 10);
  if (band < 3)
    params->n_triangles = rng_range (&rng, 12, 200);
  else if (band < 7)
    params->n_triangles = rng_range (&rng, 200, 2000);
  else if (band < 9)
    params->n_triangles = rng_range (&rng, 2000, 6000);
  else
    params->n_triangles = rng_range (&rng, 6000, 15000);
  params->n_nodes = rng_chance (&rng, 0.5) ? rng_range (&rng, 1, 6) : rng_range (&rng, 1, 38);
  params->n_materials = rng_range (&rng, 1, 8);
  params->with_res18_20 = rng_chance (&rng, 0.05);
  params->legacy_nodes = rng_chance (&rng, 0.01);
  params->animated = rng_chance (&rng, 0.36);
  params->cyrillic_names = rng_chance (&rng, 0.3);
  params->empty_names = rng_chance (&rng, 0.2);
  params->res17_data = rng_chance (&rng, 0.07);
}

/* Archives --------------------------------------------------------------------------------- */

static const char *const archive_bases[] = {
  "fort", "tank", "tower", "gun", "wall", "radar", "bunker", "heli", "truck", "mech",
  "hangar", "bridge",
};

/* Odd-case names with characters between 'Z' and 'a' to exercise the sort fold
 * (docs/nres.md §5.2). */
static void
make_base_name (Rng   *rng,
                guint  index,
                char  *out,
                gsize  size)
{
  static const char *const seps[] = { "_", "", "-", "[", "~", "_L" };
  const char *base = archive_bases[rng_below (rng, G_N_ELEMENTS (archive_bases))];
  const char *sep = seps[rng_below (rng, G_N_ELEMENTS (seps))];
  char *p;

  g_snprintf (out, size, "%s%s%u", base, index == 0 ? "_" : sep, index);
  switch (rng_below (rng, 4))
    {
    case 0:  /* lower */
      break;
    case 1:
      for (p = out; *p; p++)
        *p = g_ascii_toupper (*p);
      break;
    case 2:
      out[0] = g_ascii_toupper (out[0]);
      break;
    default:
      for (p = out; *p; p++)
        if (rng_chance (rng, 0.5))
          *p = g_ascii_toupper (*p);
      break;
    }
}

static const char *
random_case (Rng        *rng,
             const char *lower,
             const char *upper)
{
  return rng_chance (rng, 0.5) ? lower : upper;
}

static GBytes *
build_wear (const char *base,
            guint       n_materials,
            gboolean    lightmaps)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%u\r\n", n_materials);
  for (guint i = 0; i < n_materials; i++)
    g_string_append_printf (text, "%u %s_MAT%u\r\n", i, base, i);
  if (lightmaps)
    g_string_append_printf (text, "\r\nLIGHTMAPS\r\n1\r\n0 %s_LM\r\n", base);
  return g_string_free_to_bytes (text);
}

/**
 * mshed_generate_archive:
 * @seed: drives the choice of models, names and extra entries
 * @n_models: number of `*.msh` entries (each a nested model from
 *   mshed_gen_params_init_from_seed() with a seed derived from @seed); 0 gives only the
 *   non-model entries
 * @max_triangles: cap on each model's triangle count; 0 = 3000
 *
 * A game-like archive: the models under odd-case names ending in `.msh` (any case; outer
 * type 0 and zero attributes, their retail values being undocumented), most of them beside
 * a `WEAR` material table (`*.wea`, with as many rows as the model's batches use), plus
 * `Texm`-like blobs and one empty entry. Names mix case and use `_`/`[` next to letters, so
 * the sort table depends on the fold direction (docs/nres.md §5.2).
 *
 * Returns: (transfer full): the outer NRes container
 */
MshedNres *
mshed_generate_archive (guint64 seed,
                        guint   n_models,
                        guint   max_triangles)
{
  MshedNres *nres = mshed_nres_new ();
  Rng rng;
  guint64 sub = seed;

  rng_init (&rng, seed, STREAM_ARCHIVE);
  if (max_triangles == 0)
    max_triangles = 3000;

  for (guint i = 0; i < n_models || i == 0; i++)
    {
      MshedGenParams params;
      char base[24], name[MSHED_NRES_NAME_SIZE];
      g_autoptr(GBytes) model = NULL;
      g_autoptr(GBytes) wear = NULL;
      gboolean wear_first = rng_chance (&rng, 0.3);
      gboolean with_wear = i == 0 || rng_chance (&rng, 0.7);

      make_base_name (&rng, i, base, sizeof base);
      mshed_gen_params_init_from_seed (&params, mshed_splitmix64 (&sub) ^ STREAM_ARCHIVE_MODEL);
      params.n_triangles = MIN (params.n_triangles, max_triangles);
      wear = build_wear (base, params.n_materials, rng_chance (&rng, 0.3));

      if (with_wear && wear_first)
        {
          g_snprintf (name, sizeof name, "%s%s", base, random_case (&rng, ".wea", ".WEA"));
          add_entry (nres, MSHED_WEAR_TYPE, 0, 0, 0, name, wear);
        }
      if (i < n_models)
        {
          static const char *const exts[] = { ".msh", ".MSH", ".Msh", ".mSh" };

          model = mshed_generate_model_bytes (&params);
          g_snprintf (name, sizeof name, "%s%s", base, exts[rng_below (&rng, G_N_ELEMENTS (exts))]);
          add_entry (nres, 0, 0, 0, 0, name, model);
        }
      if (with_wear && !wear_first)
        {
          g_snprintf (name, sizeof name, "%s%s", base, random_case (&rng, ".wea", ".WEA"));
          add_entry (nres, MSHED_WEAR_TYPE, 0, 0, 0, name, wear);
        }
      if (i == 0 || rng_chance (&rng, 0.4))
        {
          gsize size = 16 + rng_below (&rng, 512);
          guint8 *texm = g_malloc (size);
          g_autoptr(GBytes) blob = NULL;

          rng_fill (&rng, texm, size);
          memcpy (texm, "Texm", 4);
          blob = g_bytes_new_take (texm, size);
          /* the model's name with its '_' or '[' turned into a letter: the two names then
           * sort differently under a lower- and an upper-case fold */
          char *mark = strpbrk (base, "_[");

          if (mark)
            {
              char saved = *mark;

              *mark = rng_chance (&rng, 0.5) ? 't' : 'T';
              g_snprintf (name, sizeof name, "%s%s", base, random_case (&rng, ".0", ".TX"));
              *mark = saved;
            }
          else
            g_snprintf (name, sizeof name, "%s_tex%s", base, random_case (&rng, ".0", ".TX"));
          add_entry (nres, MSHED_TEXM_TYPE, rng_range (&rng, 1, 256), rng_range (&rng, 1, 256),
                     0, name, blob);
        }
      if (i == 0)
        {
          g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);

          g_snprintf (name, sizeof name, "%s.EMPTY", base);
          add_entry (nres, 0x54584554u /* "TEXT" */, 0, 0, 0, name, empty);
        }
    }
  return nres;
}

/**
 * mshed_generate_archive_bytes:
 *
 * Returns: (transfer full): mshed_generate_archive() serialised canonically
 */
GBytes *
mshed_generate_archive_bytes (guint64 seed,
                              guint   n_models,
                              guint   max_triangles)
{
  g_autoptr(MshedNres) nres = mshed_generate_archive (seed, n_models, max_triangles);

  return mshed_nres_build_canonical (nres);
}
