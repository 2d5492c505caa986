/* mshed-unknown-table.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The values are read once per table into one guint32 array per column; row items are tiny
 * objects holding a record number, and the cells are GtkInscriptions (PLATFORM.md: no
 * GtkEditableLabel in lists on GTK 4.8).
 */
#define G_LOG_DOMAIN "mshed-unknown-table"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-model.h"
#include "mshed-schema.h"
#include "mshed-unknown-table.h"

/* Row items -------------------------------------------------------------------------------- */

#define MSHED_TYPE_UNKNOWN_ROW (mshed_unknown_row_get_type ())
G_DECLARE_FINAL_TYPE (MshedUnknownRow, mshed_unknown_row, MSHED, UNKNOWN_ROW, GObject)

struct _MshedUnknownRow {
  GObject parent_instance;
  guint   row;
};

G_DEFINE_FINAL_TYPE (MshedUnknownRow, mshed_unknown_row, G_TYPE_OBJECT)

static void
mshed_unknown_row_class_init (MshedUnknownRowClass *klass)
{
}

static void
mshed_unknown_row_init (MshedUnknownRow *self)
{
}

static MshedUnknownRow *
unknown_row_new (guint row)
{
  MshedUnknownRow *self = g_object_new (MSHED_TYPE_UNKNOWN_ROW, NULL);

  self->row = row;
  return self;
}

/* Columns ---------------------------------------------------------------------------------- */

typedef enum {
  COL_HEX,
  COL_DEC,
  COL_BITS,
  COL_F32,
} ColKind;

typedef struct {
  char               *name;
  const MshedField   *field;
  ColKind             kind;
  guint               shift;
  guint               n_bits;
  gboolean            is_signed;
  guint32            *values;
  MshedUnknownSummary summary;
} Column;

static void
column_free (Column *col)
{
  g_free (col->name);
  g_free (col->values);
  g_free (col);
}

/* The 24-byte legacy node records have no known layout: twelve unknown words. */
#define W(n, off) { n, off, MSHED_FIELD_U16, MSHED_FIELD_FLAG_UNKNOWN | MSHED_FIELD_FLAG_HEX, \
                    MSHED_TABLE_NONE, 0, NULL }
static const MshedField legacy_fields[] = {
  W ("w0", 0), W ("w1", 2), W ("w2", 4), W ("w3", 6), W ("w4", 8), W ("w5", 10),
  W ("w6", 12), W ("w7", 14), W ("w8", 16), W ("w9", 18), W ("w10", 20), W ("w11", 22),
};
#undef W

static const MshedTableId offered_tables[] = {
  MSHED_TABLE_NODES, MSHED_TABLE_SLOTS, MSHED_TABLE_NORMALS, MSHED_TABLE_TRIS,
  MSHED_TABLE_BATCHES, MSHED_TABLE_EXTRA15, MSHED_TABLE_EXTRA16, MSHED_TABLE_EXTRA18,
};

struct _MshedUnknownTable {
  GtkWidget         parent_instance;

  GtkWidget        *table_dropdown;
  GtkWidget        *count_label;
  GtkWidget        *summary_scroller;
  GtkWidget        *summary_grid;
  GtkWidget        *column_view;

  MshedDocument    *document;
  GSignalGroup     *document_signals;
  MshedTableId      table;
  GListStore       *store;        /* MshedUnknownRow */
  GtkSortListModel *sorted;
  GPtrArray        *columns;      /* Column* */
  GPtrArray        *view_columns; /* GtkColumnViewColumn*, [0] = record number */
  guint             n_rows;
  gboolean          syncing;
};

