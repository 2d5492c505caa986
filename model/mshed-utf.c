/* mshed-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The UTF tree: container life cycle, navigation, case-insensitive lookup (docs/utf.md §3.4)
 * and the container-level edits. Parsing is in mshed-utf-read.c, writing in mshed-utf-write.c.
 *
 * Every edit is one function with an exact inverse, so that a document command can store
 * what it needs to undo and redo:
 *
 * | Edit                                     | Inverse                                       |
 * |------------------------------------------|-----------------------------------------------|
 * | mshed_utf_insert_child (parent, i, node) | mshed_utf_remove (node) → (parent, i)        |
 * | mshed_utf_remove (node) → (parent, i)    | mshed_utf_insert_child (parent, i, node)     |
 * | mshed_utf_move (node, p, i) → (p0, i0)   | mshed_utf_move (node, p0, i0)                 |
 * | mshed_utf_rename (node, name) → old      | mshed_utf_rename (node, old)                  |
 * | mshed_utf_set_data (node, data) → old    | mshed_utf_set_data (node, old)                |
 * | mshed_utf_set_time (node, which, t) → old| mshed_utf_set_time (node, which, old)         |
 *
 * The edits themselves accept any name (a source file may hold empty names, names with a
 * backslash or duplicate siblings, and undo must be able to restore them); callers that take
 * a name from a user check it first with mshed_utf_check_child_name.
 */
#define G_LOG_DOMAIN "mshed-utf"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-utf-private.h"

G_DEFINE_BOXED_TYPE (MshedUtf, mshed_utf, mshed_utf_ref, mshed_utf_unref)

guint64
_mshed_utf_next_source_id (void)
{
  static gsize counter = 0;

  return (guint64) g_atomic_pointer_add (&counter, 1) + 1;
}

static void
source_clear (gpointer data)
{
  MshedUtfSource *s = data;

  g_clear_pointer (&s->name, g_free);
  g_clear_pointer (&s->data, g_bytes_unref);
}

