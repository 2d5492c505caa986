/* test-cli-gltf-dfm-groups.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Face groups of a DFM through glTF (docs/gltf.md §8.3), run through mshed-cli as a user runs
 * it: a new material given to two triangles in the .gltf comes back as a new face group of
 * exactly those triangles and a new material in the library; triangles given another group's
 * material move to that group; a group whose triangles are all gone is removed and the next
 * one renumbered; Blender 3.4 adding a material slot for one face comes back as exactly that.
 * Each import is one undo step that restores the bytes.
 */
#include "config.h"

#include <string.h>

#include "mshed-dfm.h"
#include "mshed-document.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-read.h"
#include "test-cli-util.h"
#include "test-require.h"

static MshedDfm *
open_dfm (const char *name)
{
  g_autoptr(MshedUtf) utf = read_utf_tree (name, MSHED_MODE_STRICT);
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_dfm_new (utf, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  return dfm;
}

/* The triangle (a, b, c) turned to start at its smallest corner, the winding kept: how the
 * import writes a triangle it adds to a group (docs/gltf.md §8.3). */
static void
turn (const guint16 *e,
      guint16       *out)
{
  guint k = e[1] < e[0] && e[1] <= e[2] ? 1 : e[2] < e[0] && e[2] < e[1] ? 2 : 0;

  for (guint c = 0; c < 3; c++)
    out[c] = e[(k + c) % 3];
}

/* The first @n triangles of @from appended to @to, each turned. */
static void
append_turned (GArray *to,
               GArray *from,
               guint   n)
{
  for (guint k = 0; k < n; k++)
    {
      guint16 e[3];

      turn (&g_array_index (from, guint16, 3 * k), e);
      g_array_append_vals (to, e, 3);
    }
}

/* Group @g of Mesh0: its triangles as mshed_dfm_dup_triangles gives them. */
static GArray *
triangles (MshedDfm *dfm,
           guint     g)
{
  gsize n = 0;
  g_autofree guint16 *t = mshed_dfm_dup_triangles (dfm, 0, g, &n);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint16));

  g_array_append_vals (out, t, (guint) n * 3);
  return out;
}

static void
assert_triangles (MshedDfm *dfm,
                  guint     g,
                  GArray   *want)
{
  g_autoptr(GArray) got = triangles (dfm, g);

  g_assert_cmpmem (got->data, got->len * 2, want->data, want->len * 2);
}

static guint32
u32_at (MshedUtf   *utf,
        const char *path)
{
  MshedUtfNode *node = mshed_utf_lookup (utf, path);
  gsize size = 0;
  const guint8 *data = node ? mshed_utf_node_peek_data (node, &size) : NULL;

  g_assert_cmpuint (size, ==, 4);
  return (guint32) data[0] | (guint32) data[1] << 8 | (guint32) data[2] << 16 |
         (guint32) data[3] << 24;
}

/* Every file of @before is in @after with the same bytes, except the paths in @changed
 * (NULL-terminated), which must differ, and those under @gone (nullable), which are not
 * compared; every file of @after is in @before, except those under @new (nullable). */
static void
assert_only_changed (const char         *before,
                     const char         *after,
                     const char *const  *changed,
                     const char         *gone,
                     const char *const  *new)
{
  g_autoptr(MshedUtf) a = read_utf_tree (before, MSHED_MODE_STRICT);
  g_autoptr(MshedUtf) b = read_utf_tree (after, MSHED_MODE_STRICT);
  guint n_changed = 0;

  for (MshedUtfNode *n = mshed_utf_get_root (a); n; n = mshed_utf_node_next_preorder (n, NULL))
    {
      g_autofree char *path = mshed_utf_node_dup_path (n);
      MshedUtfNode *m = mshed_utf_lookup (b, path);
      gboolean differs;

      if (mshed_utf_node_is_directory (n) || (gone && g_str_has_prefix (path, gone)))
        continue;
      g_assert_nonnull (m);
      differs = !g_bytes_equal (mshed_utf_node_get_data (n), mshed_utf_node_get_data (m));
      g_test_message ("%s %s", differs ? "changed" : "same", path);
      g_assert_cmpint (differs, ==, changed && g_strv_contains (changed, path));
      n_changed += differs;
    }
  g_assert_cmpuint (n_changed, ==, changed ? g_strv_length ((char **) changed) : 0);
  for (MshedUtfNode *n = mshed_utf_get_root (b); n; n = mshed_utf_node_next_preorder (n, NULL))
    {
      g_autofree char *path = mshed_utf_node_dup_path (n);
      gboolean is_new = FALSE;

      for (guint k = 0; new && new[k]; k++)
        is_new |= g_str_has_prefix (path, new[k]);
      if (!is_new)
        g_assert_nonnull (mshed_utf_lookup (a, path));
    }
}

