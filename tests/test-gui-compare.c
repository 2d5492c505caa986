/* test-gui-compare.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compare window in the real application under Xvfb, driven with real keys and clicks
 * (xdotool): two generated models that differ in three known cells (planted with mshed-cli
 * edit), F7 steps through them selecting the row on both sides, Copy to Left copies one
 * across, Ctrl+Z undoes it, Ctrl+S saves the left side, and the saved bytes are what the
 * document API alone makes of the same edit.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>

#include "gui-test-util.h"
#include "mshed-compare-window.h"
#include "mshed-model-view.h"
#include "mshed-node-tree-private.h"
#include "mshed-node-tree.h"
#include "mshed-renderer.h"
#include "mshed-utf-tree.h"
#include "test-require.h"
#include "tests/hand-msh.h"

static MshedApplication *app;

typedef struct {
  MshedTableId table;
  guint        row;
  const char  *field;
} Planted;

/* the three cells mshed-cli edit changes, in file order (Res1, Res2, Res13) */
static const Planted planted[] = {
  { MSHED_TABLE_NODES, 1, "hdr0" },
  { MSHED_TABLE_SLOTS, 2, "unk30" },
  { MSHED_TABLE_BATCHES, 1, "unk6" },
};

typedef struct {
  char               *dir;
  char               *left;
  char               *right;
  MshedCompareWindow *window;
} Fixture;

static gboolean
fixture_setup (Fixture *f)
{
  g_autofree char *args = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return FALSE;
    }
  f->dir = g_dir_make_tmp ("mshed-compare-XXXXXX", NULL);
  f->left = g_build_filename (f->dir, "left.msh", NULL);
  f->right = g_build_filename (f->dir, "right.msh", NULL);
  args = g_strdup_printf ("generate -s 5 -t 300 -o %s", f->left);
  gui_test_run_cli (args);
  g_free (args);
  args = g_strdup_printf ("edit --set nodes[1].hdr0=0x33 --set slots[2].unk30=7 "
                          "--set batches[1].unk6=5 --no-backup -o %s %s", f->right, f->left);
  gui_test_run_cli (args);
  f->window = mshed_compare_window_open (app, f->left, f->right, &error);
  g_assert_no_error (error);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 760);
  gtk_window_present (GTK_WINDOW (f->window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (f->window)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (f->window));
  return TRUE;
}

static void
fixture_teardown (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (100);
  g_unlink (f->left);
  g_unlink (f->right);
  g_rmdir (f->dir);
  g_free (f->left);
  g_free (f->right);
  g_free (f->dir);
}

static guint
n_differences (Fixture *f)
{
  widget_test_iterate (150);  /* the list follows the documents from an idle */
  return mshed_diff_get_n_items (mshed_compare_window_get_diff (f->window));
}

/* Difference @k is selected, and both grids show its table with its row selected. */
static void
assert_selected (Fixture *f,
                 guint    k)
{
  const MshedDiffItem *item = mshed_diff_get_item (mshed_compare_window_get_diff (f->window), k);

  g_assert_cmpuint (mshed_compare_window_get_selected (f->window), ==, k);
  g_assert_cmpint (item->table, ==, planted[k].table);
  g_assert_cmpstr (item->field, ==, planted[k].field);
  for (guint s = 0; s < 2; s++)
    {
      MshedTableView *grid = mshed_compare_window_get_grid (f->window, s);
      guint row = G_MAXUINT;

      g_assert_nonnull (grid);
      g_assert_cmpint (mshed_table_view_get_table (grid), ==, planted[k].table);
      g_assert_true (gui_test_wait_row_visible (grid, planted[k].row, 2000));
      g_assert_true (mshed_table_view_get_selected_row (grid, &row));
      g_assert_cmpuint (row, ==, planted[k].row);
      /* the changed cell is marked on both sides */
      g_assert_true (gtk_widget_has_css_class (
        gtk_widget_get_parent (_mshed_table_view_find_cell (grid, planted[k].row,
                                                            planted[k].field)), "changed"));
    }
}

static void
click_button (Fixture    *f,
              const char *label)
{
  GtkWidget *w = gui_test_find_label (GTK_WIDGET (f->window), label);

  g_assert_nonnull (w);
  gui_test_click (GTK_WINDOW (f->window), w, gtk_widget_get_width (w) / 2.0,
                  gtk_widget_get_height (w) / 2.0);
}

static void
screenshots (Fixture    *f,
             const char *tag)
{
  static const int sizes[][2] = { { 800, 600 }, { 1600, 1000 } };
  GtkSettings *settings = gtk_settings_get_default ();

  for (guint dark = 0; dark < 2; dark++)
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      {
        g_autofree char *name = g_strdup_printf ("compare-%s-%s-%dx%d.png", tag,
                                                 dark ? "dark" : "light", sizes[i][0],
                                                 sizes[i][1]);

        g_object_set (settings, "gtk-application-prefer-dark-theme", (gboolean) dark, NULL);
        gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
        widget_test_iterate (300);
        widget_test_screenshot (GTK_WIDGET (f->window), name);
      }
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 760);
  gui_test_wait_settled (GTK_WIDGET (f->window));  /* the buttons clicked next in place */
}

