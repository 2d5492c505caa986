/* mshed-compare-window-tree.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compare window's node trees (docs/diff.md §7): each side's node hierarchy (Parkan
 * models) or UTF tree (deformable models and other UTF files), the nodes that differ marked
 * (changed, or only on this side). Selecting a node on one side selects the node the diff
 * aligns with it on the other (by name, as the diff aligns them) and shows it in the grids and
 * previews; the next and previous difference (F7, Shift+F7) move the tree selections too.
 */
#define G_LOG_DOMAIN "mshed-compare"

#include "config.h"

#include <string.h>

#include "mshed-compare-window-private.h"
#include "mshed-dfm-schema.h"
#include "mshed-model-view.h"
#include "mshed-node-tree.h"
#include "mshed-renderer.h"
#include "mshed-utf-tree.h"

static guint
n_nodes (MshedModel *model)
{
  return model && mshed_model_has_node_records (model)
         ? mshed_model_get_n_rows (model, MSHED_TABLE_NODES) : 0;
}

/* The first node of @model that uses slot @slot, G_MAXUINT when none. */
static guint
slot_owner (MshedModel *model,
            guint       slot)
{
  for (guint n = 0; n < n_nodes (model); n++)
    {
      MshedNode node;

      if (mshed_model_get_node (model, n, &node))
        for (guint i = 0; i < MSHED_N_SLOT_CELLS; i++)
          if (node.slot[i] == slot)
            return n;
    }
  return G_MAXUINT;
}

/* The node of @side a difference is about (MSH models), G_MAXUINT when none. */
static guint
item_node (MshedCompareWindow  *self,
           const MshedDiffItem *item,
           guint                side)
{
  guint row = side == 0 ? item->row_a : item->row_b;

  if (item->path != NULL || row == MSHED_DIFF_NO_ROW)
    return G_MAXUINT;
  if (item->table == MSHED_TABLE_NODES || item->table == MSHED_TABLE_NAMES)
    return row;
  if (item->table == MSHED_TABLE_SLOTS)
    return slot_owner (mshed_document_get_model (self->docs[side]), row);
  return G_MAXUINT;
}

/* The UTF node of @side a difference is about, NULL when none. */
static MshedUtfNode *
item_utf_node (MshedCompareWindow  *self,
               const MshedDiffItem *item,
               guint                side)
{
  MshedUtf *utf = mshed_document_get_utf (self->docs[side]);

  if (utf == NULL || item->path == NULL ||
      (side == 1 && item->kind == MSHED_DIFF_RESOURCE_REMOVED) ||
      (side == 0 && item->kind == MSHED_DIFF_RESOURCE_ADDED))
    return NULL;
  return mshed_utf_lookup (utf, item->path);
}

static guint
item_mark (const MshedDiffItem *item)
{
  switch (item->kind)
    {
    case MSHED_DIFF_ROW_ADDED:
    case MSHED_DIFF_ROW_REMOVED:
    case MSHED_DIFF_RESOURCE_ADDED:
    case MSHED_DIFF_RESOURCE_REMOVED:
      return MSHED_DIFF_MARK_ONLY;
    default:
      return MSHED_DIFF_MARK_CHANGED;
    }
}

static void
mark_msh (MshedCompareWindow *self,
          guint               side)
{
  guint n = n_nodes (mshed_document_get_model (self->docs[side]));
  g_autofree guint8 *marks = g_new0 (guint8, MAX (n, 1));

  for (guint i = 0; self->diff && i < mshed_diff_get_n_items (self->diff); i++)
    {
      const MshedDiffItem *item = mshed_diff_get_item (self->diff, i);
      guint node = item_node (self, item, side);

      if (node < n && marks[node] != MSHED_DIFF_MARK_ONLY)
        marks[node] = item->table == MSHED_TABLE_NODES ? item_mark (item)
                                                       : MSHED_DIFF_MARK_CHANGED;
    }
  mshed_node_tree_set_marks (MSHED_NODE_TREE (self->trees[side]), marks, n);
}

static void
mark_utf (MshedCompareWindow *self,
          guint               side)
{
  g_autoptr(GHashTable) marks = g_hash_table_new (NULL, NULL);

  for (guint i = 0; self->diff && i < mshed_diff_get_n_items (self->diff); i++)
    {
      const MshedDiffItem *item = mshed_diff_get_item (self->diff, i);
      MshedUtfNode *node = item_utf_node (self, item, side);

      if (node == NULL)
        continue;
      g_hash_table_insert (marks, node, GUINT_TO_POINTER (item_mark (item)));
      /* the directories above: changed, so a collapsed tree still shows where */
      for (MshedUtfNode *p = mshed_utf_node_get_parent (node); p != NULL;
           p = mshed_utf_node_get_parent (p))
        if (!g_hash_table_contains (marks, p))
          g_hash_table_insert (marks, p, GUINT_TO_POINTER (MSHED_DIFF_MARK_CHANGED));
    }
  mshed_utf_tree_set_marks (MSHED_UTF_TREE (self->trees[side]), marks);
}

void
_mshed_compare_window_update_trees (MshedCompareWindow *self)
{
  for (guint s = 0; s < 2; s++)
    if (self->trees[s] == NULL)
      continue;
    else if (MSHED_IS_NODE_TREE (self->trees[s]))
      mark_msh (self, s);
    else
      mark_utf (self, s);
}

/* The node of @other named as @node of @side (the first such; @node itself when its name
 * matches there), G_MAXUINT when none. */
