/* mshed-table-model.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-table-model"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-nres.h"
#include "mshed-table-model-private.h"

#define NAME_HEX_MAX 48
#define add_special_column _mshed_table_model_add_special

/* MshedTableRow -------------------------------------------------------------------------- */

struct _MshedTableRow
{
  GObject          parent_instance;
  MshedTableModel *model;   /* not owned: the model forgets its rows before it goes */
  guint            index;
};

enum {
  ROW_CHANGED,
  N_ROW_SIGNALS
};

static guint row_signals[N_ROW_SIGNALS];

G_DEFINE_FINAL_TYPE (MshedTableRow, mshed_table_row, G_TYPE_OBJECT)

static void mshed_table_model_forget (MshedTableModel *self,
                                      MshedTableRow   *row);

static void
mshed_table_row_finalize (GObject *object)
{
  MshedTableRow *self = MSHED_TABLE_ROW (object);

  if (self->model != NULL)
    mshed_table_model_forget (self->model, self);

  G_OBJECT_CLASS (mshed_table_row_parent_class)->finalize (object);
}

static void
mshed_table_row_class_init (MshedTableRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mshed_table_row_finalize;

  /**
   * MshedTableRow::changed:
   *
   * The record's bytes or its index changed: views re-read the row.
   */
  row_signals[ROW_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
}

static void
mshed_table_row_init (MshedTableRow *self)
{
}

guint
mshed_table_row_get_index (MshedTableRow *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_ROW (self), G_MAXUINT);

  return self->index;
}

/* MshedTableModel ------------------------------------------------------------------------ */


enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_TABLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (MshedTableModel, mshed_table_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
mshed_table_model_forget (MshedTableModel *self,
                          MshedTableRow   *row)
{
  gpointer key = GUINT_TO_POINTER (row->index);

  if (g_hash_table_lookup (self->live, key) == row)
    g_hash_table_remove (self->live, key);
}

static MshedModel *
get_model (MshedTableModel *self)
{
  return self->document ? mshed_document_get_model (self->document) : NULL;
}

static guint
count_rows (MshedTableModel *self)
{
  MshedModel *model = get_model (self);

  if (self->dfm_table != MSHED_DFM_TABLE_NONE)
    return _mshed_table_model_dfm_count_rows (self);
  return model ? mshed_model_get_n_rows (model, self->table) : 0;
}

static GType
list_model_get_item_type (GListModel *list)
{
  return MSHED_TYPE_TABLE_ROW;
}

static guint
list_model_get_n_items (GListModel *list)
{
  return MSHED_TABLE_MODEL (list)->n_items;
}

static gpointer
list_model_get_item (GListModel *list,
                     guint       position)
{
  MshedTableModel *self = MSHED_TABLE_MODEL (list);
  MshedTableRow *row;

  if (position >= self->n_items)
    return NULL;

  row = g_hash_table_lookup (self->live, GUINT_TO_POINTER (position));
  if (row != NULL)
    return g_object_ref (row);

  row = g_object_new (MSHED_TYPE_TABLE_ROW, NULL);
  row->model = self;
  row->index = position;
  g_hash_table_insert (self->live, GUINT_TO_POINTER (position), row);
  self->n_created++;
  return row;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_model_get_item_type;
  iface->get_n_items = list_model_get_n_items;
  iface->get_item = list_model_get_item;
}

static void
detach_all (MshedTableModel *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      MshedTableRow *row = value;

      row->model = NULL;
      row->index = G_MAXUINT;
    }
  g_hash_table_remove_all (self->live);
}

void
_mshed_table_model_reset (MshedTableModel *self)
{
  guint old = self->n_items;

  detach_all (self);
  self->n_items = count_rows (self);
  if (old != 0 || self->n_items != 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_items);
}

/* Rows were removed and added at @position: drop the removed rows, renumber the rest. */
static void
splice (MshedTableModel *self,
        guint            position,
        guint            removed,
        guint            added)
{
  g_autoptr(GPtrArray) moved = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTable *live = g_hash_table_new (g_direct_hash, g_direct_equal);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      MshedTableRow *row = value;
      guint index = GPOINTER_TO_UINT (key);

      if (index < position)
        g_hash_table_insert (live, key, row);
      else if (index < position + removed)
        {
          row->model = NULL;
          row->index = G_MAXUINT;
        }
      else
        {
          row->index = index - removed + added;
          g_hash_table_insert (live, GUINT_TO_POINTER (row->index), row);
          g_ptr_array_add (moved, g_object_ref (row));
        }
    }
  g_hash_table_unref (self->live);
  self->live = live;
  self->n_items = self->n_items - removed + added;

  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);

  for (guint i = 0; i < moved->len; i++)
    g_signal_emit (g_ptr_array_index (moved, i), row_signals[ROW_CHANGED], 0);
}

/* Emits changed on the live rows in [first, first + n); n == 0: every live row. */
void
_mshed_table_model_refresh_range (MshedTableModel *self,
               guint            first,
               guint            n)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer key, value;

  if (n != 0 && n <= g_hash_table_size (self->live))
    {
      for (guint i = first; i < first + n && i < self->n_items; i++)
        {
          value = g_hash_table_lookup (self->live, GUINT_TO_POINTER (i));
          if (value != NULL)
            g_ptr_array_add (rows, g_object_ref (value));
        }
    }
  else
    {
      g_hash_table_iter_init (&iter, self->live);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          guint index = GPOINTER_TO_UINT (key);

          if (n == 0 || (index >= first && index - first < n))
            g_ptr_array_add (rows, g_object_ref (value));
        }
    }

  for (guint i = 0; i < rows->len; i++)
    g_signal_emit (g_ptr_array_index (rows, i), row_signals[ROW_CHANGED], 0);
}

