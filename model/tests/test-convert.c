/* test-convert.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DFM <-> MSH conversion (docs/dfm.md §16–17): a hand-made DFM whose rigid conversion is
 * worked out by hand (node order, triangle owners with a tie, bone-space vertices, keys, the
 * loss report), generated DFMs converted statically and rigidly against their bind pose, and
 * generated MSH models converted to DFM and skinned at bind pose through the Cons chain.
 */
#include "config.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "dfm-test-util.h"
#include "mshed-anim.h"
#include "mshed-convert.h"
#include "mshed-dfm-validate.h"
#include "mshed-error.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-validate.h"

/* The hand-made model -------------------------------------------------------------------------
 *
 * Bones: 0 Root (identity), 1 Arm (bind: rotated 90° about +Z, at (0, 1, 0)), 2 Neck (detached,
 * bind at (0, 0, 2), directory name with a timestamp). One level, one group, elements = points:
 *   p0 (0,0,0) Root 1          p3 (1,1,0) Arm 0.5 Root 0.5
 *   p1 (1,0,0) Root .6 Arm .4  p4 (0,0,2) Neck 1
 *   p2 (0,1,0) Arm 1           p5 (0,1,2) Arm 0.5 Neck 0.5
 * Triangles (0,1,2): Root 1.6 > Arm 1.4 -> Root; (1,3,2): Arm 1.9 -> Arm; (4,2,5): Neck 1.5 =
 * Arm 1.5, a tie -> Arm, the lower bone, although Neck comes first. */

