/* mshed-table-view-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table view's instance struct, shared by mshed-table-view.c (cells, current cell,
 * input), mshed-table-view-edit.c (the cell editor), mshed-table-view-search.c (sorting,
 * filtering) and mshed-table-view-clipboard.c; and the internals the widget tests drive.
 */
#pragma once

#include "mshed-cell-editor.h"
#include "mshed-table-model.h"
#include "mshed-table-view.h"

G_BEGIN_DECLS

#define INDEX_COLUMN (-1)          /* the row-number column */
#define INCREMENTAL_ROWS 100000    /* sort and filter in steps above this many rows */

struct _MshedTableView
{
  GtkWidget           parent_instance;

  /* template */
  GtkWidget          *box;
  GtkSearchEntry     *search_entry;
  GtkLabel           *count_label;
  GtkToggleButton    *raw_toggle;
  GtkRevealer        *message_revealer;
  GtkLabel           *message_label;
  GtkWidget          *grid_box;
  GtkScrolledWindow  *key_scroller;   /* the key columns, kept in view (same rows, same
                                        * vertical adjustment as scroller) */
  GtkColumnView      *key_view;
  GtkScrolledWindow  *scroller;
  GtkColumnView      *column_view;
  GtkMultiSelection  *selection;
  GtkSortListModel   *sort_model;
  GtkFilterListModel *filter_model;
  GtkColumnViewColumn *index_column;

  MshedCellEditor    *editor;
  GtkWidget          *context_menu;   /* GtkPopoverMenu, made when first opened */
  MshedTableModel    *model;
  MshedDocument      *document;
  GSignalGroup       *document_signals;
  MshedTableId        table;

  GPtrArray          *columns;        /* GtkColumnViewColumn, one per model column */
  GPtrArray          *probes;         /* MshedProbeSorter: [0] index column, [i + 1] column i */
  GObject            *probe_a;
  GObject            *probe_b;
  GtkCustomFilter    *filter;

  GHashTable         *bound_cells;    /* GtkInscription set */
  GHashTable         *diags;          /* (table << 40 | record) -> GPtrArray of DiagEntry */
  gboolean            diags_dirty;
  GtkBitset          *highlight;
  GHashTable         *changed;        /* compare window: (row << 16 | column) keys, see
                                       * mshed-table-view-compare.c */

  guint               cur_row;        /* record index, G_MAXUINT: none */
  guint               cache_row;      /* a record and its view position, to spare scans */
  guint               cache_pos;
  gint                cur_col;        /* model column, INDEX_COLUMN: none */
  gint                anchor_col;
  guint               edit_row;
  gint                edit_col;
  guint               last_emitted_row;
  guint               block_selection;

  guint               key_sync_tick;  /* copies the vertical scroll to the key columns */
  guint               focus_tick;
  guint               focus_position;
  guint               focus_tries;
  guint               scroll_tick;
  guint               pending_scroll;       /* view position to show once laid out */
  guint               pending_scroll_done;  /* times it was scrolled there since */
  gboolean            show_raw;

  /* The column view gets its rows when the grid is first shown: GTK 4.8 builds up to 200
   * rows of cells for every list, shown or not, and a window has 14 grids. */
  gboolean            rows_attached;
};


/* mshed-table-view.c */
const MshedTableColumn *_mshed_table_view_column        (MshedTableView *self,
                                                         gint            column);
gboolean         _mshed_table_view_column_shown         (MshedTableView *self,
                                                         gint            column);
GArray          *_mshed_table_view_shown_columns        (MshedTableView *self);
guint            _mshed_table_view_position_to_row      (MshedTableView *self,
                                                         guint           position);
guint            _mshed_table_view_row_position         (MshedTableView *self,
                                                         guint           row);
void             _mshed_table_view_seed_position        (MshedTableView *self,
                                                         guint           row,
                                                         guint           position);
GtkWidget       *_mshed_table_view_find_column_cell     (MshedTableView *self,
                                                         guint           row,
                                                         gint            column);
/* The model column and the view position of a bound cell (an inscription of bound_cells). */
gint             _mshed_table_view_cell_column          (GtkWidget      *inscription);
guint            _mshed_table_view_cell_position        (GtkWidget      *inscription);
void             _mshed_table_view_ensure_column_visible (MshedTableView *self,
                                                          gint            column);
void             _mshed_table_view_set_current_cell     (MshedTableView *self,
                                                         guint           row,
                                                         gint            column,
                                                         gboolean        extend);
guint            _mshed_table_view_current_row          (MshedTableView *self);
gint             _mshed_table_view_current_column       (MshedTableView *self);
void             _mshed_table_view_show_message         (MshedTableView *self,
                                                         const char     *message);
GtkWidget       *_mshed_table_view_get_list_view        (MshedTableView *self);
void             _mshed_table_view_focus_position       (MshedTableView *self,
                                                         guint           position);
void             _mshed_table_view_selection_changed_cb (MshedTableView *self,
                                                         guint           position,
                                                         guint           n_items);