void
mshed_table_model_refresh_rows (MshedTableModel *self)
{
  g_return_if_fail (MSHED_IS_TABLE_MODEL (self));

  _mshed_table_model_refresh_range (self, 0, 0);
}

static gboolean
is_linked (MshedTableModel *self,
           MshedTableId     table)
{
  for (guint i = 0; i < self->n_linked; i++)
    if (self->linked[i] == table)
      return TRUE;
  return FALSE;
}

static gboolean
reconcile_cb (gpointer data)
{
  MshedTableModel *self = data;

  self->reconcile_id = 0;
  if (count_rows (self) != self->n_items)
    _mshed_table_model_reset (self);
  return G_SOURCE_REMOVE;
}

static void
document_changed_cb (MshedTableModel   *self,
                     const MshedChange *change,
                     MshedDocument     *document)
{
  guint new_n = count_rows (self);
  gboolean mine = change->table == self->table;

  if (self->dfm_table != MSHED_DFM_TABLE_NONE)
    {
      _mshed_table_model_dfm_changed (self, change, new_n);
      return;
    }
  if ((change->flags & MSHED_CHANGE_FLAG_ALL) || change->origin == MSHED_CHANGE_ORIGIN_RELOAD)
    {
      _mshed_table_model_reset (self);
      return;
    }

  if (self->table == MSHED_TABLE_DIRECTORY)
    {
      /* Small, and sizes and offsets of every entry follow any payload change. */
      if (new_n != self->n_items)
        _mshed_table_model_reset (self);
      else
        _mshed_table_model_refresh_range (self, 0, 0);
      return;
    }

  if (mine && change->n_removed != change->n_added)
    {
      if (change->first_row <= self->n_items &&
          change->n_removed <= self->n_items - change->first_row &&
          self->n_items - change->n_removed + change->n_added == new_n)
        splice (self, change->first_row, change->n_removed, change->n_added);
      else
        _mshed_table_model_reset (self);
      return;
    }

  if (new_n != self->n_items)
    {
      /* A compound command (insert a node: names, slots, ...) emits one change per table
       * after all of them were applied: the count already moved and this table's own change
       * is still to come. Changes without a table (resources added or removed) reset now;
       * otherwise wait, and reconcile when idle in case none comes. */
      if (change->table == MSHED_TABLE_NONE || (change->flags & MSHED_CHANGE_FLAG_DIRECTORY))
        _mshed_table_model_reset (self);
      else if (self->reconcile_id == 0)
        self->reconcile_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, reconcile_cb,
                                              g_object_ref (self), g_object_unref);
      return;
    }

  if (mine || is_linked (self, change->table))
    _mshed_table_model_refresh_range (self, change->first_row, change->n_added);
}

static void
add_column (MshedTableModel        *self,
            const MshedTableColumn *column)
{
  g_array_append_vals (self->columns, column, 1);
  if (column->label == NULL)
    g_array_index (self->columns, MshedTableColumn, self->columns->len - 1).label = column->title;
}

char *
mshed_table_field_gloss (MshedTableId  table,
                         const char   *field)
{
  guint cell;
  char *end = NULL;

  if (table != MSHED_TABLE_NODES || field == NULL || !g_str_has_prefix (field, "slot"))
    return NULL;
  cell = (guint) g_ascii_strtoull (field + 4, &end, 10);
  if (end == field + 4 || *end != '\0' || cell >= MSHED_N_LODS * MSHED_N_GROUPS)
    return NULL;
  /* TRANSLATORS: what a node's slot-matrix cell slotN is: its LOD and group, e.g. "L0 G3" */
  return g_strdup_printf (C_("slot column", "L%u G%u"), cell / MSHED_N_GROUPS,
                          cell % MSHED_N_GROUPS);
}

static const char *
keep_string (MshedTableModel *self,
             char            *string)
{
  g_ptr_array_add (self->strings, string);
  return string;
}

static MshedDerived
stale_mask_for (MshedTableId      table,
                const MshedField *field)
{
  const char *name = field->name;

  switch (table)
    {
    case MSHED_TABLE_SLOTS:
      if (field->flags & MSHED_FIELD_FLAG_DERIVED)
        return g_str_has_prefix (name, "aabb") ? MSHED_DERIVED_SLOT_BOX
                                               : MSHED_DERIVED_SLOT_SPHERE;
      if (g_str_has_prefix (name, "tri") || g_str_has_prefix (name, "batch"))
        return MSHED_DERIVED_SLOT_RANGES;
      return MSHED_DERIVED_NONE;
    case MSHED_TABLE_HEADER:
      return MSHED_DERIVED_HEADER_BOUNDS;
    case MSHED_TABLE_TRIS:
      if (g_str_has_prefix (name, "link"))
        return MSHED_DERIVED_TRI_LINKS;
      if (field->flags & MSHED_FIELD_FLAG_DERIVED)
        return MSHED_DERIVED_TRI_NORMALS;
      return MSHED_DERIVED_NONE;
    case MSHED_TABLE_NORMALS:
      return (field->flags & MSHED_FIELD_FLAG_UNKNOWN) ? MSHED_DERIVED_NONE
                                                       : MSHED_DERIVED_VERTEX_NORMALS;
    case MSHED_TABLE_DIRECTORY:
      return g_str_has_prefix (name, "attr") ? MSHED_DERIVED_ATTRIBUTES : MSHED_DERIVED_NONE;
    case MSHED_TABLE_MAP:
      return MSHED_DERIVED_ANIMATION_MAP;
    case MSHED_TABLE_BATCHES:
      if (g_str_equal (name, "indexStart") || g_str_equal (name, "indexCount") ||
          g_str_equal (name, "baseVertex"))
        return MSHED_DERIVED_BATCH_RANGES;
      return MSHED_DERIVED_NONE;
    case MSHED_TABLE_EXTRA15:
    case MSHED_TABLE_EXTRA16:
    case MSHED_TABLE_EXTRA18:
      return MSHED_DERIVED_EXTRA_STREAMS;
    case MSHED_TABLE_NONE:
    case MSHED_TABLE_NODES:
    case MSHED_TABLE_POSITIONS:
    case MSHED_TABLE_UVS:
    case MSHED_TABLE_INDICES:
    case MSHED_TABLE_KEYS:
    case MSHED_TABLE_NAMES:
    case MSHED_N_TABLES:
    default:
      return MSHED_DERIVED_NONE;
    }
}

