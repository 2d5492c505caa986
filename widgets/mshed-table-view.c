/* mshed-table-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-table-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-cell-editor.h"
#include "mshed-error.h"
#include "mshed-hex-model.h"
#include "mshed-table-model.h"
#include "mshed-table-view.h"
#include "mshed-table-view-private.h"

/* MshedTableView --------------------------------------------------------------------------- */

typedef struct {
  MshedTableView *view;    /* not owned */
  gint            column;
} ColumnRef;

typedef struct {
  ColumnRef      ref;
  GtkListItem   *item;     /* not owned */
  MshedTableRow *row;
  gulong         changed_id;
  GtkWidget     *styled;   /* not owned: the widget that has the state classes below */
  guint          classes;  /* bit i: state_classes[i] is on it */
} Cell;

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_TABLE,
  N_PROPS
};

enum {
  ROW_SELECTED,
  FOLLOW_REFERENCE,
  SHOW_IN_HEX,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];
static GQuark cell_quark;

G_DEFINE_FINAL_TYPE (MshedTableView, mshed_table_view, GTK_TYPE_WIDGET)

static void refresh_cell (GtkWidget *inscription);

/* Helpers ---------------------------------------------------------------------------------- */

const MshedTableColumn *
_mshed_table_view_column (MshedTableView *self,
                          gint            column)
{
  if (column < 0 || (guint) column >= mshed_table_model_get_n_columns (self->model))
    return NULL;
  return mshed_table_model_get_column (self->model, (guint) column);
}

gboolean
_mshed_table_view_column_shown (MshedTableView *self,
                                gint            column)
{
  const MshedTableColumn *c = _mshed_table_view_column (self, column);

  return c != NULL && (self->show_raw || !c->raw);
}

/* The columns shown, in order. */
GArray *
_mshed_table_view_shown_columns (MshedTableView *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n = mshed_table_model_get_n_columns (self->model);

  for (guint i = 0; i < n; i++)
    if (_mshed_table_view_column_shown (self, (gint) i))
      g_array_append_val (out, i);
  return out;
}

guint
_mshed_table_view_position_to_row (MshedTableView *self,
                                   guint           position)
{
  g_autoptr(MshedTableRow) row = g_list_model_get_item (G_LIST_MODEL (self->selection),
                                                        position);

  return row ? mshed_table_row_get_index (row) : G_MAXUINT;
}

static gboolean
view_is_identity (MshedTableView *self)
{
  return gtk_sort_list_model_get_sorter (self->sort_model) == NULL &&
         gtk_filter_list_model_get_filter (self->filter_model) == NULL;
}

/* The position of record @row in the (sorted, filtered) view, G_MAXUINT when hidden. */
static guint
row_to_position (MshedTableView *self,
                 guint           row)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  if (view_is_identity (self))
    return row < n ? row : G_MAXUINT;
  for (guint i = 0; i < n; i++)
    if (_mshed_table_view_position_to_row (self, i) == row)
      return i;
  return G_MAXUINT;
}

/* row_to_position() with a one-entry cache, so that the current row is found in O(1) while
 * the view is sorted or filtered. */
guint
_mshed_table_view_row_position (MshedTableView *self,
                                guint           row)
{
  if (row == G_MAXUINT)
    return G_MAXUINT;
  if (self->cache_row == row && self->cache_pos != G_MAXUINT &&
      _mshed_table_view_position_to_row (self, self->cache_pos) == row)
    return self->cache_pos;
  self->cache_row = row;
  self->cache_pos = row_to_position (self, row);
  return self->cache_pos;
}

void
_mshed_table_view_seed_position (MshedTableView *self,
                                 guint           row,
                                 guint           position)
{
  self->cache_row = row;
  self->cache_pos = position;
}

