/* test-cli-gltf-dfm-grow.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glTF -> DFM import of vertices added and deleted (docs/gltf.md §8.3), through mshed-cli as
 * a user runs it: a hand-made new primitive in the .gltf (two new vertices at one place with
 * their own UVs, one with a stored element's id, a loose one, triangles joining them to stored
 * elements) becomes exactly two
 * new elements of one new point with the given position, normal, UVs and weights; a vertex
 * taken out of the .gltf with its triangles removes exactly that element and its point, every
 * later index renumbered; Blender 3.4 subdividing one face and deleting one vertex comes back
 * as the expected counts, every other level byte for byte, validation clean, one undo step.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "mshed-dfm.h"
#include "mshed-document.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-read.h"
#include "test-cli-util.h"
#include "test-require.h"

static MshedDfm *
open_dfm (const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  return dfm;
}

static gint
compare_tri (gconstpointer a,
             gconstpointer b)
{
  return memcmp (a, b, 6);
}

/* (a, b, c) rotated to start at its smallest corner, the winding kept. */
static void
rotate_tri (const guint16 *e,
            guint16       *r)
{
  guint k = e[1] < e[0] && e[1] <= e[2] ? 1 : e[2] < e[0] && e[2] < e[1] ? 2 : 0;

  for (guint c = 0; c < 3; c++)
    r[c] = e[(k + c) % 3];
}

/* Every triangle of Mesh0, over its groups, rotated, sorted. */
static GArray *
level_triangles (MshedDfm *dfm)
{
  GArray *out = g_array_new (FALSE, FALSE, 6);
  MshedDfmLevel info;

  g_assert_true (mshed_dfm_get_level (dfm, 0, &info));
  for (guint g = 0; g < info.n_groups; g++)
    {
      gsize n = 0;
      g_autofree guint16 *t = mshed_dfm_dup_triangles (dfm, 0, g, &n);

      for (gsize i = 0; i < n; i++)
        {
          guint16 r[3];

          rotate_tri (&t[3 * i], r);
          g_array_append_vals (out, r, 1);
        }
    }
  g_array_sort (out, compare_tri);
  return out;
}

/* Every node outside Mesh0 byte for byte the same, and the same tree. */
static void
assert_only_mesh0_differs (const char *a_name,
                           const char *b_name)
{
  g_autoptr(MshedUtf) a = read_utf_tree (a_name, MSHED_MODE_STRICT);
  g_autoptr(MshedUtf) b = read_utf_tree (b_name, MSHED_MODE_STRICT);
  MshedUtfNode *na, *nb;

  for (na = mshed_utf_get_root (a), nb = mshed_utf_get_root (b); na && nb;
       na = mshed_utf_node_next_preorder (na, NULL), nb = mshed_utf_node_next_preorder (nb, NULL))
    {
      g_autofree char *pa = mshed_utf_node_dup_path (na);
      g_autofree char *pb = mshed_utf_node_dup_path (nb);
      GBytes *da = mshed_utf_node_get_data (na), *db = mshed_utf_node_get_data (nb);

      g_assert_cmpstr (pa, ==, pb);
      if (g_str_has_prefix (pa, "\\MultiLevel\\Mesh0\\"))
        continue;
      g_assert_true ((da == NULL) == (db == NULL));
      g_assert_true (da == NULL || g_bytes_equal (da, db));
    }
  g_assert_true (na == NULL && nb == NULL);
}

/* The .gltf's embedded buffer ------------------------------------------------------------- */

typedef struct {
  JsonObject *root;
  GByteArray *bin;
} Gltf;

static void
gltf_open (Gltf       *g,
           JsonNode   *json)
{
  JsonObject *buffer;
  const char *uri;
  gsize len = 0;
  guchar *data;

  g->root = json_node_get_object (json);
  buffer = json_array_get_object_element (json_object_get_array_member (g->root, "buffers"), 0);
  uri = json_object_get_string_member (buffer, "uri");
  data = g_base64_decode (strchr (uri, ',') + 1, &len);
  g->bin = g_byte_array_new_take (data, len);
}

