/* mshed-hex-view.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * State, input, layout and the GObject of the hex view; drawing lives in
 * mshed-hex-view-draw.c, search / go to / bookmarks / clipboard in mshed-hex-view-actions.c.
 */
#define G_LOG_DOMAIN "mshed-hex-view"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-hex-view.h"
#include "mshed-hex-view-private.h"
#include "mshed-model.h"

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_INSERT_MODE,
  N_PROPS
};

enum {
  CURSOR_MOVED,
  CONTENTS_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (MshedHexView, mshed_hex_view, GTK_TYPE_WIDGET)

static void update_adjustment (MshedHexView *self);

/* Geometry -------------------------------------------------------------------------------- */

void
_mshed_hex_view_ensure_metrics (MshedHexView *self)
{
  PangoContext *context;
  PangoFontMetrics *metrics;
  PangoFontDescription *desc;
  PangoRectangle logical;
  char sample[101];
  int ascent, descent;

  if (self->metrics_valid && self->layout != NULL)
    return;

  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  context = pango_layout_get_context (self->layout);
  /* the grid needs a monospace face whatever the theme's font is; size and weight stay */
  desc = pango_font_description_copy (pango_context_get_font_description (context));
  pango_font_description_set_family (desc, "Monospace");
  pango_layout_set_font_description (self->layout, desc);
  metrics = pango_context_get_metrics (context, desc, NULL);
  pango_font_description_free (desc);
  ascent = pango_font_metrics_get_ascent (metrics);
  descent = pango_font_metrics_get_descent (metrics);
  pango_font_metrics_unref (metrics);

  /* the advance as laid out, not the metrics' approximation */
  memset (sample, '0', 100);
  sample[100] = '\0';
  pango_layout_set_text (self->layout, sample, 100);
  pango_layout_get_extents (self->layout, NULL, &logical);
  self->cw = MAX (1.0, (double) logical.width / PANGO_SCALE / 100.0);
  self->row_h = MAX ((double) logical.height / PANGO_SCALE,
                     (double) (ascent + descent) / PANGO_SCALE) + 3.0;
  self->row_h = ceil (self->row_h);
  self->baseline_pad = 1.5;
  self->metrics_valid = TRUE;
}

static gboolean
hit_test (MshedHexView *self,
          double        x,
          double        y,
          gsize        *offset,
          gboolean     *in_text)
{
  double line_f;
  gsize line, base;
  gint i = -1;
  gsize ws, we;

  _mshed_hex_view_ensure_metrics (self);
  hex_view_get_window (self, &ws, &we);
  line_f = (y - self->canvas.origin.y + gtk_adjustment_get_value (self->vadj)) / self->row_h;
  if (line_f < 0)
    line_f = 0;
  line = MIN ((gsize) line_f, hex_view_n_lines (self) - 1);
  base = (hex_view_first_line (self) + line) * self->bpl;

  if (x >= hex_view_x_text (self) - self->cw)
    {
      *in_text = TRUE;
      i = (gint) floor ((x - hex_view_x_text (self)) / self->cw);
    }
  else
    {
      *in_text = FALSE;
      for (guint k = 0; k < self->bpl; k++)
        {
          double x0, x1;

          hex_view_hex_cell (self, k, &x0, &x1);
          if (x < x1 || k + 1 == self->bpl)
            {
              i = (gint) k;
              break;
            }
        }
    }
  i = CLAMP (i, 0, (gint) self->bpl - 1);
  *offset = CLAMP (base + (gsize) i, ws, hex_view_max_cursor (self));
  return TRUE;
}

/* Cursor, selection, scrolling ---------------------------------------------------------- */

void
_mshed_hex_view_set_message (MshedHexView *self,
                             const char   *message)
{
  if (g_strcmp0 (self->message, message) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (message);
  _mshed_hex_view_update_status (self);
}

void
_mshed_hex_view_refuse (MshedHexView *self,
                        GError       *error)
{
  _mshed_hex_view_set_message (self, error ? error->message : NULL);
  gtk_widget_error_bell (GTK_WIDGET (self));
}

void
_mshed_hex_view_scroll_to (MshedHexView *self,
                           gsize         offset,
                           gsize         length,
                           gboolean      center)
{
  double page, value, top, bottom;
  gsize fl;

  _mshed_hex_view_ensure_metrics (self);
  page = gtk_adjustment_get_page_size (self->vadj);
  if (page <= 0)
    {
      self->scroll_target = offset;  /* apply once allocated */
      return;
    }
  fl = hex_view_first_line (self);
  top = ((offset / self->bpl) - fl) * self->row_h;
  bottom = ((MAX (offset + MAX (length, 1), 1) - 1) / self->bpl - fl + 1) * self->row_h;
  value = gtk_adjustment_get_value (self->vadj);
  if (top >= value && bottom <= value + page)
    return;
  if (center)
    value = bottom - top < page ? (top + bottom - page) / 2 : top;
  else if (top < value)
    value = top;
  else
    value = bottom - page;
  gtk_adjustment_set_value (self->vadj, MAX (0.0, value));
}

/* Writes a typed high nibble into its byte (the low nibble kept). */
void
_mshed_hex_view_flush_pending (MshedHexView *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint8 b = 0;
  gint nibble = self->pending;

  if (nibble < 0)
    return;
  self->pending = -1;
  if (mshed_hex_model_read (self->model, self->cursor, &b, 1) != 1)
    return;
  b = (guint8) ((nibble << 4) | (b & 0x0F));
  bytes = g_bytes_new (&b, 1);
  if (!mshed_hex_model_replace (self->model, self->cursor, 1, bytes, &error))
    _mshed_hex_view_refuse (self, error);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_mshed_hex_view_move_cursor (MshedHexView *self,
                             gsize         offset,
                             gboolean      extend)
{
  gsize ws, we;

  _mshed_hex_view_flush_pending (self);
  hex_view_get_window (self, &ws, &we);
  offset = CLAMP (offset, ws, hex_view_max_cursor (self));
  if (extend)
    {
      if (self->sel_start == self->sel_end)
        self->anchor = self->cursor;
      self->sel_start = MIN (self->anchor, offset);
      self->sel_end = MIN (MAX (self->anchor, offset) + 1, we);
    }
  else
    {
      self->anchor = offset;
      self->sel_start = self->sel_end = offset;
    }
  self->cursor = offset;
  _mshed_hex_view_scroll_to (self, offset, 1, FALSE);
  _mshed_hex_view_update_status (self);
  _mshed_hex_view_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[CURSOR_MOVED], 0);
}

/* After any change of the source or its bytes: keep cursor and selection inside. */
static void
clamp_state (MshedHexView *self)
{
  gsize ws, we, mc;

  hex_view_get_window (self, &ws, &we);
  mc = hex_view_max_cursor (self);
  self->cursor = CLAMP (self->cursor, ws, mc);
  self->anchor = CLAMP (self->anchor, ws, mc);
  self->sel_start = CLAMP (self->sel_start, ws, we);
  self->sel_end = CLAMP (self->sel_end, self->sel_start, we);
}

static void
source_changed (MshedHexView *self,
                gsize         cursor)
{
  gsize ws, we;

  self->pending = -1;
  hex_view_get_window (self, &ws, &we);
  self->cursor = self->anchor = cursor;
  self->sel_start = self->sel_end = cursor;
  clamp_state (self);
  gtk_adjustment_set_value (self->vadj, 0);
  update_adjustment (self);
  _mshed_hex_view_scroll_to (self, self->cursor, 1, TRUE);
  _mshed_hex_view_update_status (self);
  _mshed_hex_view_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[CURSOR_MOVED], 0);
  g_signal_emit (self, signals[CONTENTS_CHANGED], 0);
}

static void
update_adjustment (MshedHexView *self)
{
  double upper, page;

  _mshed_hex_view_ensure_metrics (self);
  upper = hex_view_n_lines (self) * self->row_h;
  page = MAX (0.0, self->canvas.size.height);
  gtk_adjustment_configure (self->vadj,
                            MIN (gtk_adjustment_get_value (self->vadj), MAX (0.0, upper - page)),
                            0, upper, self->row_h, MAX (self->row_h, page - self->row_h), page);
}

/* Status line --------------------------------------------------------------------------- */

char *
mshed_hex_view_format_address (MshedHexView *self,
                               gsize         offset)
{
  guint64 file;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), NULL);

  file = mshed_hex_model_to_file_offset (self->model, offset);

  if (file == G_MAXUINT64)
    file = offset;
  return g_strdup_printf ("%0*" G_GINT64_MODIFIER "X", (int) self->offset_digits, file);
}

