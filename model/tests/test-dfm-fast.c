/* test-dfm-fast.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fast path of DFM validation (mshed_dfm_validate_fast, docs/dfm.md §14.1) against the
 * full validator (mshed_utf_parse_readonly + mshed_dfm_new, what `validate` ran before) on
 * generated heads, bodies and hands and on thousands of mutants of them: bit flips anywhere,
 * truncations, payload words and tree-entry fields set to counts and extremes, dictionary
 * bytes changed. For every input the fast path decides exactly when the full validator, in
 * both modes, finds nothing but the notes (name residue, detached bones, unreferenced points,
 * unresolved materials), and then gives the same findings, field for field. Nothing may read
 * out of bounds (CI runs this under ASan/UBSan). Set MSHED_FUZZ_ITERATIONS to run longer.
 */
#include "config.h"

#include <string.h>

#include "dfm-test-util.h"
#include "mshed-diagnostic.h"
#include "mshed-dfm.h"
#include "mshed-dfm-fast.h"
#include "utf-same-util.h"

typedef struct {
  guint inputs;
  guint decided;
  guint declined;
} Stats;

/* what `validate` reported before the fast path: the read-only parse, then the DFM view */
static MshedDiagnostics *
full (GBytes    *bytes,
      MshedMode  mode,
      gboolean  *read)
{
  MshedDiagnostics *diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) utf = mshed_utf_parse_readonly (bytes, mode, diags, NULL);
  g_autoptr(MshedDfm) view = NULL;

  *read = utf != NULL;
  if (utf)
    view = mshed_dfm_new (utf, mode, diags, NULL);
  return diags;
}

/* only the notes the fast path gives (docs/dfm.md §14.1) */
static gboolean
notes_only (const MshedDiagnostics *diags)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    switch (mshed_diagnostics_get (diags, i)->check)
      {
      case MSHED_CHECK_DFM_NAME_RESIDUE:
      case MSHED_CHECK_DFM_DETACHED_BONE:
      case MSHED_CHECK_DFM_UNREFERENCED_POINTS:
      case MSHED_CHECK_DFM_MATERIAL_UNRESOLVED:
        continue;
      default:
        return FALSE;
      }
  return TRUE;
}

/* the fast path decides @data exactly when both modes of the full validator find only notes,
 * and then gives the same findings */
static void
check (const guint8 *data,
       gsize         len,
       Stats        *stats)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  g_autoptr(MshedDiagnostics) fast = mshed_diagnostics_new ();
  g_autoptr(MshedDiagnostics) strict = NULL;
  g_autoptr(MshedDiagnostics) tolerant = NULL;
  gboolean read_strict, read_tolerant;
  /* a copy of exactly @len bytes, so that ASan sees any read past the end */
  g_autofree guint8 *copy = g_memdup2 (data, MAX (len, 1));
  gboolean decided = mshed_dfm_validate_fast (len ? copy : NULL, len, fast);

  strict = full (bytes, MSHED_MODE_STRICT, &read_strict);
  tolerant = full (bytes, MSHED_MODE_TOLERANT, &read_tolerant);
  stats->inputs++;
  if (decided)
    {
      stats->decided++;
      g_assert_true (read_strict && read_tolerant);
      t_assert_same_diagnostics (fast, strict);
      t_assert_same_diagnostics (fast, tolerant);
      g_assert_cmpuint (fast->n_warnings, ==, strict->n_warnings);
    }
  else
    {
      stats->declined++;
      g_assert_cmpuint (mshed_diagnostics_get_n_items (fast), ==, 0);
      if (read_strict && notes_only (strict))
        g_error ("the fast path declined a file with notes only (%u findings, %zu bytes)",
                 mshed_diagnostics_get_n_items (strict), len);
    }
  /* no NULL diagnostics: the same decision */
  g_assert_cmpint (mshed_dfm_validate_fast (len ? copy : NULL, len, NULL), ==, decided);
}

/* heads, bodies and hands of every shape the generator makes, kept small */
static GPtrArray *
corpus (void)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint k = 0; k < 3; k++)
    for (guint variant = 0; variant < 4; variant++)
      {
        MshedDfmGenParams p;

        mshed_dfm_gen_params_init (&p, (MshedDfmGenKind) k, 40 + 7 * k + variant);
        p.n_points = 40;
        p.n_bones = variant == 3 ? 0 : 12;
        p.n_groups = 1 + variant % 3;
        p.uv1 = variant & 1;
        p.edges = variant == 2;
        p.no_residue = variant == 1;
        p.n_levels = variant == 2 ? 4 : 0;
        p.right = variant & 1;
        g_ptr_array_add (files, mshed_dfm_generate_bytes (&p));
      }
  return files;
}

static void
test_generated (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  Stats stats = { 0 };

  for (guint i = 0; i < files->len; i++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (files, i), &len);

      check (data, len, &stats);
    }
  /* every file the writers make is decided by the fast path */
  g_assert_cmpuint (stats.decided, ==, files->len);
}

