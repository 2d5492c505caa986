/* mshed-folder-check.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The walk, the check of one file and the totals of a folder check (see the header); the
 * threaded runner is in mshed-folder-check-run.c. This file uses no GIO: `mshed-cli validate`
 * uses it with threads of its own that print in walk order, and the CLI loads no libgio.
 */
#define G_LOG_DOMAIN "mshed-folder-check"
/* beside ISO C11: lstat() (POSIX) and the readdir file types DT_* (glibc: _DEFAULT_SOURCE) */
#define _DEFAULT_SOURCE

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>

#include "mshed-bytes.h"
#include "mshed-dfm.h"
#include "mshed-dfm-fast.h"
#include "mshed-folder-check.h"
#include "mshed-nres.h"
#include "mshed-source.h"
#include "mshed-utf.h"

/* The walk ------------------------------------------------------------------------------- */

typedef struct {
  const char    *name;  /* in the walk's string chunk */
  unsigned char  type;  /* DT_DIR, DT_REG, DT_LNK, … as readdir reports it */
} Child;

typedef struct {
  MshedFolderWalkFunc  func;
  gpointer             user_data;
  GStringChunk        *names;
  guint                rel_start;
  gboolean             stopped;  /* the callback said so */
} Walk;

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
    return DT_REG;  /* let the check report why it cannot be read */
  if (S_ISLNK (st.st_mode))
    return DT_LNK;
  if (S_ISDIR (st.st_mode))
    return DT_DIR;
  return S_ISREG (st.st_mode) ? DT_REG : DT_UNKNOWN;
}

/* Walks @path (a GString that ends in the directory's path; restored on return) in name
 * order. The file types come from readdir, so a file costs no stat() of its own. */
static void
walk_directory (Walk    *walk,
                GString *path)
{
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (Child));
  gsize dir_len = path->len;
  struct dirent *d;
  DIR *dir = opendir (path->str);

  if (dir == NULL)
    {
      int saved = errno;
      g_autofree char *message = g_strdup_printf (_("Cannot open “%s”: %s"), path->str,
                                                  g_strerror (saved));

      walk->stopped = !walk->func (path->str, walk->rel_start, message, walk->user_data);
      return;
    }
  while ((d = readdir (dir)) != NULL)
    {
      Child child;

      if (strcmp (d->d_name, ".") == 0 || strcmp (d->d_name, "..") == 0)
        continue;
      child.name = g_string_chunk_insert (walk->names, d->d_name);
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

      if (walk->stopped)
        break;
      g_string_append (path, child->name);
      if (type == DT_UNKNOWN)
        type = child_type (path->str);
      if (type == DT_LNK)
        type = g_file_test (path->str, G_FILE_TEST_IS_REGULAR) ? DT_REG : DT_UNKNOWN;
      if (type == DT_DIR)
        walk_directory (walk, path);
      else if (type == DT_REG)
        walk->stopped = !walk->func (path->str, walk->rel_start, NULL, walk->user_data);
      g_string_truncate (path, len);
    }
  g_string_truncate (path, dir_len);
}

gboolean
mshed_folder_walk (const char          *root,
                   MshedFolderWalkFunc  func,
                   gpointer             user_data)
{
  g_autoptr(GString) path = g_string_new (root);
  Walk walk = { func, user_data, g_string_chunk_new (16 * 1024), path->len, FALSE };

  /* the relative names start after the separator that follows the root */
  if (walk.rel_start == 0 || path->str[walk.rel_start - 1] != G_DIR_SEPARATOR)
    walk.rel_start++;
  walk_directory (&walk, path);
  g_string_chunk_free (walk.names);
  return !walk.stopped;
}

/* One file ------------------------------------------------------------------------------- */

/* Files named *.dfm up to this size are read into a buffer each thread keeps (larger ones are
 * mapped, mshed_load_file), so that a folder of models costs no allocation and no fresh heap
 * pages per file. */
#define READ_BUFFER_LIMIT (4 * 1024 * 1024)

typedef struct {
  guint8 *data;
  gsize   capacity;
} ReadBuffer;

static void
read_buffer_free (gpointer data)
{
  ReadBuffer *buffer = data;

  g_free (buffer->data);
  g_free (buffer);
}

static GPrivate read_buffer_key = G_PRIVATE_INIT (read_buffer_free);

static ReadBuffer *
read_buffer_of_thread (void)
{
  ReadBuffer *buffer = g_private_get (&read_buffer_key);

  if (buffer == NULL)
    {
      buffer = g_new0 (ReadBuffer, 1);
      g_private_set (&read_buffer_key, buffer);
    }
  return buffer;
}

MshedFileCheck *
mshed_file_check_new (const char *path,
                      guint       rel_start,
                      gboolean    named)
{
  MshedFileCheck *self = g_new0 (MshedFileCheck, 1);
  g_autofree char *file = NULL;
  g_autofree char *entry = NULL;

  self->path = g_strdup (path);
  self->named = named;
  if (!named)
    self->file = g_strdup (path + MIN (rel_start, strlen (path)));
  else if (mshed_split_spec (path, &file, &entry))
    self->file = g_path_get_basename (file);
  else
    self->file = g_path_get_basename (path);
  return self;
}

