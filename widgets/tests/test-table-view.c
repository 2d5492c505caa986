/* test-table-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The editable grid driven through its real widgets under Xvfb: editing through the editor
 * popover, rejected input, undo, copy and paste, sentinels, diagnostics and stale shading,
 * references, filtering, sorting, and the lazy model on a 200,000-triangle model.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "widget-test-util.h"
#include "mshed-error.h"
#include "mshed-table-model.h"
#include "mshed-table-view.h"
#include "mshed-table-view-private.h"

typedef struct {
  MshedDocument  *doc;
  MshedTableView *view;
  GtkWidget      *window;
} Fixture;

static void
fixture_setup (Fixture      *f,
               MshedTableId  table,
               guint         n_triangles,
               MshedMode     mode)
{
  f->doc = widget_test_document (7, n_triangles, 12, mode);
  f->view = MSHED_TABLE_VIEW (mshed_table_view_new (table));
  mshed_table_view_set_document (f->view, f->doc);
  f->window = widget_test_window (GTK_WIDGET (f->view), 1000, 600);
}

static void
fixture_teardown (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  widget_test_iterate (20);
  g_assert_finalize_object (f->doc);
}

static MshedModel *
model_of (Fixture *f)
{
  return mshed_document_get_model (f->doc);
}

/* The first node whose slot cell @cell holds a slot, and a different existing slot. */
static guint
node_with_slot (Fixture *f,
                guint    cell,
                guint   *slot,
                guint   *other)
{
  guint n = mshed_model_get_n_rows (model_of (f), MSHED_TABLE_NODES);
  guint n_slots = mshed_model_get_n_rows (model_of (f), MSHED_TABLE_SLOTS);
  MshedNode node;

  g_assert_cmpuint (n_slots, >=, 2);
  for (guint i = 0; i < n; i++)
    if (mshed_model_get_node (model_of (f), i, &node) && node.slot[cell] != MSHED_NONE)
      {
        *slot = node.slot[cell];
        *other = (*slot + 1) % n_slots;
        return i;
      }
  g_assert_not_reached ();
  return 0;
}

static void
editor_type (MshedTableView *view,
             const char     *text)
{
  MshedCellEditor *editor = _mshed_table_view_get_editor (view);
  GtkEditable *entry = mshed_cell_editor_get_entry (editor);

  g_assert_true (mshed_cell_editor_is_open (editor));
  gtk_editable_set_text (entry, text);
  g_signal_emit_by_name (entry, "activate");
  widget_test_iterate (30);
}

static gboolean
cell_has_class (MshedTableView *view,
                guint           row,
                const char     *field,
                const char     *css_class)
{
  GtkWidget *cell = _mshed_table_view_find_cell (view, row, field);

  g_assert_nonnull (cell);
  return gtk_widget_has_css_class (gtk_widget_get_parent (cell), css_class);
}

static const char *
cell_text (MshedTableView *view,
           guint           row,
           const char     *field)
{
  GtkWidget *cell = _mshed_table_view_find_cell (view, row, field);

  g_assert_nonnull (cell);
  return gtk_inscription_get_text (GTK_INSCRIPTION (cell));
}

/* Columns ---------------------------------------------------------------------------------- */

static void
test_columns (void)
{
  /* msh.md §4.1: slot cell k is LOD k / 5, group k % 5 */
  static const char *const slot_glosses[] = {
    "L0 G0", "L0 G1", "L0 G2", "L0 G3", "L0 G4", "L1 G0", "L1 G1", "L1 G2", "L1 G3", "L1 G4",
    "L2 G0", "L2 G1", "L2 G2", "L2 G3", "L2 G4",
  };
  g_autoptr(MshedTableModel) nodes = mshed_table_model_new (NULL, MSHED_TABLE_NODES);
  g_autoptr(MshedTableModel) verts = mshed_table_model_new (NULL, MSHED_TABLE_POSITIONS);
  g_autoptr(MshedTableModel) names = mshed_table_model_new (NULL, MSHED_TABLE_NAMES);
  g_autoptr(MshedTableModel) dir = mshed_table_model_new (NULL, MSHED_TABLE_DIRECTORY);
  const MshedTableColumn *c;
  gint i;

  /* nodes: the name, hdr0..hdr3, then the 15 slot cells: named slot0..slot14 as in the
   * schema, mshed-cli and the diagnostics, with what they mean (L?G?) under the name */
  g_assert_cmpuint (mshed_table_model_get_n_columns (nodes), ==, 1 + 4 + 15);
  for (guint k = 0; k < 4; k++)
    {
      g_autofree char *id = g_strdup_printf ("hdr%u", k);

      g_assert_cmpint (mshed_table_model_find_column (nodes, id), ==, 1 + (gint) k);
    }
  for (guint k = 0; k < 15; k++)
    {
      g_autofree char *title = g_strdup_printf ("slot%u\n%s", k, slot_glosses[k]);
      g_autofree char *label = g_strdup_printf ("slot%u (%s)", k, slot_glosses[k]);
      g_autofree char *id = g_strdup_printf ("slot%u", k);

      c = mshed_table_model_get_column (nodes, 5 + k);
      g_assert_cmpstr (c->id, ==, id);
      g_assert_cmpstr (c->title, ==, title);
      g_assert_cmpstr (c->label, ==, label);
      g_assert_cmpstr (c->gloss, ==, slot_glosses[k]);
    }
  g_assert_cmpstr (mshed_table_model_get_column (nodes, 1)->label, ==, "hdr0");
  g_assert_null (mshed_table_model_get_column (nodes, 1)->gloss);
  c = mshed_table_model_get_column (nodes, (guint) mshed_table_model_find_column (nodes, "hdr1"));
  g_assert_cmpint (c->field->ref, ==, MSHED_TABLE_NODES);

  /* vertices: decoded positions, normals, UVs; raw columns hidden by default */
  i = mshed_table_model_find_column (verts, "nx");
  g_assert_cmpint (i, >=, 0);
  c = mshed_table_model_get_column (verts, (guint) i);
  g_assert_cmpint (c->kind, ==, MSHED_COLUMN_DECODED);
  g_assert_cmpint (c->table, ==, MSHED_TABLE_NORMALS);
  g_assert_false (c->raw);
  c = mshed_table_model_get_column (verts, (guint) mshed_table_model_find_column (verts, "nx.raw"));
  g_assert_true (c->raw);
  g_assert_true (mshed_table_model_get_column (verts, (guint) mshed_table_model_find_column (
                                                        verts, "nw"))->raw);
  g_assert_cmpint (mshed_table_model_find_column (verts, "u"), >=, 0);
  g_assert_cmpint (mshed_table_model_find_column (verts, "v.raw"), >=, 0);

  /* names: length, text, raw bytes */
  g_assert_cmpuint (mshed_table_model_get_n_columns (names), ==, 3);
  g_assert_cmpint (mshed_table_model_find_column (names, "text"), ==, 1);

  /* names: the columns of mshed-cli dump --table names */
  g_assert_cmpstr (mshed_table_model_get_column (names, 0)->title, ==, "length");
  g_assert_cmpstr (mshed_table_model_get_column (names, 2)->title, ==, "bytes");

  /* directory: type, name, attributes, size, data_offset, sort index (as mshed-cli dump) */
  g_assert_cmpstr (mshed_table_model_get_column (dir, (guint) mshed_table_model_find_column (
                                                        dir, "data_offset"))->title,
                   ==, "data_offset");
  g_assert_cmpint (mshed_table_model_find_column (dir, "type"), ==, 0);
  g_assert_cmpint (mshed_table_model_find_column (dir, "name"), ==, 1);
  g_assert_cmpint (mshed_table_model_find_column (dir, "attr3"), >=, 0);
  g_assert_cmpint (mshed_table_model_find_column (dir, "sort_index"), >=, 0);
  g_assert_false (mshed_table_model_get_column (dir, (guint) mshed_table_model_find_column (
                                                       dir, "size"))->editable);
  g_assert_true (mshed_table_model_get_column (dir, (guint) mshed_table_model_find_column (
                                                      dir, "attr1"))->editable);
}

