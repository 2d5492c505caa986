/* test-recompute.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recomputes against hand-made vectors (docs/conventions.md):
 *  - what the format determines (a slot's box from its vertices, the docs/msh.md §3 attributes,
 *    the §7.7 frame map from the key times) comes out exactly as a correct file stores it, so
 *    a recompute of an unmodified model changes nothing;
 *  - conventions keep stored values that are still right (links that name a neighbour,
 *    normals within one quantisation step) and never touch rows that are not stale;
 *  - the header encloses the posed model (§7), not the raw node-local positions.
 * Every expected value below is worked out by hand in the comments, never by the code under
 * test.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-document.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-recompute.h"

/* The hand model ---------------------------------------------------------------------------
 *
 * Two nodes: node 0 (root) draws slot 0 in LOD 0 / group 0, node 1 (child of node 0) draws
 * slot 1 there. Static: one key per node; node 0 at the origin, unrotated; node 1 moved by
 * (10, 0, 0) and turned 90° about z (stored quaternion x, y, z, w = 0, 0, 23170, 23170).
 *
 * Res3 (10 vertices):
 *   slot 0, batch 0 (baseVertex 0), a quad: v0 (0,0,0) v1 (2,0,0) v2 (2,1,0) v3 (0,1,0),
 *     triangles (0,1,2) and (0,2,3)           -> descriptors 0 and 1
 *   slot 1, batch 1 (baseVertex 4): v4 (0,0,1) v5 (1,0,1) v6 (1,1,1),
 *     v7 (1,0,1) v8 (1,1,1) v9 (2,0,3): v7/v8 repeat v5/v6 (a split seam)
 *     triangles A = (4,5,6) and B = (8,7,9)   -> descriptors 2 and 3
 *
 * Boxes: slot 0 (0,0,0)..(2,1,0); slot 1 (0,0,1)..(2,1,3).
 * Spheres (our convention, centre = box centre): slot 0 (1, 0.5, 0), r² = 1 + 0.25 = 1.25;
 *   slot 1 (1, 0.5, 2), r² = 1 + 0.25 + 1 = 2.25 (v4 and v9), r = 1.5.
 * Links (edge k runs from corner k to corner k+1):
 *   desc 0 (0,1,2): edge 2 (2,0) is shared with desc 1      -> [none, none, 1]
 *   desc 1 (0,2,3): edge 0 (0,2)                            -> [0, none, none]
 *   desc 2 (4,5,6): edge 1 (5,6) meets B's (8,7) by position -> [none, 3, none]
 *   desc 3 (8,7,9): edge 0                                  -> [2, none, none]
 * Face normals: desc 0, 1 and 2 face +z: (0, 0, 32767). Desc 3: (p1 − p0) × (p2 − p0) =
 *   (0,−1,0) × (1,−1,2) = (−2, 0, 1), / √5 = (−0.894427, 0, 0.447214), × 32767 rounded:
 *   (−29308, 0, 14654).
 */

static const float hand_pos[10][3] = {
  { 0, 0, 0 }, { 2, 0, 0 }, { 2, 1, 0 }, { 0, 1, 0 },
  { 0, 0, 1 }, { 1, 0, 1 }, { 1, 1, 1 }, { 1, 0, 1 }, { 1, 1, 1 }, { 2, 0, 3 },
};
static const guint16 hand_idx[12] = { 0, 1, 2, 0, 2, 3, 0, 1, 2, 4, 3, 5 };
static const guint16 hand_links[4][3] = {
  { MSHED_NONE, MSHED_NONE, 1 },
  { 0, MSHED_NONE, MSHED_NONE },
  { MSHED_NONE, 3, MSHED_NONE },
  { 2, MSHED_NONE, MSHED_NONE },
};
static const gint16 hand_normals[4][3] = {
  { 0, 0, 32767 }, { 0, 0, 32767 }, { 0, 0, 32767 }, { -29308, 0, 14654 },
};
static const float hand_box[2][6] = {
  { 0, 0, 0, 2, 1, 0 },
  { 0, 0, 1, 2, 1, 3 },
};

/* The smallest float whose square reaches @d2 (how our sphere radius is stored). */
static float
radius_for (double d2)
{
  float r = (float) sqrt (d2);

  while ((double) r * r < d2)
    r = nextafterf (r, INFINITY);
  return r;
}