enum {
  RECORD_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (MshedUnknownTable, mshed_unknown_table, GTK_TYPE_WIDGET)

static double
column_number (const Column *col,
               guint32       v)
{
  switch (col->kind)
    {
    case COL_F32:
      {
        float f;

        memcpy (&f, &v, sizeof f);
        return f;
      }
    case COL_DEC:
      if (col->is_signed && col->n_bits < 32 && (v >> (col->n_bits - 1)) & 1)
        return (double) (gint64) v - (double) (G_GUINT64_CONSTANT (1) << col->n_bits);
      return col->is_signed ? (double) (gint32) v : (double) v;
    case COL_HEX:
    case COL_BITS:
    default:
      return v;
    }
}

static char *
column_format (const Column *col,
               guint32       v)
{
  switch (col->kind)
    {
    case COL_F32:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.7g", column_number (col, v)));
      }
    case COL_DEC:
      return g_strdup_printf ("%.0f", column_number (col, v));
    case COL_BITS:
      {
        GString *s = g_string_sized_new (col->n_bits + col->n_bits / 4);

        for (gint bit = (gint) col->n_bits - 1; bit >= 0; bit--)
          {
            g_string_append_c (s, (v >> bit) & 1 ? '1' : '0');
            if (bit > 0 && bit % 4 == 0)
              g_string_append_c (s, ' ');
          }
        return g_string_free (s, FALSE);
      }
    case COL_HEX:
    default:
      return g_strdup_printf ("0x%0*X", (int) ((col->n_bits + 3) / 4), v);
    }
}

static void
add_column (MshedUnknownTable *self,
            const MshedField  *field,
            ColKind            kind,
            guint              shift,
            guint              n_bits,
            const char        *name)
{
  Column *col = g_new0 (Column, 1);

  col->name = g_strdup (name);
  col->field = field;
  col->kind = kind;
  col->shift = shift;
  col->n_bits = n_bits;
  col->is_signed = field->type == MSHED_FIELD_I8 || field->type == MSHED_FIELD_I16 ||
                   field->type == MSHED_FIELD_I32;
  g_ptr_array_add (self->columns, col);
}

static void
add_field_columns (MshedUnknownTable *self,
                   const MshedField  *f)
{
  guint bits = mshed_field_type_size (f->type) * 8;
  g_autofree char *as_bits = g_strdup_printf (_("%s bits"), f->name);

  if (f->type == MSHED_FIELD_I8 || f->type == MSHED_FIELD_I16)
    add_column (self, f, COL_DEC, 0, bits, f->name);
  else
    add_column (self, f, COL_HEX, 0, bits, f->name);
  if (bits <= 16)
    add_column (self, f, COL_BITS, 0, bits, as_bits);
  else
    {
      /* translators: an unknown 32-bit word read as a float, e.g. "unk30 as f32" */
      g_autofree char *as_f32 = g_strdup_printf (_("%s as f32"), f->name);

      add_column (self, f, COL_F32, 0, bits, as_f32);
    }
}

/* Reading ----------------------------------------------------------------------------------- */

static const guint8 *
table_bytes (MshedUnknownTable     *self,
             const MshedTableInfo **info,
             guint                 *stride,
             guint                 *n_rows)
{
  MshedModel *model;
  const MshedNresEntry *e;
  const guint8 *data;
  gsize size = 0;

  *n_rows = 0;
  *info = mshed_schema_get_table (self->table);
  *stride = (*info)->stride;
  if (self->document == NULL)
    return NULL;
  model = mshed_document_get_model (self->document);
  e = mshed_model_get_resource (model, (*info)->res_type);
  if (e == NULL)
    return NULL;
  if (self->table == MSHED_TABLE_NODES)
    *stride = mshed_model_get_node_stride (model);
  data = mshed_nres_entry_get_data (e, &size);
  if (*stride == 0 || size < (*info)->header_size)
    return NULL;
  *n_rows = (guint) MIN ((size - (*info)->header_size) / *stride, (gsize) G_MAXUINT);
  return data + (*info)->header_size;
}

static guint32
read_value (const Column *col,
            const guint8 *record)
{
  const guint8 *p = record + col->field->offset;
  guint32 raw;
  guint32 mask = col->n_bits >= 32 ? G_MAXUINT32 : ((1u << col->n_bits) - 1);

  switch (mshed_field_type_size (col->field->type))
    {
    case 1:
      raw = p[0];
      break;
    case 2:
      raw = mshed_read_u16 (p);
      break;
    default:
      raw = mshed_read_u32 (p);
      break;
    }
  return (raw >> col->shift) & mask;
}