/* Editing a slot cell through the editor, undo, redo -------------------------------------- */

static void
test_edit_slot_cell (void)
{
  Fixture f;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) after_undo = NULL;
  g_autoptr(GBytes) after_redo = NULL;
  g_autofree char *expect = NULL;
  guint slot, other, node;
  MshedNode rec;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, MSHED_TABLE_NODES, 400, MSHED_MODE_STRICT);
  original = mshed_document_serialize (f.doc);
  node = node_with_slot (&f, 1, &slot, &other);

  /* the keyboard path: reveal the cell, F2's action opens the editor on it */
  mshed_table_view_reveal (f.view, node, "slot1");
  widget_test_iterate (50);
  expect = g_strdup_printf ("%u", slot);
  g_assert_cmpstr (cell_text (f.view, node, "slot1"), ==, expect);
  g_assert_true (cell_has_class (f.view, node, "slot1", "current"));
  gtk_widget_activate_action (GTK_WIDGET (f.view), "table.edit", NULL);
  g_assert_true (mshed_cell_editor_is_open (_mshed_table_view_get_editor (f.view)));
  g_assert_cmpstr (gtk_editable_get_text (mshed_cell_editor_get_entry (
                                            _mshed_table_view_get_editor (f.view))),
                   ==, expect);

  g_free (expect);
  expect = g_strdup_printf ("%u", other);
  editor_type (f.view, expect);
  g_assert_false (mshed_cell_editor_is_open (_mshed_table_view_get_editor (f.view)));
  g_assert_null (mshed_cell_editor_get_error (_mshed_table_view_get_editor (f.view)));

  edited = mshed_document_serialize (f.doc);
  g_assert_false (g_bytes_equal (original, edited));
  g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
  g_assert_cmpuint (rec.slot[1], ==, other);
  g_assert_cmpstr (cell_text (f.view, node, "slot1"), ==, expect);
  g_assert_true (mshed_document_can_undo (f.doc));

  /* "none" can be typed, shows as none and is greyed */
  g_assert_true (mshed_table_view_start_editing (f.view, node, "slot1"));
  editor_type (f.view, "none");
  g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
  g_assert_cmpuint (rec.slot[1], ==, MSHED_NONE);
  g_assert_cmpstr (cell_text (f.view, node, "slot1"), ==, "none");
  g_assert_true (cell_has_class (f.view, node, "slot1", "none"));

  /* consecutive edits of one cell merge into one step: undo restores the loaded bytes */
  g_assert_true (mshed_document_undo (f.doc));
  g_assert_false (mshed_document_can_undo (f.doc));
  widget_test_iterate (30);
  after_undo = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, after_undo));
  g_free (expect);
  expect = g_strdup_printf ("%u", slot);
  g_assert_cmpstr (cell_text (f.view, node, "slot1"), ==, expect);
  g_assert_false (cell_has_class (f.view, node, "slot1", "none"));
  g_assert_false (mshed_document_get_modified (f.doc));

  g_assert_true (mshed_document_redo (f.doc));
  widget_test_iterate (30);
  after_redo = mshed_document_serialize (f.doc);
  g_assert_false (g_bytes_equal (original, after_redo));
  g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
  g_assert_cmpuint (rec.slot[1], ==, MSHED_NONE);
  g_assert_cmpstr (cell_text (f.view, node, "slot1"), ==, "none");

  fixture_teardown (&f);
}

/* Invalid input is refused with the reason, the model untouched ---------------------------- */

