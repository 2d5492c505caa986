/* test-dfm-strip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Triangle strips of deformable models (docs/dfm.md §5): the unrolling rule on the spec's
 * hand-made vectors (parity from the position, degenerate windows skipped), and our encoder
 * (§5.3): the spec's example strip byte for byte, then the round trip encode → unroll on the
 * strips of generated models and on adversarial lists (repeated and reversed triangles,
 * shared edges in every order, 0 and 0xFFFF, degenerate input, long lists).
 */
#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-strip.h"

/* little-endian bytes of @n u16 values */
static GBytes *
le (const guint16 *v,
    gsize          n)
{
  guint8 *b = g_malloc (2 * n + 1);

  for (gsize i = 0; i < n; i++)
    mshed_write_u16 (b + 2 * i, v[i]);
  return g_bytes_new_take (b, 2 * n);
}

static guint16 *
unroll (GBytes *strip,
        gsize  *n_tris)
{
  gsize n = g_bytes_get_size (strip) / 2;
  guint16 *tris = g_new0 (guint16, 3 * (n > 2 ? n - 2 : 0) + 3);

  *n_tris = mshed_dfm_strip_unroll (g_bytes_get_data (strip, NULL), n, tris);
  g_assert_cmpuint (*n_tris, ==,
                    mshed_dfm_strip_count_triangles (g_bytes_get_data (strip, NULL), n));
  return tris;
}

/* docs/dfm.md §5.1: strip 0 1 2 3 3 4 5 -> (0,1,2), (2,1,3), skip, skip, (3,4,5) */
static void
test_unroll_example (void)
{
  static const guint16 strip[] = { 0, 1, 2, 3, 3, 4, 5 };
  static const guint16 expected[] = { 0, 1, 2, 2, 1, 3, 3, 4, 5 };
  g_autoptr(GBytes) bytes = le (strip, G_N_ELEMENTS (strip));
  gsize n;
  g_autofree guint16 *tris = unroll (bytes, &n);

  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpmem (tris, 9 * sizeof (guint16), expected, sizeof expected);
}

/* the windows of the §5.1 example: triangles 0, 1, 2 come from positions 0, 1 and 4 (the
 * windows at 2 and 3 repeat the 3); there is no triangle 3 */
static void
test_strip_window (void)
{
  static const guint16 strip[] = { 0, 1, 2, 3, 3, 4, 5 };
  g_autoptr(GBytes) bytes = le (strip, G_N_ELEMENTS (strip));
  const guint8 *data = g_bytes_get_data (bytes, NULL);

  g_assert_cmpuint (mshed_dfm_strip_window (data, 7, 0), ==, 0);
  g_assert_cmpuint (mshed_dfm_strip_window (data, 7, 1), ==, 1);
  g_assert_cmpuint (mshed_dfm_strip_window (data, 7, 2), ==, 4);
  g_assert_cmpuint (mshed_dfm_strip_window (data, 7, 3), ==, G_MAXSIZE);
  g_assert_cmpuint (mshed_dfm_strip_window (data, 2, 0), ==, G_MAXSIZE);
}

/* even i -> (s[i], s[i+1], s[i+2]); odd i -> (s[i+1], s[i], s[i+2]); the parity is the
 * position, not the number of triangles emitted: after the one skipped window (10,11,10)
 * the first triangle comes from the odd window 1 and is swapped */
static void
test_unroll_parity (void)
{
  static const guint16 strip[] = { 10, 11, 10, 12, 13 };
  static const guint16 expected[] = { 10, 11, 12, 10, 12, 13 };
  g_autoptr(GBytes) bytes = le (strip, G_N_ELEMENTS (strip));
  gsize n;
  g_autofree guint16 *tris = unroll (bytes, &n);

  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpmem (tris, 6 * sizeof (guint16), expected, sizeof expected);
}