static void
compute_summary (Column *col,
                 guint   n_rows)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
  MshedUnknownSummary *s = &col->summary;
  gboolean have_minmax = FALSE;

  memset (s, 0, sizeof *s);
  s->n_values = n_rows;
  for (guint i = 0; i < n_rows; i++)
    {
      guint32 v = col->values[i];
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GUINT_TO_POINTER (v))) + 1;
      double d = column_number (col, v);

      g_hash_table_insert (counts, GUINT_TO_POINTER (v), GUINT_TO_POINTER (count));
      if (count > s->most_common_count || (count == s->most_common_count && v < s->most_common))
        {
          s->most_common = v;
          s->most_common_count = count;
        }
      if (!isfinite (d))
        continue;
      s->n_finite++;
      if (!have_minmax || d < s->min)
        s->min = d;
      if (!have_minmax || d > s->max)
        s->max = d;
      have_minmax = TRUE;
    }
  s->n_distinct = g_hash_table_size (counts);
  s->constant = s->n_distinct == 1;
}

static void
load_values (MshedUnknownTable *self,
             guint              first,
             guint              n)
{
  const MshedTableInfo *info;
  guint stride, n_rows;
  const guint8 *data = table_bytes (self, &info, &stride, &n_rows);

  for (guint c = 0; c < self->columns->len; c++)
    {
      Column *col = g_ptr_array_index (self->columns, c);

      for (guint r = first; r < first + n && r < n_rows && r < self->n_rows; r++)
        if (col->field->offset + mshed_field_type_size (col->field->type) <= stride)
          col->values[r] = read_value (col, data + (gsize) r * stride);
      compute_summary (col, self->n_rows);
    }
}

#define RANGE_TEXT 64

/* The minimum and maximum as shown: none without values, a dash when no value is a finite
 * number (every value NaN or infinite: there is no range to show, not a range of 0). */
static void
format_range (const Column *col,
              char          min_text[RANGE_TEXT],
              char          max_text[RANGE_TEXT])
{
  const MshedUnknownSummary *s = &col->summary;

  if (s->n_values == 0 || s->n_finite == 0)
    {
      g_strlcpy (min_text, "—", RANGE_TEXT);
      g_strlcpy (max_text, "—", RANGE_TEXT);
    }
  else if (col->kind == COL_HEX || col->kind == COL_BITS)
    {
      int digits = (int) ((col->n_bits + 3) / 4);

      g_snprintf (min_text, RANGE_TEXT, "0x%0*X", digits, (guint32) s->min);
      g_snprintf (max_text, RANGE_TEXT, "0x%0*X", digits, (guint32) s->max);
    }
  else
    {
      g_ascii_formatd (min_text, RANGE_TEXT, "%.7g", s->min);
      g_ascii_formatd (max_text, RANGE_TEXT, "%.7g", s->max);
    }
}

/* The column view --------------------------------------------------------------------------- */

typedef struct {
  MshedUnknownTable *self;   /* not a reference: factories die with the column view */
  gint               column; /* -1: the record number */
} CellData;

static char *
cell_text (MshedUnknownTable *self,
           gint               column,
           guint              row)
{
  const Column *col;

  if (column < 0)
    return g_strdup_printf ("%u", row);
  if ((guint) column >= self->columns->len || row >= self->n_rows)
    return g_strdup ("");
  col = g_ptr_array_index (self->columns, column);
  return column_format (col, col->values[row]);
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               CellData                 *data)
{
  GtkWidget *label = gtk_inscription_new (NULL);

  guint chars = 6;

  if (data->column >= 0 && (guint) data->column < data->self->columns->len)
    {
      const Column *col = g_ptr_array_index (data->self->columns, data->column);

      switch (col->kind)
        {
        case COL_HEX:
          chars = 2 + (col->n_bits + 3) / 4;
          break;
        case COL_BITS:
          chars = col->n_bits + (col->n_bits - 1) / 4;
          break;
        case COL_F32:
          chars = 13;
          break;
        case COL_DEC:
        default:
          chars = 6;
          break;
        }
    }
  gtk_widget_add_css_class (label, "monospace");
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (label), chars);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), chars);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (label), data->column < 0 ? 1.0f : 0.0f);
  gtk_list_item_set_child (item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              CellData                 *data)
{
  MshedUnknownRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = cell_text (data->self, data->column, row->row);

  gtk_inscription_set_text (GTK_INSCRIPTION (gtk_list_item_get_child (item)), text);
}

