/* mshed-recompute-header.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model header's bounds (hull, sphere, capsule) from the posed model: mshed's convention,
 * docs/conventions.md; the other recomputes are in mshed-recompute.c.
 */
#define G_LOG_DOMAIN "mshed-recompute"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-recompute.h"
#include "mshed-recompute-private.h"

/* Header bounds from the posed model -------------------------------------------------------- */

/* Frames sampled for the header: every whole frame up to this many, evenly spread beyond. */
#define HEADER_MAX_FRAMES 1024u

typedef struct {
  guint32 *verts;  /* the distinct vertices a slot draws, sorted */
  guint    n;
} SlotVerts;

static void
collect_tri_verts (guint          ordinal,
                   guint          batch,
                   guint          tri_in_batch,
                   const guint32  v[3],
                   gboolean       valid,
                   gpointer       user_data)
{
  if (valid)
    g_array_append_vals (user_data, v, 3);
}

static int
cmp_u32 (gconstpointer a,
         gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

static void
slot_verts_init (const MshedModel *model,
                 guint             slot,
                 SlotVerts        *out)
{
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n = 0;

  mshed_slot_foreach_triangle (model, slot, collect_tri_verts, v);
  g_array_sort (v, cmp_u32);
  for (guint i = 0; i < v->len; i++)
    if (i == 0 || g_array_index (v, guint32, i) != g_array_index (v, guint32, i - 1))
      g_array_index (v, guint32, n++) = g_array_index (v, guint32, i);
  out->n = n;
  out->verts = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&v), FALSE);
}

typedef struct {
  double mn[3];
  double mx[3];
  double centre[3];
  guint  axis;
  double d2;       /* to the centre */
  double c2;       /* to the capsule axis */
  gboolean any;
} HeaderAcc;

static void
header_point (HeaderAcc    *acc,
              const double  p[3],
              gboolean      second_pass)
{
  if (!second_pass)
    {
      for (guint k = 0; k < 3; k++)
        {
          acc->mn[k] = MIN (acc->mn[k], p[k]);
          acc->mx[k] = MAX (acc->mx[k], p[k]);
        }
      acc->any = TRUE;
    }
  else
    {
      double e2 = 0.0, f2 = 0.0;

      for (guint k = 0; k < 3; k++)
        {
          double d = p[k] - acc->centre[k];

          e2 += d * d;
          if (k != acc->axis)
            f2 += d * d;
        }
      acc->d2 = MAX (acc->d2, e2);
      acc->c2 = MAX (acc->c2, f2);
    }
}

/* The distinct world matrices of every node over the sampled frames and both rotation
 * conventions of docs/msh.md §7.4 (the spec leaves the choice open). A static node has one or
 * two, so only what moves is transformed more than once. */
typedef struct {
  GArray *mats;   /* per node: float[16] each */
} NodePoses;

static NodePoses *
node_poses_new (const MshedModel *model,
                guint             n_nodes)
{
  NodePoses *poses = g_new0 (NodePoses, n_nodes + 1);
  guint32 frames = MAX (mshed_model_get_frame_count (model), 1u);
  guint32 step = (frames + HEADER_MAX_FRAMES - 1) / HEADER_MAX_FRAMES;
  g_autofree float *world = g_new (float, 16 * (gsize) MAX (n_nodes, 1));

  for (guint n = 0; n < n_nodes; n++)
    poses[n].mats = g_array_new (FALSE, FALSE, 16 * sizeof (float));
  for (guint conv = 0; conv < 2; conv++)
    for (guint32 f = 0; f < frames; f += step)
      {
        MshedPoseOptions options;

        mshed_pose_options_init (&options);
        options.convention = conv == 0 ? MSHED_ROTATION_FPARKAN : MSHED_ROTATION_RUNTIME;
        mshed_anim_compute_world (model, (float) f, &options, world, n_nodes, NULL);
        for (guint n = 0; n < n_nodes; n++)
          {
            const float *m = world + 16 * (gsize) n;
            GArray *mats = poses[n].mats;
            gboolean seen = FALSE;

            for (guint i = mats->len; i > 0 && !seen; i--)
              seen = memcmp (&g_array_index (mats, float, 16 * (gsize) (i - 1)), m,
                             16 * sizeof (float)) == 0;
            if (!seen)
              g_array_append_vals (mats, m, 1);
          }
      }
  return poses;
}

static void
node_poses_free (NodePoses *poses,
                 guint      n_nodes)
{
  for (guint n = 0; n < n_nodes; n++)
    g_array_unref (poses[n].mats);
  g_free (poses);
}

/* One pass over every posed vertex: each node draws the vertices of the slots its cells
 * name, moved by each of the node's world matrices. */
