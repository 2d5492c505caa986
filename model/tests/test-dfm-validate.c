/* test-dfm-validate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One negative test per rule of docs/dfm.md §14 (and the checks mshed adds): a small valid
 * head is generated, one defect is planted with a UTF edit, the file is written and read
 * again, and the exact check, severity, node path, table, record, field and byte offset of
 * the finding are asserted in strict and in tolerant mode. Offsets are recomputed here from
 * the planted file's own tree entries (docs/utf.md §3), not from the validator's arithmetic.
 */
#include "config.h"

#include <string.h>

#include "dfm-test-util.h"
#include "mshed-diagnostic.h"
#include "mshed-dfm.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-strip.h"
#include "mshed-dfm-validate.h"
#include "mshed-error.h"

#define GEO0 "\\MultiLevel\\Mesh0\\Geometry"
#define FG0  "\\MultiLevel\\Mesh0\\Face_groups"
#define GRP0 FG0 "\\Group0"
#define GRP1 FG0 "\\Group1"
#define LOOSE "\\Cmpnd\\Cons\\Loose"

/* special record / offset values resolved against the planted file */
#define RECORD_END  (-10)             /* whole records of the node: the incomplete one */
#define RECORD_LAST (-11)             /* the last whole record */
#define REL_RECORD  G_MAXUINT64       /* record × stride */
#define REL_SIZE    (G_MAXUINT64 - 1) /* the payload size (just past its end) */

static GBytes *
base_bytes (void)
{
  MshedDfmGenParams p;

  mshed_dfm_gen_params_init (&p, MSHED_DFM_GEN_HEAD, 7);
  p.n_bones = 10;
  p.n_points = 64;
  p.n_groups = 2;
  p.n_levels = 4;
  p.uv1 = TRUE;
  p.edges = TRUE;
  p.no_residue = TRUE;
  return mshed_dfm_generate_bytes (&p);
}

static MshedUtf *
parse (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MshedUtf *utf = mshed_utf_parse (bytes, MSHED_MODE_TOLERANT, NULL, &error);

  g_assert_no_error (error);
  return utf;
}

/* Tokens in paths: @B0 bone 0's directory, @PL the last part, @BL the bone it names */
static char *
resolve (const char *spec)
{
  g_autoptr(GBytes) bytes = base_bytes ();
  g_autoptr(MshedUtf) utf = parse (bytes);
  g_autoptr(MshedDfm) dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, NULL, NULL);
  MshedDfmBone b0, bl;
  MshedDfmPart pl;
  GString *s = g_string_new (spec);

  mshed_dfm_get_bone (dfm, 0, &b0);
  mshed_dfm_get_part (dfm, mshed_dfm_get_n_parts (dfm) - 1, &pl);
  mshed_dfm_get_bone (dfm, (guint) pl.bone, &bl);
  g_string_replace (s, "@B0", b0.name, 0);
  g_string_replace (s, "@PL", mshed_utf_node_get_name (pl.node), 0);
  g_string_replace (s, "@BL", bl.name, 0);
  return g_string_free (s, FALSE);
}

/* Plant helpers ------------------------------------------------------------------------- */

static void
set_word (MshedUtf   *u,
          const char *spec,
          guint       index,
          guint32     value)
{
  g_autofree char *path = resolve (spec);
  g_autoptr(GByteArray) a = t_copy (u, path, 0);

  g_assert_cmpuint (4 * index + 4, <=, a->len);
  mshed_write_u32 (a->data + 4 * index, value);
  t_set (u, path, a->data, a->len);
}

static void
set_float (MshedUtf   *u,
           const char *path,
           guint       index,
           float       value)
{
  guint32 bits;

  memcpy (&bits, &value, 4);
  set_word (u, path, index, bits);
}

static void
resize (MshedUtf   *u,
        const char *spec,
        gssize      extra)
{
  g_autofree char *path = resolve (spec);
  g_autoptr(GByteArray) a = t_copy (u, path, extra);

  t_set (u, path, a->data, a->len);
}

static void
remove_node (MshedUtf   *u,
             const char *spec)
{
  g_autofree char *path = resolve (spec);

  t_remove (u, path);
}

