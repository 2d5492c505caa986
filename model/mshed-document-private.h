/* mshed-document-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by mshed-document.c (core: primitives, history, signals, validation),
 * mshed-document-save.c (serialising and saving),
 * mshed-document-stale.c (the stale set),
 * mshed-document-edits.c (cell, name, raw and resource edits, recompute) and
 * mshed-document-rows.c (row insert/delete/duplicate/move with reference fix-ups) and
 * mshed-document-utf.c (UTF trees and DFM models: opening, edits, checks, recomputes).
 */
#pragma once

#include "mshed-document.h"
#include "mshed-history.h"
#include "mshed-recompute.h"
#include "mshed-source.h"

G_BEGIN_DECLS

/* More stale rows than this in one cell and the cell covers the whole table. */
#define MSHED_STALE_MAX_ROWS 4096

typedef struct {
  GHashTable *rows;     /* GUINT_TO_POINTER (row + 1) set */
  gboolean    whole;
  char       *reason;   /* the first reason */
  guint       n_marks;  /* edits that added to this cell */
} StaleCell;

struct _MshedDocument {
  GObject           parent_instance;

  MshedSource      *source;         /* NULL for a document without a file */
  guint64           source_state;   /* history state in which the model holds @source's bytes */
  char             *path;
  char             *entry;
  char             *title;
  MshedModel       *model;          /* NRes documents */
  MshedUtf         *utf;            /* UTF documents */
  MshedDfm         *dfm;            /* ... holding a deformable model */
  GBytes           *utf_source;     /* the UTF file's bytes as read */
  gboolean          utf_tree_dirty; /* tree changed: refresh the DFM index, re-check names */
  MshedMode         mode;
  MshedHistory     *history;
  MshedDiagnostics *diags;

  /* one public operation in progress */
  guint             op_depth;
  MshedChangeOrigin origin;
  GArray           *pending;        /* MshedChange */
  gboolean          stale_dirty;
  gboolean          full_validate;
  GHashTable       *dirty_records;  /* (table << 32 | row) + 1 */

  StaleCell        *stale[MSHED_N_DERIVED][MSHED_N_EDIT_KINDS];
  MshedGeomIndex   *geom;           /* lazily built, dropped on topology changes */

  /* last notified property values */
  gboolean          was_can_undo;
  gboolean          was_can_redo;
  gboolean          was_modified;
  gboolean          was_has_stale;
  char             *was_undo_label;
  char             *was_redo_label;
};

/* mshed-document.c */
void      _mshed_document_op_begin       (MshedDocument     *self,
                                          const char        *label,
                                          guint64            merge_key);
void      _mshed_document_op_end         (MshedDocument     *self);
/* Records and applies one primitive. */
void      _mshed_document_splice         (MshedDocument     *self,
                                          guint              res_index,
                                          gsize              offset,
                                          gsize              old_length,
                                          const guint8      *data,
                                          gsize              length);
/* Replaces a payload by the smallest splice (aligned to records for fixed-stride types). */
void      _mshed_document_replace_payload (MshedDocument    *self,
                                          guint              res_index,
                                          const guint8      *data,
                                          gsize              length);
void      _mshed_document_set_header     (MshedDocument     *self,
                                          guint              res_index,
                                          const MshedEntryHeader *header);
void      _mshed_document_set_attr1      (MshedDocument     *self,
                                          guint32            type_id,
                                          guint32            attr1);
void      _mshed_document_insert_entry   (MshedDocument     *self,
                                          guint              position,
                                          const MshedEntryHeader *header,
                                          GBytes            *payload);
void      _mshed_document_remove_entry   (MshedDocument     *self,
                                          guint              res_index);
/* Stale set: mark rows (NULL/0: the whole table), remove rows (NULL: the whole cell),
 * renumber the rows of every cell of @table (map_old[i] = new row or G_MAXUINT). */
void      _mshed_document_mark           (MshedDocument     *self,
                                          MshedDerived       target,
                                          MshedEditKind      cause,
                                          const guint       *rows,
                                          guint              n_rows,
                                          const char        *reason);
void      _mshed_document_mark_array     (MshedDocument     *self,
                                          MshedDerived       target,
                                          MshedEditKind      cause,
                                          GArray            *rows,
                                          const char        *reason);
void      _mshed_document_unmark         (MshedDocument     *self,
                                          MshedDerived       target,
                                          gint               cause,  /* -1: every cause */
                                          const guint       *rows,
                                          guint              n_rows);
