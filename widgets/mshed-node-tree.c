/* mshed-node-tree.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-node-tree"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-cell-editor.h"
#include "mshed-cp1251.h"
#include "mshed-node-tree.h"
#include "mshed-node-tree-private.h"

#define NO_PARENT G_MAXUINT

/* MshedNodeItem: one node, created when first shown and kept while the document is --------- */

#define MSHED_TYPE_NODE_ITEM (mshed_node_item_get_type ())
G_DECLARE_FINAL_TYPE (MshedNodeItem, mshed_node_item, MSHED, NODE_ITEM, GObject)

struct _MshedNodeItem
{
  GObject parent_instance;
  guint   node;
};

G_DEFINE_FINAL_TYPE (MshedNodeItem, mshed_node_item, G_TYPE_OBJECT)

static guint item_changed_signal;

static void
mshed_node_item_class_init (MshedNodeItemClass *klass)
{
  item_changed_signal = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mshed_node_item_init (MshedNodeItem *self)
{
}

/* The hierarchy: effective parents, shared by the children models of one tree ---------------- */

typedef struct {
  gatomicrefcount  ref_count;
  guint            n_nodes;
  guint           *parent;     /* NO_PARENT: a root (no parent, or a broken link) */
  GPtrArray       *items;      /* MshedNodeItem, created on demand */
} Hierarchy;

static Hierarchy *
hierarchy_ref (Hierarchy *h)
{
  g_atomic_ref_count_inc (&h->ref_count);
  return h;
}

static void
hierarchy_unref (Hierarchy *h)
{
  if (g_atomic_ref_count_dec (&h->ref_count))
    {
      g_free (h->parent);
      g_ptr_array_unref (h->items);
      g_free (h);
    }
}

static guint
count_nodes (MshedModel *model)
{
  const MshedNresEntry *r1;

  if (model == NULL)
    return 0;
  if (mshed_model_has_node_records (model))
    return mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  /* legacy 24-byte records: no parents or slots, but the names still count */
  r1 = mshed_model_get_resource (model, 1);
  if (r1 == NULL || r1->attr3 == 0)
    return 0;
  return (guint) MIN (r1->attr1, mshed_nres_entry_get_size (r1) / r1->attr3);
}

/* A parent link is followed when it names an earlier node (docs/msh.md: parents come first); any
 * other value makes the node a root, as the validator reports it. That also rules out loops. */
static guint *
compute_parents (MshedModel *model,
                 guint       n_nodes)
{
  guint *parent = g_new (guint, MAX (n_nodes, 1));

  for (guint i = 0; i < n_nodes; i++)
    {
      MshedNode node;

      parent[i] = NO_PARENT;
      if (model != NULL && mshed_model_get_node (model, i, &node) && node.hdr1 != MSHED_NONE &&
          node.hdr1 < i)
        parent[i] = node.hdr1;
    }
  return parent;
}

static Hierarchy *
hierarchy_new (MshedModel *model)
{
  Hierarchy *h = g_new0 (Hierarchy, 1);

  g_atomic_ref_count_init (&h->ref_count);
  h->n_nodes = count_nodes (model);
  h->parent = compute_parents (model, h->n_nodes);
  h->items = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_set_size (h->items, h->n_nodes);
  return h;
}

static MshedNodeItem *
hierarchy_get_item (Hierarchy *h,
                    guint      node)
{
  MshedNodeItem *item = g_ptr_array_index (h->items, node);

  if (item == NULL)
    {
      item = g_object_new (MSHED_TYPE_NODE_ITEM, NULL);
      item->node = node;
      g_ptr_array_index (h->items, node) = item;
    }
  return item;
}

/* MshedNodeChildren: the children of one node (or the roots), listed when first asked ------- */

#define MSHED_TYPE_NODE_CHILDREN (mshed_node_children_get_type ())
G_DECLARE_FINAL_TYPE (MshedNodeChildren, mshed_node_children, MSHED, NODE_CHILDREN, GObject)

struct _MshedNodeChildren
{
  GObject    parent_instance;
  Hierarchy *hierarchy;
  guint      parent;      /* NO_PARENT: the roots */
  GArray    *children;    /* guint */
};

static void children_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MshedNodeChildren, mshed_node_children, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, children_iface_init))

static GType
children_get_item_type (GListModel *list)
{
  return MSHED_TYPE_NODE_ITEM;
}

static guint
children_get_n_items (GListModel *list)
{
  return MSHED_NODE_CHILDREN (list)->children->len;
}

static gpointer
children_get_item (GListModel *list,
                   guint       position)
{
  MshedNodeChildren *self = MSHED_NODE_CHILDREN (list);

  if (position >= self->children->len)
    return NULL;
  return g_object_ref (hierarchy_get_item (self->hierarchy,
                                           g_array_index (self->children, guint, position)));
}

static void
children_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = children_get_item_type;
  iface->get_n_items = children_get_n_items;
  iface->get_item = children_get_item;
}

