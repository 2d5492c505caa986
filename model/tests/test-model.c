/* test-model.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The IR accessors, schema, encodings and source opening on a small hand-built model
 * (independent of the generator, so a generator bug cannot hide an accessor bug).
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-model.h"
#include "mshed-schema.h"
#include "mshed-source.h"

/* One node, one slot, one batch drawing one triangle of three vertices. */
static GBytes *
build_tiny (const guint8 *name,
            guint32       name_len)
{
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  guint8 node[38];
  guint8 res2[140 + 68] = { 0 };
  float pos[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  guint8 pos_bytes[36];
  gint8 normals[12] = { 0, 0, 127, 0, 0, 0, 127, 5, 0, 0, -128, 0 };
  gint16 uvs[6] = { 0, 0, 1024, 0, 0, -1024 };
  guint8 uv_bytes[12];
  guint8 idx[6];
  guint8 tri[16] = { 0 };
  guint8 key[24] = { 0 };
  guint8 batch[20] = { 0 };
  g_autoptr(GByteArray) names = g_byte_array_new ();
  guint8 len_word[4];

  memset (node, 0xFF, sizeof node);
  mshed_write_u16 (node + 0, 0x0010);
  mshed_write_u16 (node + 6, 0);      /* hdr3: key 0 */
  mshed_write_u16 (node + 8, 0);      /* lod 0 group 0 -> slot 0 */
  mshed_write_u16 (node + 8 + 2 * 7, 0);  /* lod 1 group 2 -> slot 0 */

  mshed_write_u16 (res2 + 140 + 0, 0);   /* triStart */
  mshed_write_u16 (res2 + 140 + 2, 1);   /* triCount */
  mshed_write_u16 (res2 + 140 + 4, 0);   /* batchStart */
  mshed_write_u16 (res2 + 140 + 6, 1);   /* batchCount */
  mshed_write_f32 (res2 + 140 + 20, 1);  /* aabbMax x */
  mshed_write_f32 (res2 + 140 + 24, 1);  /* aabbMax y */
  mshed_write_f32 (res2 + 140 + 44, 1);  /* radius */
  mshed_write_u32 (res2 + 140 + 48, 0xDEADBEEF);

  for (guint i = 0; i < 9; i++)
    mshed_write_f32 (pos_bytes + 4 * i, pos[i]);
  for (guint i = 0; i < 6; i++)
    mshed_write_u16 (uv_bytes + 2 * i, (guint16) uvs[i]);
  for (guint i = 0; i < 3; i++)
    mshed_write_u16 (idx + 2 * i, (guint16) i);
  mshed_write_u16 (tri + 2, 0xFFFF);
  mshed_write_u16 (tri + 4, 0xFFFF);
  mshed_write_u16 (tri + 6, 0xFFFF);
  mshed_write_u16 (tri + 12, 32767);
  mshed_write_u16 (tri + 14, 0xC0 | (3 << 4) | (2 << 2) | 1);  /* sel 1, 2, none; bits 6+ set */
  mshed_write_u16 (key + 22, 32767);   /* qw = 1 */
  mshed_write_u16 (batch + 8, 3);
  mshed_write_u32 (batch + 10, 0);
  mshed_write_u32 (batch + 16, 0);

  mshed_write_u32 (len_word, name_len);
  g_byte_array_append (names, len_word, 4);
  if (name_len)
    {
      g_byte_array_append (names, name, name_len);
      g_byte_array_append (names, (const guint8 *) "", 1);
    }

  mshed_nres_append_entry (nres, 1, 1, 0, 38, NULL, node, sizeof node);
  mshed_nres_append_entry (nres, 2, 1, 0, 68, NULL, res2, sizeof res2);
  mshed_nres_append_entry (nres, 3, 3, 0, 12, NULL, pos_bytes, sizeof pos_bytes);
  mshed_nres_append_entry (nres, 4, 3, 0, 4, NULL, normals, sizeof normals);
  mshed_nres_append_entry (nres, 5, 3, 0, 4, NULL, uv_bytes, sizeof uv_bytes);
  mshed_nres_append_entry (nres, 13, 1, 0, 20, NULL, batch, sizeof batch);
  mshed_nres_append_entry (nres, 6, 3, 0, 2, NULL, idx, sizeof idx);
  mshed_nres_append_entry (nres, 7, 1, 0, 16, NULL, tri, sizeof tri);
  mshed_nres_append_entry (nres, 8, 1, 0, 4, NULL, key, sizeof key);
  mshed_nres_append_entry (nres, 19, 0, 1, 2, NULL, NULL, 0);
  mshed_nres_append_entry (nres, 9, 7, 8, 9, NULL, "opaque", 6);
  mshed_nres_append_entry (nres, 10, 1, 0, 0, NULL, names->data, names->len);
  /* unknown type: carried through */
  mshed_nres_append_entry (nres, 0x52414557, 0, 0, 0, NULL, "1\n0 X\n", 6);
  return mshed_nres_serialize (nres, NULL);
}

static void
test_accessors (void)
{
  static const guint8 name[] = { 0xC1, 0xE0, 0xF8, 0xED, 0xFF };  /* "Башня" */
  g_autoptr(GBytes) bytes = build_tiny (name, sizeof name);
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  MshedNode node;
  MshedSlot slot;
  MshedBatch batch;
  MshedTriDesc tri;
  MshedKey key;
  MshedHeader header;
  float v[3];
  guint16 index;
  g_autofree char *utf8 = NULL;
  g_autoptr(GBytes) out = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_true (mshed_model_has_node_records (model));
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NODES), ==, 1);
  /* 208 bytes: still one */
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_HEADER), ==, 1);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS), ==, 1);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS), ==, 3);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_MAP), ==, 0);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NAMES), ==, 1);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_DIRECTORY), ==, 13);
  g_assert_cmpuint (mshed_model_get_frame_count (model), ==, 1);

  g_assert_true (mshed_model_get_node (model, 0, &node));
  g_assert_cmphex (node.hdr0, ==, 0x10);
  g_assert_cmphex (node.hdr1, ==, MSHED_NONE);
  g_assert_false (mshed_model_get_node (model, 1, &node));
  g_assert_cmpuint (mshed_model_find_slot (model, 0, 0, 0), ==, 0);
  g_assert_cmpuint (mshed_model_find_slot (model, 0, 1, 2), ==, 0);
  g_assert_cmpuint (mshed_model_find_slot (model, 0, 0, 1), ==, MSHED_NONE);
  g_assert_cmpuint (mshed_model_find_slot (model, 0, 3, 0), ==, MSHED_NONE);
  g_assert_cmpuint (mshed_model_find_slot (model, 1, 0, 0), ==, MSHED_NONE);

  g_assert_true (mshed_model_get_slot (model, 0, &slot));
  g_assert_cmpuint (slot.tri_count, ==, 1);
  g_assert_cmpuint (slot.batch_count, ==, 1);
  g_assert_cmpfloat (slot.aabb_max[1], ==, 1.0f);
  g_assert_cmphex (slot.unk[0], ==, 0xDEADBEEF);
  g_assert_false (mshed_model_get_slot (model, 1, &slot));

  g_assert_true (mshed_model_get_batch (model, 0, &batch));
  g_assert_cmpuint (batch.index_count, ==, 3);
  g_assert_true (mshed_model_get_tri (model, 0, &tri));
  g_assert_cmpuint (tri.link[0], ==, MSHED_NONE);
  g_assert_cmpuint (mshed_selector (tri.sel_packed, 0), ==, 1);
  g_assert_cmpuint (mshed_selector (tri.sel_packed, 1), ==, 2);
  g_assert_cmpuint (mshed_selector (tri.sel_packed, 2), ==, MSHED_NONE);
  g_assert_cmpfloat (mshed_decode_tri_normal (tri.normal[2]), ==, 1.0f);
  g_assert_true (mshed_model_get_key (model, 0, &key));
  g_assert_cmpfloat (mshed_decode_quat (key.q[3]), ==, 1.0f);
  g_assert_true (mshed_model_get_header (model, &header));

  g_assert_true (mshed_model_get_position (model, 1, v));
  g_assert_cmpfloat (v[0], ==, 1.0f);
  g_assert_false (mshed_model_get_position (model, 3, v));
  g_assert_true (mshed_model_get_normal (model, 2, v));
  g_assert_cmpfloat (v[2], ==, -1.0f);  /* -128/127 clamps to -1 */
  g_assert_true (mshed_model_get_uv (model, 2, v));
  g_assert_cmpfloat (v[1], ==, -1.0f);
  g_assert_true (mshed_model_get_index (model, 2, &index));
  g_assert_cmpuint (index, ==, 2);
  g_assert_false (mshed_model_get_index (model, 3, &index));

  utf8 = mshed_model_dup_name (model, 0);
  g_assert_cmpstr (utf8, ==, "Башня");
  g_assert_true (mshed_model_names_ok (model));

  /* the unknown WEAR resource and Res9 survive: unmodified bytes come back exactly */
  out = mshed_model_serialize (model);
  g_assert_true (g_bytes_equal (out, bytes));
  g_assert_cmpint (mshed_model_find_resource (model, 0x52414557), ==, 12);
}

