/* mshed-compare-window.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compare window (mshed-compare-window.h, docs/diff.md §7).
 */
#define G_LOG_DOMAIN "mshed-compare"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-compare-window-private.h"
#include "mshed-copy.h"
#include "mshed-dfm-schema.h"
#include "mshed-error.h"
#include "mshed-model-view.h"
#include "mshed-renderer.h"
#include "mshed-schema.h"
#include "mshed-window-private.h"


G_DEFINE_FINAL_TYPE (MshedCompareWindow, mshed_compare_window, GTK_TYPE_APPLICATION_WINDOW)

#define N_TABLES MSHED_WINDOW_N_GRIDS

/* The DFM tables a compare or merge grid offers (level 0). */
const MshedDfmTable mshed_compare_dfm_tables[MSHED_COMPARE_N_DFM_TABLES] = {
  MSHED_DFM_TABLE_POINTS,
  MSHED_DFM_TABLE_POINT_INDICES,
  MSHED_DFM_TABLE_UV0,
  MSHED_DFM_TABLE_BONE_ID_CHAIN,
  MSHED_DFM_TABLE_TRISTRIP,
  MSHED_DFM_TABLE_FRACTIONS,
  MSHED_DFM_TABLE_BONE_TO_ROOT,
  MSHED_DFM_TABLE_CONS_FIX,
  MSHED_DFM_TABLE_CONS_REV,
  MSHED_DFM_TABLE_CONS_PRIS,
  MSHED_DFM_TABLE_CONS_CYL,
  MSHED_DFM_TABLE_CONS_SPHERE,
  MSHED_DFM_TABLE_CONS_LOOSE,
};

/* Grids ------------------------------------------------------------------------------------ */

/* Two deformable models: DFM grids. */
gboolean
_mshed_compare_window_is_dfm (MshedCompareWindow *self)
{
  return mshed_document_get_dfm (self->docs[0]) != NULL &&
         mshed_document_get_dfm (self->docs[1]) != NULL;
}

#define is_dfm _mshed_compare_window_is_dfm

static guint
table_position (MshedCompareWindow *self,
                MshedTableId        table)
{
  if (is_dfm (self))
    {
      for (guint i = 0; i < MSHED_COMPARE_N_DFM_TABLES; i++)
        if ((MshedTableId) mshed_compare_dfm_tables[i] == table)
          return i;
      return GTK_INVALID_LIST_POSITION;
    }
  for (guint i = 0; i < N_TABLES; i++)
    if (mshed_window_grid_tables[i] == table)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static MshedTableId
table_at (MshedCompareWindow *self,
          guint               pos)
{
  if (is_dfm (self))
    return pos < MSHED_COMPARE_N_DFM_TABLES ? (MshedTableId) mshed_compare_dfm_tables[pos]
                                            : MSHED_TABLE_NONE;
  return pos < N_TABLES ? mshed_window_grid_tables[pos] : MSHED_TABLE_NONE;
}

/* The DFM level a difference is in (its path's MultiLevel\Mesh<n>), G_MAXUINT when none. */
static guint
item_level (const MshedDiffItem *item)
{
  return mshed_level_chooser_path_level (item->path);
}

/* Whether a grid of DFM table @table follows the level chooser. */
static gboolean
table_has_level (MshedCompareWindow *self,
                 MshedTableId        table)
{
  return is_dfm (self) && table != MSHED_TABLE_NONE &&
         mshed_level_chooser_table_has_level ((MshedDfmTable) table);
}

/* The grid showing a difference, MSHED_TABLE_NONE when none does (UTF files other than
 * deformable models); a DFM difference of another level shows after switching levels. */
static MshedTableId
item_grid_table (MshedCompareWindow  *self,
                 const MshedDiffItem *item)
{
  MshedTableId table = (MshedTableId) item->table;

  if (item->path != NULL)
    {
      if (!is_dfm (self))
        return MSHED_TABLE_NONE;
      return table_position (self, table) != GTK_INVALID_LIST_POSITION ? table
                                                                       : MSHED_TABLE_NONE;
    }
  if (table == MSHED_TABLE_NORMALS || table == MSHED_TABLE_UVS)
    table = MSHED_TABLE_POSITIONS;  /* one vertex grid */
  if (item->table < 0 && (item->res_a >= 0 || item->res_b >= 0))
    table = MSHED_TABLE_DIRECTORY;
  return table_position (self, table) != GTK_INVALID_LIST_POSITION ? table : MSHED_TABLE_NONE;
}

/* The row of @side a difference is about in its grid, G_MAXUINT when none. */
static guint
item_row (const MshedDiffItem *item,
          MshedCompareSide     side)
{
  if (item->table < 0)
    {
      gint res = side == MSHED_COMPARE_LEFT ? item->res_a : item->res_b;

      return res >= 0 ? (guint) res : G_MAXUINT;
    }
  if (item->kind == MSHED_DIFF_GEOMETRY || item->kind == MSHED_DIFF_BYTES)
    return G_MAXUINT;
  return side == MSHED_COMPARE_LEFT ? item->row_a : item->row_b;
}

/* Marks the changed cells of the grids' table. */
static void
mark_changed (MshedCompareWindow *self)
{
  for (guint s = 0; s < 2; s++)
    {
      g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint));
      g_autoptr(GPtrArray) fields = g_ptr_array_new ();

      if (self->grids[s] == NULL)
        continue;
      for (guint i = 0; self->diff && i < mshed_diff_get_n_items (self->diff); i++)
        {
          const MshedDiffItem *item = mshed_diff_get_item (self->diff, i);
          guint row = item_row (item, s);

          if (item_grid_table (self, item) != self->table || row == G_MAXUINT ||
              (table_has_level (self, self->table) && item_level (item) != self->level))
            continue;
          g_array_append_val (rows, row);
          g_ptr_array_add (fields, (gpointer) (item->kind == MSHED_DIFF_FIELD ||
                                               item->kind == MSHED_DIFF_TEXT ? item->field
                                                                             : NULL));
        }
      mshed_table_view_set_changed (self->grids[s], (const guint *) rows->data,
                                    (const char *const *) fields->pdata, rows->len);
    }
}

