/* mshed-nres.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-nres"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-nres-private.h"
#include "mshed-validate.h"

G_DEFINE_BOXED_TYPE (MshedNres, mshed_nres, mshed_nres_ref, mshed_nres_unref)

static void
entry_clear (gpointer data)
{
  MshedNresEntry *entry = data;

  g_clear_pointer (&entry->payload, g_bytes_unref);
  g_clear_pointer (&entry->owned, g_byte_array_unref);
}

static void
note_removed (MshedNres            *self,
              const MshedNresEntry *e)
{
  MshedNresBlock b = { e->orig_offset, e->orig_size };

  if (!e->in_source)
    return;
  if (self->removed == NULL)
    self->removed = g_array_new (FALSE, FALSE, sizeof (MshedNresBlock));
  g_array_append_val (self->removed, b);
}

static MshedNres *
nres_alloc (void)
{
  MshedNres *self = g_new0 (MshedNres, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->version = MSHED_NRES_VERSION;
  self->entries = g_array_new (FALSE, TRUE, sizeof (MshedNresEntry));
  g_array_set_clear_func (self->entries, entry_clear);
  self->canonical = TRUE;
  self->sort_valid = TRUE;
  return self;
}

/**
 * mshed_nres_new:
 *
 * Returns: (transfer full): an empty archive (16 bytes when serialised).
 */
MshedNres *
mshed_nres_new (void)
{
  MshedNres *self = nres_alloc ();

  self->modified = TRUE;
  self->structure_changed = TRUE;
  return self;
}

MshedNres *
mshed_nres_ref (MshedNres *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
mshed_nres_unref (MshedNres *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_pointer (&self->source, g_bytes_unref);
      g_array_unref (self->entries);
      g_clear_pointer (&self->removed, g_array_unref);
      g_free (self);
    }
}

/**
 * mshed_nres_copy:
 *
 * Returns: (transfer full): an independent copy; unedited payloads are shared, not copied.
 */
MshedNres *
mshed_nres_copy (const MshedNres *self)
{
  MshedNres *copy = nres_alloc ();

  copy->source = self->source ? g_bytes_ref (self->source) : NULL;
  copy->version = self->version;
  copy->canonical = self->canonical;
  copy->sort_valid = self->sort_valid;
  copy->modified = self->modified;
  copy->structure_changed = self->structure_changed;
  if (self->removed)
    {
      copy->removed = g_array_new (FALSE, FALSE, sizeof (MshedNresBlock));
      g_array_append_vals (copy->removed, self->removed->data, self->removed->len);
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      MshedNresEntry e = g_array_index (self->entries, MshedNresEntry, i);

      if (e.payload)
        e.payload = g_bytes_ref (e.payload);
      if (e.owned)
        {
          GByteArray *dup = g_byte_array_sized_new (e.owned->len);
          g_byte_array_append (dup, e.owned->data, e.owned->len);
          e.owned = dup;
        }
      g_array_append_val (copy->entries, e);
    }
  return copy;
}

/* Name helpers --------------------------------------------------------------------------- */

static inline guint8
fold (guint8 c)
{
  return (c >= 0x41 && c <= 0x5A) ? (guint8) (c + 0x20) : c;
}

/**
 * mshed_nres_name_compare:
 * @a: a 36-byte name field
 * @b: a 36-byte name field
 *
 * Compares the significant names with the engine's ASCII lower-case fold and unsigned byte
 * order (docs/nres.md §5.2). A field without a terminator is compared over all 36 bytes.
 */
int
mshed_nres_name_compare (const guint8 *a,
                         const guint8 *b)
{
  for (guint i = 0; i < MSHED_NRES_NAME_SIZE; i++)
    {
      guint8 ca = fold (a[i]);
      guint8 cb = fold (b[i]);

      if (ca != cb)
        return ca < cb ? -1 : 1;
      if (ca == 0)
        return 0;
    }
  return 0;
}

static gsize
name_len (const guint8 *name)
{
  const guint8 *nul = memchr (name, 0, MSHED_NRES_NAME_SIZE);

  return nul ? (gsize) (nul - name) : MSHED_NRES_NAME_SIZE;
}

char *
mshed_nres_entry_dup_name (const MshedNresEntry *entry)
{
  return g_strndup ((const char *) entry->name, name_len (entry->name));
}

/* Parsing -------------------------------------------------------------------------------- */

#define CONTAINER G_MAXUINT32

static MshedNres *
parse_fail (MshedDiagnostics *diags,
            GError          **error,
            MshedModelError   code,
            MshedCheck        check,
            gint              res_index,
            const char       *field,
            guint64           offset,
            char             *message)
{
  if (diags)
    mshed_diagnostics_add (diags, MSHED_SEVERITY_ERROR, check, CONTAINER, res_index,
                           MSHED_TABLE_DIRECTORY, res_index, field, offset, "%s", message);
  g_set_error_literal (error, MSHED_MODEL_ERROR, code, message);
  g_free (message);
  return NULL;
}

