/* mshed-utf-leaf-editor.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-utf-leaf-editor"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-dfm-schema.h"
#include "mshed-utf-leaf-editor.h"

/* arrays longer than this are edited in the grids or the hex view */
#define MAX_ELEMENTS 256u

struct _MshedUtfLeafEditor
{
  GtkWidget         parent_instance;

  MshedDocument    *document;
  gulong            changed_id;
  MshedUtfNode     *node;       /* in the document's tree (checked on every change) */
  MshedUtfLeafKind  kind;
  gboolean          resizable;
  gboolean          is_unsigned;
  GPtrArray        *entries;    /* GtkEntry per element (or the string's) */
  GtkWidget        *colour_button; /* a colour's picker, NULL */
  gboolean          syncing;    /* setting the picker from the bytes */
  guint             focus_after; /* the entry to focus after a rebuild, G_MAXUINT none */

  GtkWidget        *scroller;
  GtkWidget        *box;
  GtkWidget        *error_label;
};

G_DEFINE_FINAL_TYPE (MshedUtfLeafEditor, mshed_utf_leaf_editor, GTK_TYPE_WIDGET)

static void rebuild (MshedUtfLeafEditor *self);

/* Kinds ----------------------------------------------------------------------------------- */

static gboolean
looks_like_text (const guint8 *data,
                 gsize         size)
{
  if (size == 0 || data[size - 1] != 0)
    return FALSE;
  for (gsize i = 0; i + 1 < size; i++)
    if (data[i] < 0x20 || data[i] == 0x7F)
      return FALSE;
  return TRUE;
}

static MshedUtfLeafKind
kind_for_schema (const MshedDfmTableInfo *info,
                 gsize                    size,
                 gboolean                *resizable,
                 gboolean                *is_unsigned)
{
  MshedFieldType type;

  if (info->stride == 0)
    return MSHED_UTF_LEAF_STRING;
  if (info->n_fields == 0 || size % 4 != 0 || info->n_texts > 0)
    return MSHED_UTF_LEAF_UNTYPED;
  type = info->fields[0].type;
  for (guint i = 0; i < info->n_fields; i++)
    if (info->fields[i].type != type || info->fields[i].offset != 4 * i)
      return MSHED_UTF_LEAF_UNTYPED;
  if (info->stride != 4 * info->n_fields)
    return MSHED_UTF_LEAF_UNTYPED;
  *resizable = !info->single;
  *is_unsigned = type == MSHED_FIELD_U32;
  if (type == MSHED_FIELD_F32)
    {
      if (info->id == MSHED_DFM_TABLE_MATERIAL_DC)
        return MSHED_UTF_LEAF_COLOUR;
      if (info->single && info->n_fields == 3)
        return MSHED_UTF_LEAF_VECTOR;
      return MSHED_UTF_LEAF_FLOAT;
    }
  if (type == MSHED_FIELD_I32 || type == MSHED_FIELD_U32)
    return MSHED_UTF_LEAF_INT32;
  return MSHED_UTF_LEAF_UNTYPED;
}

static MshedUtfLeafKind
kind_full (MshedDocument *document,
           MshedUtfNode  *node,
           gboolean      *resizable,
           gboolean      *is_unsigned)
{
  static const char *colours[] = { "Dc", "Ac", "Ec" };
  const char *name;
  const guint8 *data;
  gsize size = 0;

  *resizable = FALSE;
  *is_unsigned = FALSE;
  if (document == NULL || node == NULL || mshed_utf_node_is_directory (node))
    return MSHED_UTF_LEAF_UNTYPED;
  data = mshed_utf_node_peek_data (node, &size);
  if (mshed_document_get_dfm (document) != NULL)
    {
      const MshedDfmTableInfo *info =
        mshed_dfm_schema_get_table (mshed_dfm_schema_table_for_node (node));

      if (info != NULL)
        return kind_for_schema (info, size, resizable, is_unsigned);
    }
  /* well-known leaves of other UTF files (materials, hardpoints) */
  name = mshed_utf_node_get_name (node);
  for (guint i = 0; i < G_N_ELEMENTS (colours); i++)
    if (g_ascii_strcasecmp (name, colours[i]) == 0 && (size == 12 || size == 16))
      {
        *resizable = TRUE;  /* with or without alpha */
        return MSHED_UTF_LEAF_COLOUR;
      }
  if (g_ascii_strcasecmp (name, "Position") == 0 && size == 12)
    return MSHED_UTF_LEAF_VECTOR;
  if (looks_like_text (data, size))
    return MSHED_UTF_LEAF_STRING;
  return MSHED_UTF_LEAF_UNTYPED;
}