/* JSON edits of hand.gltf ------------------------------------------------------------------ */

static JsonArray *
member_array (JsonObject *o,
              const char *name)
{
  return json_object_get_array_member (o, name);
}

static JsonArray *
level0_primitives (JsonObject *root)
{
  return member_array (json_array_get_object_element (member_array (root, "meshes"), 0),
                       "primitives");
}

/* json_node_copy shares the objects inside: a copy of its own */
static JsonNode *
deep_copy (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, FALSE);

  return parse_json (text);
}

/* A new primitive of level 0 draws the first @n triangles of primitive 0 (the same index
 * bytes, through a new accessor) with material @material; primitive 0 keeps the rest. */
static void
split_first_triangles (JsonObject *root,
                       guint       n,
                       gint64      material)
{
  JsonArray *accessors = member_array (root, "accessors");
  JsonArray *prims = level0_primitives (root);
  JsonObject *p0 = json_array_get_object_element (prims, 0);
  guint index = (guint) json_object_get_int_member (p0, "indices");
  JsonObject *acc = json_array_get_object_element (accessors, index);
  JsonNode *acc_copy = deep_copy (json_array_get_element (accessors, index));
  JsonNode *prim_copy = deep_copy (json_array_get_element (prims, 0));
  gint64 offset = json_object_get_int_member_with_default (acc, "byteOffset", 0);
  gint64 count = json_object_get_int_member (acc, "count");

  json_object_set_int_member (json_node_get_object (acc_copy), "count", 3 * n);
  json_array_add_element (accessors, acc_copy);
  json_object_set_int_member (acc, "byteOffset", offset + 6 * n);
  json_object_set_int_member (acc, "count", count - 3 * n);
  json_object_set_int_member (json_node_get_object (prim_copy), "indices",
                              json_array_get_length (accessors) - 1);
  json_object_set_int_member (json_node_get_object (prim_copy), "material", material);
  json_object_remove_member (json_node_get_object (prim_copy), "extras");
  json_array_add_element (prims, prim_copy);
}

/* A new material @name of base colour (0.25, 0.5, 0.75); returns its index. */
static gint64
add_material (JsonObject *root,
              const char *name)
{
  JsonArray *materials = member_array (root, "materials");
  g_autofree char *text = g_strdup_printf ("{\"name\":\"%s\",\"pbrMetallicRoughness\":"
                                           "{\"baseColorFactor\":[0.25,0.5,0.75,1]}}", name);

  json_array_add_element (materials, parse_json (text));
  return json_array_get_length (materials) - 1;
}

static void
write_json (JsonNode   *json,
            const char *name)
{
  g_autofree char *out = json_to_string (json, FALSE);

  g_assert_true (write_text (name, out));
}

static void
prepare (void)
{
  run_cli_generate ("--dfm hand --seed 7", "hand.dfm");
  run_cli_ok ("export", "-q", "hand.dfm", "-o", "hand.gltf", NULL);
  run_cli_ok ("export", "-q", "hand.dfm", "-o", "hand.glb", NULL);
}

/* Checks ----------------------------------------------------------------------------------- */

/* @name: Material_name of Mesh0's group @g. */
static void
assert_group_material (MshedDfm   *dfm,
                       guint       g,
                       const char *name)
{
  MshedDfmGroup group;

  g_assert_true (mshed_dfm_get_group (dfm, 0, g, &group));
  g_assert_cmpstr (group.material_name, ==, name);
  g_assert_true (group.strip);
}

/* The new-material edit of test_new_material came back in @name: groups 0 and 1 as they
 * were but for the two triangles, Group2 of NewPaint with exactly them, NewPaint in the
 * library as DcDt with Dc (0.25, 0.5, 0.75). */
