/* mshed-convert.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DFM -> MSH (docs/dfm.md §16): the DFM is read through its view, the result is described as a
 * decoded glTF (nodes with their rest transforms, one mesh per node and converted level, one
 * primitive per material) and built by mshed_gltf_build_model_lods, the builder of a new model
 * from glTF, which also computes the derived data. The loss report and the WEAR table helpers
 * that MSH -> DFM (mshed-convert-dfm.c) shares are here too.
 */
#define G_LOG_DOMAIN "mshed-convert"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-convert-private.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-gltf-import.h"

/* Report ------------------------------------------------------------------------------------- */

void
mshed_convert_report_init (MshedConvertReport *report)
{
  memset (report, 0, sizeof *report);
  report->losses = g_array_new (FALSE, TRUE, sizeof (MshedConvertLoss));
}

void
mshed_convert_report_clear (MshedConvertReport *report)
{
  g_clear_pointer (&report->losses, g_array_unref);
}

void
mshed_convert_lose (MshedConvertReport *report,
                    const char         *id,
                    guint64             count,
                    const char         *what)
{
  MshedConvertLoss loss = { id, count, what };

  if (count > 0)
    g_array_append_val (report->losses, loss);
}

gboolean
mshed_convert_fail (GError     **error,
                    const char  *where,
                    const char  *format,
                    ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED, "%s: %s", where, message);
  return FALSE;
}

/* WEAR --------------------------------------------------------------------------------------- */

char **
mshed_convert_parse_wear (GBytes *wear)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  gsize size = 0;
  const char *data = wear ? g_bytes_get_data (wear, &size) : NULL;
  g_autofree char *text = data ? g_strndup (data, size) : g_strdup ("");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint64 count = 0;

  for (guint i = 0; lines[i]; i++)
    g_strchomp (lines[i]);
  if (lines[0] == NULL || !g_ascii_string_to_unsigned (g_strstrip (lines[0]), 10, 0, G_MAXUINT16,
                                                       &count, NULL))
    count = 0;
  for (guint i = 1; lines[0] && lines[i] && names->len < count && lines[i][0]; i++)
    {
      const char *space = strchr (lines[i], ' ');

      g_ptr_array_add (names, g_strdup (space ? space + 1 : ""));
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

static GBytes *
wear_text (GPtrArray *names)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%u\r\n", names->len);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (text, "%u %s\r\n", i, (const char *) g_ptr_array_index (names, i));
  return g_string_free_to_bytes (text);
}

/* Matrices ------------------------------------------------------------------------------------ */

