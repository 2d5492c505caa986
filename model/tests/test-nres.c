/* test-nres.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-nres.h"

/* nres.md §9: the three-entry test vector */
static const guint8 vector[224] = {
  0x4e, 0x52, 0x65, 0x73, 0x00, 0x01, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0xe0, 0x00, 0x00, 0x00,
  0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x00, 0x00, 0x00, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
  0x01, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
  0x33, 0x00, 0x00, 0x00, 0x52, 0x65, 0x73, 0x31, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
  0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x41, 0x42, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
  0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x41, 0x5f, 0x42, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void
entry_template (MshedNresEntry *e,
                guint32         type,
                guint32         a1,
                guint32         a2,
                guint32         a3,
                const char     *name)
{
  memset (e, 0, sizeof *e);
  e->type_id = type;
  e->attr1 = a1;
  e->attr2 = a2;
  e->attr3 = a3;
  strncpy ((char *) e->name, name, 35);
}

static MshedNres *
build_vector (void)
{
  MshedNres *nres = mshed_nres_new ();
  MshedNresEntry e;
  g_autoptr(GBytes) p0 = g_bytes_new_static ("hello", 5);
  g_autoptr(GBytes) p1 = g_bytes_new_static ("12345678", 8);
  g_autoptr(GBytes) p2 = g_bytes_new_static ("", 0);

  entry_template (&e, 1, 0x11, 0x22, 0x33, "Res1");
  mshed_nres_insert_entry (nres, G_MAXUINT, &e, p0);
  entry_template (&e, 2, 0, 0, 0, "AB");
  mshed_nres_insert_entry (nres, G_MAXUINT, &e, p1);
  entry_template (&e, 3, 0, 0, 0, "A_B");
  mshed_nres_insert_entry (nres, G_MAXUINT, &e, p2);
  return nres;
}

static void
test_vector_write (void)
{
  g_autoptr(MshedNres) nres = build_vector ();
  g_autoptr(GBytes) out = mshed_nres_serialize (nres, NULL);
  gsize len;
  const guint8 *data = g_bytes_get_data (out, &len);
  g_autofree char *sha = NULL;

  g_assert_cmpmem (data, len, vector, sizeof vector);
  sha = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, out);
  g_assert_cmpstr (sha, ==, "51e754fc9e932405e1b0517dfbb4645b0701e6b2d7da849013a28ecbe6786333");
}

static void
test_vector_read (void)
{
  g_autoptr(GBytes) in = g_bytes_new_static (vector, sizeof vector);
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedNres) nres = mshed_nres_parse (in, MSHED_MODE_STRICT, diags, &error);
  g_autoptr(GBytes) out = NULL;
  const MshedNresEntry *e;
  gsize size;

  g_assert_no_error (error);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 0);
  g_assert_cmpuint (mshed_nres_get_n_entries (nres), ==, 3);
  g_assert_true (mshed_nres_is_canonical (nres));
  e = mshed_nres_peek_entry (nres, 0);
  g_assert_cmpuint (e->type_id, ==, 1);
  g_assert_cmpuint (e->attr1, ==, 0x11);
  g_assert_cmpuint (e->attr2, ==, 0x22);
  g_assert_cmpuint (e->attr3, ==, 0x33);
  g_assert_cmpuint (e->sort_index, ==, 2);
  g_assert_cmpmem (mshed_nres_entry_get_data (e, &size), size, "hello", 5);
  /* payloads are slices of the source: no copy */
  g_assert_true (mshed_nres_entry_get_data (e, NULL) == vector + 16);
  g_assert_cmpuint (mshed_nres_entry_get_size (mshed_nres_peek_entry (nres, 2)), ==, 0);

  out = mshed_nres_serialize (nres, NULL);
  g_assert_true (g_bytes_equal (out, in));

  /* §5.2: A_B sorts before AB under the lower-case fold */
  {
    guint32 table[3];
    mshed_nres_compute_sort_table (nres, table);
    g_assert_cmpuint (table[0], ==, 2);
    g_assert_cmpuint (table[1], ==, 1);
    g_assert_cmpuint (table[2], ==, 0);
  }
  g_assert_cmpint (mshed_nres_lookup_name (nres, "ab"), ==, 1);
  g_assert_cmpint (mshed_nres_lookup_name (nres, "a_b"), ==, 2);
  g_assert_cmpint (mshed_nres_lookup_name (nres, "RES1"), ==, 0);
  g_assert_cmpint (mshed_nres_lookup_name (nres, "nothing"), ==, -1);
}

static void
test_empty (void)
{
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  g_autoptr(GBytes) out = mshed_nres_serialize (nres, NULL);
  g_autoptr(MshedNres) back = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (g_bytes_get_size (out), ==, 16);
  back = mshed_nres_parse (out, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_nres_get_n_entries (back), ==, 0);
}