static void
test_names_broken (void)
{
  static const guint8 bad[] = { 'a', 0x98, 'b' };
  g_autoptr(GBytes) bytes = build_tiny (bad, sizeof bad);
  g_autoptr(GBytes) empty = build_tiny (NULL, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL,
                                                            &error);
  g_autoptr(MshedModel) model2 = mshed_model_new_from_bytes (empty, MSHED_MODE_TOLERANT, NULL,
                                                             &error);
  g_autofree char *shown = NULL;
  const guint8 *text;
  guint32 len;

  g_assert_no_error (error);
  shown = mshed_model_dup_name (model, 0);
  g_assert_cmpstr (shown, ==, "a\\x98b");  /* shown, with its byte */
  g_assert_true (mshed_model_get_name_raw (model, 0, &text, &len));
  g_assert_cmpmem (text, len, bad, sizeof bad);  /* never corrupted */

  g_assert_null (mshed_model_dup_name (model2, 0));
  g_assert_true (mshed_model_get_name_raw (model2, 0, &text, &len));
  g_assert_cmpuint (len, ==, 0);
  g_assert_false (mshed_model_get_name_raw (model2, 1, &text, &len));
}

static void
test_cp1251 (void)
{
  g_autoptr(GError) error = NULL;

  /* every byte with a mapping round-trips; compare with the system converter when present */
  for (guint b = 0x20; b < 0x100; b++)
    {
      guint8 byte = (guint8) b;
      gboolean lossless;
      g_autofree char *utf8 = mshed_cp1251_to_utf8 (&byte, 1, &lossless);
      g_autoptr(GBytes) back = NULL;
      g_autofree char *sys = NULL;

      if (b == 0x98 || b == 0x7F)
        {
          g_assert_false (lossless);
          continue;
        }
      g_assert_true (lossless);
      back = mshed_utf8_to_cp1251 (utf8, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), &byte, 1);
      sys = g_convert ((const char *) &byte, 1, "UTF-8", "CP1251", NULL, NULL, NULL);
      if (sys)
        g_assert_cmpstr (sys, ==, utf8);
    }

  g_assert_null (mshed_utf8_to_cp1251 ("tower 塔", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING);
  g_assert_nonnull (strstr (error->message, "7"));  /* names the position */
}

