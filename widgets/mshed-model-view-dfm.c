/* mshed-model-view-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model view with a deformable model: a click picks on the CPU-skinned positions the
 * render scene holds (what is drawn, posed or not), by a ray from the camera through the
 * pointer; the skeleton overlay gets each bone's name at its joint, drawn by GTK over the GL
 * picture; and "By distance" chooses the level from the camera distance (docs/dfm.md §3,
 * docs/conventions.md "Posing a DFM").
 */
#define G_LOG_DOMAIN "mshed-model-view"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-dfm-pose.h"
#include "mshed-model-view-private.h"

#define LABEL_GAP     6.0f   /* pixels between a joint and its label */
#define LABEL_PAD_X   4.0f
#define LABEL_PAD_Y   1.0f
#define LABEL_MARGIN  2.0f   /* labels closer than this count as overlapping */

/* Picking ------------------------------------------------------------------------------- */

gboolean
_mshed_model_view_dfm_pick (MshedRenderer *renderer,
                            int            width,
                            int            height,
                            double         x,
                            double         y,
                            MshedPick     *out)
{
  MshedRenderScene *scene = mshed_renderer_get_scene (renderer);
  MshedCamera *camera = mshed_renderer_get_camera (renderer);
  mat4 view, proj, vp, inv;
  vec4 ndc_near, ndc_far, near, far;
  float origin[3], dir[3];
  MshedSceneHit hit;

  memset (out, 0, sizeof *out);
  out->node = out->slot = out->batch = MSHED_NONE;
  out->triangle = out->index_position = out->item = out->descriptor = G_MAXUINT;
  out->vertices[0] = out->vertices[1] = out->vertices[2] = G_MAXUINT;
  if (scene == NULL || mshed_render_scene_get_dfm (scene) == NULL || width <= 0 || height <= 0)
    return FALSE;

  /* the pointer on the near and the far plane: the ray starts where drawing is clipped */
  mshed_camera_view (camera, view);
  mshed_camera_projection (camera, (float) width / (float) height, proj);
  glm_mat4_mul (proj, view, vp);
  glm_mat4_inv (vp, inv);
  ndc_near[0] = ndc_far[0] = (float) (2.0 * x / width - 1.0);
  ndc_near[1] = ndc_far[1] = (float) (1.0 - 2.0 * y / height);
  ndc_near[2] = -1.0f;
  ndc_far[2] = 1.0f;
  ndc_near[3] = ndc_far[3] = 1.0f;
  glm_mat4_mulv (inv, ndc_near, near);
  glm_mat4_mulv (inv, ndc_far, far);
  if (!(fabsf (near[3]) > 1e-12f) || !(fabsf (far[3]) > 1e-12f))
    return FALSE;
  for (guint k = 0; k < 3; k++)
    {
      origin[k] = near[k] / near[3];
      dir[k] = far[k] / far[3] - origin[k];
    }
  if (!mshed_render_scene_dfm_ray_pick (scene, origin, dir, &hit))
    return FALSE;
  out->hit = TRUE;
  out->item = hit.item;
  out->batch = hit.batch;
  out->triangle = hit.triangle;
  memcpy (out->vertices, hit.vertices, sizeof out->vertices);
  return TRUE;
}

/* Bone names ---------------------------------------------------------------------------- */

static void
lookup (GtkStyleContext *context,
        const char      *name,
        const char      *fallback,
        GdkRGBA         *out)
{
  if (!gtk_style_context_lookup_color (context, name, out))
    gtk_style_context_lookup_color (context, fallback, out);
}

/* A label's text: the Object name of the bone's part, else its directory without ".3db". */
static char *
bone_label (const MshedDfmBone *bone)
{
  if (bone->object_name != NULL && bone->object_name[0] != '\0')
    return g_strdup (bone->object_name);
  if (g_str_has_suffix (bone->name, ".3db"))
    return g_strndup (bone->name, strlen (bone->name) - strlen (".3db"));
  return g_strdup (bone->name);
}

static gboolean
overlaps (const GArray          *drawn,
          const graphene_rect_t *r)
{
  graphene_rect_t grown = *r;

  graphene_rect_inset (&grown, -LABEL_MARGIN, -LABEL_MARGIN);
  for (guint i = 0; i < drawn->len; i++)
    if (graphene_rect_intersection (&g_array_index (drawn, graphene_rect_t, i), &grown, NULL))
      return TRUE;
  return FALSE;
}

