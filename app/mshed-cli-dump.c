/* mshed-cli-dump.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli dump: one table of a model as aligned text or JSON, driven by the schema
 * (model/mshed-schema.h), so every field is named exactly as the editor and the diagnostics
 * name it. Large tables are streamed.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cli-private.h"
#include "mshed-cp1251.h"
#include "mshed-dfm-strip.h"
#include "mshed-dfm.h"
#include "mshed-error.h"
#include "mshed-schema.h"

typedef struct {
  GString      *out;
  gboolean      json;
  gboolean      decoded;
  guint         n_cols;
  const char  **names;    /* column names (static or owned by the caller) */
  int          *widths;   /* text widths; 0: last column, not padded */
  gboolean     *right;
  guint64       n_emitted;
} Dump;

/* Output --------------------------------------------------------------------------------- */

static char *
json_number (double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    return g_strdup (isnan (v) ? "\"nan\"" : (v > 0 ? "\"inf\"" : "\"-inf\""));
  if (v == floor (v) && fabs (v) < 1e15)
    return g_strdup_printf ("%" PRId64, (gint64) v);
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.9g", v));
}

static void
dump_begin (Dump       *d,
            const char *file,
            const char *table,
            guint64     n_rows,
            guint64     first,
            guint64     last)
{
  if (d->json)
    {
      g_string_append (d->out, "{\n  \"file\": ");
      mshed_cli_json_string (d->out, file);
      g_string_append (d->out, ",\n  \"table\": ");
      mshed_cli_json_string (d->out, table);
      g_string_append_printf (d->out, ",\n  \"rows\": %" PRIu64, n_rows);
      if (n_rows)
        g_string_append_printf (d->out, ",\n  \"first\": %" PRIu64
                                ",\n  \"last\": %" PRIu64, first, last);
      g_string_append (d->out, ",\n  \"columns\": [");
      for (guint c = 0; c < d->n_cols; c++)
        {
          if (c)
            g_string_append (d->out, ", ");
          mshed_cli_json_string (d->out, d->names[c]);
        }
      g_string_append (d->out, "],\n  \"records\": [");
      return;
    }
  for (guint c = 0; c < d->n_cols; c++)
    {
      if (c)
        g_string_append (d->out, "  ");
      if (d->widths[c] == 0)
        g_string_append (d->out, d->names[c]);
      else
        mshed_cli_pad (d->out, d->names[c], d->widths[c], d->right[c]);
    }
  g_string_append_c (d->out, '\n');
}

/* @text: cells as shown; @json: cells as JSON literals (NULL: use @text as a string) */
static void
dump_row (Dump         *d,
          char * const *text,
          char * const *json)
{
  if (d->json)
    {
      g_string_append (d->out, d->n_emitted ? ",\n    {" : "\n    {");
      for (guint c = 0; c < d->n_cols; c++)
        {
          if (c)
            g_string_append (d->out, ", ");
          mshed_cli_json_string (d->out, d->names[c]);
          g_string_append (d->out, ": ");
          if (json && json[c])
            g_string_append (d->out, json[c]);
          else
            mshed_cli_json_string (d->out, text[c]);
        }
      g_string_append_c (d->out, '}');
    }
  else
    {
      gsize start = d->out->len;

      for (guint c = 0; c < d->n_cols; c++)
        {
          if (c)
            g_string_append (d->out, "  ");
          if (d->widths[c] == 0)
            g_string_append (d->out, text[c]);
          else
            mshed_cli_pad (d->out, text[c], d->widths[c], d->right[c]);
        }
      while (d->out->len > start && d->out->str[d->out->len - 1] == ' ')
        g_string_truncate (d->out, d->out->len - 1);
      g_string_append_c (d->out, '\n');
    }
  d->n_emitted++;
  mshed_cli_flush (d->out, FALSE);
}

static void
dump_end (Dump *d)
{
  if (d->json)
    g_string_append (d->out, d->n_emitted ? "\n  ]\n}\n" : "]\n}\n");
  mshed_cli_flush (d->out, TRUE);
}

