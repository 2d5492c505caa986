/* test-gui-utf-tree.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Editing the UTF tree in the real application window under Xvfb: with real keys (xdotool)
 * a subtree is copied (Ctrl+C) from file A and pasted (Ctrl+V) into file B, where the name
 * collision makes "NAME (2)" (docs/conventions.md); B saved with Ctrl+S holds what the document
 * API alone makes of the same paste, and Ctrl+Z gives B's bytes back. A clipboard without a
 * subtree is refused with a message. The context menu (a real right click) copies too.
 * Drag to move is driven through the rows' drag source and drop target handlers: pointer drag
 * and drop through XTEST is not reliable under Xvfb. A row dragged onto another window's tree
 * is copied there as a paste would be. A leaf's payload is exported to a
 * file and imported from one; undo restores the exact bytes. The typed leaf editor edits a
 * float with real keys and adds an element; undo restores the exact bytes.
 * With MSHED_TEST_SCREENSHOT_DIR=DIR set it also saves pictures of the views there.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test-util.h"
#include "mshed-dfm-generator.h"
#include "mshed-utf-clip.h"
#include "test-require.h"

static MshedApplication *app;

#define TEXTURES "\\Texture library"

/* A generated head (seed @seed) written to DIR/NAME. */
static char *
write_head (const char *dir,
            const char *name,
            guint64     seed,
            GBytes    **out_bytes)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, seed);
  bytes = mshed_dfm_generate_bytes (&params);
  if (out_bytes != NULL)
    *out_bytes = g_bytes_ref (bytes);
  return gui_test_write (dir, name, bytes);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* With MSHED_TEST_SCREENSHOT_DIR set: NAME-small.png and NAME-large.png. */
static void
shot (MshedWindow *window,
      const char  *name)
{
  static const struct { const char *suffix; int width, height; } sizes[] = {
    { "-small", 800, 600 }, { "-large", 1600, 1000 },
  };

  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *file = g_strdup_printf ("%s%s.png", name, sizes[i].suffix);

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[i].width, sizes[i].height);
      widget_test_iterate (450);
      widget_test_screenshot (GTK_WIDGET (window), file);
    }
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 740);
  widget_test_iterate (200);
}

static MshedUtfNode *
lookup (MshedWindow *window,
        const char  *path)
{
  return mshed_utf_lookup (mshed_document_get_utf (mshed_window_get_document (window)), path);
}

/* Focuses @window's tree on @node, as a click would. */
static void
focus_node (MshedWindow  *window,
            MshedUtfNode *node)
{
  gui_test_focus_window (GTK_WINDOW (window));
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, node));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (window->utf_tree)));
  widget_test_iterate (50);
}

/* Waits for the tree's clipboard read to finish. */
static void
wait_paste (MshedUtfTree *tree,
            guint         before)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (mshed_utf_tree_get_n_pastes_done (tree) == before &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (mshed_utf_tree_get_n_pastes_done (tree), ==, before + 1);
  widget_test_iterate (50);
}

/* What the document API alone makes of pasting A's Texture library into B's root. */
static GBytes *
expected_paste (GBytes     *a_bytes,
                const char *b_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedUtf) a = mshed_utf_parse (a_bytes, MSHED_MODE_STRICT, NULL, &error);
  g_autoptr(MshedDocument) b = mshed_document_open (b_path, MSHED_MODE_STRICT, &error);
  MshedUtfNode *node;
  g_autoptr(GBytes) clip = NULL;

  g_assert_no_error (error);
  node = mshed_utf_lookup (a, TEXTURES);
  clip = mshed_utf_clip_serialize (&node, 1, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_utf_clip_paste (b, mshed_utf_get_root (mshed_document_get_utf (b)), clip,
                                       NULL, &error));
  g_assert_no_error (error);
  return mshed_document_serialize_file (b);
}

