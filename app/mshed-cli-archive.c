/* mshed-cli-archive.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli archive: edit the entries of an NRes archive, one edit per call.
 *
 *   mshed-cli archive ARCHIVE list
 *   mshed-cli archive ARCHIVE add FILE [--name N] [--type T] [--at I] [--attr1 V]…
 *   mshed-cli archive ARCHIVE replace ENTRY FILE
 *   mshed-cli archive ARCHIVE remove ENTRY
 *   mshed-cli archive ARCHIVE rename ENTRY NEWNAME
 *   mshed-cli archive ARCHIVE move ENTRY INDEX
 *   mshed-cli archive ARCHIVE set ENTRY [--type T] [--attr1 V] [--attr2 V] [--attr3 V]
 *
 * ENTRY is an entry name or #INDEX. The edits go through the NRes container (mshed-nres.h),
 * whose writer keeps every untouched entry byte-identical (docs/nres.md §7.3); the result is
 * checked by the strict validator of `validate` and then written atomically, keeping
 * ARCHIVE.bak the first time (mshed-save.h), unless --save-anyway, --no-backup, --dry-run or
 * -o OUT say otherwise.
 *
 * Names are Windows-1251 and at most 35 bytes (docs/nres.md §4). The format allows two entries
 * with the same name (docs/nres.md §5.4), but then only one of them can be reached by name, so
 * a name that is already taken (ASCII case folded) is refused unless --allow-duplicate. An
 * added entry gets type 0 and zero attributes unless --type or --attrN say otherwise: the
 * attributes of an outer entry holding a model have no known meaning (docs/nres.md §10;
 * docs/msh.md §3 is about the resources inside the model, which the added file carries
 * itself).
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mshed-archive.h"
#include "mshed-bytes.h"
#include "mshed-cli-private.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-save.h"

typedef struct {
  const char *archive;
  MshedNres  *nres;
  GString    *out;
  char       *type;
  char       *attr[3];
  char       *name;
  char       *at;
  gboolean    allow_duplicate;
} Archive;

static gboolean
usage (GError    **error,
       const char *format,
       ...) G_GNUC_PRINTF (2, 3);

static gboolean
usage (GError    **error,
       const char *format,
       ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                                                format, args));
  va_end (args);
  return FALSE;
}

/* A 32-bit value: decimal, 0x-hexadecimal, or (for a type) four printable characters such as
 * WEAR, stored as mshed_cli_type_name() prints them. */
static gboolean
parse_u32 (const char *option,
           const char *text,
           gboolean    tag,
           guint32    *out,
           GError    **error)
{
  guint64 v;

  if (g_ascii_strncasecmp (text, "0x", 2) == 0 && text[2] != '\0' &&
      g_ascii_string_to_unsigned (text + 2, 16, 0, G_MAXUINT32, &v, NULL))
    {
      *out = (guint32) v;
      return TRUE;
    }
  if (g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &v, NULL))
    {
      *out = (guint32) v;
      return TRUE;
    }
  if (tag && strlen (text) == 4)
    {
      gboolean printable = TRUE;

      for (guint i = 0; i < 4; i++)
        printable &= text[i] >= 0x21 && text[i] <= 0x7E;
      if (printable)
        {
          *out = mshed_read_u32 ((const guint8 *) text);
          return TRUE;
        }
    }
  return usage (error, tag ? _("%s %s: expected a number from 0 to 4294967295, 0xHEX or four "
                               "characters such as WEAR")
                           : _("%s %s: expected a number from 0 to 4294967295 or 0xHEX"),
                option, text);
}

/* The 36-byte name field for @name (UTF-8 on the command line, Windows-1251 in the file); a
 * name that cannot be one is a usage error (exit status 2). */
static gboolean
encode_name (Archive    *a,
             const char *name,
             guint8      field[MSHED_NRES_NAME_SIZE],
             GError    **error)
{
  g_autoptr(GError) local = NULL;

  if (mshed_archive_encode_name (a->archive, name, field, &local))
    return TRUE;
  return usage (error, "%s", local->message);
}

