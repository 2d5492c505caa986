/* mshed-document-rows.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Inserting, deleting, duplicating and moving rows of nodes, slots and batches. Every
 * operation is described as a new row order src[] (old row index, or -1 for a new row);
 * the new payloads are built from it with every reference fixed up, and written as the
 * smallest record-aligned splices, so the undo delta holds only what moved.
 *
 * Reference rules:
 *  - slots: node slot cells follow their slot; cells of a deleted slot become 0xFFFF; a
 *    duplicated slot is referenced by nobody until a cell is pointed at it;
 *  - batches: slot ranges [batchStart, +batchCount) are fixed as if the rows were deleted
 *    and then inserted: a range shrinks by the deleted rows it held; rows inserted at p join
 *    the slot with batchStart < p <= batchStart + batchCount (so a duplicate stays in the
 *    slot of its original) and shift every range starting at or after p; a moved batch
 *    belongs to the slot at its new place;
 *  - nodes: hdr1 follows the parent; children of a deleted node are re-parented to its
 *    nearest surviving ancestor; the Res8 track and the Res19 block of each node move with
 *    it (hdr3, hdr2 and the map words are renumbered, blocks packed in node order, §7.7); the
 *    Res10 record moves with it; a new node gets one identity key at time 0, no frame map
 *    and no name. A result with a parent after its child is refused.
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-document-private.h"
#include "mshed-error.h"
#include "mshed-schema.h"

typedef enum {
  ROW_INSERT,
  ROW_DELETE,
  ROW_DUPLICATE,
  ROW_MOVE,
} RowOp;

typedef struct {
  RowOp         op;
  guint         position;
  guint         n;
  guint         new_position;
  guint         n_old;
  guint         n_new;
  gint         *src;       /* n_new entries */
  guint        *map_old;   /* n_old entries: first new index, G_MAXUINT when deleted */
  const guint8 *records;   /* inserted records (n × stride), or NULL */
} Plan;

static void
plan_clear (Plan *plan)
{
  g_free (plan->src);
  g_free (plan->map_old);
}

static void
plan_build (Plan *plan)
{
  guint p = plan->position, n = plan->n, N = plan->n_old, j = 0;

  switch (plan->op)
    {
    case ROW_INSERT:
      plan->n_new = N + n;
      break;
    case ROW_DELETE:
      plan->n_new = N - n;
      break;
    case ROW_DUPLICATE:
      plan->n_new = N + n;
      break;
    case ROW_MOVE:
    default:
      plan->n_new = N;
      break;
    }
  plan->src = g_new (gint, plan->n_new + 1);
  switch (plan->op)
    {
    case ROW_INSERT:
      for (guint i = 0; i < p; i++)
        plan->src[j++] = (gint) i;
      for (guint i = 0; i < n; i++)
        plan->src[j++] = -1;
      for (guint i = p; i < N; i++)
        plan->src[j++] = (gint) i;
      break;
    case ROW_DELETE:
      for (guint i = 0; i < N; i++)
        if (i < p || i >= p + n)
          plan->src[j++] = (gint) i;
      break;
    case ROW_DUPLICATE:
      for (guint i = 0; i < p + n; i++)
        plan->src[j++] = (gint) i;
      for (guint i = p; i < p + n; i++)
        plan->src[j++] = (gint) i;
      for (guint i = p + n; i < N; i++)
        plan->src[j++] = (gint) i;
      break;
    case ROW_MOVE:
    default:
      {
        guint k = 0;

        /* the rows without the block, with the block inserted at new_position */
        for (guint i = 0; i < N; i++)
          {
            if (i >= p && i < p + n)
              continue;
            if (k == plan->new_position)
              for (guint b = 0; b < n; b++)
                plan->src[j++] = (gint) (p + b);
            plan->src[j++] = (gint) i;
            k++;
          }
        if (k == plan->new_position)
          for (guint b = 0; b < n; b++)
            plan->src[j++] = (gint) (p + b);
        break;
      }
    }
  g_assert (j == plan->n_new);
  plan->map_old = g_new (guint, N + 1);
  for (guint i = 0; i < N; i++)
    plan->map_old[i] = G_MAXUINT;
  for (guint k = plan->n_new; k-- > 0;)
    if (plan->src[k] >= 0)
      plan->map_old[plan->src[k]] = k;
}

