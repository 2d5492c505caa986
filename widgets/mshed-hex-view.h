/* mshed-hex-view.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A hex view of one resource payload, a record range or the whole model file, with every
 * byte coloured by the field it belongs to (known fields in a palette, unknown fields red and
 * hatched, the NRes container grey). Address / hex / text columns plus a column naming the
 * fields that start on each line; only the visible lines are drawn. Addresses, the status
 * line and go to offset use file offsets (the offset in the file on disk: for ARCHIVE:ENTRY,
 * in the archive), the offset inside the resource is in the tooltips.
 *
 * Editing overwrites nibbles (hex column) or characters (text column) through the document,
 * one command per byte; insert and delete exist only for variable-size raw resources. Search
 * (hex bytes with ?? wildcards, text, typed values), go to offset, bookmarks, copy as hex /
 * C array / text, paste.
 *
 * Signals:
 *  - cursor-moved (): the cursor or the selection moved, or the source changed.
 *  - contents-changed (): the bytes shown changed (an edit, undo, redo, reload).
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"
#include "mshed-hex-model.h"

G_BEGIN_DECLS

#define MSHED_TYPE_HEX_VIEW (mshed_hex_view_get_type ())
G_DECLARE_FINAL_TYPE (MshedHexView, mshed_hex_view, MSHED, HEX_VIEW, GtkWidget)

GtkWidget     *mshed_hex_view_new                (void);
void           mshed_hex_view_set_document       (MshedHexView      *self,
                                                  MshedDocument     *document);
MshedDocument *mshed_hex_view_get_document       (MshedHexView      *self);
MshedHexModel *mshed_hex_view_get_model          (MshedHexView      *self);

/* -1 (MSHED_HEX_SOURCE_FILE): the whole model file. */
void           mshed_hex_view_show_resource      (MshedHexView      *self,
                                                  gint               res_index);
/* Only [offset, offset + length) of a resource (or of the file), e.g. a range of records. */
void           mshed_hex_view_show_range         (MshedHexView      *self,
                                                  gint               res_index,
                                                  gsize              offset,
                                                  gsize              length);
/* A file of a UTF document (the whole model file for NULL or a directory). */
void           mshed_hex_view_show_utf_node      (MshedHexView      *self,
                                                  MshedUtfNode      *node);
/* Shows the record's resource and selects the record's bytes. */
void           mshed_hex_view_show_record        (MshedHexView      *self,
                                                  MshedTableId       table,
                                                  guint              row);
/* A file offset, the offset every view shows (a nested model's offsets count from the outer
 * file, as in Problems and mshed-cli): moves the cursor there, showing the resource holding
 * it (or the whole file for container bytes) when the bytes shown do not hold it. FALSE when
 * the byte is not part of this model. */
gboolean       mshed_hex_view_goto_file_offset   (MshedHexView      *self,
                                                  guint64            offset);
/* A view offset: of the bytes shown (payload offset, or model-file offset for the whole
 * file). */
gboolean       mshed_hex_view_goto_offset        (MshedHexView      *self,
                                                  gsize              offset);

/* (transfer full): the file offset of view offset @offset as the address column, the status
 * line and the data inspector show it ("000001CC", the digits after "0x"). */
char          *mshed_hex_view_format_address     (MshedHexView      *self,
                                                  gsize              offset);
/* The cursor as (resource, payload offset); FALSE when it is not inside a payload (file
 * header, directory, padding: *res_index is -1 and *offset the file offset). */
gboolean       mshed_hex_view_get_cursor         (MshedHexView      *self,
                                                  gint              *res_index,
                                                  gsize             *offset);
gsize          mshed_hex_view_get_cursor_offset  (MshedHexView      *self);
void           mshed_hex_view_set_cursor         (MshedHexView      *self,
                                                  gsize              offset,
                                                  gboolean           extend_selection);
/* [start, end) of the selection in view offsets; FALSE when nothing is selected. */
gboolean       mshed_hex_view_get_selection      (MshedHexView      *self,
                                                  gsize             *start,
                                                  gsize             *end);
void           mshed_hex_view_select_range       (MshedHexView      *self,
                                                  gsize              start,
                                                  gsize              end);
/* [start, end) of the bytes on the lines currently on screen (empty before allocation). */
void           mshed_hex_view_get_visible_range  (MshedHexView      *self,
                                                  gsize             *start,
                                                  gsize             *end);
gboolean       mshed_hex_view_get_overlay        (MshedHexView      *self,
                                                  gsize              offset,
                                                  MshedHexOverlay   *out);

gboolean       mshed_hex_view_get_insert_mode    (MshedHexView      *self);
void           mshed_hex_view_set_insert_mode    (MshedHexView      *self,
                                                  gboolean           insert_mode);
/* One document command at view offset @offset (the path typing and pasting take). */
gboolean       mshed_hex_view_replace_bytes      (MshedHexView      *self,
                                                  gsize              offset,
                                                  gsize              old_length,
                                                  GBytes            *bytes,
                                                  GError           **error);
/* Pastes @bytes at the cursor: overwrites (fixed-size data) or replaces the selection /
 * inserts (variable-size resources in insert mode). */
gboolean       mshed_hex_view_paste_bytes        (MshedHexView      *self,
                                                  GBytes            *bytes,
                                                  GError           **error);
/* Moves the cursor to the next (previous) match and selects it. */
gboolean       mshed_hex_view_find               (MshedHexView      *self,
                                                  MshedHexSearchKind kind,
                                                  const char        *text,
                                                  gboolean           backwards,
                                                  GError           **error);

/* Bookmarks live in resource coordinates, so they survive switching sources. */
gboolean       mshed_hex_view_toggle_bookmark    (MshedHexView      *self);
gboolean       mshed_hex_view_next_bookmark      (MshedHexView      *self,
                                                  gboolean           backwards);
guint          mshed_hex_view_get_n_bookmarks    (MshedHexView      *self);

/* (transfer full) (nullable): the selection (or the byte at the cursor) in @format; also
 * puts it on the clipboard when @to_clipboard. */
char          *mshed_hex_view_copy_selection     (MshedHexView      *self,
                                                  MshedHexCopyFormat format,
                                                  gboolean           to_clipboard);
/* The compare window: view offset i is drawn as differing when byte i of @mask is non-zero
 * (NULL clears); the bytes differ from the other side's, the view does not compare. */
void           mshed_hex_view_set_marked         (MshedHexView      *self,
                                                  GBytes            *mask);
gboolean       mshed_hex_view_is_marked          (MshedHexView      *self,
                                                  gsize              offset);
/* The vertical scrolling (the compare window scrolls two views together). */
GtkAdjustment *mshed_hex_view_get_vadjustment    (MshedHexView      *self);

/* The last refusal or error shown in the status line (NULL when none). */
const char    *mshed_hex_view_get_message        (MshedHexView      *self);

G_END_DECLS
