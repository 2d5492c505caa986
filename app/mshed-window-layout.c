/* mshed-window-layout.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's panes, usable from 800×600 up. Which panels are shown: the node tree, the
 * preview and hex panel and the Problems panel hide and come back with Ctrl+F9, F12 and F9
 * (the actions win.toggle-tree, win.toggle-side-panel, win.toggle-bottom-panel, also the
 * header bar's toggles and check items of the main menu), remembered in GSettings. How big
 * they are: each panel keeps its own width or height when the window is resized (the grid
 * takes what is left) and the size the user dragged it to is remembered; until then it takes
 * a share of the window.
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include "mshed-window-private.h"

enum {
  PROP_0,
  PROP_SHOW_TREE,
  PROP_SHOW_SIDE_PANEL,
  PROP_SHOW_BOTTOM_PANEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* A GtkPaned one child of which is a side panel. */
struct _MshedWindowPane {
  GtkPaned   *paned;
  GtkWidget  *panel;        /* the start or end child that is the panel */
  gboolean    panel_at_end;
  const char *key;          /* GSettings key of its size; NULL: not remembered */
  double      share;        /* until it is dragged: this share of the paned ... */
  int         min_size;     /* ... within these bounds */
  int         max_size;
  int         size;         /* the panel's width or height; 0: by share */
  int         length;       /* the paned's length when last laid out */
  guint       tick;         /* pending apply */
  gboolean    applying;
};

static GtkOrientation
pane_orientation (MshedWindowPane *pane)
{
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (pane->paned));
}

/* The paned's length less its handle: what its two children share. */
static int
pane_length (MshedWindowPane *pane)
{
  GtkWidget *paned = GTK_WIDGET (pane->paned);
  GtkOrientation orientation = pane_orientation (pane);
  int length = orientation == GTK_ORIENTATION_HORIZONTAL ? gtk_widget_get_width (paned)
                                                         : gtk_widget_get_height (paned);

  for (GtkWidget *c = gtk_widget_get_first_child (paned); c; c = gtk_widget_get_next_sibling (c))
    if (c != gtk_paned_get_start_child (pane->paned) && c != gtk_paned_get_end_child (pane->paned))
      {
        int handle = 0;

        /* GtkPaned gives its handle the natural size */
        gtk_widget_measure (c, orientation, -1, NULL, &handle, NULL, NULL);
        length -= handle;
      }
  return length;
}

static void
pane_apply (MshedWindowPane *pane)
{
  int length = pane_length (pane);
  int size;

  if (length <= 0 || !gtk_widget_get_visible (pane->panel))
    return;
  size = pane->size > 0 ? pane->size
                        : CLAMP ((int) (pane->share * length), pane->min_size, pane->max_size);
  pane->applying = TRUE;
  /* GtkPaned keeps both children at least at their minimum size */
  gtk_paned_set_position (pane->paned, pane->panel_at_end ? length - size : size);
  pane->applying = FALSE;
}

static gboolean
pane_tick_cb (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       data)
{
  MshedWindowPane *pane = data;

  pane->tick = 0;
  pane_apply (pane);
  return G_SOURCE_REMOVE;
}

/* Applied after the allocation that asked for it: a position set while the paned is being
 * laid out would lay it out again. */
static void
pane_apply_later (MshedWindowPane *pane)
{
  if (pane->tick == 0)
    pane->tick = gtk_widget_add_tick_callback (GTK_WIDGET (pane->paned), pane_tick_cb, pane,
                                               NULL);
}

/* A new length (the window was resized, the panel shown again) places the divider for the
 * panel's size; a new position at the same length is the user dragging it. */
static void
pane_changed_cb (MshedWindowPane *pane,
                 GParamSpec      *pspec)
{
  int length = pane_length (pane);
  int position = gtk_paned_get_position (pane->paned);

  if (length <= 0 || !gtk_widget_get_visible (pane->panel))
    return;
  if (length != pane->length)
    {
      pane->length = length;
      pane_apply_later (pane);
      return;
    }
  if (!pane->applying && pane->tick == 0 && g_str_equal (pspec->name, "position"))
    pane->size = pane->panel_at_end ? length - position : position;
}

static void
panel_visible_cb (MshedWindowPane *pane)
{
  if (gtk_widget_get_visible (pane->panel))
    {
      pane->length = 0;  /* placed again once laid out */
      pane_apply_later (pane);
    }
}

static void
pane_free (MshedWindowPane *pane)
{
  if (pane->tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (pane->paned), pane->tick);
  g_signal_handlers_disconnect_by_data (pane->paned, pane);
  g_signal_handlers_disconnect_by_data (pane->panel, pane);
  g_free (pane);
}

