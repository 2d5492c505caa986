/* mshed-dfm-pose.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A deformable model's skeleton and a pose of it, worked out without GL (docs/dfm.md §6.3,
 * §9, §10; the pose rules are mshed's own, docs/conventions.md "Posing a DFM"):
 *
 *  - the bones with their bind transforms (the inverse of `Bone to root`, §10.2) and parents
 *    from Cons (§9);
 *  - one joint per bone that has a parent, named by the child's Object name, with its degrees
 *    of freedom and their limits: Fix none; Rev one turn about its axis; Pris one slide along
 *    it; Cyl a slide and a turn; Sphere three turns about the parent's x, y and z at the
 *    parent point; Loose three turns and three slides, free;
 *  - a pose: one value per degree of freedom (radians or model units), always clamped to its
 *    limits; the world transform of every bone and the skinning transform
 *    S_j = Pose_j · InvBind_j; skinned points and normals of a level.
 *
 * Transforms are 3×4 affine matrices in the layout of `Bone to root`: the rows of the 3×3
 * part, then the translation. The pose is a copy: it does not follow later edits of the DFM.
 */
#pragma once

#include <glib.h>

#include "mshed-dfm.h"

G_BEGIN_DECLS

#define MSHED_DFM_MAX_DOF 6

typedef enum {
  MSHED_DFM_DOF_TURN,        /* radians */
  MSHED_DFM_DOF_SLIDE,       /* model units */
} MshedDfmDofKind;

typedef struct {
  MshedDfmDofKind kind;
  gboolean        limited;   /* FALSE: free (turns: ±π; slides: unbounded) */
  float           min;
  float           max;
} MshedDfmDof;

typedef struct {
  const char       *name;          /* the child's Object name */
  MshedDfmJointKind kind;
  guint             record;        /* index for mshed_dfm_get_joint */
  guint             bone;          /* the bone it moves */
  guint             parent_bone;
  guint             n_dof;
  MshedDfmDof       dof[MSHED_DFM_MAX_DOF];
} MshedDfmPoseJoint;

typedef struct _MshedDfmPose MshedDfmPose;

MshedDfmPose            *mshed_dfm_pose_new          (const MshedDfm     *dfm);
void                     mshed_dfm_pose_free         (MshedDfmPose       *self);

guint                    mshed_dfm_pose_get_n_joints (const MshedDfmPose *self);
const MshedDfmPoseJoint *mshed_dfm_pose_get_joint    (const MshedDfmPose *self,
                                                      guint               joint);
/* The joint named @name (ignoring case), or -1. */
gint                     mshed_dfm_pose_find_joint   (const MshedDfmPose *self,
                                                      const char         *name);
gint                     mshed_dfm_pose_find_bone_joint (const MshedDfmPose *self,
                                                      guint               bone);

/* Sets a degree of freedom, clamped to its limits; returns the value kept (0 when the joint
 * or the degree of freedom does not exist). */
float                    mshed_dfm_pose_set_value    (MshedDfmPose       *self,
                                                      guint               joint,
                                                      guint               dof,
                                                      float               value);
float                    mshed_dfm_pose_get_value    (const MshedDfmPose *self,
                                                      guint               joint,
                                                      guint               dof);
void                     mshed_dfm_pose_reset        (MshedDfmPose       *self);
gboolean                 mshed_dfm_pose_is_bind      (const MshedDfmPose *self);
/* Copies the values of the joints that have the same name and kind in @from. */
void                     mshed_dfm_pose_copy_values  (MshedDfmPose       *self,
                                                      const MshedDfmPose *from);

guint                    mshed_dfm_pose_get_n_bones  (const MshedDfmPose *self);
/* The bone's frame in model space in this pose (its bind transform in the bind pose). */
const float             *mshed_dfm_pose_get_world    (MshedDfmPose       *self,
                                                      guint               bone);
/* S_j = Pose_j · InvBind_j (the identity in the bind pose). */
const float             *mshed_dfm_pose_get_skin     (MshedDfmPose       *self,
                                                      guint               bone);
void                     mshed_dfm_pose_transform_point (const float      m[12],
                                                      const float         in[3],
                                                      float               out[3]);

/* Skins point @point of @level (docs/dfm.md §6.3). FALSE when the point cannot be read;
 * a point without a readable skin slice, and any influence naming no bone, stays put. */
gboolean                 mshed_dfm_pose_skin_point   (MshedDfmPose       *self,
                                                      const MshedDfm     *dfm,
                                                      guint               level,
                                                      guint               point,
                                                      float               position[3],
                                                      float               normal[3]);

/* The level drawn at @detail (1: nearest, full detail; towards 0: farther): the last level,
 * in order, whose fraction is at least @detail; level 0 when none or no fractions. */
guint                    mshed_dfm_level_for_detail  (const MshedDfm     *dfm,
                                                      float               detail);

G_END_DECLS