/* Slots ------------------------------------------------------------------------------------ */

static gboolean
rebuild_slots (MshedDocument *self,
               Plan          *plan,
               GError       **error)
{
  MshedNres *nres = mshed_model_get_nres (self->model);
  gint r2 = mshed_model_find_resource (self->model, 2);
  gint r1 = mshed_model_find_resource (self->model, 1);
  const guint8 *old = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, (guint) r2), NULL);
  gsize size = MSHED_RES2_HEADER_SIZE + (gsize) plan->n_new * 68;
  g_autofree guint8 *res2 = g_malloc0 (size);
  g_autofree guint8 *res1 = NULL;
  gsize size1 = 0;
  gboolean renumbered = FALSE;

  for (guint i = 0; i < plan->n_old; i++)
    renumbered |= plan->map_old[i] != i;
  if (renumbered && r1 >= 0 && !mshed_model_has_node_records (self->model))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Table slots: the node records are not 38 bytes long, so their slot "
                     "references cannot be fixed up; only appending slots is possible"));
      return FALSE;
    }

  memcpy (res2, old, MSHED_RES2_HEADER_SIZE);
  for (guint j = 0, k = 0; j < plan->n_new; j++)
    {
      guint8 *dst = res2 + MSHED_RES2_HEADER_SIZE + (gsize) j * 68;

      if (plan->src[j] >= 0)
        memcpy (dst, old + MSHED_RES2_HEADER_SIZE + (gsize) plan->src[j] * 68, 68);
      else if (plan->records)
        memcpy (dst, plan->records + (gsize) (k++) * 68, 68);
    }

  if (r1 >= 0 && mshed_model_has_node_records (self->model))
    {
      const guint8 *cur = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, (guint) r1),
                                                     &size1);
      guint n_nodes = mshed_model_get_n_rows (self->model, MSHED_TABLE_NODES);

      res1 = g_memdup2 (cur, size1);
      for (guint n = 0; n < n_nodes; n++)
        for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
          {
            guint8 *w = res1 + (gsize) n * 38 + 8 + 2 * c;
            guint16 s = mshed_read_u16 (w);

            if (s != MSHED_NONE && s < plan->n_old)
              mshed_write_u16 (w, plan->map_old[s] == G_MAXUINT ? MSHED_NONE
                                                                : (guint16) plan->map_old[s]);
          }
    }

  _mshed_document_remap_stale (self, MSHED_TABLE_SLOTS, plan->map_old, plan->n_old);
  _mshed_document_replace_payload (self, (guint) r2, res2, size);
  if (res1)
    _mshed_document_replace_payload (self, (guint) r1, res1, size1);
  _mshed_document_set_attr1 (self, 2, plan->n_new);
  return TRUE;
}

/* Batches ---------------------------------------------------------------------------------- */

typedef struct {
  guint start;
  guint count;
} Range;

static void
range_delete (Range *r,
              guint  p,
              guint  n)
{
  guint end = r->start + r->count;
  guint before = r->start > p ? MIN (r->start - p, n) : 0;  /* deleted rows before start */
  guint lo = MAX (r->start, p), hi = MIN (end, p + n);
  guint inside = hi > lo ? hi - lo : 0;

  r->start -= before;
  r->count -= inside;
}

static void
range_insert (Range *r,
              guint  p,
              guint  n)
{
  if (r->start >= p)
    r->start += n;
  else if (p <= r->start + r->count)
    r->count += n;
}