static void
test_step_copy_undo_save (void)
{
  Fixture f = { 0 };
  MshedDocument *left;
  g_autoptr(MshedDocument) expected = NULL;
  g_autoptr(GBytes) want = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GError) error = NULL;

  if (!fixture_setup (&f))
    return;
  left = mshed_compare_window_get_document (f.window, MSHED_COMPARE_LEFT);
  g_assert_cmpuint (n_differences (&f), ==, 3);
  g_assert_cmpuint (mshed_compare_window_get_selected (f.window), ==, G_MAXUINT);

  /* F7 three times: each difference in turn, on both sides */
  for (guint k = 0; k < 3; k++)
    {
      gui_test_key ("F7");
      assert_selected (&f, k);
    }
  gui_test_key ("shift+F7");
  assert_selected (&f, 1);
  /* the wheel over the left grid scrolls both (the slots grid is wider than its half) */
  {
    MshedTableView *grids[2] = { mshed_compare_window_get_grid (f.window, MSHED_COMPARE_LEFT),
                                 mshed_compare_window_get_grid (f.window, MSHED_COMPARE_RIGHT) };
    GtkAdjustment *h0 = mshed_table_view_get_hadjustment (grids[0]);
    GtkAdjustment *h1 = mshed_table_view_get_hadjustment (grids[1]);
    double was = gtk_adjustment_get_value (h0);

    g_assert_cmpfloat (gtk_adjustment_get_upper (h0), >, gtk_adjustment_get_page_size (h0));
    gui_test_click_button (GTK_NATIVE (f.window), GTK_WIDGET (grids[0]),
                           gtk_widget_get_width (GTK_WIDGET (grids[0])) / 2.0,
                           gtk_widget_get_height (GTK_WIDGET (grids[0])) / 2.0,
                           was > 0 ? 6 : 7);
    g_assert_cmpfloat (gtk_adjustment_get_value (h0), !=, was);
    g_assert_cmpfloat (gtk_adjustment_get_value (h1), ==, gtk_adjustment_get_value (h0));
  }
  screenshots (&f, "step");

  /* copy slots[2].unk30 from the right into the left */
  click_button (&f, "Copy to Left");
  g_assert_cmpuint (n_differences (&f), ==, 2);
  g_assert_true (mshed_document_get_modified (left));
  g_assert_cmpuint (mshed_compare_window_get_selected (f.window), ==, 1);  /* the next one */
  gui_test_key ("ctrl+z");
  g_assert_cmpuint (n_differences (&f), ==, 3);
  g_assert_false (mshed_document_get_modified (left));

  /* again, and save the left side */
  mshed_compare_window_select (f.window, 1);
  assert_selected (&f, 1);
  click_button (&f, "Copy to Left");
  g_assert_cmpuint (n_differences (&f), ==, 2);
  gui_test_key ("ctrl+s");
  widget_test_iterate (200);
  g_assert_false (mshed_document_get_modified (left));
  saved = gui_test_file_bytes (f.left);

  /* the same edit through the document API alone, on a fresh copy of the left model */
  {
    g_autofree char *args = g_strdup_printf ("generate -s 5 -t 300 -o %s/fresh.msh", f.dir);
    g_autofree char *fresh = g_build_filename (f.dir, "fresh.msh", NULL);

    gui_test_run_cli (args);
    expected = mshed_document_open (fresh, MSHED_MODE_STRICT, &error);
    g_assert_no_error (error);
    g_assert_true (mshed_document_set_field (expected, MSHED_TABLE_SLOTS, 2, "unk30", 7, &error));
    g_assert_no_error (error);
    want = mshed_document_serialize_file (expected);
    g_unlink (fresh);
  }
  g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (want));
  g_assert_true (g_bytes_equal (saved, want));
  screenshots (&f, "copied");
  {
    g_autofree char *bak = g_strconcat (f.left, ".bak", NULL);

    g_unlink (bak);
  }
  fixture_teardown (&f);
}

static void
find_previews (GtkWidget  *root,
               GPtrArray  *found)
{
  if (MSHED_IS_MODEL_VIEW (root))
    g_ptr_array_add (found, root);
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    find_previews (c, found);
}

static MshedCamera *
camera_of (GPtrArray *previews,
           guint      i)
{
  return mshed_renderer_get_camera (
    mshed_model_view_get_renderer (g_ptr_array_index (previews, i)));
}

/* Presses button 1 in the middle of @widget, moves the pointer by @moves (xdotool's
 * mousemove_relative steps) and releases it: a real drag. */
static void
drag_in (Fixture    *f,
         GtkWidget  *widget,
         const char *moves)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (f->window));
  graphene_point_t center = GRAPHENE_POINT_INIT (gtk_widget_get_width (widget) / 2.f,
                                                 gtk_widget_get_height (widget) / 2.f);
  graphene_point_t p;
  double sx = 0, sy = 0;
  g_autofree char *args = NULL;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (f->window), &center, &p));
  gtk_native_get_surface_transform (GTK_NATIVE (f->window), &sx, &sy);
  args = g_strdup_printf ("mousemove --window %lu --sync %d %d mousedown 1 %s mouseup 1",
                          (gulong) gdk_x11_surface_get_xid (surface), (int) (p.x + sx),
                          (int) (p.y + sy), moves);
  g_assert_true (gui_test_xdo (args));
