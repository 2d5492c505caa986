/* mshed-gltf-rebuild.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The topology part of a glTF import into its model (docs/gltf.md §6.2): slots whose
 * triangles changed in the glTF get their vertices, indices, batches and descriptors rebuilt
 * in place, new glTF meshes become new slots and new glTF nodes new MSH nodes. Everything of
 * the other slots keeps its bytes; only their range starts move with the tables.
 */
#pragma once

#include <glib.h>

#include "mshed-document.h"
#include "mshed-gltf-read.h"

G_BEGIN_DECLS

typedef struct _MshedGltfRebuild MshedGltfRebuild;

MshedGltfRebuild *mshed_gltf_rebuild_new      (MshedModel       *model,
                                               const MshedGltf  *gltf);
void              mshed_gltf_rebuild_free     (MshedGltfRebuild *rb);

/* glTF mesh @mesh replaces the geometry of slot @slot. */
void              mshed_gltf_rebuild_slot     (MshedGltfRebuild *rb,
                                               guint             mesh,
                                               guint             slot);
/* glTF mesh @mesh becomes a new slot; returns its index (the caller points a node at it). */
guint             mshed_gltf_rebuild_new_slot (MshedGltfRebuild *rb,
                                               guint             mesh);
/* glTF node @node (no "node" in its extras) becomes a new MSH node. */
void              mshed_gltf_rebuild_add_node (MshedGltfRebuild *rb,
                                               guint             node);
gboolean          mshed_gltf_rebuild_is_empty (MshedGltfRebuild *rb);
/* @msh_of_gltf: per glTF node, its MSH node or G_MAXUINT; @kept: per glTF mesh, TRUE when a
 * node of the model shows it, so that its extras name its slot (a new node showing it shares
 * that slot; a copy of it only new nodes show becomes a new slot). Builds the new tables; FALSE
 * with @error naming the glTF object for what MSH cannot hold. Nothing is written. */
gboolean          mshed_gltf_rebuild_plan     (MshedGltfRebuild *rb,
                                               const guint      *msh_of_gltf,
                                               const guint8     *kept,
                                               GError          **error);
/* Writes the planned tables and nodes into @doc (inside the caller's undo group). */
gboolean          mshed_gltf_rebuild_apply    (MshedGltfRebuild *rb,
                                               MshedDocument    *doc,
                                               guint            *edits,
                                               GError          **error);
/* Acknowledges the review-only stale cells (batch and slot ranges) the rebuild answered and
 * recomputes the vertex normals of new vertices the glTF gave none. */
void              mshed_gltf_rebuild_finish   (MshedGltfRebuild *rb,
                                               MshedDocument    *doc);
guint             mshed_gltf_rebuild_n_slots  (MshedGltfRebuild *rb);
guint             mshed_gltf_rebuild_n_nodes  (MshedGltfRebuild *rb);

/* Record updates shared with the in-place import: each keeps the stored value when the glTF's
 * is within the field's quantisation of it (docs/gltf.md §6). */
void              mshed_gltf_update_position  (guint8           *rec,
                                               const float      *g);
void              mshed_gltf_update_normal    (guint8           *rec,
                                               const float      *g);
void              mshed_gltf_update_uv        (guint8           *rec,
                                               const float      *g);

G_END_DECLS
