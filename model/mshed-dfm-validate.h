/* mshed-dfm-validate.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Validation of a deformable model (docs/dfm.md §14): one check id (MSHED_CHECK_DFM_*) per
 * rule, each finding a MshedDiagnostic with the node path, the DFM table, record and field,
 * and the byte offset. A rule has one severity in both modes: the rules docs/dfm.md §14
 * rejects are errors, the ones it tolerates warnings (notes for what every retail file does:
 * Cons name residue, detached bones, unreferenced points). Tolerant mode adds to each error
 * what a reader of the view drops for it.
 */
#pragma once

#include "mshed-diagnostic.h"
#include "mshed-dfm.h"

G_BEGIN_DECLS

gboolean mshed_dfm_validate (const MshedDfm   *dfm,
                             MshedMode         mode,
                             MshedDiagnostics *diags);

G_END_DECLS
