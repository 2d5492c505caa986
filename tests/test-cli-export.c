/* test-cli-export.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli export on every generated shape, to .glb and .gltf, judged three ways: our own
 * reading of the JSON (names, hierarchy and triangles per node against what the MSH tables
 * say, counted here from the tables), the Khronos glTF-Validator (0 errors, 0 warnings) and
 * Blender's importer (the objects, parents and triangle counts it sees). The two external
 * judges are installed by ./mshed-dev; where one is missing the test skips, which is a
 * failure under MSHED_REQUIRE_ALL_TESTS (CI).
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "mshed-generator.h"
#include "mshed-json.h"
#include "mshed-model.h"
#include "test-cli-util.h"
#include "test-require.h"

typedef struct {
  const char *name;
  guint64     seed;
  guint       triangles;
  guint       nodes;
  gboolean    animated;
  gboolean    legacy;
  gboolean    cyrillic;
  gboolean    empty_names;
  gboolean    res18;
} Shape;

static const Shape shapes[] = {
  { "small", 11, 12, 1, FALSE, FALSE, FALSE, FALSE, FALSE },
  { "animated", 3, 1000, 0, TRUE, FALSE, TRUE, FALSE, FALSE },
  { "legacy", 5, 300, 4, FALSE, TRUE, FALSE, FALSE, FALSE },
  { "lods", 7, 2000, 24, FALSE, FALSE, FALSE, FALSE, TRUE },
  { "names", 9, 600, 20, TRUE, FALSE, TRUE, TRUE, FALSE },
};

/* Every file the exports wrote, for the external judges. */
static GPtrArray *exported;

static MshedModel *
shape_model (const Shape *shape)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("%s.msh", shape->name);
  MshedModel *model;

  mshed_gen_params_init (&params, shape->seed);
  params.n_triangles = shape->triangles;
  if (shape->nodes)
    params.n_nodes = shape->nodes;
  params.animated = shape->animated;
  params.legacy_nodes = shape->legacy;
  params.cyrillic_names = shape->cyrillic;
  params.empty_names = shape->empty_names;
  params.with_res18_20 = shape->res18;
  bytes = mshed_generate_model_bytes (&params);
  write_file (name, bytes);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  return model;
}

/* What the MSH says, from its tables ------------------------------------------------------ */

static guint
slot_triangles (MshedModel *model,
                guint       slot_index)
{
  MshedSlot slot;
  guint total = 0;

  g_assert_true (mshed_model_get_slot (model, slot_index, &slot));
  for (guint b = slot.batch_start; b < (guint) slot.batch_start + slot.batch_count; b++)
    {
      MshedBatch batch;

      g_assert_true (mshed_model_get_batch (model, b, &batch));
      total += batch.index_count / 3;
    }
  return total;
}

/* Triangles node @node draws at (@lod, @group), from Res1 -> Res2 -> Res13; 0 for none. */
static guint
cell_triangles (MshedModel *model,
                guint       node,
                guint       lod,
                guint       group)
{
  MshedNode rec;
  guint16 s;

  g_assert_true (mshed_model_get_node (model, node, &rec));
  s = rec.slot[lod * 5 + group];
  return s == 0xFFFF ? 0 : slot_triangles (model, s);
}

static guint
all_triangles (MshedModel *model)
{
  guint total = 0;

  for (guint b = 0; b < mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES); b++)
    {
      MshedBatch batch;

      g_assert_true (mshed_model_get_batch (model, b, &batch));
      total += batch.index_count / 3;
    }
  return total;
}

/* Our reading of the glTF ----------------------------------------------------------------- */