/* The unit quaternion (glTF order x, y, z, w) of the rotation whose rows are @m. */
static void
matrix_to_quat (const float m[9],
                              float       xyzw[4])
{
  double trace = (double) m[0] + m[4] + m[8], s, len;
  double q[4];   /* x, y, z, w */

  if (trace > 0)
    {
      s = 2 * sqrt (trace + 1);
      q[3] = s / 4;
      q[0] = (m[7] - m[5]) / s;
      q[1] = (m[2] - m[6]) / s;
      q[2] = (m[3] - m[1]) / s;
    }
  else if (m[0] > m[4] && m[0] > m[8])
    {
      s = 2 * sqrt (1.0 + m[0] - m[4] - m[8]);
      q[3] = (m[7] - m[5]) / s;
      q[0] = s / 4;
      q[1] = (m[1] + m[3]) / s;
      q[2] = (m[2] + m[6]) / s;
    }
  else if (m[4] > m[8])
    {
      s = 2 * sqrt (1.0 + m[4] - m[0] - m[8]);
      q[3] = (m[2] - m[6]) / s;
      q[0] = (m[1] + m[3]) / s;
      q[1] = s / 4;
      q[2] = (m[5] + m[7]) / s;
    }
  else
    {
      s = 2 * sqrt (1.0 + m[8] - m[0] - m[4]);
      q[3] = (m[3] - m[1]) / s;
      q[0] = (m[2] + m[6]) / s;
      q[1] = (m[5] + m[7]) / s;
      q[2] = s / 4;
    }
  len = sqrt (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (guint k = 0; k < 4; k++)
    xyzw[k] = len > 0 && isfinite (len) ? (float) (q[k] / len) : k == 3;
}

/* [R | t] (rows, then translation) applied to @p; with @rotate_only the translation is not
 * added. */
static void
apply_3x4 (const float  m[12],
           const float  p[3],
           gboolean     rotate_only,
           float        out[3])
{
  for (guint i = 0; i < 3; i++)
    out[i] = m[3 * i] * p[0] + m[3 * i + 1] * p[1] + m[3 * i + 2] * p[2] +
             (rotate_only ? 0 : m[9 + i]);
}

/* DFM -> MSH ----------------------------------------------------------------------------------- */

typedef struct {
  GArray     *positions;    /* float */
  GArray     *normals;
  GArray     *uvs;
  GArray     *indices;      /* guint32 */
  GHashTable *vertex_of;    /* element + 1 -> vertex + 1 */
  guint       material;     /* WEAR row */
} Bucket;

typedef struct {
  MshedDfm           *dfm;
  const char         *where;
  MshedConvertMode    mode;
  MshedConvertReport *report;
  guint               n_bones;
  guint               n_nodes;
  gint               *node_of_bone;
  float              *inv_bind;      /* 12 per bone, the stored `Bone to root` */
  GPtrArray          *materials;     /* WEAR names */
  GPtrArray          *meshes;        /* per mesh: GPtrArray of Bucket */
  guint64             blended;
  guint64             clamped;
  guint64             vertices;
} Dfm2Msh;

static void
bucket_free (gpointer data)
{
  Bucket *b = data;

  g_array_unref (b->positions);
  g_array_unref (b->normals);
  g_array_unref (b->uvs);
  g_array_unref (b->indices);
  g_hash_table_unref (b->vertex_of);
  g_free (b);
}

static Bucket *
bucket_for (GPtrArray *buckets,
            guint      material)
{
  Bucket *b;

  for (guint i = 0; i < buckets->len; i++)
    if (((Bucket *) g_ptr_array_index (buckets, i))->material == material)
      return g_ptr_array_index (buckets, i);
  b = g_new0 (Bucket, 1);
  b->positions = g_array_new (FALSE, FALSE, sizeof (float));
  b->normals = g_array_new (FALSE, FALSE, sizeof (float));
  b->uvs = g_array_new (FALSE, FALSE, sizeof (float));
  b->indices = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->vertex_of = g_hash_table_new (NULL, NULL);
  b->material = material;
  g_ptr_array_add (buckets, b);
  return b;
}

static guint
material_row (Dfm2Msh    *c,
              const char *name)
{
  for (guint i = 0; i < c->materials->len; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (c->materials, i), name) == 0)
      return i;
  g_ptr_array_add (c->materials, g_strdup (name));
  return c->materials->len - 1;
}

/* docs/dfm.md §16: bones ordered parents first (depth-first from each root, in bone order); a
 * bone on a parent cycle is taken as a root. Fills node_of_bone; @order gets the bones in node
 * order. */
static void
order_bones (Dfm2Msh *c,
             guint   *order,
             gint    *parent)
{
  g_autofree guint8 *done = g_malloc0 (MAX (c->n_bones, 1));
  g_autofree guint *stack = g_new (guint, MAX (c->n_bones, 1));
  guint n = 0;

  for (guint b = 0; b < c->n_bones; b++)
    {
      MshedDfmBone bone;
      guint chain = 0;

      parent[b] = mshed_dfm_get_bone (c->dfm, b, &bone) ? bone.parent : -1;
      if (parent[b] < 0 || (guint) parent[b] >= c->n_bones)
        parent[b] = -1;
      /* a cycle: following the parents from b comes back to b */
      for (gint p = parent[b]; p >= 0 && chain <= c->n_bones; p = parent[p], chain++)
        if ((guint) p == b)
          {
            parent[b] = -1;
            break;
          }
    }
  for (guint root = 0; root < c->n_bones; root++)
    {
      guint depth = 0;

      if (parent[root] >= 0 || done[root])
        continue;
      stack[depth++] = root;
      while (depth > 0)
        {
          guint b = stack[--depth];

          done[b] = 1;
          c->node_of_bone[b] = (gint) n;
          order[n++] = b;
          for (guint k = c->n_bones; k > 0; k--)   /* children in bone order */
            if (parent[k - 1] == (gint) b && !done[k - 1])
              stack[depth++] = k - 1;
        }
    }
}

