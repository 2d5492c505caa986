/* mshed-gltf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON is written by hand into GStrings (model/ has no json-glib), one string per
 * top-level array; the binary data goes into one buffer, every view starting on 4 bytes.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-gltf.h"
#include "mshed-gltf-private.h"
#include "mshed-json.h"
#include "mshed-progress.h"
#include "mshed-render-scene.h"

#define NOTHING                   G_MAXUINT

typedef struct {
  guint node;  /* the MSH node that owns the cell */
  guint cell;  /* lod * 5 + group */
  guint slot;
  guint mesh;
} Variant;

typedef struct {
  MshedModel             *model;
  MshedRenderScene       *scene;
  const MshedGltfOptions *options;
  GByteArray             *bin;
  GString                *views;
  GString                *accessors;
  GString                *meshes;
  GString                *materials;
  GString                *nodes;
  GString                *samplers;
  GString                *channels;
  guint                   n_views;
  guint                   n_accessors;
  guint                   n_samplers;
  guint                  *slot_mesh;      /* per slot: glTF mesh, NOTHING, or G_MAXUINT - 1 */
  GHashTable             *material_ids;   /* MSH material index + 1 -> glTF index + 1 */
  guint32                *local;          /* per vertex: its number in the current mesh */
  GArray                 *used;           /* guint32: the current mesh's vertices */
  MshedGltfStats          stats;
  MshedProgress          *progress;
  GError                 *error;          /* set when cancelled */
} Builder;

#define SLOT_NOT_DONE (G_MAXUINT - 1)

void
mshed_gltf_sep (GString *s)
{
  if (s->len > 0)
    g_string_append_c (s, ',');
}

void
mshed_gltf_append_floats (GString     *s,
                          const float *v,
                          guint        n)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      mshed_json_append_float (s, v[i]);
    }
  g_string_append_c (s, ']');
}

static void
append_hex (GString      *s,
            const guint8 *data,
            gsize         len)
{
  g_string_append_c (s, '"');
  for (gsize i = 0; i < len; i++)
    g_string_append_printf (s, "%02x", data[i]);
  g_string_append_c (s, '"');
}

/* Buffer views and accessors ------------------------------------------------------------ */

guint
mshed_gltf_add_view (GByteArray *bin,
                     GString    *views,
                     guint      *n_views,
                     const void *data,
                     gsize       len,
                     guint       target)
{
  static const guint8 zeros[4] = { 0 };
  guint offset;

  g_byte_array_append (bin, zeros, (4 - bin->len % 4) % 4);
  offset = bin->len;
  g_byte_array_append (bin, data, len);
  mshed_gltf_sep (views);
  g_string_append_printf (views, "{\"buffer\":0,\"byteOffset\":%u,\"byteLength\":%"
                          G_GSIZE_FORMAT, offset, len);
  if (target != MSHED_GLTF_NO_TARGET)
    g_string_append_printf (views, ",\"target\":%u", target);
  g_string_append_c (views, '}');
  return (*n_views)++;
}

static guint
add_view (Builder    *b,
          const void *data,
          gsize       len,
          guint       target)
{
  return mshed_gltf_add_view (b->bin, b->views, &b->n_views, data, len, target);
}

/* One accessor over a view of its own. @min and @max (nullable) have a value per component. */
static guint
add_accessor (Builder     *b,
              const void  *data,
              gsize        len,
              guint        target,
              guint        component_type,
              guint        count,
              const char  *type,
              const float *min,
              const float *max,
              guint        n_components)
{
  guint view = add_view (b, data, len, target);

  mshed_gltf_sep (b->accessors);
  g_string_append_printf (b->accessors,
                          "{\"bufferView\":%u,\"componentType\":%u,\"count\":%u,\"type\":\"%s\"",
                          view, component_type, count, type);
  if (min && max)
    {
      g_string_append (b->accessors, ",\"min\":");
      mshed_gltf_append_floats (b->accessors, min, n_components);
      g_string_append (b->accessors, ",\"max\":");
      mshed_gltf_append_floats (b->accessors, max, n_components);
    }
  g_string_append_c (b->accessors, '}');
  return b->n_accessors++;
}

static void
bounds_of (const float *v,
           guint        count,
           guint        n_components,
           float       *min,
           float       *max)
{
  for (guint k = 0; k < n_components; k++)
    min[k] = max[k] = count ? v[k] : 0.0f;
  for (guint i = 1; i < count; i++)
    for (guint k = 0; k < n_components; k++)
      {
        min[k] = MIN (min[k], v[i * n_components + k]);
        max[k] = MAX (max[k], v[i * n_components + k]);
      }
}

