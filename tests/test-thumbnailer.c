/* test-thumbnailer.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-thumbnailer -s SIZE -i INPUT -o OUTPUT, as a file manager runs it: for every model
 * shape `mshed-cli generate` makes, an archive (its first model) and every DFM kind, a PNG of
 * SIZE x SIZE with transparent corners and a drawn picture in the middle. The PNG is read by
 * gdk-pixbuf, not by our own writer's code.
 */
#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "test-require.h"

static char *tmpdir;

static void
run (const char  *const *argv,
     int                *status,
     char              **err)
{
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  if (!g_spawn_sync (tmpdir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, err,
                     &wait_status, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  g_assert_true (WIFEXITED (wait_status));
  *status = WEXITSTATUS (wait_status);
  g_test_message ("%s: exit %d, stderr: %s", argv[0], *status, *err);
}

/* Runs `mshed-cli generate --quiet --seed 3 OPTIONS… -o NAME` in the temporary folder. */
static char *
generate (const char *name,
          const char *option,
          const char *value)
{
  g_autofree char *err = NULL;
  char *path = g_build_filename (tmpdir, name, NULL);
  const char *argv[] = { g_getenv ("MSHED_CLI"), "generate", "--quiet", "--seed", "3",
                         "-o", path, option, value, NULL };
  int status;

  run (argv, &status, &err);
  g_assert_cmpint (status, ==, 0);
  return path;
}

/* The share of pixels that are not transparent, after checking size and corners. FALSE
 * (after a skip) when there is no EGL to render with. */
static gboolean
thumbnail (const char *input,
           int         size,
           double     *drawn)
{
  g_autofree char *size_text = g_strdup_printf ("%d", size);
  g_autofree char *out = g_build_filename (tmpdir, "thumb.png", NULL);
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  const char *argv[] = { g_getenv ("MSHED_THUMBNAILER"), "-s", size_text, "-i", input,
                         "-o", out, NULL };
  const guint8 *pixels;
  guint n_drawn = 0;
  int status, stride;

  g_remove (out);
  run (argv, &status, &err);
  if (status != 0 && strstr (err, "EGL") != NULL)
    {
      mshed_test_skip (err);
      return FALSE;
    }
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");
  pixbuf = gdk_pixbuf_new_from_file (out, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, size);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, size);
  g_assert_true (gdk_pixbuf_get_has_alpha (pixbuf));
  g_assert_cmpint (gdk_pixbuf_get_n_channels (pixbuf), ==, 4);
  pixels = gdk_pixbuf_read_pixels (pixbuf);
  stride = gdk_pixbuf_get_rowstride (pixbuf);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      n_drawn += pixels[y * stride + 4 * x + 3] != 0;
  /* the background is transparent: a corner pixel is not drawn */
  g_assert_cmpuint (pixels[3], ==, 0);
  g_assert_cmpuint (pixels[(size - 1) * stride + 4 * (size - 1) + 3], ==, 0);
  *drawn = (double) n_drawn / ((double) size * size);
  return TRUE;
}

typedef struct {
  const char *name;
  const char *option;
  const char *value;
} Kind;

static const Kind models[] = {
  { "plain.msh", NULL, NULL },
  { "animated.msh", "--animated", NULL },
  { "res18.msh", "--res18", NULL },
  { "res17.msh", "--res17", NULL },
  { "random.msh", "--random", NULL },
  { "cyrillic.msh", "--cyrillic", NULL },
  { "empty-names.msh", "--empty-names", NULL },
  { "legacy.msh", "--legacy", NULL },
  { "game.rlb", "--archive", "3" },
};

/* Every generated model kind and an archive: the model covers a good part of the picture. */
static void
test_models (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *path = generate (models[i].name, models[i].option, models[i].value);
      double drawn = 0;

      g_test_message ("%s", models[i].name);
      if (!thumbnail (path, 128, &drawn))
        return;
      g_test_message ("%s: %.1f %% of the pixels drawn", models[i].name, 100 * drawn);
      g_assert_cmpfloat (drawn, >, 0.05);
      g_assert_cmpfloat (drawn, <, 0.95);
    }
}

/* A file manager passes a URI (%u) or a path (%i); the size is whatever it asks for. */
static void
test_uri_and_size (void)
{
  g_autofree char *path = generate ("uri model.msh", NULL, NULL);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  double drawn = 0;

  g_assert_nonnull (strstr (uri, "%20"));
  if (!thumbnail (uri, 48, &drawn))
    return;
  g_assert_cmpfloat (drawn, >, 0.05);
  if (!thumbnail (path, 300, &drawn))
    return;
  g_assert_cmpfloat (drawn, >, 0.05);
}

/* Every DFM kind is drawn (not the placeholder card, which covers more than 60 % of the
 * picture): the model covers a part of it. */
static void
test_dfm (void)
{
  const char *dfms[] = { "head", "body", "hand", "four-level" };

  for (guint i = 0; i < G_N_ELEMENTS (dfms); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.dfm", dfms[i]);
      g_autofree char *path = generate (name, "--dfm", dfms[i]);
      double drawn = 0;

      if (!thumbnail (path, 64, &drawn))
        return;
      g_test_message ("%s: %.1f %% of the pixels drawn", name, 100 * drawn);
      g_assert_cmpfloat (drawn, >, 0.05);
      g_assert_cmpfloat (drawn, <, 0.6);
    }
}

/* Anything else fails with a message naming the file, and writes nothing. */
static void
test_not_a_model (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "notes.txt", NULL);
  g_autofree char *out = g_build_filename (tmpdir, "none.png", NULL);
  g_autofree char *err = NULL;
  const char *argv[] = { g_getenv ("MSHED_THUMBNAILER"), "-s", "64", "-i", path, "-o", out,
                         NULL };
  const char *usage[] = { g_getenv ("MSHED_THUMBNAILER"), "-i", path, NULL };
  int status;

  g_assert_true (g_file_set_contents (path, "not a model at all", -1, NULL));
  run (argv, &status, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, path));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);
  run (usage, &status, &err);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "-o OUTPUT"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("MSHED_CLI") == NULL || g_getenv ("MSHED_THUMBNAILER") == NULL)
    return mshed_test_skip_program ("MSHED_CLI and MSHED_THUMBNAILER are set by meson test");
  tmpdir = g_dir_make_tmp ("mshed-thumb-XXXXXX", NULL);
  g_test_add_func ("/thumbnailer/models", test_models);
  g_test_add_func ("/thumbnailer/uri-and-size", test_uri_and_size);
  g_test_add_func ("/thumbnailer/dfm", test_dfm);
  g_test_add_func ("/thumbnailer/not-a-model", test_not_a_model);
  status = g_test_run ();
  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);
        g_remove (p);
      }
  }
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return status;
}
