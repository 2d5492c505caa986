/* mshed-data-inspector.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-data-inspector"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-data-inspector.h"
#include "mshed-error.h"
#include "mshed-hex-model.h"
#include "mshed-model.h"

typedef enum {
  ROW_U8,
  ROW_I8,
  ROW_U16,
  ROW_I16,
  ROW_U32,
  ROW_I32,
  ROW_F32,
  ROW_HEX,
  ROW_BINARY,
  ROW_FIELD,
  ROW_DECODED,
  ROW_SELECTORS,
  N_ROWS
} RowId;

typedef struct {
  const char *id;
  const char *label;   /* N_() */
  guint       size;    /* bytes read at the cursor (raw rows) */
  const char *tooltip; /* N_() */
} RowInfo;

static const RowInfo row_info[N_ROWS] = {
  { "u8", N_("u8"), 1, N_("Unsigned 8-bit integer") },
  { "i8", N_("i8"), 1, N_("Signed 8-bit integer") },
  { "u16", N_("u16"), 2, N_("Unsigned 16-bit integer, little-endian") },
  { "i16", N_("i16"), 2, N_("Signed 16-bit integer, little-endian") },
  { "u32", N_("u32"), 4, N_("Unsigned 32-bit integer, little-endian") },
  { "i32", N_("i32"), 4, N_("Signed 32-bit integer, little-endian") },
  { "f32", N_("f32"), 4, N_("32-bit IEEE float, little-endian") },
  { "hex", N_("Hex"), 4, N_("The four bytes at the cursor") },
  { "binary", N_("Binary"), 1, N_("The bits of the byte at the cursor, most significant first") },
  { "field", N_("Value"), 0, N_("The field's raw value (decimal, 0x… hexadecimal, “none”)") },
  { "decoded", N_("Decoded"), 0, N_("The value the spec's formula gives") },
  { "selectors", N_("Selectors"), 0, N_("The three 2-bit selectors s0 s1 s2 (0–2, or “none”); "
                                         "bits 6–15 are kept") },
};

struct _MshedDataInspector {
  GtkWidget     parent_instance;

  GtkWidget    *location_label;
  GtkWidget    *raw_grid;
  GtkWidget    *field_label;
  GtkWidget    *field_grid;
  GtkWidget    *error_label;
  GtkWidget    *hint_label;

  GtkWidget    *names[N_ROWS];
  GtkWidget    *entries[N_ROWS];
  gboolean      available[N_ROWS];

  MshedHexView *view;
  gulong        cursor_handler;
  gulong        contents_handler;

  /* what the cursor sits in */
  MshedHexOverlay overlay;
  gboolean      has_overlay;
  gboolean      refreshing;
};

G_DEFINE_FINAL_TYPE (MshedDataInspector, mshed_data_inspector, GTK_TYPE_WIDGET)

static gint
row_from_id (const char *id)
{
  for (guint i = 0; i < N_ROWS; i++)
    if (g_strcmp0 (row_info[i].id, id) == 0)
      return (gint) i;
  return -1;
}

static void
set_error (MshedDataInspector *self,
           const char         *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message ? message : "");
  gtk_widget_set_visible (self->error_label, message != NULL);
}

static void
set_row (MshedDataInspector *self,
         RowId               row,
         const char         *text,
         gboolean            visible,
         gboolean            editable)
{
  GtkWidget *entry = self->entries[row];

  self->available[row] = visible && text != NULL;
  gtk_widget_set_visible (self->names[row], visible);
  gtk_widget_set_visible (entry, visible);
  gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : "—");
  gtk_editable_set_editable (GTK_EDITABLE (entry), editable && text != NULL);
  gtk_widget_set_sensitive (entry, text != NULL);
  gtk_widget_remove_css_class (entry, "error");
}

/* The bit pattern of a byte as "0101 1010". */
static void
format_binary (guint8 b,
               char   out[10])
{
  guint k = 0;

  for (gint bit = 7; bit >= 0; bit--)
    {
      out[k++] = (b >> bit) & 1 ? '1' : '0';
      if (bit == 4)
        out[k++] = ' ';
    }
  out[k] = '\0';
}

