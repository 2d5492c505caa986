/* mshed-cp1251.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Windows-1251 <-> UTF-8 for node names, with no dependency on the system's iconv tables.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Always returns a displayable string. Bytes with no mapping (0x98) and control bytes are
 * shown as \xNN; *lossless (nullable) is FALSE when that happened. */
char    *mshed_cp1251_to_utf8 (const guint8 *text,
                               gsize         len,
                               gboolean     *lossless);
/* Returns the encoded bytes (no terminator), or NULL with MSHED_MODEL_ERROR_ENCODING naming
 * the first character that has no Windows-1251 form. */
GBytes  *mshed_utf8_to_cp1251 (const char   *utf8,
                               GError      **error);

G_END_DECLS
