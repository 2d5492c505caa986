/* mshed-table-view-compare.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the compare window asks of a grid: changed cells marked with the CSS class "changed",
 * and its scrolling, so two grids scroll together.
 */
#include "config.h"

#include <string.h>

#include "mshed-table-view-private.h"

#define WHOLE_ROW 0xFFFF
#define ANY_CELL  0xFFFE

static gint64 *
cell_key (guint row,
          guint column)
{
  gint64 *key = g_new (gint64, 1);

  *key = ((gint64) row << 16) | (column & 0xFFFF);
  return key;
}

/* The model column showing @field ("name": the name column), -1 when none. */
static gint
field_column (MshedTableView *self,
              const char     *field)
{
  for (guint i = 0; self->columns != NULL && i < self->columns->len; i++)
    {
      const MshedTableColumn *c = _mshed_table_view_column (self, (gint) i);

      if (c == NULL)
        continue;
      if (c->field != NULL ? strcmp (c->field->name, field) == 0
                           : (strcmp (field, "name") == 0 &&
                              (c->kind == MSHED_COLUMN_NAME || c->kind == MSHED_COLUMN_ENTRY_NAME)))
        return (gint) i;
    }
  return -1;
}

void
mshed_table_view_set_changed (MshedTableView    *self,
                              const guint       *rows,
                              const char *const *fields,
                              guint              n)
{
  g_return_if_fail (MSHED_IS_TABLE_VIEW (self));
  g_return_if_fail (rows != NULL || n == 0);

  g_clear_pointer (&self->changed, g_hash_table_unref);
  if (n > 0)
    self->changed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    {
      gint column = fields && fields[i] ? field_column (self, fields[i]) : -1;

      g_hash_table_add (self->changed, cell_key (rows[i], column >= 0 ? (guint) column
                                                                      : WHOLE_ROW));
      g_hash_table_add (self->changed, cell_key (rows[i], ANY_CELL));
    }
  _mshed_table_view_refresh_all_cells (self);
}

gboolean
_mshed_table_view_cell_changed (MshedTableView *self,
                                guint           row,
                                gint            column)
{
  gint64 key;

  if (self->changed == NULL)
    return FALSE;
  key = ((gint64) row << 16) | (column == INDEX_COLUMN ? ANY_CELL : (guint) column);
  if (g_hash_table_contains (self->changed, &key))
    return TRUE;
  key = ((gint64) row << 16) | WHOLE_ROW;
  return g_hash_table_contains (self->changed, &key);
}

GtkAdjustment *
mshed_table_view_get_vadjustment (MshedTableView *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), NULL);

  return gtk_scrolled_window_get_vadjustment (self->scroller);
}

GtkAdjustment *
mshed_table_view_get_hadjustment (MshedTableView *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), NULL);

  return gtk_scrolled_window_get_hadjustment (self->scroller);
}
