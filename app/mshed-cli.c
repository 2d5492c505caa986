/* mshed-cli.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli: inspect, validate, round-trip, dump, list, extract and generate Parkan models
 * and archives from the command line. Results go to stdout, errors to stderr.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cli-private.h"
#include "mshed-error.h"
#include "mshed-json.h"
#include "mshed-uninstalled.h"

typedef struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *args;     /* untranslated syntax */
  const char *summary;  /* N_() */
} MshedCliCommand;

static const MshedCliCommand commands[] = {
  { "info", mshed_cli_info, "FILE",
    N_("Show a model's resources, attributes and totals") },
  { "validate", mshed_cli_validate,
    "[--strict|--tolerant] [--json] [--jobs N] [--baseline F] [--write-baseline F] PATH…",
    N_("Check files or whole directories against the format rules") },
  { "fix", mshed_cli_fix, "[--plan [--plan-file F] | --apply | --apply-plan F] PATH…",
    N_("Fix findings that have a safe fix, with every change reviewable first") },
  { "roundtrip", mshed_cli_roundtrip, "FILE…",
    N_("Decode and re-encode, and compare the bytes") },
  { "dump", mshed_cli_dump,
    "FILE --table TABLE [--json] [--decoded] [--range A..B] | --list [FILE]",
    N_("Print one table of a model") },
  { "ls", mshed_cli_ls, "ARCHIVE",
    N_("List the entries of an archive") },
  { "archive", mshed_cli_archive,
    "ARCHIVE list | add FILE | replace|remove|rename|move|set ENTRY …",
    N_("List, add, replace, remove, rename, move and retag archive entries") },
  { "extract", mshed_cli_extract, "ARCHIVE ENTRY -o FILE",
    N_("Write the payload of one archive entry to a file") },
  { "generate", mshed_cli_generate, "[--seed N] [--triangles N] [OPTION…] -o FILE",
    N_("Write a synthetic model or archive") },
  { "edit", mshed_cli_edit, "…",
    N_("Change fields, names and resources of a model") },
  { "render", mshed_cli_render, "…",
    N_("Draw a model to a PNG image without a display") },
  { "diff", mshed_cli_diff, "[--json] [--tolerance EPS] [--table T] [--summary] A B",
    N_("Compare two models, archives or UTF files structurally") },
  { "merge", mshed_cli_merge, "BASE MINE THEIRS -o OUT [--prefer mine|theirs] [--force]",
    N_("Merge the changes of two edited copies of one model") },
  { "export", mshed_cli_export,
    "FILE[:ENTRY] -o OUT.glb|OUT.gltf [--frame N] [--lod L --group G]",
    N_("Export a model to glTF 2.0 for Blender") },
  { "import", mshed_cli_import, "IN.glb|IN.gltf [--into MODEL[:ENTRY]] -o OUT [--force]",
    N_("Bring a glTF 2.0 file back into its model, or make a new model of it") },
  { "convert", mshed_cli_convert,
    "IN.dfm OUT.msh [--mode static|rigid] [--template MODEL] | IN.msh OUT.dfm",
    N_("Convert a Freelancer deformable model to an MSH model or back, listing what is lost") },
};

static char *prgname_full = NULL;

const char *
mshed_cli_prgname (void)
{
  return prgname_full ? prgname_full : "mshed-cli";
}

void
mshed_cli_error (const char *format,
                 ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  fflush (stdout);
  g_printerr ("%s: %s\n", mshed_cli_prgname (), message);
}

/**
 * mshed_cli_context_new:
 * @parameter: untranslated parameter syntax, e.g. "FILE"
 * @summary: (nullable): translated summary shown by --help
 */
GOptionContext *
mshed_cli_context_new (const char   *parameter,
                       const char   *summary,
                       GOptionEntry *entries)
{
  GOptionContext *context = g_option_context_new (parameter);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (summary)
    g_option_context_set_summary (context, summary);
  if (entries)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  return context;
}

gboolean
mshed_cli_parse (GOptionContext *context,
                 int            *argc,
                 char         ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      mshed_cli_error ("%s", error->message);
      g_printerr (_("Run “%s --help” for the options.\n"), mshed_cli_prgname ());
      return FALSE;
    }
  return TRUE;
}

/**
 * mshed_cli_type_name:
 *
 * Returns: (transfer full): a resource type as text: its four characters when they are all
 *   printable ASCII (archive entries such as "WEAR", "Texm"), else the decimal number
 */
char *
mshed_cli_type_name (guint32 type_id)
{
  guint8 c[4];
  gboolean printable = TRUE;

  mshed_write_u32 (c, type_id);
  for (guint i = 0; i < 4; i++)
    printable &= c[i] >= 0x21 && c[i] <= 0x7E;
  if (printable)
    return g_strndup ((const char *) c, 4);
  return g_strdup_printf ("%u", type_id);
}

