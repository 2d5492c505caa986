/* test-folder-check.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The folder check of model/mshed-folder-check.h (what the Check Folder window runs) and its
 * reports (model/mshed-check-report.h, `mshed-cli validate --csv/--html`), on a generated game
 * folder: loose models, two archives (.rlb, .lib), two deformable models and a text file, with
 * defects planted by `mshed-cli edit` at hand-picked cells (tests/test-cli-util.c). The check
 * finds exactly those; a baseline hides them and a defect planted afterwards is the only one
 * left; a cancelled run stops within a second; the reports list the same findings as --json.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "mshed-check-report.h"
#include "mshed-folder-check.h"
#include "test-cli-util.h"
#include "test-require.h"

/* make_planted_game () plus a clean .lib archive, a clean head and a file that is no model. */
static char *
make_game (const char *dir)
{
  g_autofree char *arch = g_strdup_printf ("%s/arch", dir);
  g_autofree char *arch_path = path_in_tmp (arch);
  g_autofree char *lib = g_strdup_printf ("%s/arch/second.lib", dir);
  g_autofree char *head = g_strdup_printf ("%s/arch/head.dfm", dir);
  g_autofree char *notes = g_strdup_printf ("%s/notes.txt", dir);

  make_planted_game (dir);
  g_assert_cmpint (g_mkdir_with_parents (arch_path, 0755), ==, 0);
  run_cli_ok ("generate", "-q", "--archive", "3", "--seed", "9", "-o", lib, NULL);
  run_cli_ok ("generate", "-q", "--dfm", "head", "--seed", "5", "-o", head, NULL);
  g_assert_true (write_text (notes, "not a model\n"));
  return path_in_tmp (dir);
}

typedef struct {
  GMutex        lock;
  guint         n_results;
  guint         n_progress;
  MshedFolderProgress last;
  GCancellable *cancel_after_first;
  gint64        cancelled_at;   /* monotonic µs */
} Seen;

static void
on_result (const MshedFileCheck *check,
           gpointer              user_data)
{
  Seen *seen = user_data;

  g_assert_false (check->skipped);
  seen->n_results++;
}

static void
on_progress (const MshedFolderProgress *progress,
             gpointer                   user_data)
{
  Seen *seen = user_data;

  /* one call at a time, counts only grow */
  g_assert_true (g_mutex_trylock (&seen->lock));
  g_assert_cmpuint (progress->n_done, >=, seen->last.n_done);
  g_assert_cmpuint (progress->bytes_done, >=, seen->last.bytes_done);
  seen->last = *progress;
  seen->last.current = NULL;
  seen->n_progress++;
  if (seen->cancel_after_first && progress->n_done >= 1 && seen->cancelled_at == 0)
    {
      seen->cancelled_at = g_get_monotonic_time ();
      g_cancellable_cancel (seen->cancel_after_first);
    }
  g_mutex_unlock (&seen->lock);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Every error and warning of @results as "file|entry|check|table[record].field|severity",
 * sorted. */
static char *
findings_of (GPtrArray *results)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) all = g_string_new (NULL);

  for (guint i = 0; i < results->len; i++)
    {
      const MshedFileCheck *c = g_ptr_array_index (results, i);

      g_assert_null (c->unreadable);
      for (guint k = 0; k < mshed_diagnostics_get_n_items (c->diags); k++)
        {
          const MshedDiagnostic *d = mshed_diagnostics_get (c->diags, k);

          if (c->known[k] || d->severity == MSHED_SEVERITY_INFO)
            continue;
          g_ptr_array_add (lines, g_strdup_printf ("%s|%s|%s|%s[%" G_GINT64_FORMAT "].%s|%s",
                                                   c->file, d->entry ? d->entry : "",
                                                   mshed_check_to_string (d->check),
                                                   mshed_diagnostic_table_name (d), d->record,
                                                   d->field,
                                                   mshed_severity_to_string (d->severity)));
        }
    }
  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (all, "%s\n", (char *) g_ptr_array_index (lines, i));
  return g_strdup (all->str);
}

