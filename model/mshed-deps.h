/* mshed-deps.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The dependency matrix (docs/msh.md §10.3): which derived data each kind of edit makes stale.
 * Rows are edit kinds, columns are derived targets. The document marks cells of this matrix
 * as stale while commands run; the matrix itself is static and described here.
 */
#pragma once

#include <glib.h>

#include "mshed-model-types.h"

G_BEGIN_DECLS

/* What an edit changed. Every command classifies itself as exactly one kind per table it
 * touches; a hex keystroke is classified by the field its bytes fall in. */
typedef enum {
  MSHED_EDIT_MOVE_VERTICES = 0,  /* Res3 positions */
  MSHED_EDIT_VERTEX_NORMALS,     /* Res4 packed normals */
  MSHED_EDIT_UVS,                /* Res5 */
  MSHED_EDIT_VERTEX_COUNT,       /* Res3/4/5 record count (whole-payload replacement) */
  MSHED_EDIT_TOPOLOGY,           /* Res6 indices, Res13 index ranges / baseVertex, Res7 count */
  MSHED_EDIT_MATERIAL,           /* Res13 materialIndex */
  MSHED_EDIT_LOD_GROUP,          /* Res1 slot-matrix cells */
  MSHED_EDIT_SLOT_RANGES,        /* Res2 slot triStart/triCount/batchStart/batchCount */
  MSHED_EDIT_SLOT_ROWS,          /* insert / delete / duplicate / move slots */
  MSHED_EDIT_BATCH_ROWS,         /* insert / delete / duplicate / move batches */
  MSHED_EDIT_RENAME,             /* Res10 */
  MSHED_EDIT_NODE_ROWS,          /* insert / delete / duplicate / move nodes */
  MSHED_EDIT_HIERARCHY,          /* Res1 hdr1 */
  MSHED_EDIT_ANIMATION,          /* Res8 keys, Res19 words, hdr2, hdr3, frame count */
  MSHED_EDIT_DERIVED,            /* direct edit of derived values (bounds, face normals, links) */
  MSHED_EDIT_OPAQUE,             /* unknown fields, extra streams, opaque resources */
  MSHED_EDIT_DIRECTORY,          /* NRes type / attributes / entry name */
  MSHED_EDIT_RESOURCES,          /* add or remove a whole resource */
  /* Freelancer DFM in a UTF tree (docs/dfm.md §15.1); DERIVED and OPAQUE serve it too */
  MSHED_EDIT_DFM_POINTS,         /* Points */
  MSHED_EDIT_DFM_TOPOLOGY,       /* Tristrip_indices / Face_indices */
  MSHED_EDIT_DFM_ELEMENTS,       /* Point_indices, UV0/UV1_indices */
  MSHED_EDIT_DFM_SKIN,           /* Point_bone_first/count, Bone_id/weight_chain */
  MSHED_EDIT_DFM_UV,             /* UV0, UV1, the UV bone block's values, Vertex_normals */
  MSHED_EDIT_DFM_UV_VERTICES,    /* UV_vertex_id entries added or removed */
  MSHED_EDIT_DFM_GROUPS,         /* Group<n> directories added or removed */
  MSHED_EDIT_DFM_LEVELS,         /* Mesh<n> directories added or removed */
  MSHED_EDIT_DFM_BONES,          /* bone directories added, removed, moved or renamed; File name */
  MSHED_EDIT_DFM_MATERIALS,      /* material directories added or removed */
  MSHED_EDIT_DFM_JOINTS,         /* Cons records */
  MSHED_EDIT_UTF_TREE,           /* any other UTF entry added, removed, moved or renamed */
  MSHED_N_EDIT_KINDS
} MshedEditKind;

/* Derived data: the columns of the matrix. Flags, so a recompute can name several.
 *
 * Two kinds (docs/conventions.md): data the format determines (a slot's box is the box of
 * its vertices, NRes attributes follow docs/msh.md §3, the frame map follows the key times by
 * docs/msh.md §7.7), which a recompute reproduces exactly, so that an unmodified model stays
 * unchanged;
 * and data whose algorithm the format does not document (docs/msh.md §4.7, §10.5, §12), for
 * which mshed has conventions of its own. Conventions are applied only on an explicit
 * request, never as part of "recompute all", and only to the rows an edit made stale. */
