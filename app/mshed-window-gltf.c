/* mshed-window-gltf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Export… and Import glTF… of the window (docs/gltf.md): the work of `mshed-cli export` and
 * `mshed-cli import`, for an MSH or a DFM, in a GTask thread behind a progress window whose
 * bar shows the fraction and stage the model code reports (mshed-progress.h) and whose Cancel
 * stops the thread at its next step. The thread gets its own copy of the model (parsed from
 * the document's bytes), so the document is only touched on the main thread: an import into
 * the open model runs first on that copy in the thread (progress, Cancel, errors), and only a
 * finished import that changed something is then applied to the document, as one undo step.
 * A cancelled export writes nothing (each file is written whole or not at all, and not once
 * cancelled); a cancelled import changes nothing.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-application.h"
#include "mshed-error.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-import.h"
#include "mshed-gltf.h"
#include "mshed-obj.h"
#include "mshed-window-private.h"

/* The progress the thread reports, shown by the main thread: the thread writes the latest
 * fraction and stage under @lock and queues one idle at a time; the idle shows them in @bar
 * (main thread only, NULL once the job ended). */
typedef struct {
  gatomicrefcount  ref;
  GMutex           lock;
  double           fraction;
  char            *stage;
  gboolean         queued;
  GtkProgressBar  *bar;
} Meter;

typedef struct {
  MshedWindow      *self;
  GtkWindow        *progress;
  Meter            *meter;
  gboolean          dfm;          /* the open model (or, for a new window, the glTF) is a DFM */
  GBytes           *model_bytes;  /* the document's bytes: export, import into */
  MshedMode         mode;
  char             *path;
  /* export */
  gboolean          obj;
  MshedGltfOptions  gltf;
  MshedObjOptions   obj_options;
  /* import */
  gboolean          new_window;
  gboolean          changed;      /* the import on the copy made an edit */
  GTaskThreadFunc   func;
  gint64            thread_end;   /* g_get_monotonic_time() when the thread returned */
} Job;

static Meter *
meter_ref (Meter *meter)
{
  g_atomic_ref_count_inc (&meter->ref);
  return meter;
}

static void
meter_unref (gpointer data)
{
  Meter *meter = data;

  if (!g_atomic_ref_count_dec (&meter->ref))
    return;
  g_mutex_clear (&meter->lock);
  g_free (meter->stage);
  g_free (meter);
}

/* Main thread: the latest fraction and stage into the bar. */
static gboolean
meter_show (gpointer data)
{
  Meter *meter = data;
  g_autofree char *stage = NULL;
  double fraction;

  g_mutex_lock (&meter->lock);
  fraction = meter->fraction;
  stage = g_strdup (meter->stage);
  meter->queued = FALSE;
  g_mutex_unlock (&meter->lock);
  if (meter->bar)
    {
      gtk_progress_bar_set_fraction (meter->bar, fraction);
      if (stage)
        gtk_progress_bar_set_text (meter->bar, stage);
    }
  return G_SOURCE_REMOVE;
}

static guint step_delay_ms;  /* tests: a pause after each step of the thread */

void
_mshed_window_gltf_set_step_delay (guint ms)
{
  g_atomic_int_set (&step_delay_ms, ms);
}

/* The thread's MshedProgressFunc. */
static void
meter_update (gpointer    data,
              double      fraction,
              const char *stage)
{
  Meter *meter = data;
  guint delay = (guint) g_atomic_int_get (&step_delay_ms);

  g_mutex_lock (&meter->lock);
  meter->fraction = fraction;
  if (stage && g_strcmp0 (stage, meter->stage) != 0)
    {
      g_free (meter->stage);
      meter->stage = g_strdup (stage);
    }
  if (!meter->queued)
    {
      meter->queued = TRUE;
      g_idle_add_full (G_PRIORITY_DEFAULT, meter_show, meter_ref (meter), meter_unref);
    }
  g_mutex_unlock (&meter->lock);
  if (delay > 0)
    g_usleep (delay * (gulong) 1000);
}

/* Jobs running for @self, as object data "mshed-gltf-jobs" (tests wait for 0). */
static void
count_job (MshedWindow *self,
           gint         delta)
{
  gint n = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "mshed-gltf-jobs"));

  g_object_set_data (G_OBJECT (self), "mshed-gltf-jobs", GINT_TO_POINTER (n + delta));
}

