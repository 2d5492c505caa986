/* test-dfm-pose.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The skeleton and pose of a deformable model (mshed-dfm-pose.h) on a hand-made chain
 * Root → Arm → Hand (Rev joints about +Z) with a Sphere, a Fix and a Loose joint beside it:
 * every expected position is worked out by hand in the comments; the bind pose of generated
 * heads, bodies and hands leaves every point where it is stored (docs/dfm.md §6.3).
 */
#include "config.h"

#include <math.h>

#include "dfm-test-util.h"
#include "mshed-dfm-pose.h"
#include "mshed-render-scene.h"

#define HALF_PI ((float) G_PI_2)

static void
put_f32s (guint8      *rec,
          guint        offset,
          const float *v,
          guint        n)
{
  for (guint i = 0; i < n; i++)
    mshed_write_f32 (rec + offset + 4 * i, v[i]);
}

/* a Cons record of @size bytes: names, the position at +128, identity rotation at @rot */
static void
record (GByteArray *a,
        guint       size,
        const char *parent,
        const char *child,
        const float position[3],
        guint       rot)
{
  static const float ident[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  guint at = a->len;

  g_byte_array_set_size (a, at + size);
  memset (a->data + at, 0, size);
  memcpy (a->data + at, parent, strlen (parent));
  memcpy (a->data + at + 64, child, strlen (child));
  put_f32s (a->data + at, 128, position, 3);
  put_f32s (a->data + at, rot, ident, 9);
}

/* a bone directory whose bind is the translation @t: Bone to root = [I | −t] */
static void
add_bone (MshedUtf   *utf,
          const char *dir,
          float       x,
          float       y,
          float       z)
{
  MshedUtfNode *node = t_dir (utf, mshed_utf_get_root (utf), dir);
  float btr[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, -x, -y, -z };

  t_f32s (utf, node, "Bone to root", btr, 12);
}

static void
add_part (MshedUtf     *utf,
          MshedUtfNode *cmpnd,
          const char   *dir,
          const char   *object,
          const char   *file,
          guint32       index)
{
  MshedUtfNode *part = t_dir (utf, cmpnd, dir);

  t_text (utf, part, "Object name", object);
  t_text (utf, part, "File name", file);
  t_u32s (utf, part, "Index", &index, 1);
}

/* Points:  0 (2,0,0) Arm 1    1 (2,0,0) Arm ½ Root ½    2 (3,0,0) Hand 1
 *          3 (0,2,0) Head 1   4 (0,0,1) Free 1          5 (1,1,1) no influence
 * Bones: Root (bind I), Arm (T(1,0,0)), Hand (T(2,0,0)), Head (T(0,1,0)), Hat (I), Free (I).
 * Cons: Rev Root→Arm at (1,0,0) about +Z in [−π/2, π/2]; Rev Arm→Hand at (1,0,0) in Arm,
 * axis +X turned to +Z by its rotation, range 0, 0 (none: free); Sphere Root→Head at (0,1,0)
 * with x in [−0.5, 0.5], y and z none; Fix Root→Hat; Loose Root→Free. */
typedef struct {
  guint32 first[6];
  guint32 count[6];
  guint32 ids[16];
  float   weights[16];
  guint   n;         /* length of the chains */
} Skin;

static const Skin chain_skin = {
  { 0, 1, 3, 4, 5, 6 }, { 1, 2, 1, 1, 1, 0 }, { 1, 1, 0, 2, 3, 5 }, { 1, 0.5f, 0.5f, 1, 1, 1 }, 6
};

static MshedDfm *
build_chain_skinned (const Skin *skin)
{
  static const float points[] = { 2, 0, 0, 2, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 1, 1, 1 };
  static const float normals[] = { 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1 };
  static const guint32 elems[] = { 0, 1, 2, 3, 4, 5 };
  static const float uv0[] = { 0, 0 };
  static const guint32 uv_idx[] = { 0, 0, 0, 0, 0, 0 };
  static const float one = 1.0f, zero3[3] = { 0, 0, 0 };
  static const float at_x[3] = { 1, 0, 0 }, at_y[3] = { 0, 1, 0 }, z_axis[3] = { 0, 0, 1 };
  /* turns +X into +Z: rows (0 0 −1), (0 1 0), (1 0 0) */
  static const float x_to_z[9] = { 0, 0, -1, 0, 1, 0, 1, 0, 0 };
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  g_autoptr(GByteArray) rev = g_byte_array_new ();
  g_autoptr(GByteArray) sphere = g_byte_array_new ();
  g_autoptr(GByteArray) fix = g_byte_array_new ();
  g_autoptr(GByteArray) loose = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MshedUtfNode *root = mshed_utf_get_root (utf), *multi, *mesh, *geo, *cmpnd, *cons;
  MshedDfm *dfm;
  float limits[2] = { -HALF_PI, HALF_PI };
  float sphere_limits[6] = { -0.5f, 0.5f, 0, 0, 0, 0 };

  multi = t_dir (utf, root, "MultiLevel");
  t_f32s (utf, multi, "Fractions", &one, 1);
  mesh = t_dir (utf, multi, "Mesh0");
  geo = t_dir (utf, mesh, "Geometry");
  t_u32s (utf, geo, "Point_indices", elems, 6);
  t_u32s (utf, geo, "UV0_indices", uv_idx, 6);
  t_f32s (utf, geo, "Points", points, 18);
  t_u32s (utf, geo, "Point_bone_first", skin->first, 6);
  t_u32s (utf, geo, "Point_bone_count", skin->count, 6);
  t_u32s (utf, geo, "Bone_id_chain", skin->ids, skin->n);
  t_f32s (utf, geo, "Bone_weight_chain", skin->weights, skin->n);
  t_f32s (utf, geo, "Vertex_normals", normals, 18);
  t_f32s (utf, geo, "UV0", uv0, 2);
  t_text (utf, t_dir (utf, root, "Skeleton"), "Name", "chain.cmp");

  cmpnd = t_dir (utf, root, "Cmpnd");
  t_f32s (utf, cmpnd, "Scale", &one, 1);
  add_part (utf, cmpnd, "Root", "Root", "Root01.3db", 0);
  add_part (utf, cmpnd, "Part_Arm", "Arm", "Arm01.3db", 1);
  add_part (utf, cmpnd, "Part_Hand", "Hand", "Hand01.3db", 2);
  add_part (utf, cmpnd, "Part_Head", "Head", "Head01.3db", 3);
  add_part (utf, cmpnd, "Part_Hat", "Hat", "Hat01.3db", 4);
  add_part (utf, cmpnd, "Part_Free", "Free", "Free01.3db", 5);
  cons = t_dir (utf, cmpnd, "Cons");

  record (rev, 208, "Root", "Arm", at_x, 152);
  put_f32s (rev->data, 188, z_axis, 3);
  put_f32s (rev->data, 200, limits, 2);
  record (rev, 208, "Arm", "Hand", at_x, 152);
  put_f32s (rev->data + 208, 152, x_to_z, 9);
  put_f32s (rev->data + 208, 188, at_x, 3);
  t_file (utf, cons, "Rev", rev->data, rev->len);
  record (sphere, 212, "Root", "Head", at_y, 152);
  put_f32s (sphere->data, 188, sphere_limits, 6);
  t_file (utf, cons, "Sphere", sphere->data, sphere->len);
  record (fix, 176, "Root", "Hat", zero3, 140);
  t_file (utf, cons, "Fix", fix->data, fix->len);
  record (loose, 176, "Root", "Free", zero3, 140);
  t_file (utf, cons, "Loose", loose->data, loose->len);

  add_bone (utf, "Root01.3db", 0, 0, 0);
  add_bone (utf, "Arm01.3db", 1, 0, 0);
  add_bone (utf, "Hand01.3db", 2, 0, 0);
  add_bone (utf, "Head01.3db", 0, 1, 0);
  add_bone (utf, "Hat01.3db", 0, 0, 0);
  add_bone (utf, "Free01.3db", 0, 0, 0);

  bytes = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);
  g_assert_no_error (error);
  return dfm;
}

