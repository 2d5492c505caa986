/* mshed-node-tree-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Internals the widget tests drive.
 */
#pragma once

#include "mshed-cell-editor.h"
#include "mshed-node-tree.h"

G_BEGIN_DECLS

MshedCellEditor *_mshed_node_tree_get_editor     (MshedNodeTree *self);
/* The flattened rows (GtkTreeListRow items) as shown, after the search filter. */
GListModel      *_mshed_node_tree_get_rows       (MshedNodeTree *self);
/* The node shown by @row of _mshed_node_tree_get_rows(). */
guint            _mshed_node_tree_row_get_node   (gpointer       row);
GtkWidget       *_mshed_node_tree_find_row_widget (MshedNodeTree *self,
                                                  guint          node);
void             _mshed_node_tree_set_search_text (MshedNodeTree *self,
                                                  const char    *text);

G_END_DECLS
