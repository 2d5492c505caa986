/* mshed-window-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window with a UTF document (a Freelancer .dfm, or any UTF file, docs/utf.md): the UTF
 * tree takes the node tree's place, the selected file's bytes show in the hex view with the
 * data inspector, and a problem leads to its node. The Parkan grids, the preview and the
 * Unknown Fields table are hidden while such a document is shown.
 */
#define G_LOG_DOMAIN "mshed-window"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-table-view-private.h"
#include "mshed-window-private.h"

/* side notebook pages that show Parkan models only: the preview and Unknown Fields */
#define SIDE_PAGE_PREVIEW 0
#define SIDE_PAGE_HEX     1
#define SIDE_PAGE_UNKNOWN 2
#define SIDE_PAGE_VALUE   3  /* the typed leaf editor, UTF documents only */

gboolean
_mshed_window_is_utf (MshedWindow *self)
{
  return self->document != NULL &&
         mshed_document_get_container (self->document) == MSHED_CONTAINER_UTF;
}

/* DFM grids --------------------------------------------------------------------------------- */

static const struct {
  MshedDfmTable table;
  const char   *label;   /* NULL: the schema's title */
} dfm_grids[MSHED_WINDOW_N_DFM_GRIDS] = {
  { MSHED_DFM_TABLE_POINTS, NULL },
  { MSHED_DFM_TABLE_POINT_INDICES, N_("Elements") },
  { MSHED_DFM_TABLE_UV0, NULL },
  { MSHED_DFM_TABLE_BONE_ID_CHAIN, N_("Skin weights") },
  { MSHED_DFM_TABLE_TRISTRIP, NULL },
  { MSHED_DFM_TABLE_FRACTIONS, NULL },
  { MSHED_DFM_TABLE_BONE_TO_ROOT, N_("Bones") },
  { MSHED_DFM_TABLE_CONS_FIX, NULL },
  { MSHED_DFM_TABLE_CONS_REV, NULL },
  { MSHED_DFM_TABLE_CONS_PRIS, NULL },
  { MSHED_DFM_TABLE_CONS_CYL, NULL },
  { MSHED_DFM_TABLE_CONS_SPHERE, NULL },
  { MSHED_DFM_TABLE_CONS_LOOSE, NULL },
  { MSHED_DFM_TABLE_EDGE_INDICES, NULL },
  { MSHED_DFM_TABLE_UV_BONE_ID, N_("UV bone") },
  { MSHED_DFM_TABLE_UV_VERTEX_ID, NULL },
  { MSHED_DFM_TABLE_PART_INDEX, N_("Parts") },
  { MSHED_DFM_TABLE_HP_POSITION, N_("Hardpoints") },
  /* its tab goes before the strip's (init_dfm_grids) */
  { MSHED_DFM_TABLE_TRIANGLES, NULL },
};