static MshedDfm *
build_chain (void)
{
  return build_chain_skinned (&chain_skin);
}

static void
assert_point (MshedDfmPose   *pose,
              const MshedDfm *dfm,
              guint           point,
              float           x,
              float           y,
              float           z)
{
  float p[3], n[3];

  g_assert_true (mshed_dfm_pose_skin_point (pose, dfm, 0, point, p, n));
  if (fabsf (p[0] - x) > 1e-5f || fabsf (p[1] - y) > 1e-5f || fabsf (p[2] - z) > 1e-5f)
    g_error ("point %u at (%g, %g, %g), expected (%g, %g, %g)", point, p[0], p[1], p[2], x, y, z);
}

static void
assert_normal (MshedDfmPose   *pose,
               const MshedDfm *dfm,
               guint           point,
               float           x,
               float           y,
               float           z)
{
  float p[3], n[3];

  g_assert_true (mshed_dfm_pose_skin_point (pose, dfm, 0, point, p, n));
  if (fabsf (n[0] - x) > 1e-5f || fabsf (n[1] - y) > 1e-5f || fabsf (n[2] - z) > 1e-5f)
    g_error ("normal %u is (%g, %g, %g), expected (%g, %g, %g)", point, n[0], n[1], n[2],
             x, y, z);
}