static void
test_copy_paste (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-utf-XXXXXX", NULL);
  g_autoptr(GBytes) a_bytes = NULL, b_bytes = NULL, saved = NULL, expected = NULL;
  g_autofree char *a_path = NULL, *b_path = NULL, *reference = NULL;
  MshedWindow *wa, *wb;
  MshedDocument *b;
  MshedUtfNode *pasted, *a_tex;
  GdkClipboard *clipboard;
  guint done;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  a_path = write_head (dir, "a.dfm", 3, &a_bytes);
  b_path = write_head (dir, "b.dfm", 5, &b_bytes);
  reference = write_head (dir, "reference.dfm", 5, NULL);
  wa = gui_test_window (app);
  g_assert_true (mshed_window_open (wa, a_path));
  wb = gui_test_window (app);
  g_assert_true (mshed_window_open (wb, b_path));
  widget_test_iterate (300);
  b = mshed_window_get_document (wb);

  /* Ctrl+C in A: the subtree as a UTF file, and the paths as text */
  a_tex = lookup (wa, TEXTURES);
  g_assert_nonnull (a_tex);
  focus_node (wa, a_tex);
  gui_test_key ("ctrl+c");
  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (wa->utf_tree));
  g_assert_true (gdk_content_formats_contain_mime_type (gdk_clipboard_get_formats (clipboard),
                                                        MSHED_UTF_CLIP_MIME_TYPE));
  g_assert_true (gdk_content_formats_contain_mime_type (gdk_clipboard_get_formats (clipboard),
                                                        "text/plain;charset=utf-8"));

  /* Ctrl+V in B on the root: "Texture library (2)" at the end of the root */
  focus_node (wb, mshed_utf_get_root (mshed_document_get_utf (b)));
  done = mshed_utf_tree_get_n_pastes_done (wb->utf_tree);
  gui_test_key ("ctrl+v");
  wait_paste (wb->utf_tree, done);
  pasted = lookup (wb, TEXTURES " (2)");
  g_assert_nonnull (pasted);
  g_assert_true (mshed_utf_tree_get_selected (wb->utf_tree) == pasted);
  g_assert_cmpuint (mshed_utf_node_get_n_children (pasted), ==,
                    mshed_utf_node_get_n_children (a_tex));
  g_assert_null (gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL));
  shot (wb, "utf-tree-paste");

  /* one undo step gives B's bytes back; redo, save, compare with the document alone */
  gui_test_key ("ctrl+z");
  {
    g_autoptr(GBytes) undone = mshed_document_serialize_file (b);

    g_assert_true (g_bytes_equal (undone, b_bytes));
  }
  gui_test_key ("ctrl+shift+z");
  g_assert_nonnull (lookup (wb, TEXTURES " (2)"));
  gui_test_key ("ctrl+s");
  widget_test_iterate (200);
  g_assert_false (mshed_document_get_modified (b));
  saved = gui_test_file_bytes (b_path);
  expected = expected_paste (a_bytes, reference);
  g_assert_true (g_bytes_equal (saved, expected));

  /* a clipboard with text only: refused with a message, nothing changed */
  gdk_clipboard_set_text (clipboard, "\\Texture library\\");
  widget_test_iterate (50);
  focus_node (wb, lookup (wb, TEXTURES));
  done = mshed_utf_tree_get_n_pastes_done (wb->utf_tree);
  gui_test_key ("ctrl+v");
  wait_paste (wb->utf_tree, done);
  {
    GtkWidget *dialog = gui_test_find_toplevel (GTK_TYPE_MESSAGE_DIALOG, NULL);

    g_assert_nonnull (dialog);
    g_assert_false (mshed_document_get_modified (b));
    g_assert_null (lookup (wb, TEXTURES " (3)"));
    gtk_window_destroy (GTK_WINDOW (dialog));
    widget_test_iterate (50);
  }

  /* within one file, from the context menu: a real right click on a row of B, "Copy" */
  gui_test_close (wa);
  {
    GtkPopover *menu = mshed_utf_tree_get_context_menu (wb->utf_tree);
    MshedUtfNode *points = lookup (wb, "\\MultiLevel\\Mesh0\\Geometry\\Points");
    GtkWidget *label;

    focus_node (wb, lookup (wb, TEXTURES));
    focus_node (wb, points);
    widget_test_iterate (200);
    label = gui_test_find_label (GTK_WIDGET (wb->utf_tree), "Points");
    g_assert_nonnull (label);
    gui_test_click_button (GTK_NATIVE (wb), label, 5, gtk_widget_get_height (label) / 2.0, 3);
    widget_test_iterate (200);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (menu)));
    g_assert_true (mshed_utf_tree_get_selected (wb->utf_tree) == points);
    /* the popover is a surface of its own: its own picture */
    if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") != NULL)
      widget_test_screenshot (GTK_WIDGET (menu), "utf-tree-menu.png");
    gui_test_click_menu_item (GTK_WIDGET (menu), "Copy");
    widget_test_iterate (100);
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  }
  focus_node (wb, lookup (wb, "\\MultiLevel"));
  done = mshed_utf_tree_get_n_pastes_done (wb->utf_tree);
  gui_test_key ("ctrl+v");
  wait_paste (wb->utf_tree, done);
  g_assert_nonnull (lookup (wb, "\\MultiLevel\\Points"));

  gui_test_close (wb);
  remove_dir (dir);
}

