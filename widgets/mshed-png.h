/* mshed-png.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A minimal PNG writer (8-bit RGBA, one IDAT, "Sub" filter) on zlib, so the render library
 * and the CLI need neither GTK nor gdk-pixbuf nor libpng.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GBytes   *mshed_png_encode (const guint8  *rgba,
                            int            width,
                            int            height,
                            gsize          stride);
gboolean  mshed_png_write  (const char    *path,
                            const guint8  *rgba,
                            int            width,
                            int            height,
                            gsize          stride,
                            GError       **error);

G_END_DECLS
