/* mshed-table-model-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "mshed-table-model.h"

G_BEGIN_DECLS

#define MAX_LINKED 8

struct _MshedTableModel
{
  GObject        parent_instance;

  MshedDocument *document;
  gulong         changed_id;
  MshedTableId   table;
  MshedTableId   linked[MAX_LINKED];  /* tables whose row i shows on row i */
  guint          n_linked;

  guint          n_items;
  guint          reconcile_id;
  GHashTable    *live;                /* index -> MshedTableRow (weak) */
  guint64        n_created;

  GArray        *columns;             /* MshedTableColumn */
  /* a DFM table (mshed-table-model-dfm.c): MSHED_DFM_TABLE_NONE for the MSH tables */
  MshedDfmTable  dfm_table;
  guint          dfm_a;               /* level, part or bone; b: group (docs/dfm.md §2) */
  guint          dfm_b;
  gboolean       per_scope;           /* one row per bone (part, material), record 0 each */
  GPtrArray     *strings;             /* titles and ids built at run time */
};

/* mshed-table-model.c */
void          _mshed_table_model_reset          (MshedTableModel        *self);
void          _mshed_table_model_refresh_range  (MshedTableModel        *self,
                                                 guint                   first,
                                                 guint                   n);
void          _mshed_table_model_add_fields     (MshedTableModel        *self,
                                                 MshedTableId            table,
                                                 const MshedField       *fields,
                                                 guint                   n_fields,
                                                 gboolean                unknown_raw);
void          _mshed_table_model_add_special    (MshedTableModel        *self,
                                                 MshedColumnKind         kind,
                                                 MshedTableId            table,
                                                 const char             *id,
                                                 const char             *title,
                                                 const char             *blurb,
                                                 guint                   width,
                                                 gboolean                editable,
                                                 gboolean                numeric);

/* mshed-table-model-dfm.c: the DFM tables */
void          _mshed_table_model_dfm_init       (MshedTableModel        *self);
void          _mshed_table_model_dfm_build_columns (MshedTableModel     *self);
MshedDerived  _mshed_table_model_dfm_stale_mask (MshedTableId            table);
guint         _mshed_table_model_dfm_count_rows (MshedTableModel        *self);
const guint8 *_mshed_table_model_dfm_record     (MshedTableModel        *self,
                                                 MshedDfmTable           table,
                                                 guint                   row);
void          _mshed_table_model_dfm_changed    (MshedTableModel        *self,
                                                 const MshedChange      *change,
                                                 guint                   new_n);
char         *_mshed_table_model_dfm_dup_text   (MshedTableModel        *self,
                                                 const MshedTableColumn *column,
                                                 guint                   row);
gboolean      _mshed_table_model_dfm_joined_reference (MshedTableModel  *self,
                                                 guint                   row,
                                                 MshedTableId           *table,
                                                 guint                  *target);
gboolean      _mshed_table_model_dfm_set        (MshedTableModel        *self,
                                                 const MshedTableColumn *column,
                                                 guint                   row,
                                                 const char             *text,
                                                 GError                **error);

/* mshed-table-model-dfm-tris.c: the unrolled Triangles table of a face group */
MshedUtfNode *_mshed_table_model_tris_node      (MshedTableModel        *self,
                                                 gboolean               *strip);
guint         _mshed_table_model_tris_count     (MshedTableModel        *self);
const guint8 *_mshed_table_model_tris_record    (MshedTableModel        *self,
                                                 guint                   row);
gboolean      _mshed_table_model_tris_set       (MshedTableModel        *self,
                                                 const MshedTableColumn *column,
                                                 guint                   row,
                                                 const char             *text,
                                                 GError                **error);

G_END_DECLS