static void
mshed_node_children_finalize (GObject *object)
{
  MshedNodeChildren *self = MSHED_NODE_CHILDREN (object);

  g_clear_pointer (&self->hierarchy, hierarchy_unref);
  g_clear_pointer (&self->children, g_array_unref);

  G_OBJECT_CLASS (mshed_node_children_parent_class)->finalize (object);
}

static void
mshed_node_children_class_init (MshedNodeChildrenClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_node_children_finalize;
}

static void
mshed_node_children_init (MshedNodeChildren *self)
{
  self->children = g_array_new (FALSE, FALSE, sizeof (guint));
}

static MshedNodeChildren *
mshed_node_children_new (Hierarchy *h,
                         guint      parent)
{
  MshedNodeChildren *self = g_object_new (MSHED_TYPE_NODE_CHILDREN, NULL);

  self->hierarchy = hierarchy_ref (h);
  self->parent = parent;
  for (guint i = parent == NO_PARENT ? 0 : parent + 1; i < h->n_nodes; i++)
    if (h->parent[i] == parent)
      g_array_append_val (self->children, i);
  return self;
}

/* MshedNodeTree ----------------------------------------------------------------------------- */

typedef struct {
  GtkTreeExpander *expander;
  GtkCheckButton  *check;
  GtkLabel        *index_label;
  GtkInscription  *name;
  GtkLabel        *slots_label;
  MshedNodeItem   *item;
  gulong           changed_id;
  gulong           toggled_id;
} RowWidgets;

struct _MshedNodeTree
{
  GtkWidget           parent_instance;

  GtkWidget          *box;
  GtkSearchBar       *search_bar;
  GtkSearchEntry     *search_entry;
  GtkScrolledWindow  *scroller;
  GtkListView        *list_view;
  GtkSingleSelection *selection;
  GtkFilterListModel *filter_model;

  MshedCellEditor    *editor;
  MshedDocument      *document;
  GSignalGroup       *document_signals;
  Hierarchy          *hierarchy;
  GtkTreeListModel   *tree;
  GtkCustomFilter    *filter;

  GHashTable         *hidden;        /* node set */
  GHashTable         *bound;         /* RowWidgets set */
  GHashTable         *diags;         /* node -> char * (messages) */
  GHashTable         *diag_errors;   /* nodes with an error-level finding */
  gboolean            diags_dirty;
  guint8             *matches;       /* search: 1 matches, 2 ancestor of a match */
  GByteArray         *marks;         /* the compare window's, per node; NULL: none */
  guint               rename_node;
  guint               block_selection;
};

enum {
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

enum {
  NODE_SELECTED,
  VISIBILITY_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];
static GQuark row_quark;

G_DEFINE_FINAL_TYPE (MshedNodeTree, mshed_node_tree, GTK_TYPE_WIDGET)

static MshedModel *
get_model (MshedNodeTree *self)
{
  return self->document ? mshed_document_get_model (self->document) : NULL;
}

static guint
row_node (gpointer row)
{
  g_autoptr(MshedNodeItem) item = NULL;

  if (!GTK_IS_TREE_LIST_ROW (row))
    return G_MAXUINT;
  item = gtk_tree_list_row_get_item (row);
  return item ? item->node : G_MAXUINT;
}

static guint
position_node (MshedNodeTree *self,
               guint          position)
{
  g_autoptr(GObject) row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

  return row ? row_node (row) : G_MAXUINT;
}

static guint
node_position (MshedNodeTree *self,
               guint          node)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  for (guint i = 0; i < n; i++)
    if (position_node (self, i) == node)
      return i;
  return G_MAXUINT;
}

/* Diagnostics of nodes and their names, for the index label's tooltip -------------------------- */

static void
rebuild_diags (MshedNodeTree *self)
{
  const MshedDiagnostics *diags;

  self->diags_dirty = FALSE;
  g_hash_table_remove_all (self->diags);
  g_hash_table_remove_all (self->diag_errors);
  if (self->document == NULL || (diags = mshed_document_get_diagnostics (self->document)) == NULL)
    return;
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);
      gpointer key;
      char *old, *text;

      if (d->severity == MSHED_SEVERITY_INFO || d->record < 0 || d->record > G_MAXUINT ||
          (d->table != MSHED_TABLE_NODES && d->table != MSHED_TABLE_NAMES))
        continue;
      key = GUINT_TO_POINTER ((guint) d->record);
      old = g_hash_table_lookup (self->diags, key);
      text = old ? g_strconcat (old, "\n", d->message, NULL) : g_strdup (d->message);
      g_hash_table_insert (self->diags, key, text);
      if (d->severity == MSHED_SEVERITY_ERROR)
        g_hash_table_add (self->diag_errors, key);
    }
}

/* Rows ----------------------------------------------------------------------------------------- */

/* gtk_widget_set_tooltip_text() queries the pointer (an X round trip): only on change. */
static void
set_tooltip (GtkWidget  *widget,
             const char *text)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

