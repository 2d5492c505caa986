/* test-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The typed DFM view on a model built here byte by byte: element formation, skin-weight
 * slicing, the UV bone block, parts, Cons records of every kind decoded at their offsets,
 * bones with `Bone to root`, `Lod Bits`, hardpoints and a detached bone, materials
 * (docs/dfm.md §6.1, §6.2, §6.4, §8, §9.1, §10, §11); the schema's record sizes and field
 * offsets; and the generator: determinism, strict validity, the retail shapes of
 * docs/dfm.md §13, winding (docs/dfm.md §5.2), the constraint chain, and byte-identical round
 * trips through the UTF writer.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "dfm-test-util.h"
#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-dfm.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-schema.h"
#include "mshed-dfm-validate.h"
#include "mshed-error.h"
#include "mshed-utf-generator.h"

/* A hand-made model ----------------------------------------------------------------------- */

/* record sizes of docs/dfm.md §9.1, written out here, not taken from the code */
static const struct {
  const char *name;
  guint       size;
} cons_sizes[] = {
  { "Fix", 176 }, { "Rev", 208 }, { "Pris", 208 }, { "Cyl", 216 }, { "Sphere", 212 },
  { "Loose", 176 },
};

/* one record of @size bytes: parent "Root", child "Arm" with residue after its NUL, and at
 * every float offset o >= 128 the value o itself, so a decoded field names its offset */
static GByteArray *
cons_record (guint size)
{
  GByteArray *a = g_byte_array_new ();

  g_byte_array_set_size (a, size);
  memset (a->data, 0, size);
  memcpy (a->data, "Root", 4);
  memcpy (a->data + 64, "Arm\0xyz", 7);
  for (guint o = 128; o < size; o += 4)
    mshed_write_f32 (a->data + o, (float) o);
  return a;
}

