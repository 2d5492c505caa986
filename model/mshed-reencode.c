/* mshed-reencode.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-reencode"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-reencode.h"
#include "mshed-source.h"

/* Res10 records are variable: a length word, the text and its terminator (docs/msh.md §4.10). */
static const MshedField name_len_field = {
  "len", 0, MSHED_FIELD_U32, MSHED_FIELD_FLAG_NONE, MSHED_TABLE_NONE, 0, NULL
};
static const char name_text_field[] = "text";
static const char name_nul_field[] = "nul";

static const char *const nres_header_fields[] = { "magic", "version", "entry_count", "total_size" };

/* Faults ----------------------------------------------------------------------------------- */

static gboolean
fault_hits (const MshedReencodeFault *fault,
            MshedTableId              table,
            guint                     row,
            const char               *field)
{
  return fault != NULL && fault->table == table && fault->row == row &&
         g_ascii_strcasecmp (fault->field, field) == 0;
}

/**
 * mshed_reencode_fault_parse:
 * @text: TABLE[ROW].FIELD or TABLE.FIELD (row 0) with the table and field names of
 *   `mshed-cli dump`, e.g. "slots[3].aabbMinX", "header.capR", "names[2].text"
 *
 * Returns: FALSE with a message when the table or field does not exist
 */
gboolean
mshed_reencode_fault_parse (const char          *text,
                            MshedReencodeFault  *fault,
                            GError             **error)
{
  g_autofree char *table_name = NULL;
  const MshedTableInfo *table;
  const char *dot = strrchr (text, '.');
  const char *bracket = strchr (text, '[');
  const char *field = dot ? dot + 1 : "";
  guint64 row = 0;

  fault->table = MSHED_TABLE_NONE;
  if (bracket && dot && bracket < dot)
    {
      char *end = NULL;

      table_name = g_strndup (text, (gsize) (bracket - text));
      row = g_ascii_strtoull (bracket + 1, &end, 10);
      if (end == bracket + 1 || end + 1 != dot || *end != ']' || row > G_MAXUINT)
        table_name[0] = '\0';
    }
  else if (dot)
    table_name = g_strndup (text, (gsize) (dot - text));
  table = table_name ? mshed_schema_find_table (table_name) : NULL;
  if (table != NULL && table->id == MSHED_TABLE_NAMES)
    {
      static const char *const names[] = { "len", name_text_field, name_nul_field };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_ascii_strcasecmp (field, names[i]) == 0)
          {
            *fault = (MshedReencodeFault) { MSHED_TABLE_NAMES, (guint) row, names[i] };
            return TRUE;
          }
    }
  else if (table != NULL && table->id != MSHED_TABLE_DIRECTORY)
    {
      const MshedField *f = mshed_schema_find_field (table, field);

      if (f != NULL)
        {
          *fault = (MshedReencodeFault) { table->id, (guint) row, f->name };
          return TRUE;
        }
    }
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
               _("“%s” names no field of a table (expected TABLE[ROW].FIELD, e.g. "
                 "slots[3].aabbMinX)"), text);
  return FALSE;
}

/* Encoding ----------------------------------------------------------------------------------- */

/* Appends the records of @table that lie whole in data[@start, @size), at most @max_rows,
 * each decoded field by field and written into fresh zeroed bytes. Returns where the last
 * whole record ends. */
static gsize
encode_records (GByteArray               *out,
                const MshedTableInfo     *table,
                const guint8             *data,
                gsize                     start,
                gsize                     size,
                guint                     max_rows,
                const MshedReencodeFault *fault)
{
  gsize pos = start;

  for (guint row = 0; row < max_rows && mshed_range_ok (pos, table->stride, size); row++)
    {
      guint8 *record;

      g_byte_array_set_size (out, out->len + table->stride);
      record = out->data + out->len - table->stride;
      memset (record, 0, table->stride);
      for (guint f = 0; f < table->n_fields; f++)
        {
          const MshedField *field = &table->fields[f];

          mshed_field_write (field, record, mshed_field_read (field, data + pos));
          if (fault_hits (fault, table->id, row, field->name))
            record[field->offset] ^= 1;
        }
      pos += table->stride;
    }
  return pos;
}

/* Res10: every walkable record as length, text and terminator. The text goes to UTF-8 and
 * back through the codec of the rename command; text with bytes that have no character
 * (shown as \xNN) is copied. Returns where the last walked record ends. */
