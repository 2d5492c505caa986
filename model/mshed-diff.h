/* mshed-diff.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A structural diff of two models of the same format (docs/diff.md): two Parkan models
 * (MshedModel), two UTF files (MshedUtf; typed as deformable models when both are), or two
 * NRes archives (entries added, removed and changed, each changed model diffed in turn).
 *
 * Resources are aligned by type and name, UTF nodes by name ignoring case (docs/utf.md §3.4),
 * records by index, and MSH nodes (by their Res10 name), DFM bones (by directory name) and UTF
 * nodes by name with a longest common subsequence, so an inserted node does not make every
 * later one "different". Fields are named by the schemas (mshed-schema.h,
 * mshed-dfm-schema.h) and shown with mshed_field_format; bytes no field describes are compared
 * as byte ranges. Identical payloads are skipped after one memcmp.
 *
 * The result lists the differences in file order, each with enough addressing (table, row,
 * field, resource index, UTF path, entry, byte offset) for a view to jump to it, and a summary
 * with a count per table.
 */
#pragma once

#include <glib.h>

#include "mshed-document.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

#define MSHED_DIFF_NO_ROW G_MAXUINT

typedef enum {
  MSHED_DIFF_FIELD,             /* a schema field of a matched record, or a directory attribute */
  MSHED_DIFF_TEXT,              /* a text: node name, DFM string file, Cons name field */
  MSHED_DIFF_ROW_ADDED,         /* row_b exists only in B */
  MSHED_DIFF_ROW_REMOVED,       /* row_a exists only in A */
  MSHED_DIFF_BYTES,             /* bytes no field describes differ (offset, length_a/_b) */
  MSHED_DIFF_RESOURCE_ADDED,    /* a resource, archive entry or UTF node only in B */
  MSHED_DIFF_RESOURCE_REMOVED,  /* only in A */
  MSHED_DIFF_RESOURCE_CHANGED,  /* an archive entry whose payload differs (items follow) */
  MSHED_DIFF_RENAMED,           /* a UTF node paired by position whose name differs */
  MSHED_DIFF_GEOMETRY,          /* a vertex table: displacement, triangles, bounds */
} MshedDiffKind;

typedef struct {
  MshedDiffKind kind;
  gint          table;           /* MshedTableId or MshedDfmTable, -1 when none */
  const char   *table_name;      /* schema name ("slots", "points", "dir"), NULL when none */
  guint         row_a;           /* MSHED_DIFF_NO_ROW when A has no such row */
  guint         row_b;
  const char   *field;           /* schema field name, NULL when none */
  char         *old_value;       /* as text (mshed_field_format, names decoded), NULL: absent */
  char         *new_value;
  gint          res_a;           /* NRes directory index in A (MSH and archives), -1 */
  gint          res_b;
  guint32       res_type;
  char         *entry;           /* archive entry name (archive diffs), NULL */
  char         *path;            /* UTF node path (B's, A's when removed), NULL */
  guint64       offset;          /* byte offset inside A's payload (fields, bytes) */
  guint64       length_a;        /* bytes in A (MSHED_DIFF_BYTES) */
  guint64       length_b;
  /* MSHED_DIFF_GEOMETRY */
  double        max_displacement;  /* largest vertex displacement (Euclidean) */
  guint         moved_vertices;    /* vertices displaced by more than the tolerance */
  guint         changed_triangles; /* triangles that use a moved vertex */
  float         bounds_a[6];       /* min xyz, max xyz */
  float         bounds_b[6];
} MshedDiffItem;

typedef struct {
  const char *table_name;        /* "slots", ..., "resources", "entries", "bytes" */
  guint       count;
} MshedDiffCount;

typedef struct {
  double      tolerance;         /* geometry and float fields: differences <= this are equal */
  const char *table;             /* only differences of this table (schema name), NULL: all */
} MshedDiffOptions;

typedef struct _MshedDiff MshedDiff;

MshedDiff           *mshed_diff_models      (MshedModel             *a,
                                             MshedModel             *b,
                                             const MshedDiffOptions *options);
MshedDiff           *mshed_diff_utf         (MshedUtf               *a,
                                             MshedUtf               *b,
                                             const MshedDiffOptions *options);
MshedDiff           *mshed_diff_archives    (MshedNres              *a,
                                             MshedNres              *b,
                                             const MshedDiffOptions *options);
/* Two documents of the same container (the compare window): models or UTF files. NULL with
 * MSHED_MODEL_ERROR_INVALID when one holds a model and the other a UTF file. */
MshedDiff           *mshed_diff_documents   (MshedDocument          *a,
                                             MshedDocument          *b,
                                             const MshedDiffOptions *options,
                                             GError                **error);
void                 mshed_diff_free        (MshedDiff              *self);

gboolean             mshed_diff_is_empty    (const MshedDiff        *self);
/* The tolerance the differences were computed with (MshedDiffOptions). */
double               mshed_diff_get_tolerance (const MshedDiff      *self);
guint                mshed_diff_get_n_items (const MshedDiff        *self);
const MshedDiffItem *mshed_diff_get_item    (const MshedDiff        *self,
                                             guint                   index);
/* Counts per table, in the order the tables first appear. */
guint                mshed_diff_get_n_counts (const MshedDiff       *self);
const MshedDiffCount *mshed_diff_get_count  (const MshedDiff        *self,
                                             guint                   index);
/* One line for a modder (docs/diff.md §4), e.g. "slots[3].batchCount: 2 → 3". */
char                *mshed_diff_item_format (const MshedDiffItem    *item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedDiff, mshed_diff_free)

G_END_DECLS