/* Materials ------------------------------------------------------------------------------ */

static guint
material_for (Builder *b,
              guint    index)
{
  gpointer id = g_hash_table_lookup (b->material_ids, GUINT_TO_POINTER (index + 1));

  if (id)
    return GPOINTER_TO_UINT (id) - 1;
  mshed_gltf_sep (b->materials);
  g_string_append_printf (b->materials,
                          "{\"name\":\"material %u\",\"doubleSided\":true,"
                          "\"extras\":{\"mshed\":{\"materialIndex\":%u}}}", index, index);
  g_hash_table_insert (b->material_ids, GUINT_TO_POINTER (index + 1),
                       GUINT_TO_POINTER (b->stats.materials + 1));
  return b->stats.materials++;
}

/* Meshes --------------------------------------------------------------------------------- */

/* Every drawable vertex of @batches, numbered in first-use order. */
static void
collect_vertices (Builder     *b,
                  const guint *batches,
                  guint        n_batches)
{
  guint n_elements;
  const guint32 *elements = mshed_render_scene_get_elements (b->scene, &n_elements);

  for (guint i = 0; i < n_batches; i++)
    {
      guint first, count, tri_first;

      if (!mshed_render_scene_get_batch_range (b->scene, batches[i], &first, &count, &tri_first))
        continue;
      for (guint e = first; e < first + count; e++)
        if (b->local[elements[e]] == G_MAXUINT32)
          {
            b->local[elements[e]] = b->used->len;
            g_array_append_val (b->used, elements[e]);
          }
    }
}

/* The vertex attributes of the current mesh, as "POSITION":a,... Normals are made unit
 * length; a mesh with a zero normal (or a short Res4) gets none, and readers compute them. */
