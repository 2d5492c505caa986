/* test-render.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The renderer on a hand-built model of known geometry: the scene logic without GL, then
 * offscreen renders (EGL surfaceless; skipped where there is none) checked pixel by pixel
 * against where the geometry must land, picking, partial uploads, and `mshed-cli render`.
 *
 * The model is described in quads-model.h.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-offscreen.h"
#include "mshed-png.h"
#include "mshed-render-scene.h"
#include "mshed-renderer.h"
#include "mshed-selection.h"
#include "quads-model.h"
#include "test-require.h"

#define W 200
#define H 200
#define CAM_DISTANCE 10.0f

static MshedOffscreen *offscreen;
static char *offscreen_error;

/* Scene (no GL) -------------------------------------------------------------------------- */

static void
test_scene_elements (void)
{
  g_autoptr(MshedModel) model = build_model (38);
  MshedRenderScene *scene = mshed_render_scene_new (model);
  const guint32 *elements, *tri_map;
  guint n_elem, n_tris, first, count, tri_first;

  g_assert_cmpuint (mshed_render_scene_get_n_vertices (scene), ==, 12);
  elements = mshed_render_scene_get_elements (scene, &n_elem);
  tri_map = mshed_render_scene_get_tri_map (scene, &n_tris);
  /* 3 quads of 2 triangles + 1 triangle of batch 4 */
  g_assert_cmpuint (n_elem, ==, 21);
  g_assert_cmpuint (n_tris, ==, 7);
  g_assert_cmpuint (mshed_render_scene_get_skip_count (scene, MSHED_SCENE_SKIP_BATCH_SHORT), ==, 1);
  g_assert_cmpuint (mshed_render_scene_get_skip_count (scene, MSHED_SCENE_SKIP_BATCH_RANGE), ==, 1);
  g_assert_cmpuint (mshed_render_scene_get_skip_count (scene, MSHED_SCENE_SKIP_TRIANGLE_VERTEX),
                    ==, 1);

  /* batch 1: Res6[0..5] + baseVertex 4 */
  g_assert_true (mshed_render_scene_get_batch_range (scene, 1, &first, &count, &tri_first));
  g_assert_cmpuint (count, ==, 6);
  {
    const guint32 want[6] = { 4, 5, 6, 4, 6, 7 };

    for (guint i = 0; i < 6; i++)
      g_assert_cmpuint (elements[first + i], ==, want[i]);
    g_assert_cmpuint (tri_map[tri_first], ==, 0);
    g_assert_cmpuint (tri_map[tri_first + 1], ==, 1);
  }
  /* batch 4: its first triangle dropped, the second is triangle 1 of the batch */
  g_assert_true (mshed_render_scene_get_batch_range (scene, 4, &first, &count, &tri_first));
  g_assert_cmpuint (count, ==, 3);
  g_assert_cmpuint (elements[first], ==, 9);
  g_assert_cmpuint (elements[first + 1], ==, 10);
  g_assert_cmpuint (elements[first + 2], ==, 11);
  g_assert_cmpuint (tri_map[tri_first], ==, 1);
  /* batches 3 and 5: nothing */
  g_assert_true (mshed_render_scene_get_batch_range (scene, 3, &first, &count, &tri_first));
  g_assert_cmpuint (count, ==, 0);
  g_assert_true (mshed_render_scene_get_batch_range (scene, 5, &first, &count, &tri_first));
  g_assert_cmpuint (count, ==, 0);
  g_assert_false (mshed_render_scene_get_batch_range (scene, 6, &first, &count, &tri_first));

  /* decoded attributes: normal -127/127, UV / 1024 */
  {
    float p[3], n[3], uv[2];

    mshed_render_scene_read_vertices (scene, 6, 1, p, n, uv);
    g_assert_cmpfloat (p[0], ==, 0.5f);
    g_assert_cmpfloat (p[2], ==, 1.0f);
    g_assert_cmpfloat (n[1], ==, -1.0f);
    g_assert_cmpfloat (uv[0], ==, 0.5f);
    g_assert_cmpfloat (uv[1], ==, 1.0f);
    /* past the end: zeros, never a read */
    mshed_render_scene_read_vertices (scene, 12, 1, p, n, uv);
    g_assert_cmpfloat (p[0], ==, 0.0f);
    g_assert_cmpfloat (n[1], ==, 0.0f);
  }
  mshed_render_scene_free (scene);
}

static void
assert_items (MshedRenderScene *scene,
              const guint      *want,   /* node, slot, batch triples */
              guint             n_want)
{
  guint n;
  const MshedDrawItem *items = mshed_render_scene_get_items (scene, &n);

  g_assert_cmpuint (n, ==, n_want);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (items[i].node, ==, want[3 * i]);
      g_assert_cmpuint (items[i].slot, ==, want[3 * i + 1]);
      g_assert_cmpuint (items[i].batch, ==, want[3 * i + 2]);
    }
}

static void
test_scene_items (void)
{
  g_autoptr(MshedModel) model = build_model (38);
  MshedRenderScene *scene = mshed_render_scene_new (model);

  g_assert_false (mshed_render_scene_is_all_batches (scene));
  mshed_render_scene_set_view (scene, 0, 0);
  assert_items (scene, (const guint[]) { 0, 0, 0, 1, 1, 1 }, 2);
  mshed_render_scene_set_view (scene, 0, 1);
  assert_items (scene, (const guint[]) { 0, 3, 4 }, 1);
  g_assert_cmpuint (mshed_render_scene_get_skip_count (scene, MSHED_SCENE_SKIP_SLOT_BATCH_RANGE),
                    ==, 1);
  mshed_render_scene_set_view (scene, 1, 0);
  assert_items (scene, (const guint[]) { 0, 2, 2 }, 1);
  mshed_render_scene_set_view (scene, 0, 2);
  assert_items (scene, NULL, 0);
  mshed_render_scene_set_view (scene, 2, 4);
  assert_items (scene, NULL, 0);
  mshed_render_scene_free (scene);
}

