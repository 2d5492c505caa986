/* test-table-model.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MshedTableModel backed by DFM tables of a generated head (docs/dfm.md): rows of the level
 * chosen, values as the DFM view reads them, the linked normals beside the points, edits as
 * document commands, one row per bone for Bone to root with the bone's name, and problems
 * placed on their own level's (bone's) row only.
 */
#include "config.h"

#include <string.h>

#include "widget-test-util.h"
#include "mshed-dfm-generator.h"
#include "mshed-table-model.h"

static MshedDocument *
head_document (void)
{
  MshedDfmGenParams params;
  g_autoptr(MshedUtf) utf = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 7);
  utf = mshed_dfm_generate (&params);
  return mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
}

static guint
column (MshedTableModel *model,
        const char      *id)
{
  gint c = mshed_table_model_find_column (model, id);

  g_assert_cmpint (c, >=, 0);
  return (guint) c;
}

static void
test_points (void)
{
  g_autoptr(MshedDocument) doc = head_document ();
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autoptr(MshedTableModel) model = mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_POINTS, 0,
                                                                0);
  MshedDfmLevel level0, level1;
  float position[3], normal[3];
  double value;
  guint record = G_MAXUINT;

  g_assert_nonnull (dfm);
  g_assert_true (mshed_dfm_get_level (dfm, 0, &level0));
  g_assert_true (mshed_dfm_get_level (dfm, 1, &level1));
  g_assert_cmpuint (level0.n_points, !=, level1.n_points);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, level0.n_points);

  /* x, y, z of Points and nx, ny, nz of Vertex_normals on one row (docs/dfm.md §6.1) */
  g_assert_true (mshed_dfm_get_point (dfm, 0, 2, position, normal));
  g_assert_true (mshed_table_model_get_cell_value (model, 2, column (model, "y"), &value));
  g_assert_cmpfloat (value, ==, position[1]);
  g_assert_true (mshed_table_model_get_cell_value (model, 2, column (model, "nz"), &value));
  g_assert_cmpfloat (value, ==, normal[2]);
  g_assert_true (mshed_table_model_get_dfm_node (model, 2, column (model, "nz"), &record) ==
                 mshed_utf_lookup (mshed_document_get_utf (doc),
                                   "\\MultiLevel\\Mesh0\\Geometry\\Vertex_normals"));
  g_assert_cmpuint (record, ==, 2);

  /* an edit is a document command on that file */
  g_assert_true (mshed_table_model_set_cell_text (model, 3, column (model, "x"), "0,5", NULL));
  g_assert_true (mshed_dfm_get_point (dfm, 0, 3, position, normal));
  g_assert_cmpfloat (position[0], ==, 0.5f);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), !=, NULL);
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_get_modified (doc));

  /* another level */
  mshed_table_model_set_dfm_scope (model, 1, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, level1.n_points);
  g_assert_true (mshed_dfm_get_point (dfm, 1, 4, position, normal));
  g_assert_true (mshed_table_model_get_cell_value (model, 4, column (model, "x"), &value));
  g_assert_cmpfloat (value, ==, position[0]);
}

static void
test_bones (void)
{
  g_autoptr(MshedDocument) doc = head_document ();
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autoptr(MshedTableModel) model =
    mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_BONE_TO_ROOT, 0, 0);
  g_autofree char *name = NULL;
  g_autofree char *renamed = NULL;
  MshedDfmBone bone;
  double value;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==,
                    mshed_dfm_get_n_bones (dfm));
  g_assert_true (mshed_dfm_get_bone (dfm, 2, &bone));
  name = mshed_table_model_dup_cell_text (model, 2, column (model, "name"), NULL);
  g_assert_cmpstr (name, ==, bone.name);
  /* t is the translation after the 3×3 rows of R (docs/dfm.md §10.2) */
  g_assert_true (mshed_table_model_get_cell_value (model, 2, column (model, "tY"), &value));
  g_assert_cmpfloat (value, ==, bone.bone_to_root[10]);
  g_assert_true (mshed_table_model_get_cell_value (model, 2, column (model, "r11"), &value));
  g_assert_cmpfloat (value, ==, bone.bone_to_root[4]);

  /* the name column renames the bone's directory */
  g_assert_true (mshed_table_model_set_cell_text (model, 2, column (model, "name"),
                                                  "Renamed.3db", NULL));
  renamed = mshed_utf_node_dup_path (bone.node);
  g_assert_cmpstr (renamed, ==, "\\Renamed.3db");
}

