/* mshed-window-archive.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Editing the entries of the archive a window lists (MshedArchive): a toolbar above the list
 * (add, replace, remove, rename, move up and down, attributes), a file dropped on an entry
 * replaces it (dropped beside the entries it is added), and the window's undo, redo and save
 * act on the archive while its list is shown (mshed-window-actions.c).
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-window-private.h"

static guint
selected_index (MshedWindow *self)
{
  GtkSelectionModel *model = gtk_column_view_get_model (self->archive_view);

  if (self->archive_edit == NULL || !GTK_IS_SINGLE_SELECTION (model))
    return GTK_INVALID_LIST_POSITION;
  return gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
}

static void
select_index (MshedWindow *self,
              guint        index)
{
  GtkSelectionModel *model = gtk_column_view_get_model (self->archive_view);

  if (GTK_IS_SINGLE_SELECTION (model))
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), index);
}

/* Shows @error (if any) under @primary; TRUE when there was none. */
static gboolean
report (MshedWindow *self,
        const char  *primary,
        GError      *error)
{
  if (error == NULL)
    return TRUE;
  _mshed_window_show_error (self, primary, error->message);
  return FALSE;
}

gboolean
_mshed_window_archive_save (MshedWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->archive_edit == NULL)
    return FALSE;
  mshed_archive_save (self->archive_edit, MSHED_SAVE_FLAGS_NONE, &error);
  return report (self, _("The archive was not saved"), error);
}

/* Adding and replacing from files ------------------------------------------------------- */

/* Adds @file after the selected entry (or at the end) under its own name. */
static gboolean
add_from_file (MshedWindow *self,
               GFile       *file,
               guint        position)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gint index;

  if (path == NULL || (bytes = mshed_load_file (path, &error)) == NULL)
    return report (self, _("The entry was not added"), error);
  name = g_path_get_basename (path);
  index = mshed_archive_add (self->archive_edit, position, name, 0, bytes, &error);
  if (index >= 0)
    select_index (self, (guint) index);
  return report (self, _("The entry was not added"), error);
}

gboolean
_mshed_window_archive_replace_from_file (MshedWindow *self,
                                         guint        index,
                                         GFile       *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  if (self->archive_edit == NULL)
    return FALSE;
  if (path == NULL || (bytes = mshed_load_file (path, &error)) == NULL)
    return report (self, _("The entry was not replaced"), error);
  if (mshed_archive_replace (self->archive_edit, index, bytes, &error))
    select_index (self, index);
  return report (self, _("The entry was not replaced"), error);
}

typedef enum {
  PICK_ADD,
  PICK_REPLACE,
} PickPurpose;

static void
on_pick_response (GtkNativeDialog *dialog,
                  int              response,
                  MshedWindow     *self)
{
  PickPurpose purpose = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "purpose"));
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "index"));

  if (response == GTK_RESPONSE_ACCEPT && self->archive_edit != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (purpose == PICK_ADD)
        add_from_file (self, file, index);
      else
        _mshed_window_archive_replace_from_file (self, index, file);
    }
  g_object_unref (dialog);
}

