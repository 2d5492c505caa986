/* mshed-window-gltf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Export… and Import glTF… of the window (docs/gltf.md): the work of `mshed-cli export` and
 * `mshed-cli import` in a GTask thread, with a progress window and Cancel. The thread gets
 * its own copy of the model (parsed from the document's bytes), so the document is only
 * touched on the main thread: an import into the open model reads the glTF in the thread and
 * applies it there as one undo step.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-application.h"
#include "mshed-gltf-import.h"
#include "mshed-gltf.h"
#include "mshed-obj.h"
#include "mshed-window-private.h"

typedef struct {
  MshedWindow      *self;
  GtkWindow        *progress;
  guint             pulse_id;
  /* export */
  GBytes           *model_bytes;
  char             *path;
  gboolean          obj;
  MshedGltfOptions  gltf;
  MshedObjOptions   obj_options;
  /* import */
  gboolean          new_window;
} Job;

/* Jobs running for @self, as object data "mshed-gltf-jobs" (tests wait for 0). */
static void
count_job (MshedWindow *self,
           gint         delta)
{
  gint n = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "mshed-gltf-jobs"));

  g_object_set_data (G_OBJECT (self), "mshed-gltf-jobs", GINT_TO_POINTER (n + delta));
}

static void
job_free (Job *job)
{
  count_job (job->self, -1);
  if (job->pulse_id)
    g_source_remove (job->pulse_id);
  if (job->progress)
    gtk_window_destroy (job->progress);
  g_clear_pointer (&job->model_bytes, g_bytes_unref);
  g_free (job->path);
  g_object_unref (job->self);
  g_free (job);
}

static gboolean
pulse (gpointer data)
{
  gtk_progress_bar_pulse (data);
  return G_SOURCE_CONTINUE;
}

/* A small modal window: what runs, a pulsing bar and Cancel. */
static void
show_progress (Job          *job,
               const char   *text,
               GCancellable *cancellable)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *bar = gtk_progress_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));

  job->progress = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (job->progress, text);
  gtk_window_set_transient_for (job->progress, GTK_WINDOW (job->self));
  gtk_window_set_modal (job->progress, TRUE);
  gtk_window_set_deletable (job->progress, FALSE);
  gtk_window_set_default_size (job->progress, 360, -1);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (bar), text);
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (bar), TRUE);
  gtk_widget_set_halign (cancel, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), cancel);
  gtk_window_set_child (job->progress, box);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (g_cancellable_cancel), cancellable);
  job->pulse_id = g_timeout_add (100, pulse, bar);
  count_job (job->self, 1);
  gtk_window_present (job->progress);
}

/* Export ------------------------------------------------------------------------------------- */

static gboolean
write_contents (const char    *path,
                const void    *data,
                gsize          size,
                GCancellable  *cancellable,
                GError       **error)
{
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return g_file_set_contents (path, data, (gssize) size, error);
}