static JsonNode *
read_gltf_json (const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autofree char *text = NULL;

  if (g_str_has_suffix (name, ".gltf"))
    {
      text = g_strndup ((const char *) data, size);
      g_assert_true (g_utf8_validate (text, -1, NULL));
      return parse_json (text);
    }
  /* GLB: header "glTF", version 2, the total length; then the JSON chunk */
  g_assert_cmpuint (size, >=, 20);
  g_assert_cmpmem (data, 4, "glTF", 4);
  g_assert_cmpuint (GUINT32_FROM_LE (*(const guint32 *) (data + 4)), ==, 2);
  g_assert_cmpuint (GUINT32_FROM_LE (*(const guint32 *) (data + 8)), ==, size);
  g_assert_cmpmem (data + 16, 4, "JSON", 4);
  {
    guint32 len = GUINT32_FROM_LE (*(const guint32 *) (data + 12));

    g_assert_cmpuint (len % 4, ==, 0);
    g_assert_cmpuint (20 + (gsize) len, <=, size);
    text = g_strndup ((const char *) data + 20, len);
  }
  g_assert_true (g_utf8_validate (text, -1, NULL));
  return parse_json (text);
}

static JsonObject *
mshed_extras (JsonObject *object)
{
  JsonObject *extras;

  if (!json_object_has_member (object, "extras"))
    return NULL;
  extras = json_object_get_object_member (object, "extras");
  return json_object_has_member (extras, "mshed") ?
         json_object_get_object_member (extras, "mshed") : NULL;
}

static guint
mesh_triangles (JsonObject *root,
                gint64      mesh)
{
  JsonArray *meshes = json_object_get_array_member (root, "meshes");
  JsonArray *accessors = json_object_get_array_member (root, "accessors");
  JsonArray *primitives;
  guint total = 0;

  if (mesh < 0)
    return 0;
  primitives = json_object_get_array_member (json_array_get_object_element (meshes, mesh),
                                             "primitives");
  for (guint p = 0; p < json_array_get_length (primitives); p++)
    {
      JsonObject *prim = json_array_get_object_element (primitives, p);
      JsonObject *acc = json_array_get_object_element (
        accessors, json_object_get_int_member (prim, "indices"));
      JsonObject *attrs = json_object_get_object_member (prim, "attributes");
      JsonObject *pos = json_array_get_object_element (
        accessors, json_object_get_int_member (attrs, "POSITION"));
      gint64 count = json_object_get_int_member (acc, "count");

      g_assert_true (json_object_has_member (pos, "min"));
      g_assert_true (json_object_has_member (pos, "max"));
      g_assert_cmpint (count % 3, ==, 0);
      total += count / 3;
    }
  return total;
}

/* The buffer of a .gltf (its data: URI); NULL for a .glb. */
static GBytes *
gltf_buffer (JsonObject *root)
{
  JsonObject *buffer = json_array_get_object_element (
    json_object_get_array_member (root, "buffers"), 0);
  const char *uri;
  const char *prefix = "data:application/octet-stream;base64,";
  gsize len = 0;
  guchar *data;

  if (!json_object_has_member (buffer, "uri"))
    return NULL;
  uri = json_object_get_string_member (buffer, "uri");
  g_assert_true (g_str_has_prefix (uri, prefix));
  data = g_base64_decode (uri + strlen (prefix), &len);
  g_assert_cmpuint (len, ==, json_object_get_int_member (buffer, "byteLength"));
  return g_bytes_new_take (data, len);
}

/* Every NORMAL of the .gltf is unit length as stored (float32), closer than the validator
 * demands: the Res4 bytes decode to lengths up to about 0.4 % off. */
