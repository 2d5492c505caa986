/* test-document-dfm-rows.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inserting and deleting DFM points and elements (mshed-document-dfm-rows.c, docs/dfm.md §15)
 * on a hand-made level whose every index is known: the parallel files grow and shrink
 * together, the indices after the edit point shift, references to a deleted row refuse the
 * edit, one undo step restores the bytes, and insert then delete gives the original file.
 */
#include "config.h"

#include <string.h>

#include "dfm-test-util.h"
#include "mshed-document.h"
#include "mshed-error.h"

#define GEO "\\MultiLevel\\Mesh0\\Geometry\\"
#define G0  "\\MultiLevel\\Mesh0\\Face_groups\\Group0\\"
#define G1  "\\MultiLevel\\Mesh0\\Face_groups\\Group1\\"

/* Five points (P4 used by no element), five elements, group 0 a strip with edges, group 1 a
 * list. */
static MshedDocument *
make_document (void)
{
  static const float points[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 2, 2 };
  static const float normals[] = { 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0 };
  static const guint32 first[] = { 0, 1, 2, 3, 4 };
  static const guint32 count[] = { 1, 1, 1, 1, 1 };
  static const guint32 ids[] = { 0, 0, 0, 0, 0 };
  static const float weights[] = { 1, 1, 1, 1, 1 };
  static const guint32 point_indices[] = { 0, 1, 2, 3, 3 };
  static const guint32 uv0_indices[] = { 0, 1, 2, 3, 4 };
  static const float uv0[] = { 0, 0, 1, 0, 0, 1, 1, 1, 0.5f, 0.5f };
  static const guint16 strip[] = { 0, 1, 2, 3 };
  static const guint16 edges[] = { 0, 1, 2, 3 };
  static const guint16 list[] = { 2, 3, 4 };
  static const guint32 two[] = { 2 };
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *mesh = t_dir (utf, t_dir (utf, root, "MultiLevel"), "Mesh0");
  MshedUtfNode *fg = t_dir (utf, mesh, "Face_groups");
  MshedUtfNode *geo = t_dir (utf, mesh, "Geometry");
  MshedUtfNode *g0, *g1;

  t_u32s (utf, fg, "Count", two, 1);
  g0 = t_dir (utf, fg, "Group0");
  t_text (utf, g0, "Material_name", "skin");
  t_u16s (utf, g0, "Tristrip_indices", strip, G_N_ELEMENTS (strip));
  t_u16s (utf, g0, "Edge_indices", edges, G_N_ELEMENTS (edges));
  g1 = t_dir (utf, fg, "Group1");
  t_text (utf, g1, "Material_name", "skin");
  t_u16s (utf, g1, "Face_indices", list, G_N_ELEMENTS (list));
  t_u32s (utf, geo, "Point_indices", point_indices, G_N_ELEMENTS (point_indices));
  t_u32s (utf, geo, "UV0_indices", uv0_indices, G_N_ELEMENTS (uv0_indices));
  t_f32s (utf, geo, "Points", points, G_N_ELEMENTS (points));
  t_u32s (utf, geo, "Point_bone_first", first, G_N_ELEMENTS (first));
  t_u32s (utf, geo, "Point_bone_count", count, G_N_ELEMENTS (count));
  t_u32s (utf, geo, "Bone_id_chain", ids, G_N_ELEMENTS (ids));
  t_f32s (utf, geo, "Bone_weight_chain", weights, G_N_ELEMENTS (weights));
  t_f32s (utf, geo, "Vertex_normals", normals, G_N_ELEMENTS (normals));
  t_f32s (utf, geo, "UV0", uv0, G_N_ELEMENTS (uv0));
  return mshed_document_new_for_utf (utf, MSHED_MODE_TOLERANT);
}

static GBytes *
serialize (MshedDocument *doc)
{
  GBytes *bytes = mshed_document_serialize_file (doc);

  g_assert_nonnull (bytes);
  return bytes;
}

