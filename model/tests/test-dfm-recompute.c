/* test-dfm-recompute.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DFM recomputes (mshed-dfm-recompute.h, docs/dfm.md §15.1, docs/conventions.md "DFM"):
 * every determined value of every generated shape recomputes to its stored bytes; counts,
 * Index and Lod Bits follow edits of the tree; Fractions keep the values of the levels that
 * remain; vertex normals of hand-made triangles with known normals; Bone to root of a
 * hand-made three-bone chain with matrices worked out by hand, and of every generated bone
 * (the generator builds its bind pose from the chain).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "dfm-test-util.h"
#include "mshed-bytes.h"
#include "mshed-dfm.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-recompute.h"
#include "mshed-error.h"

/* Helpers --------------------------------------------------------------------------------- */

/* head, body, hand, four-level models, with and without UV1, Edge data and name residue */
static const Case cases[] = {
  { MSHED_DFM_GEN_HEAD, 1, 6, FALSE, FALSE, FALSE },
  { MSHED_DFM_GEN_HEAD, 2, 4, TRUE, FALSE, TRUE },
  { MSHED_DFM_GEN_HEAD, 7, 6, TRUE, FALSE, FALSE },
  { MSHED_DFM_GEN_BODY, 3, 6, FALSE, TRUE, FALSE },
  { MSHED_DFM_GEN_BODY, 4, 4, TRUE, FALSE, FALSE },
  { MSHED_DFM_GEN_HAND, 5, 6, FALSE, FALSE, FALSE },
  { MSHED_DFM_GEN_HAND, 6, 4, TRUE, TRUE, TRUE },
};

static MshedDfm *
generated_from (const MshedDfmGenParams *p)
{
  g_autoptr(GBytes) bytes = mshed_dfm_generate_bytes (p);
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  return dfm;
}

static MshedDfm *
generated_with (MshedDfmGenKind kind,
                guint64         seed,
                guint           n_levels,
                guint           n_groups)
{
  MshedDfmGenParams p;

  mshed_dfm_gen_params_init (&p, kind, seed);
  p.n_levels = n_levels;
  p.n_groups = n_groups;
  return generated_from (&p);
}

static MshedDfm *
generated (const Case *c)
{
  MshedDfmGenParams p;

  case_params (c, &p);
  return generated_from (&p);
}

/* the recompute equals the stored payload of @node byte for byte */
static void
assert_same (GBytes             *computed,
             const MshedUtfNode *node)
{
  GBytes *stored;

  g_assert_nonnull (computed);
  g_assert_nonnull (node);
  stored = mshed_utf_node_get_data (node);
  if (!g_bytes_equal (computed, stored))
    {
      g_autofree char *path = mshed_utf_node_dup_path (node);

      g_error ("%s: recomputed %zu bytes differ from the stored %zu", path,
               g_bytes_get_size (computed), g_bytes_get_size (stored));
    }
}

static void
assert_u32 (GBytes *b,
            guint32 expected)
{
  g_assert_nonnull (b);
  g_assert_cmpuint (g_bytes_get_size (b), ==, 4);
  g_assert_cmpuint (mshed_read_u32 (g_bytes_get_data (b, NULL)), ==, expected);
}

static void
assert_byte (GBytes *b,
             guint8  expected)
{
  g_assert_nonnull (b);
  g_assert_cmpuint (g_bytes_get_size (b), ==, 1);
  g_assert_cmphex (((const guint8 *) g_bytes_get_data (b, NULL))[0], ==, expected);
}

static void
assert_floats (GBytes      *b,
               const float *expected,
               guint        n,
               double       epsilon)
{
  const guint8 *d;

  g_assert_nonnull (b);
  g_assert_cmpuint (g_bytes_get_size (b), ==, 4 * n);
  d = g_bytes_get_data (b, NULL);
  for (guint i = 0; i < n; i++)
    if (epsilon == 0)
      g_assert_cmpfloat (mshed_read_f32 (d + 4 * i), ==, expected[i]);
    else
      g_assert_cmpfloat_with_epsilon (mshed_read_f32 (d + 4 * i), expected[i], epsilon);
}

/* the error names @path (the node the message is about) */
static void
assert_error_names (const GError *error,
                    const char   *path)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == MSHED_MODEL_ERROR);
  if (strstr (error->message, path) == NULL)
    g_error ("“%s” does not name %s", error->message, path);
}

/* Determined values: identity on every generated shape ----------------------------------- */