typedef enum {
  MSHED_DERIVED_NONE           = 0,
  MSHED_DERIVED_SLOT_BOX       = 1 << 0,  /* Res2 slot AABB (rows: slots); determined */
  MSHED_DERIVED_SLOT_SPHERE    = 1 << 1,  /* Res2 slot sphere (rows: slots); convention */
  MSHED_DERIVED_HEADER_BOUNDS  = 1 << 2,  /* Res2 header hull, sphere, capsule; convention */
  MSHED_DERIVED_TRI_NORMALS    = 1 << 3,  /* Res7 face normals (rows: descriptors); convention */
  MSHED_DERIVED_TRI_LINKS      = 1 << 4,  /* Res7 neighbour links (rows: descriptors); convention */
  MSHED_DERIVED_VERTEX_NORMALS = 1 << 5,  /* Res4 from faces (optional); convention */
  MSHED_DERIVED_ATTRIBUTES     = 1 << 6,  /* NRes attr1..3 per docs/msh.md §3; determined */
  MSHED_DERIVED_ANIMATION_MAP  = 1 << 7,  /* Res19, frame count (docs/msh.md §7.7); determined */
  MSHED_DERIVED_BATCH_RANGES   = 1 << 8,  /* Res13 indexStart/indexCount/baseVertex: review */
  MSHED_DERIVED_SLOT_RANGES    = 1 << 9,  /* Res2 tri/batch ranges: review */
  MSHED_DERIVED_EXTRA_STREAMS  = 1 << 10, /* Res15/16/18 counts in step with Res3: review */
  /* Freelancer DFM (docs/dfm.md §15.1); rows are the scope index (mesh, part, bone) */
  MSHED_DERIVED_DFM_GROUP_COUNT    = 1 << 11, /* Face_groups/Count (rows: meshes); determined */
  MSHED_DERIVED_DFM_UV_VERTEX_COUNT = 1 << 12, /* UV_vertex_count (rows: meshes); determined */
  MSHED_DERIVED_DFM_PART_INDEX     = 1 << 13, /* a part's Index (rows: parts); determined */
  MSHED_DERIVED_DFM_MATERIAL_COUNT = 1 << 14, /* Material library/Material count; determined */
  MSHED_DERIVED_DFM_LOD_BITS       = 1 << 15, /* Lod Bits all or nothing (rows: bones);
                                               * determined */
  MSHED_DERIVED_DFM_FRACTIONS      = 1 << 16, /* one Fractions value per mesh; convention */
  MSHED_DERIVED_DFM_VERTEX_NORMALS = 1 << 17, /* Vertex_normals (rows: meshes; optional);
                                               * convention */
  MSHED_DERIVED_DFM_BONE_TO_ROOT   = 1 << 18, /* Bone to root from the Cons rest chain (rows:
                                               * bones); convention */
} MshedDerived;

#define MSHED_N_DERIVED 19
/* The targets of each format (a document only ever marks those of its own). */
#define MSHED_DERIVED_MSH ((MshedDerived) ((1u << 11) - 1))
#define MSHED_DERIVED_DFM \
  ((MshedDerived) (((1u << MSHED_N_DERIVED) - 1) & ~(guint) MSHED_DERIVED_MSH))
#define MSHED_DERIVED_SLOT_BOUNDS (MSHED_DERIVED_SLOT_BOX | MSHED_DERIVED_SLOT_SPHERE)
#define MSHED_DERIVED_BOUNDS (MSHED_DERIVED_SLOT_BOUNDS | MSHED_DERIVED_HEADER_BOUNDS)
/* What the format determines: a recompute reproduces an unmodified model exactly. */
#define MSHED_DERIVED_DETERMINED (MSHED_DERIVED_SLOT_BOX | MSHED_DERIVED_ATTRIBUTES | \
                                  MSHED_DERIVED_ANIMATION_MAP | MSHED_DERIVED_DFM_GROUP_COUNT | \
                                  MSHED_DERIVED_DFM_UV_VERTEX_COUNT | \
                                  MSHED_DERIVED_DFM_PART_INDEX | \
                                  MSHED_DERIVED_DFM_MATERIAL_COUNT | MSHED_DERIVED_DFM_LOD_BITS)
/* What only mshed's own conventions can recompute (explicit requests only). */
#define MSHED_DERIVED_CONVENTION (MSHED_DERIVED_SLOT_SPHERE | MSHED_DERIVED_HEADER_BOUNDS | \
                                  MSHED_DERIVED_TRI_NORMALS | MSHED_DERIVED_TRI_LINKS | \
                                  MSHED_DERIVED_VERTEX_NORMALS | MSHED_DERIVED_DFM_FRACTIONS | \
                                  MSHED_DERIVED_DFM_VERTEX_NORMALS | \
                                  MSHED_DERIVED_DFM_BONE_TO_ROOT)
/* What the document can recompute by itself. */
#define MSHED_DERIVED_RECOMPUTABLE (MSHED_DERIVED_DETERMINED | MSHED_DERIVED_CONVENTION)

/* The matrix: the derived data @kind invalidates. @optional (nullable) receives the part
 * that is stale only by choice (vertex normals after moving vertices). */
MshedDerived  mshed_deps_get                (MshedEditKind  kind,
                                             MshedDerived  *optional);
/* Translated explanation of one cell, e.g. "Moving vertices changes the bounding boxes and
 * spheres of the slots that draw them"; NULL when @kind does not invalidate @target. */
const char   *mshed_deps_describe           (MshedEditKind  kind,
                                             MshedDerived   target);
const char   *mshed_edit_kind_get_label     (MshedEditKind  kind);    /* translated */
const char   *mshed_edit_kind_get_name      (MshedEditKind  kind);    /* stable ASCII id */
const char   *mshed_derived_get_label       (MshedDerived   target);  /* one flag; translated */
const char   *mshed_derived_get_name        (MshedDerived   target);  /* stable ASCII id */
MshedTableId  mshed_derived_get_table       (MshedDerived   target);
gboolean      mshed_derived_is_recomputable (MshedDerived   target);
/* TRUE when @target (one flag) is recomputed by a convention of mshed's, not by the format. */
gboolean      mshed_derived_is_convention   (MshedDerived   target);
/* Index 0..MSHED_N_DERIVED-1 of a single flag, -1 when @target is not exactly one flag. */
gint          mshed_derived_get_index       (MshedDerived   target);

/* Which edit kind a change of @field in @table is (NULL field: the whole record). DFM tables
 * (MSHED_DFM_TABLE_ID) are classified too: a payload edit of that table's node. */
MshedEditKind mshed_deps_classify_field     (MshedTableId   table,
                                             const char    *field);

G_END_DECLS
