/* mshed-gltf-new.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A new model from any glTF (docs/gltf.md §6.1): one MSH node per glTF node, one slot (LOD 0,
 * group 0) per mesh, one batch per primitive (split every 21,845 triangles, the most a u16
 * indexCount holds), the node transforms as fallback keys, animation channels as key tracks
 * with their frame map, and the derived data computed as the generator does.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-generator.h"
#include "mshed-gltf-import.h"
#include "mshed-gltf.h"
#include "mshed-nres.h"
#include "mshed-recompute.h"

#define MAX_BATCH_TRIANGLES (G_MAXUINT16 / 3)

typedef struct {
  const MshedGltf *gltf;
  GByteArray      *res[20];   /* payloads by type */
  guint            n_vertices;
  guint            n_indices;
  guint            n_batches;
  guint            n_tris;
  gboolean         missing_normals;
} Builder;

#define fail(x, error, ...) mshed_gltf_fail ((x)->gltf, error, __VA_ARGS__)

static void
put_u16 (GByteArray *a,
         guint       v)
{
  guint8 le[2];

  mshed_write_u16 (le, (guint16) v);
  g_byte_array_append (a, le, 2);
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  guint8 le[4];

  mshed_write_u32 (le, v);
  g_byte_array_append (a, le, 4);
}

static void
put_f32 (GByteArray *a,
         float       v)
{
  guint8 le[4];

  mshed_write_f32 (le, v);
  g_byte_array_append (a, le, 4);
}

/* Geometry --------------------------------------------------------------------------------- */

static void
add_vertices (Builder                  *b,
              const MshedGltfPrimitive *p)
{
  for (guint v = 0; v < p->n_vertices; v++)
    {
      const float *n = p->normals ? p->normals + 3 * (gsize) v : NULL;
      float len = n ? sqrtf (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) : 0;
      guint8 packed[4] = { 0, 0, 0, 0 };  /* nw: 0 */

      for (guint k = 0; k < 3; k++)
        put_f32 (b->res[3], p->positions[3 * (gsize) v + k]);
      for (guint k = 0; k < 3 && len > 0; k++)
        packed[k] = (guint8) mshed_encode_normal (n[k] / len);
      g_byte_array_append (b->res[4], packed, 4);
      for (guint k = 0; k < 2; k++)
        put_u16 (b->res[5], (guint16) mshed_encode_uv (p->uvs ? p->uvs[2 * (gsize) v + k] : 0));
      if (!(len > 0))
        b->missing_normals = TRUE;
    }
}

static gboolean
add_primitive (Builder  *b,
               guint     m,
               guint     pi,
               GError  **error)
{
  const MshedGltfPrimitive *p = &b->gltf->meshes[m].primitives[pi];
  guint base = b->n_vertices, material = 0;

  if (p->n_vertices > G_MAXUINT16)
    return fail (b, error, _("meshes[%u].primitives[%u]: %u vertices; an MSH batch addresses at "
                             "most 65,535 (its Res6 indices are 16-bit)"), m, pi, p->n_vertices);
  if (p->material >= 0)
    material = (guint) p->material < b->gltf->n_materials &&
               b->gltf->material_index[p->material] >= 0
                 ? (guint) b->gltf->material_index[p->material] : (guint) p->material;
  add_vertices (b, p);
  b->n_vertices += p->n_vertices;
  for (guint first = 0; first < p->n_indices; first += 3 * MAX_BATCH_TRIANGLES)
    {
      guint count = MIN (p->n_indices - first, 3 * MAX_BATCH_TRIANGLES);

      put_u16 (b->res[13], 0);                    /* flags */
      put_u16 (b->res[13], MIN (material, G_MAXUINT16));
      put_u16 (b->res[13], 0);                    /* unk4 */
      put_u16 (b->res[13], 0);                    /* unk6 */
      put_u16 (b->res[13], count);
      put_u32 (b->res[13], b->n_indices);
      put_u16 (b->res[13], 0);                    /* unk14 */
      put_u32 (b->res[13], base);
      for (guint i = 0; i < count; i++)
        put_u16 (b->res[6], p->indices[first + i]);
      b->n_indices += count;
      b->n_batches++;
    }
  return TRUE;
}