static const MshedField *
cursor_field (MshedDataInspector *self)
{
  if (!self->has_overlay || self->overlay.field == NULL || self->overlay.record < 0 ||
      self->overlay.table == MSHED_TABLE_NONE)
    return NULL;
  return self->overlay.field;
}

static gboolean
is_sel_packed (const MshedField *f)
{
  return f != NULL && g_strcmp0 (f->name, "selPacked") == 0;
}

static void
refresh (MshedDataInspector *self)
{
  MshedHexModel *model;
  guint8 buf[8];
  gsize n = 0, ws, we, cursor;
  gboolean editable;
  const MshedField *f;
  char text[64];

  if (self->refreshing)
    return;
  self->refreshing = TRUE;
  self->has_overlay = FALSE;

  if (self->view == NULL || mshed_hex_view_get_document (self->view) == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->location_label), _("No cursor"));
      for (guint i = 0; i < N_ROWS; i++)
        set_row (self, i, NULL, i < ROW_FIELD, FALSE);
      gtk_widget_set_visible (self->field_label, FALSE);
      self->refreshing = FALSE;
      return;
    }

  model = mshed_hex_view_get_model (self->view);
  cursor = mshed_hex_view_get_cursor_offset (self->view);
  mshed_hex_model_get_window (model, &ws, &we);
  if (cursor < we)
    n = mshed_hex_model_read (model, cursor, buf, MIN ((gsize) sizeof buf, we - cursor));
  editable = n > 0 && mshed_hex_model_can_edit (model, cursor, NULL);

  {
    g_autofree char *address = mshed_hex_view_format_address (self->view, cursor);
    g_autofree char *offsets = mshed_hex_model_describe_offset (model, cursor);
    g_autofree char *loc = NULL;
    gint res = -1;
    gsize res_off;

    /* the file offset, as the hex view's address column, Problems and mshed-cli show it; the
     * offsets inside the resource and the nested model are in the tooltip */
    if (mshed_hex_view_get_cursor (self->view, &res, &res_off) && res == MSHED_HEX_SOURCE_UTF)
      {
        g_autofree char *path =
          mshed_utf_node_dup_path (mshed_hex_model_get_utf_node (model));

        /* translators: the data inspector's position: the cursor's file offset, then the
         * UTF file it is in */
        loc = g_strdup_printf (_("File offset 0x%s · %s"), address, path);
      }
    else if (res >= 0)
      {
        MshedModel *m = mshed_document_get_model (mshed_hex_view_get_document (self->view));
        const MshedNresEntry *e = mshed_nres_peek_entry (mshed_model_get_nres (m), (guint) res);

        /* translators: the data inspector's position: the cursor's file offset, then the NRes
         * type of the resource it is in */
        loc = g_strdup_printf (_("File offset 0x%s · Res%u"), address, e->type_id);
      }
    else
      /* translators: the data inspector's position outside any resource payload */
      loc = g_strdup_printf (_("File offset 0x%s (read-only)"), address);
    gtk_label_set_text (GTK_LABEL (self->location_label), loc);
    gtk_widget_set_tooltip_text (self->location_label, offsets);
  }

