/* test-render-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Deformable models drawn skinned (docs/dfm.md §6.3): the render scene of generated heads and
 * bodies without GL (vertices are the level's elements at their stored points in the bind
 * pose, one draw item per face group), then offscreen renders checked against an independent
 * pinhole projection of the model's points: the bind pose lights pixels where the model is;
 * turning one joint changes only pixels where the triangles it moves were or are now; the
 * GPU-skinned picture equals the CPU-skinned one; and `mshed-cli render` of DFMs with
 * --level, --joint and --skeleton.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "mshed-dfm-generator.h"
#include "mshed-dfm-pose.h"
#include "mshed-offscreen.h"
#include "mshed-render-scene.h"
#include "mshed-renderer.h"
#include "test-require.h"

#define W 200
#define H 200

static MshedOffscreen *offscreen;
static char *offscreen_error;

static MshedDfm *
generate (MshedDfmGenKind kind,
          guint64         seed)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm;

  mshed_dfm_gen_params_init (&params, kind, seed);
  bytes = mshed_dfm_generate_bytes (&params);
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  return dfm;
}

/* Scene (no GL) ------------------------------------------------------------------------- */

static void
test_scene (void)
{
  g_autoptr(MshedDfm) dfm = generate (MSHED_DFM_GEN_HEAD, 5);
  MshedRenderScene *scene = mshed_render_scene_new_for_dfm (dfm);
  MshedDfmLevel level;
  guint n_items, n_elem;
  const MshedDrawItem *items;
  gsize want_tris = 0;

  g_assert_null (mshed_render_scene_get_model (scene));
  g_assert_true (mshed_render_scene_get_dfm (scene) == dfm);
  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  g_assert_cmpuint (mshed_render_scene_get_n_vertices (scene), ==, level.n_elements);
  /* every vertex: its element's point, where it is stored (bind pose) */
  for (guint e = 0; e < level.n_elements; e++)
    {
      MshedDfmElement el;
      float p[3], n[3], uv[2];

      g_assert_true (mshed_dfm_get_element (dfm, 0, e, &el));
      g_assert_cmpuint (mshed_render_scene_get_vertex_point (scene, e), ==, el.point);
      mshed_render_scene_read_vertices (scene, e, 1, p, n, uv);
      for (guint k = 0; k < 3; k++)
        g_assert_cmpfloat_with_epsilon (p[k], el.position[k], 1e-5);
      g_assert_cmpfloat (uv[0], ==, el.uv0[0]);
      g_assert_cmpfloat (uv[1], ==, el.uv0[1]);
    }
  /* one item per face group, with all its triangles */
  items = mshed_render_scene_get_items (scene, &n_items);
  g_assert_cmpuint (n_items, ==, level.n_groups);
  for (guint g = 0; g < level.n_groups; g++)
    {
      gsize n = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, 0, g, &n);

      g_assert_cmpuint (items[g].batch, ==, g);
      g_assert_cmpuint (items[g].node, ==, MSHED_NONE);
      g_assert_cmpuint (items[g].elem_count, ==, 3 * n);
      want_tris += n;
    }
  mshed_render_scene_get_elements (scene, &n_elem);
  g_assert_cmpuint (n_elem, ==, 3 * want_tris);

  /* another level */
  mshed_render_scene_set_view (scene, 3, 0);
  g_assert_cmpuint (mshed_render_scene_get_lod (scene), ==, 3);
  g_assert_true (mshed_dfm_get_level (dfm, 3, &level));
  g_assert_cmpuint (mshed_render_scene_get_n_vertices (scene), ==, level.n_elements);
  mshed_render_scene_set_view (scene, 99, 0);
  g_assert_cmpuint (mshed_render_scene_get_lod (scene), ==, mshed_dfm_get_n_levels (dfm) - 1);

  /* a pose survives a re-read; a vertex with weight on the turned bone moves */
  {
    MshedDfmPose *pose;
    guint v = G_MAXUINT, j;
    float before[3], after[3], nrm[3];

    mshed_render_scene_set_view (scene, 0, 0);
    pose = mshed_render_scene_get_dfm_pose (scene);
    for (j = 0; j < mshed_dfm_pose_get_n_joints (pose) && v == G_MAXUINT; j++)
      for (guint i = 0; i < mshed_render_scene_get_n_vertices (scene) && v == G_MAXUINT; i++)
        if (mshed_render_scene_get_bone_weight (scene, i,
                                                mshed_dfm_pose_get_joint (pose, j)->bone) > 0.9f)
          v = i;
    g_assert_cmpuint (v, !=, G_MAXUINT);
    j--;
    mshed_render_scene_read_vertices (scene, v, 1, before, nrm, NULL);
    mshed_dfm_pose_set_value (pose, j, 0, 1.0f);
    mshed_render_scene_pose_changed (scene);
    mshed_render_scene_read_vertices (scene, v, 1, after, nrm, NULL);
    g_assert_cmpfloat (fabsf (after[0] - before[0]) + fabsf (after[1] - before[1]) +
                       fabsf (after[2] - before[2]), >, 1e-4);
    mshed_render_scene_topology_changed (scene);
    g_assert_cmpfloat (mshed_dfm_pose_get_value (mshed_render_scene_get_dfm_pose (scene), j, 0),
                       ==, 1.0f);
  }
  mshed_render_scene_free (scene);
}

