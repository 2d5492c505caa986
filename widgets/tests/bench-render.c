/* bench-render.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Frame time of the 200,000-triangle generated model in whatever GL the offscreen context
 * gets (Mesa llvmpipe on the CI machines), and the upload after a single-vertex edit
 * compared with a full upload; then the largest generated DFM body skinned on the GPU and on
 * the CPU: first frame, steady frame, frame after a joint move (wall time, median, and the
 * process's CPU time). Run: meson test --benchmark -C BUILDDIR -v bench-render
 */
#include "config.h"

#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"
#include "mshed-bytes.h"
#include "mshed-dfm-generator.h"
#include "mshed-generator.h"
#include "mshed-offscreen.h"
#include "mshed-renderer.h"

#define WIDTH 800
#define HEIGHT 600

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static double
time_frames (MshedRenderer  *r,
             MshedOffscreen *off,
             guint           n)
{
  g_autofree double *t = g_new (double, n);

  for (guint i = 0; i < n; i++)
    {
      double t0 = now_ms ();

      mshed_offscreen_bind (off);
      mshed_renderer_draw (r, WIDTH, HEIGHT);
      glFinish ();
      t[i] = now_ms () - t0;
    }
  return bench_median (t, n);
}

/* CPU time of the whole process, in ms */
static double
cpu_ms (void)
{
  return bench_cpu_time () / 1000.0;
}

#define N_DFM_FRAMES 41

/* A DFM opened, drawn, and drawn after joint moves, skinned on the GPU or on the CPU: wall
 * time (median) and the process's CPU time (mean) per frame; nothing printed when @quiet
 * (a first run that compiles llvmpipe's shader variants for both). */