GtkWidget *
_mshed_table_view_get_list_view (MshedTableView *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

void
_mshed_table_view_show_message (MshedTableView *self,
                                const char     *message)
{
  gtk_label_set_text (self->message_label, message);
  gtk_revealer_set_reveal_child (self->message_revealer, TRUE);
}

static void
message_close_cb (MshedTableView *self)
{
  gtk_revealer_set_reveal_child (self->message_revealer, FALSE);
}

static void
refresh_all_cells (MshedTableView *self)
{
  g_autoptr(GPtrArray) cells = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (cells, key);
  for (guint i = 0; i < cells->len; i++)
    refresh_cell (g_ptr_array_index (cells, i));
}

/* Diagnostics ------------------------------------------------------------------------------ */

static void
diagnostics_changed_cb (MshedTableView *self)
{
  self->diags_dirty = TRUE;
  refresh_all_cells (self);
}

/* Cells ------------------------------------------------------------------------------------ */

/* gtk_widget_set_tooltip_text() queries the pointer (an X round trip): only on change. */
static void
set_tooltip (GtkWidget  *widget,
             const char *text)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

static void
set_class (GtkWidget  *widget,
           const char *name,
           gboolean    on)
{
  if (on)
    gtk_widget_add_css_class (widget, name);
  else
    gtk_widget_remove_css_class (widget, name);
}

static const char *state_classes[] = {
  "none", "invalid", "warning", "stale", "highlight", "current", "missing", "in-range",
  "changed", "joined",
};

enum {
  STATE_NONE = 1 << 0,
  STATE_INVALID = 1 << 1,
  STATE_WARNING = 1 << 2,
  STATE_STALE = 1 << 3,
  STATE_HIGHLIGHT = 1 << 4,
  STATE_CURRENT = 1 << 5,
  STATE_MISSING = 1 << 6,
  STATE_IN_RANGE = 1 << 7,
  STATE_CHANGED = 1 << 8,
  STATE_JOINED = 1 << 9,
};

G_STATIC_ASSERT (G_N_ELEMENTS (state_classes) == 10);

/* Gives @target exactly the state classes in @classes. Only the classes that change are
 * touched: every add or remove restyles the widget, and scrolling rebinds hundreds of cells
 * a page, nearly all of them with no state class at all. */
static void
apply_state (Cell      *cell,
             GtkWidget *target,
             guint      classes)
{
  guint changed;

  if (cell->styled != NULL && cell->styled != target)
    {
      for (guint i = 0; i < G_N_ELEMENTS (state_classes); i++)
        if (cell->classes & (1u << i))
          gtk_widget_remove_css_class (cell->styled, state_classes[i]);
      cell->classes = 0;
    }
  cell->styled = target;
  changed = cell->classes ^ classes;
  for (guint i = 0; changed != 0 && i < G_N_ELEMENTS (state_classes); i++)
    if (changed & (1u << i))
      set_class (target, state_classes[i], (classes & (1u << i)) != 0);
  cell->classes = classes;
}

static void
clear_state (GtkWidget *inscription)
{
  Cell *cell = g_object_get_qdata (G_OBJECT (inscription), cell_quark);
  GtkWidget *bg = gtk_widget_get_parent (inscription);

  apply_state (cell, bg != NULL ? bg : inscription, 0);
  if (cell->ref.column != INDEX_COLUMN)  /* its tooltip is made when asked for */
    set_tooltip (inscription, NULL);
}

static const char *
column_field_name (const MshedTableColumn *c)
{
  if (c->field != NULL)
    return c->field->name;
  if (c->kind == MSHED_COLUMN_ENTRY_NAME)
    return "name";
  return NULL;
}

static void
refresh_cell (GtkWidget *inscription)
{
  Cell *cell = g_object_get_qdata (G_OBJECT (inscription), cell_quark);
  MshedTableView *self = cell->ref.view;
  GtkWidget *bg = gtk_widget_get_parent (inscription);
  g_autoptr(GString) tip = g_string_new (NULL);
  g_autofree char *text = NULL;
  guint index = cell->row ? mshed_table_row_get_index (cell->row) : G_MAXUINT;
  const MshedTableColumn *c = _mshed_table_view_column (self, cell->ref.column);
  gboolean is_none = FALSE, stale = FALSE, in_range = FALSE;
  int severity = -1;

  if (bg == NULL)
    bg = inscription;

  if (index == G_MAXUINT || self->document == NULL)
    {
      gtk_inscription_set_text (GTK_INSCRIPTION (inscription), NULL);
      clear_state (inscription);
      return;
    }

  if (cell->ref.column == INDEX_COLUMN)
    {
      text = g_strdup_printf ("%u", index);
      severity = _mshed_table_view_collect_diags (
                   _mshed_table_view_lookup_diags (self, self->table, index), NULL, tip);
      if (self->table == MSHED_TABLE_NODES)
        _mshed_table_view_collect_diags (
          _mshed_table_view_lookup_diags (self, MSHED_TABLE_NAMES, index), NULL, tip);
    }
  else if (c != NULL)
    {
      const char *field = column_field_name (c);

      text = mshed_table_model_dup_cell_text (self->model, index, (guint) cell->ref.column,
                                              &is_none);
      if (c->kind == MSHED_COLUMN_NAME || c->kind == MSHED_COLUMN_NAME_LENGTH ||
          c->kind == MSHED_COLUMN_NAME_HEX)
        severity = _mshed_table_view_collect_diags (
                     _mshed_table_view_lookup_diags (self, MSHED_TABLE_NAMES, index), NULL, tip);
      else if (field != NULL)
        severity = _mshed_table_view_collect_diags (
                     _mshed_table_view_lookup_diags (self, c->table, index), field, tip);
      if (c->stale_mask != MSHED_DERIVED_NONE)
        stale = (mshed_table_model_get_row_stale (self->model, c->table, index) &
                 c->stale_mask) != 0;
      in_range = self->cur_col >= 0 && index == self->cur_row &&
                 cell->ref.column >= MIN (self->anchor_col, self->cur_col) &&
                 cell->ref.column <= MAX (self->anchor_col, self->cur_col);
    }

  gtk_inscription_set_text (GTK_INSCRIPTION (inscription), text ? text : "—");

  apply_state (cell, bg,
               (text == NULL ? STATE_MISSING : 0) |
               (is_none ? STATE_NONE : 0) |
               (severity >= MSHED_SEVERITY_ERROR ? STATE_INVALID : 0) |
               (severity == MSHED_SEVERITY_WARNING ? STATE_WARNING : 0) |
               (stale ? STATE_STALE : 0) |
               (self->highlight != NULL && gtk_bitset_contains (self->highlight, index) ?
                STATE_HIGHLIGHT : 0) |
               (index == self->cur_row && cell->ref.column == self->cur_col ?
                STATE_CURRENT : 0) |
               (in_range && cell->ref.column != self->cur_col ? STATE_IN_RANGE : 0) |
               (_mshed_table_view_cell_changed (self, index, cell->ref.column) ?
                STATE_CHANGED : 0) |
               (c != NULL && c->kind == MSHED_COLUMN_DFM_JOINED ? STATE_JOINED : 0));

  if (stale)
    {
      if (tip->len > 0)
        g_string_append_c (tip, '\n');
      g_string_append (tip, _("Stale: derived from data that was edited; recompute it in the "
                              "dependency panel"));
    }
  if (cell->ref.column != INDEX_COLUMN)
    set_tooltip (inscription, tip->len > 0 ? tip->str : NULL);
}

/* The row number's tooltip: where the record is (its file offset, as the hex view, Problems
 * and mshed-cli dump show it, and the offset inside the resource) and its problems. Made when
 * asked for: it differs on every row, and setting a tooltip costs an X round trip. */
static gboolean
index_query_tooltip_cb (GtkWidget  *inscription,
                        int         x,
                        int         y,
                        gboolean    keyboard,
                        GtkTooltip *tooltip)
{
  Cell *cell = g_object_get_qdata (G_OBJECT (inscription), cell_quark);
  MshedTableView *self = cell->ref.view;
  guint index = cell->row ? mshed_table_row_get_index (cell->row) : G_MAXUINT;
  g_autoptr(GString) tip = g_string_new (NULL);
  g_autofree char *where = NULL;
  guint64 offset;

  if (index == G_MAXUINT || self->document == NULL)
    return FALSE;
  _mshed_table_view_collect_diags (_mshed_table_view_lookup_diags (self, self->table, index),
                                   NULL, tip);
  if (self->table == MSHED_TABLE_NODES)
    _mshed_table_view_collect_diags (
      _mshed_table_view_lookup_diags (self, MSHED_TABLE_NAMES, index), NULL, tip);
  offset = _mshed_table_view_record_file_offset (self, index);
  where = offset != G_MAXUINT64 ? mshed_hex_describe_file_offset (self->document, offset) : NULL;
  if (where != NULL)
    g_string_prepend (tip, tip->len > 0 ? "\n" : "");
  if (where != NULL)
    g_string_prepend (tip, where);
  if (tip->len == 0)
    return FALSE;
  gtk_tooltip_set_text (tooltip, tip->str);
  return TRUE;
}

static void
cell_free (gpointer data)
{
  Cell *cell = data;

  if (cell->row != NULL)
    {
      g_clear_signal_handler (&cell->changed_id, cell->row);
      g_clear_object (&cell->row);
    }
  g_free (cell);
}

static void
factory_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  ColumnRef                *ref)
{
  MshedTableView *self = ref->view;
  const MshedTableColumn *c = _mshed_table_view_column (self, ref->column);
  GtkWidget *inscription = gtk_inscription_new (NULL);
  Cell *cell = g_new0 (Cell, 1);

  cell->ref = *ref;
  cell->item = item;
  g_object_set_qdata_full (G_OBJECT (inscription), cell_quark, cell, cell_free);

  gtk_widget_add_css_class (inscription, "cell-text");
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (inscription),
                                     GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (inscription), 3);
  if (c != NULL)
    {
      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (inscription), c->width_chars);
      gtk_inscription_set_xalign (GTK_INSCRIPTION (inscription), c->numeric ? 1.0f : 0.0f);
      if (c->numeric)
        gtk_widget_add_css_class (inscription, "numeric");
    }
  else
    {
      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (inscription), 6);
      gtk_inscription_set_xalign (GTK_INSCRIPTION (inscription), 1.0f);
      gtk_widget_add_css_class (inscription, "numeric");
      gtk_widget_add_css_class (inscription, "row-number");
      gtk_widget_set_has_tooltip (inscription, TRUE);
      g_signal_connect (inscription, "query-tooltip", G_CALLBACK (index_query_tooltip_cb), NULL);
    }
  gtk_list_item_set_child (item, inscription);
}

