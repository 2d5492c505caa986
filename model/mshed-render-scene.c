/* mshed-render-scene.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-render"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-render-scene-private.h"

static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

static void build_elements (MshedRenderScene *self);
static void build_items    (MshedRenderScene *self);
static void build_world    (MshedRenderScene *self);

MshedRenderScene *
_mshed_render_scene_alloc (void)
{
  MshedRenderScene *self = g_new0 (MshedRenderScene, 1);

  self->elements = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->tri_map = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->batch_ranges = g_array_new (FALSE, TRUE, sizeof (BatchRange));
  self->items = g_array_new (FALSE, FALSE, sizeof (MshedDrawItem));
  mshed_pose_options_init (&self->pose_options);
  return self;
}

MshedRenderScene *
mshed_render_scene_new (MshedModel *model)
{
  MshedRenderScene *self;

  g_return_val_if_fail (model != NULL, NULL);
  self = _mshed_render_scene_alloc ();
  self->model = mshed_model_ref (model);
  build_elements (self);
  build_world (self);
  build_items (self);
  return self;
}

MshedRenderScene *
mshed_render_scene_new_for_dfm (MshedDfm *dfm)
{
  MshedRenderScene *self;

  g_return_val_if_fail (dfm != NULL, NULL);
  self = _mshed_render_scene_alloc ();
  self->dfm = mshed_dfm_ref (dfm);
  build_elements (self);
  build_items (self);
  return self;
}

void
mshed_render_scene_free (MshedRenderScene *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->model, mshed_model_unref);
  _mshed_render_scene_dfm_clear (self);
  g_array_unref (self->elements);
  g_array_unref (self->tri_map);
  g_array_unref (self->batch_ranges);
  g_array_unref (self->items);
  g_free (self->world);
  g_free (self->issues);
  g_free (self);
}

MshedModel *
mshed_render_scene_get_model (MshedRenderScene *self)
{
  return self->model;
}

/* Vertices ------------------------------------------------------------------------------- */

guint
mshed_render_scene_get_n_vertices (MshedRenderScene *self)
{
  if (self->dfm)
    return self->dfm_pos->len / 3;
  return mshed_model_get_n_rows (self->model, MSHED_TABLE_POSITIONS);
}

void
mshed_render_scene_read_vertices (MshedRenderScene *self,
                                  guint             first,
                                  guint             count,
                                  float            *positions,
                                  float            *normals,
                                  float            *uvs)
{
  guint n_pos, n_nrm, n_uv;
  const guint8 *pos, *nrm, *uv;

  if (self->dfm)
    {
      _mshed_render_scene_dfm_read_vertices (self, first, count, positions, normals, uvs);
      return;
    }
  n_pos = mshed_model_get_n_rows (self->model, MSHED_TABLE_POSITIONS);
  n_nrm = mshed_model_get_n_rows (self->model, MSHED_TABLE_NORMALS);
  n_uv = mshed_model_get_n_rows (self->model, MSHED_TABLE_UVS);
  /* Rows are contiguous: the record of row 0 is the start of the table. */
  pos = mshed_model_get_record (self->model, MSHED_TABLE_POSITIONS, 0);
  nrm = mshed_model_get_record (self->model, MSHED_TABLE_NORMALS, 0);
  uv = mshed_model_get_record (self->model, MSHED_TABLE_UVS, 0);

  for (guint i = 0; i < count; i++)
    {
      guint v = first + i;

      if (positions)
        {
          float *p = positions + 3 * (gsize) i;

          if (v < n_pos && v >= first)
            for (guint k = 0; k < 3; k++)
              p[k] = mshed_read_f32 (pos + 12 * (gsize) v + 4 * k);
          else
            p[0] = p[1] = p[2] = 0.0f;
          /* Non-finite positions would poison the rasteriser and the bounds: park them. */
          if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
            p[0] = p[1] = p[2] = 0.0f;
        }
      if (normals)
        {
          float *n = normals + 3 * (gsize) i;

          if (v < n_nrm && v >= first)
            for (guint k = 0; k < 3; k++)
              n[k] = mshed_decode_normal ((gint8) nrm[4 * (gsize) v + k]);
          else
            n[0] = n[1] = n[2] = 0.0f;
        }
      if (uvs)
        {
          float *t = uvs + 2 * (gsize) i;

          if (v < n_uv && v >= first)
            {
              t[0] = mshed_decode_uv (mshed_read_i16 (uv + 4 * (gsize) v));
              t[1] = mshed_decode_uv (mshed_read_i16 (uv + 4 * (gsize) v + 2));
            }
          else
            t[0] = t[1] = 0.0f;
        }
    }
}