static void
test_reject_invalid (void)
{
  static const struct {
    const char *field;
    const char *text;
    const char *reason;
  } cases[] = {
    { "slot0", "70000", "out of range" },
    { "slot0", "-1", "out of range" },
    { "slot0", "three", "not an integer" },
    { "slot0", "", "not an integer" },
    { "hdr0", "0x1G", "not an integer" },
    { "hdr1", "1.5", "not an integer" },
  };
  Fixture f;
  g_autoptr(GBytes) original = NULL;
  MshedCellEditor *editor;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, MSHED_TABLE_NODES, 200, MSHED_MODE_STRICT);
  original = mshed_document_serialize (f.doc);
  editor = _mshed_table_view_get_editor (f.view);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) now = NULL;

      g_test_message ("%s := \"%s\"", cases[i].field, cases[i].text);
      g_assert_true (mshed_table_view_start_editing (f.view, 1, cases[i].field));
      editor_type (f.view, cases[i].text);
      /* still open, with the GError's explanation */
      g_assert_true (mshed_cell_editor_is_open (editor));
      g_assert_nonnull (mshed_cell_editor_get_error (editor));
      g_assert_nonnull (strstr (mshed_cell_editor_get_error (editor), cases[i].reason));
      g_assert_nonnull (strstr (mshed_cell_editor_get_error (editor), cases[i].field));
      now = mshed_document_serialize (f.doc);
      g_assert_true (g_bytes_equal (original, now));
      g_assert_false (mshed_document_can_undo (f.doc));
      g_assert_false (mshed_document_get_modified (f.doc));
      gtk_popover_popdown (GTK_POPOVER (editor));
      widget_test_iterate (20);
    }

  /* typing a value of the same cell again changes nothing and leaves no undo step */
  {
    g_autofree char *same = NULL;
    MshedNode rec;

    g_assert_true (mshed_model_get_node (model_of (&f), 1, &rec));
    same = rec.slot[0] == MSHED_NONE ? g_strdup ("none") : g_strdup_printf ("%u", rec.slot[0]);
    g_assert_true (mshed_table_view_start_editing (f.view, 1, "slot0"));
    editor_type (f.view, same);
    g_assert_false (mshed_cell_editor_is_open (editor));
    g_assert_false (mshed_document_can_undo (f.doc));
  }

  /* a read-only cell does not open */
  g_assert_false (mshed_table_view_start_editing (f.view, 1, "no-such-field"));

  fixture_teardown (&f);
}

/* Decoded vertex columns ------------------------------------------------------------------- */

static void
test_decoded_columns (void)
{
  Fixture f;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) now = NULL;
  MshedCellEditor *editor;
  const guint8 *rec;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, MSHED_TABLE_POSITIONS, 200, MSHED_MODE_STRICT);
  original = mshed_document_serialize (f.doc);
  editor = _mshed_table_view_get_editor (f.view);

  /* the raw column is hidden until asked for */
  g_assert_null (_mshed_table_view_find_cell (f.view, 0, "nx.raw"));
  mshed_table_view_set_show_raw (f.view, TRUE);
  widget_test_iterate (50);
  g_assert_nonnull (_mshed_table_view_find_cell (f.view, 0, "nx.raw"));

  /* out of the decoded range: refused, nothing changed */
  g_assert_true (mshed_table_view_start_editing (f.view, 0, "nx"));
  editor_type (f.view, "2");
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_nonnull (strstr (mshed_cell_editor_get_error (editor), "out of range"));
  now = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, now));
  gtk_popover_popdown (GTK_POPOVER (editor));

  /* a decimal comma is accepted; 0,5 is stored as round (0.5 × 127) = 64 */
  g_assert_true (mshed_table_view_start_editing (f.view, 0, "nx"));
  editor_type (f.view, "0,5");
  g_assert_false (mshed_cell_editor_is_open (editor));
  rec = mshed_model_get_record (model_of (&f), MSHED_TABLE_NORMALS, 0);
  g_assert_cmpint ((gint8) rec[0], ==, 64);
  g_assert_cmpstr (cell_text (f.view, 0, "nx.raw"), ==, "64");
  g_assert_cmpstr (cell_text (f.view, 0, "nx"), ==, "0.50394");

  g_assert_true (mshed_document_undo (f.doc));
  g_clear_pointer (&now, g_bytes_unref);
  now = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, now));

  fixture_teardown (&f);
}

/* Copy and paste ---------------------------------------------------------------------------- */

static char *
format_slot (guint16 v)
{
  return v == MSHED_NONE ? g_strdup ("none") : g_strdup_printf ("%u", v);
}

static void
test_copy_paste (void)
{
  Fixture f;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GString) expect = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *copied = NULL;
  GListModel *rows;
  MshedNode rec;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, MSHED_TABLE_NODES, 300, MSHED_MODE_STRICT);
  original = mshed_document_serialize (f.doc);
  rows = _mshed_table_view_get_rows (f.view);

  /* rows 0..2 × slot0..slot2 */
  gtk_selection_model_select_range (GTK_SELECTION_MODEL (rows), 0, 3, TRUE);
  _mshed_table_view_set_current (f.view, 0, "slot2", "slot0");
  copied = mshed_table_view_copy_selection (f.view);
  for (guint r = 0; r < 3; r++)
    {
      g_autofree char *a = NULL, *b = NULL, *c = NULL;

      g_assert_true (mshed_model_get_node (model_of (&f), r, &rec));
      a = format_slot (rec.slot[0]);
      b = format_slot (rec.slot[1]);
      c = format_slot (rec.slot[2]);
      g_string_append_printf (expect, "%s\t%s\t%s\n", a, b, c);
    }
  g_assert_cmpstr (copied, ==, expect->str);

  /* paste them onto rows 5..7 (a spreadsheet's CRLF lines work too): one undo step */
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (rows), 5, TRUE);
  _mshed_table_view_set_current (f.view, 5, "slot0", NULL);
  {
    g_autofree char *crlf = NULL;
    g_auto(GStrv) lines = g_strsplit (copied, "\n", -1);

    crlf = g_strjoinv ("\r\n", lines);
    g_assert_true (mshed_table_view_paste_text (f.view, crlf, &error));
    g_assert_no_error (error);
  }
  for (guint r = 0; r < 3; r++)
    {
      MshedNode src, dst;

      g_assert_true (mshed_model_get_node (model_of (&f), r, &src));
      g_assert_true (mshed_model_get_node (model_of (&f), 5 + r, &dst));
      g_assert_cmpmem (src.slot, 3 * sizeof (guint16), dst.slot, 3 * sizeof (guint16));
    }
  now = mshed_document_serialize (f.doc);
  if (!g_bytes_equal (original, now))
    {
      g_assert_true (mshed_document_undo (f.doc));
      g_clear_pointer (&now, g_bytes_unref);
      now = mshed_document_serialize (f.doc);
    }
  g_assert_true (g_bytes_equal (original, now));
  g_assert_false (mshed_document_can_undo (f.doc));

  /* one bad value refuses the whole paste */
  g_assert_false (mshed_table_view_paste_text (f.view, "1\t2\nnone\tbanana\n", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "banana"));
  g_clear_error (&error);
  g_clear_pointer (&now, g_bytes_unref);
  now = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, now));
  g_assert_false (mshed_document_can_undo (f.doc));

  /* more columns than the table has to the right: refused */
  _mshed_table_view_set_current (f.view, 5, "slot14", NULL);
  g_assert_false (mshed_table_view_paste_text (f.view, "1\t2\n", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* one value over several selected rows fills them, still one undo step */
  gtk_selection_model_select_range (GTK_SELECTION_MODEL (rows), 2, 4, TRUE);
  _mshed_table_view_set_current (f.view, 2, "slot4", NULL);
  g_assert_true (mshed_table_view_paste_text (f.view, "none", &error));
  g_assert_no_error (error);
  for (guint r = 2; r < 6; r++)
    {
      g_assert_true (mshed_model_get_node (model_of (&f), r, &rec));
      g_assert_cmpuint (rec.slot[4], ==, MSHED_NONE);
    }
  if (mshed_document_can_undo (f.doc))
    g_assert_true (mshed_document_undo (f.doc));
  g_assert_false (mshed_document_can_undo (f.doc));
  g_clear_pointer (&now, g_bytes_unref);
  now = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, now));

  fixture_teardown (&f);
}

