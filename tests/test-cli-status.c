/* test-cli-status.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The exit-status table of README.md ("Exit status"), row by row: every command is run as a
 * user runs it, and each case checks the status and a fragment of what it says. Also named
 * pipes, sockets, devices and directories where a file is expected: refused at once, never
 * waited on (a run that hangs is ended by a time limit and fails).
 */
#define _XOPEN_SOURCE 700  /* POSIX/XSI calls beside ISO C11 (c_std=c11) */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mshed-bytes.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-schema.h"
#include "test-cli-util.h"

#define MAX_ARGS 12

typedef struct {
  const char *args[MAX_ARGS];  /* NULL-terminated */
  int         status;
  const char *out;             /* a fragment stdout must hold, or NULL */
  const char *err;             /* a fragment stderr must hold, or NULL */
} Case;

static gboolean have_render;

/* Fixtures in the temporary directory:
 *   model.msh  a generated model (strict-valid)
 *   arc.rlb    an archive: readme.txt (TEXT) and Tank.msh (model.msh)
 *   bad.msh    model.msh with slot 1's batchCount far past Res13 (fails strict validation)
 *   plain.txt  not NRes
 *   in.fifo, out.fifo  named pipes; sock.msh  a socket; adir  a directory */
static void
make_fixtures (void)
{
  g_autofree char *fifo_in = path_in_tmp ("in.fifo");
  g_autofree char *fifo_out = path_in_tmp ("out.fifo");
  g_autofree char *dir = path_in_tmp ("adir");
  g_autofree char *sock_path = path_in_tmp ("sock.msh");
  g_autoptr(GBytes) model = NULL;
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(GBytes) archive_bytes = NULL;
  g_autoptr(MshedNres) archive = mshed_nres_new ();
  g_autoptr(MshedModel) parsed = NULL;
  const MshedField *field;
  struct sockaddr_un addr = { 0 };
  MshedGenParams params;
  guint8 *data;
  gsize len;
  int fd;

  mshed_gen_params_init (&params, 21);
  params.n_triangles = 120;
  params.n_nodes = 4;
  model = mshed_generate_model_bytes (&params);
  write_file ("model.msh", model);

  mshed_nres_append_entry (archive, 0x54584554 /* TEXT */, 0, 0, 0, "readme.txt", "hello", 5);
  mshed_nres_append_entry (archive, 0, 0, 0, 0, "Tank.msh", g_bytes_get_data (model, NULL),
                           g_bytes_get_size (model));
  archive_bytes = mshed_nres_build_canonical (archive);
  write_file ("arc.rlb", archive_bytes);

  parsed = mshed_model_new_from_bytes (model, MSHED_MODE_STRICT, NULL, NULL);
  g_assert_nonnull (parsed);
  field = mshed_schema_find_field (mshed_schema_get_table (MSHED_TABLE_SLOTS), "batchCount");
  data = g_memdup2 (g_bytes_get_data (model, &len), g_bytes_get_size (model));
  mshed_write_u16 (data + mshed_model_get_record_offset (parsed, MSHED_TABLE_SLOTS, 1) +
                   field->offset, 9000);
  bad = g_bytes_new_take (data, len);
  write_file ("bad.msh", bad);

  g_assert_true (write_text ("plain.txt", "plain text, longer than an NRes header"));
  g_assert_cmpint (mkfifo (fifo_in, 0644), ==, 0);
  g_assert_cmpint (mkfifo (fifo_out, 0644), ==, 0);
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);

  /* a socket file: bound, never listened on */
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  g_assert_cmpint (fd, >=, 0);
  addr.sun_family = AF_UNIX;
  g_assert_cmpuint (strlen (sock_path), <, sizeof addr.sun_path);
  strcpy (addr.sun_path, sock_path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  close (fd);

  {
    g_auto(Run) run = { 0 };

    run_cli (&run, "render", "--help", NULL);
    have_render = run.status == 0;
  }
}

