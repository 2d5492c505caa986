/* mshed-nres-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by mshed-nres.c (parsing, editing, canonical writing) and mshed-nres-layout.c (the
 * lossless layout of an edited non-canonical archive).
 */
#pragma once

#include "mshed-nres.h"

G_BEGIN_DECLS

struct _MshedNres {
  gatomicrefcount ref_count;
  GBytes  *source;        /* the bytes it was parsed from, NULL for a new archive */
  guint32  version;
  GArray  *entries;       /* MshedNresEntry */
  GArray  *removed;       /* MshedNresBlock: source payloads of entries removed since load */
  guint    canonical : 1; /* the source is in the docs/nres.md §7.1 canonical layout */
  guint    sort_valid : 1;/* the stored sort_index values form a permutation */
  guint    modified : 1;  /* anything changed since parse */
  guint    structure_changed : 1; /* entries added/removed or names changed */
};

/* A source range copied unchanged into the output. */
typedef struct {
  guint64 src;
  guint64 dst;
  guint64 len;
} MshedNresCopy;

/* Where everything of an edited non-canonical archive goes (mshed-nres-layout.c). */
typedef struct {
  guint64 *offsets;     /* per entry: its data_offset in the output */
  guint8  *write;       /* per entry: TRUE when its payload must be written at offsets[i] */
  GArray  *copies;      /* MshedNresCopy: source bytes kept, in output order */
  guint64  dir_offset;  /* the output directory */
  guint64  total;       /* dir_offset + 64 * count: the header's total_size */
  guint64  trailer;     /* bytes after the source's total_size, kept after the directory */
} MshedNresPlan;

void     _mshed_nres_plan_lossless (const MshedNres *self,
                                    MshedNresPlan   *plan);
void     _mshed_nres_plan_clear    (MshedNresPlan   *plan);
/* The source's data region end (its stored directory offset) and total_size. */
guint64  _mshed_nres_source_dir    (const MshedNres *self,
                                    guint64         *total);

G_END_DECLS
