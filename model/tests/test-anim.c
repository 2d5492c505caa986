/* test-anim.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Node poses (docs/msh.md §7) against hand-computed values: the frame index examples of §7.1, key
 * selection through hdr2/hdr3/Res19 with every out-of-range case, sampling and the runtime's
 * interpolation, both rotation conventions and the hierarchy.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-model.h"

#define C45 (23170.0f / 32767.0f)   /* cos 45° as quantised: 0.70711386 */

static void
assert_vec (const float *got,
            const float *want,
            guint        n,
            float        tol)
{
  for (guint i = 0; i < n; i++)
    if (!(fabsf (got[i] - want[i]) <= tol))
      g_error ("component %u: got %.7g, want %.7g (tolerance %g)", i, got[i], want[i], tol);
}

static void
transform (const float m[16],
           const float v[3],
           float       out[3])
{
  for (guint r = 0; r < 3; r++)
    out[r] = m[0 + r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r];
}

/* Model builder -------------------------------------------------------------------------- */

typedef struct {
  float  pos[3];
  float  time;
  gint16 q[4];   /* stored x, y, z, w */
} Key;

/* Nodes as (parent, hdr2, hdr3) triples; the slot words are all 0xFFFF. */
static MshedModel *
build_model (const guint16 *hdr,
             guint          n_nodes,
             const Key     *keys,
             guint          n_keys,
             const guint16 *map,
             guint          n_words,
             guint32        frame_count)
{
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autofree guint8 *nodes = g_malloc0 (38 * (gsize) MAX (n_nodes, 1));
  g_autofree guint8 *res8 = g_malloc0 (24 * (gsize) MAX (n_keys, 1));
  g_autofree guint8 *res19 = g_malloc0 (2 * (gsize) MAX (n_words, 1));
  guint8 res2[140] = { 0 };
  g_autoptr(GError) error = NULL;
  MshedModel *model;

  for (guint i = 0; i < n_nodes; i++)
    {
      guint8 *r = nodes + 38 * i;

      memset (r, 0xFF, 38);
      mshed_write_u16 (r + 0, 0);
      mshed_write_u16 (r + 2, hdr[3 * i + 0]);
      mshed_write_u16 (r + 4, hdr[3 * i + 1]);
      mshed_write_u16 (r + 6, hdr[3 * i + 2]);
    }
  for (guint i = 0; i < n_keys; i++)
    {
      guint8 *r = res8 + 24 * i;

      for (guint k = 0; k < 3; k++)
        mshed_write_f32 (r + 4 * k, keys[i].pos[k]);
      mshed_write_f32 (r + 12, keys[i].time);
      for (guint k = 0; k < 4; k++)
        mshed_write_u16 (r + 16 + 2 * k, (guint16) keys[i].q[k]);
    }
  for (guint i = 0; i < n_words; i++)
    mshed_write_u16 (res19 + 2 * i, map[i]);

  mshed_nres_append_entry (nres, 1, n_nodes, 0, 38, NULL, nodes, 38 * (gsize) n_nodes);
  mshed_nres_append_entry (nres, 2, 0, 0, 68, NULL, res2, sizeof res2);
  mshed_nres_append_entry (nres, 3, 0, 0, 12, NULL, NULL, 0);
  mshed_nres_append_entry (nres, 6, 0, 0, 2, NULL, NULL, 0);
  mshed_nres_append_entry (nres, 13, 0, 0, 20, NULL, NULL, 0);
  mshed_nres_append_entry (nres, 8, n_keys, 0, 4, NULL, res8, 24 * (gsize) n_keys);
  mshed_nres_append_entry (nres, 19, n_words, frame_count, 2, NULL, res19, 2 * (gsize) n_words);

  model = mshed_model_new (nres, MSHED_MODE_TOLERANT, diags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

/* Two nodes, frameCount 4 (§7.7 canonical layout):
 *   node 0: keys 0..2 at times 0, 1, 3; identity, 90° and 180° about z; map block at 0
 *   node 1: child of node 0, static key 3 at (1, 2, 3), identity */
static const Key anim_keys[] = {
  { { 0, 0, 0 }, 0.0f, { 0, 0, 0, 32767 } },
  { { 10, 0, 0 }, 1.0f, { 0, 0, 23170, 23170 } },
  { { 10, 20, 0 }, 3.0f, { 0, 0, 32767, 0 } },
  { { 1, 2, 3 }, 0.0f, { 0, 0, 0, 32767 } },
};
/* frame 0 -> key 0 (0 <= 0 < 1); 1, 2 -> key 1 (1 <= f < 3); 3 >= time(end) -> 2 (fallback) */
static const guint16 anim_map[] = { 0, 1, 1, 2 };
static const guint16 anim_hdr[] = {
  MSHED_NONE, 0, 2,
  0, MSHED_NONE, 3,
};

static MshedModel *
build_anim (void)
{
  return build_model (anim_hdr, 2, anim_keys, G_N_ELEMENTS (anim_keys),
                      anim_map, G_N_ELEMENTS (anim_map), 4);
}

/* Tests ---------------------------------------------------------------------------------- */

static void
test_frame_index (void)
{
  /* The examples of §7.1, then halves (to even), zero and negatives. */
  g_assert_cmpint (mshed_anim_frame_index (1.0f), ==, 0);
  g_assert_cmpint (mshed_anim_frame_index (2.0f), ==, 2);
  g_assert_cmpint (mshed_anim_frame_index (3.0f), ==, 2);
  g_assert_cmpint (mshed_anim_frame_index (2.7f), ==, 2);
  g_assert_cmpint (mshed_anim_frame_index (4.0f), ==, 4);
  g_assert_cmpint (mshed_anim_frame_index (5.0f), ==, 4);
  g_assert_cmpint (mshed_anim_frame_index (0.0f), ==, 0);
  g_assert_cmpint (mshed_anim_frame_index (0.5f), ==, 0);
  g_assert_cmpint (mshed_anim_frame_index (1.6f), ==, 1);
  g_assert_cmpint (mshed_anim_frame_index (1.4f), ==, 1);
  g_assert_cmpint (mshed_anim_frame_index (-1.0f), ==, -2);
  g_assert_cmpint (mshed_anim_frame_index (NAN), ==, G_MININT32);
  g_assert_cmpint (mshed_anim_frame_index (1e30f), ==, G_MININT32);
}

static void
test_quat_decode (void)
{
  const gint16 stored[4] = { 1, -2, 3, 32767 };   /* x, y, z, w */
  float q[4];

  mshed_quat_from_stored (stored, q);
  g_assert_cmpfloat (q[0], ==, 1.0f);
  g_assert_cmpfloat (q[1], ==, 1.0f / 32767.0f);
  g_assert_cmpfloat (q[2], ==, -2.0f / 32767.0f);
  g_assert_cmpfloat (q[3], ==, 3.0f / 32767.0f);
}

static void
test_quat_interp (void)
{
  const float id[4] = { 1, 0, 0, 0 };
  const float z90[4] = { C45, 0, 0, C45 };
  const float z90neg[4] = { -C45, 0, 0, -C45 };
  const float half[4] = { 0.5f, 0, 0, 0 };
  /* cos/sin 22.5° from the quantised endpoints (unit up to 1e-5) */
  const float z45[4] = { 0.9238795f, 0, 0, 0.3826834f };
  float out[4];

  mshed_quat_interp (id, z90, 0.5f, out);
  assert_vec (out, z45, 4, 2e-5f);

  /* Negative dot: q1 is flipped, giving the same rotation. */
  mshed_quat_interp (id, z90neg, 0.5f, out);
  assert_vec (out, z45, 4, 2e-5f);

  /* Equal quaternions take the linear branch (1 - d <= 9.9999997e-6) and stay exact. */
  mshed_quat_interp (z90, z90, 0.25f, out);
  assert_vec (out, z90, 4, 0.0f);

  /* Linear branch just inside the threshold: d = 1 - 2^-17. */
  {
    const float q1[4] = { 1.0f - 1.0f / 131072.0f, 0, 0, 0 };

    mshed_quat_interp (id, q1, 0.5f, out);
    g_assert_cmpfloat (out[0], ==, 0.5f * 1.0f + 0.5f * q1[0]);
  }

  /* Not renormalised: (1,0,0,0) and (0.5,0,0,0) at a = 0.5 (th = 60°): both weights are
   * sin 30° / sin 60° = 0.57735, so w = 0.57735 * 1.5 = 0.8660254. */
  mshed_quat_interp (id, half, 0.5f, out);
  g_assert_cmpfloat_with_epsilon (out[0], 0.8660254f, 1e-5f);
}

static void
test_pose_matrix (void)
{
  const float z90[4] = { C45, 0, 0, C45 };
  const float zero[4] = { 0, 0, 0, 0 };
  const float t[3] = { 5, 6, 7 };
  const float x[3] = { 1, 0, 0 };
  float m[16], v[3];

  /* fparkan HEAD: v -> R(q) v + t: x turns to +y. */
  mshed_pose_matrix (z90, t, MSHED_ROTATION_FPARKAN, TRUE, m);
  transform (m, x, v);
  assert_vec (v, (const float[]) { 5, 7, 7 }, 3, 1e-6f);

  /* Literal runtime matrix: R(q)^T, x turns to -y. */
  mshed_pose_matrix (z90, t, MSHED_ROTATION_RUNTIME, TRUE, m);
  transform (m, x, v);
  assert_vec (v, (const float[]) { 5, 5, 7 }, 3, 1e-6f);
  /* Its 3x3 block is the runtime's m[0..10] read row-major: m[1] = 2(xy + wz) lands in the
   * first row, second column, i.e. column-major index 4. */
  g_assert_cmpfloat_with_epsilon (m[4], 1.0f, 1e-6f);

  /* Unnormalised: 2 * C45^2 = 1.0000200 reaches the matrix as is. */
  mshed_pose_matrix (z90, t, MSHED_ROTATION_FPARKAN, FALSE, m);
  g_assert_cmpfloat_with_epsilon (m[1], 1.00002f, 1e-6f);
  g_assert_cmpfloat_with_epsilon (m[0], -2.0035e-5f, 3e-7f);

  /* All-zero quaternion = identity rotation (with and without normalisation). */
  mshed_pose_matrix (zero, t, MSHED_ROTATION_FPARKAN, FALSE, m);
  transform (m, x, v);
  assert_vec (v, (const float[]) { 6, 6, 7 }, 3, 0.0f);
  mshed_pose_matrix (zero, t, MSHED_ROTATION_RUNTIME, TRUE, m);
  transform (m, x, v);
  assert_vec (v, (const float[]) { 6, 6, 7 }, 3, 0.0f);
}

static void
test_select_key (void)
{
  g_autoptr(MshedModel) model = build_anim ();
  MshedKeyChoice c;

  /* t = 0: frame 0 -> map word 0 = key 0 */
  mshed_anim_select_key (model, 0, 0.0f, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_MAP);
  g_assert_cmpuint (c.key, ==, 0);
  g_assert_cmpuint (c.next_key, ==, 1);
  g_assert_cmpint (c.issues, ==, 0);

  /* t = 2: frame 2 -> key 1 */
  mshed_anim_select_key (model, 0, 2.0f, &c);
  g_assert_cmpint (c.frame, ==, 2);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_MAP);
  g_assert_cmpuint (c.key, ==, 1);

  /* t = 3.6: frame 3 -> word 2 >= hdr3 -> fallback 2 */
  mshed_anim_select_key (model, 0, 3.6f, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_FALLBACK);
  g_assert_cmpuint (c.key, ==, 2);

  /* t = 4: frame 4 >= frameCount; t = -1: frame -2 wraps; both fall back */
  mshed_anim_select_key (model, 0, 4.0f, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_FALLBACK);
  g_assert_cmpuint (c.key, ==, 2);
  mshed_anim_select_key (model, 0, -1.0f, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_FALLBACK);
  g_assert_cmpuint (c.key, ==, 2);
  g_assert_cmpint (c.issues, ==, 0);

  /* static node: hdr2 = 0xFFFF */
  mshed_anim_select_key (model, 1, 1.0f, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_FALLBACK);
  g_assert_cmpuint (c.key, ==, 3);

  /* no such node */
  mshed_anim_select_key (model, 2, 1.0f, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_NONE);
  g_assert_cmpint (c.issues, ==, MSHED_ANIM_ISSUE_NO_NODE);
}

static void
test_select_key_out_of_range (void)
{
  /* node 0: map block at 2 of a 4-word Res19, frameCount 4: frames 2, 3 run past the end.
   * node 1: hdr3 = 50 past 4 keys; map word 3 -> key 3, key + 1 = 4 past the end.
   * node 2: hdr3 past the end and no map: nothing usable. */
  static const guint16 hdr[] = {
    MSHED_NONE, 2, 2,
    MSHED_NONE, 0, 50,
    MSHED_NONE, MSHED_NONE, 7,
  };
  static const guint16 map[] = { 3, 3, 0, 1 };
  g_autoptr(MshedModel) model = build_model (hdr, 3, anim_keys, 4, map, 4, 4);
  MshedKeyChoice c;
  MshedPose pose;

  mshed_anim_select_key (model, 0, 1.0f, &c);       /* frame 0 -> word 2 = 0 */
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_MAP);
  g_assert_cmpuint (c.key, ==, 0);
  mshed_anim_select_key (model, 0, 3.0f, &c);       /* frame 2 -> word 4: past the end */
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_FALLBACK);
  g_assert_cmpuint (c.key, ==, 2);
  g_assert_cmpint (c.issues, ==, MSHED_ANIM_ISSUE_MAP_RANGE);

  mshed_anim_select_key (model, 1, 1.0f, &c);       /* key 3 < 50, but key 4 does not exist */
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_NONE);
  g_assert_cmpint (c.issues, ==, MSHED_ANIM_ISSUE_NEXT_KEY_RANGE | MSHED_ANIM_ISSUE_FALLBACK_RANGE);
  g_assert_false (mshed_anim_sample_node (model, 1, 1.0f, &pose, &c));
  assert_vec (pose.q, (const float[]) { 1, 0, 0, 0 }, 4, 0.0f);
  assert_vec (pose.pos, (const float[]) { 0, 0, 0 }, 3, 0.0f);

  mshed_anim_select_key (model, 2, 0.0f, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_NONE);
  g_assert_cmpint (c.issues, ==, MSHED_ANIM_ISSUE_FALLBACK_RANGE);
}

