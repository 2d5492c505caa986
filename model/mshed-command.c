/* mshed-command.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-command"

#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-command.h"

G_DEFINE_BOXED_TYPE (MshedCommand, mshed_command, mshed_command_copy, mshed_command_free)

static MshedCommand *
command_alloc (MshedCommandKind kind,
               guint            res_index)
{
  MshedCommand *self = g_new0 (MshedCommand, 1);

  self->kind = kind;
  self->res_index = res_index;
  return self;
}

/**
 * mshed_command_new_splice:
 * @old_bytes: (transfer none): the bytes at @offset before the change
 * @new_bytes: (transfer none): the bytes there after it
 *
 * Returns: (transfer full): the command
 */
MshedCommand *
mshed_command_new_splice (guint   res_index,
                          gsize   offset,
                          GBytes *old_bytes,
                          GBytes *new_bytes)
{
  MshedCommand *self = command_alloc (MSHED_COMMAND_SPLICE, res_index);

  self->offset = offset;
  self->old_bytes = g_bytes_ref (old_bytes);
  self->new_bytes = g_bytes_ref (new_bytes);
  return self;
}

MshedCommand *
mshed_command_new_directory (guint                   res_index,
                             const MshedEntryHeader *old_header,
                             const MshedEntryHeader *new_header)
{
  MshedCommand *self = command_alloc (MSHED_COMMAND_DIRECTORY, res_index);

  self->old_header = *old_header;
  self->new_header = *new_header;
  return self;
}

MshedCommand *
mshed_command_new_insert_entry (guint                   res_index,
                                const MshedEntryHeader *header,
                                GBytes                 *payload)
{
  MshedCommand *self = command_alloc (MSHED_COMMAND_INSERT_ENTRY, res_index);

  self->new_header = *header;
  self->new_bytes = g_bytes_ref (payload);
  return self;
}

MshedCommand *
mshed_command_new_remove_entry (guint                   res_index,
                                const MshedEntryHeader *header,
                                GBytes                 *payload)
{
  MshedCommand *self = command_alloc (MSHED_COMMAND_REMOVE_ENTRY, res_index);

  self->old_header = *header;
  self->old_bytes = g_bytes_ref (payload);
  return self;
}

/**
 * mshed_command_new_custom:
 * @data: (transfer full): owner-defined data, freed with @data_free
 */
MshedCommand *
mshed_command_new_custom (gpointer       data,
                          GDestroyNotify data_free,
                          gsize          data_size)
{
  MshedCommand *self = command_alloc (MSHED_COMMAND_CUSTOM, 0);

  self->data = data;
  self->data_free = data_free;
  self->data_size = data_size;
  return self;
}

/* UTF ------------------------------------------------------------------------------------ */

/* Who owns the subtree of a UTF_INSERT / UTF_REMOVE: the tree while it is in it, the command
 * while it is out. */
typedef struct {
  MshedUtfNode *subtree;
  gboolean      owned;
} UtfHold;

static void
utf_hold_free (gpointer data)
{
  UtfHold *hold = data;

  if (hold->owned)
    mshed_utf_node_free (hold->subtree);
  g_free (hold);
}

static MshedCommand *
utf_alloc (MshedCommandKind kind,
           MshedUtfNode    *node)
{
  MshedCommand *self = command_alloc (kind, 0);

  self->node = node;
  return self;
}

MshedCommand *
mshed_command_new_utf_splice (MshedUtfNode *node,
                              gsize         offset,
                              GBytes       *old_bytes,
                              GBytes       *new_bytes)
{
  MshedCommand *self = utf_alloc (MSHED_COMMAND_SPLICE, node);

  self->offset = offset;
  self->old_bytes = g_bytes_ref (old_bytes);
  self->new_bytes = g_bytes_ref (new_bytes);
  return self;
}