static guint64
file_size (const char *root,
           const char *name)
{
  g_autofree char *path = g_build_filename (root, name, NULL);
  struct stat st;

  g_assert_cmpint (stat (path, &st), ==, 0);
  return (guint64) st.st_size;
}

static void
test_planted (void)
{
  g_autofree char *root = make_game ("game");
  g_autoptr(MshedFolderCheck) check = mshed_folder_check_new (root, MSHED_MODE_STRICT);
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *findings = NULL;
  g_autoptr(GError) error = NULL;
  const char *const names[] = { "a.msh", "arch/head.dfm", "arch/second.lib", "b.msh",
                                "sub/body.dfm", "sub/pack.rlb" };
  guint64 bytes = file_size (root, "notes.txt");
  MshedFolderTotals totals;
  Seen seen = { 0 };

  g_mutex_init (&seen.lock);
  mshed_folder_check_set_n_threads (check, 2);
  mshed_folder_check_set_result_func (check, on_result, &seen);
  mshed_folder_check_set_progress_func (check, on_progress, &seen);
  g_assert_true (mshed_folder_check_run (check, NULL, &error));
  g_assert_no_error (error);

  /* the files in walk order, notes.txt skipped */
  results = mshed_folder_check_get_results (check);
  g_assert_cmpuint (results->len, ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < results->len; i++)
    {
      const MshedFileCheck *c = g_ptr_array_index (results, i);

      g_assert_cmpstr (c->file, ==, names[i]);
      g_assert_cmpuint (c->size, ==, file_size (root, names[i]));
      bytes += c->size;
    }
  g_assert_cmpuint (seen.n_results, ==, G_N_ELEMENTS (names));
  g_assert_cmpint (((MshedFileCheck *) g_ptr_array_index (results, 1))->kind, ==,
                   MSHED_CHECKED_DFM);
  g_assert_cmpuint (((MshedFileCheck *) g_ptr_array_index (results, 2))->n_models, ==, 3);

  /* exactly the planted problems (make_planted_game) */
  findings = findings_of (results);
  g_assert_cmpstr (findings, ==,
                   "a.msh||slot-batch-range|slots[1].batchStart|error\n"
                   "sub/body.dfm||dfm-group-count|group-count[0].count|warning\n"
                   "sub/pack.rlb|Hangar_1.MSH|node-slot|nodes[2].slot5|error\n");
  mshed_folder_check_get_totals (check, &totals);
  g_assert_cmpuint (totals.n_files, ==, 6);
  g_assert_cmpuint (totals.n_models, ==, 2 + 2 + 3);
  g_assert_cmpuint (totals.n_dfm, ==, 2);
  g_assert_cmpuint (totals.n_errors, ==, 2);
  g_assert_cmpuint (totals.n_warnings, ==, 1);
  g_assert_cmpuint (totals.n_known, ==, 0);

  /* the progress ends at every file and byte the walk found */
  g_assert_cmpuint (seen.last.n_files, ==, 7);
  g_assert_cmpuint (seen.last.n_done, ==, 7);
  g_assert_cmpuint (seen.last.bytes_total, ==, bytes);
  g_assert_cmpuint (seen.last.bytes_done, ==, bytes);
  g_assert_cmpuint (seen.n_progress, ==, 1 + 7);
  g_mutex_clear (&seen.lock);
}

