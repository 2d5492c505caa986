/* mshed-folder-check-run.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runner of a folder check, for the Check Folder window and the tests: the walk lists the
 * files first (names and sizes, no bytes), then a GThreadPool checks them, and each result is
 * handed over as soon as it is done. Cancelling drops the files not started yet, so a run
 * stops once the files being checked are done.
 */
#define G_LOG_DOMAIN "mshed-folder-check"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "mshed-folder-check.h"

/* The runner ----------------------------------------------------------------------------- */

struct _MshedFolderCheck {
  char                    *root;
  MshedMode                mode;
  const MshedBaseline     *baseline;
  guint                    n_threads;
  MshedFolderProgressFunc  progress_func;
  gpointer                 progress_data;
  MshedFolderResultFunc    result_func;
  gpointer                 result_data;

  GPtrArray               *checks;     /* MshedFileCheck, in walk order */
  GCancellable            *cancellable;
  GMutex                   lock;       /* guards what follows and the callbacks */
  MshedFolderProgress      progress;
};

MshedFolderCheck *
mshed_folder_check_new (const char *root,
                        MshedMode   mode)
{
  MshedFolderCheck *self = g_new0 (MshedFolderCheck, 1);

  g_return_val_if_fail (root != NULL, NULL);
  self->root = g_strdup (root);
  self->mode = mode;
  self->checks = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_file_check_free);
  g_mutex_init (&self->lock);
  return self;
}

void
mshed_folder_check_free (MshedFolderCheck *self)
{
  if (self == NULL)
    return;
  g_free (self->root);
  g_ptr_array_unref (self->checks);
  g_mutex_clear (&self->lock);
  g_free (self);
}

void
mshed_folder_check_set_baseline (MshedFolderCheck    *self,
                                 const MshedBaseline *baseline)
{
  self->baseline = baseline;
}

void
mshed_folder_check_set_n_threads (MshedFolderCheck *self,
                                  guint             n_threads)
{
  self->n_threads = n_threads;
}

void
mshed_folder_check_set_progress_func (MshedFolderCheck        *self,
                                      MshedFolderProgressFunc  func,
                                      gpointer                 user_data)
{
  self->progress_func = func;
  self->progress_data = user_data;
}

void
mshed_folder_check_set_result_func (MshedFolderCheck      *self,
                                    MshedFolderResultFunc  func,
                                    gpointer               user_data)
{
  self->result_func = func;
  self->result_data = user_data;
}

const char *
mshed_folder_check_get_root (MshedFolderCheck *self)
{
  return self->root;
}

static gboolean
on_walked (const char *path,
           guint       rel_start,
           const char *error,
           gpointer    user_data)
{
  MshedFolderCheck *self = user_data;
  MshedFileCheck *check = mshed_file_check_new (path, rel_start, FALSE);
  struct stat st;

  check->index = self->checks->len;
  if (error)
    check->unreadable = g_strdup (error);
  else if (stat (path, &st) == 0)
    {
      check->size = (guint64) st.st_size;
      self->progress.bytes_total += check->size;
    }
  g_ptr_array_add (self->checks, check);
  return !g_cancellable_is_cancelled (self->cancellable);
}

/* A worker of the pool: checks one file, then hands the result and the progress over. */
static void
check_one (gpointer data,
           gpointer user_data)
{
  MshedFileCheck *check = data;
  MshedFolderCheck *self = user_data;
  guint64 size = check->size;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (check->unreadable == NULL)
    {
      mshed_file_check_run (check, self->mode);
      mshed_file_check_apply_baseline (check, self->baseline, NULL, NULL);
    }
  g_mutex_lock (&self->lock);
  self->progress.n_done++;
  self->progress.bytes_done += size;
  self->progress.current = check->path;
  if (self->result_func && !check->skipped)
    self->result_func (check, self->result_data);
  if (self->progress_func)
    self->progress_func (&self->progress, self->progress_data);
  self->progress.current = NULL;
  g_mutex_unlock (&self->lock);
}

gboolean
mshed_folder_check_run (MshedFolderCheck  *self,
                        GCancellable      *cancellable,
                        GError           **error)
{
  guint n_threads = self->n_threads ? self->n_threads : g_get_num_processors ();
  GThreadPool *pool;

  g_return_val_if_fail (self->checks->len == 0, FALSE);
  self->cancellable = cancellable;
  memset (&self->progress, 0, sizeof self->progress);
  mshed_folder_walk (self->root, on_walked, self);
  self->progress.n_files = self->checks->len;
  if (self->progress_func)
    self->progress_func (&self->progress, self->progress_data);

  pool = g_thread_pool_new (check_one, self, (gint) MAX (n_threads, 1), TRUE, NULL);
  for (guint i = 0; i < self->checks->len; i++)
    g_thread_pool_push (pool, g_ptr_array_index (self->checks, i), NULL);
  /* waits for every file: a cancelled run drops the rest unchecked */
  g_thread_pool_free (pool, FALSE, TRUE);
  self->cancellable = NULL;
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

GPtrArray *
mshed_folder_check_get_results (MshedFolderCheck *self)
{
  GPtrArray *results = g_ptr_array_new ();

  for (guint i = 0; i < self->checks->len; i++)
    {
      MshedFileCheck *check = g_ptr_array_index (self->checks, i);

      if (check->unreadable || (check->diags && !check->skipped))
        g_ptr_array_add (results, check);
    }
  return results;
}

void
mshed_folder_check_get_totals (MshedFolderCheck  *self,
                               MshedFolderTotals *totals)
{
  memset (totals, 0, sizeof *totals);
  for (guint i = 0; i < self->checks->len; i++)
    mshed_folder_totals_add (totals, g_ptr_array_index (self->checks, i));
}