static MshedUtf *
build_model (void)
{
  static const guint32 point_indices[] = { 0, 1, 2, 1 };
  static const guint32 uv0_indices[] = { 3, 2, 1, 0 };
  static const guint32 uv1_indices[] = { 0, 0, 0, 0 };
  static const float points[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  static const guint32 first[] = { 0, 1, 3 };
  static const guint32 count[] = { 1, 2, 1 };
  static const guint32 ids[] = { 0, 0, 1, 2 };
  static const float weights[] = { 1.0f, 0.25f, 0.75f, 1.0f };
  static const float normals[] = { 0, 0, 1, 0, 0, 1, 0, 0, 1 };
  static const float uv0[] = { 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f };
  static const float uv1[] = { 0.9f, 1.0f };
  static const guint16 strip[] = { 0, 1, 2, 3 };
  static const guint32 uv_ids[] = { 0, 3 };
  static const float uv_defaults[] = { 0.1f, 0.2f, 0.7f, 0.8f };
  static const float btr[] = { 0, 1, 0, -1, 0, 0, 0, 0, 1, 1, 2, 3 };
  static const float identity_btr[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
  static const float one = 1.0f, dc[] = { 0.5f, 0.25f, 1.0f };
  static const guint8 lod_all = 0x3F, lod_none = 0;
  MshedUtf *utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *multi, *mesh, *groups, *group, *geo, *lib, *mat, *cmpnd, *part, *cons, *bone, *hp;
  guint32 u;

  t_text (utf, root, "Exporter Version", "hand made");
  multi = t_dir (utf, root, "MultiLevel");
  t_f32s (utf, multi, "Fractions", &one, 1);
  mesh = t_dir (utf, multi, "Mesh0");
  groups = t_dir (utf, mesh, "Face_groups");
  u = 1;
  t_u32s (utf, groups, "Count", &u, 1);
  group = t_dir (utf, groups, "Group0");
  t_text (utf, group, "Material_name", "MAT");
  t_u16s (utf, group, "Tristrip_indices", strip, 4);
  geo = t_dir (utf, mesh, "Geometry");
  t_u32s (utf, geo, "Point_indices", point_indices, 4);
  t_u32s (utf, geo, "UV0_indices", uv0_indices, 4);
  t_u32s (utf, geo, "UV1_indices", uv1_indices, 4);
  t_f32s (utf, geo, "Points", points, 9);
  t_u32s (utf, geo, "Point_bone_first", first, 3);
  t_u32s (utf, geo, "Point_bone_count", count, 3);
  t_u32s (utf, geo, "Bone_id_chain", ids, 4);
  t_f32s (utf, geo, "Bone_weight_chain", weights, 4);
  t_f32s (utf, geo, "Vertex_normals", normals, 9);
  t_f32s (utf, geo, "UV0", uv0, 8);
  t_f32s (utf, geo, "UV1", uv1, 2);
  u = 1;
  t_u32s (utf, geo, "UV_bone_id", &u, 1);
  u = 2;
  t_u32s (utf, geo, "UV_vertex_count", &u, 1);
  {
    static const float scalars[] = { 1.0f, 0.4f, -0.4f, -0.2f, 0.2f, -0.1035f, 0.1035f };
    static const char *const names[] = { "UV_plane_distance", "Bone_X_to_U_scale",
                                         "Bone_Y_to_V_scale", "Min_du", "Max_du", "Min_dv",
                                         "Max_dv" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      t_f32s (utf, geo, names[i], &scalars[i], 1);
  }
  t_u32s (utf, geo, "UV_vertex_id", uv_ids, 2);
  t_f32s (utf, geo, "UV_default_list", uv_defaults, 4);

  lib = t_dir (utf, root, "Material library");
  u = 1;
  t_u32s (utf, lib, "Material count", &u, 1);
  mat = t_dir (utf, lib, "mat");
  t_text (utf, mat, "Type", "DcDt");
  t_f32s (utf, mat, "Dc", dc, 3);
  t_text (utf, mat, "Dt_name", "mat.tga");
  u = 0x40;
  t_u32s (utf, mat, "Dt_flags", &u, 1);
  t_text (utf, t_dir (utf, t_dir (utf, root, "Texture library"), "mat.tga"), "MIP0", "x");
  t_text (utf, t_dir (utf, root, "Skeleton"), "Name", "Head02.cmp");

  cmpnd = t_dir (utf, root, "Cmpnd");
  t_f32s (utf, cmpnd, "Scale", &one, 1);
  part = t_dir (utf, cmpnd, "Root");
  t_text (utf, part, "Object name", "Root");
  t_text (utf, part, "File name", "Root01.3db");
  u = 0;
  t_u32s (utf, part, "Index", &u, 1);
  part = t_dir (utf, cmpnd, "Part_Arm");
  t_text (utf, part, "Object name", "Arm");
  t_text (utf, part, "File name", "ARM01.3DB");         /* matched ignoring case */
  u = 2;
  t_u32s (utf, part, "Index", &u, 1);
  cons = t_dir (utf, cmpnd, "Cons");
  for (guint k = 0; k < G_N_ELEMENTS (cons_sizes); k++)
    {
      g_autoptr(GByteArray) rec = cons_record (cons_sizes[k].size);

      t_file (utf, cons, cons_sizes[k].name, rec->data, rec->len);
    }

  bone = t_dir (utf, root, "Root01.3db");
  t_f32s (utf, bone, "Bone to root", btr, 12);
  t_file (utf, bone, "Lod Bits", &lod_all, 1);
  bone = t_dir (utf, root, "Neck01.3db");                /* detached: no part names it */
  t_f32s (utf, bone, "Bone to root", identity_btr, 12);
  t_file (utf, bone, "Lod Bits", &lod_none, 1);
  hp = t_dir (utf, t_dir (utf, t_dir (utf, bone, "Hardpoints"), "Fixed"), "hp_neck");
  {
    static const float pos[] = { 0.5f, 0, 0 };

    t_f32s (utf, hp, "Position", pos, 3);
  }
  bone = t_dir (utf, root, "Arm01.3db");                 /* no Lod Bits */
  t_f32s (utf, bone, "Bone to root", identity_btr, 12);
  hp = t_dir (utf, t_dir (utf, t_dir (utf, bone, "Hardpoints"), "Revolute"), "hp_rev");
  {
    static const float axis[] = { 1, 0, 0 }, lo = -1.0f, hi = 2.0f;

    t_f32s (utf, hp, "Axis", axis, 3);
    t_f32s (utf, hp, "Min", &lo, 1);
    t_f32s (utf, hp, "Max", &hi, 1);
  }
  return utf;
}

static MshedDfm *
open_model (void)
{
  g_autoptr(MshedUtf) utf = build_model ();
  g_autoptr(GBytes) bytes = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
  g_autoptr(GError) error = NULL;
  /* tolerant: six Cons records of one joint give second-parent warnings */
  MshedDfm *dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (dfm);
  return dfm;
}

static void
assert_vec (const float *got,
            const float *want,
            guint        n)
{
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (got[i], ==, want[i]);
}

static void
test_levels (void)
{
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedDfmLevel level;
  MshedDfmGroup group;
  float f;

  g_assert_cmpstr (mshed_dfm_get_exporter_version (dfm), ==, "hand made");
  g_assert_cmpstr (mshed_dfm_get_skeleton_name (dfm), ==, "Head02.cmp");
  g_assert_cmpfloat (mshed_dfm_get_scale (dfm), ==, 1.0f);
  g_assert_true (mshed_utf_looks_like_dfm (mshed_dfm_get_utf (dfm)));
  g_assert_cmpuint (mshed_dfm_get_n_levels (dfm), ==, 1);
  g_assert_cmpuint (mshed_dfm_get_n_fractions (dfm), ==, 1);
  g_assert_true (mshed_dfm_get_fraction (dfm, 0, &f));
  g_assert_cmpfloat (f, ==, 1.0f);
  g_assert_false (mshed_dfm_get_fraction (dfm, 1, &f));

  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  g_assert_cmpuint (level.n_groups, ==, 1);
  g_assert_cmpuint (level.n_elements, ==, 4);
  g_assert_cmpuint (level.n_points, ==, 3);
  g_assert_cmpuint (level.n_uv0, ==, 4);
  g_assert_cmpuint (level.n_uv1, ==, 1);
  g_assert_true (level.has_uv1);
  g_assert_true (level.has_uv_bone);
  g_assert_cmpuint (level.n_chain, ==, 4);
  g_assert_false (mshed_dfm_get_level (dfm, 1, &level));

  g_assert_true (mshed_dfm_get_group (dfm, 0, 0, &group));
  g_assert_cmpstr (group.material_name, ==, "MAT");
  g_assert_cmpint (group.material, ==, 0);             /* "mat", ignoring case */
  g_assert_true (group.strip);
  g_assert_cmpuint (group.n_indices, ==, 4);
  g_assert_false (mshed_dfm_get_group (dfm, 0, 1, &group));
}

/* strip 0 1 2 3 -> (0,1,2) and, from the odd window, (2,1,3) (docs/dfm.md §5.1) */
static void
test_triangles (void)
{
  static const guint16 want[] = { 0, 1, 2, 2, 1, 3 };
  g_autoptr(MshedDfm) dfm = open_model ();
  gsize n;
  g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, 0, 0, &n);

  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpmem (tris, sizeof want, want, sizeof want);
  g_assert_null (mshed_dfm_dup_triangles (dfm, 0, 5, &n));
  g_assert_cmpuint (n, ==, 0);
}

/* element e: point Point_indices[e] (position and normal), UV0[UV0_indices[e]]
 * (docs/dfm.md §6.1) */
static void
test_elements (void)
{
  static const float p1[] = { 1, 0, 0 }, p2[] = { 0, 1, 0 }, up[] = { 0, 0, 1 };
  static const float uv_a[] = { 0.1f, 0.2f }, uv_c[] = { 0.5f, 0.6f }, uv1[] = { 0.9f, 1.0f };
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedDfmElement e;
  float pos[3], n[3];

  /* elements 1 and 3 share point 1 but not their UV (a seam) */
  g_assert_true (mshed_dfm_get_element (dfm, 0, 1, &e));
  g_assert_cmpuint (e.point, ==, 1);
  g_assert_cmpuint (e.uv0_index, ==, 2);
  assert_vec (e.position, p1, 3);
  assert_vec (e.normal, up, 3);
  assert_vec (e.uv0, uv_c, 2);
  g_assert_true (e.has_uv1);
  assert_vec (e.uv1, uv1, 2);
  g_assert_true (mshed_dfm_get_element (dfm, 0, 3, &e));
  g_assert_cmpuint (e.point, ==, 1);
  g_assert_cmpuint (e.uv0_index, ==, 0);
  assert_vec (e.position, p1, 3);
  assert_vec (e.uv0, uv_a, 2);
  g_assert_false (mshed_dfm_get_element (dfm, 0, 4, &e));
  g_assert_false (mshed_dfm_get_element (dfm, 1, 0, &e));

  g_assert_true (mshed_dfm_get_point (dfm, 0, 2, pos, n));
  assert_vec (pos, p2, 3);
  g_assert_false (mshed_dfm_get_point (dfm, 0, 3, pos, n));
}

/* first/count slice the chains: point 1 -> (bone 0, 0.25), (bone 1, 0.75)
 * (docs/dfm.md §6.2) */
static void
test_skin (void)
{
  g_autoptr(MshedDfm) dfm = open_model ();
  guint32 first, count, bone;
  float weight;

  g_assert_true (mshed_dfm_get_skin_range (dfm, 0, 1, &first, &count));
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (count, ==, 2);
  g_assert_true (mshed_dfm_get_influence (dfm, 0, first, &bone, &weight));
  g_assert_cmpuint (bone, ==, 0);
  g_assert_cmpfloat (weight, ==, 0.25f);
  g_assert_true (mshed_dfm_get_influence (dfm, 0, first + 1, &bone, &weight));
  g_assert_cmpuint (bone, ==, 1);
  g_assert_cmpfloat (weight, ==, 0.75f);
  g_assert_true (mshed_dfm_get_skin_range (dfm, 0, 2, &first, &count));
  g_assert_cmpuint (first, ==, 3);
  g_assert_false (mshed_dfm_get_skin_range (dfm, 0, 3, &first, &count));
  g_assert_false (mshed_dfm_get_influence (dfm, 0, 4, &bone, &weight));
}

static void
test_uv_bone (void)
{
  static const float def1[] = { 0.7f, 0.8f };
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedDfmUvBone b;
  guint32 uv;
  float def[2];

  g_assert_true (mshed_dfm_get_uv_bone (dfm, 0, &b));
  g_assert_cmpuint (b.bone, ==, 1);
  g_assert_cmpuint (b.vertex_count, ==, 2);
  g_assert_cmpuint (b.n_vertices, ==, 2);
  g_assert_cmpfloat (b.plane_distance, ==, 1.0f);
  g_assert_cmpfloat (b.x_to_u_scale, ==, 0.4f);
  g_assert_cmpfloat (b.y_to_v_scale, ==, -0.4f);
  g_assert_cmpfloat (b.min_du, ==, -0.2f);
  g_assert_cmpfloat (b.max_du, ==, 0.2f);
  g_assert_cmpfloat (b.min_dv, ==, -0.1035f);
  g_assert_cmpfloat (b.max_dv, ==, 0.1035f);
  g_assert_true (mshed_dfm_get_uv_bone_vertex (dfm, 0, 1, &uv, def));
  g_assert_cmpuint (uv, ==, 3);
  assert_vec (def, def1, 2);
  g_assert_false (mshed_dfm_get_uv_bone_vertex (dfm, 0, 2, &uv, def));
}

/* bones are the root's .3db directories in order; Neck01 is named by no part
 * (docs/dfm.md §10.4) */
static void
test_bones (void)
{
  static const float btr[] = { 0, 1, 0, -1, 0, 0, 0, 0, 1, 1, 2, 3 };
  /* Bind = [Rᵀ | −Rᵀ·t] (docs/dfm.md §10.2), worked by hand */
  static const float bind[] = { 0, -1, 0, 1, 0, 0, 0, 0, 1, 2, -1, -3 };
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedDfmBone b;
  MshedDfmPart p;
  float got[12];

  g_assert_cmpuint (mshed_dfm_get_n_bones (dfm), ==, 3);
  g_assert_true (mshed_dfm_get_bone (dfm, 0, &b));
  g_assert_cmpstr (b.name, ==, "Root01.3db");
  g_assert_cmpstr (b.object_name, ==, "Root");
  g_assert_cmpint (b.part, ==, 0);
  g_assert_cmpint (b.parent, ==, -1);
  g_assert_true (b.has_bone_to_root);
  assert_vec (b.bone_to_root, btr, 12);
  g_assert_true (b.has_lod_bits);
  g_assert_cmpuint (b.lod_bits, ==, 0x3F);
  mshed_dfm_bind_from_bone_to_root (b.bone_to_root, got);
  assert_vec (got, bind, 12);

  g_assert_true (mshed_dfm_get_bone (dfm, 1, &b));
  g_assert_cmpstr (b.name, ==, "Neck01.3db");
  g_assert_cmpint (b.part, ==, -1);
  g_assert_null (b.object_name);
  g_assert_cmpuint (b.lod_bits, ==, 0);
  g_assert_cmpuint (b.n_hardpoints, ==, 1);

  g_assert_true (mshed_dfm_get_bone (dfm, 2, &b));
  g_assert_cmpstr (b.object_name, ==, "Arm");
  g_assert_cmpint (b.parent, ==, 0);                  /* through the first Cons record */
  g_assert_false (b.has_lod_bits);
  g_assert_false (mshed_dfm_get_bone (dfm, 3, &b));
  g_assert_cmpint (mshed_dfm_find_bone (dfm, "arm"), ==, 2);
  g_assert_cmpint (mshed_dfm_find_bone (dfm, "Neck"), ==, -1);

  g_assert_cmpuint (mshed_dfm_get_n_parts (dfm), ==, 2);
  g_assert_true (mshed_dfm_get_part (dfm, 1, &p));
  g_assert_false (p.root);
  g_assert_cmpstr (p.file_name, ==, "ARM01.3DB");
  g_assert_true (p.has_index);
  g_assert_cmpint (p.index, ==, 2);
  g_assert_cmpint (p.bone, ==, 2);
  g_assert_true (mshed_dfm_get_part (dfm, 0, &p));
  g_assert_true (p.root);
}

/* defaults of docs/dfm.md §10.4: origin, identity, +Y, 0 */
static void
test_hardpoints (void)
{
  static const float pos[] = { 0.5f, 0, 0 }, identity[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  static const float up[] = { 0, 1, 0 }, x[] = { 1, 0, 0 }, origin[] = { 0, 0, 0 };
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedDfmHardpoint hp;

  g_assert_true (mshed_dfm_get_hardpoint (dfm, 1, 0, &hp));
  g_assert_cmpstr (hp.name, ==, "hp_neck");
  g_assert_false (hp.revolute);
  assert_vec (hp.position, pos, 3);
  assert_vec (hp.orientation, identity, 9);
  assert_vec (hp.axis, up, 3);
  g_assert_true (mshed_dfm_get_hardpoint (dfm, 2, 0, &hp));
  g_assert_true (hp.revolute);
  assert_vec (hp.position, origin, 3);
  assert_vec (hp.axis, x, 3);
  g_assert_cmpfloat (hp.min, ==, -1.0f);
  g_assert_cmpfloat (hp.max, ==, 2.0f);
  g_assert_false (mshed_dfm_get_hardpoint (dfm, 0, 0, &hp));
}

/* every kind, its record size, and each field at its offset (docs/dfm.md §9.1) */
static void
test_joints (void)
{
  g_autoptr(MshedDfm) dfm = open_model ();

  g_assert_cmpuint (mshed_dfm_get_n_joints (dfm), ==, G_N_ELEMENTS (cons_sizes));
  for (guint k = 0; k < G_N_ELEMENTS (cons_sizes); k++)
    {
      MshedDfmJoint j;
      float pos[3] = { 128, 132, 136 };

      g_assert_true (mshed_dfm_get_joint (dfm, k, &j));
      g_assert_cmpstr (mshed_dfm_joint_kind_name (j.kind), ==, cons_sizes[k].name);
      g_assert_cmpuint (mshed_dfm_joint_record_size (j.kind), ==, cons_sizes[k].size);
      g_assert_cmpuint (j.record, ==, 0);
      g_assert_cmpstr (j.parent, ==, "Root");
      g_assert_cmpstr (j.child, ==, "Arm");
      g_assert_true (j.residue);
      g_assert_cmpint (j.parent_bone, ==, 0);
      g_assert_cmpint (j.child_bone, ==, 2);
      assert_vec (j.position, pos, 3);
      if (cons_sizes[k].size == 176)
        {
          /* Fix, Loose: position[3] +128, rotation[9] +140 */
          g_assert_cmpfloat (j.rotation[0], ==, 140);
          g_assert_cmpfloat (j.rotation[8], ==, 172);
          g_assert_cmpfloat (j.offset[0], ==, 0);
          g_assert_cmpuint (j.n_limits, ==, 0);
        }
      else
        {
          /* Rev, Pris, Cyl, Sphere: offset/childPoint +140, rotation +152 */
          g_assert_cmpfloat (j.offset[0], ==, 140);
          g_assert_cmpfloat (j.rotation[0], ==, 152);
          g_assert_cmpfloat (j.rotation[8], ==, 184);
          g_assert_cmpfloat (j.limits[0], ==, 188 + (cons_sizes[k].size == 212 ? 0 : 12));
          g_assert_cmpfloat (j.limits[j.n_limits - 1], ==, cons_sizes[k].size - 4);
          g_assert_cmpuint (j.n_limits, ==, cons_sizes[k].size == 212 ? 6
                                            : cons_sizes[k].size == 216 ? 4 : 2);
          if (cons_sizes[k].size != 212)
            g_assert_cmpfloat (j.axis[0], ==, 188);
        }
    }
}

static void
test_materials (void)
{
  static const float dc[] = { 0.5f, 0.25f, 1.0f };
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedDfmMaterial m;

  g_assert_cmpuint (mshed_dfm_get_n_materials (dfm), ==, 1);
  g_assert_true (mshed_dfm_get_material (dfm, 0, &m));
  g_assert_cmpstr (m.name, ==, "mat");
  g_assert_cmpstr (m.type, ==, "DcDt");
  g_assert_cmpstr (m.dt_name, ==, "mat.tga");
  g_assert_true (m.has_dt_flags);
  g_assert_cmpuint (m.dt_flags, ==, 0x40);
  g_assert_true (m.has_dc);
  assert_vec (m.dc, dc, 3);
  g_assert_cmpint (mshed_dfm_find_material (dfm, "MAT"), ==, 0);
  g_assert_cmpint (mshed_dfm_find_material (dfm, "other"), ==, -1);
  g_assert_cmpuint (mshed_dfm_get_n_textures (dfm), ==, 1);
  g_assert_cmpstr (mshed_utf_node_get_name (mshed_dfm_get_texture (dfm, 0)), ==, "mat.tga");
}

/* payload offsets agree with the entries of the file (docs/utf.md §3) and the bytes there */
static void
test_offsets (void)
{
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  MshedUtfNode *points = t_lookup (utf, "\\MultiLevel\\Mesh0\\Geometry\\Points");
  MshedUtfNode *geo = mshed_utf_node_get_parent (points);
  const guint8 *file = g_bytes_get_data (mshed_utf_get_source (utf), NULL);
  MshedUtfEntry e;
  guint32 slot;
  guint64 offset;
  MshedDfmArray a;

  g_assert_true (mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_POINTS, 0, 0, &a));
  g_assert_true (a.node == points);
  g_assert_cmpuint (a.stride, ==, 12);
  g_assert_cmpuint (a.count, ==, 3);
  g_assert_true (mshed_utf_node_get_source_entry (utf, points, NULL, &e));
  g_assert_true (mshed_dfm_get_payload_offset (dfm, points, &offset));
  g_assert_cmpuint (offset, ==, (guint64) mshed_utf_get_header (utf)->data_offset + e.child_offset);
  g_assert_cmpmem (file + offset, 36, a.data, 36);
  g_assert_true (mshed_utf_node_get_source_entry (utf, geo, &slot, NULL));
  g_assert_true (mshed_dfm_get_payload_offset (dfm, geo, &offset));
  g_assert_cmpuint (offset, ==, (guint64) mshed_utf_get_header (utf)->tree_offset + slot);
}

/* a topology edit: the group gets new triangles as a strip; the edit's inverse gives the
 * original file back byte for byte */
static void
test_set_triangles (void)
{
  static const guint16 tris[] = { 3, 2, 1, 0, 1, 3, 1, 2, 0 };
  static const guint16 flat[] = { 1, 1, 2 };
  g_autoptr(MshedDfm) dfm = open_model ();
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  g_autoptr(GBytes) before = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
  g_autoptr(GBytes) old = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GError) error = NULL;
  MshedUtfNode *node = NULL;
  gsize n;
  g_autofree guint16 *back = NULL;

  old = mshed_dfm_set_triangles (dfm, 0, 0, tris, 3, &node, &error);
  g_assert_no_error (error);
  g_assert_nonnull (old);
  back = mshed_dfm_dup_triangles (dfm, 0, 0, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpmem (back, sizeof tris, tris, sizeof tris);
  g_assert_null (mshed_dfm_set_triangles (dfm, 0, 0, flat, 1, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);

  g_bytes_unref (mshed_utf_set_data (utf, node, old));
  after = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
  g_assert_true (g_bytes_equal (before, after));
}

/* The schema -------------------------------------------------------------------------------- */

static void
test_schema (void)
{
  static const struct {
    MshedDfmTable id;
    guint         stride;
    const char   *last;
    guint         last_offset;
  } t[] = {
    { MSHED_DFM_TABLE_CONS_FIX, 176, "rot22", 172 },
    { MSHED_DFM_TABLE_CONS_LOOSE, 176, "rot22", 172 },
    { MSHED_DFM_TABLE_CONS_REV, 208, "max", 204 },
    { MSHED_DFM_TABLE_CONS_PRIS, 208, "max", 204 },
    { MSHED_DFM_TABLE_CONS_CYL, 216, "maxRot", 212 },
    { MSHED_DFM_TABLE_CONS_SPHERE, 212, "maxZ", 208 },
    { MSHED_DFM_TABLE_BONE_TO_ROOT, 48, "tZ", 44 },
    { MSHED_DFM_TABLE_POINTS, 12, "z", 8 },
    { MSHED_DFM_TABLE_UV0, 8, "v", 4 },
    { MSHED_DFM_TABLE_TRISTRIP, 2, "index", 0 },
    { MSHED_DFM_TABLE_LOD_BITS, 1, "bits", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (t); i++)
    {
      const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (t[i].id);
      const MshedField *f = mshed_dfm_schema_find_field (info, t[i].last);

      g_assert_cmpuint (info->stride, ==, t[i].stride);
      g_assert_nonnull (f);
      g_assert_cmpuint (f->offset, ==, t[i].last_offset);
      g_assert_true (mshed_dfm_schema_find_table (info->name) == info);
    }
  /* every field inside its record, every name unique, ids in order; Cons names at 0 and 64 */
  for (MshedDfmTable id = MSHED_DFM_TABLE_FIRST; id < MSHED_DFM_TABLE_LAST; id++)
    {
      const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (id);

      g_assert_cmpint (info->id, ==, id);
      for (guint k = 0; k < info->n_fields; k++)
        g_assert_cmpuint (info->fields[k].offset + mshed_field_type_size (info->fields[k].type),
                          <=, info->stride);
      for (guint k = 0; k < info->n_texts; k++)
        g_assert_cmpuint (info->texts[k].offset, ==, 64 * k);
    }
  g_assert_null (mshed_dfm_schema_get_table (MSHED_DFM_TABLE_LAST));
  g_assert_null (mshed_dfm_schema_get_table ((MshedDfmTable) MSHED_TABLE_NODES));
  g_assert_null (mshed_dfm_schema_find_table ("no-such-table"));
  /* DFM ids never collide with the MSH tables that diagnostics also carry */
  g_assert_cmpint (MSHED_DFM_TABLE_FIRST, >=, MSHED_N_TABLES);
}

static void
test_schema_nodes (void)
{
  static const struct { const char *path; MshedDfmTable table; } t[] = {
    { "\\Exporter Version", MSHED_DFM_TABLE_EXPORTER_VERSION },
    { "\\MultiLevel\\Fractions", MSHED_DFM_TABLE_FRACTIONS },
    { "\\MultiLevel\\Mesh0\\Face_groups\\Count", MSHED_DFM_TABLE_GROUP_COUNT },
    { "\\multilevel\\mesh0\\face_groups\\group0\\tristrip_indices", MSHED_DFM_TABLE_TRISTRIP },
    { "\\MultiLevel\\Mesh0\\Geometry\\Points", MSHED_DFM_TABLE_POINTS },
    { "\\MultiLevel\\Mesh0\\Geometry\\UV_default_list", MSHED_DFM_TABLE_UV_DEFAULT_LIST },
    { "\\Skeleton\\Name", MSHED_DFM_TABLE_SKELETON_NAME },
    { "\\Cmpnd\\Scale", MSHED_DFM_TABLE_SCALE },
    { "\\Cmpnd\\Part_Arm\\Index", MSHED_DFM_TABLE_PART_INDEX },
    { "\\Cmpnd\\Cons\\Cyl", MSHED_DFM_TABLE_CONS_CYL },
    { "\\Cmpnd\\Cons\\Sphere", MSHED_DFM_TABLE_CONS_SPHERE },
    { "\\Root01.3db\\Bone to root", MSHED_DFM_TABLE_BONE_TO_ROOT },
    { "\\Neck01.3db\\Lod Bits", MSHED_DFM_TABLE_LOD_BITS },
    { "\\Neck01.3db\\Hardpoints\\Fixed\\hp_neck\\Position", MSHED_DFM_TABLE_HP_POSITION },
    { "\\Arm01.3db\\Hardpoints\\Revolute\\hp_rev\\Max", MSHED_DFM_TABLE_HP_MAX },
    { "\\Material library\\Material count", MSHED_DFM_TABLE_MATERIAL_COUNT },
    { "\\Material library\\mat\\Dc", MSHED_DFM_TABLE_MATERIAL_DC },
    { "\\MultiLevel\\Mesh0", MSHED_DFM_TABLE_NONE },
    { "\\Texture library\\mat.tga\\MIP0", MSHED_DFM_TABLE_NONE },
  };
  g_autoptr(MshedUtf) utf = build_model ();
  g_autoptr(MshedDfm) dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (t); i++)
    {
      MshedUtfNode *node = t_lookup (utf, t[i].path);

      g_assert_cmpint (mshed_dfm_schema_table_for_node (node), ==, t[i].table);
      if (t[i].table != MSHED_DFM_TABLE_NONE && mshed_dfm_schema_get_table (t[i].table)->scope !=
                                                MSHED_DFM_SCOPE_CONS)
        {
          const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (t[i].table);
          guint a = info->scope == MSHED_DFM_SCOPE_PART ? 1
                    : info->scope == MSHED_DFM_SCOPE_BONE && strstr (t[i].path, "Neck") ? 1
                    : info->scope == MSHED_DFM_SCOPE_HARDPOINT ? (strstr (t[i].path, "Arm") ? 2 : 1)
                    : 0;

          g_assert_true (mshed_dfm_find_node (dfm, t[i].table, a, 0) == node);
        }
    }
}

/* The generator ---------------------------------------------------------------------------- */

static const Case cases[] = {
  { MSHED_DFM_GEN_BODY, 1, 6, FALSE, FALSE, FALSE },
  { MSHED_DFM_GEN_BODY, 2, 4, TRUE, TRUE, FALSE },
  { MSHED_DFM_GEN_HEAD, 3, 6, TRUE, FALSE, FALSE },
  { MSHED_DFM_GEN_HEAD, 4, 4, FALSE, FALSE, TRUE },
  { MSHED_DFM_GEN_HEAD, 11, 6, FALSE, FALSE, FALSE },
  { MSHED_DFM_GEN_HAND, 5, 6, TRUE, FALSE, FALSE },
  { MSHED_DFM_GEN_HAND, 6, 6, FALSE, TRUE, FALSE },
};

static MshedDfm *
generated (const Case        *c,
           MshedDiagnostics  *diags)
{
  MshedDfmGenParams p;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm;

  case_params (c, &p);
  bytes = mshed_dfm_generate_bytes (&p);
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (dfm);
  return dfm;
}

static void
test_generator_deterministic (void)
{
  MshedDfmGenParams p;
  g_autoptr(GBytes) a = NULL;
  g_autoptr(GBytes) b = NULL;
  g_autoptr(GBytes) other = NULL;

  mshed_dfm_gen_params_init (&p, MSHED_DFM_GEN_HEAD, 42);
  a = mshed_dfm_generate_bytes (&p);
  b = mshed_dfm_generate_bytes (&p);
  g_assert_true (g_bytes_equal (a, b));
  p.seed = 43;
  other = mshed_dfm_generate_bytes (&p);
  g_assert_false (g_bytes_equal (a, other));
}

/* strictly valid: no error and no warning; the notes are the ones retail files have too */
static void
test_generator_valid (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedDfm) dfm = generated (&cases[i], diags);

      g_assert_cmpuint (diags->n_errors, ==, 0);
      g_assert_cmpuint (diags->n_warnings, ==, 0);
      for (guint k = 0; k < mshed_diagnostics_get_n_items (diags); k++)
        {
          const MshedDiagnostic *d = mshed_diagnostics_get (diags, k);

          g_assert_cmpint (d->severity, ==, MSHED_SEVERITY_INFO);
          g_assert_true (d->check == MSHED_CHECK_DFM_NAME_RESIDUE ||
                         d->check == MSHED_CHECK_DFM_DETACHED_BONE ||
                         d->check == MSHED_CHECK_DFM_UNREFERENCED_POINTS);
          if (cases[i].no_residue)
            g_assert_cmpint (d->check, !=, MSHED_CHECK_DFM_NAME_RESIDUE);
        }
      if (!cases[i].no_residue)
        g_assert_nonnull (mshed_diagnostics_find (diags, MSHED_CHECK_DFM_NAME_RESIDUE));
    }
}

static void
check_fractions (MshedDfm *dfm,
                 guint     n_levels)
{
  static const float six[] = { 1, 0.8f, 0.6f, 0.4f, 0.2f, 0.1f }, four[] = { 1, 0.8f, 0.6f, 0.2f };
  const float *want = n_levels == 4 ? four : six;

  g_assert_cmpuint (mshed_dfm_get_n_levels (dfm), ==, n_levels);
  g_assert_cmpuint (mshed_dfm_get_n_fractions (dfm), ==, n_levels);
  for (guint l = 0; l < n_levels; l++)
    {
      float f;

      g_assert_true (mshed_dfm_get_fraction (dfm, l, &f));
      g_assert_cmpfloat (f, ==, want[l]);
    }
}

/* influences 1..4 summing to 1, ids inside the bone table; returns how many points have k */
static void
check_skin (MshedDfm *dfm,
            guint     level,
            guint     histogram[5])
{
  MshedDfmLevel info;

  mshed_dfm_get_level (dfm, level, &info);
  for (guint p = 0; p < info.n_points; p++)
    {
      guint32 first, count;
      double sum = 0;

      g_assert_true (mshed_dfm_get_skin_range (dfm, level, p, &first, &count));
      g_assert_cmpuint (count, >=, 1);
      g_assert_cmpuint (count, <=, 4);
      histogram[count]++;
      for (guint32 k = first; k < first + count; k++)
        {
          guint32 bone;
          float w;

          g_assert_true (mshed_dfm_get_influence (dfm, level, k, &bone, &w));
          g_assert_cmpuint (bone, <, mshed_dfm_get_n_bones (dfm));
          g_assert_cmpfloat (w, >, 0);
          sum += w;
        }
      g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-6);
    }
}