static void
test_schema (void)
{
  const MshedTableInfo *nodes = mshed_schema_find_table ("nodes");
  const MshedTableInfo *batches = mshed_schema_find_table ("batches");
  const MshedTableInfo *uvs = mshed_schema_get_table (MSHED_TABLE_UVS);
  const MshedField *hdr1 = mshed_schema_find_field (nodes, "hdr1");
  const MshedField *hdr0 = mshed_schema_find_field (nodes, "hdr0");
  const MshedField *start = mshed_schema_find_field (batches, "indexStart");
  const MshedField *u = mshed_schema_find_field (uvs, "u");
  const MshedField *x = mshed_schema_find_field (mshed_schema_find_table ("vertices"), "x");
  guint8 rec[64] = { 0 };
  double v;
  g_autoptr(GError) error = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL, *s3 = NULL, *s4 = NULL;

  /* every table's fields fit its stride and do not overlap */
  for (guint t = 0; t < MSHED_N_TABLES; t++)
    {
      const MshedTableInfo *info = mshed_schema_get_table (t);
      guint end = 0;

      g_assert_cmpint (info->id, ==, t);
      for (guint f = 0; f < info->n_fields; f++)
        {
          g_assert_cmpuint (info->fields[f].offset, >=, end);
          end = info->fields[f].offset + mshed_field_type_size (info->fields[f].type);
          g_assert_cmpuint (end, <=, info->stride);
        }
    }
  g_assert_cmpuint (start->offset, ==, 10);
  g_assert_true (mshed_schema_table_for_type (2)->id == MSHED_TABLE_SLOTS);

  g_assert_true (mshed_field_parse (hdr1, "none", &v, &error));
  g_assert_cmpfloat (v, ==, 0xFFFF);
  g_assert_true (mshed_field_parse (hdr1, "0x12", &v, &error));
  g_assert_cmpfloat (v, ==, 18);
  g_assert_false (mshed_field_parse (hdr1, "65536", &v, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "hdr1"));
  g_clear_error (&error);
  g_assert_false (mshed_field_parse (hdr1, "-1", &v, &error));
  g_clear_error (&error);
  g_assert_false (mshed_field_parse (hdr1, "12abc", &v, &error));
  g_clear_error (&error);
  g_assert_false (mshed_field_parse (hdr0, "none", &v, &error));  /* no sentinel there */
  g_clear_error (&error);
  g_assert_true (mshed_field_parse (start, "4294967295", &v, &error));
  g_assert_false (mshed_field_parse (start, "4294967296", &v, &error));
  g_clear_error (&error);
  g_assert_true (mshed_field_parse (u, "-32768", &v, &error));
  g_assert_true (mshed_field_parse (u, "0xFFFF", &v, &error));
  g_assert_cmpfloat (v, ==, -1);
  g_assert_false (mshed_field_parse (u, "32768", &v, &error));
  g_clear_error (&error);
  g_assert_true (mshed_field_parse (x, " 1.5 ", &v, &error));
  g_assert_cmpfloat (v, ==, 1.5);
  g_assert_false (mshed_field_parse (x, "nan", &v, &error));
  g_clear_error (&error);
  g_assert_false (mshed_field_parse (x, "1e39", &v, &error));
  g_clear_error (&error);
  g_assert_false (mshed_field_parse (x, "1,5", &v, &error));
  g_clear_error (&error);

  mshed_field_write (hdr1, rec, 0xFFFF);
  mshed_field_write (hdr0, rec, 0x1A);
  mshed_field_write (start, rec, 70000);
  s1 = mshed_field_format (hdr1, rec);
  s2 = mshed_field_format (hdr0, rec);
  s3 = mshed_field_format (start, rec);
  g_assert_cmpstr (s1, ==, "none");
  g_assert_cmpstr (s2, ==, "0x001A");
  g_assert_cmpstr (s3, ==, "70000");
  g_assert_cmpuint (mshed_read_u32 (rec + 10), ==, 70000);
  mshed_field_write (x, rec, 0.1f);
  s4 = mshed_field_format (x, rec);
  g_assert_cmpfloat ((float) g_ascii_strtod (s4, NULL), ==, 0.1f);  /* formats round-trip */
}

