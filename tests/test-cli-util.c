/* test-cli-util.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mshed-bytes.h"
#include "mshed-nres.h"
#include "test-cli-util.h"

static char *tmpdir;
static guint timeout_s = 60;

/* Returns: FALSE when the test does not run through meson (no $MSHED_CLI): skip it */
gboolean
cli_test_init (void)
{
  g_autoptr(GError) error = NULL;

  if (g_getenv ("MSHED_CLI") == NULL)
    {
      g_printerr ("MSHED_CLI is not set: run this test through meson\n");
      return FALSE;
    }
  tmpdir = g_dir_make_tmp ("mshed-cli-XXXXXX", &error);
  g_assert_no_error (error);
  return TRUE;
}

/* Removes the temporary directory when every test passed (it is kept for a look otherwise). */
void
cli_test_finish (int status)
{
  g_autofree char *quoted = g_shell_quote (tmpdir);
  g_autofree char *command = g_strdup_printf ("rm -rf %s", quoted);

  if (status == 0)
    g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  g_clear_pointer (&tmpdir, g_free);
}

const char *
cli_test_dir (void)
{
  return tmpdir;
}

void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

/* The longest a command may run before it counts as hung (SIGALRM ends it). */
void
run_set_timeout (guint seconds)
{
  timeout_s = seconds;
}

static void
limit_time (gpointer data)
{
  alarm (GPOINTER_TO_UINT (data));  /* survives exec */
}

/* Runs mshed-cli in the temporary directory with the NULL-terminated @args. */
void
run_cli_argv (Run               *run,
              const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("MSHED_CLI");
  int wait_status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  run_clear (run);
  if (!g_spawn_sync (tmpdir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, limit_time,
                     GUINT_TO_POINTER (timeout_s), &run->out, &run->err, &wait_status, &error))
    g_error ("cannot run %s: %s", cli, error->message);
  if (WIFSIGNALED (wait_status) && WTERMSIG (wait_status) == SIGALRM)
    g_error ("mshed-cli %s did not end within %u s (it hangs)", args[0], timeout_s);
  g_assert_true (WIFEXITED (wait_status));  /* never a crash */
  run->status = WEXITSTATUS (wait_status);
  g_test_message ("exit %d\nstdout: %.2000s\nstderr: %s", run->status, run->out, run->err);
  /* no GLib warnings or criticals, whatever the command */
  g_assert_null (strstr (run->err, "CRITICAL"));
  g_assert_null (strstr (run->err, "WARNING"));
}

void
run_cli (Run        *run,
         const char *first,
         ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  const char *arg;
  va_list ap;

  va_start (ap, first);
  for (arg = first; arg; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_cli_argv (run, (const char *const *) args->pdata);
}

char *
path_in_tmp (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* @name: relative to the temporary directory, or absolute */
GBytes *
read_file (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_path_is_absolute (name) ? g_strdup (name) : path_in_tmp (name);
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

void
write_file (const char *name,
            GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_path_is_absolute (name) ? g_strdup (name) : path_in_tmp (name);

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
}

gboolean
write_text (const char *name,
            const char *text)
{
  g_autofree char *path = path_in_tmp (name);

  return g_file_set_contents (path, text, -1, NULL);
}

gboolean
tmp_file_exists (const char *name)
{
  g_autofree char *path = path_in_tmp (name);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

JsonNode *
parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

JsonNode *
read_json (const char *name)
{
  g_autoptr(GBytes) bytes = read_file (name);
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  return parse_json (text);
}

/* Offset in @file's bytes of the payload of resource @type (a loose model). */
guint32
resource_offset (GBytes  *file,
                 guint32  type)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (file, MSHED_MODE_TOLERANT, NULL, NULL);
  gint index;

  g_assert_nonnull (nres);
  index = mshed_nres_find_type (nres, type);
  g_assert_cmpint (index, >=, 0);
  return mshed_nres_peek_entry (nres, (guint) index)->data_offset;
}

GBytes *
patch_u16 (GBytes  *bytes,
           gsize    offset,
           guint16  value)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  guint8 *copy = g_memdup2 (data, len);

  g_assert_cmpuint (offset + 2, <=, len);
  mshed_write_u16 (copy + offset, value);
  return g_bytes_new_take (copy, len);
}

/* Cross-checks a JSON document with an independent parser when python3 is there. */
void
check_json_with_python (const char *text)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *path = path_in_tmp ("doc.json");
  g_autoptr(GError) error = NULL;
  int wait_status = 0;
  const char *argv[] = { NULL, "-c", "import json, sys; json.load(open(sys.argv[1]))", NULL,
                         NULL };

  if (python == NULL)
    return;
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  argv[0] = python;
  argv[3] = path;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0);
}

/* The UTF tree of a file in the temporary directory (docs/utf.md), read in @mode. */
MshedUtf *
read_utf_tree (const char *name,
               MshedMode   mode)
{
  g_autoptr(GBytes) bytes = read_file (name);
  g_autoptr(GError) error = NULL;
  MshedUtf *utf = mshed_utf_parse (bytes, mode, NULL, &error);

  g_assert_no_error (error);
  return utf;
}

/* Runs mshed-cli and asserts that it succeeds. */
void
run_cli_ok (const char *first,
            ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  Run run = { 0 };
  va_list ap;

  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_cli_argv (&run, (const char *const *) args->pdata);
  if (run.status != 0)
    g_printerr ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
}

/* Plants one defect: sets a cell (`mshed-cli edit --set`) to a value the validator rejects,
 * saving anyway. */
