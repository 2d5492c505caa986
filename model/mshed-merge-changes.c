/* mshed-merge-changes.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The changes a merge takes without asking (mshed-merge-changes.h, docs/diff.md §5.5).
 */
#define G_LOG_DOMAIN "mshed-merge"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-merge-changes.h"

struct _MshedMergeChanges {
  MshedDiff *diffs[2];   /* BASE → MINE, BASE → THEIRS */
  GArray    *changes;    /* MshedMergeChange */
};

void
mshed_merge_changes_free (MshedMergeChanges *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->diffs[0], mshed_diff_free);
  g_clear_pointer (&self->diffs[1], mshed_diff_free);
  g_array_unref (self->changes);
  g_free (self);
}

static gboolean
same_path (const char *a,
           const char *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_ascii_strcasecmp (a, b) == 0;
}

static gboolean
path_under (const char *path,
            const char *dir)
{
  gsize n = strlen (dir);

  return path != NULL && g_ascii_strncasecmp (path, dir, n) == 0 &&
         (path[n] == '\0' || path[n] == '/' || (n > 0 && dir[n - 1] == '/'));
}

/* Whether conflict @c is about the unit @item names (the item is BASE against one side). */
static gboolean
covered (const MshedMergeConflict *c,
         const MshedDiffItem      *item)
{
  switch (c->kind)
    {
    case MSHED_MERGE_CONFLICT_FIELD:
    case MSHED_MERGE_CONFLICT_TEXT:
    case MSHED_MERGE_CONFLICT_ATTRIBUTE:
      return (item->kind == MSHED_DIFF_FIELD || item->kind == MSHED_DIFF_TEXT) &&
             item->table == c->table && item->row_a == c->row &&
             g_strcmp0 (item->field, c->field) == 0 && same_path (item->path, c->path);
    case MSHED_MERGE_CONFLICT_BYTES:
      return item->kind == MSHED_DIFF_BYTES && item->table == c->table &&
             item->res_type == c->res_type && same_path (item->path, c->path) &&
             item->offset < c->offset + c->length && c->offset < item->offset + item->length_a;
    case MSHED_MERGE_CONFLICT_RESOURCE:
    default:
      if (c->path != NULL)
        return path_under (item->path, c->path);
      return item->path == NULL && item->res_type == c->res_type;
    }
}

static gboolean
is_covered (const MshedMerge    *merge,
            const MshedDiffItem *item)
{
  for (guint i = 0; i < mshed_merge_get_n_conflicts (merge); i++)
    if (covered (mshed_merge_get_conflict (merge, i), item))
      return TRUE;
  return FALSE;
}

/* File order: the table (resources in file order come first), then the row, then the offset. */
static int
change_cmp (gconstpointer pa,
            gconstpointer pb)
{
  const MshedDiffItem *a = ((const MshedMergeChange *) pa)->item;
  const MshedDiffItem *b = ((const MshedMergeChange *) pb)->item;
  guint ra = a->row_a != MSHED_DIFF_NO_ROW ? a->row_a : a->row_b;
  guint rb = b->row_a != MSHED_DIFF_NO_ROW ? b->row_a : b->row_b;

  if (a->table != b->table)
    return a->table < b->table ? -1 : 1;
  if (ra != rb)
    return ra < rb ? -1 : 1;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/**
 * mshed_merge_changes_new:
 * @merge: the plan of the three documents (its conflicts are left out)
 *
 * Returns: (transfer full) (nullable): the changes, NULL with @error when the documents
 *   cannot be diffed
 */
MshedMergeChanges *
mshed_merge_changes_new (const MshedMerge  *merge,
                         MshedDocument     *base,
                         MshedDocument     *mine,
                         MshedDocument     *theirs,
                         GError           **error)
{
  g_autoptr(MshedMergeChanges) self = g_new0 (MshedMergeChanges, 1);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (merge != NULL, NULL);

  self->changes = g_array_new (FALSE, TRUE, sizeof (MshedMergeChange));
  self->diffs[0] = mshed_diff_documents (base, mine, NULL, error);
  if (self->diffs[0] == NULL)
    return NULL;
  self->diffs[1] = mshed_diff_documents (base, theirs, NULL, error);
  if (self->diffs[1] == NULL)
    return NULL;
  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i < mshed_diff_get_n_items (self->diffs[s]); i++)
      {
        const MshedDiffItem *item = mshed_diff_get_item (self->diffs[s], i);
        MshedMergeChange change = { s == 0 ? MSHED_MERGE_FROM_MINE : MSHED_MERGE_FROM_THEIRS,
                                    item };
        g_autofree char *line = NULL;
        gpointer index;

        if (item->kind == MSHED_DIFF_GEOMETRY || is_covered (merge, item))
          continue;
        line = mshed_diff_item_format (item);
        if (g_hash_table_lookup_extended (seen, line, NULL, &index))
          {
            /* the same change on both sides */
            g_array_index (self->changes, MshedMergeChange,
                           GPOINTER_TO_UINT (index)).origin |= change.origin;
            continue;
          }
        g_hash_table_insert (seen, g_steal_pointer (&line), GUINT_TO_POINTER (self->changes->len));
        g_array_append_val (self->changes, change);
      }
  g_array_sort (self->changes, change_cmp);
  return g_steal_pointer (&self);
}

guint
mshed_merge_changes_get_n (const MshedMergeChanges *self)
{
  return self->changes->len;
}

const MshedMergeChange *
mshed_merge_changes_get (const MshedMergeChanges *self,
                         guint                    index)
{
  g_return_val_if_fail (index < self->changes->len, NULL);
  return &g_array_index (self->changes, MshedMergeChange, index);
}

char *
mshed_merge_change_format (const MshedMergeChange *change)
{
  g_autofree char *line = mshed_diff_item_format (change->item);
  const char *from = change->origin == MSHED_MERGE_FROM_BOTH ? _("both")
                     : change->origin == MSHED_MERGE_FROM_MINE ? _("mine") : _("theirs");

  /* translators: a change the merge takes: the side it comes from, then the difference */
  return g_strdup_printf (_("%s: %s"), from, line);
}
