/* mshed-cli-import.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli import: a glTF 2.0 file back into the model it was exported from
 * (model/mshed-gltf-import.h, docs/gltf.md §6), written atomically after the strict check.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "mshed-cli-private.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-import.h"

static void
print_stats (const char                 *output,
             const MshedGltfImportStats *s)
{
  guint total = s->renamed + s->reparented + s->deleted + s->positions + s->normals +
                s->uvs + s->keys + s->rebuilt + s->added;

  if (total == 0)
    {
      printf (_("%s: unchanged, the glTF holds the model as it is\n"), output);
      return;
    }
  printf (_("%s: %u nodes renamed, %u re-parented, %u deleted; %u positions, %u normals, "
            "%u texture coordinates and %u keys changed\n"), output, s->renamed,
          s->reparented, s->deleted, s->positions, s->normals, s->uvs, s->keys);
  if (s->rebuilt + s->added > 0)
    printf (_("%u slots rebuilt or added with their triangles, %u nodes added\n"), s->rebuilt,
            s->added);
  if (s->still_stale > 0)
    printf (_("%u derived values could not be recomputed and are stale "
              "(mshed-cli validate lists them)\n"), s->still_stale);
}

/* A document for the model built from @gltf (docs/gltf.md §6.1), without a file yet. */
static MshedDocument *
new_model (const MshedGltf  *gltf,
           GError          **error)
{
  g_autoptr(MshedNres) nres = mshed_gltf_build_model (gltf, error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;

  if (nres == NULL)
    return NULL;
  bytes = mshed_nres_build_canonical (nres);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, error);
  return model ? mshed_document_new_for_model (model, MSHED_MODE_STRICT) : NULL;
}

/* A DFM document: the one the export carries (docs/gltf.md §8.2), or one built from a skinned
 * glTF without extras (§8.4). */
static MshedDocument *
new_dfm (const MshedGltf  *gltf,
         GError          **error)
{
  g_autoptr(GBytes) bytes = mshed_gltf_is_dfm_export (gltf) ? mshed_gltf_dfm_source (gltf, error)
                                                            : mshed_gltf_build_dfm (gltf, error);
  g_autoptr(MshedUtf) utf = NULL;

  if (bytes == NULL || (utf = mshed_utf_parse (bytes, MSHED_MODE_TOLERANT, NULL, error)) == NULL)
    return NULL;
  return mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
}

