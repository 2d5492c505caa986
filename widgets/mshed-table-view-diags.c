/* mshed-table-view-diags.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The document's diagnostics by table and record, for the grid's cells: which cells to mark
 * and what their tooltips say.
 */
#define G_LOG_DOMAIN "mshed-table-view"

#include "config.h"

#include "mshed-table-view-private.h"

typedef struct {
  MshedSeverity severity;
  char         *field;     /* NULL: the whole record */
  char         *message;
} DiagEntry;

static void
diag_entry_free (gpointer data)
{
  DiagEntry *e = data;

  g_free (e->field);
  g_free (e->message);
  g_free (e);
}

static guint64
diag_key (MshedTableId table,
          guint64      record)
{
  return ((guint64) (table + 1) << 40) | (record & G_GUINT64_CONSTANT (0xFFFFFFFFFF));
}

static void
add_diag (MshedTableView        *self,
          const MshedDiagnostic *d,
          MshedTableId           table,
          guint                  row,
          const char            *field)
{
  guint64 key = diag_key (table, row);
  GPtrArray *list = g_hash_table_lookup (self->diags, &key);
  DiagEntry *e;

  if (list == NULL)
    {
      guint64 *k = g_new (guint64, 1);

      *k = key;
      list = g_ptr_array_new_with_free_func (diag_entry_free);
      g_hash_table_insert (self->diags, k, list);
    }
  e = g_new0 (DiagEntry, 1);
  e->severity = d->severity;
  e->field = g_strdup (field);
  e->message = g_strdup (d->message);
  g_ptr_array_add (list, e);
}

/* A problem with a strip (list) entry marks the corner of each triangle drawn with it. */
static void
add_triangle_diags (MshedTableView        *self,
                    const MshedDiagnostic *d)
{
  guint rows[3], corners[3];
  guint n = mshed_table_model_diagnostic_triangles (self->model, d, rows, corners);

  for (guint i = 0; i < n; i++)
    {
      char field[4] = { 'i', (char) ('0' + corners[i]), 0, 0 };

      add_diag (self, d, self->table, rows[i], field);
    }
}

static void
rebuild_diags (MshedTableView *self)
{
  const MshedDiagnostics *diags;

  self->diags_dirty = FALSE;
  g_hash_table_remove_all (self->diags);
  if (self->document == NULL)
    return;
  diags = mshed_document_get_diagnostics (self->document);
  if (diags == NULL)
    return;

  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);
      guint row = 0;

      if (d->severity == MSHED_SEVERITY_INFO || d->table < 0 || d->record < 0)
        continue;
      if (self->table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES))
        add_triangle_diags (self, d);
      else if (mshed_table_model_diagnostic_row (self->model, d, &row))
        add_diag (self, d, d->table, row, d->field);
    }
}

GPtrArray *
_mshed_table_view_lookup_diags (MshedTableView *self,
                                MshedTableId    table,
                                guint           record)
{
  guint64 key = diag_key (table, record);

  if (self->diags_dirty)
    rebuild_diags (self);
  return g_hash_table_lookup (self->diags, &key);
}

/* Collects the messages of @list that concern @field (NULL: all of them) and returns the
 * highest severity found, or -1. */
int
_mshed_table_view_collect_diags (GPtrArray  *list,
                                 const char *field,
                                 GString    *messages)
{
  int severity = -1;

  if (list == NULL)
    return -1;
  for (guint i = 0; i < list->len; i++)
    {
      DiagEntry *e = g_ptr_array_index (list, i);

      if (field != NULL && (e->field == NULL || g_ascii_strcasecmp (e->field, field) != 0))
        continue;
      if (messages->len > 0)
        g_string_append_c (messages, '\n');
      g_string_append (messages, e->message);
      severity = MAX (severity, (int) e->severity);
    }
  return severity;
}
