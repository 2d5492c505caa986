/* mshed-check-window.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Check Folder window (see the header). The check runs in a GTask thread that drives the
 * model's runner (model/mshed-folder-check.h) on one thread per processor. The runner's
 * callbacks come on those threads: they only store the progress and the finished files under
 * a lock and schedule one idle, which updates the progress bar and the result rows on the
 * main thread, at most every UPDATE_MS. Cancel cancels the GCancellable: the runner drops the
 * files not started yet, so the run ends once the files being checked are done.
 *
 * The rows are a GtkTreeListModel: a group (a file, or a check) with its findings below. The
 * filter and the grouping rebuild it from the findings collected so far.
 */
#define G_LOG_DOMAIN "mshed-check-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-check-report.h"
#include "mshed-check-window.h"
#include "mshed-folder-check.h"
#include "mshed-thumbnails.h"
#include "mshed-window-private.h"

#define UPDATE_MS 150

/* A row: a group, or one finding -------------------------------------------------------- */

#define MSHED_TYPE_CHECK_ROW (mshed_check_row_get_type ())
G_DECLARE_FINAL_TYPE (MshedCheckRow, mshed_check_row, MSHED, CHECK_ROW, GObject)

struct _MshedCheckRow {
  GObject                parent_instance;
  GListStore            *children;    /* a group: its findings; NULL for a finding */
  char                  *title;       /* a group: the file or the check */
  const MshedFileCheck  *file;        /* a finding, or a file's group: owned by the window's
                                       * runner */
  guint                  seq;         /* a finding: its place among all findings */
  const MshedDiagnostic *d;           /* NULL for a failure or an unreadable file */
  const char            *check;
  MshedSeverity          severity;
  const char            *message;
  char                  *location;
  char                  *search;      /* casefolded text the filter looks in */
};

G_DEFINE_FINAL_TYPE (MshedCheckRow, mshed_check_row, G_TYPE_OBJECT)

static void
mshed_check_row_finalize (GObject *object)
{
  MshedCheckRow *self = MSHED_CHECK_ROW (object);

  g_clear_object (&self->children);
  g_free (self->title);
  g_free (self->location);
  g_free (self->search);
  G_OBJECT_CLASS (mshed_check_row_parent_class)->finalize (object);
}

static void
mshed_check_row_class_init (MshedCheckRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_check_row_finalize;
}

static void
mshed_check_row_init (MshedCheckRow *self)
{
}

static MshedCheckRow *
finding_new (const MshedFileCheck  *file,
             const MshedDiagnostic *d,
             const char            *check,
             const char            *message)
{
  MshedCheckRow *row = g_object_new (MSHED_TYPE_CHECK_ROW, NULL);
  g_autofree char *text = NULL;

  row->file = file;
  row->d = d;
  row->check = check;
  row->severity = d ? d->severity : MSHED_SEVERITY_ERROR;
  row->message = message;
  row->location = mshed_check_report_location (d);
  text = g_strjoin (" ", file->file, check, row->location, message ? message : "",
                    d && d->entry ? d->entry : "", NULL);
  row->search = g_utf8_casefold (text, -1);
  return row;
}

static MshedCheckRow *
group_new (const char *title)
{
  MshedCheckRow *row = g_object_new (MSHED_TYPE_CHECK_ROW, NULL);

  row->title = g_strdup (title);
  row->children = g_list_store_new (MSHED_TYPE_CHECK_ROW);
  return row;
}

/* The window ----------------------------------------------------------------------------- */

struct _MshedCheckWindow {
  GtkWindow          parent_instance;

  /* template children */
  GtkLabel          *folder_label;
  GtkLabel          *baseline_label;
  GtkProgressBar    *progress_bar;
  GtkLabel          *current_label;
  GtkSearchEntry    *filter_entry;
  GtkToggleButton   *by_file_button;
  GtkColumnView     *column_view;

  GtkWindow         *opener;          /* weak: the main window it was opened from */
  char              *folder;
  char              *baseline_path;
  MshedBaseline     *baseline;
  MshedFolderCheck  *check;           /* the last run; it owns the MshedFileCheck of the rows */
  GPtrArray         *findings;        /* MshedCheckRow of every finding so far */
  GListStore        *groups;
  GtkTreeListModel  *tree;
  GtkSingleSelection *selection;
  GHashTable        *opened;          /* spec → weak MshedWindow it was opened in */