void
_mshed_hex_view_update_status (MshedHexView *self)
{
  g_autofree char *location = NULL;
  g_autofree char *offsets = NULL;
  g_autofree char *field = NULL;
  gint res = -1;
  gsize res_off = 0;
  gsize ws, we;

  if (self->location_label == NULL)
    return;

  hex_view_get_window (self, &ws, &we);
  if (self->document == NULL)
    location = g_strdup (_("No document"));
  else
    {
      gint src = mshed_hex_model_get_res_index (self->model);
      g_autofree char *where = NULL;

      if (src == MSHED_HEX_SOURCE_FILE)
        where = g_strdup (_("Model file"));
      else if (src == MSHED_HEX_SOURCE_UTF)
        where = mshed_utf_node_dup_path (mshed_hex_model_get_utf_node (self->model));
      else
        {
          MshedNres *nres = mshed_model_get_nres (mshed_document_get_model (self->document));
          const MshedNresEntry *e = mshed_nres_peek_entry (nres, (guint) src);

          /* translators: resource index and NRes type, e.g. "Resource 1 (Res2)" */
          where = g_strdup_printf (_("Resource %d (Res%u)"), src, e->type_id);
        }
      g_autofree char *address = mshed_hex_view_format_address (self, self->cursor);

      /* the cursor's file offset first (as Problems and mshed-cli show it); the offset
       * inside the resource and the nested model are in the tooltip */
      if (self->sel_end > self->sel_start)
        /* translators: the cursor's file offset · where · selection length */
        location = g_strdup_printf (g_dngettext (NULL, "0x%s · %s · %zu byte selected",
                                                 "0x%s · %s · %zu bytes selected",
                                                 self->sel_end - self->sel_start),
                                    address, where, self->sel_end - self->sel_start);
      else
        /* translators: the cursor's file offset · where */
        location = g_strdup_printf (_("0x%s · %s"), address, where);
      offsets = mshed_hex_model_describe_offset (self->model, self->cursor);
    }
  gtk_label_set_text (GTK_LABEL (self->location_label), location);
  if (g_strcmp0 (gtk_widget_get_tooltip_text (self->location_label), offsets) != 0)
    gtk_widget_set_tooltip_text (self->location_label, offsets);

  if (self->message != NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->field_label), self->message);
      gtk_widget_set_tooltip_text (self->field_label, self->message);
      gtk_widget_add_css_class (self->field_label, "error");
    }
  else
    {
      MshedHexOverlay ov;

      gtk_widget_remove_css_class (self->field_label, "error");
      if (self->cursor < we && mshed_hex_model_get_overlay (self->model, self->cursor, &ov))
        {
          g_autofree char *what = mshed_hex_overlay_describe (&ov);
          g_autofree char *value = mshed_hex_model_format_value (self->model, &ov);

          field = value ? g_strdup_printf ("%s = %s", what, value) : g_steal_pointer (&what);
        }
      gtk_label_set_text (GTK_LABEL (self->field_label), field ? field : "");
      gtk_widget_set_tooltip_text (self->field_label, field);
    }

  if (self->cursor < we && !mshed_hex_model_can_edit (self->model, self->cursor, NULL))
    /* translators: status of the hex view: the byte under the cursor cannot be edited */
    gtk_label_set_text (GTK_LABEL (self->mode_label), C_("hex mode", "Read-only"));
  else if (self->insert_mode &&
           mshed_hex_model_to_resource (self->model, self->cursor, &res, &res_off) &&
           mshed_hex_model_can_resize (self->model, self->cursor))
    /* translators: status of the hex view: typing inserts bytes */
    gtk_label_set_text (GTK_LABEL (self->mode_label), C_("hex mode", "INS"));
  else
    /* translators: status of the hex view: typing overwrites bytes */
    gtk_label_set_text (GTK_LABEL (self->mode_label), C_("hex mode", "OVR"));
}

