/* mshed-cli-validate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli validate: files, archives (the container and every nested model) and whole
 * directories; text or JSON output.
 */
#define G_LOG_DOMAIN "mshed-cli"
/* beside ISO C11: lstat() (POSIX) and the readdir file types DT_* (glibc: _DEFAULT_SOURCE) */
#define _DEFAULT_SOURCE

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "mshed-cli-private.h"
#include "mshed-error.h"
#include "mshed-schema.h"

typedef struct {
  MshedMode  mode;
  gboolean   json;
  guint      n_files;
  guint      n_models;
  guint      n_unreadable;
  guint      n_errors;
  guint      n_warnings;
  guint      n_infos;
  GString   *out;
  JsonArray *files;        /* json mode */
  JsonArray *diagnostics;  /* json mode */
} Validate;

static void
json_set_int_or_null (JsonObject *object,
                      const char *member,
                      gint64      value,
                      gboolean    present)
{
  if (present)
    json_object_set_int_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

static void
json_set_string_or_null (JsonObject *object,
                         const char *member,
                         const char *value)
{
  if (value)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

static JsonObject *
diagnostic_to_json (const char            *file,
                    const MshedDiagnostic *d)
{
  JsonObject *o = json_object_new ();
  const MshedTableInfo *table = NULL;

  if (d->table >= 0 && d->table < MSHED_N_TABLES)
    table = mshed_schema_get_table (d->table);
  json_object_set_string_member (o, "file", file);
  json_set_string_or_null (o, "entry", d->entry);
  json_object_set_string_member (o, "severity", mshed_severity_to_string (d->severity));
  json_object_set_string_member (o, "check", mshed_check_to_string (d->check));
  json_object_set_int_member (o, "check_code", d->check);
  json_set_int_or_null (o, "res_type", d->res_type, d->res_type != G_MAXUINT32);
  json_set_int_or_null (o, "res_index", d->res_index, d->res_index >= 0);
  json_set_string_or_null (o, "table", table ? table->name : NULL);
  json_set_int_or_null (o, "record", d->record, d->record >= 0);
  json_set_string_or_null (o, "field", d->field);
  json_object_set_int_member (o, "offset", (gint64) d->offset);
  json_object_set_string_member (o, "message", d->message);
  return o;
}

/* Reports what one file produced and folds it into the totals. */
static void
report (Validate               *self,
        const char             *file,
        const MshedDiagnostics *diags,
        guint                   n_models,
        const char             *failure)
{
  guint n = mshed_diagnostics_get_n_items (diags);
  guint errors = diags->n_errors, warnings = diags->n_warnings;

  /* a failure that left no error diagnostic still counts as one error */
  if (failure && errors == 0)
    errors = 1;

  for (guint i = 0; i < n; i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);

      if (d->severity == MSHED_SEVERITY_INFO)
        self->n_infos++;
      if (self->json)
        json_array_add_object_element (self->diagnostics, diagnostic_to_json (file, d));
      else
        {
          g_autofree char *line = mshed_diagnostic_format (d);

          g_string_append_printf (self->out, "%s: %s\n", file, line);
        }
    }
  if (failure && diags->n_errors == 0 && !self->json)
    g_string_append_printf (self->out, "%s: %s: %s\n", file, _("error"), failure);

  if (self->json)
    {
      JsonObject *o = json_object_new ();

      json_object_set_string_member (o, "file", file);
      json_object_set_boolean_member (o, "readable", TRUE);
      json_object_set_int_member (o, "models", n_models);
      json_object_set_int_member (o, "errors", errors);
      json_object_set_int_member (o, "warnings", warnings);
      json_set_string_or_null (o, "failure", failure);
      json_array_add_object_element (self->files, o);
    }
  self->n_files++;
  self->n_models += n_models;
  self->n_errors += errors;
  self->n_warnings += warnings;
  mshed_cli_flush (self->out, FALSE);
}

static void
report_unreadable (Validate   *self,
                   const char *file,
                   const char *message)
{
  mshed_cli_flush (self->out, TRUE);
  mshed_cli_error ("%s", message);
  if (self->json)
    {
      JsonObject *o = json_object_new ();

      json_object_set_string_member (o, "file", file);
      json_object_set_boolean_member (o, "readable", FALSE);
      json_object_set_string_member (o, "failure", message);
      json_array_add_object_element (self->files, o);
    }
  self->n_unreadable++;
}

/* ARCHIVE:ENTRY: the outer container and that one nested model, checked as they are when the
 * whole archive is validated. A missing entry is an error and no model. */
static void
validate_entry (Validate   *self,
                const char *spec,
                const char *path,
                const char *entry)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (path, &error);
  g_autoptr(MshedNres) outer = NULL;
  g_autofree char *failure = NULL;
  gint index;

  if (bytes == NULL)
    {
      report_unreadable (self, spec, error->message);
      return;
    }
  outer = mshed_nres_parse (bytes, self->mode, diags, &error);
  if (outer == NULL)
    {
      failure = g_strdup_printf ("%s: %s", path, error->message);
      report (self, spec, diags, 0, failure);
      return;
    }
  index = mshed_nres_lookup_name (outer, entry);
  if (index < 0)
    {
      failure = g_strdup_printf (_("%s: the archive has no entry named “%s” (see “mshed-cli ls "
                                   "%s”)"), path, entry, path);
      report (self, spec, diags, 0, failure);
      return;
    }
  mshed_validate_nested_entry (mshed_nres_peek_entry (outer, (guint) index), (guint) index,
                               self->mode, diags);
  report (self, spec, diags, 1, NULL);
}

static gboolean
bytes_look_like_nres (GBytes *bytes)
{
  return mshed_cli_has_nres_magic (bytes);
}

