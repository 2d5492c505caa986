/* mshed-merge-window.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The merge view (mshed-merge-window.h, docs/diff.md §5.5).
 */
#define G_LOG_DOMAIN "mshed-merge"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-compare-window.h"
#include "mshed-dfm-schema.h"
#include "mshed-error.h"
#include "mshed-level-chooser.h"
#include "mshed-merge-window.h"
#include "mshed-schema.h"
#include "mshed-window-private.h"

enum { BASE, MINE, THEIRS };

struct _MshedMergeWindow
{
  GtkApplicationWindow parent_instance;

  /* template */
  GtkLabel          *inputs_label;
  GtkLabel          *message_label;
  GtkLabel          *summary_label;
  GtkLabel          *result_label;
  GtkListBox        *list_box;
  GtkDropDown       *table_dropdown;
  MshedLevelChooser *level_chooser;
  GtkBox            *result_box;

  MshedDocument     *docs[3];
  MshedMerge        *merge;
  MshedMergeChanges *changes;
  GPtrArray         *toggles;       /* per conflict: its Mine and its Theirs button */
  GPtrArray         *conflict_rows;
  GArray            *tables;        /* the dropdown's table ids */
  gint               table;         /* shown in the grid */
  guint              level;         /* DFM: the level (MultiLevel\Mesh<n>) of the grid */
  MshedDocument     *result;
  gulong             result_ids[3]; /* changed, can-undo, can-redo */
  gboolean           result_edited; /* edited since it was built */
  gboolean           syncing;       /* setting the toggles from the plan */
  MshedTableView    *grid;
  GtkWidget         *placeholder;
  guint              pending_index; /* the choice waiting for "discard the edits?" */
  MshedMergeChoice   pending_choice;
  char              *pending_path;  /* the file waiting for "overwrite an input?" */
  guint              reveal_idle;   /* a new grid scrolls to the cell once it has its size */
  gboolean           closing;
};

G_DEFINE_FINAL_TYPE (MshedMergeWindow, mshed_merge_window, GTK_TYPE_APPLICATION_WINDOW)

static gboolean
is_dfm (MshedMergeWindow *self)
{
  return mshed_document_get_model (self->docs[BASE]) == NULL;
}

static void
set_message (MshedMergeWindow *self,
             const char       *text)
{
  gtk_label_set_text (self->message_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), text != NULL);
}

/* Where a listed unit is: a table, a BASE row and a field (or the whole row). */
typedef struct {
  gint        table;
  guint       row;
  const char *field;
  const char *path;  /* UTF file (DFM tables of one level), NULL */
} Place;

/* Whether a grid of table @table follows the level chooser. */
static gboolean
table_has_level (MshedMergeWindow *self,
                 gint              table)
{
  return is_dfm (self) && table != MSHED_TABLE_NONE &&
         mshed_level_chooser_table_has_level ((MshedDfmTable) table);
}

/* The DFM level @place is in, G_MAXUINT when its table shows no single level. */
static guint
place_level (MshedMergeWindow *self,
             const Place      *place)
{
  return table_has_level (self, place->table) ? mshed_level_chooser_path_level (place->path)
                                              : G_MAXUINT;
}

/* Whether the grid, when it shows @table at the level chosen, shows @place. */
static gboolean
place_in_grid (MshedMergeWindow *self,
               const Place      *place,
               gint              table)
{
  guint level = place_level (self, place);

  if (place->table != table || place->row == G_MAXUINT)
    return FALSE;
  return level == G_MAXUINT || level == self->level;
}

/* The grid ------------------------------------------------------------------------------ */

/* Marks the cells the merge changed (or asked about) in the grid. */
static void
mark_changed (MshedMergeWindow *self)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) fields = g_ptr_array_new ();

  if (self->grid == NULL)
    return;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list_box)); row;
       row = gtk_widget_get_next_sibling (row))
    {
      const Place *place = g_object_get_data (G_OBJECT (row), "place");

      if (place == NULL || !place_in_grid (self, place, self->table))
        continue;
      g_array_append_val (rows, place->row);
      g_ptr_array_add (fields, (gpointer) place->field);
    }
  mshed_table_view_set_changed (self->grid, (const guint *) rows->data,
                                (const char *const *) fields->pdata, rows->len);
}

