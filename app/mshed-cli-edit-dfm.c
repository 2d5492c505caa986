/* mshed-cli-edit-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli edit on Freelancer UTF files (docs/utf.md, docs/dfm.md), through the same document
 * commands as the editor: --set of a DFM table cell or string payload, by table row (the rows
 * `dump --table` prints) or by node path; --set-bytes of any leaf; --rename of any entry; and
 * the UTF side of the change report and of the stale list.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-cp1251.h"
#include "mshed-dfm.h"
#include "mshed-error.h"

static MshedUtf *
edit_utf (MshedCliEdit *edit)
{
  return mshed_document_get_utf (edit->doc);
}

/* @path of the file, or NULL with an error that names @option and @spec. */
static MshedUtfNode *
find_entry (MshedCliEdit *edit,
            const char   *option,
            const char   *spec,
            const char   *path,
            GError      **error)
{
  MshedUtfNode *node = mshed_cli_utf_find_node (edit_utf (edit), path);

  if (node == NULL)
    g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                 _("%s %s: %s has no entry %s (mshed-cli ls lists them)"), option, spec,
                 mshed_document_get_path (edit->doc), path);
  return node;
}

/* One cell (or string payload) that --set addresses. */
typedef struct {
  const MshedDfmTableInfo *info;
  MshedUtfNode            *node;
  guint                    record;
  guint64                  row;      /* the table row; G_MAXUINT64 when given as a path */
  char                    *field;    /* NULL for a string payload */
  const MshedField        *number;   /* the numeric field, else NULL */
  const MshedDfmTextField *text;     /* the text field of a fixed record, else NULL */
} Cell;

static void
cell_clear (Cell *cell)
{
  g_free (cell->field);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Cell, cell_clear)

static gboolean
usage (GError    **error,
       const char *format,
       ...) G_GNUC_PRINTF (2, 3);

static gboolean
usage (GError    **error,
       const char *format,
       ...)
{
  va_list ap;

  va_start (ap, format);
  g_propagate_error (error, g_error_new_valist (MSHED_CLI_ERROR, MSHED_CLI_ERROR_USAGE, format,
                                                ap));
  va_end (ap);
  return FALSE;
}

/* The names --set takes for @info's records: its text fields, then its numeric fields. */
static char *
field_names (const MshedDfmTableInfo *info)
{
  GString *names = g_string_new (NULL);

  for (guint t = 0; t < info->n_texts; t++)
    g_string_append_printf (names, "%s%s", names->len ? ", " : "", info->texts[t].name);
  for (guint f = 0; f < info->n_fields; f++)
    g_string_append_printf (names, "%s%s", names->len ? ", " : "", info->fields[f].name);
  return g_string_free (names, FALSE);
}

/* What no file could accept: a field the table lacks, a value the field cannot hold, a text
 * with no Windows-1251 form. The row's existence is the file's business. */
static gboolean
check_cell (const char *spec,
            Cell       *cell,
            const char *value,
            GError    **error)
{
  const MshedDfmTableInfo *info = cell->info;
  g_autoptr(GError) local = NULL;
  g_autoptr(GBytes) encoded = NULL;
  double parsed;

  if (info->stride == 0)
    {
      if (cell->field != NULL && strcmp (cell->field, "value") != 0 &&
          strcmp (cell->field, "text") != 0)
        return usage (error, _("--set %s: %s holds one text; set it with %s[ROW]=TEXT"), spec,
                      info->name, info->name);
      g_clear_pointer (&cell->field, g_free);
    }
  else if (cell->field == NULL)
    {
      g_autofree char *names = field_names (info);

      return usage (error, _("--set %s: name a field of %s: TABLE[ROW].FIELD=VALUE (fields: "
                             "%s)"), spec, info->name, names);
    }
  else
    {
      for (guint t = 0; t < info->n_texts; t++)
        if (strcmp (info->texts[t].name, cell->field) == 0)
          cell->text = &info->texts[t];
      if (cell->text == NULL)
        cell->number = mshed_dfm_schema_find_field (info, cell->field);
      if (cell->text == NULL && cell->number == NULL)
        {
          g_autofree char *names = field_names (info);

          return usage (error, _("--set %s: table %s has no field “%s” (fields: %s)"), spec,
                        info->name, cell->field, names);
        }
      if (cell->number != NULL && !mshed_field_parse (cell->number, value, &parsed, &local))
        return usage (error, "--set %s: %s", spec, local->message);
    }
  if (cell->number == NULL)
    {
      encoded = mshed_utf8_to_cp1251 (value, &local);
      if (encoded == NULL)
        return usage (error, "--set %s: %s", spec, local->message);
      if (cell->text != NULL && g_bytes_get_size (encoded) >= cell->text->size)
        return usage (error, _("--set %s: a name of %zu bytes does not fit in the %u bytes of "
                               "%s.%s with its NUL"), spec, g_bytes_get_size (encoded),
                      cell->text->size, info->name, cell->text->name);
    }
  return TRUE;
}

