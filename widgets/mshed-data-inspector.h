/* mshed-data-inspector.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The values at the hex view's cursor, little-endian: u8, i8, u16, i16, u32, i32, f32, the
 * bytes in hex and the byte in binary; and, where the cursor sits in a schema field, the
 * field's value and the spec's decoding (normal ÷127, UV ÷1024, face normal ÷32767,
 * quaternion ÷32767, selPacked selectors). Every row is editable: Enter commits through the
 * document (one undo step); input out of range is refused with the reason.
 *
 * Row ids (for the API and tests): "u8", "i8", "u16", "i16", "u32", "i32", "f32", "hex",
 * "binary", "field", "decoded", "selectors".
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-hex-view.h"

G_BEGIN_DECLS

#define MSHED_TYPE_DATA_INSPECTOR (mshed_data_inspector_get_type ())
G_DECLARE_FINAL_TYPE (MshedDataInspector, mshed_data_inspector, MSHED, DATA_INSPECTOR, GtkWidget)

GtkWidget    *mshed_data_inspector_new           (void);
void          mshed_data_inspector_set_hex_view  (MshedDataInspector *self,
                                                  MshedHexView       *view);
MshedHexView *mshed_data_inspector_get_hex_view  (MshedDataInspector *self);

/* The position line: the cursor's file offset and the resource it is in. */
const char   *mshed_data_inspector_get_location  (MshedDataInspector *self);
/* The text a row shows now; NULL when the row is hidden (no such field at the cursor) or
 * not available (too few bytes left). */
const char   *mshed_data_inspector_get_value     (MshedDataInspector *self,
                                                  const char         *row);
/* What pressing Enter in a row does. */
gboolean      mshed_data_inspector_commit        (MshedDataInspector *self,
                                                  const char         *row,
                                                  const char         *text,
                                                  GError            **error);

G_END_DECLS
