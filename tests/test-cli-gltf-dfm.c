/* test-cli-gltf-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DFM <-> glTF (docs/gltf.md §8) through mshed-cli as a user runs it: every generated shape
 * (heads, bodies, hands, four levels, UV1 and Edge data) exported to .glb and .gltf comes back
 * byte for byte, with and without --into; the skin holds the bones' stored Bone to root as
 * inverse bind matrices and each point's influences normalised; the Khronos glTF-Validator
 * finds nothing; Blender 3.4 imports every export and exports it again, and that comes back
 * byte for byte with positions, joints and weights equal within tolerance; a Blender script
 * that moves the vertices of one bone comes back as exactly that move of those points.
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

typedef struct {
  const char *name;
  const char *args;   /* mshed-cli generate options */
} Shape;

static const Shape shapes[] = {
  { "head", "--dfm head --seed 3" },
  { "body", "--dfm body --seed 5 --edges" },
  { "hand", "--dfm hand --seed 7" },
  { "four", "--dfm four-level --seed 9" },
  { "uv1", "--dfm head --seed 11 --uv1" },
};

static void
generate (const Shape *shape)
{
  g_autofree char *out = g_strdup_printf ("%s.dfm", shape->name);

  run_cli_generate (shape->args, out);
}

static MshedDfm *
open_dfm (const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  return dfm;
}

static MshedGltf *
open_gltf (const char *name)
{
  g_autofree char *path = path_in_tmp (name);
  g_autoptr(GError) error = NULL;
  MshedGltf *gltf = mshed_gltf_read_file_skinned (path, &error);

  g_assert_no_error (error);
  return gltf;
}

/* The glTF mesh of level @level (by its extras). */
static const MshedGltfMesh *
level_mesh (const MshedGltf *g,
            guint            level)
{
  for (guint m = 0; m < g->n_meshes; m++)
    {
      guint l;

      if (mshed_gltf_extra_uint (g->meshes[m].mshed, "level", 100, &l) && l == level)
        return &g->meshes[m];
    }
  g_assert_not_reached ();
}

/* Export and import ----------------------------------------------------------------------- */

static void
test_roundtrip (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (guint f = 0; f < 2; f++)
      {
        const char *ext = f ? "gltf" : "glb";
        g_autofree char *dfm = g_strdup_printf ("%s.dfm", shapes[s].name);
        g_autofree char *out = g_strdup_printf ("%s.%s", shapes[s].name, ext);
        g_autofree char *back = g_strdup_printf ("%s-%s.dfm", shapes[s].name, ext);
        g_autofree char *into = g_strdup_printf ("%s-%s-into.dfm", shapes[s].name, ext);
        g_auto(Run) run = { 0 };

        if (f == 0)
          generate (&shapes[s]);
        run_cli_ok ("export", "-q", dfm, "-o", out, NULL);
        run_cli (&run, "import", out, "-o", back, NULL);
        g_assert_cmpint (run.status, ==, 0);
        g_assert_nonnull (strstr (run.out, "unchanged"));
        assert_same_files (dfm, back);
        run_cli_ok ("import", "-q", out, "--into", dfm, "-o", into, NULL);
        assert_same_files (dfm, into);
      }
}

/* Point @p's influences as the spec says glTF gets them: weights over their sum. */
static void
assert_skin (MshedDfm           *dfm,
             const MshedGltf    *g,
             guint               level,
             guint               point,
             const MshedGltfPrimitive *prim,
             guint               v)
{
  const MshedGltfSkin *skin = &g->skins[0];
  guint32 first, count;
  double sum = 0, got = 0;

  g_assert_true (mshed_dfm_get_skin_range (dfm, level, point, &first, &count));
  for (guint32 k = 0; k < count; k++)
    {
      guint32 bone;
      float w;

      g_assert_true (mshed_dfm_get_influence (dfm, level, first + k, &bone, &w));
      sum += w;
    }
  for (guint32 k = 0; k < count; k++)
    {
      guint32 bone;
      float w;
      gboolean found = FALSE;

      mshed_dfm_get_influence (dfm, level, first + k, &bone, &w);
      for (guint q = 0; q < 4; q++)
        if (prim->weights[v * 4 + q] > 0 &&
            skin->joints[prim->joints[v * 4 + q]] == 1 + bone)
          {
            g_assert_cmpfloat_with_epsilon (prim->weights[v * 4 + q], w / sum, 2e-7);
            found = TRUE;
          }
      g_assert_true (found);
    }
  for (guint q = 0; q < 4; q++)
    got += prim->weights[v * 4 + q];
  g_assert_cmpfloat_with_epsilon (got, 1.0, 2e-7);
}

