/* mshed-utf-tree.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-utf-tree"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-dfm-schema.h"
#include "mshed-utf-tree-private.h"

/* MshedUtfTreeItem: one node of the tree shown now ------------------------------------------ */

#define MSHED_TYPE_UTF_TREE_ITEM (mshed_utf_tree_item_get_type ())
G_DECLARE_FINAL_TYPE (MshedUtfTreeItem, mshed_utf_tree_item, MSHED, UTF_TREE_ITEM, GObject)

struct _MshedUtfTreeItem
{
  GObject       parent_instance;
  MshedUtfNode *node;  /* owned by the tree; items are rebuilt on every structural change */
};

G_DEFINE_FINAL_TYPE (MshedUtfTreeItem, mshed_utf_tree_item, G_TYPE_OBJECT)

static void
mshed_utf_tree_item_class_init (MshedUtfTreeItemClass *klass)
{
}

static void
mshed_utf_tree_item_init (MshedUtfTreeItem *self)
{
}

static MshedUtfTreeItem *
item_new (MshedUtfNode *node)
{
  MshedUtfTreeItem *item = g_object_new (MSHED_TYPE_UTF_TREE_ITEM, NULL);

  item->node = node;
  return item;
}

enum {
  NODE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (MshedUtfTree, mshed_utf_tree, GTK_TYPE_WIDGET)

static MshedUtf *
get_utf (MshedUtfTree *self)
{
  return self->document ? mshed_document_get_utf (self->document) : NULL;
}

/* Whether @node is in the tree now; compares pointers only (a removed node may be freed). */
static gboolean
node_in_tree (MshedUtfTree       *self,
              const MshedUtfNode *node)
{
  MshedUtf *utf = get_utf (self);
  MshedUtfNode *root = utf ? mshed_utf_get_root (utf) : NULL;

  for (MshedUtfNode *n = root; n != NULL && node != NULL;
       n = mshed_utf_node_next_preorder (n, root))
    if (n == node)
      return TRUE;
  return FALSE;
}

static MshedUtfNode *
row_node (gpointer row)
{
  MshedUtfTreeItem *item;

  if (!GTK_IS_TREE_LIST_ROW (row))
    return NULL;
  item = gtk_tree_list_row_get_item (row);
  if (item == NULL)
    return NULL;
  g_object_unref (item);  /* the row keeps it */
  return item->node;
}

static MshedUtfNode *
position_node (MshedUtfTree *self,
               guint         position)
{
  g_autoptr(GObject) row = NULL;

  if (self->tree == NULL)
    return NULL;
  row = g_list_model_get_item (G_LIST_MODEL (self->tree), position);
  return row_node (row);
}

static guint
node_position (MshedUtfTree       *self,
               const MshedUtfNode *node)
{
  guint n = self->tree ? g_list_model_get_n_items (G_LIST_MODEL (self->tree)) : 0;

  for (guint i = 0; i < n; i++)
    if (position_node (self, i) == node)
      return i;
  return G_MAXUINT;
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  MshedUtfNode *node = MSHED_UTF_TREE_ITEM (item)->node;
  GListStore *store;

  if (!mshed_utf_node_is_directory (node) || mshed_utf_node_get_first_child (node) == NULL)
    return NULL;
  store = g_list_store_new (MSHED_TYPE_UTF_TREE_ITEM);
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (node); c != NULL;
       c = mshed_utf_node_get_next (c))
    {
      g_autoptr(MshedUtfTreeItem) child = item_new (c);

      g_list_store_append (store, child);
    }
  return G_LIST_MODEL (store);
}

/* Row texts --------------------------------------------------------------------------------- */

