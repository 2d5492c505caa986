/* mshed-cli-validate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli validate: files, archives (the container and every nested model) and whole
 * directories; text or JSON output.
 *
 * With --jobs N above 1, the files are checked on N threads and printed in the order of the
 * walk. The main thread first walks the folders in name order into a list of items (names,
 * no bytes); then it and N - 1 workers take the items in that order, and each keeps what its
 * file produced (its lines, its JSON, its counts) until the main thread prints it, oldest
 * first, as soon as it is done. A thread holds one file's bytes at a time, and the threads
 * stay at most a window of items ahead of the printing, so memory stays bounded however large
 * the folder. The output is the same, byte for byte, for any number of jobs.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mshed-baseline.h"
#include "mshed-check-report.h"
#include "mshed-cli-private.h"
#include "mshed-dfm-schema.h"
#include "mshed-error.h"
#include "mshed-folder-check.h"
#include "mshed-json.h"
#include "mshed-schema.h"

/* Items checked but not printed yet, at most, per thread: enough to keep the threads busy
 * behind a large file or a thread the system has paused, few enough to bound the memory. */
#define ITEMS_PER_THREAD 64
#define MAX_JOBS 1024

/* One file of the run, or a folder that cannot be opened, in the order of the output. */
typedef struct {
  MshedFileCheck   *check;
  gboolean          done;       /* checked (under Validate.lock while there are workers) */
  GString          *text;       /* text: its lines; JSON: its elements of "diagnostics" */
  GString          *file_json;  /* JSON: its element of "files" */
  GString          *findings;   /* --write-baseline: its elements of "findings" */
} Item;

typedef struct {
  MshedMode            mode;
  gboolean             json;
  MshedFolderTotals    totals;
  GString             *out;          /* standard output, written as it grows (text only) */
  GString             *files;        /* JSON: the elements of "files" */
  GString             *diagnostics;  /* JSON: the elements of "diagnostics" */
  const MshedBaseline *baseline;     /* --baseline (read-only, shared by the threads) */
  GString             *findings;     /* --write-baseline: the elements of "findings" */
  GPtrArray           *results;      /* --csv, --html: every MshedFileCheck printed */

  /* With --jobs N above 1 (N - 1 workers; the main thread checks files too). POSIX threads
   * rather than GMutex and GCond: GLib's are built on futexes, which ThreadSanitizer cannot
   * see, and it would report every hand-over as a race. */
  GPtrArray        *items;         /* every item of the run, in order; NULL: one thread */
  guint             window;        /* how far the next item may be ahead of the printing */
  pthread_mutex_t   lock;          /* guards what follows and Item.done */
  pthread_cond_t    item_done;     /* for the main thread, when it waits for the oldest item */
  pthread_cond_t    printed_more;  /* for workers, when they wait for the window to move */
  guint             next;          /* the next item to check */
  guint             n_printed;
  gboolean          main_waiting;
  guint             n_workers_waiting;
} Validate;

static Item *
item_new (const char *spec,
          guint       rel_start,
          gboolean    named)
{
  Item *item = g_new0 (Item, 1);

  item->check = mshed_file_check_new (spec, rel_start, named);
  return item;
}

static void
item_free (Item *item)
{
  mshed_file_check_free (item->check);
  if (item->text)
    g_string_free (item->text, TRUE);
  if (item->file_json)
    g_string_free (item->file_json, TRUE);
  if (item->findings)
    g_string_free (item->findings, TRUE);
  g_free (item);
}

/* JSON ----------------------------------------------------------------------------------- */

/* Checking one item (on a worker) -------------------------------------------------------- */

static void
finding_to_json (GString               *array,
                 const MshedFinding    *f,
                 const MshedDiagnostic *d,
                 const char            *failure)
{
  MshedJsonWriter w;

  mshed_json_begin_element (&w, array);
  mshed_json_string (&w, "file", f->file);
  mshed_json_string (&w, "entry", f->entry);
  mshed_json_string (&w, "check", f->check);
  mshed_json_int (&w, "res_type", f->res_type, f->res_type >= 0);
  mshed_json_string (&w, "table", f->table);
  mshed_json_int (&w, "record", f->record, f->record >= 0);
  mshed_json_string (&w, "field", f->field);
  mshed_json_string (&w, "path", f->path);
  mshed_json_string (&w, "severity", mshed_severity_to_string (d ? d->severity
                                                          : MSHED_SEVERITY_ERROR));
  mshed_json_string (&w, "message", d ? d->message : failure);
  mshed_json_end (&w);
}

