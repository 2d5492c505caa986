/* mshed-gltf-read.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * json-glib parses the JSON; everything it says is checked before a byte of a buffer is read.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-gltf-read.h"

#define GLB_MAGIC      0x46546C67u  /* "glTF" */
#define GLB_JSON       0x4E4F534Au
#define GLB_BIN        0x004E4942u
#define GL_BYTE        5120
#define GL_UBYTE       5121
#define GL_USHORT      5123
#define GL_UINT        5125
#define GL_FLOAT       5126
#define MODE_TRIANGLES 4
/* More than any model needs, small enough that n × 16 bytes cannot overflow a gsize. */
#define MAX_COUNT      (1u << 28)

typedef struct {
  MshedGltf  *gltf;
  JsonObject *root;
  GBytes     *glb_bin;     /* the GLB's BIN chunk, or NULL */
  GPtrArray  *buffers;     /* GBytes per buffer */
  const char *path;
  gboolean    skins;       /* read skins instead of refusing them */
} Reader;

gboolean
mshed_gltf_fail (const MshedGltf  *gltf,
                 GError          **error,
                 const char       *format,
                 ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID, "%s: %s", gltf->where,
               message);
  return FALSE;
}

#define fail(r, error, ...) mshed_gltf_fail ((r)->gltf, error, __VA_ARGS__)

/* JSON access ------------------------------------------------------------------------------ */

static JsonArray *
get_array (JsonObject *o,
           const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

static JsonObject *
get_object (JsonObject *o,
            const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static JsonObject *
array_object (JsonArray *a,
              guint      i)
{
  JsonNode *n = json_array_get_element (a, i);

  return JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* An integer member in [0, limit); @fallback when absent (-1: required). */
static gboolean
get_index (JsonObject *o,
           const char *name,
           gint64      limit,
           gint64      fallback,
           gint64     *value)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL)
    {
      *value = fallback;
      return fallback >= 0;
    }
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (n);
  return *value >= 0 && *value < limit;
}

static gboolean
get_number (JsonNode *n,
            double   *value)
{
  GType type;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  type = json_node_get_value_type (n);
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    return FALSE;
  *value = json_node_get_double (n);
  return isfinite (*value);
}

/* extras.mshed of @o, or NULL. */
static JsonObject *
mshed_extras (JsonObject *o)
{
  return get_object (get_object (o, "extras"), "mshed");
}

gboolean
mshed_gltf_extra_uint (JsonObject *mshed,
                       const char *name,
                       guint64     limit,
                       guint      *value)
{
  gint64 v;

  if (mshed == NULL || !json_object_has_member (mshed, name) ||
      !get_index (mshed, name, (gint64) MIN (limit, (guint64) G_MAXUINT + 1), -1, &v))
    return FALSE;
  *value = (guint) v;
  return TRUE;
}

/* The container ---------------------------------------------------------------------------- */

static gboolean
split_glb (Reader     *r,
           GBytes     *bytes,
           GBytes    **json,
           GError    **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint32 length, json_len, bin_len;

  if (size < 20)
    return fail (r, error, _("the binary glTF is shorter than its 20-byte header"));
  length = mshed_read_u32 (data + 8);
  if (mshed_read_u32 (data + 4) != 2)
    return fail (r, error, _("binary glTF version %u; only version 2 is read"),
                 mshed_read_u32 (data + 4));
  if (length > size || length < 20)
    return fail (r, error, _("the header's length %u does not fit the file's %zu bytes"),
                 length, size);
  json_len = mshed_read_u32 (data + 12);
  if (mshed_read_u32 (data + 16) != GLB_JSON || json_len > length - 20)
    return fail (r, error, _("the first chunk is not a JSON chunk inside the file"));
  *json = g_bytes_new_from_bytes (bytes, 20, json_len);
  if ((gsize) length - 20 - json_len >= 8)
    {
      gsize at = 20 + (gsize) json_len;

      bin_len = mshed_read_u32 (data + at);
      if (mshed_read_u32 (data + at + 4) == GLB_BIN)
        {
          if (bin_len > length - at - 8)
            return fail (r, error, _("the BIN chunk's %u bytes run past the file's end"),
                         bin_len);
          r->glb_bin = g_bytes_new_from_bytes (bytes, at + 8, bin_len);
        }
    }
  return TRUE;
}

static GBytes *
load_uri (Reader     *r,
          const char *uri,
          guint       i,
          GError    **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  g_autofree char *unescaped = NULL;
  g_autoptr(GError) local = NULL;
  char *data = NULL;
  gsize len = 0;

  if (g_str_has_prefix (uri, "data:"))
    {
      const char *comma = strchr (uri, ',');
      guchar *decoded;

      if (comma == NULL || comma - uri < 7 || strncmp (comma - 7, ";base64", 7) != 0)
        {
          fail (r, error, _("buffers[%u]: a data: URI without base64 data"), i);
          return NULL;
        }
      decoded = g_base64_decode (comma + 1, &len);
      return g_bytes_new_take (decoded, len);
    }
  unescaped = g_uri_unescape_string (uri, NULL);
  if (r->path == NULL || unescaped == NULL || g_path_is_absolute (unescaped) ||
      strstr (unescaped, "..") != NULL || strchr (unescaped, ':') != NULL)
    {
      fail (r, error, _("buffers[%u]: the URI “%s” is not a file name beside the glTF file"),
            i, uri);
      return NULL;
    }
  dir = g_path_get_dirname (r->path);
  file = g_build_filename (dir, unescaped, NULL);
  if (!g_file_get_contents (file, &data, &len, &local))
    {
      fail (r, error, _("buffers[%u]: %s"), i, local->message);
      return NULL;
    }
  return g_bytes_new_take (data, len);
}

static gboolean
load_buffers (Reader  *r,
              GError **error)
{
  JsonArray *buffers = get_array (r->root, "buffers");
  guint n = buffers ? json_array_get_length (buffers) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonObject *b = array_object (buffers, i);
      const char *uri = b ? json_object_get_string_member_with_default (b, "uri", NULL) : NULL;
      gint64 length;
      GBytes *bytes;

      if (b == NULL || !get_index (b, "byteLength", G_MAXINT64, -1, &length))
        return fail (r, error, _("buffers[%u]: no byteLength"), i);
      if (uri == NULL && i == 0 && r->glb_bin)
        bytes = g_bytes_ref (r->glb_bin);
      else if (uri == NULL)
        return fail (r, error, _("buffers[%u]: no uri and no BIN chunk"), i);
      else if ((bytes = load_uri (r, uri, i, error)) == NULL)
        return FALSE;
      g_ptr_array_add (r->buffers, bytes);
      if ((guint64) length > g_bytes_get_size (bytes))
        return fail (r, error, _("buffers[%u]: byteLength %lld is more than "
                                 "the %zu bytes it holds"), i, (long long) length,
                     g_bytes_get_size (bytes));
    }
  return TRUE;
}

