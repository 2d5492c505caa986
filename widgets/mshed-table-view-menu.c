/* mshed-table-view-menu.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a row of the table view is and what can be done to it from its context menu (right
 * click, the Menu key or Shift+F10): where the record lies in the file, copy, paste, follow a
 * reference, show the bytes in the hex view, recompute one slot's box or apply mshed's sphere
 * convention to it, and insert, duplicate or delete rows.
 */
#define G_LOG_DOMAIN "mshed-table-view"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-table-view-private.h"

/* Where a record is ------------------------------------------------------------------------ */

guint64
_mshed_table_view_record_file_offset (MshedTableView *self,
                                      guint           row)
{
  const MshedDiagnostics *diags;
  MshedModel *model;
  guint64 offset;

  if (self->document == NULL)
    return G_MAXUINT64;
  model = mshed_document_get_model (self->document);
  if (model == NULL || row >= mshed_model_get_n_rows (model, self->table))
    return G_MAXUINT64;
  if (self->table == MSHED_TABLE_NODES)
    {
      gint res = mshed_model_find_resource (model, 1);

      if (res < 0)
        return G_MAXUINT64;
      /* 38-byte or legacy 24-byte records (docs/msh.md §3) */
      offset = mshed_nres_peek_entry (mshed_model_get_nres (model), (guint) res)->data_offset +
               (guint64) row * mshed_model_get_node_stride (model);
    }
  else
    offset = mshed_model_get_record_offset (model, self->table, row);
  /* a nested model's offsets count from the start of the archive, as everywhere */
  diags = mshed_document_get_diagnostics (self->document);
  return offset + (diags != NULL ? diags->base_offset : 0);
}

/* The context menu ------------------------------------------------------------------------- */

/* The rows of a fixed-stride table the document can insert, duplicate and delete (with their
 * references fixed up, mshed-document.h). */
static gboolean
has_row_actions (MshedTableId table)
{
  return table == MSHED_TABLE_NODES || table == MSHED_TABLE_SLOTS ||
         table == MSHED_TABLE_BATCHES;
}

/* DFM points, elements and hardpoints: insert and delete (mshed_document_dfm_insert_rows);
 * triangles (mshed_document_dfm_insert_triangles) */
static gboolean
has_dfm_row_actions (MshedTableId table)
{
  return table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINTS) ||
         table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINT_INDICES) ||
         table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_HP_POSITION) ||
         table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES);
}

static GMenuModel *
build_menu (MshedTableView *self)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) edit = g_menu_new ();
  g_autoptr(GMenu) go = g_menu_new ();

  g_menu_append (edit, _("_Copy"), "table.copy");
  g_menu_append (edit, _("_Paste"), "table.paste");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (edit));
  g_menu_append (go, _("_Follow Reference"), "table.follow-reference");
  g_menu_append (go, _("Show in _Hex"), "table.show-in-hex");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (go));
  if (self->table == MSHED_TABLE_SLOTS)
    {
      g_autoptr(GMenu) determined = g_menu_new ();
      g_autoptr(GMenu) convention = g_menu_new ();

      /* what the format determines (docs/conventions.md "What the format determines") */
      g_menu_append (determined, _("Recompute _Box (this slot)"), "table.recompute-box");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (determined));
      /* translators: a menu section: what follows is computed by mshed's own rule, not by the
       * format (docs/conventions.md) */
      g_menu_append (convention, _("Apply Convention: _Sphere (this slot)"),
                     "table.apply-sphere");
      g_menu_append_section (menu, _("mshed's convention"), G_MENU_MODEL (convention));
    }
  if (has_row_actions (self->table) || has_dfm_row_actions (self->table))
    {
      g_autoptr(GMenu) rows = g_menu_new ();

      g_menu_append (rows, _("_Insert Row Above"), "table.insert-row");
      if (has_row_actions (self->table))
        g_menu_append (rows, _("_Duplicate Rows"), "table.duplicate-rows");
      g_menu_append (rows, _("De_lete Rows"), "table.delete-rows");
      if (self->table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES))
        g_menu_append (rows, _("_Reverse Winding"), "table.reverse-winding");
      g_menu_append_section (menu, NULL, G_MENU_MODEL (rows));
    }
  return G_MENU_MODEL (menu);
}

/* The selected rows when they are one run (the rows an insert or delete takes), else the
 * current row alone. */
