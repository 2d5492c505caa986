/* test-gui-merge.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The merge view in the real application under Xvfb, driven with real clicks and keys
 * (xdotool): three generated models (BASE; MINE edits one cell; THEIRS edits another cell and
 * one MINE edited too, differently; planted with mshed-cli edit). The view lists two changes
 * and one conflict; choosing Theirs builds the result, which saves to exactly the bytes of
 * `mshed-cli merge --prefer theirs`; selecting the conflict in a narrow window scrolls the
 * grid down and sideways to its cell; saving over an input asks first; Ctrl+Z undoes the merge
 * in the result and Ctrl+Shift+Z redoes it. A cell of the result edited with real keys survives
 * Mine (no question, one undo step); Ctrl+Z gives Theirs back in the bytes and in the toggles,
 * Ctrl+Shift+Z Mine again; All Theirs keeps the edit too. Then the same for two deformable
 * models; a conflict in level 1 of a deformable model (the grid follows the list to its level
 * and cell: a click, F7, Shift+F7); and `mshed --merge BASE MINE THEIRS`.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>

#include "gui-test-util.h"
#include "mshed-merge-window.h"
#include "test-require.h"

static MshedApplication *app;

typedef struct {
  char             *dir;
  char             *paths[3];  /* base, mine, theirs */
  MshedMergeWindow *window;
} Fixture;

/* The bytes `mshed-cli merge --prefer @side` writes for the fixture's three files. */
static GBytes *
cli_merge (Fixture    *f,
           const char *side)
{
  g_autofree char *out = g_strdup_printf ("%s/cli-%s.out", f->dir, side);
  g_autofree char *args = g_strdup_printf ("merge %s %s %s --prefer %s -o %s", f->paths[0],
                                           f->paths[1], f->paths[2], side, out);
  GBytes *bytes;

  gui_test_run_cli (args);
  bytes = gui_test_file_bytes (out);
  g_unlink (out);
  return bytes;
}

/* Generates BASE with @generate, MINE and THEIRS from it with the edits @mine and @theirs. */
static gboolean
fixture_setup (Fixture    *f,
               const char *ext,
               const char *generate,
               const char *mine,
               const char *theirs)
{
  static const char *const names[] = { "base", "mine", "theirs" };
  const char *edits[] = { NULL, mine, theirs };
  g_autoptr(GError) error = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return FALSE;
    }
  f->dir = g_dir_make_tmp ("mshed-merge-XXXXXX", NULL);
  for (guint s = 0; s < 3; s++)
    {
      g_autofree char *args = NULL;

      f->paths[s] = g_strdup_printf ("%s/%s.%s", f->dir, names[s], ext);
      args = s == 0 ? g_strdup_printf ("generate %s -o %s", generate, f->paths[0])
                    : g_strdup_printf ("edit %s --no-backup -o %s %s", edits[s], f->paths[s],
                                       f->paths[0]);
      gui_test_run_cli (args);
    }
  f->window = mshed_merge_window_open (app, f->paths[0], f->paths[1], f->paths[2], &error);
  g_assert_no_error (error);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 760);
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
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (f->window != NULL)
    gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (100);
  dir = g_dir_open (f->dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  for (guint s = 0; s < 3; s++)
    g_free (f->paths[s]);
  g_free (f->dir);
}

static void
click_widget (GtkWindow *window,
              GtkWidget *w)
{
  g_assert_nonnull (w);
  gui_test_click (window, w, gtk_widget_get_width (w) / 2.0, gtk_widget_get_height (w) / 2.0);
  widget_test_iterate (200);
}

static void
click_label (GtkWindow  *window,
             const char *label)
{
  GtkWidget *w = gui_test_find_label (GTK_WIDGET (window), label);

  if (w == NULL)
    g_error ("no label “%s” is shown", label);
  click_widget (window, w);
}

