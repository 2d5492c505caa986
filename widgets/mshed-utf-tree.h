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
 * Copy, cut and paste (Ctrl+C, Ctrl+X, Ctrl+V) carry a subtree between two open files
 * through the clipboard (mshed-utf-clip.h); rows drag to move before, into or after a node;
 * a file's payload imports from and exports to a file. The context menu (right click) offers
 * them all.
 *
 * Actions (prefix "utf-tree."): rename, delete, add-file, add-directory, add-file-after,
 * add-directory-after, duplicate, move-up, move-down, move-out, move-in, copy, cut, paste,
 * import, export.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-cell-editor.h"
#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_UTF_TREE (mshed_utf_tree_get_type ())
G_DECLARE_FINAL_TYPE (MshedUtfTree, mshed_utf_tree, MSHED, UTF_TREE, GtkWidget)

/* Where a dragged node goes relative to the row it is dropped on. */
typedef enum {
  MSHED_UTF_DROP_BEFORE,
  MSHED_UTF_DROP_INTO,
  MSHED_UTF_DROP_AFTER,
} MshedUtfDropPosition;

/* What a dragged row carries (a boxed type): the node, moved when it is dropped in its own
 * tree, and its subtree as a clip (mshed-utf-clip.h), copied when it is dropped on the tree of
 * another document. */
typedef struct _MshedUtfTreeDrag MshedUtfTreeDrag;

#define MSHED_TYPE_UTF_TREE_DRAG (mshed_utf_tree_drag_get_type ())
GType             mshed_utf_tree_drag_get_type (void) G_GNUC_CONST;
/* NULL with @error for the root. */
MshedUtfTreeDrag *mshed_utf_tree_drag_new      (MshedDocument    *document,
                                                MshedUtfNode     *node,
                                                GError          **error);
MshedUtfTreeDrag *mshed_utf_tree_drag_ref      (MshedUtfTreeDrag *drag);
void              mshed_utf_tree_drag_unref    (MshedUtfTreeDrag *drag);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedUtfTreeDrag, mshed_utf_tree_drag_unref)

GtkWidget     *mshed_utf_tree_new           (void);
void           mshed_utf_tree_set_document  (MshedUtfTree *self,
                                             MshedDocument *document);
MshedDocument *mshed_utf_tree_get_document  (MshedUtfTree *self);
/* (transfer none) (nullable): the selected node */
MshedUtfNode  *mshed_utf_tree_get_selected  (MshedUtfTree *self);
/* Expands its ancestors, selects and scrolls to @node (NULL: clears the selection); emits
 * nothing. */
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
/* The selected subtree to the clipboard. */
gboolean       mshed_utf_tree_copy          (MshedUtfTree *self,
                                             GError      **error);
/* Reads the clipboard and pastes its subtree into the selected directory (after the selected
 * file) as one undo step, or says why not; finishes later (mshed_utf_tree_get_n_pastes_done). */
void           mshed_utf_tree_paste         (MshedUtfTree *self);
guint          mshed_utf_tree_get_n_pastes_done (MshedUtfTree *self);
/* What a drop of @node on @target's row does: one undoable move; refused (FALSE) into the
 * node's own subtree, for the root, or for a node of another tree. INTO a file means AFTER
 * it; BEFORE or AFTER the root means into it. */
gboolean       mshed_utf_tree_drop_node     (MshedUtfTree         *self,
                                             MshedUtfNode         *node,
                                             MshedUtfNode         *target,
                                             MshedUtfDropPosition  position,
                                             GError              **error);
/* What a drop of @drag on @target's row does: a move (mshed_utf_tree_drop_node) when it comes
 * from this tree's document, else a copy of its subtree pasted there as one undo step, a
 * colliding name renamed as a paste does (mshed_utf_clip_paste_at). */
gboolean       mshed_utf_tree_drop          (MshedUtfTree         *self,
                                             MshedUtfTreeDrag     *drag,
                                             MshedUtfNode         *target,
                                             MshedUtfDropPosition  position,
                                             GError              **error);
/* The selected file's payload replaced by @file's bytes (one undo step), or written to @file
 * atomically. */
gboolean       mshed_utf_tree_import_file   (MshedUtfTree *self,
                                             GFile        *file,
                                             GError      **error);
gboolean       mshed_utf_tree_export_file   (MshedUtfTree *self,
                                             GFile        *file,
                                             GError      **error);
/* The compare window's marks: MshedUtfNode* -> GUINT_TO_POINTER (1 changed, 2 only on this
 * side); the rows get the CSS class diff-changed or diff-only. Takes a reference; NULL clears. */
void           mshed_utf_tree_set_marks     (MshedUtfTree *self,
                                             GHashTable   *marks);
/* The context menu (tests). */
GtkPopover    *mshed_utf_tree_get_context_menu (MshedUtfTree *self);
/* The rename editor (tests). */
MshedCellEditor *mshed_utf_tree_get_editor  (MshedUtfTree *self);

G_END_DECLS
