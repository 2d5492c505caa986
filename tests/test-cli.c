/* test-cli.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the built mshed-cli ($MSHED_CLI) on generated files and checks exit statuses, what
 * goes to stdout and stderr, and the bytes it writes. Expected values come from the library
 * (generator, schema, model accessors), never from the CLI itself.
 */
#define _XOPEN_SOURCE 700  /* symlink() beside ISO C11 (c_std=c11) */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mshed-bytes.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-schema.h"
#include "test-cli-util.h"

static void
gen_params (MshedGenParams *params)
{
  mshed_gen_params_init (params, 7);
  params->n_triangles = 240;
  params->n_nodes = 6;
  params->animated = TRUE;
  params->cyrillic_names = TRUE;
  params->with_res18_20 = TRUE;
}

/* model.msh: the model of gen_params(); arc.rlb: an archive holding it as "Tank.msh" after a
 * non-model entry. Written once. */
static void
ensure_fixtures (void)
{
  g_autofree char *model_path = path_in_tmp ("model.msh");
  g_autofree char *archive_path = path_in_tmp ("arc.rlb");
  g_autoptr(GBytes) model = NULL;
  g_autoptr(MshedNres) archive = NULL;
  g_autoptr(GBytes) archive_bytes = NULL;
  g_autoptr(GBytes) text = g_bytes_new_static ("hello", 5);
  MshedNresEntry templ = { 0 };
  MshedGenParams params;

  if (g_file_test (model_path, G_FILE_TEST_EXISTS))
    return;
  gen_params (&params);
  model = mshed_generate_model_bytes (&params);
  write_file (model_path, model);

  archive = mshed_nres_new ();
  templ.type_id = 0x54584554;  /* "TEXT" */
  strcpy ((char *) templ.name, "readme.txt");
  mshed_nres_insert_entry (archive, G_MAXUINT, &templ, text);
  memset (&templ, 0, sizeof templ);
  strcpy ((char *) templ.name, "Tank.msh");
  mshed_nres_insert_entry (archive, G_MAXUINT, &templ, model);
  archive_bytes = mshed_nres_build_canonical (archive);
  write_file (archive_path, archive_bytes);
}

/* Tests ---------------------------------------------------------------------------------- */

static void
test_usage (void)
{
  g_auto(Run) run = { 0 };

  run_cli (&run, "--help", NULL);
  g_assert_cmpint (run.status, ==, 0);
  for (const char *const *c = (const char *const[]) { "info", "validate", "roundtrip", "dump",
                                                      "ls", "extract", "generate", NULL };
       *c; c++)
    g_assert_nonnull (strstr (run.out, *c));

  run_cli (&run, "--version", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, PACKAGE_VERSION));

  run_cli (&run, "frobnicate", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "frobnicate"));
  g_assert_cmpstr (run.out, ==, "");

  run_cli (&run, "info", NULL);
  g_assert_cmpint (run.status, ==, 2);

  run_cli (&run, "dump", "--bogus", "x", NULL);
  g_assert_cmpint (run.status, ==, 2);

  run_cli (&run, "validate", "--help", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "--tolerant"));
}

