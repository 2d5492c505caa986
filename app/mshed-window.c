/* mshed-window.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window: one document (or one archive's entry list) per window, shown as linked
 * views: node tree, grids, preview, hex view, problems and stale data. The window routes
 * selections between the views; the views observe the document themselves.
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-error.h"
#include "mshed-schema.h"
#include "mshed-selection.h"
#include "mshed-window-private.h"

G_DEFINE_FINAL_TYPE (MshedWindow, mshed_window, GTK_TYPE_APPLICATION_WINDOW)

const MshedTableId mshed_window_grid_tables[MSHED_WINDOW_N_GRIDS] = {
  MSHED_TABLE_NODES,
  MSHED_TABLE_SLOTS,
  MSHED_TABLE_BATCHES,
  MSHED_TABLE_TRIS,
  MSHED_TABLE_POSITIONS,
  MSHED_TABLE_INDICES,
  MSHED_TABLE_KEYS,
  MSHED_TABLE_MAP,
  MSHED_TABLE_NAMES,
  MSHED_TABLE_HEADER,
  MSHED_TABLE_EXTRA15,
  MSHED_TABLE_EXTRA18,
  MSHED_TABLE_EXTRA16,
  MSHED_TABLE_DIRECTORY,
};

MshedWindow *
mshed_window_new (MshedApplication *app)
{
  return g_object_new (MSHED_TYPE_WINDOW, "application", app, NULL);
}

MshedDocument *
mshed_window_get_document (MshedWindow *self)
{
  return self->document;
}

gboolean
mshed_window_is_empty (MshedWindow *self)
{
  return self->document == NULL && self->archive == NULL;
}

void
_mshed_window_show_error (MshedWindow *self,
                          const char  *primary,
                          const char  *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);

  if (secondary)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Title ---------------------------------------------------------------------------------- */

void
_mshed_window_update_title (MshedWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (self->document)
    {
      const char *path = mshed_document_get_path (self->document);
      const char *entry = mshed_document_get_entry (self->document);
      g_autofree char *base = path ? g_path_get_basename (path) : g_strdup (_("Untitled"));
      g_autofree char *dir = path ? g_path_get_dirname (path) : NULL;
      gboolean modified = mshed_document_get_modified (self->document);

      title = entry ? g_strdup_printf ("%s%s", modified ? "• " : "", entry)
                    : g_strdup_printf ("%s%s", modified ? "• " : "", base);
      subtitle = entry ? g_strdup_printf (_("in %s"), base) : g_strdup (dir ? dir : "");
      if (self->tolerant_notice)
        {
          char *s = g_strdup_printf (_("%s — tolerant mode"), subtitle);
          g_free (subtitle);
          subtitle = s;
        }
    }
  else if (self->archive)
    {
      g_autofree char *base = g_path_get_basename (self->archive->path);

      title = g_strdup_printf ("%s%s", mshed_archive_get_modified (self->archive_edit) ? "• " : "",
                               base);
      subtitle = g_strdup (_("Archive"));
    }
  else
    {
      title = g_strdup ("mshed");
      subtitle = g_strdup ("");
    }
  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle[0] != '\0');
  {
    g_autofree char *window_title = g_strdup_printf ("%s — mshed", title);
    gtk_window_set_title (GTK_WINDOW (self), window_title);
  }
}

/* Linked selection ----------------------------------------------------------------------- */

static MshedTableView *
grid_for (MshedWindow  *self,
          MshedTableId  table)
{
  for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
    if (mshed_window_grid_tables[i] == table)
      return self->grids[i];
  return NULL;
}

gboolean
_mshed_window_select_grid (MshedWindow  *self,
                           MshedTableId  table)
{
  for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
    if (mshed_window_grid_tables[i] == table)
      {
        gtk_notebook_set_current_page (self->grid_notebook, (int) i);
        return TRUE;
      }
  if (table == MSHED_TABLE_NORMALS || table == MSHED_TABLE_UVS)
    return _mshed_window_select_grid (self, MSHED_TABLE_POSITIONS);
  return FALSE;
}

