/* mshed-recompute.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Derived data computed from the geometry (docs/conventions.md says which parts the format
 * determines and which rules are ours):
 *
 *  - Slot geometry: the triangles of the slot's batches [batchStart, +batchCount) in batch
 *    order; batch triangle t uses Res6[indexStart + 3t + k] + baseVertex, k = 0..2 (a
 *    trailing indexCount % 3 remainder is ignored). Out-of-range indices/vertices are skipped.
 *  - Slot box (determined by the format): min/max of those vertices.
 *  - Slot sphere (ours): centre = box centre (float (min + max) * 0.5f), radius = the
 *    smallest float r with r² >= the largest squared distance (in double) to a vertex.
 *  - Header (ours): built from the posed model: every node draws the distinct vertices of the
 *    slots its cells name, moved by its world pose (docs/msh.md §7) at every whole frame (at most
 *    1024, spread evenly beyond) under both rotation conventions of §7.4; hull = the 8
 *    corners of their box, corner i taking the maximum on axis k when bit k of i is set;
 *    sphere around the box centre; capsule along the longest box axis (the first on ties)
 *    from its minimum to its maximum; both radii grown by one part in a million. A model
 *    without node records, or whose nodes draw nothing, uses the raw Res3 positions.
 *  - Descriptor mapping (ours): when a slot's triCount equals the number of triangles of its
 *    batches (and the range fits Res7), descriptor triStart + j is the slot's j-th triangle;
 *    otherwise the slot's descriptors are never recomputed.
 *  - Face normals (ours): (p1 − p0) × (p2 − p0) in double, normalised, quantised with C
 *    round() (docs/msh.md §5). A recompute keeps a stored normal within one step of the exact one.
 *  - Links (ours): two descriptors of one slot are neighbours across an edge (v_k, v_(k+1)
 *    mod 3) that exactly their two triangles share, corners compared by position (so split
 *    vertices still meet; an edge of three or more triangles links none, so links stay
 *    mutual). Regenerated: link k is the neighbour across edge k, 0xFFFF when none.
 *    Recomputed: a stored link that still names a triangle sharing an edge stays in its
 *    place, missing neighbours fill free places, their own edge's first; the partners of a
 *    changed link follow.
 *  - Vertex normals (ours): the normalised sum of the unnormalised (area-weighted) face
 *    normals of the triangles of every batch using the vertex; nw kept; unused vertices kept;
 *    a recompute keeps a stored normal within one step of the exact one.
 *  - Attributes (determined): attr1 and attr3 of the docs/msh.md §3 writer column; attr2 kept.
 *  - Frame map (determined): the §7.7 writer procedure.
 */
#pragma once

#include <glib.h>

#include "mshed-command.h"
#include "mshed-deps.h"
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

/* Writes the 40 bytes of a slot record at +8..+47 (AABB min, max, sphere centre, radius).
 * FALSE (and zeros) when the slot draws no vertex: then nothing determines its bounds. */
gboolean  mshed_compute_slot_bounds     (const MshedModel *model,
                                         guint             slot,
                                         guint8            out[40]);
/* The face normal of triangle (p0, p1, p2), encoded as Res7 stores it (zero when
 * degenerate). */
void      mshed_encode_face_normal      (const float       p0[3],
                                         const float       p1[3],
                                         const float       p2[3],
                                         gint16            out[3]);
/* Writes the 140-byte header. */
void      mshed_compute_header          (const MshedModel *model,
                                         guint8            out[140]);
/* Fills the descriptor records of @slot (triCount × 16 bytes, copied from the current ones,
 * then normals and/or links regenerated by the convention). FALSE when the mapping is
 * undefined. */
gboolean  mshed_compute_slot_descriptors (const MshedModel *model,
                                         guint             slot,
                                         gboolean          normals,
                                         gboolean          links,
                                         guint8           *out);
/* Descriptors @rows (sorted; n_rows × 16 bytes into @out, starting from the stored
 * records): face normals and/or links (@what) by the conventions, each row through the
 * first slot that maps it. @keep: keep what is still right (see above) instead of
 * regenerating. @mapped (nullable, n_rows) says which rows a slot maps; the others are left
 * as stored. @partners (nullable): links are mutual, so a descriptor outside @rows that a
 * row stopped or started linking gets its record (16 bytes, g_free) there, keyed by
 * GUINT_TO_POINTER (descriptor + 1), with that link removed or added into a free place.
 * Returns how many rows were mapped. */
guint     mshed_compute_descriptors     (const MshedModel *model,
                                         const guint      *rows,
                                         guint             n_rows,
                                         MshedDerived      what,
                                         gboolean          keep,
                                         guint8           *out,
                                         gboolean         *mapped,
                                         GHashTable       *partners);
/* Appends the descriptors of @slot whose triangles share an edge (by position) with that of
 * @descriptor. */
void      mshed_descriptor_neighbours   (const MshedModel *model,
                                         guint             slot,
                                         guint             descriptor,
                                         GArray           *out);
/* A copy of Res4 with recomputed vertex normals (NULL when Res3/Res4 are missing or their
 * counts differ); @keep keeps stored normals within one step of the computed ones. */
GBytes   *mshed_compute_vertex_normals  (const MshedModel *model,
                                         gboolean          keep);
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

/* Binary search in @rows (sorted ascending). */
gboolean  mshed_sorted_rows_contain     (const guint      *rows,
                                         guint             n_rows,
                                         guint             row);

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
