/* mshed-record-rules.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-record rules of docs/msh.md §9.1 (see mshed-record-rules.h): a slot's ranges and
 * bounds, a batch's index and vertex ranges, a descriptor's neighbour links, a node's parent,
 * frame map, fallback key and slot cells, and the header's finite values. A violated "E" rule
 * is an error in either mode (one classification); the consequence says what a tolerant reader
 * does about it. Field names come from the schema, so findings and grids name fields alike.
 */
#define G_LOG_DOMAIN "mshed-validate"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <math.h>

#include "mshed-bytes.h"
#include "mshed-record-rules.h"
#include "mshed-schema.h"

static void G_GNUC_PRINTF (10, 11)
say (MshedRecordRules *r,
     MshedSeverity     severity,
     MshedCheck        check,
     guint32           res_type,
     MshedTableId      table,
     guint             record,
     const char       *field,
     guint             field_offset,
     const char       *consequence,
     const char       *format,
     ...)
{
  va_list args;

  va_start (args, format);
  r->report (r, severity, check, res_type, table, record, field, field_offset, consequence,
             format, args);
  va_end (args);
}

static const char *
field_name (MshedTableId table,
            guint        index)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);

  g_assert (info != NULL && index < info->n_fields);
  return info->fields[index].name;
}

void
_mshed_rules_header (MshedRecordRules *r,
                     const guint8     *h)
{
  for (guint i = 0; i < 35; i++)
    if (!isfinite (mshed_read_f32 (h + 4 * i)))
      {
        say (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_HEADER_NONFINITE, 2, MSHED_TABLE_HEADER, 0,
             field_name (MSHED_TABLE_HEADER, i), 4 * i, _("the model bounds are not used"),
             _("Res2 header, field %s: the value is not a finite number"),
             field_name (MSHED_TABLE_HEADER, i));
        return;
      }
}

void
_mshed_rules_slot (MshedRecordRules *r,
                   const guint8     *rec,
                   guint             s)
{
  guint32 tri_start = mshed_read_u16 (rec + 0);
  guint32 tri_count = mshed_read_u16 (rec + 2);
  guint32 batch_start = mshed_read_u16 (rec + 4);
  guint32 batch_count = mshed_read_u16 (rec + 6);
  float f[10];
  gint bad = -1;

  if (batch_start + batch_count > r->n_batches)
    {
      if (batch_count == 0)
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_SLOT_BATCH_RANGE, 2, MSHED_TABLE_SLOTS, s,
             "batchStart", 4, _("ignored: the slot draws no batches"),
             _("Res2 slot %u, field batchStart: %u is past the %u batches in Res13"),
             s, batch_start, r->n_batches);
      else
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_SLOT_BATCH_RANGE, 2, MSHED_TABLE_SLOTS, s,
             "batchStart", 4, _("ignored: the slot draws no batches"),
             _("Res2 slot %u, field batchStart: batch range %u..%u ends past the %u "
               "batches in Res13"),
             s, batch_start, batch_start + batch_count - 1, r->n_batches);
    }

  if (tri_start + tri_count > r->n_tris)
    {
      if (tri_count == 0)
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_SLOT_TRI_RANGE, 2, MSHED_TABLE_SLOTS, s,
             "triStart", 0, _("ignored: the slot has no triangle descriptors"),
             _("Res2 slot %u, field triStart: %u is past the %u triangle descriptors "
               "in Res7"), s, tri_start, r->n_tris);
      else
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_SLOT_TRI_RANGE, 2, MSHED_TABLE_SLOTS, s,
             "triStart", 0, _("ignored: the slot has no triangle descriptors"),
             _("Res2 slot %u, field triStart: descriptor range %u..%u ends past the %u "
               "triangle descriptors in Res7"),
             s, tri_start, tri_start + tri_count - 1, r->n_tris);
    }

  for (guint i = 0; i < 10; i++)
    {
      f[i] = mshed_read_f32 (rec + 8 + 4 * i);
      if (bad < 0 && !isfinite (f[i]))
        bad = (gint) i;
    }
  if (bad >= 0)
    {
      say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_SLOT_NONFINITE, 2, MSHED_TABLE_SLOTS, s,
           field_name (MSHED_TABLE_SLOTS, 4 + bad), 8 + 4 * bad,
           _("ignored: the slot bounds are not used"),
           _("Res2 slot %u, field %s: the value is not a finite number"),
           s, field_name (MSHED_TABLE_SLOTS, 4 + bad));
      return;
    }
  for (guint axis = 0; axis < 3; axis++)
    if (f[axis] > f[3 + axis])
      {
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_SLOT_AABB_ORDER, 2, MSHED_TABLE_SLOTS, s,
             field_name (MSHED_TABLE_SLOTS, 4 + axis), 8 + 4 * axis,
             _("ignored: the slot bounds are not used"),
             _("Res2 slot %u, field %s: the box minimum %g is greater than its maximum %g"),
             s, field_name (MSHED_TABLE_SLOTS, 4 + axis), f[axis], f[3 + axis]);
        break;
      }
  if (f[9] < 0.0f)
    say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_SLOT_RADIUS, 2, MSHED_TABLE_SLOTS, s,
         field_name (MSHED_TABLE_SLOTS, 13), 44, _("ignored: the slot bounds are not used"),
         _("Res2 slot %u, field %s: the sphere radius %g is negative"),
         s, field_name (MSHED_TABLE_SLOTS, 13), f[9]);
}

