/* test-node-tree.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The node tree driven through its real widgets under Xvfb: the hierarchy from hdr1, slot
 * counts, renaming through the editor (and refused names), visibility, search, and a
 * hierarchy edit.
 */
#include "config.h"

#include <string.h>

#include "widget-test-util.h"
#include "mshed-cp1251.h"
#include "mshed-node-tree.h"
#include "mshed-node-tree-private.h"

typedef struct {
  MshedDocument *doc;
  MshedNodeTree *tree;
  GtkWidget     *window;
} Fixture;

static void
fixture_setup (Fixture  *f,
               guint64   seed,
               guint     n_nodes,
               MshedMode mode)
{
  f->doc = widget_test_document (seed, 300, n_nodes, mode);
  f->tree = MSHED_NODE_TREE (mshed_node_tree_new ());
  mshed_node_tree_set_document (f->tree, f->doc);
  f->window = widget_test_window (GTK_WIDGET (f->tree), 360, 700);
}

static void
fixture_teardown (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (20);
  g_assert_finalize_object (f->doc);
}

static MshedModel *
model_of (Fixture *f)
{
  return mshed_document_get_model (f->doc);
}

/* The parent the tree should show: hdr1 when it names an earlier node, else none. */
static guint
expected_parent (Fixture *f,
                 guint    node)
{
  MshedNode rec;

  g_assert_true (mshed_model_get_node (model_of (f), node, &rec));
  return rec.hdr1 != MSHED_NONE && rec.hdr1 < node ? rec.hdr1 : G_MAXUINT;
}

static void
assert_hierarchy (Fixture *f)
{
  GListModel *rows = _mshed_node_tree_get_rows (f->tree);
  guint n = mshed_model_get_n_rows (model_of (f), MSHED_TABLE_NODES);
  g_autofree gboolean *seen = g_new0 (gboolean, n);

  /* every node once (the tree expands itself), under its parent */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
      guint node = _mshed_node_tree_row_get_node (row);

      g_assert_cmpuint (node, <, n);
      g_assert_false (seen[node]);
      seen[node] = TRUE;
      if (parent == NULL)
        g_assert_cmpuint (expected_parent (f, node), ==, G_MAXUINT);
      else
        g_assert_cmpuint (_mshed_node_tree_row_get_node (parent), ==, expected_parent (f, node));
    }
}

static GtkWidget *
find_child (GtkWidget *widget,
            GType      type,
            const char *css_class)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type) &&
          (css_class == NULL || gtk_widget_has_css_class (c, css_class)))
        return c;
      if ((found = find_child (c, type, css_class)) != NULL)
        return found;
    }
  return NULL;
}

static void
test_hierarchy (void)
{
  Fixture f;
  guint n, depth_max = 0;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, 5, 24, MSHED_MODE_STRICT);
  assert_hierarchy (&f);

  /* the generator makes real hierarchies: some node is nested */
  n = g_list_model_get_n_items (_mshed_node_tree_get_rows (f.tree));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (_mshed_node_tree_get_rows (f.tree), i);

      depth_max = MAX (depth_max, gtk_tree_list_row_get_depth (row));
    }
  g_assert_cmpuint (depth_max, >, 0);

  /* each row shows index, name and slots per LOD */
  for (guint node = 0; node < 6; node++)
    {
      GtkWidget *row = _mshed_node_tree_find_row_widget (f.tree, node);
      GtkWidget *index, *name, *slots;
      g_autofree char *expect_index = g_strdup_printf ("%u", node);
      g_autofree char *expect_name = mshed_model_dup_name (model_of (&f), node);
      g_autofree char *expect_slots = NULL;
      guint used[3] = { 0 };
      MshedNode rec;

      g_assert_nonnull (row);
      index = find_child (row, GTK_TYPE_LABEL, "node-index");
      name = find_child (row, GTK_TYPE_INSCRIPTION, "node-name");
      slots = find_child (row, GTK_TYPE_LABEL, "node-slots");
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (index)), ==, expect_index);
      if (expect_name != NULL)
        g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (name)), ==, expect_name);
      else
        g_assert_true (gtk_widget_has_css_class (name, "unnamed"));
      g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        used[c / MSHED_N_GROUPS] += rec.slot[c] != MSHED_NONE;
      expect_slots = g_strdup_printf ("%u·%u·%u", used[0], used[1], used[2]);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (slots)), ==, expect_slots);
    }

  fixture_teardown (&f);
}