void
run_cli_plant (const char *spec,
               const char *set)
{
  run_cli_ok ("edit", "--save-anyway", "--no-backup", "--set", set, spec, NULL);
}

/* The folder @dir: a.msh with a slot's batch range past the batches (slot 1), b.msh clean,
 * sub/pack.rlb whose Hangar_1.MSH has a slot cell past the slots (node 2, slot5), and
 * sub/body.dfm whose Mesh1 Face_groups/Count says 7 for its one group (a warning). */
void
make_planted_game (const char *dir)
{
  g_autofree char *sub = g_strdup_printf ("%s/sub", dir);
  g_autofree char *sub_path = path_in_tmp (sub);
  g_autofree char *a = g_strdup_printf ("%s/a.msh", dir);
  g_autofree char *b = g_strdup_printf ("%s/b.msh", dir);
  g_autofree char *pack = g_strdup_printf ("%s/sub/pack.rlb", dir);
  g_autofree char *entry = g_strdup_printf ("%s/sub/pack.rlb:Hangar_1.MSH", dir);
  g_autofree char *dfm = g_strdup_printf ("%s/sub/body.dfm", dir);

  g_assert_cmpint (g_mkdir_with_parents (sub_path, 0755), ==, 0);
  run_cli_ok ("generate", "-q", "--seed", "3", "-o", a, NULL);
  run_cli_ok ("generate", "-q", "--seed", "4", "-o", b, NULL);
  run_cli_ok ("generate", "-q", "--archive", "2", "-o", pack, NULL);
  run_cli_ok ("generate", "-q", "--dfm", "body", "--seed", "7", "-o", dfm, NULL);
  run_cli_plant (a, "slots[1].batchCount=9000");
  run_cli_plant (entry, "nodes[2].slot5=60000");
  run_cli_plant (dfm, "\\MultiLevel\\Mesh1\\Face_groups\\Count[0].count=7");
}

char *
expected_node_name (MshedModel *model,
                    guint       node)
{
  const guint8 *text;
  guint32 len;
  g_autoptr(GError) error = NULL;
  char *utf8;

  g_assert_true (mshed_model_get_name_raw (model, node, &text, &len));
  if (len == 0)
    return g_strdup_printf ("node %u", node);
  utf8 = g_convert ((const char *) text, len, "UTF-8", "WINDOWS-1251", NULL, NULL, &error);
  g_assert_no_error (error);
  return utf8;
}

/* `validate` finds nothing at all in @name. */
void
assert_validates_clean (const char *name)
{
  g_auto(Run) run = { 0 };

  run_cli (&run, "validate", name, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "0 errors, 0 warnings"));
}

void
run_cli_generate (const char *args,
                  const char *out)
{
  g_auto(GStrv) opts = g_strsplit (args, " ", -1);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(Run) run = { 0 };

  g_ptr_array_add (argv, (char *) "generate");
  g_ptr_array_add (argv, (char *) "-q");
  for (guint i = 0; opts[i]; i++)
    g_ptr_array_add (argv, opts[i]);
  g_ptr_array_add (argv, (char *) "-o");
  g_ptr_array_add (argv, (char *) out);
  g_ptr_array_add (argv, NULL);
  run_cli_argv (&run, (const char *const *) argv->pdata);
  g_assert_cmpint (run.status, ==, 0);
}

void
assert_same_files (const char *a,
                   const char *b)
{
  g_autoptr(GBytes) x = read_file (a);
  g_autoptr(GBytes) y = read_file (b);

  g_test_message ("%s == %s", a, b);
  g_assert_true (g_bytes_equal (x, y));
}

gboolean
run_blender_roundtrip (const char        *in,
                       const char        *out,
                       const char *const *edits)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "gltf", "blender-roundtrip.py",
                                                   NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  int wait_status = 0;
  const char *head[] = { "blender", "--background", "--factory-startup", "--python-exit-code",
                         "1", "--python", script, "--" };

  for (guint i = 0; i < G_N_ELEMENTS (head); i++)
    g_ptr_array_add (argv, (char *) head[i]);
  g_ptr_array_add (argv, (char *) in);
  g_ptr_array_add (argv, (char *) out);
  for (guint i = 0; edits && edits[i]; i++)
    g_ptr_array_add (argv, (char *) edits[i]);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (cli_test_dir (), (char **) argv->pdata, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &output,
                     NULL, &wait_status, &error))
    {
      g_test_message ("blender: %s", error->message);
      return FALSE;
    }
  g_test_message ("%s", output);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  g_assert_nonnull (strstr (output, "MSHED-BLENDER-ROUNDTRIP OK"));
  return TRUE;
}

GArray *
point_influences (MshedDfm *dfm,
                  guint     p)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 first, count;

  g_assert_true (mshed_dfm_get_skin_range (dfm, 0, p, &first, &count));
  for (guint32 k = 0; k < count; k++)
    {
      guint32 pair[2];
      float w;

      g_assert_true (mshed_dfm_get_influence (dfm, 0, first + k, &pair[0], &w));
      memcpy (&pair[1], &w, 4);
      g_array_append_vals (out, pair, 2);
    }
  return out;
}

void
assert_import_undo_redo (MshedDocument *doc,
                         GBytes        *original)
{
  g_autoptr(GBytes) edited = mshed_document_serialize (doc);
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;

  g_assert_cmpstr (mshed_document_get_undo_label (doc), ==, "Import glTF");
  g_assert_true (mshed_document_undo (doc));
  g_assert_false (mshed_document_can_undo (doc));
  undone = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (undone, original));
  g_assert_true (mshed_document_redo (doc));
  redone = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (redone, edited));
}