#endif
  widget_test_iterate (400);
}

/* The two previews share one camera: a real drag in the left one turns the right one, side by
 * side and in the overlay. */
static void
test_preview_shared_camera (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) previews = g_ptr_array_new ();
  GtkWidget *left;
  MshedCamera before;

  if (!fixture_setup (&f))
    return;
  click_button (&f, "Preview");
  widget_test_iterate (400);
  find_previews (GTK_WIDGET (f.window), previews);
  g_assert_cmpuint (previews->len, ==, 2);
  left = g_ptr_array_index (previews, 0);
  before = *camera_of (previews, 1);
  drag_in (&f, left, "mousemove_relative --sync 30 0 mousemove_relative --sync 30 10");
  g_assert_true (memcmp (camera_of (previews, 0), &before, sizeof before) != 0);
  g_assert_true (memcmp (camera_of (previews, 0), camera_of (previews, 1), sizeof before) == 0);
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-preview.png");

  /* overlay: the right model ghosted over the left one, still one camera */
  click_button (&f, "Overlay: the right model ghosted over the left one");
  widget_test_iterate (400);
  g_assert_true (GTK_IS_OVERLAY (gtk_widget_get_parent (g_ptr_array_index (previews, 1))));
  g_assert_true (gtk_widget_get_parent (g_ptr_array_index (previews, 0)) ==
                 gtk_widget_get_parent (g_ptr_array_index (previews, 1)));
  g_assert_cmpfloat_with_epsilon (gtk_widget_get_opacity (g_ptr_array_index (previews, 1)), 0.5,
                                 0.01);
  g_assert_true (gtk_widget_get_mapped (g_ptr_array_index (previews, 1)));
  before = *camera_of (previews, 1);
  drag_in (&f, left, "mousemove_relative --sync 0 30");
  g_assert_true (memcmp (camera_of (previews, 1), &before, sizeof before) != 0);
  g_assert_true (memcmp (camera_of (previews, 0), camera_of (previews, 1), sizeof before) == 0);
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-overlay.png");
  fixture_teardown (&f);
}

/* Two deformable models: the DFM grids (level 0) follow F7, and Copy to Right works. */
static void
test_dfm (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-compare-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "a.dfm", NULL);
  g_autofree char *b = g_build_filename (dir, "b.dfm", NULL);
  g_autofree char *gen = g_strdup_printf ("generate --dfm body -o %s", a);
  g_autofree char *edit = g_strdup_printf ("edit --set points[5].y=1.25 --no-backup -o %s %s",
                                           b, a);
  g_autoptr(GError) error = NULL;
  Fixture f = { .dir = dir };

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  gui_test_run_cli (gen);
  gui_test_run_cli (edit);
  f.window = mshed_compare_window_open (app, a, b, &error);
  g_assert_no_error (error);
  gtk_window_present (GTK_WINDOW (f.window));
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (f.window));
  g_assert_cmpuint (n_differences (&f), ==, 2);  /* the geometry line and Points[5].y */
  gui_test_key ("F7");
  g_assert_cmpuint (mshed_compare_window_get_selected (f.window), ==, 0);
  /* the DFM grids: Points[5].y selected and marked on both sides */
  gui_test_key ("F7");
  g_assert_cmpuint (mshed_compare_window_get_selected (f.window), ==, 1);
  for (guint s = 0; s < 2; s++)
    {
      MshedTableView *grid = mshed_compare_window_get_grid (f.window, s);
      guint row = G_MAXUINT;

      g_assert_nonnull (grid);
      g_assert_cmpint (mshed_table_view_get_table (grid), ==, MSHED_DFM_TABLE_POINTS);
      g_assert_true (gui_test_wait_row_visible (grid, 5, 2000));
      g_assert_true (mshed_table_view_get_selected_row (grid, &row));
      g_assert_cmpuint (row, ==, 5);
      g_assert_true (gtk_widget_has_css_class (
        gtk_widget_get_parent (_mshed_table_view_find_cell (grid, 5, "y")), "changed"));
    }
  click_button (&f, "Copy to Right");
  g_assert_cmpuint (n_differences (&f), ==, 0);
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-dfm.png");
  mshed_document_undo (mshed_compare_window_get_document (f.window, MSHED_COMPARE_RIGHT));
  g_assert_cmpuint (n_differences (&f), ==, 2);
  gtk_window_destroy (GTK_WINDOW (f.window));
  widget_test_iterate (100);
  g_unlink (a);
  g_unlink (b);
  g_rmdir (dir);
}

/* Resizes the window to 800x600, 1600x1000 and 800x600 again (light and dark), each size
 * settled and drawn, with a screenshot COMPARE-@tag-{light,dark}-WxH.png of the first two. */
static void
resize_cycle (Fixture    *f,
              const char *tag)
{
  static const int sizes[][2] = { { 800, 600 }, { 1600, 1000 }, { 800, 600 } };
  GtkSettings *settings = gtk_settings_get_default ();

  for (guint dark = 0; dark < 2; dark++)
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      {
        g_object_set (settings, "gtk-application-prefer-dark-theme", (gboolean) dark, NULL);
        gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
        gui_test_wait_settled (GTK_WIDGET (f->window));
        if (i < 2)
          {
            g_autofree char *name = g_strdup_printf ("compare-%s-%s-%dx%d.png", tag,
                                                     dark ? "dark" : "light", sizes[i][0],
                                                     sizes[i][1]);

            widget_test_screenshot (GTK_WIDGET (f->window), name);
          }
      }
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 760);
  gui_test_wait_settled (GTK_WIDGET (f->window));
}

