/* mshed-utf-tree-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parts of MshedUtfTree shared by mshed-utf-tree.c (rows, rename, tree edits, search)
 * and mshed-utf-tree-clip.c (clipboard, drag and drop, leaf import and export, the context
 * menu).
 */
#pragma once

#include "mshed-utf-tree.h"

G_BEGIN_DECLS

struct _MshedUtfTree
{
  GtkWidget           parent_instance;

  MshedDocument      *document;
  GSignalGroup       *document_signals;
  GtkTreeListModel   *tree;
  GHashTable         *expanded;   /* MshedUtfNode* of expanded directories (pointers only) */
  GHashTable         *bound;      /* GtkListItem* bound now */
  MshedCellEditor    *editor;
  MshedUtfNode       *rename_node;
  guint               block_selection;
  gboolean            stale;      /* the tree changed: rebuild before the rows are used */
  guint               rebuild_id; /* the rebuild when idle: one for many changes (a group) */
  GtkWidget          *context_popover;
  GCancellable       *paste_cancel; /* the clipboard read in flight */
  guint               pastes_done;  /* clipboard reads finished (tests wait for them) */
  GHashTable         *marks;        /* the compare window's: node -> mark; NULL: none */

  /* template children */
  GtkWidget          *box;
  GtkSearchEntry     *search_entry;
  GtkScrolledWindow  *scroller;
  GtkListView        *list_view;
  GtkSingleSelection *selection;
  GMenuModel         *context_menu;
};

/* mshed-utf-tree.c */
MshedUtfNode *_mshed_utf_tree_row_node            (gpointer            row);
gboolean      _mshed_utf_tree_node_in_tree        (MshedUtfTree       *self,
                                                   const MshedUtfNode *node);
void          _mshed_utf_tree_report              (MshedUtfTree       *self,
                                                   GError             *error);
void          _mshed_utf_tree_select_and_announce (MshedUtfTree       *self,
                                                   MshedUtfNode       *node);

/* mshed-utf-tree-clip.c */
void          _mshed_utf_tree_clip_class_init     (GtkWidgetClass     *widget_class);
void          _mshed_utf_tree_clip_init           (MshedUtfTree       *self);
void          _mshed_utf_tree_clip_dispose        (MshedUtfTree       *self);
void          _mshed_utf_tree_clip_setup_row      (MshedUtfTree       *self,
                                                   GtkListItem        *list_item,
                                                   GtkWidget          *box);

G_END_DECLS
