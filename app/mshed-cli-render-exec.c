/* mshed-cli-render-exec.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli render: runs mshed-cli-render, the same command-line tool built with the GL
 * renderer. Drawing needs libepoxy, whose thousands of symbols the dynamic linker binds when
 * a program starts (about 0.7 ms); mshed-cli leaves the renderer out, so every other command
 * starts without it. mshed-cli import runs there too: its glTF reader needs json-glib and GIO,
 * which mshed-cli does not load.
 */
#define G_LOG_DOMAIN "mshed-cli"
#define _XOPEN_SOURCE 700  /* execv() beside ISO C11 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "mshed-cli-private.h"

/* Runs @argv (argv[0] the command) in mshed-cli-render; returns only when it cannot start. */
static int
exec_helper (int    argc,
             char **argv)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *beside = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  const char *helper = MSHED_CLI_RENDER;
  int saved;

  /* run from the build tree, it is the one beside this program */
  if (self)
    {
      g_autofree char *dir = g_path_get_dirname (self);

      beside = g_build_filename (dir, "mshed-cli-render", NULL);
      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        helper = beside;
    }
  g_ptr_array_add (args, (char *) helper);
  for (int i = 0; i < argc; i++)  /* argv[0] is the command */
    g_ptr_array_add (args, argv[i]);
  g_ptr_array_add (args, NULL);
  fflush (stdout);
  execv (helper, (char **) args->pdata);
  saved = errno;
  mshed_cli_error (_("cannot start the renderer “%s”: %s"), helper, g_strerror (saved));
  return MSHED_CLI_EXIT_PROBLEMS;
}

int
mshed_cli_render (int    argc,
                  char **argv)
{
  return exec_helper (argc, argv);
}

/* import reads glTF with json-glib (which loads GIO): it runs in the helper as well. */
int
mshed_cli_import (int    argc,
                  char **argv)
{
  return exec_helper (argc, argv);
}

/* convert builds the MSH with the glTF new-model builder, which links the glTF reader: it
 * runs in the helper as well. */
int
mshed_cli_convert (int    argc,
                   char **argv)
{
  return exec_helper (argc, argv);
}
