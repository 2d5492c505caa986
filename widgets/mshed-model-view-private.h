/* mshed-model-view-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the model view does for a deformable model only (mshed-model-view-dfm.c): picking on
 * the skinned positions, the bone-name labels of the skeleton overlay and the level chosen by
 * the camera distance.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-renderer.h"

G_BEGIN_DECLS

/* What is under widget point (@x, @y) of a @width x @height view (any unit, the same for
 * both): a ray from the camera through it against the drawn triangles. */
gboolean _mshed_model_view_dfm_pick   (MshedRenderer *renderer,
                                       int            width,
                                       int            height,
                                       double         x,
                                       double         y,
                                       MshedPick     *out);
/* The skeleton overlay's bone names, on top of what @widget drew. */
void     _mshed_model_view_dfm_labels (GtkWidget     *widget,
                                       MshedRenderer *renderer,
                                       GtkSnapshot   *snapshot);
/* The level drawn at the camera's distance when @framed_distance is the distance that
 * frames the model (docs/conventions.md "Posing a DFM"). */
guint    _mshed_model_view_dfm_level_for_camera (MshedRenderer *renderer,
                                       float          framed_distance);

G_END_DECLS