static void
test_skin (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autofree char *name = g_strdup_printf ("%s.dfm", shapes[s].name);
      g_autofree char *glb = g_strdup_printf ("%s.glb", shapes[s].name);
      g_autoptr(MshedDfm) dfm = open_dfm (name);
      g_autoptr(MshedGltf) g = open_gltf (glb);
      guint n_bones = mshed_dfm_get_n_bones (dfm), hardpoints = 0;

      g_assert_cmpuint (g->n_skins, ==, 1);
      g_assert_cmpuint (g->skins[0].n_joints, ==, n_bones);
      for (guint b = 0; b < n_bones; b++)
        {
          MshedDfmBone bone;
          const float *m = &g->skins[0].inverse_bind[b * 16];
          const MshedGltfNode *node = &g->nodes[g->skins[0].joints[b]];

          g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
          /* column-major [R | t] of the stored rows r and translation t (docs/dfm.md §10.2) */
          for (guint r = 0; r < 3; r++)
            {
              for (guint c = 0; c < 3; c++)
                g_assert_true (m[c * 4 + r] == bone.bone_to_root[r * 3 + c]);
              g_assert_true (m[12 + r] == bone.bone_to_root[9 + r]);
              g_assert_true (m[r * 4 + 3] == 0);
            }
          g_assert_true (m[15] == 1);
          g_assert_cmpstr (node->name, ==, bone.object_name ? bone.object_name : bone.name);
          if (bone.parent >= 0)
            g_assert_cmpint (node->parent, ==, (gint) g->skins[0].joints[bone.parent]);
          hardpoints += bone.n_hardpoints;
        }
      for (guint i = 0, found = 0; i < g->n_nodes; i++)
        if (g->nodes[i].mshed && json_object_has_member (g->nodes[i].mshed, "hardpoint"))
          {
            g_assert_cmpint (g->nodes[i].mesh, ==, -1);
            g_assert_cmpuint (++found, <=, hardpoints);
          }
      g_assert_cmpuint (hardpoints, >, 0);
      for (guint l = 0; l < mshed_dfm_get_n_levels (dfm); l++)
        {
          const MshedGltfMesh *mesh = level_mesh (g, l);
          MshedDfmLevel info;
          guint triangles = 0, want = 0;

          g_assert_true (mshed_dfm_get_level (dfm, l, &info));
          for (guint grp = 0; grp < info.n_groups; grp++)
            {
              gsize n = 0;
              g_autofree guint16 *t = mshed_dfm_dup_triangles (dfm, l, grp, &n);

              want += (guint) n;
            }
          for (guint p = 0; p < mesh->n_primitives; p++)
            {
              const MshedGltfPrimitive *prim = &mesh->primitives[p];

              g_assert_nonnull (prim->joints);
              g_assert_true ((prim->uv2 != NULL) == info.has_uv1);
              triangles += prim->n_indices / 3;
              for (guint v = 0; v < prim->n_vertices; v += p == 0 ? 1 : 97)
                {
                  MshedDfmElement el;

                  g_assert_true (mshed_dfm_get_element (dfm, l, (guint) prim->ids[v * 2],
                                                        &el));
                  for (guint k = 0; k < 3; k++)
                    g_assert_true (prim->positions[v * 3 + k] == el.position[k]);
                  for (guint k = 0; k < 2; k++)
                    g_assert_true (prim->uvs[v * 2 + k] == el.uv0[k]);
                  if (info.has_uv1)
                    g_assert_true (prim->uv2[v * 2] == el.uv1[0]);
                  assert_skin (dfm, g, l, el.point, prim, v);
                }
            }
          g_assert_cmpuint (triangles, ==, want);
        }
    }
}

/* Judges ------------------------------------------------------------------------------------ */

static gboolean
spawn (const char *const *argv,
       char             **out,
       int               *status)
{
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  if (!g_spawn_sync (cli_test_dir (), (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, out, NULL,
                     &wait_status, &error))
    {
      g_test_message ("%s: %s", argv[0], error->message);
      return FALSE;
    }
  *status = g_spawn_check_wait_status (wait_status, NULL) ? 0 :
            WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
  return TRUE;
}

static void
test_validator (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "gltf", "validate.mjs", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (NULL);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) "node");
  g_ptr_array_add (argv, script);
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_ptr_array_add (files, g_strdup_printf ("%s.glb", shapes[s].name));
      g_ptr_array_add (files, g_strdup_printf ("%s.gltf", shapes[s].name));
    }
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (argv, files->pdata[i]);
  g_ptr_array_add (argv, NULL);
  if (!spawn ((const char *const *) argv->pdata, &out, &status) || status == 2)
    {
      mshed_test_skip ("the glTF-Validator is not installed (./mshed-dev deps installs node "
                       "and tests/gltf/package.json)");
      return;
    }
  g_test_message ("%s", out);
  g_assert_cmpint (status, ==, 0);
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *line = g_strdup_printf ("%s: 0 errors, 0 warnings,",
                                               (char *) files->pdata[i]);

      g_assert_nonnull (strstr (out, line));
    }
}

/* blender-roundtrip.py IN OUT [edits]; FALSE when Blender is not installed. */
static gboolean
blender (const char  *in,
         const char  *out,
         const char **edits)
{
  return run_blender_roundtrip (in, out, edits);
}

/* The joint's node name of vertex @v's influence @q, or NULL for a zero weight. */
static const char *
joint_name (const MshedGltf          *g,
            const MshedGltfPrimitive *prim,
            guint                     v,
            guint                     q)
{
  if (!(prim->weights[v * 4 + q] > 0))
    return NULL;
  return g->nodes[g->skins[0].joints[prim->joints[v * 4 + q]]].name;
}

/* Blender's re-export @b holds what export @a holds: per level and element, the position
 * within 3e-5, UV0 exactly, the same joints by name with the same weights within 1e-6. */
