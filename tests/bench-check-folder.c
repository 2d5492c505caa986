/* bench-check-folder.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The folder check of the Check Folder window (model/mshed-folder-check.h) on a folder made
 * by tests/bench/bench-check-folder.py, beside a plain read of the same bytes:
 *
 *     bench-check-folder DIR [--threads N] [--passes N]
 *
 * Prints one line per figure: the bytes and files, the plain read (every file read() whole
 * into one buffer, on one thread), the check on N threads (default: one per processor) with
 * its throughput, and the time from the start of a run to its first result (the walk lists
 * the folder first). The page cache is warm for both: a first read fills it.
 */
#define _DEFAULT_SOURCE

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mshed-folder-check.h"

typedef struct {
  guint64 bytes;
  guint   files;
  char   *buffer;
} Read;

static gboolean
read_one (const char *path,
          guint       rel_start,
          const char *error,
          gpointer    user_data)
{
  Read *r = user_data;
  int fd = error ? -1 : open (path, O_RDONLY);
  ssize_t n;

  if (fd < 0)
    return TRUE;
  while ((n = read (fd, r->buffer, 1 << 20)) > 0)
    r->bytes += (guint64) n;
  close (fd);
  r->files++;
  return TRUE;
}

static double
plain_read (const char *dir,
            Read       *r)
{
  gint64 t0 = g_get_monotonic_time ();

  r->bytes = 0;
  r->files = 0;
  mshed_folder_walk (dir, read_one, r);
  return (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
}

typedef struct {
  gint64 started;
  gint64 first;
} Run;

static void
on_result (const MshedFileCheck *check,
           gpointer              user_data)
{
  Run *run = user_data;

  if (run->first == 0)
    run->first = g_get_monotonic_time ();
}

static double
check (const char        *dir,
       guint              threads,
       double            *first,
       MshedFolderTotals *totals)
{
  g_autoptr(MshedFolderCheck) check = mshed_folder_check_new (dir, MSHED_MODE_STRICT);
  Run run = { g_get_monotonic_time (), 0 };

  mshed_folder_check_set_n_threads (check, threads);
  mshed_folder_check_set_result_func (check, on_result, &run);
  g_assert_true (mshed_folder_check_run (check, NULL, NULL));
  mshed_folder_check_get_totals (check, totals);
  *first = (double) (run.first - run.started) / G_USEC_PER_SEC;
  return (double) (g_get_monotonic_time () - run.started) / G_USEC_PER_SEC;
}

int
main (int    argc,
      char **argv)
{
  guint threads = g_get_num_processors ();
  guint passes = 3;
  double best_read = G_MAXDOUBLE, best_check = G_MAXDOUBLE, best_first = G_MAXDOUBLE;
  g_autofree char *summary = NULL;
  MshedFolderTotals totals;
  Read r = { 0, 0, g_malloc (1 << 20) };

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s DIR [--threads N] [--passes N]\n", argv[0]);
      return 2;
    }
  for (int i = 2; i + 1 < argc; i += 2)
    {
      if (g_str_equal (argv[i], "--threads"))
        threads = (guint) atoi (argv[i + 1]);
      else if (g_str_equal (argv[i], "--passes"))
        passes = (guint) MAX (atoi (argv[i + 1]), 1);
    }

  plain_read (argv[1], &r);  /* warms the page cache */
  for (guint p = 0; p < passes; p++)
    {
      double first;

      best_read = MIN (best_read, plain_read (argv[1], &r));
      best_check = MIN (best_check, check (argv[1], threads, &first, &totals));
      best_first = MIN (best_first, first);
    }
  summary = mshed_folder_totals_summary (&totals, FALSE);
  printf ("folder: %u files, %.1f MB (%s)\n", r.files, r.bytes / 1e6, summary);
  printf ("plain read, 1 thread:     %7.3f s, %6.0f MB/s (best of %u)\n", best_read,
          r.bytes / 1e6 / best_read, passes);
  printf ("folder check, %u threads: %7.3f s, %6.0f MB/s (best of %u), %.2f times the read "
          "time\n", threads, best_check, r.bytes / 1e6 / best_check, passes,
          best_check / best_read);
  printf ("time to the first result: %7.1f ms (best of %u)\n", best_first * 1e3, passes);
  g_free (r.buffer);
  return 0;
}