#define RAW(row, cond, ...) \
  G_STMT_START { \
    if (n >= row_info[row].size) \
      { \
        g_snprintf (text, sizeof text, __VA_ARGS__); \
        set_row (self, row, text, TRUE, editable); \
      } \
    else \
      set_row (self, row, NULL, TRUE, FALSE); \
  } G_STMT_END

  RAW (ROW_U8, 1, "%u", (guint) buf[0]);
  RAW (ROW_I8, 1, "%d", (gint) (gint8) buf[0]);
  RAW (ROW_U16, 1, "%u", (guint) mshed_read_u16 (buf));
  RAW (ROW_I16, 1, "%d", (gint) mshed_read_i16 (buf));
  RAW (ROW_U32, 1, "%u", mshed_read_u32 (buf));
  RAW (ROW_I32, 1, "%d", mshed_read_i32 (buf));
  if (n >= 4)
    {
      char num[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (num, sizeof num, "%.9g", mshed_read_f32 (buf));
      set_row (self, ROW_F32, num, TRUE, editable);
    }
  else
    set_row (self, ROW_F32, NULL, TRUE, FALSE);
  if (n > 0)
    {
      g_autofree char *hex = mshed_hex_format_bytes (buf, MIN (n, (gsize) 4), MSHED_HEX_COPY_HEX);

      set_row (self, ROW_HEX, hex, TRUE, editable);
      format_binary (buf[0], text);
      set_row (self, ROW_BINARY, text, TRUE, editable);
    }
  else
    {
      set_row (self, ROW_HEX, NULL, TRUE, FALSE);
      set_row (self, ROW_BINARY, NULL, TRUE, FALSE);
    }
#undef RAW

  /* the field the cursor sits in */
  if (cursor < we)
    self->has_overlay = mshed_hex_model_get_overlay (model, cursor, &self->overlay);
  f = cursor_field (self);
  if (self->has_overlay && self->overlay.kind != MSHED_HEX_OVERLAY_NONE)
    {
      g_autofree char *what = mshed_hex_overlay_describe (&self->overlay);

      gtk_label_set_text (GTK_LABEL (self->field_label), what);
      gtk_widget_set_visible (self->field_label, TRUE);
    }
  else
    gtk_widget_set_visible (self->field_label, FALSE);

  if (f != NULL)
    {
      guint8 rec[256];
      gsize fsize = mshed_field_type_size (f->type);
      gboolean have = fsize <= self->overlay.length && f->offset + fsize <= sizeof rec &&
                      mshed_hex_model_read (model, self->overlay.start, rec + f->offset,
                                            fsize) == fsize;
      /* directory records are not payload bytes, but their type and attributes are
       * document fields (mshed_document_set_field() on MSHED_TABLE_DIRECTORY) */
      gboolean dir_attr = self->overlay.table == MSHED_TABLE_DIRECTORY &&
                          (g_str_equal (f->name, "type") || g_str_has_prefix (f->name, "attr"));
      gboolean field_editable = have && (dir_attr ||
                                         mshed_hex_model_can_edit (model, self->overlay.start,
                                                                   NULL));
      g_autofree char *raw = have ? mshed_field_format (f, rec) : NULL;

      set_row (self, ROW_FIELD, raw, TRUE, field_editable);
      gtk_widget_set_tooltip_text (self->entries[ROW_FIELD], _(f->blurb));
      if (f->divisor > 0 && have)
        {
          double d = mshed_field_read (f, rec) / f->divisor;
          char num[G_ASCII_DTOSTR_BUF_SIZE];

          if (f->divisor == 127.0)
            d = CLAMP (d, -1.0, 1.0);
          g_ascii_formatd (num, sizeof num, "%.6g", d);
          set_row (self, ROW_DECODED, num, TRUE, field_editable);
          gtk_label_set_text (GTK_LABEL (self->names[ROW_DECODED]), _(f->blurb));
        }
      else
        set_row (self, ROW_DECODED, NULL, FALSE, FALSE);
      if (is_sel_packed (f) && have)
        {
          guint16 sp = (guint16) mshed_field_read (f, rec);
          GString *s = g_string_new (NULL);

          for (guint k = 0; k < 3; k++)
            {
              guint16 sel = mshed_selector (sp, k);

              if (k > 0)
                g_string_append_c (s, ' ');
              if (sel == MSHED_NONE)
                g_string_append (s, "none");
              else
                g_string_append_printf (s, "%u", sel);
            }
          set_row (self, ROW_SELECTORS, s->str, TRUE, field_editable);
          g_string_free (s, TRUE);
        }
      else
        set_row (self, ROW_SELECTORS, NULL, FALSE, FALSE);
    }
  else
    {
      set_row (self, ROW_FIELD, NULL, FALSE, FALSE);
      set_row (self, ROW_DECODED, NULL, FALSE, FALSE);
      set_row (self, ROW_SELECTORS, NULL, FALSE, FALSE);
    }

  self->refreshing = FALSE;
}