static void
assert_new_material (const char *name)
{
  g_autoptr(MshedDfm) a = open_dfm ("hand.dfm");
  g_autoptr(MshedDfm) b = open_dfm (name);
  g_autoptr(MshedUtf) utf = read_utf_tree (name, MSHED_MODE_STRICT);
  g_autoptr(GArray) t0 = triangles (a, 0);
  g_autoptr(GArray) rest = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GArray) moved = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GArray) t1 = triangles (a, 1);
  const char *changed[] = { "\\MultiLevel\\Mesh0\\Face_groups\\Count",
                            "\\MultiLevel\\Mesh0\\Face_groups\\Group0\\Tristrip_indices",
                            "\\Material library\\Material count", NULL };
  const char *new[] = { "\\MultiLevel\\Mesh0\\Face_groups\\Group2",
                        "\\Material library\\NewPaint", NULL };
  MshedDfmLevel info;
  MshedDfmMaterial material;
  gint m;

  g_assert_true (mshed_dfm_get_level (b, 0, &info));
  g_assert_cmpuint (info.n_groups, ==, 3);
  g_assert_cmpuint (u32_at (utf, "\\MultiLevel\\Mesh0\\Face_groups\\Count"), ==, 3);
  assert_group_material (b, 0, "hand_skin00");
  assert_group_material (b, 1, "hand_skin01");
  assert_group_material (b, 2, "NewPaint");
  g_array_append_vals (rest, &g_array_index (t0, guint16, 6), t0->len - 6);
  assert_triangles (b, 0, rest);
  assert_triangles (b, 1, t1);
  append_turned (moved, t0, 2);
  assert_triangles (b, 2, moved);
  g_assert_cmpuint (mshed_dfm_get_n_materials (b), ==, mshed_dfm_get_n_materials (a) + 1);
  g_assert_cmpuint (u32_at (utf, "\\Material library\\Material count"), ==,
                    mshed_dfm_get_n_materials (a) + 1);
  m = mshed_dfm_find_material (b, "NewPaint");
  g_assert_cmpint (m, ==, (gint) mshed_dfm_get_n_materials (a));
  g_assert_true (mshed_dfm_get_material (b, (guint) m, &material));
  g_assert_cmpstr (material.type, ==, "DcDt");
  g_assert_true (material.has_dc);
  g_assert_true (material.dc[0] == 0.25f && material.dc[1] == 0.5f && material.dc[2] == 0.75f);
  g_assert_null (material.dt_name);
  assert_only_changed ("hand.dfm", name, changed, NULL, new);
  assert_validates_clean (name);
}

/* Tests -------------------------------------------------------------------------------------- */

