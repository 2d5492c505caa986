/* mshed-convert-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MSH -> DFM (docs/dfm.md §17): one bone per node (and a synthetic root when the model has
 * several roots), `Bone to root` the inverse of the node's rest transform, one `Loose` record
 * per non-root bone, six levels from LOD 0, 0, 1, 1, 2, 2 with one point per used (node,
 * vertex) pair skinned to its node's bone, one face group per material written as a strip
 * (docs/dfm.md §5.3), and the material and texture libraries, as a UTF tree in the order of
 * docs/dfm.md §2.
 */
#define G_LOG_DOMAIN "mshed-convert"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-convert-private.h"
#include "mshed-dfm-strip.h"
#include "mshed-gltf.h"

#define N_LEVELS 6

typedef struct {
  MshedModel         *model;
  const char         *where;
  MshedConvertReport *report;
  MshedUtf           *utf;
  guint               n_nodes;
  guint               first;        /* bone of node 0: 1 with a synthetic root */
  guint               n_bones;
  char              **names;        /* per bone: the Object name */
  float              *local;        /* per node, 16 (column-major): the rest key */
  float              *world;        /* per node, 16 */
  guint16            *parents;      /* per node */
  char              **wear;         /* WEAR names */
  GPtrArray          *materials;    /* names of the materials the groups use */
  guint               invented;     /* WEAR rows without a name */
  guint               renamed;      /* node names changed to fit a DFM */
} Msh2Dfm;

typedef struct {
  GByteArray *points;               /* float[3] per element (= point) */
  GByteArray *normals;
  GByteArray *uv0;
  GHashTable *element_of;           /* (node << 32 | vertex) + 1 -> element + 1 */
  GArray     *bone_of;              /* guint32 per element */
  GPtrArray  *group_tris;           /* per material: GArray of guint16 */
  GArray     *group_material;       /* guint: index in materials */
  guint64     triangles;
} Level;

/* Tree helpers ------------------------------------------------------------------------------ */

static void
file_bytes (Msh2Dfm      *c,
            MshedUtfNode *parent,
            const char   *name,
            GBytes       *bytes)
{
  mshed_utf_insert_child (c->utf, parent, G_MAXUINT,
                          mshed_utf_node_new_file (c->utf, name, bytes), NULL);
}

static void
push_u32 (GByteArray *b,
          guint32     v)
{
  guint8 w[4];

  mshed_write_u32 (w, v);
  g_byte_array_append (b, w, 4);
}

static void
push_f32 (GByteArray *b,
          float       v)
{
  guint8 w[4];

  mshed_write_f32 (w, v);
  g_byte_array_append (b, w, 4);
}

static void
floats (Msh2Dfm      *c,
        MshedUtfNode *parent,
        const char   *name,
        const float  *values,
        guint         n)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    push_f32 (b, values[i]);
  mshed_utf_append_file (c->utf, parent, name, b->data, b->len);
}

static void
take (Msh2Dfm      *c,
      MshedUtfNode *parent,
      const char   *name,
      GByteArray   *array)
{
  mshed_utf_append_file (c->utf, parent, name, array->data, array->len);
}

/* Bones ---------------------------------------------------------------------------------------- */

/* A node's name as a DFM object name: printable ASCII (others become '_'), at most 56 bytes,
 * unique ignoring case (a suffix `_<n>` otherwise). */
static char *
object_name (Msh2Dfm    *c,
             guint       bone,
             const char *utf8)
{
  GString *s = g_string_new (NULL);
  gboolean changed = FALSE;

  for (const char *p = utf8; *p; p = g_utf8_next_char (p))
    {
      gunichar u = g_utf8_get_char (p);
      gboolean ok = u >= 0x20 && u < 0x7F && u != '/' && u != '\\';

      if (s->len == 56)
        {
          changed = TRUE;   /* truncated */
          break;
        }
      g_string_append_c (s, ok ? (char) u : '_');
      changed |= !ok;
    }
  if (s->len == 0)
    g_string_append (s, "node");
  for (guint k = 0, n = 1; k < bone; k++)
    if (g_ascii_strcasecmp (c->names[k], s->str) == 0)
      {
        g_autofree char *base = g_strdup (s->str);

        g_string_printf (s, "%s_%u", base, ++n);
        k = G_MAXUINT;   /* check the new name from the start (k++ wraps to 0) */
        changed = TRUE;
      }
  c->renamed += changed;
  return g_string_free (s, FALSE);
}