/* The row (the box under the label showing @name in @window's tree) and its controller of
 * @type. */
static GtkEventController *
row_controller (MshedWindow  *window,
                const char   *name,
                GType         type,
                GtkWidget   **out_row)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  GtkWidget *label;
  GtkWidget *row;
  g_autoptr(GListModel) controllers = NULL;

  /* the rows are bound once the list has its size */
  while ((label = gui_test_find_label (GTK_WIDGET (window->utf_tree), name)) == NULL &&
         g_get_monotonic_time () < deadline)
    widget_test_iterate (20);
  g_assert_nonnull (label);
  /* label -> expander -> the row's box, which holds the drag source and the drop target */
  row = gtk_widget_get_parent (gtk_widget_get_parent (label));
  if (out_row != NULL)
    *out_row = row;
  controllers = gtk_widget_observe_controllers (row);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return GTK_EVENT_CONTROLLER (c);  /* the row keeps it */
    }
  g_assert_not_reached ();
}

/* What the drag source of the row showing @name hands out when a drag starts there. */
static MshedUtfTreeDrag *
drag_row (MshedWindow *window,
          const char  *name)
{
  GtkEventController *source = row_controller (window, name, GTK_TYPE_DRAG_SOURCE, NULL);
  g_autoptr(GdkContentProvider) provider = NULL;
  GValue value = G_VALUE_INIT;
  MshedUtfTreeDrag *drag;

  g_signal_emit_by_name (source, "prepare", 4.0, 4.0, &provider);
  g_assert_nonnull (provider);
  g_value_init (&value, MSHED_TYPE_UTF_TREE_DRAG);
  g_assert_true (gdk_content_provider_get_value (provider, &value, NULL));
  drag = g_value_dup_boxed (&value);
  g_value_unset (&value);
  g_assert_nonnull (drag);
  return drag;
}

/* The drop handler of the row showing @name: a drop of @drag at height @fraction of the row. */
static gboolean
drop_drag_on_row (MshedWindow      *window,
                  const char       *name,
                  MshedUtfTreeDrag *drag,
                  double            fraction)
{
  GtkWidget *row = NULL;
  GtkEventController *target = row_controller (window, name, GTK_TYPE_DROP_TARGET, &row);
  GValue value = G_VALUE_INIT;
  gboolean ok = FALSE;

  g_value_init (&value, MSHED_TYPE_UTF_TREE_DRAG);
  g_value_set_boxed (&value, drag);
  g_signal_emit_by_name (target, "drop", &value, 4.0, gtk_widget_get_height (row) * fraction,
                         &ok);
  g_value_unset (&value);
  widget_test_iterate (50);
  return ok;
}

/* A drop of @node of @window's own tree on the row showing @name. */
static gboolean
drop_on_row (MshedWindow  *window,
             const char   *name,
             MshedUtfNode *node,
             double        fraction)
{
  g_autoptr(MshedUtfTreeDrag) drag = mshed_utf_tree_drag_new (mshed_window_get_document (window),
                                                              node, NULL);

  g_assert_nonnull (drag);
  return drop_drag_on_row (window, name, drag, fraction);
}

