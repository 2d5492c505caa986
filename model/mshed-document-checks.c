/* mshed-document-checks.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-record rules of docs/msh.md §9.1 for one record, with the codes, fields, offsets and
 * messages mshed_validate_model uses, so that after a local edit the document replaces just
 * that record's findings instead of re-validating a 200k-triangle model. Rules that look at
 * more than one record (animation layout, counts, Res10) stay with the full validator.
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <math.h>

#include "mshed-bytes.h"
#include "mshed-document-private.h"
#include "mshed-schema.h"

typedef struct {
  const MshedModel *model;
  MshedDiagnostics *diags;
  MshedSeverity     err;
  gboolean          tolerant;  /* append what a tolerant reader drops */
} Ctx;

gboolean
_mshed_check_is_local (MshedCheck check)
{
  switch (check)
    {
    case MSHED_CHECK_HEADER_NONFINITE:
    case MSHED_CHECK_SLOT_BATCH_RANGE:
    case MSHED_CHECK_SLOT_TRI_RANGE:
    case MSHED_CHECK_SLOT_NONFINITE:
    case MSHED_CHECK_SLOT_AABB_ORDER:
    case MSHED_CHECK_SLOT_RADIUS:
    case MSHED_CHECK_BATCH_INDEX_RANGE:
    case MSHED_CHECK_BATCH_INDEX_MULTIPLE:
    case MSHED_CHECK_BATCH_VERTEX_RANGE:
    case MSHED_CHECK_TRI_LINK:
    case MSHED_CHECK_NODE_PARENT:
    case MSHED_CHECK_NODE_MAP:
    case MSHED_CHECK_NODE_KEY:
    case MSHED_CHECK_NODE_SLOT:
      return TRUE;
    default:
      return FALSE;
    }
}

static const char *
field_name (MshedTableId table,
            guint        index)
{
  return mshed_schema_get_table (table)->fields[index].name;
}

static void G_GNUC_PRINTF (9, 10)
report (Ctx          *c,
        MshedSeverity severity,
        MshedCheck    check,
        guint32       res_type,
        MshedTableId  table,
        gint64        record,
        const char   *field,
        const char   *consequence,
        const char   *format,
        ...)
{
  g_autofree char *message = NULL;
  const MshedNresEntry *e = mshed_model_get_resource (c->model, res_type);
  guint64 offset = mshed_model_get_record_offset (c->model, table, (guint) record);
  const MshedField *f = field ? mshed_schema_find_field (mshed_schema_get_table (table), field)
                              : NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (consequence != NULL && c->tolerant)
    {
      char *full = g_strdup_printf (_("%s; %s"), message, consequence);

      g_free (message);
      message = full;
    }
  if (f)
    offset += f->offset;
  mshed_diagnostics_add (c->diags, severity, check, res_type,
                         mshed_model_find_resource (c->model, res_type), table, record, field,
                         e ? offset : 0, "%s", message);
}

static guint32
count_of (const MshedModel *model,
          guint32           type,
          guint             stride)
{
  const MshedNresEntry *e = mshed_model_get_resource (model, type);

  return e ? (guint32) (mshed_nres_entry_get_size (e) / stride) : 0;
}

static void
check_header (Ctx *c)
{
  const guint8 *h = mshed_model_get_record (c->model, MSHED_TABLE_HEADER, 0);

  if (h == NULL)
    return;
  for (guint i = 0; i < 35; i++)
    if (!isfinite (mshed_read_f32 (h + 4 * i)))
      {
        report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_HEADER_NONFINITE, 2, MSHED_TABLE_HEADER,
                0, field_name (MSHED_TABLE_HEADER, i), _("the model bounds are not used"),
                _("Res2 header, field %s: the value is not a finite number"),
                field_name (MSHED_TABLE_HEADER, i));
        return;
      }
}

