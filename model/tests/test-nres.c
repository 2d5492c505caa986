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

/* docs/nres.md §9: the three-entry test vector */
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
              /* one classification: still an error, the tolerant reader just reads on */
              g_assert_cmpint (diag->severity, ==, MSHED_SEVERITY_ERROR);
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

  /* a size change within the padding keeps the gap and every offset (docs/nres.md §6) */
  mshed_nres_entry_splice (nres, 0, 5, 0, (const guint8 *) "!!", 2);
  repacked_out = mshed_nres_serialize (nres, &repacked);
  g_assert_false (repacked);
  o = g_bytes_get_data (repacked_out, NULL);
  g_assert_cmpuint (g_bytes_get_size (repacked_out), ==, 240);
  g_assert_cmpint (o[16], ==, 0xAB);
  g_assert_cmpmem (o + 32, 8, "Jello!!\0", 8);
  mshed_nres_layout (nres);
  g_assert_cmpuint (mshed_nres_peek_entry (nres, 1)->data_offset, ==, 40);

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


/* Hand-built non-canonical archives (docs/nres.md §6, §7.3) ---------------------------------- */

typedef struct {
  const char *name;
  guint32     offset;
  guint32     size;
  guint32     sort_index;
} HandRec;

typedef struct {
  guint32 offset;
  guint32 size;
  guint8  byte;
} HandGap;

/* Payload byte k of record i: distinct for every record and position. */
static guint8
hand_byte (guint i,
           guint k)
{
  return (guint8) (0x40 + i * 0x20 + k);
}

/* An archive laid out byte by byte: records at @dir (type i + 1, attributes 0x100 + i,
 * 0x200 + i, 0x300 + i), payloads of hand_byte, foreign blocks of @gaps; everything else 0. */
static GBytes *
hand_archive (const HandRec *recs,
              guint          n,
              const HandGap *gaps,
              guint          n_gaps,
              guint32        dir)
{
  guint32 total = dir + n * 64;
  guint8 *buf = g_malloc0 (total);

  memcpy (buf, "NRes", 4);
  mshed_write_u32 (buf + 4, 0x100);
  mshed_write_u32 (buf + 8, n);
  mshed_write_u32 (buf + 12, total);
  for (guint g = 0; g < n_gaps; g++)
    memset (buf + gaps[g].offset, gaps[g].byte, gaps[g].size);
  for (guint i = 0; i < n; i++)
    {
      guint8 *rec = buf + dir + i * 64;

      for (guint k = 0; k < recs[i].size; k++)
        buf[recs[i].offset + k] = hand_byte (i, k);
      mshed_write_u32 (rec + 0, i + 1);
      mshed_write_u32 (rec + 4, 0x100 + i);
      mshed_write_u32 (rec + 8, 0x200 + i);
      mshed_write_u32 (rec + 12, recs[i].size);
      mshed_write_u32 (rec + 16, 0x300 + i);
      memcpy (rec + 20, recs[i].name, strlen (recs[i].name));
      mshed_write_u32 (rec + 56, recs[i].offset);
      mshed_write_u32 (rec + 60, recs[i].sort_index);
    }
  return g_bytes_new_take (buf, total);
}