static int
compare_cb (gconstpointer a,
            gconstpointer b,
            gpointer      user_data)
{
  const CellData *data = user_data;
  guint ra = ((const MshedUnknownRow *) a)->row;
  guint rb = ((const MshedUnknownRow *) b)->row;
  const Column *col;
  double da, db;

  if (data->column < 0 || (guint) data->column >= data->self->columns->len ||
      ra >= data->self->n_rows || rb >= data->self->n_rows)
    return ra < rb ? GTK_ORDERING_SMALLER : ra > rb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
  col = g_ptr_array_index (data->self->columns, data->column);
  da = column_number (col, col->values[ra]);
  db = column_number (col, col->values[rb]);
  if (isnan (da) || isnan (db))
    {
      if (isnan (da) && isnan (db))
        return ra < rb ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
      return isnan (da) ? GTK_ORDERING_LARGER : GTK_ORDERING_SMALLER;
    }
  if (da != db)
    return da < db ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  /* stable: equal values keep record order */
  return ra < rb ? GTK_ORDERING_SMALLER : ra > rb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static GtkColumnViewColumn *
make_view_column (MshedUnknownTable *self,
                  const char        *title,
                  gint               column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *vc;
  CellData *data = g_new0 (CellData, 1);
  CellData *sort_data = g_new0 (CellData, 1);
  g_autoptr(GtkSorter) sorter = NULL;

  data->self = self;
  data->column = column;
  *sort_data = *data;
  g_signal_connect_data (factory, "setup", G_CALLBACK (cell_setup_cb), data,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), data);
  vc = gtk_column_view_column_new (title, factory);
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_cb, sort_data, g_free));
  gtk_column_view_column_set_sorter (vc, sorter);
  gtk_column_view_column_set_resizable (vc, TRUE);
  return vc;
}

static void
clear_view_columns (MshedUnknownTable *self)
{
  for (guint i = 0; i < self->view_columns->len; i++)
    gtk_column_view_remove_column (GTK_COLUMN_VIEW (self->column_view),
                                   g_ptr_array_index (self->view_columns, i));
  g_ptr_array_set_size (self->view_columns, 0);
}

static void
rebuild_summary (MshedUnknownTable *self)
{
  static const char *headers[] = {
    N_("Column"), N_("Distinct"), N_("Min"), N_("Max"), N_("Constant"), N_("Most common"),
  };
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->summary_grid)) != NULL)
    gtk_grid_remove (GTK_GRID (self->summary_grid), child);
  if (self->columns->len == 0)
    {
      gtk_widget_set_visible (self->summary_scroller, FALSE);
      return;
    }
  gtk_widget_set_visible (self->summary_scroller, TRUE);
  for (guint h = 0; h < G_N_ELEMENTS (headers); h++)
    {
      GtkWidget *label = gtk_label_new (_(headers[h]));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "heading");
      gtk_grid_attach (GTK_GRID (self->summary_grid), label, (int) h, 0, 1, 1);
    }
  for (guint c = 0; c < self->columns->len; c++)
    {
      const Column *col = g_ptr_array_index (self->columns, c);
      const MshedUnknownSummary *s = &col->summary;
      char distinct[32], min_text[RANGE_TEXT], max_text[RANGE_TEXT];
      g_autofree char *common = NULL;
      g_autofree char *common_text = NULL;
      const char *cells[6];

      g_snprintf (distinct, sizeof distinct, "%u", s->n_distinct);
      format_range (col, min_text, max_text);
      if (s->n_values > 0)
        {
          common = column_format (col, s->most_common);
          /* translators: a value and how many records have it, e.g. "0x0000 (37×)" */
          common_text = g_strdup_printf (_("%s (%u×)"), common, s->most_common_count);
        }
      cells[0] = col->name;
      cells[1] = distinct;
      cells[2] = min_text;
      cells[3] = max_text;
      cells[4] = s->n_values == 0 ? "—" : s->constant ? _("yes") : _("no");
      cells[5] = common_text ? common_text : "—";
      for (guint k = 0; k < G_N_ELEMENTS (cells); k++)
        {
          GtkWidget *label = gtk_label_new (cells[k]);

          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_label_set_selectable (GTK_LABEL (label), k > 0);
          if (k > 0)
            gtk_widget_add_css_class (label, "monospace");
          if (k == 4 && s->constant)
            gtk_widget_add_css_class (label, "constant");
          gtk_grid_attach (GTK_GRID (self->summary_grid), label, (int) k, (int) c + 1, 1, 1);
        }
    }
}

