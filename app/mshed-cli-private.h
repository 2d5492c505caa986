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

#include "mshed-diagnostic.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-source.h"

G_BEGIN_DECLS

/* Exit statuses, the same for every subcommand (the grep/diff convention). */
#define MSHED_CLI_EXIT_OK       0  /* success, the model is clean, the bytes are identical */
#define MSHED_CLI_EXIT_PROBLEMS 1  /* validation errors, a round-trip difference, a failed operation */
#define MSHED_CLI_EXIT_TROUBLE  2  /* unreadable input or bad usage */

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
MshedSource *mshed_cli_open       (const char   *spec,
                                   MshedMode     mode,
                                   MshedDiagnostics *diags,
                                   int          *status);
int          mshed_cli_error_status (const GError *error);
guint64      mshed_cli_triangle_count (const MshedModel *model);
gboolean     mshed_cli_has_nres_magic (GBytes   *bytes);

G_END_DECLS