/* The slot of glTF mesh @m: its batches, and descriptors while they fit Res2's u16 fields. */
static gboolean
add_slot (Builder  *b,
          guint     m,
          GError  **error)
{
  guint batch_start = b->n_batches, tris = 0;
  static const guint8 zeros[40] = { 0 };

  for (guint p = 0; p < b->gltf->meshes[m].n_primitives; p++)
    {
      if (!add_primitive (b, m, p, error))
        return FALSE;
      tris += b->gltf->meshes[m].primitives[p].n_indices / 3;
    }
  if (b->n_batches > G_MAXUINT16)
    return fail (b, error, _("meshes[%u]: more than 65,535 batches in the model"), m);
  if (b->n_tris + tris > G_MAXUINT16)
    tris = 0;  /* no descriptors: triStart and triCount are 16-bit */
  put_u16 (b->res[2], MIN (b->n_tris, G_MAXUINT16));
  put_u16 (b->res[2], tris);
  put_u16 (b->res[2], batch_start);
  put_u16 (b->res[2], b->n_batches - batch_start);
  g_byte_array_append (b->res[2], zeros, 40);       /* box and sphere: derived */
  g_byte_array_append (b->res[2], zeros, 20);       /* unk */
  for (guint t = 0; t < tris; t++)
    g_byte_array_append (b->res[7], zeros, 16);
  b->n_tris += tris;
  return TRUE;
}

/* Nodes and keys ------------------------------------------------------------------------------ */

static void
put_key (GByteArray  *keys,
         const float  pos[3],
         float        frame,
         const float  xyzw[4])
{
  float len = sqrtf (xyzw[0] * xyzw[0] + xyzw[1] * xyzw[1] + xyzw[2] * xyzw[2] +
                     xyzw[3] * xyzw[3]);

  for (guint k = 0; k < 3; k++)
    put_f32 (keys, pos[k]);
  put_f32 (keys, frame);
  for (guint k = 0; k < 4; k++)
    put_u16 (keys, (guint16) mshed_encode_quat (len > 0 ? xyzw[k] / len : k == 3));
}

static int
float_compare (gconstpointer a,
               gconstpointer b)
{
  float x = *(const float *) a, y = *(const float *) b;

  return x < y ? -1 : x > y;
}

/* Node @i's keys: its channels sampled at the union of their times, or its transform. */
static gboolean
add_keys (Builder  *b,
          guint     i,
          GError  **error)
{
  const MshedGltfNode *node = &b->gltf->nodes[i];
  const MshedGltfChannel *ch[2] = { NULL, NULL };
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (float));

  for (guint c = 0; c < b->gltf->n_channels; c++)
    if (b->gltf->channels[c].node == i)
      {
        ch[b->gltf->channels[c].path] = &b->gltf->channels[c];
        g_array_append_vals (times, b->gltf->channels[c].times, b->gltf->channels[c].n_keys);
      }
  g_array_sort (times, float_compare);
  for (guint k = 0; k < times->len; k++)
    if (k > 0 && g_array_index (times, float, k) == g_array_index (times, float, k - 1))
      g_array_remove_index (times, k--);
  if (times->len == 1 || (times->len > 0 && g_array_index (times, float, 0) < 0))
    return fail (b, error, _("nodes[%u] (“%s”): an animation of one key or at negative times; "
                             "an MSH track needs two keys or more from time 0"), i, node->name);
  if (times->len == 0)
    {
      put_key (b->res[8], node->translation, 0, node->rotation);
      return TRUE;
    }
  for (guint k = 0; k < times->len; k++)
    {
      float t = g_array_index (times, float, k), pos[3], rot[4];

      memcpy (pos, node->translation, sizeof pos);
      memcpy (rot, node->rotation, sizeof rot);
      if (ch[MSHED_GLTF_PATH_TRANSLATION])
        mshed_gltf_channel_sample (ch[MSHED_GLTF_PATH_TRANSLATION], t, pos);
      if (ch[MSHED_GLTF_PATH_ROTATION])
        mshed_gltf_channel_sample (ch[MSHED_GLTF_PATH_ROTATION], t, rot);
      put_key (b->res[8], pos, t * MSHED_GLTF_FRAMES_PER_SECOND, rot);
    }
  return TRUE;
}