/* Draws bone @b's label unless it is behind the camera, off the view or (unless @selected)
 * on a label already drawn. */
static void
draw_label (GtkWidget     *widget,
            MshedRenderer *renderer,
            GtkSnapshot   *snapshot,
            guint          b,
            gboolean       selected,
            GArray        *drawn)
{
  MshedRenderScene *scene = mshed_renderer_get_scene (renderer);
  MshedDfmPose *pose = mshed_render_scene_get_dfm_pose (scene);
  GtkStyleContext *context = gtk_widget_get_style_context (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree char *text = NULL;
  GdkRGBA bg = { 1, 1, 1, 1 }, fg = { 0, 0, 0, 1 };
  PangoRectangle logical;
  graphene_rect_t r;
  GskRoundedRect pill;
  MshedDfmBone bone;
  float x, y;

  if (!mshed_dfm_get_bone (mshed_render_scene_get_dfm (scene), b, &bone) ||
      !mshed_renderer_project (renderer, w, h, mshed_dfm_pose_get_world (pose, b) + 9, &x, &y) ||
      x < 0.0f || y < 0.0f || x >= (float) w || y >= (float) h)
    return;
  text = bone_label (&bone);
  layout = gtk_widget_create_pango_layout (widget, text);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  graphene_rect_init (&r, x + LABEL_GAP, y - logical.height / 2.0f - LABEL_PAD_Y,
                      logical.width + 2 * LABEL_PAD_X, logical.height + 2 * LABEL_PAD_Y);
  if (!selected && overlaps (drawn, &r))
    return;
  g_array_append_val (drawn, r);

  /* a pill of the view's background under the theme's text colour reads on the model in
   * light and dark themes alike; the selected bone's in the accent colours */
  if (selected)
    {
      lookup (context, "accent_bg_color", "theme_selected_bg_color", &bg);
      lookup (context, "accent_fg_color", "theme_selected_fg_color", &fg);
    }
  else
    {
      lookup (context, "view_bg_color", "theme_base_color", &bg);
      lookup (context, "view_fg_color", "theme_text_color", &fg);
      bg.alpha = 0.8f;
    }
  gsk_rounded_rect_init_from_rect (&pill, &r, r.size.height / 2.0f);
  gtk_snapshot_push_rounded_clip (snapshot, &pill);
  gtk_snapshot_append_color (snapshot, &bg, &r);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (r.origin.x + LABEL_PAD_X,
                                                          r.origin.y + LABEL_PAD_Y));
  gtk_snapshot_append_layout (snapshot, layout, &fg);
  gtk_snapshot_restore (snapshot);
}

void
_mshed_model_view_dfm_labels (GtkWidget     *widget,
                              MshedRenderer *renderer,
                              GtkSnapshot   *snapshot)
{
  MshedRenderScene *scene = mshed_renderer_get_scene (renderer);
  gint selected = mshed_renderer_get_weight_bone (renderer);
  g_autoptr(GArray) drawn = NULL;
  MshedDfmPose *pose;
  guint n_bones;

  if (scene == NULL || mshed_render_scene_get_dfm (scene) == NULL ||
      !(mshed_renderer_get_overlays (renderer) & MSHED_OVERLAY_SKELETON))
    return;
  pose = mshed_render_scene_get_dfm_pose (scene);
  n_bones = mshed_dfm_pose_get_n_bones (pose);
  drawn = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));
  /* the selected bone first: it is always drawn, and the others make way for it */
  if (selected >= 0 && (guint) selected < n_bones)
    draw_label (widget, renderer, snapshot, (guint) selected, TRUE, drawn);
  for (guint b = 0; b < n_bones; b++)
    if ((gint) b != selected)
      draw_label (widget, renderer, snapshot, b, FALSE, drawn);
}

/* Level by distance --------------------------------------------------------------------- */

guint
_mshed_model_view_dfm_level_for_camera (MshedRenderer *renderer,
                                        float          framed_distance)
{
  MshedDfm *dfm = mshed_renderer_get_dfm (renderer);
  float distance = mshed_renderer_get_camera (renderer)->distance;
  float detail = 1.0f;

  if (dfm == NULL)
    return 0;
  /* d = framed / current (docs/conventions.md "Posing a DFM"): 1 framed, less farther */
  if (framed_distance > 0.0f && distance > 0.0f && isfinite (framed_distance / distance))
    detail = framed_distance / distance;
  return mshed_dfm_level_for_detail (dfm, detail);
}
