/* mshed-dfm-schema.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-dfm-schema"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <pthread.h>
#include <string.h>

#include "mshed-dfm-private.h"
#include "mshed-dfm-schema.h"

#define U32  MSHED_FIELD_U32
#define I32  MSHED_FIELD_I32
#define F32  MSHED_FIELD_F32
#define D    MSHED_FIELD_FLAG_DERIVED
#define H    MSHED_FIELD_FLAG_HEX
#define R(t) MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_##t)
#define NO   MSHED_TABLE_NONE

static const MshedField fraction_fields[] = {
  { "fraction", 0, F32, 0, NO, 0, N_("Share of the detail range at which this level takes over") },
};
static const MshedField group_count_fields[] = {
  { "count", 0, I32, D, NO, 0, N_("Number of Group directories (derived)") },
};
static const MshedField strip_fields[] = {
  { "index", 0, MSHED_FIELD_U16, 0, R (POINT_INDICES), 0, N_("Element of the mesh") },
};
/* one unrolled triangle: its corners in drawing order (docs/dfm.md §5.1) */
static const MshedField triangle_fields[] = {
  { "i0", 0, MSHED_FIELD_U16, 0, R (POINT_INDICES), 0, N_("First corner: element of the mesh") },
  { "i1", 2, MSHED_FIELD_U16, 0, R (POINT_INDICES), 0, N_("Second corner: element of the mesh") },
  { "i2", 4, MSHED_FIELD_U16, 0, R (POINT_INDICES), 0, N_("Third corner: element of the mesh") },
};
static const MshedField edge_fields[] = {
  { "a", 0, MSHED_FIELD_U16, 0, R (POINTS), 0, N_("First point of the edge") },
  { "b", 2, MSHED_FIELD_U16, 0, R (POINTS), 0, N_("Second point of the edge") },
};
static const MshedField angle_fields[] = {
  { "angle", 0, F32, 0, NO, 0, N_("Edge angle in radians") },
};
static const MshedField point_index_fields[] = {
  { "point", 0, U32, 0, R (POINTS), 0, N_("Point (position, normal and skin) of the element") },
};
static const MshedField uv0_index_fields[] = {
  { "uv", 0, U32, 0, R (UV0), 0, N_("UV0 coordinate of the element") },
};
static const MshedField uv1_index_fields[] = {
  { "uv", 0, U32, 0, R (UV1), 0, N_("UV1 coordinate of the element") },
};
static const MshedField xyz_fields[] = {
  { "x", 0, F32, 0, NO, 0, N_("x") },
  { "y", 4, F32, 0, NO, 0, N_("y") },
  { "z", 8, F32, 0, NO, 0, N_("z") },
};
static const MshedField first_fields[] = {
  { "first", 0, U32, 0, R (BONE_ID_CHAIN), 0, N_("First influence in the bone chains") },
};
static const MshedField count_fields[] = {
  { "count", 0, U32, 0, NO, 0, N_("Number of influences") },
};
static const MshedField bone_id_fields[] = {
  { "bone", 0, U32, 0, R (BONE_TO_ROOT), 0, N_("Bone (position in the bone table)") },
};
static const MshedField weight_fields[] = {
  { "weight", 0, F32, 0, NO, 0, N_("Weight of the influence") },
};
static const MshedField normal_fields[] = {
  { "nx", 0, F32, 0, NO, 0, N_("Normal x") },
  { "ny", 4, F32, 0, NO, 0, N_("Normal y") },
  { "nz", 8, F32, 0, NO, 0, N_("Normal z") },
};
static const MshedField uv_fields[] = {
  { "u", 0, F32, 0, NO, 0, N_("Texture u") },
  { "v", 4, F32, 0, NO, 0, N_("Texture v") },
};
static const MshedField uv_bone_id_fields[] = {
  { "uv_bone_id", 0, U32, 0, R (BONE_TO_ROOT), 0, N_("Bone that drives the UV patch") },
};
static const MshedField uv_vertex_count_fields[] = {
  { "uv_vertex_count", 0, U32, D, NO, 0, N_("Number of UV_vertex_id entries (derived)") },
};
static const MshedField uv_plane_fields[] = {
  { "uv_plane_distance", 0, F32, MSHED_FIELD_FLAG_UNKNOWN, NO, 0,
    N_("UV plane distance (use unknown)") },
};
static const MshedField x_to_u_fields[] = {
  { "bone_x_to_u_scale", 0, F32, 0, NO, 0, N_("Bone x translation to u delta") },
};
static const MshedField y_to_v_fields[] = {
  { "bone_y_to_v_scale", 0, F32, 0, NO, 0, N_("Bone y translation to v delta") },
};
static const MshedField min_du_fields[] = {
  { "min_du", 0, F32, 0, NO, 0, N_("Smallest u delta") },
};
static const MshedField max_du_fields[] = {
  { "max_du", 0, F32, 0, NO, 0, N_("Largest u delta") },
};
static const MshedField min_dv_fields[] = {
  { "min_dv", 0, F32, 0, NO, 0, N_("Smallest v delta") },
};
static const MshedField max_dv_fields[] = {
  { "max_dv", 0, F32, 0, NO, 0, N_("Largest v delta") },
};
static const MshedField uv_vertex_id_fields[] = {
  { "uv", 0, U32, 0, R (UV0), 0, N_("UV0 coordinate the bone moves") },
};
static const MshedField scale_fields[] = {
  { "scale", 0, F32, 0, NO, 0, N_("Scale of the compound") },
};
static const MshedField part_index_fields[] = {
  { "index", 0, I32, D, R (BONE_TO_ROOT), 0, N_("Bone position of the part (derived)") },
};

