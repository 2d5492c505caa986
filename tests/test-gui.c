/* test-gui.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drives the real application window under Xvfb: open the bundled sample, rename a node in
 * the tree, edit a slot cell in the grid, reject invalid input, undo, redo, save, and compare
 * the saved bytes with what the document model alone produces; open a broken model and find
 * it in tolerant mode with its problems listed; closing a modified document asks first.
 * With MSHED_TEST_SCREENSHOT_DIR=DIR set it also saves pictures of every view there.
 */
#include "config.h"

#include <epoxy/gl.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gui-test-util.h"
#include "mshed-bytes.h"
#include "mshed-cell-editor.h"
#include "mshed-node-tree-private.h"
#include "mshed-selection.h"

static MshedApplication *app;
static gboolean renderer_from_user;  /* GSK_RENDERER was set before the application started */

static void
editor_type (MshedCellEditor *editor,
             const char      *text)
{
  g_assert_true (mshed_cell_editor_is_open (editor));
  gtk_editable_set_text (mshed_cell_editor_get_entry (editor), text);
  g_signal_emit_by_name (mshed_cell_editor_get_entry (editor), "activate");
  widget_test_iterate (50);
}

static void
shot (MshedWindow *window,
      const char  *name)
{
  widget_test_iterate (450);
  widget_test_screenshot (GTK_WIDGET (window), name);
}

/* With MSHED_TEST_SCREENSHOT_DIR set: pictures of every view, for people to look at (and the
 * README's main window). Edits made here are undone again. */
static void
take_screenshots (MshedWindow   *window,
                  MshedDocument *doc)
{
  g_autoptr(GError) error = NULL;

  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") == NULL)
    return;
  mshed_node_tree_select_node (window->node_tree, 2);
  g_signal_emit_by_name (window->node_tree, "node-selected", 2);
  shot (window, "main.png");

  _mshed_window_select_grid (window, MSHED_TABLE_SLOTS);
  g_signal_emit_by_name (gui_test_grid (window, MSHED_TABLE_SLOTS), "row-selected", 3);
  gtk_notebook_set_current_page (window->side_notebook, 1);
  shot (window, "hex.png");

  gtk_notebook_set_current_page (window->side_notebook, 2);
  shot (window, "unknown.png");

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 5, "x", 3.5, &error));
  gtk_notebook_set_current_page (window->bottom_notebook, 1);
  gtk_notebook_set_current_page (window->side_notebook, 0);
  _mshed_window_select_grid (window, MSHED_TABLE_POSITIONS);
  shot (window, "stale.png");
  mshed_document_undo (doc);
  gtk_notebook_set_current_page (window->bottom_notebook, 0);
  _mshed_window_select_grid (window, MSHED_TABLE_NODES);
  widget_test_iterate (100);
}

static void
test_edit_undo_save (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "sample.msh");
  g_autofree char *model_only_path = gui_test_copy_sample (dir, "model-only.msh");
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);
  MshedWindow *window = mshed_window_new (app);
  MshedDocument *doc;
  MshedTableView *slots;
  MshedCellEditor *editor;
  g_autoptr(GBytes) original = gui_test_file_bytes (path);
  g_autoptr(GBytes) before_invalid = NULL;
  g_autoptr(GBytes) after_invalid = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(MshedDocument) model_only = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  MshedSlot slot;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 740);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  g_assert_false (mshed_document_get_modified (doc));
  take_screenshots (window, doc);

  /* rename node 1 through the tree's editor (F2) */
  mshed_node_tree_select_node (window->node_tree, 1);
  widget_test_iterate (50);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.rename-node", NULL);
  editor = _mshed_node_tree_get_editor (window->node_tree);
  editor_type (editor, "Турель");
  name = mshed_model_dup_name (mshed_document_get_model (doc), 1);
  g_assert_cmpstr (name, ==, "Турель");
  g_assert_true (mshed_document_get_modified (doc));
  g_assert_cmpstr (gtk_label_get_label (window->title_label), ==, "• sample.msh");

  /* a slot cell through the grid: the unknown word unk30 of slot 2 */
  slots = gui_test_grid (window, MSHED_TABLE_SLOTS);
  _mshed_window_select_grid (window, MSHED_TABLE_SLOTS);
  mshed_table_view_reveal (slots, 2, "unk30");
  widget_test_iterate (100);
  gtk_widget_activate_action (GTK_WIDGET (slots), "table.edit", NULL);
  editor = _mshed_table_view_get_editor (slots);
  editor_type (editor, "0x1234ABCD");
  g_assert_true (mshed_model_get_slot (mshed_document_get_model (doc), 2, &slot));
  g_assert_cmphex (slot.unk[0], ==, 0x1234ABCD);
  edited = mshed_document_serialize_file (doc);

  /* invalid input is refused with a reason and the model untouched */
  before_invalid = mshed_document_serialize_file (doc);
  mshed_table_view_reveal (slots, 2, "batchCount");
  widget_test_iterate (50);
  gtk_widget_activate_action (GTK_WIDGET (slots), "table.edit", NULL);
  editor_type (editor, "70000");
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_nonnull (mshed_cell_editor_get_error (editor));
  g_assert_nonnull (strstr (mshed_cell_editor_get_error (editor), "batchCount"));
  gtk_popover_popdown (GTK_POPOVER (editor));
  after_invalid = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (before_invalid, after_invalid));

  /* undo both edits from the window: the original bytes; redo: the edited ones */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  widget_test_iterate (50);
  bytes = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (bytes, original));
  g_assert_false (mshed_document_get_modified (doc));
  g_clear_pointer (&bytes, g_bytes_unref);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  widget_test_iterate (50);
  bytes = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (bytes, edited));

  /* save through the window's action: nothing is stale, no question is asked */
  g_assert_false (mshed_document_has_stale (doc));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  widget_test_iterate (100);
  g_assert_false (mshed_document_get_modified (doc));
  saved = gui_test_file_bytes (path);

  /* the same edits through the document model alone give the same file */
  model_only = mshed_document_open (model_only_path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_document_rename_node (model_only, 1, "Турель", &error));
  g_assert_true (mshed_document_set_field_text (model_only, MSHED_TABLE_SLOTS, 2, "unk30",
                                                "0x1234ABCD", &error));
  g_assert_no_error (error);
  expected = mshed_document_serialize_file (model_only);
  g_assert_true (g_bytes_equal (saved, expected));
  g_assert_false (g_bytes_equal (saved, original));

  /* the original was kept as a one-time backup */
  {
    g_autoptr(GBytes) bak = gui_test_file_bytes (backup);
    g_assert_true (g_bytes_equal (bak, original));
  }

  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (50);
  g_unlink (path);
  g_unlink (backup);
  g_unlink (model_only_path);
  g_rmdir (dir);
}