static void
set_class (GtkWidget  *widget,
           const char *name,
           gboolean    on)
{
  if (on)
    gtk_widget_add_css_class (widget, name);
  else
    gtk_widget_remove_css_class (widget, name);
}

static void
refresh_row (RowWidgets *rw)
{
  MshedNodeTree *self = g_object_get_qdata (G_OBJECT (rw->expander), row_quark);
  MshedModel *model = get_model (self);
  g_autofree char *index = NULL;
  g_autofree char *name = NULL;
  g_autofree char *slots = NULL;
  g_autofree char *slots_tip = NULL;
  const char *diag;
  const guint8 *raw;
  guint32 len = 0;
  gboolean lossless = TRUE;
  MshedNode node;
  guint n;

  if (rw->item == NULL || model == NULL)
    return;
  n = rw->item->node;

  index = g_strdup_printf ("%u", n);
  gtk_label_set_text (rw->index_label, index);

  if (mshed_model_get_name_raw (model, n, &raw, &len) && len > 0)
    name = mshed_cp1251_to_utf8 (raw, len, &lossless);
  if (name != NULL)
    gtk_inscription_set_text (rw->name, name);
  else
    /* TRANSLATORS: a node with an empty name in the node tree */
    gtk_inscription_set_text (rw->name, _("(no name)"));
  set_class (GTK_WIDGET (rw->name), "unnamed", name == NULL);
  set_class (GTK_WIDGET (rw->name), "lossy", !lossless);
  set_tooltip (GTK_WIDGET (rw->name),
                               lossless ? NULL
                                        : _("Some bytes of this name have no Windows-1251 "
                                            "character; they are shown as \\xNN"));

  if (mshed_model_get_node (model, n, &node))
    {
      guint used[MSHED_N_LODS] = { 0 };

      for (guint i = 0; i < MSHED_N_SLOT_CELLS; i++)
        if (node.slot[i] != MSHED_NONE)
          used[i / MSHED_N_GROUPS]++;
      slots = g_strdup_printf ("%u·%u·%u", used[0], used[1], used[2]);
      /* TRANSLATORS: tooltip of "3·2·0" in the node tree */
      slots_tip = g_strdup_printf (_("Slots used per LOD: LOD 0: %u, LOD 1: %u, LOD 2: %u"),
                                   used[0], used[1], used[2]);
    }
  gtk_label_set_text (rw->slots_label, slots ? slots : "—");
  set_tooltip (GTK_WIDGET (rw->slots_label), slots_tip);

  if (self->diags_dirty)
    rebuild_diags (self);
  diag = g_hash_table_lookup (self->diags, GUINT_TO_POINTER (n));
  set_class (GTK_WIDGET (rw->index_label), "invalid",
             diag != NULL && g_hash_table_contains (self->diag_errors, GUINT_TO_POINTER (n)));
  set_class (GTK_WIDGET (rw->index_label), "warning",
             diag != NULL && !g_hash_table_contains (self->diag_errors, GUINT_TO_POINTER (n)));
  set_tooltip (GTK_WIDGET (rw->index_label), diag);

  set_class (gtk_widget_get_parent (GTK_WIDGET (rw->expander))
               ? gtk_widget_get_parent (GTK_WIDGET (rw->expander))
               : GTK_WIDGET (rw->expander),
             "match", self->matches != NULL && n < self->hierarchy->n_nodes &&
                      self->matches[n] == 1);
  set_class (gtk_widget_get_parent (GTK_WIDGET (rw->expander))
               ? gtk_widget_get_parent (GTK_WIDGET (rw->expander))
               : GTK_WIDGET (rw->expander),
             "diff-changed", self->marks && n < self->marks->len && self->marks->data[n] == 1);
  set_class (gtk_widget_get_parent (GTK_WIDGET (rw->expander))
               ? gtk_widget_get_parent (GTK_WIDGET (rw->expander))
               : GTK_WIDGET (rw->expander),
             "diff-only", self->marks && n < self->marks->len && self->marks->data[n] == 2);

  g_signal_handler_block (rw->check, rw->toggled_id);
  gtk_check_button_set_active (rw->check,
                               !g_hash_table_contains (self->hidden, GUINT_TO_POINTER (n)));
  g_signal_handler_unblock (rw->check, rw->toggled_id);
}

static void
refresh_all_rows (MshedNodeTree *self)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    refresh_row (key);
}

static void
check_toggled_cb (GtkCheckButton *check,
                  RowWidgets     *rw)
{
  MshedNodeTree *self = g_object_get_qdata (G_OBJECT (rw->expander), row_quark);

  if (rw->item != NULL)
    mshed_node_tree_set_node_visible (self, rw->item->node, gtk_check_button_get_active (check));
}

static void
row_widgets_free (gpointer data)
{
  RowWidgets *rw = data;

  if (rw->item != NULL)
    {
      g_clear_signal_handler (&rw->changed_id, rw->item);
      g_clear_object (&rw->item);
    }
  g_free (rw);
}

