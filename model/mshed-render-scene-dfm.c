/* mshed-render-scene-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The render scene of a deformable model: one level's elements (docs/dfm.md §6.1) as
 * vertices, skinned by the scene's pose (§6.3, mshed-dfm-pose.h), and the triangles of every
 * face group unrolled from their strips or lists (§4, §5.1), one draw item per group. A
 * triangle with an element past the level's elements is skipped and counted.
 *
 * Two ways to the skinned picture (docs/conventions.md "Posing a DFM"): the reference on the
 * CPU (mshed_dfm_pose_skin_point, done lazily when positions are read after a pose change),
 * and the bind-pose vertices with up to four influences each that the renderer skins in its
 * vertex shader with the pose's matrices.
 */
#define G_LOG_DOMAIN "mshed-render"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-render-scene-private.h"

void
_mshed_render_scene_dfm_clear (MshedRenderScene *self)
{
  g_clear_pointer (&self->dfm, mshed_dfm_unref);
  g_clear_pointer (&self->pose, mshed_dfm_pose_free);
  g_clear_pointer (&self->dfm_pos, g_array_unref);
  g_clear_pointer (&self->dfm_nrm, g_array_unref);
  g_clear_pointer (&self->dfm_uv, g_array_unref);
  g_clear_pointer (&self->dfm_point, g_array_unref);
  g_clear_pointer (&self->dfm_bind_pos, g_array_unref);
  g_clear_pointer (&self->dfm_bind_nrm, g_array_unref);
  g_clear_pointer (&self->dfm_joints, g_array_unref);
  g_clear_pointer (&self->dfm_weights, g_array_unref);
}

/* Skins every vertex with the current pose. */
static void
skin (MshedRenderScene *self)
{
  guint n = self->dfm_point->len;
  guint level = self->lod;
  MshedDfmLevel info;
  g_autofree float *points = NULL;
  g_autofree float *normals = NULL;
  g_autofree gboolean *ok = NULL;

  if (!mshed_dfm_get_level (self->dfm, level, &info))
    info.n_points = 0;
  /* each point once, then its elements */
  points = g_new0 (float, 3 * (gsize) MAX (info.n_points, 1));
  normals = g_new0 (float, 3 * (gsize) MAX (info.n_points, 1));
  ok = g_new0 (gboolean, MAX (info.n_points, 1));
  for (guint p = 0; p < info.n_points; p++)
    ok[p] = mshed_dfm_pose_skin_point (self->pose, self->dfm, level, p, points + 3 * (gsize) p,
                                       normals + 3 * (gsize) p);
  for (guint v = 0; v < n; v++)
    {
      guint32 p = g_array_index (self->dfm_point, guint32, v);
      float *pos = &g_array_index (self->dfm_pos, float, 3 * (gsize) v);
      float *nrm = &g_array_index (self->dfm_nrm, float, 3 * (gsize) v);

      if (p < info.n_points && ok[p])
        {
          memcpy (pos, points + 3 * (gsize) p, 3 * sizeof (float));
          memcpy (nrm, normals + 3 * (gsize) p, 3 * sizeof (float));
        }
      else
        memset (pos, 0, 3 * sizeof (float)), memset (nrm, 0, 3 * sizeof (float));
      /* non-finite positions would poison the rasteriser and the bounds: park them */
      if (!isfinite (pos[0]) || !isfinite (pos[1]) || !isfinite (pos[2]))
        memset (pos, 0, 3 * sizeof (float));
      if (!isfinite (nrm[0]) || !isfinite (nrm[1]) || !isfinite (nrm[2]))
        memset (nrm, 0, 3 * sizeof (float));
    }
  self->dfm_skin_stale = FALSE;
}

void
_mshed_render_scene_dfm_ensure_skinned (MshedRenderScene *self)
{
  if (self->dfm && self->dfm_skin_stale)
    skin (self);
}

/* Point @point's influences for the GPU: up to four (matrix, weight) pairs. An influence
 * naming no bone uses the identity (matrix @n_bones) and one with a non-finite weight is left
 * out, as on the CPU; a point without a readable skin slice has the identity with weight 1.
 * More than four: the four largest weights, scaled to the sum of all (conventions.md). */