/* The grid showing @table (itself, or beside the points, elements, influences or bones). */
static gint
dfm_grid_for (MshedTableId table)
{
  static const struct { MshedDfmTable linked, main; } beside[] = {
    { MSHED_DFM_TABLE_VERTEX_NORMALS, MSHED_DFM_TABLE_POINTS },
    { MSHED_DFM_TABLE_POINT_BONE_FIRST, MSHED_DFM_TABLE_POINTS },
    { MSHED_DFM_TABLE_POINT_BONE_COUNT, MSHED_DFM_TABLE_POINTS },
    { MSHED_DFM_TABLE_UV0_INDICES, MSHED_DFM_TABLE_POINT_INDICES },
    { MSHED_DFM_TABLE_UV1_INDICES, MSHED_DFM_TABLE_POINT_INDICES },
    { MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, MSHED_DFM_TABLE_BONE_ID_CHAIN },
    { MSHED_DFM_TABLE_LOD_BITS, MSHED_DFM_TABLE_BONE_TO_ROOT },
    { MSHED_DFM_TABLE_EDGE_ANGLES, MSHED_DFM_TABLE_EDGE_INDICES },
    { MSHED_DFM_TABLE_UV_VERTEX_COUNT, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_UV_PLANE_DISTANCE, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_BONE_X_TO_U_SCALE, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_BONE_Y_TO_V_SCALE, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_MIN_DU, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_MAX_DU, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_MIN_DV, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_MAX_DV, MSHED_DFM_TABLE_UV_BONE_ID },
    { MSHED_DFM_TABLE_UV_DEFAULT_LIST, MSHED_DFM_TABLE_UV_VERTEX_ID },
    { MSHED_DFM_TABLE_OBJECT_NAME, MSHED_DFM_TABLE_PART_INDEX },
    { MSHED_DFM_TABLE_FILE_NAME, MSHED_DFM_TABLE_PART_INDEX },
    { MSHED_DFM_TABLE_HP_ORIENTATION, MSHED_DFM_TABLE_HP_POSITION },
    { MSHED_DFM_TABLE_HP_AXIS, MSHED_DFM_TABLE_HP_POSITION },
    { MSHED_DFM_TABLE_HP_MIN, MSHED_DFM_TABLE_HP_POSITION },
    { MSHED_DFM_TABLE_HP_MAX, MSHED_DFM_TABLE_HP_POSITION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (beside); i++)
    if (table == MSHED_DFM_TABLE_ID (beside[i].linked))
      table = MSHED_DFM_TABLE_ID (beside[i].main);
  for (guint i = 0; i < MSHED_WINDOW_N_DFM_GRIDS; i++)
    if (table == MSHED_DFM_TABLE_ID (dfm_grids[i].table))
      return (gint) i;
  return -1;
}

static gboolean
select_dfm_grid (MshedWindow  *self,
                 MshedTableId  table)
{
  gint i = dfm_grid_for (table);

  if (i < 0 || !gtk_widget_get_visible (GTK_WIDGET (self->dfm_grids[i])))
    return FALSE;
  gtk_notebook_set_current_page (self->grid_notebook,
                                 gtk_notebook_page_num (self->grid_notebook,
                                                        GTK_WIDGET (self->dfm_grids[i])));
  return TRUE;
}

/* A record's file: selected in the tree, its bytes (@field's, when given) in the hex view. */
void
_mshed_window_utf_show_record (MshedWindow    *self,
                               MshedTableView *grid,
                               guint           row,
                               const char     *field)
{
  MshedTableModel *model = _mshed_table_view_get_model (grid);
  const MshedDfmTableInfo *info;
  gint column = field ? mshed_table_model_find_column (model, field) : 0;
  const MshedTableColumn *c = mshed_table_model_get_column (model, (guint) MAX (column, 0));
  guint record = 0;
  MshedUtfNode *node = mshed_table_model_get_dfm_node (model, row, (guint) MAX (column, 0),
                                                       &record);
  gsize start;

  if (node == NULL || c == NULL)
    return;
  info = mshed_dfm_schema_get_table ((MshedDfmTable) c->table);
  self->in_selection = TRUE;
  mshed_utf_tree_select_node (self->utf_tree, node);
  self->in_selection = FALSE;
  mshed_hex_view_show_utf_node (self->hex_view, node);
  if (info == NULL || info->stride == 0)
    return;
  /* a triangle: the strip entries that draw it (docs/dfm.md §5.1) */
  if (info->id == MSHED_DFM_TABLE_TRIANGLES)
    {
      gsize end;

      if (mshed_table_model_get_triangle_bytes (model, row, field != NULL && c->field != NULL
                                                              ? (gint) c->field->offset / 2
                                                              : -1, &start, &end))
        mshed_hex_view_select_range (self->hex_view, start, end);
      return;
    }
  start = (gsize) record * info->stride;
  if (field != NULL && c->field != NULL)
    mshed_hex_view_select_range (self->hex_view, start + c->field->offset,
                                 start + c->field->offset + mshed_field_type_size (c->field->type));
  else
    mshed_hex_view_select_range (self->hex_view, start, start + info->stride);
}

static void
on_dfm_row_selected (MshedWindow    *self,
                     guint           row,
                     MshedTableView *grid)
{
  if (!_mshed_window_is_utf (self) || self->in_selection)
    return;
  _mshed_window_utf_show_record (self, grid, row, NULL);
  _mshed_window_pose_show_row (self, grid, row);
}

static void
on_dfm_show_in_hex (MshedWindow    *self,
                    gint            table,
                    guint           row,
                    const char     *field,
                    MshedTableView *grid)
{
  g_object_set (self, "show-side-panel", TRUE, NULL);
  gtk_notebook_set_current_page (self->side_notebook, SIDE_PAGE_HEX);
  _mshed_window_utf_show_record (self, grid, row, field);
}

static void
on_dfm_follow_reference (MshedWindow    *self,
                         gint            table,
                         guint           row,
                         MshedTableView *grid)
{
  gint i = dfm_grid_for ((MshedTableId) table);

  if (i >= 0 && select_dfm_grid (self, (MshedTableId) table))
    mshed_table_view_reveal (self->dfm_grids[i], row, NULL);
}

static guint
selected_or_first (GtkDropDown *dropdown)
{
  guint i = gtk_drop_down_get_selected (dropdown);

  return i == GTK_INVALID_LIST_POSITION ? 0 : i;
}

/* The level and group grids follow the two choosers; a grid whose file the new address lacks
 * hides its tab. */
static void
on_group_changed (MshedWindow *self)
{
  guint level = selected_or_first (self->level_dropdown);
  guint group = selected_or_first (self->dfm_group_dropdown);
  MshedDocument *document = self->document;

  if (document == NULL || mshed_document_get_dfm (document) == NULL)
    return;
  for (guint i = 0; i < MSHED_WINDOW_N_DFM_GRIDS; i++)
    {
      MshedDfmScope scope = mshed_dfm_schema_get_table (dfm_grids[i].table)->scope;
      MshedTableModel *model = _mshed_table_view_get_model (self->dfm_grids[i]);

      if (scope != MSHED_DFM_SCOPE_GEOMETRY && scope != MSHED_DFM_SCOPE_GROUP)
        continue;
      mshed_table_view_set_dfm_scope (self->dfm_grids[i], level,
                                      scope == MSHED_DFM_SCOPE_GROUP ? group : 0);
      gtk_widget_set_visible (GTK_WIDGET (self->dfm_grids[i]),
                              g_list_model_get_n_items (G_LIST_MODEL (model)) > 0);
    }
}

/* The groups of the chosen level, "Group<n> (material)". */
static void
on_level_changed (MshedWindow *self)
{
  MshedDfm *dfm = self->document ? mshed_document_get_dfm (self->document) : NULL;
  guint level = selected_or_first (self->level_dropdown);
  g_autoptr(GtkStringList) groups = gtk_string_list_new (NULL);
  MshedDfmLevel info;

  if (dfm != NULL && mshed_dfm_get_level (dfm, level, &info))
    for (guint g = 0; g < info.n_groups; g++)
      {
        MshedDfmGroup group;
        g_autofree char *name = NULL;

        if (mshed_dfm_get_group (dfm, level, g, &group) && group.material_name != NULL)
          name = g_strdup_printf ("Group%u (%s)", g, group.material_name);
        else
          name = g_strdup_printf ("Group%u", g);
        gtk_string_list_append (groups, name);
      }
  g_signal_handlers_block_by_func (self->dfm_group_dropdown, on_group_changed, self);
  gtk_drop_down_set_model (self->dfm_group_dropdown, G_LIST_MODEL (groups));
  gtk_drop_down_set_selected (self->dfm_group_dropdown, 0);
  g_signal_handlers_unblock_by_func (self->dfm_group_dropdown, on_group_changed, self);
  on_group_changed (self);
}

/* The DFM grids for @document (NULL: hidden), each tab shown when its file exists. */
static void
set_dfm_document (MshedWindow   *self,
                  MshedDocument *document)
{
  MshedDfm *dfm = document ? mshed_document_get_dfm (document) : NULL;
  g_autoptr(GtkStringList) levels = gtk_string_list_new (NULL);

  for (guint i = 0; dfm != NULL && i < mshed_dfm_get_n_levels (dfm); i++)
    {
      g_autofree char *name = g_strdup_printf ("Mesh%u", i);

      gtk_string_list_append (levels, name);
    }
  g_signal_handlers_block_by_func (self->level_dropdown, on_level_changed, self);
  gtk_drop_down_set_model (self->level_dropdown, G_LIST_MODEL (levels));
  gtk_drop_down_set_selected (self->level_dropdown, 0);
  g_signal_handlers_unblock_by_func (self->level_dropdown, on_level_changed, self);
  gtk_widget_set_visible (GTK_WIDGET (self->level_dropdown), dfm != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->dfm_group_dropdown), dfm != NULL);
  for (guint i = 0; i < MSHED_WINDOW_N_DFM_GRIDS; i++)
    {
      MshedTableView *grid = self->dfm_grids[i];
      MshedTableModel *model = _mshed_table_view_get_model (grid);

      mshed_table_view_set_dfm_scope (grid, 0, 0);
      mshed_table_view_set_document (grid, dfm ? document : NULL);
      gtk_widget_set_visible (GTK_WIDGET (grid),
                              dfm != NULL && g_list_model_get_n_items (G_LIST_MODEL (model)) > 0);
    }
  if (dfm != NULL)
    on_level_changed (self);
  if (dfm != NULL)
    gtk_notebook_set_current_page (self->grid_notebook,
                                   gtk_notebook_page_num (self->grid_notebook,
                                                          GTK_WIDGET (self->dfm_grids[0])));
}

