/* mshed-document-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The UTF side of MshedDocument (docs/utf.md, docs/dfm.md): opening and reloading a UTF file,
 * the tree and payload edits as commands of the shared history (mshed-command.h), what they
 * make stale (docs/dfm.md §15.1, mshed-deps.h), the checks after each edit, and the bytes a
 * save writes. The core (history, groups, save point, signals, stale set, atomic save) is the
 * one NRes documents use (mshed-document.c, mshed-document-stale.c, mshed-document-save.c).
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-dfm-recompute.h"
#include "mshed-dfm-schema.h"
#include "mshed-dfm-validate.h"
#include "mshed-document-private.h"
#include "mshed-error.h"

/* Opening ---------------------------------------------------------------------------------- */

/* Reads @bytes as the document's container: the tree in the document's mode, typed as a
 * deformable model when it is one (mshed_dfm_file_is_dfm). Nothing changes on failure. */
gboolean
_mshed_document_load_utf (MshedDocument *self,
                          const char    *path,
                          GBytes        *bytes,
                          GError       **error)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  g_autofree char *base = path ? g_path_get_basename (path) : NULL;

  utf = mshed_utf_parse (bytes, self->mode, diags, error);
  if (utf != NULL && mshed_dfm_file_is_dfm (path, utf))
    dfm = mshed_dfm_new (utf, self->mode, diags, error);
  if (utf == NULL || (dfm == NULL && mshed_dfm_file_is_dfm (path, utf)))
    {
      if (error && *error && base)
        g_prefix_error (error, "%s: ", base);
      return FALSE;
    }
  g_clear_pointer (&self->dfm, mshed_dfm_unref);
  g_clear_pointer (&self->utf, mshed_utf_unref);
  g_clear_pointer (&self->utf_source, g_bytes_unref);
  g_clear_pointer (&self->diags, mshed_diagnostics_free);
  self->utf = g_steal_pointer (&utf);
  self->dfm = g_steal_pointer (&dfm);
  self->utf_source = g_bytes_ref (bytes);
  self->diags = g_steal_pointer (&diags);
  self->utf_tree_dirty = FALSE;
  if (path != NULL && g_strcmp0 (path, self->path) != 0)
    {
      g_free (self->path);
      self->path = g_strdup (path);
    }
  g_clear_pointer (&self->entry, g_free);
  self->source_state = mshed_history_get_state_id (self->history);
  _mshed_document_init_title (self);
  return TRUE;
}

/**
 * mshed_document_new_for_utf:
 * @utf: (transfer none): the tree (the document keeps a reference and edits it)
 *
 * A document without a file, for a generated tree (mshed_dfm_generate, tests). A tree with
 * a root `Skeleton` or `MultiLevel\Mesh0` is typed as a deformable model.
 *
 * Returns: (transfer full): the document
 */
MshedDocument *
mshed_document_new_for_utf (MshedUtf  *utf,
                            MshedMode  mode)
{
  MshedDocument *self = g_object_new (MSHED_TYPE_DOCUMENT, NULL);

  self->mode = mode;
  self->utf = mshed_utf_ref (utf);
  self->diags = mshed_diagnostics_new ();
  if (mshed_dfm_file_is_dfm (NULL, utf))
    self->dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, NULL, NULL);
  _mshed_document_utf_revalidate (self, TRUE);
  _mshed_document_init_title (self);
  return self;
}

/* Applying commands ---------------------------------------------------------------------- */

/* Where a DFM table's node sits: the mesh, part, bone or material index that scopes it
 * (G_MAXUINT when none). */
static guint
node_scope_index (const MshedDfm     *dfm,
                  const MshedUtfNode *node)
{
  for (guint l = 0; l < mshed_dfm_get_n_levels (dfm); l++)
    {
      MshedDfmLevel level;

      if (mshed_dfm_get_level (dfm, l, &level) && mshed_utf_node_is_ancestor (level.node, node))
        return l;
    }
  for (guint p = 0; p < mshed_dfm_get_n_parts (dfm); p++)
    {
      MshedDfmPart part;

      if (mshed_dfm_get_part (dfm, p, &part) && mshed_utf_node_is_ancestor (part.node, node))
        return p;
    }
  for (guint b = 0; b < mshed_dfm_get_n_bones (dfm); b++)
    {
      MshedDfmBone bone;

      if (mshed_dfm_get_bone (dfm, b, &bone) && mshed_utf_node_is_ancestor (bone.node, node))
        return b;
    }
  for (guint m = 0; m < mshed_dfm_get_n_materials (dfm); m++)
    {
      MshedDfmMaterial mat;

      if (mshed_dfm_get_material (dfm, m, &mat) && mshed_utf_node_is_ancestor (mat.node, node))
        return m;
    }
  return G_MAXUINT;
}

void
_mshed_document_utf_apply (MshedDocument      *self,
                           const MshedCommand *cmd,
                           gboolean            reverse)
{
  MshedChange c = { 0 };

  if (cmd->kind == MSHED_COMMAND_UTF_REPLACE)
    {
      _mshed_document_utf_swap (self, cmd->data);
      c.table = MSHED_TABLE_NONE;
      c.res_index = -1;
      c.origin = self->origin;
      c.flags = MSHED_CHANGE_FLAG_ALL | MSHED_CHANGE_FLAG_LAYOUT | MSHED_CHANGE_FLAG_DIRECTORY;
      _mshed_document_add_change (self, &c);
      return;
    }
  if (!mshed_command_apply_utf (cmd, self->utf, reverse))
    return;

  c.table = MSHED_TABLE_NONE;
  c.res_index = -1;
  c.origin = self->origin;
  c.node = cmd->node;
  if (cmd->kind == MSHED_COMMAND_SPLICE)
    {
      gsize l0 = g_bytes_get_size (reverse ? cmd->new_bytes : cmd->old_bytes);
      gsize l1 = g_bytes_get_size (reverse ? cmd->old_bytes : cmd->new_bytes);
      MshedDfmTable table = self->dfm ? mshed_dfm_schema_table_for_node (cmd->node)
                                      : MSHED_DFM_TABLE_NONE;
      const MshedDfmTableInfo *info = table != MSHED_DFM_TABLE_NONE
                                        ? mshed_dfm_schema_get_table (table) : NULL;

      c.offset = cmd->offset;
      c.old_length = l0;
      c.length = l1;
      if (l0 != l1)
        c.flags |= MSHED_CHANGE_FLAG_LAYOUT;
      if (info != NULL)
        {
          c.table = MSHED_DFM_TABLE_ID (table);
          if (info->stride > 0)
            {
              gsize size = 0;

              mshed_utf_node_peek_data (cmd->node, &size);
              c.first_row = (guint) (cmd->offset / info->stride);
              if (l0 == l1)
                c.n_removed = c.n_added =
                  (guint) ((cmd->offset + l1 + info->stride - 1) / info->stride) - c.first_row;
              else
                {
                  c.n_removed = (guint) ((size - l1 + l0) / info->stride) - c.first_row;
                  c.n_added = (guint) (size / info->stride) - c.first_row;
                }
            }
          else
            c.n_removed = c.n_added = 1;
        }
      /* names live in string payloads and Cons records: the DFM index holds them */
      if (self->dfm && (info == NULL || info->stride == 0 || info->n_texts > 0))
        mshed_dfm_refresh (self->dfm);
    }
  else
    {
      c.flags = MSHED_CHANGE_FLAG_DIRECTORY | MSHED_CHANGE_FLAG_LAYOUT | MSHED_CHANGE_FLAG_ALL;
      if (cmd->kind == MSHED_COMMAND_UTF_INSERT || cmd->kind == MSHED_COMMAND_UTF_REMOVE)
        {
          gboolean insert = (cmd->kind == MSHED_COMMAND_UTF_INSERT) != reverse;

          c.first_row = cmd->index;
          c.n_added = insert ? 1 : 0;
          c.n_removed = insert ? 0 : 1;
        }
      self->utf_tree_dirty = TRUE;
      if (self->dfm)
        mshed_dfm_refresh (self->dfm);
    }
  _mshed_document_add_change (self, &c);
}