static void
assert_same_skin (const MshedGltf *a,
                  const MshedGltf *b,
                  guint            n_levels)
{
  for (guint l = 0; l < n_levels; l++)
    {
      const MshedGltfMesh *ma = level_mesh (a, l), *mb = level_mesh (b, l);
      const MshedGltfPrimitive *pa = &ma->primitives[0];
      g_autofree gint *where = g_new (gint, pa->n_vertices);
      guint seen = 0;

      memset (where, 0xff, sizeof (gint) * pa->n_vertices);
      for (guint p = 0; p < mb->n_primitives; p++)
        {
          const MshedGltfPrimitive *pb = &mb->primitives[p];

          for (guint v = 0; v < pb->n_vertices; v++)
            {
              guint e = (guint) pb->ids[v * 2];

              g_assert_cmpuint (e, <, pa->n_vertices);
              seen += where[e] < 0;
              where[e] = 0;
              for (guint k = 0; k < 3; k++)
                g_assert_cmpfloat_with_epsilon (pb->positions[v * 3 + k],
                                                pa->positions[e * 3 + k], 3e-5);
              for (guint k = 0; k < 2; k++)
                g_assert_cmpfloat_with_epsilon (pb->uvs[v * 2 + k], pa->uvs[e * 2 + k], 1e-6);
              for (guint q = 0; q < 4; q++)
                {
                  const char *name = joint_name (a, pa, e, q);
                  gboolean found = name == NULL;

                  for (guint r = 0; r < 4 && !found; r++)
                    if (g_strcmp0 (joint_name (b, pb, v, r), name) == 0)
                      {
                        g_assert_cmpfloat_with_epsilon (pb->weights[v * 4 + r],
                                                        pa->weights[e * 4 + q], 1e-6);
                        found = TRUE;
                      }
                  g_assert_true (found);
                }
            }
        }
      g_test_message ("level %u: %u of %u elements came back", l, seen, pa->n_vertices);
      g_assert_cmpuint (seen, >, 0);
    }
}

static void
test_blender (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autofree char *dfm = g_strdup_printf ("%s.dfm", shapes[s].name);
      g_autofree char *glb = g_strdup_printf ("%s.glb", shapes[s].name);
      g_autofree char *blend = g_strdup_printf ("%s-blender.glb", shapes[s].name);
      g_autofree char *back = g_strdup_printf ("%s-blender.dfm", shapes[s].name);
      g_autoptr(MshedDfm) model = open_dfm (dfm);
      g_autoptr(MshedGltf) a = NULL, b = NULL;

      if (!blender (glb, blend, NULL))
        {
          mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
          return;
        }
      a = open_gltf (glb);
      b = open_gltf (blend);
      assert_same_skin (a, b, mshed_dfm_get_n_levels (model));
      run_cli_ok ("import", "-q", blend, "--into", dfm, "-o", back, NULL);
      assert_same_files (dfm, back);
      assert_validates_clean (back);
    }
}

/* Points of Mesh0 that @bone weighs (and that an element uses, so that glTF has them). */
static guint8 *
points_of_bone (MshedDfm *dfm,
                guint     bone)
{
  MshedDfmLevel info;
  guint8 *used, *out;

  g_assert_true (mshed_dfm_get_level (dfm, 0, &info));
  used = g_new0 (guint8, info.n_points);
  out = g_new0 (guint8, info.n_points);
  for (guint e = 0; e < info.n_elements; e++)
    {
      MshedDfmElement el;

      g_assert_true (mshed_dfm_get_element (dfm, 0, e, &el));
      used[el.point] = 1;
    }
  for (guint p = 0; p < info.n_points; p++)
    {
      guint32 first, count;

      g_assert_true (mshed_dfm_get_skin_range (dfm, 0, p, &first, &count));
      for (guint32 k = 0; k < count; k++)
        {
          guint32 id;
          float w;

          mshed_dfm_get_influence (dfm, 0, first + k, &id, &w);
          if (id == bone && w > 0 && used[p])
            out[p] = 1;
        }
    }
  g_free (used);
  return out;
}

/* Every UTF node of @b equals @a's, but Mesh0's Points, where exactly the points @moved are
 * @dx further along x, and Mesh0's Vertex_normals (Blender's own for the moved surface). */
static void
assert_moved (const char   *a_name,
              const char   *b_name,
              const guint8 *moved,
              float         dx)
{
  g_autoptr(MshedUtf) a = read_utf_tree (a_name, MSHED_MODE_STRICT);
  g_autoptr(MshedUtf) b = read_utf_tree (b_name, MSHED_MODE_STRICT);
  MshedUtfNode *na = mshed_utf_get_root (a), *nb = mshed_utf_get_root (b);
  guint n_moved = 0;

  for (; na && nb; na = mshed_utf_node_next_preorder (na, NULL),
       nb = mshed_utf_node_next_preorder (nb, NULL))
    {
      g_autofree char *path = mshed_utf_node_dup_path (na);
      g_autofree char *path_b = mshed_utf_node_dup_path (nb);
      GBytes *da = mshed_utf_node_get_data (na);
      GBytes *db = mshed_utf_node_get_data (nb);

      g_assert_cmpstr (path, ==, path_b);
      /* Blender recomputes the normals around moved vertices: they come back too */
      if (g_ascii_strcasecmp (path, "\\MultiLevel\\Mesh0\\Geometry\\Vertex_normals") == 0)
        continue;
      if (g_ascii_strcasecmp (path, "\\MultiLevel\\Mesh0\\Geometry\\Points") != 0)
        {
          g_assert_true ((da == NULL) == (db == NULL));
          g_assert_true (da == NULL || g_bytes_equal (da, db));
          continue;
        }
      {
        gsize n;
        const float *pa = g_bytes_get_data (da, &n);
        const float *pb = g_bytes_get_data (db, NULL);

        g_assert_cmpuint (n, ==, g_bytes_get_size (db));
        for (gsize p = 0; p < n / 12; p++)
          {
            if (!moved[p])
              {
                g_assert_true (memcmp (&pa[p * 3], &pb[p * 3], 12) == 0);
                continue;
              }
            n_moved++;
            g_assert_cmpfloat_with_epsilon (pb[p * 3], pa[p * 3] + dx, 3e-5);
            g_assert_cmpfloat_with_epsilon (pb[p * 3 + 1], pa[p * 3 + 1], 3e-5);
            g_assert_cmpfloat_with_epsilon (pb[p * 3 + 2], pa[p * 3 + 2], 3e-5);
          }
      }
    }
  g_assert_true (na == NULL && nb == NULL);
  g_test_message ("%u points moved", n_moved);
  g_assert_cmpuint (n_moved, >, 0);
}