MshedUtf *
_mshed_utf_alloc (void)
{
  MshedUtf *self = g_new0 (MshedUtf, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->src = g_array_new (FALSE, TRUE, sizeof (MshedUtfSource));
  g_array_set_clear_func (self->src, source_clear);
  self->canonical = -1;
  return self;
}

/* @data: (nullable): a file's payload (referenced; NULL: empty) */
MshedUtfNode *
_mshed_utf_node_alloc (gboolean    is_dir,
                       const char *name,
                       GBytes     *data)
{
  MshedUtfNode *node = g_new0 (MshedUtfNode, 1);

  node->is_dir = is_dir ? 1 : 0;
  node->name = g_strdup (name);
  node->src = -1;
  node->attributes = is_dir ? MSHED_UTF_ATTR_DIRECTORY : MSHED_UTF_ATTR_FILE;
  if (!is_dir)
    node->data = data ? g_bytes_ref (data) : g_bytes_new (NULL, 0);
  return node;
}

/* Read-only parse (mshed_utf_parse_readonly): nodes come from a block sized for the most
 * entries the tree block can hold, freed with the container, so reading a file costs a few
 * allocations, not two per entry. */
MshedUtfNode *
_mshed_utf_arena_node (MshedUtf *self)
{
  MshedUtfNode *node;

  if (self->block == NULL || self->block_used == self->block_size)
    {
      self->block_size = MAX (self->block_size, 64u);
      self->block = g_new (MshedUtfNode, self->block_size);
      self->block_used = 0;
      g_ptr_array_add (self->arena, self->block);
    }
  node = &self->block[self->block_used++];
  *node = (MshedUtfNode) { .src = -1 };
  return node;
}

/* a name the source does not end with a NUL, kept until the container goes */
char *
_mshed_utf_arena_strndup (MshedUtf   *self,
                          const char *str,
                          gsize       len)
{
  char *copy = g_strndup (str, len);

  g_ptr_array_add (self->arena, copy);
  return copy;
}

void
_mshed_utf_append_child (MshedUtfNode *parent,
                         MshedUtfNode *child)
{
  child->parent = parent;
  child->prev = parent->last_child;
  child->next = NULL;
  if (parent->last_child)
    parent->last_child->next = child;
  else
    parent->first_child = child;
  parent->last_child = child;
}

const MshedUtfSource *
_mshed_utf_node_source (const MshedUtf     *self,
                        const MshedUtfNode *node)
{
  if (node->src < 0 || node->source_id != self->source_id || (guint64) node->src >= self->src->len)
    return NULL;
  return &g_array_index (self->src, MshedUtfSource, node->src);
}

/**
 * mshed_utf_new:
 *
 * An empty tree: the root directory `\` (docs/utf.md §3.2). New entries are stamped with the
 * current local time and the header FILETIME is the current time (docs/utf.md §7, "In mshed");
 * change both with mshed_utf_set_new_entry_time and mshed_utf_set_filetime.
 *
 * Returns: (transfer full): the container
 */
MshedUtf *
mshed_utf_new (void)
{
  MshedUtf *self = _mshed_utf_alloc ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  self->source_id = _mshed_utf_next_source_id ();
  self->header.signature = MSHED_UTF_SIGNATURE;
  self->header.version = MSHED_UTF_VERSION;
  self->header.tree_offset = MSHED_UTF_HEADER_SIZE;
  self->header.entry_size = MSHED_UTF_ENTRY_SIZE;
  self->header.filetime = mshed_utf_filetime_from_datetime (now);
  self->new_time = mshed_utf_dos_time_encode (now);
  self->root = _mshed_utf_node_alloc (TRUE, MSHED_UTF_ROOT_NAME, NULL);
  for (guint i = 0; i < 3; i++)
    self->root->times[i] = self->new_time;
  self->modified = TRUE;
  self->patchable = FALSE;
  return self;
}

MshedUtf *
mshed_utf_ref (MshedUtf *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

static void
free_subtree (MshedUtfNode *top)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  for (MshedUtfNode *n = top; n; n = mshed_utf_node_next_preorder (n, top))
    g_ptr_array_add (all, n);
  for (guint i = 0; i < all->len; i++)
    {
      MshedUtfNode *n = g_ptr_array_index (all, i);

      g_free (n->name);
      g_clear_pointer (&n->data, g_bytes_unref);
      g_free (n);
    }
}

void
mshed_utf_unref (MshedUtf *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      if (self->root && !self->readonly)
        free_subtree (self->root);
      g_clear_pointer (&self->arena, g_ptr_array_unref);
      g_clear_pointer (&self->source, g_bytes_unref);
      g_array_unref (self->src);
      g_free (self);
    }
}

static MshedUtfNode *
copy_node (const MshedUtfNode *n)
{
  MshedUtfNode *c = g_new0 (MshedUtfNode, 1);

  c->name = g_strdup (n->name);
  c->data = n->data ? g_bytes_ref (n->data) : NULL;
  c->attributes = n->attributes;
  c->sharing = n->sharing;
  memcpy (c->times, n->times, sizeof c->times);
  memcpy (c->sizes, n->sizes, sizeof c->sizes);
  c->src = n->src;
  c->source_id = n->source_id;
  c->is_dir = n->is_dir;
  return c;
}

/**
 * mshed_utf_copy:
 *
 * Returns: (transfer full): an independent copy; payloads and the source are shared, not
 *   copied. Nodes of the copy remember the same source entries, so a subtree may move
 *   between the two.
 */
MshedUtf *
mshed_utf_copy (const MshedUtf *self)
{
  MshedUtf *copy;
  g_autoptr(GHashTable) map = NULL;

  g_return_val_if_fail (!self->readonly, NULL);
  copy = g_new0 (MshedUtf, 1);
  map = g_hash_table_new (NULL, NULL);

  g_atomic_ref_count_init (&copy->ref_count);
  copy->source = self->source ? g_bytes_ref (self->source) : NULL;
  copy->source_id = self->source_id;
  copy->header = self->header;
  copy->src = g_array_ref (self->src);
  copy->new_time = self->new_time;
  copy->patchable = self->patchable;
  copy->modified = self->modified;
  copy->canonical = self->canonical;

  for (MshedUtfNode *n = self->root; n; n = mshed_utf_node_next_preorder (n, self->root))
    {
      MshedUtfNode *c = copy_node (n);

      g_hash_table_insert (map, n, c);
      if (n->parent)
        _mshed_utf_append_child (g_hash_table_lookup (map, n->parent), c);
      else
        copy->root = c;
    }
  return copy;
}

