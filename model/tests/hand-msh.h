/* hand-msh.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Parkan models laid out byte by byte (docs/msh.md §4) from a list of named nodes, one quad
 * each, for the tests of the compare window's ghost colours: expected marks never come from
 * the code under test. Header-only.
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-nres.h"

typedef struct {
  const char *name;
  float       x;    /* the quad's local x offset */
  float       z;    /* the node's translation (its one key) */
  float       dy;   /* added to the y of the quad's corner 1 (used by its first triangle) */
} HandMshNode;

/* @n nodes, root each, node i drawing one quad (two triangles, Res6 0 1 2 0 2 3 through
 * baseVertex 4i) with slot i and batch i at LOD 0 group 0, keyed by its one Res8 key. */
static inline GBytes *
hand_msh_bytes (const HandMshNode *nodes,
                guint           n)
{
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  g_autofree guint8 *res1 = g_malloc (38 * n);
  g_autofree guint8 *res2 = g_malloc0 (140 + 68 * n);
  g_autofree guint8 *res3 = g_malloc0 (48 * n);
  g_autofree guint8 *res4 = g_malloc0 (16 * n);
  g_autofree guint8 *res5 = g_malloc0 (16 * n);
  g_autofree guint8 *res7 = g_malloc (32 * n);
  g_autofree guint8 *res8 = g_malloc0 (24 * n);
  g_autofree guint8 *res13 = g_malloc0 (20 * n);
  static const guint16 indices[6] = { 0, 1, 2, 0, 2, 3 };
  guint8 res6[12];
  GByteArray *names = g_byte_array_new ();

  memset (res1, 0xFF, 38 * n);
  memset (res7, 0xFF, 32 * n);
  for (guint i = 0; i < 6; i++)
    mshed_write_u16 (res6 + 2 * i, indices[i]);
  for (guint i = 0; i < n; i++)
    {
      const float quad[4][3] = {
        { nodes[i].x, 0, -1 }, { nodes[i].x + 1, nodes[i].dy, -1 },
        { nodes[i].x + 1, 0, 1 }, { nodes[i].x, 0, 1 },
      };
      guint8 *node = res1 + 38 * i, *slot = res2 + 140 + 68 * i, *batch = res13 + 20 * i;
      guint32 len = (guint32) strlen (nodes[i].name);
      guint8 word[4];

      mshed_write_u16 (node + 0, 0);
      mshed_write_u16 (node + 6, (guint16) i);        /* hdr3: key i */
      mshed_write_u16 (node + 8, (guint16) i);        /* lod 0 group 0: slot i */
      mshed_write_u16 (slot + 0, (guint16) (2 * i));  /* triStart, triCount */
      mshed_write_u16 (slot + 2, 2);
      mshed_write_u16 (slot + 4, (guint16) i);        /* batchStart, batchCount */
      mshed_write_u16 (slot + 6, 1);
      mshed_write_f32 (slot + 44, 1.5f);
      mshed_write_u16 (batch + 8, 6);                 /* indexCount, indexStart 0 */
      mshed_write_u32 (batch + 16, 4 * i);            /* baseVertex */
      for (guint v = 0; v < 4; v++)
        {
          for (guint k = 0; k < 3; k++)
            mshed_write_f32 (res3 + 48 * i + 12 * v + 4 * k, quad[v][k]);
          res4[16 * i + 4 * v + 1] = (guint8) (gint8) -127;
        }
      mshed_write_f32 (res8 + 24 * i + 8, nodes[i].z);
      mshed_write_u16 (res8 + 24 * i + 22, 32767);    /* qw = 1 */
      mshed_write_u32 (word, len);
      g_byte_array_append (names, word, 4);
      g_byte_array_append (names, (const guint8 *) nodes[i].name, len + 1);
    }
  mshed_nres_append_entry (nres, 1, n, 0, 38, NULL, res1, 38 * n);
  mshed_nres_append_entry (nres, 2, n, 0, 68, NULL, res2, 140 + 68 * n);
  mshed_nres_append_entry (nres, 3, 4 * n, 0, 12, NULL, res3, 48 * n);
  mshed_nres_append_entry (nres, 4, 4 * n, 0, 4, NULL, res4, 16 * n);
  mshed_nres_append_entry (nres, 5, 4 * n, 0, 4, NULL, res5, 16 * n);
  mshed_nres_append_entry (nres, 13, n, 0, 20, NULL, res13, 20 * n);
  mshed_nres_append_entry (nres, 6, 6, 0, 2, NULL, res6, sizeof res6);
  mshed_nres_append_entry (nres, 7, 2 * n, 0, 16, NULL, res7, 32 * n);
  mshed_nres_append_entry (nres, 8, n, 0, 4, NULL, res8, 24 * n);
  mshed_nres_append_entry (nres, 19, 0, 1, 2, NULL, NULL, 0);
  mshed_nres_append_entry (nres, 10, n, 0, 0, NULL, names->data, names->len);
  g_byte_array_unref (names);
  return mshed_nres_serialize (nres, NULL);
}
