/* mshed-command.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One primitive, reversible change of a model container, NRes or UTF. Every document edit is
 * a short list of these: a byte-range replacement in one payload, a directory record change,
 * an entry inserted, removed, moved or renamed, or a change of the document's stale set. A
 * command owns the bytes it replaces and the bytes it writes (the delta), never a copy of the
 * model.
 *
 * A payload is addressed the same way for both containers (MshedPayloadRef): an NRes entry by
 * its directory index, a UTF entry by its node. UTF nodes are stable objects: a command keeps
 * the node it was recorded on, and a subtree that an edit takes out of the tree is owned by
 * the command that took it until the command puts it back (docs/utf.md §7, mshed-utf.h).
 */
#pragma once

#include <glib-object.h>

#include "mshed-model-types.h"
#include "mshed-nres.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_COMMAND_SPLICE,        /* payload of entry @res_index / @node: [offset, +old) -> new */
  MSHED_COMMAND_DIRECTORY,     /* type, attr1..3 and name of entry @res_index */
  MSHED_COMMAND_INSERT_ENTRY,  /* entry inserted at @res_index (payload: new_bytes) */
  MSHED_COMMAND_REMOVE_ENTRY,  /* entry removed from @res_index (payload: old_bytes) */
  MSHED_COMMAND_CUSTOM,        /* owner-defined (the document's stale-set deltas) */
  MSHED_COMMAND_UTF_RENAME,    /* UTF @node renamed: old_bytes -> new_bytes (names, no NUL) */
  MSHED_COMMAND_UTF_INSERT,    /* UTF subtree @node inserted under @parent at @index */
  MSHED_COMMAND_UTF_REMOVE,    /* UTF subtree @node removed from @parent at @index */
  MSHED_COMMAND_UTF_MOVE,      /* UTF @node moved from @parent/@index to @new_parent/@new_index */
  MSHED_COMMAND_UTF_REPLACE,   /* the whole UTF container swapped with @data (reload); owner-
                                * defined like CUSTOM */
} MshedCommandKind;

/* The container a payload lives in. */
typedef enum {
  MSHED_CONTAINER_NRES,
  MSHED_CONTAINER_UTF,
} MshedContainerKind;

/* A payload, addressed the same way for both containers. */
typedef struct {
  MshedContainerKind container;
  guint              res_index;  /* NRes: directory index */
  MshedUtfNode      *node;       /* UTF: the file entry */
} MshedPayloadRef;

#define MSHED_PAYLOAD_NRES(i) ((MshedPayloadRef) { MSHED_CONTAINER_NRES, (i), NULL })
#define MSHED_PAYLOAD_UTF(n)  ((MshedPayloadRef) { MSHED_CONTAINER_UTF, 0, (n) })

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
  gpointer         data;        /* CUSTOM; UTF_INSERT / UTF_REMOVE: the subtree's ownership */
  GDestroyNotify   data_free;
  gsize            data_size;   /* CUSTOM: bytes held by @data (memory accounting) */
  MshedUtfNode    *node;        /* UTF commands (and a UTF SPLICE): the node */
  MshedUtfNode    *parent;      /* UTF_INSERT / UTF_REMOVE / UTF_MOVE: the (old) parent */
  guint            index;       /* ... and the position there */
  MshedUtfNode    *new_parent;  /* UTF_MOVE: the new parent */
  guint            new_index;   /* ... and the position there (mshed_utf_move) */
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
/* UTF. A splice of @node's payload; a rename; a subtree (not in any tree, the command takes
 * it) inserted under @parent at @index; @node removed (its parent and position are read now);
 * @node moved under @new_parent at @new_index (mshed_utf_move). */
MshedCommand *mshed_command_new_utf_splice (MshedUtfNode          *node,
                                            gsize                   offset,
                                            GBytes                 *old_bytes,
                                            GBytes                 *new_bytes);
MshedCommand *mshed_command_new_utf_rename (MshedUtfNode          *node,
                                            const char             *old_name,
                                            const char             *new_name);
MshedCommand *mshed_command_new_utf_insert (MshedUtfNode          *parent,
                                            guint                   index,
                                            MshedUtfNode           *subtree);
MshedCommand *mshed_command_new_utf_remove (MshedUtfNode          *node);
MshedCommand *mshed_command_new_utf_move   (MshedUtfNode          *node,
                                            MshedUtfNode           *new_parent,
                                            guint                   new_index);
MshedCommand *mshed_command_new_utf_replace (gpointer               data,
                                            GDestroyNotify          data_free,
                                            gsize                   data_size);
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
/* The same for a UTF container. */
gboolean      mshed_command_apply_utf      (const MshedCommand     *self,
                                            MshedUtf               *utf,
                                            gboolean                reverse);
/* The payload a SPLICE addresses. */
MshedPayloadRef mshed_command_get_payload  (const MshedCommand     *self);
/* Bytes held by the command (both byte buffers, the record itself, custom data). */
gsize         mshed_command_get_memory_size (const MshedCommand    *self);

void          mshed_entry_header_get       (const MshedNresEntry   *entry,
                                            MshedEntryHeader       *out);
void          mshed_entry_header_set       (MshedNresEntry         *entry,
                                            const MshedEntryHeader *header);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedCommand, mshed_command_free)

G_END_DECLS
