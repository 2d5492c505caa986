/* test-gui-archive.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Editing an archive's entries in the real application window. A model file dropped on an
 * archive entry replaces it: xdotool cannot drag a file from another application under Xvfb
 * (there is no file manager to drag from), so the test hands a GFile to the list's own
 * GtkDropTarget ("drop" at the entry's row) in-process. Then real keys through the X server:
 * Ctrl+Z gives back the loaded bytes, Ctrl+Shift+Z the replaced ones, Ctrl+S saves, and the
 * file equals what `mshed-cli archive ARCHIVE replace ENTRY FILE` writes. Every other entry is
 * byte-identical (read here from the directory, docs/nres.md §3). Move up and the status
 * column (valid / errors per model entry) are checked too.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>

#include "gui-test-util.h"
#include "mshed-bytes.h"
#include "test-require.h"

static MshedApplication *app;
static const char *tmpdir;  /* gui_test_dir */

/* The payload of directory entry @index (docs/nres.md §3: the directory is the last
 * 64 × count bytes; size at +12, data_offset at +56, name at +20). */
static GBytes *
payload (GBytes *file,
         guint   index,
         char    name[36])
{
  gsize size;
  const guint8 *p = g_bytes_get_data (file, &size);
  guint32 count = mshed_read_u32 (p + 8);
  const guint8 *rec = p + size - 64 * (gsize) count + 64 * (gsize) index;

  g_assert_cmpuint (index, <, count);
  if (name)
    memcpy (name, rec + 20, 36);
  return g_bytes_new (p + mshed_read_u32 (rec + 56), mshed_read_u32 (rec + 12));
}

static guint
n_entries (GBytes *file)
{
  return mshed_read_u32 ((const guint8 *) g_bytes_get_data (file, NULL) + 8);
}

/* The labels the list shows for entry @index (cells carry their entry), in tree order. */
static void
collect_cells (GtkWidget *widget,
               guint      index,
               GPtrArray *out)
{
  if (GTK_IS_INSCRIPTION (widget) &&
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "mshed-entry-index")) == index + 1)
    g_ptr_array_add (out, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_cells (c, index, out);
}

/* The label of column @column (0 #, 1 name, … 5 status) for entry @index: the cells of one
 * row are laid out in column order. */
static GtkWidget *
find_cell (GtkWidget *list,
           guint      index,
           guint      column)
{
  g_autoptr(GPtrArray) cells = g_ptr_array_new ();

  collect_cells (list, index, cells);
  return column < cells->len ? g_ptr_array_index (cells, column) : NULL;
}

static GtkDropTarget *
drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (c))
        return GTK_DROP_TARGET (c);
    }
  return NULL;
}

static void
run_cli (const char *const *argv)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_assert_true (g_spawn_sync (tmpdir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &wait_status, &error));
  g_assert_no_error (error);
  g_test_message ("%s: %s%s", argv[1], out, err);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
}

