/* mshed-check-window.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Check Folder window: checks every model, archive entry, DFM and UTF file under a folder
 * on all cores (model/mshed-folder-check.h), optionally against a baseline, shows the
 * findings grouped by file or by check, opens a model at its problem, and exports reports.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-application.h"

G_BEGIN_DECLS

#define MSHED_TYPE_CHECK_WINDOW (mshed_check_window_get_type ())
G_DECLARE_FINAL_TYPE (MshedCheckWindow, mshed_check_window, MSHED, CHECK_WINDOW, GtkWindow)

/* @parent: the main window it was opened from; a result opens there while it is empty. */
MshedCheckWindow *mshed_check_window_new          (MshedApplication *app,
                                                   GtkWindow        *parent);
void              mshed_check_window_set_folder   (MshedCheckWindow *self,
                                                   const char       *folder);
/* @path: NULL for none. FALSE with @error when it cannot be read. */
gboolean          mshed_check_window_set_baseline (MshedCheckWindow *self,
                                                   const char       *path,
                                                   GError          **error);
gboolean          mshed_check_window_is_running   (MshedCheckWindow *self);
/* The rows shown: group rows (GtkTreeListRow of a group) and findings. */
GListModel       *mshed_check_window_get_rows     (MshedCheckWindow *self);

G_END_DECLS