/**
 * mshed_utf_get_source:
 *
 * Returns: (transfer none) (nullable): the bytes the tree was parsed from
 */
GBytes *
mshed_utf_get_source (const MshedUtf *self)
{
  return self->source;
}

/**
 * mshed_utf_get_header:
 *
 * Returns: (transfer none): the header as read (a new container: the §8 values it starts with)
 */
const MshedUtfHeader *
mshed_utf_get_header (const MshedUtf *self)
{
  return &self->header;
}

guint64
mshed_utf_get_filetime (const MshedUtf *self)
{
  return self->header.filetime;
}

/**
 * mshed_utf_set_filetime:
 *
 * Changes the header FILETIME (docs/utf.md §2) that the next write stores.
 */
void
mshed_utf_set_filetime (MshedUtf *self,
                        guint64   filetime)
{
  if (self->header.filetime == filetime)
    return;
  self->header.filetime = filetime;
  self->modified = TRUE;
}

guint32
mshed_utf_get_new_entry_time (const MshedUtf *self)
{
  return self->new_time;
}

/**
 * mshed_utf_set_new_entry_time:
 *
 * The DOS time written into all three timestamps of entries that nodes made from now on get
 * (mshed_utf_node_new_directory, mshed_utf_node_new_file). Existing entries keep theirs.
 */
void
mshed_utf_set_new_entry_time (MshedUtf *self,
                              guint32   dos_time)
{
  self->new_time = dos_time;
}

/**
 * mshed_utf_is_readonly:
 *
 * Returns: whether the tree came from mshed_utf_parse_readonly (no edits; names and payloads
 *   stay where the source has them)
 */
gboolean
mshed_utf_is_readonly (const MshedUtf *self)
{
  return self->readonly;
}

/**
 * mshed_utf_is_modified:
 *
 * Returns: TRUE once anything was edited (undoing every edit still writes the source bytes,
 *   but this stays TRUE)
 */
gboolean
mshed_utf_file_has_signature (const char *path)
{
  guint8 magic[4];
  FILE *f;
  gboolean utf;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  f = fopen (path, "rb");
  if (f == NULL)
    return FALSE;
  utf = fread (magic, 1, 4, f) == 4 && mshed_read_u32 (magic) == MSHED_UTF_SIGNATURE;
  fclose (f);
  return utf;
}

gboolean
mshed_utf_is_modified (const MshedUtf *self)
{
  return self->modified;
}

/**
 * mshed_utf_is_patchable:
 *
 * Returns: FALSE when the source's regions or payloads overlap the header, the tree or the
 *   dictionary (docs/utf.md §9, utf-overlap): an edited file is then written canonically
 */
gboolean
mshed_utf_is_patchable (const MshedUtf *self)
{
  return self->patchable;
}

/**
 * mshed_utf_is_canonical:
 *
 * Returns: TRUE when the source bytes are exactly what the §8 writer makes of the tree they
 *   hold (docs/utf.md §8); FALSE for a container without a source
 */