static void
factory_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 ColumnRef                *ref)
{
  GtkWidget *inscription = gtk_list_item_get_child (item);
  Cell *cell = g_object_get_qdata (G_OBJECT (inscription), cell_quark);
  MshedTableRow *row = gtk_list_item_get_item (item);

  cell->item = item;
  if (row != NULL)
    {
      cell->row = g_object_ref (row);
      cell->changed_id = g_signal_connect_swapped (row, "changed", G_CALLBACK (refresh_cell),
                                                   inscription);
    }
  g_hash_table_add (ref->view->bound_cells, inscription);
  refresh_cell (inscription);
}

static void
factory_unbind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   ColumnRef                *ref)
{
  GtkWidget *inscription = gtk_list_item_get_child (item);
  Cell *cell = g_object_get_qdata (G_OBJECT (inscription), cell_quark);

  if (cell->row != NULL)
    {
      g_clear_signal_handler (&cell->changed_id, cell->row);
      g_clear_object (&cell->row);
    }
  g_hash_table_remove (ref->view->bound_cells, inscription);
  clear_state (inscription);
}

static GtkListItemFactory *
make_factory (MshedTableView *self,
              gint            column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  ColumnRef *ref = g_new0 (ColumnRef, 1);

  ref->view = self;
  ref->column = column;
  g_signal_connect_data (factory, "setup", G_CALLBACK (factory_setup_cb), ref,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect (factory, "bind", G_CALLBACK (factory_bind_cb), ref);
  g_signal_connect (factory, "unbind", G_CALLBACK (factory_unbind_cb), ref);
  return factory;
}

gint
_mshed_table_view_cell_column (GtkWidget *inscription)
{
  Cell *cell = g_object_get_qdata (G_OBJECT (inscription), cell_quark);

  return cell != NULL ? cell->ref.column : INDEX_COLUMN;
}

guint
_mshed_table_view_cell_position (GtkWidget *inscription)
{
  Cell *cell = g_object_get_qdata (G_OBJECT (inscription), cell_quark);

  return cell != NULL ? gtk_list_item_get_position (cell->item) : GTK_INVALID_LIST_POSITION;
}

/* The shown cell of (row, column), NULL when not on screen. */
GtkWidget *
_mshed_table_view_find_column_cell (MshedTableView *self,
                                    guint           row,
                                    gint            column)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      Cell *cell = g_object_get_qdata (G_OBJECT (key), cell_quark);

      if (cell->ref.column == column && cell->row != NULL &&
          mshed_table_row_get_index (cell->row) == row)
        return key;
    }
  return NULL;
}