static void
test_broken_opens_tolerant (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "broken.msh");
  g_autoptr(GBytes) bytes = gui_test_file_bytes (path);
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *data = NULL;
  MshedWindow *window;
  MshedDocument *doc;
  const MshedDiagnostics *diags;
  const MshedDiagnostic *found = NULL;
  guint32 offset;

  /* plant a defect: slot 0's batch range runs past Res13 */
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  offset = mshed_model_get_record_offset (model, MSHED_TABLE_SLOTS, 0) + 6;
  data = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  mshed_write_u16 (data + offset, 0x7FFF);
  g_assert_true (g_file_set_contents (path, (const char *) data,
                                      (gssize) g_bytes_get_size (bytes), NULL));

  window = mshed_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  g_assert_cmpint (mshed_document_get_mode (doc), ==, MSHED_MODE_TOLERANT);
  g_assert_true (gtk_revealer_get_reveal_child (window->notice_revealer));

  diags = mshed_document_get_diagnostics (doc);
  for (guint i = 0; i < diags->items->len && !found; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (diags->items, i);
      if (d->check == MSHED_CHECK_SLOT_BATCH_RANGE)
        found = d;
    }
  g_assert_nonnull (found);
  g_assert_cmpint (found->table, ==, MSHED_TABLE_SLOTS);
  g_assert_cmpint (found->record, ==, 0);
  /* the range is reported at its start field, with the file offset of that field */
  g_assert_cmpstr (found->field, ==, "batchStart");
  g_assert_cmpuint (found->offset, ==, offset - 2);
  g_assert_nonnull (strstr (found->message, "ends past"));
  g_assert_cmpuint (mshed_diagnostics_view_get_n_shown (window->diagnostics_view), >=, 1);
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR"))
    shot (window, "problems.png");

  /* one classification: a strict violation is an error in Problems too (what the save
   * dialog calls it), with what the tolerant load dropped */
  g_assert_cmpint (found->severity, ==, MSHED_SEVERITY_ERROR);
  g_assert_nonnull (strstr (found->message, "ignored"));
  g_assert_nonnull (strstr (gtk_label_get_label (window->notice_label), "1 error"));

  /* activating it shows the slot grid */
  mshed_diagnostics_view_activate (window->diagnostics_view, 0);
  widget_test_iterate (100);
  g_assert_cmpint (gtk_notebook_get_current_page (window->grid_notebook), ==, 1);

  /* fixing it updates the tolerant-mode notice */
  {
    MshedSlot slot;

    g_assert_true (mshed_model_get_slot (model, 0, &slot));
    g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 0, "batchCount",
                                             slot.batch_count, NULL));
    widget_test_iterate (50);
    g_assert_cmpuint (mshed_document_get_diagnostics (doc)->n_errors, ==, 0);
    g_assert_nonnull (strstr (gtk_label_get_label (window->notice_label),
                              "passes strict validation"));
  }

  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (50);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_archive (void)
{
  const char *archive = g_getenv ("MSHED_SAMPLE_ARCHIVE");
  MshedWindow *window = mshed_window_new (app);
  MshedDocument *doc;
  g_autofree char *title = NULL;
  g_autofree char *entry = NULL;

  g_assert_nonnull (archive);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (mshed_window_open (window, archive));
  widget_test_iterate (100);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "archive");
  g_assert_null (mshed_window_get_document (window));

  /* the generated archive's first entry is a nested model: activating it opens it here */
  g_signal_emit_by_name (window->archive_view, "activate", 0);
  widget_test_iterate (200);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  g_assert_nonnull (mshed_document_get_entry (doc));
  entry = g_ascii_strdown (mshed_document_get_entry (doc), -1);
  g_assert_true (g_str_has_suffix (entry, ".msh"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "document");
  title = g_strdup_printf ("in %s", "sample-archive.rlb");
  g_assert_cmpstr (gtk_label_get_label (window->subtitle_label), ==, title);
  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (50);
}