/**
 * mshed_nres_parse:
 * @bytes: the archive bytes (kept referenced; payloads are slices of it)
 * @mode: strict rejects every rule of docs/nres.md §8 (1–6); tolerant rejects only 1–5 minus what
 *   can be read safely, and reports the rest as errors all the same (with how it read on)
 * @diags: (nullable): receives the findings
 * @error: a #MSHED_MODEL_ERROR naming the field that made the archive unreadable
 *
 * Returns: (transfer full) (nullable): the archive
 */
MshedNres *
mshed_nres_parse (GBytes            *bytes,
                  MshedMode          mode,
                  MshedDiagnostics  *diags,
                  GError           **error)
{
  g_autoptr(MshedNres) self = NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gint32 count;
  guint32 total_size, version;
  guint64 dir_bytes, dir_offset;
  /* one classification (as in mshed_validate_model): a strict violation is an error in
   * tolerant mode too; tolerant mode only reads on and says how */
  MshedSeverity soft = MSHED_SEVERITY_ERROR;
  gboolean tolerant = mode == MSHED_MODE_TOLERANT;
  gboolean failed_soft = FALSE;
  g_autofree guint8 *seen = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);

  if (len < MSHED_NRES_HEADER_SIZE)
    return parse_fail (diags, error, MSHED_MODEL_ERROR_TRUNCATED, MSHED_CHECK_NRES_TOO_SHORT,
                       -1, "header", 0,
                       g_strdup_printf (_("NRes header: the data is %zu bytes long, shorter than "
                                          "the 16-byte header"), len));

  if (memcmp (data, "NL\0\1", 4) == 0)
    return parse_fail (diags, error, MSHED_MODEL_ERROR_UNSUPPORTED, MSHED_CHECK_NRES_RSLI,
                       -1, "magic", 0,
                       g_strdup (_("NRes header: this is an RsLi library (magic “NL”), which "
                                   "holds no models and is not supported")));

  if (mshed_read_u32 (data) != MSHED_NRES_MAGIC)
    return parse_fail (diags, error, MSHED_MODEL_ERROR_BAD_MAGIC, MSHED_CHECK_NRES_MAGIC,
                       -1, "magic", 0,
                       g_strdup_printf (_("NRes header, field magic: expected “NRes”, found "
                                          "bytes %02X %02X %02X %02X"),
                                        data[0], data[1], data[2], data[3]));

  version = mshed_read_u32 (data + 4);
  count = mshed_read_i32 (data + 8);
  total_size = mshed_read_u32 (data + 12);

  if (version != MSHED_NRES_VERSION)
    {
      if (mode == MSHED_MODE_STRICT)
        return parse_fail (diags, error, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_NRES_VERSION,
                           -1, "version", 4,
                           g_strdup_printf (_("NRes header, field version: expected 0x100, "
                                              "found 0x%X"), version));
      if (diags)
        mshed_diagnostics_add (diags, soft, MSHED_CHECK_NRES_VERSION,
                               CONTAINER, -1, MSHED_TABLE_DIRECTORY, -1, "version", 4,
                               _("NRes header, field version: expected 0x100, found 0x%X; "
                                 "read anyway"),
                               version);
    }

  if (count < 0)
    return parse_fail (diags, error, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_NRES_COUNT,
                       -1, "entry_count", 8,
                       g_strdup_printf (_("NRes header, field entry_count: %d is negative"),
                                        count));

  if (total_size != len)
    {
      if (total_size > len || mode == MSHED_MODE_STRICT)
        return parse_fail (diags, error,
                           total_size > len ? MSHED_MODEL_ERROR_TRUNCATED
                                            : MSHED_MODEL_ERROR_CONTAINER,
                           MSHED_CHECK_NRES_TOTAL_SIZE, -1, "total_size", 12,
                           g_strdup_printf (_("NRes header, field total_size: says %u bytes, "
                                              "but the data is %zu bytes"),
                                            total_size, len));
      if (diags)
        mshed_diagnostics_add (diags, soft, MSHED_CHECK_NRES_TOTAL_SIZE,
                               CONTAINER, -1, MSHED_TABLE_DIRECTORY, -1, "total_size", 12,
                               _("NRes header, field total_size: says %u bytes, but the data "
                                 "is %zu bytes; the %zu bytes after it are ignored"),
                               total_size, len, len - total_size);
    }

  dir_bytes = (guint64) (guint32) count * MSHED_NRES_RECORD_SIZE;
  if (dir_bytes > total_size || total_size - dir_bytes < MSHED_NRES_HEADER_SIZE)
    return parse_fail (diags, error, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_NRES_DIRECTORY,
                       -1, "entry_count", 8,
                       g_strdup_printf (_("NRes header: %d directory records of 64 bytes do not "
                                          "fit in %u bytes after the 16-byte header"),
                                        count, total_size));
  dir_offset = total_size - dir_bytes;

  self = nres_alloc ();
  self->source = g_bytes_ref (bytes);
  self->version = version;
  g_array_set_size (self->entries, (guint) count);
  seen = g_malloc0 ((gsize) count + 1);

  for (gint32 i = 0; i < count; i++)
    {
      MshedNresEntry *e = &g_array_index (self->entries, MshedNresEntry, i);
      const guint8 *rec = data + dir_offset + (guint64) i * MSHED_NRES_RECORD_SIZE;
      guint64 rec_off = dir_offset + (guint64) i * MSHED_NRES_RECORD_SIZE;
      guint32 size;

      e->type_id = mshed_read_u32 (rec + 0);
      e->attr1 = mshed_read_u32 (rec + 4);
      e->attr2 = mshed_read_u32 (rec + 8);
      size = mshed_read_u32 (rec + 12);
      e->attr3 = mshed_read_u32 (rec + 16);
      memcpy (e->name, rec + 20, MSHED_NRES_NAME_SIZE);
      e->data_offset = mshed_read_u32 (rec + 56);
      e->sort_index = mshed_read_u32 (rec + 60);
      e->orig_offset = e->data_offset;
      e->orig_size = size;
      e->in_source = TRUE;

      if (memchr (e->name, 0, MSHED_NRES_NAME_SIZE) == NULL)
        {
          if (diags)
            mshed_diagnostics_add (diags, soft, MSHED_CHECK_NRES_NAME_NUL, CONTAINER, i,
                                   MSHED_TABLE_DIRECTORY, i, "name", rec_off + 20,
                                   tolerant ? _("NRes directory record %d, field name: the "
                                                "36-byte name has no terminating NUL; all 36 "
                                                "bytes are read as the name")
                                            : _("NRes directory record %d, field name: the "
                                                "36-byte name has no terminating NUL"), i);
          failed_soft = TRUE;
        }
      else
        {
          const guint8 *nul = memchr (e->name, 0, MSHED_NRES_NAME_SIZE);
          gboolean tail_zero = TRUE;

          for (const guint8 *p = nul; p < e->name + MSHED_NRES_NAME_SIZE; p++)
            tail_zero &= (*p == 0);
          if (!tail_zero && diags)
            mshed_diagnostics_add (diags, MSHED_SEVERITY_INFO, MSHED_CHECK_NRES_NAME_TAIL,
                                   CONTAINER, i, MSHED_TABLE_DIRECTORY, i, "name",
                                   rec_off + 20,
                                   _("NRes directory record %d, field name: bytes after the "
                                     "terminator are not zero (kept as they are)"), i);
        }

      if (e->data_offset < MSHED_NRES_HEADER_SIZE)
        return parse_fail (diags, error, MSHED_MODEL_ERROR_CONTAINER,
                           MSHED_CHECK_NRES_DATA_OFFSET, i, "data_offset", rec_off + 56,
                           g_strdup_printf (_("NRes directory record %d, field data_offset: %u "
                                              "points into the 16-byte header"),
                                            i, e->data_offset));
      if (!mshed_range_ok (e->data_offset, size, dir_offset))
        return parse_fail (diags, error, MSHED_MODEL_ERROR_CONTAINER,
                           MSHED_CHECK_NRES_DATA_RANGE, i, "size", rec_off + 12,
                           g_strdup_printf (_("NRes directory record %d: payload %u..%" PRIu64
                                              " (data_offset %u, size %u) runs past the "
                                              "directory at %" PRIu64),
                                            i, e->data_offset,
                                            (guint64) e->data_offset + size,
                                            e->data_offset, size, dir_offset));

      e->payload = g_bytes_new_from_bytes (bytes, e->data_offset, size);

      if (e->sort_index >= (guint32) count)
        {
          if (diags)
            mshed_diagnostics_add (diags, soft, MSHED_CHECK_NRES_SORT_RANGE, CONTAINER, i,
                                   MSHED_TABLE_DIRECTORY, i, "sort_index", rec_off + 60,
                                   tolerant ? _("NRes directory record %d, field "
                                                "sort_index: %u is not below the entry count "
                                                "%d; names are looked up by a linear scan")
                                            : _("NRes directory record %d, field "
                                                "sort_index: %u is not below the entry count "
                                                "%d"), i, e->sort_index, count);
          self->sort_valid = FALSE;
          failed_soft = TRUE;
        }
      else if (seen[e->sort_index]++)
        {
          if (diags)
            mshed_diagnostics_add (diags, soft, MSHED_CHECK_NRES_SORT_PERMUTATION, CONTAINER,
                                   i, MSHED_TABLE_DIRECTORY, i, "sort_index", rec_off + 60,
                                   tolerant ? _("NRes directory record %d, field "
                                                "sort_index: %u repeats an earlier record, so "
                                                "the values are not a permutation; names are "
                                                "looked up by a linear scan")
                                            : _("NRes directory record %d, field "
                                                "sort_index: %u repeats an earlier record, so "
                                                "the values are not a permutation"),
                                   i, e->sort_index);
          self->sort_valid = FALSE;
          failed_soft = TRUE;
        }
    }

  if (failed_soft && mode == MSHED_MODE_STRICT)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_CONTAINER,
                   _("The NRes directory violates the format (see the listed problems)"));
      return NULL;
    }

  /* Canonical predicate, docs/nres.md §7.3 */
  {
    guint64 pos = MSHED_NRES_HEADER_SIZE;
    gboolean canonical = version == MSHED_NRES_VERSION && total_size == len && self->sort_valid;

    for (guint i = 0; canonical && i < self->entries->len; i++)
      {
        const MshedNresEntry *e = &g_array_index (self->entries, MshedNresEntry, i);
        guint64 end = (guint64) e->data_offset + e->orig_size;
        guint64 padded = (end + 7) & ~(guint64) 7;

        if (e->data_offset != pos)
          canonical = FALSE;
        for (guint64 p = end; canonical && p < padded; p++)
          if (p >= dir_offset || data[p] != 0)
            canonical = FALSE;
        pos = padded;
      }
    if (canonical && pos != dir_offset)
      canonical = FALSE;
    if (canonical)
      {
        g_autofree guint32 *table = g_new (guint32, self->entries->len + 1);

        mshed_nres_compute_sort_table (self, table);
        for (guint i = 0; i < self->entries->len; i++)
          if (g_array_index (self->entries, MshedNresEntry, i).sort_index != table[i])
            canonical = FALSE;
      }
    self->canonical = canonical;
  }

  if (diags)
    mshed_validate_nres_layout (self, diags);

  return g_steal_pointer (&self);
}