/* Opens @left and @right (generated and edited by the caller) and waits for the window. */
static void
open_pair (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  f->window = mshed_compare_window_open (app, f->left, f->right, &error);
  g_assert_no_error (error);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 760);
  gtk_window_present (GTK_WINDOW (f->window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (f->window)))
    g_main_context_iteration (NULL, TRUE);
  gui_test_wait_settled (GTK_WIDGET (f->window));
  gui_test_focus_window (GTK_WINDOW (f->window));
}

/* Two models differing in node 3 only (hdr0): each side's tree marks exactly that node; a real
 * click on it in one tree selects it in the other and in both grids; F7 selects it too. */
/* Two generated models in a new folder: @left_name from `generate GENERATE`, and @right_name
 * the same edited with `edit --set EDIT`, or generated again when @edit is NULL. */
static void
make_pair (Fixture    *f,
           const char *left_name,
           const char *right_name,
           const char *generate,
           const char *edit)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  f->dir = g_dir_make_tmp ("mshed-compare-XXXXXX", NULL);
  f->left = g_build_filename (f->dir, left_name, NULL);
  f->right = g_build_filename (f->dir, right_name, NULL);
  first = g_strdup_printf ("generate %s -o %s", generate, f->left);
  gui_test_run_cli (first);
  second = edit ? g_strdup_printf ("edit --set %s --no-backup -o %s %s", edit, f->right, f->left)
                : g_strdup_printf ("generate %s -o %s", generate, f->right);
  gui_test_run_cli (second);
}

static void
test_tree (void)
{
  Fixture f = { 0 };
  MshedNodeTree *trees[2];
  guint node = G_MAXUINT;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  make_pair (&f, "left.msh", "right.msh", "-s 5 -t 300", "nodes[3].hdr0=0x33");
  open_pair (&f);
  g_assert_cmpuint (n_differences (&f), ==, 1);
  for (guint s = 0; s < 2; s++)
    {
      guint checked = 0;

      trees[s] = MSHED_NODE_TREE (mshed_compare_window_get_tree (f.window, s));
      g_assert_true (MSHED_IS_NODE_TREE (trees[s]));
      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (trees[s])));
      g_assert_false (mshed_node_tree_get_selected_node (trees[s], &node));
      mshed_node_tree_select_node (trees[s], 3);  /* expanded down to it */
      mshed_node_tree_select_node (trees[s], G_MAXUINT);
      widget_test_iterate (100);
      for (guint n = 0; n < 16; n++)
        {
          GtkWidget *row = _mshed_node_tree_find_row_widget (trees[s], n);

          if (row == NULL)
            continue;
          checked++;
          row = gtk_widget_get_parent (row);  /* the list row around the expander */
          g_assert_cmpint (gtk_widget_has_css_class (row, "diff-changed"), ==, n == 3);
          g_assert_false (gtk_widget_has_css_class (row, "diff-only"));
        }
      g_assert_cmpuint (checked, >=, 4);
    }
  screenshots (&f, "tree");

  /* a real click on node 3 in the left tree: the right tree and both grids follow */
  {
    GtkWidget *row = _mshed_node_tree_find_row_widget (trees[0], 3);

    g_assert_nonnull (row);
    gui_test_click (GTK_WINDOW (f.window), row, gtk_widget_get_width (row) / 2.0,
                    gtk_widget_get_height (row) / 2.0);
    widget_test_iterate (200);
  }
  g_assert_true (mshed_node_tree_get_selected_node (trees[0], &node));
  g_assert_cmpuint (node, ==, 3);
  g_assert_true (mshed_node_tree_get_selected_node (trees[1], &node));
  g_assert_cmpuint (node, ==, 3);
  for (guint s = 0; s < 2; s++)
    {
      MshedTableView *grid = mshed_compare_window_get_grid (f.window, s);
      guint row = G_MAXUINT;

      g_assert_cmpint (mshed_table_view_get_table (grid), ==, MSHED_TABLE_NODES);
      g_assert_true (gui_test_wait_row_visible (grid, 3, 2000));
      g_assert_true (mshed_table_view_get_selected_row (grid, &row));
      g_assert_cmpuint (row, ==, 3);
    }

  /* another node on the right: the left follows; then F7 brings both back to node 3 */
  {
    GtkWidget *row = _mshed_node_tree_find_row_widget (trees[1], 0);

    g_assert_nonnull (row);
    gui_test_click (GTK_WINDOW (f.window), row, gtk_widget_get_width (row) / 2.0,
                    gtk_widget_get_height (row) / 2.0);
    widget_test_iterate (200);
  }
  g_assert_true (mshed_node_tree_get_selected_node (trees[0], &node));
  g_assert_cmpuint (node, ==, 0);
  gui_test_key ("F7");
  widget_test_iterate (100);
  for (guint s = 0; s < 2; s++)
    {
      g_assert_true (mshed_node_tree_get_selected_node (trees[s], &node));
      g_assert_cmpuint (node, ==, 3);
    }
  fixture_teardown (&f);
}

