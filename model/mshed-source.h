/* mshed-source.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opening what a modder has: a loose model, a game archive, or ARCHIVE:ENTRY naming a model
 * nested in an archive. Small files are read, large ones mapped (mshed_load_file).
 */
#pragma once

#include <glib-object.h>

#include "mshed-diagnostic.h"
#include "mshed-model.h"
#include "mshed-nres.h"

G_BEGIN_DECLS

/* mshed_load_file() reads files up to this size into memory with one read() and maps larger
 * ones. For a small file, mapping costs more than copying (mmap, the page faults, munmap and
 * its TLB flush); for a large one, copying costs more, and the validator does not even touch
 * every page. bench-model measures both ways by file size ("read or map"). */
#define MSHED_READ_LIMIT (128 * 1024)

typedef struct {
  char         *path;         /* the file on disk */
  char         *entry;        /* outer entry name, NULL for a loose model or a bare archive */
  gint          entry_index;  /* directory index of that entry, -1 when none */
  GBytes       *file_bytes;   /* the whole file (read, or mapped when large) */
  MshedNres    *file_nres;    /* the file's own container */
  MshedModel   *model;        /* NULL when the file is an archive and no entry was named */
} MshedSource;

MshedSource *mshed_source_open       (const char        *spec,
                                      MshedMode          mode,
                                      MshedDiagnostics  *diags,
                                      GError           **error);
void         mshed_source_free       (MshedSource       *self);
gboolean     mshed_source_is_archive (const MshedSource *self);
gboolean     mshed_split_spec        (const char        *spec,
                                      char             **path,
                                      char             **entry);
gboolean     mshed_entry_is_model_name (const MshedNresEntry *entry);
gboolean     mshed_entry_holds_model (const MshedNresEntry *entry);
GBytes      *mshed_source_serialize  (MshedSource       *self);
GBytes      *mshed_load_file         (const char        *path,
                                      GError           **error);
int          mshed_read_file_into    (const char        *path,
                                      guint8           **buffer,
                                      gsize             *capacity,
                                      gsize              limit,
                                      gsize             *len,
                                      GError           **error);
int          mshed_open_regular      (const char        *path,
                                      GError           **error);
gboolean     mshed_check_output      (const char        *path,
                                      GError           **error);
/* What `mshed-cli validate FILE` checks, on the bytes of a whole file: its NRes container,
 * then the file as a model when it looks like one, else every entry named *.msh as a nested
 * model (its container and the model; offsets from the file start, the entry name set).
 * FALSE (with @error) only when the file's own container cannot be read. */
/* One archive entry named *.msh, validated as a nested model into @diags (offsets from the
 * outer file's start, the entry name set). */
void         mshed_validate_nested_entry (const MshedNresEntry *e,
                                          guint             index,
                                          MshedMode         mode,
                                          MshedDiagnostics *diags);
gboolean     mshed_validate_file_bytes (GBytes          *bytes,
                                        MshedMode        mode,
                                        MshedDiagnostics *diags,
                                        guint           *n_models,
                                        GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedSource, mshed_source_free)

G_END_DECLS