/* --write-baseline: keeps the finding in the item's elements of "findings". */
static void
write_finding (const MshedFinding    *f,
               const MshedDiagnostic *d,
               const char            *failure,
               gpointer               user_data)
{
  Item *item = user_data;

  if (item->findings == NULL)
    item->findings = g_string_new (NULL);
  finding_to_json (item->findings, f, d, failure);
}

/* Keeps what one readable file produced, for printing. */
static void
report (const Validate *self,
        Item           *item)
{
  MshedFileCheck *c = item->check;
  guint n = mshed_diagnostics_get_n_items (c->diags);
  gboolean json = self->json;

  mshed_file_check_apply_baseline (c, self->baseline, self->findings ? write_finding : NULL,
                                   item);
  item->text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (c->diags, i);

      if (c->known[i])
        continue;
      if (json)
        mshed_check_report_json_diagnostic (item->text, c->path, d);
      else
        {
          g_string_append (item->text, c->path);
          g_string_append (item->text, ": ");
          mshed_diagnostic_append_format (item->text, d);
          g_string_append_c (item->text, '\n');
        }
    }
  if (mshed_file_check_failure_shown (c) && !json)
    g_string_append_printf (item->text, "%s: %s: %s\n", c->path, _("error"), c->failure);

  if (json)
    {
      item->file_json = g_string_new (NULL);
      mshed_check_report_json_file (item->file_json, c);
    }
}

static void
check_item (const Validate *self,
            Item           *item)
{
  mshed_file_check_run (item->check, self->mode);
  if (item->check->diags && !item->check->skipped)
    report (self, item);
}

/* Printing, in order (main thread) ------------------------------------------------------- */

/* Appends the elements of an array written apart (JSON). */
static void
append_elements (GString       *array,
                 const GString *elements)
{
  if (array->len && elements->len)
    g_string_append (array, ",\n");
  g_string_append_len (array, elements->str, (gssize) elements->len);
}

/* --csv, --html: the reports need every result at the end. */
static void
keep_result (Validate *self,
             Item     *item)
{
  if (self->results)
    g_ptr_array_add (self->results, g_steal_pointer (&item->check));
}

static void
print_item (Validate *self,
            Item     *item)
{
  MshedFileCheck *c = item->check;

  mshed_folder_totals_add (&self->totals, c);
  if (c->skipped)
    return;
  if (c->unreadable)
    {
      mshed_cli_flush (self->out, TRUE);
      mshed_cli_error ("%s", c->unreadable);
      if (self->json)
        mshed_check_report_json_file (self->files, c);
      keep_result (self, item);
      return;
    }
  if (self->findings && item->findings)
    append_elements (self->findings, item->findings);
  if (self->json)
    {
      append_elements (self->diagnostics, item->text);
      append_elements (self->files, item->file_json);
    }
  else
    {
      g_string_append_len (self->out, item->text->str, (gssize) item->text->len);
      mshed_cli_flush (self->out, FALSE);
    }
  keep_result (self, item);
}

/* Several threads ------------------------------------------------------------------------- */

/* Takes the next item to check, once it is within the window; NULL when none is left. Called
 * and returns with the lock held. */
static Item *
take_next (Validate *self,
           gboolean  wait)
{
  while (self->next < self->items->len && self->next >= self->n_printed + self->window)
    {
      if (!wait)
        return NULL;
      self->n_workers_waiting++;
      pthread_cond_wait (&self->printed_more, &self->lock);
      self->n_workers_waiting--;
    }
  if (self->next == self->items->len)
    return NULL;
  return g_ptr_array_index (self->items, self->next++);
}

/* Checks @item outside the lock, which is held on entry and on return. A folder that could
 * not be opened is done from the start. */
static void
check_unlocked (Validate *self,
                Item     *item)
{
  if (item->done)
    return;
  pthread_mutex_unlock (&self->lock);
  check_item (self, item);
  pthread_mutex_lock (&self->lock);
  item->done = TRUE;
}

static gpointer
worker_main (gpointer data)
{
  Validate *self = data;
  Item *item;

  pthread_mutex_lock (&self->lock);
  while ((item = take_next (self, TRUE)) != NULL)
    {
      check_unlocked (self, item);
      if (self->main_waiting)
        pthread_cond_signal (&self->item_done);
    }
  pthread_mutex_unlock (&self->lock);
  return NULL;
}

/* The main thread: prints the items in order as they are done, and checks the next one itself
 * while the oldest is not done yet. */