static gsize
encode_names (GByteArray               *out,
              MshedModel               *model,
              const guint8             *data,
              const MshedReencodeFault *fault)
{
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NAMES);
  gsize pos = 0;

  for (guint row = 0; row < n; row++)
    {
      const guint8 *text;
      guint32 len;
      guint8 word[4] = { 0 };
      gsize at;

      if (!mshed_model_get_name_raw (model, row, &text, &len))
        g_assert_not_reached ();  /* every row below n was walked */
      pos = mshed_model_get_name_record_offset (model, row);
      mshed_field_write (&name_len_field, word, mshed_field_read (&name_len_field, data + pos));
      if (fault_hits (fault, MSHED_TABLE_NAMES, row, name_len_field.name))
        word[0] ^= 1;
      g_byte_array_append (out, word, 4);
      pos += 4;
      if (len == 0)
        continue;

      at = out->len;
      {
        gboolean lossless = FALSE;
        g_autofree char *utf8 = mshed_cp1251_to_utf8 (text, len, &lossless);
        g_autoptr(GBytes) encoded = lossless ? mshed_utf8_to_cp1251 (utf8, NULL) : NULL;

        if (encoded != NULL)
          g_byte_array_append (out, g_bytes_get_data (encoded, NULL),
                               (guint) g_bytes_get_size (encoded));
        else
          g_byte_array_append (out, text, len);
      }
      if (fault_hits (fault, MSHED_TABLE_NAMES, row, name_text_field) && out->len > at)
        out->data[at] ^= 1;
      g_byte_array_append (out, text + len, 1);
      if (fault_hits (fault, MSHED_TABLE_NAMES, row, name_nul_field))
        out->data[out->len - 1] ^= 1;
      pos += (gsize) len + 1;
    }
  return pos;
}

/**
 * mshed_reencode_resource:
 * @index: a directory index of the model's container
 * @fault: (nullable): a planted encoder bug (tests)
 *
 * Returns: (transfer full): the resource's payload encoded afresh from its decoded fields,
 *   or a copy when it is not a typed table of the model
 */
GBytes *
mshed_reencode_resource (MshedModel               *model,
                         guint                     index,
                         const MshedReencodeFault *fault)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (mshed_model_get_nres (model), index);
  const MshedTableInfo *table = mshed_schema_table_for_type (e->type_id);
  g_autoptr(GByteArray) out = NULL;
  const guint8 *data;
  gsize size, pos;

  g_return_val_if_fail (e != NULL, NULL);
  data = mshed_nres_entry_get_data (e, &size);
  /* only the resource the model reads for its type is a table; a duplicate is opaque */
  if (table == NULL || mshed_model_find_resource (model, e->type_id) != (gint) index ||
      (e->type_id == 1 && !mshed_model_has_node_records (model)) ||
      (e->type_id == 2 && size < MSHED_RES2_HEADER_SIZE))
    return mshed_nres_entry_dup_bytes (e);

  out = g_byte_array_sized_new ((guint) size);
  if (table->id == MSHED_TABLE_NAMES)
    pos = encode_names (out, model, data, fault);
  else if (table->id == MSHED_TABLE_SLOTS)
    {
      encode_records (out, mshed_schema_get_table (MSHED_TABLE_HEADER), data, 0, size, 1, fault);
      pos = encode_records (out, table, data, table->header_size, size, G_MAXUINT, fault);
    }
  else
    pos = encode_records (out, table, data, table->header_size, size, G_MAXUINT, fault);
  /* bytes after the last whole record: no record to decode them into */
  g_byte_array_append (out, data + pos, (guint) (size - pos));
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/**
 * mshed_reencode_model:
 *
 * Returns: (transfer full): the model's container written by the NRes writer with every
 *   payload encoded afresh (mshed_reencode_resource)
 */
GBytes *
mshed_reencode_model (MshedModel               *model,
                      const MshedReencodeFault *fault)
{
  g_autoptr(MshedNres) copy = mshed_nres_copy (mshed_model_get_nres (model));

  for (guint i = 0; i < mshed_nres_get_n_entries (copy); i++)
    {
      g_autoptr(GBytes) payload = mshed_reencode_resource (model, i, fault);

      mshed_nres_set_payload (copy, i, payload);
    }
  return mshed_nres_serialize (copy, NULL);
}

static gboolean
has_nres_magic (GBytes *bytes)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  return size >= 4 && mshed_read_u32 (data) == MSHED_NRES_MAGIC;
}

