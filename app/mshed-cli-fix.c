/* mshed-cli-fix.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli fix: the reviewable fixes of mshed-fix.h for files, archives (every model in
 * them) and folders. --plan prints every change (the default), --apply makes them, and
 * --apply-plan applies a reviewed, possibly edited, plan file; each document is saved
 * atomically with a backup, as mshed_document_save does it.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-error.h"
#include "mshed-fix.h"

typedef struct {
  gboolean        apply;
  MshedSaveFlags  flags;
  GString        *plan_text;  /* every change planned */
  guint           n_changes;
  guint           n_documents;  /* with at least one change */
  int             status;
} Fix;

static void
worse (Fix *self,
       int  status)
{
  self->status = MAX (self->status, status);
}

/* The models of one PATH, as specs --------------------------------------------------------- */

/* @path is an NRes archive that is no model: each of its model entries. */
static void
add_archive_entries (GPtrArray  *specs,
                     const char *path,
                     MshedNres  *nres)
{
  for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      g_autofree char *name = NULL;

      if (!mshed_entry_holds_model (e))
        continue;
      name = mshed_nres_entry_dup_name (e);
      g_ptr_array_add (specs, g_strdup_printf ("%s:%s", path, name));
    }
}

/* @named: on the command line (read whatever it is); FALSE: found in a folder (only files that
 * start with "NRes" or "UTF "). */
static void
add_file (Fix        *self,
          GPtrArray  *specs,
          const char *path,
          gboolean    named)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDiagnostics) diags = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autofree char *file = NULL;
  g_autofree char *entry = NULL;

  if (named && mshed_split_spec (path, &file, &entry))
    {
      g_ptr_array_add (specs, g_strdup (path));
      return;
    }
  bytes = mshed_load_file (path, &error);
  if (bytes == NULL)
    {
      mshed_cli_error ("%s", error->message);
      worse (self, MSHED_CLI_EXIT_TROUBLE);
      return;
    }
  if (mshed_cli_has_utf_magic (bytes))
    {
      g_ptr_array_add (specs, g_strdup (path));
      return;
    }
  if (!mshed_cli_has_nres_magic (bytes))
    {
      if (named)
        g_ptr_array_add (specs, g_strdup (path));  /* let the document say why not */
      return;
    }
  diags = mshed_diagnostics_new ();
  nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, diags, NULL);
  if (nres == NULL || mshed_nres_looks_like_model (nres))
    g_ptr_array_add (specs, g_strdup (path));
  else
    add_archive_entries (specs, path, nres);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
