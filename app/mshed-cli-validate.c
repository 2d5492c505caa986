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
/* beside ISO C11: lstat() (POSIX) and the readdir file types DT_* (glibc: _DEFAULT_SOURCE) */
#define _DEFAULT_SOURCE

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glib/gi18n.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "mshed-cli-private.h"
#include "mshed-dfm-schema.h"
#include "mshed-error.h"
#include "mshed-schema.h"

/* Items checked but not printed yet, at most, per thread: enough to keep the threads busy
 * behind a large file or a thread the system has paused, few enough to bound the memory. */
#define ITEMS_PER_THREAD 64
#define MAX_JOBS 1024

typedef struct {
  guint n_files;
  guint n_models;
  guint n_dfm;       /* Freelancer deformable models */
  guint n_utf;       /* other UTF files */
  guint n_unreadable;
  guint n_errors;
  guint n_warnings;
  guint n_infos;
  guint n_known;     /* findings the baseline hides */
} Totals;

/* What a readable file was checked as. */
typedef enum {
  KIND_NRES,
  KIND_DFM,
  KIND_UTF,
} Kind;

static const char *const kind_names[] = { "nres", "dfm", "utf" };

/* One file of the run, or a folder that cannot be opened, in the order of the output. */
typedef struct {
  char     *spec;        /* the path as printed */
  gboolean  named;       /* named on the command line: ARCHIVE:ENTRY works, no magic check */
  guint     rel_start;   /* found in a folder: where the path below the PATH argument starts */
  gboolean  done;        /* checked (under Validate.lock while there are workers) */
  gboolean  skipped;     /* found in a folder and neither NRes nor UTF: prints nothing */
  char     *unreadable;  /* why it could not be read, or NULL */
  GString  *text;        /* text: its lines; JSON: its elements of "diagnostics" */
  GString  *file_json;   /* JSON: its element of "files" */
  GString  *findings;    /* --write-baseline: its elements of "findings" */
  Totals    totals;
} Item;

typedef struct {
  MshedMode   mode;
  gboolean    json;
  Totals      totals;
  GString    *out;          /* standard output, written as it grows (text only) */
  GString    *files;        /* JSON: the elements of "files" */
  GString    *diagnostics;  /* JSON: the elements of "diagnostics" */
  const MshedCliBaseline *baseline;  /* --baseline (read-only, shared by the threads) */
  GString    *findings;     /* --write-baseline: the elements of "findings" */

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
          gboolean    named)
{
  Item *item = g_new0 (Item, 1);

  item->spec = g_strdup (spec);
  item->named = named;
  return item;
}

static void
item_free (Item *item)
{
  g_free (item->spec);
  g_free (item->unreadable);
  if (item->text)
    g_string_free (item->text, TRUE);
  if (item->file_json)
    g_string_free (item->file_json, TRUE);
  if (item->findings)
    g_string_free (item->findings, TRUE);
  g_free (item);
}

/* JSON ----------------------------------------------------------------------------------- */

/* Objects in json-glib's pretty layout, the format --json has always had: two spaces per
 * level, a member per line, " : " between name and value. */
typedef struct {
  GString  *s;
  guint     depth;   /* of the members */
  gboolean  first;
} JsonWriter;

static void
json_indent (GString *s,
             guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append (s, "  ");
}

/* Opens an object whose brace is at @depth; the caller has written the indentation. */
static void
json_begin (JsonWriter *w,
            GString    *s,
            guint       depth)
{
  w->s = s;
  w->depth = depth + 1;
  w->first = TRUE;
  g_string_append_c (s, '{');
}

static void
json_end (JsonWriter *w)
{
  g_string_append_c (w->s, '\n');
  json_indent (w->s, w->depth - 1);
  g_string_append_c (w->s, '}');
}

static void
json_member (JsonWriter *w,
             const char *name)
{
  g_string_append (w->s, w->first ? "\n" : ",\n");
  w->first = FALSE;
  json_indent (w->s, w->depth);
  mshed_cli_json_string (w->s, name);
  g_string_append (w->s, " : ");
}

