/* gui-test-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Helpers shared by the tests that drive the real application window (test-gui*.c): sample
 * files, a shown window, its grids, the toplevels it opened, and real input through the X
 * server (xdotool).
 */
#pragma once

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "mshed-application.h"
#include "mshed-generator.h"
#include "mshed-table-view-private.h"
#include "mshed-thumbnails.h"
#include "mshed-window-private.h"
#include "widget-test-util.h"

/* Writes bytes to DIR/NAME; returns the path. */
static inline char *
gui_test_write (const char *dir,
                const char *name,
                GBytes     *bytes)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  return path;
}

static inline GBytes *
gui_test_file_bytes (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

/* Copies the bundled sample (MSHED_SAMPLE) to DIR/NAME. */
static inline char *
gui_test_copy_sample (const char *dir,
                      const char *name)
{
  const char *sample = g_getenv ("MSHED_SAMPLE");
  g_autoptr(GBytes) bytes = NULL;

  g_assert_nonnull (sample);
  bytes = gui_test_file_bytes (sample);
  return gui_test_write (dir, name, bytes);
}

/* A generated model with many rows (far rows exist in every grid) at DIR/NAME. */
static inline char *
gui_test_write_big_model (const char *dir,
                          const char *name,
                          guint       n_triangles)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;

  mshed_gen_params_init (&params, 3);
  params.n_triangles = n_triangles;
  params.n_nodes = 12;
  bytes = mshed_generate_model_bytes (&params);
  return gui_test_write (dir, name, bytes);
}

static inline MshedTableView *
gui_test_grid (MshedWindow  *window,
               MshedTableId  table)
{
  for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
    if (mshed_window_grid_tables[i] == table)
      return window->grids[i];
  g_assert_not_reached ();
  return NULL;
}

/* A new window of @app, 1200x740, shown and drawn. */
static inline MshedWindow *
gui_test_window (MshedApplication *app)
{
  MshedWindow *window = mshed_window_new (app);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 740);
  gtk_window_present (GTK_WINDOW (window));
  while (!gtk_widget_get_mapped (GTK_WIDGET (window)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window)));
  widget_test_iterate (100);
  return window;
}

static inline void
gui_test_close (MshedWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  widget_test_iterate (50);
}

/* The newest toplevel of @type other than @except, or NULL. */
static inline GtkWidget *
gui_test_find_toplevel (GType      type,
                        GtkWidget *except)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* (transfer none) */
  GtkWidget *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && GTK_WIDGET (w) != except &&
          gtk_widget_get_visible (GTK_WIDGET (w)))
        found = GTK_WIDGET (w);
    }
  return found;
}

/* Whether record @row of @grid is shown entirely inside the grid's scrolled area. */
static inline gboolean
gui_test_row_visible (MshedTableView *grid,
                      guint           row)
{
  GtkWidget *cell = _mshed_table_view_find_cell (grid, row, "#");
  GtkWidget *scroller = GTK_WIDGET (grid->scroller);
  graphene_rect_t b;

  if (cell == NULL || !gtk_widget_get_mapped (cell) ||
      !gtk_widget_compute_bounds (cell, scroller, &b))
    return FALSE;
  /* below the column headers, above the bottom edge */
  return b.origin.y >= 0 && b.origin.y + b.size.height <= gtk_widget_get_height (scroller) + 0.5;
}

/* Waits up to @ms for @grid to show @row. */
static inline gboolean
gui_test_wait_row_visible (MshedTableView *grid,
                           guint           row,
                           guint           ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < deadline)
    {
      if (gui_test_row_visible (grid, row))
        return TRUE;
      widget_test_iterate (20);
    }
  return gui_test_row_visible (grid, row);
}

/* With MSHED_TEST_SCREENSHOT_DIR set: @name at the test's size, and NAME-small.png and
 * NAME-large.png at 800x600 and 1600x1000 (run Xvfb with a screen that large). */
static inline void
gui_test_shot_sizes (MshedWindow *window,
                     const char  *name)
{
  static const struct { const char *suffix; int width, height; } sizes[] = {
    { "-small", 800, 600 }, { "-large", 1600, 1000 }, { "", 1200, 740 },
  };
  g_autofree char *base = g_strndup (name, strlen (name) - strlen (".png"));

  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *file = g_strdup_printf ("%s%s.png", base, sizes[i].suffix);

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[i].width, sizes[i].height);
      widget_test_iterate (450);
      widget_test_screenshot (GTK_WIDGET (window), file);
    }
}

/* Waits (up to 10 s) until @widget has kept the same size for 300 ms: a window still laying
 * out (a flow box that wraps, a slow sanitizer build) must not be grabbed mid-way. */