static void
test_determined_identity (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(MshedDfm) dfm = generated (&cases[i]);
      MshedUtf *utf = mshed_dfm_get_utf (dfm);
      g_autoptr(GError) error = NULL;
      guint n_uv_blocks = 0;

      for (guint l = 0; l < mshed_dfm_get_n_levels (dfm); l++)
        {
          g_autofree char *count = g_strdup_printf ("\\MultiLevel\\Mesh%u\\Face_groups\\Count", l);
          g_autofree char *uvc = g_strdup_printf ("\\MultiLevel\\Mesh%u\\Geometry\\UV_vertex_count",
                                                  l);
          g_autoptr(GBytes) groups = mshed_dfm_compute_group_count (dfm, l, &error);
          g_autoptr(GBytes) uv = NULL;

          g_assert_no_error (error);
          assert_same (groups, t_lookup (utf, count));
          if (mshed_utf_lookup (utf, uvc))
            {
              uv = mshed_dfm_compute_uv_vertex_count (dfm, l, &error);
              g_assert_no_error (error);
              assert_same (uv, t_lookup (utf, uvc));
              n_uv_blocks++;
            }
        }
      /* the UV bone block is on Mesh0 of every head (docs/dfm.md §6.4) */
      g_assert_cmpuint (n_uv_blocks, ==, cases[i].kind == MSHED_DFM_GEN_HEAD);
      for (guint p = 0; p < mshed_dfm_get_n_parts (dfm); p++)
        {
          g_autoptr(GBytes) index = mshed_dfm_compute_part_index (dfm, p, &error);

          g_assert_no_error (error);
          assert_same (index, mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_PART_INDEX, p, 0));
        }
      for (guint b = 0; b < mshed_dfm_get_n_bones (dfm); b++)
        {
          g_autoptr(GBytes) bits = mshed_dfm_compute_lod_bits (dfm, b, &error);

          g_assert_no_error (error);
          assert_same (bits, mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_LOD_BITS, b, 0));
        }
      {
        g_autoptr(GBytes) materials = mshed_dfm_compute_material_count (dfm, &error);
        g_autoptr(GBytes) fractions = mshed_dfm_compute_fractions (dfm, &error);

        g_assert_no_error (error);
        assert_same (materials, t_lookup (utf, "\\Material library\\Material count"));
        /* a convention, but one that keeps what is stored when nothing changed */
        assert_same (fractions, t_lookup (utf, "\\MultiLevel\\Fractions"));
      }
    }
}

/* the same through the table dispatcher, and what it refuses */
static void
test_by_table (void)
{
  g_autoptr(MshedDfm) dfm = generated (&cases[0]);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) none = NULL;
  gboolean determined = TRUE;
  static const struct {
    MshedDfmTable table;
    gboolean      determined;
  } expected[] = {
    { MSHED_DFM_TABLE_GROUP_COUNT, TRUE }, { MSHED_DFM_TABLE_UV_VERTEX_COUNT, TRUE },
    { MSHED_DFM_TABLE_PART_INDEX, TRUE }, { MSHED_DFM_TABLE_MATERIAL_COUNT, TRUE },
    { MSHED_DFM_TABLE_LOD_BITS, TRUE }, { MSHED_DFM_TABLE_FRACTIONS, FALSE },
    { MSHED_DFM_TABLE_VERTEX_NORMALS, FALSE }, { MSHED_DFM_TABLE_BONE_TO_ROOT, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(GBytes) b = NULL;
      MshedUtfNode *node = mshed_dfm_find_node (dfm, expected[i].table, 0, 0);

      g_assert_true (mshed_dfm_table_is_derived (expected[i].table, &determined));
      g_assert_cmpint (determined, ==, expected[i].determined);
      b = mshed_dfm_compute_derived (dfm, expected[i].table, 0, &error);
      g_assert_no_error (error);
      g_assert_nonnull (b);
      if (expected[i].determined)
        assert_same (b, node);
    }
  g_assert_false (mshed_dfm_table_is_derived (MSHED_DFM_TABLE_POINTS, &determined));
  none = mshed_dfm_compute_derived (dfm, MSHED_DFM_TABLE_POINTS, 0, &error);
  g_assert_null (none);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
}

/* Counts after edits --------------------------------------------------------------------- */

