/* test-gui-layout.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The real application window at 800×600, 1024×700 and 1600×1000 (or the screen's size where
 * it is smaller) with the bundled sample
 * open: the window keeps the size it was given (nothing asks for more), and the header bar's
 * buttons, the node tree, the grid, the preview/hex notebook and the Problems panel are
 * inside it with a usable size. The side panes hide and come back with their keys, and that
 * is remembered in the settings. With MSHED_TEST_SCREENSHOT_DIR=DIR set it saves a picture of
 * every size there.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "mshed-hex-view-private.h"
#include "test-require.h"

static MshedApplication *app;

static guint n_outside;

/* @widget lies inside @window's @width × @height and is at least @min_w × @min_h; each one
 * that does not is counted in n_outside (so a run lists all of them). */
static void
assert_inside (MshedWindow *window,
               GtkWidget   *widget,
               const char  *what,
               int          width,
               int          height,
               float        min_w,
               float        min_h)
{
  graphene_rect_t b;

  if (!gtk_widget_get_mapped (widget) ||
      !gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &b))
    {
      g_printerr ("%dx%d: %s is not shown\n", width, height, what);
      n_outside++;
      return;
    }
  g_test_message ("%dx%d: %s at %.0f,%.0f size %.0fx%.0f", width, height, what,
                  b.origin.x, b.origin.y, b.size.width, b.size.height);
  if (b.origin.x < -0.5f || b.origin.y < -0.5f ||
      b.origin.x + b.size.width > width + 0.5f || b.origin.y + b.size.height > height + 0.5f ||
      b.size.width < min_w || b.size.height < min_h)
    {
      g_printerr ("%dx%d: %s at %.0f,%.0f size %.0fx%.0f: not inside the window or smaller "
                  "than %.0fx%.0f\n", width, height, what, b.origin.x, b.origin.y, b.size.width,
                  b.size.height, min_w, min_h);
      n_outside++;
    }
}

/* Every button of the header bar that is shown. */
static void
collect_buttons (GtkWidget *widget,
                 GPtrArray *out)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget))
    {
      g_ptr_array_add (out, widget);
      if (GTK_IS_MENU_BUTTON (widget))
        return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_buttons (c, out);
}

static MshedWindow *
open_at (const char *path,
         int         width,
         int         height)
{
  MshedWindow *window = mshed_window_new (app);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (400);
  return window;
}

