/* mshed-gltf-dfm-groups.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glTF -> DFM, the face groups of a level (docs/gltf.md §8.3): each glTF triangle is matched
 * to a stored one by its elements and goes to the face group whose material has the name of
 * its glTF material. Groups keep, lose and gain triangles, take a material's new name, are
 * added for a material no group of the level draws with and removed when nothing is left in
 * them (docs/dfm.md §4, §5.3); a material the model does not have is added to its library.
 */
#define G_LOG_DOMAIN "mshed-gltf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-dfm-private.h"
#include "mshed-dfm-strip.h"
#include "mshed-gltf-dfm-private.h"

typedef MshedGltfDfmTri Tri;

MshedGltfDfmTri
_mshed_gltf_dfm_tri_of (guint16 a,
                        guint16 b,
                        guint16 c)
{
  Tri t = { { a, b, c }, -1 };

  if (b < a && b <= c)
    t.e[0] = b, t.e[1] = c, t.e[2] = a;
  else if (c < a && c < b)
    t.e[0] = c, t.e[1] = a, t.e[2] = b;
  return t;
}

/* Materials -------------------------------------------------------------------------------- */

static JsonObject *
gltf_material (const MshedGltf *g,
               gint             material)
{
  JsonObject *root = json_node_get_object (json_parser_get_root (g->parser));
  JsonArray *materials = json_object_has_member (root, "materials")
                         ? json_object_get_array_member (root, "materials") : NULL;

  if (material < 0 || materials == NULL || (guint) material >= json_array_get_length (materials))
    return NULL;
  return json_array_get_object_element (materials, (guint) material);
}

/* The glTF material's name (UTF-8), NULL for none or an empty name. */
static const char *
gltf_material_name (const MshedGltf *g,
                    gint             material)
{
  JsonObject *m = gltf_material (g, material);
  const char *name = m ? json_object_get_string_member_with_default (m, "name", NULL) : NULL;

  return name && *name ? name : NULL;
}

/* Material names are compared ignoring case (docs/dfm.md §4). */
static gboolean
same_name (const char *a,
           const char *b)
{
  g_autofree char *fa = NULL, *fb = NULL;

  if (a == NULL || b == NULL)
    return FALSE;
  fa = g_utf8_casefold (a, -1);
  fb = g_utf8_casefold (b, -1);
  return strcmp (fa, fb) == 0;
}

/* glTF material @material's name in Windows-1251 with its NUL, as `Material_name` holds it
 * and as a material directory is named; NULL with @error when it has no such form. */
static GBytes *
stored_name (const MshedGltf  *gltf,
             gint              material,
             GError          **error)
{
  const char *name = gltf_material_name (gltf, material);
  g_autoptr(GBytes) encoded = name ? mshed_utf8_to_cp1251 (name, NULL) : NULL;
  GByteArray *text;
  gsize size = 0;
  const guint8 *data = encoded ? g_bytes_get_data (encoded, &size) : NULL;

  if (encoded == NULL || memchr (data, 0, size) || memchr (data, '\\', size))
    {
      mshed_gltf_fail (gltf, error, _("materials[%d] (“%s”): a material of a deformable model "
                                      "needs a name in Windows-1251 without “\\”"),
                       material, name ? name : "");
      return NULL;
    }
  text = g_byte_array_sized_new ((guint) size + 1);
  g_byte_array_append (text, data, (guint) size);
  g_byte_array_append (text, (const guint8 *) "", 1);
  return g_byte_array_free_to_bytes (text);
}

static gboolean
can_store (const MshedGltf  *gltf,
           gint              material,
           GError          **error)
{
  g_autoptr(GBytes) name = stored_name (gltf, material, error);

  return name != NULL;
}

static gboolean
add_file (MshedDocument  *doc,
          MshedUtfNode   *dir,
          const char     *name,
          const void     *data,
          gsize           size,
          GError        **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);

  return mshed_document_utf_add (doc, dir, G_MAXUINT, name, bytes, error) != NULL;
}