/* mshed-table-view-diags.c: the diagnostics of record @record of @table (NULL when none),
 * and their messages about @field (NULL: all) added to @messages with the highest severity
 * returned (-1 when none) */
GPtrArray       *_mshed_table_view_lookup_diags         (MshedTableView *self,
                                                         MshedTableId    table,
                                                         guint           record);
int              _mshed_table_view_collect_diags        (GPtrArray      *list,
                                                         const char     *field,
                                                         GString        *messages);

void             _mshed_table_view_refresh_all_cells    (MshedTableView *self);

/* mshed-table-view-compare.c */
gboolean         _mshed_table_view_cell_changed         (MshedTableView *self,
                                                         guint           row,
                                                         gint            column);

/* mshed-table-view-scroll.c */
void             _mshed_table_view_sync_headers         (MshedTableView *self);
void             _mshed_table_view_link_key_scroller    (MshedTableView *self);
void             _mshed_table_view_scroll_to            (MshedTableView *self,
                                                         guint           position,
                                                         gboolean        focus);
void             _mshed_table_view_start_pending_scroll (MshedTableView *self);

/* mshed-table-view-edit.c */
void             _mshed_table_view_edit_current         (MshedTableView *self,
                                                         const char     *initial_text);
void             _mshed_table_view_editor_commit_cb     (MshedTableView  *self,
                                                         const char      *text,
                                                         int              move,
                                                         MshedCellEditor *editor);
void             _mshed_table_view_editor_closed_cb     (MshedTableView *self);
void             _mshed_table_view_column_view_activate_cb (MshedTableView *self,
                                                            guint           position);
void             _mshed_table_view_edit_action          (GtkWidget      *widget,
                                                         const char     *action_name,
                                                         GVariant       *parameter);

/* mshed-table-view-search.c */
GtkSorter       *_mshed_table_view_probe_sorter_new     (void);
void             _mshed_table_view_sorter_changed_cb    (MshedTableView *self,
                                                         GtkSorterChange change,
                                                         GtkSorter      *sorter);
void             _mshed_table_view_update_count         (MshedTableView *self);
void             _mshed_table_view_apply_filter_text    (MshedTableView *self,
                                                         const char     *text);
void             _mshed_table_view_search_changed_cb    (MshedTableView *self,
                                                         GtkSearchEntry *entry);
void             _mshed_table_view_search_activate_cb   (MshedTableView *self,
                                                         GtkSearchEntry *entry);
void             _mshed_table_view_search_stop_cb       (MshedTableView *self,
                                                         GtkSearchEntry *entry);

/* mshed-table-view-clipboard.c */
void             _mshed_table_view_copy_action          (GtkWidget      *widget,
                                                         const char     *action_name,
                                                         GVariant       *parameter);
void             _mshed_table_view_paste_action         (GtkWidget      *widget,
                                                         const char     *action_name,
                                                         GVariant       *parameter);

/* The cell at (@x, @y) of @view (the column view or the key columns'): its record, model
 * column and view position. FALSE when there is none. */
gboolean         _mshed_table_view_pick                 (MshedTableView *self,
                                                         GtkWidget      *view,
                                                         double          x,
                                                         double          y,
                                                         guint          *row,
                                                         gint           *column,
                                                         guint          *position);
void             _mshed_table_view_emit_show_in_hex     (MshedTableView *self,
                                                         MshedTableId    table,
                                                         guint           row,
                                                         const char     *field);

/* mshed-table-view-menu.c */
void             _mshed_table_view_class_add_menu       (GtkWidgetClass *widget_class);
void             _mshed_table_view_init_menu            (MshedTableView *self,
                                                         GtkWidget      *view);
/* The file offset of record @row (from the outer file for a nested model); G_MAXUINT64 when
 * there is no such record. */
guint64          _mshed_table_view_record_file_offset   (MshedTableView *self,
                                                         guint           row);

/* for the tests */
MshedTableModel *_mshed_table_view_get_model       (MshedTableView *self);
MshedCellEditor *_mshed_table_view_get_editor      (MshedTableView *self);
GtkColumnView   *_mshed_table_view_get_column_view (MshedTableView *self);
/* The GtkColumnViewColumn of @field ("#" for the row number), in whichever view it is. */
GtkColumnViewColumn *_mshed_table_view_get_view_column (MshedTableView *self,
                                                        const char     *field);
/* The column view of the key columns (the row number, a node's name). */
GtkColumnView   *_mshed_table_view_get_key_view    (MshedTableView *self);
GListModel      *_mshed_table_view_get_rows        (MshedTableView *self);
/* The shown cell of record @row and column @field ("#" for the row number), or NULL when it
 * is not on screen. Its parent carries the state classes. */
GtkWidget       *_mshed_table_view_find_cell       (MshedTableView *self,
                                                    guint           row,
                                                    const char     *field);
void             _mshed_table_view_set_current     (MshedTableView *self,
                                                    guint           row,
                                                    const char     *field,
                                                    const char     *anchor_field);
gboolean         _mshed_table_view_follow_current  (MshedTableView *self);

G_END_DECLS
