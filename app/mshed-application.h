/* mshed-application.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MSHED_TYPE_APPLICATION (mshed_application_get_type ())
G_DECLARE_FINAL_TYPE (MshedApplication, mshed_application, MSHED, APPLICATION, GtkApplication)

MshedApplication *mshed_application_new          (void);
/* (nullable): the app's settings, NULL when the schema is not installed */
GSettings        *mshed_application_get_settings (MshedApplication *self);
GtkWindow        *mshed_application_open_spec    (MshedApplication *self,
                                                  const char       *spec);

G_END_DECLS
