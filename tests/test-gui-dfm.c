/* test-gui-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Freelancer UTF files in the real application window under Xvfb: a generated DFM opens with
 * its UTF tree and the hex view on the selected file; any other UTF file opens as the generic
 * tree; a broken DFM opens tolerant with its problems, and a problem leads to its node.
 * With real keys (xdotool): rename a bone node (F2), edit a vertex weight in a grid, move a
 * subtree (Alt+Up), undo, redo and save, and compare the saved bytes with what the document
 * API alone produces for the same edits.
 * With MSHED_TEST_SCREENSHOT_DIR=DIR set it also saves pictures of the views there.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-test-util.h"
#include "mshed-bytes.h"
#include "mshed-cell-editor.h"
#include "mshed-dfm-generator.h"
#include "mshed-utf-generator.h"
#include "test-require.h"

static MshedApplication *app;

#define POINTS_PATH  "\\MultiLevel\\Mesh0\\Geometry\\Points"
#define INDICES_PATH "\\MultiLevel\\Mesh0\\Geometry\\Point_indices"

/* A generated head (seed 3) written to DIR/NAME, optionally with a u32 planted at @offset. */
static char *
write_head (const char *dir,
            const char *name,
            GBytes    **out_bytes)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  char *path = g_build_filename (dir, name, NULL);

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 3);
  bytes = mshed_dfm_generate_bytes (&params);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  if (out_bytes != NULL)
    *out_bytes = g_steal_pointer (&bytes);
  return path;
}

static void
shot (MshedWindow *window,
      const char  *name)
{
  gui_test_shot_sizes (window, name);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* A DFM opens in the window: the UTF tree instead of the node tree, the hex view on the file
 * selected there with the DFM fields overlaid, and nothing written. */
static void
test_open_dfm (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, "head.dfm", &bytes);
  g_autoptr(GBytes) after = NULL;
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  MshedUtfNode *points;
  MshedHexModel *hex;
  MshedHexOverlay ov;
  gsize size = 0;

  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  g_assert_cmpint (mshed_document_get_container (doc), ==, MSHED_CONTAINER_UTF);
  g_assert_nonnull (mshed_document_get_dfm (doc));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->utf_tree)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->node_tree)));
  /* the root is expanded: the root, Exporter Version, MultiLevel, Skeleton, Cmpnd, ... */
  g_assert_cmpuint (mshed_utf_tree_get_n_rows (window->utf_tree), >=, 4);
  g_assert_cmpstr (gtk_label_get_label (window->title_label), ==, "head.dfm");

  points = mshed_utf_lookup (mshed_document_get_utf (doc), POINTS_PATH);
  g_assert_nonnull (points);
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, points));
  g_assert_true (mshed_utf_tree_get_selected (window->utf_tree) == points);
  g_signal_emit_by_name (window->utf_tree, "node-selected", points);
  widget_test_iterate (100);
  hex = mshed_hex_view_get_model (window->hex_view);
  g_assert_true (mshed_hex_model_get_utf_node (hex) == points);
  mshed_utf_node_peek_data (points, &size);
  g_assert_cmpuint (mshed_hex_model_get_size (hex), ==, size);
  /* Points are 12-byte records of x, y, z (docs/dfm.md §6.1): byte 16 is y of record 1 */
  g_assert_true (mshed_hex_model_get_overlay (hex, 16, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_KNOWN);
  g_assert_cmpint (ov.table, ==, MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINTS));
  g_assert_cmpint (ov.record, ==, 1);
  g_assert_cmpstr (ov.label, ==, "y");
  g_assert_cmpuint (ov.start, ==, 16);
  g_assert_cmpuint (ov.length, ==, 4);
  shot (window, "dfm-tree.png");

  /* the bones: one row per bone directory, its name, Bone to root and Lod Bits */
  {
    MshedTableView *bones = window->dfm_grids[6];
    MshedTableModel *model = _mshed_table_view_get_model (bones);
    MshedDfmBone bone;
    g_autofree char *name = NULL;

    g_assert_cmpint (mshed_table_view_get_table (bones), ==,
                     MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_BONE_TO_ROOT));
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==,
                      mshed_dfm_get_n_bones (mshed_document_get_dfm (doc)));
    g_assert_true (mshed_dfm_get_bone (mshed_document_get_dfm (doc), 2, &bone));
    name = mshed_table_model_dup_cell_text (model, 2,
                                            (guint) mshed_table_model_find_column (model, "name"),
                                            NULL);
    g_assert_cmpstr (name, ==, bone.name);
    gtk_notebook_set_current_page (window->grid_notebook,
                                   gtk_notebook_page_num (window->grid_notebook,
                                                          GTK_WIDGET (bones)));
    shot (window, "dfm-bones.png");
  }

  g_assert_false (mshed_document_get_modified (doc));
  gui_test_close (window);
  after = gui_test_file_bytes (path);
  g_assert_true (g_bytes_equal (bytes, after));
  remove_dir (dir);
}

/* A UTF file that is no DFM (a random tree, as a .cmp or .mat would be) opens as the generic
 * tree and hex view, never an error. */
static void
test_open_generic_utf (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "ship.cmp", NULL);
  MshedUtfGenParams params = { 0 };
  g_autoptr(GBytes) bytes = NULL;
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  MshedUtfNode *root, *file = NULL;

  params.seed = 11;
  params.n_nodes = 40;
  bytes = mshed_utf_generate (&params);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  g_assert_cmpint (mshed_document_get_container (doc), ==, MSHED_CONTAINER_UTF);
  g_assert_null (mshed_document_get_dfm (doc));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->utf_tree)));
  g_assert_cmpuint (mshed_utf_tree_get_n_rows (window->utf_tree), >=, 2);

  /* the first file in tree order shows in the hex view, as opaque bytes */
  root = mshed_utf_get_root (mshed_document_get_utf (doc));
  for (MshedUtfNode *n = root; n != NULL && file == NULL;
       n = mshed_utf_node_next_preorder (n, root))
    if (!mshed_utf_node_is_directory (n) && mshed_utf_node_peek_data (n, NULL) != NULL)
      file = n;
  g_assert_nonnull (file);
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, file));
  g_signal_emit_by_name (window->utf_tree, "node-selected", file);
  widget_test_iterate (50);
  g_assert_true (mshed_hex_model_get_utf_node (mshed_hex_view_get_model (window->hex_view)) ==
                 file);
  {
    MshedHexOverlay ov;

    g_assert_true (mshed_hex_model_get_overlay (mshed_hex_view_get_model (window->hex_view), 0,
                                                &ov));
    g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
    g_assert_cmpint (ov.table, ==, MSHED_TABLE_NONE);
  }
  gui_test_close (window);
  remove_dir (dir);
}

/* A broken DFM (an element pointing past the points) opens in tolerant mode with the problem
 * listed; activating it selects the node in the tree and the record's bytes in the hex view. */