/* A baseline written by the CLI hides the planted findings; a new one is all that is left. */
static void
test_baseline (void)
{
  g_autofree char *root = make_game ("game2");
  g_autofree char *base_path = path_in_tmp ("base2.json");
  g_autoptr(MshedFolderCheck) check = mshed_folder_check_new (root, MSHED_MODE_STRICT);
  g_autoptr(MshedBaseline) baseline = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *findings = NULL;
  g_autoptr(GError) error = NULL;
  MshedFolderTotals totals;

  run_cli_ok ("validate", "--write-baseline", "base2.json", "game2", NULL);
  run_cli_plant ("game2/b.msh", "slots[0].batchCount=9000");
  baseline = mshed_baseline_load (base_path, &error);
  g_assert_no_error (error);

  mshed_folder_check_set_baseline (check, baseline);
  g_assert_true (mshed_folder_check_run (check, NULL, &error));
  results = mshed_folder_check_get_results (check);
  findings = findings_of (results);
  g_assert_cmpstr (findings, ==, "b.msh||slot-batch-range|slots[0].batchStart|error\n");
  mshed_folder_check_get_totals (check, &totals);
  g_assert_cmpuint (totals.n_errors, ==, 1);
  g_assert_cmpuint (totals.n_warnings, ==, 0);
  g_assert_cmpuint (totals.n_infos, ==, 0);
  g_assert_cmpuint (totals.n_known, >=, 3);
}

/* Cancelled after the first result, the run returns within a second, files left unchecked. */
static void
test_cancel (void)
{
  g_autofree char *root = path_in_tmp ("many");
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(MshedFolderCheck) check = mshed_folder_check_new (root, MSHED_MODE_STRICT);
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  Seen seen = { 0 };
  gint64 returned;

  g_assert_cmpint (g_mkdir_with_parents (root, 0755), ==, 0);
  run_cli_ok ("generate", "-q", "--seed", "11", "--triangles", "20000", "-o", "many/m000.msh",
              NULL);
  model = read_file ("many/m000.msh");
  for (guint i = 1; i < 400; i++)
    {
      g_autofree char *name = g_strdup_printf ("many/m%03u.msh", i);

      write_file (name, model);
    }

  g_mutex_init (&seen.lock);
  seen.cancel_after_first = cancellable;
  mshed_folder_check_set_n_threads (check, 2);
  mshed_folder_check_set_progress_func (check, on_progress, &seen);
  g_assert_false (mshed_folder_check_run (check, cancellable, &error));
  returned = g_get_monotonic_time ();
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (seen.cancelled_at, >, 0);
  g_assert_cmpint (returned - seen.cancelled_at, <, G_USEC_PER_SEC);
  g_assert_cmpuint (seen.last.n_files, ==, 400);
  g_assert_cmpuint (seen.last.n_done, <, 400);
  results = mshed_folder_check_get_results (check);
  g_assert_cmpuint (results->len, ==, seen.last.n_done);
  g_mutex_clear (&seen.lock);
}