static void
pick_file (MshedWindow *self,
           PickPurpose  purpose,
           guint        index)
{
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (purpose == PICK_ADD ? _("Add an Entry")
                                                            : _("Replace the Entry"),
                                        GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                        purpose == PICK_ADD ? _("_Add") : _("_Replace"),
                                        _("_Cancel"));
  g_object_set_data (G_OBJECT (dialog), "purpose", GINT_TO_POINTER (purpose));
  g_object_set_data (G_OBJECT (dialog), "index", GUINT_TO_POINTER (index));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_pick_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
add_action (GtkWidget  *widget,
            const char *action,
            GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  guint selected = selected_index (self);

  if (self->archive_edit == NULL)
    return;
  pick_file (self, PICK_ADD, selected == GTK_INVALID_LIST_POSITION ? G_MAXUINT : selected + 1);
}

static void
replace_action (GtkWidget  *widget,
                const char *action,
                GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  guint selected = selected_index (self);

  if (selected != GTK_INVALID_LIST_POSITION)
    pick_file (self, PICK_REPLACE, selected);
}

/* Remove and move ----------------------------------------------------------------------- */

static void
remove_action (GtkWidget  *widget,
               const char *action,
               GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  guint selected = selected_index (self);
  g_autoptr(GError) error = NULL;

  if (selected == GTK_INVALID_LIST_POSITION)
    return;
  mshed_archive_remove (self->archive_edit, selected, &error);
  report (self, _("The entry was not removed"), error);
}

static void
move_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  guint selected = selected_index (self);
  gint to = (gint) selected + (strcmp (action, "win.archive-up") == 0 ? -1 : 1);
  g_autoptr(GError) error = NULL;

  if (selected == GTK_INVALID_LIST_POSITION || to < 0 ||
      (guint) to >= mshed_archive_get_n_entries (self->archive_edit))
    return;
  if (mshed_archive_move (self->archive_edit, selected, (guint) to, &error))
    select_index (self, (guint) to);
  report (self, _("The entry was not moved"), error);
}

/* Rename and attributes: a dialog of entries --------------------------------------------- */

/* A value typed for a type or an attribute: decimal, 0xHEX, or (@tag) four printable
 * characters such as WEAR, as the Type column shows them. */
static gboolean
parse_u32 (const char *text,
           gboolean    tag,
           guint32    *out)
{
  guint64 v;

  if (g_ascii_strncasecmp (text, "0x", 2) == 0 && text[2] != '\0' &&
      g_ascii_string_to_unsigned (text + 2, 16, 0, G_MAXUINT32, &v, NULL))
    {
      *out = (guint32) v;
      return TRUE;
    }
  if (g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &v, NULL))
    {
      *out = (guint32) v;
      return TRUE;
    }
  if (tag && strlen (text) == 4)
    {
      for (guint i = 0; i < 4; i++)
        if (text[i] < 0x21 || text[i] > 0x7E)
          return FALSE;
      *out = mshed_read_u32 ((const guint8 *) text);
      return TRUE;
    }
  return FALSE;
}

static char *
format_u32 (guint32  value,
            gboolean tag)
{
  char c[5] = { (char) (value & 0xff), (char) ((value >> 8) & 0xff),
                (char) ((value >> 16) & 0xff), (char) (value >> 24), 0 };

  for (guint i = 0; tag && i < 4; i++)
    if (c[i] < 0x21 || c[i] > 0x7E)
      tag = FALSE;
  return tag ? g_strdup (c) : g_strdup_printf ("%u", value);
}

/* A dialog with one labelled text entry per @labels; "entries" holds them (GPtrArray). */
static GtkWidget *
entries_dialog (MshedWindow *self,
                const char  *title,
                const char  *ok,
                const char  *const *labels,
                char       **values)
{
  GtkWidget *dialog = gtk_dialog_new_with_buttons (title, GTK_WINDOW (self),
                                                   GTK_DIALOG_MODAL |
                                                   GTK_DIALOG_DESTROY_WITH_PARENT |
                                                   GTK_DIALOG_USE_HEADER_BAR,
                                                   _("_Cancel"), GTK_RESPONSE_CANCEL,
                                                   ok, GTK_RESPONSE_ACCEPT, NULL);
  GtkWidget *grid = gtk_grid_new ();
  GPtrArray *entries = g_ptr_array_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 18);
  gtk_widget_set_margin_end (grid, 18);
  gtk_widget_set_margin_top (grid, 18);
  gtk_widget_set_margin_bottom (grid, 18);
  for (guint i = 0; labels[i]; i++)
    {
      GtkWidget *label = gtk_label_new_with_mnemonic (labels[i]);
      GtkWidget *entry = gtk_entry_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
      gtk_editable_set_text (GTK_EDITABLE (entry), values[i]);
      gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_grid_attach (GTK_GRID (grid), label, 0, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), entry, 1, (int) i, 1, 1);
      g_ptr_array_add (entries, entry);
    }
  gtk_box_append (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (dialog))), grid);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_object_set_data_full (G_OBJECT (dialog), "entries", entries,
                          (GDestroyNotify) g_ptr_array_unref);
  return dialog;
}