/* Accessors ------------------------------------------------------------------------------ */

guint
mshed_nres_get_n_entries (const MshedNres *self)
{
  return self->entries->len;
}

MshedNresEntry *
mshed_nres_get_entry (MshedNres *self,
                      guint      index)
{
  g_return_val_if_fail (index < self->entries->len, NULL);
  return &g_array_index (self->entries, MshedNresEntry, index);
}

const MshedNresEntry *
mshed_nres_peek_entry (const MshedNres *self,
                       guint            index)
{
  g_return_val_if_fail (index < self->entries->len, NULL);
  return &g_array_index (self->entries, MshedNresEntry, index);
}

guint32
mshed_nres_get_version (const MshedNres *self)
{
  return self->version;
}

/**
 * mshed_nres_get_source:
 *
 * Returns: (transfer none) (nullable): the bytes the archive was parsed from
 */
GBytes *
mshed_nres_get_source (const MshedNres *self)
{
  return self->source;
}

gboolean
mshed_nres_is_canonical (const MshedNres *self)
{
  return self->canonical;
}

gboolean
mshed_nres_is_modified (const MshedNres *self)
{
  return self->modified;
}

gint
mshed_nres_find_type (const MshedNres *self,
                      guint32          type_id)
{
  for (guint i = 0; i < self->entries->len; i++)
    if (g_array_index (self->entries, MshedNresEntry, i).type_id == type_id)
      return (gint) i;
  return -1;
}

