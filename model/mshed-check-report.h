/* mshed-check-report.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reports of a folder check (mshed-folder-check.h), as `mshed-cli validate --json/--csv/--html`
 * and the Check Folder window's Export write them: the JSON document of --json, a CSV table
 * with one finding a row, and one standalone HTML page (inline CSS, no network; a little
 * inline script filters and switches the grouping, and the page reads without it).
 * Findings a baseline holds are left out of every report.
 */
#pragma once

#include <glib.h>

#include "mshed-folder-check.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_REPORT_JSON,
  MSHED_REPORT_CSV,
  MSHED_REPORT_HTML,
} MshedReportFormat;

/* JSON: @d as an element of "diagnostics", @check as an element of "files". */
void     mshed_check_report_json_diagnostic (GString                 *array,
                                             const char              *file,
                                             const MshedDiagnostic   *d);
void     mshed_check_report_json_file       (GString                 *array,
                                             const MshedFileCheck    *check);
/* The whole --json document from the elements written apart. */
void     mshed_check_report_json_document   (GString                 *out,
                                             MshedMode                mode,
                                             const GString           *files,
                                             const GString           *diagnostics,
                                             const MshedFolderTotals *totals,
                                             gboolean                 baseline);

/* Where @d is, as the reports show it: "table[record].field" (NRes), "node path[record].field"
 * (UTF), or "" (@d NULL). */
char       *mshed_check_report_location       (const MshedDiagnostic *d);
/* "error", "warning", "info", translated */
const char *mshed_check_report_severity_label (MshedSeverity          severity);

/* The report of @results (MshedFileCheck, in walk order) of checking @root. */
char    *mshed_check_report_format          (MshedReportFormat        format,
                                             GPtrArray               *results,
                                             const char              *root,
                                             MshedMode                mode,
                                             const MshedFolderTotals *totals,
                                             gboolean                 baseline);
/* The same, written atomically to @path. */
gboolean mshed_check_report_write           (MshedReportFormat        format,
                                             const char              *path,
                                             GPtrArray               *results,
                                             const char              *root,
                                             MshedMode                mode,
                                             const MshedFolderTotals *totals,
                                             gboolean                 baseline,
                                             GError                 **error);

G_END_DECLS