static void
test_scene_legacy (void)
{
  /* 24-byte node records: no node table the runtime contract knows: every batch, identity. */
  g_autoptr(MshedModel) model = build_model (24);
  MshedRenderScene *scene = mshed_render_scene_new (model);

  g_assert_true (mshed_render_scene_is_all_batches (scene));
  assert_items (scene, (const guint[]) { MSHED_NONE, MSHED_NONE, 0, MSHED_NONE, MSHED_NONE, 1,
                                         MSHED_NONE, MSHED_NONE, 2, MSHED_NONE, MSHED_NONE, 4 }, 4);
  g_assert_cmpfloat (mshed_render_scene_get_world (scene, MSHED_NONE)[12], ==, 0.0f);
  mshed_render_scene_free (scene);
}

static void
test_scene_world (void)
{
  g_autoptr(MshedModel) model = build_model (38);
  MshedRenderScene *scene = mshed_render_scene_new (model);
  const float *m;

  /* t = 0: node 1 = node 0's (0, 0, 0.5) then its own (1.5, 0, 0) */
  m = mshed_render_scene_get_world (scene, 1);
  g_assert_cmpfloat (m[12], ==, 1.5f);
  g_assert_cmpfloat (m[14], ==, 0.5f);
  /* t = 1: halfway to (1.5, 0, -1) */
  mshed_render_scene_set_time (scene, 1.0f, NULL);
  m = mshed_render_scene_get_world (scene, 1);
  g_assert_cmpfloat (m[14], ==, 0.0f);
  /* t = 2.6: frame 2 -> fallback key 2 */
  mshed_render_scene_set_time (scene, 2.6f, NULL);
  m = mshed_render_scene_get_world (scene, 1);
  g_assert_cmpfloat (m[14], ==, -0.5f);
  g_assert_cmpint (mshed_render_scene_get_node_issues (scene, 1), ==, 0);
  mshed_render_scene_free (scene);
}

static void
test_scene_bounds (void)
{
  g_autoptr(MshedModel) model = build_model (38);
  MshedRenderScene *scene = mshed_render_scene_new (model);
  MshedSlotBounds b;
  float min[3], max[3];

  g_assert_true (mshed_render_scene_compute_slot_bounds (scene, 1, &b));
  g_assert_cmpfloat (b.aabb_min[0], ==, -0.5f);
  g_assert_cmpfloat (b.aabb_max[2], ==, 1.0f);
  g_assert_cmpfloat (b.sphere_center[2], ==, 0.0f);
  g_assert_cmpfloat_with_epsilon (b.sphere_radius, sqrtf (1.25f), 1e-6f);
  /* slot 3 draws only vertices 9, 10, 11 */
  g_assert_true (mshed_render_scene_compute_slot_bounds (scene, 3, &b));
  g_assert_cmpfloat (b.aabb_min[2], ==, -0.5f);
  g_assert_cmpfloat (b.aabb_max[0], ==, -1.5f);
  g_assert_false (mshed_render_scene_compute_slot_bounds (scene, 4, &b));
  g_assert_false (mshed_render_scene_compute_slot_bounds (scene, 5, &b));

  /* world bounds of lod 0 group 0 at t = 0: x -2..2, z -0.5..1.5 */
  g_assert_true (mshed_render_scene_compute_world_bounds (scene, NULL, NULL, min, max));
  g_assert_cmpfloat (min[0], ==, -2.0f);
  g_assert_cmpfloat (max[0], ==, 2.0f);
  g_assert_cmpfloat (min[2], ==, -0.5f);
  g_assert_cmpfloat (max[2], ==, 1.5f);
  mshed_render_scene_free (scene);
}

static void
test_png_encode (void)
{
  guint8 rgba[2 * 3 * 4];
  g_autoptr(GBytes) png = NULL;
  const guint8 *data;
  gsize len;

  for (guint i = 0; i < sizeof rgba; i++)
    rgba[i] = (guint8) (i * 37);
  png = mshed_png_encode (rgba, 2, 3, 8);
  data = g_bytes_get_data (png, &len);
  g_assert_cmpuint (len, >, 8 + 25 + 12 + 12);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  g_assert_cmpmem (data + 12, 4, "IHDR", 4);
  g_assert_null (mshed_png_encode (rgba, 0, 3, 8));
  {
    g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new_with_type ("png", NULL);
    g_autoptr(GError) error = NULL;
    GdkPixbuf *pixbuf;
    const guint8 *px;

    g_assert_true (gdk_pixbuf_loader_write (loader, data, len, &error));
    g_assert_true (gdk_pixbuf_loader_close (loader, &error));
    g_assert_no_error (error);
    pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
    g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, 2);
    g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, 3);
    g_assert_true (gdk_pixbuf_get_has_alpha (pixbuf));
    px = gdk_pixbuf_read_pixels (pixbuf);
    for (guint y = 0; y < 3; y++)
      g_assert_cmpmem (px + y * gdk_pixbuf_get_rowstride (pixbuf), 8, rgba + 8 * y, 8);
  }
}