/* The mesh node @i shows at @lod: @lod_meshes (3 per node) when given, else its glTF mesh at
 * LOD 0 only. */
static gint
node_mesh (const Builder *b,
           const gint    *lod_meshes,
           guint          i,
           guint          lod)
{
  if (lod_meshes)
    return lod_meshes[3 * (gsize) i + lod];
  return lod == 0 ? b->gltf->nodes[i].mesh : -1;
}

static gboolean
add_nodes (Builder     *b,
           const guint *mesh_slot,
           const gint  *lod_meshes,
           GError     **error)
{
  const MshedGltf *g = b->gltf;

  for (guint i = 0; i < g->n_nodes; i++)
    {
      const MshedGltfNode *node = &g->nodes[i];
      g_autoptr(GBytes) name = NULL;
      g_autoptr(GError) local = NULL;
      gboolean animated = FALSE;
      guint8 len[4];

      for (guint c = 0; c < g->n_channels; c++)
        animated |= g->channels[c].node == i;
      if (!add_keys (b, i, error))
        return FALSE;
      put_u16 (b->res[1], 0);                                      /* flags */
      put_u16 (b->res[1], node->parent < 0 ? MSHED_NONE : (guint) node->parent);
      put_u16 (b->res[1], animated ? 0 : MSHED_NONE);              /* hdr2: the map, later */
      put_u16 (b->res[1], b->res[8]->len / 24 - 1);                /* fallback: last key */
      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        {
          gint mesh = c % MSHED_N_GROUPS == 0 ? node_mesh (b, lod_meshes, i, c / MSHED_N_GROUPS)
                                              : -1;

          put_u16 (b->res[1], mesh >= 0 ? mesh_slot[mesh] : MSHED_NONE);
        }
      name = mshed_utf8_to_cp1251 (node->name, &local);
      if (name == NULL)
        return fail (b, error, _("nodes[%u] (“%s”): %s"), i, node->name, local->message);
      mshed_write_u32 (len, (guint32) g_bytes_get_size (name));
      g_byte_array_append (b->res[10], len, 4);
      if (g_bytes_get_size (name) > 0)
        {
          g_byte_array_append (b->res[10], g_bytes_get_data (name, NULL),
                               g_bytes_get_size (name));
          g_byte_array_append (b->res[10], (const guint8 *) "", 1);  /* the NUL */
        }
    }
  if (b->res[8]->len / 24 > G_MAXUINT16)
    return fail (b, error, _("%u animation keys; MSH nodes address at most 65,535"),
                 b->res[8]->len / 24);
  return TRUE;
}

/* Assembly --------------------------------------------------------------------------------- */

static void
add_entry (MshedNres  *nres,
           guint32     type_id,
           guint32     attr1,
           guint32     attr2,
           guint32     attr3,
           GByteArray *payload)
{
  MshedNresEntry templ = { 0 };
  g_autoptr(GBytes) bytes = g_bytes_new (payload->data, payload->len);

  templ.type_id = type_id;
  templ.attr1 = attr1;
  templ.attr2 = attr2;
  templ.attr3 = attr3;
  g_snprintf ((char *) templ.name, MSHED_NRES_NAME_SIZE, "Res%u", type_id);
  mshed_nres_insert_entry (nres, G_MAXUINT, &templ, bytes);
}

/* The frame map (Res19) and hdr2 of the animated nodes, and vertex normals where the glTF had
 * none, computed on the assembled model. */