/* The material named like glTF material @material: found in the model's library, or added
 * to its end as a `DcDt` material whose `Dc` is the glTF base colour (docs/gltf.md §8.3). */
static gboolean
ensure_material (MshedDocument            *doc,
                 const MshedGltf          *gltf,
                 gint                      material,
                 MshedGltfDfmImportStats  *stats,
                 GError                  **error)
{
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autoptr(GBytes) name = stored_name (gltf, material, error);
  JsonObject *m = gltf_material (gltf, material), *pbr;
  JsonArray *factor = NULL;
  MshedUtfNode *lib, *dir;
  guint8 dc[12];

  if (name == NULL)
    return FALSE;
  if (mshed_dfm_find_material (dfm, g_bytes_get_data (name, NULL)) >= 0)
    return TRUE;
  lib = mshed_utf_node_lookup (mshed_utf_get_root (mshed_dfm_get_utf (dfm)),
                               "Material library");
  if (lib == NULL || !mshed_utf_node_is_directory (lib))
    return mshed_gltf_fail (gltf, error, _("materials[%d] (“%s”): the model has no Material "
                                           "library to add the material to"), material,
                            gltf_material_name (gltf, material));
  pbr = m && json_object_has_member (m, "pbrMetallicRoughness")
        ? json_object_get_object_member (m, "pbrMetallicRoughness") : NULL;
  if (pbr && json_object_has_member (pbr, "baseColorFactor"))
    factor = json_object_get_array_member (pbr, "baseColorFactor");
  for (guint k = 0; k < 3; k++)
    {
      double v = factor && k < json_array_get_length (factor)
                 ? json_array_get_double_element (factor, k) : 1.0;

      mshed_write_f32 (dc + 4 * k, isfinite (v) ? (float) CLAMP (v, 0.0, 1.0) : 1.0f);
    }
  dir = mshed_document_utf_add (doc, lib, G_MAXUINT, g_bytes_get_data (name, NULL), NULL, error);
  if (dir == NULL)
    return FALSE;
  stats->materials_added++;
  return add_file (doc, dir, "Type", "DcDt", 5, error) &&
         add_file (doc, dir, "Dc", dc, sizeof dc, error);
}

/* The plan ---------------------------------------------------------------------------------- */

typedef struct {
  gint    material;   /* the first glTF material of that name */
  GArray *tris;       /* 3 guint16 per triangle, in glTF order */
} NewGroup;

typedef struct {
  MshedDfm        *dfm;
  const MshedGltf *gltf;
  guint            level;
  GArray          *tris;        /* Tri: the level's glTF triangles */
  guint            n_groups;
  guint16        **stored;      /* per group: its triangles */
  gsize           *n_stored;
  gint           **match;       /* per group and stored triangle: the glTF triangle, or -1 */
  char           **name;        /* per group: its material's name in UTF-8, after a rename */
  gint            *rename;      /* per group: the glTF material it takes the name of, or -1 */
  GArray         **added;       /* per group: triangles moved or added to it, 3 guint16 each */
  gint            *placed;      /* per glTF triangle: the group that keeps it, or -1 */
  GArray          *new_groups;  /* NewGroup */
  GHashTable      *where;       /* tri_key -> GArray of (group << 32 | triangle) unmatched */
} Plan;

static guint64
tri_key (const guint16 *e)
{
  return (guint64) e[0] | (guint64) e[1] << 16 | (guint64) e[2] << 32;
}

static const char *
tri_name (const Plan *P,
          guint       i)
{
  return gltf_material_name (P->gltf, g_array_index (P->tris, Tri, i).material);
}

static void
new_group_clear (gpointer data)
{
  g_array_unref (((NewGroup *) data)->tris);
}

