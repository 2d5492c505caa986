/* test-reencode.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The re-encoder behind `mshed-cli roundtrip`: every generated shape and archive decodes to
 * fields and encodes back to the same bytes; an encoder bug planted in any field of any table
 * is caught at that field's byte and reported with its table, record and field; float bit
 * patterns (NaN payloads) survive the schema's field codec; bytes that are no record (a
 * table's tail, opaque resources) are carried.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gen-shapes.h"
#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-reencode.h"
#include "mshed-source.h"

/* Offset of the first differing byte, or -1 when equal. */
static gssize
first_difference (GBytes *a,
                  GBytes *b)
{
  gsize la, lb;
  const guint8 *pa = g_bytes_get_data (a, &la);
  const guint8 *pb = g_bytes_get_data (b, &lb);

  for (gsize i = 0; i < MIN (la, lb); i++)
    if (pa[i] != pb[i])
      return (gssize) i;
  return la == lb ? -1 : (gssize) MIN (la, lb);
}

static void
assert_reencodes_identically (GBytes   *bytes,
                              gboolean  nested)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) again = mshed_reencode_bytes (bytes, nested, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (again);
  g_assert_cmpint (first_difference (bytes, again), ==, -1);
}

static GBytes *
generate (const Shape *shape,
          guint64      seed)
{
  MshedGenParams p;

  params_for_shape (shape, seed, &p);
  return mshed_generate_model_bytes (&p);
}

static void
test_shapes (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (guint64 seed = 1; seed <= MIN (shapes[i].n_seeds, 3u); seed++)
      {
        g_autoptr(GBytes) bytes = generate (&shapes[i], seed * 101 + i);

        g_test_message ("shape %s, seed %" G_GUINT64_FORMAT, shapes[i].name, seed * 101 + i);
        assert_reencodes_identically (bytes, FALSE);
        assert_reencodes_identically (bytes, TRUE);
      }
}

/* The seeded corpus (the benchmark's shapes and proportions) and archives. */
static void
test_corpus_and_archives (void)
{
  for (guint64 seed = 0; seed < 120; seed++)
    {
      MshedGenParams p;
      g_autoptr(GBytes) bytes = NULL;

      mshed_gen_params_init_from_seed (&p, seed);
      p.n_triangles = MIN (p.n_triangles, 3000u);
      bytes = mshed_generate_model_bytes (&p);
      assert_reencodes_identically (bytes, FALSE);
    }
  for (guint64 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(GBytes) archive = mshed_generate_archive_bytes (seed, 4, 1200);

      assert_reencodes_identically (archive, FALSE);
    }
}

/* A model holding every typed table: the generator's Res18/Res20 variant with animation,
 * names of every kind, and a Res16 stream of three records added by hand. */
static GBytes *
model_with_every_table (void)
{
  static const guint8 res16[24] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
  };
  g_autoptr(GBytes) bytes = generate (find_shape ("animated-ext"), 7);
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);

  g_assert_nonnull (nres);
  mshed_nres_append_entry (nres, 16, 3, 0, 8, "Res16", res16, sizeof res16);
  return mshed_nres_build_canonical (nres);
}

/* For every field of every table: an encoder that flips a bit of that field in one record
 * writes a file that differs exactly at the field's first byte, and the difference is
 * reported with the table, record and field. */
