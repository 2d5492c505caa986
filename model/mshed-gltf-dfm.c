/* mshed-gltf-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DFM -> glTF 2.0 (docs/gltf.md §8). The JSON is written by hand into GStrings, as in
 * mshed-gltf.c; the binary data goes into one buffer, every view starting on 4 bytes.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-dfm-recompute.h"
#include "mshed-error.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-private.h"
#include "mshed-json.h"

typedef struct {
  MshedDfm          *dfm;
  GByteArray        *bin;
  GString           *views;
  GString           *accessors;
  GString           *meshes;
  GString           *materials;
  GString           *nodes;
  guint              n_views;
  guint              n_accessors;
  guint              n_nodes;
  GHashTable        *material_ids;  /* material name (lower case) -> glTF index + 1 */
  MshedGltfDfmStats  stats;
  MshedProgress     *progress;
} Builder;

/* A name from the file (Windows-1251, NUL-terminated) as a JSON string. */
static void
append_name (GString    *s,
             const char *name)
{
  g_autofree char *utf8 = mshed_cp1251_to_utf8 ((const guint8 *) name, strlen (name), NULL);

  mshed_json_append_string (s, utf8);
}

static guint
add_view (Builder    *b,
          const void *data,
          gsize       len,
          guint       target)
{
  return mshed_gltf_add_view (b->bin, b->views, &b->n_views, data, len, target);
}

static guint
add_accessor (Builder     *b,
              const void  *data,
              gsize        len,
              guint        target,
              guint        component_type,
              guint        count,
              const char  *type,
              guint        n_bounds)
{
  guint view = add_view (b, data, len, target);

  mshed_gltf_sep (b->accessors);
  g_string_append_printf (b->accessors,
                          "{\"bufferView\":%u,\"componentType\":%u,\"count\":%u,\"type\":\"%s\"",
                          view, component_type, count, type);
  if (n_bounds > 0)
    {
      const float *v = data;
      float min[3], max[3];

      for (guint k = 0; k < n_bounds; k++)
        min[k] = max[k] = v[k];
      for (guint i = 1; i < count; i++)
        for (guint k = 0; k < n_bounds; k++)
          {
            min[k] = MIN (min[k], v[i * n_bounds + k]);
            max[k] = MAX (max[k], v[i * n_bounds + k]);
          }
      g_string_append (b->accessors, ",\"min\":");
      mshed_gltf_append_floats (b->accessors, min, n_bounds);
      g_string_append (b->accessors, ",\"max\":");
      mshed_gltf_append_floats (b->accessors, max, n_bounds);
    }
  g_string_append_c (b->accessors, '}');
  return b->n_accessors++;
}

/* Transforms ------------------------------------------------------------------------------ */

/* glTF's unit quaternion (x, y, z, w) of a rotation matrix given by rows; the identity when
 * the matrix is no rotation at all. */
static void
quat_from_rows (const double r[9],
                float        q[4])
{
  double x, y, z, w, trace = r[0] + r[4] + r[8], n;

  if (trace > 0)
    {
      double s = sqrt (trace + 1.0) * 2;

      w = s / 4;
      x = (r[7] - r[5]) / s;
      y = (r[2] - r[6]) / s;
      z = (r[3] - r[1]) / s;
    }
  else if (r[0] > r[4] && r[0] > r[8])
    {
      double s = sqrt (1.0 + r[0] - r[4] - r[8]) * 2;

      w = (r[7] - r[5]) / s;
      x = s / 4;
      y = (r[1] + r[3]) / s;
      z = (r[2] + r[6]) / s;
    }
  else if (r[4] > r[8])
    {
      double s = sqrt (1.0 + r[4] - r[0] - r[8]) * 2;

      w = (r[2] - r[6]) / s;
      x = (r[1] + r[3]) / s;
      y = s / 4;
      z = (r[5] + r[7]) / s;
    }
  else
    {
      double s = sqrt (1.0 + r[8] - r[0] - r[4]) * 2;

      w = (r[3] - r[1]) / s;
      x = (r[2] + r[6]) / s;
      y = (r[5] + r[7]) / s;
      z = s / 4;
    }
  n = sqrt (x * x + y * y + z * z + w * w);
  if (!isfinite (n) || n < 1e-12)
    {
      x = y = z = 0;
      w = n = 1;
    }
  q[0] = (float) (x / n);
  q[1] = (float) (y / n);
  q[2] = (float) (z / n);
  q[3] = (float) (w / n);
}

