/* test-gui-gltf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Export… and Import glTF… in the real window (app/mshed-window-gltf.c): the open sample
 * exported to .gltf and imported back changes nothing (no undo step, the same bytes); an
 * export with one triangle deleted comes back as one undo step ("Import glTF") that undo
 * takes back to the original bytes; the same file opened as a new model gets a window of
 * its own. With MSHED_TEST_SCREENSHOT_DIR set, a picture of the window after the import.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "gui-test-util.h"
#include "mshed-dfm-generator.h"
#include "mshed-obj.h"
#include "test-require.h"

static MshedApplication *app;
static const char *tmpdir;  /* gui_test_dir */

/* Runs the main loop until @window has no glTF job left. */
static void
wait_jobs (MshedWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  widget_test_iterate (20);
  while (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (window), "mshed-gltf-jobs")) > 0 &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (window), "mshed-gltf-jobs")),
                   ==, 0);
  widget_test_iterate (50);
}

/* @in (a .gltf with its buffer inside) with the last triangle of mesh 0's first primitive
 * gone, written to @out. */
static void
delete_triangle (const char *in,
                 const char *out)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *root, *prim, *acc;

  g_assert_true (json_parser_load_from_file (parser, in, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  prim = json_array_get_object_element (json_object_get_array_member (
    json_array_get_object_element (json_object_get_array_member (root, "meshes"), 0),
    "primitives"), 0);
  acc = json_array_get_object_element (json_object_get_array_member (root, "accessors"),
                                       json_object_get_int_member (prim, "indices"));
  g_assert_cmpint (json_object_get_int_member (acc, "count"), >=, 6);
  json_object_set_int_member (acc, "count", json_object_get_int_member (acc, "count") - 3);
  text = json_to_string (json_parser_get_root (parser), FALSE);
  g_assert_true (g_file_set_contents (out, text, -1, NULL));
}

static void
test_export_import (void)
{
  g_autofree char *msh = gui_test_copy_sample (tmpdir, "sample.msh");
  g_autofree char *gltf = g_build_filename (tmpdir, "sample.gltf", NULL);
  g_autofree char *glb = g_build_filename (tmpdir, "sample.glb", NULL);
  g_autofree char *obj = g_build_filename (tmpdir, "sample.obj", NULL);
  g_autofree char *mtl = g_build_filename (tmpdir, "sample.mtl", NULL);
  g_autofree char *edited = g_build_filename (tmpdir, "edited.gltf", NULL);
  g_autoptr(GBytes) original = gui_test_file_bytes (msh);
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  MshedWindow *window = MSHED_WINDOW (mshed_application_open_spec (app, msh));
  MshedDocument *doc;
  GtkWidget *second, *error_dialog;

  g_assert_nonnull (window);
  widget_test_iterate (100);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);

  /* export: .gltf, .glb and .obj with its .mtl, each by the thread */
  g_assert_true (_mshed_window_export_model (window, gltf, 0, 0, -1, TRUE));
  wait_jobs (window);
  g_assert_true (_mshed_window_export_model (window, glb, 0, 0, -1, TRUE));
  wait_jobs (window);
  g_assert_true (_mshed_window_export_model (window, obj, 0, 0, -1, TRUE));
  wait_jobs (window);
  g_assert_true (g_file_test (gltf, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (glb, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (obj, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (mtl, G_FILE_TEST_EXISTS));

  /* importing the unchanged export back: nothing to undo, the same bytes */
  _mshed_window_import_gltf (window, glb, FALSE);
  wait_jobs (window);
  g_assert_false (mshed_document_can_undo (doc));
  now = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (now, original));

  /* one triangle deleted: one undo step, undone to the original bytes */
  delete_triangle (gltf, edited);
  _mshed_window_import_gltf (window, edited, FALSE);
  wait_jobs (window);
  g_assert_true (mshed_document_can_undo (doc));
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Import glTF");
  after = mshed_document_serialize (doc);
  g_assert_false (g_bytes_equal (after, original));
  widget_test_screenshot (GTK_WIDGET (window), "import-gltf.png");
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR"))
    {
      gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
      gui_test_wait_settled (GTK_WIDGET (window));
      widget_test_screenshot (GTK_WIDGET (window), "import-gltf-small.png");
      gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
      gui_test_wait_settled (GTK_WIDGET (window));
      widget_test_screenshot (GTK_WIDGET (window), "import-gltf-large.png");
    }
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_can_undo (doc));
  undone = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (undone, original));

  /* as a new model: a second window */
  _mshed_window_import_gltf (window, glb, TRUE);
  wait_jobs (window);
  second = gui_test_find_toplevel (MSHED_TYPE_WINDOW, GTK_WIDGET (window));
  g_assert_nonnull (second);
  g_assert_nonnull (mshed_window_get_document (MSHED_WINDOW (second)));
  g_assert_nonnull (mshed_document_get_model (
    mshed_window_get_document (MSHED_WINDOW (second))));
  gui_test_close (MSHED_WINDOW (second));

  /* a refused glTF: the error dialog, the document untouched */
  _mshed_window_import_gltf (window, mtl, FALSE);
  wait_jobs (window);
  g_assert_false (mshed_document_can_undo (doc));
  error_dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL);
  g_assert_nonnull (error_dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (error_dialog)) ==
                 GTK_WINDOW (window));
  gtk_window_destroy (GTK_WINDOW (error_dialog));
  gui_test_close (window);
}