/* a == c alone makes a window degenerate too; fewer than 3 entries draw nothing */
static void
test_unroll_degenerate (void)
{
  static const guint16 aca[] = { 7, 8, 7 };
  static const guint16 two[] = { 1, 2 };
  static const guint16 same[] = { 5, 5, 5, 5, 5 };
  g_autoptr(GBytes) b1 = le (aca, 3);
  g_autoptr(GBytes) b2 = le (two, 2);
  g_autoptr(GBytes) b3 = le (same, 5);
  gsize n;
  g_autofree guint16 *t1 = unroll (b1, &n);

  g_assert_cmpuint (n, ==, 0);
  g_free (unroll (b2, &n));
  g_assert_cmpuint (n, ==, 0);
  g_free (unroll (b3, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (mshed_dfm_strip_count_triangles (NULL, 0), ==, 0);
}

static void
test_list_unroll (void)
{
  static const guint16 list[] = { 1, 2, 3, 4, 5, 6, 7, 8 };   /* the last two are no triple */
  g_autoptr(GBytes) b = le (list, G_N_ELEMENTS (list));
  guint16 tris[8] = { 0 };

  g_assert_cmpuint (mshed_dfm_list_unroll (g_bytes_get_data (b, NULL), 8, tris), ==, 2);
  g_assert_cmpmem (tris, 6 * sizeof (guint16), list, 6 * sizeof (guint16));
}

/* docs/dfm.md §5.3: (0,1,2) (2,1,3) (4,5,6) (7,8,9) ->
 * 0 1 2 2 2 2 2 1 3 3 3 4 4 5 6 6 6 7 7 8 9, which unrolls back to the same four */
static void
test_encode_example (void)
{
  static const guint16 list[] = { 0, 1, 2, 2, 1, 3, 4, 5, 6, 7, 8, 9 };
  static const guint16 expected[] = { 0, 1, 2, 2, 2, 2, 2, 1, 3, 3, 3, 4, 4, 5, 6, 6, 6, 7, 7,
                                      8, 9 };
  g_autoptr(GBytes) want = le (expected, G_N_ELEMENTS (expected));
  gsize dropped = 99, n;
  g_autoptr(GBytes) strip = mshed_dfm_strip_encode (list, 4, MSHED_DFM_STRIP_SAFE, &dropped);
  g_autofree guint16 *tris = unroll (strip, &n);

  g_assert_cmpuint (dropped, ==, 0);
  g_assert_true (g_bytes_equal (strip, want));
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpmem (tris, sizeof list, list, sizeof list);
}

/* joining: (2,1,3) continues (0,1,2) with one entry, an even-length junction takes two
 * entries before the run, (7,8,6) continues (9,8,7) from an odd position */
static void
test_encode_join (void)
{
  static const guint16 list[] = { 0, 1, 2, 2, 1, 3, 9, 8, 7, 7, 8, 6 };
  static const guint16 expected[] = { 0, 1, 2, 3, 3, 9, 9, 8, 7, 6 };
  g_autoptr(GBytes) want = le (expected, G_N_ELEMENTS (expected));
  g_autoptr(GBytes) strip = mshed_dfm_strip_encode (list, 4, MSHED_DFM_STRIP_JOIN, NULL);
  gsize n;
  g_autofree guint16 *tris = unroll (strip, &n);

  g_assert_true (g_bytes_equal (strip, want));
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpmem (tris, sizeof list, list, sizeof list);
}

/* degenerate input triangles cannot be drawn by a strip: they are counted and left out */
static void
test_encode_drops_degenerate (void)
{
  static const guint16 list[] = { 1, 1, 2, 3, 4, 5, 6, 7, 6, 8, 8, 8 };
  static const guint16 kept[] = { 3, 4, 5 };
  gsize dropped = 0, n;
  g_autoptr(GBytes) strip = mshed_dfm_strip_encode (list, 4, MSHED_DFM_STRIP_SAFE, &dropped);
  g_autofree guint16 *tris = unroll (strip, &n);
  g_autoptr(GBytes) empty = mshed_dfm_strip_encode (NULL, 0, MSHED_DFM_STRIP_JOIN, &dropped);

  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpmem (tris, sizeof kept, kept, sizeof kept);
  g_assert_cmpuint (g_bytes_get_size (empty), ==, 0);
  g_assert_cmpuint (dropped, ==, 0);
}

/* encode with both flags, unroll, compare; SAFE: every window spanning a junction repeats an
 * entry and every real triangle starts at an even position (docs/dfm.md §5.3) */
static void
assert_round_trip (const guint16 *tris,
                   gsize          n)
{
  for (guint f = 0; f < 2; f++)
    {
      MshedDfmStripFlags flags = f ? MSHED_DFM_STRIP_JOIN : MSHED_DFM_STRIP_SAFE;
      gsize dropped = 1, back;
      g_autoptr(GBytes) strip = mshed_dfm_strip_encode (tris, n, flags, &dropped);
      g_autofree guint16 *out = unroll (strip, &back);

      g_assert_cmpuint (dropped, ==, 0);
      g_assert_cmpuint (back, ==, n);
      if (n)
        g_assert_cmpmem (out, 6 * n, tris, 6 * n);
      if (flags == MSHED_DFM_STRIP_SAFE)
        {
          const guint8 *s = g_bytes_get_data (strip, NULL);
          gsize len = g_bytes_get_size (strip) / 2, real = 0;

          for (gsize i = 0; i + 2 < len; i++)
            {
              guint16 a = mshed_read_u16 (s + 2 * i), b = mshed_read_u16 (s + 2 * i + 2);
              guint16 c = mshed_read_u16 (s + 2 * i + 4);

              if (a != b && b != c && a != c)
                {
                  g_assert_cmpuint (i % 2, ==, 0);
                  real++;
                }
            }
          g_assert_cmpuint (real, ==, n);
        }
    }
}

static guint64
rnd (guint64 *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* random non-degenerate triangles over a few indices (so edges are shared in every order),
 * with repeats, reversed copies and the extreme values 0 and 0xFFFF */
static void
test_round_trip_adversarial (void)
{
  guint64 s = 0xD1B54A32D192ED03u;

  for (guint round = 0; round < 400; round++)
    {
      gsize n = round < 8 ? round : 1 + rnd (&s) % (round < 300 ? 40 : 3000);
      guint range = 3 + (guint) (rnd (&s) % (round % 3 == 0 ? 4 : 60));
      g_autofree guint16 *tris = g_new (guint16, 3 * n + 3);

      for (gsize t = 0; t < n; t++)
        {
          guint16 *tri = tris + 3 * t;
          guint kind = rnd (&s) % 8;

          if (t > 0 && kind == 0)
            memcpy (tri, tri - 3, 6);                          /* the same again */
          else if (t > 0 && kind == 1)
            {
              tri[0] = tri[-2];                                /* the reverse of the last */
              tri[1] = tri[-3];
              tri[2] = tri[-1];
            }
          else if (t > 0 && kind == 2)
            {
              tri[0] = tri[-1];                                /* shares the last edge */
              tri[1] = tri[-2];
              do
                tri[2] = (guint16) (rnd (&s) % range);
              while (tri[2] == tri[0] || tri[2] == tri[1]);
            }
          else
            {
              tri[0] = (guint16) (rnd (&s) % range);
              do
                tri[1] = (guint16) (rnd (&s) % range);
              while (tri[1] == tri[0]);
              do
                tri[2] = (guint16) (rnd (&s) % range);
              while (tri[2] == tri[0] || tri[2] == tri[1]);
              if (kind == 3)
                tri[rnd (&s) % 3] = 0xFFFF;
              if (kind == 4 && tri[0] != 0 && tri[1] != 0 && tri[2] != 0)
                tri[rnd (&s) % 3] = 0;
            }
        }
      assert_round_trip (tris, n);
    }
}

/* every group of generated models: its strip unrolled, re-encoded, unrolled again */
static void
test_round_trip_generated (void)
{
  for (MshedDfmGenKind kind = MSHED_DFM_GEN_BODY; kind <= MSHED_DFM_GEN_HAND; kind++)
    for (guint64 seed = 1; seed <= 2; seed++)
      {
        MshedDfmGenParams p;
        g_autoptr(MshedUtf) utf = NULL;
        g_autoptr(MshedDfm) dfm = NULL;
        guint checked = 0;

        mshed_dfm_gen_params_init (&p, kind, seed);
        utf = mshed_dfm_generate (&p);
        dfm = mshed_dfm_new (utf, MSHED_MODE_STRICT, NULL, NULL);
        g_assert_nonnull (dfm);
        for (guint l = 0; l < mshed_dfm_get_n_levels (dfm); l++)
          for (guint g = 0; g < 8; g++)
            {
              gsize n;
              g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, l, g, &n);

              if (tris == NULL)
                continue;
              assert_round_trip (tris, n);
              checked++;
            }
        g_assert_cmpuint (checked, >=, mshed_dfm_get_n_levels (dfm));
      }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/dfm-strip/unroll-example", test_unroll_example);
  g_test_add_func ("/model/dfm-strip/unroll-parity", test_unroll_parity);
  g_test_add_func ("/model/dfm-strip/unroll-degenerate", test_unroll_degenerate);
  g_test_add_func ("/model/dfm-strip/strip-window", test_strip_window);
  g_test_add_func ("/model/dfm-strip/list-unroll", test_list_unroll);
  g_test_add_func ("/model/dfm-strip/encode-example", test_encode_example);
  g_test_add_func ("/model/dfm-strip/encode-join", test_encode_join);
  g_test_add_func ("/model/dfm-strip/encode-drops-degenerate", test_encode_drops_degenerate);
  g_test_add_func ("/model/dfm-strip/round-trip-adversarial", test_round_trip_adversarial);
  g_test_add_func ("/model/dfm-strip/round-trip-generated", test_round_trip_generated);
  return g_test_run ();
}
