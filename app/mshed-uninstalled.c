/* mshed-uninstalled.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _XOPEN_SOURCE 700  /* realpath beside ISO C11 (c_std=c11) */
#include "config.h"

#include <stdlib.h>

#include "mshed-uninstalled.h"

gboolean
mshed_running_uninstalled (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe ? g_path_get_dirname (exe) : NULL;
  g_autofree char *build_app = g_build_filename (MSHED_BUILD_ROOT, "app", NULL);
  g_autofree char *real = realpath (build_app, NULL);

  return dir != NULL && real != NULL && g_strcmp0 (dir, real) == 0;
}

const char *
mshed_locale_dir (void)
{
  static char *localedir;

  if (!mshed_running_uninstalled ())
    return LOCALEDIR;
  if (localedir == NULL)
    localedir = g_build_filename (MSHED_BUILD_ROOT, "po", NULL);
  return localedir;
}
