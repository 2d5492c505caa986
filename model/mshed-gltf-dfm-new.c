/* mshed-gltf-dfm-new.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A new DFM from a skinned glTF without mshed extras (docs/gltf.md §8.4): the skin's joints as
 * bones, every skinned mesh in one level, one face group per primitive written as a strip by
 * our encoder (docs/dfm.md §5.3), the tree in the retail node order (docs/dfm.md §2).
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-dfm-recompute.h"
#include "mshed-dfm-strip.h"
#include "mshed-gltf-dfm.h"

#define MAX_ELEMENTS 65536u   /* face indices are uint16 (docs/dfm.md §6.1) */

typedef struct {
  const MshedGltf *gltf;
  MshedUtf        *utf;
  guint            n_bones;
  guint           *bone_of_joint;  /* skin joint -> bone */
  guint           *node_of_bone;   /* bone -> glTF node */
  gint            *parent;         /* bone -> parent bone, -1 for the root */
  char           **names;          /* bone -> Windows-1251 name */
  MshedDfmXform   *bind;           /* bone -> model-from-bone */
  float           *bone_to_root;   /* bone -> the inverse bind matrix as 12 floats */
} Build;

static void
file_array (Build        *b,
            MshedUtfNode *parent,
            const char   *name,
            GArray       *a)
{
  mshed_utf_append_file (b->utf, parent, name, a->data,
                         (gsize) a->len * g_array_get_element_size (a));
}

static void
word (Build        *b,
      MshedUtfNode *parent,
      const char   *name,
      guint32       value)
{
  guint8 w[4];

  mshed_write_u32 (w, value);
  mshed_utf_append_file (b->utf, parent, name, w, 4);
}

/* Bones ------------------------------------------------------------------------------------ */

static gint
joint_of_node (const MshedGltfSkin *skin,
               gint                 node)
{
  for (guint j = 0; j < skin->n_joints; j++)
    if ((gint) skin->joints[j] == node)
      return (gint) j;
  return -1;
}

static gboolean
rigid (const MshedDfmXform *x)
{
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      {
        double dot = 0;

        for (guint k = 0; k < 3; k++)
          dot += x->r[i * 3 + k] * x->r[j * 3 + k];
        if (fabs (dot - (i == j)) > 1e-3)
          return FALSE;
      }
  return TRUE;
}