static void
test_drop_replace (void)
{
  g_autoptr(GBytes) original = mshed_generate_archive_bytes (21, 4, 300);
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) by_cli = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = gui_test_write (tmpdir, "pack.rlb", original);
  g_autofree char *cli_path = gui_test_write (tmpdir, "cli.rlb", original);
  g_autofree char *model_path = NULL;
  g_autofree char *entry = NULL;
  MshedGenParams params;
  MshedWindow *window;
  MshedNres *nres;
  GtkDropTarget *target;
  GtkWidget *label;
  graphene_point_t p;
  GValue value = G_VALUE_INIT;
  gboolean dropped = FALSE;
  guint m = G_MAXUINT, n;
  char name[36];

  mshed_gen_params_init (&params, 77);
  params.n_nodes = 3;
  model = mshed_generate_model_bytes (&params);
  model_path = gui_test_write (tmpdir, "new.msh", model);

  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (200);
  g_assert_nonnull (window->archive_edit);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->main_stack), ==, "archive");
  nres = mshed_archive_get_nres (window->archive_edit);
  n = mshed_nres_get_n_entries (nres);
  for (guint i = n; i-- > 0;)
    if (mshed_entry_holds_model (mshed_nres_peek_entry (nres, i)))
      m = i;
  g_assert_cmpuint (m, <, n);
  entry = mshed_nres_entry_dup_name (mshed_nres_peek_entry (nres, m));

  /* the status column: every model entry of a generated archive is valid */
  label = find_cell (GTK_WIDGET (window->archive_view), m, 5);
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (label)), ==, "valid");

  /* the drop, at the middle of the entry's name cell */
  label = find_cell (GTK_WIDGET (window->archive_view), m, 1);
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_compute_point (label, GTK_WIDGET (window->archive_view),
                                           &GRAPHENE_POINT_INIT (
                                             gtk_widget_get_width (label) / 2.f,
                                             gtk_widget_get_height (label) / 2.f),
                                           &p));
  target = drop_target (GTK_WIDGET (window->archive_view));
  g_assert_nonnull (target);
  file = g_file_new_for_path (model_path);
  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, file);
  g_signal_emit_by_name (target, "drop", &value, (double) p.x, (double) p.y, &dropped);
  g_value_unset (&value);
  widget_test_iterate (200);
  g_assert_true (dropped);
  g_assert_true (mshed_archive_get_modified (window->archive_edit));
  {
    g_autoptr(GBytes) now = mshed_archive_serialize (window->archive_edit);

    g_assert_cmpuint (n_entries (now), ==, n);
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(GBytes) a = payload (now, i, NULL);
        g_autoptr(GBytes) b = payload (original, i, NULL);

        g_assert_true (g_bytes_equal (a, i == m ? model : b));
      }
  }
  g_assert_nonnull (strstr (gtk_label_get_label (window->title_label), "• "));

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("xdotool is needed for the real Ctrl+Z, Ctrl+Shift+Z and Ctrl+S");
      gui_test_close (window);
      return;
    }
  /* Ctrl+Z: the loaded bytes; Ctrl+Shift+Z: replaced again; Ctrl+S: saved */
  gui_test_focus_window (GTK_WINDOW (window));
  gui_test_key ("ctrl+z");
  {
    g_autoptr(GBytes) now = mshed_archive_serialize (window->archive_edit);

    g_assert_true (g_bytes_equal (now, original));
    g_assert_false (mshed_archive_get_modified (window->archive_edit));
  }
  gui_test_key ("ctrl+shift+z");
  g_assert_true (mshed_archive_get_modified (window->archive_edit));
  gui_test_key ("ctrl+s");
  widget_test_iterate (100);
  g_assert_false (mshed_archive_get_modified (window->archive_edit));

  {
    const char *argv[] = { g_getenv ("MSHED_CLI"), "archive", cli_path, "replace", entry,
                           model_path, NULL };

    run_cli (argv);
  }
  saved = gui_test_file_bytes (path);
  by_cli = gui_test_file_bytes (cli_path);
  g_assert_true (g_bytes_equal (saved, by_cli));
  {
    g_autofree char *bak = g_strconcat (path, ".bak", NULL);
    g_autoptr(GBytes) kept = gui_test_file_bytes (bak);

    g_assert_true (g_bytes_equal (kept, original));
  }

  /* Move Up on the next entry, then undo */
  if (m + 1 < n)
    {
      GtkSelectionModel *sel = gtk_column_view_get_model (window->archive_view);

      gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (sel), m + 1);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.archive-up", NULL);
      widget_test_iterate (100);
      {
        g_autoptr(GBytes) now = mshed_archive_serialize (window->archive_edit);
        g_autoptr(GBytes) a = payload (now, m, name);
        g_autoptr(GBytes) b = payload (saved, m + 1, NULL);

        g_assert_true (g_bytes_equal (a, b));
      }
      g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (
                          gtk_column_view_get_model (window->archive_view))), ==, m);
      g_assert_true (mshed_archive_undo (window->archive_edit));
      widget_test_iterate (50);
    }
  /* MSHED_TEST_SCREENSHOT_DIR: the archive page with its toolbar and status column */
  widget_test_screenshot (GTK_WIDGET (window), "archive-page");
  gui_test_close (window);
}

/* `mshed ARCHIVE:ENTRY` from a shell, relative to the caller's directory, opens that entry:
 * the built app in its own process, found by its window title ("ENTRY — mshed"). */
