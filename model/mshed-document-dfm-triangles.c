/* mshed-document-dfm-triangles.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A face group's triangles edited as a list (docs/dfm.md §5): one corner set, triangles
 * inserted, deleted or turned over. Each edit takes the triangles the group draws now
 * (mshed_dfm_dup_triangles: the strip unrolled by §5.1, degenerate windows dropped), changes
 * the list, and writes it back in one undo step: a `Tristrip_indices` group gets a new strip
 * from our encoder (§5.3, runs joined), a `Face_indices` group the list. Only the edited
 * group's index file changes; undo gives back its old bytes, the original strip. Nothing else
 * is re-encoded, and a no-op edit writes nothing.
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-document-private.h"
#include "mshed-error.h"

gboolean
_mshed_document_dfm_write_triangles (MshedDocument *self,
                                     guint          level,
                                     guint          group,
                                     const guint16 *triangles,
                                     gsize          n_triangles,
                                     const char    *label,
                                     GError       **error)
{
  MshedUtfNode *node = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize size = 0;
  const guint8 *data;

  if (self->dfm == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("%s is not a deformable model"), mshed_document_get_title (self));
      return FALSE;
    }
  bytes = mshed_dfm_encode_triangles (self->dfm, level, group, triangles, n_triangles, &node,
                                      error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &size);
  _mshed_document_op_begin (self, label, 0);
  _mshed_document_utf_set_payload (self, node, data, size);
  _mshed_document_op_end (self);
  return TRUE;
}

/* The group's triangles now; FALSE (with @error) when the document has no such group. */
static gboolean
dup_group (MshedDocument  *self,
           guint           level,
           guint           group,
           guint16       **triangles,
           gsize          *n,
           GError        **error)
{
  MshedDfmGroup g;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  *triangles = NULL;
  *n = 0;
  if (self->dfm == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("%s is not a deformable model"), mshed_document_get_title (self));
      return FALSE;
    }
  if (!mshed_dfm_get_group (self->dfm, level, group, &g))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Mesh%u has no face group %u"), level, group);
      return FALSE;
    }
  *triangles = mshed_dfm_dup_triangles (self->dfm, level, group, n);
  return TRUE;
}

/* Every corner of triangles [first, first + n) names an element of the level and the three
 * differ (docs/dfm.md §4, §5.1): otherwise the edit is refused, naming the triangle. */
static gboolean
check_triangles (MshedDocument *self,
                 guint          level,
                 guint          group,
                 const guint16 *triangles,
                 gsize          first,
                 gsize          n,
                 GError       **error)
{
  MshedDfmArray elements;
  gboolean known = mshed_dfm_get_array (self->dfm, MSHED_DFM_TABLE_POINT_INDICES, level, 0,
                                        &elements);

  for (gsize t = first; t < first + n; t++)
    {
      const guint16 *c = triangles + 3 * t;

      for (guint k = 0; k < 3; k++)
        if (known && c[k] >= elements.count)
          {
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                         _("Mesh%u group %u, triangle %zu, corner i%u: element %u is past the "
                           "%u elements of Point_indices"), level, group, t, k, c[k],
                         elements.count);
            return FALSE;
          }
      if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2])
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("Mesh%u group %u, triangle %zu: the corners %u, %u, %u are not three "
                         "different elements; a strip cannot draw it"), level, group, t, c[0],
                       c[1], c[2]);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
check_range (guint          level,
             guint          group,
             guint          position,
             guint          n,
             gsize          count,
             gboolean       insert,
             GError       **error)
{
  if (n > 0 && (insert ? position <= count && count + n <= G_MAXUINT32
                       : position < count && (guint64) position + n <= count))
    return TRUE;
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
               _("Triangles %u to %u are outside the %zu triangles of Mesh%u group %u"),
               position, position + n, count, level, group);
  return FALSE;
}

/**
 * mshed_document_dfm_set_triangle_corner:
 * @corner: 0, 1 or 2 (columns i0, i1, i2 of the Triangles table)
 *
 * Sets one corner of one triangle. One undo step.
 */
gboolean
mshed_document_dfm_set_triangle_corner (MshedDocument *self,
                                        guint          level,
                                        guint          group,
                                        guint          triangle,
                                        guint          corner,
                                        guint          element,
                                        GError       **error)
{
  g_autofree guint16 *tris = NULL;
  g_autofree char *label = NULL;
  gsize n;

  if (!dup_group (self, level, group, &tris, &n, error) ||
      !check_range (level, group, triangle, 1, n, FALSE, error))
    return FALSE;
  if (corner > 2 || element > G_MAXUINT16)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Corner %u of a triangle cannot be element %u"), corner, element);
      return FALSE;
    }
  if (tris[3 * triangle + corner] == element)
    return TRUE;
  tris[3 * triangle + corner] = (guint16) element;
  if (!check_triangles (self, level, group, tris, triangle, 1, error))
    return FALSE;
  label = g_strdup_printf (_("Set corner i%u of triangle %u in Mesh%u group %u"), corner,
                           triangle, level, group);
  return _mshed_document_dfm_write_triangles (self, level, group, tris, n, label, error);
}