static GtkAdjustment *
grid_adjustment (MshedTableView *grid,
                 guint           horizontal)
{
  return horizontal ? mshed_table_view_get_hadjustment (grid)
                    : mshed_table_view_get_vadjustment (grid);
}

static gboolean
scroll_sync_tick_cb (GtkWidget     *widget,
                     GdkFrameClock *clock,
                     gpointer       data)
{
  MshedCompareWindow *self = MSHED_COMPARE_WINDOW (widget);

  self->scroll_sync_tick = 0;
  self->syncing = TRUE;
  for (guint h = 0; h < 2; h++)
    {
      gint s = self->scroll_from[h];

      self->scroll_from[h] = -1;
      if (s >= 0 && self->grids[0] != NULL && self->grids[1] != NULL)
        gtk_adjustment_set_value (grid_adjustment (self->grids[!s], h),
                                  gtk_adjustment_get_value (grid_adjustment (self->grids[s], h)));
    }
  self->syncing = FALSE;
  return G_SOURCE_REMOVE;
}

/* One grid scrolled: the other follows (same rows, same columns) in the update phase of the
 * next frame, before it is laid out. Not at once: a grid scrolls while the window is being
 * laid out (a resize moves its rows), when the other grid may already have its allocation
 * for this frame; scrolled then, it would go without one, and GTK would skip drawing it
 * ("Trying to snapshot MshedTableView without a current allocation"). A scroll by the user
 * comes before the frame, so both grids are drawn scrolled in that frame. */
static void
scroll_changed_cb (GtkAdjustment      *adjustment,
                   MshedCompareWindow *self)
{
  if (self->syncing)
    return;
  for (guint s = 0; s < 2; s++)
    for (guint h = 0; h < 2; h++)
      if (self->grids[s] != NULL && grid_adjustment (self->grids[s], h) == adjustment)
        self->scroll_from[h] = (gint) s;
  if (self->scroll_sync_tick == 0)
    self->scroll_sync_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self),
                                                           scroll_sync_tick_cb, NULL, NULL);
}

static void
unlink_grid (MshedCompareWindow *self,
             guint               side)
{
  for (guint h = 0; h < 2; h++)
    g_clear_signal_handler (&self->scroll_ids[side][h],
                            grid_adjustment (self->grids[side], h));
}

static void
show_table (MshedCompareWindow *self,
            MshedTableId        table)
{
  if (table == self->table && self->grids[0] != NULL)
    return;
  for (guint s = 0; s < 2; s++)
    if (self->grids[s] != NULL)
      {
        unlink_grid (self, s);
        gtk_box_remove (self->grids_box, GTK_WIDGET (self->grids[s]));
        self->grids[s] = NULL;
      }
  self->table = table;
  self->scroll_from[0] = self->scroll_from[1] = -1;
  if (mshed_document_get_model (self->docs[0]) == NULL && !is_dfm (self))
    return;
  for (guint s = 0; s < 2; s++)
    {
      self->grids[s] = MSHED_TABLE_VIEW (is_dfm (self)
                                         ? mshed_table_view_new_dfm ((MshedDfmTable) table,
                                                                     table_has_level (self, table)
                                                                     ? self->level : 0, 0)
                                         : mshed_table_view_new (table));
      gtk_widget_set_hexpand (GTK_WIDGET (self->grids[s]), TRUE);
      mshed_table_view_set_document (self->grids[s], self->docs[s]);
      gtk_box_append (self->grids_box, GTK_WIDGET (self->grids[s]));
      for (guint h = 0; h < 2; h++)
        self->scroll_ids[s][h] = g_signal_connect (grid_adjustment (self->grids[s], h),
                                                   "value-changed",
                                                   G_CALLBACK (scroll_changed_cb), self);
    }
  self->block_jump++;
  gtk_drop_down_set_selected (self->table_dropdown, table_position (self, table));
  self->block_jump--;
  mark_changed (self);
}