static gboolean
rebuild_batches (MshedDocument *self,
                 Plan          *plan,
                 GError       **error)
{
  MshedNres *nres = mshed_model_get_nres (self->model);
  gint r13 = mshed_model_find_resource (self->model, 13);
  gint r2 = mshed_model_find_resource (self->model, 2);
  const guint8 *old = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, (guint) r13), NULL);
  gsize size = (gsize) plan->n_new * 20;
  g_autofree guint8 *res13 = g_malloc0 (size + 1);
  g_autofree guint8 *res2 = NULL;
  g_autofree gboolean *affected = NULL;
  gsize size2 = 0;
  guint n_slots = mshed_model_get_n_rows (self->model, MSHED_TABLE_SLOTS);
  g_autofree char *reason = NULL;

  for (guint j = 0, k = 0; j < plan->n_new; j++)
    {
      guint8 *dst = res13 + (gsize) j * 20;

      if (plan->src[j] >= 0)
        memcpy (dst, old + (gsize) plan->src[j] * 20, 20);
      else if (plan->records)
        memcpy (dst, plan->records + (gsize) (k++) * 20, 20);
    }

  affected = g_new0 (gboolean, n_slots + 1);
  if (r2 >= 0 && n_slots > 0)
    {
      const guint8 *cur = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, (guint) r2),
                                                     &size2);

      res2 = g_memdup2 (cur, size2);
      for (guint s = 0; s < n_slots; s++)
        {
          guint8 *rec = res2 + MSHED_RES2_HEADER_SIZE + (gsize) s * 68;
          Range r = { mshed_read_u16 (rec + 4), mshed_read_u16 (rec + 6) };
          Range was = r;

          switch (plan->op)
            {
            case ROW_INSERT:
              range_insert (&r, plan->position, plan->n);
              break;
            case ROW_DELETE:
              range_delete (&r, plan->position, plan->n);
              break;
            case ROW_DUPLICATE:
              range_insert (&r, plan->position + plan->n, plan->n);
              break;
            case ROW_MOVE:
            default:
              range_delete (&r, plan->position, plan->n);
              range_insert (&r, plan->new_position, plan->n);
              break;
            }
          if (r.start + r.count > G_MAXUINT16)
            {
              g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                           _("Table slots, row %u: the batch range would end past 65535"), s);
              return FALSE;
            }
          mshed_write_u16 (rec + 4, (guint16) r.start);
          mshed_write_u16 (rec + 6, (guint16) r.count);
          /* the slot draws other batches (or the same ones in another order) */
          if (r.count != was.count)
            affected[s] = TRUE;
          else
            for (guint i = 0; i < r.count && !affected[s]; i++)
              {
                guint j = r.start + i;

                affected[s] = j >= plan->n_new || plan->src[j] != (gint) (was.start + i);
              }
        }
    }

  _mshed_document_remap_stale (self, MSHED_TABLE_BATCHES, plan->map_old, plan->n_old);
  _mshed_document_replace_payload (self, (guint) r13, res13, size);
  if (res2)
    _mshed_document_replace_payload (self, (guint) r2, res2, size2);
  _mshed_document_set_attr1 (self, 13, plan->n_new);

  reason = g_strdup_printf (_("Batch rows changed at %u"), plan->position);
  for (guint s = 0; s < n_slots; s++)
    if (affected[s])
      _mshed_document_mark_slot_geometry (self, s, MSHED_EDIT_BATCH_ROWS, reason);
  return TRUE;
}

/* Nodes ------------------------------------------------------------------------------------ */