static void
init_dfm_grids (MshedWindow *self)
{
  GtkWidget *choosers;

  self->level_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->level_dropdown),
                               _("Level of detail the mesh grids show"));
  gtk_widget_set_visible (GTK_WIDGET (self->level_dropdown), FALSE);
  self->dfm_group_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->dfm_group_dropdown),
                               _("Face group the group grids show (triangle strip, edges)"));
  gtk_widget_set_visible (GTK_WIDGET (self->dfm_group_dropdown), FALSE);
  choosers = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_valign (choosers, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (choosers), GTK_WIDGET (self->level_dropdown));
  gtk_box_append (GTK_BOX (choosers), GTK_WIDGET (self->dfm_group_dropdown));
  gtk_notebook_set_action_widget (self->grid_notebook, choosers, GTK_PACK_END);
  g_signal_connect_object (self->level_dropdown, "notify::selected",
                           G_CALLBACK (on_level_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->dfm_group_dropdown, "notify::selected",
                           G_CALLBACK (on_group_changed), self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < MSHED_WINDOW_N_DFM_GRIDS; i++)
    {
      const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (dfm_grids[i].table);
      GtkWidget *grid = mshed_table_view_new_dfm (dfm_grids[i].table, 0, 0);
      GtkWidget *label = gtk_label_new (dfm_grids[i].label ? _(dfm_grids[i].label)
                                                           : _(info->title));

      self->dfm_grids[i] = MSHED_TABLE_VIEW (grid);
      gtk_widget_set_visible (grid, FALSE);
      g_signal_connect_object (grid, "row-selected", G_CALLBACK (on_dfm_row_selected), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (grid, "follow-reference", G_CALLBACK (on_dfm_follow_reference),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (grid, "show-in-hex", G_CALLBACK (on_dfm_show_in_hex), self,
                               G_CONNECT_SWAPPED);
      gtk_notebook_append_page (self->grid_notebook, grid, label);
    }
  /* the triangles a group draws, then the strip entries they come from */
  gtk_notebook_reorder_child (self->grid_notebook,
                              GTK_WIDGET (self->dfm_grids[dfm_grid_for (
                                MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES))]),
                              gtk_notebook_page_num (self->grid_notebook, GTK_WIDGET (
                                self->dfm_grids[dfm_grid_for (
                                  MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRISTRIP))])));
}

