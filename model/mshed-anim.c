/* mshed-anim.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-anim"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-anim.h"

#define QUAT_LINEAR_THRESHOLD 9.9999997e-6f

gint32
mshed_anim_frame_index (float t)
{
  float v = t - 0.5f;

  /* lrintf is undefined outside the long range; the runtime's FISTP gives the "integer
   * indefinite" value there, which as a u32 is past every frame count: fall back likewise. */
  if (!isfinite (v) || v >= 2147483520.0f || v <= -2147483520.0f)
    return G_MININT32;
  return (gint32) lrintf (v);
}

void
mshed_quat_from_stored (const gint16 stored[4],
                        float        wxyz[4])
{
  wxyz[0] = stored[3] * (1.0f / 32767.0f);
  wxyz[1] = stored[0] * (1.0f / 32767.0f);
  wxyz[2] = stored[1] * (1.0f / 32767.0f);
  wxyz[3] = stored[2] * (1.0f / 32767.0f);
}

void
mshed_quat_interp (const float q0[4],
                   const float q1[4],
                   float       a,
                   float       out[4])
{
  float d = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
  float s = 1.0f;
  float w0, w1;

  if (d < 0.0f)
    {
      d = -d;
      s = -1.0f;
    }
  if (1.0f - d <= QUAT_LINEAR_THRESHOLD)
    {
      w0 = 1.0f - a;
      w1 = a;
    }
  else
    {
      float th = acosf (d);
      float inv = 1.0f / sinf (th);

      w1 = sinf (a * th) * inv;
      w0 = cosf (a * th) - w1 * d;
    }
  for (guint i = 0; i < 4; i++)
    out[i] = w0 * q0[i] + (s * w1) * q1[i];
}

void
mshed_mat4_identity (float out[16])
{
  memset (out, 0, 16 * sizeof (float));
  out[0] = out[5] = out[10] = out[15] = 1.0f;
}

void
mshed_mat4_mul (const float a[16],
                const float b[16],
                float       out[16])
{
  for (guint c = 0; c < 4; c++)
    for (guint r = 0; r < 4; r++)
      out[c * 4 + r] = a[0 * 4 + r] * b[c * 4 + 0] + a[1 * 4 + r] * b[c * 4 + 1] +
                       a[2 * 4 + r] * b[c * 4 + 2] + a[3 * 4 + r] * b[c * 4 + 3];
}

void
mshed_pose_matrix (const float              q[4],
                   const float              t[3],
                   MshedRotationConvention  convention,
                   gboolean                 normalise,
                   float                    out[16])
{
  float w = q[0], x = q[1], y = q[2], z = q[3];
  float r[3][3];  /* r[row][col] = R(q) */

  mshed_mat4_identity (out);
  out[12] = t[0];
  out[13] = t[1];
  out[14] = t[2];
  if (w == 0.0f && x == 0.0f && y == 0.0f && z == 0.0f)
    return;
  if (normalise)
    {
      float len = sqrtf (w * w + x * x + y * y + z * z);

      if (!(len > 0.0f) || !isfinite (len))
        return;
      w /= len;
      x /= len;
      y /= len;
      z /= len;
    }

  r[0][0] = 1.0f - 2.0f * (y * y + z * z);
  r[0][1] = 2.0f * (x * y - w * z);
  r[0][2] = 2.0f * (x * z + w * y);
  r[1][0] = 2.0f * (x * y + w * z);
  r[1][1] = 1.0f - 2.0f * (x * x + z * z);
  r[1][2] = 2.0f * (y * z - w * x);
  r[2][0] = 2.0f * (x * z - w * y);
  r[2][1] = 2.0f * (y * z + w * x);
  r[2][2] = 1.0f - 2.0f * (x * x + y * y);

  for (guint row = 0; row < 3; row++)
    for (guint col = 0; col < 3; col++)
      out[col * 4 + row] = convention == MSHED_ROTATION_RUNTIME ? r[col][row] : r[row][col];
}

void
mshed_pose_options_init (MshedPoseOptions *options)
{
  options->convention = MSHED_ROTATION_FPARKAN;
  options->normalise = TRUE;
}