static void
check_unit_normals (JsonObject *root)
{
  g_autoptr(GBytes) buffer = gltf_buffer (root);
  JsonArray *meshes = json_object_get_array_member (root, "meshes");
  JsonArray *accessors = json_object_get_array_member (root, "accessors");
  JsonArray *views = json_object_get_array_member (root, "bufferViews");
  const guint8 *data;
  gsize size;
  guint checked = 0;

  if (buffer == NULL || meshes == NULL)
    return;
  data = g_bytes_get_data (buffer, &size);
  for (guint m = 0; m < json_array_get_length (meshes); m++)
    {
      JsonObject *prim = json_array_get_object_element (json_object_get_array_member (
        json_array_get_object_element (meshes, m), "primitives"), 0);
      JsonObject *attrs = json_object_get_object_member (prim, "attributes");
      JsonObject *acc, *view;
      gint64 offset, count;

      if (!json_object_has_member (attrs, "NORMAL"))
        continue;
      acc = json_array_get_object_element (accessors,
                                           json_object_get_int_member (attrs, "NORMAL"));
      view = json_array_get_object_element (views,
                                            json_object_get_int_member (acc, "bufferView"));
      offset = json_object_get_int_member (view, "byteOffset");
      count = json_object_get_int_member (acc, "count");
      g_assert_cmpint (json_object_get_int_member (acc, "componentType"), ==, 5126);
      g_assert_cmpuint (offset + 12 * count, <=, size);
      for (gint64 i = 0; i < count; i++)
        {
          float v[3];

          memcpy (v, data + offset + 12 * i, sizeof v);
          g_assert_cmpfloat_with_epsilon (v[0] * v[0] + v[1] * v[1] + v[2] * v[2], 1.0f, 1e-5);
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 0);
}

static gint64
node_mesh (JsonObject *node)
{
  return json_object_has_member (node, "mesh") ? json_object_get_int_member (node, "mesh") : -1;
}

/* The rest pose: node @i's translation and rotation are its fallback key Res8[hdr3], the
 * stored quaternion (x, y, z, w) / 32767 made unit length. */
static void
check_rest_pose (MshedModel *model,
                 guint       i,
                 JsonObject *node)
{
  JsonArray *t = json_object_get_array_member (node, "translation");
  JsonArray *r = json_object_get_array_member (node, "rotation");
  MshedNode rec;
  MshedKey key;
  double q[4], len = 0;

  g_assert_true (mshed_model_get_node (model, i, &rec));
  g_assert_true (mshed_model_get_key (model, rec.hdr3, &key));
  for (guint k = 0; k < 3; k++)
    g_assert_cmpfloat (json_array_get_double_element (t, k), ==, key.pos[k]);
  for (guint k = 0; k < 4; k++)
    {
      q[k] = key.q[k] / 32767.0;
      len += q[k] * q[k];
    }
  g_assert_cmpfloat (len, >, 0);
  for (guint k = 0; k < 4; k++)
    g_assert_cmpfloat_with_epsilon (json_array_get_double_element (r, k), q[k] / sqrt (len),
                                    1e-6);
}

/* Channels: a translation and a rotation for every node with a frame map (the generator
 * writes canonical tracks, docs/msh.md §7.7), with as many times as the track has keys. */
static void
check_animation (MshedModel *model,
                 JsonObject *root)
{
  guint n_msh = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  guint animated = 0, channels = 0;
  JsonArray *accessors = json_object_get_array_member (root, "accessors");

  for (guint i = 0; i < n_msh && mshed_model_has_node_records (model); i++)
    {
      MshedNode rec;

      g_assert_true (mshed_model_get_node (model, i, &rec));
      animated += rec.hdr2 != 0xFFFF;
    }
  if (json_object_has_member (root, "animations"))
    {
      JsonObject *anim = json_array_get_object_element (
        json_object_get_array_member (root, "animations"), 0);
      JsonArray *ch = json_object_get_array_member (anim, "channels");
      JsonArray *samplers = json_object_get_array_member (anim, "samplers");

      channels = json_array_get_length (ch);
      for (guint c = 0; c < channels; c++)
        {
          JsonObject *target = json_object_get_object_member (
            json_array_get_object_element (ch, c), "target");
          JsonObject *sampler = json_array_get_object_element (
            samplers, json_object_get_int_member (json_array_get_object_element (ch, c),
                                                  "sampler"));
          gint64 node = json_object_get_int_member (target, "node");
          MshedNode rec, prev;
          guint start = 0;
          JsonObject *input = json_array_get_object_element (
            accessors, json_object_get_int_member (sampler, "input"));

          g_assert_true (mshed_model_get_node (model, node, &rec));
          g_assert_cmpuint (rec.hdr2, !=, 0xFFFF);
          if (node > 0 && mshed_model_get_node (model, node - 1, &prev))
            start = prev.hdr3 + 1u;
          g_assert_cmpint (json_object_get_int_member (input, "count"), ==,
                           rec.hdr3 - start + 1);
        }
    }
  g_assert_cmpuint (channels, ==, 2 * animated);
}

/* Checks one export against the model: nodes, names, parents, triangles per cell. */
static void
check_gltf (MshedModel *model,
            const char *name,
            guint       lod,
            guint       group,
            gboolean    rest)
{
  g_autoptr(JsonNode) json = read_gltf_json (name);
  JsonObject *root = json_node_get_object (json);
  JsonArray *nodes = json_object_get_array_member (root, "nodes");
  JsonArray *views = json_object_get_array_member (root, "bufferViews");
  guint n_msh = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  guint n = json_array_get_length (nodes);
  g_autofree gint64 *parent = g_new (gint64, n);
  gboolean legacy = !mshed_model_has_node_records (model);
  guint variants = 0, all_batches = 0;

  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "asset"),
                                                  "version"), ==, "2.0");
  for (guint i = 0; i < json_array_get_length (views); i++)
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (views, i),
                                                 "byteOffset") % 4, ==, 0);
  for (guint i = 0; i < n; i++)
    parent[i] = -1;
  for (guint i = 0; i < n; i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);
      JsonArray *children;

      if (!json_object_has_member (node, "children"))
        continue;
      children = json_object_get_array_member (node, "children");
      for (guint c = 0; c < json_array_get_length (children); c++)
        {
          gint64 child = json_array_get_int_element (children, c);

          g_assert_cmpint (parent[child], ==, -1);
          parent[child] = i;
        }
    }
  g_assert_cmpuint (n, >=, n_msh);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);
      JsonObject *extras = mshed_extras (node);
      const char *gltf_name = json_object_get_string_member (node, "name");

      g_assert_nonnull (extras);
      if (i < n_msh)
        {
          g_autofree char *expected = expected_node_name (model, i);
          MshedNode rec;

          g_assert_cmpstr (gltf_name, ==, expected);
          g_assert_cmpint (json_object_get_int_member (extras, "node"), ==, i);
          if (legacy)
            {
              g_assert_cmpint (parent[i], ==, -1);
              g_assert_cmpint (node_mesh (node), ==, -1);
              continue;
            }
          g_assert_true (mshed_model_get_node (model, i, &rec));
          g_assert_cmpint (parent[i], ==, rec.hdr1 == 0xFFFF ? -1 : (gint64) rec.hdr1);
          g_assert_cmpuint (mesh_triangles (root, node_mesh (node)), ==,
                            cell_triangles (model, i, lod, group));
          if (rest)
            check_rest_pose (model, i, node);
        }
      else if (json_object_has_member (extras, "allBatches"))
        {
          g_assert_true (legacy);
          g_assert_cmpstr (gltf_name, ==, "all batches");
          g_assert_cmpuint (mesh_triangles (root, node_mesh (node)), ==, all_triangles (model));
          all_batches++;
        }
      else
        {
          gint64 owner = json_object_get_int_member (extras, "node");
          gint64 l = json_object_get_int_member (extras, "lod");
          gint64 g = json_object_get_int_member (extras, "group");
          g_autofree char *expected = g_strdup_printf ("node %" G_GINT64_FORMAT " LOD%"
                                                       G_GINT64_FORMAT " group%"
                                                       G_GINT64_FORMAT, owner, l, g);

          g_assert_cmpstr (gltf_name, ==, expected);
          g_assert_cmpint (parent[i], ==, owner);
          g_assert_false (l == lod && g == group);
          g_assert_cmpuint (mesh_triangles (root, node_mesh (node)), ==,
                            cell_triangles (model, owner, l, g));
          variants++;
        }
    }
  /* every other non-empty cell is there, once */
  if (!legacy)
    {
      guint expected = 0;

      for (guint i = 0; i < n_msh; i++)
        for (guint c = 0; c < 15; c++)
          if (c != lod * 5 + group && cell_triangles (model, i, c / 5, c % 5) > 0)
            expected++;
      g_assert_cmpuint (variants, ==, expected);
    }
  g_assert_cmpuint (all_batches, ==, legacy ? 1 : 0);
  check_unit_normals (root);
  check_animation (model, root);
  g_assert_cmpuint (n, ==, n_msh + variants + all_batches);
}

