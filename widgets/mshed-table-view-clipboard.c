/* mshed-table-view-clipboard.c
 *
 * Copying and pasting cell ranges of the table view as tab-separated text
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-table-view"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-error.h"
#include "mshed-table-model.h"
#include "mshed-table-view.h"
#include "mshed-table-view-private.h"

/* Copy and paste --------------------------------------------------------------------------- */

/* The selected positions in view order; the current row when nothing is selected. */
static GArray *
selected_positions (MshedTableView *self)
{
  GtkSelectionModel *model = GTK_SELECTION_MODEL (self->selection);
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (model);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkBitsetIter iter;
  guint pos;

  if (gtk_bitset_iter_init_first (&iter, selected, &pos))
    do
      g_array_append_val (out, pos);
    while (gtk_bitset_iter_next (&iter, &pos));

  if (out->len == 0 && self->cur_row != G_MAXUINT &&
      (pos = _mshed_table_view_row_position (self, self->cur_row)) != G_MAXUINT)
    g_array_append_val (out, pos);
  return out;
}

/* The shown columns from the anchor to the current column (all of them when none). */
static GArray *
range_columns (MshedTableView *self)
{
  GArray *shown = _mshed_table_view_shown_columns (self);
  GArray *out;
  gint lo = MIN (self->anchor_col, self->cur_col);
  gint hi = MAX (self->anchor_col, self->cur_col);

  if (self->cur_col < 0 || !_mshed_table_view_column_shown (self, self->cur_col))
    return shown;
  if (lo < 0)
    lo = hi;
  out = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < shown->len; i++)
    {
      gint c = (gint) g_array_index (shown, guint, i);

      if (c >= lo && c <= hi)
        g_array_append_val (out, c);
    }
  g_array_unref (shown);
  return out;
}