static GBytes *
hand_model_bytes (void)
{
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  guint8 nodes[2 * 38], res2[140 + 2 * 68] = { 0 }, res3[10 * 12], res4[10 * 4] = { 0 };
  guint8 res5[10 * 4] = { 0 }, res6[12 * 2], res7[4 * 16] = { 0 }, res8[2 * 24] = { 0 };
  guint8 res10[8] = { 0 }, res13[2 * 20] = { 0 };
  const float sphere[2][4] = { { 1, 0.5f, 0, radius_for (1.25) }, { 1, 0.5f, 2, 1.5f } };

  memset (nodes, 0xFF, sizeof nodes);
  for (guint n = 0; n < 2; n++)
    {
      guint8 *r = nodes + 38 * n;

      mshed_write_u16 (r + 0, 0);                       /* hdr0 */
      mshed_write_u16 (r + 2, n == 0 ? MSHED_NONE : 0); /* parent */
      mshed_write_u16 (r + 4, MSHED_NONE);              /* no frame map */
      mshed_write_u16 (r + 6, (guint16) n);             /* fallback key */
      mshed_write_u16 (r + 8, (guint16) n);             /* LOD 0 group 0 -> slot n */
    }
  for (guint s = 0; s < 2; s++)
    {
      guint8 *r = res2 + 140 + 68 * s;

      mshed_write_u16 (r + 0, (guint16) (2 * s));  /* triStart */
      mshed_write_u16 (r + 2, 2);                  /* triCount */
      mshed_write_u16 (r + 4, (guint16) s);        /* batchStart */
      mshed_write_u16 (r + 6, 1);                  /* batchCount */
      for (guint k = 0; k < 6; k++)
        mshed_write_f32 (r + 8 + 4 * k, hand_box[s][k]);
      for (guint k = 0; k < 4; k++)
        mshed_write_f32 (r + 32 + 4 * k, sphere[s][k]);
      mshed_write_u32 (r + 48, 0xA5A5A500u + s);   /* unknown tail, kept */
    }
  for (guint v = 0; v < 10; v++)
    for (guint k = 0; k < 3; k++)
      mshed_write_f32 (res3 + 12 * v + 4 * k, hand_pos[v][k]);
  for (guint v = 0; v < 10; v++)
    res4[4 * v + 2] = 127;
  for (guint i = 0; i < 12; i++)
    mshed_write_u16 (res6 + 2 * i, hand_idx[i]);
  for (guint d = 0; d < 4; d++)
    {
      guint8 *r = res7 + 16 * d;

      mshed_write_u16 (r + 0, (guint16) (0x10 + d));  /* flags, kept */
      for (guint k = 0; k < 3; k++)
        {
          mshed_write_u16 (r + 2 + 2 * k, hand_links[d][k]);
          mshed_write_u16 (r + 8 + 2 * k, (guint16) hand_normals[d][k]);
        }
      mshed_write_u16 (r + 14, 0x3F);
    }
  /* key 0: identity at the origin; key 1: (10, 0, 0), 90° about z */
  mshed_write_u16 (res8 + 16 + 6, 32767);
  mshed_write_f32 (res8 + 24 + 0, 10.0f);
  mshed_write_u16 (res8 + 24 + 16 + 4, 23170);
  mshed_write_u16 (res8 + 24 + 16 + 6, 23170);
  for (guint b = 0; b < 2; b++)
    {
      guint8 *r = res13 + 20 * b;

      mshed_write_u16 (r + 8, 6);                  /* indexCount */
      mshed_write_u32 (r + 10, 6 * b);             /* indexStart */
      mshed_write_u32 (r + 16, 4 * b);             /* baseVertex */
    }

  /* attributes as docs/msh.md §3's writer column gives them */
  mshed_nres_append_entry (nres, 1, 2, 0, 38, "Res1", nodes, sizeof nodes);
  mshed_nres_append_entry (nres, 2, 2, 0, 68, "Res2", res2, sizeof res2);
  mshed_nres_append_entry (nres, 3, 10, 0, 12, "Res3", res3, sizeof res3);
  mshed_nres_append_entry (nres, 4, 10, 0, 4, "Res4", res4, sizeof res4);
  mshed_nres_append_entry (nres, 5, 10, 0, 4, "Res5", res5, sizeof res5);
  mshed_nres_append_entry (nres, 13, 2, 0, 20, "Res13", res13, sizeof res13);
  mshed_nres_append_entry (nres, 6, 12, 0, 2, "Res6", res6, sizeof res6);
  mshed_nres_append_entry (nres, 7, 4, 0, 16, "Res7", res7, sizeof res7);
  mshed_nres_append_entry (nres, 8, 2, 0, 4, "Res8", res8, sizeof res8);
  mshed_nres_append_entry (nres, 19, 0, 1, 2, "Res19", NULL, 0);
  mshed_nres_append_entry (nres, 10, 2, 0, 0, "Res10", res10, sizeof res10);
  return mshed_nres_build_canonical (nres);
}