static void
append (MshedUtf   *u,
        const char *path,
        const void *data,
        gsize       len)
{
  g_autoptr(GByteArray) a = t_copy (u, path, 0);

  g_byte_array_append (a, data, (guint) len);
  t_set (u, path, a->data, a->len);
}

/* Plants ---------------------------------------------------------------------------------- */

static void plant_cmpnd_missing (MshedUtf *u) { remove_node (u, "\\Cmpnd"); }
static void plant_part_object (MshedUtf *u) { remove_node (u, "\\Cmpnd\\@PL\\Object name"); }
static void plant_part_file (MshedUtf *u) { remove_node (u, "\\Cmpnd\\@PL\\File name"); }
static void
plant_part_bone (MshedUtf *u)
{
  g_autofree char *path = resolve ("\\Cmpnd\\@PL\\File name");

  t_set (u, path, "Nothing.3db", 12);
}
static void plant_part_index (MshedUtf *u) { set_word (u, "\\Cmpnd\\@PL\\Index", 0, 77); }
static void plant_part_index_missing (MshedUtf *u) { remove_node (u, "\\Cmpnd\\@PL\\Index"); }
static void
plant_part_duplicate (MshedUtf *u)
{
  g_autofree char *path = resolve ("\\Cmpnd\\@PL\\File name");
  g_autoptr(GByteArray) root = t_copy (u, "\\Cmpnd\\Root\\File name", 0);

  t_set (u, path, root->data, root->len);
}
static void
plant_cons_kind (MshedUtf *u)
{
  guint8 zero[176] = { 0 };

  t_file (u, t_lookup (u, "\\Cmpnd\\Cons"), "Hinge", zero, sizeof zero);
}
static void plant_cons_size (MshedUtf *u) { resize (u, LOOSE, 10); }
static void
plant_fractions (MshedUtf *u)
{
  static const float three[] = { 1.0f, 0.8f, 0.6f };
  guint8 b[12];

  for (guint i = 0; i < 3; i++)
    mshed_write_f32 (b + 4 * i, three[i]);
  t_set (u, "\\MultiLevel\\Fractions", b, sizeof b);
}
static void plant_fractions_missing (MshedUtf *u) { remove_node (u, "\\MultiLevel\\Fractions"); }
static void plant_mesh_geometry (MshedUtf *u) { remove_node (u, "\\MultiLevel\\Mesh1\\Geometry"); }
static void
plant_mesh_face_groups (MshedUtf *u)
{
  remove_node (u, "\\MultiLevel\\Mesh1\\Face_groups");
}
static void plant_group_material (MshedUtf *u) { remove_node (u, GRP1 "\\Material_name"); }
static void plant_group_indices (MshedUtf *u) { remove_node (u, GRP0 "\\Tristrip_indices"); }
static void
plant_geometry_missing (MshedUtf *u)
{
  remove_node (u, "\\MultiLevel\\Mesh2\\Geometry\\Vertex_normals");
}
static void plant_uv_pair (MshedUtf *u) { remove_node (u, GEO0 "\\UV1"); }
static void plant_array_size (MshedUtf *u) { resize (u, GEO0 "\\Points", 4); }
static void plant_bone_to_root (MshedUtf *u) { resize (u, "\\@B0\\Bone to root", -4); }
static void plant_bone_to_root_missing (MshedUtf *u) { remove_node (u, "\\@B0\\Bone to root"); }
static void plant_point_index (MshedUtf *u) { set_word (u, GEO0 "\\Point_indices", 5, 100000); }
static void plant_uv_index (MshedUtf *u) { set_word (u, GEO0 "\\UV0_indices", 3, 100000); }
static void
plant_face_index (MshedUtf *u)
{
  g_autoptr(GByteArray) a = t_copy (u, GRP0 "\\Tristrip_indices", 0);

  mshed_write_u16 (a->data + 8, 0xFFFF);
  t_set (u, GRP0 "\\Tristrip_indices", a->data, a->len);
}
static void plant_chain_range (MshedUtf *u) { set_word (u, GEO0 "\\Point_bone_count", 2, 100000); }
static void plant_bone_id (MshedUtf *u) { set_word (u, GEO0 "\\Bone_id_chain", 6, 500); }
static void plant_uv_bone_id (MshedUtf *u) { set_word (u, GEO0 "\\UV_bone_id", 0, 99); }
static void plant_uv_vertex (MshedUtf *u) { set_word (u, GEO0 "\\UV_vertex_id", 1, 0xFFFFFF); }
static void plant_uv_default (MshedUtf *u) { resize (u, GEO0 "\\UV_default_list", -8); }
static void plant_point_arrays (MshedUtf *u) { resize (u, GEO0 "\\Vertex_normals", -12); }
static void plant_chain_lengths (MshedUtf *u) { resize (u, GEO0 "\\Bone_weight_chain", -4); }
static void plant_element_arrays (MshedUtf *u) { resize (u, GEO0 "\\UV0_indices", -4); }
static void plant_edge_count (MshedUtf *u) { resize (u, GRP0 "\\Edge_angles", -4); }

