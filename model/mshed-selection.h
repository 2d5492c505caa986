/* mshed-selection.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The linked-views selection: sets of nodes, slots, batches and triangle descriptors, and the
 * runtime relations between them (node -> slot cells -> batches / descriptors). Selecting a
 * node in the tree selects its slots, batches and descriptors everywhere; picking a triangle
 * in the preview selects its batch, slot and node.
 */
#pragma once

#include <glib-object.h>

#include "mshed-model.h"

G_BEGIN_DECLS

typedef struct {
  GArray *nodes;    /* guint, sorted, unique */
  GArray *slots;
  GArray *batches;
  GArray *tris;     /* Res7 descriptors */
} MshedSelection;

#define MSHED_TYPE_SELECTION (mshed_selection_get_type ())
GType           mshed_selection_get_type     (void) G_GNUC_CONST;
MshedSelection *mshed_selection_new          (void);
MshedSelection *mshed_selection_copy         (const MshedSelection *self);
void            mshed_selection_free         (MshedSelection       *self);
void            mshed_selection_clear        (MshedSelection       *self);
gboolean        mshed_selection_is_empty     (const MshedSelection *self);
GArray         *mshed_selection_get_rows     (const MshedSelection *self,
                                              MshedTableId          table);
gboolean        mshed_selection_contains     (const MshedSelection *self,
                                              MshedTableId          table,
                                              guint                 row);

/* Adds @node with every slot its 15 cells name, and their batches and descriptors
 * (bounds-checked: out-of-range references are skipped). */
void            mshed_selection_add_node     (MshedSelection       *self,
                                              const MshedModel     *model,
                                              guint                 node);
/* Adds @slot with its batches and descriptors, and every node that uses it. */
void            mshed_selection_add_slot     (MshedSelection       *self,
                                              const MshedModel     *model,
                                              guint                 slot);
/* Adds @batch, the slots whose batch range holds it and the nodes using those slots. */
void            mshed_selection_add_batch    (MshedSelection       *self,
                                              const MshedModel     *model,
                                              guint                 batch);
/* Adds descriptor @tri, the slots whose tri range holds it and their nodes. */
void            mshed_selection_add_tri      (MshedSelection       *self,
                                              const MshedModel     *model,
                                              guint                 tri);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedSelection, mshed_selection_free)

G_END_DECLS