/* The DFM tables, for a message. */
static char *
table_names (void)
{
  GString *names = g_string_new (NULL);

  for (gint id = MSHED_DFM_TABLE_FIRST; id < MSHED_DFM_TABLE_LAST; id++)
    g_string_append_printf (names, "%s%s", names->len ? ", " : "",
                            mshed_dfm_schema_get_table ((MshedDfmTable) id)->name);
  return g_string_free (names, FALSE);
}

/* TABLE or \Path: the table, then (the field and @value checked first, as bad usage) the
 * node and record of @row (G_MAXUINT64: none given). */
static gboolean
resolve_cell (MshedCliEdit *edit,
              const char   *spec,
              const char   *base,
              guint64       row,
              const char   *value,
              Cell         *cell,
              GError      **error)
{
  const char *file = mshed_document_get_path (edit->doc);

  if (base[0] == '\\' || base[0] == '/')
    {
      MshedDfmTable table;
      gsize size = 0;

      cell->node = find_entry (edit, "--set", spec, base, error);
      if (cell->node == NULL)
        return FALSE;
      table = mshed_dfm_schema_table_for_node (cell->node);
      if (table == MSHED_DFM_TABLE_NONE)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                       _("--set %s: %s is not a table of a deformable model (docs/dfm.md §2); "
                         "--set-bytes PATH=HEX replaces any entry's bytes"), spec, base);
          return FALSE;
        }
      cell->info = mshed_dfm_schema_get_table (table);
      cell->row = G_MAXUINT64;
      if (!check_cell (spec, cell, value, error))
        return FALSE;
      mshed_utf_node_peek_data (cell->node, &size);
      if (row == G_MAXUINT64 && cell->info->stride > 0 && size / cell->info->stride != 1)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("--set %s: %s holds %zu records; name one: PATH[RECORD].FIELD"), spec,
                       base, size / cell->info->stride);
          return FALSE;
        }
      cell->record = row == G_MAXUINT64 ? 0 : (guint) MIN (row, G_MAXUINT);
      return TRUE;
    }

  cell->info = mshed_dfm_schema_find_table (base);
  if (cell->info == NULL)
    {
      g_autofree char *names = table_names ();

      if (mshed_schema_find_table (base) != NULL)
        return usage (error, _("--set %s: %s is a table of Parkan models (.msh); the tables of "
                               "a deformable model: %s"), spec, base, names);
      return usage (error, _("--set %s: there is no table “%s” (tables: %s)"), spec, base,
                    names);
    }
  if (!check_cell (spec, cell, value, error))
    return FALSE;
  {
    guint64 n_rows = 0;
    g_autoptr(GArray) spans = mshed_cli_dfm_spans (mshed_utf_get_root (edit_utf (edit)),
                                                   cell->info, &n_rows);
    const MshedCliDfmSpan *span;

    if (row == G_MAXUINT64 && n_rows != 1)
      {
        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                     _("--set %s: table %s has %" PRIu64 " rows in %s; name one: %s[ROW]"),
                     spec, cell->info->name, n_rows, file, cell->info->name);
        return FALSE;
      }
    cell->row = row == G_MAXUINT64 ? 0 : row;
    span = mshed_cli_dfm_find_span (spans, cell->row, NULL);
    if (span == NULL)
      {
        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                     _("--set %s: table %s has no row %" PRIu64 " in %s (it has %" PRIu64
                       "; mshed-cli dump --table %s lists them)"), spec, cell->info->name,
                     cell->row, file, n_rows, cell->info->name);
        return FALSE;
      }
    cell->node = span->node;
    cell->record = (guint) (cell->row - span->first_row);
  }
  return TRUE;
}