/* Diagnostics, stale cells, sentinels and hex ------------------------------------------------ */

static void
test_cell_states (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  GtkWidget *box, *slots_view, *cell;
  guint n_slots, node = 0, s;
  const char *tip;
  MshedNode rec;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  f.doc = widget_test_document (11, 300, 10, MSHED_MODE_TOLERANT);
  f.view = MSHED_TABLE_VIEW (mshed_table_view_new (MSHED_TABLE_NODES));
  slots_view = mshed_table_view_new (MSHED_TABLE_SLOTS);
  mshed_table_view_set_document (f.view, f.doc);
  mshed_table_view_set_document (MSHED_TABLE_VIEW (slots_view), f.doc);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_vexpand (GTK_WIDGET (f.view), TRUE);
  gtk_widget_set_vexpand (slots_view, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (f.view));
  gtk_box_append (GTK_BOX (box), slots_view);
  f.window = widget_test_window (box, 1100, 800);

  /* sentinel and hex: node 0 is a root; flags show as hex */
  g_assert_true (mshed_model_get_node (model_of (&f), 0, &rec));
  g_assert_cmpuint (rec.hdr1, ==, MSHED_NONE);
  g_assert_cmpstr (cell_text (f.view, 0, "hdr1"), ==, "none");
  g_assert_true (cell_has_class (f.view, 0, "hdr1", "none"));
  g_assert_true (g_str_has_prefix (cell_text (f.view, 0, "hdr0"), "0x"));
  g_assert_cmpuint (strlen (cell_text (f.view, 0, "hdr0")), ==, 6);

  /* an invalid slot reference: the cell is marked as an error even in a tolerant document
   * (one classification everywhere), the tooltip is the diagnostic with what the tolerant
   * reader does about it ("ignored: nothing is drawn") */
  n_slots = mshed_model_get_n_rows (model_of (&f), MSHED_TABLE_SLOTS);
  g_assert_false (cell_has_class (f.view, node, "slot2", "invalid"));
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_NODES, node, "slot2",
                                           n_slots + 5, &error));
  g_assert_no_error (error);
  widget_test_iterate (50);
  g_assert_true (cell_has_class (f.view, node, "slot2", "invalid"));
  g_assert_false (cell_has_class (f.view, node, "slot2", "warning"));
  cell = _mshed_table_view_find_cell (f.view, node, "slot2");
  tip = gtk_widget_get_tooltip_text (cell);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "slot2"));
  g_assert_nonnull (strstr (tip, "ignored"));
  g_assert_false (cell_has_class (f.view, node, "slot1", "invalid"));
  g_assert_true (cell_has_class (f.view, node, "#", "invalid"));

  /* following it refuses and explains: the slot does not exist */
  _mshed_table_view_set_current (f.view, node, "slot2", NULL);
  g_assert_false (_mshed_table_view_follow_current (f.view));

  g_assert_true (mshed_document_undo (f.doc));
  widget_test_iterate (50);
  g_assert_false (cell_has_class (f.view, node, "slot2", "warning"));

  /* moving a vertex makes the bounds of the slots drawing it stale: shaded */
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_POSITIONS, 0, "x", 1000.0,
                                           &error));
  g_assert_no_error (error);
  widget_test_iterate (50);
  for (s = 0; s < n_slots; s++)
    if (mshed_document_get_row_stale (f.doc, MSHED_TABLE_SLOTS, s) & MSHED_DERIVED_SLOT_BOUNDS)
      break;
  g_assert_cmpuint (s, <, n_slots);
  mshed_table_view_reveal (MSHED_TABLE_VIEW (slots_view), s, "aabbMinX");
  widget_test_iterate (80);
  g_assert_true (cell_has_class (MSHED_TABLE_VIEW (slots_view), s, "aabbMinX", "stale"));
  g_assert_false (cell_has_class (MSHED_TABLE_VIEW (slots_view), s, "triStart", "stale"));
  g_assert_true (mshed_document_undo (f.doc));
  widget_test_iterate (50);
  g_assert_false (cell_has_class (MSHED_TABLE_VIEW (slots_view), s, "aabbMinX", "stale"));

  /* linked-selection highlight: no signal */
  {
    guint rows[] = { 1, 3 };

    mshed_table_view_set_highlight (f.view, rows, G_N_ELEMENTS (rows));
    g_assert_true (cell_has_class (f.view, 1, "slot0", "highlight"));
    g_assert_false (cell_has_class (f.view, 2, "slot0", "highlight"));
    mshed_table_view_set_highlight (f.view, NULL, 0);
    g_assert_false (cell_has_class (f.view, 1, "slot0", "highlight"));
  }

  fixture_teardown (&f);
}

/* References and selection ------------------------------------------------------------------ */

static void
record_follow (MshedTableView *view,
               gint            table,
               guint           row,
               GArray         *out)
{
  g_array_append_val (out, table);
  g_array_append_val (out, row);
}

static void
record_row (MshedTableView *view,
            guint           row,
            GArray         *out)
{
  g_array_append_val (out, row);
}

