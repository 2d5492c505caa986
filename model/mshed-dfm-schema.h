/* mshed-dfm-schema.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One description of every typed node of a Freelancer deformable model (docs/dfm.md §2):
 * which node holds it, where that node lives in the tree, the record size and every field
 * (name, offset, type), in the style of mshed-schema.h, whose MshedField and mshed_field_*
 * helpers it reuses. The DFM reader, its validator (field names of diagnostics), and later the
 * CLI, the grids, the hex overlays and the edits read the same table.
 *
 * DFM table ids live in their own range (MSHED_DFM_TABLE_FIRST and up) so that they never
 * collide with the MSH tables: MshedDiagnostic.table and MshedField.ref hold them cast to
 * MshedTableId, and code that indexes the MSH schema (id < MSHED_N_TABLES) ignores them.
 */
#pragma once

#include <glib.h>

#include "mshed-schema.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_DFM_TABLE_NONE = -1,
  MSHED_DFM_TABLE_FIRST = 64,
  /* the root and MultiLevel */
  MSHED_DFM_TABLE_EXPORTER_VERSION = MSHED_DFM_TABLE_FIRST,  /* string */
  MSHED_DFM_TABLE_FRACTIONS,
  /* Mesh<n>/Face_groups and Group<n> (docs/dfm.md §4) */
  MSHED_DFM_TABLE_GROUP_COUNT,
  MSHED_DFM_TABLE_MATERIAL_NAME,       /* string */
  MSHED_DFM_TABLE_TRISTRIP,
  MSHED_DFM_TABLE_FACE_INDICES,
  MSHED_DFM_TABLE_EDGE_INDICES,
  MSHED_DFM_TABLE_EDGE_ANGLES,
  /* Mesh<n>/Geometry (docs/dfm.md §6), in retail order */
  MSHED_DFM_TABLE_POINT_INDICES,
  MSHED_DFM_TABLE_UV0_INDICES,
  MSHED_DFM_TABLE_UV1_INDICES,
  MSHED_DFM_TABLE_POINTS,
  MSHED_DFM_TABLE_POINT_BONE_FIRST,
  MSHED_DFM_TABLE_POINT_BONE_COUNT,
  MSHED_DFM_TABLE_BONE_ID_CHAIN,
  MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN,
  MSHED_DFM_TABLE_VERTEX_NORMALS,
  MSHED_DFM_TABLE_UV0,
  MSHED_DFM_TABLE_UV1,
  /* the UV bone block (docs/dfm.md §6.4), in retail order */
  MSHED_DFM_TABLE_UV_BONE_ID,
  MSHED_DFM_TABLE_UV_VERTEX_COUNT,
  MSHED_DFM_TABLE_UV_PLANE_DISTANCE,
  MSHED_DFM_TABLE_BONE_X_TO_U_SCALE,
  MSHED_DFM_TABLE_BONE_Y_TO_V_SCALE,
  MSHED_DFM_TABLE_MIN_DU,
  MSHED_DFM_TABLE_MAX_DU,
  MSHED_DFM_TABLE_MIN_DV,
  MSHED_DFM_TABLE_MAX_DV,
  MSHED_DFM_TABLE_UV_VERTEX_ID,
  MSHED_DFM_TABLE_UV_DEFAULT_LIST,
  /* Skeleton and Cmpnd (docs/dfm.md §7, §8, §9) */
  MSHED_DFM_TABLE_SKELETON_NAME,       /* string */
  MSHED_DFM_TABLE_SCALE,
  MSHED_DFM_TABLE_OBJECT_NAME,         /* string */
  MSHED_DFM_TABLE_FILE_NAME,           /* string */
  MSHED_DFM_TABLE_PART_INDEX,
  MSHED_DFM_TABLE_CONS_FIX,
  MSHED_DFM_TABLE_CONS_REV,
  MSHED_DFM_TABLE_CONS_PRIS,
  MSHED_DFM_TABLE_CONS_CYL,
  MSHED_DFM_TABLE_CONS_SPHERE,
  MSHED_DFM_TABLE_CONS_LOOSE,
  /* a bone directory (docs/dfm.md §10) */
  MSHED_DFM_TABLE_BONE_TO_ROOT,
  MSHED_DFM_TABLE_LOD_BITS,
  MSHED_DFM_TABLE_HP_POSITION,
  MSHED_DFM_TABLE_HP_ORIENTATION,
  MSHED_DFM_TABLE_HP_AXIS,
  MSHED_DFM_TABLE_HP_MIN,
  MSHED_DFM_TABLE_HP_MAX,
  /* Material library (docs/dfm.md §11) */
  MSHED_DFM_TABLE_MATERIAL_COUNT,
  MSHED_DFM_TABLE_MATERIAL_TYPE,       /* string */
  MSHED_DFM_TABLE_MATERIAL_DC,
  MSHED_DFM_TABLE_MATERIAL_DT_NAME,    /* string */
  MSHED_DFM_TABLE_MATERIAL_DT_FLAGS,
  /* not a file: a group's triangles, unrolled from Tristrip_indices or Face_indices
   * (docs/dfm.md §5); mshed_dfm_get_array() has none, the grids and edits build it */
  MSHED_DFM_TABLE_TRIANGLES,
  MSHED_DFM_TABLE_LAST
} MshedDfmTable;

