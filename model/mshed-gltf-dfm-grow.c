/* mshed-gltf-dfm-grow.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glTF -> DFM import (docs/gltf.md §8.3): the vertices added in Blender become new elements
 * and points of their level, appended to every file that has one record per element or point;
 * the elements deleted in Blender, and the points they leave unused, are removed with every
 * index after them renumbered. Part of the one undo step "Import glTF".
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-gltf-dfm-private.h"

struct _MshedGltfDfmGrow {
  MshedDfm   *dfm;
  guint       level;
  guint       n_elements;   /* stored */
  guint       n_points;
  guint       n_uv0;
  guint       n_uv1;
  gboolean    has_uv1;
  guint8     *used_before;  /* per stored element: a stored triangle draws it */
  guint8     *named;        /* per stored element: a glTF vertex is it */
  float      *best;         /* per stored element: the closest vertex naming it, 3 floats */
  float      *best_d2;      /* its squared distance to the stored point, INFINITY for none */
  GHashTable *point_of;     /* GBytes (position, influences) -> new point + 1 */
  GHashTable *element_of;   /* GBytes (point, UV0, UV1) -> new element + 1 */
  GArray     *points;       /* float, 3 per new point */
  GArray     *normals;      /* float, 3 per new point: its vertices' normals summed */
  GArray     *counts;       /* guint32 per new point: its number of influences */
  GArray     *bones;        /* guint32 per influence of the new points, in point order */
  GArray     *weights;      /* guint32 (float bits), likewise */
  GArray     *element_point;/* guint32 per new element: its point */
  GArray     *uv0;          /* float, 2 per new element */
  GArray     *uv1;          /* float, 2 per new element */
};

MshedGltfDfmGrow *
_mshed_gltf_dfm_grow_new (MshedDfm *dfm,
                          guint     level)
{
  MshedGltfDfmGrow *g = g_new0 (MshedGltfDfmGrow, 1);
  MshedDfmLevel info = { 0 };

  mshed_dfm_get_level (dfm, level, &info);
  g->dfm = dfm;
  g->level = level;
  g->n_elements = info.n_elements;
  g->n_points = info.n_points;
  g->n_uv0 = info.n_uv0;
  g->n_uv1 = info.n_uv1;
  g->has_uv1 = info.has_uv1;
  g->used_before = g_new0 (guint8, MAX (g->n_elements, 1));
  g->named = g_new0 (guint8, MAX (g->n_elements, 1));
  g->best = g_new0 (float, MAX ((gsize) g->n_elements * 3, 1));
  g->best_d2 = g_new (float, MAX (g->n_elements, 1));
  for (guint e = 0; e < g->n_elements; e++)
    g->best_d2[e] = INFINITY;
  for (guint k = 0; k < info.n_groups; k++)
    {
      gsize n = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, level, k, &n);

      for (gsize i = 0; tris && i < 3 * n; i++)
        if (tris[i] < g->n_elements)
          g->used_before[tris[i]] = 1;
    }
  g->point_of = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                       (GDestroyNotify) g_bytes_unref, NULL);
  g->element_of = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                         (GDestroyNotify) g_bytes_unref, NULL);
  g->points = g_array_new (FALSE, FALSE, sizeof (float));
  g->normals = g_array_new (FALSE, FALSE, sizeof (float));
  g->counts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g->bones = g_array_new (FALSE, FALSE, sizeof (guint32));
  g->weights = g_array_new (FALSE, FALSE, sizeof (guint32));
  g->element_point = g_array_new (FALSE, FALSE, sizeof (guint32));
  g->uv0 = g_array_new (FALSE, FALSE, sizeof (float));
  g->uv1 = g_array_new (FALSE, FALSE, sizeof (float));
  return g;
}