static void
test_broken_dfm (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, "broken.dfm", &bytes);
  g_autoptr(MshedUtf) utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  MshedUtfNode *indices = mshed_utf_lookup (utf, INDICES_PATH);
  const guint8 *data = mshed_utf_node_peek_data (indices, NULL);
  gsize offset = (gsize) (data - (const guint8 *) g_bytes_get_data (bytes, NULL)) + 5 * 4;
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  const MshedDiagnostics *diags;
  gboolean found = FALSE;
  guint n;

  /* element 5 of Mesh0 names point 60000 (docs/dfm.md §6.1: an index into Points) */
  mshed_write_u32 (copy + offset, 60000);
  g_assert_true (g_file_set_contents (path, (const char *) copy,
                                      (gssize) g_bytes_get_size (bytes), NULL));
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  g_assert_cmpint (mshed_document_get_mode (doc), ==, MSHED_MODE_TOLERANT);
  g_assert_true (gtk_revealer_get_reveal_child (window->notice_revealer));
  diags = mshed_document_get_diagnostics (doc);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);

      if (d->severity == MSHED_SEVERITY_ERROR && g_strcmp0 (d->path, INDICES_PATH) == 0 &&
          d->record == 5 && g_strcmp0 (d->field, "point") == 0 && d->offset == offset)
        found = TRUE;
    }
  g_assert_true (found);
  n = mshed_diagnostics_view_get_n_shown (window->diagnostics_view);
  g_assert_cmpuint (n, >=, 1);
  shot (window, "dfm-broken.png");

  /* the problem leads to its node and its bytes */
  found = FALSE;
  for (guint i = 0; i < n && !found; i++)
    {
      MshedUtfNode *sel;
      gint res;
      gsize res_off;

      mshed_diagnostics_view_activate (window->diagnostics_view, i);
      widget_test_iterate (50);
      sel = mshed_utf_tree_get_selected (window->utf_tree);
      if (sel == NULL || sel != mshed_utf_lookup (mshed_document_get_utf (doc), INDICES_PATH))
        continue;
      g_assert_true (mshed_hex_model_get_utf_node (mshed_hex_view_get_model (window->hex_view))
                     == sel);
      g_assert_true (mshed_hex_view_get_cursor (window->hex_view, &res, &res_off));
      g_assert_cmpint (res, ==, MSHED_HEX_SOURCE_UTF);
      if (res_off == 5 * 4)
        found = TRUE;
    }
  g_assert_true (found);
  gui_test_close (window);
  remove_dir (dir);
}

/* Types @text with real keys into the focused widget. */
static void
type_text (const char *text)
{
  g_autofree char *args = g_strdup_printf ("type --delay 10 -- '%s'", text);

  g_assert_true (gui_test_xdo (args));
}

/* The same three edits through the document API alone. */
static GBytes *
expected_bytes (const char *path,
                const char *bone_path,
                guint       chain)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  MshedUtf *utf;
  MshedUtfNode *node;

  g_assert_no_error (error);
  utf = mshed_document_get_utf (doc);
  g_assert_true (mshed_document_utf_rename (doc, mshed_utf_lookup (utf, bone_path),
                                            "Renamed.3db", &error));
  node = mshed_utf_lookup (utf, "\\MultiLevel\\Mesh0\\Geometry\\Bone_weight_chain");
  g_assert_true (mshed_document_dfm_set_field (doc, node, chain, "weight", "0.25", &error));
  node = mshed_utf_lookup (utf, "\\Texture library");
  g_assert_true (mshed_document_utf_move (doc, node, mshed_utf_get_root (utf),
                                          mshed_utf_node_get_index (node) - 1, &error));
  g_assert_no_error (error);
  return mshed_document_serialize_file (doc);
}

/* Real keys: F2 renames a bone directory in the tree, F2 in the Skin weights grid edits a
 * weight, Alt+Up moves a subtree (the Texture library above the Material library); Ctrl+Z
 * three times gives the original bytes back, Ctrl+Shift+Z three times the edits, Ctrl+S
 * saves what the document API alone makes of the same edits. */
static void
test_edit_undo_save (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *bone_path = NULL;
  g_autoptr(GBytes) unedited = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) expected = NULL;
  MshedWindow *window;
  MshedDocument *doc;
  MshedDfm *dfm;
  MshedUtf *utf;
  MshedDfmBone bone;
  MshedUtfNode *textures;
  MshedTableView *weights;
  guint32 bone_id;
  float weight;
  guint tex_index;
  const guint chain = 1;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  path = write_head (dir, "edit.dfm", &bytes);
  reference = write_head (dir, "reference.dfm", NULL);
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (window));
  doc = mshed_window_get_document (window);
  dfm = mshed_document_get_dfm (doc);
  utf = mshed_document_get_utf (doc);
  unedited = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (unedited, bytes));

  /* 1. rename bone 3's directory: F2 in the tree, type, Return */
  g_assert_true (mshed_dfm_get_bone (dfm, 3, &bone));
  bone_path = mshed_utf_node_dup_path (bone.node);
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, bone.node));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (window->utf_tree)));
  widget_test_iterate (50);
  gui_test_key ("F2");
  g_assert_true (mshed_cell_editor_is_open (mshed_utf_tree_get_editor (window->utf_tree)));
  type_text ("Renamed.3db");
  gui_test_key ("Return");
  g_assert_cmpstr (mshed_utf_node_get_name (mshed_utf_lookup (utf, "\\Renamed.3db")), ==,
                   "Renamed.3db");
  g_assert_null (mshed_utf_lookup (utf, bone_path));

  /* 2. a vertex weight in the Skin weights grid: F2, type, Return */
  weights = window->dfm_grids[3];
  g_assert_cmpint (mshed_table_view_get_table (weights), ==,
                   MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_BONE_ID_CHAIN));
  gtk_notebook_set_current_page (window->grid_notebook,
                                 gtk_notebook_page_num (window->grid_notebook,
                                                        GTK_WIDGET (weights)));
  widget_test_iterate (100);
  mshed_table_view_reveal (weights, chain, "weight");
  widget_test_iterate (200);
  gui_test_key ("F2");
  g_assert_true (mshed_cell_editor_is_open (_mshed_table_view_get_editor (weights)));
  type_text ("0.25");
  gui_test_key ("Return");
  g_assert_true (mshed_dfm_get_influence (dfm, 0, chain, &bone_id, &weight));
  g_assert_cmpfloat (weight, ==, 0.25f);
  shot (window, "dfm-grid.png");

  /* 3. move a subtree: the Texture library one up, with Alt+Up in the tree */
  textures = mshed_utf_lookup (utf, "\\Texture library");
  tex_index = mshed_utf_node_get_index (textures);
  g_assert_cmpuint (tex_index, >, 0);
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, textures));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (window->utf_tree)));
  widget_test_iterate (50);
  gui_test_key ("alt+Up");
  g_assert_cmpuint (mshed_utf_node_get_index (textures), ==, tex_index - 1);
  g_assert_true (mshed_utf_tree_get_selected (window->utf_tree) == textures);
  edited = mshed_document_serialize_file (doc);

  /* undo the three edits, redo them */
  for (guint i = 0; i < 3; i++)
    gui_test_key ("ctrl+z");
  {
    g_autoptr(GBytes) undone = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (undone, bytes));
    g_assert_false (mshed_document_get_modified (doc));
  }
  for (guint i = 0; i < 3; i++)
    gui_test_key ("ctrl+shift+z");
  {
    g_autoptr(GBytes) redone = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (redone, edited));
  }

  /* save, and compare with the document API alone */
  gui_test_key ("ctrl+s");
  widget_test_iterate (200);
  g_assert_false (mshed_document_get_modified (doc));
  saved = gui_test_file_bytes (path);
  expected = expected_bytes (reference, bone_path, chain);
  g_assert_true (g_bytes_equal (saved, expected));
  g_assert_false (g_bytes_equal (saved, bytes));

  gui_test_close (window);
  remove_dir (dir);
}

