/* test-gui-fix.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reviewable fixes in the real application window: a model with a planted defect (slot 1's
 * batch range runs 9000 batches past Res13) opened, "Fix…" on its problem in the Problems
 * panel shows the change (table, row, field, old -> new) before anything changes, Apply fixes
 * it, the problem is gone, the saved bytes equal what `mshed-cli fix --apply` writes for the
 * same file, and Ctrl+Z (a real key through the X server) brings the problem back.
 * "Fix All of This Kind…" fixes two planted defects of one kind in one undo step.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "mshed-schema.h"
#include "test-require.h"

static MshedApplication *app;
static const char *tmpdir;  /* gui_test_dir */

/* A generated model with slot @slot's batchCount set to 9000, written to DIR/NAME and to
 * DIR/cli-NAME (for mshed-cli fix --apply). */
static char *
write_planted (const char *name,
               const guint *slots,
               guint        n_slots)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) planted = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autofree char *cli_name = g_strdup_printf ("cli-%s", name);
  g_autofree char *cli_path = NULL;

  mshed_gen_params_init (&params, 5);
  params.n_nodes = 4;
  bytes = mshed_generate_model_bytes (&params);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, diags, &error);
  g_assert_no_error (error);
  doc = mshed_document_new_for_model (model, MSHED_MODE_TOLERANT);
  for (guint i = 0; i < n_slots; i++)
    {
      mshed_document_set_field_text (doc, MSHED_TABLE_SLOTS, slots[i], "batchCount", "9000",
                                     &error);
      g_assert_no_error (error);
    }
  planted = mshed_document_serialize (doc);
  cli_path = gui_test_write (tmpdir, cli_name, planted);
  return gui_test_write (tmpdir, name, planted);
}

static guint
count_check (MshedDocument *doc,
             MshedCheck     check)
{
  const MshedDiagnostics *diags = mshed_document_get_diagnostics (doc);
  guint n = 0;

  for (guint i = 0; i < diags->items->len; i++)
    n += ((const MshedDiagnostic *) g_ptr_array_index (diags->items, i))->check == check;
  return n;
}

/* The row of the Problems panel (errors and warnings shown, notes hidden) that shows the
 * first finding of @check. */
static guint
shown_row (MshedDocument *doc,
           MshedCheck     check)
{
  const MshedDiagnostics *diags = mshed_document_get_diagnostics (doc);
  guint row = 0;

  for (guint i = 0; i < diags->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (d->check == check)
        return row;
      row += d->severity != MSHED_SEVERITY_INFO;
    }
  g_assert_not_reached ();
  return 0;
}

/* The text of every label inside @widget, one per line. */
static void
collect_labels (GtkWidget *widget,
                GString   *out)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, out);
}

/* The Location cell of the Problems panel that says @location. */
static GtkWidget *
find_problem_cell (GtkWidget  *widget,
                   const char *location)
{
  if (GTK_IS_INSCRIPTION (widget) &&
      g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), location) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_problem_cell (c, location);

      if (found)
        return found;
    }
  return NULL;
}

/* The popover menu that is a child of @widget. */
static GtkWidget *
find_popover (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER_MENU (c))
      return c;
  return NULL;
}

/* The dialog that "Fix…" opened; what it says is in @text. */
static GtkDialog *
fix_dialog (MshedWindow *window,
            GString     *text)
{
  GtkWidget *dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, GTK_WIDGET (window));

  g_assert_nonnull (dialog);
  collect_labels (dialog, text);
  g_test_message ("dialog: %s", text->str);
  return GTK_DIALOG (dialog);
}

static void
run_cli_fix (const char *path)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { g_getenv ("MSHED_CLI"), "fix", "--apply", path, NULL };
  int wait_status = 0;

  g_assert_true (g_spawn_sync (tmpdir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &wait_status, &error));
  g_assert_no_error (error);
  g_test_message ("mshed-cli fix: %s%s", out, err);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
}