/* docs/dfm.md §17 steps 1–2: the rest transform of every node (its fallback key, fparkan's rotation
 * convention of docs/msh.md §7.4, the quaternion normalised), composed down the parents. */
static void
setup_bones (Msh2Dfm *c)
{
  guint roots = 0;

  c->parents = mshed_gltf_effective_parents (c->model);
  c->local = g_new0 (float, 16 * (gsize) c->n_nodes);
  c->world = g_new0 (float, 16 * (gsize) c->n_nodes);
  for (guint n = 0; n < c->n_nodes; n++)
    {
      MshedNode node;
      MshedKey key;
      float q[4] = { 1, 0, 0, 0 }, t[3] = { 0, 0, 0 };

      if (mshed_model_get_node (c->model, n, &node) &&
          mshed_model_get_key (c->model, node.hdr3, &key))
        {
          mshed_quat_from_stored (key.q, q);
          memcpy (t, key.pos, sizeof t);
        }
      mshed_pose_matrix (q, t, MSHED_ROTATION_FPARKAN, TRUE, c->local + 16 * (gsize) n);
      roots += c->parents[n] == MSHED_NONE;
    }
  mshed_anim_compose_hierarchy (c->local, c->parents, c->n_nodes, c->world, NULL);
  c->first = roots > 1;
  c->n_bones = c->n_nodes + c->first;
  c->names = g_new0 (char *, c->n_bones + 1);
  if (c->first)
    c->names[0] = g_strdup ("Root");
  for (guint n = 0; n < c->n_nodes; n++)
    {
      g_autofree char *name = mshed_gltf_node_name (c->model, n);

      c->names[c->first + n] = object_name (c, c->first + n, name);
    }
}

/* The node of bone @b, or -1 for the synthetic root. */
static gint
node_of (const Msh2Dfm *c,
         guint          b)
{
  return (gint) b - (gint) c->first;
}

/* The bone of node @n's parent, -1 for none (bone 0 itself). */
static gint
parent_bone (const Msh2Dfm *c,
             guint          b)
{
  gint n = node_of (c, b);

  if (n < 0)
    return -1;
  if (c->parents[n] != MSHED_NONE)
    return (gint) (c->parents[n] + c->first);
  return c->first ? 0 : -1;
}

static void
add_bones (Msh2Dfm      *c,
           MshedUtfNode *root)
{
  for (guint b = 0; b < c->n_bones; b++)
    {
      g_autofree char *dir_name = g_strdup_printf ("%s.3db", c->names[b]);
      MshedUtfNode *bone = mshed_utf_append_directory (c->utf, root, dir_name);
      gint n = node_of (c, b);
      float btr[12] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 };
      guint8 lod_bits = (1u << N_LEVELS) - 1;

      if (n >= 0)
        {
          const float *w = c->world + 16 * (gsize) n;

          /* docs/dfm.md §17 step 3: R = Qᵀ (r[3i + j] = Q[j][i] = w[4i + j]), t = −Qᵀ·c */
          for (guint i = 0; i < 3; i++)
            for (guint j = 0; j < 3; j++)
              btr[3 * i + j] = w[4 * i + j];
          for (guint i = 0; i < 3; i++)
            btr[9 + i] = -(btr[3 * i] * w[12] + btr[3 * i + 1] * w[13] + btr[3 * i + 2] * w[14]);
        }
      floats (c, bone, "Bone to root", btr, 12);
      mshed_utf_append_file (c->utf, bone, "Lod Bits", &lod_bits, 1);
    }
}

static void
push_name (GByteArray *b,
           const char *name)
{
  guint8 field[64] = { 0 };

  memcpy (field, name, MIN (strlen (name), 63));
  g_byte_array_append (b, field, sizeof field);
}

