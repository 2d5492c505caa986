/* test-gui-input.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Real key and pointer events (xdotool, through the X server) into the real application
 * window: F2 and Ctrl+F reach the focused view (tree, grid, hex view) instead of a global
 * accelerator, F10 opens the main menu and F12 toggles the preview, the hex view's bookmark
 * keys, a click on a triangle in the preview shows its batch record in the hex view, the
 * grids' context menu (right click, Menu, Shift+F10) and the wheel over their key columns.
 * It moves the pointer and the keyboard focus, so it runs alone (meson: is_parallel false).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "gui-test-util.h"
#include "mshed-cell-editor.h"
#include "mshed-hex-view-private.h"
#include "mshed-node-tree-private.h"
#include "test-require.h"

static MshedApplication *app;

typedef struct {
  char        *dir;
  char        *path;
  MshedWindow *window;
} Fixture;

static gboolean
fixture_setup (Fixture *f)
{
  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return FALSE;
    }
  f->dir = g_dir_make_tmp ("mshed-input-XXXXXX", NULL);
  f->path = gui_test_copy_sample (f->dir, "input.msh");
  f->window = gui_test_window (app);
  g_assert_true (mshed_window_open (f->window, f->path));
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (f->window));
  return TRUE;
}

static void
fixture_teardown (Fixture *f)
{
  MshedDocument *doc = mshed_window_get_document (f->window);

  /* nothing to ask about on close */
  while (doc && mshed_document_can_undo (doc))
    mshed_document_undo (doc);
  /* let the views take the undone rows in, as they would between a user's two actions: GTK 4.8
   * prints a critical when a window is destroyed while a list view still holds a removed row
   * that had the focus (no user can undo and close within one main loop iteration) */
  widget_test_iterate (100);
  gui_test_close (f->window);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static GtkWidget *
focus_widget (Fixture *f)
{
  return gtk_root_get_focus (GTK_ROOT (f->window));
}

/* Whether the keyboard focus is in a search entry inside @view. */
static gboolean
focus_in_search_of (Fixture   *f,
                    GtkWidget *view)
{
  GtkWidget *focus = focus_widget (f);
  GtkWidget *entry = focus ? gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY) : NULL;

  return entry != NULL && gtk_widget_is_ancestor (entry, view);
}

static void
place_focus (GtkWidget *widget)
{
  g_assert_true (gtk_widget_grab_focus (widget));
  widget_test_iterate (50);
}

/* F2 and Ctrl+F in the node tree: rename inline, search by name */
static void
test_tree_keys (void)
{
  Fixture f;
  MshedCellEditor *editor;

  if (!fixture_setup (&f))
    return;
  editor = _mshed_node_tree_get_editor (f.window->node_tree);
  mshed_node_tree_select_node (f.window->node_tree, 1);
  place_focus (GTK_WIDGET (f.window->node_tree));

  gui_test_key ("F2");
  g_assert_true (mshed_cell_editor_is_open (editor));
  gui_test_key ("Escape");
  g_assert_false (mshed_cell_editor_is_open (editor));

  place_focus (GTK_WIDGET (f.window->node_tree));
  gui_test_key ("ctrl+f");
  g_assert_true (focus_in_search_of (&f, GTK_WIDGET (f.window->node_tree)));
  fixture_teardown (&f);
}

/* F2 and Ctrl+F in a grid: edit the current cell, open the row filter (not the tree's) */
static void
test_grid_keys (void)
{
  Fixture f;
  MshedTableView *slots;
  MshedCellEditor *editor;
  MshedCellEditor *tree_editor;

  if (!fixture_setup (&f))
    return;
  slots = gui_test_grid (f.window, MSHED_TABLE_SLOTS);
  editor = _mshed_table_view_get_editor (slots);
  tree_editor = _mshed_node_tree_get_editor (f.window->node_tree);
  mshed_node_tree_select_node (f.window->node_tree, 1);
  _mshed_window_select_grid (f.window, MSHED_TABLE_SLOTS);
  mshed_table_view_reveal (slots, 2, "unk30");
  widget_test_iterate (200);
  g_assert_true (gtk_widget_is_ancestor (focus_widget (&f), GTK_WIDGET (slots)));

  gui_test_key ("F2");
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_false (mshed_cell_editor_is_open (tree_editor));
  gui_test_key ("Escape");
  g_assert_false (mshed_cell_editor_is_open (editor));

  mshed_table_view_reveal (slots, 2, "unk30");
  widget_test_iterate (200);
  gui_test_key ("ctrl+f");
  g_assert_true (focus_in_search_of (&f, GTK_WIDGET (slots)));
  g_assert_false (focus_in_search_of (&f, GTK_WIDGET (f.window->node_tree)));
  fixture_teardown (&f);
}

