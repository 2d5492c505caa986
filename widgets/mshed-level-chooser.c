/* mshed-level-chooser.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DFM level chooser (mshed-level-chooser.h): a drop-down of Mesh0 … Mesh<n−1>.
 */
#define G_LOG_DOMAIN "mshed-level-chooser"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-level-chooser.h"

struct _MshedLevelChooser
{
  GtkWidget      parent_instance;

  GtkDropDown   *dropdown;
  GtkStringList *names;
  guint          level;
  guint          syncing;  /* setting the drop-down from the property */
};

G_DEFINE_FINAL_TYPE (MshedLevelChooser, mshed_level_chooser, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_LEVEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
show_in_dropdown (MshedLevelChooser *self)
{
  self->syncing++;
  gtk_drop_down_set_selected (self->dropdown, self->level);
  self->syncing--;
}

static void
selected_cb (MshedLevelChooser *self)
{
  guint pos = gtk_drop_down_get_selected (self->dropdown);

  if (!self->syncing && pos != GTK_INVALID_LIST_POSITION)
    mshed_level_chooser_set_level (self, pos);
}

static void
mshed_level_chooser_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  MshedLevelChooser *self = MSHED_LEVEL_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_LEVEL:
      g_value_set_uint (value, self->level);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_level_chooser_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  MshedLevelChooser *self = MSHED_LEVEL_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_LEVEL:
      mshed_level_chooser_set_level (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_level_chooser_dispose (GObject *object)
{
  MshedLevelChooser *self = MSHED_LEVEL_CHOOSER (object);

  g_clear_pointer ((GtkWidget **) &self->dropdown, gtk_widget_unparent);
  G_OBJECT_CLASS (mshed_level_chooser_parent_class)->dispose (object);
}

static void
mshed_level_chooser_class_init (MshedLevelChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = mshed_level_chooser_get_property;
  object_class->set_property = mshed_level_chooser_set_property;
  object_class->dispose = mshed_level_chooser_dispose;

  properties[PROP_LEVEL] =
    g_param_spec_uint ("level", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "levelchooser");
}

static void
mshed_level_chooser_init (MshedLevelChooser *self)
{
  self->names = gtk_string_list_new (NULL);
  /* the drop-down takes the list */
  self->dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->names), NULL));
  gtk_widget_set_parent (GTK_WIDGET (self->dropdown), GTK_WIDGET (self));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _("The level (MultiLevel\\Mesh<n>) of the deformable models "
                                 "shown"));
  g_signal_connect_swapped (self->dropdown, "notify::selected", G_CALLBACK (selected_cb), self);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
mshed_level_chooser_new (void)
{
  return g_object_new (MSHED_TYPE_LEVEL_CHOOSER, NULL);
}

void
mshed_level_chooser_set_documents (MshedLevelChooser    *self,
                                   MshedDocument *const *docs,
                                   guint                 n_docs)
{
  guint n = 0, old;

  g_return_if_fail (MSHED_IS_LEVEL_CHOOSER (self));
  g_return_if_fail (docs != NULL || n_docs == 0);

  for (guint i = 0; i < n_docs; i++)
    if (docs[i] != NULL && mshed_document_get_dfm (docs[i]) != NULL)
      n = MAX (n, mshed_dfm_get_n_levels (mshed_document_get_dfm (docs[i])));
  old = mshed_level_chooser_get_n_levels (self);
  self->syncing++;
  if (n != old)
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (names, g_strdup_printf ("Mesh%u", i));
      g_ptr_array_add (names, NULL);
      gtk_string_list_splice (self->names, 0, old, (const char *const *) names->pdata);
    }
  self->syncing--;
  gtk_widget_set_visible (GTK_WIDGET (self), n > 1);
  if (self->level >= n && n > 0)
    {
      self->level = n - 1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEVEL]);
    }
  show_in_dropdown (self);
}

guint
mshed_level_chooser_get_n_levels (MshedLevelChooser *self)
{
  g_return_val_if_fail (MSHED_IS_LEVEL_CHOOSER (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->names));
}

guint
mshed_level_chooser_get_level (MshedLevelChooser *self)
{
  g_return_val_if_fail (MSHED_IS_LEVEL_CHOOSER (self), 0);

  return self->level;
}

gboolean
mshed_level_chooser_set_level (MshedLevelChooser *self,
                               guint              level)
{
  g_return_val_if_fail (MSHED_IS_LEVEL_CHOOSER (self), FALSE);

  if (level >= mshed_level_chooser_get_n_levels (self))
    return FALSE;
  if (level != self->level)
    {
      self->level = level;
      show_in_dropdown (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEVEL]);
    }
  return TRUE;
}

guint
mshed_level_chooser_path_level (const char *path)
{
  const char *mesh = path ? strstr (path, "\\Mesh") : NULL;
  guint64 level;
  char *end = NULL;

  if (mesh == NULL || !g_ascii_isdigit (mesh[5]))
    return G_MAXUINT;
  level = g_ascii_strtoull (mesh + 5, &end, 10);
  return (*end == '\\' || *end == '\0') && level < G_MAXUINT ? (guint) level : G_MAXUINT;
}

gboolean
mshed_level_chooser_table_has_level (MshedDfmTable table)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);
  MshedDfmScope scope = info ? info->scope : MSHED_DFM_SCOPE_ROOT;

  return scope == MSHED_DFM_SCOPE_GEOMETRY || scope == MSHED_DFM_SCOPE_GROUP ||
         scope == MSHED_DFM_SCOPE_FACE_GROUPS;
}
