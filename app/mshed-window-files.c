/* mshed-window-files.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How files reach a window: opening FILE or ARCHIVE:ENTRY, an archive's entry list (and the
 * way back to it from one of its models), the Open dialog, the recent-files menu and files
 * dropped on the window.
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-archive.h"
#include "mshed-compare-window.h"
#include "mshed-merge-window.h"
#include "mshed-error.h"
#include "mshed-thumbnails.h"
#include "mshed-window-private.h"

/* Models and the NRes archives that hold them, by file name suffix (matched without regard to
 * case): the Open dialog's default filter. */
static const char *const model_suffixes[] = { "msh", NULL };
static const char *const archive_suffixes[] = { "rlb", "lib", NULL };

/* Archives ------------------------------------------------------------------------------- */

#define MSHED_TYPE_ENTRY_ITEM (mshed_entry_item_get_type ())
G_DECLARE_FINAL_TYPE (MshedEntryItem, mshed_entry_item, MSHED, ENTRY_ITEM, GObject)

struct _MshedEntryItem {
  GObject  parent_instance;
  guint    index;
  char    *name;
  char    *type;
  guint32  size;
  gboolean model;
  char    *status;  /* a model entry's validation, else NULL */
  GBytes  *bytes;   /* a model entry's payload (its picture), else NULL */
};

G_DEFINE_FINAL_TYPE (MshedEntryItem, mshed_entry_item, G_TYPE_OBJECT)

static void
mshed_entry_item_finalize (GObject *object)
{
  MshedEntryItem *self = MSHED_ENTRY_ITEM (object);

  g_free (self->name);
  g_free (self->type);
  g_free (self->status);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  G_OBJECT_CLASS (mshed_entry_item_parent_class)->finalize (object);
}

static void
mshed_entry_item_class_init (MshedEntryItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_entry_item_finalize;
}

static void
mshed_entry_item_init (MshedEntryItem *self)
{
}

static char *
format_type (guint32 type)
{
  char c[5] = { (char) (type & 0xff), (char) ((type >> 8) & 0xff), (char) ((type >> 16) & 0xff),
                (char) (type >> 24), 0 };

  for (guint i = 0; i < 4; i++)
    if (!g_ascii_isprint (c[i]))
      return g_strdup_printf ("%u", type);
  return g_strdup (c);
}

static GtkWidget *
find_list_view (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_list_view (c);

      if (found)
        return found;
    }
  return NULL;
}

static gboolean
scroll_archive_tick (GtkWidget     *widget,
                     GdkFrameClock *clock,
                     gpointer       user_data)
{
  GtkWidget *list = find_list_view (widget);

  /* a list that has no size yet forgets where it was asked to scroll */
  if (list == NULL || gtk_widget_get_height (list) <= 0)
    return G_SOURCE_CONTINUE;
  gtk_widget_activate_action (list, "list.scroll-to-item", "u", GPOINTER_TO_UINT (user_data));
  return G_SOURCE_REMOVE;
}

/* Selects and shows the row of entry @name (matched without regard to case). */
static void
select_archive_entry (MshedWindow *self,
                      const char  *name)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (self->archive_view);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (selection));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(MshedEntryItem) item = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_ascii_strcasecmp (item->name, name) == 0)
        {
          gtk_selection_model_select_item (selection, i, TRUE);
          gtk_widget_add_tick_callback (GTK_WIDGET (self->archive_view), scroll_archive_tick,
                                        GUINT_TO_POINTER (i), NULL);
          return;
        }
    }
}

