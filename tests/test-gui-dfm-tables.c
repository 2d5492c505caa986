/* test-gui-dfm-tables.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DFM tables in the real window under Xvfb, on a generated head:
 *  - the Unknown Fields panel lists the fields of unknown meaning (UV_plane_distance, the
 *    residue in the padding of Cons names) with path, record, field, offset and value; a
 *    row opens its file in the hex view with those bytes selected and the overlay marking
 *    them unknown;
 *  - with real keys (xdotool), a hardpoint is inserted and deleted from the Hardpoints grid's
 *    context menu, each one undo step that gives back the file's bytes.
 * With MSHED_TEST_SCREENSHOT_DIR=DIR set it also saves pictures of the changed grids.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test-util.h"
#include "mshed-dfm-generator.h"
#include "test-require.h"

static MshedApplication *app;

#define PLANE_PATH "\\MultiLevel\\Mesh0\\Geometry\\UV_plane_distance"

static char *
write_head (const char *dir,
            GBytes    **out_bytes)
{
  MshedDfmGenParams params;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 3);
  *out_bytes = mshed_dfm_generate_bytes (&params);
  return gui_test_write (dir, "head.dfm", *out_bytes);
}

/* With MSHED_TEST_SCREENSHOT_DIR set: NAME-small.png and NAME-large.png. */
static void
shot (MshedWindow *window,
      const char  *name)
{
  static const struct { const char *suffix; int width, height; } sizes[] = {
    { "small", 800, 600 }, { "large", 1600, 1000 },
  };

  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%s.png", name, sizes[i].suffix);

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[i].width, sizes[i].height);
      widget_test_iterate (300);
      gui_test_wait_settled (GTK_WIDGET (window));
      widget_test_screenshot (GTK_WIDGET (window), file);
    }
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 740);
  widget_test_iterate (200);
}