static void
export_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (job->model_bytes,
                                                            MSHED_MODE_TOLERANT, NULL, &error);

  if (model == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (job->obj)
    {
      g_autoptr(GString) obj = g_string_new (NULL);
      g_autoptr(GString) mtl = g_string_new (NULL);
      g_autofree char *stem = g_strndup (job->path, strlen (job->path) - 4);
      g_autofree char *mtl_path = g_strconcat (stem, ".mtl", NULL);
      g_autofree char *mtl_name = g_path_get_basename (mtl_path);

      job->obj_options.mtllib = mtl_name;
      mshed_obj_export_msh (model, &job->obj_options, obj, mtl, NULL);
      if (!write_contents (job->path, obj->str, obj->len, cancellable, &error) ||
          !write_contents (mtl_path, mtl->str, mtl->len, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  else
    {
      g_autoptr(GBytes) out = mshed_gltf_export (model, &job->gltf, NULL);

      if (!write_contents (job->path, g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                           cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  g_task_return_boolean (task, TRUE);
}

static void
export_done (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _mshed_window_show_error (job->self, _("Could not export the model"), error->message);
}

/* Starts the export of the open model to @path (.glb, .gltf or .obj) at @lod / @group, at
 * @frame (-1: the rest pose). FALSE when there is nothing to export or @path has another
 * suffix. */
gboolean
_mshed_window_export_model (MshedWindow *self,
                            const char  *path,
                            guint        lod,
                            guint        group,
                            gint         frame)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *lower = g_ascii_strdown (path, -1);
  GTask *task;
  Job *job;

  if (self->document == NULL || mshed_document_get_model (self->document) == NULL)
    return FALSE;
  job = g_new0 (Job, 1);
  job->self = g_object_ref (self);
  job->path = g_strdup (path);
  job->obj = g_str_has_suffix (lower, ".obj");
  mshed_gltf_options_init (&job->gltf);
  mshed_obj_options_init (&job->obj_options);
  if (!job->obj && !mshed_gltf_format_for_path (path, &job->gltf.format))
    {
      job_free (job);
      _mshed_window_show_error (self, _("Could not export the model"),
                                _("Choose a name ending in .glb, .gltf or .obj."));
      return FALSE;
    }
  job->gltf.lod = job->obj_options.lod = lod;
  job->gltf.group = job->obj_options.group = group;
  job->gltf.at_frame = job->obj_options.at_frame = frame >= 0;
  job->gltf.frame = job->obj_options.frame = (guint) MAX (frame, 0);
  job->model_bytes = mshed_document_serialize (self->document);
  show_progress (job, _("Exporting…"), cancellable);
  task = g_task_new (self, cancellable, export_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, export_thread);
  g_object_unref (task);
  return TRUE;
}

static guint
choice_uint (GtkFileChooser *chooser,
             const char     *id)
{
  const char *value = gtk_file_chooser_get_choice (chooser, id);

  return value ? (guint) g_ascii_strtoull (value, NULL, 10) : 0;
}

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    MshedWindow     *self)
{
  GtkFileChooser *chooser = GTK_FILE_CHOOSER (dialog);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (chooser);
      g_autofree char *path = g_file_get_path (file);
      const char *frame = gtk_file_chooser_get_choice (chooser, "frame");

      if (path)
        _mshed_window_export_model (self, path, choice_uint (chooser, "lod"),
                                    choice_uint (chooser, "group"),
                                    frame && g_strcmp0 (frame, "rest") != 0
                                      ? (gint) g_ascii_strtoll (frame, NULL, 10) : -1);
    }
  g_object_unref (self);
  g_object_unref (dialog);
}

static void
add_number_choice (GtkFileChooser *chooser,
                   const char     *id,
                   const char     *label,
                   const char     *format,
                   guint           n)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (ids, g_strdup_printf ("%u", i));
      g_ptr_array_add (labels, g_strdup_printf (format, i));
    }
  g_ptr_array_add (ids, NULL);
  g_ptr_array_add (labels, NULL);
  gtk_file_chooser_add_choice (chooser, id, label, (const char **) ids->pdata,
                               (const char **) labels->pdata);
  gtk_file_chooser_set_choice (chooser, id, "0");
}

static void
export_model_action (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  MshedModel *model = self->document ? mshed_document_get_model (self->document) : NULL;
  g_autofree char *name = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  GtkFileChooserNative *dialog;
  guint frames;

  if (model == NULL)
    return;
  name = g_strdup_printf ("%s.glb", mshed_document_get_title (self->document));
  dialog = gtk_file_chooser_native_new (_("Export as glTF or OBJ"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                        _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  add_number_choice (GTK_FILE_CHOOSER (dialog), "lod", _("LOD"), _("LOD %u"), 3);
  add_number_choice (GTK_FILE_CHOOSER (dialog), "group", _("Group"), _("Group %u"), 5);
  frames = MIN (mshed_model_get_frame_count (model), 1000);
  g_ptr_array_add (ids, g_strdup ("rest"));
  g_ptr_array_add (labels, g_strdup (_("Rest pose")));
  for (guint f = 0; f < frames && frames > 1; f++)
    {
      g_ptr_array_add (ids, g_strdup_printf ("%u", f));
      g_ptr_array_add (labels, g_strdup_printf (_("Frame %u"), f));
    }
  g_ptr_array_add (ids, NULL);
  g_ptr_array_add (labels, NULL);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "frame", _("Pose"),
                               (const char **) ids->pdata, (const char **) labels->pdata);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "frame", "rest");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Import ------------------------------------------------------------------------------------- */

static void
import_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  MshedGltf *gltf = mshed_gltf_read_file (job->path, &error);

  if (gltf == NULL || g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_clear_pointer (&gltf, mshed_gltf_free);
      g_task_return_error (task, error);
      return;
    }
  if (job->new_window)
    {
      g_autoptr(MshedNres) nres = mshed_gltf_build_model (gltf, &error);

      mshed_gltf_free (gltf);
      if (nres == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_task_return_pointer (task, mshed_nres_build_canonical (nres),
                             (GDestroyNotify) g_bytes_unref);
      return;
    }
  g_task_return_pointer (task, gltf, (GDestroyNotify) mshed_gltf_free);
}

static void
import_done (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  Job *job = g_task_get_task_data (G_TASK (result));
  MshedWindow *self = job->self;
  g_autoptr(GError) error = NULL;
  gpointer out = g_task_propagate_pointer (G_TASK (result), &error);

  if (out && g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "");
  if (out && error == NULL && job->new_window)
    {
      g_autoptr(MshedModel) model = mshed_model_new_from_bytes (out, MSHED_MODE_TOLERANT,
                                                                NULL, &error);
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

      if (model)
        {
          g_autoptr(MshedDocument) doc = mshed_document_new_for_model (model,
                                                                       MSHED_MODE_STRICT);
          MshedWindow *window = mshed_window_new (MSHED_APPLICATION (app));

          _mshed_window_set_document (window, doc, FALSE);
          gtk_window_present (GTK_WINDOW (window));
        }
    }
  else if (out && error == NULL && self->document)
    mshed_gltf_import_into (self->document, out, NULL, &error);
  if (out)
    {
      if (job->new_window)
        g_bytes_unref (out);
      else
        mshed_gltf_free (out);
    }
  if (error && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _mshed_window_show_error (self, _("Could not import the glTF"), error->message);
}

/* Starts importing @path: into the open model (one undo step) or, with @new_window, as a new
 * model in a new window. */
void
_mshed_window_import_gltf (MshedWindow *self,
                           const char  *path,
                           gboolean     new_window)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Job *job = g_new0 (Job, 1);
  GTask *task;

  job->self = g_object_ref (self);
  job->path = g_strdup (path);
  job->new_window = new_window || self->document == NULL ||
                    mshed_document_get_model (self->document) == NULL;
  show_progress (job, _("Importing…"), cancellable);
  task = g_task_new (self, cancellable, import_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, import_thread);
  g_object_unref (task);
}

static void
on_import_response (GtkNativeDialog *dialog,
                    int              response,
                    MshedWindow     *self)
{
  GtkFileChooser *chooser = GTK_FILE_CHOOSER (dialog);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (chooser);
      g_autofree char *path = g_file_get_path (file);

      if (path)
        _mshed_window_import_gltf (self, path,
                                   g_strcmp0 (gtk_file_chooser_get_choice (chooser, "into"),
                                              "new") == 0);
    }
  g_object_unref (self);
  g_object_unref (dialog);
}

static void
import_gltf_action (GtkWidget  *widget,
                    const char *action,
                    GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter = gtk_file_filter_new ();
  const char *ids[] = { "update", "new", NULL };
  const char *labels[] = { _("Update this model"), _("Open as a new model"), NULL };

  dialog = gtk_file_chooser_native_new (_("Import glTF"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"),
                                        _("_Cancel"));
  gtk_file_filter_set_name (filter, _("glTF 2.0 (*.glb, *.gltf)"));
  gtk_file_filter_add_suffix (filter, "glb");
  gtk_file_filter_add_suffix (filter, "gltf");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_unref (filter);
  if (self->document && mshed_document_get_model (self->document))
    {
      gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "into", _("Import"), ids, labels);
      gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "into", "update");
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_import_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
_mshed_window_gltf_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export-model", NULL,
                                   export_model_action);
  gtk_widget_class_install_action (widget_class, "win.import-gltf", NULL, import_gltf_action);
}

/* Export needs an open MSH model; import works in any window. */
void
_mshed_window_gltf_update (MshedWindow *self)
{
  gboolean msh = self->document && mshed_document_get_model (self->document);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-model", msh);
}
