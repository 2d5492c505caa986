/* mshed-window.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-application.h"
#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_WINDOW (mshed_window_get_type ())
G_DECLARE_FINAL_TYPE (MshedWindow, mshed_window, MSHED, WINDOW, GtkApplicationWindow)

MshedWindow   *mshed_window_new          (MshedApplication *app);
/* Opens FILE or ARCHIVE:ENTRY: a model becomes this window's document (tolerant mode when
 * strict validation fails), a bare archive shows its entries to choose from. */
gboolean       mshed_window_open         (MshedWindow      *self,
                                          const char       *spec);
gboolean       mshed_window_is_empty     (MshedWindow      *self);
MshedDocument *mshed_window_get_document (MshedWindow      *self);

G_END_DECLS