static gboolean
point_influences (MshedRenderScene *self,
                  guint             level,
                  guint             point,
                  guint             n_bones,
                  guint16           joints[4],
                  float             weights[4])
{
  guint32 first, count;
  guint n = 0;
  double all = 0.0, kept = 0.0;

  for (guint i = 0; i < 4; i++)
    joints[i] = (guint16) n_bones, weights[i] = 0.0f;
  if (!mshed_dfm_get_skin_range (self->dfm, level, point, &first, &count) || count == 0)
    {
      weights[0] = 1.0f;
      return FALSE;
    }
  for (guint32 k = 0; k < count; k++)
    {
      guint32 bone;
      float w;
      guint slot;

      if (!mshed_dfm_get_influence (self->dfm, level, first + k, &bone, &w) || !isfinite (w))
        continue;
      all += w;
      if (n < 4)
        slot = n++;
      else
        {
          /* replace the smallest kept weight when this one is larger */
          slot = 0;
          for (guint i = 1; i < 4; i++)
            if (fabsf (weights[i]) < fabsf (weights[slot]))
              slot = i;
          if (!(fabsf (w) > fabsf (weights[slot])))
            {
              n++;
              continue;
            }
          n++;
        }
      joints[slot] = (guint16) (bone < n_bones ? bone : n_bones);
      weights[slot] = w;
    }
  if (n <= 4)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    kept += weights[i];
  if (isfinite (all) && isfinite (kept) && kept != 0.0)
    for (guint i = 0; i < 4; i++)
      weights[i] = (float) (weights[i] * (all / kept));
  return TRUE;
}

/* The level's vertices in the bind pose with their influences (see point_influences). */
static void
build_bind (MshedRenderScene   *self,
            const MshedDfmLevel *info)
{
  guint n = self->dfm_point->len;
  guint n_bones = mshed_dfm_get_n_bones (self->dfm);
  guint level = self->lod;
  gsize n_p = MAX (info->n_points, 1);
  g_autofree float *points = g_new0 (float, 3 * n_p);
  g_autofree float *normals = g_new0 (float, 3 * n_p);
  g_autofree guint16 *joints = g_new0 (guint16, 4 * n_p);
  g_autofree float *weights = g_new0 (float, 4 * n_p);
  g_autofree gboolean *ok = g_new0 (gboolean, n_p);

  g_array_set_size (self->dfm_bind_pos, 3 * (gsize) n);
  g_array_set_size (self->dfm_bind_nrm, 3 * (gsize) n);
  g_array_set_size (self->dfm_joints, 4 * (gsize) n);
  g_array_set_size (self->dfm_weights, 4 * (gsize) n);
  self->dfm_n_cut = 0;
  if (n_bones >= G_MAXUINT16)
    return;   /* no 16-bit matrix numbers: mshed_render_scene_get_n_skin_matrices says 0 */
  for (guint p = 0; p < info->n_points; p++)
    {
      float *pos = points + 3 * (gsize) p, *nrm = normals + 3 * (gsize) p;

      ok[p] = mshed_dfm_get_point (self->dfm, level, p, pos, nrm);
      if (!ok[p])
        continue;
      self->dfm_n_cut += point_influences (self, level, p, n_bones, joints + 4 * (gsize) p,
                                           weights + 4 * (gsize) p);
      /* a non-finite point lands at the origin on the CPU (skin ()): the same here */
      if (!isfinite (pos[0]) || !isfinite (pos[1]) || !isfinite (pos[2]))
        {
          memset (pos, 0, 3 * sizeof (float));
          for (guint i = 0; i < 4; i++)
            joints[4 * (gsize) p + i] = (guint16) n_bones, weights[4 * (gsize) p + i] = 0.0f;
          weights[4 * (gsize) p] = 1.0f;
        }
      if (!isfinite (nrm[0]) || !isfinite (nrm[1]) || !isfinite (nrm[2]))
        memset (nrm, 0, 3 * sizeof (float));
    }
  for (guint v = 0; v < n; v++)
    {
      guint32 p = g_array_index (self->dfm_point, guint32, v);
      gboolean in = p < info->n_points && ok[p];
      static const guint16 none[4] = { 0, 0, 0, 0 };
      static const float zero[4] = { 0, 0, 0, 0 };

      /* a point that cannot be read: at the origin, as on the CPU */
      memcpy (&g_array_index (self->dfm_bind_pos, float, 3 * (gsize) v),
              in ? points + 3 * (gsize) p : zero, 3 * sizeof (float));
      memcpy (&g_array_index (self->dfm_bind_nrm, float, 3 * (gsize) v),
              in ? normals + 3 * (gsize) p : zero, 3 * sizeof (float));
      memcpy (&g_array_index (self->dfm_joints, guint16, 4 * (gsize) v),
              in ? joints + 4 * (gsize) p : none, 4 * sizeof (guint16));
      memcpy (&g_array_index (self->dfm_weights, float, 4 * (gsize) v),
              in ? weights + 4 * (gsize) p : zero, 4 * sizeof (float));
    }
}

