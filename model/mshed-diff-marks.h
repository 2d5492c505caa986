/* mshed-diff-marks.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compare window's ghost colours (docs/diff.md §7.1), worked out without any GL: which
 * triangles two render scenes draw are the same, moved, or drawn on one side only. The
 * geometry is paired through the diff's alignment (docs/diff.md §2): Parkan nodes by their
 * Res10 name, DFM face groups by their directory name; the triangles of a paired node or
 * group are matched by their world positions within the tolerance, so a node, triangle or
 * vertex inserted in the middle marks only itself.
 */
#pragma once

#include <glib.h>

#include "mshed-render-scene.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_DIFF_MARK_SAME,
  MSHED_DIFF_MARK_CHANGED,   /* moved: paired with a triangle of the other side that differs */
  MSHED_DIFF_MARK_ONLY,      /* drawn on this side only */
} MshedDiffMark;

/* Matches two lists of triangles, 9 floats each (three corners, x y z), keeping their order:
 * a triangle whose corners all lie within @tolerance of those of an unmatched triangle of the
 * other side (exactly the same floats when @tolerance is 0, as the diff compares vertices) is
 * MSHED_DIFF_MARK_SAME; the triangles left between two matched ones are paired in order as
 * far as they go (MSHED_DIFF_MARK_CHANGED) and the rest are MSHED_DIFF_MARK_ONLY. Fills
 * @marks_a[@na] and @marks_b[@nb]. */
void            mshed_diff_match_triangles        (const float          *a,
                                                   guint                 na,
                                                   const float          *b,
                                                   guint                 nb,
                                                   double                tolerance,
                                                   guint8               *marks_a,
                                                   guint8               *marks_b);

typedef struct {
  guint8 *triangles;    /* MshedDiffMark per triangle of the scene (its elements / 3);
                         * triangles the scene does not draw are MSHED_DIFF_MARK_SAME */
  guint   n_triangles;
  guint   counts[3];    /* drawn triangles per MshedDiffMark */
} MshedDiffSideMarks;

typedef struct {
  MshedDiffSideMarks sides[2];
} MshedDiffMarks;

/* The marks of what @a and @b draw now (their LOD and group, or DFM level, pose and time):
 * two Parkan scenes pair their nodes by name (all-batches scenes: all they draw as one),
 * two DFM scenes the face groups of their levels by name. */
MshedDiffMarks *mshed_diff_marks_new              (MshedRenderScene     *a,
                                                   MshedRenderScene     *b,
                                                   double                tolerance);
void            mshed_diff_marks_free             (MshedDiffMarks       *self);
/* One mark per vertex of @scene (side @side's), for a renderer that colours each triangle
 * by its corners (mshed_renderer_set_diff_marks): a vertex carries a mark when every drawn
 * triangle using it is marked (MSHED_DIFF_MARK_CHANGED when one of them is); a marked
 * triangle whose corners all touch unmarked triangles marks the corner touching fewest. */
guint8         *mshed_diff_marks_dup_vertex_marks (const MshedDiffMarks *self,
                                                   guint                 side,
                                                   MshedRenderScene     *scene,
                                                   guint                *n_vertices);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedDiffMarks, mshed_diff_marks_free)

G_END_DECLS
