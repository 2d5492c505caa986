/* mshed-window-actions.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's actions: open, save (with the stale and strict-validation questions), undo,
 * redo, find, recompute, panels, exports, and closing with unsaved changes.
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-check-window.h"
#include "mshed-error.h"
#include "mshed-window-private.h"

/* The archive page's edits (mshed-window-archive.c) */
static const char *const archive_actions[] = {
  "win.archive-add", "win.archive-replace", "win.archive-remove", "win.archive-rename",
  "win.archive-up", "win.archive-down", "win.archive-attributes",
};

/* Enablement is computed in one place. */
void
_mshed_window_actions_update (MshedWindow *self)
{
  gboolean has_doc = self->document != NULL;
  /* an archive's entry list is edited with the same save, undo and redo */
  MshedArchive *archive = has_doc ? NULL : self->archive_edit;
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (widget, "win.save", has_doc || archive != NULL);
  gtk_widget_action_set_enabled (widget, "win.save-as", has_doc);
  gtk_widget_action_set_enabled (widget, "win.undo",
                                 has_doc ? mshed_document_can_undo (self->document)
                                         : archive && mshed_archive_can_undo (archive));
  gtk_widget_action_set_enabled (widget, "win.redo",
                                 has_doc ? mshed_document_can_redo (self->document)
                                         : archive && mshed_archive_can_redo (archive));
  for (guint i = 0; i < G_N_ELEMENTS (archive_actions); i++)
    gtk_widget_action_set_enabled (widget, archive_actions[i], archive != NULL);
  gtk_widget_action_set_enabled (widget, "win.find", has_doc);
  _mshed_window_gltf_update (self);
  gtk_widget_action_set_enabled (widget, "win.rename-node", has_doc);
  gtk_widget_action_set_enabled (widget, "win.recompute-all",
                                 has_doc && (mshed_document_get_stale_targets (self->document) &
                                             MSHED_DERIVED_DETERMINED));
  gtk_widget_action_set_enabled (widget, "win.revalidate", has_doc);
  gtk_widget_action_set_enabled (widget, "win.next-problem", has_doc);
  gtk_widget_action_set_enabled (widget, "win.export-csv", has_doc);
  gtk_widget_action_set_enabled (widget, "win.save-preview", has_doc);
  gtk_widget_action_set_enabled (widget, "win.reload", has_doc);
  gtk_widget_action_set_enabled (widget, "win.show-archive-entries",
                                 has_doc && mshed_document_get_entry (self->document) != NULL);
  if (self->archive_button)
    {
      g_autofree char *tip = NULL;
      g_autofree char *base = NULL;

      gtk_widget_set_visible (self->archive_button,
                              has_doc && mshed_document_get_entry (self->document) != NULL);
      if (has_doc && mshed_document_get_path (self->document))
        {
          base = g_path_get_basename (mshed_document_get_path (self->document));
          /* translators: %s is the archive's file name */
          tip = g_strdup_printf (_("Show the entries of %s"), base);
          gtk_widget_set_tooltip_text (self->archive_button, tip);
        }
    }

}

/* Undo and redo tooltips follow the document's labels ------------------------------------ */

static gboolean
undo_label_to_tooltip (GBinding     *binding,
                       const GValue *from,
                       GValue       *to,
                       gpointer      user_data)
{
  const char *label = g_value_get_string (from);

  if (label && *label)
    /* translators: %s is the command, e.g. "Rename node 4" */
    g_value_take_string (to, g_strdup_printf (_("Undo %s"), label));
  else
    g_value_set_string (to, _("Undo"));
  return TRUE;
}

static gboolean
redo_label_to_tooltip (GBinding     *binding,
                       const GValue *from,
                       GValue       *to,
                       gpointer      user_data)
{
  const char *label = g_value_get_string (from);

  if (label && *label)
    /* translators: %s is the command, e.g. "Rename node 4" */
    g_value_take_string (to, g_strdup_printf (_("Redo %s"), label));
  else
    g_value_set_string (to, _("Redo"));
  return TRUE;
}

/* A modal question over the window; the caller adds the buttons and connects "response". */
static GtkWidget *
question_dialog (MshedWindow    *self,
                 GtkMessageType  type,
                 const char     *primary,
                 const char     *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL, type,
                                              GTK_BUTTONS_NONE, "%s", primary);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  return dialog;
}

static void
mark_destructive (GtkWidget *dialog,
                  int        response)
{
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), response),
                            "destructive-action");
}

/* Save ----------------------------------------------------------------------------------- */

typedef enum {
  SAVE_STEP_STALE,
  SAVE_STEP_WRITE,
} SaveStep;