/* Ctrl+F in the hex view opens its own search; Ctrl+B and Alt+Down / Alt+Up are bookmarks */
static void
test_hex_keys (void)
{
  Fixture f;
  MshedHexView *hex;
  gsize first;

  if (!fixture_setup (&f))
    return;
  hex = f.window->hex_view;
  gtk_notebook_set_current_page (f.window->side_notebook, 1);
  mshed_hex_view_show_record (hex, MSHED_TABLE_SLOTS, 0);
  widget_test_iterate (200);
  place_focus (GTK_WIDGET (hex));

  gui_test_key ("ctrl+f");
  g_assert_true (gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (hex->search_bar)));
  g_assert_true (gtk_widget_is_ancestor (focus_widget (&f), hex->search_entry) ||
                 focus_widget (&f) == hex->search_entry);
  g_assert_false (focus_in_search_of (&f, GTK_WIDGET (f.window->node_tree)));
  gui_test_key ("Escape");

  /* two bookmarks, then back and forth between them */
  place_focus (GTK_WIDGET (hex));
  mshed_hex_view_set_cursor (hex, 4, FALSE);
  gui_test_key ("ctrl+b");
  mshed_hex_view_set_cursor (hex, 40, FALSE);
  gui_test_key ("ctrl+b");
  g_assert_cmpuint (mshed_hex_view_get_n_bookmarks (hex), ==, 2);
  mshed_hex_view_set_cursor (hex, 20, FALSE);
  gui_test_key ("alt+Down");
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (hex), ==, 40);
  gui_test_key ("alt+Up");
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (hex), ==, 4);
  first = mshed_hex_view_get_cursor_offset (hex);
  /* F2 is not a hex key any more: the cursor stays */
  gui_test_key ("F2");
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (hex), ==, first);
  fixture_teardown (&f);
}

/* Ctrl+F where no view searches (the preview): the tree's search */
static void
test_find_fallback (void)
{
  Fixture f;

  if (!fixture_setup (&f))
    return;
  gtk_notebook_set_current_page (f.window->side_notebook, 0);
  widget_test_iterate (100);
  place_focus (GTK_WIDGET (f.window->model_view));
  gui_test_key ("ctrl+f");
  g_assert_true (focus_in_search_of (&f, GTK_WIDGET (f.window->node_tree)));
  fixture_teardown (&f);
}

static GtkMenuButton *
find_primary_menu (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (widget)))
    return GTK_MENU_BUTTON (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkMenuButton *found = find_primary_menu (c);

      if (found)
        return found;
    }
  return NULL;
}

/* F10 opens the main menu and leaves the preview alone; F12, Ctrl+F9 and F9 toggle the
 * preview, the node tree and the Problems panel */
static void
test_panel_keys (void)
{
  Fixture f;
  GtkMenuButton *menu;
  GtkWidget *preview;

  if (!fixture_setup (&f))
    return;
  menu = find_primary_menu (gtk_window_get_titlebar (GTK_WINDOW (f.window)));
  g_assert_nonnull (menu);
  preview = GTK_WIDGET (f.window->side_notebook);
  g_assert_true (gtk_widget_get_visible (preview));
  place_focus (GTK_WIDGET (gui_test_grid (f.window, MSHED_TABLE_NODES)));

  gui_test_key ("F10");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (menu))));
  g_assert_true (gtk_widget_get_visible (preview));
  gui_test_key ("Escape");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (menu))));

  gui_test_focus_window (GTK_WINDOW (f.window));
  gui_test_key ("F12");
  g_assert_false (gtk_widget_get_visible (preview));
  gui_test_key ("F12");
  g_assert_true (gtk_widget_get_visible (preview));

  /* Ctrl+F9 the node tree, F9 the Problems panel */
  gui_test_key ("ctrl+F9");
  g_assert_false (gtk_widget_get_visible (f.window->tree_box));
  gui_test_key ("ctrl+F9");
  g_assert_true (gtk_widget_get_visible (f.window->tree_box));
  gui_test_key ("F9");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (f.window->bottom_notebook)));
  gui_test_key ("F9");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f.window->bottom_notebook)));
  fixture_teardown (&f);
}