void
_mshed_gltf_dfm_grow_free (MshedGltfDfmGrow *g)
{
  if (g == NULL)
    return;
  g_free (g->used_before);
  g_free (g->named);
  g_free (g->best);
  g_free (g->best_d2);
  g_hash_table_unref (g->point_of);
  g_hash_table_unref (g->element_of);
  g_array_unref (g->points);
  g_array_unref (g->normals);
  g_array_unref (g->counts);
  g_array_unref (g->bones);
  g_array_unref (g->weights);
  g_array_unref (g->element_point);
  g_array_unref (g->uv0);
  g_array_unref (g->uv1);
  g_free (g);
}

/* TRUE when @id is a whole number naming a stored element. */
static gboolean
stored_element (MshedGltfDfmGrow *g,
                float             id,
                guint            *e)
{
  if (!(id >= 0) || id != floorf (id) || id >= (float) g->n_elements)
    return FALSE;
  *e = (guint) id;
  return TRUE;
}

/* Of the vertices naming a stored element, the one closest to its stored point keeps it
 * (docs/gltf.md §8.3); an element no stored triangle draws keeps only a vertex at its point,
 * since Blender drops loose vertices and any other vertex naming it is one it made. */
static void
see (MshedGltfDfmGrow *g,
     float             id,
     const float      *position)
{
  MshedDfmElement el;
  float d2 = 0;
  guint e;

  if (!stored_element (g, id, &e) || !mshed_dfm_get_element (g->dfm, g->level, e, &el))
    return;
  if (!g->used_before[e] &&
      !_mshed_gltf_near3 (position, el.position, MSHED_GLTF_DFM_POSITION_TOLERANCE))
    return;
  for (guint k = 0; k < 3; k++)
    d2 += (position[k] - el.position[k]) * (position[k] - el.position[k]);
  if (d2 < g->best_d2[e])
    {
      g->best_d2[e] = d2;
      memcpy (&g->best[3 * e], position, 12);
    }
}

void
_mshed_gltf_dfm_grow_see_level (MshedGltfDfmGrow *g,
                                const MshedGltf  *gltf)
{
  for (guint m = 0; m < gltf->n_meshes; m++)
    {
      guint level;

      if (!mshed_gltf_extra_uint (gltf->meshes[m].mshed, "level", G_MAXUINT, &level) ||
          level != g->level)
        continue;
      for (guint p = 0; p < gltf->meshes[m].n_primitives; p++)
        {
          const MshedGltfPrimitive *prim = &gltf->meshes[m].primitives[p];

          for (guint v = 0; prim->ids && v < prim->n_vertices; v++)
            see (g, prim->ids[2 * v], &prim->positions[3 * v]);
        }
    }
}

gboolean
_mshed_gltf_dfm_grow_is_element (MshedGltfDfmGrow *g,
                                 float             id,
                                 const float      *position,
                                 guint            *element)
{
  guint e;

  if (!stored_element (g, id, &e) || g->best_d2[e] == INFINITY ||
      !_mshed_gltf_near3 (position, &g->best[3 * e], MSHED_GLTF_DFM_POSITION_TOLERANCE))
    return FALSE;
  g->named[e] = 1;
  *element = e;
  return TRUE;
}

/* The key of a new point: its position and influences, bit for bit. */
typedef struct {
  float   position[3];
  guint32 n;
  guint32 bones[4];
  guint32 weights[4];
} PointKey;

typedef struct {
  guint32 point;
  float   uv0[2];
  float   uv1[2];
} ElementKey;