gboolean
mshed_utf_is_canonical (MshedUtf *self)
{
  if (self->source == NULL)
    return FALSE;
  if (self->canonical < 0)
    {
      g_autoptr(MshedUtf) fresh = mshed_utf_parse (self->source, MSHED_MODE_TOLERANT, NULL, NULL);
      g_autoptr(GBytes) built = NULL;

      if (fresh)
        built = mshed_utf_serialize (fresh, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
      self->canonical = built != NULL && g_bytes_equal (built, self->source);
    }
  return self->canonical;
}

guint
mshed_utf_get_n_nodes (const MshedUtf *self)
{
  guint n = 0;

  for (MshedUtfNode *nd = self->root; nd; nd = mshed_utf_node_next_preorder (nd, self->root))
    n++;
  return n;
}

/* Navigation ----------------------------------------------------------------------------- */

/**
 * mshed_utf_get_root:
 *
 * Returns: (transfer none): the root directory
 */
MshedUtfNode *
mshed_utf_get_root (const MshedUtf *self)
{
  return self->root;
}

/**
 * mshed_utf_node_lookup:
 *
 * The first child of @dir whose name matches @name with the ASCII case fold
 * (docs/utf.md §3.4: `material library` finds `Material library`).
 *
 * Returns: (transfer none) (nullable): the child
 */
MshedUtfNode *
mshed_utf_node_lookup (const MshedUtfNode *dir,
                       const char         *name)
{
  g_return_val_if_fail (dir != NULL && name != NULL, NULL);
  for (MshedUtfNode *c = dir->first_child; c; c = c->next)
    if (mshed_utf_name_compare (c->name, name) == 0)
      return c;
  return NULL;
}

/**
 * mshed_utf_lookup:
 * @path: names separated by `\`, from the root; a leading `\` is optional, `\` alone is the
 *   root (for example `\MultiLevel\Mesh0\Geometry\Points`)
 *
 * Every component is matched case-insensitively (first match, docs/utf.md §3.4).
 *
 * Returns: (transfer none) (nullable): the node
 */
MshedUtfNode *
mshed_utf_lookup (const MshedUtf *self,
                  const char     *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "\\", -1);
  MshedUtfNode *node = self->root;

  for (guint i = 0; parts[i] && node; i++)
    if (parts[i][0] != '\0')
      node = mshed_utf_node_lookup (node, parts[i]);
  return node;
}

MshedUtfNode *
mshed_utf_node_get_parent (const MshedUtfNode *node)
{
  return node->parent;
}

MshedUtfNode *
mshed_utf_node_get_first_child (const MshedUtfNode *node)
{
  return node->first_child;
}

MshedUtfNode *
mshed_utf_node_get_next (const MshedUtfNode *node)
{
  return node->next;
}

MshedUtfNode *
mshed_utf_node_get_nth_child (const MshedUtfNode *node,
                              guint               index)
{
  MshedUtfNode *c = node->first_child;

  while (c && index--)
    c = c->next;
  return c;
}

guint
mshed_utf_node_get_n_children (const MshedUtfNode *node)
{
  guint n = 0;

  for (MshedUtfNode *c = node->first_child; c; c = c->next)
    n++;
  return n;
}

/**
 * mshed_utf_node_get_index:
 *
 * Returns: the position among its siblings (0 for the root or a detached node)
 */
guint
mshed_utf_node_get_index (const MshedUtfNode *node)
{
  guint i = 0;

  for (MshedUtfNode *p = node->prev; p; p = p->prev)
    i++;
  return i;
}

/**
 * mshed_utf_node_next_preorder:
 * @top: the subtree being walked
 *
 * Depth-first pre-order (a directory, then its children in order, docs/utf.md §8), without
 * recursion.
 *
 * Returns: (transfer none) (nullable): the node after @node inside @top
 */
MshedUtfNode *
mshed_utf_node_next_preorder (const MshedUtfNode *node,
                              const MshedUtfNode *top)
{
  if (node->first_child)
    return node->first_child;
  while (node && node != top)
    {
      if (node->next)
        return node->next;
      node = node->parent;
    }
  return NULL;
}

/**
 * mshed_utf_node_is_ancestor:
 *
 * Returns: TRUE when @ancestor is @node or one of its parents
 */
gboolean
mshed_utf_node_is_ancestor (const MshedUtfNode *ancestor,
                            const MshedUtfNode *node)
{
  for (; node; node = node->parent)
    if (node == ancestor)
      return TRUE;
  return FALSE;
}

/* Node properties ------------------------------------------------------------------------ */

/**
 * mshed_utf_node_get_name:
 *
 * Returns: (transfer none): the name bytes as stored (case preserved, docs/utf.md §3.4)
 */
const char *
mshed_utf_node_get_name (const MshedUtfNode *node)
{
  return node->name;
}

