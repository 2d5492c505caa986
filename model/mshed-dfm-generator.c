/* mshed-dfm-generator.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a model is built (see mshed-dfm-generator.h for what it covers):
 *
 *  1. the bone table: named bones from the kind's name list (parents always earlier), the
 *     detached bones of the kind put at random positions, local rest transforms (small
 *     rotations, short offsets) composed into bind poses;
 *  2. tubes: one around the root, one along each of a few named bones (from its parent's
 *     joint to its own) and one per detached bone, each skinned mostly to its own bone;
 *  3. per level, every tube as a grid of rings × segments points (fewer for lower levels),
 *     rings × (segments + 1) elements (the seam column shares the first column's points),
 *     quads split into two triangles in the order that makes each row one strip, wound
 *     outwards; face groups take the tubes round-robin and encode their triangles with
 *     mshed_dfm_strip_encode;
 *  4. the tree in the retail order of docs/dfm.md §2.
 */
#define G_LOG_DOMAIN "mshed-dfm-generator"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-recompute.h"
#include "mshed-dfm-strip.h"
#include "mshed-random.h"
#include "mshed-utf-generator.h"

#define MAX_TUBES   12u
#define MAX_SEGS    48u
#define Q_POS       65536.0   /* positions and transforms: multiples of 1/65536 */
#define Q_UV        1024.0
#define Q_WEIGHT    1024.0

/* Random numbers: splitmix64 -------------------------------------------------------------- */

typedef struct {
  guint64 s;
} Rng;

static guint64
rng_next (Rng *r)
{
  return mshed_splitmix64 (&r->s);
}

/* uniform in [0, n), n >= 1 */
static guint
rng_below (Rng  *r,
           guint n)
{
  return (guint) (((rng_next (r) >> 32) * (guint64) n) >> 32);
}

/* uniform in [lo, hi) */
static double
rng_between (Rng   *r,
             double lo,
             double hi)
{
  return lo + (hi - lo) * ((double) (rng_next (r) >> 11) * (1.0 / 9007199254740992.0));
}

static double
quantise (double v,
          double q)
{
  return round (v * q) / q;
}

/* Transforms: rotation rows r[0..8] and translation t (maps local to parent) -------------- */

typedef MshedDfmXform Xform;

/* a small rotation about the three axes, and an offset, all quantised */
static void
xform_random (Rng    *r,
              double  angle,
              double  reach,
              Xform  *out)
{
  double a = rng_between (r, -angle, angle), b = rng_between (r, -angle, angle);
  double c = rng_between (r, -angle, angle);
  double ca = cos (a), sa = sin (a), cb = cos (b), sb = sin (b), cc = cos (c), sc = sin (c);
  /* Rz(a) · Ry(b) · Rx(c) */
  double m[9] = {
    ca * cb, ca * sb * sc - sa * cc, ca * sb * cc + sa * sc,
    sa * cb, sa * sb * sc + ca * cc, sa * sb * cc - ca * sc,
    -sb, cb * sc, cb * cc,
  };

  for (guint i = 0; i < 9; i++)
    out->r[i] = quantise (m[i], Q_POS);
  for (guint i = 0; i < 3; i++)
    out->t[i] = quantise (rng_between (r, -reach, reach), Q_POS);
}

/* The bone table -------------------------------------------------------------------------- */

typedef struct {
  char       *object;       /* Object name */
  char       *dir;          /* <object><stamp>.3db */
  gint        parent;       /* bone index, -1 for the root and detached bones */
  gboolean    detached;
  gboolean    sphere;       /* its constraint is a Sphere record (else Loose) */
  guint8      lod_bits;
  const char *hardpoints[2];
  Xform       local;        /* parent <- bone (rest) */
  Xform       global;       /* model <- bone (bind) */
} Bone;

typedef struct {
  const char *name;
  gint        parent;       /* index into the same list */
  const char *hardpoints[2];
} NamedBone;

static const NamedBone body_bones[] = {
  { "Pelvis", -1, { NULL, NULL } }, { "Spine1", 0, { NULL, NULL } },
  { "Spine2", 1, { NULL, NULL } }, { "Spine3", 2, { NULL, NULL } },
  { "Neck", 3, { "hp_head", "hp_neck" } }, { "Head", 4, { NULL, NULL } },
  { "L Clavicle", 3, { NULL, NULL } }, { "L UpperArm", 6, { NULL, NULL } },
  { "L Forearm", 7, { "hp_left a", NULL } }, { "L Hand", 8, { "hp_left b", NULL } },
  { "R Clavicle", 3, { NULL, NULL } }, { "R UpperArm", 10, { NULL, NULL } },
  { "R Forearm", 11, { "hp_right a", NULL } }, { "R Hand", 12, { "hp_right b", NULL } },
  { "L Thigh", 0, { NULL, NULL } }, { "L Calf", 14, { NULL, NULL } },
  { "L Foot", 15, { NULL, NULL } }, { "L Toe", 16, { NULL, NULL } },
  { "R Thigh", 0, { NULL, NULL } }, { "R Calf", 18, { NULL, NULL } },
  { "R Foot", 19, { NULL, NULL } }, { "R Toe", 20, { NULL, NULL } },
};