/* @value: NULL writes null */
static void
json_string (JsonWriter *w,
             const char *name,
             const char *value)
{
  json_member (w, name);
  if (value)
    mshed_cli_json_string (w->s, value);
  else
    g_string_append (w->s, "null");
}

/* @present: FALSE writes null */
static void
json_int (JsonWriter *w,
          const char *name,
          gint64      value,
          gboolean    present)
{
  json_member (w, name);
  if (present)
    g_string_append_printf (w->s, "%" G_GINT64_FORMAT, value);
  else
    g_string_append (w->s, "null");
}

static void
json_bool (JsonWriter *w,
           const char *name,
           gboolean    value)
{
  json_member (w, name);
  g_string_append (w->s, value ? "true" : "false");
}

/* Opens an object as the next element of an array at depth 1 of the document. */
static void
json_begin_element (JsonWriter *w,
                    GString    *array)
{
  if (array->len)
    g_string_append (array, ",\n");
  json_indent (array, 2);
  json_begin (w, array, 2);
}

/* Writes a member of the document (depth 1) that is an array of @elements. */
static void
json_array (JsonWriter    *w,
            const char    *name,
            const GString *elements)
{
  json_member (w, name);
  g_string_append_c (w->s, '[');
  if (elements->len)
    {
      g_string_append_c (w->s, '\n');
      g_string_append_len (w->s, elements->str, (gssize) elements->len);
      g_string_append_c (w->s, '\n');
      json_indent (w->s, 1);
    }
  g_string_append_c (w->s, ']');
}

/* The CLI name of the table of @d (MSH or DFM), or NULL. */
static const char *
table_name (const MshedDiagnostic *d)
{
  const MshedDfmTableInfo *dfm_table = mshed_dfm_schema_get_table ((MshedDfmTable) d->table);

  if (d->table >= 0 && d->table < MSHED_N_TABLES)
    return mshed_schema_get_table (d->table)->name;
  return dfm_table ? dfm_table->name : NULL;
}

static void
diagnostic_to_json (GString               *array,
                    const char            *file,
                    const MshedDiagnostic *d)
{
  JsonWriter w;

  json_begin_element (&w, array);
  json_string (&w, "file", file);
  json_string (&w, "entry", d->entry);
  json_string (&w, "path", d->path);
  json_string (&w, "severity", mshed_severity_to_string (d->severity));
  json_string (&w, "check", mshed_check_to_string (d->check));
  json_int (&w, "check_code", d->check, TRUE);
  json_int (&w, "res_type", d->res_type, d->res_type != G_MAXUINT32);
  json_int (&w, "res_index", d->res_index, d->res_index >= 0);
  json_string (&w, "table", table_name (d));
  json_int (&w, "record", d->record, d->record >= 0);
  json_string (&w, "field", d->field);
  json_int (&w, "offset", (gint64) d->offset, TRUE);
  json_string (&w, "message", d->message);
  json_end (&w);
}

/* Checking one item (on a worker) -------------------------------------------------------- */

/* The finding @d (NULL: a failure that left no error) of @item, for the baseline. */
static void
finding_init (MshedCliFinding       *f,
              const char            *file,
              const MshedDiagnostic *d)
{
  *f = (MshedCliFinding) { file, NULL, "failure", -1, NULL, -1, NULL, NULL };
  if (d == NULL)
    return;
  f->entry = d->entry;
  f->check = mshed_check_to_string (d->check);
  f->res_type = d->res_type != G_MAXUINT32 ? (gint64) d->res_type : -1;
  f->table = table_name (d);
  f->record = d->record >= 0 ? d->record : -1;
  f->field = d->field;
  f->path = d->path;
}

