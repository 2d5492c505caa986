/* mshed-diff-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The alignment of docs/diff.md §2, shared by the diff and the three-way merge.
 */
#pragma once

#include "mshed-dfm-schema.h"
#include "mshed-diff.h"

G_BEGIN_DECLS

typedef struct {
  guint a;  /* MSHED_DIFF_NO_ROW: added in B */
  guint b;  /* MSHED_DIFF_NO_ROW: removed from A */
} MshedDiffPair;

typedef enum {
  MSHED_DIFF_GAP_PAIR_NONE,   /* rows between two matches are removed and added */
  MSHED_DIFF_GAP_PAIR_EQUAL,  /* paired in order when both sides have as many (renames) */
  MSHED_DIFF_GAP_PAIR_ALL,    /* paired in order as far as they go (records) */
} MshedDiffGapMode;

typedef gboolean (*MshedDiffEqFunc) (gpointer data,
                                     guint    i,
                                     guint    j);

GArray *mshed_diff_align (guint             na,
                          guint             nb,
                          MshedDiffEqFunc   eq,
                          gpointer          data,
                          MshedDiffGapMode  mode);

GArray *mshed_diff_align_nodes (MshedModel *a,
                                MshedModel *b,
                                guint       na,
                                guint       nb);

/* A fixed-stride table as the diff compares it. */
typedef struct {
  gint                     table;
  const char              *table_name;
  const MshedField        *fields;
  guint                    n_fields;
  const MshedDfmTextField *texts;
  guint                    n_texts;
  guint                    stride;
  gsize                    header;           /* bytes before the first record */
  gboolean                 header_is_bytes;  /* compare those bytes as a byte range */
  gboolean                 geometry;         /* x, y, z floats at offset 0 */
  guint                  (*count_triangles) (gpointer      data,
                                             const guint8 *moved,
                                             guint         n_vertices);
  gpointer                 triangles_data;
} MshedDiffTable;

MshedDiffTable  mshed_diff_msh_table   (MshedTableId          table,
                                        guint                 stride);
MshedDiffTable  mshed_diff_dfm_table   (MshedDfmTable         table);
guint8         *mshed_diff_table_mask  (const MshedDiffTable *t);
char           *mshed_diff_hex         (const guint8         *p,
                                        gsize                 n);
GPtrArray      *mshed_diff_children    (MshedUtfNode         *dir);

void    mshed_diff_records (MshedDiff            *self,
                            const MshedDiffTable *t,
                            const guint8         *a,
                            gsize                 size_a,
                            const guint8         *b,
                            gsize                 size_b);

G_END_DECLS