/* Elements ------------------------------------------------------------------------------- */

static void
build_elements (MshedRenderScene *self)
{
  guint n_batches, n_indices, n_vertices;
  const guint8 *idx;

  if (self->dfm)
    {
      _mshed_render_scene_dfm_build (self);
      return;
    }
  n_batches = mshed_model_get_n_rows (self->model, MSHED_TABLE_BATCHES);
  n_indices = mshed_model_get_n_rows (self->model, MSHED_TABLE_INDICES);
  n_vertices = mshed_render_scene_get_n_vertices (self);
  idx = mshed_model_get_record (self->model, MSHED_TABLE_INDICES, 0);

  g_array_set_size (self->elements, 0);
  g_array_set_size (self->tri_map, 0);
  g_array_set_size (self->batch_ranges, n_batches);
  for (guint s = 0; s < MSHED_SCENE_SKIP_SLOT_BATCH_RANGE; s++)
    self->skips[s] = 0;

  for (guint b = 0; b < n_batches; b++)
    {
      BatchRange *range = &g_array_index (self->batch_ranges, BatchRange, b);
      MshedBatch batch;

      range->elem_first = self->elements->len;
      range->elem_count = 0;
      range->tri_first = self->tri_map->len;
      if (!mshed_model_get_batch (self->model, b, &batch))
        continue;
      if (batch.index_count < 3)
        {
          self->skips[MSHED_SCENE_SKIP_BATCH_SHORT]++;
          continue;
        }
      if (!mshed_range_ok (batch.index_start, batch.index_count, n_indices))
        {
          self->skips[MSHED_SCENE_SKIP_BATCH_RANGE]++;
          continue;
        }
      for (guint k = 0; k < batch.index_count / 3u; k++)
        {
          guint64 v[3];
          guint32 e[3];
          guint32 tri = k;

          for (guint j = 0; j < 3; j++)
            v[j] = (guint64) mshed_read_u16 (idx + 2 * ((guint64) batch.index_start + 3 * k + j)) +
                   batch.base_vertex;
          if (v[0] >= n_vertices || v[1] >= n_vertices || v[2] >= n_vertices)
            {
              self->skips[MSHED_SCENE_SKIP_TRIANGLE_VERTEX]++;
              continue;
            }
          for (guint j = 0; j < 3; j++)
            e[j] = (guint32) v[j];
          g_array_append_vals (self->elements, e, 3);
          g_array_append_val (self->tri_map, tri);
        }
      range->elem_count = self->elements->len - range->elem_first;
    }
}

const guint32 *
mshed_render_scene_get_elements (MshedRenderScene *self,
                                 guint            *n_elements)
{
  *n_elements = self->elements->len;
  return (const guint32 *) self->elements->data;
}

const guint32 *
mshed_render_scene_get_tri_map (MshedRenderScene *self,
                                guint            *n_triangles)
{
  *n_triangles = self->tri_map->len;
  return (const guint32 *) self->tri_map->data;
}

gboolean
mshed_render_scene_get_batch_range (MshedRenderScene *self,
                                    guint             batch,
                                    guint            *elem_first,
                                    guint            *elem_count,
                                    guint            *tri_first)
{
  const BatchRange *range;

  if (batch >= self->batch_ranges->len)
    return FALSE;
  range = &g_array_index (self->batch_ranges, BatchRange, batch);
  *elem_first = range->elem_first;
  *elem_count = range->elem_count;
  *tri_first = range->tri_first;
  return TRUE;
}

