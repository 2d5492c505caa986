/* mshed-dfm.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A typed view of a Freelancer deformable model (docs/dfm.md) over its UTF tree (mshed-utf.h):
 * levels and fractions, face groups and their triangles, elements, skin weights, the UV bone
 * block, the skeleton name, the Cmpnd part table, Cons joints of every kind, bones with their
 * `Bone to root`, `Lod Bits` and hardpoints, and the materials embedded in the file.
 *
 * The view indexes the tree's nodes; it copies no payload. Numbers are read from the nodes'
 * current payloads (slices of the source until an edit replaces them) on every call, with
 * every index bounds-checked, so any input, however broken, is safe to read: an accessor that
 * cannot give a value returns FALSE (or 0 / NULL). The index itself (which node is which, the
 * names of parts and materials, the bone hierarchy) is built by mshed_dfm_refresh: call it
 * after an edit adds, removes, moves or renames nodes or changes a name payload.
 */
#pragma once

#include <glib-object.h>

#include "mshed-dfm-schema.h"
#include "mshed-model-types.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

typedef struct _MshedDfm MshedDfm;

#define MSHED_DFM_MAX_INFLUENCES 4   /* retail maximum and Librelancer's limit (docs/dfm.md §6.2) */

typedef enum {
  MSHED_DFM_JOINT_FIX,
  MSHED_DFM_JOINT_REV,
  MSHED_DFM_JOINT_PRIS,
  MSHED_DFM_JOINT_CYL,
  MSHED_DFM_JOINT_SPHERE,
  MSHED_DFM_JOINT_LOOSE,
  MSHED_DFM_N_JOINT_KINDS
} MshedDfmJointKind;

/* A typed payload: @count whole records of @stride bytes at @data (never NULL when present). */
typedef struct {
  MshedUtfNode *node;      /* NULL when the file is absent */
  const guint8 *data;
  gsize         size;      /* payload bytes */
  guint         stride;
  guint         count;     /* size / stride */
} MshedDfmArray;

typedef struct {
  MshedUtfNode *node;          /* Mesh<n> */
  gboolean      has_fraction;
  float         fraction;
  guint         n_groups;
  guint         n_elements;    /* Point_indices entries (E) */
  guint         n_points;      /* Points / 3 (P) */
  guint         n_uv0;         /* UV0 / 2 */
  guint         n_uv1;         /* UV1 / 2 */
  gboolean      has_uv1;       /* both UV1_indices and UV1 */
  guint         n_chain;       /* Bone_id_chain entries */
  gboolean      has_uv_bone;   /* any file of the UV bone block */
} MshedDfmLevel;

typedef struct {
  MshedUtfNode *node;          /* Group<n> */
  const char   *material_name; /* up to the first NUL; NULL when Material_name is absent */
  gint          material;      /* its index in the Material library, -1 when not found */
  gboolean      strip;         /* Tristrip_indices (else Face_indices, or none) */
  guint         n_indices;
  guint         n_edges;       /* Edge_indices pairs */
} MshedDfmGroup;

typedef struct {
  guint32  point;
  guint32  uv0_index;
  guint32  uv1_index;
  float    position[3];
  float    normal[3];        /* per point (docs/dfm.md §6.1) */
  float    uv0[2];
  gboolean has_uv1;
  float    uv1[2];
} MshedDfmElement;

typedef struct {
  gboolean present;          /* UV_bone_id exists */
  guint32  bone;             /* UV_bone_id */
  guint32  vertex_count;     /* UV_vertex_count as stored (derived) */
  float    plane_distance;
  float    x_to_u_scale;
  float    y_to_v_scale;
  float    min_du, max_du, min_dv, max_dv;
  guint    n_vertices;       /* UV_vertex_id entries */
} MshedDfmUvBone;

typedef struct {
  MshedUtfNode *node;          /* Root or Part_* */
  gboolean      root;
  const char   *object_name;   /* NULL when absent */
  const char   *file_name;     /* NULL when absent */
  gboolean      has_index;
  gint32        index;         /* as stored */
  gint          bone;          /* the bone directory File name names, -1 none */
} MshedDfmPart;