static void
test_blender_edit (void)
{
  g_autoptr(MshedDfm) dfm = open_dfm ("hand.dfm");
  g_autofree guint8 *moved = NULL;
  MshedDfmBone bone;
  const char *edits[] = { "--move-group", "level 0", NULL, "0.25", "0", "0", NULL };
  guint b = 2;

  /* a named bone that weighs some points of Mesh0 */
  for (;; b++)
    {
      g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
      g_clear_pointer (&moved, g_free);
      moved = points_of_bone (dfm, b);
      if (bone.object_name && memchr (moved, 1, 50))
        break;
    }
  edits[2] = bone.object_name;
  if (!blender ("hand.glb", "hand-edit.glb", edits))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  run_cli_ok ("import", "-q", "hand-edit.glb", "--into", "hand.dfm", "-o", "hand-edit.dfm",
              NULL);
  assert_moved ("hand.dfm", "hand-edit.dfm", moved, 0.25f);
  assert_validates_clean ("hand-edit.dfm");
  /* without --into, from the DFM the export carries: the same edit */
  run_cli_ok ("import", "-q", "hand-edit.glb", "-o", "hand-edit2.dfm", NULL);
  assert_same_files ("hand-edit.dfm", "hand-edit2.dfm");
}

static gint
compare_tri (gconstpointer a,
             gconstpointer b)
{
  return memcmp (a, b, 6);
}

/* Group @g's triangles of Mesh0, each rotated to start at its smallest corner, sorted. */
static GArray *
sorted_triangles (MshedDfm *dfm,
                  guint     g)
{
  gsize n = 0;
  g_autofree guint16 *t = mshed_dfm_dup_triangles (dfm, 0, g, &n);
  GArray *out = g_array_new (FALSE, FALSE, 6);

  for (gsize i = 0; i < n; i++)
    {
      guint16 *e = &t[3 * i], r[3];
      guint k = e[1] < e[0] && e[1] <= e[2] ? 1 : e[2] < e[0] && e[2] < e[1] ? 2 : 0;

      for (guint c = 0; c < 3; c++)
        r[c] = e[(k + c) % 3];
      g_array_append_vals (out, r, 1);
    }
  g_array_sort (out, compare_tri);
  return out;
}

/* A Blender script gives one point of Mesh0 the single influence of another bone and deletes
 * a face: the import changes exactly the skin files of Mesh0 and one face group's strip (and
 * the normals Blender recomputes around the hole), that point's influences become (bone, 1)
 * and the group loses exactly one triangle. */