/* Refuses a name another entry than @self already has (ASCII case folded, docs/nres.md §4). */
static gboolean
check_unique (Archive      *a,
              const guint8 *field,
              gint          self,
              const char   *name,
              GError      **error)
{
  if (a->allow_duplicate)
    return TRUE;
  for (guint i = 0; i < mshed_nres_get_n_entries (a->nres); i++)
    if ((gint) i != self &&
        mshed_nres_name_compare (mshed_nres_peek_entry (a->nres, i)->name, field) == 0)
      {
        g_autofree char *taken = mshed_nres_entry_dup_name (mshed_nres_peek_entry (a->nres, i));

        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                     _("%s: “%s” is taken by entry #%u “%s” (case does not count); two entries "
                       "of one name can be told apart only by index (use --allow-duplicate "
                       "to write it anyway)"), a->archive, name, i, taken);
        return FALSE;
      }
  return TRUE;
}

/* ENTRY: a name, or #INDEX. */
static gboolean
find_entry (Archive    *a,
            const char *spec,
            guint      *index,
            GError    **error)
{
  g_autoptr(GBytes) raw = mshed_utf8_to_cp1251 (spec, NULL);
  guint n = mshed_nres_get_n_entries (a->nres);
  guint64 number;

  if (raw != NULL && g_bytes_get_size (raw) < MSHED_NRES_NAME_SIZE)
    {
      g_autofree char *name = g_strndup (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw));
      gint found = mshed_nres_lookup_name (a->nres, name);

      if (found >= 0)
        {
          *index = (guint) found;
          return TRUE;
        }
    }
  if (spec[0] == '#' &&
      g_ascii_string_to_unsigned (spec + 1, 10, 0, G_MAXUINT, &number, NULL) && number < n)
    {
      *index = (guint) number;
      return TRUE;
    }
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
               _("%s has no entry “%s” (%u entries; name one, or write #0 … #%u; see "
                 "“mshed-cli archive %s list”)"),
               a->archive, spec, n, n ? n - 1 : 0, a->archive);
  return FALSE;
}

/* Applies --type and --attr1..3 to @e. */
static gboolean
apply_attributes (Archive        *a,
                  MshedNresEntry *e,
                  GError        **error)
{
  static const char *const options[] = { "--attr1", "--attr2", "--attr3" };
  guint32 *fields[] = { &e->attr1, &e->attr2, &e->attr3 };

  if (a->type && !parse_u32 ("--type", a->type, TRUE, &e->type_id, error))
    return FALSE;
  for (guint k = 0; k < 3; k++)
    if (a->attr[k] && !parse_u32 (options[k], a->attr[k], FALSE, fields[k], error))
      return FALSE;
  return TRUE;
}

static char *
entry_name (const MshedNresEntry *e)
{
  return mshed_nres_entry_dup_name (e);
}

/* A FILE named on the command line; unreadable means exit status 2, like any input. */
static GBytes *
load_input (const char *path,
            GError    **error)
{
  g_autoptr(GError) local = NULL;
  GBytes *bytes = mshed_load_file (path, &local);

  if (bytes == NULL)
    g_set_error_literal (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE, local->message);
  return bytes;
}

static gboolean
do_add (Archive  *a,
        char    **args,
        GError  **error)
{
  MshedNresEntry templ = { 0 };
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *base = NULL;
  const char *name;
  guint n = mshed_nres_get_n_entries (a->nres), at = n;

  if (g_strv_length (args) != 1)
    return usage (error, _("add needs exactly one FILE"));
  base = g_path_get_basename (args[0]);
  name = a->name ? a->name : base;
  if (a->at)
    {
      guint64 v;

      if (!g_ascii_string_to_unsigned (a->at, 10, 0, n, &v, NULL))
        return usage (error, _("--at %s: expected an index from 0 to %u"), a->at, n);
      at = (guint) v;
    }
  if (!encode_name (a, name, templ.name, error) || !apply_attributes (a, &templ, error))
    return FALSE;
  payload = load_input (args[0], error);
  if (payload == NULL)
    return FALSE;
  if (!check_unique (a, templ.name, -1, name, error))
    return FALSE;
  at = mshed_nres_insert_entry (a->nres, at, &templ, payload);
  g_string_append_printf (a->out, _("added #%u “%s” (%zu bytes)\n"), at, name,
                          g_bytes_get_size (payload));
  return TRUE;
}

