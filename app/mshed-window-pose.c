/* mshed-window-pose.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The preview of a DFM in the window: the model view draws the model skinned (the level the
 * level grids show), and a Pose panel under it lists the joints (name, kind) with a slider
 * per degree of freedom bounded by its limits (docs/conventions.md "Posing a DFM"), a Reset
 * Pose button and the DFM overlays; selecting a row of the Bones grid shades the model by
 * that bone's weights. Posing is view state: it never touches the document.
 *
 * The preview chooses its level itself, by the camera distance or by hand; the grids keep
 * theirs until a click in the preview picks a triangle, which brings the grids to the level
 * drawn, the triangle's face group, its Triangles row (or strip rows), its file in the UTF
 * tree and bytes in the hex view, its elements, and the bone that weighs most on its corners
 * (docs/conventions.md "Posing a DFM"). A Triangles or strip row selected in its grid
 * highlights its triangle in the preview the same way.
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "mshed-dfm-strip.h"
#include "mshed-window-private.h"

#define SLIDE_RANGE 0.25   /* model units either way for a slide without limits */

static MshedDfmPose *
current_pose (MshedWindow *self)
{
  MshedRenderScene *scene = mshed_renderer_get_scene (mshed_model_view_get_renderer (
                                                        self->model_view));

  return scene ? mshed_render_scene_get_dfm_pose (scene) : NULL;
}

static void
on_slider_changed (GtkRange    *range,
                   MshedWindow *self)
{
  MshedDfmPose *pose = current_pose (self);
  guint joint = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (range), "joint"));
  guint dof = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (range), "dof"));
  const MshedDfmPoseJoint *j;
  double v = gtk_range_get_value (range);

  if (pose == NULL || (j = mshed_dfm_pose_get_joint (pose, joint)) == NULL || dof >= j->n_dof)
    return;
  if (j->dof[dof].kind == MSHED_DFM_DOF_TURN)
    v = v * G_PI / 180.0;
  mshed_dfm_pose_set_value (pose, joint, dof, (float) v);
  mshed_model_view_dfm_changed (self->model_view, FALSE);
}

static void
on_reset_clicked (MshedWindow *self)
{
  GtkWidget *child;

  /* every slider back to 0: each sets its value, the last redraws */
  for (child = gtk_widget_get_first_child (self->pose_list); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_RANGE (child))
      gtk_range_set_value (GTK_RANGE (child), 0.0);
  if (current_pose (self))
    mshed_dfm_pose_reset (current_pose (self));
  mshed_model_view_dfm_changed (self->model_view, FALSE);
}

static void
rebuild_joints (MshedWindow *self)
{
  MshedDfmPose *pose = current_pose (self);
  GtkWidget *child;
  static const char *const axes[] = { "x", "y", "z", "dx", "dy", "dz" };

  while ((child = gtk_widget_get_first_child (self->pose_list)) != NULL)
    gtk_box_remove (GTK_BOX (self->pose_list), child);
  for (guint j = 0; pose && j < mshed_dfm_pose_get_n_joints (pose); j++)
    {
      const MshedDfmPoseJoint *joint = mshed_dfm_pose_get_joint (pose, j);
      g_autofree char *title = g_strdup_printf (_("%s (%s)"), joint->name,
                                                mshed_dfm_joint_kind_name (joint->kind));
      GtkWidget *label = gtk_label_new (title);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_widget_add_css_class (label, "heading");
      gtk_box_append (GTK_BOX (self->pose_list), label);
      for (guint d = 0; d < joint->n_dof; d++)
        {
          const MshedDfmDof *dof = &joint->dof[d];
          gboolean turn = dof->kind == MSHED_DFM_DOF_TURN;
          double lo = turn ? dof->min * 180.0 / G_PI : (dof->limited ? dof->min : -SLIDE_RANGE);
          double hi = turn ? dof->max * 180.0 / G_PI : (dof->limited ? dof->max : SLIDE_RANGE);
          GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, lo, hi,
                                                       turn ? 1.0 : (hi - lo) / 100.0);
          double v = mshed_dfm_pose_get_value (pose, j, d);

          gtk_range_set_value (GTK_RANGE (scale), turn ? v * 180.0 / G_PI : v);
          gtk_scale_set_draw_value (GTK_SCALE (scale), TRUE);
          gtk_scale_set_value_pos (GTK_SCALE (scale), GTK_POS_LEFT);
          gtk_scale_add_mark (GTK_SCALE (scale), 0.0, GTK_POS_BOTTOM, NULL);
          if (joint->n_dof > 1)
            gtk_widget_set_tooltip_text (scale, axes[MIN (d, 5)]);
          g_object_set_data (G_OBJECT (scale), "joint", GUINT_TO_POINTER (j));
          g_object_set_data (G_OBJECT (scale), "dof", GUINT_TO_POINTER (d));
          gtk_widget_set_name (scale, "pose-slider");
          g_signal_connect_object (scale, "value-changed", G_CALLBACK (on_slider_changed), self,
                                   0);
          gtk_box_append (GTK_BOX (self->pose_list), scale);
        }
    }
}

