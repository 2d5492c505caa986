/* mshed-dfm-recompute.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Derived data of a deformable model: counts, Index, Lod Bits (determined by docs/dfm.md) and
 * Fractions, Vertex_normals, Bone to root (mshed's conventions, docs/conventions.md "DFM").
 * The rules are in mshed-dfm-recompute.h.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-private.h"
#include "mshed-dfm-recompute.h"
#include "mshed-error.h"

/* Helpers --------------------------------------------------------------------------------- */

/* the path of @name inside @dir (the path the file has, or would have) */
static char *
child_path (const MshedUtfNode *dir,
            const char         *name)
{
  g_autofree char *path = mshed_utf_node_dup_path (dir);

  return g_strconcat (strcmp (path, "\\") == 0 ? "" : path, "\\", name, NULL);
}

static GBytes *
u32_bytes (guint32 value)
{
  guint8 b[4];

  mshed_write_u32 (b, value);
  return g_bytes_new (b, sizeof b);
}

static GBytes *
floats_bytes (const double *values,
              gsize         n)
{
  guint8 *b = g_malloc (4 * n + 1);

  for (gsize i = 0; i < n; i++)
    mshed_write_f32 (b + 4 * i, (float) values[i]);
  return g_bytes_new_take (b, 4 * n);
}

static const DfmMesh *
mesh_or_error (const MshedDfm *dfm,
               guint           level,
               GError        **error)
{
  const DfmMesh *m = _mshed_dfm_mesh_at (dfm, level);

  if (m == NULL)
    g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                 _("\\MultiLevel: the model has no level %u"), level);
  return m;
}

static const DfmBone *
bone_or_error (const MshedDfm *dfm,
               guint           bone,
               GError        **error)
{
  if (bone >= dfm->bones->len)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("\\: the model has no bone %u"), bone);
      return NULL;
    }
  return &g_array_index (dfm->bones, DfmBone, bone);
}

static void
set_missing (GError            **error,
             const MshedUtfNode *dir,
             const char         *name,
             const char         *why)
{
  g_autofree char *path = child_path (dir, name);

  /* TRANSLATORS: "<node path>: no such node; <what cannot be computed>" */
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND, _("%s: no such node; %s"),
               path, why);
}

/* Counts ---------------------------------------------------------------------------------- */

/**
 * mshed_dfm_compute_group_count:
 *
 * `Face_groups/Count` of `Mesh<level>`: the number of `Group<n>` directories (docs/dfm.md §4).
 *
 * Returns: (transfer full) (nullable): 4 bytes, NULL when the level has no `Face_groups`
 */
GBytes *
mshed_dfm_compute_group_count (const MshedDfm *dfm,
                               guint           level,
                               GError        **error)
{
  const DfmMesh *m = mesh_or_error (dfm, level, error);

  if (m == NULL)
    return NULL;
  if (m->face_groups == NULL)
    {
      set_missing (error, m->dir, "Face_groups", _("there are no groups to count"));
      return NULL;
    }
  return u32_bytes (m->groups->len);
}

/**
 * mshed_dfm_compute_uv_vertex_count:
 *
 * `UV_vertex_count` of `Mesh<level>`: the number of `UV_vertex_id` entries (docs/dfm.md §6.4).
 *
 * Returns: (transfer full) (nullable): 4 bytes, NULL when there is no `UV_vertex_id`
 */
GBytes *
mshed_dfm_compute_uv_vertex_count (const MshedDfm *dfm,
                                   guint           level,
                                   GError        **error)
{
  const DfmMesh *m = mesh_or_error (dfm, level, error);
  MshedUtfNode *ids;
  gsize size = 0;

  if (m == NULL)
    return NULL;
  ids = m->files[MSHED_DFM_TABLE_UV_VERTEX_ID - DFM_GEO_BASE];
  if (ids == NULL)
    {
      if (m->geometry)
        set_missing (error, m->geometry, "UV_vertex_id", _("there are no UV vertices to count"));
      else
        set_missing (error, m->dir, "Geometry", _("there are no UV vertices to count"));
      return NULL;
    }
  mshed_utf_node_peek_data (ids, &size);
  return u32_bytes ((guint32) MIN (size / 4, G_MAXUINT32));
}

