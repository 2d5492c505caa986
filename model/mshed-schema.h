/* mshed-schema.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One description of every fixed-stride table and its fields (docs/msh.md §4). The CLI dump, the
 * document's set-field command, the grids, the hex overlays and the unknown-field table all
 * read it, so a field is named and typed in exactly one place.
 */
#pragma once

#include <glib.h>

#include "mshed-model-types.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_FIELD_U8,
  MSHED_FIELD_I8,
  MSHED_FIELD_U16,
  MSHED_FIELD_I16,
  MSHED_FIELD_U32,
  MSHED_FIELD_I32,
  MSHED_FIELD_F32,
} MshedFieldType;

typedef enum {
  MSHED_FIELD_FLAG_NONE     = 0,
  MSHED_FIELD_FLAG_UNKNOWN  = 1 << 0,  /* meaning not known: preserve, show in the hex view */
  MSHED_FIELD_FLAG_SENTINEL = 1 << 1,  /* 0xFFFF means "none" */
  MSHED_FIELD_FLAG_HEX      = 1 << 2,  /* show as hexadecimal (flags) */
  MSHED_FIELD_FLAG_DERIVED  = 1 << 3,  /* recomputable from other data (bounds, normals) */
} MshedFieldFlags;

typedef struct {
  const char     *name;       /* stable, ASCII, used in CLI syntax and diagnostics */
  guint           offset;     /* byte offset inside the record */
  MshedFieldType  type;
  MshedFieldFlags flags;
  MshedTableId    ref;        /* table the value indexes, or MSHED_TABLE_NONE */
  double          divisor;    /* decoded value = raw / divisor (0: no decoding) */
  const char     *blurb;      /* translatable (N_) description */
} MshedField;

typedef struct {
  MshedTableId      id;
  const char       *name;        /* "nodes", "slots", ... (CLI names) */
  const char       *title;       /* translatable (N_) */
  guint32           res_type;    /* NRes type of the resource that holds it */
  guint             header_size; /* bytes before the first record (Res2: 140) */
  guint             stride;      /* record size; 0 for variable (names, directory) */
  const MshedField *fields;
  guint             n_fields;
} MshedTableInfo;

const MshedTableInfo *mshed_schema_get_table      (MshedTableId    id);
const MshedTableInfo *mshed_schema_find_table     (const char     *name);
const MshedTableInfo *mshed_schema_table_for_type (guint32         res_type);
const MshedField     *mshed_schema_find_field     (const MshedTableInfo *table,
                                                   const char     *name);
guint                 mshed_field_type_size       (MshedFieldType  type);

/* Raw field values travel as doubles, exactly: every integer type up to u32 and every float
 * bit pattern, NaN payloads included (mshed_field_write gives back the bytes read). */
double                mshed_field_read            (const MshedField *field,
                                                   const guint8   *record);
void                  mshed_field_write           (const MshedField *field,
                                                   guint8         *record,
                                                   double          value);
gboolean              mshed_field_parse           (const MshedField *field,
                                                   const char     *text,
                                                   double         *value,
                                                   GError        **error);
char                 *mshed_field_format          (const MshedField *field,
                                                   const guint8   *record);

G_END_DECLS
