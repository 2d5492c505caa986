/* mshed-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The node index (mshed_dfm_refresh) and the typed accessors. Lookups of known names fold
 * ASCII case and take the first match among siblings (docs/utf.md §3.4); a known name with the
 * wrong kind (a directory where a file belongs) is not indexed, so the validator reports it
 * as missing and as an unknown node.
 */
#define G_LOG_DOMAIN "mshed-dfm"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-dfm-private.h"
#include "mshed-dfm-strip.h"
#include "mshed-dfm-validate.h"
#include "mshed-error.h"

G_DEFINE_BOXED_TYPE (MshedDfm, mshed_dfm, mshed_dfm_ref, mshed_dfm_unref)

static const struct {
  const char *name;
  guint       size;
} joint_kinds[MSHED_DFM_N_JOINT_KINDS] = {
  /* docs/dfm.md §9.1 */
  [MSHED_DFM_JOINT_FIX] = { "Fix", 176 },
  [MSHED_DFM_JOINT_REV] = { "Rev", 208 },
  [MSHED_DFM_JOINT_PRIS] = { "Pris", 208 },
  [MSHED_DFM_JOINT_CYL] = { "Cyl", 216 },
  [MSHED_DFM_JOINT_SPHERE] = { "Sphere", 212 },
  [MSHED_DFM_JOINT_LOOSE] = { "Loose", 176 },
};

/* Index ------------------------------------------------------------------------------------ */

/**
 * _mshed_dfm_read_string:
 *
 * Returns: (transfer full): a string payload up to its first NUL, or all of it when it has
 *   none (docs/utf.md §5); NULL for a directory or NULL node
 */
char *
_mshed_dfm_read_string (const MshedUtfNode *node)
{
  gsize size;
  const guint8 *data;

  if (node == NULL || mshed_utf_node_is_directory (node))
    return NULL;
  data = mshed_utf_node_peek_data (node, &size);
  return data ? g_strndup ((const char *) data, size) : g_strdup ("");
}

gint
_mshed_dfm_joint_kind_of_name (const char *name)
{
  for (guint k = 0; k < MSHED_DFM_N_JOINT_KINDS; k++)
    if (mshed_utf_name_compare (name, joint_kinds[k].name) == 0)
      return (gint) k;
  return -1;
}

static MshedUtfNode *
find_child (const MshedUtfNode *dir,
            const char         *name,
            gboolean            directory)
{
  MshedUtfNode *n;

  if (dir == NULL)
    return NULL;
  n = mshed_utf_node_lookup (dir, name);
  return n && mshed_utf_node_is_directory (n) == directory ? n : NULL;
}

/* Names are looked up ignoring ASCII case (docs/utf.md §3.4); the first of equal names wins.
 * Hash tables keep the index linear in the number of nodes, however many a file holds. A
 * table that copies its keys (@copy) outlives edits that rename nodes; one that borrows them
 * is for names that live as long as the index (strings it holds, the nodes of a read-only
 * tree). */
static GHashTable *
name_table_new (gboolean copy)
{
  return g_hash_table_new_full (mshed_utf_name_hash, mshed_utf_name_equal,
                                copy ? g_free : NULL, NULL);
}

/* Names go in last to first, so an earlier name replaces a later equal one and the first wins
 * with one hash per name. */
static void
name_table_put (GHashTable *table,
                gboolean    copy,
                const char *name,
                gint        index)
{
  g_hash_table_insert (table, copy ? g_strdup (name) : (char *) name, GINT_TO_POINTER (index + 1));
}

static gint
name_table_find (GHashTable *table,
                 const char *name)
{
  return GPOINTER_TO_INT (g_hash_table_lookup (table, name)) - 1;
}

/* the files of @dir that the schema places in @scope with ids base .. base + n − 1 */
static void
index_files (const MshedUtfNode *dir,
             MshedDfmScope       scope,
             MshedDfmTable       base,
             guint               n,
             MshedUtfNode      **files)
{
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (dir); c; c = mshed_utf_node_get_next (c))
    {
      MshedDfmTable t;

      if (mshed_utf_node_is_directory (c))
        continue;
      t = mshed_dfm_schema_table_in_scope (scope, mshed_utf_node_get_name (c));
      if (t >= base && t < base + (gint) n && files[t - base] == NULL)
        files[t - base] = c;
    }
}

static void
clear_mesh (gpointer data)
{
  DfmMesh *m = data;

  g_clear_pointer (&m->groups, g_array_unref);
}

static void
clear_bone (gpointer data)
{
  DfmBone *b = data;

  g_clear_pointer (&b->hps, g_array_unref);
}

/* A string payload for the index, as _mshed_dfm_read_string reads it: in a read-only tree the
 * payload itself when a NUL ends it there, else a copy that the index keeps (@self->strings). */
static char *
index_string (MshedDfm           *self,
              const MshedUtfNode *node)
{
  gsize size;
  const guint8 *data;
  char *copy;

  if (node == NULL || mshed_utf_node_is_directory (node))
    return NULL;
  data = mshed_utf_node_peek_data (node, &size);
  if (data && size && mshed_utf_is_readonly (self->utf) && memchr (data, 0, size))
    return (char *) data;
  copy = _mshed_dfm_read_string (node);
  g_ptr_array_add (self->strings, copy);
  return copy;
}

static GArray *
new_array (gsize          size,
           GDestroyNotify clear)
{
  GArray *a = g_array_new (FALSE, TRUE, (guint) size);

  g_array_set_clear_func (a, clear);
  return a;
}