static char *
dup_kind (MshedUtfTree *self,
          MshedUtfNode *node)
{
  const guint8 *data;
  gsize size = 0;
  gboolean text = TRUE;

  if (mshed_utf_node_is_directory (node))
    return g_strdup (_("Directory"));
  if (mshed_document_get_dfm (self->document) != NULL)
    {
      const MshedDfmTableInfo *info =
        mshed_dfm_schema_get_table (mshed_dfm_schema_table_for_node (node));

      if (info != NULL)
        return g_strdup (_(info->title));
    }
  data = mshed_utf_node_peek_data (node, &size);
  if (size == 0)
    return g_strdup (_("Empty file"));
  /* printable bytes up to a final NUL: a string */
  for (gsize i = 0; i + 1 < size && text; i++)
    text = data[i] >= 0x20 && data[i] < 0x7F;
  if (text && data[size - 1] == 0)
    return g_strdup (_("Text"));
  return g_strdup (_("Data"));
}

static void
update_row (MshedUtfTree *self,
            GtkListItem  *list_item)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_widget_get_first_child (box));
  GtkWidget *name = gtk_tree_expander_get_child (expander);
  GtkWidget *size = gtk_widget_get_next_sibling (GTK_WIDGET (expander));
  GtkWidget *kind = gtk_widget_get_next_sibling (size);
  MshedUtfNode *node = row_node (gtk_list_item_get_item (list_item));
  g_autofree char *size_text = NULL;
  g_autofree char *kind_text = NULL;
  gsize bytes = 0;
  guint mark;

  if (node == NULL || self->document == NULL)
    return;
  mark = self->marks ? GPOINTER_TO_UINT (g_hash_table_lookup (self->marks, node)) : 0;
  if (mark == 1)
    gtk_widget_add_css_class (box, "diff-changed");
  else
    gtk_widget_remove_css_class (box, "diff-changed");
  if (mark == 2)
    gtk_widget_add_css_class (box, "diff-only");
  else
    gtk_widget_remove_css_class (box, "diff-only");
  gtk_label_set_text (GTK_LABEL (name), mshed_utf_node_get_name (node));
  if (mshed_utf_node_is_directory (node))
    size_text = g_strdup_printf ("%u", mshed_utf_node_get_n_children (node));
  else
    {
      mshed_utf_node_peek_data (node, &bytes);
      size_text = g_strdup_printf ("%zu", bytes);
    }
  kind_text = dup_kind (self, node);
  gtk_label_set_text (GTK_LABEL (size), size_text);
  gtk_label_set_text (GTK_LABEL (kind), kind_text);
}

static void
factory_setup_cb (MshedUtfTree             *self,
                  GtkListItem              *list_item,
                  GtkSignalListItemFactory *factory)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *size = gtk_label_new (NULL);
  GtkWidget *kind = gtk_label_new (NULL);

  /* the names matter most: whole, the pane scrolls sideways when they are long */
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), name);
  gtk_widget_set_hexpand (expander, TRUE);
  gtk_label_set_xalign (GTK_LABEL (size), 1);
  gtk_label_set_width_chars (GTK_LABEL (size), 6);
  gtk_widget_add_css_class (size, "numeric");
  /* one tooltip per row widget, not per bind: setting one costs an X round trip */
  gtk_widget_set_tooltip_text (size, _("Payload bytes, or entries of a directory"));
  gtk_label_set_xalign (GTK_LABEL (kind), 0);
  gtk_label_set_width_chars (GTK_LABEL (kind), 12);
  gtk_label_set_max_width_chars (GTK_LABEL (kind), 16);
  gtk_label_set_ellipsize (GTK_LABEL (kind), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (kind, "dim-label");
  gtk_box_append (GTK_BOX (box), expander);
  gtk_box_append (GTK_BOX (box), size);
  gtk_box_append (GTK_BOX (box), kind);
  gtk_list_item_set_child (list_item, box);
  _mshed_utf_tree_clip_setup_row (self, list_item, box);
}

static void
factory_bind_cb (MshedUtfTree             *self,
                 GtkListItem              *list_item,
                 GtkSignalListItemFactory *factory)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_widget_get_first_child (box)),
                                  gtk_list_item_get_item (list_item));
  g_hash_table_add (self->bound, list_item);
  update_row (self, list_item);
}