typedef struct {
  MshedWindow   *self;
  char          *path;       /* NULL: the document's own file */
  MshedSaveFlags flags;
  gboolean       then_close;
} SaveRequest;

static void save_continue (SaveRequest *req, SaveStep step);

static void
save_request_free (SaveRequest *req)
{
  g_object_unref (req->self);
  g_free (req->path);
  g_free (req);
}

static void
on_invalid_response (GtkDialog   *dialog,
                     int          response,
                     SaveRequest *req)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    {
      req->flags |= MSHED_SAVE_ANYWAY;
      save_continue (req, SAVE_STEP_WRITE);
      return;
    }
  save_request_free (req);
}

static void
on_stale_response (GtkDialog   *dialog,
                   int          response,
                   SaveRequest *req)
{
  g_autoptr(GError) error = NULL;

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == 1)
    {
      /* what the format determines; conventions stay as they are (docs/conventions.md) */
      if (!mshed_document_recompute_stale_all (req->self->document, MSHED_DERIVED_DETERMINED,
                                               &error))
        {
          _mshed_window_show_error (req->self, _("Could not recompute the stale data"),
                                    error->message);
          save_request_free (req);
          return;
        }
      save_continue (req, SAVE_STEP_WRITE);
    }
  else if (response == 2)
    save_continue (req, SAVE_STEP_WRITE);
  else
    save_request_free (req);
}

static void
save_continue (SaveRequest *req,
               SaveStep     step)
{
  MshedWindow *self = req->self;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (self->document == NULL)
    {
      save_request_free (req);
      return;
    }
  if (step == SAVE_STEP_STALE && mshed_document_has_stale (self->document))
    {
      MshedDerived stale = mshed_document_get_stale_targets (self->document);
      gboolean determined = (stale & MSHED_DERIVED_DETERMINED) != 0;
      gboolean convention = (stale & MSHED_DERIVED_CONVENTION) != 0;
      GString *text = g_string_new (NULL);
      GtkWidget *dialog;

      if (determined)
        g_string_append (text, _("Your edits changed data that slot boxes, attributes or the "
                                 "frame map follow from. Recompute the stale entries before "
                                 "saving, or save the values as they are?"));
      if (convention)
        g_string_append_printf (text, "%s%s", text->len ? "\n\n" : "",
                                _("Bounding spheres, the header, face normals or neighbour links "
                                  "are stale too. The format does not say how to compute them; "
                                  "apply mshed's conventions in the Stale Data panel if you want "
                                  "them. Saving leaves them as they are."));
      dialog = question_dialog (self, GTK_MESSAGE_WARNING, _("Some derived data is stale"),
                                text->str);
      g_string_free (text, TRUE);
      gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                              _("Save _As Is"), 2, NULL);
      if (determined)
        gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Recompute and Save"), 1);
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), determined ? 1 : 2);
      g_signal_connect (dialog, "response", G_CALLBACK (on_stale_response), req);
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }

  if (req->path)
    ok = mshed_document_save_as (self->document, req->path, req->flags, &error);
  else
    ok = mshed_document_save (self->document, req->flags, &error);

  if (!ok && g_error_matches (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID) &&
      !(req->flags & MSHED_SAVE_ANYWAY))
    {
      g_autofree char *secondary =
        g_strdup_printf (_("%s\n\nThe game may refuse or misdraw it. Save anyway?"),
                         error->message);
      GtkWidget *dialog = question_dialog (self, GTK_MESSAGE_WARNING,
                                           _("The file fails strict validation"), secondary);

      gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                              _("Save _Anyway"), GTK_RESPONSE_ACCEPT, NULL);
      mark_destructive (dialog, GTK_RESPONSE_ACCEPT);
      g_signal_connect (dialog, "response", G_CALLBACK (on_invalid_response), req);
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  if (!ok)
    {
      _mshed_window_show_error (self, _("The file was not saved"), error->message);
      save_request_free (req);
      return;
    }
  if (req->then_close)
    {
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  save_request_free (req);
}

static void
start_save (MshedWindow *self,
            const char  *path,
            gboolean     then_close)
{
  SaveRequest *req = g_new0 (SaveRequest, 1);

  req->self = g_object_ref (self);
  req->path = g_strdup (path);
  req->then_close = then_close;
  save_continue (req, SAVE_STEP_STALE);
}

static void save_as_action (GtkWidget *widget, const char *action, GVariant *param);

static void
save_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);

  if (self->document == NULL && self->archive_edit != NULL)
    _mshed_window_archive_save (self);
  if (self->document == NULL)
    return;
  if (mshed_document_get_path (self->document) == NULL)
    save_as_action (widget, action, param);
  else
    start_save (self, NULL, FALSE);
}