int
mshed_cli_text_width (const char *utf8)
{
  if (utf8 == NULL)
    return 0;
  if (!g_utf8_validate (utf8, -1, NULL))
    return (int) strlen (utf8);
  return (int) g_utf8_strlen (utf8, -1);
}

/* Appends @text padded with spaces to @width characters, right-aligned for numbers. */
void
mshed_cli_pad (GString    *out,
               const char *text,
               int         width,
               gboolean    right)
{
  int len = mshed_cli_text_width (text);

  if (right)
    for (int i = len; i < width; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, text ? text : "");
  if (!right)
    for (int i = len; i < width; i++)
      g_string_append_c (out, ' ');
}

/* Writes the buffered output as UTF-8 bytes (no locale conversion: scripts get what the
 * file holds) once it is large, or always with @force. */
void
mshed_cli_flush (GString  *out,
                 gboolean  force)
{
  if (out->len == 0 || (!force && out->len < 64 * 1024))
    return;
  fwrite (out->str, 1, out->len, stdout);
  g_string_truncate (out, 0);
  if (force)
    fflush (stdout);
}

/**
 * mshed_cli_json_string:
 *
 * Appends @text as a JSON string, escaped the way json-glib escapes it (the format
 * `validate --json` always had): the quote, the backslash and the control characters, which
 * are \b, \f, \n, \r, \t or \u00xx, DEL as \u007f; other bytes go out as they are.
 */
void
mshed_cli_json_string (GString    *out,
                       const char *text)
{
  mshed_json_append_string (out, text);
}

/**
 * mshed_cli_parse_count:
 * @option: the option's name, for the message
 * @text: (nullable): its value as given; NULL leaves @out as it is
 *
 * Reads a whole number from @min to @max, or says on stderr why @text is not one.
 */
gboolean
mshed_cli_parse_count (const char *option,
                       const char *text,
                       guint64     min,
                       guint64     max,
                       guint      *out)
{
  g_autoptr(GError) error = NULL;
  guint64 value;

  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, min, max, &value, &error))
    {
      mshed_cli_error ("%s %s: %s", option, text, error->message);
      return FALSE;
    }
  *out = (guint) value;
  return TRUE;
}

G_DEFINE_QUARK (mshed-cli-error-quark, mshed_cli_error)

/**
 * mshed_cli_exit_status:
 * @error: what went wrong
 * @step: whether it came while reading an input or while working on it
 *
 * Maps an error to the exit status of the table in mshed-cli-private.h: bad usage and an input
 * that cannot be read at all (MSHED_MODEL_ERROR_IO while reading: missing, permission, not a
 * regular file) give 2; everything else, a broken input or a failed operation (a failed save
 * is MSHED_MODEL_ERROR_IO too, but while working), gives 1.
 */
MshedCliExit
mshed_cli_exit_status (const GError *error,
                       MshedCliStep  step)
{
  if (error == NULL)
    return MSHED_CLI_EXIT_PROBLEMS;
  if (error->domain == MSHED_CLI_ERROR || error->domain == G_OPTION_ERROR)
    return MSHED_CLI_EXIT_TROUBLE;
  if (step == MSHED_CLI_STEP_READ && error->domain == MSHED_MODEL_ERROR &&
      error->code == MSHED_MODEL_ERROR_IO)
    return MSHED_CLI_EXIT_TROUBLE;
  return MSHED_CLI_EXIT_PROBLEMS;
}

/**
 * mshed_cli_check_output:
 * @path: the file named by -o, or "-" for standard output
 *
 * Refuses, with a message, an output that exists and is not a regular file (a directory,
 * FIFO, device or socket), before any work is done. The caller then exits with
 * MSHED_CLI_EXIT_PROBLEMS, as for any output that cannot be written.
 *
 * Returns: TRUE when the command may write @path
 */
gboolean
mshed_cli_check_output (const char *path)
{
  g_autoptr(GError) error = NULL;

  if (strcmp (path, "-") == 0 || mshed_check_output (path, &error))
    return TRUE;
  mshed_cli_error (_("cannot write the output: %s"), error->message);
  return FALSE;
}

/**
 * mshed_cli_open:
 * @status: (out): the exit status to use on failure
 *
 * Opens FILE or ARCHIVE:ENTRY and reports a failure on stderr.
 *
 * Returns: (transfer full) (nullable): the source
 */
