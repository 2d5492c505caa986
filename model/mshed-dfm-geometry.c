/* mshed-dfm-geometry.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The typed accessors of a MshedDfm's levels (docs/dfm.md §3–§6): fractions, face groups,
 * their triangles and the topology edit, elements, skin weights and the UV bone block. Every
 * value is read from the current payload and every index is checked against it.
 */
#define G_LOG_DOMAIN "mshed-dfm"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-private.h"
#include "mshed-dfm-strip.h"
#include "mshed-error.h"

/* the geometry array @table of @level */
static gboolean
geo (const MshedDfm *self,
     guint           level,
     MshedDfmTable   table,
     MshedDfmArray  *out)
{
  return mshed_dfm_get_array (self, table, level, 0, out);
}

/**
 * mshed_dfm_get_n_levels:
 *
 * Returns: the number of `Mesh<n>` directories of `MultiLevel`, in tree order
 */
guint
mshed_dfm_get_n_levels (const MshedDfm *self)
{
  return self->meshes->len;
}

guint
mshed_dfm_get_n_fractions (const MshedDfm *self)
{
  gsize size = 0;

  if (self->fractions)
    mshed_utf_node_peek_data (self->fractions, &size);
  return (guint) MIN (size / 4, G_MAXUINT);
}

gboolean
mshed_dfm_get_fraction (const MshedDfm *self,
                        guint           index,
                        float          *out)
{
  return _mshed_dfm_read_f32_at (self->fractions, index, out);
}

gboolean
mshed_dfm_get_level (const MshedDfm *self,
                     guint           level,
                     MshedDfmLevel  *out)
{
  const DfmMesh *m = _mshed_dfm_mesh_at (self, level);
  MshedDfmArray a, b;

  memset (out, 0, sizeof *out);
  if (m == NULL)
    return FALSE;
  out->node = m->dir;
  out->has_fraction = mshed_dfm_get_fraction (self, level, &out->fraction);
  out->n_groups = m->groups->len;
  geo (self, level, MSHED_DFM_TABLE_POINT_INDICES, &a);
  out->n_elements = a.count;
  geo (self, level, MSHED_DFM_TABLE_POINTS, &a);
  out->n_points = a.count;
  geo (self, level, MSHED_DFM_TABLE_UV0, &a);
  out->n_uv0 = a.count;
  out->has_uv1 = geo (self, level, MSHED_DFM_TABLE_UV1, &a) &&
                 geo (self, level, MSHED_DFM_TABLE_UV1_INDICES, &b);
  out->n_uv1 = a.count;
  geo (self, level, MSHED_DFM_TABLE_BONE_ID_CHAIN, &a);
  out->n_chain = a.count;
  for (MshedDfmTable t = MSHED_DFM_TABLE_UV_BONE_ID; t <= MSHED_DFM_TABLE_UV_DEFAULT_LIST; t++)
    out->has_uv_bone |= m->files[t - DFM_GEO_BASE] != NULL;
  return TRUE;
}

gboolean
mshed_dfm_get_group (const MshedDfm *self,
                     guint           level,
                     guint           group,
                     MshedDfmGroup  *out)
{
  const DfmGroup *g = _mshed_dfm_group_at (self, level, group);
  MshedDfmArray a;

  memset (out, 0, sizeof *out);
  if (g == NULL)
    return FALSE;
  out->node = g->dir;
  out->material_name = g->material_name;
  out->material = g->material;
  out->strip = g->files[MSHED_DFM_TABLE_TRISTRIP - DFM_GROUP_BASE] != NULL;
  mshed_dfm_get_array (self, out->strip ? MSHED_DFM_TABLE_TRISTRIP : MSHED_DFM_TABLE_FACE_INDICES,
                       level, group, &a);
  out->n_indices = a.count;
  mshed_dfm_get_array (self, MSHED_DFM_TABLE_EDGE_INDICES, level, group, &a);
  out->n_edges = a.count;
  return TRUE;
}

/**
 * mshed_dfm_dup_triangles:
 * @n_triangles: (out): how many triangles (three element indices each) were returned
 *
 * The group's triangles: `Tristrip_indices` unrolled with docs/dfm.md §5.1, else the whole
 * triples of `Face_indices`. Indices are not checked against the element count (the
 * validator's `dfm-face-index-range`).
 *
 * Returns: (transfer full) (nullable): 3 × @n_triangles element indices; NULL when there is
 *   no triangle
 */
guint16 *
mshed_dfm_dup_triangles (const MshedDfm *self,
                         guint           level,
                         guint           group,
                         gsize          *n_triangles)
{
  MshedDfmGroup g;
  MshedDfmArray a;
  g_autofree guint16 *tris = NULL;

  *n_triangles = 0;
  if (!mshed_dfm_get_group (self, level, group, &g) ||
      !mshed_dfm_get_array (self, g.strip ? MSHED_DFM_TABLE_TRISTRIP : MSHED_DFM_TABLE_FACE_INDICES,
                            level, group, &a) || a.count < 3)
    return NULL;
  tris = g_new (guint16, g.strip ? 3 * ((gsize) a.count - 2) : a.count);
  *n_triangles = g.strip ? mshed_dfm_strip_unroll (a.data, a.count, tris)
                         : mshed_dfm_list_unroll (a.data, a.count, tris);
  return *n_triangles ? g_steal_pointer (&tris) : NULL;
}

