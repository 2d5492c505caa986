/* mshed-fix.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reviewable fixes (docs/conventions.md, "Fixes"): for the findings that have a safe fix, the
 * list of field changes that fixes them, computed before anything is applied, written as text
 * a user can review and edit (one change per line), read back and applied as one undoable
 * group of document commands. A fix is one of:
 *  - a range past its table clamped to the table (slot triangle and batch ranges, batch index
 *    ranges);
 *  - a dangling reference set to the "none" sentinel 0xFFFF the format uses (slot cells,
 *    parents, frame-map starts, neighbour links), which is what every reader already does
 *    with it;
 *  - derived data the format determines recomputed (NRes attributes, the frame map and frame
 *    count, a slot's box; in a deformable model Face_groups/Count, UV_vertex_count, a part's
 *    Index, Lod Bits): the recompute runs on a copy, and its changed fields are the changes.
 */
#pragma once

#include <glib.h>

#include "mshed-diagnostic.h"
#include "mshed-document.h"

G_BEGIN_DECLS

/* One field change. */
typedef struct {
  char         *fix;        /* what it fixes: a check id (mshed_check_to_string) or, for a
                             * recompute, the derived target's id (mshed_derived_get_name) */
  MshedTableId  table;      /* MSH table (MSHED_TABLE_DIRECTORY included), or
                             * MSHED_TABLE_NONE for a DFM file */
  char         *node;       /* DFM: the path of the typed file (`\Cmpnd\Root\Index`) */
  guint         row;
  char         *field;      /* schema field name */
  char         *old_value;  /* as mshed_field_format() writes it */
  char         *new_value;
} MshedFixChange;

/* The changes of one document (a file, or one entry of an archive), in the order of the
 * findings. */
typedef struct {
  char      *spec;     /* FILE or ARCHIVE:ENTRY, as the plan text names it */
  GPtrArray *changes;  /* MshedFixChange* */
  GPtrArray *notes;    /* char*, translated: what has a fix kind but could not be planned */
} MshedFixPlan;

/* TRUE when @check has a fix kind (whether a given finding can be planned also depends on
 * the model). */
gboolean        mshed_fix_check_has_fix  (MshedCheck              check);

MshedFixPlan   *mshed_fix_plan_new       (const char             *spec);
void            mshed_fix_plan_free      (MshedFixPlan           *plan);
void            mshed_fix_change_free    (MshedFixChange         *change);

/* The changes that fix every finding of @diags (normally mshed_document_get_diagnostics) that
 * has a safe fix. Nothing in @doc changes. @spec names the document in the plan text. */
MshedFixPlan   *mshed_fix_plan           (MshedDocument          *doc,
                                          const MshedDiagnostics *diags,
                                          const char             *spec);
/* TRUE when every old value of @plan is what @doc holds; else @error names the first change
 * that differs (the plan is stale). */
gboolean        mshed_fix_plan_check     (MshedDocument          *doc,
                                          const MshedFixPlan     *plan,
                                          GError                **error);
/* Applies @plan as one undo step ("Apply fixes"). Every old value is compared first: when one
 * differs from the document (the plan is stale), nothing is applied and @error names the
 * change. An empty plan changes nothing and succeeds. */
gboolean        mshed_fix_plan_apply     (MshedDocument          *doc,
                                          const MshedFixPlan     *plan,
                                          GError                **error);

/* (transfer full): "TABLE[ROW].FIELD: OLD -> NEW", what a plan line says of @change. */
char           *mshed_fix_change_describe (const MshedFixChange   *change);

/* The plan text: a header comment, then one line per change,
 *   SPEC<TAB>TABLE[ROW].FIELD: OLD -> NEW<TAB># FIX
 * where TABLE is an MSH table name or a DFM file's path. Lines starting with '#' and empty
 * lines are comments. */
void            mshed_fix_plan_write     (const MshedFixPlan     *plan,
                                          GString                *out);
const char     *mshed_fix_plan_header    (void);
/* (element-type MshedFixPlan): the plans in the text, one per SPEC in order of first
 * appearance; NULL and @error (naming the line) when a line is malformed. */
GPtrArray      *mshed_fix_plans_parse    (const char             *text,
                                          GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedFixPlan, mshed_fix_plan_free)

G_END_DECLS