static void
test_sample (void)
{
  g_autoptr(MshedModel) model = build_anim ();
  MshedKeyChoice c;
  MshedPose p;

  /* t = 0 equals key 0's time exactly */
  g_assert_true (mshed_anim_sample_node (model, 0, 0.0f, &p, &c));
  assert_vec (p.pos, (const float[]) { 0, 0, 0 }, 3, 0.0f);
  assert_vec (p.q, (const float[]) { 1, 0, 0, 0 }, 4, 0.0f);
  g_assert_cmpfloat (c.alpha, ==, 0.0f);

  /* t = 1: frame 0 -> key 0, but t equals key 1's time: key 1 exactly (stored q order
   * x, y, z, w = 0, 0, 23170, 23170 -> w, x, y, z) */
  mshed_anim_sample_node (model, 0, 1.0f, &p, &c);
  g_assert_cmpuint (c.key, ==, 1);
  assert_vec (p.pos, (const float[]) { 10, 0, 0 }, 3, 0.0f);
  assert_vec (p.q, (const float[]) { C45, 0, 0, C45 }, 4, 0.0f);

  /* t = 0.5: halfway from key 0 to key 1: 45° about z */
  mshed_anim_sample_node (model, 0, 0.5f, &p, &c);
  g_assert_cmpfloat (c.alpha, ==, 0.5f);
  assert_vec (p.pos, (const float[]) { 5, 0, 0 }, 3, 0.0f);
  assert_vec (p.q, (const float[]) { 0.9238795f, 0, 0, 0.3826834f }, 4, 2e-5f);

  /* t = 2: frame 2 -> key 1 (time 1) .. key 2 (time 3), a = 0.5: 135° about z */
  mshed_anim_sample_node (model, 0, 2.0f, &p, &c);
  g_assert_cmpint (c.source, ==, MSHED_KEY_SOURCE_MAP);
  g_assert_cmpfloat (c.alpha, ==, 0.5f);
  assert_vec (p.pos, (const float[]) { 10, 10, 0 }, 3, 0.0f);
  assert_vec (p.q, (const float[]) { 0.3826865f, 0, 0, 0.9238814f }, 4, 1e-5f);

  /* t = 3: frame 2 -> key 1, t equals key 2's time */
  mshed_anim_sample_node (model, 0, 3.0f, &p, &c);
  g_assert_cmpuint (c.key, ==, 2);
  assert_vec (p.pos, (const float[]) { 10, 20, 0 }, 3, 0.0f);
  assert_vec (p.q, (const float[]) { 0, 0, 0, 1 }, 4, 0.0f);

  /* t = 2.25: a = 0.625 (extrapolation past a segment is allowed too, see below) */
  mshed_anim_sample_node (model, 0, 2.25f, &p, &c);
  g_assert_cmpfloat (c.alpha, ==, 0.625f);
  assert_vec (p.pos, (const float[]) { 10, 12.5f, 0 }, 3, 0.0f);

  /* t = 1.45: frame lrint(0.95) = 1 -> key 1 (time 1) .. key 2: a = (1.45 - 1) / 2 */
  mshed_anim_sample_node (model, 0, 1.45f, &p, &c);
  g_assert_cmpuint (c.key, ==, 1);
  g_assert_cmpfloat (c.alpha, ==, (1.45f - 1.0f) / 2.0f);

  /* t = 0.6: frame lrint(0.1) = 0 -> key 0 .. key 1 */
  mshed_anim_sample_node (model, 0, 0.6f, &p, &c);
  g_assert_cmpuint (c.key, ==, 0);
  assert_vec (p.pos, (const float[]) { 6, 0, 0 }, 3, 1e-5f);
}