/* Writes the buffer back into the JSON and the JSON to @name. */
static void
gltf_save (Gltf       *g,
           JsonNode   *json,
           const char *name)
{
  JsonObject *buffer = json_array_get_object_element (
    json_object_get_array_member (g->root, "buffers"), 0);
  g_autofree char *base64 = g_base64_encode (g->bin->data, g->bin->len);
  g_autofree char *uri = g_strconcat ("data:application/octet-stream;base64,", base64, NULL);
  g_autofree char *text = NULL;

  json_object_set_string_member (buffer, "uri", uri);
  json_object_set_int_member (buffer, "byteLength", g->bin->len);
  text = json_to_string (json, FALSE);
  g_assert_true (write_text (name, text));
  g_byte_array_unref (g->bin);
}

/* A new accessor of @count @type records of @component, its bytes appended to the buffer. */
static guint
add_accessor (Gltf       *g,
              const void *data,
              gsize       len,
              guint       component,
              guint       count,
              const char *type)
{
  JsonArray *views = json_object_get_array_member (g->root, "bufferViews");
  JsonArray *accessors = json_object_get_array_member (g->root, "accessors");
  JsonObject *view = json_object_new (), *acc = json_object_new ();
  static const guint8 pad[4] = { 0 };

  g_byte_array_append (g->bin, pad, (4 - g->bin->len % 4) % 4);
  json_object_set_int_member (view, "buffer", 0);
  json_object_set_int_member (view, "byteOffset", g->bin->len);
  json_object_set_int_member (view, "byteLength", (gint64) len);
  g_byte_array_append (g->bin, data, (guint) len);
  json_array_add_object_element (views, view);
  json_object_set_int_member (acc, "bufferView", json_array_get_length (views) - 1);
  json_object_set_int_member (acc, "componentType", component);
  json_object_set_int_member (acc, "count", count);
  json_object_set_string_member (acc, "type", type);
  json_array_add_object_element (accessors, acc);
  return json_array_get_length (accessors) - 1;
}

/* The bytes accessor @a covers, and its count. */
static guint8 *
accessor_data (Gltf  *g,
               guint  a,
               guint *count)
{
  JsonObject *acc = json_array_get_object_element (
    json_object_get_array_member (g->root, "accessors"), a);
  JsonObject *view = json_array_get_object_element (
    json_object_get_array_member (g->root, "bufferViews"),
    (guint) json_object_get_int_member (acc, "bufferView"));

  *count = (guint) json_object_get_int_member (acc, "count");
  return g->bin->data + json_object_get_int_member_with_default (view, "byteOffset", 0) +
         json_object_get_int_member_with_default (acc, "byteOffset", 0);
}

static JsonArray *
mesh0_primitives (Gltf *g)
{
  return json_object_get_array_member (json_array_get_object_element (
    json_object_get_array_member (g->root, "meshes"), 0), "primitives");
}

/* Added in the JSON ------------------------------------------------------------------------ */

#define N_NEW 6

/* A new primitive in Mesh0's material of the first group: stored elements A, B, C at their
 * places and with their skins, and new vertices N1 (id 0.5: no element) and N2 (A's id, far
 * from A) at one place with one skin but their own UVs and normals, and N3 (id 0.75) that no
 * triangle uses;
 * triangles (A, B, N1) and (B, C, N2). Expected: two new elements of one new point. */
