/* mshed-merge.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three-way merge of two edited copies (MINE, THEIRS) of one model (BASE), at the granularity
 * of the diff (docs/diff.md §5): resources and UTF nodes, fields of records, node names,
 * directory attributes and bytes no field describes. What only one side changed is taken from
 * it; the same change on both sides is taken once; a unit both sides changed differently is a
 * conflict that holds the three values and is resolved by choosing MINE or THEIRS.
 *
 * A resource or UTF file whose size changed on one side (rows inserted or deleted) is taken
 * whole from that side when the other left it alone; when both changed it and it did not keep
 * its size on both, the whole resource is one conflict (records cannot be paired safely).
 *
 * mshed_merge_apply builds the result as a new MshedDocument on a copy of BASE, every change
 * one command of a single undo step ("Merge"), so it can be validated and saved like any
 * edited document (mshed_document_save_as validates strictly).
 */
#pragma once

#include <glib.h>

#include "mshed-document.h"
#include "mshed-model.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_MERGE_UNRESOLVED,
  MSHED_MERGE_MINE,
  MSHED_MERGE_THEIRS,
} MshedMergeChoice;

typedef enum {
  MSHED_MERGE_CONFLICT_FIELD,      /* one schema field of one record */
  MSHED_MERGE_CONFLICT_TEXT,       /* a node name, a DFM string or Cons name field */
  MSHED_MERGE_CONFLICT_ATTRIBUTE,  /* an NRes directory attribute */
  MSHED_MERGE_CONFLICT_BYTES,      /* bytes no field describes */
  MSHED_MERGE_CONFLICT_RESOURCE,   /* a whole resource or UTF node (sizes, removal, addition) */
} MshedMergeConflictKind;

typedef struct {
  MshedMergeConflictKind kind;
  gint             table;          /* MshedTableId or MshedDfmTable, -1 */
  const char      *table_name;     /* schema name, NULL */
  guint            row;            /* record, node or directory row; G_MAXUINT: none */
  const char      *field;          /* schema field name, NULL */
  char            *base_value;     /* as text; NULL: absent on that side */
  char            *mine_value;
  char            *theirs_value;
  guint32          res_type;       /* NRes type (MSH), 0 */
  char            *res_name;       /* NRes resource name (MSH), NULL */
  char            *path;           /* UTF node path, NULL */
  guint64          offset;         /* byte offset in the payload (fields, bytes) */
  guint64          length;
  MshedMergeChoice choice;
} MshedMergeConflict;

typedef struct _MshedMerge MshedMerge;

MshedMerge               *mshed_merge_models          (MshedModel         *base,
                                                       MshedModel         *mine,
                                                       MshedModel         *theirs);
MshedMerge               *mshed_merge_utf             (MshedUtf           *base,
                                                       MshedUtf           *mine,
                                                       MshedUtf           *theirs);
/* Three documents of the same container; NULL with MSHED_MODEL_ERROR_INVALID otherwise. */
MshedMerge               *mshed_merge_documents       (MshedDocument      *base,
                                                       MshedDocument      *mine,
                                                       MshedDocument      *theirs,
                                                       GError            **error);
void                      mshed_merge_free            (MshedMerge         *self);

guint                     mshed_merge_get_n_conflicts (const MshedMerge   *self);
const MshedMergeConflict *mshed_merge_get_conflict    (const MshedMerge   *self,
                                                       guint               index);
void                      mshed_merge_resolve         (MshedMerge         *self,
                                                       guint               index,
                                                       MshedMergeChoice    choice);
void                      mshed_merge_resolve_all     (MshedMerge         *self,
                                                       MshedMergeChoice    choice);
guint                     mshed_merge_get_n_unresolved (const MshedMerge  *self);
/* The merged model as a new document without a file. Fails (MSHED_MODEL_ERROR_INVALID) while
 * a conflict is unresolved, or with the error of the command that could not be applied. */
MshedDocument            *mshed_merge_apply           (MshedMerge         *self,
                                                       GError            **error);
/* Changing a choice in a result mshed_merge_apply built, which may have been edited since
 * (docs/diff.md §5.5): the chosen side's value of conflict @index (G_MAXUINT: of every
 * conflict not chosen so yet) is written over the unit in @result as one undo step, and the
 * plan takes the choice; the result's other edits stay. A whole resource or UTF node conflict
 * (mshed_merge_can_choose_in_result FALSE) fails with MSHED_MODEL_ERROR_UNSUPPORTED and
 * nothing changes: build the result again then. */
gboolean                  mshed_merge_can_choose_in_result (const MshedMerge *self,
                                                       guint               index);
gboolean                  mshed_merge_choose_in_result (MshedMerge        *self,
                                                       MshedDocument      *result,
                                                       guint               index,
                                                       MshedMergeChoice    choice,
                                                       GError            **error);
/* Which side's value @result holds for conflict @index now (after an undo, say): MINE,
 * THEIRS, or UNRESOLVED when it holds neither; a whole resource conflict answers the plan's
 * choice. */
MshedMergeChoice          mshed_merge_read_result_choice (const MshedMerge *self,
                                                       MshedDocument      *result,
                                                       guint               index);
/* One line, e.g. "slots[3].batchCount: base 2, mine 3, theirs 4". */
char                     *mshed_merge_conflict_format (const MshedMergeConflict *conflict);
/* Where the conflict is, e.g. "slots[3].batchCount" or "Res9 “name” @0x6". */
char                     *mshed_merge_conflict_format_where (const MshedMergeConflict *conflict);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedMerge, mshed_merge_free)

G_END_DECLS