/* What the status column says of entry @index: nothing for an entry that holds no model. */
static char *
entry_status (MshedArchive *archive,
              guint         index)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();

  if (!mshed_entry_holds_model (mshed_nres_peek_entry (mshed_archive_get_nres (archive), index)))
    return NULL;
  mshed_archive_validate_entry (archive, index, diags);
  if (diags->n_errors == 0 && diags->n_warnings == 0)
    return g_strdup (_("valid"));
  if (diags->n_errors == 0)
    return g_strdup_printf (g_dngettext (NULL, "%u warning", "%u warnings", diags->n_warnings),
                            diags->n_warnings);
  return g_strdup_printf (g_dngettext (NULL, "%u error", "%u errors", diags->n_errors),
                          diags->n_errors);
}

/* Lists the entries of the archive being edited, keeping the selected row. */
void
_mshed_window_archive_fill (MshedWindow *self)
{
  MshedNres *nres = mshed_archive_get_nres (self->archive_edit);
  GListStore *store = g_list_store_new (MSHED_TYPE_ENTRY_ITEM);
  GtkSelectionModel *old = gtk_column_view_get_model (self->archive_view);
  guint n = mshed_nres_get_n_entries (nres);
  guint selected = GTK_IS_SINGLE_SELECTION (old)
                   ? gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (old))
                   : GTK_INVALID_LIST_POSITION;
  g_autofree char *base = g_path_get_basename (mshed_archive_get_path (self->archive_edit));
  g_autofree char *title = NULL;
  GtkSingleSelection *selection;
  guint n_models = 0;

  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      MshedEntryItem *item = g_object_new (MSHED_TYPE_ENTRY_ITEM, NULL);

      item->index = i;
      item->name = mshed_nres_entry_dup_name (e);
      item->type = format_type (e->type_id);
      item->size = (guint32) mshed_nres_entry_get_size (e);
      item->model = mshed_entry_holds_model (e);
      item->status = entry_status (self->archive_edit, i);
      item->bytes = item->model ? mshed_nres_entry_dup_bytes (e) : NULL;
      n_models += item->model;
      g_list_store_append (store, item);
      g_object_unref (item);
    }
  selection = gtk_single_selection_new (G_LIST_MODEL (store));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, selected < n ? selected
                                                             : GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (self->archive_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  title = g_strdup_printf (g_dngettext (NULL,
                                        "%s: %u entry, %u model — activate a model to open it",
                                        "%s: %u entries, %u models — activate a model to open it",
                                        n),
                           base, n, n_models);
  gtk_label_set_label (self->archive_title, title);
}

static void
on_archive_changed (MshedWindow *self)
{
  _mshed_window_archive_fill (self);
  _mshed_window_update_title (self);
  _mshed_window_actions_update (self);
}