/* Checks --------------------------------------------------------------------------------- */

/* The container findings are those of reading the bytes a save would write now
 * (docs/utf.md §9); the model findings those of mshed_dfm_validate over the tree as it is
 * (docs/dfm.md §14). Both are the full validators of `mshed-cli validate`, so the document
 * and the command line never disagree. Payload edits re-run the model rules only; tree edits
 * (names, order, nesting) re-read the container too. */
gboolean
_mshed_document_utf_revalidate (MshedDocument *self,
                                gboolean       full)
{
  g_autoptr(MshedDiagnostics) fresh = mshed_diagnostics_new ();
  gboolean reread = full || self->utf_tree_dirty;

  if (self->dfm == NULL && mshed_dfm_file_is_dfm (self->path, self->utf))
    self->dfm = mshed_dfm_new (self->utf, MSHED_MODE_TOLERANT, NULL, NULL);
  if (reread)
    {
      g_autoptr(GBytes) bytes = _mshed_document_utf_serialize (self, NULL);
      g_autoptr(MshedUtf) check = bytes ? mshed_utf_parse (bytes, MSHED_MODE_TOLERANT, fresh,
                                                           NULL)
                                        : NULL;
    }
  else
    for (guint i = 0; i < self->diags->items->len; i++)
      {
        const MshedDiagnostic *d = g_ptr_array_index (self->diags->items, i);

        if (d->check < MSHED_CHECK_DFM_CMPND_MISSING)
          mshed_diagnostics_add_copy (fresh, d);
      }
  self->utf_tree_dirty = FALSE;
  if (self->dfm)
    mshed_dfm_validate (self->dfm, self->mode, fresh);
  return _mshed_document_replace_diags (self, fresh);
}

/* Serialising and saving ----------------------------------------------------------------- */

/* The file's bytes: exactly those read while the document is in the state it was read in,
 * else the tree written over them (docs/utf.md §7): what no edit touched keeps its bytes. */
GBytes *
_mshed_document_utf_serialize (MshedDocument *self,
                               GError       **error)
{
  if (self->utf_source && mshed_history_get_state_id (self->history) == self->source_state)
    return g_bytes_ref (self->utf_source);
  return mshed_utf_serialize (self->utf, MSHED_UTF_WRITE_PRESERVE, NULL, error);
}

/* What `mshed-cli validate` reports for the bytes about to be written, strictly. */
gboolean
_mshed_document_utf_check_savable (MshedDocument *self,
                                   const char    *path,
                                   GBytes        *bytes,
                                   MshedDiagnostics *strict,
                                   GError       **error)
{
  g_autoptr(MshedUtf) utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, strict, error);

  if (utf == NULL)
    return FALSE;
  if (mshed_dfm_file_is_dfm (path, utf))
    {
      g_autoptr(MshedDfm) dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, NULL, NULL);

      if (dfm != NULL)
        mshed_dfm_validate (dfm, MSHED_MODE_STRICT, strict);
    }
  return TRUE;
}

/* Reload --------------------------------------------------------------------------------- */

/* What a reload swaps: the tree, its typed view and the bytes it was read from. */
typedef struct {
  MshedUtf *utf;
  MshedDfm *dfm;
  GBytes   *source;
  guint64   source_state;
} UtfState;

static void
utf_state_free (gpointer data)
{
  UtfState *state = data;

  g_clear_pointer (&state->dfm, mshed_dfm_unref);
  g_clear_pointer (&state->utf, mshed_utf_unref);
  g_clear_pointer (&state->source, g_bytes_unref);
  g_free (state);
}

void
_mshed_document_utf_swap (MshedDocument *self,
                          gpointer       data)
{
  UtfState *state = data;
  UtfState mine = { self->utf, self->dfm, self->utf_source, self->source_state };

  self->utf = state->utf;
  self->dfm = state->dfm;
  self->utf_source = state->source;
  self->source_state = state->source_state;
  *state = mine;
  self->utf_tree_dirty = TRUE;
}

/* The file read again, swapped in as one undo step ("Reload from disk"). */
gboolean
_mshed_document_utf_reload (MshedDocument *self,
                            GError       **error)
{
  g_autoptr(GBytes) bytes = mshed_load_file (self->path, error);
  g_autoptr(GBytes) now = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  UtfState *state;

  if (bytes == NULL)
    return FALSE;
  utf = mshed_utf_parse (bytes, self->mode, NULL, error);
  if (utf != NULL && mshed_dfm_file_is_dfm (self->path, utf))
    {
      dfm = mshed_dfm_new (utf, self->mode, NULL, error);
      if (dfm == NULL)
        return FALSE;
    }
  if (utf == NULL)
    return FALSE;
  now = _mshed_document_utf_serialize (self, NULL);
  if (now != NULL && g_bytes_equal (now, bytes))
    return TRUE;  /* nothing differs: no step */

  state = g_new0 (UtfState, 1);
  state->utf = g_steal_pointer (&utf);
  state->dfm = g_steal_pointer (&dfm);
  state->source = g_bytes_ref (bytes);
  _mshed_document_op_begin (self, _("Reload from disk"), 0);
  _mshed_document_record (self, mshed_command_new_utf_replace (state, utf_state_free,
                                                               sizeof *state));
  _mshed_document_unmark (self, MSHED_DERIVED_DFM, -1, NULL, 0);
  _mshed_document_op_end (self);
  return TRUE;
}