static void
test_references (void)
{
  Fixture f;
  g_autoptr(GArray) follows = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) selected = g_array_new (FALSE, FALSE, sizeof (guint));
  guint slot, other, node, child = G_MAXUINT, row;
  MshedNode rec;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, MSHED_TABLE_NODES, 300, MSHED_MODE_STRICT);
  g_signal_connect (f.view, "follow-reference", G_CALLBACK (record_follow), follows);
  g_signal_connect (f.view, "row-selected", G_CALLBACK (record_row), selected);

  node = node_with_slot (&f, 0, &slot, &other);
  _mshed_table_view_set_current (f.view, node, "slot0", NULL);
  g_assert_true (_mshed_table_view_follow_current (f.view));
  g_assert_cmpuint (follows->len, ==, 2);
  g_assert_cmpint (g_array_index (follows, gint, 0), ==, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (g_array_index (follows, guint, 1), ==, slot);

  for (guint i = 0; i < mshed_model_get_n_rows (model_of (&f), MSHED_TABLE_NODES); i++)
    if (mshed_model_get_node (model_of (&f), i, &rec) && rec.hdr1 != MSHED_NONE)
      {
        child = i;
        break;
      }
  g_assert_cmpuint (child, !=, G_MAXUINT);
  _mshed_table_view_set_current (f.view, child, "hdr1", NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "table.follow-reference", NULL));
  g_assert_cmpuint (follows->len, ==, 4);
  g_assert_cmpint (g_array_index (follows, gint, 2), ==, MSHED_TABLE_NODES);
  g_assert_cmpuint (g_array_index (follows, guint, 3), ==, rec.hdr1);

  /* a "none" cell and a plain number follow nowhere */
  _mshed_table_view_set_current (f.view, 0, "hdr1", NULL);
  g_assert_false (_mshed_table_view_follow_current (f.view));
  g_assert_cmpuint (follows->len, ==, 4);

  /* the user's selection is reported; reveal() and set_highlight() are not */
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (_mshed_table_view_get_rows (f.view)), 4,
                                   TRUE);
  g_assert_cmpuint (selected->len, ==, 1);
  g_assert_cmpuint (g_array_index (selected, guint, 0), ==, 4);
  g_assert_true (mshed_table_view_get_selected_row (f.view, &row));
  g_assert_cmpuint (row, ==, 4);
  mshed_table_view_reveal (f.view, 7, "slot3");
  widget_test_iterate (50);
  g_assert_cmpuint (selected->len, ==, 1);
  g_assert_true (mshed_table_view_get_selected_row (f.view, &row));
  g_assert_cmpuint (row, ==, 7);
  g_assert_true (cell_has_class (f.view, 7, "slot3", "current"));

  fixture_teardown (&f);
}

/* Real input through the X server (xdotool): double-click, typing, Ctrl+click, keys ---------- */

static gboolean
xdo (const char *args)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *cmd = NULL;
  int status = 0;

  g_assert_nonnull (xdotool);
  cmd = g_strdup_printf ("%s %s", xdotool, args);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  widget_test_iterate (120);
  return status == 0;
}

/* Moves the pointer over the middle of a shown cell. */
static void
point_at_cell (Fixture    *f,
               guint       row,
               const char *field)
{
  GtkWidget *cell = _mshed_table_view_find_cell (f->view, row, field);
  g_autofree char *args = NULL;
  graphene_rect_t b;
  double sx = 0, sy = 0;

  g_assert_nonnull (cell);
  g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_parent (cell), f->window, &b));
  gtk_native_get_surface_transform (GTK_NATIVE (f->window), &sx, &sy);
  args = g_strdup_printf ("mousemove %d %d", (int) (b.origin.x + sx + b.size.width / 2),
                          (int) (b.origin.y + sy + b.size.height / 2));
  g_assert_true (xdo (args));
}