gboolean
_mshed_gltf_dfm_grow_add (MshedGltfDfmGrow         *g,
                          const MshedGltf          *gltf,
                          const char               *what,
                          guint                     v,
                          const MshedGltfDfmVertex *x,
                          guint                    *element,
                          GError                  **error)
{
  PointKey pk;
  ElementKey ek;
  g_autoptr(GBytes) pkey = NULL, ekey = NULL;
  gpointer hit;
  guint point, e;

  memset (&pk, 0, sizeof pk);
  memcpy (pk.position, x->position, 12);
  pk.n = MIN (x->n_influences, 4);
  for (guint i = 0; i < pk.n; i++)
    pk.bones[i] = x->bones[i], pk.weights[i] = x->weights[i];
  pkey = g_bytes_new (&pk, sizeof pk);
  if ((hit = g_hash_table_lookup (g->point_of, pkey)) != NULL)
    point = GPOINTER_TO_UINT (hit) - 1;
  else
    {
      float zero[3] = { 0 };

      point = g->n_points + g->counts->len;
      g_array_append_vals (g->points, x->position, 3);
      g_array_append_vals (g->normals, zero, 3);
      g_array_append_val (g->counts, pk.n);
      g_array_append_vals (g->bones, pk.bones, pk.n);
      g_array_append_vals (g->weights, pk.weights, pk.n);
      g_hash_table_insert (g->point_of, g_bytes_ref (pkey), GUINT_TO_POINTER (point + 1));
    }
  if (x->normal)
    for (guint k = 0; k < 3; k++)
      g_array_index (g->normals, float, 3 * (point - g->n_points) + k) += x->normal[k];

  memset (&ek, 0, sizeof ek);
  ek.point = point;
  if (x->uv0)
    memcpy (ek.uv0, x->uv0, 8);
  if (x->uv1)
    memcpy (ek.uv1, x->uv1, 8);
  ekey = g_bytes_new (&ek, sizeof ek);
  if ((hit = g_hash_table_lookup (g->element_of, ekey)) != NULL)
    {
      *element = GPOINTER_TO_UINT (hit) - 1;
      return TRUE;
    }
  e = g->n_elements + g->element_point->len;
  if (e > G_MAXUINT16)   /* faces name elements in 16 bits (docs/dfm.md §4) */
    return mshed_gltf_fail (gltf, error, _("%s: vertex %u would be element %u of Mesh%u, past "
                                           "the 65,535 a face group can name"),
                            what, v, e, g->level);
  g_array_append_val (g->element_point, point);
  g_array_append_vals (g->uv0, ek.uv0, 2);
  g_array_append_vals (g->uv1, ek.uv1, 2);
  g_hash_table_insert (g->element_of, g_bytes_ref (ekey), GUINT_TO_POINTER (e + 1));
  *element = e;
  return TRUE;
}

/* Writing payloads ------------------------------------------------------------------------- */

/* The level's file of @table, which must hold exactly @count records when @count is not
 * G_MAXUINT; FALSE with @error when it does not, TRUE with a->node NULL when it is absent. */
static gboolean
level_array (MshedGltfDfmGrow *g,
             MshedDfmTable     table,
             guint             group,
             guint             count,
             MshedDfmArray    *a,
             GError          **error)
{
  g_autofree char *path = NULL;

  memset (a, 0, sizeof *a);
  if (!mshed_dfm_get_array (g->dfm, table, g->level, group, a) || a->node == NULL)
    {
      a->node = NULL;
      return TRUE;
    }
  if (a->size == (gsize) a->count * a->stride && (count == G_MAXUINT || a->count == count))
    return TRUE;
  path = mshed_utf_node_dup_path (a->node);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
               _("%s holds %zu bytes, not %u records of %u: fix its length before importing "
                 "added or deleted vertices"), path, a->size, count == G_MAXUINT ? a->count
                                                                      : count, a->stride);
  return FALSE;
}

static gboolean
set_payload (MshedDocument  *doc,
             MshedUtfNode   *node,
             GByteArray     *data,
             GError        **error)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize size = 0;
  const guint8 *now = mshed_utf_node_peek_data (node, &size);

  if (size == data->len && (size == 0 || memcmp (now, data->data, size) == 0))
    return TRUE;
  bytes = g_bytes_new (data->data, data->len);
  return mshed_document_utf_set_data (doc, node, bytes, error);
}