/* A click on a triangle in the preview shows the picked batch record in the hex view */
static void
test_pick_moves_hex (void)
{
  Fixture f;
  MshedModelView *view;
  MshedModel *model;
  MshedPick pick = { 0 };
  gboolean found = FALSE;
  double x = 0, y = 0;
  gsize start = 0, end = 0;
  gint res = -1;

  if (!fixture_setup (&f))
    return;
  view = f.window->model_view;
  model = mshed_document_get_model (mshed_window_get_document (f.window));
  gtk_notebook_set_current_page (f.window->side_notebook, 0);
  mshed_model_view_frame_all (view);
  widget_test_iterate (300);

  /* a point of the preview that hits a triangle, and the same batch 2 px around it (the
   * pointer lands on whole pixels) */
  for (int j = 1; j < 16 && !found; j++)
    for (int i = 1; i < 16 && !found; i++)
      {
        x = gtk_widget_get_width (GTK_WIDGET (view)) * i / 16.0;
        y = gtk_widget_get_height (GTK_WIDGET (view)) * j / 16.0;
        found = mshed_model_view_pick (view, x, y, &pick) && pick.hit;
        for (int d = 0; d < 4 && found; d++)
          {
            MshedPick near = { 0 };

            found = mshed_model_view_pick (view, x + (d & 1 ? 2 : -2), y + (d & 2 ? 2 : -2),
                                           &near) &&
                    near.hit && near.batch == pick.batch;
          }
      }
  g_assert_true (found);
  g_assert_cmpint (mshed_hex_model_get_res_index (mshed_hex_view_get_model (f.window->hex_view)),
                   !=, mshed_model_find_resource (model, 13));

  gui_test_click (GTK_WINDOW (f.window), GTK_WIDGET (view), x, y);
  widget_test_iterate (200);
  g_assert_true (mshed_model_view_get_last_pick (view)->hit);
  g_assert_cmpuint (mshed_model_view_get_last_pick (view)->batch, ==, pick.batch);

  /* the hex view holds Res13 with the batch's 20-byte record selected (docs/msh.md: Batch20) */
  res = mshed_hex_model_get_res_index (mshed_hex_view_get_model (f.window->hex_view));
  g_assert_cmpint (res, ==, mshed_model_find_resource (model, 13));
  g_assert_true (mshed_hex_view_get_selection (f.window->hex_view, &start, &end));
  g_assert_cmpuint (start, ==, (gsize) pick.batch * 20);
  g_assert_cmpuint (end, ==, (gsize) pick.batch * 20 + 20);
  fixture_teardown (&f);
}

/* Ctrl+R (Recompute All Determined) after one slot edit recomputes exactly what is stale and
 * determined by the format: that slot's box. Links, normals, spheres and the header stay as
 * they were, listed as stale conventions (issue: every derived value was rewritten). */
static void
test_recompute_all_is_stale_only (void)
{
  Fixture f;
  MshedDocument *doc;
  MshedModel *model;
  MshedSlot a, b;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  const guint8 *x, *y;
  gsize n, box_lo;
  gint r2;

  if (!fixture_setup (&f))
    return;
  doc = mshed_window_get_document (f.window);
  model = mshed_document_get_model (doc);
  g_assert_true (mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS) >= 2);
  mshed_model_get_slot (model, 0, &a);
  mshed_model_get_slot (model, 1, &b);
  /* slot 0 draws slot 1's batches and descriptors now */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "batchStart",
                                           b.batch_start, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "batchCount",
                                           b.batch_count, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "triStart",
                                           b.tri_start, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "triCount",
                                           b.tri_count, NULL));
  widget_test_iterate (50);
  before = mshed_model_serialize (model);

  place_focus (GTK_WIDGET (f.window->node_tree));
  gui_test_key ("ctrl+r");
  widget_test_iterate (100);
  after = mshed_model_serialize (model);

  r2 = mshed_model_find_resource (model, 2);
  box_lo = mshed_nres_peek_entry (mshed_model_get_nres (model), (guint) r2)->data_offset + 140 + 8;
  x = g_bytes_get_data (before, &n);
  y = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (g_bytes_get_size (after), ==, n);
  for (gsize i = 0; i < n; i++)
    if (x[i] != y[i] && !(i >= box_lo && i < box_lo + 24))
      g_error ("byte %" G_GSIZE_FORMAT " changed outside slot 0's box", i);
  mshed_model_get_slot (model, 0, &a);
  g_assert_cmpmem (a.aabb_min, sizeof a.aabb_min, b.aabb_min, sizeof b.aabb_min);
  g_assert_true (mshed_document_get_stale_targets (doc) & MSHED_DERIVED_SLOT_SPHERE);
  g_assert_false (mshed_document_get_stale_targets (doc) & MSHED_DERIVED_DETERMINED);
  fixture_teardown (&f);
}