static MshedUtf *
build_hand_dfm (void)
{
  static const float points[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 2, 0, 1, 2 };
  static const float normals[] = { 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1 };
  static const float uv0[] = { 0, 0, 0.25f, 0, 0.5f, 0, 0.75f, 0, 1, 0, 40, -33 };
  static const guint32 identity[] = { 0, 1, 2, 3, 4, 5 };
  static const guint32 first[] = { 0, 1, 3, 4, 6, 7 };
  static const guint32 count[] = { 1, 2, 1, 2, 1, 2 };
  static const guint32 ids[] = { 0, 0, 1, 1, 1, 0, 2, 1, 2 };
  static const float weights[] = { 1, 0.6f, 0.4f, 1, 0.5f, 0.5f, 1, 0.5f, 0.5f };
  static const guint16 strip[] = { 0, 1, 2, 2, 2, 1, 1, 3, 2, 2, 2, 4, 4, 2, 5 };
  static const float root_btr[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
  static const float arm_btr[] = { 0, 1, 0, -1, 0, 0, 0, 0, 1, -1, 0, 0 };
  static const float neck_btr[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -2 };
  static const float one = 1, dc[] = { 1, 1, 1 };
  static const guint8 lod1 = 1, lod0 = 0;
  MshedUtf *utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *multi, *mesh, *groups, *group, *geo, *lib, *cmpnd, *part, *bone, *hp;
  guint8 loose[176] = { 0 };
  guint32 u;

  t_text (utf, root, "Exporter Version", "hand");
  multi = t_dir (utf, root, "MultiLevel");
  t_f32s (utf, multi, "Fractions", &one, 1);
  mesh = t_dir (utf, multi, "Mesh0");
  groups = t_dir (utf, mesh, "Face_groups");
  u = 1;
  t_u32s (utf, groups, "Count", &u, 1);
  group = t_dir (utf, groups, "Group0");
  t_text (utf, group, "Material_name", "skin");
  t_u16s (utf, group, "Tristrip_indices", strip, G_N_ELEMENTS (strip));
  geo = t_dir (utf, mesh, "Geometry");
  t_u32s (utf, geo, "Point_indices", identity, 6);
  t_u32s (utf, geo, "UV0_indices", identity, 6);
  t_f32s (utf, geo, "Points", points, 18);
  t_u32s (utf, geo, "Point_bone_first", first, 6);
  t_u32s (utf, geo, "Point_bone_count", count, 6);
  t_u32s (utf, geo, "Bone_id_chain", ids, 9);
  t_f32s (utf, geo, "Bone_weight_chain", weights, 9);
  t_f32s (utf, geo, "Vertex_normals", normals, 18);
  t_f32s (utf, geo, "UV0", uv0, 12);
  lib = t_dir (utf, root, "Material library");
  u = 1;
  t_u32s (utf, lib, "Material count", &u, 1);
  group = t_dir (utf, lib, "skin");
  t_text (utf, group, "Type", "DcDt");
  t_f32s (utf, group, "Dc", dc, 3);
  t_text (utf, group, "Dt_name", "skin.tga");
  t_text (utf, t_dir (utf, t_dir (utf, root, "Texture library"), "skin.tga"), "MIP0", "x");
  t_text (utf, t_dir (utf, root, "Skeleton"), "Name", "Test.cmp");
  cmpnd = t_dir (utf, root, "Cmpnd");
  t_f32s (utf, cmpnd, "Scale", &one, 1);
  part = t_dir (utf, cmpnd, "Root");
  t_text (utf, part, "Object name", "Root");
  t_text (utf, part, "File name", "Root01.3db");
  u = 0;
  t_u32s (utf, part, "Index", &u, 1);
  part = t_dir (utf, cmpnd, "Part_Arm");
  t_text (utf, part, "Object name", "Arm");
  t_text (utf, part, "File name", "Arm01.3db");
  u = 1;
  t_u32s (utf, part, "Index", &u, 1);
  memcpy (loose, "Root", 4);
  memcpy (loose + 64, "Arm", 3);
  {
    static const float rest[12] = { 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 0, 1 };  /* pos, rows */

    for (guint i = 0; i < 12; i++)
      mshed_write_f32 (loose + 128 + 4 * i, rest[i]);
  }
  t_file (utf, t_dir (utf, cmpnd, "Cons"), "Loose", loose, sizeof loose);
  bone = t_dir (utf, root, "Root01.3db");
  t_f32s (utf, bone, "Bone to root", root_btr, 12);
  t_file (utf, bone, "Lod Bits", &lod1, 1);
  bone = t_dir (utf, root, "Arm01.3db");
  t_f32s (utf, bone, "Bone to root", arm_btr, 12);
  t_file (utf, bone, "Lod Bits", &lod1, 1);
  bone = t_dir (utf, root, "Neck021014191928.3db");
  t_f32s (utf, bone, "Bone to root", neck_btr, 12);
  t_file (utf, bone, "Lod Bits", &lod0, 1);
  hp = t_dir (utf, t_dir (utf, t_dir (utf, bone, "Hardpoints"), "Fixed"), "hp_neck");
  t_f32s (utf, hp, "Position", dc, 3);
  return utf;
}

static MshedDfm *
dfm_from_utf (MshedUtf *utf)
{
  g_autoptr(GBytes) bytes = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, &error);

  g_assert_no_error (error);
  mshed_dfm_validate (dfm, MSHED_MODE_STRICT, diags);
  g_assert_cmpuint (diags->n_errors, ==, 0);
  g_assert_cmpuint (diags->n_warnings, ==, 0);
  return dfm;
}

/* The converted model, checked strictly: no error, no warning. */
static MshedModel *
convert_dfm (MshedDfm           *dfm,
             MshedConvertMode    mode,
             MshedConvertReport *report,
             char             ***wear_names)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) wear = NULL;
  g_autoptr(MshedNres) nres = mshed_convert_dfm_to_msh (dfm, "in.dfm", mode, &wear, report,
                                                        &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  MshedModel *model;

  g_assert_no_error (error);
  bytes = mshed_nres_build_canonical (nres);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, &error);
  g_assert_no_error (error);
  mshed_validate_model (model, MSHED_MODE_STRICT, diags);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    if (mshed_diagnostics_get (diags, i)->severity >= MSHED_SEVERITY_WARNING)
      g_error ("%s", mshed_diagnostics_get (diags, i)->message);
  if (wear_names)
    *wear_names = mshed_convert_parse_wear (wear);
  return model;
}

static void
assert_losses (const MshedConvertReport *report,
               const char               *expected)
{
  g_autoptr(GString) got = g_string_new (NULL);

  for (guint i = 0; i < report->losses->len; i++)
    {
      const MshedConvertLoss *l = &g_array_index (report->losses, MshedConvertLoss, i);

      g_string_append_printf (got, "%s%s=%" G_GUINT64_FORMAT, i ? " " : "", l->id, l->count);
    }
  g_assert_cmpstr (got->str, ==, expected);
}