static void
test_unreadable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "junk.msh", NULL);
  MshedWindow *window = mshed_window_new (app);

  g_assert_true (g_file_set_contents (path, "not a model at all", -1, NULL));
  g_assert_false (mshed_window_open (window, path));
  g_assert_true (mshed_window_is_empty (window));

  /* a named pipe is refused at once, never opened for reading (which would wait for a
   * writer: the alarm ends the test then) */
  g_unlink (path);
  g_assert_cmpint (mkfifo (path, 0644), ==, 0);
  alarm (30);
  g_assert_false (mshed_window_open (window, path));
  alarm (0);
  g_assert_true (mshed_window_is_empty (window));
  g_assert_nonnull (strstr (gtk_label_get_label (window->empty_message), "named pipe"));

  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (20);
  g_unlink (path);
  g_rmdir (dir);
}

/* A loose model without Res13 opens as a model (tolerant, missing-type listed), not as an
 * archive of no models: the editor decides as the CLI does (mshed_nres_looks_like_model). */
static void
test_missing_type (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "no-res13.msh");
  g_autoptr(GBytes) bytes = gui_test_file_bytes (path);
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_autoptr(GBytes) broken = NULL;
  MshedWindow *window = mshed_window_new (app);
  const MshedDiagnostics *diags;
  const MshedDiagnostic *found = NULL;
  MshedDocument *doc;

  g_assert_nonnull (nres);
  mshed_nres_remove_entry (nres, (guint) mshed_nres_find_type (nres, 13));
  broken = mshed_nres_build_canonical (nres);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (broken, NULL),
                                      (gssize) g_bytes_get_size (broken), NULL));

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "document");
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  g_assert_cmpint (mshed_document_get_mode (doc), ==, MSHED_MODE_TOLERANT);
  diags = mshed_document_get_diagnostics (doc);
  for (guint i = 0; i < diags->items->len && !found; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (d->check == MSHED_CHECK_MISSING_TYPE)
        found = d;
    }
  g_assert_nonnull (found);
  g_assert_cmpuint (found->res_type, ==, 13);
  g_assert_cmpint (found->severity, ==, MSHED_SEVERITY_ERROR);
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR"))
    shot (window, "missing-type.png");

  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (50);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_close_asks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "close.msh");
  MshedWindow *window = mshed_window_new (app);
  GtkWidget *dialog;
  g_autoptr(GError) error = NULL;
  gboolean gone = FALSE;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (mshed_window_open (window, path));
  g_assert_true (mshed_document_rename_node (mshed_window_get_document (window), 0, "x", &error));
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_close (GTK_WINDOW (window));
  widget_test_iterate (100);
  g_assert_nonnull (window);  /* still open: it asked */
  dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL);
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), 2);  /* discard */
  widget_test_iterate (100);
  gone = window == NULL;
  if (!gone)
    gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (gone);
  g_unlink (path);
  g_rmdir (dir);
}

/* Jumps into grid tabs not shown yet scroll the row into view (item: a far row selected but
 * the view left at the top) ---------------------------------------------------------------- */

