/* mshed-hex-view-actions.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Search bar, go-to popover, bookmarks, clipboard and the hex.* widget actions.
 */
#define G_LOG_DOMAIN "mshed-hex-view"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <string.h>

#include "mshed-error.h"
#include "mshed-hex-view-private.h"

/* Search, go to, bookmarks, clipboard ------------------------------------------------------ */

static void
find_from_bar (MshedHexView *self,
               gboolean      backwards)
{
  g_autoptr(GError) error = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  MshedHexSearchKind kind = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->search_kind));

  if (text == NULL || *text == '\0')
    return;
  if (mshed_hex_view_find (self, kind, text, backwards, &error))
    gtk_label_set_text (GTK_LABEL (self->search_status), "");
  else
    gtk_label_set_text (GTK_LABEL (self->search_status),
                        error ? error->message : _("Not found"));
}

static void
search_activate_cb (MshedHexView *self)
{
  find_from_bar (self, FALSE);
}

static void
search_next_cb (MshedHexView *self)
{
  find_from_bar (self, FALSE);
}

static void
search_previous_cb (MshedHexView *self)
{
  find_from_bar (self, TRUE);
}

static void
search_stop_cb (MshedHexView *self)
{
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

/* What the Go to Offset box accepts: a file offset (0x… or decimal, as Problems, the address
 * column and mshed-cli show it), +N / −N from the cursor, or "end" (the last byte shown). */
static gboolean
parse_goto (MshedHexView *self,
            const char   *text,
            guint64      *out,
            GError      **error)
{
  g_autofree char *s = g_strstrip (g_strdup (text));
  guint64 cursor = mshed_hex_model_to_file_offset (self->model, self->cursor);
  gsize ws, we;
  const char *p = s;
  int sign = 0;
  guint64 v;
  char *end = NULL;

  hex_view_get_window (self, &ws, &we);
  if (g_ascii_strcasecmp (s, "end") == 0)
    {
      *out = mshed_hex_model_to_file_offset (self->model, we > ws ? we - 1 : ws);
      return TRUE;
    }
  if (*p == '+' || *p == '-')
    sign = *p++ == '+' ? 1 : -1;
  if (g_ascii_strncasecmp (p, "0x", 2) == 0)
    v = g_ascii_strtoull (p + 2, &end, 16);
  else
    v = g_ascii_strtoull (p, &end, 10);
  if (*p == '\0' || end == NULL || *end != '\0' || end == p ||
      (g_ascii_strncasecmp (p, "0x", 2) == 0 && p[2] == '\0'))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("“%s” is not an offset (0x… hexadecimal, decimal, +N, −N or “end”)"), text);
      return FALSE;
    }
  if (sign > 0)
    v = v > G_MAXUINT64 - cursor ? G_MAXUINT64 : cursor + v;
  else if (sign < 0)
    v = v > cursor ? G_MAXUINT64 : cursor - v;
  *out = v;
  return TRUE;
}

static void
goto_failed (MshedHexView *self,
             const char   *message)
{
  gtk_label_set_text (GTK_LABEL (self->goto_error), message);
  gtk_widget_set_visible (self->goto_error, TRUE);
  gtk_widget_add_css_class (self->goto_entry, "error");
}

static void
goto_activate_cb (MshedHexView *self)
{
  g_autoptr(GError) error = NULL;
  guint64 offset;

  if (!parse_goto (self, gtk_editable_get_text (GTK_EDITABLE (self->goto_entry)), &offset,
                   &error))
    {
      goto_failed (self, error->message);
      return;
    }
  if (!mshed_hex_view_goto_file_offset (self, offset))
    {
      guint64 first = mshed_hex_model_get_base_offset (self->model);
      gsize size = mshed_hex_model_get_file_size (self->model);
      g_autofree char *message =
        /* translators: go to offset: a file offset outside the model's bytes; the last two
         * are the file offsets of the model's first and last byte */
        g_strdup_printf (_("Offset out of range: this model's bytes run from file offset "
                           "0x%" PRIX64 " to 0x%" PRIX64),
                         first, first + (size > 0 ? size - 1 : 0));

      goto_failed (self, message);
      return;
    }
  gtk_widget_set_visible (self->goto_error, FALSE);
  gtk_widget_remove_css_class (self->goto_entry, "error");
  gtk_popover_popdown (GTK_POPOVER (self->goto_popover));
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
paste_ready_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(MshedHexView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);

  if (text == NULL)
    return;
  bytes = mshed_hex_parse_bytes (text, &error);
  if (bytes == NULL || !mshed_hex_view_paste_bytes (self, bytes, &error))
    _mshed_hex_view_refuse (self, error);
}

