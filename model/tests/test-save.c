/* test-save.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Atomic saving: backups, an unwritable directory, a full disk, a crash between writing and
 * renaming. Failures are injected through the test hook everywhere; where the test runs as
 * root and may mount, a real read-only and a real tiny tmpfs are used as well.
 */
/* c_std=c11: POSIX.1-2008 + XSI for symlink, lstat */
#define _XOPEN_SOURCE 700
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc-test-util.h"
#include "mshed-error.h"
#include "mshed-save.h"

typedef struct {
  char *dir;
  char *path;
  char *bak;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("mshed-save-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "model.msh", NULL);
  f->bak = mshed_save_backup_path (f->path);
  g_assert_true (g_file_set_contents (f->path, "original", -1, NULL));
}

static guint
count_files (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  if (d == NULL)
    return 0;
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  return n;
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  GDir *d = g_dir_open (f->dir, 0, NULL);
  const char *name;

  mshed_save_set_test_hook (NULL, NULL);
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (f->dir, name, NULL);

      g_unlink (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->bak);
}

static void
assert_contents (const char *path,
                 const char *expect)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expect);
}

static gboolean
save_text (const char            *path,
           const char            *text,
           MshedSaveAtomicFlags   flags,
           gboolean              *made_backup,
           GError               **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  return mshed_save_atomic (path, bytes, flags, made_backup, error);
}

static void
test_backup_once (Fixture       *f,
                  gconstpointer  data)
{
  gboolean made = FALSE;
  g_autoptr(GError) error = NULL;
  g_autofree char *fresh = g_build_filename (f->dir, "new.msh", NULL);
  g_autofree char *fresh_bak = mshed_save_backup_path (fresh);
  struct stat st;

  g_autofree char *expect_bak = g_strconcat (f->path, ".bak", NULL);

  g_assert_cmpstr (f->bak, ==, expect_bak);
  g_chmod (f->path, 0640);
  g_assert_true (save_text (f->path, "first", 0, &made, &error));
  g_assert_no_error (error);
  g_assert_true (made);
  assert_contents (f->path, "first");
  assert_contents (f->bak, "original");
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);  /* the mode is kept */

  g_assert_true (save_text (f->path, "second", 0, &made, &error));
  g_assert_false (made);
  assert_contents (f->path, "second");
  assert_contents (f->bak, "original");  /* never overwritten: the oldest original */

  /* a new file: nothing to back up */
  g_assert_true (save_text (fresh, "new", 0, &made, &error));
  g_assert_false (made);
  g_assert_false (g_file_test (fresh_bak, G_FILE_TEST_EXISTS));
  g_unlink (fresh);

  g_unlink (f->bak);
  g_assert_true (save_text (f->path, "third", MSHED_SAVE_ATOMIC_NO_BACKUP, &made, &error));
  g_assert_false (made);
  g_assert_false (g_file_test (f->bak, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (f->dir), ==, 1);
}

static void
test_symlink (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *link = g_build_filename (f->dir, "link.msh", NULL);

  g_assert_cmpint (symlink ("model.msh", link), ==, 0);
  g_assert_true (save_text (link, "through the link", 0, NULL, NULL));
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  assert_contents (f->path, "through the link");
  assert_contents (f->bak, "original");
  g_unlink (link);
}

static int
fail_stage (MshedSaveStage stage,
            const char    *path,
            gpointer       user_data)
{
  const int *want = user_data;

  return (int) stage == want[0] ? want[1] : 0;
}

static void
assert_failed_cleanly (Fixture    *f,
                       GError     *error,
                       guint       n_files)
{
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, f->dir));
  assert_contents (f->path, "original");
  g_assert_cmpuint (count_files (f->dir), ==, n_files);  /* no temporary file left */
}

static void
test_injected_failures (Fixture       *f,
                        gconstpointer  data)
{
  static const int cases[][2] = {
    { MSHED_SAVE_STAGE_CREATE_TEMP, EACCES },   /* unwritable directory */
    { MSHED_SAVE_STAGE_WRITE, ENOSPC },         /* full disk */
    { MSHED_SAVE_STAGE_FSYNC, EIO },
    { MSHED_SAVE_STAGE_BACKUP, EACCES },
    { MSHED_SAVE_STAGE_BEFORE_RENAME, EXDEV },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      mshed_save_set_test_hook (fail_stage, (gpointer) cases[i]);
      g_assert_false (save_text (f->path, "new", 0, NULL, &error));
      assert_failed_cleanly (f, error, 1);
      g_assert_nonnull (strstr (error->message, g_strerror (cases[i][1])));
    }
  mshed_save_set_test_hook (NULL, NULL);
  g_assert_true (save_text (f->path, "new", 0, NULL, NULL));
  assert_contents (f->path, "new");
}

