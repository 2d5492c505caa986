/* mshed-gltf-import.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Import as an update (docs/gltf.md §6). Everything is planned first: the new bytes of every
 * record the glTF changes are built in copies of the tables, and the glTF is refused before
 * the document is touched. Then the changed records are written, in one undo group, and the
 * stale derived data is recomputed inside the same group.
 *
 * "Changed" is judged within each format's quantisation, so that what a round trip through
 * another program rounds (Blender's normals, its 1 − v flip of texture coordinates, its
 * matrix decomposition) does not count as an edit.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-gltf-import.h"
#include "mshed-gltf-rebuild.h"
#include "mshed-gltf.h"
#include "mshed-render-scene.h"
#include "mshed-schema.h"

#define UNMAPPED G_MAXUINT

/* A table's records as the import wants them; @assigned marks the rows the glTF spoke for. */
typedef struct {
  MshedTableId table;
  guint        stride;
  guint        n_rows;
  guint8      *data;
  guint8      *assigned;
} Table;

typedef struct {
  guint node;
  char *name;
} Rename;

typedef struct {
  MshedModel           *model;
  const MshedGltf      *gltf;
  MshedRenderScene     *scene;
  Table                 tables[4];   /* T_NODES, T_POSITIONS, T_NORMALS, T_UVS */
  Table                 keys;
  guint                 n_nodes;
  guint                *gltf_node;   /* per MSH node: its glTF node, or UNMAPPED */
  guint8               *role;        /* per glTF node: a Role */
  gboolean              at_frame;
  GArray               *renames;
  MshedGltfRebuild     *rebuild;     /* topology changes and new nodes (docs/gltf.md §6.2) */
  guint                 edits;       /* document edits made */
  MshedGltfImportStats  stats;
  MshedProgress        *progress;
} Importer;

enum { T_NODES, T_POSITIONS, T_NORMALS, T_UVS };

/* What a glTF node is to the import: an exported node or carrier of the model's meshes, or a
 * new node (no extras, or a copy of an exported one) or one of its other-cell carriers, which
 * the rebuild takes (docs/conventions.md, “A duplicated object”). */
typedef enum { ROLE_KEPT, ROLE_NEW, ROLE_NEW_CELL } Role;

#define fail(x, error, ...) mshed_gltf_fail ((x)->gltf, error, __VA_ARGS__)

static void
table_init (Table       *t,
            MshedModel  *model,
            MshedTableId id)
{
  t->table = id;
  t->n_rows = mshed_model_get_n_rows (model, id);
  t->stride = id == MSHED_TABLE_NODES ? mshed_model_get_node_stride (model)
                                      : mshed_schema_get_table (id)->stride;
  t->data = g_malloc (MAX ((gsize) t->n_rows * t->stride, 1));
  t->assigned = g_malloc0 (MAX (t->n_rows, 1));
  for (guint r = 0; r < t->n_rows; r++)
    memcpy (t->data + (gsize) r * t->stride, mshed_model_get_record (model, id, r), t->stride);
}

static void
table_clear (Table *t)
{
  g_free (t->data);
  g_free (t->assigned);
}

static guint8 *
row (Table *t,
     guint  r)
{
  return t->data + (gsize) r * t->stride;
}

/* Assigns @record to row @r; FALSE when an earlier glTF object gave it different bytes. */
static gboolean
assign (Table        *t,
        guint         r,
        const guint8 *record)
{
  if (t->assigned[r])
    return memcmp (row (t, r), record, t->stride) == 0;
  memcpy (row (t, r), record, t->stride);
  t->assigned[r] = 1;
  return TRUE;
}

static gboolean
close_float (float a,
             float b)
{
  return a == b || fabsf (a - b) <= 1e-6f * MAX (1.0f, fabsf (b));
}