/* The head of the grid test: three groups on every level, edges on Mesh0. */
static GBytes *
grids_head (void)
{
  MshedDfmGenParams params;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 3);
  params.n_groups = 3;
  params.edges = TRUE;
  return mshed_dfm_generate_bytes (&params);
}

#define GEO_PATH   "\\MultiLevel\\Mesh0\\Geometry\\"
#define GROUP1_PATH "\\MultiLevel\\Mesh0\\Face_groups\\Group1\\"

/* The edits of test_grids_edit_undo_save through the document API alone. */
static GBytes *
grids_expected_bytes (const char *path,
                      const char *part_name_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  MshedUtf *utf;

  g_assert_no_error (error);
  utf = mshed_document_get_utf (doc);
  g_assert_true (mshed_document_dfm_set_field (doc, mshed_utf_lookup (utf, GROUP1_PATH
                                                                      "Edge_angles"),
                                               0, "angle", "0.5", &error));
  g_assert_true (mshed_document_dfm_set_field (doc, mshed_utf_lookup (utf, GEO_PATH "Min_du"),
                                               0, "min_du", "-0.125", &error));
  g_assert_true (mshed_document_dfm_set_field (doc, mshed_utf_lookup (utf, GEO_PATH
                                                                      "UV_default_list"),
                                               1, "u", "0.75", &error));
  g_assert_true (mshed_document_dfm_set_field (doc, mshed_utf_lookup (utf, part_name_path), 0,
                                               NULL, "Renamed_part", &error));
  {
    MshedDfm *dfm = mshed_document_get_dfm (doc);
    MshedDfmBone bone;
    MshedDfmHardpoint hp;
    guint b = 0;
    g_autofree char *bits = NULL;

    g_assert_true (mshed_dfm_get_bone (dfm, 1, &bone));
    bits = g_strdup_printf ("%u", bone.lod_bits ^ 0x02);
    g_assert_true (mshed_document_dfm_set_field (doc, mshed_dfm_find_node (dfm,
                                                                          MSHED_DFM_TABLE_LOD_BITS,
                                                                          1, 0),
                                                 0, "bits", bits, &error));
    while (!mshed_dfm_get_hardpoint (dfm, b, 0, &hp))
      b++;
    g_assert_true (mshed_document_utf_rename (doc, hp.node, "HpRenamed", &error));
  }
  g_assert_true (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 2, 1, &error));
  g_assert_no_error (error);
  return mshed_document_serialize_file (doc);
}

static void
show_grid (MshedWindow    *window,
           MshedTableView *grid)
{
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (grid)));
  gtk_notebook_set_current_page (window->grid_notebook,
                                 gtk_notebook_page_num (window->grid_notebook,
                                                        GTK_WIDGET (grid)));
  widget_test_iterate (100);
}

/* F2 on a cell of @grid, @text, Return: the cell shows what was typed. */
static void
edit_cell (MshedTableView *grid,
           guint           row,
           const char     *column,
           const char     *text,
           const char     *shown)
{
  MshedTableModel *model = _mshed_table_view_get_model (grid);
  gint c = mshed_table_model_find_column (model, column);
  g_autofree char *now = NULL;

  g_assert_cmpint (c, >=, 0);
  mshed_table_view_reveal (grid, row, column);
  widget_test_iterate (200);
  gui_test_key ("F2");
  g_assert_true (mshed_cell_editor_is_open (_mshed_table_view_get_editor (grid)));
  type_text (text);
  gui_test_key ("Return");
  now = mshed_table_model_dup_cell_text (model, row, (guint) c, NULL);
  g_assert_cmpstr (now, ==, shown);
}

static double
cell_value (MshedTableView *grid,
            guint           row,
            const char     *column)
{
  MshedTableModel *model = _mshed_table_view_get_model (grid);
  gint c = mshed_table_model_find_column (model, column);
  g_autofree char *text = NULL;

  g_assert_cmpint (c, >=, 0);
  text = mshed_table_model_dup_cell_text (model, row, (guint) c, NULL);
  g_assert_nonnull (text);
  return g_ascii_strtod (text, NULL);
}

/* The bones grid decodes Bone to root as the bind frame: origin −Rᵀ·t and Euler angles x, y,
 * z (degrees) with Rᵀ = Rz · Ry · Rx; rebuilding the matrix from the shown angles gives the
 * bind rotation back. */