/* The largest of @n little-endian u16 words, over 16 lanes so that the compiler vectorises */
static inline guint
max_u16 (const guint8 *p,
         gsize         n)
{
  guint16 lane[16] = { 0 };
  guint m = 0;
  gsize i = 0;

  for (; i + 16 <= n; i += 16)
    for (guint k = 0; k < 16; k++)
      {
        guint16 v = mshed_read_u16 (p + 2 * (i + k));
        lane[k] = v > lane[k] ? v : lane[k];
      }
  for (guint k = 0; k < 16; k++)
    m = lane[k] > m ? lane[k] : m;
  for (; i < n; i++)
    {
      guint v = mshed_read_u16 (p + 2 * i);
      m = v > m ? v : m;
    }
  return m;
}

void
_mshed_rules_batch (MshedRecordRules *r,
                    const guint8     *rec,
                    guint             b)
{
  guint32 count = mshed_read_u16 (rec + 8);
  guint32 start = mshed_read_u32 (rec + 10);
  guint32 base = mshed_read_u32 (rec + 16);
  const guint8 *slice;

  if ((guint64) start + count > r->n_indices)
    {
      if (count == 0)
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_BATCH_INDEX_RANGE, 13, MSHED_TABLE_BATCHES, b,
             "indexStart", 10, _("ignored: the batch is not drawn"),
             _("Res13 batch %u, field indexStart: %u is past the %u indices in Res6"),
             b, start, r->n_indices);
      else
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_BATCH_INDEX_RANGE, 13, MSHED_TABLE_BATCHES, b,
             "indexStart", 10, _("ignored: the batch is not drawn"),
             _("Res13 batch %u, field indexStart: index range %u..%" PRIu64
               " ends past the %u indices in Res6"),
             b, start, (guint64) start + count - 1, r->n_indices);
      return;
    }
  if (count % 3 != 0)
    say (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_BATCH_INDEX_MULTIPLE, 13, MSHED_TABLE_BATCHES, b,
         "indexCount", 8, _("the incomplete last triangle is not drawn"),
         _("Res13 batch %u, field indexCount: %u is not a multiple of 3"), b, count);
  if (count == 0 || r->indices == NULL)
    return;

  slice = r->indices + (gsize) start * 2;
  if ((guint64) base + max_u16 (slice, count) >= r->n_verts)
    {
      guint32 n_bad = 0, first = 0;

      for (guint32 i = count; i-- > 0;)
        if ((guint64) base + mshed_read_u16 (slice + 2 * i) >= r->n_verts)
          {
            n_bad++;
            first = i;
          }
      say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_BATCH_VERTEX_RANGE, 13, MSHED_TABLE_BATCHES, b,
           "baseVertex", 16, _("ignored: the triangles that use them are not drawn"),
           _("Res13 batch %u, field baseVertex: %u of its %u indices point past the "
             "%u vertices in Res3 (the first: Res6 element %" PRIu64
             " is %u, + baseVertex %u = vertex %" PRIu64 ")"),
           b, n_bad, count, r->n_verts, (guint64) start + first,
           mshed_read_u16 (slice + 2 * first), base,
           (guint64) base + mshed_read_u16 (slice + 2 * first));
    }
}