static void
check_slot (Ctx  *c,
            guint s)
{
  const guint8 *rec = mshed_model_get_record (c->model, MSHED_TABLE_SLOTS, s);
  guint32 n_batches = count_of (c->model, 13, 20);
  guint32 n_tris = count_of (c->model, 7, 16);
  guint32 tri_start, tri_count, batch_start, batch_count;
  float f[10];
  gint bad = -1;

  if (rec == NULL)
    return;
  tri_start = mshed_read_u16 (rec + 0);
  tri_count = mshed_read_u16 (rec + 2);
  batch_start = mshed_read_u16 (rec + 4);
  batch_count = mshed_read_u16 (rec + 6);

  if (batch_start + batch_count > n_batches)
    {
      if (batch_count == 0)
        report (c, c->err, MSHED_CHECK_SLOT_BATCH_RANGE, 2, MSHED_TABLE_SLOTS, s, "batchStart",
                _("ignored: the slot draws no batches"),
                _("Res2 slot %u, field batchStart: %u is past the %u batches in Res13"),
                s, batch_start, n_batches);
      else
        report (c, c->err, MSHED_CHECK_SLOT_BATCH_RANGE, 2, MSHED_TABLE_SLOTS, s, "batchStart",
                _("ignored: the slot draws no batches"),
                _("Res2 slot %u, field batchStart: batch range %u..%u ends past the %u "
                  "batches in Res13"),
                s, batch_start, batch_start + batch_count - 1, n_batches);
    }
  if (tri_start + tri_count > n_tris)
    {
      if (tri_count == 0)
        report (c, c->err, MSHED_CHECK_SLOT_TRI_RANGE, 2, MSHED_TABLE_SLOTS, s, "triStart",
                _("ignored: the slot has no triangle descriptors"),
                _("Res2 slot %u, field triStart: %u is past the %u triangle descriptors "
                  "in Res7"), s, tri_start, n_tris);
      else
        report (c, c->err, MSHED_CHECK_SLOT_TRI_RANGE, 2, MSHED_TABLE_SLOTS, s, "triStart",
                _("ignored: the slot has no triangle descriptors"),
                _("Res2 slot %u, field triStart: descriptor range %u..%u ends past the %u "
                  "triangle descriptors in Res7"),
                s, tri_start, tri_start + tri_count - 1, n_tris);
    }

  for (guint i = 0; i < 10; i++)
    {
      f[i] = mshed_read_f32 (rec + 8 + 4 * i);
      if (bad < 0 && !isfinite (f[i]))
        bad = (gint) i;
    }
  if (bad >= 0)
    {
      report (c, c->err, MSHED_CHECK_SLOT_NONFINITE, 2, MSHED_TABLE_SLOTS, s,
              field_name (MSHED_TABLE_SLOTS, 4 + bad), _("ignored: the slot bounds are not used"),
              _("Res2 slot %u, field %s: the value is not a finite number"),
              s, field_name (MSHED_TABLE_SLOTS, 4 + bad));
      return;
    }
  for (guint axis = 0; axis < 3; axis++)
    if (f[axis] > f[3 + axis])
      {
        report (c, c->err, MSHED_CHECK_SLOT_AABB_ORDER, 2, MSHED_TABLE_SLOTS, s,
                field_name (MSHED_TABLE_SLOTS, 4 + axis), _("ignored: the slot bounds are not used"),
                _("Res2 slot %u, field %s: the box minimum %g is greater than its maximum %g"),
                s, field_name (MSHED_TABLE_SLOTS, 4 + axis), f[axis], f[3 + axis]);
        break;
      }
  if (f[9] < 0.0f)
    report (c, c->err, MSHED_CHECK_SLOT_RADIUS, 2, MSHED_TABLE_SLOTS, s,
            field_name (MSHED_TABLE_SLOTS, 13), _("ignored: the slot bounds are not used"),
            _("Res2 slot %u, field %s: the sphere radius %g is negative"),
            s, field_name (MSHED_TABLE_SLOTS, 13), f[9]);
}