/**
 * mshed_utf_node_dup_path:
 *
 * Returns: (transfer full): `\` for the root, else `\` + the names from the root joined by
 *   `\` (`\MultiLevel\Fractions`), in display form (mshed_utf_name_to_display)
 */
char *
mshed_utf_node_dup_path (const MshedUtfNode *node)
{
  /* the ancestors below the root, deepest first; the reader caps nesting, edits may not */
  const MshedUtfNode *stack[64];
  g_autofree const MshedUtfNode **heap = NULL;
  const MshedUtfNode **up = stack;
  guint depth = 0, size = G_N_ELEMENTS (stack);
  GString *s = g_string_sized_new (64);

  for (; node && node->parent; node = node->parent)
    {
      if (depth == size)
        {
          heap = g_renew (const MshedUtfNode *, heap, (gsize) size * 2);
          if (up == stack)
            memcpy (heap, stack, sizeof stack);
          up = heap;
          size *= 2;
        }
      up[depth++] = node;
    }
  while (depth > 0)
    {
      g_string_append_c (s, '\\');
      mshed_utf_name_append_display (s, up[--depth]->name);
    }
  if (s->len == 0)
    g_string_append_c (s, '\\');
  return g_string_free (s, FALSE);
}

/**
 * mshed_utf_node_get_crc:
 *
 * Returns: the FL CRC32 of the name (docs/utf.md §6)
 */
guint32
mshed_utf_node_get_crc (const MshedUtfNode *node)
{
  return mshed_utf_crc (node->name);
}

gboolean
mshed_utf_node_is_directory (const MshedUtfNode *node)
{
  return node->is_dir;
}

/**
 * mshed_utf_node_get_data:
 *
 * Returns: (transfer none) (nullable): a file's payload (`dataSizeUsed` bytes, docs/utf.md
 *   §3.3), a slice of the source until it is replaced; NULL for a directory
 */
GBytes *
mshed_utf_node_get_data (const MshedUtfNode *node)
{
  return node->data;
}

const guint8 *
mshed_utf_node_peek_data (const MshedUtfNode *node,
                          gsize              *size)
{
  if (node->data == NULL)
    {
      if (size)
        *size = node->peek_len;
      return node->peek;
    }
  return g_bytes_get_data (node->data, size);
}

guint32
mshed_utf_node_get_attributes (const MshedUtfNode *node)
{
  return node->attributes;
}

guint32
mshed_utf_node_get_sharing (const MshedUtfNode *node)
{
  return node->sharing;
}

guint32
mshed_utf_node_get_time (const MshedUtfNode *node,
                         MshedUtfTime        which)
{
  g_return_val_if_fail (which <= MSHED_UTF_TIME_MODIFY, 0);
  return node->times[which];
}

/**
 * mshed_utf_node_get_source_entry:
 * @tree_offset: (out) (optional): where the entry is in the source's tree block
 * @entry: (out) (optional): its fields as read
 *
 * Returns: FALSE for a node that an edit made
 */
gboolean
mshed_utf_node_get_source_entry (const MshedUtf     *self,
                                 const MshedUtfNode *node,
                                 guint32            *tree_offset,
                                 MshedUtfEntry      *entry)
{
  const MshedUtfSource *s = _mshed_utf_node_source (self, node);

  if (s == NULL)
    return FALSE;
  if (tree_offset)
    *tree_offset = s->slot;
  if (entry)
    {
      entry->next_offset = s->f[F_NEXT];
      entry->name_offset = s->f[F_NAME];
      entry->file_attributes = s->f[F_ATTR];
      entry->sharing_attributes = s->f[F_SHARE];
      entry->child_offset = s->f[F_CHILD];
      entry->data_size_allocated = s->f[F_ALLOC];
      entry->data_size_used = s->f[F_USED];
      entry->data_size_uncompressed = s->f[F_UNCOMPRESSED];
      entry->create_time = s->f[F_CTIME];
      entry->access_time = s->f[F_ATIME];
      entry->modify_time = s->f[F_MTIME];
    }
  return TRUE;
}

/* Edits ---------------------------------------------------------------------------------- */

static void
stamp (MshedUtf     *self,
       MshedUtfNode *node)
{
  for (guint i = 0; i < 3; i++)
    node->times[i] = self->new_time;
}