void
_mshed_rules_tri (MshedRecordRules *r,
                  const guint8     *rec,
                  guint             t)
{
  for (guint k = 0; k < 3; k++)
    {
      guint32 link = mshed_read_u16 (rec + 2 + 2 * k);

      if (G_UNLIKELY (link != MSHED_NONE && link >= r->n_tris))
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_TRI_LINK, 7, MSHED_TABLE_TRIS, t,
             field_name (MSHED_TABLE_TRIS, 1 + k), 2 + 2 * k,
             _("ignored: treated as no neighbour"),
             _("Res7 descriptor %u, field %s: neighbour %u is past the %u descriptors"),
             t, field_name (MSHED_TABLE_TRIS, 1 + k), link, r->n_tris);
    }
}

void
_mshed_rules_node (MshedRecordRules *r,
                   const guint8     *rec,
                   guint             n)
{
  guint32 parent = mshed_read_u16 (rec + 2);
  guint32 map_start = mshed_read_u16 (rec + 4);
  guint32 fallback = mshed_read_u16 (rec + 6);

  if (parent != MSHED_NONE && parent >= n)
    {
      if (parent >= r->n_nodes)
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_NODE_PARENT, 1, MSHED_TABLE_NODES, n, "hdr1", 2,
             _("ignored: the node is treated as a root"),
             _("Res1 node %u, field hdr1: parent %u does not exist (the model has %u nodes)"),
             n, parent, r->n_nodes);
      else
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_NODE_PARENT, 1, MSHED_TABLE_NODES, n, "hdr1", 2,
             _("ignored: the node is treated as a root"),
             _("Res1 node %u, field hdr1: parent %u does not come before the node (a "
               "parent must have a smaller index)"), n, parent);
    }

  if (map_start != MSHED_NONE && (guint64) map_start + r->frames > r->n_words)
    {
      if (r->have_map)
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_NODE_MAP, 1, MSHED_TABLE_NODES, n, "hdr2", 4,
             _("ignored: the node always uses its fallback key"),
             _("Res1 node %u, field hdr2: its frame map starts at word %u and needs %u "
               "words (the frame count), but Res19 holds %u"),
             n, map_start, r->frames, r->n_words);
      else
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_NODE_MAP, 1, MSHED_TABLE_NODES, n, "hdr2", 4,
             _("ignored: the node always uses its fallback key"),
             _("Res1 node %u, field hdr2: %u points into a frame map, but the model "
               "has no Res19"), n, map_start);
    }

  if (r->have_keys && fallback >= r->n_keys)
    say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_NODE_KEY, 1, MSHED_TABLE_NODES, n, "hdr3", 6,
         _("ignored: the node gets no animation pose"),
         _("Res1 node %u, field hdr3: fallback key %u is past the %u keys in Res8"),
         n, fallback, r->n_keys);

  for (guint j = 0; j < MSHED_N_SLOT_CELLS; j++)
    {
      guint32 slot = mshed_read_u16 (rec + 8 + 2 * j);

      if (slot != MSHED_NONE && slot >= r->n_slots)
        say (r, MSHED_SEVERITY_ERROR, MSHED_CHECK_NODE_SLOT, 1, MSHED_TABLE_NODES, n,
             field_name (MSHED_TABLE_NODES, 4 + j), 8 + 2 * j,
             _("ignored: nothing is drawn for this LOD and group"),
             _("Res1 node %u, field %s (LOD %u, group %u): slot %u is past the %u "
               "slots in Res2"),
             n, field_name (MSHED_TABLE_NODES, 4 + j), j / MSHED_N_GROUPS,
             j % MSHED_N_GROUPS, slot, r->n_slots);
    }
}