static Job *
job_new (MshedWindow *self,
         const char  *path)
{
  Job *job = g_new0 (Job, 1);

  job->self = g_object_ref (self);
  job->path = g_strdup (path);
  job->meter = g_new0 (Meter, 1);
  g_atomic_ref_count_init (&job->meter->ref);
  g_mutex_init (&job->meter->lock);
  job->mode = self->document ? mshed_document_get_mode (self->document) : MSHED_MODE_STRICT;
  return job;
}

static void
job_free (Job *job)
{
  /* tests: when the thread ended (a gint64 in a pointer: only where it fits) */
  if (sizeof (gpointer) >= sizeof (gint64))
    g_object_set_data (G_OBJECT (job->self), "mshed-gltf-thread-end",
                       GSIZE_TO_POINTER ((gsize) job->thread_end));
  if (job->progress)
    {
      count_job (job->self, -1);
      g_object_set_data (G_OBJECT (job->self), "mshed-gltf-progress", NULL);
      gtk_window_destroy (job->progress);
    }
  job->meter->bar = NULL;
  meter_unref (job->meter);
  g_clear_pointer (&job->model_bytes, g_bytes_unref);
  g_free (job->path);
  g_object_unref (job->self);
  g_free (job);
}

static gboolean
job_free_idle (gpointer data)
{
  job_free (data);
  return G_SOURCE_REMOVE;
}

/* The task's data goes with the task's last reference, which the worker thread may hold
 * (the completion ran first): the progress window is destroyed on the main thread only. */
static void
job_release (Job *job)
{
  if (g_main_context_is_owner (g_main_context_default ()))
    job_free (job);
  else
    g_idle_add_full (G_PRIORITY_DEFAULT, job_free_idle, job, NULL);
}

static void
on_cancel_clicked (GtkButton    *button,
                   GCancellable *cancellable)
{
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  gtk_button_set_label (button, _("Cancelling…"));
  g_cancellable_cancel (cancellable);
}

/* A small modal window: what runs, a bar with the fraction and stage, and Cancel. It is the
 * window's object data "mshed-gltf-progress" while it is shown, with the job's cancellable as
 * its "mshed-cancellable" (tests click its Cancel and time the end of the job). */
static void
show_progress (Job          *job,
               const char   *text,
               GCancellable *cancellable)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *bar = gtk_progress_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *title = gtk_label_new (text);
  g_autofree char *base = g_path_get_basename (job->path);
  g_autofree char *name = g_filename_display_name (base);
  GtkWidget *file = gtk_label_new (name);

  job->progress = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (job->progress, text);
  gtk_window_set_transient_for (job->progress, GTK_WINDOW (job->self));
  gtk_window_set_modal (job->progress, TRUE);
  gtk_window_set_deletable (job->progress, FALSE);
  gtk_window_set_resizable (job->progress, FALSE);
  gtk_window_set_default_size (job->progress, 400, -1);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_halign (title, GTK_ALIGN_START);
  gtk_label_set_ellipsize (GTK_LABEL (file), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_halign (file, GTK_ALIGN_START);
  gtk_widget_add_css_class (file, "dim-label");
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (bar), _("Starting…"));
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (bar), TRUE);
  gtk_widget_set_halign (cancel, GTK_ALIGN_END);
  gtk_widget_set_name (cancel, "cancel");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), file);
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), cancel);
  gtk_window_set_child (job->progress, box);
  g_signal_connect_object (cancel, "clicked", G_CALLBACK (on_cancel_clicked), cancellable, 0);
  g_object_set_data_full (G_OBJECT (job->progress), "mshed-cancellable",
                          g_object_ref (cancellable), g_object_unref);
  job->meter->bar = GTK_PROGRESS_BAR (bar);
  count_job (job->self, 1);
  g_object_set_data (G_OBJECT (job->self), "mshed-gltf-progress", job->progress);
  gtk_window_present (job->progress);
}

/* Export ------------------------------------------------------------------------------------- */

/* Both files of an OBJ export (@mtl_path NULL for glTF) only when the work was not
 * cancelled; each written whole (a temporary file renamed) or not at all. */