static void
test_drag_move (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-utf-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, "move.dfm", 3, &bytes);
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  MshedUtfNode *root, *tex, *multi, *first;
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  root = mshed_utf_get_root (mshed_document_get_utf (doc));
  tex = lookup (window, TEXTURES);
  multi = lookup (window, "\\MultiLevel");
  first = mshed_utf_node_get_first_child (root);
  g_assert_true (first != tex);

  /* on the top quarter of the first row: before it */
  g_assert_true (drop_on_row (window, mshed_utf_node_get_name (first), tex, 0.1));
  g_assert_true (mshed_utf_node_get_first_child (root) == tex);
  /* on the middle of a directory's row: into it, last */
  g_assert_true (drop_on_row (window, "MultiLevel", tex, 0.5));
  g_assert_true (mshed_utf_node_get_parent (tex) == multi);
  g_assert_true (mshed_utf_node_get_nth_child (multi, mshed_utf_node_get_n_children (multi) - 1)
                 == tex);
  /* into its own subtree: refused, nothing moves */
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, lookup (window,
                                                                       "\\MultiLevel\\Mesh0")));
  widget_test_iterate (100);
  g_assert_false (drop_on_row (window, "Mesh0", multi, 0.5));
  g_assert_false (mshed_utf_tree_drop_node (window->utf_tree, multi, multi,
                                            MSHED_UTF_DROP_INTO, &error));
  g_assert_nonnull (error);
  g_assert_true (mshed_utf_node_get_parent (multi) == root);
  shot (window, "utf-tree-moved");

  /* each drop one undo step */
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_utf_node_get_first_child (root) == tex);
  g_assert_true (mshed_document_undo (doc));
  {
    g_autoptr(GBytes) undone = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (undone, bytes));
  }
  gui_test_close (window);
  remove_dir (dir);
}

/* A row of file A dragged (its real drag source) onto the tree of file B in another window:
 * a copy there, A unchanged; a name taken in B becomes "NAME (2)" (docs/conventions.md); each
 * drop one undo step of B; inside A the same drag still moves. */
static void
test_drag_between_windows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-utf-XXXXXX", NULL);
  g_autoptr(GBytes) a_bytes = NULL, b_bytes = NULL, got = NULL, expected = NULL;
  g_autofree char *a_path = write_head (dir, "a.dfm", 3, &a_bytes);
  g_autofree char *b_path = write_head (dir, "b.dfm", 5, &b_bytes);
  g_autoptr(MshedUtfTreeDrag) drag = NULL;
  g_autoptr(MshedDocument) reference = NULL;
  g_autoptr(GBytes) clip = NULL;
  g_autoptr(GError) error = NULL;
  MshedWindow *wa = gui_test_window (app), *wb = gui_test_window (app);
  MshedDocument *a, *b;
  MshedUtfNode *a_tex, *copied, *b_root, *ref_root;

  g_assert_true (mshed_window_open (wa, a_path));
  g_assert_true (mshed_window_open (wb, b_path));
  widget_test_iterate (300);
  a = mshed_window_get_document (wa);
  b = mshed_window_get_document (wb);
  a_tex = lookup (wa, TEXTURES);
  b_root = mshed_utf_get_root (mshed_document_get_utf (b));

  /* before B's own Texture library (the top of its row): the name is taken */
  drag = drag_row (wa, "Texture library");
  g_assert_true (drop_drag_on_row (wb, "Texture library", drag, 0.1));
  copied = lookup (wb, TEXTURES " (2)");
  g_assert_nonnull (copied);
  g_assert_true (mshed_utf_tree_get_selected (wb->utf_tree) == copied);
  g_assert_cmpuint (mshed_utf_node_get_index (copied) + 1, ==,
                    mshed_utf_node_get_index (lookup (wb, TEXTURES)));
  g_assert_cmpuint (mshed_utf_node_get_n_children (copied), ==,
                    mshed_utf_node_get_n_children (a_tex));
  /* into B's MultiLevel (the middle of its row): at its end */
  g_assert_true (mshed_utf_tree_select_node (wb->utf_tree, lookup (wb, "\\MultiLevel")));
  g_assert_true (drop_drag_on_row (wb, "MultiLevel", drag, 0.5));
  copied = lookup (wb, "\\MultiLevel" TEXTURES);
  g_assert_nonnull (copied);
  g_assert_cmpuint (mshed_utf_node_get_index (copied) + 1, ==,
                    mshed_utf_node_get_n_children (lookup (wb, "\\MultiLevel")));
  /* A: not a byte changed, nothing to undo */
  g_assert_false (mshed_document_can_undo (a));
  got = mshed_document_serialize_file (a);
  g_assert_true (g_bytes_equal (got, a_bytes));
  g_clear_pointer (&got, g_bytes_unref);

  /* B holds what two pastes of A's subtree make with the document API alone */
  reference = mshed_document_open (b_path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  clip = mshed_utf_clip_serialize (&a_tex, 1, &error);
  g_assert_no_error (error);
  ref_root = mshed_utf_get_root (mshed_document_get_utf (reference));
  g_assert_true (mshed_utf_clip_paste_at (reference, ref_root,
                                          mshed_utf_node_get_index (
                                            mshed_utf_node_lookup (ref_root, "Texture library")),
                                          clip, NULL, &error));
  g_assert_true (mshed_utf_clip_paste_at (reference, mshed_utf_node_lookup (ref_root,
                                                                            "MultiLevel"),
                                          G_MAXUINT, clip, NULL, &error));
  g_assert_no_error (error);
  expected = mshed_document_serialize_file (reference);
  got = mshed_document_serialize_file (b);
  g_assert_true (g_bytes_equal (got, expected));
  g_clear_pointer (&got, g_bytes_unref);
  shot (wb, "utf-tree-drop-copy");

  /* one undo step each */
  g_assert_true (mshed_document_undo (b));
  g_assert_null (lookup (wb, "\\MultiLevel" TEXTURES));
  g_assert_nonnull (lookup (wb, TEXTURES " (2)"));
  g_assert_true (mshed_document_undo (b));
  got = mshed_document_serialize_file (b);
  g_assert_true (g_bytes_equal (got, b_bytes));
  g_clear_pointer (&got, g_bytes_unref);
  g_assert_true (b_root == mshed_utf_get_root (mshed_document_get_utf (b)));

  /* the same drag inside A: a move before A's first node, no copy */
  g_assert_true (drop_drag_on_row (wa, mshed_utf_node_get_name (
                                     mshed_utf_node_get_first_child (mshed_utf_get_root (
                                       mshed_document_get_utf (a)))), drag, 0.1));
  g_assert_true (mshed_utf_node_get_first_child (mshed_utf_get_root (mshed_document_get_utf (a)))
                 == a_tex);
  g_assert_null (lookup (wa, TEXTURES " (2)"));
  g_assert_true (mshed_document_undo (a));
  got = mshed_document_serialize_file (a);
  g_assert_true (g_bytes_equal (got, a_bytes));

  gui_test_close (wa);
  gui_test_close (wb);
  remove_dir (dir);
}