static void
factory_unbind_cb (MshedUtfTree             *self,
                   GtkListItem              *list_item,
                   GtkSignalListItemFactory *factory)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_widget_get_first_child (box)), NULL);
  g_hash_table_remove (self->bound, list_item);
}

static void
refresh_rows (MshedUtfTree *self)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    update_row (self, key);
}

void
mshed_utf_tree_set_marks (MshedUtfTree *self,
                          GHashTable   *marks)
{
  g_return_if_fail (MSHED_IS_UTF_TREE (self));

  g_clear_pointer (&self->marks, g_hash_table_unref);
  self->marks = marks ? g_hash_table_ref (marks) : NULL;
  refresh_rows (self);
}

/* Building and rebuilding ------------------------------------------------------------------- */

static void
remember_expanded (MshedUtfTree *self)
{
  guint n;

  if (self->tree == NULL)
    return;
  g_hash_table_remove_all (self->expanded);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree, i);

      if (gtk_tree_list_row_get_expanded (row))
        g_hash_table_add (self->expanded, row_node (row));
    }
}

static void
scroll_to (MshedUtfTree *self,
           guint         position)
{
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                              position);
}

static void
select_position (MshedUtfTree *self,
                 guint         position)
{
  self->block_selection++;
  gtk_single_selection_set_selected (self->selection, position);
  self->block_selection--;
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to (self, position);
}

/* The tree as the document has it now, keeping what was expanded and selected. */
static void
rebuild (MshedUtfTree *self)
{
  MshedUtf *utf = get_utf (self);
  MshedUtfNode *selected = mshed_utf_tree_get_selected (self);
  g_autoptr(GListStore) roots = g_list_store_new (MSHED_TYPE_UTF_TREE_ITEM);
  guint n;

  remember_expanded (self);
  if (!node_in_tree (self, selected))
    selected = NULL;
  if (utf != NULL)
    {
      g_autoptr(MshedUtfTreeItem) root = item_new (mshed_utf_get_root (utf));

      g_list_store_append (roots, root);
    }
  g_clear_object (&self->tree);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (roots)), FALSE, FALSE,
                                        create_children, NULL, NULL);
  self->block_selection++;
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->tree));
  for (guint i = 0; i < (n = g_list_model_get_n_items (G_LIST_MODEL (self->tree))); i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree, i);

      if (i == 0 || g_hash_table_contains (self->expanded, row_node (row)))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->block_selection--;
  if (selected != NULL)
    mshed_utf_tree_select_node (self, selected);
}

/* Selects @node as the user would have: the window follows. */
static void
select_and_announce (MshedUtfTree *self,
                     MshedUtfNode *node)
{
  mshed_utf_tree_select_node (self, node);
  g_signal_emit (self, signals[NODE_SELECTED], 0, node);
}

/* The rows as the tree is now; every entry point calls this before it reads a row. */
static void
ensure_built (MshedUtfTree *self)
{
  if (!self->stale)
    return;
  self->stale = FALSE;
  rebuild (self);
}

static gboolean
rebuild_idle_cb (gpointer data)
{
  MshedUtfTree *self = data;

  self->rebuild_id = 0;
  ensure_built (self);
  return G_SOURCE_REMOVE;
}

static void
document_changed_cb (MshedUtfTree      *self,
                     const MshedChange *change,
                     MshedDocument     *document)
{
  if (change->flags & (MSHED_CHANGE_FLAG_ALL | MSHED_CHANGE_FLAG_DIRECTORY) ||
      change->origin == MSHED_CHANGE_ORIGIN_RELOAD)
    {
      /* once for a whole group (a duplicated subtree, its undo); before the next layout */
      self->stale = TRUE;
      if (self->rebuild_id == 0)
        self->rebuild_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, rebuild_idle_cb, self, NULL);
    }
  else if (!self->stale)
    refresh_rows (self);
}