static guint
width_for (const MshedField *field)
{
  switch (field->type)
    {
    case MSHED_FIELD_U8:
    case MSHED_FIELD_I8:
      return 5;
    case MSHED_FIELD_U16:
    case MSHED_FIELD_I16:
      return 6;
    case MSHED_FIELD_U32:
    case MSHED_FIELD_I32:
      return 10;
    case MSHED_FIELD_F32:
    default:
      return 11;
    }
}

void
_mshed_table_model_add_fields (MshedTableModel  *self,
                               MshedTableId      table,
                               const MshedField *fields,
                               guint             n_fields,
                               gboolean          unknown_raw)
{
  for (guint i = 0; i < n_fields; i++)
    {
      const MshedField *f = &fields[i];
      MshedTableColumn column = { 0 };
      char *gloss;

      column.table = table;
      column.field = f;
      column.id = f->name;
      column.title = f->name;
      column.blurb = f->blurb ? g_dgettext (GETTEXT_PACKAGE, f->blurb) : NULL;
      column.stale_mask = table < MSHED_N_TABLES ? stale_mask_for (table, f)
                                                 : _mshed_table_model_dfm_stale_mask (table);
      column.width_chars = width_for (f);
      column.editable = TRUE;
      column.numeric = TRUE;

      gloss = mshed_table_field_gloss (table, f->name);
      if (gloss != NULL)
        {
          column.gloss = keep_string (self, g_steal_pointer (&gloss));
          /* one name everywhere (the schema's), what it means under it */
          column.title = keep_string (self, g_strdup_printf ("%s\n%s", f->name, column.gloss));
          column.label = keep_string (self, g_strdup_printf ("%s (%s)", f->name, column.gloss));
        }
      if (table == MSHED_TABLE_DIRECTORY)
        {
          column.editable = g_str_equal (f->name, "type") || g_str_has_prefix (f->name, "attr");
          if (g_str_equal (f->name, "type"))
            column.width_chars = 12;
        }

      if (f->divisor != 0)
        {
          MshedTableColumn raw = column;

          column.kind = MSHED_COLUMN_DECODED;
          column.width_chars = 9;
          add_column (self, &column);

          raw.kind = MSHED_COLUMN_FIELD;
          raw.raw = TRUE;
          raw.label = NULL;
          raw.id = keep_string (self, g_strconcat (f->name, ".raw", NULL));
          /* TRANSLATORS: the column of a field's stored (undecoded) value */
          raw.title = keep_string (self, g_strdup_printf (_("%s (raw)"), f->name));
          add_column (self, &raw);
        }
      else
        {
          column.kind = MSHED_COLUMN_FIELD;
          column.raw = unknown_raw && (f->flags & MSHED_FIELD_FLAG_UNKNOWN) != 0;
          add_column (self, &column);
        }
    }
}

static void
add_field_columns (MshedTableModel *self,
                   MshedTableId     table,
                   gboolean         unknown_raw)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);

  _mshed_table_model_add_fields (self, table, info->fields, info->n_fields, unknown_raw);
}

void
_mshed_table_model_add_special (MshedTableModel *self,
                    MshedColumnKind  kind,
                    MshedTableId     table,
                    const char      *id,
                    const char      *title,
                    const char      *blurb,
                    guint            width,
                    gboolean         editable,
                    gboolean         numeric)
{
  MshedTableColumn column = { 0 };

  column.kind = kind;
  column.table = table;
  column.id = id;
  column.title = title;
  column.blurb = blurb;
  column.width_chars = width;
  column.editable = editable;
  column.numeric = numeric;
  add_column (self, &column);
}

