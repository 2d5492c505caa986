/* test-gui-dfm-triangles.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Triangles grid of a DFM face group in the real application window under Xvfb
 * (docs/dfm.md §5): one row per triangle the group's strip draws, unrolled by the reader's
 * rule; with real keys (xdotool) a corner is edited (F2, type, Return), a triangle turned over
 * from the grid's menu action, undone, redone and saved, and the saved bytes are compared with
 * what the document API alone makes of the same edits.
 * With MSHED_TEST_SCREENSHOT_DIR=DIR set it also saves pictures of the grid there.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test-util.h"
#include "mshed-bytes.h"
#include "mshed-cell-editor.h"
#include "mshed-dfm-generator.h"
#include "test-require.h"

static MshedApplication *app;

/* A generated head with three groups a level, in the test's folder as @name. */
static char *
write_model (GBytes     *bytes,
             const char *name)
{
  char *path = g_build_filename (gui_test_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  return path;
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

static MshedTableView *
triangles_grid (MshedWindow *window)
{
  return dfm_grid (window, MSHED_DFM_TABLE_TRIANGLES);
}

/* An element that is none of triangle @t's corners. */
static guint
other_element (const guint16 *tris,
               gsize          t)
{
  for (guint e = 0;; e++)
    if (e != tris[3 * t] && e != tris[3 * t + 1] && e != tris[3 * t + 2])
      return e;
}

static GBytes *
expected_bytes (const char *path,
                guint       triangle,
                guint       element)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);

  g_assert_no_error (error);
  g_assert_true (mshed_document_dfm_set_triangle_corner (doc, 0, 0, triangle, 2, element,
                                                         &error));
  g_assert_true (mshed_document_dfm_reverse_triangles (doc, 0, 0, triangle, 1, &error));
  g_assert_no_error (error);
  return mshed_document_serialize_file (doc);
}

/* Real keys: F2 on corner i2 of triangle 1, type, Return; then Reverse Winding on that row;
 * Ctrl+Z twice gives the original bytes back, Ctrl+Shift+Z twice the edits, Ctrl+S saves what
 * the document API makes of the same two edits. */
