/* mshed-nres.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The NRes container (spec docs/nres.md): parsing from a (mapped) byte buffer without copying
 * payloads, lossless and canonical writing, name lookup.
 *
 * Writing: an unmodified archive gives back its source bytes. An edited archive whose source
 * was canonical (docs/nres.md §7.3), or a new one, is rebuilt in the §7.1 layout. An edited
 * non-canonical archive is written losslessly: unreferenced bytes and the offsets of untouched
 * entries are kept and only what a size change forces moves (mshed-nres-layout.c). Only
 * mshed_nres_repack() drops unreferenced bytes; mshed_nres_list_unreferenced() says which.
 */
#pragma once

#include <glib-object.h>

#include "mshed-model-types.h"

G_BEGIN_DECLS

struct _MshedNresEntry {
  guint32 type_id;
  guint32 attr1;
  guint32 attr2;
  guint32 attr3;
  guint8  name[MSHED_NRES_NAME_SIZE];  /* the raw 36-byte field */
  guint32 data_offset;                 /* offset in the current layout (see mshed_nres_layout) */
  guint32 sort_index;                  /* as stored, or recomputed by the writer */

  /*< private >*/
  GBytes     *payload;   /* the payload as loaded (a slice of the source), or NULL once owned */
  GByteArray *owned;     /* a private copy, made by the first edit */
  guint32     orig_offset;
  guint32     orig_size;
  guint       touched : 1;  /* payload or attributes changed since load */
  guint       in_source : 1;  /* parsed from the source (orig_offset/orig_size are valid) */
};

/* A byte range of an archive. */
typedef struct {
  guint64 offset;
  guint64 size;
} MshedNresBlock;

#define MSHED_TYPE_NRES (mshed_nres_get_type ())
GType mshed_nres_get_type (void) G_GNUC_CONST;

MshedNres      *mshed_nres_new                (void);
MshedNres      *mshed_nres_parse              (GBytes            *bytes,
                                               MshedMode          mode,
                                               MshedDiagnostics  *diags,
                                               GError           **error);
MshedNres      *mshed_nres_ref                (MshedNres         *self);
void            mshed_nres_unref              (MshedNres         *self);
MshedNres      *mshed_nres_copy               (const MshedNres   *self);

guint           mshed_nres_get_n_entries      (const MshedNres   *self);
MshedNresEntry *mshed_nres_get_entry          (MshedNres         *self,
                                               guint              index);
const MshedNresEntry *mshed_nres_peek_entry   (const MshedNres   *self,
                                               guint              index);
guint32         mshed_nres_get_version        (const MshedNres   *self);
GBytes         *mshed_nres_get_source         (const MshedNres   *self);
gboolean        mshed_nres_is_canonical       (const MshedNres   *self);
gboolean        mshed_nres_is_modified        (const MshedNres   *self);
gint            mshed_nres_find_type          (const MshedNres   *self,
                                               guint32            type_id);
gint            mshed_nres_lookup_name        (const MshedNres   *self,
                                               const char        *name);

const guint8   *mshed_nres_entry_get_data     (const MshedNresEntry *entry,
                                               gsize             *size);
gsize           mshed_nres_entry_get_size     (const MshedNresEntry *entry);
GBytes         *mshed_nres_entry_dup_bytes    (const MshedNresEntry *entry);
char           *mshed_nres_entry_dup_name     (const MshedNresEntry *entry);
guint8         *mshed_nres_entry_make_mutable (MshedNres         *self,
                                               guint              index);
void            mshed_nres_entry_splice       (MshedNres         *self,
                                               guint              index,
                                               gsize              offset,
                                               gsize              remove_len,
                                               const guint8      *data,
                                               gsize              insert_len);
void            mshed_nres_set_payload        (MshedNres         *self,
                                               guint              index,
                                               GBytes            *payload);
gboolean        mshed_nres_set_name           (MshedNres         *self,
                                               guint              index,
                                               const char        *name,
                                               GError           **error);
void            mshed_nres_touch              (MshedNres         *self,
                                               guint              index);
guint           mshed_nres_insert_entry       (MshedNres         *self,
                                               guint              position,
                                               const MshedNresEntry *templ,
                                               GBytes            *payload);
guint           mshed_nres_append_entry       (MshedNres         *self,
                                               guint32            type_id,
                                               guint32            attr1,
                                               guint32            attr2,
                                               guint32            attr3,
                                               const char        *name,
                                               const void        *data,
                                               gsize              size);
void            mshed_nres_remove_entry       (MshedNres         *self,
                                               guint              index);

void            mshed_nres_compute_sort_table (const MshedNres   *self,
                                               guint32           *out);
void            mshed_nres_layout             (MshedNres         *self);
guint64         mshed_nres_get_directory_offset (const MshedNres *self);
GBytes         *mshed_nres_serialize          (MshedNres         *self,
                                               gboolean          *out_repacked);
GBytes         *mshed_nres_build_canonical    (MshedNres         *self);
GBytes         *mshed_nres_repack             (MshedNres         *self);
GArray         *mshed_nres_list_unreferenced  (const MshedNres   *self);
gboolean        mshed_nres_sort_matches_names (const MshedNres   *self);

int             mshed_nres_name_compare       (const guint8      *a,
                                               const guint8      *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedNres, mshed_nres_unref)

G_END_DECLS