/**
 * mshed_nres_lookup_name:
 *
 * The engine's lookup (docs/nres.md §5.3) over the stored sort table, falling back to a linear
 * case-insensitive scan when the table is unusable or the search misses.
 *
 * Returns: the directory index, or -1
 */
gint
mshed_nres_lookup_name (const MshedNres *self,
                        const char      *name)
{
  guint8 key[MSHED_NRES_NAME_SIZE] = { 0 };
  guint n = self->entries->len;

  strncpy ((char *) key, name, MSHED_NRES_NAME_SIZE - 1);

  if (self->sort_valid && !self->structure_changed)
    {
      guint lo = 0, hi = n;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          guint32 t = g_array_index (self->entries, MshedNresEntry, mid).sort_index;
          int c;

          if (t >= n)
            break;
          c = mshed_nres_name_compare (key, g_array_index (self->entries, MshedNresEntry, t).name);
          if (c < 0)
            hi = mid;
          else if (c > 0)
            lo = mid + 1;
          else
            return (gint) t;
        }
    }

  for (guint i = 0; i < n; i++)
    if (mshed_nres_name_compare (key, g_array_index (self->entries, MshedNresEntry, i).name) == 0)
      return (gint) i;
  return -1;
}

const guint8 *
mshed_nres_entry_get_data (const MshedNresEntry *entry,
                           gsize                *size)
{
  if (entry->owned)
    {
      if (size)
        *size = entry->owned->len;
      return entry->owned->data;
    }
  if (entry->payload)
    return g_bytes_get_data (entry->payload, size);
  if (size)
    *size = 0;
  return NULL;
}

