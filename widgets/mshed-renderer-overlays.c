/* mshed-renderer-overlays.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The line buffer, rebuilt each frame: the ground grid and axes, the drawn slots' boxes and
 * spheres (recomputed bounds, with the stored ones in red where they differ), the header's
 * hull points, sphere and capsule; and its draw call.
 */
#define G_LOG_DOMAIN "mshed-render"

#include "config.h"

#include <epoxy/gl.h>
#include <math.h>
#include <string.h>

#include "mshed-renderer.h"
#include "mshed-renderer-private.h"

/* Colours -------------------------------------------------------------------------------- */

static const float box_color[4] = { 0.20f, 0.75f, 1.0f, 1.0f };
static const float sphere_color[4] = { 0.55f, 0.55f, 1.0f, 1.0f };
static const float stale_color[4] = { 0.95f, 0.20f, 0.15f, 1.0f };
static const float hull_color[4] = { 1.0f, 0.85f, 0.10f, 1.0f };
static const float hsphere_color[4] = { 0.30f, 0.90f, 0.40f, 1.0f };
static const float capsule_color[4] = { 0.90f, 0.35f, 0.90f, 1.0f };

/* Lines ---------------------------------------------------------------------------------- */

static void
line (MshedRenderer *self,
      const float    a[3],
      const float    b[3],
      const float    color[4])
{
  LineVertex v[2];

  if (!isfinite (a[0]) || !isfinite (a[1]) || !isfinite (a[2]) ||
      !isfinite (b[0]) || !isfinite (b[1]) || !isfinite (b[2]))
    return;
  memcpy (v[0].p, a, sizeof v[0].p);
  memcpy (v[1].p, b, sizeof v[1].p);
  memcpy (v[0].c, color, sizeof v[0].c);
  memcpy (v[1].c, color, sizeof v[1].c);
  g_array_append_vals (self->lines, v, 2);
}