/* Layout ---------------------------------------------------------------------------------- */

/* Width of the address, hex and text columns for @bpl bytes a line (hex_view_x_text()). */
static double
columns_width (MshedHexView *self,
               guint         bpl)
{
  return HEX_VIEW_PAD_X * 2 +
         (self->offset_digits + 2 + 3 * bpl - 1 + (bpl - 1) / 8 + 2 + bpl + 1) * self->cw;
}

/* As many bytes a line (16, 8 or 4) as the width shows with their text column; the line at
 * the top keeps its first byte in view. */
static void
choose_bytes_per_line (MshedHexView *self)
{
  guint bpl = HEX_VIEW_MAX_BPL;
  gsize ws, we, top;

  while (bpl > HEX_VIEW_MIN_BPL && columns_width (self, bpl) > self->canvas.size.width)
    bpl /= 2;
  if (bpl == self->bpl)
    return;
  hex_view_get_window (self, &ws, &we);
  top = (hex_view_first_line (self) + (gsize) (gtk_adjustment_get_value (self->vadj) /
                                                self->row_h)) * self->bpl;
  self->bpl = bpl;
  update_adjustment (self);
  gtk_adjustment_set_value (self->vadj,
                            (double) (top / bpl - hex_view_first_line (self)) * self->row_h);
}

static void
mshed_hex_view_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  MshedHexView *self = MSHED_HEX_VIEW (widget);
  int bar_min, bar_nat, search_min, search_nat, status_min, status_nat;
  double full;

  _mshed_hex_view_ensure_metrics (self);
  gtk_widget_measure (self->scrollbar, orientation, -1, &bar_min, &bar_nat, NULL, NULL);
  gtk_widget_measure (self->search_bar, orientation, -1, &search_min, &search_nat, NULL, NULL);
  gtk_widget_measure (self->status_box, orientation, -1, &status_min, &status_nat, NULL, NULL);
  /* 16 bytes a line and the field names when there is room, at least 4 bytes a line with
   * their text column */
  full = columns_width (self, HEX_VIEW_MAX_BPL) + HEX_VIEW_LABEL_CHARS * self->cw;
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (MAX (search_min, status_min),
                      (int) ceil (columns_width (self, HEX_VIEW_MIN_BPL)) + bar_min);
      *natural = MAX (MAX (search_nat, status_nat), (int) ceil (full) + bar_nat);
    }
  else
    {
      *minimum = search_min + status_min + MAX (bar_min, (int) (HEX_VIEW_MIN_LINES * self->row_h));
      *natural = search_nat + status_nat + (int) (24 * self->row_h);
    }
}

static void
mshed_hex_view_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  MshedHexView *self = MSHED_HEX_VIEW (widget);
  int search_h, status_h, bar_w, dummy, canvas_h;

  gtk_widget_measure (self->search_bar, GTK_ORIENTATION_VERTICAL, width, &dummy, &search_h,
                      NULL, NULL);
  gtk_widget_measure (self->status_box, GTK_ORIENTATION_VERTICAL, width, &dummy, &status_h,
                      NULL, NULL);
  gtk_widget_measure (self->scrollbar, GTK_ORIENTATION_HORIZONTAL, -1, &dummy, &bar_w,
                      NULL, NULL);
  search_h = MIN (search_h, height);
  status_h = MIN (status_h, height - search_h);
  canvas_h = MAX (0, height - search_h - status_h);

  graphene_rect_init (&self->canvas, 0, (float) search_h, (float) MAX (0, width - bar_w),
                      (float) canvas_h);
  /* the adjustment first: changing it after allocating the scrollbar would leave the
   * scrollbar's slider unallocated for this frame */
  _mshed_hex_view_ensure_metrics (self);
  if (self->row_h > 0 && canvas_h > 0)
    choose_bytes_per_line (self);
  update_adjustment (self);
  if (self->scroll_target != G_MAXSIZE && canvas_h > 0)
    {
      gsize target = self->scroll_target;
      gsize len = self->sel_end > self->sel_start ? self->sel_end - self->sel_start : 1;

      self->scroll_target = G_MAXSIZE;
      _mshed_hex_view_scroll_to (self, target, target == self->sel_start ? len : 1, TRUE);
    }

  gtk_widget_size_allocate (self->search_bar,
                            &(GtkAllocation) { 0, 0, width, search_h }, -1);
  gtk_widget_size_allocate (self->scrollbar,
                            &(GtkAllocation) { MAX (0, width - bar_w), search_h, bar_w, canvas_h },
                            -1);
  gtk_widget_size_allocate (self->status_box,
                            &(GtkAllocation) { 0, height - status_h, width, status_h }, -1);
  gtk_popover_present (GTK_POPOVER (self->goto_popover));
  gtk_popover_present (GTK_POPOVER (self->context_menu));
}