static const NamedBone head_bones[] = {
  { "Head", -1, { NULL, NULL } }, { "Jaw", 0, { NULL, NULL } },
  { "L Eye", 0, { NULL, NULL } }, { "R Eye", 0, { NULL, NULL } },
  { "L Lid", 2, { NULL, NULL } }, { "R Lid", 3, { NULL, NULL } },
  { "L Brow", 0, { NULL, NULL } }, { "R Brow", 0, { NULL, NULL } },
  { "Upper Lip", 0, { NULL, NULL } }, { "Lower Lip", 1, { NULL, NULL } },
  { "L Lip", 1, { NULL, NULL } }, { "R Lip", 1, { NULL, NULL } },
  { "Tongue", 1, { NULL, NULL } }, { "L Cheek", 0, { NULL, NULL } },
  { "R Cheek", 0, { NULL, NULL } }, { "Nose", 0, { NULL, NULL } },
};

/* detached bones and the host hardpoint each names (docs/dfm.md §10.4) */
static const struct {
  const char *name;
  const char *hardpoint;
  guint       per_mille;    /* how often a head has it */
} head_detached[] = {
  { "Neck", "hp_neck", 1000 },
  { "UpperTorso", "hp_upper torso", 135 },
  { "LCollarBone", "hp_lcollarbone", 125 },
  { "RCollarBone", "hp_rcollarbone", 125 },
};

typedef struct {
  MshedUtf                *utf;
  Rng                      r;
  const MshedDfmGenParams *p;
  GArray                  *bones;    /* Bone */
  guint                    levels;
  char                    *stamp;
} Gen;

static void
clear_bone (gpointer data)
{
  Bone *b = data;

  g_free (b->object);
  g_free (b->dir);
}

/* the named bones of the kind: names, parents (earlier) and hardpoints */
static GArray *
named_bones (Gen       *g,
             guint      n,
             GPtrArray *owned)
{
  GArray *named = g_array_new (FALSE, TRUE, sizeof (NamedBone));
  const NamedBone *base = body_bones;
  guint n_base = G_N_ELEMENTS (body_bones);
  const char *side = g->p->right ? "R" : "L";
  static const char *const fingers[] = { "Thumb", "Index", "Middle", "Ring", "Pinky" };

  if (g->p->kind == MSHED_DFM_GEN_HEAD)
    {
      base = head_bones;
      n_base = G_N_ELEMENTS (head_bones);
    }
  else if (g->p->kind == MSHED_DFM_GEN_HAND)
    base = NULL;

  for (guint i = 0; i < n; i++)
    {
      NamedBone nb = { NULL, -1, { NULL, NULL } };

      if (base && i < n_base)
        nb = base[i];
      else if (base == NULL && i < 21)
        {
          /* the palm, then four joints per finger */
          char *name = i == 0 ? g_strdup_printf ("%s Palm", side)
                              : g_strdup_printf ("%s %s%u", side, fingers[(i - 1) / 4],
                                                 (i - 1) % 4 + 1);

          g_ptr_array_add (owned, name);
          nb.name = name;
          nb.parent = i == 0 ? -1 : (i - 1) % 4 == 0 ? 0 : (gint) i - 1;
        }
      else
        nb.parent = (gint) rng_below (&g->r, i);   /* an extra bone, named below */
      g_array_append_val (named, nb);
    }
  return named;
}