static void
apply_selection (MshedWindow          *self,
                 const MshedSelection *selection,
                 MshedTableId          origin)
{
  static const MshedTableId linked[] = {
    MSHED_TABLE_NODES, MSHED_TABLE_SLOTS, MSHED_TABLE_BATCHES, MSHED_TABLE_TRIS,
  };

  self->in_selection = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (linked); i++)
    {
      GArray *rows = mshed_selection_get_rows (selection, linked[i]);
      MshedTableView *grid = grid_for (self, linked[i]);

      if (grid && linked[i] != origin)
        {
          guint first = G_MAXUINT;

          mshed_table_view_set_highlight (grid, (const guint *) rows->data, rows->len);
          /* where the tab opens: the first highlighted row (now, or when it is shown) */
          for (guint r = 0; r < rows->len; r++)
            first = MIN (first, g_array_index (rows, guint, r));
          if (first != G_MAXUINT)
            mshed_table_view_scroll_to_row (grid, first);
        }
    }
  mshed_model_view_set_selection (self->model_view, selection);
  self->in_selection = FALSE;
}

static void
on_node_selected (MshedWindow   *self,
                  guint          node,
                  MshedNodeTree *tree)
{
  g_autoptr(MshedSelection) selection = mshed_selection_new ();

  if (self->document == NULL || self->in_selection)
    return;
  if (node != G_MAXUINT)
    mshed_selection_add_node (selection, mshed_document_get_model (self->document), node);
  apply_selection (self, selection, MSHED_TABLE_NONE);
  if (node != G_MAXUINT)
    {
      self->in_selection = TRUE;
      mshed_table_view_set_highlight (grid_for (self, MSHED_TABLE_NODES), &node, 1);
      mshed_hex_view_show_record (self->hex_view, MSHED_TABLE_NODES, node);
      self->in_selection = FALSE;
    }
}

static void
on_row_selected (MshedWindow    *self,
                 guint           row,
                 MshedTableView *grid)
{
  MshedTableId table = mshed_table_view_get_table (grid);
  MshedModel *model;
  g_autoptr(MshedSelection) selection = mshed_selection_new ();

  if (self->document == NULL || self->in_selection)
    return;
  model = mshed_document_get_model (self->document);
  switch (table)
    {
    case MSHED_TABLE_NODES:
      mshed_selection_add_node (selection, model, row);
      self->in_selection = TRUE;
      mshed_node_tree_select_node (self->node_tree, row);
      self->in_selection = FALSE;
      break;
    case MSHED_TABLE_SLOTS:
      mshed_selection_add_slot (selection, model, row);
      break;
    case MSHED_TABLE_BATCHES:
      mshed_selection_add_batch (selection, model, row);
      break;
    case MSHED_TABLE_TRIS:
      mshed_selection_add_tri (selection, model, row);
      break;
    default:
      break;
    }
  if (!mshed_selection_is_empty (selection))
    apply_selection (self, selection, table);
  if (table != MSHED_TABLE_DIRECTORY && table != MSHED_TABLE_NAMES)
    mshed_hex_view_show_record (self->hex_view, table, row);
  else if (table == MSHED_TABLE_DIRECTORY)
    mshed_hex_view_show_resource (self->hex_view, (gint) row);
}

static void
on_follow_reference (MshedWindow    *self,
                     gint            table,
                     guint           row,
                     MshedTableView *grid)
{
  MshedTableView *target = grid_for (self, (MshedTableId) table);

  if (target == NULL && (table == MSHED_TABLE_NORMALS || table == MSHED_TABLE_UVS))
    target = grid_for (self, MSHED_TABLE_POSITIONS);
  if (target == NULL)
    return;
  _mshed_window_select_grid (self, mshed_table_view_get_table (target));
  mshed_table_view_reveal (target, row, NULL);
}