static void
test_joints (void)
{
  g_autoptr(MshedDfm) dfm = build_chain ();
  MshedDfmPose *pose = mshed_dfm_pose_new (dfm);
  const MshedDfmPoseJoint *j;
  static const struct {
    const char       *name;
    MshedDfmJointKind kind;
    guint             bone, parent, n_dof;
  } want[] = {
    { "Arm", MSHED_DFM_JOINT_REV, 1, 0, 1 },
    { "Hand", MSHED_DFM_JOINT_REV, 2, 1, 1 },
    { "Head", MSHED_DFM_JOINT_SPHERE, 3, 0, 3 },
    { "Hat", MSHED_DFM_JOINT_FIX, 4, 0, 0 },
    { "Free", MSHED_DFM_JOINT_LOOSE, 5, 0, 6 },
  };

  g_assert_cmpuint (mshed_dfm_pose_get_n_bones (pose), ==, 6);
  g_assert_cmpuint (mshed_dfm_pose_get_n_joints (pose), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      gint k = mshed_dfm_pose_find_joint (pose, want[i].name);

      g_assert_cmpint (k, >=, 0);
      j = mshed_dfm_pose_get_joint (pose, (guint) k);
      g_assert_cmpstr (j->name, ==, want[i].name);
      g_assert_cmpint (j->kind, ==, want[i].kind);
      g_assert_cmpuint (j->bone, ==, want[i].bone);
      g_assert_cmpuint (j->parent_bone, ==, want[i].parent);
      g_assert_cmpuint (j->n_dof, ==, want[i].n_dof);
      g_assert_cmpint (mshed_dfm_pose_find_bone_joint (pose, want[i].bone), ==, k);
    }
  g_assert_cmpint (mshed_dfm_pose_find_joint (pose, "arm"), ==,
                   mshed_dfm_pose_find_joint (pose, "Arm"));
  g_assert_cmpint (mshed_dfm_pose_find_joint (pose, "Root"), ==, -1);
  g_assert_cmpint (mshed_dfm_pose_find_bone_joint (pose, 0), ==, -1);
  mshed_dfm_pose_free (pose);
}

static void
test_bind (void)
{
  g_autoptr(MshedDfm) dfm = build_chain ();
  MshedDfmPose *pose = mshed_dfm_pose_new (dfm);
  const float *w;

  g_assert_true (mshed_dfm_pose_is_bind (pose));
  assert_point (pose, dfm, 0, 2, 0, 0);
  assert_point (pose, dfm, 1, 2, 0, 0);
  assert_point (pose, dfm, 2, 3, 0, 0);
  assert_point (pose, dfm, 3, 0, 2, 0);
  assert_point (pose, dfm, 5, 1, 1, 1);
  w = mshed_dfm_pose_get_world (pose, 2);   /* Hand: its bind T(2,0,0) */
  g_assert_cmpfloat_with_epsilon (w[9], 2.0f, 1e-6f);
  g_assert_cmpfloat_with_epsilon (w[0], 1.0f, 1e-6f);
  mshed_dfm_pose_free (pose);
}

