/* test-archive-roundtrip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Archives written back byte for byte: an edited model inside an archive, non-canonical
 * archives (docs/nres.md §5), the docs/nres.md §9 vector and the sort fold of the directory.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "archive-ref.h"
#include "gen-shapes.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-source.h"
#include "mshed-validate.h"

static void
test_archive_edit (void)
{
  g_autoptr(GBytes) bytes = mshed_generate_archive_bytes (4242, 5, 600);
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) outer = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_autoptr(MshedNres) back = NULL;
  g_autoptr(MshedNres) orig = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) nested = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  gint target = -1;
  gint res10;
  const guint8 *text;
  guint32 len, grow;
  guint8 len_word[4];

  g_assert_no_error (error);
  for (guint i = 0; i < mshed_nres_get_n_entries (outer) && target < 0; i++)
    if (entry_is_model (mshed_nres_peek_entry (outer, i)) &&
        i + 1 < mshed_nres_get_n_entries (outer))
      target = (gint) i;
  g_assert_cmpint (target, >=, 0);

  {
    g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (outer, target));
    g_autoptr(MshedNres) inner = mshed_nres_parse (payload, MSHED_MODE_STRICT, NULL, &error);

    g_assert_no_error (error);
    model = mshed_model_new (inner, MSHED_MODE_STRICT, NULL, &error);
    g_assert_no_error (error);
  }

  /* rename node 0 to a longer name (size change), as an editor does: text + length word */
  res10 = mshed_model_find_resource (model, 10);
  g_assert_true (mshed_model_get_name_raw (model, 0, &text, &len));
  grow = 9;
  {
    guint32 off = mshed_model_get_name_record_offset (model, 0);
    static const guint8 more[] = "_modified";

    if (len == 0)
      {
        static const guint8 fresh[] = "_modified";  /* 9 bytes + NUL */

        mshed_nres_entry_splice (mshed_model_get_nres (model), (guint) res10, off + 4, 0,
                                 fresh, 10);
        grow = 10;
      }
    else
      mshed_nres_entry_splice (mshed_model_get_nres (model), (guint) res10, off + 4 + len, 0,
                               more, 9);
    mshed_write_u32 (len_word, len + 9);
    mshed_nres_entry_splice (mshed_model_get_nres (model), (guint) res10, off, 4, len_word, 4);
  }
  mshed_model_names_changed (model);
  g_assert_true (mshed_validate_model (model, MSHED_MODE_STRICT, diags));
  nested = mshed_model_serialize (model);
  mshed_nres_set_payload (outer, (guint) target, nested);
  out = mshed_nres_serialize (outer, NULL);

  back = mshed_nres_parse (out, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_nres_is_canonical (back));
  orig = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_nres_get_n_entries (back), ==, mshed_nres_get_n_entries (orig));
  for (guint i = 0; i < mshed_nres_get_n_entries (back); i++)
    {
      const MshedNresEntry *now = mshed_nres_peek_entry (back, i);
      const MshedNresEntry *first = mshed_nres_peek_entry (orig, i);
      g_autoptr(GBytes) a = NULL;
      g_autoptr(GBytes) b = mshed_nres_entry_dup_bytes (now);

      g_assert_cmpuint (now->sort_index, ==, first->sort_index);
      g_assert_cmpmem (now->name, 36, first->name, 36);
      if ((gint) i == target)
        {
          g_autoptr(MshedModel) m2 = NULL;
          g_autofree char *name = NULL;

          g_assert_true (g_bytes_equal (b, nested));
          /* Res10 grew by @grow bytes; its padding absorbs up to 7 of them */
          g_assert_cmpuint (g_bytes_get_size (b), >=, mshed_nres_entry_get_size (first));
          g_assert_cmpuint (g_bytes_get_size (b), <=, mshed_nres_entry_get_size (first) + grow + 7);
          m2 = mshed_model_new_from_bytes (b, MSHED_MODE_STRICT, NULL, &error);
          g_assert_no_error (error);
          name = mshed_model_dup_name (m2, 0);
          g_assert_true (g_str_has_suffix (name, "_modified"));
        }
      else
        {
          a = mshed_nres_entry_dup_bytes (first);
          g_assert_true (g_bytes_equal (a, b));
          if ((gint) i > target)
            g_assert_cmpuint (now->data_offset, >=, first->data_offset);
        }
    }
  g_assert_cmpuint (g_bytes_get_size (out), >, g_bytes_get_size (bytes));
}