/**
 * mshed_dfm_compute_part_index:
 *
 * `Index` of part @part (`Root` or `Part_*` in `Cmpnd` order): the position of the bone
 * directory its `File name` names, ignoring case (docs/dfm.md §8).
 *
 * Returns: (transfer full) (nullable): 4 bytes, NULL when `File name` names no bone
 */
GBytes *
mshed_dfm_compute_part_index (const MshedDfm *dfm,
                              guint           part,
                              GError        **error)
{
  const DfmPart *p;
  g_autofree char *path = NULL;

  if (part >= dfm->parts->len)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("\\Cmpnd: the model has no part %u"), part);
      return NULL;
    }
  p = &g_array_index (dfm->parts, DfmPart, part);
  if (p->file_name == NULL)
    {
      set_missing (error, p->dir, "File name", _("the part names no bone"));
      return NULL;
    }
  if (p->bone < 0)
    {
      path = child_path (p->dir, "File name");
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("%s: “%s” names no bone directory; the part has no bone position"), path,
                   p->file_name);
      return NULL;
    }
  return u32_bytes ((guint32) p->bone);
}

/**
 * mshed_dfm_compute_material_count:
 *
 * `Material library/Material count`: the number of directories in the library (docs/dfm.md
 * §11; every directory of the library is a material).
 *
 * Returns: (transfer full) (nullable): 4 bytes, NULL when there is no `Material library`
 */
GBytes *
mshed_dfm_compute_material_count (const MshedDfm *dfm,
                                  GError        **error)
{
  if (dfm->material_library == NULL)
    {
      set_missing (error, mshed_utf_get_root (dfm->utf), "Material library",
                   _("there are no materials to count"));
      return NULL;
    }
  return u32_bytes (dfm->materials->len);
}

/**
 * mshed_dfm_compute_lod_bits:
 *
 * `Lod Bits` of @bone, all or nothing (docs/dfm.md §10.3, §15): `(1 << L) − 1` for L levels
 * when the stored first byte is not 0; 0 when it is 0 or the file is absent (absent means 0).
 *
 * Returns: (transfer full) (nullable): 1 byte, NULL when L > 8 (one bit per level)
 */
GBytes *
mshed_dfm_compute_lod_bits (const MshedDfm *dfm,
                            guint           bone,
                            GError        **error)
{
  const DfmBone *b = bone_or_error (dfm, bone, error);
  MshedUtfNode *bits;
  const guint8 *d;
  gsize size = 0;
  guint n = dfm->meshes->len;
  guint8 value = 0;

  if (b == NULL)
    return NULL;
  bits = b->files[MSHED_DFM_TABLE_LOD_BITS - DFM_BONE_BASE];
  d = bits ? mshed_utf_node_peek_data (bits, &size) : NULL;
  if (d && size >= 1 && d[0] != 0)
    {
      if (n > 8)
        {
          g_autofree char *path = child_path (b->dir, "Lod Bits");

          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("%s: %u levels do not fit the 8 bits of Lod Bits"), path, n);
          return NULL;
        }
      value = (guint8) ((1u << n) - 1);
    }
  return g_bytes_new (&value, 1);
}

/* Fractions ------------------------------------------------------------------------------- */

/* the number in a Mesh<digits> name, G_MAXUINT when it does not fit */
static guint
mesh_number (const MshedUtfNode *mesh)
{
  const char *name = mshed_utf_node_get_name (mesh);
  guint64 k = 0;

  for (const char *p = name + 4; *p; p++)
    {
      k = 10 * k + (guint64) (*p - '0');
      if (k >= G_MAXUINT)
        return G_MAXUINT;
    }
  return (guint) k;
}

/* the default fraction of level @i of @n when nothing is stored (docs/dfm.md §3) */
static double
default_fraction (guint i,
                  guint n)
{
  static const double six[] = { 1, 0.8, 0.6, 0.4, 0.2, 0.1 };
  static const double four[] = { 1, 0.8, 0.6, 0.2 };

  if (n == 6)
    return six[i];
  if (n == 4)
    return four[i];
  return 1.0 - (double) i / n;
}