/* A generated body (seed 3, four levels) at DIR/body.dfm. */
static char *
write_body (void)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 3);
  params.n_levels = 4;
  bytes = mshed_dfm_generate_bytes (&params);
  return gui_test_write (tmpdir, "body.dfm", bytes);
}

/* @path holds the same bytes as `mshed-cli export IN -o OUT ARGS`, OUT of the same name in
 * tmpdir/cli (an OBJ names its MTL), and so does the MTL of an OBJ. */
static void
assert_as_cli (const char *in,
               const char *path,
               const char *args)
{
  g_autofree char *dir = g_build_filename (tmpdir, "cli", NULL);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *out = g_build_filename (dir, base, NULL);
  g_autofree char *cmd = g_strdup_printf ("export -q '%s' -o '%s' %s", in, out, args);
  g_autoptr(GBytes) ours = NULL;
  g_autoptr(GBytes) cli = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  gui_test_run_cli (cmd);
  ours = gui_test_file_bytes (path);
  cli = gui_test_file_bytes (out);
  g_assert_cmpuint (g_bytes_get_size (ours), ==, g_bytes_get_size (cli));
  g_assert_true (g_bytes_equal (ours, cli));
  if (g_str_has_suffix (path, ".obj"))
    {
      g_autofree char *mtl = mshed_obj_mtl_path (path);
      g_autofree char *cli_mtl = mshed_obj_mtl_path (out);
      g_autoptr(GBytes) a = gui_test_file_bytes (mtl);
      g_autoptr(GBytes) b = gui_test_file_bytes (cli_mtl);

      g_assert_true (g_bytes_equal (a, b));
    }
}

/* Screenshots of the export dialog of @window at 800x600 and 1600x1000. */
static void
shoot_export_dialog (MshedWindow *window,
                     const char  *prefix)
{
  GtkFileChooserNative *native;
  GtkWidget *dialog;
  g_autofree char *small = g_strdup_printf ("%s-small.png", prefix);
  g_autofree char *large = g_strdup_printf ("%s-large.png", prefix);

  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") == NULL)
    return;
  native = _mshed_window_export_dialog (window);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
  widget_test_iterate (200);
  dialog = gui_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, NULL);
  g_assert_nonnull (dialog);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 800, 600);
  gui_test_wait_settled (dialog);
  widget_test_screenshot (dialog, small);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 1600, 1000);
  gui_test_wait_settled (dialog);
  widget_test_screenshot (dialog, large);
  /* hidden and drawn without it before it goes: a resized X11 window destroyed at once
   * leaves GDK a frame clock to thaw, and GTK 4.8's file chooser a source it removes twice
   * (the last test for that reason) */
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (native));
  gui_test_wait_settled (GTK_WIDGET (window));
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (native));
  g_object_unref (native);
  widget_test_iterate (100);
}

