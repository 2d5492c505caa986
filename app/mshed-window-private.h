/* mshed-window-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "mshed-archive.h"
#include "mshed-data-inspector.h"
#include "mshed-deps-view.h"
#include "mshed-diagnostics-view.h"
#include "mshed-hex-view.h"
#include "mshed-model-view.h"
#include "mshed-node-tree.h"
#include "mshed-source.h"
#include "mshed-table-view.h"
#include "mshed-dfm-unknown-list.h"
#include "mshed-unknown-table.h"
#include "mshed-utf-leaf-editor.h"
#include "mshed-utf-tree.h"
#include "mshed-window.h"

G_BEGIN_DECLS

typedef struct _MshedWindowPane MshedWindowPane;

/* The grids shown as notebook pages, in this order. */
#define MSHED_WINDOW_N_GRIDS 14
/* The DFM grids (mshed-window-utf.c), shown instead for a deformable model. */
#define MSHED_WINDOW_N_DFM_GRIDS 19

struct _MshedWindow {
  GtkApplicationWindow parent_instance;

  MshedDocument       *document;
  GSignalGroup        *document_signals;
  GBindingGroup       *document_bindings;
  MshedSource         *archive;          /* a bare archive whose entries are listed */
  MshedArchive        *archive_edit;     /* the same archive, held for editing its entries */
  char                *archive_path;
  gboolean             tolerant_notice;  /* the document was opened in tolerant mode */
  gboolean             closing;          /* close confirmed: do not ask again */
  gboolean             in_selection;     /* guard against selection feedback loops */
  gboolean             settings_bound;   /* size and panels follow GSettings */

  /* template children */
  GtkLabel            *title_label;
  GtkLabel            *subtitle_label;
  GtkWidget           *tree_button;
  GtkWidget           *open_button;
  GtkMenuButton       *recent_button;
  GtkWidget           *save_button;
  GtkWidget           *side_button;
  GtkWidget           *menu_button;
  GtkWidget           *undo_button;
  GtkWidget           *redo_button;
  GtkWidget           *archive_button;
  GtkStack            *main_stack;
  GtkLabel            *empty_message;
  GtkColumnView       *archive_view;
  GtkLabel            *archive_title;
  GtkPaned            *sidebar_paned;
  GtkPaned            *bottom_paned;
  GtkPaned            *content_paned;
  GtkPaned            *hex_paned;
  GtkNotebook         *grid_notebook;
  GtkNotebook         *side_notebook;
  GtkNotebook         *bottom_notebook;
  GtkRevealer         *notice_revealer;
  GtkLabel            *notice_label;
  GtkWidget           *tree_box;
  MshedNodeTree       *node_tree;
  MshedUtfTree        *utf_tree;
  MshedUtfLeafEditor  *leaf_editor;
  MshedDiagnosticsView *diagnostics_view;
  MshedDepsView       *deps_view;
  MshedHexView        *hex_view;
  MshedDataInspector  *data_inspector;
  MshedUnknownTable   *unknown_table;
  MshedDfmUnknownList *dfm_unknown;      /* the Unknown Fields panel of a DFM */
  MshedModelView      *model_view;
  GtkWidget           *pose_panel;       /* the DFM Pose panel under the preview */
  GtkWidget           *pose_list;        /* joint titles and their sliders */
  GtkDropDown         *preview_level;    /* the level the preview draws: by distance or one */
  GtkLabel            *pick_label;       /* what the last click in the preview picked */
  GtkDropDown         *lod_dropdown;
  GtkDropDown         *group_dropdown;
  GtkToggleButton     *play_button;
  GtkAdjustment       *frame_adjustment;
  GtkMenuButton       *overlays_button;

  MshedTableView      *grids[MSHED_WINDOW_N_GRIDS];
  MshedTableView      *dfm_grids[MSHED_WINDOW_N_DFM_GRIDS];
  GtkDropDown         *level_dropdown;   /* the DFM level the level grids show */
  GtkDropDown         *dfm_group_dropdown; /* the face group the group grids show */
  GPtrArray           *panes;            /* MshedWindowPane: the side panels' sizes */
};

extern const MshedTableId mshed_window_grid_tables[MSHED_WINDOW_N_GRIDS];

void     _mshed_window_class_actions_init (GtkWidgetClass *widget_class);
void     _mshed_window_actions_init       (MshedWindow    *self);
void     _mshed_window_actions_update     (MshedWindow    *self);
void     _mshed_window_show_error         (MshedWindow    *self,
                                           const char     *primary,
                                           const char     *secondary);
void     _mshed_window_set_document       (MshedWindow    *self,
                                           MshedDocument  *document,
                                           gboolean        tolerant);
gboolean _mshed_window_select_grid        (MshedWindow    *self,
                                           MshedTableId    table);
