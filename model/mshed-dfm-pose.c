/* mshed-dfm-pose.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * World_child = World_parent · D · InvBind_parent · Bind_child, where D is the joint's motion
 * in the parent bone's space (docs/conventions.md "Posing a DFM"): the rest between two bones
 * is taken from the bind pose (docs/dfm.md §10.2), not from the Cons rest, which differs for
 * bodies (§9.2), so the bind pose leaves every point where it is stored.
 */
#define G_LOG_DOMAIN "mshed-dfm"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-dfm-pose.h"

typedef struct {
  float bind[12];
  float inv_bind[12];
  gint  parent;
  gint  joint;          /* the joint moving this bone, -1 */
} PoseBone;

typedef struct {
  MshedDfmPoseJoint pub;
  char              name[65];
  float             position[3];
  float             offset[3];
  float             rotation[9];
  float             axis[3];     /* rotation · axis, normalised; 0 when degenerate */
  float             values[MSHED_DFM_MAX_DOF];
} PoseJoint;

struct _MshedDfmPose {
  guint      n_bones;
  PoseBone  *bones;
  GArray    *joints;       /* PoseJoint */
  gboolean   dirty;
  float     *world;        /* 12 per bone */
  float     *skin;         /* 12 per bone */
};

static const float identity[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };

/* Affine 3×4 helpers -------------------------------------------------------------------- */

static void
aff_mul (const float a[12],
         const float b[12],
         float       out[12])
{
  float r[12];

  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 3; j++)
        r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
      r[9 + i] = a[3 * i] * b[9] + a[3 * i + 1] * b[10] + a[3 * i + 2] * b[11] + a[9 + i];
    }
  memcpy (out, r, sizeof r);
}

/* rotation by @angle about the unit @axis (Rodrigues) */
static void
aff_turn (const float axis[3],
          float       angle,
          float       out[12])
{
  float c = cosf (angle), s = sinf (angle), k = 1.0f - c;
  float x = axis[0], y = axis[1], z = axis[2];

  out[0] = c + x * x * k;      out[1] = x * y * k - z * s;  out[2] = x * z * k + y * s;
  out[3] = y * x * k + z * s;  out[4] = c + y * y * k;      out[5] = y * z * k - x * s;
  out[6] = z * x * k - y * s;  out[7] = z * y * k + x * s;  out[8] = c + z * z * k;
  out[9] = out[10] = out[11] = 0.0f;
}

/* T(p) · M · T(−p): @m (a pure rotation) about the point @p */
static void
aff_about (const float m[12],
           const float p[3],
           float       out[12])
{
  memcpy (out, m, 9 * sizeof (float));
  for (guint i = 0; i < 3; i++)
    out[9 + i] = p[i] - (m[3 * i] * p[0] + m[3 * i + 1] * p[1] + m[3 * i + 2] * p[2]) + m[9 + i];
}

/* the exact inverse of @m, in double precision; FALSE when singular. A stored rotation is
 * rarely orthonormal to the last bit, and its transpose (docs/dfm.md §10.2) would leave
 * S = Bind · InvBind off the identity by its rounding; the inverse keeps the bind pose exact. */
static gboolean
aff_invert (const float m[12],
            float       out[12])
{
  double a[9], inv[9], det;

  for (guint i = 0; i < 9; i++)
    a[i] = m[i];
  inv[0] = a[4] * a[8] - a[5] * a[7];
  inv[1] = a[2] * a[7] - a[1] * a[8];
  inv[2] = a[1] * a[5] - a[2] * a[4];
  inv[3] = a[5] * a[6] - a[3] * a[8];
  inv[4] = a[0] * a[8] - a[2] * a[6];
  inv[5] = a[2] * a[3] - a[0] * a[5];
  inv[6] = a[3] * a[7] - a[4] * a[6];
  inv[7] = a[1] * a[6] - a[0] * a[7];
  inv[8] = a[0] * a[4] - a[1] * a[3];
  det = a[0] * inv[0] + a[1] * inv[3] + a[2] * inv[6];
  if (!isfinite (det) || fabs (det) < 1e-12)
    return FALSE;
  for (guint i = 0; i < 9; i++)
    out[i] = (float) (inv[i] / det);
  for (guint i = 0; i < 3; i++)
    out[9 + i] = (float) (-(inv[3 * i] * m[9] + inv[3 * i + 1] * m[10] + inv[3 * i + 2] * m[11]) /
                          det);
  return TRUE;
}