static void
on_save_as_response (GtkNativeDialog *dialog,
                     int              response,
                     MshedWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path)
        start_save (self, path, FALSE);
    }
  g_object_unref (dialog);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action,
                GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  GtkFileChooserNative *dialog;
  const char *path;

  if (self->document == NULL)
    return;
  dialog = gtk_file_chooser_native_new (_("Save As"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  path = mshed_document_get_path (self->document);
  if (path)
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), file, NULL);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_as_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Close with unsaved changes ------------------------------------------------------------- */

static void
on_close_response (GtkDialog   *dialog,
                   int          response,
                   MshedWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == 1 && self->document == NULL)  /* save the archive's entries */
    {
      if (_mshed_window_archive_save (self))
        gtk_window_destroy (GTK_WINDOW (self));
    }
  else if (response == 1)    /* save */
    start_save (self, NULL, TRUE);
  else if (response == 2)    /* discard */
    {
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
}

static gboolean
on_close_request (GtkWindow   *window,
                  MshedWindow *self)
{
  GtkWidget *dialog;
  g_autofree char *primary = NULL;

  if (self->closing)
    return FALSE;
  if (self->document == NULL && self->archive_edit != NULL &&
      mshed_archive_get_modified (self->archive_edit))
    {
      g_autofree char *base = g_path_get_basename (mshed_archive_get_path (self->archive_edit));

      primary = g_strdup_printf (_("Save changes to “%s” before closing?"), base);
    }
  else if (self->document == NULL || !mshed_document_get_modified (self->document))
    return FALSE;
  else
    primary = g_strdup_printf (_("Save changes to “%s” before closing?"),
                               mshed_document_get_title (self->document));
  dialog = question_dialog (self, GTK_MESSAGE_QUESTION, primary,
                            _("If you don’t save, your changes will be lost."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Discard"), 2, _("_Save"), 1, NULL);
  mark_destructive (dialog, 2);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), 1);
  g_signal_connect (dialog, "response", G_CALLBACK (on_close_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

static void
close_action (GtkWidget  *widget,
              const char *action,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

/* Editing -------------------------------------------------------------------------------- */

static void
undo_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);

  if (self->document)
    mshed_document_undo (self->document);
  else if (self->archive_edit)
    mshed_archive_undo (self->archive_edit);
}

static void
redo_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);

  if (self->document)
    mshed_document_redo (self->document);
  else if (self->archive_edit)
    mshed_archive_redo (self->archive_edit);
}

static void
find_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  if (_mshed_window_is_utf (MSHED_WINDOW (widget)))
    mshed_utf_tree_start_search (MSHED_WINDOW (widget)->utf_tree);
  else
    mshed_node_tree_start_search (MSHED_WINDOW (widget)->node_tree);
}

static void
rename_node_action (GtkWidget  *widget,
                    const char *action,
                    GVariant   *param)
{
  if (_mshed_window_is_utf (MSHED_WINDOW (widget)))
    mshed_utf_tree_start_rename (MSHED_WINDOW (widget)->utf_tree);
  else
    mshed_node_tree_start_rename (MSHED_WINDOW (widget)->node_tree);
}

static void
recompute_all_action (GtkWidget  *widget,
                      const char *action,
                      GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  /* never the conventions: those are applied one stale entry at a time, on request */
  if (self->document &&
      !mshed_document_recompute_stale_all (self->document, MSHED_DERIVED_DETERMINED, &error))
    _mshed_window_show_error (self, _("Could not recompute the stale data"), error->message);
}

static void
revalidate_action (GtkWidget  *widget,
                   const char *action,
                   GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);

  if (self->document)
    mshed_document_revalidate (self->document);
  gtk_notebook_set_current_page (self->bottom_notebook, 0);
  g_object_set (self, "show-bottom-panel", TRUE, NULL);
}

static void
next_problem_action (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  static guint cursor;
  guint n = mshed_diagnostics_view_get_n_shown (self->diagnostics_view);

  g_object_set (self, "show-bottom-panel", TRUE, NULL);
  gtk_notebook_set_current_page (self->bottom_notebook, 0);
  if (n == 0)
    return;
  cursor = (cursor + 1) % n;
  mshed_diagnostics_view_activate (self->diagnostics_view, cursor);
}

static void
reload_now (MshedWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->document && !mshed_document_reload (self->document, &error))
    _mshed_window_show_error (self, _("Could not reload the file"), error->message);
}

static void
on_reload_response (GtkDialog   *dialog,
                    int          response,
                    MshedWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    reload_now (self);
}

/* Unsaved edits are not replaced without asking (as for closing); the reload itself is one
 * undo step, so Ctrl+Z brings them back even after "Reload". */