static void
factory_setup_cb (MshedNodeTree            *self,
                  GtkListItem              *list_item,
                  GtkSignalListItemFactory *factory)
{
  RowWidgets *rw = g_new0 (RowWidgets, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_widget_set_margin_end (box, 8);

  rw->expander = GTK_TREE_EXPANDER (gtk_tree_expander_new ());
  rw->check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  rw->index_label = GTK_LABEL (gtk_label_new (NULL));
  rw->name = GTK_INSCRIPTION (gtk_inscription_new (NULL));
  rw->slots_label = GTK_LABEL (gtk_label_new (NULL));

  gtk_widget_set_tooltip_text (GTK_WIDGET (rw->check), _("Show in the preview"));
  gtk_widget_set_valign (GTK_WIDGET (rw->check), GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (rw->index_label), "node-index");
  gtk_widget_add_css_class (GTK_WIDGET (rw->index_label), "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (rw->index_label), "dim-label");
  gtk_label_set_xalign (rw->index_label, 1.0f);
  gtk_label_set_width_chars (rw->index_label, 3);
  gtk_inscription_set_text_overflow (rw->name, GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_min_chars (rw->name, 3);
  gtk_inscription_set_nat_chars (rw->name, 14);
  gtk_widget_set_hexpand (GTK_WIDGET (rw->name), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (rw->name), "node-name");
  gtk_widget_add_css_class (GTK_WIDGET (rw->slots_label), "node-slots");
  gtk_widget_add_css_class (GTK_WIDGET (rw->slots_label), "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (rw->slots_label), "dim-label");

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (rw->check));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (rw->index_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (rw->name));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (rw->slots_label));
  gtk_tree_expander_set_child (rw->expander, box);

  rw->toggled_id = g_signal_connect (rw->check, "toggled", G_CALLBACK (check_toggled_cb), rw);
  g_object_set_qdata (G_OBJECT (rw->expander), row_quark, self);
  g_object_set_qdata_full (G_OBJECT (list_item), row_quark, rw, row_widgets_free);
  gtk_list_item_set_child (list_item, GTK_WIDGET (rw->expander));
}

static void
factory_bind_cb (MshedNodeTree            *self,
                 GtkListItem              *list_item,
                 GtkSignalListItemFactory *factory)
{
  RowWidgets *rw = g_object_get_qdata (G_OBJECT (list_item), row_quark);
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  gtk_tree_expander_set_list_row (rw->expander, row);
  rw->item = row ? gtk_tree_list_row_get_item (row) : NULL;
  if (rw->item != NULL)
    rw->changed_id = g_signal_connect_swapped (rw->item, "changed", G_CALLBACK (refresh_row), rw);
  g_hash_table_add (self->bound, rw);
  refresh_row (rw);
}

static void
factory_unbind_cb (MshedNodeTree            *self,
                   GtkListItem              *list_item,
                   GtkSignalListItemFactory *factory)
{
  RowWidgets *rw = g_object_get_qdata (G_OBJECT (list_item), row_quark);

  gtk_tree_expander_set_list_row (rw->expander, NULL);
  if (rw->item != NULL)
    {
      g_clear_signal_handler (&rw->changed_id, rw->item);
      g_clear_object (&rw->item);
    }
  g_hash_table_remove (self->bound, rw);
}

static RowWidgets *
find_row (MshedNodeTree *self,
          guint          node)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      RowWidgets *rw = key;

      if (rw->item != NULL && rw->item->node == node)
        return rw;
    }
  return NULL;
}

/* The tree model ---------------------------------------------------------------------------- */

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  MshedNodeTree *self = user_data;
  MshedNodeChildren *children;

  if (self->hierarchy == NULL)
    return NULL;
  children = mshed_node_children_new (self->hierarchy, MSHED_NODE_ITEM (item)->node);
  if (children->children->len == 0)
    {
      g_object_unref (children);
      return NULL;
    }
  return G_LIST_MODEL (children);
}

/* Sets @node's row (and its ancestors) expanded in the tree model. */
static void
expand_to (MshedNodeTree *self,
           guint          node)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));

  if (self->tree == NULL || node >= self->hierarchy->n_nodes)
    return;
  for (guint a = self->hierarchy->parent[node]; a != NO_PARENT; a = self->hierarchy->parent[a])
    g_array_prepend_val (chain, a);

  for (guint k = 0; k < chain->len; k++)
    {
      guint want = g_array_index (chain, guint, k);
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree, i);

          if (row_node (row) == want)
            {
              gtk_tree_list_row_set_expanded (row, TRUE);
              break;
            }
        }
    }
}