/* Current cell ----------------------------------------------------------------------------- */

void
_mshed_table_view_set_current_cell (MshedTableView *self,
                                    guint           row,
                                    gint            column,
                                    gboolean        extend)
{
  self->cur_row = row;
  if (column != INDEX_COLUMN || self->cur_col == INDEX_COLUMN)
    {
      self->cur_col = column;
      if (!extend)
        self->anchor_col = column;
    }
  refresh_all_cells (self);
}

/* The first time the grid is shown, the column view gets its rows (see rows_attached); a
 * scroll asked for before then runs once the list has its size. */
static void
mshed_table_view_map (GtkWidget *widget)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);

  if (!self->rows_attached)
    {
      self->rows_attached = TRUE;
      gtk_column_view_set_model (self->key_view, GTK_SELECTION_MODEL (self->selection));
      gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
    }
  _mshed_table_view_sync_headers (self);
  GTK_WIDGET_CLASS (mshed_table_view_parent_class)->map (widget);
  _mshed_table_view_start_pending_scroll (self);
}

guint
_mshed_table_view_current_row (MshedTableView *self)
{
  if (self->cur_row != G_MAXUINT &&
      self->cur_row < g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return self->cur_row;
  return G_MAXUINT;
}

gint
_mshed_table_view_current_column (MshedTableView *self)
{
  g_autoptr(GArray) shown = NULL;

  if (self->cur_col >= 0 && _mshed_table_view_column_shown (self, self->cur_col))
    return self->cur_col;
  shown = _mshed_table_view_shown_columns (self);
  return shown->len > 0 ? (gint) g_array_index (shown, guint, 0) : INDEX_COLUMN;
}

/* References ------------------------------------------------------------------------------- */

static gboolean
follow_reference (MshedTableView *self,
                  guint           row,
                  gint            column)
{
  const MshedTableColumn *c = _mshed_table_view_column (self, column);
  MshedTableId table;
  guint target, n;

  if (c == NULL || self->document == NULL ||
      !mshed_table_model_get_reference (self->model, row, (guint) column, &table, &target))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }

  n = mshed_table_model_count_target (self->model, table);
  if (target >= n)
    {
      g_autofree char *message = NULL;

      /* TRANSLATORS: following a reference to a row that does not exist, e.g.
       * "slot1 (L0 G1) refers to row 40 of Slots, but the table has 12 rows" */
      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%s refers to row %u of %s, but the table has "
                                              "%u row",
                                              "%s refers to row %u of %s, but the table has "
                                              "%u rows",
                                              n),
                                 c->label, target, mshed_table_model_table_title (table), n);
      _mshed_table_view_show_message (self, message);
      return FALSE;
    }

  g_signal_emit (self, signals[FOLLOW_REFERENCE], 0, (gint) table, target);
  return TRUE;
}

/* Input ------------------------------------------------------------------------------------ */

/* The cell at (@x, @y) of @view (the column view or the key columns' view). */
static Cell *
pick_cell (GtkWidget *view,
           double     x,
           double     y)
{
  GtkWidget *picked = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);

  for (GtkWidget *w = picked; w != NULL && w != view; w = gtk_widget_get_parent (w))
    {
      Cell *cell = g_object_get_qdata (G_OBJECT (w), cell_quark);

      if (cell != NULL)
        return cell;
      /* the cell's background: its only child is our inscription */
      if (gtk_widget_get_first_child (w) != NULL &&
          (cell = g_object_get_qdata (G_OBJECT (gtk_widget_get_first_child (w)), cell_quark)))
        return cell;
    }
  return NULL;
}

gboolean
_mshed_table_view_pick (MshedTableView *self,
                        GtkWidget      *view,
                        double          x,
                        double          y,
                        guint          *row,
                        gint           *column,
                        guint          *position)
{
  Cell *cell = pick_cell (view, x, y);

  if (cell == NULL || cell->row == NULL || mshed_table_row_get_index (cell->row) == G_MAXUINT)
    return FALSE;
  *row = mshed_table_row_get_index (cell->row);
  *column = cell->ref.column;
  *position = gtk_list_item_get_position (cell->item);
  _mshed_table_view_seed_position (self, *row, *position);
  return TRUE;
}

void
_mshed_table_view_emit_show_in_hex (MshedTableView *self,
                                    MshedTableId    table,
                                    guint           row,
                                    const char     *field)
{
  g_signal_emit (self, signals[SHOW_IN_HEX], 0, (gint) table, row, field);
}

/* Flips a check-box cell (MSHED_COLUMN_DFM_BIT); FALSE for any other column. */
static gboolean
toggle_bit (MshedTableView *self,
            guint           row,
            gint            column)
{
  const MshedTableColumn *c = _mshed_table_view_column (self, column);
  g_autoptr(GError) error = NULL;

  if (c == NULL || c->kind != MSHED_COLUMN_DFM_BIT || self->document == NULL)
    return FALSE;
  if (!mshed_table_model_toggle_bit (self->model, row, (guint) column, &error))
    _mshed_table_view_show_message (self, error ? error->message : "");
  return TRUE;
}

