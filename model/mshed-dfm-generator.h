/* mshed-dfm-generator.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A deterministic generator of complete deformable models (docs/dfm.md): heads, bodies and
 * hands with the shapes the retail statistics of docs/dfm.md §13 describe, built as UTF trees
 * in the retail node order (§2). There are no game files in the project; tests use these.
 *
 * What a generated model has:
 *  - six levels with fractions 1, 0.8, 0.6, 0.4, 0.2, 0.1, or four with 1, 0.8, 0.6, 0.2 (§3);
 *  - per level, tubes of quads around the bones, as strips made with our encoder (§5.3, runs
 *    joined, so rows are real strips joined by degenerate entries), wound so that the face
 *    normals agree with the stored point normals (§5.2); a UV seam on every tube (elements
 *    that share a point, §6.1); UV0 stored in another order than the elements; UV1 optional;
 *  - one to four influences per point in about the retail proportions, weights summing to 1,
 *    detached bones skinned too (§6.2, §10.4); now and then an unreferenced point;
 *  - heads: the UV bone block on Mesh0 (§6.4) and the detached Neck (and sometimes
 *    UpperTorso, LCollarBone, RCollarBone) with their one fixed hardpoint each; hands: 22
 *    bones, one detached wrist with `hp_left a` / `hp_right a`; bodies: no detached bone;
 *  - Cmpnd with Scale 1, Root, Part_* in bone order (with gaps where detached bones are), one
 *    Sphere or Loose record per named non-root bone (mostly Loose), every record with name
 *    residue unless asked otherwise (§9.3); the constraint chain reproduces `Bone to root`;
 *  - `Lod Bits` all-or-nothing (0x3F / 0x0F, 0 on detached and a few other bones), fixed
 *    hardpoints, an embedded Material and Texture library.
 *
 * Every generated model passes mshed_dfm_validate in strict mode with no error and no
 * warning; the only findings are the notes retail files carry too (name residue, detached
 * bones, unreferenced points). Floats are quantised, so the output does not depend on the
 * last bits of the C library's trigonometry in practice.
 */
#pragma once

#include <glib.h>

#include "mshed-utf.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_DFM_GEN_BODY,
  MSHED_DFM_GEN_HEAD,
  MSHED_DFM_GEN_HAND,
} MshedDfmGenKind;

typedef struct {
  guint64         seed;
  MshedDfmGenKind kind;
  guint           n_levels;    /* 6 or 4 (the two retail fraction sets); 0 = 6 */
  guint           n_bones;     /* 0 = the kind's retail range (heads 63–86, bodies 28–57,
                                * hands 22); else clamped to 4..200 */
  guint           n_points;    /* points of Mesh0, about; 0 = pick 300..900; clamped to
                                * 32..20000 (elements stay below 65536) */
  guint           n_groups;    /* face groups (materials) per level, 1..8; 0 = pick 1..4 */
  gboolean        uv1;         /* UV1_indices and UV1 on every level */
  gboolean        edges;       /* Edge_indices and Edge_angles on the groups of Mesh0 */
  gboolean        no_residue;  /* zero-filled Cons name padding (retail has residue) */
  gboolean        right;       /* hands: the right hand (else the left) */
} MshedDfmGenParams;

void      mshed_dfm_gen_params_init (MshedDfmGenParams       *params,
                                     MshedDfmGenKind          kind,
                                     guint64                  seed);
MshedUtf *mshed_dfm_generate        (const MshedDfmGenParams *params);
GBytes   *mshed_dfm_generate_bytes  (const MshedDfmGenParams *params);

G_END_DECLS
