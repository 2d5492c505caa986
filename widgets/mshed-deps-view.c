/* mshed-deps-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The dependency matrix panel: which derived tables the edits made stale and why, with a
 * Recompute and a Keep button per stale cell, and the whole matrix (edit kinds × derived
 * data) with the stale cells marked.
 */
#define G_LOG_DOMAIN "mshed-deps-view"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-deps-view.h"

struct _MshedDepsView {
  GtkWidget      parent_instance;

  MshedDocument *document;
  GSignalGroup  *document_signals;
  guint          n_stale;
  GtkWidget     *cells[MSHED_N_EDIT_KINDS][MSHED_N_DERIVED];

  GtkListBox    *stale_list;
  GtkGrid       *matrix;
  GtkButton     *recompute_all_button;
  GtkLabel      *status_label;
};

G_DEFINE_FINAL_TYPE (MshedDepsView, mshed_deps_view, GTK_TYPE_WIDGET)

enum {
  RECOMPUTE_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
report_error (MshedDepsView *self,
              GError        *error)
{
  g_signal_emit (self, signals[RECOMPUTE_FAILED], 0, error->message);
  gtk_label_set_label (self->status_label, error->message);
}

static void
on_recompute_clicked (GtkButton     *button,
                      MshedDepsView *self)
{
  MshedDerived target = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "target"));
  MshedEditKind cause = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "cause"));
  g_autoptr(GError) error = NULL;

  if (self->document && !mshed_document_recompute_stale (self->document, target, cause, &error))
    report_error (self, error);
}

static void
on_keep_clicked (GtkButton     *button,
                 MshedDepsView *self)
{
  MshedDerived target = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "target"));
  MshedEditKind cause = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "cause"));

  if (self->document)
    mshed_document_acknowledge_stale (self->document, target, cause);
}

static void
on_recompute_all (MshedDepsView *self)
{
  g_autoptr(GError) error = NULL;

  /* "all" is what the format determines; conventions need their own button */
  if (self->document &&
      !mshed_document_recompute_stale_all (self->document, MSHED_DERIVED_DETERMINED, &error))
    report_error (self, error);
}

static GtkWidget *
make_stale_row (MshedDepsView    *self,
                const MshedStale *stale)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (mshed_derived_get_label (stale->target));
  GtkWidget *reason = gtk_label_new (stale->reason);
  GtkWidget *keep = gtk_button_new_with_mnemonic (_("_Keep as Is"));
  g_autofree char *rows = NULL;

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (reason), 0);
  gtk_label_set_wrap (GTK_LABEL (reason), TRUE);
  gtk_widget_add_css_class (reason, "dim-label");
  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), reason);
  if (stale->n_rows > 0)
    {
      GString *s = g_string_new (NULL);

      for (guint i = 0; i < stale->n_rows && i < 12; i++)
        g_string_append_printf (s, "%s%u", i ? ", " : "", stale->rows[i]);
      if (stale->n_rows > 12)
        g_string_append_printf (s, " … (+%u)", stale->n_rows - 12);
      /* translators: %s is a list of row numbers */
      rows = g_strdup_printf (_("Rows: %s"), s->str);
      g_string_free (s, TRUE);
      {
        GtkWidget *rows_label = gtk_label_new (rows);
        gtk_label_set_xalign (GTK_LABEL (rows_label), 0);
        gtk_widget_add_css_class (rows_label, "caption");
        gtk_box_append (GTK_BOX (text), rows_label);
      }
    }
  gtk_box_append (GTK_BOX (box), text);

  if (stale->recomputable && mshed_derived_is_convention (stale->target))
    {
      GtkWidget *note = gtk_label_new (_("mshed convention: the format does not define how to "
                                         "compute this"));

      gtk_label_set_xalign (GTK_LABEL (note), 0);
      gtk_label_set_wrap (GTK_LABEL (note), TRUE);
      gtk_widget_add_css_class (note, "caption");
      gtk_widget_add_css_class (note, "warning");
      gtk_box_append (GTK_BOX (text), note);
    }
  if (stale->recomputable)
    {
      gboolean convention = mshed_derived_is_convention (stale->target);
      GtkWidget *recompute = gtk_button_new_with_mnemonic (convention ? _("_Apply Convention")
                                                                      : _("_Recompute"));

      if (convention)
        gtk_widget_set_tooltip_text (recompute,
                                     _("Recompute the listed rows by mshed's own rule "
                                       "(docs/conventions.md); stored values that still fit "
                                       "the geometry are kept"));
      else
        {
          gtk_widget_set_tooltip_text (recompute, _("Recompute the listed rows; the format "
                                                    "determines the result"));
          gtk_widget_add_css_class (recompute, "suggested-action");
        }
      gtk_widget_set_valign (recompute, GTK_ALIGN_CENTER);
      g_object_set_data (G_OBJECT (recompute), "target", GUINT_TO_POINTER (stale->target));
      g_object_set_data (G_OBJECT (recompute), "cause", GUINT_TO_POINTER (stale->cause));
      g_signal_connect (recompute, "clicked", G_CALLBACK (on_recompute_clicked), self);
      gtk_box_append (GTK_BOX (box), recompute);
    }
  else
    {
      GtkWidget *manual = gtk_label_new (_("Review by hand"));
      gtk_widget_add_css_class (manual, "dim-label");
      gtk_box_append (GTK_BOX (box), manual);
    }
  gtk_widget_set_valign (keep, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (keep, _("Keep the current values and clear the mark"));
  g_object_set_data (G_OBJECT (keep), "target", GUINT_TO_POINTER (stale->target));
  g_object_set_data (G_OBJECT (keep), "cause", GUINT_TO_POINTER (stale->cause));
  g_signal_connect (keep, "clicked", G_CALLBACK (on_keep_clicked), self);
  gtk_box_append (GTK_BOX (box), keep);
  return box;
}

