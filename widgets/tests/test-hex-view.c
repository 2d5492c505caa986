/* test-hex-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "hex-test-util.h"
#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-hex-model.h"
#include "mshed-hex-view.h"
#include "mshed-hex-view-private.h"

typedef struct {
  MshedDocument *doc;
  GtkWidget     *view;
  GtkWidget     *window;
  GBytes        *original;
  GPtrArray     *changes;   /* MshedChange copies */
  guint          n_cursor_moved;
} Fixture;

static void
changed_cb (MshedDocument     *doc,
            const MshedChange *change,
            Fixture           *f)
{
  g_ptr_array_add (f->changes, mshed_change_copy (change));
}

static void
cursor_moved_cb (MshedHexView *view,
                 Fixture      *f)
{
  f->n_cursor_moved++;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->doc = hex_test_document (7, 300);
  f->original = mshed_document_serialize (f->doc);
  f->changes = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_change_free);
  g_signal_connect (f->doc, "changed", G_CALLBACK (changed_cb), f);
  f->view = mshed_hex_view_new ();
  g_signal_connect (f->view, "cursor-moved", G_CALLBACK (cursor_moved_cb), f);
  mshed_hex_view_set_document (MSHED_HEX_VIEW (f->view), f->doc);
  f->window = widget_test_window (f->view, 900, 560);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (f->doc, f);
  gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (10);
  g_clear_pointer (&f->changes, g_ptr_array_unref);
  g_clear_pointer (&f->original, g_bytes_unref);
  g_assert_finalize_object (f->doc);
}

static MshedModel *
model_of (Fixture *f)
{
  return mshed_document_get_model (f->doc);
}

static void
assert_file_unchanged (Fixture *f)
{
  g_autoptr(GBytes) now = mshed_document_serialize (f->doc);

  g_assert_true (g_bytes_equal (now, f->original));
}

static gboolean
press (Fixture    *f,
       guint       keyval)
{
  return _mshed_hex_view_key_pressed (MSHED_HEX_VIEW (f->view), keyval, 0);
}

/* select slot 7: the view shows Res2 with exactly the record's 68 bytes selected, 48 known
 * bytes and the 20-byte tail unk30..unk40 marked unknown */
static void
test_show_record_slot (Fixture       *f,
                       gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedHexModel *hm = mshed_hex_view_get_model (view);
  static const char *tail[] = { "unk30", "unk34", "unk38", "unk3C", "unk40" };
  gsize start, end, vis_start, vis_end, rec;
  gint res;
  gsize off;

  g_assert_cmpuint (mshed_model_get_n_rows (model_of (f), MSHED_TABLE_SLOTS), >=, 8);
  mshed_hex_view_show_record (view, MSHED_TABLE_SLOTS, 7);
  widget_test_iterate (50);

  g_assert_cmpint (mshed_hex_model_get_res_index (hm), ==,
                   mshed_model_find_resource (model_of (f), 2));
  rec = MSHED_RES2_HEADER_SIZE + 7 * 68;
  g_assert_true (mshed_hex_view_get_selection (view, &start, &end));
  g_assert_cmpuint (start, ==, rec);
  g_assert_cmpuint (end, ==, rec + 68);
  g_assert_true (mshed_hex_view_get_cursor (view, &res, &off));
  g_assert_cmpint (res, ==, mshed_model_find_resource (model_of (f), 2));
  g_assert_cmpuint (off, ==, rec);
  g_assert_cmpuint (mshed_model_get_record_offset (model_of (f), MSHED_TABLE_SLOTS, 7), ==,
                    mshed_nres_peek_entry (mshed_model_get_nres (model_of (f)), res)->data_offset
                    + rec);

  /* the whole record is on screen */
  mshed_hex_view_get_visible_range (view, &vis_start, &vis_end);
  g_assert_cmpuint (vis_start, <=, start);
  g_assert_cmpuint (vis_end, >=, end);

  for (gsize i = 0; i < 68; i++)
    {
      MshedHexOverlay ov;

      g_assert_true (mshed_hex_view_get_overlay (view, rec + i, &ov));
      g_assert_cmpint (ov.table, ==, MSHED_TABLE_SLOTS);
      g_assert_cmpint (ov.record, ==, 7);
      g_assert_nonnull (ov.field);
      if (i < 48)
        g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_KNOWN);
      else
        {
          g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
          g_assert_cmpstr (ov.label, ==, tail[(i - 48) / 4]);
          g_assert_cmpuint (ov.start, ==, rec + 48 + ((i - 48) / 4) * 4);
          g_assert_cmpuint (ov.length, ==, 4);
        }
    }
  /* the neighbours belong to slots 6 and 8; the header to the header table */
  {
    MshedHexOverlay ov;

    g_assert_true (mshed_hex_view_get_overlay (view, rec - 1, &ov));
    g_assert_cmpint (ov.record, ==, 6);
    g_assert_true (mshed_hex_view_get_overlay (view, rec + 68, &ov));
    g_assert_cmpint (ov.record, ==, 8);
    g_assert_cmpstr (ov.label, ==, "triStart");
    g_assert_true (mshed_hex_view_get_overlay (view, 0, &ov));
    g_assert_cmpint (ov.table, ==, MSHED_TABLE_HEADER);
    g_assert_cmpstr (ov.label, ==, "hull0X");
  }
  widget_test_screenshot (f->window, "hex-view-slot7.png");
}