static void
test_jump_scrolls (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_write_big_model (dir, "big.msh", 20000);
  MshedWindow *window = gui_test_window (app);
  MshedModel *model;
  MshedTableView *batches, *slots, *tris;
  guint far_batch, node, first_slot = G_MAXUINT, first_tri = G_MAXUINT;
  g_autoptr(MshedSelection) selection = mshed_selection_new ();
  GArray *rows;

  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  model = mshed_document_get_model (mshed_window_get_document (window));
  batches = gui_test_grid (window, MSHED_TABLE_BATCHES);
  slots = gui_test_grid (window, MSHED_TABLE_SLOTS);
  tris = gui_test_grid (window, MSHED_TABLE_TRIS);

  /* a pick in the preview jumps to its batch in the Batches tab, never shown so far */
  g_assert_cmpint (gtk_notebook_get_current_page (window->grid_notebook), ==, 0);
  far_batch = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES) - 1;
  g_assert_cmpuint (far_batch, >, 30);
  g_signal_emit_by_name (window->model_view, "picked", G_MAXUINT, G_MAXUINT, far_batch, G_MAXUINT);
  g_assert_true (gui_test_wait_row_visible (batches, far_batch, 1500));
  {
    guint selected = G_MAXUINT;

    g_assert_true (mshed_table_view_get_selected_row (batches, &selected));
    g_assert_cmpuint (selected, ==, far_batch);
  }

  /* selecting the last node in the tree: its slots and triangle descriptors are where the
   * Slots and Triangles tabs open */
  node = mshed_model_get_n_rows (model, MSHED_TABLE_NODES) - 1;
  mshed_selection_add_node (selection, model, node);
  rows = mshed_selection_get_rows (selection, MSHED_TABLE_SLOTS);
  for (guint i = 0; i < rows->len; i++)
    first_slot = MIN (first_slot, g_array_index (rows, guint, i));
  rows = mshed_selection_get_rows (selection, MSHED_TABLE_TRIS);
  for (guint i = 0; i < rows->len; i++)
    first_tri = MIN (first_tri, g_array_index (rows, guint, i));
  g_assert_cmpuint (first_tri, >, 1000);
  mshed_node_tree_select_node (window->node_tree, node);
  g_signal_emit_by_name (window->node_tree, "node-selected", node);
  widget_test_iterate (100);
  _mshed_window_select_grid (window, MSHED_TABLE_TRIS);
  g_assert_true (gui_test_wait_row_visible (tris, first_tri, 1500));
  _mshed_window_select_grid (window, MSHED_TABLE_SLOTS);
  g_assert_true (gui_test_wait_row_visible (slots, first_slot, 1500));

  gui_test_close (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* F8 (next problem) on a problem far down a table not shown yet. */
static void
test_next_problem_scrolls (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_write_big_model (dir, "broken.msh", 60000);
  g_autoptr(MshedDocument) planted = NULL;
  g_autoptr(GError) error = NULL;
  MshedWindow *window;
  MshedTableView *tris;
  guint far;

  /* plant a defect in the last triangle descriptor: a neighbour link past the table */
  planted = mshed_document_open (path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  far = mshed_model_get_n_rows (mshed_document_get_model (planted), MSHED_TABLE_TRIS) - 1;
  g_assert_true (mshed_document_set_field (planted, MSHED_TABLE_TRIS, far, "link0", 65000, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_document_save (planted, MSHED_SAVE_ANYWAY | MSHED_SAVE_NO_BACKUP, &error));
  g_assert_no_error (error);

  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  tris = gui_test_grid (window, MSHED_TABLE_TRIS);
  g_assert_cmpuint (mshed_diagnostics_view_get_n_shown (window->diagnostics_view), >=, 1);
  /* the Triangles tab was shown once (at its top), then another one */
  _mshed_window_select_grid (window, MSHED_TABLE_TRIS);
  widget_test_iterate (200);
  _mshed_window_select_grid (window, MSHED_TABLE_NODES);
  widget_test_iterate (100);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.next-problem", NULL);
  g_assert_cmpint (gtk_notebook_get_current_page (window->grid_notebook), ==, 3);
  g_assert_true (gui_test_wait_row_visible (tris, far, 1500));

  gui_test_close (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* The Undo button names the command Ctrl+Z undoes, after every edit ------------------------ */

static void
test_undo_tooltip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "tooltip.msh");
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *expect = NULL;

  g_assert_true (mshed_window_open (window, path));
  doc = mshed_window_get_document (window);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (window->undo_button), ==, "Undo");

  g_assert_true (mshed_document_rename_node (doc, 1, "first", &error));
  first = g_strdup (mshed_document_get_undo_label (doc));
  expect = g_strdup_printf ("Undo %s", first);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (window->undo_button), ==, expect);

  /* a second command: can-undo and modified stay TRUE, the label changes */
  g_assert_true (mshed_document_set_field_text (doc, MSHED_TABLE_SLOTS, 2, "unk30", "0x51",
                                                &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), !=, first);
  g_free (expect);
  expect = g_strdup_printf ("Undo %s", mshed_document_get_undo_label (doc));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (window->undo_button), ==, expect);

  /* undo: the first command again, and Redo names the second */
  g_assert_true (mshed_document_undo (doc));
  g_free (expect);
  expect = g_strdup_printf ("Undo %s", first);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (window->undo_button), ==, expect);
  g_free (expect);
  expect = g_strdup_printf ("Redo %s", mshed_document_get_redo_label (doc));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (window->redo_button), ==, expect);
  g_assert_true (mshed_document_undo (doc));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (window->undo_button), ==, "Undo");

  gui_test_close (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* Reload from Disk asks before it replaces unsaved edits, and can be undone -------------- */

static void
test_reload_asks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "reload.msh");
  g_autoptr(GBytes) original = gui_test_file_bytes (path);
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  GtkWidget *dialog;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) now = NULL;

  g_assert_true (mshed_window_open (window, path));
  doc = mshed_window_get_document (window);
  g_assert_true (mshed_document_rename_node (doc, 1, "unsaved", &error));
  edited = mshed_document_serialize_file (doc);

  /* Cancel keeps the edits */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL);
  widget_test_iterate (100);
  dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL);
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  widget_test_iterate (100);
  g_assert_true (mshed_document_get_modified (doc));
  now = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (now, edited));
  g_clear_pointer (&now, g_bytes_unref);

  /* Discard and Reload: the file's bytes, saved state; undo brings the edit back */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL);
  widget_test_iterate (100);
  dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL);
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  widget_test_iterate (100);
  g_assert_false (mshed_document_get_modified (doc));
  now = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);
  g_assert_cmpstr (gtk_label_get_label (window->title_label), ==, "reload.msh");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.undo", NULL);
  widget_test_iterate (50);
  g_assert_true (mshed_document_get_modified (doc));
  now = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (now, edited));
  g_clear_pointer (&now, g_bytes_unref);

  /* unmodified: no question */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.redo", NULL);
  widget_test_iterate (50);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL);
  widget_test_iterate (100);
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));

  gui_test_close (window);
  g_unlink (path);
  g_rmdir (dir);
}