/* Shoots a ray at the centre of every 23rd triangle from just above (and just below) it along
 * its face normal: the pick is that triangle, at that distance, with equal barycentrics; the
 * bone is the one with the largest summed weight over its corners. */
static void
check_ray_picks (MshedDfm         *dfm,
                 MshedRenderScene *scene)
{
  guint n_items, n_elements, n_tris, checked = 0;
  const MshedDrawItem *items = mshed_render_scene_get_items (scene, &n_items);
  const guint32 *elements = mshed_render_scene_get_elements (scene, &n_elements);
  const guint32 *tri_map = mshed_render_scene_get_tri_map (scene, &n_tris);

  for (guint i = 0; i < n_items; i++)
    for (guint t = 0; t < items[i].elem_count / 3; t += 23)
      {
        const guint32 *e = elements + items[i].elem_first + 3 * t;
        float p[3][3], u[3], w[3], c[3], n[3], o[3], d[3], len, eps, best = -1.0f;
        gint bone = -1;
        MshedSceneHit hit;

        for (guint k = 0; k < 3; k++)
          mshed_render_scene_read_vertices (scene, e[k], 1, p[k], NULL, NULL);
        for (guint k = 0; k < 3; k++)
          c[k] = (p[0][k] + p[1][k] + p[2][k]) / 3.0f;
        for (guint k = 0; k < 3; k++)
          {
            u[k] = p[1][k] - p[0][k];
            w[k] = p[2][k] - p[0][k];
          }
        n[0] = u[1] * w[2] - u[2] * w[1];
        n[1] = u[2] * w[0] - u[0] * w[2];
        n[2] = u[0] * w[1] - u[1] * w[0];
        len = sqrtf (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len < 1e-8f)
          continue;   /* no area: no normal to aim along */
        eps = 1e-4f;
        for (int side = -1; side <= 1; side += 2)
          {
            for (guint k = 0; k < 3; k++)
              {
                o[k] = c[k] + side * eps * n[k] / len;
                d[k] = -side * n[k] / len;
              }
            g_assert_true (mshed_render_scene_dfm_ray_pick (scene, o, d, &hit));
            g_assert_cmpuint (hit.item, ==, i);
            g_assert_cmpuint (hit.batch, ==, items[i].batch);
            g_assert_cmpuint (hit.triangle, ==, tri_map[items[i].tri_first + t]);
            for (guint k = 0; k < 3; k++)
              {
                g_assert_cmpuint (hit.vertices[k], ==, e[k]);
                g_assert_cmpfloat_with_epsilon (hit.barycentric[k], 1.0f / 3.0f, 1e-3);
              }
            g_assert_cmpfloat_with_epsilon (hit.distance, eps, 1e-5);
          }
        for (guint b = 0; b < mshed_dfm_get_n_bones (dfm); b++)
          {
            float sum = 0.0f;

            for (guint k = 0; k < 3; k++)
              sum += mshed_render_scene_get_bone_weight (scene, e[k], b);
            if (sum > best + 1e-6f)
              best = sum, bone = (gint) b;
          }
        g_assert_cmpint (mshed_render_scene_dfm_strongest_bone (scene, e, 3), ==, bone);
        checked++;
      }
  g_assert_cmpuint (checked, >, 10);
}