static void
table_selected_cb (MshedCompareWindow *self)
{
  guint pos = gtk_drop_down_get_selected (self->table_dropdown);

  if (table_at (self, pos) != MSHED_TABLE_NONE && !self->block_jump)
    show_table (self, table_at (self, pos));
}

/* Both sides' DFM grids (and previews) show level @level. */
static void
show_level (MshedCompareWindow *self,
            guint               level)
{
  if (level == self->level)
    return;
  self->level = level;
  if (self->grids[0] != NULL && table_has_level (self, self->table))
    {
      /* new grids, showing the level's records */
      MshedTableId table = self->table;

      self->table = MSHED_TABLE_NONE;
      show_table (self, table);
    }
  mshed_level_chooser_set_level (self->level_chooser, level);
  mark_changed (self);
  _mshed_compare_window_update_previews (self);
}

/* The level chooser: Mesh0 … of the side with more levels. */
static void
fill_levels (MshedCompareWindow *self)
{
  mshed_level_chooser_set_documents (self->level_chooser, self->docs, 2);
}

static void
level_chosen_cb (MshedCompareWindow *self)
{
  show_level (self, mshed_level_chooser_get_level (self->level_chooser));
}

/* The differences ------------------------------------------------------------------------ */

static const MshedDiffItem *
selected_item (MshedCompareWindow *self)
{
  guint i = mshed_compare_window_get_selected (self);

  return i != G_MAXUINT ? mshed_diff_get_item (self->diff, i) : NULL;
}

static void
set_message (MshedCompareWindow *self,
             const char         *text)
{
  gtk_label_set_text (self->message_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), text != NULL);
}

/* Selects each side's row of the selected difference in its grid and scrolls to it. */
static void
reveal_rows (MshedCompareWindow *self)
{
  const MshedDiffItem *item = selected_item (self);

  for (guint k = 0; item != NULL && k < 2; k++)
    {
      MshedCompareSide s = k == 0 ? !self->active : self->active;  /* the active side last */
      guint row = item_row (item, s);

      if (self->grids[s] == NULL || row == G_MAXUINT)
        continue;
      self->syncing = TRUE;  /* each side shows its own row */
      mshed_table_view_reveal (self->grids[s], row,
                               item->kind == MSHED_DIFF_FIELD ? item->field : NULL);
      self->syncing = FALSE;
    }
}

static gboolean
reveal_idle_cb (gpointer data)
{
  MshedCompareWindow *self = data;

  self->reveal_idle = 0;
  reveal_rows (self);
  return G_SOURCE_REMOVE;
}

/* Bytes ---------------------------------------------------------------------------------- */

/* The payload a bytes difference is in on @side: an NRes resource or a UTF file. */
static const guint8 *
item_payload (MshedCompareWindow  *self,
              const MshedDiffItem *item,
              MshedCompareSide     side,
              gsize               *n,
              gint                *res,
              MshedUtfNode       **node)
{
  MshedDocument *doc = self->docs[side];
  MshedModel *model = mshed_document_get_model (doc);

  *res = side == MSHED_COMPARE_LEFT ? item->res_a : item->res_b;
  *node = NULL;
  if (model != NULL && *res >= 0 &&
      (guint) *res < mshed_nres_get_n_entries (mshed_model_get_nres (model)))
    return mshed_nres_entry_get_data (mshed_nres_peek_entry (mshed_model_get_nres (model),
                                                             (guint) *res), n);
  if (model == NULL && item->path != NULL && mshed_document_get_utf (doc) != NULL)
    *node = mshed_utf_lookup (mshed_document_get_utf (doc), item->path);
  if (*node != NULL && !mshed_utf_node_is_directory (*node))
    return mshed_utf_node_peek_data (*node, n);
  *node = NULL;
  return NULL;
}

/* The Bytes page for a difference in bytes no field describes: each side's payload in its
 * hex view at the difference, every byte that differs from the other side's marked. FALSE
 * when one side lacks the payload. */