static void
run_case (const Case *c)
{
  g_auto(Run) run = { 0 };
  g_autofree char *line = g_strjoinv (" ", (char **) c->args);

  run_cli_argv (&run, c->args);
  if (run.status != c->status)
    g_error ("mshed-cli %s: exit status %d, expected %d\nstdout: %s\nstderr: %s", line,
             run.status, c->status, run.out, run.err);
  if (c->out && strstr (run.out, c->out) == NULL)
    g_error ("mshed-cli %s: “%s” is not in stdout: %s", line, c->out, run.out);
  if (c->err && strstr (run.err, c->err) == NULL)
    g_error ("mshed-cli %s: “%s” is not in stderr: %s", line, c->err, run.err);
}

static void
run_cases (const Case *cases,
           guint       n)
{
  for (guint i = 0; i < n; i++)
    {
      if (!have_render && g_strcmp0 (cases[i].args[0], "render") == 0)
        continue;
      run_case (&cases[i]);
    }
}

static gboolean
is_fifo (const char *name)
{
  g_autofree char *path = path_in_tmp (name);
  struct stat st;

  return g_lstat (path, &st) == 0 && S_ISFIFO (st.st_mode);
}

/* 0: success */
static void
test_success (void)
{
  static const Case cases[] = {
    { { "info", "model.msh", NULL }, 0, "Kind:        model", NULL },
    { { "info", "arc.rlb:tank.msh", NULL }, 0, "Entry:       Tank.msh", NULL },
    { { "validate", "model.msh", "arc.rlb", NULL }, 0, "2 files, 2 models: 0 errors", NULL },
    { { "roundtrip", "model.msh", "arc.rlb", NULL }, 0, "bytes identical", NULL },
    { { "dump", "model.msh", "-t", "batches", NULL }, 0, "indexCount", NULL },
    { { "ls", "arc.rlb", NULL }, 0, "Tank.msh", NULL },
    { { "extract", "arc.rlb", "Tank.msh", "-o", "x.msh", NULL }, 0, "wrote", NULL },
    { { "generate", "-o", "g.msh", NULL }, 0, "g.msh", NULL },
    { { "edit", "model.msh", "--set", "batches[0].materialIndex=1", "-o", "e.msh", NULL },
      0, "wrote e.msh", NULL },
    { { "edit", "model.msh", "--set", "batches[0].materialIndex=1", "--dry-run", NULL },
      0, "dry run", NULL },
    { { "--version", NULL }, 0, "mshed-cli", NULL },
  };

  run_cases (cases, G_N_ELEMENTS (cases));
}

/* 1: problems found (validation errors) */
static void
test_problems (void)
{
  static const Case cases[] = {
    { { "validate", "bad.msh", NULL }, 1, "1 file, 1 model: 1 error", NULL },
    { { "validate", "--json", "bad.msh", NULL }, 1, "\"slot-batch-range\"", NULL },
    { { "validate", "model.msh", "bad.msh", NULL }, 1, "2 files, 2 models: 1 error", NULL },
    /* a missing entry is an error, and no model was checked */
    { { "validate", "arc.rlb:NOPE.msh", NULL }, 1, "1 file, 0 models: 1 error", NULL },
    { { "validate", "arc.rlb:NOPE.msh", NULL }, 1, "no entry named “NOPE.msh”", NULL },
    { { "validate", "--json", "arc.rlb:NOPE.msh", NULL }, 1, "\"models\" : 0", NULL },
    { { "validate", "plain.txt", NULL }, 1, "nres-magic", NULL },
  };

  run_cases (cases, G_N_ELEMENTS (cases));
}