static void
export_one (const Shape *shape,
            const char  *suffix,
            const char  *const *extra)
{
  g_autoptr(MshedModel) model = shape_model (shape);
  g_autofree char *in = g_strdup_printf ("%s.msh", shape->name);
  g_autofree char *out = g_strdup_printf ("%s%s", shape->name, suffix);
  const char *args[16] = { "export", in, "-o", out };
  guint n = 4, lod = 0, group = 0;
  gboolean rest = TRUE;
  g_auto(Run) run = { 0 };

  for (; extra && *extra; extra++)
    {
      if (strcmp (*extra, "--lod") == 0)
        lod = (guint) g_ascii_strtoull (extra[1], NULL, 10);
      rest &= strcmp (*extra, "--frame") != 0;
      args[n++] = *extra;
    }
  args[n] = NULL;
  run_cli_argv (&run, args);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  check_gltf (model, out, lod, group, rest);
  g_ptr_array_add (exported, path_in_tmp (out));
}

static void
test_export_shapes (void)
{
  static const char *const lod1[] = { "--lod", "1", "--group", "0", NULL };
  static const char *const frame[] = { "--frame", "3", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_test_message ("%s", shapes[i].name);
      export_one (&shapes[i], ".glb", NULL);
      export_one (&shapes[i], ".gltf", NULL);
    }
  export_one (&shapes[3], "-lod1.glb", lod1);
  export_one (&shapes[1], "-frame3.gltf", frame);
}

