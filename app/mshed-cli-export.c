/* mshed-cli-export.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli export: a model to glTF 2.0 (.glb or .gltf) through model/mshed-gltf.h, or an MSH
 * or DFM to Wavefront OBJ with its .mtl through model/mshed-obj.h.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "mshed-cli-private.h"
#include "mshed-dfm.h"
#include "mshed-gltf.h"
#include "mshed-gltf-dfm.h"
#include "mshed-obj.h"

static gboolean
write_text_file (const char    *path,
                 const GString *text)
{
  g_autoptr(GError) error = NULL;

  if (g_file_set_contents (path, text->str, (gssize) text->len, &error))
    return TRUE;
  mshed_cli_error ("%s", error->message);
  return FALSE;
}

typedef struct {
  const char *input;
  const char *output;
  const char *lod_text;
  const char *group_text;
  const char *level_text;
  const char *frame_text;
  gboolean    quiet;
} ObjRequest;

/* A DFM's level to OBJ; FALSE with *status set after a message. */
static gboolean
export_dfm (const ObjRequest *req,
            MshedObjOptions  *options,
            GString          *obj,
            GString          *mtl,
            MshedObjStats    *stats,
            int              *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (req->input, &error);
  g_autoptr(MshedDfm) dfm = NULL;
  guint n_levels;

  if (bytes == NULL)
    {
      mshed_cli_error ("%s", error->message);
      *status = mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
      return FALSE;
    }
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);
  if (dfm == NULL)
    {
      mshed_cli_error ("%s: %s", req->input, error->message);
      *status = MSHED_CLI_EXIT_PROBLEMS;
      return FALSE;
    }
  n_levels = mshed_dfm_get_n_levels (dfm);
  if (n_levels == 0)
    {
      mshed_cli_error (_("%s: the deformable model has no level to export"), req->input);
      *status = MSHED_CLI_EXIT_PROBLEMS;
      return FALSE;
    }
  if (!mshed_cli_parse_count ("--level", req->level_text, 0, n_levels - 1, &options->level))
    {
      *status = MSHED_CLI_EXIT_TROUBLE;
      return FALSE;
    }
  if (!mshed_obj_export_dfm (dfm, options, obj, mtl, stats))
    {
      mshed_cli_error (_("%s: level %u cannot be read"), req->input, options->level);
      *status = MSHED_CLI_EXIT_PROBLEMS;
      return FALSE;
    }
  return TRUE;
}

/* export FILE -o OUT.obj: OUT.obj and OUT.mtl. */
static int
export_obj (const ObjRequest *req)
{
  g_autoptr(GString) obj = g_string_new (NULL);
  g_autoptr(GString) mtl = g_string_new (NULL);
  g_autofree char *mtl_path = mshed_obj_mtl_path (req->output);
  g_autofree char *mtl_base = g_path_get_basename (mtl_path);
  g_autofree char *mtl_name = g_filename_display_name (mtl_base);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  MshedObjOptions options;
  MshedObjStats stats = { 0 };
  int status = MSHED_CLI_EXIT_OK;

  mshed_obj_options_init (&options);
  options.mtllib = mtl_name;
  if (!mshed_cli_parse_count ("--frame", req->frame_text, 0, G_MAXINT32, &options.frame))
    return MSHED_CLI_EXIT_TROUBLE;
  options.at_frame = req->frame_text != NULL;
  if (!mshed_cli_check_output (req->output) || !mshed_cli_check_output (mtl_path))
    return MSHED_CLI_EXIT_PROBLEMS;
  if (mshed_cli_is_utf_file (req->input))
    {
      if (req->lod_text || req->group_text || req->frame_text)
        {
          mshed_cli_error (_("%s: --lod, --group and --frame are for MSH models; a deformable "
                             "model exports one --level in its bind pose"), req->input);
          return MSHED_CLI_EXIT_TROUBLE;
        }
      if (!export_dfm (req, &options, obj, mtl, &stats, &status))
        return status;
    }
  else
    {
      MshedSource *source;

      if (req->level_text)
        {
          mshed_cli_error (_("%s: --level is for deformable models (.dfm); an MSH model "
                             "exports one --lod and --group"), req->input);
          return MSHED_CLI_EXIT_TROUBLE;
        }
      if (!mshed_cli_parse_count ("--lod", req->lod_text, 0, MSHED_N_LODS - 1, &options.lod) ||
          !mshed_cli_parse_count ("--group", req->group_text, 0, MSHED_N_GROUPS - 1,
                                  &options.group))
        return MSHED_CLI_EXIT_TROUBLE;
      source = mshed_cli_open_model (req->input, diags, &status);
      if (source == NULL)
        return status;
      mshed_obj_export_msh (source->model, &options, obj, mtl, &stats);
      mshed_source_free (source);
    }
  if (!write_text_file (req->output, obj) || !write_text_file (mtl_path, mtl))
    return MSHED_CLI_EXIT_PROBLEMS;
  if (!req->quiet)
    printf (_("%s: %u groups, %u vertices, %u triangles, %u materials (%s)\n"), req->output,
            stats.objects, stats.vertices, stats.triangles, stats.materials, mtl_path);
  return MSHED_CLI_EXIT_OK;
}