static const guint32 extremes[] = {
  0, 1, 2, 3, 4, 5, 11, 12, 44, 48, 255, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
  0xFFFFFFFC,
};

/* one mutant of @src into @b (same length unless truncated); returns its length */
static gsize
mutate (const guint8 *src,
        gsize         len,
        guint8       *b,
        guint64      *s)
{
  guint32 tree, tree_size, names, data0;

  memcpy (b, src, len);
  tree = mshed_read_u32 (b + 8);
  tree_size = mshed_read_u32 (b + 12);
  names = mshed_read_u32 (b + 24);
  data0 = mshed_read_u32 (b + 36);
  switch (t_rnd (s) % 6)
    {
    case 0:  /* bit flips anywhere */
      for (guint n = 1 + t_rnd (s) % 4; n > 0; n--)
        b[t_rnd (s) % len] ^= (guint8) (1u << (t_rnd (s) % 8));
      return len;
    case 1:  /* truncated */
      return t_rnd (s) % len;
    case 2:  /* a payload word set to an extreme */
      {
        gsize at = data0 + 4 * (t_rnd (s) % ((len - data0) / 4));

        mshed_write_u32 (b + at, extremes[t_rnd (s) % G_N_ELEMENTS (extremes)]);
        return len;
      }
    case 3:  /* a tree-entry field set to an extreme or a small value */
      {
        gsize at = tree + 44 * (t_rnd (s) % (tree_size / 44)) + 4 * (t_rnd (s) % 11);
        guint32 v = t_rnd (s) % 2 ? extremes[t_rnd (s) % G_N_ELEMENTS (extremes)]
                                : mshed_read_u32 (b + at) + (guint32) (t_rnd (s) % 9) - 4;

        mshed_write_u32 (b + at, v);
        return len;
      }
    case 4:  /* a dictionary byte: a renamed node, a case change, a lost NUL */
      {
        gsize at = names + t_rnd (s) % (data0 - names);
        static const guint8 bytes[] = { 0, '_', 'x', '3', 0x20, 0x80 };

        if (t_rnd (s) % 2 && ((b[at] | 0x20) >= 'a' && (b[at] | 0x20) <= 'z'))
          b[at] ^= 0x20;
        else
          b[at] = bytes[t_rnd (s) % G_N_ELEMENTS (bytes)];
        return len;
      }
    default:  /* a header field */
      {
        gsize at = 4 * (t_rnd (s) % 14);
        guint32 near = mshed_read_u32 (b + at) + (guint32) (t_rnd (s) % 9) - 4;
        guint32 far = extremes[t_rnd (s) % G_N_ELEMENTS (extremes)];

        mshed_write_u32 (b + at, t_rnd (s) % 2 ? far : near);
        return len;
      }
    }
}

/* every tree entry's links, name and sizes set to every extreme, in a head (the largest
 * tree): each entry is read in every scope the walk gives it */
static void
test_entry_fields (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  GBytes *head = g_ptr_array_index (files, 4);
  gsize len;
  const guint8 *data = g_bytes_get_data (head, &len);
  guint32 tree = mshed_read_u32 (data + 8), n = mshed_read_u32 (data + 12) / 44;
  g_autofree guint8 *b = g_memdup2 (data, len);
  Stats stats = { 0 };

  for (guint32 e = 0; e < n; e++)
    for (guint k = 0; k < 11; k++)
      {
        gsize at = tree + 44 * (gsize) e + 4 * k;
        guint32 keep = mshed_read_u32 (b + at);

        if (k >= 8)
          continue;  /* timestamps: the mutants cover them */
        for (guint x = 0; x < G_N_ELEMENTS (extremes); x++)
          {
            mshed_write_u32 (b + at, extremes[x]);
            check (b, len, &stats);
          }
        mshed_write_u32 (b + at, keep);
      }
  g_test_message ("%u inputs: %u decided by the fast path", stats.inputs, stats.decided);
}

static void
test_mutants (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  guint n = t_fuzz_iterations (4000);
  guint64 s = 0x9E3779B97F4A7C15u;
  Stats stats = { 0 };

  for (guint i = 0; i < n; i++)
    {
      GBytes *src = g_ptr_array_index (files, i % files->len);
      gsize len;
      const guint8 *data = g_bytes_get_data (src, &len);
      g_autofree guint8 *b = g_malloc (len);
      gsize n_bytes = mutate (data, len, b, &s);

      check (b, n_bytes, &stats);
    }
  g_test_message ("%u mutants: %u decided by the fast path, %u left to the full validator",
                  stats.inputs, stats.decided, stats.declined);
  /* both kinds occur, so both branches were compared */
  g_assert_cmpuint (stats.decided, >, n / 10);
  g_assert_cmpuint (stats.declined, >, n / 10);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dfm-fast/generated", test_generated);
  g_test_add_func ("/dfm-fast/entry-fields", test_entry_fields);
  g_test_add_func ("/dfm-fast/mutants", test_mutants);
  return g_test_run ();
}