/* @a's payload with @n records of @values (guint32, written little-endian) appended. */
static gboolean
append_u32s (MshedDocument       *doc,
             const MshedDfmArray *a,
             const guint32       *values,
             guint                n,
             GError             **error)
{
  g_autoptr(GByteArray) data = g_byte_array_sized_new ((guint) a->size + 4 * n);

  g_byte_array_append (data, a->data, (guint) a->size);
  for (guint i = 0; i < n; i++)
    {
      guint8 le[4];

      mshed_write_u32 (le, values[i]);
      g_byte_array_append (data, le, 4);
    }
  return set_payload (doc, a->node, data, error);
}

static gboolean
append_floats (MshedDocument       *doc,
               const MshedDfmArray *a,
               const float         *values,
               guint                n,
               GError             **error)
{
  g_autofree guint32 *bits = g_new (guint32, MAX (n, 1));

  memcpy (bits, values, 4 * (gsize) n);
  return append_u32s (doc, a, bits, n, error);
}

gboolean
_mshed_gltf_dfm_grow_apply (MshedGltfDfmGrow *g,
                            MshedDocument    *doc,
                            guint            *added_elements,
                            guint            *added_points,
                            GError          **error)
{
  guint n_new = g->element_point->len, n_points = g->counts->len;
  MshedDfmArray pi, ui, u0, vi, v1, pts, nrm, first, count, ids, weights;
  g_autofree guint32 *uv0_index = g_new (guint32, MAX (n_new, 1));
  g_autofree guint32 *uv1_index = g_new (guint32, MAX (n_new, 1));
  g_autofree guint32 *starts = g_new (guint32, MAX (n_points, 1));
  g_autofree float *unit = g_new0 (float, MAX ((gsize) n_points * 3, 1));

  if (n_new == 0)
    return TRUE;
  if (!level_array (g, MSHED_DFM_TABLE_POINT_INDICES, 0, g->n_elements, &pi, error) ||
      !level_array (g, MSHED_DFM_TABLE_UV0_INDICES, 0, g->n_elements, &ui, error) ||
      !level_array (g, MSHED_DFM_TABLE_UV1_INDICES, 0, g->n_elements, &vi, error) ||
      !level_array (g, MSHED_DFM_TABLE_UV0, 0, g->n_uv0, &u0, error) ||
      !level_array (g, MSHED_DFM_TABLE_UV1, 0, g->n_uv1, &v1, error) ||
      !level_array (g, MSHED_DFM_TABLE_POINTS, 0, g->n_points, &pts, error) ||
      !level_array (g, MSHED_DFM_TABLE_VERTEX_NORMALS, 0, g->n_points, &nrm, error) ||
      !level_array (g, MSHED_DFM_TABLE_POINT_BONE_FIRST, 0, g->n_points, &first, error) ||
      !level_array (g, MSHED_DFM_TABLE_POINT_BONE_COUNT, 0, g->n_points, &count, error) ||
      !level_array (g, MSHED_DFM_TABLE_BONE_ID_CHAIN, 0, G_MAXUINT, &ids, error) ||
      !level_array (g, MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, 0, G_MAXUINT, &weights, error))
    return FALSE;
  if (pi.node == NULL || ui.node == NULL || u0.node == NULL || pts.node == NULL ||
      first.node == NULL || count.node == NULL || ids.node == NULL || weights.node == NULL ||
      ids.count != weights.count)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Mesh%u: its element, point and skin files are missing or do not "
                     "agree, so new vertices cannot be added (docs/dfm.md §6)"), g->level);
      return FALSE;
    }
  for (guint i = 0; i < n_new; i++)
    {
      uv0_index[i] = g->n_uv0 + i;
      uv1_index[i] = g->n_uv1 + i;
    }
  for (guint p = 0, at = ids.count; p < n_points; p++)
    {
      const float *s = &g_array_index (g->normals, float, 3 * p);
      float len = sqrtf (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);

      starts[p] = at;
      at += g_array_index (g->counts, guint32, p);
      for (guint k = 0; k < 3 && len > 0; k++)
        unit[3 * p + k] = s[k] / len;
    }
  if (!append_u32s (doc, &pi, (guint32 *) g->element_point->data, n_new, error) ||
      !append_u32s (doc, &ui, uv0_index, n_new, error) ||
      !append_floats (doc, &u0, (float *) g->uv0->data, 2 * n_new, error) ||
      (g->has_uv1 && vi.node && v1.node &&
       (!append_u32s (doc, &vi, uv1_index, n_new, error) ||
        !append_floats (doc, &v1, (float *) g->uv1->data, 2 * n_new, error))) ||
      !append_floats (doc, &pts, (float *) g->points->data, 3 * n_points, error) ||
      (nrm.node && !append_floats (doc, &nrm, unit, 3 * n_points, error)) ||
      !append_u32s (doc, &first, starts, n_points, error) ||
      !append_u32s (doc, &count, (guint32 *) g->counts->data, n_points, error) ||
      !append_u32s (doc, &ids, (guint32 *) g->bones->data, g->bones->len, error) ||
      !append_u32s (doc, &weights, (guint32 *) g->weights->data, g->weights->len, error))
    return FALSE;
  *added_elements += n_new;
  *added_points += n_points;
  return TRUE;
}