static void
check_bone_frame (MshedTableView *bones,
                  MshedDfm       *dfm,
                  guint           row)
{
  MshedDfmBone bone;
  float bind[12];
  double x, y, z, cx, sx, cy, sy, cz, sz, m[9];

  g_assert_true (mshed_dfm_get_bone (dfm, row, &bone));
  mshed_dfm_bind_from_bone_to_root (bone.bone_to_root, bind);
  g_assert_cmpfloat_with_epsilon (cell_value (bones, row, "bind_x"), bind[9], 1e-3);
  g_assert_cmpfloat_with_epsilon (cell_value (bones, row, "bind_y"), bind[10], 1e-3);
  g_assert_cmpfloat_with_epsilon (cell_value (bones, row, "bind_z"), bind[11], 1e-3);
  x = cell_value (bones, row, "bind_rx") * G_PI / 180.0;
  y = cell_value (bones, row, "bind_ry") * G_PI / 180.0;
  z = cell_value (bones, row, "bind_rz") * G_PI / 180.0;
  cx = cos (x), sx = sin (x), cy = cos (y), sy = sin (y), cz = cos (z), sz = sin (z);
  m[0] = cz * cy, m[1] = cz * sy * sx - sz * cx, m[2] = cz * sy * cx + sz * sx;
  m[3] = sz * cy, m[4] = sz * sy * sx + cz * cx, m[5] = sz * sy * cx - cz * sx;
  m[6] = -sy, m[7] = cy * sx, m[8] = cy * cx;
  for (guint i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (m[i], bind[i], 1e-3);
}

/* The new grids with real keys: the face group chooser shows group 1's strip and edges; an
 * edge angle, a UV bone clamp, a UV bone default and a part's Object name are edited with F2;
 * the bones grid shows the decoded bind frame and Space flips one Lod Bits check box; a
 * hardpoint is renamed in its grid; a point is inserted with the grid's Insert Row action;
 * Ctrl+Z seven times gives the original bytes, Ctrl+Shift+Z seven times the edits, Ctrl+S
 * (and Return: "Save As Is" for the stale normals) saves what the document API alone makes
 * of the same edits. */
static void
test_grids_edit_undo_save (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "grids.dfm", NULL);
  g_autofree char *reference = g_build_filename (dir, "reference.dfm", NULL);
  g_autofree char *part_name_path = NULL;
  g_autoptr(GBytes) bytes = grids_head ();
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) expected = NULL;
  MshedWindow *window;
  MshedDocument *doc;
  MshedDfm *dfm;
  MshedDfmArray strip, edges;
  MshedDfmLevel level;
  MshedDfmPart part;
  MshedTableView *grid;
  MshedUtfNode *name_node;
  guint n_points;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  g_assert_true (g_file_set_contents (reference, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (window));
  doc = mshed_window_get_document (window);
  dfm = mshed_document_get_dfm (doc);

  /* group 1 in the chooser: the strip and edge grids show its files */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->dfm_group_dropdown)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (
                                                window->dfm_group_dropdown)), ==, 3);
  gtk_drop_down_set_selected (window->dfm_group_dropdown, 1);
  widget_test_iterate (100);
  g_assert_true (mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_TRISTRIP, 0, 1, &strip));
  g_assert_true (mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_EDGE_INDICES, 0, 1, &edges));
  g_assert_cmpuint (g_list_model_get_n_items (
                      G_LIST_MODEL (_mshed_table_view_get_model (window->dfm_grids[4]))), ==,
                    strip.count);
  grid = window->dfm_grids[13];
  g_assert_cmpint (mshed_table_view_get_table (grid), ==,
                   MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_EDGE_INDICES));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (_mshed_table_view_get_model (grid))),
                    ==, edges.count);

  /* 1. an edge angle of group 1 */
  show_grid (window, grid);
  edit_cell (grid, 0, "angle", "0.5", "0.5");
  shot (window, "dfm-edges.png");
  /* 2. the UV bone's smallest u delta */
  grid = window->dfm_grids[14];
  show_grid (window, grid);
  edit_cell (grid, 0, "min_du", "-0.125", "-0.125");
  shot (window, "dfm-uv-bone.png");
  /* 3. a UV bone default */
  grid = window->dfm_grids[15];
  show_grid (window, grid);
  edit_cell (grid, 1, "u", "0.75", "0.75");
  /* 4. part 1's Object name */
  g_assert_true (mshed_dfm_get_part (dfm, 1, &part));
  name_node = mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_OBJECT_NAME, 1, 0);
  g_assert_nonnull (name_node);
  part_name_path = mshed_utf_node_dup_path (name_node);
  grid = window->dfm_grids[16];
  show_grid (window, grid);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (_mshed_table_view_get_model (grid))),
                    ==, mshed_dfm_get_n_parts (dfm));
  edit_cell (grid, 1, "object_name", "Renamed_part", "Renamed_part");
  shot (window, "dfm-parts.png");
  /* 5. bone 1's Mesh1 check box: Space flips bit 1 of its Lod Bits */
  grid = window->dfm_grids[6];
  show_grid (window, grid);
  check_bone_frame (grid, dfm, 1);
  check_bone_frame (grid, dfm, 5);
  {
    MshedDfmBone bone;
    guint8 before;

    g_assert_true (mshed_dfm_get_bone (dfm, 1, &bone));
    before = bone.lod_bits;
    mshed_table_view_reveal (grid, 1, "Mesh1");
    widget_test_iterate (200);
    gui_test_key ("space");
    g_assert_true (mshed_dfm_get_bone (dfm, 1, &bone));
    g_assert_cmpuint (bone.lod_bits, ==, before ^ 0x02);
  }
  shot (window, "dfm-bones-frame.png");
  /* 6. a hardpoint's lower limit */
  grid = window->dfm_grids[17];
  show_grid (window, grid);
  {
    MshedDfmHardpoint hp;
    guint bone_index = 0;
    g_autofree char *hp_path = NULL;

    /* the first hardpoint is the first of the first bone that has any */
    while (!mshed_dfm_get_hardpoint (dfm, bone_index, 0, &hp))
      g_assert_cmpuint (++bone_index, <, mshed_dfm_get_n_bones (dfm));
    edit_cell (grid, 0, "name", "HpRenamed", "HpRenamed");
    g_assert_cmpstr (mshed_utf_node_get_name (hp.node), ==, "HpRenamed");
    hp_path = mshed_utf_node_dup_path (hp.node);
    g_assert_nonnull (strstr (hp_path, "Hardpoints"));
  }
  shot (window, "dfm-hardpoints.png");
  /* 7. a point inserted above point 2: a copy of it */
  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  n_points = level.n_points;
  grid = window->dfm_grids[0];
  show_grid (window, grid);
  mshed_table_view_reveal (grid, 2, "x");
  widget_test_iterate (100);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "table.insert-row", NULL));
  widget_test_iterate (100);
  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  g_assert_cmpuint (level.n_points, ==, n_points + 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (_mshed_table_view_get_model (grid))),
                    ==, n_points + 1);
  edited = mshed_document_serialize_file (doc);

  gui_test_undo_redo_keys (GTK_WIDGET (grid), doc, 7, bytes, edited);
  /* the new point makes the normals stale (docs/dfm.md §15.1): the dialog's default saves as
   * is */
  gui_test_key ("ctrl+s");
  widget_test_iterate (300);
  g_assert_true (mshed_document_get_modified (doc));
  gui_test_key ("Return");
  widget_test_iterate (300);
  g_assert_false (mshed_document_get_modified (doc));
  saved = gui_test_file_bytes (path);
  expected = grids_expected_bytes (reference, part_name_path);
  g_assert_true (g_bytes_equal (saved, expected));
  g_assert_false (g_bytes_equal (saved, bytes));

  gui_test_close (window);
  remove_dir (dir);
}

/* The largest generated body (20,000 points on Mesh0) opens and draws its first frame in the
 * window well within a second here; the time is logged as a figure, the bound is generous. */
static void
test_open_large (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "body.dfm", NULL);
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  MshedWindow *window = gui_test_window (app);
  gint64 t0, t1, t2;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 1);
  params.n_points = 20000;
  params.n_bones = 57;
  bytes = mshed_dfm_generate_bytes (&params);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  t0 = g_get_monotonic_time ();
  g_assert_true (mshed_window_open (window, path));
  t1 = g_get_monotonic_time ();
  /* the first frame with the tree, the points grid and the hex view laid out */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  t2 = g_get_monotonic_time ();
  g_test_message ("%zu KiB body: open %.0f ms, first frame %.0f ms more",
                  g_bytes_get_size (bytes) / 1024, (t1 - t0) / 1000.0, (t2 - t1) / 1000.0);
  g_assert_cmpuint (g_list_model_get_n_items (
                      G_LIST_MODEL (_mshed_table_view_get_model (window->dfm_grids[0]))), >=,
                    10000);
  g_assert_cmpint (t2 - t0, <, 10 * G_USEC_PER_SEC);
  gui_test_close (window);
  remove_dir (dir);
}

static GtkRange *
first_slider (MshedWindow *window)
{
  for (GtkWidget *c = gtk_widget_get_first_child (window->pose_list); c;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_RANGE (c))
      return GTK_RANGE (c);
  return NULL;
}