static void
click_pressed_cb (MshedTableView  *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  GtkEventController *controller = GTK_EVENT_CONTROLLER (gesture);
  GdkModifierType state = gtk_event_controller_get_current_event_state (controller);
  Cell *cell = pick_cell (gtk_event_controller_get_widget (controller), x, y);
  guint row;

  if (cell == NULL || cell->row == NULL)
    return;
  row = mshed_table_row_get_index (cell->row);
  if (row == G_MAXUINT)
    return;
  _mshed_table_view_seed_position (self, row, gtk_list_item_get_position (cell->item));

  if ((state & GDK_CONTROL_MASK) && n_press == 1 && cell->ref.column >= 0)
    {
      const MshedTableColumn *c = _mshed_table_view_column (self, cell->ref.column);

      if (c != NULL && c->field != NULL && c->field->ref != MSHED_TABLE_NONE)
        {
          gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
          _mshed_table_view_set_current_cell (self, row, cell->ref.column, FALSE);
          follow_reference (self, row, cell->ref.column);
          return;
        }
    }

  _mshed_table_view_set_current_cell (self, row, cell->ref.column, (state & GDK_SHIFT_MASK) != 0);
  /* a check box flips on a plain click */
  if (n_press == 1 && !(state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) && cell->ref.column >= 0)
    toggle_bit (self, row, cell->ref.column);
}

static gboolean
key_pressed_cb (MshedTableView        *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();
  g_autoptr(GArray) shown = NULL;
  gunichar ch;

  if (keyval == GDK_KEY_Left || keyval == GDK_KEY_Right ||
      keyval == GDK_KEY_KP_Left || keyval == GDK_KEY_KP_Right)
    {
      int step = (keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left) ? -1 : 1;
      gint cur = _mshed_table_view_current_column (self);
      guint i;

      if (mods & ~GDK_SHIFT_MASK)
        return FALSE;
      shown = _mshed_table_view_shown_columns (self);
      for (i = 0; i < shown->len; i++)
        if ((gint) g_array_index (shown, guint, i) == cur)
          break;
      if (i == shown->len)
        i = 0;
      else if ((step < 0 && i > 0) || (step > 0 && i + 1 < shown->len))
        i += step;
      if (shown->len == 0)
        return TRUE;
      if (self->cur_row == G_MAXUINT)
        mshed_table_view_get_selected_row (self, &self->cur_row);
      _mshed_table_view_set_current_cell (self, self->cur_row,
                                          (gint) g_array_index (shown, guint, i),
                                          (mods & GDK_SHIFT_MASK) != 0);
      _mshed_table_view_ensure_column_visible (self, self->cur_col);
      return TRUE;
    }

  if (keyval == GDK_KEY_space && mods == 0 && self->cur_row != G_MAXUINT &&
      toggle_bit (self, self->cur_row, _mshed_table_view_current_column (self)))
    return TRUE;

  if (keyval == GDK_KEY_F2 && mods == 0)
    {
      _mshed_table_view_edit_current (self, NULL);
      return TRUE;
    }

  /* typing over a cell starts editing it with that character */
  if ((mods & ~GDK_SHIFT_MASK) == 0 && (ch = gdk_keyval_to_unicode (keyval)) != 0 &&
      g_unichar_isgraph (ch))
    {
      char buf[8] = { 0 };

      g_unichar_to_utf8 (ch, buf);
      _mshed_table_view_edit_current (self, buf);
      return TRUE;
    }

  return FALSE;
}

void
_mshed_table_view_selection_changed_cb (MshedTableView *self,
                                        guint           position,
                                        guint           n_items)
{
  GtkSelectionModel *model = GTK_SELECTION_MODEL (self->selection);
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (model);
  guint row;

  if (gtk_bitset_is_empty (selected))
    return;

  if (gtk_bitset_get_size (selected) == 1 || self->cur_row == G_MAXUINT ||
      _mshed_table_view_row_position (self, self->cur_row) == G_MAXUINT ||
      !gtk_bitset_contains (selected, _mshed_table_view_row_position (self, self->cur_row)))
    {
      guint pos = gtk_bitset_get_minimum (selected);

      row = _mshed_table_view_position_to_row (self, pos);
      _mshed_table_view_seed_position (self, row, pos);
      if (row != self->cur_row)
        _mshed_table_view_set_current_cell (self, row, self->cur_col, TRUE);
    }

  if (self->block_selection == 0 && self->cur_row != G_MAXUINT &&
      self->cur_row != self->last_emitted_row)
    {
      self->last_emitted_row = self->cur_row;
      g_signal_emit (self, signals[ROW_SELECTED], 0, self->cur_row);
    }
}

static void
follow_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _mshed_table_view_follow_current (MSHED_TABLE_VIEW (widget));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  mshed_table_view_start_search (MSHED_TABLE_VIEW (widget));
}

/* Columns ---------------------------------------------------------------------------------- */

static void
update_raw_columns (MshedTableView *self)
{
  for (guint i = 0; i < self->columns->len; i++)
    gtk_column_view_column_set_visible (g_ptr_array_index (self->columns, i),
                                        _mshed_table_view_column_shown (self, (gint) i));
  if (self->cur_col >= 0 && !_mshed_table_view_column_shown (self, self->cur_col))
    self->cur_col = self->anchor_col = _mshed_table_view_current_column (self);
  refresh_all_cells (self);
}

static void
raw_toggled_cb (MshedTableView  *self,
                GtkToggleButton *button)
{
  mshed_table_view_set_show_raw (self, gtk_toggle_button_get_active (button));
}

