/* mshed-document-stale.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The stale set: one cell per (derived target, edit kind) of the dependency matrix, holding
 * the stale rows (or "the whole table") and the first reason. Every change to it is a
 * StaleOp recorded as a CUSTOM command in the same undo step as the edit that caused it, so
 * undo and redo restore the set exactly, and only the delta is kept (never a snapshot).
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "mshed-document-private.h"
#include "mshed-error.h"

/* Stale cells ------------------------------------------------------------------------------ */

typedef struct {
  guint8  target;  /* derived index */
  guint8  cause;
  guint8  add;     /* forward adds (TRUE) or removes (FALSE) */
  guint8  whole;   /* the whole-table flag flips with the op */
  guint   n_rows;
  guint  *rows;
  guint   marks;
  char   *reason;  /* to (re)create the cell */
} StaleOp;

static void
stale_op_free (gpointer data)
{
  StaleOp *op = data;

  g_free (op->rows);
  g_free (op->reason);
  g_free (op);
}

static void
stale_cell_free (StaleCell *cell)
{
  g_hash_table_unref (cell->rows);
  g_free (cell->reason);
  g_free (cell);
}

void
_mshed_document_apply_stale_op (MshedDocument *self,
                                gconstpointer  data,
                                gboolean       reverse)
{
  const StaleOp *op = data;
  StaleCell **slot = &self->stale[op->target][op->cause];
  gboolean add = op->add != reverse;

  if (add)
    {
      if (*slot == NULL)
        {
          *slot = g_new0 (StaleCell, 1);
          (*slot)->rows = g_hash_table_new (NULL, NULL);
          (*slot)->reason = g_strdup (op->reason);
        }
      for (guint i = 0; i < op->n_rows; i++)
        g_hash_table_add ((*slot)->rows, GUINT_TO_POINTER (op->rows[i] + 1));
      if (op->whole)
        (*slot)->whole = TRUE;
      (*slot)->n_marks += op->marks;
    }
  else
    {
      g_return_if_fail (*slot != NULL);
      for (guint i = 0; i < op->n_rows; i++)
        g_hash_table_remove ((*slot)->rows, GUINT_TO_POINTER (op->rows[i] + 1));
      if (op->whole)
        (*slot)->whole = FALSE;
      (*slot)->n_marks -= MIN (op->marks, (*slot)->n_marks);
      if (!(*slot)->whole && g_hash_table_size ((*slot)->rows) == 0)
        g_clear_pointer (slot, stale_cell_free);
    }
  self->stale_dirty = TRUE;
}

static void
push_stale_op (MshedDocument *self,
               StaleOp       *op)
{
  _mshed_document_apply_stale_op (self, op, FALSE);
  mshed_history_push (self->history,
                      mshed_command_new_custom (op, stale_op_free,
                                                sizeof *op + sizeof (guint) * op->n_rows +
                                                (op->reason ? strlen (op->reason) + 1 : 0)));
}