static void
rebuild_tree (MshedNodeTree *self)
{
  g_autoptr(GHashTable) collapsed = g_hash_table_new (NULL, NULL);
  MshedNodeChildren *roots;
  guint selected = G_MAXUINT;

  if (self->tree != NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));

      mshed_node_tree_get_selected_node (self, &selected);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree, i);

          if (gtk_tree_list_row_is_expandable (row) && !gtk_tree_list_row_get_expanded (row))
            g_hash_table_add (collapsed, GUINT_TO_POINTER (row_node (row)));
        }
    }

  g_clear_pointer (&self->hierarchy, hierarchy_unref);
  g_clear_pointer (&self->matches, g_free);
  self->hierarchy = hierarchy_new (get_model (self));

  roots = mshed_node_children_new (self->hierarchy, NO_PARENT);
  self->block_selection++;
  g_clear_object (&self->tree);
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (roots), FALSE, TRUE, create_children_cb,
                                        self, NULL);
  gtk_filter_list_model_set_model (self->filter_model, G_LIST_MODEL (self->tree));

  if (g_hash_table_size (collapsed) > 0)
    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tree)); i++)
      {
        g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree, i);

        if (g_hash_table_contains (collapsed, GUINT_TO_POINTER (row_node (row))))
          gtk_tree_list_row_set_expanded (row, FALSE);
      }
  self->block_selection--;

  /* re-apply the search to the new rows */
  if (*gtk_editable_get_text (GTK_EDITABLE (self->search_entry)) != '\0')
    g_signal_emit_by_name (self->search_entry, "search-changed");

  if (selected != G_MAXUINT && selected < self->hierarchy->n_nodes)
    mshed_node_tree_select_node (self, selected);
}

static gboolean
parents_differ (MshedNodeTree *self)
{
  MshedModel *model = get_model (self);
  guint n = count_nodes (model);
  g_autofree guint *parent = NULL;

  if (self->hierarchy == NULL || n != self->hierarchy->n_nodes)
    return TRUE;
  parent = compute_parents (model, n);
  return memcmp (parent, self->hierarchy->parent, n * sizeof (guint)) != 0;
}

static void
shift_hidden (MshedNodeTree *self,
              guint          first,
              guint          removed,
              guint          added)
{
  g_autoptr(GHashTable) old = g_steal_pointer (&self->hidden);
  GHashTableIter iter;
  gpointer key;

  self->hidden = g_hash_table_new (NULL, NULL);
  g_hash_table_iter_init (&iter, old);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint n = GPOINTER_TO_UINT (key);

      if (n < first)
        g_hash_table_add (self->hidden, key);
      else if (n >= first + removed)
        g_hash_table_add (self->hidden, GUINT_TO_POINTER (n - removed + added));
    }
}

static void
document_changed_cb (MshedNodeTree     *self,
                     const MshedChange *change,
                     MshedDocument     *document)
{
  gboolean structural = change->n_removed != change->n_added;

  if ((change->flags & MSHED_CHANGE_FLAG_ALL) || change->origin == MSHED_CHANGE_ORIGIN_RELOAD)
    {
      g_hash_table_remove_all (self->hidden);
      rebuild_tree (self);
      return;
    }
  if (change->table != MSHED_TABLE_NODES && change->table != MSHED_TABLE_NAMES &&
      change->table != MSHED_TABLE_DIRECTORY)
    return;

  if (change->table == MSHED_TABLE_NODES && structural)
    shift_hidden (self, change->first_row, change->n_removed, change->n_added);

  if (parents_differ (self))
    {
      rebuild_tree (self);
      return;
    }

  /* in place: names, slot cells, flags */
  if (change->n_added == 0 || structural || change->table == MSHED_TABLE_DIRECTORY)
    {
      for (guint i = 0; i < self->hierarchy->n_nodes; i++)
        if (g_ptr_array_index (self->hierarchy->items, i) != NULL)
          g_signal_emit (g_ptr_array_index (self->hierarchy->items, i), item_changed_signal, 0);
    }
  else
    {
      for (guint i = change->first_row;
           i < self->hierarchy->n_nodes && i - change->first_row < change->n_added; i++)
        if (g_ptr_array_index (self->hierarchy->items, i) != NULL)
          g_signal_emit (g_ptr_array_index (self->hierarchy->items, i), item_changed_signal, 0);
    }
}

static void
diagnostics_changed_cb (MshedNodeTree *self)
{
  self->diags_dirty = TRUE;
  refresh_all_rows (self);
}

/* Selection --------------------------------------------------------------------------------- */

static void
selection_changed_cb (MshedNodeTree *self)
{
  guint node;

  if (self->block_selection > 0)
    return;
  if (mshed_node_tree_get_selected_node (self, &node))
    g_signal_emit (self, signals[NODE_SELECTED], 0, node);
}

static void
scroll_to (MshedNodeTree *self,
           guint          position)
{
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                              position);
}

/* Rename ------------------------------------------------------------------------------------ */

