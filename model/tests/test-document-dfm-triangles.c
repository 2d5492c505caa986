/* test-document-dfm-triangles.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A face group's triangles edited as a list (mshed-document-dfm-triangles.c, docs/dfm.md §5):
 * a generated head whose Mesh0 Group0 strip is replaced by a hand-made one; every expected
 * triangle list and strip is worked out by hand from §5.1 and §5.3, and results are read back
 * from the written bytes with the plain reader.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-validate.h"
#include "mshed-document.h"
#include "mshed-error.h"

#define STRIP0 "\\MultiLevel\\Mesh0\\Face_groups\\Group0\\Tristrip_indices"
#define STRIP1 "\\MultiLevel\\Mesh0\\Face_groups\\Group1\\Tristrip_indices"

typedef struct {
  char          *dir;
  char          *path;
  GBytes        *bytes;     /* the file as opened */
  MshedDocument *doc;
} Fixture;

/* The hand-made strip: windows 0 (even), 1 (odd), 2 (even) all draw (docs/dfm.md §5.1). */
static const guint16 strip5[] = { 10, 11, 12, 13, 14 };

static GBytes *
u16_bytes (const guint16 *v,
           gsize          n)
{
  guint8 *buf = g_malloc (2 * n + 1);

  for (gsize i = 0; i < n; i++)
    mshed_write_u16 (buf + 2 * i, v[i]);
  return g_bytes_new_take (buf, 2 * n);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  MshedDfmGenParams params;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) generated = NULL;
  g_autoptr(GBytes) strip = u16_bytes (strip5, G_N_ELEMENTS (strip5));
  g_autoptr(GBytes) old = NULL;
  g_autoptr(MshedUtf) utf = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HEAD, 7);
  generated = mshed_dfm_generate_bytes (&params);
  utf = mshed_utf_parse (generated, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  old = mshed_utf_set_data (utf, mshed_utf_lookup (utf, STRIP0), strip);
  f->bytes = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, &error);
  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("mshed-dfmtris-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "model.dfm", NULL);
  g_file_set_contents (f->path, g_bytes_get_data (f->bytes, NULL),
                       (gssize) g_bytes_get_size (f->bytes), &error);
  g_assert_no_error (error);
  f->doc = mshed_document_open (f->path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->doc);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_bytes_unref (f->bytes);
}

static GBytes *
serialize (MshedDocument *doc)
{
  GBytes *bytes = mshed_document_serialize_file (doc);

  g_assert_nonnull (bytes);
  return bytes;
}

/* The written file read back by the plain reader, strict, validated: no error, no warning. */
static MshedDfm *
reread_clean (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  MshedDfm *dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, &error);

  g_assert_no_error (error);
  mshed_dfm_validate (dfm, MSHED_MODE_STRICT, diags);
  g_assert_cmpuint (diags->n_errors, ==, 0);
  g_assert_cmpuint (diags->n_warnings, ==, 0);
  return dfm;
}

/* The triangles of Mesh0 Group0 in @bytes are exactly @expected (corner order included). */
static void
assert_triangles (GBytes        *bytes,
                  const guint16 *expected,
                  gsize          n)
{
  g_autoptr(MshedDfm) dfm = reread_clean (bytes);
  gsize got_n = 0;
  g_autofree guint16 *got = mshed_dfm_dup_triangles (dfm, 0, 0, &got_n);

  g_assert_cmpuint (got_n, ==, n);
  g_assert_cmpmem (got, 6 * got_n, expected, 6 * n);
}

/* The payload of @path in @bytes. */
static GBytes *
payload (GBytes     *bytes,
         const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedUtf) utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, NULL, &error);
  MshedUtfNode *node;

  g_assert_no_error (error);
  node = mshed_utf_lookup (utf, path);
  g_assert_nonnull (node);
  return g_bytes_ref (mshed_utf_node_get_data (node));
}

/* Undo gives back the opened file exactly (the hand-made strip, not a re-encoded one), redo
 * the edited one. */
static void
assert_undo_redo (Fixture *f,
                  GBytes  *after)
{
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;

  g_assert_true (mshed_document_undo (f->doc));
  undone = serialize (f->doc);
  g_assert_true (g_bytes_equal (undone, f->bytes));
  g_assert_false (mshed_document_can_undo (f->doc));
  g_assert_true (mshed_document_redo (f->doc));
  redone = serialize (f->doc);
  g_assert_true (g_bytes_equal (redone, after));
}

/* The hand-made 5-entry strip draws 3 triangles, the odd window's first two corners swapped. */
static void
test_unroll (Fixture       *f,
             gconstpointer  data)
{
  static const guint16 expected[] = { 10, 11, 12, 12, 11, 13, 12, 13, 14 };
  gsize n = 0;
  g_autofree guint16 *tris = mshed_dfm_dup_triangles (mshed_document_get_dfm (f->doc), 0, 0,
                                                      &n);

  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpmem (tris, 6 * n, expected, sizeof expected);
  assert_triangles (f->bytes, expected, 3);
}