static void
test_fix_one (void)
{
  const guint slots[] = { 1 };
  g_autofree char *path = write_planted ("one.msh", slots, 1);
  g_autofree char *cli_path = g_build_filename (tmpdir, "cli-one.msh", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) by_cli = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *change = NULL;
  MshedWindow *window;
  MshedDocument *doc;
  GtkDialog *dialog;
  guint n_batches;

  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (200);
  doc = mshed_window_get_document (window);
  g_assert_cmpuint (count_check (doc, MSHED_CHECK_SLOT_BATCH_RANGE), ==, 1);
  n_batches = mshed_model_get_n_rows (mshed_document_get_model (doc), MSHED_TABLE_BATCHES);

  /* Cancel changes nothing */
  mshed_diagnostics_view_fix (window->diagnostics_view,
                              shown_row (doc, MSHED_CHECK_SLOT_BATCH_RANGE), FALSE);
  widget_test_iterate (100);
  dialog = fix_dialog (window, text);
  gtk_dialog_response (dialog, GTK_RESPONSE_CANCEL);
  widget_test_iterate (100);
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, GTK_WIDGET (window)));
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_cmpuint (count_check (doc, MSHED_CHECK_SLOT_BATCH_RANGE), ==, 1);

  /* the change is shown before it is made: slots[1].batchCount from 9000 to what is left of
   * Res13 after the slot's start (docs/msh.md §9: start + count <= batch count) */
  g_string_truncate (text, 0);
  mshed_diagnostics_view_fix (window->diagnostics_view,
                              shown_row (doc, MSHED_CHECK_SLOT_BATCH_RANGE), FALSE);
  widget_test_iterate (100);
  dialog = fix_dialog (window, text);
  {
    MshedSlot slot;

    g_assert_true (mshed_model_get_slot (mshed_document_get_model (doc), 1, &slot));
    change = g_strdup_printf ("slots[1].batchCount: 9000 -> %u", n_batches - slot.batch_start);
  }
  g_assert_nonnull (strstr (text->str, "Apply 1 change?"));
  g_assert_nonnull (strstr (text->str, change));
  /* MSHED_TEST_SCREENSHOT_DIR: the window with its Problems panel, and the dialog */
  widget_test_screenshot (GTK_WIDGET (window), "fix-window");
  widget_test_screenshot (GTK_WIDGET (dialog), "fix-dialog");
  gtk_dialog_response (dialog, GTK_RESPONSE_ACCEPT);
  widget_test_iterate (200);
  g_assert_cmpuint (count_check (doc, MSHED_CHECK_SLOT_BATCH_RANGE), ==, 0);
  g_assert_cmpuint (mshed_document_get_diagnostics (doc)->n_errors, ==, 0);
  g_assert_true (mshed_document_get_modified (doc));

  /* saved: the bytes mshed-cli fix --apply writes */
  g_assert_true (mshed_document_save (doc, 0, &error));
  g_assert_no_error (error);
  run_cli_fix (cli_path);
  saved = gui_test_file_bytes (path);
  by_cli = gui_test_file_bytes (cli_path);
  g_assert_true (g_bytes_equal (saved, by_cli));

  /* Ctrl+Z, a real key: the problem is back */
  if (!gui_test_have_xdotool ())
    mshed_test_skip ("xdotool is needed for the real Ctrl+Z");
  else
    {
      gui_test_focus_window (GTK_WINDOW (window));
      gui_test_key ("ctrl+z");
      widget_test_iterate (200);
      g_assert_cmpuint (count_check (doc, MSHED_CHECK_SLOT_BATCH_RANGE), ==, 1);
      g_assert_true (mshed_document_get_modified (doc));
    }
  while (mshed_document_can_undo (doc))
    mshed_document_undo (doc);
  widget_test_iterate (50);
  gui_test_close (window);
}

static void
test_fix_kind (void)
{
  const guint slots[] = { 0, 2 };
  g_autofree char *path = write_planted ("kind.msh", slots, 2);
  g_autofree char *cli_path = g_build_filename (tmpdir, "cli-kind.msh", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GBytes) fixed = NULL;
  g_autoptr(GBytes) by_cli = NULL;
  MshedWindow *window;
  MshedDocument *doc;
  GtkDialog *dialog;

  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (200);
  doc = mshed_window_get_document (window);
  g_assert_cmpuint (count_check (doc, MSHED_CHECK_SLOT_BATCH_RANGE), ==, 2);

  /* "Fix…" on one of them plans only that one */
  mshed_diagnostics_view_fix (window->diagnostics_view,
                              shown_row (doc, MSHED_CHECK_SLOT_BATCH_RANGE), FALSE);
  widget_test_iterate (100);
  dialog = fix_dialog (window, text);
  g_assert_nonnull (strstr (text->str, "Apply 1 change?"));
  g_assert_nonnull (strstr (text->str, "slots[0].batchCount: 9000 -> "));
  g_assert_null (strstr (text->str, "slots[2]"));
  gtk_dialog_response (dialog, GTK_RESPONSE_CANCEL);
  widget_test_iterate (100);

  /* "Fix All of This Kind…" from the row's context menu (a real right click): both, in one
   * undo step */
  g_string_truncate (text, 0);
  if (!gui_test_have_xdotool ())
    mshed_diagnostics_view_fix (window->diagnostics_view,
                                shown_row (doc, MSHED_CHECK_SLOT_BATCH_RANGE), TRUE);
  else
    {
      GtkWidget *cell = find_problem_cell (GTK_WIDGET (window->diagnostics_view),
                                           "Slots 2.batchStart");
      GtkWidget *menu;

      g_assert_nonnull (cell);
      gui_test_click_button (GTK_NATIVE (window), cell, 10, gtk_widget_get_height (cell) / 2.0,
                             3);
      menu = find_popover (GTK_WIDGET (window->diagnostics_view));
      g_assert_nonnull (menu);
      g_assert_true (gtk_widget_get_visible (menu));
      widget_test_screenshot (menu, "fix-context-menu");
      g_assert_true (gtk_widget_activate_action (menu, "diagnostics.fix-kind", NULL));
      gtk_popover_popdown (GTK_POPOVER (menu));
    }
  widget_test_iterate (100);
  dialog = fix_dialog (window, text);
  g_assert_nonnull (strstr (text->str, "Apply 2 changes?"));
  g_assert_nonnull (strstr (text->str, "slots[0].batchCount: 9000 -> "));
  g_assert_nonnull (strstr (text->str, "slots[2].batchCount: 9000 -> "));
  gtk_dialog_response (dialog, GTK_RESPONSE_ACCEPT);
  widget_test_iterate (200);
  g_assert_cmpuint (count_check (doc, MSHED_CHECK_SLOT_BATCH_RANGE), ==, 0);
  run_cli_fix (cli_path);
  fixed = mshed_document_serialize (doc);
  by_cli = gui_test_file_bytes (cli_path);
  g_assert_true (g_bytes_equal (fixed, by_cli));
  g_assert_true (mshed_document_undo (doc));
  widget_test_iterate (100);
  g_assert_cmpuint (count_check (doc, MSHED_CHECK_SLOT_BATCH_RANGE), ==, 2);
  g_assert_false (mshed_document_get_modified (doc));
  gui_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");
  if (g_getenv ("MSHED_CLI") == NULL)
    return mshed_test_skip_program ("MSHED_CLI is set by meson test");
  tmpdir = gui_test_dir;
  g_test_add_func ("/app/fix/one", test_fix_one);
  g_test_add_func ("/app/fix/kind", test_fix_kind);
  return gui_test_run (app);
}
