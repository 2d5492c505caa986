/* test-cli-validate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli validate over folders on several threads (--jobs): the output, byte for byte, the
 * order and the exit status are those of one thread, with defects, unreadable files and
 * folders among the files; the --json document keeps json-glib's layout; and the process
 * starts without GIO or the GL libraries. The expected order comes from the names the test
 * gives its files, never from the CLI.
 */
#define _XOPEN_SOURCE 700  /* symlink(), mkfifo() beside ISO C11 (c_std=c11) */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mshed-generator.h"
#include "test-cli-util.h"

/* The folder "jobs": 48 loose models named in walk order, of mixed sizes (the large ones come
 * early, so later small files are done first on other threads), every third with a defect
 * (one error), every fifth cut in half; a subfolder with an archive, a text file, a pipe and
 * a link to a model; without root, a file and a folder nobody may read; then 8 archives. */
#define N_LOOSE 48

typedef struct {
  GPtrArray *files;      /* the "file" of every element of the JSON "files", in order */
  GPtrArray *defective;  /* the files with one defect, in walk order */
  gboolean   locked;     /* the unreadable file and folder exist (not root) */
} Folder;

static void
set_locked (gboolean locked)
{
  g_autofree char *file = path_in_tmp ("jobs/p-locked.msh");
  g_autofree char *dir = path_in_tmp ("jobs/q-closed");

  g_assert_cmpint (chmod (file, locked ? 0 : 0644), ==, 0);
  g_assert_cmpint (chmod (dir, locked ? 0 : 0755), ==, 0);
}

/* Unlocks what make_folder() locked, so that the folder can be removed. */
static void
folder_clear (Folder *f)
{
  if (f->locked)
    set_locked (FALSE);
  g_clear_pointer (&f->files, g_ptr_array_unref);
  g_clear_pointer (&f->defective, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Folder, folder_clear)

static void
add_name (GPtrArray  *names,
          const char *name)
{
  g_ptr_array_add (names, g_strdup (name));
}

/* Writes the folder (once) and lists what a run reports. */
static void
make_folder (Folder *f)
{
  g_autofree char *sub = path_in_tmp ("jobs/m-sub");
  g_autofree char *fifo = path_in_tmp ("jobs/m-sub/pipe.msh");
  g_autofree char *link = path_in_tmp ("jobs/m-sub/z-link.msh");
  g_autofree char *target = path_in_tmp ("jobs/a-00.msh");
  g_autofree char *closed = path_in_tmp ("jobs/q-closed");
  g_autoptr(GBytes) archive = mshed_generate_archive_bytes (77, 4, 300);
  gboolean exists = g_file_test (sub, G_FILE_TEST_IS_DIR);

  f->files = g_ptr_array_new_with_free_func (g_free);
  f->defective = g_ptr_array_new_with_free_func (g_free);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  for (guint i = 0; i < N_LOOSE; i++)
    {
      g_autofree char *name = g_strdup_printf ("jobs/a-%02u.msh", i);
      g_autoptr(GBytes) model = NULL;
      g_autoptr(GBytes) bytes = NULL;
      MshedGenParams params;

      mshed_gen_params_init (&params, 100 + i);
      params.n_nodes = 6;
      params.n_triangles = i % 8 == 1 ? 20000 : 100 + 40 * i;
      model = mshed_generate_model_bytes (&params);
      if (i % 3 == 2)
        {
          /* slot 1's batchCount far past the batch table: one error */
          bytes = patch_u16 (model, resource_offset (model, 2) + 140 + 68 + 6, 9000);
          add_name (f->defective, name);
        }
      else if (i % 5 == 4)
        bytes = g_bytes_new_from_bytes (model, 0, g_bytes_get_size (model) / 2);
      else
        bytes = g_bytes_ref (model);
      if (!exists)
        write_file (name, bytes);
      add_name (f->files, name);
    }
  if (!exists)
    {
      write_file ("jobs/m-sub/pack.rlb", archive);
      g_assert_true (write_text ("jobs/m-sub/notes.txt", "not a model"));
      g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);  /* skipped in a folder */
      g_assert_cmpint (symlink (target, link), ==, 0);
      write_file ("jobs/p-locked.msh", archive);
      g_assert_cmpint (g_mkdir_with_parents (closed, 0755), ==, 0);
      write_file ("jobs/q-closed/inside.msh", archive);
    }
  add_name (f->files, "jobs/m-sub/pack.rlb");
  add_name (f->files, "jobs/m-sub/z-link.msh");

  /* root reads everything: then these two are read like the others */
  f->locked = geteuid () != 0;
  if (f->locked)
    set_locked (TRUE);
  add_name (f->files, "jobs/p-locked.msh");
  add_name (f->files, f->locked ? "jobs/q-closed" : "jobs/q-closed/inside.msh");

  for (guint i = N_LOOSE; i < N_LOOSE + 8; i++)
    {
      g_autofree char *name = g_strdup_printf ("jobs/z-%02u.msh", i);

      if (!exists)
        write_file (name, archive);
      add_name (f->files, name);
    }
  /* named after the folder (run_validate) */
  add_name (f->files, "jobs/m-sub/pipe.msh");
  add_name (f->files, "missing.msh");
  add_name (f->files, "jobs/m-sub/pack.rlb:NOPE.msh");
  add_name (f->files, "jobs/a-02.msh");
}

