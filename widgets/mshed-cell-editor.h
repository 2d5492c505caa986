/* mshed-cell-editor.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The explicit cell editor of the grids and the node tree: a popover with a title, an entry,
 * a description of the accepted input and, after a rejected commit, the reason. GTK 4.8's
 * GtkEditableLabel crashes inside list views (see PLATFORM.md), so cells stay GtkInscriptions
 * and editing opens this popover instead.
 *
 * The owner parents it (gtk_widget_set_parent), presents it in its size_allocate, and handles
 * ::commit by calling mshed_cell_editor_accept() or mshed_cell_editor_reject().
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MSHED_TYPE_CELL_EDITOR (mshed_cell_editor_get_type ())
G_DECLARE_FINAL_TYPE (MshedCellEditor, mshed_cell_editor, MSHED, CELL_EDITOR, GtkPopover)

GtkWidget  *mshed_cell_editor_new       (void);
/* Pops up pointing at @area (in the parent's coordinates) with @text selected. With
 * @select_all FALSE the cursor goes to the end (editing started by typing). */
void        mshed_cell_editor_start     (MshedCellEditor    *self,
                                         const GdkRectangle *area,
                                         const char         *title,
                                         const char         *hint,
                                         const char         *text,
                                         gboolean            select_all);
/* Keeps the editor open and shows why the value was refused. */
void        mshed_cell_editor_reject    (MshedCellEditor    *self,
                                         const char         *message);
/* Closes the editor after a successful commit. */
void        mshed_cell_editor_accept    (MshedCellEditor    *self);
GtkEditable *mshed_cell_editor_get_entry (MshedCellEditor   *self);
/* The reason shown for the last rejected commit, NULL when none is shown. */
const char *mshed_cell_editor_get_error (MshedCellEditor    *self);
gboolean    mshed_cell_editor_is_open   (MshedCellEditor    *self);

G_END_DECLS
