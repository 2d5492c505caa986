/* mshed-history.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-history"

#include "config.h"

#include <string.h>

#include "mshed-history.h"

typedef struct {
  char      *label;
  GPtrArray *commands;    /* MshedCommand*, in the order they were applied */
  guint64    state_id;    /* byte state after this step */
  guint64    below_id;    /* byte state before this step */
  guint64    merge_key;
} Step;

struct _MshedHistory {
  GObject               parent_instance;
  MshedHistoryApplyFunc apply;
  gpointer              user_data;
  GQueue                undo;        /* Step*, head = most recent */
  GQueue                redo;        /* Step*, head = next to redo */
  Step                 *open;        /* the group being recorded */
  guint                 depth;
  guint                 max_depth;
  guint64               next_id;
  guint64               base_id;     /* state below the oldest undo step */
  guint64               save_id;     /* G_MAXUINT64: the saved state is unreachable */
  gboolean              applying;
};

G_DEFINE_FINAL_TYPE (MshedHistory, mshed_history, G_TYPE_OBJECT)

static void
step_free (gpointer data)
{
  Step *step = data;

  g_free (step->label);
  g_ptr_array_unref (step->commands);
  g_free (step);
}

static gboolean
step_changes_bytes (const Step *step)
{
  for (guint i = 0; i < step->commands->len; i++)
    if (((MshedCommand *) g_ptr_array_index (step->commands, i))->kind != MSHED_COMMAND_CUSTOM)
      return TRUE;
  return FALSE;
}

static void
mshed_history_finalize (GObject *object)
{
  MshedHistory *self = MSHED_HISTORY (object);

  g_queue_clear_full (&self->undo, step_free);
  g_queue_clear_full (&self->redo, step_free);
  g_clear_pointer (&self->open, step_free);
  G_OBJECT_CLASS (mshed_history_parent_class)->finalize (object);
}

static void
mshed_history_class_init (MshedHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_history_finalize;
}

static void
mshed_history_init (MshedHistory *self)
{
  g_queue_init (&self->undo);
  g_queue_init (&self->redo);
  self->next_id = 1;
  self->max_depth = 0;
}

/**
 * mshed_history_new:
 * @apply: (scope forever): re-applies a recorded command on undo and redo
 *
 * Returns: (transfer full): a history whose saved state is its start state
 */
MshedHistory *
mshed_history_new (MshedHistoryApplyFunc apply,
                   gpointer              user_data)
{
  MshedHistory *self = g_object_new (MSHED_TYPE_HISTORY, NULL);

  self->apply = apply;
  self->user_data = user_data;
  return self;
}

guint64
mshed_history_get_state_id (MshedHistory *self)
{
  Step *top = g_queue_peek_head (&self->undo);

  return top ? top->state_id : self->base_id;
}

void
mshed_history_begin_group (MshedHistory *self,
                           const char   *label,
                           guint64       merge_key)
{
  g_return_if_fail (MSHED_IS_HISTORY (self));
  g_return_if_fail (!self->applying);

  if (self->depth++ == 0)
    {
      g_assert (self->open == NULL);
      self->open = g_new0 (Step, 1);
      self->open->label = g_strdup (label);
      self->open->commands = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_command_free);
      self->open->merge_key = merge_key;
    }
  else if (self->open->label == NULL && label != NULL)
    self->open->label = g_strdup (label);
}

guint
mshed_history_get_depth (MshedHistory *self)
{
  return self->depth;
}

static void
trim (MshedHistory *self)
{
  while (self->max_depth > 0 && self->undo.length > self->max_depth)
    {
      Step *oldest = g_queue_pop_tail (&self->undo);

      self->base_id = oldest->state_id;
      step_free (oldest);
    }
}

/* A single-splice step may absorb the next single-splice step on the same bytes. */
static const MshedCommand *
single_splice (const Step *step)
{
  const MshedCommand *found = NULL;

  for (guint i = 0; i < step->commands->len; i++)
    {
      const MshedCommand *c = g_ptr_array_index (step->commands, i);

      if (c->kind == MSHED_COMMAND_CUSTOM)
        continue;
      if (c->kind != MSHED_COMMAND_SPLICE || found)
        return NULL;
      found = c;
    }
  return found;
}

static gboolean
try_merge (MshedHistory *self,
           Step         *step)
{
  Step *top = g_queue_peek_head (&self->undo);
  const MshedCommand *a, *b;
  MshedCommand *merged;

  if (top == NULL || step->merge_key == 0 || top->merge_key != step->merge_key)
    return FALSE;
  if (top->state_id == self->save_id)
    return FALSE;  /* keep the saved state reachable */
  a = single_splice (top);
  b = single_splice (step);
  if (a == NULL || b == NULL || a->res_index != b->res_index || a->node != b->node ||
      a->offset != b->offset ||
      g_bytes_get_size (a->new_bytes) != g_bytes_get_size (b->old_bytes))
    return FALSE;

  merged = a->node ? mshed_command_new_utf_splice (a->node, a->offset, a->old_bytes,
                                                   b->new_bytes)
                   : mshed_command_new_splice (a->res_index, a->offset, a->old_bytes,
                                               b->new_bytes);
  for (guint i = 0; i < top->commands->len; i++)
    if (g_ptr_array_index (top->commands, i) == a)
      {
        mshed_command_free (g_ptr_array_index (top->commands, i));
        top->commands->pdata[i] = merged;
        break;
      }
  for (guint i = 0; i < step->commands->len; i++)
    {
      MshedCommand *c = g_ptr_array_index (step->commands, i);

      if (c->kind == MSHED_COMMAND_CUSTOM)
        {
          step->commands->pdata[i] = NULL;
          g_ptr_array_add (top->commands, c);
        }
    }
  top->state_id = self->next_id++;
  g_free (top->label);
  top->label = g_steal_pointer (&step->label);
  return TRUE;
}