static void
show_table (MshedMergeWindow *self,
            gint              table)
{
  if (self->grid != NULL)
    gtk_box_remove (self->result_box, GTK_WIDGET (self->grid));
  self->grid = NULL;
  self->table = table;
  gtk_widget_set_visible (self->placeholder, self->result == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->table_dropdown), self->result != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->level_chooser), self->result != NULL);
  if (self->result == NULL)
    return;
  self->grid = MSHED_TABLE_VIEW (is_dfm (self)
                                 ? mshed_table_view_new_dfm ((MshedDfmTable) table,
                                                             table_has_level (self, table)
                                                             ? self->level : 0, 0)
                                 : mshed_table_view_new ((MshedTableId) table));
  gtk_widget_set_hexpand (GTK_WIDGET (self->grid), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->grid), TRUE);
  mshed_table_view_set_document (self->grid, self->result);
  gtk_box_append (self->result_box, GTK_WIDGET (self->grid));
  for (guint i = 0; i < self->tables->len; i++)
    if (g_array_index (self->tables, gint, i) == table)
      gtk_drop_down_set_selected (self->table_dropdown, i);
  mark_changed (self);
}

static void
table_selected_cb (MshedMergeWindow *self)
{
  guint pos = gtk_drop_down_get_selected (self->table_dropdown);

  if (pos < self->tables->len && g_array_index (self->tables, gint, pos) != self->table)
    show_table (self, g_array_index (self->tables, gint, pos));
}

/* The grid shows level @level (a new grid, as in the compare window). */
static void
show_level (MshedMergeWindow *self,
            guint             level)
{
  if (level == self->level)
    return;
  self->level = level;
  mshed_level_chooser_set_level (self->level_chooser, level);
  if (table_has_level (self, self->table))
    show_table (self, self->table);
}

static void
level_chosen_cb (MshedMergeWindow *self)
{
  show_level (self, mshed_level_chooser_get_level (self->level_chooser));
}

/* The place of the conflict or change selected in the list, NULL when none. */
static const Place *
selected_place (MshedMergeWindow *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list_box);

  return row ? g_object_get_data (G_OBJECT (row), "place") : NULL;
}

static gboolean
reveal_idle_cb (gpointer data)
{
  MshedMergeWindow *self = data;
  const Place *place = selected_place (self);

  self->reveal_idle = 0;
  if (place != NULL && self->grid != NULL && place_in_grid (self, place, self->table))
    mshed_table_view_reveal (self->grid, place->row, place->field);
  return G_SOURCE_REMOVE;
}

/* Reveals the selected conflict's or change's cell in the grid: now, and once more when a
 * new grid has its size. */
static void
reveal_selected (MshedMergeWindow *self)
{
  const Place *place = selected_place (self);

  if (place == NULL || self->grid == NULL || !place_in_grid (self, place, self->table))
    return;
  mshed_table_view_reveal (self->grid, place->row, place->field);
  if (self->reveal_idle == 0)
    self->reveal_idle = g_idle_add_full (G_PRIORITY_LOW, reveal_idle_cb, self, NULL);
}

/* Selecting a conflict or change shows its table and DFM level, and its cell in the result
 * (once there is one). */
static void
row_selected_cb (MshedMergeWindow *self,
                 GtkListBoxRow    *row)
{
  const Place *place = row ? g_object_get_data (G_OBJECT (row), "place") : NULL;
  gboolean offered = FALSE;
  guint level;

  if (place == NULL)
    return;
  for (guint i = 0; i < self->tables->len; i++)
    offered |= g_array_index (self->tables, gint, i) == place->table;
  if (!offered || place->row == G_MAXUINT)
    return;
  level = place_level (self, place);
  if (level != G_MAXUINT && level >= mshed_level_chooser_get_n_levels (self->level_chooser))
    return;
  if (level != G_MAXUINT)
    show_level (self, level);
  if (place->table != self->table)
    show_table (self, place->table);
  reveal_selected (self);
}