#define MSHED_DFM_N_TABLES (MSHED_DFM_TABLE_LAST - MSHED_DFM_TABLE_FIRST)
/* a DFM table id as MshedDiagnostic.table and MshedField.ref hold it */
#define MSHED_DFM_TABLE_ID(t) ((MshedTableId) (t))

/* The directory a table's node sits in; a, b in the addressing functions of mshed-dfm.h. */
typedef enum {
  MSHED_DFM_SCOPE_ROOT,            /* the root directory */
  MSHED_DFM_SCOPE_MULTILEVEL,      /* MultiLevel */
  MSHED_DFM_SCOPE_FACE_GROUPS,     /* Mesh<a>/Face_groups */
  MSHED_DFM_SCOPE_GROUP,           /* Mesh<a>/Face_groups/Group<b> */
  MSHED_DFM_SCOPE_GEOMETRY,        /* Mesh<a>/Geometry */
  MSHED_DFM_SCOPE_SKELETON,        /* Skeleton */
  MSHED_DFM_SCOPE_CMPND,           /* Cmpnd */
  MSHED_DFM_SCOPE_PART,            /* Cmpnd/Root or Cmpnd/Part_*, part a */
  MSHED_DFM_SCOPE_CONS,            /* Cmpnd/Cons */
  MSHED_DFM_SCOPE_BONE,            /* bone a's <name>.3db directory */
  MSHED_DFM_SCOPE_HARDPOINT,       /* bone a, its hardpoint b (Hardpoints/Fixed|Revolute/<hp>) */
  MSHED_DFM_SCOPE_MATERIAL_LIBRARY,/* Material library */
  MSHED_DFM_SCOPE_MATERIAL,        /* material a of the Material library */
} MshedDfmScope;

/* A NUL-padded text field of a fixed record (the names of a Cons record, docs/dfm.md §9.3). */
typedef struct {
  const char *name;
  guint       offset;
  guint       size;
  const char *blurb;      /* translatable (N_) */
} MshedDfmTextField;

typedef struct {
  MshedDfmTable            id;
  const char              *name;    /* CLI name: "points", "cons-sphere", ... */
  const char              *title;   /* translatable (N_) */
  const char              *node;    /* the node name as retail spells it ("Point_indices") */
  MshedDfmScope            scope;
  guint                    stride;  /* record size; 0 for a string payload */
  gboolean                 single;  /* one value: the payload holds one record */
  const MshedField        *fields;
  guint                    n_fields;
  const MshedDfmTextField *texts;
  guint                    n_texts;
} MshedDfmTableInfo;

const MshedDfmTableInfo *mshed_dfm_schema_get_table      (MshedDfmTable            id);
const MshedDfmTableInfo *mshed_dfm_schema_find_table     (const char              *name);
const MshedField        *mshed_dfm_schema_find_field     (const MshedDfmTableInfo *table,
                                                          const char              *name);
MshedDfmTable            mshed_dfm_schema_table_for_node (const MshedUtfNode      *node);
MshedDfmTable            mshed_dfm_schema_table_in_scope (MshedDfmScope            scope,
                                                          const char              *node_name);

/* A field of unknown meaning in a DFM tree (docs/dfm.md §6.4, §9.3): a schema field marked
 * MSHED_FIELD_FLAG_UNKNOWN, or the padding after the NUL of a Cons name that holds residue. */
typedef struct {
  MshedUtfNode *node;       /* the typed file */
  MshedDfmTable table;
  guint         record;
  const char   *field;      /* the schema name; for padding "parent" or "child" */
  gboolean      padding;
  gsize         offset;     /* in the payload */
  gsize         size;       /* bytes: the field's, or the padding up to its last non-zero byte */
} MshedDfmUnknownField;

GArray                  *mshed_dfm_schema_collect_unknown (MshedUtfNode          *root);

G_END_DECLS