/* A non-canonical archive (payloads out of order, gaps with foreign bytes) of real models:
 * unmodified it comes back byte-identical; a same-size edit keeps the gaps. */
static void
test_non_canonical (void)
{
  g_autoptr(GBytes) canonical = mshed_generate_archive_bytes (77, 3, 400);
  g_autoptr(MshedNres) src = mshed_nres_parse (canonical, MSHED_MODE_STRICT, NULL, NULL);
  guint n = mshed_nres_get_n_entries (src);
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autofree guint32 *offsets = g_new (guint32, n);
  g_autoptr(GBytes) in = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) repacked_bytes = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(MshedNres) again = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  guint8 header[16] = { 0 };
  guint8 zero[8] = { 0 };
  gint model_index = -1;
  gboolean repacked = TRUE;
  const guint8 *o;
  guint32 gap_at;

  /* payloads in reverse directory order, each behind 16 foreign bytes */
  g_byte_array_append (buf, header, 16);
  for (guint k = n; k-- > 0;)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (src, k);
      gsize size;
      const guint8 *data = mshed_nres_entry_get_data (e, &size);
      guint8 foreign[16];

      while (buf->len % 8)
        g_byte_array_append (buf, zero, 1);
      memset (foreign, 0xA5 ^ k, sizeof foreign);
      g_byte_array_append (buf, foreign, sizeof foreign);
      offsets[k] = buf->len;
      g_byte_array_append (buf, data, (guint) size);
      if (model_index < 0 && entry_is_model (e))
        model_index = (gint) k;
    }
  g_assert_cmpint (model_index, >=, 0);
  gap_at = offsets[model_index] - 16;
  while (buf->len % 8)
    g_byte_array_append (buf, zero, 1);
  for (guint k = 0; k < n; k++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (src, k);
      guint8 rec[64];

      mshed_write_u32 (rec + 0, e->type_id);
      mshed_write_u32 (rec + 4, e->attr1);
      mshed_write_u32 (rec + 8, e->attr2);
      mshed_write_u32 (rec + 12, (guint32) mshed_nres_entry_get_size (e));
      mshed_write_u32 (rec + 16, e->attr3);
      memcpy (rec + 20, e->name, 36);
      mshed_write_u32 (rec + 56, offsets[k]);
      mshed_write_u32 (rec + 60, e->sort_index);
      g_byte_array_append (buf, rec, 64);
    }
  memcpy (buf->data, "NRes", 4);
  mshed_write_u32 (buf->data + 4, 0x100);
  mshed_write_u32 (buf->data + 8, n);
  mshed_write_u32 (buf->data + 12, buf->len);
  in = g_bytes_new (buf->data, buf->len);

  nres = mshed_nres_parse (in, MSHED_MODE_STRICT, diags, &error);
  g_assert_no_error (error);
  g_assert_false (mshed_nres_is_canonical (nres));
  g_assert_nonnull (mshed_diagnostics_find (diags, MSHED_CHECK_NRES_LAYOUT));
  g_assert_cmpuint (diags->n_errors, ==, 0);
  out = mshed_nres_serialize (nres, NULL);
  g_assert_true (g_bytes_equal (out, in));

  /* the nested models read the same as in the canonical archive */
  for (guint k = 0; k < n; k++)
    {
      g_autoptr(GBytes) a = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (src, k));
      g_autoptr(GBytes) b = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (nres, k));

      g_assert_true (g_bytes_equal (a, b));
    }

  /* same-size edit inside a nested model: move one vertex */
  {
    g_autoptr(GBytes) payload =
      mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (nres, model_index));
    g_autoptr(MshedNres) inner = mshed_nres_parse (payload, MSHED_MODE_STRICT, NULL, &error);
    g_autoptr(MshedModel) model = NULL;
    g_autoptr(GBytes) inner_out = NULL;
    gint res3;
    float p[3];

    g_assert_no_error (error);
    model = mshed_model_new (inner, MSHED_MODE_STRICT, NULL, &error);
    g_assert_no_error (error);
    res3 = mshed_model_find_resource (model, 3);
    g_assert_true (mshed_model_get_position (model, 0, p));
    mshed_write_f32 (mshed_nres_entry_make_mutable (inner, (guint) res3), p[0] + 0.5f);
    inner_out = mshed_model_serialize (model);
    g_assert_cmpuint (g_bytes_get_size (inner_out), ==, g_bytes_get_size (payload));
    mshed_nres_set_payload (nres, (guint) model_index, inner_out);
  }
  edited = mshed_nres_serialize (nres, &repacked);
  g_assert_false (repacked);
  g_assert_cmpuint (g_bytes_get_size (edited), ==, g_bytes_get_size (in));
  o = g_bytes_get_data (edited, NULL);
  for (guint i = 0; i < 16; i++)
    g_assert_cmpuint (o[gap_at + i], ==, 0xA5 ^ (guint) model_index);
  /* everything but the moved float is unchanged */
  {
    const guint8 *orig = g_bytes_get_data (in, NULL);
    guint diffs = 0;

    for (gsize i = 0; i < g_bytes_get_size (in); i++)
      diffs += orig[i] != o[i];
    g_assert_cmpuint (diffs, >=, 1);
    g_assert_cmpuint (diffs, <=, 4);
  }

  /* an explicit canonical rebuild drops the gaps but keeps every payload */
  repacked_bytes = mshed_nres_build_canonical (nres);
  again = mshed_nres_parse (repacked_bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_nres_is_canonical (again));
  g_assert_cmpuint (g_bytes_get_size (repacked_bytes), <, g_bytes_get_size (in));
  for (guint k = 0; k < n; k++)
    {
      g_autoptr(GBytes) a = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (nres, k));
      g_autoptr(GBytes) b = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (again, k));

      g_assert_true (g_bytes_equal (a, b));
      g_assert_cmpuint (mshed_nres_peek_entry (again, k)->sort_index, ==,
                        mshed_nres_peek_entry (src, k)->sort_index);
    }
}

