/* mshed-utf-tree.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tree of a UTF document (docs/utf.md): every node with its name, size and kind (the DFM
 * table it holds, docs/dfm.md §2, or what an untyped payload looks like). Rename (F2), delete,
 * new file or directory inside or after the selected node, duplicate, move up and down, out
 * of a directory and into the directory above: all through the document's UTF commands, so
 * each is one undo step. Search by name (Ctrl+F in the window) selects the next match.
 *
 * Signals:
 *  - node-selected (gpointer node): the user selected a node (an MshedUtfNode of the
 *    document's tree, NULL for none).
 *
 * Actions (prefix "utf-tree."): rename, delete, add-file, add-directory, add-file-after,
 * add-directory-after, duplicate, move-up, move-down, move-out, move-in.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-cell-editor.h"
#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_UTF_TREE (mshed_utf_tree_get_type ())
G_DECLARE_FINAL_TYPE (MshedUtfTree, mshed_utf_tree, MSHED, UTF_TREE, GtkWidget)

GtkWidget     *mshed_utf_tree_new           (void);
void           mshed_utf_tree_set_document  (MshedUtfTree *self,
                                             MshedDocument *document);
MshedDocument *mshed_utf_tree_get_document  (MshedUtfTree *self);
/* (transfer none) (nullable): the selected node */
MshedUtfNode  *mshed_utf_tree_get_selected  (MshedUtfTree *self);
/* Expands its ancestors, selects and scrolls to @node; emits nothing. */
gboolean       mshed_utf_tree_select_node   (MshedUtfTree *self,
                                             MshedUtfNode *node);
gboolean       mshed_utf_tree_start_rename  (MshedUtfTree *self);
void           mshed_utf_tree_start_search  (MshedUtfTree *self);
/* Selects the next (previous) node whose name contains @text, case-insensitively, after the
 * selected one, wrapping around; emits node-selected. */
gboolean       mshed_utf_tree_find          (MshedUtfTree *self,
                                             const char   *text,
                                             gboolean      backwards);
/* Rows shown now (expanded directories' children included), for tests. */
guint          mshed_utf_tree_get_n_rows    (MshedUtfTree *self);
/* The rename editor (tests). */
MshedCellEditor *mshed_utf_tree_get_editor  (MshedUtfTree *self);

G_END_DECLS
