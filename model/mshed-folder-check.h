/* mshed-folder-check.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Checking a whole game or mod folder, as `mshed-cli validate DIR` and the Check Folder window
 * do: the walk (every file below a folder, in name order), the check of one file (an NRes
 * archive or model with every nested *.msh entry, a .dfm or another UTF file), the baseline
 * that hides known findings, and a runner that checks a folder on several threads with
 * progress, results as they come, and cancellation.
 */
#pragma once

#include <gio/gio.h>

#include "mshed-baseline.h"
#include "mshed-diagnostic.h"

G_BEGIN_DECLS

/* The walk ------------------------------------------------------------------------------- */

/* Called for each regular file below the folder (also through links; links to folders are
 * not followed), in name order, with @rel_start where the part below the folder starts in
 * @path; or, with @error set, for a folder that cannot be opened (@path is that folder).
 * Returns FALSE to stop the walk. */
typedef gboolean (*MshedFolderWalkFunc) (const char *path,
                                         guint       rel_start,
                                         const char *error,
                                         gpointer    user_data);

/* Walks @root; FALSE when @func stopped it. */
gboolean mshed_folder_walk (const char          *root,
                            MshedFolderWalkFunc  func,
                            gpointer             user_data);

/* One file ------------------------------------------------------------------------------- */

/* What a readable file was checked as. */
typedef enum {
  MSHED_CHECKED_NRES,
  MSHED_CHECKED_DFM,
  MSHED_CHECKED_UTF,
} MshedCheckedKind;

typedef struct {
  char             *path;         /* as found or named (ARCHIVE:ENTRY when named so) */
  char             *file;         /* the baseline's name: below the folder, or the basename */
  gboolean          named;        /* named by the user: ARCHIVE:ENTRY works, no magic check */
  guint             index;        /* its place in the walk */
  guint64           size;         /* bytes read */

  /* the result */
  gboolean          skipped;      /* found in a folder and neither NRes nor UTF */
  char             *unreadable;   /* why it could not be read, or NULL */
  MshedCheckedKind  kind;
  guint             n_models;
  char             *failure;      /* why it could not be checked as a whole, or NULL */
  MshedDiagnostics *diags;        /* every finding; NULL when unreadable or skipped */

  /* after mshed_file_check_apply_baseline () */
  guint8           *known;        /* per diagnostic: the baseline holds it */
  gboolean          failure_known;
  guint             n_errors;     /* not known; a failure without error diagnostics is one */
  guint             n_warnings;
  guint             n_infos;
  guint             n_known;
} MshedFileCheck;

MshedFileCheck *mshed_file_check_new     (const char           *path,
                                          guint                 rel_start,
                                          gboolean              named);
void            mshed_file_check_free    (MshedFileCheck       *self);
/* Reads and checks the file in @mode (the bytes are dropped again). */
void            mshed_file_check_run     (MshedFileCheck       *self,
                                          MshedMode             mode);

/* Called for every finding (a diagnostic, or @d NULL with @failure), in order. */
typedef void (*MshedFindingFunc) (const MshedFinding    *finding,
                                  const MshedDiagnostic *d,
                                  const char            *failure,
                                  gpointer               user_data);

/* Marks what @baseline (may be NULL) holds as known and counts the rest; @func (may be NULL)
 * sees every finding, for writing a new baseline. */
void            mshed_file_check_apply_baseline (MshedFileCheck      *self,
                                                 const MshedBaseline *baseline,
                                                 MshedFindingFunc     func,
                                                 gpointer             user_data);
/* Whether the failure is reported on its own (no error diagnostic says it already). */
gboolean        mshed_file_check_failure_shown  (const MshedFileCheck *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedFileCheck, mshed_file_check_free)

/* A whole folder on several threads (mshed-folder-check-run.c) ------------------------- */

typedef struct {
  guint        n_done;       /* files checked (or found unreadable, or skipped) */
  guint        n_files;      /* files the walk found */
  guint64      bytes_done;
  guint64      bytes_total;
  const char  *current;      /* the file just checked (only valid during the call) */
} MshedFolderProgress;

typedef struct {
  guint n_files;             /* checked files (NRes, DFM or UTF) */
  guint n_models;
  guint n_dfm;
  guint n_utf;
  guint n_unreadable;
  guint n_errors;
  guint n_warnings;
  guint n_infos;
  guint n_known;
} MshedFolderTotals;

/* Both are called on the checking threads, one call at a time. @check stays owned by the
 * runner and alive until it is freed. */
typedef void (*MshedFolderProgressFunc) (const MshedFolderProgress *progress,
                                         gpointer                   user_data);
typedef void (*MshedFolderResultFunc)   (const MshedFileCheck      *check,
                                         gpointer                   user_data);

typedef struct _MshedFolderCheck MshedFolderCheck;

MshedFolderCheck *mshed_folder_check_new          (const char          *root,
                                                   MshedMode            mode);
void              mshed_folder_check_free         (MshedFolderCheck    *self);
/* @baseline is borrowed for the run. */
void              mshed_folder_check_set_baseline (MshedFolderCheck    *self,
                                                   const MshedBaseline *baseline);
/* 0 (the default): one thread per processor. */
void              mshed_folder_check_set_n_threads (MshedFolderCheck   *self,
                                                    guint               n_threads);
void              mshed_folder_check_set_progress_func (MshedFolderCheck        *self,
                                                        MshedFolderProgressFunc  func,
                                                        gpointer                 user_data);
void              mshed_folder_check_set_result_func   (MshedFolderCheck        *self,
                                                        MshedFolderResultFunc    func,
                                                        gpointer                 user_data);
/* Walks and checks the folder; blocks until done. FALSE with G_IO_ERROR_CANCELLED when
 * @cancellable was cancelled (the results so far stay). */
gboolean          mshed_folder_check_run          (MshedFolderCheck    *self,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
/* The checked and the unreadable files (not the skipped ones), in walk order. */
GPtrArray        *mshed_folder_check_get_results  (MshedFolderCheck    *self);
void              mshed_folder_check_get_totals   (MshedFolderCheck    *self,
                                                   MshedFolderTotals   *totals);
const char       *mshed_folder_check_get_root     (MshedFolderCheck    *self);

/* "N files, N models…: N errors, N warnings…", the summary line of `mshed-cli validate`. */
char             *mshed_folder_totals_summary     (const MshedFolderTotals *totals,
                                                   gboolean                 baseline);
void              mshed_folder_totals_add         (MshedFolderTotals       *sum,
                                                   const MshedFileCheck    *check);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedFolderCheck, mshed_folder_check_free)

G_END_DECLS