/* Renaming through the tree --------------------------------------------------------------- */

static void
record_node (MshedNodeTree *tree,
             guint          node,
             GArray        *out)
{
  g_array_append_val (out, node);
}

static void
test_rename (void)
{
  Fixture f;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GArray) selected = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *old_name = NULL;
  g_autofree char *name = NULL;
  MshedCellEditor *editor;
  GtkEditable *entry;
  GtkWidget *row;
  guint node = 3;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, 9, 10, MSHED_MODE_STRICT);
  g_signal_connect (f.tree, "node-selected", G_CALLBACK (record_node), selected);
  original = mshed_document_serialize (f.doc);
  old_name = mshed_model_dup_name (model_of (&f), node);
  editor = _mshed_node_tree_get_editor (f.tree);
  entry = mshed_cell_editor_get_entry (editor);

  /* select_node() emits nothing; F2's action opens the editor on the selection */
  mshed_node_tree_select_node (f.tree, node);
  g_assert_cmpuint (selected->len, ==, 0);
  gtk_widget_activate_action (GTK_WIDGET (f.tree), "tree.rename", NULL);
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, old_name ? old_name : "");

  /* a name without a Windows-1251 form: refused with the reason, nothing changed */
  gtk_editable_set_text (entry, "Башня 塔");
  g_signal_emit_by_name (entry, "activate");
  widget_test_iterate (30);
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_nonnull (mshed_cell_editor_get_error (editor));
  now = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, now));
  g_assert_false (mshed_document_can_undo (f.doc));

  /* Cyrillic is fine: stored, shown, undoable */
  gtk_editable_set_text (entry, "Башня_2");
  g_signal_emit_by_name (entry, "activate");
  widget_test_iterate (30);
  g_assert_false (mshed_cell_editor_is_open (editor));
  name = mshed_model_dup_name (model_of (&f), node);
  g_assert_cmpstr (name, ==, "Башня_2");
  row = _mshed_node_tree_find_row_widget (f.tree, node);
  g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (find_child (row, GTK_TYPE_INSCRIPTION,
                                                                          "node-name"))),
                   ==, "Башня_2");
  {
    const guint8 *raw;
    guint32 len;

    g_assert_true (mshed_model_get_name_raw (model_of (&f), node, &raw, &len));
    g_assert_cmpuint (len, ==, 7);
    g_assert_cmpuint (raw[0], ==, 0xC1);   /* Б in Windows-1251 */
  }

  g_assert_true (mshed_document_undo (f.doc));
  widget_test_iterate (30);
  g_clear_pointer (&now, g_bytes_unref);
  now = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, now));
  g_clear_pointer (&name, g_free);
  name = mshed_model_dup_name (model_of (&f), node);
  g_assert_cmpstr (name, ==, old_name);
  assert_hierarchy (&f);

  /* double-click (the list's activate) opens the editor too */
  g_signal_emit_by_name (find_child (GTK_WIDGET (f.tree), GTK_TYPE_LIST_VIEW, NULL), "activate",
                         gtk_single_selection_get_selected (
                           GTK_SINGLE_SELECTION (_mshed_node_tree_get_rows (f.tree))));
  g_assert_true (mshed_cell_editor_is_open (editor));
  gtk_popover_popdown (GTK_POPOVER (editor));

  /* the user's selection is reported */
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (_mshed_node_tree_get_rows (f.tree)), 1,
                                   TRUE);
  g_assert_cmpuint (selected->len, ==, 1);

  fixture_teardown (&f);
}