static void
xform_from_floats (const float     v[12],
                   MshedDfmXform  *out)
{
  for (guint i = 0; i < 9; i++)
    out->r[i] = v[i];
  for (guint i = 0; i < 3; i++)
    out->t[i] = v[9 + i];
}

static void
append_trs (GString             *s,
            const MshedDfmXform *x)
{
  float t[3] = { (float) x->t[0], (float) x->t[1], (float) x->t[2] }, q[4];

  quat_from_rows (x->r, q);
  g_string_append (s, ",\"translation\":");
  mshed_gltf_append_floats (s, t, 3);
  g_string_append (s, ",\"rotation\":");
  mshed_gltf_append_floats (s, q, 4);
}

/* Bones and hardpoints --------------------------------------------------------------------- */

static gboolean
bone_bind (Builder       *b,
           guint          bone,
           MshedDfmXform *bind)
{
  MshedDfmBone info;
  MshedDfmXform inverse_bind;

  if (!mshed_dfm_get_bone (b->dfm, bone, &info) || !info.has_bone_to_root)
    return FALSE;
  xform_from_floats (info.bone_to_root, &inverse_bind);
  mshed_dfm_xform_invert (&inverse_bind, bind);
  return TRUE;
}

static void
append_joint_extras (GString             *s,
                     const MshedDfmJoint *j)
{
  g_string_append (s, ",\"joint\":{\"kind\":");
  mshed_json_append_string (s, mshed_dfm_joint_kind_name (j->kind));
  g_string_append_printf (s, ",\"record\":%u,\"parent\":", j->record);
  append_name (s, j->parent);
  g_string_append (s, ",\"position\":");
  mshed_gltf_append_floats (s, j->position, 3);
  g_string_append (s, ",\"offset\":");
  mshed_gltf_append_floats (s, j->offset, 3);
  g_string_append (s, ",\"rotation\":");
  mshed_gltf_append_floats (s, j->rotation, 9);
  g_string_append (s, ",\"axis\":");
  mshed_gltf_append_floats (s, j->axis, 3);
  g_string_append (s, ",\"limits\":");
  mshed_gltf_append_floats (s, j->limits, j->n_limits);
  g_string_append_c (s, '}');
}

/* Bone @bone is glTF node 1 + bone; its children are its child bones and its hardpoints. */
static gboolean
append_bone (Builder  *b,
             guint     bone,
             guint     first_hardpoint,
             GError  **error)
{
  guint n_bones = mshed_dfm_get_n_bones (b->dfm);
  MshedDfmBone info;
  MshedDfmXform bind, parent_bind, parent_inverse, local;
  gboolean first = TRUE;
  GString *s = b->nodes;

  if (!mshed_dfm_get_bone (b->dfm, bone, &info) || !bone_bind (b, bone, &bind))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("bone %u: no Bone to root of 48 bytes (docs/dfm.md §10.2)"), bone);
      return FALSE;
    }
  local = bind;
  if (info.parent >= 0 && bone_bind (b, (guint) info.parent, &parent_bind))
    {
      mshed_dfm_xform_invert (&parent_bind, &parent_inverse);
      mshed_dfm_xform_compose (&parent_inverse, &bind, &local);
    }
  mshed_gltf_sep (s);
  g_string_append (s, "{\"name\":");
  append_name (s, info.object_name ? info.object_name : info.name);
  append_trs (s, &local);
  g_string_append (s, ",\"children\":[");
  for (guint c = 0; c < n_bones; c++)
    {
      MshedDfmBone child;

      if (mshed_dfm_get_bone (b->dfm, c, &child) && child.parent == (gint) bone)
        {
          g_string_append_printf (s, "%s%u", first ? "" : ",", 1 + c);
          first = FALSE;
        }
    }
  for (guint h = 0; h < info.n_hardpoints; h++)
    {
      g_string_append_printf (s, "%s%u", first ? "" : ",", first_hardpoint + h);
      first = FALSE;
    }
  if (first)
    g_string_truncate (s, s->len - strlen (",\"children\":["));
  else
    g_string_append_c (s, ']');
  g_string_append_printf (s, ",\"extras\":{\"mshed\":{\"bone\":%u,\"directory\":", bone);
  append_name (s, info.name);
  g_string_append_printf (s, ",\"lodBits\":%u,\"detached\":%s", info.lod_bits,
                          info.part < 0 ? "true" : "false");
  for (guint i = 0; i < mshed_dfm_get_n_joints (b->dfm); i++)
    {
      MshedDfmJoint j;

      if (mshed_dfm_get_joint (b->dfm, i, &j) && j.child_bone == (gint) bone)
        {
          append_joint_extras (s, &j);
          break;
        }
    }
  g_string_append (s, "}}}");
  return TRUE;
}