static void
index_meshes (MshedDfm *self)
{
  if (self->multilevel == NULL)
    return;
  self->fractions = find_child (self->multilevel, "Fractions", FALSE);
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (self->multilevel); c;
       c = mshed_utf_node_get_next (c))
    {
      DfmMesh m = { 0 };

      if (!mshed_utf_node_is_directory (c) ||
          !_mshed_dfm_is_mesh_name (mshed_utf_node_get_name (c)))
        continue;
      m.dir = c;
      m.face_groups = find_child (c, "Face_groups", TRUE);
      m.geometry = find_child (c, "Geometry", TRUE);
      m.count = find_child (m.face_groups, "Count", FALSE);
      m.groups = new_array (sizeof (DfmGroup), NULL);
      if (m.geometry)
        index_files (m.geometry, MSHED_DFM_SCOPE_GEOMETRY, DFM_GEO_BASE, DFM_N_GEO, m.files);
      for (MshedUtfNode *g = m.face_groups ? mshed_utf_node_get_first_child (m.face_groups) : NULL;
           g; g = mshed_utf_node_get_next (g))
        {
          DfmGroup group = { 0 };

          if (!mshed_utf_node_is_directory (g) ||
              !_mshed_dfm_is_group_name (mshed_utf_node_get_name (g)))
            continue;
          group.dir = g;
          index_files (g, MSHED_DFM_SCOPE_GROUP, DFM_GROUP_BASE, DFM_N_GROUP, group.files);
          group.material_name =
            index_string (self, group.files[MSHED_DFM_TABLE_MATERIAL_NAME - DFM_GROUP_BASE]);
          group.material = group.material_name ? mshed_dfm_find_material (self, group.material_name)
                                                : -1;
          g_array_append_val (m.groups, group);
        }
      g_array_append_val (self->meshes, m);
    }
}

static void
index_materials (MshedDfm *self)
{
  if (self->material_library)
    {
      self->material_count = find_child (self->material_library, "Material count", FALSE);
      for (MshedUtfNode *c = mshed_utf_node_get_first_child (self->material_library); c;
           c = mshed_utf_node_get_next (c))
        {
          DfmMaterial m = { 0 };

          if (!mshed_utf_node_is_directory (c))
            continue;
          m.dir = c;
          index_files (c, MSHED_DFM_SCOPE_MATERIAL, DFM_MAT_BASE, DFM_N_MAT, m.files);
          m.type = index_string (self, m.files[MSHED_DFM_TABLE_MATERIAL_TYPE - DFM_MAT_BASE]);
          m.dt_name = index_string (self, m.files[MSHED_DFM_TABLE_MATERIAL_DT_NAME - DFM_MAT_BASE]);
          g_array_append_val (self->materials, m);
        }
      for (guint i = self->materials->len; i > 0; i--)
        name_table_put (self->material_by_name, !mshed_utf_is_readonly (self->utf),
                        mshed_utf_node_get_name (g_array_index (self->materials, DfmMaterial,
                                                                i - 1).dir), (gint) i - 1);
    }
  if (self->texture_library)
    for (MshedUtfNode *c = mshed_utf_node_get_first_child (self->texture_library); c;
         c = mshed_utf_node_get_next (c))
      if (mshed_utf_node_is_directory (c))
        g_ptr_array_add (self->textures, c);
}

static void
index_hardpoints (DfmBone *bone)
{
  static const char *const kinds[] = { "Fixed", "Revolute" };

  bone->hardpoints = find_child (bone->dir, "Hardpoints", TRUE);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      MshedUtfNode *kind = find_child (bone->hardpoints, kinds[k], TRUE);

      for (MshedUtfNode *c = kind ? mshed_utf_node_get_first_child (kind) : NULL; c;
           c = mshed_utf_node_get_next (c))
        {
          DfmHardpoint hp = { 0 };

          if (!mshed_utf_node_is_directory (c))
            continue;
          hp.dir = c;
          hp.revolute = k == 1;
          index_files (c, MSHED_DFM_SCOPE_HARDPOINT, DFM_HP_BASE, DFM_N_HP, hp.files);
          if (bone->hps == NULL)
            bone->hps = g_array_new (FALSE, TRUE, sizeof (DfmHardpoint));
          g_array_append_val (bone->hps, hp);
        }
    }
}