  /* the run */
  GCancellable      *cancellable;
  gint64             started;         /* monotonic µs */
  GMutex             lock;            /* guards what follows (the runner's threads write) */
  GPtrArray         *pending;         /* MshedFileCheck done, not shown yet */
  MshedFolderProgress progress;
  char              *current;
  guint              update_id;
  gboolean           running;
  gboolean           cancelled;
  gboolean           disposed;        /* no more updates (under the lock) */
};

G_DEFINE_FINAL_TYPE (MshedCheckWindow, mshed_check_window, GTK_TYPE_WINDOW)

static void update_actions (MshedCheckWindow *self);

/* The rows ------------------------------------------------------------------------------- */

static void
add_finding (MshedCheckWindow      *self,
             const MshedFileCheck  *c,
             const MshedDiagnostic *d,
             const char            *check,
             const char            *message)
{
  MshedCheckRow *row = finding_new (c, d, check, message);

  row->seq = self->findings->len;
  g_ptr_array_add (self->findings, row);
}

static void
add_findings_of (MshedCheckWindow     *self,
                 const MshedFileCheck *c)
{
  guint n = c->diags ? mshed_diagnostics_get_n_items (c->diags) : 0;

  if (c->unreadable)
    {
      add_finding (self, c, NULL, "unreadable", c->unreadable);
      return;
    }
  for (guint k = 0; k < n; k++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (c->diags, k);

      if (c->known && c->known[k])
        continue;
      add_finding (self, c, d, mshed_check_to_string (d->check), d->message);
    }
  if (c->diags && mshed_file_check_failure_shown (c))
    add_finding (self, c, NULL, "failure", c->failure);
}

static gboolean
by_check (MshedCheckWindow *self)
{
  return !gtk_toggle_button_get_active (self->by_file_button);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const MshedCheckRow *x = *(MshedCheckRow *const *) a;
  const MshedCheckRow *y = *(MshedCheckRow *const *) b;
  int c = user_data ? strcmp (x->check, y->check) : 0;

  if (c != 0)
    return c;
  if (x->file->index != y->file->index)
    return x->file->index < y->file->index ? -1 : 1;
  /* a file's findings in their order */
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  MshedCheckRow *row = item;

  return row->children ? g_object_ref (G_LIST_MODEL (row->children)) : NULL;
}

/* Groups the findings that match the filter, by file (walk order) or by check (name order). */
static void
rebuild_rows (MshedCheckWindow *self)
{
  g_autofree char *filter = g_utf8_casefold (gtk_editable_get_text (
                                               GTK_EDITABLE (self->filter_entry)), -1);
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean grouped_by_check = by_check (self);
  MshedCheckRow *group = NULL;

  for (guint i = 0; i < self->findings->len; i++)
    {
      MshedCheckRow *row = g_ptr_array_index (self->findings, i);

      if (*filter == '\0' || strstr (row->search, filter))
        g_ptr_array_add (shown, row);
    }
  g_ptr_array_sort_with_data (shown, compare_rows, grouped_by_check ? self : NULL);
  for (guint i = 0; i < shown->len; i++)
    {
      MshedCheckRow *row = g_ptr_array_index (shown, i);
      const char *title = grouped_by_check ? row->check : row->file->file;

      if (group == NULL || strcmp (group->title, title) != 0)
        {
          group = group_new (title);
          group->file = grouped_by_check ? NULL : row->file;
          g_ptr_array_add (groups, group);
        }
      g_list_store_append (group->children, row);
    }
  g_list_store_splice (self->groups, 0, g_list_model_get_n_items (G_LIST_MODEL (self->groups)),
                       groups->pdata, groups->len);
}

static void
on_filter_changed (MshedCheckWindow *self)
{
  rebuild_rows (self);
}

static void
on_grouping_toggled (MshedCheckWindow *self)
{
  GtkColumnViewColumn *first = g_list_model_get_item (
    gtk_column_view_get_columns (self->column_view), 0);

  gtk_column_view_column_set_title (first, by_check (self) ? _("Check / File")
                                                           : _("File / Check"));
  g_object_unref (first);
  rebuild_rows (self);
}

/* Progress and results (main thread) ----------------------------------------------------- */

