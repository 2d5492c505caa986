/* mshed-unknown-table.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pattern hunting in the fields nobody understands yet: for one table (nodes, slots,
 * normals, triangle descriptors, batches, Res15/16/18), one column per unknown field across
 * all records (u16 fields also as bits, u32 fields also read as f32, selPacked's unknown
 * bits 6–15 on their own), sortable, with a per-column summary (distinct values, min, max,
 * constant or not, most common value) and CSV export.
 *
 * Signals:
 *  - record-activated (guint row): a row was activated (the app shows it in the hex view).
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"

G_BEGIN_DECLS

typedef struct {
  guint    n_values;
  guint    n_distinct;
  guint    n_finite;        /* values with a number (not NaN or infinite) */
  double   min;             /* as the column reads its values (signed, unsigned or float), */
  double   max;             /* over the finite ones; meaningless when n_finite is 0 */
  gboolean constant;
  guint32  most_common;     /* raw bits of the most frequent value */
  guint    most_common_count;
} MshedUnknownSummary;

#define MSHED_TYPE_UNKNOWN_TABLE (mshed_unknown_table_get_type ())
G_DECLARE_FINAL_TYPE (MshedUnknownTable, mshed_unknown_table, MSHED, UNKNOWN_TABLE, GtkWidget)

GtkWidget    *mshed_unknown_table_new             (void);
void          mshed_unknown_table_set_document    (MshedUnknownTable   *self,
                                                   MshedDocument       *document);
MshedDocument *mshed_unknown_table_get_document   (MshedUnknownTable   *self);
/* FALSE (nothing changed) for a table without unknown fields. */
gboolean      mshed_unknown_table_set_table       (MshedUnknownTable   *self,
                                                   MshedTableId         table);
MshedTableId  mshed_unknown_table_get_table       (MshedUnknownTable   *self);
/* Whether @table has unknown fields (the tables the picker offers). */
gboolean      mshed_unknown_table_has_unknowns    (MshedTableId         table);

guint         mshed_unknown_table_get_n_rows      (MshedUnknownTable   *self);
/* Value columns, without the leading record-number column. */
guint         mshed_unknown_table_get_n_columns   (MshedUnknownTable   *self);
const char   *mshed_unknown_table_get_column_name (MshedUnknownTable   *self,
                                                   guint                column);
gboolean      mshed_unknown_table_get_summary     (MshedUnknownTable   *self,
                                                   const char          *column,
                                                   MshedUnknownSummary *out);
/* The minimum and maximum as the summary shows them ("—" when there is no finite value). */
gboolean      mshed_unknown_table_format_range    (MshedUnknownTable   *self,
                                                   const char          *column,
                                                   char               **min,
                                                   char               **max);
/* Sorts by @column ("#" for the record number); NULL restores record order. */
void          mshed_unknown_table_sort            (MshedUnknownTable   *self,
                                                   const char          *column,
                                                   GtkSortType          order);

/* The rows in the order shown, values as shown; a header line first. */
char         *mshed_unknown_table_to_csv          (MshedUnknownTable   *self);
gboolean      mshed_unknown_table_export_csv      (MshedUnknownTable   *self,
                                                   const char          *path,
                                                   GError             **error);

G_END_DECLS