static gboolean
start_rename (MshedNodeTree *self,
              guint          node)
{
  MshedModel *model = get_model (self);
  GdkRectangle area = { 0, 0, 1, 1 };
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
  const guint8 *raw;
  guint32 len = 0;
  graphene_rect_t b;
  RowWidgets *rw;

  if (model == NULL || node >= self->hierarchy->n_nodes)
    return FALSE;

  if (mshed_model_get_name_raw (model, node, &raw, &len) && len > 0)
    name = mshed_cp1251_to_utf8 (raw, len, NULL);

  self->rename_node = node;
  rw = find_row (self, node);
  if (rw != NULL &&
      gtk_widget_compute_bounds (GTK_WIDGET (rw->name), GTK_WIDGET (self), &b))
    {
      area.x = (int) b.origin.x;
      area.y = (int) b.origin.y;
      area.width = MAX (1, (int) b.size.width);
      area.height = MAX (1, (int) b.size.height);
    }

  title = g_strdup_printf (_("Rename node %u"), node);
  mshed_cell_editor_start (self->editor, &area, title,
                           _("Stored as Windows-1251: Latin and Cyrillic letters, digits and "
                             "common punctuation. Leave empty for no name."),
                           name ? name : "", TRUE);
  return TRUE;
}

static void
editor_commit_cb (MshedNodeTree   *self,
                  const char      *text,
                  int              move,
                  MshedCellEditor *editor)
{
  g_autoptr(GError) error = NULL;

  if (self->document == NULL)
    return;
  if (!mshed_document_rename_node (self->document, self->rename_node, text, &error))
    {
      mshed_cell_editor_reject (editor, error->message);
      return;
    }
  mshed_cell_editor_accept (editor);
}

static void
editor_closed_cb (MshedNodeTree *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
list_activate_cb (MshedNodeTree *self,
                  guint          position)
{
  guint node = position_node (self, position);

  if (node != G_MAXUINT)
    start_rename (self, node);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  if (!mshed_node_tree_start_rename (MSHED_NODE_TREE (widget)))
    gtk_widget_error_bell (widget);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  mshed_node_tree_start_search (MSHED_NODE_TREE (widget));
}

/* Search ------------------------------------------------------------------------------------ */

static gboolean
filter_match_cb (gpointer item,
                 gpointer user_data)
{
  MshedNodeTree *self = user_data;
  guint node = row_node (item);

  return self->matches != NULL && node < self->hierarchy->n_nodes && self->matches[node] != 0;
}

static void
compute_matches (MshedNodeTree *self,
                 const char    *text)
{
  MshedModel *model = get_model (self);
  g_autofree char *needle = g_utf8_casefold (text, -1);
  char *end = NULL;
  guint64 number = g_ascii_strtoull (text, &end, 10);
  gboolean numeric = g_ascii_isdigit (text[0]) && end != NULL && *end == '\0';
  guint n = self->hierarchy->n_nodes;

  g_clear_pointer (&self->matches, g_free);
  self->matches = g_new0 (guint8, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = model ? mshed_model_dup_name (model, i) : NULL;
      g_autofree char *folded = name ? g_utf8_casefold (name, -1) : NULL;

      if ((numeric && number == i) || (folded != NULL && strstr (folded, needle) != NULL))
        {
          self->matches[i] = 1;
          for (guint a = self->hierarchy->parent[i]; a != NO_PARENT && self->matches[a] == 0;
               a = self->hierarchy->parent[a])
            self->matches[a] = 2;
        }
    }
}

static void
search_changed_cb (MshedNodeTree  *self,
                   GtkSearchEntry *entry)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));

  self->block_selection++;
  if (*text == '\0' || self->hierarchy == NULL)
    {
      g_clear_pointer (&self->matches, g_free);
      gtk_filter_list_model_set_filter (self->filter_model, NULL);
    }
  else
    {
      compute_matches (self, text);
      for (guint i = 0; i < self->hierarchy->n_nodes; i++)
        if (self->matches[i] == 1)
          expand_to (self, i);
      if (gtk_filter_list_model_get_filter (self->filter_model) == NULL)
        gtk_filter_list_model_set_filter (self->filter_model, GTK_FILTER (self->filter));
      else
        gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
    }
  self->block_selection--;
  refresh_all_rows (self);
}

/* Selects the next (@step 1) or previous (-1) node that matches the search itself. */
static void
jump_to_match (MshedNodeTree *self,
               int            step)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint start = gtk_single_selection_get_selected (self->selection);

  if (self->matches == NULL || n == 0)
    return;
  if (start == GTK_INVALID_LIST_POSITION)
    start = step > 0 ? n - 1 : 0;
  for (guint k = 1; k <= n; k++)
    {
      guint pos = (guint) (((gint64) start + (gint64) step * k % (gint64) n + n) % n);
      guint node = position_node (self, pos);

      if (node < self->hierarchy->n_nodes && self->matches[node] == 1)
        {
          gtk_single_selection_set_selected (self->selection, pos);
          scroll_to (self, pos);
          return;
        }
    }
  gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