/* Committing ----------------------------------------------------------------------------- */

static gboolean
commit_raw (MshedDataInspector *self,
            RowId               row,
            const char         *text,
            GError            **error)
{
  static const MshedHexSearchKind kinds[] = {
    MSHED_HEX_SEARCH_U8, MSHED_HEX_SEARCH_I8, MSHED_HEX_SEARCH_U16, MSHED_HEX_SEARCH_I16,
    MSHED_HEX_SEARCH_U32, MSHED_HEX_SEARCH_I32, MSHED_HEX_SEARCH_F32,
  };
  g_autoptr(GBytes) bytes = NULL;
  gsize cursor = mshed_hex_view_get_cursor_offset (self->view);

  if (row <= ROW_F32)
    {
      g_autoptr(GByteArray) pattern = NULL;

      if (!mshed_hex_parse_pattern (kinds[row], text, &pattern, NULL, error))
        return FALSE;
      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&pattern));
    }
  else if (row == ROW_HEX)
    {
      gsize want = 0;
      gsize ws, we;

      mshed_hex_model_get_window (mshed_hex_view_get_model (self->view), &ws, &we);
      want = MIN ((gsize) 4, we - MIN (cursor, we));
      bytes = mshed_hex_parse_bytes (text, error);
      if (bytes == NULL)
        return FALSE;
      if (g_bytes_get_size (bytes) != want)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       g_dngettext (NULL, "Type exactly %zu byte (hex rows "
                                    "overwrite, they never insert)",
                                    "Type exactly %zu bytes (hex rows "
                                    "overwrite, they never insert)", want), want);
          return FALSE;
        }
    }
  else
    {
      guint8 b = 0;
      guint bits = 0;
      const char *p = text;

      while (g_ascii_isspace (*p))
        p++;
      if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
        p += 2;
      for (; *p; p++)
        {
          if (*p == ' ' || *p == '_')
            continue;
          if ((*p != '0' && *p != '1') || bits == 8)
            {
              bits = 99;
              break;
            }
          b = (guint8) ((b << 1) | (*p == '1'));
          bits++;
        }
      if (bits != 8)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("“%s” is not eight binary digits (e.g. 0101 1010)"), text);
          return FALSE;
        }
      bytes = g_bytes_new (&b, 1);
    }
  return mshed_hex_view_replace_bytes (self->view, cursor, g_bytes_get_size (bytes), bytes,
                                       error);
}

static gboolean
encode_decoded (const MshedDataInspector *self,
                const MshedField         *f,
                const char               *text,
                double                   *raw,
                GError                  **error)
{
  g_autofree char *s = g_strstrip (g_strdup (text));
  char *end = NULL;
  double v = g_ascii_strtod (s, &end);
  double lo = -1.0, hi = 1.0;

  if (*s == '\0' || end == NULL || *end != '\0' || !isfinite (v))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("“%s” is not a number (use a dot for decimals, e.g. 0.5)"), text);
      return FALSE;
    }
  if (f->divisor == 1024.0)
    {
      lo = -32.0;
      hi = 32767.0 / 1024.0;
    }
  if (v < lo || v > hi)
    {
      char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   /* translators: field name, the typed value, then the allowed range */
                   _("%s: %s is out of range: %s stores values from %s to %s"),
                   f->name, s, _(f->blurb), g_ascii_formatd (a, sizeof a, "%.6g", lo),
                   g_ascii_formatd (b, sizeof b, "%.6g", hi));
      return FALSE;
    }
  if (f->divisor == 127.0)
    *raw = mshed_encode_normal ((float) v);
  else if (f->divisor == 1024.0)
    *raw = mshed_encode_uv ((float) v);
  else if (self->overlay.table == MSHED_TABLE_KEYS)
    *raw = mshed_encode_quat ((float) v);
  else
    *raw = mshed_encode_tri_normal ((float) v);
  return TRUE;
}