static void
build_columns (MshedTableModel *self)
{
  const MshedTableInfo *dir;

  if (self->dfm_table != MSHED_DFM_TABLE_NONE)
    {
      _mshed_table_model_dfm_build_columns (self);
      return;
    }
  switch (self->table)
    {
    case MSHED_TABLE_NODES:
      self->linked[self->n_linked++] = MSHED_TABLE_NAMES;
      add_special_column (self, MSHED_COLUMN_NAME, MSHED_TABLE_NAMES, "name", "name",
                          _("Node name (Res10, Windows-1251)"), 10, TRUE, FALSE);
      add_field_columns (self, MSHED_TABLE_NODES, FALSE);
      break;

    case MSHED_TABLE_POSITIONS:
      self->linked[self->n_linked++] = MSHED_TABLE_NORMALS;
      self->linked[self->n_linked++] = MSHED_TABLE_UVS;
      add_field_columns (self, MSHED_TABLE_POSITIONS, TRUE);
      add_field_columns (self, MSHED_TABLE_NORMALS, TRUE);
      add_field_columns (self, MSHED_TABLE_UVS, TRUE);
      break;

    case MSHED_TABLE_NAMES:
      /* the columns of mshed-cli dump --table names */
      add_special_column (self, MSHED_COLUMN_NAME_LENGTH, MSHED_TABLE_NAMES, "length",
                          "length", _("Length word of the Res10 record"), 6, FALSE, TRUE);
      add_special_column (self, MSHED_COLUMN_NAME, MSHED_TABLE_NAMES, "text", "text",
                          _("Node name (Res10, Windows-1251)"), 18, TRUE, FALSE);
      add_special_column (self, MSHED_COLUMN_NAME_HEX, MSHED_TABLE_NAMES, "bytes", "bytes",
                          _("The stored name bytes"), 24, FALSE, FALSE);
      break;

    case MSHED_TABLE_DIRECTORY:
      dir = mshed_schema_get_table (MSHED_TABLE_DIRECTORY);
      add_field_columns (self, MSHED_TABLE_DIRECTORY, FALSE);
      {
        /* the entry name goes after the type */
        MshedTableColumn name = { 0 };
        guint at = 1;

        for (guint i = 0; i < self->columns->len; i++)
          if (g_str_equal (g_array_index (self->columns, MshedTableColumn, i).id, "type"))
            at = i + 1;
        name.kind = MSHED_COLUMN_ENTRY_NAME;
        name.table = MSHED_TABLE_DIRECTORY;
        name.id = "name";
        name.title = "name";
        name.blurb = _("Entry name (up to 35 bytes)");
        name.width_chars = 14;
        name.editable = TRUE;
        g_array_insert_val (self->columns, at, name);
      }
      {
        /* the size after the attributes (on disk it sits between attr2 and attr3) */
        gint size = mshed_table_model_find_column (self, "size");
        gint attr3 = mshed_table_model_find_column (self, "attr3");

        if (size >= 0 && attr3 > size)
          {
            MshedTableColumn moved = g_array_index (self->columns, MshedTableColumn, size);

            g_array_remove_index (self->columns, (guint) size);
            g_array_insert_val (self->columns, (guint) attr3, moved);
          }
      }
      (void) dir;
      break;

    case MSHED_TABLE_NONE:
    case MSHED_N_TABLES:
      break;

    case MSHED_TABLE_HEADER:
    case MSHED_TABLE_SLOTS:
    case MSHED_TABLE_NORMALS:
    case MSHED_TABLE_UVS:
    case MSHED_TABLE_INDICES:
    case MSHED_TABLE_TRIS:
    case MSHED_TABLE_KEYS:
    case MSHED_TABLE_BATCHES:
    case MSHED_TABLE_EXTRA15:
    case MSHED_TABLE_EXTRA16:
    case MSHED_TABLE_EXTRA18:
    case MSHED_TABLE_MAP:
    default:
      add_field_columns (self, self->table, FALSE);
      break;
    }
}

static void
mshed_table_model_constructed (GObject *object)
{
  MshedTableModel *self = MSHED_TABLE_MODEL (object);

  G_OBJECT_CLASS (mshed_table_model_parent_class)->constructed (object);

  if (mshed_dfm_schema_get_table ((MshedDfmTable) self->table) != NULL)
    _mshed_table_model_dfm_init (self);
  build_columns (self);
}

static void
mshed_table_model_dispose (GObject *object)
{
  MshedTableModel *self = MSHED_TABLE_MODEL (object);

  detach_all (self);
  g_clear_handle_id (&self->reconcile_id, g_source_remove);
  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_object (&self->document);
    }

  G_OBJECT_CLASS (mshed_table_model_parent_class)->dispose (object);
}

static void
mshed_table_model_finalize (GObject *object)
{
  MshedTableModel *self = MSHED_TABLE_MODEL (object);

  g_clear_pointer (&self->live, g_hash_table_unref);
  g_clear_pointer (&self->columns, g_array_unref);
  g_clear_pointer (&self->strings, g_ptr_array_unref);

  G_OBJECT_CLASS (mshed_table_model_parent_class)->finalize (object);
}