/* every prefix of the vector is rejected with a GError and a diagnostic, never a crash */
static void
test_truncated (void)
{
  for (gsize len = 0; len < sizeof vector; len++)
    {
      g_autoptr(GBytes) in = g_bytes_new (vector, len);
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedNres) nres = mshed_nres_parse (in, MSHED_MODE_TOLERANT, diags, &error);

      g_assert_null (nres);
      g_assert_nonnull (error);
      g_assert_true (error->domain == MSHED_MODEL_ERROR);
      g_assert_cmpuint (diags->n_errors, >=, 1);
    }
}

typedef struct {
  const char *name;
  guint       offset;
  guint32     value;
  MshedCheck  check;
  gboolean    tolerant_loads;
  gint        record;
  const char *field;
} Defect;

static void
test_defects (void)
{
  static const Defect defects[] = {
    { "magic", 0, 0x73655278, MSHED_CHECK_NRES_MAGIC, FALSE, -1, "magic" },
    { "version", 4, 0x200, MSHED_CHECK_NRES_VERSION, TRUE, -1, "version" },
    { "count", 8, 0xFFFFFFFF, MSHED_CHECK_NRES_COUNT, FALSE, -1, "entry_count" },
    { "count-big", 8, 5, MSHED_CHECK_NRES_DIRECTORY, FALSE, -1, "entry_count" },
    { "total", 12, 300, MSHED_CHECK_NRES_TOTAL_SIZE, FALSE, -1, "total_size" },
    { "offset", 0x60 + 56, 8, MSHED_CHECK_NRES_DATA_OFFSET, FALSE, 1, "data_offset" },
    { "range", 0x60 + 12, 200, MSHED_CHECK_NRES_DATA_RANGE, FALSE, 1, "size" },
    { "sort-range", 0x20 + 60, 7, MSHED_CHECK_NRES_SORT_RANGE, TRUE, 0, "sort_index" },
    { "sort-dup", 0x60 + 60, 2, MSHED_CHECK_NRES_SORT_PERMUTATION, TRUE, 1, "sort_index" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (defects); i++)
    {
      const Defect *d = &defects[i];
      g_autofree guint8 *copy = g_memdup2 (vector, sizeof vector);
      g_autoptr(GBytes) in = NULL;

      g_test_message ("defect %s", d->name);
      mshed_write_u32 (copy + d->offset, d->value);
      in = g_bytes_new (copy, sizeof vector);

      for (MshedMode mode = MSHED_MODE_STRICT; mode <= MSHED_MODE_TOLERANT; mode++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
          g_autoptr(MshedNres) nres = mshed_nres_parse (in, mode, diags, &error);
          const MshedDiagnostic *diag = mshed_diagnostics_find (diags, d->check);

          g_assert_nonnull (diag);
          g_assert_cmpint (diag->record, ==, d->record);
          g_assert_cmpstr (diag->field, ==, d->field);
          if (mode == MSHED_MODE_STRICT || !d->tolerant_loads)
            {
              g_assert_null (nres);
              g_assert_error (error, MSHED_MODEL_ERROR, error->code);
              g_assert_cmpint (diag->severity, ==, MSHED_SEVERITY_ERROR);
            }
          else
            {
              g_autoptr(GBytes) out = NULL;

              g_assert_no_error (error);
              g_assert_nonnull (nres);
              g_assert_cmpint (diag->severity, ==, MSHED_SEVERITY_WARNING);
              /* unmodified: the exact source bytes come back */
              out = mshed_nres_serialize (nres, NULL);
              g_assert_true (g_bytes_equal (out, in));
            }
        }
    }
}

static void
test_name_nul (void)
{
  g_autofree guint8 *copy = g_memdup2 (vector, sizeof vector);
  g_autoptr(GBytes) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedNres) nres = NULL;
  const MshedDiagnostic *d;

  memset (copy + 0xa0 + 20, 'x', 36);
  in = g_bytes_new (copy, sizeof vector);
  nres = mshed_nres_parse (in, MSHED_MODE_STRICT, diags, &error);
  g_assert_null (nres);
  d = mshed_diagnostics_find (diags, MSHED_CHECK_NRES_NAME_NUL);
  g_assert_nonnull (d);
  g_assert_cmpint (d->record, ==, 2);
  g_assert_cmpstr (d->field, ==, "name");
  g_assert_cmpuint (d->offset, ==, 0xa0 + 20);
}