void
_mshed_render_scene_dfm_build (MshedRenderScene *self)
{
  MshedDfmPose *pose = mshed_dfm_pose_new (self->dfm);
  MshedDfmLevel info;
  guint level = self->lod;
  guint n_groups;

  /* the skeleton again (an edit may have changed it), with the values set so far */
  if (self->pose)
    mshed_dfm_pose_copy_values (pose, self->pose);
  g_clear_pointer (&self->pose, mshed_dfm_pose_free);
  self->pose = pose;

  if (self->dfm_pos == NULL)
    {
      self->dfm_pos = g_array_new (FALSE, TRUE, sizeof (float));
      self->dfm_nrm = g_array_new (FALSE, TRUE, sizeof (float));
      self->dfm_uv = g_array_new (FALSE, TRUE, sizeof (float));
      self->dfm_point = g_array_new (FALSE, TRUE, sizeof (guint32));
      self->dfm_bind_pos = g_array_new (FALSE, TRUE, sizeof (float));
      self->dfm_bind_nrm = g_array_new (FALSE, TRUE, sizeof (float));
      self->dfm_joints = g_array_new (FALSE, TRUE, sizeof (guint16));
      self->dfm_weights = g_array_new (FALSE, TRUE, sizeof (float));
    }
  g_array_set_size (self->elements, 0);
  g_array_set_size (self->tri_map, 0);
  for (guint s = 0; s < MSHED_SCENE_N_SKIPS; s++)
    self->skips[s] = 0;
  if (!mshed_dfm_get_level (self->dfm, level, &info))
    memset (&info, 0, sizeof info);

  g_array_set_size (self->dfm_point, info.n_elements);
  g_array_set_size (self->dfm_pos, 3 * (gsize) info.n_elements);
  g_array_set_size (self->dfm_nrm, 3 * (gsize) info.n_elements);
  g_array_set_size (self->dfm_uv, 2 * (gsize) info.n_elements);
  for (guint e = 0; e < info.n_elements; e++)
    {
      MshedDfmElement el;
      float *uv = &g_array_index (self->dfm_uv, float, 2 * (gsize) e);

      if (mshed_dfm_get_element (self->dfm, level, e, &el))
        {
          g_array_index (self->dfm_point, guint32, e) = el.point;
          uv[0] = isfinite (el.uv0[0]) ? el.uv0[0] : 0.0f;
          uv[1] = isfinite (el.uv0[1]) ? el.uv0[1] : 0.0f;
        }
      else
        {
          g_array_index (self->dfm_point, guint32, e) = G_MAXUINT32;
          uv[0] = uv[1] = 0.0f;
        }
    }
  build_bind (self, &info);
  self->dfm_skin_stale = TRUE;   /* skinned on the CPU when first read */

  n_groups = info.n_groups;
  g_array_set_size (self->batch_ranges, n_groups);
  for (guint g = 0; g < n_groups; g++)
    {
      BatchRange *range = &g_array_index (self->batch_ranges, BatchRange, g);
      gsize n_tri = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (self->dfm, level, g, &n_tri);

      range->elem_first = self->elements->len;
      range->tri_first = self->tri_map->len;
      for (gsize t = 0; tris && t < n_tri; t++)
        {
          guint32 e[3] = { tris[3 * t], tris[3 * t + 1], tris[3 * t + 2] };
          guint32 tri = (guint32) t;

          if (e[0] >= info.n_elements || e[1] >= info.n_elements || e[2] >= info.n_elements)
            {
              self->skips[MSHED_SCENE_SKIP_TRIANGLE_VERTEX]++;
              continue;
            }
          g_array_append_vals (self->elements, e, 3);
          g_array_append_val (self->tri_map, tri);
        }
      range->elem_count = self->elements->len - range->elem_first;
    }
}

void
_mshed_render_scene_dfm_read_vertices (MshedRenderScene *self,
                                       guint             first,
                                       guint             count,
                                       float            *positions,
                                       float            *normals,
                                       float            *uvs)
{
  guint n = self->dfm_point->len;

  if (positions || normals)
    _mshed_render_scene_dfm_ensure_skinned (self);
  for (guint i = 0; i < count; i++)
    {
      guint v = first + i;
      gboolean in = v < n && v >= first;

      if (positions)
        for (guint k = 0; k < 3; k++)
          positions[3 * (gsize) i + k] = in ? g_array_index (self->dfm_pos, float, 3 * v + k) : 0;
      if (normals)
        for (guint k = 0; k < 3; k++)
          normals[3 * (gsize) i + k] = in ? g_array_index (self->dfm_nrm, float, 3 * v + k) : 0;
      if (uvs)
        for (guint k = 0; k < 2; k++)
          uvs[2 * (gsize) i + k] = in ? g_array_index (self->dfm_uv, float, 2 * v + k) : 0;
    }
}