/* bones, then the parts that name them (docs/dfm.md §8, §10.1) */
static void
index_bones_and_parts (MshedDfm *self)
{
  MshedUtfNode *root = mshed_utf_get_root (self->utf);

  for (MshedUtfNode *c = mshed_utf_node_get_first_child (root); c; c = mshed_utf_node_get_next (c))
    {
      DfmBone b = { 0 };

      if (!mshed_utf_node_is_directory (c) ||
          !_mshed_dfm_is_bone_name (mshed_utf_node_get_name (c)))
        continue;
      b.dir = c;
      b.part = -1;
      b.parent = -1;
      index_files (c, MSHED_DFM_SCOPE_BONE, DFM_BONE_BASE, DFM_N_BONE, b.files);
      index_hardpoints (&b);
      g_array_append_val (self->bones, b);
    }
  for (guint i = self->bones->len; i > 0; i--)
    name_table_put (self->bone_by_dir, !mshed_utf_is_readonly (self->utf),
                    mshed_utf_node_get_name (g_array_index (self->bones, DfmBone, i - 1).dir),
                    (gint) i - 1);

  if (self->cmpnd == NULL)
    return;
  self->scale = find_child (self->cmpnd, "Scale", FALSE);
  self->cons = find_child (self->cmpnd, "Cons", TRUE);
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (self->cmpnd); c;
       c = mshed_utf_node_get_next (c))
    {
      DfmPart p = { 0 };

      if (!mshed_utf_node_is_directory (c) ||
          !_mshed_dfm_is_part_name (mshed_utf_node_get_name (c), &p.root))
        continue;
      p.dir = c;
      index_files (c, MSHED_DFM_SCOPE_PART, DFM_PART_BASE, DFM_N_PART, p.files);
      p.object_name = index_string (self, p.files[MSHED_DFM_TABLE_OBJECT_NAME - DFM_PART_BASE]);
      p.file_name = index_string (self, p.files[MSHED_DFM_TABLE_FILE_NAME - DFM_PART_BASE]);
      p.bone = p.file_name ? name_table_find (self->bone_by_dir, p.file_name) : -1;
      p.claimed_by = -1;
      if (p.bone >= 0)
        {
          DfmBone *b = &g_array_index (self->bones, DfmBone, p.bone);

          if (b->part < 0)
            b->part = (gint) self->parts->len;
          else
            p.claimed_by = b->part;
        }
      g_array_append_val (self->parts, p);
    }
  for (guint i = self->parts->len; i > 0; i--)
    {
      const DfmPart *p = &g_array_index (self->parts, DfmPart, i - 1);

      if (p->bone >= 0 && p->claimed_by < 0 && p->object_name)
        name_table_put (self->bone_by_object, FALSE, p->object_name, p->bone);
    }
}

/* reads the NUL-stopped name at @field (64 bytes); TRUE when bytes follow its NUL */
static gboolean
read_cons_name (const guint8 *field,
                char          out[65])
{
  const guint8 *nul = memchr (field, 0, 64);
  gsize len = nul ? (gsize) (nul - field) : 64;

  memcpy (out, field, len);
  out[len] = '\0';
  for (gsize i = len; i < 64; i++)
    if (field[i] != 0)
      return TRUE;
  return FALSE;
}

/* the top of @b's tree in the union-find @up, compressing the path (also mshed-dfm-fast.c) */
gint
_mshed_dfm_find_top (gint *up,
                     gint  b)
{
  gint top = b;

  while (up[top] != top)
    top = up[top];
  while (up[b] != top)
    {
      gint next = up[b];

      up[b] = top;
      b = next;
    }
  return top;
}

/* Cons files and the bone hierarchy they give (docs/dfm.md §9) */
static void
index_joints (MshedDfm *self)
{
  g_autofree gint *up = NULL;

  for (MshedUtfNode *c = self->cons ? mshed_utf_node_get_first_child (self->cons) : NULL; c;
       c = mshed_utf_node_get_next (c))
    {
      gint kind = _mshed_dfm_joint_kind_of_name (mshed_utf_node_get_name (c));
      DfmConsFile f = { 0 };
      gsize size;

      if (kind < 0 || mshed_utf_node_is_directory (c))
        continue;
      mshed_utf_node_peek_data (c, &size);
      f.node = c;
      f.kind = (MshedDfmJointKind) kind;
      f.first = self->n_joints;
      f.count = (guint) MIN (size / joint_kinds[kind].size, G_MAXUINT - self->n_joints);
      self->n_joints += f.count;
      g_array_append_val (self->cons_files, f);
    }

  g_array_set_size (self->joint_status, self->n_joints);
  /* up[b]: a bone above b in its tree, path-compressed; a tree's top points at itself. A
   * child is a top (it has no parent yet), so linking it under @parent closes a cycle
   * exactly when @parent's top is the child. */
  up = g_new (gint, MAX (self->bones->len, 1));
  for (guint b = 0; b < self->bones->len; b++)
    up[b] = (gint) b;
  for (guint i = 0; i < self->n_joints; i++)
    {
      MshedDfmJoint j;
      DfmJointStatus status = DFM_JOINT_LINKED;

      mshed_dfm_get_joint (self, i, &j);
      if (j.parent_bone < 0)
        status = DFM_JOINT_UNKNOWN_PARENT;
      else if (j.child_bone < 0)
        status = DFM_JOINT_UNKNOWN_CHILD;
      else if (g_array_index (self->bones, DfmBone, j.child_bone).parent >= 0)
        status = DFM_JOINT_SECOND_PARENT;
      else if (_mshed_dfm_find_top (up, j.parent_bone) == j.child_bone)
        status = DFM_JOINT_CYCLE;
      if (status == DFM_JOINT_LINKED)
        {
          g_array_index (self->bones, DfmBone, j.child_bone).parent = j.parent_bone;
          up[j.child_bone] = _mshed_dfm_find_top (up, j.parent_bone);
        }
      g_array_index (self->joint_status, DfmJointStatus, i) = status;
    }
}