static void
set_columns (Dump       *d,
             GPtrArray  *names,
             GArray     *widths,
             GArray     *right)
{
  d->n_cols = names->len;
  d->names = (const char **) names->pdata;
  d->widths = (int *) (gpointer) widths->data;
  d->right = (gboolean *) (gpointer) right->data;
}

static void
add_column (GPtrArray  *names,
            GArray     *widths,
            GArray     *right,
            const char *name,
            int         width,
            gboolean    align_right)
{
  g_ptr_array_add (names, (gpointer) name);
  width = width ? MAX (width, (int) strlen (name)) : 0;
  g_array_append_val (widths, width);
  g_array_append_val (right, align_right);
}

/* Range ---------------------------------------------------------------------------------- */

/* "A..B" (inclusive), "A..", "..B" or "N". */
static gboolean
parse_range (const char *text,
             guint64    *first,
             guint64    *last,
             GError    **error)
{
  const char *dots = strstr (text, "..");
  g_autofree char *a = NULL;
  const char *b;

  *first = 0;
  *last = G_MAXUINT64;
  if (dots == NULL)
    {
      if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, first, error))
        return FALSE;
      *last = *first;
      return TRUE;
    }
  a = g_strndup (text, (gsize) (dots - text));
  b = dots + 2;
  if (*a && !g_ascii_string_to_unsigned (a, 10, 0, G_MAXUINT32, first, error))
    return FALSE;
  if (*b && !g_ascii_string_to_unsigned (b, 10, 0, G_MAXUINT32, last, error))
    return FALSE;
  if (*first > *last)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("the range %s is empty: %" PRIu64 " is after %" PRIu64),
                   text, *first, *last);
      return FALSE;
    }
  return TRUE;
}

/* Widths --------------------------------------------------------------------------------- */

static int
field_width (const MshedField *f,
             gboolean          decoded)
{
  if (decoded && f->divisor != 0)
    return 12;
  switch (f->type)
    {
    case MSHED_FIELD_U8:
      return 4;
    case MSHED_FIELD_I8:
      return 4;
    case MSHED_FIELD_U16:
      return (f->flags & MSHED_FIELD_FLAG_HEX) ? 6 : 5;
    case MSHED_FIELD_I16:
      return 6;
    case MSHED_FIELD_U32:
      return 10;
    case MSHED_FIELD_I32:
      return 11;
    case MSHED_FIELD_F32:
    default:
      return 15;
    }
}

static void
format_field (const MshedField *f,
              const guint8     *record,
              gboolean          decoded,
              char            **text,
              char            **json)
{
  double raw = mshed_field_read (f, record);

  if (decoded && f->divisor != 0)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      double v = raw / f->divisor;

      if (f->divisor == 127.0)
        v = CLAMP (v, -1.0, 1.0);  /* docs/msh.md §5: normals clamp to ±1 */
      *text = g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", v));
      *json = json_number (v);
      return;
    }
  *text = mshed_field_format (f, record);
  *json = json_number (raw);
}

/* Tables --------------------------------------------------------------------------------- */

static guint64
base_offset (const MshedSource *source)
{
  if (source->entry_index < 0)
    return 0;
  return mshed_nres_peek_entry (source->file_nres, (guint) source->entry_index)->data_offset;
}

static void
clamp_range (guint64  n_rows,
             guint64 *first,
             guint64 *last)
{
  if (n_rows == 0)
    {
      *first = 1;
      *last = 0;
      return;
    }
  *last = MIN (*last, n_rows - 1);
}

/* Every fixed-stride table of the schema, plus decoded normal/UV columns for vertices and the
 * node name for nodes. */
