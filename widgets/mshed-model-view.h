/* mshed-model-view.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The 3D preview: a GtkGLArea drawing the document's model with MshedRenderer (OpenGL 3.3
 * core), as the runtime would draw it. It observes the document's `changed` signal and
 * re-uploads only what an edit touched, animates by a tick callback, moves the camera with
 * mouse and keyboard, and reports clicks as `picked`. With the skeleton overlay on, a DFM's
 * bones are named at their joints.
 *
 * Mouse: drag with the primary button to orbit, with the middle or secondary button (or
 * Shift + primary) to pan, scroll to zoom; a click picks. Keys: arrows orbit (Shift: pan),
 * +/- zoom, Home frames everything, F frames the selection, Space plays or pauses, comma
 * and period step one frame.
 *
 * Signals:
 *  - picked (guint node, guint slot, guint batch, guint descriptor): a click hit a triangle
 *    (G_MAXUINT for each when it hit nothing; descriptor is the Res7 row by the slot's
 *    descriptor mapping, G_MAXUINT where it is undefined). Details of the last pick:
 *    mshed_model_view_get_last_pick(). For a DFM: the face group as batch, node, slot and
 *    descriptor G_MAXUINT; the pick is made on the skinned positions drawn.
 * Actions (for menus and toggle buttons): view.shaded, view.wireframe, view.normals,
 *  view.uv-checker, view.slot-boxes, view.slot-spheres, view.hull, view.header-sphere,
 *  view.capsule, view.grid, view.axes, view.materials, view.stale-bounds, view.playing
 *  (stateful, bound to the properties of the same name, with "show-" in front for the
 *  overlays), view.frame-all, view.frame-selection.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"
#include "mshed-renderer.h"
#include "mshed-selection.h"

G_BEGIN_DECLS

#define MSHED_TYPE_MODEL_VIEW (mshed_model_view_get_type ())
G_DECLARE_FINAL_TYPE (MshedModelView, mshed_model_view, MSHED, MODEL_VIEW, GtkGLArea)

GtkWidget     *mshed_model_view_new               (void);

void           mshed_model_view_set_document      (MshedModelView       *self,
                                                   MshedDocument        *document);
MshedDocument *mshed_model_view_get_document      (MshedModelView       *self);
/* A deformable model instead of the document's model (docs/dfm.md), drawn skinned by the
 * renderer scene's pose; NULL: none. */
void           mshed_model_view_set_dfm           (MshedModelView       *self,
                                                   MshedDfm             *dfm);
/* The pose changed (or with @topology, the DFM itself): skin again and redraw. */
void           mshed_model_view_dfm_changed       (MshedModelView       *self,
                                                   gboolean              topology);

/* A DFM's level: @level by hand, or -1 (the default) by the camera distance through the
 * level fractions (docs/dfm.md §3, docs/conventions.md "Posing a DFM"). The level drawn is
 * the property dfm-drawn-level. */
void           mshed_model_view_set_dfm_level     (MshedModelView       *self,
                                                   gint                  level);
gint           mshed_model_view_get_dfm_level     (MshedModelView       *self);
guint          mshed_model_view_get_dfm_drawn_level (MshedModelView     *self);

void           mshed_model_view_set_lod           (MshedModelView       *self,
                                                   guint                 lod);
guint          mshed_model_view_get_lod           (MshedModelView       *self);
void           mshed_model_view_set_group         (MshedModelView       *self,
                                                   guint                 group);
guint          mshed_model_view_get_group         (MshedModelView       *self);
void           mshed_model_view_set_frame         (MshedModelView       *self,
                                                   double                frame);
double         mshed_model_view_get_frame         (MshedModelView       *self);
/* Res19.attr2; 1 for a static model. */
guint          mshed_model_view_get_frame_count   (MshedModelView       *self);
void           mshed_model_view_set_playing       (MshedModelView       *self,
                                                   gboolean              playing);
gboolean       mshed_model_view_get_playing       (MshedModelView       *self);
void           mshed_model_view_set_overlays      (MshedModelView       *self,
                                                   MshedOverlays         overlays);
MshedOverlays  mshed_model_view_get_overlays      (MshedModelView       *self);

/* The linked-views selection (nodes, slots, batches, Res7 descriptors), highlighted. */
void           mshed_model_view_set_selection     (MshedModelView       *self,
                                                   const MshedSelection *selection);
void           mshed_model_view_set_selected_vertices (MshedModelView   *self,
                                                   const guint          *vertices,
                                                   guint                 n_vertices);
void           mshed_model_view_set_node_visible  (MshedModelView       *self,
                                                   guint                 node,
                                                   gboolean              visible);
gboolean       mshed_model_view_get_node_visible  (MshedModelView       *self,
                                                   guint                 node);

void           mshed_model_view_frame_all         (MshedModelView       *self);
gboolean       mshed_model_view_frame_selection   (MshedModelView       *self);

/* What is under widget point (@x, @y); needs the widget realized. Also emits nothing. */
gboolean       mshed_model_view_pick              (MshedModelView       *self,
                                                   double                x,
                                                   double                y,
                                                   MshedPick            *out);
const MshedPick *mshed_model_view_get_last_pick   (MshedModelView       *self);

/* The current view rendered at @width x @height pixels (0: the widget's size). Uses the
 * widget's GL context when realized, an offscreen EGL context otherwise. */
GdkTexture    *mshed_model_view_render_texture    (MshedModelView       *self,
                                                   int                   width,
                                                   int                   height,
                                                   GError              **error);
gboolean       mshed_model_view_save_png          (MshedModelView       *self,
                                                   const char           *path,
                                                   GError              **error);

/* The renderer behind the view (camera, statistics); owned by the view. */
MshedRenderer *mshed_model_view_get_renderer      (MshedModelView       *self);

G_END_DECLS
