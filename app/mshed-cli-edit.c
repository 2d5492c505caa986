/* mshed-cli-edit.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli edit: scriptable edits through the same document commands as the editor.
 *
 *   mshed-cli edit FILE[:ENTRY] [--set TABLE[ROW].FIELD=VALUE]… [--set-bytes PATH=HEX]…
 *                  [--rename-node N=NAME]… [--rename PATH=NAME]… [--recompute WHAT]…
 *                  [--all-rows] [--tolerant] [--save-anyway] [--no-backup] [--repack]
 *                  [--dry-run] [-o OUT]
 *
 * FILE is a Parkan model (NRes) or a Freelancer UTF file; a deformable model (.dfm) has typed
 * tables for --set and derived data for --recompute (mshed-cli-edit-dfm.c).
 * The --set edits run first (in command-line order), then --set-bytes, then the renames, then
 * the recomputes.
 * Without -o the file is replaced atomically, keeping FILE.bak the first time. The file keeps
 * its layout (unreferenced bytes, offsets of untouched entries) unless --repack, which warns
 * about every block it drops.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-cp1251.h"
#include "mshed-document.h"
#include "mshed-error.h"
#include "mshed-schema.h"

typedef MshedCliEdit Edit;

/* The kinds of file --recompute names apply to. */
enum {
  FOR_MSH = 1 << 0,
  FOR_DFM = 1 << 1,
  FOR_BOTH = FOR_MSH | FOR_DFM,
};

/* What --recompute accepts. The format determines the first group of each format: recomputed
 * over every row, an unmodified model stays unchanged. The second group follows conventions
 * of mshed's (docs/conventions.md): only the rows the edits made stale, or every row with
 * --all-rows. all, stale and conventions mean the targets of the file's own format. */
static const struct {
  const char  *name;
  MshedDerived what;
  guint        formats;
} recompute_names[] = {
  { "slot-boxes", MSHED_DERIVED_SLOT_BOX, FOR_MSH },
  { "attrs", MSHED_DERIVED_ATTRIBUTES, FOR_MSH },
  { "anim-map", MSHED_DERIVED_ANIMATION_MAP, FOR_MSH },
  { "group-count", MSHED_DERIVED_DFM_GROUP_COUNT, FOR_DFM },
  { "uv-vertex-count", MSHED_DERIVED_DFM_UV_VERTEX_COUNT, FOR_DFM },
  { "part-index", MSHED_DERIVED_DFM_PART_INDEX, FOR_DFM },
  { "material-count", MSHED_DERIVED_DFM_MATERIAL_COUNT, FOR_DFM },
  { "lod-bits", MSHED_DERIVED_DFM_LOD_BITS, FOR_DFM },
  { "all", MSHED_DERIVED_DETERMINED, FOR_BOTH },
  { "stale", MSHED_DERIVED_NONE, FOR_BOTH },
  { "slot-spheres", MSHED_DERIVED_SLOT_SPHERE, FOR_MSH },
  { "header", MSHED_DERIVED_HEADER_BOUNDS, FOR_MSH },
  { "normals", MSHED_DERIVED_TRI_NORMALS, FOR_MSH },
  { "links", MSHED_DERIVED_TRI_LINKS, FOR_MSH },
  { "vertex-normals", MSHED_DERIVED_VERTEX_NORMALS, FOR_MSH },
  { "fractions", MSHED_DERIVED_DFM_FRACTIONS, FOR_DFM },
  { "dfm-vertex-normals", MSHED_DERIVED_DFM_VERTEX_NORMALS, FOR_DFM },
  { "bone-to-root", MSHED_DERIVED_DFM_BONE_TO_ROOT, FOR_DFM },
  { "conventions", MSHED_DERIVED_CONVENTION & ~(MSHED_DERIVED_VERTEX_NORMALS |
                                                 MSHED_DERIVED_DFM_VERTEX_NORMALS), FOR_BOTH },
};

