/* mshed-utf-clip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-model"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-error.h"
#include "mshed-utf-clip.h"
#include "mshed-utf-private.h"

#define NAME_MAX_BYTES 255u

/**
 * mshed_utf_node_copy:
 *
 * Returns: (transfer full): a detached copy of @node's subtree
 */
MshedUtfNode *
mshed_utf_node_copy (const MshedUtfNode *node)
{
  MshedUtfNode *copy;

  g_return_val_if_fail (node != NULL, NULL);

  if (node->is_dir)
    copy = _mshed_utf_node_alloc (TRUE, node->name, NULL);
  else if (node->data != NULL)
    copy = _mshed_utf_node_alloc (FALSE, node->name, node->data);
  else
    {
      /* a read-only parse keeps the payload in the source: copy it out */
      g_autoptr(GBytes) data = g_bytes_new (node->peek, node->peek_len);

      copy = _mshed_utf_node_alloc (FALSE, node->name, data);
    }
  copy->attributes = node->attributes;
  copy->sharing = node->sharing;
  memcpy (copy->times, node->times, sizeof copy->times);
  for (const MshedUtfNode *c = node->first_child; c != NULL; c = c->next)
    _mshed_utf_append_child (copy, mshed_utf_node_copy (c));
  return copy;
}

GBytes *
mshed_utf_clip_serialize (MshedUtfNode *const *nodes,
                          guint               n_nodes,
                          GError            **error)
{
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);

  g_return_val_if_fail (nodes != NULL || n_nodes == 0, NULL);

  for (guint i = 0; i < n_nodes; i++)
    {
      g_autoptr(MshedUtfNode) copy = NULL;

      if (mshed_utf_node_get_parent (nodes[i]) == NULL)
        {
          g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                               _("The UTF root directory cannot be copied"));
          return NULL;
        }
      copy = mshed_utf_node_copy (nodes[i]);
      /* two copied nodes of one name: the second one is renamed as a paste would */
      if (mshed_utf_node_lookup (root, copy->name) != NULL)
        {
          g_free (copy->name);
          copy->name = mshed_utf_clip_free_name (root, nodes[i]->name);
        }
      if (!mshed_utf_insert_child (utf, root, G_MAXUINT, copy, error))
        return NULL;
      copy = NULL;  /* the tree has it */
    }
  return mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, error);
}

/**
 * mshed_utf_clip_parse:
 *
 * Returns: (transfer full) (element-type MshedUtfNode): the subtrees, or NULL with @error
 */
GPtrArray *
mshed_utf_clip_parse (GBytes  *bytes,
                      GError **error)
{
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GError) local = NULL;
  GPtrArray *nodes;
  MshedUtfNode *root;

  if (bytes == NULL ||
      (utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, NULL, &local)) == NULL ||
      mshed_utf_node_get_first_child (root = mshed_utf_get_root (utf)) == NULL)
    {
      if (local != NULL)
        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                     _("The clipboard holds no usable UTF subtree: %s"), local->message);
      else
        g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                             _("The clipboard holds no usable UTF subtree"));
      return NULL;
    }
  nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_utf_node_free);
  for (MshedUtfNode *c = mshed_utf_node_get_first_child (root); c != NULL;
       c = mshed_utf_node_get_next (c))
    g_ptr_array_add (nodes, mshed_utf_node_copy (c));
  return nodes;
}

char *
mshed_utf_clip_dup_text (MshedUtfNode *const *nodes,
                         guint               n_nodes)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n_nodes; i++)
    for (MshedUtfNode *n = nodes[i]; n != NULL; n = mshed_utf_node_next_preorder (n, nodes[i]))
      {
        g_autofree char *path = mshed_utf_node_dup_path (n);
        g_autofree char *shown = mshed_utf_name_to_display (path);

        g_string_append (text, shown);
        /* a directory ends in a backslash: the listing tells the kinds apart */
        if (mshed_utf_node_is_directory (n))
          g_string_append_c (text, '\\');
        g_string_append_c (text, '\n');
      }
  return g_string_free (text, FALSE);
}

char *
mshed_utf_clip_free_name (const MshedUtfNode *dir,
                          const char         *name)
{
  g_return_val_if_fail (dir != NULL && name != NULL, NULL);

  if (mshed_utf_node_lookup (dir, name) == NULL)
    return g_strdup (name);
  for (guint i = 2; ; i++)
    {
      g_autofree char *suffix = g_strdup_printf (" (%u)", i);
      gsize keep = MIN (strlen (name), NAME_MAX_BYTES - strlen (suffix));
      g_autofree char *cut = g_strndup (name, keep);
      char *cand = g_strconcat (cut, suffix, NULL);

      if (mshed_utf_node_lookup (dir, cand) == NULL)
        return cand;
      g_free (cand);
    }
}

gboolean
mshed_utf_clip_paste (MshedDocument *document,
                      MshedUtfNode  *target,
                      GBytes        *clip,
                      GPtrArray    **out_nodes,
                      GError       **error)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (target != NULL, FALSE);

  if (mshed_utf_node_is_directory (target))
    return mshed_utf_clip_paste_at (document, target, G_MAXUINT, clip, out_nodes, error);
  return mshed_utf_clip_paste_at (document, mshed_utf_node_get_parent (target),
                                  mshed_utf_node_get_index (target) + 1, clip, out_nodes, error);
}

gboolean
mshed_utf_clip_paste_at (MshedDocument *document,
                         MshedUtfNode  *parent,
                         guint          index,
                         GBytes        *clip,
                         GPtrArray    **out_nodes,
                         GError       **error)
{
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GPtrArray) inserted = g_ptr_array_new ();
  g_autofree char *label = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (parent != NULL && mshed_utf_node_is_directory (parent), FALSE);

  if (mshed_document_get_utf (document) == NULL)
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                           _("Only a UTF file can take a pasted UTF subtree"));
      return FALSE;
    }
  nodes = mshed_utf_clip_parse (clip, error);
  if (nodes == NULL)
    return FALSE;
  if (index >= mshed_utf_node_get_n_children (parent))
    index = G_MAXUINT;
  /* translators: the undo step's name; %u is a count of UTF subtrees */
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Paste %u UTF subtree",
                                        "Paste %u UTF subtrees", nodes->len), nodes->len);
  mshed_document_begin_group (document, label);
  for (guint i = 0; i < nodes->len && ok; i++)
    {
      MshedUtfNode *node = g_ptr_array_steal_index (nodes, i);
      char *name = mshed_utf_clip_free_name (parent, node->name);

      g_free (node->name);
      node->name = name;
      g_ptr_array_insert (nodes, i, NULL);  /* keeps the indices; NULL frees nothing */
      ok = mshed_document_utf_insert (document, parent, index, node, error);
      if (ok)
        {
          g_ptr_array_add (inserted, node);
          if (index != G_MAXUINT)
            index++;
        }
    }
  mshed_document_end_group (document);
  if (!ok)
    {
      /* nothing half-done stays: the group is one step */
      if (inserted->len > 0)
        mshed_document_undo (document);
      return FALSE;
    }
  if (out_nodes != NULL)
    *out_nodes = g_steal_pointer (&inserted);
  return TRUE;
}
