/* mshed-document.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One MshedDocument per open model. It owns the model IR, applies every change as a command
 * (a byte-range replacement on one payload, or a change of the container's directory or tree),
 * keeps undo and redo, tracks which derived data an edit made stale (mshed-deps.h), recomputes
 * it on request, re-validates and saves atomically.
 *
 * Two containers share this core (mshed-command.h): an NRes file holding a Parkan model
 * (mshed_document_get_model; the MSH tables, fix-ups and recomputes plug in through
 * mshed-document-edits.c, -rows.c and mshed-recompute.c), and a Freelancer UTF file
 * (mshed_document_get_utf), typed as a deformable model when it is one
 * (mshed_document_get_dfm; mshed-document-utf.c). Undo, groups, the save point, signals,
 * the stale set and atomic saving are the same for both.
 *
 * Views read through mshed_document_get_model() and never write to the model themselves;
 * every write goes through a function below, so all views share one undo stack.
 *
 * Signals (emitted at the end of each edit, undo or redo, in this order):
 *  - changed (const MshedChange *change): once per changed table region, after the bytes and
 *    the decoded tables agree. Compound commands emit after the whole command was applied;
 *    neighbouring in-place rows of one table are coalesced into one change.
 *  - stale-changed (): the stale set changed (mark, recompute, acknowledge, undo, redo).
 *  - diagnostics-changed (): mshed_document_get_diagnostics() changed.
 *  - saved (): after a successful save.
 * Properties (read-only, notified only on real change): can-undo, can-redo, modified,
 *  undo-label, redo-label (translated, e.g. "Rename node 4"), title, path, has-stale.
 */
#pragma once

#include <gio/gio.h>

#include "mshed-command.h"
#include "mshed-deps.h"
#include "mshed-dfm.h"
#include "mshed-diagnostic.h"
#include "mshed-model.h"
#include "mshed-model-types.h"

G_BEGIN_DECLS

/* Change notification ------------------------------------------------------------------ */

typedef enum {
  MSHED_CHANGE_ORIGIN_EDIT,
  MSHED_CHANGE_ORIGIN_UNDO,
  MSHED_CHANGE_ORIGIN_REDO,
  MSHED_CHANGE_ORIGIN_RELOAD,
} MshedChangeOrigin;

typedef enum {
  MSHED_CHANGE_FLAG_NONE      = 0,
  MSHED_CHANGE_FLAG_LAYOUT    = 1 << 0,  /* payload sizes changed: later file offsets moved */
  MSHED_CHANGE_FLAG_DIRECTORY = 1 << 1,  /* the directory (types, attributes, names) changed */
  MSHED_CHANGE_FLAG_ALL       = 1 << 2,  /* anything may have changed: refresh every view */
} MshedChangeFlags;

typedef struct {
  MshedTableId      table;      /* the typed table, MSHED_TABLE_NONE for opaque resources */
  guint             first_row;  /* first affected row of @table */
  guint             n_removed;  /* rows removed at first_row (== n_added: changed in place) */
  guint             n_added;    /* rows now there at first_row */
  const char       *field;      /* schema field name for a single-field edit, else NULL */
  gint              res_index;  /* directory index of the resource, -1 when none */
  guint32           res_type;   /* its NRes type, 0 when none */
  gsize             offset;     /* byte offset inside the resource payload */
  gsize             old_length; /* bytes replaced */
  gsize             length;     /* bytes now there */
  MshedChangeOrigin origin;
  MshedChangeFlags  flags;
  MshedUtfNode     *node;       /* UTF: the entry changed (or inserted, removed, moved) */
} MshedChange;

#define MSHED_TYPE_CHANGE (mshed_change_get_type ())
GType        mshed_change_get_type (void) G_GNUC_CONST;
MshedChange *mshed_change_copy     (const MshedChange *self);
void         mshed_change_free     (MshedChange       *self);

/* Stale set ------------------------------------------------------------------------------ */

/* One stale cell of the dependency matrix: @target made stale by edits of kind @cause. */
typedef struct {
  MshedDerived  target;        /* exactly one flag */
  MshedEditKind cause;
  MshedTableId  table;         /* the table that holds @target */
  guint         n_rows;        /* 0: the whole table (or too many rows to list) */
  guint        *rows;          /* sorted row numbers of @table, n_rows of them */
  char         *reason;        /* translated, e.g. "Vertex 17 moved (and 3 more edits)" */
  gboolean      recomputable;  /* mshed_document_recompute_stale() can fix it */
  gboolean      optional;      /* stale only by choice (vertex normals) */
} MshedStale;