/* The positions of the triangles of @node's slot at @lod, each corner through @world (16
 * floats, or NULL), 9 floats per triangle. */
static GArray *
slot_triangles (MshedModel  *model,
                guint        node,
                guint        lod,
                const float *world)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (float));
  guint s = mshed_model_find_slot (model, node, lod, 0);
  MshedSlot slot;

  if (s == MSHED_NONE)
    return out;
  g_assert_true (mshed_model_get_slot (model, s, &slot));
  for (guint b = slot.batch_start; b < (guint) slot.batch_start + slot.batch_count; b++)
    {
      MshedBatch batch;

      g_assert_true (mshed_model_get_batch (model, b, &batch));
      for (guint i = 0; i < batch.index_count; i++)
        {
          guint16 index;
          float p[3], q[3];

          g_assert_true (mshed_model_get_index (model, batch.index_start + i, &index));
          g_assert_true (mshed_model_get_position (model, index + batch.base_vertex, p));
          for (guint k = 0; k < 3; k++)
            q[k] = world ? world[k] * p[0] + world[4 + k] * p[1] + world[8 + k] * p[2] +
                           world[12 + k] : p[k];
          g_array_append_vals (out, q, 3);
        }
    }
  return out;
}

static void
assert_near (const float *got,
             const float *want,
             guint        n,
             double       eps)
{
  for (guint i = 0; i < n; i++)
    if (fabs ((double) got[i] - want[i]) > eps)
      g_error ("value %u: %.7g, expected %.7g (±%g)", i, got[i], want[i], eps);
}

static void
test_rigid_hand (void)
{
  g_autoptr(MshedUtf) utf = build_hand_dfm ();
  g_autoptr(MshedDfm) dfm = dfm_from_utf (utf);
  MshedConvertReport report;
  g_auto(GStrv) wear = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GArray) t0 = NULL, t1 = NULL;
  static const float want0[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  /* Arm space: b = R·p + t with the stored inverse bind, the bone origin at p2 */
  static const float want1[] = { -1, -1, 0, 0, -1, 0, 0, 0, 0, -1, 0, 2, 0, 0, 0, 0, 0, 2 };
  MshedNode node;
  MshedKey key;
  char *name;

  mshed_convert_report_init (&report);
  model = convert_dfm (dfm, MSHED_CONVERT_RIGID, &report, &wear);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NODES), ==, 3);
  /* parents first: Root, Arm (child of Root), Neck (detached: a root) */
  for (guint n = 0; n < 3; n++)
    {
      static const char *const names[] = { "Root", "Arm", "Neck" };
      static const guint16 parents[] = { MSHED_NONE, 0, MSHED_NONE };

      name = mshed_model_dup_name (model, n);
      g_assert_cmpstr (name, ==, names[n]);
      g_free (name);
      g_assert_true (mshed_model_get_node (model, n, &node));
      g_assert_cmpuint (node.hdr1, ==, parents[n]);
    }
  /* triangle (0,1,2) on Root, (1,3,2) and the tie (4,2,5) on Arm, nothing on Neck */
  t0 = slot_triangles (model, 0, 0, NULL);
  t1 = slot_triangles (model, 1, 0, NULL);
  g_assert_cmpuint (t0->len, ==, 9);
  g_assert_cmpuint (t1->len, ==, 18);
  assert_near ((float *) t0->data, want0, 9, 0);
  assert_near ((float *) t1->data, want1, 18, 1e-6);
  g_assert_cmpuint (mshed_model_find_slot (model, 2, 0, 0), ==, MSHED_NONE);
  /* one level: every LOD shows the same slot */
  g_assert_cmpuint (mshed_model_find_slot (model, 1, 2, 0), ==,
                    mshed_model_find_slot (model, 1, 0, 0));
  /* Arm's key: at (0, 1, 0), 90° about +Z: q = (0, 0, sin 45°, cos 45°) */
  g_assert_true (mshed_model_get_node (model, 1, &node));
  g_assert_true (mshed_model_get_key (model, node.hdr3, &key));
  assert_near (key.pos, (const float[]) { 0, 1, 0 }, 3, 1e-6);
  g_assert_cmpint (key.q[0], ==, 0);
  g_assert_cmpint (key.q[1], ==, 0);
  g_assert_cmpint (key.q[2], ==, 23170);
  g_assert_cmpint (key.q[3], ==, 23170);
  g_assert_true (mshed_model_get_node (model, 2, &node));
  g_assert_true (mshed_model_get_key (model, node.hdr3, &key));
  assert_near (key.pos, (const float[]) { 0, 0, 2 }, 3, 0);
  g_assert_cmpstrv (wear, ((const char *const[]) { "skin", NULL }));
  /* docs/dfm.md §16 for this input */
  assert_losses (&report, "blending=3 fractions=1 lod-bits=3 hardpoints=1 joints=1 "
                 "skeleton-name=1 detached=1 exporter-version=1 timestamps=3 precision=8 "
                 "uv-clamped=2 strips=1 materials=1 textures=1");
  g_assert_cmpuint (report.nodes, ==, 3);
  g_assert_cmpuint (report.triangles, ==, 3);
  mshed_convert_report_clear (&report);

  mshed_convert_report_init (&report);
  g_clear_pointer (&model, mshed_model_unref);
  model = convert_dfm (dfm, MSHED_CONVERT_STATIC, &report, NULL);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NODES), ==, 1);
  assert_losses (&report, "skin=3 fractions=1 lod-bits=3 hardpoints=1 joints=1 "
                 "skeleton-name=1 detached=1 exporter-version=1 precision=6 uv-clamped=2 "
                 "strips=1 materials=1 textures=1");
  mshed_convert_report_clear (&report);
}

