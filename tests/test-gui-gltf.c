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
      widget_test_screenshot (GTK_WIDGET (window), "import-gltf-small.png");
      gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
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
  return gui_test_run (app);
}