/* The bone of a triangle (docs/dfm.md §16): the largest sum of weights over its corners, ties
 * to the lower bone. */
static guint
triangle_bone (Dfm2Msh     *c,
               guint        level,
               const guint  points[3])
{
  guint bones[3 * MSHED_DFM_MAX_INFLUENCES * 4];
  double sums[G_N_ELEMENTS (bones)];
  guint n = 0, best = 0;

  for (guint k = 0; k < 3; k++)
    {
      guint32 first = 0, count = 0;

      if (!mshed_dfm_get_skin_range (c->dfm, level, points[k], &first, &count))
        continue;
      for (guint32 i = 0; i < count && i < 4 * MSHED_DFM_MAX_INFLUENCES; i++)
        {
          guint32 bone;
          float weight;
          guint j;

          if (!mshed_dfm_get_influence (c->dfm, level, first + i, &bone, &weight) ||
              bone >= c->n_bones)
            continue;
          for (j = 0; j < n && bones[j] != bone; j++)
            ;
          if (j == n)
            {
              bones[n] = bone;
              sums[n++] = 0;
            }
          sums[j] += weight;
        }
    }
  for (guint j = 1; j < n; j++)
    if (sums[j] > sums[best] || (sums[j] == sums[best] && bones[j] < bones[best]))
      best = j;
  return n > 0 ? bones[best] : 0;
}

static guint
add_vertex (Dfm2Msh               *c,
            Bucket                *b,
            guint                  element,
            const MshedDfmElement *e,
            guint                  bone)
{
  gpointer found = g_hash_table_lookup (b->vertex_of, GUINT_TO_POINTER (element + 1));
  float p[3], n[3];

  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  memcpy (p, e->position, sizeof p);
  memcpy (n, e->normal, sizeof n);
  if (c->mode == MSHED_CONVERT_RIGID)
    {
      /* docs/dfm.md §16: into the bone's space with the stored inverse bind */
      apply_3x4 (c->inv_bind + 12 * (gsize) bone, e->position, FALSE, p);
      apply_3x4 (c->inv_bind + 12 * (gsize) bone, e->normal, TRUE, n);
    }
  g_array_append_vals (b->positions, p, 3);
  g_array_append_vals (b->normals, n, 3);
  g_array_append_vals (b->uvs, e->uv0, 2);
  for (guint k = 0; k < 2; k++)
    c->clamped += !(e->uv0[k] >= -32.0f && e->uv0[k] < 32.0f);
  c->vertices++;
  g_hash_table_insert (b->vertex_of, GUINT_TO_POINTER (element + 1),
                       GUINT_TO_POINTER (b->positions->len / 3));
  return b->positions->len / 3 - 1;
}

/* The elements of level @level, read once; NULL with @error when one cannot be formed. */
static MshedDfmElement *
read_elements (Dfm2Msh  *c,
               guint     level,
               guint     n_elements,
               GError  **error)
{
  g_autofree MshedDfmElement *elements = g_new0 (MshedDfmElement, MAX (n_elements, 1));

  for (guint e = 0; e < n_elements; e++)
    if (!mshed_dfm_get_element (c->dfm, level, e, &elements[e]))
      {
        mshed_convert_fail (error, c->where, _("Mesh%u, element %u: its point or texture "
                                               "coordinate is out of range"), level, e);
        return NULL;
      }
  return g_steal_pointer (&elements);
}

