/* mshed-render-scene-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The render scene of a deformable model: one level's elements (docs/dfm.md §6.1) as
 * vertices, skinned by the scene's pose (§6.3, mshed-dfm-pose.h), and the triangles of every
 * face group unrolled from their strips or lists (§4, §5.1), one draw item per group. A
 * triangle with an element past the level's elements is skipped and counted.
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
  skin (self);

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
    skin (self);
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
