/* mshed-compare-window-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compare window's struct, shared by mshed-compare-window.c (grids, the list of
 * differences, actions), mshed-compare-window-preview.c (the two previews, one camera, the
 * ghost overlay coloured by the differences) and mshed-compare-window-tree.c (a node tree per
 * side, the differing nodes marked, selections aligned by name).
 */
#pragma once

#include "mshed-camera.h"
#include "mshed-compare-window.h"
#include "mshed-level-chooser.h"

G_BEGIN_DECLS

struct _MshedCompareWindow
{
  GtkApplicationWindow parent_instance;

  /* template */
  GtkDropDown        *table_dropdown;
  MshedLevelChooser  *level_chooser;
  GtkStack           *view_stack;
  GtkWidget          *view_switcher;
  GtkBox             *grids_box;
  GtkBox             *hex_box;
  GtkBox             *preview_box;
  GtkOverlay         *ghost_overlay;
  GtkCheckButton     *ghost_check;
  GtkLabel           *left_title;
  GtkLabel           *right_title;
  GtkLabel           *summary_label;
  GtkLabel           *message_label;
  GtkListView        *diff_list;

  MshedDocument      *docs[2];
  gulong              changed_ids[2];
  gulong              modified_ids[2];
  MshedTableView     *grids[2];
  gulong              scroll_ids[2][2];  /* [side][vertical, horizontal] */
  guint               scroll_sync_tick;
  gint                scroll_from[2];    /* [vertical, horizontal]: the side scrolled, or -1 */
  GtkWidget          *previews[2];
  GtkBox             *trees_box;
  GtkWidget          *trees[2];       /* MshedNodeTree or MshedUtfTree */
  gboolean            framed_dfm;      /* the DFM previews framed on the first drawn level */
  MshedHexView       *hexes[2];
  gulong              hex_scroll_ids[2];
  guint               hex_sync_idle;
  guint               hex_sync_from;   /* the hex view scrolled last */
  MshedCamera         camera;          /* the last camera both previews were given */

  MshedDiff          *diff;
  GtkStringList      *lines;
  GtkSingleSelection *selection;
  MshedTableId        table;           /* shown in the grids */
  guint               level;           /* DFM: the level (MultiLevel\Mesh<n>) of the grids */
  guint               refresh_idle;
  guint               reveal_idle;
  MshedCompareSide    active;          /* the side Ctrl+Z, Ctrl+S act on */
  gboolean            syncing;         /* copying one grid's scroll to the other */
  guint               block_jump;
  gboolean            jump_pending;    /* after a copy: show the next difference */
  gboolean            closing;
};

/* mshed-compare-window.c */
gboolean _mshed_compare_window_is_dfm      (MshedCompareWindow *self);
/* Both grids show @table (of DFM level @level, G_MAXUINT: the one chosen) with the row of
 * each side (G_MAXUINT: none) selected. */
void     _mshed_compare_window_show_rows   (MshedCompareWindow *self,
                                            MshedTableId        table,
                                            guint               level,
                                            const guint         rows[2]);

/* mshed-compare-window-preview.c */
void     _mshed_compare_window_ensure_previews (MshedCompareWindow *self);
void     _mshed_compare_window_place_previews  (MshedCompareWindow *self);
/* The level chosen, the differences recomputed: the previews follow. */
void     _mshed_compare_window_update_previews (MshedCompareWindow *self);

/* mshed-compare-window-tree.c */
void     _mshed_compare_window_build_trees     (MshedCompareWindow  *self);
/* The differences recomputed: the marks follow. */
void     _mshed_compare_window_update_trees    (MshedCompareWindow  *self);
/* The trees (and MSH previews) select what difference @item is about. */
void     _mshed_compare_window_trees_follow    (MshedCompareWindow  *self,
                                                const MshedDiffItem *item);

G_END_DECLS
