/* mshed-gltf-dfm-import.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glTF -> DFM (docs/gltf.md §8.3): the DFM carried in the scene's extras, and what changed in
 * the glTF's levels (moved vertices, texture coordinates) as one undoable edit of a document.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-dfm-private.h"

gboolean
mshed_gltf_is_dfm_export (const MshedGltf *gltf)
{
  return gltf->scene_mshed != NULL &&
         g_strcmp0 (json_object_get_string_member_with_default (gltf->scene_mshed, "format",
                                                                ""), "dfm") == 0;
}

GBytes *
mshed_gltf_dfm_source (const MshedGltf  *gltf,
                       GError          **error)
{
  const char *text;
  guchar *data;
  gsize len;

  if (!mshed_gltf_is_dfm_export (gltf))
    {
      mshed_gltf_fail (gltf, error, _("scenes[0]: no mshed extras of a deformable model; "
                                      "export with custom properties (docs/gltf.md §8.2)"));
      return NULL;
    }
  text = json_object_get_string_member_with_default (gltf->scene_mshed, "utf", NULL);
  if (text == NULL || *text == '\0')
    {
      mshed_gltf_fail (gltf, error, _("scenes[0].extras.mshed: no utf member"));
      return NULL;
    }
  data = g_base64_decode (text, &len);
  return g_bytes_new_take (data, len);
}

#define WEIGHT_TOLERANCE 1e-4f   /* Blender renormalises weights in floats */
#define NORMAL_TOLERANCE 1e-2f   /* Blender keeps custom normals as 16-bit pairs */

typedef struct {
  guint16 bones[4];
  float   weights[4];
  guint   n;
} Skin;

typedef MshedGltfDfmTri Tri;

typedef struct {
  MshedDfm   *dfm;
  guint       level;
  guint       n_points;
  guint       n_uv0;
  float      *points;      /* the new Points, 3 per point */
  float      *uv0;         /* the new UV0, 2 per coordinate */
  float      *normals;     /* the new Vertex_normals, 3 per point */
  float      *normal_sum;  /* the glTF normals of each point's vertices, summed */
  Skin       *skins;       /* the new influences per point */
  guint8     *point_set;   /* per point: 1 when a glTF vertex gave it a new value */
  guint8     *uv_set;
  guint8     *normal_set;
  guint8     *skin_set;
  guint       positions;
  guint       uvs;
  guint       n_normals;
  guint       n_skins;
  const gint *joint_bone;  /* per joint of skin 0: its bone, -1 for none */
  GArray     *tris;        /* Tri: every glTF triangle of the level */
  MshedGltfDfmGrow *grow;  /* the new elements and points, the removed ones */
} Level;

static float *
floats_of (MshedUtfNode *node,
           guint         n)
{
  gsize size = 0;
  const guint8 *data = node ? mshed_utf_node_peek_data (node, &size) : NULL;
  float *out = g_new0 (float, MAX (n, 1));

  if (data)
    memcpy (out, data, MIN (size, (gsize) n * 4));
  return out;
}

static MshedUtfNode *
geometry_file (MshedDfm   *dfm,
               guint       level,
               const char *name)
{
  MshedDfmLevel info;
  MshedUtfNode *geometry;

  if (!mshed_dfm_get_level (dfm, level, &info) ||
      (geometry = mshed_utf_node_lookup (info.node, "Geometry")) == NULL)
    return NULL;
  return mshed_utf_node_lookup (geometry, name);
}