static void
print_in_order (Validate *self)
{
  pthread_mutex_lock (&self->lock);
  while (self->n_printed < self->items->len)
    {
      Item *head = g_ptr_array_index (self->items, self->n_printed);
      Item *item;

      if (head->done)
        {
          pthread_mutex_unlock (&self->lock);
          print_item (self, head);
          item_free (head);
          pthread_mutex_lock (&self->lock);
          g_ptr_array_index (self->items, self->n_printed) = NULL;
          self->n_printed++;
          if (self->n_workers_waiting)
            pthread_cond_broadcast (&self->printed_more);
        }
      else if ((item = take_next (self, FALSE)) != NULL)
        check_unlocked (self, item);
      else
        {
          self->main_waiting = TRUE;
          pthread_cond_wait (&self->item_done, &self->lock);
          self->main_waiting = FALSE;
        }
    }
  pthread_mutex_unlock (&self->lock);
}

/* Checks and prints the items the walk listed, on @n_threads threads. */
static void
check_listed (Validate *self,
              guint     n_threads)
{
  g_autofree GThread **workers = NULL;
  guint n_workers = MIN (n_threads, self->items->len) - 1;

  pthread_mutex_init (&self->lock, NULL);
  pthread_cond_init (&self->item_done, NULL);
  pthread_cond_init (&self->printed_more, NULL);
  self->window = n_threads * ITEMS_PER_THREAD;
  workers = g_new0 (GThread *, MAX (n_workers, 1));
  for (guint i = 0; i < n_workers; i++)
    workers[i] = g_thread_new ("validate", worker_main, self);
  print_in_order (self);
  for (guint i = 0; i < n_workers; i++)
    g_thread_join (workers[i]);
  pthread_cond_destroy (&self->printed_more);
  pthread_cond_destroy (&self->item_done);
  pthread_mutex_destroy (&self->lock);
}

/* Checks @item (taking it) and prints it in its turn: at once on one thread; with several,
 * after the walk. */
static void
add_item (Validate *self,
          Item     *item)
{
  if (self->items)
    {
      g_ptr_array_add (self->items, item);
      return;
    }
  if (!item->done)
    check_item (self, item);
  print_item (self, item);
  item_free (item);
}

/* The walk (main thread) ----------------------------------------------------------------- */

/* A file found in a folder, or a folder that cannot be opened. */
static gboolean
on_walked (const char *path,
           guint       rel_start,
           const char *error,
           gpointer    user_data)
{
  Validate *self = user_data;
  Item *item = item_new (path, rel_start, FALSE);

  if (error)
    {
      item->check->unreadable = g_strdup (error);
      item->done = TRUE;
    }
  add_item (self, item);
  return TRUE;
}

/* The baseline file (README, "Baselines"): {"mshed-baseline": 1, "findings": [...]}, written
 * atomically. */
static gboolean
write_baseline (const char    *path,
                const GString *findings)
{
  g_autoptr(GString) doc = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  MshedJsonWriter w;

  mshed_json_begin (&w, doc, 0);
  mshed_json_int (&w, "mshed-baseline", 1, TRUE);
  mshed_json_array (&w, "findings", findings);
  mshed_json_end (&w);
  g_string_append_c (doc, '\n');
  if (!g_file_set_contents (path, doc->str, (gssize) doc->len, &error))
    {
      mshed_cli_error (_("Cannot write the baseline: %s"), error->message);
      return FALSE;
    }
  return TRUE;
}

/* --csv, --html (@path NULL: not asked for) */
static gboolean
write_report (Validate          *self,
              MshedReportFormat  format,
              const char        *path,
              int                argc,
              char             **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = NULL;

  if (path == NULL)
    return TRUE;
  root = g_strjoinv (" ", argv + 1);
  if (!mshed_check_report_write (format, path, self->results, root, self->mode, &self->totals,
                                 self->baseline != NULL, &error))
    {
      mshed_cli_error (_("Cannot write the report: %s"), error->message);
      return FALSE;
    }
  return TRUE;
}

