/* mshed-cli-render.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli render: one model drawn offscreen (EGL surfaceless, no display) to a PNG file,
 * by the same renderer as the GL view. Linked only into mshed-cli-render, the command-line
 * tool with the renderer, which mshed-cli runs for this command (mshed-cli-render-exec.c).
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-offscreen.h"
#include "mshed-png.h"
#include "mshed-renderer.h"

static gboolean
parse_float (const char *option,
             const char *text,
             float      *out)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return TRUE;
  v = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (v))
    {
      mshed_cli_error (_("%s %s: not a number"), option, text);
      return FALSE;
    }
  *out = (float) v;
  return TRUE;
}

static gboolean
parse_size (const char *text,
            int        *width,
            int        *height)
{
  g_auto(GStrv) parts = NULL;
  guint w = 0, h = 0;

  if (text == NULL)
    return TRUE;
  parts = g_strsplit_set (text, "xX", 2);
  if (g_strv_length (parts) != 2 ||
      !mshed_cli_parse_count ("--size", parts[0], 1, 8192, &w) ||
      !mshed_cli_parse_count ("--size", parts[1], 1, 8192, &h))
    {
      if (g_strv_length (parts) != 2)
        mshed_cli_error (_("--size %s: expected WIDTHxHEIGHT, e.g. 512x512"), text);
      return FALSE;
    }
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}

static gboolean
parse_color (const char *text,
             float       rgba[4])
{
  const char *p = text;
  gsize len;
  guint64 v;

  if (text == NULL)
    return TRUE;
  if (*p == '#')
    p++;
  len = strlen (p);
  if ((len != 6 && len != 8) || !g_ascii_string_to_unsigned (p, 16, 0, G_MAXUINT32, &v, NULL))
    {
      mshed_cli_error (_("--background %s: expected RRGGBB or RRGGBBAA"), text);
      return FALSE;
    }
  if (len == 6)
    v = (v << 8) | 0xff;
  for (guint i = 0; i < 4; i++)
    rgba[i] = ((v >> (24 - 8 * i)) & 0xff) / 255.0f;
  return TRUE;
}

/* A DFM (by its UTF signature, utf.md §2), or NULL with @status set when the file cannot be
 * read or parsed; NULL with @status 0 when the file is no UTF file. */
static MshedDfm *
open_dfm (const char *path,
          int        *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  MshedDfm *dfm;
  gsize size;
  const guint8 *data;

  *status = 0;
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;   /* ARCHIVE:ENTRY, or mshed_cli_open_model reports what it is */
  bytes = mshed_load_file (path, &error);
  if (bytes == NULL)
    return NULL;   /* mshed_cli_open_model reports it */
  data = g_bytes_get_data (bytes, &size);
  if (size < 4 || memcmp (data, "UTF ", 4) != 0)
    return NULL;
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);
  if (dfm == NULL)
    {
      mshed_cli_error ("%s: %s", path, error->message);
      *status = MSHED_CLI_EXIT_PROBLEMS;
    }
  return dfm;
}

/* --joint NAME=V[,V…]: degrees for turns, model units for slides, in the joint's order
 * (docs/conventions.md "Posing a DFM") */
static gboolean
apply_joints (MshedDfmPose *pose,
              char        **joints)
{
  for (guint i = 0; joints && joints[i]; i++)
    {
      const char *eq = strchr (joints[i], '=');
      g_autofree char *name = eq ? g_strndup (joints[i], (gsize) (eq - joints[i])) : NULL;
      g_auto(GStrv) values = NULL;
      const MshedDfmPoseJoint *joint;
      gint k;

      k = name ? mshed_dfm_pose_find_joint (pose, name) : -1;
      if (eq == NULL)
        {
          mshed_cli_error (_("--joint %s: expected NAME=ANGLE"), joints[i]);
          return FALSE;
        }
      if (k < 0)
        {
          mshed_cli_error (_("--joint %s: the model has no joint named “%s”"), joints[i], name);
          return FALSE;
        }
      joint = mshed_dfm_pose_get_joint (pose, (guint) k);
      values = g_strsplit (eq + 1, ",", -1);
      if (g_strv_length (values) == 0 || g_strv_length (values) > joint->n_dof)
        {
          mshed_cli_error (_("--joint %s: joint “%s” (%s) takes 1 to %u values"), joints[i], name,
                           mshed_dfm_joint_kind_name (joint->kind), joint->n_dof);
          return FALSE;
        }
      for (guint d = 0; values[d]; d++)
        {
          float v = 0.0f;

          if (!parse_float ("--joint", values[d], &v))
            return FALSE;
          if (joint->dof[d].kind == MSHED_DFM_DOF_TURN)
            v = glm_rad (v);
          mshed_dfm_pose_set_value (pose, (guint) k, d, v);
        }
    }
  return TRUE;
}

