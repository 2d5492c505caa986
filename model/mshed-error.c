/* mshed-error.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "mshed-error.h"

G_DEFINE_QUARK (mshed-model-error-quark, mshed_model_error)