/* Accessors -------------------------------------------------------------------------------- */

static guint
n_components (const char *type)
{
  static const char *names[] = { "SCALAR", "VEC2", "VEC3", "VEC4" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (type, names[i]) == 0)
      return i + 1;
  return g_strcmp0 (type, "MAT4") == 0 ? 16 : 0;
}

static guint
component_size (gint64 type)
{
  switch (type)
    {
    case GL_BYTE: case GL_UBYTE: return 1;
    case 5122: case GL_USHORT: return 2;
    case GL_UINT: case GL_FLOAT: return 4;
    default: return 0;
    }
}

/* Accessor @index as @want components per element: floats (GL_FLOAT) into *floats, or
 * unsigned integers (u8, u16, u32) into *ints. @what names the user in messages. */
static gboolean
read_accessor (Reader      *r,
               gint64       index,
               guint        want,
               gboolean     integers,
               const char  *what,
               guint       *count_out,
               float      **floats,
               guint32    **ints,
               GError     **error)
{
  JsonArray *accessors = get_array (r->root, "accessors");
  JsonArray *views = get_array (r->root, "bufferViews");
  JsonObject *a, *v = NULL;
  gint64 count, type, view = -1, offset, view_offset, view_len, stride, buffer;
  guint comps, csize;
  gsize elem, base, last, total;
  const guint8 *data = NULL;

  if (accessors == NULL || index < 0 || index >= json_array_get_length (accessors) ||
      (a = array_object (accessors, (guint) index)) == NULL)
    return fail (r, error, _("%s: accessor %lld does not exist"), what, (long long) index);
  comps = n_components (json_object_get_string_member_with_default (a, "type", ""));
  if (!get_index (a, "componentType", G_MAXINT64, -1, &type) ||
      (csize = component_size (type)) == 0 ||
      !get_index (a, "count", MAX_COUNT, -1, &count) || count == 0)
    return fail (r, error, _("%s: accessor %lld has no valid componentType "
                             "or count"), what, (long long) index);
  if (comps != want)
    return fail (r, error, _("%s: accessor %lld has %u components per element, "
                             "not %u"), what, (long long) index, comps, want);
  if (integers ? type == GL_FLOAT || type == GL_BYTE || type == 5122 : type != GL_FLOAT)
    return fail (r, error, _("%s: accessor %lld has component type %lld, which is not read "
                             "here"), what, (long long) index, (long long) type);
  if (json_object_has_member (a, "sparse"))
    return fail (r, error, _("%s: accessor %lld is sparse, which is not read "
                             "here"), what, (long long) index);
  elem = (gsize) comps * csize;
  *count_out = (guint) count;
  if (integers)
    *ints = g_new0 (guint32, (gsize) count * comps);
  else
    *floats = g_new0 (float, (gsize) count * comps);
  if (!json_object_has_member (a, "bufferView"))
    return TRUE;  /* all zeros, as the glTF 2.0 specification says */
  if (views == NULL || !get_index (a, "bufferView", json_array_get_length (views), -1, &view) ||
      (v = array_object (views, (guint) view)) == NULL ||
      !get_index (v, "buffer", r->buffers->len, -1, &buffer) ||
      !get_index (v, "byteLength", G_MAXINT64, -1, &view_len) ||
      !get_index (v, "byteOffset", G_MAXINT64, 0, &view_offset) ||
      !get_index (a, "byteOffset", G_MAXINT64, 0, &offset) ||
      !get_index (v, "byteStride", 253, (gint64) elem, &stride) || (gsize) stride < elem)
    return fail (r, error, _("%s: accessor %lld names buffer view %lld, which is missing or "
                             "broken"),
                 what, (long long) index, (long long) view);
  {
    GBytes *bytes = g_ptr_array_index (r->buffers, buffer);
    gsize size = g_bytes_get_size (bytes);

    if ((guint64) view_offset > size || (guint64) view_len > size - (guint64) view_offset)
      return fail (r, error, _("%s: buffer view %lld runs past buffer %lld"), what,
                   (long long) view, (long long) buffer);
    data = (const guint8 *) g_bytes_get_data (bytes, NULL) + view_offset;
  }
  if (!g_size_checked_mul (&last, (gsize) count - 1, (gsize) stride) ||
      !g_size_checked_add (&base, last, (gsize) offset) ||
      !g_size_checked_add (&total, base, elem) || total > (guint64) view_len)
    return fail (r, error, _("%s: accessor %lld reads past buffer view %lld"), what,
                 (long long) index, (long long) view);
  for (gsize i = 0; i < (gsize) count; i++)
    {
      const guint8 *p = data + offset + i * (gsize) stride;

      for (guint c = 0; c < comps; c++, p += csize)
        if (!integers)
          {
            float f;

            memcpy (&f, p, 4);
            (*floats)[i * comps + c] = f;
          }
        else
          (*ints)[i * comps + c] = csize == 1 ? p[0] : csize == 2 ? mshed_read_u16 (p)
                                                                  : mshed_read_u32 (p);
    }
  if (!integers)
    for (gsize i = 0; i < (gsize) count * comps; i++)
      if (!isfinite ((*floats)[i]))
        return fail (r, error, _("%s: accessor %lld holds a value that is "
                                 "not a finite number (element %zu)"), what,
                     (long long) index, i / comps);
  return TRUE;
}

