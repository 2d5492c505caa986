/* mshed-diagnostic.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A structured validation finding: what the GUI lists and jumps from, what the CLI prints.
 */
#pragma once

#include <glib-object.h>

#include "mshed-model-types.h"

G_BEGIN_DECLS

/* One code per invariant of the spec (docs/nres.md §8, docs/msh.md §3 and §9). Tests assert on
 * them. */
typedef enum {
  /* container, docs/nres.md §8 */
  MSHED_CHECK_NRES_TOO_SHORT = 1,
  MSHED_CHECK_NRES_MAGIC,
  MSHED_CHECK_NRES_VERSION,
  MSHED_CHECK_NRES_COUNT,
  MSHED_CHECK_NRES_TOTAL_SIZE,
  MSHED_CHECK_NRES_DIRECTORY,
  MSHED_CHECK_NRES_NAME_NUL,
  MSHED_CHECK_NRES_DATA_OFFSET,
  MSHED_CHECK_NRES_DATA_RANGE,
  MSHED_CHECK_NRES_SORT_RANGE,
  MSHED_CHECK_NRES_SORT_PERMUTATION,
  MSHED_CHECK_NRES_SORT_ORDER,       /* warning: not the docs/nres.md §5.2 table */
  MSHED_CHECK_NRES_ALIGNMENT,        /* warning */
  MSHED_CHECK_NRES_PADDING,          /* warning: non-zero padding */
  MSHED_CHECK_NRES_OVERLAP,          /* warning */
  MSHED_CHECK_NRES_LAYOUT,           /* warning: gaps, foreign bytes, out-of-order payloads */
  MSHED_CHECK_NRES_NAME_TAIL,        /* info: non-zero bytes after the name terminator */
  MSHED_CHECK_NRES_RSLI,             /* an RsLi library: recognised, not supported */
  MSHED_CHECK_NRES_NESTED,           /* a *.msh entry that is not a readable model */

  /* model resources, docs/msh.md §3 */
  MSHED_CHECK_MISSING_TYPE = 100,
  MSHED_CHECK_DUPLICATE_TYPE,        /* warning */
  MSHED_CHECK_STRIDE,                /* size % stride */
  MSHED_CHECK_ATTR1,                 /* attr1 != count */
  MSHED_CHECK_ATTR2,                 /* warning: attr2 != 0 */
  MSHED_CHECK_ATTR3,                 /* attr3 != stride (Res8: 4) */
  MSHED_CHECK_RES1_STRIDE,           /* attr3 not 38/24 (warning) or <= 0 (error) */
  MSHED_CHECK_LEGACY_NODES,          /* info: 24-byte node table, node checks skipped */
  MSHED_CHECK_RES2_SIZE,             /* size < 140 or (size-140) % 68 */
  MSHED_CHECK_RES19_FRAMES,          /* attr2 (frame count) < 1 */
  MSHED_CHECK_RES10_ATTR1,
  MSHED_CHECK_RES10_ATTR3,           /* warning */
  MSHED_CHECK_RES10_LENGTH,          /* record length word missing */
  MSHED_CHECK_RES10_TEXT,            /* record text past the end */
  MSHED_CHECK_RES10_NUL,             /* warning: text[len] != 0 */
  MSHED_CHECK_RES10_TRAILING,        /* bytes after nodeCount records */
  MSHED_CHECK_VERTEX_COUNT,          /* Res4/Res5 count != Res3 count */
  MSHED_CHECK_EXTRA_COUNT,           /* warning: Res15/16/18 count != Res3 count */

  /* cross-table, docs/msh.md §9.1 */
  MSHED_CHECK_BATCH_INDEX_RANGE = 200,
  MSHED_CHECK_BATCH_INDEX_MULTIPLE,  /* warning: indexCount % 3 */
  MSHED_CHECK_BATCH_VERTEX_RANGE,
  MSHED_CHECK_SLOT_BATCH_RANGE,
  MSHED_CHECK_SLOT_TRI_RANGE,
  MSHED_CHECK_SLOT_NONFINITE,
  MSHED_CHECK_SLOT_AABB_ORDER,
  MSHED_CHECK_SLOT_RADIUS,
  MSHED_CHECK_TRI_LINK,
  MSHED_CHECK_NODE_SLOT,
  MSHED_CHECK_NODE_PARENT,
  MSHED_CHECK_NODE_KEY,
  MSHED_CHECK_NODE_MAP,
  MSHED_CHECK_HEADER_NONFINITE,      /* Res2 header float not finite */

  /* animation, docs/msh.md §7.7: the canonical layout (warnings) and, marked "pre-save", the
   * checks docs/msh.md §7.7 requires before a model is written (errors in strict mode) */
  MSHED_CHECK_ANIM_TRACK = 300,      /* hdr3 not increasing / static track not one key */
  MSHED_CHECK_ANIM_TIME,             /* key time not a whole number, first not 0 */
  MSHED_CHECK_ANIM_FRAMES,           /* Res19.attr2 != max time + 1 */
  MSHED_CHECK_ANIM_MAP_LAYOUT,       /* map blocks not packed in node order */
  MSHED_CHECK_ANIM_MAP_VALUE,        /* map word differs from the docs/msh.md §7.7 rule */
  MSHED_CHECK_ANIM_MAP_KEY,          /* pre-save: map word + 1 past the key pool */
  MSHED_CHECK_ANIM_TIME_ORDER,       /* pre-save: key times not strictly increasing */
  MSHED_CHECK_ANIM_MAPPED_KEYS,      /* pre-save: a node with a frame map has < 2 keys */

  /* Freelancer UTF container, docs/utf.md §9 (the table there gives each one's treatment) */
  MSHED_CHECK_UTF_TOO_SHORT = 500,
  MSHED_CHECK_UTF_SIGNATURE,
  MSHED_CHECK_UTF_VERSION,
  MSHED_CHECK_UTF_ENTRY_SIZE,
  MSHED_CHECK_UTF_REGION,            /* tree, dictionary or data region outside the file */
  MSHED_CHECK_UTF_NAMES_SIZE,        /* namesSizeUsed > namesSizeAllocated */
  MSHED_CHECK_UTF_ROOT,              /* no root entry, or it is not a directory */
  MSHED_CHECK_UTF_LINK,              /* entry offset outside the tree block */
  MSHED_CHECK_UTF_LINK_ALIGN,        /* entry offset not a multiple of 44 */
  MSHED_CHECK_UTF_ENTRY_OVERLAP,     /* an entry overlaps another one */
  MSHED_CHECK_UTF_CYCLE,             /* a link reaches an entry already in the tree */
  MSHED_CHECK_UTF_DEPTH,             /* directories nested deeper than MSHED_UTF_MAX_DEPTH */
  MSHED_CHECK_UTF_DATA_RANGE,        /* a payload outside the file */
  MSHED_CHECK_UTF_ATTRIBUTES,        /* not exactly one of 0x10 / 0x80 */
  MSHED_CHECK_UTF_NAME_OFFSET,       /* nameOffset outside the used dictionary */
  MSHED_CHECK_UTF_NAME_NUL,          /* warning: a name without NUL before namesSizeUsed */
  MSHED_CHECK_UTF_DATA_SIZE,         /* warning: used > allocated, or allocation past the end */
  MSHED_CHECK_UTF_UNCOMPRESSED,      /* warning: dataSizeUncompressed != dataSizeUsed */
  MSHED_CHECK_UTF_SHARING,           /* warning: sharingAttributes != 0 */
  MSHED_CHECK_UTF_TIMESTAMP,         /* info: a DOS time that is no date */
  MSHED_CHECK_UTF_DUPLICATE_NAME,    /* warning: siblings with the same folded name */
  MSHED_CHECK_UTF_STRING_NUL,        /* info: a string payload without a final NUL */
  MSHED_CHECK_UTF_LAYOUT,            /* info: region order, gaps, over-allocation, slack */
  MSHED_CHECK_UTF_PADDING,           /* warning: non-zero padding */
  MSHED_CHECK_UTF_OVERLAP,           /* warning: regions or payloads overlap */
  MSHED_CHECK_UTF_EMPTY_DIRECTORY,   /* info: a directory without children */
  MSHED_CHECK_UTF_HEADER_EXTRA,      /* info: entryOffset / unusedOffset / unusedSize set */

  /* Freelancer deformable model, docs/dfm.md §14: rejected (errors) */
  MSHED_CHECK_DFM_CMPND_MISSING = 600, /* no Cmpnd directory */
  MSHED_CHECK_DFM_PART_MISSING,      /* a part without Object name or File name */
  MSHED_CHECK_DFM_PART_BONE,         /* File name names no bone directory */
  MSHED_CHECK_DFM_PART_INDEX,        /* Index missing or not the bone's position */
  MSHED_CHECK_DFM_PART_DUPLICATE,    /* two parts claim one bone */
  MSHED_CHECK_DFM_CONS_KIND,         /* a Cons file of unknown kind (record size unknown) */
  MSHED_CHECK_DFM_CONS_SIZE,         /* Cons length not a multiple of its record size */
  MSHED_CHECK_DFM_FRACTIONS,         /* Fractions entries != Mesh directories */
  MSHED_CHECK_DFM_MESH_MISSING,      /* a mesh without Face_groups or Geometry */
  MSHED_CHECK_DFM_GROUP_MATERIAL,    /* a face group without Material_name */
  MSHED_CHECK_DFM_GROUP_INDICES,     /* a face group without Tristrip_indices and Face_indices */
  MSHED_CHECK_DFM_GEOMETRY_MISSING,  /* a required Geometry file is missing */
  MSHED_CHECK_DFM_UV_PAIR,           /* UV1_indices without UV1 or the reverse */
  MSHED_CHECK_DFM_ARRAY_SIZE,        /* a numeric file not a whole number of records */
  MSHED_CHECK_DFM_BONE_TO_ROOT,      /* Bone to root missing or not 48 bytes */
  MSHED_CHECK_DFM_POINT_INDEX_RANGE, /* Point_indices >= points */
  MSHED_CHECK_DFM_UV_INDEX_RANGE,    /* UV0/UV1_indices >= coordinates */
  MSHED_CHECK_DFM_FACE_INDEX_RANGE,  /* a face-group index >= elements */
  MSHED_CHECK_DFM_CHAIN_RANGE,       /* first + count past the bone chains */
  MSHED_CHECK_DFM_BONE_ID_RANGE,     /* Bone_id_chain >= bones */
  MSHED_CHECK_DFM_UV_BONE_RANGE,     /* UV_bone_id >= bones */
  MSHED_CHECK_DFM_UV_VERTEX_RANGE,   /* UV_vertex_id >= UV0 coordinates */
  MSHED_CHECK_DFM_UV_DEFAULT_LIST,   /* UV_default_list != 2 x UV_vertex_id */
  MSHED_CHECK_DFM_POINT_ARRAYS,      /* per-point arrays of different lengths */
  MSHED_CHECK_DFM_CHAIN_LENGTHS,     /* Bone_id_chain and Bone_weight_chain lengths differ */
  MSHED_CHECK_DFM_ELEMENT_ARRAYS,    /* UV0/UV1_indices and Point_indices lengths differ */
  MSHED_CHECK_DFM_EDGE_COUNT,        /* Edge_indices != 2 x Edge_angles */

  /* docs/dfm.md §14: tolerated (warnings, or notes where retail files do it) */
  MSHED_CHECK_DFM_FACE_LIST = 640,   /* warning: Face_indices instead of a strip */
  MSHED_CHECK_DFM_GROUP_BOTH,        /* warning: both Tristrip_indices and Face_indices */
  MSHED_CHECK_DFM_STRING_NUL,        /* warning: a DFM string without a final NUL */
  MSHED_CHECK_DFM_NAME_RESIDUE,      /* info: bytes after a Cons name's NUL */
  MSHED_CHECK_DFM_EXPORTER_MISSING,  /* warning: no Exporter Version */
  MSHED_CHECK_DFM_SCALE_MISSING,     /* warning: no Cmpnd/Scale (1 is used) */
  MSHED_CHECK_DFM_LOD_BITS_MISSING,  /* warning: no Lod Bits (0 is used) */
  MSHED_CHECK_DFM_GROUP_COUNT,       /* warning: Face_groups/Count missing or wrong */
  MSHED_CHECK_DFM_UV_VERTEX_COUNT,   /* warning: UV_vertex_count != UV_vertex_id entries */
  MSHED_CHECK_DFM_INFLUENCES,        /* warning: more than 4 influences */
  MSHED_CHECK_DFM_ZERO_INFLUENCES,   /* warning: a point without influences */
  MSHED_CHECK_DFM_WEIGHT_SUM,        /* warning: weights of a point do not sum to 1 */
  MSHED_CHECK_DFM_UNREFERENCED_POINTS, /* info: points no element uses */
  MSHED_CHECK_DFM_DETACHED_BONE,     /* info: a bone directory no part names */
  MSHED_CHECK_DFM_CONS_UNKNOWN_PART, /* warning: a constraint names an unknown part */
  MSHED_CHECK_DFM_UNKNOWN_NODE,      /* warning: a node Librelancer rejects */
  MSHED_CHECK_DFM_SKELETON_MISSING,  /* warning: no Skeleton/Name (docs/dfm.md §7) */
  MSHED_CHECK_DFM_MULTILEVEL_MISSING, /* warning: no MultiLevel, nothing to draw */
  MSHED_CHECK_DFM_UV_BONE_BLOCK,     /* warning: only part of the UV bone block */
  MSHED_CHECK_DFM_CONS_HIERARCHY,    /* warning: a second parent or a cycle */
  MSHED_CHECK_DFM_MATERIAL_UNRESOLVED, /* info: Material_name not in this file's library */
} MshedCheck;

