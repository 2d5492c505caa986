/* mshed-thumbnails.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small pictures of models beside the rows of the Check Folder window and of an archive's
 * entry list. Each picture is drawn by mshed-thumbnailer (app/mshed-thumbnailer.c, the same
 * program a file manager runs) in its own process, at most one per processor at a time, so a
 * broken model or a slow software rasteriser never blocks the window. Pictures are cached on
 * disk under $XDG_CACHE_HOME/mshed/thumbnails (docs/conventions.md "Thumbnails in the
 * windows"): a file by its path, size and modification time, an archive entry by its bytes.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MSHED_TYPE_THUMBNAILS (mshed_thumbnails_get_type ())
G_DECLARE_FINAL_TYPE (MshedThumbnails, mshed_thumbnails, MSHED, THUMBNAILS, GObject)

/* The side of a picture in pixels (drawn at twice that for high-density screens). */
#define MSHED_THUMBNAIL_SIZE 40

MshedThumbnails *mshed_thumbnails_get_default   (void);
/* A GtkPicture that shows the picture of @path (a model, an archive: its first model, or a
 * DFM) once it is drawn, or nothing when it cannot be. */
GtkWidget       *mshed_thumbnail_new            (void);
void             mshed_thumbnail_set_file       (GtkWidget       *thumbnail,
                                                 const char      *path);
/* The picture of a model held in memory (an archive entry's payload, edited or not). */
void             mshed_thumbnail_set_bytes      (GtkWidget       *thumbnail,
                                                 GBytes          *bytes);
void             mshed_thumbnail_clear          (GtkWidget       *thumbnail);
/* Tests: whether @thumbnail shows a drawn picture now. */
gboolean         mshed_thumbnail_is_drawn       (GtkWidget       *thumbnail);
/* Tests and benchmarks: pictures being drawn or waiting. */
guint            mshed_thumbnails_get_n_pending (MshedThumbnails *self);

G_END_DECLS