/* The glTF vertex's influences by bone, weights above 0, as the export would have them. */
static gboolean
vertex_skin (Level                    *l,
             const MshedGltf          *gltf,
             const MshedGltfPrimitive *prim,
             guint                     v,
             const char               *what,
             Skin                     *out,
             GError                  **error)
{
  memset (out, 0, sizeof *out);
  for (guint q = 0; q < 4; q++)
    {
      guint32 j = prim->joints[v * 4 + q];
      float w = prim->weights[v * 4 + q];
      guint k;

      if (!(w > 0))
        continue;
      if (gltf->n_skins == 0 || j >= gltf->skins[0].n_joints || l->joint_bone[j] < 0)
        return mshed_gltf_fail (gltf, error, _("%s: vertex %u is weighed by joint %u (“%s”), "
                                               "which is no bone of the model"), what, v, j,
                                gltf->n_skins && j < gltf->skins[0].n_joints
                                ? gltf->nodes[gltf->skins[0].joints[j]].name : "");
      for (k = 0; k < out->n && out->bones[k] != (guint16) l->joint_bone[j]; k++)
        ;
      if (k == out->n)
        out->bones[out->n++] = (guint16) l->joint_bone[j];
      out->weights[k] += w;
    }
  return TRUE;
}

/* TRUE when @a and @b give every bone the same weight within the tolerance. */
static gboolean
same_skin (const Skin *a,
           const Skin *b)
{
  if (a->n != b->n)
    return FALSE;
  for (guint i = 0; i < a->n; i++)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < b->n; k++)
        if (a->bones[i] == b->bones[k])
          found = fabsf (a->weights[i] - b->weights[k]) <= WEIGHT_TOLERANCE;
      if (!found)
        return FALSE;
    }
  return TRUE;
}

static gboolean
take_skin (Level                    *l,
           const MshedGltf          *gltf,
           const MshedGltfPrimitive *prim,
           guint                     v,
           guint                     point,
           const char               *what,
           GError                  **error)
{
  Skin now, stored = { { 0 } };

  if (prim->joints == NULL || prim->weights == NULL || point >= l->n_points)
    return TRUE;
  if (!vertex_skin (l, gltf, prim, v, what, &now, error))
    return FALSE;
  stored.n = mshed_gltf_dfm_point_skin (l->dfm, l->level, point, stored.bones, stored.weights);
  if (stored.n == 0)
    stored.n = 1;  /* exported as bone 0, weight 1 */
  if (l->skin_set[point] ? same_skin (&now, &l->skins[point]) : same_skin (&now, &stored))
    return TRUE;
  if (l->skin_set[point])
    return mshed_gltf_fail (gltf, error, _("%s: vertex %u gives point %u of Mesh%u other "
                                           "weights than another vertex of that point does"),
                            what, v, point, l->level);
  if (now.n == 0)
    return mshed_gltf_fail (gltf, error, _("%s: vertex %u has no weight above 0; every point "
                                           "of a deformable model needs an influence"),
                            what, v);
  l->skins[point] = now;
  l->skin_set[point] = 1;
  l->n_skins++;
  return TRUE;
}

/* Sums the glTF normals of each point's vertices: Blender computes one per vertex, and the
 * elements of one point are separate vertices there (a seam), so they may differ. */
static void
take_normal (Level                    *l,
             const MshedGltfPrimitive *prim,
             guint                     v,
             const MshedDfmElement    *el)
{
  if (el->point >= l->n_points || l->normals == NULL)
    return;
  for (guint k = 0; k < 3; k++)
    l->normal_sum[el->point * 3 + k] += prim->normals[v * 3 + k];
  l->normal_set[el->point] = 1;
}

