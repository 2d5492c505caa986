/* mshed-recompute-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Helpers shared by mshed-recompute.c and mshed-recompute-header.c.
 */
#pragma once

#include "mshed-model.h"

G_BEGIN_DECLS

/* A resource's payload (its first entry of @type), NULL with *@size 0 when there is none */
const guint8 *_mshed_recompute_res_data  (const MshedModel *model,
                                          guint32           type,
                                          gsize            *size);
/* The smallest float whose square covers @d2 */
float         _mshed_recompute_radius_up (double            d2);

G_END_DECLS