void
mshed_history_end_group (MshedHistory *self)
{
  Step *step;

  g_return_if_fail (MSHED_IS_HISTORY (self));
  g_return_if_fail (self->depth > 0);

  if (--self->depth > 0)
    return;
  step = g_steal_pointer (&self->open);
  if (step->commands->len == 0)
    {
      step_free (step);
      return;
    }

  g_queue_clear_full (&self->redo, step_free);
  if (try_merge (self, step))
    {
      g_ptr_array_remove_range (step->commands, 0, step->commands->len);
      step_free (step);
      return;
    }
  step->below_id = mshed_history_get_state_id (self);
  step->state_id = step_changes_bytes (step) ? self->next_id++ : step->below_id;
  g_queue_push_head (&self->undo, step);
  trim (self);
}

void
mshed_history_push (MshedHistory *self,
                    MshedCommand *command)
{
  g_return_if_fail (MSHED_IS_HISTORY (self));
  g_return_if_fail (command != NULL);

  if (self->applying)
    {
      mshed_command_free (command);
      return;
    }
  mshed_history_begin_group (self, NULL, 0);
  g_ptr_array_add (self->open->commands, command);
  mshed_history_end_group (self);
}

gboolean
mshed_history_undo (MshedHistory *self)
{
  Step *step;

  g_return_val_if_fail (MSHED_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (self->depth == 0, FALSE);

  step = g_queue_pop_head (&self->undo);
  if (step == NULL)
    return FALSE;
  self->applying = TRUE;
  for (guint i = step->commands->len; i > 0; i--)
    self->apply (self->user_data, g_ptr_array_index (step->commands, i - 1), TRUE);
  self->applying = FALSE;
  g_queue_push_head (&self->redo, step);
  return TRUE;
}

gboolean
mshed_history_redo (MshedHistory *self)
{
  Step *step;

  g_return_val_if_fail (MSHED_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (self->depth == 0, FALSE);

  step = g_queue_pop_head (&self->redo);
  if (step == NULL)
    return FALSE;
  self->applying = TRUE;
  for (guint i = 0; i < step->commands->len; i++)
    self->apply (self->user_data, g_ptr_array_index (step->commands, i), FALSE);
  self->applying = FALSE;
  g_queue_push_head (&self->undo, step);
  return TRUE;
}

gboolean
mshed_history_can_undo (MshedHistory *self)
{
  return self->undo.length > 0;
}

gboolean
mshed_history_can_redo (MshedHistory *self)
{
  return self->redo.length > 0;
}

const char *
mshed_history_get_undo_label (MshedHistory *self)
{
  Step *step = g_queue_peek_head (&self->undo);

  return step ? step->label : NULL;
}

const char *
mshed_history_get_redo_label (MshedHistory *self)
{
  Step *step = g_queue_peek_head (&self->redo);

  return step ? step->label : NULL;
}

gboolean
mshed_history_is_applying (MshedHistory *self)
{
  return self->applying;
}

void
mshed_history_set_save_point (MshedHistory *self)
{
  self->save_id = mshed_history_get_state_id (self);
}

gboolean
mshed_history_is_modified (MshedHistory *self)
{
  /* bytes already changed inside a group that is still open */
  if (self->open != NULL && step_changes_bytes (self->open))
    return TRUE;
  return mshed_history_get_state_id (self) != self->save_id;
}

gboolean
mshed_history_is_at_start (MshedHistory *self)
{
  return mshed_history_get_state_id (self) == 0;
}

void
mshed_history_set_max_depth (MshedHistory *self,
                             guint         max_steps)
{
  self->max_depth = max_steps;
  trim (self);
}

guint
mshed_history_get_n_undo (MshedHistory *self)
{
  return self->undo.length;
}

guint
mshed_history_get_n_redo (MshedHistory *self)
{
  return self->redo.length;
}

/* Forgets every step; the current state becomes the base (modified stays as it was). */
void
mshed_history_clear (MshedHistory *self)
{
  guint64 current = mshed_history_get_state_id (self);

  g_queue_clear_full (&self->undo, step_free);
  g_queue_clear_full (&self->redo, step_free);
  self->base_id = current;  /* a saved state that was in the queues stays unreachable */
}

static void
add_step_size (gpointer data,
               gpointer user_data)
{
  Step *step = data;
  gsize *size = user_data;

  *size += sizeof (Step) + (step->label ? strlen (step->label) + 1 : 0) +
           sizeof (GPtrArray) + step->commands->len * sizeof (gpointer);
  for (guint i = 0; i < step->commands->len; i++)
    *size += mshed_command_get_memory_size (g_ptr_array_index (step->commands, i));
}

gsize
mshed_history_get_memory_size (MshedHistory *self)
{
  gsize size = 0;

  g_queue_foreach (&self->undo, add_step_size, &size);
  g_queue_foreach (&self->redo, add_step_size, &size);
  return size;
}