static void
check_batch (Ctx  *c,
             guint b)
{
  const guint8 *rec = mshed_model_get_record (c->model, MSHED_TABLE_BATCHES, b);
  const MshedNresEntry *r6 = mshed_model_get_resource (c->model, 6);
  guint32 n_indices = count_of (c->model, 6, 2);
  guint32 n_verts = count_of (c->model, 3, 12);
  guint32 count, start, base;
  const guint8 *slice;
  guint max = 0;

  if (rec == NULL)
    return;
  count = mshed_read_u16 (rec + 8);
  start = mshed_read_u32 (rec + 10);
  base = mshed_read_u32 (rec + 16);

  if ((guint64) start + count > n_indices)
    {
      if (count == 0)
        report (c, c->err, MSHED_CHECK_BATCH_INDEX_RANGE, 13, MSHED_TABLE_BATCHES, b,
                "indexStart", _("ignored: the batch is not drawn"),
                _("Res13 batch %u, field indexStart: %u is past the %u indices in Res6"),
                b, start, n_indices);
      else
        report (c, c->err, MSHED_CHECK_BATCH_INDEX_RANGE, 13, MSHED_TABLE_BATCHES, b,
                "indexStart", _("ignored: the batch is not drawn"),
                _("Res13 batch %u, field indexStart: index range %u..%" PRIu64
                  " ends past the %u indices in Res6"),
                b, start, (guint64) start + count - 1, n_indices);
      return;
    }
  if (count % 3 != 0)
    report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_BATCH_INDEX_MULTIPLE, 13, MSHED_TABLE_BATCHES,
            b, "indexCount", _("the incomplete last triangle is not drawn"),
            _("Res13 batch %u, field indexCount: %u is not a multiple of 3"), b, count);
  if (count == 0 || r6 == NULL)
    return;

  slice = mshed_nres_entry_get_data (r6, NULL) + (gsize) start * 2;
  for (guint32 i = 0; i < count; i++)
    max = MAX (max, mshed_read_u16 (slice + 2 * i));
  if ((guint64) base + max >= n_verts)
    {
      guint32 n_bad = 0, first = 0;

      for (guint32 i = count; i-- > 0;)
        if ((guint64) base + mshed_read_u16 (slice + 2 * i) >= n_verts)
          {
            n_bad++;
            first = i;
          }
      report (c, c->err, MSHED_CHECK_BATCH_VERTEX_RANGE, 13, MSHED_TABLE_BATCHES, b,
              "baseVertex", _("ignored: the triangles that use them are not drawn"),
              _("Res13 batch %u, field baseVertex: %u of its %u indices point past the "
                "%u vertices in Res3 (the first: Res6 element %" PRIu64
                " is %u, + baseVertex %u = vertex %" PRIu64 ")"),
              b, n_bad, count, n_verts, (guint64) start + first,
              mshed_read_u16 (slice + 2 * first), base,
              (guint64) base + mshed_read_u16 (slice + 2 * first));
    }
}

static void
check_tri (Ctx  *c,
           guint t)
{
  const guint8 *rec = mshed_model_get_record (c->model, MSHED_TABLE_TRIS, t);
  guint32 n = count_of (c->model, 7, 16);

  if (rec == NULL)
    return;
  for (guint k = 0; k < 3; k++)
    {
      guint32 link = mshed_read_u16 (rec + 2 + 2 * k);

      if (link != MSHED_NONE && link >= n)
        report (c, c->err, MSHED_CHECK_TRI_LINK, 7, MSHED_TABLE_TRIS, t,
                field_name (MSHED_TABLE_TRIS, 1 + k), _("ignored: treated as no neighbour"),
                _("Res7 descriptor %u, field %s: neighbour %u is past the %u descriptors"),
                t, field_name (MSHED_TABLE_TRIS, 1 + k), link, n);
    }
}