static void
test_blender_skin_topology (void)
{
  g_autoptr(MshedDfm) a = NULL, b = NULL;
  g_autoptr(MshedUtf) ua = NULL, ub = NULL;
  g_autoptr(GString) ids = g_string_new (NULL);
  MshedUtfNode *na, *nb;
  MshedDfmLevel info;
  MshedDfmBone bone;
  guint point = 0, target = 0, changed_groups = 0, changed_group = 0;
  const char *edits[] = { "--set-weights", "level 0", NULL, NULL, "--delete-faces", "level 0",
                          "1", NULL };

  run_cli_generate ("--dfm hand --seed 7", "skin.dfm");
  run_cli_ok ("export", "-q", "skin.dfm", "-o", "skin.glb", NULL);
  a = open_dfm ("skin.dfm");
  g_assert_true (mshed_dfm_get_level (a, 0, &info));
  /* a point with two influences or more, and a named bone that is not among them */
  for (point = 0; point < info.n_points; point++)
    {
      g_autoptr(GArray) inf = point_influences (a, point);

      if (inf->len < 4)
        continue;
      for (target = 1; target < mshed_dfm_get_n_bones (a); target++)
        if (mshed_dfm_get_bone (a, target, &bone) && bone.object_name &&
            target != g_array_index (inf, guint32, 0) &&
            target != g_array_index (inf, guint32, 2))
          break;
      break;
    }
  g_assert_cmpuint (point, <, info.n_points);
  for (guint e = 0; e < info.n_elements; e++)
    {
      MshedDfmElement el;

      g_assert_true (mshed_dfm_get_element (a, 0, e, &el));
      if (el.point == point)
        g_string_append_printf (ids, "%s%u", ids->len ? "," : "", e);
    }
  g_assert_cmpuint (ids->len, >, 0);
  edits[2] = bone.object_name;
  edits[3] = ids->str;
  if (!blender ("skin.glb", "skin-edit.glb", edits))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  run_cli_ok ("import", "-q", "skin-edit.glb", "--into", "skin.dfm", "-o", "skin-edit.dfm",
              NULL);
  assert_validates_clean ("skin-edit.dfm");
  run_cli_ok ("import", "-q", "skin-edit.glb", "-o", "skin-edit2.dfm", NULL);
  assert_same_files ("skin-edit.dfm", "skin-edit2.dfm");

  /* only the skin files of Mesh0 and one group's strip differ */
  ua = read_utf_tree ("skin.dfm", MSHED_MODE_STRICT);
  ub = read_utf_tree ("skin-edit.dfm", MSHED_MODE_STRICT);
  for (na = mshed_utf_get_root (ua), nb = mshed_utf_get_root (ub); na && nb;
       na = mshed_utf_node_next_preorder (na, NULL), nb = mshed_utf_node_next_preorder (nb, NULL))
    {
      g_autofree char *path = mshed_utf_node_dup_path (na);
      g_autofree char *path_b = mshed_utf_node_dup_path (nb);
      GBytes *da = mshed_utf_node_get_data (na), *db = mshed_utf_node_get_data (nb);
      guint g;

      g_assert_cmpstr (path, ==, path_b);
      if ((da == NULL) == (db == NULL) && (da == NULL || g_bytes_equal (da, db)))
        continue;
      g_test_message ("changed: %s", path);
      if (sscanf (path, "\\MultiLevel\\Mesh0\\Face_groups\\Group%u\\", &g) == 1 &&
          g_str_has_suffix (path, "\\Tristrip_indices"))
        {
          changed_groups++;
          changed_group = g;
          continue;
        }
      g_assert_true (g_str_has_prefix (path, "\\MultiLevel\\Mesh0\\Geometry\\"));
      g_assert_true (g_str_has_suffix (path, "\\Vertex_normals") ||  /* Blender's, see above */
                     g_str_has_suffix (path, "\\Point_bone_first") ||
                     g_str_has_suffix (path, "\\Point_bone_count") ||
                     g_str_has_suffix (path, "\\Bone_id_chain") ||
                     g_str_has_suffix (path, "\\Bone_weight_chain"));
    }
  g_assert_true (na == NULL && nb == NULL);
  g_assert_cmpuint (changed_groups, ==, 1);

  /* the point's influence is the bone's alone; every other point's are as they were */
  b = open_dfm ("skin-edit.dfm");
  for (guint p = 0; p < info.n_points; p++)
    {
      g_autoptr(GArray) ia = point_influences (a, p), ib = point_influences (b, p);

      if (p != point)
        {
          g_assert_cmpmem (ia->data, ia->len * 4, ib->data, ib->len * 4);
          continue;
        }
      g_assert_cmpuint (ib->len, ==, 2);
      g_assert_cmpuint (g_array_index (ib, guint32, 0), ==, target);
      g_assert_cmpuint (g_array_index (ib, guint32, 1), ==, 0x3F800000);  /* 1.0f */
    }
  /* the group lost one triangle and kept the others */
  {
    g_autoptr(GArray) ta = sorted_triangles (a, changed_group);
    g_autoptr(GArray) tb = sorted_triangles (b, changed_group);
    guint i = 0, missing = 0;

    g_assert_cmpuint (tb->len + 1, ==, ta->len);
    for (guint k = 0; k < ta->len; k++)
      if (i < tb->len && compare_tri (&g_array_index (ta, guint16, 3 * k),
                                      &g_array_index (tb, guint16, 3 * i)) == 0)
        i++;
      else
        missing++;
    g_assert_cmpuint (missing, ==, 1);
    g_assert_cmpuint (i, ==, tb->len);
  }
}

/* A primitive given another face group's material, in the .gltf itself: that group's
 * Material_name becomes the material's name, and nothing else changes. */
static void
test_material (void)
{
  g_autoptr(JsonNode) json = read_json ("hand.gltf");
  JsonObject *root = json_node_get_object (json);
  JsonArray *prims = json_object_get_array_member (json_array_get_object_element (
    json_object_get_array_member (root, "meshes"), 0), "primitives");
  JsonObject *first = json_array_get_object_element (prims, 0), *other = NULL;
  g_autofree char *out = NULL, *path = NULL;
  g_autoptr(MshedUtf) a = NULL, b = NULL;
  const char *name;
  guint group;
  MshedUtfNode *na, *nb;
  guint changed = 0;

  for (guint p = 1; p < json_array_get_length (prims) && other == NULL; p++)
    if (json_object_get_int_member (json_array_get_object_element (prims, p), "material") !=
        json_object_get_int_member (first, "material"))
      other = json_array_get_object_element (prims, p);
  g_assert_nonnull (other);
  json_object_set_int_member (first, "material", json_object_get_int_member (other, "material"));
  name = json_object_get_string_member (json_array_get_object_element (
    json_object_get_array_member (root, "materials"),
    (guint) json_object_get_int_member (other, "material")), "name");
  group = (guint) json_object_get_int_member (json_object_get_object_member (
    json_object_get_object_member (first, "extras"), "mshed"), "group");
  out = json_to_string (json, FALSE);
  g_assert_true (write_text ("material.gltf", out));
  run_cli_ok ("import", "-q", "material.gltf", "--into", "hand.dfm", "-o", "material.dfm",
              NULL);
  assert_validates_clean ("material.dfm");
  a = read_utf_tree ("hand.dfm", MSHED_MODE_STRICT);
  b = read_utf_tree ("material.dfm", MSHED_MODE_STRICT);
  path = g_strdup_printf ("\\MultiLevel\\Mesh0\\Face_groups\\Group%u\\Material_name", group);
  for (na = mshed_utf_get_root (a), nb = mshed_utf_get_root (b); na && nb;
       na = mshed_utf_node_next_preorder (na, NULL), nb = mshed_utf_node_next_preorder (nb, NULL))
    {
      g_autofree char *pa = mshed_utf_node_dup_path (na);
      GBytes *da = mshed_utf_node_get_data (na), *db = mshed_utf_node_get_data (nb);

      if (g_strcmp0 (pa, path) == 0)
        {
          g_assert_cmpmem (g_bytes_get_data (db, NULL), g_bytes_get_size (db), name,
                           strlen (name) + 1);
          changed++;
          continue;
        }
      g_assert_true ((da == NULL) == (db == NULL));
      g_assert_true (da == NULL || g_bytes_equal (da, db));
    }
  g_assert_cmpuint (changed, ==, 1);
}

