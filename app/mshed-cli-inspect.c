/* mshed-cli-inspect.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli info, ls, extract and roundtrip.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-error.h"
#include "mshed-reencode.h"
#include "mshed-schema.h"

/* Shared: the resource table ------------------------------------------------------------- */

static const char *
resource_kind (const MshedNresEntry *e,
               gboolean              in_model)
{
  const MshedTableInfo *table;

  if (!in_model)
    {
      if (mshed_entry_holds_model (e))
        return "model";
      if (mshed_entry_is_model_name (e))
        return _("broken model");
      return "";
    }
  if (e->type_id == 2)
    return "header+slots";
  if (e->type_id == 10)
    return "names";
  table = mshed_schema_table_for_type (e->type_id);
  return table ? table->name : _("opaque");
}

/* Prints the directory: index, type, size, attributes, name, kind. */
static void
print_resources (GString         *out,
                 const MshedNres *nres,
                 gboolean         in_model,
                 gboolean         with_attrs,
                 guint           *n_models)
{
  guint n = mshed_nres_get_n_entries (nres);
  int w_type = 4, w_name = 4, w_size = 4, w_kind = 0;
  g_autoptr(GPtrArray) types = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) kinds = g_ptr_array_new ();
  char buf[32];

  if (n_models)
    *n_models = 0;
  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      char *type = mshed_cli_type_name (e->type_id);
      char *name = mshed_nres_entry_dup_name (e);
      const char *kind = resource_kind (e, in_model);

      g_ptr_array_add (types, type);
      g_ptr_array_add (names, name);
      g_ptr_array_add (kinds, (gpointer) kind);
      if (n_models && strcmp (kind, "model") == 0)
        (*n_models)++;
      w_type = MAX (w_type, mshed_cli_text_width (type));
      w_name = MAX (w_name, mshed_cli_text_width (name));
      w_kind = MAX (w_kind, mshed_cli_text_width (kind));
      g_snprintf (buf, sizeof buf, "%zu", mshed_nres_entry_get_size (e));
      w_size = MAX (w_size, (int) strlen (buf));
    }

  mshed_cli_pad (out, "#", 4, TRUE);
  g_string_append (out, "  ");
  mshed_cli_pad (out, "type", w_type, FALSE);
  g_string_append (out, "  ");
  mshed_cli_pad (out, "size", w_size, TRUE);
  if (with_attrs)
    g_string_append_printf (out, "  %10s  %10s  %10s", "attr1", "attr2", "attr3");
  g_string_append (out, "  ");
  mshed_cli_pad (out, "name", w_name, FALSE);
  if (w_kind)
    g_string_append (out, "  kind");
  g_string_append_c (out, '\n');

  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);

      g_snprintf (buf, sizeof buf, "%u", i);
      mshed_cli_pad (out, buf, 4, TRUE);
      g_string_append (out, "  ");
      mshed_cli_pad (out, g_ptr_array_index (types, i), w_type, FALSE);
      g_string_append (out, "  ");
      g_snprintf (buf, sizeof buf, "%zu", mshed_nres_entry_get_size (e));
      mshed_cli_pad (out, buf, w_size, TRUE);
      if (with_attrs)
        g_string_append_printf (out, "  %10u  %10u  %10u", e->attr1, e->attr2, e->attr3);
      g_string_append (out, "  ");
      if (w_kind)
        {
          mshed_cli_pad (out, g_ptr_array_index (names, i), w_name, FALSE);
          g_string_append (out, "  ");
          g_string_append (out, g_ptr_array_index (kinds, i));
        }
      else
        g_string_append (out, g_ptr_array_index (names, i));
      /* no trailing blanks */
      while (out->len && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
}

/* info ----------------------------------------------------------------------------------- */

static void
print_total (GString    *out,
             const char *label,
             guint64     value)
{
  g_string_append (out, "  ");
  mshed_cli_pad (out, label, 22, FALSE);
  g_string_append_printf (out, "%" PRIu64 "\n", value);
}