/* A row duplicated (from the grid's menu, say) while a grid cell has the keyboard focus, undone,
 * then the window closed: no GTK critical on the way (fatal here). */
static void
test_duplicate_focused_row_then_close (void)
{
  Fixture f;
  MshedDocument *doc;
  MshedTableView *nodes;
  GtkWidget *cell;
  g_autoptr(GError) error = NULL;
  guint row = 2;

  if (!fixture_setup (&f))
    return;
  doc = mshed_window_get_document (f.window);
  nodes = gui_test_grid (f.window, MSHED_TABLE_NODES);
  _mshed_window_select_grid (f.window, MSHED_TABLE_NODES);
  mshed_table_view_reveal (nodes, row, "hdr0");
  widget_test_iterate (300);
  cell = _mshed_table_view_find_cell (nodes, row, "hdr0");
  g_assert_nonnull (cell);
  gui_test_click_button (GTK_NATIVE (f.window), cell, gtk_widget_get_width (cell) / 2.0,
                         gtk_widget_get_height (cell) / 2.0, 1);
  widget_test_iterate (200);
  g_assert_true (mshed_document_duplicate_rows (doc, MSHED_TABLE_NODES, row, 1, &error));
  g_assert_no_error (error);
  widget_test_iterate (200);
  fixture_teardown (&f);
  widget_test_iterate (200);
}

/* The first slot that draws something (a batch of at least one triangle). */
static guint
slot_with_triangles (MshedModel *model)
{
  for (guint i = 0; i < mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS); i++)
    {
      MshedSlot slot;

      if (mshed_model_get_slot (model, i, &slot) && slot.batch_count > 0)
        return i;
    }
  g_assert_not_reached ();
  return 0;
}

/* The largest distance from @centre to a vertex the slot's batches draw (docs/msh.md §4.2, §4.8:
 * batch indices + baseVertex are Res3 positions). */
static double
slot_extent (MshedModel  *model,
             const MshedSlot *slot,
             const float  centre[3])
{
  double extent = 0;

  for (guint b = slot->batch_start; b < (guint) slot->batch_start + slot->batch_count; b++)
    {
      MshedBatch batch;

      g_assert_true (mshed_model_get_batch (model, b, &batch));
      for (guint i = batch.index_start; i < batch.index_start + batch.index_count; i++)
        {
          guint16 index;
          float p[3];
          double d = 0;

          g_assert_true (mshed_model_get_index (model, i, &index));
          g_assert_true (mshed_model_get_position (model, index + batch.base_vertex, p));
          for (guint k = 0; k < 3; k++)
            d += ((double) p[k] - centre[k]) * ((double) p[k] - centre[k]);
          extent = MAX (extent, sqrt (d));
        }
    }
  return extent;
}

/* Every slot record's bytes (Res2 after its header), in order. */
static GByteArray *
slot_bytes (MshedModel *model)
{
  GByteArray *bytes = g_byte_array_new ();

  for (guint i = 0; i < mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS); i++)
    g_byte_array_append (bytes, mshed_model_get_record (model, MSHED_TABLE_SLOTS, i), 68);
  return bytes;
}

static GtkWidget *
open_menu_of (MshedTableView *grid)
{
  widget_test_iterate (200);
  g_assert_nonnull (grid->context_menu);
  g_assert_true (gtk_widget_get_visible (grid->context_menu));
  {
    static guint n;
    g_autofree char *name = g_strdup_printf ("grid-context-menu-%u.png", n++);

    /* MSHED_TEST_SCREENSHOT_DIR: the menu's own surface */
    widget_test_screenshot (grid->context_menu, name);
  }
  return grid->context_menu;
}

