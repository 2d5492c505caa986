/* mshed-document-dfm-rows.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inserting and deleting points and elements of a DFM level (docs/dfm.md §6.1, §6.2, §15),
 * each one undo step with every index that refers to them fixed up:
 *  - points: `Points`, `Vertex_normals`, `Point_bone_first` and `Point_bone_count` gain or
 *    lose the same records; `Point_indices` of the level and `Edge_indices` of its groups are
 *    renumbered; the skin pools are not touched (a new point shares the slice of the point it
 *    copies, a deleted point's slice stays in the pools, unreferenced);
 *  - elements: `Point_indices`, `UV0_indices` and `UV1_indices` gain or lose the same records;
 *    `Tristrip_indices` and `Face_indices` of the level's groups are renumbered in place (the
 *    strip keeps its shape). The UV bone block indexes UV0 coordinates, not elements, and
 *    stays as it is.
 * Hardpoints (any table of a hardpoint's files; rows count every hardpoint of every bone in
 * bone order, fixed ones first) are subtrees: a new one is a fixed hardpoint with a name no
 * hardpoint has, identity orientation, at the bone's origin, in the bone of the row it goes
 * above; deleting one also removes the Fixed/Revolute and Hardpoints directories it leaves
 * empty (docs/dfm.md §10.4).
 * A new row of points or elements is a copy of the row it is inserted above (of the last row
 * when appended). A deleted row that something still refers to is refused, naming the first
 * reference: the edit never leaves an index pointing at another row than before.
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-document-private.h"
#include "mshed-error.h"
#include "mshed-utf-clip.h"
#include "mshed-utf-crc.h"

static const MshedDfmTable point_files[] = {
  MSHED_DFM_TABLE_POINTS, MSHED_DFM_TABLE_VERTEX_NORMALS, MSHED_DFM_TABLE_POINT_BONE_FIRST,
  MSHED_DFM_TABLE_POINT_BONE_COUNT,
};
static const MshedDfmTable element_files[] = {
  MSHED_DFM_TABLE_POINT_INDICES, MSHED_DFM_TABLE_UV0_INDICES, MSHED_DFM_TABLE_UV1_INDICES,
};

static gboolean edit_hardpoints (MshedDocument *self,
                                 guint          position,
                                 guint          n,
                                 gboolean       insert,
                                 GError       **error);

/* One planned payload. */
typedef struct {
  MshedUtfNode *node;
  GByteArray   *data;
} Planned;

static void
planned_clear (gpointer data)
{
  Planned *p = data;

  g_byte_array_unref (p->data);
}

typedef struct {
  gboolean      insert;
  gboolean      points;     /* else elements */
  guint         level;
  guint         position;
  guint         n;
  guint         count;      /* rows before the edit */
  GArray       *planned;    /* Planned */
} RowEdit;

/* The parallel files of the edited table, each with exactly @count whole records. */
static gboolean
plan_parallel (MshedDocument *self,
               RowEdit       *e,
               GError       **error)
{
  const MshedDfmTable *files = e->points ? point_files : element_files;
  guint n_files = e->points ? G_N_ELEMENTS (point_files) : G_N_ELEMENTS (element_files);

  for (guint i = 0; i < n_files; i++)
    {
      MshedDfmArray a;
      Planned p;
      gsize at;

      if (!mshed_dfm_get_array (self->dfm, files[i], e->level, 0, &a))
        continue;
      if (a.count != e->count || a.size != (gsize) a.count * a.stride)
        {
          g_autofree char *path = mshed_utf_node_dup_path (a.node);

          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("%s holds %zu bytes, not %u records of %u: fix its length before "
                         "inserting or deleting rows"), path, a.size, e->count, a.stride);
          return FALSE;
        }
      p.node = a.node;
      p.data = g_byte_array_sized_new ((guint) (a.size + (gsize) e->n * a.stride));
      at = (gsize) e->position * a.stride;
      if (e->insert)
        {
          guint src = e->position < e->count ? e->position : e->count - 1;
          g_autofree guint8 *rows = g_malloc0 ((gsize) e->n * a.stride);

          for (guint r = 0; e->count > 0 && r < e->n; r++)
            memcpy (rows + (gsize) r * a.stride, a.data + (gsize) src * a.stride, a.stride);
          g_byte_array_append (p.data, a.data, (guint) at);
          g_byte_array_append (p.data, rows, e->n * a.stride);
          g_byte_array_append (p.data, a.data + at, (guint) (a.size - at));
        }
      else
        {
          g_byte_array_append (p.data, a.data, (guint) a.size);
          g_byte_array_remove_range (p.data, (guint) at, e->n * a.stride);
        }
      g_array_append_val (e->planned, p);
    }
  return TRUE;
}