/* When the run is over: the totals and the time it took. */
static void
show_summary (MshedCheckWindow *self)
{
  MshedFolderTotals totals;
  g_autofree char *summary = NULL;
  g_autofree char *text = NULL;

  mshed_folder_check_get_totals (self->check, &totals);
  summary = mshed_folder_totals_summary (&totals, self->baseline != NULL);
  /* Translators: the summary of the check, then how long it took */
  text = g_strdup_printf (_("%s (%.2f s)"), summary,
                          (double) (g_get_monotonic_time () - self->started) / G_USEC_PER_SEC);
  gtk_progress_bar_set_text (self->progress_bar, text);
}

static void
show_progress (MshedCheckWindow          *self,
               const MshedFolderProgress *p,
               const char                *current)
{
  g_autofree char *done = g_format_size (p->bytes_done);
  g_autofree char *total = g_format_size (p->bytes_total);
  g_autofree char *text = NULL;

  if (p->n_files == 0)
    text = g_strdup (_("Looking for files…"));
  else
    /* Translators: files checked of files found, then bytes, "12.3 MB of 1.0 GB" */
    text = g_strdup_printf (_("%u of %u files · %s of %s"), p->n_done, p->n_files, done,
                            total);
  gtk_progress_bar_set_text (self->progress_bar, text);
  gtk_progress_bar_set_fraction (self->progress_bar, p->bytes_total
                                 ? (double) p->bytes_done / (double) p->bytes_total
                                 : p->n_files ? (double) p->n_done / p->n_files : 0.0);
  if (current)
    gtk_label_set_text (self->current_label, current);
}

/* Moves what the threads left to the rows. */
static gboolean
update_now (gpointer user_data)
{
  MshedCheckWindow *self = user_data;
  g_autoptr(GPtrArray) pending = NULL;
  g_autofree char *current = NULL;
  MshedFolderProgress progress;

  g_mutex_lock (&self->lock);
  pending = g_steal_pointer (&self->pending);
  self->pending = g_ptr_array_new ();
  progress = self->progress;
  current = g_steal_pointer (&self->current);
  self->update_id = 0;
  g_mutex_unlock (&self->lock);

  show_progress (self, &progress, current);
  for (guint i = 0; i < pending->len; i++)
    add_findings_of (self, g_ptr_array_index (pending, i));
  if (pending->len)
    rebuild_rows (self);
  return G_SOURCE_REMOVE;
}

/* On a checking thread, under the runner's lock. */
static void
schedule_update (MshedCheckWindow *self)
{
  if (self->update_id == 0 && !self->disposed)
    self->update_id = g_timeout_add_full (G_PRIORITY_DEFAULT, UPDATE_MS, update_now,
                                          g_object_ref (self), g_object_unref);
}

static void
on_run_result (const MshedFileCheck *check,
               gpointer              user_data)
{
  MshedCheckWindow *self = user_data;

  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->pending, (gpointer) check);
  schedule_update (self);
  g_mutex_unlock (&self->lock);
}

static void
on_run_progress (const MshedFolderProgress *progress,
                 gpointer                   user_data)
{
  MshedCheckWindow *self = user_data;

  g_mutex_lock (&self->lock);
  self->progress = *progress;
  self->progress.current = NULL;
  if (progress->current)
    {
      g_free (self->current);
      self->current = g_strdup (progress->current);
    }
  schedule_update (self);
  g_mutex_unlock (&self->lock);
}

static void
run_in_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  MshedFolderCheck *check = task_data;
  GError *error = NULL;

  if (mshed_folder_check_run (check, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  MshedCheckWindow *self = MSHED_CHECK_WINDOW (source);
  g_autoptr(GError) error = NULL;
  gboolean done = g_task_propagate_boolean (G_TASK (result), &error);

  self->running = FALSE;
  g_clear_object (&self->cancellable);
  if (self->disposed)
    return;
  g_clear_handle_id (&self->update_id, g_source_remove);
  update_now (self);
  self->cancelled = !done;
  gtk_label_set_text (self->current_label, done ? "" : _("Cancelled: the results are partial"));
  if (done)
    gtk_progress_bar_set_fraction (self->progress_bar, 1.0);
  show_summary (self);
  update_actions (self);
}

static void
start (MshedCheckWindow *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->running || self->folder == NULL)
    return;
  /* the rows point into the last run's results */
  g_ptr_array_set_size (self->findings, 0);
  rebuild_rows (self);
  g_clear_pointer (&self->check, mshed_folder_check_free);
  gtk_label_set_text (self->current_label, "");
  memset (&self->progress, 0, sizeof self->progress);
  show_progress (self, &self->progress, NULL);

  self->check = mshed_folder_check_new (self->folder, MSHED_MODE_STRICT);
  mshed_folder_check_set_baseline (self->check, self->baseline);
  mshed_folder_check_set_result_func (self->check, on_run_result, self);
  mshed_folder_check_set_progress_func (self->check, on_run_progress, self);
  self->cancellable = g_cancellable_new ();
  self->running = TRUE;
  self->cancelled = FALSE;
  self->started = g_get_monotonic_time ();
  update_actions (self);

  /* the task keeps the window alive until the threads are done with it */
  task = g_task_new (self, self->cancellable, on_run_done, NULL);
  g_task_set_task_data (task, self->check, NULL);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, run_in_thread);
}