static void
test_edit_undo_save (void)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *text = NULL;
  g_autofree char *cell = NULL;
  g_autofree guint16 *tris = NULL;
  g_autofree guint16 *now = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) expected = NULL;
  MshedWindow *window;
  MshedDocument *doc;
  MshedTableView *grid;
  MshedTableModel *model;
  gsize n = 0, n_now = 0;
  guint element;
  const guint triangle = 1;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 5);
  params.n_groups = 3;
  bytes = mshed_dfm_generate_bytes (&params);
  path = write_model (bytes, "triangles.dfm");
  reference = write_model (bytes, "reference.dfm");
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (window));
  doc = mshed_window_get_document (window);
  tris = mshed_dfm_dup_triangles (mshed_document_get_dfm (doc), 0, 0, &n);
  g_assert_cmpuint (n, >, triangle);

  /* one row per triangle of Mesh0 Group0, corners as the reader unrolls them */
  grid = triangles_grid (window);
  model = _mshed_table_view_get_model (grid);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (grid)));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);
  for (guint k = 0; k < 3; k++)
    {
      g_autofree char *id = g_strdup_printf ("i%u", k);
      g_autofree char *want = g_strdup_printf ("%u", tris[3 * triangle + k]);
      gint column = mshed_table_model_find_column (model, id);

      g_assert_cmpint (column, >=, 0);
      g_free (cell);
      cell = mshed_table_model_dup_cell_text (model, triangle, (guint) column, NULL);
      g_assert_cmpstr (cell, ==, want);
    }
  /* its tab comes right before the strip's */
  {
    gint page = gtk_notebook_page_num (window->grid_notebook, GTK_WIDGET (grid));
    GtkWidget *next = gtk_notebook_get_nth_page (window->grid_notebook, page + 1);

    g_assert_cmpint (mshed_table_view_get_table (MSHED_TABLE_VIEW (next)), ==,
                     MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRISTRIP));
    gtk_notebook_set_current_page (window->grid_notebook, page);
  }

  /* 1. F2 on i2, type another element, Return */
  element = other_element (tris, triangle);
  widget_test_iterate (100);
  mshed_table_view_reveal (grid, triangle, "i2");
  widget_test_iterate (200);
  gui_test_key ("F2");
  g_assert_true (mshed_cell_editor_is_open (_mshed_table_view_get_editor (grid)));
  text = g_strdup_printf ("type --delay 10 -- '%u'", element);
  g_assert_true (gui_test_xdo (text));
  gui_test_key ("Return");
  now = mshed_dfm_dup_triangles (mshed_document_get_dfm (doc), 0, 0, &n_now);
  g_assert_cmpuint (n_now, ==, n);
  g_assert_cmpuint (now[3 * triangle + 2], ==, element);
  g_assert_cmpmem (now, 6 * (gsize) triangle, tris, 6 * (gsize) triangle);
  gui_test_wait_settled (GTK_WIDGET (window));
  gui_test_shot_sizes (window, "dfm-triangles.png");

  /* 2. the row's menu action: Reverse Winding, i1 and i2 swap */
  mshed_table_view_reveal (grid, triangle, "i0");
  widget_test_iterate (50);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "table.reverse-winding",
                                             NULL));
  widget_test_iterate (50);
  g_free (now);
  now = mshed_dfm_dup_triangles (mshed_document_get_dfm (doc), 0, 0, &n_now);
  g_assert_cmpuint (now[3 * triangle + 1], ==, element);
  g_assert_cmpuint (now[3 * triangle + 2], ==, tris[3 * triangle + 1]);
  g_free (cell);
  cell = mshed_table_model_dup_cell_text (model, triangle,
                                          (guint) mshed_table_model_find_column (model, "i1"),
                                          NULL);
  g_assert_cmpuint (g_ascii_strtoull (cell, NULL, 10), ==, element);
  edited = mshed_document_serialize_file (doc);

  /* undo both, redo both */
  gui_test_undo_redo_keys (GTK_WIDGET (grid), doc, 2, bytes, edited);

  /* the new topology makes the vertex normals stale (a convention, docs/dfm.md §15.1): the
   * save asks, Return saves them as they are */
  gui_test_key ("ctrl+s");
  {
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
    GtkWidget *dialog;

    while ((dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL)) == NULL &&
           g_get_monotonic_time () < deadline)
      widget_test_iterate (20);
    g_assert_nonnull (dialog);
    gui_test_focus_window (GTK_WINDOW (dialog));
    gui_test_key ("Return");
    while (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL) != NULL &&
           g_get_monotonic_time () < deadline)
      widget_test_iterate (20);
  }
  widget_test_iterate (100);
  g_assert_false (mshed_document_get_modified (doc));
  saved = gui_test_file_bytes (path);
  expected = expected_bytes (reference, triangle, element);
  g_assert_true (g_bytes_equal (saved, expected));
  g_assert_false (g_bytes_equal (saved, bytes));

  gui_test_close (window);
}

#define GROUP1_STRIP "\\MultiLevel\\Mesh0\\Face_groups\\Group1\\Tristrip_indices"

/* Window @i of a strip (entries i, i+1, i+2) draws a triangle when the three differ
 * (docs/dfm.md §5.1). */
static gboolean
draws (const guint8 *strip,
       gsize         i)
{
  guint a = mshed_read_u16 (strip + 2 * i), b = mshed_read_u16 (strip + 2 * i + 2);
  guint c = mshed_read_u16 (strip + 2 * i + 4);

  return a != b && b != c && a != c;
}

/* The Triangles marks of the problem on strip entry @entry: an error on the corner cell it
 * is (@corner) of @row, nothing on the other corners. */
static void
check_mark (MshedTableView *grid,
            guint           row,
            guint           corner,
            guint           entry)
{
  g_autofree char *name = g_strdup_printf ("entry %u,", entry);

  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(GString) messages = g_string_new (NULL);
      char field[3] = { 'i', (char) ('0' + k), 0 };
      int severity = _mshed_table_view_collect_diags (
                       _mshed_table_view_lookup_diags (grid, mshed_table_view_get_table (grid),
                                                       row), field, messages);

      g_test_message ("row %u %s: %d %s", row, field, severity, messages->str);
      g_assert_cmpint (severity, ==, k == corner ? MSHED_SEVERITY_ERROR : -1);
      if (k == corner)
        g_assert_nonnull (strstr (messages->str, name));
    }
}

/* A strip entry of Mesh0 Group1 planted past the elements (an error: the file opens
 * tolerant). Its problem marks, in Group1's Triangles tab, the corner it is of each triangle
 * drawn with it (rows and corners worked out here from the stored strip by the §5.1 rule);
 * activating it in the Problems panel brings the grids from Group0 to Group1 and shows the
 * Triangles tab at the first of those rows, the corner's cell current; the message still
 * names the strip entry, and the strip grid still marks the entry. */