/* Container vectors ------------------------------------------------------------------------ */

static const char vector_sha256[] =
  "51e754fc9e932405e1b0517dfbb4645b0701e6b2d7da849013a28ecbe6786333";

static MshedNres *
vector_archive (void)
{
  static const struct {
    guint32 type, a1, a2, a3;
    const char *name, *payload;
  } rows[] = {
    { 1, 0x11, 0x22, 0x33, "Res1", "hello" },
    { 2, 0, 0, 0, "AB", "12345678" },
    { 3, 0, 0, 0, "A_B", "" },
  };
  MshedNres *nres = mshed_nres_new ();

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      MshedNresEntry e = { 0 };
      g_autoptr(GBytes) payload = g_bytes_new_static (rows[i].payload, strlen (rows[i].payload));

      e.type_id = rows[i].type;
      e.attr1 = rows[i].a1;
      e.attr2 = rows[i].a2;
      e.attr3 = rows[i].a3;
      memcpy (e.name, rows[i].name, strlen (rows[i].name));
      mshed_nres_insert_entry (nres, G_MAXUINT, &e, payload);
    }
  return nres;
}

static char *
sha256 (GBytes *bytes)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  g_checksum_update (sum, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  return g_strdup (g_checksum_get_string (sum));
}

static void
test_vector (void)
{
  g_autoptr(MshedNres) nres = vector_archive ();
  g_autoptr(GBytes) bytes = mshed_nres_build_canonical (nres);
  g_autoptr(MshedNres) parsed = NULL;
  g_autoptr(MshedNres) copy = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sum = sha256 (bytes);
  const guint8 *d = g_bytes_get_data (bytes, NULL);

  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 224);
  g_assert_cmpstr (sum, ==, vector_sha256);
  /* a few landmarks of the dump in docs/nres.md §9 */
  g_assert_cmpmem (d, 16, "NRes\x00\x01\x00\x00\x03\x00\x00\x00\xe0\x00\x00\x00", 16);
  g_assert_cmpmem (d + 16, 16, "hello\0\0\0" "12345678", 16);
  g_assert_cmpuint (mshed_read_u32 (d + 0x5C), ==, 2);
  g_assert_cmpuint (mshed_read_u32 (d + 0x9C), ==, 1);
  g_assert_cmpuint (mshed_read_u32 (d + 0xD8), ==, 32);
  g_assert_cmpuint (mshed_read_u32 (d + 0xDC), ==, 0);

  /* read back, every payload touched: a forced canonical rebuild gives the same 224 bytes */
  parsed = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  copy = mshed_nres_copy (parsed);
  for (guint i = 0; i < 3; i++)
    mshed_nres_touch (copy, i);
  again = mshed_nres_serialize (copy, NULL);
  g_clear_pointer (&sum, g_free);
  sum = sha256 (again);
  g_assert_cmpstr (sum, ==, vector_sha256);

  /* the same archive nested as a *.msh-named entry keeps its bytes */
  {
    g_autoptr(MshedNres) outer = mshed_nres_new ();
    MshedNresEntry e = { 0 };
    g_autoptr(GBytes) outer_bytes = NULL;
    g_autoptr(MshedNres) outer_back = NULL;
    g_autoptr(GBytes) inner = NULL;

    memcpy (e.name, "VECTOR.MSH", 10);
    mshed_nres_insert_entry (outer, G_MAXUINT, &e, bytes);
    outer_bytes = mshed_nres_build_canonical (outer);
    g_assert_cmpuint (g_bytes_get_size (outer_bytes), ==, 16 + 224 + 64);
    outer_back = mshed_nres_parse (outer_bytes, MSHED_MODE_STRICT, NULL, &error);
    g_assert_no_error (error);
    inner = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (outer_back, 0));
    g_clear_pointer (&sum, g_free);
    sum = sha256 (inner);
    g_assert_cmpstr (sum, ==, vector_sha256);
  }
}