int
mshed_cli_validate (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) files = g_string_new (NULL);
  g_autoptr(GString) diagnostics = g_string_new (NULL);
  g_autofree char *summary = NULL;
  g_autofree char *jobs_text = NULL;
  g_autofree char *baseline_path = NULL;
  g_autofree char *write_path = NULL;
  g_autofree char *csv_path = NULL;
  g_autofree char *html_path = NULL;
  g_autoptr(GString) findings = NULL;
  MshedBaseline *baseline = NULL;
  gboolean strict = FALSE, tolerant = FALSE, json = FALSE;
  guint jobs = g_get_num_processors ();
  Validate self = { 0 };
  GOptionEntry entries[] = {
    { "strict", 0, 0, G_OPTION_ARG_NONE, &strict,
      N_("Every violated invariant is an error (the default)"), NULL },
    { "tolerant", 0, 0, G_OPTION_ARG_NONE, &tolerant,
      N_("Report locally broken items as warnings, as the editor loads them"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print one JSON document with every diagnostic"), NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_STRING, &jobs_text,
      N_("Check N files at a time (default: one per processor; 1: one after the other); the "
         "output is the same"), "N" },
    { "baseline", 0, 0, G_OPTION_ARG_FILENAME, &baseline_path,
      N_("Report only the findings that FILE (written by --write-baseline) does not hold"),
      N_("FILE") },
    { "write-baseline", 0, 0, G_OPTION_ARG_FILENAME, &write_path,
      N_("Record every finding in FILE, a baseline for later runs"), N_("FILE") },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path,
      N_("Also write the findings to FILE as CSV, one a row"), N_("FILE") },
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &html_path,
      N_("Also write a standalone HTML report to FILE, grouped by file and by check"),
      N_("FILE") },
    { NULL }
  };
  int status;

  context = mshed_cli_context_new ("PATH…", _("Check models, archives and Freelancer UTF "
                                              "files against the format rules. A directory is "
                                              "searched recursively for files that start with "
                                              "“NRes” or “UTF ”. An archive is checked as a "
                                              "container and every *.msh entry in it as a "
                                              "nested model; ARCHIVE:ENTRY checks one nested "
                                              "model. A deformable model (.dfm) is checked "
                                              "with the DFM rules, any other UTF file as a "
                                              "container.\n\nExit status: 0 no errors "
                                              "(warnings are listed), 1 errors found, 2 a file "
                                              "could not be read.\n\nWith --baseline, the "
                                              "findings the baseline holds are not listed "
                                              "or counted: the exit status is 1 "
                                              "only for new errors. --write-baseline records "
                                              "every finding and exits with 0 unless a file "
                                              "could not be read."), entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (strict && tolerant)
    {
      mshed_cli_error (_("--strict and --tolerant exclude each other"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_parse_count ("--jobs", jobs_text, 1, MAX_JOBS, &jobs))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc < 2)
    {
      mshed_cli_error (_("expected at least one PATH"));
      return MSHED_CLI_EXIT_TROUBLE;
    }

  if ((write_path && !mshed_cli_check_output (write_path))
      || (csv_path && !mshed_cli_check_output (csv_path))
      || (html_path && !mshed_cli_check_output (html_path)))
    return MSHED_CLI_EXIT_PROBLEMS;
  if (baseline_path)
    {
      g_autoptr(GError) error = NULL;

      baseline = mshed_baseline_load (baseline_path, &error);
      if (baseline == NULL)
        {
          mshed_cli_error ("%s", error->message);
          return MSHED_CLI_EXIT_TROUBLE;
        }
    }
  if (write_path)
    findings = g_string_new (NULL);

  self.mode = tolerant ? MSHED_MODE_TOLERANT : MSHED_MODE_STRICT;
  self.baseline = baseline;
  self.findings = findings;
  self.json = json;
  self.out = out;
  self.files = files;
  self.diagnostics = diagnostics;
  if (jobs > 1)
    self.items = g_ptr_array_new ();
  if (csv_path || html_path)
    self.results = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_file_check_free);

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        mshed_folder_walk (argv[i], on_walked, &self);
      else
        add_item (&self, item_new (argv[i], 0, TRUE));
    }
  if (self.items)
    {
      if (self.items->len)
        check_listed (&self, MIN (jobs, MAX_JOBS));
      g_ptr_array_unref (self.items);
    }

  if (json)
    mshed_check_report_json_document (out, self.mode, files, diagnostics, &self.totals,
                                      baseline != NULL);
  else
    {
      summary = mshed_folder_totals_summary (&self.totals, baseline != NULL);
      g_string_append_printf (out, "%s\n", summary);
    }
  mshed_cli_flush (out, TRUE);

  if (self.results)
    {
      gboolean written = write_report (&self, MSHED_REPORT_CSV, csv_path, argc, argv)
                         && write_report (&self, MSHED_REPORT_HTML, html_path, argc, argv);

      g_ptr_array_unref (self.results);
      if (!written)
        {
          mshed_baseline_free (baseline);
          return MSHED_CLI_EXIT_PROBLEMS;
        }
    }
  mshed_baseline_free (baseline);
  if (write_path && !write_baseline (write_path, findings))
    return MSHED_CLI_EXIT_PROBLEMS;

  if (self.totals.n_unreadable)
    status = MSHED_CLI_EXIT_TROUBLE;
  else if (write_path)
    status = MSHED_CLI_EXIT_OK;
  else if (self.totals.n_errors)
    status = MSHED_CLI_EXIT_PROBLEMS;
  else
    status = MSHED_CLI_EXIT_OK;
  return status;
}