static gboolean
rebuild_nodes (MshedDocument *self,
               Plan          *plan,
               GError       **error)
{
  MshedNres *nres = mshed_model_get_nres (self->model);
  gint r1 = mshed_model_find_resource (self->model, 1);
  gint r8 = mshed_model_find_resource (self->model, 8);
  gint r19 = mshed_model_find_resource (self->model, 19);
  gint r10 = mshed_model_find_resource (self->model, 10);
  guint N = plan->n_old, M = plan->n_new;
  guint K = mshed_model_get_n_rows (self->model, MSHED_TABLE_KEYS);
  guint W = mshed_model_get_n_rows (self->model, MSHED_TABLE_MAP);
  guint32 F = r19 >= 0 ? mshed_model_get_frame_count (self->model) : 1;
  const guint8 *old1 = mshed_nres_entry_get_data (mshed_nres_peek_entry (nres, (guint) r1), NULL);
  const guint8 *old8 = r8 >= 0 ? mshed_model_get_record (self->model, MSHED_TABLE_KEYS, 0) : NULL;
  const guint8 *old19 = r19 >= 0 ? mshed_model_get_record (self->model, MSHED_TABLE_MAP, 0) : NULL;
  g_autofree guint *track_start = g_new0 (guint, N + 1);
  g_autofree guint8 *res1 = g_malloc0 ((gsize) M * 38 + 1);
  g_autoptr(GByteArray) keys = g_byte_array_new ();
  g_autoptr(GByteArray) words = g_byte_array_new ();
  g_autoptr(GByteArray) names = g_byte_array_new ();
  guint start = 0;

  /* the canonical track layout must hold for tracks to move with their nodes */
  if (r8 >= 0)
    for (guint i = 0; i < N; i++)
      {
        guint16 h3 = mshed_read_u16 (old1 + (gsize) i * 38 + 6);

        if (h3 == MSHED_NONE || h3 < start || h3 >= K)
          {
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                         _("Table nodes, row %u, field hdr3: %u does not end a track of the "
                           "key pool in node order (docs/msh.md §7.7), so nodes cannot be "
                           "inserted, removed or moved"), i, h3);
            return FALSE;
          }
        track_start[i] = start;
        start = h3 + 1u;
      }
  for (guint i = 0; i < N; i++)
    {
      guint16 h2 = mshed_read_u16 (old1 + (gsize) i * 38 + 4);

      if (h2 != MSHED_NONE && (old19 == NULL || (guint64) h2 + F > W))
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                       _("Table nodes, row %u, field hdr2: the frame map block at %u does not "
                         "fit Res19, so nodes cannot be inserted, removed or moved"), i, h2);
          return FALSE;
        }
    }
  if (r10 >= 0 && !mshed_model_names_ok (self->model))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Table nodes: the name table (Res10) is broken, so nodes cannot be "
                     "inserted, removed or moved"));
      return FALSE;
    }

  for (guint j = 0, k = 0; j < M; j++)
    {
      gint i = plan->src[j];
      guint8 *rec = res1 + (gsize) j * 38;
      guint16 parent;

      if (i >= 0)
        {
          guint16 p = mshed_read_u16 (old1 + (gsize) i * 38 + 2);
          guint guard = 0;

          memcpy (rec, old1 + (gsize) i * 38, 38);
          /* a deleted parent hands its children to its own nearest surviving ancestor */
          while (p != MSHED_NONE && p < N && plan->map_old[p] == G_MAXUINT && guard++ <= N)
            p = mshed_read_u16 (old1 + (gsize) p * 38 + 2);
          parent = (p == MSHED_NONE || p >= N) ? p : (guint16) plan->map_old[p];
        }
      else
        {
          if (plan->records)
            memcpy (rec, plan->records + (gsize) (k++) * 38, 38);
          else
            {
              mshed_write_u16 (rec + 0, 0);
              for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
                mshed_write_u16 (rec + 8 + 2 * c, MSHED_NONE);
            }
          parent = plan->records ? mshed_read_u16 (rec + 2) : MSHED_NONE;
        }
      if (parent != MSHED_NONE && parent >= j)
        {
          if (plan->op == ROW_MOVE)
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                         _("Table nodes: the move would put node %d at row %u, before its "
                           "parent (now row %u); a parent must come first (docs/msh.md §4.1)"),
                         i, j, parent);
          else
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                         _("Table nodes, row %u, field hdr1: parent %u does not come before "
                           "the node (a parent must have a smaller index)"), j, parent);
          return FALSE;
        }
      mshed_write_u16 (rec + 2, parent);

      /* Res8 track */
      if (old8 != NULL)
        {
          guint new_start = keys->len / 24;

          if (i >= 0)
            {
              guint n_keys = mshed_read_u16 (old1 + (gsize) i * 38 + 6) + 1u - track_start[i];

              g_byte_array_append (keys, old8 + (gsize) track_start[i] * 24, n_keys * 24);
            }
          else
            {
              guint8 key[24] = { 0 };

              mshed_write_u16 (key + 22, 32767);  /* identity rotation, time 0 */
              g_byte_array_append (keys, key, 24);
            }
          if (keys->len / 24 > MSHED_NONE)
            {
              g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                           _("Table nodes: the key pool would exceed 65535 keys"));
              return FALSE;
            }
          mshed_write_u16 (rec + 6, (guint16) (keys->len / 24 - 1));

          /* Res19 block */
          if (i >= 0 && mshed_read_u16 (old1 + (gsize) i * 38 + 4) != MSHED_NONE)
            {
              guint16 h2 = mshed_read_u16 (old1 + (gsize) i * 38 + 4);
              guint old_end = mshed_read_u16 (old1 + (gsize) i * 38 + 6);

              if (words->len / 2 + F > MSHED_NONE)
                {
                  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                               _("Table nodes: the frame map would exceed 65535 words"));
                  return FALSE;
                }
              mshed_write_u16 (rec + 4, (guint16) (words->len / 2));
              for (guint32 f = 0; f < F; f++)
                {
                  guint16 w = mshed_read_u16 (old19 + 2 * ((gsize) h2 + f));
                  guint8 le[2];

                  if (w >= track_start[i] && w <= old_end)
                    w = (guint16) (w - track_start[i] + new_start);
                  mshed_write_u16 (le, w);
                  g_byte_array_append (words, le, 2);
                }
            }
          else
            mshed_write_u16 (rec + 4, MSHED_NONE);
        }
      else if (i < 0)
        {
          mshed_write_u16 (rec + 4, MSHED_NONE);
          mshed_write_u16 (rec + 6, plan->records ? mshed_read_u16 (rec + 6) : MSHED_NONE);
        }

      /* Res10 record */
      if (r10 >= 0)
        {
          if (i >= 0)
            {
              const guint8 *text;
              guint32 len;

              mshed_model_get_name_raw (self->model, (guint) i, &text, &len);
              g_byte_array_append (names, text - 4, 4 + (len ? len + 1 : 0));
            }
          else
            {
              static const guint8 empty[4] = { 0 };

              g_byte_array_append (names, empty, 4);
            }
        }
    }
  /* keys after the last track (not canonical, but kept) */
  if (old8 != NULL && start < K)
    g_byte_array_append (keys, old8 + (gsize) start * 24, (K - start) * 24);

  _mshed_document_replace_payload (self, (guint) r1, res1, (gsize) M * 38);
  if (old8 != NULL)
    {
      _mshed_document_replace_payload (self, (guint) r8, keys->data, keys->len);
      _mshed_document_set_attr1 (self, 8, keys->len / 24);
      if (r19 >= 0)
        {
          _mshed_document_replace_payload (self, (guint) r19, words->data, words->len);
          _mshed_document_set_attr1 (self, 19, words->len / 2);
        }
    }
  if (r10 >= 0)
    {
      _mshed_document_replace_payload (self, (guint) r10, names->data, names->len);
      _mshed_document_set_attr1 (self, 10, M);
    }
  _mshed_document_set_attr1 (self, 1, M);
  return TRUE;
}