static MshedDocument *
hand_document (void)
{
  g_autoptr(GBytes) bytes = hand_model_bytes ();
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, diags,
                                                            &error);

  g_assert_no_error (error);
  g_assert_cmpuint (diags->n_errors, ==, 0);
  g_assert_cmpuint (diags->n_warnings, ==, 0);
  return mshed_document_new_for_model (model, MSHED_MODE_STRICT);
}

static GBytes *
doc_bytes (MshedDocument *doc)
{
  return mshed_model_serialize (mshed_document_get_model (doc));
}

static void
assert_same_bytes (GBytes *a,
                   GBytes *b)
{
  gsize na, nb;
  const guint8 *pa = g_bytes_get_data (a, &na), *pb = g_bytes_get_data (b, &nb);

  g_assert_cmpuint (na, ==, nb);
  for (gsize i = 0; i < na; i++)
    if (pa[i] != pb[i])
      g_error ("byte %" G_GSIZE_FORMAT " differs: 0x%02X -> 0x%02X", i, pa[i], pb[i]);
}

static void
recompute_ok (MshedDocument *doc,
              MshedDerived   what)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mshed_document_recompute (doc, what, NULL, 0, &error));
  g_assert_no_error (error);
}

/* Determined by the format: unchanged models stay unchanged --------------------------------- */

static void
test_determined_identity (void)
{
  g_autoptr(MshedDocument) doc = hand_document ();
  g_autoptr(GBytes) before = doc_bytes (doc);
  g_autoptr(GBytes) after = NULL;

  recompute_ok (doc, MSHED_DERIVED_SLOT_BOX);
  recompute_ok (doc, MSHED_DERIVED_ATTRIBUTES);
  recompute_ok (doc, MSHED_DERIVED_ANIMATION_MAP);
  recompute_ok (doc, MSHED_DERIVED_DETERMINED);
  after = doc_bytes (doc);
  assert_same_bytes (before, after);
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_false (mshed_document_can_undo (doc));
}

static void
test_slot_box (void)
{
  g_autoptr(MshedDocument) doc = hand_document ();
  MshedModel *model = mshed_document_get_model (doc);
  MshedSlot slot;

  /* a wrong box and a wrong sphere: the box recompute restores the box, nothing else */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 1, "aabbMaxZ", 7, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 1, "aabbMinX", -4, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, 1, "sphereR", 9, NULL));
  recompute_ok (doc, MSHED_DERIVED_SLOT_BOX);
  mshed_model_get_slot (model, 1, &slot);
  for (guint k = 0; k < 3; k++)
    {
      g_assert_cmpfloat (slot.aabb_min[k], ==, hand_box[1][k]);
      g_assert_cmpfloat (slot.aabb_max[k], ==, hand_box[1][3 + k]);
    }
  g_assert_cmpfloat (slot.sphere_radius, ==, 9.0f);
  g_assert_cmpuint (slot.unk[0], ==, 0xA5A5A501u);

  /* the sphere is ours and comes only when asked for */
  recompute_ok (doc, MSHED_DERIVED_SLOT_SPHERE);
  mshed_model_get_slot (model, 1, &slot);
  g_assert_cmpfloat (slot.sphere_radius, ==, 1.5f);
  g_assert_cmpfloat (slot.sphere_center[2], ==, 2.0f);
}