/* The buckets (one per node and material) of DFM level @level: mesh @first_mesh + node. */
static gboolean
convert_level (Dfm2Msh  *c,
               guint     level,
               guint     first_mesh,
               GError  **error)
{
  MshedDfmLevel info;
  g_autofree MshedDfmElement *elements = NULL;
  g_autofree guint8 *blended = NULL;

  if (!mshed_dfm_get_level (c->dfm, level, &info))
    return mshed_convert_fail (error, c->where, _("Mesh%u cannot be read"), level);
  elements = read_elements (c, level, info.n_elements, error);
  if (elements == NULL)
    return FALSE;
  blended = g_malloc0 (MAX (info.n_points, 1));
  for (guint g = 0; g < info.n_groups; g++)
    {
      MshedDfmGroup group;
      gsize n_tris = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (c->dfm, level, g, &n_tris);
      guint row;

      if (!mshed_dfm_get_group (c->dfm, level, g, &group))
        return mshed_convert_fail (error, c->where, _("Mesh%u, Group%u cannot be read"),
                                   level, g);
      row = material_row (c, group.material_name ? group.material_name : "");
      for (gsize t = 0; t < n_tris; t++)
        {
          const guint16 *tri = tris + 3 * t;
          guint points[3], bone = 0, node = 0;
          Bucket *b;

          for (guint k = 0; k < 3; k++)
            {
              if (tri[k] >= info.n_elements)
                return mshed_convert_fail (error, c->where, _("Mesh%u, Group%u, triangle %u: "
                                                              "element %u is out of range"),
                                           level, g, (guint) t, tri[k]);
              points[k] = elements[tri[k]].point;
            }
          if (c->mode == MSHED_CONVERT_RIGID)
            {
              bone = triangle_bone (c, level, points);
              node = (guint) c->node_of_bone[bone];
            }
          b = bucket_for (g_ptr_array_index (c->meshes, first_mesh + node), row);
          for (guint k = 0; k < 3; k++)
            {
              guint32 v = add_vertex (c, b, tri[k], &elements[tri[k]], bone);

              g_array_append_val (b->indices, v);
            }
          c->report->triangles++;
        }
    }
  for (guint p = 0; p < info.n_points; p++)
    {
      guint32 first, count;

      if (mshed_dfm_get_skin_range (c->dfm, level, p, &first, &count) && count > 1)
        c->blended++;
    }
  return TRUE;
}

/* docs/dfm.md §16: the level whose fraction is nearest to 1.0, 0.6, 0.2 (ties to the more
 * detailed). */
static gboolean
map_levels (Dfm2Msh  *c,
            guint     lod_level[MSHED_N_LODS],
            GError  **error)
{
  static const float targets[MSHED_N_LODS] = { 1.0f, 0.6f, 0.2f };
  guint n = mshed_dfm_get_n_levels (c->dfm);

  if (n == 0)
    return mshed_convert_fail (error, c->where, _("the model has no level (MultiLevel/Mesh0)"));
  if (mshed_dfm_get_n_fractions (c->dfm) != n)
    return mshed_convert_fail (error, c->where, _("Fractions has %u values for %u levels; "
                                                  "the levels cannot be mapped to MSH LODs"),
                               mshed_dfm_get_n_fractions (c->dfm), n);
  for (guint k = 0; k < MSHED_N_LODS; k++)
    {
      float best = INFINITY;

      lod_level[k] = 0;
      for (guint l = 0; l < n; l++)
        {
          float f = 0;

          if (!mshed_dfm_get_fraction (c->dfm, l, &f) || !isfinite (f))
            return mshed_convert_fail (error, c->where, _("Fractions[%u] is not a number"), l);
          if (fabsf (f - targets[k]) < best)
            {
              best = fabsf (f - targets[k]);
              lod_level[k] = l;
            }
        }
    }
  return TRUE;
}

/* docs/dfm.md §16: the Object name, or for a detached bone its directory name without the
 * exporter's 12-digit timestamp and `.3db`. Names with no Windows-1251 form become `bone`. */
static char *
bone_node_name (const MshedDfmBone *bone)
{
  g_autofree char *name = NULL;
  g_autoptr(GBytes) cp = NULL;
  gsize len;

  if (bone->object_name)
    name = g_strdup (bone->object_name);
  else
    {
      name = g_strdup (bone->name);
      len = strlen (name);
      if (len >= 4 && g_ascii_strcasecmp (name + len - 4, ".3db") == 0)
        name[len -= 4] = '\0';
      if (len > 12 && strspn (name + len - 12, "0123456789") == 12)
        name[len - 12] = '\0';
    }
  cp = g_utf8_validate (name, -1, NULL) ? mshed_utf8_to_cp1251 (name, NULL) : NULL;
  return cp ? g_steal_pointer (&name) : g_strdup ("bone");
}