/* Offscreen ------------------------------------------------------------------------------ */

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

static MshedRenderer *
new_renderer (MshedModel *model)
{
  static const float black[4] = { 0, 0, 0, 1 };
  g_autoptr(GError) error = NULL;
  MshedRenderer *r = mshed_renderer_new ();
  MshedCamera *cam;

  g_assert_true (mshed_renderer_realize (r, &error));
  g_assert_no_error (error);
  mshed_renderer_set_background (r, black);
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED);
  mshed_renderer_set_model (r, model);
  /* Looking along +y from (0, -10, 0): screen right = +x, up = +z. */
  cam = mshed_renderer_get_camera (r);
  glm_vec3_zero (cam->target);
  cam->distance = CAM_DISTANCE;
  cam->yaw = -(float) G_PI / 2.0f;
  cam->pitch = 0.0f;
  cam->fov_y = glm_rad (40.0f);
  cam->scene_radius = 3.0f;
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
  MshedRenderStats stats;

  mshed_offscreen_bind (offscreen);
  mshed_renderer_draw (r, W, H);
  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.n_gl_errors, ==, 0);
  return mshed_offscreen_read_rgba (offscreen);
}

/* World (x, z) on the y = 0 plane -> pixel, for the camera of new_renderer (independent of
 * the renderer's code: a pinhole at distance 10 with a 40° vertical field of view). */
static void
to_pixel (float  x,
          float  z,
          float *px,
          float *py)
{
  float k = (H / 2.0f) / (CAM_DISTANCE * tanf (glm_rad (20.0f)));

  *px = W / 2.0f + x * k;
  *py = H / 2.0f - z * k;
}

static gboolean
lit_at (const guint8 *pixels,
        int           x,
        int           y)
{
  const guint8 *p = pixels + 4 * ((gsize) y * W + x);

  return MAX (p[0], MAX (p[1], p[2])) > 24;
}

static gboolean
lit_world (const guint8 *pixels,
           float         x,
           float         z)
{
  float px, py;

  to_pixel (x, z, &px, &py);
  return lit_at (pixels, (int) px, (int) py);
}

/* Fraction of lit pixels whose centre lies inside the world rectangle, shrunk by @margin
 * pixels (a negative margin grows it). */
static double
coverage (const guint8 *pixels,
          float         x0,
          float         z0,
          float         x1,
          float         z1,
          float         margin)
{
  float ax, ay, bx, by;
  guint lit = 0, total = 0;

  to_pixel (x0, z1, &ax, &ay);
  to_pixel (x1, z0, &bx, &by);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        float cx = x + 0.5f, cy = y + 0.5f;

        if (cx < ax + margin || cx > bx - margin || cy < ay + margin || cy > by - margin)
          continue;
        total++;
        lit += lit_at (pixels, x, y);
      }
  g_assert_cmpuint (total, >, 0);
  return (double) lit / total;
}

static guint
count_lit (const guint8 *pixels)
{
  guint n = 0;

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      n += lit_at (pixels, x, y);
  return n;
}

static void
test_gl_coverage (void)
{
  g_autoptr(MshedModel) model = NULL;
  g_autofree guint8 *px = NULL;
  MshedRenderer *r;
  float ax, ay, bx, by;
  guint expected;

  if (!need_gl ())
    return;
  model = build_model (38);
  r = new_renderer (model);
  px = render (r);

  /* quad A (node 0, +0.5 in z) and quad B (node 1: +1.5 in x, +0.5 in z) */
  g_assert_cmpfloat (coverage (px, -2, -0.5f, -1, 1.5f, 1.5f), ==, 1.0);
  g_assert_cmpfloat (coverage (px, 1, -0.5f, 2, 1.5f, 1.5f), ==, 1.0);
  /* nothing between them, above or below */
  g_assert_cmpfloat (coverage (px, -1, -0.5f, 1, 1.5f, 1.5f), ==, 0.0);
  g_assert_cmpfloat (coverage (px, -3, 1.5f, 3, 3.5f, 1.5f), ==, 0.0);
  g_assert_cmpfloat (coverage (px, -3, -3.5f, 3, -0.5f, 1.5f), ==, 0.0);
  /* and the total is the two rectangles' area, up to their edges */
  to_pixel (-2, 1.5f, &ax, &ay);
  to_pixel (-1, -0.5f, &bx, &by);
  expected = (guint) (2 * (bx - ax) * (by - ay));
  g_assert_cmpuint (count_lit (px), >=, expected - 2 * 2 * (guint) ((bx - ax) + (by - ay)));
  g_assert_cmpuint (count_lit (px), <=, expected + 2 * 2 * (guint) ((bx - ax) + (by - ay)));
  free_renderer (r);
}