/* Picking by ray on the skinned positions, in the bind pose and posed; a ray that misses the
 * model hits nothing. */
static void
test_scene_ray_pick (void)
{
  g_autoptr(MshedDfm) dfm = generate (MSHED_DFM_GEN_BODY, 4);
  MshedRenderScene *scene = mshed_render_scene_new_for_dfm (dfm);
  MshedDfmPose *pose = mshed_render_scene_get_dfm_pose (scene);
  const float far[3] = { 1e4f, 1e4f, 1e4f }, away[3] = { 1.0f, 0.0f, 0.0f };
  MshedSceneHit hit;

  check_ray_picks (dfm, scene);
  g_assert_false (mshed_render_scene_dfm_ray_pick (scene, far, away, &hit));
  g_assert_cmpuint (hit.item, ==, G_MAXUINT);
  for (guint j = 0; j < mshed_dfm_pose_get_n_joints (pose); j++)
    if (mshed_dfm_pose_get_joint (pose, j)->n_dof > 0)
      mshed_dfm_pose_set_value (pose, j, 0, 0.5f);
  mshed_render_scene_pose_changed (scene);
  check_ray_picks (dfm, scene);
  mshed_render_scene_free (scene);
}

/* GL ------------------------------------------------------------------------------------ */

static gboolean
need_gl (void)
{
  if (offscreen == NULL)
    {
      mshed_test_skip (offscreen_error);
      return FALSE;
    }
  g_assert_true (mshed_offscreen_make_current (offscreen));
  return TRUE;
}

typedef struct {
  float target[3];
  float distance;
} View;

/* the model's stored points of level 0: centre and radius */
static void
view_for (MshedDfm *dfm,
          View     *view,
          float    *radius)
{
  float min[3] = { G_MAXFLOAT, G_MAXFLOAT, G_MAXFLOAT }, max[3] = { -G_MAXFLOAT, -G_MAXFLOAT,
                                                                     -G_MAXFLOAT };
  MshedDfmLevel level;

  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  for (guint p = 0; p < level.n_points; p++)
    {
      float pos[3], n[3];

      g_assert_true (mshed_dfm_get_point (dfm, 0, p, pos, n));
      for (guint k = 0; k < 3; k++)
        min[k] = MIN (min[k], pos[k]), max[k] = MAX (max[k], pos[k]);
    }
  *radius = 0.0f;
  for (guint k = 0; k < 3; k++)
    {
      view->target[k] = 0.5f * (min[k] + max[k]);
      *radius = MAX (*radius, 0.5f * (max[k] - min[k]));
    }
  *radius *= sqrtf (3.0f);
  view->distance = 4.0f * *radius;
}

/* Looking along +y at the target from @distance, 40° vertical field of view: screen right
 * = +x, up = +z. A pinhole worked out here, not by the renderer. */
static void
to_pixel (const View  *view,
          const float  p[3],
          float       *px,
          float       *py)
{
  float f = (H / 2.0f) / tanf (glm_rad (20.0f));
  float depth = view->distance + (p[1] - view->target[1]);

  *px = W / 2.0f + (p[0] - view->target[0]) * f / depth;
  *py = H / 2.0f - (p[2] - view->target[2]) * f / depth;
}

static MshedRenderer *
new_renderer (MshedDfm   *dfm,
              const View *view,
              float       radius)
{
  static const float black[4] = { 0, 0, 0, 1 };
  g_autoptr(GError) error = NULL;
  MshedRenderer *r = mshed_renderer_new ();
  MshedCamera *cam;

  g_assert_true (mshed_renderer_realize (r, &error));
  g_assert_no_error (error);
  mshed_renderer_set_background (r, black);
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED);
  mshed_renderer_set_dfm (r, dfm);
  cam = mshed_renderer_get_camera (r);
  memcpy (cam->target, view->target, sizeof cam->target);
  cam->distance = view->distance;
  cam->yaw = -(float) G_PI / 2.0f;
  cam->pitch = 0.0f;
  cam->fov_y = glm_rad (40.0f);
  cam->scene_radius = radius;
  cam->up = MSHED_UP_Z;
  return r;
}