static void
mshed_table_model_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  MshedTableModel *self = MSHED_TABLE_MODEL (object);

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
mshed_table_model_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  MshedTableModel *self = MSHED_TABLE_MODEL (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      mshed_table_model_set_document (self, g_value_get_object (value));
      break;
    case PROP_TABLE:
      self->table = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_table_model_class_init (MshedTableModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mshed_table_model_constructed;
  object_class->dispose = mshed_table_model_dispose;
  object_class->finalize = mshed_table_model_finalize;
  object_class->get_property = mshed_table_model_get_property;
  object_class->set_property = mshed_table_model_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, MSHED_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TABLE] =
    g_param_spec_int ("table", NULL, NULL, MSHED_TABLE_NONE, MSHED_DFM_TABLE_LAST - 1,
                      MSHED_TABLE_NODES,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mshed_table_model_init (MshedTableModel *self)
{
  self->table = MSHED_TABLE_NODES;
  self->dfm_table = MSHED_DFM_TABLE_NONE;
  self->live = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->columns = g_array_new (FALSE, TRUE, sizeof (MshedTableColumn));
  self->strings = g_ptr_array_new_with_free_func (g_free);
}

/**
 * mshed_table_model_new:
 * @document: (nullable): the document
 * @table: the table to list
 *
 * Returns: (transfer full): a new model
 */
MshedTableModel *
mshed_table_model_new (MshedDocument *document,
                       MshedTableId   table)
{
  g_return_val_if_fail (document == NULL || MSHED_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail ((table >= 0 && table < MSHED_N_TABLES) ||
                        mshed_dfm_schema_get_table ((MshedDfmTable) table) != NULL, NULL);

  return g_object_new (MSHED_TYPE_TABLE_MODEL, "table", table, "document", document, NULL);
}

MshedDocument *
mshed_table_model_get_document (MshedTableModel *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), NULL);

  return self->document;
}

void
mshed_table_model_set_document (MshedTableModel *self,
                                MshedDocument   *document)
{
  g_return_if_fail (MSHED_IS_TABLE_MODEL (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (self->document == document)
    return;

  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_object (&self->document);
    }
  if (document != NULL)
    {
      self->document = g_object_ref (document);
      self->changed_id = g_signal_connect_object (document, "changed",
                                                  G_CALLBACK (document_changed_cb), self,
                                                  G_CONNECT_SWAPPED);
    }
  _mshed_table_model_reset (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

MshedTableId
mshed_table_model_get_table (MshedTableModel *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), MSHED_TABLE_NONE);

  return self->table;
}

guint
mshed_table_model_get_n_live_rows (MshedTableModel *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), 0);

  return g_hash_table_size (self->live);
}

guint64
mshed_table_model_get_n_created (MshedTableModel *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), 0);

  return self->n_created;
}

guint
mshed_table_model_get_n_columns (MshedTableModel *self)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), 0);

  return self->columns->len;
}

const MshedTableColumn *
mshed_table_model_get_column (MshedTableModel *self,
                              guint            column)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), NULL);
  g_return_val_if_fail (column < self->columns->len, NULL);

  return &g_array_index (self->columns, MshedTableColumn, column);
}

gint
mshed_table_model_find_column (MshedTableModel *self,
                               const char      *id)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), -1);

  if (id == NULL)
    return -1;
  for (guint i = 0; i < self->columns->len; i++)
    if (g_ascii_strcasecmp (g_array_index (self->columns, MshedTableColumn, i).id, id) == 0)
      return (gint) i;
  return -1;
}

/* Cells ---------------------------------------------------------------------------------- */

/* The bytes of record @row of @table; the directory is laid out into @scratch as on disk. */
static const guint8 *
get_record (MshedTableModel *self,
            MshedTableId     table,
            guint            row,
            guint8           scratch[MSHED_NRES_RECORD_SIZE])
{
  MshedModel *model = get_model (self);

  if (self->dfm_table != MSHED_DFM_TABLE_NONE)
    return _mshed_table_model_dfm_record (self, (MshedDfmTable) table, row);
  if (model == NULL)
    return NULL;

  if (table == MSHED_TABLE_DIRECTORY)
    {
      MshedNres *nres = mshed_model_get_nres (model);
      const MshedNresEntry *e;

      if (row >= mshed_nres_get_n_entries (nres))
        return NULL;
      e = mshed_nres_peek_entry (nres, row);
      memset (scratch, 0, MSHED_NRES_RECORD_SIZE);
      mshed_write_u32 (scratch + 0, e->type_id);
      mshed_write_u32 (scratch + 4, e->attr1);
      mshed_write_u32 (scratch + 8, e->attr2);
      mshed_write_u32 (scratch + 12, (guint32) mshed_nres_entry_get_size (e));
      mshed_write_u32 (scratch + 16, e->attr3);
      memcpy (scratch + 20, e->name, MSHED_NRES_NAME_SIZE);
      mshed_write_u32 (scratch + 56, e->data_offset);
      mshed_write_u32 (scratch + 60, e->sort_index);
      return scratch;
    }

  return mshed_model_get_record (model, table, row);
}

static const MshedTableColumn *
column_at (MshedTableModel *self,
           guint            column)
{
  if (column >= self->columns->len)
    return NULL;
  return &g_array_index (self->columns, MshedTableColumn, column);
}

static gboolean
is_printable_fourcc (guint32 v)
{
  for (guint i = 0; i < 4; i++)
    {
      guint8 c = (v >> (8 * i)) & 0xff;

      if (c < 0x20 || c > 0x7e)
        return FALSE;
    }
  return TRUE;
}

static char *
format_decoded (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gsize len;

  g_ascii_formatd (buf, sizeof buf, "%.5f", value);
  len = strlen (buf);
  while (len > 2 && buf[len - 1] == '0' && buf[len - 2] != '.')
    buf[--len] = '\0';
  if (g_str_equal (buf, "-0.0"))
    return g_strdup ("0.0");
  return g_strdup (buf);
}

static char *
dup_name_text (MshedTableModel *self,
               guint            row,
               gboolean         with_length)
{
  MshedModel *model = get_model (self);
  const guint8 *text;
  guint32 len;

  if (model == NULL || !mshed_model_get_name_raw (model, row, &text, &len))
    return NULL;
  if (with_length)
    return g_strdup_printf ("%u", len);
  if (len == 0)
    return g_strdup ("");
  return mshed_cp1251_to_utf8 (text, len, NULL);
}

