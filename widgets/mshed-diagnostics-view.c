/* mshed-diagnostics-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The validator's findings for the current document, live after every edit. Activating a
 * row emits "diagnostic-activated" with the MshedDiagnostic; the window jumps to its table
 * row, field and byte offset. For a finding with a safe fix (mshed-fix.h), "Fix…" and "Fix
 * All of This Kind…" first show every field change (table, row, field, old -> new), then apply
 * them as one undoable command.
 */
#define G_LOG_DOMAIN "mshed-diagnostics-view"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mshed-dfm-schema.h"
#include "mshed-diagnostics-view.h"
#include "mshed-fix.h"
#include "mshed-hex-model.h"
#include "mshed-schema.h"
#include "mshed-table-model.h"

/* One row: a copy of a diagnostic. Few enough (one per finding) to hold as objects. */
#define MSHED_TYPE_DIAGNOSTIC_ITEM (mshed_diagnostic_item_get_type ())
G_DECLARE_FINAL_TYPE (MshedDiagnosticItem, mshed_diagnostic_item, MSHED, DIAGNOSTIC_ITEM, GObject)

struct _MshedDiagnosticItem {
  GObject          parent_instance;
  MshedDiagnostic *diag;
};

G_DEFINE_FINAL_TYPE (MshedDiagnosticItem, mshed_diagnostic_item, G_TYPE_OBJECT)

static void
mshed_diagnostic_item_finalize (GObject *object)
{
  g_clear_pointer (&MSHED_DIAGNOSTIC_ITEM (object)->diag, mshed_diagnostic_free);
  G_OBJECT_CLASS (mshed_diagnostic_item_parent_class)->finalize (object);
}

static void
mshed_diagnostic_item_class_init (MshedDiagnosticItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_diagnostic_item_finalize;
}

static void
mshed_diagnostic_item_init (MshedDiagnosticItem *self)
{
}

struct _MshedDiagnosticsView {
  GtkWidget        parent_instance;

  MshedDocument   *document;
  gulong           diagnostics_handler;
  GListStore      *store;
  GtkFilterListModel *filtered;
  GtkCustomFilter *filter;

  GtkColumnView   *column_view;
  GtkToggleButton *errors_button;
  GtkToggleButton *warnings_button;
  GtkToggleButton *info_button;
  GtkLabel        *summary_label;
  GtkWidget       *fix_button;
  GtkWidget       *fix_kind_button;
  GtkWidget       *context_menu;
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (MshedDiagnosticsView, mshed_diagnostics_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

enum {
  DIAGNOSTIC_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void update_fix_buttons (MshedDiagnosticsView *self);

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  MshedDiagnosticsView *self = user_data;
  const MshedDiagnostic *d = MSHED_DIAGNOSTIC_ITEM (item)->diag;

  switch (d->severity)
    {
    case MSHED_SEVERITY_ERROR:
      return gtk_toggle_button_get_active (self->errors_button);
    case MSHED_SEVERITY_WARNING:
      return gtk_toggle_button_get_active (self->warnings_button);
    case MSHED_SEVERITY_INFO:
    default:
      return gtk_toggle_button_get_active (self->info_button);
    }
}

static void
update_summary (MshedDiagnosticsView *self)
{
  const MshedDiagnostics *diags = self->document ? mshed_document_get_diagnostics (self->document)
                                                 : NULL;
  g_autofree char *text = NULL;

  if (diags == NULL)
    text = g_strdup ("");
  else if (diags->items->len == 0)
    text = g_strdup (_("No problems found"));
  else
    {
      g_autofree char *e = g_strdup_printf (g_dngettext (NULL, "%u error", "%u errors",
                                                         diags->n_errors),
                                            diags->n_errors);
      g_autofree char *w = g_strdup_printf (g_dngettext (NULL, "%u warning", "%u warnings",
                                                         diags->n_warnings), diags->n_warnings);
      /* translators: "3 errors, 1 warning" */
      text = g_strdup_printf (_("%s, %s"), e, w);
    }
  gtk_label_set_label (self->summary_label, text);
}

static void
reload (MshedDiagnosticsView *self)
{
  const MshedDiagnostics *diags;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->document == NULL)
    {
      g_list_store_remove_all (self->store);
      update_summary (self);
      return;
    }
  diags = mshed_document_get_diagnostics (self->document);
  for (guint i = 0; diags && i < diags->items->len; i++)
    {
      MshedDiagnosticItem *item = g_object_new (MSHED_TYPE_DIAGNOSTIC_ITEM, NULL);

      item->diag = mshed_diagnostic_copy (g_ptr_array_index (diags->items, i));
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
  update_summary (self);
  update_fix_buttons (self);
}

/* Fixes -------------------------------------------------------------------------------- */

/* The shown row that is selected, or NULL (transfer none). */
static MshedDiagnosticItem *
selected_item (MshedDiagnosticsView *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

static void
update_fix_buttons (MshedDiagnosticsView *self)
{
  MshedDiagnosticItem *item = selected_item (self);
  gboolean can = item != NULL && self->document != NULL &&
                 mshed_fix_check_has_fix (item->diag->check);

  gtk_widget_set_sensitive (self->fix_button, can);
  gtk_widget_set_sensitive (self->fix_kind_button, can);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "diagnostics.fix", can);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "diagnostics.fix-kind", can);
}

static void
on_fix_response (GtkDialog            *dialog,
                 int                   response,
                 MshedDiagnosticsView *self)
{
  MshedFixPlan *plan = g_object_get_data (G_OBJECT (dialog), "mshed-fix-plan");
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && plan != NULL && self->document != NULL &&
      !mshed_fix_plan_apply (self->document, plan, &error))
    {
      GtkWidget *alert = gtk_message_dialog_new (gtk_window_get_transient_for (GTK_WINDOW (dialog)),
                                                 GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                 GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s",
                                                 _("The fix was not applied"));

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (alert), "%s", error->message);
      g_signal_connect (alert, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (alert));
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* At most this many changes are listed in the dialog; the rest are counted. */
#define MAX_LISTED_CHANGES 500

/* Shows what @plan changes and asks before applying it (takes @plan). */
static void
show_plan (MshedDiagnosticsView *self,
           MshedFixPlan         *plan)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWindow *parent = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = plan->changes->len;
  GtkWidget *dialog, *scroller, *label;