static void
test_import_export (void)
{
  static const guint8 point[12] = { 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40 };
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-utf-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, "leaf.dfm", 3, &bytes);
  g_autofree char *out_path = g_build_filename (dir, "points.bin", NULL);
  g_autofree char *in_path = g_build_filename (dir, "one-point.bin", NULL);
  g_autoptr(GFile) out = g_file_new_for_path (out_path);
  g_autoptr(GFile) in = g_file_new_for_path (in_path);
  g_autoptr(GBytes) exported = NULL;
  g_autoptr(GError) error = NULL;
  MshedWindow *window = gui_test_window (app);
  MshedDocument *doc;
  MshedUtfNode *points;
  const guint8 *data;
  gsize size = 0;

  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  points = lookup (window, "\\MultiLevel\\Mesh0\\Geometry\\Points");

  /* a directory holds no data */
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, lookup (window, "\\MultiLevel")));
  g_assert_false (mshed_utf_tree_export_file (window->utf_tree, out, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, points));
  g_assert_true (mshed_utf_tree_export_file (window->utf_tree, out, &error));
  g_assert_no_error (error);
  exported = gui_test_file_bytes (out_path);
  data = mshed_utf_node_peek_data (points, &size);
  g_assert_cmpmem (g_bytes_get_data (exported, NULL), g_bytes_get_size (exported), data, size);
  g_assert_false (mshed_document_get_modified (doc));

  g_assert_true (g_file_set_contents (in_path, (const char *) point, sizeof point, NULL));
  g_assert_true (mshed_utf_tree_import_file (window->utf_tree, in, &error));
  g_assert_no_error (error);
  data = mshed_utf_node_peek_data (points, &size);
  g_assert_cmpmem (data, size, point, sizeof point);
  g_assert_true (mshed_document_undo (doc));
  {
    g_autoptr(GBytes) undone = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (undone, bytes));
  }
  gui_test_close (window);
  remove_dir (dir);
}