/* Recent files: archive entries are listed and reopen, underscores are shown ------------- */

/* The first item of the recent menu whose target is @spec, with its label. */
static gboolean
find_recent_item (MshedWindow *window,
                  const char  *spec,
                  char       **label)
{
  GMenuModel *menu;

  gtk_menu_button_popup (window->recent_button);
  widget_test_iterate (50);
  menu = gtk_menu_button_get_menu_model (window->recent_button);
  gtk_menu_button_popdown (window->recent_button);
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GVariant) target =
        g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET,
                                               G_VARIANT_TYPE_STRING);

      if (target && g_strcmp0 (g_variant_get_string (target, NULL), spec) == 0)
        {
          g_assert_true (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s",
                                                          label));
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_recent_files (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *archive = NULL;
  g_autofree char *model = gui_test_copy_sample (dir, "my_model.msh");
  g_autofree char *entry_spec = NULL;
  g_autofree char *label = NULL;
  MshedWindow *window = gui_test_window (app);
  MshedWindow *other;
  MshedDocument *doc;

  {
    g_autoptr(GBytes) bytes = gui_test_file_bytes (g_getenv ("MSHED_SAMPLE_ARCHIVE"));

    archive = gui_test_write (dir, "game_data.rlb", bytes);
  }

  /* a loose model: its name shows its underscore (doubled in the menu: no mnemonic) */
  g_assert_true (mshed_window_open (window, model));
  g_assert_true (find_recent_item (window, model, &label));
  g_assert_cmpstr (label, ==, "my__model.msh");
  g_clear_pointer (&label, g_free);
  gui_test_close (window);

  /* an entry of an archive, opened from the entry list */
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, archive));
  g_signal_emit_by_name (window->archive_view, "activate", 0);
  widget_test_iterate (100);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);
  entry_spec = g_strdup_printf ("%s:%s", archive, mshed_document_get_entry (doc));
  g_assert_cmpstr (mshed_document_get_entry (doc), ==, "Gun_0.msh");
  g_assert_true (find_recent_item (window, entry_spec, &label));
  g_assert_cmpstr (label, ==, "Gun__0.msh in game__data.rlb");
  g_clear_pointer (&label, g_free);
  /* the archive itself too */
  g_assert_true (find_recent_item (window, archive, &label));
  g_clear_pointer (&label, g_free);
  gui_test_close (window);

  /* choosing the entry in an empty window opens that model again */
  other = gui_test_window (app);
  gtk_widget_activate_action (GTK_WIDGET (other), "win.open-recent", "s", entry_spec);
  widget_test_iterate (100);
  doc = mshed_window_get_document (other);
  g_assert_nonnull (doc);
  g_assert_cmpstr (mshed_document_get_entry (doc), ==, "Gun_0.msh");
  g_assert_cmpstr (mshed_document_get_path (doc), ==, archive);
  gui_test_close (other);

  g_unlink (model);
  g_unlink (archive);
  g_rmdir (dir);
}

/* From a model opened out of an archive back to the archive's entry list ----------------- */

