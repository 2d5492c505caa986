/* test-cli-import.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli import --into: an unchanged export of every generated shape comes back byte for
 * byte (.glb, .gltf, a .gltf with a side .bin, and after a trip through Blender); edits made
 * to the glTF (by hand here, by script in Blender) come back as exactly those edits plus the
 * recompute of the slot boxes and spheres and the header; hostile or foreign glTF is refused
 * with a message naming the glTF object, and nothing is written. The undo step is checked on
 * the document API.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "mshed-document.h"
#include "mshed-bytes.h"
#include "mshed-gltf-import.h"
#include "mshed-model.h"
#include "mshed-schema.h"
#include "test-cli-util.h"
#include "test-require.h"

typedef struct {
  const char *name;
  const char *args;   /* mshed-cli generate options */
} Shape;

/* the shapes of test-cli-export, by their generator options */
static const Shape shapes[] = {
  { "small", "-s 11 -t 12 -n 1" },
  { "animated", "-s 3 -t 1000 -a --cyrillic" },
  { "legacy", "-s 5 -t 300 -n 4 --legacy" },
  { "lods", "-s 7 -t 2000 -n 24 --res18" },
  { "names", "-s 9 -t 600 -n 20 -a --cyrillic --empty-names" },
  { "opaque", "-s 13 -t 500 --res17 --res18" },
};

static void
generate (const Shape *shape)
{
  g_autofree char *out = g_strdup_printf ("%s.msh", shape->name);

  run_cli_generate (shape->args, out);
}

static MshedModel *
open_model (const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);
  g_autoptr(GError) error = NULL;
  MshedModel *model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  return model;
}

/* The .gltf as JSON and its one buffer -------------------------------------------------- */

typedef struct {
  JsonNode   *json;
  GByteArray *bin;
} Gltf;

static void
gltf_clear (Gltf *g)
{
  g_clear_pointer (&g->json, json_node_unref);
  g_clear_pointer (&g->bin, g_byte_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Gltf, gltf_clear)

static JsonObject *
root_of (Gltf *g)
{
  return json_node_get_object (g->json);
}

static JsonObject *
element (Gltf       *g,
         const char *array,
         guint       i)
{
  return json_array_get_object_element (json_object_get_array_member (root_of (g), array), i);
}

static void
gltf_load (Gltf       *g,
           const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  const char *uri;
  guchar *data;
  gsize len;

  g->json = parse_json (text);
  uri = json_object_get_string_member (element (g, "buffers", 0), "uri");
  data = g_base64_decode (strchr (uri, ',') + 1, &len);
  g->bin = g_byte_array_new_take (data, len);
}

static void
gltf_save (Gltf       *g,
           const char *name)
{
  g_autofree char *base64 = g_base64_encode (g->bin->data, g->bin->len);
  g_autofree char *uri = g_strconcat ("data:application/octet-stream;base64,", base64, NULL);
  g_autofree char *text = NULL;

  if (g_str_has_prefix (json_object_get_string_member (element (g, "buffers", 0), "uri"),
                        "data:"))
    json_object_set_string_member (element (g, "buffers", 0), "uri", uri);
  text = json_to_string (g->json, FALSE);
  g_assert_true (write_text (name, text));
}

/* Float @k of element @i of accessor @a, in the buffer. */
static float *
accessor_float (Gltf  *g,
                guint  a,
                guint  i,
                guint  k)
{
  JsonObject *acc = element (g, "accessors", a);
  JsonObject *view = element (g, "bufferViews", json_object_get_int_member (acc, "bufferView"));
  guint comps = g_str_equal (json_object_get_string_member (acc, "type"), "VEC3") ? 3 : 2;
  gsize offset = json_object_get_int_member_with_default (view, "byteOffset", 0);

  if (g_str_equal (json_object_get_string_member (acc, "type"), "VEC4"))
    comps = 4;
  if (g_str_equal (json_object_get_string_member (acc, "type"), "SCALAR"))
    comps = 1;
  return (float *) (g->bin->data + offset) + (gsize) i * comps + k;
}

static guint
accessor_count (Gltf  *g,
                guint  a)
{
  return json_object_get_int_member (element (g, "accessors", a), "count");
}

static guint
attribute (Gltf       *g,
           guint       mesh,
           const char *name)
{
  JsonObject *prim = json_array_get_object_element (
    json_object_get_array_member (element (g, "meshes", mesh), "primitives"), 0);

  return json_object_get_int_member (json_object_get_object_member (prim, "attributes"), name);
}

/* The glTF node whose extras name MSH node @node (not an other-cell node). */
static guint
gltf_node (Gltf  *g,
           guint  node)
{
  JsonArray *nodes = json_object_get_array_member (root_of (g), "nodes");

  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *x = json_object_get_object_member (
        json_object_get_object_member (json_array_get_object_element (nodes, i), "extras"),
        "mshed");

      if (!json_object_has_member (x, "lod") && json_object_has_member (x, "node") &&
          json_object_get_int_member (x, "node") == node)
        return i;
    }
  g_assert_not_reached ();
}

/* Comparing models ------------------------------------------------------------------------ */

static gint
memcmp_12 (gconstpointer a,
           gconstpointer b)
{
  return memcmp (a, b, 12);
}

/* The rows of @table whose bytes differ between @a and @b (same row counts). */
static GArray *
changed_rows (MshedModel   *a,
              MshedModel   *b,
              MshedTableId  table)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n = mshed_model_get_n_rows (a, table);
  guint stride = table == MSHED_TABLE_NODES ? mshed_model_get_node_stride (a)
                                            : mshed_schema_get_table (table)->stride;

  g_assert_cmpuint (mshed_model_get_n_rows (b, table), ==, n);
  for (guint r = 0; r < n; r++)
    if (memcmp (mshed_model_get_record (a, table, r), mshed_model_get_record (b, table, r),
                stride) != 0)
      g_array_append_val (rows, r);
  return rows;
}

static void
assert_unchanged (MshedModel   *a,
                  MshedModel   *b,
                  MshedTableId  table)
{
  g_autoptr(GArray) rows = changed_rows (a, b, table);

  g_test_message ("table %d: %u rows changed", table, rows->len);
  g_assert_cmpuint (rows->len, ==, 0);
}

/* Every name equal but node @renamed's, which is @name. */
static void
assert_names (MshedModel *a,
              MshedModel *b,
              guint       renamed,
              const char *name)
{
  for (guint i = 0; i < mshed_model_get_n_rows (a, MSHED_TABLE_NODES); i++)
    {
      g_autofree char *before = expected_node_name (a, i);
      g_autofree char *after = expected_node_name (b, i);

      g_assert_cmpstr (after, ==, i == renamed ? name : before);
    }
}

/* Rows moved by +@dx on x (exactly the float sum), all others and y, z untouched; the slot's
 * box is the box of its vertices (docs/msh.md: the format determines it). */
static void
assert_moved (MshedModel *a,
              MshedModel *b,
              GArray     *moved,
              float       dx,
              guint       slot)
{
  g_autoptr(GArray) rows = changed_rows (a, b, MSHED_TABLE_POSITIONS);
  g_autoptr(GArray) slots = changed_rows (a, b, MSHED_TABLE_SLOTS);
  MshedSlot before, after;

  g_assert_cmpuint (rows->len, ==, moved->len);
  for (guint i = 0; i < moved->len; i++)
    {
      guint r = g_array_index (moved, guint, i);
      float p[3], q[3];

      g_assert_true (mshed_model_get_position (a, r, p));
      g_assert_true (mshed_model_get_position (b, r, q));
      g_assert_cmpfloat (q[0], ==, p[0] + dx);
      g_assert_cmpfloat (q[1], ==, p[1]);
      g_assert_cmpfloat (q[2], ==, p[2]);
    }
  g_assert_cmpuint (slots->len, ==, 1);
  g_assert_cmpuint (g_array_index (slots, guint, 0), ==, slot);
  g_assert_true (mshed_model_get_slot (a, slot, &before));
  g_assert_true (mshed_model_get_slot (b, slot, &after));
  g_assert_cmpfloat (after.aabb_min[0], ==, before.aabb_min[0] + dx);
  g_assert_cmpfloat (after.aabb_max[0], ==, before.aabb_max[0] + dx);
  g_assert_cmpfloat (after.aabb_min[1], ==, before.aabb_min[1]);
  g_assert_cmpfloat (after.aabb_max[2], ==, before.aabb_max[2]);
}

