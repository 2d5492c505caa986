/* test-gui-i18n.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Starts the built application from the build tree, as ./mshed-dev run does, with a Russian
 * desktop (LANG=ru_RU.UTF-8, no installed translations, no GSETTINGS_SCHEMA_DIR) and looks at
 * its windows through the X server: the window has the app icon, and the Open dialog that
 * Ctrl+O brings up has its Russian title (po/ru.po). Needs a display, xdotool and the
 * ru_RU.UTF-8 locale (./mshed-dev generates it); skips otherwise.
 */
#define _XOPEN_SOURCE 700  /* POSIX/XSI calls beside ISO C11 (c_std=c11) */
#include "config.h"

#include <glib.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include "test-require.h"

/* msgstr of "Open Model or Archive" in po/ru.po */
#define RUSSIAN_OPEN_TITLE "Открыть модель или архив"

static Display *dpy;

static gboolean
get_property (Window      w,
              const char *name,
              Atom        type,
              guchar    **data,
              gulong     *n_items)
{
  Atom actual;
  int format;
  gulong after;

  *data = NULL;
  if (XGetWindowProperty (dpy, w, XInternAtom (dpy, name, False), 0, G_MAXLONG / 4, False,
                          type, &actual, &format, n_items, &after, data) != Success ||
      *data == NULL)
    return FALSE;
  if (actual != type || *n_items == 0)
    {
      XFree (*data);
      *data = NULL;
      return FALSE;
    }
  return TRUE;
}

static gboolean
window_pid_is (Window w,
               GPid   pid)
{
  guchar *data;
  gulong n;
  gboolean same;

  if (!get_property (w, "_NET_WM_PID", XA_CARDINAL, &data, &n))
    return FALSE;
  same = ((gulong *) data)[0] == (gulong) pid;
  XFree (data);
  return same;
}

static char *
window_name (Window w)
{
  guchar *data;
  gulong n;
  char *name;

  if (!get_property (w, "_NET_WM_NAME", XInternAtom (dpy, "UTF8_STRING", False), &data, &n))
    return NULL;
  name = g_strndup ((const char *) data, n);
  XFree (data);
  return name;
}

/* A shown top-level window of @pid whose name ends with @suffix, or 0. */
static Window
find_window (GPid        pid,
             const char *suffix)
{
  Window root = DefaultRootWindow (dpy), parent, *children = NULL, found = 0;
  unsigned int n = 0;

  if (!XQueryTree (dpy, root, &root, &parent, &children, &n))
    return 0;
  for (unsigned int i = 0; i < n && found == 0; i++)
    {
      XWindowAttributes attrs;
      g_autofree char *name = NULL;

      if (!XGetWindowAttributes (dpy, children[i], &attrs) || attrs.map_state != IsViewable ||
          !window_pid_is (children[i], pid))
        continue;
      name = window_name (children[i]);
      if (name && g_str_has_suffix (name, suffix))
        found = children[i];
    }
  if (children)
    XFree (children);
  return found;
}

static Window
wait_window (GPid        pid,
             const char *suffix,
             guint       seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  Window w;

  while ((w = find_window (pid, suffix)) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (100 * 1000);
  return w;
}

static void
xdo (const char *args)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_autofree char *cmd = g_strdup_printf ("%s %s", xdotool, args);
  int status = 0;

  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
test_russian_uninstalled (void)
{
  const char *app = g_getenv ("MSHED_APP");
  const char *sample = g_getenv ("MSHED_SAMPLE");
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *args = NULL;
  const char *argv[] = { app, sample, NULL };
  guchar *icon = NULL;
  gulong n_icon = 0;
  Window main_window, dialog = 0;
  gulong icon_width = 0;
  gboolean english = FALSE;
  GPid pid;
  int status;

  if (dpy == NULL || xdotool == NULL)
    {
      mshed_test_skip ("needs an X display and xdotool");
      return;
    }
  if (setlocale (LC_ALL, "ru_RU.UTF-8") == NULL)
    {
      mshed_test_skip ("the ru_RU.UTF-8 locale is missing (./mshed-dev deps generates it)");
      return;
    }
  setlocale (LC_ALL, "C.UTF-8");
  g_assert_nonnull (app);
  g_assert_nonnull (sample);

  /* a Russian desktop; everything the app needs must come from its build tree */
  env = g_environ_setenv (env, "LANG", "ru_RU.UTF-8", TRUE);
  env = g_environ_unsetenv (env, "LC_ALL");
  env = g_environ_unsetenv (env, "LC_MESSAGES");
  env = g_environ_unsetenv (env, "LANGUAGE");
  env = g_environ_unsetenv (env, "GSETTINGS_SCHEMA_DIR");
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  g_assert_true (g_spawn_async (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &pid, &error));
  g_assert_no_error (error);

  main_window = wait_window (pid, "sample.msh — mshed", 30);
  if (main_window != 0)
    {
      /* the icon theme found the app icon: GTK gave the window its pixels */
      if (get_property (main_window, "_NET_WM_ICON", XA_CARDINAL, &icon, &n_icon))
        {
          icon_width = ((gulong *) icon)[0];
          XFree (icon);
        }
      else
        n_icon = 0;
      /* Ctrl+O: the Open dialog, titled in Russian */
      args = g_strdup_printf ("windowfocus --sync %lu key --clearmodifiers ctrl+o",
                              (gulong) main_window);
      xdo (args);
      dialog = wait_window (pid, RUSSIAN_OPEN_TITLE, 15);
      english = dialog == 0 && find_window (pid, "Open Model or Archive") != 0;
    }
  kill (pid, SIGTERM);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);

  g_assert_true (main_window != 0);
  g_assert_cmpuint (n_icon, >, 2);
  g_assert_cmpuint (icon_width, >, 0);
  if (dialog == 0)
    g_error ("no window titled “%s”%s", RUSSIAN_OPEN_TITLE,
             english ? " (the English one is there: the translation was not found)" : "");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  dpy = XOpenDisplay (NULL);
  g_test_add_func ("/app/i18n/russian-uninstalled", test_russian_uninstalled);
  return g_test_run ();
}