/**
 * mshed_dfm_compute_fractions:
 *
 * `MultiLevel/Fractions` by mshed's convention (mshed-dfm-recompute.h, docs/conventions.md):
 * stored fractions of the levels that still exist are kept bit for bit.
 *
 * Returns: (transfer full) (nullable): 4 bytes per level, NULL when there is no `MultiLevel`
 */
GBytes *
mshed_dfm_compute_fractions (const MshedDfm *dfm,
                             GError        **error)
{
  guint n = dfm->meshes->len, n_stored = 0;
  const guint8 *stored = NULL;
  gsize size = 0;
  g_autofree gint *source = NULL;
  g_autofree gboolean *seen = NULL;
  gboolean by_name = TRUE;
  guint8 *out;

  if (dfm->multilevel == NULL)
    {
      set_missing (error, mshed_utf_get_root (dfm->utf), "MultiLevel",
                   _("there are no levels to give fractions to"));
      return NULL;
    }
  if (dfm->fractions)
    stored = mshed_utf_node_peek_data (dfm->fractions, &size);
  n_stored = stored ? (guint) MIN (size / 4, G_MAXUINT) : 0;

  /* which stored fraction each level keeps: by the number in its name when every number is
   * distinct and stored, else by position */
  source = g_new (gint, n + 1);
  seen = g_new0 (gboolean, n_stored + 1);
  for (guint i = 0; i < n && by_name; i++)
    {
      guint k = mesh_number (g_array_index (dfm->meshes, DfmMesh, i).dir);

      by_name = k < n_stored && !seen[k];
      if (by_name)
        {
          seen[k] = TRUE;
          source[i] = (gint) k;
        }
    }
  if (!by_name)
    for (guint i = 0; i < n; i++)
      source[i] = i < n_stored ? (gint) i : -1;

  out = g_malloc (4 * (gsize) n + 1);
  for (guint i = 0; i < n; i++)
    {
      if (source[i] >= 0)
        memcpy (out + 4 * i, stored + 4 * source[i], 4);
      else if (n_stored == 0)
        mshed_write_f32 (out + 4 * i, (float) default_fraction (i, n));
      else
        mshed_write_f32 (out + 4 * i, mshed_read_f32 (out + 4 * (i - 1)) * 0.5f);
    }
  return g_bytes_new_take (out, 4 * (gsize) n);
}

/* Vertex normals -------------------------------------------------------------------------- */

#define NORMAL_KEEP_TOLERANCE (1.0 / 1048576.0)   /* 2⁻²⁰ */

static gboolean
read_point (const MshedDfmArray *points,
            const MshedDfmArray *point_indices,
            guint                element,
            guint32             *point,
            double               pos[3])
{
  if (element >= point_indices->count)
    return FALSE;
  *point = mshed_read_u32 (point_indices->data + 4 * (gsize) element);
  if (*point >= points->count)
    return FALSE;
  for (guint k = 0; k < 3; k++)
    pos[k] = mshed_read_f32 (points->data + 12 * (gsize) *point + 4 * k);
  return TRUE;
}

/* adds the unnormalised face normal of every valid triangle of the level to its points */
static void
accumulate_face_normals (const MshedDfm      *dfm,
                         guint                level,
                         const MshedDfmArray *points,
                         const MshedDfmArray *point_indices,
                         double              *sum,
                         gboolean            *used)
{
  const DfmMesh *m = _mshed_dfm_mesh_at (dfm, level);

  for (guint g = 0; g < m->groups->len; g++)
    {
      gsize n_tris = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, level, g, &n_tris);

      for (gsize t = 0; t < n_tris; t++)
        {
          guint32 p[3];
          double v[3][3], a[3], b[3], n[3];
          gboolean valid = TRUE;

          for (guint k = 0; k < 3 && valid; k++)
            valid = read_point (points, point_indices, tris[3 * t + k], &p[k], v[k]);
          if (!valid)
            continue;
          for (guint k = 0; k < 3; k++)
            {
              a[k] = v[1][k] - v[0][k];
              b[k] = v[2][k] - v[0][k];
            }
          n[0] = a[1] * b[2] - a[2] * b[1];
          n[1] = a[2] * b[0] - a[0] * b[2];
          n[2] = a[0] * b[1] - a[1] * b[0];
          for (guint k = 0; k < 3; k++)
            {
              used[p[k]] = TRUE;
              for (guint c = 0; c < 3; c++)
                sum[3 * (gsize) p[k] + c] += n[c];
            }
        }
    }
}