/* Meshes ------------------------------------------------------------------------------------ */

static gboolean
read_attribute (Reader      *r,
                JsonObject  *attributes,
                const char  *name,
                guint        comps,
                const char  *what,
                guint       *n_vertices,
                float      **out,
                GError     **error)
{
  g_autofree char *label = g_strdup_printf ("%s.%s", what, name);
  gint64 index;
  guint count = 0;

  if (!json_object_has_member (attributes, name))
    return TRUE;
  if (!get_index (attributes, name, G_MAXINT64, -1, &index))
    return fail (r, error, _("%s: not an accessor index"), label);
  if (!read_accessor (r, index, comps, FALSE, label, &count, out, NULL, error))
    return FALSE;
  if (*n_vertices != G_MAXUINT && count != *n_vertices)
    return fail (r, error, _("%s: accessor %lld has %u elements, POSITION %u"),
                 label, (long long) index, count, *n_vertices);
  *n_vertices = count;
  return TRUE;
}

/* JOINTS_0 (unsigned integers) and WEIGHTS_0 (floats) of a skinned read, both or none. */
static gboolean
read_skin_attributes (Reader             *r,
                      JsonObject         *attributes,
                      const char         *what,
                      guint               n,
                      MshedGltfPrimitive *out,
                      GError            **error)
{
  g_autofree char *label = g_strdup_printf ("%s.JOINTS_0", what);
  gint64 index;
  guint count = 0;

  if (!r->skins)
    return TRUE;
  if (json_object_has_member (attributes, "JOINTS_0") !=
      json_object_has_member (attributes, "WEIGHTS_0"))
    return fail (r, error, _("%s: JOINTS_0 without WEIGHTS_0 or the other way round"), what);
  if (!json_object_has_member (attributes, "JOINTS_0"))
    return TRUE;
  if (!get_index (attributes, "JOINTS_0", G_MAXINT64, -1, &index))
    return fail (r, error, _("%s: not an accessor index"), label);
  if (!read_accessor (r, index, 4, TRUE, label, &count, NULL, &out->joints, error))
    return FALSE;
  if (count != n)
    return fail (r, error, _("%s: accessor %lld has %u elements, POSITION %u"),
                 label, (long long) index, count, n);
  return read_attribute (r, attributes, "WEIGHTS_0", 4, what, &n, &out->weights, error);
}

