/* mshed-camera.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An orbit camera: a target, a distance, yaw around the up axis and pitch above the ground
 * plane. Matrices are cglm's (column-major). MSH states no axis convention (docs/msh.md §12.7), so
 * the up axis is a choice.
 */
#pragma once

#include <glib.h>
#include <cglm/cglm.h>

G_BEGIN_DECLS

typedef enum {
  MSHED_UP_Z,
  MSHED_UP_Y,
} MshedUpAxis;

typedef struct {
  vec3        target;
  float       distance;
  float       yaw;           /* radians around the up axis */
  float       pitch;         /* radians above the ground plane, within ±89° */
  float       fov_y;         /* radians */
  float       scene_radius;  /* sets the clip planes */
  MshedUpAxis up;
} MshedCamera;

void     mshed_camera_init         (MshedCamera *self);
void     mshed_camera_set_up       (MshedCamera *self,
                                    MshedUpAxis  up);
void     mshed_camera_up_vector    (const MshedCamera *self,
                                    vec3         out);
void     mshed_camera_eye          (const MshedCamera *self,
                                    vec3         out);
void     mshed_camera_view         (const MshedCamera *self,
                                    mat4         out);
void     mshed_camera_projection   (const MshedCamera *self,
                                    float        aspect,
                                    mat4         out);
/* Drag in pixels: a full viewport height turns by about 180°. */
void     mshed_camera_orbit        (MshedCamera *self,
                                    float        dx,
                                    float        dy,
                                    int          viewport_height);
/* Drag in pixels: the point under the cursor at the target's depth follows it. */
void     mshed_camera_pan          (MshedCamera *self,
                                    float        dx,
                                    float        dy,
                                    int          viewport_height);
/* factor < 1 moves closer. */
void     mshed_camera_zoom         (MshedCamera *self,
                                    float        factor);
/* Fit a sphere into the view (both directions, for the given aspect). */
void     mshed_camera_frame_sphere (MshedCamera *self,
                                    const vec3   center,
                                    float        radius,
                                    float        aspect);

G_END_DECLS