/* A nested model of an archive, opened tolerantly, or NULL (then the entry is opaque). */
static MshedModel *
open_nested_model (const MshedNresEntry *e,
                   GBytes              **payload)
{
  g_autoptr(MshedNres) inner = NULL;

  *payload = NULL;
  if (!mshed_entry_is_model_name (e))
    return NULL;
  *payload = mshed_nres_entry_dup_bytes (e);
  if (!has_nres_magic (*payload))
    return NULL;
  inner = mshed_nres_parse (*payload, MSHED_MODE_TOLERANT, NULL, NULL);
  if (inner == NULL || !mshed_nres_looks_like_model (inner))
    return NULL;
  return mshed_model_new (inner, MSHED_MODE_TOLERANT, NULL, NULL);
}

/**
 * mshed_reencode_bytes:
 * @bytes: an NRes file: a model, or an archive
 * @nested: TRUE for the payload of an archive entry (nested archives are not followed)
 * @fault: (nullable): a planted encoder bug (tests)
 *
 * Decodes @bytes tolerantly and writes them again: a model with mshed_reencode_model; an
 * archive with every *.msh entry that holds a model re-encoded the same way and every other
 * entry copied (and written again by the NRes writer).
 *
 * Returns: (transfer full) (nullable): the bytes, or NULL when @bytes is not an NRes file
 */
GBytes *
mshed_reencode_bytes (GBytes                   *bytes,
                      gboolean                  nested,
                      const MshedReencodeFault *fault,
                      GError                  **error)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, NULL, error);

  if (nres == NULL)
    return NULL;
  if (mshed_nres_looks_like_model (nres))
    {
      g_autoptr(MshedModel) model = mshed_model_new (nres, MSHED_MODE_TOLERANT, NULL, error);

      return model ? mshed_reencode_model (model, fault) : NULL;
    }
  for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
    {
      g_autoptr(GBytes) payload = NULL;
      g_autoptr(MshedModel) model = NULL;

      if (!nested)
        model = open_nested_model (mshed_nres_peek_entry (nres, i), &payload);
      if (model != NULL)
        {
          g_autoptr(GBytes) inner = mshed_reencode_model (model, fault);

          mshed_nres_set_payload (nres, i, inner);
        }
      else
        mshed_nres_touch (nres, i);
    }
  return mshed_nres_serialize (nres, NULL);
}

/* Locating a byte -------------------------------------------------------------------------- */

static const char *
field_at (const MshedTableInfo *table,
          guint                 byte)
{
  for (guint f = 0; f < table->n_fields; f++)
    {
      const MshedField *field = &table->fields[f];

      if (byte >= field->offset && byte < field->offset + mshed_field_type_size (field->type))
        return field->name;
    }
  return NULL;
}

/* "Res2 slots", or "Res15" where the table is only named after its resource. */
static char *
table_label (guint32               type_id,
             const MshedTableInfo *table)
{
  if (g_str_has_prefix (table->name, "res"))
    return g_strdup_printf ("Res%u", type_id);
  return g_strdup_printf ("Res%u %s", type_id, table->name);
}