/* 1: the input was read, but is not what the command needs */
static void
test_wrong_input (void)
{
  static const Case cases[] = {
    /* not an NRes file */
    { { "info", "plain.txt", NULL }, 1, NULL, "plain.txt" },
    { { "ls", "plain.txt", NULL }, 1, NULL, "plain.txt" },
    { { "dump", "plain.txt", "-t", "nodes", NULL }, 1, NULL, "plain.txt" },
    { { "roundtrip", "plain.txt", NULL }, 1, NULL, "plain.txt" },
    { { "extract", "plain.txt", "#0", "-o", "y", NULL }, 1, NULL, "plain.txt" },
    { { "edit", "plain.txt", "--dry-run", NULL }, 1, NULL, "plain.txt" },
    { { "render", "plain.txt", "-o", "p.png", NULL }, 1, NULL, "plain.txt" },
    /* no such entry */
    { { "info", "arc.rlb:NOPE.msh", NULL }, 1, NULL, "no entry named “NOPE.msh”" },
    { { "dump", "arc.rlb:NOPE.msh", "-t", "nodes", NULL }, 1, NULL, "NOPE.msh" },
    { { "roundtrip", "arc.rlb:NOPE.msh", NULL }, 1, NULL, "NOPE.msh" },
    { { "extract", "arc.rlb", "NOPE.msh", "-o", "y", NULL }, 1, NULL, "NOPE.msh" },
    { { "edit", "arc.rlb:NOPE.msh", "--dry-run", NULL }, 1, NULL, "no entry named" },
    { { "render", "arc.rlb:NOPE.msh", "-o", "p.png", NULL }, 1, NULL, "NOPE.msh" },
    /* an archive where a model is needed: the same status and words everywhere */
    { { "dump", "arc.rlb", "-t", "nodes", NULL }, 1, NULL, "arc.rlb is an archive, not a model" },
    { { "render", "arc.rlb", "-o", "p.png", NULL }, 1, NULL,
      "arc.rlb is an archive, not a model" },
    { { "edit", "arc.rlb", "--dry-run", NULL }, 1, NULL, "arc.rlb is an archive, not a model" },
  };

  run_cases (cases, G_N_ELEMENTS (cases));
  g_assert_false (tmp_file_exists ("y"));
  g_assert_false (tmp_file_exists ("p.png"));
}

/* 1: the operation failed on a readable input; nothing is written */
static void
test_failed (void)
{
  static const Case cases[] = {
    /* a model that fails strict validation: edit says how to open it anyway */
    { { "edit", "bad.msh", "--set", "batches[0].materialIndex=1", NULL }, 1, NULL,
      "--tolerant" },
    /* well-formed edits this model refuses */
    { { "edit", "model.msh", "--set", "slots[999].batchCount=1", NULL }, 1, NULL, "row 999" },
    { { "edit", "model.msh", "--rename-node", "99=x", NULL }, 1, NULL, "node 99" },
    { { "edit", "model.msh", "--set", "nodes[0].slot0=900", "-o", "e2.msh", NULL }, 1, NULL,
      "--save-anyway" },
    /* outputs that cannot be written */
    { { "edit", "model.msh", "--set", "batches[0].materialIndex=2", "-o", "nodir/e.msh", NULL },
      1, NULL, "nodir" },
    { { "extract", "arc.rlb", "Tank.msh", "-o", "nodir/x", NULL }, 1, NULL, "nodir" },
  };
  g_autoptr(GBytes) before = read_file ("model.msh");
  g_autoptr(GBytes) after = NULL;

  run_cases (cases, G_N_ELEMENTS (cases));
  after = read_file ("model.msh");
  g_assert_true (g_bytes_equal (before, after));
  g_assert_false (tmp_file_exists ("e2.msh"));
}

/* Runs every command that reads a FILE on @file: all must exit 2 saying @message. */
static void
check_unreadable (const char *file,
                  const char *message,
                  gboolean    directory)
{
  g_autofree char *entry = g_strconcat (file, ":Tank.msh", NULL);
  const Case cases[] = {
    { { "info", file, NULL }, 2, NULL, message },
    { { "roundtrip", file, NULL }, 2, NULL, message },
    { { "dump", file, "-t", "dir", NULL }, 2, NULL, message },
    { { "ls", file, NULL }, 2, NULL, message },
    { { "extract", file, "#0", "-o", "z", NULL }, 2, NULL, message },
    { { "edit", file, "--set", "batches[0].materialIndex=1", "-o", "z", NULL }, 2, NULL,
      message },
    { { "render", file, "-o", "z.png", NULL }, 2, NULL, message },
    /* a directory given to validate is searched instead (see test-cli.c) */
    { { "validate", file, NULL }, 2, NULL, message },
    /* ARCHIVE:ENTRY names the archive as it is (a directory is never split off) */
    { { "info", entry, NULL }, 2, NULL, message },
    { { "extract", entry, "-o", "z", NULL }, 2, NULL, message },
  };

  run_cases (cases, directory ? 7 : G_N_ELEMENTS (cases));
  g_assert_false (tmp_file_exists ("z"));
  g_assert_false (tmp_file_exists ("z.png"));
}

