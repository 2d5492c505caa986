/* mshed-hex-model.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bytes behind MshedHexView, without any GTK: a source (one resource payload, a range of
 * it, or the whole serialized model file), the meaning of every byte (field overlays from the
 * schema), the mapping between view offsets and resource offsets, length-checked edits that go
 * through mshed_document_replace_bytes(), and byte-pattern search.
 *
 * View offsets are offsets inside the source: payload offsets for a resource, model-file
 * offsets for the whole file. They do not move when the source is limited to a range. What
 * the user sees are file offsets (mshed_hex_model_to_file_offset()).
 */
#pragma once

#include <glib-object.h>

#include "mshed-document.h"
#include "mshed-schema.h"

G_BEGIN_DECLS

/* What a byte is. */
typedef enum {
  MSHED_HEX_OVERLAY_NONE,       /* padding, alignment gaps: belongs to nothing */
  MSHED_HEX_OVERLAY_KNOWN,      /* a field whose meaning the spec gives */
  MSHED_HEX_OVERLAY_UNKNOWN,    /* unknown field, opaque resource, legacy node record, trailing
                                 * bytes after the last whole record */
  MSHED_HEX_OVERLAY_CONTAINER,  /* the NRes header and directory (whole-file view) */
} MshedHexOverlayKind;

/* The span of bytes one byte belongs to, and what it means. */
typedef struct {
  MshedHexOverlayKind kind;
  gint                res_index;  /* directory index of the payload, -1 outside any payload */
  guint32             res_type;   /* its NRes type, 0 when none */
  MshedTableId        table;      /* typed table, MSHED_TABLE_DIRECTORY for directory records,
                                   * MSHED_TABLE_NONE for opaque payloads and the file header */
  gint64              record;     /* record index in @table, -1 when none */
  const MshedField   *field;      /* schema field, NULL when the span is not a schema field */
  const char         *label;      /* field name or a fixed (untranslated) label such as "len",
                                   * "text", "name", "magic", "opaque", "padding" */
  gsize               start;      /* view offset of the span's first byte */
  gsize               length;     /* bytes in the span */
  guint               color;      /* palette slot: the field's position in its record */
} MshedHexOverlay;

typedef enum {
  MSHED_HEX_SEARCH_HEX,   /* "DE AD be ef", "DEADBEEF", "?" or "??" matches any byte */
  MSHED_HEX_SEARCH_TEXT,  /* Windows-1251 text, as stored in node names */
  MSHED_HEX_SEARCH_U8,
  MSHED_HEX_SEARCH_I8,
  MSHED_HEX_SEARCH_U16,
  MSHED_HEX_SEARCH_I16,
  MSHED_HEX_SEARCH_U32,
  MSHED_HEX_SEARCH_I32,
  MSHED_HEX_SEARCH_F32,
} MshedHexSearchKind;

typedef enum {
  MSHED_HEX_COPY_HEX,      /* "DE AD BE EF" */
  MSHED_HEX_COPY_C_ARRAY,  /* "static const unsigned char data[4] = {\n  0xDE, ...\n};" */
  MSHED_HEX_COPY_TEXT,     /* printable bytes, '.' for the others */
} MshedHexCopyFormat;

#define MSHED_HEX_SOURCE_FILE (-1)
#define MSHED_HEX_SOURCE_UTF  (-2)  /* a file of a UTF document (mshed_hex_model_set_utf_node) */

#define MSHED_TYPE_HEX_MODEL (mshed_hex_model_get_type ())
G_DECLARE_FINAL_TYPE (MshedHexModel, mshed_hex_model, MSHED, HEX_MODEL, GObject)

MshedHexModel *mshed_hex_model_new              (void);
void           mshed_hex_model_set_document     (MshedHexModel      *self,
                                                 MshedDocument      *document);
MshedDocument *mshed_hex_model_get_document     (MshedHexModel      *self);

/* @res_index: a directory index, or MSHED_HEX_SOURCE_FILE for the whole model file.
 * @length G_MAXSIZE: up to the end (the window then follows size changes). The window is
 * clamped to the source; FALSE (and nothing changed) when @res_index does not exist. */
gboolean       mshed_hex_model_set_source       (MshedHexModel      *self,
                                                 gint                res_index,
                                                 gsize               start,
                                                 gsize               length);
gint           mshed_hex_model_get_res_index    (MshedHexModel      *self);
/* The payload of UTF file @node of the document's tree (docs/utf.md) as the source, with the
 * DFM field overlays when it is a typed DFM node; edits go through
 * mshed_document_replace_payload_bytes() and may change its length. FALSE (nothing changed)
 * for a directory or a node outside the tree. */
gboolean       mshed_hex_model_set_utf_node     (MshedHexModel      *self,
                                                 MshedUtfNode       *node);
/* (transfer none) (nullable): the UTF file shown, NULL for other sources */
MshedUtfNode  *mshed_hex_model_get_utf_node     (MshedHexModel      *self);
gboolean       mshed_hex_model_is_whole         (MshedHexModel      *self);
/* Size of the whole source (payload or file). */
gsize          mshed_hex_model_get_size         (MshedHexModel      *self);
/* The shown window [start, end) of view offsets. */
void           mshed_hex_model_get_window       (MshedHexModel      *self,
                                                 gsize              *start,
                                                 gsize              *end);

/* The document changed: drop cached bytes and mappings, re-clamp the window, follow the
 * resource when entries were inserted or removed before it. Returns FALSE when the resource
 * shown is gone (the model then shows the whole file). */