static void
test_gl_lod_group (void)
{
  g_autoptr(MshedModel) model = NULL;
  MshedRenderer *r;

  if (!need_gl ())
    return;
  model = build_model (38);
  r = new_renderer (model);

  /* lod 1 group 0: only quad C (x -2..-1.5, z 0..0.5 in the world) */
  mshed_renderer_set_view (r, 1, 0);
  {
    g_autofree guint8 *px = render (r);

    g_assert_cmpfloat (coverage (px, -2, 0, -1.5f, 0.5f, 1.5f), ==, 1.0);
    g_assert_cmpfloat (coverage (px, -1.5f, -0.5f, -1, 1.5f, 1.5f), ==, 0.0);  /* rest of A */
    g_assert_cmpfloat (coverage (px, 1, -0.5f, 2, 1.5f, 1.5f), ==, 0.0);       /* B */
  }
  /* lod 0 group 1: one triangle of quad C (its upper right half), nothing of node 1 */
  mshed_renderer_set_view (r, 0, 1);
  {
    g_autofree guint8 *px = render (r);

    g_assert_true (lit_world (px, -1.667f, 0.333f));
    g_assert_false (lit_world (px, -1.9f, 0.1f));
    g_assert_cmpfloat (coverage (px, 1, -0.5f, 2, 1.5f, 1.5f), ==, 0.0);
  }
  /* lod 0 group 2: a slot number past the slot table: nothing */
  mshed_renderer_set_view (r, 0, 2);
  {
    g_autofree guint8 *px = render (r);

    g_assert_cmpuint (count_lit (px), ==, 0);
  }
  free_renderer (r);
}

static void
test_gl_hidden_node (void)
{
  g_autoptr(MshedModel) model = NULL;
  g_autofree guint8 *px = NULL;
  MshedRenderer *r;

  if (!need_gl ())
    return;
  model = build_model (38);
  r = new_renderer (model);
  mshed_renderer_set_node_visible (r, 1, FALSE);
  px = render (r);
  g_assert_cmpfloat (coverage (px, -2, -0.5f, -1, 1.5f, 1.5f), ==, 1.0);
  g_assert_cmpfloat (coverage (px, 1, -0.5f, 2, 1.5f, -1.5f), ==, 0.0);
  g_assert_false (mshed_renderer_get_node_visible (r, 1));
  free_renderer (r);
}

static void
test_gl_frame (void)
{
  g_autoptr(MshedModel) model = NULL;
  g_autofree guint8 *px = NULL;
  MshedRenderer *r;

  if (!need_gl ())
    return;
  model = build_model (38);
  r = new_renderer (model);
  /* t = 1: node 1 halfway from z 0 to z -1: quad B at z -1..1; node 0 static */
  mshed_renderer_set_time (r, 1.0f);
  px = render (r);
  g_assert_cmpfloat (coverage (px, 1, -1, 2, 1, 1.5f), ==, 1.0);
  g_assert_cmpfloat (coverage (px, 1, 1, 2, 1.5f, 1.5f), ==, 0.0);
  g_assert_cmpfloat (coverage (px, -2, -0.5f, -1, 1.5f, 1.5f), ==, 1.0);
  free_renderer (r);
}

static void
pick_world (MshedRenderer *r,
            float          x,
            float          z,
            MshedPick     *pick)
{
  float px, py;

  to_pixel (x, z, &px, &py);
  mshed_offscreen_bind (offscreen);
  mshed_renderer_pick (r, W, H, (int) px, (int) py, pick);
}

static void
test_gl_pick (void)
{
  g_autoptr(MshedModel) model = NULL;
  MshedRenderer *r;
  MshedPick pick;

  if (!need_gl ())
    return;
  model = build_model (38);
  r = new_renderer (model);

  /* quad B, lower right triangle (local (0.25, -0.5)) */
  pick_world (r, 1.75f, 0.0f, &pick);
  g_assert_true (pick.hit);
  g_assert_cmpuint (pick.node, ==, 1);
  g_assert_cmpuint (pick.slot, ==, 1);
  g_assert_cmpuint (pick.batch, ==, 1);
  g_assert_cmpuint (pick.triangle, ==, 0);
  g_assert_cmpuint (pick.index_position, ==, 0);
  g_assert_cmpuint (pick.vertices[0], ==, 4);
  g_assert_cmpuint (pick.vertices[1], ==, 5);
  g_assert_cmpuint (pick.vertices[2], ==, 6);
  g_assert_cmpuint (pick.descriptor, ==, 2);   /* slot 1 owns descriptors 2, 3 */

  /* quad B, upper left triangle (local (-0.25, 0.5)) */
  pick_world (r, 1.25f, 1.0f, &pick);
  g_assert_true (pick.hit);
  g_assert_cmpuint (pick.triangle, ==, 1);
  g_assert_cmpuint (pick.index_position, ==, 3);
  g_assert_cmpuint (pick.vertices[1], ==, 6);
  g_assert_cmpuint (pick.vertices[2], ==, 7);
  g_assert_cmpuint (pick.descriptor, ==, 3);

  /* quad A */
  pick_world (r, -1.5f, 0.2f, &pick);
  g_assert_true (pick.hit);
  g_assert_cmpuint (pick.node, ==, 0);
  g_assert_cmpuint (pick.batch, ==, 0);

  /* empty space */
  pick_world (r, 0.0f, 0.5f, &pick);
  g_assert_false (pick.hit);
  g_assert_cmpuint (pick.node, ==, MSHED_NONE);

  /* a hidden node cannot be picked */
  mshed_renderer_set_node_visible (r, 1, FALSE);
  pick_world (r, 1.75f, 0.0f, &pick);
  g_assert_false (pick.hit);
  mshed_renderer_set_node_visible (r, 1, TRUE);

  /* the surviving triangle of batch 4 is the batch's triangle 1: Res6 position 6 + 3 */
  mshed_renderer_set_view (r, 0, 1);
  pick_world (r, -1.667f, 0.333f, &pick);
  g_assert_true (pick.hit);
  g_assert_cmpuint (pick.node, ==, 0);
  g_assert_cmpuint (pick.slot, ==, 3);
  g_assert_cmpuint (pick.batch, ==, 4);
  g_assert_cmpuint (pick.triangle, ==, 1);
  g_assert_cmpuint (pick.index_position, ==, 9);
  g_assert_cmpuint (pick.vertices[0], ==, 9);
  g_assert_cmpuint (pick.vertices[2], ==, 11);
  /* slot 3: batch 3 counts 2 triangles (drawable or not), so triangle 1 of batch 4 is the
   * slot's third: descriptor 6 + 3 */
  g_assert_cmpuint (pick.descriptor, ==, 9);

  /* out of the view */
  g_assert_false (mshed_renderer_pick (r, W, H, W, 0, &pick));
  free_renderer (r);
}