/* Opening a result ----------------------------------------------------------------------- */

static gboolean
same_place (const MshedDiagnostic *a,
            const MshedDiagnostic *b)
{
  return a->check == b->check && a->table == b->table && a->record == b->record
         && g_strcmp0 (a->field, b->field) == 0 && g_strcmp0 (a->path, b->path) == 0;
}

/* Shows @row's problem in @window: the document's own diagnostic at the same place (its
 * offsets are the document's), else the one the check found. */
static void
show_problem (MshedWindow         *window,
              const MshedCheckRow *row)
{
  const MshedDiagnostics *diags;
  const MshedDiagnostic *match = row->d;

  if (window->document == NULL || row->d == NULL)
    return;
  diags = mshed_document_get_diagnostics (window->document);
  for (guint i = 0; diags && i < mshed_diagnostics_get_n_items (diags); i++)
    if (same_place (mshed_diagnostics_get (diags, i), row->d))
      {
        match = mshed_diagnostics_get (diags, i);
        break;
      }
  g_object_set (window, "show-bottom-panel", TRUE, NULL);
  g_signal_emit_by_name (window->diagnostics_view, "diagnostic-activated", match);
}

static void
open_row (MshedCheckWindow    *self,
          const MshedCheckRow *row)
{
  MshedApplication *app = MSHED_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autofree char *spec = row->d && row->d->entry
    ? g_strdup_printf ("%s:%s", row->file->path, row->d->entry) : g_strdup (row->file->path);
  GWeakRef *ref = g_hash_table_lookup (self->opened, spec);
  g_autoptr(GObject) known = ref ? g_weak_ref_get (ref) : NULL;
  MshedWindow *window = known && gtk_widget_get_visible (GTK_WIDGET (known))
    ? MSHED_WINDOW (known) : NULL;

  if (window == NULL && MSHED_IS_WINDOW (self->opener)
      && mshed_window_is_empty (MSHED_WINDOW (self->opener)))
    window = MSHED_WINDOW (self->opener);
  if (window && mshed_window_get_document (window) == NULL)
    mshed_window_open (window, spec);
  else if (window == NULL)
    window = MSHED_WINDOW (mshed_application_open_spec (app, spec));
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, window);
  g_hash_table_replace (self->opened, g_strdup (spec), ref);
  gtk_window_present (GTK_WINDOW (window));
  show_problem (window, row);
}

static void
on_activate (MshedCheckWindow *self,
             guint             position)
{
  g_autoptr(GtkTreeListRow) tree_row = g_list_model_get_item (G_LIST_MODEL (self->tree),
                                                              position);
  MshedCheckRow *row = tree_row ? gtk_tree_list_row_get_item (tree_row) : NULL;

  if (row == NULL)
    return;
  if (row->children)
    gtk_tree_list_row_set_expanded (tree_row, !gtk_tree_list_row_get_expanded (tree_row));
  else
    open_row (self, row);
  g_object_unref (row);
}

static void
weak_ref_free (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

/* Choosing files and exporting ----------------------------------------------------------- */

typedef void (*ChosenFunc) (MshedCheckWindow *self,
                            GFile            *file,
                            const char       *what);

typedef struct {
  MshedCheckWindow *self;
  ChosenFunc        func;
  char             *what;
} Choice;

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     Choice          *choice)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (file)
    choice->func (choice->self, file, choice->what);
  g_object_unref (choice->self);
  g_free (choice->what);
  g_free (choice);
  g_object_unref (dialog);
}