void
mshed_anim_select_key (const MshedModel *model,
                       guint             node,
                       float             t,
                       MshedKeyChoice   *choice)
{
  MshedNode rec;
  guint n_keys = mshed_model_get_n_rows (model, MSHED_TABLE_KEYS);
  guint n_words = mshed_model_get_n_rows (model, MSHED_TABLE_MAP);
  guint32 frame_count = mshed_model_get_frame_count (model);
  gboolean use_fallback;
  guint key = MSHED_ANIM_NO_KEY;

  memset (choice, 0, sizeof *choice);
  choice->key = choice->next_key = MSHED_ANIM_NO_KEY;
  choice->frame = mshed_anim_frame_index (t);
  if (!mshed_model_get_node (model, node, &rec))
    {
      choice->source = MSHED_KEY_SOURCE_NONE;
      choice->issues |= MSHED_ANIM_ISSUE_NO_NODE;
      return;
    }

  /* Negative frames wrap to huge u32 values and fall back, as in the runtime. */
  use_fallback = (guint32) choice->frame >= frame_count || rec.hdr2 == MSHED_NONE;
  if (!use_fallback)
    {
      guint64 word = (guint64) rec.hdr2 + (guint32) choice->frame;
      guint16 value;

      if (word >= n_words || !mshed_model_get_map_word (model, (guint) word, &value))
        {
          choice->issues |= MSHED_ANIM_ISSUE_MAP_RANGE;
          use_fallback = TRUE;
        }
      else if (value >= rec.hdr3)
        use_fallback = TRUE;
      else if ((guint) value + 1 >= n_keys)
        {
          choice->issues |= MSHED_ANIM_ISSUE_NEXT_KEY_RANGE;
          use_fallback = TRUE;
        }
      else
        key = value;
    }

  if (!use_fallback)
    {
      choice->source = MSHED_KEY_SOURCE_MAP;
      choice->key = key;
      choice->next_key = key + 1;
      return;
    }
  if (rec.hdr3 >= n_keys)
    {
      choice->source = MSHED_KEY_SOURCE_NONE;
      choice->issues |= MSHED_ANIM_ISSUE_FALLBACK_RANGE;
      return;
    }
  choice->source = MSHED_KEY_SOURCE_FALLBACK;
  choice->key = choice->next_key = rec.hdr3;
}

static void
pose_from_key (const MshedKey *key,
               MshedPose      *pose)
{
  memcpy (pose->pos, key->pos, sizeof pose->pos);
  mshed_quat_from_stored (key->q, pose->q);
}

static void
pose_identity (MshedPose *pose)
{
  memset (pose, 0, sizeof *pose);
  pose->q[0] = 1.0f;
}

gboolean
mshed_anim_sample_node (const MshedModel *model,
                        guint             node,
                        float             t,
                        MshedPose        *pose,
                        MshedKeyChoice   *choice)
{
  MshedKeyChoice local_choice;
  MshedKeyChoice *c = choice ? choice : &local_choice;
  MshedKey k0, k1;
  MshedPose p0, p1;
  float a;

  mshed_anim_select_key (model, node, t, c);
  if (c->source == MSHED_KEY_SOURCE_NONE || !mshed_model_get_key (model, c->key, &k0))
    {
      c->source = MSHED_KEY_SOURCE_NONE;
      pose_identity (pose);
      return FALSE;
    }
  pose_from_key (&k0, pose);
  if (c->source == MSHED_KEY_SOURCE_FALLBACK)
    return TRUE;

  /* Map branch: exact float equality with the key times, no epsilon (docs/msh.md §7.3). */
  if (t == k0.time)
    {
      c->next_key = c->key;
      return TRUE;
    }
  if (!mshed_model_get_key (model, c->next_key, &k1))
    {
      c->issues |= MSHED_ANIM_ISSUE_NEXT_KEY_RANGE;
      c->next_key = c->key;
      return TRUE;
    }
  if (t == k1.time)
    {
      pose_from_key (&k1, pose);
      c->key = c->next_key;
      return TRUE;
    }
  a = (t - k0.time) / (k1.time - k0.time);
  if (!isfinite (a))
    {
      c->issues |= MSHED_ANIM_ISSUE_BAD_TIME;
      c->next_key = c->key;
      return TRUE;
    }
  c->alpha = a;
  pose_from_key (&k0, &p0);
  pose_from_key (&k1, &p1);
  for (guint i = 0; i < 3; i++)
    pose->pos[i] = p0.pos[i] + (p1.pos[i] - p0.pos[i]) * a;
  mshed_quat_interp (p0.q, p1.q, a, pose->q);
  return TRUE;
}