static MshedTableView *
dfm_grid (MshedWindow   *window,
          MshedDfmTable  table)
{
  for (guint i = 0; i < MSHED_WINDOW_N_DFM_GRIDS; i++)
    if (mshed_table_view_get_table (window->dfm_grids[i]) == MSHED_DFM_TABLE_ID (table))
      return window->dfm_grids[i];
  g_assert_not_reached ();
  return NULL;
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

static void
assert_text (MshedDfmUnknownList   *list,
             guint                  row,
             MshedDfmUnknownColumn  column,
             const char            *expected)
{
  g_autofree char *text = mshed_dfm_unknown_list_dup_text (list, row, column);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_unknown_fields (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-tables-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, &bytes);
  MshedWindow *window = gui_test_window (app);
  MshedDfmUnknownList *list;
  MshedDocument *doc;
  MshedUtfNode *plane;
  MshedHexModel *hex;
  MshedHexOverlay ov;
  gsize start = 0, end = 0;
  guint n;

  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  list = window->dfm_unknown;
  /* the DFM list shows in the Unknown Fields panel, the MSH table does not */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (list)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->unknown_table)));
  g_assert_true (gtk_widget_get_visible (gtk_notebook_get_nth_page (window->side_notebook, 2)));

  /* row 0: Mesh0's UV_plane_distance, 1.0 (docs/dfm.md §6.4); then Cons name residue */
  n = mshed_dfm_unknown_list_get_n_rows (list);
  g_assert_cmpuint (n, >, 1);
  assert_text (list, 0, MSHED_DFM_UNKNOWN_PATH, PLANE_PATH);
  assert_text (list, 0, MSHED_DFM_UNKNOWN_RECORD, "0");
  assert_text (list, 0, MSHED_DFM_UNKNOWN_FIELD, "uv_plane_distance");
  assert_text (list, 0, MSHED_DFM_UNKNOWN_OFFSET, "0x0");
  assert_text (list, 0, MSHED_DFM_UNKNOWN_VALUE, "00 00 80 3F");
  {
    g_autofree char *p = mshed_dfm_unknown_list_dup_text (list, 1, MSHED_DFM_UNKNOWN_PATH);
    g_autofree char *f = mshed_dfm_unknown_list_dup_text (list, 1, MSHED_DFM_UNKNOWN_FIELD);

    g_assert_true (g_str_has_prefix (p, "\\Cmpnd\\Cons\\"));
    g_assert_true (g_str_has_suffix (f, " (padding)"));
  }
  gtk_notebook_set_current_page (window->side_notebook, 2);
  g_object_set (window, "show-side-panel", TRUE, NULL);
  shot (window, "dfm-unknown-fields");

  /* activating row 0: the file in the tree and the hex view, its 4 bytes selected, marked
   * unknown by the overlay */
  plane = mshed_utf_lookup (mshed_document_get_utf (doc), PLANE_PATH);
  g_assert_nonnull (plane);
  mshed_dfm_unknown_list_activate_row (list, 0);
  widget_test_iterate (200);
  g_assert_cmpint (gtk_notebook_get_current_page (window->side_notebook), ==, 1);
  g_assert_true (mshed_utf_tree_get_selected (window->utf_tree) == plane);
  hex = mshed_hex_view_get_model (window->hex_view);
  g_assert_true (mshed_hex_model_get_utf_node (hex) == plane);
  g_assert_true (mshed_hex_view_get_selection (window->hex_view, &start, &end));
  g_assert_cmpuint (start, ==, 0);
  g_assert_cmpuint (end, ==, 4);
  g_assert_true (mshed_hex_model_get_overlay (hex, 0, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
  g_assert_cmpstr (ov.label, ==, "uv_plane_distance");

  /* an edit of the value shows at once */
  g_assert_true (mshed_document_dfm_set_field (doc, plane, 0, "uv_plane_distance", "2", NULL));
  widget_test_iterate (50);
  assert_text (list, 0, MSHED_DFM_UNKNOWN_VALUE, "00 00 00 40");
  g_assert_true (mshed_document_undo (doc));

  gui_test_close (window);
  gui_test_remove_tree (dir);
}

/* Shift+F10 on the Hardpoints grid, then an item of its menu */
static void
menu_item (MshedTableView *grid,
           guint           row,
           const char     *label)
{
  mshed_table_view_reveal (grid, row, "name");
  widget_test_iterate (300);
  gui_test_key ("shift+F10");
  widget_test_iterate (200);
  g_assert_nonnull (grid->context_menu);
  g_assert_true (gtk_widget_get_visible (grid->context_menu));
  gui_test_click_menu_item (grid->context_menu, label);
  widget_test_iterate (200);
}

static void
test_hardpoint_rows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-dfm-tables-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, &bytes);
  g_autoptr(GBytes) inserted = NULL;
  MshedWindow *window;
  MshedTableView *grid;
  MshedTableModel *model;
  MshedDocument *doc;
  guint n;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (window));
  doc = mshed_window_get_document (window);
  grid = dfm_grid (window, MSHED_DFM_TABLE_HP_POSITION);
  model = _mshed_table_view_get_model (grid);
  show_grid (window, grid);
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (n, >=, 1);  /* the neck's hp_neck (docs/dfm.md §10.4) */

  /* insert above row 0: hp_new in the same bone, at its origin, identity orientation */
  menu_item (grid, 0, "Insert Row Above");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n + 1);
  {
    g_autofree char *name = mshed_table_model_dup_cell_text (
                              model, 0, (guint) mshed_table_model_find_column (model, "name"),
                              NULL);
    g_autofree char *x = mshed_table_model_dup_cell_text (
                           model, 0, (guint) mshed_table_model_find_column (model, "x"), NULL);
    g_autofree char *r11 = mshed_table_model_dup_cell_text (
                             model, 0, (guint) mshed_table_model_find_column (model, "r11"),
                             NULL);

    g_assert_cmpstr (name, ==, "hp_new");
    g_assert_cmpstr (x, ==, "0");
    g_assert_cmpstr (r11, ==, "1");
  }
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Insert 1 hardpoint(s)");
  inserted = mshed_document_serialize_file (doc);
  shot (window, "dfm-hardpoints-inserted");

  /* delete it again: the original bytes */
  menu_item (grid, 0, "Delete Rows");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);
  {
    g_autoptr(GBytes) now = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (now, bytes));
  }
  /* Ctrl+Z twice: one step each */
  gtk_widget_grab_focus (GTK_WIDGET (grid));
  gui_test_key ("ctrl+z");
  widget_test_iterate (100);
  {
    g_autoptr(GBytes) now = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (now, inserted));
  }
  gui_test_key ("ctrl+z");
  widget_test_iterate (100);
  {
    g_autoptr(GBytes) now = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (now, bytes));
  }
  g_assert_false (mshed_document_get_modified (doc));

  /* the other changed grids, for the pictures */
  show_grid (window, dfm_grid (window, MSHED_DFM_TABLE_CONS_SPHERE));
  shot (window, "dfm-cons-sphere");
  show_grid (window, dfm_grid (window, MSHED_DFM_TABLE_CONS_LOOSE));
  shot (window, "dfm-cons-loose");
  show_grid (window, dfm_grid (window, MSHED_DFM_TABLE_POINT_INDICES));
  mshed_table_view_reveal (dfm_grid (window, MSHED_DFM_TABLE_POINT_INDICES), 0, "pos_x");
  shot (window, "dfm-elements");
  gui_test_close (window);
  gui_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");
  g_test_add_func ("/app/dfm-tables/unknown-fields", test_unknown_fields);
  g_test_add_func ("/app/dfm-tables/hardpoint-rows", test_hardpoint_rows);
  return gui_test_run (app);
}