/* What an edit makes stale (docs/dfm.md §15.1) ------------------------------------------- */

/* Marks the targets of @kind (mshed-deps.h) for the scope of @node. */
static void
mark_kind (MshedDocument      *self,
           MshedEditKind       kind,
           const MshedUtfNode *node,
           const char         *reason)
{
  MshedDerived optional, targets = mshed_deps_get (kind, &optional);

  targets |= optional;
  if (self->dfm == NULL || targets == 0)
    return;
  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    {
      MshedDerived target = 1u << t;
      guint row = G_MAXUINT;

      if (!(targets & target))
        continue;
      if (target & (MSHED_DERIVED_DFM_GROUP_COUNT | MSHED_DERIVED_DFM_UV_VERTEX_COUNT |
                    MSHED_DERIVED_DFM_VERTEX_NORMALS))
        row = node_scope_index (self->dfm, node);
      /* point normals come from the level's Points */
      if (target == MSHED_DERIVED_DFM_VERTEX_NORMALS &&
          mshed_dfm_find_node (self->dfm, MSHED_DFM_TABLE_VERTEX_NORMALS, row, 0) == NULL)
        continue;
      _mshed_document_mark (self, target, kind, row == G_MAXUINT ? NULL : &row,
                            row == G_MAXUINT ? 0 : 1, reason);
    }
}

/* Which kind of edit adding, removing, moving or renaming @node is. */
static MshedEditKind
classify_tree_edit (const MshedDfm     *dfm,
                    const MshedUtfNode *node,
                    const MshedUtfNode *parent)
{
  const char *name = mshed_utf_node_get_name (node);
  const char *pname = parent ? mshed_utf_node_get_name (parent) : "";
  MshedUtfNode *root = dfm ? mshed_utf_get_root (mshed_dfm_get_utf (dfm)) : NULL;
  gsize n = strlen (name);

  if (dfm == NULL || parent == NULL)
    return MSHED_EDIT_UTF_TREE;
  if (!mshed_utf_node_is_directory (node))
    {
      MshedDfmTable table = mshed_dfm_schema_table_in_scope (MSHED_DFM_SCOPE_CONS, name);

      if (g_ascii_strcasecmp (pname, "Cons") == 0 && table != MSHED_DFM_TABLE_NONE)
        return MSHED_EDIT_DFM_JOINTS;
      return MSHED_EDIT_UTF_TREE;
    }
  if (g_ascii_strcasecmp (pname, "Face_groups") == 0 &&
      g_ascii_strncasecmp (name, "Group", 5) == 0)
    return MSHED_EDIT_DFM_GROUPS;
  if (g_ascii_strcasecmp (pname, "MultiLevel") == 0 && g_ascii_strncasecmp (name, "Mesh", 4) == 0)
    return MSHED_EDIT_DFM_LEVELS;
  if (parent == root && n >= 4 && g_ascii_strcasecmp (name + n - 4, ".3db") == 0)
    return MSHED_EDIT_DFM_BONES;
  if (g_ascii_strcasecmp (pname, "Material library") == 0)
    return MSHED_EDIT_DFM_MATERIALS;
  return MSHED_EDIT_UTF_TREE;
}

static void
mark_tree_edit (MshedDocument      *self,
                const MshedUtfNode *node,
                const MshedUtfNode *parent,
                const char         *reason)
{
  MshedEditKind kind = classify_tree_edit (self->dfm, node, parent);

  mark_kind (self, kind, kind == MSHED_EDIT_DFM_GROUPS ? parent : node, reason);
}

/* The bone a Cons record moves, and every bone below it, for MSHED_DERIVED_DFM_BONE_TO_ROOT. */
static void
mark_joint_records (MshedDocument      *self,
                    const MshedUtfNode *node,
                    guint               first,
                    guint               n,
                    const char         *reason)
{
  g_autoptr(GArray) moved = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_bones = mshed_dfm_get_n_bones (self->dfm);

  for (guint j = 0; j < mshed_dfm_get_n_joints (self->dfm); j++)
    {
      MshedDfmJoint joint;

      if (mshed_dfm_get_joint (self->dfm, j, &joint) && joint.node == node &&
          joint.record >= first && joint.record < first + n && joint.child_bone >= 0)
        g_array_append_val (moved, joint.child_bone);
    }
  if (moved->len == 0)
    {
      /* records that name no known bone: the whole table, to be reviewed */
      _mshed_document_mark (self, MSHED_DERIVED_DFM_BONE_TO_ROOT, MSHED_EDIT_DFM_JOINTS, NULL,
                            0, reason);
      return;
    }
  for (guint b = 0; b < n_bones; b++)
    {
      gint up = (gint) b;
      guint guard = 0;

      while (up >= 0 && guard++ <= n_bones)
        {
          MshedDfmBone bone;
          gboolean hit = FALSE;

          for (guint k = 0; k < moved->len && !hit; k++)
            hit = g_array_index (moved, guint, k) == (guint) up;
          if (hit)
            {
              _mshed_document_mark (self, MSHED_DERIVED_DFM_BONE_TO_ROOT, MSHED_EDIT_DFM_JOINTS,
                                    &b, 1, reason);
              break;
            }
          up = mshed_dfm_get_bone (self->dfm, (guint) up, &bone) ? bone.parent : -1;
        }
    }
}

/* A payload edit of @node: [offset, +old_length) became @new_length bytes. */
static void
mark_payload_edit (MshedDocument      *self,
                   const MshedUtfNode *node,
                   gsize               offset,
                   gsize               old_length,
                   gsize               new_length)
{
  MshedDfmTable table;
  const MshedDfmTableInfo *info;
  MshedEditKind kind;
  g_autofree char *path = NULL;
  g_autofree char *reason = NULL;

  if (self->dfm == NULL)
    return;
  table = mshed_dfm_schema_table_for_node (node);
  if (table == MSHED_DFM_TABLE_NONE)
    return;
  info = mshed_dfm_schema_get_table (table);
  kind = mshed_deps_classify_field (MSHED_DFM_TABLE_ID (table), NULL);
  /* UV_vertex_count follows the number of entries, not their values */
  if (kind == MSHED_EDIT_DFM_UV_VERTICES && old_length == new_length)
    return;
  path = mshed_utf_node_dup_path (node);
  reason = g_strdup_printf (_("%s changed"), path);
  if (kind == MSHED_EDIT_DFM_JOINTS && info->stride > 0)
    {
      guint first = (guint) (offset / info->stride);
      guint last = (guint) ((offset + MAX (old_length, new_length) + info->stride - 1) /
                            info->stride);

      mark_joint_records (self, node, first, MAX (last, first + 1) - first, reason);
      return;
    }
  mark_kind (self, kind, node, reason);
}