/* Public ----------------------------------------------------------------------------------- */

static char *
row_label (RowOp        op,
           MshedTableId table,
           guint        position,
           guint        n,
           guint        new_position)
{
  const char *noun = table == MSHED_TABLE_NODES ? _("node")
                   : table == MSHED_TABLE_SLOTS ? _("slot") : _("batch");
  const char *nouns = table == MSHED_TABLE_NODES ? _("nodes")
                    : table == MSHED_TABLE_SLOTS ? _("slots") : _("batches");

  switch (op)
    {
    case ROW_INSERT:
      return n == 1 ? g_strdup_printf (_("Insert %s %u"), noun, position)
                    : g_strdup_printf (_("Insert %u %s at %u"), n, nouns, position);
    case ROW_DELETE:
      return n == 1 ? g_strdup_printf (_("Delete %s %u"), noun, position)
                    : g_strdup_printf (_("Delete %s %u–%u"), nouns, position, position + n - 1);
    case ROW_DUPLICATE:
      return n == 1 ? g_strdup_printf (_("Duplicate %s %u"), noun, position)
                    : g_strdup_printf (_("Duplicate %s %u–%u"), nouns, position,
                                       position + n - 1);
    case ROW_MOVE:
    default:
      return n == 1 ? g_strdup_printf (_("Move %s %u to %u"), noun, position, new_position)
                    : g_strdup_printf (_("Move %s %u–%u to %u"), nouns, position,
                                       position + n - 1, new_position);
    }
}

