/* mshed-cell-editor.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-cell-editor"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-cell-editor.h"

struct _MshedCellEditor
{
  GtkPopover  parent_instance;

  GtkLabel   *title_label;
  GtkEntry   *entry;
  GtkLabel   *hint_label;
  GtkLabel   *error_label;

  char       *error;
  gboolean    starting;
};

enum {
  COMMIT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (MshedCellEditor, mshed_cell_editor, GTK_TYPE_POPOVER)

static void
clear_error (MshedCellEditor *self)
{
  g_clear_pointer (&self->error, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
}

static void
entry_activate_cb (MshedCellEditor *self,
                   GtkEntry        *entry)
{
  g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));

  g_signal_emit (self, signals[COMMIT], 0, text, 0);
}

static void
entry_changed_cb (MshedCellEditor *self,
                  GtkEditable     *editable)
{
  if (!self->starting)
    clear_error (self);
}

static gboolean
entry_key_pressed_cb (MshedCellEditor       *self,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      GtkEventControllerKey *controller)
{
  g_autofree char *text = NULL;
  int move;

  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    move = 1;
  else if (keyval == GDK_KEY_ISO_Left_Tab)
    move = -1;
  else
    return FALSE;
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  if (state & GDK_SHIFT_MASK)
    move = -1;

  text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  g_signal_emit (self, signals[COMMIT], 0, text, move);
  return TRUE;
}

static void
mshed_cell_editor_finalize (GObject *object)
{
  MshedCellEditor *self = MSHED_CELL_EDITOR (object);

  g_clear_pointer (&self->error, g_free);

  G_OBJECT_CLASS (mshed_cell_editor_parent_class)->finalize (object);
}

static void
mshed_cell_editor_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), MSHED_TYPE_CELL_EDITOR);

  G_OBJECT_CLASS (mshed_cell_editor_parent_class)->dispose (object);
}

static void
mshed_cell_editor_class_init (MshedCellEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_cell_editor_dispose;
  object_class->finalize = mshed_cell_editor_finalize;

  /**
   * MshedCellEditor::commit:
   * @text: the entered text
   * @move: 0 for Enter, 1 for Tab, -1 for Shift+Tab (the owner may edit the next cell)
   *
   * The user asked to store @text; the handler accepts or rejects it.
   */
  signals[COMMIT] =
    g_signal_new ("commit", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-cell-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedCellEditor, title_label);
  gtk_widget_class_bind_template_child (widget_class, MshedCellEditor, entry);
  gtk_widget_class_bind_template_child (widget_class, MshedCellEditor, hint_label);
  gtk_widget_class_bind_template_child (widget_class, MshedCellEditor, error_label);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
}

static void
mshed_cell_editor_init (MshedCellEditor *self)
{
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (entry_key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);
}

GtkWidget *
mshed_cell_editor_new (void)
{
  return g_object_new (MSHED_TYPE_CELL_EDITOR, NULL);
}

void
mshed_cell_editor_start (MshedCellEditor    *self,
                         const GdkRectangle *area,
                         const char         *title,
                         const char         *hint,
                         const char         *text,
                         gboolean            select_all)
{
  g_return_if_fail (MSHED_IS_CELL_EDITOR (self));

  clear_error (self);
  gtk_label_set_text (self->title_label, title ? title : "");
  gtk_widget_set_visible (GTK_WIDGET (self->title_label), title != NULL);
  gtk_label_set_text (self->hint_label, hint ? hint : "");
  gtk_widget_set_visible (GTK_WIDGET (self->hint_label), hint != NULL && *hint != '\0');

  self->starting = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text ? text : "");
  self->starting = FALSE;

  gtk_popover_set_pointing_to (GTK_POPOVER (self), area);
  gtk_popover_popup (GTK_POPOVER (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  if (select_all)
    gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
  else
    gtk_editable_set_position (GTK_EDITABLE (self->entry), -1);
}

void
mshed_cell_editor_reject (MshedCellEditor *self,
                          const char      *message)
{
  g_return_if_fail (MSHED_IS_CELL_EDITOR (self));

  g_free (self->error);
  self->error = g_strdup (message ? message : _("The value was refused"));
  gtk_label_set_text (self->error_label, self->error);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
  gtk_widget_error_bell (GTK_WIDGET (self->entry));
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

void
mshed_cell_editor_accept (MshedCellEditor *self)
{
  g_return_if_fail (MSHED_IS_CELL_EDITOR (self));

  clear_error (self);
  gtk_popover_popdown (GTK_POPOVER (self));
}

/**
 * mshed_cell_editor_get_entry:
 *
 * Returns: (transfer none): the entry
 */
GtkEditable *
mshed_cell_editor_get_entry (MshedCellEditor *self)
{
  g_return_val_if_fail (MSHED_IS_CELL_EDITOR (self), NULL);

  return GTK_EDITABLE (self->entry);
}

const char *
mshed_cell_editor_get_error (MshedCellEditor *self)
{
  g_return_val_if_fail (MSHED_IS_CELL_EDITOR (self), NULL);

  return self->error;
}

gboolean
mshed_cell_editor_is_open (MshedCellEditor *self)
{
  g_return_val_if_fail (MSHED_IS_CELL_EDITOR (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self));
}