/* Normalises @q (x, y, z, w) and turns it to the hemisphere of @like. */
static void
unit_like (float       q[4],
           const float like[4])
{
  float len = sqrtf (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  float dot = 0;

  if (!(len > 0))
    {
      q[0] = q[1] = q[2] = 0, q[3] = 1;
      len = 1;
    }
  for (guint k = 0; k < 4; k++)
    dot += (q[k] /= len) * like[k];
  if (dot < 0)
    for (guint k = 0; k < 4; k++)
      q[k] = -q[k];
}

/* Within the s16 quantisation of a stored rotation? */
static gboolean
close_rotation (const float a[4],
                const float b[4])
{
  for (guint k = 0; k < 4; k++)
    if (fabsf (a[k] - b[k]) > 1.5f / 32767.0f)
      return FALSE;
  return TRUE;
}

/* Writes a key's translation and rotation (keeping what is still right) into @key. */
static void
update_key (guint8      *key,
            const float  pos[3],
            const float  xyzw[4])
{
  float now[4], stored_wxyz[4];
  gint16 stored[4];

  for (guint k = 0; k < 3; k++)
    if (!close_float (pos[k], mshed_read_f32 (key + 4 * k)))
      mshed_write_f32 (key + 4 * k, pos[k]);
  for (guint k = 0; k < 4; k++)
    stored[k] = (gint16) mshed_read_u16 (key + 16 + 2 * k);
  mshed_quat_from_stored (stored, stored_wxyz);
  mshed_gltf_rotation (stored_wxyz, now);
  if (!close_rotation (xyzw, now))
    for (guint k = 0; k < 4; k++)
      mshed_write_u16 (key + 16 + 2 * k, (guint16) mshed_encode_quat (xyzw[k]));
}

/* The scene and the nodes ------------------------------------------------------------------ */

static gboolean
check_scene (Importer  *imp,
             GError   **error)
{
  JsonObject *scene = imp->gltf->scene_mshed;
  JsonNode *frame;
  guint version = 0, size = 0;

  if (scene == NULL)
    return fail (imp, error, _("scenes[0] has no “mshed” extras: the file was not exported by "
                               "mshed, or was saved without its custom properties (Blender: "
                               "Include → Custom Properties)"));
  if (!mshed_gltf_extra_uint (scene, "version", G_MAXUINT, &version) ||
      version != MSHED_GLTF_EXTRAS_VERSION)
    return fail (imp, error, _("scenes[0]: extras version %u; this mshed reads version %d"),
                 version, MSHED_GLTF_EXTRAS_VERSION);
  if (!mshed_gltf_extra_uint (scene, "nodeRecordSize", G_MAXUINT, &size) ||
      size != mshed_model_get_node_stride (imp->model))
    return fail (imp, error, _("scenes[0]: exported from a model with %u-byte node records, "
                               "this one has %u"), size,
                 mshed_model_get_node_stride (imp->model));
  frame = json_object_get_member (scene, "frame");
  imp->at_frame = frame != NULL && !JSON_NODE_HOLDS_NULL (frame);
  return TRUE;
}

/* Blender makes names unique with ".001" and cuts them at 63 bytes. */
static gboolean
same_name (const char *gltf_name,
           const char *name)
{
  gsize len = strlen (name);

  if (g_strcmp0 (gltf_name, name) == 0)
    return TRUE;
  if (strlen (gltf_name) == 63 && len > 63 && strncmp (gltf_name, name, 63) == 0)
    return TRUE;
  return strncmp (gltf_name, name, len) == 0 && strlen (gltf_name) == len + 4 &&
         gltf_name[len] == '.' && g_ascii_isdigit (gltf_name[len + 1]) &&
         g_ascii_isdigit (gltf_name[len + 2]) && g_ascii_isdigit (gltf_name[len + 3]);
}

/* How well glTF node @i's name matches MSH node @node's: 0 the same, 1 the same but for
 * Blender's suffix or cut, 2 another name. */
static guint
name_rank (Importer *imp,
           guint     i,
           guint     node)
{
  g_autofree char *name = mshed_gltf_node_name (imp->model, node);
  const char *gltf_name = imp->gltf->nodes[i].name;

  if (g_strcmp0 (gltf_name, name) == 0)
    return 0;
  return same_name (gltf_name, name) ? 1 : 2;
}

/* Of two glTF nodes naming MSH node @node in their extras (Blender's Shift+D copies them),
 * does @i keep the node rather than @kept? The one named like the node, exactly, else with
 * the lowest Blender suffix; else the first. */
static gboolean
keeps_node (Importer *imp,
            guint     i,
            guint     kept,
            guint     node)
{
  guint ri = name_rank (imp, i, node), rk = name_rank (imp, kept, node);

  if (ri != rk)
    return ri < rk;
  return ri == 1 && strcmp (imp->gltf->nodes[i].name, imp->gltf->nodes[kept].name) < 0;
}

static gboolean
is_carrier (JsonObject *x)
{
  return x && (json_object_has_member (x, "lod") || json_object_has_member (x, "allBatches"));
}

static gboolean
map_nodes (Importer  *imp,
           GError   **error)
{
  const MshedGltf *g = imp->gltf;

  for (guint i = 0; i < g->n_nodes; i++)
    {
      JsonObject *x = g->nodes[i].mshed;
      guint node;

      imp->role[i] = ROLE_NEW;
      if (is_carrier (x))
        imp->role[i] = ROLE_KEPT;
      if (is_carrier (x) || x == NULL || !json_object_has_member (x, "node"))
        continue;
      if (!mshed_gltf_extra_uint (x, "node", imp->n_nodes, &node))
        return fail (imp, error, _("nodes[%u] (“%s”): its extras name an MSH node the model "
                                   "does not have (%u nodes); was it exported from another "
                                   "model?"), i, g->nodes[i].name, imp->n_nodes);
      if (imp->gltf_node[node] == UNMAPPED || keeps_node (imp, i, imp->gltf_node[node], node))
        imp->gltf_node[node] = i;
    }
  for (guint n = 0; n < imp->n_nodes; n++)
    if (imp->gltf_node[n] != UNMAPPED)
      imp->role[imp->gltf_node[n]] = ROLE_KEPT;
  for (guint i = 0; i < g->n_nodes; i++)
    if (imp->role[i] == ROLE_NEW)
      mshed_gltf_rebuild_add_node (imp->rebuild, i);
    else if (is_carrier (g->nodes[i].mshed) && g->nodes[i].parent >= 0 &&
             imp->role[g->nodes[i].parent] == ROLE_NEW)
      imp->role[i] = ROLE_NEW_CELL;
  return TRUE;
}

/* Two other-cell nodes for one cell of an exported node (one copied beside the other): MSH
 * holds one mesh per cell. */
static gboolean
check_cells (Importer  *imp,
             GError   **error)
{
  const MshedGltf *g = imp->gltf;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < g->n_nodes; i++)
    {
      JsonObject *x = g->nodes[i].mshed;
      guint node, lod, group, key;

      if (imp->role[i] != ROLE_KEPT || !mshed_gltf_extra_uint (x, "node", imp->n_nodes, &node) ||
          !mshed_gltf_extra_uint (x, "lod", MSHED_N_LODS, &lod) ||
          !mshed_gltf_extra_uint (x, "group", MSHED_N_GROUPS, &group))
        continue;
      key = node * MSHED_N_SLOT_CELLS + lod * MSHED_N_GROUPS + group + 1;
      if (!g_hash_table_contains (seen, GUINT_TO_POINTER (key)))
        g_hash_table_add (seen, GUINT_TO_POINTER (key));
      else if (imp->gltf_node[node] != UNMAPPED)
        return fail (imp, error, _("nodes[%u] (“%s”): a second mesh for LOD %u / group %u of "
                                   "nodes[%u] (“%s”); an MSH node has one mesh per cell"), i,
                     g->nodes[i].name, lod, group, imp->gltf_node[node],
                     g->nodes[imp->gltf_node[node]].name);
    }
  return TRUE;
}

