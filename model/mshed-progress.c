/* mshed-progress.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fractions of a part are mapped into its parent's range and clamped, so a caller sees them
 * only grow; the root remembers the last one and drops repeats.
 */
#define G_LOG_DOMAIN "mshed-progress"

#include "config.h"

#include "mshed-progress.h"

void
mshed_progress_init (MshedProgress     *self,
                     MshedProgressFunc  func,
                     gpointer           data,
                     GCancellable      *cancellable)
{
  g_return_if_fail (self != NULL);
  *self = (MshedProgress) { func, data, cancellable, NULL, 0.0, 1.0, -1.0 };
}

void
mshed_progress_part (MshedProgress *parent,
                     double         from,
                     double         to,
                     MshedProgress *part)
{
  g_return_if_fail (part != NULL);
  *part = (MshedProgress) { NULL, NULL, NULL, parent, from, to, -1.0 };
}

void
mshed_progress_report (MshedProgress *self,
                       double         fraction,
                       const char    *stage)
{
  fraction = CLAMP (fraction, 0.0, 1.0);
  /* climb to the root, mapping the fraction into each parent's range */
  while (self != NULL && self->parent != NULL)
    {
      fraction = self->from + (self->to - self->from) * fraction;
      self = self->parent;
    }
  if (self == NULL || self->func == NULL)
    return;
  if (fraction < self->last)
    fraction = self->last;
  if (fraction == self->last && stage == NULL)
    return;
  self->last = fraction;
  self->func (self->data, fraction, stage);
}

GCancellable *
mshed_progress_get_cancellable (MshedProgress *self)
{
  while (self != NULL && self->parent != NULL)
    self = self->parent;
  return self ? self->cancellable : NULL;
}

gboolean
mshed_progress_check (MshedProgress  *self,
                      GError        **error)
{
  return !g_cancellable_set_error_if_cancelled (mshed_progress_get_cancellable (self), error);
}

gboolean
mshed_progress_step (MshedProgress  *self,
                     double          fraction,
                     const char     *stage,
                     GError        **error)
{
  mshed_progress_report (self, fraction, stage);
  return mshed_progress_check (self, error);
}