static gboolean
parse_selectors (const char  *text,
                 guint16      current,
                 double      *raw,
                 GError     **error)
{
  g_auto(GStrv) tokens = g_strsplit_set (text, " ,;", -1);
  guint16 value = current & ~(guint16) 0x3F;
  guint k = 0;

  for (guint i = 0; tokens[i]; i++)
    {
      const char *t = tokens[i];
      guint sel = 0;

      if (*t == '\0')
        continue;
      if (g_ascii_strcasecmp (t, "none") == 0 || g_strcmp0 (t, "-") == 0 ||
          g_strcmp0 (t, "3") == 0)
        sel = 3;
      else if (t[1] == '\0' && t[0] >= '0' && t[0] <= '2')
        sel = (guint) (t[0] - '0');
      else
        k = 99;
      if (k >= 3)
        {
          k = 99;
          break;
        }
      value |= (guint16) (sel << (2 * k));
      k++;
    }
  if (k != 3)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("“%s” is not three selectors: type three values 0, 1, 2 or “none”, "
                     "e.g. “0 1 none”"), text);
      return FALSE;
    }
  *raw = value;
  return TRUE;
}

gboolean
mshed_data_inspector_commit (MshedDataInspector  *self,
                             const char          *row_id,
                             const char          *text,
                             GError             **error)
{
  MshedDocument *doc;
  const MshedField *f;
  gint row = row_from_id (row_id);
  gboolean ok;
  double raw = 0;

  g_return_val_if_fail (MSHED_IS_DATA_INSPECTOR (self), FALSE);
  g_return_val_if_fail (row >= 0, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  doc = self->view ? mshed_hex_view_get_document (self->view) : NULL;
  if (doc == NULL || !self->available[row])
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("There is no such value at the cursor"));
      return FALSE;
    }
  if (row < ROW_FIELD)
    ok = commit_raw (self, row, text, error);
  else
    {
      f = cursor_field (self);
      g_assert (f != NULL);
      if (row == ROW_FIELD)
        ok = mshed_document_set_field_text (doc, self->overlay.table, (guint) self->overlay.record,
                                            f->name, text, error);
      else
        {
          if (row == ROW_DECODED)
            ok = encode_decoded (self, f, text, &raw, error);
          else
            {
              guint8 rec[256];
              guint16 current = 0;

              if (mshed_hex_model_read (mshed_hex_view_get_model (self->view), self->overlay.start,
                                        rec, 2) == 2)
                current = mshed_read_u16 (rec);
              ok = parse_selectors (text, current, &raw, error);
            }
          ok = ok && mshed_document_set_field (doc, self->overlay.table,
                                               (guint) self->overlay.record, f->name, raw, error);
        }
    }
  refresh (self);
  return ok;
}

static void
entry_activate_cb (MshedDataInspector *self,
                   GtkEntry           *entry)
{
  g_autoptr(GError) error = NULL;
  const char *id = g_object_get_data (G_OBJECT (entry), "mshed-row");
  g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));

  if (mshed_data_inspector_commit (self, id, text, &error))
    {
      set_error (self, NULL);
      return;
    }
  /* keep what the user typed, show why it was refused */
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
  set_error (self, error->message);
  gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
view_changed_cb (MshedDataInspector *self)
{
  set_error (self, NULL);
  refresh (self);
}

/* GObject ------------------------------------------------------------------------------- */

static void
mshed_data_inspector_dispose (GObject *object)
{
  MshedDataInspector *self = MSHED_DATA_INSPECTOR (object);
  GtkWidget *child;

  mshed_data_inspector_set_hex_view (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), MSHED_TYPE_DATA_INSPECTOR);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (mshed_data_inspector_parent_class)->dispose (object);
}

