/* mshed-table-view-search.c
 *
 * Sorting and filtering of the table view
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

/* MshedProbeSorter ------------------------------------------------------------------------
 *
 * GTK 4.8 keeps the column view's sort state private (GtkColumnViewSorter's getters arrive in
 * 4.10), and sorting through it compares items one pair at a time while holding every item
 * (600,000 row objects for Res6). So each column gets a probe sorter that answers a fixed
 * ordering; comparing two probe objects through the column view's sorter tells which column
 * sorts and in which direction, and the sort model gets a GtkNumericSorter with compact keys.
 */

#define MSHED_TYPE_PROBE_SORTER (mshed_probe_sorter_get_type ())
G_DECLARE_FINAL_TYPE (MshedProbeSorter, mshed_probe_sorter, MSHED, PROBE_SORTER, GtkSorter)

struct _MshedProbeSorter
{
  GtkSorter   parent_instance;
  GtkOrdering answer;
};

G_DEFINE_FINAL_TYPE (MshedProbeSorter, mshed_probe_sorter, GTK_TYPE_SORTER)

static GtkOrdering
mshed_probe_sorter_compare (GtkSorter *sorter,
                            gpointer   item1,
                            gpointer   item2)
{
  return MSHED_PROBE_SORTER (sorter)->answer;
}

static GtkSorterOrder
mshed_probe_sorter_get_order (GtkSorter *sorter)
{
  return GTK_SORTER_ORDER_TOTAL;
}

static void
mshed_probe_sorter_class_init (MshedProbeSorterClass *klass)
{
  GtkSorterClass *sorter_class = GTK_SORTER_CLASS (klass);

  sorter_class->compare = mshed_probe_sorter_compare;
  sorter_class->get_order = mshed_probe_sorter_get_order;
}

static void
mshed_probe_sorter_init (MshedProbeSorter *self)
{
  self->answer = GTK_ORDERING_EQUAL;
}

GtkSorter *
_mshed_table_view_probe_sorter_new (void)
{
  return g_object_new (MSHED_TYPE_PROBE_SORTER, NULL);
}

typedef struct {
  MshedTableModel *model;
  gboolean         by_row;
  guint            row;
  gint             column;     /* field=value: the column, else -1 */
  double           value;
  char            *needle;     /* casefolded text to find, or the text value */
  gboolean         numeric_needle;
  guint64          needle_number;
  GArray          *columns;    /* guint: the columns searched */
} Query;


/* Sorting ---------------------------------------------------------------------------------- */

typedef struct {
  MshedTableModel *model;
  gint             column;
  gboolean         descending;
} SortData;

static void
sort_data_free (gpointer data)
{
  SortData *sd = data;

  g_clear_object (&sd->model);
  g_free (sd);
}

static double
row_sort_value (MshedTableRow *row,
                SortData      *sd)
{
  double value;
  guint index;

  if (row == NULL)
    return G_MAXDOUBLE;
  index = mshed_table_row_get_index (row);
  if (sd->column == INDEX_COLUMN)
    return index;
  if (!mshed_table_model_get_cell_value (sd->model, index, (guint) sd->column, &value) ||
      isnan (value))
    return G_MAXDOUBLE;
  return value;
}

static int
text_compare (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  SortData *sd = user_data;
  guint ra = mshed_table_row_get_index ((MshedTableRow *) a);
  guint rb = mshed_table_row_get_index ((MshedTableRow *) b);
  g_autofree char *ta = mshed_table_model_dup_cell_text (sd->model, ra, (guint) sd->column, NULL);
  g_autofree char *tb = mshed_table_model_dup_cell_text (sd->model, rb, (guint) sd->column, NULL);
  int r = g_utf8_collate (ta ? ta : "", tb ? tb : "");

  r = r < 0 ? GTK_ORDERING_SMALLER : r > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
  return sd->descending ? -r : r;
}

/* Both column views sort (the key columns have their own headers); only one at a time. */
static GtkOrdering
probe (MshedTableView *self)
{
  GtkOrdering r = gtk_sorter_compare (gtk_column_view_get_sorter (self->key_view),
                                      self->probe_a, self->probe_b);

  if (r != GTK_ORDERING_EQUAL)
    return r;
  return gtk_sorter_compare (gtk_column_view_get_sorter (self->column_view), self->probe_a,
                             self->probe_b);
}

static void
set_probe_answers (MshedTableView *self,
                   GtkOrdering     answer)
{
  for (guint i = 0; i < self->probes->len; i++)
    MSHED_PROBE_SORTER (g_ptr_array_index (self->probes, i))->answer = answer;
}