/* docs/dfm.md §16: the bone table, the node order and each node's rest transform. */
static gboolean
setup_nodes (Dfm2Msh        *c,
             MshedGltfNode  *nodes,
             GError        **error)
{
  g_autofree guint *order = g_new (guint, MAX (c->n_bones, 1));
  g_autofree gint *parent = g_new (gint, MAX (c->n_bones, 1));

  for (guint b = 0; b < c->n_bones; b++)
    {
      MshedDfmBone bone;

      if (!mshed_dfm_get_bone (c->dfm, b, &bone) || !bone.has_bone_to_root)
        return mshed_convert_fail (error, c->where, _("bone %u has no “Bone to root”"), b);
      memcpy (c->inv_bind + 12 * (gsize) b, bone.bone_to_root, 12 * sizeof (float));
    }
  if (c->mode == MSHED_CONVERT_STATIC)
    return TRUE;
  order_bones (c, order, parent);
  for (guint n = 0; n < c->n_nodes; n++)
    {
      guint b = order[n];
      MshedDfmBone bone;
      float bind[12], local[12], m[9];

      mshed_dfm_get_bone (c->dfm, b, &bone);
      mshed_dfm_bind_from_bone_to_root (bone.bone_to_root, bind);
      /* L = Bind_parent⁻¹ · Bind_b, Bind_parent⁻¹ being the parent's stored inverse bind */
      if (parent[b] >= 0)
        {
          const float *inv = c->inv_bind + 12 * (gsize) parent[b];

          for (guint i = 0; i < 3; i++)
            for (guint j = 0; j < 3; j++)
              local[3 * i + j] = inv[3 * i] * bind[j] + inv[3 * i + 1] * bind[3 + j] +
                                 inv[3 * i + 2] * bind[6 + j];
          apply_3x4 (inv, bind + 9, FALSE, local + 9);
        }
      else
        memcpy (local, bind, sizeof local);
      memcpy (m, local, sizeof m);
      matrix_to_quat (m, nodes[n].rotation);
      memcpy (nodes[n].translation, local + 9, 3 * sizeof (float));
      nodes[n].parent = parent[b] >= 0 ? c->node_of_bone[parent[b]] : -1;
      nodes[n].name = bone_node_name (&bone);
    }
  return TRUE;
}

static void
report_dfm_losses (Dfm2Msh     *c,
                   const guint  lod_level[MSHED_N_LODS])
{
  MshedConvertReport *r = c->report;
  guint n_levels = mshed_dfm_get_n_levels (c->dfm), used = 0, uv1 = 0, uv_bone = 0;
  guint lod_bits = 0, hardpoints = 0, detached = 0, edges = 0, groups = 0;

  for (guint l = 0; l < n_levels; l++)
    {
      MshedDfmLevel level;
      gboolean converted = l == lod_level[0] || l == lod_level[1] || l == lod_level[2];

      used += converted;
      if (!mshed_dfm_get_level (c->dfm, l, &level))
        continue;
      uv1 += level.has_uv1;
      uv_bone += level.has_uv_bone;
      for (guint g = 0; g < level.n_groups; g++)
        {
          MshedDfmGroup group;

          if (mshed_dfm_get_group (c->dfm, l, g, &group))
            {
              edges += group.n_edges;
              groups += converted;
            }
        }
    }
  for (guint b = 0; b < c->n_bones; b++)
    {
      MshedDfmBone bone;

      if (!mshed_dfm_get_bone (c->dfm, b, &bone))
        continue;
      lod_bits += bone.has_lod_bits;
      hardpoints += bone.n_hardpoints;
      detached += bone.part < 0;
    }
  if (c->mode == MSHED_CONVERT_STATIC)
    mshed_convert_lose (r, "skin", c->n_bones,
                        _("bones with their skin weights: the static model cannot be posed"));
  else
    mshed_convert_lose (r, "blending", c->blended,
                        _("points with 2 to 4 influences: their blending (each triangle "
                          "follows one bone)"));
  mshed_convert_lose (r, "uv1", uv1, _("levels with a second texture coordinate set (UV1)"));
  mshed_convert_lose (r, "uv-bone", uv_bone, _("UV bone blocks (the facial animation)"));
  mshed_convert_lose (r, "levels", n_levels - used, _("levels that no MSH LOD takes"));
  mshed_convert_lose (r, "fractions", mshed_dfm_get_n_fractions (c->dfm),
                      _("Fractions values"));
  mshed_convert_lose (r, "lod-bits", lod_bits, _("“Lod Bits” of bones"));
  mshed_convert_lose (r, "hardpoints", hardpoints, _("hardpoints"));
  mshed_convert_lose (r, "joints", mshed_dfm_get_n_joints (c->dfm),
                      _("Cons joints: their kinds and limits"));
  mshed_convert_lose (r, "skeleton-name", mshed_dfm_get_skeleton_name (c->dfm) != NULL,
                      _("“Skeleton/Name” and with it the binding of .anm animations"));
  mshed_convert_lose (r, "detached", detached,
                      _("detached bones: the seam to the host model they stand for"));
  mshed_convert_lose (r, "edges", edges, _("Edge_indices pairs with their Edge_angles"));
  mshed_convert_lose (r, "exporter-version", mshed_dfm_get_exporter_version (c->dfm) != NULL,
                      _("“Exporter Version”"));
  mshed_convert_lose (r, "timestamps", c->mode == MSHED_CONVERT_RIGID ? c->n_bones : 0,
                      _("bone directory names (with their timestamps)"));
  mshed_convert_lose (r, "precision", c->vertices,
                      _("vertices whose normals and texture coordinates lose float precision "
                        "(1/127, 1/1024)"));
  mshed_convert_lose (r, "uv-clamped", c->clamped,
                      _("texture coordinates outside ±32, clamped"));
  mshed_convert_lose (r, "strips", groups, _("face groups whose strips become triangle lists"));
  mshed_convert_lose (r, "materials", mshed_dfm_get_n_materials (c->dfm),
                      _("material definitions (only their names go to the WEAR table)"));
  mshed_convert_lose (r, "textures", mshed_dfm_get_n_textures (c->dfm),
                      _("textures of the Texture library"));
}