static gboolean
do_replace (Archive  *a,
            char    **args,
            GError  **error)
{
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *name = NULL;
  MshedNresEntry *e;
  guint index;

  if (g_strv_length (args) != 2)
    return usage (error, _("replace needs ENTRY and FILE"));
  if (!find_entry (a, args[0], &index, error))
    return FALSE;
  e = mshed_nres_get_entry (a->nres, index);
  if (!apply_attributes (a, e, error))
    return FALSE;
  payload = load_input (args[1], error);
  if (payload == NULL)
    return FALSE;
  name = entry_name (e);
  g_string_append_printf (a->out, _("replaced #%u “%s”: %zu bytes, was %zu\n"), index, name,
                          g_bytes_get_size (payload), mshed_nres_entry_get_size (e));
  mshed_nres_set_payload (a->nres, index, payload);
  return TRUE;
}

static gboolean
do_remove (Archive  *a,
           char    **args,
           GError  **error)
{
  g_autofree char *name = NULL;
  guint index;

  if (g_strv_length (args) != 1)
    return usage (error, _("remove needs exactly one ENTRY"));
  if (!find_entry (a, args[0], &index, error))
    return FALSE;
  name = entry_name (mshed_nres_peek_entry (a->nres, index));
  mshed_nres_remove_entry (a->nres, index);
  g_string_append_printf (a->out, _("removed #%u “%s”\n"), index, name);
  return TRUE;
}

static gboolean
do_rename (Archive  *a,
           char    **args,
           GError  **error)
{
  g_autofree char *old = NULL;
  guint8 field[MSHED_NRES_NAME_SIZE];
  guint index;

  if (g_strv_length (args) != 2)
    return usage (error, _("rename needs ENTRY and NEWNAME"));
  if (!find_entry (a, args[0], &index, error) || !encode_name (a, args[1], field, error) ||
      !check_unique (a, field, (gint) index, args[1], error))
    return FALSE;
  old = entry_name (mshed_nres_peek_entry (a->nres, index));
  if (!mshed_nres_set_name (a->nres, index, (const char *) field, error))
    return FALSE;
  g_string_append_printf (a->out, _("renamed #%u “%s” to “%s”\n"), index, old, args[1]);
  return TRUE;
}

static gboolean
do_move (Archive  *a,
         char    **args,
         GError  **error)
{
  guint n = mshed_nres_get_n_entries (a->nres), index;
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *name = NULL;
  MshedNresEntry templ;
  guint64 to;

  if (g_strv_length (args) != 2)
    return usage (error, _("move needs ENTRY and INDEX"));
  if (!find_entry (a, args[0], &index, error))
    return FALSE;
  if (!g_ascii_string_to_unsigned (args[1][0] == '#' ? args[1] + 1 : args[1], 10, 0, n - 1,
                                   &to, NULL))
    return usage (error, _("move %s %s: expected an index from 0 to %u"), args[0], args[1],
                  n - 1);
  name = entry_name (mshed_nres_peek_entry (a->nres, index));
  if (to != index)
    {
      /* the same bytes, type, attributes and raw name, at another directory position */
      templ = *mshed_nres_peek_entry (a->nres, index);
      payload = mshed_nres_entry_dup_bytes (&templ);
      mshed_nres_remove_entry (a->nres, index);
      mshed_nres_insert_entry (a->nres, (guint) to, &templ, payload);
    }
  g_string_append_printf (a->out, _("moved “%s” from #%u to #%u\n"), name, index, (guint) to);
  return TRUE;
}

