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

#include <math.h>

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

      /* the key columns are always in view */
      if (_mshed_table_view_cell_column (key) != column || bg == NULL ||
          !gtk_widget_is_ancestor (bg, GTK_WIDGET (self->column_view)))
        continue;
      if (!gtk_widget_compute_bounds (bg, GTK_WIDGET (self->scroller), &b))
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

      /* a row of the main view: Left and Right move through its columns */
      if (row_widget == NULL || _mshed_table_view_cell_position (key) != self->focus_position ||
          !gtk_widget_is_ancestor (row_widget, GTK_WIDGET (self->column_view)))
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

/* The key columns' header as tall as the other columns' (a title there may have two lines),
 * so that the rows of both views line up. */
void
_mshed_table_view_sync_headers (MshedTableView *self)
{
  GtkWidget *headers[2] = {
    gtk_widget_get_first_child (GTK_WIDGET (self->key_view)),
    gtk_widget_get_first_child (GTK_WIDGET (self->column_view)),
  };
  int height[2];

  for (guint i = 0; i < 2; i++)
    {
      if (headers[i] == NULL || g_strcmp0 (gtk_widget_get_css_name (headers[i]), "header") != 0)
        return;
      gtk_widget_set_size_request (headers[i], -1, -1);
      gtk_widget_measure (headers[i], GTK_ORIENTATION_VERTICAL, -1, NULL, &height[i], NULL,
                          NULL);
    }
  gtk_widget_set_size_request (headers[height[0] < height[1] ? 0 : 1], -1,
                               MAX (height[0], height[1]));
}

/* The key columns scroll with the others. Not through one shared adjustment: a list that
 * hears of a scroll before it heard of a change of the rows both lists show (a sort, a
 * filter) cannot place it. The other columns lead: their scroll is copied to the key columns
 * before the next frame is laid out; the wheel over the key columns scrolls the others, and
 * the keyboard focus stays with the others (the key columns do not take it). */
static gboolean
key_sync_tick_cb (GtkWidget     *widget,
                  GdkFrameClock *clock,
                  gpointer       user_data)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);
  GtkAdjustment *main = gtk_scrolled_window_get_vadjustment (self->scroller);
  GtkAdjustment *key = gtk_scrolled_window_get_vadjustment (self->key_scroller);

  self->key_sync_tick = 0;
  if (gtk_adjustment_get_value (key) != gtk_adjustment_get_value (main))
    gtk_adjustment_set_value (key, gtk_adjustment_get_value (main));
  return G_SOURCE_REMOVE;
}

static void
key_sync_needed (MshedTableView *self)
{
  if (self->key_sync_tick == 0)
    self->key_sync_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), key_sync_tick_cb,
                                                        NULL, NULL);
}

/* As GtkScrolledWindow scrolls for a wheel step or a touchpad movement. */
static gboolean
key_scroll_cb (MshedTableView           *self,
               double                    dx,
               double                    dy,
               GtkEventControllerScroll *controller)
{
  GtkAdjustment *main = gtk_scrolled_window_get_vadjustment (self->scroller);
  GdkScrollUnit unit = gtk_event_controller_scroll_get_unit (controller);
  double step = unit == GDK_SCROLL_UNIT_WHEEL
                  ? pow (gtk_adjustment_get_page_size (main), 2.0 / 3.0) : 1.0;

  gtk_adjustment_set_value (main, gtk_adjustment_get_value (main) + dy * step);
  return TRUE;
}

void
_mshed_table_view_link_key_scroller (MshedTableView *self)
{
  GtkAdjustment *main = gtk_scrolled_window_get_vadjustment (self->scroller);
  GtkAdjustment *key = gtk_scrolled_window_get_vadjustment (self->key_scroller);
  GtkEventController *scroll;

  g_signal_connect_object (main, "value-changed", G_CALLBACK (key_sync_needed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (main, "changed", G_CALLBACK (key_sync_needed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (key, "changed", G_CALLBACK (key_sync_needed), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_set_can_focus (GTK_WIDGET (self->key_view), FALSE);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (key_scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->key_scroller), scroll);
}
