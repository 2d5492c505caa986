/* mshed-hex-view-draw.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawing: one monospace PangoLayout per visible line for the offset, hex and text columns,
 * one for the field labels, and colour / gradient nodes for the overlays. Nothing is cached
 * per line, so a 10 MB source costs the same per frame as a 100-byte one.
 */
#define G_LOG_DOMAIN "mshed-hex-view"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-hex-view-private.h"

#define N_PALETTE 6

/* Overlay colours: translucent so the theme's background and text colours stay readable in
 * light and dark themes. Known fields cycle through hues that stay clear of red, which marks
 * unknown bytes (with hatching, so it does not rely on colour alone). */
static const GdkRGBA palette[N_PALETTE] = {
  { 0.208f, 0.518f, 0.894f, 0.26f },  /* blue */
  { 0.180f, 0.761f, 0.494f, 0.26f },  /* green */
  { 0.898f, 0.647f, 0.039f, 0.28f },  /* yellow */
  { 0.569f, 0.255f, 0.675f, 0.24f },  /* purple */
  { 0.059f, 0.643f, 0.690f, 0.26f },  /* teal */
  { 0.525f, 0.369f, 0.235f, 0.26f },  /* brown */
};
static const GdkRGBA unknown_fill = { 0.878f, 0.106f, 0.141f, 0.20f };
static const GdkRGBA container_fill = { 0.467f, 0.463f, 0.482f, 0.22f };

/* Colours --------------------------------------------------------------------------------- */

static void
lookup_color (MshedHexView *self,
              const char   *name,
              const char   *fallback_name,
              const GdkRGBA *fallback,
              GdkRGBA      *out)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  if (gtk_style_context_lookup_color (context, name, out))
    return;
  if (fallback_name && gtk_style_context_lookup_color (context, fallback_name, out))
    return;
  *out = *fallback;
}

/* Drawing --------------------------------------------------------------------------------- */

static GdkRGBA
overlay_color (const MshedHexOverlay *ov)
{
  GdkRGBA c;

  switch (ov->kind)
    {
    case MSHED_HEX_OVERLAY_KNOWN:
      return palette[ov->color % N_PALETTE];
    case MSHED_HEX_OVERLAY_UNKNOWN:
      c = unknown_fill;
      if (ov->color % 2)
        c.alpha *= 1.45f;
      return c;
    case MSHED_HEX_OVERLAY_CONTAINER:
      c = container_fill;
      if (ov->color % 2)
        c.alpha *= 1.8f;
      return c;
    case MSHED_HEX_OVERLAY_NONE:
    default:
      return (GdkRGBA) { 0, 0, 0, 0 };
    }
}

static void
append_hatch (GtkSnapshot           *snapshot,
              const graphene_rect_t *rect)
{
  static const GskColorStop stops[] = {
    { 0.0f, { 0, 0, 0, 0 } },
    { 0.55f, { 0, 0, 0, 0 } },
    { 0.55f, { 0.878f, 0.106f, 0.141f, 0.42f } },
    { 1.0f, { 0.878f, 0.106f, 0.141f, 0.42f } },
  };

  /* stripes anchored at the origin so neighbouring runs line up */
  gtk_snapshot_append_repeating_linear_gradient (snapshot, rect,
                                                 &GRAPHENE_POINT_INIT (0, 0),
                                                 &GRAPHENE_POINT_INIT (3.5f, 3.5f),
                                                 stops, G_N_ELEMENTS (stops));
}

