/* mshed-hex-view-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hex view is split in three files sharing this header: mshed-hex-view.c (state, input,
 * layout, GObject), mshed-hex-view-draw.c (snapshot) and mshed-hex-view-actions.c (search,
 * go to, bookmarks, clipboard, widget actions). The tests and the benchmark use the entry
 * points at the end instead of synthesizing input events.
 */
#pragma once

#include "mshed-hex-view.h"

G_BEGIN_DECLS

#define HEX_VIEW_PAD_X        6.0
#define HEX_VIEW_MIN_LINES    4
#define HEX_VIEW_LABEL_CHARS  28
#define HEX_VIEW_MAX_BPL      16    /* bytes per line where the width allows */
#define HEX_VIEW_MIN_BPL      4

typedef struct {
  gint  res_index;  /* -1: a model-file offset */
  gsize offset;
} MshedHexBookmark;

struct _MshedHexView {
  GtkWidget       parent_instance;

  /* template */
  GtkWidget      *search_bar;
  GtkWidget      *search_kind;
  GtkWidget      *search_entry;
  GtkWidget      *search_status;
  GtkWidget      *scrollbar;
  GtkWidget      *status_box;
  GtkWidget      *location_label;
  GtkWidget      *field_label;
  GtkWidget      *mode_label;
  GtkWidget      *goto_popover;
  GtkWidget      *goto_entry;
  GtkWidget      *goto_error;
  GtkWidget      *context_menu;

  MshedDocument  *document;
  MshedHexModel  *model;
  GtkAdjustment  *vadj;

  /* geometry */
  PangoLayout    *layout;
  double          cw;             /* advance of one monospace character */
  double          row_h;
  double          baseline_pad;
  gboolean        metrics_valid;
  graphene_rect_t canvas;
  guint           bpl;            /* bytes per line: 16, 8 or 4, as the width allows */
  guint           offset_digits;

  /* cursor and selection (view offsets) */
  gsize           cursor;
  gsize           anchor;
  gsize           sel_start;
  gsize           sel_end;        /* == sel_start: nothing selected */
  gboolean        in_text;
  gboolean        insert_mode;
  gint            pending;        /* high nibble typed but not committed, -1 when none */
  gsize           scroll_target;  /* G_MAXSIZE: none (applied once the canvas has a size) */
  double          drag_x;
  double          drag_y;

  GArray         *bookmarks;      /* MshedHexBookmark */
  GBytes         *marked;         /* byte i non-zero: view offset i differs (compare window) */
  char           *message;
};

/* Geometry: lines hold bpl bytes; the hex column puts a gap after every 8 bytes. */

static inline void
hex_view_get_window (MshedHexView *self,
                     gsize        *ws,
                     gsize        *we)
{
  mshed_hex_model_get_window (self->model, ws, we);
}

/* The largest cursor position: the last byte, or one past it where bytes can be appended. */
static inline gsize
hex_view_max_cursor (MshedHexView *self)
{
  gsize ws, we;

  hex_view_get_window (self, &ws, &we);
  if (we > ws && !(self->insert_mode && mshed_hex_model_can_resize (self->model, we - 1)))
    return we - 1;
  return we;
}

static inline gsize
hex_view_first_line (MshedHexView *self)
{
  gsize ws, we;

  hex_view_get_window (self, &ws, &we);
  return ws / self->bpl;
}

static inline gsize
hex_view_n_lines (MshedHexView *self)
{
  gsize ws, we, last;

  hex_view_get_window (self, &ws, &we);
  last = MAX (hex_view_max_cursor (self), ws);
  return last / self->bpl - ws / self->bpl + 1;
}

static inline double
hex_view_x_hex (MshedHexView *self)
{
  return self->canvas.origin.x + HEX_VIEW_PAD_X + (self->offset_digits + 2) * self->cw;
}

static inline double
hex_view_x_hex_byte (MshedHexView *self,
                     guint         i)
{
  return hex_view_x_hex (self) + (3 * i + i / 8) * self->cw;
}

static inline double
hex_view_x_text (MshedHexView *self)
{
  return hex_view_x_hex (self) + (3 * self->bpl - 1 + (self->bpl - 1) / 8 + 2) * self->cw;
}

static inline double
hex_view_x_labels (MshedHexView *self)
{
  return hex_view_x_text (self) + (self->bpl + 2) * self->cw;
}

/* Left and right edges of byte cell @i in the hex column (cells touch their neighbours). */
static inline void
hex_view_hex_cell (MshedHexView *self,
                   guint         i,
                   double       *x0,
                   double       *x1)
{
  *x0 = hex_view_x_hex_byte (self, i) - self->cw * 0.5;
  *x1 = hex_view_x_hex_byte (self, i) + self->cw * 2.5;
}

/* mshed-hex-view.c */
void     _mshed_hex_view_ensure_metrics (MshedHexView   *self);
void     _mshed_hex_view_set_message    (MshedHexView   *self,
                                         const char     *message);
void     _mshed_hex_view_refuse         (MshedHexView   *self,
                                         GError         *error);
void     _mshed_hex_view_scroll_to      (MshedHexView   *self,
                                         gsize           offset,
                                         gsize           length,
                                         gboolean        center);
void     _mshed_hex_view_flush_pending  (MshedHexView   *self);
void     _mshed_hex_view_move_cursor    (MshedHexView   *self,
                                         gsize           offset,
                                         gboolean        extend);
void     _mshed_hex_view_update_status  (MshedHexView   *self);
gboolean _mshed_hex_view_resizable_here (MshedHexView   *self);

/* mshed-hex-view-draw.c */
void     _mshed_hex_view_snapshot       (GtkWidget      *widget,
                                         GtkSnapshot    *snapshot);

/* mshed-hex-view-actions.c */
void     _mshed_hex_view_class_add_actions (GtkWidgetClass *widget_class);
void     _mshed_hex_view_update_actions (MshedHexView   *self);

/* For tests and the benchmark ---------------------------------------------------------- */

/* What the key controller calls: TRUE when the key was handled (or refused with a message). */
gboolean _mshed_hex_view_key_pressed    (MshedHexView    *self,
                                         guint            keyval,
                                         GdkModifierType  state);
/* Moves keyboard input to the text column (TRUE) or the hex column (FALSE). */
void     _mshed_hex_view_set_text_column (MshedHexView  *self,
                                         gboolean         text);
/* The pending high nibble of an unfinished byte, -1 when none. */
gint     _mshed_hex_view_get_pending_nibble (MshedHexView *self);
/* Lines that fit in the canvas. */
guint    _mshed_hex_view_get_page_lines (MshedHexView   *self);

G_END_DECLS