void
mshed_anim_compose_hierarchy (const float    *local,
                              const guint16  *parents,
                              guint           n_nodes,
                              float          *world,
                              MshedAnimIssue *issues)
{
  g_autofree guint8 *state = NULL;   /* 0 unvisited, 1 on the current chain, 2 done */
  g_autofree guint *chain = NULL;

  if (n_nodes == 0)
    return;
  state = g_new0 (guint8, n_nodes);
  chain = g_new (guint, n_nodes);
  if (issues)
    memset (issues, 0, n_nodes * sizeof *issues);

  for (guint n = 0; n < n_nodes; n++)
    {
      guint len = 0;
      guint cur = n;

      /* Walk up to a done node, a root, a broken link or back onto the chain. */
      while (state[cur] == 0)
        {
          guint p = parents[cur];

          state[cur] = 1;
          chain[len++] = cur;
          if (p == MSHED_NONE || p >= n_nodes)
            break;
          cur = p;
        }

      /* Unwind from the top of the chain; each node's parent is then done. */
      for (guint i = len; i-- > 0;)
        {
          guint node = chain[i];
          guint p = parents[node];
          MshedAnimIssue issue = 0;

          if (p == MSHED_NONE)
            ;
          else if (p >= n_nodes)
            issue = MSHED_ANIM_ISSUE_PARENT_RANGE;
          else if (state[p] != 2)
            issue = MSHED_ANIM_ISSUE_PARENT_CYCLE;  /* still on the chain: the loop closes here */
          else if (p > node)
            issue = MSHED_ANIM_ISSUE_PARENT_FORWARD;

          if (p == MSHED_NONE || issue == MSHED_ANIM_ISSUE_PARENT_RANGE ||
              issue == MSHED_ANIM_ISSUE_PARENT_CYCLE)
            memcpy (world + 16 * (gsize) node, local + 16 * (gsize) node, 16 * sizeof (float));
          else
            mshed_mat4_mul (world + 16 * (gsize) p, local + 16 * (gsize) node,
                            world + 16 * (gsize) node);
          if (issues)
            issues[node] |= issue;
          state[node] = 2;
        }
    }
}

guint
mshed_anim_compute_world (const MshedModel       *model,
                          float                   t,
                          const MshedPoseOptions *options,
                          float                  *world,
                          guint                   n_world,
                          MshedAnimIssue         *issues)
{
  MshedPoseOptions defaults;
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  guint n = MIN (n_nodes, n_world);
  g_autofree float *local = NULL;
  g_autofree guint16 *parents = NULL;
  g_autofree MshedAnimIssue *sample_issues = NULL;

  if (options == NULL)
    {
      mshed_pose_options_init (&defaults);
      options = &defaults;
    }
  if (n == 0)
    return n_nodes;

  local = g_new (float, 16 * (gsize) n);
  parents = g_new (guint16, n);
  sample_issues = g_new0 (MshedAnimIssue, n);
  for (guint i = 0; i < n; i++)
    {
      MshedNode rec;
      MshedPose pose;
      MshedKeyChoice choice;

      mshed_anim_sample_node (model, i, t, &pose, &choice);
      sample_issues[i] = choice.issues;
      mshed_pose_matrix (pose.q, pose.pos, options->convention, options->normalise,
                         local + 16 * (gsize) i);
      /* Nodes past @n_world are not computed: a parent there counts as out of range. */
      parents[i] = mshed_model_get_node (model, i, &rec) ? rec.hdr1 : MSHED_NONE;
    }
  mshed_anim_compose_hierarchy (local, parents, n, world, issues);
  if (issues)
    for (guint i = 0; i < n; i++)
      issues[i] |= sample_issues[i];
  return n_nodes;
}
