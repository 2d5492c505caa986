/* test-diff-marks.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compare window's ghost colours (mshed-diff-marks.h, docs/diff.md §7) on hand-made
 * vectors: triangle lists written out float by float, and Parkan models laid out byte by
 * byte (one quad per node), so that the expected marks never come from the code under test.
 */
#include "config.h"

#include <string.h>

#include "mshed-dfm-generator.h"
#include "mshed-diff-marks.h"
#include "mshed-dfm.h"
#include "mshed-document.h"
#include "mshed-utf.h"
#include "tests/hand-msh.h"

#define S MSHED_DIFF_MARK_SAME
#define C MSHED_DIFF_MARK_CHANGED
#define O MSHED_DIFF_MARK_ONLY

/* Triangle lists ------------------------------------------------------------------------- */

/* Triangle @i of a strip along x: (i, 0, 0) (i + 1, 0, 0) (i, 1, 0). */
static void
put_triangle (float *t,
              float  i)
{
  const float v[9] = { i, 0, 0, i + 1, 0, 0, i, 1, 0 };

  memcpy (t, v, sizeof v);
}

static void
assert_marks (const guint8 *got,
              const guint8 *want,
              guint         n)
{
  for (guint i = 0; i < n; i++)
    if (got[i] != want[i])
      g_error ("triangle %u: mark %u, expected %u", i, got[i], want[i]);
}

static void
test_match_identical (void)
{
  float a[6 * 9];
  guint8 ma[6], mb[6];
  static const guint8 none[6] = { S, S, S, S, S, S };

  for (guint i = 0; i < 6; i++)
    put_triangle (a + 9 * i, (float) i);
  memset (ma, 0xAA, sizeof ma);
  memset (mb, 0xAA, sizeof mb);
  mshed_diff_match_triangles (a, 6, a, 6, 0, ma, mb);
  assert_marks (ma, none, 6);
  assert_marks (mb, none, 6);
}

/* One triangle inserted in the middle of B: only it is marked, nothing after it. */
static void
test_match_inserted (void)
{
  float a[6 * 9], b[7 * 9];
  guint8 ma[6], mb[7];
  static const guint8 want_a[6] = { S, S, S, S, S, S };
  static const guint8 want_b[7] = { S, S, O, S, S, S, S };

  for (guint i = 0; i < 6; i++)
    put_triangle (a + 9 * i, (float) i);
  put_triangle (b, 0);
  put_triangle (b + 9, 1);
  put_triangle (b + 18, 10);
  for (guint i = 2; i < 6; i++)
    put_triangle (b + 9 * (i + 1), (float) i);
  mshed_diff_match_triangles (a, 6, b, 7, 0, ma, mb);
  assert_marks (ma, want_a, 6);
  assert_marks (mb, want_b, 7);
  /* and removed, seen from the other side */
  mshed_diff_match_triangles (b, 7, a, 6, 0, mb, ma);
  assert_marks (ma, want_a, 6);
  assert_marks (mb, want_b, 7);
}

/* A corner shared by triangles 2 and 3 moved (by 0.01); a triangle appended after them too:
 * the two are moved on both sides, the appended one only in B. The tolerance hides the
 * move (not the new triangle); -0 against 0 is a move at tolerance 0, as in the diff. */