static void
test_add_json (void)
{
  static const float place[3] = { 0.125f, 1.5f, -0.25f };
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(MshedDfm) a = NULL, b = NULL;
  g_autoptr(GArray) before = NULL, after = NULL, inf = NULL;
  g_autofree guint16 *first = NULL;
  g_auto(Run) run = { 0 };
  MshedDfmLevel ia, ib;
  MshedDfmElement el[3], e0, e1;
  float pos[N_NEW][3], nor[N_NEW][3], uv[N_NEW][2], ids[N_NEW][2], w[N_NEW][4];
  guint16 joints[N_NEW][4], index[6] = { 0, 1, 3, 1, 2, 4 };
  float position[3], normal[3];
  JsonObject *prim, *attrs, *old;
  gsize n = 0;
  Gltf g;

  run_cli_generate ("--dfm hand --seed 7", "grow.dfm");
  run_cli_ok ("export", "-q", "grow.dfm", "-o", "grow.gltf", NULL);
  a = open_dfm ("grow.dfm");
  g_assert_true (mshed_dfm_get_level (a, 0, &ia));
  first = mshed_dfm_dup_triangles (a, 0, 0, &n);
  g_assert_cmpuint (n, >, 0);
  memset (joints, 0, sizeof joints);
  memset (w, 0, sizeof w);
  memset (ids, 0, sizeof ids);
  for (guint k = 0; k < 3; k++)
    {
      float len;

      g_assert_true (mshed_dfm_get_element (a, 0, first[k], &el[k]));
      memcpy (pos[k], el[k].position, 12);
      len = sqrtf (el[k].normal[0] * el[k].normal[0] + el[k].normal[1] * el[k].normal[1] +
                   el[k].normal[2] * el[k].normal[2]);
      for (guint c = 0; c < 3; c++)
        nor[k][c] = el[k].normal[c] / len;
      memcpy (uv[k], el[k].uv0, 8);
      ids[k][0] = first[k];
      mshed_gltf_dfm_point_skin (a, 0, el[k].point, joints[k], w[k]);
    }
  for (guint k = 3; k < N_NEW; k++)
    {
      static const float new_uv[3][2] = { { 0.375f, 0.625f }, { 0.875f, 0.125f },
                                          { 0.5f, 0.5f } };
      static const float new_normal[3][3] = { { 0, 0, 1 }, { 0, 1, 0 }, { 1, 0, 0 } };
      /* N2 copies A's id, as Blender's extrude does: A's own vertex is nearer A */
      const float new_id[3] = { 0.5f, first[0], 0.75f };

      memcpy (pos[k], place, 12);
      memcpy (nor[k], new_normal[k - 3], 12);
      memcpy (uv[k], new_uv[k - 3], 8);
      ids[k][0] = new_id[k - 3];
      joints[k][0] = 1, joints[k][1] = 2;
      w[k][0] = 0.75f, w[k][1] = 0.25f;
    }
  json = read_json ("grow.gltf");
  gltf_open (&g, json);
  old = json_array_get_object_element (mesh0_primitives (&g), 0);
  prim = json_object_new ();
  attrs = json_object_new ();
  json_object_set_int_member (attrs, "POSITION",
                              add_accessor (&g, pos, sizeof pos, 5126, N_NEW, "VEC3"));
  json_object_set_int_member (attrs, "NORMAL",
                              add_accessor (&g, nor, sizeof nor, 5126, N_NEW, "VEC3"));
  json_object_set_int_member (attrs, "TEXCOORD_0",
                              add_accessor (&g, uv, sizeof uv, 5126, N_NEW, "VEC2"));
  json_object_set_int_member (attrs, "TEXCOORD_1",
                              add_accessor (&g, ids, sizeof ids, 5126, N_NEW, "VEC2"));
  json_object_set_int_member (attrs, "JOINTS_0",
                              add_accessor (&g, joints, sizeof joints, 5123, N_NEW, "VEC4"));
  json_object_set_int_member (attrs, "WEIGHTS_0",
                              add_accessor (&g, w, sizeof w, 5126, N_NEW, "VEC4"));
  json_object_set_object_member (prim, "attributes", attrs);
  json_object_set_int_member (prim, "indices",
                              add_accessor (&g, index, sizeof index, 5123, 6, "SCALAR"));
  json_object_set_int_member (prim, "material", json_object_get_int_member (old, "material"));
  json_object_set_int_member (prim, "mode", 4);
  json_array_add_object_element (mesh0_primitives (&g), prim);
  gltf_save (&g, json, "grow-add.gltf");

  run_cli (&run, "import", "grow-add.gltf", "--into", "grow.dfm", "-o", "grow-add.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "grow-add.dfm: 2 elements and 1 points added, "
                                     "0 elements and 0 points removed"));
  assert_validates_clean ("grow-add.dfm");
  assert_only_mesh0_differs ("grow.dfm", "grow-add.dfm");
  b = open_dfm ("grow-add.dfm");
  g_assert_true (mshed_dfm_get_level (b, 0, &ib));
  g_assert_cmpuint (ib.n_elements, ==, ia.n_elements + 2);
  g_assert_cmpuint (ib.n_points, ==, ia.n_points + 1);
  g_assert_cmpuint (ib.n_uv0, ==, ia.n_uv0 + 2);
  g_assert_cmpuint (ib.n_chain, ==, ia.n_chain + 2);
  /* N1 and N2: elements E and E + 1 of the one new point, their UVs appended in order */
  g_assert_true (mshed_dfm_get_element (b, 0, ia.n_elements, &e0));
  g_assert_true (mshed_dfm_get_element (b, 0, ia.n_elements + 1, &e1));
  g_assert_cmpuint (e0.point, ==, ia.n_points);
  g_assert_cmpuint (e1.point, ==, ia.n_points);
  g_assert_cmpuint (e0.uv0_index, ==, ia.n_uv0);
  g_assert_cmpuint (e1.uv0_index, ==, ia.n_uv0 + 1);
  g_assert_cmpfloat (e0.uv0[0], ==, 0.375f);
  g_assert_cmpfloat (e0.uv0[1], ==, 0.625f);
  g_assert_cmpfloat (e1.uv0[0], ==, 0.875f);
  g_assert_cmpfloat (e1.uv0[1], ==, 0.125f);
  g_assert_true (mshed_dfm_get_point (b, 0, ia.n_points, position, normal));
  g_assert_cmpmem (position, 12, place, 12);
  g_assert_cmpfloat_with_epsilon (normal[0], 0.0, 1e-7);
  g_assert_cmpfloat_with_epsilon (normal[1], sqrt (0.5), 1e-7);
  g_assert_cmpfloat_with_epsilon (normal[2], sqrt (0.5), 1e-7);
  inf = point_influences (b, ia.n_points);
  {
    static const guint32 expected[4] = { 1, 0x3F400000, 2, 0x3E800000 };  /* 0.75f, 0.25f */

    g_assert_cmpmem (inf->data, inf->len * 4, expected, sizeof expected);
  }
  /* the stored data is kept as it was: every element and point before the new ones */
  for (guint e = 0; e < ia.n_elements; e++)
    {
      MshedDfmElement x, y;

      g_assert_true (mshed_dfm_get_element (a, 0, e, &x));
      g_assert_true (mshed_dfm_get_element (b, 0, e, &y));
      g_assert_cmpmem (&x, sizeof x, &y, sizeof y);
    }
  /* the triangles: the stored ones and the two new */
  before = level_triangles (a);
  after = level_triangles (b);
  {
    guint16 t1[3] = { first[0], first[1], (guint16) ia.n_elements };
    guint16 t2[3] = { first[1], first[2], (guint16) (ia.n_elements + 1) };
    guint16 r[3];

    rotate_tri (t1, r);
    g_array_append_vals (before, r, 1);
    rotate_tri (t2, r);
    g_array_append_vals (before, r, 1);
    g_array_sort (before, compare_tri);
  }
  g_assert_cmpmem (after->data, after->len * 6, before->data, before->len * 6);
}