static gboolean
write_files (const char    *path,
             GBytes        *data,
             const char    *mtl_path,
             GBytes        *mtl,
             MshedProgress *progress,
             GError       **error)
{
  if (!mshed_progress_step (progress, 0.9, _("Writing the file"), error))
    return FALSE;
  if (mtl_path && !g_file_set_contents (mtl_path, g_bytes_get_data (mtl, NULL),
                                        (gssize) g_bytes_get_size (mtl), error))
    return FALSE;
  if (!g_file_set_contents (path, g_bytes_get_data (data, NULL),
                            (gssize) g_bytes_get_size (data), error))
    return FALSE;
  mshed_progress_report (progress, 1.0, NULL);
  return TRUE;
}

/* The OBJ text and its MTL of the job's model (the level of a DFM, the LOD and group of an
 * MSH); NULL with @error. */
static GBytes *
export_obj (Job     *job,
            GBytes **mtl_out,
            GError **error)
{
  g_autoptr(GString) obj = g_string_new (NULL);
  g_autoptr(GString) mtl = g_string_new (NULL);
  g_autofree char *mtl_path = mshed_obj_mtl_path (job->path);
  g_autofree char *mtl_base = g_path_get_basename (mtl_path);
  g_autofree char *mtl_name = g_filename_display_name (mtl_base);

  job->obj_options.mtllib = mtl_name;
  if (job->dfm)
    {
      g_autoptr(MshedDfm) dfm = mshed_dfm_new_from_bytes (job->model_bytes,
                                                          MSHED_MODE_TOLERANT, NULL, error);

      if (dfm == NULL)
        return NULL;
      if (!mshed_obj_export_dfm (dfm, &job->obj_options, obj, mtl, NULL))
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("Level %u cannot be read"), job->obj_options.level);
          return NULL;
        }
    }
  else
    {
      g_autoptr(MshedModel) model = mshed_model_new_from_bytes (job->model_bytes,
                                                                MSHED_MODE_TOLERANT, NULL,
                                                                error);

      if (model == NULL)
        return NULL;
      mshed_obj_export_msh (model, &job->obj_options, obj, mtl, NULL);
    }
  job->obj_options.mtllib = NULL;
  *mtl_out = g_string_free_to_bytes (g_steal_pointer (&mtl));
  return g_string_free_to_bytes (g_steal_pointer (&obj));
}

/* The .glb or .gltf of the job's model, with the steps reported to @progress. */
static GBytes *
export_gltf (Job            *job,
             MshedProgress  *progress,
             GError        **error)
{
  if (job->dfm)
    {
      g_autoptr(MshedDfm) dfm = mshed_dfm_new_from_bytes (job->model_bytes,
                                                          MSHED_MODE_TOLERANT, NULL, error);

      return dfm ? mshed_gltf_export_dfm (dfm, job->gltf.format, job->obj_options.level,
                                          progress, NULL, error)
                 : NULL;
    }
  else
    {
      g_autoptr(MshedModel) model = mshed_model_new_from_bytes (job->model_bytes,
                                                                MSHED_MODE_TOLERANT, NULL,
                                                                error);

      return model ? mshed_gltf_export (model, &job->gltf, progress, NULL, error) : NULL;
    }
}

static void
export_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  MshedProgress progress, part;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) mtl = NULL;
  g_autofree char *mtl_path = job->obj ? mshed_obj_mtl_path (job->path) : NULL;

  mshed_progress_init (&progress, meter_update, job->meter, cancellable);
  mshed_progress_part (&progress, 0.0, 0.9, &part);
  if (mshed_progress_step (&progress, 0.0, _("Reading the model"), &error))
    out = job->obj ? export_obj (job, &mtl, &error) : export_gltf (job, &part, &error);
  if (out == NULL || !write_files (job->path, out, mtl_path, mtl, &progress, &error))
    g_task_return_error (task, error);
  else
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

/* The job's function; the task completes once it returned (GTask). */
static void
job_thread (GTask        *task,
            gpointer      source,
            gpointer      data,
            GCancellable *cancellable)
{
  Job *job = data;

  job->func (task, source, data, cancellable);
  job->thread_end = g_get_monotonic_time ();
}