static void
free_gltf (MshedGltf *g)
{
  for (guint n = 0; n < g->n_nodes; n++)
    g_free (g->nodes[n].name);
  for (guint m = 0; m < g->n_meshes; m++)
    {
      for (guint p = 0; p < g->meshes[m].n_primitives; p++)
        {
          g_free (g->meshes[m].primitives[p].positions);
          g_free (g->meshes[m].primitives[p].normals);
          g_free (g->meshes[m].primitives[p].uvs);
          g_free (g->meshes[m].primitives[p].indices);
        }
      g_free (g->meshes[m].primitives);
      g_free (g->meshes[m].name);
    }
  g_free (g->nodes);
  g_free (g->meshes);
}

/* The non-empty buckets as glTF meshes, one primitive per material (the builder refuses a
 * mesh no node shows); @lod_meshes is renumbered to match. */
static void
fill_meshes (Dfm2Msh   *c,
             MshedGltf *g,
             gint      *lod_meshes)
{
  g_autofree gint *renumber = g_new (gint, MAX (c->meshes->len, 1));

  g->meshes = g_new0 (MshedGltfMesh, MAX (c->meshes->len, 1));
  for (guint k = 0; k < c->meshes->len; k++)
    {
      GPtrArray *buckets = g_ptr_array_index (c->meshes, k);
      guint m = g->n_meshes;

      renumber[k] = -1;
      if (buckets->len == 0)
        continue;
      renumber[k] = (gint) g->n_meshes++;

      g->meshes[m].name = g_strdup_printf ("mesh %u", m);
      g->meshes[m].n_primitives = buckets->len;
      g->meshes[m].primitives = g_new0 (MshedGltfPrimitive, MAX (buckets->len, 1));
      for (guint p = 0; p < buckets->len; p++)
        {
          Bucket *b = g_ptr_array_index (buckets, p);
          MshedGltfPrimitive *prim = &g->meshes[m].primitives[p];

          prim->n_vertices = b->positions->len / 3;
          prim->positions = g_memdup2 (b->positions->data, b->positions->len * sizeof (float));
          prim->normals = g_memdup2 (b->normals->data, b->normals->len * sizeof (float));
          prim->uvs = g_memdup2 (b->uvs->data, b->uvs->len * sizeof (float));
          prim->n_indices = b->indices->len;
          prim->indices = g_memdup2 (b->indices->data, b->indices->len * sizeof (guint32));
          prim->material = (gint) b->material;
        }
    }
  for (guint i = 0; i < 3 * c->n_nodes; i++)
    if (lod_meshes[i] >= 0)
      lod_meshes[i] = renumber[lod_meshes[i]];
}

