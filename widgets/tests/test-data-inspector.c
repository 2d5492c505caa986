/* test-data-inspector.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hex-test-util.h"
#include "mshed-bytes.h"
#include "mshed-data-inspector.h"
#include "mshed-error.h"
#include "mshed-hex-view.h"

typedef struct {
  MshedDocument      *doc;
  GtkWidget          *view;
  GtkWidget          *inspector;
  GtkWidget          *window;
  GBytes             *original;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *sep = gtk_separator_new (GTK_ORIENTATION_VERTICAL);

  f->doc = hex_test_document (11, 300);
  f->original = mshed_document_serialize (f->doc);
  f->view = mshed_hex_view_new ();
  f->inspector = mshed_data_inspector_new ();
  gtk_widget_set_hexpand (f->view, TRUE);
  gtk_widget_set_size_request (f->inspector, 280, -1);
  gtk_box_append (GTK_BOX (box), f->view);
  gtk_box_append (GTK_BOX (box), sep);
  gtk_box_append (GTK_BOX (box), f->inspector);
  mshed_hex_view_set_document (MSHED_HEX_VIEW (f->view), f->doc);
  mshed_data_inspector_set_hex_view (MSHED_DATA_INSPECTOR (f->inspector),
                                     MSHED_HEX_VIEW (f->view));
  f->window = widget_test_window (box, 1180, 560);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (10);
  g_clear_pointer (&f->original, g_bytes_unref);
  g_assert_finalize_object (f->doc);
}

static MshedModel *
model_of (Fixture *f)
{
  return mshed_document_get_model (f->doc);
}

static const char *
value (Fixture    *f,
       const char *row)
{
  return mshed_data_inspector_get_value (MSHED_DATA_INSPECTOR (f->inspector), row);
}

static gboolean
commit (Fixture     *f,
        const char  *row,
        const char  *text,
        GError     **error)
{
  return mshed_data_inspector_commit (MSHED_DATA_INSPECTOR (f->inspector), row, text, error);
}

static void
assert_decoded (Fixture *f,
                double   expect)
{
  const char *text = value (f, "decoded");

  g_assert_nonnull (text);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (text, NULL), expect, 1e-5);
}

static void
undo_all (Fixture *f)
{
  g_autoptr(GBytes) now = NULL;

  while (mshed_document_can_undo (f->doc))
    g_assert_true (mshed_document_undo (f->doc));
  now = mshed_document_serialize (f->doc);
  g_assert_true (g_bytes_equal (now, f->original));
}

/* the plain little-endian readings and the spec's decodings */
static void
test_decode (Fixture       *f,
             gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedModel *model = model_of (f);
  const guint8 *rec;
  g_autofree char *expect = NULL;
  MshedTriDesc tri;
  MshedKey key;

  /* normals: nx ÷127 */
  mshed_hex_view_show_record (view, MSHED_TABLE_NORMALS, 5);
  rec = mshed_model_get_record (model, MSHED_TABLE_NORMALS, 5);
  expect = g_strdup_printf ("%u", rec[0]);
  g_assert_cmpstr (value (f, "u8"), ==, expect);
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("%d", (gint8) rec[0]);
  g_assert_cmpstr (value (f, "i8"), ==, expect);
  g_assert_cmpstr (value (f, "field"), ==, expect);
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("%u", mshed_read_u32 (rec));
  g_assert_cmpstr (value (f, "u32"), ==, expect);
  g_clear_pointer (&expect, g_free);
  assert_decoded (f, CLAMP ((gint8) rec[0] / 127.0, -1.0, 1.0));
  g_assert_null (value (f, "selectors"));

  /* the fourth normal byte has no decoding */
  mshed_hex_view_set_cursor (view, 5 * 4 + 3, FALSE);
  g_assert_nonnull (value (f, "field"));
  g_assert_null (value (f, "decoded"));

  /* UV ÷1024, from the middle of the field (the field is read from its start) */
  mshed_hex_view_show_record (view, MSHED_TABLE_UVS, 9);
  mshed_hex_view_set_cursor (view, 9 * 4 + 3, FALSE);
  rec = mshed_model_get_record (model, MSHED_TABLE_UVS, 9);
  assert_decoded (f, mshed_read_i16 (rec + 2) / 1024.0);

  /* triangle normal ÷32767 and selPacked selectors */
  mshed_hex_view_show_record (view, MSHED_TABLE_TRIS, 3);
  g_assert_true (mshed_model_get_tri (model, 3, &tri));
  mshed_hex_view_set_cursor (view, 3 * 16 + 10, FALSE);
  assert_decoded (f, tri.normal[1] / 32767.0);
  mshed_hex_view_set_cursor (view, 3 * 16 + 14, FALSE);
  {
    GString *s = g_string_new (NULL);

    for (guint k = 0; k < 3; k++)
      {
        guint16 sel = mshed_selector (tri.sel_packed, k);

        if (k)
          g_string_append_c (s, ' ');
        if (sel == MSHED_NONE)
          g_string_append (s, "none");
        else
          g_string_append_printf (s, "%u", sel);
      }
    g_assert_cmpstr (value (f, "selectors"), ==, s->str);
    g_string_free (s, TRUE);
  }

  /* quaternion ÷32767 */
  mshed_hex_view_show_record (view, MSHED_TABLE_KEYS, 0);
  g_assert_true (mshed_model_get_key (model, 0, &key));
  mshed_hex_view_set_cursor (view, 22, FALSE);
  assert_decoded (f, key.q[3] / 32767.0);

  /* f32 at a position */
  mshed_hex_view_show_record (view, MSHED_TABLE_POSITIONS, 2);
  {
    float pos[3];
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    g_assert_true (mshed_model_get_position (model, 2, pos));
    mshed_hex_view_set_cursor (view, 2 * 12 + 4, FALSE);
    g_assert_cmpstr (value (f, "f32"), ==, g_ascii_formatd (buf, sizeof buf, "%.9g", pos[1]));
  }
  widget_test_screenshot (f->window, "hex-view-inspector.png");
}