static void
test_bad_entry_problem (void)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autofree char *path = NULL;
  g_autofree guint8 *copy = NULL;
  const guint8 *strip;
  gsize size = 0, entry = 0, offset;
  guint rows[3], corners[3], n_marks = 0, row = 0, n, found = G_MAXUINT, cur = G_MAXUINT;
  MshedWindow *window;
  MshedDocument *doc;
  MshedUtfNode *node;
  MshedTableView *grid, *strip_grid;
  const guint planted = 60000;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 5);
  params.n_groups = 3;
  bytes = mshed_dfm_generate_bytes (&params);
  utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (utf);
  strip = mshed_utf_node_peek_data (mshed_utf_lookup (utf, GROUP1_STRIP), &size);
  g_assert_nonnull (strip);
  offset = (gsize) (strip - (const guint8 *) g_bytes_get_data (bytes, NULL));
  /* the last entry of the window that draws the fourth triangle */
  for (gsize i = 0, t = 0; i + 2 < size / 2; i++)
    if (draws (strip, i) && t++ == 3)
      {
        entry = i + 2;
        break;
      }
  g_assert_cmpuint (entry, >, 0);
  copy = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  mshed_write_u16 (copy + offset + 2 * entry, (guint16) planted);
  /* the windows that hold the entry and draw, their row numbers and the entry's corner */
  for (gsize i = 0; i + 2 < size / 2 && i <= entry; i++)
    {
      if (!draws (copy + offset, i))
        continue;
      if (i + 2 >= entry)
        {
          guint e = (guint) (entry - i);

          rows[n_marks] = row;
          corners[n_marks++] = (i & 1) == 1 && e < 2 ? 1 - e : e;
        }
      row++;
    }
  g_assert_cmpuint (n_marks, >=, 1);
  g_assert_cmpuint (rows[0], ==, 3);
  g_assert_cmpuint (corners[0], ==, 2);
  {
    g_autoptr(GBytes) planted_bytes = g_bytes_new (copy, g_bytes_get_size (bytes));

    path = write_model (planted_bytes, "bad-entry.dfm");
  }

  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  g_assert_cmpint (mshed_document_get_mode (doc), ==, MSHED_MODE_TOLERANT);
  node = mshed_utf_lookup (mshed_document_get_utf (doc), GROUP1_STRIP);
  grid = triangles_grid (window);
  strip_grid = dfm_grid (window, MSHED_DFM_TABLE_TRISTRIP);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->dfm_group_dropdown), ==, 0);

  /* the problem in the Problems panel: the one that leads to Group1's strip */
  n = mshed_diagnostics_view_get_n_shown (window->diagnostics_view);
  for (guint i = 0; i < n && found == G_MAXUINT; i++)
    {
      mshed_diagnostics_view_activate (window->diagnostics_view, i);
      widget_test_iterate (50);
      if (mshed_utf_tree_get_selected (window->utf_tree) == node)
        found = i;
    }
  g_assert_cmpuint (found, !=, G_MAXUINT);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->level_dropdown), ==, 0);
  g_assert_cmpuint (gtk_drop_down_get_selected (window->dfm_group_dropdown), ==, 1);
  g_assert_true (gtk_notebook_get_current_page (window->grid_notebook) ==
                 gtk_notebook_page_num (window->grid_notebook, GTK_WIDGET (grid)));
  g_assert_true (mshed_table_view_get_selected_row (grid, &cur));
  g_assert_cmpuint (cur, ==, rows[0]);
  g_assert_cmpint (grid->cur_col, ==,
                   mshed_table_model_find_column (_mshed_table_view_get_model (grid), "i2"));
  g_assert_true (gui_test_wait_row_visible (grid, rows[0], 2000));

  /* the marks: the corner of each triangle drawn with the entry, none on the row before */
  for (guint i = 0; i < n_marks; i++)
    check_mark (grid, rows[i], corners[i], (guint) entry);
  g_assert_null (_mshed_table_view_lookup_diags (grid, mshed_table_view_get_table (grid),
                                                 rows[0] - 1));
  g_assert_nonnull (_mshed_table_view_lookup_diags (strip_grid,
                                                    mshed_table_view_get_table (strip_grid),
                                                    (guint) entry));
  gui_test_wait_settled (GTK_WIDGET (window));
  gui_test_shot_sizes (window, "dfm-triangles-problem.png");
  gui_test_close (window);
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
  g_test_add_func ("/app/dfm-triangles/edit-undo-save", test_edit_undo_save);
  g_test_add_func ("/app/dfm-triangles/bad-entry-problem", test_bad_entry_problem);
  return gui_test_run (app);
}