static void
on_document_changed (MshedWindow *self)
{
  /* an edit of the DFM: the skeleton and the mesh again, the pose kept by joint name */
  if (mshed_renderer_get_dfm (mshed_model_view_get_renderer (self->model_view)) == NULL)
    return;
  mshed_model_view_dfm_changed (self->model_view, TRUE);
}

/* Level ------------------------------------------------------------------------------- */

static char *
by_distance_label (MshedWindow *self)
{
  return g_strdup_printf (_("By distance (level %u)"),
                          mshed_model_view_get_dfm_drawn_level (self->model_view));
}

static void
on_preview_level_changed (MshedWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->preview_level);

  mshed_model_view_set_dfm_level (self->model_view,
                                  i == GTK_INVALID_LIST_POSITION || i == 0 ? -1 : (gint) i - 1);
}

/* "By distance" names the level it draws now */
static void
on_drawn_level_changed (MshedWindow *self)
{
  GListModel *levels = gtk_drop_down_get_model (self->preview_level);
  g_autofree char *label = by_distance_label (self);
  const char *const items[] = { label, NULL };
  guint selected = gtk_drop_down_get_selected (self->preview_level);

  if (levels == NULL || g_list_model_get_n_items (levels) == 0)
    return;
  /* a triangle picked or selected in a grid was one of the level drawn before */
  if (mshed_renderer_get_dfm (mshed_model_view_get_renderer (self->model_view)) != NULL)
    {
      mshed_renderer_clear_selection (mshed_model_view_get_renderer (self->model_view));
      mshed_model_view_set_selected_vertices (self->model_view, NULL, 0);
    }
  g_signal_handlers_block_by_func (self->preview_level, on_preview_level_changed, self);
  gtk_string_list_splice (GTK_STRING_LIST (levels), 0, 1, items);
  gtk_drop_down_set_selected (self->preview_level, selected);
  g_signal_handlers_unblock_by_func (self->preview_level, on_preview_level_changed, self);
}

static void
fill_levels (MshedWindow *self,
             MshedDfm    *dfm)
{
  g_autoptr(GtkStringList) levels = gtk_string_list_new (NULL);
  g_autofree char *label = by_distance_label (self);

  gtk_string_list_append (levels, label);
  for (guint i = 0; dfm != NULL && i < mshed_dfm_get_n_levels (dfm); i++)
    {
      g_autofree char *name = g_strdup_printf ("Mesh%u", i);

      gtk_string_list_append (levels, name);
    }
  g_signal_handlers_block_by_func (self->preview_level, on_preview_level_changed, self);
  gtk_drop_down_set_model (self->preview_level, G_LIST_MODEL (levels));
  gtk_drop_down_set_selected (self->preview_level, 0);
  g_signal_handlers_unblock_by_func (self->preview_level, on_preview_level_changed, self);
  mshed_model_view_set_dfm_level (self->model_view, -1);
}

