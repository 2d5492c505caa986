/* mshed-obj.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MSH and DFM -> Wavefront OBJ with its .mtl (docs/gltf.md, "OBJ"), for tools that read nothing
 * else: an MSH's chosen LOD and group in world space (rest pose or the pose at a frame), one
 * object per node, `usemtl material N` per batch; a DFM's chosen level in bind pose, one group
 * per face group with its Material_name. Numbers in the C locale whatever the user's is.
 */
#pragma once

#include <glib.h>

#include "mshed-dfm.h"
#include "mshed-model.h"

G_BEGIN_DECLS

typedef struct {
  gboolean    at_frame;  /* MSH: FALSE: the rest pose (every node's fallback key) */
  guint       frame;     /* MSH: with at_frame, the pose at t = frame */
  guint       lod;       /* MSH: the slot cell each node shows */
  guint       group;
  guint       level;     /* DFM: the level (Mesh<n>) */
  const char *mtllib;    /* the `mtllib` file name (UTF-8), NULL for none */
} MshedObjOptions;

typedef struct {
  guint objects;    /* `g` lines */
  guint vertices;   /* `v` lines (one per used vertex per object; also `vt` and `vn`) */
  guint triangles;  /* `f` lines */
  guint materials;  /* `newmtl` entries */
} MshedObjStats;

void mshed_obj_options_init (MshedObjOptions       *options);
/* Appends the OBJ text to @obj and the MTL text to @mtl. @stats nullable. */
void mshed_obj_export_msh   (MshedModel            *model,
                             const MshedObjOptions *options,
                             GString               *obj,
                             GString               *mtl,
                             MshedObjStats         *stats);
/* FALSE (nothing written) when @options->level is not a level of @dfm. */
gboolean mshed_obj_export_dfm (const MshedDfm      *dfm,
                               const MshedObjOptions *options,
                               GString             *obj,
                               GString             *mtl,
                               MshedObjStats       *stats);
/* OUT.obj -> OUT.mtl beside it (the suffix's case kept: .OBJ -> .MTL). */
char    *mshed_obj_mtl_path   (const char            *obj_path);

G_END_DECLS
