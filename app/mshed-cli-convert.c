/* mshed-cli-convert.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli convert: a Freelancer deformable model to a Parkan MSH model (with its WEAR table
 * beside it) or back (model/mshed-convert.h, docs/dfm.md §16–17). The input must pass the
 * strict check, the result is checked strictly before it is written, and what the target
 * format cannot hold is printed with counts (or as JSON).
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-convert.h"
#include "mshed-dfm-validate.h"
#include "mshed-dfm.h"
#include "mshed-validate.h"

typedef struct {
  const char *input;
  const char *output;
  char       *wear_path;     /* DFM -> MSH: written beside OUT; MSH -> DFM: read */
  const char *template_path; /* DFM -> MSH: the model Res9/15/17 and unknowns come from */
  gboolean    json;
  gboolean    quiet;
} Request;

/* OUT.msh -> OUT.wea (the suffix's case kept); any other name gets .wea appended. */
static char *
wear_path_for (const char *output)
{
  gsize len = strlen (output);

  if (len > 4 && g_ascii_strcasecmp (output + len - 4, ".msh") == 0)
    {
      g_autofree char *stem = g_strndup (output, len - 4);

      return g_strconcat (stem, g_ascii_isupper (output[len - 1]) ? ".WEA" : ".wea", NULL);
    }
  return g_strconcat (output, ".wea", NULL);
}

/* The first finding of @diags at @severity or above, or NULL when it has none. */
static const MshedDiagnostic *
first_problem (const MshedDiagnostics *diags,
               MshedSeverity           severity)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    if (mshed_diagnostics_get (diags, i)->severity >= severity)
      return mshed_diagnostics_get (diags, i);
  return NULL;
}

static void
print_report (const Request            *req,
              const MshedConvertReport *r,
              const char               *wear_written)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *triangles = NULL;

  if (req->json)
    {
      g_string_append (out, "{\"output\": ");
      mshed_cli_json_string (out, req->output);
      if (wear_written)
        {
          g_string_append (out, ", \"wear\": ");
          mshed_cli_json_string (out, wear_written);
        }
      g_string_append_printf (out, ", \"nodes\": %u, \"levels\": %u, \"triangles\": %"
                              G_GUINT64_FORMAT ", \"materials\": %u, \"lost\": [",
                              r->nodes, r->levels, r->triangles, r->materials);
      for (guint i = 0; i < r->losses->len; i++)
        {
          const MshedConvertLoss *l = &g_array_index (r->losses, MshedConvertLoss, i);

          g_string_append_printf (out, "%s{\"id\": \"%s\", \"count\": %" G_GUINT64_FORMAT
                                  ", \"what\": ", i ? ", " : "", l->id, l->count);
          mshed_cli_json_string (out, l->what);
          g_string_append (out, "}");
        }
      g_string_append (out, "]}\n");
      fputs (out->str, stdout);
      return;
    }
  if (req->quiet)
    return;
  triangles = g_strdup_printf ("%" G_GUINT64_FORMAT, r->triangles);
  if (wear_written)
    {
      g_string_append_printf (out, _("%s: %u nodes, %u distinct LOD slots per node, %s "
                                     "triangles\n"), req->output, r->nodes, r->levels,
                              triangles);
      g_string_append_printf (out, _("%s: the WEAR table of %u materials\n"), wear_written,
                              r->materials);
      /* docs/dfm.md §16 "In mshed": the MSH conventions are unmeasured (msh.md §12) */
      g_string_append (out, _("Triangles keep the DFM's winding and axes: which winding and "
                               "axes MSH uses is not yet measured on game files\n"));
    }
  else
    g_string_append_printf (out, _("%s: %u bones, %u levels, %s triangles, %u materials\n"),
                            req->output, r->nodes, r->levels, triangles, r->materials);
  if (r->losses->len > 0)
    g_string_append (out, _("Not carried over:\n"));
  for (guint i = 0; i < r->losses->len; i++)
    {
      const MshedConvertLoss *l = &g_array_index (r->losses, MshedConvertLoss, i);

      g_string_append_printf (out, "  %8" G_GUINT64_FORMAT "  %s\n", l->count, l->what);
    }
  fputs (out->str, stdout);
}

static gboolean
write_file (const char *path,
            GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);

  if (g_file_set_contents (path, data ? data : "", (gssize) size, &error))
    return TRUE;
  mshed_cli_error (_("%s: cannot be written: %s"), path, error->message);
  return FALSE;
}