/* The context menu's Show in Hex: the record's bytes in the hex view, the field's selected. */
static void
on_show_in_hex (MshedWindow    *self,
                gint            table,
                guint           row,
                const char     *field,
                MshedTableView *grid)
{
  const MshedField *f = field ? mshed_schema_find_field (mshed_schema_get_table (table), field)
                              : NULL;
  gsize start, end;

  g_object_set (self, "show-side-panel", TRUE, NULL);
  gtk_notebook_set_current_page (self->side_notebook, 1);
  mshed_hex_view_show_record (self->hex_view, (MshedTableId) table, row);
  if (f != NULL && mshed_hex_view_get_selection (self->hex_view, &start, &end) &&
      f->offset + mshed_field_type_size (f->type) <= end - start)
    mshed_hex_view_select_range (self->hex_view, start + f->offset,
                                 start + f->offset + mshed_field_type_size (f->type));
}

static void
on_diagnostic_activated (MshedWindow           *self,
                         const MshedDiagnostic *diag,
                         MshedDiagnosticsView  *view)
{
  MshedTableId table = diag->table;

  if (_mshed_window_utf_show_diagnostic (self, diag))
    return;
  if (table == MSHED_TABLE_NORMALS || table == MSHED_TABLE_UVS)
    table = MSHED_TABLE_POSITIONS;
  if (table != MSHED_TABLE_NONE && _mshed_window_select_grid (self, table) && diag->record >= 0)
    mshed_table_view_reveal (grid_for (self, table), (guint) diag->record, diag->field);
  mshed_hex_view_goto_file_offset (self->hex_view, diag->offset);
}

static void
on_picked (MshedWindow    *self,
           guint           node,
           guint           slot,
           guint           batch,
           guint           tri,
           MshedModelView *view)
{
  g_autoptr(MshedSelection) selection = mshed_selection_new ();
  MshedModel *model;

  if (self->document == NULL)
    return;
  if (_mshed_window_pose_has_dfm (self))
    {
      _mshed_window_pose_picked (self);
      return;
    }
  model = mshed_document_get_model (self->document);
  if (node != G_MAXUINT)
    mshed_selection_add_node (selection, model, node);
  if (batch != G_MAXUINT)
    {
      g_autoptr(MshedSelection) only = mshed_selection_new ();

      /* the picked batch and slot, not everything the node draws */
      mshed_selection_add_batch (only, model, batch);
      if (slot != G_MAXUINT)
        mshed_selection_add_slot (only, model, slot);
      if (tri != G_MAXUINT)
        mshed_selection_add_tri (only, model, tri);
      apply_selection (self, only, MSHED_TABLE_NONE);
      _mshed_window_select_grid (self, MSHED_TABLE_BATCHES);
      mshed_table_view_reveal (grid_for (self, MSHED_TABLE_BATCHES), batch, NULL);
      /* the hex view shows the picked record's bytes, as for a row picked in its grid */
      mshed_hex_view_show_record (self->hex_view, MSHED_TABLE_BATCHES, batch);
    }
  else
    {
      apply_selection (self, selection, MSHED_TABLE_NONE);
      if (node != G_MAXUINT)
        mshed_hex_view_show_record (self->hex_view, MSHED_TABLE_NODES, node);
    }
  if (node != G_MAXUINT)
    {
      self->in_selection = TRUE;
      mshed_node_tree_select_node (self->node_tree, node);
      self->in_selection = FALSE;
    }
}

static void
on_visibility_changed (MshedWindow   *self,
                       guint          node,
                       gboolean       visible,
                       MshedNodeTree *tree)
{
  mshed_model_view_set_node_visible (self->model_view, node, visible);
}

/* Document ------------------------------------------------------------------------------- */

/* The tolerant-mode notice follows the problems: it counts the errors left and says so once
 * the model passes strict validation again. */