/* docs/dfm.md §5.2: (p1 − p0) × (p2 − p0) on the side of the stored normals */
static void
check_winding (MshedDfm *dfm,
               guint     level)
{
  MshedDfmLevel info;

  mshed_dfm_get_level (dfm, level, &info);
  for (guint g = 0; g < info.n_groups; g++)
    {
      gsize n;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, level, g, &n);

      g_assert_cmpuint (n, >, 0);
      for (gsize t = 0; t < n; t++)
        {
          MshedDfmElement e[3];
          double a[3], b[3], cr[3], dot = 0;

          for (guint k = 0; k < 3; k++)
            g_assert_true (mshed_dfm_get_element (dfm, level, tris[3 * t + k], &e[k]));
          for (guint i = 0; i < 3; i++)
            {
              a[i] = e[1].position[i] - e[0].position[i];
              b[i] = e[2].position[i] - e[0].position[i];
            }
          cr[0] = a[1] * b[2] - a[2] * b[1];
          cr[1] = a[2] * b[0] - a[0] * b[2];
          cr[2] = a[0] * b[1] - a[1] * b[0];
          for (guint i = 0; i < 3; i++)
            dot += cr[i] * (e[0].normal[i] + e[1].normal[i] + e[2].normal[i]);
          g_assert_cmpfloat (dot, >, 0);
        }
    }
}