static void
test_dfm (void)
{
  g_autofree char *dfm = write_body ();
  g_autofree char *glb = g_build_filename (tmpdir, "body.glb", NULL);
  g_autofree char *gltf = g_build_filename (tmpdir, "body.gltf", NULL);
  g_autofree char *obj = g_build_filename (tmpdir, "body.obj", NULL);
  g_autoptr(GBytes) original = gui_test_file_bytes (dfm);
  g_autoptr(GBytes) now = NULL;
  MshedWindow *window = MSHED_WINDOW (mshed_application_open_spec (app, dfm));
  MshedDocument *doc;
  MshedDfmLevel level;
  MshedUtfNode *points;
  g_autoptr(GBytes) moved = NULL;
  GtkWidget *second;
  float *data;
  gsize size;

  g_assert_nonnull (window);
  widget_test_iterate (100);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (mshed_document_get_dfm (doc));

  /* export: the bytes of mshed-cli export, level 1 listed first / written to OBJ */
  g_assert_false (_mshed_window_export_model (window, glb, 0, 0, -1, TRUE));
  g_assert_true (_mshed_window_export_dfm (window, glb, 0));
  wait_jobs (window);
  assert_as_cli (dfm, glb, "");
  g_assert_true (_mshed_window_export_dfm (window, gltf, 1));
  wait_jobs (window);
  assert_as_cli (dfm, gltf, "--level 1");
  g_assert_true (_mshed_window_export_dfm (window, obj, 1));
  wait_jobs (window);
  assert_as_cli (dfm, obj, "--level 1");

  /* the unchanged export imported back: no undo step, the same bytes */
  _mshed_window_import_gltf (window, glb, FALSE);
  wait_jobs (window);
  g_assert_false (mshed_document_can_undo (doc));
  now = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (now, original));
  g_clear_pointer (&now, g_bytes_unref);

  /* a point moved in the editor: the import moves it back, one undo step */
  g_assert_true (mshed_dfm_get_level (mshed_document_get_dfm (doc), 0, &level));
  points = mshed_utf_node_lookup (mshed_utf_node_lookup (level.node, "Geometry"), "Points");
  g_assert_nonnull (points);
  size = g_bytes_get_size (mshed_utf_node_get_data (points));
  data = g_memdup2 (g_bytes_get_data (mshed_utf_node_get_data (points), NULL), size);
  data[1] += 0.5f;
  moved = g_bytes_new_take (data, size);
  g_assert_true (mshed_document_utf_set_data (doc, points, moved, NULL));
  _mshed_window_import_gltf (window, glb, FALSE);
  wait_jobs (window);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Import glTF");
  now = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (now, original));
  g_assert_true (mshed_document_undo (doc));
  g_assert_cmpstr (mshed_document_get_undo_label (doc), !=, "Import glTF");

  /* as a new model: a second window with a DFM */
  _mshed_window_import_gltf (window, glb, TRUE);
  wait_jobs (window);
  second = gui_test_find_toplevel (MSHED_TYPE_WINDOW, GTK_WIDGET (window));
  g_assert_nonnull (second);
  g_assert_nonnull (mshed_document_get_dfm (mshed_window_get_document (MSHED_WINDOW (second))));
  g_clear_pointer (&now, g_bytes_unref);
  now = mshed_document_serialize (mshed_window_get_document (MSHED_WINDOW (second)));
  g_assert_true (g_bytes_equal (now, original));
  gui_test_close (MSHED_WINDOW (second));
  gui_test_close (window);
}

/* With MSHED_TEST_SCREENSHOT_DIR: the export dialog of a DFM (its Level choice). */
static void
test_dialog_screenshots (void)
{
  g_autofree char *dfm = write_body ();
  MshedWindow *window = MSHED_WINDOW (mshed_application_open_spec (app, dfm));

  g_assert_nonnull (window);
  widget_test_iterate (100);
  shoot_export_dialog (window, "export-dfm-dialog");
  gui_test_close (window);
}

static void
on_cancelled (GCancellable *cancellable,
              gint64       *when)
{
  *when = g_get_monotonic_time ();
}

/* Clicks Cancel of @window's progress window once the thread reported a fraction; returns
 * the time the thread took to end after Cancel took effect, in microseconds. */