static void
mshed_data_inspector_class_init (MshedDataInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_data_inspector_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/mshed/Mshed/mshed-data-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, MshedDataInspector, location_label);
  gtk_widget_class_bind_template_child (widget_class, MshedDataInspector, raw_grid);
  gtk_widget_class_bind_template_child (widget_class, MshedDataInspector, field_label);
  gtk_widget_class_bind_template_child (widget_class, MshedDataInspector, field_grid);
  gtk_widget_class_bind_template_child (widget_class, MshedDataInspector, error_label);
  gtk_widget_class_bind_template_child (widget_class, MshedDataInspector, hint_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "datainspector");
}

static void
mshed_data_inspector_init (MshedDataInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < N_ROWS; i++)
    {
      GtkWidget *grid = i < ROW_FIELD ? self->raw_grid : self->field_grid;
      int y = i < ROW_FIELD ? (int) i : (int) (i - ROW_FIELD);
      GtkWidget *name = gtk_label_new (_(row_info[i].label));
      GtkWidget *entry = gtk_entry_new ();

      gtk_label_set_xalign (GTK_LABEL (name), 1.0f);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (name), 18);
      gtk_widget_add_css_class (name, "dim-label");
      gtk_widget_set_tooltip_text (name, _(row_info[i].tooltip));
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_editable_set_width_chars (GTK_EDITABLE (entry), 14);
      gtk_widget_add_css_class (entry, "monospace");
      gtk_widget_set_tooltip_text (entry, _(row_info[i].tooltip));
      gtk_accessible_update_relation (GTK_ACCESSIBLE (entry),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, name, NULL, -1);
      g_object_set_data (G_OBJECT (entry), "mshed-row", (gpointer) row_info[i].id);
      g_signal_connect_object (entry, "activate", G_CALLBACK (entry_activate_cb), self,
                               G_CONNECT_SWAPPED);
      gtk_grid_attach (GTK_GRID (grid), name, 0, y, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), entry, 1, y, 1, 1);
      self->names[i] = name;
      self->entries[i] = entry;
    }
  refresh (self);
}

GtkWidget *
mshed_data_inspector_new (void)
{
  return g_object_new (MSHED_TYPE_DATA_INSPECTOR, NULL);
}

void
mshed_data_inspector_set_hex_view (MshedDataInspector *self,
                                   MshedHexView       *view)
{
  g_return_if_fail (MSHED_IS_DATA_INSPECTOR (self));
  g_return_if_fail (view == NULL || MSHED_IS_HEX_VIEW (view));

  if (self->view == view)
    return;
  if (self->view != NULL)
    {
      g_clear_signal_handler (&self->cursor_handler, self->view);
      g_clear_signal_handler (&self->contents_handler, self->view);
      g_clear_weak_pointer (&self->view);
    }
  if (view != NULL)
    {
      g_set_weak_pointer (&self->view, view);
      self->cursor_handler = g_signal_connect_object (view, "cursor-moved",
                                                      G_CALLBACK (view_changed_cb), self,
                                                      G_CONNECT_SWAPPED);
      self->contents_handler = g_signal_connect_object (view, "contents-changed",
                                                        G_CALLBACK (refresh), self,
                                                        G_CONNECT_SWAPPED);
    }
  set_error (self, NULL);
  if (self->entries[0] != NULL)
    refresh (self);
}

MshedHexView *
mshed_data_inspector_get_hex_view (MshedDataInspector *self)
{
  g_return_val_if_fail (MSHED_IS_DATA_INSPECTOR (self), NULL);
  return self->view;
}

const char *
mshed_data_inspector_get_location (MshedDataInspector *self)
{
  g_return_val_if_fail (MSHED_IS_DATA_INSPECTOR (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->location_label));
}

const char *
mshed_data_inspector_get_value (MshedDataInspector *self,
                                const char         *row_id)
{
  gint row = row_from_id (row_id);

  g_return_val_if_fail (MSHED_IS_DATA_INSPECTOR (self), NULL);
  g_return_val_if_fail (row >= 0, NULL);

  if (!self->available[row])
    return NULL;
  return gtk_editable_get_text (GTK_EDITABLE (self->entries[row]));
}