static void
add_cmpnd (Msh2Dfm      *c,
           MshedUtfNode *root)
{
  MshedUtfNode *cmpnd = mshed_utf_append_directory (c->utf, root, "Cmpnd"), *cons;
  g_autoptr(GByteArray) loose = g_byte_array_new ();
  float one = 1;

  floats (c, cmpnd, "Scale", &one, 1);
  for (guint b = 0; b < c->n_bones; b++)
    {
      g_autofree char *part_name = g_strdup_printf ("Part_%s", c->names[b]);
      g_autofree char *file_name = g_strdup_printf ("%s.3db", c->names[b]);
      MshedUtfNode *part = mshed_utf_append_directory (c->utf, cmpnd, b == 0 ? "Root" : part_name);
      guint8 index[4];
      gint n = node_of (c, b);

      mshed_utf_append_text (c->utf, part, "Object name", c->names[b]);
      mshed_utf_append_text (c->utf, part, "File name", file_name);
      mshed_write_u32 (index, b);
      mshed_utf_append_file (c->utf, part, "Index", index, 4);
      if (b == 0)
        continue;
      /* docs/dfm.md §17 step 4: position and rotation rows of the node's local rest */
      push_name (loose, c->names[parent_bone (c, b)]);
      push_name (loose, c->names[b]);
      for (guint i = 0; i < 3; i++)
        push_f32 (loose, c->local[16 * (gsize) n + 12 + i]);
      for (guint i = 0; i < 3; i++)
        for (guint j = 0; j < 3; j++)
          push_f32 (loose, c->local[16 * (gsize) n + 4 * j + i]);
    }
  cons = mshed_utf_append_directory (c->utf, cmpnd, "Cons");
  if (loose->len > 0)
    take (c, cons, "Loose", loose);
}

/* Levels ------------------------------------------------------------------------------------- */

static void
level_init (Level *l)
{
  memset (l, 0, sizeof *l);
  l->points = g_byte_array_new ();
  l->normals = g_byte_array_new ();
  l->uv0 = g_byte_array_new ();
  l->element_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  l->bone_of = g_array_new (FALSE, FALSE, sizeof (guint32));
  l->group_tris = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  l->group_material = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
level_clear (Level *l)
{
  g_byte_array_unref (l->points);
  g_byte_array_unref (l->normals);
  g_byte_array_unref (l->uv0);
  g_hash_table_unref (l->element_of);
  g_array_unref (l->bone_of);
  g_ptr_array_unref (l->group_tris);
  g_array_unref (l->group_material);
}

static guint
material_index (Msh2Dfm *c,
                guint    row)
{
  g_autofree char *name = NULL;

  if (c->wear && row < g_strv_length (c->wear) && c->wear[row][0])
    name = g_strdup (c->wear[row]);
  else
    name = g_strdup_printf ("material_%u", row);
  for (guint i = 0; i < c->materials->len; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (c->materials, i), name) == 0)
      return i;
  if (!(c->wear && row < g_strv_length (c->wear) && c->wear[row][0]))
    c->invented++;
  g_ptr_array_add (c->materials, g_steal_pointer (&name));
  return c->materials->len - 1;
}

static GArray *
group_for (Msh2Dfm *c,
           Level   *l,
           guint    row)
{
  guint m = material_index (c, row);

  for (guint i = 0; i < l->group_material->len; i++)
    if (g_array_index (l->group_material, guint, i) == m)
      return g_ptr_array_index (l->group_tris, i);
  g_array_append_val (l->group_material, m);
  g_ptr_array_add (l->group_tris, g_array_new (FALSE, FALSE, sizeof (guint16)));
  return g_ptr_array_index (l->group_tris, l->group_tris->len - 1);
}