/* Each of @names appears in @text, each after the one before. */
static void
assert_in_order (const char *text,
                 GPtrArray  *names,
                 const char *after)
{
  const char *at = text;

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *line = g_strconcat ((const char *) names->pdata[i], after, NULL);
      const char *found = strstr (at, line);

      if (found == NULL)
        g_error ("“%s” is missing or out of order in:\n%s", line, text);
      at = found + strlen (line);
    }
}

/* Runs validate [@option] [--jobs @jobs] on the folder and then on the named paths of
 * make_folder(); @jobs NULL: the default, one per processor. */
static void
run_validate (Run        *run,
              const char *jobs,
              const char *option)
{
  const char *args[12];
  guint n = 0;

  args[n++] = "validate";
  if (option)
    args[n++] = option;
  if (jobs)
    {
      args[n++] = "--jobs";
      args[n++] = jobs;
    }
  args[n++] = "jobs";
  args[n++] = "jobs/m-sub/pipe.msh";       /* named: not a regular file */
  args[n++] = "missing.msh";
  args[n++] = "jobs/m-sub/pack.rlb:NOPE.msh";
  args[n++] = "jobs/a-02.msh";             /* a file named after the folder */
  args[n] = NULL;
  run_cli_argv (run, args);
}

/* --jobs 1 is the old single thread; any other count prints the same bytes in the same
 * order, on both streams, with the same exit status. */
static void
test_jobs_identical (void)
{
  g_auto(Folder) folder = { 0 };
  const char *options[] = { NULL, "--json", "--tolerant" };
  const char *jobs[] = { "2", "3", "4", "16", NULL /* one per processor */ };

  make_folder (&folder);
  for (guint o = 0; o < G_N_ELEMENTS (options); o++)
    {
      g_auto(Run) one = { 0 };

      run_validate (&one, "1", options[o]);
      g_assert_cmpint (one.status, ==, 2);  /* unreadable beats problems */
      for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
        {
          g_auto(Run) many = { 0 };

          run_validate (&many, jobs[j], options[o]);
          g_assert_cmpint (many.status, ==, one.status);
          g_assert_cmpstr (many.out, ==, one.out);
          g_assert_cmpstr (many.err, ==, one.err);
        }
    }
}

/* The order is the walk's (names in byte order, a subfolder in its place) followed by the
 * named paths, on stdout and stderr alike. */
static void
test_jobs_order (void)
{
  g_auto(Folder) folder = { 0 };
  g_auto(Run) run = { 0 };
  g_autoptr(GPtrArray) errors = g_ptr_array_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *files_text = NULL;
  g_autofree char *unreadable_text = NULL;
  JsonArray *files;
  guint n_unreadable;

  make_folder (&folder);
  n_unreadable = folder.locked ? 4 : 2;
  run_validate (&run, "4", NULL);
  g_assert_cmpint (run.status, ==, 2);
  assert_in_order (run.out, folder.defective, ": error: ");
  /* a-02 named again after the folder: its line once more, after the folder's last one */
  g_assert_true (g_strrstr (run.out, "jobs/a-02.msh: error: ") >
                 g_strrstr (run.out, "jobs/a-47.msh: error: "));

  if (folder.locked)
    {
      g_ptr_array_add (errors, "jobs/p-locked.msh");
      g_ptr_array_add (errors, "jobs/q-closed");
    }
  g_ptr_array_add (errors, "jobs/m-sub/pipe.msh");
  g_ptr_array_add (errors, "missing.msh");
  assert_in_order (run.err, errors, "");

  files_text = g_strdup_printf ("\n%u files, ", folder.files->len - n_unreadable);
  unreadable_text = g_strdup_printf (", %u unreadable\n", n_unreadable);
  g_assert_nonnull (strstr (run.out, files_text));
  g_assert_true (g_str_has_suffix (run.out, unreadable_text));

  /* the JSON lists every file and unreadable path, exactly in this order */
  run_validate (&run, "4", "--json");
  root = parse_json (run.out);
  files = json_object_get_array_member (json_node_get_object (root), "files");
  g_assert_cmpuint (json_array_get_length (files), ==, folder.files->len);
  for (guint i = 0; i < folder.files->len; i++)
    {
      JsonObject *o = json_array_get_object_element (files, i);

      g_assert_cmpstr (json_object_get_string_member (o, "file"), ==, folder.files->pdata[i]);
    }
}

