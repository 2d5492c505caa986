/* test-cli-obj.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli export -o OUT.obj on generated MSH models and a generated DFM head: the OBJ and
 * its .mtl are read back here (v/vt/vn/f counts, objects, groups, usemtl names, numbers in
 * the C locale) and compared with what the tables say, counted here from them; Blender's OBJ
 * importer (installed by ./mshed-dev; a skip without it, a failure under
 * MSHED_REQUIRE_ALL_TESTS) sees the same triangles.
 */
#include "config.h"

#include <string.h>

#include "mshed-dfm.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "test-cli-util.h"
#include "test-require.h"

/* What an OBJ holds, read with nothing but the OBJ grammar -------------------------------- */

typedef struct {
  char      *name;
  GPtrArray *usemtl;     /* char *, in order */
  guint      triangles;
} ObjGroup;

typedef struct {
  guint      v, vt, vn, f;
  char      *mtllib;
  GPtrArray *objects;    /* char *: the `o` names */
  GPtrArray *groups;     /* ObjGroup * */
  GHashTable *newmtl;    /* the .mtl's names */
} Obj;

static void
obj_group_free (gpointer data)
{
  ObjGroup *g = data;

  g_free (g->name);
  g_ptr_array_unref (g->usemtl);
  g_free (g);
}

static void
obj_free (Obj *obj)
{
  g_free (obj->mtllib);
  g_ptr_array_unref (obj->objects);
  g_ptr_array_unref (obj->groups);
  g_hash_table_unref (obj->newmtl);
  g_free (obj);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Obj, obj_free)

/* A number as OBJ writes it: C syntax, nothing after it. */
static void
check_numbers (char  **words,
               guint   count)
{
  g_assert_cmpuint (g_strv_length (words), ==, count + 1);
  for (guint i = 1; i <= count; i++)
    {
      char *end = NULL;

      g_ascii_strtod (words[i], &end);
      g_assert_true (end != words[i] && *end == '\0');
    }
}

static Obj *
read_obj (const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  Obj *obj = g_new0 (Obj, 1);
  ObjGroup *group = NULL;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  obj->objects = g_ptr_array_new_with_free_func (g_free);
  obj->groups = g_ptr_array_new_with_free_func (obj_group_free);
  obj->newmtl = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) w = g_strsplit (lines[i], " ", -1);
      const char *rest = strchr (lines[i], ' ') ? strchr (lines[i], ' ') + 1 : "";

      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      g_assert_null (strchr (lines[i], ','));   /* no decimal comma */
      if (strcmp (w[0], "v") == 0 || strcmp (w[0], "vn") == 0)
        {
          check_numbers (w, 3);
          (w[0][1] ? obj->vn++ : obj->v++);
        }
      else if (strcmp (w[0], "vt") == 0)
        {
          check_numbers (w, 2);
          obj->vt++;
        }
      else if (strcmp (w[0], "f") == 0)
        {
          g_assert_cmpuint (g_strv_length (w), ==, 4);
          for (guint k = 1; k <= 3; k++)
            {
              g_auto(GStrv) ref = g_strsplit (w[k], "/", -1);

              g_assert_cmpuint (g_strv_length (ref), ==, 3);
              /* 1-based, already defined (v, vt and vn are written together) */
              g_assert_cmpuint (g_ascii_strtoull (ref[0], NULL, 10), >=, 1);
              g_assert_cmpuint (g_ascii_strtoull (ref[0], NULL, 10), <=, obj->v);
              g_assert_cmpuint (g_ascii_strtoull (ref[1], NULL, 10), <=, obj->vt);
              g_assert_cmpuint (g_ascii_strtoull (ref[2], NULL, 10), <=, obj->vn);
            }
          g_assert_nonnull (group);
          group->triangles++;
          obj->f++;
        }
      else if (strcmp (w[0], "o") == 0)
        g_ptr_array_add (obj->objects, g_strdup (rest));
      else if (strcmp (w[0], "g") == 0)
        {
          group = g_new0 (ObjGroup, 1);
          group->name = g_strdup (rest);
          group->usemtl = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (obj->groups, group);
        }
      else if (strcmp (w[0], "usemtl") == 0)
        {
          g_assert_nonnull (group);
          g_ptr_array_add (group->usemtl, g_strdup (rest));
        }
      else if (strcmp (w[0], "mtllib") == 0)
        obj->mtllib = g_strdup (rest);
      else
        g_assert_not_reached ();
    }
  g_assert_cmpuint (obj->v, ==, obj->vt);
  g_assert_cmpuint (obj->v, ==, obj->vn);
  g_assert_nonnull (obj->mtllib);
  {
    g_autoptr(GBytes) mtl = read_file (obj->mtllib);
    g_autofree char *mtext = g_strndup (g_bytes_get_data (mtl, NULL), g_bytes_get_size (mtl));
    g_auto(GStrv) mlines = g_strsplit (mtext, "\n", -1);

    for (guint i = 0; mlines[i]; i++)
      if (g_str_has_prefix (mlines[i], "newmtl "))
        g_hash_table_add (obj->newmtl, g_strdup (mlines[i] + strlen ("newmtl ")));
      else if (g_str_has_prefix (mlines[i], "Kd "))
        {
          g_auto(GStrv) w = g_strsplit (mlines[i], " ", -1);

          check_numbers (w, 3);
        }
  }
  /* every usemtl is defined in the .mtl */
  for (guint g = 0; g < obj->groups->len; g++)
    {
      ObjGroup *og = obj->groups->pdata[g];

      for (guint m = 0; m < og->usemtl->len; m++)
        g_assert_true (g_hash_table_contains (obj->newmtl, og->usemtl->pdata[m]));
    }
  return obj;
}