/**
 * mshed_document_dfm_insert_triangles:
 * @position: the triangle the new ones go above (the triangle count appends)
 * @triangles: (nullable): 3 × @n element indices; NULL: copies of the triangle at @position
 *   (of the last one when appending)
 *
 * One undo step.
 */
gboolean
mshed_document_dfm_insert_triangles (MshedDocument *self,
                                     guint          level,
                                     guint          group,
                                     guint          position,
                                     guint          n,
                                     const guint16 *triangles,
                                     GError       **error)
{
  g_autofree guint16 *tris = NULL;
  g_autofree guint16 *out = NULL;
  g_autofree char *label = NULL;
  gsize count;

  if (!dup_group (self, level, group, &tris, &count, error) ||
      !check_range (level, group, position, n, count, TRUE, error))
    return FALSE;
  if (triangles == NULL && count == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Mesh%u group %u has no triangle to copy"), level, group);
      return FALSE;
    }
  out = g_new (guint16, 3 * (count + n));
  if (position > 0)
    memcpy (out, tris, 6 * (gsize) position);
  for (guint k = 0; k < n; k++)
    memcpy (out + 3 * ((gsize) position + k),
            triangles ? triangles + 3 * (gsize) k
                      : tris + 3 * (gsize) (position < count ? position : count - 1), 6);
  if (position < count)
    memcpy (out + 3 * ((gsize) position + n), tris + 3 * (gsize) position,
            6 * (count - position));
  if (!check_triangles (self, level, group, out, position, n, error))
    return FALSE;
  label = g_strdup_printf (_("Insert %u triangle(s) at %u in Mesh%u group %u"), n, position,
                           level, group);
  return _mshed_document_dfm_write_triangles (self, level, group, out, count + n, label,
                                              error);
}

/**
 * mshed_document_dfm_delete_triangles:
 *
 * Deletes triangles @position to @position + @n − 1. A group keeps at least one triangle
 * (remove the group directory in the tree instead). One undo step.
 */
gboolean
mshed_document_dfm_delete_triangles (MshedDocument *self,
                                     guint          level,
                                     guint          group,
                                     guint          position,
                                     guint          n,
                                     GError       **error)
{
  g_autofree guint16 *tris = NULL;
  g_autofree char *label = NULL;
  gsize count;

  if (!dup_group (self, level, group, &tris, &count, error) ||
      !check_range (level, group, position, n, count, FALSE, error))
    return FALSE;
  if (n == count)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Mesh%u group %u would have no triangle left: remove the group "
                     "directory in the tree instead"), level, group);
      return FALSE;
    }
  memmove (tris + 3 * (gsize) position, tris + 3 * ((gsize) position + n),
           6 * (count - position - n));
  label = g_strdup_printf (_("Delete %u triangle(s) at %u in Mesh%u group %u"), n, position,
                           level, group);
  return _mshed_document_dfm_write_triangles (self, level, group, tris, count - n, label,
                                              error);
}

/**
 * mshed_document_dfm_reverse_triangles:
 *
 * Turns triangles @position to @position + @n − 1 over: (a, b, c) becomes (a, c, b), so the
 * face normal of docs/dfm.md §5.2 points the other way. One undo step.
 */
gboolean
mshed_document_dfm_reverse_triangles (MshedDocument *self,
                                      guint          level,
                                      guint          group,
                                      guint          position,
                                      guint          n,
                                      GError       **error)
{
  g_autofree guint16 *tris = NULL;
  g_autofree char *label = NULL;
  gsize count;

  if (!dup_group (self, level, group, &tris, &count, error) ||
      !check_range (level, group, position, n, count, FALSE, error))
    return FALSE;
  for (gsize t = position; t < (gsize) position + n; t++)
    {
      guint16 b = tris[3 * t + 1];

      tris[3 * t + 1] = tris[3 * t + 2];
      tris[3 * t + 2] = b;
    }
  label = g_strdup_printf (_("Reverse the winding of %u triangle(s) at %u in Mesh%u group %u"),
                           n, position, level, group);
  return _mshed_document_dfm_write_triangles (self, level, group, tris, count, label, error);
}
