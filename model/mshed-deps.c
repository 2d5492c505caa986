/* mshed-deps.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-deps"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-deps.h"
#include "mshed-dfm-schema.h"
#include "mshed-schema.h"

typedef struct {
  const char   *name;
  const char   *label;
  MshedDerived  required;
  MshedDerived  optional;
} KindInfo;

#define SX MSHED_DERIVED_SLOT_BOX
#define SS MSHED_DERIVED_SLOT_SPHERE
#define SB (SX | SS)
#define HB MSHED_DERIVED_HEADER_BOUNDS
#define TN MSHED_DERIVED_TRI_NORMALS
#define TL MSHED_DERIVED_TRI_LINKS
#define VN MSHED_DERIVED_VERTEX_NORMALS
#define AT MSHED_DERIVED_ATTRIBUTES
#define AM MSHED_DERIVED_ANIMATION_MAP
#define BR MSHED_DERIVED_BATCH_RANGES
#define SR MSHED_DERIVED_SLOT_RANGES
#define XS MSHED_DERIVED_EXTRA_STREAMS
#define GC MSHED_DERIVED_DFM_GROUP_COUNT
#define UC MSHED_DERIVED_DFM_UV_VERTEX_COUNT
#define PI MSHED_DERIVED_DFM_PART_INDEX
#define MC MSHED_DERIVED_DFM_MATERIAL_COUNT
#define LB MSHED_DERIVED_DFM_LOD_BITS
#define FR MSHED_DERIVED_DFM_FRACTIONS
#define DN MSHED_DERIVED_DFM_VERTEX_NORMALS
#define BT MSHED_DERIVED_DFM_BONE_TO_ROOT

/* docs/msh.md §10.3, one row per edit kind. Updates that a command performs itself (attr1 of a
 * resized table, Res10 records, hdr1/hdr2/hdr3 renumbering, node slot cells, container
 * offsets) are not listed: they never become stale. */
static const KindInfo kinds[MSHED_N_EDIT_KINDS] = {
  [MSHED_EDIT_MOVE_VERTICES] = { "move-vertices", N_("Move vertices"), SB | HB | TN | TL,
                                 VN },
  [MSHED_EDIT_VERTEX_NORMALS] = { "vertex-normals", N_("Change vertex normals"), 0, 0 },
  [MSHED_EDIT_UVS] = { "uvs", N_("Change UVs"), 0, 0 },
  [MSHED_EDIT_VERTEX_COUNT] = { "vertex-count", N_("Add or remove vertices"),
                                SB | HB | TN | BR | XS, VN },
  [MSHED_EDIT_TOPOLOGY] = { "topology", N_("Change topology"), SB | TN | TL | BR | SR, VN },
  [MSHED_EDIT_MATERIAL] = { "material", N_("Change a batch material"), 0, 0 },
  [MSHED_EDIT_LOD_GROUP] = { "lod-group", N_("Reassign LOD or group"), 0, 0 },
  [MSHED_EDIT_SLOT_RANGES] = { "slot-ranges", N_("Change slot ranges"), SB | TN | TL, 0 },
  [MSHED_EDIT_SLOT_ROWS] = { "slot-rows", N_("Add, remove or move slots"), 0, 0 },
  [MSHED_EDIT_BATCH_ROWS] = { "batch-rows", N_("Add, remove or move batches"),
                               SB | TN | TL | SR, 0 },
  [MSHED_EDIT_RENAME] = { "rename", N_("Rename a node"), 0, 0 },
  [MSHED_EDIT_NODE_ROWS] = { "node-rows", N_("Add, remove or move nodes"), 0, 0 },
  [MSHED_EDIT_HIERARCHY] = { "hierarchy", N_("Change the hierarchy"), 0, 0 },
  [MSHED_EDIT_ANIMATION] = { "animation", N_("Change animation"), AM, 0 },
  [MSHED_EDIT_DERIVED] = { "derived", N_("Edit derived values"), 0, 0 },
  [MSHED_EDIT_OPAQUE] = { "opaque", N_("Edit unknown data"), 0, 0 },
  [MSHED_EDIT_DIRECTORY] = { "directory", N_("Edit the NRes directory"), AT, 0 },
  [MSHED_EDIT_RESOURCES] = { "resources", N_("Add or remove a resource"), 0, 0 },
  /* docs/dfm.md §15.1 */
  [MSHED_EDIT_DFM_POINTS] = { "dfm-points", N_("Move points"), 0, DN },
  [MSHED_EDIT_DFM_TOPOLOGY] = { "dfm-topology", N_("Change face group triangles"), 0, DN },
  [MSHED_EDIT_DFM_ELEMENTS] = { "dfm-elements", N_("Change elements"), 0, DN },
  [MSHED_EDIT_DFM_SKIN] = { "dfm-skin", N_("Change skinning"), 0, 0 },
  [MSHED_EDIT_DFM_UV] = { "dfm-uv", N_("Change UVs or normals"), 0, 0 },
  [MSHED_EDIT_DFM_UV_VERTICES] = { "dfm-uv-vertices", N_("Add or remove UV bone vertices"),
                                   UC, 0 },
  [MSHED_EDIT_DFM_GROUPS] = { "dfm-groups", N_("Add or remove face groups"), GC, DN },
  [MSHED_EDIT_DFM_LEVELS] = { "dfm-levels", N_("Add or remove levels"), FR | LB, 0 },
  [MSHED_EDIT_DFM_BONES] = { "dfm-bones", N_("Add, remove, move or rename bones"), PI, 0 },
  [MSHED_EDIT_DFM_MATERIALS] = { "dfm-materials", N_("Add or remove materials"), MC, 0 },
  [MSHED_EDIT_DFM_JOINTS] = { "dfm-joints", N_("Change joints"), BT, 0 },
  [MSHED_EDIT_UTF_TREE] = { "utf-tree", N_("Change the UTF tree"), 0, 0 },
};