gboolean       mshed_hex_model_invalidate       (MshedHexModel      *self);
/* TRUE when @change touches the bytes this model shows. */
gboolean       mshed_hex_model_affected_by      (MshedHexModel      *self,
                                                 const MshedChange  *change);

/* Bytes of the source (not limited by the window). (transfer none), valid until the next
 * document change; NULL when @offset is past the end. */
const guint8  *mshed_hex_model_peek             (MshedHexModel      *self,
                                                 gsize               offset,
                                                 gsize              *available);
gsize          mshed_hex_model_read             (MshedHexModel      *self,
                                                 gsize               offset,
                                                 guint8             *buffer,
                                                 gsize               n);

gboolean       mshed_hex_model_get_overlay      (MshedHexModel      *self,
                                                 gsize               offset,
                                                 MshedHexOverlay    *out);
/* (transfer full): "Slots · record 7 · unk30" style, translated */
char          *mshed_hex_overlay_describe       (const MshedHexOverlay *overlay);
/* (transfer full) (nullable): the field's value as the grids show it, decoded value added */
char          *mshed_hex_model_format_value     (MshedHexModel      *self,
                                                 const MshedHexOverlay *overlay);

/* View offset -> (resource, payload offset). FALSE outside every payload (file header,
 * directory, padding): then *res_index is -1 and *res_offset the view offset. */
gboolean       mshed_hex_model_to_resource      (MshedHexModel      *self,
                                                 gsize               offset,
                                                 gint               *res_index,
                                                 gsize              *res_offset);
/* Model-file offset -> (resource, payload offset) through the directory's data offsets. */
gboolean       mshed_hex_model_file_to_resource (MshedHexModel      *self,
                                                 guint64             file_offset,
                                                 gint               *res_index,
                                                 gsize              *res_offset);
/* Resource offset -> view offset (G_MAXSIZE when the source does not hold it). */
gsize          mshed_hex_model_from_resource    (MshedHexModel      *self,
                                                 gint                res_index,
                                                 gsize               res_offset);

/* File offsets: the offset in the file on disk, the one convention every view shows (the
 * address column, the status line, go to offset, the data inspector, Problems, mshed-cli
 * validate and dump). A model nested in an archive (ARCHIVE:ENTRY) starts at
 * mshed_hex_model_get_base_offset() in its file (the outer entry's data offset); a loose
 * model at 0. */
guint64        mshed_hex_model_get_base_offset  (MshedHexModel      *self);
/* Bytes of the model file (the nested model's own bytes for ARCHIVE:ENTRY). */
gsize          mshed_hex_model_get_file_size    (MshedHexModel      *self);
/* View offset -> file offset (G_MAXUINT64 without a document). */
guint64        mshed_hex_model_to_file_offset   (MshedHexModel      *self,
                                                 gsize               offset);
/* File offset -> view offset of the source shown (not limited by the window); G_MAXSIZE when
 * the source does not hold that byte. */
gsize          mshed_hex_model_from_file_offset (MshedHexModel      *self,
                                                 guint64             file_offset);
/* (transfer full) (nullable): "File offset 0x000001CC (460)", then the offset inside the
 * resource and, for a nested model, inside the model: what a tooltip says about a byte. */
char          *mshed_hex_model_describe_offset  (MshedHexModel      *self,
                                                 gsize               offset);
/* The same for a file offset of @document's file (a diagnostic's offset). */
char          *mshed_hex_describe_file_offset   (MshedDocument      *document,
                                                 guint64             file_offset);

/* Whether a byte is editable at all, and whether the payload it lies in may change length
 * (Res9, Res17, Res20 and unknown types; not inside a limited window). */
gboolean       mshed_hex_model_can_edit         (MshedHexModel      *self,
                                                 gsize               offset,
                                                 GError            **error);
gboolean       mshed_hex_model_can_resize       (MshedHexModel      *self,
                                                 gsize               offset);
/* One document command: replaces @old_length bytes at view offset @offset by @bytes.
 * Refused (FALSE, nothing changed) for the NRes header and directory, for ranges that cross
 * a payload boundary, and for length changes of fixed-stride resources. */
gboolean       mshed_hex_model_replace          (MshedHexModel      *self,
                                                 gsize               offset,
                                                 gsize               old_length,
                                                 GBytes             *bytes,
                                                 GError            **error);

/* Search inside the window. @mask (nullable) bytes of 0 are wildcards. Wraps around. */
gboolean       mshed_hex_model_find             (MshedHexModel      *self,
                                                 const guint8       *pattern,
                                                 const guint8       *mask,
                                                 gsize               length,
                                                 gsize               from,
                                                 gboolean            backwards,
                                                 gsize              *found);

/* Helpers shared by the view, the inspector and the tests ------------------------------ */

/* Parses what the user typed into the bytes to look for. */
gboolean       mshed_hex_parse_pattern          (MshedHexSearchKind  kind,
                                                 const char         *text,
                                                 GByteArray        **pattern,
                                                 GByteArray        **mask,
                                                 GError            **error);
/* Parses "DE AD BE EF" / "deadbeef" / "0xDE, 0xAD" (C array body) into bytes. */
GBytes        *mshed_hex_parse_bytes            (const char         *text,
                                                 GError            **error);
char          *mshed_hex_format_bytes           (const guint8       *data,
                                                 gsize               length,
                                                 MshedHexCopyFormat  format);

G_END_DECLS