static void
plan_names (Importer *imp)
{
  for (guint i = 0; i < imp->n_nodes; i++)
    {
      g_autofree char *name = NULL;
      const char *wanted;

      if (imp->gltf_node[i] == UNMAPPED)
        continue;
      name = mshed_gltf_node_name (imp->model, i);
      wanted = imp->gltf->nodes[imp->gltf_node[i]].name;
      if (!same_name (wanted, name))
        {
          Rename r = { i, g_strdup (wanted) };

          g_array_append_val (imp->renames, r);
        }
    }
}

static gboolean
plan_parents (Importer  *imp,
              GError   **error)
{
  g_autofree guint16 *parents = mshed_gltf_effective_parents (imp->model);
  Table *nodes = &imp->tables[T_NODES];

  if (!mshed_model_has_node_records (imp->model))
    return TRUE;
  for (guint i = 0; i < imp->n_nodes; i++)
    {
      guint gi = imp->gltf_node[i], parent = MSHED_NONE;
      gint gp;
      guint8 *rec;

      if (gi == UNMAPPED)
        continue;
      gp = imp->gltf->nodes[gi].parent;
      if (gp >= 0)
        {
          JsonObject *x = imp->gltf->nodes[gp].mshed;

          if (x == NULL || imp->role[gp] != ROLE_KEPT || json_object_has_member (x, "lod") ||
              !mshed_gltf_extra_uint (x, "node", imp->n_nodes, &parent))
            return fail (imp, error, _("nodes[%u] (“%s”): its parent nodes[%d] is not an MSH "
                                       "node"), gi, imp->gltf->nodes[gi].name, gp);
        }
      if (parent == parents[i])
        continue;
      rec = row (nodes, i);
      mshed_write_u16 (rec + 2, (guint16) parent);
      nodes->assigned[i] = 1;
    }
  return TRUE;
}

/* Rest poses and animation ------------------------------------------------------------------ */

static const MshedGltfChannel *
find_channel (Importer      *imp,
              guint          gltf_node,
              MshedGltfPath  path)
{
  const MshedGltfChannel *found = NULL;

  for (guint c = 0; c < imp->gltf->n_channels; c++)
    if (imp->gltf->channels[c].node == gltf_node && imp->gltf->channels[c].path == path)
      found = &imp->gltf->channels[c];
  return found;
}