/* docs/dfm.md §17 step 5: the element of (node @n, vertex @v), made on first use. */
static gboolean
element (Msh2Dfm  *c,
         Level    *l,
         guint     lod,
         guint     n,
         guint     v,
         guint16  *out,
         GError  **error)
{
  gint64 key = ((gint64) n << 32 | v) + 1;
  gint64 *stored = g_hash_table_lookup (l->element_of, &key);
  const float *w = c->world + 16 * (gsize) n;
  float p[3] = { 0, 0, 0 }, nn[3] = { 0, 0, 0 }, uv[2] = { 0, 0 };
  guint32 bone = n + c->first;
  guint e = l->bone_of->len;

  if (stored)
    {
      *out = (guint16) stored[1];
      return TRUE;
    }
  if (e > G_MAXUINT16)
    return mshed_convert_fail (error, c->where, _("LOD %u uses more than 65,536 vertices; "
                                                  "a DFM face index is 16-bit"), lod);
  if (!mshed_model_get_position (c->model, v, p))
    return mshed_convert_fail (error, c->where, _("node %u: vertex %u is out of range"), n, v);
  mshed_model_get_normal (c->model, v, nn);
  mshed_model_get_uv (c->model, v, uv);
  for (guint i = 0; i < 3; i++)
    {
      push_f32 (l->points, w[i] * p[0] + w[4 + i] * p[1] + w[8 + i] * p[2] + w[12 + i]);
      push_f32 (l->normals, w[i] * nn[0] + w[4 + i] * nn[1] + w[8 + i] * nn[2]);
    }
  push_f32 (l->uv0, uv[0]);
  push_f32 (l->uv0, uv[1]);
  g_array_append_val (l->bone_of, bone);
  stored = g_new (gint64, 2);
  stored[0] = key;
  stored[1] = e;
  g_hash_table_insert (l->element_of, stored, stored);
  *out = (guint16) e;
  return TRUE;
}

static gboolean
build_level (Msh2Dfm  *c,
             guint     lod,
             Level    *l,
             GError  **error)
{
  for (guint n = 0; n < c->n_nodes; n++)
    {
      guint s = mshed_model_find_slot (c->model, n, lod, 0);
      MshedSlot slot;

      if (s == MSHED_NONE || !mshed_model_get_slot (c->model, s, &slot))
        continue;
      for (guint bi = slot.batch_start; bi < (guint) slot.batch_start + slot.batch_count; bi++)
        {
          MshedBatch batch;
          GArray *tris;

          if (!mshed_model_get_batch (c->model, bi, &batch))
            return mshed_convert_fail (error, c->where, _("slot %u: batch %u is out of range"),
                                       s, bi);
          tris = group_for (c, l, batch.material_index);
          for (guint i = 0; i + 2 < batch.index_count; i += 3)
            {
              for (guint k = 0; k < 3; k++)
                {
                  guint16 index, e;

                  if (!mshed_model_get_index (c->model, batch.index_start + i + k, &index))
                    return mshed_convert_fail (error, c->where, _("batch %u: index %u is out "
                                                                  "of range"), bi,
                                               batch.index_start + i + k);
                  if (!element (c, l, lod, n, index + batch.base_vertex, &e, error))
                    return FALSE;
                  g_array_append_val (tris, e);
                }
              l->triangles++;
            }
        }
    }
  return TRUE;
}

