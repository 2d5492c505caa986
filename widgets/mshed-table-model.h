/* mshed-table-model.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GListModel over one table of an MshedDocument. It holds no object per record: row objects
 * (MshedTableRow) are created when a view asks for them and are cached only while someone
 * holds them (a weak cache), so a 600,000-row index table costs what is on screen.
 *
 * Structural changes of the table (rows inserted, removed, a reload) become items-changed;
 * in-place edits emit MshedTableRow::changed on the live rows they touch. The model also
 * describes its columns from the schema (mshed-schema.h) and formats, parses and commits
 * cell values, so the grid widget only presents.
 */
#pragma once

#include <gio/gio.h>

#include "mshed-dfm-schema.h"
#include "mshed-document.h"

G_BEGIN_DECLS

/* A row ---------------------------------------------------------------------------------- */

#define MSHED_TYPE_TABLE_ROW (mshed_table_row_get_type ())
G_DECLARE_FINAL_TYPE (MshedTableRow, mshed_table_row, MSHED, TABLE_ROW, GObject)

/* The record index in the document's table; G_MAXUINT once the record was removed. */
guint              mshed_table_row_get_index        (MshedTableRow   *self);

/* Columns -------------------------------------------------------------------------------- */

typedef enum {
  MSHED_COLUMN_FIELD,        /* a schema field as mshed_field_format() shows it */
  MSHED_COLUMN_DECODED,      /* a field with a divisor, shown decoded (raw / divisor) */
  MSHED_COLUMN_NAME,         /* the node's Res10 name (UTF-8) */
  MSHED_COLUMN_NAME_LENGTH,  /* the Res10 record's length word */
  MSHED_COLUMN_NAME_HEX,     /* the Res10 record's bytes in hexadecimal */
  MSHED_COLUMN_ENTRY_NAME,   /* directory: the entry name */
  MSHED_COLUMN_DFM_TEXT,     /* DFM: a NUL-padded name inside a record (Cons parent, child) */
  MSHED_COLUMN_DFM_NAME,     /* DFM: the name of the row's directory (a bone) */
  MSHED_COLUMN_DFM_BIT,      /* DFM: one bit of a byte (Lod Bits), a check box */
  MSHED_COLUMN_DFM_FRAME,    /* DFM: a frame decoded from a rotation (Euler degrees), read-only */
  MSHED_COLUMN_DFM_JOINED,   /* DFM: a value of the row's point joined in (elements), read-only */
} MshedColumnKind;

typedef struct {
  MshedColumnKind   kind;
  MshedTableId      table;       /* where the value lives (vertices: normals, UVs) */
  const MshedField *field;       /* NULL for the name columns */
  const char       *id;          /* stable: the field name, "nx.raw", "name", ... */
  const char       *title;       /* column header: the id, with the gloss on a second line */
  const char       *label;       /* the column in one line, "slot7 (L1 G2)" (messages) */
  const char       *gloss;       /* what the name means, "L1 G2" (translated); NULL if none */
  const char       *blurb;       /* translated description, nullable */
  MshedDerived      stale_mask;  /* derived targets this column shows */
  guint             width_chars;
  guint             raw : 1;     /* shown only with raw values on */
  guint             editable : 1;
  guint             numeric : 1; /* right-aligned, sorted numerically */
} MshedTableColumn;

/* Column names are the schema's field names, as in mshed-cli dump and edit --set and in the
 * diagnostics ("slot7"); where the name alone does not say what the column is, a gloss says
 * it: (transfer full) (nullable) "L1 G2" for slot7 of the nodes (LOD 1, group 2). */
char              *mshed_table_field_gloss          (MshedTableId     table,
                                                     const char      *field);

/* The model ------------------------------------------------------------------------------ */

#define MSHED_TYPE_TABLE_MODEL (mshed_table_model_get_type ())
G_DECLARE_FINAL_TYPE (MshedTableModel, mshed_table_model, MSHED, TABLE_MODEL, GObject)

MshedTableModel   *mshed_table_model_new            (MshedDocument   *document,
                                                     MshedTableId     table);
/* A grid over DFM table @table (mshed-dfm-schema.h) of the document's deformable model:
 * level @a (part, bone) and group @b as mshed_dfm_find_node() addresses them. Tables that
 * hold one record per bone (Bone to root, Lod Bits) list one row per bone. */
MshedTableModel   *mshed_table_model_new_dfm        (MshedDocument   *document,
                                                     MshedDfmTable    table,
                                                     guint            a,
                                                     guint            b);
/* The DFM address (level, group) now shown; the rows follow. */
void               mshed_table_model_set_dfm_scope  (MshedTableModel *self,
                                                     guint            a,
                                                     guint            b);
/* A check-box cell (MSHED_COLUMN_DFM_BIT): flips its bit, one undo step. */
gboolean           mshed_table_model_toggle_bit     (MshedTableModel *self,
                                                     guint            row,
                                                     guint            column,
                                                     GError         **error);