/* the rest chain of Cons reproduces Bind = inverse of Bone to root (docs/dfm.md §9.2) */
static void
check_chain (MshedDfm *dfm)
{
  guint n = mshed_dfm_get_n_bones (dfm);
  g_autofree double *world = g_new0 (double, 12 * n);
  g_autofree gboolean *done = g_new0 (gboolean, n);

  for (guint j = 0; j < mshed_dfm_get_n_joints (dfm); j++)
    {
      MshedDfmJoint joint;
      MshedDfmBone parent, child;
      float bind[12];
      const double *pw;
      double *cw;

      g_assert_true (mshed_dfm_get_joint (dfm, j, &joint));
      g_assert_true (joint.kind == MSHED_DFM_JOINT_SPHERE || joint.kind == MSHED_DFM_JOINT_LOOSE);
      g_assert_cmpint (joint.parent_bone, >=, 0);
      g_assert_cmpint (joint.child_bone, >, joint.parent_bone);
      mshed_dfm_get_bone (dfm, (guint) joint.parent_bone, &parent);
      mshed_dfm_get_bone (dfm, (guint) joint.child_bone, &child);
      g_assert_cmpint (child.parent, ==, joint.parent_bone);
      pw = world + 12 * joint.parent_bone;
      if (!done[joint.parent_bone])
        {
          mshed_dfm_bind_from_bone_to_root (parent.bone_to_root, bind);
          for (guint i = 0; i < 12; i++)
            world[12 * joint.parent_bone + i] = bind[i];
          done[joint.parent_bone] = TRUE;
        }
      /* World_child = World_parent · T(position) · R(rotation) */
      cw = world + 12 * joint.child_bone;
      for (guint r = 0; r < 3; r++)
        {
          for (guint c = 0; c < 3; c++)
            cw[3 * r + c] = pw[3 * r] * joint.rotation[c] + pw[3 * r + 1] * joint.rotation[3 + c] +
                            pw[3 * r + 2] * joint.rotation[6 + c];
          cw[9 + r] = pw[3 * r] * joint.position[0] + pw[3 * r + 1] * joint.position[1] +
                      pw[3 * r + 2] * joint.position[2] + pw[9 + r];
        }
      done[joint.child_bone] = TRUE;
      mshed_dfm_bind_from_bone_to_root (child.bone_to_root, bind);
      for (guint i = 0; i < 12; i++)
        g_assert_cmpfloat_with_epsilon (cw[i], bind[i], 1e-3);
    }
}