void
mshed_dfm_pose_transform_point (const float m[12],
                                const float in[3],
                                float       out[3])
{
  float r[3];

  for (guint i = 0; i < 3; i++)
    r[i] = m[3 * i] * in[0] + m[3 * i + 1] * in[1] + m[3 * i + 2] * in[2] + m[9 + i];
  memcpy (out, r, sizeof r);
}

static gboolean
all_finite (const float *v,
            guint        n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

/* Building ------------------------------------------------------------------------------ */

static void
dof_set (MshedDfmPoseJoint *j,
         MshedDfmDofKind    kind,
         float              min,
         float              max)
{
  MshedDfmDof *d = &j->dof[j->n_dof++];

  d->kind = kind;
  /* A stored range with max <= min (0, 0 in many files) is no range (conventions.md). */
  d->limited = isfinite (min) && isfinite (max) && min < max;
  d->min = d->limited ? min : (kind == MSHED_DFM_DOF_TURN ? (float) -G_PI : -INFINITY);
  d->max = d->limited ? max : (kind == MSHED_DFM_DOF_TURN ? (float) G_PI : INFINITY);
  if (kind == MSHED_DFM_DOF_TURN)
    {
      d->min = MAX (d->min, (float) -G_PI);
      d->max = MIN (d->max, (float) G_PI);
    }
}

static void
add_joint (MshedDfmPose        *self,
           const MshedDfmJoint *joint,
           guint                record)
{
  PoseJoint pj = { 0 };
  MshedDfmPoseJoint *j = &pj.pub;
  float len;

  g_strlcpy (pj.name, joint->child, sizeof pj.name);
  j->kind = joint->kind;
  j->record = record;
  j->bone = (guint) joint->child_bone;
  j->parent_bone = (guint) joint->parent_bone;
  memcpy (pj.position, joint->position, sizeof pj.position);
  memcpy (pj.offset, joint->offset, sizeof pj.offset);
  memcpy (pj.rotation, joint->rotation, sizeof pj.rotation);
  if (!all_finite (pj.position, 3))
    memset (pj.position, 0, sizeof pj.position);
  if (!all_finite (pj.rotation, 9))
    memcpy (pj.rotation, identity, sizeof pj.rotation);
  for (guint i = 0; i < 3; i++)
    pj.axis[i] = pj.rotation[3 * i] * joint->axis[0] + pj.rotation[3 * i + 1] * joint->axis[1] +
                 pj.rotation[3 * i + 2] * joint->axis[2];
  len = sqrtf (pj.axis[0] * pj.axis[0] + pj.axis[1] * pj.axis[1] + pj.axis[2] * pj.axis[2]);
  for (guint i = 0; i < 3; i++)
    pj.axis[i] = isfinite (len) && len > 1e-6f ? pj.axis[i] / len : 0.0f;

  switch (joint->kind)
    {
    case MSHED_DFM_JOINT_REV:
      dof_set (j, MSHED_DFM_DOF_TURN, joint->limits[0], joint->limits[1]);
      break;
    case MSHED_DFM_JOINT_PRIS:
      dof_set (j, MSHED_DFM_DOF_SLIDE, joint->limits[0], joint->limits[1]);
      break;
    case MSHED_DFM_JOINT_CYL:
      dof_set (j, MSHED_DFM_DOF_SLIDE, joint->limits[0], joint->limits[1]);
      dof_set (j, MSHED_DFM_DOF_TURN, joint->limits[2], joint->limits[3]);
      break;
    case MSHED_DFM_JOINT_SPHERE:
      for (guint k = 0; k < 3; k++)
        dof_set (j, MSHED_DFM_DOF_TURN, joint->limits[2 * k], joint->limits[2 * k + 1]);
      break;
    case MSHED_DFM_JOINT_LOOSE:
      for (guint k = 0; k < 3; k++)
        dof_set (j, MSHED_DFM_DOF_TURN, NAN, NAN);
      for (guint k = 0; k < 3; k++)
        dof_set (j, MSHED_DFM_DOF_SLIDE, NAN, NAN);
      break;
    case MSHED_DFM_JOINT_FIX:
    case MSHED_DFM_N_JOINT_KINDS:
    default:
      break;
    }
  g_array_append_val (self->joints, pj);
}

/**
 * mshed_dfm_pose_new:
 * @dfm: the model
 *
 * Returns: (transfer full): its skeleton in the bind pose
 */
MshedDfmPose *
mshed_dfm_pose_new (const MshedDfm *dfm)
{
  MshedDfmPose *self = g_new0 (MshedDfmPose, 1);
  guint n_joints = mshed_dfm_get_n_joints (dfm);

  self->n_bones = mshed_dfm_get_n_bones (dfm);
  self->bones = g_new0 (PoseBone, MAX (self->n_bones, 1));
  self->world = g_new0 (float, 12 * (gsize) MAX (self->n_bones, 1));
  self->skin = g_new0 (float, 12 * (gsize) MAX (self->n_bones, 1));
  self->joints = g_array_new (FALSE, TRUE, sizeof (PoseJoint));
  self->dirty = TRUE;

  for (guint b = 0; b < self->n_bones; b++)
    {
      PoseBone *bone = &self->bones[b];
      MshedDfmBone info;

      bone->parent = -1;
      bone->joint = -1;
      memcpy (bone->bind, identity, sizeof identity);
      memcpy (bone->inv_bind, identity, sizeof identity);
      if (!mshed_dfm_get_bone (dfm, b, &info))
        continue;
      if (info.parent >= 0 && (guint) info.parent < self->n_bones)
        bone->parent = info.parent;
      if (info.has_bone_to_root && all_finite (info.bone_to_root, 12) &&
          aff_invert (info.bone_to_root, bone->bind))
        memcpy (bone->inv_bind, info.bone_to_root, sizeof bone->inv_bind);
    }

  /* One joint per bone with a parent: the first record linking the two (docs/dfm.md §9.1). */
  for (guint i = 0; i < n_joints; i++)
    {
      MshedDfmJoint joint;
      PoseBone *bone;

      if (!mshed_dfm_get_joint (dfm, i, &joint) || joint.child_bone < 0 ||
          (guint) joint.child_bone >= self->n_bones)
        continue;
      bone = &self->bones[joint.child_bone];
      if (bone->joint >= 0 || bone->parent < 0 || bone->parent != joint.parent_bone)
        continue;
      bone->joint = (gint) self->joints->len;
      add_joint (self, &joint, i);
    }
  for (guint i = 0; i < self->joints->len; i++)
    {
      PoseJoint *pj = &g_array_index (self->joints, PoseJoint, i);

      pj->pub.name = pj->name;
    }
  return self;
}

void
mshed_dfm_pose_free (MshedDfmPose *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->joints);
  g_free (self->bones);
  g_free (self->world);
  g_free (self->skin);
  g_free (self);
}