static void
show_archive (MshedWindow *self,
              MshedSource *source,
              const char  *select_entry)
{
  g_autoptr(GError) error = NULL;
  MshedArchive *archive = mshed_archive_new_for_bytes (source->path, source->file_bytes, &error);

  if (archive == NULL)
    {
      g_autofree char *primary = g_strdup_printf (_("Could not open “%s”"), source->path);

      _mshed_window_show_error (self, primary, error->message);
      mshed_source_free (source);
      return;
    }
  _mshed_window_set_document (self, NULL, FALSE);
  self->archive = source;
  self->archive_edit = archive;
  g_signal_connect_object (archive, "changed", G_CALLBACK (on_archive_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->archive_view, NULL);
  _mshed_window_archive_fill (self);
  gtk_stack_set_visible_child_name (self->main_stack, "archive");
  _mshed_window_update_title (self);
  _mshed_window_actions_update (self);
  if (select_entry)
    select_archive_entry (self, select_entry);
}

static void
on_archive_activate (MshedWindow   *self,
                     guint          position,
                     GtkColumnView *view)
{
  GListModel *model = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(MshedEntryItem) item = g_list_model_get_item (model, position);
  g_autofree char *spec = NULL;

  if (item == NULL || self->archive == NULL)
    return;
  if (!item->model)
    {
      g_autofree char *msg = g_strdup_printf (_("“%s” is not a model"), item->name);
      _mshed_window_show_error (self, msg,
                                _("Only entries whose name ends in .msh and that hold an NRes "
                                  "archive can be opened. Use “mshed-cli extract” to save "
                                  "other entries."));
      return;
    }
  spec = g_strdup_printf ("%s:%s", self->archive->path, item->name);
  mshed_window_open (self, spec);
}

static void
entry_setup (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GtkWidget *label = gtk_inscription_new (NULL);

  gtk_list_item_set_child (item, label);
}

static void
entry_bind (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  MshedEntryItem *item = gtk_list_item_get_item (list_item);
  GtkInscription *label = GTK_INSCRIPTION (gtk_list_item_get_child (list_item));
  g_autofree char *text = NULL;

  switch (GPOINTER_TO_INT (user_data))
    {
    case 0:
      text = g_strdup_printf ("%u", item->index);
      break;
    case 1:
      text = g_strdup (item->name);
      break;
    case 2:
      text = g_strdup (item->type);
      break;
    case 3:
      text = g_format_size_full (item->size, G_FORMAT_SIZE_IEC_UNITS);
      break;
    case 4:
      text = g_strdup (item->model ? _("model") : "");
      break;
    default:
      text = g_strdup (item->status ? item->status : "");
      break;
    }
  /* the drop target finds the entry under the pointer by its cell */
  g_object_set_data (G_OBJECT (label), "mshed-entry-index", GUINT_TO_POINTER (item->index + 1));
  gtk_inscription_set_text (label, text);
}

/* The picture column: a model entry's thumbnail, drawn from its bytes as they are now. */
static void
picture_setup (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  gtk_list_item_set_child (item, mshed_thumbnail_new ());
}

static void
picture_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  MshedEntryItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *picture = gtk_list_item_get_child (list_item);

  g_object_set_data (G_OBJECT (picture), "mshed-entry-index", GUINT_TO_POINTER (item->index + 1));
  if (item->bytes != NULL)
    mshed_thumbnail_set_bytes (picture, item->bytes);
  else
    mshed_thumbnail_clear (picture);
}

static void
build_archive_columns (MshedWindow *self)
{
  const char *titles[] = { N_("#"), N_("Name"), N_("Type"), N_("Size"), N_("Kind"),
                           N_("Status") };
  const int widths[] = { 60, -1, 90, 110, 90, 120 };
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", G_CALLBACK (picture_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (picture_bind), NULL);
  column = gtk_column_view_column_new (NULL, factory);
  gtk_column_view_column_set_fixed_width (column, MSHED_THUMBNAIL_SIZE + 16);
  gtk_column_view_append_column (self->archive_view, column);
  g_object_unref (column);
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      factory = gtk_signal_list_item_factory_new ();
      g_signal_connect (factory, "setup", G_CALLBACK (entry_setup), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (entry_bind), GINT_TO_POINTER (i));
      column = gtk_column_view_column_new (_(titles[i]), factory);
      gtk_column_view_column_set_expand (column, i == 1);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (i != 1)
        gtk_column_view_column_set_fixed_width (column, widths[i]);
      gtk_column_view_append_column (self->archive_view, column);
      g_object_unref (column);
    }
}

/* Opening -------------------------------------------------------------------------------- */

/* Whether the window holds unsaved edits (of a model or of an archive's entries). */
static gboolean
window_modified (MshedWindow *self)
{
  if (self->document)
    return mshed_document_get_modified (self->document);
  return self->archive_edit && mshed_archive_get_modified (self->archive_edit);
}

static void
remember_recent (MshedWindow *self,
                 const char  *spec)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (MSHED_IS_APPLICATION (app))
    mshed_application_add_recent (MSHED_APPLICATION (app), spec);
}

/* Opens @spec in another window (an empty one, or a new one). */
static void
open_elsewhere (MshedWindow *self,
                const char  *spec)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (MSHED_IS_APPLICATION (app))
    mshed_application_open_spec (MSHED_APPLICATION (app), spec);
}