/* rows of a 3×3 rotation at @off (docs/dfm.md §10.2: the stored triples are rows) */
#define ROT(prefix, off) \
  { prefix "00", off + 0, F32, 0, NO, 0, N_("Rotation row 0, column 0") }, \
  { prefix "01", off + 4, F32, 0, NO, 0, N_("Rotation row 0, column 1") }, \
  { prefix "02", off + 8, F32, 0, NO, 0, N_("Rotation row 0, column 2") }, \
  { prefix "10", off + 12, F32, 0, NO, 0, N_("Rotation row 1, column 0") }, \
  { prefix "11", off + 16, F32, 0, NO, 0, N_("Rotation row 1, column 1") }, \
  { prefix "12", off + 20, F32, 0, NO, 0, N_("Rotation row 1, column 2") }, \
  { prefix "20", off + 24, F32, 0, NO, 0, N_("Rotation row 2, column 0") }, \
  { prefix "21", off + 28, F32, 0, NO, 0, N_("Rotation row 2, column 1") }, \
  { prefix "22", off + 32, F32, 0, NO, 0, N_("Rotation row 2, column 2") }
#define VEC(prefix, off, bx, by, bz) \
  { prefix "X", off + 0, F32, 0, NO, 0, bx }, \
  { prefix "Y", off + 4, F32, 0, NO, 0, by }, \
  { prefix "Z", off + 8, F32, 0, NO, 0, bz }