static void
free_renderer (MshedRenderer *r)
{
  MshedRenderStats stats;

  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.n_gl_errors, ==, 0);
  mshed_renderer_unrealize (r);
  mshed_renderer_free (r);
}

static guint8 *
render (MshedRenderer *r)
{
  mshed_offscreen_bind (offscreen);
  mshed_renderer_draw (r, W, H);
  return mshed_offscreen_read_rgba (offscreen);
}

static gboolean
lit_at (const guint8 *pixels,
        int           x,
        int           y)
{
  const guint8 *p = pixels + 4 * ((gsize) y * W + x);

  return MAX (p[0], MAX (p[1], p[2])) > 24;
}

typedef struct {
  float x0, y0, x1, y1;
} Box;

static void
box_add (Box         *box,
         const View  *view,
         const float  p[3])
{
  float x, y;

  to_pixel (view, p, &x, &y);
  box->x0 = MIN (box->x0, x);
  box->y0 = MIN (box->y0, y);
  box->x1 = MAX (box->x1, x);
  box->y1 = MAX (box->y1, y);
}

static gboolean
box_has (const Box *box,
         int        x,
         int        y,
         float      margin)
{
  return x + 0.5f >= box->x0 - margin && x + 0.5f <= box->x1 + margin &&
         y + 0.5f >= box->y0 - margin && y + 0.5f <= box->y1 + margin;
}

/* The bind pose: every lit pixel inside the projected box of the drawn vertices (1 pixel of
 * margin), and the box well covered. */
static void
check_bind (MshedDfmGenKind kind)
{
  g_autoptr(MshedDfm) dfm = generate (kind, 11);
  g_autofree guint8 *pixels = NULL;
  MshedRenderer *r;
  MshedRenderScene *scene;
  Box box = { G_MAXFLOAT, G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  View view;
  float radius;
  guint lit = 0, outside = 0, inside_total = 0;

  view_for (dfm, &view, &radius);
  r = new_renderer (dfm, &view, radius);
  scene = mshed_renderer_get_scene (r);
  {
    guint n_elem;
    const guint32 *elem = mshed_render_scene_get_elements (scene, &n_elem);

    for (guint i = 0; i < n_elem; i++)
      {
        float p[3];

        mshed_render_scene_read_vertices (scene, elem[i], 1, p, NULL, NULL);
        box_add (&box, &view, p);
      }
  }
  pixels = render (r);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        gboolean l = lit_at (pixels, x, y);

        lit += l;
        if (l && !box_has (&box, x, y, 1.0f))
          outside++;
        if (box_has (&box, x, y, 0.0f))
          inside_total++;
      }
  g_test_message ("lit %u of a box of %u pixels, %u outside", lit, inside_total, outside);
  g_assert_cmpuint (outside, ==, 0);
  g_assert_cmpuint (lit, >, inside_total / 5);
  g_assert_cmpfloat (box.x1 - box.x0, >, 20.0f);
  free_renderer (r);
}

static void
test_gl_bind_head (void)
{
  if (need_gl ())
    check_bind (MSHED_DFM_GEN_HEAD);
}

static void
test_gl_bind_body (void)
{
  if (need_gl ())
    check_bind (MSHED_DFM_GEN_BODY);
}

/* Turning one joint: the pixels that change all lie where a triangle with a moved vertex is
 * in the bind pose or in the new one (2 pixels of margin); some do change. */