  for (guint i = 0; i < n && i < MAX_LISTED_CHANGES; i++)
    {
      g_autofree char *line = mshed_fix_change_describe (g_ptr_array_index (plan->changes, i));

      g_string_append_printf (text, "%s%s", i ? "\n" : "", line);
    }
  if (n > MAX_LISTED_CHANGES)
    g_string_append_printf (text, "\n%s", _("… and more"));
  for (guint i = 0; i < plan->notes->len; i++)
    g_string_append_printf (text, "%s%s", text->len ? "\n" : "",
                            (const char *) g_ptr_array_index (plan->notes, i));

  if (n == 0)
    dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                     GTK_MESSAGE_INFO, GTK_BUTTONS_CLOSE, "%s",
                                     _("Nothing can be fixed automatically here"));
  else
    {
      dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                       GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                       g_dngettext (NULL, "Apply %u change?",
                                                    "Apply %u changes?", n), n);
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                                _("These fields change, in one step that Undo "
                                                  "takes back (table[row].field: old -> new):"));
      gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                              _("_Apply"), GTK_RESPONSE_ACCEPT, NULL);
      gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
    }
  label = gtk_label_new (text->str);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 320);
  gtk_box_append (GTK_BOX (gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog))),
                  scroller);
  g_object_set_data_full (G_OBJECT (dialog), "mshed-fix-plan", plan,
                          (GDestroyNotify) mshed_fix_plan_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_fix_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The selected finding's fix, or (@same_kind) the fixes of every finding of its check. */
static void
fix_selected (MshedDiagnosticsView *self,
              gboolean              same_kind)
{
  MshedDiagnosticItem *item = selected_item (self);
  g_autoptr(MshedDiagnostics) some = mshed_diagnostics_new ();
  const MshedDiagnostics *all;

  if (item == NULL || self->document == NULL || !mshed_fix_check_has_fix (item->diag->check))
    return;
  all = mshed_document_get_diagnostics (self->document);
  if (!same_kind)
    mshed_diagnostics_add_copy (some, item->diag);
  for (guint i = 0; same_kind && all && i < all->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (all->items, i);

      if (d->check == item->diag->check)
        mshed_diagnostics_add_copy (some, d);
    }
  show_plan (self, mshed_fix_plan (self->document, some,
                                   mshed_document_get_title (self->document)));
}

static void
on_fix_clicked (MshedDiagnosticsView *self)
{
  fix_selected (self, FALSE);
}

static void
on_fix_kind_clicked (MshedDiagnosticsView *self)
{
  fix_selected (self, TRUE);
}

static void
fix_action (GtkWidget  *widget,
            const char *action,
            GVariant   *param)
{
  fix_selected (MSHED_DIAGNOSTICS_VIEW (widget), strcmp (action, "diagnostics.fix-kind") == 0);
}

/* The row (in the shown list) of the cell at (@x, @y) of the column view, or
 * GTK_INVALID_LIST_POSITION: a cell's label knows its item. */
static guint
row_at (MshedDiagnosticsView *self,
        double                x,
        double                y)
{
  GtkWidget *w = gtk_widget_pick (GTK_WIDGET (self->column_view), x, y, GTK_PICK_DEFAULT);
  gpointer item = NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));

  for (; w && item == NULL && w != GTK_WIDGET (self->column_view); w = gtk_widget_get_parent (w))
    {
      item = g_object_get_data (G_OBJECT (w), "mshed-diagnostic-item");
      for (GtkWidget *c = gtk_widget_get_first_child (w); c && !item;
           c = gtk_widget_get_next_sibling (c))
        item = g_object_get_data (G_OBJECT (c), "mshed-diagnostic-item");
    }
  for (guint i = 0; item && i < n; i++)
    {
      g_autoptr(GObject) at = g_list_model_get_item (G_LIST_MODEL (self->filtered), i);

      if (at == item)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* A right click on a problem selects it and offers its fixes. */
static void
on_context_pressed (GtkGestureClick      *gesture,
                    int                   n_press,
                    double                x,
                    double                y,
                    MshedDiagnosticsView *self)
{
  guint row = row_at (self, x, y);
  graphene_point_t p;

  if (row == GTK_INVALID_LIST_POSITION)
    return;
  gtk_single_selection_set_selected (self->selection, row);
  if (!gtk_widget_compute_point (GTK_WIDGET (self->column_view), GTK_WIDGET (self),
                                 &GRAPHENE_POINT_INIT ((float) x, (float) y), &p))
    return;
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) p.x, (int) p.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

static void
on_filter_toggled (MshedDiagnosticsView *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_activate (MshedDiagnosticsView *self,
             guint                 position)
{
  g_autoptr(MshedDiagnosticItem) item = g_list_model_get_item (G_LIST_MODEL (self->filtered),
                                                               position);

  if (item != NULL)
    g_signal_emit (self, signals[DIAGNOSTIC_ACTIVATED], 0, item->diag);
}

/* Cell factories: labels filled from the item in bind. */

typedef enum {
  COLUMN_SEVERITY,
  COLUMN_LOCATION,
  COLUMN_MESSAGE,
  COLUMN_OFFSET,
} Column;

/* The offset cell's tooltip, made when it is asked for (an X round trip per bound row
 * otherwise). */
static gboolean
offset_query_tooltip (GtkWidget   *cell,
                      int          x,
                      int          y,
                      gboolean     keyboard,
                      GtkTooltip  *tooltip,
                      GtkListItem *list_item)
{
  MshedDiagnosticItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *view = gtk_widget_get_ancestor (cell, MSHED_TYPE_DIAGNOSTICS_VIEW);
  g_autofree char *text = NULL;

  if (item == NULL || view == NULL)
    return FALSE;
  if (MSHED_DIAGNOSTICS_VIEW (view)->document == NULL)
    return FALSE;
  /* the offsets inside the resource and the nested model, for the file offset shown */
  text = mshed_hex_describe_file_offset (MSHED_DIAGNOSTICS_VIEW (view)->document,
                                         item->diag->offset);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);

  if (column == COLUMN_SEVERITY)
    {
      GtkWidget *image = gtk_image_new ();
      gtk_list_item_set_child (list_item, image);
    }
  else
    {
      GtkWidget *label = gtk_inscription_new (NULL);

      if (column == COLUMN_OFFSET)
        {
          gtk_widget_add_css_class (label, "monospace");
          gtk_widget_set_has_tooltip (label, TRUE);
          g_signal_connect (label, "query-tooltip", G_CALLBACK (offset_query_tooltip),
                            list_item);
        }
      gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label),
                                         GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
      gtk_list_item_set_child (list_item, label);
    }
}