static void
add_attributes (Builder *b,
                GString *out)
{
  guint n = b->used->len;
  guint n_pos = mshed_model_get_n_rows (b->model, MSHED_TABLE_POSITIONS);
  g_autofree float *pos = g_new (float, 3 * (gsize) n);
  g_autofree float *nrm = g_new (float, 3 * (gsize) n);
  g_autofree float *uv = g_new (float, 2 * (gsize) n);
  g_autofree float *ids = g_new0 (float, 2 * (gsize) n);
  gboolean normals = mshed_model_get_n_rows (b->model, MSHED_TABLE_NORMALS) == n_pos;
  gboolean uvs = mshed_model_get_n_rows (b->model, MSHED_TABLE_UVS) == n_pos;
  float min[3], max[3];
  guint a;

  for (guint i = 0; i < n; i++)
    {
      float *v = nrm + 3 * (gsize) i;
      float len;

      mshed_render_scene_read_vertices (b->scene, g_array_index (b->used, guint32, i), 1,
                                        pos + 3 * (gsize) i, v, uv + 2 * (gsize) i);
      ids[2 * (gsize) i] = (float) g_array_index (b->used, guint32, i);
      len = sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (!(len > 0.0f))
        normals = FALSE;
      else
        for (guint k = 0; k < 3; k++)
          v[k] /= len;
    }
  bounds_of (pos, n, 3, min, max);
  a = add_accessor (b, pos, 12 * (gsize) n, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC3", min, max, 3);
  g_string_append_printf (out, "\"POSITION\":%u", a);
  if (normals)
    {
      a = add_accessor (b, nrm, 12 * (gsize) n, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC3",
                        NULL, NULL, 0);
      g_string_append_printf (out, ",\"NORMAL\":%u", a);
    }
  if (uvs)
    {
      a = add_accessor (b, uv, 8 * (gsize) n, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC2",
                        NULL, NULL, 0);
      g_string_append_printf (out, ",\"TEXCOORD_0\":%u", a);
    }
  /* Which Res3 row each vertex is (docs/gltf.md §3), exact while rows stay below 2^24 */
  if (n_pos <= MSHED_GLTF_MAX_VERTEX_ID)
    {
      a = add_accessor (b, ids, 8 * (gsize) n, GL_ARRAY_BUFFER, GL_FLOAT, n, "VEC2",
                        NULL, NULL, 0);
      g_string_append_printf (out, ",\"TEXCOORD_1\":%u", a);
    }
}

/* The indices of one batch in the current mesh's numbering: u16 while every vertex number
 * fits below 65535 (the primitive-restart value glTF forbids), else u32. */
static guint
add_indices (Builder *b,
             guint    first,
             guint    count)
{
  guint n_elements;
  const guint32 *elements = mshed_render_scene_get_elements (b->scene, &n_elements);

  if (b->used->len <= G_MAXUINT16)
    {
      g_autofree guint16 *idx = g_new (guint16, count);

      for (guint e = 0; e < count; e++)
        idx[e] = (guint16) b->local[elements[first + e]];
      return add_accessor (b, idx, 2 * (gsize) count, GL_ELEMENT_ARRAY_BUFFER,
                           GL_UNSIGNED_SHORT, count, "SCALAR", NULL, NULL, 0);
    }
  else
    {
      g_autofree guint32 *idx = g_new (guint32, count);

      for (guint e = 0; e < count; e++)
        idx[e] = b->local[elements[first + e]];
      return add_accessor (b, idx, 4 * (gsize) count, GL_ELEMENT_ARRAY_BUFFER,
                           GL_UNSIGNED_INT, count, "SCALAR", NULL, NULL, 0);
    }
}

static void
add_primitive (Builder    *b,
               guint       batch,
               const char *attributes)
{
  guint first, count, tri_first;
  MshedBatch rec;
  GString *s = b->meshes;

  if (!mshed_render_scene_get_batch_range (b->scene, batch, &first, &count, &tri_first) ||
      count == 0 || !mshed_model_get_batch (b->model, batch, &rec))
    return;
  if (s->str[s->len - 1] == '}')
    g_string_append_c (s, ',');
  g_string_append_printf (s, "{\"attributes\":{%s},\"indices\":%u,\"material\":%u,"
                          "\"extras\":{\"mshed\":{\"batch\":%u,\"flags\":%u,"
                          "\"materialIndex\":%u,\"unk4\":%u,\"unk6\":%u,\"indexStart\":%u,"
                          "\"indexCount\":%u,\"unk14\":%u,\"baseVertex\":%u}}}",
                          attributes, add_indices (b, first, count),
                          material_for (b, rec.material_index), batch, rec.flags,
                          rec.material_index, rec.unk4, rec.unk6, rec.index_start,
                          rec.index_count, rec.unk14, rec.base_vertex);
  b->stats.triangles += count / 3;
}

/* A mesh of @batches (one primitive each that draws anything), or NOTHING when they draw
 * nothing. @extras: the mesh's "mshed" extras object. */
static guint
add_mesh (Builder     *b,
          const guint *batches,
          guint        n_batches,
          const char  *name,
          const char  *extras)
{
  g_autoptr(GString) attributes = g_string_new (NULL);

  collect_vertices (b, batches, n_batches);
  if (b->used->len == 0)
    return NOTHING;
  add_attributes (b, attributes);
  mshed_gltf_sep (b->meshes);
  g_string_append (b->meshes, "{\"name\":");
  mshed_json_append_string (b->meshes, name);
  g_string_append (b->meshes, ",\"primitives\":[");
  for (guint i = 0; i < n_batches; i++)
    add_primitive (b, batches[i], attributes->str);
  g_string_append_printf (b->meshes, "],\"extras\":{\"mshed\":%s}}", extras);
  for (guint i = 0; i < b->used->len; i++)
    b->local[g_array_index (b->used, guint32, i)] = G_MAXUINT32;
  g_array_set_size (b->used, 0);
  return b->stats.meshes++;
}

static guint
slot_mesh (Builder *b,
           guint    s)
{
  guint n_batches = mshed_model_get_n_rows (b->model, MSHED_TABLE_BATCHES);
  g_autoptr(GArray) batches = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GString) extras = g_string_new (NULL);
  g_autofree char *name = NULL;
  MshedSlot slot;
  float sphere[4];

  if (b->slot_mesh[s] != SLOT_NOT_DONE)
    return b->slot_mesh[s];
  b->slot_mesh[s] = NOTHING;
  if (!mshed_model_get_slot (b->model, s, &slot))
    return NOTHING;
  memcpy (sphere, slot.sphere_center, sizeof slot.sphere_center);
  sphere[3] = slot.sphere_radius;
  for (guint i = 0; i < slot.batch_count && slot.batch_start + i < n_batches; i++)
    {
      guint batch = slot.batch_start + i;

      g_array_append_val (batches, batch);
    }
  g_string_append_printf (extras, "{\"slot\":%u,\"triStart\":%u,\"triCount\":%u,"
                          "\"batchStart\":%u,\"batchCount\":%u,\"aabbMin\":", s,
                          slot.tri_start, slot.tri_count, slot.batch_start, slot.batch_count);
  mshed_gltf_append_floats (extras, slot.aabb_min, 3);
  g_string_append (extras, ",\"aabbMax\":");
  mshed_gltf_append_floats (extras, slot.aabb_max, 3);
  g_string_append (extras, ",\"sphere\":");
  mshed_gltf_append_floats (extras, sphere, 4);
  g_string_append_printf (extras, ",\"unk\":[%u,%u,%u,%u,%u]}", slot.unk[0], slot.unk[1],
                          slot.unk[2], slot.unk[3], slot.unk[4]);
  name = g_strdup_printf ("slot %u", s);
  b->slot_mesh[s] = add_mesh (b, (const guint *) batches->data, batches->len, name,
                              extras->str);
  return b->slot_mesh[s];
}