/* The view itself takes the focus (its children only when clicked). */
static gboolean
mshed_hex_view_grab_focus (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);

  if (root == NULL || !gtk_widget_get_focusable (widget) || !gtk_widget_is_sensitive (widget))
    return FALSE;
  gtk_root_set_focus (root, widget);
  return TRUE;
}

static void
mshed_hex_view_css_changed (GtkWidget         *widget,
                            GtkCssStyleChange *change)
{
  MshedHexView *self = MSHED_HEX_VIEW (widget);

  GTK_WIDGET_CLASS (mshed_hex_view_parent_class)->css_changed (widget, change);
  self->metrics_valid = FALSE;
  g_clear_object (&self->layout);
  gtk_widget_queue_resize (widget);
}

/* Editing --------------------------------------------------------------------------------- */

static gboolean
commit (MshedHexView *self,
        gsize         offset,
        gsize         old_length,
        const guint8 *data,
        gsize         length,
        GError      **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, length);

  return mshed_hex_model_replace (self->model, offset, old_length, bytes, error);
}

gboolean
_mshed_hex_view_resizable_here (MshedHexView *self)
{
  gsize ws, we;

  hex_view_get_window (self, &ws, &we);
  if (we == ws)
    return self->document != NULL && mshed_hex_model_can_resize (self->model, ws);
  return mshed_hex_model_can_resize (self->model, MIN (self->cursor, we - 1));
}

static gboolean
type_nibble (MshedHexView *self,
             guint         nibble,
             GError      **error)
{
  gsize ws, we;
  guint8 b = 0;

  hex_view_get_window (self, &ws, &we);
  if (!mshed_hex_model_can_edit (self->model, self->cursor, error))
    return FALSE;
  if (self->insert_mode && _mshed_hex_view_resizable_here (self))
    {
      if (self->pending < 0)
        {
          /* a new byte appears at once; the second nibble completes it */
          b = (guint8) (nibble << 4);
          if (!commit (self, self->cursor, 0, &b, 1, error))
            return FALSE;
          self->pending = (gint) nibble;
          return TRUE;
        }
      b = (guint8) ((self->pending << 4) | nibble);
      self->pending = -1;
      if (!commit (self, self->cursor, 1, &b, 1, error))
        return FALSE;
      _mshed_hex_view_move_cursor (self, self->cursor + 1, FALSE);
      return TRUE;
    }
  if (self->cursor >= we)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("The cursor is past the last byte (use insert mode to append)"));
      return FALSE;
    }
  if (self->pending < 0)
    {
      self->pending = (gint) nibble;  /* shown at once, written with the second nibble */
      _mshed_hex_view_update_actions (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    }
  if (mshed_hex_model_read (self->model, self->cursor, &b, 1) != 1)
    return FALSE;
  b = (guint8) ((self->pending << 4) | nibble);
  self->pending = -1;
  if (!commit (self, self->cursor, 1, &b, 1, error))
    return FALSE;
  if (self->cursor + 1 <= hex_view_max_cursor (self))
    _mshed_hex_view_move_cursor (self, self->cursor + 1, FALSE);
  return TRUE;
}

static gboolean
type_char (MshedHexView *self,
           gunichar      c,
           GError      **error)
{
  char utf8[8];
  g_autoptr(GBytes) enc = NULL;
  gsize ws, we;
  gboolean insert;

  hex_view_get_window (self, &ws, &we);
  _mshed_hex_view_flush_pending (self);
  utf8[g_unichar_to_utf8 (c, utf8)] = '\0';
  enc = mshed_utf8_to_cp1251 (utf8, error);
  if (enc == NULL)
    return FALSE;
  insert = self->insert_mode && _mshed_hex_view_resizable_here (self);
  if (!insert && self->cursor >= we)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("The cursor is past the last byte (use insert mode to append)"));
      return FALSE;
    }
  if (!mshed_hex_model_replace (self->model, self->cursor, insert ? 0 : 1, enc, error))
    return FALSE;
  if (self->cursor + 1 <= hex_view_max_cursor (self))
    _mshed_hex_view_move_cursor (self, self->cursor + 1, FALSE);
  return TRUE;
}

static gboolean
delete_bytes (MshedHexView *self,
              gboolean      backwards,
              GError      **error)
{
  gsize start, len;

  self->pending = -1;
  if (self->sel_end > self->sel_start)
    {
      start = self->sel_start;
      len = self->sel_end - self->sel_start;
    }
  else if (backwards)
    {
      gsize ws, we;

      hex_view_get_window (self, &ws, &we);
      if (self->cursor <= ws)
        return TRUE;
      start = self->cursor - 1;
      len = 1;
    }
  else
    {
      start = self->cursor;
      len = 1;
    }
  if (!mshed_hex_model_replace (self->model, start, len, NULL, error))
    return FALSE;
  _mshed_hex_view_move_cursor (self, start, FALSE);
  return TRUE;
}

