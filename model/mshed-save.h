/* mshed-save.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing a file so that a failure never loses data: the bytes go to a temporary file in the
 * same directory (".NAME.mshed-XXXXXX"), which is flushed (fsync) and then renamed over the
 * target; the directory is flushed after the rename. The first time an existing file is
 * overwritten, the original is kept as "NAME.bak" (a hard link to the old file, or a copy where
 * links are not possible); an existing NAME.bak is never overwritten, so it always holds the
 * oldest original. A symbolic link is followed: its target is replaced, the link stays.
 * Temporary files left behind by a crash are removed by the next save of the same file.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MSHED_SAVE_ATOMIC_NONE      = 0,
  MSHED_SAVE_ATOMIC_NO_BACKUP = 1 << 0,
} MshedSaveAtomicFlags;

/* Test hook stages. A hook returning an errno value (non-zero) makes that stage fail as if
 * the system call had failed with it; MSHED_SAVE_STAGE_BEFORE_RENAME may also _exit() to
 * simulate a crash between writing and renaming. */
typedef enum {
  MSHED_SAVE_STAGE_CREATE_TEMP,   /* creating the temporary file */
  MSHED_SAVE_STAGE_WRITE,         /* each write(2) of the data */
  MSHED_SAVE_STAGE_FSYNC,
  MSHED_SAVE_STAGE_BACKUP,
  MSHED_SAVE_STAGE_BEFORE_RENAME,
} MshedSaveStage;

typedef int (*MshedSaveHook) (MshedSaveStage stage,
                              const char    *path,
                              gpointer       user_data);

/* Writes @bytes to @path atomically. @made_backup (nullable) is set when NAME.bak was made.
 * On failure the old file is untouched, no temporary file is left and @error (domain
 * MSHED_MODEL_ERROR, code IO) names the file and the reason. */
gboolean  mshed_save_atomic          (const char            *path,
                                      GBytes                *bytes,
                                      MshedSaveAtomicFlags   flags,
                                      gboolean              *made_backup,
                                      GError               **error);
/* The name of the backup kept for @path ("PATH.bak"). */
char     *mshed_save_backup_path     (const char            *path);
/* Testing only: installs a hook called at each stage (NULL removes it). Not thread-safe. */
void      mshed_save_set_test_hook   (MshedSaveHook          hook,
                                      gpointer               user_data);

G_END_DECLS