/* A DFM's preview: the skinned model draws in the model view; moving a joint's slider
 * changes the picture and leaves the document as it was (no undo step, same bytes); Reset
 * Pose brings the bind pose back. */
static void
test_preview_pose (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autofree guint32 *bind = NULL, *posed = NULL, *reset = NULL;
  MshedDfmGenParams params;
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  GtkRange *slider;
  GHashTable *colours = g_hash_table_new (NULL, NULL);
  int w, h, w2, h2;
  guint changed = 0;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 4);
  bytes = mshed_dfm_generate_bytes (&params);
  path = gui_test_write (dir, "body.dfm", bytes);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 740);
  g_assert_true (mshed_window_open (window, path));
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  doc = mshed_window_get_document (window);
  g_assert_true (gtk_widget_get_visible (window->pose_panel));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->model_view)));
  g_assert_nonnull (mshed_renderer_get_dfm (mshed_model_view_get_renderer (window->model_view)));

  bind = gui_test_grab (GTK_WIDGET (window), GTK_WIDGET (window->model_view), &w, &h);
  for (int i = 0; i < w * h; i++)
    g_hash_table_add (colours, GUINT_TO_POINTER (bind[i]));
  g_test_message ("%u colours in the preview", g_hash_table_size (colours));
  g_assert_cmpuint (g_hash_table_size (colours), >, 20);   /* shaded, not a flat clear */
  g_hash_table_unref (colours);

  slider = first_slider (window);
  g_assert_nonnull (slider);
  gtk_range_set_value (slider, 45.0);
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  posed = gui_test_grab (GTK_WIDGET (window), GTK_WIDGET (window->model_view), &w2, &h2);
  g_assert_cmpint (w2, ==, w);
  g_assert_cmpint (h2, ==, h);
  for (int i = 0; i < w * h; i++)
    changed += posed[i] != bind[i];
  g_test_message ("%u pixels changed", changed);
  g_assert_cmpuint (changed, >, 20);
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_false (mshed_document_can_undo (doc));

  /* Reset Pose: the bind pose again */
  for (GtkWidget *c = gtk_widget_get_first_child (window->pose_panel); c;
       c = gtk_widget_get_next_sibling (c))
    for (GtkWidget *b = gtk_widget_get_first_child (c); b; b = gtk_widget_get_next_sibling (b))
      if (GTK_IS_BUTTON (b))
        g_signal_emit_by_name (b, "clicked");
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  g_assert_cmpfloat (gtk_range_get_value (slider), ==, 0.0);
  reset = gui_test_grab (GTK_WIDGET (window), GTK_WIDGET (window->model_view), &w2, &h2);
  g_assert_cmpint (w2, ==, w);
  g_assert_cmpint (h2, ==, h);
  g_assert_cmpmem (reset, (gsize) w * h * 4, bind, (gsize) w * h * 4);

  /* a row of the Bones grid: the heat map of that bone's weights */
  g_signal_emit_by_name (window->dfm_grids[6], "row-selected", 3u);
  g_assert_cmpint (mshed_renderer_get_weight_bone (mshed_model_view_get_renderer (
                     window->model_view)), ==, 3);
  g_signal_emit_by_name (window->dfm_grids[6], "row-selected", 0u);

  /* posed with the skeleton, for the pictures */
  gtk_range_set_value (slider, 45.0);
  mshed_model_view_set_overlays (window->model_view,
                                 mshed_model_view_get_overlays (window->model_view) |
                                 MSHED_OVERLAY_SKELETON);
  /* the Pose panel's check box follows an overlay set elsewhere */
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (gtk_widget_get_ancestor (
                   gui_test_find_label (window->pose_panel, "Skeleton"),
                   GTK_TYPE_CHECK_BUTTON))));
  shot (window, "dfm-preview.png");
  g_assert_false (mshed_document_get_modified (doc));

  gui_test_close (window);
  after = gui_test_file_bytes (path);
  g_assert_true (g_bytes_equal (bytes, after));
  remove_dir (dir);
}

/* Preview interaction ------------------------------------------------------------------- */

/* A generated body (seed 4) open in a new window, the preview settled. */
static MshedWindow *
open_body (const char *dir,
           char      **out_path)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  MshedWindow *window = gui_test_window (app);

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 4);
  bytes = mshed_dfm_generate_bytes (&params);
  *out_path = gui_test_write (dir, "body.dfm", bytes);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 740);
  g_assert_true (mshed_window_open (window, *out_path));
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->model_view)));
  return window;
}

typedef struct {
  guint group;
  guint triangle;     /* in the group, as mshed_dfm_dup_triangles numbers them */
  guint elements[3];
  float x, y;         /* its centre on the screen (widget points) */
} Target;

/* The triangle nearest the camera among those drawn at least @min_area px² large, well inside
 * the view (with @moved, among those a pose moved off their stored points), from the skinned
 * positions the scene holds and the camera: its centre (to the whole pixel the pointer lands
 * on) is on top. */
static gboolean
find_target (MshedModelView *view,
             gboolean        moved,
             float           min_area,
             Target         *out)
{
  MshedDfm *dfm = mshed_renderer_get_dfm (mshed_model_view_get_renderer (view));
  guint level = mshed_model_view_get_dfm_drawn_level (view);
  MshedRenderer *renderer = mshed_model_view_get_renderer (view);
  MshedRenderScene *scene = mshed_renderer_get_scene (renderer);
  int w = gtk_widget_get_width (GTK_WIDGET (view)), h = gtk_widget_get_height (GTK_WIDGET (view));
  guint n_items, n_elements, n_tris;
  const MshedDrawItem *items = mshed_render_scene_get_items (scene, &n_items);
  const guint32 *elements = mshed_render_scene_get_elements (scene, &n_elements);
  const guint32 *tri_map = mshed_render_scene_get_tri_map (scene, &n_tris);
  float eye[3], best = G_MAXFLOAT;

  mshed_camera_eye (mshed_renderer_get_camera (renderer), eye);
  for (guint i = 0; i < n_items; i++)
    for (guint t = 0; t < items[i].elem_count / 3; t++)
      {
        const guint32 *e = elements + items[i].elem_first + 3 * t;
        float p[3][3], sx[3], sy[3], c[3] = { 0, 0, 0 }, area, dist, cx, cy, shift = 0.0f;
        gboolean in = TRUE;

        for (guint k = 0; k < 3; k++)
          {
            MshedDfmElement el;

            mshed_render_scene_read_vertices (scene, e[k], 1, p[k], NULL, NULL);
            g_assert_true (mshed_dfm_get_element (dfm, level, e[k], &el));
            shift += fabsf (p[k][0] - el.position[0]) + fabsf (p[k][1] - el.position[1]) +
                     fabsf (p[k][2] - el.position[2]);
            in &= mshed_renderer_project (renderer, w, h, p[k], &sx[k], &sy[k]);
            for (guint a = 0; a < 3; a++)
              c[a] += p[k][a] / 3.0f;
          }
        cx = (sx[0] + sx[1] + sx[2]) / 3.0f;
        cy = (sy[0] + sy[1] + sy[2]) / 3.0f;
        area = fabsf ((sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0])) / 2;
        dist = sqrtf ((c[0] - eye[0]) * (c[0] - eye[0]) + (c[1] - eye[1]) * (c[1] - eye[1]) +
                      (c[2] - eye[2]) * (c[2] - eye[2]));
        if (!in || area < min_area || cx < 20 || cy < 20 || cx > w - 20 || cy > h - 20 ||
            dist >= best || (moved && shift < 1e-3f))
          continue;
        best = dist;
        out->group = items[i].batch;
        out->triangle = tri_map[items[i].tri_first + t];
        memcpy (out->elements, e, sizeof out->elements);
        out->x = roundf (cx);
        out->y = roundf (cy);
      }
  return best < G_MAXFLOAT;
}

