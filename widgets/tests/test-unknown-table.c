/* test-unknown-table.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "hex-test-util.h"
#include "mshed-unknown-table.h"

typedef struct {
  MshedDocument *doc;
  GtkWidget     *table;
  GtkWidget     *window;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->doc = hex_test_document (23, 400);
  f->table = mshed_unknown_table_new ();
  mshed_unknown_table_set_document (MSHED_UNKNOWN_TABLE (f->table), f->doc);
  f->window = widget_test_window (f->table, 1000, 600);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (10);
  g_assert_finalize_object (f->doc);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

/* one summary, computed the slow way from the IR */
static void
expect_summary (guint32  *values,
                guint     n,
                guint    *n_distinct,
                guint32  *min,
                guint32  *max)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  *min = G_MAXUINT32;
  *max = 0;
  for (guint i = 0; i < n; i++)
    {
      g_hash_table_add (seen, GUINT_TO_POINTER (values[i]));
      *min = MIN (*min, values[i]);
      *max = MAX (*max, values[i]);
    }
  *n_distinct = g_hash_table_size (seen);
}

static void
test_slots_summary (Fixture       *f,
                    gconstpointer  data)
{
  MshedUnknownTable *table = MSHED_UNKNOWN_TABLE (f->table);
  MshedModel *model = mshed_document_get_model (f->doc);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  static const char *names[] = { "unk30", "unk34", "unk38", "unk3C", "unk40" };
  g_autofree guint32 *values = g_new0 (guint32, n);
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_unknown_table_set_table (table, MSHED_TABLE_SLOTS));
  g_assert_cmpuint (mshed_unknown_table_get_n_rows (table), ==, n);
  g_assert_cmpuint (mshed_unknown_table_get_n_columns (table), ==, 10);  /* hex + as f32 */
  g_assert_cmpstr (mshed_unknown_table_get_column_name (table, 0), ==, "unk30");

  for (guint k = 0; k < 5; k++)
    {
      MshedUnknownSummary s;
      guint n_distinct;
      guint32 min, max;

      for (guint i = 0; i < n; i++)
        {
          MshedSlot slot;

          g_assert_true (mshed_model_get_slot (model, i, &slot));
          values[i] = slot.unk[k];
        }
      expect_summary (values, n, &n_distinct, &min, &max);
      g_assert_true (mshed_unknown_table_get_summary (table, names[k], &s));
      g_assert_cmpuint (s.n_values, ==, n);
      g_assert_cmpuint (s.n_distinct, ==, n_distinct);
      g_assert_cmpfloat (s.min, ==, min);
      g_assert_cmpfloat (s.max, ==, max);
      g_assert_true (s.constant == (n_distinct == 1));
    }
  g_assert_false (mshed_unknown_table_set_table (table, MSHED_TABLE_POSITIONS));
  g_assert_cmpint (mshed_unknown_table_get_table (table), ==, MSHED_TABLE_SLOTS);

  /* an edit reaches the summary at once */
  g_assert_true (mshed_document_set_field (f->doc, MSHED_TABLE_SLOTS, 3, "unk30",
                                           (double) 0xFFFFFFF0u, &error));
  g_assert_no_error (error);
  {
    MshedUnknownSummary s;
    g_autofree char *csv = NULL;

    g_assert_true (mshed_unknown_table_get_summary (table, "unk30", &s));
    g_assert_cmpfloat (s.max, ==, (double) 0xFFFFFFF0u);
    mshed_unknown_table_sort (table, "unk30", GTK_SORT_DESCENDING);
    csv = mshed_unknown_table_to_csv (table);
    g_assert_true (g_str_has_prefix (strchr (csv, '\n') + 1, "3,0xFFFFFFF0,"));
  }
  g_assert_true (mshed_document_undo (f->doc));
  {
    MshedUnknownSummary s;
    guint n_distinct;
    guint32 min, max;

    for (guint i = 0; i < n; i++)
      {
        MshedSlot slot;

        g_assert_true (mshed_model_get_slot (model, i, &slot));
        values[i] = slot.unk[0];
      }
    expect_summary (values, n, &n_distinct, &min, &max);
    g_assert_true (mshed_unknown_table_get_summary (table, "unk30", &s));
    g_assert_cmpfloat (s.max, ==, max);
  }
  mshed_unknown_table_sort (table, NULL, GTK_SORT_ASCENDING);
  widget_test_screenshot (f->window, "unknown-table-slots.png");

  /* every unk34 a NaN: as f32 it has no range (shown as a dash, not 0) */
  mshed_document_begin_group (f->doc, "NaN");
  for (guint i = 0; i < n; i++)
    g_assert_true (mshed_document_set_field (f->doc, MSHED_TABLE_SLOTS, i, "unk34",
                                             (double) 0x7FC00000u, NULL));
  mshed_document_end_group (f->doc);
  {
    MshedUnknownSummary s;
    g_autofree char *min = NULL;
    g_autofree char *max = NULL;
    const char *as_float = mshed_unknown_table_get_column_name (table, 3);

    g_assert_cmpstr (as_float, ==, "unk34 as f32");
    g_assert_true (mshed_unknown_table_get_summary (table, as_float, &s));
    g_assert_cmpuint (s.n_values, ==, n);
    g_assert_cmpuint (s.n_finite, ==, 0);
    g_assert_true (mshed_unknown_table_format_range (table, as_float, &min, &max));
    g_assert_cmpstr (min, ==, "—");
    g_assert_cmpstr (max, ==, "—");
    g_clear_pointer (&min, g_free);
    g_clear_pointer (&max, g_free);
    /* the raw bits still have one */
    g_assert_true (mshed_unknown_table_format_range (table, "unk34", &min, &max));
    g_assert_cmpstr (min, ==, "0x7FC00000");
  }
  g_assert_true (mshed_document_undo (f->doc));
}