/* Joints and values --------------------------------------------------------------------- */

guint
mshed_dfm_pose_get_n_joints (const MshedDfmPose *self)
{
  return self->joints->len;
}

const MshedDfmPoseJoint *
mshed_dfm_pose_get_joint (const MshedDfmPose *self,
                          guint               joint)
{
  if (joint >= self->joints->len)
    return NULL;
  return &g_array_index (self->joints, PoseJoint, joint).pub;
}

gint
mshed_dfm_pose_find_joint (const MshedDfmPose *self,
                           const char         *name)
{
  for (guint i = 0; i < self->joints->len; i++)
    if (g_ascii_strcasecmp (g_array_index (self->joints, PoseJoint, i).name, name) == 0)
      return (gint) i;
  return -1;
}

gint
mshed_dfm_pose_find_bone_joint (const MshedDfmPose *self,
                                guint               bone)
{
  return bone < self->n_bones ? self->bones[bone].joint : -1;
}

float
mshed_dfm_pose_set_value (MshedDfmPose *self,
                          guint         joint,
                          guint         dof,
                          float         value)
{
  PoseJoint *pj;
  const MshedDfmDof *d;

  if (joint >= self->joints->len)
    return 0.0f;
  pj = &g_array_index (self->joints, PoseJoint, joint);
  if (dof >= pj->pub.n_dof || !isfinite (value))
    return 0.0f;
  d = &pj->pub.dof[dof];
  value = CLAMP (value, d->min, d->max);
  if (pj->values[dof] != value)
    {
      pj->values[dof] = value;
      self->dirty = TRUE;
    }
  return value;
}