static void
append_hardpoint (Builder                 *b,
                  guint                    bone,
                  const MshedDfmHardpoint *hp)
{
  MshedDfmXform x;
  GString *s = b->nodes;

  for (guint i = 0; i < 9; i++)
    x.r[i] = hp->orientation[i];
  for (guint i = 0; i < 3; i++)
    x.t[i] = hp->position[i];
  mshed_gltf_sep (s);
  g_string_append (s, "{\"name\":");
  append_name (s, hp->name);
  append_trs (s, &x);
  g_string_append_printf (s, ",\"extras\":{\"mshed\":{\"hardpoint\":true,\"bone\":%u,"
                          "\"revolute\":%s,\"orientation\":", bone,
                          hp->revolute ? "true" : "false");
  mshed_gltf_append_floats (s, hp->orientation, 9);
  if (hp->revolute)
    {
      g_string_append (s, ",\"axis\":");
      mshed_gltf_append_floats (s, hp->axis, 3);
      g_string_append (s, ",\"min\":");
      mshed_json_append_float (s, hp->min);
      g_string_append (s, ",\"max\":");
      mshed_json_append_float (s, hp->max);
    }
  g_string_append (s, "}}}");
  b->stats.hardpoints++;
}

/* Levels ------------------------------------------------------------------------------------ */

static guint
material_for (Builder    *b,
              const char *name)
{
  g_autofree char *key = g_ascii_strdown (name ? name : "", -1);
  gpointer id = g_hash_table_lookup (b->material_ids, key);
  gint index = name ? mshed_dfm_find_material (b->dfm, name) : -1;
  MshedDfmMaterial m;

  if (id)
    return GPOINTER_TO_UINT (id) - 1;
  mshed_gltf_sep (b->materials);
  g_string_append (b->materials, "{\"name\":");
  append_name (b->materials, name ? name : "material");
  g_string_append (b->materials, ",\"doubleSided\":true");
  if (index >= 0 && mshed_dfm_get_material (b->dfm, (guint) index, &m) && m.has_dc)
    {
      float c[4] = { CLAMP (m.dc[0], 0, 1), CLAMP (m.dc[1], 0, 1), CLAMP (m.dc[2], 0, 1), 1 };

      for (guint k = 0; k < 3; k++)
        if (!isfinite (c[k]))
          c[k] = 1;
      g_string_append (b->materials, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":");
      mshed_gltf_append_floats (b->materials, c, 4);
      g_string_append (b->materials, ",\"metallicFactor\":0}");
    }
  g_string_append (b->materials, "}");
  g_hash_table_insert (b->material_ids, g_steal_pointer (&key),
                       GUINT_TO_POINTER (b->stats.materials + 1));
  return b->stats.materials++;
}

/* Point @p's influences as glTF wants them: at most four, weights summing to 1
 * (docs/gltf.md §8.1). Returns how many have a weight (0: bone 0 with weight 1). */