static char *
dup_name_hex (MshedTableModel *self,
              guint            row)
{
  MshedModel *model = get_model (self);
  const guint8 *text;
  guint32 len;
  GString *s;

  if (model == NULL || !mshed_model_get_name_raw (model, row, &text, &len))
    return NULL;
  s = g_string_new (NULL);
  for (guint32 i = 0; i < len && i < NAME_HEX_MAX; i++)
    g_string_append_printf (s, i ? " %02X" : "%02X", text[i]);
  if (len > NAME_HEX_MAX)
    g_string_append (s, " …");
  return g_string_free (s, FALSE);
}

static char *
dup_entry_name (MshedTableModel *self,
                guint            row)
{
  MshedModel *model = get_model (self);
  MshedNres *nres;
  const MshedNresEntry *e;
  gsize len = 0;

  if (model == NULL)
    return NULL;
  nres = mshed_model_get_nres (model);
  if (row >= mshed_nres_get_n_entries (nres))
    return NULL;
  e = mshed_nres_peek_entry (nres, row);
  while (len < MSHED_NRES_NAME_SIZE && e->name[len] != 0)
    len++;
  return mshed_cp1251_to_utf8 (e->name, len, NULL);
}

static char *
dup_text (MshedTableModel *self,
          guint            row,
          guint            column,
          gboolean         for_edit,
          gboolean        *is_none)
{
  const MshedTableColumn *c = column_at (self, column);
  guint8 scratch[MSHED_NRES_RECORD_SIZE];
  const guint8 *record;
  double value;

  if (is_none != NULL)
    *is_none = FALSE;
  if (c == NULL)
    return NULL;

  switch (c->kind)
    {
    case MSHED_COLUMN_NAME:
      return dup_name_text (self, row, FALSE);
    case MSHED_COLUMN_NAME_LENGTH:
      return dup_name_text (self, row, TRUE);
    case MSHED_COLUMN_NAME_HEX:
      return dup_name_hex (self, row);
    case MSHED_COLUMN_ENTRY_NAME:
      return dup_entry_name (self, row);
    case MSHED_COLUMN_DFM_TEXT:
    case MSHED_COLUMN_DFM_NAME:
    case MSHED_COLUMN_DFM_BIT:
    case MSHED_COLUMN_DFM_FRAME:
    case MSHED_COLUMN_DFM_JOINED:
      return _mshed_table_model_dfm_dup_text (self, c, row);
    case MSHED_COLUMN_DECODED:
      record = get_record (self, c->table, row, scratch);
      if (record == NULL)
        return NULL;
      return format_decoded (mshed_field_read (c->field, record) / c->field->divisor);
    case MSHED_COLUMN_FIELD:
    default:
      record = get_record (self, c->table, row, scratch);
      if (record == NULL)
        return NULL;
      value = mshed_field_read (c->field, record);
      if ((c->field->flags & MSHED_FIELD_FLAG_SENTINEL) && value == MSHED_NONE)
        {
          if (is_none != NULL)
            *is_none = TRUE;
          /* TRANSLATORS: the 0xFFFF sentinel: no slot, no parent; typing "none" also works */
          return g_strdup (for_edit ? "none" : C_("sentinel", "none"));
        }
      if (c->table == MSHED_TABLE_DIRECTORY && g_str_equal (c->field->name, "type") &&
          value > 0xFFFF)
        {
          guint32 v = (guint32) value;

          if (for_edit || !is_printable_fourcc (v))
            return g_strdup_printf ("0x%08X", v);
          return g_strdup_printf ("%c%c%c%c (0x%08X)", v & 0xff, (v >> 8) & 0xff,
                                  (v >> 16) & 0xff, (v >> 24) & 0xff, v);
        }
      return mshed_field_format (c->field, record);
    }
}

/**
 * mshed_table_model_dup_cell_text:
 *
 * Returns: (transfer full) (nullable): the text the cell shows
 */
char *
mshed_table_model_dup_cell_text (MshedTableModel *self,
                                 guint            row,
                                 guint            column,
                                 gboolean        *is_none)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), NULL);

  return dup_text (self, row, column, FALSE, is_none);
}

/**
 * mshed_table_model_dup_edit_text:
 *
 * Returns: (transfer full) (nullable): the text an editor starts with
 */
char *
mshed_table_model_dup_edit_text (MshedTableModel *self,
                                 guint            row,
                                 guint            column)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), NULL);

  return dup_text (self, row, column, TRUE, NULL);
}

/* What the user typed, made ready for mshed_field_parse(): the translated "none" becomes
 * "none", and a decimal comma becomes a dot for floating-point input. */
static char *
normalize_input (const MshedField *field,
                 gboolean          decimal,
                 const char       *text)
{
  char *s = g_strstrip (g_strdup (text));

  if (field != NULL && (field->flags & MSHED_FIELD_FLAG_SENTINEL) &&
      g_utf8_collate (s, C_("sentinel", "none")) == 0)
    {
      g_free (s);
      return g_strdup ("none");
    }
  if (decimal && strchr (s, '.') == NULL)
    {
      char *comma = strchr (s, ',');

      if (comma != NULL && strchr (comma + 1, ',') == NULL)
        *comma = '.';
    }
  return s;
}

static void
field_limits (MshedFieldType type,
              double        *min,
              double        *max)
{
  switch (type)
    {
    case MSHED_FIELD_U8:  *min = 0; *max = G_MAXUINT8; break;
    case MSHED_FIELD_I8:  *min = G_MININT8; *max = G_MAXINT8; break;
    case MSHED_FIELD_U16: *min = 0; *max = G_MAXUINT16; break;
    case MSHED_FIELD_I16: *min = G_MININT16; *max = G_MAXINT16; break;
    case MSHED_FIELD_U32: *min = 0; *max = G_MAXUINT32; break;
    case MSHED_FIELD_I32:
    case MSHED_FIELD_F32:
    default:              *min = G_MININT32; *max = G_MAXINT32; break;
    }
}