/* every row writes through the document; bad input is refused with a reason */
static void
test_edit (Fixture       *f,
           gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedModel *model = model_of (f);
  g_autoptr(GError) error = NULL;
  const guint8 *rec;
  MshedTriDesc tri;
  guint16 old_sel;

  mshed_hex_view_show_record (view, MSHED_TABLE_NORMALS, 5);
  g_assert_true (commit (f, "decoded", "0.5", &error));
  g_assert_no_error (error);
  rec = mshed_model_get_record (model, MSHED_TABLE_NORMALS, 5);
  g_assert_cmpint ((gint8) rec[0], ==, mshed_encode_normal (0.5f));
  assert_decoded (f, mshed_encode_normal (0.5f) / 127.0);
  g_assert_true (mshed_document_can_undo (f->doc));

  g_assert_false (commit (f, "decoded", "1.5", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "out of range"));
  g_clear_error (&error);
  g_assert_false (commit (f, "decoded", "abc", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (commit (f, "u8", "300", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (commit (f, "hex", "DE AD", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (commit (f, "binary", "10102", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);

  g_assert_true (commit (f, "hex", "de ad be ef", &error));
  rec = mshed_model_get_record (model, MSHED_TABLE_NORMALS, 5);
  g_assert_cmpmem (rec, 4, "\xDE\xAD\xBE\xEF", 4);
  g_assert_true (commit (f, "i16", "-2", &error));
  rec = mshed_model_get_record (model, MSHED_TABLE_NORMALS, 5);
  g_assert_cmpmem (rec, 4, "\xFE\xFF\xBE\xEF", 4);
  g_assert_true (commit (f, "binary", "0000 1111", &error));
  rec = mshed_model_get_record (model, MSHED_TABLE_NORMALS, 5);
  g_assert_cmpuint (rec[0], ==, 0x0F);
  g_assert_true (commit (f, "f32", "1.5", &error));
  rec = mshed_model_get_record (model, MSHED_TABLE_NORMALS, 5);
  g_assert_cmpuint (mshed_read_u32 (rec), ==, 0x3FC00000u);
  g_assert_cmpstr (value (f, "u32"), ==, "1069547520");

  /* selectors keep bits 6–15 */
  mshed_hex_view_show_record (view, MSHED_TABLE_TRIS, 3);
  mshed_hex_view_set_cursor (view, 3 * 16 + 15, FALSE);
  g_assert_true (mshed_model_get_tri (model, 3, &tri));
  old_sel = tri.sel_packed;
  g_assert_true (commit (f, "selectors", "2 none 0", &error));
  g_assert_no_error (error);
  g_assert_true (mshed_model_get_tri (model, 3, &tri));
  g_assert_cmpuint (tri.sel_packed, ==, (old_sel & ~0x3Fu) | 2u | (3u << 2));
  g_assert_cmpstr (value (f, "selectors"), ==, "2 none 0");
  g_assert_false (commit (f, "selectors", "1 2", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);

  /* a raw field value through the schema's parser */
  mshed_hex_view_show_record (view, MSHED_TABLE_SLOTS, 2);
  mshed_hex_view_set_cursor (view, MSHED_RES2_HEADER_SIZE + 2 * 68 + 49, FALSE);
  g_assert_true (commit (f, "field", "0x12345678", &error));
  g_assert_no_error (error);
  {
    MshedSlot slot;

    g_assert_true (mshed_model_get_slot (model, 2, &slot));
    g_assert_cmpuint (slot.unk[0], ==, 0x12345678u);
  }
  g_assert_false (commit (f, "field", "0x123456789", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);

  /* in the whole-file view a directory record's attributes are fields too */
  {
    gint res9 = mshed_model_find_resource (model, 9);
    guint64 off = mshed_model_get_record_offset (model, MSHED_TABLE_DIRECTORY, res9) + 5;

    mshed_hex_view_show_resource (view, MSHED_HEX_SOURCE_FILE);
    mshed_hex_view_goto_file_offset (view, off);
    g_assert_nonnull (value (f, "u8"));
    g_assert_true (commit (f, "field", "77", &error));
    g_assert_no_error (error);
    g_assert_cmpuint (mshed_nres_peek_entry (mshed_model_get_nres (model), res9)->attr1, ==, 77);
    /* but the raw rows cannot write container bytes */
    g_assert_false (commit (f, "u8", "1", &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
  }

  undo_all (f);
}

int
main (int   argc,
      char *argv[])
{
  if (!widget_test_init (&argc, &argv))
    {
      g_test_add_func ("/widgets/data-inspector/no-display", widget_test_skip);
      return g_test_run ();
    }
  g_test_add ("/widgets/data-inspector/decode", Fixture, NULL, fixture_setup, test_decode,
              fixture_teardown);
  g_test_add ("/widgets/data-inspector/edit", Fixture, NULL, fixture_setup, test_edit,
              fixture_teardown);
  return g_test_run ();
}