static void
test_sample_bad_time (void)
{
  /* Keys 0 and 1 share time 0: t = 0.25 (frame 0 -> key 0) neither equals a key time nor
   * gives a finite factor: the pose is key 0. */
  static const Key keys[] = {
    { { 1, 1, 1 }, 0.0f, { 0, 0, 0, 32767 } },
    { { 9, 9, 9 }, 0.0f, { 0, 0, 32767, 0 } },
  };
  static const guint16 hdr[] = { MSHED_NONE, 0, 1 };
  static const guint16 map[] = { 0, 0 };
  g_autoptr(MshedModel) model = build_model (hdr, 1, keys, 2, map, 2, 2);
  MshedKeyChoice c;
  MshedPose p;

  g_assert_true (mshed_anim_sample_node (model, 0, 0.25f, &p, &c));
  g_assert_cmpint (c.issues, ==, MSHED_ANIM_ISSUE_BAD_TIME);
  assert_vec (p.pos, (const float[]) { 1, 1, 1 }, 3, 0.0f);
}

static void
test_world (void)
{
  g_autoptr(MshedModel) model = build_anim ();
  const float origin[3] = { 0, 0, 0 };
  MshedPoseOptions opts;
  MshedAnimIssue issues[2];
  float world[32], v[3];

  /* t = 1: node 0 = (90° about z, (10, 0, 0)); node 1 local = (identity, (1, 2, 3)).
   * fparkan: p1 = (10, 0, 0) + R(90z) (1, 2, 3) = (8, 1, 3). */
  mshed_pose_options_init (&opts);
  g_assert_cmpuint (mshed_anim_compute_world (model, 1.0f, &opts, world, 2, issues), ==, 2);
  g_assert_cmpint (issues[0], ==, 0);
  g_assert_cmpint (issues[1], ==, 0);
  transform (world, origin, v);
  assert_vec (v, (const float[]) { 10, 0, 0 }, 3, 1e-5f);
  transform (world + 16, origin, v);
  assert_vec (v, (const float[]) { 8, 1, 3 }, 3, 1e-5f);

  /* Literal runtime: R^T rotates by -90°: (1, 2, 3) -> (2, -1, 3), so (12, -1, 3). */
  opts.convention = MSHED_ROTATION_RUNTIME;
  mshed_anim_compute_world (model, 1.0f, &opts, world, 2, NULL);
  transform (world + 16, origin, v);
  assert_vec (v, (const float[]) { 12, -1, 3 }, 3, 1e-5f);

  /* t = 3 (180° about z, (10, 20, 0)): the point (1, 0, 0) of node 1 lands at
   * (10, 20, 0) + Rz180 (2, 2, 3) = (8, 18, 3) in both conventions. */
  opts.convention = MSHED_ROTATION_FPARKAN;
  opts.normalise = FALSE;
  mshed_anim_compute_world (model, 3.0f, &opts, world, 2, NULL);
  transform (world + 16, (const float[]) { 1, 0, 0 }, v);
  assert_vec (v, (const float[]) { 8, 18, 3 }, 3, 1e-5f);

  /* Fewer output slots than nodes: only those are written, the count is still 2. */
  g_assert_cmpuint (mshed_anim_compute_world (model, 0.0f, NULL, world, 1, NULL), ==, 2);
}