/* The --recompute names of @formats, comma-separated. */
static char *
recompute_names_for (guint formats)
{
  GString *names = g_string_new (NULL);

  for (guint k = 0; k < G_N_ELEMENTS (recompute_names); k++)
    if (recompute_names[k].formats & formats)
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", recompute_names[k].name);
  return g_string_free (names, FALSE);
}

/* The derived data of @name for the file's format; FALSE (usage) for a name of the other
 * format or a file without derived data. */
static gboolean
parse_recompute (Edit         *edit,
                 const char   *name,
                 MshedDerived *what,
                 GError      **error)
{
  guint format = mshed_document_get_model (edit->doc) != NULL ? FOR_MSH
               : mshed_document_get_dfm (edit->doc) != NULL ? FOR_DFM : 0;
  gint found = -1;

  for (guint k = 0; k < G_N_ELEMENTS (recompute_names); k++)
    if (g_ascii_strcasecmp (name, recompute_names[k].name) == 0)
      found = (gint) k;
  if (found < 0)
    {
      g_autofree char *msh = recompute_names_for (FOR_MSH);
      g_autofree char *dfm = recompute_names_for (FOR_DFM);

      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   _("--recompute %s: expected, for a Parkan model, %s; for a deformable "
                     "model, %s"), name, msh, dfm);
      return FALSE;
    }
  if (format == 0)
    {
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   _("--recompute %s: %s is a UTF file but not a deformable model; nothing in "
                     "it is derived data"), name, mshed_document_get_path (edit->doc));
      return FALSE;
    }
  if (!(recompute_names[found].formats & format))
    {
      g_autofree char *names = recompute_names_for (format);

      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   format == FOR_DFM
                     ? _("--recompute %s applies to Parkan models (.msh); %s is a deformable "
                         "model, which takes %s")
                     : _("--recompute %s applies to deformable models (.dfm); %s is a Parkan "
                         "model, which takes %s"), name, mshed_document_get_path (edit->doc),
                   names);
      return FALSE;
    }
  *what = recompute_names[found].what & (format == FOR_DFM ? MSHED_DERIVED_DFM
                                                            : MSHED_DERIVED_MSH);
  return TRUE;
}

/* What no model could accept is bad usage: a table without fields to set, an unknown field,
 * a value the field's type cannot hold. Whether the row exists is the model's business. */
static gboolean
check_set_value (const char           *spec,
                 const MshedTableInfo *table,
                 const char           *field,
                 const char           *value,
                 GError              **error)
{
  static const char *const dir_settable[] = { "type", "attr1", "attr2", "attr3", NULL };
  g_autoptr(GError) local = NULL;
  const MshedField *f;
  double parsed;

  if (table->id == MSHED_TABLE_NAMES)
    {
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   _("--set %s: node names are set with --rename-node NODE=NAME"), spec);
      return FALSE;
    }
  f = mshed_schema_find_field (table, field);
  if (f == NULL)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < table->n_fields; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "", table->fields[i].name);
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   _("--set %s: table %s has no field “%s” (fields: %s)"), spec, table->name,
                   field, names->str);
      return FALSE;
    }
  if (table->id == MSHED_TABLE_DIRECTORY && !g_strv_contains (dir_settable, f->name))
    {
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   _("--set %s: the writer computes dir.%s; only type, attr1, attr2 and attr3 "
                     "can be set"), spec, f->name);
      return FALSE;
    }
  if (!mshed_field_parse (f, value, &parsed, &local))
    {
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE, "--set %s: %s", spec,
                   local->message);
      return FALSE;
    }
  return TRUE;
}