/* Visibility and search ----------------------------------------------------------------------- */

static void
record_visibility (MshedNodeTree *tree,
                   guint          node,
                   gboolean       visible,
                   GArray        *out)
{
  g_array_append_val (out, node);
  g_array_append_val (out, visible);
}

static void
test_visibility (void)
{
  Fixture f;
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkWidget *row, *check;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, 9, 10, MSHED_MODE_STRICT);
  g_signal_connect (f.tree, "visibility-changed", G_CALLBACK (record_visibility), events);

  g_assert_true (mshed_node_tree_get_node_visible (f.tree, 2));
  row = _mshed_node_tree_find_row_widget (f.tree, 2);
  check = find_child (row, GTK_TYPE_CHECK_BUTTON, NULL);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);   /* as a click does */
  g_assert_cmpuint (events->len, ==, 2);
  g_assert_cmpuint (g_array_index (events, guint, 0), ==, 2);
  g_assert_cmpuint (g_array_index (events, guint, 1), ==, FALSE);
  g_assert_false (mshed_node_tree_get_node_visible (f.tree, 2));
  g_assert_true (mshed_node_tree_get_node_visible (f.tree, 3));

  /* an edit elsewhere keeps it hidden, and the check follows the state */
  mshed_node_tree_set_node_visible (f.tree, 2, TRUE);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_cmpuint (events->len, ==, 4);

  fixture_teardown (&f);
}

static void
test_search (void)
{
  Fixture f;
  g_autoptr(GArray) selected = g_array_new (FALSE, FALSE, sizeof (guint));
  GListModel *rows;
  g_autofree char *target_name = NULL;
  guint n, target = G_MAXUINT, matched = 0;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, 5, 24, MSHED_MODE_STRICT);
  g_signal_connect (f.tree, "node-selected", G_CALLBACK (record_node), selected);
  rows = _mshed_node_tree_get_rows (f.tree);
  n = mshed_model_get_n_rows (model_of (&f), MSHED_TABLE_NODES);

  /* a nested node with a name */
  for (guint i = n; i-- > 0 && target == G_MAXUINT;)
    {
      g_autofree char *name = mshed_model_dup_name (model_of (&f), i);

      if (name != NULL && expected_parent (&f, i) != G_MAXUINT)
        {
          target = i;
          target_name = g_steal_pointer (&name);
        }
    }
  g_assert_cmpuint (target, !=, G_MAXUINT);

  _mshed_node_tree_set_search_text (f.tree, target_name);
  widget_test_iterate (30);
  /* what is left: nodes whose name holds the text, and their ancestors */
  g_assert_cmpuint (g_list_model_get_n_items (rows), <, n);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      guint node = _mshed_node_tree_row_get_node (row);
      g_autofree char *name = mshed_model_dup_name (model_of (&f), node);
      g_autofree char *folded = name ? g_utf8_casefold (name, -1) : NULL;
      g_autofree char *needle = g_utf8_casefold (target_name, -1);

      if (folded != NULL && strstr (folded, needle) != NULL)
        matched++;
    }
  g_assert_cmpuint (matched, >=, 1);
  {
    gboolean found = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (rows) && !found; i++)
      {
        g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);

        found = _mshed_node_tree_row_get_node (row) == target;
      }
    g_assert_true (found);
  }

  /* Enter jumps to a match and reports it */
  g_signal_emit_by_name (find_child (GTK_WIDGET (f.tree), GTK_TYPE_SEARCH_ENTRY, NULL), "activate");
  g_assert_cmpuint (selected->len, >=, 1);
  {
    guint sel;

    g_assert_true (mshed_node_tree_get_selected_node (f.tree, &sel));
    g_assert_cmpuint (sel, ==, g_array_index (selected, guint, selected->len - 1));
  }

  /* searching by number */
  _mshed_node_tree_set_search_text (f.tree, "0");
  widget_test_iterate (30);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 1);

  /* selecting a node hidden by the search clears it */
  _mshed_node_tree_set_search_text (f.tree, "zzzz-no-such-node");
  widget_test_iterate (30);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);
  mshed_node_tree_select_node (f.tree, target);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);
  {
    guint sel;

    g_assert_true (mshed_node_tree_get_selected_node (f.tree, &sel));
    g_assert_cmpuint (sel, ==, target);
  }

  fixture_teardown (&f);
}