static void
test_show_archive_entries (void)
{
  const char *archive = g_getenv ("MSHED_SAMPLE_ARCHIVE");
  MshedWindow *window = gui_test_window (app);
  MshedWindow *other;
  GtkSelectionModel *entries;
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strdup_printf ("%s:Hangar_1.MSH", archive);

  /* a loose model has no archive */
  g_assert_true (mshed_window_open (window, g_getenv ("MSHED_SAMPLE")));
  g_assert_false (gtk_widget_get_visible (window->archive_button));
  g_assert_false (gtk_widget_is_sensitive (window->archive_button));

  g_assert_true (mshed_window_open (window, spec));
  widget_test_iterate (100);
  g_assert_true (gtk_widget_get_visible (window->archive_button));
  g_assert_true (gtk_widget_is_sensitive (window->archive_button));
  g_signal_emit_by_name (window->archive_button, "clicked");
  widget_test_iterate (100);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "archive");
  g_assert_null (mshed_window_get_document (window));
  /* the model we came from is the selected entry */
  entries = gtk_column_view_get_model (window->archive_view);
  g_assert_true (gtk_selection_model_is_selected (entries, 4));

  /* with unsaved edits, the list opens in another window and the edits stay */
  g_assert_true (mshed_window_open (window, spec));
  g_assert_true (mshed_document_rename_node (mshed_window_get_document (window), 0, "x", &error));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-archive-entries", NULL);
  widget_test_iterate (100);
  g_assert_nonnull (mshed_window_get_document (window));
  other = MSHED_WINDOW (gui_test_find_toplevel (MSHED_TYPE_WINDOW, GTK_WIDGET (window)));
  g_assert_nonnull (other);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (other->main_stack), ==, "archive");
  gui_test_close (other);
  mshed_document_undo (mshed_window_get_document (window));
  gui_test_close (window);
}

/* The Open dialog shows models and archives by default ------------------------------------ */

static gboolean
filter_shows (GtkFileFilter *filter,
              const char    *name)
{
  g_autoptr(GFileInfo) info = g_file_info_new ();

  g_file_info_set_display_name (info, name);
  g_file_info_set_content_type (info, "application/octet-stream");
  return gtk_filter_match (GTK_FILTER (filter), info);
}

/* GTK 4.8's file chooser leaks: its places sidebar starts libcloudproviders, which keeps its
 * D-Bus objects (and, with no session bus, the GError it got) unreferenced, and the folder's
 * GIO queries can finish after the dialog is gone. valgrind names them (tests/lsan.supp); the
 * leak checker sees them only now and then (it scans conservatively) and, GLib having no frame
 * pointers, with no frame a suppression could match. So the dialog runs in a child process of
 * its own with leak checking off: every assertion below still holds there, and the rest of
 * test-gui keeps its leak check. */
static void
test_open_dialog_filter (void)
{
  MshedWindow *window;
  GtkWidget *dialog;
  GtkFileFilter *filter;
  const char *shown[] = { "a.msh", "B.MSH", "fortif.rlb", "SYSTEM.RLB", "Material.lib",
                          "Textures.LIB" };

  if (!g_test_subprocess ())
    {
      g_autofree char *options = g_strconcat (g_getenv ("ASAN_OPTIONS") ? g_getenv ("ASAN_OPTIONS")
                                                                        : "",
                                              ":detect_leaks=0", NULL);

      g_setenv ("ASAN_OPTIONS", options, TRUE);
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  window = gui_test_window (app);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open", NULL);
  widget_test_iterate (200);
  dialog = gui_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, NULL);
  g_assert_nonnull (dialog);
  filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
  g_assert_nonnull (filter);
  for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
    g_assert_true (filter_shows (filter, shown[i]));
  g_assert_false (filter_shows (filter, "notes.txt"));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  widget_test_iterate (100);
  gui_test_close (window);
}

/* The shortcuts window lists every key the README names ----------------------------------- */

typedef struct {
  guint           keyval;
  GdkModifierType mods;
} Key;

static gboolean
key_parse (const char *accel,
           Key        *key)
{
  if (!gtk_accelerator_parse (accel, &key->keyval, &key->mods) || key->keyval == 0)
    return FALSE;
  key->keyval = gdk_keyval_to_lower (key->keyval);
  return TRUE;
}

/* "Ctrl+Shift+Z", "F8", "Ctrl+?", "Alt+Down", "Enter" as a GTK accelerator string. */
static char *
readme_key_to_accel (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "+", -1);
  GString *accel = g_string_new (NULL);
  guint n = g_strv_length (parts);

  for (guint i = 0; i + 1 < n; i++)
    if (g_str_equal (parts[i], "Ctrl"))
      g_string_append (accel, "<Control>");
    else if (g_str_equal (parts[i], "Shift"))
      g_string_append (accel, "<Shift>");
    else if (g_str_equal (parts[i], "Alt"))
      g_string_append (accel, "<Alt>");
    else
      g_assert_not_reached ();
  if (g_str_equal (parts[n - 1], "?"))
    g_string_append (accel, "question");
  else if (g_str_equal (parts[n - 1], "Enter"))
    g_string_append (accel, "Return");
  else
    g_string_append (accel, parts[n - 1]);
  return g_string_free (accel, FALSE);
}