static gboolean
selected_run (MshedTableView *self,
              guint          *first,
              guint          *n)
{
  g_autoptr(GtkBitset) selected =
    gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  guint row = _mshed_table_view_current_row (self);
  guint lo, hi;

  if (row == G_MAXUINT && !mshed_table_view_get_selected_row (self, &row))
    return FALSE;
  *first = row;
  *n = 1;
  if (gtk_bitset_get_size (selected) < 2 ||
      gtk_sort_list_model_get_sorter (self->sort_model) != NULL ||
      gtk_filter_list_model_get_filter (self->filter_model) != NULL)
    return TRUE;
  lo = gtk_bitset_get_minimum (selected);
  hi = gtk_bitset_get_maximum (selected);
  if (gtk_bitset_get_size (selected) != (guint64) hi - lo + 1 ||
      !gtk_bitset_contains (selected, _mshed_table_view_row_position (self, row)))
    return TRUE;
  /* unsorted and unfiltered: view positions are record indices */
  *first = lo;
  *n = hi - lo + 1;
  return TRUE;
}

static void
update_menu_actions (MshedTableView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint row = _mshed_table_view_current_row (self);
  gint column = _mshed_table_view_current_column (self);
  gboolean has_row = self->document != NULL && row != G_MAXUINT;
  MshedTableId target;
  guint target_row;

  gtk_widget_action_set_enabled (widget, "table.copy", has_row);
  gtk_widget_action_set_enabled (widget, "table.paste", has_row);
  gtk_widget_action_set_enabled (widget, "table.follow-reference",
                                 has_row && column >= 0 &&
                                 mshed_table_model_get_reference (self->model, row,
                                                                  (guint) column, &target,
                                                                  &target_row));
  gtk_widget_action_set_enabled (widget, "table.show-in-hex", has_row);
  gtk_widget_action_set_enabled (widget, "table.recompute-box",
                                 has_row && self->table == MSHED_TABLE_SLOTS);
  gtk_widget_action_set_enabled (widget, "table.apply-sphere",
                                 has_row && self->table == MSHED_TABLE_SLOTS);
  /* a model without hardpoints gets its first one from the empty grid */
  gtk_widget_action_set_enabled (widget, "table.insert-row",
                                 (has_row && (has_row_actions (self->table) ||
                                              has_dfm_row_actions (self->table))) ||
                                 self->table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_HP_POSITION));
  gtk_widget_action_set_enabled (widget, "table.duplicate-rows",
                                 has_row && has_row_actions (self->table));
  gtk_widget_action_set_enabled (widget, "table.delete-rows",
                                 has_row && (has_row_actions (self->table) ||
                                             has_dfm_row_actions (self->table)));
  gtk_widget_action_set_enabled (widget, "table.reverse-winding",
                                 has_row && self->table ==
                                            MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES));
}

/* The actions check for themselves; the states set for the menu end with it (Ctrl+C works
 * wherever there is a row). */
static void
menu_closed_cb (MshedTableView *self)
{
  static const char *const actions[] = {
    "table.copy", "table.paste", "table.follow-reference", "table.show-in-hex",
    "table.recompute-box", "table.apply-sphere", "table.insert-row", "table.duplicate-rows",
    "table.delete-rows", "table.reverse-winding",
  };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), actions[i], TRUE);
}

/* Opens the menu pointing at @rect (table view coordinates). */
static void
popup_at (MshedTableView        *self,
          const GdkRectangle    *rect)
{
  if (self->context_menu == NULL)
    {
      g_autoptr(GMenuModel) model = build_menu (self);

      self->context_menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
      gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
      g_signal_connect_object (self->context_menu, "closed", G_CALLBACK (menu_closed_cb), self,
                               G_CONNECT_SWAPPED);
    }
  update_menu_actions (self);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu), rect);
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

/* Right click on a cell: it becomes the current cell (its row selected unless it already
 * is), then the menu opens at the pointer. */
static void
secondary_pressed_cb (MshedTableView  *self,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkGestureClick *gesture)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  guint row, position;
  gint column;
  graphene_point_t p;

  if (!_mshed_table_view_pick (self, view, x, y, &row, &column, &position))
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  if (!gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), position))
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  _mshed_table_view_set_current_cell (self, row, column, FALSE);
  if (!gtk_widget_compute_point (view, GTK_WIDGET (self), &GRAPHENE_POINT_INIT ((float) x,
                                                                                (float) y),
                                 &p))
    return;
  popup_at (self, &(GdkRectangle) { (int) p.x, (int) p.y, 1, 1 });
}

/* The Menu key or Shift+F10: the menu of the current cell, opened beside it. */
static void
context_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);
  guint row = _mshed_table_view_current_row (self);
  GtkWidget *cell;
  graphene_rect_t b;
  GdkRectangle rect = { gtk_widget_get_width (widget) / 2, gtk_widget_get_height (widget) / 2,
                        1, 1 };

  if (row == G_MAXUINT && mshed_table_view_get_selected_row (self, &row))
    _mshed_table_view_set_current_cell (self, row, _mshed_table_view_current_column (self),
                                        FALSE);
  cell = row != G_MAXUINT
           ? _mshed_table_view_find_column_cell (self, row, _mshed_table_view_current_column (self))
           : NULL;
  if (cell != NULL && gtk_widget_compute_bounds (cell, widget, &b))
    rect = (GdkRectangle) { (int) b.origin.x, (int) b.origin.y, (int) b.size.width,
                            (int) b.size.height };
  popup_at (self, &rect);
}