static void
plant_face_list (MshedUtf *u)
{
  MshedUtfNode *strip = t_lookup (u, GRP0 "\\Tristrip_indices");
  gsize size, n;
  const guint8 *data = mshed_utf_node_peek_data (strip, &size);
  g_autofree guint16 *tris = g_new (guint16, 3 * (size / 2));
  g_autofree guint8 *list = NULL;

  n = mshed_dfm_strip_unroll (data, size / 2, tris);
  list = g_malloc (6 * n);
  for (gsize k = 0; k < 3 * n; k++)
    mshed_write_u16 (list + 2 * k, tris[k]);
  t_set (u, GRP0 "\\Tristrip_indices", list, 6 * n);
  g_free (mshed_utf_rename (u, strip, "Face_indices"));
}
static void
plant_group_both (MshedUtf *u)
{
  static const guint16 tri[] = { 0, 1, 2 };

  t_u16s (u, t_lookup (u, GRP0), "Face_indices", tri, 3);
}
static void
plant_string_nul (MshedUtf *u)
{
  gsize size;
  const guint8 *data = mshed_utf_node_peek_data (t_lookup (u, GRP0 "\\Material_name"), &size);
  g_autofree guint8 *copy = g_memdup2 (data, size - 1);

  t_set (u, GRP0 "\\Material_name", copy, size - 1);
}
static void
plant_name_residue (MshedUtf *u)
{
  g_autoptr(GByteArray) a = t_copy (u, LOOSE, 0);

  a->data[176 + 64 + 40] = 'Z';
  t_set (u, LOOSE, a->data, a->len);
}
static void plant_exporter (MshedUtf *u) { remove_node (u, "\\Exporter Version"); }
static void plant_scale (MshedUtf *u) { remove_node (u, "\\Cmpnd\\Scale"); }
static void plant_lod_bits (MshedUtf *u) { remove_node (u, "\\@B0\\Lod Bits"); }
static void plant_group_count (MshedUtf *u) { set_word (u, FG0 "\\Count", 0, 5); }
static void plant_group_count_missing (MshedUtf *u) { remove_node (u, FG0 "\\Count"); }
static void plant_uv_vertex_count (MshedUtf *u) { set_word (u, GEO0 "\\UV_vertex_count", 0, 1); }
static void plant_influences (MshedUtf *u) { set_word (u, GEO0 "\\Point_bone_count", 0, 5); }
static void plant_zero_influences (MshedUtf *u) { set_word (u, GEO0 "\\Point_bone_count", 1, 0); }
static void plant_weight_sum (MshedUtf *u) { set_float (u, GEO0 "\\Bone_weight_chain", 0, 0.5f); }
static void
plant_unreferenced (MshedUtf *u)
{
  gsize chain;
  guint8 zero[12] = { 0 }, w[4];

  mshed_utf_node_peek_data (t_lookup (u, GEO0 "\\Bone_id_chain"), &chain);
  append (u, GEO0 "\\Points", zero, 12);
  append (u, GEO0 "\\Vertex_normals", zero, 12);
  mshed_write_u32 (w, (guint32) (chain / 4));
  append (u, GEO0 "\\Point_bone_first", w, 4);
  mshed_write_u32 (w, 1);
  append (u, GEO0 "\\Point_bone_count", w, 4);
  append (u, GEO0 "\\Bone_id_chain", zero, 4);
  mshed_write_f32 (w, 1.0f);
  append (u, GEO0 "\\Bone_weight_chain", w, 4);
}
static void plant_detached (MshedUtf *u) { remove_node (u, "\\Cmpnd\\@PL"); }
static void
plant_cons_unknown (MshedUtf *u)
{
  g_autoptr(GByteArray) a = t_copy (u, LOOSE, 0);

  memset (a->data, 0, 64);
  memcpy (a->data, "Nobody", 6);
  t_set (u, LOOSE, a->data, a->len);
}
static void
plant_unknown_node (MshedUtf *u)
{
  t_text (u, t_lookup (u, "\\MultiLevel\\Mesh0"), "Extra", "x");
}
static void plant_skeleton (MshedUtf *u) { remove_node (u, "\\Skeleton"); }
static void plant_multilevel (MshedUtf *u) { remove_node (u, "\\MultiLevel"); }
static void plant_uv_bone_block (MshedUtf *u) { remove_node (u, GEO0 "\\Max_dv"); }
static void
plant_cons_hierarchy (MshedUtf *u)
{
  g_autoptr(GByteArray) a = t_copy (u, LOOSE, 0);

  append (u, LOOSE, a->data, 176);
}
/* Head (the root) hung below one of its own descendants */
static void
plant_cons_cycle (MshedUtf *u)
{
  g_autoptr(GByteArray) a = t_copy (u, LOOSE, 0);
  guint8 rec[176];

  memcpy (rec, a->data, 176);
  memcpy (rec, rec + 64, 64);                  /* parent: record 0's child */
  memset (rec + 64, 0, 64);
  memcpy (rec + 64, "Head", 4);
  append (u, LOOSE, rec, 176);
}
static void plant_material (MshedUtf *u) { t_set (u, GRP0 "\\Material_name", "nothing", 8); }

