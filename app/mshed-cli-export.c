/* mshed-cli-export.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli export: a model to glTF 2.0 (.glb or .gltf) through model/mshed-gltf.h.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-gltf.h"

int
mshed_cli_export (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *output = NULL;
  g_autofree char *frame_text = NULL;
  g_autofree char *lod_text = NULL;
  g_autofree char *group_text = NULL;
  g_autofree char *lower = NULL;
  gboolean quiet = FALSE, no_animation = FALSE;
  MshedSource *source;
  MshedGltfOptions options;
  MshedGltfStats stats;
  const char *data;
  gsize size;
  int status;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE: .glb (binary glTF) or .gltf (JSON with the data inside)"), "FILE" },
    { "frame", 'f', 0, G_OPTION_ARG_STRING, &frame_text,
      N_("Pose every node as at frame N (default: the rest pose, each node's fallback key)"),
      "N" },
    { "lod", 'l', 0, G_OPTION_ARG_STRING, &lod_text,
      N_("The LOD each node shows, 0 to 2 (default 0); the others become child nodes"), "L" },
    { "group", 'g', 0, G_OPTION_ARG_STRING, &group_text,
      N_("The group each node shows, 0 to 4 (default 0)"), "G" },
    { "no-animation", 0, 0, G_OPTION_ARG_NONE, &no_animation,
      N_("Leave the animation keys out"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing on success"), NULL },
    { NULL }
  };

  mshed_gltf_options_init (&options);
  context = mshed_cli_context_new ("FILE[:ENTRY] -o OUT.glb|OUT.gltf",
                                   _("Export a model to glTF 2.0 for Blender and other "
                                     "tools: the node hierarchy and poses, one mesh per slot, "
                                     "materials by index and the animation keys."), entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 2 || output == NULL)
    {
      mshed_cli_error (_("export needs one model and -o FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_parse_count ("--lod", lod_text, 0, MSHED_N_LODS - 1, &options.lod) ||
      !mshed_cli_parse_count ("--group", group_text, 0, MSHED_N_GROUPS - 1, &options.group) ||
      !mshed_cli_parse_count ("--frame", frame_text, 0, G_MAXINT32, &options.frame))
    return MSHED_CLI_EXIT_TROUBLE;
  options.at_frame = frame_text != NULL;
  options.animations = !no_animation;
  lower = g_ascii_strdown (output, -1);
  if (g_str_has_suffix (lower, ".obj"))
    {
      mshed_cli_error (_("%s: OBJ export is not available yet; write .glb or .gltf"), output);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_gltf_format_for_path (output, &options.format))
    {
      mshed_cli_error (_("%s: the output must end in .glb or .gltf"), output);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_check_output (output))
    return MSHED_CLI_EXIT_PROBLEMS;

  source = mshed_cli_open_model (argv[1], diags, &status);
  if (source == NULL)
    return status;
  bytes = mshed_gltf_export (source->model, &options, &stats);
  mshed_source_free (source);
  data = g_bytes_get_data (bytes, &size);
  if (!g_file_set_contents (output, data, (gssize) size, &error))
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (quiet)
    return MSHED_CLI_EXIT_OK;
  printf (_("%s: %u nodes, %u meshes, %u triangles, %u materials, %u animated nodes, "
            "%zu bytes\n"), output, stats.nodes, stats.meshes, stats.triangles,
          stats.materials, stats.animated_nodes, size);
  if (stats.skipped_tracks > 0)
    printf (_("%u animated nodes have keys outside the canonical layout (docs/msh.md §7.7) "
              "and were exported without animation\n"), stats.skipped_tracks);
  return MSHED_CLI_EXIT_OK;
}