/**
 * mshed_dfm_compute_vertex_normals:
 *
 * `Vertex_normals` of `Mesh<level>` by mshed's convention (mshed-dfm-recompute.h).
 *
 * Returns: (transfer full) (nullable): 12 bytes per point, NULL when the level has no `Points`
 */
GBytes *
mshed_dfm_compute_vertex_normals (const MshedDfm *dfm,
                                  guint           level,
                                  GError        **error)
{
  const DfmMesh *m = mesh_or_error (dfm, level, error);
  MshedDfmArray points, point_indices, normals;
  g_autofree double *sum = NULL;
  g_autofree gboolean *used = NULL;
  guint8 *out;
  gsize n;

  if (m == NULL)
    return NULL;
  if (!mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_POINTS, level, 0, &points))
    {
      if (m->geometry)
        set_missing (error, m->geometry, "Points", _("there are no points to give normals to"));
      else
        set_missing (error, m->dir, "Geometry", _("there are no points to give normals to"));
      return NULL;
    }
  mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_POINT_INDICES, level, 0, &point_indices);
  mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_VERTEX_NORMALS, level, 0, &normals);
  n = points.count;
  sum = g_new0 (double, 3 * n + 1);
  used = g_new0 (gboolean, n + 1);
  accumulate_face_normals (dfm, level, &points, &point_indices, sum, used);

  out = g_malloc0 (12 * n + 1);
  for (gsize p = 0; p < n; p++)
    {
      const double *s = sum + 3 * p;
      double len = sqrt (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
      gboolean has_stored = p < normals.count, keep = !used[p] || len == 0.0;

      if (!keep && has_stored)
        {
          keep = TRUE;
          for (guint c = 0; c < 3; c++)
            keep &= fabs (mshed_read_f32 (normals.data + 12 * p + 4 * c) - s[c] / len) <=
                    NORMAL_KEEP_TOLERANCE;
        }
      if (keep && has_stored)
        memcpy (out + 12 * p, normals.data + 12 * p, 12);
      else if (!keep)
        for (guint c = 0; c < 3; c++)
          mshed_write_f32 (out + 12 * p + 4 * c, (float) (s[c] / len));
    }
  return g_bytes_new_take (out, 12 * n);
}

/* Bone to root ---------------------------------------------------------------------------- */

/**
 * mshed_dfm_xform_invert:
 *
 * [Rᵀ | −Rᵀ·t]: the inverse of a rotation and translation (docs/dfm.md §10.2).
 */
void
mshed_dfm_xform_invert (const MshedDfmXform *a,
                        MshedDfmXform       *out)
{
  MshedDfmXform o;

  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      o.r[3 * i + j] = a->r[3 * j + i];
  for (guint i = 0; i < 3; i++)
    o.t[i] = -(o.r[3 * i] * a->t[0] + o.r[3 * i + 1] * a->t[1] + o.r[3 * i + 2] * a->t[2]);
  *out = o;
}

/**
 * mshed_dfm_xform_compose:
 *
 * @out = @a · @b: first @b, then @a; @out may be either operand.
 */
void
mshed_dfm_xform_compose (const MshedDfmXform *a,
                         const MshedDfmXform *b,
                         MshedDfmXform       *out)
{
  MshedDfmXform o;

  for (guint i = 0; i < 3; i++)
    {
      for (guint j = 0; j < 3; j++)
        o.r[3 * i + j] = a->r[3 * i] * b->r[j] + a->r[3 * i + 1] * b->r[3 + j] +
                         a->r[3 * i + 2] * b->r[6 + j];
      o.t[i] = a->r[3 * i] * b->t[0] + a->r[3 * i + 1] * b->t[1] + a->r[3 * i + 2] * b->t[2] +
               a->t[i];
    }
  *out = o;
}

