/* gen-shapes.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The generator's shapes that the round-trip tests cover: every option alone and together
 * (header-only, static functions).
 */
#pragma once

#include <string.h>

#include "mshed-generator.h"

typedef struct {
  const char *name;
  guint       n_triangles;
  guint       n_nodes;
  gboolean    ext;
  gboolean    legacy;
  gboolean    animated;
  gboolean    cyrillic;
  gboolean    empty;
  gboolean    res17;
  guint       n_seeds;
} Shape;

static const Shape shapes[] = {
  { "tiny",           12,    1,  FALSE, FALSE, FALSE, FALSE, FALSE, FALSE, 16 },
  { "tiny-nodes",     12,    38, FALSE, FALSE, TRUE,  TRUE,  TRUE,  FALSE, 8 },
  { "basic",          1000,  0,  FALSE, FALSE, FALSE, FALSE, FALSE, FALSE, 8 },
  { "res18-20",       1500,  0,  TRUE,  FALSE, FALSE, FALSE, FALSE, TRUE,  8 },
  { "animated",       3000,  38, FALSE, FALSE, TRUE,  FALSE, FALSE, FALSE, 6 },
  { "animated-ext",   2500,  12, TRUE,  FALSE, TRUE,  TRUE,  TRUE,  TRUE,  6 },
  { "names",          400,   7,  FALSE, FALSE, FALSE, TRUE,  TRUE,  FALSE, 8 },
  { "names-one-node", 100,   1,  FALSE, FALSE, FALSE, TRUE,  TRUE,  FALSE, 4 },
  { "empty-one-node", 100,   1,  FALSE, FALSE, TRUE,  FALSE, TRUE,  FALSE, 4 },
  { "legacy",         800,   0,  FALSE, TRUE,  FALSE, FALSE, FALSE, FALSE, 6 },
  { "legacy-ext",     300,   2,  TRUE,  TRUE,  TRUE,  TRUE,  TRUE,  TRUE,  4 },
  { "descriptor-cap", 70000, 20, TRUE,  FALSE, TRUE,  TRUE,  FALSE, FALSE, 1 },
};

static inline void
params_for_shape (const Shape    *shape,
                  guint64         seed,
                  MshedGenParams *p)
{
  mshed_gen_params_init (p, seed);
  p->n_triangles = shape->n_triangles;
  p->n_nodes = shape->n_nodes;
  p->with_res18_20 = shape->ext;
  p->legacy_nodes = shape->legacy;
  p->animated = shape->animated;
  p->cyrillic_names = shape->cyrillic;
  p->empty_names = shape->empty;
  p->res17_data = shape->res17;
}

static inline const Shape *
find_shape (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (strcmp (shapes[i].name, name) == 0)
      return &shapes[i];
  g_assert_not_reached ();
}