static void
test_gl_pose_local (void)
{
  g_autoptr(MshedDfm) dfm = generate (MSHED_DFM_GEN_BODY, 11);
  g_autofree guint8 *bind = NULL;
  g_autofree guint8 *posed = NULL;
  g_autofree float *before = NULL, *after = NULL;
  MshedRenderer *r;
  MshedRenderScene *scene;
  MshedDfmPose *pose;
  Box box = { G_MAXFLOAT, G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  View view;
  float radius;
  guint n_v, n_elem, changed = 0, stray = 0, chosen = G_MAXUINT, moved_tris = 0;
  const guint32 *elem;

  if (!need_gl ())
    return;
  view_for (dfm, &view, &radius);
  r = new_renderer (dfm, &view, radius);
  scene = mshed_renderer_get_scene (r);
  pose = mshed_render_scene_get_dfm_pose (scene);
  n_v = mshed_render_scene_get_n_vertices (scene);
  elem = mshed_render_scene_get_elements (scene, &n_elem);
  before = g_new (float, 3 * (gsize) n_v);
  after = g_new (float, 3 * (gsize) n_v);
  mshed_render_scene_read_vertices (scene, 0, n_v, before, NULL, NULL);
  bind = render (r);

  /* a joint that moves some triangles but fewer than half */
  for (guint j = 0; j < mshed_dfm_pose_get_n_joints (pose) && chosen == G_MAXUINT; j++)
    {
      moved_tris = 0;
      mshed_dfm_pose_reset (pose);
      mshed_dfm_pose_set_value (pose, j, 0, 0.8f);
      mshed_render_scene_pose_changed (scene);
      mshed_render_scene_read_vertices (scene, 0, n_v, after, NULL, NULL);
      for (guint t = 0; t < n_elem; t += 3)
        for (guint k = 0; k < 3; k++)
          {
            const float *a = before + 3 * (gsize) elem[t + k], *b = after + 3 * (gsize) elem[t + k];

            if (fabsf (a[0] - b[0]) + fabsf (a[1] - b[1]) + fabsf (a[2] - b[2]) > 1e-6f)
              {
                moved_tris++;
                break;
              }
          }
      if (moved_tris > 10 && moved_tris < n_elem / 6)
        chosen = j;
    }
  g_assert_cmpuint (chosen, !=, G_MAXUINT);
  g_test_message ("joint %s moves %u of %u triangles",
                  mshed_dfm_pose_get_joint (pose, chosen)->name, moved_tris, n_elem / 3);
  for (guint t = 0; t < n_elem; t += 3)
    {
      gboolean moved = FALSE;

      for (guint k = 0; k < 3; k++)
        {
          const float *a = before + 3 * (gsize) elem[t + k], *b = after + 3 * (gsize) elem[t + k];

          moved |= fabsf (a[0] - b[0]) + fabsf (a[1] - b[1]) + fabsf (a[2] - b[2]) > 1e-6f;
        }
      if (moved)
        for (guint k = 0; k < 3; k++)
          {
            box_add (&box, &view, before + 3 * (gsize) elem[t + k]);
            box_add (&box, &view, after + 3 * (gsize) elem[t + k]);
          }
    }
  mshed_renderer_pose_changed (r);
  posed = render (r);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        const guint8 *a = bind + 4 * ((gsize) y * W + x), *b = posed + 4 * ((gsize) y * W + x);

        if (memcmp (a, b, 4) == 0)
          continue;
        changed++;
        if (!box_has (&box, x, y, 2.0f))
          stray++;
      }
  g_test_message ("%u pixels changed, %u outside the moved triangles", changed, stray);
  g_assert_cmpuint (changed, >, 20);
  g_assert_cmpuint (stray, ==, 0);

  /* back to the bind pose: the same image */
  mshed_dfm_pose_reset (pose);
  mshed_renderer_pose_changed (r);
  g_free (posed);
  posed = render (r);
  g_assert_cmpmem (posed, 4 * W * H, bind, 4 * W * H);
  free_renderer (r);
}

/* The skeleton and the weight heat map draw; the heat map colours by weight. */
static void
test_gl_overlays (void)
{
  g_autoptr(MshedDfm) dfm = generate (MSHED_DFM_GEN_HEAD, 11);
  g_autofree guint8 *plain = NULL, *skel = NULL, *heat = NULL;
  MshedRenderer *r;
  View view;
  float radius;
  guint diff = 0, red = 0;

  if (!need_gl ())
    return;
  view_for (dfm, &view, &radius);
  r = new_renderer (dfm, &view, radius);
  plain = render (r);
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED | MSHED_OVERLAY_SKELETON |
                                  MSHED_OVERLAY_HARDPOINTS);
  skel = render (r);
  for (gsize i = 0; i < 4 * (gsize) W * H; i += 4)
    diff += memcmp (plain + i, skel + i, 4) != 0;
  g_assert_cmpuint (diff, >, 50);

  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED);
  /* the bone that carries the most weight */
  {
    MshedRenderScene *scene = mshed_renderer_get_scene (r);
    float best_sum = 0.0f;
    gint best = -1;

    for (guint bone = 0; bone < mshed_dfm_get_n_bones (dfm); bone++)
      {
        float sum = 0.0f;

        for (guint v = 0; v < mshed_render_scene_get_n_vertices (scene); v++)
          sum += mshed_render_scene_get_bone_weight (scene, v, bone);
        if (sum > best_sum)
          best_sum = sum, best = (gint) bone;
      }
    mshed_renderer_set_weight_bone (r, best);
  }
  heat = render (r);
  for (gsize i = 0; i < 4 * (gsize) W * H; i += 4)
    red += heat[i] > 2 * heat[i + 2] && heat[i] > 60;   /* weight near 1: red */
  g_assert_cmpuint (red, >, 10);
  free_renderer (r);
}