/**
 * mshed_utf_node_new_directory:
 * @self: the container the node is made for (its new-entry time is used)
 *
 * Returns: (transfer full): a detached directory with attributes 0x10
 */
MshedUtfNode *
mshed_utf_node_new_directory (MshedUtf   *self,
                              const char *name)
{
  MshedUtfNode *node;

  g_return_val_if_fail (!self->readonly, NULL);
  node = _mshed_utf_node_alloc (TRUE, name, NULL);
  stamp (self, node);
  return node;
}

/**
 * mshed_utf_node_new_file:
 * @data: (nullable): the payload (NULL: empty)
 *
 * Returns: (transfer full): a detached file with attributes 0x80
 */
MshedUtfNode *
mshed_utf_node_new_file (MshedUtf   *self,
                         const char *name,
                         GBytes     *data)
{
  MshedUtfNode *node;

  g_return_val_if_fail (!self->readonly, NULL);
  node = _mshed_utf_node_alloc (FALSE, name, data);
  stamp (self, node);
  return node;
}

/**
 * mshed_utf_node_free:
 *
 * Frees a detached subtree (one that mshed_utf_remove gave back and nobody put back).
 */
void
mshed_utf_node_free (MshedUtfNode *node)
{
  if (node == NULL)
    return;
  g_return_if_fail (node->parent == NULL);
  free_subtree (node);
}

/**
 * mshed_utf_validate_name:
 *
 * A name an editor may create: not empty (the retail convention ignores zero-length names,
 * docs/utf.md §4) and without `\`, which separates path components.
 */
gboolean
mshed_utf_validate_name (const char  *name,
                         GError     **error)
{
  if (name == NULL || name[0] == '\0')
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                           _("A UTF entry name cannot be empty"));
      return FALSE;
    }
  if (strchr (name, '\\'))
    {
      g_autofree char *shown = mshed_utf_name_to_display (name);

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("The UTF entry name “%s” contains a backslash, which separates the "
                     "names of a path"), shown);
      return FALSE;
    }
  return TRUE;
}

/**
 * mshed_utf_check_child_name:
 * @exclude: (nullable): a child to ignore (the node being renamed or moved)
 *
 * Checks a name taken from a user before an add, rename or move into @dir: a valid name
 * (mshed_utf_validate_name) that no other child of @dir has, ignoring case (docs/utf.md §3.4:
 * a lookup returns only the first of two such names).
 */
gboolean
mshed_utf_check_child_name (const MshedUtfNode *dir,
                            const char         *name,
                            const MshedUtfNode *exclude,
                            GError            **error)
{
  if (!mshed_utf_validate_name (name, error))
    return FALSE;
  if (!dir->is_dir)
    {
      g_autofree char *path = mshed_utf_node_dup_path (dir);

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("The UTF entry %s is a file and cannot hold entries"), path);
      return FALSE;
    }
  for (MshedUtfNode *c = dir->first_child; c; c = c->next)
    if (c != exclude && mshed_utf_name_compare (c->name, name) == 0)
      {
        g_autofree char *path = mshed_utf_node_dup_path (c);

        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                     _("The UTF directory already holds %s; names are compared ignoring case"),
                     path);
        return FALSE;
      }
  return TRUE;
}

static gboolean
in_tree (const MshedUtf     *self,
         const MshedUtfNode *node)
{
  while (node->parent)
    node = node->parent;
  return node == self->root;
}

static void
unlink_node (MshedUtfNode *node)
{
  MshedUtfNode *parent = node->parent;

  if (node->prev)
    node->prev->next = node->next;
  else
    parent->first_child = node->next;
  if (node->next)
    node->next->prev = node->prev;
  else
    parent->last_child = node->prev;
  node->parent = node->prev = node->next = NULL;
}

/* where @node is, then takes it out */
static void
detach (MshedUtf      *self,
        MshedUtfNode  *node,
        MshedUtfNode **out_parent,
        guint         *out_index)
{
  if (out_parent)
    *out_parent = node->parent;
  if (out_index)
    *out_index = mshed_utf_node_get_index (node);
  unlink_node (node);
  self->modified = TRUE;
}