static void
test_attributes (void)
{
  g_autoptr(MshedDocument) doc = hand_document ();
  MshedNres *nres = mshed_model_get_nres (mshed_document_get_model (doc));
  const MshedNresEntry *res3 = mshed_nres_peek_entry (nres, 2);
  const MshedNresEntry *res8 = mshed_nres_peek_entry (nres, 8);

  g_assert_cmpuint (res3->type_id, ==, 3);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, 2, "attr1", 11, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, 2, "attr3", 4, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, 2, "attr2", 7, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, 8, "attr3", 24, NULL));
  recompute_ok (doc, MSHED_DERIVED_ATTRIBUTES);
  /* §3: Res3 attr1 = 120 / 12, attr3 = 12; Res8 attr3 = 4 although its stride is 24 */
  g_assert_cmpuint (res3->attr1, ==, 10);
  g_assert_cmpuint (res3->attr3, ==, 12);
  g_assert_cmpuint (res8->attr3, ==, 4);
  /* attr2 carries no count: kept as the user set it (a warning, not an error) */
  g_assert_cmpuint (res3->attr2, ==, 7);
}

/* §7.7 with hand values: node 0 has keys 0..2 at times 0, 1, 3 and a map; node 1 one key.
 * frameCount = 3 + 1 = 4; map for frames 0..3: frame 0 -> key 0 (0 <= 0 < 1); frames 1, 2
 * -> key 1 (1 <= f < 3); frame 3 >= the last key's time -> key 2 (the fallback). */
static MshedDocument *
anim_document (void)
{
  g_autoptr(GBytes) base = hand_model_bytes ();
  g_autoptr(MshedNres) nres = mshed_nres_parse (base, MSHED_MODE_STRICT, NULL, NULL);
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  guint8 *nodes = mshed_nres_entry_make_mutable (nres, 0);
  guint8 res8[4 * 24] = { 0 }, res19[8];
  const float times[4] = { 0, 1, 3, 0 };
  const guint16 map[4] = { 0, 1, 1, 2 };
  MshedNresEntry *e19 = mshed_nres_get_entry (nres, 9);
  MshedNresEntry *e8 = mshed_nres_get_entry (nres, 8);
  g_autoptr(GBytes) p8 = g_bytes_new (res8, sizeof res8);
  g_autoptr(GBytes) p19 = NULL;

  for (guint k = 0; k < 4; k++)
    {
      mshed_write_f32 (res8 + 24 * k + 12, times[k]);
      mshed_write_u16 (res8 + 24 * k + 22, 32767);
      mshed_write_u16 (res19 + 2 * k, map[k]);
    }
  g_bytes_unref (p8);
  p8 = g_bytes_new (res8, sizeof res8);
  p19 = g_bytes_new (res19, sizeof res19);
  mshed_write_u16 (nodes + 4, 0);       /* node 0: map block at word 0 */
  mshed_write_u16 (nodes + 6, 2);       /* node 0: keys 0..2 */
  mshed_write_u16 (nodes + 38 + 6, 3);  /* node 1: key 3 */
  mshed_nres_set_payload (nres, 8, p8);
  e8->attr1 = 4;
  mshed_nres_set_payload (nres, 9, p19);
  e19->attr1 = 4;
  e19->attr2 = 4;
  model = mshed_model_new (nres, MSHED_MODE_STRICT, diags, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (diags->n_errors + diags->n_warnings, ==, 0);
  return mshed_document_new_for_model (model, MSHED_MODE_STRICT);
}

static void
test_animation_map (void)
{
  g_autoptr(MshedDocument) doc = anim_document ();
  MshedModel *model = mshed_document_get_model (doc);
  g_autoptr(GBytes) before = doc_bytes (doc);
  g_autoptr(GBytes) after = NULL;
  const guint16 map[4] = { 0, 1, 1, 2 };

  recompute_ok (doc, MSHED_DERIVED_ANIMATION_MAP);
  after = doc_bytes (doc);
  assert_same_bytes (before, after);
  g_assert_false (mshed_document_get_modified (doc));

  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_MAP, 2, "key", 0, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_DIRECTORY, 9, "attr2", 9, NULL));
  recompute_ok (doc, MSHED_DERIVED_ANIMATION_MAP);
  for (guint f = 0; f < 4; f++)
    {
      guint16 w;

      g_assert_true (mshed_model_get_map_word (model, f, &w));
      g_assert_cmpuint (w, ==, map[f]);
    }
  g_assert_cmpuint (mshed_model_get_frame_count (model), ==, 4);
}

/* Conventions keep what is right ---------------------------------------------------------- */

static void
get_links (MshedModel *model,
           guint       d,
           guint16     out[3])
{
  MshedTriDesc t;

  g_assert_true (mshed_model_get_tri (model, d, &t));
  memcpy (out, t.link, sizeof t.link);
}