/* two nibbles make one byte edit; the IR changes; undo restores the file's bytes */
static void
test_edit_nibbles_undo (Fixture       *f,
                        gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedSlot slot;
  gsize rec = MSHED_RES2_HEADER_SIZE + 7 * 68;
  guint32 before;
  const MshedChange *last;

  mshed_hex_view_show_record (view, MSHED_TABLE_SLOTS, 7);
  gtk_widget_grab_focus (f->view);
  g_assert_true (mshed_model_get_slot (model_of (f), 7, &slot));
  before = slot.unk[0];

  /* unk30 is at +48: overwrite its lowest byte with 0xA7 */
  mshed_hex_view_set_cursor (view, rec + 48, FALSE);
  g_assert_true (press (f, GDK_KEY_a));
  g_assert_cmpint (_mshed_hex_view_get_pending_nibble (view), ==, 0xA);
  g_assert_cmpuint (f->changes->len, ==, 0);          /* nothing written yet */
  g_assert_true (press (f, GDK_KEY_7));
  g_assert_cmpint (_mshed_hex_view_get_pending_nibble (view), ==, -1);
  g_assert_cmpuint (f->changes->len, ==, 1);          /* one byte edit */
  last = g_ptr_array_index (f->changes, 0);
  g_assert_cmpuint (last->offset, ==, rec + 48);
  g_assert_cmpuint (last->length, ==, 1);
  g_assert_cmpuint (last->old_length, ==, 1);
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (view), ==, rec + 49);
  g_assert_true (mshed_model_get_slot (model_of (f), 7, &slot));
  g_assert_cmpuint (slot.unk[0], ==, (before & 0xFFFFFF00u) | 0xA7u);
  g_assert_true (mshed_document_can_undo (f->doc));

  /* a known field: triCount (+2) through the text column ('!' = 0x21) */
  mshed_hex_view_set_cursor (view, rec + 2, FALSE);
  _mshed_hex_view_set_text_column (view, TRUE);
  g_assert_true (press (f, GDK_KEY_exclam));
  g_assert_true (mshed_model_get_slot (model_of (f), 7, &slot));
  g_assert_cmpuint (slot.tri_count & 0xFF, ==, 0x21);
  last = g_ptr_array_index (f->changes, f->changes->len - 1);
  g_assert_cmpint (last->table, ==, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (last->first_row, ==, 7);
  _mshed_hex_view_set_text_column (view, FALSE);

  /* a pending nibble is written when the cursor leaves its byte */
  mshed_hex_view_set_cursor (view, rec + 60, FALSE);
  g_assert_true (press (f, GDK_KEY_F));
  g_assert_true (press (f, GDK_KEY_Right));
  {
    guint8 b = 0;

    mshed_hex_model_read (mshed_hex_view_get_model (view), rec + 60, &b, 1);
    g_assert_cmpuint (b >> 4, ==, 0xF);
  }

  while (mshed_document_can_undo (f->doc))
    g_assert_true (mshed_document_undo (f->doc));
  assert_file_unchanged (f);
  g_assert_true (mshed_model_get_slot (model_of (f), 7, &slot));
  g_assert_cmpuint (slot.unk[0], ==, before);
  g_assert_false (mshed_document_get_modified (f->doc));
}