static void
test_group_count (void)
{
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_BODY, 9, 6, 3);
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) count = NULL, missing = NULL;

  /* three Group directories; one removed leaves two (docs/dfm.md §4) */
  t_remove (utf, "\\MultiLevel\\Mesh1\\Face_groups\\Group1");
  mshed_dfm_refresh (dfm);
  count = mshed_dfm_compute_group_count (dfm, 1, &error);
  g_assert_no_error (error);
  assert_u32 (count, 2);
  g_clear_pointer (&count, g_bytes_unref);
  count = mshed_dfm_compute_group_count (dfm, 0, &error);
  assert_u32 (count, 3);

  /* no Face_groups: nothing to count, and the message names where it would be */
  t_remove (utf, "\\MultiLevel\\Mesh2\\Face_groups");
  mshed_dfm_refresh (dfm);
  missing = mshed_dfm_compute_group_count (dfm, 2, &error);
  g_assert_null (missing);
  assert_error_names (error, "\\MultiLevel\\Mesh2\\Face_groups");
  g_clear_error (&error);
  g_assert_null (mshed_dfm_compute_group_count (dfm, 6, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
}

static void
test_uv_vertex_count (void)
{
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_HEAD, 12, 6, 0);
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  const char *ids = "\\MultiLevel\\Mesh0\\Geometry\\UV_vertex_id";
  gsize size = 0;
  g_autoptr(GByteArray) shorter = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) count = NULL, missing = NULL;

  mshed_utf_node_peek_data (t_lookup (utf, ids), &size);
  g_assert_cmpuint (size, >=, 8);
  /* two entries fewer (4 bytes each, docs/dfm.md §6.4) */
  shorter = t_copy (utf, ids, -8);
  t_set (utf, ids, shorter->data, shorter->len);
  count = mshed_dfm_compute_uv_vertex_count (dfm, 0, &error);
  g_assert_no_error (error);
  assert_u32 (count, (guint32) (size / 4 - 2));

  /* Mesh1 has no UV bone block */
  missing = mshed_dfm_compute_uv_vertex_count (dfm, 1, &error);
  g_assert_null (missing);
  assert_error_names (error, "\\MultiLevel\\Mesh1\\Geometry\\UV_vertex_id");
}

static void
test_part_index (void)
{
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_HAND, 5, 6, 0);
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  MshedDfmPart part;
  MshedDfmBone bone5;
  g_autofree char *path = NULL, *file_name = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) index = NULL, none = NULL;

  /* part 2 made to name bone 5's directory: its Index becomes 5 (docs/dfm.md §8) */
  g_assert_true (mshed_dfm_get_part (dfm, 2, &part));
  g_assert_true (mshed_dfm_get_bone (dfm, 5, &bone5));
  g_assert_cmpint (part.bone, !=, 5);
  path = mshed_utf_node_dup_path (mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_FILE_NAME, 2, 0));
  /* matched ignoring case */
  file_name = g_ascii_strup (bone5.name, -1);
  t_set (utf, path, file_name, strlen (file_name) + 1);
  mshed_dfm_refresh (dfm);
  index = mshed_dfm_compute_part_index (dfm, 2, &error);
  g_assert_no_error (error);
  assert_u32 (index, 5);

  /* a File name that names no bone */
  t_set (utf, path, "Nothing.3db", 12);
  mshed_dfm_refresh (dfm);
  none = mshed_dfm_compute_part_index (dfm, 2, &error);
  g_assert_null (none);
  assert_error_names (error, path);
  g_assert_nonnull (strstr (error->message, "Nothing.3db"));
}

static void
test_material_count (void)
{
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_BODY, 9, 6, 3);
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  MshedDfmMaterial m;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) count = NULL, none = NULL;

  g_assert_cmpuint (mshed_dfm_get_n_materials (dfm), ==, 3);
  g_assert_true (mshed_dfm_get_material (dfm, 1, &m));
  path = mshed_utf_node_dup_path (m.node);
  t_remove (utf, path);
  /* a new directory is a material too (docs/dfm.md §11) */
  t_dir (utf, t_lookup (utf, "\\Material library"), "New material");
  t_dir (utf, t_lookup (utf, "\\Material library"), "Another");
  mshed_dfm_refresh (dfm);
  count = mshed_dfm_compute_material_count (dfm, &error);
  g_assert_no_error (error);
  assert_u32 (count, 4);

  t_remove (utf, "\\Material library");
  mshed_dfm_refresh (dfm);
  none = mshed_dfm_compute_material_count (dfm, &error);
  g_assert_null (none);
  assert_error_names (error, "\\Material library");
}

/* Lod Bits: all or nothing (docs/dfm.md §10.3, §15) ----------------------------------------- */