/* The typed kinds of well-known leaves of a UTF file that is no DFM (hand-made vectors). */
static void
test_leaf_kinds (void)
{
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  g_autoptr(MshedDocument) doc = NULL;
  MshedUtfNode *root = mshed_utf_get_root (utf);
  static const struct { const char *name; const char *data; gsize len; MshedUtfLeafKind kind;
                        gboolean resizable; } leaves[] = {
    { "Dc", "\0\0\x80\x3f\0\0\x80\x3f\0\0\x80\x3f", 12, MSHED_UTF_LEAF_COLOUR, TRUE },
    { "Ec", "0123456789abcdef", 16, MSHED_UTF_LEAF_COLOUR, TRUE },
    { "Dc_odd", "\0\0\x80\x3f", 4, MSHED_UTF_LEAF_UNTYPED, FALSE },
    { "Position", "0123456789ab", 12, MSHED_UTF_LEAF_VECTOR, FALSE },
    { "Position2", "0123456789ab", 12, MSHED_UTF_LEAF_UNTYPED, FALSE },
    { "Type", "DcDt\0", 5, MSHED_UTF_LEAF_STRING, FALSE },
    { "Raw", "\x01\x02\0", 3, MSHED_UTF_LEAF_UNTYPED, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      g_autoptr(GBytes) data = g_bytes_new (leaves[i].data, leaves[i].len);

      g_assert_true (mshed_utf_insert_child (utf, root, G_MAXUINT,
                                             mshed_utf_node_new_file (utf, leaves[i].name, data),
                                             NULL));
    }
  doc = mshed_document_new_for_utf (utf, MSHED_MODE_TOLERANT);
  root = mshed_utf_get_root (mshed_document_get_utf (doc));
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      gboolean resizable = !leaves[i].resizable;
      MshedUtfNode *node = mshed_utf_node_lookup (root, leaves[i].name);

      g_test_message ("%s", leaves[i].name);
      g_assert_cmpint (mshed_utf_leaf_kind_for_node (doc, node, &resizable), ==, leaves[i].kind);
      g_assert_cmpint (resizable, ==, leaves[i].resizable);
    }
  g_assert_cmpint (mshed_utf_leaf_kind_for_node (doc, root, NULL), ==, MSHED_UTF_LEAF_UNTYPED);
}

static void
select_in_window (MshedWindow  *window,
                  MshedUtfNode *node)
{
  g_assert_true (mshed_utf_tree_select_node (window->utf_tree, node));
  g_signal_emit_by_name (window->utf_tree, "node-selected", node);
  widget_test_iterate (100);
}

/* The typed editor in the window: Level fractions (docs/dfm.md §5.1, floats) edited with real
 * keys, an element added with +; the Exporter Version as text; undo restores the bytes. */