static gint64
cancel_running_job (MshedWindow *window,
                    const char  *screenshot)
{
  GtkWindow *progress = g_object_get_data (G_OBJECT (window), "mshed-gltf-progress");
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  GtkWidget *box, *bar, *cancel;
  gint64 cancelled = 0;

  g_assert_nonnull (progress);
  g_signal_connect (g_object_get_data (G_OBJECT (progress), "mshed-cancellable"), "cancelled",
                    G_CALLBACK (on_cancelled), &cancelled);
  box = gtk_window_get_child (progress);
  bar = gtk_widget_get_first_child (box);
  while (!GTK_IS_PROGRESS_BAR (bar))
    bar = gtk_widget_get_next_sibling (bar);
  cancel = gtk_widget_get_last_child (box);
  g_assert_cmpstr (gtk_widget_get_name (cancel), ==, "cancel");
  while (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)) <= 0.0 &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), >, 0.0);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)), <, 1.0);
  if (screenshot)  /* a fixed-size window: one picture */
    {
      gui_test_wait_settled (GTK_WIDGET (progress));
      widget_test_screenshot (GTK_WIDGET (progress), screenshot);
    }
  gui_test_wait_settled (GTK_WIDGET (progress));
  /* the pointer leaves first: a new window under a pointer that did not move gets no
   * enter event, and GTK drops the click */
  if (gui_test_have_xdotool ())
    g_assert_true (gui_test_xdo ("mousemove 0 0"));
  if (gui_test_have_xdotool ())
    gui_test_click (progress, cancel, gtk_widget_get_width (cancel) / 2.0,
                    gtk_widget_get_height (cancel) / 2.0);
  else
    g_signal_emit_by_name (cancel, "clicked");
  while (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (window), "mshed-gltf-jobs")) > 0 &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (window), "mshed-gltf-jobs")),
                   ==, 0);
  g_assert_cmpint (cancelled, >, 0);
  /* the thread's own end: the main loop that shows it may be slow (software GL, ASan) */
  return (gint64) GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (window),
                                                       "mshed-gltf-thread-end")) - cancelled;
}

/* No file in tmpdir whose name starts with @prefix. */
static void
assert_no_file (const char *prefix)
{
  g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix) || (name[0] == '.' && g_str_has_prefix (name + 1,
                                                                                 prefix)))
      g_error ("%s was written", name);
}

static void
test_cancel (void)
{
  g_autofree char *msh = gui_test_write_big_model (tmpdir, "big.msh", 200000);
  g_autofree char *glb = g_build_filename (tmpdir, "big-out.glb", NULL);
  g_autofree char *kept = g_build_filename (tmpdir, "big-kept.glb", NULL);
  MshedWindow *window = MSHED_WINDOW (mshed_application_open_spec (app, msh));
  MshedDocument *doc;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autofree char *label = NULL;
  gint64 took;

  g_assert_nonnull (window);
  widget_test_iterate (100);
  doc = mshed_window_get_document (window);
  g_assert_nonnull (doc);

  /* an export for the import below, not cancelled */
  g_assert_true (_mshed_window_export_model (window, kept, 0, 0, -1, TRUE));
  wait_jobs (window);
  g_assert_true (g_file_test (kept, G_FILE_TEST_EXISTS));

  /* each step of the thread made slow enough to click Cancel while it runs */
  _mshed_window_gltf_set_step_delay (250);
  g_assert_true (_mshed_window_export_model (window, glb, 0, 0, -1, TRUE));
  took = cancel_running_job (window, "gltf-progress.png");
  /* the time counts the rest of the 250 ms pause of the step Cancel fell into; without the
   * pauses the steps of this model are less than 0.2 s apart */
  g_test_message ("export: the thread ended %.3f s after Cancel", took / 1e6);
  g_assert_cmpint (took, <, G_USEC_PER_SEC);
  g_assert_null (g_object_get_data (G_OBJECT (window), "mshed-gltf-progress"));
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));
  assert_no_file ("big-out");

  /* a vertex moved, so that the import would be an undo step of its own; cancelled, the
   * document stays as it was */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x", 0.5, NULL));
  label = g_strdup (mshed_document_get_undo_label (doc));
  before = mshed_document_serialize (doc);
  _mshed_window_import_gltf (window, kept, FALSE);
  took = cancel_running_job (window, NULL);
  /* Cancel may fall after the trial import started applying (it then runs to its end, with
   * six more pauses) and still nothing changes below */
  g_test_message ("import: the thread ended %.3f s after Cancel", took / 1e6);
  g_assert_cmpint (took, <, 3 * G_USEC_PER_SEC);
  _mshed_window_gltf_set_step_delay (0);
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, label);
  g_assert_false (mshed_document_can_redo (doc));
  after = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (after, before));
  gui_test_close (window);
}

int
main (int    argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");
  if (g_getenv ("MSHED_SAMPLE") == NULL)
    return mshed_test_skip_program ("MSHED_SAMPLE is set by meson test");
  tmpdir = gui_test_dir;
  g_test_add_func ("/app/gltf/export-import", test_export_import);
  g_test_add_func ("/app/gltf/dfm", test_dfm);
  g_test_add_func ("/app/gltf/cancel", test_cancel);
  g_test_add_func ("/app/gltf/dialog-screenshots", test_dialog_screenshots);
  return gui_test_run (app);
}