static void
reload (MshedDepsView *self)
{
  g_autoptr(GPtrArray) stale = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->stale_list))) != NULL)
    gtk_list_box_remove (self->stale_list, child);
  for (guint k = 0; k < MSHED_N_EDIT_KINDS; k++)
    for (guint d = 0; d < MSHED_N_DERIVED; d++)
      if (self->cells[k][d])
        gtk_widget_remove_css_class (self->cells[k][d], "stale");

  self->n_stale = 0;
  if (self->document)
    stale = mshed_document_list_stale (self->document);
  for (guint i = 0; stale && i < stale->len; i++)
    {
      const MshedStale *s = g_ptr_array_index (stale, i);
      gint d = mshed_derived_get_index (s->target);

      gtk_list_box_append (self->stale_list, make_stale_row (self, s));
      if (d >= 0 && s->cause < MSHED_N_EDIT_KINDS && self->cells[s->cause][d])
        gtk_widget_add_css_class (self->cells[s->cause][d], "stale");
      self->n_stale++;
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->recompute_all_button),
                            self->document &&
                            (mshed_document_get_stale_targets (self->document) &
                             MSHED_DERIVED_DETERMINED));
  gtk_label_set_label (self->status_label,
                       self->document == NULL ? ""
                       : self->n_stale == 0 ? _("Every derived table is up to date")
                       : _("Edits made these derived tables stale"));
}

static void
build_matrix (MshedDepsView *self)
{
  for (guint d = 0; d < MSHED_N_DERIVED; d++)
    {
      GtkWidget *header = gtk_label_new (mshed_derived_get_label (1u << d));

      gtk_label_set_wrap (GTK_LABEL (header), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (header), 10);
      gtk_label_set_justify (GTK_LABEL (header), GTK_JUSTIFY_CENTER);
      gtk_label_set_yalign (GTK_LABEL (header), 1);
      gtk_widget_add_css_class (header, "caption");
      gtk_grid_attach (self->matrix, header, (int) d + 1, 0, 1, 1);
    }
  for (guint k = 0; k < MSHED_N_EDIT_KINDS; k++)
    {
      GtkWidget *label = gtk_label_new (mshed_edit_kind_get_label (k));
      MshedDerived optional = MSHED_DERIVED_NONE;
      MshedDerived marks = mshed_deps_get (k, &optional);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "caption");
      gtk_grid_attach (self->matrix, label, 0, (int) k + 1, 1, 1);
      for (guint d = 0; d < MSHED_N_DERIVED; d++)
        {
          MshedDerived target = 1u << d;
          GtkWidget *cell;

          if (!((marks | optional) & target))
            continue;
          cell = gtk_label_new ((optional & target) ? "○" : "●");
          gtk_widget_add_css_class (cell, "matrix-cell");
          gtk_widget_set_tooltip_text (cell, mshed_deps_describe (k, target));
          gtk_grid_attach (self->matrix, cell, (int) d + 1, (int) k + 1, 1, 1);
          self->cells[k][d] = cell;
        }
    }
}

void
mshed_deps_view_set_document (MshedDepsView *self,
                              MshedDocument *document)
{
  g_return_if_fail (MSHED_IS_DEPS_VIEW (self));

  if (self->document == document)
    return;
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  reload (self);
}

guint
mshed_deps_view_get_n_stale (MshedDepsView *self)
{
  return self->n_stale;
}

GtkWidget *
mshed_deps_view_new (void)
{
  return g_object_new (MSHED_TYPE_DEPS_VIEW, NULL);
}

static void
mshed_deps_view_dispose (GObject *object)
{
  MshedDepsView *self = MSHED_DEPS_VIEW (object);

  if (self->document_signals != NULL)
    g_signal_group_set_target (self->document_signals, NULL);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_DEPS_VIEW);
  /* GTK 4.8 only unparents the template children it binds */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (mshed_deps_view_parent_class)->dispose (object);
}

static void
mshed_deps_view_class_init (MshedDepsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_deps_view_dispose;

  /**
   * MshedDepsView::recompute-failed:
   * @message: the translated error
   */
  signals[RECOMPUTE_FAILED] =
    g_signal_new ("recompute-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/mshed/Mshed/mshed-deps-view.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedDepsView, stale_list);
  gtk_widget_class_bind_template_child (widget_class, MshedDepsView, matrix);
  gtk_widget_class_bind_template_child (widget_class, MshedDepsView, recompute_all_button);
  gtk_widget_class_bind_template_child (widget_class, MshedDepsView, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_recompute_all);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "depsview");
}

static void
mshed_deps_view_init (MshedDepsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->document_signals = g_signal_group_new (MSHED_TYPE_DOCUMENT);
  g_signal_group_connect_swapped (self->document_signals, "stale-changed", G_CALLBACK (reload),
                                  self);
  build_matrix (self);
  reload (self);
}