MshedCommand *
mshed_command_new_utf_rename (MshedUtfNode *node,
                              const char   *old_name,
                              const char   *new_name)
{
  MshedCommand *self = utf_alloc (MSHED_COMMAND_UTF_RENAME, node);

  self->old_bytes = g_bytes_new (old_name, strlen (old_name));
  self->new_bytes = g_bytes_new (new_name, strlen (new_name));
  return self;
}

static MshedCommand *
utf_subtree_command (MshedCommandKind kind,
                     MshedUtfNode    *node,
                     MshedUtfNode    *parent,
                     guint            index,
                     gboolean         owned)
{
  MshedCommand *self = utf_alloc (kind, node);
  UtfHold *hold = g_new0 (UtfHold, 1);

  hold->subtree = node;
  hold->owned = owned;
  self->parent = parent;
  self->index = index;
  self->data = hold;
  self->data_free = utf_hold_free;
  self->data_size = sizeof *hold;
  return self;
}

/**
 * mshed_command_new_utf_insert:
 * @subtree: (transfer full): a subtree in no tree (mshed_utf_node_new_*, or taken out)
 */
MshedCommand *
mshed_command_new_utf_insert (MshedUtfNode *parent,
                              guint         index,
                              MshedUtfNode *subtree)
{
  return utf_subtree_command (MSHED_COMMAND_UTF_INSERT, subtree, parent, index, TRUE);
}

MshedCommand *
mshed_command_new_utf_remove (MshedUtfNode *node)
{
  return utf_subtree_command (MSHED_COMMAND_UTF_REMOVE, node, mshed_utf_node_get_parent (node),
                              mshed_utf_node_get_index (node), FALSE);
}

MshedCommand *
mshed_command_new_utf_move (MshedUtfNode *node,
                            MshedUtfNode *new_parent,
                            guint         new_index)
{
  MshedCommand *self = utf_alloc (MSHED_COMMAND_UTF_MOVE, node);

  self->parent = mshed_utf_node_get_parent (node);
  self->index = mshed_utf_node_get_index (node);
  self->new_parent = new_parent;
  self->new_index = new_index;
  return self;
}

static char *
bytes_to_name (GBytes *bytes)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);

  return g_strndup (data, len);
}

static gboolean
apply_utf_splice (MshedUtf     *utf,
                  MshedUtfNode *node,
                  gsize         offset,
                  GBytes       *remove,
                  GBytes       *insert)
{
  gsize size = 0, rlen = g_bytes_get_size (remove), ilen = 0;
  const guint8 *cur = mshed_utf_node_peek_data (node, &size);
  const guint8 *idata = g_bytes_get_data (insert, &ilen);
  g_autoptr(GBytes) old = NULL;
  guint8 *buf;

  if (mshed_utf_node_is_directory (node) || !mshed_range_ok (offset, rlen, size))
    {
      g_critical ("splice of a UTF entry at %zu+%zu outside its %zu bytes", offset, rlen, size);
      return FALSE;
    }
  buf = g_malloc (size - rlen + ilen + 1);
  if (offset > 0)
    memcpy (buf, cur, offset);
  if (ilen > 0)
    memcpy (buf + offset, idata, ilen);
  if (size > offset + rlen)
    memcpy (buf + offset + ilen, cur + offset + rlen, size - offset - rlen);
  {
    g_autoptr(GBytes) data = g_bytes_new_take (buf, size - rlen + ilen);

    old = mshed_utf_set_data (utf, node, data);
  }
  return TRUE;
}

/**
 * mshed_command_apply_utf:
 * @utf: the container the command was recorded on
 * @reverse: undo instead of do
 */