static gint
find_resource (MshedModel *model,
               guint32     type)
{
  return mshed_model_find_resource (model, type);
}

static void
test_gl_partial_upload (void)
{
  g_autoptr(MshedModel) model = NULL;
  MshedNres *nres;
  MshedRenderer *r;
  MshedRenderStats stats;
  guint8 *data;

  if (!need_gl ())
    return;
  model = build_model (38);
  r = new_renderer (model);
  {
    g_autofree guint8 *px = render (r);

    g_assert_false (lit_world (px, 1.9f, 2.1f));
    mshed_renderer_get_stats (r, &stats);
  }

  /* Nothing changed: nothing uploaded. */
  mshed_renderer_prepare (r);
  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.upload_bytes, ==, 0);

  /* Move vertex 6 (quad B's top right corner) from z 1 to z 2. */
  nres = mshed_model_get_nres (model);
  data = mshed_nres_entry_make_mutable (nres, (guint) find_resource (model, 3));
  mshed_write_f32 (data + 6 * 12 + 8, 2.0f);
  mshed_renderer_vertices_changed (r, 6, 1);
  mshed_renderer_prepare (r);
  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.upload_bytes, ==, 12 + 12 + 8);   /* one position, normal, UV */
  {
    g_autofree guint8 *px = render (r);

    g_assert_true (lit_world (px, 1.9f, 2.1f));
  }

  /* Topology: batch 1 now draws quad A's vertices (baseVertex 0) under node 1. */
  data = mshed_nres_entry_make_mutable (nres, (guint) find_resource (model, 13));
  mshed_write_u32 (data + 20 + 16, 0);
  mshed_renderer_topology_changed (r);
  mshed_renderer_prepare (r);
  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.upload_bytes, ==, 21 * sizeof (guint32));  /* the element buffer */
  {
    g_autofree guint8 *px = render (r);

    g_assert_true (lit_world (px, 0.0f, 0.5f));     /* A + 1.5 in x: x -0.5..0.5 */
    g_assert_false (lit_world (px, 1.5f, 0.5f));
  }
  free_renderer (r);
}

static guint
count_color (const guint8 *pixels,
             gboolean    (*match) (const guint8 *p))
{
  guint n = 0;

  for (gsize i = 0; i < (gsize) W * H; i++)
    n += match (pixels + 4 * i);
  return n;
}

static gboolean
is_stale_red (const guint8 *p)
{
  return p[0] > 200 && p[1] < 90 && p[2] < 80;
}

static gboolean
is_orange (const guint8 *p)
{
  return p[0] > 150 && p[0] > p[2] + 60;
}