static void
selection_changed_cb (MshedUtfTree *self)
{
  if (self->block_selection > 0 || self->stale)
    return;
  g_signal_emit (self, signals[NODE_SELECTED], 0, mshed_utf_tree_get_selected (self));
}

/* Rename ------------------------------------------------------------------------------------ */

gboolean
mshed_utf_tree_start_rename (MshedUtfTree *self)
{
  MshedUtfNode *node;
  GdkRectangle area = { 0, 0, 1, 1 };
  g_autofree char *title = NULL;
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);

  node = mshed_utf_tree_get_selected (self);
  if (node == NULL || mshed_utf_node_get_parent (node) == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }
  self->rename_node = node;
  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      GtkWidget *box = gtk_list_item_get_child (key);
      graphene_rect_t b;

      if (row_node (gtk_list_item_get_item (key)) == node &&
          gtk_widget_compute_bounds (box, GTK_WIDGET (self), &b))
        {
          area.x = (int) b.origin.x;
          area.y = (int) b.origin.y;
          area.width = MAX (1, (int) b.size.width);
          area.height = MAX (1, (int) b.size.height);
        }
    }
  /* translators: %s is the name of a UTF tree node */
  title = g_strdup_printf (_("Rename “%s”"), mshed_utf_node_get_name (node));
  mshed_cell_editor_start (self->editor, &area, title,
                           _("Up to 255 bytes, unique among its siblings (case-insensitive); "
                             "no backslash."),
                           mshed_utf_node_get_name (node), TRUE);
  return TRUE;
}

static void
editor_commit_cb (MshedUtfTree    *self,
                  const char      *text,
                  int              move,
                  MshedCellEditor *editor)
{
  g_autoptr(GError) error = NULL;

  if (self->document == NULL || !node_in_tree (self, self->rename_node))
    return;
  if (g_strcmp0 (mshed_utf_node_get_name (self->rename_node), text) != 0 &&
      !mshed_document_utf_rename (self->document, self->rename_node, text, &error))
    {
      mshed_cell_editor_reject (editor, error->message);
      return;
    }
  mshed_cell_editor_accept (editor);
}