gboolean
mshed_command_apply_utf (const MshedCommand *self,
                         MshedUtf           *utf,
                         gboolean            reverse)
{
  switch (self->kind)
    {
    case MSHED_COMMAND_SPLICE:
      g_return_val_if_fail (self->node != NULL, FALSE);
      return apply_utf_splice (utf, self->node, self->offset,
                               reverse ? self->new_bytes : self->old_bytes,
                               reverse ? self->old_bytes : self->new_bytes);

    case MSHED_COMMAND_UTF_RENAME:
      {
        g_autofree char *name = bytes_to_name (reverse ? self->old_bytes : self->new_bytes);

        g_free (mshed_utf_rename (utf, self->node, name));
        return TRUE;
      }

    case MSHED_COMMAND_UTF_INSERT:
    case MSHED_COMMAND_UTF_REMOVE:
      {
        UtfHold *hold = self->data;
        gboolean insert = (self->kind == MSHED_COMMAND_UTF_INSERT) != reverse;

        g_return_val_if_fail (hold != NULL && hold->owned == insert, FALSE);
        if (insert)
          {
            if (!mshed_utf_insert_child (utf, self->parent, self->index, hold->subtree, NULL))
              {
                g_critical ("a UTF subtree no longer fits where it was recorded");
                return FALSE;
              }
            hold->owned = FALSE;
          }
        else
          {
            mshed_utf_remove (utf, hold->subtree, NULL, NULL);
            hold->owned = TRUE;
          }
        return TRUE;
      }

    case MSHED_COMMAND_UTF_MOVE:
      if (!mshed_utf_move (utf, self->node, reverse ? self->parent : self->new_parent,
                           reverse ? self->index : self->new_index, NULL, NULL, NULL))
        {
          g_critical ("a UTF move no longer fits the tree it was recorded on");
          return FALSE;
        }
      return TRUE;

    case MSHED_COMMAND_CUSTOM:
    case MSHED_COMMAND_UTF_REPLACE:
      return TRUE;

    default:
      g_critical ("an NRes command applied to a UTF container");
      return FALSE;
    }
}

MshedPayloadRef
mshed_command_get_payload (const MshedCommand *self)
{
  if (self->node != NULL)
    return MSHED_PAYLOAD_UTF (self->node);
  return MSHED_PAYLOAD_NRES (self->res_index);
}

/* The document swaps its whole UTF state with @data (a reload). */
MshedCommand *
mshed_command_new_utf_replace (gpointer       data,
                               GDestroyNotify data_free,
                               gsize          data_size)
{
  MshedCommand *self = mshed_command_new_custom (data, data_free, data_size);

  self->kind = MSHED_COMMAND_UTF_REPLACE;
  return self;
}

/* Custom data cannot be copied generically; the copy shares nothing and carries none. */
MshedCommand *
mshed_command_copy (const MshedCommand *self)
{
  MshedCommand *copy = g_memdup2 (self, sizeof *self);

  if (copy->old_bytes)
    g_bytes_ref (copy->old_bytes);
  if (copy->new_bytes)
    g_bytes_ref (copy->new_bytes);
  copy->data = NULL;
  copy->data_free = NULL;
  copy->data_size = 0;
  return copy;
}

void
mshed_command_free (MshedCommand *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->old_bytes, g_bytes_unref);
  g_clear_pointer (&self->new_bytes, g_bytes_unref);
  if (self->data_free && self->data)
    self->data_free (self->data);
  g_free (self);
}

void
mshed_entry_header_get (const MshedNresEntry *entry,
                        MshedEntryHeader     *out)
{
  out->type_id = entry->type_id;
  out->attr1 = entry->attr1;
  out->attr2 = entry->attr2;
  out->attr3 = entry->attr3;
  memcpy (out->name, entry->name, MSHED_NRES_NAME_SIZE);
}

void
mshed_entry_header_set (MshedNresEntry         *entry,
                        const MshedEntryHeader *header)
{
  entry->type_id = header->type_id;
  entry->attr1 = header->attr1;
  entry->attr2 = header->attr2;
  entry->attr3 = header->attr3;
  memcpy (entry->name, header->name, MSHED_NRES_NAME_SIZE);
}