/* The dialog the window opened, answered by clicking @button. */
static void
answer_dialog (Fixture    *f,
               const char *button)
{
  GtkWidget *dialog = NULL;
  gint64 deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;

  while ((dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL)) == NULL &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_nonnull (dialog);
  while (!gtk_widget_get_mapped (dialog) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  widget_test_iterate (200);
  click_label (GTK_WINDOW (dialog), button);
  widget_test_iterate (200);
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));
}

static void
assert_result_bytes (Fixture *f,
                     GBytes  *want)
{
  g_autoptr(GBytes) got = NULL;

  g_assert_nonnull (mshed_merge_window_get_result (f->window));
  got = mshed_document_serialize_file (mshed_merge_window_get_result (f->window));
  g_assert_cmpuint (g_bytes_get_size (got), ==, g_bytes_get_size (want));
  g_assert_true (g_bytes_equal (got, want));
}

static void
screenshots (Fixture    *f,
             const char *tag)
{
  static const int sizes[][2] = { { 800, 600 }, { 1600, 1000 } };
  GtkSettings *settings = gtk_settings_get_default ();

  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") == NULL)  /* as gui_test_shot_sizes */
    return;
  for (guint dark = 0; dark < 2; dark++)
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      {
        g_autofree char *name = g_strdup_printf ("merge-%s-%s-%dx%d.png", tag,
                                                 dark ? "dark" : "light", sizes[i][0],
                                                 sizes[i][1]);

        g_object_set (settings, "gtk-application-prefer-dark-theme", (gboolean) dark, NULL);
        gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
        widget_test_iterate (300);
        widget_test_screenshot (GTK_WIDGET (f->window), name);
      }
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 760);
  widget_test_iterate (200);
}

/* @bytes (a merged MSH) with slots[0].unk30 = 9, by the document API alone. */
static GBytes *
with_edit (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL,
                                                            &error);
  g_autoptr(MshedDocument) doc = NULL;

  g_assert_no_error (error);
  doc = mshed_document_new_for_model (model, MSHED_MODE_TOLERANT);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "unk30", 9, &error));
  g_assert_no_error (error);
  return mshed_document_serialize_file (doc);
}

/* Whether the conflict's toggle labelled @label ("Mine", "Theirs") is down. */
static gboolean
choice_shown (Fixture    *f,
              const char *label)
{
  GtkWidget *w = gui_test_find_label (GTK_WIDGET (f->window), label);

  g_assert_nonnull (w);
  w = gtk_widget_get_ancestor (w, GTK_TYPE_TOGGLE_BUTTON);
  g_assert_nonnull (w);
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (w));
}

/* Waits (2 s at most) until the cell of @row, @field lies inside @grid's scrolled area,
 * sideways as well as down. */
static gboolean
wait_cell_visible (MshedTableView *grid,
                   guint           row,
                   const char     *field)
{
  gint64 deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
  GtkWidget *scroller = GTK_WIDGET (grid->scroller);

  do
    {
      GtkWidget *cell = _mshed_table_view_find_cell (grid, row, field);
      graphene_rect_t b;

      if (cell != NULL && gtk_widget_get_mapped (cell) &&
          gtk_widget_compute_bounds (gtk_widget_get_parent (cell), scroller, &b) &&
          b.origin.x >= 0 && b.origin.x + b.size.width <= gtk_widget_get_width (scroller) + 0.5)
        return TRUE;
      widget_test_iterate (20);
    }
  while (g_get_monotonic_time () < deadline);
  return FALSE;
}