/* F7, Shift+F7: the next or previous conflict or change of the list. */
static void
step_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedMergeWindow *self = MSHED_MERGE_WINDOW (widget);
  gboolean next = strcmp (action, "win.next-difference") == 0;
  GtkListBoxRow *selected = gtk_list_box_get_selected_row (self->list_box);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self->list_box),
                                                 GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  guint i = G_MAXUINT;
  GtkWidget *row;
  graphene_rect_t b;

  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (self->list_box)); w;
       w = gtk_widget_get_next_sibling (w))
    if (g_object_get_data (G_OBJECT (w), "place") != NULL)
      {
        if (w == GTK_WIDGET (selected))
          i = rows->len;
        g_ptr_array_add (rows, w);
      }
  if (rows->len == 0)
    return;
  if (i == G_MAXUINT)
    i = next ? 0 : rows->len - 1;
  else
    i = next ? (i + 1) % rows->len : (i + rows->len - 1) % rows->len;
  row = g_ptr_array_index (rows, i);
  gtk_list_box_select_row (self->list_box, GTK_LIST_BOX_ROW (row));
  /* the row in view, without taking the keyboard focus from the grid */
  if (gtk_widget_compute_bounds (row, GTK_WIDGET (self->list_box), &b))
    {
      double value = gtk_adjustment_get_value (adj);
      double page = gtk_adjustment_get_page_size (adj);

      if (b.origin.y < value)
        gtk_adjustment_set_value (adj, b.origin.y);
      else if (b.origin.y + b.size.height > value + page)
        gtk_adjustment_set_value (adj, b.origin.y + b.size.height - page);
    }
}

/* The result --------------------------------------------------------------------------- */

static void
update_actions (MshedMergeWindow *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean any = mshed_merge_get_n_conflicts (self->merge) > 0;
  gboolean listed = any || mshed_merge_changes_get_n (self->changes) > 0;

  gtk_widget_action_set_enabled (w, "win.next-difference", listed);
  gtk_widget_action_set_enabled (w, "win.previous-difference", listed);
  gtk_widget_action_set_enabled (w, "win.all-mine", any);
  gtk_widget_action_set_enabled (w, "win.all-theirs", any);
  gtk_widget_action_set_enabled (w, "win.save-as", self->result != NULL);
  gtk_widget_action_set_enabled (w, "win.undo",
                                 self->result && mshed_document_can_undo (self->result));
  gtk_widget_action_set_enabled (w, "win.redo",
                                 self->result && mshed_document_can_redo (self->result));
}

static void
update_result_label (MshedMergeWindow *self)
{
  guint n = mshed_merge_get_n_unresolved (self->merge);
  g_autofree char *text = NULL;

  if (self->result == NULL && n > 0)
    text = g_strdup_printf (ngettext ("choose Mine or Theirs for %u more conflict",
                                      "choose Mine or Theirs for %u more conflicts", n), n);
  else if (self->result == NULL)
    text = g_strdup (_("the merge could not be applied"));
  else if (mshed_document_get_path (self->result) != NULL)
    text = g_strdup_printf (mshed_document_get_modified (self->result)
                            ? _("saved as %s, changed since") : _("saved as %s"),
                            mshed_document_get_path (self->result));
  else
    text = g_strdup (_("not saved yet"));
  gtk_label_set_text (self->result_label, text);
}

static void sync_toggles   (MshedMergeWindow *self);
static void update_summary (MshedMergeWindow *self);

/* After any change of the result (an edit, a choice, undo, redo): a conflict whose unit now
 * holds one side's value shows that side as its choice. */
static void
result_changed_cb (MshedMergeWindow *self)
{
  gboolean any = FALSE;

  self->result_edited = TRUE;
  for (guint i = 0; i < mshed_merge_get_n_conflicts (self->merge); i++)
    {
      MshedMergeChoice now = mshed_merge_read_result_choice (self->merge, self->result, i);

      if (now != MSHED_MERGE_UNRESOLVED && now != mshed_merge_get_conflict (self->merge, i)->choice)
        {
          mshed_merge_resolve (self->merge, i, now);
          any = TRUE;
        }
    }
  if (any)
    {
      sync_toggles (self);
      update_summary (self);
    }
  update_result_label (self);
  update_actions (self);
}

static void
drop_result (MshedMergeWindow *self)
{
  if (self->result == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (self->result_ids); i++)
    g_clear_signal_handler (&self->result_ids[i], self->result);
  g_clear_object (&self->result);
}