char *
_mshed_diagnostics_view_format_location (const MshedDiagnostic *d)
{
  GString *s = g_string_new (NULL);

  if (d->entry)
    g_string_append_printf (s, "%s: ", d->entry);
  if (d->table != MSHED_TABLE_NONE && d->table < MSHED_N_TABLES)
    g_string_append (s, _(mshed_schema_get_table (d->table)->title));
  else if (mshed_dfm_schema_get_table ((MshedDfmTable) d->table) != NULL)
    g_string_append (s, _(mshed_dfm_schema_get_table ((MshedDfmTable) d->table)->title));
  else if (d->path != NULL)
    g_string_append (s, d->path);
  else if (d->res_type != G_MAXUINT32)
    g_string_append_printf (s, _("Res%u"), d->res_type);
  else
    g_string_append (s, _("Container"));
  if (d->record >= 0)
    g_string_append_printf (s, " %" PRId64, d->record);
  if (d->field)
    {
      g_autofree char *gloss = mshed_table_field_gloss (d->table, d->field);

      /* the grid's column name and, under it there, what it means: slot7 (L1 G2) */
      g_string_append_printf (s, ".%s", d->field);
      if (gloss != NULL)
        g_string_append_printf (s, " (%s)", gloss);
    }
  return g_string_free (s, FALSE);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  MshedDiagnosticItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  const MshedDiagnostic *d = item->diag;
  g_autofree char *text = NULL;

  /* a right click finds its row through the cell */
  g_object_set_data (G_OBJECT (child), "mshed-diagnostic-item", item);

  switch (column)
    {
    case COLUMN_SEVERITY:
      {
        const char *icon = d->severity == MSHED_SEVERITY_ERROR ? "dialog-error-symbolic"
                         : d->severity == MSHED_SEVERITY_WARNING ? "dialog-warning-symbolic"
                         : "dialog-information-symbolic";
        gtk_image_set_from_icon_name (GTK_IMAGE (child), icon);
        gtk_widget_set_tooltip_text (child, d->severity == MSHED_SEVERITY_ERROR ? _("Error")
                                          : d->severity == MSHED_SEVERITY_WARNING ? _("Warning")
                                          : _("Information"));
        gtk_widget_remove_css_class (child, "error");
        gtk_widget_remove_css_class (child, "warning");
        if (d->severity == MSHED_SEVERITY_ERROR)
          gtk_widget_add_css_class (child, "error");
        else if (d->severity == MSHED_SEVERITY_WARNING)
          gtk_widget_add_css_class (child, "warning");
      }
      return;
    case COLUMN_LOCATION:
      text = _mshed_diagnostics_view_format_location (d);
      break;
    case COLUMN_MESSAGE:
      text = g_strdup (d->message);
      gtk_widget_set_tooltip_text (child, d->message);
      break;
    case COLUMN_OFFSET:
    default:
      /* the file offset, as mshed-cli validate, the hex view and the data inspector show it */
      text = g_strdup_printf ("0x%08" PRIX64, d->offset);
      break;
    }
  gtk_inscription_set_text (GTK_INSCRIPTION (child), text);
}