static void
print_model_totals (GString          *out,
                    const MshedModel *model)
{
  const MshedNresEntry *r1 = mshed_model_get_resource (model, 1);
  guint n_nodes = mshed_model_has_node_records (model)
                    ? mshed_model_get_n_rows (model, MSHED_TABLE_NODES)
                    : (r1 ? r1->attr1 : 0);
  guint n_named = 0;

  for (guint i = 0; i < mshed_model_get_n_rows (model, MSHED_TABLE_NAMES); i++)
    {
      const guint8 *text;
      guint32 len;

      if (mshed_model_get_name_raw (model, i, &text, &len) && len > 0)
        n_named++;
    }

  g_string_append (out, _("Totals:\n"));
  print_total (out, _("nodes"), n_nodes);
  print_total (out, _("named nodes"), n_named);
  print_total (out, _("slots"), mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS));
  print_total (out, _("batches"), mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES));
  print_total (out, _("triangles"), mshed_cli_triangle_count (model));
  print_total (out, _("triangle descriptors"), mshed_model_get_n_rows (model, MSHED_TABLE_TRIS));
  print_total (out, _("vertices"), mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS));
  print_total (out, _("indices"), mshed_model_get_n_rows (model, MSHED_TABLE_INDICES));
  print_total (out, _("animation keys"), mshed_model_get_n_rows (model, MSHED_TABLE_KEYS));
  print_total (out, _("frame map words"), mshed_model_get_n_rows (model, MSHED_TABLE_MAP));
  print_total (out, _("frames"), mshed_model_get_frame_count (model));
}

/* "Res2, Res13": the required resources (docs/msh.md §2) the model lacks. */
static GString *
missing_types (const MshedModel *model)
{
  static const guint32 required[] = { 1, 2, 3, 6, 13 };
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (mshed_model_get_resource (model, required[i]) == NULL)
      g_string_append_printf (s, "%sRes%u", s->len ? ", " : "", required[i]);
  return s;
}

/* Node names and the hierarchy, one line per node (the first 100). */
static void
print_nodes (GString          *out,
             const MshedModel *model)
{
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NAMES);
  guint shown = MIN (n, 100);

  if (n == 0)
    return;
  g_string_append (out, _("Nodes:\n"));
  for (guint i = 0; i < shown; i++)
    {
      g_autofree char *name = mshed_model_dup_name (model, i);
      MshedNode node;

      g_string_append_printf (out, "  %4u  ", i);
      if (mshed_model_get_node (model, i, &node))
        {
          if (node.hdr1 == MSHED_NONE)
            g_string_append (out, _("root       "));
          else
            g_string_append_printf (out, _("parent %-4u"), node.hdr1);
          g_string_append (out, node.hdr2 == MSHED_NONE ? _("  static    ") : _("  animated  "));
        }
      g_string_append (out, name ? name : _("(no name)"));
      g_string_append_c (out, '\n');
    }
  if (shown < n)
    g_string_append_printf (out, _("  … %u more (mshed-cli dump FILE --table names)\n"),
                            n - shown);
}