#define MSHED_TYPE_STALE (mshed_stale_get_type ())
GType       mshed_stale_get_type (void) G_GNUC_CONST;
MshedStale *mshed_stale_copy     (const MshedStale *self);
void        mshed_stale_free     (MshedStale       *self);

/* The document --------------------------------------------------------------------------- */

typedef enum {
  MSHED_SAVE_FLAGS_NONE = 0,
  MSHED_SAVE_ANYWAY     = 1 << 0,  /* write even when strict validation finds errors */
  MSHED_SAVE_NO_BACKUP  = 1 << 1,  /* do not create FILE.bak on the first overwrite */
  MSHED_SAVE_REPACK     = 1 << 2,  /* rebuild the file's containers canonically (docs/nres.md §7.1),
                                    * dropping unreferenced bytes (list_repack_losses) */
} MshedSaveFlags;

#define MSHED_TYPE_DOCUMENT (mshed_document_get_type ())
G_DECLARE_FINAL_TYPE (MshedDocument, mshed_document, MSHED, DOCUMENT, GObject)

/* Opens FILE or ARCHIVE:ENTRY (mshed-source.h). Tolerant mode still opens broken models. */
MshedDocument    *mshed_document_open              (const char        *spec,
                                                    MshedMode          mode,
                                                    GError           **error);
/* A document without a file (generated model, tests); save with mshed_document_save_as(). */
MshedDocument    *mshed_document_new_for_model     (MshedModel        *model,
                                                    MshedMode          mode);
/* A document for a UTF tree without a file; typed as a deformable model when it is one. */
MshedDocument    *mshed_document_new_for_utf       (MshedUtf          *utf,
                                                    MshedMode          mode);
/* Re-reads the file; the model becomes its bytes as one undo step ("Reload from disk") that
 * is also the saved state, so undo brings back the edits it replaced. */
gboolean          mshed_document_reload            (MshedDocument     *self,
                                                    GError           **error);

/* Which container the document holds; NULL from the getters of the other one. */
MshedContainerKind mshed_document_get_container    (MshedDocument     *self);
MshedModel       *mshed_document_get_model         (MshedDocument     *self);
MshedUtf         *mshed_document_get_utf           (MshedDocument     *self);
/* The typed view of a deformable model (docs/dfm.md), NULL for other UTF files. */
MshedDfm         *mshed_document_get_dfm           (MshedDocument     *self);
const MshedDiagnostics *mshed_document_get_diagnostics (MshedDocument *self);
MshedMode         mshed_document_get_mode          (MshedDocument     *self);
const char       *mshed_document_get_path          (MshedDocument     *self);
const char       *mshed_document_get_entry         (MshedDocument     *self);
const char       *mshed_document_get_title         (MshedDocument     *self);
gboolean          mshed_document_get_modified      (MshedDocument     *self);

/* Undo / redo ---------------------------------------------------------------------------- */

gboolean          mshed_document_can_undo          (MshedDocument     *self);
gboolean          mshed_document_can_redo          (MshedDocument     *self);
const char       *mshed_document_get_undo_label    (MshedDocument     *self);
const char       *mshed_document_get_redo_label    (MshedDocument     *self);
gboolean          mshed_document_undo              (MshedDocument     *self);
gboolean          mshed_document_redo              (MshedDocument     *self);
/* Groups nest; the outermost label names the undo step; empty groups are dropped. */
void              mshed_document_begin_group       (MshedDocument     *self,
                                                    const char        *label);
void              mshed_document_end_group         (MshedDocument     *self);
/* Undo depth in steps (default 10,000; 0 = unlimited). */
void              mshed_document_set_max_undo      (MshedDocument     *self,
                                                    guint              max_steps);
void              mshed_document_clear_history     (MshedDocument     *self);
/* Bytes held by the undo and redo queues (for the benchmark and a memory display). */
gsize             mshed_document_get_history_size  (MshedDocument     *self);

/* Edits: every function is one undo step (or part of an open group). On failure nothing
 * changed and @error names the table, row and field. --------------------------------- */

/* Any field of any typed table, including MSHED_TABLE_DIRECTORY (type, attr1..attr3).
 * @value is the raw value (mshed_field_parse()). Consecutive edits of one cell merge. */
gboolean          mshed_document_set_field         (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              row,
                                                    const char        *field,
                                                    double             value,
                                                    GError           **error);
