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

#include "mshed-application.h"
#include "mshed-bytes.h"
#include "mshed-cell-editor.h"
#include "mshed-node-tree-private.h"
#include "mshed-table-view-private.h"
#include "mshed-window-private.h"
#include "widget-test-util.h"

static MshedApplication *app;
static gboolean renderer_from_user;  /* GSK_RENDERER was set before the application started */

static char *
copy_sample (const char *dir,
             const char *name)
{
  const char *sample = g_getenv ("MSHED_SAMPLE");
  g_autofree char *data = NULL;
  gsize len = 0;
  char *path = g_build_filename (dir, name, NULL);

  g_assert_nonnull (sample);
  g_assert_true (g_file_get_contents (sample, &data, &len, NULL));
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
  return path;
}

static GBytes *
file_bytes (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

static MshedTableView *
grid_of (MshedWindow  *window,
         MshedTableId  table)
{
  for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
    if (mshed_window_grid_tables[i] == table)
      return window->grids[i];
  g_assert_not_reached ();
  return NULL;
}

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
  g_signal_emit_by_name (grid_of (window, MSHED_TABLE_SLOTS), "row-selected", 3);
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
  g_autofree char *path = copy_sample (dir, "sample.msh");
  g_autofree char *model_only_path = copy_sample (dir, "model-only.msh");
  g_autofree char *backup = g_strconcat (path, ".bak", NULL);
  MshedWindow *window = mshed_window_new (app);
  MshedDocument *doc;
  MshedTableView *slots;
  MshedCellEditor *editor;
  g_autoptr(GBytes) original = file_bytes (path);
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
  slots = grid_of (window, MSHED_TABLE_SLOTS);
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
  saved = file_bytes (path);

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
    g_autoptr(GBytes) bak = file_bytes (backup);
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
  g_autofree char *path = copy_sample (dir, "broken.msh");
  g_autoptr(GBytes) bytes = file_bytes (path);
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
  g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) g_bytes_get_size (bytes), NULL));

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

  /* activating it shows the slot grid */
  mshed_diagnostics_view_activate (window->diagnostics_view, 0);
  widget_test_iterate (100);
  g_assert_cmpint (gtk_notebook_get_current_page (window->grid_notebook), ==, 1);

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
  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (20);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_close_asks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_autofree char *path = copy_sample (dir, "close.msh");
  MshedWindow *window = mshed_window_new (app);
  GtkWidget *dialog = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();  /* transfer none */
  gboolean gone = FALSE;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (mshed_window_open (window, path));
  g_assert_true (mshed_document_rename_node (mshed_window_get_document (window), 0, "x", &error));
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_close (GTK_WINDOW (window));
  widget_test_iterate (100);
  g_assert_nonnull (window);  /* still open: it asked */
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_MESSAGE_DIALOG (w))
        dialog = GTK_WIDGET (w);
    }
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
  g_autofree char *path = copy_sample (dir, "sample.msh");
  g_autoptr(GdkGLContext) context = NULL;
  const char *gl;
  gboolean software;
  MshedWindow *window;

  if (renderer_from_user)
    {
      g_test_skip ("GSK_RENDERER is set: the user chose the renderer");
      return;
    }
  context = gdk_display_create_gl_context (gdk_display_get_default (), NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    {
      g_test_skip ("no GL");
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
  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      /* TAP's way of skipping a whole program */
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  renderer_from_user = g_getenv ("GSK_RENDERER") != NULL;
  app = mshed_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add_func ("/app/edit-undo-save", test_edit_undo_save);
  g_test_add_func ("/app/broken-opens-tolerant", test_broken_opens_tolerant);
  g_test_add_func ("/app/archive", test_archive);
  g_test_add_func ("/app/unreadable", test_unreadable);
  g_test_add_func ("/app/close-asks", test_close_asks);
  g_test_add_func ("/app/software-gl-draws-with-cairo", test_software_gl_draws_with_cairo);
  return g_test_run ();
}