/* The first triangle of a face group turned over in the .gltf's index buffer: the stored one
 * is gone and the new one is added at the end of the group's list, the others kept in order. */
static void
test_turned_triangle (void)
{
  g_autoptr(JsonNode) json = read_json ("hand.gltf");
  JsonObject *root = json_node_get_object (json);
  JsonObject *prim = json_array_get_object_element (json_object_get_array_member (
    json_array_get_object_element (json_object_get_array_member (root, "meshes"), 0),
    "primitives"), 0);
  JsonObject *acc = json_array_get_object_element (
    json_object_get_array_member (root, "accessors"),
    (guint) json_object_get_int_member (prim, "indices"));
  JsonObject *view = json_array_get_object_element (
    json_object_get_array_member (root, "bufferViews"),
    (guint) json_object_get_int_member (acc, "bufferView"));
  JsonObject *buffer = json_array_get_object_element (
    json_object_get_array_member (root, "buffers"), 0);
  const char *uri = json_object_get_string_member (buffer, "uri");
  g_autofree char *prefix = g_strndup (uri, (gsize) (strchr (uri, ',') + 1 - uri));
  g_autofree char *base64 = NULL, *new_uri = NULL, *out = NULL;
  g_autofree guint16 *before = NULL, *after = NULL;
  g_autoptr(MshedDfm) a = NULL, b = NULL;
  gsize len = 0, n_before = 0, n_after = 0, at;
  guint group;
  guchar *bin;
  guint8 swap[2];

  g_assert_cmpint (json_object_get_int_member (acc, "componentType"), ==, 5123);
  at = (gsize) json_object_get_int_member_with_default (view, "byteOffset", 0) +
       (gsize) json_object_get_int_member_with_default (acc, "byteOffset", 0);
  bin = g_base64_decode (strchr (uri, ',') + 1, &len);
  g_assert_cmpuint (len, >=, at + 6);
  memcpy (swap, bin + at, 2);
  memcpy (bin + at, bin + at + 2, 2);
  memcpy (bin + at + 2, swap, 2);
  base64 = g_base64_encode (bin, len);
  g_free (bin);
  new_uri = g_strconcat (prefix, base64, NULL);
  json_object_set_string_member (buffer, "uri", new_uri);
  group = (guint) json_object_get_int_member (json_object_get_object_member (
    json_object_get_object_member (prim, "extras"), "mshed"), "group");
  out = json_to_string (json, FALSE);
  g_assert_true (write_text ("turned.gltf", out));
  run_cli_ok ("import", "-q", "turned.gltf", "--into", "hand.dfm", "-o", "turned.dfm", NULL);
  assert_validates_clean ("turned.dfm");
  a = open_dfm ("hand.dfm");
  b = open_dfm ("turned.dfm");
  before = mshed_dfm_dup_triangles (a, 0, group, &n_before);
  after = mshed_dfm_dup_triangles (b, 0, group, &n_after);
  g_assert_cmpuint (n_after, ==, n_before);
  g_assert_cmpmem (after, (n_after - 1) * 6, before + 3, (n_before - 1) * 6);
  g_assert_cmpuint (after[3 * (n_after - 1)], ==, before[1]);
  g_assert_cmpuint (after[3 * (n_after - 1) + 1], ==, before[0]);
  g_assert_cmpuint (after[3 * (n_after - 1) + 2], ==, before[2]);
}

