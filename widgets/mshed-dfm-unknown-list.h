/* mshed-dfm-unknown-list.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Unknown Fields panel of a deformable model: one row per field of unknown meaning in the
 * DFM tree (mshed_dfm_schema_collect_unknown: fields the schema marks unknown, and the
 * non-zero padding of Cons names), with its node path, record, field, offset and value in
 * hexadecimal.
 *
 * Signals:
 *  - field-activated (MshedUtfNode *node, guint offset, guint size): a row was activated;
 *    the bytes are @offset … @offset + @size − 1 of the node's payload (the app shows them in
 *    the hex view).
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_DFM_UNKNOWN_PATH,
  MSHED_DFM_UNKNOWN_RECORD,
  MSHED_DFM_UNKNOWN_FIELD,
  MSHED_DFM_UNKNOWN_OFFSET,
  MSHED_DFM_UNKNOWN_VALUE,
  MSHED_DFM_UNKNOWN_N_COLUMNS
} MshedDfmUnknownColumn;

#define MSHED_TYPE_DFM_UNKNOWN_LIST (mshed_dfm_unknown_list_get_type ())
G_DECLARE_FINAL_TYPE (MshedDfmUnknownList, mshed_dfm_unknown_list, MSHED, DFM_UNKNOWN_LIST,
                      GtkWidget)

GtkWidget *mshed_dfm_unknown_list_new          (void);
/* A document without a deformable model lists nothing. */
void       mshed_dfm_unknown_list_set_document (MshedDfmUnknownList *self,
                                                MshedDocument       *document);
guint      mshed_dfm_unknown_list_get_n_rows   (MshedDfmUnknownList *self);
/* (transfer full) (nullable): the text of a cell, as shown */
char      *mshed_dfm_unknown_list_dup_text     (MshedDfmUnknownList *self,
                                                guint                row,
                                                MshedDfmUnknownColumn column);
/* As activating row @row (Enter, double click). */
void       mshed_dfm_unknown_list_activate_row (MshedDfmUnknownList *self,
                                                guint                row);

G_END_DECLS
