/* test-document-reload.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reload from disk is one undo step: the model becomes the file's bytes, undo brings back the
 * edits it replaced, the reloaded state is the saved one, the stale set follows, and only
 * what differs is reported as changed.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "doc-test-util.h"
#include "mshed-error.h"
#include "mshed-source.h"

typedef struct {
  char          *dir;
  char          *path;
  GBytes        *original;   /* the file as first written */
  MshedDocument *doc;        /* opened from the file */
} Fixture;

static void
write_file (const char *path,
            GBytes     *bytes)
{
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
}

static GBytes *
read_file (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

static void
fixture_setup (Fixture *f,
               guint64  seed,
               gboolean res18)
{
  g_autoptr(MshedDocument) gen = doc_test_new (seed, 600, TRUE, res18);
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("mshed-reload-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "model.msh", NULL);
  f->original = doc_test_bytes (gen);
  write_file (f->path, f->original);
  f->doc = mshed_document_open (f->path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *f)
{
  g_autofree char *bak = g_strconcat (f->path, ".bak", NULL);

  g_clear_object (&f->doc);
  g_clear_pointer (&f->original, g_bytes_unref);
  g_unlink (bak);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* Another program changes the file: a second document opens @spec (FILE or ARCHIVE:ENTRY),
 * edits it and saves. Returns the bytes of @path now. */
static GBytes *
change_on_disk (const char *spec,
                const char *path,
                void      (*edit) (MshedDocument *doc))
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) other = mshed_document_open (spec, MSHED_MODE_STRICT, &error);

  g_assert_no_error (error);
  edit (other);
  g_assert_true (mshed_document_save (other, MSHED_SAVE_NO_BACKUP, &error));
  g_assert_no_error (error);
  return read_file (path);
}

static void
edit_slot_and_name (MshedDocument *doc)
{
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 1, "unk30", 0x0BADF00D, NULL));
  g_assert_true (mshed_document_rename_node (doc, 2, "с диска", NULL));
}

static void
delete_batch (MshedDocument *doc)
{
  g_assert_true (mshed_document_delete_rows (doc, MSHED_TABLE_BATCHES, 0, 1, NULL));
}

static void
remove_last_resource (MshedDocument *doc)
{
  MshedNres *nres = mshed_model_get_nres (mshed_document_get_model (doc));
  guint n = mshed_nres_get_n_entries (nres);
  gint res17 = mshed_model_find_resource (mshed_document_get_model (doc), 17);

  /* an optional resource: the model stays valid without it */
  g_assert_cmpint (res17, >=, 0);
  g_assert_cmpuint (n, >, 1);
  g_assert_true (mshed_document_remove_resource (doc, (guint) res17, NULL));
}

static void
assert_model_bytes (MshedDocument *doc,
                    GBytes        *expected)
{
  g_autoptr(GBytes) now = doc_test_bytes (doc);

  /* the re-encoded model, not a stored copy of the file */
  g_assert_cmpmem (g_bytes_get_data (now, NULL), g_bytes_get_size (now),
                   g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
}

/* Edits, then reload: the file's bytes, unmodified, and one undo step back to the edits. */
static void
test_reload_is_undoable (void)
{
  Fixture f;
  g_autoptr(GBytes) edited = NULL;
  g_autoptr(GBytes) saved_bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  fixture_setup (&f, 71, FALSE);
  g_assert_true (mshed_document_rename_node (f.doc, 0, "правка", NULL));
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_SLOTS, 0, "unk30", 0x7A7A7A7A,
                                           NULL));
  edited = doc_test_bytes (f.doc);
  g_assert_true (mshed_document_get_modified (f.doc));

  g_assert_true (mshed_document_reload (f.doc, &error));
  g_assert_no_error (error);
  assert_model_bytes (f.doc, f.original);
  saved_bytes = mshed_document_serialize_file (f.doc);
  g_assert_true (g_bytes_equal (saved_bytes, f.original));
  g_assert_false (mshed_document_get_modified (f.doc));
  g_assert_true (mshed_document_can_undo (f.doc));
  g_assert_cmpstr (mshed_document_get_undo_label (f.doc), ==, "Reload from disk");
  doc_test_assert_valid (f.doc);

  /* undo: the edits are back, and they differ from the file again */
  g_assert_true (mshed_document_undo (f.doc));
  assert_model_bytes (f.doc, edited);
  g_assert_true (mshed_document_get_modified (f.doc));
  name = mshed_model_dup_name (mshed_document_get_model (f.doc), 0);
  g_assert_cmpstr (name, ==, "правка");
  g_assert_cmpstr (mshed_document_get_redo_label (f.doc), ==, "Reload from disk");
  doc_test_assert_valid (f.doc);

  /* redo: the file again, saved state */
  g_assert_true (mshed_document_redo (f.doc));
  assert_model_bytes (f.doc, f.original);
  g_assert_false (mshed_document_get_modified (f.doc));

  /* the reload, the slot edit and the rename undone: the file as opened */
  g_assert_true (mshed_document_undo (f.doc));
  g_assert_true (mshed_document_undo (f.doc));
  g_assert_true (mshed_document_undo (f.doc));
  assert_model_bytes (f.doc, f.original);
  g_assert_false (mshed_document_can_undo (f.doc));
  fixture_teardown (&f);
}