static void
check_node (Ctx  *c,
            guint n)
{
  const guint8 *rec = mshed_model_get_record (c->model, MSHED_TABLE_NODES, n);
  guint32 n_nodes = mshed_model_get_n_rows (c->model, MSHED_TABLE_NODES);
  guint32 n_slots = mshed_model_get_n_rows (c->model, MSHED_TABLE_SLOTS);
  guint32 n_keys = count_of (c->model, 8, 24);
  guint32 n_words = count_of (c->model, 19, 2);
  guint32 frames = mshed_model_get_resource (c->model, 19) ? mshed_model_get_frame_count (c->model)
                                                           : 1;
  gboolean have_keys = mshed_model_get_resource (c->model, 8) != NULL;
  gboolean have_map = mshed_model_get_resource (c->model, 19) != NULL;
  guint32 parent, map_start, fallback;

  if (rec == NULL)
    return;
  parent = mshed_read_u16 (rec + 2);
  map_start = mshed_read_u16 (rec + 4);
  fallback = mshed_read_u16 (rec + 6);

  if (parent != MSHED_NONE && parent >= n)
    {
      if (parent >= n_nodes)
        report (c, c->err, MSHED_CHECK_NODE_PARENT, 1, MSHED_TABLE_NODES, n, "hdr1",
                _("ignored: the node is treated as a root"),
                _("Res1 node %u, field hdr1: parent %u does not exist (the model has %u "
                  "nodes)"), n, parent, n_nodes);
      else
        report (c, c->err, MSHED_CHECK_NODE_PARENT, 1, MSHED_TABLE_NODES, n, "hdr1",
                _("ignored: the node is treated as a root"),
                _("Res1 node %u, field hdr1: parent %u does not come before the node (a "
                  "parent must have a smaller index)"), n, parent);
    }
  if (map_start != MSHED_NONE && (guint64) map_start + frames > n_words)
    {
      if (have_map)
        report (c, c->err, MSHED_CHECK_NODE_MAP, 1, MSHED_TABLE_NODES, n, "hdr2",
                _("ignored: the node always uses its fallback key"),
                _("Res1 node %u, field hdr2: its frame map starts at word %u and needs %u "
                  "words (the frame count), but Res19 holds %u"),
                n, map_start, frames, n_words);
      else
        report (c, c->err, MSHED_CHECK_NODE_MAP, 1, MSHED_TABLE_NODES, n, "hdr2",
                _("ignored: the node always uses its fallback key"),
                _("Res1 node %u, field hdr2: %u points into a frame map, but the model "
                  "has no Res19"), n, map_start);
    }
  if (have_keys && fallback >= n_keys)
    report (c, c->err, MSHED_CHECK_NODE_KEY, 1, MSHED_TABLE_NODES, n, "hdr3",
            _("ignored: the node gets no animation pose"),
            _("Res1 node %u, field hdr3: fallback key %u is past the %u keys in Res8"),
            n, fallback, n_keys);
  for (guint j = 0; j < MSHED_N_SLOT_CELLS; j++)
    {
      guint32 slot = mshed_read_u16 (rec + 8 + 2 * j);

      if (slot != MSHED_NONE && slot >= n_slots)
        report (c, c->err, MSHED_CHECK_NODE_SLOT, 1, MSHED_TABLE_NODES, n,
                field_name (MSHED_TABLE_NODES, 4 + j),
                _("ignored: nothing is drawn for this LOD and group"),
                _("Res1 node %u, field %s (LOD %u, group %u): slot %u is past the %u "
                  "slots in Res2"),
                n, field_name (MSHED_TABLE_NODES, 4 + j), j / MSHED_N_GROUPS,
                j % MSHED_N_GROUPS, slot, n_slots);
    }
}

void
_mshed_check_record (const MshedModel *model,
                     MshedMode         mode,
                     MshedTableId      table,
                     guint             row,
                     MshedDiagnostics *diags)
{
  /* the same classification as mshed_validate_model: errors stay errors in tolerant mode */
  Ctx c = { model, diags, MSHED_SEVERITY_ERROR, mode == MSHED_MODE_TOLERANT };

  switch (table)
    {
    case MSHED_TABLE_HEADER:
      check_header (&c);
      break;
    case MSHED_TABLE_SLOTS:
      check_slot (&c, row);
      break;
    case MSHED_TABLE_BATCHES:
      check_batch (&c, row);
      break;
    case MSHED_TABLE_TRIS:
      check_tri (&c, row);
      break;
    case MSHED_TABLE_NODES:
      if (mshed_model_has_node_records (model))
        check_node (&c, row);
      break;
    default:
      break;
    }
}