static void
dump_fixed (Dump                 *d,
            const MshedSource    *source,
            const MshedTableInfo *info,
            guint64               first,
            guint64               last)
{
  const MshedModel *model = source->model;
  guint64 n_rows = mshed_model_get_n_rows (model, info->id);
  guint64 base = base_offset (source);
  gboolean extra_vertex = info->id == MSHED_TABLE_POSITIONS && d->decoded;
  gboolean with_name = info->id == MSHED_TABLE_NODES;
  static const char *vertex_extra[] = { "nx", "ny", "nz", "u", "v" };
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) widths = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) right = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GPtrArray) text = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) json = g_ptr_array_new_with_free_func (g_free);
  char digits[32];

  g_snprintf (digits, sizeof digits, "%" PRIu64, n_rows);
  add_column (names, widths, right, "row", (int) strlen (digits), TRUE);
  add_column (names, widths, right, "offset", 10, TRUE);
  for (guint f = 0; f < info->n_fields; f++)
    add_column (names, widths, right, info->fields[f].name,
                field_width (&info->fields[f], d->decoded), TRUE);
  if (extra_vertex)
    for (guint i = 0; i < G_N_ELEMENTS (vertex_extra); i++)
      add_column (names, widths, right, vertex_extra[i], 10, TRUE);
  if (with_name)
    add_column (names, widths, right, "name", 0, FALSE);
  set_columns (d, names, widths, right);

  clamp_range (n_rows, &first, &last);
  dump_begin (d, source->entry ? source->entry : source->path, info->name, n_rows, first, last);
  for (guint64 row = first; row <= last && row < n_rows; row++)
    {
      const guint8 *record = mshed_model_get_record (model, info->id, (guint) row);
      guint64 offset;

      if (record == NULL)
        break;
      g_ptr_array_set_size (text, 0);
      g_ptr_array_set_size (json, 0);
      offset = base + mshed_model_get_record_offset (model, info->id, (guint) row);
      g_ptr_array_add (text, g_strdup_printf ("%" PRIu64, row));
      g_ptr_array_add (json, g_strdup_printf ("%" PRIu64, row));
      g_ptr_array_add (text, g_strdup_printf ("0x%08" PRIX64, offset));
      g_ptr_array_add (json, g_strdup_printf ("%" PRIu64, offset));
      for (guint f = 0; f < info->n_fields; f++)
        {
          char *t, *j;

          format_field (&info->fields[f], record, d->decoded, &t, &j);
          g_ptr_array_add (text, t);
          g_ptr_array_add (json, j);
        }
      if (extra_vertex)
        {
          float n[3], uv[2];
          gboolean has_n = mshed_model_get_normal (model, (guint) row, n);
          gboolean has_uv = mshed_model_get_uv (model, (guint) row, uv);
          float values[5] = { n[0], n[1], n[2], uv[0], uv[1] };
          gboolean present[5] = { has_n, has_n, has_n, has_uv, has_uv };
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          if (!has_n)
            values[0] = values[1] = values[2] = 0;
          if (!has_uv)
            values[3] = values[4] = 0;
          for (guint i = 0; i < 5; i++)
            {
              g_ptr_array_add (text, g_strdup (present[i]
                                               ? g_ascii_formatd (buf, sizeof buf, "%.6g",
                                                                  values[i])
                                               : "-"));
              g_ptr_array_add (json, present[i] ? json_number (values[i]) : g_strdup ("null"));
            }
        }
      if (with_name)
        {
          char *name = mshed_model_dup_name (model, (guint) row);

          g_ptr_array_add (text, name ? name : g_strdup (""));
          g_ptr_array_add (json, NULL);
        }
      dump_row (d, (char * const *) text->pdata, (char * const *) json->pdata);
    }
  dump_end (d);
}

static char *
hex_bytes (const guint8 *data,
           gsize         len)
{
  GString *s = g_string_sized_new (len * 3);

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (s, i ? " %02X" : "%02X", data[i]);
  return g_string_free (s, FALSE);
}