/* Generated models ------------------------------------------------------------------------- */

static int
compare_triangles (gconstpointer a,
                   gconstpointer b)
{
  const float *x = a, *y = b;

  for (guint i = 0; i < 9; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

static int
compare_corners (const float *x,
                 const float *y)
{
  for (guint i = 0; i < 3; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* Every triangle's corners in a canonical rotation (smallest corner first, the winding kept),
 * then the triangles sorted. */
static void
canonical (GArray *tris)
{
  for (guint t = 0; t < tris->len / 9; t++)
    {
      float *c = &g_array_index (tris, float, 9 * t), tmp[9];
      guint best = 0;

      for (guint k = 1; k < 3; k++)
        if (compare_corners (c + 3 * k, c + 3 * best) < 0)
          best = k;
      for (guint k = 0; k < 9; k++)
        tmp[k] = c[(3 * best + k) % 9];
      memcpy (c, tmp, sizeof tmp);
    }
  qsort (tris->data, tris->len / 9, 9 * sizeof (float), compare_triangles);
}

/* Every triangle of @got equals a different one of @want within @eps per coordinate, corners in
 * the same cyclic order (the winding kept): a bijection, as both have the same count. */
static void
assert_same_triangles (GArray *got,
                       GArray *want,
                       double  eps)
{
  guint n = want->len / 9;
  g_autofree guint8 *used = g_malloc0 (MAX (n, 1));

  g_assert_cmpuint (got->len, ==, want->len);
  for (guint t = 0; t < n; t++)
    {
      const float *a = &g_array_index (got, float, 9 * t);
      gboolean found = FALSE;

      for (guint u = 0; u < n && !found; u++)
        for (guint r = 0; r < 3 && !used[u] && !found; r++)
          {
            const float *b = &g_array_index (want, float, 9 * u);
            gboolean same = TRUE;

            for (guint k = 0; k < 9 && same; k++)
              same = fabs ((double) a[k] - b[(3 * r + k) % 9]) <= eps;
            if (same)
              found = used[u] = TRUE;
          }
      if (!found)
        g_error ("triangle %u (%g %g %g, %g %g %g, %g %g %g) has no match within %g", t, a[0],
                 a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], eps);
    }
}

/* The bind-pose triangles of DFM level @level, 9 floats each. */
static GArray *
dfm_triangles (MshedDfm *dfm,
               guint     level)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (float));
  MshedDfmLevel info;

  g_assert_true (mshed_dfm_get_level (dfm, level, &info));
  for (guint g = 0; g < info.n_groups; g++)
    {
      gsize n = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, level, g, &n);

      for (gsize i = 0; i < 3 * n; i++)
        {
          MshedDfmElement e;

          g_assert_true (mshed_dfm_get_element (dfm, level, tris[i], &e));
          g_array_append_vals (out, e.position, 3);
        }
    }
  return out;
}

