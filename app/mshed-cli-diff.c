/* mshed-cli-diff.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `mshed-cli diff A B` and `mshed-cli merge BASE MINE THEIRS -o OUT`: the structural diff and
 * the three-way merge of docs/diff.md on models, ARCHIVE:ENTRY, whole archives (diff only)
 * and UTF files.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-dfm-schema.h"
#include "mshed-diff.h"
#include "mshed-merge.h"
#include "mshed-save.h"

typedef enum {
  INPUT_MODEL,
  INPUT_ARCHIVE,
  INPUT_UTF,
} InputKind;

typedef struct {
  InputKind    kind;
  MshedSource *source;
  MshedUtf    *utf;
} Input;

static void
input_clear (Input *in)
{
  g_clear_pointer (&in->source, mshed_source_free);
  g_clear_pointer (&in->utf, mshed_utf_unref);
}

/* Opens FILE, ARCHIVE:ENTRY or a UTF file; a message on stderr when it cannot be read. */
static gboolean
input_open (Input      *in,
            const char *spec)
{
  g_autofree char *path = NULL, *entry = NULL;
  int status = MSHED_CLI_EXIT_OK;

  memset (in, 0, sizeof *in);
  if (!mshed_split_spec (spec, &path, &entry) && mshed_cli_is_utf_file (path))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = mshed_load_file (path, &error);

      if (bytes)
        in->utf = mshed_utf_parse (bytes, MSHED_MODE_TOLERANT, NULL, &error);
      if (in->utf == NULL)
        {
          mshed_cli_error ("%s", error->message);
          return FALSE;
        }
      in->kind = INPUT_UTF;
      return TRUE;
    }
  in->source = mshed_cli_open (spec, MSHED_MODE_TOLERANT, NULL, &status);
  if (in->source == NULL)
    return FALSE;
  in->kind = in->source->model ? INPUT_MODEL : INPUT_ARCHIVE;
  return TRUE;
}

static const char *
kind_name (InputKind kind)
{
  switch (kind)
    {
    case INPUT_MODEL:
      return _("a model");
    case INPUT_ARCHIVE:
      return _("an archive");
    case INPUT_UTF:
    default:
      return _("a UTF file");
    }
}

/* diff ----------------------------------------------------------------------------------- */

static void
json_number (GString *out,
             double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    g_string_append (out, "null");
  else
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.9g", v));
}

static void
json_member (GString    *out,
             const char *name,
             const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (out, ", \"%s\": ", name);
  mshed_cli_json_string (out, value);
}

static void
json_row (GString    *out,
          const char *name,
          guint       row)
{
  if (row != MSHED_DIFF_NO_ROW)
    g_string_append_printf (out, ", \"%s\": %u", name, row);
}

static const char *const kind_names[] = {
  "field", "text", "row-added", "row-removed", "bytes", "added", "removed", "changed",
  "renamed", "geometry",
};

static void
json_item (GString             *out,
           const MshedDiffItem *item)
{
  g_autofree char *text = mshed_diff_item_format (item);

  g_string_append_printf (out, "{\"kind\": \"%s\"", kind_names[item->kind]);
  json_member (out, "table", item->table_name);
  json_row (out, "row_a", item->row_a);
  json_row (out, "row_b", item->row_b);
  json_member (out, "field", item->field);
  json_member (out, "old", item->old_value);
  json_member (out, "new", item->new_value);
  if (item->res_a >= 0)
    g_string_append_printf (out, ", \"resource_a\": %d", item->res_a);
  if (item->res_b >= 0)
    g_string_append_printf (out, ", \"resource_b\": %d", item->res_b);
  if (item->res_type)
    g_string_append_printf (out, ", \"type\": %" G_GUINT32_FORMAT, item->res_type);
  json_member (out, "entry", item->entry);
  json_member (out, "path", item->path);
  if (item->kind == MSHED_DIFF_FIELD || item->kind == MSHED_DIFF_TEXT ||
      item->kind == MSHED_DIFF_BYTES)
    g_string_append_printf (out, ", \"offset\": %" G_GUINT64_FORMAT, item->offset);
  if (item->kind == MSHED_DIFF_BYTES)
    g_string_append_printf (out, ", \"length_a\": %" G_GUINT64_FORMAT ", \"length_b\": %"
                            G_GUINT64_FORMAT, item->length_a, item->length_b);
  if (item->kind == MSHED_DIFF_GEOMETRY)
    {
      g_string_append (out, ", \"max_displacement\": ");
      json_number (out, item->max_displacement);
      g_string_append_printf (out, ", \"moved_vertices\": %u, \"changed_triangles\": %u",
                              item->moved_vertices, item->changed_triangles);
      for (guint s = 0; s < 2; s++)
        {
          g_string_append_printf (out, ", \"bounds_%c\": [", s ? 'b' : 'a');
          for (guint k = 0; k < 6; k++)
            {
              if (k)
                g_string_append (out, ", ");
              json_number (out, s ? item->bounds_b[k] : item->bounds_a[k]);
            }
          g_string_append_c (out, ']');
        }
    }
  json_member (out, "text", text);
  g_string_append_c (out, '}');
}