int
mshed_cli_render (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedSource) source = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedOffscreen) offscreen = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  g_auto(GStrv) joints = NULL;
  g_autofree char *level_text = NULL;
  gboolean skeleton = FALSE, hardpoints = FALSE;
  guint level = 0;
  g_autofree guint8 *pixels = NULL;
  g_autofree char *output = NULL;
  g_autofree char *lod_text = NULL, *group_text = NULL, *frame_text = NULL, *size_text = NULL;
  g_autofree char *up_text = NULL, *rotation_text = NULL, *bg_text = NULL, *samples_text = NULL;
  g_autofree char *yaw_text = NULL, *pitch_text = NULL;
  gboolean wireframe = FALSE, grid = FALSE, bounds = FALSE, materials = FALSE, uv = FALSE;
  guint lod = 0, group = 0, samples = 4;
  float frame = 0.0f, yaw = NAN, pitch = NAN;
  float background[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
  int width = 512, height = 512;
  MshedRenderer *renderer;
  MshedPoseOptions pose;
  MshedOverlays overlays = MSHED_OVERLAY_SHADED;
  MshedCamera *camera;
  int status;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the PNG image to FILE"), "FILE" },
    { "lod", 'l', 0, G_OPTION_ARG_STRING, &lod_text,
      N_("Level of detail, 0 to 2 (default 0)"), "N" },
    { "group", 'g', 0, G_OPTION_ARG_STRING, &group_text, N_("Group, 0 to 4 (default 0)"), "G" },
    { "frame", 'f', 0, G_OPTION_ARG_STRING, &frame_text,
      N_("Animation time in frames (default 0)"), "F" },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size_text,
      N_("Image size in pixels (default 512x512)"), "WxH" },
    { "up", 0, 0, G_OPTION_ARG_STRING, &up_text, N_("Up axis: z (default) or y"), "AXIS" },
    { "yaw", 0, 0, G_OPTION_ARG_STRING, &yaw_text,
      N_("Camera yaw in degrees (default -60)"), "DEG" },
    { "pitch", 0, 0, G_OPTION_ARG_STRING, &pitch_text,
      N_("Camera pitch in degrees (default 25)"), "DEG" },
    { "rotation", 0, 0, G_OPTION_ARG_STRING, &rotation_text,
      N_("Quaternion convention: fparkan (default) or runtime (docs/msh.md §7.4)"), "NAME" },
    { "background", 'b', 0, G_OPTION_ARG_STRING, &bg_text,
      N_("Background colour RRGGBB[AA] (default transparent)"), "COLOUR" },
    { "samples", 0, 0, G_OPTION_ARG_STRING, &samples_text,
      N_("Multisampling samples, 0 to 16 (default 4)"), "N" },
    { "wireframe", 'w', 0, G_OPTION_ARG_NONE, &wireframe, N_("Draw the wireframe on top"), NULL },
    { "grid", 0, 0, G_OPTION_ARG_NONE, &grid, N_("Draw the ground grid and axes"), NULL },
    { "bounds", 0, 0, G_OPTION_ARG_NONE, &bounds,
      N_("Draw slot boxes and the header sphere"), NULL },
    { "materials", 'm', 0, G_OPTION_ARG_NONE, &materials,
      N_("Tint batches by material index"), NULL },
    { "uv-checker", 0, 0, G_OPTION_ARG_NONE, &uv, N_("Modulate with a UV checker"), NULL },
    { "level", 0, 0, G_OPTION_ARG_STRING, &level_text,
      N_("DFM: the level to draw (default 0)"), "N" },
    { "joint", 'j', 0, G_OPTION_ARG_STRING_ARRAY, &joints,
      N_("DFM: turn a joint, in degrees (slides in model units; Sphere and Loose take "
         "x,y,z[,dx,dy,dz]); repeatable"), "NAME=ANGLE" },
    { "skeleton", 0, 0, G_OPTION_ARG_NONE, &skeleton, N_("DFM: draw the skeleton"), NULL },
    { "hardpoints", 0, 0, G_OPTION_ARG_NONE, &hardpoints,
      N_("DFM: draw the hardpoints' axes"), NULL },
    { NULL }
  };

  context = mshed_cli_context_new ("FILE|ARCHIVE:ENTRY",
                                   _("Draw a model as the game would (node poses, LOD, group; "
                                     "for a DFM the level, skinned in a pose) to a PNG image. "
                                     "Needs no display: it uses EGL's surfaceless platform."),
                                   entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 2 || output == NULL)
    {
      mshed_cli_error (_("render needs one model and -o FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_parse_count ("--lod", lod_text, 0, MSHED_N_LODS - 1, &lod) ||
      !mshed_cli_parse_count ("--group", group_text, 0, MSHED_N_GROUPS - 1, &group) ||
      !mshed_cli_parse_count ("--samples", samples_text, 0, 16, &samples) ||
      !parse_float ("--frame", frame_text, &frame) ||
      !parse_float ("--yaw", yaw_text, &yaw) ||
      !parse_float ("--pitch", pitch_text, &pitch) ||
      !parse_size (size_text, &width, &height) ||
      !parse_color (bg_text, background))
    return MSHED_CLI_EXIT_TROUBLE;
  mshed_pose_options_init (&pose);
  if (rotation_text && g_strcmp0 (rotation_text, "runtime") == 0)
    pose.convention = MSHED_ROTATION_RUNTIME;
  else if (rotation_text && g_strcmp0 (rotation_text, "fparkan") != 0)
    {
      mshed_cli_error (_("--rotation %s: expected fparkan or runtime"), rotation_text);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (up_text && g_ascii_strcasecmp (up_text, "z") != 0 && g_ascii_strcasecmp (up_text, "y") != 0)
    {
      mshed_cli_error (_("--up %s: expected z or y"), up_text);
      return MSHED_CLI_EXIT_TROUBLE;
    }

  if (!mshed_cli_check_output (output))
    return MSHED_CLI_EXIT_PROBLEMS;
  dfm = open_dfm (argv[1], &status);
  if (dfm == NULL && status != 0)
    return status;
  if (dfm == NULL && (level_text || joints || skeleton || hardpoints))
    {
      mshed_cli_error (_("--level, --joint, --skeleton and --hardpoints are for DFM files"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (dfm)
    {
      guint n_levels = mshed_dfm_get_n_levels (dfm);

      if (n_levels == 0)
        {
          mshed_cli_error (_("%s: the deformable model has no level to draw"), argv[1]);
          return MSHED_CLI_EXIT_PROBLEMS;
        }
      if (!mshed_cli_parse_count ("--level", level_text, 0, n_levels - 1, &level))
        return MSHED_CLI_EXIT_TROUBLE;
    }
  else
    {
      source = mshed_cli_open_model (argv[1], diags, &status);
      if (source == NULL)
        return status;
    }

  offscreen = mshed_offscreen_new (width, height, (int) samples, &error);
  if (offscreen == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }

  if (wireframe)
    overlays |= MSHED_OVERLAY_WIREFRAME;
  if (grid)
    overlays |= MSHED_OVERLAY_GRID | MSHED_OVERLAY_AXES;
  if (bounds)
    overlays |= MSHED_OVERLAY_SLOT_BOXES | MSHED_OVERLAY_HEADER_SPHERE;
  if (materials)
    overlays |= MSHED_OVERLAY_MATERIALS;
  if (uv)
    overlays |= MSHED_OVERLAY_UV_CHECKER;
  if (skeleton)
    overlays |= MSHED_OVERLAY_SKELETON;
  if (hardpoints)
    overlays |= MSHED_OVERLAY_HARDPOINTS;

  renderer = mshed_renderer_new ();
  if (!mshed_renderer_realize (renderer, &error))
    {
      mshed_cli_error ("%s", error->message);
      mshed_renderer_free (renderer);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  camera = mshed_renderer_get_camera (renderer);
  if (up_text && g_ascii_strcasecmp (up_text, "y") == 0)
    mshed_camera_set_up (camera, MSHED_UP_Y);
  if (isfinite (yaw))
    camera->yaw = glm_rad (yaw);
  if (isfinite (pitch))
    camera->pitch = glm_rad (CLAMP (pitch, -89.0f, 89.0f));
  mshed_renderer_set_background (renderer, background);
  mshed_renderer_set_overlays (renderer, overlays);
  mshed_renderer_set_pose_options (renderer, &pose);
  if (dfm)
    {
      mshed_renderer_set_dfm (renderer, dfm);
      mshed_renderer_set_view (renderer, level, 0);
      /* framed on the bind pose, so that a pose moves parts within the same view */
      mshed_renderer_frame_all (renderer, (float) width / height);
      if (!apply_joints (mshed_render_scene_get_dfm_pose (mshed_renderer_get_scene (renderer)),
                         joints))
        {
          mshed_renderer_unrealize (renderer);
          mshed_renderer_free (renderer);
          return MSHED_CLI_EXIT_TROUBLE;
        }
      mshed_renderer_pose_changed (renderer);
    }
  else
    {
      mshed_renderer_set_view (renderer, lod, group);
      mshed_renderer_set_time (renderer, frame);
      mshed_renderer_set_model (renderer, source->model);
      mshed_renderer_frame_all (renderer, (float) width / height);
    }

  mshed_offscreen_bind (offscreen);
  mshed_renderer_draw (renderer, width, height);
  pixels = mshed_offscreen_read_rgba (offscreen);
  mshed_renderer_unrealize (renderer);
  mshed_renderer_free (renderer);

  if (!mshed_png_write (output, pixels, width, height, 4 * (gsize) width, &error))
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  return MSHED_CLI_EXIT_OK;
}