static void
test_planted_faults (void)
{
  g_autoptr(GBytes) bytes = model_with_every_table ();
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL,
                                                            NULL);
  guint n_faults = 0;

  g_assert_nonnull (model);
  assert_reencodes_identically (bytes, FALSE);
  for (MshedTableId id = 0; id < MSHED_N_TABLES; id++)
    {
      const MshedTableInfo *table = mshed_schema_get_table (id);
      guint n_rows = mshed_model_get_n_rows (model, id);
      guint row = MIN (3u, n_rows - 1);

      if (id == MSHED_TABLE_NAMES || id == MSHED_TABLE_DIRECTORY)
        continue;
      g_assert_cmpuint (n_rows, >, 0);  /* the model holds every table */
      for (guint f = 0; f < table->n_fields; f++)
        {
          const MshedField *field = &table->fields[f];
          MshedReencodeFault fault = { id, row, field->name };
          g_autoptr(GBytes) bad = mshed_reencode_bytes (bytes, FALSE, &fault, NULL);
          g_autofree char *where = NULL;
          g_autofree char *expect = NULL;
          guint32 at = mshed_model_get_record_offset (model, id, row) + field->offset;

          g_assert_cmpint (first_difference (bytes, bad), ==, at);
          where = mshed_reencode_locate (bytes, FALSE, at);
          if (id == MSHED_TABLE_HEADER)
            expect = g_strdup_printf ("Res2 header, field %s", field->name);
          else if (g_str_has_prefix (table->name, "res"))
            expect = g_strdup_printf ("Res%u record %u, field %s", table->res_type, row,
                                      field->name);
          else
            expect = g_strdup_printf ("Res%u %s record %u, field %s", table->res_type,
                                      table->name, row, field->name);
          g_assert_cmpstr (where, ==, expect);
          /* every byte of the field is named by it */
          for (guint b = 1; b < mshed_field_type_size (field->type); b++)
            {
              g_autofree char *inside = mshed_reencode_locate (bytes, FALSE, at + b);

              g_assert_cmpstr (inside, ==, expect);
            }
          n_faults++;
        }
    }
  g_test_message ("%u planted faults caught", n_faults);
  g_assert_cmpuint (n_faults, >, 100);
}

/* Res10: length, text (through the Windows-1251 codec) and terminator of a named record. */
static void
test_planted_name_faults (void)
{
  static const char *const fields[] = { "len", "text", "nul" };
  g_autoptr(GBytes) bytes = generate (find_shape ("names"), 3);
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  const MshedNresEntry *res10 = mshed_model_get_resource (model, 10);
  const guint8 *text;
  guint32 len;
  guint row = 0;

  /* node 0 has a Cyrillic name (generator contract) */
  g_assert_true (mshed_model_get_name_raw (model, row, &text, &len));
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (text[0], >=, 0xC0);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      MshedReencodeFault fault;
      g_autoptr(GBytes) bad = NULL;
      g_autofree char *spec = g_strdup_printf ("names[%u].%s", row, fields[i]);
      g_autofree char *where = NULL;
      g_autofree char *expect = g_strdup_printf ("Res10 names record %u, field %s", row,
                                                 fields[i]);
      guint32 at = res10->data_offset + mshed_model_get_name_record_offset (model, row) +
                   (i == 0 ? 0 : i == 1 ? 4 : 4 + len);

      g_assert_true (mshed_reencode_fault_parse (spec, &fault, NULL));
      bad = mshed_reencode_bytes (bytes, FALSE, &fault, NULL);
      g_assert_cmpint (first_difference (bytes, bad), ==, at);
      where = mshed_reencode_locate (bytes, FALSE, at);
      g_assert_cmpstr (where, ==, expect);
    }
}

static const MshedNresEntry *
first_model_entry (const MshedNres *nres)
{
  guint i = 0;

  while (!mshed_entry_is_model_name (mshed_nres_peek_entry (nres, i)))
    g_assert_cmpuint (++i, <, mshed_nres_get_n_entries (nres));
  return mshed_nres_peek_entry (nres, i);
}