MshedUtfLeafKind
mshed_utf_leaf_kind_for_node (MshedDocument *document,
                              MshedUtfNode  *node,
                              gboolean      *resizable)
{
  gboolean r, u;
  MshedUtfLeafKind kind = kind_full (document, node, &r, &u);

  if (resizable != NULL)
    *resizable = r;
  return kind;
}

/* Edits ------------------------------------------------------------------------------------- */

static void
show_error (MshedUtfLeafEditor *self,
            const char         *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message ? message : "");
  gtk_widget_set_visible (self->error_label, message != NULL);
  if (message != NULL)
    gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
commit (MshedUtfLeafEditor *self,
        GBytes             *data,
        guint               focus_after)
{
  g_autoptr(GError) error = NULL;

  self->focus_after = focus_after;
  if (!mshed_document_utf_set_data (self->document, self->node, data, &error))
    {
      self->focus_after = G_MAXUINT;
      show_error (self, error->message);
    }
}

/* Parses @text as element @kind into @out (4 bytes, little-endian). */
static gboolean
parse_element (MshedUtfLeafEditor *self,
               const char         *text,
               guint8             *out,
               GError            **error)
{
  g_autofree char *t = g_strstrip (g_strdup (text));

  if (self->kind == MSHED_UTF_LEAF_INT32)
    {
      gint64 s = 0;
      guint64 u = 0;

      if (self->is_unsigned
          ? !g_ascii_string_to_unsigned (t, 10, 0, G_MAXUINT32, &u, error)
          : !g_ascii_string_to_signed (t, 10, G_MININT32, G_MAXINT32, &s, error))
        return FALSE;
      mshed_write_u32 (out, self->is_unsigned ? (guint32) u : (guint32) (gint32) s);
      return TRUE;
    }
  else
    {
      char *end = NULL;
      double d = g_ascii_strtod (t, &end);
      float f = (float) d;
      guint32 bits;

      if (*t == '\0' || end == NULL || *end != '\0' || !isfinite (f))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("“%s” is not a finite 32-bit float"), t);
          return FALSE;
        }
      memcpy (&bits, &f, 4);
      mshed_write_u32 (out, bits);
      return TRUE;
    }
}

static void
element_activate_cb (GtkEntry           *entry,
                     MshedUtfLeafEditor *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "index"));
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *copy = NULL;
  const guint8 *data;
  gsize size = 0;

  data = mshed_utf_node_peek_data (self->node, &size);
  if ((gsize) index * 4 + 4 > size)
    return;
  copy = g_memdup2 (data, size);
  if (!parse_element (self, gtk_editable_get_text (GTK_EDITABLE (entry)), copy + index * 4,
                      &error))
    {
      show_error (self, error->message);
      return;
    }
  if (memcmp (copy, data, size) == 0)
    return;
  {
    g_autoptr(GBytes) bytes = g_bytes_new (copy, size);

    commit (self, bytes, index + 1 < self->entries->len ? index + 1 : index);
  }
}

static void
string_activate_cb (GtkEntry           *entry,
                    MshedUtfLeafEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) encoded = mshed_utf8_to_cp1251 (gtk_editable_get_text (GTK_EDITABLE (entry)),
                                                    &error);
  g_autofree guint8 *buf = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize len = 0;

  if (encoded == NULL)
    {
      show_error (self, error->message);
      return;
    }
  /* the text and its final NUL (docs/dfm.md §3: strings end in one) */
  len = g_bytes_get_size (encoded);
  buf = g_malloc0 (len + 1);
  memcpy (buf, g_bytes_get_data (encoded, NULL), len);
  bytes = g_bytes_new (buf, len + 1);
  if (!g_bytes_equal (bytes, mshed_utf_node_get_data (self->node)))
    commit (self, bytes, 0);
}

static void
resize_clicked_cb (GtkButton          *button,
                   MshedUtfLeafEditor *self)
{
  gboolean add = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "add"));
  const guint8 *data;
  gsize size = 0;
  g_autofree guint8 *buf = NULL;
  g_autoptr(GBytes) bytes = NULL;

  data = mshed_utf_node_peek_data (self->node, &size);
  if (!add && size < 4)
    return;
  buf = g_malloc0 (size + 4);
  memcpy (buf, data, size);
  if (add && self->kind == MSHED_UTF_LEAF_COLOUR)
    mshed_write_u32 (buf + size, 0x3F800000u);  /* alpha 1.0 */
  bytes = g_bytes_new (buf, add ? size + 4 : size - 4);
  commit (self, bytes, add ? (guint) (size / 4) : G_MAXUINT);
}

