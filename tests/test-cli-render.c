/* test-cli-render.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `mshed-cli render` of valid models exits 0 with a PNG of the asked size and nothing on
 * stderr. In a -Db_sanitize=address build the command runs with leak detection switched on
 * whatever ASAN_OPTIONS the caller set, so a leak in the render path (ours, or one of the GL
 * driver that tests/lsan.supp does not name) fails this test.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "mshed-bytes.h"
#include "mshed-nres.h"
#include "mshed-source.h"
#include "test-require.h"

static char *tmpdir;

/* Runs `mshed-cli render ARGS… -o OUT`; returns the exit status, stderr in @err. */
static int
render (const char  *out,
        char       **err,
        const char  *first,
        ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *asan = NULL;
  const char *cli = g_getenv ("MSHED_CLI");
  const char *inherited;
  int wait_status = 0;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) "render");
  va_start (args, first);
  for (const char *arg = first; arg; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, (gpointer) "-o");
  g_ptr_array_add (argv, (gpointer) out);
  g_ptr_array_add (argv, NULL);

  /* the last setting of an option wins: leaks are checked, and reported with an exit status */
  inherited = g_environ_getenv (envp, "ASAN_OPTIONS");
  asan = g_strdup_printf ("%s:detect_leaks=1:abort_on_error=0", inherited ? inherited : "");
  envp = g_environ_setenv (envp, "ASAN_OPTIONS", asan, TRUE);

  if (!g_spawn_sync (tmpdir, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, NULL,
                     err, &wait_status, &error))
    g_error ("cannot run %s: %s", cli, error->message);
  g_test_message ("render: exit %d, stderr: %s", wait_status, *err);
  g_assert_true (WIFEXITED (wait_status));
  return WEXITSTATUS (wait_status);
}

/* The PNG signature and the IHDR size (big-endian). */
static void
assert_png (const char *path,
            guint32     width,
            guint32     height)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  const guint8 *p;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  p = (const guint8 *) data;
  g_assert_cmpuint (len, >, 33);
  g_assert_cmpmem (p, 8, "\x89PNG\r\n\x1a\n", 8);
  g_assert_cmpmem (p + 12, 4, "IHDR", 4);
  g_assert_cmpuint ((guint32) p[16] << 24 | p[17] << 16 | p[18] << 8 | p[19], ==, width);
  g_assert_cmpuint ((guint32) p[20] << 24 | p[21] << 16 | p[22] << 8 | p[23], ==, height);
}

/* Exit 0, a clean stderr; FALSE (after a skip) when there is no EGL to render with. */
static gboolean
assert_rendered (int         status,
                 const char *err)
{
  if (status != 0 && strstr (err, "EGL") != NULL && strstr (err, "Sanitizer") == NULL)
    {
      mshed_test_skip (err);
      return FALSE;
    }
  g_assert_null (strstr (err, "LeakSanitizer"));
  g_assert_null (strstr (err, "AddressSanitizer"));
  g_assert_null (strstr (err, "runtime error"));  /* UBSan */
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  return TRUE;
}

static void
test_sample (void)
{
  g_autofree char *png = g_build_filename (tmpdir, "sample.png", NULL);
  g_autofree char *err = NULL;
  int status;

  status = render (png, &err, g_getenv ("MSHED_SAMPLE"), "--size", "160x120", "--frame", "12",
                   "--wireframe", "--grid", "--bounds", "--materials", "--samples", "4", NULL);
  if (!assert_rendered (status, err))
    return;
  assert_png (png, 160, 120);
  g_unlink (png);
}

/* A model nested in an archive, the other overlay, the other axis and rotation conventions. */
static void
test_archive_entry (void)
{
  const char *archive = g_getenv ("MSHED_SAMPLE_ARCHIVE");
  g_autofree char *png = g_build_filename (tmpdir, "entry.png", NULL);
  g_autofree char *err = NULL;
  g_autofree char *spec = NULL;
  g_autoptr(GMappedFile) file = g_mapped_file_new (archive, FALSE, NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedNres) nres = NULL;
  int status;

  g_assert_nonnull (file);
  bytes = g_mapped_file_get_bytes (file);
  nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (nres);
  for (guint i = 0; spec == NULL; i++)
    {
      const MshedNresEntry *e;
      g_autofree char *name = NULL;

      g_assert_cmpuint (i, <, mshed_nres_get_n_entries (nres));
      e = mshed_nres_peek_entry (nres, i);
      name = mshed_nres_entry_dup_name (e);
      if (mshed_entry_is_model_name (e))
        spec = g_strdup_printf ("%s:%s", archive, name);
    }

  status = render (png, &err, spec, "--size", "64x48", "--uv-checker", "--up", "y",
                   "--rotation", "runtime", NULL);
  if (!assert_rendered (status, err))
    return;
  assert_png (png, 64, 48);
  g_unlink (png);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("MSHED_CLI") == NULL || g_getenv ("MSHED_SAMPLE") == NULL ||
      g_getenv ("MSHED_SAMPLE_ARCHIVE") == NULL)
    return mshed_test_skip_program ("MSHED_CLI and the samples are named by meson test");
  tmpdir = g_dir_make_tmp ("mshed-render-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/render/sample", test_sample);
  g_test_add_func ("/cli/render/archive-entry", test_archive_entry);
  status = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return status;
}