search_activate_cb (MshedNodeTree  *self,
                    GtkSearchEntry *entry)
{
  jump_to_match (self, 1);
  gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
search_next_cb (MshedNodeTree *self)
{
  jump_to_match (self, 1);
}

static void
search_previous_cb (MshedNodeTree *self)
{
  jump_to_match (self, -1);
}

static void
search_stop_cb (MshedNodeTree  *self,
                GtkSearchEntry *entry)
{
  guint node;
  gboolean had = mshed_node_tree_get_selected_node (self, &node);

  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  if (had)
    mshed_node_tree_select_node (self, node);
  gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

/* GObject / GtkWidget ---------------------------------------------------------------------- */

static void
mshed_node_tree_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  gtk_widget_measure (MSHED_NODE_TREE (widget)->box, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

static void
mshed_node_tree_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  MshedNodeTree *self = MSHED_NODE_TREE (widget);

  gtk_widget_allocate (self->box, width, height, baseline, NULL);
  if (self->editor != NULL)
    gtk_popover_present (GTK_POPOVER (self->editor));
}

static gboolean
mshed_node_tree_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (MSHED_NODE_TREE (widget)->list_view));
}

static void
mshed_node_tree_dispose (GObject *object)
{
  MshedNodeTree *self = MSHED_NODE_TREE (object);

  if (self->editor != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->editor));
      self->editor = NULL;
    }
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_NODE_TREE);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->tree);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->hierarchy, hierarchy_unref);

  G_OBJECT_CLASS (mshed_node_tree_parent_class)->dispose (object);
}

static void
mshed_node_tree_finalize (GObject *object)
{
  MshedNodeTree *self = MSHED_NODE_TREE (object);

  g_clear_pointer (&self->hidden, g_hash_table_unref);
  g_clear_pointer (&self->bound, g_hash_table_unref);
  g_clear_pointer (&self->diags, g_hash_table_unref);
  g_clear_pointer (&self->diag_errors, g_hash_table_unref);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->marks, g_byte_array_unref);

  G_OBJECT_CLASS (mshed_node_tree_parent_class)->finalize (object);
}

static void
mshed_node_tree_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, MSHED_NODE_TREE (object)->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_node_tree_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_DOCUMENT:
      mshed_node_tree_set_document (MSHED_NODE_TREE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_node_tree_class_init (MshedNodeTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_node_tree_dispose;
  object_class->finalize = mshed_node_tree_finalize;
  object_class->get_property = mshed_node_tree_get_property;
  object_class->set_property = mshed_node_tree_set_property;

  widget_class->measure = mshed_node_tree_measure;
  widget_class->size_allocate = mshed_node_tree_size_allocate;
  widget_class->grab_focus = mshed_node_tree_grab_focus;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, MSHED_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MshedNodeTree::node-selected:
   * @node: the node index
   */
  signals[NODE_SELECTED] =
    g_signal_new ("node-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * MshedNodeTree::visibility-changed:
   * @node: the node index
   * @visible: whether the preview shows it
   */
  signals[VISIBILITY_CHANGED] =
    g_signal_new ("visibility-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-node-tree.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedNodeTree, box);
  gtk_widget_class_bind_template_child (widget_class, MshedNodeTree, search_bar);
  gtk_widget_class_bind_template_child (widget_class, MshedNodeTree, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MshedNodeTree, scroller);
  gtk_widget_class_bind_template_child (widget_class, MshedNodeTree, list_view);
  gtk_widget_class_bind_template_child (widget_class, MshedNodeTree, selection);
  gtk_widget_class_bind_template_child (widget_class, MshedNodeTree, filter_model);
  gtk_widget_class_bind_template_callback (widget_class, factory_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, factory_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, factory_unbind_cb);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, list_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);

  gtk_widget_class_install_action (widget_class, "tree.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "tree.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "tree.rename", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "tree.search", NULL);

  gtk_widget_class_set_css_name (widget_class, "nodetree");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  row_quark = g_quark_from_static_string ("mshed-node-tree-row");
}

static void
mshed_node_tree_init (MshedNodeTree *self)
{
  self->hidden = g_hash_table_new (NULL, NULL);
  self->bound = g_hash_table_new (NULL, NULL);
  self->diags = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->diag_errors = g_hash_table_new (NULL, NULL);
  self->filter = gtk_custom_filter_new (filter_match_cb, self, NULL);
  self->rename_node = G_MAXUINT;

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));

  self->editor = MSHED_CELL_EDITOR (mshed_cell_editor_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->editor), GTK_WIDGET (self));
  g_signal_connect_object (self->editor, "commit", G_CALLBACK (editor_commit_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "closed", G_CALLBACK (editor_closed_cb), self,
                           G_CONNECT_SWAPPED);

  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed",
                                  G_CALLBACK (document_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "diagnostics-changed",
                                  G_CALLBACK (diagnostics_changed_cb), self);

  rebuild_tree (self);
}

/* Public API ------------------------------------------------------------------------------- */

GtkWidget *
mshed_node_tree_new (void)
{
  return g_object_new (MSHED_TYPE_NODE_TREE, NULL);
}

/**
 * mshed_node_tree_get_document:
 *
 * Returns: (transfer none) (nullable): the document shown
 */
