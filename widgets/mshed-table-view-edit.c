/* mshed-table-view-edit.c
 *
 * Editing cells of the table view: the cell editor popover opened on a cell (F2, typing,
 * activation), committing its text through the table model, Tab to the next editable cell
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-table-view"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "mshed-cell-editor.h"
#include "mshed-table-model.h"
#include "mshed-table-view.h"
#include "mshed-table-view-private.h"

/* Editing ---------------------------------------------------------------------------------- */

static gboolean
start_editing (MshedTableView *self,
               guint           row,
               gint            column,
               const char     *initial_text)
{
  const MshedTableColumn *c = _mshed_table_view_column (self, column);
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  g_autofree char *hint = NULL;
  g_autofree char *input = NULL;
  GdkRectangle area = { 0, 0, 1, 1 };
  GtkWidget *cell;
  graphene_rect_t b;

  if (c == NULL || self->document == NULL ||
      row >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return FALSE;
  if (!c->editable)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }

  text = mshed_table_model_dup_edit_text (self->model, row, (guint) column);
  if (text == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }

  self->edit_row = row;
  self->edit_col = column;
  _mshed_table_view_set_current_cell (self, row, column, FALSE);

  /* TRANSLATORS: the title of the cell editor: column, then the record, e.g. "L0 G1 · row 4" */
  title = g_strdup_printf (_("%s · row %u"), c->label, row);
  input = mshed_table_model_dup_input_hint (self->model, (guint) column);
  hint = c->blurb ? g_strdup_printf ("%s\n%s", c->blurb, input) : g_strdup (input);

  _mshed_table_view_ensure_column_visible (self, column);
  cell = _mshed_table_view_find_column_cell (self, row, column);
  if (cell != NULL && gtk_widget_get_parent (cell) != NULL &&
      gtk_widget_compute_bounds (gtk_widget_get_parent (cell), GTK_WIDGET (self), &b))
    {
      area.x = (int) floorf (b.origin.x);
      area.y = (int) floorf (b.origin.y);
      area.width = MAX (1, (int) ceilf (b.size.width));
      area.height = MAX (1, (int) ceilf (b.size.height));
    }
  else if (gtk_widget_compute_bounds (GTK_WIDGET (self->scroller), GTK_WIDGET (self), &b))
    {
      area.x = (int) (b.origin.x + b.size.width / 2);
      area.y = (int) b.origin.y;
    }

  /* never point outside the visible part of the grid: a popover pointing off-screen has
   * no monitor to be placed on */
  if (gtk_widget_compute_bounds (GTK_WIDGET (self->scroller), GTK_WIDGET (self), &b))
    {
      int x0 = (int) b.origin.x, y0 = (int) b.origin.y;
      int x1 = x0 + MAX (1, (int) b.size.width) - 1, y1 = y0 + MAX (1, (int) b.size.height) - 1;

      area.x = CLAMP (area.x, x0, x1);
      area.y = CLAMP (area.y, y0, y1);
      area.width = MAX (1, MIN (area.width, x1 - area.x + 1));
      area.height = MAX (1, MIN (area.height, y1 - area.y + 1));
    }

  mshed_cell_editor_start (self->editor, &area, title, hint,
                           initial_text ? initial_text : text, initial_text == NULL);
  return TRUE;
}

static gint
next_editable_column (MshedTableView *self,
                      gint            column,
                      int             step)
{
  gint n = (gint) mshed_table_model_get_n_columns (self->model);

  for (gint i = column + step; i >= 0 && i < n; i += step)
    if (_mshed_table_view_column_shown (self, i) && _mshed_table_view_column (self, i)->editable)
      return i;
  return -1;
}

void
_mshed_table_view_editor_commit_cb (MshedTableView  *self,
                                    const char      *text,
                                    int              move,
                                    MshedCellEditor *editor)
{
  g_autoptr(GError) error = NULL;
  gint next;

  if (!mshed_table_model_set_cell_text (self->model, self->edit_row, (guint) self->edit_col,
                                        text, &error))
    {
      mshed_cell_editor_reject (editor, error->message);
      return;
    }
  mshed_cell_editor_accept (editor);

  if (move != 0 && (next = next_editable_column (self, self->edit_col, move)) >= 0)
    {
      _mshed_table_view_ensure_column_visible (self, next);
      start_editing (self, self->edit_row, next, NULL);
    }
}

void
_mshed_table_view_editor_closed_cb (MshedTableView *self)
{
  if (self->cur_row != G_MAXUINT)
    {
      guint pos = _mshed_table_view_row_position (self, self->cur_row);

      if (pos != G_MAXUINT)
        {
          _mshed_table_view_scroll_to (self, pos, TRUE);
          return;
        }
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

void
_mshed_table_view_edit_current (MshedTableView *self,
                                const char     *initial_text)
{
  guint row = _mshed_table_view_current_row (self);

  if (row == G_MAXUINT && !mshed_table_view_get_selected_row (self, &row))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  start_editing (self, row, _mshed_table_view_current_column (self), initial_text);
}

void
_mshed_table_view_column_view_activate_cb (MshedTableView *self,
                                           guint           position)
{
  guint row = _mshed_table_view_position_to_row (self, position);

  if (row == G_MAXUINT)
    return;
  _mshed_table_view_seed_position (self, row, position);
  if (row != self->cur_row)
    self->cur_row = row;
  start_editing (self, row, _mshed_table_view_current_column (self), NULL);
}

void
_mshed_table_view_edit_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  _mshed_table_view_edit_current (MSHED_TABLE_VIEW (widget), NULL);
}

/* Public API ------------------------------------------------------------------------------- */

gboolean
mshed_table_view_start_editing (MshedTableView *self,
                                guint           row,
                                const char     *field)
{
  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), FALSE);

  return start_editing (self, row, mshed_table_model_find_column (self->model, field), NULL);
}
