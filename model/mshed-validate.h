/* mshed-validate.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Container and model validation (docs/nres.md §7.2/§8, docs/msh.md §3 and §9). Every finding
 * becomes a structured MshedDiagnostic. Strict mode: every violated invariant of docs/msh.md §9.1
 * is an error.
 * Tolerant mode: the same checks, but locally broken items are reported as dropped (warnings)
 * and the model stays loadable; consumers use the bounds-checked accessors and skip them.
 */
#pragma once

#include "mshed-diagnostic.h"
#include "mshed-model.h"
#include "mshed-nres.h"

G_BEGIN_DECLS

/* Checks the canonical-layout rules (docs/nres.md §7.2 issues) of an already parsed container;
 * the hard rules are applied by mshed_nres_parse itself. */
void     mshed_validate_nres_layout (const MshedNres  *nres,
                                     MshedDiagnostics *diags);
/* Checks every model invariant. Returns FALSE when an error-severity diagnostic was added. */
gboolean mshed_validate_model       (const MshedModel *model,
                                     MshedMode         mode,
                                     MshedDiagnostics *diags);

G_END_DECLS
