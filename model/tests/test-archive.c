/* test-archive.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MshedArchive: every entry edit on a generated archive, read back here from the bytes with
 * the layout of docs/nres.md (§2 header, §3 directory, §7.1 payloads in directory order at
 * 8-byte aligned offsets): the edited entry is what was asked, every other entry's payload,
 * type, attributes and name are byte-identical, undo gives back the loaded bytes exactly and
 * redo the edited ones; bad names are refused naming the archive; a save is atomic, keeps
 * ARCHIVE.bak and refuses a file that would fail strict validation.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mshed-archive.h"
#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-generator.h"
#include "mshed-source.h"

/* One directory record and its payload, read straight from the file (docs/nres.md §3). */
typedef struct {
  guint32  type, attr1, attr2, attr3;
  char     name[36];
  GBytes  *payload;
} Rec;

static void
rec_clear (Rec *r)
{
  g_clear_pointer (&r->payload, g_bytes_unref);
}

static GArray *
read_records (GBytes *bytes)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (bytes, &size);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Rec));
  guint32 count, total;

  g_array_set_clear_func (out, (GDestroyNotify) rec_clear);
  g_assert_cmpuint (size, >=, 16);
  g_assert_cmpmem (p, 4, "NRes", 4);
  count = mshed_read_u32 (p + 8);
  total = mshed_read_u32 (p + 12);
  g_assert_cmpuint (total, ==, size);
  for (guint i = 0; i < count; i++)
    {
      const guint8 *d = p + size - 64 * (gsize) count + 64 * (gsize) i;
      Rec r = { 0 };
      guint32 len = mshed_read_u32 (d + 12), off = mshed_read_u32 (d + 56);

      r.type = mshed_read_u32 (d);
      r.attr1 = mshed_read_u32 (d + 4);
      r.attr2 = mshed_read_u32 (d + 8);
      r.attr3 = mshed_read_u32 (d + 16);
      memcpy (r.name, d + 20, 36);
      g_assert_cmpuint (off % 8, ==, 0);
      g_assert_cmpuint ((guint64) off + len, <=, size - 64 * (gsize) count);
      r.payload = g_bytes_new (p + off, len);
      g_array_append_val (out, r);
    }
  return out;
}

static void
assert_same_record (const Rec *a,
                    const Rec *b)
{
  g_assert_cmpuint (a->type, ==, b->type);
  g_assert_cmpuint (a->attr1, ==, b->attr1);
  g_assert_cmpuint (a->attr2, ==, b->attr2);
  g_assert_cmpuint (a->attr3, ==, b->attr3);
  g_assert_cmpmem (a->name, 36, b->name, 36);
  g_assert_true (g_bytes_equal (a->payload, b->payload));
}

#define REC(array, i) (&g_array_index ((array), Rec, (i)))

static MshedArchive *
new_archive (GBytes **original)
{
  g_autoptr(GError) error = NULL;
  MshedArchive *archive;

  *original = mshed_generate_archive_bytes (11, 4, 300);
  archive = mshed_archive_new_for_bytes ("/nowhere/pack.rlb", *original, &error);
  g_assert_no_error (error);
  g_assert_nonnull (archive);
  return archive;
}

static void
assert_serializes_to (MshedArchive *archive,
                      GBytes       *expect)
{
  g_autoptr(GBytes) now = mshed_archive_serialize (archive);

  g_assert_true (g_bytes_equal (now, expect));
}

static void
test_replace_undo (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(MshedArchive) archive = new_archive (&original);
  g_autoptr(GBytes) payload = g_bytes_new_static ("a new payload of 27 bytes!!", 27);
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GArray) before = read_records (original);
  g_autoptr(GArray) after = NULL;
  g_autoptr(GError) error = NULL;
  guint n = before->len;

  g_assert_cmpuint (n, >=, 5);
  g_assert_false (mshed_archive_get_modified (archive));
  g_assert_false (mshed_archive_can_undo (archive));
  assert_serializes_to (archive, original);

  g_assert_true (mshed_archive_replace (archive, 1, payload, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_archive_get_modified (archive));
  g_assert_nonnull (strstr (mshed_archive_get_undo_label (archive), "Replace “"));
  edited = mshed_archive_serialize (archive);
  after = read_records (edited);
  g_assert_cmpuint (after->len, ==, n);
  for (guint i = 0; i < n; i++)
    if (i != 1)
      assert_same_record (REC (after, i), REC (before, i));
  /* only the payload changed: type, attributes and name are kept */
  g_assert_true (g_bytes_equal (REC (after, 1)->payload, payload));
  g_assert_cmpuint (REC (after, 1)->type, ==, REC (before, 1)->type);
  g_assert_cmpmem (REC (after, 1)->name, 36, REC (before, 1)->name, 36);

  g_assert_true (mshed_archive_undo (archive));
  g_assert_false (mshed_archive_get_modified (archive));
  assert_serializes_to (archive, original);
  g_assert_true (mshed_archive_redo (archive));
  assert_serializes_to (archive, edited);
  g_assert_false (mshed_archive_can_redo (archive));
}