static void
export_ok (const char *input,
           const char *output,
           const char *option,
           const char *value)
{
  Run run = { 0 };

  run_cli (&run, "export", input, "-q", "-o", output, option, value, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
}

/* MSH ----------------------------------------------------------------------------------------- */

static MshedModel *
generated_msh (const char *name,
               guint64     seed,
               guint       triangles,
               guint       nodes,
               gboolean    cyrillic,
               gboolean    animated)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MshedModel *model;

  mshed_gen_params_init (&params, seed);
  params.n_triangles = triangles;
  params.n_nodes = nodes;
  params.cyrillic_names = cyrillic;
  params.animated = animated;
  bytes = mshed_generate_model_bytes (&params);
  write_file (name, bytes);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  return model;
}

/* The export of @model at (@lod, @group) against its tables: one group per node that draws
 * something there (Res1 -> Res2 -> Res13), its triangles and its batches' materials. */
static void
check_msh (MshedModel *model,
           const Obj  *obj,
           guint       lod,
           guint       group)
{
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES), next = 0, total = 0;

  for (guint n = 0; n < n_nodes; n++)
    {
      MshedNode node;
      MshedSlot slot;
      guint16 s;
      ObjGroup *og;
      g_autofree char *name = NULL;
      guint triangles = 0;

      g_assert_true (mshed_model_get_node (model, n, &node));
      s = node.slot[lod * 5 + group];
      if (s == 0xFFFF)
        continue;
      g_assert_true (mshed_model_get_slot (model, s, &slot));
      if (slot.batch_count == 0)
        continue;
      g_assert_cmpuint (next, <, obj->groups->len);
      og = obj->groups->pdata[next];
      name = expected_node_name (model, n);
      g_assert_cmpstr (og->name, ==, name);
      g_assert_cmpstr (obj->objects->pdata[next], ==, name);
      g_assert_cmpuint (og->usemtl->len, ==, slot.batch_count);
      for (guint b = 0; b < slot.batch_count; b++)
        {
          MshedBatch batch;
          g_autofree char *material = NULL;

          g_assert_true (mshed_model_get_batch (model, slot.batch_start + b, &batch));
          material = g_strdup_printf ("material %u", batch.material_index);
          g_assert_cmpstr (og->usemtl->pdata[b], ==, material);
          triangles += batch.index_count / 3;
        }
      g_assert_cmpuint (og->triangles, ==, triangles);
      total += triangles;
      next++;
    }
  g_assert_cmpuint (obj->groups->len, ==, next);
  g_assert_cmpuint (obj->objects->len, ==, next);
  g_assert_cmpuint (obj->f, ==, total);
  g_assert_cmpuint (total, >, 0);
}

static GPtrArray *exported;   /* OBJ name, expected triangles (as a string), ... */

static void
remember (const char *name,
          guint       triangles)
{
  g_ptr_array_add (exported, path_in_tmp (name));
  g_ptr_array_add (exported, g_strdup_printf ("%u", triangles));
}