static void
test_lod_bits (void)
{
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_BODY, 9, 6, 2);
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  MshedDfmBone b1, b2;
  g_autofree char *bits1 = NULL, *bits2 = NULL;
  g_autoptr(GError) error = NULL;
  static const guint8 one_bit = 0x04, zero = 0;

  g_assert_true (mshed_dfm_get_bone (dfm, 1, &b1));
  g_assert_true (mshed_dfm_get_bone (dfm, 2, &b2));
  bits1 = g_strdup_printf ("\\%s\\Lod Bits", b1.name);
  bits2 = g_strdup_printf ("\\%s\\Lod Bits", b2.name);
  t_set (utf, bits1, &one_bit, 1);
  t_set (utf, bits2, &zero, 1);
  {
    g_autoptr(GBytes) some = mshed_dfm_compute_lod_bits (dfm, 1, &error);
    g_autoptr(GBytes) none = mshed_dfm_compute_lod_bits (dfm, 2, &error);

    g_assert_no_error (error);
    assert_byte (some, 0x3F);   /* six levels */
    assert_byte (none, 0x00);
  }

  /* five levels left: 0x1F; an absent Lod Bits means 0 */
  t_remove (utf, "\\MultiLevel\\Mesh5");
  t_remove (utf, bits2);
  mshed_dfm_refresh (dfm);
  {
    g_autoptr(GBytes) some = mshed_dfm_compute_lod_bits (dfm, 1, &error);
    g_autoptr(GBytes) absent = mshed_dfm_compute_lod_bits (dfm, 2, &error);

    g_assert_no_error (error);
    assert_byte (some, 0x1F);
    assert_byte (absent, 0x00);
  }

  /* nine levels do not fit one byte */
  for (guint l = 5; l < 9; l++)
    {
      g_autofree char *name = g_strdup_printf ("Mesh%u", l);

      t_dir (utf, t_lookup (utf, "\\MultiLevel"), name);
    }
  mshed_dfm_refresh (dfm);
  g_assert_cmpuint (mshed_dfm_get_n_levels (dfm), ==, 9);
  {
    g_autoptr(GBytes) nine = mshed_dfm_compute_lod_bits (dfm, 1, &error);
    g_autoptr(GBytes) zero_still = NULL;

    g_assert_null (nine);
    assert_error_names (error, bits1);
    g_clear_error (&error);
    zero_still = mshed_dfm_compute_lod_bits (dfm, 2, &error);
    g_assert_no_error (error);
    assert_byte (zero_still, 0x00);
  }
}

/* Fractions (docs/conventions.md "DFM") --------------------------------------------------- */

static void
check_fractions (MshedDfm    *dfm,
                 const float *expected,
                 guint        n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b = mshed_dfm_compute_fractions (dfm, &error);

  g_assert_no_error (error);
  assert_floats (b, expected, n, 0);
}

static void
test_fractions (void)
{
  static const float six[] = { 1, 0.8f, 0.6f, 0.4f, 0.2f, 0.1f };
  static const float four[] = { 1, 0.8f, 0.6f, 0.2f };
  static const float without_mesh2[] = { 1, 0.8f, 0.4f, 0.2f, 0.1f };
  static const float with_mesh6[] = { 1, 0.8f, 0.6f, 0.4f, 0.2f, 0.1f, 0.05f };
  static const float three[] = { 1, 2.0f / 3, 1.0f / 3 };
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_HEAD, 21, 6, 1);
  g_autoptr(MshedDfm) dfm4 = generated_with (MSHED_DFM_GEN_BODY, 22, 4, 1);
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  MshedUtf *utf4 = mshed_dfm_get_utf (dfm4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) none = NULL;

  check_fractions (dfm, six, 6);
  /* a level removed: the others keep their fractions (Mesh<k> keeps Fractions[k]) */
  t_remove (utf, "\\MultiLevel\\Mesh2");
  mshed_dfm_refresh (dfm);
  check_fractions (dfm, without_mesh2, 5);
  /* Mesh2 back at the end, a Mesh6 too: by position now, the new level halves the last */
  t_dir (utf, t_lookup (utf, "\\MultiLevel"), "Mesh2");
  t_dir (utf, t_lookup (utf, "\\MultiLevel"), "Mesh6");
  mshed_dfm_refresh (dfm);
  check_fractions (dfm, with_mesh6, 7);

  /* no stored fractions: the retail sets for four and six levels (docs/dfm.md §3), 1 − i/L
   * otherwise */
  check_fractions (dfm4, four, 4);
  t_remove (utf4, "\\MultiLevel\\Fractions");
  mshed_dfm_refresh (dfm4);
  check_fractions (dfm4, four, 4);
  t_remove (utf4, "\\MultiLevel\\Mesh3");
  mshed_dfm_refresh (dfm4);
  check_fractions (dfm4, three, 3);
  for (guint l = 3; l < 6; l++)
    {
      g_autofree char *name = g_strdup_printf ("Mesh%u", l);

      t_dir (utf4, t_lookup (utf4, "\\MultiLevel"), name);
    }
  mshed_dfm_refresh (dfm4);
  check_fractions (dfm4, six, 6);

  t_remove (utf4, "\\MultiLevel");
  mshed_dfm_refresh (dfm4);
  none = mshed_dfm_compute_fractions (dfm4, &error);
  g_assert_null (none);
  assert_error_names (error, "\\MultiLevel");
}

