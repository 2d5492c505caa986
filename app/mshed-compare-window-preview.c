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

/* Colours each side's triangles (docs/diff.md §7.1): the matching is the model's
 * (mshed-diff-marks.h), through the diff's alignment and with its tolerance. */
static void
update_marks (MshedCompareWindow *self)
{
  gboolean ghost = gtk_check_button_get_active (self->ghost_check);
  MshedRenderer *renderers[2];
  MshedRenderScene *scenes[2];
  g_autoptr(MshedDiffMarks) marks = NULL;

  for (guint s = 0; s < 2; s++)
    {
      renderers[s] = mshed_model_view_get_renderer (MSHED_MODEL_VIEW (self->previews[s]));
      scenes[s] = mshed_renderer_get_scene (renderers[s]);
    }
  if (!ghost || scenes[0] == NULL || scenes[1] == NULL)
    {
      for (guint s = 0; s < 2; s++)
        mshed_renderer_set_diff_marks (renderers[s], NULL, 0, FALSE);
      return;
    }
  marks = mshed_diff_marks_new (scenes[0], scenes[1],
                                self->diff ? mshed_diff_get_tolerance (self->diff) : 0);
  for (guint s = 0; s < 2; s++)
    {
      guint n = 0;
      g_autofree guint8 *vertex_marks =
        mshed_diff_marks_dup_vertex_marks (marks, s, scenes[s], &n);

      mshed_renderer_set_diff_marks (renderers[s], vertex_marks, n, s == 1);
      gtk_gl_area_queue_render (GTK_GL_AREA (self->previews[s]));
    }
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