static gboolean
read_primitive (Reader             *r,
                JsonObject         *p,
                const char         *what,
                MshedGltfPrimitive *out,
                GError            **error)
{
  JsonObject *attributes = get_object (p, "attributes");
  static const char *refused[] = { "JOINTS_0", "WEIGHTS_0" };
  gint64 mode, index, material;
  guint n = G_MAXUINT;

  if (!get_index (p, "mode", 7, MODE_TRIANGLES, &mode) || mode != MODE_TRIANGLES)
    return fail (r, error, _("%s: mode %lld; MSH batches hold triangle lists "
                             "(mode 4) only"), what, (long long) mode);
  if (attributes == NULL || !json_object_has_member (attributes, "POSITION"))
    return fail (r, error, _("%s: no POSITION attribute"), what);
  for (guint i = 0; i < G_N_ELEMENTS (refused) && !r->skins; i++)
    if (json_object_has_member (attributes, refused[i]))
      return fail (r, error, _("%s: a skinned primitive (%s); MSH nodes are rigid, import "
                               "skinned meshes as a deformable model"), what, refused[i]);
  if (json_object_has_member (p, "targets"))
    return fail (r, error, _("%s: morph targets, which MSH cannot hold"), what);
  if (!read_attribute (r, attributes, "POSITION", 3, what, &n, &out->positions, error) ||
      !read_attribute (r, attributes, "NORMAL", 3, what, &n, &out->normals, error) ||
      !read_attribute (r, attributes, "TEXCOORD_0", 2, what, &n, &out->uvs, error) ||
      !read_attribute (r, attributes, "TEXCOORD_1", 2, what, &n, &out->ids, error) ||
      !read_attribute (r, attributes, "TEXCOORD_2", 2, what, &n, &out->uv2, error) ||
      !read_skin_attributes (r, attributes, what, n, out, error))
    return FALSE;
  out->n_vertices = n;
  if (!get_index (p, "material", G_MAXINT32, -1, &material) &&
      json_object_has_member (p, "material"))
    return fail (r, error, _("%s: material is not an index"), what);
  out->material = (gint) material;
  if (json_object_has_member (p, "indices"))
    {
      g_autofree char *label = g_strdup_printf ("%s.indices", what);

      if (!get_index (p, "indices", G_MAXINT64, -1, &index))
        return fail (r, error, _("%s: not an accessor index"), label);
      if (!read_accessor (r, index, 1, TRUE, label, &out->n_indices, NULL, &out->indices,
                          error))
        return FALSE;
    }
  else
    {
      out->n_indices = n;
      out->indices = g_new (guint32, n);
      for (guint i = 0; i < n; i++)
        out->indices[i] = i;
    }
  if (out->n_indices % 3 != 0)
    return fail (r, error, _("%s: %u indices do not make whole triangles"), what,
                 out->n_indices);
  for (guint i = 0; i < out->n_indices; i++)
    if (out->indices[i] >= n)
      return fail (r, error, _("%s: index %u is vertex %u of %u"), what, i, out->indices[i],
                   n);
  return TRUE;
}

static gboolean
read_meshes (Reader  *r,
             GError **error)
{
  JsonArray *meshes = get_array (r->root, "meshes");
  MshedGltf *g = r->gltf;

  g->n_meshes = meshes ? json_array_get_length (meshes) : 0;
  g->meshes = g_new0 (MshedGltfMesh, MAX (g->n_meshes, 1));
  for (guint m = 0; m < g->n_meshes; m++)
    {
      JsonObject *mesh = array_object (meshes, m);
      JsonArray *prims = get_array (mesh, "primitives");
      MshedGltfMesh *out = &g->meshes[m];

      if (mesh == NULL || prims == NULL)
        return fail (r, error, _("meshes[%u]: no primitives"), m);
      out->name = g_strdup (json_object_get_string_member_with_default (mesh, "name", ""));
      out->mshed = mshed_extras (mesh);
      out->n_primitives = json_array_get_length (prims);
      out->primitives = g_new0 (MshedGltfPrimitive, MAX (out->n_primitives, 1));
      for (guint p = 0; p < out->n_primitives; p++)
        {
          g_autofree char *what = g_strdup_printf ("meshes[%u].primitives[%u]", m, p);
          JsonObject *prim = array_object (prims, p);

          if (prim == NULL)
            return fail (r, error, _("%s: not an object"), what);
          if (!read_primitive (r, prim, what, &out->primitives[p], error))
            return FALSE;
        }
    }
  return TRUE;
}

/* Nodes ------------------------------------------------------------------------------------- */

