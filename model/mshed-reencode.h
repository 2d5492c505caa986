/* mshed-reencode.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Re-encoding a model from its decoded fields, for `mshed-cli roundtrip` and the round-trip
 * tests. Every record of every typed table (nodes, header + slots, positions, normals, UVs,
 * indices, triangle descriptors, keys, batches, the extra streams, the frame map) is decoded
 * field by field through the schema (mshed_field_read) and written into fresh zeroed bytes
 * with the editor's field writer (mshed_field_write); Res10 names are decoded to their length,
 * their text (to UTF-8 and back through the Windows-1251 codec the rename command uses) and
 * their terminator. What is not a typed table (Res9, Res17, Res20, legacy 24-byte nodes, bytes
 * after the last whole record, archive entries that are not models) is copied. The container
 * is written by the NRes writer. Bytes identical to the file mean that no field encoder, and
 * no gap in the schema, loses anything.
 */
#pragma once

#include <glib.h>

#include "mshed-model.h"

G_BEGIN_DECLS

/* A planted encoder bug, for tests: while encoding field @field of record @row of @table, the
 * encoder flips the lowest bit of the field's first byte. Res10 names have the fields "len",
 * "text" (its first byte) and "nul". */
typedef struct {
  MshedTableId  table;  /* MSHED_TABLE_NONE: no fault */
  guint         row;
  const char   *field;
} MshedReencodeFault;

gboolean  mshed_reencode_fault_parse (const char               *text,
                                      MshedReencodeFault       *fault,
                                      GError                  **error);

GBytes   *mshed_reencode_resource    (MshedModel               *model,
                                      guint                     index,
                                      const MshedReencodeFault *fault);
GBytes   *mshed_reencode_model       (MshedModel               *model,
                                      const MshedReencodeFault *fault);
GBytes   *mshed_reencode_bytes       (GBytes                   *bytes,
                                      gboolean                  nested,
                                      const MshedReencodeFault *fault,
                                      GError                  **error);

char     *mshed_reencode_locate      (GBytes                   *bytes,
                                      gboolean                  nested,
                                      guint64                   offset);

G_END_DECLS