static void
test_add_remove_move (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(MshedArchive) archive = new_archive (&original);
  g_autoptr(GBytes) payload = g_bytes_new_static ("TEXT", 4);
  g_autoptr(GArray) before = read_records (original);
  g_autoptr(GError) error = NULL;
  guint n = before->len;
  gint at;

  /* add at 2: the others shift by one, unchanged */
  at = mshed_archive_add (archive, 2, "Новый.txt", 0x52414557 /* WEAR */, payload, &error);
  g_assert_no_error (error);
  g_assert_cmpint (at, ==, 2);
  {
    g_autoptr(GBytes) bytes = mshed_archive_serialize (archive);
    g_autoptr(GArray) after = read_records (bytes);

    g_assert_cmpuint (after->len, ==, n + 1);
    for (guint i = 0; i < n; i++)
      assert_same_record (REC (after, i < 2 ? i : i + 1), REC (before, i));
    g_assert_cmpuint (REC (after, 2)->type, ==, 0x52414557);
    g_assert_cmpuint (REC (after, 2)->attr1, ==, 0);
    /* Windows-1251: Н о в ы й = CD EE E2 FB E9 */
    g_assert_cmpmem (REC (after, 2)->name, 10, "\xCD\xEE\xE2\xFB\xE9.txt", 10);
    g_assert_true (g_bytes_equal (REC (after, 2)->payload, payload));
  }
  /* remove entry 0 */
  g_assert_true (mshed_archive_remove (archive, 0, &error));
  {
    g_autoptr(GBytes) bytes = mshed_archive_serialize (archive);
    g_autoptr(GArray) after = read_records (bytes);

    g_assert_cmpuint (after->len, ==, n);
    assert_same_record (REC (after, 0), REC (before, 1));
    for (guint i = 2; i < n; i++)
      assert_same_record (REC (after, i), REC (before, i));
  }
  /* move the last entry to the front */
  g_assert_true (mshed_archive_move (archive, n - 1, 0, &error));
  {
    g_autoptr(GBytes) bytes = mshed_archive_serialize (archive);
    g_autoptr(GArray) after = read_records (bytes);

    assert_same_record (REC (after, 0), REC (before, n - 1));
    assert_same_record (REC (after, 1), REC (before, 1));
  }
  g_assert_false (mshed_archive_move (archive, n, 0, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "pack.rlb"));
  g_clear_error (&error);

  /* three undos: the loaded bytes */
  g_assert_true (mshed_archive_undo (archive));
  g_assert_true (mshed_archive_undo (archive));
  g_assert_true (mshed_archive_undo (archive));
  g_assert_false (mshed_archive_can_undo (archive));
  assert_serializes_to (archive, original);
}