/* Edits ---------------------------------------------------------------------------------- */

static gboolean
need_utf (MshedDocument *self,
          GError       **error)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (self->utf != NULL)
    return TRUE;
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
               _("%s is a Parkan model; this edit applies to Freelancer UTF files only"),
               mshed_document_get_title (self));
  return FALSE;
}

static gboolean
need_file (MshedUtfNode *node,
           GError      **error)
{
  g_autofree char *path = NULL;

  if (!mshed_utf_node_is_directory (node))
    return TRUE;
  path = mshed_utf_node_dup_path (node);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
               _("%s is a directory: it has no data"), path);
  return FALSE;
}

static gboolean
need_directory (MshedUtfNode *node,
                GError      **error)
{
  g_autofree char *path = NULL;

  if (mshed_utf_node_is_directory (node))
    return TRUE;
  path = mshed_utf_node_dup_path (node);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
               _("%s is a file: it cannot hold entries"), path);
  return FALSE;
}

/* Records the splice that turns [offset, +old_length) of @node into @data; @mark: with the
 * stale marks of that edit (not for a reference that follows a rename). */
static void
utf_splice_full (MshedDocument *self,
                 MshedUtfNode  *node,
                 gsize          offset,
                 gsize          old_length,
                 const guint8  *data,
                 gsize          length,
                 gboolean       mark)
{
  gsize size = 0;
  const guint8 *cur = mshed_utf_node_peek_data (node, &size);
  g_autoptr(GBytes) old_bytes = g_bytes_new (cur ? cur + offset : NULL, old_length);
  g_autoptr(GBytes) new_bytes = g_bytes_new (data, length);

  if (old_length == length && (length == 0 || memcmp (cur + offset, data, length) == 0))
    return;
  if (mark)
    mark_payload_edit (self, node, offset, old_length, length);
  _mshed_document_record (self, mshed_command_new_utf_splice (node, offset, old_bytes,
                                                              new_bytes));
}

static void
utf_splice (MshedDocument *self,
            MshedUtfNode  *node,
            gsize          offset,
            gsize          old_length,
            const guint8  *data,
            gsize          length)
{
  utf_splice_full (self, node, offset, old_length, data, length, TRUE);
}

/* The smallest splice that makes @node's payload @data. */
static void
utf_replace_payload_full (MshedDocument *self,
                          MshedUtfNode  *node,
                          const guint8  *data,
                          gsize          length,
                          gboolean       mark)
{
  gsize old_len = 0, prefix = 0, suffix = 0, limit;
  const guint8 *cur = mshed_utf_node_peek_data (node, &old_len);

  limit = MIN (old_len, length);
  while (prefix < limit && cur[prefix] == data[prefix])
    prefix++;
  if (prefix == old_len && old_len == length)
    return;
  while (suffix < limit - prefix && cur[old_len - 1 - suffix] == data[length - 1 - suffix])
    suffix++;
  utf_splice_full (self, node, prefix, old_len - prefix - suffix, data + prefix,
                   length - prefix - suffix, mark);
}

static void
utf_replace_payload (MshedDocument *self,
                     MshedUtfNode  *node,
                     const guint8  *data,
                     gsize          length)
{
  utf_replace_payload_full (self, node, data, length, TRUE);
}

/* for mshed-document-dfm-rows.c: one payload rewrite with its stale marks */
void
_mshed_document_utf_set_payload (MshedDocument *self,
                                 MshedUtfNode  *node,
                                 const guint8  *data,
                                 gsize          length)
{
  utf_replace_payload (self, node, data, length);
}

gboolean
mshed_document_replace_payload_bytes (MshedDocument         *self,
                                      const MshedPayloadRef *payload,
                                      gsize                  offset,
                                      gsize                  old_length,
                                      GBytes                *bytes,
                                      GError               **error)
{
  gsize size = 0, len = 0;
  const guint8 *data;
  g_autofree char *path = NULL;

  g_return_val_if_fail (payload != NULL, FALSE);
  if (payload->container == MSHED_CONTAINER_NRES)
    return mshed_document_replace_bytes (self, payload->res_index, offset, old_length, bytes,
                                         error);
  if (!need_utf (self, error) || !need_file (payload->node, error))
    return FALSE;
  mshed_utf_node_peek_data (payload->node, &size);
  path = mshed_utf_node_dup_path (payload->node);
  if (offset > size || old_length > size - offset)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("%s: bytes %zu to %zu are outside its %zu bytes"), path, offset,
                   offset + old_length, size);
      return FALSE;
    }
  data = g_bytes_get_data (bytes, &len);
  {
    g_autofree char *label = g_strdup_printf (_("Edit bytes of %s"), path);

    _mshed_document_op_begin (self, label, 0);
  }
  utf_splice (self, payload->node, offset, old_length, data, len);
  _mshed_document_op_end (self);
  return TRUE;
}

gboolean
mshed_document_utf_set_data (MshedDocument *self,
                             MshedUtfNode  *node,
                             GBytes        *data,
                             GError       **error)
{
  g_autofree char *path = NULL;
  g_autofree char *label = NULL;
  gsize len = 0;
  const guint8 *bytes;

  if (!need_utf (self, error) || !need_file (node, error))
    return FALSE;
  path = mshed_utf_node_dup_path (node);
  label = g_strdup_printf (_("Replace the data of %s"), path);
  bytes = g_bytes_get_data (data, &len);
  _mshed_document_op_begin (self, label, 0);
  utf_replace_payload (self, node, bytes, len);
  _mshed_document_op_end (self);
  return TRUE;
}

/* A string payload: the text in Windows-1251, with a final NUL when the old one had one (or
 * was empty). */
static GBytes *
encode_string (const guint8 *old,
               gsize         old_len,
               const char   *text,
               GError      **error)
{
  g_autoptr(GBytes) encoded = mshed_utf8_to_cp1251 (text, error);
  gsize len = 0;
  const guint8 *data;
  guint8 *buf;
  gboolean nul = old_len == 0 || old[old_len - 1] == 0;

  if (encoded == NULL)
    return NULL;
  data = g_bytes_get_data (encoded, &len);
  buf = g_malloc0 (len + 1);
  memcpy (buf, data, len);
  return g_bytes_new_take (buf, len + (nul ? 1 : 0));
}