typedef struct {
  const char   *name;
  const char   *label;
  MshedTableId  table;
  gboolean      recomputable;
} DerivedInfo;

static const DerivedInfo derived[MSHED_N_DERIVED] = {
  { "slot-box", N_("Slot bounding boxes"), MSHED_TABLE_SLOTS, TRUE },
  { "slot-sphere", N_("Slot bounding spheres"), MSHED_TABLE_SLOTS, TRUE },
  { "header-bounds", N_("Header hull, sphere and capsule"), MSHED_TABLE_HEADER, TRUE },
  { "tri-normals", N_("Triangle face normals"), MSHED_TABLE_TRIS, TRUE },
  { "tri-links", N_("Triangle neighbour links"), MSHED_TABLE_TRIS, TRUE },
  { "vertex-normals", N_("Vertex normals"), MSHED_TABLE_NORMALS, TRUE },
  { "attributes", N_("NRes attributes"), MSHED_TABLE_DIRECTORY, TRUE },
  { "animation-map", N_("Animation frame map"), MSHED_TABLE_MAP, TRUE },
  { "batch-ranges", N_("Batch index ranges"), MSHED_TABLE_BATCHES, FALSE },
  { "slot-ranges", N_("Slot triangle and batch ranges"), MSHED_TABLE_SLOTS, FALSE },
  { "extra-streams", N_("Extra per-vertex streams"), MSHED_TABLE_EXTRA15, FALSE },
  { "dfm-group-count", N_("Face group counts"),
    MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_GROUP_COUNT), TRUE },
  { "dfm-uv-vertex-count", N_("UV bone vertex count"),
    MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_UV_VERTEX_COUNT), TRUE },
  { "dfm-part-index", N_("Part indices"), MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_PART_INDEX), TRUE },
  { "dfm-material-count", N_("Material count"),
    MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_MATERIAL_COUNT), TRUE },
  { "dfm-lod-bits", N_("Lod Bits"), MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_LOD_BITS), TRUE },
  { "dfm-fractions", N_("Level fractions"), MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_FRACTIONS), TRUE },
  { "dfm-vertex-normals", N_("Point normals"),
    MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_VERTEX_NORMALS), TRUE },
  { "dfm-bone-to-root", N_("Bone to root (bind pose)"),
    MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_BONE_TO_ROOT), TRUE },
};

typedef struct {
  MshedEditKind kind;
  MshedDerived  target;
  const char   *text;
} Reason;