static void
check_size (const char *path,
            int         width,
            int         height,
            const char *shot)
{
  MshedWindow *window = open_at (path, width, height);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *grid = GTK_WIDGET (gui_test_grid (window, MSHED_TABLE_NODES));
  GdkSurface *surface;

  _mshed_window_select_grid (window, MSHED_TABLE_NODES);
  mshed_node_tree_select_node (window->node_tree, 2);
  g_signal_emit_by_name (window->node_tree, "node-selected", 2);
  widget_test_iterate (300);

  /* the window is the size it was given: no pane asks for more */
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_test_message ("%dx%d: window %dx%d, surface %dx%d", width, height,
                  gtk_widget_get_width (GTK_WIDGET (window)),
                  gtk_widget_get_height (GTK_WIDGET (window)),
                  gdk_surface_get_width (surface), gdk_surface_get_height (surface));
  g_assert_cmpint (gdk_surface_get_width (surface), ==, width);
  g_assert_cmpint (gdk_surface_get_height (surface), ==, height);
  /* what the window shows: the surface less its client-side border */
  width = gtk_widget_get_width (GTK_WIDGET (window));
  height = gtk_widget_get_height (GTK_WIDGET (window));

  collect_buttons (gtk_window_get_titlebar (GTK_WINDOW (window)), buttons);
  g_assert_cmpuint (buttons->len, >=, 6);  /* open, recent, save, undo, redo, menu at least */
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *b = g_ptr_array_index (buttons, i);
      const char *tip = gtk_widget_get_tooltip_text (b);

      assert_inside (window, b, tip ? tip : G_OBJECT_TYPE_NAME (b), width, height, 16, 16);
    }
  assert_inside (window, GTK_WIDGET (window->title_label), "title", width, height, 40, 8);
  assert_inside (window, GTK_WIDGET (window->node_tree), "node tree", width, height, 120, 100);
  assert_inside (window, grid, "node grid", width, height, 200, 100);
  assert_inside (window, GTK_WIDGET (window->side_notebook), "preview and hex", width, height,
                 200, 100);
  assert_inside (window, GTK_WIDGET (window->diagnostics_view), "problems", width, height,
                 300, 60);

  widget_test_screenshot (GTK_WIDGET (window), shot);
  gtk_notebook_set_current_page (window->side_notebook, 1);
  mshed_hex_view_show_record (window->hex_view, MSHED_TABLE_SLOTS, 3);
  widget_test_iterate (200);
  assert_inside (window, GTK_WIDGET (window->hex_view), "hex view", width, height, 200, 80);
  /* the inspector scrolls inside its pane */
  assert_inside (window, gtk_widget_get_ancestor (GTK_WIDGET (window->data_inspector),
                                                  GTK_TYPE_SCROLLED_WINDOW),
                 "data inspector", width, height, 150, 80);
  {
    g_autofree char *name = g_strdup_printf ("hex-%s", shot);

    widget_test_screenshot (GTK_WIDGET (window), name);
  }
  gui_test_close (window);
}

static void
test_sizes (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-layout-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "layout.msh");

  GListModel *monitors = gdk_display_get_monitors (gdk_display_get_default ());
  g_autoptr(GdkMonitor) monitor = g_list_model_get_item (monitors, 0);
  GdkRectangle screen = { 0, 0, 0, 0 };

  gdk_monitor_get_geometry (monitor, &screen);
  check_size (path, 800, 600, "layout-800x600.png");
  check_size (path, 1024, 700, "layout-1024x700.png");
  /* a large window where the screen has room for it (the X server keeps windows on it) */
  if (screen.width >= 1600 && screen.height >= 1000)
    check_size (path, 1600, 1000, "layout-1600x1000.png");
  else
    {
      g_autofree char *name = g_strdup_printf ("layout-%dx%d.png", screen.width, screen.height);

      g_test_message ("the screen (%dx%d) is smaller than 1600x1000: checked at its size",
                      screen.width, screen.height);
      check_size (path, screen.width, screen.height, name);
    }
  g_assert_cmpuint (n_outside, ==, 0);
  g_unlink (path);
  g_rmdir (dir);
}

/* The side panels hide and come back (the actions F9, F12 and Ctrl+F9 run), and what is
 * shown and how wide the panels are is remembered for the next window. */