MshedSource *
mshed_cli_open (const char       *spec,
                MshedMode         mode,
                MshedDiagnostics *diags,
                int              *status)
{
  g_autoptr(GError) error = NULL;
  MshedSource *source = mshed_source_open (spec, mode, diags, &error);

  *status = MSHED_CLI_EXIT_OK;
  if (source == NULL)
    {
      mshed_cli_error ("%s", error->message);
      *status = mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  return source;
}

/**
 * mshed_cli_open_model:
 * @status: (out): the exit status to use on failure
 *
 * Opens FILE or ARCHIVE:ENTRY in tolerant mode for a command that needs one model (render,
 * export), and refuses an archive with a message naming how to pick one of its models.
 *
 * Returns: (transfer full) (nullable): the source, whose model is set
 */
MshedSource *
mshed_cli_open_model (const char       *spec,
                      MshedDiagnostics *diags,
                      int              *status)
{
  MshedSource *source = mshed_cli_open (spec, MSHED_MODE_TOLERANT, diags, status);

  if (source == NULL || source->model != NULL)
    return source;
  mshed_cli_error (_("%s is an archive, not a model: name one of its models as "
                     "ARCHIVE:ENTRY (see “mshed-cli ls %s”)"), spec, spec);
  mshed_source_free (source);
  *status = MSHED_CLI_EXIT_PROBLEMS;
  return NULL;
}

guint64
mshed_cli_triangle_count (const MshedModel *model)
{
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  guint64 total = 0;

  for (guint i = 0; i < n; i++)
    {
      MshedBatch batch;

      if (mshed_model_get_batch (model, i, &batch))
        total += batch.index_count / 3;
    }
  return total;
}

static gboolean
has_magic (GBytes  *bytes,
           guint32  magic)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  return size >= 4 && mshed_read_u32 (data) == magic;
}

gboolean
mshed_cli_has_nres_magic (GBytes *bytes)
{
  return has_magic (bytes, MSHED_NRES_MAGIC);
}

/* "UTF ": a Freelancer UTF file (docs/utf.md) */
gboolean
mshed_cli_has_utf_magic (GBytes *bytes)
{
  return has_magic (bytes, MSHED_UTF_SIGNATURE);
}

/* Main ----------------------------------------------------------------------------------- */

static void
print_usage (FILE *stream)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, _("Usage: %s COMMAND [OPTION…] [ARGUMENT…]\n"), "mshed-cli");
  g_string_append (s, "\n");
  g_string_append (s, _("Inspect, check and edit Parkan .msh models and NRes archives.\n"));
  g_string_append (s, _("Wherever a FILE is accepted, ARCHIVE:ENTRY names a model inside an "
                        "archive.\n"));
  g_string_append (s, "\n");
  g_string_append (s, _("Commands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_string_append_printf (s, "  %s %s\n      ", commands[i].name, commands[i].args);
      g_string_append (s, _(commands[i].summary));
      g_string_append_c (s, '\n');
    }
  g_string_append (s, "\n");
  g_string_append (s, _("Options:\n"));
  g_string_append_printf (s, "  %-18s %s\n", "-h, --help", _("Show this help"));
  g_string_append_printf (s, "  %-18s %s\n", "-V, --version", _("Show the version"));
  g_string_append (s, "\n");
  g_string_append_printf (s, _("Run “%s COMMAND --help” for the options of a command.\n"),
                          "mshed-cli");
  g_string_append (s, _("Exit status: 0 success, 1 problems found or the operation failed, "
                        "2 unreadable input or bad usage.\n"));
  fputs (s->str, stream);
  g_string_free (s, TRUE);
}

static const MshedCliCommand *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  const MshedCliCommand *command;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, mshed_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2 || argv[1][0] == '\0')
    {
      print_usage (stderr);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    {
      if (argc >= 3 && strcmp (argv[1], "help") == 0 && (command = find_command (argv[2])))
        {
          char *help_argv[] = { argv[2], (char *) "--help", NULL };

          prgname_full = g_strdup_printf ("mshed-cli %s", command->name);
          g_set_prgname (prgname_full);  /* once: GOptionContext's usage line uses it */
          return command->run (2, help_argv);
        }
      print_usage (stdout);
      return MSHED_CLI_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0 || strcmp (argv[1], "-V") == 0)
    {
      printf ("mshed-cli %s\n", PACKAGE_VERSION);
      return MSHED_CLI_EXIT_OK;
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      g_set_prgname ("mshed-cli");
      mshed_cli_error (_("“%s” is not a command"), argv[1]);
      print_usage (stderr);
      return MSHED_CLI_EXIT_TROUBLE;
    }

  prgname_full = g_strdup_printf ("mshed-cli %s", command->name);
  g_set_prgname (prgname_full);
  status = command->run (argc - 1, argv + 1);
  fflush (stdout);
  g_clear_pointer (&prgname_full, g_free);
  return status;
}

/* Whether @output names the same file as @spec's file (by device and inode). */
gboolean
mshed_cli_same_file (const char *output,
                     const char *spec)
{
  g_autofree char *path = NULL, *entry = NULL;
  GStatBuf a, b;

  mshed_split_spec (spec, &path, &entry);
  if (g_stat (output, &a) != 0 || g_stat (path, &b) != 0)
    return FALSE;
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