static void
test_msh (void)
{
  Fixture f = { 0 };
  const MshedMergeConflict *c;
  const MshedMergeChanges *changes;
  MshedTableView *grid;
  g_autoptr(GBytes) theirs_bytes = NULL;
  g_autoptr(GBytes) want_theirs = NULL;
  g_autoptr(GBytes) want_mine = NULL;
  g_autoptr(GBytes) base_bytes = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) edited_theirs = NULL;
  g_autoptr(GBytes) edited_mine = NULL;
  g_autofree char *out = NULL;
  guint row = G_MAXUINT;

  if (!fixture_setup (&f, "msh", "-s 5 -t 300",
                      "--set nodes[1].hdr0=0x33 --set slots[2].unk30=7",
                      "--set batches[1].unk6=5 --set slots[2].unk30=8"))
    return;
  want_theirs = cli_merge (&f, "theirs");
  want_mine = cli_merge (&f, "mine");
  g_assert_false (g_bytes_equal (want_theirs, want_mine));
  base_bytes = gui_test_file_bytes (f.paths[0]);
  theirs_bytes = gui_test_file_bytes (f.paths[2]);

  /* two changes taken and one conflict, no result until it is resolved */
  changes = mshed_merge_window_get_changes (f.window);
  g_assert_cmpuint (mshed_merge_changes_get_n (changes), ==, 2);
  g_assert_cmpint (mshed_merge_changes_get (changes, 0)->item->table, ==, MSHED_TABLE_NODES);
  g_assert_cmpint (mshed_merge_changes_get (changes, 0)->origin, ==, MSHED_MERGE_FROM_MINE);
  g_assert_cmpint (mshed_merge_changes_get (changes, 1)->item->table, ==, MSHED_TABLE_BATCHES);
  g_assert_cmpint (mshed_merge_changes_get (changes, 1)->origin, ==, MSHED_MERGE_FROM_THEIRS);
  g_assert_cmpuint (mshed_merge_get_n_conflicts (mshed_merge_window_get_merge (f.window)), ==, 1);
  c = mshed_merge_get_conflict (mshed_merge_window_get_merge (f.window), 0);
  g_assert_cmpint (c->table, ==, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (c->row, ==, 2);
  g_assert_cmpstr (c->field, ==, "unk30");
  g_assert_cmpstr (c->mine_value, ==, "0x00000007");
  g_assert_cmpstr (c->theirs_value, ==, "0x00000008");
  /* the list shows them, in the schema's words */
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (f.window), "slots[2].unk30"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (f.window),
                                         "base 0x0000000E · mine 0x00000007 · "
                                         "theirs 0x00000008"));
  g_assert_null (mshed_merge_window_get_result (f.window));
  g_assert_null (mshed_merge_window_get_grid (f.window));
  screenshots (&f, "unresolved");

  /* Theirs: the result is built and shown */
  click_label (GTK_WINDOW (f.window), "Theirs");
  g_assert_cmpint (c->choice, ==, MSHED_MERGE_THEIRS);
  assert_result_bytes (&f, want_theirs);
  g_assert_nonnull (mshed_merge_window_get_grid (f.window));
  /* selecting the conflict shows its cell in the result, down and sideways in a narrow
   * window */
  gtk_window_set_default_size (GTK_WINDOW (f.window), 800, 600);
  gui_test_wait_settled (GTK_WIDGET (f.window));
  click_label (GTK_WINDOW (f.window), "slots[2].unk30");
  grid = mshed_merge_window_get_grid (f.window);
  g_assert_cmpint (mshed_table_view_get_table (grid), ==, MSHED_TABLE_SLOTS);
  g_assert_true (gui_test_wait_row_visible (grid, 2, 2000));
  g_assert_true (mshed_table_view_get_selected_row (grid, &row));
  g_assert_cmpuint (row, ==, 2);
  g_assert_true (wait_cell_visible (grid, 2, "unk30"));
  gtk_window_set_default_size (GTK_WINDOW (f.window), 1100, 760);
  gui_test_wait_settled (GTK_WIDGET (f.window));
  screenshots (&f, "resolved");

  /* saved: the bytes of mshed-cli merge --prefer theirs */
  out = g_build_filename (f.dir, "merged.msh", NULL);
  mshed_merge_window_save_as (f.window, out);
  saved = gui_test_file_bytes (out);
  g_assert_cmpuint (g_bytes_get_size (saved), ==, g_bytes_get_size (want_theirs));
  g_assert_true (g_bytes_equal (saved, want_theirs));
  g_assert_false (mshed_document_get_modified (mshed_merge_window_get_result (f.window)));

  /* over an input: asked first, and Cancel leaves it alone */
  mshed_merge_window_save_as (f.window, f.paths[2]);
  answer_dialog (&f, "Cancel");
  after = gui_test_file_bytes (f.paths[2]);
  g_assert_true (g_bytes_equal (after, theirs_bytes));

  /* the result is a normal document: Ctrl+Z undoes the merge (BASE again), Ctrl+Shift+Z
   * redoes it */
  gui_test_focus_window (GTK_WINDOW (f.window));
  gui_test_key ("ctrl+z");
  widget_test_iterate (200);
  assert_result_bytes (&f, base_bytes);
  gui_test_key ("ctrl+shift+z");
  widget_test_iterate (200);
  assert_result_bytes (&f, want_theirs);

  /* a cell of the result edited with real keys: slots[0].unk30 = 9 */
  grid = mshed_merge_window_get_grid (f.window);
  mshed_table_view_reveal (grid, 0, "unk30");
  widget_test_iterate (200);
  gui_test_key ("F2");
  g_assert_true (mshed_cell_editor_is_open (_mshed_table_view_get_editor (grid)));
  gui_test_xdo ("type --delay 10 -- '9'");
  gui_test_key ("Return");
  edited_theirs = with_edit (want_theirs);
  edited_mine = with_edit (want_mine);
  assert_result_bytes (&f, edited_theirs);

  /* Mine (a real click): no question, the edit survives, one undo step */
  click_label (GTK_WINDOW (f.window), "Mine");
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));
  g_assert_cmpint (c->choice, ==, MSHED_MERGE_MINE);
  assert_result_bytes (&f, edited_mine);
  g_assert_true (choice_shown (&f, "Mine"));
  g_assert_false (choice_shown (&f, "Theirs"));
  /* Ctrl+Z gives Theirs back, in the bytes and in the choice; Ctrl+Shift+Z Mine again */
  gui_test_focus_window (GTK_WINDOW (f.window));
  gui_test_key ("ctrl+z");
  widget_test_iterate (100);
  assert_result_bytes (&f, edited_theirs);
  g_assert_cmpint (c->choice, ==, MSHED_MERGE_THEIRS);
  g_assert_true (choice_shown (&f, "Theirs"));
  g_assert_false (choice_shown (&f, "Mine"));
  gui_test_key ("ctrl+shift+z");
  widget_test_iterate (100);
  assert_result_bytes (&f, edited_mine);
  g_assert_true (choice_shown (&f, "Mine"));

  /* All Theirs: one step too, the edit still there */
  click_label (GTK_WINDOW (f.window), "All Theirs");
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));
  g_assert_cmpint (c->choice, ==, MSHED_MERGE_THEIRS);
  assert_result_bytes (&f, edited_theirs);
  g_assert_true (choice_shown (&f, "Theirs"));
  fixture_teardown (&f);
}