static void
test_diagnostic_rows (void)
{
  g_autoptr(MshedDocument) doc = head_document ();
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autoptr(MshedTableModel) elements =
    mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_POINT_INDICES, 0, 0);
  g_autoptr(MshedTableModel) bones =
    mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_BONE_TO_ROOT, 0, 0);
  MshedDiagnostic d = { 0 };
  MshedDfmBone bone;
  g_autofree char *bone_path = NULL;
  guint row = G_MAXUINT;

  /* element 5 of Mesh1: not a row of the Mesh0 grid, row 5 of the Mesh1 grid */
  d.table = MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINT_INDICES);
  d.record = 5;
  d.path = (char *) "\\MultiLevel\\Mesh1\\Geometry\\Point_indices";
  g_assert_false (mshed_table_model_diagnostic_row (elements, &d, &row));
  mshed_table_model_set_dfm_scope (elements, 1, 0);
  g_assert_true (mshed_table_model_diagnostic_row (elements, &d, &row));
  g_assert_cmpuint (row, ==, 5);

  /* a bone's Bone to root (record 0 of its file) is that bone's row */
  g_assert_true (mshed_dfm_get_bone (dfm, 4, &bone));
  bone_path = g_strdup_printf ("\\%s\\Bone to root", bone.name);
  d.table = MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_BONE_TO_ROOT);
  d.record = 0;
  d.path = bone_path;
  g_assert_true (mshed_table_model_diagnostic_row (bones, &d, &row));
  g_assert_cmpuint (row, ==, 4);
}

static void
put_f32s (guint8      *record,
          guint        offset,
          const float *values,
          guint        n)
{
  for (guint i = 0; i < n; i++)
    memcpy (record + offset + 4 * i, &values[i], 4);  /* little-endian hosts only */
}

static char *
cell (MshedTableModel *model,
      guint            row,
      const char      *id)
{
  return mshed_table_model_dup_cell_text (model, row, column (model, id), NULL);
}

#define assert_cell(model, row, id, expected) \
  G_STMT_START { \
    g_autofree char *text_ = cell (model, row, id); \
    g_assert_cmpstr (text_, ==, expected); \
  } G_STMT_END

/* A Rev joint built by hand (docs/dfm.md §9.1): position (1, 2, 3), offset (0.5, 0, 0), a
 * rotation of 90° about z, axis (2, 0, 0), limits −π/2 … π/4; and a Sphere joint with parent
 * point (1, 0, 0), child point (0, 1, 0), the same rotation, limits ±π/6, ±π/3, ±π/2. The
 * expected values are worked out by hand: origin (1.5, 2, 3); Euler angles (0, 0, 90); the
 * axis turned by 90° about z is +y; limits −90° and 45°; the Sphere origin
 * (1, 0, 0) − Rz(90°)·(0, 1, 0) = (2, 0, 0). */