static MshedNres *
hand_parse (GBytes *in)
{
  g_autoptr(GError) error = NULL;
  MshedNres *nres = mshed_nres_parse (in, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  g_assert_false (mshed_nres_is_canonical (nres));
  return nres;
}

/* Out bytes [at, at + len) equal in bytes [from, from + len). */
static void
assert_kept (GBytes *out,
             guint32 at,
             GBytes *in,
             guint32 from,
             guint32 len)
{
  gsize out_len, in_len;
  const guint8 *o = g_bytes_get_data (out, &out_len);
  const guint8 *i = g_bytes_get_data (in, &in_len);

  g_assert_cmpuint (at + len, <=, out_len);
  g_assert_cmpuint (from + len, <=, in_len);
  g_assert_cmpmem (o + at, len, i + from, len);
}

/* The header is the input's with only total_size changed to @total. */
static void
assert_header (GBytes *out,
               GBytes *in,
               guint32 total)
{
  const guint8 *o = g_bytes_get_data (out, NULL);

  assert_kept (out, 0, in, 0, 12);
  g_assert_cmpuint (mshed_read_u32 (o + 12), ==, total);
  g_assert_cmpuint (g_bytes_get_size (out), ==, total);
}

/* Output record @i (directory at @out_dir) is input record @i (at @in_dir) with only size and
 * data_offset set to @size and @offset. */
static void
assert_record (GBytes *out,
               guint32 out_dir,
               GBytes *in,
               guint32 in_dir,
               guint   i,
               guint32 size,
               guint32 offset)
{
  guint8 expected[64];

  memcpy (expected, (const guint8 *) g_bytes_get_data (in, NULL) + in_dir + i * 64, 64);
  mshed_write_u32 (expected + 12, size);
  mshed_write_u32 (expected + 56, offset);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (out, NULL) + out_dir + i * 64, 64,
                   expected, 64);
}

/* Payload of @out at @at is @len bytes, each hand_byte (@i, k) + @bump, then zero padding to
 * the next multiple of 8. */
static void
assert_payload (GBytes *out,
                guint32 at,
                guint   i,
                guint32 len,
                guint8  bump)
{
  const guint8 *o = g_bytes_get_data (out, NULL);

  for (guint k = 0; k < len; k++)
    g_assert_cmpuint (o[at + k], ==, (guint8) (hand_byte (i, k) + bump));
  for (guint32 k = at + len; k % 8; k++)
    g_assert_cmpuint (o[k], ==, 0);
}

/* Makes payload @i @len bytes long: the old bytes plus hand_byte (i, k) + @bump for k past
 * the old end (all old bytes get +@bump as well, so the content is known exactly). */
static void
hand_resize (MshedNres *nres,
             guint      i,
             guint32    len,
             guint8     bump)
{
  g_autofree guint8 *data = g_malloc (len + 1);
  gsize old = mshed_nres_entry_get_size (mshed_nres_peek_entry (nres, i));

  for (guint k = 0; k < len; k++)
    data[k] = (guint8) (hand_byte (i, k) + bump);
  mshed_nres_entry_splice (nres, i, 0, old, data, len);
}

/* Three entries with an unreferenced block before the untouched first one (G1), after the
 * edited second one (G2) and before the directory (G3):
 *   16 G1 (24 × E1) | 40 a (13) + 3 pad | 56 b (10) + 6 pad | 72 G2 (16 × E2) | 88 c (8)
 *   | 96 G3 (8 × E3) | 104 directory, total 296 */
static const HandRec gaps_recs[] = {
  { "a", 40, 13, 0 }, { "b", 56, 10, 1 }, { "c", 88, 8, 2 },
};
static const HandGap gaps_gaps[] = {
  { 16, 24, 0xE1 }, { 72, 16, 0xE2 }, { 96, 8, 0xE3 },
};

