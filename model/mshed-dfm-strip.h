/* mshed-dfm-strip.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Triangle strips of Freelancer deformable models (docs/dfm.md §5): unrolling a stored strip
 * into triangles with the position-parity and degenerate-skipping rule (§5.1), and our own
 * encoder from a triangle list back to a strip (§5.3) that unrolls to exactly the same
 * triangles, corner order and winding included. Pure functions over little-endian u16 bytes.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  MSHED_DFM_STRIP_SAFE = 0,       /* docs/dfm.md §5.3 as written: every triangle its own run */
  MSHED_DFM_STRIP_JOIN = 1 << 0,  /* continue a run with one index when the next triangle
                                   * starts with the last edge in the order the parity gives */
} MshedDfmStripFlags;

gsize    mshed_dfm_strip_count_triangles (const guint8       *indices,
                                          gsize               n_indices);
gsize    mshed_dfm_strip_unroll          (const guint8       *indices,
                                          gsize               n_indices,
                                          guint16            *triangles);
gsize    mshed_dfm_strip_window          (const guint8       *indices,
                                          gsize               n_indices,
                                          gsize               triangle);
gsize    mshed_dfm_strip_unroll_windows  (const guint8       *indices,
                                          gsize               n_indices,
                                          guint16            *triangles,
                                          gsize              *windows);
gsize    mshed_dfm_list_unroll           (const guint8       *indices,
                                          gsize               n_indices,
                                          guint16            *triangles);
GBytes  *mshed_dfm_strip_encode          (const guint16      *triangles,
                                          gsize               n_triangles,
                                          MshedDfmStripFlags  flags,
                                          gsize              *n_dropped);

G_END_DECLS