static void
bench_dfm (MshedOffscreen *off,
           MshedDfm       *dfm,
           gboolean        gpu,
           gboolean        quiet)
{
  const char *how = gpu ? "GPU" : "CPU";
  MshedRenderer *r = mshed_renderer_new ();
  MshedRenderStats stats;
  MshedDfmPose *pose;
  double t0, c0, t_open, c_open, c_frame, c_pose;
  g_autofree double *t = g_new (double, N_DFM_FRAMES);
  double frame;
  gsize pose_bytes;

  mshed_renderer_set_gpu_skinning (r, gpu);
  g_assert (mshed_renderer_realize (r, NULL));
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED | MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES);
  glFinish ();
  t0 = now_ms ();
  c0 = cpu_ms ();
  mshed_renderer_set_dfm (r, dfm);
  mshed_renderer_frame_all (r, (float) WIDTH / HEIGHT);
  mshed_offscreen_bind (off);
  mshed_renderer_draw (r, WIDTH, HEIGHT);
  glFinish ();
  t_open = now_ms () - t0;
  c_open = cpu_ms () - c0;
  g_assert (mshed_renderer_skins_on_gpu (r) == gpu);
  c0 = cpu_ms ();
  frame = time_frames (r, off, N_DFM_FRAMES);
  c_frame = (cpu_ms () - c0) / N_DFM_FRAMES;

  pose = mshed_render_scene_get_dfm_pose (mshed_renderer_get_scene (r));
  c0 = cpu_ms ();
  for (guint i = 0; i < N_DFM_FRAMES; i++)
    {
      t0 = now_ms ();
      mshed_dfm_pose_set_value (pose, 0, 0, 0.02f * (float) (i + 1));
      mshed_renderer_pose_changed (r);
      mshed_offscreen_bind (off);
      mshed_renderer_draw (r, WIDTH, HEIGHT);
      glFinish ();
      t[i] = now_ms () - t0;
    }
  c_pose = (cpu_ms () - c0) / N_DFM_FRAMES;
  mshed_dfm_pose_set_value (pose, 0, 0, 0.0f);
  mshed_renderer_pose_changed (r);
  mshed_renderer_prepare (r);
  mshed_renderer_get_stats (r, &stats);
  pose_bytes = stats.upload_bytes;
  if (!quiet)
    {
      printf ("DFM %s skinning, first frame (scene + upload + draw): %.1f ms (CPU %.1f ms)\n",
              how, t_open, c_open);
      printf ("DFM %s skinning, frame time:  %.2f ms (median of %d) (CPU %.2f ms)\n", how,
              frame, N_DFM_FRAMES, c_frame);
      printf ("DFM %s skinning, frame after a joint move: %.2f ms (median of %d) (CPU %.2f ms), "
              "%zu bytes uploaded\n", how, bench_median (t, N_DFM_FRAMES), N_DFM_FRAMES, c_pose,
              pose_bytes);
    }
  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.n_gl_errors, ==, 0);
  mshed_renderer_unrealize (r);
  mshed_renderer_free (r);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedOffscreen) off = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(MshedModel) model = NULL;
  MshedGenParams params;
  MshedRenderer *r;
  MshedRenderStats stats;
  double t0, t_gen, t_first, frame, frame_wire, full_upload, pick_ms;
  double edits[30];
  guint n_vertices;
  gint res3;
  MshedPick pick;

  off = mshed_offscreen_new (WIDTH, HEIGHT, 0, &error);
  if (off == NULL)
    {
      printf ("SKIP: %s\n", error->message);
      return 77;
    }

  t0 = now_ms ();
  mshed_gen_params_init (&params, 7);
  params.n_triangles = MSHED_GEN_MAX_TRIANGLES;
  nres = mshed_generate_model (&params);
  model = mshed_model_new (nres, MSHED_MODE_TOLERANT, NULL, &error);
  g_assert_no_error (error);
  t_gen = now_ms () - t0;
  n_vertices = mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS);

  r = mshed_renderer_new ();
  if (!mshed_renderer_realize (r, &error))
    g_error ("%s", error->message);
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED | MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES);

  t0 = now_ms ();
  mshed_renderer_set_model (r, model);
  mshed_renderer_frame_all (r, (float) WIDTH / HEIGHT);
  mshed_offscreen_bind (off);
  mshed_renderer_draw (r, WIDTH, HEIGHT);
  glFinish ();
  t_first = now_ms () - t0;
  mshed_renderer_get_stats (r, &stats);

  printf ("GL renderer:                 %s\n", mshed_offscreen_get_renderer (off));
  printf ("model:                       %u triangles drawn, %u vertices, %u draw items, "
          "%u draw calls\n",
          (guint) stats.n_triangles, n_vertices, stats.n_items, stats.n_draw_calls);
  printf ("generate + parse:            %.1f ms\n", t_gen);
  printf ("first frame (scene + upload): %.1f ms\n", t_first);

  /* The heaviest (lod, group) view: the generator spreads triangles over several. */
  {
    guint best_lod = 0, best_group = 0;
    guint64 best = 0;

    for (guint lod = 0; lod < MSHED_N_LODS; lod++)
      for (guint group = 0; group < MSHED_N_GROUPS; group++)
        {
          mshed_renderer_set_view (r, lod, group);
          mshed_offscreen_bind (off);
          mshed_renderer_draw (r, WIDTH, HEIGHT);
          mshed_renderer_get_stats (r, &stats);
          if (stats.n_triangles > best)
            {
              best = stats.n_triangles;
              best_lod = lod;
              best_group = group;
            }
        }
    mshed_renderer_set_view (r, best_lod, best_group);
    mshed_renderer_frame_all (r, (float) WIDTH / HEIGHT);
    printf ("heaviest view:               lod %u group %u, %u triangles\n", best_lod, best_group,
            (guint) best);
  }

  frame = time_frames (r, off, 15);
  printf ("frame time, shaded %dx%d:   %.2f ms (median of 15)\n", WIDTH, HEIGHT, frame);
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED | MSHED_OVERLAY_WIREFRAME |
                               MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES);
  frame_wire = time_frames (r, off, 9);
  printf ("frame time, + wireframe:     %.2f ms (median of 9)\n", frame_wire);
  mshed_renderer_set_overlays (r, MSHED_OVERLAY_SHADED | MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES);

  t0 = now_ms ();
  mshed_renderer_pick (r, WIDTH, HEIGHT, WIDTH / 2, HEIGHT / 2, &pick);
  pick_ms = now_ms () - t0;
  printf ("pick at the centre:          %.2f ms (%s)\n", pick_ms, pick.hit ? "hit" : "miss");

  /* Single-vertex edits: change the bytes, report the vertex, upload. */
  res3 = mshed_model_find_resource (model, 3);
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      guint v = (i * 7919u) % n_vertices;
      guint8 *data = mshed_nres_entry_make_mutable (nres, (guint) res3);

      mshed_write_f32 (data + 12 * (gsize) v, mshed_read_f32 (data + 12 * (gsize) v) + 0.01f);
      glFinish ();
      t0 = now_ms ();
      mshed_renderer_vertices_changed (r, v, 1);
      mshed_renderer_prepare (r);
      glFinish ();
      edits[i] = now_ms () - t0;
      mshed_renderer_get_stats (r, &stats);
      g_assert_cmpuint (stats.upload_bytes, ==, 32);
    }
  printf ("upload after 1-vertex edit:  %.3f ms (median of %u, %u bytes)\n",
          bench_median (edits, G_N_ELEMENTS (edits)), (guint) G_N_ELEMENTS (edits), 32);

  glFinish ();
  t0 = now_ms ();
  mshed_renderer_model_changed (r);
  mshed_renderer_prepare (r);
  glFinish ();
  full_upload = now_ms () - t0;
  mshed_renderer_get_stats (r, &stats);
  printf ("full rebuild + upload:       %.1f ms (%zu bytes)\n", full_upload, stats.upload_bytes);
  printf ("frame after the edits:       %.2f ms\n", time_frames (r, off, 3));

  mshed_renderer_get_stats (r, &stats);
  g_assert_cmpuint (stats.n_gl_errors, ==, 0);
  mshed_renderer_unrealize (r);
  mshed_renderer_free (r);

  /* the largest generated body, skinned on the GPU and on the CPU */
  {
    MshedDfmGenParams params;
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(MshedDfm) dfm = NULL;
    MshedDfmLevel level;

    bench_largest_body (&params);
    bytes = mshed_dfm_generate_bytes (&params);
    dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
    g_assert (dfm != NULL);
    mshed_dfm_get_level (dfm, 0, &level);
    printf ("DFM body:                    %u points, %u elements, %u bones\n", level.n_points,
            level.n_elements, mshed_dfm_get_n_bones (dfm));
    bench_dfm (off, dfm, TRUE, TRUE);
    bench_dfm (off, dfm, TRUE, FALSE);
    bench_dfm (off, dfm, FALSE, FALSE);
  }
  return 0;
}