static void
test_generator_shapes (void)
{
  guint histogram[5] = { 0 };
  guint sphere = 0, loose = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autoptr(MshedDfm) dfm = generated (c, NULL);
      guint n_bones = mshed_dfm_get_n_bones (dfm), n_detached = 0, n_named = 0;
      guint8 all = (guint8) ((1u << c->n_levels) - 1);

      check_fractions (dfm, c->n_levels);
      /* bones per file: heads 63–86, bodies 28–57, hands 22 (docs/dfm.md §10.1) */
      if (c->kind == MSHED_DFM_GEN_HEAD)
        g_assert_true (n_bones >= 63 && n_bones <= 86);
      else if (c->kind == MSHED_DFM_GEN_BODY)
        g_assert_true (n_bones >= 28 && n_bones <= 57);
      else
        g_assert_cmpuint (n_bones, ==, 22);
      g_assert_cmpstr (mshed_dfm_get_skeleton_name (dfm), ==,
                       c->kind == MSHED_DFM_GEN_HEAD ? "Head02.cmp"
                       : c->kind == MSHED_DFM_GEN_BODY ? "AutoHeaderNode.cmp"
                       : c->seed % 2 == 0 ? "R Palm.cmp" : "L Palm.cmp");
      g_assert_cmpfloat (mshed_dfm_get_scale (dfm), ==, 1.0f);

      for (guint b = 0; b < n_bones; b++)
        {
          MshedDfmBone bone;
          MshedDfmHardpoint hp;

          g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
          g_assert_true (bone.has_bone_to_root);
          g_assert_true (bone.has_lod_bits);
          if (bone.part < 0)
            {
              /* detached: no part, no parent, Lod Bits 0, exactly one fixed hardpoint */
              n_detached++;
              g_assert_cmpuint (bone.lod_bits, ==, 0);
              g_assert_cmpint (bone.parent, ==, -1);
              g_assert_cmpuint (bone.n_hardpoints, ==, 1);
              g_assert_true (mshed_dfm_get_hardpoint (dfm, b, 0, &hp));
              g_assert_false (hp.revolute);
              if (g_str_has_prefix (bone.name, "Neck"))
                g_assert_cmpstr (hp.name, ==, "hp_neck");
              if (c->kind == MSHED_DFM_GEN_HAND)
                g_assert_cmpstr (hp.name, ==, c->seed % 2 == 0 ? "hp_right a" : "hp_left a");
            }
          else
            {
              n_named++;
              g_assert_true (bone.lod_bits == all || bone.lod_bits == 0);
              g_assert_true (b == 0 ? bone.parent == -1 : bone.parent >= 0);
            }
        }
      if (c->kind == MSHED_DFM_GEN_BODY)
        g_assert_cmpuint (n_detached, ==, 0);
      else if (c->kind == MSHED_DFM_GEN_HAND)
        g_assert_cmpuint (n_detached, ==, 1);
      else
        g_assert_true (n_detached >= 1 && n_detached <= 4);
      /* one constraint per named non-root bone (docs/dfm.md §8) */
      g_assert_cmpuint (mshed_dfm_get_n_joints (dfm), ==, n_named - 1);
      for (guint j = 0; j < mshed_dfm_get_n_joints (dfm); j++)
        {
          MshedDfmJoint joint;

          mshed_dfm_get_joint (dfm, j, &joint);
          g_assert_true (joint.residue != c->no_residue);
          sphere += joint.kind == MSHED_DFM_JOINT_SPHERE;
          loose += joint.kind == MSHED_DFM_JOINT_LOOSE;
        }
      check_chain (dfm);

      for (guint l = 0; l < c->n_levels; l++)
        {
          MshedDfmLevel level;
          MshedDfmUvBone uvb;

          g_assert_true (mshed_dfm_get_level (dfm, l, &level));
          g_assert_cmpuint (level.n_elements, <, 65536);
          g_assert_cmpuint (level.has_uv1, ==, c->uv1);
          /* the UV bone block only on Mesh0 of heads (docs/dfm.md §6.4) */
          g_assert_cmpuint (mshed_dfm_get_uv_bone (dfm, l, &uvb), ==,
                            c->kind == MSHED_DFM_GEN_HEAD && l == 0);
          for (guint g = 0; g < level.n_groups; g++)
            {
              MshedDfmGroup group;

              mshed_dfm_get_group (dfm, l, g, &group);
              g_assert_true (group.strip);
              g_assert_cmpint (group.material, >=, 0);
              g_assert_cmpuint (group.n_edges > 0, ==, c->edges && l == 0);
            }
          check_skin (dfm, l, histogram);
          check_winding (dfm, l);
        }
    }
  /* about the retail shares (docs/dfm.md §6.2, §18 item 9): most points have one influence,
   * some four, and Loose records outnumber Sphere ones */
  g_assert_cmpuint (histogram[1], >, histogram[2]);
  g_assert_cmpuint (histogram[2], >, histogram[3]);
  g_assert_cmpuint (histogram[3], >, histogram[4]);
  g_assert_cmpuint (histogram[4], >, 0);
  g_assert_cmpuint (loose, >, sphere);
  g_assert_cmpuint (sphere, >, 0);
}