/* The overlay's colours: orange or red (warm), green (only in the right model). */
static gboolean
tinted (guint32  p,
        gboolean green)
{
  int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

  return green ? g > r + 40 && g > b + 20 : r > b + 50 && r > g + 20;
}

#define warm(p) tinted ((p), FALSE)
#define green(p) tinted ((p), TRUE)

/* Two deformable models differing in a point of level 1: the level chooser switches both
 * grids, the difference is marked only with level 1 chosen, and F7 reaches it (the level
 * switches, the row is selected on both sides, the trees select the Points node). */
static void
test_dfm_level (void)
{
  Fixture f = { 0 };
  const MshedDiffItem *item;
  MshedDfmArray points;
  g_autoptr(GPtrArray) previews = g_ptr_array_new ();
  g_autofree guint32 *pixels = NULL;
  guint n_warm = 0;
  int w, h;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  make_pair (&f, "a.dfm", "b.dfm", "--dfm body",
             "'\\MultiLevel\\Mesh1\\Geometry\\Points[3].y=1.25'");
  open_pair (&f);
  g_assert_cmpuint (n_differences (&f), ==, 2);  /* the geometry line and Points[3].y */
  item = mshed_diff_get_item (mshed_compare_window_get_diff (f.window), 1);
  g_assert_cmpstr (item->path, ==, "\\MultiLevel\\Mesh1\\Geometry\\Points");
  g_assert_cmpuint (mshed_compare_window_get_level (f.window), ==, 0);
  /* level 0 shows nothing changed */
  for (guint s = 0; s < 2; s++)
    g_assert_false (gtk_widget_has_css_class (gtk_widget_get_parent (
      _mshed_table_view_find_cell (mshed_compare_window_get_grid (f.window, s), 3, "y")),
      "changed"));

  screenshots (&f, "dfm-level0");
  gui_test_key ("F7");
  gui_test_key ("F7");
  widget_test_iterate (200);
  g_assert_cmpuint (mshed_compare_window_get_selected (f.window), ==, 1);
  g_assert_cmpuint (mshed_compare_window_get_level (f.window), ==, 1);
  g_assert_true (mshed_dfm_get_array (
    mshed_document_get_dfm (mshed_compare_window_get_document (f.window, 0)),
    MSHED_DFM_TABLE_POINTS, 1, 0, &points));
  for (guint s = 0; s < 2; s++)
    {
      MshedTableView *grid = mshed_compare_window_get_grid (f.window, s);
      MshedUtfNode *node = mshed_utf_tree_get_selected (
        MSHED_UTF_TREE (mshed_compare_window_get_tree (f.window, s)));
      g_autofree char *path = node ? mshed_utf_node_dup_path (node) : NULL;
      guint row = G_MAXUINT;

      g_assert_cmpint (mshed_table_view_get_table (grid), ==, MSHED_DFM_TABLE_POINTS);
      /* the grid holds level 1's points (fewer than level 0's) */
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (
        _mshed_table_view_get_model (grid))), ==, points.count);
      g_assert_true (gui_test_wait_row_visible (grid, 3, 2000));
      g_assert_true (mshed_table_view_get_selected_row (grid, &row));
      g_assert_cmpuint (row, ==, 3);
      g_assert_true (gtk_widget_has_css_class (
        gtk_widget_get_parent (_mshed_table_view_find_cell (grid, 3, "y")), "changed"));
      g_assert_cmpstr (path, ==, "\\MultiLevel\\Mesh1\\Geometry\\Points");
    }
  /* resized small, large and small again with the marked row, light and dark: no GTK warning
   * (they are fatal here; one was "Trying to snapshot MshedTableView without a current
   * allocation") */
  resize_cycle (&f, "dfm-level1");
  /* the skinned previews of level 1, the overlay colouring the moved point's triangles */
  click_button (&f, "Preview");
  click_button (&f, "Overlay: the right model ghosted over the left one");
  widget_test_iterate (300);
  find_previews (GTK_WIDGET (f.window), previews);
  g_assert_cmpuint (previews->len, ==, 2);
  for (guint s = 0; s < 2; s++)
    {
      MshedRenderer *renderer = mshed_model_view_get_renderer (g_ptr_array_index (previews, s));

      g_assert_nonnull (mshed_renderer_get_dfm (renderer));
      g_assert_cmpuint (mshed_render_scene_get_lod (mshed_renderer_get_scene (renderer)), ==, 1);
      /* no grid or axes (the X axis is red): only the models */
      mshed_model_view_set_overlays (g_ptr_array_index (previews, s), MSHED_OVERLAY_SHADED);
    }
  gui_test_wait_settled (GTK_WIDGET (f.window));
  pixels = gui_test_grab (GTK_WIDGET (f.window), g_ptr_array_index (previews, 0), &w, &h);
  for (int i = 0; i < w * h; i++)
    n_warm += warm (pixels[i]);
  g_assert_cmpuint (n_warm, >, 20);
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-dfm-ghost.png");
  fixture_teardown (&f);
}