/* Deleted in the JSON ---------------------------------------------------------------------- */

/* An element whose point no other element uses is taken out of the .gltf: its triangles are
 * cut from every index buffer and its vertex's id made 0.5 (no element, drawn by nothing).
 * Expected: that element and its point gone, every later index one less, the point's
 * influences cut from the pools, the UV0 coordinates kept. */
static void
test_delete_json (void)
{
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(MshedDfm) a = NULL, b = NULL;
  g_autoptr(GArray) before = NULL, after = NULL, expected = NULL;
  g_autofree guint *users = NULL;
  g_auto(Run) run = { 0 };
  MshedDfmLevel ia, ib;
  MshedDfmElement ex;
  guint x, count, n_ids;
  guint32 slice_first, slice_count;
  float *ids;
  JsonArray *prims;
  Gltf g;

  a = open_dfm ("grow.dfm");
  g_assert_true (mshed_dfm_get_level (a, 0, &ia));
  before = level_triangles (a);
  users = g_new0 (guint, ia.n_points);
  for (guint e = 0; e < ia.n_elements; e++)
    {
      MshedDfmElement el;

      g_assert_true (mshed_dfm_get_element (a, 0, e, &el));
      users[el.point]++;
    }
  /* the first drawn element, past the first ten, whose point is its own */
  for (x = 10; x < ia.n_elements; x++)
    {
      gboolean drawn = FALSE;

      g_assert_true (mshed_dfm_get_element (a, 0, x, &ex));
      for (guint t = 0; t < 3 * before->len; t++)
        drawn = drawn || g_array_index (before, guint16, t) == x;
      if (drawn && users[ex.point] == 1)
        break;
    }
  g_assert_cmpuint (x, <, ia.n_elements);
  g_assert_true (mshed_dfm_get_skin_range (a, 0, ex.point, &slice_first, &slice_count));

  json = read_json ("grow.gltf");
  gltf_open (&g, json);
  prims = mesh0_primitives (&g);
  for (guint p = 0; p < json_array_get_length (prims); p++)
    {
      JsonObject *prim = json_array_get_object_element (prims, p);
      guint a_index = (guint) json_object_get_int_member (prim, "indices");
      guint16 *index = (guint16 *) accessor_data (&g, a_index, &count);
      guint kept = 0;

      for (guint t = 0; t + 2 < count; t += 3)
        if (index[t] != x && index[t + 1] != x && index[t + 2] != x)
          {
            memmove (&index[kept], &index[t], 6);
            kept += 3;
          }
      json_object_set_int_member (json_array_get_object_element (
        json_object_get_array_member (g.root, "accessors"), a_index), "count", kept);
    }
  ids = (float *) accessor_data (&g, (guint) json_object_get_int_member (
    json_object_get_object_member (json_array_get_object_element (prims, 0), "attributes"),
    "TEXCOORD_1"), &n_ids);
  g_assert_cmpfloat (ids[2 * x], ==, (float) x);
  ids[2 * x] = 0.5f;
  gltf_save (&g, json, "grow-delete.gltf");

  run_cli (&run, "import", "grow-delete.gltf", "--into", "grow.dfm", "-o", "grow-delete.dfm",
           NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "grow-delete.dfm: 0 elements and 0 points added, "
                                     "1 elements and 1 points removed"));
  assert_validates_clean ("grow-delete.dfm");
  assert_only_mesh0_differs ("grow.dfm", "grow-delete.dfm");
  b = open_dfm ("grow-delete.dfm");
  g_assert_true (mshed_dfm_get_level (b, 0, &ib));
  g_assert_cmpuint (ib.n_elements, ==, ia.n_elements - 1);
  g_assert_cmpuint (ib.n_points, ==, ia.n_points - 1);
  g_assert_cmpuint (ib.n_uv0, ==, ia.n_uv0);
  g_assert_cmpuint (ib.n_chain, ==, ia.n_chain - slice_count);
  /* every other element as it was, its point renumbered */
  for (guint e = 0; e < ib.n_elements; e++)
    {
      MshedDfmElement y, z;
      g_autoptr(GArray) iy = NULL, iz = NULL;

      g_assert_true (mshed_dfm_get_element (a, 0, e < x ? e : e + 1, &y));
      g_assert_true (mshed_dfm_get_element (b, 0, e, &z));
      g_assert_cmpuint (z.point, ==, y.point < ex.point ? y.point : y.point - 1);
      g_assert_cmpuint (z.uv0_index, ==, y.uv0_index);
      g_assert_cmpmem (z.position, 12, y.position, 12);
      g_assert_cmpmem (z.uv0, 8, y.uv0, 8);
      iy = point_influences (a, y.point);
      iz = point_influences (b, z.point);
      g_assert_cmpmem (iy->data, iy->len * 4, iz->data, iz->len * 4);
    }
  /* the triangles without those of x, later elements one less */
  expected = g_array_new (FALSE, FALSE, 6);
  for (guint t = 0; t < before->len; t++)
    {
      guint16 *e = &g_array_index (before, guint16, 3 * t), r[3];

      if (e[0] == x || e[1] == x || e[2] == x)
        continue;
      for (guint c = 0; c < 3; c++)
        r[c] = e[c] > x ? e[c] - 1 : e[c];
      g_array_append_vals (expected, r, 1);
    }
  g_array_sort (expected, compare_tri);
  after = level_triangles (b);
  g_assert_cmpuint (after->len, <, before->len);
  g_assert_cmpmem (after->data, after->len * 6, expected->data, expected->len * 6);
}