static void
assert_u32s (MshedDocument *doc,
             const char    *path,
             const guint32 *expected,
             gsize          n)
{
  gsize size = 0;
  const guint8 *data = mshed_utf_node_peek_data (t_lookup (mshed_document_get_utf (doc), path),
                                                 &size);

  g_assert_cmpuint (size, ==, 4 * n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpuint (mshed_read_u32 (data + 4 * i), ==, expected[i]);
}

static void
assert_u16s (MshedDocument *doc,
             const char    *path,
             const guint16 *expected,
             gsize          n)
{
  gsize size = 0;
  const guint8 *data = mshed_utf_node_peek_data (t_lookup (mshed_document_get_utf (doc), path),
                                                 &size);

  g_assert_cmpuint (size, ==, 2 * n);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpuint (mshed_read_u16 (data + 2 * i), ==, expected[i]);
}

static gsize
size_of (MshedDocument *doc,
         const char    *path)
{
  gsize size = 0;

  mshed_utf_node_peek_data (t_lookup (mshed_document_get_utf (doc), path), &size);
  return size;
}

static void
test_insert_point (void)
{
  g_autoptr(MshedDocument) doc = make_document ();
  g_autoptr(GBytes) before = serialize (doc);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GBytes) back = NULL;
  g_autoptr(GError) error = NULL;
  static const guint32 pi[] = { 0, 2, 3, 4, 4 };
  static const guint32 first[] = { 0, 1, 1, 2, 3, 4 };
  static const guint16 edges[] = { 0, 2, 3, 4 };
  static const guint32 uv0_indices[] = { 0, 1, 2, 3, 4 };
  float pos[3], normal[3];

  /* above point 1: a copy of it, every later index one up */
  g_assert_true (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 1, 1,
                                                 &error));
  g_assert_no_error (error);
  assert_u32s (doc, GEO "Point_indices", pi, G_N_ELEMENTS (pi));
  assert_u32s (doc, GEO "Point_bone_first", first, G_N_ELEMENTS (first));
  assert_u16s (doc, G0 "Edge_indices", edges, G_N_ELEMENTS (edges));
  assert_u32s (doc, GEO "UV0_indices", uv0_indices, G_N_ELEMENTS (uv0_indices));
  g_assert_true (mshed_dfm_get_point (mshed_document_get_dfm (doc), 0, 1, pos, normal));
  g_assert_cmpfloat (pos[0], ==, 1.0f);
  g_assert_cmpfloat (pos[1], ==, 0.0f);
  g_assert_true (mshed_dfm_get_point (mshed_document_get_dfm (doc), 0, 5, pos, normal));
  g_assert_cmpfloat (pos[0], ==, 2.0f);
  g_assert_cmpfloat (normal[1], ==, 1.0f);
  after = serialize (doc);

  /* one undo step */
  g_assert_true (mshed_document_undo (doc));
  undone = serialize (doc);
  g_assert_true (g_bytes_equal (undone, before));
  g_assert_false (mshed_document_can_undo (doc));
  g_assert_true (mshed_document_redo (doc));
  redone = serialize (doc);
  g_assert_true (g_bytes_equal (redone, after));

  /* deleting it again gives the original file */
  g_assert_true (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_VERTEX_NORMALS, 0, 1, 1,
                                                 &error));
  g_assert_no_error (error);
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, before));
}

