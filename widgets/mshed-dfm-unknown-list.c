/* mshed-dfm-unknown-list.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rows are read again from the tree after every change of the document (they are few: a
 * field per UV bone block and the Cons records with residue); the cells are GtkInscriptions
 * (PLATFORM.md: no GtkEditableLabel in lists on GTK 4.8).
 */
#define G_LOG_DOMAIN "mshed-dfm-unknown-list"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-dfm-schema.h"
#include "mshed-dfm-unknown-list.h"

/* Row items: an index into the collected fields */
#define MSHED_TYPE_DFM_UNKNOWN_ROW (mshed_dfm_unknown_row_get_type ())
G_DECLARE_FINAL_TYPE (MshedDfmUnknownRow, mshed_dfm_unknown_row, MSHED, DFM_UNKNOWN_ROW,
                      GObject)

struct _MshedDfmUnknownRow {
  GObject parent_instance;
  guint   index;
};

G_DEFINE_FINAL_TYPE (MshedDfmUnknownRow, mshed_dfm_unknown_row, G_TYPE_OBJECT)

static void
mshed_dfm_unknown_row_class_init (MshedDfmUnknownRowClass *klass)
{
}

static void
mshed_dfm_unknown_row_init (MshedDfmUnknownRow *self)
{
}

struct _MshedDfmUnknownList {
  GtkWidget     parent_instance;

  GtkWidget    *box;
  GtkWidget    *count_label;
  GtkWidget    *column_view;
  GListStore   *store;        /* MshedDfmUnknownRow */
  MshedDocument *document;
  GSignalGroup *document_signals;
  GArray       *fields;       /* MshedDfmUnknownField */
};

G_DEFINE_FINAL_TYPE (MshedDfmUnknownList, mshed_dfm_unknown_list, GTK_TYPE_WIDGET)

enum {
  FIELD_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const struct {
  const char *title;
  guint       min_chars;
  guint       chars;
  gboolean    right;
} columns[MSHED_DFM_UNKNOWN_N_COLUMNS] = {
  /* translators: column headers of the Unknown Fields panel of a .dfm model */
  { N_("Node"), 14, 28, FALSE },
  { N_("Record"), 4, 6, TRUE },
  { N_("Field"), 16, 18, FALSE },
  { N_("Offset"), 6, 8, TRUE },
  { N_("Value (hex)"), 12, 24, FALSE },
};

static void
rebuild (MshedDfmUnknownList *self)
{
  MshedUtf *utf = self->document ? mshed_document_get_utf (self->document) : NULL;
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  g_autofree char *count = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  g_clear_pointer (&self->fields, g_array_unref);
  if (utf != NULL && mshed_document_get_dfm (self->document) != NULL)
    self->fields = mshed_dfm_schema_collect_unknown (mshed_utf_get_root (utf));
  else
    self->fields = g_array_new (FALSE, TRUE, sizeof (MshedDfmUnknownField));
  for (guint i = 0; i < self->fields->len; i++)
    {
      MshedDfmUnknownRow *row = g_object_new (MSHED_TYPE_DFM_UNKNOWN_ROW, NULL);

      row->index = i;
      g_ptr_array_add (rows, row);
    }
  g_list_store_splice (self->store, 0, n_old, rows->pdata, rows->len);
  count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u field of unknown meaning",
                                        "%u fields of unknown meaning", self->fields->len),
                           self->fields->len);
  gtk_label_set_text (GTK_LABEL (self->count_label), count);
}

static void
document_changed_cb (MshedDfmUnknownList *self)
{
  rebuild (self);
}

char *
mshed_dfm_unknown_list_dup_text (MshedDfmUnknownList   *self,
                                 guint                  row,
                                 MshedDfmUnknownColumn  column)
{
  const MshedDfmUnknownField *u;
  gsize size = 0;
  const guint8 *data;
  GString *s;

  g_return_val_if_fail (MSHED_IS_DFM_UNKNOWN_LIST (self), NULL);

  if (self->fields == NULL || row >= self->fields->len)
    return NULL;
  u = &g_array_index (self->fields, MshedDfmUnknownField, row);
  switch (column)
    {
    case MSHED_DFM_UNKNOWN_PATH:
      return mshed_utf_node_dup_path (u->node);
    case MSHED_DFM_UNKNOWN_RECORD:
      return g_strdup_printf ("%u", u->record);
    case MSHED_DFM_UNKNOWN_FIELD:
      /* translators: the bytes after the NUL of a Cons name ("parent", "child") */
      return u->padding ? g_strdup_printf (_("%s (padding)"), u->field) : g_strdup (u->field);
    case MSHED_DFM_UNKNOWN_OFFSET:
      return g_strdup_printf ("0x%" G_GSIZE_MODIFIER "X", u->offset);
    case MSHED_DFM_UNKNOWN_VALUE:
      data = mshed_utf_node_peek_data (u->node, &size);
      if (data == NULL || u->offset + u->size > size)
        return NULL;
      s = g_string_new (NULL);
      for (gsize i = 0; i < u->size; i++)
        g_string_append_printf (s, i ? " %02X" : "%02X", data[u->offset + i]);
      return g_string_free (s, FALSE);
    case MSHED_DFM_UNKNOWN_N_COLUMNS:
    default:
      return NULL;
    }
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  data)
{
  guint column = GPOINTER_TO_UINT (data);
  GtkWidget *label = gtk_inscription_new (NULL);

  gtk_widget_add_css_class (label, "monospace");
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (label), columns[column].min_chars);
  /* a long path keeps its end: the file's name */
  if (column == MSHED_DFM_UNKNOWN_PATH)
    gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label),
                                       GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_START);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), columns[column].chars);
  gtk_inscription_set_xalign (GTK_INSCRIPTION (label), columns[column].right ? 1.0f : 0.0f);
  gtk_list_item_set_child (item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  data)
{
  MshedDfmUnknownList *self = g_object_get_data (G_OBJECT (factory), "list");
  MshedDfmUnknownRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = mshed_dfm_unknown_list_dup_text (self, row->index,
                                                           GPOINTER_TO_UINT (data));

  gtk_inscription_set_text (GTK_INSCRIPTION (gtk_list_item_get_child (item)), text);
}

