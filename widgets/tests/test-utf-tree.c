/* test-utf-tree.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The UTF tree under Xvfb on a generated DFM head: every structural action (move up, into
 * the directory above, out again, duplicate, add, delete) is one undo step of the document
 * and undoing them all gives the original bytes back; a refused rename keeps the editor open
 * with the reason; search selects the next match and opens its directories.
 */
#include "config.h"

#include <string.h>

#include "widget-test-util.h"
#include "mshed-dfm-generator.h"
#include "mshed-utf-tree.h"

typedef struct {
  MshedDocument *doc;
  MshedUtf      *utf;
  MshedUtfTree  *tree;
  GtkWidget     *window;
} Fixture;

static void
fixture_setup (Fixture *f)
{
  MshedDfmGenParams params;
  g_autoptr(MshedUtf) utf = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 5);
  utf = mshed_dfm_generate (&params);
  f->doc = mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
  f->utf = mshed_document_get_utf (f->doc);
  f->tree = MSHED_UTF_TREE (mshed_utf_tree_new ());
  mshed_utf_tree_set_document (f->tree, f->doc);
  f->window = widget_test_window (GTK_WIDGET (f->tree), 420, 700);
}

static void
fixture_teardown (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (50);
  g_clear_object (&f->doc);
}

static MshedUtfNode *
node (Fixture    *f,
      const char *path)
{
  MshedUtfNode *n = mshed_utf_lookup (f->utf, path);

  g_assert_nonnull (n);
  return n;
}

/* Selects @path and runs utf-tree.@action on it. */
static void
act (Fixture    *f,
     const char *path,
     const char *action)
{
  g_autofree char *name = g_strconcat ("utf-tree.", action, NULL);

  g_assert_true (mshed_utf_tree_select_node (f->tree, node (f, path)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->tree), name, NULL));
  widget_test_iterate (20);
}

static void
test_actions (void)
{
  Fixture f;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) undone = NULL;
  MshedUtfNode *root, *skeleton, *materials, *copy, *added;
  guint tex_index, n_steps = 0;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f);
  original = mshed_document_serialize_file (f.doc);
  root = mshed_utf_get_root (f.utf);
  skeleton = node (&f, "\\Skeleton");
  tex_index = mshed_utf_node_get_index (node (&f, "\\Texture library"));
  g_assert_cmpuint (tex_index, >, 0);

  /* move up among the siblings */
  act (&f, "\\Texture library", "move-up");
  n_steps++;
  g_assert_cmpuint (mshed_utf_node_get_index (node (&f, "\\Texture library")), ==, tex_index - 1);
  g_assert_true (mshed_utf_tree_get_selected (f.tree) == node (&f, "\\Texture library"));

  /* into the directory above (the Texture library now sits two above the Skeleton: the one
   * right above is the Material library), then out again, right after that directory */
  g_assert_true (mshed_utf_node_is_directory (
                   mshed_utf_node_get_nth_child (root, mshed_utf_node_get_index (skeleton) - 1)));
  materials = mshed_utf_node_get_nth_child (root, mshed_utf_node_get_index (skeleton) - 1);
  act (&f, "\\Skeleton", "move-in");
  n_steps++;
  g_assert_true (mshed_utf_node_get_parent (skeleton) == materials);
  g_assert_cmpuint (mshed_utf_node_get_index (skeleton), ==,
                    mshed_utf_node_get_n_children (materials) - 1);
  g_assert_true (mshed_utf_tree_get_selected (f.tree) == skeleton);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.tree), "utf-tree.move-out", NULL));
  n_steps++;
  g_assert_true (mshed_utf_node_get_parent (skeleton) == root);
  g_assert_cmpuint (mshed_utf_node_get_index (skeleton), ==,
                    mshed_utf_node_get_index (materials) + 1);

  /* duplicate a directory: the whole subtree, one undo step */
  act (&f, "\\Material library", "duplicate");
  n_steps++;
  copy = mshed_utf_lookup (f.utf, "\\Material library_copy");
  g_assert_nonnull (copy);
  g_assert_cmpuint (mshed_utf_node_get_n_children (copy), ==,
                    mshed_utf_node_get_n_children (node (&f, "\\Material library")));
  g_assert_true (mshed_utf_tree_get_selected (f.tree) == copy);
  g_assert_true (mshed_document_undo (f.doc));
  g_assert_null (mshed_utf_lookup (f.utf, "\\Material library_copy"));
  g_assert_true (mshed_document_redo (f.doc));
  g_assert_nonnull (mshed_utf_lookup (f.utf, "\\Material library_copy"));

  /* a new file inside the selected directory; its name is asked for at once */
  act (&f, "\\Cmpnd", "add-file");
  n_steps++;
  added = mshed_utf_lookup (f.utf, "\\Cmpnd\\new_file");
  g_assert_nonnull (added);
  g_assert_false (mshed_utf_node_is_directory (added));
  g_assert_true (mshed_cell_editor_is_open (mshed_utf_tree_get_editor (f.tree)));
  gtk_popover_popdown (GTK_POPOVER (mshed_utf_tree_get_editor (f.tree)));

  /* delete: the selection goes to the next sibling */
  {
    MshedUtfNode *next = mshed_utf_node_get_next (skeleton);

    act (&f, "\\Skeleton", "delete");
    n_steps++;
    g_assert_null (mshed_utf_lookup (f.utf, "\\Skeleton"));
    g_assert_true (mshed_utf_tree_get_selected (f.tree) == next);
  }

  /* every action was one undo step: as many undos give the original bytes */
  for (guint i = 0; i < n_steps; i++)
    g_assert_true (mshed_document_undo (f.doc));
  g_assert_false (mshed_document_can_undo (f.doc));
  undone = mshed_document_serialize_file (f.doc);
  g_assert_true (g_bytes_equal (undone, original));
  g_assert_false (mshed_document_get_modified (f.doc));
  fixture_teardown (&f);
}

