/* mshed-progress.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Progress and cancellation of a long model operation (glTF export and import): the work
 * reports a fraction and a stage at coarse steps (per node, mesh or level, never per vertex)
 * and stops at the same steps once its GCancellable is cancelled. A reporter can hand a part
 * of its range to a sub-step (mshed_progress_part), so the fractions the caller sees grow
 * from 0 to 1 whatever the nesting. Every function accepts a NULL reporter: no reports, never
 * cancelled (the command line).
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Called on the thread that does the work: @fraction in [0, 1], never smaller than the one
 * before; @stage a translated phrase ("Writing meshes"), valid during the call only, or NULL
 * when the stage did not change. */
typedef void (*MshedProgressFunc) (gpointer    data,
                                   double      fraction,
                                   const char *stage);

typedef struct _MshedProgress MshedProgress;

struct _MshedProgress {
  MshedProgressFunc  func;
  gpointer           data;
  GCancellable      *cancellable;
  /* set by mshed_progress_init, so that only its callers link GIO (mshed-cli loads none) */
  gboolean         (*is_cancelled) (GCancellable *cancellable);
  GQuark             domain;  /* G_IO_ERROR */
  MshedProgress     *parent;  /* a part: reports go up, mapped into [from, to] */
  double             from;
  double             to;
  double             last;    /* the last fraction passed to @func */
};

/* A reporter calling @func (nullable) and checking @cancellable (nullable). Inline: the code
 * that reports and checks references no GIO symbol, only the callers that make a reporter. */
static inline void
mshed_progress_init (MshedProgress     *self,
                     MshedProgressFunc  func,
                     gpointer           data,
                     GCancellable      *cancellable)
{
  *self = (MshedProgress) { func, data, cancellable, g_cancellable_is_cancelled, G_IO_ERROR,
                            NULL, 0.0, 1.0, -1.0 };
}
/* @part covers [@from, @to] of @parent's range. @parent NULL: @part reports nothing. */
void     mshed_progress_part      (MshedProgress *parent,
                                   double         from,
                                   double         to,
                                   MshedProgress *part);
/* Reports @fraction of @self's range at @stage (NULL: the stage before) without looking at
 * the cancellable. */
void     mshed_progress_report    (MshedProgress *self,
                                   double         fraction,
                                   const char    *stage);
/* Reports as above, then FALSE with G_IO_ERROR_CANCELLED when the work was cancelled. */
gboolean mshed_progress_step      (MshedProgress *self,
                                   double         fraction,
                                   const char    *stage,
                                   GError       **error);
/* FALSE with G_IO_ERROR_CANCELLED when the work was cancelled. */
gboolean mshed_progress_check     (MshedProgress *self,
                                   GError       **error);
/* The cancellable of @self or of the reporter it is a part of (nullable). */
GCancellable *mshed_progress_get_cancellable (MshedProgress *self);

G_END_DECLS