gsize
mshed_nres_entry_get_size (const MshedNresEntry *entry)
{
  if (entry->owned)
    return entry->owned->len;
  return entry->payload ? g_bytes_get_size (entry->payload) : 0;
}

/**
 * mshed_nres_entry_dup_bytes:
 *
 * Returns: (transfer full): the current payload
 */
GBytes *
mshed_nres_entry_dup_bytes (const MshedNresEntry *entry)
{
  if (entry->owned)
    return g_bytes_new (entry->owned->data, entry->owned->len);
  return entry->payload ? g_bytes_ref (entry->payload) : g_bytes_new (NULL, 0);
}

/* Mutation ------------------------------------------------------------------------------- */

/**
 * mshed_nres_entry_make_mutable:
 *
 * Gives the entry a private copy of its payload (once) and marks it touched.
 *
 * Returns: (transfer none): the writable payload bytes, valid until the next size change
 */
guint8 *
mshed_nres_entry_make_mutable (MshedNres *self,
                               guint      index)
{
  MshedNresEntry *e = mshed_nres_get_entry (self, index);

  g_return_val_if_fail (e != NULL, NULL);
  if (e->owned == NULL)
    {
      gsize size = 0;
      const guint8 *data = e->payload ? g_bytes_get_data (e->payload, &size) : NULL;

      e->owned = g_byte_array_sized_new ((guint) size);
      if (size)
        g_byte_array_append (e->owned, data, (guint) size);
      g_clear_pointer (&e->payload, g_bytes_unref);
    }
  e->touched = TRUE;
  self->modified = TRUE;
  return e->owned->data;
}

/**
 * mshed_nres_entry_splice:
 *
 * Replaces @remove_len bytes at @offset of the payload with @insert_len bytes of @data.
 */
void
mshed_nres_entry_splice (MshedNres    *self,
                         guint         index,
                         gsize         offset,
                         gsize         remove_len,
                         const guint8 *data,
                         gsize         insert_len)
{
  MshedNresEntry *e;

  mshed_nres_entry_make_mutable (self, index);
  e = mshed_nres_get_entry (self, index);
  g_return_if_fail (mshed_range_ok (offset, remove_len, e->owned->len));

  if (remove_len == insert_len)
    {
      if (insert_len)
        memcpy (e->owned->data + offset, data, insert_len);
      return;
    }
  if (remove_len)
    g_byte_array_remove_range (e->owned, (guint) offset, (guint) remove_len);
  if (insert_len)
    {
      /* g_byte_array has no insert; grow, shift, copy */
      guint old = e->owned->len;

      g_byte_array_set_size (e->owned, old + (guint) insert_len);
      memmove (e->owned->data + offset + insert_len, e->owned->data + offset, old - offset);
      memcpy (e->owned->data + offset, data, insert_len);
    }
}

/**
 * mshed_nres_set_payload:
 * @payload: (transfer none): the new payload
 */
void
mshed_nres_set_payload (MshedNres *self,
                        guint      index,
                        GBytes    *payload)
{
  MshedNresEntry *e = mshed_nres_get_entry (self, index);

  g_return_if_fail (e != NULL);
  g_clear_pointer (&e->owned, g_byte_array_unref);
  g_clear_pointer (&e->payload, g_bytes_unref);
  e->payload = g_bytes_ref (payload);
  e->touched = TRUE;
  self->modified = TRUE;
}

void
mshed_nres_touch (MshedNres *self,
                  guint      index)
{
  MshedNresEntry *e = mshed_nres_get_entry (self, index);

  g_return_if_fail (e != NULL);
  e->touched = TRUE;
  self->modified = TRUE;
}

/**
 * mshed_nres_set_name:
 *
 * Sets the significant name (at most 35 bytes, no embedded NUL); the field is zero-filled.
 */