/* The actions ------------------------------------------------------------------------------ */

static void
show_error (MshedTableView *self,
            GError         *error)
{
  if (error != NULL)
    _mshed_table_view_show_message (self, error->message);
}

static void
show_in_hex_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);
  guint row = _mshed_table_view_current_row (self);
  const MshedTableColumn *c = _mshed_table_view_column (self,
                                                        _mshed_table_view_current_column (self));

  if (row == G_MAXUINT && !mshed_table_view_get_selected_row (self, &row))
    return;
  /* a vertex's normal or UV column: the record of Res4 or Res5 */
  _mshed_table_view_emit_show_in_hex (self, c != NULL ? c->table : self->table, row,
                                      c != NULL && c->field != NULL ? c->field->name : NULL);
}

static void
recompute_slot (MshedTableView *self,
                MshedDerived    what)
{
  g_autoptr(GError) error = NULL;
  guint row = _mshed_table_view_current_row (self);

  if (self->document == NULL || self->table != MSHED_TABLE_SLOTS || row == G_MAXUINT)
    return;
  if (!mshed_document_recompute (self->document, what, &row, 1, &error))
    show_error (self, error);
}

static void
recompute_box_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  recompute_slot (MSHED_TABLE_VIEW (widget), MSHED_DERIVED_SLOT_BOX);
}

static void
apply_sphere_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  recompute_slot (MSHED_TABLE_VIEW (widget), MSHED_DERIVED_SLOT_SPHERE);
}

static void
rows_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);
  g_autoptr(GError) error = NULL;
  guint first, n;
  gboolean ok;

  if (self->document == NULL ||
      (g_str_equal (action_name, "table.reverse-winding") &&
       self->table != MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES)))
    return;
  if (!selected_run (self, &first, &n))
    {
      /* an empty Hardpoints grid: the new one goes to the end */
      if (self->table != MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_HP_POSITION) ||
          !g_str_equal (action_name, "table.insert-row"))
        return;
      first = g_list_model_get_n_items (G_LIST_MODEL (self->model));
      n = 1;
    }
  if (has_dfm_row_actions (self->table))
    {
      MshedDfmTable table;
      guint level, group;

      if (!mshed_table_model_get_dfm_scope (self->model, &table, &level, &group) ||
          g_str_equal (action_name, "table.duplicate-rows"))
        return;
      if (table == MSHED_DFM_TABLE_TRIANGLES && g_str_equal (action_name, "table.insert-row"))
        ok = mshed_document_dfm_insert_triangles (self->document, level, group, first, 1, NULL,
                                                  &error);
      else if (table == MSHED_DFM_TABLE_TRIANGLES &&
               g_str_equal (action_name, "table.reverse-winding"))
        ok = mshed_document_dfm_reverse_triangles (self->document, level, group, first, n,
                                                   &error);
      else if (table == MSHED_DFM_TABLE_TRIANGLES)
        ok = mshed_document_dfm_delete_triangles (self->document, level, group, first, n,
                                                  &error);
      else if (g_str_equal (action_name, "table.insert-row"))
        ok = mshed_document_dfm_insert_rows (self->document, table, level, first, 1, &error);
      else
        ok = mshed_document_dfm_delete_rows (self->document, table, level, first, n, &error);
      if (!ok)
        show_error (self, error);
      return;
    }
  if (!has_row_actions (self->table))
    return;
  if (g_str_equal (action_name, "table.insert-row"))
    ok = mshed_document_insert_rows (self->document, self->table, first, 1, NULL, &error);
  else if (g_str_equal (action_name, "table.duplicate-rows"))
    ok = mshed_document_duplicate_rows (self->document, self->table, first, n, &error);
  else
    ok = mshed_document_delete_rows (self->document, self->table, first, n, &error);
  if (!ok)
    show_error (self, error);
}

void
_mshed_table_view_class_add_menu (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "table.context-menu", NULL,
                                   context_menu_action);
  gtk_widget_class_install_action (widget_class, "table.show-in-hex", NULL, show_in_hex_action);
  gtk_widget_class_install_action (widget_class, "table.recompute-box", NULL,
                                   recompute_box_action);
  gtk_widget_class_install_action (widget_class, "table.apply-sphere", NULL,
                                   apply_sphere_action);
  gtk_widget_class_install_action (widget_class, "table.insert-row", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "table.duplicate-rows", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "table.delete-rows", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "table.reverse-winding", NULL, rows_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "table.context-menu",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "table.context-menu", NULL);
}

void
_mshed_table_view_init_menu (MshedTableView *self,
                             GtkWidget      *view)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (click, "pressed", G_CALLBACK (secondary_pressed_cb), self);
  gtk_widget_add_controller (view, GTK_EVENT_CONTROLLER (click));
}