static gboolean
row_op (MshedDocument *self,
        MshedTableId   table,
        RowOp          op,
        guint          position,
        guint          n,
        guint          new_position,
        GBytes        *records,
        GError       **error)
{
  const MshedTableInfo *info;
  Plan plan = { 0 };
  g_autofree char *label = NULL;
  gboolean ok;
  guint N;
  gsize rlen = 0;

  if (!_mshed_document_need_model (self, error))
    return FALSE;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);

  if (table != MSHED_TABLE_NODES && table != MSHED_TABLE_SLOTS && table != MSHED_TABLE_BATCHES)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Rows can be inserted, deleted, duplicated and moved only in the nodes, "
                     "slots and batches tables"));
      return FALSE;
    }
  info = mshed_schema_get_table (table);
  if (mshed_model_find_resource (self->model, info->res_type) < 0 ||
      (table == MSHED_TABLE_SLOTS && mshed_model_get_record (self->model, MSHED_TABLE_HEADER, 0)
                                     == NULL))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Table %s: the model has no usable Res%u"), info->name, info->res_type);
      return FALSE;
    }
  if (table == MSHED_TABLE_NODES && !mshed_model_has_node_records (self->model))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED,
                   _("Table nodes: the node records are not 38 bytes long (legacy or unknown "
                     "layout), so nodes cannot be edited"));
      return FALSE;
    }
  {
    const MshedNresEntry *e = mshed_model_get_resource (self->model, info->res_type);
    gsize size = mshed_nres_entry_get_size (e);

    if (size < info->header_size || (size - info->header_size) % info->stride != 0)
      {
        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                     _("Table %s: Res%u is not a whole number of %u-byte records"),
                     info->name, info->res_type, info->stride);
        return FALSE;
      }
  }
  N = mshed_model_get_n_rows (self->model, table);
  if (n == 0)
    return TRUE;
  if (op == ROW_INSERT ? position > N : (position > N || n > N - position))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Table %s has %u rows; rows %u..%u do not exist"), info->name, N,
                   position, position + n - 1);
      return FALSE;
    }
  if (op == ROW_MOVE && new_position > N - n)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Table %s: %u rows cannot start at row %u of %u"), info->name, n,
                   new_position, N);
      return FALSE;
    }
  if ((op == ROW_INSERT || op == ROW_DUPLICATE) && (guint64) N + n > MSHED_NONE)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("Table %s: more than 65535 rows cannot be referenced"), info->name);
      return FALSE;
    }
  if (records != NULL)
    {
      plan.records = g_bytes_get_data (records, &rlen);
      if (rlen != (gsize) n * info->stride)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       _("Table %s: %u new rows need %zu bytes, not %zu"), info->name, n,
                       (gsize) n * info->stride, rlen);
          return FALSE;
        }
    }
  if (op == ROW_MOVE && new_position == position)
    return TRUE;

  plan.op = op;
  plan.position = position;
  plan.n = n;
  plan.new_position = new_position;
  plan.n_old = N;
  plan_build (&plan);

  label = row_label (op, table, position, n, new_position);
  _mshed_document_op_begin (self, label, 0);
  if (table == MSHED_TABLE_SLOTS)
    ok = rebuild_slots (self, &plan, error);
  else if (table == MSHED_TABLE_BATCHES)
    ok = rebuild_batches (self, &plan, error);
  else
    ok = rebuild_nodes (self, &plan, error);
  _mshed_document_op_end (self);
  plan_clear (&plan);
  return ok;
}

gboolean
mshed_document_insert_rows (MshedDocument *self,
                            MshedTableId   table,
                            guint          position,
                            guint          n,
                            GBytes        *records,
                            GError       **error)
{
  return row_op (self, table, ROW_INSERT, position, n, 0, records, error);
}

gboolean
mshed_document_delete_rows (MshedDocument *self,
                            MshedTableId   table,
                            guint          position,
                            guint          n,
                            GError       **error)
{
  return row_op (self, table, ROW_DELETE, position, n, 0, NULL, error);
}

gboolean
mshed_document_duplicate_rows (MshedDocument *self,
                               MshedTableId   table,
                               guint          position,
                               guint          n,
                               GError       **error)
{
  return row_op (self, table, ROW_DUPLICATE, position, n, 0, NULL, error);
}

gboolean
mshed_document_move_rows (MshedDocument *self,
                          MshedTableId   table,
                          guint          position,
                          guint          n,
                          guint          new_position,
                          GError       **error)
{
  return row_op (self, table, ROW_MOVE, position, n, new_position, NULL, error);
}