/* Opens @spec here when the window is empty, else in another window. */
static void
open_here_or_elsewhere (MshedWindow *self,
                        const char  *spec)
{
  if (mshed_window_is_empty (self))
    mshed_window_open (self, spec);
  else
    open_elsewhere (self, spec);
}

gboolean
mshed_window_open (MshedWindow *self,
                   const char  *spec)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) document = NULL;
  g_autoptr(MshedSource) probe = NULL;
  gboolean tolerant = FALSE;

  g_return_val_if_fail (MSHED_IS_WINDOW (self), FALSE);

  /* a bare archive lists its entries instead; a UTF file (docs/utf.md) is no archive */
  if (!mshed_utf_file_has_signature (spec))
    probe = mshed_source_open (spec, MSHED_MODE_TOLERANT, NULL, &error);
  if (probe == NULL && error != NULL)
    {
      g_autofree char *primary = g_strdup_printf (_("Could not open “%s”"), spec);

      gtk_label_set_label (self->empty_message, error->message);
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        _mshed_window_show_error (self, primary, error->message);
      else
        gtk_stack_set_visible_child_name (self->main_stack, self->document ? "document" : "empty");
      return FALSE;
    }
  if (probe != NULL && probe->model == NULL)
    {
      /* a modified document of this window is not replaced: list the entries elsewhere */
      if (window_modified (self))
        {
          open_elsewhere (self, probe->path);
          return TRUE;
        }
      remember_recent (self, probe->path);
      show_archive (self, g_steal_pointer (&probe), NULL);
      return TRUE;
    }
  g_clear_pointer (&probe, mshed_source_free);

  document = mshed_document_open (spec, MSHED_MODE_STRICT, &error);
  if (document == NULL && g_error_matches (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID))
    {
      g_clear_error (&error);
      document = mshed_document_open (spec, MSHED_MODE_TOLERANT, &error);
      tolerant = TRUE;
    }
  if (document == NULL)
    {
      g_autofree char *primary = g_strdup_printf (_("Could not open “%s”"), spec);

      _mshed_window_show_error (self, primary, error->message);
      return FALSE;
    }

  /* a modified document of this window is not replaced: open another window */
  if (window_modified (self))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      MshedWindow *other = mshed_window_new (MSHED_APPLICATION (app));

      _mshed_window_set_document (other, document, tolerant);
      gtk_window_present (GTK_WINDOW (other));
      return TRUE;
    }
  {
    const char *path = mshed_document_get_path (document);
    const char *entry = mshed_document_get_entry (document);
    g_autofree char *opened = entry ? g_strdup_printf ("%s:%s", path, entry) : g_strdup (path);

    remember_recent (self, opened);
  }
  _mshed_window_set_document (self, document, tolerant);
  return TRUE;
}

/* Drag and drop -------------------------------------------------------------------------- */

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         MshedWindow   *self)
{
  GdkFileList *list;
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  list = g_value_get_boxed (value);
  files = gdk_file_list_get_files (list);
  for (GSList *l = files; l; l = l->next)
    {
      g_autofree char *path = g_file_get_path (l->data);

      if (path == NULL)
        continue;
      open_here_or_elsewhere (self, path);
    }
  g_slist_free (files);
  return TRUE;
}

/* The Open dialog ------------------------------------------------------------------------ */

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  MshedWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path)
        open_here_or_elsewhere (self, path);
    }
  g_object_unref (dialog);
}

static GtkFileFilter *
add_filter (GtkFileChooser     *chooser,
            const char         *name,
            const char *const  *suffixes,
            const char *const  *more_suffixes)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; suffixes && suffixes[i]; i++)
    gtk_file_filter_add_suffix (filter, suffixes[i]);
  for (guint i = 0; more_suffixes && more_suffixes[i]; i++)
    gtk_file_filter_add_suffix (filter, more_suffixes[i]);
  if (suffixes == NULL && more_suffixes == NULL)
    gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
  return filter;
}