static gboolean
parse_decoded (const MshedField *field,
               const char       *text,
               double           *raw,
               GError          **error)
{
  g_autofree char *s = normalize_input (field, TRUE, text);
  g_autofree char *lo = NULL;
  g_autofree char *hi = NULL;
  char *end = NULL;
  double v, r, min, max;

  v = g_ascii_strtod (s, &end);
  if (*s == '\0' || end == NULL || *end != '\0' || !isfinite (v))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Field %s: “%s” is not a number (use a dot for decimals, e.g. 0.5)"),
                   field->name, text);
      return FALSE;
    }
  field_limits (field->type, &min, &max);
  r = round (v * field->divisor);
  if (r < min || r > max)
    {
      lo = format_decoded (min / field->divisor);
      hi = format_decoded (max / field->divisor);
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Field %s: %s is out of range %s…%s"), field->name, s, lo, hi);
      return FALSE;
    }
  *raw = r;
  return TRUE;
}

static gboolean
read_only_error (const MshedTableColumn *c,
                 GError                **error)
{
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
               _("Column %s is read-only"), c->label);
  return FALSE;
}

gboolean
mshed_table_model_check_cell_text (MshedTableModel *self,
                                   guint            column,
                                   const char      *text,
                                   GError         **error)
{
  const MshedTableColumn *c;
  double value;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  c = column_at (self, column);
  g_return_val_if_fail (c != NULL, FALSE);

  if (!c->editable)
    return read_only_error (c, error);

  switch (c->kind)
    {
    case MSHED_COLUMN_DECODED:
      return parse_decoded (c->field, text, &value, error);
    case MSHED_COLUMN_FIELD:
      {
        g_autofree char *s = normalize_input (c->field, c->field->type == MSHED_FIELD_F32,
                                              text);

        return mshed_field_parse (c->field, s, &value, error);
      }
    case MSHED_COLUMN_NAME:
      {
        g_autoptr(GBytes) bytes = mshed_utf8_to_cp1251 (text, error);

        return bytes != NULL;
      }
    case MSHED_COLUMN_ENTRY_NAME:
    case MSHED_COLUMN_NAME_LENGTH:
    case MSHED_COLUMN_NAME_HEX:
    default:
      return TRUE;
    }
}

gboolean
mshed_table_model_set_cell_text (MshedTableModel *self,
                                 guint            row,
                                 guint            column,
                                 const char      *text,
                                 GError         **error)
{
  const MshedTableColumn *c;
  guint8 scratch[MSHED_NRES_RECORD_SIZE];
  const guint8 *record;
  double value;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  c = column_at (self, column);
  g_return_val_if_fail (c != NULL, FALSE);

  if (self->document == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("No document is open"));
      return FALSE;
    }
  if (!c->editable)
    return read_only_error (c, error);

  switch (c->kind)
    {
    case MSHED_COLUMN_DECODED:
      if (!parse_decoded (c->field, text, &value, error))
        return FALSE;
      record = get_record (self, c->table, row, scratch);
      if (record != NULL && mshed_field_read (c->field, record) == value)
        return TRUE;
      return mshed_document_set_field (self->document, c->table, row, c->field->name, value,
                                       error);

    case MSHED_COLUMN_FIELD:
      {
        g_autofree char *s = normalize_input (c->field, c->field->type == MSHED_FIELD_F32,
                                              text);

        if (!mshed_field_parse (c->field, s, &value, error))
          return FALSE;
        record = get_record (self, c->table, row, scratch);
        if (record != NULL && mshed_field_read (c->field, record) == value &&
            (c->field->type != MSHED_FIELD_F32 || !signbit (value) ==
             !signbit (mshed_field_read (c->field, record))))
          return TRUE;
        if (self->dfm_table != MSHED_DFM_TABLE_NONE)
          return _mshed_table_model_dfm_set (self, c, row, s, error);
        return mshed_document_set_field_text (self->document, c->table, row, c->field->name,
                                              s, error);
      }

    case MSHED_COLUMN_NAME:
      return mshed_document_rename_node (self->document, row, text, error);

    case MSHED_COLUMN_DFM_TEXT:
    case MSHED_COLUMN_DFM_NAME:
    case MSHED_COLUMN_DFM_BIT:
      return _mshed_table_model_dfm_set (self, c, row, text, error);

    case MSHED_COLUMN_ENTRY_NAME:
      {
        g_autofree char *s = g_strstrip (g_strdup (text));
        g_autofree char *old = dup_entry_name (self, row);

        if (g_strcmp0 (old, s) == 0)
          return TRUE;
        return mshed_document_set_resource_name (self->document, row, s, error);
      }

    case MSHED_COLUMN_NAME_LENGTH:
    case MSHED_COLUMN_NAME_HEX:
    default:
      return read_only_error (c, error);
    }
}