/* The bone with the largest weight summed over the corners' points, from the skin tables. */
static gint
heaviest_bone (MshedDfm    *dfm,
               guint        level,
               const guint *elements)
{
  float sum[256] = { 0 }, best = 0.0f;
  gint bone = -1;

  g_assert_cmpuint (mshed_dfm_get_n_bones (dfm), <=, 256);
  for (guint k = 0; k < 3; k++)
    {
      MshedDfmElement el;
      guint32 first, count;

      g_assert_true (mshed_dfm_get_element (dfm, level, elements[k], &el));
      g_assert_true (mshed_dfm_get_skin_range (dfm, level, el.point, &first, &count));
      for (guint32 i = 0; i < count; i++)
        {
          guint32 b;
          float wt;

          g_assert_true (mshed_dfm_get_influence (dfm, level, first + i, &b, &wt));
          sum[b] += wt;
        }
    }
  for (guint b = 0; b < 256; b++)
    if (sum[b] > best)
      best = sum[b], bone = (gint) b;
  return bone;
}

/* What a pick of @target shows beside the grids: its row of the Triangles tab, selected (the
 * row the reader's unrolling of the group's strip numbers so, its cells the corners drawn);
 * the group's strip file selected in the UTF tree (its path written out here); the strip
 * entries of its window (the corners, in some order) selected in the hex view. */
static void
check_pick_links (MshedWindow  *window,
                  const Target *target,
                  guint         level)
{
  MshedDocument *doc = mshed_window_get_document (window);
  MshedTableView *triangles = window->dfm_grids[MSHED_WINDOW_N_DFM_GRIDS - 1];
  g_autofree char *path = g_strdup_printf ("\\MultiLevel\\Mesh%u\\Face_groups\\Group%u\\"
                                           "Tristrip_indices", level, target->group);
  MshedUtfNode *node = mshed_utf_lookup (mshed_document_get_utf (doc), path);
  g_autofree guint16 *tris = NULL;
  const guint8 *data;
  gsize n = 0, size = 0, start = 0, end = 0;
  guint row = G_MAXUINT, seen = 0;

  g_assert_cmpint (mshed_table_view_get_table (triangles), ==,
                   MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES));
  g_assert_true (mshed_table_view_get_selected_row (triangles, &row));
  g_assert_cmpuint (row, ==, target->triangle);
  g_assert_true (gtk_bitset_contains (triangles->highlight, row));
  tris = mshed_dfm_dup_triangles (mshed_document_get_dfm (doc), level, target->group, &n);
  g_assert_cmpuint (row, <, n);
  for (guint k = 0; k < 3; k++)
    g_assert_cmpuint (tris[3 * row + k], ==, target->elements[k]);

  g_assert_nonnull (node);
  g_assert_true (mshed_utf_tree_get_selected (window->utf_tree) == node);
  g_assert_true (mshed_hex_model_get_utf_node (mshed_hex_view_get_model (window->hex_view)) ==
                 node);
  g_assert_true (mshed_hex_view_get_selection (window->hex_view, &start, &end));
  g_assert_cmpuint (end - start, ==, 6);
  data = mshed_utf_node_peek_data (node, &size);
  g_assert_cmpuint (end, <=, size);
  for (guint k = 0; k < 3; k++)
    for (guint c = 0; c < 3; c++)
      if (mshed_read_u16 (data + start + 2 * k) == target->elements[c])
        seen |= 1u << c;
  g_assert_cmpuint (seen, ==, 7);
}

/* Clicks the target's centre and checks what the grids show: the level and group choosers,
 * the Triangles tab at its row (the strip grid at the strip rows drawing exactly its corners
 * when the user was on it; they are highlighted either way), its elements highlighted, the
 * heaviest bone highlighted with its heat map; the UTF tree and hex view on its strip. */
static void
click_and_check (MshedWindow *window,
                 const Target *target)
{
  MshedDfm *dfm = mshed_document_get_dfm (mshed_window_get_document (window));
  MshedTableView *strip = window->dfm_grids[4], *elements = window->dfm_grids[1];
  MshedTableView *bones = window->dfm_grids[6];
  MshedTableView *triangles = window->dfm_grids[MSHED_WINDOW_N_DFM_GRIDS - 1];
  const MshedPick *pick;
  MshedDfmArray a;
  guint row = G_MAXUINT, got[3], want[3];
  guint level = mshed_model_view_get_dfm_drawn_level (window->model_view);
  gint bone;
  gboolean on_strip = gtk_notebook_get_current_page (window->grid_notebook) ==
                      gtk_notebook_page_num (window->grid_notebook, GTK_WIDGET (strip));

  g_assert_cmpint (mshed_table_view_get_table (strip), ==,
                   MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRISTRIP));
  g_assert_cmpint (mshed_table_view_get_table (elements), ==,
                   MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINT_INDICES));
  gui_test_click (GTK_WINDOW (window), GTK_WIDGET (window->model_view), target->x, target->y);
  widget_test_iterate (200);
  pick = mshed_model_view_get_last_pick (window->model_view);
  g_assert_true (pick->hit);
  g_assert_cmpuint (pick->batch, ==, target->group);
  g_assert_cmpuint (pick->triangle, ==, target->triangle);

  g_assert_cmpuint (gtk_drop_down_get_selected (window->level_dropdown), ==, level);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->dfm_group_dropdown), ==, target->group);
  /* the Triangles tab is shown at the triangle's row, or the strip grid at the triangle's
   * first row when the user was on it; its three entries are the corners */
  g_assert_true (gtk_notebook_get_current_page (window->grid_notebook) ==
                 gtk_notebook_page_num (window->grid_notebook,
                                        GTK_WIDGET (on_strip ? strip : triangles)));
  check_pick_links (window, target, level);
  if (on_strip)
    {
      g_assert_true (mshed_table_view_get_selected_row (strip, &row));
      g_assert_true (gui_test_wait_row_visible (strip, row, 2000));
    }
  else
    {
      g_assert_true (gui_test_wait_row_visible (triangles, target->triangle, 2000));
      g_assert_cmpuint (gtk_bitset_get_size (strip->highlight), ==, 3);
      row = (guint) gtk_bitset_get_minimum (strip->highlight);
    }
  g_assert_true (mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_TRISTRIP, level, target->group,
                                      &a));
  g_assert_cmpuint (row + 2, <, a.count);
  for (guint k = 0; k < 3; k++)
    {
      got[k] = mshed_read_u16 (a.data + 2 * (row + k));
      want[k] = target->elements[k];
      g_assert_true (gtk_bitset_contains (strip->highlight, row + k));
      g_assert_true (gtk_bitset_contains (elements->highlight, target->elements[k]));
    }
  for (guint k = 0; k < 3; k++)
    g_assert_true (got[k] == want[0] || got[k] == want[1] || got[k] == want[2]);
  g_assert_true (got[0] != got[1] && got[1] != got[2] && got[0] != got[2]);
  g_assert_cmpuint (gtk_bitset_get_size (elements->highlight), ==, 3);
  show_grid (window, elements);
  g_assert_true (gui_test_wait_row_visible (elements, MIN (MIN (want[0], want[1]), want[2]),
                                            2000));

  bone = heaviest_bone (dfm, level, target->elements);
  g_assert_cmpint (bone, >=, 0);
  g_assert_cmpint (mshed_renderer_get_weight_bone (mshed_model_view_get_renderer (
                     window->model_view)), ==, bone);
  g_assert_true (gtk_bitset_contains (bones->highlight, (guint) bone));
  g_assert_cmpuint (gtk_bitset_get_size (bones->highlight), ==, 1);
  show_grid (window, bones);
  g_assert_true (gui_test_wait_row_visible (bones, (guint) bone, 2000));
}