/* Renumbers the indices of @a (@width 2 or 4 bytes each); a reference to a deleted row, or
 * one that no longer fits in its width, refuses the edit. */
static gboolean
plan_references (RowEdit         *e,
                 const MshedDfmArray *a,
                 guint            width,
                 GError         **error)
{
  guint64 limit = width == 2 ? G_MAXUINT16 : G_MAXUINT32;
  gsize n = a->size / width;
  Planned p = { a->node, g_byte_array_new () };
  gboolean changed = FALSE;

  g_byte_array_append (p.data, a->data, (guint) a->size);
  for (gsize i = 0; i < n; i++)
    {
      guint8 *at = p.data->data + i * width;
      guint64 v = width == 2 ? mshed_read_u16 (at) : mshed_read_u32 (at);

      if (v < e->position)
        continue;
      if (!e->insert && v < (guint64) e->position + e->n)
        {
          g_autofree char *path = mshed_utf_node_dup_path (a->node);

          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       e->points ? _("Point %u cannot be deleted: %s[%zu] refers to it")
                                 : _("Element %u cannot be deleted: %s[%zu] refers to it"),
                       (guint) v, path, i);
          g_byte_array_unref (p.data);
          return FALSE;
        }
      v = e->insert ? v + e->n : v - e->n;
      if (v > limit)
        {
          g_autofree char *path = mshed_utf_node_dup_path (a->node);

          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("%s[%zu] would become %llu, more than its %u-byte index holds"),
                       path, i, (unsigned long long) v, width);
          g_byte_array_unref (p.data);
          return FALSE;
        }
      if (width == 2)
        mshed_write_u16 (at, (guint16) v);
      else
        mshed_write_u32 (at, (guint32) v);
      changed = TRUE;
    }
  if (changed)
    g_array_append_val (e->planned, p);
  else
    g_byte_array_unref (p.data);
  return TRUE;
}

static gboolean
plan_all_references (MshedDocument *self,
                     RowEdit       *e,
                     GError       **error)
{
  MshedDfmLevel level;
  MshedDfmArray a;

  if (!mshed_dfm_get_level (self->dfm, e->level, &level))
    return TRUE;
  if (e->points && mshed_dfm_get_array (self->dfm, MSHED_DFM_TABLE_POINT_INDICES, e->level, 0,
                                        &a) && !plan_references (e, &a, 4, error))
    return FALSE;
  for (guint g = 0; g < level.n_groups; g++)
    {
      static const MshedDfmTable element_refs[] = { MSHED_DFM_TABLE_TRISTRIP,
                                                    MSHED_DFM_TABLE_FACE_INDICES };

      if (e->points)
        {
          if (mshed_dfm_get_array (self->dfm, MSHED_DFM_TABLE_EDGE_INDICES, e->level, g, &a) &&
              !plan_references (e, &a, 2, error))
            return FALSE;
          continue;
        }
      for (guint k = 0; k < G_N_ELEMENTS (element_refs); k++)
        if (mshed_dfm_get_array (self->dfm, element_refs[k], e->level, g, &a) &&
            !plan_references (e, &a, 2, error))
          return FALSE;
    }
  return TRUE;
}

