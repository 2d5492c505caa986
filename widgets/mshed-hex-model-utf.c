/* mshed-hex-model-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hex model over one file of a UTF document (docs/utf.md): its payload, the DFM schema's
 * field overlays for typed nodes (docs/dfm.md §2), untyped payloads marked unknown, and where
 * the payload lies in the file as it was read.
 */
#define G_LOG_DOMAIN "mshed-hex-model"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-dfm-schema.h"
#include "mshed-hex-model-private.h"

static MshedUtf *
get_utf (MshedHexModel *self)
{
  return self->document ? mshed_document_get_utf (self->document) : NULL;
}

/* Whether @node is in the document's tree now (compares pointers only: a node taken out by
 * an edit may have been freed since). */
static gboolean
node_in_tree (MshedHexModel      *self,
              const MshedUtfNode *node)
{
  MshedUtf *utf = get_utf (self);
  MshedUtfNode *root = utf ? mshed_utf_get_root (utf) : NULL;

  for (MshedUtfNode *n = root; n != NULL; n = mshed_utf_node_next_preorder (n, root))
    if (n == node)
      return TRUE;
  return FALSE;
}

gboolean
mshed_hex_model_set_utf_node (MshedHexModel *self,
                              MshedUtfNode  *node)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);

  if (node == NULL || mshed_utf_node_is_directory (node) || !node_in_tree (self, node))
    return FALSE;
  self->utf_node = node;
  self->res_index = MSHED_HEX_SOURCE_UTF;
  self->res_type = 0;
  self->win_start = 0;
  self->win_length = G_MAXSIZE;
  return TRUE;
}

/**
 * mshed_hex_model_get_utf_node:
 *
 * Returns: (transfer none) (nullable): the UTF file shown
 */
MshedUtfNode *
mshed_hex_model_get_utf_node (MshedHexModel *self)
{
  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), NULL);

  return self->res_index == MSHED_HEX_SOURCE_UTF ? self->utf_node : NULL;
}

const guint8 *
_mshed_hex_model_utf_data (MshedHexModel *self,
                           gsize         *size)
{
  const guint8 *data;

  *size = 0;
  if (self->utf_node == NULL)
    return NULL;
  data = mshed_utf_node_peek_data (self->utf_node, size);
  /* an empty file: a valid source of no bytes */
  return data != NULL ? data : (const guint8 *) "";
}

gboolean
_mshed_hex_model_utf_alive (MshedHexModel *self)
{
  return self->utf_node != NULL && node_in_tree (self, self->utf_node) &&
         !mshed_utf_node_is_directory (self->utf_node);
}

void
_mshed_hex_model_utf_overlay (MshedHexModel   *self,
                              gsize            o,
                              MshedHexOverlay *out)
{
  gsize size = 0;
  MshedDfmTable id = mshed_document_get_dfm (self->document) != NULL
                       ? mshed_dfm_schema_table_for_node (self->utf_node) : MSHED_DFM_TABLE_NONE;
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (id);
  gsize n_whole, rec;
  guint r;

  _mshed_hex_model_utf_data (self, &size);
  out->res_index = MSHED_HEX_SOURCE_UTF;
  out->kind = MSHED_HEX_OVERLAY_UNKNOWN;
  out->label = "opaque";
  out->start = 0;
  out->length = size;
  if (info == NULL)
    return;
  out->table = MSHED_DFM_TABLE_ID (id);
  if (info->stride == 0)
    {
      /* a string payload (docs/dfm.md §2) */
      out->kind = MSHED_HEX_OVERLAY_KNOWN;
      out->label = "text";
      out->record = 0;
      return;
    }
  n_whole = size / info->stride;
  rec = o / info->stride;
  r = (guint) (o % info->stride);
  if (rec >= n_whole)
    {
      out->label = "trailing";
      out->start = n_whole * info->stride;
      out->length = size - out->start;
      return;
    }
  out->record = (gint64) rec;
  for (guint i = 0; i < info->n_texts; i++)
    if (r >= info->texts[i].offset && r < info->texts[i].offset + info->texts[i].size)
      {
        out->kind = MSHED_HEX_OVERLAY_KNOWN;
        out->label = info->texts[i].name;
        out->start = rec * info->stride + info->texts[i].offset;
        out->length = info->texts[i].size;
        out->color = i;
        return;
      }
  for (guint i = 0; i < info->n_fields; i++)
    {
      const MshedField *f = &info->fields[i];

      if (r >= f->offset && r < f->offset + mshed_field_type_size (f->type))
        {
          /* a field of unknown meaning (UV_plane_distance, docs/dfm.md §6.4) */
          out->kind = (f->flags & MSHED_FIELD_FLAG_UNKNOWN) ? MSHED_HEX_OVERLAY_UNKNOWN
                                                            : MSHED_HEX_OVERLAY_KNOWN;
          out->field = f;
          out->label = f->name;
          out->start = rec * info->stride + f->offset;
          out->length = mshed_field_type_size (f->type);
          out->color = info->n_texts + i;
          return;
        }
    }
  out->label = "gap";
  out->start = o;
  out->length = 1;
}

/* Where the payload starts in the file as read: known while it is still the source's slice. */
gboolean
_mshed_hex_model_utf_start (MshedHexModel *self,
                            guint64       *start)
{
  MshedUtf *utf = get_utf (self);
  GBytes *source = utf ? mshed_utf_get_source (utf) : NULL;
  const guint8 *s, *p;
  gsize src_len = 0, len = 0;

  *start = 0;
  if (source == NULL || self->utf_node == NULL)
    return TRUE;
  s = g_bytes_get_data (source, &src_len);
  p = mshed_utf_node_peek_data (self->utf_node, &len);
  if (s != NULL && p != NULL && len > 0 && (guintptr) p >= (guintptr) s &&
      (guintptr) p - (guintptr) s <= src_len - len)
    *start = (guintptr) p - (guintptr) s;
  return TRUE;
}

char *
_mshed_hex_model_utf_label (MshedHexModel *self)
{
  g_autofree char *path = self->utf_node ? mshed_utf_node_dup_path (self->utf_node) : NULL;

  /* translators: a file of a UTF tree, e.g. "\MultiLevel\Mesh0\Geometry\Points" */
  return g_strdup_printf (_("UTF file %s"), path ? path : "?");
}
