/* mshed-compare-window-preview.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compare window's two previews (docs/diff.md §7): Parkan models or skinned deformable
 * models (the level chosen), one camera for both, and the overlay mode that draws the right
 * model half transparent over the left one with the differing geometry coloured.
 */
#define G_LOG_DOMAIN "mshed-compare"

#include "config.h"

#include <string.h>

#include "mshed-compare-window-private.h"
#include "mshed-model-view.h"
#include "mshed-renderer.h"

/* Previews ------------------------------------------------------------------------------- */

/* One camera: whichever view moved its camera gives it to the other before it draws. */
static gboolean
preview_render_cb (GtkGLArea          *area,
                   GdkGLContext       *context,
                   MshedCompareWindow *self)
{
  guint s = GTK_WIDGET (area) == self->previews[0] ? 0 : 1;
  MshedCamera *mine = mshed_renderer_get_camera (
    mshed_model_view_get_renderer (MSHED_MODEL_VIEW (self->previews[s])));
  MshedCamera *other = mshed_renderer_get_camera (
    mshed_model_view_get_renderer (MSHED_MODEL_VIEW (self->previews[!s])));

  if (memcmp (mine, &self->camera, sizeof *mine) != 0)
    {
      self->camera = *mine;
      *other = *mine;
      gtk_gl_area_queue_render (GTK_GL_AREA (self->previews[!s]));
    }
  return FALSE;
}

/* The vertices of the items (the current LOD or level) of nodes only on one side. */
static void
mark_only_nodes (MshedCompareWindow *self,
                 guint               side,
                 MshedRenderScene   *scene,
                 guint8             *marks,
                 guint               n)
{
  guint n_items = 0, n_elements = 0;
  const MshedDrawItem *items = mshed_render_scene_get_items (scene, &n_items);
  const guint32 *elements = mshed_render_scene_get_elements (scene, &n_elements);
  g_autoptr(GHashTable) only = g_hash_table_new (NULL, NULL);

  for (guint i = 0; self->diff && i < mshed_diff_get_n_items (self->diff); i++)
    {
      const MshedDiffItem *item = mshed_diff_get_item (self->diff, i);

      if (item->table != MSHED_TABLE_NODES)
        continue;
      if (side == 0 && item->kind == MSHED_DIFF_ROW_REMOVED)
        g_hash_table_add (only, GUINT_TO_POINTER (item->row_a + 1));
      else if (side == 1 && item->kind == MSHED_DIFF_ROW_ADDED)
        g_hash_table_add (only, GUINT_TO_POINTER (item->row_b + 1));
    }
  for (guint i = 0; i < n_items && g_hash_table_size (only) > 0; i++)
    if (g_hash_table_contains (only, GUINT_TO_POINTER (items[i].node + 1)))
      for (guint e = items[i].elem_first;
           e < items[i].elem_first + items[i].elem_count && e < n_elements; e++)
        if (elements[e] < n)
          marks[elements[e]] = MSHED_DIFF_MARK_ONLY;
}

/* Marks each side's vertices (docs/diff.md §7): drawn positions compared by vertex number
 * (Res3 row, or the DFM level's element) beyond the diff's tolerance, vertices past the other
 * side's count and those of nodes only on one side. */
