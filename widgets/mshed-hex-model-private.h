/* mshed-hex-model-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "mshed-hex-model.h"

G_BEGIN_DECLS

typedef struct {
  gsize start;
  gsize end;
  gint  res_index;
} Segment;

struct _MshedHexModel {
  GObject        parent_instance;

  MshedDocument *document;

  gint           res_index;     /* MSHED_HEX_SOURCE_FILE or a directory index */
  guint32        res_type;      /* followed through directory changes */
  gsize          win_start;
  gsize          win_length;    /* G_MAXSIZE: to the end */
  MshedUtfNode  *utf_node;      /* MSHED_HEX_SOURCE_UTF: the UTF file shown */

  /* the serialized model file and its directory (built lazily, dropped on change) */
  GBytes        *file_bytes;
  GArray        *segments;      /* Segment, sorted by start */
  guint64        dir_offset;
  guint          n_entries;
  gboolean       file_valid;
};

/* mshed-hex-model-utf.c: a UTF file's payload as the source */
const guint8 *_mshed_hex_model_utf_data    (MshedHexModel   *self,
                                            gsize           *size);
gboolean      _mshed_hex_model_utf_alive   (MshedHexModel   *self);
void          _mshed_hex_model_utf_overlay (MshedHexModel   *self,
                                            gsize            offset,
                                            MshedHexOverlay *out);
gboolean      _mshed_hex_model_utf_start   (MshedHexModel   *self,
                                            guint64         *start);
char         *_mshed_hex_model_utf_label   (MshedHexModel   *self);

G_END_DECLS