/* generated → canonical bytes → read → written back: the same bytes, in the canonical layout
 * and in non-canonical layouts the writer must preserve (docs/utf.md §7) */
static void
test_generator_round_trip (void)
{
  static const MshedUtfGenLayout layouts[] = {
    0, MSHED_UTF_GEN_ALL_LAYOUTS, MSHED_UTF_GEN_SHARE_PAYLOADS | MSHED_UTF_GEN_NAMES_FIRST,
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint k = 0; k < G_N_ELEMENTS (layouts); k++)
      {
        MshedDfmGenParams p;
        g_autoptr(MshedUtf) tree = NULL;
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(GBytes) again = NULL;
        g_autoptr(GBytes) canonical = NULL;
        g_autoptr(GError) error = NULL;
        g_autoptr(MshedUtf) utf = NULL;
        g_autoptr(MshedDfm) dfm = NULL;

        case_params (&cases[i], &p);
        tree = mshed_dfm_generate (&p);
        bytes = mshed_utf_layout (tree, layouts[k], p.seed);
        utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, NULL, &error);
        g_assert_no_error (error);
        dfm = mshed_dfm_new (utf, MSHED_MODE_STRICT, NULL, &error);
        g_assert_no_error (error);
        /* reading through the view changes nothing */
        for (guint l = 0; l < mshed_dfm_get_n_levels (dfm); l++)
          {
            gsize n;

            g_free (mshed_dfm_dup_triangles (dfm, l, 0, &n));
          }
        again = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, &error);
        g_assert_no_error (error);
        g_assert_true (g_bytes_equal (bytes, again));
        if (layouts[k] == 0)
          {
            canonical = mshed_dfm_generate_bytes (&p);
            g_assert_true (g_bytes_equal (bytes, canonical));
            g_assert_true (mshed_utf_is_canonical (utf));
          }
      }
}