int
mshed_cli_info (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(MshedSource) source = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  MshedNres *nres;
  guint n_models = 0;
  gsize size;
  int status;

  context = mshed_cli_context_new ("FILE", _("Show a model's or archive's resources, "
                                             "attributes, counts and totals, or a UTF file's "
                                             "layout and tree. The file is read in tolerant "
                                             "mode, so a broken model is still shown."), NULL);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 2)
    {
      mshed_cli_error (_("expected exactly one FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }

  if (mshed_cli_is_utf_file (argv[1]))
    return mshed_cli_utf_info (argv[1]);
  source = mshed_cli_open (argv[1], MSHED_MODE_TOLERANT, diags, &status);
  if (source == NULL)
    return status;

  nres = source->model ? mshed_model_get_nres (source->model) : source->file_nres;
  size = g_bytes_get_size (mshed_nres_get_source (nres));

  g_string_append_printf (out, _("File:        %s\n"), source->path);
  if (source->entry)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (source->file_nres,
                                                      (guint) source->entry_index);

      g_string_append_printf (out, _("Entry:       %s (entry %d of the archive, at offset "
                                     "%u)\n"), source->entry, source->entry_index,
                              e->data_offset);
    }
  g_string_append_printf (out, _("Size:        %zu bytes\n"), size);
  g_string_append_printf (out, _("Container:   NRes version 0x%X, %u entries, %s\n"),
                          mshed_nres_get_version (nres), mshed_nres_get_n_entries (nres),
                          mshed_nres_is_canonical (nres)
                            ? _("canonical layout")
                            : _("not in the canonical layout (written back as it is)"));
  if (source->model)
    {
      guint stride = mshed_model_get_node_stride (source->model);
      g_autoptr(GString) missing = missing_types (source->model);

      if (mshed_model_get_resource (source->model, 1) == NULL)
        g_string_append (out, _("Kind:        model without a node table\n"));
      else if (stride == 38)
        g_string_append (out, _("Kind:        model, 38-byte node records\n"));
      else if (stride == 24)
        g_string_append (out, _("Kind:        model, legacy 24-byte node records\n"));
      else
        g_string_append_printf (out, _("Kind:        model, node records of %u bytes\n"),
                                stride);
      if (missing->len > 0)
        g_string_append_printf (out, _("Missing:     %s (a model needs the types 1, 2, 3, 6 "
                                       "and 13)\n"), missing->str);
      g_string_append (out, _("Resources:\n"));
      print_resources (out, nres, TRUE, TRUE, NULL);
      print_model_totals (out, source->model);
      print_nodes (out, source->model);
    }
  else
    {
      g_autoptr(GString) table = g_string_new (NULL);

      print_resources (table, nres, FALSE, TRUE, &n_models);
      g_string_append_printf (out, _("Kind:        archive, %u nested models\n"), n_models);
      g_string_append (out, _("Entries:\n"));
      g_string_append (out, table->str);
    }

  if (diags->n_errors || diags->n_warnings)
    g_string_append_printf (out, _("Validation:  %u errors, %u warnings (tolerant mode; run "
                                   "“mshed-cli validate %s” for the list)\n"),
                            diags->n_errors, diags->n_warnings, argv[1]);
  else
    g_string_append (out, _("Validation:  no errors or warnings (tolerant mode)\n"));
  mshed_cli_flush (out, TRUE);
  return MSHED_CLI_EXIT_OK;
}

/* ls ------------------------------------------------------------------------------------- */

int
mshed_cli_ls (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(MshedSource) source = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean long_format = FALSE;
  GOptionEntry entries[] = {
    { "long", 'l', 0, G_OPTION_ARG_NONE, &long_format, N_("Also show attr1, attr2, attr3"),
      NULL },
    { NULL }
  };
  int status;

  context = mshed_cli_context_new ("ARCHIVE", _("List the entries of an archive (or the "
                                                "resources of a model): index, type, size, "
                                                "name, and “model” for nested models; or the "
                                                "nodes of a UTF file with size, name CRC and "
                                                "path."),
                                   entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 2)
    {
      mshed_cli_error (_("expected exactly one ARCHIVE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (mshed_cli_is_utf_file (argv[1]))
    return mshed_cli_utf_ls (argv[1], long_format);
  source = mshed_cli_open (argv[1], MSHED_MODE_TOLERANT, NULL, &status);
  if (source == NULL)
    return status;
  if (source->model)
    print_resources (out, mshed_model_get_nres (source->model), TRUE, long_format, NULL);
  else
    print_resources (out, source->file_nres, FALSE, long_format, NULL);
  mshed_cli_flush (out, TRUE);
  return MSHED_CLI_EXIT_OK;
}

/* extract -------------------------------------------------------------------------------- */

/* An entry by name, or by directory index written as #N. */
static gint
find_entry (const MshedNres *nres,
            const char      *name)
{
  gint index = mshed_nres_lookup_name (nres, name);
  guint64 number;

  if (index >= 0 || name[0] != '#')
    return index;
  if (!g_ascii_string_to_unsigned (name + 1, 10, 0, G_MAXINT, &number, NULL) ||
      number >= mshed_nres_get_n_entries (nres))
    return -1;
  return (gint) number;
}

int
mshed_cli_extract (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *output = NULL;
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;
  const guint8 *data;
  const char *colon;
  gsize size;
  gint index;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the payload to FILE (“-” for standard output)"), "FILE" },
    { NULL }
  };

  context = mshed_cli_context_new ("ARCHIVE ENTRY | ARCHIVE:ENTRY",
                                   _("Write the payload of one archive entry, unchanged, to a "
                                     "file. ENTRY is the entry name (case-insensitive) or #N "
                                     "for directory index N. The file is replaced "
                                     "atomically."), entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (output == NULL)
    {
      mshed_cli_error (_("name the output file with -o FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (argc == 3)
    {
      path = g_strdup (argv[1]);
      entry = g_strdup (argv[2]);
    }
  else if (argc == 2 && !mshed_split_spec (argv[1], &path, &entry) &&
           (colon = strrchr (argv[1], ':')) != NULL && colon > argv[1] && colon[1] != '\0' &&
           !g_file_test (argv[1], G_FILE_TEST_EXISTS))
    {
      /* ARCHIVE:ENTRY whose ARCHIVE cannot be used: reading it says why */
      g_free (path);
      path = g_strndup (argv[1], (gsize) (colon - argv[1]));
      entry = g_strdup (colon + 1);
    }
  if (argc < 2 || argc > 3 || entry == NULL)
    {
      mshed_cli_error (_("expected ARCHIVE ENTRY or ARCHIVE:ENTRY"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_check_output (output))
    return MSHED_CLI_EXIT_PROBLEMS;
  if (mshed_cli_is_utf_file (path))
    return mshed_cli_utf_extract (path, entry, output);

  file = mshed_load_file (path, &error);
  if (file == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  nres = mshed_nres_parse (file, MSHED_MODE_TOLERANT, NULL, &error);
  if (nres == NULL)
    {
      mshed_cli_error ("%s: %s", path, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  index = find_entry (nres, entry);
  if (index < 0)
    {
      mshed_cli_error (_("%s: the archive has no entry named “%s” (see “mshed-cli ls %s”)"),
                       path, entry, path);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  payload = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (nres, (guint) index));
  data = g_bytes_get_data (payload, &size);

  if (strcmp (output, "-") == 0)
    {
      if (size && fwrite (data, 1, size, stdout) != size)
        {
          mshed_cli_error (_("cannot write to standard output"));
          return MSHED_CLI_EXIT_PROBLEMS;
        }
      fflush (stdout);
      return MSHED_CLI_EXIT_OK;
    }
  if (!g_file_set_contents (output, (const char *) data, (gssize) size, &error))
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  printf (_("%s: wrote %zu bytes of entry %d\n"), output, size, index);
  return MSHED_CLI_EXIT_OK;
}

/* roundtrip ------------------------------------------------------------------------------ */

/* 0: identical, 1: different, 2: unreadable; prints one line. */
static int
roundtrip_one (GString                  *out,
               const char               *spec,
               const MshedReencodeFault *fault)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *where = NULL;
  const guint8 *a, *b;
  gsize len_a, len_b, common, at;

  mshed_split_spec (spec, &path, &entry);
  file = mshed_load_file (path, &error);
  if (file == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  if (entry != NULL)
    {
      g_autoptr(MshedNres) outer = mshed_nres_parse (file, MSHED_MODE_TOLERANT, NULL, &error);
      gint index;

      if (outer == NULL)
        {
          mshed_cli_error ("%s: %s", path, error->message);
          return MSHED_CLI_EXIT_PROBLEMS;
        }
      index = find_entry (outer, entry);
      if (index < 0)
        {
          mshed_cli_error (_("%s: the archive has no entry named “%s”"), path, entry);
          return MSHED_CLI_EXIT_PROBLEMS;
        }
      original = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (outer, (guint) index));
    }
  else
    original = g_bytes_ref (file);

  written = mshed_reencode_bytes (original, entry != NULL, fault, &error);
  if (written == NULL)
    {
      mshed_cli_error (_("%s: cannot decode: %s"), spec, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }

  a = g_bytes_get_data (original, &len_a);
  b = g_bytes_get_data (written, &len_b);
  common = MIN (len_a, len_b);
  at = 0;
  if (common > 0 && memcmp (a, b, common) == 0)
    at = common;
  else
    while (at < common && a[at] == b[at])
      at++;
  if (at == common && len_a == len_b)
    {
      g_string_append_printf (out, _("%s: OK, %zu bytes identical\n"), spec,
                              len_a);
      return MSHED_CLI_EXIT_OK;
    }
  where = mshed_reencode_locate (original, entry != NULL, at);
  if (where == NULL)
    where = g_strdup (_("past the end of the file"));
  if (at < common)
    g_string_append_printf (out, _("%s: DIFFERS at offset %zu (0x%zX) in %s: read 0x%02X, "
                                   "wrote 0x%02X; sizes %zu and %zu\n"),
                            spec, at, at, where, a[at], b[at], len_a, len_b);
  else
    g_string_append_printf (out, _("%s: DIFFERS at offset %zu (0x%zX), %s: read %zu bytes, "
                                   "wrote %zu\n"),
                            spec, at, at, where, len_a, len_b);
  return MSHED_CLI_EXIT_PROBLEMS;
}

int
mshed_cli_roundtrip (int    argc,
                     char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  MshedReencodeFault fault = { MSHED_TABLE_NONE, 0, NULL };
  const char *plant = g_getenv ("MSHED_TEST_ROUNDTRIP_FAULT");
  int status = MSHED_CLI_EXIT_OK;

  context = mshed_cli_context_new ("FILE…", _("Decode each file (the container, the model and "
                                              "every nested model of an archive) down to the "
                                              "fields of every record, encode the fields into "
                                              "fresh bytes, write the file again and compare. "
                                              "Reports the first differing offset and the "
                                              "table, record and field it belongs to."), NULL);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc < 2)
    {
      mshed_cli_error (_("expected at least one FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  /* tests plant an encoder bug (TABLE[ROW].FIELD) to see that the comparison catches it */
  if (plant != NULL && !mshed_reencode_fault_parse (plant, &fault, &error))
    {
      mshed_cli_error ("MSHED_TEST_ROUNDTRIP_FAULT: %s", error->message);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  for (int i = 1; i < argc; i++)
    {
      int one = mshed_cli_is_utf_file (argv[i]) ? mshed_cli_utf_roundtrip_one (out, argv[i])
                                                : roundtrip_one (out, argv[i], &fault);

      mshed_cli_flush (out, TRUE);
      status = MAX (status, one);
    }
  return status;
}