static void
update_count (MshedUnknownTable *self)
{
  g_autofree char *text = NULL;

  if (self->document == NULL)
    text = g_strdup (_("No document"));
  else if (self->columns->len == 0)
    text = g_strdup (_("This table has no unknown fields"));
  else
    text = g_strdup_printf (g_dngettext (NULL, "%u record, %u unknown column",
                                         "%u records, %u unknown columns", self->n_rows),
                            self->n_rows, self->columns->len);
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
}

/* Rebuilds columns, values, summary and items for the current table. */
static void
rebuild (MshedUnknownTable *self)
{
  const MshedTableInfo *info;
  guint stride = 0, n_rows = 0;
  g_autoptr(GPtrArray) items = NULL;

  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), NULL,
                                  GTK_SORT_ASCENDING);
  clear_view_columns (self);
  g_ptr_array_set_size (self->columns, 0);

  table_bytes (self, &info, &stride, &n_rows);
  self->n_rows = self->document ? n_rows : 0;
  if (self->table == MSHED_TABLE_NODES && stride != 38 && stride != 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (legacy_fields) && legacy_fields[i].offset < stride; i++)
        add_column (self, &legacy_fields[i], COL_HEX, 0, 16, legacy_fields[i].name);
    }
  else
    for (guint i = 0; i < info->n_fields; i++)
      {
        const MshedField *f = &info->fields[i];

        if (f->flags & MSHED_FIELD_FLAG_UNKNOWN)
          add_field_columns (self, f);
        else if (self->table == MSHED_TABLE_TRIS && g_strcmp0 (f->name, "selPacked") == 0)
          {
            /* bits 6–15 of selPacked are unknown (docs/msh.md §4.7) */
            add_column (self, f, COL_HEX, 6, 10, _("selPacked bits 6–15"));
            add_column (self, f, COL_BITS, 6, 10, _("selPacked bits 6–15 (binary)"));
          }
      }
  for (guint c = 0; c < self->columns->len; c++)
    {
      Column *col = g_ptr_array_index (self->columns, c);

      col->values = g_new0 (guint32, MAX (self->n_rows, 1));
    }
  load_values (self, 0, self->n_rows);

  /* the column view */
  {
    GtkColumnViewColumn *vc = make_view_column (self, "#", -1);

    g_ptr_array_add (self->view_columns, vc);
    gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), vc);
  }
  for (guint c = 0; c < self->columns->len; c++)
    {
      const Column *col = g_ptr_array_index (self->columns, c);
      GtkColumnViewColumn *vc = make_view_column (self, col->name, (gint) c);

      g_ptr_array_add (self->view_columns, vc);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), vc);
    }

  items = g_ptr_array_new_full (self->n_rows, g_object_unref);
  for (guint r = 0; r < self->n_rows; r++)
    g_ptr_array_add (items, unknown_row_new (r));
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
  rebuild_summary (self);
  update_count (self);
}

static void
document_changed_cb (MshedUnknownTable *self,
                     const MshedChange *change,
                     MshedDocument     *document)
{
  g_autoptr(GPtrArray) items = NULL;

  if (change->flags & (MSHED_CHANGE_FLAG_ALL | MSHED_CHANGE_FLAG_LAYOUT |
                       MSHED_CHANGE_FLAG_DIRECTORY) ||
      change->origin == MSHED_CHANGE_ORIGIN_RELOAD ||
      (change->table == self->table && change->n_removed != change->n_added))
    {
      rebuild (self);
      return;
    }
  if (change->table != self->table || self->columns->len == 0)
    return;
  /* records changed in place: reread them, rebind their rows */
  load_values (self, change->first_row, change->n_added);
  if (change->first_row < self->n_rows)
    {
      guint n = MIN (change->n_added, self->n_rows - change->first_row);

      items = g_ptr_array_new_full (n, g_object_unref);
      for (guint r = 0; r < n; r++)
        g_ptr_array_add (items, unknown_row_new (change->first_row + r));
      g_list_store_splice (self->store, change->first_row, n, items->pdata, n);
    }
  rebuild_summary (self);
}