/* A new material on the first two triangles of group 0, by a JSON edit. */
static void
test_new_material (void)
{
  g_autoptr(JsonNode) json = NULL;
  g_auto(Run) run = { 0 };

  json = read_json ("hand.gltf");
  split_first_triangles (json_node_get_object (json), 2,
                         add_material (json_node_get_object (json), "NewPaint"));
  write_json (json, "newmat.gltf");
  run_cli (&run, "import", "newmat.gltf", "--into", "hand.dfm", "-o", "newmat.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "1 face groups added, 0 removed; 1 materials added"));
  assert_new_material ("newmat.dfm");
  /* without --into: into the DFM the export carries */
  run_cli_ok ("import", "-q", "newmat.gltf", "-o", "newmat2.dfm", NULL);
  assert_new_material ("newmat2.dfm");
}

/* The first two triangles of group 0 given group 1's material move to the end of group 1. */
static void
test_moved (void)
{
  g_autoptr(JsonNode) json = read_json ("hand.gltf");
  g_autoptr(MshedDfm) a = open_dfm ("hand.dfm");
  g_autoptr(MshedDfm) b = NULL;
  g_autoptr(GArray) t0 = triangles (a, 0);
  g_autoptr(GArray) t1 = triangles (a, 1);
  g_autoptr(GArray) rest = g_array_new (FALSE, FALSE, sizeof (guint16));
  const char *changed[] = { "\\MultiLevel\\Mesh0\\Face_groups\\Group0\\Tristrip_indices",
                            "\\MultiLevel\\Mesh0\\Face_groups\\Group1\\Tristrip_indices",
                            NULL };

  split_first_triangles (json_node_get_object (json), 2, 1);
  write_json (json, "moved.gltf");
  run_cli_ok ("import", "-q", "moved.gltf", "--into", "hand.dfm", "-o", "moved.dfm", NULL);
  assert_validates_clean ("moved.dfm");
  assert_only_changed ("hand.dfm", "moved.dfm", changed, NULL, NULL);
  b = open_dfm ("moved.dfm");
  assert_group_material (b, 0, "hand_skin00");
  assert_group_material (b, 1, "hand_skin01");
  g_array_append_vals (rest, &g_array_index (t0, guint16, 6), t0->len - 6);
  assert_triangles (b, 0, rest);
  append_turned (t1, t0, 2);
  assert_triangles (b, 1, t1);
}

/* Group 0's primitive removed (every face of its material deleted): the group is removed and
 * Group1 becomes Group0 with its bytes; Count follows. */
static void
test_emptied (void)
{
  g_autoptr(JsonNode) json = read_json ("hand.gltf");
  g_autoptr(MshedUtf) a = read_utf_tree ("hand.dfm", MSHED_MODE_STRICT);
  g_autoptr(MshedUtf) b = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  const char *changed[] = { "\\MultiLevel\\Mesh0\\Face_groups\\Count", NULL };
  const char *files[] = { "Material_name", "Tristrip_indices" };
  MshedDfmLevel info;

  json_array_remove_element (level0_primitives (json_node_get_object (json)), 0);
  write_json (json, "emptied.gltf");
  run_cli_ok ("import", "-q", "emptied.gltf", "--into", "hand.dfm", "-o", "emptied.dfm", NULL);
  assert_validates_clean ("emptied.dfm");
  b = read_utf_tree ("emptied.dfm", MSHED_MODE_STRICT);
  dfm = open_dfm ("emptied.dfm");
  g_assert_true (mshed_dfm_get_level (dfm, 0, &info));
  g_assert_cmpuint (info.n_groups, ==, 1);
  g_assert_cmpuint (u32_at (b, "\\MultiLevel\\Mesh0\\Face_groups\\Count"), ==, 1);
  g_assert_null (mshed_utf_lookup (b, "\\MultiLevel\\Mesh0\\Face_groups\\Group1"));
  for (guint k = 0; k < G_N_ELEMENTS (files); k++)
    {
      g_autofree char *was = g_strdup_printf ("\\MultiLevel\\Mesh0\\Face_groups\\Group1\\%s",
                                              files[k]);
      g_autofree char *now = g_strdup_printf ("\\MultiLevel\\Mesh0\\Face_groups\\Group0\\%s",
                                              files[k]);

      g_assert_true (g_bytes_equal (mshed_utf_node_get_data (mshed_utf_lookup (a, was)),
                                    mshed_utf_node_get_data (mshed_utf_lookup (b, now))));
    }
  assert_only_changed ("hand.dfm", "emptied.dfm", changed,
                       "\\MultiLevel\\Mesh0\\Face_groups\\Group", NULL);
}

/* Each import is one undo step "Import glTF"; undo gives back the bytes, redo the edit. */
static void
test_undo (void)
{
  static const struct {
    const char *gltf;
    guint       groups, added, removed, materials_added;
  } cases[] = {
    { "newmat.gltf", 1, 1, 0, 1 },
    { "moved.gltf", 2, 0, 0, 0 },
    { "emptied.gltf", 0, 0, 1, 0 },
  };
  g_autofree char *path = path_in_tmp ("hand.dfm");
  g_autoptr(GBytes) before = read_file ("hand.dfm");

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDocument) doc = mshed_document_open (path, MSHED_MODE_STRICT, &error);
      g_autofree char *gltf_path = path_in_tmp (cases[c].gltf);
      g_autoptr(MshedGltf) gltf = NULL;
      MshedGltfDfmImportStats stats = { 0 };

      g_assert_no_error (error);
      gltf = mshed_gltf_read_file_skinned (gltf_path, &error);
      g_assert_no_error (error);
      g_assert_true (mshed_gltf_dfm_import_into (doc, gltf, NULL, &stats, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (stats.groups, ==, cases[c].groups);
      g_assert_cmpuint (stats.groups_added, ==, cases[c].added);
      g_assert_cmpuint (stats.groups_removed, ==, cases[c].removed);
      g_assert_cmpuint (stats.materials_added, ==, cases[c].materials_added);
      g_assert_cmpuint (stats.materials + stats.positions + stats.uvs + stats.normals +
                        stats.skins, ==, 0);
      assert_import_undo_redo (doc, before);
    }
}

/* A material whose name has no Windows-1251 form cannot name a group; nothing is written. */
static void
test_refused (void)
{
  g_autoptr(JsonNode) json = read_json ("hand.gltf");
  g_auto(Run) run = { 0 };

  split_first_triangles (json_node_get_object (json), 1,
                         add_material (json_node_get_object (json), "\xe7\x94\xbb"));
  write_json (json, "han.gltf");
  run_cli (&run, "import", "han.gltf", "--into", "hand.dfm", "-o", "han.dfm", NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_nonnull (strstr (run.err, "han.gltf: materials[2] (“\xe7\x94\xbb”): a material of a "
                                     "deformable model needs a name in Windows-1251"));
  g_assert_false (tmp_file_exists ("han.dfm"));
}

/* Blender adds a material slot and gives it one face: a new group of exactly that triangle. */
static void
test_blender (void)
{
  g_autoptr(MshedDfm) a = open_dfm ("hand.dfm");
  g_autoptr(MshedDfm) b = NULL;
  g_autoptr(GArray) t0 = triangles (a, 0);
  g_autoptr(GArray) t1 = triangles (a, 1);
  g_autoptr(GArray) want0 = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GArray) got2 = NULL;
  g_autofree char *ids = NULL;
  const guint16 *face = &g_array_index (t0, guint16, 0);
  guint16 e[3], f[3];
  MshedDfmMaterial material;
  MshedDfmLevel info;
  const char *edits[] = { "--assign-material", "level 0", "Paint", "0.25,0.5,0.75", NULL,
                          NULL };
  const char *changed[] = { "\\MultiLevel\\Mesh0\\Face_groups\\Count",
                            "\\MultiLevel\\Mesh0\\Face_groups\\Group0\\Tristrip_indices",
                            "\\Material library\\Material count", NULL };
  const char *new[] = { "\\MultiLevel\\Mesh0\\Face_groups\\Group2",
                        "\\Material library\\Paint", NULL };

  ids = g_strdup_printf ("%u,%u,%u", face[0], face[1], face[2]);
  edits[4] = ids;
  if (!run_blender_roundtrip ("hand.glb", "paint.glb", edits))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  run_cli_ok ("import", "-q", "paint.glb", "--into", "hand.dfm", "-o", "paint.dfm", NULL);
  assert_validates_clean ("paint.dfm");
  assert_only_changed ("hand.dfm", "paint.dfm", changed, NULL, new);
  b = open_dfm ("paint.dfm");
  g_assert_true (mshed_dfm_get_level (b, 0, &info));
  g_assert_cmpuint (info.n_groups, ==, 3);
  assert_group_material (b, 2, "Paint");
  /* exactly that face, maybe started at another corner by Blender, the winding kept */
  got2 = triangles (b, 2);
  g_assert_cmpuint (got2->len, ==, 3);
  turn (face, e);
  turn ((const guint16 *) got2->data, f);
  g_assert_cmpmem (e, 6, f, 6);
  /* group 0 lost it and keeps the others in their stored order; group 1 is untouched */
  g_array_append_vals (want0, &g_array_index (t0, guint16, 3), t0->len - 3);
  assert_triangles (b, 0, want0);
  assert_triangles (b, 1, t1);
  g_assert_true (mshed_dfm_get_material (b, (guint) mshed_dfm_find_material (b, "Paint"),
                                         &material));
  g_assert_cmpstr (material.type, ==, "DcDt");
  g_assert_cmpfloat_with_epsilon (material.dc[0], 0.25, 1e-6);
  g_assert_cmpfloat_with_epsilon (material.dc[1], 0.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (material.dc[2], 0.75, 1e-6);
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
  prepare ();
  /* /gltf-dfm-groups/undo reads the .gltf files the tests before it wrote: keep this order */
  g_test_add_func ("/gltf-dfm-groups/new-material", test_new_material);
  g_test_add_func ("/gltf-dfm-groups/moved", test_moved);
  g_test_add_func ("/gltf-dfm-groups/emptied", test_emptied);
  g_test_add_func ("/gltf-dfm-groups/undo", test_undo);
  g_test_add_func ("/gltf-dfm-groups/refused", test_refused);
  g_test_add_func ("/gltf-dfm-groups/blender", test_blender);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