/**
 * mshed_dfm_encode_triangles:
 * @triangles: 3 × @n_triangles element indices
 * @node: (out) (transfer none): the file that would hold them
 *
 * The payload a group's index file would get for @triangles, without changing anything: a
 * strip group gets a strip encoded with mshed_dfm_strip_encode (docs/dfm.md §5.3, runs
 * joined), a `Face_indices` group the list. Triangles with two equal corners cannot be drawn
 * by a strip and are refused.
 *
 * Returns: (transfer full) (nullable): the new payload, NULL on error
 */
GBytes *
mshed_dfm_encode_triangles (const MshedDfm  *self,
                            guint            level,
                            guint            group,
                            const guint16   *triangles,
                            gsize            n_triangles,
                            MshedUtfNode   **node,
                            GError         **error)
{
  const DfmGroup *g = _mshed_dfm_group_at (self, level, group);
  MshedUtfNode *target;
  g_autoptr(GBytes) bytes = NULL;
  gsize dropped = 0;

  *node = NULL;
  target = g ? g->files[MSHED_DFM_TABLE_TRISTRIP - DFM_GROUP_BASE] : NULL;
  if (target)
    bytes = mshed_dfm_strip_encode (triangles, n_triangles, MSHED_DFM_STRIP_JOIN, &dropped);
  else if (g && (target = g->files[MSHED_DFM_TABLE_FACE_INDICES - DFM_GROUP_BASE]))
    {
      guint8 *buf = g_malloc (n_triangles * 6 + 1);

      for (gsize k = 0; k < 3 * n_triangles; k++)
        mshed_write_u16 (buf + 2 * k, triangles[k]);
      bytes = g_bytes_new_take (buf, n_triangles * 6);
    }
  if (target == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Mesh%u group %u has no Tristrip_indices or Face_indices to replace"),
                   level, group);
      return NULL;
    }
  if (dropped)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   g_dngettext (GETTEXT_PACKAGE,
                                "%zu triangle has two equal corners; a strip cannot draw it",
                                "%zu triangles have two equal corners; a strip cannot draw them",
                                dropped), dropped);
      return NULL;
    }
  *node = target;
  return g_steal_pointer (&bytes);
}

/**
 * mshed_dfm_set_triangles:
 * @triangles: 3 × @n_triangles element indices
 * @node: (out) (optional) (transfer none): the file that was replaced
 *
 * Replaces the group's indices with mshed_dfm_encode_triangles. The edit is
 * mshed_utf_set_data: its inverse is mshed_utf_set_data (@node, returned bytes).
 *
 * Returns: (transfer full) (nullable): the bytes the file held before, NULL on error
 */
GBytes *
mshed_dfm_set_triangles (MshedDfm       *self,
                         guint           level,
                         guint           group,
                         const guint16  *triangles,
                         gsize           n_triangles,
                         MshedUtfNode  **node,
                         GError        **error)
{
  MshedUtfNode *target = NULL;
  g_autoptr(GBytes) bytes = mshed_dfm_encode_triangles (self, level, group, triangles,
                                                        n_triangles, &target, error);

  if (node)
    *node = target;
  if (bytes == NULL)
    return NULL;
  return mshed_utf_set_data (self->utf, target, bytes);
}

/* Elements and skin ------------------------------------------------------------------------ */

static gboolean
read_vec (const MshedDfmArray *a,
          guint64              index,
          guint                n,
          float               *out)
{
  if (index >= a->count)
    return FALSE;
  for (guint k = 0; k < n; k++)
    out[k] = mshed_read_f32 (a->data + index * a->stride + 4 * k);
  return TRUE;
}

static gboolean
read_index (const MshedDfmArray *a,
            guint64              index,
            guint32             *out)
{
  if (index >= a->count)
    return FALSE;
  *out = mshed_read_u32 (a->data + index * 4);
  return TRUE;
}

gboolean
mshed_dfm_get_point (const MshedDfm *self,
                     guint           level,
                     guint           point,
                     float           position[3],
                     float           normal[3])
{
  MshedDfmArray p, n;

  geo (self, level, MSHED_DFM_TABLE_POINTS, &p);
  geo (self, level, MSHED_DFM_TABLE_VERTEX_NORMALS, &n);
  return read_vec (&p, point, 3, position) && read_vec (&n, point, 3, normal);
}