static void
plan_init (Plan            *P,
           MshedDfm        *dfm,
           const MshedGltf *gltf,
           guint            level,
           guint            n_groups,
           GArray          *tris)
{
  *P = (Plan) { dfm, gltf, level, tris, n_groups };
  P->stored = g_new0 (guint16 *, MAX (n_groups, 1));
  P->n_stored = g_new0 (gsize, MAX (n_groups, 1));
  P->match = g_new0 (gint *, MAX (n_groups, 1));
  P->name = g_new0 (char *, MAX (n_groups, 1));
  P->rename = g_new (gint, MAX (n_groups, 1));
  P->added = g_new0 (GArray *, MAX (n_groups, 1));
  P->placed = g_new (gint, MAX (tris->len, 1));
  P->new_groups = g_array_new (FALSE, FALSE, sizeof (NewGroup));
  g_array_set_clear_func (P->new_groups, new_group_clear);
  P->where = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                    (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < tris->len; i++)
    P->placed[i] = -1;
  for (guint g = 0; g < n_groups; g++)
    {
      MshedDfmGroup group;

      P->stored[g] = mshed_dfm_dup_triangles (dfm, level, g, &P->n_stored[g]);
      P->match[g] = g_new (gint, MAX (P->n_stored[g], 1));
      P->added[g] = g_array_new (FALSE, FALSE, sizeof (guint16));
      P->rename[g] = -1;
      if (mshed_dfm_get_group (dfm, level, g, &group) && group.material_name)
        P->name[g] = mshed_cp1251_to_utf8 ((const guint8 *) group.material_name,
                                           strlen (group.material_name), NULL);
      for (gsize t = 0; t < P->n_stored[g]; t++)
        {
          const guint16 *e = &P->stored[g][3 * t];
          Tri c = _mshed_gltf_dfm_tri_of (e[0], e[1], e[2]);
          guint64 key = tri_key (c.e), hit = (guint64) g << 32 | t;
          GArray *at = g_hash_table_lookup (P->where, &key);

          P->match[g][t] = -1;
          if (at == NULL)
            {
              at = g_array_new (FALSE, FALSE, sizeof (guint64));
              g_hash_table_insert (P->where, g_memdup2 (&key, sizeof key), at);
            }
          g_array_append_val (at, hit);
        }
    }
}

static void
plan_clear (Plan *P)
{
  for (guint g = 0; g < P->n_groups; g++)
    {
      g_free (P->stored[g]);
      g_free (P->match[g]);
      g_free (P->name[g]);
      g_array_unref (P->added[g]);
    }
  g_free (P->stored), g_free (P->n_stored), g_free (P->match), g_free (P->name);
  g_free (P->rename), g_free (P->added), g_free (P->placed);
  g_array_unref (P->new_groups);
  g_hash_table_unref (P->where);
}

/* Matches glTF triangle @i to the first unmatched stored triangle of the same elements, with
 * @same_material only in a group whose material has the name of the triangle's. */
static void
match_one (Plan     *P,
           guint     i,
           gboolean  same_material)
{
  const Tri *t = &g_array_index (P->tris, Tri, i);
  guint64 key = tri_key (t->e);
  GArray *at = g_hash_table_lookup (P->where, &key);

  for (guint k = 0; at && k < at->len; k++)
    {
      guint64 hit = g_array_index (at, guint64, k);
      guint g = (guint) (hit >> 32);

      if (same_material && !same_name (tri_name (P, i), P->name[g]))
        continue;
      P->match[g][hit & G_MAXUINT32] = (gint) i;
      P->placed[i] = (gint) g;
      g_array_remove_index (at, k);
      return;
    }
}

/* A group whose matched triangles all come from one glTF material of another name takes that
 * name: the material was renamed in Blender, or all of the group's faces were given it. */