/* Right click on a grid cell opens its menu; its items work on that row: Recompute Box and
 * mshed's sphere convention on one slot, Follow Reference, Show in Hex, Duplicate Rows. The
 * Menu key and Shift+F10 open it on the current cell. */
static void
test_grid_context_menu (void)
{
  Fixture f;
  MshedDocument *doc;
  MshedModel *model;
  MshedTableView *slots, *nodes;
  GtkWidget *cell;
  MshedSlot orig, now;
  GByteArray *planted, *after;
  g_autoptr(GError) error = NULL;
  guint s;
  MshedNode node;
  gsize start = 0, end = 0;

  if (!fixture_setup (&f))
    return;
  doc = mshed_window_get_document (f.window);
  model = mshed_document_get_model (doc);
  slots = gui_test_grid (f.window, MSHED_TABLE_SLOTS);
  nodes = gui_test_grid (f.window, MSHED_TABLE_NODES);
  s = slot_with_triangles (model);
  g_assert_true (mshed_model_get_slot (model, s, &orig));

  /* a box edited by hand, then "Recompute Box (this slot)" from a right click on it */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, s, "aabbMinX", 1000, &error));
  g_assert_no_error (error);
  planted = slot_bytes (model);
  _mshed_window_select_grid (f.window, MSHED_TABLE_SLOTS);
  mshed_table_view_reveal (slots, s, "aabbMinX");
  widget_test_iterate (300);
  cell = _mshed_table_view_find_cell (slots, s, "aabbMinX");
  g_assert_nonnull (cell);
  gui_test_click_button (GTK_NATIVE (f.window), cell, gtk_widget_get_width (cell) / 2.0,
                         gtk_widget_get_height (cell) / 2.0, 3);
  gui_test_click_menu_item (open_menu_of (slots), "Recompute Box (this slot)");
  widget_test_iterate (200);
  g_assert_false (gtk_widget_get_visible (slots->context_menu));
  g_assert_true (mshed_model_get_slot (model, s, &now));
  /* the format's box (as the file has it) */
  g_assert_cmpmem (now.aabb_min, sizeof now.aabb_min, orig.aabb_min, sizeof orig.aabb_min);
  g_assert_cmpmem (now.aabb_max, sizeof now.aabb_max, orig.aabb_max, sizeof orig.aabb_max);
  /* only that slot's box bytes changed (docs/msh.md Slot68: aabbMin +8, aabbMax +20, 24 bytes) */
  after = slot_bytes (model);
  g_assert_cmpuint (after->len, ==, planted->len);
  for (guint i = 0; i < after->len; i++)
    if (after->data[i] != planted->data[i])
      g_assert_true (i >= s * 68 + 8 && i < s * 68 + 32);
  /* Ctrl+Z in the grid: the planted bytes exactly */
  place_focus (GTK_WIDGET (slots));
  gui_test_key ("ctrl+z");
  g_byte_array_unref (after);
  after = slot_bytes (model);
  g_assert_cmpmem (after->data, after->len, planted->data, planted->len);
  g_byte_array_unref (after);
  g_byte_array_unref (planted);

  /* a sphere too small, then the Menu key on the current cell: mshed's convention */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, s, "sphereR", 0.001, &error));
  mshed_table_view_reveal (slots, s, "sphereR");
  widget_test_iterate (300);
  gui_test_key ("Menu");
  gui_test_click_menu_item (open_menu_of (slots), "Apply Convention: Sphere (this slot)");
  widget_test_iterate (200);
  g_assert_true (mshed_model_get_slot (model, s, &now));
  /* docs/conventions.md: centred on the box, reaching every vertex of the slot */
  for (guint k = 0; k < 3; k++)
    g_assert_cmpfloat (now.sphere_center[k], ==, (orig.aabb_min[k] + orig.aabb_max[k]) * 0.5f);
  g_assert_cmpfloat (now.sphere_radius, >=, slot_extent (model, &now, now.sphere_center));
  g_assert_cmpfloat (now.sphere_radius, <, slot_extent (model, &now, now.sphere_center) * 1.001);

  /* the node grid: Follow Reference from node 2's first slot cell (a right click) */
  _mshed_window_select_grid (f.window, MSHED_TABLE_NODES);
  mshed_table_view_reveal (nodes, 2, "slot0");
  widget_test_iterate (300);
  g_assert_true (mshed_model_get_node (model, 2, &node));
  g_assert_cmpuint (node.slot[0], !=, MSHED_NONE);
  cell = _mshed_table_view_find_cell (nodes, 2, "slot0");
  gui_test_click_button (GTK_NATIVE (f.window), cell, gtk_widget_get_width (cell) / 2.0,
                         gtk_widget_get_height (cell) / 2.0, 3);
  gui_test_click_menu_item (open_menu_of (nodes), "Follow Reference");
  widget_test_iterate (300);
  g_assert_cmpint (gtk_notebook_get_current_page (f.window->grid_notebook), ==, 1);
  {
    guint row = G_MAXUINT;

    g_assert_true (mshed_table_view_get_selected_row (slots, &row));
    g_assert_cmpuint (row, ==, node.slot[0]);
  }

  /* Shift+F10 on node 2's slot0 cell: Show in Hex selects that field's two bytes of Res1
   * (docs/msh.md §4.1: Node38, slotIndex[0] at +8) */
  _mshed_window_select_grid (f.window, MSHED_TABLE_NODES);
  mshed_table_view_reveal (nodes, 2, "slot0");
  widget_test_iterate (300);
  gui_test_key ("shift+F10");
  gui_test_click_menu_item (open_menu_of (nodes), "Show in Hex");
  widget_test_iterate (200);
  g_assert_cmpint (gtk_notebook_get_current_page (f.window->side_notebook), ==, 1);
  g_assert_cmpint (mshed_hex_model_get_res_index (mshed_hex_view_get_model (f.window->hex_view)),
                   ==, mshed_model_find_resource (model, 1));
  g_assert_true (mshed_hex_view_get_selection (f.window->hex_view, &start, &end));
  g_assert_cmpuint (start, ==, 2 * 38 + 8);
  g_assert_cmpuint (end, ==, 2 * 38 + 10);

  fixture_teardown (&f);
}