static void
build_columns (MshedTableView *self)
{
  guint n = mshed_table_model_get_n_columns (self->model);
  gboolean has_raw = FALSE;
  g_autoptr(GtkListItemFactory) index_factory = make_factory (self, INDEX_COLUMN);
  GtkSorter *probe_sorter = _mshed_table_view_probe_sorter_new ();

  gtk_column_view_column_set_factory (self->index_column, index_factory);
  gtk_column_view_column_set_sorter (self->index_column, probe_sorter);
  g_ptr_array_add (self->probes, probe_sorter);

  for (guint i = 0; i < n; i++)
    {
      const MshedTableColumn *c = mshed_table_model_get_column (self->model, i);
      g_autoptr(GtkListItemFactory) factory = make_factory (self, (gint) i);
      GtkColumnViewColumn *column = gtk_column_view_column_new (c->title, g_object_ref (factory));

      probe_sorter = _mshed_table_view_probe_sorter_new ();
      gtk_column_view_column_set_sorter (column, probe_sorter);
      g_ptr_array_add (self->probes, probe_sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_visible (column, !c->raw);
      /* a node's name stays in view beside its number */
      gtk_column_view_append_column (c->kind == MSHED_COLUMN_NAME ? self->key_view
                                                                  : self->column_view, column);
      g_ptr_array_add (self->columns, column);
      has_raw |= c->raw;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->raw_toggle), has_raw);
}

/* GObject / GtkWidget ---------------------------------------------------------------------- */

/* The key columns are the box's second child, so they are laid out after the other columns,
 * whose list moves the shared vertical adjustment while it is laid out (a scroll to a row):
 * laid out first, the key columns would need another layout after this frame's. The box
 * runs against the text direction to show them first (left, or right in RTL). */
static void
update_grid_direction (MshedTableView *self)
{
  gtk_widget_set_direction (self->grid_box,
                            gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL
                              ? GTK_TEXT_DIR_LTR : GTK_TEXT_DIR_RTL);
}

static void
mshed_table_view_direction_changed (GtkWidget        *widget,
                                    GtkTextDirection  previous)
{
  update_grid_direction (MSHED_TABLE_VIEW (widget));
  GTK_WIDGET_CLASS (mshed_table_view_parent_class)->direction_changed (widget, previous);
}

static void
mshed_table_view_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);

  gtk_widget_measure (self->box, orientation, for_size, minimum, natural, minimum_baseline,
                      natural_baseline);
}

static void
mshed_table_view_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);

  gtk_widget_allocate (self->box, width, height, baseline, NULL);
  if (self->editor != NULL)
    gtk_popover_present (GTK_POPOVER (self->editor));
  if (self->context_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
}

static gboolean
mshed_table_view_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (MSHED_TABLE_VIEW (widget)->column_view));
}

static void
model_items_changed_cb (MshedTableView *self)
{
  _mshed_table_view_update_count (self);
}

static void
mshed_table_view_constructed (GObject *object)
{
  MshedTableView *self = MSHED_TABLE_VIEW (object);

  G_OBJECT_CLASS (mshed_table_view_parent_class)->constructed (object);

  self->model = mshed_table_model_new (NULL, self->table);
  gtk_filter_list_model_set_model (self->filter_model, G_LIST_MODEL (self->model));
  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (model_items_changed_cb), self, G_CONNECT_SWAPPED);
  build_columns (self);
  _mshed_table_view_update_count (self);
}

static void
mshed_table_view_dispose (GObject *object)
{
  MshedTableView *self = MSHED_TABLE_VIEW (object);

  if (self->focus_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->focus_tick);
      self->focus_tick = 0;
    }
  if (self->scroll_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->scroll_tick);
      self->scroll_tick = 0;
    }
  if (self->key_sync_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->key_sync_tick);
      self->key_sync_tick = 0;
    }
  if (self->editor != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->editor));
      self->editor = NULL;
    }
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_TABLE_VIEW);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->model);
  g_clear_object (&self->filter);
  g_clear_object (&self->probe_a);
  g_clear_object (&self->probe_b);
  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_clear_pointer (&self->probes, g_ptr_array_unref);

  G_OBJECT_CLASS (mshed_table_view_parent_class)->dispose (object);
}

static void
mshed_table_view_finalize (GObject *object)
{
  MshedTableView *self = MSHED_TABLE_VIEW (object);

  g_clear_pointer (&self->bound_cells, g_hash_table_unref);
  g_clear_pointer (&self->diags, g_hash_table_unref);
  g_clear_pointer (&self->highlight, gtk_bitset_unref);
  g_clear_pointer (&self->changed, g_hash_table_unref);

  G_OBJECT_CLASS (mshed_table_view_parent_class)->finalize (object);
}