/* The table ------------------------------------------------------------------------------- */

typedef struct {
  const char   *name;
  void        (*plant) (MshedUtf *utf);
  MshedCheck    check;
  MshedSeverity severity;
  const char   *path;       /* of the finding, with tokens */
  MshedDfmTable table;
  gint64        record;
  const char   *field;
  guint64       rel;        /* offset inside the payload; 0 for a directory's entry */
  const char   *says;       /* (optional) words the message holds */
} Defect;

#define E MSHED_SEVERITY_ERROR
#define W MSHED_SEVERITY_WARNING
#define I MSHED_SEVERITY_INFO
#define C(x) MSHED_CHECK_DFM_##x
#define T(x) MSHED_DFM_TABLE_##x
#define NONE MSHED_DFM_TABLE_NONE

static const Defect defects[] = {
  /* docs/dfm.md §14, rejected */
  { "cmpnd-missing", plant_cmpnd_missing, C (CMPND_MISSING), E, "\\", NONE, -1, "Cmpnd", 0 },
  { "part-object-name", plant_part_object, C (PART_MISSING), E, "\\Cmpnd\\@PL", NONE, -1,
    "Object name", 0 },
  { "part-file-name", plant_part_file, C (PART_MISSING), E, "\\Cmpnd\\@PL", NONE, -1,
    "File name", 0 },
  { "part-bone", plant_part_bone, C (PART_BONE), E, "\\Cmpnd\\@PL\\File name", T (FILE_NAME),
    -1, NULL, 0 },
  { "part-index", plant_part_index, C (PART_INDEX), E, "\\Cmpnd\\@PL\\Index", T (PART_INDEX), 0,
    "index", 0 },
  { "part-index-missing", plant_part_index_missing, C (PART_INDEX), E, "\\Cmpnd\\@PL", NONE, -1,
    "Index", 0 },
  { "part-duplicate", plant_part_duplicate, C (PART_DUPLICATE), E, "\\Cmpnd\\@PL\\File name",
    T (FILE_NAME), -1, NULL, 0 },
  { "cons-kind", plant_cons_kind, C (CONS_KIND), E, "\\Cmpnd\\Cons\\Hinge", NONE, -1, NULL, 0 },
  { "cons-size", plant_cons_size, C (CONS_SIZE), E, LOOSE, T (CONS_LOOSE), RECORD_END, NULL,
    REL_RECORD },
  { "fractions", plant_fractions, C (FRACTIONS), E, "\\MultiLevel\\Fractions", T (FRACTIONS), -1,
    "fraction", 0 },
  { "fractions-missing", plant_fractions_missing, C (FRACTIONS), E, "\\MultiLevel", NONE, -1,
    "Fractions", 0 },
  { "mesh-geometry", plant_mesh_geometry, C (MESH_MISSING), E, "\\MultiLevel\\Mesh1", NONE, -1,
    "Geometry", 0 },
  { "mesh-face-groups", plant_mesh_face_groups, C (MESH_MISSING), E, "\\MultiLevel\\Mesh1", NONE,
    -1, "Face_groups", 0 },
  { "group-material", plant_group_material, C (GROUP_MATERIAL), E, GRP1, NONE, -1,
    "Material_name", 0 },
  { "group-indices", plant_group_indices, C (GROUP_INDICES), E, GRP0, NONE, -1,
    "Tristrip_indices", 0 },
  { "geometry-missing", plant_geometry_missing, C (GEOMETRY_MISSING), E,
    "\\MultiLevel\\Mesh2\\Geometry", NONE, -1, "Vertex_normals", 0 },
  { "uv-pair", plant_uv_pair, C (UV_PAIR), E, GEO0, NONE, -1, "UV1", 0 },
  { "array-size", plant_array_size, C (ARRAY_SIZE), E, GEO0 "\\Points", T (POINTS), RECORD_END,
    NULL, REL_RECORD },
  { "bone-to-root", plant_bone_to_root, C (BONE_TO_ROOT), E, "\\@B0\\Bone to root",
    T (BONE_TO_ROOT), -1, NULL, 0 },
  { "bone-to-root-missing", plant_bone_to_root_missing, C (BONE_TO_ROOT), E, "\\@B0", NONE, -1,
    "Bone to root", 0 },
  { "point-index-range", plant_point_index, C (POINT_INDEX_RANGE), E, GEO0 "\\Point_indices",
    T (POINT_INDICES), 5, "point", 20 },
  { "uv-index-range", plant_uv_index, C (UV_INDEX_RANGE), E, GEO0 "\\UV0_indices",
    T (UV0_INDICES), 3, "uv", 12 },
  { "face-index-range", plant_face_index, C (FACE_INDEX_RANGE), E, GRP0 "\\Tristrip_indices",
    T (TRISTRIP), 4, "index", 8 },
  { "chain-range", plant_chain_range, C (CHAIN_RANGE), E, GEO0 "\\Point_bone_first",
    T (POINT_BONE_FIRST), 2, "first", 8 },
  { "bone-id-range", plant_bone_id, C (BONE_ID_RANGE), E, GEO0 "\\Bone_id_chain",
    T (BONE_ID_CHAIN), 6, "bone", 24 },
  { "uv-bone-range", plant_uv_bone_id, C (UV_BONE_RANGE), E, GEO0 "\\UV_bone_id",
    T (UV_BONE_ID), 0, "uv_bone_id", 0 },
  { "uv-vertex-range", plant_uv_vertex, C (UV_VERTEX_RANGE), E, GEO0 "\\UV_vertex_id",
    T (UV_VERTEX_ID), 1, "uv", 4 },
  { "uv-default-list", plant_uv_default, C (UV_DEFAULT_LIST), E, GEO0 "\\UV_default_list",
    T (UV_DEFAULT_LIST), -1, NULL, 0 },
  { "point-arrays", plant_point_arrays, C (POINT_ARRAYS), E, GEO0 "\\Vertex_normals",
    T (VERTEX_NORMALS), -1, NULL, 0 },
  { "chain-lengths", plant_chain_lengths, C (CHAIN_LENGTHS), E, GEO0 "\\Bone_weight_chain",
    T (BONE_WEIGHT_CHAIN), -1, NULL, 0 },
  { "element-arrays", plant_element_arrays, C (ELEMENT_ARRAYS), E, GEO0 "\\UV0_indices",
    T (UV0_INDICES), -1, NULL, 0 },
  { "edge-count", plant_edge_count, C (EDGE_COUNT), E, GRP0 "\\Edge_angles", T (EDGE_ANGLES), -1,
    NULL, 0 },

  /* docs/dfm.md §14, tolerated */
  { "face-list", plant_face_list, C (FACE_LIST), W, GRP0 "\\Face_indices", T (FACE_INDICES), -1,
    NULL, 0 },
  { "group-both", plant_group_both, C (GROUP_BOTH), W, GRP0 "\\Face_indices", T (FACE_INDICES),
    -1, NULL, 0 },
  { "string-nul", plant_string_nul, C (STRING_NUL), W, GRP0 "\\Material_name",
    T (MATERIAL_NAME), -1, NULL, REL_SIZE },
  { "name-residue", plant_name_residue, C (NAME_RESIDUE), I, LOOSE, T (CONS_LOOSE), 1, "child",
    176 + 64 + 40 },
  { "exporter-missing", plant_exporter, C (EXPORTER_MISSING), W, "\\", NONE, -1,
    "Exporter Version", 0 },
  { "scale-missing", plant_scale, C (SCALE_MISSING), W, "\\Cmpnd", NONE, -1, "Scale", 0 },
  { "lod-bits-missing", plant_lod_bits, C (LOD_BITS_MISSING), W, "\\@B0", NONE, -1, "Lod Bits",
    0 },
  { "group-count", plant_group_count, C (GROUP_COUNT), W, FG0 "\\Count", T (GROUP_COUNT), 0,
    "count", 0 },
  { "group-count-missing", plant_group_count_missing, C (GROUP_COUNT), W, FG0, NONE, -1, "Count",
    0 },
  { "uv-vertex-count", plant_uv_vertex_count, C (UV_VERTEX_COUNT), W, GEO0 "\\UV_vertex_count",
    T (UV_VERTEX_COUNT), 0, "uv_vertex_count", 0 },
  { "influences", plant_influences, C (INFLUENCES), W, GEO0 "\\Point_bone_count",
    T (POINT_BONE_COUNT), 0, "count", 0 },
  { "zero-influences", plant_zero_influences, C (ZERO_INFLUENCES), W, GEO0 "\\Point_bone_count",
    T (POINT_BONE_COUNT), 1, "count", 4 },
  { "weight-sum", plant_weight_sum, C (WEIGHT_SUM), W, GEO0 "\\Bone_weight_chain",
    T (BONE_WEIGHT_CHAIN), 0, "weight", 0 },
  { "unreferenced-points", plant_unreferenced, C (UNREFERENCED_POINTS), I, GEO0 "\\Points",
    T (POINTS), RECORD_LAST, NULL, REL_RECORD },
  { "detached-bone", plant_detached, C (DETACHED_BONE), I, "\\@BL", NONE, -1, NULL, 0 },
  { "cons-unknown-part", plant_cons_unknown, C (CONS_UNKNOWN_PART), W, LOOSE, T (CONS_LOOSE), 0,
    "parent", 0 },
  { "unknown-node", plant_unknown_node, C (UNKNOWN_NODE), W, "\\MultiLevel\\Mesh0\\Extra", NONE,
    -1, NULL, 0 },

  /* mshed's own checks */
  { "skeleton-missing", plant_skeleton, C (SKELETON_MISSING), W, "\\", NONE, -1, "Skeleton", 0 },
  { "multilevel-missing", plant_multilevel, C (MULTILEVEL_MISSING), W, "\\", NONE, -1,
    "MultiLevel", 0 },
  { "uv-bone-block", plant_uv_bone_block, C (UV_BONE_BLOCK), W, GEO0, NONE, -1, "Max_dv", 0 },
  { "cons-hierarchy", plant_cons_hierarchy, C (CONS_HIERARCHY), W, LOOSE, T (CONS_LOOSE),
    RECORD_LAST, "parent", REL_RECORD, "already has a parent" },
  { "cons-cycle", plant_cons_cycle, C (CONS_HIERARCHY), W, LOOSE, T (CONS_LOOSE), RECORD_LAST,
    "parent", REL_RECORD, "would close a cycle" },
  { "material-unresolved", plant_material, C (MATERIAL_UNRESOLVED), I, GRP0 "\\Material_name",
    T (MATERIAL_NAME), -1, NULL, 0 },
};