guint
mshed_render_scene_get_skip_count (MshedRenderScene *self,
                                   MshedSceneSkip    what)
{
  g_return_val_if_fail (what < MSHED_SCENE_N_SKIPS, 0);
  return self->skips[what];
}

/* Items ---------------------------------------------------------------------------------- */

static void
add_item (MshedRenderScene *self,
          guint             node,
          guint             slot,
          guint             batch)
{
  const BatchRange *range = &g_array_index (self->batch_ranges, BatchRange, batch);
  MshedDrawItem item;

  if (range->elem_count == 0)
    return;
  item.node = node;
  item.slot = slot;
  item.batch = batch;
  item.elem_first = range->elem_first;
  item.elem_count = range->elem_count;
  item.tri_first = range->tri_first;
  g_array_append_val (self->items, item);
}

static void
build_items (MshedRenderScene *self)
{
  guint n_batches = self->batch_ranges->len;

  g_array_set_size (self->items, 0);
  self->skips[MSHED_SCENE_SKIP_SLOT_BATCH_RANGE] = 0;
  self->all_batches = self->dfm != NULL || !mshed_model_has_node_records (self->model);

  if (self->all_batches)
    {
      /* docs/msh.md §6.3: without a 38-byte node table, every batch in Res13 order. */
      for (guint b = 0; b < n_batches; b++)
        add_item (self, MSHED_NONE, MSHED_NONE, b);
      return;
    }

  for (guint n = 0; n < self->n_nodes; n++)
    {
      guint s = mshed_model_find_slot (self->model, n, self->lod, self->group);
      MshedSlot slot;

      if (s == MSHED_NONE || !mshed_model_get_slot (self->model, s, &slot))
        continue;
      for (guint i = 0; i < slot.batch_count; i++)
        {
          guint b = (guint) slot.batch_start + i;

          if (b >= n_batches)
            {
              self->skips[MSHED_SCENE_SKIP_SLOT_BATCH_RANGE]++;
              break;
            }
          add_item (self, n, s, b);
        }
    }
}

void
mshed_render_scene_set_view (MshedRenderScene *self,
                             guint             lod,
                             guint             group)
{
  if (self->dfm)
    {
      /* a DFM: the level; its face groups are all drawn */
      guint n = mshed_dfm_get_n_levels (self->dfm);

      self->lod = MIN (lod, MAX (n, 1) - 1);
      self->group = 0;
      build_elements (self);
      build_items (self);
      return;
    }
  self->lod = MIN (lod, MSHED_N_LODS - 1);
  self->group = MIN (group, MSHED_N_GROUPS - 1);
  build_items (self);
}

guint
mshed_render_scene_get_lod (MshedRenderScene *self)
{
  return self->lod;
}

guint
mshed_render_scene_get_group (MshedRenderScene *self)
{
  return self->group;
}

gboolean
mshed_render_scene_is_all_batches (MshedRenderScene *self)
{
  return self->all_batches;
}

const MshedDrawItem *
mshed_render_scene_get_items (MshedRenderScene *self,
                              guint            *n_items)
{
  *n_items = self->items->len;
  return (const MshedDrawItem *) self->items->data;
}

void
mshed_render_scene_topology_changed (MshedRenderScene *self)
{
  build_elements (self);
  build_world (self);
  build_items (self);
}

void
mshed_render_scene_nodes_changed (MshedRenderScene *self)
{
  build_world (self);
  build_items (self);
}

/* Poses ---------------------------------------------------------------------------------- */

static void
build_world (MshedRenderScene *self)
{
  guint n = self->model ? mshed_model_get_n_rows (self->model, MSHED_TABLE_NODES) : 0;

  if (self->model == NULL)
    return;
  if (n != self->n_nodes)
    {
      g_free (self->world);
      g_free (self->issues);
      self->n_nodes = n;
      self->world = g_new (float, 16 * (gsize) MAX (n, 1));
      self->issues = g_new0 (MshedAnimIssue, MAX (n, 1));
    }
  mshed_anim_compute_world (self->model, self->time, &self->pose_options,
                            self->world, n, self->issues);
}