static gboolean
show_bytes (MshedCompareWindow  *self,
            const MshedDiffItem *item)
{
  const guint8 *data[2];
  gsize n[2] = { 0, 0 };
  gint res[2];
  MshedUtfNode *node[2];

  for (guint s = 0; s < 2; s++)
    {
      data[s] = item_payload (self, item, s, &n[s], &res[s], &node[s]);
      if (data[s] == NULL && n[s] > 0)
        return FALSE;
      if (res[s] < 0 && node[s] == NULL)
        return FALSE;
    }
  for (guint s = 0; s < 2; s++)
    {
      g_autofree guint8 *mask = g_malloc0 (MAX (n[s], 1));
      g_autoptr(GBytes) bytes = NULL;

      for (gsize i = 0; i < n[s]; i++)
        mask[i] = i >= n[!s] || data[s][i] != data[!s][i];
      bytes = g_bytes_new_take (g_steal_pointer (&mask), n[s]);
      if (node[s] != NULL)
        mshed_hex_view_show_utf_node (self->hexes[s], node[s]);
      else
        mshed_hex_view_show_resource (self->hexes[s], res[s]);
      mshed_hex_view_set_marked (self->hexes[s], bytes);
      mshed_hex_view_goto_offset (self->hexes[s], MIN (item->offset, n[s] ? n[s] - 1 : 0));
    }
  gtk_stack_set_visible_child_name (self->view_stack, "bytes");
  return TRUE;
}

static gboolean
hex_sync_cb (gpointer data)
{
  MshedCompareWindow *self = data;
  guint s = self->hex_sync_from;

  self->hex_sync_idle = 0;
  self->syncing = TRUE;
  gtk_adjustment_set_value (mshed_hex_view_get_vadjustment (self->hexes[!s]),
                            gtk_adjustment_get_value (
                              mshed_hex_view_get_vadjustment (self->hexes[s])));
  self->syncing = FALSE;
  return G_SOURCE_REMOVE;
}

/* One hex view scrolled: the other follows, from an idle (a view scrolls while it is being
 * allocated, when the other one may already have its allocation for this frame). */
static void
hex_scroll_cb (GtkAdjustment      *adjustment,
               MshedCompareWindow *self)
{
  if (self->syncing)
    return;
  self->hex_sync_from = adjustment == mshed_hex_view_get_vadjustment (self->hexes[0]) ? 0 : 1;
  if (self->hex_sync_idle == 0)
    self->hex_sync_idle = g_idle_add (hex_sync_cb, self);
}

/* Selects and scrolls both sides to the selected difference. */
static void
jump (MshedCompareWindow *self)
{
  const MshedDiffItem *item = selected_item (self);
  MshedTableId table;

  if (item == NULL || self->block_jump)
    return;
  _mshed_compare_window_trees_follow (self, item);
  if (item->kind == MSHED_DIFF_BYTES && show_bytes (self, item))
    return;
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "bytes") == 0)
    gtk_stack_set_visible_child_name (self->view_stack, "tables");
  table = item_grid_table (self, item);
  if (table == MSHED_TABLE_NONE)
    return;
  if (is_dfm (self) && item_level (item) != self->level &&
      item_level (item) < mshed_level_chooser_get_n_levels (self->level_chooser))
    {
      show_level (self, item_level (item));
      if (self->reveal_idle == 0)
        self->reveal_idle = g_idle_add_full (G_PRIORITY_LOW, reveal_idle_cb, self, NULL);
    }
  if (table != self->table)
    {
      show_table (self, table);
      /* new grids scroll to the field's column once they have their size */
      if (self->reveal_idle == 0)
        self->reveal_idle = g_idle_add_full (G_PRIORITY_LOW, reveal_idle_cb, self, NULL);
    }
  reveal_rows (self);
}

void
_mshed_compare_window_show_rows (MshedCompareWindow *self,
                                 MshedTableId        table,
                                 guint               level,
                                 const guint         rows[2])
{
  if (is_dfm (self) && level < mshed_level_chooser_get_n_levels (self->level_chooser))
    show_level (self, level);
  if (table_position (self, table) == GTK_INVALID_LIST_POSITION)
    return;
  show_table (self, table);
  for (guint s = 0; s < 2; s++)
    if (self->grids[s] != NULL && rows[s] != G_MAXUINT)
      {
        self->syncing = TRUE;  /* each side shows its own row */
        mshed_table_view_reveal (self->grids[s], rows[s], NULL);
        self->syncing = FALSE;
      }
}

static void
selection_changed_cb (MshedCompareWindow *self)
{
  jump (self);
}