static inline void
gui_test_wait_settled (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  int w = -1, h = -1;
  guint steady = 0;

  while (steady < 6 && g_get_monotonic_time () < deadline)
    {
      widget_test_iterate (50);
      if (gtk_widget_get_width (widget) == w && gtk_widget_get_height (widget) == h)
        steady++;
      else
        steady = 0;
      w = gtk_widget_get_width (widget);
      h = gtk_widget_get_height (widget);
    }
  g_assert_cmpuint (steady, >=, 6);
}

/* @widget's part of @window's composited rendering, as 32-bit pixels (w x h into *@out). */
static inline guint32 *
gui_test_grab (GtkWidget *window,
               GtkWidget *widget,
               int       *out_w,
               int       *out_h)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guint32 *pixels = NULL;
  int w = gtk_widget_get_width (window), h = gtk_widget_get_height (window);
  graphene_rect_t b;
  guint32 *part;
  int bw, bh;

  g_assert_true (gtk_widget_compute_bounds (widget, window, &b));
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  pixels = g_new (guint32, (gsize) w * h);
  gdk_texture_download (texture, (guchar *) pixels, (gsize) w * 4);
  bw = MIN ((int) b.size.width, w - (int) b.origin.x);
  bh = MIN ((int) b.size.height, h - (int) b.origin.y);
  g_assert_cmpint (bw, >, 20);
  g_assert_cmpint (bh, >, 20);
  part = g_new (guint32, (gsize) bw * bh);
  for (int y = 0; y < bh; y++)
    memcpy (part + (gsize) y * bw, pixels + (gsize) (y + (int) b.origin.y) * w + (int) b.origin.x,
            (gsize) bw * 4);
  *out_w = bw;
  *out_h = bh;
  return part;
}

/* Removes @path and, for a folder, everything under it. */
static inline void
gui_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      gui_test_remove_tree (child);
    }
  g_remove (path);
}

/* The start and the end of every GUI test program ------------------------------------------ */

/* A temporary folder of the test program's own, removed at its end. */
static char *gui_test_dir;

/* Sets up the test environment (no accessibility bus, in-memory settings, a private cache so
 * the pictures the windows draw never go into the user's), GLib's tests, GTK and the
 * application, registered. FALSE when there is no display: main returns
 * mshed_test_skip_program () then. */
static inline gboolean
gui_test_init (int                *argc,
               char             ***argv,
               MshedApplication  **app)
{
  g_autofree char *cache = NULL;

  g_setenv ("GTK_A11Y", "none", FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);
  gui_test_dir = g_dir_make_tmp ("mshed-gui-XXXXXX", NULL);
  g_assert_nonnull (gui_test_dir);
  /* before anything asks GLib where the cache is */
  cache = g_build_filename (gui_test_dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (argc, argv, NULL);
  if (!gtk_init_check ())
    {
      g_rmdir (gui_test_dir);
      g_clear_pointer (&gui_test_dir, g_free);
      return FALSE;
    }
  *app = mshed_application_new ();
  g_application_set_flags (G_APPLICATION (*app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (*app), NULL, NULL));
  return TRUE;
}

static inline void gui_test_remove_tree (const char *path);

/* Runs the tests added, then frees the application and the temporary folder. */
static inline int
gui_test_run (MshedApplication *app)
{
  int status = g_test_run ();

  g_object_unref (app);
  gui_test_remove_tree (gui_test_dir);
  g_clear_pointer (&gui_test_dir, g_free);
  return status;
}

/* Thumbnails ----------------------------------------------------------------------------- */

/* Runs the main loop until every picture asked for is drawn (or 60 s pass). */
static inline void
gui_test_wait_thumbnails (void)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  widget_test_iterate (50);
  while (mshed_thumbnails_get_n_pending (mshed_thumbnails_get_default ()) > 0 &&
         g_get_monotonic_time () < end)
    widget_test_iterate (50);
  g_assert_cmpuint (mshed_thumbnails_get_n_pending (mshed_thumbnails_get_default ()), ==, 0);
}

/* The share of @thumbnail's pixels that differ from its top-left corner (the background): a
 * drawn model covers a good part of its picture. */
static inline double
gui_test_thumbnail_coverage (GtkWidget *thumbnail)
{
  GdkTexture *texture = GDK_TEXTURE (gtk_picture_get_paintable (GTK_PICTURE (thumbnail)));
  int w = gdk_texture_get_width (texture), h = gdk_texture_get_height (texture);
  g_autofree guint8 *pixels = g_malloc ((gsize) w * h * 4);
  guint n = 0;

  gdk_texture_download (texture, pixels, (gsize) w * 4);
  for (int i = 0; i < w * h; i++)
    n += memcmp (pixels + 4 * i, pixels, 4) != 0;
  return (double) n / (w * h);
}