static void
clear_index (MshedDfm *self)
{
  g_clear_pointer (&self->meshes, g_array_unref);
  g_clear_pointer (&self->parts, g_array_unref);
  g_clear_pointer (&self->bones, g_array_unref);
  g_clear_pointer (&self->cons_files, g_array_unref);
  g_clear_pointer (&self->joint_status, g_array_unref);
  g_clear_pointer (&self->materials, g_array_unref);
  g_clear_pointer (&self->textures, g_ptr_array_unref);
  g_clear_pointer (&self->bone_by_object, g_hash_table_unref);
  g_clear_pointer (&self->bone_by_dir, g_hash_table_unref);
  g_clear_pointer (&self->material_by_name, g_hash_table_unref);
  self->exporter_version = self->skeleton_text = NULL;
  g_clear_pointer (&self->strings, g_ptr_array_unref);
}

/**
 * mshed_dfm_refresh:
 *
 * Rebuilds the node index from the tree. Call it after a tree edit (insert, remove, move,
 * rename) or after replacing a string payload (names, material names); payloads of numbers
 * are read when asked for and need no refresh.
 */
void
mshed_dfm_refresh (MshedDfm *self)
{
  MshedUtfNode *root;

  g_return_if_fail (self != NULL);
  clear_index (self);
  self->meshes = new_array (sizeof (DfmMesh), clear_mesh);
  self->parts = new_array (sizeof (DfmPart), NULL);
  self->bones = new_array (sizeof (DfmBone), clear_bone);
  self->cons_files = g_array_new (FALSE, TRUE, sizeof (DfmConsFile));
  self->joint_status = g_array_new (FALSE, TRUE, sizeof (DfmJointStatus));
  self->materials = new_array (sizeof (DfmMaterial), NULL);
  self->strings = g_ptr_array_new_with_free_func (g_free);
  self->textures = g_ptr_array_new ();
  self->bone_by_object = name_table_new (FALSE);  /* the parts' strings */
  self->bone_by_dir = name_table_new (!mshed_utf_is_readonly (self->utf));
  self->material_by_name = name_table_new (!mshed_utf_is_readonly (self->utf));
  self->n_joints = 0;

  root = mshed_utf_get_root (self->utf);
  self->exporter = find_child (root, "Exporter Version", FALSE);
  self->multilevel = find_child (root, "MultiLevel", TRUE);
  self->material_library = find_child (root, "Material library", TRUE);
  self->texture_library = find_child (root, "Texture library", TRUE);
  self->skeleton = find_child (root, "Skeleton", TRUE);
  self->skeleton_name = find_child (self->skeleton, "Name", FALSE);
  self->cmpnd = find_child (root, "Cmpnd", TRUE);
  self->fractions = self->material_count = self->scale = self->cons = NULL;
  self->exporter_version = index_string (self, self->exporter);
  self->skeleton_text = index_string (self, self->skeleton_name);

  index_materials (self);
  index_meshes (self);
  index_bones_and_parts (self);
  index_joints (self);
}

/* Life cycle ------------------------------------------------------------------------------ */

/**
 * mshed_dfm_new:
 * @utf: (transfer none): the model's tree (kept referenced)
 * @mode: strict fails on any error-level finding; tolerant always gives a view
 * @diags: (nullable): receives every finding of mshed_dfm_validate
 *
 * Returns: (transfer full) (nullable): the view
 */