/* The tree --------------------------------------------------------------------------------- */

static void
on_utf_node_selected (MshedWindow  *self,
                      MshedUtfNode *node,
                      MshedUtfTree *tree)
{
  if (!_mshed_window_is_utf (self) || self->in_selection)
    return;
  /* the grid of a typed file */
  if (node != NULL && mshed_document_get_dfm (self->document) != NULL)
    select_dfm_grid (self, MSHED_DFM_TABLE_ID (mshed_dfm_schema_table_for_node (node)));
  mshed_utf_leaf_editor_set_node (self->leaf_editor, self->document, node);
  /* a file's payload, or the whole file for a directory */
  mshed_hex_view_show_utf_node (self->hex_view,
                                node != NULL && !mshed_utf_node_is_directory (node) ? node
                                                                                   : NULL);
}

static void
set_page_visible (GtkNotebook *notebook,
                  int          page,
                  gboolean     visible)
{
  GtkWidget *child = gtk_notebook_get_nth_page (notebook, page);

  if (child != NULL)
    gtk_widget_set_visible (child, visible);
}

void
_mshed_window_utf_set_document (MshedWindow   *self,
                                MshedDocument *document)
{
  gboolean utf = document != NULL &&
                 mshed_document_get_container (document) == MSHED_CONTAINER_UTF;
  MshedDocument *msh = utf ? NULL : document;

  gtk_widget_set_visible (GTK_WIDGET (self->node_tree), !utf);
  gtk_widget_set_visible (GTK_WIDGET (self->utf_tree), utf);
  mshed_node_tree_set_document (self->node_tree, msh);
  mshed_utf_tree_set_document (self->utf_tree, utf ? document : NULL);
  for (guint i = 0; i < MSHED_WINDOW_N_GRIDS; i++)
    {
      mshed_table_view_set_document (self->grids[i], msh);
      gtk_widget_set_visible (GTK_WIDGET (self->grids[i]), !utf);
    }
  mshed_unknown_table_set_document (self->unknown_table, msh);
  mshed_dfm_unknown_list_set_document (self->dfm_unknown, utf ? document : NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->unknown_table), !utf);
  gtk_widget_set_visible (GTK_WIDGET (self->dfm_unknown), utf);
  /* Export CSV exports the MSH table */
  gtk_widget_set_visible (gtk_widget_get_first_child (gtk_widget_get_parent (
                                                        GTK_WIDGET (self->dfm_unknown))), !utf);
  mshed_model_view_set_document (self->model_view, msh);
  set_page_visible (self->side_notebook, SIDE_PAGE_UNKNOWN,
                    !utf || mshed_document_get_dfm (document) != NULL);
  set_page_visible (self->side_notebook, SIDE_PAGE_VALUE, utf);
  mshed_utf_leaf_editor_set_node (self->leaf_editor, utf ? document : NULL, NULL);
  set_dfm_document (self, utf ? document : NULL);
  _mshed_window_pose_set_document (self, utf ? document : NULL);
  set_page_visible (self->side_notebook, SIDE_PAGE_PREVIEW,
                    !utf || _mshed_window_pose_has_dfm (self));
  if (utf && _mshed_window_pose_has_dfm (self))
    gtk_notebook_set_current_page (self->side_notebook, SIDE_PAGE_PREVIEW);
  else if (utf)
    gtk_notebook_set_current_page (self->side_notebook, SIDE_PAGE_HEX);
  else if (document != NULL && gtk_notebook_get_current_page (self->grid_notebook) >= 0 &&
           !gtk_widget_get_visible (gtk_notebook_get_nth_page (self->grid_notebook,
                                                               gtk_notebook_get_current_page (
                                                                 self->grid_notebook))))
    gtk_notebook_set_current_page (self->grid_notebook, 0);
}