/* levels named Mesh1..Mesh6 (not by the writer rule): paired by position, nothing changes */
static void
test_fractions_one_based (void)
{
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_HEAD, 23, 6, 1);
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b = NULL;

  for (guint l = 6; l > 0; l--)
    {
      g_autofree char *path = g_strdup_printf ("\\MultiLevel\\Mesh%u", l - 1);
      g_autofree char *name = g_strdup_printf ("Mesh%u", l);

      g_free (mshed_utf_rename (utf, t_lookup (utf, path), name));
    }
  mshed_dfm_refresh (dfm);
  b = mshed_dfm_compute_fractions (dfm, &error);
  g_assert_no_error (error);
  assert_same (b, t_lookup (utf, "\\MultiLevel\\Fractions"));
}

/* Vertex normals (docs/conventions.md "DFM") ---------------------------------------------- */

/* One level: points @points (n), elements = points in order, one group with @strip. */
static MshedDfm *
normals_model (const float   *points,
               guint          n,
               const float   *normals,
               const guint16 *strip,
               guint          n_strip)
{
  MshedUtf *utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *multi = t_dir (utf, root, "MultiLevel");
  MshedUtfNode *mesh = t_dir (utf, multi, "Mesh0");
  MshedUtfNode *groups = t_dir (utf, mesh, "Face_groups");
  MshedUtfNode *group = t_dir (utf, groups, "Group0");
  MshedUtfNode *geo = t_dir (utf, mesh, "Geometry");
  g_autofree guint32 *identity = g_new (guint32, n);
  guint32 one = 1;
  MshedDfm *dfm;

  for (guint i = 0; i < n; i++)
    identity[i] = i;
  t_u32s (utf, groups, "Count", &one, 1);
  t_text (utf, group, "Material_name", "m");
  t_u16s (utf, group, "Tristrip_indices", strip, n_strip);
  t_u32s (utf, geo, "Point_indices", identity, n);
  t_f32s (utf, geo, "Points", points, 3 * n);
  t_f32s (utf, geo, "Vertex_normals", normals, 3 * n);
  dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, NULL, NULL);
  mshed_utf_unref (utf);
  g_assert_nonnull (dfm);
  return dfm;
}

static void
test_vertex_normals_triangle (void)
{
  /* one triangle in the xy plane, counter-clockwise seen from +z: normal +z; point 3 is
   * used by no triangle and keeps its stored normal */
  static const float points[] = { 0, 0, 0, 2, 0, 0, 0, 3, 0, 5, 5, 5 };
  static const float stored[] = { 1, 0, 0, 1, 0, 0, 1, 0, 0, 0.5f, 0.5f, 0.5f };
  static const float expected[] = { 0, 0, 1, 0, 0, 1, 0, 0, 1, 0.5f, 0.5f, 0.5f };
  static const float flipped[] = { 0, 0, -1, 0, 0, -1, 0, 0, -1, 0.5f, 0.5f, 0.5f };
  static const guint16 strip[] = { 0, 1, 2 };
  /* after the degenerate window 0, the window at odd position 1 draws (s[2], s[1], s[3]) =
   * (1, 0, 2) (docs/dfm.md §5.1): the same triangle wound the other way */
  static const guint16 odd_strip[] = { 0, 0, 1, 2 };
  g_autoptr(MshedDfm) dfm = normals_model (points, 4, stored, strip, 3);
  g_autoptr(MshedDfm) odd = normals_model (points, 4, stored, odd_strip, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b = mshed_dfm_compute_vertex_normals (dfm, 0, &error);
  g_autoptr(GBytes) c = mshed_dfm_compute_vertex_normals (odd, 0, &error);

  g_assert_no_error (error);
  assert_floats (b, expected, 12, 0);
  assert_floats (c, flipped, 12, 0);
}

static void
test_vertex_normals_weighted (void)
{
  /* triangle A (0, 1, 2) in the xy plane, twice its area 1, normal (0, 0, 1); triangle B
   * (0, 1, 3) with (1, 0, 0) × (0, 0, 2) = (0, −2, 0). Points 0 and 1 share both:
   * (0, −2, 1) / √5; point 2 only A, point 3 only B. The strip is what docs/dfm.md §5.3
   * writes for the list A, B: 0 1 2, then 2 2 0 (windows 1–5 degenerate), then 0 1 3 at the
   * even position 6. */
  static const float points[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2 };
  static const float stored[12] = { 0 };
  static const guint16 strip[] = { 0, 1, 2, 2, 2, 0, 0, 1, 3 };
  const float s5 = (float) (1 / sqrt (5.0));
  const float expected[] = { 0, -2 * s5, s5, 0, -2 * s5, s5, 0, 0, 1, 0, -1, 0 };
  g_autoptr(MshedDfm) dfm = normals_model (points, 4, stored, strip, G_N_ELEMENTS (strip));
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b = mshed_dfm_compute_vertex_normals (dfm, 0, &error);
  gsize n = 0;
  g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, 0, 0, &n);

  /* the strip draws exactly A and B */
  g_assert_cmpuint (n, ==, 2);
  g_assert_no_error (error);
  assert_floats (b, expected, 12, 1e-7);
}