/* Two deformable models: a conflict in the points and a change taken; Mine; the DFM grid. */
static void
test_dfm (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) want = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GBytes) saved = NULL;
  MshedTableView *grid;

  if (!fixture_setup (&f, "dfm", "--dfm body", "--set points[5].y=1.25",
                      "--set points[5].y=-2 --set points[7].x=0.5"))
    return;
  want = cli_merge (&f, "mine");
  g_assert_cmpuint (mshed_merge_get_n_conflicts (mshed_merge_window_get_merge (f.window)), ==, 1);
  g_assert_cmpuint (mshed_merge_changes_get_n (mshed_merge_window_get_changes (f.window)), ==, 1);
  g_assert_cmpstr (mshed_merge_changes_get (mshed_merge_window_get_changes (f.window),
                                            0)->item->field, ==, "x");
  click_label (GTK_WINDOW (f.window), "Mine");
  assert_result_bytes (&f, want);
  grid = mshed_merge_window_get_grid (f.window);
  g_assert_nonnull (grid);
  g_assert_cmpint (mshed_table_view_get_table (grid), ==, MSHED_DFM_TABLE_POINTS);
  widget_test_screenshot (GTK_WIDGET (f.window), "merge-dfm.png");
  out = g_build_filename (f.dir, "merged.dfm", NULL);
  mshed_merge_window_save_as (f.window, out);
  saved = gui_test_file_bytes (out);
  g_assert_true (g_bytes_equal (saved, want));
  fixture_teardown (&f);
}

