/* mshed-progress.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fractions of a part are mapped into its parent's range and clamped, so a caller sees them
 * only grow; the root remembers the last one and drops repeats. No GIO function is called
 * here (the root's is_cancelled is g_cancellable_is_cancelled): mshed-cli exports through
 * this code and loads no GIO.
 */
#define G_LOG_DOMAIN "mshed-progress"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "mshed-progress.h"

void
mshed_progress_part (MshedProgress *parent,
                     double         from,
                     double         to,
                     MshedProgress *part)
{
  g_return_if_fail (part != NULL);
  *part = (MshedProgress) { NULL, NULL, NULL, NULL, 0, parent, from, to, -1.0 };
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
  while (self != NULL && self->parent != NULL)
    self = self->parent;
  if (self == NULL || self->cancellable == NULL || !self->is_cancelled (self->cancellable))
    return TRUE;
  g_set_error_literal (error, self->domain, G_IO_ERROR_CANCELLED, _("The work was cancelled"));
  return FALSE;
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