static void
update_notice (MshedWindow *self)
{
  const MshedDiagnostics *diags;
  g_autofree char *text = NULL;

  if (self->document == NULL || !self->tolerant_notice)
    return;
  diags = mshed_document_get_diagnostics (self->document);
  if (diags->n_errors > 0)
    text = g_strdup_printf (g_dngettext (NULL,
                                         "This model fails strict validation (%u error). It was "
                                         "opened in tolerant mode: broken ranges are skipped in "
                                         "the preview and listed under Problems.",
                                         "This model fails strict validation (%u errors). It was "
                                         "opened in tolerant mode: broken ranges are skipped in "
                                         "the preview and listed under Problems.",
                                         diags->n_errors),
                            diags->n_errors);
  else
    text = g_strdup (_("Every strict validation error is fixed: the model now passes strict "
                       "validation and saves without asking."));
  gtk_label_set_label (self->notice_label, text);
  if (diags->n_errors == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->notice_label), "success");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->notice_label), "success");
}

static void
on_document_notify (MshedWindow *self)
{
  _mshed_window_update_title (self);
  _mshed_window_actions_update (self);
}

void
_mshed_window_set_document (MshedWindow   *self,
                            MshedDocument *document,
                            gboolean       tolerant)
{
  g_set_object (&self->document, document);
  g_clear_pointer (&self->archive, mshed_source_free);
  g_clear_object (&self->archive_edit);
  self->tolerant_notice = tolerant;

  g_signal_group_set_target (self->document_signals, document);
  g_binding_group_set_source (self->document_bindings, document);
  if (document == NULL)
    {
      gtk_widget_set_tooltip_text (self->undo_button, _("Undo"));
      gtk_widget_set_tooltip_text (self->redo_button, _("Redo"));
    }
  /* the tree, grids and preview for the document's container */
  _mshed_window_utf_set_document (self, document);
  mshed_diagnostics_view_set_document (self->diagnostics_view, document);
  mshed_deps_view_set_document (self->deps_view, document);
  mshed_hex_view_set_document (self->hex_view, document);

  if (document)
    {
      gtk_stack_set_visible_child_name (self->main_stack, "document");
      update_notice (self);
      if (tolerant)
        gtk_notebook_set_current_page (self->bottom_notebook, 0);
      gtk_revealer_set_reveal_child (self->notice_revealer, tolerant);
    }
  else
    {
      gtk_revealer_set_reveal_child (self->notice_revealer, FALSE);
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
    }
  _mshed_window_update_title (self);
  _mshed_window_actions_update (self);
}

static void
on_notice_close (MshedWindow *self)
{
  gtk_revealer_set_reveal_child (self->notice_revealer, FALSE);
}

/* Settings ------------------------------------------------------------------------------- */

/* When the window gets its application (g_object_new() sets "application" only after
 * constructed()): its size and panels as they were last time. */
static void
bind_settings (MshedWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? mshed_application_get_settings (MSHED_APPLICATION (app)) : NULL;

  if (settings == NULL || self->settings_bound)
    return;
  self->settings_bound = TRUE;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  _mshed_window_layout_load (self, settings);
}

static void
save_window_state (MshedWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? mshed_application_get_settings (MSHED_APPLICATION (app)) : NULL;
  int width, height;

  if (settings == NULL)
    return;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  _mshed_window_layout_save (self, settings);
  g_settings_set_boolean (settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)))
    {
      g_settings_set_int (settings, "window-width", width);
      g_settings_set_int (settings, "window-height", height);
    }
}

static void
on_unknown_record_activated (MshedWindow       *self,
                             guint              row,
                             MshedUnknownTable *table)
{
  MshedTableId id = mshed_unknown_table_get_table (table);

  gtk_notebook_set_current_page (self->side_notebook, 1);
  mshed_hex_view_show_record (self->hex_view, id, row);
  if (_mshed_window_select_grid (self, id))
    mshed_table_view_reveal (grid_for (self,
                                       id == MSHED_TABLE_NORMALS ? MSHED_TABLE_POSITIONS : id),
                             row, NULL);
}