static void
editor_closed_cb (MshedUtfTree *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
list_activate_cb (MshedUtfTree *self,
                  guint         position)
{
  mshed_utf_tree_start_rename (self);
}

/* Edits ------------------------------------------------------------------------------------- */

static void
report (MshedUtfTree *self,
        GError       *error)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog;

  if (!GTK_IS_WINDOW (root))
    return;
  dialog = gtk_message_dialog_new (GTK_WINDOW (root), GTK_DIALOG_MODAL |
                                   GTK_DIALOG_DESTROY_WITH_PARENT, GTK_MESSAGE_ERROR,
                                   GTK_BUTTONS_CLOSE, "%s", _("The tree was not changed"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* @base, or @base with the first free number: unique among @dir's children. */
static char *
free_name (MshedUtfNode *dir,
           const char   *base)
{
  char *name = g_strdup (base);

  for (guint i = 2; mshed_utf_node_lookup (dir, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s_%u", base, i);
    }
  return name;
}

static void
add_node (MshedUtfTree *self,
          gboolean      directory,
          gboolean      after)
{
  MshedUtfNode *sel = mshed_utf_tree_get_selected (self);
  MshedUtfNode *parent;
  MshedUtfNode *node;
  g_autoptr(GBytes) empty = directory ? NULL : g_bytes_new (NULL, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  guint index = G_MAXUINT;

  if (self->document == NULL)
    return;
  if (sel == NULL)
    sel = mshed_utf_get_root (get_utf (self));
  if (after && mshed_utf_node_get_parent (sel) != NULL)
    {
      parent = mshed_utf_node_get_parent (sel);
      index = mshed_utf_node_get_index (sel) + 1;
    }
  else if (mshed_utf_node_is_directory (sel))
    parent = sel;
  else
    {
      parent = mshed_utf_node_get_parent (sel);
      index = mshed_utf_node_get_index (sel) + 1;
    }
  if (parent == NULL)
    return;
  name = free_name (parent, directory ? "new_directory" : "new_file");
  node = mshed_document_utf_add (self->document, parent, index, name, empty, &error);
  if (node == NULL)
    {
      report (self, error);
      return;
    }
  select_and_announce (self, node);
  mshed_utf_tree_start_rename (self);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  add_node (MSHED_UTF_TREE (widget), strstr (action_name, "directory") != NULL,
            g_str_has_suffix (action_name, "-after"));
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  MshedUtfTree *self = MSHED_UTF_TREE (widget);
  MshedUtfNode *node = mshed_utf_tree_get_selected (self);
  MshedUtfNode *parent = node ? mshed_utf_node_get_parent (node) : NULL;
  MshedUtfNode *next;
  g_autoptr(GError) error = NULL;

  if (parent == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  /* the selection goes to the next sibling, else the previous one, else the parent */
  next = mshed_utf_node_get_next (node);
  if (next == NULL && mshed_utf_node_get_index (node) > 0)
    next = mshed_utf_node_get_nth_child (parent, mshed_utf_node_get_index (node) - 1);
  if (next == NULL)
    next = parent;
  self->block_selection++;
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->block_selection--;
  if (!mshed_document_utf_remove (self->document, node, &error))
    {
      report (self, error);
      return;
    }
  select_and_announce (self, next);
}

/* Copies @node's subtree as the @index-th child of @parent named @name (one command each). */
static gboolean
copy_subtree (MshedUtfTree  *self,
              MshedUtfNode  *node,
              MshedUtfNode  *parent,
              guint          index,
              const char    *name,
              MshedUtfNode **out,
              GError       **error)
{
  g_autoptr(GBytes) data = NULL;
  MshedUtfNode *copy;

  if (!mshed_utf_node_is_directory (node))
    {
      gsize size = 0;
      const guint8 *p = mshed_utf_node_peek_data (node, &size);

      /* the payload is shared, not copied (GBytes are immutable) */
      data = mshed_utf_node_get_data (node) != NULL ? g_bytes_ref (mshed_utf_node_get_data (node))
                                                    : g_bytes_new (p, size);
    }
  copy = mshed_document_utf_add (self->document, parent, index, name, data, error);
  if (copy == NULL)
    return FALSE;
  if (out != NULL)
    *out = copy;
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (node); c != NULL;
       c = mshed_utf_node_get_next (c))
    if (!copy_subtree (self, c, copy, G_MAXUINT, mshed_utf_node_get_name (c), NULL, error))
      return FALSE;
  return TRUE;
}

static void
duplicate_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  MshedUtfTree *self = MSHED_UTF_TREE (widget);
  MshedUtfNode *node = mshed_utf_tree_get_selected (self);
  MshedUtfNode *parent = node ? mshed_utf_node_get_parent (node) : NULL;
  MshedUtfNode *copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  gboolean ok;

  if (parent == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  base = g_strconcat (mshed_utf_node_get_name (node), "_copy", NULL);
  name = free_name (parent, base);
  /* translators: the undo step's name; %s is a UTF node name */
  label = g_strdup_printf (_("Duplicate “%s”"), mshed_utf_node_get_name (node));
  mshed_document_begin_group (self->document, label);
  ok = copy_subtree (self, node, parent, mshed_utf_node_get_index (node) + 1, name, &copy,
                     &error);
  mshed_document_end_group (self->document);
  if (!ok)
    {
      /* nothing half-done stays: the group is one step */
      if (copy != NULL)
        mshed_document_undo (self->document);
      report (self, error);
      return;
    }
  select_and_announce (self, copy);
}

static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MshedUtfTree *self = MSHED_UTF_TREE (widget);
  MshedUtfNode *node = mshed_utf_tree_get_selected (self);
  MshedUtfNode *parent = node ? mshed_utf_node_get_parent (node) : NULL;
  MshedUtfNode *target = parent;
  g_autoptr(GError) error = NULL;
  guint index = 0, at;

  if (parent == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  at = mshed_utf_node_get_index (node);
  if (g_str_equal (action_name, "utf-tree.move-up") && at > 0)
    index = at - 1;
  else if (g_str_equal (action_name, "utf-tree.move-down") &&
           at + 1 < mshed_utf_node_get_n_children (parent))
    index = at + 1;
  else if (g_str_equal (action_name, "utf-tree.move-out") &&
           mshed_utf_node_get_parent (parent) != NULL)
    {
      /* right after its directory */
      target = mshed_utf_node_get_parent (parent);
      index = mshed_utf_node_get_index (parent) + 1;
    }
  else if (g_str_equal (action_name, "utf-tree.move-in") && at > 0 &&
           mshed_utf_node_is_directory (mshed_utf_node_get_nth_child (parent, at - 1)))
    {
      /* last in the directory just above it */
      target = mshed_utf_node_get_nth_child (parent, at - 1);
      index = mshed_utf_node_get_n_children (target);
    }
  else
    {
      gtk_widget_error_bell (widget);
      return;
    }
  if (!mshed_document_utf_move (self->document, node, target, index, &error))
    {
      report (self, error);
      return;
    }
  mshed_utf_tree_select_node (self, node);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  mshed_utf_tree_start_rename (MSHED_UTF_TREE (widget));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  mshed_utf_tree_start_search (MSHED_UTF_TREE (widget));
}

/* Search ------------------------------------------------------------------------------------ */

gboolean
mshed_utf_tree_find (MshedUtfTree *self,
                     const char   *text,
                     gboolean      backwards)
{
  MshedUtf *utf;
  MshedUtfNode *root, *start, *n;
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autofree char *needle = NULL;
  guint at = 0, count;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);

  utf = get_utf (self);
  if (utf == NULL || text == NULL || *text == '\0')
    return FALSE;
  needle = g_utf8_casefold (text, -1);
  root = mshed_utf_get_root (utf);
  start = mshed_utf_tree_get_selected (self);
  for (n = root; n != NULL; n = mshed_utf_node_next_preorder (n, root))
    {
      if (n == start)
        at = order->len;
      g_ptr_array_add (order, n);
    }
  count = order->len;
  /* without a selection the search starts at the root itself */
  if (start == NULL)
    at = backwards ? 0 : count - 1;
  for (guint k = 1; k <= count; k++)
    {
      guint i = backwards ? (at + count - k) % count : (at + k) % count;
      MshedUtfNode *cand = g_ptr_array_index (order, i);
      g_autofree char *folded = g_utf8_casefold (mshed_utf_node_get_name (cand), -1);

      if (strstr (folded, needle) != NULL)
        {
          select_and_announce (self, cand);
          return TRUE;
        }
    }
  gtk_widget_error_bell (GTK_WIDGET (self));
  return FALSE;
}

static void
search_activate_cb (MshedUtfTree *self)
{
  mshed_utf_tree_find (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), FALSE);
}

static void
search_next_cb (MshedUtfTree *self)
{
  search_activate_cb (self);
}

static void
search_previous_cb (MshedUtfTree *self)
{
  mshed_utf_tree_find (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), TRUE);
}

void
mshed_utf_tree_start_search (MshedUtfTree *self)
{
  g_return_if_fail (MSHED_IS_UTF_TREE (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* GObject / GtkWidget ---------------------------------------------------------------------- */

static void
mshed_utf_tree_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  gtk_widget_measure (MSHED_UTF_TREE (widget)->box, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

static void
mshed_utf_tree_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  MshedUtfTree *self = MSHED_UTF_TREE (widget);

  gtk_widget_allocate (self->box, width, height, baseline, NULL);
  if (self->editor != NULL)
    gtk_popover_present (GTK_POPOVER (self->editor));
  if (self->context_popover != NULL)
    gtk_popover_present (GTK_POPOVER (self->context_popover));
}

static gboolean
mshed_utf_tree_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (MSHED_UTF_TREE (widget)->list_view));
}

static void
mshed_utf_tree_dispose (GObject *object)
{
  MshedUtfTree *self = MSHED_UTF_TREE (object);

  if (self->editor != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->editor));
      self->editor = NULL;
    }
  _mshed_utf_tree_clip_dispose (self);
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_UTF_TREE);
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->tree);

  G_OBJECT_CLASS (mshed_utf_tree_parent_class)->dispose (object);
}