/* Res1 with 24-byte (legacy) or otherwise unusual records: raw bytes per record. */
static void
dump_raw_nodes (Dump              *d,
                const MshedSource *source,
                guint64            first,
                guint64            last)
{
  const MshedModel *model = source->model;
  const MshedNresEntry *e = mshed_model_get_resource (model, 1);
  guint stride = mshed_model_get_node_stride (model);
  gsize size = 0;
  const guint8 *data = e ? mshed_nres_entry_get_data (e, &size) : NULL;
  guint64 n_rows = stride ? size / stride : 0;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) widths = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) right = g_array_new (FALSE, FALSE, sizeof (gboolean));

  add_column (names, widths, right, "row", 5, TRUE);
  add_column (names, widths, right, "offset", 10, TRUE);
  add_column (names, widths, right, "name", 16, FALSE);
  add_column (names, widths, right, "bytes", 0, FALSE);
  set_columns (d, names, widths, right);
  if (!d->json)
    g_string_append_printf (d->out, _("Node records of %u bytes (legacy layout): field "
                                      "meanings unknown, shown as bytes.\n"), stride);
  clamp_range (n_rows, &first, &last);
  dump_begin (d, source->entry ? source->entry : source->path, "nodes", n_rows, first, last);
  for (guint64 row = first; row <= last && row < n_rows; row++)
    {
      g_autofree char *index = g_strdup_printf ("%" PRIu64, row);
      g_autofree char *offset = g_strdup_printf ("0x%08" PRIX64,
                                                 base_offset (source) + e->data_offset +
                                                 row * stride);
      g_autofree char *name = mshed_model_dup_name (model, (guint) row);
      g_autofree char *bytes = hex_bytes (data + row * stride, stride);
      char *text[] = { index, offset, name ? name : (char *) "", bytes };
      char *json[] = { index, NULL, NULL, NULL };

      dump_row (d, text, json);
    }
  dump_end (d);
}

/* The Res2 header: one record, shown one field per line. */
static void
dump_header (Dump              *d,
             const MshedSource *source)
{
  const MshedTableInfo *info = mshed_schema_get_table (MSHED_TABLE_HEADER);
  const guint8 *record = mshed_model_get_record (source->model, MSHED_TABLE_HEADER, 0);
  guint64 base = base_offset (source) +
                 mshed_model_get_record_offset (source->model, MSHED_TABLE_HEADER, 0);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) widths = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) right = g_array_new (FALSE, FALSE, sizeof (gboolean));

  add_column (names, widths, right, "field", 8, FALSE);
  add_column (names, widths, right, "offset", 10, TRUE);
  add_column (names, widths, right, "value", 15, TRUE);
  add_column (names, widths, right, "description", 0, FALSE);
  set_columns (d, names, widths, right);
  dump_begin (d, source->entry ? source->entry : source->path, "header",
              record ? info->n_fields : 0, 0, info->n_fields - 1);
  for (guint f = 0; record && f < info->n_fields; f++)
    {
      const MshedField *field = &info->fields[f];
      g_autofree char *offset = g_strdup_printf ("0x%08" PRIX64,
                                                 base + field->offset);
      g_autofree char *offset_json = g_strdup_printf ("%" PRIu64, base + field->offset);
      g_autofree char *value = NULL;
      g_autofree char *value_json = NULL;
      char *text[4], *json[4];

      format_field (field, record, d->decoded, &value, &value_json);
      text[0] = (char *) field->name;
      text[1] = offset;
      text[2] = value;
      text[3] = (char *) _(field->blurb);
      json[0] = NULL;
      json[1] = offset_json;
      json[2] = value_json;
      json[3] = NULL;
      dump_row (d, text, json);
    }
  dump_end (d);
}