void
mshed_render_scene_set_time (MshedRenderScene       *self,
                             float                   t,
                             const MshedPoseOptions *options)
{
  self->time = t;
  if (options)
    self->pose_options = *options;
  build_world (self);
}

float
mshed_render_scene_get_time (MshedRenderScene *self)
{
  return self->time;
}

guint
mshed_render_scene_get_n_nodes (MshedRenderScene *self)
{
  return self->n_nodes;
}

const float *
mshed_render_scene_get_world (MshedRenderScene *self,
                              guint             node)
{
  if (node >= self->n_nodes)
    return identity;
  return self->world + 16 * (gsize) node;
}

MshedAnimIssue
mshed_render_scene_get_node_issues (MshedRenderScene *self,
                                    guint             node)
{
  return node < self->n_nodes ? self->issues[node] : 0;
}

/* Descriptors ------------------------------------------------------------------------------ */

/* Total triangles of the slot's batches (every triangle counts, drawable or not). */
static guint64
slot_triangle_total (MshedRenderScene *self,
                     const MshedSlot  *slot)
{
  guint n_batches = mshed_model_get_n_rows (self->model, MSHED_TABLE_BATCHES);
  guint64 total = 0;

  for (guint b = slot->batch_start;
       b < (guint) slot->batch_start + slot->batch_count && b < n_batches; b++)
    {
      MshedBatch batch;

      if (mshed_model_get_batch (self->model, b, &batch))
        total += batch.index_count / 3u;
    }
  return total;
}

gboolean
mshed_render_scene_slot_has_tri_mapping (MshedRenderScene *self,
                                         guint             slot)
{
  MshedSlot s;

  if (self->model == NULL || !mshed_model_get_slot (self->model, slot, &s))
    return FALSE;
  if ((guint64) s.tri_start + s.tri_count > mshed_model_get_n_rows (self->model, MSHED_TABLE_TRIS))
    return FALSE;
  return slot_triangle_total (self, &s) == s.tri_count;
}

guint
mshed_render_scene_triangle_to_descriptor (MshedRenderScene *self,
                                           guint             slot,
                                           guint             batch,
                                           guint             triangle)
{
  MshedSlot s;
  guint64 ordinal = 0;

  if (!mshed_render_scene_slot_has_tri_mapping (self, slot) ||
      !mshed_model_get_slot (self->model, slot, &s) ||
      batch < s.batch_start || batch >= (guint) s.batch_start + s.batch_count)
    return G_MAXUINT;
  for (guint b = s.batch_start; b < batch; b++)
    {
      MshedBatch rec;

      if (mshed_model_get_batch (self->model, b, &rec))
        ordinal += rec.index_count / 3u;
    }
  {
    MshedBatch rec;

    if (!mshed_model_get_batch (self->model, batch, &rec) || triangle >= rec.index_count / 3u)
      return G_MAXUINT;
  }
  return (guint) (s.tri_start + ordinal + triangle);
}

void
mshed_render_scene_descriptors_to_triangles (MshedRenderScene     *self,
                                             guint                 slot,
                                             const guint          *descriptors,
                                             guint                 n_descriptors,
                                             MshedTriangleCallback func,
                                             gpointer              user_data)
{
  MshedSlot s;
  guint lo = 0, hi = n_descriptors;
  guint64 base;

  if (n_descriptors == 0 || !mshed_render_scene_slot_has_tri_mapping (self, slot) ||
      !mshed_model_get_slot (self->model, slot, &s) || s.tri_count == 0)
    return;
  /* first selected descriptor >= triStart */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (descriptors[mid] < s.tri_start)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo >= n_descriptors || descriptors[lo] >= (guint) s.tri_start + s.tri_count)
    return;

  base = s.tri_start;
  for (guint b = s.batch_start;
       b < (guint) s.batch_start + s.batch_count && lo < n_descriptors; b++)
    {
      MshedBatch rec;
      guint n;

      if (!mshed_model_get_batch (self->model, b, &rec))
        break;
      n = rec.index_count / 3u;
      while (lo < n_descriptors && descriptors[lo] < base + n)
        {
          func (b, (guint) (descriptors[lo] - base), user_data);
          lo++;
        }
      base += n;
    }
}