/* The Res3 rows of glTF mesh @mesh (its TEXCOORD_1), sorted and unique. */
static GArray *
mesh_rows (Gltf  *g,
           guint  mesh)
{
  guint ids = attribute (g, mesh, "TEXCOORD_1");
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < accessor_count (g, ids); i++)
    {
      guint r = (guint) *accessor_float (g, ids, i, 0);

      g_array_append_val (rows, r);
    }
  return rows;
}

/* Unchanged exports ------------------------------------------------------------------------ */

static void
test_import_unchanged (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      const char *formats[] = { "glb", "gltf" };

      generate (&shapes[s]);
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          g_autofree char *msh = g_strdup_printf ("%s.msh", shapes[s].name);
          g_autofree char *gltf = g_strdup_printf ("%s.%s", shapes[s].name, formats[f]);
          g_autofree char *back = g_strdup_printf ("%s-back-%s.msh", shapes[s].name,
                                                   formats[f]);
          g_auto(Run) run = { 0 };

          run_cli_ok ("export", "-q", msh, "-o", gltf, NULL);
          run_cli (&run, "import", gltf, "--into", msh, "-o", back, NULL);
          g_assert_cmpint (run.status, ==, 0);
          g_assert_nonnull (strstr (run.out, "unchanged"));
          assert_same_files (msh, back);
        }
    }
}

/* A .gltf whose buffer is a side file beside it. */
static void
test_import_side_bin (void)
{
  g_auto(Gltf) g = { 0 };
  g_autoptr(GBytes) bin = NULL;

  generate (&shapes[1]);
  run_cli_ok ("export", "-q", "animated.msh", "-o", "side.gltf", NULL);
  gltf_load (&g, "side.gltf");
  bin = g_bytes_new (g.bin->data, g.bin->len);
  write_file ("side data.bin", bin);
  json_object_set_string_member (element (&g, "buffers", 0), "uri", "side%20data.bin");
  {
    g_autofree char *text = json_to_string (g.json, FALSE);

    g_assert_true (write_text ("side.gltf", text));
  }
  run_cli_ok ("import", "-q", "side.gltf", "--into", "animated.msh", "-o", "side.msh", NULL);
  assert_same_files ("animated.msh", "side.msh");
}

/* Edits made to the glTF -------------------------------------------------------------------- */

/* names: node 5 ("hatch") renamed, moved under node 0, and node 2's mesh moved by +0.25 on
 * x: exactly those records change, plus the slot box and sphere of node 2's slot. */
static void
test_import_edits (void)
{
  g_auto(Gltf) g = { 0 };
  g_autoptr(MshedModel) a = NULL;
  g_autoptr(MshedModel) b = NULL;
  g_autoptr(GArray) moved = NULL;
  g_autoptr(GArray) nodes = NULL;
  JsonObject *n2, *n0, *n5;
  guint mesh, pos;
  MshedNode rec;
  JsonArray *roots;

  generate (&shapes[4]);
  run_cli_ok ("export", "-q", "names.msh", "-o", "names.gltf", NULL);
  a = open_model ("names.msh");
  gltf_load (&g, "names.gltf");
  n2 = element (&g, "nodes", gltf_node (&g, 2));
  n0 = element (&g, "nodes", gltf_node (&g, 0));
  n5 = element (&g, "nodes", gltf_node (&g, 5));
  g_assert_cmpstr (json_object_get_string_member (n5, "name"), ==, "hatch");
  json_object_set_string_member (n5, "name", "люк");
  /* node 5 is a root: out of the scene's roots, into node 0's children */
  g_assert_true (mshed_model_get_node (a, 5, &rec));
  g_assert_cmpuint (rec.hdr1, ==, 0xFFFF);
  roots = json_object_get_array_member (element (&g, "scenes", 0), "nodes");
  for (guint i = 0; i < json_array_get_length (roots); i++)
    if (json_array_get_int_element (roots, i) == gltf_node (&g, 5))
      json_array_remove_element (roots, i);
  if (!json_object_has_member (n0, "children"))
    json_object_set_array_member (n0, "children", json_array_new ());
  json_array_add_int_element (json_object_get_array_member (n0, "children"), gltf_node (&g, 5));
  mesh = json_object_get_int_member (n2, "mesh");
  pos = attribute (&g, mesh, "POSITION");
  for (guint i = 0; i < accessor_count (&g, pos); i++)
    *accessor_float (&g, pos, i, 0) += 0.25f;
  moved = mesh_rows (&g, mesh);
  gltf_save (&g, "names-edit.gltf");

  run_cli_ok ("import", "-q", "names-edit.gltf", "--into", "names.msh", "-o", "names-edit.msh",
              NULL);
  b = open_model ("names-edit.msh");
  assert_names (a, b, 5, "люк");
  nodes = changed_rows (a, b, MSHED_TABLE_NODES);
  g_assert_cmpuint (nodes->len, ==, 1);
  g_assert_true (mshed_model_get_node (b, 5, &rec));
  g_assert_cmpuint (rec.hdr1, ==, 0);
  g_assert_true (mshed_model_get_node (a, 2, &rec));
  assert_moved (a, b, moved, 0.25f, rec.slot[0]);
  assert_unchanged (a, b, MSHED_TABLE_NORMALS);
  assert_unchanged (a, b, MSHED_TABLE_UVS);
  assert_unchanged (a, b, MSHED_TABLE_INDICES);
  assert_unchanged (a, b, MSHED_TABLE_BATCHES);
  assert_unchanged (a, b, MSHED_TABLE_KEYS);
  assert_unchanged (a, b, MSHED_TABLE_TRIS);  /* a translation keeps every face normal */
  assert_unchanged (a, b, MSHED_TABLE_MAP);
  assert_validates_clean ("names-edit.msh");
}

/* animated: the translation of the first key of an exported track raised by 1 on y: that
 * Res8 row changes, nothing else of the keys or the frame map. */
static void
test_import_animation (void)
{
  g_auto(Gltf) g = { 0 };
  g_autoptr(MshedModel) a = NULL;
  g_autoptr(MshedModel) b = NULL;
  g_autoptr(GArray) keys = NULL;
  JsonObject *anim, *channel, *sampler;
  guint node, output, first_key = 0;
  MshedKey before, after;

  generate (&shapes[1]);
  run_cli_ok ("export", "-q", "animated.msh", "-o", "animated.gltf", NULL);
  a = open_model ("animated.msh");
  gltf_load (&g, "animated.gltf");
  anim = element (&g, "animations", 0);
  channel = json_array_get_object_element (json_object_get_array_member (anim, "channels"), 0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (channel,
                                                                                 "target"),
                                                  "path"), ==, "translation");
  node = json_object_get_int_member (json_object_get_object_member (channel, "target"), "node");
  sampler = json_array_get_object_element (json_object_get_array_member (anim, "samplers"),
                                           json_object_get_int_member (channel, "sampler"));
  output = json_object_get_int_member (sampler, "output");
  *accessor_float (&g, output, 0, 1) += 1.0f;
  gltf_save (&g, "animated-edit.gltf");
  /* the track's first key: the previous node's fallback key + 1 (docs/msh.md §7.7) */
  if (node > 0)
    {
      MshedNode prev;

      g_assert_true (mshed_model_get_node (a, node - 1, &prev));
      first_key = prev.hdr3 + 1u;
    }

  run_cli_ok ("import", "-q", "animated-edit.gltf", "--into", "animated.msh", "-o",
              "animated-edit.msh", NULL);
  b = open_model ("animated-edit.msh");
  keys = changed_rows (a, b, MSHED_TABLE_KEYS);
  g_assert_cmpuint (keys->len, ==, 1);
  g_assert_cmpuint (g_array_index (keys, guint, 0), ==, first_key);
  g_assert_true (mshed_model_get_key (a, first_key, &before));
  g_assert_true (mshed_model_get_key (b, first_key, &after));
  g_assert_cmpfloat (after.pos[1], ==, before.pos[1] + 1.0f);
  g_assert_cmpfloat (after.pos[0], ==, before.pos[0]);
  g_assert_cmpfloat (after.time, ==, before.time);
  assert_unchanged (a, b, MSHED_TABLE_MAP);
  assert_unchanged (a, b, MSHED_TABLE_POSITIONS);
  assert_unchanged (a, b, MSHED_TABLE_NODES);
  assert_validates_clean ("animated-edit.msh");
}

