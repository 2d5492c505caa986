/* mshed-selection.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-selection"

#include "config.h"

#include "mshed-selection.h"

G_DEFINE_BOXED_TYPE (MshedSelection, mshed_selection, mshed_selection_copy, mshed_selection_free)

MshedSelection *
mshed_selection_new (void)
{
  MshedSelection *self = g_new0 (MshedSelection, 1);

  self->nodes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->slots = g_array_new (FALSE, FALSE, sizeof (guint));
  self->batches = g_array_new (FALSE, FALSE, sizeof (guint));
  self->tris = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

static GArray *
dup_array (GArray *a)
{
  GArray *copy = g_array_sized_new (FALSE, FALSE, sizeof (guint), a->len);

  g_array_append_vals (copy, a->data, a->len);
  return copy;
}

MshedSelection *
mshed_selection_copy (const MshedSelection *self)
{
  MshedSelection *copy = g_new0 (MshedSelection, 1);

  copy->nodes = dup_array (self->nodes);
  copy->slots = dup_array (self->slots);
  copy->batches = dup_array (self->batches);
  copy->tris = dup_array (self->tris);
  return copy;
}

void
mshed_selection_free (MshedSelection *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->nodes);
  g_array_unref (self->slots);
  g_array_unref (self->batches);
  g_array_unref (self->tris);
  g_free (self);
}

void
mshed_selection_clear (MshedSelection *self)
{
  g_array_set_size (self->nodes, 0);
  g_array_set_size (self->slots, 0);
  g_array_set_size (self->batches, 0);
  g_array_set_size (self->tris, 0);
}

gboolean
mshed_selection_is_empty (const MshedSelection *self)
{
  return self->nodes->len == 0 && self->slots->len == 0 && self->batches->len == 0 &&
         self->tris->len == 0;
}

/**
 * mshed_selection_get_rows:
 *
 * Returns: (transfer none) (nullable): the sorted rows of @table (nodes, slots, batches or
 *   tris), NULL for other tables
 */
GArray *
mshed_selection_get_rows (const MshedSelection *self,
                          MshedTableId          table)
{
  switch (table)
    {
    case MSHED_TABLE_NODES:
      return self->nodes;
    case MSHED_TABLE_SLOTS:
      return self->slots;
    case MSHED_TABLE_BATCHES:
      return self->batches;
    case MSHED_TABLE_TRIS:
      return self->tris;
    default:
      return NULL;
    }
}

static gboolean
find (GArray *a,
      guint   v,
      guint  *pos)
{
  guint lo = 0, hi = a->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint x = g_array_index (a, guint, mid);

      if (x == v)
        {
          *pos = mid;
          return TRUE;
        }
      if (x < v)
        lo = mid + 1;
      else
        hi = mid;
    }
  *pos = lo;
  return FALSE;
}

/* Returns TRUE when @v was not there yet. */
static gboolean
insert (GArray *a,
        guint   v)
{
  guint pos;

  if (find (a, v, &pos))
    return FALSE;
  g_array_insert_val (a, pos, v);
  return TRUE;
}

gboolean
mshed_selection_contains (const MshedSelection *self,
                          MshedTableId          table,
                          guint                 row)
{
  GArray *a = mshed_selection_get_rows (self, table);
  guint pos;

  return a != NULL && find (a, row, &pos);
}

static void
add_slot_contents (MshedSelection   *self,
                   const MshedModel *model,
                   guint             slot)
{
  MshedSlot s;
  guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  guint n_tris = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);

  if (!insert (self->slots, slot) || !mshed_model_get_slot (model, slot, &s))
    return;
  for (guint b = s.batch_start; b < (guint) s.batch_start + s.batch_count && b < n_batches; b++)
    insert (self->batches, b);
  for (guint t = s.tri_start; t < (guint) s.tri_start + s.tri_count && t < n_tris; t++)
    insert (self->tris, t);
}

void
mshed_selection_add_node (MshedSelection   *self,
                          const MshedModel *model,
                          guint             node)
{
  if (node >= mshed_model_get_n_rows (model, MSHED_TABLE_NODES))
    return;
  insert (self->nodes, node);
  for (guint lod = 0; lod < MSHED_N_LODS; lod++)
    for (guint group = 0; group < MSHED_N_GROUPS; group++)
      {
        guint slot = mshed_model_find_slot (model, node, lod, group);

        if (slot != MSHED_NONE)
          add_slot_contents (self, model, slot);
      }
}

static void
add_users_of_slot (MshedSelection   *self,
                   const MshedModel *model,
                   guint             slot)
{
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);

  for (guint node = 0; node < n_nodes; node++)
    for (guint cell = 0; cell < MSHED_N_SLOT_CELLS; cell++)
      if (mshed_model_find_slot (model, node, cell / MSHED_N_GROUPS, cell % MSHED_N_GROUPS) == slot)
        {
          insert (self->nodes, node);
          break;
        }
}

void
mshed_selection_add_slot (MshedSelection   *self,
                          const MshedModel *model,
                          guint             slot)
{
  if (slot >= mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS))
    return;
  add_slot_contents (self, model, slot);
  add_users_of_slot (self, model, slot);
}

void
mshed_selection_add_batch (MshedSelection   *self,
                           const MshedModel *model,
                           guint             batch)
{
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);

  if (batch >= mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES))
    return;
  insert (self->batches, batch);
  for (guint i = 0; i < n_slots; i++)
    {
      MshedSlot s;

      if (mshed_model_get_slot (model, i, &s) && batch >= s.batch_start &&
          batch < (guint) s.batch_start + s.batch_count)
        {
          insert (self->slots, i);
          add_users_of_slot (self, model, i);
        }
    }
}

void
mshed_selection_add_tri (MshedSelection   *self,
                         const MshedModel *model,
                         guint             tri)
{
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);

  if (tri >= mshed_model_get_n_rows (model, MSHED_TABLE_TRIS))
    return;
  insert (self->tris, tri);
  for (guint i = 0; i < n_slots; i++)
    {
      MshedSlot s;

      if (mshed_model_get_slot (model, i, &s) && tri >= s.tri_start &&
          tri < (guint) s.tri_start + s.tri_count)
        {
          insert (self->slots, i);
          add_users_of_slot (self, model, i);
        }
    }
}