static void
stored_rotation (const guint8 *key,
                 float         xyzw[4])
{
  gint16 stored[4];
  float wxyz[4];

  for (guint k = 0; k < 4; k++)
    stored[k] = (gint16) mshed_read_u16 (key + 16 + 2 * k);
  mshed_quat_from_stored (stored, wxyz);
  mshed_gltf_rotation (wxyz, xyzw);
}

/* Every key of node @i's exported track takes the glTF channels' value at its own time. */
static void
plan_track (Importer *imp,
            guint     i,
            guint     start,
            guint     end)
{
  const MshedGltfChannel *tc = find_channel (imp, imp->gltf_node[i], MSHED_GLTF_PATH_TRANSLATION);
  const MshedGltfChannel *rc = find_channel (imp, imp->gltf_node[i], MSHED_GLTF_PATH_ROTATION);

  for (guint k = start; k <= end && k < imp->keys.n_rows; k++)
    {
      guint8 key[24];
      float seconds, pos[3], rot[4], now[4];

      memcpy (key, row (&imp->keys, k), 24);
      seconds = mshed_read_f32 (key + 12) / MSHED_GLTF_FRAMES_PER_SECOND;
      for (guint c = 0; c < 3; c++)
        pos[c] = mshed_read_f32 (key + 4 * c);
      stored_rotation (key, now);
      memcpy (rot, now, sizeof rot);
      if (tc)
        mshed_gltf_channel_sample (tc, seconds, pos);
      if (rc)
        {
          mshed_gltf_channel_sample (rc, seconds, rot);
          unit_like (rot, now);
        }
      update_key (key, pos, rot);
      memcpy (row (&imp->keys, k), key, 24);
    }
}

static gboolean
plan_poses (Importer  *imp,
            GError   **error)
{
  if (!mshed_model_has_node_records (imp->model))
    return TRUE;
  for (guint i = 0; i < imp->n_nodes; i++)
    {
      const MshedGltfNode *gn;
      guint start, end;
      MshedPose pose;
      MshedNode node;
      float now[4], rot[4];

      if (imp->gltf_node[i] == UNMAPPED)
        continue;
      if (mshed_gltf_node_track (imp->model, i, &start, &end))
        {
          plan_track (imp, i, start, end);
          continue;  /* an animated node's glTF transform is whatever frame the tool showed */
        }
      if (imp->at_frame)
        continue;
      gn = &imp->gltf->nodes[imp->gltf_node[i]];
      mshed_anim_sample_node (imp->model, i, -1.0f, &pose, NULL);
      mshed_gltf_rotation (pose.q, now);
      memcpy (rot, gn->rotation, sizeof rot);
      unit_like (rot, now);
      if (close_rotation (rot, now) && close_float (gn->translation[0], pose.pos[0]) &&
          close_float (gn->translation[1], pose.pos[1]) &&
          close_float (gn->translation[2], pose.pos[2]))
        continue;
      mshed_model_get_node (imp->model, i, &node);
      if (node.hdr3 >= imp->keys.n_rows)
        return fail (imp, error, _("nodes[%u] (“%s”): a new pose for MSH node %u, which has no "
                                   "fallback key to hold it (hdr3 = %u)"), imp->gltf_node[i],
                     gn->name, i, node.hdr3);
      update_key (row (&imp->keys, node.hdr3), gn->translation, rot);
    }
  return TRUE;
}

/* Geometry --------------------------------------------------------------------------------- */

typedef struct {
  guint32 v[3];
} Tri;

static int
tri_compare (gconstpointer a,
             gconstpointer b)
{
  return memcmp (a, b, sizeof (Tri));
}

/* The triangle with its smallest corner first, the winding kept; corners compared as
 * integers through memcmp on a big-endian-free key. */
static Tri
tri_canonical (guint32 a,
               guint32 b,
               guint32 c)
{
  Tri t;

  if (a <= b && a <= c)
    t.v[0] = a, t.v[1] = b, t.v[2] = c;
  else if (b <= a && b <= c)
    t.v[0] = b, t.v[1] = c, t.v[2] = a;
  else
    t.v[0] = c, t.v[1] = a, t.v[2] = b;
  for (guint k = 0; k < 3; k++)
    t.v[k] = GUINT32_TO_BE (t.v[k]);
  return t;
}

/* The batches an exported mesh holds: a slot's, or all of them ("all batches"); @slot is valid
 * (plan_mesh). */