typedef struct {
  MshedSeverity severity;
  MshedCheck    check;
  guint32       res_type;     /* resource type_id, or G_MAXUINT32 for the container itself */
  gint          res_index;    /* directory index, -1 when none */
  MshedTableId  table;        /* typed table, MSHED_TABLE_NONE when none */
  gint64        record;       /* record index in that table, -1 when none */
  const char   *field;        /* schema field name (static string), NULL when none */
  guint64       offset;       /* byte offset in the file (nested: from the outer file start) */
  char         *message;      /* translated, names the resource, record and field */
  char         *entry;        /* nested model: the outer entry name; NULL for a loose file */
  char         *path;         /* UTF: the node path (`\MultiLevel\Fractions`), else NULL */
} MshedDiagnostic;

#define MSHED_TYPE_DIAGNOSTIC (mshed_diagnostic_get_type ())
GType            mshed_diagnostic_get_type   (void) G_GNUC_CONST;
MshedDiagnostic *mshed_diagnostic_copy       (const MshedDiagnostic *self);
void             mshed_diagnostic_free       (MshedDiagnostic       *self);
const char      *mshed_severity_to_string    (MshedSeverity          severity);
const char      *mshed_check_to_string       (MshedCheck             check);

/* An ordered list of diagnostics plus the base offset of the model inside its file. */
struct _MshedDiagnostics {
  GPtrArray *items;        /* MshedDiagnostic* */
  guint64    base_offset;  /* added to every offset that is reported */
  char      *entry;        /* copied into every diagnostic */
  guint      n_errors;
  guint      n_warnings;
};