static void
mshed_utf_tree_finalize (GObject *object)
{
  MshedUtfTree *self = MSHED_UTF_TREE (object);

  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->bound, g_hash_table_unref);
  g_clear_pointer (&self->marks, g_hash_table_unref);

  G_OBJECT_CLASS (mshed_utf_tree_parent_class)->finalize (object);
}

static void
mshed_utf_tree_class_init (MshedUtfTreeClass *klass)
{
  static const char *adds[] = {
    "utf-tree.add-file", "utf-tree.add-directory", "utf-tree.add-file-after",
    "utf-tree.add-directory-after",
  };
  static const char *moves[] = {
    "utf-tree.move-up", "utf-tree.move-down", "utf-tree.move-out", "utf-tree.move-in",
  };
  static const guint move_keys[] = { GDK_KEY_Up, GDK_KEY_Down, GDK_KEY_Left, GDK_KEY_Right };
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_utf_tree_dispose;
  object_class->finalize = mshed_utf_tree_finalize;
  widget_class->measure = mshed_utf_tree_measure;
  widget_class->size_allocate = mshed_utf_tree_size_allocate;
  widget_class->grab_focus = mshed_utf_tree_grab_focus;

  /**
   * MshedUtfTree::node-selected:
   * @node: (nullable): the MshedUtfNode selected
   */
  signals[NODE_SELECTED] =
    g_signal_new ("node-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-utf-tree.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedUtfTree, box);
  gtk_widget_class_bind_template_child (widget_class, MshedUtfTree, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MshedUtfTree, scroller);
  gtk_widget_class_bind_template_child (widget_class, MshedUtfTree, list_view);
  gtk_widget_class_bind_template_child (widget_class, MshedUtfTree, selection);
  gtk_widget_class_bind_template_child (widget_class, MshedUtfTree, context_menu);
  gtk_widget_class_bind_template_callback (widget_class, factory_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, factory_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, factory_unbind_cb);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, list_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);

  gtk_widget_class_install_action (widget_class, "utf-tree.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "utf-tree.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "utf-tree.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "utf-tree.duplicate", NULL, duplicate_action);
  for (guint i = 0; i < G_N_ELEMENTS (adds); i++)
    gtk_widget_class_install_action (widget_class, adds[i], NULL, add_action);
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    {
      gtk_widget_class_install_action (widget_class, moves[i], NULL, move_action);
      gtk_widget_class_add_binding_action (widget_class, move_keys[i], GDK_ALT_MASK, moves[i],
                                           NULL);
    }
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "utf-tree.rename", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "utf-tree.delete",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Insert, 0, "utf-tree.add-file",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Insert, GDK_SHIFT_MASK,
                                       "utf-tree.add-directory", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK,
                                       "utf-tree.duplicate", NULL);
  _mshed_utf_tree_clip_class_init (widget_class);
  gtk_widget_class_set_css_name (widget_class, "utftree");
}