static void
update_titles (MshedCompareWindow *self)
{
  GtkLabel *labels[2] = { self->left_title, self->right_title };
  g_autofree char *title = NULL;

  for (guint s = 0; s < 2; s++)
    {
      const char *path = mshed_document_get_path (self->docs[s]);
      const char *entry = mshed_document_get_entry (self->docs[s]);
      g_autofree char *base = path ? g_path_get_basename (path)
                                   : g_strdup (mshed_document_get_title (self->docs[s]));
      g_autofree char *text = g_strdup_printf ("%s%s%s%s",
                                               mshed_document_get_modified (self->docs[s])
                                               ? "• " : "", entry ? entry : base,
                                               entry ? " — " : "", entry ? base : "");

      gtk_label_set_text (labels[s], text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (labels[s]), path);
    }
  /* translators: the compare window's title: the two models */
  title = g_strdup_printf (_("%s ↔ %s"), mshed_document_get_title (self->docs[0]),
                           mshed_document_get_title (self->docs[1]));
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
update_actions (MshedCompareWindow *self)
{
  guint n = self->diff ? mshed_diff_get_n_items (self->diff) : 0;
  gboolean any = selected_item (self) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.next-difference", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.previous-difference", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-to-left", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-to-right", any);
}

static void
refresh (MshedCompareWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint old = mshed_compare_window_get_selected (self);
  guint n;

  g_clear_pointer (&self->diff, mshed_diff_free);
  self->diff = mshed_diff_documents (self->docs[0], self->docs[1], NULL, &error);
  n = self->diff ? mshed_diff_get_n_items (self->diff) : 0;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (lines, mshed_diff_item_format (mshed_diff_get_item (self->diff, i)));
  g_ptr_array_add (lines, NULL);
  self->block_jump++;
  gtk_string_list_splice (self->lines, 0, g_list_model_get_n_items (G_LIST_MODEL (self->lines)),
                          (const char *const *) lines->pdata);
  /* the same place in the list: after a copy across, the next difference */
  gtk_single_selection_set_selected (self->selection, n == 0 || old == G_MAXUINT
                                                      ? GTK_INVALID_LIST_POSITION
                                                      : MIN (old, n - 1));
  self->block_jump--;

  if (self->diff == NULL)
    g_string_append (summary, error->message);
  else if (n == 0)
    g_string_append (summary, _("The two models are equal."));
  else
    {
      g_string_append_printf (summary, ngettext ("%u difference", "%u differences", n), n);
      for (guint i = 0; i < mshed_diff_get_n_counts (self->diff); i++)
        {
          const MshedDiffCount *c = mshed_diff_get_count (self->diff, i);

          g_string_append_printf (summary, i == 0 ? " — %s: %u" : ", %s: %u", c->table_name,
                                  c->count);
        }
    }
  gtk_label_set_text (self->summary_label, summary->str);
  mark_changed (self);
  _mshed_compare_window_update_trees (self);
  if (is_dfm (self))
    fill_levels (self);
  _mshed_compare_window_update_previews (self);
  update_titles (self);
  update_actions (self);
  if (self->jump_pending)
    {
      self->jump_pending = FALSE;
      jump (self);
    }
}

static gboolean
refresh_idle_cb (gpointer data)
{
  MshedCompareWindow *self = data;

  self->refresh_idle = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

static void
document_changed_cb (MshedCompareWindow *self)
{
  if (self->refresh_idle == 0)
    self->refresh_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, refresh_idle_cb, self, NULL);
}

/* Actions -------------------------------------------------------------------------------- */

static void
step_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedCompareWindow *self = MSHED_COMPARE_WINDOW (widget);
  guint n = self->diff ? mshed_diff_get_n_items (self->diff) : 0;
  guint i = mshed_compare_window_get_selected (self);
  gboolean next = strcmp (action, "win.next-difference") == 0;

  if (n == 0)
    return;
  if (i == G_MAXUINT)
    i = next ? 0 : n - 1;
  else
    i = next ? (i + 1) % n : (i + n - 1) % n;
  mshed_compare_window_select (self, i);
}

static void
copy_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedCompareWindow *self = MSHED_COMPARE_WINDOW (widget);
  const MshedDiffItem *item = selected_item (self);
  gboolean to_right = strcmp (action, "win.copy-to-right") == 0;
  g_autoptr(GError) error = NULL;

  if (item == NULL)
    return;
  set_message (self, NULL);
  if (!mshed_copy_difference (self->docs[0], self->docs[1], item, to_right, &error))
    set_message (self, error->message);
  else
    self->jump_pending = TRUE;
  /* Ctrl+Z now undoes the copy */
  self->active = to_right ? MSHED_COMPARE_RIGHT : MSHED_COMPARE_LEFT;
  if (self->grids[self->active] != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->grids[self->active]));
}