/* Reads the column view's primary sort column: slot 0 is the row number, slot i + 1 column i. */
static gboolean
read_sort_state (MshedTableView *self,
                 guint          *slot,
                 gboolean       *descending)
{
  guint n = self->probes->len;
  g_autofree guint8 *state = g_new0 (guint8, n);
  guint active = 0, last = 0;

  for (guint i = 0; i < n; i++)
    {
      GtkOrdering r;

      set_probe_answers (self, GTK_ORDERING_EQUAL);
      MSHED_PROBE_SORTER (g_ptr_array_index (self->probes, i))->answer = GTK_ORDERING_SMALLER;
      r = probe (self);
      state[i] = r == GTK_ORDERING_EQUAL ? 0 : r == GTK_ORDERING_SMALLER ? 1 : 2;
      if (state[i])
        {
          active++;
          last = i;
        }
    }
  set_probe_answers (self, GTK_ORDERING_EQUAL);
  if (active == 0)
    return FALSE;

  if (active > 1)
    for (guint c = 0; c < n; c++)
      {
        if (!state[c])
          continue;
        for (guint i = 0; i < n; i++)
          {
            MshedProbeSorter *p = g_ptr_array_index (self->probes, i);

            if (!state[i])
              p->answer = GTK_ORDERING_EQUAL;
            else if (i == c)
              p->answer = state[i] == 1 ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
            else
              p->answer = state[i] == 1 ? GTK_ORDERING_LARGER : GTK_ORDERING_SMALLER;
          }
        if (probe (self) == GTK_ORDERING_SMALLER)
          {
            last = c;
            break;
          }
      }
  set_probe_answers (self, GTK_ORDERING_EQUAL);

  *slot = last;
  *descending = state[last] == 2;
  return TRUE;
}