void
_mshed_window_pose_set_document (MshedWindow   *self,
                                 MshedDocument *document)
{
  MshedDfm *dfm = document ? mshed_document_get_dfm (document) : NULL;
  GtkWidget *toolbar = gtk_widget_get_prev_sibling (GTK_WIDGET (self->model_view));

  if (dfm != NULL && mshed_dfm_get_n_levels (dfm) == 0)
    dfm = NULL;
  mshed_model_view_set_dfm (self->model_view, dfm);
  mshed_renderer_set_weight_bone (mshed_model_view_get_renderer (self->model_view), -1);
  if (toolbar)
    gtk_widget_set_visible (toolbar, dfm == NULL);
  gtk_widget_set_visible (self->pose_panel, dfm != NULL);
  if (document && dfm)
    g_signal_connect_object (document, "changed", G_CALLBACK (on_document_changed), self,
                             G_CONNECT_SWAPPED);
  fill_levels (self, dfm);
  gtk_label_set_label (self->pick_label, "");
  rebuild_joints (self);
}

gboolean
_mshed_window_pose_has_dfm (MshedWindow *self)
{
  return gtk_widget_get_visible (self->pose_panel);
}

/* a row of the Bones grid: the heat map of that bone's weights */
static void
on_bone_selected (MshedWindow *self,
                  guint        row)
{
  MshedRenderer *renderer = mshed_model_view_get_renderer (self->model_view);

  if (mshed_renderer_get_dfm (renderer) == NULL)
    return;
  mshed_renderer_set_weight_bone (renderer, (gint) row);
  mshed_model_view_dfm_changed (self->model_view, FALSE);
}

/* Picking ----------------------------------------------------------------------------- */

static MshedTableView *
dfm_grid (MshedWindow   *self,
          MshedDfmTable  table)
{
  for (guint i = 0; i < MSHED_WINDOW_N_DFM_GRIDS; i++)
    if (mshed_table_view_get_table (self->dfm_grids[i]) == MSHED_DFM_TABLE_ID (table))
      return self->dfm_grids[i];
  return NULL;
}

static void
show_grid (MshedWindow    *self,
           MshedTableView *grid)
{
  gtk_notebook_set_current_page (self->grid_notebook,
                                 gtk_notebook_page_num (self->grid_notebook, GTK_WIDGET (grid)));
}

/* The strip rows of triangle @triangle of @group (its window, docs/dfm.md §5.1), or FALSE for
 * a group without a strip. */
static gboolean
strip_rows (MshedDfm *dfm,
            guint     level,
            guint     group,
            guint     triangle,
            guint     rows[3])
{
  MshedDfmArray strip;
  gsize window;

  if (!mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_TRISTRIP, level, group, &strip) ||
      (window = mshed_dfm_strip_window (strip.data, strip.count, triangle)) == G_MAXSIZE)
    return FALSE;
  for (guint k = 0; k < 3; k++)
    rows[k] = (guint) window + k;
  return TRUE;
}