static void
finding_to_json (GString               *array,
                 const MshedCliFinding *f,
                 const MshedDiagnostic *d,
                 const char            *failure)
{
  JsonWriter w;

  json_begin_element (&w, array);
  json_string (&w, "file", f->file);
  json_string (&w, "entry", f->entry);
  json_string (&w, "check", f->check);
  json_int (&w, "res_type", f->res_type, f->res_type >= 0);
  json_string (&w, "table", f->table);
  json_int (&w, "record", f->record, f->record >= 0);
  json_string (&w, "field", f->field);
  json_string (&w, "path", f->path);
  json_string (&w, "severity", mshed_severity_to_string (d ? d->severity
                                                          : MSHED_SEVERITY_ERROR));
  json_string (&w, "message", d ? d->message : failure);
  json_end (&w);
}

/* The file of @item as the baseline names it: below the PATH argument for a file found in a
 * folder, else the file's own name. */
static char *
item_file (const Item *item)
{
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;

  if (!item->named)
    return g_strdup (item->spec + item->rel_start);
  if (mshed_split_spec (item->spec, &path, &entry))
    return g_path_get_basename (path);
  return g_path_get_basename (item->spec);
}

/* TRUE when the finding is one the baseline holds (and not yet used up by an earlier finding
 * of this file with the same identity); writes it to the item's findings for
 * --write-baseline. */
static gboolean
is_known (const Validate        *self,
          Item                  *item,
          GHashTable            *seen,
          const char            *file,
          const MshedDiagnostic *d,
          const char            *failure)
{
  MshedCliFinding f;
  char *key;
  guint n;

  if (self->baseline == NULL && self->findings == NULL)
    return FALSE;
  finding_init (&f, file, d);
  if (self->findings)
    {
      if (item->findings == NULL)
        item->findings = g_string_new (NULL);
      finding_to_json (item->findings, &f, d, failure);
    }
  if (self->baseline == NULL)
    return FALSE;
  key = mshed_cli_baseline_key (&f);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, key));
  g_hash_table_replace (seen, key, GUINT_TO_POINTER (n + 1));
  return n < mshed_cli_baseline_count (self->baseline, key);
}

/* Keeps what one file produced, for printing. */
static void
report (const Validate         *self,
        Item                   *item,
        const MshedDiagnostics *diags,
        Kind                    kind,
        guint                   n_models,
        const char             *failure)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *file = item_file (item);
  guint n = mshed_diagnostics_get_n_items (diags);
  guint errors = diags->n_errors, warnings = diags->n_warnings;
  gboolean json = self->json;

  item->text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);

      if (is_known (self, item, seen, file, d, NULL))
        {
          item->totals.n_known++;
          errors -= d->severity == MSHED_SEVERITY_ERROR;
          warnings -= d->severity == MSHED_SEVERITY_WARNING;
          continue;
        }
      if (d->severity == MSHED_SEVERITY_INFO)
        item->totals.n_infos++;
      if (json)
        diagnostic_to_json (item->text, item->spec, d);
      else
        {
          g_autofree char *line = mshed_diagnostic_format (d);

          g_string_append_printf (item->text, "%s: %s\n", item->spec, line);
        }
    }
  /* a failure that left no error diagnostic still counts as one error */
  if (failure && diags->n_errors == 0)
    {
      if (is_known (self, item, seen, file, NULL, failure))
        {
          item->totals.n_known++;
          failure = NULL;
        }
      else
        errors = 1;
    }
  if (failure && diags->n_errors == 0 && !json)
    g_string_append_printf (item->text, "%s: %s: %s\n", item->spec, _("error"), failure);

  if (json)
    {
      JsonWriter w;

      item->file_json = g_string_new (NULL);
      json_begin_element (&w, item->file_json);
      json_string (&w, "file", item->spec);
      json_bool (&w, "readable", TRUE);
      json_string (&w, "kind", kind_names[kind]);
      json_int (&w, "models", n_models, TRUE);
      json_int (&w, "errors", errors, TRUE);
      json_int (&w, "warnings", warnings, TRUE);
      json_string (&w, "failure", failure);
      json_end (&w);
    }
  item->totals.n_files++;
  item->totals.n_models += n_models;
  item->totals.n_dfm += kind == KIND_DFM;
  item->totals.n_utf += kind == KIND_UTF;
  item->totals.n_errors += errors;
  item->totals.n_warnings += warnings;
}