/* TABLE[ROW].FIELD=VALUE, or TABLE.FIELD=VALUE for one-row tables (header) */
static gboolean
parse_set (const char           *spec,
           const MshedTableInfo **table,
           guint                *row,
           char                **field,
           char                **value,
           GError              **error)
{
  const char *eq = strchr (spec, '=');
  const char *dot, *bracket;
  g_autofree char *lhs = NULL;
  g_autofree char *tname = NULL;

  if (eq == NULL)
    goto syntax;
  lhs = g_strndup (spec, (gsize) (eq - spec));
  dot = strrchr (lhs, '.');
  if (dot == NULL || dot[1] == '\0')
    goto syntax;
  bracket = strchr (lhs, '[');
  if (bracket != NULL && bracket < dot)
    {
      char *end = NULL;
      guint64 r;

      tname = g_strndup (lhs, (gsize) (bracket - lhs));
      r = g_ascii_strtoull (bracket + 1, &end, 10);
      if (end == bracket + 1 || end == NULL || *end != ']' || end + 1 != dot || r > G_MAXUINT)
        goto syntax;
      *row = (guint) r;
    }
  else
    {
      tname = g_strndup (lhs, (gsize) (dot - lhs));
      *row = 0;
    }
  *table = mshed_schema_find_table (tname);
  if (*table == NULL)
    {
      GString *names = g_string_new (NULL);

      for (guint i = 0; i < MSHED_N_TABLES; i++)
        if (i != MSHED_TABLE_NAMES)
          g_string_append_printf (names, "%s%s", names->len ? ", " : "",
                                  mshed_schema_get_table (i)->name);
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   _("--set %s: there is no table “%s” (tables: %s)"), spec, tname, names->str);
      g_string_free (names, TRUE);
      return FALSE;
    }
  if (bracket == NULL && (*table)->id != MSHED_TABLE_HEADER)
    goto syntax;
  *field = g_strdup (dot + 1);
  *value = g_strdup (eq + 1);
  return check_set_value (spec, *table, *field, *value, error);

syntax:
  g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
               _("--set %s: expected TABLE[ROW].FIELD=VALUE, e.g. slots[3].batchCount=2"),
               spec);
  return FALSE;
}

static char *
format_cell (MshedDocument        *doc,
             const MshedTableInfo *table,
             guint                 row,
             const char           *field)
{
  MshedModel *model = mshed_document_get_model (doc);
  const MshedField *f = mshed_schema_find_field (table, field);

  if (f == NULL)
    return g_strdup ("?");
  if (table->id == MSHED_TABLE_DIRECTORY)
    {
      MshedNres *nres = mshed_model_get_nres (model);
      const MshedNresEntry *e;
      guint32 v = 0;

      if (row >= mshed_nres_get_n_entries (nres))
        return g_strdup ("?");
      e = mshed_nres_peek_entry (nres, row);
      if (strcmp (f->name, "type") == 0)
        v = e->type_id;
      else if (strcmp (f->name, "attr1") == 0)
        v = e->attr1;
      else if (strcmp (f->name, "attr2") == 0)
        v = e->attr2;
      else if (strcmp (f->name, "attr3") == 0)
        v = e->attr3;
      return g_strdup_printf ("%u", v);
    }
  if (mshed_model_get_record (model, table->id, row) == NULL)
    return g_strdup ("?");
  return mshed_field_format (f, mshed_model_get_record (model, table->id, row));
}

static void
on_changed (MshedDocument     *doc,
            const MshedChange *change,
            Edit              *edit)
{
  const char *table;

  if (!edit->report_changes)
    return;
  if (mshed_document_get_utf (doc) != NULL)
    {
      mshed_cli_edit_utf_changed (edit, change);
      return;
    }
  if (change->table == MSHED_TABLE_NONE)
    return;
  table = mshed_schema_get_table (change->table)->name;
  if (change->n_added == 1 && change->n_removed == 1)
    g_string_append_printf (edit->out, "    %s[%u]\n", table, change->first_row);
  else if (change->n_added == change->n_removed)
    g_string_append_printf (edit->out, "    %s[%u..%u]\n", table, change->first_row,
                            change->first_row + change->n_added - 1);
  else
    g_string_append_printf (edit->out, "    %s: %u rows at %u replaced by %u\n", table,
                            change->n_removed, change->first_row, change->n_added);
}