/* The wheel over the key columns scrolls the whole grid; both views stay on the same rows. */
static void
test_key_columns_wheel (void)
{
  Fixture f;
  MshedTableView *verts;
  GtkWidget *cell;
  GtkAdjustment *main_adj, *key_adj;

  if (!fixture_setup (&f))
    return;
  verts = gui_test_grid (f.window, MSHED_TABLE_POSITIONS);
  _mshed_window_select_grid (f.window, MSHED_TABLE_POSITIONS);
  widget_test_iterate (300);
  main_adj = gtk_scrolled_window_get_vadjustment (verts->scroller);
  key_adj = gtk_scrolled_window_get_vadjustment (verts->key_scroller);
  g_assert_cmpfloat (gtk_adjustment_get_value (main_adj), ==, 0);
  cell = _mshed_table_view_find_cell (verts, 1, "#");
  g_assert_nonnull (cell);
  for (guint i = 0; i < 3; i++)
    gui_test_click_button (GTK_NATIVE (f.window), cell, gtk_widget_get_width (cell) / 2.0,
                           gtk_widget_get_height (cell) / 2.0, 5);
  widget_test_iterate (200);
  g_assert_cmpfloat (gtk_adjustment_get_value (main_adj), >, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (key_adj), ==, gtk_adjustment_get_value (main_adj));
  fixture_teardown (&f);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");

  g_test_add_func ("/app/input/tree-keys", test_tree_keys);
  g_test_add_func ("/app/input/grid-keys", test_grid_keys);
  g_test_add_func ("/app/input/hex-keys", test_hex_keys);
  g_test_add_func ("/app/input/find-fallback", test_find_fallback);
  g_test_add_func ("/app/input/panel-keys", test_panel_keys);
  g_test_add_func ("/app/input/pick-moves-hex", test_pick_moves_hex);
  g_test_add_func ("/app/input/recompute-all-is-stale-only", test_recompute_all_is_stale_only);
  g_test_add_func ("/app/input/grid-context-menu", test_grid_context_menu);
  g_test_add_func ("/app/input/key-columns-wheel", test_key_columns_wheel);
  g_test_add_func ("/app/input/duplicate-focused-row-then-close",
                   test_duplicate_focused_row_then_close);
  return gui_test_run (app);
}