gboolean
_mshed_hex_view_key_pressed (MshedHexView    *self,
                             guint            keyval,
                             GdkModifierType  state)
{
  g_autoptr(GError) error = NULL;
  gboolean shift = (state & GDK_SHIFT_MASK) != 0;
  gboolean ctrl = (state & GDK_CONTROL_MASK) != 0;
  gboolean alt = (state & (GDK_ALT_MASK | GDK_SUPER_MASK)) != 0;
  gsize ws, we, page;
  gboolean ok = TRUE;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  if (self->document == NULL)
    return FALSE;
  hex_view_get_window (self, &ws, &we);
  page = MAX (1, _mshed_hex_view_get_page_lines (self) - 1) * self->bpl;

  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      _mshed_hex_view_move_cursor (self, self->cursor > ws ? self->cursor - 1 : ws, shift);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      _mshed_hex_view_move_cursor (self, self->cursor + 1, shift);
      return TRUE;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      if (alt)
        return FALSE;  /* Alt+Up / Alt+Down: the bookmark bindings */
      if (self->cursor >= ws + self->bpl)
        _mshed_hex_view_move_cursor (self, self->cursor - self->bpl, shift);
      return TRUE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      if (alt)
        return FALSE;
      if (self->cursor + self->bpl <= hex_view_max_cursor (self))
        _mshed_hex_view_move_cursor (self, self->cursor + self->bpl, shift);
      return TRUE;
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
      _mshed_hex_view_move_cursor (self, self->cursor >= ws + page ? self->cursor - page : ws,
                                   shift);
      return TRUE;
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      _mshed_hex_view_move_cursor (self, self->cursor + page, shift);
      return TRUE;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      _mshed_hex_view_move_cursor (self,
                                   ctrl ? ws : MAX (ws, self->cursor - self->cursor % self->bpl),
                                   shift);
      return TRUE;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      _mshed_hex_view_move_cursor (self, ctrl ? hex_view_max_cursor (self)
                              : self->cursor - self->cursor % self->bpl + self->bpl - 1, shift);
      return TRUE;
    case GDK_KEY_Tab:
    case GDK_KEY_ISO_Left_Tab:
    case GDK_KEY_KP_Tab:
      if (ctrl || alt)
        return FALSE;
      _mshed_hex_view_flush_pending (self);
      self->in_text = !self->in_text;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    case GDK_KEY_Insert:
    case GDK_KEY_KP_Insert:
      if (ctrl || shift || alt)
        return FALSE;
      mshed_hex_view_set_insert_mode (self, !self->insert_mode);
      return TRUE;
    case GDK_KEY_Delete:
    case GDK_KEY_KP_Delete:
    case GDK_KEY_BackSpace:
      if (ctrl || alt)
        return FALSE;
      ok = delete_bytes (self, keyval == GDK_KEY_BackSpace, &error);
      break;
    case GDK_KEY_Escape:
      if (self->pending >= 0)
        {
          self->pending = -1;  /* drop the unfinished byte */
          _mshed_hex_view_update_actions (self);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          return TRUE;
        }
      if (self->sel_end > self->sel_start)
        {
          _mshed_hex_view_move_cursor (self, self->cursor, FALSE);
          return TRUE;
        }
      return FALSE;
    default:
      {
        gunichar c = gdk_keyval_to_unicode (keyval);

        if (ctrl || alt || c == 0 || !g_unichar_isprint (c))
          return FALSE;
        if (self->in_text)
          ok = type_char (self, c, &error);
        else if (g_unichar_isxdigit (c) && c < 0x80)
          ok = type_nibble (self, (guint) g_unichar_xdigit_value (c), &error);
        else
          {
            gtk_widget_error_bell (GTK_WIDGET (self));
            return TRUE;
          }
      }
      break;
    }

  if (!ok)
    _mshed_hex_view_refuse (self, error);
  else
    _mshed_hex_view_set_message (self, NULL);
  return TRUE;
}

static gboolean
key_pressed_cb (MshedHexView          *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  if (!gtk_widget_has_focus (GTK_WIDGET (self)))
    return FALSE;  /* a child (the search entry) has the focus */
  return _mshed_hex_view_key_pressed (self, keyval, state);
}

static void
focus_leave_cb (MshedHexView *self)
{
  _mshed_hex_view_flush_pending (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
focus_enter_cb (MshedHexView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Pointer --------------------------------------------------------------------------------- */

static gboolean
in_canvas (MshedHexView *self,
           double        x,
           double        y)
{
  return graphene_rect_contains_point (&self->canvas, &GRAPHENE_POINT_INIT ((float) x, (float) y));
}

static void
click_pressed_cb (MshedHexView    *self,
                  int              n_press,
                  double           x,
                  double           y,
                  GtkGestureClick *gesture)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  gsize offset;
  gboolean in_text;

  if (self->document == NULL || !in_canvas (self, x, y))
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  hit_test (self, x, y, &offset, &in_text);

  if (button == GDK_BUTTON_SECONDARY)
    {
      if (!(offset >= self->sel_start && offset < self->sel_end))
        _mshed_hex_view_move_cursor (self, offset, FALSE);
      gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                                   &(GdkRectangle) { (int) x, (int) y, 1, 1 });
      gtk_popover_popup (GTK_POPOVER (self->context_menu));
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (button != GDK_BUTTON_PRIMARY)
    return;

  self->in_text = in_text;
  if (n_press == 2)
    {
      MshedHexOverlay ov;

      /* double click selects the field (or span) under the pointer */
      if (mshed_hex_model_get_overlay (self->model, offset, &ov))
        {
          mshed_hex_view_select_range (self, ov.start, ov.start + ov.length);
          return;
        }
    }
  _mshed_hex_view_move_cursor (self, offset, (state & GDK_SHIFT_MASK) != 0);
}

static void
drag_begin_cb (MshedHexView   *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  if (!in_canvas (self, x, y))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_x = x;
  self->drag_y = y;
}

static void
drag_update_cb (MshedHexView   *self,
                double          dx,
                double          dy,
                GtkGestureDrag *gesture)
{
  double x = self->drag_x + dx, y = self->drag_y + dy;
  gsize offset;
  gboolean in_text;

  if (self->document == NULL || (fabs (dx) < 3 && fabs (dy) < 3))
    return;
  /* scroll while dragging past the top or bottom edge */
  if (y < self->canvas.origin.y)
    gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) - self->row_h);
  else if (y > self->canvas.origin.y + self->canvas.size.height)
    gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + self->row_h);
  hit_test (self, x, y, &offset, &in_text);
  if (offset != self->cursor)
    _mshed_hex_view_move_cursor (self, offset, TRUE);
}

