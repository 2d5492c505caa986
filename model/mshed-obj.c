/* mshed-obj.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The MSH side draws what the preview draws (mshed-render-scene.h: the draw items of one LOD
 * and group, the node world matrices of one pose); the DFM side reads the level's elements
 * and each group's triangles (mshed-dfm.h). Every object writes its own v/vt/vn, one per vertex
 * it uses, so a face's three indices are the same number.
 */
#define G_LOG_DOMAIN "mshed-obj"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-gltf.h"
#include "mshed-obj.h"
#include "mshed-render-scene.h"

#define NOT_USED G_MAXUINT32

void
mshed_obj_options_init (MshedObjOptions *options)
{
  memset (options, 0, sizeof *options);
}

/* Numbers ------------------------------------------------------------------------------- */

static void
append_number (GString *s,
               double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    value = 0.0;
  g_string_append_c (s, ' ');
  g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.9g", value));
}

/* One `v`, `vt` and `vn` line. OBJ's v runs up from the bottom of the texture, the stored v
 * (Direct3D's) down from the top: vt is (u, 1 - v). */
static void
append_vertex (GString     *s,
               const float  position[3],
               const float  normal[3],
               const float  uv[2])
{
  g_string_append_c (s, 'v');
  for (guint k = 0; k < 3; k++)
    append_number (s, position[k]);
  g_string_append (s, "\nvt");
  append_number (s, uv[0]);
  append_number (s, 1.0f - uv[1]);
  g_string_append (s, "\nvn");
  for (guint k = 0; k < 3; k++)
    append_number (s, normal[k]);
  g_string_append_c (s, '\n');
}

static void
append_face (GString *s,
             guint    a,
             guint    b,
             guint    c)
{
  g_string_append_printf (s, "f %u/%u/%u %u/%u/%u %u/%u/%u\n", a, a, a, b, b, b, c, c, c);
}

/* A name on one line: control characters (a line break would end the statement) become '_'. */
static void
append_name_line (GString    *s,
                  const char *keyword,
                  const char *name)
{
  g_string_append_printf (s, "%s ", keyword);
  for (const char *p = name; *p; p++)
    g_string_append_c (s, (guchar) *p < 0x20 || *p == 0x7f ? '_' : *p);
  g_string_append_c (s, '\n');
}

static void
append_material (GString      *mtl,
                 const char   *name,
                 const double  diffuse[3])
{
  append_name_line (mtl, "newmtl", name);
  g_string_append (mtl, "Kd");
  for (guint k = 0; k < 3; k++)
    append_number (mtl, diffuse[k]);
  g_string_append (mtl, "\nKa 0 0 0\nKs 0 0 0\nd 1\nillum 1\n\n");
}

static void
begin (GString               *obj,
       GString               *mtl,
       const MshedObjOptions *options,
       const char            *what)
{
  g_string_append_printf (obj, "# %s, written by mshed %s\n", what, PACKAGE_VERSION);
  g_string_append_printf (mtl, "# materials of %s, written by mshed %s\n\n", what,
                          PACKAGE_VERSION);
  if (options->mtllib)
    append_name_line (obj, "mtllib", options->mtllib);
}

/* MSH ---------------------------------------------------------------------------------------- */

typedef struct {
  MshedRenderScene *scene;
  GString          *obj;
  GString          *mtl;
  MshedObjStats     stats;
  guint32          *index;      /* per Res3 vertex: its OBJ number in the current object */
  GArray           *used;       /* guint32: the current object's vertices, to reset @index */
  GHashTable       *materials;  /* material index + 1 -> itself */
} MshBuilder;

static void
transform (const float m[16],
           const float in[3],
           float       w,
           float       out[3])
{
  for (guint r = 0; r < 3; r++)
    out[r] = m[r] * in[0] + m[4 + r] * in[1] + m[8 + r] * in[2] + m[12 + r] * w;
}