static void
test_links (void)
{
  g_autoptr(MshedDocument) doc = hand_document ();
  MshedModel *model = mshed_document_get_model (doc);
  g_autoptr(GBytes) before = doc_bytes (doc);
  g_autoptr(GBytes) after = NULL;
  guint16 l[3];
  guint8 regen[2 * 16];

  /* the stored links are right: nothing changes, even over every row */
  recompute_ok (doc, MSHED_DERIVED_TRI_LINKS | MSHED_DERIVED_TRI_NORMALS);
  after = doc_bytes (doc);
  assert_same_bytes (before, after);

  /* regenerated from scratch, slot 1 gives the hand links: A and B meet across a split
   * seam (no common vertex number, the same positions) */
  g_assert_true (mshed_compute_slot_descriptors (model, 1, FALSE, TRUE, regen));
  g_assert_cmpuint (mshed_read_u16 (regen + 2), ==, MSHED_NONE);
  g_assert_cmpuint (mshed_read_u16 (regen + 4), ==, 3);
  g_assert_cmpuint (mshed_read_u16 (regen + 16 + 2), ==, 2);

  /* a valid link in another place stays there; a link to a triangle that shares no edge
   * goes, the missing neighbour takes its own edge's place */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 0, "link2", MSHED_NONE, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 0, "link0", 1, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 2, "link1", 0, NULL));
  recompute_ok (doc, MSHED_DERIVED_TRI_LINKS);
  get_links (model, 0, l);
  g_assert_cmpuint (l[0], ==, 1);
  g_assert_cmpuint (l[1], ==, MSHED_NONE);
  g_assert_cmpuint (l[2], ==, MSHED_NONE);
  get_links (model, 2, l);
  g_assert_cmpuint (l[0], ==, MSHED_NONE);
  g_assert_cmpuint (l[1], ==, 3);
  g_assert_cmpuint (l[2], ==, MSHED_NONE);
}

/* Only the rows an edit made stale, and links stay mutual. */
static void
test_links_stale_rows (void)
{
  g_autoptr(MshedDocument) doc = hand_document ();
  MshedModel *model = mshed_document_get_model (doc);
  guint16 l[3];
  const float far[3] = { 5, 5, 5 };
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;

  /* desc 1 holds a link in the place our edge order would not use: it must survive */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 1, "link0", MSHED_NONE, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 1, "link2", 0, NULL));
  /* moving v9 (a corner of B only) marks B's links; B keeps A, A is untouched */
  for (guint k = 0; k < 3; k++)
    g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 9, k == 0 ? "x" :
                                             k == 1 ? "y" : "z", far[k], NULL));
  g_assert_cmpuint (mshed_document_get_row_stale (doc, MSHED_TABLE_TRIS, 3) &
                    MSHED_DERIVED_TRI_LINKS, !=, 0);
  g_assert_cmpuint (mshed_document_get_row_stale (doc, MSHED_TABLE_TRIS, 1), ==, 0);
  before = doc_bytes (doc);
  g_assert_true (mshed_document_recompute_stale_all (doc, MSHED_DERIVED_TRI_LINKS, NULL));
  after = doc_bytes (doc);
  assert_same_bytes (before, after);

  /* moving v5 (A's corner on the seam) away: A and B no longer meet; B (not stale) forgets
   * A because links are mutual */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 5, "y", -3, NULL));
  g_assert_cmpuint (mshed_document_get_row_stale (doc, MSHED_TABLE_TRIS, 2) &
                    MSHED_DERIVED_TRI_LINKS, !=, 0);
  g_assert_true (mshed_document_recompute_stale_all (doc, MSHED_DERIVED_TRI_LINKS, NULL));
  get_links (model, 2, l);
  g_assert_cmpuint (l[1], ==, MSHED_NONE);
  get_links (model, 3, l);
  g_assert_cmpuint (l[0], ==, MSHED_NONE);
  get_links (model, 1, l);
  g_assert_cmpuint (l[2], ==, 0);   /* untouched */

  /* and back: they meet again, each links the other (B gets A back in its edge's place) */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 5, "y", 0, NULL));
  g_assert_true (mshed_document_recompute_stale_all (doc, MSHED_DERIVED_TRI_LINKS, NULL));
  get_links (model, 2, l);
  g_assert_cmpuint (l[1], ==, 3);
  get_links (model, 3, l);
  g_assert_cmpuint (l[0], ==, 2);
}