static void
choose (MshedCheckWindow     *self,
        const char           *title,
        GtkFileChooserAction  action,
        const char           *accept,
        const char           *name,
        ChosenFunc            func,
        const char           *what)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action,
                                                              accept, _("_Cancel"));
  Choice *choice = g_new0 (Choice, 1);

  choice->self = g_object_ref (self);
  choice->func = func;
  choice->what = g_strdup (what);
  if (name)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_chooser_response), choice);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
show_error (MshedCheckWindow *self,
            const char       *primary,
            const char       *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s",
                                              primary);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
folder_chosen (MshedCheckWindow *self,
               GFile            *file,
               const char       *what)
{
  g_autofree char *path = g_file_get_path (file);

  if (path)
    {
      mshed_check_window_set_folder (self, path);
      start (self);
    }
}

static void
baseline_chosen (MshedCheckWindow *self,
                 GFile            *file,
                 const char       *what)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;

  if (path && !mshed_check_window_set_baseline (self, path, &error))
    show_error (self, _("Could not read the baseline"), error->message);
}

static MshedReportFormat
format_of (const char *what)
{
  if (g_strcmp0 (what, "csv") == 0)
    return MSHED_REPORT_CSV;
  return g_strcmp0 (what, "html") == 0 ? MSHED_REPORT_HTML : MSHED_REPORT_JSON;
}

static void
export_chosen (MshedCheckWindow *self,
               GFile            *file,
               const char       *what)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  MshedFolderTotals totals;

  if (path == NULL || self->check == NULL)
    return;
  results = mshed_folder_check_get_results (self->check);
  mshed_folder_check_get_totals (self->check, &totals);
  if (!mshed_check_report_write (format_of (what), path, results, self->folder,
                                 MSHED_MODE_STRICT, &totals, self->baseline != NULL, &error))
    show_error (self, _("Could not export the results"), error->message);
}

/* Actions -------------------------------------------------------------------------------- */

static void
update_actions (MshedCheckWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (widget, "check.start", self->folder && !self->running);
  gtk_widget_action_set_enabled (widget, "check.cancel", self->running);
  gtk_widget_action_set_enabled (widget, "check.choose-folder", !self->running);
  gtk_widget_action_set_enabled (widget, "check.choose-baseline", !self->running);
  gtk_widget_action_set_enabled (widget, "check.clear-baseline",
                                 !self->running && self->baseline);
  gtk_widget_action_set_enabled (widget, "check.export", !self->running && self->check);
}

static void
start_action (GtkWidget  *widget,
              const char *action,
              GVariant   *param)
{
  start (MSHED_CHECK_WINDOW (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action,
               GVariant   *param)
{
  MshedCheckWindow *self = MSHED_CHECK_WINDOW (widget);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action,
                      GVariant   *param)
{
  choose (MSHED_CHECK_WINDOW (widget), _("Choose a Folder to Check"),
          GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Check"), NULL, folder_chosen, NULL);
}

static void
choose_baseline_action (GtkWidget  *widget,
                        const char *action,
                        GVariant   *param)
{
  choose (MSHED_CHECK_WINDOW (widget), _("Choose a Baseline"), GTK_FILE_CHOOSER_ACTION_OPEN,
          _("_Use"), NULL, baseline_chosen, NULL);
}

static void
clear_baseline_action (GtkWidget  *widget,
                       const char *action,
                       GVariant   *param)
{
  mshed_check_window_set_baseline (MSHED_CHECK_WINDOW (widget), NULL, NULL);
}

static void
export_action (GtkWidget  *widget,
               const char *action,
               GVariant   *param)
{
  const char *what = g_variant_get_string (param, NULL);
  const char *name = format_of (what) == MSHED_REPORT_CSV ? "check.csv"
                     : format_of (what) == MSHED_REPORT_HTML ? "check.html" : "check.json";

  choose (MSHED_CHECK_WINDOW (widget), _("Export the Results"), GTK_FILE_CHOOSER_ACTION_SAVE,
          _("_Export"), name, export_chosen, what);
}

/* Cells ---------------------------------------------------------------------------------- */

typedef enum {
  COLUMN_TITLE,
  COLUMN_SEVERITY,
  COLUMN_ENTRY,
  COLUMN_LOCATION,
  COLUMN_MESSAGE,
} Column;

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), GPOINTER_TO_INT (user_data) == COLUMN_TITLE
                           ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END);
  if (GPOINTER_TO_INT (user_data) == COLUMN_TITLE)
    {
      /* the file's picture, then its name */
      GtkWidget *expander = gtk_tree_expander_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (box), mshed_thumbnail_new ());
      gtk_box_append (GTK_BOX (box), label);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
      gtk_list_item_set_child (item, expander);
    }
  else
    gtk_list_item_set_child (item, label);
}