#define SET_SYNTAX _("--set %s: expected TABLE[ROW].FIELD=VALUE, \\Path[RECORD].FIELD=VALUE " \
                     "or, for a text, TABLE[ROW]=TEXT, e.g. points[3].y=0.5")

/* TABLE[ROW].FIELD=VALUE, TABLE[ROW]=TEXT, \Path[RECORD].FIELD=VALUE, \Path=TEXT, and without
 * [ROW] for a table or node of one record. */
static gboolean
parse_cell (MshedCliEdit *edit,
            const char   *spec,
            Cell         *cell,
            const char  **value,
            GError      **error)
{
  const char *eq = strchr (spec, '=');
  g_autofree char *lhs = NULL;
  g_autofree char *base = NULL;
  guint64 row = G_MAXUINT64;
  char *bracket;

  if (eq == NULL || eq == spec)
    return usage (error, SET_SYNTAX, spec);
  *value = eq + 1;
  lhs = g_strndup (spec, (gsize) (eq - spec));
  bracket = strrchr (lhs, '[');
  if (bracket != NULL && bracket[1] >= '0' && bracket[1] <= '9')
    {
      char *end = NULL;

      row = g_ascii_strtoull (bracket + 1, &end, 10);
      if (*end != ']' || (end[1] != '\0' && end[1] != '.') || row == G_MAXUINT64)
        return usage (error, SET_SYNTAX, spec);
      if (end[1] == '.')
        cell->field = g_strdup (end + 2);
      base = g_strndup (lhs, (gsize) (bracket - lhs));
    }
  else if (lhs[0] == '\\' || lhs[0] == '/')
    {
      char *dot = strrchr (lhs, '.');

      /* a path's names may hold dots (Root.3db): the whole path first */
      if (mshed_cli_utf_find_node (edit_utf (edit), lhs) != NULL || dot == NULL ||
          strpbrk (dot, "\\/") != NULL)
        base = g_strdup (lhs);
      else
        {
          base = g_strndup (lhs, (gsize) (dot - lhs));
          cell->field = g_strdup (dot + 1);
        }
    }
  else
    {
      char *dot = strchr (lhs, '.');

      base = dot ? g_strndup (lhs, (gsize) (dot - lhs)) : g_strdup (lhs);
      cell->field = dot ? g_strdup (dot + 1) : NULL;
    }
  if (cell->field != NULL && cell->field[0] == '\0')
    return usage (error, SET_SYNTAX, spec);
  return resolve_cell (edit, spec, base, row, *value, cell, error);
}

/* The cell's value as dump prints it; a text in quotes. */
static char *
format_cell (const Cell *cell)
{
  gsize size = 0;
  const guint8 *data = mshed_utf_node_peek_data (cell->node, &size);
  const guint8 *p;
  g_autofree char *text = NULL;
  gsize n;

  if (cell->info->stride == 0)
    {
      text = mshed_cp1251_to_utf8 (data, mshed_cli_text_length (data, size), NULL);
      return g_strdup_printf ("“%s”", text);
    }
  if ((gsize) (cell->record + 1) * cell->info->stride > size)
    return g_strdup ("?");
  p = data + (gsize) cell->record * cell->info->stride;
  if (cell->number != NULL)
    return mshed_field_format (cell->number, p);
  n = mshed_cli_text_length (p + cell->text->offset, cell->text->size);
  text = mshed_cp1251_to_utf8 (p + cell->text->offset, n, NULL);
  return g_strdup_printf ("“%s”", text);
}

