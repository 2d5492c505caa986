/* mshed-window-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window with a UTF document (a Freelancer .dfm, or any UTF file, docs/utf.md): the UTF
 * tree takes the node tree's place, the selected file's bytes show in the hex view with the
 * data inspector, and a problem leads to its node. The Parkan grids, the preview and the
 * Unknown Fields table are hidden while such a document is shown.
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-window-private.h"

/* side notebook pages that show Parkan models only: the preview and Unknown Fields */
#define SIDE_PAGE_PREVIEW 0
#define SIDE_PAGE_HEX     1
#define SIDE_PAGE_UNKNOWN 2

gboolean
_mshed_window_is_utf (MshedWindow *self)
{
  return self->document != NULL &&
         mshed_document_get_container (self->document) == MSHED_CONTAINER_UTF;
}

static void
on_utf_node_selected (MshedWindow  *self,
                      MshedUtfNode *node,
                      MshedUtfTree *tree)
{
  if (!_mshed_window_is_utf (self))
    return;
  /* a file's payload, or the whole file for a directory */
  mshed_hex_view_show_utf_node (self->hex_view,
                                node != NULL && !mshed_utf_node_is_directory (node) ? node
                                                                                   : NULL);
}

static void
set_page_visible (GtkNotebook *notebook,
                  int          page,
                  gboolean     visible)
{
  GtkWidget *child = gtk_notebook_get_nth_page (notebook, page);

  if (child != NULL)
    gtk_widget_set_visible (child, visible);
}

void
_mshed_window_utf_set_document (MshedWindow   *self,
                                MshedDocument *document)
{
  gboolean utf = document != NULL &&
                 mshed_document_get_container (document) == MSHED_CONTAINER_UTF;
  MshedDocument *msh = utf ? NULL : document;

  gtk_widget_set_visible (GTK_WIDGET (self->node_tree), !utf);
  gtk_widget_set_visible (GTK_WIDGET (self->utf_tree), utf);
  mshed_node_tree_set_document (self->node_tree, msh);
  mshed_utf_tree_set_document (self->utf_tree, utf ? document : NULL);
  for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
    {
      mshed_table_view_set_document (self->grids[i], msh);
      gtk_widget_set_visible (GTK_WIDGET (self->grids[i]), !utf);
    }
  mshed_unknown_table_set_document (self->unknown_table, msh);
  mshed_model_view_set_document (self->model_view, msh);
  set_page_visible (self->side_notebook, SIDE_PAGE_PREVIEW, !utf);
  set_page_visible (self->side_notebook, SIDE_PAGE_UNKNOWN, !utf);
  if (utf)
    gtk_notebook_set_current_page (self->side_notebook, SIDE_PAGE_HEX);
}

gboolean
_mshed_window_utf_show_diagnostic (MshedWindow           *self,
                                   const MshedDiagnostic *diag)
{
  MshedUtfNode *node;

  if (!_mshed_window_is_utf (self) || diag->path == NULL)
    return FALSE;
  node = mshed_utf_lookup (mshed_document_get_utf (self->document), diag->path);
  if (node == NULL)
    return FALSE;
  mshed_utf_tree_select_node (self->utf_tree, node);
  on_utf_node_selected (self, node, self->utf_tree);
  gtk_notebook_set_current_page (self->side_notebook, SIDE_PAGE_HEX);
  mshed_hex_view_goto_file_offset (self->hex_view, diag->offset);
  return TRUE;
}

void
_mshed_window_utf_init (MshedWindow *self)
{
  g_signal_connect_object (self->utf_tree, "node-selected", G_CALLBACK (on_utf_node_selected),
                           self, G_CONNECT_SWAPPED);
}