/* Same, parsing @text with mshed_field_parse() ("none", 0x…, decimals). */
gboolean          mshed_document_set_field_text    (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              row,
                                                    const char        *field,
                                                    const char        *text,
                                                    GError           **error);
/* Replaces a whole record of a fixed-stride table (paste); @record has the stride's size. */
gboolean          mshed_document_set_record        (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              row,
                                                    GBytes            *record,
                                                    GError           **error);
/* Renames node @node (Windows-1251; "" = no name). MSHED_MODEL_ERROR_ENCODING for
 * characters without a Windows-1251 form. Renaming to the current name changes nothing. */
gboolean          mshed_document_rename_node       (MshedDocument     *self,
                                                    guint              node,
                                                    const char        *name,
                                                    GError           **error);
gboolean          mshed_document_set_resource_name (MshedDocument     *self,
                                                    guint              res_index,
                                                    const char        *name,
                                                    GError           **error);

/* Rows of MSHED_TABLE_NODES, MSHED_TABLE_SLOTS and MSHED_TABLE_BATCHES, with every reference
 * fixed up (slot cells, batch ranges, parents, Res8 tracks, Res19 blocks, Res10, attr1).
 * insert: @records (nullable) holds n × stride bytes, NULL inserts neutral rows.
 * move: @n rows starting at @position end up starting at @new_position. */
gboolean          mshed_document_insert_rows       (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              position,
                                                    guint              n,
                                                    GBytes            *records,
                                                    GError           **error);
gboolean          mshed_document_delete_rows       (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              position,
                                                    guint              n,
                                                    GError           **error);
gboolean          mshed_document_duplicate_rows    (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              position,
                                                    guint              n,
                                                    GError           **error);
gboolean          mshed_document_move_rows         (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              position,
                                                    guint              n,
                                                    guint              new_position,
                                                    GError           **error);

/* Raw bytes (hex view). Replaces @old_length bytes at @offset of resource @res_index.
 * Lengths may differ only for variable-size resources (Res9, Res17, Res20, unknown types);
 * fixed-stride resources refuse a length change with MSHED_MODEL_ERROR_RANGE. */
gboolean          mshed_document_replace_bytes     (MshedDocument     *self,
                                                    guint              res_index,
                                                    gsize              offset,
                                                    gsize              old_length,
                                                    GBytes            *bytes,
                                                    GError           **error);
/* Replaces a whole payload (import). Typed resources need a whole number of records; their
 * attributes follow the docs/msh.md §3 writer column. */
gboolean          mshed_document_set_resource_payload (MshedDocument  *self,
                                                    guint              res_index,
                                                    GBytes            *payload,
                                                    GError           **error);
/* Adds a resource at directory @position (G_MAXUINT: append). Returns its index, or -1. */
gint              mshed_document_add_resource      (MshedDocument     *self,
                                                    guint              position,
                                                    guint32            type_id,
                                                    const char        *name,
                                                    guint32            attr1,
                                                    guint32            attr2,
                                                    guint32            attr3,
                                                    GBytes            *payload,
                                                    GError           **error);
gboolean          mshed_document_remove_resource   (MshedDocument     *self,
                                                    guint              res_index,
                                                    GError           **error);

/* Any payload, NRes entry or UTF file (hex view): replaces @old_length bytes at @offset.
 * NRes: as mshed_document_replace_bytes. UTF: any length change is allowed; a typed DFM file
 * is classified by its table (mshed-deps.h) for the stale set. */
gboolean          mshed_document_replace_payload_bytes (MshedDocument *self,
                                                    const MshedPayloadRef *payload,
                                                    gsize              offset,
                                                    gsize              old_length,
                                                    GBytes            *bytes,
                                                    GError           **error);

/* UTF tree edits (docs/utf.md): each one undo step; names are checked against their siblings
 * (mshed_utf_check_child_name). -------------------------------------------------------- */

/* Replaces a file's whole payload (import); directories refuse. */
gboolean          mshed_document_utf_set_data      (MshedDocument     *self,
                                                    MshedUtfNode      *node,
                                                    GBytes            *data,
                                                    GError           **error);
gboolean          mshed_document_utf_rename        (MshedDocument     *self,
                                                    MshedUtfNode      *node,
                                                    const char        *name,
                                                    GError           **error);
/* A new entry under directory @parent at @index (G_MAXUINT: last): a file holding @data, or a
 * directory when @data is NULL. Returns the new node (owned by the tree), NULL on error. */