void
_mshed_window_pose_picked (MshedWindow *self)
{
  const MshedPick *pick = mshed_model_view_get_last_pick (self->model_view);
  MshedRenderer *renderer = mshed_model_view_get_renderer (self->model_view);
  MshedRenderScene *scene = mshed_renderer_get_scene (renderer);
  MshedDfm *dfm = mshed_renderer_get_dfm (renderer);
  guint level = mshed_model_view_get_dfm_drawn_level (self->model_view);
  MshedTableView *strip = dfm_grid (self, MSHED_DFM_TABLE_TRISTRIP);
  MshedTableView *triangles = dfm_grid (self, MSHED_DFM_TABLE_TRIANGLES);
  MshedTableView *elements = dfm_grid (self, MSHED_DFM_TABLE_POINT_INDICES);
  gboolean on_strip = gtk_notebook_get_current_page (self->grid_notebook) ==
                      gtk_notebook_page_num (self->grid_notebook, GTK_WIDGET (strip));
  MshedTableView *bones = dfm_grid (self, MSHED_DFM_TABLE_BONE_TO_ROOT);
  g_autofree char *text = NULL;
  g_autofree char *bone_name = NULL;
  guint rows[3] = { 0, 0, 0 }, bone_row;
  gboolean has_strip;
  gint bone;
  MshedDfmBone info;

  if (dfm == NULL || scene == NULL || !pick->hit)
    {
      gtk_label_set_label (self->pick_label, "");
      mshed_model_view_set_selected_vertices (self->model_view, NULL, 0);
      return;
    }
  /* the grids at the level drawn and the triangle's group */
  if (gtk_drop_down_get_selected (self->level_dropdown) != level)
    gtk_drop_down_set_selected (self->level_dropdown, level);
  if (gtk_drop_down_get_selected (self->dfm_group_dropdown) != pick->batch)
    gtk_drop_down_set_selected (self->dfm_group_dropdown, pick->batch);

  /* its row of the Triangles tab, and the strip rows of its window: the strip grid shows
   * them when the user is on it, else the Triangles tab shows the row */
  has_strip = strip_rows (dfm, level, pick->batch, pick->triangle, rows);
  mshed_table_view_set_highlight (strip, rows, has_strip ? 3 : 0);
  mshed_table_view_set_highlight (triangles, &pick->triangle, 1);
  on_strip = on_strip && has_strip;
  if (!on_strip)
    show_grid (self, triangles);
  mshed_table_view_reveal (triangles, pick->triangle, NULL);
  if (on_strip)
    mshed_table_view_reveal (strip, rows[0], NULL);
  /* its file in the tree, its strip entries (list triple) in the hex view */
  _mshed_window_utf_show_record (self, triangles, pick->triangle, NULL);
  mshed_table_view_set_highlight (elements, pick->vertices, 3);
  mshed_table_view_scroll_to_row (elements, MIN (MIN (pick->vertices[0], pick->vertices[1]),
                                                 pick->vertices[2]));
  mshed_model_view_set_selected_vertices (self->model_view, pick->vertices, 3);

  /* the bone that weighs most on the corners: its row and its heat map */
  bone = mshed_render_scene_dfm_strongest_bone (scene, pick->vertices, 3);
  bone_row = (guint) bone;
  mshed_table_view_set_highlight (bones, &bone_row, bone >= 0 ? 1 : 0);
  if (bone >= 0)
    mshed_table_view_scroll_to_row (bones, bone_row);
  if (bone >= 0 && mshed_dfm_get_bone (dfm, bone_row, &info))
    bone_name = g_strdup (info.object_name ? info.object_name : info.name);
  mshed_renderer_set_weight_bone (renderer, bone);
  mshed_model_view_dfm_changed (self->model_view, FALSE);

  if (has_strip)
    text = g_strdup_printf (_("Group%u, triangle %u (strip rows %u–%u), elements %u, %u, %u, "
                              "bone %s"),
                            pick->batch, pick->triangle, rows[0], rows[2], pick->vertices[0],
                            pick->vertices[1], pick->vertices[2], bone_name ? bone_name : "—");
  else
    text = g_strdup_printf (_("Group%u, triangle %u, elements %u, %u, %u, bone %s"),
                            pick->batch, pick->triangle, pick->vertices[0], pick->vertices[1],
                            pick->vertices[2], bone_name ? bone_name : "—");
  gtk_label_set_label (self->pick_label, text);
}

void
_mshed_window_pose_show_row (MshedWindow    *self,
                             MshedTableView *grid,
                             guint           row)
{
  MshedRenderer *renderer = mshed_model_view_get_renderer (self->model_view);
  MshedDfm *dfm = mshed_renderer_get_dfm (renderer);
  MshedTableId table = mshed_table_view_get_table (grid);
  guint level = gtk_drop_down_get_selected (self->level_dropdown);
  guint group = gtk_drop_down_get_selected (self->dfm_group_dropdown);
  g_autoptr(GArray) corners = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint16 *tris = NULL;
  g_autofree gsize *windows = NULL;
  MshedDfmArray a;
  gsize n = 0;

  if (dfm == NULL || (table != MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES) &&
                      table != MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRISTRIP)))
    return;
  mshed_renderer_clear_selection (renderer);
  /* the preview draws another level: its triangles are others */
  if (level == mshed_model_view_get_dfm_drawn_level (self->model_view) &&
      mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_TRISTRIP, level, group, &a) && a.count >= 3 &&
      table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRISTRIP))
    {
      /* a strip entry: the triangles drawn with it (docs/dfm.md §5.1) */
      tris = g_new (guint16, 3 * (gsize) a.count);
      windows = g_new (gsize, a.count);
      n = mshed_dfm_strip_unroll_windows (a.data, a.count, tris, windows);
    }
  else if (level == mshed_model_view_get_dfm_drawn_level (self->model_view) &&
           table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES))
    tris = mshed_dfm_dup_triangles (dfm, level, group, &n);
  for (gsize t = 0; t < n; t++)
    if (windows ? windows[t] <= row && row <= windows[t] + 2 : t == row)
      {
        mshed_renderer_select (renderer, MSHED_SELECT_TRIANGLE,
                               MSHED_TRIANGLE_KEY (group, (guint) t), TRUE);
        for (guint k = 0; k < 3; k++)
          {
            guint v = tris[3 * t + k];

            g_array_append_val (corners, v);
          }
      }
  mshed_model_view_set_selected_vertices (self->model_view, (const guint *) corners->data,
                                          corners->len);
}