/* A row that names a file shows its picture: a file's group, or a finding among a check's. */
static void
bind_picture (GtkWidget           *picture,
              const MshedCheckRow *row,
              gboolean             grouped_by_check)
{
  const MshedFileCheck *file = row->children ? row->file : grouped_by_check ? row->file : NULL;

  gtk_widget_set_visible (picture, file != NULL);
  if (file != NULL)
    mshed_thumbnail_set_file (picture, file->path);
  else
    mshed_thumbnail_clear (picture);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (item);
  MshedCheckRow *row = gtk_tree_list_row_get_item (tree_row);
  GtkWidget *child = gtk_list_item_get_child (item);
  MshedCheckWindow *self = MSHED_CHECK_WINDOW (gtk_widget_get_root (child)
                                               ? gtk_widget_get_root (child) : NULL);
  GtkLabel *label;
  g_autofree char *text = NULL;
  const char *css = NULL;

  if (GTK_IS_TREE_EXPANDER (child))
    {
      GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));

      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), tree_row);
      bind_picture (gtk_widget_get_first_child (box), row, self && by_check (self));
      label = GTK_LABEL (gtk_widget_get_last_child (box));
    }
  else
    label = GTK_LABEL (child);
  gtk_widget_remove_css_class (GTK_WIDGET (label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (label), "warning");
  gtk_widget_remove_css_class (GTK_WIDGET (label), "heading");

  switch ((Column) GPOINTER_TO_INT (user_data))
    {
    case COLUMN_TITLE:
      if (row->children)
        {
          text = g_strdup_printf ("%s (%u)", row->title,
                                  g_list_model_get_n_items (G_LIST_MODEL (row->children)));
          css = "heading";
        }
      else
        text = g_strdup (self && by_check (self) ? row->file->file : row->check);
      break;
    case COLUMN_SEVERITY:
      if (!row->children)
        {
          text = g_strdup (mshed_check_report_severity_label (row->severity));
          css = row->severity == MSHED_SEVERITY_ERROR ? "error"
                : row->severity == MSHED_SEVERITY_WARNING ? "warning" : NULL;
        }
      break;
    case COLUMN_ENTRY:
      text = g_strdup (row->d && row->d->entry ? row->d->entry : "");
      break;
    case COLUMN_LOCATION:
      text = g_strdup (row->location ? row->location : "");
      break;
    case COLUMN_MESSAGE:
    default:
      text = g_strdup (row->message ? row->message : "");
      break;
    }
  gtk_label_set_text (label, text ? text : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), text && *text ? text : NULL);
  if (css)
    gtk_widget_add_css_class (GTK_WIDGET (label), css);
  g_object_unref (row);
}

static void
add_column (MshedCheckWindow *self,
            const char       *title,
            Column            column,
            int               width,
            gboolean          expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_column_set_expand (col, expand);
  if (width > 0)
    gtk_column_view_column_set_fixed_width (col, width);
  gtk_column_view_append_column (self->column_view, col);
  g_object_unref (col);
}

/* Public --------------------------------------------------------------------------------- */

MshedCheckWindow *
mshed_check_window_new (MshedApplication *app,
                        GtkWindow        *parent)
{
  MshedCheckWindow *self = g_object_new (MSHED_TYPE_CHECK_WINDOW, "application", app, NULL);

  g_set_weak_pointer (&self->opener, parent);
  return self;
}

void
mshed_check_window_set_folder (MshedCheckWindow *self,
                               const char       *folder)
{
  g_return_if_fail (MSHED_IS_CHECK_WINDOW (self));

  g_free (self->folder);
  self->folder = g_strdup (folder);
  gtk_label_set_text (self->folder_label, folder ? folder : _("(none)"));
  update_actions (self);
}