MshedDfm *
mshed_dfm_new (MshedUtf          *utf,
               MshedMode          mode,
               MshedDiagnostics  *diags,
               GError           **error)
{
  g_autoptr(MshedDfm) self = NULL;
  g_autoptr(MshedDiagnostics) own = NULL;
  MshedDiagnostics *d = diags;
  guint before, first_item;

  g_return_val_if_fail (utf != NULL, NULL);
  self = g_new0 (MshedDfm, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->utf = mshed_utf_ref (utf);
  mshed_dfm_refresh (self);

  if (d == NULL)
    d = own = mshed_diagnostics_new ();
  before = d->n_errors;
  first_item = d->items->len;
  if (!mshed_dfm_validate (self, mode, d) && mode == MSHED_MODE_STRICT)
    {
      const MshedDiagnostic *first = mshed_diagnostics_find_error (d, first_item);

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   g_dngettext (GETTEXT_PACKAGE,
                                "The deformable model fails strict validation with %u error; "
                                "the first: %s",
                                "The deformable model fails strict validation with %u errors; "
                                "the first: %s",
                                d->n_errors - before),
                   d->n_errors - before, first ? first->message : "?");
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * mshed_dfm_new_from_bytes:
 * @bytes: a UTF file (kept referenced, not copied)
 *
 * Parses the container (mshed_utf_parse) and makes the view, both in @mode.
 *
 * Returns: (transfer full) (nullable): the view
 */
MshedDfm *
mshed_dfm_new_from_bytes (GBytes            *bytes,
                          MshedMode          mode,
                          MshedDiagnostics  *diags,
                          GError           **error)
{
  g_autoptr(MshedUtf) utf = mshed_utf_parse (bytes, mode, diags, error);

  if (utf == NULL)
    return NULL;
  return mshed_dfm_new (utf, mode, diags, error);
}

MshedDfm *
mshed_dfm_ref (MshedDfm *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
mshed_dfm_unref (MshedDfm *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      clear_index (self);
      g_clear_pointer (&self->utf, mshed_utf_unref);
      g_free (self);
    }
}

/**
 * mshed_dfm_get_utf:
 *
 * Returns: (transfer none): the tree the view reads
 */
MshedUtf *
mshed_dfm_get_utf (const MshedDfm *self)
{
  return self->utf;
}

/**
 * mshed_utf_looks_like_dfm:
 *
 * Librelancer takes a UTF file with a root directory `Skeleton` for a deformable model
 * (docs/dfm.md §7); a root directory `MultiLevel` (the levels, docs/dfm.md §3) is taken as a
 * sign too.
 */
gboolean
mshed_utf_looks_like_dfm (const MshedUtf *utf)
{
  MshedUtfNode *root = mshed_utf_get_root (utf);

  return find_child (root, "Skeleton", TRUE) != NULL ||
         find_child (root, "MultiLevel", TRUE) != NULL;
}

/**
 * mshed_dfm_file_is_dfm:
 * @path: (nullable): the file's name
 * @utf: (nullable): the file's tree, NULL when it could not be read
 *
 * A UTF file is taken for a deformable model when it is named *.dfm, or when its root has a
 * `Skeleton` directory (Librelancer's test, docs/dfm.md §7) or a `MultiLevel\Mesh0` (a rigid
 * .3db has `MultiLevel\Level0`, so `MultiLevel` alone is no sign).
 */
gboolean
mshed_dfm_file_is_dfm (const char     *path,
                       const MshedUtf *utf)
{
  MshedUtfNode *mesh0;
  gsize n = path ? strlen (path) : 0;

  if (n >= 4 && g_ascii_strcasecmp (path + n - 4, ".dfm") == 0)
    return TRUE;
  if (utf == NULL)
    return FALSE;
  if (find_child (mshed_utf_get_root (utf), "Skeleton", TRUE) != NULL)
    return TRUE;
  mesh0 = find_child (find_child (mshed_utf_get_root (utf), "MultiLevel", TRUE), "Mesh0", TRUE);
  return mesh0 != NULL;
}

/* Addressing ------------------------------------------------------------------------------ */

const DfmMesh *
_mshed_dfm_mesh_at (const MshedDfm *self,
                    guint           level)
{
  return level < self->meshes->len ? &g_array_index (self->meshes, DfmMesh, level) : NULL;
}

const DfmGroup *
_mshed_dfm_group_at (const MshedDfm *self,
                     guint           level,
                     guint           group)
{
  const DfmMesh *m = _mshed_dfm_mesh_at (self, level);

  return m && group < m->groups->len ? &g_array_index (m->groups, DfmGroup, group) : NULL;
}

static guint
n_hardpoints (const DfmBone *bone)
{
  return bone->hps ? bone->hps->len : 0;
}

static const DfmBone *
bone_at (const MshedDfm *self,
         guint           bone)
{
  return bone < self->bones->len ? &g_array_index (self->bones, DfmBone, bone) : NULL;
}

static MshedUtfNode *
slot (MshedUtfNode * const *files,
      MshedDfmTable         table,
      MshedDfmTable         base,
      guint                 n)
{
  return table >= base && table < base + (gint) n ? files[table - base] : NULL;
}

/**
 * mshed_dfm_find_node:
 * @a: level, part, bone or material (see MshedDfmScope; ignored for single directories)
 * @b: group or hardpoint
 *
 * Cons tables give the first file of that kind.
 *
 * Returns: (transfer none) (nullable): the file that holds @table at that address
 */
MshedUtfNode *
mshed_dfm_find_node (const MshedDfm *self,
                     MshedDfmTable   table,
                     guint           a,
                     guint           b)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);
  const DfmMesh *m;
  const DfmGroup *g;
  const DfmBone *bone;

  if (info == NULL)
    return NULL;
  switch (info->scope)
    {
    case MSHED_DFM_SCOPE_ROOT:
      return self->exporter;
    case MSHED_DFM_SCOPE_MULTILEVEL:
      return self->fractions;
    case MSHED_DFM_SCOPE_FACE_GROUPS:
      return (m = _mshed_dfm_mesh_at (self, a)) ? m->count : NULL;
    case MSHED_DFM_SCOPE_GROUP:
      g = _mshed_dfm_group_at (self, a, b);
      return g ? slot (g->files, table, DFM_GROUP_BASE, DFM_N_GROUP) : NULL;
    case MSHED_DFM_SCOPE_GEOMETRY:
      m = _mshed_dfm_mesh_at (self, a);
      return m ? slot (m->files, table, DFM_GEO_BASE, DFM_N_GEO) : NULL;
    case MSHED_DFM_SCOPE_SKELETON:
      return self->skeleton_name;
    case MSHED_DFM_SCOPE_CMPND:
      return self->scale;
    case MSHED_DFM_SCOPE_PART:
      return a < self->parts->len
               ? slot (g_array_index (self->parts, DfmPart, a).files, table, DFM_PART_BASE,
                       DFM_N_PART)
               : NULL;
    case MSHED_DFM_SCOPE_CONS:
      for (guint i = 0; i < self->cons_files->len; i++)
        {
          const DfmConsFile *f = &g_array_index (self->cons_files, DfmConsFile, i);

          if (mshed_dfm_joint_table (f->kind) == table)
            return f->node;
        }
      return NULL;
    case MSHED_DFM_SCOPE_BONE:
      return (bone = bone_at (self, a)) ? slot (bone->files, table, DFM_BONE_BASE, DFM_N_BONE)
                                        : NULL;
    case MSHED_DFM_SCOPE_HARDPOINT:
      if ((bone = bone_at (self, a)) == NULL || b >= n_hardpoints (bone))
        return NULL;
      return slot (g_array_index (bone->hps, DfmHardpoint, b).files, table, DFM_HP_BASE,
                   DFM_N_HP);
    case MSHED_DFM_SCOPE_MATERIAL_LIBRARY:
      return self->material_count;
    case MSHED_DFM_SCOPE_MATERIAL:
      return a < self->materials->len
               ? slot (g_array_index (self->materials, DfmMaterial, a).files, table, DFM_MAT_BASE,
                       DFM_N_MAT)
               : NULL;
    default:
      return NULL;
    }
}