static guint
msh_vertex (MshBuilder  *b,
            const float *world,
            guint32      v)
{
  float pos[3], nrm[3], uv[2], wpos[3], wnrm[3], len;

  if (b->index[v] != NOT_USED)
    return b->index[v];
  mshed_render_scene_read_vertices (b->scene, v, 1, pos, nrm, uv);
  transform (world, pos, 1.0f, wpos);
  transform (world, nrm, 0.0f, wnrm);
  len = sqrtf (wnrm[0] * wnrm[0] + wnrm[1] * wnrm[1] + wnrm[2] * wnrm[2]);
  if (len > 0.0f)
    for (guint k = 0; k < 3; k++)
      wnrm[k] /= len;
  append_vertex (b->obj, wpos, wnrm, uv);
  g_array_append_val (b->used, v);
  b->index[v] = ++b->stats.vertices;
  return b->index[v];
}

static void
msh_object (MshBuilder          *b,
            const MshedDrawItem *items,
            guint                n_items)
{
  MshedModel *model = mshed_render_scene_get_model (b->scene);
  const float *world = mshed_render_scene_get_world (b->scene, items[0].node);
  guint n_elements;
  const guint32 *elements = mshed_render_scene_get_elements (b->scene, &n_elements);
  g_autofree char *name = items[0].node == MSHED_NONE ? g_strdup ("all batches")
                          : mshed_gltf_node_name (model, items[0].node);

  append_name_line (b->obj, "o", name);
  append_name_line (b->obj, "g", name);
  b->stats.objects++;
  for (guint i = 0; i < n_items; i++)
    {
      MshedBatch batch = { 0 };
      guint m;

      mshed_model_get_batch (model, items[i].batch, &batch);
      m = batch.material_index;
      g_string_append_printf (b->obj, "usemtl material %u\n", m);
      if (!g_hash_table_contains (b->materials, GUINT_TO_POINTER (m + 1)))
        {
          static const double grey[3] = { 0.8, 0.8, 0.8 };
          g_autofree char *mname = g_strdup_printf ("material %u", m);

          g_hash_table_add (b->materials, GUINT_TO_POINTER (m + 1));
          append_material (b->mtl, mname, grey);
          b->stats.materials++;
        }
      for (guint e = items[i].elem_first; e + 2 < items[i].elem_first + items[i].elem_count &&
           e + 2 < n_elements; e += 3)
        {
          guint a = msh_vertex (b, world, elements[e]);
          guint c = msh_vertex (b, world, elements[e + 1]);
          guint d = msh_vertex (b, world, elements[e + 2]);

          append_face (b->obj, a, c, d);
          b->stats.triangles++;
        }
    }
  for (guint i = 0; i < b->used->len; i++)
    b->index[g_array_index (b->used, guint32, i)] = NOT_USED;
  g_array_set_size (b->used, 0);
}

void
mshed_obj_export_msh (MshedModel            *model,
                      const MshedObjOptions *options,
                      GString               *obj,
                      GString               *mtl,
                      MshedObjStats         *stats)
{
  MshBuilder b = { 0 };
  const MshedDrawItem *items;
  guint n_items, n_vertices, first = 0;
  g_autofree char *what = NULL;

  b.scene = mshed_render_scene_new (model);
  b.obj = obj;
  b.mtl = mtl;
  b.used = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.materials = g_hash_table_new (NULL, NULL);
  /* t = -1: every node's fallback key, the rest pose (as in the glTF export) */
  mshed_render_scene_set_time (b.scene, options->at_frame ? (float) options->frame : -1.0f,
                               NULL);
  mshed_render_scene_set_view (b.scene, options->lod, options->group);
  n_vertices = mshed_render_scene_get_n_vertices (b.scene);
  b.index = g_new (guint32, MAX (n_vertices, 1));
  for (guint v = 0; v < n_vertices; v++)
    b.index[v] = NOT_USED;
  what = options->at_frame
         ? g_strdup_printf ("LOD %u, group %u, frame %u", options->lod, options->group,
                            options->frame)
         : g_strdup_printf ("LOD %u, group %u, rest pose", options->lod, options->group);
  begin (obj, mtl, options, what);
  items = mshed_render_scene_get_items (b.scene, &n_items);
  for (guint i = 1; i <= n_items; i++)
    if (i == n_items || items[i].node != items[first].node)
      {
        msh_object (&b, items + first, i - first);
        first = i;
      }
  if (stats)
    *stats = b.stats;
  g_free (b.index);
  g_array_unref (b.used);
  g_hash_table_unref (b.materials);
  mshed_render_scene_free (b.scene);
}

