/* mshed-save.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-save"
/* c_std=c11: POSIX.1-2008 + XSI for O_CLOEXEC, O_DIRECTORY, fchown, lstat, realpath */
#define _XOPEN_SOURCE 700

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mshed-error.h"
#include "mshed-save.h"
#include "mshed-source.h"

#define TEMP_INFIX ".mshed-"
#define WRITE_CHUNK (1u << 20)

static MshedSaveHook test_hook;
static gpointer test_hook_data;

void
mshed_save_set_test_hook (MshedSaveHook hook,
                          gpointer      user_data)
{
  test_hook = hook;
  test_hook_data = user_data;
}

static int
run_hook (MshedSaveStage stage,
          const char    *path)
{
  return test_hook ? test_hook (stage, path, test_hook_data) : 0;
}

char *
mshed_save_backup_path (const char *path)
{
  return g_strconcat (path, ".bak", NULL);
}

static gboolean
fail (GError    **error,
      int         errsv,
      const char *format,
      const char *path)
{
  g_autofree char *what = g_strdup_printf (format, path);

  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO, "%s: %s", what,
               g_strerror (errsv));
  return FALSE;
}

/* Removes ".NAME.mshed-XXXXXX" files an interrupted save of NAME left in @dir. */
static void
remove_leftovers (const char *dir,
                  const char *base)
{
  g_autofree char *prefix = g_strconcat (".", base, TEMP_INFIX, NULL);
  gsize plen = strlen (prefix);
  DIR *d = opendir (dir);
  struct dirent *ent;

  if (d == NULL)
    return;
  while ((ent = readdir (d)) != NULL)
    if (strncmp (ent->d_name, prefix, plen) == 0 && strlen (ent->d_name) == plen + 6)
      {
        g_autofree char *p = g_build_filename (dir, ent->d_name, NULL);

        g_unlink (p);
      }
  closedir (d);
}

static void
sync_dir (const char *dir)
{
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    {
      fsync (fd);  /* best effort: some file systems refuse it */
      close (fd);
    }
}

/* Writes @data to a new temporary file next to @target; returns its path, or NULL. */
static char *
write_temp (const char         *target,
            const guint8       *data,
            gsize               len,
            const struct stat  *like,
            GError            **error)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  g_autofree char *name = g_strconcat (".", base, TEMP_INFIX, "XXXXXX", NULL);
  g_autofree char *tmp = g_build_filename (dir, name, NULL);
  gsize done = 0;
  int fd, err;

  if ((err = run_hook (MSHED_SAVE_STAGE_CREATE_TEMP, tmp)) != 0)
    {
      fail (error, err, _("Cannot create a temporary file in “%s”"), dir);
      return NULL;
    }
  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      fail (error, errno, _("Cannot create a temporary file in “%s”"), dir);
      return NULL;
    }
  if (like != NULL)
    {
      if (fchmod (fd, like->st_mode & 07777) != 0)
        { /* keep the default mode */ }
      if (geteuid () == 0 && fchown (fd, like->st_uid, like->st_gid) != 0)
        { /* best effort */ }
    }

  while (done < len)
    {
      gsize chunk = MIN (len - done, WRITE_CHUNK);
      gssize n;

      if ((err = run_hook (MSHED_SAVE_STAGE_WRITE, tmp)) != 0)
        {
          errno = err;
          n = -1;
        }
      else
        n = write (fd, data + done, chunk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int errsv = n < 0 ? errno : ENOSPC;

          close (fd);
          g_unlink (tmp);
          fail (error, errsv, _("Cannot write “%s”"), target);
          return NULL;
        }
      done += (gsize) n;
    }

  if ((err = run_hook (MSHED_SAVE_STAGE_FSYNC, tmp)) != 0 || fsync (fd) != 0)
    {
      int errsv = err ? err : errno;

      close (fd);
      g_unlink (tmp);
      fail (error, errsv, _("Cannot flush “%s” to disk"), target);
      return NULL;
    }
  if (close (fd) != 0)
    {
      int errsv = errno;

      g_unlink (tmp);
      fail (error, errsv, _("Cannot write “%s”"), target);
      return NULL;
    }
  return g_steal_pointer (&tmp);
}

/* Keeps the current @target as @backup: a hard link where possible, else a flushed copy. */
static gboolean
make_backup (const char        *target,
             const char        *backup,
             const struct stat *st,
             GError           **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr(GError) local = NULL;
  gsize len = 0;
  int err;

  if ((err = run_hook (MSHED_SAVE_STAGE_BACKUP, backup)) != 0)
    return fail (error, err, _("Cannot keep the backup “%s”"), backup);
  if (link (target, backup) == 0)
    return TRUE;
  if (errno == EEXIST)
    return TRUE;
  if (!g_file_get_contents (target, &contents, &len, &local))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                   _("Cannot keep the backup “%s”: %s"), backup, local->message);
      return FALSE;
    }
  tmp = write_temp (backup, (const guint8 *) contents, len, st, error);
  if (tmp == NULL)
    return FALSE;
  if (rename (tmp, backup) != 0)
    {
      int errsv = errno;

      g_unlink (tmp);
      return fail (error, errsv, _("Cannot keep the backup “%s”"), backup);
    }
  return TRUE;
}

/**
 * mshed_save_atomic:
 * @path: the file to write (need not exist)
 * @bytes: its new contents
 * @made_backup: (out) (optional): TRUE when PATH.bak was created by this call
 *
 * Returns: TRUE when @path now holds @bytes
 */
gboolean
mshed_save_atomic (const char            *path,
                   GBytes                *bytes,
                   MshedSaveAtomicFlags   flags,
                   gboolean              *made_backup,
                   GError               **error)
{
  g_autofree char *real = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *backup = NULL;
  const char *target = path;
  struct stat st, bst;
  gboolean exists, backup_new = FALSE;
  gsize len = 0;
  const guint8 *data;
  int err;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  if (made_backup)
    *made_backup = FALSE;

  /* follow a symbolic link: replace the file it names, not the link */
  if (g_lstat (path, &st) == 0 && S_ISLNK (st.st_mode))
    {
      real = realpath (path, NULL);
      if (real != NULL)
        target = real;
    }
  if (!mshed_check_output (target, error))  /* a directory, FIFO, device or socket */
    return FALSE;
  exists = g_stat (target, &st) == 0;

  dir = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  remove_leftovers (dir, base);

  data = g_bytes_get_data (bytes, &len);
  tmp = write_temp (target, data, len, exists ? &st : NULL, error);
  if (tmp == NULL)
    return FALSE;

  if (exists && !(flags & MSHED_SAVE_ATOMIC_NO_BACKUP))
    {
      backup = mshed_save_backup_path (target);
      if (g_lstat (backup, &bst) != 0)
        {
          if (!make_backup (target, backup, &st, error))
            {
              g_unlink (tmp);
              return FALSE;
            }
          backup_new = TRUE;
        }
    }

  if ((err = run_hook (MSHED_SAVE_STAGE_BEFORE_RENAME, tmp)) != 0 || rename (tmp, target) != 0)
    {
      int errsv = err ? err : errno;

      g_unlink (tmp);
      if (backup_new)
        g_unlink (backup);
      return fail (error, errsv, _("Cannot replace “%s”"), target);
    }
  sync_dir (dir);

  if (made_backup)
    *made_backup = backup_new;
  return TRUE;
}