void
mshed_file_check_free (MshedFileCheck *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->file);
  g_free (self->unreadable);
  g_free (self->failure);
  g_free (self->known);
  if (self->diags)
    mshed_diagnostics_free (self->diags);
  g_free (self);
}

static gboolean
has_magic (GBytes  *bytes,
           guint32  magic)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  return size >= 4 && mshed_read_u32 (data) == magic;
}

/* ARCHIVE:ENTRY: the outer container and that one nested model, checked as they are when the
 * whole archive is validated. A missing entry is a failure and no model. */
static void
check_entry (MshedFileCheck *self,
             const char     *path,
             const char     *entry,
             MshedMode       mode)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (path, &error);
  g_autoptr(MshedNres) outer = NULL;
  gint index;

  if (bytes == NULL)
    {
      self->unreadable = g_strdup (error->message);
      return;
    }
  self->size = g_bytes_get_size (bytes);
  self->diags = mshed_diagnostics_new ();
  outer = mshed_nres_parse (bytes, mode, self->diags, &error);
  if (outer == NULL)
    {
      self->failure = g_strdup_printf ("%s: %s", path, error->message);
      return;
    }
  index = mshed_nres_lookup_name (outer, entry);
  if (index < 0)
    {
      self->failure = g_strdup_printf (_("%s: the archive has no entry named “%s” (see "
                                         "“mshed-cli ls %s”)"), path, entry, path);
      return;
    }
  mshed_validate_nested_entry (mshed_nres_peek_entry (outer, (guint) index), (guint) index,
                               mode, self->diags);
  self->n_models = 1;
}

/* The container rules of docs/utf.md §9, then, for a deformable model, those of
 * docs/dfm.md §14: the full way, for what the fast path declined. */
static void
check_utf (MshedFileCheck *self,
           GBytes         *bytes,
           MshedMode       mode)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedDfm) view = NULL;

  utf = mshed_utf_parse_readonly (bytes, mode, self->diags, &error);
  self->kind = mshed_dfm_file_is_dfm (self->path, utf) ? MSHED_CHECKED_DFM : MSHED_CHECKED_UTF;
  if (utf == NULL)
    self->failure = g_strdup (error->message);
  else if (self->kind == MSHED_CHECKED_DFM)
    view = mshed_dfm_new (utf, mode, self->diags, NULL);  /* strict: NULL after errors */
}

/* A file named *.dfm, read into the thread's buffer (or mapped when larger). TRUE when done:
 * unreadable, or a model as its writers make it, decided in one pass (docs/dfm.md §14.1).
 * FALSE: the caller checks *@bytes, the whole file, the full way. */
static gboolean
check_dfm_fast (MshedFileCheck  *self,
                GBytes         **bytes)
{
  g_autoptr(GError) error = NULL;
  ReadBuffer *buffer = read_buffer_of_thread ();
  const guint8 *data = NULL;
  gsize len = 0;
  int read = mshed_read_file_into (self->path, &buffer->data, &buffer->capacity,
                                   READ_BUFFER_LIMIT, &len, &error);

  if (read == 0)
    {
      *bytes = mshed_load_file (self->path, &error);
      if (*bytes)
        data = g_bytes_get_data (*bytes, &len);
    }
  else
    data = buffer->data;
  if (read < 0 || (read == 0 && *bytes == NULL))
    {
      self->unreadable = g_strdup (error->message);
      return TRUE;
    }
  self->size = len;
  if (len >= 4 && mshed_read_u32 (data) == MSHED_UTF_SIGNATURE)
    {
      self->diags = mshed_diagnostics_new ();
      if (mshed_dfm_validate_fast (data, len, self->diags))
        {
          self->kind = MSHED_CHECKED_DFM;
          return TRUE;
        }
      /* declined before it reported anything: the full way starts afresh */
      g_clear_pointer (&self->diags, mshed_diagnostics_free);
    }
  if (*bytes == NULL)
    *bytes = g_bytes_new (data, len);
  return FALSE;
}

void
mshed_file_check_run (MshedFileCheck *self,
                      MshedMode       mode)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;

  if (self->named && mshed_split_spec (self->path, &path, &entry))
    {
      check_entry (self, path, entry, mode);
      return;
    }
  if (mshed_dfm_file_is_dfm (self->path, NULL) && check_dfm_fast (self, &bytes))
    return;
  if (bytes == NULL)
    bytes = mshed_load_file (self->path, &error);
  if (bytes == NULL)
    {
      self->unreadable = g_strdup (error->message);
      return;
    }
  self->size = g_bytes_get_size (bytes);
  if (has_magic (bytes, MSHED_UTF_SIGNATURE))
    {
      self->diags = mshed_diagnostics_new ();
      check_utf (self, bytes, mode);
      return;
    }
  if (!self->named && !has_magic (bytes, MSHED_NRES_MAGIC))
    {
      self->skipped = TRUE;
      return;
    }
  self->diags = mshed_diagnostics_new ();
  self->kind = MSHED_CHECKED_NRES;
  if (!mshed_validate_file_bytes (bytes, mode, self->diags, &self->n_models, &error))
    {
      self->n_models = 0;
      self->failure = g_strdup (error->message);
    }
}

