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
#include "mshed-dfm-generator.h"
#include "mshed-dfm-validate.h"
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

/* Hardpoints (docs/dfm.md §10.4) on a generated hand: its detached wrist bone holds the one
 * hardpoint; rows count every hardpoint in bone order. */
static MshedDocument *
make_hand (GBytes **bytes)
{
  MshedDfmGenParams params;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GError) error = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_HAND, 7);
  params.n_levels = 4;
  params.n_points = 32;
  *bytes = mshed_dfm_generate_bytes (&params);
  utf = mshed_utf_parse (*bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  return mshed_document_new_for_utf (utf, MSHED_MODE_TOLERANT);
}

static void
assert_strict_clean (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDfm) dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL,
                                                      &error);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();

  g_assert_no_error (error);
  mshed_dfm_validate (dfm, MSHED_MODE_STRICT, diags);
  g_assert_cmpuint (diags->n_errors, ==, 0);
  g_assert_cmpuint (diags->n_warnings, ==, 0);
}

static guint
n_hardpoints (MshedDfm *dfm,
              guint    *bone_of_first)
{
  guint n = 0;

  *bone_of_first = G_MAXUINT;
  for (guint i = 0; i < mshed_dfm_get_n_bones (dfm); i++)
    {
      MshedDfmBone bone;

      g_assert_true (mshed_dfm_get_bone (dfm, i, &bone));
      if (bone.n_hardpoints > 0 && *bone_of_first == G_MAXUINT)
        *bone_of_first = i;
      n += bone.n_hardpoints;
    }
  return n;
}

static void
test_hardpoints (void)
{
  g_autoptr(GBytes) before = NULL;
  g_autoptr(MshedDocument) doc = make_hand (&before);
  g_autoptr(GBytes) start = serialize (doc);
  g_autoptr(GBytes) one = NULL, two = NULL, back = NULL, gone = NULL;
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  MshedDfmHardpoint hp;
  MshedDfmBone bone;
  guint host, other, n;
  static const guint8 identity[36] = {
    0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f,
  };
  gsize size = 0;
  const guint8 *data;
  g_autofree char *path = NULL;

  g_assert_true (g_bytes_equal (start, before));
  n = n_hardpoints (dfm, &host);
  g_assert_cmpuint (n, ==, 1);  /* the wrist's hp_left a / hp_right a */

  /* above row 0: a fixed hardpoint of the same bone, before the old one */
  g_assert_true (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_HP_POSITION, 0, 0, 1,
                                                 &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Insert 1 hardpoint(s)");
  g_assert_cmpuint (n_hardpoints (dfm, &other), ==, 2);
  g_assert_cmpuint (other, ==, host);
  g_assert_true (mshed_dfm_get_hardpoint (dfm, host, 0, &hp));
  g_assert_cmpstr (hp.name, ==, "hp_new");
  g_assert_false (hp.revolute);
  path = mshed_utf_node_dup_path (hp.node);
  g_assert_true (g_str_has_suffix (path, "\\Hardpoints\\Fixed\\hp_new"));
  data = mshed_utf_node_peek_data (mshed_utf_node_lookup (hp.node, "Position"), &size);
  g_assert_cmpuint (size, ==, 12);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpuint (data[i], ==, 0);
  data = mshed_utf_node_peek_data (mshed_utf_node_lookup (hp.node, "Orientation"), &size);
  g_assert_cmpmem (data, size, identity, sizeof identity);
  one = serialize (doc);
  assert_strict_clean (one);

  /* a second one, appended: a unique name; then bone 0 (no Hardpoints yet) is not touched */
  g_assert_true (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_HP_POSITION, 0, 2, 1,
                                                 &error));
  g_assert_no_error (error);
  g_assert_true (mshed_dfm_get_hardpoint (dfm, host, 2, &hp));
  g_assert_cmpstr (hp.name, ==, "hp_new_2");
  two = serialize (doc);
  assert_strict_clean (two);

  /* undo: exact bytes at every step; redo */
  g_assert_true (mshed_document_undo (doc));
  g_clear_pointer (&back, g_bytes_unref);
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, one));
  g_assert_true (mshed_document_undo (doc));
  g_clear_pointer (&back, g_bytes_unref);
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, before));
  g_assert_true (mshed_document_redo (doc));
  g_assert_true (mshed_document_redo (doc));
  g_clear_pointer (&back, g_bytes_unref);
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, two));

  /* delete rows 0 and 1 (hp_new and the wrist's own): one undo step */
  g_assert_true (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_HP_POSITION, 0, 0, 2,
                                                 &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Delete 2 hardpoint(s)");
  g_assert_cmpuint (n_hardpoints (dfm, &other), ==, 1);
  g_assert_true (mshed_dfm_get_hardpoint (dfm, host, 0, &hp));
  g_assert_cmpstr (hp.name, ==, "hp_new_2");
  g_assert_true (mshed_document_undo (doc));
  g_clear_pointer (&back, g_bytes_unref);
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, two));

  /* deleting every hardpoint removes the Hardpoints directory; inserting into the empty
   * model puts the Hardpoints/Fixed directories back on bone 0 */
  g_assert_true (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_HP_POSITION, 0, 0, 3,
                                                 &error));
  g_assert_no_error (error);
  g_assert_true (mshed_dfm_get_bone (dfm, host, &bone));
  g_assert_null (mshed_utf_node_lookup (bone.node, "Hardpoints"));
  gone = serialize (doc);
  g_assert_true (mshed_document_dfm_insert_rows (doc, MSHED_DFM_TABLE_HP_POSITION, 0, 0, 1,
                                                 &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_hardpoints (dfm, &other), ==, 1);
  g_assert_cmpuint (other, ==, 0);
  g_assert_true (mshed_dfm_get_hardpoint (dfm, 0, 0, &hp));
  g_assert_cmpstr (hp.name, ==, "hp_new");
  g_clear_pointer (&back, g_bytes_unref);
  back = serialize (doc);
  assert_strict_clean (back);
  g_assert_true (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_HP_POSITION, 0, 0, 1,
                                                 &error));
  g_clear_pointer (&back, g_bytes_unref);
  back = serialize (doc);
  g_assert_true (g_bytes_equal (back, gone));

  /* out of range */
  g_assert_false (mshed_document_dfm_delete_rows (doc, MSHED_DFM_TABLE_HP_POSITION, 0, 0, 1,
                                                  &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
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
  g_test_add_func ("/document-dfm-rows/hardpoints", test_hardpoints);
  return g_test_run ();
}