/* The merged model once every conflict has a choice: a new document, "Merge" its undo step. */
static void
rebuild_result (MshedMergeWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->grid != NULL)
    mshed_table_view_set_document (self->grid, NULL);
  drop_result (self);
  self->result_edited = FALSE;
  set_message (self, NULL);
  if (mshed_merge_get_n_unresolved (self->merge) == 0)
    {
      self->result = mshed_merge_apply (self->merge, &error);
      if (self->result == NULL)
        set_message (self, error->message);
    }
  if (self->result != NULL)
    {
      self->result_ids[0] = g_signal_connect_swapped (self->result, "changed",
                                                      G_CALLBACK (result_changed_cb), self);
      self->result_ids[1] = g_signal_connect_swapped (self->result, "notify::can-undo",
                                                      G_CALLBACK (update_actions), self);
      self->result_ids[2] = g_signal_connect_swapped (self->result, "notify::modified",
                                                      G_CALLBACK (update_result_label), self);
    }
  show_table (self, self->table);
  reveal_selected (self);
  update_result_label (self);
  update_actions (self);
}

/* The list ------------------------------------------------------------------------------ */

static void
update_summary (MshedMergeWindow *self)
{
  guint n_changes = mshed_merge_changes_get_n (self->changes);
  guint n_conflicts = mshed_merge_get_n_conflicts (self->merge);
  guint n_open = mshed_merge_get_n_unresolved (self->merge);
  g_autofree char *changes = g_strdup_printf (ngettext ("%u change taken", "%u changes taken",
                                                        n_changes), n_changes);
  g_autofree char *conflicts = g_strdup_printf (ngettext ("%u conflict", "%u conflicts",
                                                          n_conflicts), n_conflicts);
  g_autofree char *open = g_strdup_printf (ngettext ("%u unresolved", "%u unresolved", n_open),
                                           n_open);
  g_autofree char *text = NULL;

  if (n_changes == 0 && n_conflicts == 0)
    text = g_strdup (_("MINE and THEIRS made no changes to BASE."));
  else
    /* translators: "2 changes taken, 1 conflict (1 unresolved)" */
    text = g_strdup_printf (_("%s, %s (%s)"), changes, conflicts, open);
  gtk_label_set_text (self->summary_label, text);
}

/* The toggles show the plan's choices. */
static void
sync_toggles (MshedMergeWindow *self)
{
  self->syncing = TRUE;
  for (guint i = 0; i < mshed_merge_get_n_conflicts (self->merge); i++)
    {
      MshedMergeChoice choice = mshed_merge_get_conflict (self->merge, i)->choice;
      GtkWidget *row = g_ptr_array_index (self->conflict_rows, i);

      for (guint k = 0; k < 2; k++)
        gtk_toggle_button_set_active (g_ptr_array_index (self->toggles, 2 * i + k),
                                      choice == (k == 0 ? MSHED_MERGE_MINE : MSHED_MERGE_THEIRS));
      if (choice == MSHED_MERGE_UNRESOLVED)
        gtk_widget_add_css_class (row, "unresolved");
      else
        gtk_widget_remove_css_class (row, "unresolved");
    }
  self->syncing = FALSE;
}

static void
apply_choice (MshedMergeWindow *self,
              guint             index,
              MshedMergeChoice  choice)
{
  if (index == G_MAXUINT)
    mshed_merge_resolve_all (self->merge, choice);
  else
    mshed_merge_resolve (self->merge, index, choice);
  sync_toggles (self);
  update_summary (self);
  rebuild_result (self);
}

static void
discard_response_cb (GtkDialog        *dialog,
                     int               response,
                     MshedMergeWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    apply_choice (self, self->pending_index, self->pending_choice);
  else
    sync_toggles (self);  /* back to the choices the result was built with */
}

static GtkWidget *
question (MshedMergeWindow *self,
          const char       *primary,
          const char       *secondary,
          const char       *accept)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL,
                                              GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s",
                                              primary);

  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);  /* never answers late */
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, accept,
                          GTK_RESPONSE_ACCEPT, NULL);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog),
                                                                GTK_RESPONSE_ACCEPT),
                            "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  return dialog;
}

/* A new choice in a built result is an undo step of the result that keeps its other edits
 * (docs/diff.md §5.5). A whole resource chosen again rebuilds the result: edits made in it
 * since are lost, so ask first. */