static const Reason reasons[] = {
  { MSHED_EDIT_MOVE_VERTICES, SX, N_("Moving vertices changes the bounding boxes of the "
                                     "slots that draw them") },
  { MSHED_EDIT_MOVE_VERTICES, SS, N_("Moving vertices changes the bounding spheres of the "
                                     "slots that draw them") },
  { MSHED_EDIT_MOVE_VERTICES, HB, N_("Moving vertices changes the model's hull, sphere and "
                                     "capsule") },
  { MSHED_EDIT_MOVE_VERTICES, TN, N_("Moving vertices changes the face normals of their "
                                     "triangles") },
  { MSHED_EDIT_MOVE_VERTICES, TL, N_("Moving vertices can change which triangles meet at an "
                                     "edge") },
  { MSHED_EDIT_MOVE_VERTICES, VN, N_("Moving vertices may change the vertex normals around "
                                     "them (optional)") },
  { MSHED_EDIT_VERTEX_COUNT, SB, N_("A different vertex set changes slot bounds") },
  { MSHED_EDIT_VERTEX_COUNT, HB, N_("A different vertex set changes the model's hull, sphere "
                                    "and capsule") },
  { MSHED_EDIT_VERTEX_COUNT, TN, N_("A different vertex set changes face normals") },
  { MSHED_EDIT_VERTEX_COUNT, BR, N_("Adding or removing vertices moves the baseVertex of "
                                    "later batches") },
  { MSHED_EDIT_VERTEX_COUNT, XS, N_("Res4, Res5 and the extra streams must keep the vertex "
                                    "count of Res3") },
  { MSHED_EDIT_VERTEX_COUNT, VN, N_("A different vertex set changes vertex normals "
                                    "(optional)") },
  { MSHED_EDIT_TOPOLOGY, SB, N_("Different triangles change the bounds of their slots") },
  { MSHED_EDIT_TOPOLOGY, TN, N_("Different triangles change their descriptors' face normals") },
  { MSHED_EDIT_TOPOLOGY, TL, N_("Different triangles change the neighbour links") },
  { MSHED_EDIT_TOPOLOGY, BR, N_("A changed index count moves the index ranges of later "
                                "batches") },
  { MSHED_EDIT_TOPOLOGY, SR, N_("A changed triangle or batch count changes slot ranges") },
  { MSHED_EDIT_TOPOLOGY, VN, N_("Different triangles change vertex normals (optional)") },
  { MSHED_EDIT_SLOT_RANGES, SB, N_("A slot that draws other batches has other bounds") },
  { MSHED_EDIT_SLOT_RANGES, TN, N_("A slot with other ranges maps its descriptors to other "
                                   "triangles") },
  { MSHED_EDIT_SLOT_RANGES, TL, N_("A slot with other ranges has other neighbour links") },
  { MSHED_EDIT_BATCH_ROWS, SB, N_("Slots whose batches changed have other bounds") },
  { MSHED_EDIT_BATCH_ROWS, TN, N_("Slots whose batches changed map their descriptors to other "
                                  "triangles") },
  { MSHED_EDIT_BATCH_ROWS, TL, N_("Slots whose batches changed have other neighbour links") },
  { MSHED_EDIT_BATCH_ROWS, SR, N_("A slot that gained or lost batches needs a triangle "
                                  "range that matches them") },
  { MSHED_EDIT_ANIMATION, AM, N_("Changed keys or tracks change the frame map and the frame "
                                 "count (docs/msh.md §7.7)") },
  { MSHED_EDIT_DIRECTORY, AT, N_("The attributes no longer follow the resource's size and "
                                 "type (docs/msh.md §3)") },
  { MSHED_EDIT_DFM_POINTS, DN, N_("Moving points may change the normals around them "
                                  "(optional)") },
  { MSHED_EDIT_DFM_TOPOLOGY, DN, N_("Different triangles change point normals (optional)") },
  { MSHED_EDIT_DFM_ELEMENTS, DN, N_("Elements that use other points change point normals "
                                    "(optional)") },
  { MSHED_EDIT_DFM_UV_VERTICES, UC, N_("UV_vertex_count must be the number of UV_vertex_id "
                                       "entries (docs/dfm.md §6.4)") },
  { MSHED_EDIT_DFM_GROUPS, GC, N_("Face_groups/Count must be the number of Group "
                                  "directories (docs/dfm.md §4)") },
  { MSHED_EDIT_DFM_GROUPS, DN, N_("A group's triangles added or taken away change point "
                                  "normals (optional)") },
  { MSHED_EDIT_DFM_LEVELS, FR, N_("Fractions must hold one value per mesh (docs/dfm.md §3)") },
  { MSHED_EDIT_DFM_LEVELS, LB, N_("Lod Bits set one bit per level, all or none "
                                  "(docs/dfm.md §10.3)") },
  { MSHED_EDIT_DFM_BONES, PI, N_("A part's Index must be the position of its bone "
                                 "(docs/dfm.md §8)") },
  { MSHED_EDIT_DFM_MATERIALS, MC, N_("Material count must be the number of materials "
                                     "(docs/dfm.md §11)") },
  { MSHED_EDIT_DFM_JOINTS, BT, N_("A changed joint moves the rest pose of the bones below it; "
                                  "their Bone to root may no longer match (docs/dfm.md §9.2)") },
};

