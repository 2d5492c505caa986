/* mshed-table-view.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An editable grid over one table of a document: a GtkColumnView over an MshedTableModel,
 * with a row-number column and one column per schema field. Cells are GtkInscriptions;
 * Enter, F2, double-click or typing opens an explicit editor that commits through a
 * document command. Cells that break an invariant carry the diagnostic; stale derived cells
 * are shaded. Copy and paste tab-separated ranges, sort by a column, filter rows, and follow
 * references (Ctrl+click, Ctrl+Return).
 *
 * Signals:
 *  - row-selected (guint row): the user selected a row (the record index, not the position).
 *  - follow-reference (gint table, guint row): the user followed a reference cell.
 *  - show-in-hex (gint table, guint row, const char *field): the user asked to see a record's
 *    bytes (the context menu's Show in Hex).
 *
 * The context menu (right click, the Menu key, Shift+F10): copy, paste, follow reference,
 * show in hex; for slots, recompute the box or apply mshed's sphere convention to that slot
 * alone; for nodes, slots and batches, insert, duplicate and delete rows.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-dfm-schema.h"
#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_TABLE_VIEW (mshed_table_view_get_type ())
G_DECLARE_FINAL_TYPE (MshedTableView, mshed_table_view, MSHED, TABLE_VIEW, GtkWidget)

GtkWidget     *mshed_table_view_new               (MshedTableId    table);
/* A grid over DFM table @table of level (part) @a, group @b (mshed_table_model_new_dfm). */
GtkWidget     *mshed_table_view_new_dfm           (MshedDfmTable   table,
                                                   guint           a,
                                                   guint           b);
/* Another level (part) and group of the DFM table shown. */
void           mshed_table_view_set_dfm_scope     (MshedTableView *self,
                                                   guint           a,
                                                   guint           b);
MshedDocument *mshed_table_view_get_document      (MshedTableView *self);
void           mshed_table_view_set_document      (MshedTableView *self,
                                                   MshedDocument  *document);
MshedTableId   mshed_table_view_get_table         (MshedTableView *self);
/* Linked-selection highlight of record rows (sorted or not); emits nothing. */
void           mshed_table_view_set_highlight     (MshedTableView *self,
                                                   const guint    *rows,
                                                   guint           n_rows);
/* Scrolls to record @row, selects it and focuses it; @field (nullable) becomes the current
 * column. Clears the filter when it hides the row. Emits nothing. */
void           mshed_table_view_reveal            (MshedTableView *self,
                                                   guint           row,
                                                   const char     *field);
/* Scrolls record @row into view (now, or when the view is next shown); selects nothing. */
void           mshed_table_view_scroll_to_row     (MshedTableView *self,
                                                   guint           row);
void           mshed_table_view_start_search      (MshedTableView *self);
gboolean       mshed_table_view_get_selected_row  (MshedTableView *self,
                                                   guint          *row);

/* Opens the editor on a cell (visible or not); FALSE for read-only or unknown cells. */
gboolean       mshed_table_view_start_editing     (MshedTableView *self,
                                                   guint           row,
                                                   const char     *field);
/* The selected rows × the current column range as tab-separated text (what Ctrl+C copies). */
char          *mshed_table_view_copy_selection    (MshedTableView *self);
/* Pastes tab-separated text at the current cell as one undo step (what Ctrl+V does). Either
 * every value is stored or, with @error set, none. */
gboolean       mshed_table_view_paste_text        (MshedTableView *self,
                                                   const char     *text,
                                                   GError        **error);
void           mshed_table_view_set_show_raw      (MshedTableView *self,
                                                   gboolean        show_raw);
gboolean       mshed_table_view_get_show_raw      (MshedTableView *self);
void           mshed_table_view_set_filter_text   (MshedTableView *self,
                                                   const char     *text);

/* The compare window: cells (@rows[i], @fields[i]) get the CSS class "changed", a NULL field
 * the whole row; the row number of every listed row too. n == 0 clears. */
void           mshed_table_view_set_changed       (MshedTableView *self,
                                                   const guint    *rows,
                                                   const char *const *fields,
                                                   guint           n);
/* The grid's scrolling (the compare window scrolls two grids together). */
GtkAdjustment *mshed_table_view_get_vadjustment   (MshedTableView *self);
GtkAdjustment *mshed_table_view_get_hadjustment   (MshedTableView *self);

G_END_DECLS