/* DFM ---------------------------------------------------------------------------------------- */

static void
dfm_material (const MshedDfm *dfm,
              const char     *name,
              GHashTable     *seen,
              GString        *mtl,
              MshedObjStats  *stats)
{
  double diffuse[3] = { 0.8, 0.8, 0.8 };
  MshedDfmMaterial material;
  gint index;

  if (g_hash_table_contains (seen, name))
    return;
  g_hash_table_add (seen, g_strdup (name));
  index = mshed_dfm_find_material (dfm, name);
  if (index >= 0 && mshed_dfm_get_material (dfm, (guint) index, &material) && material.has_dc)
    for (guint k = 0; k < 3; k++)
      diffuse[k] = material.dc[k];
  append_material (mtl, name, diffuse);
  stats->materials++;
}

gboolean
mshed_obj_export_dfm (const MshedDfm        *dfm,
                      const MshedObjOptions *options,
                      GString               *obj,
                      GString               *mtl,
                      MshedObjStats         *stats)
{
  MshedObjStats s = { 0 };
  MshedDfmLevel level;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *what = NULL;

  if (!mshed_dfm_get_level (dfm, options->level, &level))
    return FALSE;
  what = g_strdup_printf ("level %u, bind pose", options->level);
  begin (obj, mtl, options, what);
  /* One v/vt/vn per element: its point's position and normal and its UV0. */
  for (guint e = 0; e < level.n_elements; e++)
    {
      MshedDfmElement element;

      if (!mshed_dfm_get_element (dfm, options->level, e, &element))
        memset (&element, 0, sizeof element);
      append_vertex (obj, element.position, element.normal, element.uv0);
      s.vertices++;
    }
  for (guint g = 0; g < level.n_groups; g++)
    {
      MshedDfmGroup group = { 0 };
      gsize n = 0;
      g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, options->level, g, &n);
      g_autofree char *name = NULL;
      const char *material;

      mshed_dfm_get_group (dfm, options->level, g, &group);
      name = group.node ? g_strdup (mshed_utf_node_get_name (group.node))
                        : g_strdup_printf ("Group%u", g);
      material = group.material_name ? group.material_name : "default";
      append_name_line (obj, "g", name);
      append_name_line (obj, "usemtl", material);
      dfm_material (dfm, material, seen, mtl, &s);
      s.objects++;
      for (gsize t = 0; t < n; t++)
        {
          const guint16 *tri = tris + 3 * t;

          if (tri[0] >= level.n_elements || tri[1] >= level.n_elements ||
              tri[2] >= level.n_elements)
            continue;
          append_face (obj, tri[0] + 1u, tri[1] + 1u, tri[2] + 1u);
          s.triangles++;
        }
    }
  if (stats)
    *stats = s;
  return TRUE;
}

char *
mshed_obj_mtl_path (const char *obj_path)
{
  gsize len = strlen (obj_path);
  g_autofree char *stem = NULL;

  g_return_val_if_fail (len >= 4, NULL);
  stem = g_strndup (obj_path, len - 4);
  return g_strconcat (stem, g_ascii_isupper (obj_path[len - 1]) ? ".MTL" : ".mtl", NULL);
}