static void
test_rev_turn (void)
{
  g_autoptr(MshedDfm) dfm = build_chain ();
  MshedDfmPose *pose = mshed_dfm_pose_new (dfm);
  guint arm = (guint) mshed_dfm_pose_find_joint (pose, "Arm");
  guint hand = (guint) mshed_dfm_pose_find_joint (pose, "Hand");

  /* Arm +90° about +Z at (1,0,0): (2,0,0) → (1,1,0), its normal +X → +Y; half Root, half
   * Arm: ½ (2,0,0) + ½ (1,1,0) = (1.5, 0.5, 0); the Hand follows: (3,0,0) → (1,2,0);
   * Head, Free and the unskinned point stay. */
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, arm, 0, HALF_PI), ==, HALF_PI);
  g_assert_false (mshed_dfm_pose_is_bind (pose));
  assert_point (pose, dfm, 0, 1, 1, 0);
  assert_normal (pose, dfm, 0, 0, 1, 0);
  assert_point (pose, dfm, 1, 1.5f, 0.5f, 0);
  assert_point (pose, dfm, 2, 1, 2, 0);
  assert_point (pose, dfm, 3, 0, 2, 0);
  assert_point (pose, dfm, 4, 0, 0, 1);
  assert_point (pose, dfm, 5, 1, 1, 1);

  /* the Hand another +90° about its axis (+X turned to +Z) at its pivot, Arm (1,0,0) → model
   * (1,1,0) after the Arm's turn: (1,2,0) − (1,1,0) = (0,1,0) → (−1,0,0): the point (0,1,0) */
  mshed_dfm_pose_set_value (pose, hand, 0, HALF_PI);
  assert_point (pose, dfm, 2, 0, 1, 0);
  assert_point (pose, dfm, 0, 1, 1, 0);

  mshed_dfm_pose_reset (pose);
  g_assert_true (mshed_dfm_pose_is_bind (pose));
  assert_point (pose, dfm, 2, 3, 0, 0);
  mshed_dfm_pose_free (pose);
}

static void
test_limits (void)
{
  g_autoptr(MshedDfm) dfm = build_chain ();
  MshedDfmPose *pose = mshed_dfm_pose_new (dfm);
  guint arm = (guint) mshed_dfm_pose_find_joint (pose, "Arm");
  guint hand = (guint) mshed_dfm_pose_find_joint (pose, "Hand");
  guint head = (guint) mshed_dfm_pose_find_joint (pose, "Head");
  guint hat = (guint) mshed_dfm_pose_find_joint (pose, "Hat");
  guint free_ = (guint) mshed_dfm_pose_find_joint (pose, "Free");
  const MshedDfmPoseJoint *j = mshed_dfm_pose_get_joint (pose, arm);

  /* Rev [−π/2, π/2]: 3 rad clamps to π/2, and the point moves as for π/2 */
  g_assert_true (j->dof[0].limited);
  g_assert_cmpint (j->dof[0].kind, ==, MSHED_DFM_DOF_TURN);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, arm, 0, 3.0f), ==, HALF_PI);
  g_assert_cmpfloat (mshed_dfm_pose_get_value (pose, arm, 0), ==, HALF_PI);
  assert_point (pose, dfm, 0, 1, 1, 0);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, arm, 0, -3.0f), ==, -HALF_PI);
  assert_point (pose, dfm, 0, 1, -1, 0);

  /* Rev with the range 0, 0: free within ±π */
  j = mshed_dfm_pose_get_joint (pose, hand);
  g_assert_false (j->dof[0].limited);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, hand, 0, 3.0f), ==, 3.0f);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, hand, 0, 4.0f), ==, (float) G_PI);

  /* Sphere: x in [−0.5, 0.5]; y, z ranges 0, 0: free. Turning x by 0.5 about the parent
   * point (0,1,0) moves the Head's point (0,2,0) to (0, 1 + cos 0.5, sin 0.5). */
  j = mshed_dfm_pose_get_joint (pose, head);
  g_assert_true (j->dof[0].limited);
  g_assert_false (j->dof[1].limited);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, head, 0, 2.0f), ==, 0.5f);
  assert_point (pose, dfm, 3, 0, 1 + cosf (0.5f), sinf (0.5f));
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, head, 0, -2.0f), ==, -0.5f);

  /* Fix: immovable */
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, hat, 0, 1.0f), ==, 0.0f);

  /* Loose: free turns and unbounded slides; a slide of (0, 0, 5) moves (0,0,1) to (0,0,6) */
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, free_, 5, 5.0f), ==, 5.0f);
  assert_point (pose, dfm, 4, 0, 0, 6);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, free_, 5, 1e6f), ==, 1e6f);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, free_, 6, 1.0f), ==, 0.0f);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, 99, 0, 1.0f), ==, 0.0f);
  g_assert_cmpfloat (mshed_dfm_pose_set_value (pose, arm, 0, NAN), ==, 0.0f);
  mshed_dfm_pose_free (pose);
}