/* The level and group choosers at the address of @node, a file of @table of a level or a
 * face group; nothing for other files. */
static void
show_scope_of (MshedWindow        *self,
               const MshedUtfNode *node,
               MshedDfmTable       table)
{
  MshedDfm *dfm = mshed_document_get_dfm (self->document);
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);
  MshedDfmLevel level;

  if (dfm == NULL || info == NULL ||
      (info->scope != MSHED_DFM_SCOPE_GEOMETRY && info->scope != MSHED_DFM_SCOPE_GROUP))
    return;
  for (guint l = 0; mshed_dfm_get_level (dfm, l, &level); l++)
    for (guint g = 0; g < (info->scope == MSHED_DFM_SCOPE_GROUP ? level.n_groups : 1); g++)
      if (mshed_dfm_find_node (dfm, table, l, g) == node)
        {
          if (gtk_drop_down_get_selected (self->level_dropdown) != l)
            gtk_drop_down_set_selected (self->level_dropdown, l);
          if (gtk_drop_down_get_selected (self->dfm_group_dropdown) != g)
            gtk_drop_down_set_selected (self->dfm_group_dropdown, g);
          return;
        }
}

/* A problem with a strip (list) entry: the Triangles row of the first triangle drawn with it,
 * at the entry's corner. FALSE when no triangle uses the entry. */
