/* mshed-compare-window.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two documents side by side (docs/diff.md §7): the grids of one table aligned row to row and
 * scrolled together with the changed cells marked, the list of differences
 * (mshed_diff_documents) with next and previous (F7, Shift+F7) that select and scroll both
 * sides (a difference in bytes no field describes: the two hex views of the Bytes page, the
 * differing bytes marked), copy across of the selected difference (mshed-copy.h), a node tree
 * per side with the differing nodes marked, a level chooser for deformable models, and the
 * two previews with one camera (the overlay mode colours the differing geometry). Each side
 * stays a normal document: edits, undo (Ctrl+Z on the focused side) and save; the list follows
 * every change.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-application.h"
#include "mshed-dfm-schema.h"
#include "mshed-diff.h"
#include "mshed-document.h"
#include "mshed-hex-view.h"
#include "mshed-table-view.h"

G_BEGIN_DECLS

/* The DFM tables (level 0) the compare and merge windows show in their grids. */
#define MSHED_COMPARE_N_DFM_TABLES 13
extern const MshedDfmTable mshed_compare_dfm_tables[MSHED_COMPARE_N_DFM_TABLES];

typedef enum {
  MSHED_COMPARE_LEFT,
  MSHED_COMPARE_RIGHT,
} MshedCompareSide;

#define MSHED_TYPE_COMPARE_WINDOW (mshed_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (MshedCompareWindow, mshed_compare_window, MSHED, COMPARE_WINDOW,
                      GtkApplicationWindow)

/* Compares two open documents (the window holds a reference to each). */
MshedCompareWindow *mshed_compare_window_new          (MshedApplication   *app,
                                                       MshedDocument      *left,
                                                       MshedDocument      *right);
/* Opens FILE or ARCHIVE:ENTRY twice (strictly, else tolerantly); NULL with an error that names
 * the file that could not be read, or when the two are not the same kind of file. */
MshedCompareWindow *mshed_compare_window_open         (MshedApplication   *app,
                                                       const char         *left,
                                                       const char         *right,
                                                       GError            **error);
/* FILE or ARCHIVE:ENTRY opened strictly, else tolerantly (the compare and merge windows). */
MshedDocument      *_mshed_open_input                 (const char         *spec,
                                                       GError            **error);
MshedDocument      *mshed_compare_window_get_document (MshedCompareWindow *self,
                                                       MshedCompareSide    side);
/* The grid of the table shown now, NULL for UTF files. */
MshedTableView     *mshed_compare_window_get_grid     (MshedCompareWindow *self,
                                                       MshedCompareSide    side);
/* The hex view of each side (the Bytes page: bytes no field describes, opaque resources). */
MshedHexView       *mshed_compare_window_get_hex_view (MshedCompareWindow *self,
                                                       MshedCompareSide    side);
/* The node tree of each side: an MshedNodeTree (Parkan models) or an MshedUtfTree. */
GtkWidget          *mshed_compare_window_get_tree     (MshedCompareWindow *self,
                                                       MshedCompareSide    side);
/* The DFM level (MultiLevel\Mesh<n>) the grids and previews show. */
guint               mshed_compare_window_get_level    (MshedCompareWindow *self);
const MshedDiff    *mshed_compare_window_get_diff     (MshedCompareWindow *self);
/* The selected difference, G_MAXUINT when none. */
guint               mshed_compare_window_get_selected (MshedCompareWindow *self);
void                mshed_compare_window_select       (MshedCompareWindow *self,
                                                       guint               index);

G_END_DECLS