gboolean
mshed_nres_set_name (MshedNres  *self,
                     guint       index,
                     const char *name,
                     GError    **error)
{
  MshedNresEntry *e = mshed_nres_get_entry (self, index);
  gsize len = strlen (name);

  g_return_val_if_fail (e != NULL, FALSE);
  if (len > MSHED_NRES_NAME_SIZE - 1)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("NRes directory record %u, field name: “%s” is %zu bytes long; "
                     "at most 35 fit"),
                   index, name, len);
      return FALSE;
    }
  memset (e->name, 0, MSHED_NRES_NAME_SIZE);
  memcpy (e->name, name, len);
  e->touched = TRUE;
  self->modified = TRUE;
  self->structure_changed = TRUE;
  return TRUE;
}

/* An entry inserted with the bytes of an entry removed since load (an undone removal) takes
 * its place in the source back, so the lossless layout is the loaded one again. */
static void
reclaim_removed (MshedNres      *self,
                 MshedNresEntry *e)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (e->payload, &size);
  const guint8 *src;

  if (self->removed == NULL || self->source == NULL)
    return;
  src = g_bytes_get_data (self->source, NULL);
  for (guint i = self->removed->len; i-- > 0;)
    {
      const MshedNresBlock *b = &g_array_index (self->removed, MshedNresBlock, i);

      if (b->size == size && (size == 0 || memcmp (src + b->offset, data, size) == 0))
        {
          e->in_source = TRUE;
          e->orig_offset = (guint32) b->offset;
          e->orig_size = (guint32) size;
          g_array_remove_index (self->removed, i);
          return;
        }
    }
}

/**
 * mshed_nres_insert_entry:
 * @position: directory position, or G_MAXUINT to append
 * @templ: type, attributes and name to copy
 * @payload: (transfer none): the payload
 *
 * Returns: the directory index of the new entry
 */
guint
mshed_nres_insert_entry (MshedNres            *self,
                         guint                 position,
                         const MshedNresEntry *templ,
                         GBytes               *payload)
{
  MshedNresEntry e = { 0 };

  if (position > self->entries->len)
    position = self->entries->len;
  e.type_id = templ->type_id;
  e.attr1 = templ->attr1;
  e.attr2 = templ->attr2;
  e.attr3 = templ->attr3;
  memcpy (e.name, templ->name, MSHED_NRES_NAME_SIZE);
  e.payload = g_bytes_ref (payload);
  e.touched = TRUE;
  reclaim_removed (self, &e);
  g_array_insert_val (self->entries, position, e);
  self->modified = TRUE;
  self->structure_changed = TRUE;
  mshed_nres_layout (self);
  return position;
}

/**
 * mshed_nres_append_entry:
 * @name: (nullable): the entry name (at most 35 bytes); NULL names it "Res<type>"
 * @data: (array length=size): the payload, copied
 *
 * Returns: the directory index of the new last entry
 */
guint
mshed_nres_append_entry (MshedNres  *self,
                         guint32     type_id,
                         guint32     attr1,
                         guint32     attr2,
                         guint32     attr3,
                         const char *name,
                         const void *data,
                         gsize       size)
{
  MshedNresEntry e = { 0 };
  g_autoptr(GBytes) payload = g_bytes_new (data, size);

  e.type_id = type_id;
  e.attr1 = attr1;
  e.attr2 = attr2;
  e.attr3 = attr3;
  if (name)
    strncpy ((char *) e.name, name, MSHED_NRES_NAME_SIZE - 1);
  else
    g_snprintf ((char *) e.name, MSHED_NRES_NAME_SIZE, "Res%u", type_id);
  return mshed_nres_insert_entry (self, G_MAXUINT, &e, payload);
}

void
mshed_nres_remove_entry (MshedNres *self,
                         guint      index)
{
  g_return_if_fail (index < self->entries->len);
  note_removed (self, &g_array_index (self->entries, MshedNresEntry, index));
  g_array_remove_index (self->entries, index);
  self->modified = TRUE;
  self->structure_changed = TRUE;
  mshed_nres_layout (self);
}

/* Writing -------------------------------------------------------------------------------- */

static int
sort_cmp (gconstpointer a,
          gconstpointer b,
          gpointer      user_data)
{
  const MshedNres *self = user_data;
  guint32 ia = *(const guint32 *) a;
  guint32 ib = *(const guint32 *) b;
  int c = mshed_nres_name_compare (g_array_index (self->entries, MshedNresEntry, ia).name,
                                   g_array_index (self->entries, MshedNresEntry, ib).name);

  if (c != 0)
    return c;
  return ia < ib ? -1 : (ia > ib);  /* stable */
}

/**
 * mshed_nres_compute_sort_table:
 * @out: (array): receives n values: out[k] = directory index of the k-th name (docs/nres.md §5.2)
 */
void
mshed_nres_compute_sort_table (const MshedNres *self,
                               guint32         *out)
{
  for (guint i = 0; i < self->entries->len; i++)
    out[i] = i;
  g_qsort_with_data (out, (gint) self->entries->len, sizeof (guint32), sort_cmp, (gpointer) self);
}