guint
mshed_gltf_dfm_point_skin (MshedDfm *dfm,
                           guint     level,
                           guint     point,
                           guint16   joints[4],
                           float     weights[4])
{
  guint n_bones = mshed_dfm_get_n_bones (dfm);
  guint32 first = 0, count = 0;
  double sum = 0;
  guint n = 0, largest = 0;

  memset (joints, 0, sizeof (guint16) * 4);
  memset (weights, 0, sizeof (float) * 4);
  if (mshed_dfm_get_skin_range (dfm, level, point, &first, &count))
    for (guint32 k = 0; k < count; k++)
      {
        guint32 bone;
        float w;
        guint slot = n;

        if (!mshed_dfm_get_influence (dfm, level, first + k, &bone, &w) ||
            bone >= n_bones || !(w > 0) || !isfinite (w))
          continue;
        for (guint i = 0; i < n; i++)
          if (joints[i] == bone)
            slot = i;
        if (slot == n && n == 4)
          {
            guint smallest = 0;

            for (guint i = 1; i < 4; i++)
              if (weights[i] < weights[smallest])
                smallest = i;
            if (weights[smallest] >= w)
              continue;
            slot = smallest;
            weights[slot] = 0;
          }
        else if (slot == n)
          n++;
        joints[slot] = (guint16) bone;
        weights[slot] += w;
      }
  for (guint i = 0; i < n; i++)
    sum += weights[i];
  if (n == 0 || !(sum > 0))
    {
      memset (joints, 0, sizeof (guint16) * 4);
      memset (weights, 0, sizeof (float) * 4);
      weights[0] = 1;
      return 0;
    }
  for (guint i = 0; i < n; i++)
    {
      weights[i] = (float) (weights[i] / sum);
      if (weights[i] > weights[largest])
        largest = i;
    }
  /* glTF-Validator wants the float sum within a few ULPs of 1: the largest takes the rest */
  {
    float rest = 1.0f;

    for (guint i = 0; i < n; i++)
      if (i != largest)
        rest -= weights[i];
    weights[largest] = rest;
  }
  return n;
}

typedef struct {
  float   *positions;
  float   *normals;
  float   *uv0;
  float   *ids;
  float   *uv1;
  guint16 *joints;
  float   *weights;
} Attributes;

static void
attributes_clear (Attributes *a)
{
  g_free (a->positions);
  g_free (a->normals);
  g_free (a->uv0);
  g_free (a->ids);
  g_free (a->uv1);
  g_free (a->joints);
  g_free (a->weights);
}

static gboolean
read_elements (Builder             *b,
               guint                level,
               const MshedDfmLevel *info,
               Attributes          *a,
               gboolean            *unit_normals,
               GError             **error)
{
  guint n = info->n_elements;

  a->positions = g_new (float, (gsize) n * 3);
  a->normals = g_new (float, (gsize) n * 3);
  a->uv0 = g_new (float, (gsize) n * 2);
  a->ids = g_new (float, (gsize) n * 2);
  a->uv1 = info->has_uv1 ? g_new (float, (gsize) n * 2) : NULL;
  a->joints = g_new (guint16, (gsize) n * 4);
  a->weights = g_new (float, (gsize) n * 4);
  *unit_normals = TRUE;
  for (guint e = 0; e < n; e++)
    {
      MshedDfmElement el;
      double len;

      if (!mshed_dfm_get_element (b->dfm, level, e, &el))
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("Mesh%u: element %u cannot be read (docs/dfm.md §6.1)"), level, e);
          return FALSE;
        }
      len = sqrt ((double) el.normal[0] * el.normal[0] + (double) el.normal[1] * el.normal[1] +
                  (double) el.normal[2] * el.normal[2]);
      if (!(len > 1e-6) || !isfinite (len))
        *unit_normals = FALSE;
      for (guint k = 0; k < 3; k++)
        {
          a->positions[e * 3 + k] = isfinite (el.position[k]) ? el.position[k] : 0;
          a->normals[e * 3 + k] = *unit_normals ? (float) (el.normal[k] / len) : 0;
        }
      for (guint k = 0; k < 2; k++)
        {
          a->uv0[e * 2 + k] = isfinite (el.uv0[k]) ? el.uv0[k] : 0;
          if (a->uv1)
            a->uv1[e * 2 + k] = isfinite (el.uv1[k]) ? el.uv1[k] : 0;
        }
      a->ids[e * 2] = (float) e;
      a->ids[e * 2 + 1] = 0;
      mshed_gltf_dfm_point_skin (b->dfm, level, el.point, &a->joints[e * 4], &a->weights[e * 4]);
    }
  return TRUE;
}