static void
print_json (GString         *out,
            const MshedDiff *d,
            const char      *a,
            const char      *b,
            double           tolerance,
            gboolean         summary)
{
  g_string_append (out, "{\"a\": ");
  mshed_cli_json_string (out, a);
  g_string_append (out, ", \"b\": ");
  mshed_cli_json_string (out, b);
  g_string_append_printf (out, ", \"equal\": %s, \"tolerance\": ",
                          mshed_diff_is_empty (d) ? "true" : "false");
  json_number (out, tolerance);
  g_string_append (out, ", \"summary\": {");
  for (guint i = 0; i < mshed_diff_get_n_counts (d); i++)
    {
      const MshedDiffCount *c = mshed_diff_get_count (d, i);

      if (i)
        g_string_append (out, ", ");
      mshed_cli_json_string (out, c->table_name);
      g_string_append_printf (out, ": %u", c->count);
    }
  g_string_append_printf (out, "}, \"total\": %u", mshed_diff_get_n_items (d));
  if (!summary)
    {
      g_string_append (out, ", \"differences\": [");
      for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
        {
          g_string_append (out, i ? ",\n  " : "\n  ");
          json_item (out, mshed_diff_get_item (d, i));
          mshed_cli_flush (out, FALSE);
        }
      g_string_append (out, mshed_diff_get_n_items (d) ? "\n]" : "]");
    }
  g_string_append (out, "}\n");
}

static void
print_text (GString         *out,
            const MshedDiff *d,
            gboolean         summary)
{
  if (!summary)
    for (guint i = 0; i < mshed_diff_get_n_items (d); i++)
      {
        g_autofree char *line = mshed_diff_item_format (mshed_diff_get_item (d, i));

        g_string_append (out, line);
        g_string_append_c (out, '\n');
        mshed_cli_flush (out, FALSE);
      }
  if (summary || mshed_diff_get_n_items (d) > 0)
    {
      for (guint i = 0; i < mshed_diff_get_n_counts (d); i++)
        {
          const MshedDiffCount *c = mshed_diff_get_count (d, i);

          g_string_append_printf (out, "%s: %u\n", c->table_name, c->count);
        }
      g_string_append_printf (out, ngettext ("%u difference\n", "%u differences\n",
                                             mshed_diff_get_n_items (d)),
                              mshed_diff_get_n_items (d));
    }
}

static gboolean
known_table (const char *name)
{
  static const char *const extra[] = { "resources", "entries", "bytes" };

  if (mshed_schema_find_table (name) || mshed_dfm_schema_find_table (name))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (extra); i++)
    if (strcmp (name, extra[i]) == 0)
      return TRUE;
  return FALSE;
}

