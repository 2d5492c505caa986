/* mshed-thumbnailer.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-thumbnailer -s SIZE -i INPUT -o OUTPUT: the picture a file manager shows for a model
 * (data/org.mshed.Mshed.thumbnailer). A model is drawn offscreen by the renderer of the GL
 * view and `mshed-cli render` (EGL surfaceless, no display needed); an archive shows its first
 * nested model; a Freelancer DFM is drawn skinned in its bind pose, level 0
 * (docs/dfm.md §6.3). Another UTF file, or a DFM without a level, gets a drawn placeholder
 * (a card with a triangle), so a file manager still shows that mshed knows the file.
 */
#define G_LOG_DOMAIN "mshed-thumbnailer"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm.h"
#include "mshed-error.h"
#include "mshed-offscreen.h"
#include "mshed-png.h"
#include "mshed-renderer.h"
#include "mshed-source.h"
#include "mshed-uninstalled.h"
#include "mshed-utf.h"

/* The model of @bytes: the file itself, or an archive's first entry that holds a model. */
static MshedModel *
open_model (const char  *path,
            GBytes      *bytes,
            GError     **error)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, diags, error);
  guint n;

  if (nres == NULL)
    return NULL;
  n = mshed_nres_get_n_entries (nres);
  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *entry = mshed_nres_peek_entry (nres, i);

      if (mshed_entry_holds_model (entry))
        {
          g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (entry);

          mshed_diagnostics_clear (diags);
          return mshed_model_new_from_bytes (payload, MSHED_MODE_TOLERANT, diags, error);
        }
    }
  /* not an archive of models: the file itself */
  mshed_diagnostics_clear (diags);
  if (mshed_nres_find_type (nres, 1) < 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_A_MODEL,
                   _("%s: neither a model nor an archive with a model entry"), path);
      return NULL;
    }
  return mshed_model_new (nres, MSHED_MODE_TOLERANT, diags, error);
}