/* The reverse way: Down (a real key) in the Triangles tab the pick left focused selects the
 * next row, whose triangle and corners (the reader's unrolling of the strip) the preview then
 * highlights instead of the picked one. */
static void
check_next_row (MshedWindow  *window,
                const Target *target)
{
  MshedRenderer *renderer = mshed_model_view_get_renderer (window->model_view);
  MshedTableView *triangles = window->dfm_grids[MSHED_WINDOW_N_DFM_GRIDS - 1];
  guint level = mshed_model_view_get_dfm_drawn_level (window->model_view);
  gsize n = 0;
  g_autofree guint16 *tris = mshed_dfm_dup_triangles (
                               mshed_document_get_dfm (mshed_window_get_document (window)),
                               level, target->group, &n);
  guint next = target->triangle + 1, row = G_MAXUINT;

  g_assert_cmpuint (next, <, n);

  g_assert_true (mshed_renderer_is_selected (renderer, MSHED_SELECT_TRIANGLE,
                                             MSHED_TRIANGLE_KEY (target->group,
                                                                 target->triangle)));
  mshed_table_view_reveal (triangles, target->triangle, NULL);   /* the focus back on it */
  widget_test_iterate (50);
  gui_test_key ("Down");
  widget_test_iterate (100);
  g_assert_true (mshed_table_view_get_selected_row (triangles, &row));
  g_assert_cmpuint (row, ==, next);
  g_assert_true (mshed_renderer_is_selected (renderer, MSHED_SELECT_TRIANGLE,
                                             MSHED_TRIANGLE_KEY (target->group, next)));
  g_assert_false (mshed_renderer_is_selected (renderer, MSHED_SELECT_TRIANGLE,
                                              MSHED_TRIANGLE_KEY (target->group,
                                                                  target->triangle)));
  for (guint k = 0; k < 3; k++)
    g_assert_true (mshed_renderer_is_selected (renderer, MSHED_SELECT_VERTEX,
                                               tris[3 * next + k]));
}

/* A click on a triangle of the preview selects it in the grids, in the bind pose and posed
 * (it picks what is drawn); the document is untouched. */
static void
test_preview_pick (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autofree char *path = NULL;
  MshedWindow *window;
  Target bind, posed;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  window = open_body (dir, &path);
  g_assert_true (find_target (window->model_view, FALSE, 60.0f, &bind));
  click_and_check (window, &bind);
  show_grid (window, window->dfm_grids[MSHED_WINDOW_N_DFM_GRIDS - 1]);
  check_next_row (window, &bind);
  shot (window, "dfm-pick-triangles.png");
  show_grid (window, window->dfm_grids[4]);
  shot (window, "dfm-pick.png");

  gtk_range_set_value (first_slider (window), 60.0);
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  g_assert_true (find_target (window->model_view, TRUE, 60.0f, &posed));
  g_test_message ("bind: group %u triangle %u; posed: group %u triangle %u", bind.group,
                  bind.triangle, posed.group, posed.triangle);
  click_and_check (window, &posed);
  g_assert_false (mshed_document_get_modified (mshed_window_get_document (window)));
  gui_test_close (window);
  remove_dir (dir);
}

/* The share of pixels in @r (view points) that differ between @a and @b (@w wide, @h high). */
static double
changed_share (const guint32 *a,
               const guint32 *b,
               int            w,
               int            h,
               int            x0,
               int            y0,
               int            x1,
               int            y1)
{
  guint n = 0, all = 0;

  for (int y = MAX (y0, 0); y < MIN (y1, h); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, w); x++, all++)
      n += a[(gsize) y * w + x] != b[(gsize) y * w + x];
  return all ? (double) n / all : 0.0;
}

/* How many bones have most of the strip just right of their joint changed between @off and
 * @on: a name's pill lies there; a bone line (1 px) crosses only a little of it. */
static guint
count_labels (MshedWindow   *window,
              const guint32 *off,
              const guint32 *on,
              int            w,
              int            h,
              gint           only)
{
  MshedRenderer *renderer = mshed_model_view_get_renderer (window->model_view);
  MshedDfmPose *pose = mshed_render_scene_get_dfm_pose (mshed_renderer_get_scene (renderer));
  guint n = 0;

  for (guint b = 0; b < mshed_dfm_pose_get_n_bones (pose); b++)
    {
      float x, y;

      if ((only >= 0 && (gint) b != only) ||
          !mshed_renderer_project (renderer, w, h, mshed_dfm_pose_get_world (pose, b) + 9, &x,
                                   &y))
        continue;
      if (changed_share (off, on, w, h, (int) x + 8, (int) y - 3, (int) x + 30, (int) y + 3) >
          0.5)
        n++;
    }
  return n;
}

/* The skeleton overlay names the bones at their joints (only while it is on): the selected
 * bone's name always, the others where they do not overlap. */