/**
 * mshed_cli_edit_utf_set:
 *
 * One --set on a deformable model: the cell changed through the document and
 * `TABLE[ROW].FIELD (\Path[RECORD]): before → after` appended to the report.
 */
gboolean
mshed_cli_edit_utf_set (MshedCliEdit *edit,
                        const char   *spec,
                        GError      **error)
{
  g_auto(Cell) cell = { 0 };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *path = NULL;
  const char *value = NULL;

  if (mshed_document_get_dfm (edit->doc) == NULL)
    return usage (error, _("--set %s: %s is not a deformable model, so it has no typed tables; "
                           "--set-bytes PATH=HEX replaces an entry's bytes"), spec,
                  mshed_document_get_path (edit->doc));
  if (!parse_cell (edit, spec, &cell, &value, error))
    return FALSE;
  before = format_cell (&cell);
  if (!mshed_document_dfm_set_field (edit->doc, cell.node, cell.record, cell.field, value,
                                     error))
    {
      g_prefix_error (error, "--set %s: ", spec);
      return FALSE;
    }
  after = format_cell (&cell);
  /* a text payload is one value: its node has no [RECORD] */
  path = mshed_utf_node_dup_path (cell.node);
  if (cell.info->stride > 0)
    {
      char *with_record = g_strdup_printf ("%s[%u]", path, cell.record);

      g_free (path);
      path = with_record;
    }
  if (cell.row != G_MAXUINT64)
    g_string_append_printf (edit->out, "%s[%" PRIu64 "]", cell.info->name, cell.row);
  else
    g_string_append (edit->out, path);
  if (cell.field != NULL)
    g_string_append_printf (edit->out, ".%s", cell.field);
  if (cell.row != G_MAXUINT64)
    g_string_append_printf (edit->out, " (%s)", path);
  g_string_append (edit->out, ": ");
  if (strcmp (before, after) == 0)
    g_string_append_printf (edit->out, _("%s (unchanged)\n"), after);
  else
    g_string_append_printf (edit->out, "%s → %s\n", before, after);
  return TRUE;
}

/* --set-bytes ---------------------------------------------------------------------------- */

/* Up to 16 bytes in hex, then "…". */
static void
append_hex (GString      *out,
            const guint8 *data,
            gsize         len)
{
  for (gsize i = 0; i < len && i < 16; i++)
    g_string_append_printf (out, "%02X", data[i]);
  if (len > 16)
    g_string_append (out, "…");
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, " (%zu byte)", " (%zu bytes)",
                                            len), len);
}