/* The side the keyboard focus is in (or was last). */
static MshedCompareSide
active_side (MshedCompareWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  for (guint s = 0; s < 2 && focus != NULL; s++)
    if ((self->grids[s] && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->grids[s]))) ||
        (self->previews[s] && (focus == self->previews[s] ||
                               gtk_widget_is_ancestor (focus, self->previews[s]))))
      self->active = s;
  return self->active;
}

static void
undo_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedCompareWindow *self = MSHED_COMPARE_WINDOW (widget);
  MshedDocument *doc = self->docs[active_side (self)];

  if (strcmp (action, "win.undo") == 0)
    mshed_document_undo (doc);
  else
    mshed_document_redo (doc);
}

static gboolean
save_side (MshedCompareWindow *self,
           MshedCompareSide    side)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  set_message (self, NULL);
  ok = mshed_document_save (self->docs[side], MSHED_SAVE_FLAGS_NONE, &error);
  if (!ok)
    {
      g_autofree char *text = g_strdup_printf (_("Could not save “%s”: %s"),
                                               mshed_document_get_title (self->docs[side]),
                                               error->message);

      set_message (self, text);
    }
  update_titles (self);
  return ok;
}

static void
save_action (GtkWidget  *widget,
             const char *action,
             GVariant   *param)
{
  MshedCompareWindow *self = MSHED_COMPARE_WINDOW (widget);

  if (strcmp (action, "win.save-left") == 0)
    save_side (self, MSHED_COMPARE_LEFT);
  else if (strcmp (action, "win.save-right") == 0)
    save_side (self, MSHED_COMPARE_RIGHT);
  else
    save_side (self, active_side (self));
}

static void
close_action (GtkWidget  *widget,
              const char *action,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

/* Close with unsaved changes: a side that a main window also shows is that window's to ask
 * about. */
static gboolean
needs_asking (MshedCompareWindow *self,
              guint               side)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!mshed_document_get_modified (self->docs[side]))
    return FALSE;
  for (GList *l = app ? gtk_application_get_windows (app) : NULL; l; l = l->next)
    if (MSHED_IS_WINDOW (l->data) && mshed_window_get_document (l->data) == self->docs[side])
      return FALSE;
  return TRUE;
}

static void
on_close_response (GtkDialog          *dialog,
                   int                 response,
                   MshedCompareWindow *self)
{
  gboolean ok = TRUE;

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_CANCEL || response == GTK_RESPONSE_DELETE_EVENT)
    return;
  for (guint s = 0; s < 2 && ok && response == GTK_RESPONSE_ACCEPT; s++)
    if (needs_asking (self, s))
      ok = save_side (self, s);
  if (ok)
    {
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
}

static gboolean
close_request_cb (MshedCompareWindow *self)
{
  GtkWidget *dialog;

  if (self->closing || (!needs_asking (self, 0) && !needs_asking (self, 1)))
    return FALSE;
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL, GTK_MESSAGE_QUESTION,
                                   GTK_BUTTONS_NONE, "%s",
                                   _("Save the changes to the compared models before closing?"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("If you don’t save, your changes will be lost."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Discard"), GTK_RESPONSE_REJECT, _("_Save"), GTK_RESPONSE_ACCEPT,
                          NULL);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog),
                                                                GTK_RESPONSE_REJECT),
                            "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_signal_connect (dialog, "response", G_CALLBACK (on_close_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

static void
ghost_toggled_cb (MshedCompareWindow *self)
{
  if (self->previews[0] != NULL)
    _mshed_compare_window_place_previews (self);
}

/* GObject -------------------------------------------------------------------------------- */

static void
list_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (label, 8);
  gtk_widget_set_margin_end (label, 8);
  gtk_list_item_set_child (item, label);
}

static void
list_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  GtkStringObject *line = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (line));
}

static void
mshed_compare_window_dispose (GObject *object)
{
  MshedCompareWindow *self = MSHED_COMPARE_WINDOW (object);

  g_clear_handle_id (&self->refresh_idle, g_source_remove);
  g_clear_handle_id (&self->reveal_idle, g_source_remove);
  g_clear_handle_id (&self->hex_sync_idle, g_source_remove);
  if (self->scroll_sync_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->scroll_sync_tick);
  self->scroll_sync_tick = 0;
  for (guint s = 0; s < 2; s++)
    {
      if (self->docs[s] != NULL)
        {
          g_clear_signal_handler (&self->changed_ids[s], self->docs[s]);
          g_clear_signal_handler (&self->modified_ids[s], self->docs[s]);
        }
      if (self->grids[s] != NULL)
        unlink_grid (self, s);
      if (self->hexes[s] != NULL)
        g_clear_signal_handler (&self->hex_scroll_ids[s],
                                mshed_hex_view_get_vadjustment (self->hexes[s]));
      self->grids[s] = NULL;
      self->previews[s] = NULL;
      self->hexes[s] = NULL;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_COMPARE_WINDOW);
  for (guint s = 0; s < 2; s++)
    g_clear_object (&self->docs[s]);
  g_clear_pointer (&self->diff, mshed_diff_free);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (mshed_compare_window_parent_class)->dispose (object);
}