static void
link_at (MshedUtfNode *parent,
         guint         index,
         MshedUtfNode *node)
{
  MshedUtfNode *before = index == G_MAXUINT ? NULL : mshed_utf_node_get_nth_child (parent, index);

  if (before == NULL)
    {
      _mshed_utf_append_child (parent, node);
      return;
    }
  node->parent = parent;
  node->next = before;
  node->prev = before->prev;
  if (before->prev)
    before->prev->next = node;
  else
    parent->first_child = node;
  before->prev = node;
}

static gboolean
check_target (const MshedUtf     *self,
              const MshedUtfNode *parent,
              GError            **error)
{
  if (!in_tree (self, parent))
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                           _("The target UTF directory is not part of this tree"));
      return FALSE;
    }
  if (!parent->is_dir)
    {
      g_autofree char *path = mshed_utf_node_dup_path (parent);

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("The UTF entry %s is a file and cannot hold entries"), path);
      return FALSE;
    }
  return TRUE;
}

/**
 * mshed_utf_insert_child:
 * @index: position among the children of @parent; G_MAXUINT (or any larger index) appends
 * @node: (transfer full): a detached node or subtree (new, or given back by mshed_utf_remove)
 *
 * Inverse: mshed_utf_remove (@node). A node whose source entry belongs to another parse is
 * written as a new entry.
 *
 * Returns: FALSE (and @node stays with the caller) when @parent is not a directory of this tree
 */
gboolean
mshed_utf_insert_child (MshedUtf      *self,
                        MshedUtfNode  *parent,
                        guint          index,
                        MshedUtfNode  *node,
                        GError       **error)
{
  g_return_val_if_fail (!self->readonly, FALSE);
  g_return_val_if_fail (node != NULL && parent != NULL, FALSE);
  g_return_val_if_fail (node->parent == NULL && node != self->root, FALSE);

  if (!check_target (self, parent, error))
    return FALSE;
  for (MshedUtfNode *n = node; n; n = mshed_utf_node_next_preorder (n, node))
    if (n->source_id != self->source_id)
      n->src = -1;
  link_at (parent, index, node);
  self->modified = TRUE;
  return TRUE;
}

MshedUtfNode *
mshed_utf_append_directory (MshedUtf     *self,
                            MshedUtfNode *parent,
                            const char   *name)
{
  MshedUtfNode *node = mshed_utf_node_new_directory (self, name);

  mshed_utf_insert_child (self, parent, G_MAXUINT, node, NULL);
  return node;
}

void
mshed_utf_append_file (MshedUtf     *self,
                       MshedUtfNode *parent,
                       const char   *name,
                       const void   *data,
                       gsize         len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);

  mshed_utf_insert_child (self, parent, G_MAXUINT, mshed_utf_node_new_file (self, name, bytes),
                          NULL);
}

void
mshed_utf_append_text (MshedUtf     *self,
                       MshedUtfNode *parent,
                       const char   *name,
                       const char   *value)
{
  mshed_utf_append_file (self, parent, name, value, strlen (value) + 1);
}

/**
 * mshed_utf_insert_sibling:
 * @node: (transfer full): a detached node, put right after @sibling
 *
 * Inverse: mshed_utf_remove (@node).
 */
gboolean
mshed_utf_insert_sibling (MshedUtf      *self,
                          MshedUtfNode  *sibling,
                          MshedUtfNode  *node,
                          GError       **error)
{
  g_return_val_if_fail (!self->readonly, FALSE);
  g_return_val_if_fail (sibling != NULL, FALSE);
  if (sibling->parent == NULL)
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                           _("The UTF root directory cannot have siblings"));
      return FALSE;
    }
  return mshed_utf_insert_child (self, sibling->parent, mshed_utf_node_get_index (sibling) + 1,
                                 node, error);
}

/**
 * mshed_utf_remove:
 * @out_parent: (out) (optional): where it was
 * @out_index: (out) (optional): its position there
 *
 * Takes @node and its subtree out of the tree. Inverse: mshed_utf_insert_child (@out_parent,
 * @out_index, @node).
 *
 * Returns: (transfer full): @node, now detached; free it with mshed_utf_node_free or put it back
 */