/* The import is one undo step of the document; undo gives the original bytes back. */
static void
test_import_undo (void)
{
  g_autoptr(MshedModel) model = open_model ("names.msh");
  g_autoptr(MshedDocument) doc = mshed_document_new_for_model (model, MSHED_MODE_STRICT);
  g_autofree char *path = path_in_tmp ("names-edit.gltf");
  g_autoptr(MshedGltf) gltf = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) original = read_file ("names.msh");
  g_autoptr(GBytes) edited = read_file ("names-edit.msh");
  g_autoptr(GBytes) after = NULL;
  MshedGltfImportStats stats;

  gltf = mshed_gltf_read_file (path, &error);
  g_assert_no_error (error);
  g_assert_false (mshed_document_can_undo (doc));
  g_assert_true (mshed_gltf_import_into (doc, gltf, NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.renamed, ==, 1);
  g_assert_cmpuint (stats.reparented, ==, 1);
  g_assert_cmpuint (stats.still_stale, ==, 0);
  after = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (after, edited));
  assert_import_undo_redo (doc, original);
}

/* Topology changes (docs/gltf.md §6.2) ------------------------------------------------------- */

/* Slot @s of @b draws what slot @s of @a draws: the same record but for its range starts, the
 * same batches but for theirs, the same vertices through the same indices, the same
 * descriptors but for their links. */
static void
assert_same_slot (MshedModel *a,
                  MshedModel *b,
                  guint       s)
{
  const guint8 *ra = mshed_model_get_record (a, MSHED_TABLE_SLOTS, s);
  const guint8 *rb = mshed_model_get_record (b, MSHED_TABLE_SLOTS, s);
  MshedSlot sa, sb;

  g_test_message ("slot %u", s);
  g_assert_cmpmem (ra + 2, 2, rb + 2, 2);
  g_assert_cmpmem (ra + 6, 62, rb + 6, 62);
  g_assert_true (mshed_model_get_slot (a, s, &sa));
  g_assert_true (mshed_model_get_slot (b, s, &sb));
  for (guint i = 0; i < sa.batch_count; i++)
    {
      MshedBatch ba, bb;
      const guint8 *x = mshed_model_get_record (a, MSHED_TABLE_BATCHES, sa.batch_start + i);
      const guint8 *y = mshed_model_get_record (b, MSHED_TABLE_BATCHES, sb.batch_start + i);

      g_assert_cmpmem (x, 10, y, 10);
      g_assert_cmpmem (x + 14, 2, y + 14, 2);
      g_assert_true (mshed_model_get_batch (a, sa.batch_start + i, &ba));
      g_assert_true (mshed_model_get_batch (b, sb.batch_start + i, &bb));
      for (guint k = 0; k < ba.index_count; k++)
        {
          guint va = ba.base_vertex + mshed_read_u16 (
            mshed_model_get_record (a, MSHED_TABLE_INDICES, ba.index_start + k));
          guint vb = bb.base_vertex + mshed_read_u16 (
            mshed_model_get_record (b, MSHED_TABLE_INDICES, bb.index_start + k));

          g_assert_cmpmem (mshed_model_get_record (a, MSHED_TABLE_POSITIONS, va), 12,
                           mshed_model_get_record (b, MSHED_TABLE_POSITIONS, vb), 12);
          g_assert_cmpmem (mshed_model_get_record (a, MSHED_TABLE_NORMALS, va), 4,
                           mshed_model_get_record (b, MSHED_TABLE_NORMALS, vb), 4);
          g_assert_cmpmem (mshed_model_get_record (a, MSHED_TABLE_UVS, va), 4,
                           mshed_model_get_record (b, MSHED_TABLE_UVS, vb), 4);
        }
    }
  for (guint t = 0; t < sa.tri_count; t++)
    {
      const guint8 *x = mshed_model_get_record (a, MSHED_TABLE_TRIS, sa.tri_start + t);
      const guint8 *y = mshed_model_get_record (b, MSHED_TABLE_TRIS, sb.tri_start + t);

      g_assert_cmpmem (x, 2, y, 2);
      g_assert_cmpmem (x + 8, 8, y + 8, 8);
    }
}

/* The slots of @a's nodes, but @except (up to two node indices). */
static void
assert_other_slots_same (MshedModel *a,
                         MshedModel *b,
                         guint       except0,
                         guint       except1)
{
  MshedNode n0, n1;

  g_assert_true (mshed_model_get_node (a, except0, &n0));
  g_assert_true (mshed_model_get_node (a, except1, &n1));
  for (guint s = 0; s < mshed_model_get_n_rows (a, MSHED_TABLE_SLOTS); s++)
    {
      gboolean changed = FALSE;

      for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
        changed |= n0.slot[c] == s || n1.slot[c] == s;
      if (!changed)
        assert_same_slot (a, b, s);
    }
}

/* A new node "extra" under node 0 at (1, 2, 3): as node @node of @b, with slot @slot. */
static void
assert_added_node (MshedModel *b,
                   guint       node,
                   guint       slot,
                   const char *name)
{
  g_autofree char *got = expected_node_name (b, node);
  MshedNode rec;
  MshedKey key;

  g_assert_cmpstr (got, ==, name);
  g_assert_true (mshed_model_get_node (b, node, &rec));
  g_assert_cmpuint (rec.hdr1, ==, 0);
  g_assert_cmpuint (rec.hdr2, ==, 0xFFFF);
  g_assert_cmpuint (rec.slot[0], ==, slot);
  for (guint c = 1; c < MSHED_N_SLOT_CELLS; c++)
    g_assert_cmpuint (rec.slot[c], ==, 0xFFFF);
  g_assert_true (mshed_model_get_key (b, rec.hdr3, &key));
}

/* A copy of glTF object @i of @array (extras and all), appended; its index. */
static guint
copy_element (Gltf       *g,
              const char *array,
              guint       i)
{
  JsonArray *a = json_object_get_array_member (root_of (g), array);
  g_autofree char *text = json_to_string (json_array_get_element (a, i), FALSE);

  json_array_add_element (a, parse_json (text));  /* json_node_copy would share the object */
  return json_array_get_length (a) - 1;
}

/* Swaps glTF nodes @i and @j, siblings, each with its children. */
static void
swap_nodes (Gltf  *g,
            guint  i,
            guint  j)
{
  JsonArray *nodes = json_object_get_array_member (root_of (g), "nodes");
  JsonArray *out = json_array_new ();

  for (guint k = 0; k < json_array_get_length (nodes); k++)
    json_array_add_element (out, json_node_copy (json_array_get_element (
      nodes, k == i ? j : k == j ? i : k)));
  json_object_set_array_member (root_of (g), "nodes", out);
}

static void
add_child (Gltf  *g,
           guint  parent,
           guint  child)
{
  JsonObject *p = element (g, "nodes", parent);

  if (!json_object_has_member (p, "children"))
    json_object_set_array_member (p, "children", json_array_new ());
  json_array_add_int_element (json_object_get_array_member (p, "children"), child);
}

/* Imports @gltf_name into a document of @a, which is @msh: one undo step "Import glTF" with
 * nothing left stale, which undo takes back to @msh's bytes; *@stats: the import's. */