typedef struct {
  MshedUtfNode *node;          /* <name>.3db */
  const char   *name;          /* the directory name */
  gint          part;          /* the part naming it, -1: detached (docs/dfm.md §10.4) */
  const char   *object_name;   /* that part's Object name, NULL when detached */
  gint          parent;        /* parent bone through Cons, -1 for none */
  gboolean      has_bone_to_root;
  float         bone_to_root[12];  /* r[0..8] rows of R, t[0..2] (docs/dfm.md §10.2) */
  gboolean      has_lod_bits;
  guint8        lod_bits;      /* 0 when absent */
  guint         n_hardpoints;
} MshedDfmBone;

typedef struct {
  MshedUtfNode *node;          /* Hardpoints/Fixed|Revolute/<name> */
  const char   *name;
  gboolean      revolute;
  float         position[3];   /* defaults (docs/dfm.md §10.4): origin */
  float         orientation[9];/* identity */
  float         axis[3];       /* +Y */
  float         min, max;      /* 0 */
} MshedDfmHardpoint;

typedef struct {
  MshedDfmJointKind kind;
  MshedUtfNode     *node;      /* the Cons file */
  guint             record;    /* index in that file */
  char              parent[65];/* up to the first NUL of the 64-byte field */
  char              child[65];
  gboolean          residue;   /* bytes after a name's NUL (docs/dfm.md §9.3) */
  float             position[3];   /* Fix/Loose/Rev/Pris/Cyl position, Sphere parentPoint */
  float             offset[3];     /* Rev/Pris/Cyl offset, Sphere childPoint; 0 otherwise */
  float             rotation[9];   /* rows */
  float             axis[3];       /* Rev/Pris/Cyl; 0 otherwise */
  float             limits[6];     /* Rev/Pris min, max; Cyl min/max trans, min/max rot;
                                    * Sphere min/max x, y, z */
  guint             n_limits;
  gint              parent_bone;   /* through the parts' Object names, -1 when unknown */
  gint              child_bone;
} MshedDfmJoint;

typedef struct {
  MshedUtfNode *node;
  const char   *name;
  const char   *type;          /* Type, NULL when absent */
  const char   *dt_name;       /* Dt_name, NULL when absent */
  gboolean      has_dt_flags;
  guint32       dt_flags;
  gboolean      has_dc;
  float         dc[3];
} MshedDfmMaterial;

#define MSHED_TYPE_DFM (mshed_dfm_get_type ())
GType         mshed_dfm_get_type            (void) G_GNUC_CONST;

MshedDfm     *mshed_dfm_new                 (MshedUtf          *utf,
                                             MshedMode          mode,
                                             MshedDiagnostics  *diags,
                                             GError           **error);
MshedDfm     *mshed_dfm_new_from_bytes      (GBytes            *bytes,
                                             MshedMode          mode,
                                             MshedDiagnostics  *diags,
                                             GError           **error);
MshedDfm     *mshed_dfm_ref                 (MshedDfm          *self);
void          mshed_dfm_unref               (MshedDfm          *self);
MshedUtf     *mshed_dfm_get_utf             (const MshedDfm    *self);
void          mshed_dfm_refresh             (MshedDfm          *self);
gboolean      mshed_utf_looks_like_dfm      (const MshedUtf    *utf);
gboolean      mshed_dfm_file_is_dfm         (const char        *path,
                                             const MshedUtf    *utf);

/* Tables by schema address (see MshedDfmScope for what @a and @b select) */
MshedUtfNode *mshed_dfm_find_node           (const MshedDfm    *self,
                                             MshedDfmTable      table,
                                             guint              a,
                                             guint              b);
gboolean      mshed_dfm_get_array           (const MshedDfm    *self,
                                             MshedDfmTable      table,
                                             guint              a,
                                             guint              b,
                                             MshedDfmArray     *out);
gboolean      mshed_dfm_get_payload_offset  (const MshedDfm    *self,
                                             const MshedUtfNode *node,
                                             guint64           *offset);

/* Root, levels, groups, triangles, elements, skin */
const char   *mshed_dfm_get_exporter_version (const MshedDfm   *self);
const char   *mshed_dfm_get_skeleton_name   (const MshedDfm    *self);
float         mshed_dfm_get_scale           (const MshedDfm    *self);
guint         mshed_dfm_get_n_levels        (const MshedDfm    *self);
guint         mshed_dfm_get_n_fractions     (const MshedDfm    *self);
gboolean      mshed_dfm_get_fraction        (const MshedDfm    *self,
                                             guint              index,
                                             float             *out);