static void
test_obj_msh (void)
{
  g_autoptr(MshedModel) lods = generated_msh ("lods.msh", 7, 2000, 24, FALSE, FALSE);
  g_autoptr(MshedModel) names = generated_msh ("names.msh", 9, 600, 20, TRUE, TRUE);
  struct { MshedModel *model; const char *input, *output, *lod, *group; } cases[] = {
    { lods, "lods.msh", "lods.obj", "0", "0" },
    { lods, "lods.msh", "lods-1-0.obj", "1", "0" },
    { lods, "lods.msh", "lods-0-2.obj", "0", "2" },
    { names, "names.msh", "names.obj", "0", "0" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(Obj) obj = NULL;
      Run run = { 0 };

      run_cli (&run, "export", cases[c].input, "-q", "-o", cases[c].output, "--lod",
               cases[c].lod, "--group", cases[c].group, NULL);
      g_assert_cmpstr (run.err, ==, "");
      g_assert_cmpint (run.status, ==, 0);
      run_clear (&run);
      obj = read_obj (cases[c].output);
      check_msh (cases[c].model, obj, cases[c].lod[0] - '0', cases[c].group[0] - '0');
      remember (cases[c].output, obj->f);
    }
}

/* A pose at a frame moves the vertices of an animated model but not its faces. */
static void
test_obj_frame (void)
{
  g_autoptr(MshedModel) model = generated_msh ("frame.msh", 9, 600, 20, FALSE, TRUE);
  g_autoptr(GBytes) rest = NULL;
  g_autoptr(GBytes) posed = NULL;
  g_autoptr(Obj) obj = NULL;

  export_ok ("frame.msh", "rest.obj", "--lod", "0");
  export_ok ("frame.msh", "posed.obj", "--frame", "7");
  obj = read_obj ("posed.obj");
  check_msh (model, obj, 0, 0);
  rest = read_file ("rest.obj");
  posed = read_file ("posed.obj");
  g_assert_false (g_bytes_equal (rest, posed));
}

/* LC_NUMERIC with a decimal comma: still dots (read_obj refuses any comma). */
static void
test_obj_locale (void)
{
  g_autoptr(MshedModel) model = generated_msh ("locale.msh", 11, 300, 4, FALSE, FALSE);
  g_autoptr(Obj) obj = NULL;
  g_autofree char *old_all = g_strdup (g_getenv ("LC_ALL"));

  g_unsetenv ("LC_ALL");
  g_setenv ("LC_NUMERIC", "ru_RU.UTF-8", TRUE);
  export_ok ("locale.msh", "locale.obj", "--lod", "0");
  g_unsetenv ("LC_NUMERIC");
  if (old_all)
    g_setenv ("LC_ALL", old_all, TRUE);
  obj = read_obj ("locale.obj");
  check_msh (model, obj, 0, 0);
}

/* DFM ----------------------------------------------------------------------------------------- */

static void
test_obj_dfm (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  Run run = { 0 };
  guint n_levels;

  run_cli (&run, "generate", "--dfm", "head", "--seed", "7", "-q", "-o", "head.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  bytes = read_file ("head.dfm");
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  n_levels = mshed_dfm_get_n_levels (dfm);
  g_assert_cmpuint (n_levels, >, 1);
  for (guint l = 0; l < n_levels; l++)
    {
      g_autofree char *level_text = g_strdup_printf ("%u", l);
      g_autofree char *output = g_strdup_printf ("head-%u.obj", l);
      g_autoptr(Obj) obj = NULL;
      MshedDfmLevel level;
      gsize total = 0;

      export_ok ("head.dfm", output, "--level", level_text);
      obj = read_obj (output);
      g_assert_true (mshed_dfm_get_level (dfm, l, &level));
      g_assert_cmpuint (obj->v, ==, level.n_elements);
      g_assert_cmpuint (obj->groups->len, ==, level.n_groups);
      for (guint g = 0; g < level.n_groups; g++)
        {
          ObjGroup *og = obj->groups->pdata[g];
          MshedDfmGroup group;
          gsize n = 0;
          g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, l, g, &n);
          g_autofree char *name = g_strdup_printf ("Group%u", g);

          g_assert_true (mshed_dfm_get_group (dfm, l, g, &group));
          g_assert_nonnull (group.material_name);
          g_assert_cmpstr (og->name, ==, name);
          g_assert_cmpuint (og->usemtl->len, ==, 1);
          g_assert_cmpstr (og->usemtl->pdata[0], ==, group.material_name);
          g_assert_cmpuint (og->triangles, ==, n);
          total += n;
        }
      g_assert_cmpuint (obj->f, ==, total);
      g_assert_cmpuint (total, >, 0);
      remember (output, obj->f);
    }
}

/* Usage ---------------------------------------------------------------------------------------- */

static void
test_obj_usage (void)
{
  g_autoptr(MshedModel) model = generated_msh ("usage.msh", 11, 12, 1, FALSE, FALSE);
  struct { const char *input, *option, *value; } bad[] = {
    { "usage.msh", "--level", "0" },   /* --level is for DFM */
    { "usage.msh", "--lod", "3" },
    { "usage-head.dfm", "--lod", "0" },  /* --lod is for MSH */
    { "usage-head.dfm", "--frame", "1" },
    { "usage-head.dfm", "--level", "99" },
  };
  Run run = { 0 };

  run_cli (&run, "generate", "--dfm", "head", "--seed", "3", "-q", "-o", "usage-head.dfm",
           NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      run_cli (&run, "export", bad[i].input, "-o", "bad.obj", bad[i].option, bad[i].value,
               NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.err, !=, "");
      run_clear (&run);
      g_assert_false (tmp_file_exists ("bad.obj"));
      g_assert_false (tmp_file_exists ("bad.mtl"));
    }
  /* the summary names both files */
  run_cli (&run, "export", "usage.msh", "-o", "usage.OBJ", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "usage.MTL"));
  run_clear (&run);
  g_assert_true (tmp_file_exists ("usage.MTL"));
}

