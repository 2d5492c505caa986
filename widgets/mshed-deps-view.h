/* mshed-deps-view.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_DEPS_VIEW (mshed_deps_view_get_type ())
G_DECLARE_FINAL_TYPE (MshedDepsView, mshed_deps_view, MSHED, DEPS_VIEW, GtkWidget)

GtkWidget *mshed_deps_view_new          (void);
void       mshed_deps_view_set_document (MshedDepsView *self,
                                         MshedDocument *document);
guint      mshed_deps_view_get_n_stale  (MshedDepsView *self);

G_END_DECLS