/* The string files that name @node by its name: the `File name` of the parts naming a bone
 * directory (docs/dfm.md §8), the `Material_name` of the groups drawing with a material
 * (docs/dfm.md §4), the `Dt_name` of the materials using a texture (docs/dfm.md §11). Names
 * compare ignoring case (docs/utf.md §3.4). */
static GPtrArray *
name_references (MshedDocument *self,
                 MshedUtfNode  *node)
{
  const char *name = mshed_utf_node_get_name (node);
  GPtrArray *refs = g_ptr_array_new ();

  if (self->dfm == NULL)
    return refs;
  for (guint p = 0; p < mshed_dfm_get_n_parts (self->dfm); p++)
    {
      MshedDfmPart part;
      MshedDfmBone bone;

      if (mshed_dfm_get_part (self->dfm, p, &part) && part.bone >= 0 &&
          mshed_dfm_get_bone (self->dfm, (guint) part.bone, &bone) && bone.node == node)
        {
          MshedUtfNode *ref = mshed_dfm_find_node (self->dfm, MSHED_DFM_TABLE_FILE_NAME, p, 0);

          if (ref != NULL)
            g_ptr_array_add (refs, ref);
        }
    }
  for (guint t = 0; t < mshed_dfm_get_n_textures (self->dfm); t++)
    {
      if (mshed_dfm_get_texture (self->dfm, t) != node)
        continue;
      /* the materials that name the texture (docs/dfm.md §11) */
      for (guint m = 0; m < mshed_dfm_get_n_materials (self->dfm); m++)
        {
          MshedDfmMaterial mat;
          MshedUtfNode *ref;

          if (!mshed_dfm_get_material (self->dfm, m, &mat) || mat.dt_name == NULL ||
              g_ascii_strcasecmp (mat.dt_name, name) != 0)
            continue;
          ref = mshed_dfm_find_node (self->dfm, MSHED_DFM_TABLE_MATERIAL_DT_NAME, m, 0);
          if (ref != NULL)
            g_ptr_array_add (refs, ref);
        }
    }
  for (guint m = 0; m < mshed_dfm_get_n_materials (self->dfm); m++)
    {
      MshedDfmMaterial mat;

      if (!mshed_dfm_get_material (self->dfm, m, &mat) || mat.node != node)
        continue;
      for (guint l = 0; l < mshed_dfm_get_n_levels (self->dfm); l++)
        {
          MshedDfmLevel level;

          if (!mshed_dfm_get_level (self->dfm, l, &level))
            continue;
          for (guint g = 0; g < level.n_groups; g++)
            {
              MshedDfmGroup group;
              MshedUtfNode *ref;

              if (!mshed_dfm_get_group (self->dfm, l, g, &group) || group.material_name == NULL ||
                  g_ascii_strcasecmp (group.material_name, name) != 0)
                continue;
              ref = mshed_dfm_find_node (self->dfm, MSHED_DFM_TABLE_MATERIAL_NAME, l, g);
              if (ref != NULL)
                g_ptr_array_add (refs, ref);
            }
        }
    }
  return refs;
}

/* The orders a tree edit can change, as nodes: levels (docs/dfm.md §3), parts
 * (docs/dfm.md §8) and the bone table (docs/dfm.md §10.1). Stale rows and bone positions
 * follow them across the edit. */
typedef struct {
  GPtrArray *levels;
  GPtrArray *parts;
  GPtrArray *bones;
} TreeOrder;