static void
test_typed_editor (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-utf-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, "typed.dfm", 3, &bytes);
  MshedWindow *window;
  MshedDocument *doc;
  MshedUtfNode *fractions;
  MshedUtfLeafEditor *editor;
  GtkEditable *entry;
  const guint8 *data;
  gsize size = 0, old_size = 0;
  g_autofree guint8 *old = NULL;

  if (!gui_test_have_xdotool ())
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  gui_test_focus_window (GTK_WINDOW (window));
  doc = mshed_window_get_document (window);
  editor = window->leaf_editor;
  fractions = lookup (window, "\\MultiLevel\\Fractions");
  g_assert_nonnull (fractions);
  data = mshed_utf_node_peek_data (fractions, &old_size);
  old = g_memdup2 (data, old_size);
  g_assert_cmpuint (old_size, >=, 4);

  select_in_window (window, fractions);
  gtk_notebook_set_current_page (window->side_notebook,
                                 gtk_notebook_page_num (window->side_notebook,
                                                        GTK_WIDGET (editor)));
  widget_test_iterate (100);
  g_assert_cmpint (mshed_utf_leaf_editor_get_kind (editor), ==, MSHED_UTF_LEAF_FLOAT);
  entry = mshed_utf_leaf_editor_get_entry (editor, 0);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (entry)));
  widget_test_iterate (50);
  gui_test_key ("ctrl+a");
  gui_test_xdo ("type --delay 10 '0.5'");
  gui_test_key ("Return");
  /* 0.5f = 0x3F000000, little-endian; the rest unchanged */
  data = mshed_utf_node_peek_data (fractions, &size);
  g_assert_cmpuint (size, ==, old_size);
  g_assert_cmpmem (data, 4, "\0\0\0\x3f", 4);
  g_assert_cmpmem (data + 4, size - 4, old + 4, old_size - 4);
  g_assert_cmpstr (gtk_editable_get_text (mshed_utf_leaf_editor_get_entry (editor, 0)), ==,
                   "0.5");
  shot (window, "utf-typed-editor");
  /* one undo step: the exact bytes, and the entry shows them */
  g_assert_true (mshed_document_undo (doc));
  data = mshed_utf_node_peek_data (fractions, &size);
  g_assert_cmpmem (data, size, old, old_size);
  {
    g_autoptr(GBytes) undone = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (undone, bytes));
  }

  /* not a number: refused, nothing changes */
  entry = mshed_utf_leaf_editor_get_entry (editor, 0);
  gtk_editable_set_text (entry, "zero");
  g_signal_emit_by_name (entry, "activate");
  g_assert_false (mshed_document_can_undo (doc));

  /* + adds a 0 at the end, one undo step */
  {
    GtkWidget *plus = NULL;

    for (GtkWidget *w = GTK_WIDGET (editor); w != NULL && plus == NULL;)
      {
        /* depth first through the editor for the button with the add icon */
        GtkWidget *next = gtk_widget_get_first_child (w);

        if (GTK_IS_BUTTON (w) && gtk_widget_get_tooltip_text (w) != NULL &&
            strstr (gtk_widget_get_tooltip_text (w), "Add") != NULL)
          plus = w;
        while (next == NULL && w != GTK_WIDGET (editor))
          {
            next = gtk_widget_get_next_sibling (w);
            if (next == NULL)
              w = gtk_widget_get_parent (w);
          }
        w = next;
      }
    g_assert_nonnull (plus);
    g_assert_true (gtk_widget_get_mapped (plus));
    /* the focus scrolls the button into view */
    g_assert_true (gtk_widget_grab_focus (plus));
    widget_test_iterate (200);
    gui_test_click (GTK_WINDOW (window), plus, gtk_widget_get_width (plus) / 2.0,
                    gtk_widget_get_height (plus) / 2.0);
    data = mshed_utf_node_peek_data (fractions, &size);
    g_assert_cmpuint (size, ==, old_size + 4);
    g_assert_cmpmem (data + old_size, 4, "\0\0\0\0", 4);
    g_assert_true (mshed_document_undo (doc));
  }

  /* a string leaf */
  select_in_window (window, lookup (window, "\\Exporter Version"));
  g_assert_cmpint (mshed_utf_leaf_editor_get_kind (editor), ==, MSHED_UTF_LEAF_STRING);
  /* a directory: no editor */
  select_in_window (window, lookup (window, "\\MultiLevel"));
  g_assert_cmpint (mshed_utf_leaf_editor_get_kind (editor), ==, MSHED_UTF_LEAF_UNTYPED);
  g_assert_null (mshed_utf_leaf_editor_get_entry (editor, 0));
  g_assert_false (mshed_document_get_modified (doc));
  gui_test_close (window);
  remove_dir (dir);
}

/* The colour picker of a material's Dc (docs/dfm.md: 3 floats; docs/conventions.md "Typed UTF
 * leaves"): a colour set through the picker is one undo step with the exact float bytes, the
 * picker follows undo; with an alpha (4 floats) the alpha is written too. */