static void
test_copy_values (void)
{
  g_autoptr(MshedDfm) dfm = build_chain ();
  MshedDfmPose *a = mshed_dfm_pose_new (dfm);
  MshedDfmPose *b = mshed_dfm_pose_new (dfm);
  guint arm = (guint) mshed_dfm_pose_find_joint (a, "Arm");

  mshed_dfm_pose_set_value (a, arm, 0, 0.25f);
  mshed_dfm_pose_copy_values (b, a);
  g_assert_cmpfloat (mshed_dfm_pose_get_value (b, arm, 0), ==, 0.25f);
  mshed_dfm_pose_free (a);
  mshed_dfm_pose_free (b);
}

/* the bind pose of generated models: every point stays within 1e-5 (docs/dfm.md §6.3) */
static void
test_generated_bind (void)
{
  static const MshedDfmGenKind kinds[] = { MSHED_DFM_GEN_HEAD, MSHED_DFM_GEN_BODY,
                                           MSHED_DFM_GEN_HAND };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      MshedDfmGenParams params;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(MshedDfm) dfm = NULL;
      g_autoptr(GError) error = NULL;
      MshedDfmPose *pose;
      guint moved = 0, n = 0;

      mshed_dfm_gen_params_init (&params, kinds[k], 7 + k);
      bytes = mshed_dfm_generate_bytes (&params);
      dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
      g_assert_no_error (error);
      pose = mshed_dfm_pose_new (dfm);
      g_assert_cmpuint (mshed_dfm_pose_get_n_joints (pose), >, 0);
      for (guint l = 0; l < mshed_dfm_get_n_levels (dfm); l++)
        {
          MshedDfmLevel level;

          g_assert_true (mshed_dfm_get_level (dfm, l, &level));
          for (guint p = 0; p < level.n_points; p++)
            {
              float stored[3], sn[3], pos[3], nrm[3];

              g_assert_true (mshed_dfm_get_point (dfm, l, p, stored, sn));
              g_assert_true (mshed_dfm_pose_skin_point (pose, dfm, l, p, pos, nrm));
              for (guint i = 0; i < 3; i++)
                moved += fabsf (pos[i] - stored[i]) > 1e-5f;
              n++;
            }
        }
      g_assert_cmpuint (n, >, 100);
      g_assert_cmpuint (moved, ==, 0);

      /* and turning the first joint moves some points but not all */
      {
        const MshedDfmPoseJoint *j = mshed_dfm_pose_get_joint (pose, 0);
        guint turned = 0;
        MshedDfmLevel level;

        g_assert_cmpuint (j->n_dof, >=, 3);
        mshed_dfm_pose_set_value (pose, 0, 0, 0.5f);
        mshed_dfm_get_level (dfm, 0, &level);
        for (guint p = 0; p < level.n_points; p++)
          {
            float stored[3], sn[3], pos[3], nrm[3];

            mshed_dfm_get_point (dfm, 0, p, stored, sn);
            mshed_dfm_pose_skin_point (pose, dfm, 0, p, pos, nrm);
            turned += fabsf (pos[0] - stored[0]) + fabsf (pos[1] - stored[1]) +
                      fabsf (pos[2] - stored[2]) > 1e-4f;
          }
        g_assert_cmpuint (turned, >, 0);
        g_assert_cmpuint (turned, <, level.n_points);
      }
      mshed_dfm_pose_free (pose);
    }
}