/* Refused ------------------------------------------------------------------------------------ */

/* Writes grow.gltf with one more Mesh0 primitive of @n new vertices (ids 0.5, positions along
 * x, bone 1 with weight @weight) drawn as a fan from the first, and imports it: the run. */
static void
import_fan (Run        *run,
            guint       n,
            float       weight,
            const char *name)
{
  g_autoptr(JsonNode) json = read_json ("grow.gltf");
  g_autofree float *pos = g_new0 (float, 3 * (gsize) n);
  g_autofree float *ids = g_new0 (float, 2 * (gsize) n);
  g_autofree float *w = g_new0 (float, 4 * (gsize) n);
  g_autofree guint16 *joints = g_new0 (guint16, 4 * (gsize) n);
  g_autofree guint16 *index = g_new (guint16, 3 * (gsize) n);
  g_autofree char *gltf = g_strdup_printf ("%s.gltf", name);
  g_autofree char *dfm = g_strdup_printf ("%s.dfm", name);
  JsonObject *prim = json_object_new (), *attrs = json_object_new ();
  guint n_index = 0;
  Gltf g;

  for (guint v = 0; v < n; v++)
    {
      pos[3 * v] = (float) v;
      pos[3 * v + 1] = v % 2 ? 1.0f : 0.0f;
      ids[2 * v] = 0.5f;
      joints[4 * v] = 1;
      w[4 * v] = weight;
    }
  for (guint v = 1; v + 1 < n; v++)
    {
      index[n_index++] = 0;
      index[n_index++] = (guint16) v;
      index[n_index++] = (guint16) (v + 1);
    }
  gltf_open (&g, json);
  json_object_set_int_member (attrs, "POSITION",
                              add_accessor (&g, pos, 12 * (gsize) n, 5126, n, "VEC3"));
  json_object_set_int_member (attrs, "TEXCOORD_1",
                              add_accessor (&g, ids, 8 * (gsize) n, 5126, n, "VEC2"));
  json_object_set_int_member (attrs, "JOINTS_0",
                              add_accessor (&g, joints, 8 * (gsize) n, 5123, n, "VEC4"));
  json_object_set_int_member (attrs, "WEIGHTS_0",
                              add_accessor (&g, w, 16 * (gsize) n, 5126, n, "VEC4"));
  json_object_set_object_member (prim, "attributes", attrs);
  json_object_set_int_member (prim, "indices", add_accessor (&g, index, 2 * (gsize) n_index,
                                                             5123, n_index, "SCALAR"));
  json_object_set_int_member (prim, "material", json_object_get_int_member (
    json_array_get_object_element (mesh0_primitives (&g), 0), "material"));
  json_array_add_object_element (mesh0_primitives (&g), prim);
  gltf_save (&g, json, gltf);
  run_cli (run, "import", gltf, "--into", "grow.dfm", "-o", dfm, NULL);
  g_assert_false (tmp_file_exists (dfm));
}