static void
import_and_undo (MshedModel           *a,
                 const char           *msh,
                 const char           *gltf_name,
                 MshedGltfImportStats *stats)
{
  g_autoptr(MshedDocument) doc = mshed_document_new_for_model (a, MSHED_MODE_STRICT);
  g_autofree char *path = path_in_tmp (gltf_name);
  g_autoptr(MshedGltf) gltf = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) original = read_file (msh);
  g_autoptr(GBytes) undone = NULL;

  gltf = mshed_gltf_read_file (path, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_gltf_import_into (doc, gltf, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->still_stale, ==, 0);
  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Import glTF");
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_can_undo (doc));
  undone = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (undone, original));
}

/* names: the last triangle of node 2's first primitive deleted, and a node "extra" added under
 * node 0 with a copy of mesh 0 that has no extras (a new slot): one undo step, the slot of
 * node 2 one triangle shorter, a new slot and node, every other slot drawing what it drew. */
static void
test_import_topology (void)
{
  g_auto(Gltf) g = { 0 };
  g_autoptr(MshedModel) a = NULL;
  g_autoptr(MshedModel) b = NULL;
  JsonObject *prim, *acc, *node, *mesh;
  JsonArray *meshes;
  MshedGltfImportStats stats;
  MshedNode n2, n0;
  MshedSlot before, after;
  MshedKey key;
  guint n_nodes, n_slots, new_mesh;

  generate (&shapes[4]);
  run_cli_ok ("export", "-q", "names.msh", "-o", "topo.gltf", NULL);
  a = open_model ("names.msh");
  gltf_load (&g, "topo.gltf");
  prim = json_array_get_object_element (json_object_get_array_member (
    element (&g, "meshes", json_object_get_int_member (element (&g, "nodes", gltf_node (&g, 2)),
                                                       "mesh")), "primitives"), 0);
  acc = element (&g, "accessors", json_object_get_int_member (prim, "indices"));
  json_object_set_int_member (acc, "count", json_object_get_int_member (acc, "count") - 3);
  meshes = json_object_get_array_member (root_of (&g), "meshes");
  mesh = json_object_new ();
  json_object_set_string_member (mesh, "name", "copy");
  json_object_set_array_member (mesh, "primitives", json_array_ref (json_object_get_array_member (
    element (&g, "meshes", json_object_get_int_member (element (&g, "nodes", gltf_node (&g, 0)),
                                                       "mesh")), "primitives")));
  new_mesh = json_array_get_length (meshes);
  json_array_add_object_element (meshes, mesh);
  node = json_object_new ();
  json_object_set_string_member (node, "name", "extra");
  json_object_set_int_member (node, "mesh", new_mesh);
  json_object_set_array_member (node, "translation", json_array_new ());
  json_array_add_double_element (json_object_get_array_member (node, "translation"), 1);
  json_array_add_double_element (json_object_get_array_member (node, "translation"), 2);
  json_array_add_double_element (json_object_get_array_member (node, "translation"), 3);
  json_array_add_object_element (json_object_get_array_member (root_of (&g), "nodes"), node);
  add_child (&g, gltf_node (&g, 0),
             json_array_get_length (json_object_get_array_member (root_of (&g), "nodes")) - 1);
  gltf_save (&g, "topo-edit.gltf");

  run_cli_ok ("import", "-q", "topo-edit.gltf", "--into", "names.msh", "-o", "topo-edit.msh",
              NULL);
  assert_validates_clean ("topo-edit.msh");
  b = open_model ("topo-edit.msh");
  n_nodes = mshed_model_get_n_rows (a, MSHED_TABLE_NODES);
  n_slots = mshed_model_get_n_rows (a, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_NODES), ==, n_nodes + 1);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_SLOTS), ==, n_slots + 1);
  g_assert_true (mshed_model_get_node (a, 2, &n2));
  g_assert_true (mshed_model_get_node (a, 0, &n0));
  g_assert_true (mshed_model_get_slot (a, n2.slot[0], &before));
  g_assert_true (mshed_model_get_slot (b, n2.slot[0], &after));
  g_assert_cmpuint (after.tri_count, ==, before.tri_count - 1);
  assert_other_slots_same (a, b, 2, 2);
  assert_added_node (b, n_nodes, n_slots, "extra");
  g_assert_true (mshed_model_get_slot (a, n0.slot[0], &before));
  g_assert_true (mshed_model_get_slot (b, n_slots, &after));
  g_assert_cmpuint (after.tri_count, ==, before.tri_count);
  g_assert_true (mshed_model_get_node (b, n_nodes, &n0));
  g_assert_true (mshed_model_get_key (b, n0.hdr3, &key));
  g_assert_cmpfloat (key.pos[0], ==, 1);
  g_assert_cmpfloat (key.pos[1], ==, 2);
  g_assert_cmpfloat (key.pos[2], ==, 3);

  /* one undo step, which gives the original bytes back */
  import_and_undo (a, "names.msh", "topo-edit.gltf", &stats);
  g_assert_cmpuint (stats.rebuilt, ==, 2);
  g_assert_cmpuint (stats.added, ==, 1);
}

/* A mesh without extras: the primitives of glTF mesh @from without TEXCOORD_1; its index. */
static guint
add_bare_mesh (Gltf *g,
               guint from)
{
  JsonArray *meshes = json_object_get_array_member (root_of (g), "meshes");
  JsonArray *prims = json_object_get_array_member (element (g, "meshes", from), "primitives");
  JsonObject *mesh = json_object_new ();
  JsonArray *out = json_array_new ();

  for (guint p = 0; p < json_array_get_length (prims); p++)
    {
      JsonObject *src = json_array_get_object_element (prims, p);
      JsonObject *attrs = json_object_get_object_member (src, "attributes");
      JsonObject *prim = json_object_new (), *a = json_object_new ();
      static const char *const keep[] = { "POSITION", "NORMAL", "TEXCOORD_0" };

      for (guint k = 0; k < G_N_ELEMENTS (keep); k++)
        if (json_object_has_member (attrs, keep[k]))
          json_object_set_int_member (a, keep[k], json_object_get_int_member (attrs, keep[k]));
      json_object_set_object_member (prim, "attributes", a);
      json_object_set_int_member (prim, "indices", json_object_get_int_member (src, "indices"));
      if (json_object_has_member (src, "material"))
        json_object_set_int_member (prim, "material",
                                    json_object_get_int_member (src, "material"));
      json_array_add_object_element (out, prim);
    }
  json_object_set_string_member (mesh, "name", "bare");
  json_object_set_array_member (mesh, "primitives", out);
  json_array_add_object_element (meshes, mesh);
  return json_array_get_length (meshes) - 1;
}

/* The positions of every triangle corner slot @s draws, sorted (12 bytes each). */
static GArray *
drawn_positions (MshedModel *m,
                 guint       s)
{
  GArray *out = g_array_new (FALSE, FALSE, 12);
  MshedSlot slot;

  g_assert_true (mshed_model_get_slot (m, s, &slot));
  for (guint b = slot.batch_start; b < (guint) slot.batch_start + slot.batch_count; b++)
    {
      MshedBatch batch;

      g_assert_true (mshed_model_get_batch (m, b, &batch));
      for (guint k = 0; k < batch.index_count; k++)
        g_array_append_vals (out, mshed_model_get_record (
          m, MSHED_TABLE_POSITIONS, batch.base_vertex + mshed_read_u16 (
            mshed_model_get_record (m, MSHED_TABLE_INDICES, batch.index_start + k))), 1);
    }
  g_array_sort (out, (GCompareFunc) memcmp_12);
  return out;
}

/* names: node 2 (its LOD 0 / group 0 slot its own) gets a mesh without extras, a copy of node
 * 0's, and node 1 (nothing at LOD 0 / group 0) one of node 3's: node 2's slot is rebuilt in
 * place, node 1 gets a new slot in that cell, one undo step (docs/conventions.md). */