gboolean           mshed_table_model_get_dfm_scope  (MshedTableModel *self,
                                                     MshedDfmTable   *table,
                                                     guint           *a,
                                                     guint           *b);
/* (transfer none) (nullable): the UTF file holding row @row of column @column's table, and
 * the record's index in it (DFM tables only). */
MshedUtfNode      *mshed_table_model_get_dfm_node   (MshedTableModel *self,
                                                     guint            row,
                                                     guint            column,
                                                     guint           *record);
/* Where row @row of the Triangles table lies in its group's index file: a strip's window
 * (docs/dfm.md §5.1) or a list's triple; @corner 0–2 for one corner, −1 for all three. */
gboolean           mshed_table_model_get_triangle_bytes (MshedTableModel *self,
                                                     guint            row,
                                                     gint             corner,
                                                     gsize           *start,
                                                     gsize           *end);
/* The rows of the Triangles table that diagnostic @d's strip or list entry is in (at most
 * three: a strip entry is in up to three windows, docs/dfm.md §5.1), ascending, with the
 * corner (0–2) it is in each. 0 for another table, group or an entry no triangle uses. */
guint              mshed_table_model_diagnostic_triangles (MshedTableModel *self,
                                                     const MshedDiagnostic *d,
                                                     guint            rows[3],
                                                     guint            corners[3]);
/* The derived targets stale for @row of @table, as the cells shade them (DFM stale cells
 * are per level, part or bone: docs/dfm.md §15.1). */
MshedDerived       mshed_table_model_get_row_stale  (MshedTableModel *self,
                                                     MshedTableId     table,
                                                     guint            row);
/* Which row of this model diagnostic @d is about; FALSE when none (another level's file). */
gboolean           mshed_table_model_diagnostic_row (MshedTableModel *self,
                                                     const MshedDiagnostic *d,
                                                     guint           *row);
/* Rows of the table a reference points to, and its title (translated), for messages. */
guint              mshed_table_model_count_target   (MshedTableModel *self,
                                                     MshedTableId     table);
const char        *mshed_table_model_table_title    (MshedTableId     table);
MshedDocument     *mshed_table_model_get_document   (MshedTableModel *self);
void               mshed_table_model_set_document   (MshedTableModel *self,
                                                     MshedDocument   *document);
MshedTableId       mshed_table_model_get_table      (MshedTableModel *self);

/* Emits MshedTableRow::changed on every live row (stale set or diagnostics changed). */
void               mshed_table_model_refresh_rows   (MshedTableModel *self);
/* Row objects alive now, and created since the model was made (tests, benchmark). */
guint              mshed_table_model_get_n_live_rows (MshedTableModel *self);
guint64            mshed_table_model_get_n_created  (MshedTableModel *self);

guint              mshed_table_model_get_n_columns  (MshedTableModel *self);
const MshedTableColumn *mshed_table_model_get_column (MshedTableModel *self,
                                                     guint            column);
/* By id ("slot3", "nx", "nx.raw", "name"); -1 when there is none. */
gint               mshed_table_model_find_column    (MshedTableModel *self,
                                                     const char      *id);

/* The text a cell shows; NULL when the record does not exist (short linked table).
 * *is_none (nullable) is TRUE for the 0xFFFF sentinel. */
char              *mshed_table_model_dup_cell_text  (MshedTableModel *self,
                                                     guint            row,
                                                     guint            column,
                                                     gboolean        *is_none);
/* The text the editor starts with: what can be typed back (hex for flags, "none"). */
char              *mshed_table_model_dup_edit_text  (MshedTableModel *self,
                                                     guint            row,
                                                     guint            column);
/* Checks @text against the column without changing anything. */
gboolean           mshed_table_model_check_cell_text (MshedTableModel *self,
                                                     guint            column,
                                                     const char      *text,
                                                     GError         **error);
/* Commits @text through a document command; on failure the model is untouched. */
gboolean           mshed_table_model_set_cell_text  (MshedTableModel *self,
                                                     guint            row,
                                                     guint            column,
                                                     const char      *text,
                                                     GError         **error);
/* The raw numeric value (decoded for decoded columns), for sorting and references. */
gboolean           mshed_table_model_get_cell_value (MshedTableModel *self,
                                                     guint            row,
                                                     guint            column,
                                                     double          *value);
/* The row a reference cell points to (slot cell -> slot, hdr1 -> parent node, ...). FALSE
 * for cells without a reference or holding "none". The target may be out of range. */
gboolean           mshed_table_model_get_reference  (MshedTableModel *self,
                                                     guint            row,
                                                     guint            column,
                                                     MshedTableId    *table,
                                                     guint           *target);
/* A description of the column's type and accepted input ("u16: 0…65535, or none"). */
char              *mshed_table_model_dup_input_hint (MshedTableModel *self,
                                                     guint            column);

G_END_DECLS