static void
test_export_usage (void)
{
  g_autoptr(MshedModel) model = shape_model (&shapes[0]);
  g_auto(Run) run = { 0 };

  /* .obj is test-cli-obj's; --level belongs to it */
  run_cli (&run, "export", "small.msh", "-o", "small.glb", "--level", "0", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "OBJ"));
  g_assert_false (tmp_file_exists ("small.glb"));
  run_clear (&run);
  run_cli (&run, "export", "small.msh", "-o", "small.fbx", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, ".glb"));
  run_clear (&run);
  run_cli (&run, "export", "small.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
  run_cli (&run, "export", "small.msh", "-o", "x.glb", "--lod", "3", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_clear (&run);
  run_cli (&run, "export", "missing.msh", "-o", "x.glb", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_false (tmp_file_exists ("x.glb"));
  run_clear (&run);
  run_cli (&run, "export", g_getenv ("MSHED_SAMPLE_ARCHIVE"), "-o", "x.glb", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "ARCHIVE:ENTRY"));
  g_assert_false (tmp_file_exists ("x.glb"));
}

/* Names with the characters JSON must escape come out as they are. */
static void
test_export_escaping (void)
{
  static const char *const texts[] = { "q\"b\\c/Я", "t\001\037\177\n\r\t\b\f", "Башня" };
  g_autoptr(MshedModel) model = shape_model (&shapes[0]);
  g_auto(Run) run = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GString) json = g_string_new ("[");
      g_autoptr(JsonNode) node = NULL;

      mshed_json_append_string (json, texts[i]);
      g_string_append_c (json, ']');
      node = parse_json (json->str);
      g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 0), ==,
                       texts[i]);
    }
  /* end to end: a renamed node (Windows-1251 has the quote and the backslash) */
  run_cli (&run, "edit", "small.msh", "--rename-node", "0=q\"b\\c/Я", "-o", "quoted.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  run_cli (&run, "export", "quoted.msh", "-o", "quoted.gltf", NULL);
  g_assert_cmpint (run.status, ==, 0);
  {
    g_autoptr(JsonNode) json = read_gltf_json ("quoted.gltf");
    JsonObject *node0 = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (json), "nodes"), 0);

    g_assert_cmpstr (json_object_get_string_member (node0, "name"), ==, texts[0]);
  }
}

/* The external judges --------------------------------------------------------------------- */

/* Runs @argv; FALSE when the program is not there. */
static gboolean
spawn (const char *const *argv,
       char             **out,
       int               *status)
{
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, out, NULL, &wait_status, &error))
    {
      g_test_message ("%s: %s", argv[0], error->message);
      return FALSE;
    }
  *status = g_spawn_check_wait_status (wait_status, NULL) ? 0 :
            WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
  return TRUE;
}