/* An edited archive with a non-canonical source is laid out losslessly (mshed-nres-layout.c);
 * a new archive or one with a canonical source is rebuilt canonically (docs/nres.md §7.3). */
static gboolean
writes_lossless (const MshedNres *self)
{
  return self->source != NULL && !self->canonical;
}

/**
 * mshed_nres_layout:
 *
 * Updates every entry's data_offset to the position it will be written at: the stored one
 * when unmodified, the §7.1 canonical one for a canonical or new archive, the lossless one
 * (mshed-nres-layout.c) for a non-canonical source.
 */
void
mshed_nres_layout (MshedNres *self)
{
  guint64 pos = MSHED_NRES_HEADER_SIZE;

  if (!self->modified && self->source)
    {
      for (guint i = 0; i < self->entries->len; i++)
        {
          MshedNresEntry *e = &g_array_index (self->entries, MshedNresEntry, i);

          e->data_offset = e->orig_offset;
        }
      return;
    }
  if (writes_lossless (self))
    {
      MshedNresPlan plan = { 0 };

      _mshed_nres_plan_lossless (self, &plan);
      for (guint i = 0; i < self->entries->len; i++)
        g_array_index (self->entries, MshedNresEntry, i).data_offset =
          (guint32) plan.offsets[i];
      _mshed_nres_plan_clear (&plan);
      return;
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      MshedNresEntry *e = &g_array_index (self->entries, MshedNresEntry, i);

      e->data_offset = (guint32) pos;
      pos = (pos + mshed_nres_entry_get_size (e) + 7) & ~(guint64) 7;
    }
}

/**
 * mshed_nres_get_directory_offset:
 *
 * Returns: where the directory starts in the current layout (the stored one when unmodified)
 */
guint64
mshed_nres_get_directory_offset (const MshedNres *self)
{
  guint n = self->entries->len;
  guint64 pos = MSHED_NRES_HEADER_SIZE;

  if (!self->modified && self->source)
    return _mshed_nres_source_dir (self, NULL);
  if (writes_lossless (self))
    {
      MshedNresPlan plan = { 0 };

      _mshed_nres_plan_lossless (self, &plan);
      pos = plan.dir_offset;
      _mshed_nres_plan_clear (&plan);
      return pos;
    }
  for (guint i = 0; i < n; i++)
    pos = (pos + mshed_nres_entry_get_size (&g_array_index (self->entries, MshedNresEntry, i))
           + 7) & ~(guint64) 7;
  return pos;
}

static void
write_record (guint8               *rec,
              const MshedNresEntry *e,
              guint32               size,
              guint32               offset,
              guint32               sort_index)
{
  mshed_write_u32 (rec + 0, e->type_id);
  mshed_write_u32 (rec + 4, e->attr1);
  mshed_write_u32 (rec + 8, e->attr2);
  mshed_write_u32 (rec + 12, size);
  mshed_write_u32 (rec + 16, e->attr3);
  memcpy (rec + 20, e->name, MSHED_NRES_NAME_SIZE);
  mshed_write_u32 (rec + 56, offset);
  mshed_write_u32 (rec + 60, sort_index);
}

/* The sort table to write: recomputed when @recompute, else the stored values. */
static guint32 *
sort_table (const MshedNres *self,
            gboolean         recompute)
{
  guint n = self->entries->len;
  guint32 *table = g_new (guint32, n + 1);

  if (recompute)
    mshed_nres_compute_sort_table (self, table);
  else
    for (guint i = 0; i < n; i++)
      table[i] = g_array_index (self->entries, MshedNresEntry, i).sort_index;
  return table;
}

/* Header, payloads at @offsets (those with @write set, all when NULL) and the directory at
 * @dir_offset, into the zero-filled @out. */
static void
write_archive (const MshedNres *self,
               guint8          *out,
               guint64          total,
               const guint64   *offsets,
               const guint8    *write,
               guint64          dir_offset,
               const guint32   *table)
{
  guint n = self->entries->len;

  mshed_write_u32 (out + 0, MSHED_NRES_MAGIC);
  mshed_write_u32 (out + 4, self->version);
  mshed_write_u32 (out + 8, n);
  mshed_write_u32 (out + 12, (guint32) total);
  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = &g_array_index (self->entries, MshedNresEntry, i);
      gsize size = 0;
      const guint8 *data = mshed_nres_entry_get_data (e, &size);

      if (size && (write == NULL || write[i]))
        memcpy (out + offsets[i], data, size);
      write_record (out + dir_offset + (guint64) i * MSHED_NRES_RECORD_SIZE, e, (guint32) size,
                    (guint32) offsets[i], table[i]);
    }
}