static void
test_panels_remembered (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-layout-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "panels.msh");
  GSettings *settings = mshed_application_get_settings (app);
  MshedWindow *window = open_at (path, 1024, 700);
  GtkWidget *grid = GTK_WIDGET (window->grid_notebook);
  int grid_width = gtk_widget_get_width (grid);
  int side_width;

  g_assert_nonnull (settings);
  g_assert_true (gtk_widget_get_visible (window->tree_box));

  /* hiding the tree gives its width to the grid; the setting follows */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-tree", NULL);
  widget_test_iterate (200);
  g_assert_false (gtk_widget_get_visible (window->tree_box));
  g_assert_false (g_settings_get_boolean (settings, "show-tree"));
  g_assert_cmpint (gtk_widget_get_width (grid), >, grid_width + 100);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-side-panel", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-bottom-panel", NULL);
  widget_test_iterate (200);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->side_notebook)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->bottom_notebook)));
  g_assert_false (g_settings_get_boolean (settings, "show-preview"));
  g_assert_false (g_settings_get_boolean (settings, "show-bottom-panel"));
  gui_test_close (window);

  /* a new window opens with them hidden; shown again, the preview has its width back */
  window = open_at (path, 1024, 700);
  g_assert_false (gtk_widget_get_visible (window->tree_box));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->side_notebook)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-tree", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-side-panel", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-bottom-panel", NULL);
  widget_test_iterate (300);
  g_assert_true (gtk_widget_get_visible (window->tree_box));
  g_assert_true (g_settings_get_boolean (settings, "show-tree"));

  /* the divider dragged to make the preview 420 px wide: remembered when the window closes */
  gtk_paned_set_position (window->content_paned,
                          gtk_paned_get_position (window->content_paned) -
                          (420 - gtk_widget_get_width (GTK_WIDGET (window->side_notebook))));
  widget_test_iterate (200);
  side_width = gtk_widget_get_width (GTK_WIDGET (window->side_notebook));
  g_assert_cmpint (side_width, ==, 420);
  gtk_window_close (GTK_WINDOW (window));
  widget_test_iterate (100);
  /* (the setting counts the pane's borders too) */
  g_assert_cmpint (g_settings_get_int (settings, "side-panel-width"), >=, 420);
  g_assert_cmpint (g_settings_get_int (settings, "side-panel-width"), <=, 426);

  /* ... and kept by a larger window: the grid takes the extra width */
  window = open_at (path, 1200, 740);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->side_notebook)), ==, 420);
  gui_test_close (window);

  g_settings_reset (settings, "side-panel-width");
  g_unlink (path);
  g_rmdir (dir);
}

/* Bounds of record @row's cell @field in @grid, FALSE when it is not shown. */
static gboolean
cell_bounds (MshedTableView  *grid,
             guint            row,
             const char      *field,
             graphene_rect_t *b)
{
  GtkWidget *cell = _mshed_table_view_find_cell (grid, row, field);

  return cell != NULL && gtk_widget_get_mapped (cell) &&
         gtk_widget_compute_bounds (gtk_widget_get_parent (cell), GTK_WIDGET (grid), b);
}

/* The node grid's # and Name columns stay in view while the fifteen slot columns scroll
 * sideways, and stay on the rows of the other columns when the grid scrolls down. */
