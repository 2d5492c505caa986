/* quads-model.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-nres.h"
#include "quads-model.h"

/* Model ---------------------------------------------------------------------------------- */

static void
put_slot (guint8      *res2,
          guint        index,
          guint16      tri_start,
          guint16      tri_count,
          guint16      batch_start,
          guint16      batch_count,
          const float  box[6])
{
  guint8 *r = res2 + 140 + 68 * index;

  mshed_write_u16 (r + 0, tri_start);
  mshed_write_u16 (r + 2, tri_count);
  mshed_write_u16 (r + 4, batch_start);
  mshed_write_u16 (r + 6, batch_count);
  for (guint k = 0; k < 3; k++)
    {
      mshed_write_f32 (r + 8 + 4 * k, box[k]);
      mshed_write_f32 (r + 20 + 4 * k, box[3 + k]);
      mshed_write_f32 (r + 32 + 4 * k, 0.5f * (box[k] + box[3 + k]));
    }
  mshed_write_f32 (r + 44, 1.2f);
}

static void
put_batch (guint8  *res13,
           guint    index,
           guint16  index_count,
           guint32  index_start,
           guint32  base_vertex)
{
  guint8 *r = res13 + 20 * index;

  mshed_write_u16 (r + 2, (guint16) index);   /* materialIndex */
  mshed_write_u16 (r + 8, index_count);
  mshed_write_u32 (r + 10, index_start);
  mshed_write_u32 (r + 16, base_vertex);
}

