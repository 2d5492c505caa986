/* test-require.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Skipping a test whose environment is missing (no display, no EGL, no xdotool), except where
 * every test must run: with MSHED_REQUIRE_ALL_TESTS=1 (`./mshed-dev test`, so CI) such a skip
 * is a failure, and a run cannot be green with the GUI tests left out.
 */
#pragma once

#include <glib.h>
#include <string.h>

static inline gboolean
mshed_test_require_all (void)
{
  const char *value = g_getenv ("MSHED_REQUIRE_ALL_TESTS");

  return value != NULL && value[0] != '\0' && strcmp (value, "0") != 0;
}

/* Instead of g_test_skip() for a missing environment: a skip, or a failure in CI. */
static inline void
mshed_test_skip (const char *reason)
{
  if (mshed_test_require_all ())
    g_test_fail_printf ("%s (MSHED_REQUIRE_ALL_TESTS is set: a skipped test is a failure)",
                        reason);
  else
    g_test_skip (reason);
}

/* A whole program that cannot run (before g_test_run()): TAP's skip plan, or a bail-out in
 * CI. Returns main()'s exit status. */
static inline int
mshed_test_skip_program (const char *reason)
{
  if (mshed_test_require_all ())
    {
      g_print ("Bail out! %s (MSHED_REQUIRE_ALL_TESTS is set: a skipped test is a failure)\n",
               reason);
      return 1;
    }
  g_print ("1..0 # SKIP %s\n", reason);
  return 0;
}