/* A non-canonical archive (foreign bytes in a gap) keeps them on a same-size edit. */
static void
test_noncanonical (void)
{
  guint8 buf[240];
  g_autoptr(GBytes) in = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) repacked_out = NULL;
  gboolean repacked = TRUE;
  const guint8 *o;

  /* move the payloads 16 bytes later and fill the gap with foreign bytes */
  memcpy (buf, vector, 16);
  memset (buf + 16, 0xAB, 16);
  memcpy (buf + 32, vector + 16, 208);
  mshed_write_u32 (buf + 12, 240);
  for (guint i = 0; i < 3; i++)
    mshed_write_u32 (buf + 48 + i * 64 + 56, mshed_read_u32 (vector + 32 + i * 64 + 56) + 16);
  in = g_bytes_new (buf, sizeof buf);

  nres = mshed_nres_parse (in, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (mshed_nres_is_canonical (nres));
  out = mshed_nres_serialize (nres, NULL);
  g_assert_true (g_bytes_equal (out, in));
  g_clear_pointer (&out, g_bytes_unref);

  mshed_nres_entry_make_mutable (nres, 0)[0] = 'J';
  out = mshed_nres_serialize (nres, &repacked);
  g_assert_false (repacked);
  o = g_bytes_get_data (out, NULL);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 240);
  g_assert_cmpint (o[16], ==, 0xAB);
  g_assert_cmpint (o[31], ==, 0xAB);
  g_assert_cmpint (o[32], ==, 'J');
  g_assert_cmpmem (o + 33, 4, "ello", 4);

  /* a size change must rebuild, and says so */
  mshed_nres_entry_splice (nres, 0, 5, 0, (const guint8 *) "!!", 2);
  repacked_out = mshed_nres_serialize (nres, &repacked);
  g_assert_true (repacked);
  g_assert_cmpmem (g_bytes_get_data (repacked_out, NULL) + 16, 7, "Jello!!", 7);
  mshed_nres_layout (nres);
  g_assert_cmpuint (mshed_nres_peek_entry (nres, 1)->data_offset, ==, 24);

  /* back to the original sizes (an undo): patched in place again, offsets as stored */
  mshed_nres_entry_splice (nres, 0, 5, 2, NULL, 0);
  mshed_nres_entry_make_mutable (nres, 0)[0] = 'h';
  mshed_nres_layout (nres);
  g_assert_cmpuint (mshed_nres_peek_entry (nres, 0)->data_offset, ==, 32);
  g_assert_cmpuint (mshed_nres_peek_entry (nres, 1)->data_offset, ==, 40);
  g_assert_cmpuint (mshed_nres_get_directory_offset (nres), ==, 48);
  {
    g_autoptr(GBytes) back = mshed_nres_serialize (nres, &repacked);

    g_assert_false (repacked);
    g_assert_true (g_bytes_equal (back, in));
  }
}

static void
test_splice_and_names (void)
{
  g_autoptr(MshedNres) nres = build_vector ();
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) back = NULL;
  const guint8 *data;
  gsize size;

  mshed_nres_entry_splice (nres, 0, 1, 3, (const guint8 *) "ipp", 3);
  data = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, 0), &size);
  g_assert_cmpmem (data, size, "hippo", 5);
  mshed_nres_entry_splice (nres, 0, 0, 0, (const guint8 *) "oh ", 3);
  data = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, 0), &size);
  g_assert_cmpmem (data, size, "oh hippo", 8);

  g_assert_false (mshed_nres_set_name (nres, 1, "a-name-that-is-far-too-long-for-nres-1", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_true (mshed_nres_set_name (nres, 1, "zz", &error));

  out = mshed_nres_serialize (nres, NULL);
  back = mshed_nres_parse (out, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_nres_is_canonical (back));  /* sort table recomputed for the new name */
  g_assert_cmpint (mshed_nres_lookup_name (back, "ZZ"), ==, 1);
  g_assert_cmpuint (mshed_nres_peek_entry (back, 1)->data_offset, ==, 24);

  mshed_nres_remove_entry (nres, 0);
  g_clear_pointer (&out, g_bytes_unref);
  out = mshed_nres_serialize (nres, NULL);
  g_clear_pointer (&back, mshed_nres_unref);
  back = mshed_nres_parse (out, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_nres_get_n_entries (back), ==, 2);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 16 + 8 + 128);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/nres/vector-write", test_vector_write);
  g_test_add_func ("/model/nres/vector-read", test_vector_read);
  g_test_add_func ("/model/nres/empty", test_empty);
  g_test_add_func ("/model/nres/truncated", test_truncated);
  g_test_add_func ("/model/nres/defects", test_defects);
  g_test_add_func ("/model/nres/name-nul", test_name_nul);
  g_test_add_func ("/model/nres/non-canonical", test_noncanonical);
  g_test_add_func ("/model/nres/splice-and-names", test_splice_and_names);
  return g_test_run ();
}