/* What the GPU skins with (mshed_render_scene_read_bind_vertices): at most four influences
 * per vertex; more are cut to the four largest and scaled to the sum of all; an influence
 * naming no bone uses the identity (matrix 6 here, after the six bones), a non-finite weight
 * is left out, a point without influences has the identity with weight 1. */
static void
test_gpu_influences (void)
{
  /* point 0: six influences; point 1: bone 99 (none) and a NaN weight; point 2: none;
   * points 3-5: one each */
  static const Skin skin = {
    { 0, 6, 11, 11, 12, 13 }, { 6, 5, 0, 1, 1, 1 },
    { 1, 2, 3, 0, 4, 5,   1, 99, 2, 3, 0,   3, 4, 5 },
    { 0.05f, 0.4f, 0.1f, 0.3f, 0.1f, 0.05f,   0.5f, 0.2f, NAN, 0.2f, 0.1f,   1, 1, 1 },
    14
  };
  /* point 0 keeps 0.4 (bone 2), 0.3 (bone 0) and the two 0.1 (bones 3, 4) found first, in
   * the slots they took: bone 4 replaced the first 0.05; scaled by 1 / 0.9 */
  static const guint16 want_joints[3][4] = { { 4, 2, 3, 0 }, { 1, 6, 3, 0 }, { 6, 6, 6, 6 } };
  static const float want_weights[3][4] = { { 0.1f / 0.9f, 0.4f / 0.9f, 0.1f / 0.9f,
                                              0.3f / 0.9f },
                                            { 0.5f, 0.2f, 0.2f, 0.1f }, { 1, 0, 0, 0 } };
  g_autoptr(MshedDfm) dfm = build_chain_skinned (&skin);
  MshedRenderScene *scene = mshed_render_scene_new_for_dfm (dfm);
  float rows[12 * 7];

  g_assert_cmpuint (mshed_render_scene_get_n_skin_matrices (scene), ==, 7);
  g_assert_cmpuint (mshed_render_scene_get_n_cut_points (scene), ==, 1);
  for (guint v = 0; v < 3; v++)
    {
      guint16 joints[4];
      float weights[4], p[3], n[3];

      mshed_render_scene_read_bind_vertices (scene, v, 1, p, n, joints, weights);
      g_assert_cmpfloat (p[0], ==, v == 2 ? 3.0f : 2.0f);
      g_assert_cmpfloat (n[0], ==, 1.0f);
      for (guint k = 0; k < 4; k++)
        {
          g_assert_cmpuint (joints[k], ==, want_joints[v][k]);
          g_assert_cmpfloat_with_epsilon (weights[k], want_weights[v][k], 1e-6);
        }
    }
  /* turning Arm: matrix 1 is S_Arm, matrix 6 the identity */
  mshed_dfm_pose_set_value (mshed_render_scene_get_dfm_pose (scene), 0, 0, HALF_PI);
  mshed_render_scene_pose_changed (scene);
  mshed_render_scene_read_skin_matrices (scene, rows);
  {
    const float *s = mshed_dfm_pose_get_skin (mshed_render_scene_get_dfm_pose (scene), 1);
    static const float ident[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 };

    for (guint r = 0; r < 3; r++)
      {
        for (guint c = 0; c < 3; c++)
          g_assert_cmpfloat (rows[12 + 4 * r + c], ==, s[3 * r + c]);
        g_assert_cmpfloat (rows[12 + 4 * r + 3], ==, s[9 + r]);
      }
    g_assert_cmpmem (rows + 12 * 6, sizeof ident, ident, sizeof ident);
  }
  mshed_render_scene_free (scene);
}