/**
 * mshed_dfm_get_element:
 *
 * Forms element @element of @level (docs/dfm.md §6.1): position and normal of point
 * `Point_indices[e]`, UV0 coordinate `UV0_indices[e]`, UV1 when the pair exists.
 *
 * Returns: FALSE when an index or array it needs is missing or out of range (@out is then
 *   partly filled); a UV1 out of range only clears has_uv1
 */
gboolean
mshed_dfm_get_element (const MshedDfm  *self,
                       guint            level,
                       guint            element,
                       MshedDfmElement *out)
{
  MshedDfmArray pi, ui, vi, uv0, uv1;

  memset (out, 0, sizeof *out);
  geo (self, level, MSHED_DFM_TABLE_POINT_INDICES, &pi);
  geo (self, level, MSHED_DFM_TABLE_UV0_INDICES, &ui);
  geo (self, level, MSHED_DFM_TABLE_UV0, &uv0);
  if (geo (self, level, MSHED_DFM_TABLE_UV1_INDICES, &vi) &&
      geo (self, level, MSHED_DFM_TABLE_UV1, &uv1) && read_index (&vi, element, &out->uv1_index))
    out->has_uv1 = read_vec (&uv1, out->uv1_index, 2, out->uv1);
  return read_index (&pi, element, &out->point) && read_index (&ui, element, &out->uv0_index) &&
         mshed_dfm_get_point (self, level, out->point, out->position, out->normal) &&
         read_vec (&uv0, out->uv0_index, 2, out->uv0);
}

/**
 * mshed_dfm_get_skin_range:
 *
 * The slice of the bone chains that skins @point (docs/dfm.md §6.2).
 *
 * Returns: FALSE when the point has no entry in `Point_bone_first`/`Point_bone_count` or the
 *   slice ends past either chain
 */
gboolean
mshed_dfm_get_skin_range (const MshedDfm *self,
                          guint           level,
                          guint           point,
                          guint32        *first,
                          guint32        *count)
{
  MshedDfmArray f, c, ids, weights;

  geo (self, level, MSHED_DFM_TABLE_POINT_BONE_FIRST, &f);
  geo (self, level, MSHED_DFM_TABLE_POINT_BONE_COUNT, &c);
  geo (self, level, MSHED_DFM_TABLE_BONE_ID_CHAIN, &ids);
  geo (self, level, MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, &weights);
  if (!read_index (&f, point, first) || !read_index (&c, point, count))
    return FALSE;
  return (guint64) *first + *count <= MIN (ids.count, weights.count);
}

gboolean
mshed_dfm_get_influence (const MshedDfm *self,
                         guint           level,
                         guint32         chain_index,
                         guint32        *bone,
                         float          *weight)
{
  MshedDfmArray ids, weights;

  geo (self, level, MSHED_DFM_TABLE_BONE_ID_CHAIN, &ids);
  geo (self, level, MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, &weights);
  return read_index (&ids, chain_index, bone) && read_vec (&weights, chain_index, 1, weight);
}

/**
 * mshed_dfm_get_uv_bone:
 *
 * The scalars of the UV bone block of @level (docs/dfm.md §6.4); absent values read as 0.
 *
 * Returns: FALSE when the level has no `UV_bone_id`
 */
gboolean
mshed_dfm_get_uv_bone (const MshedDfm *self,
                       guint           level,
                       MshedDfmUvBone *out)
{
  const DfmMesh *m = _mshed_dfm_mesh_at (self, level);
  float *scalars[] = { &out->plane_distance, &out->x_to_u_scale, &out->y_to_v_scale,
                       &out->min_du, &out->max_du, &out->min_dv, &out->max_dv };
  MshedDfmArray ids;

  memset (out, 0, sizeof *out);
  if (m == NULL)
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (scalars); k++)
    _mshed_dfm_read_f32_at (m->files[MSHED_DFM_TABLE_UV_PLANE_DISTANCE + k - DFM_GEO_BASE], 0,
                            scalars[k]);
  _mshed_dfm_read_u32_at (m->files[MSHED_DFM_TABLE_UV_VERTEX_COUNT - DFM_GEO_BASE], 0,
                          &out->vertex_count);
  geo (self, level, MSHED_DFM_TABLE_UV_VERTEX_ID, &ids);
  out->n_vertices = ids.count;
  out->present = _mshed_dfm_read_u32_at (m->files[MSHED_DFM_TABLE_UV_BONE_ID - DFM_GEO_BASE], 0,
                                         &out->bone);
  return out->present;
}

gboolean
mshed_dfm_get_uv_bone_vertex (const MshedDfm *self,
                              guint           level,
                              guint           k,
                              guint32        *uv,
                              float           default_uv[2])
{
  MshedDfmArray ids, defaults;

  geo (self, level, MSHED_DFM_TABLE_UV_VERTEX_ID, &ids);
  geo (self, level, MSHED_DFM_TABLE_UV_DEFAULT_LIST, &defaults);
  return read_index (&ids, k, uv) && read_vec (&defaults, k, 2, default_uv);
}