/* fixed-stride resources never change length; variable raw resources may */
static void
test_length_change (Fixture       *f,
                    gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedModel *model = model_of (f);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) two = g_bytes_new ("\x01\x02", 2);
  gint res9;
  gsize size9;

  mshed_hex_view_show_record (view, MSHED_TABLE_SLOTS, 7);
  gtk_widget_grab_focus (f->view);

  /* Delete in Res2: refused with a reason, nothing changed, no undo step */
  g_assert_true (press (f, GDK_KEY_Delete));
  g_assert_nonnull (mshed_hex_view_get_message (view));
  g_assert_nonnull (strstr (mshed_hex_view_get_message (view), "fixed-size"));
  g_assert_cmpuint (f->changes->len, ==, 0);
  g_assert_false (mshed_document_can_undo (f->doc));

  /* insert mode does not insert there either: typing overwrites */
  {
    gint res2 = mshed_model_find_resource (model, 2);
    gsize size2 = mshed_nres_entry_get_size (mshed_nres_peek_entry (mshed_model_get_nres (model),
                                                                    res2));
    guint8 b = 0;

    mshed_hex_view_set_insert_mode (view, TRUE);
    g_assert_true (press (f, GDK_KEY_f));
    g_assert_true (press (f, GDK_KEY_e));
    g_assert_cmpuint (mshed_nres_entry_get_size (
                        mshed_nres_peek_entry (mshed_model_get_nres (model), res2)), ==, size2);
    mshed_hex_model_read (mshed_hex_view_get_model (view), MSHED_RES2_HEADER_SIZE + 7 * 68, &b, 1);
    g_assert_cmpuint (b, ==, 0xFE);
    mshed_hex_view_set_insert_mode (view, FALSE);
    g_assert_true (mshed_document_undo (f->doc));
    assert_file_unchanged (f);
  }

  /* the commit path refuses a length change */
  g_assert_false (mshed_hex_view_replace_bytes (view, MSHED_RES2_HEADER_SIZE + 7 * 68, 1, two,
                                                &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_hex_view_replace_bytes (view, MSHED_RES2_HEADER_SIZE + 7 * 68, 4, NULL,
                                                &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  assert_file_unchanged (f);

  /* Res9 is a variable-size raw resource: insert mode inserts, Delete deletes */
  res9 = mshed_model_find_resource (model, 9);
  g_assert_cmpint (res9, >=, 0);
  size9 = mshed_nres_entry_get_size (mshed_nres_peek_entry (mshed_model_get_nres (model), res9));
  mshed_hex_view_show_resource (view, res9);
  mshed_hex_view_set_cursor (view, 4, FALSE);
  mshed_hex_view_set_insert_mode (view, TRUE);
  g_assert_true (press (f, GDK_KEY_b));
  g_assert_true (press (f, GDK_KEY_e));
  g_assert_cmpuint (mshed_nres_entry_get_size (mshed_nres_peek_entry (mshed_model_get_nres (model),
                                                                      res9)), ==, size9 + 1);
  {
    guint8 b = 0;

    mshed_hex_model_read (mshed_hex_view_get_model (view), 4, &b, 1);
    g_assert_cmpuint (b, ==, 0xBE);
  }
  mshed_hex_view_set_cursor (view, 4, FALSE);
  g_assert_true (press (f, GDK_KEY_Delete));
  g_assert_null (mshed_hex_view_get_message (view));
  g_assert_cmpuint (mshed_nres_entry_get_size (mshed_nres_peek_entry (mshed_model_get_nres (model),
                                                                      res9)), ==, size9);
  while (mshed_document_can_undo (f->doc))
    g_assert_true (mshed_document_undo (f->doc));
  assert_file_unchanged (f);
}

/* diagnostics carry file offsets: they map to resource + offset through data_offset */
static void
test_goto_file_offset (Fixture       *f,
                       gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedHexModel *hm = mshed_hex_view_get_model (view);
  MshedModel *model = model_of (f);
  gint res2 = mshed_model_find_resource (model, 2);
  guint64 file_off = mshed_model_get_record_offset (model, MSHED_TABLE_SLOTS, 3) + 50;
  guint64 dir_off = mshed_model_get_record_offset (model, MSHED_TABLE_DIRECTORY, 2) + 4;
  MshedHexOverlay ov;
  gint res;
  gsize off;

  mshed_hex_view_show_resource (view, mshed_model_find_resource (model, 3));
  mshed_hex_view_goto_file_offset (view, file_off);
  g_assert_cmpint (mshed_hex_model_get_res_index (hm), ==, res2);
  g_assert_true (mshed_hex_view_get_cursor (view, &res, &off));
  g_assert_cmpint (res, ==, res2);
  g_assert_cmpuint (off, ==, MSHED_RES2_HEADER_SIZE + 3 * 68 + 50);
  g_assert_true (mshed_hex_view_get_overlay (view, off, &ov));
  g_assert_cmpstr (ov.label, ==, "unk30");

  /* a directory byte: the whole file, container overlay */
  mshed_hex_view_goto_file_offset (view, dir_off);
  g_assert_cmpint (mshed_hex_model_get_res_index (hm), ==, MSHED_HEX_SOURCE_FILE);
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (view), ==, dir_off);
  g_assert_false (mshed_hex_view_get_cursor (view, &res, &off));
  g_assert_true (mshed_hex_view_get_overlay (view, dir_off, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_CONTAINER);
  g_assert_cmpint (ov.table, ==, MSHED_TABLE_DIRECTORY);
  g_assert_cmpint (ov.record, ==, 2);
  g_assert_cmpstr (ov.label, ==, "attr1");

  /* in the whole-file view the cursor stays there, and payload bytes keep their overlays */
  mshed_hex_view_goto_file_offset (view, file_off);
  g_assert_cmpint (mshed_hex_model_get_res_index (hm), ==, MSHED_HEX_SOURCE_FILE);
  g_assert_true (mshed_hex_view_get_cursor (view, &res, &off));
  g_assert_cmpint (res, ==, res2);
  g_assert_cmpuint (off, ==, MSHED_RES2_HEADER_SIZE + 3 * 68 + 50);
  g_assert_true (mshed_hex_view_get_overlay (view, file_off, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
  g_assert_cmpint (ov.record, ==, 3);
  g_assert_cmpuint (ov.start, ==, file_off - 2);

  /* the container bytes are read-only */
  mshed_hex_view_set_cursor (view, dir_off, FALSE);
  gtk_widget_grab_focus (f->view);
  g_assert_true (press (f, GDK_KEY_1));
  g_assert_nonnull (mshed_hex_view_get_message (view));
  assert_file_unchanged (f);
  widget_test_screenshot (f->window, "hex-view-file.png");
}

/* opaque resources, Res10 names and normals' nw are marked as they should be */
static void
test_overlays (Fixture       *f,
               gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedModel *model = model_of (f);
  MshedHexOverlay ov;
  const guint8 *text;
  guint32 len;

  mshed_hex_view_show_resource (view, mshed_model_find_resource (model, 17));
  g_assert_true (mshed_hex_view_get_overlay (view, 3, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
  g_assert_cmpint (ov.table, ==, MSHED_TABLE_NONE);

  mshed_hex_view_show_resource (view, mshed_model_find_resource (model, 4));
  g_assert_true (mshed_hex_view_get_overlay (view, 4 * 5 + 3, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
  g_assert_cmpstr (ov.label, ==, "nw");
  g_assert_true (mshed_hex_view_get_overlay (view, 4 * 5 + 1, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_KNOWN);
  g_assert_cmpstr (ov.label, ==, "ny");

  mshed_hex_view_show_record (view, MSHED_TABLE_NODES, 2);
  g_assert_true (mshed_hex_view_get_overlay (view, 2 * 38, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
  g_assert_cmpstr (ov.label, ==, "hdr0");
  g_assert_true (mshed_hex_view_get_overlay (view, 2 * 38 + 2, &ov));
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_KNOWN);
  g_assert_cmpstr (ov.label, ==, "hdr1");

  mshed_hex_view_show_record (view, MSHED_TABLE_BATCHES, 1);
  g_assert_true (mshed_hex_view_get_overlay (view, 20 + 14, &ov));
  g_assert_cmpstr (ov.label, ==, "unk14");
  g_assert_cmpint (ov.kind, ==, MSHED_HEX_OVERLAY_UNKNOWN);
  g_assert_true (mshed_hex_view_get_overlay (view, 20 + 11, &ov));
  g_assert_cmpstr (ov.label, ==, "indexStart");
  g_assert_cmpuint (ov.start, ==, 30);

  g_assert_true (mshed_model_get_name_raw (model, 1, &text, &len));
  mshed_hex_view_show_record (view, MSHED_TABLE_NAMES, 1);
  {
    gsize start, end;

    g_assert_true (mshed_hex_view_get_selection (view, &start, &end));
    g_assert_cmpuint (end - start, ==, 4 + (len ? len + 1 : 0));
    g_assert_true (mshed_hex_view_get_overlay (view, start, &ov));
    g_assert_cmpstr (ov.label, ==, "len");
    g_assert_cmpint (ov.record, ==, 1);
    if (len > 0)
      {
        g_assert_true (mshed_hex_view_get_overlay (view, start + 4, &ov));
        g_assert_cmpstr (ov.label, ==, "text");
        g_assert_cmpuint (ov.length, ==, len + 1);
      }
  }
}

static void
test_search_copy_bookmarks (Fixture       *f,
                            gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedModel *model = model_of (f);
  g_autoptr(GError) error = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *carray = NULL;
  g_autofree char *pattern = NULL;
  const guint8 *rec;
  gsize start, end;
  MshedSlot slot;

  /* typed search: slot 5's triStart as u16 is found at or before slot 5 */
  mshed_hex_view_show_resource (view, mshed_model_find_resource (model, 2));
  g_assert_true (mshed_model_get_slot (model, 5, &slot));
  rec = mshed_model_get_record (model, MSHED_TABLE_SLOTS, 5);
  pattern = g_strdup_printf ("%02X %02X ?? %02X", rec[0], rec[1], rec[3]);
  mshed_hex_view_set_cursor (view, MSHED_RES2_HEADER_SIZE + 5 * 68 - 1, FALSE);
  g_assert_true (mshed_hex_view_find (view, MSHED_HEX_SEARCH_HEX, pattern, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_hex_view_get_selection (view, &start, &end));
  g_assert_cmpuint (end - start, ==, 4);
  g_assert_cmpmem (mshed_hex_model_peek (mshed_hex_view_get_model (view), start, NULL), 2,
                   rec, 2);
  g_assert_false (mshed_hex_view_find (view, MSHED_HEX_SEARCH_U16, "70000", FALSE, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_hex_view_find (view, MSHED_HEX_SEARCH_HEX, "DE AD BE EF 01 02 03 04",
                                       FALSE, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* copy */
  mshed_hex_view_select_range (view, MSHED_RES2_HEADER_SIZE + 5 * 68,
                               MSHED_RES2_HEADER_SIZE + 5 * 68 + 3);
  hex = mshed_hex_view_copy_selection (view, MSHED_HEX_COPY_HEX, TRUE);
  {
    g_autofree char *expect = g_strdup_printf ("%02X %02X %02X", rec[0], rec[1], rec[2]);

    g_assert_cmpstr (hex, ==, expect);
  }
  carray = mshed_hex_view_copy_selection (view, MSHED_HEX_COPY_C_ARRAY, FALSE);
  {
    g_autofree char *expect = g_strdup_printf ("static const unsigned char data[3] = {\n"
                                               "  0x%02X, 0x%02X, 0x%02X\n};\n",
                                               rec[0], rec[1], rec[2]);

    g_assert_cmpstr (carray, ==, expect);
  }
  /* what was copied parses back (paste) */
  {
    g_autoptr(GBytes) back = mshed_hex_parse_bytes (carray, &error);

    g_assert_no_error (error);
    g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), rec, 3);
  }

  /* bookmarks survive switching to the whole file */
  mshed_hex_view_set_cursor (view, 200, FALSE);
  g_assert_true (mshed_hex_view_toggle_bookmark (view));
  mshed_hex_view_set_cursor (view, 20, FALSE);
  g_assert_true (mshed_hex_view_toggle_bookmark (view));
  g_assert_cmpuint (mshed_hex_view_get_n_bookmarks (view), ==, 2);
  g_assert_true (mshed_hex_view_next_bookmark (view, FALSE));
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (view), ==, 200);
  g_assert_true (mshed_hex_view_next_bookmark (view, FALSE));
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (view), ==, 20);  /* wrapped */
  g_assert_false (mshed_hex_view_toggle_bookmark (view));              /* removed */
  g_assert_cmpuint (mshed_hex_view_get_n_bookmarks (view), ==, 1);
  mshed_hex_view_show_resource (view, MSHED_HEX_SOURCE_FILE);
  g_assert_true (mshed_hex_view_next_bookmark (view, FALSE));
  {
    gint res;
    gsize off;

    g_assert_true (mshed_hex_view_get_cursor (view, &res, &off));
    g_assert_cmpint (res, ==, mshed_model_find_resource (model, 2));
    g_assert_cmpuint (off, ==, 200);
  }
}

/* a record range as the source; pasting overwrites and never changes a length */
static void
test_range_paste (Fixture       *f,
                  gconstpointer  data)
{
  MshedHexView *view = MSHED_HEX_VIEW (f->view);
  MshedHexModel *hm = mshed_hex_view_get_model (view);
  MshedModel *model = model_of (f);
  gint res2 = mshed_model_find_resource (model, 2);
  gsize rec = MSHED_RES2_HEADER_SIZE + 4 * 68;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) four = g_bytes_new ("\x11\x22\x33\x44", 4);
  gsize ws, we, vs, ve;
  MshedSlot slot;

  mshed_hex_view_show_range (view, res2, rec, 3 * 68);
  widget_test_iterate (30);
  mshed_hex_model_get_window (hm, &ws, &we);
  g_assert_cmpuint (ws, ==, rec);
  g_assert_cmpuint (we, ==, rec + 3 * 68);
  mshed_hex_view_get_visible_range (view, &vs, &ve);
  g_assert_cmpuint (vs, >=, ws);
  g_assert_cmpuint (ve, ==, we);             /* everything fits on screen */
  g_assert_false (mshed_hex_view_goto_offset (view, rec - 1));
  g_assert_false (mshed_hex_view_goto_offset (view, we));
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (view), ==, rec);
  g_assert_true (gtk_widget_activate_action (f->view, "hex.find", NULL));
  mshed_hex_view_select_range (view, rec + 48, rec + 68);
  widget_test_screenshot (f->window, "hex-view-range.png");

  /* paste over slot 4's tail */
  mshed_hex_view_set_cursor (view, rec + 48, FALSE);
  g_assert_true (mshed_hex_view_paste_bytes (view, four, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_model_get_slot (model, 4, &slot));
  g_assert_cmpuint (slot.unk[0], ==, 0x44332211u);
  /* pasting past the window's end is refused */
  mshed_hex_view_set_cursor (view, we - 2, FALSE);
  g_assert_false (mshed_hex_view_paste_bytes (view, four, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  /* so is Ctrl+End past the last byte: the cursor stops on it */
  g_assert_true (_mshed_hex_view_key_pressed (view, GDK_KEY_End, GDK_CONTROL_MASK));
  g_assert_cmpuint (mshed_hex_view_get_cursor_offset (view), ==, we - 1);

  g_assert_true (mshed_document_undo (f->doc));
  assert_file_unchanged (f);
}

/* the model part alone: window, parsing */
static void
test_model_helpers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) pattern = NULL;
  g_autoptr(GByteArray) mask = NULL;
  g_autoptr(GBytes) b = NULL;

  g_assert_true (mshed_hex_parse_pattern (MSHED_HEX_SEARCH_F32, "1.5", &pattern, &mask, &error));
  g_assert_cmpuint (pattern->len, ==, 4);
  g_assert_cmpuint (mshed_read_u32 (pattern->data), ==, 0x3FC00000u);
  g_clear_pointer (&pattern, g_byte_array_unref);
  g_clear_pointer (&mask, g_byte_array_unref);
  g_assert_true (mshed_hex_parse_pattern (MSHED_HEX_SEARCH_I16, "-2", &pattern, &mask, &error));
  g_assert_cmpuint (mshed_read_u16 (pattern->data), ==, 0xFFFE);
  g_clear_pointer (&pattern, g_byte_array_unref);
  g_clear_pointer (&mask, g_byte_array_unref);
  g_assert_true (mshed_hex_parse_pattern (MSHED_HEX_SEARCH_HEX, "de ad ?? EF", &pattern, &mask,
                                          &error));
  g_assert_cmpuint (pattern->len, ==, 4);
  g_assert_cmpuint (mask->data[2], ==, 0);
  g_assert_cmpuint (mask->data[3], ==, 0xFF);
  g_assert_false (mshed_hex_parse_pattern (MSHED_HEX_SEARCH_HEX, "DEA", NULL, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  b = mshed_hex_parse_bytes ("0x01, 0x2, 0xFF", &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (b, NULL), g_bytes_get_size (b), "\x01\x02\xFF", 3);
}

int
main (int   argc,
      char *argv[])
{
  gboolean have_display = widget_test_init (&argc, &argv);

  g_test_add_func ("/widgets/hex-model/helpers", test_model_helpers);
  if (!have_display)
    {
      g_test_add_func ("/widgets/hex-view/no-display", widget_test_skip);
      return g_test_run ();
    }
#define ADD(path, fn) \
  g_test_add ("/widgets/hex-view/" path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("show-record-slot", test_show_record_slot);
  ADD ("edit-nibbles-undo", test_edit_nibbles_undo);
  ADD ("length-change", test_length_change);
  ADD ("goto-file-offset", test_goto_file_offset);
  ADD ("overlays", test_overlays);
  ADD ("search-copy-bookmarks", test_search_copy_bookmarks);
  ADD ("range-paste", test_range_paste);
#undef ADD
  return g_test_run ();
}