/* 2: unreadable input: a missing file, one without read permission */
static void
test_unreadable (void)
{
  check_unreadable ("missing.msh", "No such file or directory", FALSE);

  /* permission denied (root reads everything: nothing to see there) */
  if (geteuid () != 0)
    {
      g_autofree char *locked = path_in_tmp ("locked.msh");
      g_autoptr(GBytes) model = read_file ("model.msh");

      write_file (locked, model);
      g_assert_cmpint (g_chmod (locked, 0), ==, 0);
      check_unreadable ("locked.msh", "Permission denied", FALSE);
    }
}

/* 2: a named pipe, socket, device or directory where a file is expected. A named pipe is
 * never opened for reading, so no command waits for a writer: a run that does is ended by the
 * time limit, and the test fails. */
static void
test_not_a_file (void)
{
  g_autofree char *tree = path_in_tmp ("tree");
  g_autofree char *tree_model = path_in_tmp ("tree/a.msh");
  g_autofree char *tree_fifo = path_in_tmp ("tree/b.msh");
  g_autoptr(GBytes) model = read_file ("model.msh");

  run_set_timeout (15);
  check_unreadable ("in.fifo", "“in.fifo” is a named pipe (FIFO), not a regular file", FALSE);
  check_unreadable ("sock.msh", "“sock.msh” is a socket, not a regular file", FALSE);
  check_unreadable ("/dev/null", "“/dev/null” is a device, not a regular file", FALSE);
  check_unreadable ("adir", "“adir” is a directory, not a file", TRUE);

  /* a named pipe found in a directory is skipped like any file that is not NRes */
  g_assert_cmpint (g_mkdir (tree, 0755), ==, 0);
  write_file (tree_model, model);
  g_assert_cmpint (mkfifo (tree_fifo, 0644), ==, 0);
  {
    const Case c = { { "validate", "tree", NULL }, 0, "1 file, 1 model: 0 errors", NULL };

    run_case (&c);
  }
  run_set_timeout (60);
}

/* 1: an output (-o) that is a named pipe or a directory cannot be written; the named pipe
 * stays a named pipe, never replaced by a regular file */
static void
test_output_not_a_file (void)
{
  static const Case cases[] = {
    { { "edit", "model.msh", "--set", "batches[0].materialIndex=2", "-o", "out.fifo", NULL },
      1, NULL, "“out.fifo” is a named pipe (FIFO), not a regular file" },
    { { "edit", "model.msh", "--set", "batches[0].materialIndex=2", "-o", "adir", NULL },
      1, NULL, "“adir” is a directory" },
    { { "extract", "arc.rlb", "Tank.msh", "-o", "out.fifo", NULL }, 1, NULL,
      "“out.fifo” is a named pipe (FIFO), not a regular file" },
    { { "extract", "arc.rlb", "Tank.msh", "-o", "adir", NULL }, 1, NULL, "“adir” is a directory" },
    { { "generate", "-o", "out.fifo", NULL }, 1, NULL, "named pipe" },
    { { "generate", "-o", "adir", NULL }, 1, NULL, "“adir” is a directory" },
    { { "render", "model.msh", "-o", "out.fifo", NULL }, 1, NULL, "named pipe" },
  };

  run_set_timeout (15);
  run_cases (cases, G_N_ELEMENTS (cases));
  g_assert_true (is_fifo ("out.fifo"));
  run_set_timeout (60);
}