static gboolean
do_set (Archive  *a,
        char    **args,
        GError  **error)
{
  g_autofree char *name = NULL;
  MshedNresEntry *e;
  MshedNresEntry now;
  g_autofree char *type = NULL;
  guint index;

  if (g_strv_length (args) != 1)
    return usage (error, _("set needs exactly one ENTRY"));
  if (!a->type && !a->attr[0] && !a->attr[1] && !a->attr[2])
    return usage (error, _("set needs at least one of --type, --attr1, --attr2, --attr3"));
  if (!find_entry (a, args[0], &index, error))
    return FALSE;
  e = mshed_nres_get_entry (a->nres, index);
  now = *e;
  if (!apply_attributes (a, &now, error))
    return FALSE;
  e->type_id = now.type_id;
  e->attr1 = now.attr1;
  e->attr2 = now.attr2;
  e->attr3 = now.attr3;
  mshed_nres_touch (a->nres, index);
  name = entry_name (e);
  type = mshed_cli_type_name (e->type_id);
  g_string_append_printf (a->out, _("set #%u “%s”: type %s, attr1 %u, attr2 %u, attr3 %u\n"),
                          index, name, type, e->attr1, e->attr2, e->attr3);
  return TRUE;
}

static const struct {
  const char *name;
  gboolean  (*run) (Archive *a, char **args, GError **error);
  gboolean    takes_name_at;   /* --name, --at */
  gboolean    takes_attrs;     /* --type, --attrN */
} edits[] = {
  { "add", do_add, TRUE, TRUE },
  { "replace", do_replace, FALSE, TRUE },
  { "remove", do_remove, FALSE, FALSE },
  { "rename", do_rename, FALSE, FALSE },
  { "move", do_move, FALSE, FALSE },
  { "set", do_set, FALSE, TRUE },
};

/* The first error of a strict validation, for the refusal message. */
static gboolean
check_strict (const char *path,
              GBytes     *bytes,
              GError    **error)
{
  g_autoptr(MshedDiagnostics) strict = mshed_diagnostics_new ();
  g_autoptr(GError) unreadable = NULL;
  g_autofree char *first = NULL;
  gboolean read = mshed_validate_file_bytes (bytes, MSHED_MODE_STRICT, strict, NULL,
                                             &unreadable);

  if (read && strict->n_errors == 0)
    return TRUE;
  for (guint i = 0; i < strict->items->len && first == NULL; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (strict->items, i);

      if (d->severity == MSHED_SEVERITY_ERROR)
        first = mshed_diagnostic_format (d);
    }
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
               g_dngettext (GETTEXT_PACKAGE,
                            "Not saved: %s would fail strict validation with %u error (%s)",
                            "Not saved: %s would fail strict validation with %u errors (the "
                            "first: %s)", MAX (strict->n_errors, 1)),
               path, MAX (strict->n_errors, 1),
               first ? first : unreadable ? unreadable->message : "?");
  return FALSE;
}