MshedUtfNode     *mshed_document_utf_add           (MshedDocument     *self,
                                                    MshedUtfNode      *parent,
                                                    guint              index,
                                                    const char        *name,
                                                    GBytes            *data,
                                                    GError           **error);
/* Inserts a subtree (paste, duplicate: mshed_utf_node_copy of another node); the document
 * takes it, also on failure. */
gboolean          mshed_document_utf_insert        (MshedDocument     *self,
                                                    MshedUtfNode      *parent,
                                                    guint              index,
                                                    MshedUtfNode      *subtree,
                                                    GError           **error);
gboolean          mshed_document_utf_remove        (MshedDocument     *self,
                                                    MshedUtfNode      *node,
                                                    GError           **error);
/* @index counts the children of @new_parent without @node (mshed_utf_move). */
gboolean          mshed_document_utf_move          (MshedDocument     *self,
                                                    MshedUtfNode      *node,
                                                    MshedUtfNode      *new_parent,
                                                    guint              index,
                                                    GError           **error);

/* DFM typed edits (docs/dfm.md; the schema of mshed-dfm-schema.h). --------------------- */

/* One field of record @row of the typed DFM file @node (mshed_dfm_schema_table_for_node),
 * @text parsed as for the MSH tables (mshed_field_parse). The name fields of Cons records
 * (`parent`, `child`) and string files (@field "value" or NULL) take the text itself, written
 * in Windows-1251. Consecutive edits of one cell merge. */
gboolean          mshed_document_dfm_set_field     (MshedDocument     *self,
                                                    MshedUtfNode      *node,
                                                    guint              row,
                                                    const char        *field,
                                                    const char        *text,
                                                    GError           **error);
/* A group's triangles as a list; written as a strip (docs/dfm.md §5.3) or a list. */
gboolean          mshed_document_dfm_set_triangles (MshedDocument     *self,
                                                    guint              level,
                                                    guint              group,
                                                    const guint16     *triangles,
                                                    gsize              n_triangles,
                                                    GError           **error);

/* Rows of a level's points (@table: Points or a file beside it) or elements (Point_indices,
 * UV0_indices, UV1_indices), in every parallel file, with the indices that refer to them
 * renumbered (mshed-document-dfm-rows.c, docs/dfm.md §15). New rows copy the row they go
 * above; deleting a row something refers to is refused. Hardpoints (@table: any file of a
 * hardpoint; @level unused; rows count the hardpoints of every bone in bone order, as the
 * Hardpoints grid lists them): a new one is a fixed hardpoint with a unique name, identity
 * orientation, at the origin of the bone of the row it goes above (docs/dfm.md §10.4). */
gboolean          mshed_document_dfm_insert_rows   (MshedDocument     *self,
                                                    MshedDfmTable      table,
                                                    guint              level,
                                                    guint              position,
                                                    guint              n,
                                                    GError           **error);
gboolean          mshed_document_dfm_delete_rows   (MshedDocument     *self,
                                                    MshedDfmTable      table,
                                                    guint              level,
                                                    guint              position,
                                                    guint              n,
                                                    GError           **error);

/* A group's triangles as a list (mshed-document-dfm-triangles.c, docs/dfm.md §5): triangle
 * @triangle is the one mshed_dfm_dup_triangles() gives at that position. Each edit is one
 * undo step and writes the whole new list back with mshed_document_dfm_set_triangles (a
 * strip group gets a strip of our encoder, docs/dfm.md §5.3). Corners must name existing
 * elements and a triangle must have three different corners. Inserted triangles are
 * @triangles (3 × @n indices) or, when NULL, copies of the triangle they go above (of the
 * last when appended). */
gboolean          mshed_document_dfm_set_triangle_corner (MshedDocument *self,
                                                    guint              level,
                                                    guint              group,
                                                    guint              triangle,
                                                    guint              corner,
                                                    guint              element,
                                                    GError           **error);
gboolean          mshed_document_dfm_insert_triangles (MshedDocument  *self,
                                                    guint              level,
                                                    guint              group,
                                                    guint              position,
                                                    guint              n,
                                                    const guint16     *triangles,
                                                    GError           **error);
gboolean          mshed_document_dfm_delete_triangles (MshedDocument  *self,
                                                    guint              level,
                                                    guint              group,
                                                    guint              position,
                                                    guint              n,
                                                    GError           **error);