MshedDfm *
mshed_render_scene_get_dfm (MshedRenderScene *self)
{
  return self->dfm;
}

MshedDfmPose *
mshed_render_scene_get_dfm_pose (MshedRenderScene *self)
{
  return self->pose;
}

void
mshed_render_scene_pose_changed (MshedRenderScene *self)
{
  if (self->dfm)
    self->dfm_skin_stale = TRUE;   /* skinned again when positions are next read */
}

guint
mshed_render_scene_get_vertex_point (MshedRenderScene *self,
                                     guint             v)
{
  if (self->dfm == NULL || v >= self->dfm_point->len)
    return G_MAXUINT;
  return g_array_index (self->dfm_point, guint32, v);
}

float
mshed_render_scene_get_bone_weight (MshedRenderScene *self,
                                    guint             v,
                                    guint             bone)
{
  guint p = mshed_render_scene_get_vertex_point (self, v);
  guint32 first, count;
  float sum = 0.0f;

  if (p == G_MAXUINT || !mshed_dfm_get_skin_range (self->dfm, self->lod, p, &first, &count))
    return 0.0f;
  for (guint32 k = 0; k < count; k++)
    {
      guint32 b;
      float w;

      if (mshed_dfm_get_influence (self->dfm, self->lod, first + k, &b, &w) && b == bone &&
          isfinite (w))
        sum += w;
    }
  return sum;
}

guint
mshed_render_scene_get_n_skin_matrices (MshedRenderScene *self)
{
  guint n_bones;

  if (self->dfm == NULL || self->pose == NULL)
    return 0;
  n_bones = mshed_dfm_pose_get_n_bones (self->pose);
  return n_bones < G_MAXUINT16 ? n_bones + 1 : 0;
}

void
mshed_render_scene_read_skin_matrices (MshedRenderScene *self,
                                       float            *rows)
{
  guint n = mshed_render_scene_get_n_skin_matrices (self);

  /* matrix j: rows r of S_j as (S[3r], S[3r+1], S[3r+2], S[9+r]); the last the identity */
  for (guint j = 0; j < n; j++)
    {
      const float *s = mshed_dfm_pose_get_skin (self->pose, j);   /* the identity past the bones */
      float *out = rows + 12 * (gsize) j;

      for (guint r = 0; r < 3; r++)
        {
          out[4 * r] = s[3 * r];
          out[4 * r + 1] = s[3 * r + 1];
          out[4 * r + 2] = s[3 * r + 2];
          out[4 * r + 3] = s[9 + r];
        }
    }
}

void
mshed_render_scene_read_bind_vertices (MshedRenderScene *self,
                                       guint             first,
                                       guint             count,
                                       float            *positions,
                                       float            *normals,
                                       guint16          *joints,
                                       float            *weights)
{
  guint n_mat = mshed_render_scene_get_n_skin_matrices (self);
  guint n = self->dfm && self->dfm_bind_pos && n_mat > 0 ? self->dfm_point->len : 0;
  guint16 identity = (guint16) (n_mat > 0 ? n_mat - 1 : 0);

  for (guint i = 0; i < count; i++)
    {
      guint v = first + i;
      gboolean in = v < n && v >= first;

      for (guint k = 0; k < 3; k++)
        {
          if (positions)
            positions[3 * (gsize) i + k] =
              in ? g_array_index (self->dfm_bind_pos, float, 3 * (gsize) v + k) : 0.0f;
          if (normals)
            normals[3 * (gsize) i + k] =
              in ? g_array_index (self->dfm_bind_nrm, float, 3 * (gsize) v + k) : 0.0f;
        }
      for (guint k = 0; k < 4; k++)
        {
          if (joints)
            joints[4 * (gsize) i + k] =
              in ? g_array_index (self->dfm_joints, guint16, 4 * (gsize) v + k) : identity;
          if (weights)
            weights[4 * (gsize) i + k] =
              in ? g_array_index (self->dfm_weights, float, 4 * (gsize) v + k) : k == 0;
        }
    }
}

guint
mshed_render_scene_get_n_cut_points (MshedRenderScene *self)
{
  return self->dfm ? self->dfm_n_cut : 0;
}