static void
test_export_validator (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "gltf", "validate.mjs", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  int status = 0;

  g_assert_cmpuint (exported->len, >, 0);
  g_ptr_array_add (argv, (char *) "node");
  g_ptr_array_add (argv, script);
  for (guint i = 0; i < exported->len; i++)
    g_ptr_array_add (argv, exported->pdata[i]);
  g_ptr_array_add (argv, NULL);
  if (!spawn ((const char *const *) argv->pdata, &out, &status) || status == 2)
    {
      mshed_test_skip ("the glTF-Validator is not installed (./mshed-dev deps installs node "
                       "and tests/gltf/package.json)");
      return;
    }
  g_test_message ("%s", out);
  g_assert_cmpint (status, ==, 0);
  /* one line per file, each with no error and no warning */
  for (guint i = 0; i < exported->len; i++)
    {
      g_autofree char *line = g_strdup_printf ("%s: 0 errors, 0 warnings,",
                                               (char *) exported->pdata[i]);

      g_assert_nonnull (strstr (out, line));
    }
}

/* "Name" or "Name.001": Blender makes object names unique with a numeric suffix. */
static gboolean
blender_name_matches (const char *seen,
                      const char *expected)
{
  gsize len = strlen (expected);

  if (strncmp (seen, expected, len) != 0)
    return FALSE;
  seen += len;
  return *seen == '\0' ||
         (seen[0] == '.' && g_ascii_isdigit (seen[1]) && g_ascii_isdigit (seen[2]) &&
          g_ascii_isdigit (seen[3]) && seen[4] == '\0');
}

/* JSON equality where true equals 1: Blender 3.4 keeps a boolean custom property as an int. */
static gboolean
loose_equal (JsonNode *a,
             JsonNode *b)
{
  if (JSON_NODE_HOLDS_VALUE (a) && JSON_NODE_HOLDS_VALUE (b) &&
      json_node_get_value_type (a) != json_node_get_value_type (b))
    {
      GType ta = json_node_get_value_type (a), tb = json_node_get_value_type (b);

      if ((ta == G_TYPE_BOOLEAN || ta == G_TYPE_INT64) &&
          (tb == G_TYPE_BOOLEAN || tb == G_TYPE_INT64))
        return (ta == G_TYPE_BOOLEAN ? json_node_get_boolean (a) : json_node_get_int (a)) ==
               (tb == G_TYPE_BOOLEAN ? json_node_get_boolean (b) : json_node_get_int (b));
      return FALSE;
    }
  if (JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b))
    {
      JsonObject *oa = json_node_get_object (a), *ob = json_node_get_object (b);
      g_autoptr(GList) members = json_object_get_members (oa);

      if (json_object_get_size (oa) != json_object_get_size (ob))
        return FALSE;
      for (GList *m = members; m; m = m->next)
        if (!json_object_has_member (ob, m->data) ||
            !loose_equal (json_object_get_member (oa, m->data),
                          json_object_get_member (ob, m->data)))
          return FALSE;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_ARRAY (a) && JSON_NODE_HOLDS_ARRAY (b))
    {
      JsonArray *xa = json_node_get_array (a), *xb = json_node_get_array (b);

      if (json_array_get_length (xa) != json_array_get_length (xb))
        return FALSE;
      for (guint i = 0; i < json_array_get_length (xa); i++)
        if (!loose_equal (json_array_get_element (xa, i), json_array_get_element (xb, i)))
          return FALSE;
      return TRUE;
    }
  return json_node_equal (a, b);
}

/* What Blender saw of one file against what the glTF says (itself checked against the MSH
 * by check_gltf): every glTF node an object of the same name, parent and triangles. */