/* Res10: index, offset, length, text, raw bytes. */
static void
dump_names (Dump              *d,
            const MshedSource *source,
            guint64            first,
            guint64            last)
{
  const MshedModel *model = source->model;
  guint64 n_rows = mshed_model_get_n_rows (model, MSHED_TABLE_NAMES);
  guint64 base = base_offset (source);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) widths = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) right = g_array_new (FALSE, FALSE, sizeof (gboolean));
  int w_text = 4;

  clamp_range (n_rows, &first, &last);
  for (guint64 row = first; row <= last && row < n_rows; row++)
    {
      g_autofree char *name = mshed_model_dup_name (model, (guint) row);

      w_text = MAX (w_text, mshed_cli_text_width (name));
    }
  add_column (names, widths, right, "row", 5, TRUE);
  add_column (names, widths, right, "offset", 10, TRUE);
  add_column (names, widths, right, "length", 6, TRUE);
  add_column (names, widths, right, "text", w_text, FALSE);
  add_column (names, widths, right, "bytes", 0, FALSE);
  set_columns (d, names, widths, right);

  dump_begin (d, source->entry ? source->entry : source->path, "names", n_rows, first, last);
  for (guint64 row = first; row <= last && row < n_rows; row++)
    {
      const guint8 *raw = NULL;
      guint32 len = 0;
      g_autofree char *index = g_strdup_printf ("%" PRIu64, row);
      g_autofree char *offset = NULL;
      g_autofree char *offset_json = NULL;
      g_autofree char *length = NULL;
      g_autofree char *name = mshed_model_dup_name (model, (guint) row);
      g_autofree char *bytes = NULL;
      guint64 off = base + mshed_model_get_record_offset (model, MSHED_TABLE_NAMES, (guint) row);
      char *text[5], *json[5] = { NULL, NULL, NULL, NULL, NULL };

      if (!mshed_model_get_name_raw (model, (guint) row, &raw, &len))
        break;
      offset = g_strdup_printf ("0x%08" PRIX64, off);
      offset_json = g_strdup_printf ("%" PRIu64, off);
      length = g_strdup_printf ("%u", len);
      bytes = hex_bytes (raw, len);
      text[0] = index;
      text[1] = offset;
      text[2] = length;
      text[3] = name ? name : (char *) "";
      text[4] = bytes;
      json[0] = index;
      json[1] = offset_json;
      json[2] = length;
      dump_row (d, text, json);
    }
  dump_end (d);
}

/* The NRes directory from the entry list: works for archives as well as models. */
static void
dump_directory (Dump              *d,
                const MshedSource *source,
                guint64            first,
                guint64            last)
{
  MshedNres *nres = source->model ? mshed_model_get_nres (source->model) : source->file_nres;
  guint64 n_rows = mshed_nres_get_n_entries (nres);
  guint64 base = base_offset (source);
  guint64 dir = base + mshed_nres_get_directory_offset (nres);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) widths = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) right = g_array_new (FALSE, FALSE, sizeof (gboolean));
  int w_type = 4;

  clamp_range (n_rows, &first, &last);
  for (guint64 row = first; row <= last && row < n_rows; row++)
    {
      g_autofree char *type = mshed_cli_type_name (mshed_nres_peek_entry (nres,
                                                                          (guint) row)->type_id);
      w_type = MAX (w_type, mshed_cli_text_width (type));
    }
  add_column (names, widths, right, "row", 5, TRUE);
  add_column (names, widths, right, "offset", 10, TRUE);
  add_column (names, widths, right, "type", w_type, FALSE);
  add_column (names, widths, right, "attr1", 10, TRUE);
  add_column (names, widths, right, "attr2", 10, TRUE);
  add_column (names, widths, right, "size", 10, TRUE);
  add_column (names, widths, right, "attr3", 10, TRUE);
  add_column (names, widths, right, "data_offset", 11, TRUE);
  add_column (names, widths, right, "sort_index", 10, TRUE);
  add_column (names, widths, right, "name", 0, FALSE);
  set_columns (d, names, widths, right);

  dump_begin (d, source->entry ? source->entry : source->path, "dir", n_rows, first, last);
  for (guint64 row = first; row <= last && row < n_rows; row++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, (guint) row);
      char *text[10], *json[10] = { NULL };

      text[0] = g_strdup_printf ("%" PRIu64, row);
      text[1] = g_strdup_printf ("0x%08" PRIX64, dir + row * MSHED_NRES_RECORD_SIZE);
      text[2] = mshed_cli_type_name (e->type_id);
      text[3] = g_strdup_printf ("%u", e->attr1);
      text[4] = g_strdup_printf ("%u", e->attr2);
      text[5] = g_strdup_printf ("%zu", mshed_nres_entry_get_size (e));
      text[6] = g_strdup_printf ("%u", e->attr3);
      text[7] = g_strdup_printf ("%u", e->data_offset);
      text[8] = g_strdup_printf ("%u", e->sort_index);
      text[9] = mshed_nres_entry_dup_name (e);
      json[0] = text[0];
      json[1] = g_strdup_printf ("%" PRIu64, dir + row * MSHED_NRES_RECORD_SIZE);
      json[2] = g_strdup_printf ("%u", e->type_id);
      for (guint c = 3; c <= 8; c++)
        json[c] = text[c];
      dump_row (d, text, json);
      g_free (json[1]);
      g_free (json[2]);
      for (guint c = 0; c < 10; c++)
        g_free (text[c]);
    }
  dump_end (d);
}