/* The --json document is written by hand in json-glib's layout: json-glib, reading it and
 * writing it back pretty, gives the same bytes. Names with quotes, backslashes and control
 * characters are escaped (0x1F too, which json-glib 1.6 left raw). */
static void
test_json_layout (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *again = NULL;
  g_autofree char *odd_dir = path_in_tmp ("odd");
  MshedGenParams params;

  mshed_gen_params_init (&params, 3);
  params.n_nodes = 6;
  model = mshed_generate_model_bytes (&params);
  bad = patch_u16 (model, resource_offset (model, 2) + 140 + 68 + 6, 9000);
  g_assert_cmpint (g_mkdir_with_parents (odd_dir, 0755), ==, 0);
  write_file ("odd/a \"quoted\" back\\slash\ttab\x01\x7f \xc3\xa9.msh", bad);
  write_file ("odd/b.msh", model);
  write_file ("odd/c.msh", bad);

  run_cli (&run, "validate", "--json", "--jobs", "2", "odd", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "\"file\" : \"odd/a \\\"quoted\\\" back\\\\slash\\ttab"
                                     "\\u0001\\u007f \xc3\xa9.msh\""));
  root = parse_json (run.out);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  again = json_generator_to_data (generator, NULL);
  g_assert_true (g_str_has_suffix (run.out, "}\n"));
  run.out[strlen (run.out) - 1] = '\0';  /* the line's end, after the document */
  g_assert_cmpstr (run.out, ==, again);
  check_json_with_python (run.out);

  /* no diagnostics: an empty array, as json-glib writes it */
  run_cli (&run, "validate", "--json", "odd/b.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\"diagnostics\" : [],\n"));

  write_file ("odd/unit\x1fsep.msh", model);
  run_cli (&run, "validate", "--json", "odd/unit\x1fsep.msh", NULL);
  g_assert_nonnull (strstr (run.out, "\"file\" : \"odd/unit\\u001fsep.msh\""));
  check_json_with_python (run.out);
}

static void
test_jobs_usage (void)
{
  g_auto(Run) run = { 0 };
  const char *bad[] = { "0", "-1", "many", "1025" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      run_cli (&run, "validate", "--jobs", bad[i], "odd", NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_nonnull (strstr (run.err, "--jobs"));
    }
  run_cli (&run, "validate", "--help", NULL);
  g_assert_nonnull (strstr (run.out, "--jobs=N"));
}

/* What a validate process loads: GLib and GObject, not GIO, json-glib or the GL loader
 * (libepoxy binds its thousands of symbols at start; only mshed-cli-render needs it). The
 * dynamic linker lists what it loads with LD_DEBUG=libs (glibc). */
static void
test_startup_libraries (void)
{
  g_auto(Run) run = { 0 };
  g_autoptr(GBytes) model = NULL;
  const char *unwanted[] = { "libgio-2.0.so", "libjson-glib", "libepoxy.so", "libEGL" };
  MshedGenParams params;

  mshed_gen_params_init (&params, 5);
  model = mshed_generate_model_bytes (&params);
  write_file ("startup.msh", model);
  g_setenv ("LD_DEBUG", "libs", TRUE);
  run_cli (&run, "validate", "startup.msh", NULL);
  g_unsetenv ("LD_DEBUG");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "find library=libglib-2.0.so"));
  for (guint i = 0; i < G_N_ELEMENTS (unwanted); i++)
    if (strstr (run.err, unwanted[i]))
      g_error ("mshed-cli validate loads %s:\n%s", unwanted[i], run.err);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;

  g_test_add_func ("/cli/validate/jobs/identical", test_jobs_identical);
  g_test_add_func ("/cli/validate/jobs/order", test_jobs_order);
  g_test_add_func ("/cli/validate/jobs/usage", test_jobs_usage);
  g_test_add_func ("/cli/validate/json-layout", test_json_layout);
  g_test_add_func ("/cli/validate/startup-libraries", test_startup_libraries);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