static void
mesh_batches (Importer *imp,
              guint     m,
              guint     s,
              guint    *first,
              guint    *count)
{
  JsonObject *x = imp->gltf->meshes[m].mshed;
  guint n_batches = mshed_model_get_n_rows (imp->model, MSHED_TABLE_BATCHES);
  MshedSlot slot = { 0 };

  if (x && json_object_has_member (x, "allBatches"))
    {
      *first = 0, *count = n_batches;
      return;
    }
  mshed_model_get_slot (imp->model, s, &slot);
  *first = MIN (slot.batch_start, n_batches);
  *count = MIN ((guint) slot.batch_count, n_batches - *first);
}

/* The exported triangles of batches [first, +count) in Res3 rows, sorted; @used marks rows. */
static GArray *
original_triangles (Importer *imp,
                    guint     first,
                    guint     count,
                    guint8   *used)
{
  GArray *tris = g_array_new (FALSE, FALSE, sizeof (Tri));
  guint n_elements;
  const guint32 *elements = mshed_render_scene_get_elements (imp->scene, &n_elements);

  for (guint b = first; b < first + count; b++)
    {
      guint e0, n, tri_first;

      if (!mshed_render_scene_get_batch_range (imp->scene, b, &e0, &n, &tri_first))
        continue;
      for (guint e = e0; e + 2 < e0 + n; e += 3)
        {
          Tri t = tri_canonical (elements[e], elements[e + 1], elements[e + 2]);

          g_array_append_val (tris, t);
          for (guint k = 0; k < 3; k++)
            used[elements[e + k]] = 1;
        }
    }
  g_array_sort (tris, tri_compare);
  return tris;
}

/* Res3 row of vertex @k of @p; G_MAXUINT32 when it names none of @used. */
static guint32
vertex_row (Importer                 *imp,
            const MshedGltfPrimitive *p,
            guint                     k,
            const GArray             *order,
            const guint8             *used)
{
  guint32 r;

  if (p->ids)
    {
      float id = p->ids[2 * (gsize) k];

      if (!(id >= 0 && id < imp->tables[T_POSITIONS].n_rows) || id != floorf (id))
        return G_MAXUINT32;
      r = (guint32) id;
    }
  else if (k < order->len)
    r = g_array_index (order, guint32, k);
  else
    return G_MAXUINT32;
  return used[r] ? r : G_MAXUINT32;
}

/* Maps the mesh's vertices to Res3 rows; TRUE when its triangles changed. */
static gboolean
attribute_rows (Importer *imp,
                guint     m,
                guint     slot,
                guint8   *used,
                GArray   *order)
{
  const MshedGltfMesh *mesh = &imp->gltf->meshes[m];
  g_autoptr(GArray) tris = g_array_new (FALSE, FALSE, sizeof (Tri));
  g_autoptr(GArray) original = NULL;
  guint first = 0, count = 0;

  mesh_batches (imp, m, slot, &first, &count);
  original = original_triangles (imp, first, count, used);
  for (guint i = 0; i < imp->tables[T_POSITIONS].n_rows; i++)  /* the export's first-use order */
    if (used[i])
      g_array_append_val (order, i);
  for (guint p = 0; p < mesh->n_primitives; p++)
    {
      const MshedGltfPrimitive *prim = &mesh->primitives[p];

      for (guint i = 0; i < prim->n_indices; i += 3)
        {
          guint32 r[3];
          Tri t;

          for (guint k = 0; k < 3; k++)
            if ((r[k] = vertex_row (imp, prim, prim->indices[i + k], order, used)) == G_MAXUINT32)
              return TRUE;  /* a vertex added in the glTF */
          t = tri_canonical (r[0], r[1], r[2]);
          g_array_append_val (tris, t);
        }
    }
  g_array_sort (tris, tri_compare);
  return tris->len != original->len ||
         memcmp (tris->data, original->data, sizeof (Tri) * tris->len) != 0;
}