static void
build_bones (Gen *g)
{
  const MshedDfmGenParams *p = g->p;
  guint n_detached = 0, n_named, n;
  const char *detached[4];
  const char *detached_hp[4];
  g_autoptr(GArray) named = NULL;
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  g_autofree gint *named_to_bone = NULL;
  g_autofree gboolean *taken = NULL;
  guint8 all = (guint8) ((1u << g->levels) - 1);

  if (p->kind == MSHED_DFM_GEN_HEAD)
    for (guint k = 0; k < G_N_ELEMENTS (head_detached); k++)
      if (rng_below (&g->r, 1000) < head_detached[k].per_mille)
        {
          detached[n_detached] = head_detached[k].name;
          detached_hp[n_detached++] = head_detached[k].hardpoint;
        }
  if (p->kind == MSHED_DFM_GEN_HAND)
    {
      detached[n_detached] = p->right ? "R Wrist" : "L Wrist";
      detached_hp[n_detached++] = p->right ? "hp_right a" : "hp_left a";
    }

  if (p->n_bones)
    n = CLAMP (p->n_bones, 4, 200);
  else if (p->kind == MSHED_DFM_GEN_HEAD)
    n = 63 + rng_below (&g->r, 24);
  else if (p->kind == MSHED_DFM_GEN_HAND)
    n = 22;
  else
    n = 28 + rng_below (&g->r, 30);
  n_detached = MIN (n_detached, n - 2);
  n_named = n - n_detached;
  named = named_bones (g, n_named, owned);

  /* detached bones take random positions after the root: the gaps in part numbering */
  taken = g_new0 (gboolean, n);
  for (guint k = 0; k < n_detached; k++)
    {
      guint at;

      do
        at = 1 + rng_below (&g->r, n - 1);
      while (taken[at]);
      taken[at] = TRUE;
    }
  named_to_bone = g_new (gint, n_named);
  for (guint i = 0, k = 0, d = 0; i < n; i++)
    {
      Bone b = { 0 };

      if (taken[i])
        {
          b.object = g_strdup (detached[d]);
          b.hardpoints[0] = detached_hp[d++];
          b.detached = TRUE;
          b.parent = -1;
          b.lod_bits = 0;
          xform_random (&g->r, 0.2, 0.15, &b.global);
          b.local = b.global;
        }
      else
        {
          const NamedBone *nb = &g_array_index (named, NamedBone, k);

          named_to_bone[k] = (gint) i;
          b.object = nb->name ? g_strdup (nb->name) : g_strdup_printf ("Bone%02u", k);
          b.parent = nb->parent >= 0 ? named_to_bone[nb->parent] : -1;
          b.hardpoints[0] = nb->hardpoints[0];
          b.hardpoints[1] = nb->hardpoints[1];
          b.sphere = rng_below (&g->r, 10) < 3;
          b.lod_bits = rng_below (&g->r, 10) == 0 && i > 0 ? 0 : all;
          xform_random (&g->r, 0.3, 0.12, &b.local);
          if (b.parent >= 0)
            mshed_dfm_xform_compose (&g_array_index (g->bones, Bone, b.parent).global, &b.local,
                           &b.global);
          else
            b.global = b.local;
          k++;
        }
      b.dir = g_strdup_printf ("%s%s.3db", b.object, g->stamp);
      g_array_append_val (g->bones, b);
    }
}

/* Geometry ------------------------------------------------------------------------------- */

typedef struct {
  guint  bone;              /* skinned mostly to it */
  double a[3], b[3];        /* axis from a to b in model space */
  double radius;
  guint  rings0, segs0;     /* grid of Mesh0 */
} Tube;

typedef struct {
  GByteArray *point_indices, *uv0_indices, *uv1_indices, *points, *first, *count, *ids,
             *weights, *normals, *uv0, *uv1;
  GArray     *uv0_values;   /* float pairs, element order */
  GArray    **group_tris;   /* guint16 triples per group */
  guint       n_points, n_elements, n_chain;
} Mesh;

static void
push_u32 (GByteArray *b,
          guint32     v)
{
  guint8 w[4];

  mshed_write_u32 (w, v);
  g_byte_array_append (b, w, 4);
}

static void
push_f32 (GByteArray *b,
          double      v)
{
  guint8 w[4];

  mshed_write_f32 (w, (float) v);
  g_byte_array_append (b, w, 4);
}

static void
bone_origin (const Gen *g,
             guint      bone,
             double     out[3])
{
  memcpy (out, g_array_index (g->bones, Bone, bone).global.t, sizeof (double) * 3);
}

static GArray *
build_tubes (Gen *g)
{
  GArray *tubes = g_array_new (FALSE, TRUE, sizeof (Tube));
  guint n = g->bones->len, n_named_tubes = 0;
  guint budget = g->p->n_points ? CLAMP (g->p->n_points, 32, 20000) : 300 + rng_below (&g->r, 601);

  for (guint i = 0; i < n && tubes->len < MAX_TUBES; i++)
    {
      const Bone *b = &g_array_index (g->bones, Bone, i);
      Tube t = { 0 };

      if (i == 0 || b->detached)
        {
          /* around the root, or hanging below a detached bone's origin */
          bone_origin (g, i, t.a);
          memcpy (t.b, t.a, sizeof t.b);
          t.a[1] -= i == 0 ? 0.12 : 0.08;
          t.b[1] += i == 0 ? 0.12 : 0.0;
          t.radius = i == 0 ? 0.09 : 0.05;
        }
      else if (b->parent >= 0 && n_named_tubes < MAX_TUBES / 2 &&
               rng_below (&g->r, 3) == 0)
        {
          bone_origin (g, (guint) b->parent, t.a);
          bone_origin (g, i, t.b);
          t.radius = 0.025 + 0.01 * rng_below (&g->r, 3);
          n_named_tubes++;
        }
      else
        continue;
      /* keep every tube at least 5 cm long */
      if (fabs (t.b[0] - t.a[0]) + fabs (t.b[1] - t.a[1]) + fabs (t.b[2] - t.a[2]) < 0.05)
        t.b[1] = t.a[1] + 0.06;
      t.bone = i;
      g_array_append_val (tubes, t);
    }
  for (guint k = 0; k < tubes->len; k++)
    {
      Tube *t = &g_array_index (tubes, Tube, k);
      guint share = MAX (8u, budget / tubes->len);

      t->segs0 = CLAMP ((guint) sqrt ((double) share * 1.5), 3, MAX_SEGS);
      t->rings0 = MAX (2u, share / t->segs0);
    }
  return tubes;
}