static gboolean
build_bones (Build   *b,
             GError **error)
{
  const MshedGltfSkin *skin = &b->gltf->skins[0];
  gint root = -1;
  guint next = 1;

  b->n_bones = skin->n_joints;
  b->bone_of_joint = g_new (guint, b->n_bones);
  b->node_of_bone = g_new (guint, b->n_bones);
  b->parent = g_new (gint, b->n_bones);
  b->names = g_new0 (char *, b->n_bones + 1);
  b->bind = g_new0 (MshedDfmXform, b->n_bones);
  b->bone_to_root = g_new0 (float, (gsize) b->n_bones * 12);
  /* the first joint without a joint above it is the root, bone 0; the others keep their
   * order */
  for (guint j = 0; j < skin->n_joints && root < 0; j++)
    {
      gint p = b->gltf->nodes[skin->joints[j]].parent;

      while (p >= 0 && joint_of_node (skin, p) < 0)
        p = b->gltf->nodes[p].parent;
      if (p < 0)
        root = (gint) j;
    }
  for (guint j = 0; j < skin->n_joints; j++)
    b->bone_of_joint[j] = (gint) j == root ? 0 : next++;
  for (guint j = 0; j < skin->n_joints; j++)
    {
      guint bone = b->bone_of_joint[j], node = skin->joints[j];
      const char *name = b->gltf->nodes[node].name;
      g_autoptr(GBytes) cp = name && *name ? mshed_utf8_to_cp1251 (name, NULL) : NULL;
      gint p = b->gltf->nodes[node].parent;
      MshedDfmXform inverse_bind;

      if (cp == NULL || g_bytes_get_size (cp) > 59 || memchr (g_bytes_get_data (cp, NULL), '\\',
                                                                g_bytes_get_size (cp)))
        return mshed_gltf_fail (b->gltf, error, _("nodes[%u] (“%s”): a joint needs a name of 1 "
                                                  "to 59 Windows-1251 characters without “\\” "
                                                  "(a DFM bone's Object name)"), node, name);
      b->names[bone] = g_strndup (g_bytes_get_data (cp, NULL), g_bytes_get_size (cp));
      for (guint k = 0; k < bone; k++)
        if (b->names[k] && g_ascii_strcasecmp (b->names[k], b->names[bone]) == 0)
          return mshed_gltf_fail (b->gltf, error, _("nodes[%u] (“%s”): two joints have this "
                                                    "name; DFM bones are found by name"),
                                  node, name);
      b->node_of_bone[bone] = node;
      while (p >= 0 && joint_of_node (skin, p) < 0)
        p = b->gltf->nodes[p].parent;
      b->parent[bone] = bone == 0 ? -1 : p < 0 ? 0 : (gint) b->bone_of_joint[joint_of_node (skin,
                                                                                        p)];
      if (skin->inverse_bind == NULL)
        return mshed_gltf_fail (b->gltf, error, _("skins[0]: no inverseBindMatrices, which "
                                                  "become the bones' Bone to root"));
      for (guint r = 0; r < 3; r++)
        {
          for (guint c = 0; c < 3; c++)
            {
              inverse_bind.r[r * 3 + c] = skin->inverse_bind[j * 16 + c * 4 + r];
              b->bone_to_root[bone * 12 + r * 3 + c] = skin->inverse_bind[j * 16 + c * 4 + r];
            }
          inverse_bind.t[r] = skin->inverse_bind[j * 16 + 12 + r];
          b->bone_to_root[bone * 12 + 9 + r] = skin->inverse_bind[j * 16 + 12 + r];
        }
      if (!rigid (&inverse_bind))
        return mshed_gltf_fail (b->gltf, error, _("skins[0].inverseBindMatrices[%u]: scale or "
                                                  "shear; a DFM Bone to root is a rotation and "
                                                  "a translation"), j);
      mshed_dfm_xform_invert (&inverse_bind, &b->bind[bone]);
    }
  return TRUE;
}

static void
push_name (GByteArray *a,
           const char *name)
{
  guint8 field[64] = { 0 };

  memcpy (field, name, MIN (strlen (name), 63));
  g_byte_array_append (a, field, 64);
}

static void
push_float (GByteArray *a,
            double      v)
{
  float f = (float) v;

  g_byte_array_append (a, (const guint8 *) &f, 4);
}

static void
add_cmpnd (Build        *b,
           MshedUtfNode *root)
{
  MshedUtfNode *cmpnd = mshed_utf_append_directory (b->utf, root, "Cmpnd");
  GByteArray *loose = g_byte_array_new ();
  float one = 1.0f;

  mshed_utf_append_file (b->utf, cmpnd, "Scale", &one, 4);
  for (guint i = 0; i < b->n_bones; i++)
    {
      g_autofree char *part_name = g_strdup_printf ("Part_%s", b->names[i]);
      g_autofree char *file_name = g_strdup_printf ("%s.3db", b->names[i]);
      MshedUtfNode *part = mshed_utf_append_directory (b->utf, cmpnd, i == 0 ? "Root" : part_name);
      MshedDfmXform parent_inverse, local;

      mshed_utf_append_text (b->utf, part, "Object name", b->names[i]);
      mshed_utf_append_text (b->utf, part, "File name", file_name);
      word (b, part, "Index", i);
      if (i == 0)
        continue;
      /* a Loose joint at the bind pose: L = Bind_parent⁻¹ · Bind (docs/dfm.md §9.2) */
      mshed_dfm_xform_invert (&b->bind[b->parent[i]], &parent_inverse);
      mshed_dfm_xform_compose (&parent_inverse, &b->bind[i], &local);
      push_name (loose, b->names[b->parent[i]]);
      push_name (loose, b->names[i]);
      for (guint k = 0; k < 3; k++)
        push_float (loose, local.t[k]);
      for (guint k = 0; k < 9; k++)
        push_float (loose, local.r[k]);
    }
  mshed_utf_append_file (b->utf, mshed_utf_append_directory (b->utf, cmpnd, "Cons"), "Loose",
                         loose->data, loose->len);
  g_byte_array_unref (loose);
}