/* Two hand-made models, the right one with a node inserted before the others (its vertices,
 * slot and batch first, so every later number shifts): the overlay colours only the new
 * node's quad, green, and nothing orange or red (docs/diff.md §7). */
static void
ghost_inserted_node (void)
{
  static const HandMshNode left[] = {
    { "hull", 0, 0, 0 }, { "turret", 4, 0, 0 }, { "gun", 8, 0, 0 },
  };
  static const HandMshNode right[] = {
    { "new", 2, 0, 0 }, { "hull", 0, 0, 0 }, { "turret", 4, 0, 0 }, { "gun", 8, 0, 0 },
  };
  static const float corners[4][3] = { { 2, 0, -1 }, { 3, 0, -1 }, { 3, 0, 1 }, { 2, 0, 1 } };
  Fixture f = { 0 };
  g_autoptr(GPtrArray) previews = g_ptr_array_new ();
  g_autoptr(GBytes) a = hand_msh_bytes (left, G_N_ELEMENTS (left));
  g_autoptr(GBytes) b = hand_msh_bytes (right, G_N_ELEMENTS (right));
  g_autofree guint32 *pixels = NULL;
  float box[4] = { G_MAXFLOAT, G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  guint inside = 0, outside = 0, n_warm = 0;
  int w, h;
  GtkWidget *view;

  f.dir = g_dir_make_tmp ("mshed-compare-XXXXXX", NULL);
  f.left = g_build_filename (f.dir, "left.msh", NULL);
  f.right = g_build_filename (f.dir, "right.msh", NULL);
  g_assert_true (g_file_set_contents (f.left, g_bytes_get_data (a, NULL),
                                      (gssize) g_bytes_get_size (a), NULL));
  g_assert_true (g_file_set_contents (f.right, g_bytes_get_data (b, NULL),
                                      (gssize) g_bytes_get_size (b), NULL));
  open_pair (&f);
  click_button (&f, "Preview");
  click_button (&f, "Overlay: the right model ghosted over the left one");
  widget_test_iterate (300);
  find_previews (GTK_WIDGET (f.window), previews);
  g_assert_cmpuint (previews->len, ==, 2);
  for (guint s = 0; s < 2; s++)
    mshed_model_view_set_overlays (g_ptr_array_index (previews, s), MSHED_OVERLAY_SHADED);
  gui_test_wait_settled (GTK_WIDGET (f.window));
  view = g_ptr_array_index (previews, 1);
  for (guint c = 0; c < 4; c++)  /* the new node's key is the identity */
    {
      float x, y;

      g_assert_true (mshed_renderer_project (
        mshed_model_view_get_renderer (MSHED_MODEL_VIEW (view)), gtk_widget_get_width (view),
        gtk_widget_get_height (view), corners[c], &x, &y));
      box[0] = MIN (box[0], x);
      box[1] = MIN (box[1], y);
      box[2] = MAX (box[2], x);
      box[3] = MAX (box[3], y);
    }
  pixels = gui_test_grab (GTK_WIDGET (f.window), g_ptr_array_index (previews, 0), &w, &h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 p = pixels[(gsize) y * w + x];

        n_warm += warm (p);
        if (green (p) && x >= box[0] - 2 && x <= box[2] + 2 && y >= box[1] - 2 &&
            y <= box[3] + 2)
          inside++;
        else if (green (p))
          outside++;
      }
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-ghost-inserted-node.png");
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR"))  /* small and large, light and dark: 2 s */
    screenshots (&f, "ghost-inserted-node");
  g_test_message ("inserted node: %u green pixels inside (%.0f,%.0f)-(%.0f,%.0f), %u outside, "
                  "%u orange or red, grab %dx%d", inside, box[0], box[1], box[2], box[3],
                  outside, n_warm, w, h);
  g_assert_cmpuint (inside, >, 100);
  g_assert_cmpuint (outside, ==, 0);
  g_assert_cmpuint (n_warm, ==, 0);
  fixture_teardown (&f);
}

/* The overlay colours the moved part: a vertex of the right model moved (one edit), and the
 * composited preview shows the changed colour inside the triangles around that vertex (before
 * and after the move) and nowhere else. */
static void
test_ghost_colours (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) previews = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *pixels = NULL;
  MshedRenderScene *scene;
  const MshedDrawItem *items;
  const guint32 *elements;
  guint n_items = 0, n_elements = 0, v, inside = 0, outside = 0;
  float pos[3], box[4] = { G_MAXFLOAT, G_MAXFLOAT, -G_MAXFLOAT, -G_MAXFLOAT };
  int w, h, wbox[4] = { G_MAXINT, G_MAXINT, -1, -1 };

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  make_pair (&f, "left.msh", "right.msh", "-s 5 -t 300", NULL);
  open_pair (&f);
  g_assert_cmpuint (n_differences (&f), ==, 0);
  click_button (&f, "Preview");
  click_button (&f, "Overlay: the right model ghosted over the left one");
  widget_test_iterate (300);
  find_previews (GTK_WIDGET (f.window), previews);
  g_assert_cmpuint (previews->len, ==, 2);
  for (guint s = 0; s < 2; s++)  /* no grid or axes: only the models */
    mshed_model_view_set_overlays (g_ptr_array_index (previews, s), MSHED_OVERLAY_SHADED);

  /* the first vertex the left preview draws, moved on the right */
  scene = mshed_renderer_get_scene (
    mshed_model_view_get_renderer (g_ptr_array_index (previews, 0)));
  items = mshed_render_scene_get_items (scene, &n_items);
  elements = mshed_render_scene_get_elements (scene, &n_elements);
  g_assert_cmpuint (n_items, >, 0);
  v = elements[items[0].elem_first];
  mshed_render_scene_read_vertices (scene, v, 1, pos, NULL, NULL);
  g_assert_true (mshed_document_set_field (
    mshed_compare_window_get_document (f.window, MSHED_COMPARE_RIGHT), MSHED_TABLE_POSITIONS,
    v, "y", pos[1] + 0.05f * mshed_renderer_get_camera (mshed_model_view_get_renderer (
      g_ptr_array_index (previews, 0)))->scene_radius, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_differences (&f), >=, 1);
  gui_test_wait_settled (GTK_WIDGET (f.window));
  widget_test_iterate (300);

  /* where the triangles around v land, on each side */
  for (guint s = 0; s < 2; s++)
    {
      GtkWidget *view = g_ptr_array_index (previews, s);
      MshedRenderer *renderer = mshed_model_view_get_renderer (MSHED_MODEL_VIEW (view));
      MshedRenderScene *sc = mshed_renderer_get_scene (renderer);
      const guint32 *el = mshed_render_scene_get_elements (sc, &n_elements);
      const MshedDrawItem *its = mshed_render_scene_get_items (sc, &n_items);

      for (guint i = 0; i < n_items; i++)
        for (guint e = its[i].elem_first; e + 2 < its[i].elem_first + its[i].elem_count; e += 3)
          for (guint k = 0; k < 3 && (el[e] == v || el[e + 1] == v || el[e + 2] == v); k++)
            {
              const float *m = mshed_render_scene_get_world (sc, its[i].node);
              float l[3], p[3], x, y;

              mshed_render_scene_read_vertices (sc, el[e + k], 1, l, NULL, NULL);
              for (guint c = 0; c < 3; c++)  /* the node's world matrix (column-major) */
                p[c] = m[c] * l[0] + m[4 + c] * l[1] + m[8 + c] * l[2] + m[12 + c];
              g_assert_true (mshed_renderer_project (renderer, gtk_widget_get_width (view),
                                                     gtk_widget_get_height (view), p, &x, &y));
              box[0] = MIN (box[0], x);
              box[1] = MIN (box[1], y);
              box[2] = MAX (box[2], x);
              box[3] = MAX (box[3], y);
            }
    }
  pixels = gui_test_grab (GTK_WIDGET (f.window), g_ptr_array_index (previews, 0), &w, &h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (warm (pixels[(gsize) y * w + x]))
        {
          wbox[0] = MIN (wbox[0], x);
          wbox[1] = MIN (wbox[1], y);
          wbox[2] = MAX (wbox[2], x);
          wbox[3] = MAX (wbox[3], y);
          if (x >= box[0] - 2 && x <= box[2] + 2 && y >= box[1] - 2 && y <= box[3] + 2)
            inside++;
          else
            outside++;
        }
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-ghost-colours.png");
  g_test_message ("changed colour: %u pixels inside (%.0f,%.0f)-(%.0f,%.0f), %u outside "
                  "(all in (%d,%d)-(%d,%d)), grab %dx%d", inside, box[0], box[1], box[2], box[3],
                  outside, wbox[0], wbox[1], wbox[2], wbox[3], w, h);
  g_assert_cmpuint (inside, >, 20);
  g_assert_cmpuint (outside, ==, 0);
  fixture_teardown (&f);
  ghost_inserted_node ();
}

/* Writes the model generated into @path with an opaque resource ("notes", a type no schema
 * describes) of 4096 bytes whose byte 3000 is @mark. */
static void
write_with_notes (const char *dir,
                  const char *path,
                  guint8      mark)
{
  g_autofree char *args = g_strdup_printf ("generate -s 5 -t 100 -o %s", path);
  g_autofree guint8 *payload = g_malloc (4096);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;

  gui_test_run_cli (args);
  for (guint i = 0; i < 4096; i++)
    payload[i] = (guint8) (i * 7);
  payload[3000] = mark;
  bytes = g_bytes_new_take (g_steal_pointer (&payload), 4096);
  doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mshed_document_add_resource (doc, G_MAXUINT, 0x4C4C554Eu, "notes", 1, 0, 0,
                                                bytes, &error), >=, 0);
  g_assert_no_error (error);
  g_assert_true (mshed_document_save_as (doc, path, MSHED_SAVE_NO_BACKUP, &error));
  g_assert_no_error (error);
}

/* Two models that differ in one byte of an opaque resource: F7 shows the Bytes page, the two
 * hex views show that resource at the byte, exactly that byte is marked on both sides, and
 * the wheel over one view scrolls both. */
static void
test_hex_diff (void)
{
  Fixture f = { 0 };
  g_autoptr(GError) error = NULL;
  gint64 deadline;
  const MshedDiffItem *item;
  MshedHexView *hex[2];

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  f.dir = g_dir_make_tmp ("mshed-compare-XXXXXX", NULL);
  f.left = g_build_filename (f.dir, "left.msh", NULL);
  f.right = g_build_filename (f.dir, "right.msh", NULL);
  write_with_notes (f.dir, f.left, 0x11);
  write_with_notes (f.dir, f.right, 0x99);
  f.window = mshed_compare_window_open (app, f.left, f.right, &error);
  g_assert_no_error (error);
  gtk_window_set_default_size (GTK_WINDOW (f.window), 1200, 760);
  gtk_window_present (GTK_WINDOW (f.window));
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (!gtk_widget_get_mapped (GTK_WIDGET (f.window)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (f.window));

  g_assert_cmpuint (n_differences (&f), ==, 1);
  item = mshed_diff_get_item (mshed_compare_window_get_diff (f.window), 0);
  g_assert_cmpint (item->kind, ==, MSHED_DIFF_BYTES);
  g_assert_cmpuint (item->offset, ==, 3000);
  gui_test_key ("F7");
  widget_test_iterate (300);
  for (guint s = 0; s < 2; s++)
    {
      gsize start = 0, end = 0;
      guint marked = 0;

      hex[s] = mshed_compare_window_get_hex_view (f.window, s);
      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (hex[s])));
      g_assert_cmpint (mshed_hex_model_get_res_index (mshed_hex_view_get_model (hex[s])), ==,
                       s == 0 ? item->res_a : item->res_b);
      for (gsize i = 0; i < 4096; i++)
        marked += mshed_hex_view_is_marked (hex[s], i);
      g_assert_cmpuint (marked, ==, 1);
      g_assert_true (mshed_hex_view_is_marked (hex[s], 3000));
      g_assert_cmpuint (mshed_hex_view_get_cursor_offset (hex[s]), ==, 3000);
      mshed_hex_view_get_visible_range (hex[s], &start, &end);
      g_assert_cmpuint (start, <=, 3000);
      g_assert_cmpuint (end, >, 3000);
    }
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-bytes.png");
  gtk_window_set_default_size (GTK_WINDOW (f.window), 800, 600);
  widget_test_iterate (300);
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-bytes-800x600.png");
  gtk_window_set_default_size (GTK_WINDOW (f.window), 1600, 1000);
  widget_test_iterate (300);
  widget_test_screenshot (GTK_WIDGET (f.window), "compare-bytes-1600x1000.png");
  /* the wheel over the left view scrolls both */
  {
    GtkAdjustment *a0 = mshed_hex_view_get_vadjustment (hex[0]);
    GtkAdjustment *a1 = mshed_hex_view_get_vadjustment (hex[1]);
    double was = gtk_adjustment_get_value (a0);

    gui_test_click_button (GTK_NATIVE (f.window), GTK_WIDGET (hex[0]),
                           gtk_widget_get_width (GTK_WIDGET (hex[0])) / 2.0,
                           gtk_widget_get_height (GTK_WIDGET (hex[0])) / 2.0, 4);
    widget_test_iterate (200);
    g_assert_cmpfloat (gtk_adjustment_get_value (a0), !=, was);
    g_assert_cmpfloat (gtk_adjustment_get_value (a1), ==, gtk_adjustment_get_value (a0));
  }
  fixture_teardown (&f);
}