gboolean
mshed_table_model_get_cell_value (MshedTableModel *self,
                                  guint            row,
                                  guint            column,
                                  double          *value)
{
  const MshedTableColumn *c;
  guint8 scratch[MSHED_NRES_RECORD_SIZE];
  const guint8 *record;
  guint32 len;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);

  c = column_at (self, column);
  if (c == NULL)
    return FALSE;

  switch (c->kind)
    {
    case MSHED_COLUMN_FIELD:
    case MSHED_COLUMN_DECODED:
      record = get_record (self, c->table, row, scratch);
      if (record == NULL)
        return FALSE;
      *value = mshed_field_read (c->field, record);
      if (c->kind == MSHED_COLUMN_DECODED)
        *value /= c->field->divisor;
      return TRUE;
    case MSHED_COLUMN_NAME_LENGTH:
      {
        MshedModel *model = get_model (self);
        const guint8 *text;

        if (model == NULL || !mshed_model_get_name_raw (model, row, &text, &len))
          return FALSE;
        *value = len;
        return TRUE;
      }
    case MSHED_COLUMN_NAME:
    case MSHED_COLUMN_NAME_HEX:
    case MSHED_COLUMN_ENTRY_NAME:
    default:
      return FALSE;
    }
}

/* The absolute vertex an index row points to: the batch that holds the index adds its
 * baseVertex. */
static guint
absolute_vertex (MshedTableModel *self,
                 guint            index_row,
                 guint            value)
{
  MshedModel *model = get_model (self);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  MshedBatch batch;

  for (guint i = 0; i < n; i++)
    if (mshed_model_get_batch (model, i, &batch) && index_row >= batch.index_start &&
        index_row - batch.index_start < batch.index_count)
      return (guint) MIN ((guint64) batch.base_vertex + value, G_MAXUINT);
  return value;
}

gboolean
mshed_table_model_get_reference (MshedTableModel *self,
                                 guint            row,
                                 guint            column,
                                 MshedTableId    *table,
                                 guint           *target)
{
  const MshedTableColumn *c;
  guint8 scratch[MSHED_NRES_RECORD_SIZE];
  const guint8 *record;
  double value;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);

  c = column_at (self, column);
  if (c != NULL && c->kind == MSHED_COLUMN_DFM_JOINED)
    return _mshed_table_model_dfm_joined_reference (self, row, table, target);
  if (c == NULL || c->field == NULL || c->field->ref == MSHED_TABLE_NONE)
    return FALSE;
  record = get_record (self, c->table, row, scratch);
  if (record == NULL)
    return FALSE;
  value = mshed_field_read (c->field, record);
  if ((c->field->flags & MSHED_FIELD_FLAG_SENTINEL) && value == MSHED_NONE)
    return FALSE;
  if (value < 0 || value > G_MAXUINT)
    return FALSE;

  *table = c->field->ref;
  *target = (guint) value;
  if (c->table == MSHED_TABLE_INDICES)
    *target = absolute_vertex (self, row, *target);
  return TRUE;
}

static const char *
type_name (MshedFieldType type)
{
  static const char *names[] = { "u8", "i8", "u16", "i16", "u32", "i32", "f32" };

  return (guint) type < G_N_ELEMENTS (names) ? names[type] : "?";
}

/**
 * mshed_table_model_dup_input_hint:
 *
 * Returns: (transfer full): what the column accepts, for the editor
 */
char *
mshed_table_model_dup_input_hint (MshedTableModel *self,
                                  guint            column)
{
  const MshedTableColumn *c;
  GString *s;
  double min, max;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), NULL);

  c = column_at (self, column);
  g_return_val_if_fail (c != NULL, NULL);

  s = g_string_new (NULL);
  switch (c->kind)
    {
    case MSHED_COLUMN_FIELD:
      field_limits (c->field->type, &min, &max);
      if (c->field->type == MSHED_FIELD_F32)
        g_string_append (s, _("32-bit float (a dot for decimals)"));
      else if (c->field->flags & MSHED_FIELD_FLAG_HEX)
        /* TRANSLATORS: e.g. "u16, hexadecimal 0x… or decimal" */
        g_string_append_printf (s, _("%s, hexadecimal 0x… or decimal"),
                                type_name (c->field->type));
      else
        g_string_append_printf (s, "%s, %.0f…%.0f", type_name (c->field->type), min, max);
      if (c->field->flags & MSHED_FIELD_FLAG_SENTINEL)
        g_string_append (s, _(", or “none”"));
      break;
    case MSHED_COLUMN_DECODED:
      {
        g_autofree char *lo = NULL;
        g_autofree char *hi = NULL;

        field_limits (c->field->type, &min, &max);
        lo = format_decoded (min / c->field->divisor);
        hi = format_decoded (max / c->field->divisor);
        /* TRANSLATORS: e.g. "i8 ÷ 127: -1.00787…1.0" */
        g_string_append_printf (s, _("%s ÷ %g: %s…%s"), type_name (c->field->type),
                                c->field->divisor, lo, hi);
      }
      break;
    case MSHED_COLUMN_NAME:
      g_string_append (s, _("Text, stored as Windows-1251 (Latin and Cyrillic)"));
      break;
    case MSHED_COLUMN_ENTRY_NAME:
      g_string_append (s, _("Entry name, up to 35 bytes"));
      break;
    case MSHED_COLUMN_DFM_TEXT:
      g_string_append (s, _("Object name, up to 63 bytes of Windows-1251"));
      break;
    case MSHED_COLUMN_DFM_NAME:
      g_string_append (s, _("Node name, unique among its siblings"));
      break;
    case MSHED_COLUMN_DFM_BIT:
      g_string_append (s, _("A check box: click or Space flips it; 1 or 0 when typed"));
      break;
    case MSHED_COLUMN_NAME_LENGTH:
    case MSHED_COLUMN_NAME_HEX:
    default:
      g_string_append (s, _("Read-only"));
      break;
    }
  return g_string_free (s, FALSE);
}