char *
mshed_table_view_copy_selection (MshedTableView *self)
{
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GArray) columns = NULL;
  GString *out;

  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), NULL);

  positions = selected_positions (self);
  columns = range_columns (self);
  out = g_string_new (NULL);
  for (guint i = 0; i < positions->len; i++)
    {
      guint row = _mshed_table_view_position_to_row (self, g_array_index (positions, guint, i));

      for (guint j = 0; j < columns->len; j++)
        {
          guint column = g_array_index (columns, guint, j);
          g_autofree char *text = mshed_table_model_dup_edit_text (self->model, row, column);

          if (j > 0)
            g_string_append_c (out, '\t');
          if (text != NULL)
            g_string_append (out, text);
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  guint  row;
  guint  column;
  char  *text;
} PasteCell;

static void
paste_cell_clear (gpointer data)
{
  g_free (((PasteCell *) data)->text);
}

static void
count_change_cb (guint *count)
{
  (*count)++;
}

gboolean
mshed_table_view_paste_text (MshedTableView *self,
                             const char     *text,
                             GError        **error)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (PasteCell));
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GArray) shown = NULL;
  g_auto(GStrv) raw_lines = NULL;
  guint n_positions, start_pos, start_ci = 0, changes = 0;
  gulong handler;
  gint start_col;

  g_return_val_if_fail (MSHED_IS_TABLE_VIEW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  g_array_set_clear_func (cells, paste_cell_clear);

  if (self->document == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND, _("No document is open"));
      return FALSE;
    }

  raw_lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; raw_lines[i] != NULL; i++)
    {
      gsize len = strlen (raw_lines[i]);

      if (len > 0 && raw_lines[i][len - 1] == '\r')
        raw_lines[i][len - 1] = '\0';
      if (raw_lines[i + 1] == NULL && raw_lines[i][0] == '\0')
        break;
      g_ptr_array_add (lines, g_strsplit (raw_lines[i], "\t", -1));
    }
  if (lines->len == 0)
    return TRUE;

  positions = selected_positions (self);
  n_positions = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  if (positions->len == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Select the cell to paste into first"));
      return FALSE;
    }
  start_pos = g_array_index (positions, guint, 0);
  if (self->cur_row != G_MAXUINT)
    {
      guint p = _mshed_table_view_row_position (self, self->cur_row);

      if (p != G_MAXUINT && (positions->len == 1 || p < start_pos))
        start_pos = MIN (p, start_pos) == p ? p : start_pos;
    }

  shown = _mshed_table_view_shown_columns (self);
  start_col = MIN (self->anchor_col, self->cur_col) >= 0 ? MIN (self->anchor_col, self->cur_col)
                                                         : _mshed_table_view_current_column (self);
  for (start_ci = 0; start_ci < shown->len; start_ci++)
    if ((gint) g_array_index (shown, guint, start_ci) == start_col)
      break;
  if (start_ci == shown->len)
    start_ci = 0;

  /* one value and several selected rows: fill them */
  if (lines->len == 1 && g_strv_length (g_ptr_array_index (lines, 0)) == 1 &&
      positions->len > 1)
    {
      const char *value = ((char **) g_ptr_array_index (lines, 0))[0];

      for (guint i = 0; i < positions->len; i++)
        {
          guint pos = g_array_index (positions, guint, i);
          PasteCell pc = { _mshed_table_view_position_to_row (self, pos),
                           g_array_index (shown, guint, start_ci), g_strdup (value) };

          g_array_append_val (cells, pc);
        }
    }
  else
    {
      for (guint i = 0; i < lines->len; i++)
        {
          char **values = g_ptr_array_index (lines, i);
          guint pos = start_pos + i;

          if (pos >= n_positions)
            {
              g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "The pasted text has %u row, more than the "
                                        "table has below the current row",
                                        "The pasted text has %u rows, more than the "
                                        "table has below the current row",
                                        lines->len),
                           lines->len);
              return FALSE;
            }
          for (guint j = 0; values[j] != NULL; j++)
            {
              PasteCell pc;

              if (start_ci + j >= shown->len)
                {
                  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                               _("Row %u of the pasted text has more values than there are "
                                 "columns from the current one"), i + 1);
                  return FALSE;
                }
              pc.row = _mshed_table_view_position_to_row (self, pos);
              pc.column = g_array_index (shown, guint, start_ci + j);
              pc.text = g_strdup (values[j]);
              g_array_append_val (cells, pc);
            }
        }
    }

  /* check everything first: a paste stores every value or none */
  for (guint i = 0; i < cells->len; i++)
    {
      PasteCell *pc = &g_array_index (cells, PasteCell, i);
      const MshedTableColumn *c = _mshed_table_view_column (self, (gint) pc->column);
      g_autoptr(GError) local = NULL;

      if (!c->editable)
        {
          g_autofree char *current = mshed_table_model_dup_edit_text (self->model, pc->row,
                                                                      pc->column);

          if (g_strcmp0 (current, pc->text) == 0)
            {
              g_clear_pointer (&pc->text, g_free);
              continue;
            }
        }
      if (!mshed_table_model_check_cell_text (self->model, pc->column, pc->text, &local))
        {
          /* TRANSLATORS: a refused paste: the row, then why, e.g. "Row 4: Field slot0: …" */
          g_set_error (error, local->domain, local->code, _("Row %u: %s"), pc->row,
                       local->message);
          return FALSE;
        }
    }

  handler = g_signal_connect_swapped (self->document, "changed", G_CALLBACK (count_change_cb),
                                      &changes);
  mshed_document_begin_group (self->document, _("Paste"));
  for (guint i = 0; i < cells->len; i++)
    {
      PasteCell *pc = &g_array_index (cells, PasteCell, i);
      g_autoptr(GError) local = NULL;

      if (pc->text == NULL)
        continue;
      if (!mshed_table_model_set_cell_text (self->model, pc->row, pc->column, pc->text, &local))
        {
          mshed_document_end_group (self->document);
          g_signal_handler_disconnect (self->document, handler);
          if (changes > 0)
            mshed_document_undo (self->document);
          g_set_error (error, local->domain, local->code, _("Row %u: %s"), pc->row,
                       local->message);
          return FALSE;
        }
    }
  mshed_document_end_group (self->document);
  g_signal_handler_disconnect (self->document, handler);
  return TRUE;
}

void
_mshed_table_view_copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MshedTableView *self = MSHED_TABLE_VIEW (widget);
  g_autofree char *text = mshed_table_view_copy_selection (self);

  if (text != NULL && *text != '\0')
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
paste_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(MshedTableView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);

  if (text == NULL)
    {
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _mshed_table_view_show_message (self, error->message);
      return;
    }
  if (!mshed_table_view_paste_text (self, text, &error))
    _mshed_table_view_show_message (self, error->message);
}

void
_mshed_table_view_paste_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, paste_ready_cb,
                                 g_object_ref (widget));
}