/* DFM tables (docs/dfm.md) ------------------------------------------------------------- */

/* The Triangles table's rows from one `Tristrip_indices` or `Face_indices` payload: 6-byte
 * records of i0, i1, i2 as docs/dfm.md §5.1 unrolls them; a strip's window positions in
 * @windows. */
static guint8 *
unroll_records (MshedUtfNode  *node,
                const guint8  *data,
                gsize          size,
                gsize        **windows)
{
  gsize n_entries = size / 2, n;
  g_autofree guint16 *tris = g_new (guint16, 3 * n_entries + 3);
  guint8 *records;

  if (mshed_dfm_schema_table_for_node (node) == MSHED_DFM_TABLE_TRISTRIP)
    {
      *windows = g_new (gsize, n_entries + 1);
      n = mshed_dfm_strip_unroll_windows (data, n_entries, tris, *windows);
    }
  else
    n = mshed_dfm_list_unroll (data, n_entries, tris);
  records = g_malloc (6 * n + 1);
  for (gsize k = 0; k < 3 * n; k++)
    mshed_write_u16 (records + 2 * k, tris[k]);
  return records;
}

/* Every node of the tree that holds @info's table, one row per record (per string), with its
 * node path: a table such as `points` has a node per level. */
static void
dump_dfm_table (Dump                    *d,
                const char              *file,
                const MshedDfm          *dfm,
                const MshedDfmTableInfo *info,
                guint64                  first,
                guint64                  last)
{
  MshedUtfNode *root = mshed_utf_get_root (mshed_dfm_get_utf (dfm));
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) widths = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) right = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr(GPtrArray) text = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) json = g_ptr_array_new_with_free_func (g_free);
  guint64 n_rows = 0, row = 0;
  g_autoptr(GArray) spans = mshed_cli_dfm_spans (root, info, &n_rows);
  int path_width = 4;
  char digits[32];

  for (guint i = 0; i < spans->len; i++)
    {
      char *path = mshed_utf_node_dup_path (g_array_index (spans, MshedCliDfmSpan, i).node);

      path_width = MAX (path_width, mshed_cli_text_width (path));
      g_ptr_array_add (paths, path);
    }

  g_snprintf (digits, sizeof digits, "%" PRIu64, n_rows);
  add_column (names, widths, right, "row", (int) strlen (digits), TRUE);
  add_column (names, widths, right, "path", path_width, FALSE);
  add_column (names, widths, right, "record", 6, TRUE);
  add_column (names, widths, right, "offset", 10, TRUE);
  for (guint t = 0; t < info->n_texts; t++)
    add_column (names, widths, right, info->texts[t].name, 16, FALSE);
  for (guint f = 0; f < info->n_fields; f++)
    add_column (names, widths, right, info->fields[f].name,
                field_width (&info->fields[f], FALSE), TRUE);
  if (info->stride == 0)
    add_column (names, widths, right, "text", 0, FALSE);
  set_columns (d, names, widths, right);

  clamp_range (n_rows, &first, &last);
  dump_begin (d, file, info->name, n_rows, first, last);
  for (guint i = 0; i < spans->len && row <= last; i++)
    {
      MshedUtfNode *node = g_array_index (spans, MshedCliDfmSpan, i).node;
      gsize size = 0;
      const guint8 *data = mshed_utf_node_peek_data (node, &size);
      guint64 base = 0, n = g_array_index (spans, MshedCliDfmSpan, i).n_rows;
      g_autofree guint8 *tris = NULL;
      g_autofree gsize *windows = NULL;

      mshed_dfm_get_payload_offset (dfm, node, &base);
      if (info->id == MSHED_DFM_TABLE_TRIANGLES)
        tris = unroll_records (node, data, size, &windows);
      for (guint64 r = 0; r < n; r++, row++)
        {
          const guint8 *record = tris ? tris + 6 * r : data + r * info->stride;
          /* a triangle lies at the strip window that draws it */
          guint64 at = windows ? 2 * (guint64) windows[r] : r * info->stride;

          if (row < first)
            continue;
          if (row > last)
            break;
          g_ptr_array_set_size (text, 0);
          g_ptr_array_set_size (json, 0);
          g_ptr_array_add (text, g_strdup_printf ("%" PRIu64, row));
          g_ptr_array_add (json, g_strdup_printf ("%" PRIu64, row));
          g_ptr_array_add (text, g_strdup (g_ptr_array_index (paths, i)));
          g_ptr_array_add (json, NULL);
          g_ptr_array_add (text, g_strdup_printf ("%" PRIu64, r));
          g_ptr_array_add (json, g_strdup_printf ("%" PRIu64, r));
          g_ptr_array_add (text, g_strdup_printf ("0x%08" PRIX64, base + at));
          g_ptr_array_add (json, g_strdup_printf ("%" PRIu64, base + at));
          for (guint t = 0; t < info->n_texts; t++)
            {
              const guint8 *p = record + info->texts[t].offset;
              gsize len = mshed_cli_text_length (p, info->texts[t].size);

              g_ptr_array_add (text, mshed_cp1251_to_utf8 (p, len, NULL));
              g_ptr_array_add (json, NULL);
            }
          for (guint f = 0; f < info->n_fields; f++)
            {
              char *t, *j;

              format_field (&info->fields[f], record, FALSE, &t, &j);
              g_ptr_array_add (text, t);
              g_ptr_array_add (json, j);
            }
          if (info->stride == 0)
            {
              gsize len = mshed_cli_text_length (data, size);

              g_ptr_array_add (text, mshed_cp1251_to_utf8 (data, len, NULL));
              g_ptr_array_add (json, NULL);
            }
          dump_row (d, (char * const *) text->pdata, (char * const *) json->pdata);
        }
    }
  dump_end (d);
}