MshedDiagnostics *mshed_diagnostics_new       (void);
void              mshed_diagnostics_free      (MshedDiagnostics *self);
void              mshed_diagnostics_clear     (MshedDiagnostics *self);
void              mshed_diagnostics_set_context (MshedDiagnostics *self,
                                                 guint64           base_offset,
                                                 const char       *entry);
guint             mshed_diagnostics_get_n_items (const MshedDiagnostics *self);
const MshedDiagnostic *mshed_diagnostics_get  (const MshedDiagnostics *self,
                                               guint             index);
void              mshed_diagnostics_add       (MshedDiagnostics *self,
                                               MshedSeverity     severity,
                                               MshedCheck        check,
                                               guint32           res_type,
                                               gint              res_index,
                                               MshedTableId      table,
                                               gint64            record,
                                               const char       *field,
                                               guint64           offset,
                                               const char       *format,
                                               ...) G_GNUC_PRINTF (10, 11);
void              mshed_diagnostics_add_node  (MshedDiagnostics *self,
                                               MshedSeverity     severity,
                                               MshedCheck        check,
                                               const char       *path,
                                               const char       *field,
                                               guint64           offset,
                                               const char       *format,
                                               ...) G_GNUC_PRINTF (7, 8);
void              mshed_diagnostics_add_node_record (MshedDiagnostics *self,
                                               MshedSeverity     severity,
                                               MshedCheck        check,
                                               const char       *path,
                                               MshedTableId      table,
                                               gint64            record,
                                               const char       *field,
                                               guint64           offset,
                                               const char       *format,
                                               ...) G_GNUC_PRINTF (9, 10);
void              mshed_diagnostics_append    (MshedDiagnostics *self,
                                               const MshedDiagnostics *other);
void              mshed_diagnostics_add_copy  (MshedDiagnostics *self,
                                               const MshedDiagnostic *item);
const MshedDiagnostic *mshed_diagnostics_find (const MshedDiagnostics *self,
                                               MshedCheck        check);
const MshedDiagnostic *mshed_diagnostics_find_error (const MshedDiagnostics *self,
                                               guint             from);
void              mshed_diagnostics_add_suppressed (MshedDiagnostics *self,
                                               MshedSeverity     severity,
                                               MshedCheck        check,
                                               guint             count);
char             *mshed_diagnostic_format     (const MshedDiagnostic *self);
void              mshed_diagnostic_append_format (GString               *s,
                                                  const MshedDiagnostic *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedDiagnostics, mshed_diagnostics_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedDiagnostic, mshed_diagnostic_free)

G_END_DECLS