static void
test_unwritable_dir (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (geteuid () != 0)
    {
      g_chmod (f->dir, 0555);
      g_assert_false (save_text (f->path, "new", 0, NULL, &error));
      g_chmod (f->dir, 0755);
      assert_failed_cleanly (f, error, 1);
      return;
    }
  /* root ignores permissions: a file system remounted read-only is the real thing */
  {
    g_autofree char *mnt = g_build_filename (f->dir, "ro", NULL);
    g_autofree char *path = g_build_filename (mnt, "m.msh", NULL);

    g_mkdir (mnt, 0755);
    if (mount ("tmpfs", mnt, "tmpfs", 0, "size=64k") != 0)
      {
        g_rmdir (mnt);
        g_test_skip ("running as root and cannot mount a file system");
        return;
      }
    g_assert_true (g_file_set_contents (path, "original", -1, NULL));
    g_assert_cmpint (mount ("tmpfs", mnt, "tmpfs", MS_REMOUNT | MS_RDONLY, "size=64k"), ==, 0);
    g_assert_false (save_text (path, "new", 0, NULL, &error));
    g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
    g_assert_nonnull (strstr (error->message, g_strerror (EROFS)));
    assert_contents (path, "original");
    g_assert_cmpuint (count_files (mnt), ==, 1);
    umount (mnt);
    g_rmdir (mnt);
  }
}

static void
test_full_disk (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *mnt = g_build_filename (f->dir, "small", NULL);
  g_autofree char *path = g_build_filename (mnt, "m.msh", NULL);
  g_autofree guint8 *big = g_malloc0 (1 << 20);
  g_autoptr(GBytes) bytes = g_bytes_new_static (big, 1 << 20);
  g_autoptr(GError) error = NULL;

  g_mkdir (mnt, 0755);
  if (geteuid () != 0 || mount ("tmpfs", mnt, "tmpfs", 0, "size=128k") != 0)
    {
      g_rmdir (mnt);
      g_test_skip ("cannot mount a small tmpfs (the injected ENOSPC test covers this)");
      return;
    }
  g_assert_true (g_file_set_contents (path, "original", -1, NULL));
  g_assert_false (mshed_save_atomic (path, bytes, MSHED_SAVE_ATOMIC_NO_BACKUP, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, g_strerror (ENOSPC)));
  assert_contents (path, "original");
  g_assert_cmpuint (count_files (mnt), ==, 1);
  g_unlink (path);
  umount (mnt);
  g_rmdir (mnt);
}

static int
crash_before_rename (MshedSaveStage stage,
                     const char    *path,
                     gpointer       user_data)
{
  if (stage == MSHED_SAVE_STAGE_BEFORE_RENAME)
    _exit (3);
  return 0;
}

static void
test_crash (Fixture       *f,
            gconstpointer  data)
{
  if (g_test_subprocess ())
    {
      const char *path = g_getenv ("MSHED_CRASH_PATH");

      mshed_save_set_test_hook (crash_before_rename, NULL);
      save_text (path, "half-done", MSHED_SAVE_ATOMIC_NO_BACKUP, NULL, NULL);
      g_assert_not_reached ();
    }
  g_setenv ("MSHED_CRASH_PATH", f->path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_failed ();
  g_unsetenv ("MSHED_CRASH_PATH");

  /* the original survived; the crashed save left its temporary file behind */
  assert_contents (f->path, "original");
  g_assert_cmpuint (count_files (f->dir), ==, 2);
  /* the next save removes it */
  g_assert_true (save_text (f->path, "after", MSHED_SAVE_ATOMIC_NO_BACKUP, NULL, NULL));
  assert_contents (f->path, "after");
  g_assert_cmpuint (count_files (f->dir), ==, 1);
}

static void
test_not_a_file (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (save_text (f->dir, "x", 0, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
  g_clear_error (&error);
  g_assert_false (save_text ("/proc/mshed-no-such-dir/m.msh", "x", 0, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
}

/* A failed document save leaves the file and the modified state as they were. */
static void
test_document_failure (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(MshedDocument) gen = doc_test_new (61, 300, FALSE, FALSE);
  g_autoptr(GBytes) orig = mshed_document_serialize (gen);
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  static const int enospc[2] = { MSHED_SAVE_STAGE_WRITE, ENOSPC };
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_set_contents (f->path, g_bytes_get_data (orig, NULL),
                                      (gssize) g_bytes_get_size (orig), NULL));
  doc = mshed_document_open (f->path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_document_rename_node (doc, 1, "new name", NULL));
  mshed_save_set_test_hook (fail_stage, (gpointer) enospc);
  g_assert_false (mshed_document_save (doc, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
  g_assert_true (mshed_document_get_modified (doc));
  g_assert_true (g_file_get_contents (f->path, &contents, &len, NULL));
  g_assert_cmpmem (contents, len, g_bytes_get_data (orig, NULL), g_bytes_get_size (orig));
  g_assert_cmpuint (count_files (f->dir), ==, 1);
  mshed_save_set_test_hook (NULL, NULL);
  g_clear_error (&error);
  g_assert_true (mshed_document_save (doc, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_get_modified (doc));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/model/save/backup-once", test_backup_once);
  ADD ("/model/save/symlink", test_symlink);
  ADD ("/model/save/injected-failures", test_injected_failures);
  ADD ("/model/save/unwritable-dir", test_unwritable_dir);
  ADD ("/model/save/full-disk", test_full_disk);
  ADD ("/model/save/crash-before-rename", test_crash);
  ADD ("/model/save/not-a-file", test_not_a_file);
  ADD ("/model/save/document-failure", test_document_failure);
#undef ADD

  return g_test_run ();
}
