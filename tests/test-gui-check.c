/* test-gui-check.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Check Folder window in the real application, driven with real keys and clicks
 * (xdotool): Ctrl+Shift+O opens it from the main window, Check runs it on a generated game
 * folder with planted defects (tests/test-cli-util.c, made with mshed-cli), the rows show
 * exactly the planted errors, a double click on one opens that archive entry in the empty
 * main window at the problem (the node grid, record 2), the grouping and the filter work, and
 * Cancel stops a long run within a second. It moves the pointer and the focus, so it runs
 * alone (meson: is_parallel false).
 */
#include "config.h"

#include "gui-test-util.h"
#include "mshed-check-window.h"
#include "test-cli-util.h"
#include "test-require.h"

static MshedApplication *app;

/* Waits up to @ms for the run to end. */
static gboolean
wait_done (MshedCheckWindow *check,
           guint             ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;

  while (mshed_check_window_is_running (check) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  widget_test_iterate (300);
  return !mshed_check_window_is_running (check);
}

static void
click_label (GtkWindow  *window,
             const char *text,
             int         n_clicks)
{
  GtkWidget *label = gui_test_find_label (GTK_WIDGET (window), text);
  graphene_point_t p;
  double sx = 0, sy = 0;
  g_autofree char *args = NULL;

  if (label == NULL)
    g_error ("no label “%s” is shown", text);
  g_assert_true (gtk_widget_compute_point (label, GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (6, 6), &p));
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  args = g_strdup_printf ("mousemove --window %lu --sync %d %d click --repeat %d --delay 80 1",
                          (gulong) gdk_x11_surface_get_xid (
                            gtk_native_get_surface (GTK_NATIVE (window))),
                          (int) (p.x + sx), (int) (p.y + sy), n_clicks);
  g_assert_true (gui_test_xdo (args));
}

/* The number of findings of each group row, one a line. */
static char *
group_sizes (MshedCheckWindow *check)
{
  GListModel *rows = mshed_check_window_get_rows (check);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      GListModel *children = gtk_tree_list_row_get_children (row);

      if (children)
        g_string_append_printf (s, "%u\n", g_list_model_get_n_items (children));
    }
  return g_string_free (s, FALSE);
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type);

      if (found)
        return found;
    }
  return NULL;
}

static MshedCheckWindow *
open_check_window (MshedWindow *window)
{
  GtkWidget *check;

  gui_test_focus_window (GTK_WINDOW (window));
  gui_test_key ("ctrl+shift+o");
  widget_test_iterate (300);
  check = gui_test_find_toplevel (MSHED_TYPE_CHECK_WINDOW, NULL);
  g_assert_nonnull (check);
  gtk_window_set_default_size (GTK_WINDOW (check), 1100, 640);
  widget_test_iterate (200);
  return MSHED_CHECK_WINDOW (check);
}

static void
screenshots (MshedCheckWindow *check,
             const char       *name)
{
  GtkSettings *settings = gtk_settings_get_default ();
  const int sizes[][2] = { { 760, 480 }, { 1280, 800 } };

  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") == NULL)
    return;
  for (guint dark = 0; dark < 2; dark++)
    {
      g_object_set (settings, "gtk-application-prefer-dark-theme", dark, NULL);
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        {
          g_autofree char *file = g_strdup_printf ("check-%s-%dx%d-%s.png", name, sizes[i][0],
                                                   sizes[i][1], dark ? "dark" : "light");

          gtk_window_set_default_size (GTK_WINDOW (check), sizes[i][0], sizes[i][1]);
          widget_test_iterate (400);
          widget_test_screenshot (GTK_WIDGET (check), file);
        }
    }
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (check), 1100, 640);
  widget_test_iterate (300);
}

