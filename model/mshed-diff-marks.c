/* mshed-diff-marks.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ghost colours of docs/diff.md §7.1: drawn triangles paired through the diff's alignment
 * and matched by position.
 */
#define G_LOG_DOMAIN "mshed-diff"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diff-marks.h"
#include "mshed-diff-private.h"
#include "mshed-utf-crc.h"
#include "mshed-utf.h"

#define NONE G_MAXUINT
#define TRI_FLOATS 9
/* chain steps per bucket and lookup: bounds the work when thousands of triangles lie within
 * the tolerance of each other (a matching triangle further down is then not found) */
#define MAX_STEPS 256

/* Matching ------------------------------------------------------------------------------- */

/* The diff's rule for a vertex (docs/diff.md §3.2), for each corner: moved when displaced by
 * more than the tolerance, or at all when it is 0 (also -0 against 0). NaN is moved. */
static gboolean
tri_same (const float *p,
          const float *q,
          double       tolerance)
{
  if (tolerance == 0)
    return memcmp (p, q, TRI_FLOATS * sizeof (float)) == 0;
  for (guint c = 0; c < 3; c++)
    {
      double d2 = 0;

      for (guint k = 0; k < 3; k++)
        d2 += ((double) p[3 * c + k] - q[3 * c + k]) * ((double) p[3 * c + k] - q[3 * c + k]);
      if (!(d2 <= tolerance * tolerance))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  const float *b;
  double       tolerance;
  double       cell;       /* tolerance > 0: the cell size of the centroid grid */
  guint        mask;       /* buckets - 1 */
  guint       *head;       /* first triangle of each bucket's chain, NONE */
  guint       *next;       /* the chains, in ascending triangle order */
} Buckets;

static guint64
mix (guint64 h,
     guint64 v)
{
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xbf58476d1ce4e5b9ull;
}

/* Exact: the 9 floats' bits. With a tolerance: the cell of the centroid; corners within the
 * tolerance put the centroids within it too, so in the same or a neighbouring cell. */
static void
cell_of (const Buckets *bk,
         const float   *t,
         gint64         cell[3])
{
  for (guint k = 0; k < 3; k++)
    {
      double c = ((double) t[k] + t[3 + k] + t[6 + k]) / 3 / bk->cell;

      cell[k] = isnan (c) ? 0 : (gint64) floor (CLAMP (c, -4e18, 4e18));  /* NaN: never same */
    }
}

static guint
bucket_exact (const Buckets *bk,
              const float   *t)
{
  guint32 u[TRI_FLOATS];
  guint64 h = 0;

  memcpy (u, t, sizeof u);
  for (guint k = 0; k < TRI_FLOATS; k++)
    h = mix (h, u[k]);
  return (guint) (h ^ (h >> 32)) & bk->mask;
}

static guint
bucket_cell (const Buckets *bk,
             const gint64   cell[3])
{
  guint64 h = mix (mix (mix (0, (guint64) cell[0]), (guint64) cell[1]), (guint64) cell[2]);

  return (guint) (h ^ (h >> 32)) & bk->mask;
}

/* The first unmatched triangle of bucket @bucket's chain that matches @t (NONE), unlinked. */
static guint
take (Buckets     *bk,
      guint        bucket,
      const float *t,
      guint       *found_prev)
{
  guint prev = NONE, steps = 0;

  for (guint j = bk->head[bucket]; j != NONE && steps < MAX_STEPS; prev = j, j = bk->next[j])
    {
      steps++;
      if (tri_same (t, bk->b + (gsize) TRI_FLOATS * j, bk->tolerance))
        {
          *found_prev = prev;
          return j;
        }
    }
  return NONE;
}

static void
unlink_from (Buckets *bk,
             guint    bucket,
             guint    prev,
             guint    j)
{
  if (prev == NONE)
    bk->head[bucket] = bk->next[j];
  else
    bk->next[prev] = bk->next[j];
}

/* The B triangle @t matches: the lowest-numbered unmatched one (NONE), now taken. */
static guint
lookup (Buckets     *bk,
        const float *t)
{
  gint64 cell[3];
  guint best = NONE, best_bucket = 0, best_prev = NONE;

  if (bk->tolerance == 0)
    {
      guint bucket = bucket_exact (bk, t), prev = NONE, j = take (bk, bucket, t, &prev);

      if (j != NONE)
        unlink_from (bk, bucket, prev, j);
      return j;
    }
  cell_of (bk, t, cell);
  for (gint dx = -1; dx <= 1; dx++)
    for (gint dy = -1; dy <= 1; dy++)
      for (gint dz = -1; dz <= 1; dz++)
        {
          gint64 c[3] = { cell[0] + dx, cell[1] + dy, cell[2] + dz };
          guint bucket = bucket_cell (bk, c), prev = NONE, j = take (bk, bucket, t, &prev);

          if (j != NONE && j < best)
            {
              best = j;
              best_bucket = bucket;
              best_prev = prev;
            }
        }
  if (best != NONE)  /* take only reads the chains: best_prev still links to best */
    unlink_from (bk, best_bucket, best_prev, best);
  return best;
}

/* The unmatched triangles between two matched pairs: paired in order as far as they go
 * (moved), the rest only on their side (docs/diff.md §2, the rule for records). */
static void
flush_gap (const guint *match,
           const guint8 *used,
           guint        a0,
           guint        a1,
           guint        b0,
           guint        b1,
           guint8      *marks_a,
           guint8      *marks_b)
{
  guint i = a0, j = b0;

  for (;;)
    {
      while (i < a1 && match[i] != NONE)
        i++;
      while (j < b1 && used[j])
        j++;
      if (i >= a1 || j >= b1)
        break;
      marks_a[i++] = MSHED_DIFF_MARK_CHANGED;
      marks_b[j++] = MSHED_DIFF_MARK_CHANGED;
    }
  for (; i < a1; i++)
    if (match[i] == NONE)
      marks_a[i] = MSHED_DIFF_MARK_ONLY;
  for (; j < b1; j++)
    if (!used[j])
      marks_b[j] = MSHED_DIFF_MARK_ONLY;
}

void
mshed_diff_match_triangles (const float *a,
                            guint        na,
                            const float *b,
                            guint        nb,
                            double       tolerance,
                            guint8      *marks_a,
                            guint8      *marks_b)
{
  guint pre = 0, suf = 0, ka, kb, n_buckets = 1, last_a, last_b;
  g_autofree guint *match = NULL;
  g_autofree guint8 *used = NULL;
  Buckets bk = { 0 };

  g_return_if_fail (na == 0 || (a != NULL && marks_a != NULL));
  g_return_if_fail (nb == 0 || (b != NULL && marks_b != NULL));

  if (na > 0)
    memset (marks_a, MSHED_DIFF_MARK_SAME, na);
  if (nb > 0)
    memset (marks_b, MSHED_DIFF_MARK_SAME, nb);
  /* the common prefix and suffix cost one comparison per triangle */
  while (pre < na && pre < nb && tri_same (a + (gsize) TRI_FLOATS * pre,
                                           b + (gsize) TRI_FLOATS * pre, tolerance))
    pre++;
  while (suf < na - pre && suf < nb - pre &&
         tri_same (a + (gsize) TRI_FLOATS * (na - 1 - suf),
                   b + (gsize) TRI_FLOATS * (nb - 1 - suf), tolerance))
    suf++;
  ka = na - pre - suf;
  kb = nb - pre - suf;
  if (ka == 0 || kb == 0)
    {
      if (ka > 0)
        memset (marks_a + pre, MSHED_DIFF_MARK_ONLY, ka);
      if (kb > 0)
        memset (marks_b + pre, MSHED_DIFF_MARK_ONLY, kb);
      return;
    }
  a += (gsize) TRI_FLOATS * pre;
  b += (gsize) TRI_FLOATS * pre;
  marks_a += pre;
  marks_b += pre;

  /* the middle of B hashed; each triangle of A takes its first unmatched equal */
  while (n_buckets < 2 * kb && n_buckets < (1u << 30))
    n_buckets <<= 1;
  bk.b = b;
  bk.tolerance = tolerance;
  bk.cell = tolerance * 1.001;   /* a centroid's rounding never skips a cell */
  bk.mask = n_buckets - 1;
  bk.head = g_new (guint, n_buckets);
  bk.next = g_new (guint, kb);
  memset (bk.head, 0xFF, n_buckets * sizeof (guint));
  for (guint j = kb; j-- > 0;)
    {
      const float *t = b + (gsize) TRI_FLOATS * j;
      guint bucket;

      if (tolerance == 0)
        bucket = bucket_exact (&bk, t);
      else
        {
          gint64 cell[3];

          cell_of (&bk, t, cell);
          bucket = bucket_cell (&bk, cell);
        }
      bk.next[j] = bk.head[bucket];
      bk.head[bucket] = j;
    }
  match = g_new (guint, ka);
  used = g_new0 (guint8, kb);
  for (guint i = 0; i < ka; i++)
    {
      match[i] = lookup (&bk, a + (gsize) TRI_FLOATS * i);
      if (match[i] != NONE)
        used[match[i]] = 1;
    }
  g_free (bk.head);
  g_free (bk.next);

  /* matches in increasing order on both sides delimit the gaps */
  last_a = 0;
  last_b = 0;
  for (guint i = 0; i < ka; i++)
    if (match[i] != NONE && match[i] >= last_b)
      {
        flush_gap (match, used, last_a, i, last_b, match[i], marks_a, marks_b);
        last_a = i + 1;
        last_b = match[i] + 1;
      }
  flush_gap (match, used, last_a, ka, last_b, kb, marks_a, marks_b);
}

/* Scenes --------------------------------------------------------------------------------- */

typedef struct {
  MshedRenderScene    *scene;
  const MshedDrawItem *items;
  const guint32       *elements;
  guint                n_elements;
  const guint8        *res3;       /* MSH: the positions, read in place */
  float               *skinned;    /* DFM: the level's vertices as the scene skins them */
  guint                n_vertices;
  guint                n_keys;     /* nodes or face groups (1 when not keyed) */
  guint               *key_first;  /* items of key k: order[key_first[k] .. key_first[k + 1]) */
  guint               *key_tris;   /* drawn triangles of key k */
  guint               *order;      /* item numbers by key, in drawing order */
  guint               *tri_start;  /* per order position: its key's triangles before it */
} Side;

static guint
item_key (const MshedDrawItem *item,
          gboolean             keyed,
          gboolean             dfm)
{
  if (!keyed)
    return 0;
  return dfm ? item->batch : item->node;
}

/* The whole triangles of @item that the element list holds: elements[first .. *end). */
static guint
item_range (const Side          *side,
            const MshedDrawItem *item,
            guint               *end)
{
  guint first = MIN (item->elem_first, side->n_elements);

  *end = first + MIN (item->elem_count, side->n_elements - first) / 3 * 3;
  return first;
}

/* Groups the items by key. Nothing is kept per triangle or copied per vertex (MSH): fresh
 * pages are what a 200,000-triangle pair costs most (tests/bench-diff.c). */
static void
side_init (Side             *side,
           MshedRenderScene *scene,
           gboolean          keyed,
           guint             n_keys)
{
  MshedModel *model = mshed_render_scene_get_model (scene);
  gboolean dfm = mshed_render_scene_get_dfm (scene) != NULL;
  guint n_items = 0;
  g_autofree guint *fill = NULL;

  side->scene = scene;
  side->items = mshed_render_scene_get_items (scene, &n_items);
  side->elements = mshed_render_scene_get_elements (scene, &side->n_elements);
  side->n_vertices = mshed_render_scene_get_n_vertices (scene);
  side->res3 = NULL;
  side->skinned = NULL;
  if (model && side->n_vertices > 0)
    side->res3 = mshed_model_get_record (model, MSHED_TABLE_POSITIONS, 0);
  else if (side->n_vertices > 0)
    {
      side->skinned = g_new (float, 3 * (gsize) side->n_vertices);
      mshed_render_scene_read_vertices (scene, 0, side->n_vertices, side->skinned, NULL,
                                        NULL);
    }
  if (side->res3 == NULL && side->skinned == NULL)
    side->n_vertices = 0;
  side->n_keys = keyed ? n_keys : 1;
  side->key_first = g_new0 (guint, side->n_keys + 1);
  side->key_tris = g_new0 (guint, side->n_keys);
  side->order = g_new (guint, MAX (n_items, 1));
  side->tri_start = g_new (guint, MAX (n_items, 1));
  fill = g_new0 (guint, side->n_keys);
  for (guint i = 0; i < n_items; i++)
    {
      guint k = item_key (&side->items[i], keyed, dfm);

      if (k < side->n_keys)
        side->key_first[k + 1]++;
    }
  for (guint k = 0; k < side->n_keys; k++)
    side->key_first[k + 1] += side->key_first[k];
  for (guint i = 0; i < n_items; i++)
    {
      guint k = item_key (&side->items[i], keyed, dfm), o, end, first;

      if (k >= side->n_keys)
        continue;
      o = side->key_first[k] + fill[k]++;
      first = item_range (side, &side->items[i], &end);
      side->order[o] = i;
      side->tri_start[o] = side->key_tris[k];
      side->key_tris[k] += (end - first) / 3;
    }
}

static void
side_clear (Side *side)
{
  g_free (side->skinned);
  g_free (side->key_first);
  g_free (side->key_tris);
  g_free (side->order);
  g_free (side->tri_start);
}

/* The first element of triangle @t of key @k, and its item. */
static guint
tri_elem (const Side *side,
          guint       k,
          guint       t,
          guint      *item)
{
  guint lo = side->key_first[k], hi = side->key_first[k + 1], end;

  while (hi - lo > 1)   /* the last item starting at or before t (one that draws it) */
    {
      guint mid = lo + (hi - lo) / 2;

      if (side->tri_start[mid] <= t)
        lo = mid;
      else
        hi = mid;
    }
  *item = side->order[lo];
  return item_range (side, &side->items[*item], &end) + 3 * (t - side->tri_start[lo]);
}

/* Vertex @v where the scene draws it (before the node's matrix); MSH: non-finite at the
 * origin, as the scene parks it. */
static void
position (const Side *side,
          guint       v,
          float       out[3])
{
  if (v >= side->n_vertices)
    out[0] = out[1] = out[2] = 0;
  else if (side->skinned)
    memcpy (out, side->skinned + 3 * (gsize) v, 3 * sizeof (float));
  else
    {
      for (guint k = 0; k < 3; k++)
        out[k] = mshed_read_f32 (side->res3 + 12 * (gsize) v + 4 * k);
      if (!isfinite (out[0]) || !isfinite (out[1]) || !isfinite (out[2]))
        out[0] = out[1] = out[2] = 0;
    }
}

/* The triangle at element @e of item @item in world space. */
static void
corners (const Side *side,
         guint       item,
         guint       e,
         float       w[TRI_FLOATS])
{
  const float *m = mshed_render_scene_get_world (side->scene, side->items[item].node);

  for (guint c = 0; c < 3; c++)
    {
      float p[3];

      position (side, side->elements[e + c], p);
      for (guint r = 0; r < 3; r++)
        w[3 * c + r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    }
}

static gboolean
same_at (const Side *sides,
         const guint k[2],
         const guint t[2],
         double      tolerance)
{
  float w[2][TRI_FLOATS], p[2][3];
  guint items[2], e[2], c = 0;

  for (guint s = 0; s < 2; s++)
    e[s] = tri_elem (&sides[s], k[s], t[s], &items[s]);
  /* the same corners under the same matrix: the same world corners, without computing them */
  if (memcmp (mshed_render_scene_get_world (sides[0].scene, sides[0].items[items[0]].node),
              mshed_render_scene_get_world (sides[1].scene, sides[1].items[items[1]].node),
              16 * sizeof (float)) == 0)
    for (; c < 3; c++)
      {
        position (&sides[0], sides[0].elements[e[0] + c], p[0]);
        position (&sides[1], sides[1].elements[e[1] + c], p[1]);
        if (memcmp (p[0], p[1], sizeof p[0]) != 0)
          break;
      }
  if (c == 3)
    return TRUE;
  for (guint s = 0; s < 2; s++)
    corners (&sides[s], items[s], e[s], w[s]);
  return tri_same (w[0], w[1], tolerance);
}

/* Marks the triangles of key @ka of A and @kb of B (NONE: none there). Equal runs at both
 * ends are compared in place; only the middle is written out for the matching. */
static void
mark_pair (MshedDiffMarks *self,
           const Side     *sides,
           guint           ka,
           guint           kb,
           double          tolerance)
{
  guint k[2] = { ka, kb }, n[2], pre = 0, suf = 0;

  for (guint s = 0; s < 2; s++)
    n[s] = k[s] < sides[s].n_keys ? sides[s].key_tris[k[s]] : 0;
  while (pre < n[0] && pre < n[1] && same_at (sides, k, (guint[]) { pre, pre }, tolerance))
    pre++;
  while (suf < n[0] - pre && suf < n[1] - pre &&
         same_at (sides, k, (guint[]) { n[0] - 1 - suf, n[1] - 1 - suf }, tolerance))
    suf++;
  if (pre == n[0] && pre == n[1])
    {
      for (guint s = 0; s < 2; s++)
        self->sides[s].counts[MSHED_DIFF_MARK_SAME] += n[s];
      return;
    }
  {
    float *mid[2];
    guint8 *marks[2];

    for (guint s = 0; s < 2; s++)
      {
        guint m = n[s] - pre - suf;

        mid[s] = g_new (float, (gsize) TRI_FLOATS * MAX (m, 1));
        marks[s] = g_new (guint8, MAX (m, 1));
        for (guint t = 0; t < m; t++)
          {
            guint item, e = tri_elem (&sides[s], k[s], pre + t, &item);

            corners (&sides[s], item, e, mid[s] + (gsize) TRI_FLOATS * t);
          }
      }
    mshed_diff_match_triangles (mid[0], n[0] - pre - suf, mid[1], n[1] - pre - suf,
                                tolerance, marks[0], marks[1]);
    for (guint s = 0; s < 2; s++)
      {
        MshedDiffSideMarks *out = &self->sides[s];

        for (guint t = 0; t < n[s]; t++)
          {
            guint item, e = tri_elem (&sides[s], k[s], t, &item);
            guint8 m = t >= pre && t < n[s] - suf ? marks[s][t - pre] : MSHED_DIFF_MARK_SAME;

            out->triangles[e / 3] = m;
            out->counts[m]++;
          }
        g_free (mid[s]);
        g_free (marks[s]);
      }
  }
}

static gboolean
group_names_equal (gpointer data,
                   guint    i,
                   guint    j)
{
  GPtrArray **names = data;

  return mshed_utf_name_compare (g_ptr_array_index (names[0], i),
                                 g_ptr_array_index (names[1], j)) == 0;
}

/* The names of the face groups of the level @scene draws (Group<n>, as in its tree). */
static GPtrArray *
group_names (MshedRenderScene *scene,
             guint            *n_groups)
{
  MshedDfm *dfm = mshed_render_scene_get_dfm (scene);
  guint level = mshed_render_scene_get_lod (scene);
  GPtrArray *names = g_ptr_array_new ();
  MshedDfmLevel info;

  *n_groups = mshed_dfm_get_level (dfm, level, &info) ? info.n_groups : 0;
  for (guint g = 0; g < *n_groups; g++)
    {
      MshedDfmGroup group;

      g_ptr_array_add (names, (gpointer) (mshed_dfm_get_group (dfm, level, g, &group) &&
                                          group.node ? mshed_utf_node_get_name (group.node)
                                                     : ""));
    }
  return names;
}

/* Which key of A goes with which of B (MshedDiffPair), the keys counted into @n_keys. */
static GArray *
align_keys (MshedRenderScene *a,
            MshedRenderScene *b,
            gboolean         *keyed,
            guint             n_keys[2])
{
  MshedModel *ma = mshed_render_scene_get_model (a), *mb = mshed_render_scene_get_model (b);
  GArray *pairs;

  *keyed = TRUE;
  if (ma && mb && !mshed_render_scene_is_all_batches (a) &&
      !mshed_render_scene_is_all_batches (b))
    {
      n_keys[0] = mshed_model_get_n_rows (ma, MSHED_TABLE_NODES);
      n_keys[1] = mshed_model_get_n_rows (mb, MSHED_TABLE_NODES);
      return mshed_diff_align_nodes (ma, mb, n_keys[0], n_keys[1]);
    }
  if (mshed_render_scene_get_dfm (a) && mshed_render_scene_get_dfm (b))
    {
      GPtrArray *names[2] = { group_names (a, &n_keys[0]), group_names (b, &n_keys[1]) };

      pairs = mshed_diff_align (n_keys[0], n_keys[1], group_names_equal, names,
                                MSHED_DIFF_GAP_PAIR_EQUAL);
      g_ptr_array_unref (names[0]);
      g_ptr_array_unref (names[1]);
      return pairs;
    }
  *keyed = FALSE;
  n_keys[0] = n_keys[1] = 1;
  pairs = g_array_new (FALSE, FALSE, sizeof (MshedDiffPair));
  g_array_append_val (pairs, ((MshedDiffPair) { 0, 0 }));
  return pairs;
}

/**
 * mshed_diff_marks_new:
 * @tolerance: the diff's (mshed_diff_get_tolerance)
 *
 * Returns: (transfer full): the marks of each side's triangles
 */
MshedDiffMarks *
mshed_diff_marks_new (MshedRenderScene *a,
                      MshedRenderScene *b,
                      double            tolerance)
{
  MshedDiffMarks *self;
  MshedRenderScene *scenes[2] = { a, b };
  Side sides[2];
  guint n_keys[2];
  gboolean keyed;
  g_autoptr(GArray) pairs = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  self = g_new0 (MshedDiffMarks, 1);
  pairs = align_keys (a, b, &keyed, n_keys);
  for (guint s = 0; s < 2; s++)
    {
      guint n_elements = 0;

      mshed_render_scene_get_elements (scenes[s], &n_elements);
      self->sides[s].n_triangles = n_elements / 3;
      self->sides[s].triangles = g_new0 (guint8, MAX (n_elements / 3, 1));
      side_init (&sides[s], scenes[s], keyed, n_keys[s]);
    }
  for (guint p = 0; p < pairs->len; p++)
    {
      MshedDiffPair pr = g_array_index (pairs, MshedDiffPair, p);

      mark_pair (self, sides, pr.a, pr.b, tolerance);
    }
  for (guint s = 0; s < 2; s++)
    side_clear (&sides[s]);
  return self;
}

void
mshed_diff_marks_free (MshedDiffMarks *self)
{
  if (self == NULL)
    return;
  g_free (self->sides[0].triangles);
  g_free (self->sides[1].triangles);
  g_free (self);
}

/**
 * mshed_diff_marks_dup_vertex_marks:
 *
 * Returns: (transfer full): one MshedDiffMark per vertex of @scene (@n_vertices of them)
 */
guint8 *
mshed_diff_marks_dup_vertex_marks (const MshedDiffMarks *self,
                                   guint                 side,
                                   MshedRenderScene     *scene,
                                   guint                *n_vertices)
{
  const MshedDiffSideMarks *sm;
  guint n = mshed_render_scene_get_n_vertices (scene), n_items = 0, n_elements = 0;
  const MshedDrawItem *items = mshed_render_scene_get_items (scene, &n_items);
  const guint32 *elements = mshed_render_scene_get_elements (scene, &n_elements);
  g_autofree guint8 *unmarked = NULL;  /* drawn unmarked triangles using it, up to 255 */
  g_autofree guint8 *changed = NULL;
  guint8 *out = g_new0 (guint8, MAX (n, 1));

  g_return_val_if_fail (side < 2, out);
  sm = &self->sides[side];
  *n_vertices = n;
  if (sm->counts[MSHED_DIFF_MARK_CHANGED] == 0 && sm->counts[MSHED_DIFF_MARK_ONLY] == 0)
    return out;
  unmarked = g_new0 (guint8, MAX (n, 1));
  changed = g_new0 (guint8, MAX (n, 1));
  /* pass 0: count; 1: a vertex only marked triangles use; 2: a marked triangle none of whose
   * corners is marked takes its least shared corner */
  for (guint pass = 0; pass < 3; pass++)
    for (guint i = 0; i < n_items; i++)
      {
        guint end, e = MIN (items[i].elem_first, n_elements);

        end = e + MIN (items[i].elem_count, n_elements - e) / 3 * 3;
        for (; e < end; e += 3)
          {
            const guint32 *tri = elements + e;
            guint8 m = e / 3 < sm->n_triangles ? sm->triangles[e / 3] : MSHED_DIFF_MARK_SAME;
            guint best = 0;

            if (tri[0] >= n || tri[1] >= n || tri[2] >= n || (pass > 0 && m == 0))
              continue;
            if (pass == 0)
              for (guint c = 0; c < 3; c++)
                {
                  if (m == MSHED_DIFF_MARK_SAME && unmarked[tri[c]] < G_MAXUINT8)
                    unmarked[tri[c]]++;
                  changed[tri[c]] |= m == MSHED_DIFF_MARK_CHANGED;
                }
            else if (pass == 1)
              for (guint c = 0; c < 3; c++)
                {
                  if (unmarked[tri[c]] == 0)
                    out[tri[c]] = changed[tri[c]] ? MSHED_DIFF_MARK_CHANGED
                                                  : MSHED_DIFF_MARK_ONLY;
                }
            else if (!out[tri[0]] && !out[tri[1]] && !out[tri[2]])
              {
                for (guint c = 1; c < 3; c++)
                  if (unmarked[tri[c]] < unmarked[tri[best]])
                    best = c;
                out[tri[best]] = m;
              }
          }
      }
  return out;
}
