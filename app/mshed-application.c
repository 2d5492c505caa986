/* mshed-application.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-application"

#include "config.h"

#include <epoxy/gl.h>
#include <glib/gi18n.h>
#include <string.h>

#include "mshed-application.h"
#include "mshed-compare-window.h"
#include "mshed-merge-window.h"
#include "mshed-source.h"
#include "mshed-window-private.h"

struct _MshedApplication {
  GtkApplication parent_instance;
  GSettings     *settings;
  GStrv          recent;      /* without settings */
  char          *compare;     /* mshed --compare A B: A (B comes as the file to open) */
  char          *merge;       /* mshed --merge BASE MINE THEIRS: BASE */
};

G_DEFINE_FINAL_TYPE (MshedApplication, mshed_application, GTK_TYPE_APPLICATION)

MshedApplication *
mshed_application_new (void)
{
  return g_object_new (MSHED_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       /* command_line takes the arguments: ARCHIVE:ENTRY is not a GFile */
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_HANDLES_OPEN
                                | G_APPLICATION_NON_UNIQUE,
                       "resource-base-path", "/org/mshed/Mshed",
                       NULL);
}

GSettings *
mshed_application_get_settings (MshedApplication *self)
{
  return self->settings;
}

/* Recent files ----------------------------------------------------------------------------- */

GStrv
mshed_application_dup_recent (MshedApplication *self)
{
  g_return_val_if_fail (MSHED_IS_APPLICATION (self), NULL);

  if (self->settings)
    return g_settings_get_strv (self->settings, "recent-files");
  return g_strdupv (self->recent ? self->recent : (GStrv) (const char *[]) { NULL });
}

/* The desktop's list names files, so an archive entry is remembered as its archive. The
 * application's name and command line are given here rather than taken from the program
 * name, which is unset when the window runs without g_application_run() (tests, benchmarks):
 * GLib then writes a bookmark without a command and fails a critical. */
static void
add_desktop_recent (const char *spec)
{
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *uri = NULL;
  GtkRecentData data = {
    .mime_type = (char *) "application/octet-stream",
    .app_name = (char *) "mshed",
    .app_exec = (char *) "mshed %f",
  };

  mshed_split_spec (spec, &path, &entry);
  absolute = g_canonicalize_filename (path, NULL);
  uri = g_filename_to_uri (absolute, NULL, NULL);
  if (uri)
    gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

void
mshed_application_add_recent (MshedApplication *self,
                              const char       *spec)
{
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *canonical = NULL;
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) now = NULL;
  guint n = 1;

  g_return_if_fail (MSHED_IS_APPLICATION (self));
  g_return_if_fail (spec != NULL);

  mshed_split_spec (spec, &path, &entry);
  absolute = g_canonicalize_filename (path, NULL);
  canonical = entry ? g_strdup_printf ("%s:%s", absolute, entry) : g_strdup (absolute);
  old = mshed_application_dup_recent (self);
  g_strv_builder_add (builder, canonical);
  for (guint i = 0; old[i] != NULL && n < MSHED_RECENT_MAX; i++)
    if (g_strcmp0 (old[i], canonical) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  now = g_strv_builder_end (builder);
  if (self->settings)
    g_settings_set_strv (self->settings, "recent-files", (const char * const *) now);
  else
    {
      g_strfreev (self->recent);
      self->recent = g_steal_pointer (&now);
    }
  add_desktop_recent (spec);
}

/* Windows ---------------------------------------------------------------------------------- */

static MshedWindow *
find_empty_window (MshedApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    if (MSHED_IS_WINDOW (l->data) && mshed_window_is_empty (l->data))
      return l->data;
  return NULL;
}

/**
 * mshed_application_open_spec:
 * @spec: FILE or ARCHIVE:ENTRY
 *
 * Opens @spec in an empty window, or a new one.
 *
 * Returns: (transfer none): the window
 */
GtkWindow *
mshed_application_open_spec (MshedApplication *self,
                             const char       *spec)
{
  MshedWindow *window = find_empty_window (self);

  if (window == NULL)
    window = mshed_window_new (self);
  mshed_window_open (window, spec);
  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}

static void open_compare (MshedApplication *self, GFile **files, int n_files);
static void open_merge (MshedApplication *self, char **specs, guint n);

static void
mshed_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (MSHED_APPLICATION (app)->compare != NULL)  /* --compare A without B */
    {
      open_compare (MSHED_APPLICATION (app), NULL, 0);
      return;
    }
  if (MSHED_APPLICATION (app)->merge != NULL)  /* --merge BASE without MINE and THEIRS */
    {
      open_merge (MSHED_APPLICATION (app), NULL, 0);
      return;
    }

  if (window == NULL)
    window = GTK_WINDOW (mshed_window_new (MSHED_APPLICATION (app)));
  gtk_window_present (window);
}