static void
write_level (Msh2Dfm      *c,
             MshedUtfNode *multi,
             guint         index,
             Level        *l)
{
  g_autofree char *name = g_strdup_printf ("Mesh%u", index);
  MshedUtfNode *mesh = mshed_utf_append_directory (c->utf, multi, name);
  MshedUtfNode *groups = mshed_utf_append_directory (c->utf, mesh, "Face_groups");
  MshedUtfNode *geo;
  g_autoptr(GByteArray) ids = g_byte_array_new ();
  g_autoptr(GByteArray) first = g_byte_array_new ();
  g_autoptr(GByteArray) count = g_byte_array_new ();
  g_autoptr(GByteArray) chain = g_byte_array_new ();
  g_autoptr(GByteArray) weights = g_byte_array_new ();
  guint8 w[4];

  mshed_write_u32 (w, l->group_tris->len);
  mshed_utf_append_file (c->utf, groups, "Count", w, 4);
  for (guint g = 0; g < l->group_tris->len; g++)
    {
      g_autofree char *group_name = g_strdup_printf ("Group%u", g);
      MshedUtfNode *group = mshed_utf_append_directory (c->utf, groups, group_name);
      GArray *tris = g_ptr_array_index (l->group_tris, g);
      g_autoptr(GBytes) strip = mshed_dfm_strip_encode ((const guint16 *) tris->data,
                                                        tris->len / 3, MSHED_DFM_STRIP_JOIN,
                                                        NULL);

      mshed_utf_append_text (c->utf, group, "Material_name",
            g_ptr_array_index (c->materials, g_array_index (l->group_material, guint, g)));
      file_bytes (c, group, "Tristrip_indices", strip);
    }
  for (guint e = 0; e < l->bone_of->len; e++)
    {
      push_u32 (ids, e);
      push_u32 (first, e);
      push_u32 (count, 1);
      push_u32 (chain, g_array_index (l->bone_of, guint32, e));
      push_f32 (weights, 1.0f);
    }
  geo = mshed_utf_append_directory (c->utf, mesh, "Geometry");
  take (c, geo, "Point_indices", ids);
  take (c, geo, "UV0_indices", ids);
  take (c, geo, "Points", l->points);
  take (c, geo, "Point_bone_first", first);
  take (c, geo, "Point_bone_count", count);
  take (c, geo, "Bone_id_chain", chain);
  take (c, geo, "Bone_weight_chain", weights);
  take (c, geo, "Vertex_normals", l->normals);
  take (c, geo, "UV0", l->uv0);
}

static void
add_materials (Msh2Dfm      *c,
               MshedUtfNode *root)
{
  MshedUtfNode *lib = mshed_utf_append_directory (c->utf, root, "Material library");
  static const float dc[3] = { 1, 1, 1 };
  guint8 w[4];

  mshed_write_u32 (w, c->materials->len);
  mshed_utf_append_file (c->utf, lib, "Material count", w, 4);
  for (guint m = 0; m < c->materials->len; m++)
    {
      MshedUtfNode *mat = mshed_utf_append_directory (c->utf, lib,
                                                      g_ptr_array_index (c->materials, m));

      mshed_utf_append_text (c->utf, mat, "Type", "Dc");
      floats (c, mat, "Dc", dc, 3);
    }
  mshed_utf_append_directory (c->utf, root, "Texture library");
}

/* docs/dfm.md §17 step 9. */
static void
report_msh_losses (Msh2Dfm *c)
{
  MshedConvertReport *r = c->report;
  guint flags = 0, other_groups = 0, animated = 0, tails = 0, batch_unknowns = 0, extra = 0;
  guint n_slots = mshed_model_get_n_rows (c->model, MSHED_TABLE_SLOTS);
  guint n_batches = mshed_model_get_n_rows (c->model, MSHED_TABLE_BATCHES);
  static const guint32 extra_types[] = { 9, 15, 16, 17, 18, 20 };

  for (guint n = 0; n < c->n_nodes; n++)
    {
      MshedNode node;

      if (!mshed_model_get_node (c->model, n, &node))
        continue;
      flags += node.hdr0 != 0;
      animated += node.hdr2 != MSHED_NONE;
      for (guint lod = 0; lod < MSHED_N_LODS; lod++)
        for (guint g = 1; g < MSHED_N_GROUPS; g++)
          other_groups += node.slot[lod * MSHED_N_GROUPS + g] != MSHED_NONE;
    }
  for (guint s = 0; s < n_slots; s++)
    {
      MshedSlot slot;

      if (mshed_model_get_slot (c->model, s, &slot))
        tails += (slot.unk[0] | slot.unk[1] | slot.unk[2] | slot.unk[3] | slot.unk[4]) != 0;
    }
  for (guint b = 0; b < n_batches; b++)
    {
      MshedBatch batch;

      if (mshed_model_get_batch (c->model, b, &batch))
        batch_unknowns += (batch.flags | batch.unk4 | batch.unk6 | batch.unk14) != 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (extra_types); i++)
    extra += mshed_model_find_resource (c->model, extra_types[i]) >= 0;
  mshed_convert_lose (r, "node-flags", flags, _("nodes with flags (hdr0)"));
  mshed_convert_lose (r, "groups", other_groups, _("slot cells of groups 1 to 4"));
  mshed_convert_lose (r, "collision", mshed_model_get_n_rows (c->model, MSHED_TABLE_TRIS),
                      _("triangle descriptors (Res7, the collision data)"));
  mshed_convert_lose (r, "resources", extra,
                      _("resources of unknown meaning (Res9, 15, 16, 17, 18, 20)"));
  mshed_convert_lose (r, "slot-tails", tails, _("slots with tail words"));
  mshed_convert_lose (r, "batch-unknowns", batch_unknowns,
                      _("batches with unknown fields set"));
  mshed_convert_lose (r, "animation", animated, _("animated nodes: their key tracks"));
  mshed_convert_lose (r, "renamed", c->renamed,
                      _("node names changed to be unique ASCII bone names"));
  mshed_convert_lose (r, "material-names", c->invented,
                      _("materials without a WEAR name, named material_<row>"));
}