#undef E
#undef W
#undef I
#undef C
#undef T

static GBytes *
planted (const Defect *t)
{
  g_autoptr(GBytes) base = base_bytes ();
  g_autoptr(MshedUtf) utf = parse (base);

  t->plant (utf);
  return mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
}

static const MshedDiagnostic *
find (const MshedDiagnostics *diags,
      MshedCheck              check,
      const char             *path)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);

      if (d->check == check && g_strcmp0 (d->path, path) == 0)
        return d;
    }
  return NULL;
}

static void
dump (const MshedDiagnostics *diags)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      g_autofree char *line = mshed_diagnostic_format (mshed_diagnostics_get (diags, i));

      g_test_message ("%s (%s)", line, mshed_diagnostics_get (diags, i)->path);
    }
}

static void
test_defect (gconstpointer data)
{
  const Defect *t = data;
  g_autoptr(GBytes) bytes = planted (t);
  g_autofree char *path = resolve (t->path);
  g_autoptr(MshedUtf) file = parse (bytes);
  MshedUtfNode *node = t_lookup (file, path);
  const MshedUtfHeader *h = mshed_utf_get_header (file);
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (t->table);
  gint64 record = t->record;
  guint64 offset;
  MshedUtfEntry e;
  guint32 slot;
  gsize size;

  /* the expected offset, from the planted file's own entries */
  g_assert_true (mshed_utf_node_get_source_entry (file, node, &slot, &e));
  mshed_utf_node_peek_data (node, &size);
  if (record == RECORD_END)
    record = (gint64) (size / info->stride);
  else if (record == RECORD_LAST)
    record = (gint64) (size / info->stride) - 1;
  if (mshed_utf_node_is_directory (node))
    offset = (guint64) h->tree_offset + slot;
  else
    offset = (guint64) h->data_offset + e.child_offset +
             (t->rel == REL_RECORD ? (guint64) record * info->stride
              : t->rel == REL_SIZE ? size : t->rel);

  for (guint m = 0; m < 2; m++)
    {
      MshedMode mode = m == 0 ? MSHED_MODE_STRICT : MSHED_MODE_TOLERANT;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDfm) dfm = mshed_dfm_new_from_bytes (bytes, mode, diags, &error);
      const MshedDiagnostic *d;

      dump (diags);
      if (mode == MSHED_MODE_STRICT && t->severity == MSHED_SEVERITY_ERROR)
        {
          g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
          g_assert_null (dfm);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_nonnull (dfm);
        }
      d = find (diags, t->check, path);
      g_assert_nonnull (d);
      /* one classification: the mode changes no severity */
      g_assert_cmpint (d->severity, ==, t->severity);
      g_assert_cmpint (d->table, ==, t->table == MSHED_DFM_TABLE_NONE
                                       ? MSHED_TABLE_NONE : MSHED_DFM_TABLE_ID (t->table));
      g_assert_cmpint (d->record, ==, record);
      g_assert_cmpstr (d->field, ==, t->field);
      g_assert_cmpuint (d->offset, ==, offset);
      g_assert_true (g_utf8_validate (d->message, -1, NULL));
      g_assert_nonnull (strstr (d->message, path));
      if (t->says)
        g_assert_nonnull (strstr (d->message, t->says));
      if (t->severity == MSHED_SEVERITY_ERROR)
        g_assert_true ((strstr (d->message, "ignored") != NULL) == (mode == MSHED_MODE_TOLERANT));
    }
}