float
mshed_dfm_pose_get_value (const MshedDfmPose *self,
                          guint               joint,
                          guint               dof)
{
  const PoseJoint *pj;

  if (joint >= self->joints->len)
    return 0.0f;
  pj = &g_array_index (self->joints, PoseJoint, joint);
  return dof < pj->pub.n_dof ? pj->values[dof] : 0.0f;
}

void
mshed_dfm_pose_reset (MshedDfmPose *self)
{
  for (guint i = 0; i < self->joints->len; i++)
    memset (g_array_index (self->joints, PoseJoint, i).values, 0,
            sizeof (float) * MSHED_DFM_MAX_DOF);
  self->dirty = TRUE;
}

gboolean
mshed_dfm_pose_is_bind (const MshedDfmPose *self)
{
  for (guint i = 0; i < self->joints->len; i++)
    for (guint k = 0; k < MSHED_DFM_MAX_DOF; k++)
      if (g_array_index (self->joints, PoseJoint, i).values[k] != 0.0f)
        return FALSE;
  return TRUE;
}

void
mshed_dfm_pose_copy_values (MshedDfmPose       *self,
                            const MshedDfmPose *from)
{
  for (guint i = 0; i < self->joints->len; i++)
    {
      const PoseJoint *pj = &g_array_index (self->joints, PoseJoint, i);
      gint k = mshed_dfm_pose_find_joint (from, pj->name);

      if (k < 0 || mshed_dfm_pose_get_joint (from, (guint) k)->kind != pj->pub.kind)
        continue;
      for (guint d = 0; d < pj->pub.n_dof; d++)
        mshed_dfm_pose_set_value (self, i, d, mshed_dfm_pose_get_value (from, (guint) k, d));
    }
}

/* Transforms ---------------------------------------------------------------------------- */

