/* mshed-utf-generator.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A deterministic generator of UTF files (docs/utf.md): generic trees, laid out canonically
 * (docs/utf.md §8) or in any of the non-canonical ways the writer must preserve
 * (docs/utf.md §7), and the node skeleton of a Freelancer deformable model (DFM) with payloads
 * of plausible sizes. There are no game files in the project; tests use these instead.
 *
 * The output depends only on the parameters (a splitmix64 stream per seed). Generated files
 * parse in strict mode without errors; non-canonical layouts carry only the warnings and notes
 * their options ask for (padding, layout, overlap-free shared payloads, timestamps).
 */
#pragma once

#include <glib.h>

#include "mshed-utf.h"

G_BEGIN_DECLS

#define MSHED_UTF_GEN_MAX_NODES 200000u

/* How mshed_utf_layout places a tree in a file. 0 is the canonical layout of docs/utf.md §8. */
typedef enum {
  MSHED_UTF_GEN_NAMES_FIRST     = 1 << 0,   /* dictionary before the tree (voice banks,
                                             * docs/utf.md §1) */
  MSHED_UTF_GEN_DATA_FIRST      = 1 << 1,   /* data block before the dictionary (docs/utf.md §1) */
  MSHED_UTF_GEN_SHUFFLE_ENTRIES = 1 << 2,   /* entries in a random physical order
                                             * (docs/utf.md §3.3) */
  MSHED_UTF_GEN_NAMES_SLACK     = 1 << 3,   /* dictionary over-allocated, slack non-zero
                                             * (docs/utf.md §4) */
  MSHED_UTF_GEN_LEADING_EMPTY   = 1 << 4,   /* dictionary starts with an empty string
                                             * (docs/utf.md §4) */
  MSHED_UTF_GEN_NO_DEDUP        = 1 << 5,   /* every entry stores its own copy of its name */
  MSHED_UTF_GEN_EXACT_ALLOC     = 1 << 6,   /* dataSizeAllocated = dataSizeUsed (treewyrm) */
  MSHED_UTF_GEN_PAD_JUNK        = 1 << 7,   /* payload padding holds non-zero bytes
                                             * (docs/utf.md §5) */
  MSHED_UTF_GEN_SHARE_PAYLOADS  = 1 << 8,   /* identical payloads share one range
                                             * (docs/utf.md §5) */
  MSHED_UTF_GEN_GAPS            = 1 << 9,   /* unreferenced bytes between regions and payloads
                                             * and after the end (docs/utf.md §7 item 5) */
  MSHED_UTF_GEN_TREE_SLACK      = 1 << 10,  /* unreachable entries and trailing bytes in the
                                             * tree block */
  MSHED_UTF_GEN_HEADER_EXTRA    = 1 << 11,  /* entryOffset, unusedOffset/Size set
                                             * (docs/utf.md §2) */
  MSHED_UTF_GEN_REVERSE_DATA    = 1 << 12,  /* payloads stored in reverse tree order */
  MSHED_UTF_GEN_ALL_LAYOUTS     = (1 << 13) - 1,
} MshedUtfGenLayout;

typedef struct {
  guint64           seed;
  guint             n_nodes;      /* entries including the root, 1..MSHED_UTF_GEN_MAX_NODES;
                                   * 0 = pick 8..200 (a few more may be added so that no
                                   * directory is empty) */
  guint             max_depth;    /* directory nesting below the root, 1..64; 0 = 6 */
  guint             max_payload;  /* bytes, 0 = 64 */
  gboolean          odd_times;    /* random DOS times, some of them no valid date */
  MshedUtfGenLayout layout;
} MshedUtfGenParams;

typedef struct {
  guint64  seed;
  guint    n_levels;     /* 4 or 6 (dfm.md: the two retail fraction sets); 0 = 6 */
  guint    n_bones;      /* bone directories, 2..200; 0 = pick 22..86 */
  guint    n_groups;     /* face groups per mesh, 1..16; 0 = pick 1..4 */
  guint    n_points;     /* points of Mesh0, 8..60000; 0 = pick 200..600 */
  guint    n_materials;  /* 1..16; 0 = n_groups */
  gboolean head;         /* UV bone block on Mesh0 and a detached `Neck` bone */
  gboolean uv1;          /* UV1_indices and UV1 on every mesh */
} MshedUtfDfmParams;

MshedUtf *mshed_utf_generate_tree (const MshedUtfGenParams *params);
GBytes   *mshed_utf_generate      (const MshedUtfGenParams *params);
GBytes   *mshed_utf_layout        (MshedUtf                *tree,
                                   MshedUtfGenLayout        layout,
                                   guint64                  seed);
MshedUtf *mshed_utf_generate_dfm  (const MshedUtfDfmParams *params);

G_END_DECLS