static void
draw_run (MshedHexView          *self,
          GtkSnapshot           *snapshot,
          double                 y,
          guint                  i0,
          guint                  i1,     /* inclusive */
          gboolean               open_left,
          gboolean               open_right,
          const MshedHexOverlay *ov)
{
  GdkRGBA color = overlay_color (ov);
  graphene_rect_t r;
  double x0, x1, dummy;

  if (color.alpha <= 0)
    return;
  hex_view_hex_cell (self, i0, &x0, &dummy);
  hex_view_hex_cell (self, i1, &dummy, &x1);
  /* a 1-pixel seam where a field begins or ends, so neighbours of one colour separate */
  if (!open_left)
    x0 += 1;
  if (!open_right)
    x1 -= 1;
  graphene_rect_init (&r, (float) x0, (float) y, (float) (x1 - x0), (float) self->row_h - 1);
  gtk_snapshot_append_color (snapshot, &color, &r);
  if (ov->kind == MSHED_HEX_OVERLAY_UNKNOWN)
    append_hatch (snapshot, &r);

  x0 = hex_view_x_text (self) + i0 * self->cw + (open_left ? 0 : 1);
  x1 = hex_view_x_text (self) + (i1 + 1) * self->cw - (open_right ? 0 : 1);
  graphene_rect_init (&r, (float) x0, (float) y, (float) (x1 - x0), (float) self->row_h - 1);
  gtk_snapshot_append_color (snapshot, &color, &r);
  if (ov->kind == MSHED_HEX_OVERLAY_UNKNOWN)
    append_hatch (snapshot, &r);
}

static void
append_label (MshedHexView          *self,
              GString               *labels,
              PangoAttrList         *attrs,
              const MshedHexOverlay *ov,
              gint64                *last_record,
              MshedTableId          *last_table)
{
  GdkRGBA c = overlay_color (ov);
  PangoAttribute *a;
  guint start;

  if (labels->len > 0)
    g_string_append_c (labels, ' ');
  /* a record number where a record (or its table: Res2's header, then slot 0) begins */
  if (ov->record >= 0 && (ov->record != *last_record || ov->table != *last_table))
    {
      g_string_append_printf (labels, "#%" PRId64 " ", ov->record);
      *last_record = ov->record;
      *last_table = ov->table;
    }
  start = (guint) labels->len;
  g_string_append (labels, ov->label);
  if (c.alpha <= 0)
    return;
  a = pango_attr_background_new ((guint16) (c.red * 65535), (guint16) (c.green * 65535),
                                 (guint16) (c.blue * 65535));
  a->start_index = start;
  a->end_index = (guint) labels->len;
  pango_attr_list_insert (attrs, a);
  a = pango_attr_background_alpha_new ((guint16) (MIN (1.0f, c.alpha * 1.3f) * 65535));
  a->start_index = start;
  a->end_index = (guint) labels->len;
  pango_attr_list_insert (attrs, a);
}

static void
dim_range (PangoAttrList *attrs,
           guint          start,
           guint          end,
           guint16        alpha)
{
  PangoAttribute *a = pango_attr_foreground_alpha_new (alpha);

  a->start_index = start;
  a->end_index = end;
  pango_attr_list_insert (attrs, a);
}

static void
draw_text (MshedHexView  *self,
           GtkSnapshot   *snapshot,
           double         x,
           double         y,
           const char    *text,
           PangoAttrList *attrs,
           const GdkRGBA *color)
{
  pango_layout_set_text (self->layout, text, -1);
  pango_layout_set_attributes (self->layout, attrs);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) x,
                                                          (float) (y + self->baseline_pad)));
  gtk_snapshot_append_layout (snapshot, self->layout, color);
  gtk_snapshot_restore (snapshot);
}

static gboolean
is_bookmarked (MshedHexView *self,
               gsize         offset)
{
  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      const MshedHexBookmark *b = &g_array_index (self->bookmarks, MshedHexBookmark, i);
      gsize v = b->res_index < 0
                  ? (mshed_hex_model_get_res_index (self->model) == MSHED_HEX_SOURCE_FILE
                       ? b->offset : G_MAXSIZE)
                  : mshed_hex_model_from_resource (self->model, b->res_index, b->offset);

      if (v == offset)
        return TRUE;
    }
  return FALSE;
}