static void
mshed_utf_tree_init (MshedUtfTree *self)
{
  self->expanded = g_hash_table_new (NULL, NULL);
  self->bound = g_hash_table_new (NULL, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->editor = MSHED_CELL_EDITOR (mshed_cell_editor_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->editor), GTK_WIDGET (self));
  g_signal_connect_object (self->editor, "commit", G_CALLBACK (editor_commit_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "closed", G_CALLBACK (editor_closed_cb), self,
                           G_CONNECT_SWAPPED);
  _mshed_utf_tree_clip_init (self);

  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed",
                                  G_CALLBACK (document_changed_cb), self);
}

/* Public API ------------------------------------------------------------------------------- */

GtkWidget *
mshed_utf_tree_new (void)
{
  return g_object_new (MSHED_TYPE_UTF_TREE, NULL);
}

void
mshed_utf_tree_set_document (MshedUtfTree  *self,
                             MshedDocument *document)
{
  g_return_if_fail (MSHED_IS_UTF_TREE (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (mshed_cell_editor_is_open (self->editor))
    gtk_popover_popdown (GTK_POPOVER (self->editor));
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  g_hash_table_remove_all (self->expanded);
  g_clear_object (&self->tree);
  self->stale = FALSE;
  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  rebuild (self);
}

/**
 * mshed_utf_tree_get_document:
 *
 * Returns: (transfer none) (nullable): the document shown
 */
MshedDocument *
mshed_utf_tree_get_document (MshedUtfTree *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), NULL);

  return self->document;
}