static void
test_rename_refused (void)
{
  Fixture f;
  MshedCellEditor *editor;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f);
  g_assert_true (mshed_utf_tree_select_node (f.tree, node (&f, "\\Skeleton")));
  widget_test_iterate (50);
  g_assert_true (mshed_utf_tree_start_rename (f.tree));
  editor = mshed_utf_tree_get_editor (f.tree);
  /* a sibling's name, in another case: names are unique case-insensitively (docs/utf.md) */
  gtk_editable_set_text (mshed_cell_editor_get_entry (editor), "CMPND");
  g_signal_emit_by_name (mshed_cell_editor_get_entry (editor), "activate");
  widget_test_iterate (50);
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_nonnull (mshed_cell_editor_get_error (editor));
  g_assert_nonnull (mshed_utf_lookup (f.utf, "\\Skeleton"));
  g_assert_false (mshed_document_can_undo (f.doc));

  gtk_editable_set_text (mshed_cell_editor_get_entry (editor), "Skeleton2");
  g_signal_emit_by_name (mshed_cell_editor_get_entry (editor), "activate");
  widget_test_iterate (50);
  g_assert_false (mshed_cell_editor_is_open (editor));
  g_assert_cmpstr (mshed_utf_node_get_name (mshed_utf_tree_get_selected (f.tree)), ==,
                   "Skeleton2");
  fixture_teardown (&f);
}

static void
test_search (void)
{
  Fixture f;
  guint rows;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f);
  rows = mshed_utf_tree_get_n_rows (f.tree);
  /* the first match in tree order, inside closed directories: they open */
  g_assert_true (mshed_utf_tree_find (f.tree, "bone_WEIGHT", FALSE));
  g_assert_true (mshed_utf_tree_get_selected (f.tree) ==
                 node (&f, "\\MultiLevel\\Mesh0\\Geometry\\Bone_weight_chain"));
  g_assert_cmpuint (mshed_utf_tree_get_n_rows (f.tree), >, rows);
  g_assert_true (mshed_utf_tree_find (f.tree, "bone_weight", FALSE));
  g_assert_true (mshed_utf_tree_get_selected (f.tree) ==
                 node (&f, "\\MultiLevel\\Mesh1\\Geometry\\Bone_weight_chain"));
  g_assert_true (mshed_utf_tree_find (f.tree, "bone_weight", TRUE));
  g_assert_true (mshed_utf_tree_get_selected (f.tree) ==
                 node (&f, "\\MultiLevel\\Mesh0\\Geometry\\Bone_weight_chain"));
  g_assert_false (mshed_utf_tree_find (f.tree, "no such name", FALSE));
  fixture_teardown (&f);
}

int
main (int   argc,
      char *argv[])
{
  widget_test_init (&argc, &argv);

  g_test_add_func ("/widgets/utf-tree/actions", test_actions);
  g_test_add_func ("/widgets/utf-tree/rename-refused", test_rename_refused);
  g_test_add_func ("/widgets/utf-tree/search", test_search);
  return g_test_run ();
}