static void
choose (MshedMergeWindow *self,
        guint             index,
        MshedMergeChoice  choice)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog;

  if (self->result != NULL)
    {
      if (mshed_merge_choose_in_result (self->merge, self->result, index, choice, &error))
        {
          set_message (self, NULL);
          sync_toggles (self);
          update_summary (self);
          /* the result's changes came inside a group: undo is offered from its end */
          update_actions (self);
          return;
        }
      if (!g_error_matches (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED))
        {
          set_message (self, error->message);
          sync_toggles (self);
          return;
        }
    }
  if (!self->result_edited)
    {
      apply_choice (self, index, choice);
      return;
    }
  self->pending_index = index;
  self->pending_choice = choice;
  dialog = question (self, _("Discard your edits in the merged model?"),
                     _("Changing a choice builds the merged model again from the three "
                       "inputs."), _("_Discard Edits"));
  g_signal_connect (dialog, "response", G_CALLBACK (discard_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
toggle_cb (GtkToggleButton  *button,
           MshedMergeWindow *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "conflict"));
  MshedMergeChoice choice = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "choice"));

  if (!self->syncing && gtk_toggle_button_get_active (button) &&
      mshed_merge_get_conflict (self->merge, index)->choice != choice)
    choose (self, index, choice);
}

static GtkWidget *
list_label (const char *text,
            const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
append_heading (MshedMergeWindow *self,
                const char       *text)
{
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), list_label (text, "heading"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_append (self->list_box, row);
}

static GtkWidget *
append_row (MshedMergeWindow *self,
            GtkWidget        *child,
            const Place      *place)
{
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), child);
  g_object_set_data_full (G_OBJECT (row), "place", g_memdup2 (place, sizeof *place), g_free);
  gtk_list_box_append (self->list_box, row);
  return row;
}

static GtkWidget *
conflict_widget (MshedMergeWindow         *self,
                 guint                     index,
                 const MshedMergeConflict *c)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  g_autofree char *where = mshed_merge_conflict_format_where (c);
  const char *absent = _("absent");
  const char *values[3] = { c->base_value ? c->base_value : absent,
                            c->mine_value ? c->mine_value : absent,
                            c->theirs_value ? c->theirs_value : absent };
  /* translators: a conflict's three values, the same words as in the conflict lines */
  g_autofree char *text = g_strdup_printf (_("base %s · mine %s · theirs %s"), values[0],
                                           values[1], values[2]);
  GtkWidget *label = list_label (where, "merge-where");
  GtkToggleButton *first = NULL;

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_widget_set_tooltip_text (label, where);
  gtk_box_append (GTK_BOX (box), label);
  label = list_label (text, NULL);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_tooltip_text (label, text);
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_add_css_class (buttons, "linked");
  for (guint k = 0; k < 2; k++)
    {
      GtkWidget *b = gtk_toggle_button_new_with_label (k == 0 ? _("Mine") : _("Theirs"));

      gtk_widget_set_tooltip_text (b, values[k + 1]);
      g_object_set_data (G_OBJECT (b), "conflict", GUINT_TO_POINTER (index));
      g_object_set_data (G_OBJECT (b), "choice",
                         GINT_TO_POINTER (k == 0 ? MSHED_MERGE_MINE : MSHED_MERGE_THEIRS));
      if (first)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (b), first);
      else
        first = GTK_TOGGLE_BUTTON (b);
      g_signal_connect (b, "toggled", G_CALLBACK (toggle_cb), self);
      g_ptr_array_add (self->toggles, b);
      gtk_box_append (GTK_BOX (buttons), b);
    }
  gtk_box_append (GTK_BOX (box), buttons);
  return box;
}