static void
test_match_moved (void)
{
  float a[5 * 9], b[6 * 9];
  guint8 ma[5], mb[6];
  static const guint8 moved_a[5] = { S, S, C, C, S };
  static const guint8 moved_b[6] = { S, S, C, C, S, O };
  static const guint8 tol_a[5] = { S, S, S, S, S };
  static const guint8 tol_b[6] = { S, S, S, S, S, O };

  for (guint i = 0; i < 5; i++)
    put_triangle (a + 9 * i, (float) i);
  memcpy (b, a, sizeof a);
  put_triangle (b + 45, 20);
  b[9 * 2 + 3 + 1] += 0.01f;   /* (3, 0, 0): corner 1 of triangle 2 */
  b[9 * 3 + 0 + 1] += 0.01f;   /* corner 0 of triangle 3 */
  mshed_diff_match_triangles (a, 5, b, 6, 0, ma, mb);
  assert_marks (ma, moved_a, 5);
  assert_marks (mb, moved_b, 6);
  mshed_diff_match_triangles (a, 5, b, 6, 0.05, ma, mb);
  assert_marks (ma, tol_a, 5);
  assert_marks (mb, tol_b, 6);
  mshed_diff_match_triangles (a, 5, b, 6, 0.005, ma, mb);
  assert_marks (ma, moved_a, 5);
  assert_marks (mb, moved_b, 6);

  memcpy (b, a, sizeof a);
  b[9 * 4 + 2] = -0.0f;
  mshed_diff_match_triangles (a, 5, b, 5, 0, ma, mb);
  g_assert_cmpuint (ma[4], ==, C);
  g_assert_cmpuint (mb[4], ==, C);
  mshed_diff_match_triangles (a, 5, b, 5, 1e-6, ma, mb);
  g_assert_cmpuint (ma[4], ==, S);
}

/* The same triangles in another order are the same; a side with none marks the other's. */
static void
test_match_order (void)
{
  float a[40 * 9], b[40 * 9];
  guint8 ma[40], mb[40];

  for (guint i = 0; i < 40; i++)
    {
      put_triangle (a + 9 * i, (float) i);
      put_triangle (b + 9 * i, (float) (39 - i));
    }
  for (guint pass = 0; pass < 2; pass++)
    {
      mshed_diff_match_triangles (a, 40, b, 40, pass ? 0.25 : 0, ma, mb);
      for (guint i = 0; i < 40; i++)
        {
          g_assert_cmpuint (ma[i], ==, S);
          g_assert_cmpuint (mb[i], ==, S);
        }
    }
  mshed_diff_match_triangles (a, 40, NULL, 0, 0, ma, NULL);
  for (guint i = 0; i < 40; i++)
    g_assert_cmpuint (ma[i], ==, O);
}

/* Parkan models -------------------------------------------------------------------------- */

