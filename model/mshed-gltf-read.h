/* mshed-gltf-read.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A glTF 2.0 reader for import (docs/gltf.md §6): .glb, or .gltf with its buffers as data:
 * URIs or side files beside it. Hostile input: every index, offset and count is checked with
 * checked arithmetic, and a problem is a GError naming the file and the glTF object
 * ("meshes[3].primitives[0]: accessor 7 reads past buffer view 2"). What MSH cannot hold
 * (skins, morph targets, primitives other than triangles) is refused here too.
 *
 * The result is decoded: node transforms as translation + rotation, every primitive's
 * attributes as floats and its indices as u32 triangles, animation channels as times and
 * values. The "extras" → "mshed" objects stay JSON (owned by the MshedGltf).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct {
  char       *name;            /* UTF-8; "" when the node has none */
  gint        parent;          /* glTF node index, -1 for a root */
  gint        mesh;            /* -1 for none */
  gint        skin;            /* -1 for none (read only by mshed_gltf_read_skinned) */
  float       translation[3];
  float       rotation[4];     /* glTF order x, y, z, w */
  JsonObject *mshed;           /* extras.mshed, or NULL */
} MshedGltfNode;

typedef struct {
  guint       n_vertices;
  float      *positions;       /* 3 per vertex */
  float      *normals;         /* 3 per vertex, or NULL */
  float      *uvs;             /* TEXCOORD_0, 2 per vertex, or NULL */
  float      *ids;             /* TEXCOORD_1 (mshed's Res3 row in u), or NULL */
  float      *uv2;             /* TEXCOORD_2, 2 per vertex, or NULL */
  guint32    *joints;          /* JOINTS_0, 4 per vertex, or NULL (skinned reads only) */
  float      *weights;         /* WEIGHTS_0 (FLOAT), 4 per vertex, or NULL */
  guint       n_indices;       /* a multiple of 3 (triangles) */
  guint32    *indices;         /* each < n_vertices */
  gint        material;        /* -1 for none */
} MshedGltfPrimitive;

typedef struct {
  char               *name;
  guint               n_primitives;
  MshedGltfPrimitive *primitives;
  JsonObject         *mshed;
} MshedGltfMesh;

typedef struct {
  guint       n_joints;
  guint      *joints;          /* glTF node indices */
  float      *inverse_bind;    /* 16 per joint (column-major), or NULL for identities */
} MshedGltfSkin;

typedef enum {
  MSHED_GLTF_PATH_TRANSLATION,
  MSHED_GLTF_PATH_ROTATION,
} MshedGltfPath;

typedef struct {
  guint          node;
  MshedGltfPath  path;
  gboolean       step;         /* STEP interpolation (else LINEAR) */
  guint          n_keys;
  float         *times;        /* seconds, n_keys */
  float         *values;       /* 3 or 4 (x, y, z, w) per key */
} MshedGltfChannel;

typedef struct {
  char             *where;       /* the file name for messages */
  JsonParser       *parser;
  guint             n_nodes;
  MshedGltfNode    *nodes;
  guint             n_meshes;
  MshedGltfMesh    *meshes;
  guint             n_materials;
  gint             *material_index;  /* per material: extras.mshed.materialIndex, or -1 */
  guint             n_channels;
  MshedGltfChannel *channels;
  JsonObject       *scene_mshed;     /* extras.mshed of the default scene, or NULL */
  guint             n_skins;         /* skinned reads only */
  MshedGltfSkin    *skins;
} MshedGltf;

/* @bytes: a .glb or .gltf file; @path names it in messages and locates side .bin files
 * (a relative URI without "..", beside the file); NULL refuses side files. */
MshedGltf *mshed_gltf_read      (GBytes      *bytes,
                                 const char  *path,
                                 GError     **error);
MshedGltf *mshed_gltf_read_file (const char  *path,
                                 GError     **error);
/* As mshed_gltf_read_file and mshed_gltf_read, for a deformable model: skins, JOINTS_0 and
 * WEIGHTS_0 are read instead of refused (docs/gltf.md §8.3). */
MshedGltf *mshed_gltf_read_file_skinned (const char  *path,
                                         GError     **error);
MshedGltf *mshed_gltf_read_skinned (GBytes      *bytes,
                                    const char  *path,
                                    GError     **error);
void       mshed_gltf_free      (MshedGltf   *gltf);

/* extras.mshed member @name as an unsigned integer below @limit; FALSE when absent or not
 * one (then *value is untouched). */
gboolean   mshed_gltf_extra_uint (JsonObject *mshed,
                                  const char *name,
                                  guint64     limit,
                                  guint      *value);

/* Sets @error to "FILE: MESSAGE" (MSHED_MODEL_ERROR_INVALID), FILE being @gltf's file name;
 * returns FALSE. */
gboolean   mshed_gltf_fail       (const MshedGltf  *gltf,
                                  GError          **error,
                                  const char       *format,
                                  ...) G_GNUC_PRINTF (3, 4);

/* @c's value at @t seconds (3 or 4 floats): glTF's LINEAR (slerp for rotations) or STEP,
 * clamped to the first and last keys. */
void       mshed_gltf_channel_sample (const MshedGltfChannel *c,
                                      float                   t,
                                      float                  *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedGltf, mshed_gltf_free)

G_END_DECLS