static void
add_accels (GArray     *keys,
            const char *accels)
{
  g_auto(GStrv) list = g_strsplit (accels, " ", -1);

  for (guint i = 0; list[i]; i++)
    {
      Key key;

      if (*list[i] && key_parse (list[i], &key))
        g_array_append_val (keys, key);
    }
}

static gboolean
keys_contain (GArray    *keys,
              const Key *key)
{
  for (guint i = 0; i < keys->len; i++)
    {
      const Key *k = &g_array_index (keys, Key, i);

      if (k->keyval == key->keyval && k->mods == key->mods)
        return TRUE;
    }
  return FALSE;
}

static void
test_shortcuts_list_readme_keys (void)
{
  g_autofree char *readme_path = g_test_build_filename (G_TEST_DIST, "..", "README.md", NULL);
  g_autofree char *readme = NULL;
  g_autoptr(GtkBuilder) builder =
    gtk_builder_new_from_resource ("/org/mshed/Mshed/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  g_autoptr(GArray) listed = g_array_new (FALSE, FALSE, sizeof (Key));
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GMatchInfo) match = NULL;
  guint n_keys = 0;

  for (GSList *l = objects; l; l = l->next)
    {
      g_autofree char *accel = NULL;
      g_autofree char *action = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "accelerator", &accel, "action-name", &action, NULL);
      if (accel)
        add_accels (listed, accel);
      if (action)
        {
          g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                        action);

          g_assert_true (accels[0] != NULL);  /* an action entry without a key shows nothing */
          for (guint i = 0; accels[i]; i++)
            add_accels (listed, accels[i]);
        }
    }

  /* key names as the README writes them: Ctrl+O, Ctrl+Shift+Z, Alt+Down, F8, Enter */
  g_assert_true (g_file_get_contents (readme_path, &readme, NULL, NULL));
  regex = g_regex_new ("\\b(?:(?:Ctrl|Shift|Alt)\\+)+(?:[A-Z0-9?]\\b|[A-Z0-9?](?=[ ,.)/])|"
                       "F[0-9]{1,2}\\b|Return\\b|Enter\\b|Up\\b|Down\\b|Left\\b|Right\\b|"
                       "Home\\b|End\\b)|\\bF[0-9]{1,2}\\b|\\bEnter\\b",
                       0, 0, NULL);
  g_assert_nonnull (regex);
  g_regex_match (regex, readme, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *text = g_match_info_fetch (match, 0);
      g_autofree char *accel = readme_key_to_accel (text);
      Key key;

      g_assert_true (key_parse (accel, &key));
      if (!keys_contain (listed, &key))
        g_error ("README names %s (%s), but the shortcuts window does not list it", text, accel);
      n_keys++;
      g_match_info_next (match, NULL);
    }
  /* the README's editor section names a few dozen keys */
  g_assert_cmpuint (n_keys, >=, 30);
}

/* The app icon comes with the application (its resources), installed or not */
static void
test_icon (void)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());

  g_assert_true (gtk_icon_theme_has_icon (theme, "org.mshed.Mshed"));
  g_assert_true (gtk_icon_theme_has_icon (theme, "org.mshed.Mshed-symbolic"));
  g_assert_true (gtk_icon_theme_has_icon (theme, gtk_window_get_default_icon_name ()));
}


/* A file whose container would fail strict validation (here NRes version 0x200, opened
 * tolerant) is not saved without asking; the question names the container field. */