/* Preview controls ----------------------------------------------------------------------- */

static void
on_frame_all (MshedWindow *self)
{
  mshed_model_view_frame_all (self->model_view);
}

static void
on_playing_changed (MshedWindow *self)
{
  gboolean playing = gtk_toggle_button_get_active (self->play_button);

  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic"
                                    : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play_button),
                               playing ? _("Pause the animation") : _("Play the animation"));
}

static gboolean
frame_count_to_upper (GBinding     *binding,
                      const GValue *from,
                      GValue       *to,
                      gpointer      user_data)
{
  guint count = g_value_get_uint (from);

  g_value_set_double (to, count > 1 ? count - 1 : 0);
  return TRUE;
}

static void
bind_preview_controls (MshedWindow *self)
{
  static const struct { const char *property; const char *label; } overlays[] = {
    { "show-shaded", N_("Shaded surfaces") },
    { "show-wireframe", N_("Wireframe") },
    { "show-normals", N_("Vertex normals") },
    { "show-uv-checker", N_("UV checker") },
    { "show-materials", N_("Tint by material") },
    { "show-slot-boxes", N_("Slot bounding boxes") },
    { "show-slot-spheres", N_("Slot bounding spheres") },
    { "show-stale-bounds", N_("Stale bounds next to recomputed ones") },
    { "show-hull", N_("Header hull points") },
    { "show-header-sphere", N_("Header bounding sphere") },
    { "show-capsule", N_("Header capsule") },
    { "show-grid", N_("Ground grid") },
    { "show-axes", N_("Axes") },
    { "runtime-rotation", N_("Runtime rotation convention (transposed)") },
    { "y-up", N_("Y axis up") },
  };
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GObject *view = G_OBJECT (self->model_view);

  g_object_bind_property (self->lod_dropdown, "selected", view, "lod",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->group_dropdown, "selected", view, "group",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->play_button, "active", view, "playing",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (view, "frame", self->frame_adjustment, "value",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (view, "frame-count", self->frame_adjustment, "upper",
                               G_BINDING_SYNC_CREATE, frame_count_to_upper, NULL, NULL, NULL);
  g_signal_connect_swapped (self->play_button, "toggled", G_CALLBACK (on_playing_changed), self);

  for (guint i = 0; i < G_N_ELEMENTS (overlays); i++)
    {
      GtkWidget *check;

      if (g_object_class_find_property (G_OBJECT_GET_CLASS (view), overlays[i].property) == NULL)
        continue;
      check = gtk_check_button_new_with_label (_(overlays[i].label));
      g_object_bind_property (view, overlays[i].property, check, "active",
                              G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
      gtk_box_append (GTK_BOX (box), check);
    }
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (self->overlays_button, popover);
}

/* GObject -------------------------------------------------------------------------------- */

static gboolean
mshed_window_close_request (GtkWindow *window)
{
  MshedWindow *self = MSHED_WINDOW (window);

  save_window_state (self);
  return GTK_WINDOW_CLASS (mshed_window_parent_class)->close_request (window);
}

static void
mshed_window_dispose (GObject *object)
{
  MshedWindow *self = MSHED_WINDOW (object);

  if (self->document_signals)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  if (self->document_bindings)
    g_binding_group_set_source (self->document_bindings, NULL);
  g_clear_object (&self->document_bindings);
  g_clear_object (&self->document);
  g_clear_pointer (&self->archive, mshed_source_free);
  g_clear_object (&self->archive_edit);
  _mshed_window_layout_dispose (self);
  /* No gtk_widget_dispose_template () here: GtkWindow destroys its own child and titlebar,
   * and in GTK 4.8 disposing a window's template as well unparents a widget twice. */
  G_OBJECT_CLASS (mshed_window_parent_class)->dispose (object);
}

static void
mshed_window_class_init (MshedWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = mshed_window_dispose;
  object_class->get_property = _mshed_window_layout_get_property;
  object_class->set_property = _mshed_window_layout_set_property;
  window_class->close_request = mshed_window_close_request;

  g_type_ensure (MSHED_TYPE_NODE_TREE);
  g_type_ensure (MSHED_TYPE_UTF_TREE);
  g_type_ensure (MSHED_TYPE_DIAGNOSTICS_VIEW);
  g_type_ensure (MSHED_TYPE_DEPS_VIEW);
  g_type_ensure (MSHED_TYPE_HEX_VIEW);
  g_type_ensure (MSHED_TYPE_DATA_INSPECTOR);
  g_type_ensure (MSHED_TYPE_UNKNOWN_TABLE);
  g_type_ensure (MSHED_TYPE_MODEL_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/mshed/Mshed/mshed-window.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, tree_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, open_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, save_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, side_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, undo_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, redo_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, archive_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, empty_message);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, archive_view);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, archive_title);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, sidebar_paned);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, bottom_paned);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, content_paned);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, hex_paned);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, grid_notebook);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, side_notebook);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, bottom_notebook);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, notice_revealer);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, notice_label);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, tree_box);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, node_tree);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, utf_tree);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, diagnostics_view);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, deps_view);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, hex_view);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, data_inspector);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, unknown_table);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, model_view);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, lod_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, group_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, play_button);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, frame_adjustment);
  gtk_widget_class_bind_template_child (widget_class, MshedWindow, overlays_button);
  gtk_widget_class_bind_template_callback (widget_class, on_frame_all);
  gtk_widget_class_bind_template_callback (widget_class, on_node_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_diagnostic_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_picked);
  gtk_widget_class_bind_template_callback (widget_class, on_visibility_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_notice_close);

  _mshed_window_class_actions_init (widget_class);
  _mshed_window_files_class_init (widget_class);
  _mshed_window_archive_class_init (widget_class);
  _mshed_window_layout_class_init (widget_class);
}