static void
test_real_input (void)
{
  Fixture f;
  g_autoptr(GArray) follows = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  MshedCellEditor *editor;
  guint slot, other, node;
  MshedNode rec;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
#ifdef GDK_WINDOWING_X11
  if (xdotool == NULL || !GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
#endif
    {
      mshed_test_skip ("needs xdotool and an X display");
      return;
    }
  fixture_setup (&f, MSHED_TABLE_NODES, 300, MSHED_MODE_STRICT);
  g_signal_connect (f.view, "follow-reference", G_CALLBACK (record_follow), follows);
  editor = _mshed_table_view_get_editor (f.view);
  original = mshed_document_serialize (f.doc);
  node = node_with_slot (&f, 0, &slot, &other);

  /* double-click opens the editor on that cell; typing and Return commit */
  point_at_cell (&f, node, "slot0");
  g_assert_true (xdo ("click --repeat 2 --delay 60 1"));
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_cmpstr (gtk_editable_get_text (mshed_cell_editor_get_entry (editor)), ==,
                   cell_text (f.view, node, "slot0"));
  g_assert_true (xdo ("key --delay 20 ctrl+a"));
  g_assert_true (xdo ("type --delay 20 none"));
  g_assert_true (xdo ("key Return"));
  g_assert_false (mshed_cell_editor_is_open (editor));
  g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
  g_assert_cmpuint (rec.slot[0], ==, MSHED_NONE);

  /* Escape abandons an edit; F2 opens it again on the current cell */
  g_assert_true (xdo ("key F2"));
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_true (xdo ("type --delay 20 12345"));
  g_assert_true (xdo ("key Escape"));
  g_assert_false (mshed_cell_editor_is_open (editor));
  g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
  g_assert_cmpuint (rec.slot[0], ==, MSHED_NONE);

  /* Tab commits (here: the same value, no undo step) and edits the next column */
  g_assert_true (xdo ("key F2"));
  g_assert_true (xdo ("key Tab"));
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_cmpstr (gtk_editable_get_text (mshed_cell_editor_get_entry (editor)), ==,
                   cell_text (f.view, node, "slot1"));
  /* the new editor has the keyboard */
  g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
  {
    guint n_slots = mshed_model_get_n_rows (model_of (&f), MSHED_TABLE_SLOTS);
    guint want = rec.slot[1] == MSHED_NONE ? 0 : (rec.slot[1] + 1u) % n_slots;
    g_autofree char *type = g_strdup_printf ("type %u", want);

    g_assert_true (xdo ("key --delay 20 ctrl+a"));
    g_assert_true (xdo (type));
    g_assert_true (xdo ("key Return"));
    g_assert_false (mshed_cell_editor_is_open (editor));
    g_assert_true (mshed_model_get_node (model_of (&f), node, &rec));
    g_assert_cmpuint (rec.slot[1], ==, want);
  }
  g_assert_cmpuint (rec.slot[0], ==, MSHED_NONE);
  g_assert_true (mshed_document_undo (f.doc));   /* slot1 */
  widget_test_iterate (30);

  /* Right moves to the next column; typing starts an edit with what was typed */
  g_assert_true (cell_has_class (f.view, node, "slot1", "current"));
  g_assert_true (xdo ("key Right"));
  g_assert_true (cell_has_class (f.view, node, "slot2", "current"));
  g_assert_false (cell_has_class (f.view, node, "slot1", "current"));
  g_assert_true (xdo ("type 7"));
  g_assert_true (mshed_cell_editor_is_open (editor));
  g_assert_cmpstr (gtk_editable_get_text (mshed_cell_editor_get_entry (editor)), ==, "7");
  g_assert_true (xdo ("key Escape"));

  /* Ctrl+click on a reference follows it */
  g_assert_true (mshed_document_undo (f.doc));
  widget_test_iterate (50);
  point_at_cell (&f, node, "slot0");
  g_assert_true (xdo ("keydown ctrl click 1 keyup ctrl"));
  g_assert_cmpuint (follows->len, ==, 2);
  g_assert_cmpint (g_array_index (follows, gint, 0), ==, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (g_array_index (follows, guint, 1), ==, slot);

  now = mshed_document_serialize (f.doc);
  g_assert_true (g_bytes_equal (original, now));

  fixture_teardown (&f);
}

/* Structural changes: rows inserted and removed, renumbered in place ------------------------- */

static void
assert_row_numbers (Fixture *f,
                    guint    n)
{
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *cell = _mshed_table_view_find_cell (f->view, i, "#");
      g_autofree char *expect = g_strdup_printf ("%u", i);

      g_assert_nonnull (cell);
      g_assert_cmpstr (gtk_inscription_get_text (GTK_INSCRIPTION (cell)), ==, expect);
    }
}

static void
test_structural (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedTableRow) kept = NULL;
  g_autofree char *name2 = NULL;
  MshedTableModel *model;
  guint n;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, MSHED_TABLE_NODES, 300, MSHED_MODE_STRICT);
  model = _mshed_table_view_get_model (f.view);
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  name2 = mshed_model_dup_name (model_of (&f), 2);
  kept = g_list_model_get_item (G_LIST_MODEL (model), 5);

  g_assert_true (mshed_document_insert_rows (f.doc, MSHED_TABLE_NODES, 2, 1, NULL, &error));
  g_assert_no_error (error);
  widget_test_iterate (50);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n + 1);
  g_assert_cmpuint (g_list_model_get_n_items (_mshed_table_view_get_rows (f.view)), ==, n + 1);
  /* the row object of record 5 is now record 6, or was dropped when the change names the
   * whole tail as replaced; every shown number is right either way */
  g_assert_true (mshed_table_row_get_index (kept) == 6 ||
                 mshed_table_row_get_index (kept) == G_MAXUINT);
  assert_row_numbers (&f, n + 1);
  if (name2 != NULL)
    g_assert_cmpstr (cell_text (f.view, 3, "name"), ==, name2);

  g_assert_true (mshed_document_delete_rows (f.doc, MSHED_TABLE_NODES, 0, 2, &error));
  g_assert_no_error (error);
  widget_test_iterate (50);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n - 1);
  assert_row_numbers (&f, n - 1);

  while (mshed_document_can_undo (f.doc))
    g_assert_true (mshed_document_undo (f.doc));
  widget_test_iterate (50);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);
  assert_row_numbers (&f, n);
  g_assert_cmpuint (mshed_table_model_get_n_live_rows (model), <=, n);

  fixture_teardown (&f);
}

/* Filtering and sorting --------------------------------------------------------------------- */

/* Sorts as a click on the header does; @field NULL: the row-number column. */
static void
sort_by (MshedTableView *view,
         const char     *field,
         GtkSortType     order)
{
  /* the row number and a node's name are in the key columns' view, the others in the main one */
  GtkColumnViewColumn *column = _mshed_table_view_get_view_column (view, field ? field : "#");

  g_assert_nonnull (column);
  gtk_column_view_sort_by_column (gtk_column_view_column_get_column_view (column), column, order);
}

static void
test_filter_sort (void)
{
  Fixture f;
  GListModel *rows;
  MshedTableModel *model;
  guint n, n_none = 0;
  double prev;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  fixture_setup (&f, MSHED_TABLE_NODES, 300, MSHED_MODE_STRICT);
  rows = _mshed_table_view_get_rows (f.view);
  model = _mshed_table_view_get_model (f.view);
  n = g_list_model_get_n_items (rows);
  g_assert_cmpuint (n, ==, 12);

  mshed_table_view_set_filter_text (f.view, "#5");
  widget_test_iterate (30);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 1);
  {
    g_autoptr(MshedTableRow) r = g_list_model_get_item (rows, 0);

    g_assert_cmpuint (mshed_table_row_get_index (r), ==, 5);
  }

  for (guint i = 0; i < n; i++)
    {
      MshedNode rec;

      g_assert_true (mshed_model_get_node (mshed_document_get_model (f.doc), i, &rec));
      n_none += rec.hdr1 == MSHED_NONE;
    }
  mshed_table_view_set_filter_text (f.view, "hdr1=none");
  widget_test_iterate (30);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_none);

  /* reveal() of a filtered-out row clears the filter */
  mshed_table_view_reveal (f.view, n - 1, NULL);
  widget_test_iterate (30);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n);

  /* sorting by a slot column: descending values */
  sort_by (f.view, "slot0", GTK_SORT_DESCENDING);
  widget_test_iterate (30);
  prev = G_MAXDOUBLE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MshedTableRow) r = g_list_model_get_item (rows, i);
      double v;

      g_assert_true (mshed_table_model_get_cell_value (model, mshed_table_row_get_index (r),
                                                       (guint) mshed_table_model_find_column (
                                                         model, "slot0"),
                                                       &v));
      g_assert_cmpfloat (v, <=, prev);
      prev = v;
    }
  /* and the row-number column back to ascending: the identity */
  sort_by (f.view, NULL, GTK_SORT_ASCENDING);
  widget_test_iterate (30);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MshedTableRow) r = g_list_model_get_item (rows, i);

      g_assert_cmpuint (mshed_table_row_get_index (r), ==, i);
    }

  fixture_teardown (&f);
}

/* A 200,000-triangle model: O(visible) row objects ------------------------------------------ */

static void
wait_sorted (GtkSortListModel *sort)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (gtk_sort_list_model_get_pending (sort) > 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (gtk_sort_list_model_get_pending (sort), ==, 0);
}