/* a stored normal within 2⁻²⁰ of the computed one keeps its bytes; one beyond does not */
static void
test_vertex_normals_keep (void)
{
  static const float points[] = { 0, 0, 0, 2, 0, 0, 0, 3, 0 };
  const float near = (float) (1.0 / 4194304.0);     /* 2⁻²² */
  const float far = (float) (1.0 / 65536.0);        /* 2⁻¹⁶ */
  const float stored[] = { near, 0, 1, 0, -near, 1, far, 0, 1 };
  static const guint16 strip[] = { 0, 1, 2 };
  const float expected[] = { near, 0, 1, 0, -near, 1, 0, 0, 1 };
  g_autoptr(MshedDfm) dfm = normals_model (points, 3, stored, strip, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b = mshed_dfm_compute_vertex_normals (dfm, 0, &error);

  g_assert_no_error (error);
  assert_floats (b, expected, 9, 0);
}

/* on a generated model the normals point to the side of the stored ones (docs/dfm.md §5.2)
 * and are unit vectors */
static void
test_vertex_normals_generated (void)
{
  g_autoptr(MshedDfm) dfm = generated_with (MSHED_DFM_GEN_BODY, 31, 6, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) b = mshed_dfm_compute_vertex_normals (dfm, 0, &error);
  MshedDfmLevel level;
  const guint8 *d;
  guint agree = 0;

  g_assert_no_error (error);
  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  g_assert_cmpuint (g_bytes_get_size (b), ==, 12 * level.n_points);
  d = g_bytes_get_data (b, NULL);
  for (guint p = 0; p < level.n_points; p++)
    {
      float pos[3], n[3], dot = 0, len = 0;

      g_assert_true (mshed_dfm_get_point (dfm, 0, p, pos, n));
      for (guint k = 0; k < 3; k++)
        {
          float c = mshed_read_f32 (d + 12 * p + 4 * k);

          dot += c * n[k];
          len += c * c;
        }
      g_assert_cmpfloat_with_epsilon (len, 1.0, 1e-5);
      agree += dot > 0;
    }
  g_assert_cmpuint (agree, ==, level.n_points);
}

/* Bone to root (docs/dfm.md §9.2, §10.2) ------------------------------------------------- */

static void
push_name (GByteArray *b,
           const char *name)
{
  guint8 field[64] = { 0 };

  memcpy (field, name, strlen (name));
  g_byte_array_append (b, field, sizeof field);
}

static void
push_floats (GByteArray  *b,
             const float *v,
             guint        n)
{
  for (guint i = 0; i < n; i++)
    {
      guint8 w[4];

      mshed_write_f32 (w, v[i]);
      g_byte_array_append (b, w, 4);
    }
}

static void
add_part (MshedUtf     *utf,
          MshedUtfNode *cmpnd,
          const char   *dir,
          const char   *object,
          guint32       index)
{
  MshedUtfNode *part = t_dir (utf, cmpnd, dir);
  g_autofree char *file = g_strdup_printf ("%s.3db", object);

  t_text (utf, part, "Object name", object);
  t_text (utf, part, "File name", file);
  t_u32s (utf, part, "Index", &index, 1);
}

/*
 * Root.3db: World = T(1, 2, 3) · Rz(90°), so Bone to root = [Rᵀ | −Rᵀ·t] with Rᵀ rows
 * (0 1 0), (−1 0 0), (0 0 1) and −Rᵀ·t = (−2, 1, −3).
 * Arm.3db, Loose (or @arm_kind) from Root: position (0, 0, 5), identity: World_arm =
 * Rz(90°), t = (1, 2, 8); Bone to root: same Rᵀ, (−2, 1, −8).
 * Hand.3db, Sphere from Arm: parent point (1, 0, 0), child point (0, 1, 0), Rx(90°) with rows
 * (1 0 0), (0 0 −1), (0 1 0): L = Rx, t = (1, 0, 0) − Rx·(0, 1, 0) = (1, 0, −1);
 * World_hand = Rz·Rx with rows (0 0 1), (1 0 0), (0 1 0), t = Rz·(1, 0, −1) + (1, 2, 8) =
 * (1, 3, 7); Bone to root: rows (0 1 0), (0 0 1), (1 0 0), −Rᵀ·t = (−3, −7, −1).
 * Neck.3db: detached (no part), its own stored value.
 */
static const float root_btr[12] = { 0, 1, 0, -1, 0, 0, 0, 0, 1, -2, 1, -3 };
static const float arm_btr[12] = { 0, 1, 0, -1, 0, 0, 0, 0, 1, -2, 1, -8 };
static const float hand_btr[12] = { 0, 1, 0, 0, 0, 1, 1, 0, 0, -3, -7, -1 };
static const float neck_btr[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0.25f, 0.125f };

static MshedDfm *
chain_model (const char *arm_kind)
{
  static const float identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  static const float arm_position[3] = { 0, 0, 5 };
  static const float parent_point[3] = { 1, 0, 0 }, child_point[3] = { 0, 1, 0 };
  static const float rx90[9] = { 1, 0, 0, 0, 0, -1, 0, 1, 0 };
  static const float limits[6] = { -1, 1, -1, 1, -1, 1 };
  static const float zeros[12] = { 0 };
  MshedUtf *utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *cmpnd = t_dir (utf, root, "Cmpnd"), *cons;
  g_autoptr(GByteArray) arm = g_byte_array_new ();
  g_autoptr(GByteArray) hand = g_byte_array_new ();
  MshedDfm *dfm;

  add_part (utf, cmpnd, "Root", "Root", 0);
  add_part (utf, cmpnd, "Part_Arm", "Arm", 1);
  add_part (utf, cmpnd, "Part_Hand", "Hand", 3);
  cons = t_dir (utf, cmpnd, "Cons");
  push_name (arm, "Root");
  push_name (arm, "Arm");
  push_floats (arm, arm_position, 3);
  if (strcmp (arm_kind, "Rev") == 0)
    {
      /* Rev: position, offset, rotation, axis, min, max (docs/dfm.md §9.1) */
      push_floats (arm, zeros, 3);
      push_floats (arm, identity, 9);
      push_floats (arm, zeros, 5);
    }
  else
    push_floats (arm, identity, 9);
  t_file (utf, cons, arm_kind, arm->data, arm->len);
  push_name (hand, "Arm");
  push_name (hand, "Hand");
  push_floats (hand, parent_point, 3);
  push_floats (hand, child_point, 3);
  push_floats (hand, rx90, 9);
  push_floats (hand, limits, 6);
  t_file (utf, cons, "Sphere", hand->data, hand->len);
  t_f32s (utf, t_dir (utf, root, "Root.3db"), "Bone to root", root_btr, 12);
  t_f32s (utf, t_dir (utf, root, "Arm.3db"), "Bone to root", zeros, 12);
  t_f32s (utf, t_dir (utf, root, "Neck.3db"), "Bone to root", neck_btr, 12);
  t_f32s (utf, t_dir (utf, root, "Hand.3db"), "Bone to root", zeros, 12);
  dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, NULL, NULL);
  mshed_utf_unref (utf);
  g_assert_nonnull (dfm);
  return dfm;
}