void     _mshed_window_update_title       (MshedWindow    *self);

/* mshed-window-layout.c: which panels are shown (properties show-tree, show-side-panel,
 * show-bottom-panel and their toggle actions) and how big they are */
void     _mshed_window_layout_class_init  (GtkWidgetClass *widget_class);
void     _mshed_window_layout_init        (MshedWindow    *self);
void     _mshed_window_layout_dispose     (MshedWindow    *self);
void     _mshed_window_layout_load        (MshedWindow    *self,
                                           GSettings      *settings);
void     _mshed_window_layout_save        (MshedWindow    *self,
                                           GSettings      *settings);
void     _mshed_window_layout_get_property (GObject       *object,
                                           guint           prop_id,
                                           GValue         *value,
                                           GParamSpec     *pspec);
void     _mshed_window_layout_set_property (GObject       *object,
                                           guint           prop_id,
                                           const GValue   *value,
                                           GParamSpec     *pspec);

/* mshed-window-utf.c: a UTF document (a Freelancer .dfm or any UTF file): its tree instead
 * of the node tree, the hex view on the selected file, problems that lead to their node */
void     _mshed_window_utf_init           (MshedWindow    *self);
gboolean _mshed_window_is_utf             (MshedWindow    *self);
/* Shows the views for @document's container (NULL: none) and hands them the document. */
void     _mshed_window_utf_set_document   (MshedWindow    *self,
                                           MshedDocument  *document);
/* Row @row of a DFM grid: its file selected in the tree, its bytes (@field's) in the hex view
 * (a Triangles row: its strip entries). */
void     _mshed_window_utf_show_record    (MshedWindow    *self,
                                           MshedTableView *grid,
                                           guint           row,
                                           const char     *field);
/* A problem with a node path: selects that node and the problem's bytes. FALSE otherwise. */
gboolean _mshed_window_utf_show_diagnostic (MshedWindow   *self,
                                           const MshedDiagnostic *diag);

/* mshed-window-gltf.c: Export… (glTF, OBJ) and Import glTF…, in a thread with a progress window */
void     _mshed_window_gltf_class_init    (GtkWidgetClass *widget_class);
void     _mshed_window_gltf_update        (MshedWindow    *self);
gboolean _mshed_window_export_model       (MshedWindow    *self,
                                           const char     *path,
                                           guint           lod,
                                           guint           group,
                                           gint            frame,
                                           gboolean        animations);
gboolean _mshed_window_export_dfm         (MshedWindow    *self,
                                           const char     *path,
                                           guint           level);
GtkFileChooserNative *_mshed_window_export_dialog (MshedWindow *self);
/* Tests: the export and import threads pause @ms after each progress step (0: none). */
void     _mshed_window_gltf_set_step_delay (guint          ms);
void     _mshed_window_import_gltf        (MshedWindow    *self,
                                           const char     *path,
                                           gboolean        new_window);
/* mshed-window-pose.c: the skinned preview of a DFM and its Pose panel (view state only) */
void     _mshed_window_pose_init          (MshedWindow    *self);
void     _mshed_window_pose_set_document  (MshedWindow    *self,
                                           MshedDocument  *document);
/* The preview's `picked` on a DFM: the triangle's face group, strip rows, elements and
 * strongest bone selected in the grids (the grids switch to the level drawn). */
void     _mshed_window_pose_picked        (MshedWindow    *self);
gboolean _mshed_window_pose_has_dfm       (MshedWindow    *self);
/* A row selected in the Triangles or strip grid: its triangle (the ones drawn with a strip
 * entry) highlighted in the preview when it draws the grids' level. */
void     _mshed_window_pose_show_row      (MshedWindow    *self,
                                           MshedTableView *grid,
                                           guint           row);

/* mshed-window-files.c: opening, archives, the Open dialog, recent files, drops */
void     _mshed_window_files_class_init   (GtkWidgetClass *widget_class);
void     _mshed_window_files_init         (MshedWindow    *self);
/* The recent-files menu's label for FILE or ARCHIVE:ENTRY (underscores doubled). */
char    *_mshed_window_recent_label       (const char     *spec);
void     _mshed_window_archive_fill       (MshedWindow    *self);

/* mshed-window-archive.c: editing the listed archive's entries (toolbar, drops, dialogs) */
void     _mshed_window_archive_init       (MshedWindow    *self);
void     _mshed_window_archive_class_init (GtkWidgetClass *widget_class);
gboolean _mshed_window_archive_save       (MshedWindow    *self);
/* Replaces entry @index by the file @file, as a drop on its row does (tests). */
gboolean _mshed_window_archive_replace_from_file (MshedWindow *self,
                                                  guint        index,
                                                  GFile       *file);

G_END_DECLS
