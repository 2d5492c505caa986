/* mshed-baseline.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Baselines of a folder check (README, "Baselines"): where a finding is, never its offset.
 */
#pragma once

#include <glib.h>

#include "mshed-diagnostic.h"

G_BEGIN_DECLS

typedef struct {
  const char *file;      /* relative to the checked folder */
  const char *entry;     /* archive entry, or NULL */
  const char *check;     /* mshed_check_to_string(), or "failure" */
  gint64      res_type;  /* NRes resource type, -1 when none */
  const char *table;     /* schema table name, or NULL */
  gint64      record;    /* -1 when none */
  const char *field;
  const char *path;      /* UTF node path, or NULL */
} MshedFinding;

typedef struct _MshedBaseline MshedBaseline;

/* The finding @d of @file (NULL: a failure that left no error diagnostic); borrows from both. */
void           mshed_finding_init          (MshedFinding          *f,
                                            const char            *file,
                                            const MshedDiagnostic *d);
/* The CLI name of the table of @d (MSH or DFM), or NULL. */
const char    *mshed_diagnostic_table_name (const MshedDiagnostic *d);
char          *mshed_baseline_key          (const MshedFinding    *finding);
MshedBaseline *mshed_baseline_load         (const char            *path,
                                            GError               **error);
void           mshed_baseline_free         (MshedBaseline         *self);
guint          mshed_baseline_count        (const MshedBaseline   *self,
                                            const char            *key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedBaseline, mshed_baseline_free)

G_END_DECLS