static void
test_import_bare_mesh (void)
{
  g_auto(Gltf) g = { 0 };
  g_autoptr(MshedModel) a = NULL, b = NULL;
  g_autoptr(GArray) want0 = NULL, got0 = NULL, want3 = NULL, got3 = NULL;
  MshedGltfImportStats stats;
  MshedNode n0, n1, n2, n3, after1;
  guint n_slots;

  generate (&shapes[4]);
  a = open_model ("names.msh");
  g_assert_true (mshed_model_get_node (a, 0, &n0) && mshed_model_get_node (a, 1, &n1) &&
                 mshed_model_get_node (a, 2, &n2) && mshed_model_get_node (a, 3, &n3));
  g_assert_cmpuint (n1.slot[0], ==, 0xFFFF);
  g_assert_cmpuint (n2.slot[0], !=, 0xFFFF);
  run_cli_ok ("export", "-q", "names.msh", "-o", "bare.gltf", NULL);
  gltf_load (&g, "bare.gltf");
  json_object_set_int_member (element (&g, "nodes", gltf_node (&g, 2)), "mesh", add_bare_mesh (
    &g, json_object_get_int_member (element (&g, "nodes", gltf_node (&g, 0)), "mesh")));
  json_object_set_int_member (element (&g, "nodes", gltf_node (&g, 1)), "mesh", add_bare_mesh (
    &g, json_object_get_int_member (element (&g, "nodes", gltf_node (&g, 3)), "mesh")));
  gltf_save (&g, "bare-edit.gltf");

  run_cli_ok ("import", "-q", "bare-edit.gltf", "--into", "names.msh", "-o", "bare-edit.msh",
              NULL);
  assert_validates_clean ("bare-edit.msh");
  b = open_model ("bare-edit.msh");
  n_slots = mshed_model_get_n_rows (a, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_NODES), ==,
                    mshed_model_get_n_rows (a, MSHED_TABLE_NODES));
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_SLOTS), ==, n_slots + 1);
  g_assert_true (mshed_model_get_node (b, 1, &after1));
  g_assert_cmpuint (after1.slot[0], ==, n_slots);
  g_assert_cmpmem (&after1.slot[1], 28, &n1.slot[1], 28);
  want0 = drawn_positions (a, n0.slot[0]);
  got0 = drawn_positions (b, n2.slot[0]);
  g_assert_cmpmem (got0->data, got0->len * 12, want0->data, want0->len * 12);
  want3 = drawn_positions (a, n3.slot[0]);
  got3 = drawn_positions (b, n_slots);
  g_assert_cmpmem (got3->data, got3->len * 12, want3->data, want3->len * 12);
  assert_other_slots_same (a, b, 2, 2);

  import_and_undo (a, "names.msh", "bare-edit.gltf", &stats);
  g_assert_cmpuint (stats.rebuilt, ==, 2);
}

/* Copies of nodes (docs/conventions.md, “A duplicated object”) ------------------------------ */

/* Every row of @table in @a has the same bytes in @b but @except's (G_MAXUINT: none). */
static void
assert_rows_kept (MshedModel   *a,
                  MshedModel   *b,
                  MshedTableId  table,
                  guint         except)
{
  guint stride = table == MSHED_TABLE_NODES ? mshed_model_get_node_stride (a)
                                            : mshed_schema_get_table (table)->stride;

  g_test_message ("table %d", table);
  g_assert_cmpuint (mshed_model_get_n_rows (b, table), >=, mshed_model_get_n_rows (a, table));
  for (guint r = 0; r < mshed_model_get_n_rows (a, table); r++)
    if (r != except)
      g_assert_cmpmem (mshed_model_get_record (a, table, r), stride,
                       mshed_model_get_record (b, table, r), stride);
}

/* Every name and every record of @a the same in @b, but node @except's record. */
static void
assert_rows_kept_all (MshedModel *a,
                      MshedModel *b,
                      guint       except)
{
  static const MshedTableId tables[] = {
    MSHED_TABLE_SLOTS, MSHED_TABLE_POSITIONS, MSHED_TABLE_NORMALS, MSHED_TABLE_UVS,
    MSHED_TABLE_INDICES, MSHED_TABLE_TRIS, MSHED_TABLE_KEYS, MSHED_TABLE_BATCHES,
  };

  assert_names (a, b, G_MAXUINT, NULL);
  assert_rows_kept (a, b, MSHED_TABLE_NODES, except);
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    assert_rows_kept (a, b, tables[t], G_MAXUINT);
}

static void
assert_same_drawing (MshedModel *a,
                     guint       sa,
                     MshedModel *b,
                     guint       sb)
{
  g_autoptr(GArray) want = drawn_positions (a, sa);
  g_autoptr(GArray) got = drawn_positions (b, sb);

  g_assert_cmpuint (got->len, ==, want->len);
  g_assert_cmpmem (got->data, got->len * 12, want->data, want->len * 12);
}

/* names: node 10 ("fx_smoke", a child of node 0, with an LOD 0 / group 2 child) copied as
 * Blender's Shift+D does with its child selected: "fx_smoke.001" with copies of both meshes
 * (their extras too) at (1, 2, 3), and "fx_smoke.002" showing node 10's own glTF mesh (a linked
 * copy); node 1 (no LOD 0 / group 0 slot) shows a copy of a mesh whose extras name slot 999.
 * Two new nodes after the others, three new slots: node 1's, then the copies' two; the linked
 * copy shares node 10's slot; every old record the same but node 1's cell; one undo step.
 * The first copy comes before node 10 in the glTF: the name says which one is node 10. A copy
 * of the LOD 0 / group 2 node beside the original is refused. */