/* GPU skinning draws what the CPU reference skins: a body posed at several joints, drawn
 * skinned in the vertex shader and from the CPU-skinned positions, shaded, with the
 * wireframe and normals, and as a heat map; the pictures differ in at most 0.5% of the pixels
 * and only next to where the CPU picture changes colour (an edge), where a rounding of the
 * last bit moves a triangle's edge across a pixel centre (here, llvmpipe: none differ). Picking
 * finds the same triangles. A joint move uploads only the matrices on the GPU, every skinned
 * vertex on the CPU. */
static guint
count_diff (const guint8 *a,
            const guint8 *b,
            guint        *off_edge)
{
  guint n = 0;

  *off_edge = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        const guint8 *pa = a + 4 * ((gsize) y * W + x);
        gboolean edge = FALSE;

        if (memcmp (pa, b + 4 * ((gsize) y * W + x), 4) == 0)
          continue;
        n++;
        /* an edge: a neighbour of the reference pixel has another colour */
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++)
            {
              int nx = CLAMP (x + dx, 0, W - 1), ny = CLAMP (y + dy, 0, H - 1);

              edge |= memcmp (pa, a + 4 * ((gsize) ny * W + nx), 4) != 0;
            }
        *off_edge += !edge;
      }
  return n;
}

static void
test_gl_gpu_equals_cpu (void)
{
  g_autoptr(MshedDfm) dfm = generate (MSHED_DFM_GEN_BODY, 11);
  static const MshedOverlays looks[] = {
    MSHED_OVERLAY_SHADED,
    MSHED_OVERLAY_SHADED | MSHED_OVERLAY_WIREFRAME | MSHED_OVERLAY_NORMALS,
    MSHED_OVERLAY_SHADED,   /* with the heat map */
  };
  MshedRenderer *r;
  MshedRenderScene *scene;
  MshedDfmPose *pose;
  MshedRenderStats stats;
  View view;
  float radius;
  guint n_v, n_mat;

  if (!need_gl ())
    return;
  view_for (dfm, &view, &radius);
  r = new_renderer (dfm, &view, radius);
  scene = mshed_renderer_get_scene (r);
  pose = mshed_render_scene_get_dfm_pose (scene);
  n_v = mshed_render_scene_get_n_vertices (scene);
  n_mat = mshed_render_scene_get_n_skin_matrices (scene);
  g_assert_cmpuint (n_mat, ==, mshed_dfm_get_n_bones (dfm) + 1);
  g_free (render (r));
  g_assert_true (mshed_renderer_skins_on_gpu (r));

  /* every third joint turned, by different amounts */
  for (guint j = 0; j < mshed_dfm_pose_get_n_joints (pose); j += 3)
    mshed_dfm_pose_set_value (pose, j, 0, 0.3f + 0.1f * (float) (j % 5));
  mshed_renderer_pose_changed (r);
  mshed_renderer_prepare (r);
  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.upload_bytes, ==, 48 * (gsize) n_mat);

  for (guint i = 0; i < G_N_ELEMENTS (looks); i++)
    {
      g_autofree guint8 *gpu = NULL, *cpu = NULL;
      guint n, off_edge;

      mshed_renderer_set_overlays (r, looks[i]);
      mshed_renderer_set_weight_bone (r, i == 2 ? 1 : -1);
      mshed_renderer_set_gpu_skinning (r, TRUE);
      gpu = render (r);
      g_assert_true (mshed_renderer_skins_on_gpu (r));
      mshed_renderer_set_gpu_skinning (r, FALSE);
      cpu = render (r);
      g_assert_false (mshed_renderer_skins_on_gpu (r));
      n = count_diff (cpu, gpu, &off_edge);
      g_test_message ("look %u: %u of %u pixels differ, %u off an edge", i, n, W * H, off_edge);
      g_assert_cmpuint (n, <=, W * H / 200);
      g_assert_cmpuint (off_edge, ==, 0);
    }

  /* picking sees the same skinned triangles: a grid of pixels picked both ways */
  {
    MshedPick picks[2][(W / 8) * (H / 8)];
    guint hits = 0;

    mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED);
    for (guint gpu = 0; gpu < 2; gpu++)
      {
        guint i = 0;

        mshed_renderer_set_gpu_skinning (r, gpu);
        for (int y = 4; y < H; y += 8)
          for (int x = 4; x < W; x += 8)
            {
              mshed_offscreen_bind (offscreen);
              mshed_renderer_pick (r, W, H, x, y, &picks[gpu][i++]);
            }
        g_assert_true (mshed_renderer_skins_on_gpu (r) == (gboolean) gpu);
      }
    for (guint i = 0; i < G_N_ELEMENTS (picks[0]); i++)
      {
        g_assert_cmpint (picks[0][i].hit, ==, picks[1][i].hit);
        g_assert_cmpuint (picks[0][i].item, ==, picks[1][i].item);
        g_assert_cmpuint (picks[0][i].triangle, ==, picks[1][i].triangle);
        hits += picks[0][i].hit;
      }
    g_test_message ("%u of %u picks hit", hits, (guint) G_N_ELEMENTS (picks[0]));
    g_assert_cmpuint (hits, >, 20);
  }

  /* on the CPU a joint move uploads every vertex again: 12 + 12 + 8 bytes each */
  mshed_renderer_set_gpu_skinning (r, FALSE);
  mshed_renderer_prepare (r);
  mshed_dfm_pose_set_value (pose, 0, 0, 0.1f);
  mshed_renderer_pose_changed (r);
  mshed_renderer_prepare (r);
  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.upload_bytes, ==, 32 * (gsize) n_v);
  free_renderer (r);
}