static void
mshed_compare_window_class_init (MshedCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_compare_window_dispose;

  g_type_ensure (MSHED_TYPE_LEVEL_CHOOSER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-compare-window.ui");
  gtk_widget_class_set_css_name (widget_class, "comparewindow");
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, table_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, level_chooser);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, trees_box);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, grids_box);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, hex_box);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, preview_box);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, ghost_overlay);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, ghost_check);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, left_title);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, right_title);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, MshedCompareWindow, diff_list);

  gtk_widget_class_install_action (widget_class, "win.next-difference", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "win.previous-difference", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "win.copy-to-left", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "win.copy-to-right", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-left", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-right", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
}

static void
mshed_compare_window_init (MshedCompareWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->table = MSHED_TABLE_NONE;
  self->scroll_from[0] = self->scroll_from[1] = -1;
  g_signal_connect_swapped (self->table_dropdown, "notify::selected",
                            G_CALLBACK (table_selected_cb), self);
  g_signal_connect_swapped (self->level_chooser, "notify::level",
                            G_CALLBACK (level_chosen_cb), self);

  self->lines = gtk_string_list_new (NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->lines));  /* takes lines */
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "selection-changed",
                            G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (factory, "setup", G_CALLBACK (list_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (list_bind_cb), NULL);
  gtk_list_view_set_factory (self->diff_list, factory);
  gtk_list_view_set_model (self->diff_list, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->view_stack, "notify::visible-child",
                            G_CALLBACK (_mshed_compare_window_ensure_previews), self);
  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), NULL);
  g_signal_connect_swapped (self->ghost_check, "toggled", G_CALLBACK (ghost_toggled_cb), self);
}

/* API ------------------------------------------------------------------------------------ */

MshedCompareWindow *
mshed_compare_window_new (MshedApplication *app,
                          MshedDocument    *left,
                          MshedDocument    *right)
{
  MshedCompareWindow *self;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (left), NULL);
  g_return_val_if_fail (MSHED_IS_DOCUMENT (right), NULL);

  self = g_object_new (MSHED_TYPE_COMPARE_WINDOW, "application", app, NULL);
  self->docs[0] = g_object_ref (left);
  self->docs[1] = g_object_ref (right);
  for (guint s = 0; s < 2; s++)
    {
      self->changed_ids[s] = g_signal_connect_swapped (self->docs[s], "changed",
                                                       G_CALLBACK (document_changed_cb), self);
      self->modified_ids[s] = g_signal_connect_swapped (self->docs[s], "notify::modified",
                                                        G_CALLBACK (update_titles), self);
      self->hexes[s] = MSHED_HEX_VIEW (mshed_hex_view_new ());
      gtk_widget_set_hexpand (GTK_WIDGET (self->hexes[s]), TRUE);
      gtk_widget_set_vexpand (GTK_WIDGET (self->hexes[s]), TRUE);
      mshed_hex_view_set_document (self->hexes[s], self->docs[s]);
      gtk_box_append (self->hex_box, GTK_WIDGET (self->hexes[s]));
      self->hex_scroll_ids[s] = g_signal_connect (
        mshed_hex_view_get_vadjustment (self->hexes[s]), "value-changed",
        G_CALLBACK (hex_scroll_cb), self);
    }
  {
    g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);

    for (guint i = 0; table_at (self, i) != MSHED_TABLE_NONE; i++)
      gtk_string_list_append (titles, is_dfm (self)
                              ? _(mshed_dfm_schema_get_table (mshed_compare_dfm_tables[i])->title)
                              : _(mshed_schema_get_table (table_at (self, i))->title));
    self->block_jump++;
    gtk_drop_down_set_model (self->table_dropdown, G_LIST_MODEL (titles));
    self->block_jump--;
  }
  _mshed_compare_window_build_trees (self);
  if (mshed_document_get_model (left) != NULL && mshed_document_get_model (right) != NULL)
    show_table (self, MSHED_TABLE_NODES);
  else if (is_dfm (self))  /* deformable models: the grids of the level chosen */
    {
      fill_levels (self);
      show_table (self, (MshedTableId) mshed_compare_dfm_tables[0]);
    }
  else  /* other UTF files: no grids or preview for them, the list and copy across */
    {
      GtkWidget *note = gtk_label_new (_("Freelancer UTF files are compared in the list below "
                                         "(copy across works on them); the window has no grids "
                                         "or preview for them yet."));

      gtk_label_set_wrap (GTK_LABEL (note), TRUE);
      gtk_widget_add_css_class (note, "dim-label");
      gtk_widget_set_hexpand (note, TRUE);
      gtk_box_append (self->grids_box, note);
      gtk_widget_set_visible (GTK_WIDGET (self->table_dropdown), FALSE);
      gtk_widget_set_visible (self->view_switcher, FALSE);
      gtk_paned_set_position (GTK_PANED (gtk_window_get_child (GTK_WINDOW (self))), 80);
    }
  refresh (self);
  jump (self);
  return self;
}