static void
test_import_duplicate (void)
{
  g_auto(Gltf) g = { 0 };
  g_autoptr(MshedModel) a = NULL, b = NULL;
  g_autofree char *name1 = NULL, *name2 = NULL, *message = NULL;
  g_auto(Run) run = { 0 };
  MshedGltfImportStats stats;
  MshedNode n1, n5, n10, c1, c2, after1;
  MshedKey key;
  guint n_nodes, n_slots, x, cell, copy, linked, odd, group2;

  generate (&shapes[4]);
  a = open_model ("names.msh");
  g_assert_true (mshed_model_get_node (a, 1, &n1) && mshed_model_get_node (a, 10, &n10));
  g_assert_cmpuint (n1.slot[0], ==, 0xFFFF);
  g_assert_cmpuint (n10.slot[2], !=, 0xFFFF);
  run_cli_ok ("export", "-q", "names.msh", "-o", "dup.gltf", NULL);
  gltf_load (&g, "dup.gltf");
  x = gltf_node (&g, 10);
  g_assert_cmpstr (json_object_get_string_member (element (&g, "nodes", x), "name"), ==,
                   "fx_smoke");
  copy = copy_element (&g, "nodes", x);
  json_object_remove_member (element (&g, "nodes", copy), "children");
  json_object_set_string_member (element (&g, "nodes", copy), "name", "fx_smoke.001");
  json_object_set_int_member (element (&g, "nodes", copy), "mesh", copy_element (
    &g, "meshes", json_object_get_int_member (element (&g, "nodes", x), "mesh")));
  json_object_set_array_member (element (&g, "nodes", copy), "translation", json_array_new ());
  for (guint k = 1; k <= 3; k++)
    json_array_add_double_element (json_object_get_array_member (element (&g, "nodes", copy),
                                                                 "translation"), k);
  add_child (&g, gltf_node (&g, 0), copy);
  for (cell = x + 1; !g_str_equal (json_object_get_string_member (element (&g, "nodes", cell),
                                                                  "name"), "node 10 LOD0 group2");
       cell++)
    ;
  group2 = cell;
  cell = copy_element (&g, "nodes", cell);
  json_object_set_int_member (element (&g, "nodes", cell), "mesh", copy_element (
    &g, "meshes", json_object_get_int_member (element (&g, "nodes", cell), "mesh")));
  add_child (&g, copy, cell);
  linked = copy_element (&g, "nodes", x);
  json_object_remove_member (element (&g, "nodes", linked), "children");
  json_object_set_string_member (element (&g, "nodes", linked), "name", "fx_smoke.002");
  add_child (&g, gltf_node (&g, 0), linked);
  odd = copy_element (&g, "meshes", json_object_get_int_member (
    element (&g, "nodes", gltf_node (&g, 5)), "mesh"));
  json_object_set_int_member (json_object_get_object_member (json_object_get_object_member (
    element (&g, "meshes", odd), "extras"), "mshed"), "slot", 999);
  json_object_set_int_member (element (&g, "nodes", gltf_node (&g, 1)), "mesh", odd);
  swap_nodes (&g, x, copy);  /* the copy first: the name decides */
  gltf_save (&g, "dup-edit.gltf");

  run_cli_ok ("import", "-q", "dup-edit.gltf", "--into", "names.msh", "-o", "dup-edit.msh",
              NULL);
  assert_validates_clean ("dup-edit.msh");
  b = open_model ("dup-edit.msh");
  n_nodes = mshed_model_get_n_rows (a, MSHED_TABLE_NODES);
  n_slots = mshed_model_get_n_rows (a, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_NODES), ==, n_nodes + 2);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_SLOTS), ==, n_slots + 3);
  assert_rows_kept_all (a, b, 1);
  g_assert_true (mshed_model_get_node (b, 1, &after1));
  g_assert_cmpuint (after1.slot[0], ==, n_slots);
  g_assert_cmpmem (&after1.slot[1], 28, &n1.slot[1], 28);
  g_assert_cmpmem (mshed_model_get_record (b, MSHED_TABLE_NODES, 1) + 2, 6,
                   mshed_model_get_record (a, MSHED_TABLE_NODES, 1) + 2, 6);
  g_assert_true (mshed_model_get_node (a, 5, &n5));
  assert_same_drawing (a, n5.slot[0], b, n_slots);

  /* the copy: its own slots in LOD 0 / group 0 and LOD 0 / group 2, its own pose */
  g_assert_true (mshed_model_get_node (b, n_nodes, &c1));
  g_assert_true (mshed_model_get_node (b, n_nodes + 1, &c2));
  g_assert_cmpstr ((name1 = expected_node_name (b, n_nodes)), ==, "fx_smoke.001");
  g_assert_cmpstr ((name2 = expected_node_name (b, n_nodes + 1)), ==, "fx_smoke.002");
  g_assert_cmpuint (c1.hdr1, ==, n10.hdr1);
  g_assert_cmpuint (c1.hdr2, ==, 0xFFFF);
  g_assert_cmpuint (c1.slot[0], ==, n_slots + 1);
  g_assert_cmpuint (c1.slot[2], ==, n_slots + 2);
  for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
    if (c != 0 && c != 2)
      g_assert_cmpuint (c1.slot[c], ==, 0xFFFF);
  assert_same_drawing (a, n10.slot[0], b, c1.slot[0]);
  assert_same_drawing (a, n10.slot[2], b, c1.slot[2]);
  g_assert_true (mshed_model_get_key (b, c1.hdr3, &key));
  g_assert_cmpfloat (key.pos[0], ==, 1);
  g_assert_cmpfloat (key.pos[1], ==, 2);
  g_assert_cmpfloat (key.pos[2], ==, 3);
  /* the linked copy draws node 10's slot */
  g_assert_cmpuint (c2.slot[0], ==, n10.slot[0]);
  g_assert_cmpuint (c2.slot[2], ==, 0xFFFF);

  import_and_undo (a, "names.msh", "dup-edit.gltf", &stats);
  g_assert_cmpuint (stats.added, ==, 2);
  g_assert_cmpuint (stats.rebuilt, ==, 3);

  /* node 10's LOD 0 / group 2 node copied beside it: one mesh per cell, refused */
  gltf_clear (&g);
  gltf_load (&g, "dup.gltf");
  add_child (&g, x, copy_element (&g, "nodes", group2));
  gltf_save (&g, "dup-cell.gltf");
  run_cli (&run, "import", "dup-cell.gltf", "--into", "names.msh", "-o", "dup-cell.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  message = g_strdup_printf ("(“node 10 LOD0 group2”): a second mesh for LOD 0 / group 2 of "
                             "nodes[%u] (“fx_smoke”)", x);
  g_assert_nonnull (strstr (run.err, message));
  g_assert_false (tmp_file_exists ("dup-cell.msh"));
}

/* Triangles deleted from the one batch list of a legacy model: refused, naming the mesh. */
static void
test_import_topology_legacy (void)
{
  g_auto(Gltf) g = { 0 };
  g_auto(Run) run = { 0 };
  JsonObject *prim, *acc;

  generate (&shapes[2]);
  run_cli_ok ("export", "-q", "legacy.msh", "-o", "legacy.gltf", NULL);
  gltf_load (&g, "legacy.gltf");
  prim = json_array_get_object_element (
    json_object_get_array_member (element (&g, "meshes", 0), "primitives"), 0);
  acc = element (&g, "accessors", json_object_get_int_member (prim, "indices"));
  json_object_set_int_member (acc, "count", json_object_get_int_member (acc, "count") - 3);
  gltf_save (&g, "legacy-edit.gltf");
  run_cli (&run, "import", "legacy-edit.gltf", "--into", "legacy.msh", "-o", "legacy-e.msh",
           NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_nonnull (strstr (run.err, "legacy-edit.gltf: meshes[0] (“all batches”): triangles "
                                     "added, deleted or reconnected"));
  g_assert_false (tmp_file_exists ("legacy-e.msh"));
}

/* Refusals ------------------------------------------------------------------------------------ */

typedef void (*Spoil) (Gltf *g);

static void
spoil_accessor (Gltf *g)
{
  json_object_set_int_member (element (g, "accessors", 0), "count", 1000000);
}

static void
spoil_skin (Gltf *g)
{
  json_object_set_int_member (element (g, "nodes", 0), "skin", 0);
}

static void
spoil_joints (Gltf *g)
{
  JsonObject *prim = json_array_get_object_element (
    json_object_get_array_member (element (g, "meshes", 0), "primitives"), 0);

  json_object_set_int_member (json_object_get_object_member (prim, "attributes"), "JOINTS_0",
                              0);
}

static void
spoil_mode (Gltf *g)
{
  JsonObject *prim = json_array_get_object_element (
    json_object_get_array_member (element (g, "meshes", 0), "primitives"), 0);

  json_object_set_int_member (prim, "mode", 1);
}

static void
spoil_extras (Gltf *g)
{
  json_object_remove_member (element (g, "scenes", 0), "extras");
}

static void
spoil_foreign (Gltf *g)
{
  json_object_set_int_member (json_object_get_object_member (
    json_object_get_object_member (element (g, "nodes", 0), "extras"), "mshed"), "node", 999);
}

static void
spoil_uri (Gltf *g)
{
  json_object_set_string_member (element (g, "buffers", 0), "uri", "../secret.bin");
}

static void
spoil_cycle (Gltf *g)
{
  JsonArray *children = json_array_new ();

  json_array_add_int_element (children, 0);
  json_object_set_array_member (element (g, "nodes", 0), "children", children);
}

static void
test_import_refused (void)
{
  static const struct {
    const char *name;
    Spoil       spoil;
    const char *message;
  } cases[] = {
    { "accessor", spoil_accessor,
      "meshes[0].primitives[0].POSITION: accessor 0 reads past buffer view 0" },
    { "skin", spoil_skin, "nodes[0]: a skinned node" },
    { "joints", spoil_joints, "meshes[0].primitives[0]: a skinned primitive (JOINTS_0)" },
    { "mode", spoil_mode, "meshes[0].primitives[0]: mode 1;" },
    { "extras", spoil_extras, "scenes[0] has no “mshed” extras" },
    { "foreign", spoil_foreign, "its extras name an MSH node the model does not have" },
    { "uri", spoil_uri, "buffers[0]: the URI “../secret.bin” is not a file name beside" },
    { "cycle", spoil_cycle, "nodes[0].children[0]: no such node" },
  };
  g_autoptr(GBytes) truncated = g_bytes_new_static ("glTF\2\0\0\0\24\0\0\0", 12);

  generate (&shapes[0]);
  run_cli_ok ("export", "-q", "small.msh", "-o", "small.gltf", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Gltf) g = { 0 };
      g_autofree char *in = g_strdup_printf ("bad-%s.gltf", cases[i].name);
      g_autofree char *out = g_strdup_printf ("bad-%s.msh", cases[i].name);
      g_auto(Run) run = { 0 };

      gltf_load (&g, "small.gltf");
      cases[i].spoil (&g);
      gltf_save (&g, in);
      run_cli (&run, "import", in, "--into", "small.msh", "-o", out, NULL);
      g_assert_cmpint (run.status, !=, 0);
      g_assert_nonnull (strstr (run.err, in));
      g_assert_nonnull (strstr (run.err, cases[i].message));
      g_assert_false (tmp_file_exists (out));
    }
  write_file ("short.glb", truncated);
  {
    g_auto(Run) run = { 0 };

    run_cli (&run, "import", "short.glb", "--into", "small.msh", "-o", "short.msh", NULL);
    g_assert_cmpint (run.status, !=, 0);
    g_assert_nonnull (strstr (run.err, "short.glb: the binary glTF is shorter than its "
                                       "20-byte header"));
    g_assert_false (tmp_file_exists ("short.msh"));
  }
}