static gboolean
scroll_cb (MshedHexView             *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *controller)
{
  double delta;

  _mshed_hex_view_ensure_metrics (self);
  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL)
    delta = dy * 3 * self->row_h;
  else
    delta = dy;
  gtk_adjustment_set_value (self->vadj, gtk_adjustment_get_value (self->vadj) + delta);
  return TRUE;
}

static gboolean
query_tooltip_cb (MshedHexView *self,
                  int           x,
                  int           y,
                  gboolean      keyboard,
                  GtkTooltip   *tooltip)
{
  g_autofree char *what = NULL;
  g_autofree char *value = NULL;
  g_autofree char *offsets = NULL;
  g_autoptr(GString) text = NULL;
  MshedHexOverlay ov;
  gsize offset, ws, we;
  gboolean in_text;

  if (keyboard || self->document == NULL || !in_canvas (self, x, y) ||
      x < hex_view_x_hex (self) - self->cw || x > hex_view_x_text (self) + self->bpl * self->cw)
    return FALSE;
  hit_test (self, x, y, &offset, &in_text);
  hex_view_get_window (self, &ws, &we);
  if (offset >= we || !mshed_hex_model_get_overlay (self->model, offset, &ov))
    return FALSE;
  what = mshed_hex_overlay_describe (&ov);
  value = mshed_hex_model_format_value (self->model, &ov);
  text = g_string_new (what);
  if (value)
    /* translators: the decoded value of a field in the hex view's tooltip */
    g_string_append_printf (text, "\n%s %s", _("Value:"), value);
  if (ov.field && ov.field->blurb)
    g_string_append_printf (text, "\n%s", _(ov.field->blurb));
  if (ov.kind == MSHED_HEX_OVERLAY_UNKNOWN)
    g_string_append_printf (text, "\n%s", _("Meaning unknown: preserved as is"));
  offsets = mshed_hex_model_describe_offset (self->model, offset);
  if (offsets != NULL)
    g_string_append_printf (text, "\n%s", offsets);
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* Document -------------------------------------------------------------------------------- */

static void
document_changed_cb (MshedHexView      *self,
                     const MshedChange *change,
                     MshedDocument     *document)
{
  gint shown = mshed_hex_model_get_res_index (self->model);

  if (!mshed_hex_model_affected_by (self->model, change))
    return;
  self->pending = -1;
  if (!mshed_hex_model_invalidate (self->model))
    {
      _mshed_hex_view_set_message (self, NULL);
      source_changed (self, 0);  /* the resource shown is gone: the whole file now */
      return;
    }
  /* bytes inserted or deleted before the cursor in the resource shown: keep it on its byte */
  if (shown >= 0 && change->res_index == shown && change->length != change->old_length &&
      change->offset < self->cursor && change->offset + change->old_length <= self->cursor)
    {
      if (change->length > change->old_length)
        self->cursor += change->length - change->old_length;
      else
        self->cursor -= MIN (self->cursor, change->old_length - change->length);
      self->anchor = self->sel_start = self->sel_end = self->cursor;
    }
  clamp_state (self);
  update_adjustment (self);
  _mshed_hex_view_update_status (self);
  _mshed_hex_view_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[CONTENTS_CHANGED], 0);
}

/* GObject ------------------------------------------------------------------------------- */