static void
test_codecs (void)
{
  g_assert_cmpint (mshed_encode_normal (1.0f), ==, 127);
  g_assert_cmpint (mshed_encode_normal (-2.0f), ==, -128);
  g_assert_cmpint (mshed_encode_normal (NAN), ==, 0);
  g_assert_cmpint (mshed_encode_uv (0.5f), ==, 512);
  g_assert_cmpint (mshed_encode_uv (100.0f), ==, 32767);
  g_assert_cmpint (mshed_encode_uv (-100.0f), ==, -32768);
  g_assert_cmpint (mshed_encode_quat (-1.0f), ==, -32767);
  g_assert_cmpint (mshed_encode_tri_normal (2.0f), ==, 32767);
  g_assert_cmpfloat (mshed_decode_uv (-32768), ==, -32.0f);
  for (gint v = -128; v < 128; v++)
    {
      float f = mshed_decode_normal ((gint8) v);
      g_assert_cmpfloat (f, >=, -1.0f);
      g_assert_cmpfloat (f, <=, 1.0f);
      if (v > -128)
        g_assert_cmpint (mshed_encode_normal (f), ==, v);
    }
}

static void
test_source (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-test-XXXXXX", NULL);
  g_autofree char *loose = g_build_filename (dir, "tiny.msh", NULL);
  g_autofree char *archive = g_build_filename (dir, "pack:1.rlb", NULL);
  g_autofree char *spec = NULL;
  g_autoptr(GBytes) model_bytes = build_tiny ((const guint8 *) "hull", 4);
  g_autoptr(MshedNres) outer = mshed_nres_new ();
  g_autoptr(GBytes) outer_bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedSource) src = NULL;
  g_autoptr(MshedSource) nested = NULL;
  g_autoptr(MshedSource) missing = NULL;
  g_autoptr(GBytes) back = NULL;
  MshedNresEntry e = { 0 };
  char *path, *entry;

  g_assert_true (g_file_set_contents (loose, g_bytes_get_data (model_bytes, NULL),
                                      (gssize) g_bytes_get_size (model_bytes), NULL));
  strcpy ((char *) e.name, "readme.txt");
  e.type_id = 0x54584554;
  {
    g_autoptr(GBytes) hi = g_bytes_new_static ("hi", 2);
    mshed_nres_insert_entry (outer, G_MAXUINT, &e, hi);
  }
  strcpy ((char *) e.name, "TINY.MSH");
  e.type_id = 0;
  mshed_nres_insert_entry (outer, G_MAXUINT, &e, model_bytes);
  outer_bytes = mshed_nres_serialize (outer, NULL);
  g_assert_true (g_file_set_contents (archive, g_bytes_get_data (outer_bytes, NULL),
                                      (gssize) g_bytes_get_size (outer_bytes), NULL));

  src = mshed_source_open (loose, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (src->model);
  g_assert_false (mshed_source_is_archive (src));

  /* a colon inside the archive's own name, and a case-insensitive entry name */
  spec = g_strdup_printf ("%s:tiny.msh", archive);
  g_assert_true (mshed_split_spec (spec, &path, &entry));
  g_assert_cmpstr (path, ==, archive);
  g_assert_cmpstr (entry, ==, "tiny.msh");
  g_free (path);
  g_free (entry);
  nested = mshed_source_open (spec, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (nested->entry, ==, "TINY.MSH");
  g_assert_cmpint (nested->entry_index, ==, 1);
  g_assert_true (mshed_source_is_archive (nested));
  g_assert_true (mshed_entry_is_model_name (mshed_nres_peek_entry (nested->file_nres, 1)));
  back = mshed_source_serialize (nested);
  g_assert_true (g_bytes_equal (back, outer_bytes));

  g_clear_pointer (&spec, g_free);
  spec = g_strdup_printf ("%s:nothing.msh", archive);
  missing = mshed_source_open (spec, MSHED_MODE_STRICT, NULL, &error);
  g_assert_null (missing);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "nothing.msh"));
  g_clear_error (&error);

  g_assert_null (mshed_source_open (dir, MSHED_MODE_STRICT, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);

  g_unlink (loose);
  g_unlink (archive);
  g_rmdir (dir);
}