static GBytes *
bone_to_root (MshedDfm   *dfm,
              const char *object)
{
  g_autoptr(GError) error = NULL;
  gint bone = mshed_dfm_find_bone (dfm, object);
  GBytes *b;

  g_assert_cmpint (bone, >=, 0);
  b = mshed_dfm_compute_bone_to_root (dfm, (guint) bone, &error);
  g_assert_no_error (error);
  return b;
}

static void
test_bone_to_root_chain (void)
{
  const char *kinds[] = { "Loose", "Fix" };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(MshedDfm) dfm = chain_model (kinds[k]);
      g_autoptr(GBytes) root = bone_to_root (dfm, "Root");
      g_autoptr(GBytes) arm = bone_to_root (dfm, "Arm");
      g_autoptr(GBytes) hand = bone_to_root (dfm, "Hand");
      g_autoptr(GBytes) neck = NULL;
      g_autoptr(GError) error = NULL;

      /* the root keeps its stored value, byte for byte */
      assert_same (root, t_lookup (mshed_dfm_get_utf (dfm), "\\Root.3db\\Bone to root"));
      assert_floats (arm, arm_btr, 12, 1e-6);
      assert_floats (hand, hand_btr, 12, 1e-6);
      /* bone 2 is the detached Neck: no parent, its own value */
      neck = mshed_dfm_compute_bone_to_root (dfm, 2, &error);
      g_assert_no_error (error);
      assert_same (neck, t_lookup (mshed_dfm_get_utf (dfm), "\\Neck.3db\\Bone to root"));
    }
}

