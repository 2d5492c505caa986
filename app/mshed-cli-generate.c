/* mshed-cli-generate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli generate: synthetic models and archives from model/mshed-generator.h.
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-dfm-generator.h"
#include "mshed-generator.h"

/* --dfm KIND: the deformable model kinds (four-level: the retail hands with four levels,
 * docs/dfm.md §3 and §10.3) */
static const struct {
  const char      *name;
  MshedDfmGenKind  kind;
  guint            n_levels;
} dfm_kinds[] = {
  { "head", MSHED_DFM_GEN_HEAD, 6 },
  { "body", MSHED_DFM_GEN_BODY, 6 },
  { "hand", MSHED_DFM_GEN_HAND, 6 },
  { "four-level", MSHED_DFM_GEN_HAND, 4 },
};

/* A deformable model from the DFM generator: the shape the seed picks with --random, else
 * six levels (four for four-level), no UV1 and no Edge data; the options apply on top. */
static GBytes *
generate_dfm (const char *kind_name,
              guint64     seed,
              gboolean    random_shape,
              guint       points,
              gboolean    uv1,
              gboolean    edges,
              guint      *n_levels)
{
  MshedDfmGenParams params;
  guint k;

  for (k = 0; k < G_N_ELEMENTS (dfm_kinds); k++)
    if (g_ascii_strcasecmp (kind_name, dfm_kinds[k].name) == 0)
      break;
  if (k == G_N_ELEMENTS (dfm_kinds))
    {
      mshed_cli_error (_("--dfm %s: the kinds are head, body, hand and four-level"), kind_name);
      return NULL;
    }
  if (random_shape)
    mshed_dfm_gen_params_init (&params, dfm_kinds[k].kind, seed);
  else
    {
      memset (&params, 0, sizeof params);
      params.seed = seed;
      params.kind = dfm_kinds[k].kind;
      params.n_levels = 6;
    }
  if (dfm_kinds[k].n_levels == 4)
    params.n_levels = 4;
  params.n_points = points ? points : params.n_points;
  params.uv1 |= uv1;
  params.edges |= edges;
  *n_levels = params.n_levels == 4 ? 4 : 6;
  return mshed_dfm_generate_bytes (&params);
}