/* A colour picked: its 3 or 4 floats (docs/conventions.md, "Typed UTF leaves"). */
static void
colour_picked_cb (GtkColorChooser    *chooser,
                  GParamSpec         *pspec,
                  MshedUtfLeafEditor *self)
{
  GdkRGBA rgba;
  float values[4];
  guint8 buf[16];
  gsize size = 0;
  g_autoptr(GBytes) bytes = NULL;

  if (self->syncing)
    return;
  mshed_utf_node_peek_data (self->node, &size);
  if (size != 12 && size != 16)
    return;
  gtk_color_chooser_get_rgba (chooser, &rgba);
  values[0] = rgba.red;
  values[1] = rgba.green;
  values[2] = rgba.blue;
  values[3] = rgba.alpha;
  for (guint i = 0; i < size / 4; i++)
    {
      guint32 bits;

      memcpy (&bits, &values[i], 4);
      mshed_write_u32 (buf + 4 * i, bits);
    }
  bytes = g_bytes_new (buf, size);
  if (!g_bytes_equal (bytes, mshed_utf_node_get_data (self->node)))
    commit (self, bytes, G_MAXUINT);
}

/* Building ---------------------------------------------------------------------------------- */

static const char *
element_label (MshedUtfLeafKind kind,
               guint            index,
               char             buf[16])
{
  static const char *rgba[] = { "r", "g", "b", "a" };
  static const char *xyz[] = { "x", "y", "z" };

  if (kind == MSHED_UTF_LEAF_COLOUR && index < 4)
    return rgba[index];
  if (kind == MSHED_UTF_LEAF_VECTOR && index < 3)
    return xyz[index];
  g_snprintf (buf, 16, "[%u]", index);
  return buf;
}

static const char *
kind_title (MshedUtfLeafKind kind)
{
  switch (kind)
    {
    case MSHED_UTF_LEAF_STRING: return _("Text");
    case MSHED_UTF_LEAF_INT32: return _("32-bit integers");
    case MSHED_UTF_LEAF_FLOAT: return _("32-bit floats");
    case MSHED_UTF_LEAF_COLOUR: return _("Colour (red, green, blue, alpha)");
    case MSHED_UTF_LEAF_VECTOR: return _("Vector (x, y, z)");
    case MSHED_UTF_LEAF_UNTYPED:
    default: return NULL;
    }
}

static void
clear_box (MshedUtfLeafEditor *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);
  g_ptr_array_set_size (self->entries, 0);
  self->colour_button = NULL;
}