static void
test_gl_overlays_selection (void)
{
  g_autoptr(MshedModel) model = NULL;
  MshedRenderer *r;
  MshedSlotBounds rec[5];
  MshedRenderScene *scene;

  if (!need_gl ())
    return;
  model = build_model (38);
  r = new_renderer (model);
  scene = mshed_renderer_get_scene (r);

  /* Slot boxes alone: no warning colour. */
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED | MSHED_OVERLAY_SLOT_BOXES);
  {
    g_autofree guint8 *px = render (r);

    g_assert_cmpuint (count_color (px, is_stale_red), ==, 0);
    g_assert_cmpuint (count_color (px, is_orange), ==, 0);
  }
  /* With recomputed bounds, slot 1's stored box (max z 3) is stale and shows in red. */
  for (guint s = 0; s < 5; s++)
    mshed_render_scene_compute_slot_bounds (scene, s, &rec[s]);
  mshed_renderer_set_recomputed_bounds (r, rec, 5, NULL);
  {
    g_autofree guint8 *px = render (r);

    g_assert_cmpuint (count_color (px, is_stale_red), >, 20);
  }
  mshed_renderer_set_recomputed_bounds (r, NULL, 0, NULL);

  /* Selecting batch 1 tints quad B. */
  g_assert_false (mshed_renderer_has_selection (r));
  mshed_renderer_select (r, MSHED_SELECT_BATCH, 1, TRUE);
  g_assert_true (mshed_renderer_is_selected (r, MSHED_SELECT_BATCH, 1));
  {
    g_autofree guint8 *px = render (r);
    float x, y;

    to_pixel (1.5f, 0.5f, &x, &y);
    g_assert_true (is_orange (px + 4 * ((gsize) (int) y * W + (int) x)));
    to_pixel (-1.5f, 0.5f, &x, &y);
    g_assert_false (is_orange (px + 4 * ((gsize) (int) y * W + (int) x)));
  }
  /* Selecting triangle 1 of batch 0 (quad A's upper left half) and framing it. */
  mshed_renderer_clear_selection (r);
  mshed_renderer_select (r, MSHED_SELECT_TRIANGLE, MSHED_TRIANGLE_KEY (0, 1), TRUE);
  mshed_renderer_select (r, MSHED_SELECT_VERTEX, 5, TRUE);
  {
    g_autofree guint8 *px = render (r);
    float x, y;

    to_pixel (-1.75f, 1.0f, &x, &y);     /* A's upper left triangle */
    g_assert_true (is_orange (px + 4 * ((gsize) (int) y * W + (int) x)));
    to_pixel (-1.25f, 0.0f, &x, &y);     /* A's lower right triangle */
    g_assert_false (is_orange (px + 4 * ((gsize) (int) y * W + (int) x)));
  }
  /* The linked-views selection: descriptor 3 is quad B's upper left triangle. */
  {
    g_autoptr(MshedSelection) sel = mshed_selection_new ();
    g_autofree guint8 *px = NULL;
    guint d = 3;
    float x, y;

    g_array_append_val (sel->tris, d);
    mshed_renderer_set_selection (r, sel);
    g_assert_true (mshed_renderer_is_selected (r, MSHED_SELECT_TRIANGLE,
                                               MSHED_TRIANGLE_KEY (1, 1)));
    g_assert_false (mshed_renderer_is_selected (r, MSHED_SELECT_TRIANGLE,
                                                MSHED_TRIANGLE_KEY (1, 0)));
    px = render (r);
    to_pixel (1.25f, 1.0f, &x, &y);
    g_assert_true (is_orange (px + 4 * ((gsize) (int) y * W + (int) x)));
    to_pixel (1.75f, 0.0f, &x, &y);
    g_assert_false (is_orange (px + 4 * ((gsize) (int) y * W + (int) x)));
    to_pixel (-1.75f, 1.0f, &x, &y);
    g_assert_false (is_orange (px + 4 * ((gsize) (int) y * W + (int) x)));
  }
  mshed_renderer_set_selection (r, NULL);
  g_assert_false (mshed_renderer_has_selection (r));
  mshed_renderer_select (r, MSHED_SELECT_TRIANGLE, MSHED_TRIANGLE_KEY (0, 1), TRUE);
  g_assert_true (mshed_renderer_frame_selection (r, 1.0f));
  {
    MshedCamera *cam = mshed_renderer_get_camera (r);

    /* quad A's item: x -2..-1, z -0.5..1.5 */
    g_assert_cmpfloat_with_epsilon (cam->target[0], -1.5f, 1e-5f);
    g_assert_cmpfloat_with_epsilon (cam->target[2], 0.5f, 1e-5f);
  }

  mshed_renderer_set_selection (r, NULL);
  g_assert_false (mshed_renderer_has_selection (r));

  /* Everything at once draws without a GL error (free_renderer checks). */
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED | MSHED_OVERLAY_WIREFRAME |
                               MSHED_OVERLAY_NORMALS | MSHED_OVERLAY_UV_CHECKER |
                               MSHED_OVERLAY_SLOT_BOXES | MSHED_OVERLAY_SLOT_SPHERES |
                               MSHED_OVERLAY_HULL | MSHED_OVERLAY_HEADER_SPHERE |
                               MSHED_OVERLAY_CAPSULE | MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES |
                               MSHED_OVERLAY_MATERIALS);
  mshed_renderer_select (r, MSHED_SELECT_NODE, 0, TRUE);
  mshed_renderer_select (r, MSHED_SELECT_SLOT, 1, TRUE);
  {
    g_autofree guint8 *px = render (r);

    g_assert_cmpuint (count_lit (px), >, 1000);
  }
  free_renderer (r);
}

static void
test_gl_empty (void)
{
  MshedRenderer *r;

  if (!need_gl ())
    return;
  r = new_renderer (NULL);
  {
    g_autofree guint8 *px = render (r);
    MshedPick pick;

    g_assert_cmpuint (count_lit (px), ==, 0);
    g_assert_false (mshed_renderer_pick (r, W, H, 10, 10, &pick));
  }
  /* A model and then none again */
  {
    g_autoptr(MshedModel) model = build_model (24);
    g_autofree guint8 *px = NULL;

    mshed_renderer_set_model (r, model);
    mshed_renderer_frame_all (r, 1.0f);
    px = render (r);
    g_assert_cmpuint (count_lit (px), >, 100);
    mshed_renderer_set_model (r, NULL);
  }
  {
    g_autofree guint8 *px = render (r);

    g_assert_cmpuint (count_lit (px), ==, 0);
  }
  free_renderer (r);
}