static void
tree_order_clear (TreeOrder *order)
{
  g_clear_pointer (&order->levels, g_ptr_array_unref);
  g_clear_pointer (&order->parts, g_ptr_array_unref);
  g_clear_pointer (&order->bones, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TreeOrder, tree_order_clear)

static void
tree_order_read (MshedDocument *self,
                 TreeOrder     *order)
{
  order->levels = g_ptr_array_new ();
  order->parts = g_ptr_array_new ();
  order->bones = g_ptr_array_new ();
  for (guint l = 0; self->dfm && l < mshed_dfm_get_n_levels (self->dfm); l++)
    {
      MshedDfmLevel level;

      if (mshed_dfm_get_level (self->dfm, l, &level))
        g_ptr_array_add (order->levels, level.node);
    }
  for (guint p = 0; self->dfm && p < mshed_dfm_get_n_parts (self->dfm); p++)
    {
      MshedDfmPart part;

      if (mshed_dfm_get_part (self->dfm, p, &part))
        g_ptr_array_add (order->parts, part.node);
    }
  for (guint b = 0; self->dfm && b < mshed_dfm_get_n_bones (self->dfm); b++)
    {
      MshedDfmBone bone;

      if (mshed_dfm_get_bone (self->dfm, b, &bone))
        g_ptr_array_add (order->bones, bone.node);
    }
}

/* old position -> new (G_MAXUINT: gone); NULL when nothing moved. */
static guint *
order_map (GPtrArray *before,
           GPtrArray *after)
{
  g_autofree guint *map = g_new (guint, before->len + 1);
  gboolean same = before->len == after->len;

  for (guint i = 0; i < before->len; i++)
    {
      guint j;

      map[i] = G_MAXUINT;
      if (g_ptr_array_find (after, g_ptr_array_index (before, i), &j))
        map[i] = j;
      same = same && map[i] == i;
    }
  return same ? NULL : g_steal_pointer (&map);
}

/* Rewrites one file of u32 bone positions through @map (old position -> new). */
static void
remap_bone_file (MshedDocument *self,
                 MshedUtfNode  *node,
                 const guint   *map,
                 guint          n_old)
{
  gsize size = 0;
  const guint8 *data = node ? mshed_utf_node_peek_data (node, &size) : NULL;
  g_autofree guint8 *buf = NULL;

  if (data == NULL || size < 4)
    return;
  buf = g_memdup2 (data, size);
  for (gsize i = 0; i + 4 <= size; i += 4)
    {
      guint32 v = mshed_read_u32 (buf + i);

      if (v < n_old)
        mshed_write_u32 (buf + i, map[v]);
    }
  utf_replace_payload_full (self, node, buf, size, FALSE);
}

static void
remap_stale_rows (MshedDocument *self,
                  MshedDfmTable  table,
                  const guint   *map,
                  guint          n_old)
{
  _mshed_document_remap_stale (self, MSHED_DFM_TABLE_ID (table), map, n_old);
}

/* After a tree edit: the stale rows of levels, parts and bones follow their nodes; when the
 * bone table changed (a bone directory inserted, removed, moved or renamed to or from *.3db),
 * the skin keeps naming the same bones: Bone_id_chain and UV_bone_id of every level follow
 * the new positions (docs/dfm.md §15.1, fix-ups of a move). A position whose bone is gone
 * becomes the bone count, which the checks report (dfm-bone-id-range) instead of letting it
 * silently name the next bone. */
static void
follow_tree_edit (MshedDocument *self,
                  TreeOrder     *before)
{
  g_auto(TreeOrder) after = { 0 };
  g_autofree guint *levels = NULL;
  g_autofree guint *parts = NULL;
  g_autofree guint *bones = NULL;

  if (self->dfm == NULL)
    return;
  tree_order_read (self, &after);
  levels = order_map (before->levels, after.levels);
  parts = order_map (before->parts, after.parts);
  bones = order_map (before->bones, after.bones);
  if (levels)
    {
      remap_stale_rows (self, MSHED_DFM_TABLE_GROUP_COUNT, levels, before->levels->len);
      remap_stale_rows (self, MSHED_DFM_TABLE_UV_VERTEX_COUNT, levels, before->levels->len);
      remap_stale_rows (self, MSHED_DFM_TABLE_VERTEX_NORMALS, levels, before->levels->len);
    }
  if (parts)
    remap_stale_rows (self, MSHED_DFM_TABLE_PART_INDEX, parts, before->parts->len);
  if (bones == NULL)
    return;
  remap_stale_rows (self, MSHED_DFM_TABLE_LOD_BITS, bones, before->bones->len);
  remap_stale_rows (self, MSHED_DFM_TABLE_BONE_TO_ROOT, bones, before->bones->len);
  for (guint i = 0; i < before->bones->len; i++)
    if (bones[i] == G_MAXUINT)
      bones[i] = after.bones->len;
  for (guint l = 0; l < mshed_dfm_get_n_levels (self->dfm); l++)
    {
      remap_bone_file (self, mshed_dfm_find_node (self->dfm, MSHED_DFM_TABLE_BONE_ID_CHAIN, l, 0),
                       bones, before->bones->len);
      remap_bone_file (self, mshed_dfm_find_node (self->dfm, MSHED_DFM_TABLE_UV_BONE_ID, l, 0),
                       bones, before->bones->len);
    }
}

gboolean
mshed_document_utf_rename (MshedDocument *self,
                           MshedUtfNode  *node,
                           const char    *name,
                           GError       **error)
{
  MshedUtfNode *parent;
  g_autofree char *path = NULL;
  g_autofree char *label = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GPtrArray) refs = NULL;
  g_auto(TreeOrder) order = { 0 };
  MshedEditKind kind;

  if (!need_utf (self, error))
    return FALSE;
  parent = mshed_utf_node_get_parent (node);
  if (parent == NULL)
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                           _("The UTF root directory cannot be renamed"));
      return FALSE;
    }
  if (strcmp (mshed_utf_node_get_name (node), name) == 0)
    return TRUE;
  if (!mshed_utf_validate_name (name, error) ||
      !mshed_utf_check_child_name (parent, name, node, error))
    return FALSE;
  path = mshed_utf_node_dup_path (node);
  label = g_strdup_printf (_("Rename %s"), path);
  reason = g_strdup_printf (_("%s renamed to %s"), path, name);
  refs = name_references (self, node);
  tree_order_read (self, &order);
  _mshed_document_op_begin (self, label, 0);
  /* a renamed bone or material keeps its position: indices and counts stay right */
  kind = classify_tree_edit (self->dfm, node, parent);
  if (kind != MSHED_EDIT_DFM_BONES && kind != MSHED_EDIT_DFM_MATERIALS)
    mark_tree_edit (self, node, parent, reason);
  _mshed_document_record (self, mshed_command_new_utf_rename (node,
                                                              mshed_utf_node_get_name (node),
                                                              name));
  follow_tree_edit (self, &order);
  /* the strings that named the node by its old name follow it (docs/dfm.md §8, §4) */
  for (guint i = 0; refs && i < refs->len; i++)
    {
      MshedUtfNode *ref = g_ptr_array_index (refs, i);
      gsize size = 0;
      const guint8 *old = mshed_utf_node_peek_data (ref, &size);
      g_autoptr(GBytes) text = encode_string (old, size, name, NULL);

      if (text != NULL)
        utf_replace_payload_full (self, ref, g_bytes_get_data (text, NULL),
                                  g_bytes_get_size (text), FALSE);
    }
  _mshed_document_op_end (self);
  return TRUE;
}

gboolean
mshed_document_utf_insert (MshedDocument *self,
                           MshedUtfNode  *parent,
                           guint          index,
                           MshedUtfNode  *subtree,
                           GError       **error)
{
  g_autoptr(MshedUtfNode) owned = subtree;
  g_auto(TreeOrder) order = { 0 };
  g_autofree char *ppath = NULL;
  g_autofree char *label = NULL;
  guint n;

  if (!need_utf (self, error) || !need_directory (parent, error) ||
      !mshed_utf_validate_name (mshed_utf_node_get_name (subtree), error) ||
      !mshed_utf_check_child_name (parent, mshed_utf_node_get_name (subtree), NULL, error))
    return FALSE;
  n = mshed_utf_node_get_n_children (parent);
  index = MIN (index, n);
  ppath = mshed_utf_node_dup_path (parent);
  label = g_strdup_printf (_("Add %s to %s"), mshed_utf_node_get_name (subtree), ppath);
  tree_order_read (self, &order);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_record (self, mshed_command_new_utf_insert (parent, index,
                                                              g_steal_pointer (&owned)));
  mark_tree_edit (self, subtree, parent, label);
  follow_tree_edit (self, &order);
  _mshed_document_op_end (self);
  return TRUE;
}

MshedUtfNode *
mshed_document_utf_add (MshedDocument *self,
                        MshedUtfNode  *parent,
                        guint          index,
                        const char    *name,
                        GBytes        *data,
                        GError       **error)
{
  MshedUtfNode *node;

  if (!need_utf (self, error) || !mshed_utf_validate_name (name, error))
    return NULL;
  node = data ? mshed_utf_node_new_file (self->utf, name, data)
              : mshed_utf_node_new_directory (self->utf, name);
  return mshed_document_utf_insert (self, parent, index, node, error) ? node : NULL;
}