/* Normals were exported when every vertex of the mesh has a non-zero one (docs/gltf.md §3). */
static gboolean
had_normals (Importer     *imp,
             const GArray *order)
{
  Table *normals = &imp->tables[T_NORMALS];

  if (normals->n_rows != imp->tables[T_POSITIONS].n_rows)
    return FALSE;
  for (guint i = 0; i < order->len; i++)
    {
      const guint8 *n = row (normals, g_array_index (order, guint32, i));

      if (n[0] == 0 && n[1] == 0 && n[2] == 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
plan_vertex (Importer                 *imp,
             const MshedGltfPrimitive *p,
             guint                     k,
             guint32                   r,
             gboolean                  normals)
{
  guint8 pos[12], nrm[4], uv[4];
  Table *t = imp->tables;

  memcpy (pos, mshed_model_get_record (imp->model, MSHED_TABLE_POSITIONS, r), 12);
  mshed_gltf_update_position (pos, p->positions + 3 * (gsize) k);
  if (!assign (&t[T_POSITIONS], r, pos))
    return FALSE;
  if (normals && p->normals)
    {
      memcpy (nrm, mshed_model_get_record (imp->model, MSHED_TABLE_NORMALS, r), 4);
      mshed_gltf_update_normal (nrm, p->normals + 3 * (gsize) k);
      if (!assign (&t[T_NORMALS], r, nrm))
        return FALSE;
    }
  if (p->uvs && t[T_UVS].n_rows == t[T_POSITIONS].n_rows)
    {
      memcpy (uv, mshed_model_get_record (imp->model, MSHED_TABLE_UVS, r), 4);
      mshed_gltf_update_uv (uv, p->uvs + 2 * (gsize) k);
      if (!assign (&t[T_UVS], r, uv))
        return FALSE;
    }
  return TRUE;
}

/* TRUE when a cell other than @cell of @node draws @slot too. */
static gboolean
slot_shared (Importer *imp,
             guint     node,
             guint     cell,
             guint     slot)
{
  for (guint n = 0; n < imp->n_nodes; n++)
    for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
      if ((n != node || c != cell) && mshed_read_u16 (row (&imp->tables[T_NODES], n) + 8 + 2 * c)
                                      == slot)
        return TRUE;
  return FALSE;
}

/* The MSH node and cell whose mesh kept glTF node @i shows: an exported node's is its LOD 0 /
 * group 0 cell, an other-cell node's its own; FALSE for the others. */
static gboolean
shown_cell (Importer    *imp,
            guint        i,
            const guint *msh_of_gltf,
            guint       *node,
            guint       *cell)
{
  JsonObject *x = imp->gltf->nodes[i].mshed;
  guint lod, group;

  *node = msh_of_gltf[i], *cell = 0;
  if (*node != G_MAXUINT)
    return TRUE;
  if (imp->role[i] != ROLE_KEPT || !mshed_gltf_extra_uint (x, "node", imp->n_nodes, node) ||
      !mshed_gltf_extra_uint (x, "lod", MSHED_N_LODS, &lod) ||
      !mshed_gltf_extra_uint (x, "group", MSHED_N_GROUPS, &group))
    return FALSE;
  *cell = lod * MSHED_N_GROUPS + group;
  return TRUE;
}

/* A mesh without usable extras (none, or naming a slot the model does not have) on a node of
 * the model (one made, replaced or copied from elsewhere in Blender): new geometry for the
 * cell it is shown in, rebuilt in place, or a new slot when the node has none there or another
 * cell draws it too (docs/conventions.md, glTF import). */
static gboolean
plan_bare_mesh (Importer    *imp,
                guint        m,
                const guint *msh_of_gltf,
                GError     **error)
{
  const MshedGltf *g = imp->gltf;
  guint node = G_MAXUINT, cell = 0, slot;
  guint8 *rec;

  for (guint i = 0; i < g->n_nodes; i++)
    {
      guint n, c;

      if (g->nodes[i].mesh != (gint) m || !shown_cell (imp, i, msh_of_gltf, &n, &c))
        continue;
      if (node != G_MAXUINT)
        return fail (imp, error, _("meshes[%u] (“%s”): a mesh without extras shown by two "
                                   "nodes of the model; give each node its own mesh"), m,
                     g->meshes[m].name);
      node = n, cell = c;
    }
  if (node == G_MAXUINT)
    return TRUE;  /* a mesh only new nodes show: the rebuild's */
  if (!mshed_model_has_node_records (imp->model))
    return fail (imp, error, _("meshes[%u] (“%s”): a mesh without extras on a node of a model "
                               "with 24-byte node records, which have no slots"), m,
                 g->meshes[m].name);
  rec = row (&imp->tables[T_NODES], node) + 8 + 2 * cell;
  slot = mshed_read_u16 (rec);
  if (slot < mshed_model_get_n_rows (imp->model, MSHED_TABLE_SLOTS) &&
      !slot_shared (imp, node, cell, slot))
    {
      mshed_gltf_rebuild_slot (imp->rebuild, m, slot);
      return TRUE;
    }
  mshed_write_u16 (rec, (guint16) mshed_gltf_rebuild_new_slot (imp->rebuild, m));
  imp->tables[T_NODES].assigned[node] = 1;
  return TRUE;
}

static gboolean
plan_mesh (Importer    *imp,
           guint        m,
           const guint *msh_of_gltf,
           GError     **error)
{
  const MshedGltfMesh *mesh = &imp->gltf->meshes[m];
  g_autofree guint8 *used = g_malloc0 (MAX (imp->tables[T_POSITIONS].n_rows, 1));
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint32));
  gboolean normals;
  gboolean all = mesh->mshed && json_object_has_member (mesh->mshed, "allBatches");
  guint slot = 0;

  if (!all && !mshed_gltf_extra_uint (mesh->mshed, "slot",
                                      mshed_model_get_n_rows (imp->model, MSHED_TABLE_SLOTS),
                                      &slot))
    return plan_bare_mesh (imp, m, msh_of_gltf, error);  /* none, or a slot the model lacks */
  if (attribute_rows (imp, m, slot, used, order))
    {
      if (all)
        return fail (imp, error, _("meshes[%u] (“%s”): triangles added, deleted or reconnected "
                                   "in the batches of a model with 24-byte node records, which "
                                   "the import cannot rebuild"), m, mesh->name);
      mshed_gltf_rebuild_slot (imp->rebuild, m, slot);
      return TRUE;
    }
  normals = had_normals (imp, order);
  for (guint p = 0; p < mesh->n_primitives; p++)
    {
      const MshedGltfPrimitive *prim = &mesh->primitives[p];

      for (guint k = 0; k < prim->n_vertices; k++)
        {
          guint32 r = vertex_row (imp, prim, k, order, used);

          if (r == G_MAXUINT32)
            continue;  /* a vertex no triangle uses */
          if (!plan_vertex (imp, prim, k, r, normals))
            return fail (imp, error, _("meshes[%u].primitives[%u]: vertex %u is Res3 row %u, "
                                       "which another glTF vertex gives other values"), m, p,
                         k, r);
        }
    }
  return TRUE;
}

static gboolean
plan_geometry (Importer  *imp,
               GError   **error)
{
  g_autofree guint8 *referenced = g_malloc0 (MAX (imp->gltf->n_meshes, 1));

  g_autofree guint *msh_of_gltf = g_new (guint, MAX (imp->gltf->n_nodes, 1));

  for (guint i = 0; i < imp->gltf->n_nodes; i++)
    {
      JsonObject *x = imp->gltf->nodes[i].mshed;

      msh_of_gltf[i] = G_MAXUINT;
      if (imp->gltf->nodes[i].mesh >= 0 && x && imp->role[i] == ROLE_KEPT)
        referenced[imp->gltf->nodes[i].mesh] = 1;  /* new nodes' meshes: the rebuild's */
    }
  for (guint n = 0; n < imp->n_nodes; n++)
    if (imp->gltf_node[n] != UNMAPPED)
      msh_of_gltf[imp->gltf_node[n]] = n;
  for (guint m = 0; m < imp->gltf->n_meshes; m++)
    if (!mshed_progress_step (imp->progress, 0.1 + 0.5 * m / imp->gltf->n_meshes,
                              m == 0 ? _("Comparing the meshes") : NULL, error) ||
        (referenced[m] && !plan_mesh (imp, m, msh_of_gltf, error)))
      return FALSE;
  return mshed_gltf_rebuild_plan (imp->rebuild, msh_of_gltf, referenced, error);
}

/* Applying ---------------------------------------------------------------------------------- */

static gboolean
apply_table (MshedDocument  *doc,
             Importer       *imp,
             Table          *t,
             guint          *count,
             GError        **error)
{
  for (guint r = 0; r < t->n_rows; r++)
    {
      const guint8 *now = mshed_model_get_record (imp->model, t->table, r);
      g_autoptr(GBytes) bytes = NULL;

      if (!t->assigned[r] && t->table != MSHED_TABLE_KEYS)
        continue;
      if (memcmp (now, row (t, r), t->stride) == 0)
        continue;
      bytes = g_bytes_new (row (t, r), t->stride);
      if (!mshed_document_set_record (doc, t->table, r, bytes, error))
        return FALSE;
      (*count)++;
      imp->edits++;
    }
  return TRUE;
}

/* Not cancelled once it started: an import is applied whole or not at all. */
static gboolean
apply (MshedDocument  *doc,
       Importer       *imp,
       GError        **error)
{
  for (guint i = 0; i < imp->renames->len; i++)
    {
      Rename *r = &g_array_index (imp->renames, Rename, i);
      g_autoptr(GError) local = NULL;

      if (!mshed_document_rename_node (doc, r->node, r->name, &local))
        return fail (imp, error, _("nodes[%u] (“%s”): %s"), imp->gltf_node[r->node], r->name,
                     local->message);
      imp->stats.renamed++;
      imp->edits++;
    }
  if (mshed_model_has_node_records (imp->model) &&
      !apply_table (doc, imp, &imp->tables[T_NODES], &imp->stats.reparented, error))
    return FALSE;
  for (guint t = T_POSITIONS; t <= T_UVS; t++)
    {
      guint *counts[] = { NULL, &imp->stats.positions, &imp->stats.normals, &imp->stats.uvs };

      mshed_progress_report (imp->progress, 0.6 + 0.05 * t, NULL);
      if (!apply_table (doc, imp, &imp->tables[t], counts[t], error))
        return FALSE;
    }
  mshed_progress_report (imp->progress, 0.8, NULL);
  if (!apply_table (doc, imp, &imp->keys, &imp->stats.keys, error) ||
      !mshed_gltf_rebuild_apply (imp->rebuild, doc, &imp->edits, error))
    return FALSE;
  imp->stats.rebuilt = mshed_gltf_rebuild_n_slots (imp->rebuild);
  imp->stats.added = mshed_gltf_rebuild_n_nodes (imp->rebuild);
  for (guint i = imp->n_nodes; i-- > 0;)
    if (imp->gltf_node[i] == UNMAPPED && mshed_model_has_node_records (imp->model))
      {
        if (!mshed_document_delete_rows (doc, MSHED_TABLE_NODES, i, 1, error))
          return FALSE;
        imp->stats.deleted++;
        imp->edits++;
      }
  return TRUE;
}

gboolean
mshed_gltf_import_into (MshedDocument        *document,
                        const MshedGltf      *gltf,
                        MshedProgress        *progress,
                        MshedGltfImportStats *stats,
                        GError              **error)
{
  Importer imp = { 0 };
  gboolean ok;

  imp.model = mshed_document_get_model (document);
  if (imp.model == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("%s: glTF imports into an MSH model only"), gltf->where);
      return FALSE;
    }
  imp.gltf = gltf;
  imp.progress = progress;
  imp.n_nodes = mshed_model_get_n_rows (imp.model, MSHED_TABLE_NODES);
  imp.gltf_node = g_new (guint, MAX (imp.n_nodes, 1));
  for (guint i = 0; i < imp.n_nodes; i++)
    imp.gltf_node[i] = UNMAPPED;
  imp.role = g_malloc0 (MAX (gltf->n_nodes, 1));
  imp.renames = g_array_new (FALSE, FALSE, sizeof (Rename));
  imp.rebuild = mshed_gltf_rebuild_new (imp.model, gltf);
  imp.scene = mshed_render_scene_new (imp.model);
  table_init (&imp.tables[T_NODES], imp.model, MSHED_TABLE_NODES);
  table_init (&imp.tables[T_POSITIONS], imp.model, MSHED_TABLE_POSITIONS);
  table_init (&imp.tables[T_NORMALS], imp.model, MSHED_TABLE_NORMALS);
  table_init (&imp.tables[T_UVS], imp.model, MSHED_TABLE_UVS);
  table_init (&imp.keys, imp.model, MSHED_TABLE_KEYS);

  ok = mshed_progress_step (progress, 0.0, _("Matching the nodes"), error) &&
       check_scene (&imp, error) && map_nodes (&imp, error) && check_cells (&imp, error);
  if (ok)
    {
      plan_names (&imp);
      ok = plan_parents (&imp, error) && plan_poses (&imp, error) &&
           plan_geometry (&imp, error);
    }
  /* the last look at the cancellable: from here on the import is applied whole */
  ok = ok && mshed_progress_step (progress, 0.6, _("Applying the changes"), error);
  if (ok)
    {
      mshed_document_begin_group (document, _("Import glTF"));
      ok = apply (document, &imp, error);
      if (ok)
        mshed_gltf_rebuild_finish (imp.rebuild, document);
      if (ok && mshed_document_has_stale (document))
        {
          GPtrArray *left;

          mshed_progress_report (progress, 0.9, _("Recomputing derived data"));
          mshed_document_recompute_stale_all (document, MSHED_DERIVED_RECOMPUTABLE &
                                              ~MSHED_DERIVED_VERTEX_NORMALS, NULL);
          left = mshed_document_list_stale (document);
          for (guint i = 0; i < left->len; i++)  /* vertex normals: the glTF's own */
            if (!((MshedStale *) left->pdata[i])->optional)
              imp.stats.still_stale++;
          g_ptr_array_unref (left);
        }
      mshed_document_end_group (document);
      if (!ok && imp.edits > 0)
        mshed_document_undo (document);  /* a partial import comes off again */
    }
  if (ok && stats)
    *stats = imp.stats;
  if (ok)
    mshed_progress_report (progress, 1.0, NULL);

  for (guint i = 0; i < imp.renames->len; i++)
    g_free (g_array_index (imp.renames, Rename, i).name);
  g_array_unref (imp.renames);
  mshed_gltf_rebuild_free (imp.rebuild);
  for (guint t = 0; t < G_N_ELEMENTS (imp.tables); t++)
    table_clear (&imp.tables[t]);
  table_clear (&imp.keys);
  mshed_render_scene_free (imp.scene);
  g_free (imp.gltf_node);
  g_free (imp.role);
  return ok;
}