/* mshed_load_file: a small file is read, a large one mapped; both give the file's exact
 * bytes, and a failure names the file once, with the system's reason. */
static void
test_load_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-load-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.msh", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.msh", NULL);
  g_autoptr(GError) error = NULL;
  const gsize sizes[] = { 0, 1, 4096, 128 * 1024, 128 * 1024 + 1, 3 * 1024 * 1024 + 5 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/f%u.bin", dir, i);
      g_autofree guint8 *data = g_malloc (MAX (sizes[i], 1));
      g_autoptr(GBytes) expected = NULL;
      g_autoptr(GBytes) loaded = NULL;

      for (gsize k = 0; k < sizes[i]; k++)
        data[k] = (guint8) (k * 7 + k / 251);
      expected = g_bytes_new (data, sizes[i]);
      g_assert_true (g_file_set_contents (path, (const char *) data, (gssize) sizes[i], NULL));
      loaded = mshed_load_file (path, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (loaded, expected));
      g_unlink (path);
    }

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  {
    g_autoptr(GBytes) loaded = mshed_load_file (empty, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (g_bytes_get_size (loaded), ==, 0);
  }

  g_assert_null (mshed_load_file (missing, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
  /* the reason comes from the system, said once: no "Failed to open file …" inside */
  g_assert_nonnull (strstr (error->message, g_strerror (ENOENT)));
  g_assert_true (strstr (error->message, missing) == g_strrstr (error->message, missing));
  g_clear_error (&error);

  g_assert_null (mshed_load_file (dir, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, dir));
  g_clear_error (&error);

  g_unlink (empty);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/ir/accessors", test_accessors);
  g_test_add_func ("/model/ir/names-broken", test_names_broken);
  g_test_add_func ("/model/cp1251", test_cp1251);
  g_test_add_func ("/model/schema", test_schema);
  g_test_add_func ("/model/codecs", test_codecs);
  g_test_add_func ("/model/source", test_source);
  g_test_add_func ("/model/source/load-file", test_load_file);
  return g_test_run ();
}