static void
translation (float m[16],
             float x,
             float y,
             float z)
{
  mshed_mat4_identity (m);
  m[12] = x;
  m[13] = y;
  m[14] = z;
}

static void
test_hierarchy (void)
{
  float local[4 * 16], world[4 * 16];
  MshedAnimIssue issues[4];

  translation (local + 0, 1, 0, 0);
  translation (local + 16, 0, 10, 0);
  translation (local + 32, 0, 0, 100);
  translation (local + 48, 1000, 0, 0);

  /* chain 0 <- 1 <- 2, and 3 under 0 */
  {
    const guint16 parents[] = { MSHED_NONE, 0, 1, 0 };

    mshed_anim_compose_hierarchy (local, parents, 4, world, issues);
    assert_vec (world + 12, (const float[]) { 1, 0, 0 }, 3, 0.0f);
    assert_vec (world + 16 + 12, (const float[]) { 1, 10, 0 }, 3, 0.0f);
    assert_vec (world + 32 + 12, (const float[]) { 1, 10, 100 }, 3, 0.0f);
    assert_vec (world + 48 + 12, (const float[]) { 1001, 0, 0 }, 3, 0.0f);
    for (guint i = 0; i < 4; i++)
      g_assert_cmpint (issues[i], ==, 0);
  }

  /* Parent composition order: G = G_parent * L (child's local map applied first).
   * Parent rotates 90° about z; the child's translation (0, 10, 0) turns to (-10, 0, 0). */
  {
    const float z90[4] = { (float) G_SQRT2 / 2, 0, 0, (float) G_SQRT2 / 2 };
    const float t0[3] = { 1, 0, 0 };
    const guint16 parents[] = { MSHED_NONE, 0 };
    float l[32], w[32];

    mshed_pose_matrix (z90, t0, MSHED_ROTATION_FPARKAN, TRUE, l);
    translation (l + 16, 0, 10, 0);
    mshed_anim_compose_hierarchy (l, parents, 2, w, NULL);
    assert_vec (w + 16 + 12, (const float[]) { -9, 0, 0 }, 3, 1e-5f);
  }

  /* out of range, self-parent, a two-node cycle and a forward parent */
  {
    const guint16 parents[] = { 9, 1, 3, 2 };

    mshed_anim_compose_hierarchy (local, parents, 4, world, issues);
    g_assert_cmpint (issues[0], ==, MSHED_ANIM_ISSUE_PARENT_RANGE);
    g_assert_cmpint (issues[1], ==, MSHED_ANIM_ISSUE_PARENT_CYCLE);
    /* 2 -> 3 -> 2: walking from 2, node 3's link closes the loop: 3 is a root, 2 its child */
    g_assert_cmpint (issues[3], ==, MSHED_ANIM_ISSUE_PARENT_CYCLE);
    g_assert_cmpint (issues[2], ==, MSHED_ANIM_ISSUE_PARENT_FORWARD);
    assert_vec (world + 12, (const float[]) { 1, 0, 0 }, 3, 0.0f);
    assert_vec (world + 16 + 12, (const float[]) { 0, 10, 0 }, 3, 0.0f);
    assert_vec (world + 48 + 12, (const float[]) { 1000, 0, 0 }, 3, 0.0f);
    assert_vec (world + 32 + 12, (const float[]) { 1000, 0, 100 }, 3, 0.0f);
  }

  /* forward parent without a cycle: 0's parent is 1 (a root) */
  {
    const guint16 parents[] = { 1, MSHED_NONE };

    mshed_anim_compose_hierarchy (local, parents, 2, world, issues);
    g_assert_cmpint (issues[0], ==, MSHED_ANIM_ISSUE_PARENT_FORWARD);
    g_assert_cmpint (issues[1], ==, 0);
    assert_vec (world + 12, (const float[]) { 1, 10, 0 }, 3, 0.0f);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/anim/frame-index", test_frame_index);
  g_test_add_func ("/model/anim/quat-decode", test_quat_decode);
  g_test_add_func ("/model/anim/quat-interp", test_quat_interp);
  g_test_add_func ("/model/anim/pose-matrix", test_pose_matrix);
  g_test_add_func ("/model/anim/select-key", test_select_key);
  g_test_add_func ("/model/anim/select-key-out-of-range", test_select_key_out_of_range);
  g_test_add_func ("/model/anim/sample", test_sample);
  g_test_add_func ("/model/anim/sample-bad-time", test_sample_bad_time);
  g_test_add_func ("/model/anim/world", test_world);
  g_test_add_func ("/model/anim/hierarchy", test_hierarchy);

  return g_test_run ();
}
