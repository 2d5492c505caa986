/* mshed-dfm-recompute.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Derived data of a deformable model (docs/dfm.md §15.1 lists every derived value, the edits
 * that make it stale and which function below recomputes it; docs/conventions.md "DFM" gives
 * mshed's own rules). Each function computes, from the current tree, the payload one derived
 * file should hold and returns it as new bytes, or NULL with an error that names the node path
 * when it cannot. "Is the stored value right" is a byte comparison with the stored payload.
 * The functions read the view's index: call mshed_dfm_refresh after an edit that adds, removes,
 * moves or renames nodes or changes a name payload, before calling them.
 *
 * Determined by the format (an unmodified retail-like file recomputes to its stored bytes):
 *  - Face_groups/Count of Mesh<level>: the number of Group<n> directories, u32 (§4).
 *  - UV_vertex_count of Mesh<level>: the number of UV_vertex_id entries, u32 (§6.4).
 *  - Index of part @part: the position of the bone directory its File name names, i32 (§8).
 *  - Material library/Material count: the number of directories in the library, u32 (§11).
 *  - Lod Bits of bone @bone: one byte, (1 << L) − 1 for L levels when the stored byte is not 0,
 *    0 when it is 0 or absent (absent means 0, §10.3); refused when L > 8 (§10.3, §15).
 *
 * mshed's conventions (applied on request only):
 *  - Fractions: one float per level. A level keeps a stored fraction: the one its directory
 *    name numbers (Mesh<k> keeps Fractions[k]) when every level's number is distinct and below
 *    the stored count, else the one at its position. Levels left without one continue the
 *    sequence: half the previous level's value. With no stored fraction at all: the retail sets
 *    1, 0.8, 0.6, 0.4, 0.2, 0.1 (6 levels) and 1, 0.8, 0.6, 0.2 (4 levels), else 1 − i / L.
 *  - Vertex_normals of Mesh<level>: per point, the normalised sum of the unnormalised
 *    (area-weighted) face normals (p1 − p0) × (p2 − p0), in double, of every triangle of every
 *    group of the level (strips unrolled, elements to points) that uses the point. Kept: a
 *    stored normal within 2⁻²⁰ of the computed one in every component, and the stored normal
 *    of a point no triangle uses (or whose sum is zero). P normals; a point past the stored
 *    ones that keeps its normal gets (0, 0, 0).
 *  - Bone to root of bone @bone from the Cons rest chain (§9.2 with q = p = 0): the top of the
 *    bone's chain (a bone with no parent: the root, a detached bone) keeps its stored Bone to
 *    root, and World_top = its inverse [Rᵀ | −Rᵀ·t] (§10.2); World_child = World_parent · L
 *    with L = T(parent point) · R(rotation) · T(−child point) for Sphere and T(position) ·
 *    R(rotation) for Loose and Fix; the result is InvBind = [Wᵀ | −Wᵀ·t] of World, computed in
 *    double. A Rev, Pris or Cyl joint on the chain is refused (§9.2 documents no rest frame
 *    for them). For heads and hands the rest chain reproduces the bind pose, for bodies it does
 *    not: this is a convention.
 */
#pragma once

#include <glib.h>

#include "mshed-dfm.h"

G_BEGIN_DECLS

/* A transform [R | t] in double: rows of R, then t; maps x to R·x + t (the layout of
 * `Bone to root`, docs/dfm.md §10.2). */
typedef struct {
  double r[9];
  double t[3];
} MshedDfmXform;

/* @out = @a · @b (@out may be @a or @b) */
void      mshed_dfm_xform_compose           (const MshedDfmXform *a,
                                             const MshedDfmXform *b,
                                             MshedDfmXform       *out);
/* [Rᵀ | −Rᵀ·t]: the inverse when R is a rotation (docs/dfm.md §10.2) */
void      mshed_dfm_xform_invert            (const MshedDfmXform *a,
                                             MshedDfmXform       *out);

/* Determined by the format */
GBytes   *mshed_dfm_compute_group_count     (const MshedDfm *dfm,
                                             guint           level,
                                             GError        **error);
GBytes   *mshed_dfm_compute_uv_vertex_count (const MshedDfm *dfm,
                                             guint           level,
                                             GError        **error);
GBytes   *mshed_dfm_compute_part_index      (const MshedDfm *dfm,
                                             guint           part,
                                             GError        **error);
GBytes   *mshed_dfm_compute_material_count  (const MshedDfm *dfm,
                                             GError        **error);
GBytes   *mshed_dfm_compute_lod_bits        (const MshedDfm *dfm,
                                             guint           bone,
                                             GError        **error);

/* mshed's conventions */
GBytes   *mshed_dfm_compute_fractions       (const MshedDfm *dfm,
                                             GError        **error);
GBytes   *mshed_dfm_compute_vertex_normals  (const MshedDfm *dfm,
                                             guint           level,
                                             GError        **error);
GBytes   *mshed_dfm_compute_bone_to_root    (const MshedDfm *dfm,
                                             guint           bone,
                                             GError        **error);

/* By schema table: @table one of GROUP_COUNT, UV_VERTEX_COUNT, PART_INDEX, MATERIAL_COUNT,
 * LOD_BITS, FRACTIONS, VERTEX_NORMALS, BONE_TO_ROOT; @a the level, part or bone its scope
 * needs (ignored otherwise). Any other table is refused. */
gboolean  mshed_dfm_table_is_derived        (MshedDfmTable   table,
                                             gboolean       *determined);
GBytes   *mshed_dfm_compute_derived         (const MshedDfm *dfm,
                                             MshedDfmTable   table,
                                             guint           a,
                                             GError        **error);

G_END_DECLS