/* TRUE when the baseline holds the finding (and no earlier finding of this file with the same
 * identity used it up). */
static gboolean
is_known (const MshedFileCheck  *self,
          const MshedBaseline   *baseline,
          GHashTable            *seen,
          const MshedDiagnostic *d,
          MshedFindingFunc       func,
          gpointer               user_data)
{
  MshedFinding f;
  char *key;
  guint n;

  if (baseline == NULL && func == NULL)
    return FALSE;
  mshed_finding_init (&f, self->file, d);
  if (func)
    func (&f, d, d ? NULL : self->failure, user_data);
  if (baseline == NULL)
    return FALSE;
  key = mshed_baseline_key (&f);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, key));
  g_hash_table_replace (seen, key, GUINT_TO_POINTER (n + 1));
  return n < mshed_baseline_count (baseline, key);
}

void
mshed_file_check_apply_baseline (MshedFileCheck      *self,
                                 const MshedBaseline *baseline,
                                 MshedFindingFunc     func,
                                 gpointer             user_data)
{
  /* only a baseline needs to count what it has seen */
  g_autoptr(GHashTable) seen = baseline ? g_hash_table_new_full (g_str_hash, g_str_equal,
                                                                 g_free, NULL) : NULL;
  guint n;

  if (self->diags == NULL)
    return;
  n = mshed_diagnostics_get_n_items (self->diags);
  g_free (self->known);
  self->known = g_new0 (guint8, MAX (n, 1));
  self->n_errors = self->diags->n_errors;
  self->n_warnings = self->diags->n_warnings;
  self->n_infos = self->n_known = 0;
  self->failure_known = FALSE;
  for (guint i = 0; i < n; i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (self->diags, i);

      if (is_known (self, baseline, seen, d, func, user_data))
        {
          self->known[i] = TRUE;
          self->n_known++;
          self->n_errors -= d->severity == MSHED_SEVERITY_ERROR;
          self->n_warnings -= d->severity == MSHED_SEVERITY_WARNING;
          continue;
        }
      self->n_infos += d->severity == MSHED_SEVERITY_INFO;
    }
  /* a failure that left no error diagnostic still counts as one error */
  if (self->failure && self->diags->n_errors == 0)
    {
      if (is_known (self, baseline, seen, NULL, func, user_data))
        {
          self->n_known++;
          self->failure_known = TRUE;
        }
      else
        self->n_errors = 1;
    }
}

gboolean
mshed_file_check_failure_shown (const MshedFileCheck *self)
{
  return self->failure && !self->failure_known && self->diags->n_errors == 0;
}

/* Totals --------------------------------------------------------------------------------- */

void
mshed_folder_totals_add (MshedFolderTotals    *sum,
                         const MshedFileCheck *check)
{
  if (check->skipped)
    return;
  if (check->unreadable)
    {
      sum->n_unreadable++;
      return;
    }
  sum->n_files++;
  sum->n_models += check->n_models;
  sum->n_dfm += check->kind == MSHED_CHECKED_DFM;
  sum->n_utf += check->kind == MSHED_CHECKED_UTF;
  sum->n_errors += check->n_errors;
  sum->n_warnings += check->n_warnings;
  sum->n_infos += check->n_infos;
  sum->n_known += check->n_known;
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

char *
mshed_folder_totals_summary (const MshedFolderTotals *t,
                             gboolean                 baseline)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files", t->n_files),
                          t->n_files);
  /* "0 models" only when there is nothing else to count */
  if (t->n_models || (t->n_dfm == 0 && t->n_utf == 0))
    append_count (s, g_dngettext (GETTEXT_PACKAGE, "%u model", "%u models", t->n_models),
                  t->n_models);
  if (t->n_dfm)
    append_count (s, g_dngettext (GETTEXT_PACKAGE, "%u DFM model", "%u DFM models", t->n_dfm),
                  t->n_dfm);
  if (t->n_utf)
    append_count (s, g_dngettext (GETTEXT_PACKAGE, "%u other UTF file", "%u other UTF files",
                                  t->n_utf), t->n_utf);
  g_string_append (s, ": ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u error", "%u errors",
                                          t->n_errors), t->n_errors);
  append_count (s, g_dngettext (GETTEXT_PACKAGE, "%u warning", "%u warnings", t->n_warnings),
                t->n_warnings);
  if (t->n_unreadable)
    append_count (s, g_dngettext (GETTEXT_PACKAGE, "%u unreadable", "%u unreadable",
                                  t->n_unreadable), t->n_unreadable);
  if (baseline)
    append_count (s, g_dngettext (GETTEXT_PACKAGE, "%u known (in the baseline)",
                                  "%u known (in the baseline)", t->n_known), t->n_known);
  return g_string_free (g_steal_pointer (&s), FALSE);
}