/* FILE or ARCHIVE:ENTRY, strictly, else tolerantly (the merge window opens its inputs so). */
MshedDocument *
_mshed_open_input (const char  *spec,
                   GError     **error)
{
  g_autoptr(GError) local = NULL;
  MshedDocument *doc = mshed_document_open (spec, MSHED_MODE_STRICT, &local);

  if (doc == NULL && g_error_matches (local, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID))
    {
      g_clear_error (&local);
      doc = mshed_document_open (spec, MSHED_MODE_TOLERANT, &local);
    }
  if (doc == NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  return doc;
}

MshedCompareWindow *
mshed_compare_window_open (MshedApplication  *app,
                           const char        *left,
                           const char        *right,
                           GError           **error)
{
  g_autoptr(MshedDocument) a = _mshed_open_input (left, error);
  g_autoptr(MshedDocument) b = a ? _mshed_open_input (right, error) : NULL;

  if (b == NULL)
    return NULL;
  if (mshed_document_get_container (a) != mshed_document_get_container (b))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("%s and %s are not the same kind of file: a Parkan model can only be "
                     "compared with a Parkan model, a UTF file with a UTF file"), left, right);
      return NULL;
    }
  return mshed_compare_window_new (app, a, b);
}

MshedDocument *
mshed_compare_window_get_document (MshedCompareWindow *self,
                                   MshedCompareSide    side)
{
  g_return_val_if_fail (MSHED_IS_COMPARE_WINDOW (self), NULL);

  return self->docs[side != MSHED_COMPARE_LEFT];
}

MshedTableView *
mshed_compare_window_get_grid (MshedCompareWindow *self,
                               MshedCompareSide    side)
{
  g_return_val_if_fail (MSHED_IS_COMPARE_WINDOW (self), NULL);

  return self->grids[side != MSHED_COMPARE_LEFT];
}

MshedHexView *
mshed_compare_window_get_hex_view (MshedCompareWindow *self,
                                   MshedCompareSide    side)
{
  g_return_val_if_fail (MSHED_IS_COMPARE_WINDOW (self), NULL);

  return self->hexes[side != MSHED_COMPARE_LEFT];
}

GtkWidget *
mshed_compare_window_get_tree (MshedCompareWindow *self,
                               MshedCompareSide    side)
{
  g_return_val_if_fail (MSHED_IS_COMPARE_WINDOW (self), NULL);

  return self->trees[side != MSHED_COMPARE_LEFT];
}

guint
mshed_compare_window_get_level (MshedCompareWindow *self)
{
  g_return_val_if_fail (MSHED_IS_COMPARE_WINDOW (self), 0);

  return self->level;
}

const MshedDiff *
mshed_compare_window_get_diff (MshedCompareWindow *self)
{
  g_return_val_if_fail (MSHED_IS_COMPARE_WINDOW (self), NULL);

  return self->diff;
}

guint
mshed_compare_window_get_selected (MshedCompareWindow *self)
{
  guint i;

  g_return_val_if_fail (MSHED_IS_COMPARE_WINDOW (self), G_MAXUINT);

  i = gtk_single_selection_get_selected (self->selection);
  return self->diff != NULL && i < mshed_diff_get_n_items (self->diff) ? i : G_MAXUINT;
}

void
mshed_compare_window_select (MshedCompareWindow *self,
                             guint               index)
{
  g_return_if_fail (MSHED_IS_COMPARE_WINDOW (self));

  if (self->diff == NULL || index >= mshed_diff_get_n_items (self->diff))
    return;
  if (gtk_single_selection_get_selected (self->selection) == index)
    jump (self);
  else
    gtk_single_selection_set_selected (self->selection, index);
  update_actions (self);
  /* keep the list's row in view */
  gtk_widget_activate_action (GTK_WIDGET (self->diff_list), "list.scroll-to-item", "u", index);
}
