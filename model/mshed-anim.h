/* mshed-anim.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Node poses by the runtime's rules (docs/msh.md §7): the frame index, key selection through
 * hdr2/hdr3 and Res19, sampling with the runtime's quaternion interpolation, the pose
 * matrix under either rotation convention, and composition down the parent links.
 *
 * Everything is bounds-checked where the runtime checks nothing: an out-of-range map word,
 * key or parent falls back (to the fallback key, to the identity, to a root) and is reported
 * in the MshedAnimIssue flags, never read.
 *
 * Matrices are float[16], column-major (the layout of cglm's mat4 and of OpenGL), acting on
 * column vectors: m[col * 4 + row].
 */
#pragma once

#include <glib.h>

#include "mshed-model.h"

G_BEGIN_DECLS

#define MSHED_ANIM_NO_KEY G_MAXUINT

/* §7.4: how a quaternion q rotates, with R(q) the usual active rotation for column vectors. */
typedef enum {
  MSHED_ROTATION_FPARKAN,   /* v -> R(q) v + t   (fparkan HEAD; the default) */
  MSHED_ROTATION_RUNTIME,   /* v -> R(q)^T v + t (the runtime's matrix read literally) */
} MshedRotationConvention;

typedef enum {
  MSHED_KEY_SOURCE_NONE,      /* no usable key: identity pose */
  MSHED_KEY_SOURCE_FALLBACK,  /* Res8[hdr3], exactly */
  MSHED_KEY_SOURCE_MAP,       /* Res8[map word], maybe interpolated towards the next key */
} MshedKeySource;

typedef enum {
  MSHED_ANIM_ISSUE_NONE           = 0,
  MSHED_ANIM_ISSUE_NO_NODE        = 1 << 0,  /* node record missing (legacy or short Res1) */
  MSHED_ANIM_ISSUE_MAP_RANGE      = 1 << 1,  /* hdr2 + frame past the end of Res19 */
  MSHED_ANIM_ISSUE_NEXT_KEY_RANGE = 1 << 2,  /* map word + 1 past the end of Res8 */
  MSHED_ANIM_ISSUE_FALLBACK_RANGE = 1 << 3,  /* hdr3 past the end of Res8 */
  MSHED_ANIM_ISSUE_BAD_TIME       = 1 << 4,  /* key times give no finite interpolation factor */
  MSHED_ANIM_ISSUE_PARENT_RANGE   = 1 << 5,  /* hdr1 >= node count: treated as a root */
  MSHED_ANIM_ISSUE_PARENT_CYCLE   = 1 << 6,  /* hdr1 chain loops: treated as a root */
  MSHED_ANIM_ISSUE_PARENT_FORWARD = 1 << 7,  /* hdr1 > node (resolved, but not runtime order) */
} MshedAnimIssue;

typedef struct {
  MshedKeySource source;
  guint          key;       /* k0; MSHED_ANIM_NO_KEY for SOURCE_NONE */
  guint          next_key;  /* k1 when interpolating, else == key */
  float          alpha;     /* interpolation factor; 0 when the pose is exactly k0 */
  gint32         frame;     /* §7.1 frame index of t */
  MshedAnimIssue issues;
} MshedKeyChoice;

typedef struct {
  float q[4];    /* runtime order w, x, y, z; as sampled (not normalised) */
  float pos[3];
} MshedPose;

typedef struct {
  MshedRotationConvention convention;
  gboolean                normalise;  /* §7.8: normalise q for the preview (the runtime does
                                       * not); an all-zero q is the identity either way */
} MshedPoseOptions;

/* §7.1: lrintf (t - 0.5f), exact halves to even. */
gint32   mshed_anim_frame_index       (float                    t);

/* Stored x, y, z, w (s16) -> runtime w, x, y, z (/ 32767, not normalised). */
void     mshed_quat_from_stored       (const gint16             stored[4],
                                       float                    wxyz[4]);
/* §7.3 interp (FastProc 17/22): slerp with a linear branch, result not renormalised. */
void     mshed_quat_interp            (const float              q0[4],
                                       const float              q1[4],
                                       float                    a,
                                       float                    out[4]);
/* §7.4: the affine map v -> Rot(q) v + t as a column-major 4x4. An all-zero q is the
 * identity rotation; @normalise divides q by its length first. */
void     mshed_pose_matrix            (const float              q[4],
                                       const float              t[3],
                                       MshedRotationConvention  convention,
                                       gboolean                 normalise,
                                       float                    out[16]);
/* out = a * b (column-major; apply b first). @out may alias neither input. */
void     mshed_mat4_mul               (const float              a[16],
                                       const float              b[16],
                                       float                    out[16]);
void     mshed_mat4_identity          (float                    out[16]);

void     mshed_pose_options_init      (MshedPoseOptions        *options);

/* §7.2: which key(s) node @node uses at time @t. */
void     mshed_anim_select_key        (const MshedModel        *model,
                                       guint                    node,
                                       float                    t,
                                       MshedKeyChoice          *choice);
/* §7.3: the local pose of @node at @t. Returns FALSE (and the identity pose) when no key
 * can be used; @choice (nullable) says what was used and why. */
gboolean mshed_anim_sample_node       (const MshedModel        *model,
                                       guint                    node,
                                       float                    t,
                                       MshedPose               *pose,
                                       MshedKeyChoice          *choice);

/* §7.5: world[n] = world[parent] * local[n] for @n_nodes nodes, roots where parents[n] is
 * MSHED_NONE. An out-of-range parent or a cycle makes the node a root (flagged in @issues,
 * nullable, one per node); a forward parent without a cycle is resolved. */
void     mshed_anim_compose_hierarchy (const float             *local,
                                       const guint16           *parents,
                                       guint                    n_nodes,
                                       float                   *world,
                                       MshedAnimIssue          *issues);
/* All of the above for every node of @model at @t: fills @world (16 floats per node) for
 * min(@n_world, node count) nodes and returns the model's node count. @options nullable
 * (defaults: fparkan convention, normalised). @issues nullable, one per written node. */
guint    mshed_anim_compute_world     (const MshedModel        *model,
                                       float                    t,
                                       const MshedPoseOptions  *options,
                                       float                   *world,
                                       guint                    n_world,
                                       MshedAnimIssue          *issues);

G_END_DECLS