gboolean
mshed_document_utf_remove (MshedDocument *self,
                           MshedUtfNode  *node,
                           GError       **error)
{
  MshedUtfNode *parent;
  g_autofree char *path = NULL;
  g_auto(TreeOrder) order = { 0 };
  g_autofree char *label = NULL;

  if (!need_utf (self, error))
    return FALSE;
  parent = mshed_utf_node_get_parent (node);
  if (parent == NULL)
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                           _("The UTF root directory cannot be removed"));
      return FALSE;
    }
  path = mshed_utf_node_dup_path (node);
  label = g_strdup_printf (_("Remove %s"), path);
  tree_order_read (self, &order);
  _mshed_document_op_begin (self, label, 0);
  /* marked while the node is still in the tree: its scope is known */
  mark_tree_edit (self, node, parent, label);
  _mshed_document_record (self, mshed_command_new_utf_remove (node));
  follow_tree_edit (self, &order);
  _mshed_document_op_end (self);
  return TRUE;
}

gboolean
mshed_document_utf_move (MshedDocument *self,
                         MshedUtfNode  *node,
                         MshedUtfNode  *new_parent,
                         guint          index,
                         GError       **error)
{
  MshedUtfNode *parent;
  g_autofree char *path = NULL;
  g_auto(TreeOrder) order = { 0 };
  g_autofree char *label = NULL;
  guint n;

  if (!need_utf (self, error) || !need_directory (new_parent, error))
    return FALSE;
  parent = mshed_utf_node_get_parent (node);
  path = mshed_utf_node_dup_path (node);
  if (parent == NULL || mshed_utf_node_is_ancestor (node, new_parent))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("The UTF entry %s cannot be moved into itself"), path);
      return FALSE;
    }
  if (new_parent != parent &&
      !mshed_utf_check_child_name (new_parent, mshed_utf_node_get_name (node), NULL, error))
    return FALSE;
  n = mshed_utf_node_get_n_children (new_parent) - (new_parent == parent ? 1 : 0);
  index = MIN (index, n);
  if (new_parent == parent && index == mshed_utf_node_get_index (node))
    return TRUE;
  label = g_strdup_printf (_("Move %s"), path);
  tree_order_read (self, &order);
  _mshed_document_op_begin (self, label, 0);
  mark_tree_edit (self, node, parent, label);
  _mshed_document_record (self, mshed_command_new_utf_move (node, new_parent, index));
  mark_tree_edit (self, node, new_parent, label);
  follow_tree_edit (self, &order);
  _mshed_document_op_end (self);
  return TRUE;
}

/* DFM typed edits ------------------------------------------------------------------------ */

static const MshedDfmTableInfo *
typed_node (MshedDocument *self,
            MshedUtfNode  *node,
            GError       **error)
{
  MshedDfmTable table;
  g_autofree char *path = NULL;

  if (!need_utf (self, error) || !need_file (node, error))
    return NULL;
  table = self->dfm ? mshed_dfm_schema_table_for_node (node) : MSHED_DFM_TABLE_NONE;
  if (table != MSHED_DFM_TABLE_NONE)
    return mshed_dfm_schema_get_table (table);
  path = mshed_utf_node_dup_path (node);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
               _("%s is not a typed table of a deformable model (docs/dfm.md §2)"), path);
  return NULL;
}

/* A name field of a Cons record: record @record of @node, parent or child. */
typedef struct {
  MshedUtfNode *node;
  guint         record;
  gboolean      child;
} JointName;

/* The Cons name fields that hold the object name @old (up to its NUL, ignoring case like
 * the part lookup, docs/dfm.md §8). */
static GArray *
joints_naming (MshedDocument *self,
               const guint8  *old,
               gsize          old_size)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (JointName));
  g_autofree char *name = g_strndup ((const char *) old, old_size);

  if (self->dfm == NULL || name[0] == '\0')
    return found;
  for (guint j = 0; j < mshed_dfm_get_n_joints (self->dfm); j++)
    {
      MshedDfmJoint joint;

      if (!mshed_dfm_get_joint (self->dfm, j, &joint))
        continue;
      for (guint side = 0; side < 2; side++)
        if (g_ascii_strcasecmp (side ? joint.child : joint.parent, name) == 0)
          {
            JointName n = { joint.node, joint.record, side == 1 };

            g_array_append_val (found, n);
          }
    }
  return found;
}

gboolean
mshed_document_dfm_set_field (MshedDocument *self,
                              MshedUtfNode  *node,
                              guint          row,
                              const char    *field,
                              const char    *text,
                              GError       **error)
{
  const MshedDfmTableInfo *info = typed_node (self, node, error);
  g_autofree char *path = NULL;
  g_autofree char *label = NULL;
  g_autoptr(GArray) joints = NULL;
  gsize size = 0;
  const guint8 *data;
  guint n_rows;

  if (info == NULL)
    return FALSE;
  path = mshed_utf_node_dup_path (node);
  data = mshed_utf_node_peek_data (node, &size);
  n_rows = info->stride ? (guint) (size / info->stride) : 1;
  if (row >= n_rows)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("%s: record %u does not exist (it has %u)"), path, row, n_rows);
      return FALSE;
    }
  label = g_strdup_printf (_("Edit %s[%u].%s"), path, row, field ? field : "value");

  if (info->stride == 0)
    {
      g_autoptr(GBytes) bytes = NULL;

      if (field != NULL && strcmp (field, "value") != 0 && strcmp (field, "text") != 0)
        goto no_field;
      bytes = encode_string (data, size, text, error);
      if (bytes == NULL)
        {
          g_prefix_error (error, "%s: ", path);
          return FALSE;
        }
      if (info->id == MSHED_DFM_TABLE_OBJECT_NAME)
        joints = joints_naming (self, data, size);
      _mshed_document_op_begin (self, label, 0);
      utf_replace_payload (self, node, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      /* the constraints name the part by its Object name (docs/dfm.md §9.1) */
      for (guint i = 0; joints && i < joints->len; i++)
        {
          const JointName *j = &g_array_index (joints, JointName, i);
          const MshedDfmTableInfo *cons =
            mshed_dfm_schema_get_table (mshed_dfm_schema_table_for_node (j->node));
          const MshedDfmTextField *tf = &cons->texts[j->child ? 1 : 0];
          g_autofree guint8 *buf = g_malloc0 (tf->size);
          gsize len = MIN (g_bytes_get_size (bytes), tf->size - 1);

          memcpy (buf, g_bytes_get_data (bytes, NULL), len);
          utf_splice_full (self, j->node, (gsize) j->record * cons->stride + tf->offset,
                           tf->size, buf, tf->size, FALSE);
        }
      _mshed_document_op_end (self);
      return TRUE;
    }

  for (guint t = 0; field && t < info->n_texts; t++)
    if (strcmp (info->texts[t].name, field) == 0)
      {
        g_autoptr(GBytes) bytes = mshed_utf8_to_cp1251 (text, error);
        g_autofree guint8 *buf = g_malloc0 (info->texts[t].size);
        gsize len = 0;

        if (bytes == NULL)
          {
            g_prefix_error (error, "%s[%u].%s: ", path, row, field);
            return FALSE;
          }
        len = g_bytes_get_size (bytes);
        if (len >= info->texts[t].size)
          {
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                         _("%s[%u].%s: a name of %zu bytes does not fit in %u with its NUL"),
                         path, row, field, len, info->texts[t].size);
            return FALSE;
          }
        memcpy (buf, g_bytes_get_data (bytes, NULL), len);
        _mshed_document_op_begin (self, label, 0);
        utf_splice (self, node, (gsize) row * info->stride + info->texts[t].offset,
                    info->texts[t].size, buf, info->texts[t].size);
        _mshed_document_op_end (self);
        return TRUE;
      }

  {
    const MshedField *f = field ? mshed_dfm_schema_find_field (info, field) : NULL;
    double value;
    gsize at;

    if (f == NULL)
      goto no_field;
    if (!mshed_field_parse (f, text, &value, error))
      {
        g_prefix_error (error, "%s[%u].%s: ", path, row, field);
        return FALSE;
      }
    at = (gsize) row * info->stride;
    {
      g_autofree guint8 *rec = g_memdup2 (data + at, info->stride);

      mshed_field_write (f, rec, value);
      _mshed_document_op_begin (self, label, (guint64) (gsize) node ^ ((guint64) row << 32) ^
                                (guint64) f->offset);
      utf_splice (self, node, at + f->offset, mshed_field_type_size (f->type), rec + f->offset,
                  mshed_field_type_size (f->type));
      _mshed_document_op_end (self);
    }
    return TRUE;
  }