/* New vertices past element 65,535 (faces name elements in 16 bits) and a new vertex without
 * a weight are refused, naming the vertex. */
static void
test_refused (void)
{
  g_autoptr(MshedDfm) a = open_dfm ("grow.dfm");
  g_autofree char *expected = NULL;
  MshedDfmLevel info;
  g_auto(Run) run = { 0 };

  g_assert_true (mshed_dfm_get_level (a, 0, &info));
  import_fan (&run, 65536 - info.n_elements + 1, 1.0f, "grow-many");
  g_assert_cmpint (run.status, !=, 0);
  expected = g_strdup_printf ("grow-many.gltf: meshes[0].primitives[%u] (“Mesh0”): vertex %u "
                              "would be element 65536 of Mesh0, past the 65,535 a face group "
                              "can name", info.n_groups, 65536 - info.n_elements);
  g_assert_nonnull (strstr (run.err, expected));
  run_clear (&run);
  import_fan (&run, 3, 0.0f, "grow-weightless");
  g_assert_cmpint (run.status, !=, 0);
  g_free (expected);
  expected = g_strdup_printf ("grow-weightless.gltf: meshes[0].primitives[%u] (“Mesh0”): vertex "
                              "0, new in Mesh0, has no weight above 0", info.n_groups);
  g_assert_nonnull (strstr (run.err, expected));
}