/* Cons records, docs/dfm.md §9.1: two 64-byte names, then the joint */
static const MshedDfmTextField cons_texts[] = {
  { "parent", 0, 64, N_("Parent object name (NUL-padded)") },
  { "child", 64, 64, N_("Child object name (NUL-padded)") },
};
static const MshedField fix_fields[] = {
  VEC ("pos", 128, N_("Position x"), N_("Position y"), N_("Position z")),
  ROT ("rot", 140),
};
static const MshedField rev_fields[] = {
  VEC ("pos", 128, N_("Position x"), N_("Position y"), N_("Position z")),
  VEC ("off", 140, N_("Offset x"), N_("Offset y"), N_("Offset z")),
  ROT ("rot", 152),
  VEC ("axis", 188, N_("Axis x"), N_("Axis y"), N_("Axis z")),
  { "min", 200, F32, 0, NO, 0, N_("Lower limit") },
  { "max", 204, F32, 0, NO, 0, N_("Upper limit") },
};
static const MshedField cyl_fields[] = {
  VEC ("pos", 128, N_("Position x"), N_("Position y"), N_("Position z")),
  VEC ("off", 140, N_("Offset x"), N_("Offset y"), N_("Offset z")),
  ROT ("rot", 152),
  VEC ("axis", 188, N_("Axis x"), N_("Axis y"), N_("Axis z")),
  { "minTrans", 200, F32, 0, NO, 0, N_("Lower travel limit") },
  { "maxTrans", 204, F32, 0, NO, 0, N_("Upper travel limit") },
  { "minRot", 208, F32, 0, NO, 0, N_("Lower rotation limit") },
  { "maxRot", 212, F32, 0, NO, 0, N_("Upper rotation limit") },
};
static const MshedField sphere_fields[] = {
  VEC ("parent", 128, N_("Joint position in the parent frame, x"),
       N_("Joint position in the parent frame, y"), N_("Joint position in the parent frame, z")),
  VEC ("child", 140, N_("Contact point in the child frame, x"),
       N_("Contact point in the child frame, y"), N_("Contact point in the child frame, z")),
  ROT ("rot", 152),
  { "minX", 188, F32, 0, NO, 0, N_("Lower rotation limit about x") },
  { "maxX", 192, F32, 0, NO, 0, N_("Upper rotation limit about x") },
  { "minY", 196, F32, 0, NO, 0, N_("Lower rotation limit about y") },
  { "maxY", 200, F32, 0, NO, 0, N_("Upper rotation limit about y") },
  { "minZ", 204, F32, 0, NO, 0, N_("Lower rotation limit about z") },
  { "maxZ", 208, F32, 0, NO, 0, N_("Upper rotation limit about z") },
};
static const MshedField bone_to_root_fields[] = {
  ROT ("r", 0),
  VEC ("t", 36, N_("Translation x"), N_("Translation y"), N_("Translation z")),
};
static const MshedField lod_bits_fields[] = {
  { "bits", 0, MSHED_FIELD_U8, H, NO, 0, N_("One bit per level, bit 0 = Mesh0") },
};
static const MshedField orientation_fields[] = {
  ROT ("r", 0),
};
static const MshedField min_fields[] = {
  { "min", 0, F32, 0, NO, 0, N_("Lower limit in radians") },
};
static const MshedField max_fields[] = {
  { "max", 0, F32, 0, NO, 0, N_("Upper limit in radians") },
};
static const MshedField material_count_fields[] = {
  { "count", 0, I32, D, NO, 0, N_("Number of material directories (derived)") },
};
static const MshedField dc_fields[] = {
  { "r", 0, F32, 0, NO, 0, N_("Diffuse red") },
  { "g", 4, F32, 0, NO, 0, N_("Diffuse green") },
  { "b", 8, F32, 0, NO, 0, N_("Diffuse blue") },
};
static const MshedField dt_flags_fields[] = {
  { "flags", 0, U32, H, NO, 0, N_("Texture flags") },
};

#undef ROT
#undef VEC

#define T(id, name, title, node, scope, stride, single, fields) \
  { MSHED_DFM_TABLE_##id, name, title, node, MSHED_DFM_SCOPE_##scope, stride, single, \
    fields, G_N_ELEMENTS (fields), NULL, 0 }
#define C(id, name, title, node, stride, fields) \
  { MSHED_DFM_TABLE_##id, name, title, node, MSHED_DFM_SCOPE_CONS, stride, FALSE, \
    fields, G_N_ELEMENTS (fields), cons_texts, G_N_ELEMENTS (cons_texts) }