static void
test_lazy_large (void)
{
  Fixture f;
  MshedTableModel *model;
  GtkWidget *box, *indices;
  GtkSortListModel *sort;
  gint64 t0;
  guint n;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  t0 = g_get_monotonic_time ();
  f.doc = widget_test_document (3, MSHED_GEN_MAX_TRIANGLES, 20, MSHED_MODE_STRICT);
  g_test_message ("generated and opened 200k triangles in %.0f ms",
                  (g_get_monotonic_time () - t0) / 1000.0);

  f.view = MSHED_TABLE_VIEW (mshed_table_view_new (MSHED_TABLE_TRIS));
  indices = mshed_table_view_new (MSHED_TABLE_INDICES);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (f.view), TRUE);
  gtk_widget_set_hexpand (indices, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (f.view));
  gtk_box_append (GTK_BOX (box), indices);
  t0 = g_get_monotonic_time ();
  mshed_table_view_set_document (f.view, f.doc);
  mshed_table_view_set_document (MSHED_TABLE_VIEW (indices), f.doc);
  f.window = widget_test_window (box, 1200, 700);
  g_test_message ("first frame with both grids in %.0f ms",
                  (g_get_monotonic_time () - t0) / 1000.0);

  model = _mshed_table_view_get_model (f.view);
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  /* Res7 descriptors are addressed by u16 slot ranges: fewer than the triangles */
  g_assert_cmpuint (n, ==, mshed_model_get_n_rows (mshed_document_get_model (f.doc),
                                                   MSHED_TABLE_TRIS));
  g_assert_cmpuint (n, >, 10000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (
                      _mshed_table_view_get_model (MSHED_TABLE_VIEW (indices)))),
                    ==, 3 * MSHED_GEN_MAX_TRIANGLES);
  g_test_message ("live rows: %u triangles, %u indices; created %" G_GUINT64_FORMAT,
                  mshed_table_model_get_n_live_rows (model),
                  mshed_table_model_get_n_live_rows (
                    _mshed_table_view_get_model (MSHED_TABLE_VIEW (indices))),
                  mshed_table_model_get_n_created (model));
  g_assert_cmpuint (mshed_table_model_get_n_live_rows (model), <, 400);
  g_assert_cmpuint (mshed_table_model_get_n_live_rows (
                      _mshed_table_view_get_model (MSHED_TABLE_VIEW (indices))),
                    <, 400);
  g_assert_cmpuint (mshed_table_model_get_n_created (model), <, 2000);

  /* jump to the end: the last row is drawn, still only a screenful of rows alive */
  t0 = g_get_monotonic_time ();
  mshed_table_view_reveal (f.view, n - 1, "flags");
  g_test_message ("reveal() returned after %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
  while (_mshed_table_view_find_cell (f.view, n - 1, "flags") == NULL &&
         g_get_monotonic_time () - t0 < 10 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  g_test_message ("jump to the last row drawn in %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
  widget_test_iterate (100);
  g_assert_nonnull (_mshed_table_view_find_cell (f.view, n - 1, "flags"));
  g_assert_cmpuint (mshed_table_model_get_n_live_rows (model), <, 400);

  /* sorting the whole table keeps no row objects (numeric keys, not items) */
  sort = GTK_SORT_LIST_MODEL (gtk_multi_selection_get_model (
                                GTK_MULTI_SELECTION (_mshed_table_view_get_rows (f.view))));
  t0 = g_get_monotonic_time ();
  sort_by (f.view, "nX", GTK_SORT_ASCENDING);
  wait_sorted (sort);
  widget_test_iterate (100);
  g_test_message ("sorted 200k rows in %.0f ms; live rows %u",
                  (g_get_monotonic_time () - t0) / 1000.0,
                  mshed_table_model_get_n_live_rows (model));
  g_assert_cmpuint (mshed_table_model_get_n_live_rows (model), <, 400);

  /* filtering the 600,000 indices (incrementally) by row number and by value */
  {
    MshedTableView *iv = MSHED_TABLE_VIEW (indices);
    GListModel *irows = _mshed_table_view_get_rows (iv);
    GtkFilterListModel *filter = GTK_FILTER_LIST_MODEL (
      gtk_sort_list_model_get_model (GTK_SORT_LIST_MODEL (
        gtk_multi_selection_get_model (GTK_MULTI_SELECTION (irows)))));
    gint64 deadline;

    t0 = g_get_monotonic_time ();
    mshed_table_view_set_filter_text (iv, "#599999");
    deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
    while (gtk_filter_list_model_get_pending (filter) > 0 && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, TRUE);
    g_test_message ("filtered 600k indices by row number in %.0f ms",
                    (g_get_monotonic_time () - t0) / 1000.0);
    g_assert_cmpuint (g_list_model_get_n_items (irows), ==, 1);

    t0 = g_get_monotonic_time ();
    mshed_table_view_set_filter_text (iv, "index=0");
    while (gtk_filter_list_model_get_pending (filter) > 0 && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, TRUE);
    g_test_message ("filtered 600k indices by value in %.0f ms (%u rows)",
                    (g_get_monotonic_time () - t0) / 1000.0, g_list_model_get_n_items (irows));
    g_assert_cmpuint (g_list_model_get_n_items (irows), >, 0);
    g_assert_cmpuint (mshed_table_model_get_n_live_rows (_mshed_table_view_get_model (iv)), <, 400);
    mshed_table_view_set_filter_text (iv, NULL);
    g_assert_cmpuint (g_list_model_get_n_items (irows), ==, 3 * MSHED_GEN_MAX_TRIANGLES);
  }

  /* an edit through the grid of the sorted view still lands on the right record */
  {
    g_autoptr(MshedTableRow) first = g_list_model_get_item (_mshed_table_view_get_rows (f.view), 0);
    guint row = mshed_table_row_get_index (first);
    const guint8 *rec;

    g_assert_true (mshed_table_view_start_editing (f.view, row, "selPacked"));
    editor_type (f.view, "0x0015");
    rec = mshed_model_get_record (mshed_document_get_model (f.doc), MSHED_TABLE_TRIS, row);
    g_assert_cmpuint (rec[14] | (rec[15] << 8), ==, 0x15);
  }

  fixture_teardown (&f);
}

/* Screenshots (only with MSHED_TEST_SCREENSHOT_DIR) ------------------------------------------ */

/* A grid on a page not shown (as 13 of the window's 14 grids are) builds no cells, though
 * its model answers; the first time it is shown it gets its rows, scrolled to where it was
 * asked to scroll meanwhile. */
static void
test_hidden_builds_nothing (void)
{
  Fixture f;
  GtkWidget *notebook, *shown;
  MshedTableModel *model;
  guint target;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }
  f.doc = widget_test_document (5, 6000, 12, MSHED_MODE_STRICT);
  f.view = MSHED_TABLE_VIEW (mshed_table_view_new (MSHED_TABLE_TRIS));
  shown = mshed_table_view_new (MSHED_TABLE_NODES);
  mshed_table_view_set_document (f.view, f.doc);
  mshed_table_view_set_document (MSHED_TABLE_VIEW (shown), f.doc);
  notebook = gtk_notebook_new ();
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), shown, NULL);
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), GTK_WIDGET (f.view), NULL);
  f.window = widget_test_window (notebook, 1000, 600);

  model = _mshed_table_view_get_model (f.view);
  target = g_list_model_get_n_items (G_LIST_MODEL (model)) - 40;
  g_assert_cmpuint (target, >, 1000);
  _mshed_table_view_scroll_to (f.view, target, FALSE);
  widget_test_iterate (100);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (f.view)));
  g_assert_cmpuint (g_hash_table_size (f.view->bound_cells), ==, 0);
  g_assert_cmpuint (mshed_table_model_get_n_created (model), ==, 0);
  g_assert_cmpuint (g_hash_table_size (MSHED_TABLE_VIEW (shown)->bound_cells), >, 0);

  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), 1);
  widget_test_iterate (300);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (f.view)));
  g_assert_cmpuint (g_hash_table_size (f.view->bound_cells), >, 0);
  g_assert_nonnull (_mshed_table_view_find_column_cell (f.view, target, INDEX_COLUMN));
  g_assert_null (_mshed_table_view_find_column_cell (f.view, 0, INDEX_COLUMN));

  fixture_teardown (&f);
}