static void
draw_line (MshedHexView  *self,
           GtkSnapshot   *snapshot,
           gsize          line_start,
           double         y,
           const GdkRGBA *fg,
           const GdkRGBA *accent)
{
  g_autoptr(GString) grid = g_string_sized_new (128);
  g_autoptr(GString) labels = g_string_sized_new (64);
  PangoAttrList *grid_attrs = pango_attr_list_new ();
  PangoAttrList *label_attrs = pango_attr_list_new ();
  guint8 bytes[64];
  gsize ws, we, n_avail, o;
  gint64 last_record = -1;
  MshedTableId last_table = MSHED_TABLE_NONE;
  gboolean has_focus = gtk_widget_has_focus (GTK_WIDGET (self));
  GdkRGBA sel = *accent;

  hex_view_get_window (self, &ws, &we);
  n_avail = 0;
  if (line_start + self->bpl > ws && line_start < we)
    n_avail = mshed_hex_model_read (self->model, line_start, bytes, self->bpl);

  /* overlays and the labels of the fields that start on this line */
  o = MAX (line_start, ws);
  while (o < MIN (line_start + self->bpl, we))
    {
      MshedHexOverlay ov;
      gsize run_end;

      if (!mshed_hex_model_get_overlay (self->model, o, &ov))
        break;
      run_end = MIN (MIN (ov.start + ov.length, line_start + self->bpl), we);
      if (run_end <= o)
        run_end = o + 1;
      draw_run (self, snapshot, y, (guint) (o - line_start), (guint) (run_end - 1 - line_start),
                ov.start < o, ov.start + ov.length > run_end, &ov);
      if (ov.start >= line_start && ov.kind != MSHED_HEX_OVERLAY_NONE)
        append_label (self, labels, label_attrs, &ov, &last_record, &last_table);
      o = run_end;
    }

  /* bytes that differ from the other side (compare window): a fill in both columns */
  for (guint i = 0; self->marked != NULL && i < self->bpl && line_start + i < we; i++)
    if (mshed_hex_view_is_marked (self, line_start + i))
      {
        static const GdkRGBA changed = { 0.753f, 0.380f, 0.796f, 0.85f };  /* #c061cb */
        double x0, x1;

        hex_view_hex_cell (self, i, &x0, &x1);
        gtk_snapshot_append_color (snapshot, &changed,
                                   &GRAPHENE_RECT_INIT ((float) x0, (float) y,
                                                        (float) (x1 - x0),
                                                        (float) self->row_h - 1));
        gtk_snapshot_append_color (snapshot, &changed,
                                   &GRAPHENE_RECT_INIT ((float) (hex_view_x_text (self) +
                                                                 i * self->cw), (float) y,
                                                        (float) self->cw,
                                                        (float) self->row_h - 1));
      }

  /* selection: a light fill and an outline around the selected region */
  if (self->sel_end > self->sel_start &&
      self->sel_start < line_start + self->bpl && self->sel_end > line_start)
    {
      guint i0 = (guint) (MAX (self->sel_start, line_start) - line_start);
      guint i1 = (guint) (MIN (self->sel_end, line_start + self->bpl) - 1 - line_start);
      GdkRGBA edge = *accent;

      sel.alpha = 0.20f;
      edge.alpha = has_focus ? 0.95f : 0.6f;
      for (guint col = 0; col < 2; col++)
        {
          double x0, x1, dummy;

          if (col == 0)
            {
              hex_view_hex_cell (self, i0, &x0, &dummy);
              hex_view_hex_cell (self, i1, &dummy, &x1);
            }
          else
            {
              x0 = hex_view_x_text (self) + i0 * self->cw;
              x1 = hex_view_x_text (self) + (i1 + 1) * self->cw;
            }
          gtk_snapshot_append_color (snapshot, &sel,
                                     &GRAPHENE_RECT_INIT ((float) x0, (float) y,
                                                          (float) (x1 - x0),
                                                          (float) self->row_h - 1));
          /* left and right ends of this line's run */
          gtk_snapshot_append_color (snapshot, &edge,
                                     &GRAPHENE_RECT_INIT ((float) x0, (float) y, 1,
                                                          (float) self->row_h));
          gtk_snapshot_append_color (snapshot, &edge,
                                     &GRAPHENE_RECT_INIT ((float) x1 - 1, (float) y, 1,
                                                          (float) self->row_h));
          /* top and bottom edges where the neighbour line's byte is not selected */
          for (guint i = i0; i <= i1; i++)
            {
              gsize off = line_start + i;
              double c0, c1;
              gboolean top = off < self->sel_start + self->bpl;
              gboolean bottom = off + self->bpl >= self->sel_end;

              if (col == 0)
                hex_view_hex_cell (self, i, &c0, &c1);
              else
                {
                  c0 = hex_view_x_text (self) + i * self->cw;
                  c1 = c0 + self->cw;
                }
              if (top)
                gtk_snapshot_append_color (snapshot, &edge,
                                           &GRAPHENE_RECT_INIT ((float) c0, (float) y,
                                                                (float) (c1 - c0), 1));
              if (bottom)
                gtk_snapshot_append_color (snapshot, &edge,
                                           &GRAPHENE_RECT_INIT ((float) c0,
                                                                (float) (y + self->row_h - 1),
                                                                (float) (c1 - c0), 1));
            }
        }
    }

  /* the grid text: address (the file offset, as everywhere), hex, text */
  {
    g_autofree char *address = mshed_hex_view_format_address (self, line_start);

    g_string_append_printf (grid, "%s  ", address);
  }
  dim_range (grid_attrs, 0, self->offset_digits, 0x9000);
  for (guint i = 0; i < self->bpl; i++)
    {
      gsize off = line_start + i;

      if (i > 0)
        g_string_append_c (grid, ' ');
      if (i > 0 && i % 8 == 0)
        g_string_append_c (grid, ' ');
      if (off >= ws && off < we && i < n_avail)
        {
          guint8 b = bytes[i];

          if (self->pending >= 0 && off == self->cursor)
            g_string_append_printf (grid, "%X%X", (guint) self->pending, (guint) (b & 0x0F));
          else
            g_string_append_printf (grid, "%02X", b);
          if (b == 0 && !(self->pending >= 0 && off == self->cursor))
            dim_range (grid_attrs, (guint) grid->len - 2, (guint) grid->len, 0x6000);
        }
      else
        g_string_append (grid, "  ");
    }
  g_string_append (grid, "  ");
  for (guint i = 0; i < self->bpl; i++)
    {
      gsize off = line_start + i;

      if (off >= ws && off < we && i < n_avail)
        {
          guint8 b = bytes[i];
          gboolean printable = b >= 0x20 && b < 0x7F;

          g_string_append_c (grid, printable ? (char) b : '.');
          if (!printable)
            dim_range (grid_attrs, (guint) grid->len - 1, (guint) grid->len, 0x6000);
        }
      else
        g_string_append_c (grid, ' ');
    }
  draw_text (self, snapshot, self->canvas.origin.x + HEX_VIEW_PAD_X, y, grid->str, grid_attrs, fg);

  if (labels->len > 0)
    {
      double avail = self->canvas.origin.x + self->canvas.size.width -
                     hex_view_x_labels (self) - HEX_VIEW_PAD_X;

      if (avail > self->cw * 4)
        {
          pango_layout_set_width (self->layout, (int) (avail * PANGO_SCALE));
          pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
          draw_text (self, snapshot, hex_view_x_labels (self), y, labels->str, label_attrs, fg);
          pango_layout_set_width (self->layout, -1);
          pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_NONE);
        }
    }

  /* bookmarks: a bar under the byte in both columns and a dot before the offset */
  if (self->bookmarks->len > 0)
    for (guint i = 0; i < self->bpl; i++)
      if (line_start + i < we && is_bookmarked (self, line_start + i))
        {
          double x0, x1;
          float bar_y = (float) (y + self->row_h - 4);
          float tx = (float) (hex_view_x_text (self) + i * self->cw);

          hex_view_hex_cell (self, i, &x0, &x1);
          gtk_snapshot_append_color (snapshot, accent,
                                     &GRAPHENE_RECT_INIT ((float) x0 + 1, bar_y,
                                                          (float) (x1 - x0 - 2), 3));
          gtk_snapshot_append_color (snapshot, accent,
                                     &GRAPHENE_RECT_INIT (tx, bar_y, (float) self->cw, 3));
          gtk_snapshot_append_color (snapshot, accent,
                                     &GRAPHENE_RECT_INIT ((float) (self->canvas.origin.x + 1),
                                                          (float) (y + self->row_h / 2 - 2),
                                                          4, 4));
        }

  /* cursor: a strong box in the active column, a thin one in the other */
  if (self->cursor >= line_start && self->cursor < line_start + self->bpl)
    {
      guint i = (guint) (self->cursor - line_start);
      double x0, x1;
      GskRoundedRect hex_box, text_box;
      GdkRGBA c = *accent;
      GdkRGBA c_dim = *accent;
      float wa = 2, wb = 1;
      float bw_hex[4], bw_text[4];
      GdkRGBA col_hex[4], col_text[4];

      if (!has_focus)
        c.alpha = 0.6f;
      c_dim.alpha = 0.6f;
      hex_view_hex_cell (self, i, &x0, &x1);
      if (self->pending >= 0)
        x1 = x0 + (x1 - x0) / 2 + self->cw * 0.1;  /* the low nibble is next */
      gsk_rounded_rect_init_from_rect (&hex_box,
                                       &GRAPHENE_RECT_INIT ((float) x0, (float) y,
                                                            (float) (x1 - x0),
                                                            (float) self->row_h - 1), 2);
      gsk_rounded_rect_init_from_rect (&text_box,
                                       &GRAPHENE_RECT_INIT ((float) (hex_view_x_text (self) +
                                                                     i * self->cw),
                                                            (float) y, (float) self->cw,
                                                            (float) self->row_h - 1), 1);
      for (guint k = 0; k < 4; k++)
        {
          bw_hex[k] = self->in_text ? wb : wa;
          bw_text[k] = self->in_text ? wa : wb;
          col_hex[k] = self->in_text ? c_dim : c;
          col_text[k] = self->in_text ? c : c_dim;
        }
      gtk_snapshot_append_border (snapshot, &hex_box, bw_hex, col_hex);
      gtk_snapshot_append_border (snapshot, &text_box, bw_text, col_text);
    }

  pango_attr_list_unref (grid_attrs);
  pango_attr_list_unref (label_attrs);
}

