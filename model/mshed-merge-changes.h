/* mshed-merge-changes.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a three-way merge takes without asking (docs/diff.md §5.5): the differences of MINE and
 * of THEIRS against BASE (mshed-diff.h), each marked with the side it comes from (both when
 * the two made the same change), less the units a conflict of the merge plan covers. The merge
 * view lists these above the conflicts. Geometry summaries are left out (their fields are
 * listed one by one).
 */
#pragma once

#include <glib.h>

#include "mshed-diff.h"
#include "mshed-document.h"
#include "mshed-merge.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_MERGE_FROM_MINE   = 1 << 0,
  MSHED_MERGE_FROM_THEIRS = 1 << 1,
  MSHED_MERGE_FROM_BOTH   = MSHED_MERGE_FROM_MINE | MSHED_MERGE_FROM_THEIRS,
} MshedMergeOrigin;

typedef struct {
  MshedMergeOrigin     origin;
  const MshedDiffItem *item;    /* against BASE: row_a and offset are BASE's */
} MshedMergeChange;

typedef struct _MshedMergeChanges MshedMergeChanges;

/* NULL with the error of mshed_diff_documents when the three are not the same container. */
MshedMergeChanges      *mshed_merge_changes_new       (const MshedMerge  *merge,
                                                       MshedDocument     *base,
                                                       MshedDocument     *mine,
                                                       MshedDocument     *theirs,
                                                       GError           **error);
void                    mshed_merge_changes_free      (MshedMergeChanges *self);
guint                   mshed_merge_changes_get_n     (const MshedMergeChanges *self);
const MshedMergeChange *mshed_merge_changes_get       (const MshedMergeChanges *self,
                                                       guint              index);
/* One line, e.g. "mine: slots[2].unk30: 0x00000000 → 0x00000007". */
char                   *mshed_merge_change_format     (const MshedMergeChange *change);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedMergeChanges, mshed_merge_changes_free)

G_END_DECLS