static void
mshed_hex_view_dispose (GObject *object)
{
  MshedHexView *self = MSHED_HEX_VIEW (object);
  GtkWidget *child;

  mshed_hex_view_set_document (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_HEX_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (mshed_hex_view_parent_class)->dispose (object);
}

static void
mshed_hex_view_finalize (GObject *object)
{
  MshedHexView *self = MSHED_HEX_VIEW (object);

  g_clear_object (&self->model);
  g_clear_object (&self->vadj);
  g_clear_pointer (&self->bookmarks, g_array_unref);
  g_clear_pointer (&self->marked, g_bytes_unref);
  g_clear_pointer (&self->message, g_free);

  G_OBJECT_CLASS (mshed_hex_view_parent_class)->finalize (object);
}

static void
mshed_hex_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  MshedHexView *self = MSHED_HEX_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_INSERT_MODE:
      g_value_set_boolean (value, self->insert_mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_hex_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  MshedHexView *self = MSHED_HEX_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      mshed_hex_view_set_document (self, g_value_get_object (value));
      break;
    case PROP_INSERT_MODE:
      mshed_hex_view_set_insert_mode (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mshed_hex_view_class_init (MshedHexViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_hex_view_dispose;
  object_class->finalize = mshed_hex_view_finalize;
  object_class->get_property = mshed_hex_view_get_property;
  object_class->set_property = mshed_hex_view_set_property;

  widget_class->snapshot = _mshed_hex_view_snapshot;
  widget_class->measure = mshed_hex_view_measure;
  widget_class->size_allocate = mshed_hex_view_size_allocate;
  widget_class->css_changed = mshed_hex_view_css_changed;
  widget_class->grab_focus = mshed_hex_view_grab_focus;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, MSHED_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_INSERT_MODE] =
    g_param_spec_boolean ("insert-mode", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CURSOR_MOVED] =
    g_signal_new ("cursor-moved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CONTENTS_CHANGED] =
    g_signal_new ("contents-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-hex-view.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, search_bar);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, search_kind);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, search_status);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, scrollbar);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, status_box);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, location_label);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, field_label);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, mode_label);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, goto_popover);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, goto_entry);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, goto_error);
  gtk_widget_class_bind_template_child (widget_class, MshedHexView, context_menu);
  _mshed_hex_view_class_add_actions (widget_class);

  gtk_widget_class_set_css_name (widget_class, "hexview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
mshed_hex_view_init (MshedHexView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->bpl = HEX_VIEW_MAX_BPL;
  self->offset_digits = 8;
  self->pending = -1;
  self->scroll_target = G_MAXSIZE;
  self->model = mshed_hex_model_new ();
  self->bookmarks = g_array_new (FALSE, FALSE, sizeof (MshedHexBookmark));
  self->vadj = g_object_ref_sink (gtk_adjustment_new (0, 0, 0, 1, 1, 0));

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_scrollbar_set_adjustment (GTK_SCROLLBAR (self->scrollbar), self->vadj);
  g_signal_connect_object (self->vadj, "value-changed", G_CALLBACK (gtk_widget_queue_draw),
                           self, G_CONNECT_SWAPPED);

  controller = gtk_event_controller_key_new ();
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_focus_new ();
  g_signal_connect_object (controller, "leave", G_CALLBACK (focus_leave_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "enter", G_CALLBACK (focus_enter_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (click_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (drag_update_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (scroll_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);

  _mshed_hex_view_update_status (self);
  _mshed_hex_view_update_actions (self);
}

/* Public API ------------------------------------------------------------------------------ */

GtkWidget *
mshed_hex_view_new (void)
{
  return g_object_new (MSHED_TYPE_HEX_VIEW, NULL);
}

void
mshed_hex_view_set_document (MshedHexView  *self,
                             MshedDocument *document)
{
  g_return_if_fail (MSHED_IS_HEX_VIEW (self));
  g_return_if_fail (document == NULL || MSHED_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  self->pending = -1;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_func (self->document, document_changed_cb, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    g_signal_connect_object (document, "changed", G_CALLBACK (document_changed_cb), self,
                             G_CONNECT_SWAPPED);
  mshed_hex_model_set_document (self->model, document);
  g_array_set_size (self->bookmarks, 0);
  g_clear_pointer (&self->message, g_free);
  source_changed (self, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

MshedDocument *
mshed_hex_view_get_document (MshedHexView *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), NULL);
  return self->document;
}

MshedHexModel *
mshed_hex_view_get_model (MshedHexView *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), NULL);
  return self->model;
}

void
mshed_hex_view_show_range (MshedHexView *self,
                           gint          res_index,
                           gsize         offset,
                           gsize         length)
{
  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  if (self->document == NULL)
    return;
  _mshed_hex_view_flush_pending (self);
  if (!mshed_hex_model_set_source (self->model, res_index, offset, length))
    {
      g_warning ("No resource %d to show", res_index);
      return;
    }
  g_clear_pointer (&self->message, g_free);
  source_changed (self, offset);
}

void
mshed_hex_view_show_resource (MshedHexView *self,
                              gint          res_index)
{
  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  if (self->document == NULL)
    return;
  if (mshed_hex_model_get_res_index (self->model) == res_index &&
      mshed_hex_model_is_whole (self->model))
    return;
  mshed_hex_view_show_range (self, res_index, 0, G_MAXSIZE);
}

void
mshed_hex_view_show_utf_node (MshedHexView *self,
                              MshedUtfNode *node)
{
  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  if (self->document == NULL)
    return;
  if (mshed_hex_model_get_utf_node (self->model) == node && node != NULL)
    return;
  _mshed_hex_view_flush_pending (self);
  if (!mshed_hex_model_set_utf_node (self->model, node))
    mshed_hex_model_set_source (self->model, MSHED_HEX_SOURCE_FILE, 0, G_MAXSIZE);
  g_clear_pointer (&self->message, g_free);
  source_changed (self, 0);
}

void
mshed_hex_view_show_record (MshedHexView *self,
                            MshedTableId  table,
                            guint         row)
{
  MshedModel *model;
  const MshedTableInfo *info;
  gint res;
  gsize offset, length;

  g_return_if_fail (MSHED_IS_HEX_VIEW (self));
  g_return_if_fail (table >= 0 && table < MSHED_N_TABLES);

  if (self->document == NULL)
    return;
  model = mshed_document_get_model (self->document);
  info = mshed_schema_get_table (table);
  if (model == NULL)
    return;

  if (table == MSHED_TABLE_DIRECTORY)
    {
      if (row >= mshed_model_get_n_rows (model, MSHED_TABLE_DIRECTORY))
        return;
      mshed_hex_view_show_resource (self, MSHED_HEX_SOURCE_FILE);
      offset = mshed_model_get_record_offset (model, table, row);
      mshed_hex_view_select_range (self, offset, offset + MSHED_NRES_RECORD_SIZE);
      return;
    }
  res = mshed_model_find_resource (model, info->res_type);
  if (res < 0)
    return;
  if (table == MSHED_TABLE_NAMES)
    {
      const guint8 *text;
      guint32 len;

      if (!mshed_model_get_name_raw (model, row, &text, &len))
        return;
      offset = mshed_model_get_name_record_offset (model, row);
      length = 4 + (len ? (gsize) len + 1 : 0);
    }
  else
    {
      guint stride = table == MSHED_TABLE_NODES ? mshed_model_get_node_stride (model)
                                                : info->stride;

      if (stride == 0)
        return;
      offset = info->header_size + (gsize) row * stride;
      length = stride;
    }
  mshed_hex_view_show_resource (self, res);
  mshed_hex_view_select_range (self, offset, offset + length);
}

gboolean
mshed_hex_view_goto_file_offset (MshedHexView *self,
                                 guint64       offset)
{
  guint64 base;
  gsize view, ws, we;
  gint res;
  gsize res_off;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  if (self->document == NULL)
    return FALSE;
  /* a byte of the bytes shown: only the cursor moves */
  view = mshed_hex_model_from_file_offset (self->model, offset);
  hex_view_get_window (self, &ws, &we);
  if (view != G_MAXSIZE && view >= ws && view < we)
    return mshed_hex_view_goto_offset (self, view);
  /* a nested model's bytes start at its entry's offset in the outer archive */
  base = mshed_hex_model_get_base_offset (self->model);
  if (offset < base || offset - base >= mshed_hex_model_get_file_size (self->model))
    return FALSE;
  offset -= base;
  if (mshed_hex_model_file_to_resource (self->model, offset, &res, &res_off))
    {
      mshed_hex_view_show_resource (self, res);
      return mshed_hex_view_goto_offset (self, res_off);
    }
  /* the container itself (header, directory, gaps): the whole file */
  mshed_hex_view_show_resource (self, MSHED_HEX_SOURCE_FILE);
  return mshed_hex_view_goto_offset (self, (gsize) offset);
}

gboolean
mshed_hex_view_goto_offset (MshedHexView *self,
                            gsize         offset)
{
  gsize ws, we;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  if (self->document == NULL)
    return FALSE;
  hex_view_get_window (self, &ws, &we);
  if (offset < ws || offset > hex_view_max_cursor (self))
    return FALSE;
  _mshed_hex_view_move_cursor (self, offset, FALSE);
  _mshed_hex_view_scroll_to (self, offset, 1, TRUE);
  return TRUE;
}

gboolean
mshed_hex_view_get_cursor (MshedHexView *self,
                           gint         *res_index,
                           gsize        *offset)
{
  gint r = -1;
  gsize o = 0;
  gboolean ok;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  ok = self->document != NULL &&
       mshed_hex_model_to_resource (self->model, self->cursor, &r, &o);
  if (res_index)
    *res_index = r;
  if (offset)
    *offset = o;
  return ok;
}

gsize
mshed_hex_view_get_cursor_offset (MshedHexView *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), 0);
  return self->cursor;
}

void
mshed_hex_view_set_cursor (MshedHexView *self,
                           gsize         offset,
                           gboolean      extend_selection)
{
  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  if (self->document != NULL)
    _mshed_hex_view_move_cursor (self, offset, extend_selection);
}

gboolean
mshed_hex_view_get_selection (MshedHexView *self,
                              gsize        *start,
                              gsize        *end)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  if (start)
    *start = self->sel_start;
  if (end)
    *end = self->sel_end;
  return self->sel_end > self->sel_start;
}

void
mshed_hex_view_select_range (MshedHexView *self,
                             gsize         start,
                             gsize         end)
{
  gsize ws, we;

  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  if (self->document == NULL)
    return;
  _mshed_hex_view_flush_pending (self);
  hex_view_get_window (self, &ws, &we);
  start = CLAMP (start, ws, we);
  end = CLAMP (end, start, we);
  self->cursor = self->anchor = MIN (start, hex_view_max_cursor (self));
  self->sel_start = start;
  self->sel_end = end;
  _mshed_hex_view_scroll_to (self, start, end - start, TRUE);
  _mshed_hex_view_update_status (self);
  _mshed_hex_view_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[CURSOR_MOVED], 0);
}

guint
_mshed_hex_view_get_page_lines (MshedHexView *self)
{
  _mshed_hex_view_ensure_metrics (self);
  return (guint) MAX (1.0, floor (self->canvas.size.height / self->row_h));
}

void
mshed_hex_view_get_visible_range (MshedHexView *self,
                                  gsize        *start,
                                  gsize        *end)
{
  double value, bottom;
  gsize fl, first, last, ws, we;

  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  *start = *end = 0;
  if (self->document == NULL || self->canvas.size.height <= 0)
    return;
  _mshed_hex_view_ensure_metrics (self);
  hex_view_get_window (self, &ws, &we);
  value = gtk_adjustment_get_value (self->vadj);
  bottom = value + self->canvas.size.height;
  fl = hex_view_first_line (self);
  first = (gsize) (value / self->row_h);
  last = (gsize) ceil (bottom / self->row_h);  /* exclusive, partially visible lines count */
  last = MIN (last, hex_view_n_lines (self));
  *start = CLAMP ((fl + first) * self->bpl, ws, we);
  *end = CLAMP ((fl + last) * self->bpl, *start, we);
}

gboolean
mshed_hex_view_get_overlay (MshedHexView    *self,
                            gsize            offset,
                            MshedHexOverlay *out)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);
  return mshed_hex_model_get_overlay (self->model, offset, out);
}

gboolean
mshed_hex_view_get_insert_mode (MshedHexView *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);
  return self->insert_mode;
}

void
mshed_hex_view_set_insert_mode (MshedHexView *self,
                                gboolean      insert_mode)
{
  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  insert_mode = !!insert_mode;
  if (self->insert_mode == insert_mode)
    return;
  _mshed_hex_view_flush_pending (self);
  self->insert_mode = insert_mode;
  clamp_state (self);
  update_adjustment (self);
  _mshed_hex_view_update_status (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSERT_MODE]);
}

gboolean
mshed_hex_view_replace_bytes (MshedHexView  *self,
                              gsize          offset,
                              gsize          old_length,
                              GBytes        *bytes,
                              GError       **error)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  _mshed_hex_view_flush_pending (self);
  return mshed_hex_model_replace (self->model, offset, old_length, bytes, error);
}

const char *
mshed_hex_view_get_message (MshedHexView *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), NULL);
  return self->message;
}

void
_mshed_hex_view_set_text_column (MshedHexView *self,
                                 gboolean      text)
{
  _mshed_hex_view_flush_pending (self);
  self->in_text = text;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gint
_mshed_hex_view_get_pending_nibble (MshedHexView *self)
{
  return self->pending;
}