static gboolean
convert (Msh2Dfm  *c,
         GError  **error)
{
  static const guint lods[N_LEVELS] = { 0, 0, 1, 1, 2, 2 };
  static const float fractions[N_LEVELS] = { 1.0f, 0.8f, 0.6f, 0.4f, 0.2f, 0.1f };
  Level levels[MSHED_N_LODS];
  MshedUtfNode *root, *multi;
  gboolean ok = TRUE;

  for (guint k = 0; k < MSHED_N_LODS; k++)
    level_init (&levels[k]);
  for (guint k = 0; k < MSHED_N_LODS && ok; k++)
    ok = build_level (c, k, &levels[k], error);
  if (ok && levels[0].triangles == 0)
    ok = mshed_convert_fail (error, c->where, _("nothing to draw at LOD 0, group 0"));
  if (ok)
    {
      root = mshed_utf_get_root (c->utf);
      mshed_utf_append_text (c->utf, root, "Exporter Version", "mshed convert");
      multi = mshed_utf_append_directory (c->utf, root, "MultiLevel");
      floats (c, multi, "Fractions", fractions, N_LEVELS);
      for (guint i = 0; i < N_LEVELS; i++)
        {
          guint k = lods[i];

          /* a LOD without triangles takes the more detailed one (an empty level draws
           * nothing at that distance) */
          while (k > 0 && levels[k].triangles == 0)
            k--;
          write_level (c, multi, i, &levels[k]);
          c->report->triangles += levels[k].triangles;
        }
      add_materials (c, root);
      mshed_utf_append_text (c->utf, mshed_utf_append_directory (c->utf, root, "Skeleton"), "Name",
                             "mshed convert.cmp");
      add_cmpnd (c, root);
      add_bones (c, root);
      c->report->nodes = c->n_bones;
      c->report->levels = N_LEVELS;
      c->report->materials = c->materials->len;
      report_msh_losses (c);
    }
  for (guint k = 0; k < MSHED_N_LODS; k++)
    level_clear (&levels[k]);
  return ok;
}

/**
 * mshed_convert_msh_to_dfm:
 *
 * Returns: (transfer full) (nullable): the new tree
 */
MshedUtf *
mshed_convert_msh_to_dfm (MshedModel          *model,
                          const char          *where,
                          GBytes              *wear,
                          MshedConvertReport  *report,
                          GError             **error)
{
  Msh2Dfm c = { model, where, report };
  MshedUtf *utf = NULL;

  g_return_val_if_fail (model != NULL && report != NULL, NULL);
  c.n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  if (c.n_nodes == 0 || !mshed_model_has_node_records (model))
    {
      mshed_convert_fail (error, where, _("the model has no 38-byte node records"));
      return NULL;
    }
  c.utf = mshed_utf_new ();
  c.wear = wear ? mshed_convert_parse_wear (wear) : NULL;
  c.materials = g_ptr_array_new_with_free_func (g_free);
  setup_bones (&c);
  if (convert (&c, error))
    utf = g_steal_pointer (&c.utf);
  g_clear_pointer (&c.utf, mshed_utf_unref);
  g_strfreev (c.wear);
  g_strfreev (c.names);
  g_ptr_array_unref (c.materials);
  g_free (c.local);
  g_free (c.world);
  g_free (c.parents);
  return utf;
}