static gboolean
parse_rename (const char  *spec,
              guint       *node,
              const char **name,
              GError     **error)
{
  const char *eq = strchr (spec, '=');
  char *end = NULL;
  guint64 n;
  g_autoptr(GBytes) encoded = NULL;
  g_autoptr(GError) local = NULL;

  n = g_ascii_strtoull (spec, &end, 10);
  if (eq == NULL || end == spec || end != eq || n > G_MAXUINT)
    {
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                   _("--rename-node %s: expected NODE=NAME, e.g. 4=turret"), spec);
      return FALSE;
    }
  *node = (guint) n;
  *name = eq + 1;
  /* a name with no Windows-1251 form fits no model */
  encoded = mshed_utf8_to_cp1251 (*name, &local);
  if (encoded == NULL)
    {
      g_set_error (error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE, "--rename-node %s: %s", spec,
                   local->message);
      return FALSE;
    }
  return TRUE;
}

/* One --set on a Parkan model. */
static gboolean
msh_set (Edit       *edit,
         const char *spec,
         GError    **error)
{
  const MshedTableInfo *table;
  g_autofree char *field = NULL;
  g_autofree char *value = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  guint row;

  if (!parse_set (spec, &table, &row, &field, &value, error))
    return FALSE;
  before = format_cell (edit->doc, table, row, field);
  if (!mshed_document_set_field_text (edit->doc, table->id, row, field, value, error))
    return FALSE;
  after = format_cell (edit->doc, table, row, field);
  if (table->id == MSHED_TABLE_HEADER)
    g_string_append_printf (edit->out, "%s.%s: ", table->name, field);
  else
    g_string_append_printf (edit->out, "%s[%u].%s: ", table->name, row, field);
  if (g_strcmp0 (before, after) == 0)
    g_string_append_printf (edit->out, _("%s (unchanged)\n"), after);
  else
    g_string_append_printf (edit->out, "%s → %s\n", before, after);
  return TRUE;
}

/* One --rename-node on a Parkan model. */
static gboolean
msh_rename (Edit       *edit,
            const char *spec,
            GError    **error)
{
  MshedModel *model = mshed_document_get_model (edit->doc);
  g_autofree char *old = NULL;
  g_autofree char *now = NULL;
  const char *name;
  guint node;

  if (!parse_rename (spec, &node, &name, error))
    return FALSE;
  old = mshed_model_dup_name (model, node);
  if (!mshed_document_rename_node (edit->doc, node, name, error))
    return FALSE;
  now = mshed_model_dup_name (model, node);
  g_string_append_printf (edit->out, _("node %u name: “%s” → “%s”\n"), node, old ? old : "",
                          now ? now : "");
  return TRUE;
}

/* The stale rows of @target (sorted, or NULL with @whole set); FALSE when nothing is stale. */
static gboolean
stale_rows (MshedDocument *doc,
            MshedDerived   target,
            GArray        *rows,
            gboolean      *whole)
{
  g_autoptr(GPtrArray) stale = mshed_document_list_stale (doc);
  gboolean any = FALSE;

  *whole = FALSE;
  for (guint i = 0; i < stale->len; i++)
    {
      const MshedStale *s = g_ptr_array_index (stale, i);

      if (s->target != target)
        continue;
      any = TRUE;
      if (s->n_rows == 0)
        *whole = TRUE;
      else
        g_array_append_vals (rows, s->rows, s->n_rows);
    }
  return any;
}

/* One target of --recompute; FALSE (with @error) when it cannot be recomputed here. */
static gboolean
recompute_one (Edit         *edit,
               MshedDerived  target,
               gboolean      all_rows,
               GError      **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean whole = FALSE;
  gsize len;

  if (mshed_derived_is_convention (target))
    {
      if (all_rows)
        g_string_append_printf (edit->out,
                                _("  %s (mshed convention, every row; values no edit touched "
                                  "may change too):\n"), mshed_derived_get_label (target));
      else if (!stale_rows (edit->doc, target, rows, &whole))
        {
          g_string_append_printf (edit->out,
                                  _("  %s (mshed convention): nothing stale, nothing changed "
                                    "(--all-rows applies it to every row)\n"),
                                  mshed_derived_get_label (target));
          return TRUE;
        }
      else
        g_string_append_printf (edit->out, _("  %s (mshed convention, the stale rows only):\n"),
                                mshed_derived_get_label (target));
    }
  else
    g_string_append_printf (edit->out, _("  %s (determined by the format):\n"),
                            mshed_derived_get_label (target));

  len = edit->out->len;
  edit->report_changes = TRUE;
  if (!mshed_document_recompute (edit->doc, target,
                                 all_rows || whole || rows->len == 0
                                   ? NULL : (const guint *) (gpointer) rows->data,
                                 all_rows || whole ? 0 : rows->len, error))
    {
      edit->report_changes = FALSE;
      return FALSE;
    }
  edit->report_changes = FALSE;
  if (edit->out->len == len)
    g_string_append (edit->out, _("    nothing changed\n"));
  return TRUE;
}