/* the base model carries only the note about its detached Neck */
static void
test_base (void)
{
  g_autoptr(GBytes) bytes = base_bytes ();
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDfm) dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, &error);
  MshedDfmLevel level;

  dump (diags);
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), >=, 1);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    g_assert_cmpint (mshed_diagnostics_get (diags, i)->check, ==, MSHED_CHECK_DFM_DETACHED_BONE);
  /* the plants need these */
  g_assert_cmpuint (mshed_dfm_get_n_levels (dfm), ==, 4);
  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  g_assert_cmpuint (level.n_groups, ==, 2);
  g_assert_true (level.has_uv_bone && level.has_uv1);
  g_assert_cmpuint (level.n_elements, <, 65535);
  g_assert_cmpuint (g_bytes_get_size (mshed_utf_node_get_data (t_lookup (mshed_dfm_get_utf (dfm),
                                                                         LOOSE))), >=, 2 * 176);
}

/* the exact messages of one rule, strict and tolerant */
static void
test_messages (void)
{
  g_autoptr(GBytes) bytes = planted (&defects[20]);    /* point-index-range */
  g_autoptr(MshedDiagnostics) strict = mshed_diagnostics_new ();
  g_autoptr(MshedDiagnostics) tolerant = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDfm) a = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, strict, &error);
  g_autofree char *refusal = NULL;
  g_autoptr(MshedDfm) b = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, tolerant, NULL);
  MshedDfmLevel level;
  g_autofree char *want = NULL;
  const MshedDiagnostic *d;

  g_assert_cmpstr (defects[20].name, ==, "point-index-range");
  g_assert_null (a);
  g_assert_nonnull (b);
  mshed_dfm_get_level (b, 0, &level);
  want = g_strdup_printf ("\\MultiLevel\\Mesh0\\Geometry\\Point_indices, entry 5, field point: "
                          "100000 is past the %u entries of Points", level.n_points);
  d = mshed_diagnostics_find (strict, MSHED_CHECK_DFM_POINT_INDEX_RANGE);
  g_assert_cmpstr (d->message, ==, want);
  refusal = g_strdup_printf ("The deformable model fails strict validation with 1 error; the "
                             "first: %s", want);
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, refusal);
  d = mshed_diagnostics_find (tolerant, MSHED_CHECK_DFM_POINT_INDEX_RANGE);
  g_assert_true (g_str_has_prefix (d->message, want));
  g_assert_cmpstr (d->message + strlen (want), ==, "; ignored: the element is not drawn");
  /* the element that uses the bad point cannot be formed; the others can */
  {
    MshedDfmElement e;

    g_assert_false (mshed_dfm_get_element (b, 0, 5, &e));
    g_assert_true (mshed_dfm_get_element (b, 0, 4, &e));
  }
}