/* The model's LOD @lod triangles with every node at its rest pose (fallback keys). */
static GArray *
msh_triangles (MshedModel *model,
               guint       lod)
{
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  g_autofree float *world = g_new (float, 16 * (gsize) n);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (float));

  /* t = -1 is frame -2, which every node answers with its fallback key (docs/msh.md §7.2) */
  mshed_anim_compute_world (model, -1.0f, NULL, world, n, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GArray) t = slot_triangles (model, i, lod, world + 16 * (gsize) i);

      g_array_append_vals (out, t->data, t->len);
    }
  return out;
}

static void
test_generated_dfm (gconstpointer data)
{
  MshedConvertMode mode = GPOINTER_TO_UINT (data);

  for (guint seed = 1; seed <= 6; seed++)
    {
      MshedDfmGenParams params;
      g_autoptr(MshedUtf) utf = NULL;
      g_autoptr(MshedDfm) dfm = NULL;
      g_autoptr(MshedModel) model = NULL;
      MshedConvertReport report;

      mshed_dfm_gen_params_init (&params, seed % 3, seed);
      utf = mshed_dfm_generate (&params);
      dfm = dfm_from_utf (utf);
      mshed_convert_report_init (&report);
      model = convert_dfm (dfm, mode, &report, NULL);
      /* LOD 0, 1, 2 from Mesh0, Mesh2 and Mesh4 (six levels) or Mesh3 (four) */
      for (guint lod = 0; lod < MSHED_N_LODS; lod++)
        {
          static const guint six[] = { 0, 2, 4 }, four[] = { 0, 2, 3 };
          guint level = (mshed_dfm_get_n_levels (dfm) == 4 ? four : six)[lod];
          g_autoptr(GArray) want = dfm_triangles (dfm, level);
          g_autoptr(GArray) got = msh_triangles (model, lod);

          /* static: positions are copied; rigid: through quantised key rotations */
          if (mode == MSHED_CONVERT_STATIC)
            {
              canonical (want);
              canonical (got);
              assert_near ((float *) got->data, (float *) want->data, got->len, 0);
            }
          else
            assert_same_triangles (got, want, 2e-4);
        }
      mshed_convert_report_clear (&report);
    }
}

/* MSH -> DFM ---------------------------------------------------------------------------------- */

/* Bind pose through the Cons chain: each bone's world from its parent's and its Loose record
 * (roots: the inverse of `Bone to root`), then every point skinned with World_j · InvBind_j. */
static GArray *
skinned_triangles (MshedDfm *dfm,
                   guint     level)
{
  guint n_bones = mshed_dfm_get_n_bones (dfm);
  g_autofree float *world = g_new0 (float, 12 * (gsize) n_bones);
  g_autofree guint8 *done = g_malloc0 (n_bones);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (float));
  MshedDfmLevel info;

  for (guint pass = 0; pass < n_bones; pass++)
    for (guint b = 0; b < n_bones; b++)
      {
        MshedDfmBone bone;

        g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
        if (done[b])
          continue;
        if (bone.parent < 0)
          {
            mshed_dfm_bind_from_bone_to_root (bone.bone_to_root, world + 12 * b);
            done[b] = 1;
          }
        else if (done[bone.parent])
          {
            const float *pw = world + 12 * bone.parent;
            float *w = world + 12 * b;

            for (guint j = 0; j < mshed_dfm_get_n_joints (dfm); j++)
              {
                MshedDfmJoint joint;

                g_assert_true (mshed_dfm_get_joint (dfm, j, &joint));
                if (joint.child_bone != (gint) b)
                  continue;
                g_assert_cmpint (joint.kind, ==, MSHED_DFM_JOINT_LOOSE);
                for (guint r = 0; r < 3; r++)
                  {
                    for (guint c = 0; c < 3; c++)
                      w[3 * r + c] = pw[3 * r] * joint.rotation[c] +
                                     pw[3 * r + 1] * joint.rotation[3 + c] +
                                     pw[3 * r + 2] * joint.rotation[6 + c];
                    w[9 + r] = pw[3 * r] * joint.position[0] + pw[3 * r + 1] *
                               joint.position[1] + pw[3 * r + 2] * joint.position[2] +
                               pw[9 + r];
                  }
              }
            done[b] = 1;
          }
      }
  g_assert_true (mshed_dfm_get_level (dfm, level, &info));
  for (guint g = 0; g < info.n_groups; g++)
    {
      gsize n = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, level, g, &n);

      for (gsize i = 0; i < 3 * n; i++)
        {
          MshedDfmElement e;
          guint32 first, count, id;
          float weight, sum[3] = { 0, 0, 0 };

          g_assert_true (mshed_dfm_get_element (dfm, level, tris[i], &e));
          g_assert_true (mshed_dfm_get_skin_range (dfm, level, e.point, &first, &count));
          for (guint32 k = 0; k < count; k++)
            {
              MshedDfmBone bone;
              float b[3], m[3];

              g_assert_true (mshed_dfm_get_influence (dfm, level, first + k, &id, &weight));
              g_assert_true (mshed_dfm_get_bone (dfm, id, &bone));
              for (guint r = 0; r < 3; r++)
                b[r] = bone.bone_to_root[3 * r] * e.position[0] +
                       bone.bone_to_root[3 * r + 1] * e.position[1] +
                       bone.bone_to_root[3 * r + 2] * e.position[2] + bone.bone_to_root[9 + r];
              for (guint r = 0; r < 3; r++)
                m[r] = world[12 * id + 3 * r] * b[0] + world[12 * id + 3 * r + 1] * b[1] +
                       world[12 * id + 3 * r + 2] * b[2] + world[12 * id + 9 + r];
              for (guint r = 0; r < 3; r++)
                sum[r] += weight * m[r];
            }
          g_array_append_vals (out, sum, 3);
        }
    }
  return out;
}