/* One undo step restores the original bytes. */
static void
test_undo (void)
{
  g_autofree char *dfm = path_in_tmp ("hand.dfm");
  g_autofree char *edit = path_in_tmp ("hand-edit.glb");
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) doc = mshed_document_open (dfm, MSHED_MODE_STRICT, &error);
  g_autoptr(MshedGltf) g = NULL;
  g_autoptr(GBytes) before = read_file ("hand.dfm");
  g_autoptr(GBytes) after = NULL;
  MshedGltfDfmImportStats stats = { 0 };

  g_assert_no_error (error);
  if (!g_file_test (edit, G_FILE_TEST_EXISTS))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  g = open_gltf ("hand-edit.glb");
  g_assert_true (mshed_gltf_dfm_import_into (doc, g, NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.positions, >, 0);
  g_assert_cmpuint (stats.uvs, ==, 0);
  g_assert_true (mshed_document_undo (doc));
  after = mshed_utf_serialize (mshed_document_get_utf (doc), MSHED_UTF_WRITE_PRESERVE, NULL,
                               &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_false (mshed_document_can_undo (doc));

  /* the unchanged export: nothing changes, no undo step */
  g_clear_pointer (&g, mshed_gltf_free);
  g = open_gltf ("hand.glb");
  g_assert_true (mshed_gltf_dfm_import_into (doc, g, NULL, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.positions + stats.uvs + stats.normals + stats.skins + stats.groups +
                    stats.materials, ==, 0);
  g_assert_false (mshed_document_can_undo (doc));

  /* the weights and the deleted face of /gltf-dfm/blender-skin-topology: one step too */
  {
    g_autofree char *skin = path_in_tmp ("skin.dfm");
    g_autoptr(MshedDocument) sdoc = mshed_document_open (skin, MSHED_MODE_STRICT, &error);
    g_autoptr(GBytes) sbefore = read_file ("skin.dfm");
    g_autoptr(GBytes) safter = NULL;

    g_assert_no_error (error);
    g_clear_pointer (&g, mshed_gltf_free);
    g = open_gltf ("skin-edit.glb");
    g_assert_true (mshed_gltf_dfm_import_into (sdoc, g, NULL, &stats, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (stats.skins, ==, 1);
    g_assert_cmpuint (stats.groups, ==, 1);
    g_assert_cmpstr (mshed_document_get_undo_label (sdoc), ==, "Import glTF");
    g_assert_true (mshed_document_undo (sdoc));
    g_assert_false (mshed_document_can_undo (sdoc));
    safter = mshed_utf_serialize (mshed_document_get_utf (sdoc), MSHED_UTF_WRITE_PRESERVE, NULL,
                                  &error);
    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (sbefore, safter));
  }
}

static void
test_refused (void)
{
  g_auto(Run) run = { 0 };

  /* an export of one model into another */
  run_cli (&run, "import", "hand.glb", "--into", "body.dfm", "-o", "wrong.dfm", NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_nonnull (strstr (run.err, "hand.glb: scenes[0]: exported from a model of 6 levels "
                                     "and 22 bones, not from this one"));
  g_assert_false (tmp_file_exists ("wrong.dfm"));
  /* joints renamed so that they name no bone: the weights cannot come back */
  {
    g_autoptr(JsonNode) json = read_json ("hand.gltf");
    JsonObject *root = json_node_get_object (json);
    JsonArray *joints = json_object_get_array_member (json_array_get_object_element (
      json_object_get_array_member (root, "skins"), 0), "joints");
    JsonArray *nodes = json_object_get_array_member (root, "nodes");
    g_autofree char *out = NULL;

    for (guint j = 0; j < json_array_get_length (joints); j++)
      {
        JsonObject *node = json_array_get_object_element (
          nodes, (guint) json_array_get_int_element (joints, j));
        g_autofree char *name = g_strconcat (json_object_get_string_member (node, "name"),
                                             " (renamed)", NULL);

        json_object_set_string_member (node, "name", name);
      }
    out = json_to_string (json, FALSE);
    g_assert_true (write_text ("renamed.gltf", out));
    run_clear (&run);
    run_cli (&run, "import", "renamed.gltf", "--into", "hand.dfm", "-o", "renamed.dfm", NULL);
    g_assert_cmpint (run.status, !=, 0);
    g_assert_nonnull (strstr (run.err, "renamed.gltf: meshes[0].primitives[0]"));
    g_assert_nonnull (strstr (run.err, " (renamed)”), which is no bone of the model"));
    g_assert_false (tmp_file_exists ("renamed.dfm"));
  }
  run_clear (&run);
  memset (&run, 0, sizeof run);
  run_cli (&run, "export", "hand.dfm", "--lod", "1", "-o", "x.glb", NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_false (tmp_file_exists ("x.glb"));
}

/* A new DFM from a glTF without extras ---------------------------------------------------- */

static void
strip_extras (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(GList) members = NULL;

      json_object_remove_member (o, "extras");
      members = json_object_get_values (o);
      for (GList *l = members; l; l = l->next)
        strip_extras (l->data);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (a); i++)
        strip_extras (json_array_get_element (a, i));
    }
}

/* hand.gltf without any extras and with level 0 only (the other level nodes lose their mesh) */
static void
write_plain (void)
{
  g_autoptr(GBytes) bytes = read_file ("hand.gltf");
  g_autofree char *json = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autoptr(JsonNode) root = parse_json (json);
  JsonArray *nodes = json_object_get_array_member (json_node_get_object (root), "nodes");
  g_autofree char *out = NULL;

  strip_extras (root);
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *n = json_array_get_object_element (nodes, i);

      if (json_object_has_member (n, "mesh") &&
          g_strcmp0 (json_object_get_string_member (n, "name"), "level 0") != 0)
        {
          json_object_remove_member (n, "mesh");
          json_object_remove_member (n, "skin");
        }
    }
  out = json_to_string (root, FALSE);
  g_assert_true (write_text ("plain.gltf", out));
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The influences of @dfm's point @p, as "bone name=weight" sorted. */
static char *
influences (MshedDfm *dfm,
            guint     level,
            guint     point)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  guint32 first, count;

  g_assert_true (mshed_dfm_get_skin_range (dfm, level, point, &first, &count));
  for (guint32 k = 0; k < count; k++)
    {
      guint32 bone;
      float w;
      MshedDfmBone b;

      g_assert_true (mshed_dfm_get_influence (dfm, level, first + k, &bone, &w));
      g_assert_true (mshed_dfm_get_bone (dfm, bone, &b));
      g_ptr_array_add (items, g_strdup_printf ("%s=%.6f", b.object_name ? b.object_name
                                                                         : b.name, w));
    }
  g_ptr_array_sort (items, compare_strings);
  g_ptr_array_add (items, NULL);
  return g_strjoinv (" ", (char **) items->pdata);
}

static void
test_new (void)
{
  g_autoptr(MshedDfm) a = open_dfm ("hand.dfm");
  g_autoptr(MshedDfm) b = NULL;
  MshedDfmLevel la, lb;
  g_auto(Run) run = { 0 };

  write_plain ();
  run_cli (&run, "import", "plain.gltf", "-o", "plain.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "a new deformable model of 22 bones"));
  assert_validates_clean ("plain.dfm");
  b = open_dfm ("plain.dfm");
  g_assert_cmpuint (mshed_dfm_get_n_levels (b), ==, 1);
  g_assert_cmpuint (mshed_dfm_get_n_bones (b), ==, mshed_dfm_get_n_bones (a));
  /* every named bone but the root has its Cons record, the parent as in the original */
  g_assert_cmpuint (mshed_dfm_get_n_joints (b), ==, mshed_dfm_get_n_bones (b) - 1);
  for (guint i = 0; i < mshed_dfm_get_n_bones (b); i++)
    {
      MshedDfmBone bb, ba;
      gint ia;

      g_assert_true (mshed_dfm_get_bone (b, i, &bb));
      ia = mshed_dfm_find_bone (a, bb.object_name);
      if (ia < 0)
        {
          /* a detached bone, named by its directory */
          g_assert_cmpint (bb.parent, ==, 0);
          continue;
        }
      g_assert_true (mshed_dfm_get_bone (a, (guint) ia, &ba));
      for (guint k = 0; k < 12; k++)
        g_assert_cmpfloat_with_epsilon (bb.bone_to_root[k], ba.bone_to_root[k], 1e-6);
      if (ba.parent >= 0 && bb.parent >= 0)
        {
          MshedDfmBone pa, pb;

          mshed_dfm_get_bone (a, (guint) ba.parent, &pa);
          mshed_dfm_get_bone (b, (guint) bb.parent, &pb);
          g_assert_cmpstr (pa.object_name, ==, pb.object_name);
        }
    }
  /* the same triangles per group, corner by corner: positions, UV0 and skin */
  g_assert_true (mshed_dfm_get_level (a, 0, &la));
  g_assert_true (mshed_dfm_get_level (b, 0, &lb));
  g_assert_cmpuint (lb.n_groups, ==, la.n_groups);
  for (guint g = 0; g < la.n_groups; g++)
    {
      gsize na = 0, nb = 0;
      g_autofree guint16 *ta = mshed_dfm_dup_triangles (a, 0, g, &na);
      g_autofree guint16 *tb = mshed_dfm_dup_triangles (b, 0, g, &nb);

      g_assert_cmpuint (nb, ==, na);
      for (gsize i = 0; i < na * 3; i++)
        {
          MshedDfmElement ea, eb;
          g_autofree char *sa = NULL, *sb = NULL;

          g_assert_true (mshed_dfm_get_element (a, 0, ta[i], &ea));
          g_assert_true (mshed_dfm_get_element (b, 0, tb[i], &eb));
          g_assert_true (memcmp (ea.position, eb.position, 12) == 0);
          g_assert_true (memcmp (ea.uv0, eb.uv0, 8) == 0);
          sa = influences (a, 0, ea.point);
          sb = influences (b, 0, eb.point);
          g_assert_cmpstr (sa, ==, sb);
        }
    }
}

static void
test_new_blender (void)
{
  const char *plain[] = { "--plain", NULL };
  g_autoptr(MshedDfm) b = NULL;

  if (!blender ("hand.glb", "hand-plain.glb", plain))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  run_cli_ok ("import", "-q", "hand-plain.glb", "-o", "hand-plain.dfm", NULL);
  assert_validates_clean ("hand-plain.dfm");
  b = open_dfm ("hand-plain.dfm");
  g_assert_cmpuint (mshed_dfm_get_n_bones (b), ==, 22);
  g_assert_cmpuint (mshed_dfm_get_n_joints (b), ==, 21);
}

static void
test_new_refused (void)
{
  g_auto(Run) run = { 0 };

  run_cli_ok ("generate", "-q", "-s", "3", "-t", "100", "-o", "rigid.msh", NULL);
  run_cli_ok ("export", "-q", "rigid.msh", "-o", "rigid.glb", NULL);
  run_cli (&run, "import", "rigid.glb", "-o", "rigid.dfm", NULL);
  g_assert_cmpint (run.status, !=, 0);
  g_assert_nonnull (strstr (run.err, "rigid.glb: no skin; a deformable model is a skinned "
                                     "mesh"));
  g_assert_false (tmp_file_exists ("rigid.dfm"));
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
  /* later tests read what /gltf-dfm/roundtrip wrote: keep this order */
  g_test_add_func ("/gltf-dfm/roundtrip", test_roundtrip);
  g_test_add_func ("/gltf-dfm/skin", test_skin);
  g_test_add_func ("/gltf-dfm/validator", test_validator);
  g_test_add_func ("/gltf-dfm/refused", test_refused);
  g_test_add_func ("/gltf-dfm/material", test_material);
  g_test_add_func ("/gltf-dfm/turned-triangle", test_turned_triangle);
  g_test_add_func ("/gltf-dfm/blender", test_blender);
  g_test_add_func ("/gltf-dfm/blender-edit", test_blender_edit);
  g_test_add_func ("/gltf-dfm/blender-skin-topology", test_blender_skin_topology);
  g_test_add_func ("/gltf-dfm/undo", test_undo);
  g_test_add_func ("/gltf-dfm/new", test_new);
  g_test_add_func ("/gltf-dfm/new-blender", test_new_blender);
  g_test_add_func ("/gltf-dfm/new-refused", test_new_refused);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