static void
count_cb (guint    batch,
          guint    triangle,
          gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* Random byte corruption of the model's tables: the scene and the renderer must skip what
 * is broken without reading out of bounds (run under ASan/valgrind to see the reads). */
static void
exercise_scene (MshedRenderScene *scene)
{
  float min[3], max[3];
  guint n_slots = mshed_model_get_n_rows (mshed_render_scene_get_model (scene), MSHED_TABLE_SLOTS);
  const guint descriptors[] = { 0, 1, 2, 3, 5, 8, 9, 40000 };
  guint n_mapped = 0;

  for (guint lod = 0; lod < MSHED_N_LODS; lod++)
    for (guint group = 0; group < MSHED_N_GROUPS; group++)
      {
        guint n_items;
        const MshedDrawItem *items;
        guint n_elem, n_vertices = mshed_render_scene_get_n_vertices (scene);
        const guint32 *elements = mshed_render_scene_get_elements (scene, &n_elem);

        mshed_render_scene_set_view (scene, lod, group);
        items = mshed_render_scene_get_items (scene, &n_items);
        for (guint i = 0; i < n_items; i++)
          {
            g_assert_cmpuint ((guint64) items[i].elem_first + items[i].elem_count, <=, n_elem);
            for (guint e = 0; e < items[i].elem_count; e++)
              g_assert_cmpuint (elements[items[i].elem_first + e], <, n_vertices);
          }
        mshed_render_scene_compute_world_bounds (scene, NULL, NULL, min, max);
      }
  for (guint s = 0; s < n_slots + 2; s++)
    {
      MshedSlotBounds b;

      mshed_render_scene_compute_slot_bounds (scene, s, &b);
      mshed_render_scene_triangle_to_descriptor (scene, s, 3, 1);
      mshed_render_scene_descriptors_to_triangles (scene, s, descriptors,
                                                   G_N_ELEMENTS (descriptors), count_cb,
                                                   &n_mapped);
    }
  g_assert_cmpuint (n_mapped, <=, G_N_ELEMENTS (descriptors) * (n_slots + 2));
  mshed_render_scene_set_time (scene, 1.5f, NULL);
  mshed_render_scene_set_time (scene, -3.0f, NULL);
}

static void
test_scene_hostile (void)
{
  g_autoptr(GBytes) clean = build_model_bytes (38);
  gsize size;
  const guint8 *data = g_bytes_get_data (clean, &size);
  guint n_models = 0;

  for (guint iter = 0; iter < 400; iter++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, size);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(MshedModel) model = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      guint n = 1 + g_test_rand_int_range (0, 8);
      MshedRenderScene *scene;

      /* the payloads sit between the 16-byte header and the directory */
      for (guint k = 0; k < n; k++)
        copy[g_test_rand_int_range (16, (gint32) size - 64 * 11)] =
          (guint8) g_test_rand_int_range (0, 256);
      bytes = g_bytes_new_take (g_steal_pointer (&copy), size);
      model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, diags, NULL);
      if (model == NULL)
        continue;
      n_models++;
      scene = mshed_render_scene_new (model);
      exercise_scene (scene);
      mshed_render_scene_free (scene);

      if (offscreen && iter % 8 == 0)
        {
          MshedRenderer *r;
          g_autofree guint8 *px = NULL;
          MshedPick pick;

          g_assert_true (mshed_offscreen_make_current (offscreen));
          r = new_renderer (model);
          mshed_renderer_set_overlays (r, (MshedOverlays) 0xfff);
          mshed_renderer_select (r, MSHED_SELECT_NODE, 1, TRUE);
          mshed_renderer_select (r, MSHED_SELECT_TRIANGLE, MSHED_TRIANGLE_KEY (1, 1), TRUE);
          mshed_renderer_frame_all (r, 1.0f);
          px = render (r);
          mshed_offscreen_bind (offscreen);
          mshed_renderer_pick (r, W, H, W / 2, H / 2, &pick);
          free_renderer (r);
        }
    }
  g_assert_cmpuint (n_models, >, 200);
}

/* CLI ------------------------------------------------------------------------------------ */

typedef struct {
  guint n;
  int   min_x, min_y, max_x, max_y;
  gboolean middle_column;
} Silhouette;

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

static Silhouette
silhouette (const char *png)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new_from_file (png, &error);
  Silhouette s = { 0, G_MAXINT, G_MAXINT, -1, -1, FALSE };
  const guint8 *px;
  int w, h, stride;

  g_assert_no_error (error);
  g_assert_true (gdk_pixbuf_get_has_alpha (pixbuf));
  w = gdk_pixbuf_get_width (pixbuf);
  h = gdk_pixbuf_get_height (pixbuf);
  stride = gdk_pixbuf_get_rowstride (pixbuf);
  px = gdk_pixbuf_read_pixels (pixbuf);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (px[y * stride + 4 * x + 3] > 0)
        {
          s.n++;
          s.min_x = MIN (s.min_x, x);
          s.min_y = MIN (s.min_y, y);
          s.max_x = MAX (s.max_x, x);
          s.max_y = MAX (s.max_y, y);
          if (x == w / 2)
            s.middle_column = TRUE;
        }
  return s;
}