/* A check box bound both ways to the model view's show-@name property, so it also follows
 * overlays set elsewhere (the View menu, code) */
static GtkWidget *
overlay_check (MshedWindow  *self,
               const char   *label,
               const char   *name)
{
  GtkWidget *check = gtk_check_button_new_with_mnemonic (label);
  g_autofree char *property = g_strconcat ("show-", name, NULL);

  g_object_bind_property (self->model_view, property, check, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  return check;
}

void
_mshed_window_pose_init (MshedWindow *self)
{
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self->model_view));
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *checks = gtk_flow_box_new ();
  GtkWidget *title = gtk_label_new (_("Pose"));
  GtkWidget *reset = gtk_button_new_with_mnemonic (_("_Reset Pose"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->pose_panel = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_start (self->pose_panel, 6);
  gtk_widget_set_margin_end (self->pose_panel, 6);
  gtk_widget_set_margin_bottom (self->pose_panel, 4);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  gtk_widget_set_tooltip_text (reset, _("Every joint back to the bind pose (posing is not an "
                                        "edit of the file)"));
  g_signal_connect_object (reset, "clicked", G_CALLBACK (on_reset_clicked), self,
                           G_CONNECT_SWAPPED);
  self->preview_level = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->preview_level),
                               _("Level the preview draws: by the camera distance through the "
                                 "level fractions, or one by hand"));
  g_signal_connect_object (self->preview_level, "notify::selected",
                           G_CALLBACK (on_preview_level_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model_view, "notify::dfm-drawn-level",
                           G_CALLBACK (on_drawn_level_changed), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->preview_level));
  gtk_box_append (GTK_BOX (header), reset);
  gtk_box_append (GTK_BOX (self->pose_panel), header);

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (checks), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (checks), 4);
  gtk_flow_box_append (GTK_FLOW_BOX (checks),
                       overlay_check (self, _("_Skeleton"), "skeleton"));
  gtk_flow_box_append (GTK_FLOW_BOX (checks),
                       overlay_check (self, _("_Hardpoints"), "hardpoints"));
  gtk_flow_box_append (GTK_FLOW_BOX (checks),
                       overlay_check (self, _("_Wireframe"), "wireframe"));
  gtk_flow_box_append (GTK_FLOW_BOX (checks),
                       overlay_check (self, _("_Normals"), "normals"));
  gtk_box_append (GTK_BOX (self->pose_panel), checks);

  self->pick_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->pick_label, 0.0f);
  gtk_label_set_wrap (self->pick_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->pick_label), "dim-label");
  gtk_box_append (GTK_BOX (self->pose_panel), GTK_WIDGET (self->pick_label));

  self->pose_list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->pose_list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  /* about three sliders: in a small window the preview above keeps most of the height */
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 96);
  gtk_box_append (GTK_BOX (self->pose_panel), scrolled);
  gtk_widget_set_visible (self->pose_panel, FALSE);
  gtk_box_append (GTK_BOX (parent), self->pose_panel);

  for (guint i = 0; i < MSHED_WINDOW_N_DFM_GRIDS; i++)
    if (mshed_table_view_get_table (self->dfm_grids[i]) ==
        MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_BONE_TO_ROOT))
      g_signal_connect_object (self->dfm_grids[i], "row-selected",
                               G_CALLBACK (on_bone_selected), self, G_CONNECT_SWAPPED);
}