static void
check_blender_file (JsonObject *seen)
{
  const char *file = json_object_get_string_member (seen, "file");
  JsonArray *objects = json_object_get_array_member (seen, "objects");
  g_autofree char *base = g_path_get_basename (file);
  g_autoptr(JsonNode) json = read_gltf_json (base);
  JsonObject *root = json_node_get_object (json);
  JsonArray *nodes = json_object_get_array_member (root, "nodes");
  guint n = json_array_get_length (nodes);
  g_autofree const char **blender_name = g_new0 (const char *, n);
  g_autofree gint64 *parent = g_new (gint64, n);

  g_test_message ("Blender: %s", base);
  g_assert_cmpuint (json_array_get_length (objects), ==, n);
  for (guint i = 0; i < n; i++)
    parent[i] = -1;
  for (guint i = 0; i < n; i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);

      if (json_object_has_member (node, "children"))
        {
          JsonArray *children = json_object_get_array_member (node, "children");

          for (guint c = 0; c < json_array_get_length (children); c++)
            parent[json_array_get_int_element (children, c)] = i;
        }
    }
  /* glTF node i <-> the object whose "mshed" property is node i's extras */
  for (guint o = 0; o < n; o++)
    {
      JsonObject *obj = json_array_get_object_element (objects, o);
      JsonNode *props = json_object_get_member (obj, "mshed");
      guint match = n;

      g_assert_true (JSON_NODE_HOLDS_OBJECT (props));
      for (guint i = 0; i < n && match == n; i++)
        if (loose_equal (props, json_object_get_member (
                               json_object_get_object_member (
                                 json_array_get_object_element (nodes, i), "extras"), "mshed")))
          match = i;
      g_assert_cmpuint (match, <, n);
      g_assert_null (blender_name[match]);
      blender_name[match] = json_object_get_string_member (obj, "name");
    }
  for (guint o = 0; o < n; o++)
    {
      JsonObject *obj = json_array_get_object_element (objects, o);
      const char *name = json_object_get_string_member (obj, "name");
      guint i = 0;
      JsonObject *node;

      while (g_strcmp0 (blender_name[i], name) != 0)
        i++;
      node = json_array_get_object_element (nodes, i);
      g_assert_true (blender_name_matches (name, json_object_get_string_member (node, "name")));
      if (parent[i] < 0)
        g_assert_true (json_object_get_null_member (obj, "parent"));
      else
        g_assert_cmpstr (json_object_get_string_member (obj, "parent"), ==,
                         blender_name[parent[i]]);
      g_assert_cmpint (json_object_get_int_member (obj, "triangles"), ==,
                       node_mesh (node) < 0 ? -1 : (gint64) mesh_triangles (root,
                                                                           node_mesh (node)));
    }
}

static void
test_export_blender (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "gltf", "blender-import.py",
                                                   NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  guint files = 0;
  int status = 0;
  const char *head[] = { "blender", "--background", "--factory-startup", "--python-exit-code",
                         "1", "--python", script, "--" };

  g_assert_cmpuint (exported->len, >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (head); i++)
    g_ptr_array_add (argv, (char *) head[i]);
  for (guint i = 0; i < exported->len; i++)
    g_ptr_array_add (argv, exported->pdata[i]);
  g_ptr_array_add (argv, NULL);
  if (!spawn ((const char *const *) argv->pdata, &out, &status))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  g_assert_cmpint (status, ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr(JsonNode) seen = NULL;

      g_assert_false (g_str_has_prefix (lines[i], "MSHED-BLENDER-ERROR"));
      if (!g_str_has_prefix (lines[i], "MSHED-BLENDER "))
        continue;
      seen = parse_json (lines[i] + strlen ("MSHED-BLENDER "));
      check_blender_file (json_node_get_object (seen));
      files++;
    }
  g_assert_cmpuint (files, ==, exported->len);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 1;
  exported = g_ptr_array_new_with_free_func (g_free);
  run_set_timeout (120);
  g_test_add_func ("/export/usage", test_export_usage);
  g_test_add_func ("/export/escaping", test_export_escaping);
  /* the judges read what /export/shapes wrote: keep this order */
  g_test_add_func ("/export/shapes", test_export_shapes);
  g_test_add_func ("/export/validator", test_export_validator);
  g_test_add_func ("/export/blender", test_export_blender);
  status = g_test_run ();
  g_ptr_array_unref (exported);
  cli_test_finish (status);
  return status;
}
