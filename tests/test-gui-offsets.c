/* test-gui-offsets.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One offset convention everywhere: a model nested in an archive (ARCHIVE:ENTRY) opened in
 * the real application window, one byte of a known field (Res2 slot 1, batchStart), and the
 * number Problems shows, the hex view's address column and status line, the data inspector,
 * the grid's row tooltip, go to offset (Ctrl+L) and `mshed-cli dump` give for it: the offset
 * in the file on disk, computed here from the NRes directories (docs/nres.md §3) and the record
 * layout (docs/msh.md §4.2). The offsets inside the resource and the nested model are in the
 * tooltips.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "mshed-bytes.h"
#include "mshed-hex-view-private.h"
#include "test-require.h"

static MshedApplication *app;

/* docs/nres.md §3: the directory is the last 64 × count bytes; data_offset at +56 */
static guint32
nres_entry_offset (const guint8 *data,
                   gsize         size,
                   const char   *name,
                   guint32       type,
                   guint32      *payload_size)
{
  guint32 count = mshed_read_u32 (data + 8);
  guint32 total = mshed_read_u32 (data + 12);
  const guint8 *dir;

  g_assert_cmpmem (data, 4, "NRes", 4);
  g_assert_cmpuint (total, <=, size);
  dir = data + total - (gsize) count * 64;
  for (guint32 i = 0; i < count; i++)
    {
      const guint8 *rec = dir + (gsize) i * 64;

      if ((name != NULL && g_ascii_strcasecmp ((const char *) rec + 20, name) == 0) ||
          (name == NULL && mshed_read_u32 (rec) == type))
        {
          if (payload_size)
            *payload_size = mshed_read_u32 (rec + 12);
          return mshed_read_u32 (rec + 56);
        }
    }
  g_assert_not_reached ();
  return 0;
}

/* The text of the Problems panel's offset cells (monospace inscriptions) now on screen. */
static void
collect_offsets (GtkWidget *widget,
                 GPtrArray *out)
{
  if (GTK_IS_INSCRIPTION (widget) && gtk_widget_has_css_class (widget, "monospace") &&
      gtk_inscription_get_text (GTK_INSCRIPTION (widget)) != NULL)
    g_ptr_array_add (out, (gpointer) gtk_inscription_get_text (GTK_INSCRIPTION (widget)));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_offsets (c, out);
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (haystack == NULL || strstr (haystack, needle) == NULL)
    g_error ("“%s” does not say “%s”", haystack ? haystack : "(null)", needle);
}

static void
go_to (MshedHexView *hex,
       const char   *text)
{
  gtk_widget_activate_action (GTK_WIDGET (hex), "hex.goto", NULL);
  widget_test_iterate (50);
  gtk_editable_set_text (GTK_EDITABLE (hex->goto_entry), text);
  g_signal_emit_by_name (hex->goto_entry, "activate");
  widget_test_iterate (100);
}