/* ARCHIVE:ENTRY: the outer container and that one nested model, checked as they are when the
 * whole archive is validated. A missing entry is an error and no model. */
static void
check_entry (const Validate *self,
             Item           *item,
             const char     *path,
             const char     *entry)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (path, &error);
  g_autoptr(MshedNres) outer = NULL;
  g_autofree char *failure = NULL;
  gint index;

  if (bytes == NULL)
    {
      item->unreadable = g_strdup (error->message);
      return;
    }
  outer = mshed_nres_parse (bytes, self->mode, diags, &error);
  if (outer == NULL)
    {
      failure = g_strdup_printf ("%s: %s", path, error->message);
      report (self, item, diags, KIND_NRES, 0, failure);
      return;
    }
  index = mshed_nres_lookup_name (outer, entry);
  if (index < 0)
    {
      failure = g_strdup_printf (_("%s: the archive has no entry named “%s” (see “mshed-cli ls "
                                   "%s”)"), path, entry, path);
      report (self, item, diags, KIND_NRES, 0, failure);
      return;
    }
  mshed_validate_nested_entry (mshed_nres_peek_entry (outer, (guint) index), (guint) index,
                               self->mode, diags);
  report (self, item, diags, KIND_NRES, 1, NULL);
}

static void
check_item (const Validate *self,
            Item           *item)
{
  g_autoptr(MshedDiagnostics) diags = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;
  guint n_models = 0;

  if (item->named && mshed_split_spec (item->spec, &path, &entry))
    {
      check_entry (self, item, path, entry);
      return;
    }

  bytes = mshed_load_file (item->spec, &error);
  if (bytes == NULL)
    {
      item->unreadable = g_strdup (error->message);
      return;
    }
  diags = mshed_diagnostics_new ();
  if (mshed_cli_has_utf_magic (bytes))
    {
      gboolean dfm = FALSE;
      gboolean read = mshed_cli_validate_utf (bytes, item->spec, self->mode, diags, &dfm,
                                              &error);

      report (self, item, diags, dfm ? KIND_DFM : KIND_UTF, 0, read ? NULL : error->message);
      return;
    }
  if (!item->named && !mshed_cli_has_nres_magic (bytes))
    {
      item->skipped = TRUE;
      return;
    }
  if (!mshed_validate_file_bytes (bytes, self->mode, diags, &n_models, &error))
    {
      report (self, item, diags, KIND_NRES, 0, error->message);
      return;
    }
  report (self, item, diags, KIND_NRES, n_models, NULL);
}

/* Printing, in order (main thread) ------------------------------------------------------- */

static void
totals_add (Totals       *sum,
            const Totals *t)
{
  sum->n_files += t->n_files;
  sum->n_models += t->n_models;
  sum->n_dfm += t->n_dfm;
  sum->n_utf += t->n_utf;
  sum->n_unreadable += t->n_unreadable;
  sum->n_errors += t->n_errors;
  sum->n_warnings += t->n_warnings;
  sum->n_infos += t->n_infos;
  sum->n_known += t->n_known;
}

/* Appends the elements of an array written apart (JSON). */
static void
append_elements (GString       *array,
                 const GString *elements)
{
  if (array->len && elements->len)
    g_string_append (array, ",\n");
  g_string_append_len (array, elements->str, (gssize) elements->len);
}

