/* mshed-generator.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A deterministic generator of synthetic models and game-like archives. There are no game
 * files in the project; tests, the benchmark and the bundled sample use these instead.
 *
 * Every generated model passes strict validation without errors or warnings (the legacy
 * 24-byte node variant only carries the informational MSHED_CHECK_LEGACY_NODES note) and
 * has every shape docs/msh.md describes: both corpus resource orders (§11), Res18/Res20, static
 * and animated key pools in the canonical §7.7 layout, parent-before-child hierarchies,
 * Windows-1251 and empty node names, LOD/group gaps and shared slots, several batches per
 * slot with baseVertex, bounds computed from the geometry, and opaque Res9/Res17/Res20.
 *
 * Conventions the spec leaves open (docs/msh.md §10.5), chosen here: bounds and the Res2 header
 * are computed from the raw Res3 positions; hull point i is the corner of the box around
 * all vertices that takes the maximum on axis k when bit k of i is set; the header sphere is
 * centred on that box; the capsule runs along the box's longest axis. Res7 has one
 * descriptor per triangle, in Res6 order, linking its grid neighbours, while the model has
 * at most 65535 triangles, and a proportional share of 65535 descriptors per slot above.
 *
 * The output depends only on the parameters: the generator has its own PRNG (xoshiro256**
 * seeded through splitmix64), and every floating-point value that reaches the file is
 * quantised (positions to 1/256, normals, UVs and quaternions through the §5 encoders), so
 * last-bit differences between C libraries' trigonometry practically never show.
 *
 * Values whose meaning is unknown (node flags, slot and batch tail words, descriptor flags
 * and selectors, Res9/Res15/Res17/Res18/Res20 contents and the attributes of Res9/17/20)
 * are plausible but invented; they exist to exercise preservation, not to run in the game.
 */
#pragma once

#include <glib.h>

#include "mshed-nres.h"

G_BEGIN_DECLS

#define MSHED_GEN_MIN_TRIANGLES 12u
#define MSHED_GEN_MAX_TRIANGLES 200000u
#define MSHED_GEN_MAX_NODES     64u
#define MSHED_GEN_MAX_MATERIALS 16u

#define MSHED_WEAR_TYPE 0x52414557u  /* "WEAR" */
#define MSHED_TEXM_TYPE 0x6D786554u  /* "Texm" */

typedef struct {
  guint64  seed;            /* drives every random choice of the model */
  guint    n_triangles;     /* exact triangle count, clamped to 12..200000 */
  guint    n_nodes;         /* 1..64; 0 = pick from the seed (1..38) */
  guint    n_materials;     /* WEAR rows the batches use, 1..16; 0 = pick (1..8) */
  gboolean with_res18_20;   /* order 1,2,3,4,5,18,15,13,6,7,8,19,9,10,17,20 instead of
                             * 1,2,3,4,5,15,13,6,7,8,19,9,10,17 */
  gboolean legacy_nodes;    /* 24-byte Res1 records (MTCHECK.MSH): one key, empty Res19 */
  gboolean animated;        /* some nodes get tracks and Res19 map blocks (ignored when
                             * legacy_nodes is set) */
  gboolean cyrillic_names;  /* node 0 and some others get Windows-1251 Cyrillic names */
  gboolean empty_names;     /* the last node (unless it is node 0 and cyrillic_names is set)
                             * and some others have a zero-length name */
  gboolean res17_data;      /* Res17 carries bytes (empty otherwise, as in most retail files) */
} MshedGenParams;

void        mshed_gen_params_init           (MshedGenParams       *params,
                                             guint64               seed);
void        mshed_gen_params_init_from_seed (MshedGenParams       *params,
                                             guint64               seed);

MshedNres  *mshed_generate_model            (const MshedGenParams *params);
GBytes     *mshed_generate_model_bytes      (const MshedGenParams *params);
/* Fills the derived data of a model built from its geometry (slot boxes and spheres, the
 * Res2 header, the Res7 face normals and links of mapped slots) with the editor's recompute
 * functions (mshed-recompute.h). Used by the generator and by glTF import of a new model. */
void        mshed_generate_derive           (MshedNres            *nres);

MshedNres  *mshed_generate_archive          (guint64               seed,
                                             guint                 n_models,
                                             guint                 max_triangles);
GBytes     *mshed_generate_archive_bytes    (guint64               seed,
                                             guint                 n_models,
                                             guint                 max_triangles);

G_END_DECLS