int
mshed_cli_archive (int    argc,
                   char **argv)
{
  Archive a = { 0 };
  g_autofree char *output = NULL;
  gboolean save_anyway = FALSE, no_backup = FALSE, dry_run = FALSE;
  GOptionEntry entries[] = {
    { "name", 0, 0, G_OPTION_ARG_STRING, &a.name,
      N_("add: the entry name (default: the file's name)"), "N" },
    { "at", 0, 0, G_OPTION_ARG_STRING, &a.at,
      N_("add: the directory index of the new entry (default: the end)"), "I" },
    { "type", 0, 0, G_OPTION_ARG_STRING, &a.type,
      N_("add, replace, set: the type id (a number, or four characters such as WEAR)"), "T" },
    { "attr1", 0, 0, G_OPTION_ARG_STRING, &a.attr[0], N_("add, replace, set: attr1"), "V" },
    { "attr2", 0, 0, G_OPTION_ARG_STRING, &a.attr[1], N_("add, replace, set: attr2"), "V" },
    { "attr3", 0, 0, G_OPTION_ARG_STRING, &a.attr[2], N_("add, replace, set: attr3"), "V" },
    { "allow-duplicate", 0, 0, G_OPTION_ARG_NONE, &a.allow_duplicate,
      N_("Allow a name another entry already has"), NULL },
    { "save-anyway", 0, 0, G_OPTION_ARG_NONE, &save_anyway,
      N_("Write even when the result fails strict validation"), NULL },
    { "no-backup", 0, 0, G_OPTION_ARG_NONE, &no_backup,
      N_("Do not keep ARCHIVE.bak when overwriting"), NULL },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run,
      N_("Apply and report the edit, but write nothing"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the result to OUT instead of replacing ARCHIVE"), "OUT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    mshed_cli_context_new ("ARCHIVE list|add FILE|replace ENTRY FILE|remove ENTRY|"
                           "rename ENTRY NEWNAME|move ENTRY INDEX|set ENTRY",
                           _("List or edit the entries of an NRes archive, one edit per call. "
                             "ENTRY is a name or #INDEX. Untouched entries keep their bytes; "
                             "the result must pass strict validation and replaces ARCHIVE "
                             "atomically, ARCHIVE.bak keeping the original."),
                           entries);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) source = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  MshedCliStep step = MSHED_CLI_STEP_READ;
  gint edit = -1;
  int status;

  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc < 3)
    {
      mshed_cli_error (_("archive needs ARCHIVE and one of list, add, replace, remove, rename, "
                         "move, set"));
      status = MSHED_CLI_EXIT_TROUBLE;
      goto out;
    }
  a.archive = argv[1];
  a.out = out;
  if (strcmp (argv[2], "list") == 0)
    {
      char *ls[] = { (char *) "ls", (char *) "-l", argv[1], NULL };

      if (argc != 3)
        {
          mshed_cli_error (_("list takes no arguments"));
          status = MSHED_CLI_EXIT_TROUBLE;
          goto out;
        }
      status = mshed_cli_ls (3, ls);
      goto out;
    }
  for (guint k = 0; k < G_N_ELEMENTS (edits); k++)
    if (strcmp (argv[2], edits[k].name) == 0)
      edit = (gint) k;
  if (edit < 0)
    {
      mshed_cli_error (_("unknown subcommand “%s” (expected list, add, replace, "
                         "remove, rename, move or set)"), argv[2]);
      status = MSHED_CLI_EXIT_TROUBLE;
      goto out;
    }
  if ((!edits[edit].takes_name_at && (a.name || a.at)) ||
      (!edits[edit].takes_attrs && (a.type || a.attr[0] || a.attr[1] || a.attr[2])))
    {
      mshed_cli_error (_("%s: --name and --at go with add; --type and --attrN with add, "
                         "replace and set"), argv[2]);
      status = MSHED_CLI_EXIT_TROUBLE;
      goto out;
    }
  if (output && !mshed_cli_check_output (output))
    {
      status = MSHED_CLI_EXIT_PROBLEMS;
      goto out;
    }

  source = mshed_load_file (a.archive, &error);
  if (source != NULL)
    nres = mshed_nres_parse (source, MSHED_MODE_TOLERANT, diags, &error);
  if (nres == NULL)
    goto failed;
  a.nres = nres;
  step = MSHED_CLI_STEP_WORK;
  if (!edits[edit].run (&a, argv + 3, &error))
    goto failed;

  bytes = mshed_nres_serialize (nres, NULL);
  if (!save_anyway && !check_strict (output ? output : a.archive, bytes, &error))
    {
      fputs (out->str, stdout);
      mshed_cli_error ("%s", error->message);
      g_printerr (_("Use --save-anyway to write an archive that fails strict validation.\n"));
      g_printerr (_("Nothing was written.\n"));
      status = MSHED_CLI_EXIT_PROBLEMS;
      goto out;
    }
  if (dry_run)
    g_string_append (out, _("dry run: nothing written\n"));
  else
    {
      const char *target = output ? output : a.archive;

      if (!mshed_save_atomic (target, bytes, no_backup ? MSHED_SAVE_ATOMIC_NO_BACKUP : 0, NULL,
                              &error))
        goto failed;
      g_string_append_printf (out, _("saved %s\n"), target);
    }
  fputs (out->str, stdout);
  status = MSHED_CLI_EXIT_OK;
  goto out;

failed:
  fputs (out->str, stdout);
  mshed_cli_error ("%s", error->message);
  g_printerr (_("Nothing was written.\n"));
  status = mshed_cli_exit_status (error, step);
out:
  g_free (a.type);
  g_free (a.name);
  g_free (a.at);
  for (guint k = 0; k < 3; k++)
    g_free (a.attr[k]);
  return status;
}