static void
header_pass (const MshedModel *model,
             const float      *pos,
             SlotVerts        *slots,
             guint             n_slots,
             const NodePoses  *poses,
             HeaderAcc        *acc,
             gboolean          second_pass)
{
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);

  for (guint n = 0; n < n_nodes; n++)
    {
      MshedNode node;

      mshed_model_get_node (model, n, &node);
      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        {
          guint s = node.slot[c];
          gboolean seen = FALSE;

          if (s >= n_slots)
            continue;
          for (guint c2 = 0; c2 < c && !seen; c2++)
            seen = node.slot[c2] == s;
          if (seen)
            continue;
          for (guint j = 0; j < poses[n].mats->len; j++)
            {
              const float *m = &g_array_index (poses[n].mats, float, 16 * (gsize) j);

              for (guint i = 0; i < slots[s].n; i++)
                {
                  const float *v = pos + 3 * (gsize) slots[s].verts[i];
                  double w[3];

                  for (guint r = 0; r < 3; r++)
                    w[r] = (double) m[r] * v[0] + (double) m[4 + r] * v[1] +
                           (double) m[8 + r] * v[2] + (double) m[12 + r];
                  header_point (acc, w, second_pass);
                }
            }
        }
    }
}

/* The largest float not above @v / the smallest not below it. */
static float
float_down (double v)
{
  float f = (float) v;

  return (double) f > v ? nextafterf (f, -INFINITY) : f;
}

static float
float_up (double v)
{
  float f = (float) v;

  return (double) f < v ? nextafterf (f, INFINITY) : f;
}

/* A radius that still covers the farthest vertex when a consumer redoes the transforms in
 * single precision: grown by one part in a million. */
static float
padded_radius (double d2)
{
  return float_up ((double) _mshed_recompute_radius_up (d2) * (1.0 + 1e-6));
}

void
mshed_compute_header (const MshedModel *model,
                      guint8            out[140])
{
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  gsize psize;
  const guint8 *raw = _mshed_recompute_res_data (model, 3, &psize);
  gsize n_verts = psize / 12;
  g_autofree float *pos = g_new (float, 3 * n_verts + 1);
  g_autofree SlotVerts *slots = NULL;
  NodePoses *poses = NULL;
  HeaderAcc acc = { 0 };
  float mn[3], mx[3], centre[3];
  gboolean posed = FALSE;

  memset (out, 0, 140);
  for (gsize i = 0; i < 3 * n_verts; i++)
    pos[i] = mshed_read_f32 (raw + 4 * i);
  for (guint k = 0; k < 3; k++)
    {
      acc.mn[k] = INFINITY;
      acc.mx[k] = -INFINITY;
    }

  if (mshed_model_has_node_records (model))
    {
      slots = g_new0 (SlotVerts, n_slots + 1);
      for (guint s = 0; s < n_slots; s++)
        slot_verts_init (model, s, &slots[s]);
      poses = node_poses_new (model, n_nodes);
      header_pass (model, pos, slots, n_slots, poses, &acc, FALSE);
      posed = acc.any;
    }
  /* no node draws anything (or the node layout is unknown): the raw positions */
  if (!acc.any)
    for (gsize i = 0; i < n_verts; i++)
      {
        double v[3] = { pos[3 * i], pos[3 * i + 1], pos[3 * i + 2] };

        header_point (&acc, v, FALSE);
      }

  if (acc.any)
    {
      for (guint k = 0; k < 3; k++)
        {
          mn[k] = float_down (acc.mn[k]);
          mx[k] = float_up (acc.mx[k]);
          centre[k] = (mn[k] + mx[k]) * 0.5f;
          acc.centre[k] = centre[k];
          if (mx[k] - mn[k] > mx[acc.axis] - mn[acc.axis])
            acc.axis = k;
        }
      /* the second pass walks what the first one found */
      if (posed)
        header_pass (model, pos, slots, n_slots, poses, &acc, TRUE);
      else
        for (gsize i = 0; i < n_verts; i++)
          {
            double v[3] = { pos[3 * i], pos[3 * i + 1], pos[3 * i + 2] };

            header_point (&acc, v, TRUE);
          }

      for (guint i = 0; i < 8; i++)
        for (guint k = 0; k < 3; k++)
          mshed_write_f32 (out + (i * 3 + k) * 4, (i >> k) & 1 ? mx[k] : mn[k]);
      for (guint k = 0; k < 3; k++)
        mshed_write_f32 (out + 0x60 + k * 4, centre[k]);
      mshed_write_f32 (out + 0x6C, padded_radius (acc.d2));
      for (guint k = 0; k < 3; k++)
        {
          mshed_write_f32 (out + 0x70 + k * 4, k == acc.axis ? mn[k] : centre[k]);
          mshed_write_f32 (out + 0x7C + k * 4, k == acc.axis ? mx[k] : centre[k]);
        }
      mshed_write_f32 (out + 0x88, padded_radius (acc.c2));
    }

  for (guint s = 0; slots && s < n_slots; s++)
    g_free (slots[s].verts);
  if (poses)
    node_poses_free (poses, n_nodes);
}