void
_mshed_table_view_sorter_changed_cb (MshedTableView *self,
                                     GtkSorterChange change,
                                     GtkSorter      *changed)
{
  g_autoptr(GtkSorter) sorter = NULL;
  const MshedTableColumn *c;
  SortData *sd;
  gboolean descending;
  guint slot;

  if (self->column_view == NULL || self->key_view == NULL || self->model == NULL)  /* disposing */
    return;
  /* a header clicked in one view ends the sort of the other */
  if (changed != NULL && gtk_sorter_get_order (changed) != GTK_SORTER_ORDER_NONE)
    {
      GtkColumnView *other = changed == gtk_column_view_get_sorter (self->key_view)
                               ? self->column_view : self->key_view;

      if (gtk_sorter_get_order (gtk_column_view_get_sorter (other)) != GTK_SORTER_ORDER_NONE)
        gtk_column_view_sort_by_column (other, NULL, GTK_SORT_ASCENDING);
    }
  if (!read_sort_state (self, &slot, &descending))
    {
      gtk_sort_list_model_set_sorter (self->sort_model, NULL);
      return;
    }

  sd = g_new0 (SortData, 1);
  sd->model = g_object_ref (self->model);
  sd->column = (gint) slot - 1;
  sd->descending = descending;
  c = _mshed_table_view_column (self, sd->column);

  if (sd->column == INDEX_COLUMN && !descending)
    {
      sort_data_free (sd);
      gtk_sort_list_model_set_sorter (self->sort_model, NULL);
      return;
    }

  if (c != NULL && !c->numeric && c->kind != MSHED_COLUMN_NAME_LENGTH)
    {
      /* text columns (names): small tables, a plain comparison is fine */
      sorter = GTK_SORTER (gtk_custom_sorter_new (text_compare, sd, sort_data_free));
    }
  else
    {
      GClosureNotify notify = (GClosureNotify) (void (*) (void)) sort_data_free;
      GtkExpression *expr = gtk_cclosure_expression_new (G_TYPE_DOUBLE, NULL, 0, NULL,
                                                         G_CALLBACK (row_sort_value), sd,
                                                         notify);

      sorter = GTK_SORTER (gtk_numeric_sorter_new (expr));
      gtk_numeric_sorter_set_sort_order (GTK_NUMERIC_SORTER (sorter),
                                         descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
    }

  gtk_sort_list_model_set_incremental (self->sort_model,
                                       g_list_model_get_n_items (G_LIST_MODEL (self->model)) >
                                       INCREMENTAL_ROWS);
  gtk_sort_list_model_set_sorter (self->sort_model, sorter);
}

/* Filtering -------------------------------------------------------------------------------- */

static void
query_free (gpointer data)
{
  Query *q = data;

  g_clear_object (&q->model);
  g_free (q->needle);
  g_clear_pointer (&q->columns, g_array_unref);
  g_free (q);
}

static gboolean
query_match (gpointer item,
             gpointer user_data)
{
  Query *q = user_data;
  guint row = mshed_table_row_get_index (item);

  if (q->by_row)
    return row == q->row;

  if (q->column >= 0)
    {
      const MshedTableColumn *c = mshed_table_model_get_column (q->model, (guint) q->column);
      double value;

      if (c->numeric)
        {
          if (!mshed_table_model_get_cell_value (q->model, row, (guint) q->column, &value))
            return FALSE;
          if (c->kind == MSHED_COLUMN_DECODED)
            return fabs (value - q->value) * c->field->divisor < 0.5;
          return value == q->value;
        }
      else
        {
          g_autofree char *text = mshed_table_model_dup_cell_text (q->model, row,
                                                                   (guint) q->column, NULL);
          g_autofree char *folded = text ? g_utf8_casefold (text, -1) : NULL;

          return g_strcmp0 (folded, q->needle) == 0;
        }
    }

  if (q->numeric_needle && row == q->needle_number)
    return TRUE;
  for (guint i = 0; i < q->columns->len; i++)
    {
      guint column = g_array_index (q->columns, guint, i);
      g_autofree char *text = mshed_table_model_dup_cell_text (q->model, row, column, NULL);
      g_autofree char *folded = NULL;

      if (text == NULL)
        continue;
      folded = g_utf8_casefold (text, -1);
      if (strstr (folded, q->needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

static Query *
parse_query (MshedTableView *self,
             const char     *text)
{
  Query *q = g_new0 (Query, 1);
  const char *eq;

  q->model = g_object_ref (self->model);
  q->column = -1;

  if (text[0] == '#')
    {
      char *end = NULL;
      guint64 v = g_ascii_strtoull (text + 1, &end, 10);

      if (end != text + 1 && *end == '\0' && v <= G_MAXUINT)
        {
          q->by_row = TRUE;
          q->row = (guint) v;
          return q;
        }
    }

  if ((eq = strchr (text, '=')) != NULL)
    {
      g_autofree char *name = g_strstrip (g_strndup (text, eq - text));
      g_autofree char *value = g_strstrip (g_strdup (eq + 1));
      gint column = mshed_table_model_find_column (self->model, name);
      guint n = mshed_table_model_get_n_columns (self->model);

      /* the column's name, or what it shows ("L1 G2=5" for slot7) */
      for (guint i = 0; column < 0 && i < n; i++)
        {
          const MshedTableColumn *c = mshed_table_model_get_column (self->model, i);

          if (g_utf8_collate (c->label, name) == 0 ||
              (c->gloss != NULL && g_utf8_collate (c->gloss, name) == 0))
            column = (gint) i;
        }

      if (column >= 0)
        {
          const MshedTableColumn *c = mshed_table_model_get_column (self->model, (guint) column);
          char *end = NULL;

          q->column = column;
          if (!c->numeric)
            {
              q->needle = g_utf8_casefold (value, -1);
              return q;
            }
          if (c->kind == MSHED_COLUMN_FIELD &&
              mshed_field_parse (c->field, g_utf8_collate (value, C_("sentinel", "none")) == 0
                                             ? "none" : value, &q->value, NULL))
            return q;
          q->value = g_ascii_strtod (value, &end);
          if (*value != '\0' && end != NULL && *end == '\0')
            return q;
          /* not a value of that column: nothing matches */
          q->by_row = TRUE;
          q->row = G_MAXUINT;
          return q;
        }
    }

  q->needle = g_utf8_casefold (text, -1);
  {
    char *end = NULL;
    guint64 v = g_ascii_strtoull (text, &end, 10);

    q->numeric_needle = g_ascii_isdigit (text[0]) && end != NULL && *end == '\0';
    q->needle_number = v;
  }
  q->columns = _mshed_table_view_shown_columns (self);
  return q;
}

void
_mshed_table_view_update_count (MshedTableView *self)
{
  guint total = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  g_autofree char *text = NULL;

  if (gtk_filter_list_model_get_filter (self->filter_model) == NULL)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row", "%u rows", total), total);
  else
    /* TRANSLATORS: rows that pass the filter, of all rows */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u row", "%u of %u rows",
                                         total), shown, total);
  gtk_label_set_text (self->count_label, text);
}

void
_mshed_table_view_apply_filter_text (MshedTableView *self,
                   const char     *text)
{
  g_autofree char *s = g_strstrip (g_strdup (text ? text : ""));

  if (*s == '\0')
    {
      gtk_filter_list_model_set_filter (self->filter_model, NULL);
    }
  else
    {
      gtk_custom_filter_set_filter_func (self->filter, query_match, parse_query (self, s),
                                         query_free);
      gtk_filter_list_model_set_incremental (self->filter_model,
                                             g_list_model_get_n_items (G_LIST_MODEL (self->model)) >
                                             INCREMENTAL_ROWS / 4);
      if (gtk_filter_list_model_get_filter (self->filter_model) == NULL)
        gtk_filter_list_model_set_filter (self->filter_model, GTK_FILTER (self->filter));
    }
  _mshed_table_view_update_count (self);
}

void
_mshed_table_view_search_changed_cb (MshedTableView *self,
                   GtkSearchEntry *entry)
{
  _mshed_table_view_apply_filter_text (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

void
_mshed_table_view_search_activate_cb (MshedTableView *self,
                    GtkSearchEntry *entry)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->selection)) == 0)
    {
      gtk_widget_error_bell (GTK_WIDGET (entry));
      return;
    }
  self->block_selection++;
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), 0, TRUE);
  self->block_selection--;
  self->last_emitted_row = G_MAXUINT;
  _mshed_table_view_selection_changed_cb (self, 0, 1);
  _mshed_table_view_scroll_to (self, 0, TRUE);
}

void
_mshed_table_view_search_stop_cb (MshedTableView *self,
                GtkSearchEntry *entry)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (entry)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (entry), "");
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