/* 2: bad usage, whatever the file holds */
static void
test_usage (void)
{
  static const Case cases[] = {
    { { NULL }, 2, NULL, "Usage:" },
    { { "frobnicate", NULL }, 2, NULL, "“frobnicate” is not a command" },
    { { "info", NULL }, 2, NULL, "expected exactly one FILE" },
    { { "info", "model.msh", "arc.rlb", NULL }, 2, NULL, "expected exactly one FILE" },
    { { "info", "--bogus", "model.msh", NULL }, 2, NULL, "--bogus" },
    { { "validate", "--bogus", "model.msh", NULL }, 2, NULL, "--bogus" },
    { { "validate", "--strict", "--tolerant", "model.msh", NULL }, 2, NULL, "--tolerant" },
    { { "validate", NULL }, 2, NULL, "PATH" },
    { { "roundtrip", NULL }, 2, NULL, "FILE" },
    { { "roundtrip", "--bogus", "model.msh", NULL }, 2, NULL, "--bogus" },
    { { "dump", "model.msh", NULL }, 2, NULL, "--table" },
    { { "dump", "model.msh", "-t", "teapots", NULL }, 2, NULL, "teapots" },
    { { "dump", "model.msh", "-t", "nodes", "-r", "5..2", NULL }, 2, NULL, "5..2" },
    { { "ls", NULL }, 2, NULL, "ARCHIVE" },
    { { "ls", "--bogus", "arc.rlb", NULL }, 2, NULL, "--bogus" },
    { { "extract", "arc.rlb", "Tank.msh", NULL }, 2, NULL, "-o FILE" },
    { { "generate", "--triangles", "5", "-o", "g.msh", NULL }, 2, NULL, "--triangles" },
    { { "generate", NULL }, 2, NULL, "-o FILE" },
    { { "edit", NULL }, 2, NULL, "FILE" },
    { { "edit", "model.msh", "--bogus", NULL }, 2, NULL, "--bogus" },
    { { "edit", "model.msh", "--set", "slots1.x", NULL }, 2, NULL, "TABLE[ROW].FIELD=VALUE" },
    { { "edit", "model.msh", "--set", "nope[1].x=1", NULL }, 2, NULL, "no table “nope”" },
    { { "edit", "model.msh", "--set", "slots[1].nosuch=1", NULL }, 2, NULL, "no field “nosuch”" },
    { { "edit", "model.msh", "--set", "slots[1].batchCount=abc", NULL }, 2, NULL, "“abc”" },
    { { "edit", "model.msh", "--set", "slots[1].batchCount=70000", NULL }, 2, NULL, "70000" },
    { { "edit", "model.msh", "--set", "names[0].text=x", NULL }, 2, NULL, "--rename-node" },
    { { "edit", "model.msh", "--set", "dir[0].size=1", NULL }, 2, NULL, "dir.size" },
    { { "edit", "model.msh", "--rename-node", "x", NULL }, 2, NULL, "NODE=NAME" },
    { { "edit", "model.msh", "--rename-node", "1=塔", NULL }, 2, NULL, "Windows-1251" },
    { { "edit", "model.msh", "--recompute", "bogus", NULL }, 2, NULL, "--recompute bogus" },
    { { "render", "model.msh", NULL }, 2, NULL, "-o FILE" },
    { { "render", "model.msh", "-o", "p.png", "--lod", "3", NULL }, 2, NULL, "--lod" },
  };
  g_autoptr(GBytes) before = read_file ("model.msh");
  g_autoptr(GBytes) after = NULL;

  run_cases (cases, G_N_ELEMENTS (cases));
  after = read_file ("model.msh");
  g_assert_true (g_bytes_equal (before, after));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;
  make_fixtures ();

  g_test_add_func ("/cli/status/0-success", test_success);
  g_test_add_func ("/cli/status/1-problems", test_problems);
  g_test_add_func ("/cli/status/1-wrong-input", test_wrong_input);
  g_test_add_func ("/cli/status/1-failed", test_failed);
  g_test_add_func ("/cli/status/1-output-not-a-file", test_output_not_a_file);
  g_test_add_func ("/cli/status/2-unreadable", test_unreadable);
  g_test_add_func ("/cli/status/2-not-a-file", test_not_a_file);
  g_test_add_func ("/cli/status/2-usage", test_usage);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