static void
test_save_refuses_container (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "version.msh");
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();  /* (transfer none) */
  g_autofree char *secondary = NULL;
  g_autofree char *bak = g_strconcat (path, ".bak", NULL);
  GtkWidget *dialog = NULL;
  MshedWindow *window;
  const guint8 *orig;
  guint8 *data;
  gsize len = 0;

  before = gui_test_file_bytes (path);
  orig = g_bytes_get_data (before, &len);
  data = g_memdup2 (orig, len);
  mshed_write_u32 (data + 4, 0x200);
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) len, NULL));
  g_free (data);
  g_clear_pointer (&before, g_bytes_unref);
  before = gui_test_file_bytes (path);

  /* the window opens only model errors tolerantly; hand it the tolerant document */
  window = mshed_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  {
    g_autoptr(MshedDocument) doc = mshed_document_open (path, MSHED_MODE_TOLERANT, &error);

    g_assert_no_error (error);
    _mshed_window_set_document (window, doc, TRUE);
  }
  widget_test_iterate (200);
  g_assert_true (mshed_document_rename_node (mshed_window_get_document (window), 0, "x",
                                             &error));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL);
  widget_test_iterate (200);
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_MESSAGE_DIALOG (w))
        dialog = GTK_WIDGET (w);
    }
  g_assert_nonnull (dialog);
  g_object_get (dialog, "secondary-text", &secondary, NULL);
  if (strstr (secondary, "NRes header, field version: expected 0x100, found 0x200") == NULL)
    g_error ("the question does not name the field: %s", secondary);
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR"))
    {
      widget_test_iterate (300);
      widget_test_screenshot (dialog, "save-refused.png");
    }
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  widget_test_iterate (100);
  after = gui_test_file_bytes (path);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_true (mshed_document_get_modified (mshed_window_get_document (window)));

  mshed_document_undo (mshed_window_get_document (window));
  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (50);
  g_unlink (bak);
  g_unlink (path);
  g_rmdir (dir);
}

/* Distinct colours inside @widget's part of @window's rendering. */
static guint
count_colours (GtkWidget *window,
               GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  g_autofree guint32 *pixels = NULL;
  int w = gtk_widget_get_width (window), h = gtk_widget_get_height (window);
  graphene_rect_t b;

  g_assert_true (gtk_widget_compute_bounds (widget, window, &b));
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  pixels = g_new (guint32, (gsize) w * h);
  gdk_texture_download (texture, (guchar *) pixels, (gsize) w * 4);
  for (int y = MAX ((int) b.origin.y, 0); y < MIN ((int) (b.origin.y + b.size.height), h); y++)
    for (int x = MAX ((int) b.origin.x, 0); x < MIN ((int) (b.origin.x + b.size.width), w); x++)
      g_hash_table_add (colours, GUINT_TO_POINTER (pixels[(gsize) y * w + x]));
  return g_hash_table_size (colours);
}

/* With a software GL (Mesa's llvmpipe, as under Xvfb) the windows draw with GSK's cairo
 * renderer, which redraws only what changed; the 3D preview still draws with GL. */
static void
test_software_gl_draws_with_cairo (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = gui_test_copy_sample (dir, "sample.msh");
  g_autoptr(GdkGLContext) context = NULL;
  const char *gl;
  gboolean software;
  MshedWindow *window;

  if (renderer_from_user)
    {
      mshed_test_skip ("GSK_RENDERER is set: the user chose the renderer");
      return;
    }
  context = gdk_display_create_gl_context (gdk_display_get_default (), NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    {
      mshed_test_skip ("no GL");
      return;
    }
  gdk_gl_context_make_current (context);
  gl = (const char *) glGetString (GL_RENDERER);
  software = gl != NULL && (strstr (gl, "llvmpipe") || strstr (gl, "softpipe"));
  g_test_message ("GL renderer: %s", gl);
  gdk_gl_context_clear_current ();

  window = mshed_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (400);
  g_assert_true (GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (GTK_NATIVE (window))) ==
                 software);
  /* the shaded model, the grid and the axes: far more than a blank area's few colours */
  g_assert_cmpuint (count_colours (GTK_WIDGET (window), GTK_WIDGET (window->model_view)), >, 50);

  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (50);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  /* before the application's start-up chooses one (app/mshed-application.c) */
  renderer_from_user = g_getenv ("GSK_RENDERER") != NULL;
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");

  g_test_add_func ("/app/edit-undo-save", test_edit_undo_save);
  g_test_add_func ("/app/broken-opens-tolerant", test_broken_opens_tolerant);
  g_test_add_func ("/app/archive", test_archive);
  g_test_add_func ("/app/unreadable", test_unreadable);
  g_test_add_func ("/app/missing-type", test_missing_type);
  g_test_add_func ("/app/close-asks", test_close_asks);
  g_test_add_func ("/app/save-refuses-container", test_save_refuses_container);
  g_test_add_func ("/app/jump-scrolls", test_jump_scrolls);
  g_test_add_func ("/app/next-problem-scrolls", test_next_problem_scrolls);
  g_test_add_func ("/app/undo-tooltip", test_undo_tooltip);
  g_test_add_func ("/app/reload-asks", test_reload_asks);
  g_test_add_func ("/app/recent-files", test_recent_files);
  g_test_add_func ("/app/show-archive-entries", test_show_archive_entries);
  g_test_add_func ("/app/open-dialog-filter", test_open_dialog_filter);
  g_test_add_func ("/app/shortcuts-list-readme-keys", test_shortcuts_list_readme_keys);
  g_test_add_func ("/app/icon", test_icon);
  g_test_add_func ("/app/software-gl-draws-with-cairo", test_software_gl_draws_with_cairo);
  return gui_test_run (app);
}