static void
test_nodes_csv (Fixture       *f,
                gconstpointer  data)
{
  MshedUnknownTable *table = MSHED_UNKNOWN_TABLE (f->table);
  MshedModel *model = mshed_document_get_model (f->doc);
  guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  g_autofree char *csv = NULL;
  g_autofree char *path = NULL;
  g_autofree char *read_back = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  MshedNode node;
  GString *bits = g_string_new (NULL);
  g_autofree char *expect = NULL;
  guint32 max_hdr0 = 0;

  g_assert_true (mshed_unknown_table_set_table (table, MSHED_TABLE_NODES));
  g_assert_cmpuint (mshed_unknown_table_get_n_rows (table), ==, n);
  g_assert_cmpuint (mshed_unknown_table_get_n_columns (table), ==, 2);
  g_assert_cmpstr (mshed_unknown_table_get_column_name (table, 1), ==, "hdr0 bits");

  csv = mshed_unknown_table_to_csv (table);
  g_assert_cmpuint (count_lines (csv), ==, n + 1);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "record,hdr0,hdr0 bits");
  g_assert_true (mshed_model_get_node (model, 1, &node));
  for (gint bit = 15; bit >= 0; bit--)
    {
      g_string_append_c (bits, (node.hdr0 >> bit) & 1 ? '1' : '0');
      if (bit > 0 && bit % 4 == 0)
        g_string_append_c (bits, ' ');
    }
  expect = g_strdup_printf ("1,0x%04X,%s", node.hdr0, bits->str);
  g_string_free (bits, TRUE);
  g_assert_cmpstr (lines[2], ==, expect);

  /* sorted by hdr0, largest first: the first data row has the largest value */
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (mshed_model_get_node (model, i, &node));
      max_hdr0 = MAX (max_hdr0, node.hdr0);
    }
  mshed_unknown_table_sort (table, "hdr0", GTK_SORT_DESCENDING);
  g_clear_pointer (&csv, g_free);
  g_clear_pointer (&lines, g_strfreev);
  csv = mshed_unknown_table_to_csv (table);
  lines = g_strsplit (csv, "\n", -1);
  {
    g_auto(GStrv) cells = g_strsplit (lines[1], ",", -1);

    g_assert_cmpuint (g_ascii_strtoull (cells[1] + 2, NULL, 16), ==, max_hdr0);
  }

  /* export writes the same text */
  path = g_build_filename (g_get_tmp_dir (), "mshed-unknown-XXXXXX.csv", NULL);
  {
    int fd = g_mkstemp (path);

    g_assert_cmpint (fd, >=, 0);
    close (fd);
  }
  g_assert_true (mshed_unknown_table_export_csv (table, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &read_back, NULL, &error));
  g_assert_cmpstr (read_back, ==, csv);
  g_unlink (path);

  /* triangle descriptors: flags and the unknown bits of selPacked */
  g_assert_true (mshed_unknown_table_set_table (table, MSHED_TABLE_TRIS));
  g_assert_cmpuint (mshed_unknown_table_get_n_rows (table), ==,
                    mshed_model_get_n_rows (model, MSHED_TABLE_TRIS));
  {
    MshedUnknownSummary s;

    g_assert_true (mshed_unknown_table_get_summary (table, "selPacked bits 6–15", &s));
    g_assert_cmpfloat (s.max, <=, 0x3FF);
  }
}

int
main (int   argc,
      char *argv[])
{
  if (!widget_test_init (&argc, &argv))
    {
      g_test_add_func ("/widgets/unknown-table/no-display", widget_test_skip);
      return g_test_run ();
    }
  g_test_add ("/widgets/unknown-table/slots-summary", Fixture, NULL, fixture_setup,
              test_slots_summary, fixture_teardown);
  g_test_add ("/widgets/unknown-table/nodes-csv", Fixture, NULL, fixture_setup,
              test_nodes_csv, fixture_teardown);
  return g_test_run ();
}