MshedDerived
mshed_deps_get (MshedEditKind  kind,
                MshedDerived  *optional)
{
  g_return_val_if_fail (kind < MSHED_N_EDIT_KINDS, 0);
  if (optional)
    *optional = kinds[kind].optional;
  return kinds[kind].required;
}

const char *
mshed_deps_describe (MshedEditKind kind,
                     MshedDerived  target)
{
  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (reasons[i].kind == kind && (reasons[i].target & target) == target)
      return _(reasons[i].text);
  return NULL;
}

const char *
mshed_edit_kind_get_label (MshedEditKind kind)
{
  g_return_val_if_fail (kind < MSHED_N_EDIT_KINDS, NULL);
  return _(kinds[kind].label);
}

const char *
mshed_edit_kind_get_name (MshedEditKind kind)
{
  g_return_val_if_fail (kind < MSHED_N_EDIT_KINDS, NULL);
  return kinds[kind].name;
}

gint
mshed_derived_get_index (MshedDerived target)
{
  guint v = (guint) target;

  if (v == 0 || (v & (v - 1)) != 0)
    return -1;
  for (gint i = 0; i < MSHED_N_DERIVED; i++)
    if (v == (1u << i))
      return i;
  return -1;
}

const char *
mshed_derived_get_label (MshedDerived target)
{
  gint i = mshed_derived_get_index (target);

  g_return_val_if_fail (i >= 0, NULL);
  return _(derived[i].label);
}

const char *
mshed_derived_get_name (MshedDerived target)
{
  gint i = mshed_derived_get_index (target);

  g_return_val_if_fail (i >= 0, NULL);
  return derived[i].name;
}

MshedTableId
mshed_derived_get_table (MshedDerived target)
{
  gint i = mshed_derived_get_index (target);

  g_return_val_if_fail (i >= 0, MSHED_TABLE_NONE);
  return derived[i].table;
}

gboolean
mshed_derived_is_recomputable (MshedDerived target)
{
  gint i = mshed_derived_get_index (target);

  return i >= 0 && derived[i].recomputable;
}

gboolean
mshed_derived_is_convention (MshedDerived target)
{
  return mshed_derived_get_index (target) >= 0 && (target & MSHED_DERIVED_CONVENTION) != 0;
}

static gboolean
is (const char *field,
    const char *name)
{
  return g_ascii_strcasecmp (field, name) == 0;
}

static MshedEditKind
classify_dfm (MshedDfmTable table)
{
  switch (table)
    {
    case MSHED_DFM_TABLE_POINTS:
      return MSHED_EDIT_DFM_POINTS;
    case MSHED_DFM_TABLE_TRISTRIP:
    case MSHED_DFM_TABLE_FACE_INDICES:
    case MSHED_DFM_TABLE_TRIANGLES:
      return MSHED_EDIT_DFM_TOPOLOGY;
    case MSHED_DFM_TABLE_POINT_INDICES:
    case MSHED_DFM_TABLE_UV0_INDICES:
    case MSHED_DFM_TABLE_UV1_INDICES:
      return MSHED_EDIT_DFM_ELEMENTS;
    case MSHED_DFM_TABLE_POINT_BONE_FIRST:
    case MSHED_DFM_TABLE_POINT_BONE_COUNT:
    case MSHED_DFM_TABLE_BONE_ID_CHAIN:
    case MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN:
      return MSHED_EDIT_DFM_SKIN;
    case MSHED_DFM_TABLE_VERTEX_NORMALS:
    case MSHED_DFM_TABLE_UV0:
    case MSHED_DFM_TABLE_UV1:
    case MSHED_DFM_TABLE_UV_BONE_ID:
    case MSHED_DFM_TABLE_UV_PLANE_DISTANCE:
    case MSHED_DFM_TABLE_BONE_X_TO_U_SCALE:
    case MSHED_DFM_TABLE_BONE_Y_TO_V_SCALE:
    case MSHED_DFM_TABLE_MIN_DU:
    case MSHED_DFM_TABLE_MAX_DU:
    case MSHED_DFM_TABLE_MIN_DV:
    case MSHED_DFM_TABLE_MAX_DV:
    case MSHED_DFM_TABLE_UV_DEFAULT_LIST:
      return MSHED_EDIT_DFM_UV;
    case MSHED_DFM_TABLE_UV_VERTEX_ID:
      return MSHED_EDIT_DFM_UV_VERTICES;
    case MSHED_DFM_TABLE_FILE_NAME:
      return MSHED_EDIT_DFM_BONES;
    case MSHED_DFM_TABLE_CONS_FIX:
    case MSHED_DFM_TABLE_CONS_REV:
    case MSHED_DFM_TABLE_CONS_PRIS:
    case MSHED_DFM_TABLE_CONS_CYL:
    case MSHED_DFM_TABLE_CONS_SPHERE:
    case MSHED_DFM_TABLE_CONS_LOOSE:
      return MSHED_EDIT_DFM_JOINTS;
    case MSHED_DFM_TABLE_GROUP_COUNT:
    case MSHED_DFM_TABLE_UV_VERTEX_COUNT:
    case MSHED_DFM_TABLE_PART_INDEX:
    case MSHED_DFM_TABLE_MATERIAL_COUNT:
    case MSHED_DFM_TABLE_LOD_BITS:
    case MSHED_DFM_TABLE_FRACTIONS:
    case MSHED_DFM_TABLE_BONE_TO_ROOT:
      return MSHED_EDIT_DERIVED;
    default:
      return MSHED_EDIT_OPAQUE;
    }
}