/* y of point @row of DFM level @level in @doc. */
static float
point_y (MshedDocument *doc,
         guint          level,
         guint          row)
{
  MshedDfmArray points;
  guint32 bits;
  float y;

  g_assert_true (mshed_dfm_get_array (mshed_document_get_dfm (doc), MSHED_DFM_TABLE_POINTS,
                                      level, 0, &points));
  g_assert_cmpuint (row, <, points.count);
  memcpy (&bits, points.data + (gsize) row * points.stride + 4, 4);
  bits = GUINT32_FROM_LE (bits);
  memcpy (&y, &bits, 4);
  return y;
}

/* The grid shows the points of DFM level @level with @row selected, its cell @field marked. */
static void
assert_grid_at (Fixture    *f,
                guint       level,
                guint       row,
                const char *field)
{
  MshedTableView *grid = mshed_merge_window_get_grid (f->window);
  MshedDocument *result = mshed_merge_window_get_result (f->window);
  MshedDfmArray points;
  guint selected = G_MAXUINT;

  g_assert_nonnull (grid);
  g_assert_cmpuint (mshed_merge_window_get_level (f->window), ==, level);
  g_assert_cmpint (mshed_table_view_get_table (grid), ==, MSHED_DFM_TABLE_POINTS);
  /* the grid holds that level's points (level 1 has fewer than level 0) */
  g_assert_true (mshed_dfm_get_array (mshed_document_get_dfm (result), MSHED_DFM_TABLE_POINTS,
                                      level, 0, &points));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (_mshed_table_view_get_model (grid))),
                    ==, points.count);
  g_assert_true (gui_test_wait_row_visible (grid, row, 2000));
  g_assert_true (mshed_table_view_get_selected_row (grid, &selected));
  g_assert_cmpuint (selected, ==, row);
  g_assert_true (gtk_widget_has_css_class (
    gtk_widget_get_parent (_mshed_table_view_find_cell (grid, row, field)), "changed"));
}

/* A conflict in level 1 of two deformable models (MINE and THEIRS moved point 3 of
 * MultiLevel\Mesh1 differently) and a change of level 0 taken from MINE: the list names the
 * conflict by its path; choosing it shows level 1 in the grid with its cell selected, F7 the
 * change at level 0, Shift+F7 the conflict again; Theirs writes THEIRS' level-1 value into the
 * result (saved: the bytes of `mshed-cli merge --prefer theirs`), and Ctrl+Z gives Mine back. */