/* Nodes, meshes and LOD cells of the glTF the builder takes. */
static gboolean
describe (Dfm2Msh    *c,
          MshedGltf  *g,
          gint      **lod_meshes,
          GError    **error)
{
  guint lod_level[MSHED_N_LODS];

  if (!map_levels (c, lod_level, error))
    return FALSE;
  g->n_nodes = c->n_nodes;
  g->nodes = g_new0 (MshedGltfNode, c->n_nodes);
  for (guint n = 0; n < c->n_nodes; n++)
    {
      g->nodes[n].parent = -1;
      g->nodes[n].mesh = -1;
      g->nodes[n].rotation[3] = 1;
    }
  if (!setup_nodes (c, g->nodes, error))
    return FALSE;
  if (c->mode == MSHED_CONVERT_STATIC)
    g->nodes[0].name = g_strdup ("root");
  *lod_meshes = g_new (gint, 3 * (gsize) c->n_nodes);
  for (guint k = 0; k < MSHED_N_LODS; k++)
    {
      guint first = c->meshes->len;

      if (k > 0 && lod_level[k] == lod_level[k - 1])
        {
          for (guint n = 0; n < c->n_nodes; n++)
            (*lod_meshes)[3 * n + k] = (*lod_meshes)[3 * n + k - 1];
          continue;
        }
      for (guint n = 0; n < c->n_nodes; n++)
        g_ptr_array_add (c->meshes, g_ptr_array_new_with_free_func (bucket_free));
      if (!convert_level (c, lod_level[k], first, error))
        return FALSE;
      c->report->levels++;
      for (guint n = 0; n < c->n_nodes; n++)
        (*lod_meshes)[3 * n + k] = (gint) (first + n);
    }
  if (c->report->triangles == 0)
    return mshed_convert_fail (error, c->where, _("the levels to convert have no triangle"));
  report_dfm_losses (c, lod_level);
  fill_meshes (c, g, *lod_meshes);
  return TRUE;
}

/**
 * mshed_convert_dfm_to_msh:
 *
 * Returns: (transfer full) (nullable): the new model's container
 */
MshedNres *
mshed_convert_dfm_to_msh (MshedDfm            *dfm,
                          const char          *where,
                          MshedConvertMode     mode,
                          GBytes             **wear,
                          MshedConvertReport  *report,
                          GError             **error)
{
  Dfm2Msh c = { dfm, where, mode, report };
  MshedGltf g = { 0 };
  g_autofree gint *lod_meshes = NULL;
  MshedNres *nres = NULL;

  g_return_val_if_fail (dfm != NULL && wear != NULL && report != NULL, NULL);
  c.n_bones = mshed_dfm_get_n_bones (dfm);
  if (c.n_bones == 0)
    {
      mshed_convert_fail (error, where, _("the model has no bone (no <name>.3db directory)"));
      return NULL;
    }
  if (mode == MSHED_CONVERT_RIGID && c.n_bones >= MSHED_NONE)
    {
      mshed_convert_fail (error, where, _("%u bones; an MSH model has at most 65,534 nodes"),
                          c.n_bones);
      return NULL;
    }
  c.n_nodes = mode == MSHED_CONVERT_STATIC ? 1 : c.n_bones;
  c.node_of_bone = g_new0 (gint, c.n_bones);
  c.inv_bind = g_new0 (float, 12 * (gsize) c.n_bones);
  c.materials = g_ptr_array_new_with_free_func (g_free);
  c.meshes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g.where = (char *) where;
  if (describe (&c, &g, &lod_meshes, error))
    nres = mshed_gltf_build_model_lods (&g, lod_meshes, error);
  if (nres)
    {
      report->nodes = c.n_nodes;
      report->materials = c.materials->len;
      *wear = wear_text (c.materials);
    }
  free_gltf (&g);
  g_free (c.node_of_bone);
  g_free (c.inv_bind);
  g_ptr_array_unref (c.materials);
  g_ptr_array_unref (c.meshes);
  return nres;
}