static void
snapshot_canvas (MshedHexView *self,
                 GtkSnapshot  *snapshot)
{
  GdkRGBA fg, accent;
  double value, y;
  gsize fl, nl, line;
  const GdkRGBA accent_fallback = { 0.208f, 0.518f, 0.894f, 1.0f };

  if (self->canvas.size.width <= 0 || self->canvas.size.height <= 0 || self->document == NULL)
    return;
  _mshed_hex_view_ensure_metrics (self);
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), &fg);
  lookup_color (self, "accent_bg_color", "theme_selected_bg_color", &accent_fallback, &accent);
  /* lines drawn in the accent colour: pulled toward the text colour so they keep their
   * contrast on light and dark backgrounds (dark Adwaita's accent is a dark blue) */
  accent.red = accent.red * 0.65f + fg.red * 0.35f;
  accent.green = accent.green * 0.65f + fg.green * 0.35f;
  accent.blue = accent.blue * 0.65f + fg.blue * 0.35f;

  gtk_snapshot_push_clip (snapshot, &self->canvas);
  value = gtk_adjustment_get_value (self->vadj);
  fl = hex_view_first_line (self);
  nl = hex_view_n_lines (self);
  line = (gsize) (value / self->row_h);
  y = self->canvas.origin.y - (value - line * self->row_h);
  for (; line < nl && y < self->canvas.origin.y + self->canvas.size.height; line++)
    {
      draw_line (self, snapshot, (fl + line) * self->bpl, y, &fg, &accent);
      y += self->row_h;
    }
  gtk_snapshot_pop (snapshot);
}

void
_mshed_hex_view_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  MshedHexView *self = MSHED_HEX_VIEW (widget);

  snapshot_canvas (self, snapshot);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    if (!GTK_IS_POPOVER (child))
      gtk_widget_snapshot_child (widget, child, snapshot);
}


/* Bytes that differ (the compare window) ------------------------------------------------- */

void
mshed_hex_view_set_marked (MshedHexView *self,
                           GBytes       *mask)
{
  g_return_if_fail (MSHED_IS_HEX_VIEW (self));

  if (mask != NULL)
    g_bytes_ref (mask);
  g_clear_pointer (&self->marked, g_bytes_unref);
  self->marked = mask;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
mshed_hex_view_is_marked (MshedHexView *self,
                          gsize         offset)
{
  gsize n = 0;
  const guint8 *mask;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  if (self->marked == NULL)
    return FALSE;
  mask = g_bytes_get_data (self->marked, &n);
  return offset < n && mask[offset] != 0;
}

GtkAdjustment *
mshed_hex_view_get_vadjustment (MshedHexView *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), NULL);

  return self->vadj;
}