static gboolean
edit_rows (MshedDocument *self,
           MshedDfmTable  table,
           guint          level,
           guint          position,
           guint          n,
           gboolean       insert,
           GError       **error)
{
  RowEdit e = { insert, FALSE, level, position, n, 0, NULL };
  g_autoptr(GArray) planned = g_array_new (FALSE, FALSE, sizeof (Planned));
  g_autofree char *label = NULL;
  MshedDfmArray main;
  gboolean elements = FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  if (self->dfm != NULL && mshed_dfm_schema_get_table (table) != NULL &&
      mshed_dfm_schema_get_table (table)->scope == MSHED_DFM_SCOPE_HARDPOINT)
    return edit_hardpoints (self, position, n, insert, error);
  g_array_set_clear_func (planned, planned_clear);
  e.planned = planned;
  for (guint i = 0; i < G_N_ELEMENTS (point_files); i++)
    e.points = e.points || table == point_files[i];
  for (guint i = 0; i < G_N_ELEMENTS (element_files); i++)
    elements = elements || table == element_files[i];
  if (self->dfm == NULL || (!e.points && !elements))
    {
      const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);

      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Rows of %s cannot be inserted or deleted: only points, elements and "
                     "hardpoints of a deformable model can (docs/dfm.md §15)"),
                   info ? info->node : "?");
      return FALSE;
    }
  if (!mshed_dfm_get_array (self->dfm, e.points ? MSHED_DFM_TABLE_POINTS
                                                : MSHED_DFM_TABLE_POINT_INDICES, level, 0, &main))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   e.points ? _("Mesh%u has no Points file") : _("Mesh%u has no Point_indices "
                                                                 "file"), level);
      return FALSE;
    }
  e.count = main.count;
  if (n == 0 || (insert ? position > e.count || (guint64) e.count + n > G_MAXUINT32
                        : position >= e.count || (guint64) position + n > e.count))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Rows %u to %u are outside the %u rows of Mesh%u"), position,
                   position + n, e.count, level);
      return FALSE;
    }
  if (!plan_parallel (self, &e, error) || !plan_all_references (self, &e, error))
    return FALSE;

  if (e.points)
    label = insert ? g_strdup_printf (_("Insert %u point(s) at %u in Mesh%u"), n, position,
                                      level)
                   : g_strdup_printf (_("Delete %u point(s) at %u in Mesh%u"), n, position,
                                      level);
  else
    label = insert ? g_strdup_printf (_("Insert %u element(s) at %u in Mesh%u"), n, position,
                                      level)
                   : g_strdup_printf (_("Delete %u element(s) at %u in Mesh%u"), n, position,
                                      level);
  _mshed_document_op_begin (self, label, 0);
  for (guint i = 0; i < planned->len; i++)
    {
      const Planned *p = &g_array_index (planned, Planned, i);

      _mshed_document_utf_set_payload (self, p->node, p->data->data, p->data->len);
    }
  _mshed_document_op_end (self);
  return TRUE;
}

/**
 * mshed_document_dfm_insert_rows:
 * @table: %MSHED_DFM_TABLE_POINTS (or a file beside it) or %MSHED_DFM_TABLE_POINT_INDICES
 *   (or UV0/UV1_indices)
 * @position: the row the new rows go above (the row count appends)
 *
 * Inserts @n copies of row @position (of the last row when appending) into every file of
 * that table in level @level, renumbering what refers to later rows. One undo step.
 */
gboolean
mshed_document_dfm_insert_rows (MshedDocument *self,
                                MshedDfmTable  table,
                                guint          level,
                                guint          position,
                                guint          n,
                                GError       **error)
{
  return edit_rows (self, table, level, position, n, TRUE, error);
}

/**
 * mshed_document_dfm_delete_rows:
 *
 * Deletes rows @position to @position + @n − 1, refusing when anything still refers to one
 * of them. One undo step.
 */
gboolean
mshed_document_dfm_delete_rows (MshedDocument *self,
                                MshedDfmTable  table,
                                guint          level,
                                guint          position,
                                guint          n,
                                GError       **error)
{
  return edit_rows (self, table, level, position, n, FALSE, error);
}