/* Blender -------------------------------------------------------------------------------------- */

static const char blender_script[] =
  "import sys, bpy\n"
  "for path in sys.argv[sys.argv.index('--') + 1:]:\n"
  "    bpy.ops.wm.read_factory_settings(use_empty=True)\n"
  "    if bpy.ops.import_scene.obj(filepath=path) != {'FINISHED'}:\n"
  "        raise RuntimeError(path)\n"
  "    n = 0\n"
  "    for obj in bpy.data.objects:\n"
  "        if obj.type == 'MESH':\n"
  "            obj.data.calc_loop_triangles()\n"
  "            n += len(obj.data.loop_triangles)\n"
  "    print('MSHED-BLENDER-OBJ', path, n)\n";

static void
test_obj_blender (void)
{
  g_autofree char *script = path_in_tmp ("blender-obj.py");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  const char *head[] = { "blender", "--background", "--factory-startup", "--python-exit-code",
                         "1", "--python", script, "--" };
  guint seen = 0;
  int status = 0;

  g_assert_cmpuint (exported->len, >, 0);
  g_assert_true (write_text ("blender-obj.py", blender_script));
  for (guint i = 0; i < G_N_ELEMENTS (head); i++)
    g_ptr_array_add (argv, (char *) head[i]);
  for (guint i = 0; i < exported->len; i += 2)
    g_ptr_array_add (argv, exported->pdata[i]);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                     &status, &error))
    {
      mshed_test_skip ("Blender is not installed (./mshed-dev deps installs it)");
      return;
    }
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) w = NULL;

      if (!g_str_has_prefix (lines[i], "MSHED-BLENDER-OBJ "))
        continue;
      w = g_strsplit (lines[i], " ", -1);
      g_assert_cmpuint (g_strv_length (w), ==, 3);
      g_assert_cmpstr (w[1], ==, exported->pdata[2 * seen]);
      g_test_message ("Blender: %s: %s triangles", w[1], w[2]);
      g_assert_cmpstr (w[2], ==, exported->pdata[2 * seen + 1]);
      seen++;
    }
  g_assert_cmpuint (seen, ==, exported->len / 2);
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
  g_test_add_func ("/obj/usage", test_obj_usage);
  g_test_add_func ("/obj/locale", test_obj_locale);
  g_test_add_func ("/obj/frame", test_obj_frame);
  /* Blender reads what these wrote: keep this order */
  g_test_add_func ("/obj/msh", test_obj_msh);
  g_test_add_func ("/obj/dfm", test_obj_dfm);
  g_test_add_func ("/obj/blender", test_obj_blender);
  status = g_test_run ();
  g_ptr_array_unref (exported);
  cli_test_finish (status);
  return status;
}