gboolean      mshed_dfm_get_level           (const MshedDfm    *self,
                                             guint              level,
                                             MshedDfmLevel     *out);
gboolean      mshed_dfm_get_group           (const MshedDfm    *self,
                                             guint              level,
                                             guint              group,
                                             MshedDfmGroup     *out);
guint16      *mshed_dfm_dup_triangles       (const MshedDfm    *self,
                                             guint              level,
                                             guint              group,
                                             gsize             *n_triangles);
gboolean      mshed_dfm_get_element         (const MshedDfm    *self,
                                             guint              level,
                                             guint              element,
                                             MshedDfmElement   *out);
gboolean      mshed_dfm_get_point           (const MshedDfm    *self,
                                             guint              level,
                                             guint              point,
                                             float              position[3],
                                             float              normal[3]);
gboolean      mshed_dfm_get_skin_range      (const MshedDfm    *self,
                                             guint              level,
                                             guint              point,
                                             guint32           *first,
                                             guint32           *count);
gboolean      mshed_dfm_get_influence       (const MshedDfm    *self,
                                             guint              level,
                                             guint32            chain_index,
                                             guint32           *bone,
                                             float             *weight);
gboolean      mshed_dfm_get_uv_bone         (const MshedDfm    *self,
                                             guint              level,
                                             MshedDfmUvBone    *out);
gboolean      mshed_dfm_get_uv_bone_vertex  (const MshedDfm    *self,
                                             guint              level,
                                             guint              k,
                                             guint32           *uv,
                                             float              default_uv[2]);
GBytes       *mshed_dfm_encode_triangles    (const MshedDfm    *self,
                                             guint              level,
                                             guint              group,
                                             const guint16     *triangles,
                                             gsize              n_triangles,
                                             MshedUtfNode     **node,
                                             GError           **error);
GBytes       *mshed_dfm_set_triangles       (MshedDfm          *self,
                                             guint              level,
                                             guint              group,
                                             const guint16     *triangles,
                                             gsize              n_triangles,
                                             MshedUtfNode     **node,
                                             GError           **error);

/* Parts, joints, bones, hardpoints */
guint         mshed_dfm_get_n_parts         (const MshedDfm    *self);
gboolean      mshed_dfm_get_part            (const MshedDfm    *self,
                                             guint              part,
                                             MshedDfmPart      *out);
guint         mshed_dfm_joint_record_size   (MshedDfmJointKind  kind);
const char   *mshed_dfm_joint_kind_name     (MshedDfmJointKind  kind);
MshedDfmTable mshed_dfm_joint_table         (MshedDfmJointKind  kind);
guint         mshed_dfm_get_n_joints        (const MshedDfm    *self);
gboolean      mshed_dfm_get_joint           (const MshedDfm    *self,
                                             guint              index,
                                             MshedDfmJoint     *out);
guint         mshed_dfm_get_n_bones         (const MshedDfm    *self);
gint          mshed_dfm_find_bone           (const MshedDfm    *self,
                                             const char        *object_name);
gboolean      mshed_dfm_get_bone            (const MshedDfm    *self,
                                             guint              bone,
                                             MshedDfmBone      *out);
gboolean      mshed_dfm_get_hardpoint       (const MshedDfm    *self,
                                             guint              bone,
                                             guint              index,
                                             MshedDfmHardpoint *out);
void          mshed_dfm_bind_from_bone_to_root (const float     bone_to_root[12],
                                             float              bind[12]);

/* Materials and textures embedded in the file (docs/dfm.md §11) */
guint         mshed_dfm_get_n_materials     (const MshedDfm    *self);
gboolean      mshed_dfm_get_material        (const MshedDfm    *self,
                                             guint              index,
                                             MshedDfmMaterial  *out);
gint          mshed_dfm_find_material       (const MshedDfm    *self,
                                             const char        *name);
guint         mshed_dfm_get_n_textures      (const MshedDfm    *self);
MshedUtfNode *mshed_dfm_get_texture         (const MshedDfm    *self,
                                             guint              index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedDfm, mshed_dfm_unref)

G_END_DECLS