static MshedModel *
hand_model (const HandMshNode *nodes,
            guint           n)
{
  g_autoptr(GBytes) bytes = hand_msh_bytes (nodes, n);
  g_autoptr(GError) error = NULL;
  MshedModel *model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

typedef struct {
  MshedModel       *models[2];
  MshedRenderScene *scenes[2];
  MshedDiffMarks   *marks;
} ScenePair;

static void
scene_pair_init (ScenePair      *p,
                 const HandMshNode *a,
                 guint           na,
                 const HandMshNode *b,
                 guint           nb)
{
  p->models[0] = hand_model (a, na);
  p->models[1] = hand_model (b, nb);
  for (guint s = 0; s < 2; s++)
    {
      p->scenes[s] = mshed_render_scene_new (p->models[s]);
      g_assert_false (mshed_render_scene_is_all_batches (p->scenes[s]));
    }
  p->marks = mshed_diff_marks_new (p->scenes[0], p->scenes[1], 0);
}

static void
scene_pair_clear (ScenePair *p)
{
  mshed_diff_marks_free (p->marks);
  for (guint s = 0; s < 2; s++)
    {
      mshed_render_scene_free (p->scenes[s]);
      mshed_model_unref (p->models[s]);
    }
}

/* Side @s: the marks of its triangles (2 per node, batch order) and of its vertices. */
static void
assert_side (ScenePair    *p,
             guint         s,
             const guint8 *triangles,
             const guint8 *vertices,
             guint         n_nodes)
{
  const MshedDiffSideMarks *m = &p->marks->sides[s];
  g_autofree guint8 *vm = NULL;
  guint n = 0, counts[3] = { 0, 0, 0 };

  g_assert_cmpuint (m->n_triangles, ==, 2 * n_nodes);
  assert_marks (m->triangles, triangles, 2 * n_nodes);
  for (guint t = 0; t < 2 * n_nodes; t++)
    counts[triangles[t]]++;
  for (guint k = 0; k < 3; k++)
    g_assert_cmpuint (m->counts[k], ==, counts[k]);
  vm = mshed_diff_marks_dup_vertex_marks (p->marks, s, p->scenes[s], &n);
  g_assert_cmpuint (n, ==, 4 * n_nodes);
  assert_marks (vm, vertices, n);
}

/* @a and @b marked the same on both sides (nothing only on one side). */
static void
assert_both (const HandMshNode *a,
             const HandMshNode *b,
             const guint8      *triangles,
             const guint8      *vertices)
{
  ScenePair p;

  scene_pair_init (&p, a, 3, b, 3);
  for (guint s = 0; s < 2; s++)
    assert_side (&p, s, triangles, vertices, 3);
  scene_pair_clear (&p);
}

static const HandMshNode three[] = {
  { "hull", 0, 0, 0 }, { "turret", 2, 0.5f, 0 }, { "gun", 4, 1, 0 },
};

static void
test_scene_identical (void)
{
  static const guint8 tri[6] = { S, S, S, S, S, S };
  static const guint8 vert[12] = { 0 };

  assert_both (three, three, tri, vert);
}

/* A node inserted before the others (its vertices, slot and batch first too, so every
 * later vertex, slot, batch and node number shifts): only its triangles and vertices are
 * marked, "only in right". */
static void
test_scene_node_inserted (void)
{
  static const HandMshNode four[] = {
    { "new", -3, 2, 0 }, { "hull", 0, 0, 0 }, { "turret", 2, 0.5f, 0 }, { "gun", 4, 1, 0 },
  };
  static const guint8 tri_a[6] = { S, S, S, S, S, S };
  static const guint8 vert_a[12] = { 0 };
  static const guint8 tri_b[8] = { O, O, S, S, S, S, S, S };
  static const guint8 vert_b[16] = { O, O, O, O };
  ScenePair p;

  scene_pair_init (&p, three, 3, four, 4);
  assert_side (&p, 0, tri_a, vert_a, 3);
  assert_side (&p, 1, tri_b, vert_b, 4);
  scene_pair_clear (&p);
  /* removed, seen from the left */
  scene_pair_init (&p, four, 4, three, 3);
  assert_side (&p, 0, tri_b, vert_b, 4);
  assert_side (&p, 1, tri_a, vert_a, 3);
  scene_pair_clear (&p);
}

/* Corner 1 of the turret's quad moved: only its first triangle uses it, so that triangle is
 * moved and that vertex alone marked (the others are shared with the unmoved triangle). */
static void
test_scene_vertex_moved (void)
{
  static const HandMshNode moved[] = {
    { "hull", 0, 0, 0 }, { "turret", 2, 0.5f, 0.25f }, { "gun", 4, 1, 0 },
  };
  static const guint8 tri[6] = { S, S, C, S, S, S };
  static const guint8 vert[12] = { 0, 0, 0, 0, 0, C, 0, 0, 0, 0, 0, 0 };

  assert_both (three, moved, tri, vert);
}

/* Nodes are compared in world space: the turret's key moved it, its local vertices did
 * not. A renamed node between two paired ones is paired with the old one, as the diff
 * pairs it (a rename, docs/diff.md §2): the same geometry, nothing marked. */
static void
test_scene_world_and_names (void)
{
  static const HandMshNode keyed[] = {
    { "hull", 0, 0, 0 }, { "turret", 2, 0.75f, 0 }, { "gun", 4, 1, 0 },
  };
  static const HandMshNode renamed[] = {
    { "hull", 0, 0, 0 }, { "tower", 2, 0.5f, 0 }, { "gun", 4, 1, 0 },
  };
  static const guint8 tri_moved[6] = { S, S, C, C, S, S };
  static const guint8 vert_moved[12] = { 0, 0, 0, 0, C, C, C, C, 0, 0, 0, 0 };
  static const guint8 tri_same[6] = { S, S, S, S, S, S };
  static const guint8 vert_same[12] = { 0 };

  assert_both (three, keyed, tri_moved, vert_moved);
  assert_both (three, renamed, tri_same, vert_same);
}

/* Two generated deformable models, one point of level 0 moved: the triangles of level 0
 * that use it are moved on both sides and no others; identical levels mark nothing. */
static void
test_scene_dfm (void)
{
  MshedDfmGenParams gp;
  g_autoptr(MshedUtf) utf = NULL;
  MshedDocument *docs[2];
  g_autoptr(GError) error = NULL;
  MshedRenderScene *scenes[2];
  g_autoptr(MshedDiffMarks) same = NULL;
  g_autoptr(MshedDiffMarks) moved = NULL;
  const guint32 *elements;
  guint n_elements = 0, n_items = 0, n_moved = 0;
  const MshedDrawItem *items;
  MshedDfm *dfm;

  mshed_dfm_gen_params_init (&gp, MSHED_DFM_GEN_HAND, 1);
  utf = mshed_dfm_generate (&gp);
  for (guint s = 0; s < 2; s++)
    {
      g_autoptr(MshedUtf) copy = mshed_utf_copy (utf);

      docs[s] = mshed_document_new_for_utf (copy, MSHED_MODE_TOLERANT);
      scenes[s] = mshed_render_scene_new_for_dfm (mshed_document_get_dfm (docs[s]));
      mshed_render_scene_set_view (scenes[s], 0, 0);
    }
  same = mshed_diff_marks_new (scenes[0], scenes[1], 0);
  for (guint s = 0; s < 2; s++)
    {
      g_assert_cmpuint (same->sides[s].counts[S], >, 0);
      g_assert_cmpuint (same->sides[s].counts[C], ==, 0);
      g_assert_cmpuint (same->sides[s].counts[O], ==, 0);
    }
  /* point 0 of level 0 moved on the right */
  dfm = mshed_document_get_dfm (docs[1]);
  g_assert_true (mshed_document_dfm_set_field (
    docs[1], mshed_dfm_find_node (dfm, MSHED_DFM_TABLE_POINTS, 0, 0), 0, "y", "7.5", &error));
  g_assert_no_error (error);
  mshed_render_scene_free (scenes[1]);
  scenes[1] = mshed_render_scene_new_for_dfm (mshed_document_get_dfm (docs[1]));
  mshed_render_scene_set_view (scenes[1], 0, 0);
  moved = mshed_diff_marks_new (scenes[0], scenes[1], 0);
  items = mshed_render_scene_get_items (scenes[1], &n_items);
  elements = mshed_render_scene_get_elements (scenes[1], &n_elements);
  for (guint i = 0; i < n_items; i++)
    for (guint e = items[i].elem_first; e < items[i].elem_first + items[i].elem_count; e += 3)
      {
        gboolean uses = FALSE;

        for (guint c = 0; c < 3; c++)
          uses |= mshed_render_scene_get_vertex_point (scenes[1], elements[e + c]) == 0;
        g_assert_cmpuint (moved->sides[1].triangles[e / 3], ==, uses ? C : S);
        g_assert_cmpuint (moved->sides[0].triangles[e / 3], ==, uses ? C : S);
        n_moved += uses;
      }
  g_assert_cmpuint (n_moved, >, 0);
  g_assert_cmpuint (moved->sides[1].counts[C], ==, n_moved);
  g_assert_cmpuint (moved->sides[1].counts[O], ==, 0);
  for (guint s = 0; s < 2; s++)
    {
      mshed_render_scene_free (scenes[s]);
      g_assert_finalize_object (docs[s]);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/diff-marks/match/identical", test_match_identical);
  g_test_add_func ("/model/diff-marks/match/inserted", test_match_inserted);
  g_test_add_func ("/model/diff-marks/match/moved", test_match_moved);
  g_test_add_func ("/model/diff-marks/match/order", test_match_order);
  g_test_add_func ("/model/diff-marks/scene/identical", test_scene_identical);
  g_test_add_func ("/model/diff-marks/scene/node-inserted", test_scene_node_inserted);
  g_test_add_func ("/model/diff-marks/scene/vertex-moved", test_scene_vertex_moved);
  g_test_add_func ("/model/diff-marks/scene/world-and-names", test_scene_world_and_names);
  g_test_add_func ("/model/diff-marks/scene/dfm", test_scene_dfm);
  return g_test_run ();
}