static void
test_cons_decoded (void)
{
  g_autoptr(MshedDocument) doc = head_document ();
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  MshedUtfNode *cons = mshed_utf_lookup (mshed_document_get_utf (doc), "\\Cmpnd\\Cons");
  guint8 rev[208] = { 0 }, sphere[212] = { 0 };
  static const float rot[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 };
  static const float pos[3] = { 1, 2, 3 }, off[3] = { 0.5f, 0, 0 }, axis[3] = { 2, 0, 0 };
  static const float limits[2] = { (float) -G_PI_2, (float) G_PI_4 };
  static const float ppoint[3] = { 1, 0, 0 }, cpoint[3] = { 0, 1, 0 };
  static const float slimits[6] = { (float) -G_PI / 6, (float) G_PI / 6, (float) -G_PI / 3,
                                    (float) G_PI / 3, (float) -G_PI_2, (float) G_PI_2 };
  g_autoptr(GBytes) rev_bytes = NULL, sphere_bytes = NULL;
  g_autoptr(MshedTableModel) revs = NULL, spheres = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (dfm);
  g_assert_nonnull (cons);
  memcpy (rev, "Root", 4);
  memcpy (rev + 64, "Joint", 5);
  put_f32s (rev, 128, pos, 3);
  put_f32s (rev, 140, off, 3);
  put_f32s (rev, 152, rot, 9);
  put_f32s (rev, 188, axis, 3);
  put_f32s (rev, 200, limits, 2);
  memcpy (sphere, rev, 128);
  put_f32s (sphere, 128, ppoint, 3);
  put_f32s (sphere, 140, cpoint, 3);
  put_f32s (sphere, 152, rot, 9);
  put_f32s (sphere, 188, slimits, 6);
  rev_bytes = g_bytes_new (rev, sizeof rev);
  sphere_bytes = g_bytes_new (sphere, sizeof sphere);
  g_assert_nonnull (mshed_document_utf_add (doc, cons, G_MAXUINT, "Rev", rev_bytes, &error));
  g_assert_no_error (error);
  /* the head's own Sphere file gets a record in front */
  if (mshed_utf_node_lookup (cons, "Sphere") != NULL)
    g_assert_true (mshed_document_utf_remove (doc, mshed_utf_node_lookup (cons, "Sphere"),
                                              &error));
  g_assert_nonnull (mshed_document_utf_add (doc, cons, G_MAXUINT, "Sphere", sphere_bytes,
                                            &error));
  g_assert_no_error (error);

  revs = mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_CONS_REV, 0, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (revs)), ==, 1);
  assert_cell (revs, 0, "origin_x", "1.5000");
  assert_cell (revs, 0, "origin_y", "2.0000");
  assert_cell (revs, 0, "origin_z", "3.0000");
  assert_cell (revs, 0, "rx", "0.0000");
  assert_cell (revs, 0, "ry", "0.0000");
  assert_cell (revs, 0, "rz", "90.0000");
  assert_cell (revs, 0, "axis_x", "0.0000");
  assert_cell (revs, 0, "axis_y", "1.0000");
  assert_cell (revs, 0, "axis_z", "0.0000");
  assert_cell (revs, 0, "min_deg", "-90.0000");
  assert_cell (revs, 0, "max_deg", "45.0000");
  g_assert_cmpint (mshed_table_model_find_column (revs, "slide_min"), <, 0);
  g_assert_cmpint (mshed_table_model_find_column (revs, "minX_deg"), <, 0);
  /* read-only */
  g_assert_false (mshed_table_model_get_column (revs, column (revs, "max_deg"))->editable);

  /* editing the raw columns updates the decoded ones */
  g_assert_true (mshed_table_model_set_cell_text (revs, 0, column (revs, "max"), "1.5707963",
                                                  &error));
  g_assert_no_error (error);
  assert_cell (revs, 0, "max_deg", "90.0000");
  g_assert_true (mshed_table_model_set_cell_text (revs, 0, column (revs, "offX"), "-1",
                                                  &error));
  assert_cell (revs, 0, "origin_x", "0.0000");
  g_assert_true (mshed_table_model_set_cell_text (revs, 0, column (revs, "axisX"), "0",
                                                  &error));
  g_assert_true (mshed_table_model_set_cell_text (revs, 0, column (revs, "axisZ"), "-3",
                                                  &error));
  assert_cell (revs, 0, "axis_y", "0.0000");
  assert_cell (revs, 0, "axis_z", "-1.0000");

  spheres = mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_CONS_SPHERE, 0, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (spheres)), ==, 1);
  assert_cell (spheres, 0, "origin_x", "2.0000");
  assert_cell (spheres, 0, "origin_y", "0.0000");
  assert_cell (spheres, 0, "origin_z", "0.0000");
  assert_cell (spheres, 0, "rz", "90.0000");
  assert_cell (spheres, 0, "minX_deg", "-30.0000");
  assert_cell (spheres, 0, "maxX_deg", "30.0000");
  assert_cell (spheres, 0, "minY_deg", "-60.0000");
  assert_cell (spheres, 0, "maxY_deg", "60.0000");
  assert_cell (spheres, 0, "minZ_deg", "-90.0000");
  assert_cell (spheres, 0, "maxZ_deg", "90.0000");
  g_assert_cmpint (mshed_table_model_find_column (spheres, "axis_x"), <, 0);
}