static int
cmp_uint (gconstpointer a,
          gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static guint *
cell_rows_sorted (const StaleCell *cell,
                  guint           *n)
{
  GHashTableIter iter;
  gpointer key;
  guint *rows = g_new (guint, g_hash_table_size (cell->rows) + 1);
  guint i = 0;

  g_hash_table_iter_init (&iter, cell->rows);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    rows[i++] = GPOINTER_TO_UINT (key) - 1;
  qsort (rows, i, sizeof (guint), cmp_uint);
  *n = i;
  return rows;
}

static void
mark_one (MshedDocument *self,
          MshedDerived   target,
          MshedEditKind  cause,
          const guint   *rows,
          guint          n_rows,
          const char    *reason)
{
  gint t = mshed_derived_get_index (target);
  StaleCell *cell;
  StaleOp *op;
  g_autofree guint *sorted = NULL;
  guint n_new = 0;

  g_return_if_fail (t >= 0 && cause < MSHED_N_EDIT_KINDS);
  cell = self->stale[t][cause];
  if (cell && cell->whole)
    return;

  op = g_new0 (StaleOp, 1);
  op->target = (guint8) t;
  op->cause = (guint8) cause;
  op->add = TRUE;
  op->marks = 1;
  if (cell == NULL)
    op->reason = g_strdup (reason);

  if (rows == NULL)
    op->whole = TRUE;
  else
    {
      sorted = g_memdup2 (rows, sizeof (guint) * n_rows);
      qsort (sorted, n_rows, sizeof (guint), cmp_uint);
      for (guint i = 0; i < n_rows; i++)
        if ((i == 0 || sorted[i] != sorted[i - 1]) &&
            (cell == NULL || !g_hash_table_contains (cell->rows,
                                                     GUINT_TO_POINTER (sorted[i] + 1))))
          sorted[n_new++] = sorted[i];
      if (n_new == 0)
        {
          stale_op_free (op);
          return;
        }
      if ((cell ? g_hash_table_size (cell->rows) : 0) + n_new > MSHED_STALE_MAX_ROWS)
        op->whole = TRUE;
      else
        {
          op->rows = g_steal_pointer (&sorted);
          op->n_rows = n_new;
        }
    }
  push_stale_op (self, op);
}

/* Marks every flag of @target (several flags share the rows, e.g. a slot's box and sphere). */
void
_mshed_document_mark (MshedDocument *self,
                      MshedDerived   target,
                      MshedEditKind  cause,
                      const guint   *rows,
                      guint          n_rows,
                      const char    *reason)
{
  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    if (target & (1u << t))
      mark_one (self, 1u << t, cause, rows, n_rows, reason);
}

void
_mshed_document_mark_array (MshedDocument *self,
                            MshedDerived   target,
                            MshedEditKind  cause,
                            GArray        *rows,
                            const char    *reason)
{
  if (rows->len > 0)
    _mshed_document_mark (self, target, cause, (const guint *) (gpointer) rows->data, rows->len,
                          reason);
}

static void
unmark_cell (MshedDocument *self,
             guint          t,
             guint          cause,
             const guint   *rows,
             guint          n_rows)
{
  StaleCell *cell = self->stale[t][cause];
  StaleOp *op;

  if (cell == NULL)
    return;
  op = g_new0 (StaleOp, 1);
  op->target = (guint8) t;
  op->cause = (guint8) cause;
  op->add = FALSE;
  op->reason = g_strdup (cell->reason);
  if (rows == NULL)
    {
      op->rows = cell_rows_sorted (cell, &op->n_rows);
      op->whole = cell->whole;
      op->marks = cell->n_marks;
    }
  else
    {
      if (cell->whole)
        {
          stale_op_free (op);
          return;
        }
      op->rows = g_new (guint, n_rows + 1);
      for (guint i = 0; i < n_rows; i++)
        if (g_hash_table_contains (cell->rows, GUINT_TO_POINTER (rows[i] + 1)))
          {
            guint j;

            for (j = 0; j < op->n_rows && op->rows[j] != rows[i]; j++)
              ;
            if (j == op->n_rows)
              op->rows[op->n_rows++] = rows[i];
          }
      if (op->n_rows == 0)
        {
          stale_op_free (op);
          return;
        }
      if (op->n_rows == g_hash_table_size (cell->rows))
        op->marks = cell->n_marks;
    }
  push_stale_op (self, op);
}

void
_mshed_document_unmark (MshedDocument *self,
                        MshedDerived   target,
                        gint           cause,
                        const guint   *rows,
                        guint          n_rows)
{
  for (gint t = 0; t < MSHED_N_DERIVED; t++)
    {
      if (!(target & (1u << t)))
        continue;
      for (gint c = 0; c < MSHED_N_EDIT_KINDS; c++)
        if (cause < 0 || cause == c)
          unmark_cell (self, (guint) t, (guint) c, rows, n_rows);
    }
}

void
_mshed_document_remap_stale (MshedDocument *self,
                             MshedTableId   table,
                             const guint   *map_old,
                             guint          n_old)
{
  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    {
      if (mshed_derived_get_table (1u << t) != table)
        continue;
      for (guint c = 0; c < MSHED_N_EDIT_KINDS; c++)
        {
          StaleCell *cell = self->stale[t][c];
          g_autofree guint *rows = NULL;
          g_autofree char *reason = NULL;
          guint n, n_new = 0, marks;
          gboolean changed = FALSE;
          StaleOp *op;

          if (cell == NULL || cell->whole)
            continue;
          rows = cell_rows_sorted (cell, &n);
          for (guint i = 0; i < n; i++)
            {
              guint to = rows[i] < n_old ? map_old[rows[i]] : rows[i];

              changed |= to != rows[i];
              if (to != G_MAXUINT)
                rows[n_new++] = to;
            }
          if (!changed)
            continue;
          reason = g_strdup (cell->reason);
          marks = cell->n_marks;
          unmark_cell (self, t, c, NULL, 0);
          if (n_new == 0)
            continue;
          op = g_new0 (StaleOp, 1);
          op->target = (guint8) t;
          op->cause = (guint8) c;
          op->add = TRUE;
          op->marks = marks;
          op->reason = g_steal_pointer (&reason);
          op->rows = g_steal_pointer (&rows);
          op->n_rows = n_new;
          push_stale_op (self, op);
        }
    }
}

void
_mshed_document_clear_stale (MshedDocument *self)
{
  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    for (guint c = 0; c < MSHED_N_EDIT_KINDS; c++)
      g_clear_pointer (&self->stale[t][c], stale_cell_free);
}

/* Stale set, public -------------------------------------------------------------------------- */

/**
 * mshed_document_list_stale:
 *
 * Returns: (transfer full) (element-type MshedStale): the stale cells, by target then cause
 */
GPtrArray *
mshed_document_list_stale (MshedDocument *self)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_stale_free);

  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    for (guint c = 0; c < MSHED_N_EDIT_KINDS; c++)
      {
        const StaleCell *cell = self->stale[t][c];
        MshedStale *s;
        MshedDerived optional;

        if (cell == NULL)
          continue;
        s = g_new0 (MshedStale, 1);
        s->target = 1u << t;
        s->cause = c;
        s->table = mshed_derived_get_table (s->target);
        if (!cell->whole)
          s->rows = cell_rows_sorted (cell, &s->n_rows);
        if (cell->n_marks > 1)
          s->reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (and %u more edit)",
                                                    "%s (and %u more edits)",
                                                    cell->n_marks - 1),
                                       cell->reason ? cell->reason : "", cell->n_marks - 1);
        else
          s->reason = g_strdup (cell->reason);
        s->recomputable = mshed_derived_is_recomputable (s->target);
        mshed_deps_get (c, &optional);
        s->optional = (optional & s->target) != 0;
        g_ptr_array_add (list, s);
      }
  return list;
}