static void
fill_list (MshedMergeWindow *self)
{
  guint n_conflicts = mshed_merge_get_n_conflicts (self->merge);
  guint n_changes = mshed_merge_changes_get_n (self->changes);

  if (n_conflicts > 0)
    append_heading (self, _("Conflicts: both changed these differently, choose a side"));
  for (guint i = 0; i < n_conflicts; i++)
    {
      const MshedMergeConflict *c = mshed_merge_get_conflict (self->merge, i);
      Place place = { c->table, c->row, c->field, c->path };

      g_ptr_array_add (self->conflict_rows,
                       append_row (self, conflict_widget (self, i, c), &place));
    }
  if (n_changes > 0)
    append_heading (self, _("Changes taken: one side changed these, or both the same way"));
  for (guint i = 0; i < n_changes; i++)
    {
      const MshedMergeChange *change = mshed_merge_changes_get (self->changes, i);
      const MshedDiffItem *item = change->item;
      g_autofree char *line = mshed_merge_change_format (change);
      Place place = { item->table, item->row_a != MSHED_DIFF_NO_ROW ? item->row_a : item->row_b,
                      item->kind == MSHED_DIFF_FIELD || item->kind == MSHED_DIFF_TEXT
                      ? item->field : NULL, item->path };
      GtkWidget *label = list_label (line, NULL);

      gtk_widget_set_tooltip_text (label, line);
      append_row (self, label, &place);
    }
  sync_toggles (self);
}

/* Saving -------------------------------------------------------------------------------- */

static void
do_save (MshedMergeWindow *self,
         const char       *path)
{
  g_autoptr(GError) error = NULL;

  set_message (self, NULL);
  if (!mshed_document_save_as (self->result, path, MSHED_SAVE_FLAGS_NONE, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not save “%s”: %s"), path,
                                               error->message);

      set_message (self, text);
    }
  update_result_label (self);
}

static void
overwrite_response_cb (GtkDialog        *dialog,
                       int               response,
                       MshedMergeWindow *self)
{
  g_autofree char *path = g_steal_pointer (&self->pending_path);

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT && self->result != NULL)
    do_save (self, path);
}

/* The input (BASE, MINE, THEIRS) saved in @path, -1 when none. */
static gint
input_at (MshedMergeWindow *self,
          const char       *path)
{
  g_autofree char *canonical = g_canonicalize_filename (path, NULL);

  for (guint s = 0; s < 3; s++)
    {
      const char *p = mshed_document_get_path (self->docs[s]);
      g_autofree char *other = p ? g_canonicalize_filename (p, NULL) : NULL;

      if (other != NULL && strcmp (canonical, other) == 0)
        return (gint) s;
    }
  return -1;
}