MshedDocument *
mshed_node_tree_get_document (MshedNodeTree *self)
{
  g_return_val_if_fail (MSHED_IS_NODE_TREE (self), NULL);

  return self->document;
}

void
mshed_node_tree_set_document (MshedNodeTree *self,
                              MshedDocument *document)
{
  g_return_if_fail (MSHED_IS_NODE_TREE (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (self->document == document)
    return;

  if (mshed_cell_editor_is_open (self->editor))
    gtk_popover_popdown (GTK_POPOVER (self->editor));

  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  g_hash_table_remove_all (self->hidden);
  self->diags_dirty = TRUE;

  self->block_selection++;
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_clear_object (&self->tree);   /* nothing to keep from another document */
  rebuild_tree (self);
  self->block_selection--;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

void
mshed_node_tree_select_node (MshedNodeTree *self,
                             guint          node)
{
  guint pos;

  g_return_if_fail (MSHED_IS_NODE_TREE (self));

  self->block_selection++;
  if (node == G_MAXUINT || self->hierarchy == NULL || node >= self->hierarchy->n_nodes)
    {
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      self->block_selection--;
      return;
    }

  pos = node_position (self, node);
  if (pos == G_MAXUINT)
    {
      expand_to (self, node);
      pos = node_position (self, node);
    }
  if (pos == G_MAXUINT && gtk_filter_list_model_get_filter (self->filter_model) != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      g_signal_emit_by_name (self->search_entry, "search-changed");
      pos = node_position (self, node);
    }
  if (pos != G_MAXUINT)
    {
      gtk_single_selection_set_selected (self->selection, pos);
      scroll_to (self, pos);
    }
  self->block_selection--;
}

gboolean
mshed_node_tree_get_selected_node (MshedNodeTree *self,
                                   guint         *node)
{
  guint pos, n;

  g_return_val_if_fail (MSHED_IS_NODE_TREE (self), FALSE);

  pos = gtk_single_selection_get_selected (self->selection);
  if (pos == GTK_INVALID_LIST_POSITION)
    return FALSE;
  n = position_node (self, pos);
  if (n == G_MAXUINT)
    return FALSE;
  if (node != NULL)
    *node = n;
  return TRUE;
}

void
mshed_node_tree_start_search (MshedNodeTree *self)
{
  g_return_if_fail (MSHED_IS_NODE_TREE (self));

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

gboolean
mshed_node_tree_start_rename (MshedNodeTree *self)
{
  guint node;

  g_return_val_if_fail (MSHED_IS_NODE_TREE (self), FALSE);

  if (!mshed_node_tree_get_selected_node (self, &node))
    return FALSE;
  return start_rename (self, node);
}

gboolean
mshed_node_tree_get_node_visible (MshedNodeTree *self,
                                  guint          node)
{
  g_return_val_if_fail (MSHED_IS_NODE_TREE (self), TRUE);

  return !g_hash_table_contains (self->hidden, GUINT_TO_POINTER (node));
}

void
mshed_node_tree_set_node_visible (MshedNodeTree *self,
                                  guint          node,
                                  gboolean       visible)
{
  RowWidgets *rw;

  g_return_if_fail (MSHED_IS_NODE_TREE (self));

  visible = !!visible;
  if (mshed_node_tree_get_node_visible (self, node) == visible)
    return;
  if (visible)
    g_hash_table_remove (self->hidden, GUINT_TO_POINTER (node));
  else
    g_hash_table_add (self->hidden, GUINT_TO_POINTER (node));
  if ((rw = find_row (self, node)) != NULL)
    refresh_row (rw);
  g_signal_emit (self, signals[VISIBILITY_CHANGED], 0, node, visible);
}

/* Private API (tests) ------------------------------------------------------------------------ */

MshedCellEditor *
_mshed_node_tree_get_editor (MshedNodeTree *self)
{
  return self->editor;
}

GListModel *
_mshed_node_tree_get_rows (MshedNodeTree *self)
{
  return G_LIST_MODEL (self->selection);
}

guint
_mshed_node_tree_row_get_node (gpointer row)
{
  return row_node (row);
}

GtkWidget *
_mshed_node_tree_find_row_widget (MshedNodeTree *self,
                                  guint          node)
{
  RowWidgets *rw = find_row (self, node);

  return rw ? GTK_WIDGET (rw->expander) : NULL;
}

void
_mshed_node_tree_set_search_text (MshedNodeTree *self,
                                  const char    *text)
{
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  g_signal_emit_by_name (self->search_entry, "search-changed");
}

void
mshed_node_tree_set_marks (MshedNodeTree *self,
                           const guint8  *marks,
                           guint          n_marks)
{
  g_return_if_fail (MSHED_IS_NODE_TREE (self));

  g_clear_pointer (&self->marks, g_byte_array_unref);
  if (marks != NULL)
    self->marks = g_byte_array_append (g_byte_array_new (), marks, n_marks);
  refresh_all_rows (self);
}