static void
test_import_usage (void)
{
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_auto(Run) run = { 0 };

  generate (&shapes[0]);
  run_cli_ok ("export", "-q", "small.msh", "-o", "small.glb", NULL);
  before = read_file ("small.msh");
  run_cli (&run, "import", "small.glb", "--into", "small.msh", "-o", "small.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "the output small.msh is an input; add --force"));
  run_cli (&run, "import", "small.glb", "--into", "small.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "import needs one glTF file and -o OUT"));
  run_cli_ok ("import", "-q", "small.glb", "--into", "small.msh", "-o", "small.msh", "--force",
              NULL);
  after = read_file ("small.msh");
  g_assert_true (g_bytes_equal (before, after));
  /* po/ru.po */
  {
    g_autofree char *saved = g_strdup (g_getenv ("LC_ALL"));

    g_setenv ("LC_ALL", "ru_RU.UTF-8", TRUE);
    run_cli (&run, "import", "small.glb", "--into", "small.msh", NULL);
    g_setenv ("LC_ALL", saved ? saved : "C.UTF-8", TRUE);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "для import нужны один файл glTF и -o OUT"));
  }
}

/* Import as a new model ---------------------------------------------------------------------- */

/* A glTF without extras: a square (two triangles) on a child node, a parent without a mesh;
 * positions, indices, names and parents as given. @vertices > 4 adds that many more zero
 * positions (no buffer view) as a second primitive without indices; @orphan adds a mesh no
 * node uses. */
static void
write_plain_gltf (const char *name,
                  guint       vertices,
                  gboolean    orphan)
{
  static const float pos[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5f };
  static const guint16 idx[6] = { 0, 1, 2, 2, 1, 3 };
  guint8 bin[60];
  g_autofree char *base64 = NULL;
  g_autofree char *text = NULL;
  g_autofree char *extra = NULL;

  memcpy (bin, pos, 48);
  memcpy (bin + 48, idx, 12);
  base64 = g_base64_encode (bin, sizeof bin);
  extra = vertices > 4
    ? g_strdup_printf (",{\"attributes\":{\"POSITION\":2}}")
    : g_strdup ("");
  text = g_strdup_printf (
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"башня\",\"children\":[1]},"
    "{\"name\":\"gun\",\"mesh\":0,\"translation\":[1,2,3]}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}%s]}%s],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,"
    "\"type\":\"VEC3\"},{\"bufferView\":1,\"componentType\":5123,\"count\":6,"
    "\"type\":\"SCALAR\"},{\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":48,"
    "\"byteLength\":12}],\"buffers\":[{\"byteLength\":60,"
    "\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
    extra,
    orphan ? ",{\"name\":\"lost\",\"primitives\":[{\"attributes\":{\"POSITION\":0},"
             "\"indices\":1}]}" : "",
    MAX (vertices, 3), base64);
  g_assert_true (write_text (name, text));
}

static void
test_import_new (void)
{
  g_autoptr(MshedModel) model = NULL;
  MshedNode node;
  MshedSlot slot;
  MshedBatch batch;
  float p[3];
  MshedKey key;
  g_auto(Run) run = { 0 };

  write_plain_gltf ("plain.gltf", 0, FALSE);
  run_cli_ok ("import", "-q", "plain.gltf", "-o", "plain.msh", NULL);
  assert_validates_clean ("plain.msh");
  model = open_model ("plain.msh");
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NODES), ==, 2);
  {
    g_autofree char *n0 = expected_node_name (model, 0);
    g_autofree char *n1 = expected_node_name (model, 1);

    g_assert_cmpstr (n0, ==, "башня");
    g_assert_cmpstr (n1, ==, "gun");
  }
  g_assert_true (mshed_model_get_node (model, 0, &node));
  g_assert_cmpuint (node.hdr1, ==, 0xFFFF);
  g_assert_cmpuint (node.slot[0], ==, 0xFFFF);
  g_assert_true (mshed_model_get_node (model, 1, &node));
  g_assert_cmpuint (node.hdr1, ==, 0);
  g_assert_cmpuint (node.slot[0], ==, 0);
  g_assert_cmpuint (node.hdr2, ==, 0xFFFF);
  g_assert_true (mshed_model_get_key (model, node.hdr3, &key));
  g_assert_cmpfloat (key.pos[0], ==, 1);
  g_assert_cmpfloat (key.pos[2], ==, 3);
  g_assert_true (mshed_model_get_slot (model, 0, &slot));
  g_assert_cmpuint (slot.batch_count, ==, 1);
  g_assert_cmpuint (slot.tri_count, ==, 2);
  g_assert_cmpfloat (slot.aabb_max[2], ==, 0.5f);  /* derived: the box of the vertices */
  g_assert_true (mshed_model_get_batch (model, 0, &batch));
  g_assert_cmpuint (batch.index_count, ==, 6);
  g_assert_true (mshed_model_get_position (model, 3, p));
  g_assert_cmpfloat (p[0], ==, 1);
  g_assert_cmpfloat (p[2], ==, 0.5f);
  for (guint i = 0; i < 6; i++)
    {
      guint16 idx;
      static const guint16 want[6] = { 0, 1, 2, 2, 1, 3 };

      g_assert_true (mshed_model_get_index (model, i, &idx));
      g_assert_cmpuint (idx, ==, want[i]);
    }

  /* every generated shape's export becomes a valid model with the glTF's nodes */
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autofree char *msh = g_strdup_printf ("%s.msh", shapes[s].name);
      g_autofree char *glb = g_strdup_printf ("%s.glb", shapes[s].name);
      g_autofree char *out = g_strdup_printf ("%s-new.msh", shapes[s].name);

      generate (&shapes[s]);
      run_cli_ok ("export", "-q", msh, "-o", glb, NULL);
      run_cli_ok ("import", "-q", glb, "-o", out, NULL);
      assert_validates_clean (out);
    }

  /* what MSH cannot hold */
  write_plain_gltf ("big.gltf", 65538, FALSE);
  run_cli (&run, "import", "big.gltf", "-o", "big.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "big.gltf: meshes[0].primitives[1]: 65538 vertices; an MSH "
                                     "batch addresses at most 65,535"));
  g_assert_false (tmp_file_exists ("big.msh"));
  write_plain_gltf ("orphan.gltf", 0, TRUE);
  run_cli (&run, "import", "orphan.gltf", "-o", "orphan.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "orphan.gltf: meshes[1] (“lost”): a mesh without a node"));
  g_assert_false (tmp_file_exists ("orphan.msh"));
}

/* Through Blender ------------------------------------------------------------------------------ */

/* blender-roundtrip.py IN OUT [edits]; FALSE when Blender is not installed. */
static gboolean
blender_roundtrip (const char  *in,
                   const char  *out,
                   const char **edits)
{
  return run_blender_roundtrip (in, out, edits);
}