gboolean
mshed_document_has_stale (MshedDocument *self)
{
  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    for (guint c = 0; c < MSHED_N_EDIT_KINDS; c++)
      if (self->stale[t][c])
        return TRUE;
  return FALSE;
}

MshedDerived
mshed_document_get_stale_targets (MshedDocument *self)
{
  MshedDerived result = 0;

  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    for (guint c = 0; c < MSHED_N_EDIT_KINDS; c++)
      if (self->stale[t][c])
        result |= 1u << t;
  return result;
}

MshedDerived
mshed_document_get_row_stale (MshedDocument *self,
                              MshedTableId   table,
                              guint          row)
{
  MshedDerived result = 0;

  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    {
      if (mshed_derived_get_table (1u << t) != table)
        continue;
      for (guint c = 0; c < MSHED_N_EDIT_KINDS; c++)
        {
          const StaleCell *cell = self->stale[t][c];

          if (cell && (cell->whole || g_hash_table_contains (cell->rows,
                                                            GUINT_TO_POINTER (row + 1))))
            result |= 1u << t;
        }
    }
  return result;
}

gboolean
mshed_document_recompute_stale (MshedDocument *self,
                                MshedDerived   target,
                                MshedEditKind  cause,
                                GError       **error)
{
  gint t = mshed_derived_get_index (target);
  const StaleCell *cell;
  g_autofree guint *rows = NULL;
  guint n = 0;

  g_return_val_if_fail (t >= 0 && cause < MSHED_N_EDIT_KINDS, FALSE);
  cell = self->stale[t][cause];
  if (cell == NULL)
    return TRUE;
  if (!mshed_derived_is_recomputable (target))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("%s cannot be recomputed; review the values and keep them"),
                   mshed_derived_get_label (target));
      return FALSE;
    }
  if (!cell->whole)
    rows = cell_rows_sorted (cell, &n);
  _mshed_document_op_begin (self, NULL, 0);
  if (!mshed_document_recompute (self, target, rows, n, error))
    {
      _mshed_document_op_end (self);
      return FALSE;
    }
  /* the recompute cleared the rows it fixed; what is left of the cell (rows the convention
   * cannot reach) is kept as it is */
  _mshed_document_op_end (self);
  return TRUE;
}

gboolean
mshed_document_acknowledge_stale (MshedDocument *self,
                                  MshedDerived   target,
                                  MshedEditKind  cause)
{
  gint t = mshed_derived_get_index (target);
  g_autofree char *label = NULL;

  g_return_val_if_fail (t >= 0 && cause < MSHED_N_EDIT_KINDS, FALSE);
  if (self->stale[t][cause] == NULL)
    return FALSE;
  label = g_strdup_printf (_("Keep %s"), mshed_derived_get_label (target));
  _mshed_document_op_begin (self, label, 0);
  unmark_cell (self, (guint) t, cause, NULL, 0);
  _mshed_document_op_end (self);
  return TRUE;
}