/* The joint's motion in the parent bone's space. */
static void
joint_motion (const PoseJoint *pj,
              float            out[12])
{
  const float *v = pj->values;
  float m[12], q[12], r[12];
  static const float ax[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

  memcpy (out, identity, sizeof identity);
  switch (pj->pub.kind)
    {
    case MSHED_DFM_JOINT_REV:
      aff_turn (pj->axis, v[0], m);
      aff_about (m, pj->position, out);
      break;
    case MSHED_DFM_JOINT_PRIS:
      for (guint i = 0; i < 3; i++)
        out[9 + i] = pj->axis[i] * v[0];
      break;
    case MSHED_DFM_JOINT_CYL:
      aff_turn (pj->axis, v[1], m);
      aff_about (m, pj->position, out);
      for (guint i = 0; i < 3; i++)
        out[9 + i] += pj->axis[i] * v[0];
      break;
    case MSHED_DFM_JOINT_SPHERE:
    case MSHED_DFM_JOINT_LOOSE:
      /* q = Rx · Ry · Rz about the joint position (Sphere: the parent point), in parent axes;
       * Loose then adds its slide (docs/dfm.md §9.2) */
      aff_turn (ax[0], v[0], q);
      aff_turn (ax[1], v[1], r);
      aff_mul (q, r, q);
      aff_turn (ax[2], v[2], r);
      aff_mul (q, r, q);
      aff_about (q, pj->position, out);
      if (pj->pub.kind == MSHED_DFM_JOINT_LOOSE)
        for (guint i = 0; i < 3; i++)
          out[9 + i] += v[3 + i];
      break;
    case MSHED_DFM_JOINT_FIX:
    case MSHED_DFM_N_JOINT_KINDS:
    default:
      break;
    }
}

static void
compute_bone (MshedDfmPose *self,
              guint         b,
              guint8       *state)
{
  PoseBone *bone = &self->bones[b];
  float *w = self->world + 12 * (gsize) b;

  if (state[b] == 2)
    return;
  if (state[b] == 1 || bone->parent < 0)
    {
      /* a root, a detached bone, or (never, parents are acyclic) a cycle: its bind frame */
      memcpy (w, bone->bind, sizeof bone->bind);
      state[b] = 2;
      return;
    }
  state[b] = 1;
  compute_bone (self, (guint) bone->parent, state);
  {
    const PoseBone *parent = &self->bones[bone->parent];
    float local[12], d[12];

    aff_mul (parent->inv_bind, bone->bind, local);
    if (bone->joint >= 0)
      {
        joint_motion (&g_array_index (self->joints, PoseJoint, bone->joint), d);
        aff_mul (d, local, local);
      }
    aff_mul (self->world + 12 * (gsize) bone->parent, local, w);
  }
  state[b] = 2;
}

static void
update (MshedDfmPose *self)
{
  g_autofree guint8 *state = NULL;

  if (!self->dirty)
    return;
  state = g_new0 (guint8, MAX (self->n_bones, 1));
  for (guint b = 0; b < self->n_bones; b++)
    compute_bone (self, b, state);
  for (guint b = 0; b < self->n_bones; b++)
    aff_mul (self->world + 12 * (gsize) b, self->bones[b].inv_bind, self->skin + 12 * (gsize) b);
  self->dirty = FALSE;
}

guint
mshed_dfm_pose_get_n_bones (const MshedDfmPose *self)
{
  return self->n_bones;
}

const float *
mshed_dfm_pose_get_world (MshedDfmPose *self,
                          guint         bone)
{
  if (bone >= self->n_bones)
    return identity;
  update (self);
  return self->world + 12 * (gsize) bone;
}

const float *
mshed_dfm_pose_get_skin (MshedDfmPose *self,
                         guint         bone)
{
  if (bone >= self->n_bones)
    return identity;
  update (self);
  return self->skin + 12 * (gsize) bone;
}

/* Skinning ------------------------------------------------------------------------------ */

gboolean
mshed_dfm_pose_skin_point (MshedDfmPose   *self,
                           const MshedDfm *dfm,
                           guint           level,
                           guint           point,
                           float           position[3],
                           float           normal[3])
{
  float p[3], n[3], sp[3] = { 0, 0, 0 }, sn[3] = { 0, 0, 0 }, len;
  guint32 first, count;

  if (!mshed_dfm_get_point (dfm, level, point, p, n))
    return FALSE;
  memcpy (position, p, sizeof p);
  memcpy (normal, n, sizeof n);
  if (!mshed_dfm_get_skin_range (dfm, level, point, &first, &count) || count == 0)
    return TRUE;
  update (self);
  for (guint32 k = 0; k < count; k++)
    {
      guint32 bone;
      float weight;
      const float *s;

      if (!mshed_dfm_get_influence (dfm, level, first + k, &bone, &weight) || !isfinite (weight))
        continue;
      s = bone < self->n_bones ? self->skin + 12 * (gsize) bone : identity;
      for (guint i = 0; i < 3; i++)
        {
          sp[i] += weight * (s[3 * i] * p[0] + s[3 * i + 1] * p[1] + s[3 * i + 2] * p[2] +
                             s[9 + i]);
          sn[i] += weight * (s[3 * i] * n[0] + s[3 * i + 1] * n[1] + s[3 * i + 2] * n[2]);
        }
    }
  memcpy (position, sp, sizeof sp);
  len = sqrtf (sn[0] * sn[0] + sn[1] * sn[1] + sn[2] * sn[2]);
  if (isfinite (len) && len > 1e-12f)
    for (guint i = 0; i < 3; i++)
      normal[i] = sn[i] / len;
  return TRUE;
}

guint
mshed_dfm_level_for_detail (const MshedDfm *dfm,
                            float           detail)
{
  guint n = MIN (mshed_dfm_get_n_levels (dfm), mshed_dfm_get_n_fractions (dfm));
  guint level = 0;

  for (guint i = 0; i < n; i++)
    {
      float f;

      if (mshed_dfm_get_fraction (dfm, i, &f) && isfinite (f) && f >= detail)
        level = i;
    }
  return level;
}
