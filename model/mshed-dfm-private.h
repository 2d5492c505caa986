/* mshed-dfm-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The node index of a MshedDfm, shared by mshed-dfm.c (which builds it), mshed-dfm-schema.c
 * (name rules) and mshed-dfm-validate.c (which checks what it found).
 */
#pragma once

#include "mshed-diagnostic.h"
#include "mshed-dfm.h"

G_BEGIN_DECLS

/* the files of one directory kind, indexed by table − base */
#define DFM_GROUP_BASE MSHED_DFM_TABLE_MATERIAL_NAME
#define DFM_N_GROUP    (MSHED_DFM_TABLE_EDGE_ANGLES - DFM_GROUP_BASE + 1)
#define DFM_GEO_BASE   MSHED_DFM_TABLE_POINT_INDICES
#define DFM_N_GEO      (MSHED_DFM_TABLE_UV_DEFAULT_LIST - DFM_GEO_BASE + 1)
#define DFM_PART_BASE  MSHED_DFM_TABLE_OBJECT_NAME
#define DFM_N_PART     (MSHED_DFM_TABLE_PART_INDEX - DFM_PART_BASE + 1)
#define DFM_BONE_BASE  MSHED_DFM_TABLE_BONE_TO_ROOT
#define DFM_N_BONE     (MSHED_DFM_TABLE_LOD_BITS - DFM_BONE_BASE + 1)
#define DFM_HP_BASE    MSHED_DFM_TABLE_HP_POSITION
#define DFM_N_HP       (MSHED_DFM_TABLE_HP_MAX - DFM_HP_BASE + 1)
#define DFM_MAT_BASE   MSHED_DFM_TABLE_MATERIAL_TYPE
#define DFM_N_MAT      (MSHED_DFM_TABLE_MATERIAL_DT_FLAGS - DFM_MAT_BASE + 1)

typedef struct {
  MshedUtfNode *dir;
  MshedUtfNode *files[DFM_N_GROUP];
  char         *material_name;
  gint          material;
} DfmGroup;

typedef struct {
  MshedUtfNode *dir;
  MshedUtfNode *face_groups;
  MshedUtfNode *count;
  MshedUtfNode *geometry;
  GArray       *groups;              /* DfmGroup */
  MshedUtfNode *files[DFM_N_GEO];
} DfmMesh;

typedef struct {
  MshedUtfNode *dir;
  gboolean      root;
  MshedUtfNode *files[DFM_N_PART];
  char         *object_name;
  char         *file_name;
  gint          bone;                /* the bone File name names, -1 */
  gint          claimed_by;          /* an earlier part naming the same bone, -1 */
} DfmPart;

typedef struct {
  MshedUtfNode *dir;
  gboolean      revolute;
  MshedUtfNode *files[DFM_N_HP];
} DfmHardpoint;

typedef struct {
  MshedUtfNode *dir;
  MshedUtfNode *hardpoints;
  MshedUtfNode *files[DFM_N_BONE];
  GArray       *hps;                 /* DfmHardpoint; NULL while there is none */
  gint          part;                /* -1: detached */
  gint          parent;              /* through Cons, -1 */
} DfmBone;

/* what became of one Cons record when the hierarchy was built */
typedef enum {
  DFM_JOINT_LINKED,                  /* the child's parent */
  DFM_JOINT_UNKNOWN_PARENT,          /* parent name is no part's Object name */
  DFM_JOINT_UNKNOWN_CHILD,
  DFM_JOINT_SECOND_PARENT,           /* the child already has a parent */
  DFM_JOINT_CYCLE,                   /* parent is the child or one of its descendants */
} DfmJointStatus;

typedef struct {
  MshedUtfNode     *node;
  MshedDfmJointKind kind;
  guint             first;           /* joint index of its first record */
  guint             count;           /* whole records */
} DfmConsFile;

typedef struct {
  MshedUtfNode *dir;
  MshedUtfNode *files[DFM_N_MAT];
  char         *type;
  char         *dt_name;
} DfmMaterial;

struct _MshedDfm {
  gatomicrefcount ref_count;
  MshedUtf     *utf;

  MshedUtfNode *exporter;
  MshedUtfNode *multilevel;
  MshedUtfNode *fractions;
  MshedUtfNode *material_library;
  MshedUtfNode *material_count;
  MshedUtfNode *texture_library;
  MshedUtfNode *skeleton;
  MshedUtfNode *skeleton_name;
  MshedUtfNode *cmpnd;
  MshedUtfNode *scale;
  MshedUtfNode *cons;
  char         *exporter_version;
  char         *skeleton_text;
  GPtrArray    *strings;             /* the index's string copies (a read-only tree: fewer) */

  GArray       *meshes;              /* DfmMesh */
  GArray       *parts;               /* DfmPart */
  GArray       *bones;               /* DfmBone */
  GArray       *cons_files;          /* DfmConsFile, known kinds only */
  GArray       *joint_status;        /* DfmJointStatus per joint */
  GArray       *materials;           /* DfmMaterial */
  GPtrArray    *textures;            /* MshedUtfNode* */
  GHashTable   *bone_by_object;      /* folded Object name -> bone + 1 (first part wins) */
  GHashTable   *bone_by_dir;         /* folded directory name -> bone + 1 (first wins) */
  GHashTable   *material_by_name;    /* folded material name -> index + 1 (first wins) */
  guint         n_joints;
};

/* docs/dfm.md §14: a point's weights sum to 1 within this (mshed-dfm-validate.c and
 * mshed-dfm-fast.c) */
#define DFM_WEIGHT_TOLERANCE 1e-4

/* the notes both validators give, made in one place (mshed-dfm-validate.c) */
void _mshed_dfm_note_material     (MshedDiagnostics  *diags,
                                   const char        *path,
                                   guint64            base,
                                   const char        *name);
void _mshed_dfm_note_unreferenced (MshedDiagnostics  *diags,
                                   const char        *path,
                                   guint64            base,
                                   guint              n_unused,
                                   guint              first_unused);
void _mshed_dfm_note_residue      (MshedDiagnostics  *diags,
                                   const char        *path,
                                   MshedDfmJointKind  kind,
                                   guint64            base,
                                   guint              n,
                                   guint              first,
                                   guint              first_field,
                                   guint              first_byte);
void _mshed_dfm_note_detached     (MshedDiagnostics  *diags,
                                   const char        *path,
                                   guint64            base,
                                   guint              bone);

gint     _mshed_dfm_find_top          (gint               *up,
                                       gint                b);
gboolean _mshed_dfm_is_mesh_name        (const char         *name);
gboolean _mshed_dfm_is_group_name       (const char         *name);
gboolean _mshed_dfm_is_bone_name        (const char         *name);
gboolean _mshed_dfm_is_part_name        (const char         *name,
                                         gboolean           *is_root);
gint     _mshed_dfm_scope_of_directory  (const MshedUtfNode *dir);
char    *_mshed_dfm_read_string         (const MshedUtfNode *node);
gint     _mshed_dfm_joint_kind_of_name  (const char         *name);
gboolean _mshed_dfm_read_f32_at         (MshedUtfNode       *node,
                                         guint               index,
                                         float              *out);
gboolean _mshed_dfm_read_u32_at         (MshedUtfNode       *node,
                                         guint               index,
                                         guint32            *out);
const DfmMesh  *_mshed_dfm_mesh_at      (const MshedDfm     *self,
                                         guint               level);
const DfmGroup *_mshed_dfm_group_at     (const MshedDfm     *self,
                                         guint               level,
                                         guint               group);

G_END_DECLS