/* Nodes ---------------------------------------------------------------------------------- */

/* glTF's rotation (x, y, z, w), unit length, from the runtime's (w, x, y, z) under fparkan's
 * convention v -> R(q) v + t (docs/msh.md §7.4), which is glTF's T * R; a zero or non-finite
 * quaternion is the identity. */
void
mshed_gltf_rotation (const float wxyz[4],
                     float       out[4])
{
  float len = sqrtf (wxyz[0] * wxyz[0] + wxyz[1] * wxyz[1] + wxyz[2] * wxyz[2] +
                     wxyz[3] * wxyz[3]);

  if (!(len > 0.0f) || !isfinite (len))
    {
      out[0] = out[1] = out[2] = 0.0f;
      out[3] = 1.0f;
      return;
    }
  for (guint k = 0; k < 3; k++)
    out[k] = wxyz[k + 1] / len;
  out[3] = wxyz[0] / len;
}

static void
append_name_extras (Builder *b,
                    GString *s,
                    guint    node)
{
  const guint8 *text = NULL;
  guint32 len = 0;
  gboolean lossless = TRUE;
  g_autofree char *utf8 = NULL;

  if (!mshed_model_get_name_raw (b->model, node, &text, &len))
    return;
  if (len == 0)
    {
      g_string_append (s, ",\"emptyName\":true");
      return;
    }
  utf8 = mshed_cp1251_to_utf8 (text, len, &lossless);
  if (!lossless)
    {
      g_string_append (s, ",\"nameHex\":");
      append_hex (s, text, len);
    }
}

/* The name a node gets in glTF: its Res10 name in UTF-8, or "node N" when it has none. */
char *
mshed_gltf_node_name (MshedModel *model,
                      guint       node)
{
  const guint8 *text = NULL;
  guint32 len = 0;

  if (!mshed_model_get_name_raw (model, node, &text, &len) || len == 0)
    return g_strdup_printf ("node %u", node);
  return mshed_cp1251_to_utf8 (text, len, NULL);
}

static void
append_node (Builder       *b,
             guint          i,
             const GArray  *children,
             guint          mesh)
{
  GString *s = b->nodes;
  g_autofree char *name = mshed_gltf_node_name (b->model, i);
  float t = b->options->at_frame ? (float) b->options->frame : -1.0f;  /* -1: fallback key */
  MshedPose pose;
  MshedNode node;
  float rotation[4];

  mshed_anim_sample_node (b->model, i, t, &pose, NULL);
  mshed_gltf_rotation (pose.q, rotation);
  mshed_gltf_sep (s);
  g_string_append (s, "{\"name\":");
  mshed_json_append_string (s, name);
  g_string_append (s, ",\"translation\":");
  mshed_gltf_append_floats (s, pose.pos, 3);
  g_string_append (s, ",\"rotation\":");
  mshed_gltf_append_floats (s, rotation, 4);
  if (mesh != NOTHING)
    g_string_append_printf (s, ",\"mesh\":%u", mesh);
  if (children->len > 0)
    {
      g_string_append (s, ",\"children\":[");
      for (guint c = 0; c < children->len; c++)
        g_string_append_printf (s, "%s%u", c ? "," : "", g_array_index (children, guint, c));
      g_string_append_c (s, ']');
    }
  g_string_append_printf (s, ",\"extras\":{\"mshed\":{\"node\":%u", i);
  append_name_extras (b, s, i);
  if (mshed_model_get_node (b->model, i, &node))
    {
      g_string_append_printf (s, ",\"parent\":%u,\"flags\":%u,\"mapStart\":%u,"
                              "\"fallbackKey\":%u,\"slots\":[", node.hdr1, node.hdr0,
                              node.hdr2, node.hdr3);
      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        g_string_append_printf (s, "%s%u", c ? "," : "", node.slot[c]);
      g_string_append_c (s, ']');
    }
  else
    {
      const guint8 *record = mshed_model_get_record (b->model, MSHED_TABLE_NODES, i);

      if (record)
        {
          g_string_append (s, ",\"record\":");
          append_hex (s, record, mshed_model_get_node_stride (b->model));
        }
    }
  g_string_append (s, "}}}");
  b->stats.nodes++;
}