/* Removing --------------------------------------------------------------------------------- */

/* @a's records whose @drop entry is 0 (records past @n kept), each guint32 value below
 * @limit replaced by @map[value] when @map is not NULL. */
static gboolean
write_kept (MshedDocument       *doc,
            const MshedDfmArray *a,
            const guint8        *drop,
            guint                n,
            const guint32       *map,
            guint                limit,
            GError             **error)
{
  g_autoptr(GByteArray) data = g_byte_array_sized_new ((guint) a->size);

  for (guint r = 0; r < a->count; r++)
    {
      const guint8 *rec = a->data + (gsize) r * a->stride;

      if (drop && r < n && drop[r])
        continue;
      if (map && a->stride == 4 && mshed_read_u32 (rec) < limit)
        {
          guint8 le[4];

          mshed_write_u32 (le, map[mshed_read_u32 (rec)]);
          g_byte_array_append (data, le, 4);
        }
      else
        g_byte_array_append (data, rec, a->stride);
    }
  return set_payload (doc, a->node, data, error);
}

/* @a's uint16 indices below @limit replaced by @map[index]. */
static gboolean
renumber_u16 (MshedDocument       *doc,
              const MshedDfmArray *a,
              const guint32       *map,
              guint                limit,
              GError             **error)
{
  g_autoptr(GByteArray) data = g_byte_array_sized_new ((guint) a->size);

  g_byte_array_append (data, a->data, (guint) a->size);
  for (gsize i = 0; i + 1 < a->size; i += 2)
    if (mshed_read_u16 (data->data + i) < limit)
      mshed_write_u16 (data->data + i, (guint16) map[mshed_read_u16 (data->data + i)]);
  return set_payload (doc, a->node, data, error);
}

/* Per record: its new number once the records marked in @drop are gone. */
static guint32 *
renumbering (const guint8 *drop,
             guint         n)
{
  guint32 *map = g_new (guint32, MAX (n, 1));

  for (guint i = 0, next = 0; i < n; i++)
    map[i] = drop[i] ? G_MAXUINT32 : next++;
  return map;
}

/* The entries of the skin pools that only removed points use, and the kept points' firsts
 * after them renumbered (docs/dfm.md §6.2). */
