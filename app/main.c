/* main.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "mshed-application.h"
#include "mshed-uninstalled.h"

/* The uninstalled app reads its translations (po/LANG/LC_MESSAGES/mshed.mo) and its compiled
 * settings schema (data/) from the build tree: nothing is installed in the prefix yet. */
static const char *
setup_paths (void)
{
  g_autofree char *schemas = NULL;
  const char *old;

  if (!mshed_running_uninstalled ())
    return LOCALEDIR;
  schemas = g_build_filename (MSHED_BUILD_ROOT, "data", NULL);
  old = g_getenv ("GSETTINGS_SCHEMA_DIR");
  if (old == NULL || *old == '\0')
    g_setenv ("GSETTINGS_SCHEMA_DIR", schemas, TRUE);
  else if (!g_str_has_prefix (old, schemas))
    {
      g_autofree char *both = g_strconcat (schemas, G_SEARCHPATH_SEPARATOR_S, old, NULL);

      g_setenv ("GSETTINGS_SCHEMA_DIR", both, TRUE);
    }
  return mshed_locale_dir ();
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(MshedApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, setup_paths ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name ("mshed");
  app = mshed_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
