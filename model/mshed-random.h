/* mshed-random.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one splitmix64 step the generators build their random streams on (Steele, Lea and
 * Flood, "Fast splittable pseudorandom number generators", 2014). Each generator keeps its
 * own way of turning the stream into ranges, because the bytes of every generated file depend
 * on it; only the step itself is shared.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Advances *state and returns the next 64 random bits. */
static inline guint64
mshed_splitmix64 (guint64 *state)
{
  guint64 z = (*state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

G_END_DECLS