static void
action_cb (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  MshedHexView *self = MSHED_HEX_VIEW (widget);
  g_autofree char *unused = NULL;

  if (g_str_equal (action_name, "hex.copy"))
    unused = mshed_hex_view_copy_selection (self, MSHED_HEX_COPY_HEX, TRUE);
  else if (g_str_equal (action_name, "hex.copy-c-array"))
    unused = mshed_hex_view_copy_selection (self, MSHED_HEX_COPY_C_ARRAY, TRUE);
  else if (g_str_equal (action_name, "hex.copy-text"))
    unused = mshed_hex_view_copy_selection (self, MSHED_HEX_COPY_TEXT, TRUE);
  else if (g_str_equal (action_name, "hex.paste"))
    gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, paste_ready_cb,
                                   g_object_ref (self));
  else if (g_str_equal (action_name, "hex.select-all"))
    {
      gsize ws, we;

      hex_view_get_window (self, &ws, &we);
      mshed_hex_view_select_range (self, ws, we);
    }
  else if (g_str_equal (action_name, "hex.find"))
    {
      gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->search_bar), TRUE);
      gtk_widget_grab_focus (self->search_entry);
    }
  else if (g_str_equal (action_name, "hex.find-next"))
    find_from_bar (self, FALSE);
  else if (g_str_equal (action_name, "hex.find-previous"))
    find_from_bar (self, TRUE);
  else if (g_str_equal (action_name, "hex.goto"))
    {
      gsize fl = hex_view_first_line (self);
      double y = self->canvas.origin.y + ((self->cursor / self->bpl) - fl) * self->row_h -
                 gtk_adjustment_get_value (self->vadj);

      y = CLAMP (y, self->canvas.origin.y, self->canvas.origin.y + self->canvas.size.height);
      gtk_popover_set_pointing_to (GTK_POPOVER (self->goto_popover),
                                   &(GdkRectangle) { (int) hex_view_x_hex (self), (int) y,
                                                     (int) (self->cw * 2), (int) self->row_h });
      gtk_widget_set_visible (self->goto_error, FALSE);
      gtk_popover_popup (GTK_POPOVER (self->goto_popover));
      gtk_widget_grab_focus (self->goto_entry);
    }
  else if (g_str_equal (action_name, "hex.toggle-bookmark"))
    mshed_hex_view_toggle_bookmark (self);
  else if (g_str_equal (action_name, "hex.next-bookmark"))
    mshed_hex_view_next_bookmark (self, FALSE);
  else if (g_str_equal (action_name, "hex.previous-bookmark"))
    mshed_hex_view_next_bookmark (self, TRUE);
  else if (g_str_equal (action_name, "hex.show-file"))
    mshed_hex_view_show_resource (self, MSHED_HEX_SOURCE_FILE);
}

void
_mshed_hex_view_update_actions (MshedHexView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_doc = self->document != NULL;
  gsize ws = 0, we = 0;

  if (has_doc)
    hex_view_get_window (self, &ws, &we);
  gtk_widget_action_set_enabled (widget, "hex.copy", has_doc && we > ws);
  gtk_widget_action_set_enabled (widget, "hex.copy-c-array", has_doc && we > ws);
  gtk_widget_action_set_enabled (widget, "hex.copy-text", has_doc && we > ws);
  gtk_widget_action_set_enabled (widget, "hex.paste", has_doc);
  gtk_widget_action_set_enabled (widget, "hex.select-all", has_doc && we > ws);
  gtk_widget_action_set_enabled (widget, "hex.find", has_doc);
  gtk_widget_action_set_enabled (widget, "hex.find-next", has_doc);
  gtk_widget_action_set_enabled (widget, "hex.find-previous", has_doc);
  gtk_widget_action_set_enabled (widget, "hex.goto", has_doc);
  gtk_widget_action_set_enabled (widget, "hex.toggle-bookmark", has_doc);
  gtk_widget_action_set_enabled (widget, "hex.next-bookmark",
                                 has_doc && self->bookmarks->len > 0);
  gtk_widget_action_set_enabled (widget, "hex.previous-bookmark",
                                 has_doc && self->bookmarks->len > 0);
  gtk_widget_action_set_enabled (widget, "hex.show-file",
                                 has_doc && (mshed_hex_model_get_res_index (self->model) !=
                                             MSHED_HEX_SOURCE_FILE ||
                                             !mshed_hex_model_is_whole (self->model)));
}

/* Public API (search, bookmarks, clipboard) ---------------------------------------- */

gboolean
mshed_hex_view_paste_bytes (MshedHexView  *self,
                            GBytes        *bytes,
                            GError       **error)
{
  gsize n, start, old;
  gboolean ok;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  _mshed_hex_view_flush_pending (self);
  n = g_bytes_get_size (bytes);
  start = self->sel_end > self->sel_start ? self->sel_start : self->cursor;
  if (self->insert_mode && _mshed_hex_view_resizable_here (self))
    old = self->sel_end - self->sel_start;
  else
    old = n;  /* overwrite: never changes a length */
  ok = mshed_hex_model_replace (self->model, start, old, bytes, error);
  if (ok)
    {
      mshed_hex_view_select_range (self, start, start + n);
      _mshed_hex_view_set_message (self, NULL);
    }
  return ok;
}