void
mshed_merge_window_save_as (MshedMergeWindow *self,
                            const char       *path)
{
  static const char *const roles[] = { N_("BASE"), N_("MINE"), N_("THEIRS") };
  gint input;
  GtkWidget *dialog;
  g_autofree char *primary = NULL;

  g_return_if_fail (MSHED_IS_MERGE_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (self->result == NULL)
    return;
  input = input_at (self, path);
  if (input < 0)
    {
      do_save (self, path);
      return;
    }
  /* translators: %s is a file name, then BASE, MINE or THEIRS */
  primary = g_strdup_printf (_("Overwrite “%s”, the %s of this merge?"), path,
                             _(roles[input]));
  dialog = question (self, primary,
                     _("The merged model replaces that file (a FILE.bak copy of it is kept the "
                       "first time)."), _("_Overwrite"));
  g_free (self->pending_path);
  self->pending_path = g_strdup (path);
  g_signal_connect (dialog, "response", G_CALLBACK (overwrite_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
save_response_cb (GtkNativeDialog  *dialog,
                  int               response,
                  MshedMergeWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        mshed_merge_window_save_as (self, path);
    }
  g_object_unref (dialog);
}

/* Actions ------------------------------------------------------------------------------- */

static void
save_as_action (GtkWidget  *widget,
                const char *action,
                GVariant   *param)
{
  MshedMergeWindow *self = MSHED_MERGE_WINDOW (widget);
  const char *mine = mshed_document_get_path (self->docs[MINE]);
  GtkFileChooserNative *dialog;

  if (self->result == NULL)
    return;
  if (mshed_document_get_path (self->result) != NULL && strcmp (action, "win.save") == 0)
    {
      do_save (self, mshed_document_get_path (self->result));
      return;
    }
  dialog = gtk_file_chooser_native_new (_("Save the Merged Model"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  if (mine != NULL)
    {
      g_autoptr(GFile) dir = g_file_new_for_path (mine);
      g_autoptr(GFile) parent = g_file_get_parent (dir);
      g_autofree char *base = g_path_get_basename (mine);
      char *dot = strrchr (base, '.');
      g_autofree char *name = NULL;

      if (dot != NULL)
        *dot = '\0';
      name = g_strdup_printf ("%s-merged%s", base, dot ? strrchr (mine, '.') : "");
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), parent, NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
all_action (GtkWidget  *widget,
            const char *action,
            GVariant   *param)
{
  choose (MSHED_MERGE_WINDOW (widget), G_MAXUINT,
          strcmp (action, "win.all-mine") == 0 ? MSHED_MERGE_MINE : MSHED_MERGE_THEIRS);
}

static void
undo_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedMergeWindow *self = MSHED_MERGE_WINDOW (widget);

  if (self->result == NULL)
    return;
  if (strcmp (action, "win.undo") == 0)
    mshed_document_undo (self->result);
  else
    mshed_document_redo (self->result);
  update_actions (self);
}

static void
close_action (GtkWidget  *widget,
              const char *action,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
close_response_cb (GtkDialog        *dialog,
                   int               response,
                   MshedMergeWindow *self)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response != GTK_RESPONSE_ACCEPT)
    return;
  self->closing = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
close_request_cb (MshedMergeWindow *self)
{
  GtkWidget *dialog;

  if (self->closing || self->result == NULL || !mshed_document_get_modified (self->result))
    return FALSE;
  dialog = question (self, _("Close without saving the merged model?"),
                     _("The merge is lost unless you save it with Save As…."),
                     _("_Close Without Saving"));
  g_signal_connect (dialog, "response", G_CALLBACK (close_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/* GObject ------------------------------------------------------------------------------- */

static void
mshed_merge_window_dispose (GObject *object)
{
  MshedMergeWindow *self = MSHED_MERGE_WINDOW (object);

  g_clear_handle_id (&self->reveal_idle, g_source_remove);
  drop_result (self);
  self->grid = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_MERGE_WINDOW);
  for (guint s = 0; s < 3; s++)
    g_clear_object (&self->docs[s]);
  g_clear_pointer (&self->changes, mshed_merge_changes_free);
  g_clear_pointer (&self->merge, mshed_merge_free);
  g_clear_pointer (&self->toggles, g_ptr_array_unref);
  g_clear_pointer (&self->conflict_rows, g_ptr_array_unref);
  g_clear_pointer (&self->tables, g_array_unref);
  g_clear_pointer (&self->pending_path, g_free);
  G_OBJECT_CLASS (mshed_merge_window_parent_class)->dispose (object);
}

static void
mshed_merge_window_class_init (MshedMergeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_merge_window_dispose;

  g_type_ensure (MSHED_TYPE_LEVEL_CHOOSER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-merge-window.ui");
  gtk_widget_class_set_css_name (widget_class, "mergewindow");
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, inputs_label);
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, result_label);
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, list_box);
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, table_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, level_chooser);
  gtk_widget_class_bind_template_child (widget_class, MshedMergeWindow, result_box);

  gtk_widget_class_install_action (widget_class, "win.next-difference", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "win.previous-difference", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "win.all-mine", NULL, all_action);
  gtk_widget_class_install_action (widget_class, "win.all-theirs", NULL, all_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
}

static void
mshed_merge_window_init (MshedMergeWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->toggles = g_ptr_array_new ();
  self->conflict_rows = g_ptr_array_new ();
  self->tables = g_array_new (FALSE, FALSE, sizeof (gint));
  self->table = MSHED_TABLE_NONE;
  self->placeholder = gtk_label_new (_("The merged model is shown here once every conflict "
                                       "has a choice."));
  gtk_widget_set_hexpand (self->placeholder, TRUE);
  gtk_label_set_wrap (GTK_LABEL (self->placeholder), TRUE);
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_box_append (self->result_box, self->placeholder);
  g_signal_connect_swapped (self->list_box, "row-selected", G_CALLBACK (row_selected_cb),
                            self);
  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), NULL);
  g_signal_connect_swapped (self->level_chooser, "notify::level", G_CALLBACK (level_chosen_cb),
                            self);
}

/* API ----------------------------------------------------------------------------------- */

static void
fill_tables (MshedMergeWindow *self)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);

  if (is_dfm (self))
    for (guint i = 0; i < MSHED_COMPARE_N_DFM_TABLES; i++)
      {
        gint t = mshed_compare_dfm_tables[i];

        g_array_append_val (self->tables, t);
        gtk_string_list_append (titles,
                                _(mshed_dfm_schema_get_table (mshed_compare_dfm_tables[i])->title));
      }
  else
    for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
      {
        gint t = mshed_window_grid_tables[i];

        g_array_append_val (self->tables, t);
        gtk_string_list_append (titles,
                                _(mshed_schema_get_table (mshed_window_grid_tables[i])->title));
      }
  gtk_drop_down_set_model (self->table_dropdown, G_LIST_MODEL (titles));
  g_signal_connect_swapped (self->table_dropdown, "notify::selected",
                            G_CALLBACK (table_selected_cb), self);
  self->table = g_array_index (self->tables, gint, 0);
}

static void
set_titles (MshedMergeWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *inputs = NULL;

  /* translators: the merge window's title: MINE, then THEIRS */
  title = g_strdup_printf (_("Merge %s ← %s"), mshed_document_get_title (self->docs[MINE]),
                           mshed_document_get_title (self->docs[THEIRS]));
  gtk_window_set_title (GTK_WINDOW (self), title);
  inputs = g_strdup_printf (_("BASE %s · MINE %s · THEIRS %s"),
                            mshed_document_get_title (self->docs[BASE]),
                            mshed_document_get_title (self->docs[MINE]),
                            mshed_document_get_title (self->docs[THEIRS]));
  gtk_label_set_text (self->inputs_label, inputs);
}

MshedMergeWindow *
mshed_merge_window_new (MshedApplication  *app,
                        MshedDocument     *base,
                        MshedDocument     *mine,
                        MshedDocument     *theirs,
                        GError           **error)
{
  g_autoptr(MshedMerge) merge = NULL;
  g_autoptr(MshedMergeChanges) changes = NULL;
  MshedMergeWindow *self;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (base), NULL);
  g_return_val_if_fail (MSHED_IS_DOCUMENT (mine), NULL);
  g_return_val_if_fail (MSHED_IS_DOCUMENT (theirs), NULL);

  merge = mshed_merge_documents (base, mine, theirs, error);
  if (merge == NULL)
    return NULL;
  changes = mshed_merge_changes_new (merge, base, mine, theirs, error);
  if (changes == NULL)
    return NULL;
  self = g_object_new (MSHED_TYPE_MERGE_WINDOW, "application", app, NULL);
  self->docs[BASE] = g_object_ref (base);
  self->docs[MINE] = g_object_ref (mine);
  self->docs[THEIRS] = g_object_ref (theirs);
  self->merge = g_steal_pointer (&merge);
  self->changes = g_steal_pointer (&changes);
  set_titles (self);
  mshed_level_chooser_set_documents (self->level_chooser, self->docs, 3);
  fill_tables (self);
  fill_list (self);
  update_summary (self);
  rebuild_result (self);
  return self;
}