/* Animation ------------------------------------------------------------------------------ */

/* The keys of node @i's track in the canonical layout (docs/msh.md §7.7): Res8[start..end]
 * with end = hdr3 and start = the previous node's hdr3 + 1; FALSE unless the node has a
 * map and its track has two keys or more at finite, strictly increasing times >= 0. */
gboolean
mshed_gltf_node_track (MshedModel *model,
                       guint       i,
                       guint      *start,
                       guint      *end)
{
  guint n_keys = mshed_model_get_n_rows (model, MSHED_TABLE_KEYS);
  MshedNode node, prev;
  float last = -INFINITY;

  if (!mshed_model_get_node (model, i, &node) || node.hdr2 == MSHED_NONE)
    return FALSE;
  *start = 0;
  if (i > 0)
    {
      if (!mshed_model_get_node (model, i - 1, &prev))
        return FALSE;
      *start = (guint) prev.hdr3 + 1;
    }
  *end = node.hdr3;
  if (*end >= n_keys || *start >= *end)
    return FALSE;
  for (guint k = *start; k <= *end; k++)
    {
      MshedKey key;
      float seconds;

      if (!mshed_model_get_key (model, k, &key))
        return FALSE;
      seconds = key.time / MSHED_GLTF_FRAMES_PER_SECOND;
      if (!isfinite (seconds) || seconds < 0.0f || !(seconds > last))
        return FALSE;
      last = seconds;
    }
  return TRUE;
}

static void
add_sampler (Builder    *b,
             guint       node,
             guint       input,
             guint       output,
             const char *path)
{
  mshed_gltf_sep (b->samplers);
  g_string_append_printf (b->samplers, "{\"input\":%u,\"output\":%u,\"interpolation\":"
                          "\"LINEAR\"}", input, output);
  mshed_gltf_sep (b->channels);
  g_string_append_printf (b->channels, "{\"sampler\":%u,\"target\":{\"node\":%u,"
                          "\"path\":\"%s\"}}", b->n_samplers++, node, path);
}

static void
add_track (Builder *b,
           guint    i)
{
  guint start, end, n;
  g_autofree float *times = NULL;
  g_autofree float *pos = NULL;
  g_autofree float *rot = NULL;
  guint input;

  if (!mshed_gltf_node_track (b->model, i, &start, &end))
    {
      MshedNode node;

      if (mshed_model_get_node (b->model, i, &node) && node.hdr2 != MSHED_NONE)
        b->stats.skipped_tracks++;
      return;
    }
  n = end - start + 1;
  times = g_new (float, n);
  pos = g_new (float, 3 * (gsize) n);
  rot = g_new (float, 4 * (gsize) n);
  for (guint k = 0; k < n; k++)
    {
      MshedKey key;
      float wxyz[4];

      mshed_model_get_key (b->model, start + k, &key);
      times[k] = key.time / MSHED_GLTF_FRAMES_PER_SECOND;
      for (guint c = 0; c < 3; c++)
        pos[3 * k + c] = isfinite (key.pos[c]) ? key.pos[c] : 0.0f;
      mshed_quat_from_stored (key.q, wxyz);
      mshed_gltf_rotation (wxyz, rot + 4 * (gsize) k);
    }
  input = add_accessor (b, times, 4 * (gsize) n, MSHED_GLTF_NO_TARGET, GL_FLOAT, n, "SCALAR",
                        times, times + n - 1, 1);
  add_sampler (b, i, input, add_accessor (b, pos, 12 * (gsize) n, MSHED_GLTF_NO_TARGET, GL_FLOAT, n,
                                          "VEC3", NULL, NULL, 0), "translation");
  add_sampler (b, i, input, add_accessor (b, rot, 16 * (gsize) n, MSHED_GLTF_NO_TARGET, GL_FLOAT, n,
                                          "VEC4", NULL, NULL, 0), "rotation");
  b->stats.animated_nodes++;
}