static void
test_nested_offsets (void)
{
  const char *archive = g_getenv ("MSHED_SAMPLE_ARCHIVE");
  const char *entry_name = "Hangar_1.MSH";
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *spec = NULL;
  g_autofree char *expect = NULL;
  g_autofree char *expect_res = NULL;
  g_autofree char *expect_model = NULL;
  g_autofree char *address = NULL;
  g_autofree char *line_address = NULL;
  g_autofree char *tip = NULL;
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize size;
  guint32 entry_off, entry_size, res2_off, res1_off;
  guint64 field_off, record_off;
  MshedWindow *window;
  MshedDocument *doc;
  MshedHexView *hex;
  MshedHexModel *hm;
  const MshedDiagnostics *diags;
  gsize cursor;
  guint n_errors = 0;

  g_assert_nonnull (archive);
  bytes = gui_test_file_bytes (archive);
  data = g_bytes_get_data (bytes, &size);

  /* where slot 1's batchStart is, from the two directories and docs/msh.md §4.2 */
  entry_off = nres_entry_offset (data, size, entry_name, 0, &entry_size);
  g_assert_cmpuint (entry_off, >, 0);
  res2_off = nres_entry_offset (data + entry_off, entry_size, NULL, 2, NULL);
  res1_off = nres_entry_offset (data + entry_off, entry_size, NULL, 1, NULL);
  record_off = (guint64) entry_off + res2_off + 140 + 1 * 68;  /* MshHeader140, Slot68 */
  field_off = record_off + 4;                                   /* +4 batchStart */
  expect = g_strdup_printf ("0x%08" G_GINT64_MODIFIER "X", field_off);
  /* the offsets inside the resource and inside the nested model */
  expect_res = g_strdup_printf ("0x%X (%u) inside Res2", 140 + 68 + 4, 140 + 68 + 4);
  expect_model = g_strdup_printf ("0x%" G_GINT64_MODIFIER "X (%" G_GUINT64_FORMAT ") inside "
                                  "the model “%s”", field_off - entry_off,
                                  field_off - entry_off, entry_name);

  spec = g_strdup_printf ("%s:%s", archive, entry_name);
  window = gui_test_window (app);
  g_assert_true (mshed_window_open (window, spec));
  widget_test_iterate (300);
  doc = mshed_window_get_document (window);
  hex = window->hex_view;
  hm = mshed_hex_view_get_model (hex);
  g_assert_nonnull (doc);

  /* a problem at that byte: a batch range past the end of Res13 (docs/msh.md §9,
   * slot-batch-range) */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 1, "batchStart", 9000, &error));
  g_assert_no_error (error);
  widget_test_iterate (200);
  diags = mshed_document_get_diagnostics (doc);
  for (guint i = 0; i < diags->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (diags->items, i);

      if (d->severity == MSHED_SEVERITY_ERROR)
        {
          n_errors++;
          g_assert_cmpstr (d->field, ==, "batchStart");
          g_assert_cmpuint (d->offset, ==, field_off);
        }
    }
  g_assert_cmpuint (n_errors, ==, 1);

  /* Problems shows it */
  gtk_notebook_set_current_page (window->bottom_notebook, 0);
  widget_test_iterate (200);
  collect_offsets (GTK_WIDGET (window->diagnostics_view), shown);
  g_assert_cmpuint (shown->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (shown, 0), ==, expect);

  /* activating it: the hex view's status line, address column and the inspector say the same */
  gtk_notebook_set_current_page (window->side_notebook, 1);
  mshed_diagnostics_view_activate (window->diagnostics_view, 0);
  widget_test_iterate (200);
  cursor = mshed_hex_view_get_cursor_offset (hex);
  g_assert_cmpuint (mshed_hex_model_to_file_offset (hm, cursor), ==, field_off);
  address = mshed_hex_view_format_address (hex, cursor);
  g_assert_cmpstr (address, ==, expect + 2);
  assert_contains (gtk_label_get_text (GTK_LABEL (hex->location_label)), expect);
  line_address = mshed_hex_view_format_address (hex, cursor - cursor % hex->bpl);
  g_assert_cmpuint (g_ascii_strtoull (line_address, NULL, 16), ==, field_off - cursor % hex->bpl);
  assert_contains (mshed_data_inspector_get_location (window->data_inspector), expect);
  tip = mshed_hex_model_describe_offset (hm, cursor);
  assert_contains (tip, expect);
  assert_contains (tip, expect_res);
  assert_contains (tip, expect_model);
  assert_contains (gtk_widget_get_tooltip_text (hex->location_label), expect_res);

  /* the same with only the resource shown (its bytes count from 0 inside) */
  mshed_hex_view_show_resource (hex, mshed_model_find_resource (mshed_document_get_model (doc),
                                                                2));
  g_assert_true (mshed_hex_view_goto_file_offset (hex, field_off));
  widget_test_iterate (100);
  cursor = mshed_hex_view_get_cursor_offset (hex);
  g_assert_cmpuint (cursor, ==, 140 + 68 + 4);
  g_clear_pointer (&address, g_free);
  address = mshed_hex_view_format_address (hex, cursor);
  g_assert_cmpstr (address, ==, expect + 2);
  assert_contains (gtk_label_get_text (GTK_LABEL (hex->location_label)), expect);
  g_clear_pointer (&line_address, g_free);
  line_address = mshed_hex_view_format_address (hex, cursor - cursor % hex->bpl);
  g_assert_cmpuint (g_ascii_strtoull (line_address, NULL, 16), ==, field_off - cursor % hex->bpl);
  assert_contains (mshed_data_inspector_get_location (window->data_inspector), expect);
  assert_contains (gtk_widget_get_tooltip_text (hex->location_label), expect_res);
  assert_contains (gtk_widget_get_tooltip_text (hex->location_label), expect_model);

  /* the grid's record: its row tooltip gives the record's file offset */
  g_assert_cmpuint (_mshed_table_view_record_file_offset (gui_test_grid (window,
                                                                         MSHED_TABLE_SLOTS), 1),
                    ==, record_off);

  /* go to offset takes the same numbers: a byte of this resource ... */
  {
    g_autofree char *target = g_strdup_printf ("0x%" G_GINT64_MODIFIER "X", record_off + 68);

    go_to (hex, target);
    g_assert_false (gtk_widget_get_visible (hex->goto_error));
    g_assert_cmpuint (mshed_hex_model_to_file_offset (hm, mshed_hex_view_get_cursor_offset (hex)),
                      ==, record_off + 68);
  }
  /* ... of another resource (Res1, node 0), in decimal ... */
  {
    g_autofree char *target = g_strdup_printf ("%u", entry_off + res1_off);

    go_to (hex, target);
    g_assert_false (gtk_widget_get_visible (hex->goto_error));
    g_assert_cmpint (mshed_hex_model_get_res_index (hm), ==,
                     mshed_model_find_resource (mshed_document_get_model (doc), 1));
    g_assert_cmpuint (mshed_hex_view_get_cursor_offset (hex), ==, 0);
  }
  /* ... and the archive's own header is not part of this model: refused with the range */
  go_to (hex, "0x4");
  g_assert_true (gtk_widget_get_visible (hex->goto_popover));
  g_assert_true (gtk_widget_get_visible (hex->goto_error));
  {
    g_autofree char *first = g_strdup_printf ("0x%X", entry_off);

    assert_contains (gtk_label_get_text (GTK_LABEL (hex->goto_error)), first);
  }
  gtk_popover_popdown (GTK_POPOVER (hex->goto_popover));

  /* mshed-cli dump prints the record at the same file offset */
  {
    g_autofree char *cmd = g_strdup_printf ("'%s' dump -t slots --range 1 '%s'",
                                            g_getenv ("MSHED_CLI"), spec);
    g_autofree char *out = NULL;
    g_autofree char *record = g_strdup_printf ("0x%08" G_GINT64_MODIFIER "X", record_off);
    int status = -1;

    g_assert_true (g_spawn_command_line_sync (cmd, &out, NULL, &status, NULL));
    g_assert_cmpint (status, ==, 0);
    assert_contains (out, record);
  }

  mshed_document_undo (doc);
  gui_test_close (window);
}

int
main (int   argc,
      char *argv[])
{
  if (!gui_test_init (&argc, &argv, &app))
    return mshed_test_skip_program ("no display (run under xvfb-run)");

  g_test_add_func ("/app/offsets/nested", test_nested_offsets);
  return gui_test_run (app);
}
