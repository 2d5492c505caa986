/* test-cli-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the programs that run the built mshed-cli ($MSHED_CLI) as a user runs it: in a
 * temporary directory, with a time limit, capturing the exit status, stdout and stderr.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "mshed-dfm.h"
#include "mshed-document.h"
#include "mshed-model.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

typedef struct {
  int   status;      /* the exit status */
  char *out;
  char *err;
} Run;

gboolean  cli_test_init      (void);
void      cli_test_finish    (int         status);
const char *cli_test_dir     (void);

void      run_clear          (Run        *run);
void      run_cli            (Run        *run,
                              const char *first,
                              ...) G_GNUC_NULL_TERMINATED;
void      run_cli_argv       (Run        *run,
                              const char *const *args);
void      run_set_timeout    (guint       seconds);
void      run_cli_ok         (const char *first,
                              ...) G_GNUC_NULL_TERMINATED;
/* `validate` finds nothing at all in @name (no error, no warning). */
void      assert_validates_clean (const char *name);
/* mshed-cli generate -q ARGS -o OUT (ARGS split at spaces), which must succeed. */
void      run_cli_generate   (const char *args,
                              const char *out);
/* Files @a and @b of the test's folder hold the same bytes. */
void      assert_same_files  (const char *a,
                              const char *b);
void      run_cli_plant      (const char *spec,
                              const char *set);
void      make_planted_game  (const char *dir);

char     *path_in_tmp        (const char *name);
GBytes   *read_file          (const char *name);
void      write_file         (const char *name,
                              GBytes     *bytes);
gboolean  write_text         (const char *name,
                              const char *text);
gboolean  tmp_file_exists    (const char *name);
JsonNode *parse_json         (const char *text);
/* The JSON of a .gltf (or any JSON file) in the test's folder. */
JsonNode *read_json          (const char *name);
void      check_json_with_python (const char *text);
guint32   resource_offset    (GBytes     *file,
                              guint32     type);
GBytes   *patch_u16          (GBytes     *bytes,
                              gsize       offset,
                              guint16     value);

MshedUtf *read_utf_tree      (const char *name,
                              MshedMode   mode);
/* tests/gltf/blender-roundtrip.py IN OUT [EDITS…] through Blender run headless in the test's
 * folder (names relative to it), which must succeed; FALSE when Blender is not installed. */
gboolean  run_blender_roundtrip (const char        *in,
                                 const char        *out,
                                 const char *const *edits);

/* @doc's only undo step is "Import glTF": undo gives back @original and leaves nothing to
 * undo, redo gives back what @doc holds now. */
void      assert_import_undo_redo (MshedDocument *doc,
                                   GBytes        *original);

/* Point @p's influences at level 0 of @dfm as (bone, weight bits) pairs of guint32, in stored
 * order. */
GArray   *point_influences   (MshedDfm   *dfm,
                              guint       p);

/* The name an export gives node @node: Res10 decoded by iconv (not by our own Windows-1251
 * table), "node N" when empty. */
char     *expected_node_name (MshedModel *model,
                              guint       node);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

G_END_DECLS