/* an orthonormal frame u, v around the axis w of @t */
static void
tube_frame (const Tube *t,
            double      u[3],
            double      v[3],
            double      w[3])
{
  double len = 0, other[3] = { 1, 0, 0 };

  for (guint i = 0; i < 3; i++)
    w[i] = t->b[i] - t->a[i];
  len = sqrt (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  for (guint i = 0; i < 3; i++)
    w[i] /= len;
  if (fabs (w[0]) > 0.8)
    {
      other[0] = 0;
      other[1] = 1;
    }
  /* u = normalise (other × w), v = w × u */
  u[0] = other[1] * w[2] - other[2] * w[1];
  u[1] = other[2] * w[0] - other[0] * w[2];
  u[2] = other[0] * w[1] - other[1] * w[0];
  len = sqrt (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (guint i = 0; i < 3; i++)
    u[i] /= len;
  v[0] = w[1] * u[2] - w[2] * u[1];
  v[1] = w[2] * u[0] - w[0] * u[2];
  v[2] = w[0] * u[1] - w[1] * u[0];
}

/* one point's influences: 1 to 4 bones, about the retail proportions (docs/dfm.md §6.2) */
static void
skin_point (Gen  *g,
            Mesh *m,
            guint bone)
{
  static const guint cumulative[4] = { 634, 945, 998, 1000 };   /* per mille */
  guint pick = rng_below (&g->r, 1000), k = 0, n = 0;
  guint32 ids[4];
  double w[4], rest = 1.0;
  const Bone *b = &g_array_index (g->bones, Bone, bone);

  while (pick >= cumulative[k])
    k++;
  ids[n++] = bone;
  for (guint i = 1; i <= k; i++)
    {
      guint32 cand = i == 1 && b->parent >= 0 ? (guint32) b->parent
                                              : (guint32) rng_below (&g->r, g->bones->len);
      gboolean fresh = TRUE;

      for (guint j = 0; j < n; j++)
        fresh &= ids[j] != cand;
      if (fresh)
        ids[n++] = cand;
    }
  /* weights are multiples of 1/1024 and the last takes the rest, so they sum to 1 exactly */
  for (guint i = 0; i + 1 < n; i++)
    {
      double share = i == 0 ? rng_between (&g->r, 0.5, 0.9) : rng_between (&g->r, 0.2, 0.8);

      w[i] = quantise (rest * share, Q_WEIGHT);
      rest -= w[i];
    }
  w[n - 1] = rest;

  push_u32 (m->first, m->n_chain);
  push_u32 (m->count, n);
  for (guint i = 0; i < n; i++)
    {
      push_u32 (m->ids, ids[i]);
      push_f32 (m->weights, w[i]);
    }
  m->n_chain += n;
}

static void
add_point (Gen          *g,
           Mesh         *m,
           const double  pos[3],
           const double  normal[3],
           guint         bone)
{
  for (guint i = 0; i < 3; i++)
    push_f32 (m->points, quantise (pos[i], Q_POS));
  for (guint i = 0; i < 3; i++)
    push_f32 (m->normals, quantise (normal[i], Q_POS));
  skin_point (g, m, bone);
  m->n_points++;
}

/* the tube's grid at this level: points, elements (seam column shared) and triangles */
static void
add_tube (Gen        *g,
          Mesh       *m,
          const Tube *t,
          double      fraction,
          GArray     *tris)
{
  guint segs = MAX (3u, (guint) lround (t->segs0 * sqrt (fraction)));
  guint rings = MAX (2u, (guint) lround (t->rings0 * sqrt (fraction)));
  guint p0 = m->n_points, e0 = m->n_elements;
  double u[3], v[3], w[3];
  gboolean swap;

  tube_frame (t, u, v, w);
  for (guint r = 0; r < rings; r++)
    for (guint s = 0; s < segs; s++)
      {
        double th = 2.0 * G_PI * s / segs, f = (double) r / (rings - 1), pos[3], n[3];

        for (guint i = 0; i < 3; i++)
          {
            n[i] = cos (th) * u[i] + sin (th) * v[i];
            pos[i] = t->a[i] + f * (t->b[i] - t->a[i]) + t->radius * n[i];
          }
        add_point (g, m, pos, n, t->bone);
      }
  for (guint r = 0; r < rings; r++)
    for (guint s = 0; s <= segs; s++)
      {
        float uv[2] = { (float) quantise ((double) s / segs, Q_UV),
                        (float) quantise ((double) r / (rings - 1), Q_UV) };

        push_u32 (m->point_indices, p0 + r * segs + s % segs);
        g_array_append_vals (m->uv0_values, uv, 2);
        push_f32 (m->uv1, 0.5 * uv[0] + 0.25);
        push_f32 (m->uv1, 0.5 * uv[1] + 0.25);
        push_u32 (m->uv1_indices, m->n_elements);
        m->n_elements++;
      }

  /* a right-handed frame turns the natural row order inwards: the rings swap roles so that
   * (p1 − p0) × (p2 − p0) points out, as the normals do (docs/dfm.md §5.2) */
  swap = ((u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] +
          (u[0] * v[1] - u[1] * v[0]) * w[2]) > 0;
  for (guint r = 0; r + 1 < rings; r++)
    {
      guint lo = e0 + (swap ? r + 1 : r) * (segs + 1), hi = e0 + (swap ? r : r + 1) * (segs + 1);

      /* (lo s, hi s, lo s+1), (lo s+1, hi s, hi s+1): each row is one strip run */
      for (guint s = 0; s < segs; s++)
        {
          guint16 tri[6] = { (guint16) (lo + s), (guint16) (hi + s), (guint16) (lo + s + 1),
                             (guint16) (lo + s + 1), (guint16) (hi + s), (guint16) (hi + s + 1) };

          g_array_append_vals (tris, tri, 6);
        }
    }
}

static void
mesh_init (Mesh  *m,
           guint  n_groups)
{
  GByteArray **arrays[] = { &m->point_indices, &m->uv0_indices, &m->uv1_indices, &m->points,
                            &m->first, &m->count, &m->ids, &m->weights, &m->normals, &m->uv0,
                            &m->uv1 };

  memset (m, 0, sizeof *m);
  for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
    *arrays[i] = g_byte_array_new ();
  m->uv0_values = g_array_new (FALSE, FALSE, sizeof (float));
  m->group_tris = g_new0 (GArray *, n_groups);
  for (guint k = 0; k < n_groups; k++)
    m->group_tris[k] = g_array_new (FALSE, FALSE, sizeof (guint16));
}

static void
mesh_clear (Mesh  *m,
            guint  n_groups)
{
  GByteArray *arrays[] = { m->point_indices, m->uv0_indices, m->uv1_indices, m->points, m->first,
                           m->count, m->ids, m->weights, m->normals, m->uv0, m->uv1 };

  for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
    if (arrays[i])
      g_byte_array_unref (arrays[i]);
  g_array_unref (m->uv0_values);
  for (guint k = 0; k < n_groups; k++)
    g_array_unref (m->group_tris[k]);
  g_free (m->group_tris);
}

/* The tree ------------------------------------------------------------------------------- */

/* a file that takes @array (NULL: nothing is added) */
static void
file_take (Gen          *g,
           MshedUtfNode *parent,
           const char   *name,
           GByteArray  **array)
{
  if (*array == NULL)
    return;
  mshed_utf_append_file (g->utf, parent, name, (*array)->data, (*array)->len);
  g_clear_pointer (array, g_byte_array_unref);
}

/* one little-endian word: an int32, a uint32 or the bits of a float */
static void
word (Gen          *g,
      MshedUtfNode *parent,
      const char   *name,
      guint32       value)
{
  guint8 w[4];

  mshed_write_u32 (w, value);
  mshed_utf_append_file (g->utf, parent, name, w, 4);
}

static guint32
bits_of (float f)
{
  guint32 u;

  memcpy (&u, &f, sizeof u);
  return u;
}

static void
floats (Gen          *g,
        MshedUtfNode *parent,
        const char   *name,
        const double *values,
        guint         n)
{
  GByteArray *b = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    push_f32 (b, values[i]);
  file_take (g, parent, name, &b);
}

static const char *
material_name (Gen   *g,
               guint  k,
               char   buf[32])
{
  static const char *const prefix[] = { "body", "head", "hand" };

  g_snprintf (buf, 32, "%s_skin%02u", prefix[g->p->kind], k);
  return buf;
}

/* Edge_indices / Edge_angles for a group: the first edges of its triangles (docs/dfm.md §4) */
static void
add_edges (Gen          *g,
           MshedUtfNode *group,
           GArray       *tris,
           const Mesh   *m)
{
  guint n = MIN (16u, tris->len / 3);
  GByteArray *edges = g_byte_array_new ();
  GByteArray *angles = g_byte_array_new ();

  for (guint k = 0; k < n; k++)
    {
      guint16 e0 = g_array_index (tris, guint16, 3 * k);
      guint16 e1 = g_array_index (tris, guint16, 3 * k + 1);
      guint8 w[4];

      /* edges index points, not elements */
      mshed_write_u16 (w, (guint16) mshed_read_u32 (m->point_indices->data + 4 * e0));
      mshed_write_u16 (w + 2, (guint16) mshed_read_u32 (m->point_indices->data + 4 * e1));
      g_byte_array_append (edges, w, 4);
      push_f32 (angles, quantise (G_PI - (G_PI + 0.026) * k / MAX (1u, n - 1), Q_UV));
    }
  file_take (g, group, "Edge_indices", &edges);
  file_take (g, group, "Edge_angles", &angles);
}

static void
add_uv_bone (Gen          *g,
             MshedUtfNode *geo,
             const Mesh   *m)
{
  guint n_uv = m->n_elements, k = MAX (1u, n_uv / 16);
  gint jaw = 1;
  GByteArray *ids = g_byte_array_new ();
  GByteArray *defaults = g_byte_array_new ();

  for (guint i = 0; i < g->bones->len; i++)
    if (g_strcmp0 (g_array_index (g->bones, Bone, i).object, "Jaw") == 0)
      jaw = (gint) i;
  word (g, geo, "UV_bone_id", (guint32) jaw);
  word (g, geo, "UV_vertex_count", k);
  word (g, geo, "UV_plane_distance", bits_of (1.0f));
  word (g, geo, "Bone_X_to_U_scale", bits_of (0.4f));
  word (g, geo, "Bone_Y_to_V_scale", bits_of (-0.4f));
  word (g, geo, "Min_du", bits_of (-0.2f));
  word (g, geo, "Max_du", bits_of (0.2f));
  word (g, geo, "Min_dv", bits_of (-0.1035f));
  word (g, geo, "Max_dv", bits_of (0.1035f));
  for (guint i = 0; i < k; i++)
    {
      guint e = (16 * i) % n_uv;
      /* UV0 is stored in reverse element order (see below) */
      push_u32 (ids, n_uv - 1 - e);
      push_f32 (defaults, g_array_index (m->uv0_values, float, 2 * e));
      push_f32 (defaults, g_array_index (m->uv0_values, float, 2 * e + 1));
    }
  file_take (g, geo, "UV_vertex_id", &ids);
  file_take (g, geo, "UV_default_list", &defaults);
}

static void
add_level (Gen          *g,
           MshedUtfNode *multi,
           guint         level,
           double        fraction,
           const GArray *tubes,
           guint         n_groups)
{
  g_autofree char *name = g_strdup_printf ("Mesh%u", level);
  MshedUtfNode *mesh = mshed_utf_append_directory (g->utf, multi, name);
  MshedUtfNode *groups = mshed_utf_append_directory (g->utf, mesh, "Face_groups");
  MshedUtfNode *geo;
  Mesh m;

  mesh_init (&m, n_groups);
  for (guint k = 0; k < tubes->len; k++)
    add_tube (g, &m, &g_array_index (tubes, Tube, k), fraction, m.group_tris[k % n_groups]);
  /* now and then a point no element uses, as in 134 retail meshes (docs/dfm.md §6.2) */
  if (rng_below (&g->r, 6) == 0)
    {
      double pos[3] = { 0, 0, 0 }, n[3] = { 0, 1, 0 };

      add_point (g, &m, pos, n, 0);
    }
  /* UV0 in reverse element order, so that UV0_indices is not the identity */
  for (guint e = m.n_elements; e > 0; e--)
    {
      push_f32 (m.uv0, g_array_index (m.uv0_values, float, 2 * (e - 1)));
      push_f32 (m.uv0, g_array_index (m.uv0_values, float, 2 * (e - 1) + 1));
    }
  for (guint e = 0; e < m.n_elements; e++)
    push_u32 (m.uv0_indices, m.n_elements - 1 - e);
  if (!g->p->uv1)
    {
      g_clear_pointer (&m.uv1, g_byte_array_unref);
      g_clear_pointer (&m.uv1_indices, g_byte_array_unref);
    }

  word (g, groups, "Count", n_groups);
  for (guint k = 0; k < n_groups; k++)
    {
      g_autofree char *group_name = g_strdup_printf ("Group%u", k);
      MshedUtfNode *group = mshed_utf_append_directory (g->utf, groups, group_name);
      GArray *tris = m.group_tris[k];
      g_autoptr(GBytes) strip = mshed_dfm_strip_encode ((const guint16 *) tris->data,
                                                        tris->len / 3, MSHED_DFM_STRIP_JOIN,
                                                        NULL);
      char mat[32];

      mshed_utf_append_text (g->utf, group, "Material_name", material_name (g, k, mat));
      mshed_utf_append_file (g->utf, group, "Tristrip_indices", g_bytes_get_data (strip, NULL),
            g_bytes_get_size (strip));
      if (g->p->edges && level == 0)
        add_edges (g, group, tris, &m);
    }

  geo = mshed_utf_append_directory (g->utf, mesh, "Geometry");
  file_take (g, geo, "Point_indices", &m.point_indices);
  file_take (g, geo, "UV0_indices", &m.uv0_indices);
  file_take (g, geo, "UV1_indices", &m.uv1_indices);
  file_take (g, geo, "Points", &m.points);
  file_take (g, geo, "Point_bone_first", &m.first);
  file_take (g, geo, "Point_bone_count", &m.count);
  file_take (g, geo, "Bone_id_chain", &m.ids);
  file_take (g, geo, "Bone_weight_chain", &m.weights);
  file_take (g, geo, "Vertex_normals", &m.normals);
  file_take (g, geo, "UV0", &m.uv0);
  file_take (g, geo, "UV1", &m.uv1);
  if (g->p->kind == MSHED_DFM_GEN_HEAD && level == 0)
    add_uv_bone (g, geo, &m);
  mesh_clear (&m, n_groups);
}

/* a 64-byte name field; with @residue the tail of an earlier, longer name follows its NUL
 * (docs/dfm.md §9.3) */
static void
push_name (GByteArray *b,
           const char *name,
           gboolean    residue)
{
  guint8 field[64] = { 0 };
  gsize len = MIN (strlen (name), 40);

  if (residue)
    memcpy (field, "Bip01 Unused Old Name Left By The Exporter", 42);
  memcpy (field, name, len);
  field[len] = 0;
  if (residue && len + 1 >= 42)
    field[63] = 'x';
  g_byte_array_append (b, field, sizeof field);
}

static void
push_joint (Gen        *g,
            GByteArray *b,
            const Bone *bone)
{
  const Bone *parent = &g_array_index (g->bones, Bone, bone->parent);
  gboolean residue = !g->p->no_residue;

  push_name (b, parent->object, residue && rng_below (&g->r, 2));
  push_name (b, bone->object, residue);
  for (guint i = 0; i < 3; i++)
    push_f32 (b, bone->local.t[i]);            /* position / parentPoint */
  if (bone->sphere)
    for (guint i = 0; i < 3; i++)
      push_f32 (b, 0.0);                       /* childPoint: 0 in all retail records */
  for (guint i = 0; i < 9; i++)
    push_f32 (b, bone->local.r[i]);
  if (bone->sphere)
    for (guint i = 0; i < 6; i++)
      push_f32 (b, (i % 2 ? 1.0 : -1.0) * quantise (rng_between (&g->r, 0.2, 1.5), Q_UV));
}

static void
add_bone_dirs (Gen          *g,
               MshedUtfNode *root)
{
  for (guint i = 0; i < g->bones->len; i++)
    {
      const Bone *b = &g_array_index (g->bones, Bone, i);
      MshedUtfNode *bone = mshed_utf_append_directory (g->utf, root, b->dir);
      double btr[12];

      /* Bone to root = inverse bind: rows of Rᵀ, then −Rᵀ·t (docs/dfm.md §10.2) */
      for (guint r = 0; r < 3; r++)
        for (guint c = 0; c < 3; c++)
          btr[3 * r + c] = b->global.r[3 * c + r];
      for (guint r = 0; r < 3; r++)
        btr[9 + r] = quantise (-(btr[3 * r] * b->global.t[0] + btr[3 * r + 1] * b->global.t[1] +
                                 btr[3 * r + 2] * b->global.t[2]), Q_POS);
      floats (g, bone, "Bone to root", btr, 12);
      mshed_utf_append_file (g->utf, bone, "Lod Bits", &b->lod_bits, 1);
      if (b->hardpoints[0])
        {
          MshedUtfNode *hardpoints = mshed_utf_append_directory (g->utf, bone, "Hardpoints");
          MshedUtfNode *fixed = mshed_utf_append_directory (g->utf, hardpoints, "Fixed");

          for (guint k = 0; k < 2 && b->hardpoints[k]; k++)
            {
              static const double identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
              double position[3] = { 0, 0, 0 };
              MshedUtfNode *hp = mshed_utf_append_directory (g->utf, fixed, b->hardpoints[k]);

              if (!b->detached)
                position[1] = 0.03125 * (k + 1);
              floats (g, hp, "Position", position, 3);
              floats (g, hp, "Orientation", identity, 9);
            }
        }
    }
}

static void
add_cmpnd (Gen          *g,
           MshedUtfNode *root)
{
  MshedUtfNode *cmpnd = mshed_utf_append_directory (g->utf, root, "Cmpnd"), *cons;
  GByteArray *sphere = g_byte_array_new ();
  GByteArray *loose = g_byte_array_new ();

  word (g, cmpnd, "Scale", bits_of (1.0f));
  for (guint i = 0; i < g->bones->len; i++)
    {
      const Bone *b = &g_array_index (g->bones, Bone, i);
      g_autofree char *part_name = g_strdup_printf ("Part_%s", b->object);
      MshedUtfNode *part;

      if (b->detached)
        continue;
      part = mshed_utf_append_directory (g->utf, cmpnd, i == 0 ? "Root" : part_name);
      mshed_utf_append_text (g->utf, part, "Object name", b->object);
      mshed_utf_append_text (g->utf, part, "File name", b->dir);
      word (g, part, "Index", i);
      if (i > 0)
        push_joint (g, b->sphere ? sphere : loose, b);
    }
  cons = mshed_utf_append_directory (g->utf, cmpnd, "Cons");
  if (sphere->len)
    file_take (g, cons, "Sphere", &sphere);
  if (loose->len)
    file_take (g, cons, "Loose", &loose);
  g_clear_pointer (&sphere, g_byte_array_unref);
  g_clear_pointer (&loose, g_byte_array_unref);
}

static void
add_materials (Gen          *g,
               MshedUtfNode *root,
               guint         n_groups)
{
  MshedUtfNode *lib = mshed_utf_append_directory (g->utf, root, "Material library");
  MshedUtfNode *tex;
  static const double dc[3] = { 1, 1, 1 };

  word (g, lib, "Material count", n_groups);
  for (guint k = 0; k < n_groups; k++)
    {
      char name[32];
      g_autofree char *texture = g_strdup_printf ("%s.tga", material_name (g, k, name));
      MshedUtfNode *mat = mshed_utf_append_directory (g->utf, lib, name);

      mshed_utf_append_text (g->utf, mat, "Type", "DcDt");
      floats (g, mat, "Dc", dc, 3);
      mshed_utf_append_text (g->utf, mat, "Dt_name", texture);
      word (g, mat, "Dt_flags", 0x40);
    }
  tex = mshed_utf_append_directory (g->utf, root, "Texture library");
  for (guint k = 0; k < n_groups; k++)
    {
      char name[32];
      g_autofree char *texture = g_strdup_printf ("%s.tga", material_name (g, k, name));
      guint8 mip[32];

      for (guint i = 0; i < sizeof mip; i++)
        mip[i] = (guint8) rng_below (&g->r, 256);
      mshed_utf_append_file (g->utf, mshed_utf_append_directory (g->utf, tex, texture), "MIP0", mip,
                             sizeof mip);
    }
}

/**
 * mshed_dfm_gen_params_init:
 *
 * Parameters that vary with @seed the way retail files do: four levels now and then, UV1 on
 * about half of the models, Edge data rarely, a right or left hand.
 */
void
mshed_dfm_gen_params_init (MshedDfmGenParams *params,
                           MshedDfmGenKind    kind,
                           guint64            seed)
{
  Rng r = { seed ^ G_GUINT64_CONSTANT (0x5041524B4446) };

  memset (params, 0, sizeof *params);
  params->seed = seed;
  params->kind = kind;
  params->n_levels = rng_below (&r, 8) == 0 ? 4 : 6;
  params->uv1 = rng_below (&r, 2) == 0;
  params->edges = kind == MSHED_DFM_GEN_BODY && rng_below (&r, 10) == 0;
  params->right = rng_below (&r, 2) == 0;
}

/**
 * mshed_dfm_generate:
 *
 * Returns: (transfer full): a new tree (no source); the same parameters give the same tree
 */
MshedUtf *
mshed_dfm_generate (const MshedDfmGenParams *params)
{
  static const double six[6] = { 1.0, 0.8, 0.6, 0.4, 0.2, 0.1 };
  static const double four[4] = { 1.0, 0.8, 0.6, 0.2 };
  static const char *const builds[] = { "2002-06-14", "2002-08-02", "2002-09-26", "2002-11-08" };
  static const char *const skeletons[] = { "AutoHeaderNode.cmp", "Head02.cmp", "L Palm.cmp" };
  Gen g = { 0 };
  MshedUtfNode *root, *multi;
  g_autoptr(GArray) tubes = NULL;
  g_autofree char *version = NULL;
  const double *fractions;
  guint n_groups;

  g_return_val_if_fail (params != NULL, NULL);
  g.p = params;
  g.r.s = params->seed ^ G_GUINT64_CONSTANT (0x44464D47454E);
  g.utf = mshed_utf_new ();
  g.levels = params->n_levels == 4 ? 4 : 6;
  fractions = g.levels == 4 ? four : six;
  g.bones = g_array_new (FALSE, TRUE, sizeof (Bone));
  g_array_set_clear_func (g.bones, clear_bone);
  g.stamp = g_strdup_printf ("0210%08u", rng_below (&g.r, 100000000));

  mshed_utf_set_filetime (g.utf, MSHED_UTF_LIBRELANCER_FILETIME);
  mshed_utf_set_new_entry_time (g.utf, MSHED_UTF_LIBRELANCER_TIME);
  root = mshed_utf_get_root (g.utf);
  for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
    mshed_utf_set_time (g.utf, root, t, MSHED_UTF_LIBRELANCER_TIME);

  build_bones (&g);
  tubes = build_tubes (&g);
  n_groups = MIN (params->n_groups ? CLAMP (params->n_groups, 1, 8) : 1 + rng_below (&g.r, 4),
                  tubes->len);

  version = g_strdup_printf ("mshed DFM generator (exporter build %s)",
                             builds[rng_below (&g.r, G_N_ELEMENTS (builds))]);
  mshed_utf_append_text (g.utf, root, "Exporter Version", version);
  multi = mshed_utf_append_directory (g.utf, root, "MultiLevel");
  floats (&g, multi, "Fractions", fractions, g.levels);
  for (guint l = 0; l < g.levels; l++)
    add_level (&g, multi, l, fractions[l], tubes, n_groups);
  add_materials (&g, root, n_groups);
  mshed_utf_append_text (g.utf, mshed_utf_append_directory (g.utf, root, "Skeleton"), "Name",
        params->kind == MSHED_DFM_GEN_HAND && params->right ? "R Palm.cmp"
                                                           : skeletons[params->kind]);
  add_cmpnd (&g, root);
  add_bone_dirs (&g, root);

  g_array_unref (g.bones);
  g_free (g.stamp);
  return g.utf;
}

/**
 * mshed_dfm_generate_bytes:
 *
 * Returns: (transfer full): the generated model written in the canonical UTF layout
 *   (docs/utf.md §8)
 */
GBytes *
mshed_dfm_generate_bytes (const MshedDfmGenParams *params)
{
  g_autoptr(MshedUtf) utf = mshed_dfm_generate (params);

  return mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
}