/* A posed generated body (at most four influences per point): the bind vertices skinned with
 * the scene's matrices, worked out here, land where the CPU reference puts them. */
static void
test_gpu_inputs (void)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  MshedRenderScene *scene;
  MshedDfmPose *pose;
  g_autofree float *rows = NULL;
  guint n_v, n_mat;
  float worst = 0.0f;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 5);
  bytes = mshed_dfm_generate_bytes (&params);
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (dfm);
  scene = mshed_render_scene_new_for_dfm (dfm);
  pose = mshed_render_scene_get_dfm_pose (scene);
  for (guint j = 0; j < mshed_dfm_pose_get_n_joints (pose); j += 2)
    mshed_dfm_pose_set_value (pose, j, 0, 0.4f);
  mshed_render_scene_pose_changed (scene);
  n_v = mshed_render_scene_get_n_vertices (scene);
  n_mat = mshed_render_scene_get_n_skin_matrices (scene);
  g_assert_cmpuint (n_mat, ==, mshed_dfm_get_n_bones (dfm) + 1);
  g_assert_cmpuint (mshed_render_scene_get_n_cut_points (scene), ==, 0);
  rows = g_new (float, 12 * (gsize) n_mat);
  mshed_render_scene_read_skin_matrices (scene, rows);
  for (guint v = 0; v < n_v; v++)
    {
      float p[3], n[3], w[4], ref[3], got[3] = { 0, 0, 0 };
      guint16 j[4];

      mshed_render_scene_read_bind_vertices (scene, v, 1, p, n, j, w);
      mshed_render_scene_read_vertices (scene, v, 1, ref, NULL, NULL);
      for (guint k = 0; k < 4; k++)
        {
          const float *m = rows + 12 * (gsize) j[k];

          g_assert_cmpuint (j[k], <, n_mat);
          for (guint r = 0; r < 3; r++)
            got[r] += w[k] * (m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] +
                              m[4 * r + 3]);
        }
      for (guint r = 0; r < 3; r++)
        worst = MAX (worst, fabsf (got[r] - ref[r]));
    }
  g_test_message ("%u vertices, largest difference %g", n_v, worst);
  g_assert_cmpfloat (worst, <, 1e-5f);
  mshed_render_scene_free (scene);
}

static void
test_level_for_detail (void)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDfm) dfm = NULL;

  /* fractions 1, 0.8, 0.6, 0.4, 0.2, 0.1 (docs/dfm.md §3) */
  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 3);
  params.n_levels = 6;
  bytes = mshed_dfm_generate_bytes (&params);
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (dfm);
  g_assert_cmpuint (mshed_dfm_level_for_detail (dfm, 1.0f), ==, 0);
  g_assert_cmpuint (mshed_dfm_level_for_detail (dfm, 0.9f), ==, 0);
  g_assert_cmpuint (mshed_dfm_level_for_detail (dfm, 0.8f), ==, 1);
  g_assert_cmpuint (mshed_dfm_level_for_detail (dfm, 0.5f), ==, 2);
  g_assert_cmpuint (mshed_dfm_level_for_detail (dfm, 0.15f), ==, 4);
  g_assert_cmpuint (mshed_dfm_level_for_detail (dfm, 0.01f), ==, 5);
  g_assert_cmpuint (mshed_dfm_level_for_detail (dfm, 2.0f), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/dfm-pose/joints", test_joints);
  g_test_add_func ("/model/dfm-pose/bind", test_bind);
  g_test_add_func ("/model/dfm-pose/rev-turn", test_rev_turn);
  g_test_add_func ("/model/dfm-pose/limits", test_limits);
  g_test_add_func ("/model/dfm-pose/copy-values", test_copy_values);
  g_test_add_func ("/model/dfm-pose/generated-bind", test_generated_bind);
  g_test_add_func ("/model/dfm-pose/level-for-detail", test_level_for_detail);
  g_test_add_func ("/model/dfm-pose/gpu-influences", test_gpu_influences);
  g_test_add_func ("/model/dfm-pose/gpu-inputs", test_gpu_inputs);
  return g_test_run ();
}