static void
plan_renames (Plan *P)
{
  for (guint g = 0; g < P->n_groups; g++)
    {
      gint material = -2;
      const char *name;

      for (gsize t = 0; t < P->n_stored[g]; t++)
        if (P->match[g][t] >= 0)
          {
            gint m = g_array_index (P->tris, Tri, P->match[g][t]).material;

            material = material == -2 || material == m ? m : -3;
          }
      name = gltf_material_name (P->gltf, material);
      if (name && !same_name (name, P->name[g]))
        {
          P->rename[g] = material;
          g_free (P->name[g]);
          P->name[g] = g_strdup (name);
        }
    }
}

/* Triangle @i, not kept where it was, goes to the first group of its material's name, else
 * to a new group of that name. */
static gboolean
place (Plan    *P,
       guint    i,
       GError **error)
{
  const Tri *t = &g_array_index (P->tris, Tri, i);
  const char *name = tri_name (P, i);
  NewGroup *ng = NULL;

  if (name == NULL)
    return mshed_gltf_fail (P->gltf, error, _("Mesh%u: a new triangle of elements %u, %u, %u "
                                              "has no material with a name (material %d); a "
                                              "face group draws with a named material"),
                            P->level, t->e[0], t->e[1], t->e[2], t->material);
  for (guint g = 0; g < P->n_groups; g++)
    if (same_name (name, P->name[g]))
      {
        g_array_append_vals (P->added[g], t->e, 3);
        return TRUE;
      }
  for (guint k = 0; k < P->new_groups->len && ng == NULL; k++)
    if (same_name (name, gltf_material_name (P->gltf, g_array_index (P->new_groups, NewGroup,
                                                                     k).material)))
      ng = &g_array_index (P->new_groups, NewGroup, k);
  if (ng == NULL)
    {
      NewGroup fresh = { t->material, g_array_new (FALSE, FALSE, sizeof (guint16)) };

      g_array_append_val (P->new_groups, fresh);
      ng = &g_array_index (P->new_groups, NewGroup, P->new_groups->len - 1);
    }
  ng->material = MIN (ng->material, t->material);
  g_array_append_vals (ng->tris, t->e, 3);
  return TRUE;
}

static gint
compare_new_groups (gconstpointer a,
                    gconstpointer b)
{
  return ((const NewGroup *) a)->material - ((const NewGroup *) b)->material;
}

/* Which group keeps, gains and loses which triangles, and which groups are new. */
static gboolean
plan_triangles (Plan    *P,
                GError **error)
{
  guint left = P->new_groups->len;

  for (guint i = 0; i < P->tris->len; i++)
    match_one (P, i, TRUE);
  for (guint i = 0; i < P->tris->len; i++)
    if (P->placed[i] < 0)
      match_one (P, i, FALSE);
  plan_renames (P);
  /* a triangle whose material has another name than its group's moves; one without a named
   * material stays where it is */
  for (guint g = 0; g < P->n_groups; g++)
    for (gsize t = 0; t < P->n_stored[g]; t++)
      {
        gint i = P->match[g][t];

        if (i >= 0 && tri_name (P, (guint) i) && !same_name (tri_name (P, (guint) i),
                                                              P->name[g]))
          P->match[g][t] = P->placed[i] = -1;
      }
  for (guint i = 0; i < P->tris->len; i++)
    if (P->placed[i] < 0 && !place (P, i, error))
      return FALSE;
  g_array_sort (P->new_groups, compare_new_groups);
  /* every name checked before anything is written */
  for (guint g = 0; g < P->n_groups; g++)
    if (P->rename[g] >= 0 && !can_store (P->gltf, P->rename[g], error))
      return FALSE;
  for (guint k = 0; k < P->new_groups->len; k++)
    if (!can_store (P->gltf, g_array_index (P->new_groups, NewGroup, k).material, error))
      return FALSE;
  for (guint g = 0; g < P->n_groups; g++)
    {
      left += P->added[g]->len;
      for (gsize t = 0; t < P->n_stored[g]; t++)
        left += P->match[g][t] >= 0;
    }
  if (left == 0)
    return mshed_gltf_fail (P->gltf, error, _("Mesh%u: no triangle is left; a level keeps at "
                                              "least one face group"), P->level);
  return TRUE;
}

