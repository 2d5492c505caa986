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
#include "mshed-error.h"
#include "mshed-gltf-dfm.h"

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

/* Equal within a float's rounding through another program (docs/gltf.md §8.3). */
static gboolean
near (float a,
      float b,
      float tolerance)
{
  return fabsf (a - b) <= tolerance * MAX (1.0f, fabsf (b));
}

typedef struct {
  MshedDfm   *dfm;
  guint       level;
  guint       n_points;
  guint       n_uv0;
  float      *points;      /* the new Points, 3 per point */
  float      *uv0;         /* the new UV0, 2 per coordinate */
  guint8     *point_set;   /* per point: 1 when a glTF vertex gave it a new value */
  guint8     *uv_set;
  guint       positions;
  guint       uvs;
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

static gboolean
take_vertex (Level                    *l,
             const MshedGltf          *gltf,
             const MshedGltfPrimitive *prim,
             guint                     v,
             const char               *what,
             GError                  **error)
{
  MshedDfmElement el;
  float id = prim->ids[v * 2];
  const float *pos = &prim->positions[v * 3];
  MshedDfmLevel info;

  mshed_dfm_get_level (l->dfm, l->level, &info);
  if (!(id >= 0) || id != floorf (id) || id >= (float) info.n_elements ||
      !mshed_dfm_get_element (l->dfm, l->level, (guint) id, &el))
    return mshed_gltf_fail (gltf, error, _("%s: vertex %u is element %g, which Mesh%u does "
                                           "not have"), what, v, id, l->level);
  if (el.point < l->n_points &&
      (!near (pos[0], el.position[0], 3e-5f) || !near (pos[1], el.position[1], 3e-5f) ||
       !near (pos[2], el.position[2], 3e-5f)))
    {
      float *dst = &l->points[el.point * 3];

      if (l->point_set[el.point] &&
          (!near (dst[0], pos[0], 3e-5f) || !near (dst[1], pos[1], 3e-5f) ||
           !near (dst[2], pos[2], 3e-5f)))
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
  return TRUE;
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

      if (prim->ids == NULL)
        return mshed_gltf_fail (gltf, error, _("%s: no TEXCOORD_1, which names each vertex's "
                                               "element (docs/gltf.md §8.1)"), what);
      for (guint v = 0; v < prim->n_vertices; v++)
        if (!take_vertex (l, gltf, prim, v, what, error))
          return FALSE;
    }
  return TRUE;
}

static void
level_clear (Level *l)
{
  g_free (l->points);
  g_free (l->uv0);
  g_free (l->point_set);
  g_free (l->uv_set);
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

/* Level @level: gathers its changes from every glTF mesh tagged with it, and applies them. */
static gboolean
import_level (MshedDocument           *doc,
              const MshedGltf         *gltf,
              guint                    level,
              MshedGltfDfmImportStats *stats,
              GError                 **error)
{
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  MshedUtfNode *points = geometry_file (dfm, level, "Points");
  MshedUtfNode *uv0 = geometry_file (dfm, level, "UV0");
  MshedDfmLevel info;
  Level l = { dfm, level };
  gboolean ok = TRUE;

  if (!mshed_dfm_get_level (dfm, level, &info) || points == NULL || uv0 == NULL)
    return TRUE;
  l.n_points = info.n_points;
  l.n_uv0 = info.n_uv0;
  l.points = floats_of (points, l.n_points * 3);
  l.uv0 = floats_of (uv0, l.n_uv0 * 2);
  l.point_set = g_new0 (guint8, MAX (l.n_points, 1));
  l.uv_set = g_new0 (guint8, MAX (l.n_uv0, 1));
  for (guint m = 0; m < gltf->n_meshes && ok; m++)
    {
      guint mesh_level;

      if (mshed_gltf_extra_uint (gltf->meshes[m].mshed, "level", G_MAXUINT, &mesh_level) &&
          mesh_level == level)
        ok = take_mesh (&l, gltf, m, error);
    }
  if (ok && l.positions > 0 &&
      (ok = apply_floats (doc, points, l.points, l.n_points * 3, error)))
    stats->positions += l.positions;
  if (ok && l.uvs > 0 && (ok = apply_floats (doc, uv0, l.uv0, l.n_uv0 * 2, error)))
    stats->uvs += l.uvs;
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
  /* the one look at the cancellable: the levels are applied whole or not at all */
  if (!mshed_progress_step (progress, 0.0, _("Applying the changes"), error))
    return FALSE;
  mshed_document_begin_group (document, _("Import glTF"));
  for (guint l = 0; l < levels && ok; l++)
    {
      mshed_progress_report (progress, (double) l / levels, NULL);
      ok = import_level (document, gltf, l, &local, error);
    }
  mshed_document_end_group (document);
  if (ok)
    mshed_progress_report (progress, 1.0, NULL);
  if (!ok && local.positions + local.uvs > 0)
    mshed_document_undo (document);
  if (stats)
    *stats = local;
  return ok;
}