static const char *
entry_text (GtkDialog *dialog,
            guint      i)
{
  GPtrArray *entries = g_object_get_data (G_OBJECT (dialog), "entries");

  return gtk_editable_get_text (GTK_EDITABLE (g_ptr_array_index (entries, i)));
}

static void
on_rename_response (GtkDialog   *dialog,
                    int          response,
                    MshedWindow *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "index"));
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->archive_edit != NULL)
    mshed_archive_rename (self->archive_edit, index, entry_text (dialog, 0), &error);
  gtk_window_destroy (GTK_WINDOW (dialog));
  report (self, _("The entry was not renamed"), error);
}

static void
rename_action (GtkWidget  *widget,
               const char *action,
               GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  guint selected = selected_index (self);
  const char *labels[] = { _("_Name"), NULL };
  g_autofree char *name = NULL;
  GtkWidget *dialog;

  if (selected == GTK_INVALID_LIST_POSITION)
    return;
  name = mshed_nres_entry_dup_name (mshed_nres_peek_entry (mshed_archive_get_nres (
                                      self->archive_edit), selected));
  dialog = entries_dialog (self, _("Rename Entry"), _("_Rename"), labels, &name);
  g_object_set_data (G_OBJECT (dialog), "index", GUINT_TO_POINTER (selected));
  g_signal_connect (dialog, "response", G_CALLBACK (on_rename_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_attributes_response (GtkDialog   *dialog,
                        int          response,
                        MshedWindow *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "index"));
  const char *names[] = { "type", "attr1", "attr2", "attr3" };
  g_autoptr(GError) error = NULL;
  guint32 v[4];

  if (response == GTK_RESPONSE_ACCEPT && self->archive_edit != NULL)
    {
      for (guint i = 0; i < 4 && error == NULL; i++)
        if (!parse_u32 (entry_text (dialog, i), i == 0, &v[i]))
          g_set_error (&error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       i == 0 ? _("%s: “%s” is not a number from 0 to 4294967295, 0xHEX or four "
                                  "characters such as WEAR")
                              : _("%s: “%s” is not a number from 0 to 4294967295 or 0xHEX"),
                       names[i], entry_text (dialog, i));
      if (error == NULL)
        mshed_archive_set_attributes (self->archive_edit, index, v[0], v[1], v[2], v[3],
                                      &error);
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
  report (self, _("The attributes were not changed"), error);
}

static void
attributes_action (GtkWidget  *widget,
                   const char *action,
                   GVariant   *param)
{
  MshedWindow *self = MSHED_WINDOW (widget);
  guint selected = selected_index (self);
  const char *labels[] = { _("_Type"), _("Attribute _1"), _("Attribute _2"), _("Attribute _3"),
                           NULL };
  const MshedNresEntry *e;
  char *values[4];
  GtkWidget *dialog;

  if (selected == GTK_INVALID_LIST_POSITION)
    return;
  e = mshed_nres_peek_entry (mshed_archive_get_nres (self->archive_edit), selected);
  values[0] = format_u32 (e->type_id, TRUE);
  values[1] = format_u32 (e->attr1, FALSE);
  values[2] = format_u32 (e->attr2, FALSE);
  values[3] = format_u32 (e->attr3, FALSE);
  dialog = entries_dialog (self, _("Entry Attributes"), _("_Set"), labels, values);
  for (guint i = 0; i < 4; i++)
    g_free (values[i]);
  g_object_set_data (G_OBJECT (dialog), "index", GUINT_TO_POINTER (selected));
  g_signal_connect (dialog, "response", G_CALLBACK (on_attributes_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Drops ---------------------------------------------------------------------------------- */

static guint
index_of (GtkWidget *w)
{
  return w ? GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (w), "mshed-entry-index")) : 0;
}

/* The entry whose row is at (@x, @y) of the list, or GTK_INVALID_LIST_POSITION: the picked
 * widget, or a cell or row above it, leads to a cell's label, which knows its entry. */
static guint
entry_at (MshedWindow *self,
          double       x,
          double       y)
{
  GtkWidget *w = gtk_widget_pick (GTK_WIDGET (self->archive_view), x, y, GTK_PICK_DEFAULT);

  for (; w != NULL && w != GTK_WIDGET (self->archive_view); w = gtk_widget_get_parent (w))
    {
      if (index_of (w) > 0)
        return index_of (w) - 1;
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        {
          guint index = MAX (index_of (c), index_of (gtk_widget_get_first_child (c)));

          if (index > 0)
            return index - 1;
        }
    }
  return GTK_INVALID_LIST_POSITION;
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         MshedWindow   *self)
{
  GFile *file = g_value_get_object (value);
  guint index;

  if (self->archive_edit == NULL || file == NULL)
    return FALSE;
  index = entry_at (self, x, y);
  if (index == GTK_INVALID_LIST_POSITION)
    return add_from_file (self, file, G_MAXUINT);
  return _mshed_window_archive_replace_from_file (self, index, file);
}

/* Setup ---------------------------------------------------------------------------------- */

static const struct {
  const char *action;
  const char *label;
  const char *tooltip;
} tools[] = {
  { "win.archive-add", N_("_Add…"), N_("Add a file as a new entry after the selected one") },
  { "win.archive-replace", N_("_Replace…"),
    N_("Replace the selected entry’s bytes by a file’s (or drop a file on an entry)") },
  { "win.archive-remove", N_("Re_move"), N_("Remove the selected entry") },
  { "win.archive-rename", N_("Re_name…"), N_("Rename the selected entry") },
  { "win.archive-up", N_("Move _Up"), N_("Move the selected entry up in the directory") },
  { "win.archive-down", N_("Move _Down"), N_("Move the selected entry down in the directory") },
  { "win.archive-attributes", N_("A_ttributes…"),
    N_("Set the selected entry’s type and attributes") },
};

void
_mshed_window_archive_init (MshedWindow *self)
{
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkDropTarget *drop;

  gtk_widget_set_margin_start (toolbar, 12);
  gtk_widget_set_margin_end (toolbar, 12);
  gtk_widget_set_margin_bottom (toolbar, 6);
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (_(tools[i].label));

      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), tools[i].action);
      gtk_widget_set_tooltip_text (button, _(tools[i].tooltip));
      gtk_box_append (GTK_BOX (toolbar), button);
    }
  gtk_widget_insert_after (toolbar, gtk_widget_get_parent (GTK_WIDGET (self->archive_title)),
                           GTK_WIDGET (self->archive_title));

  /* a file dropped on an entry replaces it; beside the entries, it is added */
  drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self->archive_view), GTK_EVENT_CONTROLLER (drop));
}

void
_mshed_window_archive_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.archive-add", NULL, add_action);
  gtk_widget_class_install_action (widget_class, "win.archive-replace", NULL, replace_action);
  gtk_widget_class_install_action (widget_class, "win.archive-remove", NULL, remove_action);
  gtk_widget_class_install_action (widget_class, "win.archive-rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "win.archive-up", NULL, move_action);
  gtk_widget_class_install_action (widget_class, "win.archive-down", NULL, move_action);
  gtk_widget_class_install_action (widget_class, "win.archive-attributes", NULL,
                                   attributes_action);
}
