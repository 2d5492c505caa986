/* mshed-recompute.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Derived data computed from the geometry. The spec leaves several conventions open
 * (msh.md §10.5, §12); ours, which the bundled generator follows too, are:
 *
 *  - Slot geometry: the triangles of the slot's batches [batchStart, +batchCount) in batch
 *    order; batch triangle t uses Res6[indexStart + 3t + k] + baseVertex, k = 0..2 (a
 *    trailing indexCount % 3 remainder is ignored). Out-of-range indices/vertices are skipped.
 *  - Slot AABB: min/max of those vertices. Sphere: centre = AABB centre (float
 *    (min + max) * 0.5f), radius = the smallest float r with r² >= the largest squared
 *    distance (computed in double) from the centre to any of them. No vertex: all zeros.
 *  - Header (all Res3 vertices): hull = the 8 corners of their AABB, corner i taking the
 *    maximum on axis k (x = 0, y = 1, z = 2) when bit k of i is set, else the minimum;
 *    sphere as for a slot; capsule: axis = the longest AABB extent (the first on ties),
 *    A and B = the AABB centre with that coordinate set to the minimum and the maximum, radius
 *    = the smallest float covering the largest distance of a vertex to the axis line (every
 *    vertex projects inside [A, B], so the capsule contains the geometry).
 *  - Descriptors: slot s owns Res7 [triStart, +triCount). When triCount equals the number of
 *    triangles of the slot's batches (and the range fits Res7), descriptor triStart + j is the
 *    j-th triangle of the slot geometry above; otherwise the mapping is undefined and that
 *    slot's descriptors are never recomputed.
 *  - Face normal: n = (p1 − p0) × (p2 − p0) in double, normalised, encoded with
 *    mshed_encode_tri_normal (zero for a degenerate triangle).
 *  - Links: link k is the neighbour across edge (v_k, v_(k+1) mod 3): the lowest other
 *    descriptor of the same slot whose triangle has the same two vertex numbers (after adding
 *    baseVertex) in either direction; 0xFFFF when there is none.
 *  - Vertex normals: the normalised sum of the unnormalised (area-weighted) face normals of
 *    every valid triangle of every batch that uses the vertex, encoded with
 *    mshed_encode_normal; the fourth byte (nw) is kept; vertices no triangle uses are kept.
 *  - Attributes: the msh.md §3 "writer" column; types without one are kept.
 */
#pragma once

#include <glib.h>

#include "mshed-command.h"
#include "mshed-model.h"

G_BEGIN_DECLS

/* Calls @func for every triangle of slot @slot in the order above; @ordinal counts every
 * triangle (valid or not), @valid is FALSE when an index or vertex is out of range. */
typedef void (*MshedTriangleFunc) (guint          ordinal,
                                   guint          batch,
                                   guint          tri_in_batch,
                                   const guint32  v[3],
                                   gboolean       valid,
                                   gpointer       user_data);

guint     mshed_slot_foreach_triangle   (const MshedModel *model,
                                         guint             slot,
                                         MshedTriangleFunc func,
                                         gpointer          user_data);
/* TRUE when the descriptor <-> triangle mapping of @slot is defined (see above). */
gboolean  mshed_slot_has_tri_mapping    (const MshedModel *model,
                                         guint             slot);

/* Writes the 40 bytes of a slot record at +8..+47 (AABB min, max, sphere centre, radius). */
void      mshed_compute_slot_bounds     (const MshedModel *model,
                                         guint             slot,
                                         guint8            out[40]);
/* Writes the 140-byte header. */
void      mshed_compute_header          (const MshedModel *model,
                                         guint8            out[140]);
/* Fills the descriptor records of @slot (triCount × 16 bytes, copied from the current ones,
 * then normals and/or links replaced). FALSE when the mapping is undefined. */
gboolean  mshed_compute_slot_descriptors (const MshedModel *model,
                                         guint             slot,
                                         gboolean          normals,
                                         gboolean          links,
                                         guint8           *out);
/* A copy of Res4 with recomputed vertex normals (NULL when Res3/Res4 are missing or their
 * counts differ). */
GBytes   *mshed_compute_vertex_normals  (const MshedModel *model);
/* The writer-column attributes of entry @res_index. FALSE: the type has none (preserve). */
gboolean  mshed_compute_attributes      (const MshedModel *model,
                                         guint             res_index,
                                         MshedEntryHeader *header);
/* The §7.7 writer procedure for Res19 from the key times and tracks: the new Res19 payload,
 * frame count, and each node's hdr2. FALSE (with @error) when the tracks are not canonical. */
gboolean  mshed_compute_animation_map   (const MshedModel *model,
                                         GBytes          **res19,
                                         guint32          *frame_count,
                                         guint16         **hdr2,
                                         GError          **error);

/* Reverse geometry index used to mark stale rows: vertex -> triangles -> slots and
 * descriptors. Built in one pass over the index data; valid until topology changes. */
typedef struct _MshedGeomIndex MshedGeomIndex;

MshedGeomIndex *mshed_geom_index_new    (const MshedModel *model);
void      mshed_geom_index_free         (MshedGeomIndex   *self);
gsize     mshed_geom_index_get_memory_size (const MshedGeomIndex *self);
/* Appends (guint) the slots drawing @vertex, the descriptors mapped to its triangles and the
 * vertices sharing a triangle with it (itself included). Any array may be NULL. */
void      mshed_geom_index_vertex_users (const MshedGeomIndex *self,
                                         guint             vertex,
                                         GArray           *slots,
                                         GArray           *descriptors,
                                         GArray           *vertices);
/* Appends the slots whose batch range contains @batch, and their descriptor rows that map to
 * its triangles (NULL arrays allowed). */
void      mshed_geom_index_batch_users  (const MshedGeomIndex *self,
                                         guint             batch,
                                         GArray           *slots,
                                         GArray           *descriptors);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedGeomIndex, mshed_geom_index_free)

G_END_DECLS