static void
validate_file (Validate   *self,
               const char *spec,
               gboolean    named)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;
  guint n_models = 0;

  if (named && mshed_split_spec (spec, &path, &entry))
    {
      validate_entry (self, spec, path, entry);
      return;
    }

  bytes = mshed_load_file (spec, &error);
  if (bytes == NULL)
    {
      report_unreadable (self, spec, error->message);
      return;
    }
  if (!named && !bytes_look_like_nres (bytes))
    return;

  if (!mshed_validate_file_bytes (bytes, self->mode, diags, &n_models, &error))
    {
      report (self, spec, diags, 0, error->message);
      return;
    }
  report (self, spec, diags, n_models, NULL);
}

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
    return DT_REG;  /* let validate_file report why it cannot be read */
  if (S_ISLNK (st.st_mode))
    return DT_LNK;
  if (S_ISDIR (st.st_mode))
    return DT_DIR;
  return S_ISREG (st.st_mode) ? DT_REG : DT_UNKNOWN;
}

/* Walks @path (a GString that ends in the directory's path; restored on return) in name
 * order. Subdirectories are followed, links to directories are not; regular files (also
 * through links) are validated when they start with "NRes", the rest are skipped silently.
 * The file types come from readdir, so a file costs no stat() of its own: only open, fstat
 * and read in mshed_load_file. */
static void
validate_directory (Validate     *self,
                    GString      *path,
                    GStringChunk *names)
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

      report_unreadable (self, path->str, message);
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
        validate_directory (self, path, names);
      else if (type == DT_REG)
        validate_file (self, path->str, FALSE);
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

  validate_directory (self, path, names);
  g_string_chunk_free (names);
}

static char *
summary_line (const Validate *self)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append_printf (s, g_dngettext (NULL, "%u file", "%u files", self->n_files),
                          self->n_files);
  g_string_append (s, ", ");
  g_string_append_printf (s, g_dngettext (NULL, "%u model", "%u models", self->n_models),
                          self->n_models);
  g_string_append (s, ": ");
  g_string_append_printf (s, g_dngettext (NULL, "%u error", "%u errors", self->n_errors),
                          self->n_errors);
  g_string_append (s, ", ");
  g_string_append_printf (s, g_dngettext (NULL, "%u warning", "%u warnings", self->n_warnings),
                          self->n_warnings);
  if (self->n_unreadable)
    {
      g_string_append (s, ", ");
      g_string_append_printf (s, g_dngettext (NULL, "%u unreadable", "%u unreadable",
                                              self->n_unreadable), self->n_unreadable);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

int
mshed_cli_validate (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *summary = NULL;
  gboolean strict = FALSE, tolerant = FALSE, json = FALSE;
  Validate self = { 0 };
  GOptionEntry entries[] = {
    { "strict", 0, 0, G_OPTION_ARG_NONE, &strict,
      N_("Every violated invariant is an error (the default)"), NULL },
    { "tolerant", 0, 0, G_OPTION_ARG_NONE, &tolerant,
      N_("Report locally broken items as warnings, as the editor loads them"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print one JSON document with every diagnostic"), NULL },
    { NULL }
  };
  int status;

  context = mshed_cli_context_new ("PATH…", _("Check models and archives against the format "
                                              "rules. A directory is searched recursively for "
                                              "files that start with “NRes”. An archive is "
                                              "checked as a container and every *.msh entry "
                                              "in it as a nested model; ARCHIVE:ENTRY checks "
                                              "one nested model.\n\nExit status: 0 no errors "
                                              "(warnings are listed), 1 errors found, 2 a file "
                                              "could not be read."), entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (strict && tolerant)
    {
      mshed_cli_error (_("--strict and --tolerant exclude each other"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (argc < 2)
    {
      mshed_cli_error (_("expected at least one PATH"));
      return MSHED_CLI_EXIT_TROUBLE;
    }

  self.mode = tolerant ? MSHED_MODE_TOLERANT : MSHED_MODE_STRICT;
  self.json = json;
  self.out = out;
  if (json)
    {
      self.files = json_array_new ();
      self.diagnostics = json_array_new ();
    }

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        validate_tree (&self, argv[i]);
      else
        validate_file (&self, argv[i], TRUE);
    }

  summary = summary_line (&self);
  if (json)
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
      JsonObject *doc = json_object_new ();
      JsonObject *totals = json_object_new ();
      g_autofree char *text = NULL;

      json_object_set_string_member (doc, "mode",
                                     self.mode == MSHED_MODE_STRICT ? "strict" : "tolerant");
      json_object_set_array_member (doc, "files", self.files);
      json_object_set_array_member (doc, "diagnostics", self.diagnostics);
      json_object_set_int_member (totals, "files", self.n_files);
      json_object_set_int_member (totals, "models", self.n_models);
      json_object_set_int_member (totals, "errors", self.n_errors);
      json_object_set_int_member (totals, "warnings", self.n_warnings);
      json_object_set_int_member (totals, "infos", self.n_infos);
      json_object_set_int_member (totals, "unreadable", self.n_unreadable);
      json_object_set_string_member (totals, "text", summary);
      json_object_set_object_member (doc, "summary", totals);
      json_node_take_object (root, doc);
      json_generator_set_root (generator, root);
      json_generator_set_pretty (generator, TRUE);
      text = json_generator_to_data (generator, NULL);
      g_string_append (out, text);
      g_string_append_c (out, '\n');
    }
  else
    g_string_append_printf (out, "%s\n", summary);
  mshed_cli_flush (out, TRUE);

  if (self.n_unreadable)
    status = MSHED_CLI_EXIT_TROUBLE;
  else if (self.n_errors)
    status = MSHED_CLI_EXIT_PROBLEMS;
  else
    status = MSHED_CLI_EXIT_OK;
  return status;
}