static gboolean
read_floats (JsonObject *o,
             const char *name,
             float      *out,
             guint       n)
{
  JsonArray *a = get_array (o, name);

  if (a == NULL)
    return json_object_get_member (o, name) == NULL;
  if (json_array_get_length (a) != n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      double v;

      if (!get_number (json_array_get_element (a, i), &v))
        return FALSE;
      out[i] = (float) v;
    }
  return TRUE;
}

/* A column-major 4×4 matrix without scale or shear as translation + rotation (x, y, z, w). */
static gboolean
decompose (const float m[16],
           float       t[3],
           float       q[4])
{
  double r[3][3], trace;

  for (guint c = 0; c < 3; c++)
    for (guint k = 0; k < 3; k++)
      r[k][c] = m[4 * c + k];
  for (guint c = 0; c < 3; c++)
    {
      double len = sqrt (r[0][c] * r[0][c] + r[1][c] * r[1][c] + r[2][c] * r[2][c]);

      if (fabs (len - 1.0) > 1e-4)
        return FALSE;
    }
  t[0] = m[12], t[1] = m[13], t[2] = m[14];
  trace = r[0][0] + r[1][1] + r[2][2];
  if (trace > 0)
    {
      double s = 0.5 / sqrt (trace + 1.0);

      q[3] = (float) (0.25 / s);
      q[0] = (float) ((r[2][1] - r[1][2]) * s);
      q[1] = (float) ((r[0][2] - r[2][0]) * s);
      q[2] = (float) ((r[1][0] - r[0][1]) * s);
    }
  else
    {
      guint i = r[1][1] > r[0][0] ? 1 : 0, j, k;
      double s;

      if (r[2][2] > r[i][i])
        i = 2;
      j = (i + 1) % 3, k = (i + 2) % 3;
      s = sqrt (r[i][i] - r[j][j] - r[k][k] + 1.0) * 2.0;
      q[i] = (float) (0.25 * s);
      q[3] = (float) ((r[k][j] - r[j][k]) / s);
      q[j] = (float) ((r[j][i] + r[i][j]) / s);
      q[k] = (float) ((r[k][i] + r[i][k]) / s);
    }
  return TRUE;
}

static gboolean
read_node (Reader        *r,
           JsonObject    *node,
           guint          i,
           MshedGltfNode *out,
           GError       **error)
{
  float scale[3] = { 1, 1, 1 }, matrix[16];
  gint64 mesh;

  out->name = g_strdup (json_object_get_string_member_with_default (node, "name", ""));
  out->mshed = mshed_extras (node);
  out->rotation[3] = 1.0f;
  out->skin = -1;
  if (r->skins && json_object_has_member (node, "skin"))
    {
      gint64 skin;

      if (!get_index (node, "skin", r->gltf->n_skins, -1, &skin))
        return fail (r, error, _("nodes[%u]: its skin does not exist"), i);
      out->skin = (gint) skin;
    }
  else if (json_object_has_member (node, "skin"))
    return fail (r, error, _("nodes[%u]: a skinned node; MSH nodes are rigid, import skinned "
                             "meshes as a deformable model"), i);
  if (!get_index (node, "mesh", r->gltf->n_meshes, G_MAXINT64, &mesh) &&
      json_object_has_member (node, "mesh"))
    return fail (r, error, _("nodes[%u]: its mesh does not exist"), i);
  out->mesh = mesh == G_MAXINT64 ? -1 : (gint) mesh;
  if (!read_floats (node, "translation", out->translation, 3) ||
      !read_floats (node, "rotation", out->rotation, 4) ||
      !read_floats (node, "scale", scale, 3))
    return fail (r, error, _("nodes[%u]: a translation, rotation or scale that is not an "
                             "array of finite numbers"), i);
  if (json_object_has_member (node, "matrix") &&
      (!read_floats (node, "matrix", matrix, 16) ||
       !decompose (matrix, out->translation, out->rotation)))
    return fail (r, error, _("nodes[%u]: a matrix with scale or shear; MSH nodes have only "
                             "a translation and a rotation"), i);
  for (guint k = 0; k < 3; k++)
    if (fabsf (scale[k] - 1.0f) > 1e-4f)
      return fail (r, error, _("nodes[%u]: scale %g; MSH nodes have only a translation and a "
                               "rotation"), i, scale[k]);
  return TRUE;
}