static void
update_marks (MshedCompareWindow *self)
{
  gboolean ghost = gtk_check_button_get_active (self->ghost_check);
  MshedRenderScene *scenes[2];
  guint n[2];
  float *pos[2] = { NULL, NULL };   /* g_autofree would free only pos[0] */

  for (guint s = 0; s < 2; s++)
    {
      MshedRenderer *renderer =
        mshed_model_view_get_renderer (MSHED_MODEL_VIEW (self->previews[s]));

      scenes[s] = mshed_renderer_get_scene (renderer);
      if (!ghost || scenes[s] == NULL)
        {
          for (guint k = 0; k < 2; k++)
            mshed_renderer_set_diff_marks (
              mshed_model_view_get_renderer (MSHED_MODEL_VIEW (self->previews[k])), NULL, 0,
              FALSE);
          g_free (pos[0]);
          return;
        }
      n[s] = mshed_render_scene_get_n_vertices (scenes[s]);
      pos[s] = g_new (float, 3 * (gsize) MAX (n[s], 1));
      mshed_render_scene_read_vertices (scenes[s], 0, n[s], pos[s], NULL, NULL);
    }
  for (guint s = 0; s < 2; s++)
    {
      g_autofree guint8 *marks = g_new0 (guint8, MAX (n[s], 1));

      for (guint v = 0; v < n[s]; v++)
        {
          const float *p = pos[s] + 3 * (gsize) v, *q = pos[!s] + 3 * (gsize) v;

          if (v >= n[!s])
            marks[v] = MSHED_DIFF_MARK_ONLY;
          else if (memcmp (p, q, 3 * sizeof (float)) != 0)  /* the diff's tolerance: 0 */
            marks[v] = MSHED_DIFF_MARK_CHANGED;
        }
      mark_only_nodes (self, s, scenes[s], marks, n[s]);
      mshed_renderer_set_diff_marks (
        mshed_model_view_get_renderer (MSHED_MODEL_VIEW (self->previews[s])), marks, n[s],
        s == 1);
      gtk_gl_area_queue_render (GTK_GL_AREA (self->previews[s]));
    }
  g_free (pos[0]);
  g_free (pos[1]);
}

void
_mshed_compare_window_update_previews (MshedCompareWindow *self)
{
  if (self->previews[0] == NULL)
    return;
  for (guint s = 0; s < 2; s++)
    {
      MshedModelView *view = MSHED_MODEL_VIEW (self->previews[s]);
      MshedDfm *dfm = mshed_document_get_dfm (self->docs[s]);

      if (dfm == NULL || mshed_dfm_get_n_levels (dfm) == 0)
        continue;
      mshed_model_view_set_dfm (view, dfm);
      /* the window's level chooser picks the level by hand, for both sides */
      mshed_model_view_set_dfm_level (view, (gint) MIN (self->level,
                                                        mshed_dfm_get_n_levels (dfm) - 1));
      mshed_model_view_dfm_changed (view, TRUE);
    }
  update_marks (self);
}

/* Side by side, or the right preview half transparent over the left one (the same camera,
 * so the two models are drawn on top of each other); pointer and keys go to the left one. */
void
_mshed_compare_window_place_previews (MshedCompareWindow *self)
{
  gboolean ghost = gtk_check_button_get_active (self->ghost_check);

  for (guint s = 0; s < 2; s++)
    {
      GtkWidget *parent = gtk_widget_get_parent (self->previews[s]);

      g_object_ref (self->previews[s]);
      if (GTK_IS_BOX (parent))
        gtk_box_remove (GTK_BOX (parent), self->previews[s]);
      else if (parent == GTK_WIDGET (self->ghost_overlay) && s == 0)
        gtk_overlay_set_child (self->ghost_overlay, NULL);
      else if (parent != NULL)
        gtk_overlay_remove_overlay (self->ghost_overlay, self->previews[s]);
    }
  for (guint s = 0; s < 2; s++)
    {
      gtk_widget_set_opacity (self->previews[s], ghost && s == 1 ? 0.5 : 1.0);
      gtk_widget_set_can_target (self->previews[s], !(ghost && s == 1));
      if (!ghost)
        gtk_box_append (self->preview_box, self->previews[s]);
      else if (s == 0)
        gtk_overlay_set_child (self->ghost_overlay, self->previews[s]);
      else
        gtk_overlay_add_overlay (self->ghost_overlay, self->previews[s]);
      g_object_unref (self->previews[s]);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->preview_box), !ghost);
  gtk_widget_set_visible (GTK_WIDGET (self->ghost_overlay), ghost);
  update_marks (self);
}

void
_mshed_compare_window_ensure_previews (MshedCompareWindow *self)
{
  if (self->previews[0] != NULL ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "preview") != 0)
    return;
  for (guint s = 0; s < 2; s++)
    {
      self->previews[s] = mshed_model_view_new ();
      gtk_widget_set_hexpand (self->previews[s], TRUE);
      gtk_widget_set_vexpand (self->previews[s], TRUE);
      mshed_model_view_set_document (MSHED_MODEL_VIEW (self->previews[s]), self->docs[s]);
      g_signal_connect (self->previews[s], "render", G_CALLBACK (preview_render_cb), self);
    }
  _mshed_compare_window_update_previews (self);
  _mshed_compare_window_place_previews (self);
}