/* The built app, started as `mshed --compare LEFT RIGHT`, shows the compare window. */
static void
test_command_line (void)
{
  const char *mshed = g_getenv ("MSHED_APP");
  g_autofree char *dir = g_dir_make_tmp ("mshed-compare-XXXXXX", NULL);
  g_autofree char *left = g_build_filename (dir, "left.msh", NULL);
  g_autofree char *right = g_build_filename (dir, "right.msh", NULL);
  g_autofree char *gen = g_strdup_printf ("generate -s 5 -t 100 -o %s", left);
  g_autofree char *edit = g_strdup_printf ("edit --set slots[0].unk30=7 --no-backup -o %s %s",
                                           right, left);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "GSETTINGS_BACKEND", "memory", TRUE);
  const char *argv[] = { mshed, "--compare", left, right, NULL };
  g_autofree char *found = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  GPid pid;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  g_assert_nonnull (mshed);
  gui_test_run_cli (gen);
  gui_test_run_cli (edit);
  g_assert_true (g_spawn_async (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &pid, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_command_line_sync ("timeout 30 xdotool search --sync --name "
                                            "'left.msh ↔ right.msh'", &found, NULL, &status,
                                            NULL));
  kill (pid, SIGTERM);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (found, !=, "");
  g_unlink (left);
  g_unlink (right);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");

  g_test_add_func ("/app/compare/step-copy-undo-save", test_step_copy_undo_save);
  g_test_add_func ("/app/compare/preview", test_preview_shared_camera);
  g_test_add_func ("/app/compare/dfm", test_dfm);
  g_test_add_func ("/app/compare/tree", test_tree);
  g_test_add_func ("/app/compare/dfm-level", test_dfm_level);
  g_test_add_func ("/app/compare/ghost-colours", test_ghost_colours);
  g_test_add_func ("/app/compare/hex-diff", test_hex_diff);
  g_test_add_func ("/app/compare/command-line", test_command_line);
  return gui_test_run (app);
}
