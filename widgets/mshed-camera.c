/* mshed-camera.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "mshed-camera.h"

#define MAX_PITCH (89.0f * (float) G_PI / 180.0f)

void
mshed_camera_init (MshedCamera *self)
{
  glm_vec3_zero (self->target);
  self->distance = 5.0f;
  self->yaw = glm_rad (-60.0f);
  self->pitch = glm_rad (25.0f);
  self->fov_y = glm_rad (40.0f);
  self->scene_radius = 1.0f;
  self->up = MSHED_UP_Z;
}

void
mshed_camera_set_up (MshedCamera *self,
                     MshedUpAxis  up)
{
  self->up = up;
}

void
mshed_camera_up_vector (const MshedCamera *self,
                        vec3               out)
{
  if (self->up == MSHED_UP_Y)
    glm_vec3_copy ((vec3) { 0, 1, 0 }, out);
  else
    glm_vec3_copy ((vec3) { 0, 0, 1 }, out);
}

/* Unit vector from the target towards the eye. */
static void
eye_direction (const MshedCamera *self,
               vec3               out)
{
  float cp = cosf (self->pitch), sp = sinf (self->pitch);
  float cy = cosf (self->yaw), sy = sinf (self->yaw);

  if (self->up == MSHED_UP_Y)
    glm_vec3_copy ((vec3) { cp * sy, sp, cp * cy }, out);
  else
    glm_vec3_copy ((vec3) { cp * cy, cp * sy, sp }, out);
}

void
mshed_camera_eye (const MshedCamera *self,
                  vec3               out)
{
  vec3 dir;

  eye_direction (self, dir);
  glm_vec3_scale (dir, self->distance, dir);
  glm_vec3_add ((float *) self->target, dir, out);
}

void
mshed_camera_view (const MshedCamera *self,
                   mat4               out)
{
  vec3 eye, up;

  mshed_camera_eye (self, eye);
  mshed_camera_up_vector (self, up);
  glm_lookat (eye, (float *) self->target, up, out);
}

void
mshed_camera_projection (const MshedCamera *self,
                         float              aspect,
                         mat4               out)
{
  float r = MAX (self->scene_radius, 1e-6f);
  float far_plane = self->distance + 4.0f * r;
  float near_plane = MAX (self->distance - 4.0f * r, far_plane * 1e-4f);

  glm_perspective (self->fov_y, aspect > 0.0f ? aspect : 1.0f, near_plane, far_plane, out);
}

void
mshed_camera_orbit (MshedCamera *self,
                    float        dx,
                    float        dy,
                    int          viewport_height)
{
  float k = (float) G_PI / MAX (viewport_height, 1);

  self->yaw -= dx * k;
  self->pitch = CLAMP (self->pitch + dy * k, -MAX_PITCH, MAX_PITCH);
  self->yaw = fmodf (self->yaw, 2.0f * (float) G_PI);
}

void
mshed_camera_pan (MshedCamera *self,
                  float        dx,
                  float        dy,
                  int          viewport_height)
{
  float units = 2.0f * self->distance * tanf (self->fov_y / 2.0f) / MAX (viewport_height, 1);
  vec3 dir, up, right, cam_up;

  eye_direction (self, dir);
  mshed_camera_up_vector (self, up);
  glm_vec3_cross (up, dir, right);      /* dir points back at the eye: up x dir = right */
  glm_vec3_normalize (right);
  glm_vec3_cross (dir, right, cam_up);
  glm_vec3_normalize (cam_up);
  glm_vec3_muladds (right, -dx * units, self->target);
  glm_vec3_muladds (cam_up, dy * units, self->target);
}

void
mshed_camera_zoom (MshedCamera *self,
                   float        factor)
{
  if (!(factor > 0.0f) || !isfinite (factor))
    return;
  self->distance = CLAMP (self->distance * factor, self->scene_radius * 1e-3f + 1e-6f,
                          self->scene_radius * 1e3f + 1e3f);
}

void
mshed_camera_frame_sphere (MshedCamera *self,
                           const vec3   center,
                           float        radius,
                           float        aspect)
{
  float half_y = self->fov_y / 2.0f;
  float half_x = atanf (tanf (half_y) * (aspect > 0.0f ? aspect : 1.0f));
  float half = MIN (half_x, half_y);

  if (!(radius > 0.0f) || !isfinite (radius))
    radius = 1.0f;
  glm_vec3_copy ((float *) center, self->target);
  self->scene_radius = radius;
  self->distance = radius / sinf (half) * 1.05f;
}