/* (a, b, c) becomes (a, c, b): the face turns over. */
gboolean          mshed_document_dfm_reverse_triangles (MshedDocument *self,
                                                    guint              level,
                                                    guint              group,
                                                    guint              position,
                                                    guint              n,
                                                    GError           **error);

/* Recompute and the stale set ---------------------------------------------------------- */

/* Recomputes @what (flags) as one undo step. @rows (nullable) limits row-based targets
 * (slot box and sphere: slots; tri normals/links: descriptors; vertex normals: vertices;
 * attributes: directory entries) to those rows; NULL means every row. Clears the matching
 * stale cells. Data the format determines (MSHED_DERIVED_DETERMINED) comes out exactly as
 * an unmodified model has it; conventions (MSHED_DERIVED_CONVENTION, docs/conventions.md)
 * keep stored values that are still right. Callers offer conventions only on request. */
gboolean          mshed_document_recompute         (MshedDocument     *self,
                                                    MshedDerived       what,
                                                    const guint       *rows,
                                                    guint              n_rows,
                                                    GError           **error);
/* Recomputes exactly the stale rows of every stale cell whose target is in @allowed (one
 * undo step). "Recompute all stale data" passes MSHED_DERIVED_DETERMINED: conventions are
 * never applied as part of "all". What cannot be recomputed (a frame map without node
 * records) stays stale and is named in @error (FALSE); everything else is still done. */
gboolean          mshed_document_recompute_stale_all (MshedDocument   *self,
                                                    MshedDerived       allowed,
                                                    GError           **error);
/* (transfer full) (element-type MshedStale): copies of the current stale cells */
GPtrArray        *mshed_document_list_stale        (MshedDocument     *self);
gboolean          mshed_document_has_stale         (MshedDocument     *self);
/* The union of the targets of every stale cell. */
MshedDerived      mshed_document_get_stale_targets (MshedDocument     *self);
/* The derived targets that are stale for one row of @table (views shade these cells). */
MshedDerived      mshed_document_get_row_stale     (MshedDocument     *self,
                                                    MshedTableId       table,
                                                    guint              row);
/* Recomputes the rows of one stale cell (one undo step). */
gboolean          mshed_document_recompute_stale   (MshedDocument     *self,
                                                    MshedDerived       target,
                                                    MshedEditKind      cause,
                                                    GError           **error);
/* "Keep as is": clears the cell without changing bytes (undoable; does not set modified). */
gboolean          mshed_document_acknowledge_stale (MshedDocument     *self,
                                                    MshedDerived       target,
                                                    MshedEditKind      cause);

/* Validation ----------------------------------------------------------------------------- */

/* Full re-validation (the document otherwise re-checks only what an edit touched). */
void              mshed_document_revalidate        (MshedDocument     *self);

/* Saving --------------------------------------------------------------------------------- */

/* The model's NRes bytes / the whole file's bytes (a nested model: the archive with only its
 * entry replaced). An unedited document gives the loaded bytes unchanged. An edited container
 * that was canonical is rebuilt canonically; one that was not keeps its unreferenced bytes and
 * the offsets of untouched entries (mshed-nres.h). */
GBytes           *mshed_document_serialize         (MshedDocument     *self);
GBytes           *mshed_document_serialize_file    (MshedDocument     *self);
/* What a save with MSHED_SAVE_REPACK drops: one line per unreferenced block (file or entry,
 * offset, size) and per rebuilt sort table; empty when nothing. */
GPtrArray        *mshed_document_list_repack_losses (MshedDocument    *self);
/* Atomic save to the document's file (mshed-save.h): temp file + fsync + rename, FILE.bak
 * the first time (never overwriting an existing FILE.bak). The whole file to be written (every
 * NRes container and every model in it) is checked with the strict validator of `mshed-cli
 * validate` first; it is refused (MSHED_MODEL_ERROR_INVALID, naming the file, entry and field)
 * unless MSHED_SAVE_ANYWAY. On failure the file and the modified state are untouched. After a
 * MSHED_SAVE_REPACK save the document is reloaded from the written file (the history is
 * cleared), so later saves start from the repacked layout. */
gboolean          mshed_document_save              (MshedDocument     *self,
                                                    MshedSaveFlags     flags,
                                                    GError           **error);
/* Saves to @path (then the document's file); for a nested model writes the whole archive. */
gboolean          mshed_document_save_as           (MshedDocument     *self,
                                                    const char        *path,
                                                    MshedSaveFlags     flags,
                                                    GError           **error);

G_END_DECLS