/* Starts @job's thread (@func) behind the progress window titled @text. */
static void
run_job (Job                *job,
         const char         *text,
         GTaskThreadFunc     func,
         GAsyncReadyCallback done)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GTask) task = g_task_new (job->self, cancellable, done, NULL);

  show_progress (job, text, cancellable);
  job->func = func;
  g_task_set_task_data (task, job, (GDestroyNotify) job_release);
  g_task_run_in_thread (task, job_thread);
}

/* Starts the export of @job to its path; FALSE (after a message) for a suffix other than
 * .glb, .gltf or .obj. */
static gboolean
start_export (Job *job)
{
  g_autofree char *lower = g_ascii_strdown (job->path, -1);

  job->obj = g_str_has_suffix (lower, ".obj");
  if (!job->obj && !mshed_gltf_format_for_path (job->path, &job->gltf.format))
    {
      _mshed_window_show_error (job->self, _("Could not export the model"),
                                _("Choose a name ending in .glb, .gltf or .obj."));
      job_free (job);
      return FALSE;
    }
  job->model_bytes = mshed_document_serialize (job->self->document);
  run_job (job, _("Exporting…"), export_thread, export_done);
  return TRUE;
}

/* Starts the export of the open MSH model to @path (.glb, .gltf or .obj) at @lod / @group, at
 * @frame (-1: the rest pose), with the key tracks unless @animations is FALSE (glTF only).
 * FALSE when there is nothing to export or @path has another suffix. */
gboolean
_mshed_window_export_model (MshedWindow *self,
                            const char  *path,
                            guint        lod,
                            guint        group,
                            gint         frame,
                            gboolean     animations)
{
  Job *job;

  if (self->document == NULL || mshed_document_get_model (self->document) == NULL)
    return FALSE;
  job = job_new (self, path);
  mshed_gltf_options_init (&job->gltf);
  mshed_obj_options_init (&job->obj_options);
  job->gltf.lod = job->obj_options.lod = lod;
  job->gltf.group = job->obj_options.group = group;
  job->gltf.at_frame = job->obj_options.at_frame = frame >= 0;
  job->gltf.frame = job->obj_options.frame = (guint) MAX (frame, 0);
  job->gltf.animations = animations;
  return start_export (job);
}

/* Starts the export of the open DFM to @path: @level listed first in glTF (docs/gltf.md §8),
 * or the level written to OBJ. FALSE when there is no DFM or @path has another suffix. */
gboolean
_mshed_window_export_dfm (MshedWindow *self,
                          const char  *path,
                          guint        level)
{
  Job *job;

  if (self->document == NULL || mshed_document_get_dfm (self->document) == NULL)
    return FALSE;
  job = job_new (self, path);
  job->dfm = TRUE;
  mshed_gltf_options_init (&job->gltf);
  mshed_obj_options_init (&job->obj_options);
  job->obj_options.level = level;
  return start_export (job);
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

      if (path && self->document && mshed_document_get_dfm (self->document))
        _mshed_window_export_dfm (self, path, choice_uint (chooser, "level"));
      else if (path)
        _mshed_window_export_model (self, path, choice_uint (chooser, "lod"),
                                    choice_uint (chooser, "group"),
                                    frame && g_strcmp0 (frame, "rest") != 0
                                      ? (gint) g_ascii_strtoll (frame, NULL, 10) : -1,
                                    g_strcmp0 (gtk_file_chooser_get_choice (chooser,
                                                                            "animation"),
                                               "false") != 0);
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

/* The MSH choices of `mshed-cli export`: --lod, --group, --frame and --no-animation. */
static void
add_msh_choices (GtkFileChooser *chooser,
                 MshedModel     *model)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint frames = MIN (mshed_model_get_frame_count (model), 1000);

  add_number_choice (chooser, "lod", _("LOD"), _("LOD %u"), MSHED_N_LODS);
  add_number_choice (chooser, "group", _("Group"), _("Group %u"), MSHED_N_GROUPS);
  g_ptr_array_add (ids, g_strdup ("rest"));
  g_ptr_array_add (labels, g_strdup (_("Rest pose")));
  for (guint f = 0; f < frames && frames > 1; f++)
    {
      g_ptr_array_add (ids, g_strdup_printf ("%u", f));
      g_ptr_array_add (labels, g_strdup_printf (_("Frame %u"), f));
    }
  g_ptr_array_add (ids, NULL);
  g_ptr_array_add (labels, NULL);
  gtk_file_chooser_add_choice (chooser, "frame", _("Pose"), (const char **) ids->pdata,
                               (const char **) labels->pdata);
  gtk_file_chooser_set_choice (chooser, "frame", "rest");
  gtk_file_chooser_add_choice (chooser, "animation", _("Animation keys (glTF)"), NULL, NULL);
  gtk_file_chooser_set_choice (chooser, "animation", "true");
}