/* A fault in a model nested in an archive is reported with the entry's name. */
static void
test_planted_fault_in_archive (void)
{
  g_autoptr(GBytes) archive = mshed_generate_archive_bytes (5, 3, 900);
  g_autoptr(MshedNres) nres = mshed_nres_parse (archive, MSHED_MODE_STRICT, NULL, NULL);
  MshedReencodeFault fault;
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(GBytes) payload = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autofree char *name = NULL;
  g_autofree char *where = NULL;
  g_autofree char *expect = NULL;
  const MshedNresEntry *e;
  guint32 at;

  g_assert_nonnull (nres);
  e = first_model_entry (nres);
  name = mshed_nres_entry_dup_name (e);
  payload = mshed_nres_entry_dup_bytes (e);
  model = mshed_model_new_from_bytes (payload, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (model);

  g_assert_true (mshed_reencode_fault_parse ("vertices[2].z", &fault, NULL));
  bad = mshed_reencode_bytes (archive, FALSE, &fault, NULL);
  at = e->data_offset + mshed_model_get_record_offset (model, MSHED_TABLE_POSITIONS, 2) + 8;
  g_assert_cmpint (first_difference (archive, bad), ==, at);
  where = mshed_reencode_locate (archive, FALSE, at);
  expect = g_strdup_printf ("entry “%s”: Res3 vertices record 2, field z", name);
  g_assert_cmpstr (where, ==, expect);
}

static void
test_fault_parse (void)
{
  MshedReencodeFault fault;
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_reencode_fault_parse ("slots[12].aabbminx", &fault, NULL));
  g_assert_cmpint (fault.table, ==, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (fault.row, ==, 12);
  g_assert_cmpstr (fault.field, ==, "aabbMinX");
  g_assert_true (mshed_reencode_fault_parse ("header.capR", &fault, NULL));
  g_assert_cmpint (fault.table, ==, MSHED_TABLE_HEADER);
  g_assert_cmpuint (fault.row, ==, 0);
  for (guint i = 0; i < 6; i++)
    {
      static const char *const bad[] = {
        "slots[3]", "slots[x].triStart", "slots[3.triStart", "nope[1].x", "dir[0].type",
        "names[0].flags",
      };

      g_assert_false (mshed_reencode_fault_parse (bad[i], &fault, &error));
      g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_clear_error (&error);
    }
}

/* Replaces resource @type's payload with @data and returns the rebuilt file. */
static GBytes *
with_payload (GBytes       *bytes,
              guint32       type,
              const guint8 *data,
              gsize         size)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
  g_autoptr(GBytes) payload = g_bytes_new (data, size);

  mshed_nres_set_payload (nres, (guint) mshed_nres_find_type (nres, type), payload);
  return mshed_nres_build_canonical (nres);
}

/* Signalling and quiet NaNs with payloads, infinities and negative zero in float fields:
 * the schema's field codec gives back their exact bits, so the round trip is identical. */
static void
test_float_bits (void)
{
  static const guint32 patterns[] = {
    0x7F800001u, 0xFFBFFFFFu, 0x7FC00000u, 0xFFC12345u, 0x7F800000u, 0xFF800000u,
    0x80000000u, 0x00000001u, 0x7F7FFFFFu, 0x3F800000u, 0x7FA00000u, 0x7F812345u,
  };
  const MshedField *x = mshed_schema_find_field (mshed_schema_get_table (MSHED_TABLE_POSITIONS),
                                                 "x");
  g_autoptr(GBytes) bytes = generate (find_shape ("basic"), 5);
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  const MshedNresEntry *res3 = mshed_model_get_resource (model, 3);
  g_autofree guint8 *positions = g_memdup2 (mshed_nres_entry_get_data (res3, NULL),
                                            mshed_nres_entry_get_size (res3));
  g_autoptr(GBytes) odd = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      guint8 in[4], out[4] = { 0 };

      mshed_write_u32 (in, patterns[i]);
      mshed_field_write (x, out, mshed_field_read (x, in));
      g_assert_cmphex (mshed_read_u32 (out), ==, patterns[i]);
      mshed_write_u32 (positions + 4 * i, patterns[i]);
    }
  odd = with_payload (bytes, 3, positions, mshed_nres_entry_get_size (res3));
  assert_reencodes_identically (odd, FALSE);
}