static gboolean
read_nodes (Reader  *r,
            GError **error)
{
  JsonArray *nodes = get_array (r->root, "nodes");
  MshedGltf *g = r->gltf;

  g->n_nodes = nodes ? json_array_get_length (nodes) : 0;
  g->nodes = g_new0 (MshedGltfNode, MAX (g->n_nodes, 1));
  for (guint i = 0; i < g->n_nodes; i++)
    g->nodes[i].parent = -1;
  for (guint i = 0; i < g->n_nodes; i++)
    {
      JsonObject *node = array_object (nodes, i);
      JsonArray *children = get_array (node, "children");

      if (node == NULL)
        return fail (r, error, _("nodes[%u]: not an object"), i);
      if (!read_node (r, node, i, &g->nodes[i], error))
        return FALSE;
      for (guint c = 0; children && c < json_array_get_length (children); c++)
        {
          JsonNode *e = json_array_get_element (children, c);
          gint64 child = JSON_NODE_HOLDS_VALUE (e) ? json_node_get_int (e) : -1;

          if (child < 0 || child >= g->n_nodes || child == i)
            return fail (r, error, _("nodes[%u].children[%u]: no such node"), i, c);
          if (g->nodes[child].parent != -1)
            return fail (r, error, _("nodes[%u]: a child of both nodes[%d] and nodes[%u]"),
                         (guint) child, g->nodes[child].parent, i);
          g->nodes[child].parent = (gint) i;
        }
    }
  for (guint i = 0; i < g->n_nodes; i++)
    {
      guint steps = 0;

      for (gint p = g->nodes[i].parent; p >= 0; p = g->nodes[p].parent)
        if (++steps > g->n_nodes)
          return fail (r, error, _("nodes[%u]: its parents form a cycle"), i);
    }
  return TRUE;
}

/* Materials, animations, the scene ------------------------------------------------------------ */

static void
read_materials (Reader *r)
{
  JsonArray *materials = get_array (r->root, "materials");
  MshedGltf *g = r->gltf;

  g->n_materials = materials ? json_array_get_length (materials) : 0;
  g->material_index = g_new (gint, MAX (g->n_materials, 1));
  for (guint i = 0; i < g->n_materials; i++)
    {
      guint index;

      g->material_index[i] = mshed_gltf_extra_uint (mshed_extras (array_object (materials, i)),
                                                    "materialIndex", G_MAXUINT16 + 1u, &index)
                               ? (gint) index : -1;
    }
}

static gboolean
read_channel (Reader      *r,
              JsonObject  *anim,
              JsonObject  *channel,
              const char  *what,
              GArray      *out,
              GError     **error)
{
  JsonArray *samplers = get_array (anim, "samplers");
  JsonObject *target = get_object (channel, "target"), *sampler;
  const char *path = target ? json_object_get_string_member_with_default (target, "path", "")
                            : "";
  const char *interp;
  MshedGltfChannel c = { 0 };
  gint64 s, node, input, output;
  guint n_out = 0;

  if (target == NULL || !get_index (target, "node", r->gltf->n_nodes, -1, &node))
    return fail (r, error, _("%s: no target node"), what);
  if (samplers == NULL ||
      !get_index (channel, "sampler", json_array_get_length (samplers), -1, &s) ||
      (sampler = array_object (samplers, (guint) s)) == NULL ||
      !get_index (sampler, "input", G_MAXINT64, -1, &input) ||
      !get_index (sampler, "output", G_MAXINT64, -1, &output))
    return fail (r, error, _("%s: no valid sampler"), what);
  interp = json_object_get_string_member_with_default (sampler, "interpolation", "LINEAR");
  if (g_strcmp0 (interp, "LINEAR") != 0 && g_strcmp0 (interp, "STEP") != 0)
    return fail (r, error, _("%s: %s interpolation; MSH keys are linear"), what, interp);
  if (g_strcmp0 (path, "scale") == 0 || g_strcmp0 (path, "weights") == 0)
    return TRUE;  /* checked against 1 below by the import when it matters: MSH has none */
  if (g_strcmp0 (path, "translation") != 0 && g_strcmp0 (path, "rotation") != 0)
    return fail (r, error, _("%s: unknown target path “%s”"), what, path);
  c.node = (guint) node;
  c.path = path[0] == 't' ? MSHED_GLTF_PATH_TRANSLATION : MSHED_GLTF_PATH_ROTATION;
  c.step = interp[0] == 'S';
  if (!read_accessor (r, input, 1, FALSE, what, &c.n_keys, &c.times, NULL, error) ||
      !read_accessor (r, output, c.path == MSHED_GLTF_PATH_ROTATION ? 4 : 3, FALSE, what,
                      &n_out, &c.values, NULL, error))
    {
      g_free (c.times);
      g_free (c.values);
      return FALSE;
    }
  g_array_append_val (out, c);
  if (n_out != c.n_keys)
    return fail (r, error, _("%s: %u times but %u values"), what, c.n_keys, n_out);
  for (guint k = 1; k < c.n_keys; k++)
    if (!(c.times[k] > c.times[k - 1]))
      return fail (r, error, _("%s: key times do not increase at key %u"), what, k);
  return TRUE;
}

