/* quads-model.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hand-built model of the render and model-view tests: three unit quads in the y = 0
 * plane, facing a camera on -y.
 *   node 0 (root, key (0, 0, 0.5)):
 *     lod 0 group 0 -> slot 0 -> batch 0: quad A, x -2..-1, z -1..1 (local)
 *     lod 0 group 1 -> slot 3 -> batches 3..5: 3 index range past Res6, 4 one triangle of
 *                                 quad C (the other has a vertex past Res3), 5 too short
 *     lod 0 group 2 -> slot 99 (no such slot)
 *     lod 1 group 0 -> slot 2 -> batch 2: quad C, x -2..-1.5, z -0.5..0
 *   node 1 (child of 0, keys (1.5, 0, 0) at t 0 and (1.5, 0, -1) at t 2, 3 frames):
 *     lod 0 group 0 -> slot 1 -> batch 1: quad B, x -0.5..0.5, z -1..1 (stored AABB stale)
 *     lod 0 group 1 -> slot 4 -> batches 5..7, past the end of Res13
 * All quad batches share Res6[0..5] = 0 1 2 0 2 3 through baseVertex 0, 4, 8; each slot owns
 * the Res7 descriptors of its batches' triangles in order (slot 1: descriptors 2, 3).
 */
#pragma once

#include <glib.h>

#include "mshed-model.h"

G_BEGIN_DECLS

/* @node_stride: 38, or 24 for the legacy node records */
GBytes     *build_model_bytes (guint node_stride);
MshedModel *build_model       (guint node_stride);

G_END_DECLS