/* the record that made @parent the parent of @child (the first that links them) */
static gboolean
find_link (const MshedDfm *dfm,
           gint            parent,
           gint            child,
           MshedDfmJoint  *joint)
{
  for (guint j = 0; j < dfm->n_joints; j++)
    if (mshed_dfm_get_joint (dfm, j, joint) && joint->child_bone == child &&
        joint->parent_bone == parent)
      return TRUE;
  return FALSE;
}

/* L of the joint at rest (docs/dfm.md §9.2, q = p = 0) */
static gboolean
joint_rest (const MshedDfmJoint *joint,
            MshedDfmXform       *l,
            GError             **error)
{
  for (guint i = 0; i < 9; i++)
    l->r[i] = joint->rotation[i];
  switch (joint->kind)
    {
    case MSHED_DFM_JOINT_SPHERE:
      /* T(parent point) · R(rotation) · T(−child point) */
      for (guint i = 0; i < 3; i++)
        l->t[i] = joint->position[i] - (l->r[3 * i] * joint->offset[0] +
                                        l->r[3 * i + 1] * joint->offset[1] +
                                        l->r[3 * i + 2] * joint->offset[2]);
      return TRUE;
    case MSHED_DFM_JOINT_LOOSE:
    case MSHED_DFM_JOINT_FIX:
      for (guint i = 0; i < 3; i++)
        l->t[i] = joint->position[i];
      return TRUE;
    case MSHED_DFM_JOINT_REV:
    case MSHED_DFM_JOINT_PRIS:
    case MSHED_DFM_JOINT_CYL:
    case MSHED_DFM_N_JOINT_KINDS:
    default:
      {
        g_autofree char *path = mshed_utf_node_dup_path (joint->node);

        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                     _("%s: record %u (“%s” to “%s”): the rest frame of a %s joint is not "
                       "documented; Bone to root cannot be derived through it"),
                     path, joint->record, joint->parent, joint->child,
                     mshed_dfm_joint_kind_name (joint->kind));
        return FALSE;
      }
    }
}

static gboolean
stored_bone_to_root (const DfmBone *b,
                     GBytes       **bytes,
                     GError       **error)
{
  MshedUtfNode *node = b->files[MSHED_DFM_TABLE_BONE_TO_ROOT - DFM_BONE_BASE];
  gsize size = 0;

  if (node)
    mshed_utf_node_peek_data (node, &size);
  if (node == NULL || size != 48)
    {
      g_autofree char *path = child_path (b->dir, "Bone to root");

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("%s: the top of the bone chain needs 48 bytes of Bone to root"), path);
      return FALSE;
    }
  *bytes = g_bytes_ref (mshed_utf_node_get_data (node));
  return TRUE;
}

/**
 * mshed_dfm_compute_bone_to_root:
 *
 * `Bone to root` of @bone from the `Cons` rest chain by mshed's convention
 * (mshed-dfm-recompute.h); a bone with no parent keeps its stored one.
 *
 * Returns: (transfer full) (nullable): 48 bytes, NULL when a joint on the chain is of a kind
 *   whose rest frame is not documented, or the top of the chain has no 48-byte Bone to root
 */
GBytes *
mshed_dfm_compute_bone_to_root (const MshedDfm *dfm,
                                guint           bone,
                                GError        **error)
{
  const DfmBone *b = bone_or_error (dfm, bone, error);
  g_autoptr(GArray) chain = NULL;
  g_autoptr(GBytes) top = NULL;
  MshedDfmXform world, inv;
  const guint8 *d;
  double out[12];
  gint c;

  if (b == NULL)
    return NULL;
  /* the chain from @bone up to its top (parents are acyclic, docs/dfm.md §9.1) */
  chain = g_array_new (FALSE, FALSE, sizeof (gint));
  for (c = (gint) bone; g_array_index (dfm->bones, DfmBone, c).parent >= 0;
       c = g_array_index (dfm->bones, DfmBone, c).parent)
    g_array_append_val (chain, c);
  if (!stored_bone_to_root (&g_array_index (dfm->bones, DfmBone, c), &top, error))
    return NULL;
  if (chain->len == 0)
    return g_steal_pointer (&top);

  d = g_bytes_get_data (top, NULL);
  for (guint i = 0; i < 9; i++)
    inv.r[i] = mshed_read_f32 (d + 4 * i);
  for (guint i = 0; i < 3; i++)
    inv.t[i] = mshed_read_f32 (d + 36 + 4 * i);
  mshed_dfm_xform_invert (&inv, &world);
  for (guint k = chain->len; k > 0; k--)
    {
      gint child = g_array_index (chain, gint, k - 1);
      gint parent = g_array_index (dfm->bones, DfmBone, child).parent;
      MshedDfmJoint joint;
      MshedDfmXform l;

      if (!find_link (dfm, parent, child, &joint))
        {
          /* the index is older than the Cons payloads: mshed_dfm_refresh was not called */
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                       _("\\Cmpnd\\Cons: no record links bone %d to its parent, bone %d"),
                       child, parent);
          return NULL;
        }
      if (!joint_rest (&joint, &l, error))
        return NULL;
      mshed_dfm_xform_compose (&world, &l, &world);
    }
  mshed_dfm_xform_invert (&world, &inv);
  memcpy (out, inv.r, sizeof inv.r);
  memcpy (out + 9, inv.t, sizeof inv.t);
  return floats_bytes (out, 12);
}