/* The channel's value at @t (seconds): glTF's LINEAR (slerp for rotations) or STEP. */
void
mshed_gltf_channel_sample (const MshedGltfChannel *c,
                           float                   t,
                           float                  *out)
{
  guint n = c->path == MSHED_GLTF_PATH_ROTATION ? 4 : 3, k = 0;
  const float *a, *b;
  float alpha;

  while (k + 1 < c->n_keys && c->times[k + 1] <= t)
    k++;
  a = c->values + (gsize) k * n;
  if (k + 1 >= c->n_keys || t <= c->times[k] || c->step)
    {
      memcpy (out, a, n * sizeof (float));
      return;
    }
  b = a + n;
  alpha = (t - c->times[k]) / (c->times[k + 1] - c->times[k]);
  if (n == 3)
    for (guint i = 0; i < 3; i++)
      out[i] = a[i] + alpha * (b[i] - a[i]);
  else
    {
      float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
      float sign = dot < 0 ? -1.0f : 1.0f, wa, wb;
      float theta = acosf (CLAMP (fabsf (dot), 0.0f, 1.0f));

      if (theta < 1e-4f)
        wa = 1 - alpha, wb = alpha;
      else
        wa = sinf ((1 - alpha) * theta) / sinf (theta), wb = sinf (alpha * theta) / sinf (theta);
      for (guint i = 0; i < 4; i++)
        out[i] = wa * a[i] + sign * wb * b[i];
    }
}

static gboolean
read_animations (Reader  *r,
                 GError **error)
{
  JsonArray *anims = get_array (r->root, "animations");
  g_autoptr(GArray) channels = g_array_new (FALSE, TRUE, sizeof (MshedGltfChannel));
  gboolean ok = TRUE;

  for (guint a = 0; ok && anims && a < json_array_get_length (anims); a++)
    {
      JsonObject *anim = array_object (anims, a);
      JsonArray *list = get_array (anim, "channels");

      for (guint c = 0; ok && list && c < json_array_get_length (list); c++)
        {
          g_autofree char *what = g_strdup_printf ("animations[%u].channels[%u]", a, c);
          JsonObject *channel = array_object (list, c);

          ok = channel ? read_channel (r, anim, channel, what, channels, error)
                       : fail (r, error, _("%s: not an object"), what);
        }
    }
  r->gltf->n_channels = channels->len;
  r->gltf->channels = (MshedGltfChannel *) g_array_free (g_steal_pointer (&channels), FALSE);
  return ok;
}

static gboolean
read_skins (Reader  *r,
            GError **error)
{
  JsonArray *skins = get_array (r->root, "skins");
  JsonArray *nodes = get_array (r->root, "nodes");
  guint n_nodes = nodes ? json_array_get_length (nodes) : 0;
  MshedGltf *g = r->gltf;

  if (!r->skins)
    return TRUE;
  g->n_skins = skins ? json_array_get_length (skins) : 0;
  g->skins = g_new0 (MshedGltfSkin, MAX (g->n_skins, 1));
  for (guint s = 0; s < g->n_skins; s++)
    {
      JsonObject *skin = array_object (skins, s);
      JsonArray *joints = skin ? get_array (skin, "joints") : NULL;
      MshedGltfSkin *out = &g->skins[s];
      gint64 ibm;

      if (joints == NULL || json_array_get_length (joints) == 0)
        return fail (r, error, _("skins[%u]: no joints"), s);
      out->n_joints = json_array_get_length (joints);
      out->joints = g_new (guint, out->n_joints);
      for (guint j = 0; j < out->n_joints; j++)
        {
          JsonNode *e = json_array_get_element (joints, j);
          gint64 node = JSON_NODE_HOLDS_VALUE (e) ? json_node_get_int (e) : -1;

          if (node < 0 || node >= n_nodes)
            return fail (r, error, _("skins[%u].joints[%u]: no such node"), s, j);
          out->joints[j] = (guint) node;
        }
      if (get_index (skin, "inverseBindMatrices", G_MAXINT64, -1, &ibm) && ibm >= 0)
        {
          g_autofree char *label = g_strdup_printf ("skins[%u].inverseBindMatrices", s);
          JsonArray *accessors = get_array (r->root, "accessors");
          JsonObject *a = accessors && ibm < json_array_get_length (accessors)
                          ? array_object (accessors, (guint) ibm) : NULL;
          guint count = 0;

          if (a == NULL || g_strcmp0 (json_object_get_string_member_with_default (a, "type",
                                                                                  ""),
                                      "MAT4") != 0)
            return fail (r, error, _("%s: not a MAT4 accessor"), label);
          if (!read_accessor (r, ibm, 16, FALSE, label, &count, &out->inverse_bind, NULL,
                              error))
            return FALSE;
          if (count != out->n_joints)
            return fail (r, error, _("%s: %u matrices for %u joints"), label, count,
                         out->n_joints);
        }
    }
  return TRUE;
}