static void
open_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  GtkFileChooserNative *dialog;
  GtkFileFilter *both;

  dialog = gtk_file_chooser_native_new (_("Open Model or Archive"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  /* the first filter is the one shown: models and archives alike */
  both = add_filter (GTK_FILE_CHOOSER (dialog), _("Models and archives (*.msh, *.rlb, *.lib)"),
                     model_suffixes, archive_suffixes);
  add_filter (GTK_FILE_CHOOSER (dialog), _("Parkan models (*.msh)"), model_suffixes, NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("NRes archives (*.rlb, *.lib)"), archive_suffixes,
              NULL);
  add_filter (GTK_FILE_CHOOSER (dialog), _("All files"), NULL, NULL);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), both);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Compare With… ---------------------------------------------------------------------------- */

static void
on_compare_response (GtkNativeDialog *dialog,
                     int              response,
                     MshedWindow     *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->document != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDocument) other = path ? mshed_document_open (path, MSHED_MODE_TOLERANT,
                                                                   &error) : NULL;
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

      if (other != NULL &&
          mshed_document_get_container (other) != mshed_document_get_container (self->document))
        {
          g_set_error (&error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("A Parkan model can only be compared with a Parkan model, a UTF file "
                         "with a UTF file"));
          g_clear_object (&other);
        }
      if (other == NULL)
        {
          g_autofree char *primary = g_strdup_printf (_("Could not compare with “%s”"), path);

          _mshed_window_show_error (self, primary, error ? error->message : "");
        }
      else
        gtk_window_present (GTK_WINDOW (mshed_compare_window_new (MSHED_APPLICATION (app),
                                                                  self->document, other)));
    }
  g_object_unref (dialog);
}

/* The window's document, left, with a file chosen, right (app/mshed-compare-window.c). */
static void
compare_with_action (GtkWidget  *widget,
                     const char *action,
                     GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  GtkFileChooserNative *dialog;

  if (self->document == NULL)
    return;
  dialog = gtk_file_chooser_native_new (_("Compare With"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_compare_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Merge… ----------------------------------------------------------------------------------- */

/* The window's document is MINE; BASE, then THEIRS, are chosen (app/mshed-merge-window.c). */
static void choose_merge_input (MshedWindow *self, char *base);

static void
on_merge_response (GtkNativeDialog *dialog,
                   int               response,
                   MshedWindow     *self)
{
  g_autofree char *base = g_strdup (g_object_get_data (G_OBJECT (dialog), "base"));
  g_autoptr(GFile) file = response == GTK_RESPONSE_ACCEPT
                          ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)) : NULL;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  g_object_unref (dialog);
  if (path == NULL || self->document == NULL)
    return;
  if (base == NULL)
    choose_merge_input (self, g_steal_pointer (&path));
  else
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDocument) b = _mshed_open_input (base, &error);
      g_autoptr(MshedDocument) t = b ? _mshed_open_input (path, &error) : NULL;
      MshedMergeWindow *merge = t ? mshed_merge_window_new (
        MSHED_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))), b, self->document,
        t, &error) : NULL;

      if (merge == NULL)
        _mshed_window_show_error (self, _("Could not merge"), error->message);
      else
        gtk_window_present (GTK_WINDOW (merge));
    }
}

/* Asks for BASE (@base NULL), else for THEIRS; takes @base. */
static void
choose_merge_input (MshedWindow *self,
                    char        *base)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (base ? _("Merge: Their Version (THEIRS)")
                                      : _("Merge: the Common Ancestor (BASE)"),
                                 GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                 base ? _("_Merge") : _("_Next"), _("_Cancel"));

  g_object_set_data_full (G_OBJECT (dialog), "base", base, g_free);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_merge_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
merge_action (GtkWidget  *widget,
              const char *action,
              GVariant   *param)
{
  if (MSHED_WINDOW (widget)->document != NULL)
    choose_merge_input (MSHED_WINDOW (widget), NULL);
}

