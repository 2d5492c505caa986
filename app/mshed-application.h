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

/* Recently opened FILE and ARCHIVE:ENTRY specs, newest first (GSettings "recent-files"; kept
 * in memory when the schema is not installed). Adding a spec also tells the desktop's recent
 * files (GtkRecentManager) about the file that holds it. */
#define MSHED_RECENT_MAX 10
void              mshed_application_add_recent   (MshedApplication *self,
                                                  const char       *spec);
/* (transfer full): the specs, newest first */
GStrv             mshed_application_dup_recent   (MshedApplication *self);

G_END_DECLS