/* The rows of a CSV file as Python's csv module reads them (an independent reader), as JSON. */
static JsonNode *
read_csv_with_python (const char *name)
{
  g_autofree char *path = path_in_tmp (name);
  const char *argv[] = { "python3", "-c",
                         "import csv, json, sys\n"
                         "print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', "
                         "encoding='utf-8')))))",
                         path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return parse_json (out);
}

/* The page as headless Chromium (Debian's `chromium`) has it after the inline script ran. */
static char *
dom_in_chromium (const char *name)
{
  g_autofree char *path = path_in_tmp (name);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  const char *argv[] = { "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                         "--dump-dom", uri, NULL };
  g_autofree char *chromium = g_find_program_in_path ("chromium");
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status;

  if (chromium == NULL)
    return NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* The CLI's --csv and --html list what its --json lists; the report of the model's run is
 * the CLI's --json, byte for byte. */
static void
test_reports (void)
{
  g_autofree char *root = make_game ("game3");
  g_autoptr(MshedFolderCheck) check = mshed_folder_check_new (root, MSHED_MODE_STRICT);
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(JsonNode) doc = NULL;
  g_autoptr(JsonNode) csv = NULL;
  g_autoptr(GBytes) html_bytes = NULL;
  g_autofree char *html = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  MshedFolderTotals totals;
  JsonArray *diags, *rows;
  Run run = { 0 };

  run_cli (&run, "validate", "--json", "--csv", "r.csv", "--html", "r.html", root, NULL);
  g_assert_cmpint (run.status, ==, 1);
  doc = parse_json (run.out);
  diags = json_object_get_array_member (json_node_get_object (doc), "diagnostics");

  /* CSV: a header, then one row per diagnostic, in the same order */
  csv = read_csv_with_python ("r.csv");
  rows = json_node_get_array (csv);
  g_assert_cmpuint (json_array_get_length (rows), ==, 1 + json_array_get_length (diags));
  g_assert_cmpstr (json_array_get_string_element (json_array_get_array_element (rows, 0), 3),
                   ==, "check");
  for (guint i = 0; i < json_array_get_length (diags); i++)
    {
      JsonObject *d = json_array_get_object_element (diags, i);
      JsonArray *row = json_array_get_array_element (rows, i + 1);

      g_assert_cmpuint (json_array_get_length (row), ==, 10);
      g_assert_cmpstr (json_array_get_string_element (row, 0), ==,
                       json_object_get_string_member (d, "file"));
      g_assert_cmpstr (json_array_get_string_element (row, 2), ==,
                       json_object_get_string_member (d, "severity"));
      g_assert_cmpstr (json_array_get_string_element (row, 3), ==,
                       json_object_get_string_member (d, "check"));
      g_assert_cmpint (g_ascii_strtoll (json_array_get_string_element (row, 8), NULL, 10), ==,
                       json_object_get_int_member (d, "offset"));
      g_assert_cmpstr (json_array_get_string_element (row, 9), ==,
                       json_object_get_string_member (d, "message"));
    }

  /* HTML: one page, both groupings, every finding, nothing from the network */
  html_bytes = read_file ("r.html");
  html = g_strndup (g_bytes_get_data (html_bytes, NULL), g_bytes_get_size (html_bytes));
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
  g_assert_nonnull (strstr (html, "<section class=\"group\" id=\"by-file\">"));
  g_assert_nonnull (strstr (html, "<section class=\"group\" id=\"by-check\">"));
  g_assert_nonnull (strstr (html, "<summary>slot-batch-range<span class=\"n\">1</span>"));
  g_assert_nonnull (strstr (html, "<summary>node-slot<span class=\"n\">1</span>"));
  g_assert_null (strstr (html, "http:"));
  g_assert_null (strstr (html, "https:"));
  g_assert_null (strstr (html, " src="));
  g_assert_null (strstr (html, "<link"));
  for (guint i = 0; i < json_array_get_length (diags); i++)
    {
      JsonObject *d = json_array_get_object_element (diags, i);
      g_autofree char *escaped =
        g_markup_escape_text (json_object_get_string_member (d, "message"), -1);
      const char *at = strstr (html, escaped);

      /* once under its file, once under its check */
      g_assert_nonnull (at);
      g_assert_nonnull (strstr (at + 1, escaped));
    }

  /* in a real browser the script runs: grouped by file, the other grouping hidden */
  g_free (html);
  html = dom_in_chromium ("r.html");
  if (html == NULL)
    mshed_test_skip ("chromium is not installed (the HTML report is checked in it)");
  else
    {
      g_assert_nonnull (strstr (html, "<body class=\"js\">"));
      g_assert_nonnull (strstr (html, "<section class=\"group shown\" id=\"by-file\">"));
      g_assert_nonnull (strstr (html, "<section class=\"group\" id=\"by-check\">"));
    }

  /* the window's JSON export is the CLI's --json */
  g_assert_true (mshed_folder_check_run (check, NULL, &error));
  results = mshed_folder_check_get_results (check);
  mshed_folder_check_get_totals (check, &totals);
  json = mshed_check_report_format (MSHED_REPORT_JSON, results, root, MSHED_MODE_STRICT,
                                    &totals, FALSE);
  g_assert_cmpstr (json, ==, run.out);
  run_clear (&run);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;

  g_test_add_func ("/folder-check/planted", test_planted);
  g_test_add_func ("/folder-check/baseline", test_baseline);
  g_test_add_func ("/folder-check/cancel", test_cancel);
  g_test_add_func ("/folder-check/reports", test_reports);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