static void
test_preview_labels (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autofree guint32 *off = NULL, *on = NULL, *again = NULL;
  GtkSettings *settings = gtk_settings_get_default ();
  MshedWindow *window = open_body (dir, &path);
  GtkWidget *skeleton;
  guint labels;
  int w, h, w2, h2;

  off = gui_test_grab (GTK_WIDGET (window), GTK_WIDGET (window->model_view), &w, &h);
  g_assert_cmpint (w, ==, gtk_widget_get_width (GTK_WIDGET (window->model_view)));
  skeleton = gtk_widget_get_ancestor (gui_test_find_label (window->pose_panel, "Skeleton"),
                                      GTK_TYPE_CHECK_BUTTON);
  g_assert_nonnull (skeleton);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (skeleton), TRUE);
  g_assert_true (mshed_model_view_get_overlays (window->model_view) & MSHED_OVERLAY_SKELETON);
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  widget_test_iterate (100);
  on = gui_test_grab (GTK_WIDGET (window), GTK_WIDGET (window->model_view), &w2, &h2);
  g_assert_cmpint (w2, ==, w);
  g_assert_cmpint (h2, ==, h);
  labels = count_labels (window, off, on, w, h, -1);
  g_test_message ("%u labels", labels);
  g_assert_cmpuint (labels, >=, 4);

  /* a bone selected in the Bones grid: its label is drawn (in the accent colours) */
  g_signal_emit_by_name (window->dfm_grids[6], "row-selected", 5u);
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  widget_test_iterate (100);
  g_clear_pointer (&on, g_free);
  on = gui_test_grab (GTK_WIDGET (window), GTK_WIDGET (window->model_view), &w2, &h2);
  g_assert_cmpuint (count_labels (window, off, on, w, h, 5), ==, 1);

  /* the skeleton off (and no heat map): no label */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (skeleton), FALSE);
  mshed_renderer_set_weight_bone (mshed_model_view_get_renderer (window->model_view), -1);
  mshed_model_view_dfm_changed (window->model_view, FALSE);
  gui_test_wait_settled (GTK_WIDGET (window->model_view));
  widget_test_iterate (100);
  again = gui_test_grab (GTK_WIDGET (window), GTK_WIDGET (window->model_view), &w2, &h2);
  g_assert_cmpint (w2, ==, w);
  g_assert_cmpint (h2, ==, h);
  g_assert_cmpuint (count_labels (window, off, again, w, h, -1), ==, 0);

  gtk_check_button_set_active (GTK_CHECK_BUTTON (skeleton), TRUE);
  g_signal_emit_by_name (window->dfm_grids[6], "row-selected", 5u);
  for (guint dark = 0; dark < 2; dark++)
    {
      g_object_set (settings, "gtk-application-prefer-dark-theme", dark, NULL);
      shot (window, dark ? "dfm-labels-dark.png" : "dfm-labels.png");
    }
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  gui_test_close (window);
  remove_dir (dir);
}

/* "By distance" (the default) follows the camera: wheel turns away from the model draw a
 * coarser level, named in the chooser; the grids keep their level. A level by hand stays. */
static void
test_preview_level_by_distance (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-XXXXXX", NULL);
  g_autofree char *path = NULL;
  MshedWindow *window;
  MshedModelView *view;
  MshedCamera *camera;
  GtkStringObject *item;
  g_autofree char *want = NULL;
  float framed, detail;
  guint expected = 0;
  Target target;
  const float fractions[] = { 1.0f, 0.8f, 0.6f, 0.4f, 0.2f, 0.1f };   /* the generator's */

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  window = open_body (dir, &path);
  view = window->model_view;
  camera = mshed_renderer_get_camera (mshed_model_view_get_renderer (view));
  framed = camera->distance;
  g_assert_cmpuint (gtk_drop_down_get_selected (window->preview_level), ==, 0);
  g_assert_cmpint (mshed_model_view_get_dfm_level (view), ==, -1);
  g_assert_cmpuint (mshed_model_view_get_dfm_drawn_level (view), ==, 0);
  item = gtk_drop_down_get_selected_item (window->preview_level);
  g_assert_cmpstr (gtk_string_object_get_string (item), ==, "By distance (level 0)");

  /* five notches of the wheel away from the model: about twice as far (the pointer moves a
   * little each time: xdotool's mousemove --sync waits for a move) */
  for (guint i = 0; i < 5; i++)
    gui_test_click_button (GTK_NATIVE (window), GTK_WIDGET (view),
                           gtk_widget_get_width (GTK_WIDGET (view)) / 2.0 + 2 * i,
                           gtk_widget_get_height (GTK_WIDGET (view)) / 2.0, 5);
  widget_test_iterate (200);
  detail = framed / camera->distance;
  g_test_message ("detail %.3f", detail);
  g_assert_cmpfloat (detail, <, 0.6f);
  for (guint i = 0; i < G_N_ELEMENTS (fractions); i++)
    if (fractions[i] >= detail)
      expected = i;
  g_assert_cmpuint (expected, >=, 2);
  g_assert_cmpuint (mshed_model_view_get_dfm_drawn_level (view), ==, expected);
  item = gtk_drop_down_get_selected_item (window->preview_level);
  want = g_strdup_printf ("By distance (level %u)", expected);
  g_assert_cmpstr (gtk_string_object_get_string (item), ==, want);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->preview_level), ==, 0);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->level_dropdown), ==, 0);
  shot (window, "dfm-level-distance.png");
  /* a pick there brings the grids to the level drawn */
  g_assert_true (find_target (view, FALSE, 20.0f, &target));
  click_and_check (window, &target);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->level_dropdown), ==, expected);

  /* Mesh1 by hand: it stays whatever the distance */
  gtk_drop_down_set_selected (window->preview_level, 2);
  widget_test_iterate (100);
  g_assert_cmpint (mshed_model_view_get_dfm_level (view), ==, 1);
  g_assert_cmpuint (mshed_model_view_get_dfm_drawn_level (view), ==, 1);
  gui_test_click_button (GTK_NATIVE (window), GTK_WIDGET (view),
                         gtk_widget_get_width (GTK_WIDGET (view)) / 2.0 - 4,
                         gtk_widget_get_height (GTK_WIDGET (view)) / 2.0 + 4, 5);
  g_assert_cmpfloat (framed / camera->distance, <, detail);
  g_assert_cmpuint (mshed_model_view_get_dfm_drawn_level (view), ==, 1);
  /* back to by distance, then Home frames the model: level 0 again */
  gtk_drop_down_set_selected (window->preview_level, 0);
  widget_test_iterate (100);
  g_assert_cmpuint (mshed_model_view_get_dfm_drawn_level (view), >=, 2);
  mshed_model_view_frame_all (view);
  g_assert_cmpuint (mshed_model_view_get_dfm_drawn_level (view), ==, 0);
  gui_test_close (window);
  remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");
  /* pictures in the user's language (LANGUAGE=ru): the build tree's catalogue */
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") != NULL && g_getenv ("G_TEST_BUILDDIR") != NULL)
    {
      g_autofree char *po = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "po", NULL);

      bindtextdomain (GETTEXT_PACKAGE, po);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }
  g_test_add_func ("/app/dfm/open", test_open_dfm);
  g_test_add_func ("/app/dfm/open-generic-utf", test_open_generic_utf);
  g_test_add_func ("/app/dfm/broken-opens-tolerant", test_broken_dfm);
  g_test_add_func ("/app/dfm/edit-undo-save", test_edit_undo_save);
  g_test_add_func ("/app/dfm/grids-edit-undo-save", test_grids_edit_undo_save);
  g_test_add_func ("/app/dfm/open-large", test_open_large);
  g_test_add_func ("/app/dfm/preview-pose", test_preview_pose);
  g_test_add_func ("/app/dfm/preview-pick", test_preview_pick);
  g_test_add_func ("/app/dfm/preview-labels", test_preview_labels);
  g_test_add_func ("/app/dfm/preview-level-by-distance", test_preview_level_by_distance);
  return gui_test_run (app);
}