static void
test_face_normals (void)
{
  g_autoptr(MshedDocument) doc = hand_document ();
  MshedModel *model = mshed_document_get_model (doc);
  MshedTriDesc t;

  /* within one step of the exact value is an encoding of the same direction: kept; more
   * is not. Desc 3's exact x is −0.894427 × 32767 = −29307.70: −29307 is kept; desc 0's
   * exact y is 0: 2 is replaced by 0, and desc 2's −29310 (2.3 steps) by −29308. */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 3, "nX", -29307, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 0, "nY", 2, NULL));
  recompute_ok (doc, MSHED_DERIVED_TRI_NORMALS);
  mshed_model_get_tri (model, 3, &t);
  g_assert_cmpint (t.normal[0], ==, -29307);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_TRIS, 3, "nX", -29310, NULL));
  recompute_ok (doc, MSHED_DERIVED_TRI_NORMALS);
  mshed_model_get_tri (model, 3, &t);
  g_assert_cmpint (t.normal[0], ==, -29308);
  mshed_model_get_tri (model, 0, &t);
  g_assert_cmpint (t.normal[1], ==, 0);
  g_assert_cmpint (t.normal[2], ==, 32767);
  g_assert_cmpuint (t.flags, ==, 0x10);
}

/* docs/msh.md §5: quantise in double with C round(). For this triangle the exact x component is
 * −201.25 / |n| × 32767 = −23408.49966 (|n|² = 201.25² + 28² + 195.125² = 79358.015625),
 * which rounds to −23408; going through float first gives −23409. */
static void
test_face_normal_rounding (void)
{
  const float p[3][3] = { { 5.0f, -15.5f, -1.75f }, { 3.25f, 10.25f, -7.25f },
                          { -3.75f, 1.75f, -13.25f } };
  gint16 n[3];

  mshed_encode_face_normal (p[0], p[1], p[2], n);
  g_assert_cmpint (n[0], ==, -23408);
  g_assert_cmpint (n[1], ==, 3257);   /* 28 / |n| × 32767 = 3256.83 */
  g_assert_cmpint (n[2], ==, 22696);  /* 195.125 / |n| × 32767 = 22696.07 */
}

/* The header from the posed model ----------------------------------------------------------
 *
 * Node 1's slot, turned 90° about z and moved by (10, 0, 0):
 *   fparkan (v -> R v + t, (x, y, z) -> (−y, x, z)): (10,0,1) (10,1,1) (9,1,1) (10,2,3)
 *   runtime (v -> Rᵀ v + t, (x, y, z) -> (y, −x, z)): (10,0,1) (10,−1,1) (11,−1,1) (10,−2,3)
 * Node 0's slot as stored: (0,0,0) (2,0,0) (2,1,0) (0,1,0).
 * Box over both readings: (0, −2, 0)..(11, 2, 3); centre (5.5, 0, 1.5); the farthest vertex
 * (0,1,0): r² = 5.5² + 1 + 1.5² = 33.5. Capsule along x (the longest side) from (0, 0, 1.5)
 * to (11, 0, 1.5); farthest from that line: (10, ±2, 3): r² = 4 + 2.25 = 6.25, r = 2.5. */