/* The tables `dump --table` takes: a model's, or, for a UTF file (@dfm), a DFM's. */
static void
list_tables (gboolean dfm)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (dfm)
    for (gint id = MSHED_DFM_TABLE_FIRST; id < MSHED_DFM_TABLE_LAST; id++)
      {
        const MshedDfmTableInfo *info = mshed_dfm_schema_get_table ((MshedDfmTable) id);

        mshed_cli_pad (out, info->name, 20, FALSE);
        g_string_append (out, "  ");
        mshed_cli_pad (out, info->node, 20, FALSE);
        g_string_append_printf (out, "  %s\n", _(info->title));
      }
  else
    for (gint id = 0; id < MSHED_N_TABLES; id++)
      {
        const MshedTableInfo *info = mshed_schema_get_table ((MshedTableId) id);

        mshed_cli_pad (out, info->name, 20, FALSE);
        g_string_append_printf (out, "  %s\n", _(info->title));
      }
  mshed_cli_flush (out, TRUE);
}

/* dump of a UTF file: the DFM tables */
static int
dump_utf (const char *path,
          const char *table,
          Dump       *d,
          guint64     first,
          guint64     last)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_find_table (table);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDfm) dfm = NULL;

  if (info == NULL)
    {
      mshed_cli_error (_("“%s” is not a table of a deformable model (see “mshed-cli dump "
                         "--list %s”)"), table, path);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  bytes = mshed_load_file (path, &error);
  if (bytes == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);
  if (dfm == NULL)
    {
      mshed_cli_error ("%s: %s", path, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  dump_dfm_table (d, path, dfm, info, first, last);
  return MSHED_CLI_EXIT_OK;
}

int
mshed_cli_dump (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedSource) source = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *table = NULL;
  g_autofree char *range = NULL;
  gboolean json = FALSE, decoded = FALSE, list = FALSE, utf;
  const MshedTableInfo *info;
  guint64 first = 0, last = G_MAXUINT64;
  Dump d = { 0 };
  static const struct { const char *alias; MshedTableId id; } aliases[] = {
    { "directory", MSHED_TABLE_DIRECTORY }, { "positions", MSHED_TABLE_POSITIONS },
    { "res1", MSHED_TABLE_NODES }, { "res3", MSHED_TABLE_POSITIONS },
    { "res4", MSHED_TABLE_NORMALS }, { "res5", MSHED_TABLE_UVS },
    { "res6", MSHED_TABLE_INDICES }, { "res7", MSHED_TABLE_TRIS },
    { "res8", MSHED_TABLE_KEYS }, { "res10", MSHED_TABLE_NAMES },
    { "res13", MSHED_TABLE_BATCHES }, { "res19", MSHED_TABLE_MAP },
  };
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table,
      N_("The table: nodes, slots, batches, tris, vertices, keys, names, dir, header, "
         "normals, uvs, indices, map, res15, res16, res18; of a deformable model (.dfm): see "
         "--list"), "TABLE" },
    { "list", 'l', 0, G_OPTION_ARG_NONE, &list,
      N_("List the tables (of a deformable model when FILE is a UTF file)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { "decoded", 'd', 0, G_OPTION_ARG_NONE, &decoded,
      N_("Show packed values decoded (normals ÷127, UVs ÷1024, …); vertices also show "
         "their normal and UV"), NULL },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &range,
      N_("Only rows A to B, inclusive (A..B, A.., ..B or N)"), "A..B" },
    { NULL }
  };
  int status;

  context = mshed_cli_context_new ("FILE", _("Print one table of a model as aligned text or "
                                             "JSON. Field names are the ones the editor and "
                                             "the diagnostics use; offsets are file "
                                             "offsets."), entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (list && argc <= 2)
    {
      list_tables (argc == 2 && mshed_cli_is_utf_file (argv[1]));
      return MSHED_CLI_EXIT_OK;
    }
  if (argc != 2)
    {
      mshed_cli_error (_("expected exactly one FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (table == NULL)
    {
      mshed_cli_error (_("name a table with --table (see --help)"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (range && !parse_range (range, &first, &last, &error))
    {
      mshed_cli_error (_("--range %s: %s"), range, error->message);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  d.out = out;
  d.json = json;
  d.decoded = decoded;
  utf = mshed_cli_is_utf_file (argv[1]);
  if (utf)
    return dump_utf (argv[1], table, &d, first, last);
  info = mshed_schema_find_table (table);
  for (guint i = 0; info == NULL && i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (table, aliases[i].alias) == 0)
      info = mshed_schema_get_table (aliases[i].id);
  if (info == NULL)
    {
      mshed_cli_error (_("“%s” is not a table (see --help)"), table);
      return MSHED_CLI_EXIT_TROUBLE;
    }

  source = mshed_cli_open (argv[1], MSHED_MODE_TOLERANT, NULL, &status);
  if (source == NULL)
    return status;
  if (source->model == NULL && info->id != MSHED_TABLE_DIRECTORY)
    {
      mshed_cli_error (_("%s is an archive, not a model: name one of its models as "
                         "ARCHIVE:ENTRY (see “mshed-cli ls %s”), or dump --table dir"),
                       argv[1], argv[1]);
      return MSHED_CLI_EXIT_PROBLEMS;
    }

  switch (info->id)
    {
    case MSHED_TABLE_DIRECTORY:
      dump_directory (&d, source, first, last);
      break;
    case MSHED_TABLE_NAMES:
      dump_names (&d, source, first, last);
      break;
    case MSHED_TABLE_HEADER:
      dump_header (&d, source);
      break;
    case MSHED_TABLE_NODES:
      /* other record sizes as bytes; a model without Res1 has no rows at all */
      if (!mshed_model_has_node_records (source->model) &&
          mshed_model_get_resource (source->model, 1) != NULL)
        {
          dump_raw_nodes (&d, source, first, last);
          break;
        }
      G_GNUC_FALLTHROUGH;
    default:
      dump_fixed (&d, source, info, first, last);
      break;
    }
  return MSHED_CLI_EXIT_OK;
}