static void
test_import_blender (void)
{
  const char *edits[] = { "--move", "Ствол", "0.5", "0", "0", "--rename", "hatch", "люк",
                          NULL };
  g_auto(Gltf) g = { 0 };
  g_autoptr(MshedModel) a = NULL;
  g_autoptr(MshedModel) b = NULL;
  g_autoptr(GArray) moved = NULL;
  MshedNode rec;

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autofree char *msh = g_strdup_printf ("%s.msh", shapes[s].name);
      g_autofree char *glb = g_strdup_printf ("%s.glb", shapes[s].name);
      g_autofree char *blend = g_strdup_printf ("%s-blender.glb", shapes[s].name);
      g_autofree char *back = g_strdup_printf ("%s-blender.msh", shapes[s].name);

      generate (&shapes[s]);
      run_cli_ok ("export", "-q", msh, "-o", glb, NULL);
      if (!blender_roundtrip (glb, blend, NULL))
        {
          mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
          return;
        }
      run_cli_ok ("import", "-q", blend, "--into", msh, "-o", back, NULL);
      assert_same_files (msh, back);
    }

  /* move the vertices of node 2 ("Ствол") by 0.5 on x and rename node 5 ("hatch") */
  run_cli_ok ("export", "-q", "names.msh", "-o", "names-b.gltf", NULL);
  g_assert_true (blender_roundtrip ("names-b.gltf", "names-b-edit.gltf", edits));
  run_cli_ok ("import", "-q", "names-b-edit.gltf", "--into", "names.msh", "-o",
              "names-b-edit.msh", NULL);
  gltf_load (&g, "names-b.gltf");
  moved = mesh_rows (&g, json_object_get_int_member (element (&g, "nodes", gltf_node (&g, 2)),
                                                     "mesh"));
  a = open_model ("names.msh");
  b = open_model ("names-b-edit.msh");
  assert_names (a, b, 5, "люк");
  g_assert_true (mshed_model_get_node (a, 2, &rec));
  assert_moved (a, b, moved, 0.5f, rec.slot[0]);
  assert_unchanged (a, b, MSHED_TABLE_NODES);
  assert_unchanged (a, b, MSHED_TABLE_NORMALS);
  assert_unchanged (a, b, MSHED_TABLE_UVS);
  assert_unchanged (a, b, MSHED_TABLE_INDICES);
  assert_unchanged (a, b, MSHED_TABLE_KEYS);
  assert_unchanged (a, b, MSHED_TABLE_TRIS);
  assert_validates_clean ("names-b-edit.msh");
}

/* Blender edits of topology: the first two faces of node 2 ("Ствол") deleted, node 5
 * ("hatch") subdivided once (each triangle becomes four), a cube added under node 0. */
static void
test_import_blender_topology (void)
{
  g_autofree char *parent = NULL;
  g_autoptr(MshedModel) a = NULL;
  g_autoptr(MshedModel) b = NULL;
  MshedNode n2, n5;
  MshedSlot before, after;
  guint n_nodes, n_slots;
  const char *edits[] = { "--delete-faces", "Ствол", "2", "--subdivide", "hatch",
                          "--add-cube", NULL, "cube", NULL };

  generate (&shapes[4]);
  a = open_model ("names.msh");
  parent = expected_node_name (a, 0);
  edits[6] = parent;
  run_cli_ok ("export", "-q", "names.msh", "-o", "names-t.glb", NULL);
  if (!blender_roundtrip ("names-t.glb", "names-t-edit.glb", edits))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  run_cli_ok ("import", "-q", "names-t-edit.glb", "--into", "names.msh", "-o",
              "names-t-edit.msh", NULL);
  assert_validates_clean ("names-t-edit.msh");
  b = open_model ("names-t-edit.msh");
  n_nodes = mshed_model_get_n_rows (a, MSHED_TABLE_NODES);
  n_slots = mshed_model_get_n_rows (a, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_NODES), ==, n_nodes + 1);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_SLOTS), ==, n_slots + 1);
  g_assert_true (mshed_model_get_node (a, 2, &n2));
  g_assert_true (mshed_model_get_node (a, 5, &n5));
  g_assert_true (mshed_model_get_slot (a, n2.slot[0], &before));
  g_assert_true (mshed_model_get_slot (b, n2.slot[0], &after));
  g_assert_cmpuint (after.tri_count, ==, before.tri_count - 2);
  g_assert_true (mshed_model_get_slot (a, n5.slot[0], &before));
  g_assert_true (mshed_model_get_slot (b, n5.slot[0], &after));
  g_assert_cmpuint (after.tri_count, ==, 4 * before.tri_count);
  assert_other_slots_same (a, b, 2, 5);
  assert_added_node (b, n_nodes, n_slots, "cube");
  g_assert_true (mshed_model_get_slot (b, n_slots, &after));
  g_assert_cmpuint (after.tri_count, ==, 12);
}

/* Blender's Shift+D of node 10 ("fx_smoke", not animated) and a move of the copy by 0.5 on x:
 * exactly one new node, "fx_smoke.001", under node 10's parent, its pose node 10's moved, its
 * own new slot drawing what node 10's draws; every old record the same. */
static void
test_import_blender_duplicate (void)
{
  const char *edits[] = { "--duplicate", "fx_smoke", "0.5", "0", "0", NULL };
  g_autoptr(MshedModel) a = NULL, b = NULL;
  g_autofree char *name = NULL;
  MshedNode n10, copy;
  MshedKey k10, key;
  guint n_nodes, n_slots;

  generate (&shapes[4]);
  a = open_model ("names.msh");
  run_cli_ok ("export", "-q", "names.msh", "-o", "names-d.glb", NULL);
  if (!blender_roundtrip ("names-d.glb", "names-d-edit.glb", edits))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  run_cli_ok ("import", "-q", "names-d-edit.glb", "--into", "names.msh", "-o",
              "names-d-edit.msh", NULL);
  assert_validates_clean ("names-d-edit.msh");
  b = open_model ("names-d-edit.msh");
  n_nodes = mshed_model_get_n_rows (a, MSHED_TABLE_NODES);
  n_slots = mshed_model_get_n_rows (a, MSHED_TABLE_SLOTS);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_NODES), ==, n_nodes + 1);
  g_assert_cmpuint (mshed_model_get_n_rows (b, MSHED_TABLE_SLOTS), ==, n_slots + 1);
  assert_rows_kept_all (a, b, G_MAXUINT);
  name = expected_node_name (b, n_nodes);
  g_assert_cmpstr (name, ==, "fx_smoke.001");
  g_assert_true (mshed_model_get_node (a, 10, &n10) && mshed_model_get_node (b, n_nodes, &copy));
  g_assert_cmpuint (copy.hdr1, ==, n10.hdr1);
  g_assert_cmpuint (copy.slot[0], ==, n_slots);
  for (guint c = 1; c < MSHED_N_SLOT_CELLS; c++)
    g_assert_cmpuint (copy.slot[c], ==, 0xFFFF);
  assert_same_drawing (a, n10.slot[0], b, n_slots);
  g_assert_true (mshed_model_get_key (a, n10.hdr3, &k10));
  g_assert_true (mshed_model_get_key (b, copy.hdr3, &key));
  for (guint k = 0; k < 3; k++)
    g_assert_cmpfloat_with_epsilon (key.pos[k], k10.pos[k] + (k == 0 ? 0.5f : 0), 1e-5);
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
  g_test_add_func ("/import/usage", test_import_usage);
  g_test_add_func ("/import/unchanged", test_import_unchanged);
  g_test_add_func ("/import/side-bin", test_import_side_bin);
  /* /import/undo reads what /import/edits wrote: keep this order */
  g_test_add_func ("/import/edits", test_import_edits);
  g_test_add_func ("/import/undo", test_import_undo);
  g_test_add_func ("/import/animation", test_import_animation);
  g_test_add_func ("/import/topology", test_import_topology);
  g_test_add_func ("/import/bare-mesh", test_import_bare_mesh);
  g_test_add_func ("/import/duplicate", test_import_duplicate);
  g_test_add_func ("/import/topology-legacy", test_import_topology_legacy);
  g_test_add_func ("/import/refused", test_import_refused);
  g_test_add_func ("/import/new", test_import_new);
  g_test_add_func ("/import/blender", test_import_blender);
  g_test_add_func ("/import/blender-topology", test_import_blender_topology);
  g_test_add_func ("/import/blender-duplicate", test_import_blender_duplicate);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