static void
mshed_table_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  MshedTableView *self = MSHED_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_TABLE:
      g_value_set_int (value, self->table);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_table_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  MshedTableView *self = MSHED_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      mshed_table_view_set_document (self, g_value_get_object (value));
      break;
    case PROP_TABLE:
      self->table = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_table_view_class_init (MshedTableViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = mshed_table_view_constructed;
  object_class->dispose = mshed_table_view_dispose;
  object_class->finalize = mshed_table_view_finalize;
  object_class->get_property = mshed_table_view_get_property;
  object_class->set_property = mshed_table_view_set_property;

  widget_class->measure = mshed_table_view_measure;
  widget_class->size_allocate = mshed_table_view_size_allocate;
  widget_class->map = mshed_table_view_map;
  widget_class->grab_focus = mshed_table_view_grab_focus;
  widget_class->direction_changed = mshed_table_view_direction_changed;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, MSHED_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* MshedTableId; the construct-time default is any of the model types, NODES */
  properties[PROP_TABLE] =
    g_param_spec_int ("table", NULL, NULL, 0, MSHED_DFM_TABLE_LAST - 1, MSHED_TABLE_NODES,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MshedTableView::row-selected:
   * @row: the record index
   */
  signals[ROW_SELECTED] =
    g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /**
   * MshedTableView::follow-reference:
   * @table: the MshedTableId of the target
   * @row: the target record
   */
  signals[FOLLOW_REFERENCE] =
    g_signal_new ("follow-reference", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_UINT);
  /**
   * MshedTableView::show-in-hex:
   * @table: the MshedTableId of the record (a vertex's normal or UV: Res4, Res5)
   * @row: the record
   * @field: (nullable): the field of the current column
   */
  signals[SHOW_IN_HEX] =
    g_signal_new ("show-in-hex", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_UINT, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-table-view.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, box);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, count_label);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, raw_toggle);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, message_revealer);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, message_label);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, grid_box);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, key_scroller);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, key_view);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, scroller);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, column_view);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, selection);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, sort_model);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, filter_model);
  gtk_widget_class_bind_template_child (widget_class, MshedTableView, index_column);
  gtk_widget_class_bind_template_callback_full (widget_class, "search_changed_cb",
                                                G_CALLBACK (_mshed_table_view_search_changed_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "search_activate_cb",
                                                G_CALLBACK (_mshed_table_view_search_activate_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "search_stop_cb",
                                                G_CALLBACK (_mshed_table_view_search_stop_cb));
  gtk_widget_class_bind_template_callback (widget_class, raw_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, message_close_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "selection_changed_cb",
                                                G_CALLBACK (
                                                  _mshed_table_view_selection_changed_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "column_view_activate_cb",
                                                G_CALLBACK (
                                                  _mshed_table_view_column_view_activate_cb));

  gtk_widget_class_install_action (widget_class, "table.copy", NULL,
                                   _mshed_table_view_copy_action);
  gtk_widget_class_install_action (widget_class, "table.paste", NULL,
                                   _mshed_table_view_paste_action);
  gtk_widget_class_install_action (widget_class, "table.edit", NULL,
                                   _mshed_table_view_edit_action);
  gtk_widget_class_install_action (widget_class, "table.follow-reference", NULL, follow_action);
  gtk_widget_class_install_action (widget_class, "table.search", NULL, search_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "table.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK,
                                       "table.paste", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "table.edit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "table.follow-reference", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK,
                                       "table.follow-reference", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "table.search", NULL);

  _mshed_table_view_class_add_menu (widget_class);

  gtk_widget_class_set_css_name (widget_class, "tableview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  g_type_ensure (MSHED_TYPE_TABLE_ROW);
  cell_quark = g_quark_from_static_string ("mshed-table-view-cell");
}

static void
mshed_table_view_init (MshedTableView *self)
{
  GtkEventController *keys;
  GtkGesture *click;

  self->table = MSHED_TABLE_NODES;
  self->cur_row = G_MAXUINT;
  self->pending_scroll = G_MAXUINT;
  self->cache_row = G_MAXUINT;
  self->cache_pos = G_MAXUINT;
  self->cur_col = INDEX_COLUMN;
  self->anchor_col = INDEX_COLUMN;
  self->last_emitted_row = G_MAXUINT;
  self->columns = g_ptr_array_new_with_free_func (g_object_unref);
  self->probes = g_ptr_array_new_with_free_func (g_object_unref);
  self->probe_a = g_object_new (G_TYPE_OBJECT, NULL);
  self->probe_b = g_object_new (G_TYPE_OBJECT, NULL);
  self->bound_cells = g_hash_table_new (NULL, NULL);
  self->diags = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
  self->filter = gtk_custom_filter_new (NULL, NULL, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* the template keeps the selection model alive; the rows come on the first map */
  gtk_column_view_set_model (self->column_view, NULL);
  self->pending_scroll = G_MAXUINT;
  /* the key columns scroll up and down with the others */
  _mshed_table_view_link_key_scroller (self);
  update_grid_direction (self);

  self->editor = MSHED_CELL_EDITOR (mshed_cell_editor_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->editor), GTK_WIDGET (self));
  g_signal_connect_object (self->editor, "commit",
                           G_CALLBACK (_mshed_table_view_editor_commit_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "closed",
                           G_CALLBACK (_mshed_table_view_editor_closed_cb), self,
                           G_CONNECT_SWAPPED);

  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "diagnostics-changed",
                                  G_CALLBACK (diagnostics_changed_cb), self);
  g_signal_group_connect_swapped (self->document_signals, "stale-changed",
                                  G_CALLBACK (refresh_all_cells), self);

  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (_mshed_table_view_sorter_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_column_view_get_sorter (self->key_view), "changed",
                           G_CALLBACK (_mshed_table_view_sorter_changed_cb), self,
                           G_CONNECT_SWAPPED);

  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *view = GTK_WIDGET (i == 0 ? self->column_view : self->key_view);

      keys = gtk_event_controller_key_new ();
      gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
      g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
      gtk_widget_add_controller (view, keys);

      click = gtk_gesture_click_new ();
      gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
      gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click),
                                                  GTK_PHASE_CAPTURE);
      g_signal_connect_swapped (click, "pressed", G_CALLBACK (click_pressed_cb), self);
      gtk_widget_add_controller (view, GTK_EVENT_CONTROLLER (click));
      _mshed_table_view_init_menu (self, view);
    }
}

/* Public API ------------------------------------------------------------------------------- */

GtkWidget *
mshed_table_view_new (MshedTableId table)
{
  g_return_val_if_fail (table >= 0 && table < MSHED_N_TABLES, NULL);

  return g_object_new (MSHED_TYPE_TABLE_VIEW, "table", table, NULL);
}

GtkWidget *
mshed_table_view_new_dfm (MshedDfmTable table,
                          guint         a,
                          guint         b)
{
  MshedTableView *self;

  g_return_val_if_fail (mshed_dfm_schema_get_table (table) != NULL, NULL);

  self = g_object_new (MSHED_TYPE_TABLE_VIEW, "table", MSHED_DFM_TABLE_ID (table), NULL);
  mshed_table_model_set_dfm_scope (self->model, a, b);
  return GTK_WIDGET (self);
}