/* By table -------------------------------------------------------------------------------- */

static const struct {
  MshedDfmTable table;
  gboolean      determined;
} derived_tables[] = {
  { MSHED_DFM_TABLE_GROUP_COUNT, TRUE },
  { MSHED_DFM_TABLE_UV_VERTEX_COUNT, TRUE },
  { MSHED_DFM_TABLE_PART_INDEX, TRUE },
  { MSHED_DFM_TABLE_MATERIAL_COUNT, TRUE },
  { MSHED_DFM_TABLE_LOD_BITS, TRUE },
  { MSHED_DFM_TABLE_FRACTIONS, FALSE },
  { MSHED_DFM_TABLE_VERTEX_NORMALS, FALSE },
  { MSHED_DFM_TABLE_BONE_TO_ROOT, FALSE },
};

/**
 * mshed_dfm_table_is_derived:
 * @determined: (out) (optional): TRUE when the format determines the value, FALSE when it is
 *   one of mshed's conventions
 *
 * Returns: TRUE when mshed_dfm_compute_derived computes the files of @table
 */
gboolean
mshed_dfm_table_is_derived (MshedDfmTable table,
                            gboolean     *determined)
{
  for (guint i = 0; i < G_N_ELEMENTS (derived_tables); i++)
    if (derived_tables[i].table == table)
      {
        if (determined)
          *determined = derived_tables[i].determined;
        return TRUE;
      }
  if (determined)
    *determined = FALSE;
  return FALSE;
}

/**
 * mshed_dfm_compute_derived:
 *
 * The recompute of @table's file at level, part or bone @a (see the functions above).
 *
 * Returns: (transfer full) (nullable): the payload, NULL on error
 */
GBytes *
mshed_dfm_compute_derived (const MshedDfm *dfm,
                           MshedDfmTable   table,
                           guint           a,
                           GError        **error)
{
  switch ((gint) table)
    {
    case MSHED_DFM_TABLE_GROUP_COUNT:
      return mshed_dfm_compute_group_count (dfm, a, error);
    case MSHED_DFM_TABLE_UV_VERTEX_COUNT:
      return mshed_dfm_compute_uv_vertex_count (dfm, a, error);
    case MSHED_DFM_TABLE_PART_INDEX:
      return mshed_dfm_compute_part_index (dfm, a, error);
    case MSHED_DFM_TABLE_MATERIAL_COUNT:
      return mshed_dfm_compute_material_count (dfm, error);
    case MSHED_DFM_TABLE_LOD_BITS:
      return mshed_dfm_compute_lod_bits (dfm, a, error);
    case MSHED_DFM_TABLE_FRACTIONS:
      return mshed_dfm_compute_fractions (dfm, error);
    case MSHED_DFM_TABLE_VERTEX_NORMALS:
      return mshed_dfm_compute_vertex_normals (dfm, a, error);
    case MSHED_DFM_TABLE_BONE_TO_ROOT:
      return mshed_dfm_compute_bone_to_root (dfm, a, error);
    default:
      {
        const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);

        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                     _("%s is not derived from other data; there is nothing to recompute"),
                     info ? info->node : "?");
        return NULL;
      }
    }
}