no_field:
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
               _("%s has no field “%s” (table %s)"), path, field ? field : "", info->name);
  return FALSE;
}

gboolean
mshed_document_dfm_set_triangles (MshedDocument *self,
                                  guint          level,
                                  guint          group,
                                  const guint16 *triangles,
                                  gsize          n_triangles,
                                  GError       **error)
{
  g_autofree char *label = NULL;

  if (!need_utf (self, error))
    return FALSE;
  label = g_strdup_printf (_("Edit the triangles of Mesh%u group %u"), level, group);
  return _mshed_document_dfm_write_triangles (self, level, group, triangles, n_triangles, label,
                                              error);
}

/* Recompute (docs/dfm.md §15.1) -------------------------------------------------------------- */

/* Each DFM target, the table that holds it and how many rows (scope indices) it has. */
static const struct {
  MshedDerived  target;
  MshedDfmTable table;
} dfm_targets[] = {
  { MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_DFM_TABLE_GROUP_COUNT },
  { MSHED_DERIVED_DFM_UV_VERTEX_COUNT, MSHED_DFM_TABLE_UV_VERTEX_COUNT },
  { MSHED_DERIVED_DFM_PART_INDEX, MSHED_DFM_TABLE_PART_INDEX },
  { MSHED_DERIVED_DFM_MATERIAL_COUNT, MSHED_DFM_TABLE_MATERIAL_COUNT },
  { MSHED_DERIVED_DFM_LOD_BITS, MSHED_DFM_TABLE_LOD_BITS },
  { MSHED_DERIVED_DFM_FRACTIONS, MSHED_DFM_TABLE_FRACTIONS },
  { MSHED_DERIVED_DFM_VERTEX_NORMALS, MSHED_DFM_TABLE_VERTEX_NORMALS },
  { MSHED_DERIVED_DFM_BONE_TO_ROOT, MSHED_DFM_TABLE_BONE_TO_ROOT },
};

static guint
scope_count (const MshedDfm *dfm,
             MshedDfmTable   table)
{
  switch (mshed_dfm_schema_get_table (table)->scope)
    {
    case MSHED_DFM_SCOPE_FACE_GROUPS:
    case MSHED_DFM_SCOPE_GEOMETRY:
      return mshed_dfm_get_n_levels (dfm);
    case MSHED_DFM_SCOPE_PART:
      return mshed_dfm_get_n_parts (dfm);
    case MSHED_DFM_SCOPE_BONE:
      return mshed_dfm_get_n_bones (dfm);
    default:
      return 1;
    }
}

typedef struct {
  MshedUtfNode *node;
  GBytes       *bytes;
} Pending;

static void
pending_clear (gpointer data)
{
  Pending *p = data;

  g_clear_pointer (&p->bytes, g_bytes_unref);
}

/* Every payload is computed first, so that a target that cannot be recomputed changes
 * nothing; then they are written and the matching stale rows cleared. A row whose file is
 * absent (a bone without Lod Bits, which reads as 0) is left as it is. */
gboolean
_mshed_document_dfm_recompute (MshedDocument *self,
                               MshedDerived   what,
                               const guint   *rows,
                               guint          n_rows,
                               GError       **error)
{
  g_autoptr(GArray) pending = g_array_new (FALSE, TRUE, sizeof (Pending));

  g_array_set_clear_func (pending, pending_clear);
  if (self->dfm == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("%s is not a deformable model: it has no derived data"),
                   mshed_document_get_title (self));
      return FALSE;
    }
  if ((what & MSHED_DERIVED_DFM) == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Nothing to recompute: %s is a deformable model, not a Parkan model"),
                   mshed_document_get_title (self));
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (dfm_targets); i++)
    {
      guint n = scope_count (self->dfm, dfm_targets[i].table);

      if (!(what & dfm_targets[i].target))
        continue;
      for (guint k = 0; k < (rows ? n_rows : n); k++)
        {
          guint a = rows ? rows[k] : k;
          MshedUtfNode *node = a < n ? mshed_dfm_find_node (self->dfm, dfm_targets[i].table, a, 0)
                                     : NULL;
          Pending p = { node, NULL };

          if (node == NULL)
            continue;
          p.bytes = mshed_dfm_compute_derived (self->dfm, dfm_targets[i].table, a, error);
          if (p.bytes == NULL)
            return FALSE;
          g_array_append_val (pending, p);
        }
    }
  for (guint i = 0; i < pending->len; i++)
    {
      Pending *p = &g_array_index (pending, Pending, i);

      utf_replace_payload_full (self, p->node, g_bytes_get_data (p->bytes, NULL),
                                g_bytes_get_size (p->bytes), FALSE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (dfm_targets); i++)
    if (what & dfm_targets[i].target)
      _mshed_document_unmark (self, dfm_targets[i].target, -1, rows, rows ? n_rows : 0);
  return TRUE;
}