/* The dialog of Export as glTF or OBJ…, not shown yet (tests take its picture). */
GtkFileChooserNative *
_mshed_window_export_dialog (MshedWindow *self)
{
  MshedModel *model = mshed_document_get_model (self->document);
  MshedDfm *dfm = mshed_document_get_dfm (self->document);
  const char *title = mshed_document_get_title (self->document);
  const char *dot = strrchr (title, '.');
  g_autofree char *stem = dot && dot != title ? g_strndup (title, dot - title) : g_strdup (title);
  g_autofree char *name = g_strconcat (stem, ".glb", NULL);
  GtkFileFilter *filter = gtk_file_filter_new ();
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Export as glTF or OBJ"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                        _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  gtk_file_filter_set_name (filter, _("glTF 2.0 or OBJ (*.glb, *.gltf, *.obj)"));
  gtk_file_filter_add_suffix (filter, "glb");
  gtk_file_filter_add_suffix (filter, "gltf");
  gtk_file_filter_add_suffix (filter, "obj");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_unref (filter);
  if (dfm)
    /* translators: a deformable model's level of detail, the file's Mesh<n> */
    add_number_choice (GTK_FILE_CHOOSER (dialog), "level", _("Level"), _("Level %u"),
                       MAX (mshed_dfm_get_n_levels (dfm), 1));
  else
    add_msh_choices (GTK_FILE_CHOOSER (dialog), model);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  return dialog;
}

static void
export_model_action (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  GtkFileChooserNative *dialog;

  if (self->document == NULL || (mshed_document_get_model (self->document) == NULL &&
                                 mshed_document_get_dfm (self->document) == NULL))
    return;
  dialog = _mshed_window_export_dialog (self);
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Import ------------------------------------------------------------------------------------- */

/* A document of the job's model, for the thread's trial import. */
static MshedDocument *
copy_document (Job     *job,
               GError **error)
{
  if (job->dfm)
    {
      g_autoptr(MshedUtf) utf = mshed_utf_parse (job->model_bytes, MSHED_MODE_TOLERANT, NULL,
                                                 error);

      return utf ? mshed_document_new_for_utf (utf, job->mode) : NULL;
    }
  else
    {
      g_autoptr(MshedModel) model = mshed_model_new_from_bytes (job->model_bytes,
                                                                MSHED_MODE_TOLERANT, NULL,
                                                                error);

      return model ? mshed_document_new_for_model (model, job->mode) : NULL;
    }
}

/* The bytes of a new model from @gltf (as `mshed-cli import` without --into): a DFM, the
 * one a DFM export carries with the glTF's changes, or one built from a skinned glTF; an MSH
 * built from any glTF. */
static GBytes *
new_model_bytes (Job            *job,
                 const MshedGltf *gltf,
                 MshedProgress  *progress,
                 GError        **error)
{
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(GBytes) source = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedDocument) doc = NULL;

  if (!mshed_progress_step (progress, 0.0, _("Building the model"), error))
    return NULL;
  if (!job->dfm)
    {
      nres = mshed_gltf_build_model (gltf, error);
      return nres ? mshed_nres_build_canonical (nres) : NULL;
    }
  if (!mshed_gltf_is_dfm_export (gltf))
    return mshed_gltf_build_dfm (gltf, error);
  source = mshed_gltf_dfm_source (gltf, error);
  if (source == NULL || (utf = mshed_utf_parse (source, MSHED_MODE_TOLERANT, NULL, error)) == NULL)
    return NULL;
  doc = mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
  if (!mshed_gltf_dfm_import_into (doc, gltf, progress, NULL, error))
    return NULL;
  return mshed_document_serialize (doc);
}

/* Imports @gltf into the document of the job's model, reporting to @progress. */
static gboolean
import_into (Job             *job,
             MshedDocument   *doc,
             const MshedGltf *gltf,
             MshedProgress   *progress,
             GError         **error)
{
  return job->dfm ? mshed_gltf_dfm_import_into (doc, gltf, progress, NULL, error)
                  : mshed_gltf_import_into (doc, gltf, progress, NULL, error);
}

