/* mshed-thumbnails.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pictures beside rows (see the header). A picture is known by a key, the SHA-1 of what
 * it shows: "file", the canonical path, the size and the modification time of a file; the
 * bytes of a model in memory. The cache holds KEY.png; a picture that could not be drawn is
 * remembered for this run only, so a fixed file gets its picture when it changes.
 */
#define G_LOG_DOMAIN "mshed-thumbnails"

#include "config.h"

#include <glib/gstdio.h>

#include "mshed-thumbnails.h"
#include "mshed-uninstalled.h"

#define KEY_DATA "mshed-thumbnail-key"

typedef struct {
  char   *key;
  char   *input;     /* the file to draw */
  GBytes *bytes;     /* or the model to write to a temporary input first */
} Job;

struct _MshedThumbnails {
  GObject     parent_instance;
  char       *dir;
  char       *program;
  GHashTable *done;     /* key → GdkTexture, or NULL when it could not be drawn */
  GHashTable *pending;  /* key (queued or being drawn) */
  GQueue      queue;    /* Job, waiting for a free process */
  guint       running;
  guint       max_running;
};

G_DEFINE_FINAL_TYPE (MshedThumbnails, mshed_thumbnails, G_TYPE_OBJECT)

enum { READY, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
job_free (Job *job)
{
  g_free (job->key);
  g_free (job->input);
  g_clear_pointer (&job->bytes, g_bytes_unref);
  g_free (job);
}

static void
texture_unref (gpointer texture)
{
  if (texture != NULL)
    g_object_unref (texture);
}

static void
mshed_thumbnails_finalize (GObject *object)
{
  MshedThumbnails *self = MSHED_THUMBNAILS (object);

  g_queue_clear_full (&self->queue, (GDestroyNotify) job_free);
  g_hash_table_unref (self->done);
  g_hash_table_unref (self->pending);
  g_free (self->dir);
  g_free (self->program);
  G_OBJECT_CLASS (mshed_thumbnails_parent_class)->finalize (object);
}

static void
mshed_thumbnails_class_init (MshedThumbnailsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_thumbnails_finalize;
  /* MshedThumbnails::ready: @key's picture is drawn, or could not be */
  signals[READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

/* The thumbnailer beside this program: the environment's choice (tests), the build tree's
 * when running from it, else the installed one. */
static char *
find_program (void)
{
  const char *env = g_getenv ("MSHED_THUMBNAILER");

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  if (mshed_running_uninstalled ())
    return g_build_filename (MSHED_BUILD_ROOT, "app", "mshed-thumbnailer", NULL);
  return g_strdup (MSHED_THUMBNAILER);
}

static void
mshed_thumbnails_init (MshedThumbnails *self)
{
  self->dir = g_build_filename (g_get_user_cache_dir (), "mshed", "thumbnails", NULL);
  self->program = find_program ();
  self->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, texture_unref);
  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&self->queue);
  self->max_running = MAX (1, g_get_num_processors ());
}

MshedThumbnails *
mshed_thumbnails_get_default (void)
{
  static MshedThumbnails *instance;

  if (instance == NULL)
    instance = g_object_new (MSHED_TYPE_THUMBNAILS, NULL);
  return instance;
}

guint
mshed_thumbnails_get_n_pending (MshedThumbnails *self)
{
  return g_hash_table_size (self->pending);
}

static char *
cache_path (MshedThumbnails *self,
            const char      *key,
            const char      *suffix)
{
  g_autofree char *name = g_strconcat (key, suffix, NULL);

  return g_build_filename (self->dir, name, NULL);
}

static void start_jobs (MshedThumbnails *self);

static void
finish (MshedThumbnails *self,
        const char      *key,
        GdkTexture      *texture)
{
  g_hash_table_insert (self->done, g_strdup (key), texture);
  g_hash_table_remove (self->pending, key);
  g_signal_emit (self, signals[READY], 0, key);
}

static void
on_drawn (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Job *job = user_data;
  MshedThumbnails *self = mshed_thumbnails_get_default ();
  g_autoptr(GError) error = NULL;
  g_autofree char *part = cache_path (self, job->key, ".png.part");
  g_autofree char *png = cache_path (self, job->key, ".png");
  GdkTexture *texture = NULL;

  if (!g_subprocess_wait_check_finish (G_SUBPROCESS (source), result, &error))
    g_debug ("%s: %s", job->input, error->message);
  else if (g_rename (part, png) != 0)
    g_debug ("%s: %s", png, g_strerror (errno));
  else if ((texture = gdk_texture_new_from_filename (png, &error)) == NULL)
    g_debug ("%s: %s", png, error->message);
  g_unlink (part);
  if (job->bytes != NULL)
    g_unlink (job->input);
  self->running--;
  finish (self, job->key, texture);
  job_free (job);
  start_jobs (self);
}

static void
start_job (MshedThumbnails *self,
           Job             *job)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *part = cache_path (self, job->key, ".png.part");
  char size[16];