/* Möller–Trumbore in double: the distance along the ray and the barycentrics of the hit. */
static gboolean
ray_triangle (const double o[3],
              const double d[3],
              const float *a,
              const float *b,
              const float *c,
              double      *t,
              double      *u,
              double      *v)
{
  double e1[3], e2[3], p[3], q[3], s[3], det;

  for (guint k = 0; k < 3; k++)
    {
      e1[k] = (double) b[k] - a[k];
      e2[k] = (double) c[k] - a[k];
      s[k] = o[k] - a[k];
    }
  p[0] = d[1] * e2[2] - d[2] * e2[1];
  p[1] = d[2] * e2[0] - d[0] * e2[2];
  p[2] = d[0] * e2[1] - d[1] * e2[0];
  det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
  if (!(fabs (det) > 1e-20))
    return FALSE;
  *u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
  if (!(*u >= 0.0 && *u <= 1.0))
    return FALSE;
  q[0] = s[1] * e1[2] - s[2] * e1[1];
  q[1] = s[2] * e1[0] - s[0] * e1[2];
  q[2] = s[0] * e1[1] - s[1] * e1[0];
  *v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
  if (!(*v >= 0.0 && *u + *v <= 1.0))
    return FALSE;
  *t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
  return *t > 0.0 && isfinite (*t);
}

gboolean
mshed_render_scene_dfm_ray_pick (MshedRenderScene *self,
                                 const float       origin[3],
                                 const float       dir[3],
                                 MshedSceneHit    *out)
{
  const double o[3] = { origin[0], origin[1], origin[2] };
  const double d[3] = { dir[0], dir[1], dir[2] };
  const float *pos;
  guint n_items, n_vertices;
  const MshedDrawItem *items;
  double best = G_MAXDOUBLE;

  memset (out, 0, sizeof *out);
  out->item = out->batch = out->triangle = G_MAXUINT;
  out->vertices[0] = out->vertices[1] = out->vertices[2] = G_MAXUINT;
  if (self->dfm == NULL)
    return FALSE;
  _mshed_render_scene_dfm_ensure_skinned (self);   /* after a pose change */
  pos = (const float *) self->dfm_pos->data;
  n_vertices = self->dfm_point->len;
  items = mshed_render_scene_get_items (self, &n_items);
  for (guint i = 0; i < n_items; i++)
    for (guint k = 0; k + 3 <= items[i].elem_count; k += 3)
      {
        const guint32 *e = &g_array_index (self->elements, guint32, items[i].elem_first + k);
        double t, u, v;

        if (e[0] >= n_vertices || e[1] >= n_vertices || e[2] >= n_vertices ||
            !ray_triangle (o, d, pos + 3 * (gsize) e[0], pos + 3 * (gsize) e[1],
                           pos + 3 * (gsize) e[2], &t, &u, &v) || t >= best)
          continue;
        best = t;
        out->item = i;
        out->batch = items[i].batch;
        out->triangle = g_array_index (self->tri_map, guint32, items[i].tri_first + k / 3);
        for (guint c = 0; c < 3; c++)
          out->vertices[c] = e[c];
        out->distance = (float) t;
        out->barycentric[0] = (float) (1.0 - u - v);
        out->barycentric[1] = (float) u;
        out->barycentric[2] = (float) v;
      }
  return out->item != G_MAXUINT;
}

gint
mshed_render_scene_dfm_strongest_bone (MshedRenderScene *self,
                                       const guint      *vertices,
                                       guint             n_vertices)
{
  g_autofree float *sum = NULL;
  guint n_bones;
  gint best = -1;

  if (self->dfm == NULL || (n_bones = mshed_dfm_get_n_bones (self->dfm)) == 0)
    return -1;
  sum = g_new0 (float, n_bones);
  for (guint i = 0; i < n_vertices; i++)
    {
      guint p = mshed_render_scene_get_vertex_point (self, vertices[i]);
      guint32 first, count;

      if (p == G_MAXUINT || !mshed_dfm_get_skin_range (self->dfm, self->lod, p, &first, &count))
        continue;
      for (guint32 k = 0; k < count; k++)
        {
          guint32 b;
          float w;

          if (mshed_dfm_get_influence (self->dfm, self->lod, first + k, &b, &w) &&
              b < n_bones && isfinite (w))
            sum[b] += w;
        }
    }
  for (guint b = 0; b < n_bones; b++)
    if (sum[b] > 0.0f && (best < 0 || sum[b] > sum[best]))
      best = (gint) b;
  return best;
}