static void
record_change (MshedDocument     *doc,
               const MshedChange *change,
               GArray            *changes)
{
  g_array_append_val (changes, *change);
}

/* The file changed on disk: reload takes the changes, reports only what differs, and undo
 * returns to what was open before. */
static void
test_reload_takes_disk_changes (void)
{
  Fixture f;
  g_autoptr(GBytes) disk = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (MshedChange));
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  MshedSlot slot;
  gboolean saw_slot = FALSE;

  fixture_setup (&f, 72, FALSE);
  disk = change_on_disk (f.path, f.path, edit_slot_and_name);
  g_assert_false (g_bytes_equal (disk, f.original));

  g_signal_connect (f.doc, "changed", G_CALLBACK (record_change), changes);
  g_assert_true (mshed_document_reload (f.doc, &error));
  g_assert_no_error (error);
  assert_model_bytes (f.doc, disk);
  file = mshed_document_serialize_file (f.doc);
  g_assert_true (g_bytes_equal (file, disk));
  g_assert_false (mshed_document_get_modified (f.doc));
  g_assert_true (mshed_model_get_slot (mshed_document_get_model (f.doc), 1, &slot));
  g_assert_cmphex (slot.unk[0], ==, 0x0BADF00D);
  name = mshed_model_dup_name (mshed_document_get_model (f.doc), 2);
  g_assert_cmpstr (name, ==, "с диска");

  /* the slot edit arrives as a change of slot 1, not as "everything changed" */
  for (guint i = 0; i < changes->len; i++)
    {
      const MshedChange *c = &g_array_index (changes, MshedChange, i);

      g_assert_false (c->flags & MSHED_CHANGE_FLAG_ALL);
      if (c->table == MSHED_TABLE_SLOTS && c->first_row == 1 && c->n_added == 1)
        saw_slot = TRUE;
    }
  g_assert_true (saw_slot);

  /* undo: the model as it was opened, now different from the file */
  g_assert_true (mshed_document_undo (f.doc));
  assert_model_bytes (f.doc, f.original);
  g_assert_true (mshed_document_get_modified (f.doc));
  g_clear_pointer (&name, g_free);
  name = mshed_model_dup_name (mshed_document_get_model (f.doc), 2);
  g_assert_cmpstr (name, !=, "с диска");
  doc_test_assert_valid (f.doc);
  fixture_teardown (&f);
}

/* Rows and resources added or removed on disk: payload sizes and the directory change. */
static void
test_reload_structure (void)
{
  void (*edits[]) (MshedDocument *) = { delete_batch, remove_last_resource };

  for (guint i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      Fixture f;
      g_autoptr(GBytes) disk = NULL;
      g_autoptr(GBytes) file = NULL;
      g_autoptr(GError) error = NULL;
      guint n_entries;

      fixture_setup (&f, 73 + i, TRUE);
      n_entries =
        mshed_nres_get_n_entries (mshed_model_get_nres (mshed_document_get_model (f.doc)));
      disk = change_on_disk (f.path, f.path, edits[i]);

      g_assert_true (mshed_document_reload (f.doc, &error));
      g_assert_no_error (error);
      assert_model_bytes (f.doc, disk);
      file = mshed_document_serialize_file (f.doc);
      g_assert_true (g_bytes_equal (file, disk));
      doc_test_assert_valid (f.doc);
      if (edits[i] == remove_last_resource)
        g_assert_cmpuint (mshed_nres_get_n_entries (
                            mshed_model_get_nres (mshed_document_get_model (f.doc))),
                          ==, n_entries - 1);

      g_assert_true (mshed_document_undo (f.doc));
      assert_model_bytes (f.doc, f.original);
      g_assert_cmpuint (mshed_nres_get_n_entries (
                          mshed_model_get_nres (mshed_document_get_model (f.doc))),
                        ==, n_entries);
      doc_test_assert_valid (f.doc);
      g_assert_true (mshed_document_redo (f.doc));
      assert_model_bytes (f.doc, disk);
      fixture_teardown (&f);
    }
}

