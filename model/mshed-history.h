/* mshed-history.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Undo and redo queues of command groups (after GNOME/gtk gtktexthistory.c): groups nest,
 * empty groups are dropped, a new step clears the redo queue, the oldest steps fall off at
 * the depth limit, and a save point tells whether the current state is the saved one.
 *
 * The history only records; the owner applies each command when it records it and applies
 * them again (in reverse order, reversed) through @apply on undo, forwards on redo.
 */
#pragma once

#include <glib-object.h>

#include "mshed-command.h"

G_BEGIN_DECLS

typedef void (*MshedHistoryApplyFunc) (gpointer            user_data,
                                       const MshedCommand *command,
                                       gboolean            reverse);

#define MSHED_TYPE_HISTORY (mshed_history_get_type ())
G_DECLARE_FINAL_TYPE (MshedHistory, mshed_history, MSHED, HISTORY, GObject)

MshedHistory *mshed_history_new              (MshedHistoryApplyFunc apply,
                                              gpointer              user_data);

/* Groups: the outermost label names the step; @merge_key (0: never) lets a single-splice
 * step merge with the previous step when both carry the same key (edits of one cell). */
void          mshed_history_begin_group      (MshedHistory *self,
                                              const char   *label,
                                              guint64       merge_key);
void          mshed_history_end_group        (MshedHistory *self);
guint         mshed_history_get_depth        (MshedHistory *self);
/* Records an already applied command in the open group (transfer full). Outside a group it
 * forms a step of its own. */
void          mshed_history_push             (MshedHistory *self,
                                              MshedCommand *command);
/* Steps that only carry CUSTOM commands are "clean": they do not change the saved state. */

gboolean      mshed_history_undo             (MshedHistory *self);
gboolean      mshed_history_redo             (MshedHistory *self);
gboolean      mshed_history_can_undo         (MshedHistory *self);
gboolean      mshed_history_can_redo         (MshedHistory *self);
const char   *mshed_history_get_undo_label   (MshedHistory *self);
const char   *mshed_history_get_redo_label   (MshedHistory *self);
gboolean      mshed_history_is_applying      (MshedHistory *self);

void          mshed_history_set_save_point   (MshedHistory *self);
gboolean      mshed_history_is_modified      (MshedHistory *self);
/* TRUE when the state equals the state the history started from (nothing net applied). */
gboolean      mshed_history_is_at_start      (MshedHistory *self);
/* An id of the current byte state: equal ids mean equal bytes. 0 = the start state. */
guint64       mshed_history_get_state_id     (MshedHistory *self);

void          mshed_history_set_max_depth    (MshedHistory *self,
                                              guint         max_steps);  /* 0: unlimited */
guint         mshed_history_get_n_undo       (MshedHistory *self);
guint         mshed_history_get_n_redo       (MshedHistory *self);
void          mshed_history_clear            (MshedHistory *self);
gsize         mshed_history_get_memory_size  (MshedHistory *self);

G_END_DECLS