static void
test_msh_to_dfm (void)
{
  for (guint seed = 1; seed <= 8; seed++)
    {
      MshedGenParams params;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(MshedModel) model = NULL;
      g_autoptr(MshedUtf) utf = NULL;
      g_autoptr(MshedDfm) dfm = NULL;
      g_autoptr(GError) error = NULL;
      MshedConvertReport report;

      mshed_gen_params_init_from_seed (&params, seed);
      params.n_triangles = MIN (params.n_triangles, 4000);
      params.legacy_nodes = FALSE;
      params.animated = seed % 2;
      bytes = mshed_generate_model_bytes (&params);
      model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
      g_assert_no_error (error);
      mshed_convert_report_init (&report);
      utf = mshed_convert_msh_to_dfm (model, "in.msh", NULL, &report, &error);
      g_assert_no_error (error);
      dfm = dfm_from_utf (utf);
      g_assert_cmpuint (mshed_dfm_get_n_levels (dfm), ==, 6);
      /* Mesh0 and Mesh1 come from LOD 0 */
      for (guint level = 0; level < 2; level++)
        {
          g_autoptr(GArray) got = skinned_triangles (dfm, level);
          g_autoptr(GArray) want = msh_triangles (model, 0);

          assert_same_triangles (got, want, 1e-4);
        }
      mshed_convert_report_clear (&report);
    }
}

/* docs/dfm.md §17 step 9: the hand-made DFM's rigid MSH (three nodes, two roots, three
 * triangles, nothing of unknown meaning but the descriptors) back to DFM, then a generated
 * model's extras. */