/* HEX: pairs of hex digits, with spaces allowed between bytes. */
static GBytes *
parse_hex (const char *spec,
           const char *hex,
           GError    **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();

  for (const char *p = hex; *p;)
    {
      guint8 b;

      if (*p == ' ')
        {
          p++;
          continue;
        }
      if (!g_ascii_isxdigit (p[0]) || !g_ascii_isxdigit (p[1]))
        {
          usage (error, _("--set-bytes %s: expected PATH=HEX or PATH@OFFSET=HEX, HEX two digits "
                          "per byte (e.g. 0A0B0C0D)"), spec);
          return NULL;
        }
      b = (guint8) (g_ascii_xdigit_value (p[0]) << 4 | g_ascii_xdigit_value (p[1]));
      g_byte_array_append (bytes, &b, 1);
      p += 2;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/**
 * mshed_cli_edit_utf_set_bytes:
 *
 * One --set-bytes on any UTF file: PATH=HEX replaces the leaf's whole payload (its size may
 * change), PATH@OFFSET=HEX overwrites as many bytes at OFFSET.
 */
gboolean
mshed_cli_edit_utf_set_bytes (MshedCliEdit *edit,
                              const char   *spec,
                              GError      **error)
{
  const char *eq = strchr (spec, '=');
  g_autofree char *lhs = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) old = NULL;
  MshedUtfNode *node;
  char *at;
  guint64 offset = 0;
  gboolean whole = TRUE;
  gsize size = 0, len;
  const guint8 *data;

  if (eq == NULL || eq == spec)
    return usage (error, _("--set-bytes %s: expected PATH=HEX or PATH@OFFSET=HEX, HEX two "
                           "digits per byte (e.g. 0A0B0C0D)"), spec);
  lhs = g_strndup (spec, (gsize) (eq - spec));
  at = strrchr (lhs, '@');
  if (at != NULL)
    {
      gboolean hex = g_str_has_prefix (at + 1, "0x") || g_str_has_prefix (at + 1, "0X");

      if (!g_ascii_string_to_unsigned (at + (hex ? 3 : 1), hex ? 16 : 10, 0, G_MAXSIZE,
                                       &offset, NULL))
        return usage (error, _("--set-bytes %s: the offset after @ is a number (decimal or "
                               "0x…)"), spec);
      *at = '\0';
      whole = FALSE;
    }
  bytes = parse_hex (spec, eq + 1, error);
  if (bytes == NULL)
    return FALSE;
  node = find_entry (edit, "--set-bytes", spec, lhs, error);
  if (node == NULL)
    return FALSE;
  path = mshed_utf_node_dup_path (node);
  data = mshed_utf_node_peek_data (node, &size);
  len = g_bytes_get_size (bytes);
  if (!whole && offset <= size)
    old = g_bytes_new (data + offset, MIN (len, size - (gsize) offset));
  else
    old = g_bytes_new (data, whole ? size : 0);
  if (whole)
    {
      if (!mshed_document_utf_set_data (edit->doc, node, bytes, error))
        {
          g_prefix_error (error, "--set-bytes %s: ", spec);
          return FALSE;
        }
      g_string_append_printf (edit->out, "%s: ", path);
    }
  else
    {
      MshedPayloadRef ref = MSHED_PAYLOAD_UTF (node);

      if (!mshed_document_replace_payload_bytes (edit->doc, &ref, (gsize) offset, len, bytes,
                                                 error))
        {
          g_prefix_error (error, "--set-bytes %s: ", spec);
          return FALSE;
        }
      g_string_append_printf (edit->out, _("%s, bytes at %" PRIu64 ": "), path, offset);
    }
  append_hex (edit->out, g_bytes_get_data (old, NULL), g_bytes_get_size (old));
  g_string_append (edit->out, " → ");
  append_hex (edit->out, g_bytes_get_data (bytes, NULL), len);
  g_string_append_c (edit->out, '\n');
  return TRUE;
}

/* --rename ------------------------------------------------------------------------------- */

/**
 * mshed_cli_edit_utf_rename:
 *
 * One --rename PATH=NAME on any UTF file.
 */
gboolean
mshed_cli_edit_utf_rename (MshedCliEdit *edit,
                           const char   *spec,
                           GError      **error)
{
  const char *eq = strchr (spec, '=');
  g_autofree char *lhs = NULL;
  g_autofree char *old = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) local = NULL;
  MshedUtfNode *node;

  if (eq == NULL || eq == spec)
    return usage (error, _("--rename %s: expected PATH=NAME, e.g. '\\Material library\\"
                           "Material0=Skin'"), spec);
  /* a name that no UTF entry may have (docs/utf.md §3.4) */
  if (!mshed_utf_validate_name (eq + 1, &local))
    return usage (error, "--rename %s: %s", spec, local->message);
  lhs = g_strndup (spec, (gsize) (eq - spec));
  node = find_entry (edit, "--rename", spec, lhs, error);
  if (node == NULL)
    return FALSE;
  path = mshed_utf_node_dup_path (node);
  old = g_strdup (mshed_utf_node_get_name (node));
  if (!mshed_document_utf_rename (edit->doc, node, eq + 1, error))
    {
      g_prefix_error (error, "--rename %s: ", spec);
      return FALSE;
    }
  g_string_append_printf (edit->out, _("%s name: “%s” → “%s”\n"), path, old,
                          mshed_utf_node_get_name (node));
  return TRUE;
}