/* Fields of unknown meaning (docs/dfm.md §6.4, §9.3): UV_plane_distance and the non-zero
 * padding of Cons names, with the byte range of each. */
static void
test_unknown_fields (void)
{
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *geo = t_dir (utf, t_dir (utf, t_dir (utf, root, "MultiLevel"), "Mesh0"),
                             "Geometry");
  MshedUtfNode *cons = t_dir (utf, t_dir (utf, root, "Cmpnd"), "Cons");
  guint8 loose[2 * 176] = { 0 };
  static const float plane[] = { 1.0f };
  g_autoptr(GArray) found = NULL;
  const MshedDfmUnknownField *u;

  t_f32s (utf, geo, "UV_plane_distance", plane, 1);
  /* record 0: "Root" then residue "AB" at 5..6 in the parent name, a clean child name;
   * record 1: clean parent, residue 0x01 at 64 + 3 + 1 + 9 in the child name */
  memcpy (loose, "Root\0AB", 7);
  memcpy (loose + 64, "Arm", 3);
  memcpy (loose + 176, "Arm", 3);
  memcpy (loose + 176 + 64, "Hand", 4);
  loose[176 + 64 + 4 + 1 + 9] = 0x01;
  t_file (utf, cons, "Loose", loose, sizeof loose);
  /* not a whole record: the tail is not read */
  t_file (utf, cons, "Fix", loose, 100);

  found = mshed_dfm_schema_collect_unknown (root);
  g_assert_cmpuint (found->len, ==, 3);
  u = &g_array_index (found, MshedDfmUnknownField, 0);
  g_assert_cmpint (u->table, ==, MSHED_DFM_TABLE_UV_PLANE_DISTANCE);
  g_assert_cmpstr (u->field, ==, "uv_plane_distance");
  g_assert_false (u->padding);
  g_assert_cmpuint (u->record, ==, 0);
  g_assert_cmpuint (u->offset, ==, 0);
  g_assert_cmpuint (u->size, ==, 4);
  u = &g_array_index (found, MshedDfmUnknownField, 1);
  g_assert_cmpint (u->table, ==, MSHED_DFM_TABLE_CONS_LOOSE);
  g_assert_cmpstr (u->field, ==, "parent");
  g_assert_true (u->padding);
  g_assert_cmpuint (u->record, ==, 0);
  g_assert_cmpuint (u->offset, ==, 5);
  g_assert_cmpuint (u->size, ==, 2);
  u = &g_array_index (found, MshedDfmUnknownField, 2);
  g_assert_cmpstr (u->field, ==, "child");
  g_assert_cmpuint (u->record, ==, 1);
  g_assert_cmpuint (u->offset, ==, 176 + 64 + 5);
  g_assert_cmpuint (u->size, ==, 10);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/dfm/levels", test_levels);
  g_test_add_func ("/model/dfm/triangles", test_triangles);
  g_test_add_func ("/model/dfm/elements", test_elements);
  g_test_add_func ("/model/dfm/skin", test_skin);
  g_test_add_func ("/model/dfm/uv-bone", test_uv_bone);
  g_test_add_func ("/model/dfm/bones", test_bones);
  g_test_add_func ("/model/dfm/hardpoints", test_hardpoints);
  g_test_add_func ("/model/dfm/joints", test_joints);
  g_test_add_func ("/model/dfm/materials", test_materials);
  g_test_add_func ("/model/dfm/offsets", test_offsets);
  g_test_add_func ("/model/dfm/set-triangles", test_set_triangles);
  g_test_add_func ("/model/dfm/schema", test_schema);
  g_test_add_func ("/model/dfm/schema-nodes", test_schema_nodes);
  g_test_add_func ("/model/dfm/generator-deterministic", test_generator_deterministic);
  g_test_add_func ("/model/dfm/generator-valid", test_generator_valid);
  g_test_add_func ("/model/dfm/generator-shapes", test_generator_shapes);
  g_test_add_func ("/model/dfm/generator-round-trip", test_generator_round_trip);
  g_test_add_func ("/model/dfm/unknown-fields", test_unknown_fields);
  return g_test_run ();
}