void
mshed_table_view_set_dfm_scope (MshedTableView *self,
                                guint           a,
                                guint           b)
{
  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));

  mshed_table_model_set_dfm_scope (self->model, a, b);
  /* the marks are by row of the file shown: another group's file has others */
  self->diags_dirty = TRUE;
  _mshed_table_view_update_count (self);
}

/**
 * mshed_table_view_get_document:
 *
 * Returns: (transfer none) (nullable): the document shown
 */
MshedDocument *
mshed_table_view_get_document (MshedTableView *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), NULL);

  return self->document;
}

void
mshed_table_view_set_document (MshedTableView *self,
                               MshedDocument  *document)
{
  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (self->document == document)
    return;

  if (self->editor != NULL && mshed_cell_editor_is_open (self->editor))
    gtk_popover_popdown (GTK_POPOVER (self->editor));

  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  self->diags_dirty = TRUE;
  self->cur_row = G_MAXUINT;
  self->last_emitted_row = G_MAXUINT;
  g_clear_pointer (&self->highlight, gtk_bitset_unref);
  self->block_selection++;
  mshed_table_model_set_document (self->model, document);
  self->block_selection--;
  _mshed_table_view_update_count (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

MshedTableId
mshed_table_view_get_table (MshedTableView *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), MSHED_TABLE_NONE);

  return self->table;
}

void
_mshed_table_view_refresh_all_cells (MshedTableView *self)
{
  refresh_all_cells (self);
}

void
mshed_table_view_set_highlight (MshedTableView *self,
                                const guint    *rows,
                                guint           n_rows)
{
  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));
  g_return_if_fail (rows != NULL || n_rows == 0);

  g_clear_pointer (&self->highlight, gtk_bitset_unref);
  if (n_rows > 0)
    {
      self->highlight = gtk_bitset_new_empty ();
      for (guint i = 0; i < n_rows; i++)
        gtk_bitset_add (self->highlight, rows[i]);
    }
  refresh_all_cells (self);
}

void
mshed_table_view_start_search (MshedTableView *self)
{
  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

gboolean
mshed_table_view_get_selected_row (MshedTableView *self,
                                   guint          *row)
{
  g_autoptr(GtkBitset) selected = NULL;
  guint r;

  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), FALSE);

  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_is_empty (selected))
    return FALSE;
  if (self->cur_row != G_MAXUINT)
    {
      guint pos = _mshed_table_view_row_position (self, self->cur_row);

      if (pos != G_MAXUINT && gtk_bitset_contains (selected, pos))
        {
          if (row != NULL)
            *row = self->cur_row;
          return TRUE;
        }
    }
  r = _mshed_table_view_position_to_row (self, gtk_bitset_get_minimum (selected));
  if (r == G_MAXUINT)
    return FALSE;
  if (row != NULL)
    *row = r;
  return TRUE;
}

void
mshed_table_view_set_show_raw (MshedTableView *self,
                               gboolean        show_raw)
{
  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));

  show_raw = !!show_raw;
  if (self->show_raw == show_raw)
    return;
  self->show_raw = show_raw;
  gtk_toggle_button_set_active (self->raw_toggle, show_raw);
  update_raw_columns (self);
}

gboolean
mshed_table_view_get_show_raw (MshedTableView *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), FALSE);

  return self->show_raw;
}

void
mshed_table_view_set_filter_text (MshedTableView *self,
                                  const char     *text)
{
  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  /* apply now rather than after the entry's delay */
  _mshed_table_view_apply_filter_text (self, text);
}

/* Private API (tests) ------------------------------------------------------------------------ */

MshedTableModel *
_mshed_table_view_get_model (MshedTableView *self)
{
  return self->model;
}

MshedCellEditor *
_mshed_table_view_get_editor (MshedTableView *self)
{
  return self->editor;
}

GtkColumnView *
_mshed_table_view_get_column_view (MshedTableView *self)
{
  return self->column_view;
}

GtkColumnView *
_mshed_table_view_get_key_view (MshedTableView *self)
{
  return self->key_view;
}

GtkColumnViewColumn *
_mshed_table_view_get_view_column (MshedTableView *self,
                                   const char     *field)
{
  gint column;

  if (g_strcmp0 (field, "#") == 0)
    return self->index_column;
  column = mshed_table_model_find_column (self->model, field);
  return column >= 0 ? g_ptr_array_index (self->columns, column) : NULL;
}

GListModel *
_mshed_table_view_get_rows (MshedTableView *self)
{
  return G_LIST_MODEL (self->selection);
}

GtkWidget *
_mshed_table_view_find_cell (MshedTableView *self,
                             guint           row,
                             const char     *field)
{
  gint column = g_strcmp0 (field, "#") == 0 ? INDEX_COLUMN
                                           : mshed_table_model_find_column (self->model, field);

  if (column < 0 && g_strcmp0 (field, "#") != 0)
    return NULL;
  return _mshed_table_view_find_column_cell (self, row, column);
}

void
_mshed_table_view_set_current (MshedTableView *self,
                               guint           row,
                               const char     *field,
                               const char     *anchor_field)
{
  gint column = mshed_table_model_find_column (self->model, field);

  _mshed_table_view_set_current_cell (self, row, column, FALSE);
  if (anchor_field != NULL)
    {
      self->anchor_col = mshed_table_model_find_column (self->model, anchor_field);
      refresh_all_cells (self);
    }
}

gboolean
_mshed_table_view_follow_current (MshedTableView *self)
{
  guint row = _mshed_table_view_current_row (self);

  if (row == G_MAXUINT && !mshed_table_view_get_selected_row (self, &row))
    return FALSE;
  return follow_reference (self, row, _mshed_table_view_current_column (self));
}