static void
test_info (void)
{
  g_auto(Run) run = { 0 };
  g_autofree char *model_path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GRegex) tri = NULL;
  g_autofree char *expect = NULL;
  guint64 triangles = 0;

  ensure_fixtures ();
  model_path = path_in_tmp ("model.msh");
  bytes = read_file (model_path);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (model);
  for (guint i = 0; i < mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES); i++)
    {
      MshedBatch b;

      g_assert_true (mshed_model_get_batch (model, i, &b));
      triangles += b.index_count / 3;
    }
  g_assert_cmpuint (triangles, ==, 240);

  run_cli (&run, "info", "model.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^ +triangles +240$", run.out, G_REGEX_MULTILINE, 0));
  expect = g_strdup_printf ("^ +frames +%u$", mshed_model_get_frame_count (model));
  g_assert_true (g_regex_match_simple (expect, run.out, G_REGEX_MULTILINE, 0));
  g_clear_pointer (&expect, g_free);
  expect = g_strdup_printf ("^ +slots +%u$", mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS));
  g_assert_true (g_regex_match_simple (expect, run.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +nodes +6$", run.out, G_REGEX_MULTILINE, 0));
  g_assert_nonnull (strstr (run.out, "canonical layout"));
  /* every resource has a row: index, type, size, attr1..3 */
  for (guint i = 0; i < mshed_nres_get_n_entries (mshed_model_get_nres (model)); i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (mshed_model_get_nres (model), i);
      g_autofree char *row = g_strdup_printf ("^ +%u +%u +%" G_GSIZE_FORMAT " +%u +%u +%u ",
                                              i, e->type_id, mshed_nres_entry_get_size (e),
                                              e->attr1, e->attr2, e->attr3);

      g_assert_true (g_regex_match_simple (row, run.out, G_REGEX_MULTILINE, 0));
    }

  run_cli (&run, "info", "arc.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "archive, 1 nested models"));

  run_cli (&run, "info", "arc.rlb:tank.MSH", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Entry:       Tank.msh"));
  g_assert_true (g_regex_match_simple ("^ +triangles +240$", run.out, G_REGEX_MULTILINE, 0));

  run_cli (&run, "info", "arc.rlb:nothing.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "nothing.msh"));
}

/* @bytes without its first entry of type @type, canonical again */
static GBytes *
without_type (GBytes  *bytes,
              guint32  type)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
  gint index;

  g_assert_nonnull (nres);
  index = mshed_nres_find_type (nres, type);
  g_assert_cmpint (index, >=, 0);
  mshed_nres_remove_entry (nres, (guint) index);
  return mshed_nres_build_canonical (nres);
}

/* A loose model that lacks one of the required types 1, 2, 3, 6, 13 is still a model: strict
 * validation reports missing-type for it (docs/msh.md §2, §9.1), as for a nested model, and info
 * shows a model, not "archive, 0 models". */
static void
test_missing_type (void)
{
  static const guint32 required[] = { 1, 2, 3, 6, 13 };
  g_autoptr(GBytes) model = NULL;

  ensure_fixtures ();
  model = read_file ("model.msh");
  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    {
      g_auto(Run) run = { 0 };
      g_autoptr(GBytes) broken = without_type (model, required[i]);
      g_autofree char *name = g_strdup_printf ("no-res%u.msh", required[i]);
      g_autofree char *line = NULL;
      g_autofree char *missing = NULL;
      g_autoptr(JsonNode) root = NULL;
      JsonObject *doc, *d, *file, *summary;
      JsonArray *diags;

      g_test_message ("without Res%u", required[i]);
      write_file (name, broken);

      run_cli (&run, "validate", name, NULL);
      g_assert_cmpint (run.status, ==, 1);
      line = g_strdup_printf ("%s: error: Res%u ", name, required[i]);
      g_assert_true (g_str_has_prefix (run.out, line));
      g_assert_nonnull (strstr (run.out, "[missing-type"));
      g_assert_nonnull (strstr (run.out, "1 file, 1 model: 1 error, 0 warnings"));

      /* a missing type is an error in tolerant mode too: nothing can stand in for it */
      run_cli (&run, "validate", "--tolerant", name, NULL);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_nonnull (strstr (run.out, "[missing-type"));

      run_cli (&run, "validate", "--json", name, NULL);
      g_assert_cmpint (run.status, ==, 1);
      root = parse_json (run.out);
      doc = json_node_get_object (root);
      diags = json_object_get_array_member (doc, "diagnostics");
      g_assert_cmpuint (json_array_get_length (diags), ==, 1);
      d = json_array_get_object_element (diags, 0);
      g_assert_cmpstr (json_object_get_string_member (d, "check"), ==, "missing-type");
      g_assert_cmpstr (json_object_get_string_member (d, "severity"), ==, "error");
      g_assert_cmpint (json_object_get_int_member (d, "res_type"), ==, required[i]);
      g_assert_cmpstr (json_object_get_string_member (d, "file"), ==, name);
      g_assert_true (json_object_get_null_member (d, "entry"));
      file = json_array_get_object_element (json_object_get_array_member (doc, "files"), 0);
      g_assert_cmpint (json_object_get_int_member (file, "models"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (file, "errors"), ==, 1);
      summary = json_object_get_object_member (doc, "summary");
      g_assert_cmpint (json_object_get_int_member (summary, "models"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (summary, "errors"), ==, 1);

      run_cli (&run, "info", name, NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_true (g_regex_match_simple ("^Kind: +model", run.out, G_REGEX_MULTILINE, 0));
      g_assert_null (strstr (run.out, "archive"));
      missing = g_strdup_printf ("Missing:     Res%u (", required[i]);
      g_assert_nonnull (strstr (run.out, missing));
      g_assert_nonnull (strstr (run.out, "Validation:  1 errors"));

      /* the table of a missing resource has no rows (not "node records of 0 bytes") */
      if (required[i] == 1)
        {
          run_cli (&run, "dump", name, "-t", "nodes", "--json", NULL);
          g_assert_cmpint (run.status, ==, 0);
          g_clear_pointer (&root, json_node_unref);
          root = parse_json (run.out);
          g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "rows"),
                           ==, 0);
          run_cli (&run, "dump", name, "-t", "nodes", NULL);
          g_assert_null (strstr (run.out, "Node records of"));
        }
    }
}

/* Writes an NRes of entries (type, name) with small payloads. */
static void
write_directory (const char    *file,
                 const guint32 *types,
                 const char *const *names,
                 guint          n)
{
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  g_autoptr(GBytes) bytes = NULL;

  for (guint i = 0; i < n; i++)
    mshed_nres_append_entry (nres, types[i], 0, 0, 0, names[i], "12345678", 8);
  bytes = mshed_nres_build_canonical (nres);
  write_file (file, bytes);
}

/* Nested models are the entries named *.msh whose payload is NRes (docs/nres.md §10), whatever the
 * inner directory holds: ls marks exactly those that ARCHIVE:ENTRY opens as models. */
static void
test_nested_kind (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(MshedNres) inner = mshed_nres_new ();
  g_autoptr(MshedNres) outer = mshed_nres_new ();
  g_autoptr(GBytes) inner_bytes = NULL;
  g_autoptr(GBytes) outer_bytes = NULL;
  g_autoptr(GBytes) model = NULL;

  ensure_fixtures ();
  model = read_file ("model.msh");
  mshed_nres_append_entry (inner, 0x52414557 /* WEAR */, 0, 0, 0, "A.WEA", "12345678", 8);
  inner_bytes = mshed_nres_build_canonical (inner);
  mshed_nres_append_entry (outer, 0, 0, 0, 0, "Good.msh", g_bytes_get_data (model, NULL),
                           g_bytes_get_size (model));
  mshed_nres_append_entry (outer, 0, 0, 0, 0, "Text.msh", "not NRes", 8);
  mshed_nres_append_entry (outer, 0, 0, 0, 0, "Odd.msh", g_bytes_get_data (inner_bytes, NULL),
                           g_bytes_get_size (inner_bytes));
  outer_bytes = mshed_nres_build_canonical (outer);
  write_file ("nested.rlb", outer_bytes);

  run_cli (&run, "ls", "nested.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_regex_match_simple (" Good\\.msh +model$", run.out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple (" Text\\.msh +broken model$", run.out,
                                       G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple (" Odd\\.msh +model$", run.out, G_REGEX_MULTILINE, 0));

  run_cli (&run, "info", "nested.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "archive, 2 nested models"));

  /* what ls calls a model opens as one, and lacks every required type */
  run_cli (&run, "info", "nested.rlb:Odd.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Missing:     Res1, Res2, Res3, Res6, Res13 ("));
}

/* Model or archive, decided from the directory (mshed_nres_looks_like_model) */
static void
test_kind (void)
{
  static const struct {
    const char *file;
    guint32     types[3];
    const char *names[3];
    guint       n;
    gboolean    model;
  } cases[] = {
    /* model resource types only: a model, however incomplete */
    { "k-model.msh", { 3, 12, 20 }, { "Res3", "Res12", "Res20" }, 3, TRUE },
    /* FourCC types: an archive of materials */
    { "k-wear.lib", { 0x52414557, 0x6D786554 }, { "A.WEA", "A.TX" }, 2, FALSE },
    /* an entry named *.msh is a nested model, whatever its type */
    { "k-nested.rlb", { 3, 6 }, { "Res3", "TANK.MSH" }, 2, FALSE },
    /* terrain types (docs/msh.md §2) are not model types */
    { "k-terrain.msh", { 3, 11, 21 }, { "a", "b", "c" }, 3, FALSE },
    /* type 0 */
    { "k-zero.msh", { 1, 0 }, { "Res1", "x" }, 2, FALSE },
    /* no entries at all: an empty archive */
    { "k-empty.msh", { 0 }, { NULL }, 0, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(Run) run = { 0 };

      g_test_message ("%s", cases[i].file);
      write_directory (cases[i].file, cases[i].types, cases[i].names, cases[i].n);
      run_cli (&run, "info", cases[i].file, NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_true (g_regex_match_simple (cases[i].model ? "^Kind: +model" : "^Kind: +archive",
                                           run.out, G_REGEX_MULTILINE, 0));
      run_cli (&run, "validate", cases[i].file, NULL);
      if (cases[i].model)
        {
          g_assert_cmpint (run.status, ==, 1);
          g_assert_nonnull (strstr (run.out, "[missing-type"));
          g_assert_nonnull (strstr (run.out, "1 file, 1 model:"));
        }
      else
        {
          g_assert_null (strstr (run.out, "missing-type"));
          g_assert_true (strstr (run.out, "1 file, 0 models:") ||
                         strstr (run.out, "1 file, 1 model:"));
        }
    }
}

static void
test_validate_clean (void)
{
  g_auto(Run) run = { 0 };
  g_autofree char *legacy = path_in_tmp ("legacy.msh");
  g_autofree char *gen_archive = path_in_tmp ("gen.rlb");

  ensure_fixtures ();
  run_cli (&run, "generate", "--seed", "3", "--legacy", "--triangles", "50", "-o", legacy, NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_cli (&run, "generate", "--seed", "5", "--archive", "4", "--triangles", "500",
           "-o", gen_archive, NULL);
  g_assert_cmpint (run.status, ==, 0);

  run_cli (&run, "validate", "model.msh", "arc.rlb", "gen.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "3 files, 6 models: 0 errors, 0 warnings"));

  run_cli (&run, "validate", "--tolerant", "arc.rlb:Tank.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "1 file, 1 model: 0 errors, 0 warnings"));

  /* the legacy node layout is a note, not a problem */
  run_cli (&run, "validate", "legacy.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "legacy-nodes"));
  g_assert_nonnull (strstr (run.out, "0 errors, 0 warnings"));

  /* the bundled sample */
  if (g_getenv ("MSHED_SAMPLE"))
    {
      run_cli (&run, "validate", g_getenv ("MSHED_SAMPLE"), NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "1 file, 1 model: 0 errors, 0 warnings"));
    }
}

static void
test_validate_defect (void)
{
  g_auto(Run) run = { 0 };
  g_autofree char *model_path = NULL;
  g_autofree char *bad_path = path_in_tmp ("bad.msh");
  g_autofree char *bad_archive_path = path_in_tmp ("bad.rlb");
  g_autoptr(GBytes) good = NULL;
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(GBytes) bad_archive = NULL;
  g_autoptr(GBytes) archive_bytes = NULL;
  g_autoptr(MshedNres) archive = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *offset_text = NULL;
  const MshedField *field;
  JsonArray *diags;
  JsonObject *d = NULL;
  guint32 res2;
  guint64 expect_offset;

  ensure_fixtures ();
  model_path = path_in_tmp ("model.msh");
  good = read_file (model_path);
  /* slot 1's batchCount far past the batch table */
  res2 = resource_offset (good, 2);
  field = mshed_schema_find_field (mshed_schema_get_table (MSHED_TABLE_SLOTS), "batchCount");
  g_assert_nonnull (field);
  bad = patch_u16 (good, res2 + 140 + 68 + field->offset, 9000);
  write_file (bad_path, bad);

  run_cli (&run, "validate", "bad.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (g_str_has_prefix (run.out, "bad.msh: error: "));
  g_assert_nonnull (strstr (run.out, "slot-batch-range"));
  g_assert_nonnull (strstr (run.out, "slot 1"));
  g_assert_nonnull (strstr (run.out, "Res2"));
  g_assert_nonnull (strstr (run.out, "1 file, 1 model: 1 error"));

  /* tolerant: the same error (one classification), plus what a tolerant reader drops */
  run_cli (&run, "validate", "--tolerant", "bad.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "bad.msh: error: "));
  g_assert_nonnull (strstr (run.out, "slot-batch-range"));
  g_assert_nonnull (strstr (run.out, "ignored"));

  /* JSON names the resource, the record and the field */
  run_cli (&run, "validate", "--json", "bad.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  check_json_with_python (run.out);
  root = parse_json (run.out);
  diags = json_object_get_array_member (json_node_get_object (root), "diagnostics");
  for (guint i = 0; i < json_array_get_length (diags) && d == NULL; i++)
    {
      JsonObject *o = json_array_get_object_element (diags, i);

      if (g_strcmp0 (json_object_get_string_member (o, "check"), "slot-batch-range") == 0)
        d = o;
    }
  g_assert_nonnull (d);
  g_assert_cmpstr (json_object_get_string_member (d, "severity"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (d, "file"), ==, "bad.msh");
  g_assert_cmpint (json_object_get_int_member (d, "res_type"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (d, "res_index"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (d, "table"), ==, "slots");
  g_assert_cmpint (json_object_get_int_member (d, "record"), ==, 1);
  g_assert_false (json_object_get_null_member (d, "field"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (d, "field"), "batch"));
  g_assert_true (json_object_get_null_member (d, "entry"));
  /* the offset points into slot 1 */
  expect_offset = json_object_get_int_member (d, "offset");
  g_assert_cmpuint (expect_offset, >=, res2 + 140 + 68);
  g_assert_cmpuint (expect_offset, <, res2 + 140 + 2 * 68);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (
                     json_node_get_object (root), "summary"), "errors"), ==, 1);
  g_clear_pointer (&root, json_node_unref);

  /* the same defect inside an archive: named by entry, offset from the outer file start */
  archive_bytes = read_file ("arc.rlb");
  archive = mshed_nres_parse (archive_bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (archive);
  mshed_nres_set_payload (archive, 1, bad);
  bad_archive = mshed_nres_serialize (archive, NULL);
  write_file (bad_archive_path, bad_archive);

  run_cli (&run, "validate", "--json", "bad.rlb", NULL);
  g_assert_cmpint (run.status, ==, 1);
  root = parse_json (run.out);
  diags = json_object_get_array_member (json_node_get_object (root), "diagnostics");
  g_assert_cmpuint (json_array_get_length (diags), ==, 1);
  d = json_array_get_object_element (diags, 0);
  g_assert_cmpstr (json_object_get_string_member (d, "entry"), ==, "Tank.msh");
  g_assert_cmpstr (json_object_get_string_member (d, "check"), ==, "slot-batch-range");
  g_assert_cmpint (json_object_get_int_member (d, "offset"), ==,
                   expect_offset + mshed_nres_peek_entry (archive, 1)->data_offset);

  run_cli (&run, "validate", "bad.rlb", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "bad.rlb: error: Tank.msh: "));
  offset_text = g_strdup_printf ("offset 0x%" G_GINT64_MODIFIER "X",
                                 expect_offset + mshed_nres_peek_entry (archive, 1)->data_offset);
  g_assert_nonnull (strstr (run.out, offset_text));

  run_cli (&run, "validate", "bad.rlb:Tank.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "slot-batch-range"));

  /* a named file that is not NRes at all is a finding, not a crash */
  g_assert_true (write_text ("plain.txt", "plain text, longer than a header"));
  run_cli (&run, "validate", "plain.txt", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "nres-magic"));
}

static void
test_validate_unreadable (void)
{
  g_auto(Run) run = { 0 };
  g_autofree char *dir = path_in_tmp ("tree");
  g_autofree char *sub = path_in_tmp ("tree/sub");
  g_autofree char *a = path_in_tmp ("tree/a.msh");
  g_autofree char *b = path_in_tmp ("tree/sub/b.rlb");
  g_autofree char *junk = path_in_tmp ("tree/notes.txt");
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GBytes) archive = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *summary;

  ensure_fixtures ();
  model = read_file ("model.msh");
  archive = read_file ("arc.rlb");
  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  write_file (a, model);
  write_file (b, archive);
  g_assert_true (g_file_set_contents (junk, "not a model", -1, NULL));

  /* directories recurse; files that are not NRes are skipped silently */
  run_cli (&run, "validate", dir, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "2 files, 2 models: 0 errors, 0 warnings"));
  g_assert_null (strstr (run.out, "notes.txt"));

  run_cli (&run, "validate", "missing.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "missing.msh"));

  /* unreadable beats problems */
  run_cli (&run, "validate", "--json", "model.msh", "missing.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  root = parse_json (run.out);
  summary = json_object_get_object_member (json_node_get_object (root), "summary");
  g_assert_cmpint (json_object_get_int_member (summary, "unreadable"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "files"), ==, 1);

  /* a file shorter than the NRes header */
  g_assert_true (write_text ("short.msh", "NRes"));
  run_cli (&run, "validate", "short.msh", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "nres-too-short"));
}

/* The directory walk: subfolders in name order, a link to a file is checked, a link to a
 * folder is not followed, a pipe and a text file are skipped (and nothing blocks on the
 * pipe), and a large model (mapped, not read) is checked like a small one. */
static void
test_validate_walk (void)
{
  g_auto(Run) run = { 0 };
  g_autofree char *dir = path_in_tmp ("walk");
  g_autofree char *sub = path_in_tmp ("walk/b-sub");
  g_autofree char *other = path_in_tmp ("walk-other");
  g_autofree char *big_path = path_in_tmp ("walk/c-big.msh");
  g_autofree char *link_file = path_in_tmp ("walk/d-link.msh");
  g_autofree char *link_dir = path_in_tmp ("walk/e-link-dir");
  g_autofree char *fifo = path_in_tmp ("walk/f-pipe.msh");
  g_autofree char *model_path = NULL;
  g_autoptr(GBytes) good = NULL;
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(GBytes) big = NULL;
  MshedGenParams params;
  const char *a, *b;

  ensure_fixtures ();
  model_path = path_in_tmp ("model.msh");
  good = read_file (model_path);
  /* slot 1's batchCount far past the batch table: one finding per copy */
  bad = patch_u16 (good, resource_offset (good, 2) + 140 + 68 + 6, 9000);
  mshed_gen_params_init (&params, 5);
  params.n_triangles = 20000;
  big = mshed_generate_model_bytes (&params);
  g_assert_cmpuint (g_bytes_get_size (big), >, 256 * 1024);

  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (other, 0755), ==, 0);
  write_file ("walk/a-bad.msh", bad);
  write_file ("walk/b-sub/bad.msh", bad);
  write_file ("walk/b-sub/good.msh", good);
  write_file (big_path, big);
  write_file ("walk-other/hidden.msh", bad);
  g_assert_cmpint (symlink (model_path, link_file), ==, 0);
  g_assert_cmpint (symlink (other, link_dir), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_true (write_text ("walk/g-notes.txt", "not a model"));

  run_cli (&run, "validate", dir, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.err, ==, "");
  /* a-bad, b-sub/bad, b-sub/good, c-big, d-link */
  g_assert_nonnull (strstr (run.out, "5 files, 5 models: 2 errors, 0 warnings"));
  a = strstr (run.out, "walk/a-bad.msh: error: ");
  b = strstr (run.out, "walk/b-sub/bad.msh: error: ");
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_true (a < b);
  g_assert_null (strstr (run.out, "hidden.msh"));
  g_assert_null (strstr (run.out, "f-pipe"));
  g_assert_null (strstr (run.out, "g-notes"));

  /* the same tree named with a trailing slash gives the same paths */
  {
    g_autofree char *slash = g_strconcat (dir, "/", NULL);

    run_cli (&run, "validate", slash, NULL);
    g_assert_nonnull (strstr (run.out, "walk/a-bad.msh: error: "));
    g_assert_null (strstr (run.out, "walk//"));
  }
}

/* Runs tests/bench/ref_validate.py (the Python yardstick of bench-validate) on @name. */
static int
run_reference (const char  *name,
               char       **out)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "bench", "ref_validate.py",
                                                   NULL);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { python, script, name, NULL };
  int wait_status = 0;

  g_assert_true (g_spawn_sync (cli_test_dir (), (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, NULL, &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  return WEXITSTATUS (wait_status);
}

/* The Python validator that bench-validate compares with is a real one: it finds what
 * mshed-cli finds among the checks of docs/msh.md §9.3, and agrees on clean files. */
static void
test_validate_reference (void)
{
  g_auto(Run) run = { 0 };
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autoptr(GBytes) good = NULL;
  g_autoptr(MshedNres) nres = NULL;
  struct {
    const char *what;
    guint32     type;      /* 0: the directory record of @dir_type */
    guint32     dir_type;
    gsize       offset;
    guint16     value;
  } defects[] = {
    { "slot batch range", 2, 0, 140 + 68 + 6, 9000 },
    { "slot non-finite bound", 2, 0, 140 + 68 + 8 + 2, 0x7F80 },
    { "batch vertex range", 13, 0, 16 + 2, 0x7FFF },
    { "batch index range", 13, 0, 10 + 2, 0x7FFF },
    { "descriptor link", 7, 0, 16 + 4, 0xFFFE },
    { "node slot", 1, 0, 38 + 8 + 2 * 3, 0xFFFE },
    { "node key", 1, 0, 38 + 6, 0xFFFE },
    { "node frame map", 1, 0, 38 + 4, 0xFFF0 },
    { "Res2 attr3", 0, 2, 16, 64 },
    { "Res10 attr1", 0, 10, 4, 99 },
    { "Res6 attr1", 0, 6, 4, 3 },
  };

  if (python == NULL)
    {
      g_test_skip ("no python3");
      return;
    }
  ensure_fixtures ();
  good = read_file ("model.msh");
  nres = mshed_nres_parse (good, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (nres);

  for (guint i = 0; i < G_N_ELEMENTS (defects); i++)
    {
      g_autoptr(GBytes) bad = NULL;
      g_autofree char *out = NULL;
      gsize offset;

      if (defects[i].type != 0)
        offset = resource_offset (good, defects[i].type) + defects[i].offset;
      else
        offset = mshed_nres_get_directory_offset (nres) +
                 64 * (gsize) mshed_nres_find_type (nres, defects[i].dir_type) +
                 defects[i].offset;
      bad = patch_u16 (good, offset, defects[i].value);
      write_file ("ref-bad.msh", bad);
      g_test_message ("%s", defects[i].what);
      run_cli (&run, "validate", "ref-bad.msh", NULL);
      g_assert_cmpint (run.status, ==, 1);
      g_assert_cmpint (run_reference ("ref-bad.msh", &out), ==, 1);
      g_assert_nonnull (strstr (out, "ref-bad.msh: error: "));
    }

  /* clean files: the same summary, word for word */
  {
    g_autofree char *out = NULL;
    g_autofree char *dir = path_in_tmp ("ref-clean");
    g_autoptr(GBytes) archive = read_file ("arc.rlb");

    g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
    write_file ("ref-clean/model.msh", good);
    write_file ("ref-clean/arc.rlb", archive);
    run_cli (&run, "validate", "ref-clean", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpint (run_reference ("ref-clean", &out), ==, 0);
    g_assert_cmpstr (out, ==, run.out);
  }
}

static void
test_roundtrip (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GBytes) broken = NULL;
  g_autoptr(MshedNres) nres = NULL;
  g_autofree char *expect = NULL;
  gsize dir;

  ensure_fixtures ();
  run_cli (&run, "generate", "--seed", "11", "--legacy", "-o", "legacy2.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_cli (&run, "generate", "--seed", "12", "--archive", "3", "-o", "gen2.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (write_text ("readme.txt", "plain text"));

  run_cli (&run, "roundtrip", "model.msh", "arc.rlb", "arc.rlb:Tank.msh", "legacy2.msh",
           "gen2.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^model.msh: OK, [0-9]+ bytes identical$", run.out,
                                       G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^gen2.rlb: OK, [0-9]+ bytes identical$", run.out,
                                       G_REGEX_MULTILINE, 0));

  /* two equal sort_index values: a non-canonical file that the writer must keep as it is
   * (docs/nres.md §7.3: the stored table is never "fixed" silently) */
  model = read_file ("model.msh");
  nres = mshed_nres_parse (model, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (nres);
  dir = mshed_nres_get_directory_offset (nres);
  broken = patch_u16 (model, dir + 60, (guint16) mshed_nres_peek_entry (nres, 1)->sort_index);
  write_file ("unsorted.msh", broken);
  run_cli (&run, "roundtrip", "unsorted.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  expect = g_strdup_printf ("unsorted.msh: OK, %" G_GSIZE_FORMAT " bytes identical\n",
                            g_bytes_get_size (broken));
  g_assert_cmpstr (run.out, ==, expect);

  /* not an archive at all */
  run_cli (&run, "roundtrip", "readme.txt", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "readme.txt"));

  run_cli (&run, "roundtrip", "missing.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
}

static void
test_dump (void)
{
  static const char *tables[] = {
    "nodes", "slots", "batches", "tris", "vertices", "keys", "names", "dir", "header",
    "normals", "uvs", "indices", "map", "res15", "res18",
  };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;

  ensure_fixtures ();
  bytes = read_file ("model.msh");
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (model);

  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      g_auto(Run) run = { 0 };
      g_autoptr(JsonNode) root = NULL;
      const MshedTableInfo *info = mshed_schema_find_table (tables[t]);
      JsonObject *doc;
      JsonArray *records;
      guint n_rows, n_lines;
      g_auto(GStrv) lines = NULL;

      g_test_message ("table %s", tables[t]);
      g_assert_nonnull (info);
      n_rows = info->id == MSHED_TABLE_HEADER ? info->n_fields
                                              : mshed_model_get_n_rows (model, info->id);
      g_assert_cmpuint (n_rows, >, 0);

      run_cli (&run, "dump", "model.msh", "--table", tables[t], NULL);
      g_assert_cmpint (run.status, ==, 0);
      lines = g_strsplit (run.out, "\n", -1);
      n_lines = g_strv_length (lines) - 1;  /* the text ends with a newline */
      g_assert_cmpuint (n_lines, ==, n_rows + 1);
      /* the header line names the schema fields */
      for (guint f = 0; f < info->n_fields && info->id != MSHED_TABLE_HEADER; f++)
        g_assert_nonnull (strstr (lines[0], info->fields[f].name));

      run_cli (&run, "dump", "model.msh", "--table", tables[t], "--json", NULL);
      g_assert_cmpint (run.status, ==, 0);
      if (t < 3)
        check_json_with_python (run.out);
      root = parse_json (run.out);
      doc = json_node_get_object (root);
      records = json_object_get_array_member (doc, "records");
      g_assert_cmpuint (json_array_get_length (records), ==, n_rows);
      g_assert_cmpint (json_object_get_int_member (doc, "rows"), ==, n_rows);
      g_clear_pointer (&root, json_node_unref);

      if (n_rows > 2 && info->id != MSHED_TABLE_HEADER)
        {
          run_cli (&run, "dump", "model.msh", "--table", tables[t], "--json", "--range", "1..2",
                   "--decoded", NULL);
          g_assert_cmpint (run.status, ==, 0);
          root = parse_json (run.out);
          records = json_object_get_array_member (json_node_get_object (root), "records");
          g_assert_cmpuint (json_array_get_length (records), ==, 2);
          g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (records, 0),
                                                       "row"), ==, 1);
        }
    }
}

static void
test_dump_values (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *name0 = NULL;
  JsonObject *rec;
  MshedBatch batch;
  float pos[3], normal[3];
  const guint8 *raw;
  guint32 len;

  ensure_fixtures ();
  bytes = read_file ("model.msh");
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (model);

  g_assert_true (mshed_model_get_batch (model, 1, &batch));
  run_cli (&run, "dump", "model.msh", "-t", "batches", "--json", "-r", "1", NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_json (run.out);
  rec = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root),
                                                                      "records"), 0);
  g_assert_cmpint (json_object_get_int_member (rec, "indexCount"), ==, batch.index_count);
  g_assert_cmpint (json_object_get_int_member (rec, "indexStart"), ==, batch.index_start);
  g_assert_cmpint (json_object_get_int_member (rec, "baseVertex"), ==, batch.base_vertex);
  g_assert_cmpint (json_object_get_int_member (rec, "offset"), ==,
                   mshed_model_get_record_offset (model, MSHED_TABLE_BATCHES, 1));
  g_clear_pointer (&root, json_node_unref);

  /* vertices --decoded: position plus the decoded normal */
  g_assert_true (mshed_model_get_position (model, 3, pos));
  g_assert_true (mshed_model_get_normal (model, 3, normal));
  run_cli (&run, "dump", "model.msh", "-t", "vertices", "--decoded", "--json", "-r", "3", NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_json (run.out);
  rec = json_array_get_object_element (json_object_get_array_member (json_node_get_object (root),
                                                                      "records"), 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (rec, "x"), pos[0], 1e-6);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (rec, "z"), pos[2], 1e-6);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (rec, "nx"), normal[0], 1e-5);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (rec, "nz"), normal[2], 1e-5);
  g_clear_pointer (&root, json_node_unref);

  /* names: UTF-8 text and the raw Windows-1251 bytes */
  name0 = mshed_model_dup_name (model, 0);
  g_assert_nonnull (name0);
  g_assert_true (mshed_model_get_name_raw (model, 0, &raw, &len));
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (raw[0], >=, 0xC0);  /* Cyrillic: gen_params asks for it */
  run_cli (&run, "dump", "model.msh", "-t", "names", "-r", "0", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, name0));
  {
    g_autofree char *hex = g_strdup_printf ("%02X %02X", raw[0], raw[1]);
    g_assert_nonnull (strstr (run.out, hex));
  }

  /* bad table and range */
  run_cli (&run, "dump", "model.msh", "-t", "teapots", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_cli (&run, "dump", "model.msh", "-t", "nodes", "-r", "5..2", NULL);
  g_assert_cmpint (run.status, ==, 2);
  /* an archive has only a directory */
  run_cli (&run, "dump", "arc.rlb", "-t", "nodes", NULL);
  g_assert_cmpint (run.status, ==, 1);
  run_cli (&run, "dump", "arc.rlb", "-t", "dir", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Tank.msh"));
  g_assert_nonnull (strstr (run.out, "TEXT"));
}

static void
test_archive (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GBytes) out = NULL;

  ensure_fixtures ();
  model = read_file ("model.msh");

  run_cli (&run, "ls", "arc.rlb", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_regex_match_simple ("^ +1 +0 +[0-9]+ +Tank\\.msh +model$", run.out,
                                       G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +0 +TEXT +5 +readme\\.txt$", run.out,
                                       G_REGEX_MULTILINE, 0));

  run_cli (&run, "extract", "arc.rlb", "tank.msh", "-o", "out1.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  out = read_file ("out1.msh");
  g_assert_true (g_bytes_equal (out, model));
  g_clear_pointer (&out, g_bytes_unref);

  /* ARCHIVE:ENTRY form, replacing an existing file */
  run_cli (&run, "extract", "arc.rlb:Tank.msh", "-o", "out1.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  out = read_file ("out1.msh");
  g_assert_true (g_bytes_equal (out, model));
  g_clear_pointer (&out, g_bytes_unref);

  run_cli (&run, "extract", "arc.rlb", "#0", "-o", "readme.out", NULL);
  g_assert_cmpint (run.status, ==, 0);
  out = read_file ("readme.out");
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), "hello", 5);

  run_cli (&run, "extract", "arc.rlb", "nope.msh", "-o", "x", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_false (tmp_file_exists ("x"));
  run_cli (&run, "extract", "arc.rlb", "Tank.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);

  run_cli (&run, "dump", "arc.rlb:Tank.msh", "-t", "nodes", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "slot14"));
}

static void
test_generate (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(GBytes) a = NULL;
  g_autoptr(GBytes) b = NULL;
  g_autoptr(GBytes) expect = NULL;
  MshedGenParams params;

  run_cli (&run, "generate", "--seed", "42", "--triangles", "300", "--animated", "--res18",
           "-o", "g1.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_cli (&run, "generate", "--seed", "42", "--triangles", "300", "--animated", "--res18",
           "-o", "g2.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  a = read_file ("g1.msh");
  b = read_file ("g2.msh");
  g_assert_true (g_bytes_equal (a, b));

  mshed_gen_params_init (&params, 42);
  params.n_triangles = 300;
  params.animated = TRUE;
  params.with_res18_20 = TRUE;
  expect = mshed_generate_model_bytes (&params);
  g_assert_true (g_bytes_equal (a, expect));

  run_cli (&run, "generate", "--triangles", "5", "-o", "g3.msh", NULL);
  g_assert_cmpint (run.status, ==, 2);
  run_cli (&run, "generate", "--seed", "1", NULL);
  g_assert_cmpint (run.status, ==, 2);
}

/* Truncated and bit-flipped models: every command ends with a status, never a crash (and,
 * in the sanitizer build, never an invalid read). */
static void
test_hostile (void)
{
  static const char *tables[] = {
    "nodes", "slots", "batches", "tris", "vertices", "keys", "names", "dir", "header", "map",
  };
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (1234);
  const guint8 *data;
  gsize len;

  ensure_fixtures ();
  model = read_file ("model.msh");
  data = g_bytes_get_data (model, &len);

  for (guint v = 0; v < 16; v++)
    {
      g_autoptr(GBytes) variant = NULL;
      g_auto(Run) run = { 0 };

      if (v < 6)
        {
          gsize cut[] = { 0, 15, 16, len / 2, len - 64, len - 1 };

          variant = g_bytes_new (data, cut[v]);
        }
      else
        {
          guint8 *copy = g_memdup2 (data, len);
          /* half of the flips hit the directory, the rest anywhere */
          gsize at = v % 2 ? len - 1 - (gsize) g_rand_int_range (rand, 0, 16 * 64)
                           : (gsize) g_rand_int_range (rand, 0, (gint32) len);

          copy[at] ^= (guint8) (1u << g_rand_int_range (rand, 0, 8));
          if (v % 3 == 0)
            copy[(at * 7919) % len] ^= 0xFF;
          variant = g_bytes_new_take (copy, len);
        }
      write_file ("hostile.msh", variant);
      g_test_message ("variant %u", v);

      run_cli (&run, "info", "hostile.msh", NULL);
      g_assert_cmpint (run.status, <=, 2);
      run_cli (&run, "validate", "hostile.msh", NULL);
      g_assert_cmpint (run.status, <=, 1);
      run_cli (&run, "validate", "--tolerant", "--json", "hostile.msh", NULL);
      g_assert_cmpint (run.status, <=, 1);
      run_cli (&run, "roundtrip", "hostile.msh", NULL);
      g_assert_cmpint (run.status, <=, 1);
      run_cli (&run, "ls", "hostile.msh", NULL);
      g_assert_cmpint (run.status, <=, 1);
      for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
        {
          run_cli (&run, "dump", "hostile.msh", "-t", tables[t], "--decoded", NULL);
          g_assert_cmpint (run.status, <=, 1);
        }
    }
}

/* Started from the build tree, mshed-cli speaks the user's language from the build tree's
 * catalogue, like the application (nothing is installed yet). */
static void
test_russian (void)
{
  g_auto(Run) run = { 0 };
  g_autofree char *saved = g_strdup (g_getenv ("LC_ALL"));

  run_cli (&run, "generate", "--seed", "2", "--triangles", "40", "-o", "ru.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_setenv ("LC_ALL", "ru_RU.UTF-8", TRUE);
  run_cli (&run, "info", "ru.msh", NULL);
  if (saved)
    g_setenv ("LC_ALL", saved, TRUE);
  else
    g_unsetenv ("LC_ALL");
  g_assert_cmpint (run.status, ==, 0);
  /* po/ru.po: "File:" */
  g_assert_nonnull (strstr (run.out, "Файл:"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;

  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/info", test_info);
  g_test_add_func ("/cli/russian", test_russian);
  g_test_add_func ("/cli/validate/clean", test_validate_clean);
  g_test_add_func ("/cli/validate/missing-type", test_missing_type);
  g_test_add_func ("/cli/kind", test_kind);
  g_test_add_func ("/cli/kind/nested", test_nested_kind);
  g_test_add_func ("/cli/validate/defect", test_validate_defect);
  g_test_add_func ("/cli/validate/unreadable", test_validate_unreadable);
  g_test_add_func ("/cli/validate/walk", test_validate_walk);
  g_test_add_func ("/cli/validate/reference", test_validate_reference);
  g_test_add_func ("/cli/roundtrip", test_roundtrip);
  g_test_add_func ("/cli/dump/tables", test_dump);
  g_test_add_func ("/cli/dump/values", test_dump_values);
  g_test_add_func ("/cli/archive", test_archive);
  g_test_add_func ("/cli/generate", test_generate);
  g_test_add_func ("/cli/hostile", test_hostile);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