static void
mshed_window_init (MshedWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
    {
      const MshedTableInfo *info = mshed_schema_get_table (mshed_window_grid_tables[i]);
      GtkWidget *grid = mshed_table_view_new (mshed_window_grid_tables[i]);
      GtkWidget *label = gtk_label_new (_(info->title));

      self->grids[i] = MSHED_TABLE_VIEW (grid);
      g_signal_connect_object (grid, "row-selected", G_CALLBACK (on_row_selected), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (grid, "follow-reference", G_CALLBACK (on_follow_reference), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (grid, "show-in-hex", G_CALLBACK (on_show_in_hex), self,
                               G_CONNECT_SWAPPED);
      gtk_notebook_append_page (self->grid_notebook, grid, label);
    }
  _mshed_window_files_init (self);
  _mshed_window_utf_init (self);
  _mshed_window_layout_init (self);
  mshed_data_inspector_set_hex_view (self->data_inspector, self->hex_view);
  g_signal_connect_object (self->unknown_table, "record-activated",
                           G_CALLBACK (on_unknown_record_activated), self, G_CONNECT_SWAPPED);
  mshed_unknown_table_set_table (self->unknown_table, MSHED_TABLE_SLOTS);
  bind_preview_controls (self);

  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_object (self->document_signals, "notify::modified",
                                 G_CALLBACK (on_document_notify), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::can-undo",
                                 G_CALLBACK (on_document_notify), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::can-redo",
                                 G_CALLBACK (on_document_notify), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "notify::title",
                                 G_CALLBACK (on_document_notify), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "diagnostics-changed",
                                 G_CALLBACK (update_notice), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->document_signals, "stale-changed",
                                 G_CALLBACK (on_document_notify), self, G_CONNECT_SWAPPED);

  g_signal_connect (self, "notify::application", G_CALLBACK (bind_settings), NULL);

  _mshed_window_actions_init (self);
  _mshed_window_update_title (self);
  _mshed_window_actions_update (self);

  if (g_strcmp0 (APP_ID, "org.mshed.Mshed.Devel") == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
}