GBytes *
build_model_bytes (guint node_stride)
{
  static const float quads[12][3] = {
    { -2, 0, -1 }, { -1, 0, -1 }, { -1, 0, 1 }, { -2, 0, 1 },           /* A */
    { -0.5f, 0, -1 }, { 0.5f, 0, -1 }, { 0.5f, 0, 1 }, { -0.5f, 0, 1 },  /* B */
    { -2, 0, -0.5f }, { -1.5f, 0, -0.5f }, { -1.5f, 0, 0 }, { -2, 0, 0 }, /* C */
  };
  static const guint16 indices[12] = { 0, 1, 2, 0, 2, 3, 3, 0, 1, 0, 1, 2 };
  static const guint16 map[3] = { 1, 1, 2 };
  static const float keys[3][4] = { { 0, 0, 0.5f, 0 }, { 1.5f, 0, 0, 0 }, { 1.5f, 0, -1, 2 } };
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  guint8 nodes[2 * 38];
  guint8 res2[140 + 5 * 68] = { 0 };
  guint8 res3[12 * 12], res4[12 * 4], res5[12 * 4], res6[12 * 2], res8[3 * 24] = { 0 };
  guint8 res13[6 * 20] = { 0 };
  guint8 res19[3 * 2];
  guint8 res7[10 * 16];
  static const guint8 names[] = { 4, 0, 0, 0, 'b', 'a', 's', 'e', 0, 6, 0, 0, 0, 't', 'u', 'r',
                                  'r', 'e', 't', 0 };

  memset (nodes, 0xFF, sizeof nodes);
  mshed_write_u16 (nodes + 0, 0);
  mshed_write_u16 (nodes + 6, 0);                  /* hdr3: key 0 */
  mshed_write_u16 (nodes + 8 + 2 * 0, 0);          /* lod 0 group 0 */
  mshed_write_u16 (nodes + 8 + 2 * 1, 3);          /* lod 0 group 1 */
  mshed_write_u16 (nodes + 8 + 2 * 2, 99);         /* lod 0 group 2: no such slot */
  mshed_write_u16 (nodes + 8 + 2 * 5, 2);          /* lod 1 group 0 */
  mshed_write_u16 (nodes + 38 + 0, 0);
  mshed_write_u16 (nodes + 38 + 2, 0);             /* parent 0 */
  mshed_write_u16 (nodes + 38 + 4, 0);             /* map block at 0 */
  mshed_write_u16 (nodes + 38 + 6, 2);             /* fallback key 2 */
  mshed_write_u16 (nodes + 38 + 8 + 2 * 0, 1);
  mshed_write_u16 (nodes + 38 + 8 + 2 * 1, 4);

  /* header: sphere and capsule around everything, hull = AABB corners */
  for (guint i = 0; i < 8; i++)
    {
      mshed_write_f32 (res2 + 12 * i + 0, (i & 1) ? 2.0f : -2.0f);
      mshed_write_f32 (res2 + 12 * i + 4, (i & 2) ? 0.1f : -0.1f);
      mshed_write_f32 (res2 + 12 * i + 8, (i & 4) ? 1.5f : -0.5f);
    }
  mshed_write_f32 (res2 + 0x60 + 8, 0.5f);
  mshed_write_f32 (res2 + 0x6C, 2.3f);
  mshed_write_f32 (res2 + 0x70, -1.5f);
  mshed_write_f32 (res2 + 0x70 + 12, 1.5f);
  mshed_write_f32 (res2 + 0x70 + 24, 1.0f);
  /* descriptors: slot s owns [triStart, +triCount) = its batches' triangles in order */
  put_slot (res2, 0, 0, 2, 0, 1, (const float[]) { -2, 0, -1, -1, 0, 1 });
  /* slot 1 is stale: max z 3 */
  put_slot (res2, 1, 2, 2, 1, 1, (const float[]) { -0.5f, 0, -1, 0.5f, 0, 3 });
  put_slot (res2, 2, 4, 2, 2, 1, (const float[]) { -2, 0, -0.5f, -1.5f, 0, 0 });
  put_slot (res2, 3, 6, 4, 3, 3, (const float[]) { -2, 0, -0.5f, -1.5f, 0, 0 });
  put_slot (res2, 4, 10, 0, 5, 3, (const float[]) { 0, 0, 0, 0, 0, 0 });

  for (guint v = 0; v < 12; v++)
    {
      for (guint k = 0; k < 3; k++)
        mshed_write_f32 (res3 + 12 * v + 4 * k, quads[v][k]);
      res4[4 * v + 0] = 0;
      res4[4 * v + 1] = (guint8) (gint8) -127;   /* facing -y, the camera */
      res4[4 * v + 2] = 0;
      res4[4 * v + 3] = 0;
      mshed_write_u16 (res5 + 4 * v, (guint16) (gint16) (quads[v][0] * 1024));
      mshed_write_u16 (res5 + 4 * v + 2, (guint16) (gint16) (quads[v][2] * 1024));
    }
  for (guint i = 0; i < 12; i++)
    mshed_write_u16 (res6 + 2 * i, indices[i]);
  put_batch (res13, 0, 6, 0, 0);
  put_batch (res13, 1, 6, 0, 4);
  put_batch (res13, 2, 6, 0, 8);
  put_batch (res13, 3, 6, 8, 0);    /* 8 + 6 > 12 indices */
  put_batch (res13, 4, 6, 6, 9);    /* (3 0 1) + 9 = 12 9 10: vertex 12 missing; (0 1 2) + 9 ok */
  put_batch (res13, 5, 2, 0, 0);    /* fewer than 3 indices */
  for (guint i = 0; i < 3; i++)
    {
      guint8 *r = res8 + 24 * i;

      for (guint k = 0; k < 3; k++)
        mshed_write_f32 (r + 4 * k, keys[i][k]);
      mshed_write_f32 (r + 12, keys[i][3]);
      mshed_write_u16 (r + 22, 32767);   /* qw = 1 */
    }
  for (guint i = 0; i < 3; i++)
    mshed_write_u16 (res19 + 2 * i, map[i]);

  if (node_stride == 38)
    mshed_nres_append_entry (nres, 1, 2, 0, 38, NULL, nodes, sizeof nodes);
  else
    mshed_nres_append_entry (nres, 1, 2, 0, node_stride, NULL, nodes, 2 * node_stride);
  mshed_nres_append_entry (nres, 2, 5, 0, 68, NULL, res2, sizeof res2);
  mshed_nres_append_entry (nres, 3, 12, 0, 12, NULL, res3, sizeof res3);
  mshed_nres_append_entry (nres, 4, 12, 0, 4, NULL, res4, sizeof res4);
  mshed_nres_append_entry (nres, 5, 12, 0, 4, NULL, res5, sizeof res5);
  mshed_nres_append_entry (nres, 13, 6, 0, 20, NULL, res13, sizeof res13);
  mshed_nres_append_entry (nres, 6, 12, 0, 2, NULL, res6, sizeof res6);
  memset (res7, 0xFF, sizeof res7);
  mshed_nres_append_entry (nres, 7, 10, 0, 16, NULL, res7, sizeof res7);
  mshed_nres_append_entry (nres, 8, 3, 0, 4, NULL, res8, sizeof res8);
  mshed_nres_append_entry (nres, 19, 3, 3, 2, NULL, res19, sizeof res19);
  mshed_nres_append_entry (nres, 10, 2, 0, 0, NULL, names, sizeof names);
  return mshed_nres_serialize (nres, NULL);
}

MshedModel *
build_model (guint node_stride)
{
  g_autoptr(GBytes) bytes = build_model_bytes (node_stride);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  MshedModel *model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, diags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