static void
apply_header (MshedNres              *nres,
              guint                   index,
              const MshedEntryHeader *header)
{
  MshedNresEntry *e = mshed_nres_get_entry (nres, index);

  if (memcmp (e->name, header->name, MSHED_NRES_NAME_SIZE) != 0)
    {
      /* through the setter so the writer knows the sort table must be rebuilt; then the
       * raw 36 bytes (a name may carry bytes after its terminator) */
      char plain[MSHED_NRES_NAME_SIZE];

      memcpy (plain, header->name, MSHED_NRES_NAME_SIZE);
      plain[MSHED_NRES_NAME_SIZE - 1] = '\0';
      mshed_nres_set_name (nres, index, plain, NULL);
    }
  mshed_entry_header_set (e, header);
  mshed_nres_touch (nres, index);
}

static gboolean
apply_splice (MshedNres *nres,
              guint      index,
              gsize      offset,
              GBytes    *remove,
              GBytes    *insert)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (nres, index);
  gsize rlen = g_bytes_get_size (remove);
  gsize ilen = 0;
  const guint8 *idata = g_bytes_get_data (insert, &ilen);

  if (!mshed_range_ok (offset, rlen, mshed_nres_entry_get_size (e)))
    {
      g_critical ("splice of resource %u at %zu+%zu outside its %zu bytes", index, offset, rlen,
                  mshed_nres_entry_get_size (e));
      return FALSE;
    }
  mshed_nres_entry_splice (nres, index, offset, rlen, idata, ilen);
  if (rlen != ilen)
    mshed_nres_layout (nres);
  return TRUE;
}

/**
 * mshed_command_apply:
 * @nres: the container the command was recorded on
 * @reverse: undo instead of do
 */
gboolean
mshed_command_apply (const MshedCommand *self,
                     MshedNres          *nres,
                     gboolean            reverse)
{
  guint n = mshed_nres_get_n_entries (nres);

  switch (self->kind)
    {
    case MSHED_COMMAND_SPLICE:
      g_return_val_if_fail (self->res_index < n, FALSE);
      if (reverse)
        return apply_splice (nres, self->res_index, self->offset, self->new_bytes,
                             self->old_bytes);
      return apply_splice (nres, self->res_index, self->offset, self->old_bytes,
                           self->new_bytes);

    case MSHED_COMMAND_DIRECTORY:
      g_return_val_if_fail (self->res_index < n, FALSE);
      apply_header (nres, self->res_index, reverse ? &self->old_header : &self->new_header);
      return TRUE;

    case MSHED_COMMAND_INSERT_ENTRY:
    case MSHED_COMMAND_REMOVE_ENTRY:
      {
        gboolean insert = (self->kind == MSHED_COMMAND_INSERT_ENTRY) != reverse;

        if (insert)
          {
            const MshedEntryHeader *h = self->kind == MSHED_COMMAND_INSERT_ENTRY
                                          ? &self->new_header : &self->old_header;
            GBytes *payload = self->kind == MSHED_COMMAND_INSERT_ENTRY
                                ? self->new_bytes : self->old_bytes;
            MshedNresEntry templ = { 0 };

            g_return_val_if_fail (self->res_index <= n, FALSE);
            mshed_entry_header_set (&templ, h);
            mshed_nres_insert_entry (nres, self->res_index, &templ, payload);
          }
        else
          {
            g_return_val_if_fail (self->res_index < n, FALSE);
            mshed_nres_remove_entry (nres, self->res_index);
          }
        return TRUE;
      }

    case MSHED_COMMAND_CUSTOM:
    default:
      return TRUE;
    }
}

gsize
mshed_command_get_memory_size (const MshedCommand *self)
{
  /* a GBytes is about 48 bytes of bookkeeping plus its data */
  gsize size = sizeof *self;

  if (self->old_bytes)
    size += 48 + g_bytes_get_size (self->old_bytes);
  if (self->new_bytes)
    size += 48 + g_bytes_get_size (self->new_bytes);
  return size + self->data_size;
}