#define S(id, name, title, node, scope) \
  { MSHED_DFM_TABLE_##id, name, title, node, MSHED_DFM_SCOPE_##scope, 0, TRUE, NULL, 0, NULL, 0 }

static const MshedDfmTableInfo tables[MSHED_DFM_N_TABLES] = {
  S (EXPORTER_VERSION, "exporter-version", N_("Exporter version"), "Exporter Version", ROOT),
  T (FRACTIONS, "fractions", N_("Level fractions"), "Fractions", MULTILEVEL, 4, FALSE,
     fraction_fields),
  T (GROUP_COUNT, "group-count", N_("Face group count"), "Count", FACE_GROUPS, 4, TRUE,
     group_count_fields),
  S (MATERIAL_NAME, "material-name", N_("Material name"), "Material_name", GROUP),
  T (TRISTRIP, "tristrip", N_("Triangle strip"), "Tristrip_indices", GROUP, 2, FALSE,
     strip_fields),
  T (FACE_INDICES, "face-indices", N_("Triangle list"), "Face_indices", GROUP, 2, FALSE,
     strip_fields),
  T (EDGE_INDICES, "edge-indices", N_("Edges"), "Edge_indices", GROUP, 4, FALSE, edge_fields),
  T (EDGE_ANGLES, "edge-angles", N_("Edge angles"), "Edge_angles", GROUP, 4, FALSE,
     angle_fields),
  T (POINT_INDICES, "point-indices", N_("Element points"), "Point_indices", GEOMETRY, 4, FALSE,
     point_index_fields),
  T (UV0_INDICES, "uv0-indices", N_("Element UV0"), "UV0_indices", GEOMETRY, 4, FALSE,
     uv0_index_fields),
  T (UV1_INDICES, "uv1-indices", N_("Element UV1"), "UV1_indices", GEOMETRY, 4, FALSE,
     uv1_index_fields),
  T (POINTS, "points", N_("Points"), "Points", GEOMETRY, 12, FALSE, xyz_fields),
  T (POINT_BONE_FIRST, "point-bone-first", N_("First influence"), "Point_bone_first", GEOMETRY,
     4, FALSE, first_fields),
  T (POINT_BONE_COUNT, "point-bone-count", N_("Influence count"), "Point_bone_count", GEOMETRY,
     4, FALSE, count_fields),
  T (BONE_ID_CHAIN, "bone-id-chain", N_("Influence bones"), "Bone_id_chain", GEOMETRY, 4, FALSE,
     bone_id_fields),
  T (BONE_WEIGHT_CHAIN, "bone-weight-chain", N_("Influence weights"), "Bone_weight_chain",
     GEOMETRY, 4, FALSE, weight_fields),
  T (VERTEX_NORMALS, "vertex-normals", N_("Normals"), "Vertex_normals", GEOMETRY, 12, FALSE,
     normal_fields),
  T (UV0, "uv0", N_("UV0"), "UV0", GEOMETRY, 8, FALSE, uv_fields),
  T (UV1, "uv1", N_("UV1"), "UV1", GEOMETRY, 8, FALSE, uv_fields),
  T (UV_BONE_ID, "uv-bone-id", N_("UV bone"), "UV_bone_id", GEOMETRY, 4, TRUE,
     uv_bone_id_fields),
  T (UV_VERTEX_COUNT, "uv-vertex-count", N_("UV vertex count"), "UV_vertex_count", GEOMETRY, 4,
     TRUE, uv_vertex_count_fields),
  T (UV_PLANE_DISTANCE, "uv-plane-distance", N_("UV plane distance"), "UV_plane_distance",
     GEOMETRY, 4, TRUE, uv_plane_fields),
  T (BONE_X_TO_U_SCALE, "bone-x-to-u-scale", N_("Bone x to u scale"), "Bone_X_to_U_scale",
     GEOMETRY, 4, TRUE, x_to_u_fields),
  T (BONE_Y_TO_V_SCALE, "bone-y-to-v-scale", N_("Bone y to v scale"), "Bone_Y_to_V_scale",
     GEOMETRY, 4, TRUE, y_to_v_fields),
  T (MIN_DU, "min-du", N_("Smallest u delta"), "Min_du", GEOMETRY, 4, TRUE, min_du_fields),
  T (MAX_DU, "max-du", N_("Largest u delta"), "Max_du", GEOMETRY, 4, TRUE, max_du_fields),
  T (MIN_DV, "min-dv", N_("Smallest v delta"), "Min_dv", GEOMETRY, 4, TRUE, min_dv_fields),
  T (MAX_DV, "max-dv", N_("Largest v delta"), "Max_dv", GEOMETRY, 4, TRUE, max_dv_fields),
  T (UV_VERTEX_ID, "uv-vertex-id", N_("UV bone coordinates"), "UV_vertex_id", GEOMETRY, 4,
     FALSE, uv_vertex_id_fields),
  T (UV_DEFAULT_LIST, "uv-default-list", N_("UV bone defaults"), "UV_default_list", GEOMETRY, 8,
     FALSE, uv_fields),
  S (SKELETON_NAME, "skeleton-name", N_("Skeleton"), "Name", SKELETON),
  T (SCALE, "scale", N_("Compound scale"), "Scale", CMPND, 4, TRUE, scale_fields),
  S (OBJECT_NAME, "object-name", N_("Object name"), "Object name", PART),
  S (FILE_NAME, "file-name", N_("File name"), "File name", PART),
  T (PART_INDEX, "part-index", N_("Part index"), "Index", PART, 4, TRUE, part_index_fields),
  C (CONS_FIX, "cons-fix", N_("Fixed joints"), "Fix", 176, fix_fields),
  C (CONS_REV, "cons-rev", N_("Revolute joints"), "Rev", 208, rev_fields),
  C (CONS_PRIS, "cons-pris", N_("Prismatic joints"), "Pris", 208, rev_fields),
  C (CONS_CYL, "cons-cyl", N_("Cylinder joints"), "Cyl", 216, cyl_fields),
  C (CONS_SPHERE, "cons-sphere", N_("Sphere joints"), "Sphere", 212, sphere_fields),
  C (CONS_LOOSE, "cons-loose", N_("Loose joints"), "Loose", 176, fix_fields),
  T (BONE_TO_ROOT, "bone-to-root", N_("Bone to root"), "Bone to root", BONE, 48, TRUE,
     bone_to_root_fields),
  T (LOD_BITS, "lod-bits", N_("Level bits"), "Lod Bits", BONE, 1, TRUE, lod_bits_fields),
  T (HP_POSITION, "hp-position", N_("Hardpoint position"), "Position", HARDPOINT, 12, TRUE,
     xyz_fields),
  T (HP_ORIENTATION, "hp-orientation", N_("Hardpoint orientation"), "Orientation", HARDPOINT, 36,
     TRUE, orientation_fields),
  T (HP_AXIS, "hp-axis", N_("Hardpoint axis"), "Axis", HARDPOINT, 12, TRUE, xyz_fields),
  T (HP_MIN, "hp-min", N_("Hardpoint lower limit"), "Min", HARDPOINT, 4, TRUE, min_fields),
  T (HP_MAX, "hp-max", N_("Hardpoint upper limit"), "Max", HARDPOINT, 4, TRUE, max_fields),
  T (MATERIAL_COUNT, "material-count", N_("Material count"), "Material count", MATERIAL_LIBRARY,
     4, TRUE, material_count_fields),
  S (MATERIAL_TYPE, "material-type", N_("Material type"), "Type", MATERIAL),
  T (MATERIAL_DC, "material-dc", N_("Diffuse colour"), "Dc", MATERIAL, 12, TRUE, dc_fields),
  S (MATERIAL_DT_NAME, "material-dt-name", N_("Diffuse texture"), "Dt_name", MATERIAL),
  T (MATERIAL_DT_FLAGS, "material-dt-flags", N_("Diffuse texture flags"), "Dt_flags", MATERIAL,
     4, TRUE, dt_flags_fields),
  T (TRIANGLES, "triangles", N_("Triangles"), "Tristrip_indices", GROUP, 6, FALSE,
     triangle_fields),
};

#undef T
#undef C
#undef S

/**
 * mshed_dfm_schema_get_table:
 * @id: a DFM table id (also accepted cast to MshedTableId, as diagnostics carry it)
 *
 * Returns: (transfer none) (nullable): the table, NULL for an id outside the DFM range
 */
const MshedDfmTableInfo *
mshed_dfm_schema_get_table (MshedDfmTable id)
{
  if (id < MSHED_DFM_TABLE_FIRST || id >= MSHED_DFM_TABLE_LAST)
    return NULL;
  return &tables[id - MSHED_DFM_TABLE_FIRST];
}

const MshedDfmTableInfo *
mshed_dfm_schema_find_table (const char *name)
{
  for (guint i = 0; i < MSHED_DFM_N_TABLES; i++)
    if (g_ascii_strcasecmp (tables[i].name, name) == 0)
      return &tables[i];
  return NULL;
}

const MshedField *
mshed_dfm_schema_find_field (const MshedDfmTableInfo *table,
                             const char              *name)
{
  for (guint i = 0; i < table->n_fields; i++)
    if (g_ascii_strcasecmp (table->fields[i].name, name) == 0)
      return &table->fields[i];
  return NULL;
}

#define N_SCOPES (MSHED_DFM_SCOPE_MATERIAL + 1)
G_STATIC_ASSERT (MSHED_DFM_N_TABLES < G_MAXUINT8);

/* the length of each table's node name, set with the scope index: with the first byte it rules
 * out most names without a compare */
static gsize node_len[MSHED_DFM_N_TABLES];
static guint8 scope_index[N_SCOPES][MSHED_DFM_N_TABLES + 1];

static void
scope_tables_init (void)
{
  for (guint i = 0; i < MSHED_DFM_N_TABLES; i++)
    node_len[i] = tables[i].node ? strlen (tables[i].node) : 0;
  for (guint sc = 0; sc < N_SCOPES; sc++)
    {
      guint n = 0;

      for (guint i = 0; i < MSHED_DFM_N_TABLES; i++)
        if (tables[i].scope == (MshedDfmScope) sc)
          scope_index[sc][n++] = (guint8) i;
      scope_index[sc][n] = G_MAXUINT8;
    }
}

/* the tables of each scope, in table order, ending with G_MAXUINT8: a lookup compares only the
 * names of its own scope */
static const guint8 *
scope_tables (MshedDfmScope scope)
{
  /* pthread_once, not g_once_init_enter: ThreadSanitizer sees pthread_once's ordering, but
   * not the release store inside (uninstrumented) GLib, and reported the tables as a race */
  static pthread_once_t once = PTHREAD_ONCE_INIT;

  pthread_once (&once, scope_tables_init);
  return scope_index[scope];
}

/**
 * mshed_dfm_schema_table_in_scope:
 * @node_name: a file name, matched ignoring ASCII case (docs/utf.md §3.4)
 *
 * Returns: the table a file of that name holds in a directory of @scope, or
 *   %MSHED_DFM_TABLE_NONE
 */
MshedDfmTable
mshed_dfm_schema_table_in_scope (MshedDfmScope  scope,
                                 const char    *node_name)
{
  /* the length and the first byte, folded (docs/utf.md §3.4), rule out most names without a
   * full compare */
  guint8 first = mshed_utf_name_fold ((guint8) node_name[0]);
  const guint8 *in_scope;
  gsize len;

  if ((guint) scope >= N_SCOPES)
    return MSHED_DFM_TABLE_NONE;
  in_scope = scope_tables (scope);
  len = strlen (node_name);
  for (const guint8 *i = in_scope; *i != G_MAXUINT8; i++)
    if (node_len[*i] == len && mshed_utf_name_fold ((guint8) tables[*i].node[0]) == first
        && (memcmp (tables[*i].node, node_name, len) == 0  /* as retail spells it */
            || mshed_utf_name_compare (tables[*i].node, node_name) == 0))
      return tables[*i].id;
  return MSHED_DFM_TABLE_NONE;
}

/* Names (docs/dfm.md §2, §8, §10.1) ------------------------------------------------------ */

static gboolean
has_prefix_digits (const char *name,
                   const char *prefix)
{
  gsize n = strlen (prefix);

  if (g_ascii_strncasecmp (name, prefix, n) != 0 || name[n] == '\0')
    return FALSE;
  for (const char *p = name + n; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/* `Mesh` + decimal digits (Librelancer parses the number, docs/dfm.md §3) */
gboolean
_mshed_dfm_is_mesh_name (const char *name)
{
  return has_prefix_digits (name, "Mesh");
}

gboolean
_mshed_dfm_is_group_name (const char *name)
{
  return has_prefix_digits (name, "Group");
}

/* a root child ending in `.3db`, ignoring case (docs/dfm.md §10.1) */
gboolean
_mshed_dfm_is_bone_name (const char *name)
{
  gsize n = strlen (name);

  return n >= 4 && g_ascii_strcasecmp (name + n - 4, ".3db") == 0;
}

/* `Root` or `Part_*` inside Cmpnd (docs/dfm.md §8) */
gboolean
_mshed_dfm_is_part_name (const char *name,
                         gboolean   *is_root)
{
  gboolean root = mshed_utf_name_compare (name, "Root") == 0;

  if (is_root)
    *is_root = root;
  return root || g_ascii_strncasecmp (name, "Part_", 5) == 0;
}

static gboolean
named (const MshedUtfNode *node,
       const char         *name)
{
  return node && mshed_utf_name_compare (mshed_utf_node_get_name (node), name) == 0;
}

/* the scope of directory @dir, or -1 when it is none of the typed directories */
gint
_mshed_dfm_scope_of_directory (const MshedUtfNode *dir)
{
  const MshedUtfNode *parent = mshed_utf_node_get_parent (dir);
  const char *name = mshed_utf_node_get_name (dir);
  gint ps;

  if (!mshed_utf_node_is_directory (dir))
    return -1;
  if (parent == NULL)
    return MSHED_DFM_SCOPE_ROOT;
  ps = _mshed_dfm_scope_of_directory (parent);
  switch (ps)
    {
    case MSHED_DFM_SCOPE_ROOT:
      if (named (dir, "MultiLevel"))
        return MSHED_DFM_SCOPE_MULTILEVEL;
      if (named (dir, "Skeleton"))
        return MSHED_DFM_SCOPE_SKELETON;
      if (named (dir, "Cmpnd"))
        return MSHED_DFM_SCOPE_CMPND;
      if (named (dir, "Material library"))
        return MSHED_DFM_SCOPE_MATERIAL_LIBRARY;
      if (_mshed_dfm_is_bone_name (name))
        return MSHED_DFM_SCOPE_BONE;
      return -1;
    case MSHED_DFM_SCOPE_FACE_GROUPS:
      return _mshed_dfm_is_group_name (name) ? MSHED_DFM_SCOPE_GROUP : -1;
    case MSHED_DFM_SCOPE_CMPND:
      if (named (dir, "Cons"))
        return MSHED_DFM_SCOPE_CONS;
      return _mshed_dfm_is_part_name (name, NULL) ? MSHED_DFM_SCOPE_PART : -1;
    case MSHED_DFM_SCOPE_MATERIAL_LIBRARY:
      return MSHED_DFM_SCOPE_MATERIAL;
    case -1:
      break;
    default:
      return -1;
    }

  /* directories whose parent is not typed itself: a mesh's children and hardpoints */
  if (named (dir, "Face_groups") || named (dir, "Geometry"))
    {
      const MshedUtfNode *multi = mshed_utf_node_get_parent (parent);

      if (_mshed_dfm_is_mesh_name (mshed_utf_node_get_name (parent)) && multi &&
          _mshed_dfm_scope_of_directory (multi) == MSHED_DFM_SCOPE_MULTILEVEL)
        return named (dir, "Geometry") ? MSHED_DFM_SCOPE_GEOMETRY : MSHED_DFM_SCOPE_FACE_GROUPS;
      return -1;
    }
  if (named (parent, "Fixed") || named (parent, "Revolute"))
    {
      const MshedUtfNode *hps = mshed_utf_node_get_parent (parent);
      const MshedUtfNode *bone = hps ? mshed_utf_node_get_parent (hps) : NULL;

      if (named (hps, "Hardpoints") && bone &&
          _mshed_dfm_scope_of_directory (bone) == MSHED_DFM_SCOPE_BONE)
        return MSHED_DFM_SCOPE_HARDPOINT;
    }
  return -1;
}

/**
 * mshed_dfm_schema_table_for_node:
 *
 * Which typed table a file of a DFM tree holds, from its name and where it is (for example
 * `\MultiLevel\Mesh2\Geometry\Points` holds %MSHED_DFM_TABLE_POINTS). Directories and files
 * the schema does not describe give %MSHED_DFM_TABLE_NONE.
 */
MshedDfmTable
mshed_dfm_schema_table_for_node (const MshedUtfNode *node)
{
  const MshedUtfNode *parent;
  gint scope;

  g_return_val_if_fail (node != NULL, MSHED_DFM_TABLE_NONE);
  parent = mshed_utf_node_get_parent (node);
  if (mshed_utf_node_is_directory (node) || parent == NULL)
    return MSHED_DFM_TABLE_NONE;
  scope = _mshed_dfm_scope_of_directory (parent);
  if (scope < 0)
    return MSHED_DFM_TABLE_NONE;
  return mshed_dfm_schema_table_in_scope ((MshedDfmScope) scope, mshed_utf_node_get_name (node));
}

/**
 * mshed_dfm_schema_collect_unknown:
 * @root: the root (or any directory) of a DFM tree
 *
 * Every field of unknown meaning under @root, in tree order, records in order: the schema
 * fields marked unknown (`UV_plane_distance`, docs/dfm.md §6.4) and the padding of `Cons`
 * names that is not all zero (the residue of docs/dfm.md §9.3). Only whole records count.
 *
 * Returns: (transfer full) (element-type MshedDfmUnknownField): the fields
 */
GArray *
mshed_dfm_schema_collect_unknown (MshedUtfNode *root)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (MshedDfmUnknownField));

  g_return_val_if_fail (root != NULL, out);
  for (MshedUtfNode *n = root; n != NULL; n = mshed_utf_node_next_preorder (n, root))
    {
      MshedDfmTable table = mshed_utf_node_is_directory (n) ? MSHED_DFM_TABLE_NONE
                                                             : mshed_dfm_schema_table_for_node (n);
      const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);
      gsize size = 0;
      const guint8 *data;

      if (info == NULL || info->stride == 0)
        continue;
      data = mshed_utf_node_peek_data (n, &size);
      for (gsize r = 0; data != NULL && r < size / info->stride; r++)
        {
          const guint8 *rec = data + r * info->stride;
          MshedDfmUnknownField u = { n, table, (guint) r, NULL, FALSE, 0, 0 };

          for (guint i = 0; i < info->n_fields; i++)
            if (info->fields[i].flags & MSHED_FIELD_FLAG_UNKNOWN)
              {
                u.field = info->fields[i].name;
                u.offset = r * info->stride + info->fields[i].offset;
                u.size = mshed_field_type_size (info->fields[i].type);
                g_array_append_val (out, u);
              }
          for (guint i = 0; i < info->n_texts; i++)
            {
              const MshedDfmTextField *t = &info->texts[i];
              gsize nul = 0, last = 0;

              while (nul < t->size && rec[t->offset + nul] != 0)
                nul++;
              for (gsize k = nul + 1; k < t->size; k++)
                if (rec[t->offset + k] != 0)
                  last = k + 1;
              if (last == 0)
                continue;
              u.field = t->name;
              u.padding = TRUE;
              u.offset = r * info->stride + t->offset + nul + 1;
              u.size = last - nul - 1;
              g_array_append_val (out, u);
              u.padding = FALSE;
            }
        }
    }
  return out;
}