/* mshed-cli render FILE.dfm ------------------------------------------------------------- */

static gboolean
run_cli (const char * const *args,
         int                 *status)
{
  const char *cli = g_getenv ("MSHED_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, &err, status, &error));
  g_assert_no_error (error);
  if (err && *err)
    g_test_message ("mshed-cli: %s", err);
  return g_spawn_check_wait_status (*status, NULL);
}

static guint8 *
load_alpha (const char *png,
            guint      *n_opaque)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new_from_file (png, &error);
  const guint8 *px;
  guint8 *alpha;
  int stride;

  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, W);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, H);
  stride = gdk_pixbuf_get_rowstride (pixbuf);
  px = gdk_pixbuf_read_pixels (pixbuf);
  alpha = g_malloc (W * H);
  *n_opaque = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        alpha[y * W + x] = px[y * stride + 4 * x + 3];
        *n_opaque += alpha[y * W + x] > 0;
      }
  return alpha;
}

static void
test_cli (void)
{
  const char *cli = g_getenv ("MSHED_CLI");
  g_autofree char *dir = NULL, *head = NULL, *body = NULL, *png = NULL, *png2 = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  g_autofree guint8 *a = NULL, *b = NULL;
  g_autofree char *joint = NULL;
  guint n_a, n_b, diff = 0;
  int status;
  const char *common[] = { "--size", "200x200", "--samples", "0", "--yaw", "-90", "--pitch",
                           "0" };

  if (!need_gl ())
    return;
  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      mshed_test_skip ("MSHED_CLI does not name mshed-cli (run the test through meson test)");
      return;
    }
  dir = g_dir_make_tmp ("mshed-render-dfm-XXXXXX", &error);
  g_assert_no_error (error);
  head = g_build_filename (dir, "head.dfm", NULL);
  body = g_build_filename (dir, "body.dfm", NULL);
  png = g_build_filename (dir, "a.png", NULL);
  png2 = g_build_filename (dir, "b.png", NULL);
  g_assert_true (run_cli ((const char *[]) { "generate", "--dfm", "head", "-q", "-o", head,
                                             NULL }, &status));
  g_assert_true (run_cli ((const char *[]) { "generate", "--dfm", "body", "-q", "-o", body,
                                             NULL }, &status));

  /* a head and a body draw, framed in the middle of the image */
  for (guint k = 0; k < 2; k++)
    {
      g_autofree guint8 *alpha = NULL;

      g_assert_true (run_cli ((const char *[]) { "render", k ? body : head, "-o", png,
                                                 common[0], common[1], common[2], common[3],
                                                 common[4], common[5], common[6], common[7],
                                                 NULL }, &status));
      alpha = load_alpha (png, &n_a);
      g_assert_cmpuint (n_a, >, W * H / 20);
      {
        int x0 = W, y0 = H, x1 = -1, y1 = -1;

        for (int y = 0; y < H; y++)
          for (int x = 0; x < W; x++)
            if (alpha[y * W + x] > 0)
              x0 = MIN (x0, x), y0 = MIN (y0, y), x1 = MAX (x1, x), y1 = MAX (y1, y);
        /* frame-all centres the model's bounds */
        g_assert_cmpint (ABS ((x0 + x1) / 2 - W / 2), <=, 20);
        g_assert_cmpint (ABS ((y0 + y1) / 2 - H / 2), <=, 20);
      }
    }

  /* --joint turns the body's first joint: the image changes; a joint that does not exist,
   * a level past the last and a joint on an MSH are usage errors */
  {
    g_autoptr(GBytes) bytes = NULL;
    g_autofree char *data = NULL;
    gsize len;
    MshedDfmPose *pose;

    g_assert_true (g_file_get_contents (body, &data, &len, NULL));
    bytes = g_bytes_new_take (g_steal_pointer (&data), len);
    dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
    pose = mshed_dfm_pose_new (dfm);
    joint = g_strdup_printf ("%s=40", mshed_dfm_pose_get_joint (pose, 0)->name);
    mshed_dfm_pose_free (pose);
  }
  g_assert_true (run_cli ((const char *[]) { "render", body, "-o", png, common[0], common[1],
                                             common[2], common[3], common[4], common[5],
                                             common[6], common[7], NULL }, &status));
  g_assert_true (run_cli ((const char *[]) { "render", body, "-o", png2, "--joint", joint,
                                             "--skeleton", "--level", "1", common[0],
                                             common[1], common[2], common[3], common[4],
                                             common[5], common[6], common[7], NULL }, &status));
  a = load_alpha (png, &n_a);
  b = load_alpha (png2, &n_b);
  for (guint i = 0; i < W * H; i++)
    diff += (a[i] > 0) != (b[i] > 0);
  g_assert_cmpuint (diff, >, 20);

  g_assert_false (run_cli ((const char *[]) { "render", body, "-o", png, "--joint", "Nope=3",
                                              NULL }, &status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_false (run_cli ((const char *[]) { "render", body, "-o", png, "--level", "6",
                                              NULL }, &status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_false (run_cli ((const char *[]) { "render", body, "-o", png, "--joint", "x",
                                              NULL }, &status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);

  g_remove (png);
  g_remove (png2);
  g_remove (head);
  g_remove (body);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  offscreen = mshed_offscreen_new (W, H, 0, &error);
  if (offscreen == NULL)
    offscreen_error = g_strdup_printf ("no offscreen GL: %s", error->message);

  g_test_add_func ("/render/dfm/scene", test_scene);
  g_test_add_func ("/render/dfm/scene-ray-pick", test_scene_ray_pick);
  g_test_add_func ("/render/dfm/gl/bind-head", test_gl_bind_head);
  g_test_add_func ("/render/dfm/gl/bind-body", test_gl_bind_body);
  g_test_add_func ("/render/dfm/gl/pose-local", test_gl_pose_local);
  g_test_add_func ("/render/dfm/gl/overlays", test_gl_overlays);
  g_test_add_func ("/render/dfm/gl/gpu-equals-cpu", test_gl_gpu_equals_cpu);
  g_test_add_func ("/render/dfm/cli", test_cli);
  ret = g_test_run ();
  g_clear_pointer (&offscreen, mshed_offscreen_free);
  g_free (offscreen_error);
  return ret;
}