/* mshed --compare A B (app/mshed-compare-window.c); a failure is shown as opening fails. */
static void
open_compare (MshedApplication  *self,
              GFile            **files,
              int                n_files)
{
  g_autofree char *left = g_steal_pointer (&self->compare);
  g_autofree char *right = n_files == 1 ? g_file_get_path (files[0]) : NULL;
  g_autoptr(GError) error = NULL;
  MshedCompareWindow *compare = NULL;
  MshedWindow *window;
  g_autofree char *primary = NULL;

  if (right == NULL)
    g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("--compare A B takes two files"));
  else
    compare = mshed_compare_window_open (self, left, right, &error);
  if (compare != NULL)
    {
      gtk_window_present (GTK_WINDOW (compare));
      return;
    }
  primary = g_strdup_printf (_("Could not compare “%s” with “%s”"), left,
                             right ? right : "?");
  g_printerr ("mshed: %s: %s\n", primary, error->message);
  window = mshed_window_new (self);
  gtk_window_present (GTK_WINDOW (window));
  _mshed_window_show_error (window, primary, error->message);
}

/* mshed --merge BASE MINE THEIRS (app/mshed-merge-window.c); a failure as for --compare. */
static void
open_merge (MshedApplication  *self,
            char             **specs,
            guint              n)
{
  g_autofree char *base = g_steal_pointer (&self->merge);
  g_autoptr(GError) error = NULL;
  MshedMergeWindow *merge = NULL;
  g_autofree char *primary = NULL;
  MshedWindow *window;

  if (n != 2 || specs[0] == NULL || specs[1] == NULL)
    g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("--merge BASE MINE THEIRS takes three files"));
  else
    merge = mshed_merge_window_open (self, base, specs[0], specs[1], &error);
  if (merge != NULL)
    {
      gtk_window_present (GTK_WINDOW (merge));
      return;
    }
  primary = g_strdup_printf (_("Could not merge against “%s”"), base);
  g_printerr ("mshed: %s: %s\n", primary, error->message);
  window = mshed_window_new (self);
  gtk_window_present (GTK_WINDOW (window));
  _mshed_window_show_error (window, primary, error->message);
}

static void
mshed_application_open (GApplication  *app,
                        GFile        **files,
                        int            n_files,
                        const char    *hint)
{
  if (MSHED_APPLICATION (app)->compare != NULL)
    {
      open_compare (MSHED_APPLICATION (app), files, n_files);
      return;
    }
  if (MSHED_APPLICATION (app)->merge != NULL)
    {
      g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func (g_free);

      for (int i = 0; i < n_files; i++)
        g_ptr_array_add (specs, g_file_get_path (files[i]));
      open_merge (MSHED_APPLICATION (app), (char **) specs->pdata, specs->len);
      return;
    }
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      g_autofree char *uri = NULL;

      if (path == NULL)
        {
          uri = g_file_get_uri (files[i]);
          g_warning ("Cannot open %s: only local files are supported", uri);
          continue;
        }
      mshed_application_open_spec (MSHED_APPLICATION (app), path);
    }
}

/* ARCHIVE:ENTRY is not a file GApplication can turn into a GFile, so take the arguments
 * ourselves and open each spec. */
static int
mshed_application_handle_local_options (GApplication *app,
                                        GVariantDict *options)
{
  MshedApplication *self = MSHED_APPLICATION (app);
  const char *left = NULL;

  if (g_variant_dict_lookup (options, "compare", "^&ay", &left))
    {
      g_free (self->compare);
      self->compare = g_canonicalize_filename (left, NULL);
    }
  if (g_variant_dict_lookup (options, "merge", "^&ay", &left))
    {
      g_free (self->merge);
      self->merge = g_canonicalize_filename (left, NULL);
    }
  return -1;
}

static int
mshed_application_command_line (GApplication            *app,
                                GApplicationCommandLine *cmdline)
{
  MshedApplication *self = MSHED_APPLICATION (app);
  g_auto(GStrv) argv = g_application_command_line_get_arguments (cmdline, NULL);
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func (g_free);
  gboolean opened = FALSE;

  if (self->compare != NULL)  /* --compare A B: B is the one argument left */
    {
      g_autoptr(GFile) right = NULL;

      if (argv[1] != NULL && argv[2] == NULL)
        right = g_application_command_line_create_file_for_arg (cmdline, argv[1]);
      open_compare (self, right ? &right : NULL, right ? 1 : 0);
      return 0;
    }
  for (guint i = 1; argv[i] != NULL; i++)
    {
      g_autoptr(GFile) file = NULL;
      g_autofree char *spec = NULL;

      if (argv[i][0] == '-')
        continue;
      file = g_application_command_line_create_file_for_arg (cmdline, argv[i]);
      spec = g_file_get_path (file);
      if (spec == NULL || (!g_file_test (spec, G_FILE_TEST_EXISTS) && strchr (argv[i], ':')))
        {
          /* keep ARCHIVE:ENTRY relative to the caller's directory */
          g_free (spec);
          spec = g_path_is_absolute (argv[i])
                   ? g_strdup (argv[i])
                   : g_build_filename (g_application_command_line_get_cwd (cmdline), argv[i], NULL);
        }
      if (self->merge != NULL)
        g_ptr_array_add (specs, g_steal_pointer (&spec));
      else
        mshed_application_open_spec (self, spec);
      opened = TRUE;
    }
  if (self->merge != NULL)
    open_merge (self, (char **) specs->pdata, specs->len);
  else if (!opened)
    g_application_activate (app);
  return 0;
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  MshedApplication *self = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* each window asks about its own unsaved changes */
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  gtk_window_present (GTK_WINDOW (mshed_window_new (MSHED_APPLICATION (user_data))));
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  static const char *authors[] = { "The mshed authors", NULL };
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_show_about_dialog (parent,
                         "program-name", "mshed",
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments",
                         _("A table-and-hex editor for Parkan: Iron Strategy MSH models"),
                         "authors", authors,
                         /* translators: put your name here */
                         "translator-credits", _("translator-credits"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "copyright", "© 2026 The mshed authors",
                         NULL);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "new-window", new_window_action },
  { "about", about_action },
};