static void
table_selected_cb (MshedUnknownTable *self)
{
  guint i = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->table_dropdown));

  if (self->syncing || i >= G_N_ELEMENTS (offered_tables))
    return;
  mshed_unknown_table_set_table (self, offered_tables[i]);
}

static void
row_activate_cb (MshedUnknownTable *self,
                 guint              position)
{
  GtkSelectionModel *model = gtk_column_view_get_model (GTK_COLUMN_VIEW (self->column_view));
  g_autoptr(MshedUnknownRow) row = g_list_model_get_item (G_LIST_MODEL (model), position);

  if (row != NULL)
    g_signal_emit (self, signals[RECORD_ACTIVATED], 0, row->row);
}

/* GObject ------------------------------------------------------------------------------- */

static void
mshed_unknown_table_dispose (GObject *object)
{
  MshedUnknownTable *self = MSHED_UNKNOWN_TABLE (object);
  GtkWidget *child;

  if (self->document_signals != NULL)
    mshed_unknown_table_set_document (self, NULL);
  g_clear_object (&self->document_signals);
  if (self->column_view != NULL)
    {
      gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), NULL);
      clear_view_columns (self);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_UNKNOWN_TABLE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (mshed_unknown_table_parent_class)->dispose (object);
}

static void
mshed_unknown_table_finalize (GObject *object)
{
  MshedUnknownTable *self = MSHED_UNKNOWN_TABLE (object);

  g_clear_pointer (&self->columns, g_ptr_array_unref);
  g_clear_pointer (&self->view_columns, g_ptr_array_unref);

  G_OBJECT_CLASS (mshed_unknown_table_parent_class)->finalize (object);
}

static void
mshed_unknown_table_class_init (MshedUnknownTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_unknown_table_dispose;
  object_class->finalize = mshed_unknown_table_finalize;

  signals[RECORD_ACTIVATED] =
    g_signal_new ("record-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-unknown-table.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedUnknownTable, table_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MshedUnknownTable, count_label);
  gtk_widget_class_bind_template_child (widget_class, MshedUnknownTable, summary_scroller);
  gtk_widget_class_bind_template_child (widget_class, MshedUnknownTable, summary_grid);
  gtk_widget_class_bind_template_child (widget_class, MshedUnknownTable, column_view);
  gtk_widget_class_bind_template_callback (widget_class, row_activate_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "unknowntable");
}

static void
mshed_unknown_table_init (MshedUnknownTable *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  GtkSorter *sorter;
  GtkSingleSelection *selection;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed",
                                  G_CALLBACK (document_changed_cb), self);
  self->table = MSHED_TABLE_SLOTS;
  self->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);
  self->view_columns = g_ptr_array_new_with_free_func (g_object_unref);  /* owns the columns */
  self->store = g_list_store_new (MSHED_TYPE_UNKNOWN_ROW);

  sorter = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->store)),
                                          g_object_ref (sorter));
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view),
                             GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  for (guint i = 0; i < G_N_ELEMENTS (offered_tables); i++)
    gtk_string_list_append (names, _(mshed_schema_get_table (offered_tables[i])->title));
  self->syncing = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->table_dropdown), G_LIST_MODEL (names));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->table_dropdown), 1);
  self->syncing = FALSE;
  g_signal_connect_object (self->table_dropdown, "notify::selected",
                           G_CALLBACK (table_selected_cb), self, G_CONNECT_SWAPPED);
  rebuild (self);
}

/* Public API ------------------------------------------------------------------------------ */

GtkWidget *
mshed_unknown_table_new (void)
{
  return g_object_new (MSHED_TYPE_UNKNOWN_TABLE, NULL);
}

void
mshed_unknown_table_set_document (MshedUnknownTable *self,
                                  MshedDocument     *document)
{
  g_return_if_fail (MSHED_IS_UNKNOWN_TABLE (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  if (self->store != NULL && !gtk_widget_in_destruction (GTK_WIDGET (self)))
    rebuild (self);
}

MshedDocument *
mshed_unknown_table_get_document (MshedUnknownTable *self)
{
  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), NULL);
  return self->document;
}

gboolean
mshed_unknown_table_has_unknowns (MshedTableId table)
{
  for (guint i = 0; i < G_N_ELEMENTS (offered_tables); i++)
    if (offered_tables[i] == table)
      return TRUE;
  return FALSE;
}