gboolean
mshed_hex_view_find (MshedHexView       *self,
                     MshedHexSearchKind  kind,
                     const char         *text,
                     gboolean            backwards,
                     GError            **error)
{
  g_autoptr(GByteArray) pattern = NULL;
  g_autoptr(GByteArray) mask = NULL;
  gsize found, from;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->document == NULL)
    return FALSE;
  if (!mshed_hex_parse_pattern (kind, text, &pattern, &mask, error))
    return FALSE;
  if (backwards)
    from = self->cursor > 0 ? self->cursor - 1 : 0;
  else
    from = self->sel_end > self->sel_start ? self->sel_start + 1 : self->cursor + 1;
  if (!mshed_hex_model_find (self->model, pattern->data, mask->data, pattern->len, from,
                             backwards, &found))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND, _("Not found"));
      return FALSE;
    }
  mshed_hex_view_select_range (self, found, found + pattern->len);
  return TRUE;
}

gboolean
mshed_hex_view_toggle_bookmark (MshedHexView *self)
{
  MshedHexBookmark b;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  if (self->document == NULL)
    return FALSE;
  if (!mshed_hex_model_to_resource (self->model, self->cursor, &b.res_index, &b.offset))
    {
      b.res_index = -1;
      b.offset = self->cursor;
    }
  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      const MshedHexBookmark *o = &g_array_index (self->bookmarks, MshedHexBookmark, i);

      if (o->res_index == b.res_index && o->offset == b.offset)
        {
          g_array_remove_index (self->bookmarks, i);
          _mshed_hex_view_update_actions (self);
          gtk_widget_queue_draw (GTK_WIDGET (self));
          return FALSE;
        }
    }
  g_array_append_val (self->bookmarks, b);
  _mshed_hex_view_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

gboolean
mshed_hex_view_next_bookmark (MshedHexView *self,
                              gboolean      backwards)
{
  gsize best = G_MAXSIZE, wrap = G_MAXSIZE;
  gsize ws, we;
  gboolean file = mshed_hex_model_get_res_index (self->model) == MSHED_HEX_SOURCE_FILE;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), FALSE);

  hex_view_get_window (self, &ws, &we);
  for (guint i = 0; i < self->bookmarks->len; i++)
    {
      const MshedHexBookmark *b = &g_array_index (self->bookmarks, MshedHexBookmark, i);
      gsize v = b->res_index < 0 ? (file ? b->offset : G_MAXSIZE)
                                 : mshed_hex_model_from_resource (self->model, b->res_index,
                                                                  b->offset);

      if (v == G_MAXSIZE || v < ws || v >= we)
        continue;
      if (!backwards)
        {
          if (v > self->cursor && (best == G_MAXSIZE || v < best))
            best = v;
          if (wrap == G_MAXSIZE || v < wrap)
            wrap = v;
        }
      else
        {
          if (v < self->cursor && (best == G_MAXSIZE || v > best))
            best = v;
          if (wrap == G_MAXSIZE || v > wrap)
            wrap = v;
        }
    }
  if (best == G_MAXSIZE)
    best = wrap;
  if (best == G_MAXSIZE)
    return FALSE;
  return mshed_hex_view_goto_offset (self, best);
}

guint
mshed_hex_view_get_n_bookmarks (MshedHexView *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), 0);
  return self->bookmarks->len;
}

char *
mshed_hex_view_copy_selection (MshedHexView       *self,
                               MshedHexCopyFormat  format,
                               gboolean            to_clipboard)
{
  gsize start, end, avail = 0;
  const guint8 *p;
  char *text;

  g_return_val_if_fail (MSHED_IS_HEX_VIEW (self), NULL);

  if (self->document == NULL)
    return NULL;
  if (self->sel_end > self->sel_start)
    {
      start = self->sel_start;
      end = self->sel_end;
    }
  else
    {
      start = self->cursor;
      end = self->cursor + 1;
    }
  p = mshed_hex_model_peek (self->model, start, &avail);
  if (p == NULL)
    return NULL;
  text = mshed_hex_format_bytes (p, MIN (avail, end - start), format);
  if (to_clipboard)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  return text;
}

void
_mshed_hex_view_class_add_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, goto_activate_cb);

  gtk_widget_class_install_action (widget_class, "hex.copy", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.copy-c-array", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.copy-text", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.paste", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.select-all", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.find", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.find-next", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.find-previous", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.goto", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.toggle-bookmark", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.next-bookmark", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.previous-bookmark", NULL, action_cb);
  gtk_widget_class_install_action (widget_class, "hex.show-file", NULL, action_cb);
  gtk_widget_class_install_property_action (widget_class, "hex.insert-mode", "insert-mode");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "hex.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "hex.copy-c-array", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK,
                                       "hex.paste", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK,
                                       "hex.select-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "hex.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, 0, "hex.find-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, GDK_SHIFT_MASK,
                                       "hex.find-previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK,
                                       "hex.goto", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, GDK_CONTROL_MASK,
                                       "hex.toggle-bookmark", NULL);
  /* not F2: that edits (renames, opens a cell) in the other views */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK,
                                       "hex.next-bookmark", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK,
                                       "hex.previous-bookmark", NULL);

}