static gboolean
finish (Builder    *b,
        MshedNres  *nres,
        GError    **error)
{
  g_autoptr(MshedModel) model = mshed_model_new (nres, MSHED_MODE_TOLERANT, NULL, NULL);
  g_autoptr(GBytes) res19 = NULL;
  g_autofree guint16 *hdr2 = NULL;
  g_autoptr(GError) local = NULL;
  guint32 frames = 1;
  gint r;

  if (!mshed_compute_animation_map (model, &res19, &frames, &hdr2, &local))
    return fail (b, error, _("the animation: %s"), local->message);
  r = mshed_model_find_resource (model, 19);
  mshed_nres_set_payload (nres, (guint) r, res19);
  mshed_nres_get_entry (nres, (guint) r)->attr1 = (guint32) g_bytes_get_size (res19) / 2;
  mshed_nres_get_entry (nres, (guint) r)->attr2 = frames;
  r = mshed_model_find_resource (model, 1);
  for (guint i = 0; i < b->gltf->n_nodes; i++)
    {
      guint8 *rec = mshed_nres_entry_make_mutable (nres, (guint) r) + (gsize) i * 38;

      mshed_write_u16 (rec + 4, hdr2[i]);
    }
  if (b->missing_normals)
    {
      g_autoptr(MshedModel) again = mshed_model_new (nres, MSHED_MODE_TOLERANT, NULL, NULL);
      g_autoptr(GBytes) normals = mshed_compute_vertex_normals (again, FALSE);

      mshed_nres_set_payload (nres, (guint) mshed_model_find_resource (again, 4), normals);
    }
  mshed_generate_derive (nres);
  return TRUE;
}

MshedNres *
mshed_gltf_build_model (const MshedGltf  *gltf,
                        GError          **error)
{
  return mshed_gltf_build_model_lods (gltf, NULL, error);
}

MshedNres *
mshed_gltf_build_model_lods (const MshedGltf  *gltf,
                             const gint       *lod_meshes,
                             GError          **error)
{
  Builder b = { gltf };
  g_autoptr(MshedNres) nres = NULL;
  g_autofree guint *mesh_slot = g_new (guint, MAX (gltf->n_meshes, 1));
  g_autofree guint8 *used = g_malloc0 (MAX (gltf->n_meshes, 1));
  guint n_slots = 0;
  gboolean ok = TRUE;

  for (guint t = 0; t < G_N_ELEMENTS (b.res); t++)
    b.res[t] = g_byte_array_new ();
  g_byte_array_set_size (b.res[2], 140);  /* the header: derived */
  memset (b.res[2]->data, 0, 140);
  if (gltf->n_nodes == 0 || gltf->n_nodes >= MSHED_NONE)
    ok = fail (&b, error, _("%u nodes; an MSH model has 1 to 65,534"), gltf->n_nodes);
  for (guint i = 0; ok && i < gltf->n_nodes; i++)
    for (guint lod = 0; lod < MSHED_N_LODS; lod++)
      if (node_mesh (&b, lod_meshes, i, lod) >= 0)
        used[node_mesh (&b, lod_meshes, i, lod)] = 1;
  for (guint m = 0; ok && m < gltf->n_meshes; m++)
    {
      if (!used[m])
        ok = fail (&b, error, _("meshes[%u] (“%s”): a mesh without a node; MSH geometry "
                                "belongs to nodes"), m, gltf->meshes[m].name);
      else if ((ok = add_slot (&b, m, error)))
        mesh_slot[m] = n_slots++;
    }
  ok = ok && add_nodes (&b, mesh_slot, lod_meshes, error);
  if (ok)
    {
      nres = mshed_nres_new ();
      add_entry (nres, 1, gltf->n_nodes, 0, 38, b.res[1]);
      add_entry (nres, 2, n_slots, 0, 68, b.res[2]);
      add_entry (nres, 3, b.n_vertices, 0, 12, b.res[3]);
      add_entry (nres, 4, b.n_vertices, 0, 4, b.res[4]);
      add_entry (nres, 5, b.n_vertices, 0, 4, b.res[5]);
      add_entry (nres, 13, b.n_batches, 0, 20, b.res[13]);
      add_entry (nres, 6, b.n_indices, 0, 2, b.res[6]);
      add_entry (nres, 7, b.n_tris, 0, 16, b.res[7]);
      add_entry (nres, 8, b.res[8]->len / 24, 0, 4, b.res[8]);
      add_entry (nres, 19, 0, 1, 2, b.res[19]);
      add_entry (nres, 10, gltf->n_nodes, 0, 0, b.res[10]);
      ok = finish (&b, nres, error);
    }
  for (guint t = 0; t < G_N_ELEMENTS (b.res); t++)
    g_byte_array_unref (b.res[t]);
  return ok ? g_steal_pointer (&nres) : NULL;
}