static void
test_delete_point (void)
{
  g_autoptr(MshedDocument) doc = make_document ();
  g_autoptr(GBytes) before = serialize (doc);
  g_autoptr(GBytes) refused = NULL;
  g_autoptr(GBytes) back = NULL;
  g_autoptr(GError) error = NULL;
  static const guint32 first[] = { 0, 1, 2, 3 };

  /* point 2 is element 2's, edge 2's */
  g_assert_false (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 2, 1,
                                                  &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Point_indices[2]"));
  g_clear_error (&error);
  refused = serialize (doc);
  g_assert_true (g_bytes_equal (refused, before));
  g_assert_false (mshed_document_can_undo (doc));

  /* point 4 is nobody's: its records go, its influence stays in the pools */
  g_assert_true (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_POINT_BONE_COUNT, 0, 4, 1,
                                                 &error));
  g_assert_no_error (error);
  assert_u32s (doc, GEO "Point_bone_first", first, G_N_ELEMENTS (first));
  g_assert_cmpuint (size_of (doc, GEO "Points"), ==, 48);
  g_assert_cmpuint (size_of (doc, GEO "Bone_id_chain"), ==, 20);
  /* appending copies the last row */
  g_assert_true (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 4, 1, &error));
  g_assert_no_error (error);
  {
    static const guint32 again[] = { 0, 1, 2, 3, 3 };

    assert_u32s (doc, GEO "Point_bone_first", again, G_N_ELEMENTS (again));
  }
  g_assert_true (mshed_document_undo (doc));
  g_assert_true (mshed_document_undo (doc));
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, before));
}

static void
test_elements (void)
{
  g_autoptr(MshedDocument) doc = make_document ();
  g_autoptr(GBytes) before = serialize (doc);
  g_autoptr(GBytes) back = NULL;
  g_autoptr(GError) error = NULL;
  static const guint32 pi[] = { 0, 1, 2, 2, 2, 3, 3 };
  static const guint32 uvi[] = { 0, 1, 2, 2, 2, 3, 4 };
  static const guint16 strip[] = { 0, 1, 4, 5 };
  static const guint16 list[] = { 4, 5, 6 };
  static const guint16 edges[] = { 0, 1, 2, 3 };
  static const guint32 uv_count = 5;

  /* two copies of element 2 above it */
  g_assert_true (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_UV0_INDICES, 0, 2, 2,
                                                 &error));
  g_assert_no_error (error);
  assert_u32s (doc, GEO "Point_indices", pi, G_N_ELEMENTS (pi));
  assert_u32s (doc, GEO "UV0_indices", uvi, G_N_ELEMENTS (uvi));
  assert_u16s (doc, G0 "Tristrip_indices", strip, G_N_ELEMENTS (strip));
  assert_u16s (doc, G1 "Face_indices", list, G_N_ELEMENTS (list));
  /* edges index points, UV0 is not an element table */
  assert_u16s (doc, G0 "Edge_indices", edges, G_N_ELEMENTS (edges));
  g_assert_cmpuint (size_of (doc, GEO "UV0"), ==, 8 * uv_count);

  /* element 4 is drawn by group 0 now */
  g_assert_false (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_POINT_INDICES, 0, 3, 2,
                                                  &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Tristrip_indices[2]"));
  g_clear_error (&error);

  g_assert_true (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_POINT_INDICES, 0, 2, 2,
                                                 &error));
  g_assert_no_error (error);
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, before));
}

static void
test_refused (void)
{
  g_autoptr(MshedDocument) doc = make_document ();
  g_autoptr(GError) error = NULL;
  MshedUtf *utf = mshed_document_get_utf (doc);
  static const guint32 short_first[] = { 0, 1, 2, 3 };

  /* not a row table */
  g_assert_false (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_UV0, 0, 0, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  /* outside the rows, no level, zero rows */
  g_assert_false (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 6, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 4, 2, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 0, 0, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_POINTS, 3, 0, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);
  /* a parallel file of another length */
  {
    g_autoptr(GBytes) b = g_bytes_new (short_first, sizeof short_first);

    g_assert_true (mshed_document_utf_set_data (doc, t_lookup (utf, GEO "Point_bone_first"), b,
                                                &error));
  }
  g_assert_false (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_POINTS, 0, 0, 1, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Point_bone_first"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/document-dfm-rows/insert-point", test_insert_point);
  g_test_add_func ("/document-dfm-rows/delete-point", test_delete_point);
  g_test_add_func ("/document-dfm-rows/elements", test_elements);
  g_test_add_func ("/document-dfm-rows/refused", test_refused);
  return g_test_run ();
}