int
mshed_cli_generate (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *output = NULL;
  g_autofree char *seed_text = NULL;
  g_autofree char *triangles_text = NULL;
  g_autofree char *nodes_text = NULL;
  g_autofree char *materials_text = NULL;
  g_autofree char *archive_text = NULL;
  g_autofree char *dfm = NULL;
  g_autofree char *points_text = NULL;
  gboolean animated = FALSE, legacy = FALSE, res18 = FALSE, cyrillic = FALSE;
  gboolean empty_names = FALSE, res17 = FALSE, random_shape = FALSE, quiet = FALSE;
  gboolean uv1 = FALSE, edges = FALSE;
  guint64 seed = 1;
  guint n_models = 0, triangles = 0, nodes = 0, materials = 0, points = 0, n_levels = 0;
  MshedGenParams params;
  const guint8 *data;
  gsize size;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE (“-” for standard output)"), "FILE" },
    { "seed", 's', 0, G_OPTION_ARG_STRING, &seed_text,
      N_("The seed every choice derives from (default 1)"), "N" },
    { "triangles", 't', 0, G_OPTION_ARG_STRING, &triangles_text,
      N_("Exact triangle count, 12 to 200000 (default 1000); with --archive, the most per "
         "model (default 3000)"), "N" },
    { "nodes", 'n', 0, G_OPTION_ARG_STRING, &nodes_text,
      N_("Number of nodes, 1 to 64 (default: picked from the seed)"), "N" },
    { "materials", 'm', 0, G_OPTION_ARG_STRING, &materials_text,
      N_("Number of materials, 1 to 16 (default: picked from the seed)"), "N" },
    { "animated", 'a', 0, G_OPTION_ARG_NONE, &animated,
      N_("Give some nodes animation tracks and a frame map"), NULL },
    { "legacy", 0, 0, G_OPTION_ARG_NONE, &legacy,
      N_("Use the legacy 24-byte node records"), NULL },
    { "res18", 0, 0, G_OPTION_ARG_NONE, &res18,
      N_("Add Res18 and Res20 (the second resource order)"), NULL },
    { "cyrillic", 0, 0, G_OPTION_ARG_NONE, &cyrillic,
      N_("Give node 0 and some others Cyrillic (Windows-1251) names"), NULL },
    { "empty-names", 0, 0, G_OPTION_ARG_NONE, &empty_names,
      N_("Give the last node and some others empty names"), NULL },
    { "res17", 0, 0, G_OPTION_ARG_NONE, &res17,
      N_("Put bytes into Res17 (empty otherwise)"), NULL },
    { "random", 'r', 0, G_OPTION_ARG_NONE, &random_shape,
      N_("Let the seed pick the shape as well (size, nodes, animation, names, …); the "
         "options above still apply on top"), NULL },
    { "archive", 0, 0, G_OPTION_ARG_STRING, &archive_text,
      N_("Write a game-like archive of N models (with WEAR and Texm entries) instead"), "N" },
    { "dfm", 0, 0, G_OPTION_ARG_STRING, &dfm,
      N_("Write a Freelancer deformable model (.dfm) of this kind instead: head, body, hand or "
         "four-level (a hand with four levels)"), "KIND" },
    { "points", 0, 0, G_OPTION_ARG_STRING, &points_text,
      N_("With --dfm: about N points in the most detailed level, 32 to 20000 (default: picked "
         "from the seed, 300 to 900)"), "N" },
    { "uv1", 0, 0, G_OPTION_ARG_NONE, &uv1,
      N_("With --dfm: a second texture coordinate set (UV1) on every level"), NULL },
    { "edges", 0, 0, G_OPTION_ARG_NONE, &edges,
      N_("With --dfm: Edge_indices and Edge_angles on the groups of the first level"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing on success"), NULL },
    { NULL }
  };

  context = mshed_cli_context_new ("-o FILE", _("Write a synthetic model, archive or "
                                                "Freelancer deformable model that passes "
                                                "strict validation. The output depends only "
                                                "on the options."), entries);
  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 1)
    {
      mshed_cli_error (_("unexpected argument “%s”"), argv[1]);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (output == NULL)
    {
      mshed_cli_error (_("name the output file with -o FILE"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (seed_text && !g_ascii_string_to_unsigned (seed_text, 10, 0, G_MAXUINT64, &seed, &error))
    {
      mshed_cli_error ("--seed %s: %s", seed_text, error->message);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_parse_count ("--triangles", triangles_text, MSHED_GEN_MIN_TRIANGLES,
                              MSHED_GEN_MAX_TRIANGLES, &triangles) ||
      !mshed_cli_parse_count ("--nodes", nodes_text, 1, MSHED_GEN_MAX_NODES, &nodes) ||
      !mshed_cli_parse_count ("--materials", materials_text, 1, MSHED_GEN_MAX_MATERIALS,
                              &materials) ||
      !mshed_cli_parse_count ("--archive", archive_text, 1, 10000, &n_models) ||
      !mshed_cli_parse_count ("--points", points_text, 32, 20000, &points))
    return MSHED_CLI_EXIT_TROUBLE;

  if (dfm && (triangles_text || nodes_text || materials_text || animated || legacy || res18 ||
              cyrillic || empty_names || res17 || archive_text))
    {
      mshed_cli_error (_("--dfm writes a deformable model; of the model options only --seed, "
                         "--random, --points, --uv1 and --edges apply"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (dfm == NULL && (points_text || uv1 || edges))
    {
      mshed_cli_error (_("--points, --uv1 and --edges shape a deformable model: use them with "
                         "--dfm KIND"));
      return MSHED_CLI_EXIT_TROUBLE;
    }

  if (n_models > 0 && (nodes_text || materials_text || animated || legacy || res18 ||
                       cyrillic || empty_names || res17 || random_shape))
    {
      mshed_cli_error (_("--archive picks every model's shape from the seed; only --seed "
                         "and --triangles apply"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_check_output (output))
    return MSHED_CLI_EXIT_PROBLEMS;

  if (dfm)
    {
      bytes = generate_dfm (dfm, seed, random_shape, points, uv1, edges, &n_levels);
      if (bytes == NULL)
        return MSHED_CLI_EXIT_TROUBLE;
    }
  else if (n_models > 0)
    {
      bytes = mshed_generate_archive_bytes (seed, n_models, triangles);
    }
  else
    {
      if (random_shape)
        mshed_gen_params_init_from_seed (&params, seed);
      else
        mshed_gen_params_init (&params, seed);
      if (triangles)
        params.n_triangles = triangles;
      if (nodes)
        params.n_nodes = nodes;
      if (materials)
        params.n_materials = materials;
      params.animated |= animated;
      params.legacy_nodes |= legacy;
      params.with_res18_20 |= res18;
      params.cyrillic_names |= cyrillic;
      params.empty_names |= empty_names;
      params.res17_data |= res17;
      bytes = mshed_generate_model_bytes (&params);
    }
  if (bytes == NULL)
    {
      mshed_cli_error (_("the generator produced nothing"));
      return MSHED_CLI_EXIT_PROBLEMS;
    }

  data = g_bytes_get_data (bytes, &size);
  if (strcmp (output, "-") == 0)
    {
      if (fwrite (data, 1, size, stdout) != size)
        {
          mshed_cli_error (_("cannot write to standard output"));
          return MSHED_CLI_EXIT_PROBLEMS;
        }
      fflush (stdout);
      return MSHED_CLI_EXIT_OK;
    }
  if (!g_file_set_contents (output, (const char *) data, (gssize) size, &error))
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (quiet)
    return MSHED_CLI_EXIT_OK;
  if (dfm)
    printf (_("%s: deformable model (%s) of %u levels, %zu bytes\n"), output, dfm, n_levels,
            size);
  else if (n_models > 0)
    printf (_("%s: archive of %u models, %zu bytes\n"), output, n_models, size);
  else
    printf (_("%s: model of %u triangles, %zu bytes\n"), output,
            CLAMP (params.n_triangles, MSHED_GEN_MIN_TRIANGLES, MSHED_GEN_MAX_TRIANGLES), size);
  return MSHED_CLI_EXIT_OK;
}