static GBytes *
build_canonical (MshedNres *self,
                 gboolean   recompute_sort)
{
  guint n = self->entries->len;
  guint64 dir = MSHED_NRES_HEADER_SIZE, total;
  g_autofree guint32 *table = sort_table (self, recompute_sort);
  g_autofree guint64 *offsets = g_new (guint64, n + 1);
  guint8 *out;

  for (guint i = 0; i < n; i++)
    {
      offsets[i] = dir;
      dir = (dir + mshed_nres_entry_get_size (&g_array_index (self->entries, MshedNresEntry, i))
             + 7) & ~(guint64) 7;
    }
  total = dir + (guint64) n * MSHED_NRES_RECORD_SIZE;
  g_return_val_if_fail (total <= G_MAXUINT32, NULL);

  out = g_malloc0 (total);
  write_archive (self, out, total, offsets, NULL, dir, table);
  return g_bytes_new_take (out, total);
}

/**
 * mshed_nres_build_canonical:
 *
 * Writes the §7.1 canonical layout. The sort table is recomputed when names or entries
 * changed or the stored one is unusable; otherwise the stored values are kept, so a
 * non-canonical table is never "fixed" silently.
 *
 * Returns: (transfer full): the archive bytes
 */
GBytes *
mshed_nres_build_canonical (MshedNres *self)
{
  return build_canonical (self, self->structure_changed || !self->sort_valid);
}

/**
 * mshed_nres_repack:
 *
 * The explicit compacting repack (docs/nres.md §6, §7.3): the §7.1 canonical layout with the sort
 * table recomputed from the names (§5.2). Everything mshed_nres_list_unreferenced() lists is
 * dropped and payloads move into directory order.
 *
 * Returns: (transfer full): the archive bytes
 */
GBytes *
mshed_nres_repack (MshedNres *self)
{
  return build_canonical (self, TRUE);
}

/**
 * mshed_nres_sort_matches_names:
 *
 * Returns: TRUE when the stored sort_index values are the §5.2 table of the current names
 */
gboolean
mshed_nres_sort_matches_names (const MshedNres *self)
{
  guint n = self->entries->len;
  g_autofree guint32 *table = g_new (guint32, n + 1);

  mshed_nres_compute_sort_table (self, table);
  for (guint i = 0; i < n; i++)
    if (g_array_index (self->entries, MshedNresEntry, i).sort_index != table[i])
      return FALSE;
  return TRUE;
}

/* The lossless writer for an edited non-canonical source (mshed-nres-layout.c). The stored
 * sort table is kept unless names or entries changed (§7.3: never fixed silently). */
static GBytes *
build_lossless (MshedNres *self)
{
  const guint8 *src = g_bytes_get_data (self->source, NULL);
  g_autofree guint32 *table = sort_table (self, self->structure_changed);
  MshedNresPlan plan = { 0 };
  guint64 src_total, size;
  guint8 *out;

  _mshed_nres_source_dir (self, &src_total);
  _mshed_nres_plan_lossless (self, &plan);
  size = plan.total + plan.trailer;
  if (plan.total > G_MAXUINT32)
    {
      _mshed_nres_plan_clear (&plan);
      g_return_val_if_reached (NULL);
    }
  out = g_malloc0 (size);
  for (guint i = 0; i < plan.copies->len; i++)
    {
      const MshedNresCopy *c = &g_array_index (plan.copies, MshedNresCopy, i);

      memcpy (out + c->dst, src + c->src, c->len);
    }
  write_archive (self, out, plan.total, plan.offsets, plan.write, plan.dir_offset, table);
  if (plan.trailer)
    memcpy (out + plan.total, src + src_total, plan.trailer);
  _mshed_nres_plan_clear (&plan);
  return g_bytes_new_take (out, size);
}

/**
 * mshed_nres_serialize:
 * @out_repacked: (out) (optional): always set to FALSE: this writer never repacks (it used to
 *   rebuild a non-canonical source after a size change); kept for its callers. A repack is
 *   mshed_nres_repack().
 *
 * An unmodified archive gives back exactly its source bytes. An edited archive whose source
 * was canonical, or a new one, is rebuilt canonically (§7.1); an edited non-canonical one is
 * written losslessly: its unreferenced bytes and the offsets of untouched entries are kept and
 * only what a size change forces moves (mshed-nres-layout.c; docs/nres.md §6, §7.3).
 *
 * Returns: (transfer full): the archive bytes
 */
GBytes *
mshed_nres_serialize (MshedNres *self,
                      gboolean  *out_repacked)
{
  if (out_repacked)
    *out_repacked = FALSE;

  if (!self->modified && self->source)
    return g_bytes_ref (self->source);
  if (writes_lossless (self))
    return build_lossless (self);
  return mshed_nres_build_canonical (self);
}