static gboolean
array_of (MshedUtfNode  *node,
          guint          stride,
          MshedDfmArray *out)
{
  static const guint8 empty[1] = { 0 };

  memset (out, 0, sizeof *out);
  out->stride = MAX (stride, 1);
  if (node == NULL)
    return FALSE;
  out->node = node;
  out->data = mshed_utf_node_peek_data (node, &out->size);
  if (out->data == NULL)
    out->data = empty;
  out->count = (guint) MIN (out->size / out->stride, G_MAXUINT);
  return TRUE;
}

/**
 * mshed_dfm_get_array:
 * @out: (out): the payload as records of the table's stride (strings: bytes)
 *
 * Returns: FALSE (and an empty @out) when the file is absent
 */
gboolean
mshed_dfm_get_array (const MshedDfm *self,
                     MshedDfmTable   table,
                     guint           a,
                     guint           b,
                     MshedDfmArray  *out)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);

  return array_of (mshed_dfm_find_node (self, table, a, b), info ? info->stride : 1, out);
}

/**
 * mshed_dfm_get_payload_offset:
 * @offset: (out): for a file, where its payload starts in the source file; for a directory,
 *   where its 44-byte tree entry starts
 *
 * Returns: FALSE when the node's bytes are not in the source (made or replaced by an edit)
 */
gboolean
mshed_dfm_get_payload_offset (const MshedDfm     *self,
                              const MshedUtfNode *node,
                              guint64            *offset)
{
  GBytes *source = mshed_utf_get_source (self->utf);
  const MshedUtfHeader *h = mshed_utf_get_header (self->utf);
  MshedUtfEntry e;
  guint32 slot_offset;
  gsize len, src_len;
  const guint8 *p, *s;

  *offset = 0;
  if (source == NULL || node == NULL ||
      !mshed_utf_node_get_source_entry (self->utf, node, &slot_offset, &e))
    return FALSE;
  if (mshed_utf_node_is_directory (node))
    {
      *offset = (guint64) h->tree_offset + slot_offset;
      return TRUE;
    }
  s = g_bytes_get_data (source, &src_len);
  p = mshed_utf_node_peek_data (node, &len);
  if (len == 0)
    {
      *offset = (guint64) h->data_offset + e.child_offset;
      return TRUE;
    }
  /* the payload is still the source's slice exactly when its bytes lie inside the source */
  if (s == NULL || (guintptr) p < (guintptr) s || (guintptr) p - (guintptr) s > src_len - len)
    return FALSE;
  *offset = (guintptr) p - (guintptr) s;
  return TRUE;
}

/* Root ------------------------------------------------------------------------------------- */

/**
 * mshed_dfm_get_exporter_version:
 *
 * Returns: (nullable): `Exporter Version` up to its first NUL
 */
const char *
mshed_dfm_get_exporter_version (const MshedDfm *self)
{
  return self->exporter_version;
}

/**
 * mshed_dfm_get_skeleton_name:
 *
 * Returns: (nullable): `Skeleton/Name` (docs/dfm.md §7)
 */
const char *
mshed_dfm_get_skeleton_name (const MshedDfm *self)
{
  return self->skeleton_text;
}

gboolean
_mshed_dfm_read_f32_at (MshedUtfNode *node,
                        guint         index,
                        float        *out)
{
  gsize size;
  const guint8 *d;

  if (node == NULL)
    return FALSE;
  d = mshed_utf_node_peek_data (node, &size);
  if (!mshed_range_ok ((guint64) index * 4, 4, size))
    return FALSE;
  *out = mshed_read_f32 (d + (gsize) index * 4);
  return TRUE;
}

gboolean
_mshed_dfm_read_u32_at (MshedUtfNode *node,
                        guint         index,
                        guint32      *out)
{
  float f;

  if (!_mshed_dfm_read_f32_at (node, index, &f))
    return FALSE;
  memcpy (out, &f, sizeof *out);
  return TRUE;
}

/**
 * mshed_dfm_get_scale:
 *
 * Returns: `Cmpnd/Scale`, 1 when it is absent (docs/dfm.md §8)
 */
float
mshed_dfm_get_scale (const MshedDfm *self)
{
  float v = 1.0f;

  _mshed_dfm_read_f32_at (self->scale, 0, &v);
  return v;
}

/* Parts, joints, bones ---------------------------------------------------------------------- */

guint
mshed_dfm_get_n_parts (const MshedDfm *self)
{
  return self->parts->len;
}

gboolean
mshed_dfm_get_part (const MshedDfm *self,
                    guint           part,
                    MshedDfmPart   *out)
{
  const DfmPart *p;
  gint32 index;

  memset (out, 0, sizeof *out);
  if (part >= self->parts->len)
    return FALSE;
  p = &g_array_index (self->parts, DfmPart, part);
  out->node = p->dir;
  out->root = p->root;
  out->object_name = p->object_name;
  out->file_name = p->file_name;
  out->bone = p->bone;
  out->has_index = _mshed_dfm_read_u32_at (p->files[MSHED_DFM_TABLE_PART_INDEX - DFM_PART_BASE], 0,
                                (guint32 *) &index);
  out->index = out->has_index ? index : -1;
  return TRUE;
}