static gboolean
remove_influences (MshedGltfDfmGrow *g,
                   MshedDocument    *doc,
                   const guint8     *drop,
                   guint             n_points,
                   GError          **error)
{
  MshedDfmArray first, count, ids, weights;
  g_autofree guint8 *gone = NULL;
  g_autofree guint32 *before = NULL, *firsts = NULL;

  if (!level_array (g, MSHED_DFM_TABLE_POINT_BONE_FIRST, 0, n_points, &first, error) ||
      !level_array (g, MSHED_DFM_TABLE_POINT_BONE_COUNT, 0, n_points, &count, error) ||
      !level_array (g, MSHED_DFM_TABLE_BONE_ID_CHAIN, 0, G_MAXUINT, &ids, error) ||
      !level_array (g, MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, 0, G_MAXUINT, &weights, error))
    return FALSE;
  if (!first.node || !count.node || !ids.node || !weights.node || ids.count != weights.count)
    /* then the slices stay where they are, unreferenced */
    return (!first.node || write_kept (doc, &first, drop, n_points, NULL, 0, error)) &&
           (!count.node || write_kept (doc, &count, drop, n_points, NULL, 0, error));
  gone = g_new0 (guint8, ids.count + 1);
  for (guint pass = 0; pass < 2; pass++)   /* mark the removed slices, then keep shared ones */
    for (guint p = 0; p < n_points; p++)
      {
        guint32 f = mshed_read_u32 (first.data + 4 * (gsize) p);
        guint32 c = mshed_read_u32 (count.data + 4 * (gsize) p);

        if ((pass == 0) != (drop[p] != 0) || f > ids.count)
          continue;
        for (guint32 k = f; k < ids.count && k - f < c; k++)
          gone[k] = pass == 0;
      }
  before = g_new0 (guint32, ids.count + 1);
  for (guint k = 0; k < ids.count; k++)
    before[k + 1] = before[k] + gone[k];
  firsts = g_new (guint32, MAX (n_points, 1));
  for (guint p = 0; p < n_points; p++)
    {
      guint32 f = mshed_read_u32 (first.data + 4 * (gsize) p);

      firsts[p] = f <= ids.count ? f - before[f] : f;
    }
  {
    MshedDfmArray renumbered = first;
    g_autoptr(GByteArray) bytes = g_byte_array_new ();

    for (guint p = 0; p < n_points; p++)
      {
        guint8 le[4];

        mshed_write_u32 (le, firsts[p]);
        g_byte_array_append (bytes, le, 4);
      }
    renumbered.data = bytes->data;
    return write_kept (doc, &ids, gone, ids.count, NULL, 0, error) &&
           write_kept (doc, &weights, gone, ids.count, NULL, 0, error) &&
           write_kept (doc, &renumbered, drop, n_points, NULL, 0, error) &&
           write_kept (doc, &count, drop, n_points, NULL, 0, error);
  }
}