/* Stale data made by edits is gone after a reload, and back after undo. */
static void
test_reload_stale (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;

  fixture_setup (&f, 76, FALSE);
  g_assert_true (mshed_document_set_field (f.doc, MSHED_TABLE_POSITIONS, 3, "x", 9.5, NULL));
  g_assert_true (mshed_document_has_stale (f.doc));

  g_assert_true (mshed_document_reload (f.doc, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_has_stale (f.doc));
  g_assert_true (mshed_document_undo (f.doc));
  g_assert_true (mshed_document_has_stale (f.doc));
  g_assert_true (mshed_document_redo (f.doc));
  g_assert_false (mshed_document_has_stale (f.doc));
  fixture_teardown (&f);
}

/* Nothing differs: no undo step. */
static void
test_reload_unchanged (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;

  fixture_setup (&f, 77, FALSE);
  g_assert_true (mshed_document_reload (f.doc, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_can_undo (f.doc));
  g_assert_false (mshed_document_get_modified (f.doc));
  assert_model_bytes (f.doc, f.original);
  fixture_teardown (&f);
}

/* A model in an archive: the whole archive as it is now on disk. */
static void
test_reload_archive_entry (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mshed-reload-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "game.rlb", NULL);
  g_autoptr(GBytes) archive = mshed_generate_archive_bytes (78, 3, 1500);
  g_autoptr(MshedNres) outer = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) disk = NULL;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = NULL;
  g_autofree char *entry = NULL;

  write_file (path, archive);
  outer = mshed_nres_parse (archive, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < mshed_nres_get_n_entries (outer) && entry == NULL; i++)
    if (mshed_entry_is_model_name (mshed_nres_peek_entry (outer, i)))
      entry = mshed_nres_entry_dup_name (mshed_nres_peek_entry (outer, i));
  g_assert_nonnull (entry);
  spec = g_strdup_printf ("%s:%s", path, entry);

  doc = mshed_document_open (spec, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  before = doc_test_bytes (doc);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x", 4, NULL));
  disk = change_on_disk (spec, path, edit_slot_and_name);

  g_assert_true (mshed_document_reload (doc, &error));
  g_assert_no_error (error);
  file = mshed_document_serialize_file (doc);
  g_assert_true (g_bytes_equal (file, disk));
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_undo (doc));
  assert_model_bytes (doc, before);

  g_unlink (path);
  g_rmdir (dir);
}

/* A file that no longer parses: refused, the document untouched. */
static void
test_reload_refuses_garbage (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) junk = g_bytes_new_static ("not a model", 11);

  fixture_setup (&f, 79, FALSE);
  g_assert_true (mshed_document_rename_node (f.doc, 0, "keep", NULL));
  write_file (f.path, junk);
  g_assert_false (mshed_document_reload (f.doc, &error));
  g_assert_nonnull (error);
  g_assert_true (mshed_document_get_modified (f.doc));
  g_assert_cmpstr (mshed_document_get_undo_label (f.doc), !=, "Reload from disk");
  fixture_teardown (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/document/reload/undoable", test_reload_is_undoable);
  g_test_add_func ("/document/reload/disk-changes", test_reload_takes_disk_changes);
  g_test_add_func ("/document/reload/structure", test_reload_structure);
  g_test_add_func ("/document/reload/stale", test_reload_stale);
  g_test_add_func ("/document/reload/unchanged", test_reload_unchanged);
  g_test_add_func ("/document/reload/archive-entry", test_reload_archive_entry);
  g_test_add_func ("/document/reload/refuses-garbage", test_reload_refuses_garbage);
  return g_test_run ();
}