MshedEditKind
mshed_deps_classify_field (MshedTableId  table,
                           const char   *field)
{
  const MshedTableInfo *info;
  const MshedField *f;

  if ((gint) table >= MSHED_DFM_TABLE_FIRST && (gint) table < MSHED_DFM_TABLE_LAST)
    return classify_dfm ((MshedDfmTable) table);
  if (table < 0 || table >= MSHED_N_TABLES)
    return MSHED_EDIT_OPAQUE;
  info = mshed_schema_get_table (table);
  f = field ? mshed_schema_find_field (info, field) : NULL;

  switch (table)
    {
    case MSHED_TABLE_NODES:
      if (field == NULL)
        return MSHED_EDIT_LOD_GROUP;
      if (is (field, "hdr0"))
        return MSHED_EDIT_OPAQUE;
      if (is (field, "hdr1"))
        return MSHED_EDIT_HIERARCHY;
      if (is (field, "hdr2") || is (field, "hdr3"))
        return MSHED_EDIT_ANIMATION;
      return MSHED_EDIT_LOD_GROUP;
    case MSHED_TABLE_HEADER:
      return MSHED_EDIT_DERIVED;
    case MSHED_TABLE_SLOTS:
      if (field == NULL)
        return MSHED_EDIT_SLOT_RANGES;
      if (f && (f->flags & MSHED_FIELD_FLAG_UNKNOWN))
        return MSHED_EDIT_OPAQUE;
      if (f && (f->flags & MSHED_FIELD_FLAG_DERIVED))
        return MSHED_EDIT_DERIVED;
      return MSHED_EDIT_SLOT_RANGES;
    case MSHED_TABLE_POSITIONS:
      return MSHED_EDIT_MOVE_VERTICES;
    case MSHED_TABLE_NORMALS:
      return (field && is (field, "nw")) ? MSHED_EDIT_OPAQUE : MSHED_EDIT_VERTEX_NORMALS;
    case MSHED_TABLE_UVS:
      return MSHED_EDIT_UVS;
    case MSHED_TABLE_INDICES:
      return MSHED_EDIT_TOPOLOGY;
    case MSHED_TABLE_TRIS:
      if (field == NULL)
        return MSHED_EDIT_DERIVED;
      if (is (field, "flags") || is (field, "selPacked"))
        return MSHED_EDIT_OPAQUE;
      return MSHED_EDIT_DERIVED;
    case MSHED_TABLE_KEYS:
    case MSHED_TABLE_MAP:
      return MSHED_EDIT_ANIMATION;
    case MSHED_TABLE_NAMES:
      return MSHED_EDIT_RENAME;
    case MSHED_TABLE_BATCHES:
      if (field == NULL)
        return MSHED_EDIT_TOPOLOGY;
      if (is (field, "materialIndex"))
        return MSHED_EDIT_MATERIAL;
      if (f && (f->flags & MSHED_FIELD_FLAG_UNKNOWN))
        return MSHED_EDIT_OPAQUE;
      return MSHED_EDIT_TOPOLOGY;
    case MSHED_TABLE_DIRECTORY:
      return MSHED_EDIT_DIRECTORY;
    case MSHED_TABLE_EXTRA15:
    case MSHED_TABLE_EXTRA16:
    case MSHED_TABLE_EXTRA18:
    case MSHED_TABLE_NONE:
    case MSHED_N_TABLES:
    default:
      return MSHED_EDIT_OPAQUE;
    }
}