static void
print_item (Validate *self,
            Item     *item)
{
  if (item->skipped)
    return;
  if (item->unreadable)
    {
      mshed_cli_flush (self->out, TRUE);
      mshed_cli_error ("%s", item->unreadable);
      if (self->json)
        {
          JsonWriter w;

          json_begin_element (&w, self->files);
          json_string (&w, "file", item->spec);
          json_bool (&w, "readable", FALSE);
          json_string (&w, "failure", item->unreadable);
          json_end (&w);
        }
      self->totals.n_unreadable++;
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
  totals_add (&self->totals, &item->totals);
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

typedef struct {
  const char    *name;  /* in the walk's string chunk */
  unsigned char  type;  /* DT_DIR, DT_REG, DT_LNK, … as readdir reports it */
} Child;

static int
compare_children (gconstpointer a,
                  gconstpointer b)
{
  return strcmp (((const Child *) a)->name, ((const Child *) b)->name);
}

/* The type readdir could not tell (some file systems never do), without following a link. */
static unsigned char
child_type (const char *path)
{
  struct stat st;

  if (lstat (path, &st) != 0)
    return DT_REG;  /* let check_item report why it cannot be read */
  if (S_ISLNK (st.st_mode))
    return DT_LNK;
  if (S_ISDIR (st.st_mode))
    return DT_DIR;
  return S_ISREG (st.st_mode) ? DT_REG : DT_UNKNOWN;
}

/* Walks @path (a GString that ends in the directory's path; restored on return) in name
 * order. Subdirectories are followed, links to directories are not; regular files (also
 * through links) are validated when they start with "NRes" or "UTF ", the rest are skipped
 * silently.
 * The file types come from readdir, so a file costs no stat() of its own: only open, fstat
 * and read in mshed_load_file. */
static void
validate_directory (Validate     *self,
                    GString      *path,
                    guint         rel_start,
                    GStringChunk *names)
{
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (Child));
  gsize dir_len = path->len;
  struct dirent *d;
  DIR *dir = opendir (path->str);

  if (dir == NULL)
    {
      int saved = errno;
      Item *item = item_new (path->str, FALSE);

      item->unreadable = g_strdup_printf (_("Cannot open “%s”: %s"), path->str,
                                          g_strerror (saved));
      item->done = TRUE;
      add_item (self, item);
      return;
    }
  while ((d = readdir (dir)) != NULL)
    {
      Child child;

      if (strcmp (d->d_name, ".") == 0 || strcmp (d->d_name, "..") == 0)
        continue;
      child.name = g_string_chunk_insert (names, d->d_name);
      child.type = d->d_type;
      g_array_append_val (children, child);
    }
  closedir (dir);
  g_array_sort (children, compare_children);

  if (dir_len == 0 || path->str[dir_len - 1] != G_DIR_SEPARATOR)
    g_string_append_c (path, G_DIR_SEPARATOR);
  for (guint i = 0; i < children->len; i++)
    {
      const Child *child = &g_array_index (children, Child, i);
      unsigned char type = child->type;
      gsize len = path->len;

      g_string_append (path, child->name);
      if (type == DT_UNKNOWN)
        type = child_type (path->str);
      if (type == DT_LNK)
        type = g_file_test (path->str, G_FILE_TEST_IS_REGULAR) ? DT_REG : DT_UNKNOWN;
      if (type == DT_DIR)
        validate_directory (self, path, rel_start, names);
      else if (type == DT_REG)
        {
          Item *item = item_new (path->str, FALSE);

          item->rel_start = rel_start;
          add_item (self, item);
        }
      g_string_truncate (path, len);
    }
  g_string_truncate (path, dir_len);
}

/* One directory argument: the names of all its files share one string chunk. */
static void
validate_tree (Validate   *self,
               const char *root)
{
  g_autoptr(GString) path = g_string_new (root);
  GStringChunk *names = g_string_chunk_new (16 * 1024);
  guint rel_start = path->len;

  /* the relative names start after the separator that follows the root */
  if (rel_start == 0 || path->str[rel_start - 1] != G_DIR_SEPARATOR)
    rel_start++;
  validate_directory (self, path, rel_start, names);
  g_string_chunk_free (names);
}

/* ", " and a count in its translated plural form */
static void
append_count (GString    *s,
              const char *format,
              guint       n)
{
  g_string_append (s, ", ");
  g_string_append_printf (s, format, n);
}

static char *
summary_line (const Totals *t,
              gboolean      baseline)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append_printf (s, g_dngettext (NULL, "%u file", "%u files", t->n_files),
                          t->n_files);
  /* "0 models" only when there is nothing else to count */
  if (t->n_models || (t->n_dfm == 0 && t->n_utf == 0))
    {
      g_string_append (s, ", ");
      g_string_append_printf (s, g_dngettext (NULL, "%u model", "%u models", t->n_models),
                              t->n_models);
    }
  if (t->n_dfm)
    append_count (s, g_dngettext (NULL, "%u DFM model", "%u DFM models", t->n_dfm), t->n_dfm);
  if (t->n_utf)
    append_count (s, g_dngettext (NULL, "%u other UTF file", "%u other UTF files", t->n_utf),
                  t->n_utf);
  g_string_append (s, ": ");
  g_string_append_printf (s, g_dngettext (NULL, "%u error", "%u errors", t->n_errors),
                          t->n_errors);
  g_string_append (s, ", ");
  g_string_append_printf (s, g_dngettext (NULL, "%u warning", "%u warnings", t->n_warnings),
                          t->n_warnings);
  if (t->n_unreadable)
    {
      g_string_append (s, ", ");
      g_string_append_printf (s, g_dngettext (NULL, "%u unreadable", "%u unreadable",
                                              t->n_unreadable), t->n_unreadable);
    }
  if (baseline)
    append_count (s, g_dngettext (NULL, "%u known (in the baseline)",
                                  "%u known (in the baseline)", t->n_known), t->n_known);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The document of --json, in the layout json-glib gave it. */
static void
print_json (Validate   *self,
            const char *summary)
{
  const Totals *t = &self->totals;
  JsonWriter doc, totals;

  json_begin (&doc, self->out, 0);
  json_string (&doc, "mode", self->mode == MSHED_MODE_STRICT ? "strict" : "tolerant");
  json_array (&doc, "files", self->files);
  json_array (&doc, "diagnostics", self->diagnostics);
  json_member (&doc, "summary");
  json_begin (&totals, self->out, 1);
  json_int (&totals, "files", t->n_files, TRUE);
  json_int (&totals, "models", t->n_models, TRUE);
  json_int (&totals, "dfm", t->n_dfm, TRUE);
  json_int (&totals, "utf", t->n_utf, TRUE);
  json_int (&totals, "errors", t->n_errors, TRUE);
  json_int (&totals, "warnings", t->n_warnings, TRUE);
  json_int (&totals, "infos", t->n_infos, TRUE);
  json_int (&totals, "unreadable", t->n_unreadable, TRUE);
  if (self->baseline)
    json_int (&totals, "known", t->n_known, TRUE);
  json_string (&totals, "text", summary);
  json_end (&totals);
  json_end (&doc);
  g_string_append_c (self->out, '\n');
}

/* The baseline file (README, "Baselines"): {"mshed-baseline": 1, "findings": [...]}, written
 * atomically. */
static gboolean
write_baseline (const char    *path,
                const GString *findings)
{
  g_autoptr(GString) doc = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  JsonWriter w;

  json_begin (&w, doc, 0);
  json_int (&w, "mshed-baseline", 1, TRUE);
  json_array (&w, "findings", findings);
  json_end (&w);
  g_string_append_c (doc, '\n');
  if (!g_file_set_contents (path, doc->str, (gssize) doc->len, &error))
    {
      mshed_cli_error (_("Cannot write the baseline: %s"), error->message);
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
  g_autoptr(GString) findings = NULL;
  MshedCliBaseline *baseline = NULL;
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

  if (write_path && !mshed_cli_check_output (write_path))
    return MSHED_CLI_EXIT_PROBLEMS;
  if (baseline_path)
    {
      g_autoptr(GError) error = NULL;

      baseline = mshed_cli_baseline_load (baseline_path, &error);
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

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        validate_tree (&self, argv[i]);
      else
        add_item (&self, item_new (argv[i], TRUE));
    }
  if (self.items)
    {
      if (self.items->len)
        check_listed (&self, MIN (jobs, MAX_JOBS));
      g_ptr_array_unref (self.items);
    }

  summary = summary_line (&self.totals, baseline != NULL);
  if (json)
    print_json (&self, summary);
  else
    g_string_append_printf (out, "%s\n", summary);
  mshed_cli_flush (out, TRUE);

  mshed_cli_baseline_free (baseline);
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