/* The file ------------------------------------------------------------------------------- */

void
mshed_gltf_options_init (MshedGltfOptions *options)
{
  memset (options, 0, sizeof *options);
  options->format = MSHED_GLTF_BINARY;
  options->animations = TRUE;
}

gboolean
mshed_gltf_format_for_path (const char      *path,
                            MshedGltfFormat *format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".glb"))
    *format = MSHED_GLTF_BINARY;
  else if (g_str_has_suffix (lower, ".gltf"))
    *format = MSHED_GLTF_TEXT;
  else
    return FALSE;
  return TRUE;
}

/* Effective parents by the preview's rules (docs/msh.md §7.5): an out-of-range parent or a
 * cycle makes a node a root. */
guint16 *
mshed_gltf_effective_parents (MshedModel *model)
{
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  guint16 *parents = g_new (guint16, MAX (n_nodes, 1));
  g_autofree float *local = g_new0 (float, 16 * (gsize) MAX (n_nodes, 1));
  g_autofree float *world = g_new (float, 16 * (gsize) MAX (n_nodes, 1));
  g_autofree MshedAnimIssue *issues = g_new0 (MshedAnimIssue, MAX (n_nodes, 1));

  for (guint i = 0; i < n_nodes; i++)
    {
      MshedNode node;

      parents[i] = mshed_model_get_node (model, i, &node) ? node.hdr1 : MSHED_NONE;
      mshed_mat4_identity (local + 16 * (gsize) i);
    }
  mshed_anim_compose_hierarchy (local, parents, n_nodes, world, issues);
  for (guint i = 0; i < n_nodes; i++)
    if (issues[i] & (MSHED_ANIM_ISSUE_PARENT_RANGE | MSHED_ANIM_ISSUE_PARENT_CYCLE))
      parents[i] = MSHED_NONE;
  return parents;
}

/* The other cells of every node, as child nodes (numbered after the MSH nodes). */
static GArray *
collect_variants (Builder *b,
                  guint    n_nodes)
{
  GArray *variants = g_array_new (FALSE, FALSE, sizeof (Variant));
  guint chosen = b->options->lod * MSHED_N_GROUPS + b->options->group;

  for (guint i = 0; i < n_nodes; i++)
    for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
      {
        Variant v = { i, c, 0, 0 };

        if (c == chosen)
          continue;
        v.slot = mshed_model_find_slot (b->model, i, c / MSHED_N_GROUPS, c % MSHED_N_GROUPS);
        if (v.slot == MSHED_NONE || (v.mesh = slot_mesh (b, v.slot)) == NOTHING)
          continue;
        g_array_append_val (variants, v);
      }
  return variants;
}

static void
append_variant (Builder       *b,
                const Variant *v)
{
  guint lod = v->cell / MSHED_N_GROUPS, group = v->cell % MSHED_N_GROUPS;

  mshed_gltf_sep (b->nodes);
  g_string_append_printf (b->nodes, "{\"name\":\"node %u LOD%u group%u\",\"mesh\":%u,"
                          "\"extras\":{\"mshed\":{\"node\":%u,\"lod\":%u,\"group\":%u,"
                          "\"slot\":%u}}}", v->node, lod, group, v->mesh, v->node, lod, group,
                          v->slot);
  b->stats.nodes++;
}

/* Without 38-byte node records (the legacy 24-byte table) the preview draws every batch in
 * Res13 order (docs/msh.md §6.3): one root node "all batches" carries that mesh. */
static guint
all_batches_mesh (Builder *b)
{
  guint n_batches = mshed_model_get_n_rows (b->model, MSHED_TABLE_BATCHES);
  g_autofree guint *batches = g_new (guint, MAX (n_batches, 1));

  for (guint i = 0; i < n_batches; i++)
    batches[i] = i;
  return add_mesh (b, batches, n_batches, "all batches", "{\"allBatches\":true}");
}

/* Nodes with their meshes (90 % of the progress), then the tracks (5 %); FALSE with
 * b->error once cancelled. */