/* Blender ---------------------------------------------------------------------------------- */

/* Per element of Mesh0: how many elements share its point. */
static guint *
point_users (MshedDfm            *dfm,
             const MshedDfmLevel *info)
{
  g_autofree guint *per_point = g_new0 (guint, info->n_points);
  guint *out = g_new0 (guint, info->n_elements);
  MshedDfmElement el;

  for (guint e = 0; e < info->n_elements; e++)
    {
      g_assert_true (mshed_dfm_get_element (dfm, 0, e, &el));
      per_point[el.point]++;
    }
  for (guint e = 0; e < info->n_elements; e++)
    {
      g_assert_true (mshed_dfm_get_element (dfm, 0, e, &el));
      out[e] = per_point[el.point];
    }
  return out;
}

static gboolean
tri_has (const guint16 *t,
         guint          e)
{
  return t[0] == e || t[1] == e || t[2] == e;
}

/* Blender subdivides one face (cuts its three edges: three new vertices) and deletes one
 * vertex elsewhere (with its faces). Both chosen without UV seams, so that the expected counts
 * follow from the stored model alone: 3 elements and 3 points more; the deleted element, and
 * every element whose triangles all had it (Blender drops such loose vertices), fewer, with
 * their points. */
static void
test_blender (void)
{
  g_autoptr(MshedDfm) a = NULL, b = NULL;
  g_autoptr(GArray) tris = NULL;
  g_autofree guint *shared = NULL;
  g_autofree char *face = NULL, *gone = NULL;
  g_autoptr(GBytes) original = NULL, undone = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(MshedGltf) gltf = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dfm_path = path_in_tmp ("grow.dfm"), *glb_path = NULL;
  MshedGltfDfmImportStats stats = { 0 };
  const char *edits[] = { "--subdivide-face", "level 0", NULL, "--delete-vertex", "level 0",
                          NULL, NULL };
  MshedDfmLevel ia, ib;
  guint f, d = 0, removed = 1;

  a = open_dfm ("grow.dfm");
  g_assert_true (mshed_dfm_get_level (a, 0, &ia));
  tris = level_triangles (a);
  shared = point_users (a, &ia);
  /* a face whose corners are no seam, and whose neighbours across its edges are no seam */
  for (f = 0; f < tris->len; f++)
    {
      const guint16 *t = &g_array_index (tris, guint16, 3 * f);
      gboolean ok = shared[t[0]] == 1 && shared[t[1]] == 1 && shared[t[2]] == 1;

      for (guint o = 0; ok && o < tris->len; o++)
        {
          const guint16 *u = &g_array_index (tris, guint16, 3 * o);
          guint common = tri_has (u, t[0]) + tri_has (u, t[1]) + tri_has (u, t[2]);

          ok = common < 2 || (shared[u[0]] == 1 && shared[u[1]] == 1 && shared[u[2]] == 1);
        }
      if (ok)
        break;
    }
  g_assert_cmpuint (f, <, tris->len);
  {
    const guint16 *t = &g_array_index (tris, guint16, 3 * f);

    face = g_strdup_printf ("%u,%u,%u", t[0], t[1], t[2]);
    /* a drawn element without a seam, sharing no triangle with the face's corners' triangles,
     * whose neighbours all have a triangle without it */
    for (d = 0; d < ia.n_elements; d++)
      {
        gboolean ok = shared[d] == 1, drawn = FALSE;

        for (guint o = 0; ok && o < tris->len; o++)
          {
            const guint16 *u = &g_array_index (tris, guint16, 3 * o);

            if (!tri_has (u, d))
              continue;
            drawn = TRUE;
            for (guint c = 0; c < 3 && ok; c++)
              {
                gboolean elsewhere = FALSE;

                ok = !tri_has (t, u[c]) && shared[u[c]] == 1;
                for (guint q = 0; ok && q < tris->len; q++)
                  {
                    const guint16 *v = &g_array_index (tris, guint16, 3 * q);

                    elsewhere = elsewhere || (tri_has (v, u[c]) && !tri_has (v, d));
                    ok = !(tri_has (v, u[c]) && (tri_has (v, t[0]) || tri_has (v, t[1]) ||
                                                 tri_has (v, t[2])));
                  }
                ok = ok && (u[c] == d || elsewhere);
              }
          }
        if (ok && drawn)
          break;
      }
    g_assert_cmpuint (d, <, ia.n_elements);
  }
  gone = g_strdup_printf ("%u", d);
  edits[2] = face;
  edits[5] = gone;
  run_cli_ok ("export", "-q", "grow.dfm", "-o", "grow.glb", NULL);
  if (!run_blender_roundtrip ("grow.glb", "grow-blender.glb", edits))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  run_cli_ok ("import", "-q", "grow-blender.glb", "--into", "grow.dfm", "-o",
              "grow-blender.dfm", NULL);
  assert_validates_clean ("grow-blender.dfm");
  assert_only_mesh0_differs ("grow.dfm", "grow-blender.dfm");
  b = open_dfm ("grow-blender.dfm");
  g_assert_true (mshed_dfm_get_level (b, 0, &ib));
  g_assert_cmpuint (ib.n_elements, ==, ia.n_elements + 3 - removed);
  g_assert_cmpuint (ib.n_points, ==, ia.n_points + 3 - removed);

  /* the same through the document: one undo step, and undo gives the original bytes */
  glb_path = path_in_tmp ("grow-blender.glb");
  doc = mshed_document_open (dfm_path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  gltf = mshed_gltf_read_file_skinned (glb_path, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_gltf_dfm_import_into (doc, gltf, NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.added_elements, ==, 3);
  g_assert_cmpuint (stats.added_points, ==, 3);
  g_assert_cmpuint (stats.removed_elements, ==, removed);
  g_assert_cmpuint (stats.removed_points, ==, removed);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Import glTF");
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_can_undo (doc));
  original = read_file ("grow.dfm");
  undone = mshed_utf_serialize (mshed_document_get_utf (doc), MSHED_UTF_WRITE_PRESERVE, NULL,
                                &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (original, undone));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 1;
  run_set_timeout (120);
  /* later tests read what /gltf-dfm-grow/add-json wrote: keep this order */
  g_test_add_func ("/gltf-dfm-grow/add-json", test_add_json);
  g_test_add_func ("/gltf-dfm-grow/delete-json", test_delete_json);
  g_test_add_func ("/gltf-dfm-grow/refused", test_refused);
  g_test_add_func ("/gltf-dfm-grow/blender", test_blender);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