static void
reload_action (GtkWidget  *widget,
               const char *action,
               GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  g_autofree char *primary = NULL;
  GtkWidget *dialog;

  if (self->document == NULL)
    return;
  if (!mshed_document_get_modified (self->document))
    {
      reload_now (self);
      return;
    }
  primary = g_strdup_printf (_("Discard the changes to “%s” and reload it from disk?"),
                             mshed_document_get_title (self->document));
  dialog = question_dialog (self, GTK_MESSAGE_QUESTION, primary,
                            _("The unsaved changes are replaced by the file as it is on disk. "
                              "Undo (Ctrl+Z) brings them back."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("Discard and _Reload"), GTK_RESPONSE_ACCEPT, NULL);
  mark_destructive (dialog, GTK_RESPONSE_ACCEPT);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_signal_connect (dialog, "response", G_CALLBACK (on_reload_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Exports -------------------------------------------------------------------------------- */

/* Writes something of the window to a file the user chooses: @write does the work, @failure
 * is the dialog's headline when it fails. */
typedef gboolean (*ExportFunc) (MshedWindow *self,
                                const char  *path,
                                GError     **error);

typedef struct {
  MshedWindow *self;
  ExportFunc   write;
  const char  *failure;
} Export;

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    Export          *export)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;

      if (path && !export->write (export->self, path, &error))
        _mshed_window_show_error (export->self, _(export->failure), error->message);
    }
  g_object_unref (export->self);
  g_free (export);
  g_object_unref (dialog);
}

static void
ask_export (MshedWindow *self,
            const char  *title,
            const char  *accept,
            const char  *current_name,
            ExportFunc   write,
            const char  *failure)
{
  GtkFileChooserNative *dialog;
  Export *export = g_new0 (Export, 1);

  export->self = g_object_ref (self);
  export->write = write;
  export->failure = failure;
  dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        accept, _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), current_name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), export);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static gboolean
write_csv (MshedWindow *self,
           const char  *path,
           GError     **error)
{
  return mshed_unknown_table_export_csv (self->unknown_table, path, error);
}

static gboolean
write_preview (MshedWindow *self,
               const char  *path,
               GError     **error)
{
  return mshed_model_view_save_png (self->model_view, path, error);
}

static void
export_csv_action (GtkWidget  *widget,
                   const char *action,
                   GVariant   *param)
{
  ask_export (MSHED_WINDOW (widget), _("Export Unknown Fields as CSV"), _("_Export"),
              "unknown-fields.csv", write_csv, N_("Could not export the table"));
}

static void
save_preview_action (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  ask_export (MSHED_WINDOW (widget), _("Save Preview as PNG"), _("_Save"), "preview.png",
              write_preview, N_("Could not save the picture"));
}

/* Check Folder…: a window of its own, whose results open models here or in new windows. */
static void
check_folder_action (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (widget));

  gtk_window_present (GTK_WINDOW (mshed_check_window_new (MSHED_APPLICATION (app),
                                                          GTK_WINDOW (widget))));
}

void
_mshed_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.rename-node", NULL, rename_node_action);
  gtk_widget_class_install_action (widget_class, "win.recompute-all", NULL, recompute_all_action);
  gtk_widget_class_install_action (widget_class, "win.revalidate", NULL, revalidate_action);
  gtk_widget_class_install_action (widget_class, "win.next-problem", NULL, next_problem_action);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, export_csv_action);
  gtk_widget_class_install_action (widget_class, "win.save-preview", NULL, save_preview_action);
  gtk_widget_class_install_action (widget_class, "win.reload", NULL, reload_action);
  gtk_widget_class_install_action (widget_class, "win.check-folder", NULL, check_folder_action);
  _mshed_window_gltf_class_init (widget_class);

  /* After the focused widget had its turn (bubble phase): Ctrl+F in a view that does not
   * search itself (preview, problems, header) finds a node by name. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.find",
                                       NULL);
}

void
_mshed_window_actions_init (MshedWindow *self)
{
  /* the tooltips name the command Ctrl+Z / Ctrl+Shift+Z would undo or redo, always: the
   * bindings follow every change of the labels (and show plain "Undo" without a document) */
  self->document_bindings = g_binding_group_new ();
  g_binding_group_bind_full (self->document_bindings, "undo-label", self->undo_button,
                             "tooltip-text", G_BINDING_SYNC_CREATE, undo_label_to_tooltip, NULL,
                             NULL, NULL);
  g_binding_group_bind_full (self->document_bindings, "redo-label", self->redo_button,
                             "tooltip-text", G_BINDING_SYNC_CREATE, redo_label_to_tooltip, NULL,
                             NULL, NULL);
  gtk_widget_set_tooltip_text (self->undo_button, _("Undo"));
  gtk_widget_set_tooltip_text (self->redo_button, _("Redo"));

  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), self);
}