static void
add_bone_dirs (Build        *b,
               MshedUtfNode *root)
{
  for (guint i = 0; i < b->n_bones; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.3db", b->names[i]);
      MshedUtfNode *bone = mshed_utf_append_directory (b->utf, root, name);
      guint8 lod_bits = 1;

      /* the inverse bind matrix as it is (docs/dfm.md §10.2) */
      mshed_utf_append_file (b->utf, bone, "Bone to root", &b->bone_to_root[i * 12], 48);
      mshed_utf_append_file (b->utf, bone, "Lod Bits", &lod_bits, 1);
    }
}

/* Geometry ----------------------------------------------------------------------------------- */

typedef struct {
  GArray *points, *normals, *uv0, *uv1, *indices, *first, *count, *ids, *weights;
  guint   n;
  gboolean has_uv1;
} Geo;

static const char *
material_name (const MshedGltf *g,
               gint             material,
               char             buf[32])
{
  JsonArray *materials = NULL;
  JsonObject *root = json_node_get_object (json_parser_get_root (g->parser));

  if (json_object_has_member (root, "materials"))
    materials = json_object_get_array_member (root, "materials");
  if (material >= 0 && materials && (guint) material < json_array_get_length (materials))
    {
      JsonObject *m = json_array_get_object_element (materials, (guint) material);
      const char *name = m ? json_object_get_string_member_with_default (m, "name", "") : "";

      if (*name && strlen (name) < 32 && g_str_is_ascii (name) && !strchr (name, '\\'))
        return name;
    }
  g_snprintf (buf, 32, "material%d", MAX (material, 0));
  return buf;
}

static gboolean
add_primitive (Build                    *b,
               Geo                      *geo,
               const MshedGltfPrimitive *prim,
               const char               *what,
               GError                  **error)
{
  guint base = geo->n;

  if (prim->joints == NULL)
    return mshed_gltf_fail (b->gltf, error, _("%s: no JOINTS_0 and WEIGHTS_0; every vertex of "
                                              "a deformable model is skinned"), what);
  if (prim->n_vertices > MAX_ELEMENTS - geo->n)
    return mshed_gltf_fail (b->gltf, error, _("%s: the level would have more than 65,536 "
                                              "vertices, more than uint16 face indices can "
                                              "reach"), what);
  for (guint v = 0; v < prim->n_vertices; v++)
    {
      guint32 first = geo->ids->len, count = 0;
      float zero[3] = { 0, 0, 0 }, up[3] = { 0, 1, 0 };
      const float *n = prim->normals ? &prim->normals[v * 3] : up;
      double len = sqrt ((double) n[0] * n[0] + (double) n[1] * n[1] + (double) n[2] * n[2]);
      float unit[3];

      for (guint k = 0; k < 3; k++)
        unit[k] = len > 1e-12 ? (float) (n[k] / len) : up[k];
      g_array_append_vals (geo->points, &prim->positions[v * 3], 3);
      g_array_append_vals (geo->normals, unit, 3);
      g_array_append_vals (geo->uv0, prim->uvs ? &prim->uvs[v * 2] : zero, 2);
      g_array_append_vals (geo->uv1, prim->ids ? &prim->ids[v * 2] : zero, 2);
      geo->has_uv1 |= prim->ids != NULL;
      for (guint q = 0; q < 4; q++)
        {
          guint32 joint = prim->joints[v * 4 + q];
          float w = prim->weights[v * 4 + q];

          if (!(w > 0))
            continue;
          if (joint >= b->n_bones)
            return mshed_gltf_fail (b->gltf, error, _("%s: vertex %u names joint %u of %u"),
                                    what, v, joint, b->n_bones);
          joint = b->bone_of_joint[joint];
          g_array_append_val (geo->ids, joint);
          g_array_append_val (geo->weights, w);
          count++;
        }
      if (count == 0)
        return mshed_gltf_fail (b->gltf, error, _("%s: vertex %u has no weight; every DFM point "
                                                  "has at least one influence"), what, v);
      g_array_append_val (geo->first, first);
      g_array_append_val (geo->count, count);
      geo->n++;
    }
  for (guint i = 0; i < prim->n_indices; i++)
    {
      guint16 index = (guint16) (base + prim->indices[i]);

      g_array_append_val (geo->indices, index);
    }
  return TRUE;
}