static void
test_colour_picker (void)
{
  static const guint8 rgb[12] = { 0, 0, 0x80, 0x3e, 0, 0, 0, 0x3f, 0, 0, 0x80, 0x3f };
  static const guint8 white[12] = { 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f };
  static const guint8 alpha[4] = { 0, 0, 0x40, 0x3f };
  const GdkRGBA pick = { 0.25f, 0.5f, 1.0f, 0.75f };
  g_autofree char *dir = g_dir_make_tmp ("mshed-gui-utf-XXXXXX", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = write_head (dir, "colour.dfm", 3, &bytes);
  MshedWindow *window = gui_test_window (app);
  MshedUtfLeafEditor *editor = window->leaf_editor;
  MshedDocument *doc;
  MshedUtfNode *dc;
  GtkColorChooser *picker;
  GdkRGBA shown;
  const guint8 *data;
  gsize size = 0;

  g_assert_true (mshed_window_open (window, path));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  dc = NULL;
  for (MshedUtfNode *m = mshed_utf_node_get_first_child (lookup (window, "\\Material library"));
       m != NULL && dc == NULL; m = mshed_utf_node_get_next (m))
    dc = mshed_utf_node_is_directory (m) ? mshed_utf_node_lookup (m, "Dc") : NULL;
  g_assert_nonnull (dc);
  data = mshed_utf_node_peek_data (dc, &size);
  g_assert_cmpmem (data, size, white, sizeof white);

  select_in_window (window, dc);
  gtk_notebook_set_current_page (window->side_notebook,
                                 gtk_notebook_page_num (window->side_notebook,
                                                        GTK_WIDGET (editor)));
  widget_test_iterate (100);
  g_assert_cmpint (mshed_utf_leaf_editor_get_kind (editor), ==, MSHED_UTF_LEAF_COLOUR);
  picker = mshed_utf_leaf_editor_get_colour_button (editor);
  g_assert_nonnull (picker);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (picker)));
  g_assert_false (gtk_color_chooser_get_use_alpha (picker));
  shot (window, "utf-colour-picker");

  /* 0.25, 0.5, 1 as little-endian floats; no alpha in a 3-float colour */
  gtk_color_chooser_set_rgba (picker, &pick);
  widget_test_iterate (50);
  data = mshed_utf_node_peek_data (dc, &size);
  g_assert_cmpmem (data, size, rgb, sizeof rgb);
  g_assert_true (mshed_document_undo (doc));
  data = mshed_utf_node_peek_data (dc, &size);
  g_assert_cmpmem (data, size, white, sizeof white);
  g_assert_false (mshed_document_can_undo (doc));
  picker = mshed_utf_leaf_editor_get_colour_button (editor);
  gtk_color_chooser_get_rgba (picker, &shown);
  g_assert_cmpfloat (shown.red, ==, 1.0f);
  g_assert_cmpfloat (shown.green, ==, 1.0f);

  /* with an alpha: four floats */
  g_assert_true (mshed_document_redo (doc));
  {
    g_autofree guint8 *four = g_malloc (16);
    g_autoptr(GBytes) with_alpha = NULL;
    g_autoptr(GError) error = NULL;

    memcpy (four, white, 12);
    memcpy (four + 12, white, 4);
    with_alpha = g_bytes_new_take (g_steal_pointer (&four), 16);
    g_assert_true (mshed_document_utf_set_data (doc, dc, with_alpha, &error));
    g_assert_no_error (error);
  }
  widget_test_iterate (50);
  picker = mshed_utf_leaf_editor_get_colour_button (editor);
  g_assert_true (gtk_color_chooser_get_use_alpha (picker));
  gtk_color_chooser_set_rgba (picker, &pick);
  widget_test_iterate (50);
  data = mshed_utf_node_peek_data (dc, &size);
  g_assert_cmpuint (size, ==, 16);
  g_assert_cmpmem (data, 12, rgb, sizeof rgb);
  g_assert_cmpmem (data + 12, 4, alpha, sizeof alpha);
  while (mshed_document_can_undo (doc))
    g_assert_true (mshed_document_undo (doc));
  {
    g_autoptr(GBytes) undone = mshed_document_serialize_file (doc);

    g_assert_true (g_bytes_equal (undone, bytes));
  }
  gui_test_close (window);
  remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");
  /* pictures in the user's language (LC_ALL=ru_RU.UTF-8): the build tree's catalogue */
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") != NULL && g_getenv ("G_TEST_BUILDDIR") != NULL)
    {
      g_autofree char *po = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "..", "po", NULL);

      bindtextdomain (GETTEXT_PACKAGE, po);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }

  g_test_add_func ("/app/utf-tree/copy-paste", test_copy_paste);
  g_test_add_func ("/app/utf-tree/drag-move", test_drag_move);
  g_test_add_func ("/app/utf-tree/drag-between-windows", test_drag_between_windows);
  g_test_add_func ("/app/utf-tree/import-export", test_import_export);
  g_test_add_func ("/app/utf-tree/leaf-kinds", test_leaf_kinds);
  g_test_add_func ("/app/utf-tree/typed-editor", test_typed_editor);
  g_test_add_func ("/app/utf-tree/colour-picker", test_colour_picker);
  return gui_test_run (app);
}