/* Applying it ------------------------------------------------------------------------------- */

static gboolean
set_material_name (MshedDocument  *doc,
                   guint           level,
                   guint           g,
                   GBytes         *name,
                   GError        **error)
{
  MshedDfmGroup group;
  MshedUtfNode *node;

  if (!mshed_dfm_get_group (mshed_document_get_dfm (doc), level, g, &group) ||
      (node = mshed_utf_node_lookup (group.node, "Material_name")) == NULL)
    return TRUE;
  return mshed_document_utf_set_data (doc, node, name, error);
}

/* Group @g of the plan: its kept triangles in their stored order, then the ones it gains in
 * glTF order, written as a strip by our encoder (docs/dfm.md §5.3); its new name. A group
 * that had triangles and keeps none goes to @emptied. */
static gboolean
apply_group (MshedDocument            *doc,
             const Plan               *P,
             guint                     g,
             GPtrArray                *emptied,
             MshedGltfDfmImportStats  *stats,
             GError                  **error)
{
  g_autoptr(GArray) list = g_array_new (FALSE, FALSE, sizeof (guint16));
  g_autoptr(GBytes) name = NULL;
  MshedDfmGroup group;

  for (gsize t = 0; t < P->n_stored[g]; t++)
    if (P->match[g][t] >= 0)
      g_array_append_vals (list, &P->stored[g][3 * t], 3);
  if (list->len == 0 && P->added[g]->len == 0 && P->n_stored[g] > 0)
    {
      if (mshed_dfm_get_group (P->dfm, P->level, g, &group))
        g_ptr_array_add (emptied, group.node);
      return TRUE;
    }
  if (list->len != 3 * P->n_stored[g] || P->added[g]->len > 0)
    {
      g_array_append_vals (list, P->added[g]->data, P->added[g]->len);
      if (!mshed_document_dfm_set_triangles (doc, P->level, g, (guint16 *) list->data,
                                             list->len / 3, error))
        return FALSE;
      stats->groups++;
    }
  if (P->rename[g] < 0)
    return TRUE;
  if ((name = stored_name (P->gltf, P->rename[g], error)) == NULL ||
      !ensure_material (doc, P->gltf, P->rename[g], stats, error) ||
      !set_material_name (doc, P->level, g, name, error))
    return FALSE;
  stats->materials++;
  return TRUE;
}

/* After groups were removed: a group directory named Group<k> that is now group i < k is
 * renamed Group<i> when no sibling has that name, so that the names stay Group0…Group<G−1>
 * as writers name them (docs/dfm.md §2); nothing in the file refers to a group's number. */
static gboolean
renumber (MshedDocument  *doc,
          MshedUtfNode   *face_groups,
          GError        **error)
{
  guint i = 0;

  for (MshedUtfNode *c = mshed_utf_node_get_first_child (face_groups); c;
       c = mshed_utf_node_get_next (c))
    {
      const char *name = mshed_utf_node_get_name (c);
      char want[24];

      if (!mshed_utf_node_is_directory (c) || !_mshed_dfm_is_group_name (name))
        continue;
      g_snprintf (want, sizeof want, "Group%u", i);
      if (g_ascii_strtoull (name + 5, NULL, 10) > i &&
          mshed_utf_node_lookup (face_groups, want) == NULL &&
          !mshed_document_utf_rename (doc, c, want, error))
        return FALSE;
      i++;
    }
  return TRUE;
}

/* A new `Group<n>` after the level's last group (n its number, or the next free one) with
 * `Material_name` and `Tristrip_indices` (docs/dfm.md §2, §5.3). */