static gboolean
add_level (Build        *b,
           MshedUtfNode *multi,
           GPtrArray    *material_names,
           GError      **error)
{
  MshedUtfNode *mesh = mshed_utf_append_directory (b->utf, multi, "Mesh0");
  MshedUtfNode *groups = mshed_utf_append_directory (b->utf, mesh, "Face_groups"), *geometry;
  Geo geo = { 0 };
  g_autoptr(GArray) identity = g_array_new (FALSE, FALSE, 4);
  g_autofree guint8 *mesh_done = g_new0 (guint8, MAX (b->gltf->n_meshes, 1));
  guint n_groups = 0;
  gboolean ok = TRUE;

  geo.points = g_array_new (FALSE, FALSE, 4);
  geo.normals = g_array_new (FALSE, FALSE, 4);
  geo.uv0 = g_array_new (FALSE, FALSE, 4);
  geo.uv1 = g_array_new (FALSE, FALSE, 4);
  geo.indices = g_array_new (FALSE, FALSE, 2);
  geo.first = g_array_new (FALSE, FALSE, 4);
  geo.count = g_array_new (FALSE, FALSE, 4);
  geo.ids = g_array_new (FALSE, FALSE, 4);
  geo.weights = g_array_new (FALSE, FALSE, 4);
  word (b, groups, "Count", 0);
  for (guint i = 0; i < b->gltf->n_nodes && ok; i++)
    {
      const MshedGltfNode *node = &b->gltf->nodes[i];
      const MshedGltfMesh *m;

      if (node->mesh < 0 || mesh_done[node->mesh])
        continue;
      if (node->skin != 0)
        {
          ok = mshed_gltf_fail (b->gltf, error, _("nodes[%u] (“%s”): a mesh without skin 0; "
                                                  "a deformable model's geometry is skinned "
                                                  "to one skeleton"), i, node->name);
          break;
        }
      mesh_done[node->mesh] = 1;
      m = &b->gltf->meshes[node->mesh];
      for (guint p = 0; p < m->n_primitives && ok; p++)
        {
          g_autofree char *what = g_strdup_printf ("meshes[%d].primitives[%u] (“%s”)",
                                                   node->mesh, p, m->name);
          g_autofree char *group_name = g_strdup_printf ("Group%u", n_groups);
          g_autoptr(GBytes) strip = NULL;
          const char *mat;
          char buf[32];
          guint first_index = geo.indices->len;
          MshedUtfNode *group;

          if (!(ok = add_primitive (b, &geo, &m->primitives[p], what, error)))
            break;
          mat = material_name (b->gltf, m->primitives[p].material, buf);
          strip = mshed_dfm_strip_encode (&g_array_index (geo.indices, guint16, first_index),
                                          (geo.indices->len - first_index) / 3,
                                          MSHED_DFM_STRIP_JOIN, NULL);
          group = mshed_utf_append_directory (b->utf, groups, group_name);
          mshed_utf_append_text (b->utf, group, "Material_name", mat);
          mshed_utf_append_file (b->utf, group, "Tristrip_indices", g_bytes_get_data (strip, NULL),
                g_bytes_get_size (strip));
          if (!g_ptr_array_find_with_equal_func (material_names, mat, g_str_equal, NULL))
            g_ptr_array_add (material_names, g_strdup (mat));
          n_groups++;
        }
    }
  if (ok && geo.n == 0)
    ok = mshed_gltf_fail (b->gltf, error, _("no skinned mesh; a deformable model needs one"));
  if (ok)
    {
      {
        guint8 w[4];
        g_autoptr(GBytes) count = NULL;

        mshed_write_u32 (w, n_groups);
        count = g_bytes_new (w, 4);
        g_bytes_unref (mshed_utf_set_data (b->utf, mshed_utf_node_get_first_child (groups),
                                           count));
      }
      for (guint32 e = 0; e < geo.n; e++)
        g_array_append_val (identity, e);
      geometry = mshed_utf_append_directory (b->utf, mesh, "Geometry");
      file_array (b, geometry, "Point_indices", identity);
      file_array (b, geometry, "UV0_indices", identity);
      if (geo.has_uv1)
        file_array (b, geometry, "UV1_indices", identity);
      file_array (b, geometry, "Points", geo.points);
      file_array (b, geometry, "Point_bone_first", geo.first);
      file_array (b, geometry, "Point_bone_count", geo.count);
      file_array (b, geometry, "Bone_id_chain", geo.ids);
      file_array (b, geometry, "Bone_weight_chain", geo.weights);
      file_array (b, geometry, "Vertex_normals", geo.normals);
      file_array (b, geometry, "UV0", geo.uv0);
      if (geo.has_uv1)
        file_array (b, geometry, "UV1", geo.uv1);
    }
  g_array_unref (geo.points);
  g_array_unref (geo.normals);
  g_array_unref (geo.uv0);
  g_array_unref (geo.uv1);
  g_array_unref (geo.indices);
  g_array_unref (geo.first);
  g_array_unref (geo.count);
  g_array_unref (geo.ids);
  g_array_unref (geo.weights);
  return ok;
}