gboolean
_mshed_gltf_dfm_grow_remove (MshedGltfDfmGrow *g,
                             MshedDocument    *doc,
                             guint            *removed_elements,
                             guint            *removed_points,
                             GError          **error)
{
  static const MshedDfmTable faces[] = { MSHED_DFM_TABLE_TRISTRIP,
                                         MSHED_DFM_TABLE_FACE_INDICES };
  MshedDfmArray pi, pts, a;
  MshedDfmLevel info = { 0 };
  g_autofree guint8 *used = NULL, *drop_e = NULL, *drop_p = NULL, *users = NULL;
  g_autofree guint32 *map_e = NULL, *map_p = NULL;
  guint n_drop_e = 0, n_drop_p = 0;

  if (!mshed_dfm_get_level (g->dfm, g->level, &info) ||
      !level_array (g, MSHED_DFM_TABLE_POINT_INDICES, 0, G_MAXUINT, &pi, error) ||
      !level_array (g, MSHED_DFM_TABLE_POINTS, 0, G_MAXUINT, &pts, error))
    return FALSE;
  if (pi.node == NULL || pts.node == NULL)
    return TRUE;
  /* elements a stored triangle drew, no glTF vertex is, and no face index names now */
  used = g_new0 (guint8, pi.count + 1);
  for (guint k = 0; k < info.n_groups; k++)
    for (guint f = 0; f < G_N_ELEMENTS (faces); f++)
      if (mshed_dfm_get_array (g->dfm, faces[f], g->level, k, &a))
        for (gsize i = 0; i + 1 < a.size; i += 2)
          if (mshed_read_u16 (a.data + i) < pi.count)
            used[mshed_read_u16 (a.data + i)] = 1;
  drop_e = g_new0 (guint8, pi.count + 1);
  for (guint e = 0; e < MIN (g->n_elements, pi.count); e++)
    if (g->used_before[e] && !g->named[e] && !used[e])
      drop_e[e] = 1, n_drop_e++;
  if (n_drop_e == 0)
    return TRUE;
  /* points a removed element used that no other element nor Edge_indices pair uses */
  users = g_new0 (guint8, pts.count + 1);   /* 1: a removed element's, 2: a kept one's */
  for (guint e = 0; e < pi.count; e++)
    {
      guint32 p = mshed_read_u32 (pi.data + 4 * (gsize) e);

      if (p < pts.count)
        users[p] = drop_e[e] ? MAX (users[p], 1) : 2;
    }
  for (guint k = 0; k < info.n_groups; k++)
    if (mshed_dfm_get_array (g->dfm, MSHED_DFM_TABLE_EDGE_INDICES, g->level, k, &a))
      for (gsize i = 0; i + 1 < a.size; i += 2)
        if (mshed_read_u16 (a.data + i) < pts.count)
          users[mshed_read_u16 (a.data + i)] = 2;
  drop_p = g_new0 (guint8, pts.count + 1);
  for (guint p = 0; p < pts.count; p++)
    if (users[p] == 1)
      drop_p[p] = 1, n_drop_p++;
  map_e = renumbering (drop_e, pi.count);
  map_p = renumbering (drop_p, pts.count);

  /* the element files, Point_indices renumbered too; then the faces */
  for (guint t = 0; t < 3; t++)
    {
      static const MshedDfmTable files[] = { MSHED_DFM_TABLE_POINT_INDICES,
                                             MSHED_DFM_TABLE_UV0_INDICES,
                                             MSHED_DFM_TABLE_UV1_INDICES };

      if (!level_array (g, files[t], 0, pi.count, &a, error))
        return FALSE;
      if (a.node && !write_kept (doc, &a, drop_e, pi.count, t == 0 ? map_p : NULL,
                                 pts.count, error))
        return FALSE;
    }
  for (guint k = 0; k < info.n_groups; k++)
    for (guint f = 0; f < G_N_ELEMENTS (faces); f++)
      if (mshed_dfm_get_array (g->dfm, faces[f], g->level, k, &a) &&
          !renumber_u16 (doc, &a, map_e, pi.count, error))
        return FALSE;
  *removed_elements += n_drop_e;
  if (n_drop_p == 0)
    return TRUE;

  /* the point files, the skin pools, and the Edge_indices that name points */
  for (guint t = 0; t < 2; t++)
    {
      static const MshedDfmTable files[] = { MSHED_DFM_TABLE_POINTS,
                                             MSHED_DFM_TABLE_VERTEX_NORMALS };

      if (!level_array (g, files[t], 0, pts.count, &a, error))
        return FALSE;
      if (a.node && !write_kept (doc, &a, drop_p, pts.count, NULL, 0, error))
        return FALSE;
    }
  if (!remove_influences (g, doc, drop_p, pts.count, error))
    return FALSE;
  for (guint k = 0; k < info.n_groups; k++)
    if (mshed_dfm_get_array (g->dfm, MSHED_DFM_TABLE_EDGE_INDICES, g->level, k, &a) &&
        !renumber_u16 (doc, &a, map_p, pts.count, error))
      return FALSE;
  *removed_points += n_drop_p;
  return TRUE;
}
