/* mshed-model.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The MSH model IR (docs/msh.md §10.4): the model's NRes container with typed, bounds-checked
 * access to every core table. Records stay in their on-disk bytes (a slice of the mapped
 * file until first edited), so nothing is copied on load and untouched bytes are written back
 * exactly; the decode helpers below give typed values.
 */
#pragma once

#include <glib-object.h>

#include "mshed-model-types.h"
#include "mshed-nres.h"
#include "mshed-schema.h"

G_BEGIN_DECLS

typedef struct {
  guint16 hdr0;                        /* flags, unknown */
  guint16 hdr1;                        /* parent, 0xFFFF = root */
  guint16 hdr2;                        /* Res19 map start, 0xFFFF = none */
  guint16 hdr3;                        /* fallback key in Res8 */
  guint16 slot[MSHED_N_SLOT_CELLS];    /* [lod * 5 + group], 0xFFFF = none */
} MshedNode;

typedef struct {
  float hull[8][3];
  float sphere[4];
  float capsule[7];
} MshedHeader;

typedef struct {
  guint16 tri_start;
  guint16 tri_count;
  guint16 batch_start;
  guint16 batch_count;
  float   aabb_min[3];
  float   aabb_max[3];
  float   sphere_center[3];
  float   sphere_radius;
  guint32 unk[5];                      /* unk30, unk34, unk38, unk3C, unk40 */
} MshedSlot;

typedef struct {
  guint16 flags;
  guint16 material_index;
  guint16 unk4;
  guint16 unk6;
  guint16 index_count;
  guint32 index_start;
  guint16 unk14;
  guint32 base_vertex;
} MshedBatch;

typedef struct {
  guint16 flags;
  guint16 link[3];
  gint16  normal[3];
  guint16 sel_packed;
} MshedTriDesc;

typedef struct {
  float  pos[3];
  float  time;
  gint16 q[4];                          /* x, y, z, w as stored */
} MshedKey;

#define MSHED_TYPE_MODEL (mshed_model_get_type ())
GType        mshed_model_get_type            (void) G_GNUC_CONST;

MshedModel  *mshed_model_new                 (MshedNres         *nres,
                                              MshedMode          mode,
                                              MshedDiagnostics  *diags,
                                              GError           **error);
MshedModel  *mshed_model_new_from_bytes      (GBytes            *bytes,
                                              MshedMode          mode,
                                              MshedDiagnostics  *diags,
                                              GError           **error);
MshedModel  *mshed_model_ref                 (MshedModel        *self);
void         mshed_model_unref               (MshedModel        *self);

MshedNres   *mshed_model_get_nres            (MshedModel        *self);
void         mshed_model_refresh             (MshedModel        *self);
void         mshed_model_names_changed       (MshedModel        *self);
GBytes      *mshed_model_serialize           (MshedModel        *self);

gboolean     mshed_nres_looks_like_model     (const MshedNres   *nres);

gint         mshed_model_find_resource       (const MshedModel  *self,
                                              guint32            type_id);
const MshedNresEntry *mshed_model_get_resource (const MshedModel *self,
                                              guint32            type_id);
guint        mshed_model_get_node_stride     (const MshedModel  *self);
gboolean     mshed_model_has_node_records    (const MshedModel  *self);
guint        mshed_model_get_n_rows          (const MshedModel  *self,
                                              MshedTableId       table);
const guint8 *mshed_model_get_record         (const MshedModel  *self,
                                              MshedTableId       table,
                                              guint              row);
guint32      mshed_model_get_record_offset   (const MshedModel  *self,
                                              MshedTableId       table,
                                              guint              row);
guint32      mshed_model_get_frame_count     (const MshedModel  *self);

gboolean     mshed_model_get_node            (const MshedModel  *self,
                                              guint              index,
                                              MshedNode         *out);
gboolean     mshed_model_get_header          (const MshedModel  *self,
                                              MshedHeader       *out);
gboolean     mshed_model_get_slot            (const MshedModel  *self,
                                              guint              index,
                                              MshedSlot         *out);
gboolean     mshed_model_get_batch           (const MshedModel  *self,
                                              guint              index,
                                              MshedBatch        *out);
gboolean     mshed_model_get_tri             (const MshedModel  *self,
                                              guint              index,
                                              MshedTriDesc      *out);
gboolean     mshed_model_get_key             (const MshedModel  *self,
                                              guint              index,
                                              MshedKey          *out);
gboolean     mshed_model_get_position        (const MshedModel  *self,
                                              guint              index,
                                              float              out[3]);
gboolean     mshed_model_get_normal          (const MshedModel  *self,
                                              guint              index,
                                              float              out[3]);
gboolean     mshed_model_get_uv              (const MshedModel  *self,
                                              guint              index,
                                              float              out[2]);
gboolean     mshed_model_get_index           (const MshedModel  *self,
                                              guint              index,
                                              guint16           *out);
gboolean     mshed_model_get_map_word        (const MshedModel  *self,
                                              guint              index,
                                              guint16           *out);

/* Res10. FALSE when the record does not exist (broken or short table). *len == 0: no name. */
gboolean     mshed_model_get_name_raw        (const MshedModel  *self,
                                              guint              node,
                                              const guint8     **text,
                                              guint32           *len);
guint32      mshed_model_get_name_record_offset (const MshedModel *self,
                                              guint              node);
char        *mshed_model_dup_name            (const MshedModel  *self,
                                              guint              node);
gboolean     mshed_model_names_ok            (const MshedModel  *self);

/* Slot lookup (docs/msh.md §6.1), bounds-checked: MSHED_NONE when there is nothing to draw. */
guint        mshed_model_find_slot           (const MshedModel  *self,
                                              guint              node,
                                              guint              lod,
                                              guint              group);

/* Decode and encode formulas (docs/msh.md §5). */
float        mshed_decode_normal             (gint8              v);
gint8        mshed_encode_normal             (float              v);
float        mshed_decode_uv                 (gint16             v);
gint16       mshed_encode_uv                 (float              v);
float        mshed_decode_tri_normal         (gint16             v);
gint16       mshed_encode_tri_normal         (float              v);
float        mshed_decode_quat               (gint16             v);
gint16       mshed_encode_quat               (float              v);
guint16      mshed_selector                  (guint16            sel_packed,
                                              guint              k);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedModel, mshed_model_unref)

G_END_DECLS