/* Report --------------------------------------------------------------------------------- */

/**
 * mshed_cli_edit_utf_changed:
 *
 * One change of a UTF document in the recompute report: a DFM table's rows with the node and
 * records that hold them (`    points[17..19] (\MultiLevel\Mesh1\Geometry\Points[3..5])`), or
 * the path of any other entry.
 */
void
mshed_cli_edit_utf_changed (MshedCliEdit      *edit,
                            const MshedChange *change)
{
  g_autofree char *path = NULL;
  const MshedDfmTableInfo *info = NULL;

  if (change->node == NULL)
    return;
  path = mshed_utf_node_dup_path (change->node);
  if ((gint) change->table >= MSHED_DFM_TABLE_FIRST && (gint) change->table < MSHED_DFM_TABLE_LAST)
    info = mshed_dfm_schema_get_table ((MshedDfmTable) change->table);
  if (info != NULL && change->n_added > 0)
    {
      g_autoptr(GArray) spans = mshed_cli_dfm_spans (mshed_utf_get_root (edit_utf (edit)), info,
                                                     NULL);
      const MshedCliDfmSpan *span = mshed_cli_dfm_find_span (spans, 0, change->node);
      guint64 first = (span ? span->first_row : 0) + change->first_row;
      guint last = change->first_row + change->n_added - 1;

      if (change->n_added == 1)
        g_string_append_printf (edit->out, "    %s[%" PRIu64 "] (%s[%u])\n", info->name, first,
                                path, change->first_row);
      else
        g_string_append_printf (edit->out, "    %s[%" PRIu64 "..%" PRIu64 "] (%s[%u..%u])\n",
                                info->name, first, first + change->n_added - 1, path,
                                change->first_row, last);
      return;
    }
  g_string_append_printf (edit->out, "    %s\n", path);
}

/**
 * mshed_cli_edit_dfm_stale_rows:
 *
 * The rows of one stale cell of a deformable model: the nodes they name (a row is a mesh, a
 * part or a bone, mshed-deps.h).
 */
void
mshed_cli_edit_dfm_stale_rows (MshedCliEdit     *edit,
                               const MshedStale *stale,
                               GString          *out)
{
  MshedDfm *dfm = mshed_document_get_dfm (edit->doc);
  MshedDfmTable table = (MshedDfmTable) stale->table;

  if (stale->n_rows == 0)
    {
      MshedUtfNode *node = dfm ? mshed_dfm_find_node (dfm, table, 0, 0) : NULL;
      g_autofree char *path = node ? mshed_utf_node_dup_path (node) : NULL;
      const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);

      /* a table of one node names it; one per mesh, part or bone is "every node" */
      if (path != NULL && (info->scope == MSHED_DFM_SCOPE_MULTILEVEL ||
                           info->scope == MSHED_DFM_SCOPE_MATERIAL_LIBRARY ||
                           info->scope == MSHED_DFM_SCOPE_ROOT))
        g_string_append (out, path);
      else
        g_string_append (out, _("all rows"));
      return;
    }
  for (guint r = 0; r < stale->n_rows && r < 8; r++)
    {
      MshedUtfNode *node = dfm ? mshed_dfm_find_node (dfm, table, stale->rows[r], 0) : NULL;
      g_autofree char *path = node ? mshed_utf_node_dup_path (node) : NULL;

      if (r > 0)
        g_string_append (out, ", ");
      if (path != NULL)
        g_string_append (out, path);
      else
        g_string_append_printf (out, "#%u", stale->rows[r]);
    }
  if (stale->n_rows > 8)
    g_string_append_printf (out, _(" and %u more"), stale->n_rows - 8);
}