static void
test_key_columns (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-layout-XXXXXX", NULL);
  g_autofree char *path = gui_test_write_big_model (dir, "key.msh", 3000);
  MshedWindow *window = open_at (path, 800, 600);
  MshedTableView *nodes = gui_test_grid (window, MSHED_TABLE_NODES);
  MshedTableView *verts = gui_test_grid (window, MSHED_TABLE_POSITIONS);
  GtkAdjustment *hadj = gtk_scrolled_window_get_hadjustment (nodes->scroller);
  graphene_rect_t num, name, slot, hdr, x;
  float grid_width;

  _mshed_window_select_grid (window, MSHED_TABLE_NODES);
  widget_test_iterate (300);
  grid_width = (float) gtk_widget_get_width (GTK_WIDGET (nodes));
  g_assert_cmpfloat (gtk_adjustment_get_upper (hadj), >, gtk_adjustment_get_page_size (hadj));
  gtk_adjustment_set_value (hadj, gtk_adjustment_get_upper (hadj));
  widget_test_iterate (200);

  /* scrolled to the last slot column: # and Name are still at the left edge */
  g_assert_true (cell_bounds (nodes, 2, "#", &num));
  g_assert_true (cell_bounds (nodes, 2, "name", &name));
  g_assert_true (cell_bounds (nodes, 2, "slot14", &slot));
  g_test_message ("# at %.0f, name at %.0f..%.0f, slot14 at %.0f..%.0f, grid %.0f wide",
                  num.origin.x, name.origin.x, name.origin.x + name.size.width, slot.origin.x,
                  slot.origin.x + slot.size.width, grid_width);
  g_assert_cmpfloat (num.origin.x, >=, 0);
  g_assert_cmpfloat (name.origin.x, >=, num.origin.x + num.size.width - 1);
  g_assert_cmpfloat (name.origin.x + name.size.width, <, grid_width * 0.6);
  g_assert_cmpfloat (slot.origin.x + slot.size.width, <=, grid_width + 1);
  g_assert_cmpfloat (slot.origin.x, >=, name.origin.x + name.size.width);
  /* what scrolled out went left, under nothing: hdr0 is not shown right of the names */
  g_assert_true (!cell_bounds (nodes, 2, "hdr0", &hdr) ||
                 hdr.origin.x + hdr.size.width <= name.origin.x + name.size.width + 1);
  /* the same row in both views */
  g_assert_cmpfloat (ABS (num.origin.y - slot.origin.y), <, 1);
  g_assert_cmpfloat (ABS (name.origin.y - slot.origin.y), <, 1);

  /* far down a long table: the row number is beside its own values */
  _mshed_window_select_grid (window, MSHED_TABLE_POSITIONS);
  mshed_table_view_reveal (verts, 1500, "x");
  g_assert_true (gui_test_wait_row_visible (verts, 1500, 3000));
  widget_test_iterate (200);
  g_assert_true (cell_bounds (verts, 1500, "#", &num));
  g_assert_true (cell_bounds (verts, 1500, "x", &x));
  g_assert_cmpfloat (ABS (num.origin.y - x.origin.y), <, 1);
  g_assert_cmpfloat (ABS (num.size.height - x.size.height), <, 1);

  gui_test_close (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* One name per column: the node grid's header, Problems and the hex view's field call node
 * 1's LOD 1, group 2 cell "slot7" (the schema's name, as mshed-cli dump and edit --set do)
 * and say what it is, L1 G2 (docs/msh.md §4.1: cell = LOD × 5 + group). */
static void
test_column_names (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-layout-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "names.msh");
  MshedWindow *window = open_at (path, 1024, 700);
  MshedDocument *doc = mshed_window_get_document (window);
  MshedTableView *nodes = gui_test_grid (window, MSHED_TABLE_NODES);
  GtkColumnViewColumn *column = _mshed_table_view_get_view_column (nodes, "slot7");
  const MshedDiagnostics *diags;
  const MshedDiagnostic *found = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *location = NULL;
  MshedHexOverlay ov;
  g_autofree char *what = NULL;

  g_assert_nonnull (column);
  g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, "slot7\nL1 G2");

  /* a slot reference past the end of Res2: a problem at node 1, field slot7 */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_NODES, 1, "slot7", 9000, &error));
  g_assert_no_error (error);
  widget_test_iterate (200);
  diags = mshed_document_get_diagnostics (doc);
  for (guint i = 0; i < diags->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (d->table == MSHED_TABLE_NODES && d->record == 1 && g_strcmp0 (d->field, "slot7") == 0)
        found = d;
    }
  g_assert_nonnull (found);
  location = _mshed_diagnostics_view_format_location (found);
  g_assert_nonnull (strstr (location, "1.slot7 (L1 G2)"));

  /* the hex view names the field the same way */
  mshed_hex_view_show_record (window->hex_view, MSHED_TABLE_NODES, 1);
  g_assert_true (mshed_hex_view_get_overlay (window->hex_view, 8 + 7 * 2, &ov));
  what = mshed_hex_overlay_describe (&ov);
  g_assert_nonnull (strstr (what, "slot7 (L1 G2)"));

  mshed_document_undo (doc);
  gui_test_close (window);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");

  g_test_add_func ("/app/layout/sizes", test_sizes);
  g_test_add_func ("/app/layout/panels-remembered", test_panels_remembered);
  g_test_add_func ("/app/layout/key-columns", test_key_columns);
  g_test_add_func ("/app/layout/column-names", test_column_names);
  return gui_test_run (app);
}