static void
test_screenshot (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  GtkWidget *notebook;
  static const MshedTableId tables[] = {
    MSHED_TABLE_NODES, MSHED_TABLE_SLOTS, MSHED_TABLE_POSITIONS, MSHED_TABLE_NAMES,
    MSHED_TABLE_DIRECTORY,
  };
  static const char *const names[] = { "nodes", "slots", "vertices", "names", "directory" };
  const char *theme = g_getenv ("GTK_THEME");
  gboolean dark = theme != NULL && strstr (theme, "dark") != NULL;

  if (!widget_test_have_display ())
    {
      widget_test_skip ();
      return;
    }

  f.doc = widget_test_document (11, 300, 10, MSHED_MODE_TOLERANT);
  notebook = gtk_notebook_new ();
  f.window = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      GtkWidget *view = mshed_table_view_new (tables[i]);

      mshed_table_view_set_document (MSHED_TABLE_VIEW (view), f.doc);
      gtk_notebook_append_page (GTK_NOTEBOOK (notebook), view, gtk_label_new (names[i]));
    }
  f.view = MSHED_TABLE_VIEW (gtk_notebook_get_nth_page (GTK_NOTEBOOK (notebook), 0));

  /* an invalid cell, a stale region, a highlight and a current cell */
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_NODES, 2, "slot3", 999, &error));
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_POSITIONS, 0, "x", 1000.0, &error));
  g_assert_no_error (error);
  {
    guint rows[] = { 4, 5 };

    mshed_table_view_set_highlight (f.view, rows, 2);
  }
  f.window = widget_test_window (notebook, 1100, 520);
  mshed_table_view_reveal (f.view, 1, "slot1");
  widget_test_iterate (100);

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *file = g_strdup_printf ("table-%s%s.png", names[i], dark ? "-dark" : "");

      gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), (int) i);
      if (tables[i] == MSHED_TABLE_POSITIONS)
        mshed_table_view_set_show_raw (MSHED_TABLE_VIEW (gtk_notebook_get_nth_page (
                                         GTK_NOTEBOOK (notebook), (int) i)),
                                       TRUE);
      if (tables[i] == MSHED_TABLE_SLOTS)
        mshed_table_view_reveal (MSHED_TABLE_VIEW (gtk_notebook_get_nth_page (
                                   GTK_NOTEBOOK (notebook), (int) i)),
                                 0, "aabbMinX");
      widget_test_iterate (100);
      widget_test_screenshot (f.window, file);
    }

  /* the editor with a refused value, on the whole screen */
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), 0);
  widget_test_iterate (50);
  g_assert_true (mshed_table_view_start_editing (f.view, 3, "slot2"));
  editor_type (f.view, "70000");
  {
    g_autofree char *file = g_strdup_printf ("table-editor%s.png", dark ? "-dark" : "");

    widget_test_screenshot_root (file);
  }
  gtk_popover_popdown (GTK_POPOVER (_mshed_table_view_get_editor (f.view)));

  fixture_teardown (&f);
}

int
main (int   argc,
      char *argv[])
{
  widget_test_init (&argc, &argv);

  g_test_add_func ("/widgets/table-view/columns", test_columns);
  g_test_add_func ("/widgets/table-view/edit-slot-cell", test_edit_slot_cell);
  g_test_add_func ("/widgets/table-view/reject-invalid", test_reject_invalid);
  g_test_add_func ("/widgets/table-view/decoded-columns", test_decoded_columns);
  g_test_add_func ("/widgets/table-view/copy-paste", test_copy_paste);
  g_test_add_func ("/widgets/table-view/cell-states", test_cell_states);
  g_test_add_func ("/widgets/table-view/references", test_references);
  g_test_add_func ("/widgets/table-view/real-input", test_real_input);
  g_test_add_func ("/widgets/table-view/structural", test_structural);
  g_test_add_func ("/widgets/table-view/filter-sort", test_filter_sort);
  g_test_add_func ("/widgets/table-view/lazy-200k", test_lazy_large);
  g_test_add_func ("/widgets/table-view/hidden-builds-nothing", test_hidden_builds_nothing);
  /* pictures to look at, not a check: only when asked for */
  if (g_getenv ("MSHED_TEST_SCREENSHOT_DIR") != NULL)
    g_test_add_func ("/widgets/table-view/screenshot", test_screenshot);

  return g_test_run ();
}
