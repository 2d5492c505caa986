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

int
main (int   argc,
      char *argv[])
{
  widget_test_init (&argc, &argv);

  g_test_add_func ("/widgets/table-model/dfm-points", test_points);
  g_test_add_func ("/widgets/table-model/dfm-bones", test_bones);
  g_test_add_func ("/widgets/table-model/dfm-diagnostic-rows", test_diagnostic_rows);
  return g_test_run ();
}