/* Reads the glTF; then either builds the new model (returns its bytes) or imports into a copy
 * of the open one (returns the glTF for the main thread, job->changed when it edits). */
static void
import_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;
  MshedProgress progress, part;
  g_autoptr(MshedGltf) gltf = NULL;
  g_autoptr(MshedDocument) copy = NULL;
  GBytes *bytes;

  mshed_progress_init (&progress, meter_update, job->meter, cancellable);
  mshed_progress_part (&progress, 0.3, 1.0, &part);
  mshed_progress_report (&progress, 0.0, _("Reading the glTF"));
  gltf = job->dfm || job->model_bytes == NULL ? mshed_gltf_read_file_skinned (job->path, &error)
                                              : mshed_gltf_read_file (job->path, &error);
  if (gltf == NULL || !mshed_progress_step (&progress, 0.3, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (job->model_bytes == NULL)  /* no model open: the glTF says which kind */
    job->dfm = mshed_gltf_is_dfm_export (gltf) || gltf->n_skins > 0;
  if (job->new_window)
    {
      bytes = new_model_bytes (job, gltf, &part, &error);
      if (bytes == NULL || !mshed_progress_step (&progress, 1.0, NULL, &error))
        {
          g_clear_pointer (&bytes, g_bytes_unref);
          g_task_return_error (task, error);
        }
      else
        g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
      return;
    }
  copy = copy_document (job, &error);
  if (copy == NULL || !import_into (job, copy, gltf, &part, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  job->changed = mshed_document_can_undo (copy);
  g_task_return_pointer (task, g_steal_pointer (&gltf), (GDestroyNotify) mshed_gltf_free);
}

/* A new window for the model of @bytes (an MSH, or a DFM with @dfm). */
static gboolean
open_new_window (MshedWindow  *self,
                 GBytes       *bytes,
                 gboolean      dfm,
                 GError      **error)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  g_autoptr(MshedDocument) doc = NULL;
  MshedWindow *window;

  if (dfm)
    {
      g_autoptr(MshedUtf) utf = mshed_utf_parse (bytes, MSHED_MODE_TOLERANT, NULL, error);

      doc = utf ? mshed_document_new_for_utf (utf, MSHED_MODE_STRICT) : NULL;
    }
  else
    {
      g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT,
                                                                NULL, error);

      doc = model ? mshed_document_new_for_model (model, MSHED_MODE_STRICT) : NULL;
    }
  if (doc == NULL)
    return FALSE;
  window = mshed_window_new (MSHED_APPLICATION (app));
  _mshed_window_set_document (window, doc, FALSE);
  gtk_window_present (GTK_WINDOW (window));
  return TRUE;
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

  /* Cancel clicked after the thread's last step: still nothing changes */
  if (out && g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "");
  if (out && error == NULL && job->new_window)
    open_new_window (self, out, job->dfm, &error);
  else if (out && error == NULL && job->changed && self->document)
    import_into (job, self->document, out, NULL, &error);
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

/* Starts importing @path: into the open model, MSH or DFM (one undo step, none when nothing
 * changed) or, with @new_window, as a new model of the same kind in a new window (with no
 * model open: a DFM for a DFM export or a skinned glTF, else an MSH). */
void
_mshed_window_import_gltf (MshedWindow *self,
                           const char  *path,
                           gboolean     new_window)
{
  Job *job = job_new (self, path);
  gboolean open = self->document && (mshed_document_get_model (self->document) ||
                                     mshed_document_get_dfm (self->document));

  job->new_window = new_window || !open;
  if (open)
    {
      job->dfm = mshed_document_get_dfm (self->document) != NULL;
      job->model_bytes = mshed_document_serialize (self->document);
    }
  run_job (job, _("Importing…"), import_thread, import_done);
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
  if (self->document && (mshed_document_get_model (self->document) ||
                         mshed_document_get_dfm (self->document)))
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

/* Export needs an open MSH or DFM model; import works in any window. */
void
_mshed_window_gltf_update (MshedWindow *self)
{
  gboolean model = self->document && (mshed_document_get_model (self->document) ||
                                      mshed_document_get_dfm (self->document));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-model", model);
}