/* Editing the hierarchy rebuilds the tree ---------------------------------------------------- */

static void
test_hierarchy_edit (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  guint n, child = G_MAXUINT;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, 5, 24, MSHED_MODE_TOLERANT);
  n = mshed_model_get_n_rows (model_of (&f), MSHED_TABLE_NODES);
  for (guint i = n; i-- > 1 && child == G_MAXUINT;)
    if (expected_parent (&f, i) != G_MAXUINT && expected_parent (&f, i) != 0)
      child = i;
  g_assert_cmpuint (child, !=, G_MAXUINT);

  /* reparent under node 0, then make a root, then a broken (later) parent: a root too */
  mshed_node_tree_select_node (f.tree, child);
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_NODES, child, "hdr1", 0, &error));
  g_assert_no_error (error);
  widget_test_iterate (30);
  assert_hierarchy (&f);
  {
    guint sel;

    g_assert_true (mshed_node_tree_get_selected_node (f.tree, &sel));
    g_assert_cmpuint (sel, ==, child);
  }
  g_assert_true (mshed_document_set_field_text (f.doc, MSHED_TABLE_NODES, child, "hdr1", "none",
                                                &error));
  widget_test_iterate (30);
  assert_hierarchy (&f);
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_NODES, child, "hdr1", n + 3, &error));
  g_assert_no_error (error);
  widget_test_iterate (30);
  assert_hierarchy (&f);

  while (mshed_document_can_undo (f.doc))
    g_assert_true (mshed_document_undo (f.doc));
  widget_test_iterate (30);
  assert_hierarchy (&f);

  fixture_teardown (&f);
}

static void
test_screenshot (void)
{
  Fixture f;
  const char *theme = g_getenv ("GTK_THEME");
  gboolean dark = theme != NULL && strstr (theme, "dark") != NULL;
  g_autofree char *file = g_strdup_printf ("node-tree%s.png", dark ? "-dark" : "");
  g_autoptr(GError) error = NULL;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, 5, 24, MSHED_MODE_TOLERANT);
  /* a broken parent link and a hidden node */
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_NODES, 5, "hdr1", 200, &error));
  mshed_node_tree_set_node_visible (f.tree, 2, FALSE);
  mshed_node_tree_select_node (f.tree, 7);
  widget_test_iterate (100);
  widget_test_screenshot (f.window, file);

  /* the rename editor on the whole screen */
  g_assert_true (mshed_node_tree_start_rename (f.tree));
  {
    g_autofree char *root = g_strdup_printf ("node-tree-rename%s.png", dark ? "-dark" : "");

    widget_test_screenshot_root (root);
  }
  gtk_popover_popdown (GTK_POPOVER (_mshed_node_tree_get_editor (f.tree)));
  fixture_teardown (&f);
}

int
main (int   argc,
      char *argv[])
{
  widget_test_init (&argc, &argv);

  g_test_add_func ("/widgets/node-tree/hierarchy", test_hierarchy);
  g_test_add_func ("/widgets/node-tree/rename", test_rename);
  g_test_add_func ("/widgets/node-tree/visibility", test_visibility);
  g_test_add_func ("/widgets/node-tree/search", test_search);
  g_test_add_func ("/widgets/node-tree/hierarchy-edit", test_hierarchy_edit);
  /* pictures to look at, not a check: only when asked for */
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") != NULL)
    g_test_add_func ("/widgets/node-tree/screenshot", test_screenshot);

  return g_test_run ();
}