static void
print_stale (Edit *edit)
{
  g_autoptr(GPtrArray) stale = mshed_document_list_stale (edit->doc);

  for (guint i = 0; i < stale->len; i++)
    {
      const MshedStale *s = g_ptr_array_index (stale, i);
      g_autoptr(GString) rows = g_string_new (NULL);
      const char *table;

      if (mshed_document_get_utf (edit->doc) != NULL)
        {
          table = mshed_dfm_schema_get_table ((MshedDfmTable) s->table)->name;
          mshed_cli_edit_dfm_stale_rows (edit, s, rows);
        }
      else
        {
          table = mshed_schema_get_table (s->table)->name;
          if (s->n_rows == 0)
            g_string_append (rows, _("all rows"));
          for (guint r = 0; r < s->n_rows && r < 8; r++)
            g_string_append_printf (rows, "%s%u", r ? ", " : "", s->rows[r]);
          if (s->n_rows > 8)
            g_string_append_printf (rows, _(" and %u more"), s->n_rows - 8);
        }
      g_string_append_printf (edit->out, _("  stale: %s (%s: %s) — %s%s\n"),
                              mshed_derived_get_label (s->target), table, rows->str,
                              s->reason ? s->reason : "",
                              s->optional ? _(" (optional)") : "");
    }
  if (stale->len > 0)
    g_string_append (edit->out, _("  (--recompute stale updates what the format determines; "
                                  "--recompute conventions applies mshed's conventions)\n"));
}