/* @model, or @dfm when it is not NULL */
static guint8 *
render_model (MshedModel  *model,
              MshedDfm    *dfm,
              int          size,
              GError     **error)
{
  g_autoptr(MshedOffscreen) offscreen = mshed_offscreen_new (size, size, 4, error);
  const float background[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
  MshedRenderer *renderer;
  MshedPoseOptions pose;
  guint8 *pixels;

  if (offscreen == NULL)
    return NULL;
  renderer = mshed_renderer_new ();
  if (!mshed_renderer_realize (renderer, error))
    {
      mshed_renderer_free (renderer);
      return NULL;
    }
  mshed_pose_options_init (&pose);
  mshed_renderer_set_background (renderer, background);
  mshed_renderer_set_overlays (renderer, MSHED_OVERLAY_SHADED);
  mshed_renderer_set_pose_options (renderer, &pose);
  mshed_renderer_set_view (renderer, 0, 0);
  mshed_renderer_set_time (renderer, 0.0f);
  if (dfm)
    mshed_renderer_set_dfm (renderer, dfm);
  else
    mshed_renderer_set_model (renderer, model);
  mshed_renderer_frame_all (renderer, 1.0f);
  mshed_offscreen_bind (offscreen);
  mshed_renderer_draw (renderer, size, size);
  pixels = mshed_offscreen_read_rgba (offscreen);
  mshed_renderer_unrealize (renderer);
  mshed_renderer_free (renderer);
  return pixels;
}

/* The placeholder for what the renderer cannot draw yet: a light card with rounded corners
 * and a dark triangle outline on it, antialiased by coverage of a 4x4 grid per pixel. */
static gboolean
inside_card (float x,
             float y,
             float size)
{
  float m = size * 0.08f, r = size * 0.12f;
  float cx = CLAMP (x, m + r, size - m - r), cy = CLAMP (y, m + r, size - m - r);

  return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
}

static float
edge (float ax, float ay, float bx, float by, float x, float y)
{
  return (bx - ax) * (y - ay) - (by - ay) * (x - ax);
}

static gboolean
inside_triangle (float x,
                 float y,
                 float size,
                 float scale)
{
  float c = size * 0.5f, h = size * 0.3f * scale;
  float ax = c, ay = c - h, bx = c + h, by = c + h * 0.7f, qx = c - h, qy = c + h * 0.7f;

  return edge (ax, ay, bx, by, x, y) >= 0 && edge (bx, by, qx, qy, x, y) >= 0 &&
         edge (qx, qy, ax, ay, x, y) >= 0;
}

static guint8 *
draw_placeholder (int size)
{
  guint8 *pixels = g_malloc0 (4 * (gsize) size * size);

  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      {
        guint8 *p = pixels + 4 * ((gsize) y * size + x);
        int card = 0, line = 0;

        for (int s = 0; s < 16; s++)
          {
            float sx = x + (s % 4 + 0.5f) / 4, sy = y + (s / 4 + 0.5f) / 4;

            card += inside_card (sx, sy, size);
            line += inside_triangle (sx, sy, size, 1.0f) &&
                    !inside_triangle (sx, sy, size, 0.75f);
          }
        if (card == 0)
          continue;
        p[0] = (guint8) (0xde - line * (0xde - 0x3d) / 16);
        p[1] = (guint8) (0xdd - line * (0xdd - 0x5a) / 16);
        p[2] = (guint8) (0xda - line * (0xda - 0x80) / 16);
        p[3] = (guint8) (card * 255 / 16);
      }
  return pixels;
}

static char *
input_path (const char *input)
{
  /* a thumbnailer's %u is a URI, %i a path: take either */
  if (g_str_has_prefix (input, "file://"))
    return g_filename_from_uri (input, NULL, NULL);
  return g_strdup (input);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  g_autofree char *input = NULL, *output = NULL, *path = NULL;
  g_autofree guint8 *pixels = NULL;
  int size = 256;
  GOptionEntry entries[] = {
    { "size", 's', 0, G_OPTION_ARG_INT, &size,
      N_("Width and height of the picture in pixels (default 256)"), "SIZE" },
    { "input", 'i', 0, G_OPTION_ARG_FILENAME, &input,
      N_("The model, archive or DFM (a path or a file:// URI)"), "INPUT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the PNG image to FILE"),
      "FILE" },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, mshed_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Draw the thumbnail of a model, the first model of an "
                                           "archive or a DFM (a placeholder for other UTF "
                                           "files), as a PNG image."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("mshed-thumbnailer: %s\n", error->message);
      return 2;
    }
  if (input == NULL || output == NULL || argc != 1 || size < 1 || size > 4096)
    {
      g_printerr ("mshed-thumbnailer: %s\n",
                  _("usage: mshed-thumbnailer -s SIZE -i INPUT -o OUTPUT (SIZE 1 to 4096)"));
      return 2;
    }

  path = input_path (input);
  if (path == NULL || (bytes = mshed_load_file (path, &error)) == NULL)
    {
      g_printerr ("mshed-thumbnailer: %s\n", error ? error->message : input);
      return 1;
    }
  if (g_bytes_get_size (bytes) >= 4 &&
      mshed_read_u32 (g_bytes_get_data (bytes, NULL)) == MSHED_UTF_SIGNATURE)
    {
      dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
      if (dfm && mshed_utf_looks_like_dfm (mshed_dfm_get_utf (dfm)) &&
          mshed_dfm_get_n_levels (dfm) > 0)
        pixels = render_model (NULL, dfm, size, &error);
      else
        pixels = draw_placeholder (size);
    }
  else if ((model = open_model (path, bytes, &error)) != NULL)
    pixels = render_model (model, NULL, size, &error);
  if (pixels == NULL)
    {
      g_printerr ("mshed-thumbnailer: %s: %s\n", path, error->message);
      return 1;
    }
  if (!mshed_png_write (output, pixels, size, size, 4 * (gsize) size, &error))
    {
      g_printerr ("mshed-thumbnailer: %s\n", error->message);
      return 1;
    }
  return 0;
}
