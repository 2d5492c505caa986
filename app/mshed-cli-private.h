/* mshed-cli-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the mshed-cli subcommands. Every subcommand is `int name (int argc, char **argv)`
 * where argv[0] is the subcommand's own name; it returns the process exit status.
 */
#pragma once

#include <glib.h>

#include "mshed-dfm-schema.h"
#include "mshed-diagnostic.h"
#include "mshed-document.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-source.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

/* Exit statuses: the one table every subcommand follows (README, "Exit status"; the grep/diff
 * convention). The line between 1 and 2: 2 means the command never got to the content, because
 * it could not read an input or was asked something no file could satisfy; 1 means it read
 * the input and either found problems or could not do the job on that input. */
typedef enum {
  /* success: clean, identical, printed, written */
  MSHED_CLI_EXIT_OK = 0,
  /* problems found, or the operation failed on a readable input: validation errors, a
   * round-trip difference, not an NRes file or a broken container, no such entry, row or
   * node in this file, an archive where a model is needed, a model that fails strict
   * validation (edit without --tolerant), an edit the model refuses, a result that fails
   * strict validation (without --save-anyway), an output that cannot be written (including a
   * directory, FIFO, device or socket named by -o), no offscreen GL for render */
  MSHED_CLI_EXIT_PROBLEMS = 1,
  /* unreadable input (missing, permission denied, a directory, FIFO, device or socket where a
   * file is expected) or bad usage: unknown command or option, missing or extra arguments,
   * an option value out of range, a malformed --set, an unknown table or field, a value no
   * field of that type can hold, a name with no Windows-1251 form, an unknown --recompute */
  MSHED_CLI_EXIT_TROUBLE = 2,
} MshedCliExit;

/* Bad usage found after option parsing (a malformed --set, an unknown table or field, an
 * unknown --recompute name): the command line is wrong whatever the file holds. */
#define MSHED_CLI_ERROR (mshed_cli_error_quark ())
typedef enum {
  MSHED_CLI_ERROR_USAGE,
} MshedCliErrorCode;

/* What a command was doing when an error came: reading an input named on the command line
 * (opening, mapping, parsing it), or working on what it read (editing, writing, drawing). */
typedef enum {
  MSHED_CLI_STEP_READ,
  MSHED_CLI_STEP_WORK,
} MshedCliStep;

/* Subcommands. */
int          mshed_cli_info       (int argc, char **argv);
int          mshed_cli_validate   (int argc, char **argv);
int          mshed_cli_roundtrip  (int argc, char **argv);
int          mshed_cli_dump       (int argc, char **argv);
int          mshed_cli_ls         (int argc, char **argv);
int          mshed_cli_extract    (int argc, char **argv);
int          mshed_cli_generate   (int argc, char **argv);
int          mshed_cli_edit       (int argc, char **argv);
int          mshed_cli_render     (int argc, char **argv);
int          mshed_cli_diff       (int argc, char **argv);
int          mshed_cli_merge      (int argc, char **argv);
int          mshed_cli_fix        (int argc, char **argv);
int          mshed_cli_export     (int argc, char **argv);
int          mshed_cli_import     (int argc, char **argv);
int          mshed_cli_archive    (int argc, char **argv);
int          mshed_cli_convert    (int argc, char **argv);

/* Helpers (mshed-cli.c). */
const char  *mshed_cli_prgname    (void);
void         mshed_cli_error      (const char   *format,
                                   ...) G_GNUC_PRINTF (1, 2);
gboolean     mshed_cli_parse      (GOptionContext *context,
                                   int           *argc,
                                   char        ***argv);
GOptionContext *mshed_cli_context_new (const char   *parameter,
                                       const char   *summary,
                                       GOptionEntry *entries);
char        *mshed_cli_type_name  (guint32       type_id);
int          mshed_cli_text_width (const char   *utf8);
void         mshed_cli_pad        (GString      *out,
                                   const char   *text,
                                   int           width,
                                   gboolean      right);
void         mshed_cli_flush      (GString      *out,
                                   gboolean      force);
GQuark       mshed_cli_error_quark (void);
MshedCliExit mshed_cli_exit_status (const GError *error,
                                    MshedCliStep  step);
gboolean     mshed_cli_check_output (const char  *path);
gboolean     mshed_cli_same_file  (const char   *output,
                                   const char   *spec);
MshedSource *mshed_cli_open       (const char   *spec,
                                   MshedMode     mode,
                                   MshedDiagnostics *diags,
                                   int          *status);
MshedSource *mshed_cli_open_model (const char   *spec,
                                   MshedDiagnostics *diags,
                                   int          *status);
guint64      mshed_cli_triangle_count (const MshedModel *model);
gboolean     mshed_cli_has_nres_magic (GBytes   *bytes);
gboolean     mshed_cli_has_utf_magic (GBytes    *bytes);
void         mshed_cli_json_string (GString     *out,
                                    const char  *text);
gboolean     mshed_cli_parse_count (const char  *option,
                                    const char  *text,
                                    guint64      min,
                                    guint64      max,
                                    guint       *out);

/* Freelancer UTF files (mshed-cli-utf.c). */
gboolean     mshed_cli_is_utf_file      (const char *path);
MshedUtfNode *mshed_cli_utf_find_node   (MshedUtf   *utf,
                                         const char *spec);
int          mshed_cli_utf_info         (const char *path);
int          mshed_cli_utf_ls           (const char *path,
                                         gboolean    long_format);
int          mshed_cli_utf_extract      (const char *path,
                                         const char *node_spec,
                                         const char *output);
int          mshed_cli_utf_roundtrip_one (GString   *out,
                                          const char *path);

/* Freelancer deformable models (mshed-cli-dfm.c, dump in mshed-cli-dump.c). */
void         mshed_cli_dfm_summary      (GString          *out,
                                         MshedUtf         *utf,
                                         MshedDiagnostics *diags);

/* One node holding a DFM table: its records are the table rows first_row.. (mshed-cli-dfm.c),
 * as `dump --table` prints them and `edit --set TABLE[ROW]` takes them. */
typedef struct {
  MshedUtfNode *node;
  guint64       first_row;
  guint64       n_rows;     /* its records; 1 for a string payload */
} MshedCliDfmSpan;

GArray      *mshed_cli_dfm_spans        (MshedUtfNode            *root,
                                         const MshedDfmTableInfo *info,
                                         guint64                 *n_rows);
/* The bytes of @p before its first NUL, @size at most. */
gsize        mshed_cli_text_length      (const guint8            *p,
                                         gsize                    size);
const MshedCliDfmSpan *mshed_cli_dfm_find_span (GArray             *spans,
                                                guint64             row,
                                                const MshedUtfNode *node);

/* mshed-cli edit (mshed-cli-edit.c) on UTF files (mshed-cli-edit-dfm.c). */
typedef struct {
  MshedDocument *doc;
  GString       *out;
  gboolean       report_changes;
} MshedCliEdit;

gboolean     mshed_cli_edit_utf_set        (MshedCliEdit      *edit,
                                            const char        *spec,
                                            GError           **error);
gboolean     mshed_cli_edit_utf_set_bytes  (MshedCliEdit      *edit,
                                            const char        *spec,
                                            GError           **error);
gboolean     mshed_cli_edit_utf_rename     (MshedCliEdit      *edit,
                                            const char        *spec,
                                            GError           **error);
void         mshed_cli_edit_utf_changed    (MshedCliEdit      *edit,
                                            const MshedChange *change);
void         mshed_cli_edit_dfm_stale_rows (MshedCliEdit      *edit,
                                            const MshedStale  *stale,
                                            GString           *out);

G_END_DECLS