static void
check_gaps_after_resize (guint32 new_size,
                         gint32  delta)
{
  g_autoptr(GBytes) in = hand_archive (gaps_recs, 3, gaps_gaps, 3, 104);
  g_autoptr(MshedNres) nres = hand_parse (in);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(MshedNres) back = NULL;
  g_autoptr(GError) error = NULL;
  guint32 dir = 104 + delta;

  hand_resize (nres, 1, new_size, 0x11);
  mshed_nres_layout (nres);
  g_assert_cmpuint (mshed_nres_peek_entry (nres, 0)->data_offset, ==, 40);
  g_assert_cmpuint (mshed_nres_peek_entry (nres, 1)->data_offset, ==, 56);
  g_assert_cmpuint (mshed_nres_peek_entry (nres, 2)->data_offset, ==, 88 + delta);
  g_assert_cmpuint (mshed_nres_get_directory_offset (nres), ==, dir);
  out = mshed_nres_serialize (nres, NULL);

  assert_header (out, in, dir + 3 * 64);
  assert_kept (out, 16, in, 16, 40);                    /* G1, a and its padding: in place */
  assert_payload (out, 56, 1, new_size, 0x11);          /* the edited payload + zero pad */
  assert_kept (out, 72 + delta, in, 72, 16);            /* G2, shifted */
  assert_kept (out, 88 + delta, in, 88, 8);             /* c, shifted */
  assert_kept (out, 96 + delta, in, 96, 8);             /* G3, shifted */
  assert_record (out, dir, in, 104, 0, 13, 40);
  assert_record (out, dir, in, 104, 1, new_size, 56);
  assert_record (out, dir, in, 104, 2, 8, 88 + delta);

  back = mshed_nres_parse (out, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
}

static void
test_lossless_gaps (void)
{
  check_gaps_after_resize (21, 8);    /* grows: 16 → 24 padded bytes */
  check_gaps_after_resize (40, 24);   /* grows by more than the gap after it: 16 → 40 */
  check_gaps_after_resize (3, -8);    /* shrinks: 16 → 8 */
  check_gaps_after_resize (0, -16);   /* empties */
  check_gaps_after_resize (16, 0);    /* grows within its padding: nothing moves */
}

/* An untouched entry before the edited one keeps its offset and bytes, with the gap before it;
 * a growing last payload moves only the gap before the directory. */
static void
test_lossless_edit_last (void)
{
  g_autoptr(GBytes) in = hand_archive (gaps_recs, 3, gaps_gaps, 3, 104);
  g_autoptr(MshedNres) nres = hand_parse (in);
  g_autoptr(GBytes) out = NULL;

  hand_resize (nres, 2, 9, 0x22);   /* c: 8 → 16 padded bytes */
  out = mshed_nres_serialize (nres, NULL);
  assert_header (out, in, 112 + 3 * 64);
  assert_kept (out, 16, in, 16, 72);   /* G1, a, b, their padding, G2: all in place */
  assert_payload (out, 88, 2, 9, 0x22);
  assert_kept (out, 104, in, 96, 8);   /* G3 after the grown payload */
  assert_record (out, 112, in, 104, 0, 13, 40);
  assert_record (out, 112, in, 104, 1, 10, 56);
  assert_record (out, 112, in, 104, 2, 9, 88);
}

/* Payloads stored in reverse directory order: c at 16, b at 24, a at 32, directory at 48. */
static void
test_lossless_reverse (void)
{
  static const HandRec recs[] = { { "a", 32, 16, 0 }, { "b", 24, 5, 1 }, { "c", 16, 8, 2 } };
  g_autoptr(GBytes) in = hand_archive (recs, 3, NULL, 0, 48);
  g_autoptr(MshedNres) nres = hand_parse (in);
  g_autoptr(GBytes) out = NULL;

  /* a (directory 0, last in the file) grows: nothing before it moves */
  hand_resize (nres, 0, 20, 0x33);
  out = mshed_nres_serialize (nres, NULL);
  assert_header (out, in, 56 + 3 * 64);
  assert_kept (out, 16, in, 16, 16);   /* c and b with b's padding */
  assert_payload (out, 32, 0, 20, 0x33);
  assert_record (out, 56, in, 48, 0, 20, 32);
  assert_record (out, 56, in, 48, 1, 5, 24);
  assert_record (out, 56, in, 48, 2, 8, 16);
  g_clear_pointer (&out, g_bytes_unref);

  /* b (in the middle of the file) grows too: a moves after it, c stays */
  hand_resize (nres, 1, 9, 0x44);
  out = mshed_nres_serialize (nres, NULL);
  assert_header (out, in, 64 + 3 * 64);
  assert_kept (out, 16, in, 16, 8);
  assert_payload (out, 24, 1, 9, 0x44);
  assert_payload (out, 40, 0, 20, 0x33);
  assert_record (out, 64, in, 48, 0, 20, 40);
  assert_record (out, 64, in, 48, 1, 9, 24);
  assert_record (out, 64, in, 48, 2, 8, 16);
}

/* Two entries sharing bytes: the one that grows cannot shift without breaking the other, so it
 * goes to the end of the data region; the shared bytes stay for the other one. */
static void
test_lossless_overlap (void)
{
  static const HandRec recs[] = { { "a", 16, 16, 0 }, { "b", 16, 8, 1 } };
  static const HandGap gaps[] = { { 32, 8, 0xD1 } };
  g_autoptr(GBytes) in = hand_archive (recs, 2, gaps, 1, 40);
  g_autoptr(MshedNres) nres = hand_parse (in);
  g_autoptr(GBytes) out = NULL;

  hand_resize (nres, 1, 12, 0x55);
  out = mshed_nres_serialize (nres, NULL);
  assert_header (out, in, 56 + 2 * 64);
  assert_kept (out, 16, in, 16, 24);        /* a, with the bytes b used to share; the block */
  {
    const guint8 *o = g_bytes_get_data (out, NULL);

    for (guint k = 0; k < 12; k++)
      g_assert_cmpuint (o[40 + k], ==, (guint8) (hand_byte (1, k) + 0x55));
    for (guint k = 52; k < 56; k++)
      g_assert_cmpuint (o[k], ==, 0);
  }
  assert_record (out, 56, in, 40, 0, 16, 16);
  assert_record (out, 56, in, 40, 1, 12, 40);
}

/* Foreign bytes in the padding of the edited payload are data: kept after its new padding. */
static void
test_lossless_foreign_padding (void)
{
  static const HandRec recs[] = { { "a", 16, 5, 0 }, { "b", 24, 8, 1 } };
  static const HandGap gaps[] = { { 21, 3, 0xF0 } };
  g_autoptr(GBytes) in = hand_archive (recs, 2, gaps, 1, 32);
  g_autoptr(MshedNres) nres = hand_parse (in);
  g_autoptr(GBytes) out = NULL;

  hand_resize (nres, 0, 6, 0x66);
  out = mshed_nres_serialize (nres, NULL);
  /* a: 6 bytes + 2 pad at 16; everything from the foreign bytes on shifts by
   * ceil8 (24 - 21) = 8, so they keep their place modulo 8: zeros at 24..28, F0 at 29..31 */
  assert_header (out, in, 40 + 2 * 64);
  assert_payload (out, 16, 0, 6, 0x66);
  for (guint k = 24; k < 29; k++)
    g_assert_cmpuint (((const guint8 *) g_bytes_get_data (out, NULL))[k], ==, 0);
  assert_kept (out, 29, in, 21, 3);
  assert_kept (out, 32, in, 24, 8);
  assert_record (out, 40, in, 32, 0, 6, 16);
  assert_record (out, 40, in, 32, 1, 8, 32);
}

/* Inserting and removing entries: a new payload goes before the directory, a removed one's
 * bytes are dropped and what follows closes up; the unreferenced blocks stay. */
static void
test_lossless_insert_remove (void)
{
  g_autoptr(GBytes) in = hand_archive (gaps_recs, 3, gaps_gaps, 3, 104);
  g_autoptr(MshedNres) nres = hand_parse (in);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(MshedNres) back = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *o;

  mshed_nres_append_entry (nres, 9, 0, 0, 0, "d", "new!", 4);
  out = mshed_nres_serialize (nres, NULL);
  assert_kept (out, 16, in, 16, 88);              /* G1, a, b, G2, c, G3 in place */
  o = g_bytes_get_data (out, NULL);
  g_assert_cmpmem (o + 104, 4, "new!", 4);        /* before the directory */
  assert_record (out, 112, in, 104, 0, 13, 40);
  assert_record (out, 112, in, 104, 2, 8, 88);
  g_assert_cmpuint (mshed_read_u32 (o + 112 + 3 * 64 + 56), ==, 104);
  /* the sort table is rebuilt for the new name (§7.3) */
  g_assert_cmpuint (mshed_read_u32 (o + 112 + 3 * 64 + 60), ==, 3);
  back = mshed_nres_parse (out, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&out, g_bytes_unref);

  mshed_nres_remove_entry (nres, 1);   /* b: 56..72 goes, G2 and c close up */
  out = mshed_nres_serialize (nres, NULL);
  assert_kept (out, 16, in, 16, 40);
  assert_kept (out, 56, in, 72, 32);             /* G2, c, G3 */
  o = g_bytes_get_data (out, NULL);
  g_assert_cmpmem (o + 88, 4, "new!", 4);
  g_assert_cmpuint (mshed_read_u32 (o + 12), ==, 96 + 3 * 64);
  assert_record (out, 96, in, 104, 0, 13, 40);
  g_assert_cmpmem (o + 96 + 64, 56, (const guint8 *) g_bytes_get_data (in, NULL) + 104 + 128, 56);
  g_assert_cmpuint (mshed_read_u32 (o + 96 + 64 + 56), ==, 72);
  g_clear_pointer (&out, g_bytes_unref);

  /* undo both: b back with its bytes takes its old place, d goes: the input again */
  {
    g_autoptr(GBytes) b = g_bytes_new_from_bytes (in, 56, 10);
    MshedNresEntry templ;

    entry_template (&templ, 2, 0x101, 0x201, 0x301, "b");
    mshed_nres_insert_entry (nres, 1, &templ, b);
    mshed_nres_remove_entry (nres, 3);
    out = mshed_nres_serialize (nres, NULL);
    g_assert_true (g_bytes_equal (out, in));
  }
}

/* What a repack drops, and the repack itself. */
static void
test_repack (void)
{
  g_autoptr(GBytes) in = hand_archive (gaps_recs, 3, gaps_gaps, 3, 104);
  g_autoptr(MshedNres) nres = hand_parse (in);
  g_autoptr(GArray) blocks = mshed_nres_list_unreferenced (nres);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(MshedNres) back = NULL;
  g_autoptr(GError) error = NULL;
  static const MshedNresBlock expected[] = { { 16, 24 }, { 72, 16 }, { 96, 8 } };

  g_assert_cmpuint (blocks->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < blocks->len; i++)
    {
      g_assert_cmpuint (g_array_index (blocks, MshedNresBlock, i).offset, ==, expected[i].offset);
      g_assert_cmpuint (g_array_index (blocks, MshedNresBlock, i).size, ==, expected[i].size);
    }
  g_assert_true (mshed_nres_sort_matches_names (nres));

  out = mshed_nres_repack (nres);
  back = mshed_nres_parse (out, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_nres_is_canonical (back));
  g_assert_cmpuint (g_bytes_get_size (out), ==, 16 + 16 + 16 + 8 + 3 * 64);
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
  g_test_add_func ("/model/nres/lossless/gaps", test_lossless_gaps);
  g_test_add_func ("/model/nres/lossless/edit-last", test_lossless_edit_last);
  g_test_add_func ("/model/nres/lossless/reverse-order", test_lossless_reverse);
  g_test_add_func ("/model/nres/lossless/overlap", test_lossless_overlap);
  g_test_add_func ("/model/nres/lossless/foreign-padding", test_lossless_foreign_padding);
  g_test_add_func ("/model/nres/lossless/insert-remove", test_lossless_insert_remove);
  g_test_add_func ("/model/nres/repack", test_repack);
  return g_test_run ();
}
