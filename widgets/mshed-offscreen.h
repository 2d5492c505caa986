/* mshed-offscreen.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rendering with no display at all: EGL's Mesa surfaceless platform, an OpenGL 3.3 core
 * context without config or surface, and a framebuffer object read back with glReadPixels.
 * Serves `mshed-cli render` and the display-less tests.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _MshedOffscreen MshedOffscreen;

/* Creates the context, makes it current and binds a @width x @height framebuffer (RGBA8 +
 * 24-bit depth; @samples > 0 renders multisampled and resolves on read). Fails with
 * MSHED_RENDER_ERROR_UNSUPPORTED when the platform or a needed extension is missing. */
MshedOffscreen *mshed_offscreen_new          (int              width,
                                              int              height,
                                              int              samples,
                                              GError         **error);
/* Frees the framebuffer and the context (making it current first). The EGL display stays
 * initialised for the next offscreen until the process exits. */
void            mshed_offscreen_free         (MshedOffscreen  *self);
gboolean        mshed_offscreen_make_current (MshedOffscreen  *self);
/* Binds the framebuffer to draw into (the renderer then draws at the size below). */
void            mshed_offscreen_bind         (MshedOffscreen  *self);
int             mshed_offscreen_get_width    (MshedOffscreen  *self);
int             mshed_offscreen_get_height   (MshedOffscreen  *self);
const char     *mshed_offscreen_get_renderer (MshedOffscreen  *self);
/* The image, top row first, 4 bytes per pixel (RGBA, straight alpha), stride 4 * width. */
guint8         *mshed_offscreen_read_rgba    (MshedOffscreen  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedOffscreen, mshed_offscreen_free)

G_END_DECLS
