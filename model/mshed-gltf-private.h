/* mshed-gltf-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the two glTF writers share (model/mshed-gltf.c for MSH, model/mshed-gltf-dfm.c for
 * DFM): the JSON is written by hand into GStrings, one per top-level array, and the binary
 * buffer grows as views are added (docs/gltf.md).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* glTF 2.0's numbers for component types and buffer view targets (the OpenGL ones) */
#define GL_UNSIGNED_SHORT         5123
#define GL_UNSIGNED_INT           5125
#define GL_FLOAT                  5126
#define GL_ARRAY_BUFFER           34962
#define GL_ELEMENT_ARRAY_BUFFER   34963

/* A buffer view without a target (vertex data read by index, animation, extras) */
#define MSHED_GLTF_NO_TARGET 0

/* A comma before the next element of a JSON array being written, unless it is the first. */
void    mshed_gltf_sep          (GString       *s);
/* [v0,v1,…] with the shortest decimal form that reads back as the same float. */
void    mshed_gltf_append_floats (GString      *s,
                                  const float  *v,
                                  guint         n);
/* Appends @len bytes of @data to @bin at the next 4-byte boundary and their bufferView to
 * @views (with "target" unless MSHED_GLTF_NO_TARGET); returns the view's index (*n_views,
 * which it counts up). */
guint   mshed_gltf_add_view     (GByteArray    *bin,
                                 GString       *views,
                                 guint         *n_views,
                                 const void    *data,
                                 gsize          len,
                                 guint          target);
/* The GLB of the whole @json (consumed) and @bin: both padded to 4 bytes (JSON with spaces,
 * the buffer with zeros), the BIN chunk left out when @bin is empty (the glTF 2.0
 * specification, "Binary glTF Layout"). */
GBytes *mshed_gltf_pack_glb     (GString       *json,
                                 GByteArray    *bin);

G_END_DECLS