MshedUtfNode *
mshed_utf_remove (MshedUtf      *self,
                  MshedUtfNode  *node,
                  MshedUtfNode **out_parent,
                  guint         *out_index)
{
  g_return_val_if_fail (!self->readonly, NULL);
  g_return_val_if_fail (node != NULL && node != self->root && node->parent != NULL, NULL);
  g_return_val_if_fail (in_tree (self, node), NULL);

  detach (self, node, out_parent, out_index);
  return node;
}

/**
 * mshed_utf_move:
 * @index: position among the children of @new_parent once @node is no longer among them
 * @out_old_parent: (out) (optional): where it was
 * @out_old_index: (out) (optional): its position there
 *
 * Moves a subtree. Inverse: mshed_utf_move (@node, @out_old_parent, @out_old_index).
 *
 * Returns: FALSE (nothing changed) when the target is not a directory of this tree or lies
 *   inside @node
 */
gboolean
mshed_utf_move (MshedUtf      *self,
                MshedUtfNode  *node,
                MshedUtfNode  *new_parent,
                guint          index,
                MshedUtfNode **out_old_parent,
                guint         *out_old_index,
                GError       **error)
{
  g_return_val_if_fail (!self->readonly, FALSE);
  g_return_val_if_fail (node != NULL && new_parent != NULL, FALSE);

  if (node == self->root || node->parent == NULL || !in_tree (self, node))
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                           _("Only an entry below the UTF root directory can be moved"));
      return FALSE;
    }
  if (!check_target (self, new_parent, error))
    return FALSE;
  if (mshed_utf_node_is_ancestor (node, new_parent))
    {
      g_autofree char *path = mshed_utf_node_dup_path (node);

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("The UTF entry %s cannot be moved into itself"), path);
      return FALSE;
    }
  detach (self, node, out_old_parent, out_old_index);
  link_at (new_parent, index, node);
  return TRUE;
}

/**
 * mshed_utf_rename:
 *
 * Sets the name bytes (case as given). The writer finds or adds the name in the dictionary and
 * the CRC follows the name. Inverse: mshed_utf_rename (@node, old name).
 *
 * Returns: (transfer full): the old name
 */
char *
mshed_utf_rename (MshedUtf     *self,
                  MshedUtfNode *node,
                  const char   *name)
{
  char *old;

  g_return_val_if_fail (!self->readonly, NULL);
  g_return_val_if_fail (node != NULL && name != NULL, NULL);
  old = node->name;
  node->name = g_strdup (name);
  self->modified = TRUE;
  return old;
}

/**
 * mshed_utf_set_data:
 * @data: (transfer none): the new payload
 *
 * Replaces a file's payload. Inverse: mshed_utf_set_data (@node, old payload).
 *
 * Returns: (transfer full): the old payload
 */
GBytes *
mshed_utf_set_data (MshedUtf     *self,
                    MshedUtfNode *node,
                    GBytes       *data)
{
  GBytes *old;

  g_return_val_if_fail (!self->readonly, NULL);
  g_return_val_if_fail (node != NULL && data != NULL, NULL);
  g_return_val_if_fail (!node->is_dir, NULL);
  old = node->data;
  node->data = g_bytes_ref (data);
  self->modified = TRUE;
  return old;
}

/**
 * mshed_utf_set_time:
 * @dos_time: a DOS date-time (docs/utf.md §5.1), written as it is
 *
 * Sets one of the three timestamps of an entry. Inverse: mshed_utf_set_time (@node, @which,
 * old value).
 *
 * Returns: the old value
 */
guint32
mshed_utf_set_time (MshedUtf     *self,
                    MshedUtfNode *node,
                    MshedUtfTime  which,
                    guint32       dos_time)
{
  guint32 old;

  g_return_val_if_fail (!self->readonly, 0);
  g_return_val_if_fail (node != NULL && which <= MSHED_UTF_TIME_MODIFY, 0);
  old = node->times[which];
  node->times[which] = dos_time;
  self->modified = TRUE;
  return old;
}