static void
test_cli_render (void)
{
  const char *cli = g_getenv ("MSHED_CLI");
  g_autofree char *dir = NULL;
  g_autofree char *msh = NULL, *archive = NULL, *spec = NULL, *png = NULL;
  g_autoptr(GBytes) bytes = build_model_bytes (38);
  g_autoptr(GError) error = NULL;
  Silhouette s;
  int status;

  if (!need_gl ())
    return;
  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      mshed_test_skip ("MSHED_CLI does not name mshed-cli (run the test through meson test)");
      return;
    }
  dir = g_dir_make_tmp ("mshed-render-XXXXXX", &error);
  g_assert_no_error (error);
  msh = g_build_filename (dir, "quads.msh", NULL);
  png = g_build_filename (dir, "out.png", NULL);
  g_assert_true (g_file_set_contents (msh, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                      &error));

  /* Front view of lod 0 group 0. frame-all fits the sphere around x -2..2, z -0.5..1.5
   * (centre (0, 0, 0.5), radius sqrt 5) at distance r / sin 20° * 1.05, where the view is
   * 2 * d * tan 20° = 4.998 units tall: 40.02 pixels per unit on 200 pixels. So each quad
   * covers 40 x 80 pixels, A from x 20 to 60, B from 140 to 180, both from y 60 to 140. */
  g_assert_true (run_cli ((const char *[]) { "render", msh, "-o", png, "--size", "200x200",
                                             "--samples", "0", "--yaw", "-90", "--pitch", "0",
                                             NULL }, &status));
  s = silhouette (png);
  g_assert_cmpuint (s.n, >=, 6400 - 4 * 2 * 120);
  g_assert_cmpuint (s.n, <=, 6400 + 4 * 2 * 120);
  g_assert_cmpint (ABS (s.min_x - 20), <=, 1);
  g_assert_cmpint (ABS (s.max_x - 179), <=, 1);
  g_assert_cmpint (ABS (s.min_y - 60), <=, 1);
  g_assert_cmpint (ABS (s.max_y - 139), <=, 1);
  g_assert_false (s.middle_column);

  /* --lod 1: quad C alone (0.5 x 0.5), framed to fill the view: the sphere's radius is
   * sqrt (0.125), the square's side 0.5 / (2 * 0.3536 / sin 20° / 1.05 * tan 20°) of the
   * image: 0.5 * 200 / (2 * 0.3536 * 1.1173) = 126.6 pixels square. */
  g_assert_true (run_cli ((const char *[]) { "render", msh, "-o", png, "--size", "200x200",
                                             "--samples", "0", "--yaw", "-90", "--pitch", "0",
                                             "--lod", "1", NULL }, &status));
  s = silhouette (png);
  g_assert_cmpint (ABS ((s.max_x - s.min_x + 1) - 127), <=, 2);
  g_assert_cmpint (ABS ((s.max_y - s.min_y + 1) - 127), <=, 2);
  g_assert_cmpuint (s.n, >=, 125 * 125);
  g_assert_cmpuint (s.n, <=, 129 * 129);

  /* --frame 1 moves node 1 down: the framing changes, but the image still holds two
   * separate quads of the same size */
  g_assert_true (run_cli ((const char *[]) { "render", msh, "-o", png, "--size", "200x200",
                                             "--samples", "0", "--yaw", "-90", "--pitch", "0",
                                             "--frame", "1", NULL }, &status));
  s = silhouette (png);
  g_assert_false (s.middle_column);
  g_assert_cmpint (s.max_y - s.min_y, >, 80);   /* z spans -1..1.5 now: taller than before */

  /* ARCHIVE:ENTRY */
  {
    g_autoptr(MshedNres) outer = mshed_nres_new ();
    g_autoptr(GBytes) outer_bytes = NULL;
    MshedNresEntry e = { 0 };

    e.type_id = 0x4853454D;
    strcpy ((char *) e.name, "QUADS.MSH");
    mshed_nres_insert_entry (outer, 0, &e, bytes);
    outer_bytes = mshed_nres_serialize (outer, NULL);
    archive = g_build_filename (dir, "pack.lib", NULL);
    g_assert_true (g_file_set_contents (archive, g_bytes_get_data (outer_bytes, NULL),
                                        g_bytes_get_size (outer_bytes), &error));
    spec = g_strconcat (archive, ":quads.msh", NULL);
    g_assert_true (run_cli ((const char *[]) { "render", spec, "-o", png, "--size", "200x200",
                                               "--samples", "0", "--yaw", "-90", "--pitch", "0",
                                               NULL }, &status));
    s = silhouette (png);
    g_assert_cmpuint (s.n, >=, 6400 - 4 * 2 * 120);
    g_assert_cmpuint (s.n, <=, 6400 + 4 * 2 * 120);
    /* the bare archive is no model */
    g_assert_false (run_cli ((const char *[]) { "render", archive, "-o", png, NULL }, &status));
  }

  /* bad usage */
  g_assert_false (run_cli ((const char *[]) { "render", msh, "-o", png, "--lod", "3", NULL },
                           &status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_false (run_cli ((const char *[]) { "render", msh, NULL }, &status));
  g_assert_false (run_cli ((const char *[]) { "render", msh, "-o", png, "--size", "0x10", NULL },
                           &status));

  g_remove (png);
  g_remove (msh);
  g_remove (archive);
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
  else
    g_test_message ("GL renderer: %s", mshed_offscreen_get_renderer (offscreen));

  g_test_add_func ("/render/scene/elements", test_scene_elements);
  g_test_add_func ("/render/scene/items", test_scene_items);
  g_test_add_func ("/render/scene/legacy", test_scene_legacy);
  g_test_add_func ("/render/scene/world", test_scene_world);
  g_test_add_func ("/render/scene/bounds", test_scene_bounds);
  g_test_add_func ("/render/scene/hostile", test_scene_hostile);
  g_test_add_func ("/render/png/encode", test_png_encode);
  g_test_add_func ("/render/gl/coverage", test_gl_coverage);
  g_test_add_func ("/render/gl/lod-group", test_gl_lod_group);
  g_test_add_func ("/render/gl/hidden-node", test_gl_hidden_node);
  g_test_add_func ("/render/gl/frame", test_gl_frame);
  g_test_add_func ("/render/gl/pick", test_gl_pick);
  g_test_add_func ("/render/gl/partial-upload", test_gl_partial_upload);
  g_test_add_func ("/render/gl/overlays-selection", test_gl_overlays_selection);
  g_test_add_func ("/render/gl/empty", test_gl_empty);
  g_test_add_func ("/render/cli/render", test_cli_render);

  ret = g_test_run ();
  g_clear_pointer (&offscreen, mshed_offscreen_free);
  g_free (offscreen_error);
  return ret;
}