/* Bytes after the last whole record of a table are carried, and located as such. */
static void
test_tail_and_opaque (void)
{
  static const guint8 tail[5] = { 0xDE, 0xAD, 0xBE, 0xEF, 0x42 };
  g_autoptr(GBytes) bytes = generate (find_shape ("res18-20"), 9);
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  const MshedNresEntry *res7 = mshed_model_get_resource (model, 7);
  const MshedNresEntry *res9 = mshed_model_get_resource (model, 9);
  gsize size = mshed_nres_entry_get_size (res7);
  g_autofree guint8 *longer = g_malloc (size + sizeof tail);
  g_autoptr(GBytes) odd = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autofree char *where = NULL;
  g_autofree char *expect = NULL;
  guint32 at;

  memcpy (longer, mshed_nres_entry_get_data (res7, NULL), size);
  memcpy (longer + size, tail, sizeof tail);
  odd = with_payload (bytes, 7, longer, size + sizeof tail);
  assert_reencodes_identically (odd, FALSE);

  nres = mshed_nres_parse (odd, MSHED_MODE_TOLERANT, NULL, NULL);
  at = mshed_nres_peek_entry (nres, (guint) mshed_nres_find_type (nres, 7))->data_offset +
       (guint32) size + 2;
  where = mshed_reencode_locate (odd, FALSE, at);
  expect = g_strdup_printf ("Res7, byte %zu, after the last whole record", size + 2);
  g_assert_cmpstr (where, ==, expect);

  /* Res9 is not a table: named by entry, type and payload byte */
  g_clear_pointer (&where, g_free);
  g_clear_pointer (&expect, g_free);
  where = mshed_reencode_locate (bytes, FALSE, res9->data_offset + 1);
  expect = g_strdup_printf ("entry %d “Res9” (type 9, not a table), byte 1 of its payload",
                            mshed_model_find_resource (model, 9));
  g_assert_cmpstr (where, ==, expect);
}

/* The container's own bytes (docs/nres.md §2, §3). */
static void
test_locate_container (void)
{
  g_autoptr(GBytes) bytes = generate (find_shape ("basic"), 2);
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  guint64 dir = mshed_nres_get_directory_offset (nres);
  g_autofree char *name = mshed_nres_entry_dup_name (mshed_nres_peek_entry (nres, 2));
  static const struct { guint byte; const char *field; } dir_fields[] = {
    { 0, "type" }, { 4, "attr1" }, { 8, "attr2" }, { 12, "size" }, { 16, "attr3" },
    { 20, "name" }, { 55, "name" }, { 56, "data_offset" }, { 63, "sort_index" },
  };

  for (guint i = 0; i < 16; i++)
    {
      static const char *const header[] = { "magic", "version", "entry_count", "total_size" };
      g_autofree char *where = mshed_reencode_locate (bytes, FALSE, i);
      g_autofree char *expect = g_strdup_printf ("the NRes header, field %s", header[i / 4]);

      g_assert_cmpstr (where, ==, expect);
    }
  for (guint i = 0; i < G_N_ELEMENTS (dir_fields); i++)
    {
      g_autofree char *where = mshed_reencode_locate (bytes, FALSE,
                                                      dir + 2 * 64 + dir_fields[i].byte);
      g_autofree char *expect = g_strdup_printf ("NRes directory record 2 (“%s”), field %s",
                                                 name, dir_fields[i].field);

      g_assert_cmpstr (where, ==, expect);
    }
  g_assert_null (mshed_reencode_locate (bytes, FALSE, g_bytes_get_size (bytes)));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/reencode/shapes", test_shapes);
  g_test_add_func ("/model/reencode/corpus-and-archives", test_corpus_and_archives);
  g_test_add_func ("/model/reencode/planted-faults", test_planted_faults);
  g_test_add_func ("/model/reencode/planted-name-faults", test_planted_name_faults);
  g_test_add_func ("/model/reencode/planted-fault-in-archive", test_planted_fault_in_archive);
  g_test_add_func ("/model/reencode/fault-parse", test_fault_parse);
  g_test_add_func ("/model/reencode/float-bits", test_float_bits);
  g_test_add_func ("/model/reencode/tail-and-opaque", test_tail_and_opaque);
  g_test_add_func ("/model/reencode/locate-container", test_locate_container);
  return g_test_run ();
}
