/* mshed-dfm-strip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-dfm-strip"

#include "config.h"

#include "mshed-bytes.h"
#include "mshed-dfm-strip.h"

/* The triangle of the window at @i, docs/dfm.md §5.1: FALSE when two corners are equal
 * (degenerate, skipped without changing the parity of the windows after it). */
static inline gboolean
strip_window (const guint8 *s,
              gsize         i,
              guint16       out[3])
{
  guint16 a = mshed_read_u16 (s + 2 * i);
  guint16 b = mshed_read_u16 (s + 2 * i + 2);
  guint16 c = mshed_read_u16 (s + 2 * i + 4);

  if (a == b || b == c || a == c)
    return FALSE;
  /* the parity is the window's position in the strip, not the number emitted so far */
  out[0] = (i & 1) == 0 ? a : b;
  out[1] = (i & 1) == 0 ? b : a;
  out[2] = c;
  return TRUE;
}

/**
 * mshed_dfm_strip_count_triangles:
 * @indices: @n_indices little-endian u16 strip entries (a `Tristrip_indices` payload)
 *
 * Returns: the number of triangles the strip draws (degenerate windows excluded)
 */
gsize
mshed_dfm_strip_count_triangles (const guint8 *indices,
                                 gsize         n_indices)
{
  guint16 t[3];
  gsize n = 0;

  for (gsize i = 0; i + 2 < n_indices; i++)
    n += strip_window (indices, i, t);
  return n;
}

/**
 * mshed_dfm_strip_unroll:
 * @indices: @n_indices little-endian u16 strip entries
 * @triangles: (out caller-allocates): room for 3 × max (@n_indices − 2, 0) values
 *
 * Unrolls a strip with the rule of docs/dfm.md §5.1: the window at an even position i gives
 * (s[i], s[i+1], s[i+2]), at an odd one (s[i+1], s[i], s[i+2]); a window with two equal
 * entries is skipped.
 *
 * Returns: the number of triangles written
 */
gsize
mshed_dfm_strip_unroll (const guint8 *indices,
                        gsize         n_indices,
                        guint16      *triangles)
{
  return mshed_dfm_strip_unroll_windows (indices, n_indices, triangles, NULL);
}

/**
 * mshed_dfm_strip_unroll_windows:
 * @windows: (out caller-allocates) (optional): room for max (@n_indices − 2, 0) values: the
 *   strip position i of the window that drew each triangle (its entries are i, i+1, i+2)
 *
 * mshed_dfm_strip_unroll(), also telling where in the strip each triangle comes from.
 *
 * Returns: the number of triangles written
 */
gsize
mshed_dfm_strip_unroll_windows (const guint8 *indices,
                                gsize         n_indices,
                                guint16      *triangles,
                                gsize        *windows)
{
  gsize n = 0;

  for (gsize i = 0; i + 2 < n_indices; i++)
    if (strip_window (indices, i, triangles + 3 * n))
      {
        if (windows)
          windows[n] = i;
        n++;
      }
  return n;
}

/**
 * mshed_dfm_strip_window:
 * @indices: @n_indices little-endian u16 strip entries
 * @triangle: a triangle number, as mshed_dfm_strip_unroll numbers them
 *
 * Where triangle @triangle of a strip comes from: the position i of its window (entries i,
 * i + 1 and i + 2, docs/dfm.md §5.1), degenerate windows counted as positions but not as
 * triangles.
 *
 * Returns: the window's position, or G_MAXSIZE when the strip draws fewer triangles
 */
gsize
mshed_dfm_strip_window (const guint8 *indices,
                        gsize         n_indices,
                        gsize         triangle)
{
  guint16 t[3];
  gsize n = 0;

  for (gsize i = 0; i + 2 < n_indices; i++)
    if (strip_window (indices, i, t) && n++ == triangle)
      return i;
  return G_MAXSIZE;
}

/**
 * mshed_dfm_list_unroll:
 * @indices: @n_indices little-endian u16 entries of a `Face_indices` triangle list
 * @triangles: (out caller-allocates): room for @n_indices values
 *
 * Copies the whole triples of a triangle list (docs/dfm.md §4) as they are; entries after
 * the last whole triple are not used.
 *
 * Returns: the number of triangles written
 */
gsize
mshed_dfm_list_unroll (const guint8 *indices,
                       gsize         n_indices,
                       guint16      *triangles)
{
  gsize n = n_indices / 3;

  for (gsize k = 0; k < 3 * n; k++)
    triangles[k] = mshed_read_u16 (indices + 2 * k);
  return n;
}

static inline void
push (GByteArray *s,
      guint16     v)
{
  guint8 b[2];

  mshed_write_u16 (b, v);
  g_byte_array_append (s, b, 2);
}

static inline guint16
entry (const GByteArray *s,
       gsize             i)
{
  return mshed_read_u16 (s->data + 2 * i);
}

/**
 * mshed_dfm_strip_encode:
 * @triangles: @n_triangles × 3 element indices
 * @flags: %MSHED_DFM_STRIP_SAFE for the construction of docs/dfm.md §5.3 as written;
 *   %MSHED_DFM_STRIP_JOIN also continues a run by one entry when the next triangle is
 *   exactly the one that entry would draw (its first two corners are the last two entries in
 *   the order the window's parity gives)
 * @n_dropped: (out) (optional): triangles with two equal corners, which no strip can draw
 *   (§5.1 skips them); they are left out
 *
 * Encodes a triangle list as one strip (docs/dfm.md §5.3): each triangle that does not
 * continue the run is joined with repeated entries, so every window across a junction is
 * degenerate, and starts at an even position, so its corner order is kept. Unrolling the
 * result gives the input triangles in order with the same corners in the same order, minus
 * the dropped ones.
 *
 * Returns: (transfer full): the little-endian u16 strip (empty for no triangles)
 */
GBytes *
mshed_dfm_strip_encode (const guint16      *triangles,
                        gsize               n_triangles,
                        MshedDfmStripFlags  flags,
                        gsize              *n_dropped)
{
  GByteArray *s = g_byte_array_sized_new (n_triangles * 6 + 8);
  gsize dropped = 0;

  for (gsize t = 0; t < n_triangles; t++)
    {
      guint16 a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
      gsize len = s->len / 2;

      if (a == b || b == c || a == c)
        {
          dropped++;
          continue;
        }
      if (len == 0)
        {
          push (s, a);
          push (s, b);
          push (s, c);
          continue;
        }
      if ((flags & MSHED_DFM_STRIP_JOIN) && len >= 3)
        {
          /* one more entry opens the window at len − 2, whose parity is that of len */
          guint16 p = entry (s, len - 2), q = entry (s, len - 1);
          gboolean fits = (len & 1) == 0 ? (a == p && b == q) : (a == q && b == p);

          if (fits)
            {
              push (s, c);
              continue;
            }
        }
      {
        guint16 last = entry (s, len - 1);

        push (s, last);
        if ((len & 1) == 1)
          push (s, last);
        push (s, a);
        push (s, a);
        push (s, b);
        push (s, c);
      }
    }
  if (n_dropped)
    *n_dropped = dropped;
  return g_byte_array_free_to_bytes (s);
}