guint
mshed_dfm_joint_record_size (MshedDfmJointKind kind)
{
  g_return_val_if_fail (kind < MSHED_DFM_N_JOINT_KINDS, 0);
  return joint_kinds[kind].size;
}

/**
 * mshed_dfm_joint_kind_name:
 *
 * Returns: the Cons file name as retail writes it (`Sphere`, `Loose`, `Fix`, …)
 */
const char *
mshed_dfm_joint_kind_name (MshedDfmJointKind kind)
{
  g_return_val_if_fail (kind < MSHED_DFM_N_JOINT_KINDS, NULL);
  return joint_kinds[kind].name;
}

MshedDfmTable
mshed_dfm_joint_table (MshedDfmJointKind kind)
{
  g_return_val_if_fail (kind < MSHED_DFM_N_JOINT_KINDS, MSHED_DFM_TABLE_NONE);
  return MSHED_DFM_TABLE_CONS_FIX + (gint) kind;
}

/**
 * mshed_dfm_get_n_joints:
 *
 * Returns: the whole records of all Cons files of a known kind, in file order
 */
guint
mshed_dfm_get_n_joints (const MshedDfm *self)
{
  return self->n_joints;
}

static void
read_floats (const guint8 *p,
             guint         n,
             float        *out)
{
  for (guint k = 0; k < n; k++)
    out[k] = mshed_read_f32 (p + 4 * k);
}

/**
 * mshed_dfm_get_joint:
 *
 * Record @index of the Cons files taken in order, decoded by its kind (docs/dfm.md §9.1).
 */
gboolean
mshed_dfm_get_joint (const MshedDfm *self,
                     guint           index,
                     MshedDfmJoint  *out)
{
  const DfmConsFile *f = NULL;
  const guint8 *rec;
  gsize size;
  guint lo = 0, hi = self->cons_files->len;

  memset (out, 0, sizeof *out);
  if (index >= self->n_joints)
    return FALSE;
  /* the file with the last first <= index (files are in joint order) */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->cons_files, DfmConsFile, mid).first <= index)
        lo = mid;
      else
        hi = mid;
    }
  f = &g_array_index (self->cons_files, DfmConsFile, lo);
  if (index - f->first >= f->count)
    return FALSE;
  rec = mshed_utf_node_peek_data (f->node, &size);
  out->kind = f->kind;
  out->node = f->node;
  out->record = index - f->first;
  if (!mshed_range_ok ((guint64) out->record * joint_kinds[f->kind].size,
                       joint_kinds[f->kind].size, size))
    return FALSE;
  rec += (gsize) out->record * joint_kinds[f->kind].size;
  out->residue = read_cons_name (rec, out->parent);
  out->residue |= read_cons_name (rec + 64, out->child);
  read_floats (rec + 128, 3, out->position);
  switch (f->kind)
    {
    case MSHED_DFM_JOINT_FIX:
    case MSHED_DFM_JOINT_LOOSE:
      read_floats (rec + 140, 9, out->rotation);
      break;
    case MSHED_DFM_JOINT_SPHERE:
      read_floats (rec + 140, 3, out->offset);
      read_floats (rec + 152, 9, out->rotation);
      out->n_limits = 6;
      read_floats (rec + 188, 6, out->limits);
      break;
    case MSHED_DFM_JOINT_REV:
    case MSHED_DFM_JOINT_PRIS:
    case MSHED_DFM_JOINT_CYL:
    case MSHED_DFM_N_JOINT_KINDS:
    default:
      read_floats (rec + 140, 3, out->offset);
      read_floats (rec + 152, 9, out->rotation);
      read_floats (rec + 188, 3, out->axis);
      out->n_limits = f->kind == MSHED_DFM_JOINT_CYL ? 4 : 2;
      read_floats (rec + 200, out->n_limits, out->limits);
      break;
    }
  out->parent_bone = name_table_find (self->bone_by_object, out->parent);
  out->child_bone = name_table_find (self->bone_by_object, out->child);
  return TRUE;
}

/**
 * mshed_dfm_get_n_bones:
 *
 * Returns: the bone directories (root children named `*.3db`, docs/dfm.md §10.1), detached
 *   ones included; a bone's position is its index in `Bone_id_chain`, `UV_bone_id`, `Index`
 */
guint
mshed_dfm_get_n_bones (const MshedDfm *self)
{
  return self->bones->len;
}

/**
 * mshed_dfm_find_bone:
 * @object_name: a part's `Object name`, matched ignoring ASCII case
 *
 * Returns: the bone of the first part with that name, -1 when none
 */
gint
mshed_dfm_find_bone (const MshedDfm *self,
                     const char     *object_name)
{
  return name_table_find (self->bone_by_object, object_name);
}