/* Hardpoints (docs/dfm.md §10.4) --------------------------------------------------------- */

/* The bone and the index in it of hardpoint row @row, counting every hardpoint of every bone
 * in bone order, fixed ones first (as mshed_dfm_get_hardpoint numbers them). */
static gboolean
hardpoint_address (MshedDfm *dfm,
                   guint     row,
                   guint    *bone,
                   guint    *index)
{
  for (guint i = 0; i < mshed_dfm_get_n_bones (dfm); i++)
    {
      MshedDfmBone b;

      if (!mshed_dfm_get_bone (dfm, i, &b))
        continue;
      if (row < b.n_hardpoints)
        {
          *bone = i;
          *index = row;
          return TRUE;
        }
      row -= b.n_hardpoints;
    }
  return FALSE;
}

static guint
count_hardpoints (MshedDfm *dfm,
                  gint     *last_bone)
{
  guint n = 0;

  *last_bone = -1;
  for (guint i = 0; i < mshed_dfm_get_n_bones (dfm); i++)
    {
      MshedDfmBone b;

      if (mshed_dfm_get_bone (dfm, i, &b) && b.n_hardpoints > 0)
        {
          n += b.n_hardpoints;
          *last_bone = (gint) i;
        }
    }
  return n;
}

static gboolean
hardpoint_name_used (MshedDfm   *dfm,
                     const char *name)
{
  for (guint i = 0; i < mshed_dfm_get_n_bones (dfm); i++)
    {
      MshedDfmBone b;

      if (!mshed_dfm_get_bone (dfm, i, &b))
        continue;
      for (guint k = 0; k < b.n_hardpoints; k++)
        {
          MshedDfmHardpoint hp;

          if (mshed_dfm_get_hardpoint (dfm, i, k, &hp) &&
              mshed_utf_name_compare (hp.name, name) == 0)
            return TRUE;
        }
    }
  return FALSE;
}

/* `hp_new`, else `hp_new_2`, `hp_new_3`, …: unused by any hardpoint of the model, ignoring
 * case (the game looks hardpoints up by name) */
static char *
new_hardpoint_name (MshedDfm *dfm)
{
  if (!hardpoint_name_used (dfm, "hp_new"))
    return g_strdup ("hp_new");
  for (guint i = 2;; i++)
    {
      g_autofree char *name = g_strdup_printf ("hp_new_%u", i);

      if (!hardpoint_name_used (dfm, name))
        return g_steal_pointer (&name);
    }
}

/* One new fixed hardpoint of @bone, above its hardpoint @index (appended to Fixed when that
 * one is revolute or @index is past the last): identity orientation at the bone's origin. */