static void
test_rename_attributes (void)
{
  g_autoptr(GBytes) original = NULL;
  g_autoptr(MshedArchive) archive = new_archive (&original);
  g_autoptr(GArray) before = read_records (original);
  g_autoptr(GError) error = NULL;
  g_autofree char *taken = g_strndup (REC (before, 0)->name, 35);
  g_autofree char *upper = g_ascii_strup (taken, -1);
  char field[36] = "renamed.msh";

  g_assert_true (mshed_archive_rename (archive, 1, "renamed.msh", &error));
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) bytes = mshed_archive_serialize (archive);
    g_autoptr(GArray) after = read_records (bytes);

    g_assert_cmpmem (REC (after, 1)->name, 36, field, 36);
    g_assert_true (g_bytes_equal (REC (after, 1)->payload, REC (before, 1)->payload));
    assert_same_record (REC (after, 0), REC (before, 0));
  }
  /* refused, nothing changes: taken (case does not count), empty, too long, no cp1251 */
  g_assert_false (mshed_archive_rename (archive, 2, upper, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "pack.rlb"));
  g_assert_nonnull (strstr (error->message, "entry #0"));
  g_clear_error (&error);
  g_assert_false (mshed_archive_rename (archive, 2, "", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_archive_rename (archive, 2, "012345678901234567890123456789012345",
                                       &error));
  g_assert_nonnull (strstr (error->message, "36 bytes"));
  g_clear_error (&error);
  g_assert_false (mshed_archive_rename (archive, 2, "日本.msh", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING);
  g_clear_error (&error);
  g_assert_true (g_str_has_prefix (mshed_archive_get_undo_label (archive), "Rename “"));
  g_assert_true (g_str_has_suffix (mshed_archive_get_undo_label (archive), "” to “renamed.msh”"));

  g_assert_true (mshed_archive_set_attributes (archive, 3, 7, 1, 2, 3, &error));
  {
    g_autoptr(GBytes) bytes = mshed_archive_serialize (archive);
    g_autoptr(GArray) after = read_records (bytes);

    g_assert_cmpuint (REC (after, 3)->type, ==, 7);
    g_assert_cmpuint (REC (after, 3)->attr1, ==, 1);
    g_assert_cmpuint (REC (after, 3)->attr2, ==, 2);
    g_assert_cmpuint (REC (after, 3)->attr3, ==, 3);
    g_assert_true (g_bytes_equal (REC (after, 3)->payload, REC (before, 3)->payload));
  }
  g_assert_true (mshed_archive_undo (archive));
  g_assert_true (mshed_archive_undo (archive));
  assert_serializes_to (archive, original);
}

static void
test_save (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-archive-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "pack.rlb", NULL);
  g_autofree char *bak = g_strconcat (path, ".bak", NULL);
  g_autoptr(GBytes) original = mshed_generate_archive_bytes (11, 4, 300);
  g_autoptr(GBytes) broken = g_bytes_new_static ("NRes", 4);
  g_autoptr(MshedArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len = 0;
  gint model = -1;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (original, NULL),
                                      (gssize) g_bytes_get_size (original), NULL));
  archive = mshed_archive_open (path, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_archive_remove (archive, 0, &error));
  g_assert_true (mshed_archive_save (archive, 0, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_archive_get_modified (archive));
  g_assert_true (g_file_get_contents (bak, &data, &len, NULL));
  g_assert_cmpmem (data, len, g_bytes_get_data (original, NULL), g_bytes_get_size (original));
  g_clear_pointer (&data, g_free);
  {
    g_autoptr(GBytes) now = mshed_archive_serialize (archive);

    g_assert_true (g_file_get_contents (path, &data, &len, NULL));
    g_assert_cmpmem (data, len, g_bytes_get_data (now, NULL), g_bytes_get_size (now));
    g_clear_pointer (&data, g_free);
  }
  /* undo past the save: modified again */
  g_assert_true (mshed_archive_undo (archive));
  g_assert_true (mshed_archive_get_modified (archive));
  g_assert_true (mshed_archive_redo (archive));
  g_assert_false (mshed_archive_get_modified (archive));

  /* a model entry replaced by a broken one: refused, the file stays */
  for (guint i = 0; i < mshed_archive_get_n_entries (archive) && model < 0; i++)
    if (mshed_entry_holds_model (mshed_nres_peek_entry (mshed_archive_get_nres (archive), i)))
      model = (gint) i;
  g_assert_cmpint (model, >=, 0);
  g_assert_true (mshed_archive_replace (archive, (guint) model, broken, &error));
  {
    g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();

    mshed_archive_validate_entry (archive, (guint) model, diags);
    g_assert_cmpuint (diags->n_errors, >, 0);
  }
  g_assert_false (mshed_archive_save (archive, 0, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_true (mshed_archive_get_modified (archive));
  g_clear_error (&error);

  g_remove (bak);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/archive/replace-undo", test_replace_undo);
  g_test_add_func ("/archive/add-remove-move", test_add_remove_move);
  g_test_add_func ("/archive/rename-attributes", test_rename_attributes);
  g_test_add_func ("/archive/save", test_save);
  return g_test_run ();
}