static void
test_bone_to_root_refused (void)
{
  g_autoptr(MshedDfm) rev = chain_model ("Rev");
  g_autoptr(MshedDfm) dfm = chain_model ("Loose");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) root = NULL;
  GBytes *none;

  /* a Rev joint on the chain: its rest frame is not documented */
  g_assert_cmpint (mshed_dfm_find_bone (rev, "Hand"), ==, 3);
  none = mshed_dfm_compute_bone_to_root (rev, 3, &error);
  g_assert_null (none);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  assert_error_names (error, "\\Cmpnd\\Cons\\Rev");
  g_clear_error (&error);
  /* the root itself does not go through it */
  root = mshed_dfm_compute_bone_to_root (rev, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (root);

  /* the top of the chain without a 48-byte Bone to root */
  t_set (mshed_dfm_get_utf (dfm), "\\Root.3db\\Bone to root", root_btr, 44);
  none = mshed_dfm_compute_bone_to_root (dfm, 3, &error);
  g_assert_null (none);
  assert_error_names (error, "\\Root.3db\\Bone to root");
  g_clear_error (&error);
  g_assert_null (mshed_dfm_compute_bone_to_root (dfm, 4, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
}

/* the generator builds every bind pose from the chain (mshed-dfm-generator.h): the recompute
 * gives back the stored Bone to root of every bone within float tolerance */
static void
test_bone_to_root_generated (void)
{
  double worst_r = 0, worst_t = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(MshedDfm) dfm = generated (&cases[i]);

      for (guint b = 0; b < mshed_dfm_get_n_bones (dfm); b++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GBytes) computed = mshed_dfm_compute_bone_to_root (dfm, b, &error);
          MshedDfmBone bone;
          const guint8 *d;

          g_assert_no_error (error);
          g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
          g_assert_cmpuint (g_bytes_get_size (computed), ==, 48);
          d = g_bytes_get_data (computed, NULL);
          if (bone.parent < 0)
            assert_same (computed, mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_BONE_TO_ROOT, b, 0));
          for (guint k = 0; k < 12; k++)
            {
              double diff = fabs (mshed_read_f32 (d + 4 * k) - bone.bone_to_root[k]);

              if (k < 9)
                worst_r = MAX (worst_r, diff);
              else
                worst_t = MAX (worst_t, diff);
            }
        }
    }
  g_test_message ("largest difference from the stored Bone to root: rotation %g, "
                  "translation %g", worst_r, worst_t);
  /* the generator stores rotations as floats of its doubles and rounds translations to
   * multiples of 2⁻¹⁶: half a step at the top of the chain, carried down, and half a step in
   * the stored value; allow two steps */
  g_assert_cmpfloat (worst_r, <, 1e-6);
  g_assert_cmpfloat (worst_t, <, 2.0 / 65536);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dfm-recompute/determined/identity", test_determined_identity);
  g_test_add_func ("/dfm-recompute/by-table", test_by_table);
  g_test_add_func ("/dfm-recompute/group-count", test_group_count);
  g_test_add_func ("/dfm-recompute/uv-vertex-count", test_uv_vertex_count);
  g_test_add_func ("/dfm-recompute/part-index", test_part_index);
  g_test_add_func ("/dfm-recompute/material-count", test_material_count);
  g_test_add_func ("/dfm-recompute/lod-bits", test_lod_bits);
  g_test_add_func ("/dfm-recompute/fractions", test_fractions);
  g_test_add_func ("/dfm-recompute/fractions/one-based", test_fractions_one_based);
  g_test_add_func ("/dfm-recompute/normals/triangle", test_vertex_normals_triangle);
  g_test_add_func ("/dfm-recompute/normals/weighted", test_vertex_normals_weighted);
  g_test_add_func ("/dfm-recompute/normals/keep", test_vertex_normals_keep);
  g_test_add_func ("/dfm-recompute/normals/generated", test_vertex_normals_generated);
  g_test_add_func ("/dfm-recompute/bone-to-root/chain", test_bone_to_root_chain);
  g_test_add_func ("/dfm-recompute/bone-to-root/refused", test_bone_to_root_refused);
  g_test_add_func ("/dfm-recompute/bone-to-root/generated", test_bone_to_root_generated);
  return g_test_run ();
}