static void
test_check_and_open (void)
{
  g_autofree char *root = NULL;
  MshedWindow *window;
  MshedCheckWindow *check;
  MshedTableView *nodes;
  GListModel *rows;
  guint selected = G_MAXUINT;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  make_planted_game ("game");
  root = path_in_tmp ("game");
  window = gui_test_window (app);
  check = open_check_window (window);

  /* Check, by a click; the rows are the three files with findings, each a group */
  mshed_check_window_set_folder (check, root);
  widget_test_iterate (100);
  gui_test_focus_window (GTK_WINDOW (check));
  click_label (GTK_WINDOW (check), "Check", 1);
  g_assert_true (wait_done (check, 20000));
  rows = mshed_check_window_get_rows (check);
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "a.msh (1)"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "sub/pack.rlb (1)"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "node-slot"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "slot-batch-range"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "nodes[2].slot5"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "dfm-group-count"));
  {
    g_autofree char *sizes = group_sizes (check);

    /* a.msh, sub/body.dfm (its planted warning and the generator's three notes), pack.rlb */
    g_assert_cmpstr (sizes, ==, "1\n4\n1\n");
  }
  /* each file's group shows the file's picture: a model, a DFM, an archive's first model */
  gui_test_wait_thumbnails ();
  {
    const char *groups[] = { "a.msh (1)", "sub/body.dfm (4)", "sub/pack.rlb (1)" };

    for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
      {
        GtkWidget *label = gui_test_find_label (GTK_WIDGET (check), groups[i]);
        GtkWidget *picture = gtk_widget_get_prev_sibling (label);

        g_assert_true (GTK_IS_PICTURE (picture));
        g_assert_true (mshed_thumbnail_is_drawn (picture));
        g_assert_cmpfloat (gui_test_thumbnail_coverage (picture), >, 0.05);
      }
  }
  screenshots (check, "by-file");

  /* a double click on the node-slot row opens Hangar_1.MSH in the empty main window, with
   * record 2 of the node grid selected */
  click_label (GTK_WINDOW (check), "nodes[2].slot5", 2);
  widget_test_iterate (800);
  g_assert_nonnull (mshed_window_get_document (window));
  nodes = gui_test_grid (window, MSHED_TABLE_NODES);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (nodes)));
  g_assert_true (mshed_table_view_get_selected_row (nodes, &selected));
  g_assert_cmpuint (selected, ==, 2);
  g_assert_nonnull (strstr (gtk_label_get_text (window->title_label), "Hangar_1.MSH"));

  /* by check: one group per check; the filter keeps only what matches */
  gtk_window_present (GTK_WINDOW (check));
  widget_test_iterate (200);
  gui_test_focus_window (GTK_WINDOW (check));
  click_label (GTK_WINDOW (check), "By Check", 1);
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "node-slot (1)"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "slot-batch-range (1)"));
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "sub/pack.rlb"));
  screenshots (check, "by-check");
  gtk_widget_grab_focus (find_widget (GTK_WIDGET (check), GTK_TYPE_SEARCH_ENTRY));
  gui_test_xdo ("type --delay 30 batch-range");
  widget_test_iterate (600);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check), "slot-batch-range (1)"));

  gtk_window_destroy (GTK_WINDOW (check));
  widget_test_iterate (100);
  gui_test_close (window);
}

/* Cancel on a folder of many models (links to one large model: checking a file takes a
 * fraction of a millisecond, so a run that lasts needs thousands): the run ends within a
 * second, with partial results. */
static void
test_cancel (void)
{
  MshedGenParams params;
  g_autoptr(GBytes) model = NULL;
  g_autofree char *root = path_in_tmp ("many");
  g_autofree char *target = NULL;
  MshedWindow *window;
  MshedCheckWindow *check;
  gint64 clicked;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (root, 0755), ==, 0);
  mshed_gen_params_init (&params, 12);
  params.n_triangles = 200000;
  model = mshed_generate_model_bytes (&params);
  target = gui_test_write (root, "model.bin", model);
  for (guint i = 0; i < 8000; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/m%04u.msh", root, i);
      g_autoptr(GFile) link = g_file_new_for_path (name);

      g_assert_true (g_file_make_symbolic_link (link, target, NULL, NULL));
    }
  window = gui_test_window (app);
  check = open_check_window (window);
  mshed_check_window_set_folder (check, root);
  gui_test_focus_window (GTK_WINDOW (check));
  click_label (GTK_WINDOW (check), "Check", 1);
  g_assert_true (mshed_check_window_is_running (check));
  widget_test_screenshot (GTK_WIDGET (check), "check-running.png");
  click_label (GTK_WINDOW (check), "Cancel", 1);
  clicked = g_get_monotonic_time ();
  while (mshed_check_window_is_running (check)
         && g_get_monotonic_time () - clicked < 5 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpint (g_get_monotonic_time () - clicked, <, G_USEC_PER_SEC);
  widget_test_iterate (200);
  g_assert_nonnull (gui_test_find_label (GTK_WIDGET (check),
                                         "Cancelled: the results are partial"));
  gtk_window_destroy (GTK_WINDOW (check));
  widget_test_iterate (100);
  gui_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");
  if (!cli_test_init ())
    return 77;
  g_test_add_func ("/app/check-folder/check-and-open", test_check_and_open);
  g_test_add_func ("/app/check-folder/cancel", test_cancel);
  status = gui_test_run (app);
  cli_test_finish (status);
  return status;
}