static void
test_command_line_entry (void)
{
  g_autoptr(GBytes) original = mshed_generate_archive_bytes (5, 3, 200);
  g_autofree char *path = gui_test_write (tmpdir, "cmdline.rlb", original);
  g_autofree char *spec = NULL;
  g_autofree char *xdo = NULL;
  g_autofree char *found = NULL;
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "GSETTINGS_BACKEND", "memory", TRUE);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { g_getenv ("MSHED_APP"), NULL, NULL };
  int status = 0;
  char name[37] = { 0 };
  GPid pid;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  g_assert_nonnull (argv[0]);
  /* entry 0 of a generated archive is a model (the one after it, its WEAR table, is not) */
  g_bytes_unref (payload (original, 0, name));
  spec = g_strdup_printf ("cmdline.rlb:%s", name);
  argv[1] = spec;
  g_assert_true (g_spawn_async (tmpdir, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                NULL, &pid, &error));
  g_assert_no_error (error);
  xdo = g_strdup_printf ("timeout 30 xdotool search --sync --name '^%s — mshed$'", name);
  g_assert_true (g_spawn_command_line_sync (xdo, &found, NULL, &status, NULL));
  kill (pid, SIGTERM);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (found, !=, "");
}

/* The picture column of the entry at @index (it carries its entry like the cells). */
static GtkWidget *
find_picture (GtkWidget *widget,
              guint      index)
{
  if (GTK_IS_PICTURE (widget) &&
      GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "mshed-entry-index")) == index + 1)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_picture (c, index);

      if (found)
        return found;
    }
  return NULL;
}

static guint
count_cached (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "mshed", "thumbnails", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d && (name = g_dir_read_name (d)) != NULL)
    n += g_str_has_suffix (name, ".png");
  return n;
}

/* Every model entry shows its picture, drawn by the thumbnailer and cached; other entries
 * show none. Replacing an entry draws the new model's picture. */
static void
test_thumbnails (void)
{
  g_autoptr(GBytes) original = mshed_generate_archive_bytes (9, 3, 300);
  g_autofree char *path = gui_test_write (tmpdir, "pictures.rlb", original);
  g_autoptr(GBytes) other = NULL;
  g_autoptr(GError) error = NULL;
  GdkPaintable *before;
  MshedGenParams params;
  MshedWindow *window;
  MshedNres *nres;
  guint n, n_models = 0, m = G_MAXUINT, cached;

  gui_test_wait_thumbnails ();  /* what the tests before asked for */
  cached = count_cached ();
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  gui_test_wait_thumbnails ();
  nres = mshed_archive_get_nres (window->archive_edit);
  n = mshed_nres_get_n_entries (nres);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *picture = find_picture (GTK_WIDGET (window->archive_view), i);
      gboolean model = mshed_entry_holds_model (mshed_nres_peek_entry (nres, i));

      g_assert_nonnull (picture);
      g_assert_cmpint (mshed_thumbnail_is_drawn (picture), ==, model);
      if (!model)
        continue;
      g_assert_cmpfloat (gui_test_thumbnail_coverage (picture), >, 0.05);
      n_models++;
      m = MIN (m, i);
    }
  g_assert_cmpuint (n_models, ==, 3);
  g_assert_cmpuint (count_cached (), ==, cached + n_models);

  /* the first model replaced: its row shows the new model */
  before = gtk_picture_get_paintable (GTK_PICTURE (find_picture (
                                        GTK_WIDGET (window->archive_view), m)));
  g_object_ref (before);
  mshed_gen_params_init (&params, 4242);
  params.n_nodes = 6;
  other = mshed_generate_model_bytes (&params);
  g_assert_true (mshed_archive_replace (window->archive_edit, m, other, &error));
  g_assert_no_error (error);
  gui_test_wait_thumbnails ();
  {
    GtkWidget *picture = find_picture (GTK_WIDGET (window->archive_view), m);

    g_assert_true (mshed_thumbnail_is_drawn (picture));
    g_assert_true (gtk_picture_get_paintable (GTK_PICTURE (picture)) != before);
  }
  g_assert_cmpuint (count_cached (), ==, cached + n_models + 1);
  g_object_unref (before);
  widget_test_screenshot (GTK_WIDGET (window), "archive-pictures");
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
  g_test_add_func ("/app/archive/drop-replace", test_drop_replace);
  g_test_add_func ("/app/archive/command-line-entry", test_command_line_entry);
  g_test_add_func ("/app/archive/thumbnails", test_thumbnails);
  return gui_test_run (app);
}