/* The points whose summed glTF normal, normalised, is not their stored one normalised. */
static void
finish_normals (Level *l)
{
  for (guint p = 0; l->normals && p < l->n_points; p++)
    {
      float *sum = &l->normal_sum[p * 3], *stored = &l->normals[p * 3], a[3];
      float ls = sqrtf (sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
      float lt = sqrtf (stored[0] * stored[0] + stored[1] * stored[1] + stored[2] * stored[2]);

      if (!l->normal_set[p] || !(ls > 0) || !(lt > 0))
        continue;  /* no vertex, or exported without NORMAL (a zero normal) */
      for (guint k = 0; k < 3; k++)
        a[k] = stored[k] / lt, sum[k] /= ls;
      if (_mshed_gltf_near3 (a, sum, NORMAL_TOLERANCE))
        continue;
      memcpy (stored, sum, 12);
      l->n_normals++;
    }
}

static void normalise (Skin    *s,
                       guint32 *weights);

/* A vertex that is no stored element (added in Blender, docs/gltf.md §8.3): a new element,
 * with a new point unless an equal new vertex made one. */
static gboolean
take_new_vertex (Level                    *l,
                 const MshedGltf          *gltf,
                 const MshedGltfPrimitive *prim,
                 guint                     v,
                 const char               *what,
                 guint                    *element,
                 GError                  **error)
{
  Skin skin = { { 0 } };
  guint32 weights[4];
  MshedGltfDfmVertex x = { &prim->positions[v * 3] };

  if (prim->joints && prim->weights && !vertex_skin (l, gltf, prim, v, what, &skin, error))
    return FALSE;
  if (skin.n == 0)
    return mshed_gltf_fail (gltf, error, _("%s: vertex %u, new in Mesh%u, has no weight above "
                                           "0; every point of a deformable model needs an "
                                           "influence"), what, v, l->level);
  normalise (&skin, weights);
  x.normal = prim->normals ? &prim->normals[v * 3] : NULL;
  x.uv0 = prim->uvs ? &prim->uvs[v * 2] : NULL;
  x.uv1 = prim->uv2 ? &prim->uv2[v * 2] : NULL;
  x.n_influences = skin.n;
  x.bones = skin.bones;
  x.weights = weights;
  return _mshed_gltf_dfm_grow_add (l->grow, gltf, what, v, &x, element, error);
}

/* glTF vertex @v of @prim: a stored element, *@element, and what changed in it, or a new one
 * when a triangle draws it (@drawn; else G_MAXUINT: a loose new vertex is left out). */
static gboolean
take_vertex (Level                    *l,
             const MshedGltf          *gltf,
             const MshedGltfPrimitive *prim,
             guint                     v,
             gboolean                  drawn,
             const char               *what,
             guint                    *element,
             GError                  **error)
{
  MshedDfmElement el;
  float id = prim->ids[v * 2];
  const float *pos = &prim->positions[v * 3];

  *element = G_MAXUINT;
  if (!_mshed_gltf_dfm_grow_is_element (l->grow, id, pos, element))
    return !drawn || take_new_vertex (l, gltf, prim, v, what, element, error);
  if (!mshed_dfm_get_element (l->dfm, l->level, *element, &el))
    return mshed_gltf_fail (gltf, error, _("%s: vertex %u is element %g, which Mesh%u cannot "
                                           "form"), what, v, id, l->level);
  if (id > (float) G_MAXUINT16)   /* faces name elements in 16 bits (docs/dfm.md §4) */
    return mshed_gltf_fail (gltf, error, _("%s: vertex %u is element %g, past the 65,535 a "
                                           "face group can name"), what, v, id);
  if (el.point < l->n_points && !_mshed_gltf_near3 (pos, el.position, 3e-5f))
    {
      float *dst = &l->points[el.point * 3];

      if (l->point_set[el.point] && !_mshed_gltf_near3 (dst, pos, 3e-5f))
        return mshed_gltf_fail (gltf, error, _("%s: vertex %u moves point %u of Mesh%u to "
                                               "another place than another vertex of that "
                                               "point does"), what, v, el.point, l->level);
      if (!l->point_set[el.point])
        l->positions++;
      memcpy (dst, pos, 12);
      l->point_set[el.point] = 1;
    }
  if (prim->uvs && el.uv0_index < l->n_uv0 &&
      (fabsf (prim->uvs[v * 2] - el.uv0[0]) > 1e-6f ||
       fabsf (prim->uvs[v * 2 + 1] - el.uv0[1]) > 1e-6f))
    {
      if (!l->uv_set[el.uv0_index])
        l->uvs++;
      memcpy (&l->uv0[el.uv0_index * 2], &prim->uvs[v * 2], 8);
      l->uv_set[el.uv0_index] = 1;
    }
  if (prim->normals)
    take_normal (l, prim, v, &el);
  return take_skin (l, gltf, prim, v, el.point, what, error);
}

static gboolean
take_mesh (Level            *l,
           const MshedGltf  *gltf,
           guint             m,
           GError          **error)
{
  const MshedGltfMesh *mesh = &gltf->meshes[m];

  for (guint p = 0; p < mesh->n_primitives; p++)
    {
      const MshedGltfPrimitive *prim = &mesh->primitives[p];
      g_autofree char *what = g_strdup_printf ("meshes[%u].primitives[%u] (“%s”)", m, p,
                                               mesh->name);
      g_autofree guint *element = NULL;
      g_autofree guint8 *drawn = NULL;

      if (prim->ids == NULL)
        return mshed_gltf_fail (gltf, error, _("%s: no TEXCOORD_1, which names each vertex's "
                                               "element (docs/gltf.md §8.1)"), what);
      element = g_new (guint, MAX (prim->n_vertices, 1));
      drawn = g_new0 (guint8, MAX (prim->n_vertices, 1));
      for (guint i = 0; i < prim->n_indices; i++)
        drawn[prim->indices[i]] = 1;
      for (guint v = 0; v < prim->n_vertices; v++)
        if (!take_vertex (l, gltf, prim, v, drawn[v], what, &element[v], error))
          return FALSE;
      for (guint i = 0; i + 2 < prim->n_indices; i += 3)
        {
          Tri t = _mshed_gltf_dfm_tri_of ((guint16) element[prim->indices[i]],
                                          (guint16) element[prim->indices[i + 1]],
                                          (guint16) element[prim->indices[i + 2]]);

          t.material = prim->material;
          if (t.e[0] != t.e[1] && t.e[1] != t.e[2] && t.e[0] != t.e[2])
            g_array_append_val (l->tris, t);
        }
    }
  return TRUE;
}

static void
level_clear (Level *l)
{
  g_free (l->points);
  g_free (l->uv0);
  g_free (l->normals);
  g_free (l->normal_sum);
  g_free (l->skins);
  g_free (l->point_set);
  g_free (l->uv_set);
  g_free (l->normal_set);
  g_free (l->skin_set);
  g_array_unref (l->tris);
  _mshed_gltf_dfm_grow_free (l->grow);
}

static gboolean
apply_floats (MshedDocument *doc,
              MshedUtfNode  *node,
              const float   *values,
              guint          n,
              GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (values, (gsize) n * 4);

  return mshed_document_utf_set_data (doc, node, bytes, error);
}

/* Joints and bones ------------------------------------------------------------------------- */

/* Per joint of skin 0: the bone whose export name (docs/gltf.md §8.1: the part's Object name,
 * else the directory name) is the joint node's name, -1 for none. */
static gint *
map_joints (MshedDfm        *dfm,
            const MshedGltf *gltf)
{
  guint n_joints = gltf->n_skins ? gltf->skins[0].n_joints : 0;
  gint *out = g_new (gint, MAX (n_joints, 1));

  for (guint j = 0; j < n_joints; j++)
    {
      const char *name = gltf->nodes[gltf->skins[0].joints[j]].name;

      out[j] = -1;
      for (guint b = 0; b < mshed_dfm_get_n_bones (dfm) && out[j] < 0; b++)
        {
          MshedDfmBone bone;
          g_autofree char *utf8 = NULL;
          const char *raw;

          if (!mshed_dfm_get_bone (dfm, b, &bone))
            continue;
          raw = bone.object_name ? bone.object_name : bone.name;
          utf8 = mshed_cp1251_to_utf8 ((const guint8 *) raw, strlen (raw), NULL);
          if (g_strcmp0 (utf8, name) == 0)
            out[j] = (gint) b;
        }
    }
  return out;
}

static guint32 *
u32s_of (MshedUtfNode *node,
         guint        *n)
{
  gsize size = 0;
  const guint8 *data = node ? mshed_utf_node_peek_data (node, &size) : NULL;
  guint32 *out;

  *n = (guint) (size / 4);
  out = g_new0 (guint32, MAX (*n, 1));
  for (guint i = 0; i < *n; i++)
    out[i] = mshed_read_u32 (data + 4 * (gsize) i);
  return out;
}

static gboolean
set_u32s (MshedDocument  *doc,
          MshedUtfNode   *node,
          const guint32  *values,
          guint           n,
          GError        **error)
{
  g_autofree guint8 *data = g_malloc (MAX ((gsize) n * 4, 1));
  g_autoptr(GBytes) bytes = NULL;
  gsize size = 0;
  const guint8 *now = mshed_utf_node_peek_data (node, &size);

  for (guint i = 0; i < n; i++)
    mshed_write_u32 (data + 4 * (gsize) i, values[i]);
  if (size == (gsize) n * 4 && (n == 0 || memcmp (now, data, size) == 0))
    return TRUE;
  bytes = g_bytes_new (data, (gsize) n * 4);
  return mshed_document_utf_set_data (doc, node, bytes, error);
}

/* @s's weights over their sum, the largest taking the rest so that they sum to 1. */
static void
normalise (Skin    *s,
           guint32 *weights)
{
  double sum = 0;
  float rest = 1.0f;
  guint largest = 0;

  for (guint i = 0; i < s->n; i++)
    {
      sum += s->weights[i];
      if (s->weights[i] > s->weights[largest])
        largest = i;
    }
  for (guint i = 0; i < s->n; i++)
    if (i != largest)
      {
        float w = (float) (s->weights[i] / sum);

        rest -= w;
        memcpy (&weights[i], &w, 4);
      }
  memcpy (&weights[largest], &rest, 4);
}

/* The changed points' influences (docs/gltf.md §8.3): in place when every changed point keeps
 * its count, else the four skin files rebuilt in point order. */
static gboolean
apply_skins (Level            *l,
             const MshedGltf  *gltf,
             MshedDocument    *doc,
             GError          **error)
{
  MshedUtfNode *nodes[4] = { geometry_file (l->dfm, l->level, "Point_bone_first"),
                             geometry_file (l->dfm, l->level, "Point_bone_count"),
                             geometry_file (l->dfm, l->level, "Bone_id_chain"),
                             geometry_file (l->dfm, l->level, "Bone_weight_chain") };
  g_autofree guint32 *first = NULL, *count = NULL, *ids = NULL, *weights = NULL;
  g_autoptr(GArray) new_ids = g_array_new (FALSE, FALSE, 4);
  g_autoptr(GArray) new_weights = g_array_new (FALSE, FALSE, 4);
  guint n_first, n_count, n_ids, n_weights;
  gboolean in_place = TRUE;

  for (guint i = 0; i < 4; i++)
    if (nodes[i] == NULL)
      return mshed_gltf_fail (gltf, error, _("Mesh%u: no skin files to write the weights to"),
                              l->level);
  first = u32s_of (nodes[0], &n_first);
  count = u32s_of (nodes[1], &n_count);
  ids = u32s_of (nodes[2], &n_ids);
  weights = u32s_of (nodes[3], &n_weights);
  if (n_first < l->n_points || n_count < l->n_points || n_ids != n_weights)
    return mshed_gltf_fail (gltf, error, _("Mesh%u: the skin files do not have one entry per "
                                           "point"), l->level);
  for (guint p = 0; p < l->n_points; p++)
    if (l->skin_set[p] && (count[p] != l->skins[p].n || first[p] > n_ids ||
                           count[p] > n_ids - first[p]))
      in_place = FALSE;
  for (guint p = 0; p < l->n_points; p++)
    {
      guint32 start = in_place ? first[p] : new_ids->len, w[4];
      Skin *s = &l->skins[p];

      if (l->skin_set[p])
        {
          guint32 b[4] = { s->bones[0], s->bones[1], s->bones[2], s->bones[3] };

          normalise (s, w);
          if (in_place)
            {
              memcpy (&ids[start], b, 4 * s->n);
              memcpy (&weights[start], w, 4 * s->n);
            }
          else
            {
              g_array_append_vals (new_ids, b, s->n);
              g_array_append_vals (new_weights, w, s->n);
            }
        }
      else if (!in_place && first[p] <= n_ids)
        {
          guint32 n = MIN (count[p], n_ids - first[p]);

          g_array_append_vals (new_ids, &ids[first[p]], n);
          g_array_append_vals (new_weights, &weights[first[p]], n);
        }
      if (!in_place)
        {
          first[p] = start;
          count[p] = new_ids->len - start;
        }
    }
  if (in_place)
    return set_u32s (doc, nodes[2], ids, n_ids, error) &&
           set_u32s (doc, nodes[3], weights, n_weights, error);
  return set_u32s (doc, nodes[0], first, n_first, error) &&
         set_u32s (doc, nodes[1], count, n_count, error) &&
         set_u32s (doc, nodes[2], (guint32 *) new_ids->data, new_ids->len, error) &&
         set_u32s (doc, nodes[3], (guint32 *) new_weights->data, new_weights->len, error);
}

/* Level @level: gathers its changes from every glTF mesh tagged with it, and applies them. */
static gboolean
import_level (MshedDocument           *doc,
              const MshedGltf         *gltf,
              guint                    level,
              const gint              *joint_bone,
              MshedGltfDfmImportStats *stats,
              GError                 **error)
{
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  MshedUtfNode *points = geometry_file (dfm, level, "Points");
  MshedUtfNode *uv0 = geometry_file (dfm, level, "UV0");
  MshedUtfNode *normals = geometry_file (dfm, level, "Vertex_normals");
  MshedDfmLevel info;
  Level l = { dfm, level };
  guint n_meshes = 0;
  gboolean ok = TRUE;

  if (!mshed_dfm_get_level (dfm, level, &info) || points == NULL || uv0 == NULL)
    return TRUE;
  l.n_points = info.n_points;
  l.n_uv0 = info.n_uv0;
  l.points = floats_of (points, l.n_points * 3);
  l.uv0 = floats_of (uv0, l.n_uv0 * 2);
  l.normals = normals ? floats_of (normals, l.n_points * 3) : NULL;
  l.normal_sum = g_new0 (float, MAX ((gsize) l.n_points * 3, 1));
  l.skins = g_new0 (Skin, MAX (l.n_points, 1));
  l.point_set = g_new0 (guint8, MAX (l.n_points, 1));
  l.uv_set = g_new0 (guint8, MAX (l.n_uv0, 1));
  l.normal_set = g_new0 (guint8, MAX (l.n_points, 1));
  l.skin_set = g_new0 (guint8, MAX (l.n_points, 1));
  l.joint_bone = joint_bone;
  l.tris = g_array_new (FALSE, FALSE, sizeof (Tri));
  l.grow = _mshed_gltf_dfm_grow_new (dfm, level);
  _mshed_gltf_dfm_grow_see_level (l.grow, gltf);
  for (guint m = 0; m < gltf->n_meshes && ok; m++)
    {
      guint mesh_level;

      if (mshed_gltf_extra_uint (gltf->meshes[m].mshed, "level", G_MAXUINT, &mesh_level) &&
          mesh_level == level)
        {
          ok = take_mesh (&l, gltf, m, error);
          n_meshes++;
        }
    }
  if (ok)
    finish_normals (&l);
  /* a level no glTF mesh shows (its object deleted in Blender) keeps its triangles */
  ok = ok && (n_meshes == 0 ||
              _mshed_gltf_dfm_import_groups (doc, gltf, level, l.tris, stats, error));
  if (ok && l.positions > 0 &&
      (ok = apply_floats (doc, points, l.points, l.n_points * 3, error)))
    stats->positions += l.positions;
  if (ok && l.uvs > 0 && (ok = apply_floats (doc, uv0, l.uv0, l.n_uv0 * 2, error)))
    stats->uvs += l.uvs;
  if (ok && l.n_normals > 0 &&
      (ok = apply_floats (doc, normals, l.normals, l.n_points * 3, error)))
    stats->normals += l.n_normals;
  if (ok && l.n_skins > 0 && (ok = apply_skins (&l, gltf, doc, error)))
    stats->skins += l.n_skins;
  ok = ok && (n_meshes == 0 ||
              (_mshed_gltf_dfm_grow_apply (l.grow, doc, &stats->added_elements,
                                           &stats->added_points, error) &&
               _mshed_gltf_dfm_grow_remove (l.grow, doc, &stats->removed_elements,
                                            &stats->removed_points, error)));
  level_clear (&l);
  return ok;
}

gboolean
mshed_gltf_dfm_import_into (MshedDocument           *document,
                            const MshedGltf         *gltf,
                            MshedProgress           *progress,
                            MshedGltfDfmImportStats *stats,
                            GError                 **error)
{
  MshedDfm *dfm = mshed_document_get_dfm (document);
  MshedGltfDfmImportStats local = { 0 };
  g_autofree gint *joint_bone = NULL;
  guint levels = 0, bones = 0;
  gboolean ok = TRUE;

  if (dfm == NULL)
    return mshed_gltf_fail (gltf, error, _("the model to import into is not a deformable "
                                           "model (.dfm)"));
  if (!mshed_gltf_is_dfm_export (gltf))
    return mshed_gltf_fail (gltf, error, _("scenes[0]: no mshed extras of a deformable model; "
                                           "export with custom properties, or import "
                                           "without --into"));
  if (!mshed_gltf_extra_uint (gltf->scene_mshed, "levels", G_MAXUINT, &levels) ||
      !mshed_gltf_extra_uint (gltf->scene_mshed, "bones", G_MAXUINT, &bones) ||
      levels != mshed_dfm_get_n_levels (dfm) || bones != mshed_dfm_get_n_bones (dfm))
    return mshed_gltf_fail (gltf, error, _("scenes[0]: exported from a model of %u levels "
                                           "and %u bones, not from this one"), levels, bones);
  for (guint m = 0; m < gltf->n_meshes; m++)
    {
      guint level;

      if (!mshed_gltf_extra_uint (gltf->meshes[m].mshed, "level", levels, &level))
        return mshed_gltf_fail (gltf, error, _("meshes[%u] (“%s”): no level of the model in "
                                               "its extras; meshes cannot be added"), m,
                                gltf->meshes[m].name);
    }
  joint_bone = map_joints (dfm, gltf);
  /* the one look at the cancellable: the levels are applied whole or not at all */
  if (!mshed_progress_step (progress, 0.0, _("Applying the changes"), error))
    return FALSE;
  mshed_document_begin_group (document, _("Import glTF"));
  for (guint l = 0; l < levels && ok; l++)
    {
      mshed_progress_report (progress, (double) l / levels, NULL);
      ok = import_level (document, gltf, l, joint_bone, &local, error);
    }
  mshed_document_end_group (document);
  if (ok)
    mshed_progress_report (progress, 1.0, NULL);
  if (!ok && local.positions + local.uvs + local.normals + local.skins + local.groups +
             local.materials + local.added_elements + local.removed_elements +
             local.groups_added + local.groups_removed + local.materials_added > 0)
    mshed_document_undo (document);
  if (stats)
    *stats = local;
  return ok;
}