/* Recent files --------------------------------------------------------------------------- */

static void
open_recent_action (GtkWidget  *widget,
                    const char *action,
                    GVariant   *param)
{
  open_here_or_elsewhere (MSHED_WINDOW (widget), g_variant_get_string (param, NULL));
}

/* A menu label shows @text as it is: underscores are doubled so none becomes a mnemonic. */
static char *
escape_mnemonics (const char *text)
{
  GString *s = g_string_new (text);

  g_string_replace (s, "_", "__", 0);
  return g_string_free (s, FALSE);
}

char *
_mshed_window_recent_label (const char *spec)
{
  g_autofree char *path = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *base = NULL;
  g_autofree char *label = NULL;

  mshed_split_spec (spec, &path, &entry);
  base = g_path_get_basename (path);
  /* translators: a recent archive entry: "ENTRY in ARCHIVE", e.g. "Gun_0.msh in guns.rlb" */
  label = entry ? g_strdup_printf (_("%s in %s"), entry, base) : g_steal_pointer (&base);
  return escape_mnemonics (label);
}

static void
rebuild_recent_menu (MshedWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  g_autoptr(GMenu) menu = g_menu_new ();
  g_auto(GStrv) specs = NULL;
  guint n = 0;

  if (MSHED_IS_APPLICATION (app))
    specs = mshed_application_dup_recent (MSHED_APPLICATION (app));
  for (guint i = 0; specs && specs[i]; i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *entry = NULL;
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      /* an entry's spec splits only while its archive exists */
      mshed_split_spec (specs[i], &path, &entry);
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      label = _mshed_window_recent_label (specs[i]);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", specs[i]);
      g_menu_append_item (menu, item);
      n++;
    }
  if (n == 0)
    g_menu_append (menu, _("No recent files"), "win.none");
  gtk_menu_button_set_menu_model (self->recent_button, G_MENU_MODEL (menu));
}

static void
recent_popup_cb (GtkMenuButton *button,
                 gpointer       user_data)
{
  rebuild_recent_menu (MSHED_WINDOW (user_data));
}

/* Back to the archive --------------------------------------------------------------------- */

static void
show_archive_entries_action (GtkWidget  *widget,
                             const char *action,
                             GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  g_autofree char *entry = NULL;
  g_autoptr(GError) error = NULL;
  MshedSource *source;

  if (self->document == NULL || mshed_document_get_entry (self->document) == NULL)
    return;
  /* the edits of a modified model stay in this window; the list opens in another one */
  if (mshed_document_get_modified (self->document))
    {
      open_elsewhere (self, mshed_document_get_path (self->document));
      return;
    }
  source = mshed_source_open (mshed_document_get_path (self->document), MSHED_MODE_TOLERANT,
                              NULL, &error);
  if (source == NULL)
    {
      g_autofree char *primary = g_strdup_printf (_("Could not open “%s”"),
                                                  mshed_document_get_path (self->document));

      _mshed_window_show_error (self, primary, error->message);
      return;
    }
  entry = g_strdup (mshed_document_get_entry (self->document));
  show_archive (self, source, entry);
}

void
_mshed_window_files_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.compare-with", NULL, compare_with_action);
  gtk_widget_class_install_action (widget_class, "win.merge", NULL, merge_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.show-archive-entries", NULL,
                                   show_archive_entries_action);
  gtk_widget_class_bind_template_callback (widget_class, on_archive_activate);
}

void
_mshed_window_files_init (MshedWindow *self)
{
  GtkDropTarget *drop;

  build_archive_columns (self);
  _mshed_window_archive_init (self);
  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  /* rebuilt each time it opens (GTK 4.8's menu button has no "active" to watch) */
  gtk_menu_button_set_create_popup_func (self->recent_button, recent_popup_cb, self, NULL);
  rebuild_recent_menu (self);
}