static void
add_pane (MshedWindow *self,
          GtkPaned    *paned,
          gboolean     panel_at_end,
          const char  *key,
          double       share,
          int          min_size,
          int          max_size)
{
  MshedWindowPane *pane = g_new0 (MshedWindowPane, 1);

  pane->paned = paned;
  pane->panel_at_end = panel_at_end;
  pane->panel = panel_at_end ? gtk_paned_get_end_child (paned) : gtk_paned_get_start_child (paned);
  pane->key = key;
  pane->share = share;
  pane->min_size = min_size;
  pane->max_size = max_size;
  g_signal_connect_swapped (paned, "notify::position", G_CALLBACK (pane_changed_cb), pane);
  g_signal_connect_swapped (paned, "notify::max-position", G_CALLBACK (pane_changed_cb), pane);
  g_signal_connect_swapped (pane->panel, "notify::visible", G_CALLBACK (panel_visible_cb), pane);
  g_ptr_array_add (self->panes, pane);
}

/* Panel visibility as properties (for GSettings and the stateful actions) ---------------- */

static GtkWidget *
panel_for (MshedWindow *self,
           guint        prop_id)
{
  switch (prop_id)
    {
    case PROP_SHOW_TREE:
      return self->tree_box;
    case PROP_SHOW_SIDE_PANEL:
      return GTK_WIDGET (self->side_notebook);
    case PROP_SHOW_BOTTOM_PANEL:
    default:
      return GTK_WIDGET (self->bottom_notebook);
    }
}

void
_mshed_window_layout_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  MshedWindow *self = MSHED_WINDOW (object);

  if (prop_id >= N_PROPS || prop_id == PROP_0)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  /* asked for by the header bar's toggles while the template is being built */
  g_value_set_boolean (value, panel_for (self, prop_id) == NULL ||
                              gtk_widget_get_visible (panel_for (self, prop_id)));
}

void
_mshed_window_layout_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  MshedWindow *self = MSHED_WINDOW (object);

  if (prop_id >= N_PROPS || prop_id == PROP_0)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  /* the panel's notify::visible notifies the property */
  if (panel_for (self, prop_id) != NULL)
    gtk_widget_set_visible (panel_for (self, prop_id), g_value_get_boolean (value));
}

static void
notify_panel_cb (GtkWidget  *panel,
                 GParamSpec *pspec,
                 GParamSpec *property)
{
  GtkWidget *window = gtk_widget_get_ancestor (panel, MSHED_TYPE_WINDOW);

  if (window != NULL)
    g_object_notify_by_pspec (G_OBJECT (window), property);
}

void
_mshed_window_layout_class_init (GtkWidgetClass *widget_class)
{
  GObjectClass *object_class = G_OBJECT_CLASS (widget_class);

  properties[PROP_SHOW_TREE] =
    g_param_spec_boolean ("show-tree", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_SIDE_PANEL] =
    g_param_spec_boolean ("show-side-panel", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_BOTTOM_PANEL] =
    g_param_spec_boolean ("show-bottom-panel", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* boolean property actions toggle and carry a state: check items in the menu, pressed
   * toggle buttons in the header bar */
  gtk_widget_class_install_property_action (widget_class, "win.toggle-tree", "show-tree");
  gtk_widget_class_install_property_action (widget_class, "win.toggle-side-panel",
                                            "show-side-panel");
  gtk_widget_class_install_property_action (widget_class, "win.toggle-bottom-panel",
                                            "show-bottom-panel");
}

void
_mshed_window_layout_init (MshedWindow *self)
{
  static const guint props[] = { PROP_SHOW_TREE, PROP_SHOW_SIDE_PANEL, PROP_SHOW_BOTTOM_PANEL };

  self->panes = g_ptr_array_new_with_free_func ((GDestroyNotify) pane_free);
  /* tree: a fifth of the width; preview and hex: 42% of what is right of the tree;
   * Problems: a fifth of the height; the data inspector: 40% of the hex page */
  add_pane (self, self->sidebar_paned, FALSE, "tree-width", 0.2, 160, 280);
  add_pane (self, self->content_paned, TRUE, "side-panel-width", 0.42, 250, 640);
  add_pane (self, self->bottom_paned, TRUE, "bottom-panel-height", 0.22, 110, 300);
  add_pane (self, self->hex_paned, TRUE, NULL, 0.4, 120, 320);

  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    g_signal_connect (panel_for (self, props[i]), "notify::visible",
                      G_CALLBACK (notify_panel_cb), properties[props[i]]);
}

void
_mshed_window_layout_load (MshedWindow *self,
                           GSettings   *settings)
{
  for (guint i = 0; i < self->panes->len; i++)
    {
      MshedWindowPane *pane = g_ptr_array_index (self->panes, i);

      if (pane->key != NULL)
        pane->size = MAX (0, g_settings_get_int (settings, pane->key));
    }
  g_settings_bind (settings, "show-tree", self, "show-tree", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-preview", self, "show-side-panel", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-bottom-panel", self, "show-bottom-panel",
                   G_SETTINGS_BIND_DEFAULT);
}

void
_mshed_window_layout_save (MshedWindow *self,
                           GSettings   *settings)
{
  for (guint i = 0; i < self->panes->len; i++)
    {
      MshedWindowPane *pane = g_ptr_array_index (self->panes, i);

      if (pane->key != NULL && pane->size > 0)
        g_settings_set_int (settings, pane->key, pane->size);
    }
}

void
_mshed_window_layout_dispose (MshedWindow *self)
{
  g_clear_pointer (&self->panes, g_ptr_array_unref);
}