static guint
aligned_node (MshedCompareWindow *self,
              guint               side,
              guint               node)
{
  MshedModel *a = mshed_document_get_model (self->docs[side]);
  MshedModel *b = mshed_document_get_model (self->docs[!side]);
  const guint8 *na = NULL, *nb = NULL;
  guint32 la = 0, lb = 0;

  if (!mshed_model_get_name_raw (a, node, &na, &la))
    return G_MAXUINT;
  for (guint k = 0; k <= n_nodes (b); k++)
    {
      guint j = k == 0 ? node : k - 1;  /* the same number first */

      if (j < n_nodes (b) && mshed_model_get_name_raw (b, j, &nb, &lb) && la == lb &&
          (la == 0 || memcmp (na, nb, la) == 0))
        return j;
    }
  return G_MAXUINT;
}

/* The previews highlight @nodes[side] (MSH models). */
static void
select_in_previews (MshedCompareWindow *self,
                    const guint         nodes[2])
{
  for (guint s = 0; s < 2 && self->previews[0] != NULL; s++)
    {
      g_autoptr(MshedSelection) sel = mshed_selection_new ();

      if (nodes[s] != G_MAXUINT)
        mshed_selection_add_node (sel, mshed_document_get_model (self->docs[s]), nodes[s]);
      mshed_model_view_set_selection (MSHED_MODEL_VIEW (self->previews[s]), sel);
    }
}

static void
node_selected_cb (GtkWidget          *tree,
                  guint               node,
                  MshedCompareWindow *self)
{
  guint side = tree == self->trees[0] ? 0 : 1;
  guint nodes[2];

  nodes[side] = node;
  nodes[!side] = node != G_MAXUINT ? aligned_node (self, side, node) : G_MAXUINT;
  mshed_node_tree_select_node (MSHED_NODE_TREE (self->trees[!side]), nodes[!side]);
  _mshed_compare_window_show_rows (self, MSHED_TABLE_NODES, G_MAXUINT, nodes);
  select_in_previews (self, nodes);
}

/* The DFM level of a node inside MultiLevel\Mesh<n>, G_MAXUINT when none. */
static guint
path_level (const char *path)
{
  const char *mesh = strstr (path, "\\Mesh");

  return mesh != NULL && g_ascii_isdigit (mesh[5]) ? (guint) g_ascii_strtoull (mesh + 5, NULL,
                                                                                10)
                                                   : G_MAXUINT;
}

static void
utf_node_selected_cb (GtkWidget          *tree,
                      MshedUtfNode       *node,
                      MshedCompareWindow *self)
{
  guint side = tree == self->trees[0] ? 0 : 1;
  MshedUtf *other = mshed_document_get_utf (self->docs[!side]);
  g_autofree char *path = node ? mshed_utf_node_dup_path (node) : NULL;
  MshedUtfNode *match = path && other ? mshed_utf_lookup (other, path) : NULL;
  MshedDfmTable table;

  mshed_utf_tree_select_node (MSHED_UTF_TREE (self->trees[!side]), match);
  if (node == NULL || !_mshed_compare_window_is_dfm (self))
    return;
  table = mshed_dfm_schema_table_for_node (node);
  if (table != MSHED_DFM_TABLE_NONE)
    {
      guint rows[2] = { G_MAXUINT, G_MAXUINT };

      _mshed_compare_window_show_rows (self, (MshedTableId) table, path_level (path), rows);
    }
}

/* F7: the trees select the node(s) of difference @item. */
void
_mshed_compare_window_trees_follow (MshedCompareWindow  *self,
                                    const MshedDiffItem *item)
{
  guint nodes[2] = { G_MAXUINT, G_MAXUINT };

  for (guint s = 0; s < 2; s++)
    if (self->trees[s] == NULL)
      continue;
    else if (MSHED_IS_NODE_TREE (self->trees[s]))
      {
        nodes[s] = item_node (self, item, s);
        mshed_node_tree_select_node (MSHED_NODE_TREE (self->trees[s]), nodes[s]);
      }
    else
      {
        mshed_utf_tree_select_node (MSHED_UTF_TREE (self->trees[s]),
                                    item_utf_node (self, item, s));
      }
  if (self->trees[0] != NULL && MSHED_IS_NODE_TREE (self->trees[0]))
    select_in_previews (self, nodes);
}

void
_mshed_compare_window_build_trees (MshedCompareWindow *self)
{
  gboolean msh = mshed_document_get_model (self->docs[0]) != NULL;

  for (guint s = 0; s < 2; s++)
    {
      GtkWidget *frame = gtk_frame_new (mshed_document_get_title (self->docs[s]));

      if (msh)
        {
          self->trees[s] = mshed_node_tree_new ();
          mshed_node_tree_set_document (MSHED_NODE_TREE (self->trees[s]), self->docs[s]);
          g_signal_connect (self->trees[s], "node-selected", G_CALLBACK (node_selected_cb),
                            self);
        }
      else
        {
          self->trees[s] = mshed_utf_tree_new ();
          mshed_utf_tree_set_document (MSHED_UTF_TREE (self->trees[s]), self->docs[s]);
          g_signal_connect (self->trees[s], "node-selected", G_CALLBACK (utf_node_selected_cb),
                            self);
        }
      gtk_widget_set_vexpand (self->trees[s], TRUE);
      gtk_frame_set_child (GTK_FRAME (frame), self->trees[s]);
      gtk_box_append (self->trees_box, frame);
    }
}