  g_snprintf (size, sizeof size, "%d", 2 * MSHED_THUMBNAIL_SIZE);
  if (job->bytes != NULL)
    {
      job->input = cache_path (self, job->key, ".input");
      if (!g_file_set_contents (job->input, g_bytes_get_data (job->bytes, NULL),
                                (gssize) g_bytes_get_size (job->bytes), &error))
        goto failed;
    }
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                              | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                              self->program, "-s", size, "-i", job->input, "-o", part, NULL);
  if (process == NULL)
    goto failed;
  self->running++;
  g_subprocess_wait_check_async (process, NULL, on_drawn, job);
  return;

failed:
  g_debug ("%s: %s", job->key, error->message);
  if (job->bytes != NULL && job->input != NULL)
    g_unlink (job->input);
  finish (self, job->key, NULL);
  job_free (job);
}

static void
start_jobs (MshedThumbnails *self)
{
  while (self->running < self->max_running && !g_queue_is_empty (&self->queue))
    start_job (self, g_queue_pop_head (&self->queue));
}

/* @key's picture if it is known; else queues @input or @bytes to be drawn. */
static gboolean
lookup (MshedThumbnails  *self,
        const char       *key,
        const char       *input,
        GBytes           *bytes,
        GdkTexture      **texture)
{
  g_autofree char *png = NULL;
  Job *job;

  *texture = NULL;
  if (g_hash_table_lookup_extended (self->done, key, NULL, (gpointer *) texture))
    return TRUE;
  if (g_hash_table_contains (self->pending, key))
    return FALSE;
  png = cache_path (self, key, ".png");
  if (g_file_test (png, G_FILE_TEST_IS_REGULAR) &&
      (*texture = gdk_texture_new_from_filename (png, NULL)) != NULL)
    {
      g_hash_table_insert (self->done, g_strdup (key), *texture);
      return TRUE;
    }
  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    {
      g_debug ("%s: %s", self->dir, g_strerror (errno));
      return TRUE;
    }
  job = g_new0 (Job, 1);
  job->key = g_strdup (key);
  job->input = g_strdup (input);
  job->bytes = bytes ? g_bytes_ref (bytes) : NULL;
  g_hash_table_add (self->pending, g_strdup (key));
  g_queue_push_tail (&self->queue, job);
  start_jobs (self);
  return FALSE;
}

/* The picture widget --------------------------------------------------------------------- */

static void
on_ready (MshedThumbnails *self,
          const char      *key,
          GtkPicture      *picture)
{
  GdkTexture *texture = NULL;

  if (g_strcmp0 (g_object_get_data (G_OBJECT (picture), KEY_DATA), key) != 0)
    return;
  g_hash_table_lookup_extended (self->done, key, NULL, (gpointer *) &texture);
  gtk_picture_set_paintable (picture, GDK_PAINTABLE (texture));
}

GtkWidget *
mshed_thumbnail_new (void)
{
  GtkWidget *picture = gtk_picture_new ();

  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_size_request (picture, MSHED_THUMBNAIL_SIZE, MSHED_THUMBNAIL_SIZE);
  gtk_widget_add_css_class (picture, "thumbnail");
  g_signal_connect_object (mshed_thumbnails_get_default (), "ready", G_CALLBACK (on_ready),
                           picture, 0);
  return picture;
}

static void
show (GtkWidget  *thumbnail,
      const char *key,
      const char *input,
      GBytes     *bytes)
{
  GdkTexture *texture = NULL;

  g_object_set_data_full (G_OBJECT (thumbnail), KEY_DATA, g_strdup (key), g_free);
  lookup (mshed_thumbnails_get_default (), key, input, bytes, &texture);
  gtk_picture_set_paintable (GTK_PICTURE (thumbnail), GDK_PAINTABLE (texture));
}

void
mshed_thumbnail_set_file (GtkWidget  *thumbnail,
                          const char *path)
{
  g_autofree char *canonical = g_canonicalize_filename (path, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (canonical);
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                                 G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                                 G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                                 G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);
  g_autofree char *text = NULL;
  g_autofree char *key = NULL;

  if (info == NULL || g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      mshed_thumbnail_clear (thumbnail);
      return;
    }
  /* rewritten within the same second: the microseconds tell */
  text = g_strdup_printf ("file\n%s\n%" G_GINT64_FORMAT "\n%" G_GUINT64_FORMAT ".%06u",
                          canonical, (gint64) g_file_info_get_size (info),
                          g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED),
                          g_file_info_get_attribute_uint32 (info,
                                                            G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC));
  key = g_compute_checksum_for_string (G_CHECKSUM_SHA1, text, -1);
  show (thumbnail, key, canonical, NULL);
}

void
mshed_thumbnail_set_bytes (GtkWidget *thumbnail,
                           GBytes    *bytes)
{
  g_autofree char *key = g_compute_checksum_for_bytes (G_CHECKSUM_SHA1, bytes);

  show (thumbnail, key, NULL, bytes);
}

void
mshed_thumbnail_clear (GtkWidget *thumbnail)
{
  g_object_set_data (G_OBJECT (thumbnail), KEY_DATA, NULL);
  gtk_picture_set_paintable (GTK_PICTURE (thumbnail), NULL);
}

gboolean
mshed_thumbnail_is_drawn (GtkWidget *thumbnail)
{
  return gtk_picture_get_paintable (GTK_PICTURE (thumbnail)) != NULL;
}
