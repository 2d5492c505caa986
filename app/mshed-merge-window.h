/* mshed-merge-window.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The merge view (docs/diff.md §5.5): the three-way merge of MINE and THEIRS against BASE
 * (mshed-merge.h). It lists the conflicts, each with its BASE, MINE and THEIRS values and a
 * Mine / Theirs choice (All Mine, All Theirs for every one), and the changes taken without
 * asking (mshed-merge-changes.h). Once every conflict is resolved the merged model is a
 * normal document shown in a grid below: editable, undoable (Ctrl+Z), and saved with Save As…
 * after strict validation, atomically, asking before it overwrites one of the three inputs.
 * Selecting a conflict or change (a click, F7 and Shift+F7 step through the list) shows its
 * table, its level of a deformable model (the level chooser) and its cell.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-application.h"
#include "mshed-document.h"
#include "mshed-merge-changes.h"
#include "mshed-merge.h"
#include "mshed-table-view.h"

G_BEGIN_DECLS

#define MSHED_TYPE_MERGE_WINDOW (mshed_merge_window_get_type ())
G_DECLARE_FINAL_TYPE (MshedMergeWindow, mshed_merge_window, MSHED, MERGE_WINDOW,
                      GtkApplicationWindow)

/* Merges three open documents of one container (the window holds a reference to each); NULL
 * with MSHED_MODEL_ERROR_INVALID when they are not the same kind of file. */
MshedMergeWindow        *mshed_merge_window_new         (MshedApplication  *app,
                                                         MshedDocument     *base,
                                                         MshedDocument     *mine,
                                                         MshedDocument     *theirs,
                                                         GError           **error);
/* Opens the three files (FILE or ARCHIVE:ENTRY); NULL with an error naming the one that could
 * not be read, or when they are not the same kind of file. */
MshedMergeWindow        *mshed_merge_window_open        (MshedApplication  *app,
                                                         const char        *base,
                                                         const char        *mine,
                                                         const char        *theirs,
                                                         GError           **error);
MshedMerge              *mshed_merge_window_get_merge   (MshedMergeWindow  *self);
const MshedMergeChanges *mshed_merge_window_get_changes (MshedMergeWindow  *self);
/* The merged model, NULL while a conflict is unresolved. */
MshedDocument           *mshed_merge_window_get_result  (MshedMergeWindow  *self);
/* The grid of the result's table shown now, NULL when there is no result. */
MshedTableView          *mshed_merge_window_get_grid    (MshedMergeWindow  *self);
/* The DFM level (MultiLevel\Mesh<n>) the grid shows. */
guint                    mshed_merge_window_get_level   (MshedMergeWindow  *self);
/* What the file chooser of Save As… does with the chosen @path: asks first when @path is one
 * of the three inputs, then saves (strict validation, atomic) or shows why it could not. */
void                     mshed_merge_window_save_as     (MshedMergeWindow  *self,
                                                         const char        *path);

G_END_DECLS