/* Where @k (an offset in the payload of resource @index of @model) lies. */
static char *
locate_in_model (MshedModel *model,
                 guint       index,
                 gsize       k)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (mshed_model_get_nres (model), index);
  const MshedTableInfo *table = mshed_schema_table_for_type (e->type_id);
  gsize size = mshed_nres_entry_get_size (e);
  g_autofree char *name = mshed_nres_entry_dup_name (e);
  g_autofree char *label = NULL;
  guint n_rows, row;
  const char *field;

  if (table == NULL || mshed_model_find_resource (model, e->type_id) != (gint) index ||
      (e->type_id == 1 && !mshed_model_has_node_records (model)) ||
      (e->type_id == 2 && size < MSHED_RES2_HEADER_SIZE))
    return g_strdup_printf (_("entry %u “%s” (type %u, not a table), byte %zu of its payload"),
                            index, name, e->type_id, k);

  if (table->id == MSHED_TABLE_SLOTS && k < table->header_size)
    table = mshed_schema_get_table (MSHED_TABLE_HEADER);
  label = table_label (e->type_id, table);
  if (table->id == MSHED_TABLE_NAMES)
    {
      n_rows = mshed_model_get_n_rows (model, MSHED_TABLE_NAMES);
      for (row = n_rows; row-- > 0;)
        {
          gsize start = mshed_model_get_name_record_offset (model, row);
          const guint8 *text;
          guint32 len;

          if (k < start)
            continue;
          if (!mshed_model_get_name_raw (model, row, &text, &len))
            g_assert_not_reached ();
          if (k - start < 4)
            field = name_len_field.name;
          else if (len > 0 && k - start < 4 + (gsize) len)
            field = name_text_field;
          else if (len > 0 && k - start == 4 + (gsize) len)
            field = name_nul_field;
          else
            break;
          return g_strdup_printf (_("%s record %u, field %s"), label, row, field);
        }
      return g_strdup_printf (_("Res%u, byte %zu, after the last whole record"),
                              e->type_id, k);
    }

  if (table->id == MSHED_TABLE_HEADER)
    {
      field = field_at (table, (guint) k);
      if (field)
        return g_strdup_printf (_("%s, field %s"), label, field);
      return g_strdup_printf (_("%s, byte %zu (no field of the schema covers it)"), label, k);
    }
  n_rows = mshed_model_get_n_rows (model, table->id);
  row = (guint) ((k - table->header_size) / table->stride);
  if (row >= n_rows)
    return g_strdup_printf (_("Res%u, byte %zu, after the last whole record"), e->type_id, k);
  k = (k - table->header_size) % table->stride;
  field = field_at (table, (guint) k);
  if (field)
    return g_strdup_printf (_("%s record %u, field %s"), label, row, field);
  return g_strdup_printf (_("%s record %u, byte %zu (no field of the schema covers it)"),
                          label, row, k);
}

/**
 * mshed_reencode_locate:
 * @bytes: the file as read (as given to mshed_reencode_bytes)
 * @offset: a byte offset in @bytes
 *
 * Returns: (transfer full) (nullable): what the byte at @offset belongs to, translated, for
 *   example "Res2 slots record 3, field aabbMinX" or "entry “TANK.msh”: Res3 vertices record
 *   17, field y"; NULL when @bytes is not an NRes file or @offset lies outside it
 */
char *
mshed_reencode_locate (GBytes   *bytes,
                       gboolean  nested,
                       guint64   offset)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
  g_autoptr(MshedModel) model = NULL;
  guint64 dir;
  guint n;

  if (nres == NULL || offset >= g_bytes_get_size (bytes))
    return NULL;
  if (offset < MSHED_NRES_HEADER_SIZE)
    return g_strdup_printf (_("the NRes header, field %s"), nres_header_fields[offset / 4]);

  n = mshed_nres_get_n_entries (nres);
  dir = mshed_nres_get_directory_offset (nres);
  if (offset >= dir && offset < dir + (guint64) n * MSHED_NRES_RECORD_SIZE)
    {
      guint row = (guint) ((offset - dir) / MSHED_NRES_RECORD_SIZE);
      guint byte = (guint) ((offset - dir) % MSHED_NRES_RECORD_SIZE);
      const char *field = field_at (mshed_schema_get_table (MSHED_TABLE_DIRECTORY), byte);
      g_autofree char *name = mshed_nres_entry_dup_name (mshed_nres_peek_entry (nres, row));

      return g_strdup_printf (_("NRes directory record %u (“%s”), field %s"), row, name,
                              field ? field : "name");
    }

  if (mshed_nres_looks_like_model (nres))
    model = mshed_model_new (nres, MSHED_MODE_TOLERANT, NULL, NULL);
  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      gsize size = mshed_nres_entry_get_size (e);
      g_autofree char *name = NULL;
      g_autoptr(GBytes) payload = NULL;
      g_autoptr(MshedModel) inner = NULL;

      if (offset < e->data_offset || offset >= (guint64) e->data_offset + size)
        continue;
      if (model != NULL)
        return locate_in_model (model, i, (gsize) (offset - e->data_offset));
      name = mshed_nres_entry_dup_name (e);
      if (!nested)
        inner = open_nested_model (e, &payload);
      if (inner != NULL)
        {
          g_autofree char *where = mshed_reencode_locate (payload, TRUE, offset - e->data_offset);

          return g_strdup_printf (_("entry “%s”: %s"), name, where);
        }
      return g_strdup_printf (_("entry %u “%s”, byte %zu of its payload"),
                              i, name, (gsize) (offset - e->data_offset));
    }
  return g_strdup (_("padding between payloads"));
}