static void
add_materials (Build        *b,
               MshedUtfNode *root,
               GPtrArray    *names)
{
  MshedUtfNode *lib = mshed_utf_append_directory (b->utf, root, "Material library");
  static const float dc[3] = { 1, 1, 1 };

  word (b, lib, "Material count", names->len);
  for (guint k = 0; k < names->len; k++)
    {
      MshedUtfNode *mat = mshed_utf_append_directory (b->utf, lib, names->pdata[k]);

      mshed_utf_append_text (b->utf, mat, "Type", "DcDt");
      mshed_utf_append_file (b->utf, mat, "Dc", dc, sizeof dc);
    }
}

GBytes *
mshed_gltf_build_dfm (const MshedGltf  *gltf,
                      GError          **error)
{
  Build b = { gltf };
  g_autoptr(GPtrArray) materials = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *version = g_strdup_printf ("mshed %s", PACKAGE_VERSION);
  g_autofree char *skeleton = NULL;
  MshedUtfNode *root, *multi, *skel;
  GBytes *out = NULL;
  float fraction = 1.0f;

  if (gltf->n_skins == 0)
    {
      mshed_gltf_fail (gltf, error, _("no skin; a deformable model is a skinned mesh (import "
                                      "rigid models as MSH)"));
      return NULL;
    }
  if (gltf->n_skins > 1)
    {
      mshed_gltf_fail (gltf, error, _("skins[1]: more than one skin; a deformable model has one "
                                      "skeleton"));
      return NULL;
    }
  b.utf = mshed_utf_new ();
  mshed_utf_set_filetime (b.utf, MSHED_UTF_LIBRELANCER_FILETIME);
  mshed_utf_set_new_entry_time (b.utf, MSHED_UTF_LIBRELANCER_TIME);
  root = mshed_utf_get_root (b.utf);
  for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
    mshed_utf_set_time (b.utf, root, t, MSHED_UTF_LIBRELANCER_TIME);
  if (build_bones (&b, error))
    {
      mshed_utf_append_text (b.utf, root, "Exporter Version", version);
      multi = mshed_utf_append_directory (b.utf, root, "MultiLevel");
      mshed_utf_append_file (b.utf, multi, "Fractions", &fraction, 4);
      if (add_level (&b, multi, materials, error))
        {
          add_materials (&b, root, materials);
          skel = mshed_utf_append_directory (b.utf, root, "Skeleton");
          skeleton = g_strdup_printf ("%s.cmp", b.names[0]);
          mshed_utf_append_text (b.utf, skel, "Name", skeleton);
          add_cmpnd (&b, root);
          add_bone_dirs (&b, root);
          out = mshed_utf_serialize (b.utf, MSHED_UTF_WRITE_CANONICAL, NULL, error);
        }
    }
  mshed_utf_unref (b.utf);
  g_free (b.bone_of_joint);
  g_free (b.node_of_bone);
  g_free (b.parent);
  for (guint i = 0; b.names && i < b.n_bones; i++)
    g_free (b.names[i]);
  g_free (b.names);
  g_free (b.bind);
  g_free (b.bone_to_root);
  return out;
}