static gboolean
insert_hardpoint (MshedDocument *self,
                  guint          bone,
                  guint          index,
                  GError       **error)
{
  static const float orientation[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  static const float position[3] = { 0, 0, 0 };
  MshedDfmBone b;
  MshedDfmHardpoint above;
  MshedUtfNode *hps, *fixed, *top, *dir, *parent;
  g_autoptr(MshedUtf) scratch = NULL;
  g_autofree char *name = new_hardpoint_name (self->dfm);
  guint at;

  if (!mshed_dfm_get_bone (self->dfm, bone, &b))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("The model has no bone %u to hold a hardpoint"), bone);
      return FALSE;
    }
  hps = mshed_utf_node_lookup (b.node, "Hardpoints");
  fixed = hps != NULL ? mshed_utf_node_lookup (hps, "Fixed") : NULL;
  if ((hps != NULL && !mshed_utf_node_is_directory (hps)) ||
      (fixed != NULL && !mshed_utf_node_is_directory (fixed)))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("%s: Hardpoints or Hardpoints/Fixed is a file, not a directory"), b.name);
      return FALSE;
    }
  /* the smallest subtree that is missing, built in a scratch tree and inserted as one tree
   * edit */
  scratch = mshed_utf_new ();
  dir = mshed_utf_get_root (scratch);
  if (hps == NULL)
    {
      top = dir = mshed_utf_append_directory (scratch, dir, "Hardpoints");
      dir = mshed_utf_append_directory (scratch, mshed_utf_append_directory (scratch, dir,
                                                                             "Fixed"), name);
      parent = b.node;
      at = G_MAXUINT;
    }
  else if (fixed == NULL)
    {
      top = dir = mshed_utf_append_directory (scratch, dir, "Fixed");
      dir = mshed_utf_append_directory (scratch, dir, name);
      parent = hps;
      at = 0;  /* Fixed before Revolute (docs/dfm.md §10.4) */
    }
  else
    {
      top = dir = mshed_utf_append_directory (scratch, dir, name);
      parent = fixed;
      at = mshed_dfm_get_hardpoint (self->dfm, bone, index, &above) && !above.revolute &&
           mshed_utf_node_get_parent (above.node) == fixed
             ? mshed_utf_node_get_index (above.node) : G_MAXUINT;
    }
  mshed_utf_append_file (scratch, dir, "Position", position, sizeof position);
  mshed_utf_append_file (scratch, dir, "Orientation", orientation, sizeof orientation);
  return mshed_document_utf_insert (self, parent, at, mshed_utf_node_copy (top), error);
}

/* Removes hardpoint directory @dir, and the Fixed or Revolute and Hardpoints directories it
 * leaves empty (so insert then delete gives back the file's bytes). */
static gboolean
delete_hardpoint (MshedDocument *self,
                  MshedUtfNode  *dir,
                  GError       **error)
{
  MshedUtfNode *node = dir;

  for (guint up = 0; up < 2; up++)
    {
      MshedUtfNode *parent = mshed_utf_node_get_parent (node);

      if (parent == NULL || mshed_utf_node_get_n_children (parent) != 1)
        break;
      node = parent;
    }
  return mshed_document_utf_remove (self, node, error);
}

static gboolean
edit_hardpoints (MshedDocument *self,
                 guint          position,
                 guint          n,
                 gboolean       insert,
                 GError       **error)
{
  g_autoptr(GPtrArray) dirs = g_ptr_array_new ();
  g_autofree char *label = NULL;
  gint last_bone;
  guint count = count_hardpoints (self->dfm, &last_bone);
  guint bone = 0, index = 0;
  gboolean ok = TRUE;
  guint done = 0;

  if (n == 0 || (insert ? position > count : position >= count || (guint64) position + n > count))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Rows %u to %u are outside the %u hardpoints of the model"), position,
                   position + n, count);
      return FALSE;
    }
  if (insert)
    {
      if (position < count)
        hardpoint_address (self->dfm, position, &bone, &index);
      else if (last_bone >= 0)
        {
          MshedDfmBone b;

          bone = (guint) last_bone;
          index = mshed_dfm_get_bone (self->dfm, bone, &b) ? b.n_hardpoints : 0;
        }
      label = g_strdup_printf (_("Insert %u hardpoint(s)"), n);
    }
  else
    {
      for (guint i = 0; i < n; i++)
        {
          MshedDfmHardpoint hp;

          if (hardpoint_address (self->dfm, position + i, &bone, &index) &&
              mshed_dfm_get_hardpoint (self->dfm, bone, index, &hp))
            g_ptr_array_add (dirs, hp.node);
        }
      label = g_strdup_printf (_("Delete %u hardpoint(s)"), n);
    }
  mshed_document_begin_group (self, label);
  for (guint i = 0; ok && i < (insert ? n : dirs->len); i++)
    {
      ok = insert ? insert_hardpoint (self, bone, index, error)
                  : delete_hardpoint (self, g_ptr_array_index (dirs, i), error);
      done += ok ? 1 : 0;
    }
  mshed_document_end_group (self);
  if (!ok && done > 0)
    mshed_document_undo (self);  /* nothing of a failed edit stays */
  return ok;
}