/* import IN --into MODEL.dfm | -o OUT.dfm (docs/gltf.md §8.3) */
static int
import_dfm (const char *input,
            const char *into,
            const char *output,
            gboolean    force,
            gboolean    quiet)
{
  g_autoptr(MshedGltf) gltf = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  MshedGltfDfmImportStats stats = { 0 };

  gltf = mshed_gltf_read_file_skinned (input, &error);
  if (gltf == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  doc = into ? mshed_document_open (into, MSHED_MODE_STRICT, &error) : new_dfm (gltf, &error);
  if (doc == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return into ? mshed_cli_exit_status (error, MSHED_CLI_STEP_READ) : MSHED_CLI_EXIT_PROBLEMS;
    }
  if ((into || mshed_gltf_is_dfm_export (gltf)) &&
      !mshed_gltf_dfm_import_into (doc, gltf, NULL, &stats, &error))
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (!mshed_document_save_as (doc, output, force ? MSHED_SAVE_FLAGS_NONE : MSHED_SAVE_NO_BACKUP,
                               &error))
    {
      mshed_cli_error (_("%s: the model cannot be written: %s"), output, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (quiet)
    return MSHED_CLI_EXIT_OK;
  if (!into && !mshed_gltf_is_dfm_export (gltf))
    {
      MshedDfm *dfm = mshed_document_get_dfm (doc);
      MshedDfmLevel level = { 0 };

      mshed_dfm_get_level (dfm, 0, &level);
      printf (_("%s: a new deformable model of %u bones, %u face groups, %u vertices\n"),
              output, mshed_dfm_get_n_bones (dfm), level.n_groups, level.n_elements);
    }
  else if (stats.positions + stats.uvs + stats.normals + stats.skins + stats.groups +
           stats.materials + stats.added_elements + stats.removed_elements +
           stats.groups_added + stats.groups_removed == 0)
    printf (_("%s: unchanged, the glTF holds the model as it is\n"), output);
  else
    {
      printf (_("%s: %u points moved, %u texture coordinates changed, %u normals changed, "
                "%u points reweighted, %u face groups retriangulated, %u materials changed\n"),
              output, stats.positions, stats.uvs, stats.normals, stats.skins, stats.groups,
              stats.materials);
      if (stats.added_elements + stats.removed_elements > 0)
        printf (_("%s: %u elements and %u points added, %u elements and %u points removed\n"),
                output, stats.added_elements, stats.added_points, stats.removed_elements,
                stats.removed_points);
    }
  if (stats.groups_added + stats.groups_removed + stats.materials_added > 0)
    printf (_("%u face groups added, %u removed; %u materials added to the Material "
              "library\n"), stats.groups_added, stats.groups_removed, stats.materials_added);
  return MSHED_CLI_EXIT_OK;
}

int
mshed_cli_import (int    argc,
                  char **argv)
{
  g_autofree char *output = NULL, *into = NULL;
  gboolean force = FALSE, quiet = FALSE;
  GOptionEntry entries[] = {
    { "into", 0, 0, G_OPTION_ARG_FILENAME, &into,
      N_("The model the glTF was exported from (FILE or ARCHIVE:ENTRY); what changed in the "
         "glTF becomes edits of it. Without --into, the glTF becomes a new model"), "MODEL" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the model to OUT"), "OUT" },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force, N_("Allow OUT to be one of the inputs"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing on success"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    mshed_cli_context_new ("IN.glb|IN.gltf [--into MODEL[:ENTRY]] -o OUT",
                           _("Bring a glTF 2.0 file back into the model it was exported from: "
                             "renamed and re-parented nodes, moved vertices, changed normals, "
                             "texture coordinates, rest poses and animation keys become edits "
                             "of the model, and the derived data they make stale is "
                             "recomputed. An unchanged export gives the model back byte for "
                             "byte. Without --into, any glTF becomes a new model. The result "
                             "passes the strict check before it is written."),
                           entries);
  g_autoptr(MshedGltf) gltf = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  MshedGltfImportStats stats = { 0 };

  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 2 || output == NULL)
    {
      mshed_cli_error (_("import needs one glTF file and -o OUT"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!force && (mshed_cli_same_file (output, argv[1]) ||
                 (into && mshed_cli_same_file (output, into))))
    {
      mshed_cli_error (_("the output %s is an input; add --force to overwrite it"), output);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_check_output (output))
    return MSHED_CLI_EXIT_PROBLEMS;
  if (into ? mshed_cli_is_utf_file (into) : g_str_has_suffix (output, ".dfm") ||
                                            g_str_has_suffix (output, ".DFM"))
    return import_dfm (argv[1], into, output, force, quiet);
  gltf = mshed_gltf_read_file (argv[1], &error);
  if (gltf == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  if (into == NULL)
    {
      doc = new_model (gltf, &error);
      if (doc == NULL)
        {
          mshed_cli_error ("%s", error->message);
          return MSHED_CLI_EXIT_PROBLEMS;
        }
    }
  else
    {
      doc = mshed_document_open (into, MSHED_MODE_STRICT, &error);
      if (doc == NULL)
        {
          mshed_cli_error ("%s", error->message);
          return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
        }
      if (!mshed_gltf_import_into (doc, gltf, NULL, &stats, &error))
        {
          mshed_cli_error ("%s", error->message);
          return MSHED_CLI_EXIT_PROBLEMS;
        }
    }
  if (!mshed_document_save_as (doc, output, force ? MSHED_SAVE_FLAGS_NONE : MSHED_SAVE_NO_BACKUP,
                               &error))
    {
      mshed_cli_error (_("%s: the model cannot be written: %s"), output, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (quiet)
    return MSHED_CLI_EXIT_OK;
  if (into)
    print_stats (output, &stats);
  else
    {
      MshedModel *model = mshed_document_get_model (doc);

      printf (_("%s: a new model of %u nodes, %u slots, %u batches, %u vertices\n"), output,
              mshed_model_get_n_rows (model, MSHED_TABLE_NODES),
              mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS),
              mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES),
              mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS));
    }
  return MSHED_CLI_EXIT_OK;
}
