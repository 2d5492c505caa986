/* mshed-copy.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Copy across (docs/diff.md §6): commands on a target document that copy one unit from a
 * source document of the same container: a cell, a record, a table, a node with its slots, a
 * whole resource, or the unit of one difference of mshed-diff.h. Each call is ONE undo step
 * on the target (a group named after the unit); the source is only read. Row insertions and
 * deletions go through mshed_document_insert_rows / _delete_rows, so references are fixed up
 * as for any row insertion. On failure nothing changed and @error names the table, row and
 * field.
 */
#pragma once

#include <glib.h>

#include "mshed-diff.h"
#include "mshed-document.h"

G_BEGIN_DECLS

/* One field of record @source_row of @table (any typed table of mshed-schema.h, including
 * MSHED_TABLE_DIRECTORY attributes) into record @target_row. */
gboolean mshed_copy_cell       (MshedDocument  *target,
                                guint           target_row,
                                MshedDocument  *source,
                                guint           source_row,
                                MshedTableId    table,
                                const char     *field,
                                GError        **error);
/* A whole fixed-stride record. @target_row == the target's row count appends it (nodes,
 * slots and batches only). */
gboolean mshed_copy_record     (MshedDocument  *target,
                                guint           target_row,
                                MshedDocument  *source,
                                guint           source_row,
                                MshedTableId    table,
                                GError        **error);
/* A whole table: the records of @table (the Res2 header and the slots separately). */
gboolean mshed_copy_table      (MshedDocument  *target,
                                MshedDocument  *source,
                                MshedTableId    table,
                                GError        **error);
/* Node @source_node with its name and the slot records its cells use. @target_node < the
 * target's node count: the node there takes the source's record, name and slot records (its
 * cells keep pointing at its own slots; both must use the same cells). @target_node == the
 * count: a new node is inserted there with new copies of its slots appended to the slots. */
gboolean mshed_copy_node       (MshedDocument  *target,
                                guint           target_node,
                                MshedDocument  *source,
                                guint           source_node,
                                GError        **error);
/* Resource @source_index (payload and attributes) into the target's resource of the same
 * type and name, added at the same directory index when the target has none. */
gboolean mshed_copy_resource   (MshedDocument  *target,
                                MshedDocument  *source,
                                guint           source_index,
                                GError        **error);
/* The unit of one difference of mshed_diff_documents (A, B): @to_b copies from A into B,
 * else from B into A. Models: the cell, name, attribute, record (inserted or deleted as the
 * row is only on one side), byte range, vertex table or resource. UTF files: the file
 * holding the difference, the node added or removed, or the name. */
gboolean mshed_copy_difference (MshedDocument       *a,
                                MshedDocument       *b,
                                const MshedDiffItem *item,
                                gboolean             to_b,
                                GError             **error);

/* Gives resource @res of @doc the NRes attributes of @from (attr1..attr3), one command per
 * attribute that differs, inside the caller's group. */
gboolean mshed_copy_attributes  (MshedDocument         *doc,
                                 guint                  res,
                                 const MshedNresEntry  *from,
                                 GError               **error);
/* Adds a copy of @src (a node of any UTF tree) under directory @parent of @doc at @index
 * (clamped), one command per node inside the caller's group. */
gboolean mshed_copy_utf_subtree (MshedDocument  *doc,
                                 MshedUtfNode   *parent,
                                 guint           index,
                                 MshedUtfNode   *src,
                                 GError        **error);

G_END_DECLS