/**
 * mshed_utf_tree_get_selected:
 *
 * Returns: (transfer none) (nullable): the selected node
 */
MshedUtfNode *
mshed_utf_tree_get_selected (MshedUtfTree *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), NULL);

  ensure_built (self);
  return row_node (gtk_single_selection_get_selected_item (self->selection));
}

gboolean
mshed_utf_tree_select_node (MshedUtfTree *self,
                            MshedUtfNode *node)
{
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();
  guint position;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);

  ensure_built (self);
  if (node == NULL)
    {
      select_position (self, GTK_INVALID_LIST_POSITION);
      return TRUE;
    }
  if (!node_in_tree (self, node))
    return FALSE;
  for (MshedUtfNode *a = mshed_utf_node_get_parent (node); a != NULL;
       a = mshed_utf_node_get_parent (a))
    g_ptr_array_add (chain, a);
  /* expand from the root down */
  for (guint i = chain->len; i-- > 0;)
    {
      guint p = node_position (self, g_ptr_array_index (chain, i));
      g_autoptr(GtkTreeListRow) row = p != G_MAXUINT ? gtk_tree_list_model_get_row (self->tree, p)
                                                     : NULL;

      if (row != NULL)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  position = node_position (self, node);
  if (position == G_MAXUINT)
    return FALSE;
  select_position (self, position);
  return TRUE;
}

guint
mshed_utf_tree_get_n_rows (MshedUtfTree *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), 0);

  ensure_built (self);
  return self->tree ? g_list_model_get_n_items (G_LIST_MODEL (self->tree)) : 0;
}

/**
 * mshed_utf_tree_get_editor:
 *
 * Returns: (transfer none): the rename editor
 */
MshedCellEditor *
mshed_utf_tree_get_editor (MshedUtfTree *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), NULL);

  return self->editor;
}

/* Shared with mshed-utf-tree-clip.c -------------------------------------------------------- */

MshedUtfNode *
_mshed_utf_tree_row_node (gpointer row)
{
  return row_node (row);
}

gboolean
_mshed_utf_tree_node_in_tree (MshedUtfTree       *self,
                              const MshedUtfNode *node)
{
  return node_in_tree (self, node);
}

void
_mshed_utf_tree_report (MshedUtfTree *self,
                        GError       *error)
{
  report (self, error);
}

void
_mshed_utf_tree_select_and_announce (MshedUtfTree *self,
                                     MshedUtfNode *node)
{
  select_and_announce (self, node);
}
