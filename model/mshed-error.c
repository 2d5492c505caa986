/* mshed-error.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "mshed-error.h"

/* Not G_DEFINE_QUARK: it caches the quark in a plain static that two threads creating their
 * first error at once both write (mshed-cli validate checks files on several threads). The
 * value is the same, but it is a data race, and ThreadSanitizer reports it. */
GQuark
mshed_model_error_quark (void)
{
  static gsize quark = 0;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark, g_quark_from_static_string ("mshed-model-error-quark"));
  return (GQuark) quark;
}