static gboolean
add_group (MshedDocument            *doc,
           const MshedGltf          *gltf,
           guint                     level,
           const NewGroup           *ng,
           MshedGltfDfmImportStats  *stats,
           GError                  **error)
{
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autoptr(GBytes) name = stored_name (gltf, ng->material, error);
  g_autoptr(GBytes) strip = NULL;
  MshedUtfNode *face_groups = NULL, *dir, *last = NULL;
  MshedDfmLevel info;
  char dir_name[24];
  gsize dropped = 0;

  if (name == NULL || !ensure_material (doc, gltf, ng->material, stats, error))
    return FALSE;
  if (mshed_dfm_get_level (dfm, level, &info))
    face_groups = mshed_utf_node_lookup (info.node, "Face_groups");
  if (face_groups == NULL || !mshed_utf_node_is_directory (face_groups))
    return mshed_gltf_fail (gltf, error, _("Mesh%u: no Face_groups directory to add a face "
                                           "group to"), level);
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (face_groups); c;
       c = mshed_utf_node_get_next (c))
    if (mshed_utf_node_is_directory (c) && _mshed_dfm_is_group_name (mshed_utf_node_get_name (c)))
      last = c;
  for (guint n = info.n_groups; ; n++)
    {
      g_snprintf (dir_name, sizeof dir_name, "Group%u", n);
      if (mshed_utf_node_lookup (face_groups, dir_name) == NULL)
        break;
    }
  dir = mshed_document_utf_add (doc, face_groups,
                                last ? mshed_utf_node_get_index (last) + 1 : G_MAXUINT,
                                dir_name, NULL, error);
  if (dir == NULL)
    return FALSE;
  stats->groups_added++;
  strip = mshed_dfm_strip_encode ((const guint16 *) ng->tris->data, ng->tris->len / 3,
                                  MSHED_DFM_STRIP_JOIN, &dropped);
  return mshed_document_utf_add (doc, dir, G_MAXUINT, "Material_name", name, error) &&
         mshed_document_utf_add (doc, dir, G_MAXUINT, "Tristrip_indices", strip, error);
}

gboolean
_mshed_gltf_dfm_import_groups (MshedDocument            *doc,
                               const MshedGltf          *gltf,
                               guint                     level,
                               GArray                   *tris,
                               MshedGltfDfmImportStats  *stats,
                               GError                  **error)
{
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autoptr(GPtrArray) emptied = g_ptr_array_new ();
  MshedUtfNode *face_groups = NULL;
  guint materials_before = stats->materials_added;
  MshedDfmLevel info;
  gboolean ok;
  Plan P;

  if (!mshed_dfm_get_level (dfm, level, &info))
    return TRUE;
  plan_init (&P, dfm, gltf, level, info.n_groups, tris);
  ok = plan_triangles (&P, error);
  for (guint g = 0; g < P.n_groups && ok; g++)
    ok = apply_group (doc, &P, g, emptied, stats, error);
  if (emptied->len > 0)
    face_groups = mshed_utf_node_get_parent (emptied->pdata[0]);
  for (guint k = emptied->len; k > 0 && ok; k--)
    if ((ok = mshed_document_utf_remove (doc, emptied->pdata[k - 1], error)))
      stats->groups_removed++;
  if (ok && face_groups)
    ok = renumber (doc, face_groups, error);
  for (guint k = 0; k < P.new_groups->len && ok; k++)
    ok = add_group (doc, gltf, level, &g_array_index (P.new_groups, NewGroup, k), stats, error);
  if (ok && (emptied->len > 0 || P.new_groups->len > 0))
    ok = mshed_document_recompute (doc, MSHED_DERIVED_DFM_GROUP_COUNT, &level, 1, error);
  if (ok && stats->materials_added > materials_before)
    ok = mshed_document_recompute (doc, MSHED_DERIVED_DFM_MATERIAL_COUNT, NULL, 0, error);
  plan_clear (&P);
  return ok;
}