gboolean
mshed_dfm_get_bone (const MshedDfm *self,
                    guint           bone,
                    MshedDfmBone   *out)
{
  const DfmBone *b = bone_at (self, bone);
  MshedUtfNode *btr, *bits;
  gsize size = 0;
  const guint8 *d;

  memset (out, 0, sizeof *out);
  if (b == NULL)
    return FALSE;
  out->node = b->dir;
  out->name = mshed_utf_node_get_name (b->dir);
  out->part = b->part;
  out->object_name = b->part >= 0 ? g_array_index (self->parts, DfmPart, b->part).object_name
                                  : NULL;
  out->parent = b->parent;
  btr = b->files[MSHED_DFM_TABLE_BONE_TO_ROOT - DFM_BONE_BASE];
  bits = b->files[MSHED_DFM_TABLE_LOD_BITS - DFM_BONE_BASE];
  d = btr ? mshed_utf_node_peek_data (btr, &size) : NULL;
  /* exactly 48 bytes (docs/dfm.md §10.2); anything else is no transform */
  out->has_bone_to_root = d != NULL && size == 48;
  if (out->has_bone_to_root)
    read_floats (d, 12, out->bone_to_root);
  d = bits ? mshed_utf_node_peek_data (bits, &size) : NULL;
  out->has_lod_bits = d != NULL && size >= 1;
  out->lod_bits = out->has_lod_bits ? d[0] : 0;
  out->n_hardpoints = n_hardpoints (b);
  return TRUE;
}

/**
 * mshed_dfm_get_hardpoint:
 *
 * A hardpoint of @bone (docs/dfm.md §10.4), fixed ones first; files that are absent or too
 * short keep their defaults (origin, identity, +Y, 0).
 */
gboolean
mshed_dfm_get_hardpoint (const MshedDfm    *self,
                         guint              bone,
                         guint              index,
                         MshedDfmHardpoint *out)
{
  static const MshedDfmHardpoint defaults = {
    NULL, NULL, FALSE, { 0, 0, 0 }, { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, { 0, 1, 0 }, 0, 0,
  };
  float *targets[DFM_N_HP];
  static const guint counts[DFM_N_HP] = { 3, 9, 3, 1, 1 };
  const DfmBone *b = bone_at (self, bone);
  const DfmHardpoint *hp;

  *out = defaults;
  if (b == NULL || index >= n_hardpoints (b))
    return FALSE;
  hp = &g_array_index (b->hps, DfmHardpoint, index);
  out->node = hp->dir;
  out->name = mshed_utf_node_get_name (hp->dir);
  out->revolute = hp->revolute;
  targets[0] = out->position;
  targets[1] = out->orientation;
  targets[2] = out->axis;
  targets[3] = &out->min;
  targets[4] = &out->max;
  for (guint k = 0; k < DFM_N_HP; k++)
    {
      gsize size = 0;
      const guint8 *d = hp->files[k] ? mshed_utf_node_peek_data (hp->files[k], &size) : NULL;

      if (d && size >= 4 * counts[k])
        read_floats (d, counts[k], targets[k]);
    }
  return TRUE;
}

/**
 * mshed_dfm_bind_from_bone_to_root:
 * @bone_to_root: the stored inverse bind `[R | t]` (docs/dfm.md §10.2)
 * @bind: (out): the bind transform `[Rᵀ | −Rᵀ·t]` in the same layout (rows, then translation)
 */
void
mshed_dfm_bind_from_bone_to_root (const float bone_to_root[12],
                                  float       bind[12])
{
  const float *r = bone_to_root, *t = bone_to_root + 9;

  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 3; j++)
      bind[3 * i + j] = r[3 * j + i];
  for (guint i = 0; i < 3; i++)
    bind[9 + i] = -(bind[3 * i] * t[0] + bind[3 * i + 1] * t[1] + bind[3 * i + 2] * t[2]);
}

/* Materials ------------------------------------------------------------------------------- */

guint
mshed_dfm_get_n_materials (const MshedDfm *self)
{
  return self->materials->len;
}

gboolean
mshed_dfm_get_material (const MshedDfm   *self,
                        guint             index,
                        MshedDfmMaterial *out)
{
  const DfmMaterial *m;
  MshedUtfNode *flags, *dc;

  memset (out, 0, sizeof *out);
  if (index >= self->materials->len)
    return FALSE;
  m = &g_array_index (self->materials, DfmMaterial, index);
  out->node = m->dir;
  out->name = mshed_utf_node_get_name (m->dir);
  out->type = m->type;
  out->dt_name = m->dt_name;
  flags = m->files[MSHED_DFM_TABLE_MATERIAL_DT_FLAGS - DFM_MAT_BASE];
  dc = m->files[MSHED_DFM_TABLE_MATERIAL_DC - DFM_MAT_BASE];
  out->has_dt_flags = _mshed_dfm_read_u32_at (flags, 0, &out->dt_flags);
  out->has_dc = _mshed_dfm_read_f32_at (dc, 0, &out->dc[0]) &&
                _mshed_dfm_read_f32_at (dc, 1, &out->dc[1]) &&
                _mshed_dfm_read_f32_at (dc, 2, &out->dc[2]);
  return TRUE;
}

/**
 * mshed_dfm_find_material:
 * @name: a `Material_name`, matched ignoring ASCII case (docs/dfm.md §4)
 *
 * Returns: the first material directory of that name in this file's library, -1 when none
 */
gint
mshed_dfm_find_material (const MshedDfm *self,
                         const char     *name)
{
  return name_table_find (self->material_by_name, name);
}

guint
mshed_dfm_get_n_textures (const MshedDfm *self)
{
  return self->textures->len;
}

/**
 * mshed_dfm_get_texture:
 *
 * Returns: (transfer none) (nullable): texture directory @index of `Texture library`
 */
MshedUtfNode *
mshed_dfm_get_texture (const MshedDfm *self,
                       guint           index)
{
  return index < self->textures->len ? g_ptr_array_index (self->textures, index) : NULL;
}