void      _mshed_document_remap_stale    (MshedDocument     *self,
                                          MshedTableId       table,
                                          const guint       *map_old,
                                          guint              n_old);
MshedGeomIndex *_mshed_document_get_geom (MshedDocument     *self);
/* After a successful save to @path (which becomes the document's file). */
void      _mshed_document_saved          (MshedDocument     *self,
                                          const char        *path);

/* mshed-document-stale.c */
void      _mshed_document_apply_stale_op (MshedDocument     *self,
                                          gconstpointer      op,
                                          gboolean           reverse);
void      _mshed_document_clear_stale    (MshedDocument     *self);
gint      _mshed_document_res_index      (MshedDocument     *self,
                                          guint32            type_id);
gboolean  _mshed_is_fixed_stride_type    (guint32            type_id,
                                          guint             *header,
                                          guint             *stride);

/* mshed-document-edits.c */
void      _mshed_document_mark_record    (MshedDocument     *self,
                                          MshedTableId       table,
                                          guint              row,
                                          const guint8      *old_record,
                                          const guint8      *new_record);
void      _mshed_document_mark_payload   (MshedDocument     *self,
                                          guint32            type_id,
                                          gsize              old_size,
                                          gsize              new_size);
/* Slots whose batch range contains @batch (scan of Res2). */
void      _mshed_document_batch_slots    (MshedDocument     *self,
                                          guint              batch,
                                          GArray            *slots);
void      _mshed_document_mark_slot_geometry (MshedDocument *self,
                                          guint              slot,
                                          MshedEditKind      cause,
                                          const char        *reason);

/* mshed-document-checks.c: the per-record rules of mshed_validate_model, same codes and
 * messages, so an edit re-checks only the records it touched. */
gboolean  _mshed_check_is_local          (MshedCheck         check);
void      _mshed_check_record            (const MshedModel  *model,
                                          MshedMode          mode,
                                          MshedTableId       table,
                                          guint              row,
                                          MshedDiagnostics  *diags);

gboolean  _mshed_document_reset_to_file (MshedDocument   *self,
                                         GError         **error);

/* mshed-document.c, for mshed-document-utf.c */
gboolean  _mshed_document_need_model     (MshedDocument     *self,
                                          GError           **error);
void      _mshed_document_record         (MshedDocument     *self,
                                          MshedCommand      *command);
void      _mshed_document_add_change     (MshedDocument     *self,
                                          const MshedChange *change);
void      _mshed_document_init_title     (MshedDocument     *self);
gboolean  _mshed_document_replace_diags  (MshedDocument     *self,
                                          MshedDiagnostics  *fresh);

/* mshed-document-utf.c */
gboolean  _mshed_document_load_utf       (MshedDocument     *self,
                                          const char        *path,
                                          GBytes            *bytes,
                                          GError           **error);
void      _mshed_document_utf_apply      (MshedDocument     *self,
                                          const MshedCommand *command,
                                          gboolean           reverse);
gboolean  _mshed_document_utf_revalidate (MshedDocument     *self,
                                          gboolean           full);
GBytes   *_mshed_document_utf_serialize  (MshedDocument     *self,
                                          GError           **error);
gboolean  _mshed_document_utf_check_savable (MshedDocument  *self,
                                          const char        *path,
                                          GBytes            *bytes,
                                          MshedDiagnostics  *strict,
                                          GError           **error);
void      _mshed_document_utf_swap       (MshedDocument     *self,
                                          gpointer           state);
gboolean  _mshed_document_utf_reload     (MshedDocument     *self,
                                          GError           **error);
void      _mshed_document_utf_set_payload (MshedDocument    *self,
                                          MshedUtfNode      *node,
                                          const guint8      *data,
                                          gsize              length);
/* mshed-document-dfm-triangles.c: writes a group's new triangle list as one undo step */
gboolean  _mshed_document_dfm_write_triangles (MshedDocument *self,
                                          guint              level,
                                          guint              group,
                                          const guint16     *triangles,
                                          gsize              n_triangles,
                                          const char        *label,
                                          GError           **error);
gboolean  _mshed_document_dfm_recompute  (MshedDocument     *self,
                                          MshedDerived       what,
                                          const guint       *rows,
                                          guint              n_rows,
                                          GError           **error);

G_END_DECLS