int
mshed_cli_edit (int    argc,
                char **argv)
{
  g_auto(GStrv) sets = NULL;
  g_auto(GStrv) set_bytes = NULL;
  g_auto(GStrv) renames = NULL;
  g_auto(GStrv) utf_renames = NULL;
  g_auto(GStrv) recomputes = NULL;
  g_autofree char *output = NULL;
  gboolean tolerant = FALSE, save_anyway = FALSE, no_backup = FALSE, dry_run = FALSE;
  gboolean all_rows = FALSE;
  gboolean saving = FALSE;
  gboolean repack = FALSE;
  GOptionEntry entries[] = {
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
      N_("Set a field: TABLE[ROW].FIELD=VALUE (repeatable); in a deformable model also "
         "\\Path[RECORD].FIELD=VALUE, and TABLE[ROW]=TEXT or \\Path=TEXT for a text"),
      "TABLE[ROW].FIELD=VALUE" },
    { "set-bytes", 0, 0, G_OPTION_ARG_STRING_ARRAY, &set_bytes,
      N_("UTF files: replace an entry's bytes, PATH=HEX, or overwrite some, PATH@OFFSET=HEX "
         "(repeatable)"), "PATH=HEX" },
    { "rename-node", 'n', 0, G_OPTION_ARG_STRING_ARRAY, &renames,
      N_("Rename a node (Windows-1251): NODE=NAME (repeatable)"), "NODE=NAME" },
    { "rename", 0, 0, G_OPTION_ARG_STRING_ARRAY, &utf_renames,
      N_("UTF files: rename an entry, PATH=NAME (repeatable)"), "PATH=NAME" },
    { "recompute", 'r', 0, G_OPTION_ARG_STRING_ARRAY, &recomputes,
      N_("Recompute derived data (repeatable): determined by the format: slot-boxes, attrs, "
         "anim-map, all (those three), stale (whatever of those the edits made stale); "
         "mshed conventions, the stale rows only: slot-spheres, header, normals, links, "
         "vertex-normals, conventions. For a deformable model: group-count, uv-vertex-count, "
         "part-index, material-count, lod-bits, all, stale; fractions, dfm-vertex-normals, "
         "bone-to-root, conventions"), "WHAT" },
    { "all-rows", 0, 0, G_OPTION_ARG_NONE, &all_rows,
      N_("Apply the --recompute conventions to every row, not only the stale ones"), NULL },
    { "tolerant", 0, 0, G_OPTION_ARG_NONE, &tolerant,
      N_("Open a model that fails strict validation"), NULL },
    { "save-anyway", 0, 0, G_OPTION_ARG_NONE, &save_anyway,
      N_("Write even when the result fails strict validation"), NULL },
    { "no-backup", 0, 0, G_OPTION_ARG_NONE, &no_backup,
      N_("Do not keep FILE.bak when overwriting"), NULL },
    { "repack", 0, 0, G_OPTION_ARG_NONE, &repack,
      N_("Rebuild the file in the canonical layout, dropping the bytes no entry references "
         "(each dropped block is named in a warning)"), NULL },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry_run,
      N_("Apply and report the edits, but write nothing"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the result to OUT instead of replacing FILE"), "OUT" },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    mshed_cli_context_new ("FILE[:ENTRY]",
                           _("Edit a model or a UTF file through the editor's commands. The "
                             "--set edits run first, then --set-bytes, then --rename-node or "
                             "--rename, then --recompute. Without -o the file is replaced "
                             "atomically and FILE.bak keeps the original."),
                           entries);
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  Edit edit = { 0 };
  MshedSaveFlags flags = MSHED_SAVE_FLAGS_NONE;
  int status = MSHED_CLI_EXIT_OK;
  gboolean utf;

  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 2)
    {
      mshed_cli_error (_("edit needs exactly one FILE (or ARCHIVE:ENTRY)"));
      return MSHED_CLI_EXIT_TROUBLE;
    }

  doc = mshed_document_open (argv[1], tolerant ? MSHED_MODE_TOLERANT : MSHED_MODE_STRICT, &error);
  if (doc == NULL)
    {
      mshed_cli_error ("%s", error->message);
      if (g_error_matches (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID))
        g_printerr (_("Use --tolerant to edit a model that fails strict validation.\n"));
      g_printerr (_("Nothing was written.\n"));
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  edit.doc = doc;
  edit.out = out;
  utf = mshed_document_get_utf (doc) != NULL;
  g_signal_connect (doc, "changed", G_CALLBACK (on_changed), &edit);

  /* --set, --set-bytes */
  for (guint i = 0; sets && sets[i]; i++)
    if (!(utf ? mshed_cli_edit_utf_set (&edit, sets[i], &error)
              : msh_set (&edit, sets[i], &error)))
      goto failed;
  for (guint i = 0; set_bytes && set_bytes[i]; i++)
    if (!utf)
      {
        g_set_error (&error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                     _("--set-bytes %s: %s is a Parkan model; --set-bytes edits UTF files "
                       "(.dfm, .cmp, …), a model's fields are set with --set "
                       "TABLE[ROW].FIELD=VALUE"), set_bytes[i], argv[1]);
        goto failed;
      }
    else if (!mshed_cli_edit_utf_set_bytes (&edit, set_bytes[i], &error))
      goto failed;

  /* --rename-node, --rename */
  for (guint i = 0; renames && renames[i]; i++)
    if (utf)
      {
        g_set_error (&error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                     _("--rename-node %s: %s is a UTF file, which has no numbered nodes; rename "
                       "its entries with --rename PATH=NAME"), renames[i], argv[1]);
        goto failed;
      }
    else if (!msh_rename (&edit, renames[i], &error))
      goto failed;
  for (guint i = 0; utf_renames && utf_renames[i]; i++)
    if (!utf)
      {
        g_set_error (&error, MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE,
                     _("--rename %s: %s is a Parkan model; --rename renames entries of UTF "
                       "files (.dfm, .cmp, …), a model's nodes are renamed with --rename-node "
                       "N=NAME"), utf_renames[i], argv[1]);
        goto failed;
      }
    else if (!mshed_cli_edit_utf_rename (&edit, utf_renames[i], &error))
      goto failed;

  /* --recompute */
  for (guint i = 0; recomputes && recomputes[i]; i++)
    {
      MshedDerived what;

      if (!parse_recompute (&edit, recomputes[i], &what, &error))
        goto failed;
      g_string_append_printf (out, _("recompute %s:\n"), recomputes[i]);
      if (what == MSHED_DERIVED_NONE)
        {
          /* "stale": exactly what the Stale Data panel's Recompute All does */
          gsize len = out->len;
          g_autoptr(GError) local = NULL;

          edit.report_changes = TRUE;
          if (!mshed_document_recompute_stale_all (doc, MSHED_DERIVED_DETERMINED &
                                                   (utf ? MSHED_DERIVED_DFM : MSHED_DERIVED_MSH),
                                                   &local))
            mshed_cli_error (_("warning: %s (left stale)"), local->message);
          edit.report_changes = FALSE;
          if (out->len == len)
            g_string_append (out, _("    nothing changed\n"));
          continue;
        }
      for (guint t = 0; t < MSHED_N_DERIVED; t++)
        {
          MshedDerived target = 1u << t;
          g_autoptr(GError) local = NULL;

          if (!(what & target))
            continue;
          if (recompute_one (&edit, target, all_rows, &local))
            continue;
          /* "all" and "conventions" go on without the one that does not apply here (a
           * frame map needs 38-byte node records) */
          if (mshed_derived_get_index (what) < 0)
            {
              mshed_cli_error (_("warning: %s: %s (skipped)"), mshed_derived_get_label (target),
                                 local->message);
              continue;
            }
          g_propagate_error (&error, g_steal_pointer (&local));
          goto failed;
        }
    }

  print_stale (&edit);
  {
    const MshedDiagnostics *d = mshed_document_get_diagnostics (doc);

    for (guint i = 0, shown = 0; i < d->items->len && shown < 10; i++)
      {
        const MshedDiagnostic *item = g_ptr_array_index (d->items, i);

        if (item->severity == MSHED_SEVERITY_ERROR)
          {
            g_autofree char *text = mshed_diagnostic_format (item);

            g_string_append_printf (out, "  %s\n", text);
            shown++;
          }
      }
  }

  if (no_backup)
    flags |= MSHED_SAVE_NO_BACKUP;
  if (save_anyway)
    flags |= MSHED_SAVE_ANYWAY;
  if (repack)
    {
      g_autoptr(GPtrArray) losses = mshed_document_list_repack_losses (doc);

      flags |= MSHED_SAVE_REPACK;
      fputs (out->str, stdout);
      g_string_truncate (out, 0);
      for (guint i = 0; i < losses->len; i++)
        mshed_cli_error (_("warning: repack: %s"), (const char *) g_ptr_array_index (losses, i));
      if (losses->len == 0)
        g_string_append (out, _("repack: no unreferenced bytes to drop\n"));
    }

  saving = TRUE;
  if (dry_run)
    g_string_append (out, _("dry run: nothing written\n"));
  else if (output != NULL)
    {
      if (!mshed_document_save_as (doc, output, flags, &error))
        goto failed;
      g_string_append_printf (out, _("wrote %s\n"), output);
    }
  else if (!mshed_document_get_modified (doc) && !repack)
    g_string_append_printf (out, _("nothing changed; %s left as it is\n"), argv[1]);
  else
    {
      if (!mshed_document_save (doc, flags, &error))
        goto failed;
      g_string_append_printf (out, _("saved %s\n"), mshed_document_get_path (doc));
    }
  fputs (out->str, stdout);
  return status;

failed:
  fputs (out->str, stdout);
  mshed_cli_error ("%s", error->message);
  if (saving && g_error_matches (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID))
    g_printerr (_("Use --save-anyway to write a model that fails strict validation.\n"));
  g_printerr (_("Nothing was written.\n"));
  return mshed_cli_exit_status (error, MSHED_CLI_STEP_WORK);
}