gboolean
mshed_check_window_set_baseline (MshedCheckWindow  *self,
                                 const char        *path,
                                 GError           **error)
{
  MshedBaseline *baseline = NULL;

  g_return_val_if_fail (MSHED_IS_CHECK_WINDOW (self), FALSE);
  g_return_val_if_fail (!self->running, FALSE);

  if (path && (baseline = mshed_baseline_load (path, error)) == NULL)
    return FALSE;
  /* the rows of the last run were counted with the old one */
  g_ptr_array_set_size (self->findings, 0);
  rebuild_rows (self);
  g_clear_pointer (&self->check, mshed_folder_check_free);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_progress_bar_set_text (self->progress_bar, _("Press Check to run the check again"));
  g_clear_pointer (&self->baseline, mshed_baseline_free);
  self->baseline = baseline;
  g_free (self->baseline_path);
  self->baseline_path = g_strdup (path);
  gtk_label_set_text (self->baseline_label, path ? path : _("(none: every finding is shown)"));
  update_actions (self);
  return TRUE;
}

gboolean
mshed_check_window_is_running (MshedCheckWindow *self)
{
  g_return_val_if_fail (MSHED_IS_CHECK_WINDOW (self), FALSE);
  return self->running;
}

GListModel *
mshed_check_window_get_rows (MshedCheckWindow *self)
{
  g_return_val_if_fail (MSHED_IS_CHECK_WINDOW (self), NULL);
  return G_LIST_MODEL (self->tree);
}

/* GObject -------------------------------------------------------------------------------- */

static gboolean
mshed_check_window_close_request (GtkWindow *window)
{
  MshedCheckWindow *self = MSHED_CHECK_WINDOW (window);

  /* the task holds the window until its threads are done, within a second */
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  return GTK_WINDOW_CLASS (mshed_check_window_parent_class)->close_request (window);
}

static void
mshed_check_window_dispose (GObject *object)
{
  MshedCheckWindow *self = MSHED_CHECK_WINDOW (object);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_mutex_lock (&self->lock);
  self->disposed = TRUE;
  g_clear_handle_id (&self->update_id, g_source_remove);
  g_mutex_unlock (&self->lock);
  g_clear_weak_pointer (&self->opener);
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_CHECK_WINDOW);
  G_OBJECT_CLASS (mshed_check_window_parent_class)->dispose (object);
}

static void
mshed_check_window_finalize (GObject *object)
{
  MshedCheckWindow *self = MSHED_CHECK_WINDOW (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_object (&self->groups);
  g_ptr_array_unref (self->findings);
  g_clear_pointer (&self->check, mshed_folder_check_free);
  g_clear_pointer (&self->baseline, mshed_baseline_free);
  g_clear_pointer (&self->opened, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_free (self->folder);
  g_free (self->baseline_path);
  g_free (self->current);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (mshed_check_window_parent_class)->finalize (object);
}

static void
mshed_check_window_class_init (MshedCheckWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = mshed_check_window_dispose;
  object_class->finalize = mshed_check_window_finalize;
  window_class->close_request = mshed_check_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-check-window.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedCheckWindow, folder_label);
  gtk_widget_class_bind_template_child (widget_class, MshedCheckWindow, baseline_label);
  gtk_widget_class_bind_template_child (widget_class, MshedCheckWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, MshedCheckWindow, current_label);
  gtk_widget_class_bind_template_child (widget_class, MshedCheckWindow, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, MshedCheckWindow, by_file_button);
  gtk_widget_class_bind_template_child (widget_class, MshedCheckWindow, column_view);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_grouping_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);

  gtk_widget_class_install_action (widget_class, "check.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "check.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "check.choose-folder", NULL,
                                   choose_folder_action);
  gtk_widget_class_install_action (widget_class, "check.choose-baseline", NULL,
                                   choose_baseline_action);
  gtk_widget_class_install_action (widget_class, "check.clear-baseline", NULL,
                                   clear_baseline_action);
  gtk_widget_class_install_action (widget_class, "check.export", "s", export_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
mshed_check_window_init (MshedCheckWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_mutex_init (&self->lock);
  self->pending = g_ptr_array_new ();
  self->findings = g_ptr_array_new_with_free_func (g_object_unref);
  self->opened = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, weak_ref_free);
  self->groups = g_list_store_new (MSHED_TYPE_CHECK_ROW);
  self->tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->groups)), FALSE, TRUE,
                                        create_children, NULL, NULL);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  add_column (self, _("File / Check"), COLUMN_TITLE, 300, FALSE);
  add_column (self, _("Severity"), COLUMN_SEVERITY, 80, FALSE);
  add_column (self, _("Entry"), COLUMN_ENTRY, 120, FALSE);
  add_column (self, _("Location"), COLUMN_LOCATION, 180, FALSE);
  add_column (self, _("Message"), COLUMN_MESSAGE, -1, TRUE);
  update_actions (self);
}
