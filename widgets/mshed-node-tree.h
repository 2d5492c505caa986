/* mshed-node-tree.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The node hierarchy of a document, from the parent links (hdr1): a GtkTreeListModel over
 * lazily built children models. Each row shows the index, the name (UTF-8; bytes without a
 * Windows-1251 character escaped as \xNN), the slots used per LOD ("3·2·0") and a check
 * button for the node's visibility in the preview. F2 or double-click renames; Ctrl+F finds
 * nodes by name or number.
 *
 * Signals:
 *  - node-selected (guint node): the user selected a node.
 *  - visibility-changed (guint node, gboolean visible): the user toggled a node.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_NODE_TREE (mshed_node_tree_get_type ())
G_DECLARE_FINAL_TYPE (MshedNodeTree, mshed_node_tree, MSHED, NODE_TREE, GtkWidget)

GtkWidget     *mshed_node_tree_new              (void);
MshedDocument *mshed_node_tree_get_document     (MshedNodeTree *self);
void           mshed_node_tree_set_document     (MshedNodeTree *self,
                                                 MshedDocument *document);
/* Selects, expands to and scrolls to @node; emits nothing. G_MAXUINT clears the selection. */
void           mshed_node_tree_select_node      (MshedNodeTree *self,
                                                 guint          node);
gboolean       mshed_node_tree_get_selected_node (MshedNodeTree *self,
                                                 guint         *node);
void           mshed_node_tree_start_search     (MshedNodeTree *self);
/* Opens the rename editor on the selected node; FALSE when none is selected. */
gboolean       mshed_node_tree_start_rename     (MshedNodeTree *self);
gboolean       mshed_node_tree_get_node_visible (MshedNodeTree *self,
                                                 guint          node);
/* Shows or hides @node in the preview (emits visibility-changed when it changes). */
void           mshed_node_tree_set_node_visible (MshedNodeTree *self,
                                                 guint          node,
                                                 gboolean       visible);
/* The compare window's marks (one per node, MshedDiffMark of mshed-renderer.h: 1 changed,
 * 2 only on this side): the rows get the CSS class diff-changed or diff-only. NULL clears. */
void           mshed_node_tree_set_marks        (MshedNodeTree *self,
                                                 const guint8  *marks,
                                                 guint          n_marks);

G_END_DECLS
