/* mshed-table-view-scroll.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Bringing a row of the table view into view: now when the list is laid out, else as soon as
 * it is shown (a notebook page not opened yet), and revealing a record (select, focus, scroll);
 * bringing a column into view and giving a row the keyboard focus once it is bound.
 */
#define G_LOG_DOMAIN "mshed-table-view"

#include "config.h"

#include "mshed-table-view-private.h"

#define FOCUS_TRIES 8

static gboolean
list_is_laid_out (GtkWidget *list)
{
  return list != NULL && gtk_widget_get_mapped (list) && gtk_widget_get_height (list) > 0;
}

/* A scroll asked for while the list had no size (a notebook page not shown yet, a window not
 * drawn yet) happens once it has one: GTK 4.8's list forgets a scroll-to-item it could not
 * place. It is repeated one frame later, when the first allocation has settled. */
static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);
  GtkWidget *list = _mshed_table_view_get_list_view (self);

  if (self->pending_scroll == G_MAXUINT || !gtk_widget_get_mapped (widget))
    {
      self->scroll_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (!list_is_laid_out (list))
    return G_SOURCE_CONTINUE;
  gtk_widget_activate_action (list, "list.scroll-to-item", "u", self->pending_scroll);
  if (++self->pending_scroll_done < 2)
    return G_SOURCE_CONTINUE;
  self->pending_scroll = G_MAXUINT;
  self->scroll_tick = 0;
  return G_SOURCE_REMOVE;
}

void
_mshed_table_view_start_pending_scroll (MshedTableView *self)
{
  if (self->pending_scroll != G_MAXUINT && self->scroll_tick == 0 &&
      gtk_widget_get_mapped (GTK_WIDGET (self)))
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_tick_cb,
                                                      NULL, NULL);
}

void
_mshed_table_view_scroll_to (MshedTableView *self,
                             guint           position,
                             gboolean        focus)
{
  GtkWidget *list = _mshed_table_view_get_list_view (self);

  /* HACK: gtk_column_view_scroll_to() arrives in 4.12, and setting the adjustment far into a
   * long list can leave GTK 4.8's view blank (PLATFORM.md); the list's own action works. */
  if (list_is_laid_out (list))
    gtk_widget_activate_action (list, "list.scroll-to-item", "u", position);
  /* …and once more when the list (re)gets its size: now, or when its page is shown */
  self->pending_scroll = position;
  self->pending_scroll_done = list_is_laid_out (list) ? 1 : 0;
  _mshed_table_view_start_pending_scroll (self);

  if (focus)
    _mshed_table_view_focus_position (self, position);
}

void
mshed_table_view_reveal (MshedTableView *self,
                         guint           row,
                         const char     *field)
{
  guint pos;
  gint column;

  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));

  pos = _mshed_table_view_row_position (self, row);
  if (pos == G_MAXUINT && gtk_filter_list_model_get_filter (self->filter_model) != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      _mshed_table_view_apply_filter_text (self, "");
      pos = _mshed_table_view_row_position (self, row);
    }
  if (pos == G_MAXUINT)
    return;

  column = mshed_table_model_find_column (self->model, field);
  if (column >= 0 && !_mshed_table_view_column_shown (self, column))
    mshed_table_view_set_show_raw (self, TRUE);

  self->block_selection++;
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), pos, TRUE);
  self->block_selection--;
  self->last_emitted_row = row;
  _mshed_table_view_set_current_cell (self, row, column >= 0 ? column : self->cur_col, FALSE);
  _mshed_table_view_scroll_to (self, pos, TRUE);
}

void
mshed_table_view_scroll_to_row (MshedTableView *self,
                                guint           row)
{
  guint pos;

  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));

  pos = _mshed_table_view_row_position (self, row);
  if (pos != G_MAXUINT)
    _mshed_table_view_scroll_to (self, pos, FALSE);
}

/* Focus and horizontal scrolling ---------------------------------------------------------- */

void
_mshed_table_view_ensure_column_visible (MshedTableView *self,
                                         gint            column)
{
  GtkAdjustment *hadj = gtk_scrolled_window_get_hadjustment (self->scroller);
  GHashTableIter iter;
  gpointer key;
  graphene_rect_t b;

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      GtkWidget *bg = gtk_widget_get_parent (key);
      double value = gtk_adjustment_get_value (hadj);
      double page = gtk_adjustment_get_page_size (hadj);

      if (_mshed_table_view_cell_column (key) != column || bg == NULL ||
          !gtk_widget_compute_bounds (bg, GTK_WIDGET (self->scroller), &b))
        continue;
      if (b.origin.x < 0)
        gtk_adjustment_set_value (hadj, value + b.origin.x);
      else if (b.origin.x + b.size.width > page)
        gtk_adjustment_set_value (hadj, value + MIN (b.origin.x,
                                                     b.origin.x + b.size.width - page));
      return;
    }
}

static gboolean
focus_tick_cb (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);
  GHashTableIter iter;
  gpointer key;

  /* an editor opened meanwhile (Tab to the next cell) keeps the focus */
  if (self->editor != NULL && mshed_cell_editor_is_open (self->editor))
    {
      self->focus_tick = 0;
      return G_SOURCE_REMOVE;
    }

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      GtkWidget *bg = gtk_widget_get_parent (key);
      GtkWidget *row_widget = bg ? gtk_widget_get_parent (bg) : NULL;

      if (row_widget == NULL || _mshed_table_view_cell_position (key) != self->focus_position)
        continue;
      gtk_widget_grab_focus (row_widget);
      if (self->cur_col >= 0)
        _mshed_table_view_ensure_column_visible (self, self->cur_col);
      self->focus_tick = 0;
      return G_SOURCE_REMOVE;
    }

  if (++self->focus_tries >= FOCUS_TRIES)
    {
      self->focus_tick = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* Gives the row at view @position the keyboard focus once it is bound (after a scroll). */
void
_mshed_table_view_focus_position (MshedTableView *self,
                                  guint           position)
{
  self->focus_position = position;
  self->focus_tries = 0;
  if (self->focus_tick == 0)
    self->focus_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), focus_tick_cb, NULL, NULL);
}
