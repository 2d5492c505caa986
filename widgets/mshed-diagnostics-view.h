/* mshed-diagnostics-view.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_DIAGNOSTICS_VIEW (mshed_diagnostics_view_get_type ())
G_DECLARE_FINAL_TYPE (MshedDiagnosticsView, mshed_diagnostics_view, MSHED, DIAGNOSTICS_VIEW,
                      GtkWidget)

GtkWidget     *mshed_diagnostics_view_new          (void);
void           mshed_diagnostics_view_set_document (MshedDiagnosticsView *self,
                                                    MshedDocument        *document);
MshedDocument *mshed_diagnostics_view_get_document (MshedDiagnosticsView *self);
guint          mshed_diagnostics_view_get_n_shown  (MshedDiagnosticsView *self);
/* Activates row @position as if the user had (for tests). */
void           mshed_diagnostics_view_activate     (MshedDiagnosticsView *self,
                                                    guint                 position);
/* Selects row @position and clicks "Fix…" (or "Fix All of This Kind…"), as the user would;
 * the dialog that shows the changes opens (tests). */
void           mshed_diagnostics_view_fix          (MshedDiagnosticsView *self,
                                                    guint                 position,
                                                    gboolean              same_kind);

/* (transfer full): what the Location column shows for @diagnostic (tests). */
char          *_mshed_diagnostics_view_format_location (const MshedDiagnostic *diagnostic);

G_END_DECLS