static gboolean
build_nodes (Builder *b,
             GString *roots)
{
  guint n_nodes = mshed_model_get_n_rows (b->model, MSHED_TABLE_NODES);
  gboolean legacy = !mshed_model_has_node_records (b->model);
  g_autofree guint16 *parents = mshed_gltf_effective_parents (b->model);
  g_autoptr(GArray) variants = collect_variants (b, legacy ? 0 : n_nodes);
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint *first_child = g_new (guint, MAX (n_nodes, 1));
  g_autofree guint *next_sibling = g_new (guint, MAX (n_nodes, 1));
  guint v = 0;

  /* child lists in node order, built backwards */
  for (guint i = 0; i < n_nodes; i++)
    first_child[i] = next_sibling[i] = NOTHING;
  for (guint i = n_nodes; i-- > 0;)
    if (parents[i] != MSHED_NONE)
      {
        next_sibling[i] = first_child[parents[i]];
        first_child[parents[i]] = i;
      }
  for (guint i = 0; i < n_nodes; i++)
    {
      guint s;

      if (!mshed_progress_step (b->progress, 0.9 * i / n_nodes,
                                i == 0 ? _("Writing nodes and meshes") : NULL, &b->error))
        return FALSE;
      s = legacy ? MSHED_NONE
                 : mshed_model_find_slot (b->model, i, b->options->lod, b->options->group);
      g_array_set_size (children, 0);
      for (guint c = first_child[i]; c != NOTHING; c = next_sibling[c])
        g_array_append_val (children, c);
      for (; v < variants->len && g_array_index (variants, Variant, v).node == i; v++)
        {
          guint index = n_nodes + v;

          g_array_append_val (children, index);
        }
      append_node (b, i, children, s == MSHED_NONE ? NOTHING : slot_mesh (b, s));
      if (parents[i] == MSHED_NONE)
        g_string_append_printf (roots, "%s%u", roots->len ? "," : "", i);
    }
  for (guint i = 0; i < variants->len; i++)
    append_variant (b, &g_array_index (variants, Variant, i));
  if (!mshed_progress_step (b->progress, 0.9, legacy ? _("Writing nodes and meshes") : NULL,
                            &b->error))
    return FALSE;
  if (legacy)
    {
      guint mesh = all_batches_mesh (b);

      if (mesh != NOTHING)
        {
          mshed_gltf_sep (b->nodes);
          g_string_append_printf (b->nodes, "{\"name\":\"all batches\",\"mesh\":%u,"
                                  "\"extras\":{\"mshed\":{\"allBatches\":true}}}", mesh);
          g_string_append_printf (roots, "%s%u", roots->len ? "," : "", b->stats.nodes++);
        }
    }
  if (b->options->animations)
    for (guint i = 0; i < n_nodes && !legacy; i++)
      {
        if (!mshed_progress_step (b->progress, 0.9 + 0.05 * i / n_nodes,
                                  i == 0 ? _("Writing the animation") : NULL, &b->error))
          return FALSE;
        add_track (b, i);
      }
  return mshed_progress_step (b->progress, 0.95, _("Packing the file"), &b->error);
}

static void
append_array (GString    *json,
              const char *name,
              GString    *items)
{
  if (items->len > 0)
    g_string_append_printf (json, ",\"%s\":[%s]", name, items->str);
}

static GString *
build_json (Builder    *b,
            const char *buffer_uri)
{
  g_autoptr(GString) roots = g_string_new (NULL);
  GString *json;

  if (!build_nodes (b, roots))
    return NULL;
  json = g_string_new (NULL);
  g_string_append_printf (json, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"mshed %s\"},"
                          "\"scene\":0,\"scenes\":[{\"name\":\"mshed\"", PACKAGE_VERSION);
  if (roots->len > 0)
    g_string_append_printf (json, ",\"nodes\":[%s]", roots->str);
  g_string_append_printf (json, ",\"extras\":{\"mshed\":{\"version\":%d,\"lod\":%u,"
                          "\"group\":%u,\"nodeRecordSize\":%u,\"frame\":",
                          MSHED_GLTF_EXTRAS_VERSION, b->options->lod, b->options->group,
                          mshed_model_get_node_stride (b->model));
  if (b->options->at_frame)
    g_string_append_printf (json, "%u", b->options->frame);
  else
    g_string_append (json, "null");
  g_string_append (json, "}}}]");
  append_array (json, "nodes", b->nodes);
  append_array (json, "meshes", b->meshes);
  append_array (json, "materials", b->materials);
  if (b->channels->len > 0)
    g_string_append_printf (json, ",\"animations\":[{\"name\":\"keys\",\"samplers\":[%s],"
                            "\"channels\":[%s],\"extras\":{\"mshed\":{\"framesPerSecond\":%d}}}]",
                            b->samplers->str, b->channels->str, MSHED_GLTF_FRAMES_PER_SECOND);
  append_array (json, "accessors", b->accessors);
  append_array (json, "bufferViews", b->views);
  if (b->bin->len > 0)
    {
      g_string_append_printf (json, ",\"buffers\":[{\"byteLength\":%u", b->bin->len);
      if (buffer_uri)
        g_string_append_printf (json, ",\"uri\":\"%s", buffer_uri);
    }
  return json;
}