/* Real input --------------------------------------------------------------------------- */

static inline gboolean
gui_test_have_xdotool (void)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");

#ifdef GDK_WINDOWING_X11
  return xdotool != NULL && GDK_IS_X11_DISPLAY (gdk_display_get_default ());
#else
  return FALSE;
#endif
}

/* Runs "xdotool ARGS" and lets GTK handle what it sent. */
static inline gboolean
gui_test_xdo (const char *args)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *cmd = NULL;
  int status = 0;

  g_assert_nonnull (xdotool);
  cmd = g_strdup_printf ("%s %s", xdotool, args);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  widget_test_iterate (150);
  return status == 0;
}

/* Runs `mshed-cli ARGS` ($MSHED_CLI) and fails the test when it does not exit with 0. */
static inline void
gui_test_run_cli (const char *args)
{
  g_autofree char *cmd = g_strdup_printf ("%s %s", g_getenv ("MSHED_CLI"), args);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  g_assert_true (g_spawn_command_line_sync (cmd, &out, &err, &status, NULL));
  if (status != 0)
    g_error ("%s failed: %s", cmd, err);
}

/* Gives @window the X input focus, so xdotool's keys (XTEST) reach it. */
static inline void
gui_test_focus_window (GtkWindow *window)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_autofree char *args = g_strdup_printf ("windowfocus --sync %lu",
                                           (gulong) gdk_x11_surface_get_xid (surface));

  g_assert_true (gui_test_xdo (args));
#endif
}

/* Sends key combination @keys (xdotool's names: "F2", "ctrl+f") to the focused window. */
static inline void
gui_test_key (const char *keys)
{
  g_autofree char *args = g_strdup_printf ("key --clearmodifiers %s", keys);

  g_assert_true (gui_test_xdo (args));
}

/* With the keyboard focus on @widget: @n times Ctrl+Z must give back @original (and an
 * unmodified document), then @n times Ctrl+Shift+Z @edited. */
static inline void
gui_test_undo_redo_keys (GtkWidget     *widget,
                         MshedDocument *doc,
                         guint          n,
                         GBytes        *original,
                         GBytes        *edited)
{
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;

  gtk_widget_grab_focus (widget);
  for (guint i = 0; i < n; i++)
    gui_test_key ("ctrl+z");
  undone = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (undone, original));
  g_assert_false (mshed_document_get_modified (doc));
  for (guint i = 0; i < n; i++)
    gui_test_key ("ctrl+shift+z");
  redone = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (redone, edited));
}

/* Moves the pointer to widget point (@x, @y) of @widget in @native (a window, or a popover
 * with its own surface) and clicks @button (1 left, 3 right; 4 and 5 turn the wheel). */
static inline void
gui_test_click_button (GtkNative *native,
                       GtkWidget *widget,
                       double     x,
                       double     y,
                       int        button)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (native);
  graphene_point_t p;
  double sx = 0, sy = 0;
  g_autofree char *args = NULL;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native),
                                           &GRAPHENE_POINT_INIT ((float) x, (float) y), &p));
  gtk_native_get_surface_transform (native, &sx, &sy);
  args = g_strdup_printf ("mousemove --window %lu --sync %d %d click %d",
                          (gulong) gdk_x11_surface_get_xid (surface),
                          (int) (p.x + sx), (int) (p.y + sy), button);
  g_assert_true (gui_test_xdo (args));
#endif
}

/* Moves the pointer to widget point (@x, @y) of @widget in @window and clicks button 1. */
static inline void
gui_test_click (GtkWindow *window,
                GtkWidget *widget,
                double     x,
                double     y)
{
  gui_test_click_button (GTK_NATIVE (window), widget, x, y, 1);
}

/* The widget under @root showing the text @label (a menu item's label, mnemonics dropped). */
static inline GtkWidget *
gui_test_find_label (GtkWidget  *root,
                     const char *label)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root) &&
      g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), label) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = gui_test_find_label (c, label);

      if (found)
        return found;
    }
  return NULL;
}

/* Clicks the item @label of the open popover menu @menu with the pointer. */
static inline void
gui_test_click_menu_item (GtkWidget  *menu,
                          const char *label)
{
  GtkWidget *item = gui_test_find_label (menu, label);

  if (item == NULL)
    g_error ("the menu has no item “%s”", label);
  gui_test_click_button (GTK_NATIVE (menu), item, gtk_widget_get_width (item) / 2.0,
                         gtk_widget_get_height (item) / 2.0, 1);
}