int
mshed_cli_diff (int    argc,
                char **argv)
{
  gboolean json = FALSE, summary = FALSE;
  g_autofree char *tolerance_text = NULL, *table = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { "tolerance", 0, 0, G_OPTION_ARG_STRING, &tolerance_text,
      N_("Treat vertex displacements and float differences up to EPS as equal"), "EPS" },
    { "table", 0, 0, G_OPTION_ARG_STRING, &table,
      N_("Only the differences of one table (a name of “dump --list”)"), "TABLE" },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary,
      N_("Only the number of differences per table"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    mshed_cli_context_new ("A B", _("Compare two models, two archives or two UTF files "
                                    "structurally. Exit status 0: equal, 1: different, "
                                    "2: unreadable."), entries);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(MshedDiff) d = NULL;
  MshedDiffOptions options = { 0, NULL };
  Input in[2];

  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 3)
    {
      mshed_cli_error (_("diff needs exactly two files (A B)"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (tolerance_text)
    {
      char *end = NULL;

      options.tolerance = g_ascii_strtod (tolerance_text, &end);
      if (*tolerance_text == '\0' || end == NULL || *end != '\0' ||
          !isfinite (options.tolerance) || options.tolerance < 0)
        {
          mshed_cli_error (_("--tolerance %s: not a finite number of zero or more"),
                           tolerance_text);
          return MSHED_CLI_EXIT_TROUBLE;
        }
    }
  if (table && !known_table (table))
    {
      mshed_cli_error (_("--table %s: no such table (see “mshed-cli dump --list”)"), table);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  options.table = table;
  if (!input_open (&in[0], argv[1]))
    return MSHED_CLI_EXIT_TROUBLE;
  if (!input_open (&in[1], argv[2]))
    {
      input_clear (&in[0]);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (in[0].kind != in[1].kind)
    {
      mshed_cli_error (_("cannot compare %s (%s) with %s (%s)"), kind_name (in[0].kind),
                       argv[1], kind_name (in[1].kind), argv[2]);
      input_clear (&in[0]);
      input_clear (&in[1]);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  switch (in[0].kind)
    {
    case INPUT_MODEL:
      d = mshed_diff_models (in[0].source->model, in[1].source->model, &options);
      break;
    case INPUT_ARCHIVE:
      d = mshed_diff_archives (in[0].source->file_nres, in[1].source->file_nres, &options);
      break;
    case INPUT_UTF:
    default:
      d = mshed_diff_utf (in[0].utf, in[1].utf, &options);
      break;
    }
  if (json)
    print_json (out, d, argv[1], argv[2], options.tolerance, summary);
  else
    print_text (out, d, summary);
  mshed_cli_flush (out, TRUE);
  input_clear (&in[0]);
  input_clear (&in[1]);
  return mshed_diff_is_empty (d) ? MSHED_CLI_EXIT_OK : MSHED_CLI_EXIT_PROBLEMS;
}

/* merge ---------------------------------------------------------------------------------- */

int
mshed_cli_merge (int    argc,
                 char **argv)
{
  g_autofree char *output = NULL, *prefer = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the merged model to OUT"), "OUT" },
    { "prefer", 0, 0, G_OPTION_ARG_STRING, &prefer,
      N_("Resolve every conflict with this side: mine or theirs"), "SIDE" },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force,
      N_("Allow OUT to be one of the inputs"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    mshed_cli_context_new ("BASE MINE THEIRS", _("Merge the changes MINE and THEIRS made to "
                                                 "BASE. Conflicts are listed and nothing is "
                                                 "written unless --prefer chooses a side."),
                           entries);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(MshedMerge) m = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  MshedMergeChoice choice = MSHED_MERGE_UNRESOLVED;
  int status = MSHED_CLI_EXIT_OK;
  guint n_conflicts, opened = 0;
  Input in[3];

  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 4)
    {
      mshed_cli_error (_("merge needs exactly three files (BASE MINE THEIRS)"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (output == NULL)
    {
      mshed_cli_error (_("merge needs an output file (-o OUT)"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (prefer && strcmp (prefer, "mine") == 0)
    choice = MSHED_MERGE_MINE;
  else if (prefer && strcmp (prefer, "theirs") == 0)
    choice = MSHED_MERGE_THEIRS;
  else if (prefer)
    {
      mshed_cli_error (_("--prefer %s: use “mine” or “theirs”"), prefer);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  for (guint i = 1; i <= 3; i++)
    if (!force && mshed_cli_same_file (output, argv[i]))
      {
        mshed_cli_error (_("the output %s is the input %s; add --force to overwrite it"),
                         output, argv[i]);
        return MSHED_CLI_EXIT_TROUBLE;
      }
  if (!mshed_cli_check_output (output))
    return MSHED_CLI_EXIT_PROBLEMS;
  for (opened = 0; opened < 3; opened++)
    if (!input_open (&in[opened], argv[opened + 1]))
      {
        status = MSHED_CLI_EXIT_TROUBLE;
        goto out;
      }
  for (guint i = 0; i < 3; i++)
    if (in[i].kind == INPUT_ARCHIVE || in[i].kind != in[0].kind)
      {
        mshed_cli_error (_("merge needs three models or three UTF files: %s is %s"),
                         argv[i + 1], kind_name (in[i].kind));
        status = MSHED_CLI_EXIT_TROUBLE;
        goto out;
      }
  if (in[0].kind == INPUT_MODEL)
    m = mshed_merge_models (in[0].source->model, in[1].source->model, in[2].source->model);
  else
    m = mshed_merge_utf (in[0].utf, in[1].utf, in[2].utf);
  n_conflicts = mshed_merge_get_n_conflicts (m);
  for (guint i = 0; i < n_conflicts; i++)
    {
      g_autofree char *line = mshed_merge_conflict_format (mshed_merge_get_conflict (m, i));

      g_string_append_printf (out, _("conflict: %s\n"), line);
    }
  mshed_cli_flush (out, TRUE);
  if (n_conflicts > 0 && choice == MSHED_MERGE_UNRESOLVED)
    {
      mshed_cli_error (ngettext ("%u conflict; nothing written (choose a side with --prefer "
                                 "mine|theirs)",
                                 "%u conflicts; nothing written (choose a side with --prefer "
                                 "mine|theirs)", n_conflicts), n_conflicts);
      status = MSHED_CLI_EXIT_PROBLEMS;
      goto out;
    }
  mshed_merge_resolve_all (m, choice);
  doc = mshed_merge_apply (m, &error);
  if (doc == NULL || !mshed_document_save_as (doc, output, MSHED_SAVE_FLAGS_NONE, &error))
    {
      mshed_cli_error (_("%s: the merge cannot be written: %s"), output, error->message);
      status = MSHED_CLI_EXIT_PROBLEMS;
      goto out;
    }
  if (n_conflicts > 0)
    g_string_append_printf (out, ngettext ("%u conflict resolved with %s\n",
                                           "%u conflicts resolved with %s\n", n_conflicts),
                            n_conflicts, prefer);
  g_string_append_printf (out, _("Merged into %s\n"), output);
  mshed_cli_flush (out, TRUE);
out:
  for (guint i = 0; i < opened && i < 3; i++)
    input_clear (&in[i]);
  return status;
}
