/* mshed-command.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One primitive, reversible change of a model container. Every document edit is a short list
 * of these: a byte-range replacement in one payload, a directory record change, an entry
 * inserted or removed, or a change of the document's stale set. A command owns the bytes it
 * replaces and the bytes it writes (the delta), never a copy of the model.
 */
#pragma once

#include <glib-object.h>

#include "mshed-model-types.h"
#include "mshed-nres.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_COMMAND_SPLICE,        /* payload of entry @res_index: [offset, +old) -> new */
  MSHED_COMMAND_DIRECTORY,     /* type, attr1..3 and name of entry @res_index */
  MSHED_COMMAND_INSERT_ENTRY,  /* entry inserted at @res_index (payload: new_bytes) */
  MSHED_COMMAND_REMOVE_ENTRY,  /* entry removed from @res_index (payload: old_bytes) */
  MSHED_COMMAND_CUSTOM,        /* owner-defined (the document's stale-set deltas) */
} MshedCommandKind;

/* The directory part of an entry that a MSHED_COMMAND_DIRECTORY command swaps. */
typedef struct {
  guint32 type_id;
  guint32 attr1;
  guint32 attr2;
  guint32 attr3;
  guint8  name[MSHED_NRES_NAME_SIZE];
} MshedEntryHeader;

typedef struct _MshedCommand MshedCommand;

struct _MshedCommand {
  MshedCommandKind kind;
  guint            res_index;
  gsize            offset;
  GBytes          *old_bytes;   /* SPLICE: replaced bytes; REMOVE_ENTRY: the payload */
  GBytes          *new_bytes;   /* SPLICE: written bytes; INSERT_ENTRY: the payload */
  MshedEntryHeader old_header;  /* DIRECTORY, REMOVE_ENTRY */
  MshedEntryHeader new_header;  /* DIRECTORY, INSERT_ENTRY */
  gpointer         data;        /* CUSTOM */
  GDestroyNotify   data_free;
  gsize            data_size;   /* CUSTOM: bytes held by @data (memory accounting) */
};

#define MSHED_TYPE_COMMAND (mshed_command_get_type ())
GType         mshed_command_get_type       (void) G_GNUC_CONST;

MshedCommand *mshed_command_new_splice     (guint                   res_index,
                                            gsize                   offset,
                                            GBytes                 *old_bytes,
                                            GBytes                 *new_bytes);
MshedCommand *mshed_command_new_directory  (guint                   res_index,
                                            const MshedEntryHeader *old_header,
                                            const MshedEntryHeader *new_header);
MshedCommand *mshed_command_new_insert_entry (guint                 res_index,
                                            const MshedEntryHeader *header,
                                            GBytes                 *payload);
MshedCommand *mshed_command_new_remove_entry (guint                 res_index,
                                            const MshedEntryHeader *header,
                                            GBytes                 *payload);
MshedCommand *mshed_command_new_custom     (gpointer                data,
                                            GDestroyNotify          data_free,
                                            gsize                   data_size);
MshedCommand *mshed_command_copy           (const MshedCommand     *self);
void          mshed_command_free           (MshedCommand           *self);

/* Applies the command to @nres (forwards, or backwards when @reverse). CUSTOM commands are
 * not applied here. Returns FALSE (and changes nothing) when the container does not match
 * the command (wrong index or range): a programming error, reported with g_critical. */
gboolean      mshed_command_apply          (const MshedCommand     *self,
                                            MshedNres              *nres,
                                            gboolean                reverse);
/* Bytes held by the command (both byte buffers, the record itself, custom data). */
gsize         mshed_command_get_memory_size (const MshedCommand    *self);

void          mshed_entry_header_get       (const MshedNresEntry   *entry,
                                            MshedEntryHeader       *out);
void          mshed_entry_header_set       (MshedNresEntry         *entry,
                                            const MshedEntryHeader *header);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedCommand, mshed_command_free)

G_END_DECLS