static void
test_header_posed (void)
{
  g_autoptr(MshedDocument) doc = hand_document ();
  MshedModel *model = mshed_document_get_model (doc);
  const float box[6] = { 0, -2, 0, 11, 2, 3 };
  const float posed[][3] = {
    { 0, 0, 0 }, { 2, 0, 0 }, { 2, 1, 0 }, { 0, 1, 0 },
    { 10, 0, 1 }, { 10, 1, 1 }, { 9, 1, 1 }, { 10, 2, 3 },
    { 10, -1, 1 }, { 11, -1, 1 }, { 10, -2, 3 },
  };
  MshedHeader h;

  recompute_ok (doc, MSHED_DERIVED_HEADER_BOUNDS);
  g_assert_true (mshed_model_get_header (model, &h));
  for (guint i = 0; i < 8; i++)
    for (guint k = 0; k < 3; k++)
      g_assert_cmpfloat_with_epsilon (h.hull[i][k], (i >> k) & 1 ? box[3 + k] : box[k], 1e-4);
  g_assert_cmpfloat_with_epsilon (h.sphere[0], 5.5, 1e-4);
  g_assert_cmpfloat_with_epsilon (h.sphere[1], 0.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (h.sphere[2], 1.5, 1e-4);
  g_assert_cmpfloat_with_epsilon (h.sphere[3], sqrt (33.5), 1e-4);
  for (guint i = 0; i < G_N_ELEMENTS (posed); i++)
    {
      double d2 = 0;

      for (guint k = 0; k < 3; k++)
        d2 += ((double) posed[i][k] - h.sphere[k]) * ((double) posed[i][k] - h.sphere[k]);
      g_assert_cmpfloat (d2, <=, (double) h.sphere[3] * h.sphere[3]);
    }
  g_assert_cmpfloat_with_epsilon (h.capsule[0], 0.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (h.capsule[3], 11.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (h.capsule[1], 0.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (h.capsule[2], 1.5, 1e-4);
  g_assert_cmpfloat_with_epsilon (h.capsule[6], 2.5, 1e-4);
  g_assert_cmpfloat (h.capsule[6], >=, 2.5f);
}

/* "Recompute all stale data" after one slot edit ----------------------------------------- */

static void
test_stale_only (void)
{
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GPtrArray) stale = NULL;
  MshedSlot a, b;
  guint sa = 0, sb = 1;
  gsize n, box_lo, box_hi;
  const guint8 *x, *y;
  gint r2;

  mshed_gen_params_init (&p, 77);
  p.n_triangles = 3000;
  p.n_nodes = 6;
  bytes = mshed_generate_model_bytes (&p);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
  doc = mshed_document_new_for_model (model, MSHED_MODE_STRICT);
  mshed_model_get_slot (model, sa, &a);
  mshed_model_get_slot (model, sb, &b);
  g_assert_true (memcmp (a.aabb_min, b.aabb_min, sizeof a.aabb_min) != 0);

  /* slot 0 now draws slot 1's batches and descriptors */
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, sa, "batchStart",
                                           b.batch_start, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, sa, "batchCount",
                                           b.batch_count, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, sa, "triStart",
                                           b.tri_start, NULL));
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_SLOTS, sa, "triCount",
                                           b.tri_count, NULL));
  before = doc_bytes (doc);
  g_assert_true (mshed_document_recompute_stale_all (doc, MSHED_DERIVED_DETERMINED, NULL));
  after = doc_bytes (doc);

  /* exactly the box of slot 0 changed: Res2 + 140 + 0 * 68 + 8 .. + 32 */
  r2 = mshed_model_find_resource (model, 2);
  box_lo = mshed_nres_peek_entry (mshed_model_get_nres (model), (guint) r2)->data_offset +
           140 + (gsize) sa * 68 + 8;
  box_hi = box_lo + 24;
  x = g_bytes_get_data (before, &n);
  y = g_bytes_get_data (after, NULL);
  for (gsize i = 0; i < n; i++)
    if (x[i] != y[i])
      g_assert_true (i >= box_lo && i < box_hi);
  mshed_model_get_slot (model, sa, &a);
  g_assert_cmpmem (a.aabb_min, sizeof a.aabb_min, b.aabb_min, sizeof b.aabb_min);
  g_assert_cmpmem (a.aabb_max, sizeof a.aabb_max, b.aabb_max, sizeof b.aabb_max);

  /* the conventions are still listed, nothing else */
  stale = mshed_document_list_stale (doc);
  g_assert_cmpuint (stale->len, >, 0);
  for (guint i = 0; i < stale->len; i++)
    {
      const MshedStale *s = g_ptr_array_index (stale, i);

      g_assert_true (mshed_derived_is_convention (s->target));
      g_assert_true (s->target != MSHED_DERIVED_HEADER_BOUNDS);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/recompute/determined/identity", test_determined_identity);
  g_test_add_func ("/model/recompute/determined/slot-box", test_slot_box);
  g_test_add_func ("/model/recompute/determined/attributes", test_attributes);
  g_test_add_func ("/model/recompute/determined/animation-map", test_animation_map);
  g_test_add_func ("/model/recompute/convention/links", test_links);
  g_test_add_func ("/model/recompute/convention/links-stale-rows", test_links_stale_rows);
  g_test_add_func ("/model/recompute/convention/face-normals", test_face_normals);
  g_test_add_func ("/model/recompute/convention/face-normal-rounding", test_face_normal_rounding);
  g_test_add_func ("/model/recompute/convention/header-posed", test_header_posed);
  g_test_add_func ("/model/recompute/stale-only", test_stale_only);
  return g_test_run ();
}