static gboolean
read_document (Reader  *r,
               GError **error)
{
  JsonObject *asset = get_object (r->root, "asset");
  JsonArray *scenes = get_array (r->root, "scenes");
  const char *version = asset ? json_object_get_string_member_with_default (asset, "version",
                                                                            NULL) : NULL;
  gint64 scene;

  if (version == NULL || !g_str_has_prefix (version, "2."))
    return fail (r, error, _("asset.version is not 2.x; this is not a glTF 2.0 file"));
  if (scenes && get_index (r->root, "scene", json_array_get_length (scenes), 0, &scene))
    r->gltf->scene_mshed = mshed_extras (array_object (scenes, (guint) scene));
  read_materials (r);
  return load_buffers (r, error) && read_meshes (r, error) && read_skins (r, error) &&
         read_nodes (r, error) &&
         read_animations (r, error);
}

static MshedGltf *
read_bytes (GBytes      *bytes,
            const char  *path,
            gboolean     skins,
            GError     **error)
{
  g_autoptr(MshedGltf) g = g_new0 (MshedGltf, 1);
  g_autoptr(GBytes) json = NULL;
  g_autoptr(GError) local = NULL;
  Reader r = { g, NULL, NULL, g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
               path, skins };
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  JsonNode *root;
  gboolean ok;

  g->where = path ? g_filename_display_name (path) : g_strdup ("glTF");
  g->parser = json_parser_new_immutable ();
  if (size >= 4 && mshed_read_u32 (data) == GLB_MAGIC)
    {
      if (!split_glb (&r, bytes, &json, error))
        goto out_fail;
    }
  else
    json = g_bytes_ref (bytes);
  data = g_bytes_get_data (json, &size);
  if (size > G_MAXSSIZE ||
      !json_parser_load_from_data (g->parser, (const char *) data, (gssize) size, &local))
    {
      fail (&r, error, _("not a glTF file: %s"), local ? local->message : "");
      goto out_fail;
    }
  root = json_parser_get_root (g->parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (&r, error, _("not a glTF file: the JSON is not an object"));
      goto out_fail;
    }
  r.root = json_node_get_object (root);
  ok = read_document (&r, error);
  g_clear_pointer (&r.glb_bin, g_bytes_unref);
  g_ptr_array_unref (r.buffers);
  return ok ? g_steal_pointer (&g) : NULL;

out_fail:
  g_clear_pointer (&r.glb_bin, g_bytes_unref);
  g_ptr_array_unref (r.buffers);
  return NULL;
}

MshedGltf *
mshed_gltf_read (GBytes      *bytes,
                 const char  *path,
                 GError     **error)
{
  return read_bytes (bytes, path, FALSE, error);
}

MshedGltf *
mshed_gltf_read_skinned (GBytes      *bytes,
                         const char  *path,
                         GError     **error)
{
  return read_bytes (bytes, path, TRUE, error);
}

static MshedGltf *
read_file (const char  *path,
           gboolean     skins,
           GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, &local))
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO, local->message);
      return NULL;
    }
  bytes = g_bytes_new_take (g_steal_pointer (&data), len);
  return read_bytes (bytes, path, skins, error);
}

MshedGltf *
mshed_gltf_read_file (const char  *path,
                      GError     **error)
{
  return read_file (path, FALSE, error);
}

MshedGltf *
mshed_gltf_read_file_skinned (const char  *path,
                              GError     **error)
{
  return read_file (path, TRUE, error);
}

void
mshed_gltf_free (MshedGltf *g)
{
  if (g == NULL)
    return;
  for (guint i = 0; g->nodes && i < g->n_nodes; i++)
    g_free (g->nodes[i].name);
  for (guint m = 0; g->meshes && m < g->n_meshes; m++)
    {
      for (guint p = 0; g->meshes[m].primitives && p < g->meshes[m].n_primitives; p++)
        {
          MshedGltfPrimitive *prim = &g->meshes[m].primitives[p];

          g_free (prim->positions);
          g_free (prim->normals);
          g_free (prim->uvs);
          g_free (prim->ids);
          g_free (prim->uv2);
          g_free (prim->joints);
          g_free (prim->weights);
          g_free (prim->indices);
        }
      g_free (g->meshes[m].primitives);
      g_free (g->meshes[m].name);
    }
  for (guint c = 0; g->channels && c < g->n_channels; c++)
    {
      g_free (g->channels[c].times);
      g_free (g->channels[c].values);
    }
  for (guint s = 0; g->skins && s < g->n_skins; s++)
    {
      g_free (g->skins[s].joints);
      g_free (g->skins[s].inverse_bind);
    }
  g_free (g->skins);
  g_free (g->channels);
  g_free (g->nodes);
  g_free (g->meshes);
  g_free (g->material_index);
  g_clear_object (&g->parser);
  g_free (g->where);
  g_free (g);
}