/* Level @level as glTF mesh @level (one primitive per group with triangles). */
static gboolean
add_level (Builder  *b,
           guint     level,
           GError  **error)
{
  MshedDfmLevel info;
  Attributes a = { 0 };
  gboolean unit_normals, first = TRUE;
  guint pos, nor = 0, uv0, ids, uv1 = 0, joints, weights, n;

  if (!mshed_dfm_get_level (b->dfm, level, &info) || info.n_elements == 0 ||
      info.n_elements > MSHED_GLTF_MAX_VERTEX_ID)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Mesh%u: no elements to export (docs/dfm.md §6.1)"), level);
      return FALSE;
    }
  n = info.n_elements;
  if (!read_elements (b, level, &info, &a, &unit_normals, error))
    {
      attributes_clear (&a);
      return FALSE;
    }
  pos = add_accessor (b, a.positions, (gsize) n * 12, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC3", 3);
  if (unit_normals)
    nor = add_accessor (b, a.normals, (gsize) n * 12, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC3", 0);
  uv0 = add_accessor (b, a.uv0, (gsize) n * 8, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC2", 0);
  ids = add_accessor (b, a.ids, (gsize) n * 8, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC2", 0);
  if (a.uv1)
    uv1 = add_accessor (b, a.uv1, (gsize) n * 8, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC2", 0);
  joints = add_accessor (b, a.joints, (gsize) n * 8, GL_ARRAY_BUFFER, GL_UNSIGNED_SHORT, n,
                         "VEC4", 0);
  weights = add_accessor (b, a.weights, (gsize) n * 16, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC4",
                          0);
  attributes_clear (&a);

  mshed_gltf_sep (b->meshes);
  g_string_append_printf (b->meshes, "{\"name\":\"Mesh%u\",\"primitives\":[", level);
  for (guint g = 0; g < info.n_groups; g++)
    {
      MshedDfmGroup group;
      gsize n_tri = 0;
      g_autofree guint16 *tri = NULL;

      if (!mshed_dfm_get_group (b->dfm, level, g, &group))
        continue;
      tri = mshed_dfm_dup_triangles (b->dfm, level, g, &n_tri);
      if (tri == NULL || n_tri == 0)
        continue;
      if (!first)
        g_string_append_c (b->meshes, ',');
      first = FALSE;
      g_string_append_printf (b->meshes, "{\"attributes\":{\"POSITION\":%u", pos);
      if (unit_normals)
        g_string_append_printf (b->meshes, ",\"NORMAL\":%u", nor);
      g_string_append_printf (b->meshes, ",\"TEXCOORD_0\":%u,\"TEXCOORD_1\":%u", uv0, ids);
      if (info.has_uv1)
        g_string_append_printf (b->meshes, ",\"TEXCOORD_2\":%u", uv1);
      g_string_append_printf (b->meshes, ",\"JOINTS_0\":%u,\"WEIGHTS_0\":%u},\"indices\":%u,"
                              "\"material\":%u,\"mode\":4,\"extras\":{\"mshed\":"
                              "{\"group\":%u}}}", joints, weights,
                              add_accessor (b, tri, n_tri * 6, GL_ELEMENT_ARRAY_BUFFER,
                                            GL_UNSIGNED_SHORT, (guint) n_tri * 3, "SCALAR", 0),
                              material_for (b, group.material_name), g);
      b->stats.triangles += (guint) n_tri;
    }
  g_string_append (b->meshes, "],\"extras\":{\"mshed\":{");
  g_string_append_printf (b->meshes, "\"level\":%u,\"uv1\":%s", level,
                          info.has_uv1 ? "true" : "false");
  if (info.has_fraction)
    {
      g_string_append (b->meshes, ",\"fraction\":");
      mshed_json_append_float (b->meshes, info.fraction);
    }
  g_string_append (b->meshes, "}}}");
  if (first)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Mesh%u: no triangles to export (docs/dfm.md §4)"), level);
      return FALSE;
    }
  b->stats.levels++;
  return TRUE;
}

/* The document ------------------------------------------------------------------------------- */

static gboolean
build (Builder  *b,
       guint     shown,
       GString  *json,
       GError  **error)
{
  guint n_bones = mshed_dfm_get_n_bones (b->dfm);
  guint n_levels = mshed_dfm_get_n_levels (b->dfm);
  guint hardpoint = 1 + n_bones, level_node, ibm;
  const char *skeleton = mshed_dfm_get_skeleton_name (b->dfm);
  g_autoptr(GString) roots = g_string_new (NULL);
  g_autoptr(GString) joints = g_string_new (NULL);
  g_autofree float *ibms = g_new0 (float, (gsize) MAX (n_bones, 1) * 16);
  g_autoptr(GBytes) source = NULL;
  g_autofree char *base64 = NULL;

  if (n_bones == 0 || n_levels == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("the deformable model has no bones or no levels to export"));
      return FALSE;
    }
  source = mshed_utf_serialize (mshed_dfm_get_utf (b->dfm), MSHED_UTF_WRITE_PRESERVE, NULL,
                                error);
  if (source == NULL)
    return FALSE;

  /* node 0: the skeleton root; 1..B: the bones; then the hardpoints; then the levels */
  g_string_append (b->nodes, "{\"name\":");
  append_name (b->nodes, skeleton ? skeleton : "skeleton");
  g_string_append (b->nodes, ",\"extras\":{\"mshed\":{\"skeleton\":true}}");
  {
    gboolean first = TRUE;

    for (guint i = 0; i < n_bones; i++)
      {
        MshedDfmBone info;

        if (mshed_dfm_get_bone (b->dfm, i, &info) && info.parent < 0)
          {
            g_string_append_printf (b->nodes, "%s%u", first ? ",\"children\":[" : ",", 1 + i);
            first = FALSE;
          }
      }
    if (!first)
      g_string_append_c (b->nodes, ']');
  }
  g_string_append_c (b->nodes, '}');
  for (guint i = 0; i < n_bones; i++)
    {
      MshedDfmBone info;

      if (!mshed_progress_step (b->progress, 0.2 * i / n_bones, i == 0 ? _("Writing bones")
                                                                     : NULL, error) ||
          !append_bone (b, i, hardpoint, error))
        return FALSE;
      mshed_dfm_get_bone (b->dfm, i, &info);
      hardpoint += info.n_hardpoints;
      for (guint r = 0; r < 3; r++)
        {
          for (guint c = 0; c < 3; c++)
            ibms[i * 16 + c * 4 + r] = info.bone_to_root[r * 3 + c];
          ibms[i * 16 + 12 + r] = info.bone_to_root[9 + r];
        }
      ibms[i * 16 + 15] = 1;
      g_string_append_printf (joints, "%s%u", i ? "," : "", 1 + i);
    }
  for (guint i = 0; i < n_bones; i++)
    {
      MshedDfmBone info;

      mshed_dfm_get_bone (b->dfm, i, &info);
      for (guint h = 0; h < info.n_hardpoints; h++)
        {
          MshedDfmHardpoint hp;

          if (mshed_dfm_get_hardpoint (b->dfm, i, h, &hp))
            append_hardpoint (b, i, &hp);
        }
    }
  level_node = hardpoint;
  g_string_append (roots, "0");
  for (guint l = 0; l < n_levels; l++)
    {
      guint show = l == 0 ? shown : (l <= shown ? l - 1 : l);

      if (!mshed_progress_step (b->progress, 0.2 + 0.75 * l / n_levels,
                                l == 0 ? _("Writing levels") : NULL, error) ||
          !add_level (b, show, error))
        return FALSE;
      mshed_gltf_sep (b->nodes);
      g_string_append_printf (b->nodes, "{\"name\":\"level %u\",\"mesh\":%u,\"skin\":0,"
                              "\"extras\":{\"mshed\":{\"level\":%u,\"shown\":%s}}}", show, l,
                              show, l == 0 ? "true" : "false");
      g_string_append_printf (roots, ",%u", level_node + l);
    }
  b->n_nodes = level_node + n_levels;
  b->stats.nodes = b->n_nodes;
  b->stats.bones = n_bones;
  ibm = add_accessor (b, ibms, (gsize) n_bones * 64, MSHED_GLTF_NO_TARGET, GL_FLOAT, n_bones,
                      "MAT4", 0);
  if (!mshed_progress_step (b->progress, 0.95, _("Packing the file"), error))
    return FALSE;

  base64 = g_base64_encode (g_bytes_get_data (source, NULL), g_bytes_get_size (source));
  g_string_append_printf (json, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"mshed %s\"},"
                          "\"scene\":0,\"scenes\":[{\"name\":\"mshed\",\"nodes\":[%s],"
                          "\"extras\":{\"mshed\":{\"version\":%d,\"format\":\"dfm\","
                          "\"level\":%u,\"levels\":%u,\"bones\":%u,\"utf\":\"%s\"}}}]",
                          PACKAGE_VERSION, roots->str, MSHED_GLTF_EXTRAS_VERSION, shown,
                          n_levels, n_bones, base64);
  g_string_append_printf (json, ",\"nodes\":[%s],\"skins\":[{\"name\":\"bones\","
                          "\"skeleton\":0,\"inverseBindMatrices\":%u,\"joints\":[%s]}]",
                          b->nodes->str, ibm, joints->str);
  g_string_append_printf (json, ",\"meshes\":[%s],\"materials\":[%s]", b->meshes->str,
                          b->materials->str);
  g_string_append_printf (json, ",\"accessors\":[%s],\"bufferViews\":[%s]", b->accessors->str,
                          b->views->str);
  return TRUE;
}

GBytes *
mshed_gltf_export_dfm (MshedDfm          *dfm,
                       MshedGltfFormat    format,
                       guint              level,
                       MshedProgress     *progress,
                       MshedGltfDfmStats *stats,
                       GError           **error)
{
  Builder b = { 0 };
  GString *json = g_string_new (NULL);
  GBytes *result = NULL;

  b.dfm = dfm;
  b.progress = progress;
  b.bin = g_byte_array_new ();
  b.views = g_string_new (NULL);
  b.accessors = g_string_new (NULL);
  b.meshes = g_string_new (NULL);
  b.materials = g_string_new (NULL);
  b.nodes = g_string_new (NULL);
  b.material_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (level >= mshed_dfm_get_n_levels (dfm))
    level = 0;

  if (build (&b, level, json, error))
    {
      g_string_append_printf (json, ",\"buffers\":[{\"byteLength\":%u", b.bin->len);
      if (format == MSHED_GLTF_TEXT)
        {
          g_autofree char *base64 = g_base64_encode (b.bin->data, b.bin->len);

          g_string_append_printf (json, ",\"uri\":\"data:application/octet-stream;base64,"
                                  "%s\"}]}\n", base64);
          result = g_string_free_to_bytes (g_steal_pointer (&json));
        }
      else
        {
          g_string_append (json, "}]}");
          result = mshed_gltf_pack_glb (g_steal_pointer (&json), b.bin);
        }
      mshed_progress_report (progress, 1.0, NULL);
    }
  if (stats)
    *stats = b.stats;
  if (json)
    g_string_free (json, TRUE);
  g_byte_array_unref (b.bin);
  g_string_free (b.views, TRUE);
  g_string_free (b.accessors, TRUE);
  g_string_free (b.meshes, TRUE);
  g_string_free (b.materials, TRUE);
  g_string_free (b.nodes, TRUE);
  g_hash_table_unref (b.material_ids);
  return result;
}