/* One corner: the group becomes our strip (§5.3, runs joined), which unrolls to exactly the
 * edited list; no other group is re-encoded. */
static void
test_set_corner (Fixture       *f,
                 gconstpointer  data)
{
  static const guint16 expected[] = { 10, 11, 12, 12, 11, 20, 12, 13, 14 };
  /* (10,11,12); (12,11,20) continues the run at the odd window 1; (12,13,14) starts a new
   * run at an even position after the junction 20, 12, 12 */
  static const guint16 strip[] = { 10, 11, 12, 20, 20, 12, 12, 13, 14 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) want = u16_bytes (strip, G_N_ELEMENTS (strip));
  g_autoptr(GBytes) got = NULL;
  g_autoptr(GBytes) other_before = payload (f->bytes, STRIP1);
  g_autoptr(GBytes) other_after = NULL;

  g_assert_true (mshed_document_dfm_set_triangle_corner (f->doc, 0, 0, 1, 2, 20, &error));
  g_assert_no_error (error);
  after = serialize (f->doc);
  assert_triangles (after, expected, 3);
  got = payload (after, STRIP0);
  g_assert_true (g_bytes_equal (got, want));
  other_after = payload (after, STRIP1);
  g_assert_true (g_bytes_equal (other_after, other_before));
  assert_undo_redo (f, after);

  /* the same value again changes nothing and records nothing */
  g_assert_true (mshed_document_dfm_set_triangle_corner (f->doc, 0, 0, 1, 2, 20, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_false (mshed_document_can_undo (f->doc));
}

static void
test_delete (Fixture       *f,
             gconstpointer  data)
{
  static const guint16 expected[] = { 12, 11, 13 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;

  g_assert_true (mshed_document_dfm_delete_triangles (f->doc, 0, 0, 0, 1, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_document_dfm_delete_triangles (f->doc, 0, 0, 1, 1, &error));
  g_assert_no_error (error);
  after = serialize (f->doc);
  assert_triangles (after, expected, 1);
  /* two steps back */
  g_assert_true (mshed_document_undo (f->doc));
  g_clear_pointer (&after, g_bytes_unref);
  after = serialize (f->doc);
  assert_undo_redo (f, after);
  /* a group keeps one triangle at least */
  g_assert_false (mshed_document_dfm_delete_triangles (f->doc, 0, 0, 0, 2, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_delete_triangles (f->doc, 0, 0, 2, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
}

static void
test_insert_reverse (Fixture       *f,
                     gconstpointer  data)
{
  static const guint16 inserted[] = { 1, 2, 3 };
  static const guint16 expected[] = {
    10, 11, 12, 1, 3, 2, 12, 11, 13, 12, 13, 14, 12, 13, 14,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;

  g_assert_true (mshed_document_dfm_insert_triangles (f->doc, 0, 0, 1, 1, inserted, &error));
  g_assert_no_error (error);
  /* appended: a copy of the last triangle */
  g_assert_true (mshed_document_dfm_insert_triangles (f->doc, 0, 0, 4, 1, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_document_dfm_reverse_triangles (f->doc, 0, 0, 1, 1, &error));
  g_assert_no_error (error);
  after = serialize (f->doc);
  assert_triangles (after, expected, 5);
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_true (mshed_document_undo (f->doc));
  g_clear_pointer (&after, g_bytes_unref);
  after = serialize (f->doc);
  assert_undo_redo (f, after);
}

/* Edits a strip cannot hold, or that point past the elements, are refused and change
 * nothing. */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  static const guint16 flat[] = { 4, 4, 5 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) now = NULL;
  MshedDfmArray elements;

  g_assert_true (mshed_dfm_get_array (mshed_document_get_dfm (f->doc),
                                      MSHED_DFM_TABLE_POINT_INDICES, 0, 0, &elements));
  g_assert_cmpuint (elements.count, >, 20);
  g_assert_false (mshed_document_dfm_set_triangle_corner (f->doc, 0, 0, 0, 0, 11, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_set_triangle_corner (f->doc, 0, 0, 0, 0, elements.count,
                                                          &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_insert_triangles (f->doc, 0, 0, 0, 1, flat, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_set_triangle_corner (f->doc, 0, 99, 0, 0, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_assert_false (mshed_document_can_undo (f->doc));
  now = serialize (f->doc);
  g_assert_true (g_bytes_equal (now, f->bytes));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/dfm-triangles/unroll", Fixture, NULL, fixture_setup, test_unroll,
              fixture_teardown);
  g_test_add ("/dfm-triangles/set-corner", Fixture, NULL, fixture_setup, test_set_corner,
              fixture_teardown);
  g_test_add ("/dfm-triangles/delete", Fixture, NULL, fixture_setup, test_delete,
              fixture_teardown);
  g_test_add ("/dfm-triangles/insert-reverse", Fixture, NULL, fixture_setup,
              test_insert_reverse, fixture_teardown);
  g_test_add ("/dfm-triangles/refused", Fixture, NULL, fixture_setup, test_refused,
              fixture_teardown);
  return g_test_run ();
}
