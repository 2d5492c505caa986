/* mshed-level-chooser.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The DFM level chooser of the compare and merge windows: Mesh0 … Mesh<n−1>, n the most
 * levels (MultiLevel\Mesh<n>, docs/dfm.md) any of its deformable models has; hidden while
 * there is one level or none. The level shown is the "level" property: set by the user or
 * by the window (a difference or conflict of another level chosen), notified either way.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-dfm-schema.h"
#include "mshed-document.h"

G_BEGIN_DECLS

#define MSHED_TYPE_LEVEL_CHOOSER (mshed_level_chooser_get_type ())
G_DECLARE_FINAL_TYPE (MshedLevelChooser, mshed_level_chooser, MSHED, LEVEL_CHOOSER, GtkWidget)

GtkWidget *mshed_level_chooser_new            (void);
/* Offers the levels of the deformable models among @docs (NULL entries and other files are
 * skipped); the level shown stays, or becomes the last one offered. */
void       mshed_level_chooser_set_documents  (MshedLevelChooser    *self,
                                               MshedDocument *const *docs,
                                               guint                 n_docs);
guint      mshed_level_chooser_get_n_levels   (MshedLevelChooser    *self);
guint      mshed_level_chooser_get_level      (MshedLevelChooser    *self);
/* FALSE (and nothing changes) when @level is not offered. */
gboolean   mshed_level_chooser_set_level      (MshedLevelChooser    *self,
                                               guint                 level);

/* The level a DFM node path is in (…\MultiLevel\Mesh<n>\…), G_MAXUINT when none. */
guint      mshed_level_chooser_path_level     (const char           *path);
/* Whether a grid of DFM table @table shows one level: the tables of Mesh<n>\Geometry and
 * Mesh<n>\Face_groups. */
gboolean   mshed_level_chooser_table_has_level (MshedDfmTable        table);

G_END_DECLS
