/* mshed-dfm-fast.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fast path of validation for deformable models (docs/dfm.md §14.1): one pass over the
 * bytes of a UTF file, without a tree, that either decides the file completely or declines.
 */
#pragma once

#include "mshed-diagnostic.h"

G_BEGIN_DECLS

gboolean mshed_dfm_validate_fast (const guint8     *data,
                                  gsize             len,
                                  MshedDiagnostics *diags);

G_END_DECLS