static void
load_css (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, "/org/mshed/Mshed/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

/* TRUE for Mesa's software rasterisers (what machines without a GPU, virtual machines and
 * Xvfb have). */
static gboolean
gl_is_software (const char *renderer)
{
  static const char *const names[] = { "llvmpipe", "softpipe", "swrast", "Software Rasterizer" };

  for (guint i = 0; renderer != NULL && i < G_N_ELEMENTS (names); i++)
    if (strstr (renderer, names[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* GTK 4.8's GL renderer draws the whole window through the GL driver on every frame. A
 * software rasteriser makes that the most expensive part of scrolling a grid (bench-gui: the
 * rasteriser's threads took about two thirds of the CPU time), and the first frame also waits
 * for it to compile GSK's shaders. The cairo renderer draws only what changed, with no
 * shaders. So, unless the user chose a renderer (GSK_RENDERER), windows draw with cairo when
 * GL is software; the 3D preview draws with GL either way. Must run before the first window
 * is realized: GSK reads the variable once. */
static void
choose_renderer (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autoptr(GdkGLContext) context = NULL;

  if (display == NULL || g_getenv ("GSK_RENDERER") != NULL)
    return;
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return;
  gdk_gl_context_make_current (context);
  if (gl_is_software ((const char *) glGetString (GL_RENDERER)))
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gdk_gl_context_clear_current ();
}

static void
mshed_application_startup (GApplication *app)
{
  MshedApplication *self = MSHED_APPLICATION (app);
  /* Application accelerators are handled before the focused widget sees the key, so only keys
   * that mean the same everywhere are here. F2 and Ctrl+F belong to the focused view (the
   * tree renames and searches, a grid edits its cell and filters, the hex view searches);
   * MshedWindow's own bindings catch Ctrl+F when no view takes it. */
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.check-folder", { "<Control><Shift>o", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
    { "win.recompute-all", { "<Control>r", NULL } },
    { "win.next-problem", { "F8", NULL } },
    { "win.next-difference", { "F7", NULL } },
    { "win.previous-difference", { "<Shift>F7", NULL } },
    { "win.toggle-bottom-panel", { "F9", NULL } },
    { "win.toggle-tree", { "<Control>F9", NULL } },
    /* F10 opens the main menu (GtkMenuButton:primary), as in every GNOME application */
    { "win.toggle-side-panel", { "F12", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  G_APPLICATION_CLASS (mshed_application_parent_class)->startup (app);
  choose_renderer ();

  if (g_get_application_name () == NULL)
    g_set_application_name ("mshed");

  if (source)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema)
    self->settings = g_settings_new (APP_ID);
  else
    g_debug ("GSettings schema %s not installed: window layout will not be remembered", APP_ID);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action,
                                           accels[i].accels);
  /* the icon ships in the resources too (uninstalled builds, a Devel build's own name) */
  gtk_window_set_default_icon_name (gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (
                                                               gdk_display_get_default ()), APP_ID)
                                    ? APP_ID : "org.mshed.Mshed");
  load_css ();
}

static void
mshed_application_finalize (GObject *object)
{
  g_clear_object (&MSHED_APPLICATION (object)->settings);
  g_strfreev (MSHED_APPLICATION (object)->recent);
  g_free (MSHED_APPLICATION (object)->compare);
  g_free (MSHED_APPLICATION (object)->merge);
  G_OBJECT_CLASS (mshed_application_parent_class)->finalize (object);
}

static void
mshed_application_class_init (MshedApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = mshed_application_finalize;
  app_class->activate = mshed_application_activate;
  app_class->open = mshed_application_open;
  app_class->startup = mshed_application_startup;
  app_class->command_line = mshed_application_command_line;
  app_class->handle_local_options = mshed_application_handle_local_options;
}

static void
mshed_application_init (MshedApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "compare", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_FILENAME,
                                 _("Compare model A with the file after it, side by side"),
                                 "A");
  g_application_add_main_option (G_APPLICATION (self), "merge", 0, G_OPTION_FLAG_NONE,
                                 G_OPTION_ARG_FILENAME,
                                 _("Merge MINE and THEIRS, the two files after it, against "
                                   "BASE"), "BASE");
}