add_tree (Fix        *self,
          GPtrArray  *specs,
          const char *dir_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, &error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    {
      mshed_cli_error ("%s", error->message);
      worse (self, MSHED_CLI_EXIT_TROUBLE);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      const char *child_name = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (dir_path, child_name, NULL);

      /* the backups a save keeps are not fixed again */
      if (g_str_has_suffix (child_name, ".bak"))
        continue;

      if (g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        {
          if (g_file_test (child, G_FILE_TEST_IS_REGULAR))
            add_file (self, specs, child, FALSE);
        }
      else if (g_file_test (child, G_FILE_TEST_IS_DIR))
        add_tree (self, specs, child);
      else if (g_file_test (child, G_FILE_TEST_IS_REGULAR))
        add_file (self, specs, child, FALSE);
    }
}

/* One document ------------------------------------------------------------------------------ */

static MshedDocument *
open_document (Fix        *self,
               const char *spec)
{
  g_autoptr(GError) error = NULL;
  MshedDocument *doc = mshed_document_open (spec, MSHED_MODE_TOLERANT, &error);

  if (doc == NULL)
    {
      mshed_cli_error ("%s", error->message);
      worse (self, mshed_cli_exit_status (error, MSHED_CLI_STEP_READ));
    }
  return doc;
}

/* Applies @plan to @doc and saves it. */
static void
apply_and_save (Fix                *self,
                MshedDocument      *doc,
                const MshedFixPlan *plan)
{
  g_autoptr(GError) error = NULL;

  if (plan->changes->len == 0)
    return;
  if (!mshed_fix_plan_apply (doc, plan, &error) ||
      !mshed_document_save (doc, self->flags, &error))
    {
      mshed_cli_error ("%s", error->message);
      g_printerr (_("%s: nothing was written.\n"), plan->spec);
      worse (self, MSHED_CLI_EXIT_PROBLEMS);
      return;
    }
  g_print (g_dngettext (NULL, "saved %s (%u change)\n", "saved %s (%u changes)\n",
                       plan->changes->len), mshed_document_get_path (doc), plan->changes->len);
}

static void
fix_spec (Fix        *self,
          const char *spec)
{
  g_autoptr(MshedDocument) doc = open_document (self, spec);
  g_autoptr(MshedFixPlan) plan = NULL;

  if (doc == NULL)
    return;
  plan = mshed_fix_plan (doc, mshed_document_get_diagnostics (doc), spec);
  for (guint i = 0; i < plan->notes->len; i++)
    mshed_cli_error (_("%s: no fix planned: %s"), spec,
                     (const char *) g_ptr_array_index (plan->notes, i));
  mshed_fix_plan_write (plan, self->plan_text);
  self->n_changes += plan->changes->len;
  self->n_documents += plan->changes->len > 0;
  if (self->apply)
    {
      g_autoptr(GString) lines = g_string_new (NULL);

      mshed_fix_plan_write (plan, lines);
      fputs (lines->str, stdout);
      apply_and_save (self, doc, plan);
    }
}

/* --apply-plan: every document is checked against the plan before anything is written. */
static void
apply_plan_file (Fix        *self,
                 const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (path, &error);
  g_autoptr(GPtrArray) plans = NULL;
  g_autofree char *text = NULL;

  if (bytes == NULL)
    {
      mshed_cli_error ("%s", error->message);
      worse (self, MSHED_CLI_EXIT_TROUBLE);
      return;
    }
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  plans = mshed_fix_plans_parse (text, &error);
  if (plans == NULL)
    {
      mshed_cli_error (_("Plan “%s”: %s"), path, error->message);
      worse (self, MSHED_CLI_EXIT_TROUBLE);
      return;
    }
  for (guint i = 0; i < plans->len; i++)
    {
      const MshedFixPlan *plan = g_ptr_array_index (plans, i);
      g_autoptr(MshedDocument) doc = open_document (self, plan->spec);

      if (doc && !mshed_fix_plan_check (doc, plan, &error))
        {
          mshed_cli_error (_("Plan “%s”: %s"), path, error->message);
          worse (self, MSHED_CLI_EXIT_PROBLEMS);
          g_clear_error (&error);
        }
    }
  if (self->status != MSHED_CLI_EXIT_OK)
    {
      g_printerr (_("Nothing was written.\n"));
      return;
    }
  for (guint i = 0; i < plans->len; i++)
    {
      const MshedFixPlan *plan = g_ptr_array_index (plans, i);
      g_autoptr(MshedDocument) doc = open_document (self, plan->spec);

      if (doc)
        apply_and_save (self, doc, plan);
    }
}

int
mshed_cli_fix (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GString) plan_text = g_string_new (mshed_fix_plan_header ());
  g_autofree char *plan_file = NULL;
  g_autofree char *apply_plan = NULL;
  gboolean plan = FALSE, apply = FALSE, no_backup = FALSE;
  GOptionEntry entries[] = {
    { "plan", 0, 0, G_OPTION_ARG_NONE, &plan,
      N_("Print every change the fixes would make, one per line (the default)"), NULL },
    { "plan-file", 0, 0, G_OPTION_ARG_FILENAME, &plan_file,
      N_("Also write the plan to FILE, for review and --apply-plan"), N_("FILE") },
    { "apply", 0, 0, G_OPTION_ARG_NONE, &apply,
      N_("Make the changes and save each file atomically (FILE.bak keeps the original)"),
      NULL },
    { "apply-plan", 0, 0, G_OPTION_ARG_FILENAME, &apply_plan,
      N_("Make the changes a plan FILE lists (reviewed, lines may be deleted); refused when "
         "a file no longer holds the old values"), N_("FILE") },
    { "no-backup", 0, 0, G_OPTION_ARG_NONE, &no_backup,
      N_("Do not keep FILE.bak when overwriting"), NULL },
    { NULL }
  };
  Fix self = { 0 };

  context = mshed_cli_context_new ("PATH…", _("Fix the findings of “mshed-cli validate” that "
                                              "have a safe fix: a range past its table is "
                                              "clamped to the table, a reference to nothing "
                                              "becomes “none”, derived data the format "
                                              "determines is recomputed. A directory is "
                                              "searched recursively; an archive stands for "
                                              "every model in it.\n\nExit status: 0 done, 1 a "
                                              "plan no longer matches or a file could not be "
                                              "fixed or saved, 2 a file could not be read."),
                                   entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (plan + apply + (apply_plan != NULL) > 1)
    {
      mshed_cli_error (_("--plan, --apply and --apply-plan exclude each other"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (apply_plan ? argc != 1 : argc < 2)
    {
      mshed_cli_error (apply_plan ? _("--apply-plan takes the files from the plan, not PATHs")
                                  : _("expected at least one PATH"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (plan_file && !mshed_cli_check_output (plan_file))
    return MSHED_CLI_EXIT_PROBLEMS;

  self.apply = apply;
  self.plan_text = plan_text;
  /* the fixes leave the findings that have none: a file may still fail strict validation */
  self.flags = MSHED_SAVE_ANYWAY | (no_backup ? MSHED_SAVE_NO_BACKUP : 0);
  if (apply_plan)
    {
      apply_plan_file (&self, apply_plan);
      return self.status;
    }
  {
    g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func (g_free);

    for (int i = 1; i < argc; i++)
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        add_tree (&self, specs, argv[i]);
      else
        add_file (&self, specs, argv[i], TRUE);
    for (guint i = 0; i < specs->len; i++)
      fix_spec (&self, g_ptr_array_index (specs, i));
  }
  g_string_append_printf (plan_text, g_dngettext (NULL, "# %u change", "# %u changes",
                                                  self.n_changes), self.n_changes);
  g_string_append_printf (plan_text, g_dngettext (NULL, " in %u file\n", " in %u files\n",
                                                  self.n_documents), self.n_documents);
  if (!apply)
    fputs (plan_text->str, stdout);
  if (plan_file)
    {
      g_autoptr(GError) error = NULL;

      if (!g_file_set_contents (plan_file, plan_text->str, (gssize) plan_text->len, &error))
        {
          mshed_cli_error (_("Cannot write the plan: %s"), error->message);
          worse (&self, MSHED_CLI_EXIT_PROBLEMS);
        }
    }
  return self.status;
}