static GtkWidget *
note (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
build_array (MshedUtfLeafEditor *self,
             const guint8       *data,
             gsize               size)
{
  GtkWidget *grid = gtk_grid_new ();
  guint n = (guint) (size / 4);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  for (guint i = 0; i < n; i++)
    {
      char buf[16];
      GtkWidget *label = gtk_label_new (element_label (self->kind, i, buf));
      GtkWidget *entry = gtk_entry_new ();
      guint32 v = mshed_read_u32 (data + 4 * i);
      char text[G_ASCII_DTOSTR_BUF_SIZE];

      if (self->kind == MSHED_UTF_LEAF_INT32 && self->is_unsigned)
        g_snprintf (text, sizeof text, "%u", v);
      else if (self->kind == MSHED_UTF_LEAF_INT32)
        g_snprintf (text, sizeof text, "%d", (gint32) v);
      else
        {
          float f;

          memcpy (&f, &v, 4);
          g_ascii_formatd (text, sizeof text, "%.9g", f);
        }
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_editable_set_text (GTK_EDITABLE (entry), text);
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_widget_add_css_class (entry, "numeric");
      g_object_set_data (G_OBJECT (entry), "index", GUINT_TO_POINTER (i));
      g_signal_connect (entry, "activate", G_CALLBACK (element_activate_cb), self);
      gtk_grid_attach (GTK_GRID (grid), label, 0, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), entry, 1, (int) i, 1, 1);
      g_ptr_array_add (self->entries, entry);
    }
  gtk_box_append (GTK_BOX (self->box), grid);
  if (self->kind == MSHED_UTF_LEAF_COLOUR && (n == 3 || n == 4))
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      GtkWidget *label = gtk_label_new_with_mnemonic (_("_Pick"));
      GdkRGBA rgba = { 0, 0, 0, 1 };
      float *channels[4] = { &rgba.red, &rgba.green, &rgba.blue, &rgba.alpha };

      /* the picker shows a value outside 0…1 at its end of the range */
      for (guint i = 0; i < n; i++)
        {
          guint32 v = mshed_read_u32 (data + 4 * i);
          float f;

          memcpy (&f, &v, 4);
          *channels[i] = isfinite (f) ? CLAMP (f, 0.0f, 1.0f) : 0.0f;
        }
      self->colour_button = gtk_color_button_new ();
      gtk_color_chooser_set_use_alpha (GTK_COLOR_CHOOSER (self->colour_button), n == 4);
      self->syncing = TRUE;
      gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (self->colour_button), &rgba);
      self->syncing = FALSE;
      gtk_color_button_set_title (GTK_COLOR_BUTTON (self->colour_button), _("Pick a Colour"));
      gtk_widget_set_tooltip_text (self->colour_button,
                                   _("Pick the colour: one undo step"));
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), self->colour_button);
      gtk_widget_add_css_class (label, "dim-label");
      g_signal_connect (self->colour_button, "notify::rgba", G_CALLBACK (colour_picked_cb),
                        self);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (row), self->colour_button);
      gtk_box_append (GTK_BOX (self->box), row);
    }
  if (self->resizable)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *plus = gtk_button_new_from_icon_name ("list-add-symbolic");
      GtkWidget *minus = gtk_button_new_from_icon_name ("list-remove-symbolic");
      gboolean colour = self->kind == MSHED_UTF_LEAF_COLOUR;

      gtk_widget_set_tooltip_text (plus, colour ? _("Add an alpha value (1)")
                                                : _("Add an element (0) at the end"));
      gtk_widget_set_tooltip_text (minus, colour ? _("Remove the alpha value")
                                                 : _("Remove the last element"));
      gtk_widget_set_sensitive (plus, !colour || n == 3);
      gtk_widget_set_sensitive (minus, colour ? n == 4 : n > 0);
      g_object_set_data (G_OBJECT (plus), "add", GINT_TO_POINTER (TRUE));
      g_signal_connect (plus, "clicked", G_CALLBACK (resize_clicked_cb), self);
      g_signal_connect (minus, "clicked", G_CALLBACK (resize_clicked_cb), self);
      gtk_box_append (GTK_BOX (row), minus);
      gtk_box_append (GTK_BOX (row), plus);
      gtk_widget_set_halign (row, GTK_ALIGN_END);
      gtk_box_append (GTK_BOX (self->box), row);
    }
}

static void
rebuild (MshedUtfLeafEditor *self)
{
  const guint8 *data;
  gsize size = 0;
  GtkWidget *title;
  g_autofree char *path = NULL;

  clear_box (self);
  show_error (self, NULL);
  self->kind = kind_full (self->document, self->node, &self->resizable, &self->is_unsigned);
  if (self->kind == MSHED_UTF_LEAF_UNTYPED)
    {
      gtk_box_append (GTK_BOX (self->box),
                      note (self->node == NULL || mshed_utf_node_is_directory (self->node)
                            ? _("Select a file of the UTF tree to edit its value.")
                            : _("This file has no known type: edit its bytes in the Hex "
                                "view.")));
      return;
    }
  data = mshed_utf_node_peek_data (self->node, &size);
  path = mshed_utf_node_dup_path (self->node);
  title = gtk_label_new (kind_title (self->kind));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (self->box), title);
  gtk_box_append (GTK_BOX (self->box), note (path));
  if (self->kind == MSHED_UTF_LEAF_STRING)
    {
      GtkWidget *entry = gtk_entry_new ();
      gsize len = 0;
      g_autofree char *text = NULL;

      /* up to the first NUL (a string table's payload ends in one) */
      while (len < size && data[len] != 0)
        len++;
      text = mshed_cp1251_to_utf8 (data, len, NULL);

      gtk_editable_set_text (GTK_EDITABLE (entry), text);
      g_signal_connect (entry, "activate", G_CALLBACK (string_activate_cb), self);
      gtk_box_append (GTK_BOX (self->box), entry);
      g_ptr_array_add (self->entries, entry);
    }
  else if (size / 4 > MAX_ELEMENTS)
    gtk_box_append (GTK_BOX (self->box),
                    note (_("Too many elements to list here: edit them in the grid or the Hex "
                            "view.")));
  else
    build_array (self, data, size);
  gtk_box_append (GTK_BOX (self->box),
                  note (_("Enter applies a value; each change is one undo step.")));
  if (self->focus_after < self->entries->len)
    gtk_widget_grab_focus (g_ptr_array_index (self->entries, self->focus_after));
  self->focus_after = G_MAXUINT;
}