MshedMergeWindow *
mshed_merge_window_open (MshedApplication  *app,
                         const char        *base,
                         const char        *mine,
                         const char        *theirs,
                         GError           **error)
{
  g_autoptr(MshedDocument) b = _mshed_open_input (base, error);
  g_autoptr(MshedDocument) m = b ? _mshed_open_input (mine, error) : NULL;
  g_autoptr(MshedDocument) t = m ? _mshed_open_input (theirs, error) : NULL;

  if (t == NULL)
    return NULL;
  return mshed_merge_window_new (app, b, m, t, error);
}

MshedMerge *
mshed_merge_window_get_merge (MshedMergeWindow *self)
{
  g_return_val_if_fail (MSHED_IS_MERGE_WINDOW (self), NULL);

  return self->merge;
}

const MshedMergeChanges *
mshed_merge_window_get_changes (MshedMergeWindow *self)
{
  g_return_val_if_fail (MSHED_IS_MERGE_WINDOW (self), NULL);

  return self->changes;
}

MshedDocument *
mshed_merge_window_get_result (MshedMergeWindow *self)
{
  g_return_val_if_fail (MSHED_IS_MERGE_WINDOW (self), NULL);

  return self->result;
}

MshedTableView *
mshed_merge_window_get_grid (MshedMergeWindow *self)
{
  g_return_val_if_fail (MSHED_IS_MERGE_WINDOW (self), NULL);

  return self->grid;
}

guint
mshed_merge_window_get_level (MshedMergeWindow *self)
{
  g_return_val_if_fail (MSHED_IS_MERGE_WINDOW (self), 0);

  return self->level;
}