static void
append_u32 (GByteArray *out,
            guint32     v)
{
  guint8 le[4];

  mshed_write_u32 (le, v);
  g_byte_array_append (out, le, 4);
}

GBytes *
mshed_gltf_pack_glb (GString    *json,
                     GByteArray *bin)
{
  GByteArray *glb = g_byte_array_new ();

  while (json->len % 4)
    g_string_append_c (json, ' ');
  while (bin->len % 4)
    g_byte_array_append (bin, (const guint8 *) "", 1);
  append_u32 (glb, 0x46546C67);  /* "glTF" */
  append_u32 (glb, 2);
  append_u32 (glb, 12 + 8 + json->len + (bin->len ? 8 + bin->len : 0));
  append_u32 (glb, json->len);
  append_u32 (glb, 0x4E4F534A);  /* "JSON" */
  g_byte_array_append (glb, (const guint8 *) json->str, json->len);
  if (bin->len > 0)
    {
      append_u32 (glb, bin->len);
      append_u32 (glb, 0x004E4942);  /* "BIN\0" */
      g_byte_array_append (glb, bin->data, bin->len);
    }
  g_string_free (json, TRUE);
  return g_byte_array_free_to_bytes (glb);
}

GBytes *
mshed_gltf_export (MshedModel             *model,
                   const MshedGltfOptions *options,
                   MshedProgress          *progress,
                   MshedGltfStats         *stats,
                   GError                **error)
{
  MshedGltfOptions defaults;
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  guint n_vertices = mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS);
  Builder b = { 0 };
  GString *json;
  GBytes *result = NULL;

  if (options == NULL)
    {
      mshed_gltf_options_init (&defaults);
      options = &defaults;
    }
  b.model = model;
  b.options = options;
  b.progress = progress;
  b.scene = mshed_render_scene_new (model);
  b.bin = g_byte_array_new ();
  b.views = g_string_new (NULL);
  b.accessors = g_string_new (NULL);
  b.meshes = g_string_new (NULL);
  b.materials = g_string_new (NULL);
  b.nodes = g_string_new (NULL);
  b.samplers = g_string_new (NULL);
  b.channels = g_string_new (NULL);
  b.slot_mesh = g_new (guint, MAX (n_slots, 1));
  for (guint s = 0; s < n_slots; s++)
    b.slot_mesh[s] = SLOT_NOT_DONE;
  b.material_ids = g_hash_table_new (NULL, NULL);
  b.local = g_new (guint32, MAX (n_vertices, 1));
  memset (b.local, 0xFF, sizeof (guint32) * MAX (n_vertices, 1));
  b.used = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (options->format == MSHED_GLTF_TEXT)
    {
      g_autofree char *base64 = NULL;

      json = build_json (&b, "data:application/octet-stream;base64,");
      if (json == NULL)
        goto out;
      base64 = g_base64_encode (b.bin->data, b.bin->len);
      if (b.bin->len > 0)
        g_string_append_printf (json, "%s\"}]", base64);
      g_string_append (json, "}\n");
      result = g_string_free_to_bytes (json);
    }
  else
    {
      json = build_json (&b, NULL);
      if (json == NULL)
        goto out;
      if (b.bin->len > 0)
        g_string_append (json, "}]");
      g_string_append_c (json, '}');
      result = mshed_gltf_pack_glb (json, b.bin);
    }

  if (stats)
    *stats = b.stats;
  mshed_progress_report (progress, 1.0, NULL);
out:
  if (b.error)
    {
      g_propagate_error (error, b.error);
      result = NULL;
    }
  mshed_render_scene_free (b.scene);
  g_byte_array_unref (b.bin);
  g_string_free (b.views, TRUE);
  g_string_free (b.accessors, TRUE);
  g_string_free (b.meshes, TRUE);
  g_string_free (b.materials, TRUE);
  g_string_free (b.nodes, TRUE);
  g_string_free (b.samplers, TRUE);
  g_string_free (b.channels, TRUE);
  g_free (b.slot_mesh);
  g_hash_table_unref (b.material_ids);
  g_free (b.local);
  g_array_unref (b.used);
  return result;
}
