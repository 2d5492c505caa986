/* mshed-gltf.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MSH -> glTF 2.0 (docs/gltf.md): the node hierarchy with each node's pose, one mesh per slot
 * (one primitive per batch), one material per material index, the key tracks as an
 * animation, and what glTF cannot hold under "extras" → "mshed". Binary (.glb) or JSON
 * (.gltf) with the buffer embedded as a base64 data URI.
 */
#pragma once

#include <glib.h>

#include "mshed-model.h"
#include "mshed-progress.h"

G_BEGIN_DECLS

#define MSHED_GLTF_EXTRAS_VERSION 1
/* glTF times are seconds; MSH key times are frames. Blender's default scene rate. */
#define MSHED_GLTF_FRAMES_PER_SECOND 24
/* TEXCOORD_1.u of every exported vertex is its Res3 row, a float: exact below 2^24 rows. */
#define MSHED_GLTF_MAX_VERTEX_ID (1u << 24)

typedef enum {
  MSHED_GLTF_BINARY,   /* .glb */
  MSHED_GLTF_TEXT,     /* .gltf, the buffer as a data: URI */
} MshedGltfFormat;

typedef struct {
  MshedGltfFormat format;
  gboolean        at_frame;    /* FALSE: the rest pose (every node's fallback key) */
  guint           frame;       /* with at_frame: the pose at t = frame (docs/msh.md §7) */
  guint           lod;         /* the slot cell each node's own mesh shows; the other */
  guint           group;       /* cells become child nodes */
  gboolean        animations;  /* the key tracks as a glTF animation (default TRUE) */
} MshedGltfOptions;

typedef struct {
  guint nodes;          /* glTF nodes: the MSH nodes, the other-cell nodes, all-batches */
  guint meshes;
  guint triangles;      /* of every mesh, once per mesh */
  guint materials;
  guint animated_nodes; /* nodes with an exported track */
  guint skipped_tracks; /* animated nodes whose track is not in the canonical layout */
} MshedGltfStats;

void     mshed_gltf_options_init (MshedGltfOptions       *options);
/* The whole .glb or .gltf file. @progress (nullable) hears a step per node and per track;
 * NULL with G_IO_ERROR_CANCELLED only when it was cancelled. @stats nullable. */
GBytes  *mshed_gltf_export       (MshedModel             *model,
                                  const MshedGltfOptions *options,
                                  MshedProgress          *progress,
                                  MshedGltfStats         *stats,
                                  GError                **error);
/* Which format a file name asks for: TRUE for .glb and .gltf (any case). */
gboolean mshed_gltf_format_for_path (const char          *path,
                                     MshedGltfFormat     *format);

/* A node's name in the export (also OBJ's): its Res10 name in UTF-8, or "node N" for none. */
char    *mshed_gltf_node_name       (MshedModel          *model,
                                     guint                node);

/* The keys of node @i's track in the canonical layout (docs/msh.md §7.7), Res8[start..end],
 * as the export writes them; FALSE when the node has no map or its track does not qualify
 * (docs/gltf.md §4). */
gboolean mshed_gltf_node_track      (MshedModel          *model,
                                     guint                node,
                                     guint               *start,
                                     guint               *end);
/* Every node's parent as the export shows it (docs/gltf.md §2): hdr1, or MSHED_NONE for a
 * parent out of range or in a cycle. Free with g_free(). */
guint16 *mshed_gltf_effective_parents (MshedModel        *model);
/* glTF's unit rotation (x, y, z, w) for the runtime's (w, x, y, z); zero is the identity. */
void     mshed_gltf_rotation        (const float          wxyz[4],
                                     float                xyzw[4]);

G_END_DECLS