static gboolean
show_triangle_problem (MshedWindow           *self,
                       const MshedDiagnostic *diag)
{
  gint i = dfm_grid_for (MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES));
  MshedTableView *grid = self->dfm_grids[i];
  guint rows[3], corners[3];
  char field[3] = { 'i', '0', 0 };

  if (mshed_table_model_diagnostic_triangles (_mshed_table_view_get_model (grid), diag, rows,
                                              corners) == 0 ||
      !select_dfm_grid (self, MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES)))
    return FALSE;
  field[1] = (char) ('0' + corners[0]);
  mshed_table_view_reveal (grid, rows[0], field);
  return TRUE;
}

gboolean
_mshed_window_utf_show_diagnostic (MshedWindow           *self,
                                   const MshedDiagnostic *diag)
{
  MshedUtfNode *node;

  if (!_mshed_window_is_utf (self) || diag->path == NULL)
    return FALSE;
  node = mshed_utf_lookup (mshed_document_get_utf (self->document), diag->path);
  if (node == NULL)
    return FALSE;
  mshed_utf_tree_select_node (self->utf_tree, node);
  on_utf_node_selected (self, node, self->utf_tree);
  gtk_notebook_set_current_page (self->side_notebook, SIDE_PAGE_HEX);
  if (diag->record >= 0)
    {
      /* the grids at the problem's level and group, its triangle's row for a strip entry */
      show_scope_of (self, node, (MshedDfmTable) diag->table);
      if (!show_triangle_problem (self, diag) && select_dfm_grid (self, diag->table))
        mshed_table_view_reveal (self->dfm_grids[dfm_grid_for (diag->table)],
                                 (guint) diag->record, diag->field);
    }
  mshed_hex_view_goto_file_offset (self->hex_view, diag->offset);
  return TRUE;
}

/* A field of unknown meaning (the Unknown Fields panel of a DFM): its file selected in the
 * tree, its bytes in the hex view with the field overlay. */
static void
on_dfm_unknown_activated (MshedWindow         *self,
                          MshedUtfNode        *node,
                          guint                offset,
                          guint                size,
                          MshedDfmUnknownList *list)
{
  self->in_selection = TRUE;
  mshed_utf_tree_select_node (self->utf_tree, node);
  self->in_selection = FALSE;
  mshed_hex_view_show_utf_node (self->hex_view, node);
  gtk_notebook_set_current_page (self->side_notebook, SIDE_PAGE_HEX);
  mshed_hex_view_select_range (self->hex_view, offset, (gsize) offset + size);
}

void
_mshed_window_utf_init (MshedWindow *self)
{
  GtkWidget *unknown_box = gtk_widget_get_parent (GTK_WIDGET (self->unknown_table));

  /* beside the MSH table of the same panel; one of them shows */
  self->dfm_unknown = MSHED_DFM_UNKNOWN_LIST (mshed_dfm_unknown_list_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->dfm_unknown), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->dfm_unknown), FALSE);
  gtk_box_append (GTK_BOX (unknown_box), GTK_WIDGET (self->dfm_unknown));
  g_signal_connect_object (self->dfm_unknown, "field-activated",
                           G_CALLBACK (on_dfm_unknown_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->utf_tree, "node-selected", G_CALLBACK (on_utf_node_selected),
                           self, G_CONNECT_SWAPPED);
  init_dfm_grids (self);
  self->leaf_editor = MSHED_UTF_LEAF_EDITOR (mshed_utf_leaf_editor_new ());
  gtk_notebook_append_page (self->side_notebook, GTK_WIDGET (self->leaf_editor),
                            gtk_label_new (_("Value")));
  set_page_visible (self->side_notebook, SIDE_PAGE_VALUE, FALSE);
  _mshed_window_pose_init (self);
}
