/* mshed-uninstalled.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where a program started from its own build tree (./mshed-dev run, the tests) finds what is
 * not installed yet: its translations. Shared by the application and mshed-cli, so both speak
 * the user's language before `meson install`.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether this binary is the one in the build tree it was built in (not an installed copy). */
gboolean     mshed_running_uninstalled (void);
/* The directory to bind the message catalogue to: the build tree's po/ (po/LANG/LC_MESSAGES/
 * mshed.mo) when uninstalled, else LOCALEDIR. */
const char  *mshed_locale_dir          (void);

G_END_DECLS