void
mshed_dfm_unknown_list_activate_row (MshedDfmUnknownList *self,
                                     guint                row)
{
  const MshedDfmUnknownField *u;

  g_return_if_fail (MSHED_IS_DFM_UNKNOWN_LIST (self));

  if (self->fields == NULL || row >= self->fields->len)
    return;
  u = &g_array_index (self->fields, MshedDfmUnknownField, row);
  g_signal_emit (self, signals[FIELD_ACTIVATED], 0, u->node, (guint) u->offset,
                 (guint) u->size);
}

static void
activate_cb (MshedDfmUnknownList *self,
             guint                position)
{
  GtkSelectionModel *model = gtk_column_view_get_model (GTK_COLUMN_VIEW (self->column_view));
  g_autoptr(MshedDfmUnknownRow) row = g_list_model_get_item (G_LIST_MODEL (model), position);

  if (row != NULL)
    mshed_dfm_unknown_list_activate_row (self, row->index);
}

static void
mshed_dfm_unknown_list_dispose (GObject *object)
{
  MshedDfmUnknownList *self = MSHED_DFM_UNKNOWN_LIST (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->store);
  g_clear_pointer (&self->fields, g_array_unref);
  G_OBJECT_CLASS (mshed_dfm_unknown_list_parent_class)->dispose (object);
}

static void
mshed_dfm_unknown_list_class_init (MshedDfmUnknownListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_dfm_unknown_list_dispose;
  signals[FIELD_ACTIVATED] =
    g_signal_new ("field-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 3, G_TYPE_POINTER, G_TYPE_UINT, G_TYPE_UINT);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "unknowntable");
}

static void
mshed_dfm_unknown_list_init (MshedDfmUnknownList *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkNoSelection *selection;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->count_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->count_label), 0.0f);
  gtk_widget_add_css_class (self->count_label, "dim-label");
  gtk_box_append (GTK_BOX (self->box), self->count_label);

  self->store = g_list_store_new (MSHED_TYPE_DFM_UNKNOWN_ROW);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->store)));
  self->column_view = gtk_column_view_new (GTK_SELECTION_MODEL (selection));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  gtk_widget_add_css_class (self->column_view, "data-table");
  gtk_column_view_set_single_click_activate (GTK_COLUMN_VIEW (self->column_view), FALSE);
  for (guint i = 0; i < MSHED_DFM_UNKNOWN_N_COLUMNS; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_object_set_data (G_OBJECT (factory), "list", self);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GUINT_TO_POINTER (i));
      column = gtk_column_view_column_new (_(columns[i].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, i == MSHED_DFM_UNKNOWN_PATH);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
    }
  g_signal_connect_object (self->column_view, "activate", G_CALLBACK (activate_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self->box), scroller);

  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "changed",
                                  G_CALLBACK (document_changed_cb), self);
  rebuild (self);
}

GtkWidget *
mshed_dfm_unknown_list_new (void)
{
  return g_object_new (MSHED_TYPE_DFM_UNKNOWN_LIST, NULL);
}

void
mshed_dfm_unknown_list_set_document (MshedDfmUnknownList *self,
                                     MshedDocument       *document)
{
  g_return_if_fail (MSHED_IS_DFM_UNKNOWN_LIST (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (!g_set_object (&self->document, document))
    return;
  g_signal_group_set_target (self->document_signals, document);
  rebuild (self);
}

guint
mshed_dfm_unknown_list_get_n_rows (MshedDfmUnknownList *self)
{
  g_return_val_if_fail (MSHED_IS_DFM_UNKNOWN_LIST (self), 0);
  return self->fields ? self->fields->len : 0;
}