gboolean
mshed_unknown_table_set_table (MshedUnknownTable *self,
                               MshedTableId       table)
{
  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (offered_tables); i++)
    if (offered_tables[i] == table)
      {
        self->table = table;
        self->syncing = TRUE;
        gtk_drop_down_set_selected (GTK_DROP_DOWN (self->table_dropdown), i);
        self->syncing = FALSE;
        rebuild (self);
        return TRUE;
      }
  return FALSE;
}

MshedTableId
mshed_unknown_table_get_table (MshedUnknownTable *self)
{
  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), MSHED_TABLE_NONE);
  return self->table;
}

guint
mshed_unknown_table_get_n_rows (MshedUnknownTable *self)
{
  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), 0);
  return self->n_rows;
}

guint
mshed_unknown_table_get_n_columns (MshedUnknownTable *self)
{
  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), 0);
  return self->columns->len;
}

const char *
mshed_unknown_table_get_column_name (MshedUnknownTable *self,
                                     guint              column)
{
  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), NULL);
  g_return_val_if_fail (column < self->columns->len, NULL);
  return ((const Column *) g_ptr_array_index (self->columns, column))->name;
}

static gint
find_column (MshedUnknownTable *self,
             const char        *name)
{
  for (guint c = 0; c < self->columns->len; c++)
    if (g_strcmp0 (((const Column *) g_ptr_array_index (self->columns, c))->name, name) == 0)
      return (gint) c;
  return -1;
}

gboolean
mshed_unknown_table_get_summary (MshedUnknownTable   *self,
                                 const char          *column,
                                 MshedUnknownSummary *out)
{
  gint c;

  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  c = find_column (self, column);
  if (c < 0)
    return FALSE;
  *out = ((const Column *) g_ptr_array_index (self->columns, c))->summary;
  return TRUE;
}

gboolean
mshed_unknown_table_format_range (MshedUnknownTable  *self,
                                  const char         *column,
                                  char              **min,
                                  char              **max)
{
  char a[RANGE_TEXT], b[RANGE_TEXT];
  gint c;

  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), FALSE);
  c = find_column (self, column);
  if (c < 0)
    return FALSE;
  format_range (g_ptr_array_index (self->columns, c), a, b);
  *min = g_strdup (a);
  *max = g_strdup (b);
  return TRUE;
}

void
mshed_unknown_table_sort (MshedUnknownTable *self,
                          const char        *column,
                          GtkSortType        order)
{
  GtkColumnViewColumn *vc = NULL;
  gint c;

  g_return_if_fail (MSHED_IS_UNKNOWN_TABLE (self));

  if (column != NULL && g_strcmp0 (column, "#") == 0)
    vc = g_ptr_array_index (self->view_columns, 0);
  else if (column != NULL && (c = find_column (self, column)) >= 0)
    vc = g_ptr_array_index (self->view_columns, c + 1);
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), vc, order);
}

static void
csv_append (GString    *s,
            const char *field)
{
  if (strpbrk (field, ",\"\n") == NULL)
    {
      g_string_append (s, field);
      return;
    }
  g_string_append_c (s, '"');
  for (const char *p = field; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

char *
mshed_unknown_table_to_csv (MshedUnknownTable *self)
{
  GString *s;
  guint n;

  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), NULL);

  s = g_string_new ("record");
  for (guint c = 0; c < self->columns->len; c++)
    {
      g_string_append_c (s, ',');
      csv_append (s, ((const Column *) g_ptr_array_index (self->columns, c))->name);
    }
  g_string_append_c (s, '\n');
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MshedUnknownRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);

      g_string_append_printf (s, "%u", row->row);
      for (guint c = 0; c < self->columns->len; c++)
        {
          g_autofree char *text = cell_text (self, (gint) c, row->row);

          g_string_append_c (s, ',');
          csv_append (s, text);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

gboolean
mshed_unknown_table_export_csv (MshedUnknownTable  *self,
                                const char         *path,
                                GError            **error)
{
  g_autofree char *csv = NULL;

  g_return_val_if_fail (MSHED_IS_UNKNOWN_TABLE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  csv = mshed_unknown_table_to_csv (self);
  return g_file_set_contents (path, csv, -1, error);
}