/* The template model of --template: it must pass the strict check (docs/dfm.md §16). */
static MshedSource *
open_template (const char *path,
               int        *status)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedSource) source = mshed_cli_open_model (path, NULL, status);

  if (source == NULL)
    return NULL;
  if (!mshed_validate_model (source->model, MSHED_MODE_STRICT, diags) || diags->n_errors > 0)
    {
      mshed_cli_error (_("%s: the template model fails the strict check (%s); “mshed-cli "
                         "validate” lists the problems"), path,
                       first_problem (diags, MSHED_SEVERITY_ERROR)->message);
      *status = MSHED_CLI_EXIT_PROBLEMS;
      return NULL;
    }
  return g_steal_pointer (&source);
}

static int
dfm_to_msh (const Request    *req,
            MshedConvertMode  mode)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (req->input, &error);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedDfm) dfm = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autoptr(GBytes) out = NULL, wear = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(MshedSource) templ = NULL;
  g_autofree char *wear_path = wear_path_for (req->output);
  MshedConvertReport report;
  const MshedDiagnostic *problem;
  int status = MSHED_CLI_EXIT_OK;

  if (bytes == NULL)
    {
      mshed_cli_error ("%s", error->message);
      return mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
    }
  dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, &error);
  if (dfm == NULL || !mshed_dfm_validate (dfm, MSHED_MODE_STRICT, diags) ||
      diags->n_errors > 0)
    {
      mshed_cli_error (_("%s: the deformable model fails the strict check (%s); "
                         "“mshed-cli validate” lists the problems"), req->input,
                       error ? error->message
                             : first_problem (diags, MSHED_SEVERITY_ERROR)->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (!mshed_cli_check_output (wear_path))
    return MSHED_CLI_EXIT_PROBLEMS;
  if (req->template_path && (templ = open_template (req->template_path, &status)) == NULL)
    return status;
  mshed_convert_report_init (&report);
  nres = mshed_convert_dfm_to_msh (dfm, req->input, mode, &wear, &report, &error);
  if (nres && !mshed_convert_apply_template (nres, templ ? templ->model : NULL,
                                             req->template_path, &report, &error))
    g_clear_pointer (&nres, mshed_nres_unref);
  if (nres == NULL)
    {
      mshed_cli_error (_("cannot convert: %s"), error->message);
      mshed_convert_report_clear (&report);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  out = mshed_nres_build_canonical (nres);
  mshed_diagnostics_clear (diags);
  model = mshed_model_new_from_bytes (out, MSHED_MODE_STRICT, diags, &error);
  if (model)
    mshed_validate_model (model, MSHED_MODE_STRICT, diags);
  problem = first_problem (diags, MSHED_SEVERITY_WARNING);
  if (model == NULL || problem)
    {
      mshed_cli_error (_("%s: the converted model fails the strict check: %s"), req->output,
                       model ? problem->message : error->message);
      status = MSHED_CLI_EXIT_PROBLEMS;
    }
  else if (write_file (req->output, out) && write_file (wear_path, wear))
    print_report (req, &report, wear_path);
  else
    status = MSHED_CLI_EXIT_PROBLEMS;
  mshed_convert_report_clear (&report);
  return status;
}

/* The WEAR table of the model: --wear FILE, else FILE.wea beside a loose FILE.msh. */
static GBytes *
load_wear (const Request *req,
           int           *status)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL, *entry = NULL, *beside = NULL;
  GBytes *bytes;

  *status = MSHED_CLI_EXIT_OK;
  if (req->wear_path)
    {
      bytes = mshed_load_file (req->wear_path, &error);
      if (bytes == NULL)
        {
          mshed_cli_error ("%s", error->message);
          *status = mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
        }
      return bytes;
    }
  mshed_split_spec (req->input, &path, &entry);
  if (entry != NULL)
    return NULL;
  beside = wear_path_for (path);
  return g_file_test (beside, G_FILE_TEST_IS_REGULAR) ? mshed_load_file (beside, NULL) : NULL;
}

static int
msh_to_dfm (const Request *req)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedSource) source = NULL;
  g_autoptr(GBytes) wear = NULL, out = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedDfm) dfm = NULL;
  MshedConvertReport report;
  const MshedDiagnostic *problem;
  int status;

  source = mshed_cli_open_model (req->input, NULL, &status);
  if (source == NULL)
    return status;
  if (!mshed_validate_model (source->model, MSHED_MODE_STRICT, diags))
    {
      mshed_cli_error (_("%s: the model fails the strict check (%s); “mshed-cli validate” "
                         "lists the problems"), req->input,
                       first_problem (diags, MSHED_SEVERITY_ERROR)->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  wear = load_wear (req, &status);
  if (status != MSHED_CLI_EXIT_OK)
    return status;
  mshed_convert_report_init (&report);
  utf = mshed_convert_msh_to_dfm (source->model, req->input, wear, &report, &error);
  if (utf == NULL)
    {
      mshed_cli_error (_("cannot convert: %s"), error->message);
      mshed_convert_report_clear (&report);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
  mshed_diagnostics_clear (diags);
  dfm = mshed_dfm_new_from_bytes (out, MSHED_MODE_STRICT, diags, &error);
  if (dfm)
    mshed_dfm_validate (dfm, MSHED_MODE_STRICT, diags);
  problem = first_problem (diags, MSHED_SEVERITY_WARNING);
  status = MSHED_CLI_EXIT_PROBLEMS;
  if (dfm == NULL || problem)
    mshed_cli_error (_("%s: the converted model fails the strict check: %s"), req->output,
                     dfm ? problem->message : error->message);
  else if (write_file (req->output, out))
    {
      print_report (req, &report, NULL);
      status = MSHED_CLI_EXIT_OK;
    }
  mshed_convert_report_clear (&report);
  return status;
}

int
mshed_cli_convert (int    argc,
                   char **argv)
{
  g_autofree char *mode_text = NULL, *wear = NULL, *templ = NULL;
  gboolean json = FALSE, quiet = FALSE, force = FALSE;
  GOptionEntry entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode_text,
      N_("DFM to MSH: “static” (one node, the exact bind-pose shape; the default) or “rigid” "
         "(one node per bone, each triangle on the bone that weighs most)"), "MODE" },
    { "wear", 0, 0, G_OPTION_ARG_FILENAME, &wear,
      N_("MSH to DFM: the model's WEAR material table (default: IN.wea beside IN)"), "FILE" },
    { "template", 0, 0, G_OPTION_ARG_FILENAME, &templ,
      N_("DFM to MSH: copy Res9, Res15, Res17 and the unknown fields from this retail-like "
         "model"), "MODEL" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the report as JSON"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force, N_("Allow OUT to be the input"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print nothing on success"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    mshed_cli_context_new ("IN OUT",
                           _("Convert a Freelancer deformable model (.dfm) to a Parkan model "
                             "(.msh, with its WEAR table beside it as .wea), or a model to a "
                             "deformable model, as docs/dfm.md §16–17 design it. The input "
                             "must pass the strict check and so does the result; what the "
                             "target format cannot hold is listed with counts."),
                           entries);
  Request req = { 0 };
  MshedConvertMode mode = MSHED_CONVERT_STATIC;
  gboolean from_dfm;
  int status;

  if (!mshed_cli_parse (context, &argc, &argv))
    return MSHED_CLI_EXIT_TROUBLE;
  if (argc != 3)
    {
      mshed_cli_error (_("convert needs an input and an output file"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (mode_text && strcmp (mode_text, "rigid") == 0)
    mode = MSHED_CONVERT_RIGID;
  else if (mode_text && strcmp (mode_text, "static") != 0)
    {
      mshed_cli_error (_("unknown --mode “%s”: use static or rigid"), mode_text);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  req.input = argv[1];
  req.output = argv[2];
  req.wear_path = wear;
  req.template_path = templ;
  req.json = json;
  req.quiet = quiet;
  from_dfm = mshed_cli_is_utf_file (req.input);
  if (from_dfm && wear)
    {
      mshed_cli_error (_("--wear is for MSH input; a deformable model's WEAR table is written "
                         "beside OUT"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!from_dfm && templ)
    {
      mshed_cli_error (_("--template is for deformable model input (.dfm)"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!from_dfm && mode_text)
    {
      mshed_cli_error (_("--mode is for deformable model input (.dfm); an MSH model becomes "
                         "one bone per node"));
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!force && mshed_cli_same_file (req.output, req.input))
    {
      mshed_cli_error (_("the output %s is the input; add --force to overwrite it"), req.output);
      return MSHED_CLI_EXIT_TROUBLE;
    }
  if (!mshed_cli_check_output (req.output))
    return MSHED_CLI_EXIT_PROBLEMS;
  status = from_dfm ? dfm_to_msh (&req, mode) : msh_to_dfm (&req);
  return status;
}
