/* mshed-model-types.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MSHED_NONE 0xFFFFu            /* u16 sentinel: no slot, no parent, no map */
#define MSHED_NRES_MAGIC 0x7365524Eu  /* "NRes" */
#define MSHED_NRES_VERSION 0x100u
#define MSHED_NRES_HEADER_SIZE 16u
#define MSHED_NRES_RECORD_SIZE 64u
#define MSHED_NRES_NAME_SIZE 36u
#define MSHED_RES2_HEADER_SIZE 140u
#define MSHED_N_LODS 3
#define MSHED_N_GROUPS 5
#define MSHED_N_SLOT_CELLS 15

typedef struct _MshedNres MshedNres;
typedef struct _MshedNresEntry MshedNresEntry;
typedef struct _MshedModel MshedModel;
typedef struct _MshedDiagnostics MshedDiagnostics;

/* How to treat a violated invariant. */
typedef enum {
  MSHED_MODE_STRICT,
  MSHED_MODE_TOLERANT,
} MshedMode;

typedef enum {
  MSHED_SEVERITY_INFO,
  MSHED_SEVERITY_WARNING,
  MSHED_SEVERITY_ERROR,
} MshedSeverity;

/* Every typed table of a model. The order is stable: it indexes the schema. */
typedef enum {
  MSHED_TABLE_NONE = -1,
  MSHED_TABLE_NODES = 0,     /* Res1, Node38 */
  MSHED_TABLE_HEADER,        /* Res2 first 140 bytes, one record */
  MSHED_TABLE_SLOTS,         /* Res2 after the header, Slot68 */
  MSHED_TABLE_POSITIONS,     /* Res3 */
  MSHED_TABLE_NORMALS,       /* Res4 */
  MSHED_TABLE_UVS,           /* Res5 */
  MSHED_TABLE_INDICES,       /* Res6 */
  MSHED_TABLE_TRIS,          /* Res7, TriDesc16 */
  MSHED_TABLE_KEYS,          /* Res8, AnimKey24 */
  MSHED_TABLE_NAMES,         /* Res10, variable records */
  MSHED_TABLE_BATCHES,       /* Res13, Batch20 */
  MSHED_TABLE_EXTRA15,       /* Res15, 8 raw bytes */
  MSHED_TABLE_EXTRA16,       /* Res16, 8 raw bytes */
  MSHED_TABLE_EXTRA18,       /* Res18, 4 raw bytes */
  MSHED_TABLE_MAP,           /* Res19, u16 words */
  MSHED_TABLE_DIRECTORY,     /* the NRes directory itself */
  MSHED_N_TABLES
} MshedTableId;

G_END_DECLS