static void
test_msh_losses (void)
{
  g_autoptr(MshedUtf) hand = build_hand_dfm ();
  g_autoptr(MshedDfm) hand_dfm = dfm_from_utf (hand);
  g_autoptr(GBytes) wear = g_bytes_new_static ("1\r\n0 skin\r\n", 12), bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GError) error = NULL;
  MshedConvertReport report;
  MshedGenParams params;

  mshed_convert_report_init (&report);
  model = convert_dfm (hand_dfm, MSHED_CONVERT_RIGID, &report, NULL);
  mshed_convert_report_clear (&report);
  for (guint with_wear = 0; with_wear < 2; with_wear++)
    {
      g_autoptr(MshedUtf) utf = NULL;
      g_autoptr(MshedDfm) dfm = NULL;
      MshedDfmGroup group;
      MshedDfmBone bone;
      static const char *const bones[] = { "Root", "Root_2", "Arm", "Neck" };

      mshed_convert_report_init (&report);
      utf = mshed_convert_msh_to_dfm (model, "in.msh", with_wear ? wear : NULL, &report,
                                      &error);
      g_assert_no_error (error);
      dfm = dfm_from_utf (utf);
      /* a synthetic root above the two MSH roots; the MSH "Root" then needs another name */
      g_assert_cmpuint (mshed_dfm_get_n_bones (dfm), ==, 4);
      for (guint b = 0; b < 4; b++)
        {
          g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
          g_assert_cmpstr (bone.object_name, ==, bones[b]);
          g_assert_cmpint (bone.parent, ==, b == 0 ? -1 : b == 2 ? 1 : 0);
        }
      g_assert_true (mshed_dfm_get_group (dfm, 0, 0, &group));
      g_assert_cmpstr (group.material_name, ==, with_wear ? "skin" : "material_0");
      g_assert_cmpuint (report.triangles, ==, 6 * 3);
      assert_losses (&report, with_wear ? "collision=3 renamed=1"
                                        : "collision=3 renamed=1 material-names=1");
      mshed_convert_report_clear (&report);
    }

  /* generated with Res18 and Res20: Res9, 15, 17, 18, 20 (mshed-generator.h) */
  mshed_gen_params_init (&params, 5);
  params.n_triangles = 100;
  params.with_res18_20 = TRUE;
  params.animated = TRUE;
  bytes = mshed_generate_model_bytes (&params);
  g_clear_pointer (&model, mshed_model_unref);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  mshed_convert_report_init (&report);
  {
    g_autoptr(MshedUtf) utf = mshed_convert_msh_to_dfm (model, "in.msh", NULL, &report,
                                                        &error);
    gboolean animation = FALSE;

    g_assert_no_error (error);
    for (guint i = 0; i < report.losses->len; i++)
      {
        const MshedConvertLoss *l = &g_array_index (report.losses, MshedConvertLoss, i);

        if (strcmp (l->id, "resources") == 0)
          g_assert_cmpuint (l->count, ==, 5);
        animation |= strcmp (l->id, "animation") == 0;
      }
    g_assert_true (animation);
  }
  mshed_convert_report_clear (&report);
}

static void
test_refusals (void)
{
  g_autoptr(MshedUtf) utf = build_hand_dfm ();
  g_autoptr(MshedDfm) dfm = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) wear = NULL, bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  MshedConvertReport report;
  MshedGenParams params;
  MshedNres *nres;
  MshedUtf *out;
  static const float two[] = { 1, 0.5f };

  /* two values for one level */
  t_set (utf, "\\MultiLevel\\Fractions", two, sizeof two);
  {
    g_autoptr(GBytes) b = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);

    dfm = mshed_dfm_new_from_bytes (b, MSHED_MODE_TOLERANT, NULL, &error);
    g_assert_no_error (error);
  }
  mshed_convert_report_init (&report);
  nres = mshed_convert_dfm_to_msh (dfm, "in.dfm", MSHED_CONVERT_STATIC, &wear, &report, &error);
  g_assert_null (nres);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "in.dfm: Fractions has 2 values for 1 levels"));
  g_clear_error (&error);

  /* a level of more than 65,536 vertices cannot be indexed by 16-bit face indices */
  mshed_gen_params_init (&params, 2);
  params.n_triangles = MSHED_GEN_MAX_TRIANGLES;
  params.n_nodes = 1;
  bytes = mshed_generate_model_bytes (&params);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  out = mshed_convert_msh_to_dfm (model, "big.msh", NULL, &report, &error);
  g_assert_null (out);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "big.msh: LOD 0 uses more than 65,536 vertices"));
  mshed_convert_report_clear (&report);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/convert/dfm-rigid-hand", test_rigid_hand);
  g_test_add_data_func ("/convert/dfm-static-generated",
                        GUINT_TO_POINTER (MSHED_CONVERT_STATIC), test_generated_dfm);
  g_test_add_data_func ("/convert/dfm-rigid-generated",
                        GUINT_TO_POINTER (MSHED_CONVERT_RIGID), test_generated_dfm);
  g_test_add_func ("/convert/msh-to-dfm-bind-pose", test_msh_to_dfm);
  g_test_add_func ("/convert/msh-losses", test_msh_losses);
  g_test_add_func ("/convert/refusals", test_refusals);
  return g_test_run ();
}