static void
test_dfm_level (void)
{
  Fixture f = { 0 };
  const MshedMergeConflict *c;
  g_autoptr(GBytes) want_mine = NULL;
  g_autoptr(GBytes) want_theirs = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autofree char *out = NULL;
  MshedDocument *result;

  if (!fixture_setup (&f, "dfm", "--dfm body",
                      "--set '\\MultiLevel\\Mesh1\\Geometry\\Points[3].y=1.25' "
                      "--set points[7].x=0.5",
                      "--set '\\MultiLevel\\Mesh1\\Geometry\\Points[3].y=-2'"))
    return;
  want_mine = cli_merge (&f, "mine");
  want_theirs = cli_merge (&f, "theirs");
  g_assert_cmpuint (mshed_merge_get_n_conflicts (mshed_merge_window_get_merge (f.window)), ==, 1);
  c = mshed_merge_get_conflict (mshed_merge_window_get_merge (f.window), 0);
  g_assert_cmpstr (c->path, ==, "\\MultiLevel\\Mesh1\\Geometry\\Points");
  g_assert_cmpuint (c->row, ==, 3);
  g_assert_cmpstr (c->field, ==, "y");
  g_assert_cmpuint (mshed_merge_changes_get_n (mshed_merge_window_get_changes (f.window)), ==, 1);
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (f.window),
                                         "\\MultiLevel\\Mesh1\\Geometry\\Points[3].y"));

  /* Mine builds the result; choosing the conflict shows level 1 with its cell selected */
  click_label (GTK_WINDOW (f.window), "Mine");
  result = mshed_merge_window_get_result (f.window);
  assert_result_bytes (&f, want_mine);
  g_assert_cmpuint (mshed_merge_window_get_level (f.window), ==, 0);
  click_label (GTK_WINDOW (f.window), "\\MultiLevel\\Mesh1\\Geometry\\Points[3].y");
  assert_grid_at (&f, 1, 3, "y");
  /* F7: the change taken, at level 0; Shift+F7: the conflict again */
  gui_test_key ("F7");
  assert_grid_at (&f, 0, 7, "x");
  gui_test_key ("shift+F7");
  assert_grid_at (&f, 1, 3, "y");
  g_assert_cmpfloat (point_y (result, 1, 3), ==, 1.25f);

  /* Theirs: THEIRS' value of level 1 in the result and in the saved bytes */
  click_label (GTK_WINDOW (f.window), "Theirs");
  g_assert_cmpint (c->choice, ==, MSHED_MERGE_THEIRS);
  g_assert_true (mshed_merge_window_get_result (f.window) == result);
  g_assert_cmpfloat (point_y (result, 1, 3), ==, -2.0f);
  assert_result_bytes (&f, want_theirs);
  assert_grid_at (&f, 1, 3, "y");
  screenshots (&f, "dfm-level1");
  out = g_build_filename (f.dir, "merged.dfm", NULL);
  mshed_merge_window_save_as (f.window, out);
  saved = gui_test_file_bytes (out);
  g_assert_true (g_bytes_equal (saved, want_theirs));

  /* Ctrl+Z: Mine again, in the bytes and in the toggles */
  gui_test_focus_window (GTK_WINDOW (f.window));
  gui_test_key ("ctrl+z");
  widget_test_iterate (100);
  assert_result_bytes (&f, want_mine);
  g_assert_cmpfloat (point_y (result, 1, 3), ==, 1.25f);
  g_assert_cmpint (c->choice, ==, MSHED_MERGE_MINE);
  g_assert_true (choice_shown (&f, "Mine"));
  fixture_teardown (&f);
}

/* The built app, started as `mshed --merge BASE MINE THEIRS`, shows the merge window. */
static void
test_command_line (void)
{
  const char *mshed = g_getenv ("MSHED_APP");
  Fixture f = { 0 };
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "GSETTINGS_BACKEND", "memory", TRUE);
  g_autofree char *found = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  GPid pid;

  if (!fixture_setup (&f, "msh", "-s 5 -t 100", "--set slots[0].unk30=7",
                      "--set slots[1].unk30=8"))
    return;
  gtk_window_destroy (GTK_WINDOW (f.window));
  f.window = NULL;
  {
    const char *argv[] = { mshed, "--merge", f.paths[0], f.paths[1], f.paths[2], NULL };

    g_assert_nonnull (mshed);
    g_assert_true (g_spawn_async (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                  NULL, &pid, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_spawn_command_line_sync ("timeout 30 xdotool search --sync --name "
                                            "'Merge mine.msh ← theirs.msh'", &found, NULL,
                                            &status, NULL));
  kill (pid, SIGTERM);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (found, !=, "");
  fixture_teardown (&f);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");

  g_test_add_func ("/app/merge/msh", test_msh);
  g_test_add_func ("/app/merge/dfm", test_dfm);
  g_test_add_func ("/app/merge/dfm-level", test_dfm_level);
  g_test_add_func ("/app/merge/command-line", test_command_line);
  return gui_test_run (app);
}