static void
transform_point (const float m[16],
                 const float p[3],
                 float       out[3])
{
  for (guint r = 0; r < 3; r++)
    out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

/* A circle around @c in the plane spanned by unit vectors @u and @v. */
static void
circle (MshedRenderer *self,
        const float    c[3],
        const float    u[3],
        const float    v[3],
        float          r,
        const float    color[4])
{
  const guint n = 48;
  float prev[3];

  if (!(r > 0.0f) || !isfinite (r))
    return;
  for (guint i = 0; i <= n; i++)
    {
      float a = 2.0f * (float) G_PI * i / n;
      float p[3];

      for (guint k = 0; k < 3; k++)
        p[k] = c[k] + r * (cosf (a) * u[k] + sinf (a) * v[k]);
      if (i > 0)
        line (self, prev, p, color);
      memcpy (prev, p, sizeof prev);
    }
}

static void
sphere (MshedRenderer *self,
        const float    c[3],
        float          r,
        const float    color[4])
{
  static const float ex[3] = { 1, 0, 0 }, ey[3] = { 0, 1, 0 }, ez[3] = { 0, 0, 1 };

  circle (self, c, ex, ey, r, color);
  circle (self, c, ey, ez, r, color);
  circle (self, c, ez, ex, r, color);
}

static void
box (MshedRenderer *self,
     const float    m[16],
     const float    min[3],
     const float    max[3],
     const float    color[4])
{
  float corners[8][3];

  for (guint i = 0; i < 8; i++)
    {
      float p[3] = { (i & 1) ? max[0] : min[0], (i & 2) ? max[1] : min[1],
                     (i & 4) ? max[2] : min[2] };

      transform_point (m, p, corners[i]);
    }
  for (guint i = 0; i < 8; i++)
    for (guint bit = 1; bit < 8; bit <<= 1)
      if (!(i & bit))
        line (self, corners[i], corners[i | bit], color);
}

static float
max_scale (const float m[16])
{
  float s = 0.0f;

  for (guint c = 0; c < 3; c++)
    s = MAX (s, sqrtf (m[4 * c] * m[4 * c] + m[4 * c + 1] * m[4 * c + 1] +
                       m[4 * c + 2] * m[4 * c + 2]));
  return s;
}

static void
cross_mark (MshedRenderer *self,
            const float    p[3],
            float          size,
            const float    color[4])
{
  for (guint k = 0; k < 3; k++)
    {
      float a[3], b[3];

      memcpy (a, p, sizeof a);
      memcpy (b, p, sizeof b);
      a[k] -= size;
      b[k] += size;
      line (self, a, b, color);
    }
}

static void
capsule (MshedRenderer *self,
         const float    cap[7],
         const float    color[4])
{
  const float *a = cap, *b = cap + 3;
  float r = cap[6];
  float axis[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  float len = sqrtf (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  float u[3], v[3];

  if (!(r >= 0.0f) || !isfinite (r) || !isfinite (len))
    return;
  if (len < 1e-6f)
    {
      sphere (self, a, r, color);
      return;
    }
  for (guint k = 0; k < 3; k++)
    axis[k] /= len;
  /* u: any unit vector perpendicular to the axis; v = axis x u */
  if (fabsf (axis[0]) < 0.9f)
    glm_vec3_cross (axis, (vec3) { 1, 0, 0 }, u);
  else
    glm_vec3_cross (axis, (vec3) { 0, 1, 0 }, u);
  glm_vec3_normalize (u);
  glm_vec3_cross (axis, u, v);
  line (self, a, b, color);
  circle (self, a, u, v, r, color);
  circle (self, b, u, v, r, color);
  circle (self, a, axis, u, r, color);
  circle (self, a, axis, v, r, color);
  circle (self, b, axis, u, r, color);
  circle (self, b, axis, v, r, color);
  for (guint i = 0; i < 4; i++)
    {
      const float *d = (i & 1) ? v : u;
      float s = (i & 2) ? -r : r;
      float p0[3], p1[3];

      for (guint k = 0; k < 3; k++)
        {
          p0[k] = a[k] + s * d[k];
          p1[k] = b[k] + s * d[k];
        }
      line (self, p0, p1, color);
    }
}

static gboolean
floats_differ (const float *a,
               const float *b,
               guint        n)
{
  for (guint i = 0; i < n; i++)
    {
      float tol = 1e-5f * MAX (1.0f, MAX (fabsf (a[i]), fabsf (b[i])));

      if (!(fabsf (a[i] - b[i]) <= tol))
        return TRUE;
    }
  return FALSE;
}

float
_mshed_renderer_luminance (const float c[4])
{
  return 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
}

static void
mix_color (const float a[4],
           const float b[4],
           float       t,
           float       out[4])
{
  for (guint k = 0; k < 3; k++)
    out[k] = a[k] + (b[k] - a[k]) * t;
  out[3] = 1.0f;
}

static float
nice_step (float extent)
{
  float p = powf (10.0f, floorf (log10f (MAX (extent, 1e-6f))));

  if (extent / p >= 5.0f)
    return p;
  if (extent / p >= 2.0f)
    return p / 2.0f;
  return p / 5.0f;
}

void
_mshed_renderer_build_grid (MshedRenderer *self)
{
  static const float black[4] = { 0, 0, 0, 1 }, white[4] = { 1, 1, 1, 1 };
  const float *contrast = _mshed_renderer_luminance (self->background) > 0.5f ? black : white;
  float minor[4], major[4];
  float extent = MAX (self->camera.scene_radius * 1.5f, 1e-3f);
  float step = nice_step (extent);
  int n = (int) ceilf (extent / step);
  gboolean z_up = self->camera.up == MSHED_UP_Z;

  n = MIN (n, 200);
  mix_color (self->background, contrast, 0.12f, minor);
  mix_color (self->background, contrast, 0.25f, major);
  if (self->overlays & MSHED_OVERLAY_GRID)
    for (int i = -n; i <= n; i++)
      {
        float a0[3] = { 0, 0, 0 }, a1[3] = { 0, 0, 0 }, b0[3] = { 0, 0, 0 }, b1[3] = { 0, 0, 0 };
        const float *c = (i % 5 == 0) ? major : minor;
        guint second = z_up ? 1 : 2;

        a0[0] = a1[0] = i * step;
        a0[second] = -n * step;
        a1[second] = n * step;
        b0[second] = b1[second] = i * step;
        b0[0] = -n * step;
        b1[0] = n * step;
        line (self, a0, a1, c);
        line (self, b0, b1, c);
      }
  if (self->overlays & MSHED_OVERLAY_AXES)
    {
      static const float o[3] = { 0, 0, 0 };
      static const float colors[3][4] = { { 0.90f, 0.25f, 0.25f, 1 }, { 0.30f, 0.85f, 0.30f, 1 },
                                          { 0.30f, 0.45f, 0.95f, 1 } };

      for (guint k = 0; k < 3; k++)
        {
          float e[3] = { 0, 0, 0 };

          e[k] = n * step * 0.5f;
          line (self, o, e, colors[k]);
        }
    }
}

void
_mshed_renderer_build_bounds (MshedRenderer *self)
{
  guint n_items;
  const MshedDrawItem *items = mshed_render_scene_get_items (self->scene, &n_items);
  MshedHeader header;
  guint prev_node = G_MAXUINT, prev_slot = G_MAXUINT;
  gboolean boxes = (self->overlays & MSHED_OVERLAY_SLOT_BOXES) != 0;
  gboolean spheres = (self->overlays & MSHED_OVERLAY_SLOT_SPHERES) != 0;

  if (boxes || spheres)
    for (guint i = 0; i < n_items; i++)
      {
        const MshedDrawItem *item = &items[i];
        const float *m;
        MshedSlot slot;
        const MshedSlotBounds *rec = NULL;
        gboolean selected;
        float c[3];

        if (item->slot == MSHED_NONE || !_mshed_renderer_item_visible (self, item) ||
            (item->node == prev_node && item->slot == prev_slot))
          continue;
        prev_node = item->node;
        prev_slot = item->slot;
        if (!mshed_model_get_slot (self->model, item->slot, &slot))
          continue;
        m = mshed_render_scene_get_world (self->scene, item->node);
        selected = mshed_renderer_is_selected (self, MSHED_SELECT_SLOT, item->slot) ||
                   mshed_renderer_is_selected (self, MSHED_SELECT_NODE, item->node);
        if (item->slot < self->n_recomputed && self->recomputed[item->slot].valid)
          rec = &self->recomputed[item->slot];

        if (boxes)
          {
            const float *col = selected ? _mshed_renderer_select_line : box_color;

            if (rec)
              {
                box (self, m, rec->aabb_min, rec->aabb_max, col);
                if (floats_differ (rec->aabb_min, slot.aabb_min, 3) ||
                    floats_differ (rec->aabb_max, slot.aabb_max, 3))
                  box (self, m, slot.aabb_min, slot.aabb_max, stale_color);
              }
            else
              box (self, m, slot.aabb_min, slot.aabb_max, col);
          }
        if (spheres)
          {
            const float *col = selected ? _mshed_renderer_select_line : sphere_color;
            float s = max_scale (m);

            if (rec)
              {
                transform_point (m, rec->sphere_center, c);
                sphere (self, c, rec->sphere_radius * s, col);
                if (floats_differ (rec->sphere_center, slot.sphere_center, 3) ||
                    floats_differ (&rec->sphere_radius, &slot.sphere_radius, 1))
                  {
                    transform_point (m, slot.sphere_center, c);
                    sphere (self, c, slot.sphere_radius * s, stale_color);
                  }
              }
            else
              {
                transform_point (m, slot.sphere_center, c);
                sphere (self, c, slot.sphere_radius * s, col);
              }
          }
      }

  if (!(self->overlays & (MSHED_OVERLAY_HULL | MSHED_OVERLAY_HEADER_SPHERE |
                          MSHED_OVERLAY_CAPSULE)) || self->model == NULL ||
      !mshed_model_get_header (self->model, &header))
    return;
  {
    const MshedHeader *rec = self->has_recomputed_header ? &self->recomputed_header : NULL;
    const MshedHeader *shown = rec ? rec : &header;
    float mark = MAX (self->camera.scene_radius * 0.03f, 1e-4f);

    if (self->overlays & MSHED_OVERLAY_HULL)
      {
        /* The point order is undocumented (docs/msh.md §12.3): points only, no edges. */
        for (guint i = 0; i < 8; i++)
          cross_mark (self, shown->hull[i], mark, hull_color);
        if (rec)
          for (guint i = 0; i < 8; i++)
            if (floats_differ (rec->hull[i], header.hull[i], 3))
              cross_mark (self, header.hull[i], mark, stale_color);
      }
    if (self->overlays & MSHED_OVERLAY_HEADER_SPHERE)
      {
        sphere (self, shown->sphere, shown->sphere[3], hsphere_color);
        if (rec && floats_differ (rec->sphere, header.sphere, 4))
          sphere (self, header.sphere, header.sphere[3], stale_color);
      }
    if (self->overlays & MSHED_OVERLAY_CAPSULE)
      {
        capsule (self, shown->capsule, capsule_color);
        if (rec && floats_differ (rec->capsule, header.capsule, 7))
          capsule (self, header.capsule, stale_color);
      }
  }
}

void
_mshed_renderer_draw_lines (MshedRenderer *self,
                            const mat4     vp)
{
  if (self->lines->len == 0)
    return;
  glUseProgram (self->lineprog.program);
  glUniformMatrix4fv (self->lineprog.u_vp, 1, GL_FALSE, (const float *) vp);
  glBindVertexArray (self->line_vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->line_vbo);
  glBufferData (GL_ARRAY_BUFFER, self->lines->len * sizeof (LineVertex), self->lines->data,
                GL_STREAM_DRAW);
  glDrawArrays (GL_LINES, 0, (GLsizei) self->lines->len);
  self->stats.n_draw_calls++;
  glBindBuffer (GL_ARRAY_BUFFER, 0);
  glBindVertexArray (0);
}

/* DFM skeleton and hardpoints -------------------------------------------------------------- */

static const float bone_color[4] = { 1.0f, 0.80f, 0.20f, 1.0f };
static const float axis_colors[3][4] = {
  { 0.95f, 0.25f, 0.25f, 1.0f }, { 0.30f, 0.90f, 0.30f, 1.0f }, { 0.30f, 0.50f, 1.0f, 1.0f },
};

/* the 3×4 pose transform (rows, translation) as a column-major 4×4 */
static void
affine_to_mat4 (const float a[12],
                float       m[16])
{
  for (guint r = 0; r < 3; r++)
    {
      for (guint c = 0; c < 3; c++)
        m[4 * c + r] = a[3 * r + c];
      m[12 + r] = a[9 + r];
      m[4 * r + 3] = 0.0f;
    }
  m[15] = 1.0f;
}

void
_mshed_renderer_build_skeleton (MshedRenderer *self)
{
  MshedDfmPose *pose;
  guint n_bones;
  float mark = MAX (self->camera.scene_radius * 0.02f, 1e-4f);
  float axis_len = MAX (self->camera.scene_radius * 0.06f, 1e-4f);

  if (self->dfm == NULL || self->scene == NULL ||
      !(self->overlays & (MSHED_OVERLAY_SKELETON | MSHED_OVERLAY_HARDPOINTS)))
    return;
  pose = mshed_render_scene_get_dfm_pose (self->scene);
  n_bones = mshed_dfm_pose_get_n_bones (pose);
  for (guint b = 0; b < n_bones; b++)
    {
      float w[16];
      const float *origin = mshed_dfm_pose_get_world (pose, b) + 9;
      gboolean selected = self->weight_bone >= 0 && (guint) self->weight_bone == b;
      const float *col = selected ? _mshed_renderer_select_line : bone_color;
      MshedDfmBone bone;

      if (!mshed_dfm_get_bone (self->dfm, b, &bone))
        continue;
      if (self->overlays & MSHED_OVERLAY_SKELETON)
        {
          if (bone.parent >= 0 && (guint) bone.parent < n_bones)
            {
              float from[3];

              memcpy (from, mshed_dfm_pose_get_world (pose, (guint) bone.parent) + 9, sizeof from);
              line (self, from, origin, col);
            }
          cross_mark (self, origin, mark, col);
        }
      if (!(self->overlays & MSHED_OVERLAY_HARDPOINTS))
        continue;
      affine_to_mat4 (mshed_dfm_pose_get_world (pose, b), w);
      for (guint h = 0; h < bone.n_hardpoints; h++)
        {
          MshedDfmHardpoint hp;
          float o[3], tip[3];

          if (!mshed_dfm_get_hardpoint (self->dfm, b, h, &hp))
            continue;
          transform_point (w, hp.position, o);
          for (guint k = 0; k < 3; k++)
            {
              /* the k-th column of the orientation is the hardpoint's k-th axis */
              float p[3] = { hp.position[0] + axis_len * hp.orientation[k],
                             hp.position[1] + axis_len * hp.orientation[3 + k],
                             hp.position[2] + axis_len * hp.orientation[6 + k] };

              transform_point (w, p, tip);
              line (self, o, tip, axis_colors[k]);
            }
        }
    }
}