/* Bounds --------------------------------------------------------------------------------- */

static void
read_position (MshedRenderScene *self,
               const guint8     *pos,
               guint             v,
               float             out[3])
{
  if (self->dfm)
    {
      _mshed_render_scene_dfm_ensure_skinned (self);
      memcpy (out, (const float *) self->dfm_pos->data + 3 * (gsize) v, 3 * sizeof (float));
      return;
    }
  for (guint k = 0; k < 3; k++)
    out[k] = mshed_read_f32 (pos + 12 * (gsize) v + 4 * k);
}

gboolean
mshed_render_scene_compute_slot_bounds (MshedRenderScene *self,
                                        guint             slot_index,
                                        MshedSlotBounds  *out)
{
  const guint8 *pos = self->model ? mshed_model_get_record (self->model, MSHED_TABLE_POSITIONS, 0)
                                  : NULL;
  const guint32 *elements = (const guint32 *) self->elements->data;
  MshedSlot slot;
  gboolean any = FALSE;
  float r2 = 0.0f;

  memset (out, 0, sizeof *out);
  if (pos == NULL || !mshed_model_get_slot (self->model, slot_index, &slot))
    return FALSE;

  /* Pass 0: the AABB; pass 1: the radius around its centre. */
  for (guint pass = 0; pass < 2 && (pass == 0 || any); pass++)
    {
      if (pass == 1)
        for (guint k = 0; k < 3; k++)
          out->sphere_center[k] = 0.5f * (out->aabb_min[k] + out->aabb_max[k]);
      for (guint i = 0; i < slot.batch_count; i++)
        {
          guint b = (guint) slot.batch_start + i;
          const BatchRange *range;

          if (b >= self->batch_ranges->len)
            break;
          range = &g_array_index (self->batch_ranges, BatchRange, b);
          for (guint e = 0; e < range->elem_count; e++)
            {
              float p[3];

              read_position (self, pos, elements[range->elem_first + e], p);
              if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]))
                continue;
              if (pass == 0)
                {
                  for (guint k = 0; k < 3; k++)
                    {
                      out->aabb_min[k] = any ? MIN (out->aabb_min[k], p[k]) : p[k];
                      out->aabb_max[k] = any ? MAX (out->aabb_max[k], p[k]) : p[k];
                    }
                  any = TRUE;
                }
              else
                {
                  float d[3] = { p[0] - out->sphere_center[0], p[1] - out->sphere_center[1],
                                 p[2] - out->sphere_center[2] };

                  r2 = MAX (r2, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                }
            }
        }
    }
  out->sphere_radius = sqrtf (r2);
  out->valid = any;
  return any;
}

gboolean
mshed_render_scene_compute_world_bounds (MshedRenderScene *self,
                                         MshedItemFilter   filter,
                                         gpointer          user_data,
                                         float             min[3],
                                         float             max[3])
{
  const guint8 *pos = self->model ? mshed_model_get_record (self->model, MSHED_TABLE_POSITIONS, 0)
                                  : NULL;
  const guint32 *elements = (const guint32 *) self->elements->data;
  gboolean any = FALSE;

  if (pos == NULL && self->dfm == NULL)
    return FALSE;
  for (guint i = 0; i < self->items->len; i++)
    {
      const MshedDrawItem *item = &g_array_index (self->items, MshedDrawItem, i);
      const float *m;

      if (filter && !filter (item, user_data))
        continue;
      m = mshed_render_scene_get_world (self, item->node);
      for (guint e = 0; e < item->elem_count; e++)
        {
          float p[3], w[3];

          read_position (self, pos, elements[item->elem_first + e], p);
          for (guint r = 0; r < 3; r++)
            w[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
          if (!isfinite (w[0]) || !isfinite (w[1]) || !isfinite (w[2]))
            continue;
          for (guint k = 0; k < 3; k++)
            {
              min[k] = any ? MIN (min[k], w[k]) : w[k];
              max[k] = any ? MAX (max[k], w[k]) : w[k];
            }
          any = TRUE;
        }
    }
  return any;
}