static gboolean
node_in_tree (MshedUtfLeafEditor *self)
{
  MshedUtf *utf = self->document ? mshed_document_get_utf (self->document) : NULL;
  MshedUtfNode *n = self->node;

  if (utf == NULL || n == NULL)
    return FALSE;
  while (mshed_utf_node_get_parent (n) != NULL)
    n = mshed_utf_node_get_parent (n);
  return n == mshed_utf_get_root (utf);
}

static void
document_changed_cb (MshedDocument      *document,
                     const MshedChange  *change,
                     MshedUtfLeafEditor *self)
{
  /* a removed node stays alive in its command: only its place in the tree tells */
  if (!node_in_tree (self))
    self->node = NULL;
  rebuild (self);
}

/* GObject / GtkWidget ---------------------------------------------------------------------- */

static void
set_document (MshedUtfLeafEditor *self,
              MshedDocument      *document)
{
  if (self->document == document)
    return;
  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed", G_CALLBACK (document_changed_cb),
                                         self);
}

static void
mshed_utf_leaf_editor_dispose (GObject *object)
{
  MshedUtfLeafEditor *self = MSHED_UTF_LEAF_EDITOR (object);

  set_document (self, NULL);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (mshed_utf_leaf_editor_parent_class)->dispose (object);
}

static void
mshed_utf_leaf_editor_finalize (GObject *object)
{
  MshedUtfLeafEditor *self = MSHED_UTF_LEAF_EDITOR (object);

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  G_OBJECT_CLASS (mshed_utf_leaf_editor_parent_class)->finalize (object);
}

static void
mshed_utf_leaf_editor_class_init (MshedUtfLeafEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mshed_utf_leaf_editor_dispose;
  object_class->finalize = mshed_utf_leaf_editor_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "utfleafeditor");
}

static void
mshed_utf_leaf_editor_init (MshedUtfLeafEditor *self)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->entries = g_ptr_array_new ();
  self->focus_after = G_MAXUINT;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->error_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->error_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->error_label), 0);
  gtk_widget_add_css_class (self->error_label, "error");
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_widget_set_margin_start (outer, 8);
  gtk_widget_set_margin_end (outer, 8);
  gtk_widget_set_margin_top (outer, 8);
  gtk_widget_set_margin_bottom (outer, 8);
  gtk_box_append (GTK_BOX (outer), self->box);
  gtk_box_append (GTK_BOX (outer), self->error_label);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), outer);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  rebuild (self);
}

/* Public API ------------------------------------------------------------------------------- */

GtkWidget *
mshed_utf_leaf_editor_new (void)
{
  return g_object_new (MSHED_TYPE_UTF_LEAF_EDITOR, NULL);
}

void
mshed_utf_leaf_editor_set_node (MshedUtfLeafEditor *self,
                                MshedDocument      *document,
                                MshedUtfNode       *node)
{
  g_return_if_fail (MSHED_IS_UTF_LEAF_EDITOR (self));

  set_document (self, document);
  self->node = document != NULL ? node : NULL;
  self->focus_after = G_MAXUINT;
  rebuild (self);
}

MshedUtfLeafKind
mshed_utf_leaf_editor_get_kind (MshedUtfLeafEditor *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_LEAF_EDITOR (self), MSHED_UTF_LEAF_UNTYPED);

  return self->kind;
}

/**
 * mshed_utf_leaf_editor_get_colour_button:
 *
 * Returns: (transfer none) (nullable): the colour's picker
 */
GtkColorChooser *
mshed_utf_leaf_editor_get_colour_button (MshedUtfLeafEditor *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_LEAF_EDITOR (self), NULL);

  return self->colour_button ? GTK_COLOR_CHOOSER (self->colour_button) : NULL;
}

/**
 * mshed_utf_leaf_editor_get_entry:
 *
 * Returns: (transfer none) (nullable): the entry
 */
GtkEditable *
mshed_utf_leaf_editor_get_entry (MshedUtfLeafEditor *self,
                                 guint               index)
{
  g_return_val_if_fail (MSHED_IS_UTF_LEAF_EDITOR (self), NULL);

  return index < self->entries->len ? g_ptr_array_index (self->entries, index) : NULL;
}
