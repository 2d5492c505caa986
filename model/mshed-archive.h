/* mshed-archive.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An NRes archive held for editing its entries (the archive page of the window): add,
 * replace, remove, rename, move and set attributes, each one undoable command, through the
 * same container operations as `mshed-cli archive` (mshed-nres.h), so the writer keeps every
 * untouched entry byte-identical (docs/nres.md §7.3) and a save writes what the command line
 * writes for the same edits. Saving checks the whole file with the strict validator first and
 * writes atomically, keeping ARCHIVE.bak the first time (mshed-save.h).
 *
 * A command keeps the container as it was before and after (mshed_nres_copy() shares the
 * payloads), so undo and redo swap whole states and cannot drift from what the edit did.
 *
 * Signals: changed () after every edit, undo, redo and save.
 */
#pragma once

#include <glib-object.h>

#include "mshed-diagnostic.h"
#include "mshed-document.h"
#include "mshed-nres.h"

G_BEGIN_DECLS

#define MSHED_TYPE_ARCHIVE (mshed_archive_get_type ())
G_DECLARE_FINAL_TYPE (MshedArchive, mshed_archive, MSHED, ARCHIVE, GObject)

/* Reads @path (tolerant: a container with layout warnings opens; one that cannot be read
 * fails with @error naming the file). */
MshedArchive   *mshed_archive_open            (const char    *path,
                                               GError       **error);
/* An archive of @bytes (read from @path) without reading the file. */
MshedArchive   *mshed_archive_new_for_bytes   (const char    *path,
                                               GBytes        *bytes,
                                               GError       **error);

const char     *mshed_archive_get_path        (MshedArchive  *self);
/* (transfer none): the container as it is now; read it, never change it. */
MshedNres      *mshed_archive_get_nres        (MshedArchive  *self);
guint           mshed_archive_get_n_entries   (MshedArchive  *self);
gboolean        mshed_archive_get_modified    (MshedArchive  *self);
gboolean        mshed_archive_can_undo        (MshedArchive  *self);
gboolean        mshed_archive_can_redo        (MshedArchive  *self);
/* Translated, e.g. "Replace “Gun_0.msh”"; NULL when there is nothing to undo or redo. */
const char     *mshed_archive_get_undo_label  (MshedArchive  *self);
const char     *mshed_archive_get_redo_label  (MshedArchive  *self);
gboolean        mshed_archive_undo            (MshedArchive  *self);
gboolean        mshed_archive_redo            (MshedArchive  *self);

/* Edits: each is one undo step; on failure nothing changed and @error says why, naming the
 * archive and the entry. Names are UTF-8 here and Windows-1251 in the file, at most 35 bytes
 * there (docs/nres.md §4); a name another entry has (ASCII case folded) is refused, since
 * only one of the two could be found by name (docs/nres.md §5.4). */
gint            mshed_archive_add             (MshedArchive  *self,
                                               guint          position,
                                               const char    *name,
                                               guint32        type_id,
                                               GBytes        *payload,
                                               GError       **error);
gboolean        mshed_archive_replace         (MshedArchive  *self,
                                               guint          index,
                                               GBytes        *payload,
                                               GError       **error);
gboolean        mshed_archive_remove          (MshedArchive  *self,
                                               guint          index,
                                               GError       **error);
gboolean        mshed_archive_rename          (MshedArchive  *self,
                                               guint          index,
                                               const char    *name,
                                               GError       **error);
/* Entry @index ends up at directory position @to, with the same bytes, type, attributes and
 * raw name. */
gboolean        mshed_archive_move            (MshedArchive  *self,
                                               guint          index,
                                               guint          to,
                                               GError       **error);
gboolean        mshed_archive_set_attributes  (MshedArchive  *self,
                                               guint          index,
                                               guint32        type_id,
                                               guint32        attr1,
                                               guint32        attr2,
                                               guint32        attr3,
                                               GError       **error);

/* The 36-byte name field for @name (UTF-8): Windows-1251, not empty, at most 35 bytes, no
 * NUL. @context (the archive) starts the message. */
gboolean        mshed_archive_encode_name     (const char    *context,
                                               const char    *name,
                                               guint8         field[MSHED_NRES_NAME_SIZE],
                                               GError       **error);

/* The strict validator's findings for entry @index when it holds a model (offsets from the
 * file start), none for other entries. */
void            mshed_archive_validate_entry  (MshedArchive     *self,
                                               guint             index,
                                               MshedDiagnostics *diags);

GBytes         *mshed_archive_serialize       (MshedArchive  *self);
/* Saves to the archive's file: refused (MSHED_MODEL_ERROR_INVALID, naming the first error)
 * when the file would fail strict validation, unless MSHED_SAVE_ANYWAY; FILE.bak the first
 * time unless MSHED_SAVE_NO_BACKUP. */
gboolean        mshed_archive_save            (MshedArchive  *self,
                                               MshedSaveFlags flags,
                                               GError       **error);

G_END_DECLS