/* thousands of bad entries: REPORT_LIMIT listed, one summary, every one counted */
static void
test_report_limit (void)
{
  g_autoptr(GBytes) base = base_bytes ();
  g_autoptr(MshedUtf) utf = parse (base);
  g_autoptr(GByteArray) a = t_copy (utf, GEO0 "\\Point_indices", 0);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedDfm) dfm = NULL;
  guint n = a->len / 4, listed = 0;

  g_byte_array_set_size (a, 4 * 4 * n);                /* 4n entries */
  for (guint i = 0; i < 4 * n; i++)
    mshed_write_u32 (a->data + 4 * i, 0xFFFFFFFFu);
  t_set (utf, GEO0 "\\Point_indices", a->data, a->len);
  dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, diags, NULL);
  dump (diags);
  g_assert_cmpuint (4 * n, >, 200);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    listed += mshed_diagnostics_get (diags, i)->check == MSHED_CHECK_DFM_POINT_INDEX_RANGE;
  g_assert_cmpuint (listed, ==, 200 + 1);
  /* Point_indices now has 4n entries: also UV0/UV1_indices disagree (2 more errors) */
  g_assert_cmpuint (diags->n_errors, ==, 4 * n + 2);
}

/* a tree made in memory has no source: offsets are inside the payload */
static void
test_in_memory_offsets (void)
{
  MshedDfmGenParams p;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedDfm) dfm = NULL;
  const MshedDiagnostic *d;

  mshed_dfm_gen_params_init (&p, MSHED_DFM_GEN_HAND, 3);
  utf = mshed_dfm_generate (&p);
  set_word (utf, GEO0 "\\Bone_id_chain", 9, 1000);
  dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, diags, NULL);
  d = mshed_diagnostics_find (diags, MSHED_CHECK_DFM_BONE_ID_RANGE);
  g_assert_nonnull (d);
  g_assert_cmpint (d->record, ==, 9);
  g_assert_cmpuint (d->offset, ==, 36);
  g_assert_false (mshed_dfm_validate (dfm, MSHED_MODE_STRICT, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/dfm-validate/base", test_base);
  for (guint i = 0; i < G_N_ELEMENTS (defects); i++)
    {
      g_autofree char *path = g_strdup_printf ("/model/dfm-validate/%s", defects[i].name);

      g_test_add_data_func (path, &defects[i], test_defect);
    }
  g_test_add_func ("/model/dfm-validate/messages", test_messages);
  g_test_add_func ("/model/dfm-validate/report-limit", test_report_limit);
  g_test_add_func ("/model/dfm-validate/in-memory-offsets", test_in_memory_offsets);
  return g_test_run ();
}