/* docs/nres.md §5.2: "AB" (1) and "A_B" (2) sort as A_B < AB; an upper-case fold would not. */
static void
test_sort_fold (void)
{
  static const char *const names[] = {
    "Res1", "AB", "A_B", "a`b", "A[B", "ab", "AB0", "Z", "_", "a", "",
  };
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedNres) back = NULL;
  g_autoptr(GError) error = NULL;
  guint32 table[G_N_ELEMENTS (names)], ref[G_N_ELEMENTS (names)], upper[G_N_ELEMENTS (names)];
  guint32 vec[3];

  {
    g_autoptr(MshedNres) v = vector_archive ();

    mshed_nres_compute_sort_table (v, vec);
    g_assert_cmpuint (vec[0], ==, 2);
    g_assert_cmpuint (vec[1], ==, 1);
    g_assert_cmpuint (vec[2], ==, 0);
  }

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      MshedNresEntry e = { 0 };
      g_autoptr(GBytes) payload = g_bytes_new (&i, 1);

      e.type_id = i;
      memcpy (e.name, names[i], strlen (names[i]));
      mshed_nres_insert_entry (nres, G_MAXUINT, &e, payload);
    }
  mshed_nres_compute_sort_table (nres, table);
  ref_sort_table (nres, FALSE, ref);
  ref_sort_table (nres, TRUE, upper);
  g_assert_cmpmem (table, sizeof table, ref, sizeof ref);
  g_assert_true (memcmp (ref, upper, sizeof ref) != 0);
  /* "ab" equals "AB" after folding: stable, so directory order decides (1 before 5) */
  for (guint k = 0; k + 1 < G_N_ELEMENTS (names); k++)
    if (table[k] == 1)
      g_assert_cmpuint (table[k + 1], ==, 5);

  bytes = mshed_nres_serialize (nres, NULL);
  back = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_nres_is_canonical (back));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gint found = names[i][0] ? mshed_nres_lookup_name (back, names[i]) : (gint) i;

      g_assert_cmpuint (mshed_nres_peek_entry (back, i)->sort_index, ==, ref[i]);
      if (i == 1 || i == 5)  /* "AB" and "ab" are the same name after folding */
        g_assert_true (found == 1 || found == 5);
      else
        g_assert_cmpint (found, ==, (gint) i);
    }
  g_assert_cmpint (mshed_nres_lookup_name (back, "a_b"), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/roundtrip/archive-edit", test_archive_edit);
  g_test_add_func ("/model/roundtrip/non-canonical", test_non_canonical);
  g_test_add_func ("/model/roundtrip/vector", test_vector);
  g_test_add_func ("/model/roundtrip/sort-fold", test_sort_fold);
  return g_test_run ();
}