static void
add_column (MshedDiagnosticsView *self,
            const char           *title,
            Column                column,
            gboolean              expand,
            int                   width)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (width > 0)
    gtk_column_view_column_set_fixed_width (col, width);
  gtk_column_view_append_column (self->column_view, col);
  g_object_unref (col);
}

void
mshed_diagnostics_view_set_document (MshedDiagnosticsView *self,
                                     MshedDocument        *document)
{
  g_return_if_fail (MSHED_IS_DIAGNOSTICS_VIEW (self));

  if (self->document == document)
    return;
  if (self->document)
    g_clear_signal_handler (&self->diagnostics_handler, self->document);
  g_set_object (&self->document, document);
  if (document)
    self->diagnostics_handler = g_signal_connect_object (document, "diagnostics-changed",
                                                         G_CALLBACK (reload), self,
                                                         G_CONNECT_SWAPPED);
  reload (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

MshedDocument *
mshed_diagnostics_view_get_document (MshedDiagnosticsView *self)
{
  return self->document;
}

guint
mshed_diagnostics_view_get_n_shown (MshedDiagnosticsView *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

void
mshed_diagnostics_view_fix (MshedDiagnosticsView *self,
                            guint                 position,
                            gboolean              same_kind)
{
  gtk_single_selection_set_selected (self->selection, position);
  /* "clicked" at once: GtkButton::activate clicks only after its 250 ms press animation */
  if (gtk_widget_get_sensitive (same_kind ? self->fix_kind_button : self->fix_button))
    g_signal_emit_by_name (same_kind ? self->fix_kind_button : self->fix_button, "clicked");
}

void
mshed_diagnostics_view_activate (MshedDiagnosticsView *self,
                                 guint                 position)
{
  on_activate (self, position);
}

GtkWidget *
mshed_diagnostics_view_new (void)
{
  return g_object_new (MSHED_TYPE_DIAGNOSTICS_VIEW, NULL);
}

static void
mshed_diagnostics_view_dispose (GObject *object)
{
  MshedDiagnosticsView *self = MSHED_DIAGNOSTICS_VIEW (object);

  if (self->document)
    g_clear_signal_handler (&self->diagnostics_handler, self->document);
  g_clear_object (&self->document);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_DIAGNOSTICS_VIEW);
  /* GTK 4.8 only unparents the template children it binds */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->store);
  g_clear_object (&self->filtered);
  G_OBJECT_CLASS (mshed_diagnostics_view_parent_class)->dispose (object);
}

static void
mshed_diagnostics_view_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  MshedDiagnosticsView *self = MSHED_DIAGNOSTICS_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_diagnostics_view_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  MshedDiagnosticsView *self = MSHED_DIAGNOSTICS_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      mshed_diagnostics_view_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_diagnostics_view_class_init (MshedDiagnosticsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_diagnostics_view_dispose;
  object_class->get_property = mshed_diagnostics_view_get_property;
  object_class->set_property = mshed_diagnostics_view_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, MSHED_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * MshedDiagnosticsView::diagnostic-activated:
   * @diagnostic: the activated #MshedDiagnostic
   */
  signals[DIAGNOSTIC_ACTIVATED] =
    g_signal_new ("diagnostic-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1,
                  MSHED_TYPE_DIAGNOSTIC | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-diagnostics-view.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedDiagnosticsView, column_view);
  gtk_widget_class_bind_template_child (widget_class, MshedDiagnosticsView, errors_button);
  gtk_widget_class_bind_template_child (widget_class, MshedDiagnosticsView, warnings_button);
  gtk_widget_class_bind_template_child (widget_class, MshedDiagnosticsView, info_button);
  gtk_widget_class_bind_template_child (widget_class, MshedDiagnosticsView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, MshedDiagnosticsView, fix_button);
  gtk_widget_class_bind_template_child (widget_class, MshedDiagnosticsView, fix_kind_button);
  gtk_widget_class_install_action (widget_class, "diagnostics.fix", NULL, fix_action);
  gtk_widget_class_install_action (widget_class, "diagnostics.fix-kind", NULL, fix_action);
  gtk_widget_class_bind_template_callback (widget_class, on_fix_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_fix_kind_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "diagnosticsview");
}

static void
mshed_diagnostics_view_init (MshedDiagnosticsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (
    GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))), GTK_ORIENTATION_VERTICAL);

  self->store = g_list_store_new (MSHED_TYPE_DIAGNOSTIC_ITEM);
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                              GTK_FILTER (self->filter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filtered)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_object_unref (self->selection);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (update_fix_buttons), self, G_CONNECT_SWAPPED);

  {
    g_autoptr(GMenu) menu = g_menu_new ();
    GtkGesture *click = gtk_gesture_click_new ();

    g_menu_append (menu, _("_Fix…"), "diagnostics.fix");
    g_menu_append (menu, _("Fix All of This _Kind…"), "diagnostics.fix-kind");
    self->context_menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
    gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
    gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
    gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
    gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
    g_signal_connect (click, "pressed", G_CALLBACK (on_context_pressed), self);
    gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));
  }
  add_column (self, "", COLUMN_SEVERITY, FALSE, 32);
  add_column (self, _("Location"), COLUMN_LOCATION, FALSE, 220);
  add_column (self, _("Problem"), COLUMN_MESSAGE, TRUE, -1);
  add_column (self, _("Offset"), COLUMN_OFFSET, FALSE, 110);
  update_summary (self);
  update_fix_buttons (self);
}