typedef struct {
  const char *input;
  const char *output;
  const char *level_text;
  gboolean    quiet;
} GltfDfmRequest;

/* export FILE.dfm -o OUT.glb|OUT.gltf (docs/gltf.md §8) */
static int
export_gltf_dfm (const GltfDfmRequest *req)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (req->input, &error);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  MshedGltfFormat format;
  MshedGltfDfmStats stats = { 0 };
  guint level = 0;
  const char *data;
  gsize size;

  if (!mshed_gltf_format_for_path (req->output, &format))
    {
      mshed_cli_error (_("%s: the output must end in .glb, .gltf or .obj"), req->output);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (bytes == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);
  if (dfm == NULL)
    {
      mshed_cli_error ("%s: %s", req->input, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (mshed_dfm_get_n_levels (dfm) > 0 &&
      !mshed_cli_parse_count ("--level", req->level_text, 0, mshed_dfm_get_n_levels (dfm) - 1,
                              &level))
    return MSHED_CLI_EXIT_TROUBLE;
  if (!mshed_cli_check_output (req->output))
    return MSHED_CLI_EXIT_PROBLEMS;
  out = mshed_gltf_export_dfm (dfm, format, level, NULL, &stats, &error);
  if (out == NULL)
    {
      mshed_cli_error ("%s: %s", req->input, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  data = g_bytes_get_data (out, &size);
  if (!g_file_set_contents (req->output, data, (gssize) size, &error))
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (!req->quiet)
    printf (_("%s: %u levels, %u bones, %u hardpoints, %u triangles, %u materials, "
              "%zu bytes\n"), req->output, stats.levels, stats.bones, stats.hardpoints,
            stats.triangles, stats.materials, size);
  return MSHED_CLI_EXIT_OK;
}

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
  g_autofree char *level_text = NULL;
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
      N_("Write to FILE: .glb (binary glTF), .gltf (JSON with the data inside) or .obj "
         "(Wavefront OBJ, with FILE.mtl beside it)"), "FILE" },
    { "frame", 'f', 0, G_OPTION_ARG_STRING, &frame_text,
      N_("Pose every node as at frame N (default: the rest pose, each node's fallback key)"),
      "N" },
    { "lod", 'l', 0, G_OPTION_ARG_STRING, &lod_text,
      N_("The LOD each node shows, 0 to 2 (default 0); the others become child nodes"), "L" },
    { "group", 'g', 0, G_OPTION_ARG_STRING, &group_text,
      N_("The group each node shows, 0 to 4 (default 0)"), "G" },
    { "level", 0, 0, G_OPTION_ARG_STRING, &level_text,
      N_("A deformable model (.dfm): the level to write to OBJ, or the level listed first "
         "in glTF (default 0)"), "N" },
    { "no-animation", 0, 0, G_OPTION_ARG_NONE, &no_animation,
      N_("Leave the animation keys out"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing on success"), NULL },
    { NULL }
  };

  mshed_gltf_options_init (&options);
  context = mshed_cli_context_new ("FILE[:ENTRY] -o OUT.glb|OUT.gltf|OUT.obj",
                                   _("Export a model to glTF 2.0 for Blender and other "
                                     "tools: the node hierarchy and poses, one mesh per slot, "
                                     "materials by index and the animation keys. Or export "
                                     "one LOD and group of an MSH, or one level of a DFM, to "
                                     "Wavefront OBJ and its .mtl."), entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 2 || output == NULL)
    {
      mshed_cli_error (_("export needs one model and -o FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  lower = g_ascii_strdown (output, -1);
  if (g_str_has_suffix (lower, ".obj"))
    {
      ObjRequest req = { argv[1], output, lod_text, group_text, level_text, frame_text, quiet };

      return export_obj (&req);
    }
  if (mshed_cli_is_utf_file (argv[1]))
    {
      GltfDfmRequest req = { argv[1], output, level_text, quiet };

      if (lod_text || group_text || frame_text || no_animation)
        {
          mshed_cli_error (_("%s: --lod, --group, --frame and --no-animation are for MSH "
                             "models; a deformable model exports its levels in the bind pose"),
                           argv[1]);
          return MSHED_CLI_EXIT_TROUBLE;
        }
      return export_gltf_dfm (&req);
    }
  if (level_text)
    {
      mshed_cli_error (_("--level is for deformable models (.dfm), to glTF or OBJ"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_parse_count ("--lod", lod_text, 0, MSHED_N_LODS - 1, &options.lod) ||
      !mshed_cli_parse_count ("--group", group_text, 0, MSHED_N_GROUPS - 1, &options.group) ||
      !mshed_cli_parse_count ("--frame", frame_text, 0, G_MAXINT32, &options.frame))
    return MSHED_CLI_EXIT_TROUBLE;
  options.at_frame = frame_text != NULL;
  options.animations = !no_animation;
  if (!mshed_gltf_format_for_path (output, &options.format))
    {
      mshed_cli_error (_("%s: the output must end in .glb, .gltf or .obj"), output);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_check_output (output))
    return MSHED_CLI_EXIT_PROBLEMS;

  source = mshed_cli_open_model (argv[1], diags, &status);
  if (source == NULL)
    return status;
  bytes = mshed_gltf_export (source->model, &options, NULL, &stats, NULL);
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