/* Elements show their point's position, normal, UVs and skin joined in, read-only; editing
 * the point changes them; a joined cell follows to the point row (docs/dfm.md §6.1). */
static void
test_elements_joined (void)
{
  g_autoptr(MshedDocument) doc = head_document ();
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autoptr(MshedTableModel) elements =
    mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_POINT_INDICES, 0, 0);
  g_autoptr(MshedTableModel) points = mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_POINTS,
                                                                 0, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *skin = NULL;
  g_autofree char *expected = NULL;
  MshedTableId table;
  guint target = G_MAXUINT;
  double p;
  guint32 first, count, bone;
  float weight;
  MshedDfmBone b;

  g_assert_true (mshed_table_model_get_cell_value (elements, 5, column (elements, "point"), &p));
  g_assert_false (mshed_table_model_get_column (elements, column (elements, "pos_x"))->editable);
  /* the point's values, written through the Points grid */
  g_assert_true (mshed_table_model_set_cell_text (points, (guint) p, column (points, "x"),
                                                  "1.25", &error));
  g_assert_true (mshed_table_model_set_cell_text (points, (guint) p, column (points, "z"),
                                                  "-2", &error));
  g_assert_true (mshed_table_model_set_cell_text (points, (guint) p, column (points, "ny"),
                                                  "0.5", &error));
  g_assert_no_error (error);
  assert_cell (elements, 5, "pos_x", "1.2500");
  assert_cell (elements, 5, "pos_z", "-2.0000");
  assert_cell (elements, 5, "nrm_y", "0.5000");
  g_assert_true (mshed_table_model_set_cell_text (elements, 5, column (elements, "uv"), "0",
                                                  &error));
  g_assert_no_error (error);
  {
    g_autoptr(MshedTableModel) uv0 = mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_UV0, 0, 0);

    g_assert_true (mshed_table_model_set_cell_text (uv0, 0, column (uv0, "u"), "0.75",
                                                    &error));
    g_assert_true (mshed_table_model_set_cell_text (uv0, 0, column (uv0, "v"), "0.125",
                                                    &error));
  }
  assert_cell (elements, 5, "uv0_u", "0.7500");
  assert_cell (elements, 5, "uv0_v", "0.1250");

  /* the skin: one influence, of bone 1, weight 1 */
  g_assert_true (mshed_dfm_get_skin_range (dfm, 0, (guint) p, &first, &count));
  g_assert_true (mshed_table_model_set_cell_text (points, (guint) p, column (points, "count"),
                                                  "1", &error));
  {
    g_autoptr(MshedTableModel) chain =
      mshed_table_model_new_dfm (doc, MSHED_DFM_TABLE_BONE_ID_CHAIN, 0, 0);

    g_assert_true (mshed_table_model_set_cell_text (chain, first, column (chain, "bone"), "1",
                                                    &error));
    g_assert_true (mshed_table_model_set_cell_text (chain, first, column (chain, "weight"),
                                                    "1", &error));
  }
  g_assert_no_error (error);
  g_assert_true (mshed_dfm_get_influence (dfm, 0, first, &bone, &weight));
  g_assert_cmpuint (bone, ==, 1);
  g_assert_true (mshed_dfm_get_bone (dfm, 1, &b));
  g_assert_nonnull (b.object_name);
  expected = g_strdup_printf ("%s 1.0000", b.object_name);
  skin = cell (elements, 5, "skin");
  g_assert_cmpstr (skin, ==, expected);

  /* follow reference: the point row */
  g_assert_true (mshed_table_model_get_reference (elements, 5, column (elements, "nrm_z"),
                                                  &table, &target));
  g_assert_cmpint (table, ==, MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINTS));
  g_assert_cmpuint (target, ==, (guint) p);
}

int
main (int   argc,
      char *argv[])
{
  widget_test_init (&argc, &argv);

  g_test_add_func ("/widgets/table-model/dfm-points", test_points);
  g_test_add_func ("/widgets/table-model/dfm-bones", test_bones);
  g_test_add_func ("/widgets/table-model/dfm-cons-decoded", test_cons_decoded);
  g_test_add_func ("/widgets/table-model/dfm-elements-joined", test_elements_joined);
  g_test_add_func ("/widgets/table-model/dfm-diagnostic-rows", test_diagnostic_rows);
  return g_test_run ();
}
