/* test-roundtrip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Generated models and archives of every shape: strict load with no findings, byte-identical
 * writing (unmodified, forced canonical rebuild, and re-encoding every table from the typed
 * accessors), the generator's own promises checked independently of the validator,
 * generated archives and determinism. Archive edits, non-canonical archives and the
 * docs/nres.md §9 vector are in test-archive-roundtrip.c.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-anim.h"
#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "archive-ref.h"
#include "gen-shapes.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-source.h"
#include "mshed-validate.h"

static const guint32 order_basic[] = { 1, 2, 3, 4, 5, 15, 13, 6, 7, 8, 19, 9, 10, 17 };
static const guint32 order_ext[] = { 1, 2, 3, 4, 5, 18, 15, 13, 6, 7, 8, 19, 9, 10, 17, 20 };

/* Helpers ---------------------------------------------------------------------------------- */

/* No finding at all, except the informational note on a legacy node table. */
static void
assert_clean (const MshedDiagnostics *diags,
              gboolean                legacy)
{
  guint legacy_notes = 0;

  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);
      g_autofree char *text = NULL;

      if (legacy && d->check == MSHED_CHECK_LEGACY_NODES && d->severity == MSHED_SEVERITY_INFO)
        {
          legacy_notes++;
          continue;
        }
      text = mshed_diagnostic_format (d);
      g_assert_cmpstr (text, ==, NULL);  /* prints the unexpected finding */
    }
  g_assert_cmpuint (legacy_notes, ==, legacy ? 1 : 0);
}

static MshedModel *
load_strict (GBytes   *bytes,
             gboolean  legacy)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, diags, &error);
  MshedModel *model;

  g_assert_no_error (error);
  g_assert_nonnull (nres);
  g_assert_true (mshed_nres_is_canonical (nres));
  g_assert_true (mshed_nres_looks_like_model (nres));
  model = mshed_model_new (nres, MSHED_MODE_STRICT, diags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  assert_clean (diags, legacy);
  return model;
}

static void
put_u16 (GByteArray *out,
         guint16     v)
{
  guint8 b[2];

  mshed_write_u16 (b, v);
  g_byte_array_append (out, b, 2);
}

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  guint8 b[4];

  mshed_write_u32 (b, v);
  g_byte_array_append (out, b, 4);
}

static void
put_f32 (GByteArray *out,
         float       v)
{
  guint8 b[4];

  mshed_write_f32 (b, v);
  g_byte_array_append (out, b, 4);
}

/* Re-encodes one resource from the typed accessors (the decode half of the IR). */
static GBytes *
encode_resource (MshedModel           *model,
                 const MshedNresEntry *entry)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint n;

  switch (entry->type_id)
    {
    case 1:
      if (!mshed_model_has_node_records (model))
        return mshed_nres_entry_dup_bytes (entry);  /* legacy: carried through */
      n = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
      for (guint i = 0; i < n; i++)
        {
          MshedNode node;

          g_assert_true (mshed_model_get_node (model, i, &node));
          put_u16 (out, node.hdr0);
          put_u16 (out, node.hdr1);
          put_u16 (out, node.hdr2);
          put_u16 (out, node.hdr3);
          for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
            put_u16 (out, node.slot[c]);
        }
      g_assert_false (mshed_model_get_node (model, n, &(MshedNode) { 0 }));
      break;

    case 2:
      {
        MshedHeader header;
        const float *f = (const float *) &header;

        g_assert_true (mshed_model_get_header (model, &header));
        for (guint i = 0; i < 35; i++)
          put_f32 (out, f[i]);
        n = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
        for (guint i = 0; i < n; i++)
          {
            MshedSlot s;

            g_assert_true (mshed_model_get_slot (model, i, &s));
            put_u16 (out, s.tri_start);
            put_u16 (out, s.tri_count);
            put_u16 (out, s.batch_start);
            put_u16 (out, s.batch_count);
            for (guint k = 0; k < 3; k++)
              put_f32 (out, s.aabb_min[k]);
            for (guint k = 0; k < 3; k++)
              put_f32 (out, s.aabb_max[k]);
            for (guint k = 0; k < 3; k++)
              put_f32 (out, s.sphere_center[k]);
            put_f32 (out, s.sphere_radius);
            for (guint k = 0; k < 5; k++)
              put_u32 (out, s.unk[k]);
          }
      }
      break;

    case 3:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS);
      for (guint i = 0; i < n; i++)
        {
          float p[3];

          g_assert_true (mshed_model_get_position (model, i, p));
          for (guint k = 0; k < 3; k++)
            put_f32 (out, p[k]);
        }
      break;

    case 4:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_NORMALS);
      for (guint i = 0; i < n; i++)
        {
          float v[3];
          const guint8 *raw = mshed_model_get_record (model, MSHED_TABLE_NORMALS, i);

          g_assert_true (mshed_model_get_normal (model, i, v));
          for (guint k = 0; k < 3; k++)
            {
              guint8 q = (guint8) mshed_encode_normal (v[k]);
              g_byte_array_append (out, &q, 1);
            }
          g_byte_array_append (out, raw + 3, 1);  /* nw: no decoded form */
        }
      break;

    case 5:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_UVS);
      for (guint i = 0; i < n; i++)
        {
          float uv[2];

          g_assert_true (mshed_model_get_uv (model, i, uv));
          put_u16 (out, (guint16) mshed_encode_uv (uv[0]));
          put_u16 (out, (guint16) mshed_encode_uv (uv[1]));
        }
      break;

    case 6:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_INDICES);
      for (guint i = 0; i < n; i++)
        {
          guint16 v;

          g_assert_true (mshed_model_get_index (model, i, &v));
          put_u16 (out, v);
        }
      break;

    case 7:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);
      for (guint i = 0; i < n; i++)
        {
          MshedTriDesc t;

          g_assert_true (mshed_model_get_tri (model, i, &t));
          put_u16 (out, t.flags);
          for (guint k = 0; k < 3; k++)
            put_u16 (out, t.link[k]);
          for (guint k = 0; k < 3; k++)
            put_u16 (out, (guint16) t.normal[k]);
          put_u16 (out, t.sel_packed);
        }
      break;

    case 8:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_KEYS);
      for (guint i = 0; i < n; i++)
        {
          MshedKey key;

          g_assert_true (mshed_model_get_key (model, i, &key));
          for (guint k = 0; k < 3; k++)
            put_f32 (out, key.pos[k]);
          put_f32 (out, key.time);
          for (guint k = 0; k < 4; k++)
            put_u16 (out, (guint16) key.q[k]);
        }
      break;

    case 10:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_NAMES);
      for (guint i = 0; i < n; i++)
        {
          const guint8 *text;
          guint32 len;

          g_assert_true (mshed_model_get_name_raw (model, i, &text, &len));
          put_u32 (out, len);
          if (len > 0)
            g_byte_array_append (out, text, len + 1);
        }
      break;

    case 13:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
      for (guint i = 0; i < n; i++)
        {
          MshedBatch b;

          g_assert_true (mshed_model_get_batch (model, i, &b));
          put_u16 (out, b.flags);
          put_u16 (out, b.material_index);
          put_u16 (out, b.unk4);
          put_u16 (out, b.unk6);
          put_u16 (out, b.index_count);
          put_u32 (out, b.index_start);
          put_u16 (out, b.unk14);
          put_u32 (out, b.base_vertex);
        }
      break;

    case 15:
    case 18:
      {
        MshedTableId table = entry->type_id == 15 ? MSHED_TABLE_EXTRA15 : MSHED_TABLE_EXTRA18;
        guint stride = entry->type_id == 15 ? 8 : 4;

        n = mshed_model_get_n_rows (model, table);
        for (guint i = 0; i < n; i++)
          g_byte_array_append (out, mshed_model_get_record (model, table, i), stride);
      }
      break;

    case 19:
      n = mshed_model_get_n_rows (model, MSHED_TABLE_MAP);
      for (guint i = 0; i < n; i++)
        {
          guint16 w;

          g_assert_true (mshed_model_get_map_word (model, i, &w));
          put_u16 (out, w);
        }
      break;

    default:
      return mshed_nres_entry_dup_bytes (entry);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* A fresh archive holding every resource re-encoded from its decoded form. */
static GBytes *
rebuild_from_ir (MshedModel *model)
{
  MshedNres *src = mshed_model_get_nres (model);
  g_autoptr(MshedNres) dst = mshed_nres_new ();

  for (guint i = 0; i < mshed_nres_get_n_entries (src); i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (src, i);
      g_autoptr(GBytes) payload = encode_resource (model, e);

      mshed_nres_insert_entry (dst, G_MAXUINT, e, payload);
    }
  return mshed_nres_build_canonical (dst);
}

/* The full round trip of one model's bytes. */
static MshedModel *
roundtrip_model (GBytes   *bytes,
                 gboolean  legacy)
{
  MshedModel *model = load_strict (bytes, legacy);
  g_autoptr(GBytes) same = mshed_model_serialize (model);
  g_autoptr(GBytes) rebuilt = NULL;
  g_autoptr(GBytes) reencoded = NULL;
  g_autoptr(MshedNres) copy = NULL;

  g_assert_true (g_bytes_equal (same, bytes));
  rebuilt = mshed_nres_build_canonical (mshed_model_get_nres (model));
  g_assert_true (g_bytes_equal (rebuilt, bytes));
  reencoded = rebuild_from_ir (model);
  g_assert_cmpmem (g_bytes_get_data (reencoded, NULL), g_bytes_get_size (reencoded),
                   g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  /* every payload touched (but unchanged): still the same bytes */
  copy = mshed_nres_copy (mshed_model_get_nres (model));
  for (guint i = 0; i < mshed_nres_get_n_entries (copy); i++)
    mshed_nres_touch (copy, i);
  g_clear_pointer (&rebuilt, g_bytes_unref);
  rebuilt = mshed_nres_serialize (copy, NULL);
  g_assert_true (g_bytes_equal (rebuilt, bytes));
  return model;
}

/* Independent checks of what the generator promises ---------------------------------------- */

static guint32
type_size (MshedModel *model,
           guint32     type)
{
  const MshedNresEntry *e = mshed_model_get_resource (model, type);

  g_assert_nonnull (e);
  return (guint32) mshed_nres_entry_get_size (e);
}

static double
dist2 (const float *a,
       const float *b)
{
  double s = 0.0;

  for (guint k = 0; k < 3; k++)
    s += ((double) a[k] - b[k]) * ((double) a[k] - b[k]);
  return s;
}

typedef struct {
  guint lod_gaps;       /* a node with lod 2 but no lod 1, or a group gap */
  guint shared_slots;   /* a slot referenced by more than one cell */
  guint multi_batch;    /* a slot with several batches */
  guint cyrillic;
  guint empty_names;
  guint animated;
  guint ext;
  guint legacy;
  guint res17;
  guint roots;          /* models with more than one root */
} Coverage;

static void
check_geometry (MshedModel *model,
                guint       expect_tris)
{
  guint n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  guint n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  guint n_verts = mshed_model_get_n_rows (model, MSHED_TABLE_POSITIONS);
  guint n_desc = mshed_model_get_n_rows (model, MSHED_TABLE_TRIS);
  guint total_tris = 0;
  MshedHeader h;
  guint next_batch = 0, next_desc = 0;
  guint32 next_index = 0, next_vertex = 0;

  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NORMALS), ==, n_verts);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_UVS), ==, n_verts);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_EXTRA15), ==, n_verts);
  if (mshed_model_get_resource (model, 18))
    g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_EXTRA18), ==, n_verts);

  for (guint b = 0; b < n_batches; b++)
    {
      MshedBatch batch;

      g_assert_true (mshed_model_get_batch (model, b, &batch));
      g_assert_cmpuint (batch.index_count % 3, ==, 0);
      g_assert_cmpuint (batch.index_count, >, 0);
      /* batches, indices and vertices are laid out back to back */
      g_assert_cmpuint (batch.index_start, ==, next_index);
      g_assert_cmpuint (batch.base_vertex, ==, next_vertex);
      next_index += batch.index_count;
      total_tris += batch.index_count / 3;
      for (guint i = 0; i < batch.index_count; i++)
        {
          guint16 v;

          g_assert_true (mshed_model_get_index (model, batch.index_start + i, &v));
          g_assert_cmpuint (batch.base_vertex + v, <, n_verts);
          next_vertex = MAX (next_vertex, batch.base_vertex + v + 1);
        }
      next_vertex = MAX (next_vertex, batch.base_vertex);
    }
  g_assert_cmpuint (total_tris, ==, expect_tris);
  if (expect_tris <= 65535)
    g_assert_cmpuint (n_desc, ==, expect_tris);  /* one descriptor per triangle */
  else
    {
      g_assert_cmpuint (n_desc, <=, 65535);  /* u16 triStart/triCount and links */
      g_assert_cmpuint (n_desc, >, 60000);
    }

  for (guint s = 0; s < n_slots; s++)
    {
      MshedSlot slot;
      guint slot_tris = 0;

      g_assert_true (mshed_model_get_slot (model, s, &slot));
      /* slots take consecutive batch and descriptor ranges */
      g_assert_cmpuint (slot.batch_start, ==, next_batch);
      g_assert_cmpuint (slot.batch_count, >, 0);
      g_assert_cmpuint (slot.tri_start, ==, next_desc);
      g_assert_cmpuint (slot.tri_count, >, 0);
      next_batch += slot.batch_count;
      next_desc += slot.tri_count;
      g_assert_cmpfloat (slot.sphere_radius, >=, 0.0f);

      for (guint b = slot.batch_start; b < slot.batch_start + slot.batch_count; b++)
        {
          MshedBatch batch;

          g_assert_true (mshed_model_get_batch (model, b, &batch));
          slot_tris += batch.index_count / 3;
          for (guint i = 0; i < batch.index_count; i++)
            {
              guint16 v;
              float p[3];

              g_assert_true (mshed_model_get_index (model, batch.index_start + i, &v));
              g_assert_true (mshed_model_get_position (model, batch.base_vertex + v, p));
              for (guint k = 0; k < 3; k++)
                {
                  g_assert_cmpfloat (p[k], >=, slot.aabb_min[k]);
                  g_assert_cmpfloat (p[k], <=, slot.aabb_max[k]);
                }
              g_assert_cmpfloat (dist2 (p, slot.sphere_center), <=,
                                 (double) slot.sphere_radius * slot.sphere_radius);
            }
        }
      if (expect_tris <= 65535)
        g_assert_cmpuint (slot.tri_count, ==, slot_tris);
      else
        g_assert_cmpuint (slot.tri_count, <=, slot_tris);

      /* one descriptor per triangle: its face normal is the triangle's */
      if (slot.tri_count == slot_tris)
        {
          guint j = slot.tri_start;

          for (guint b = slot.batch_start; b < slot.batch_start + slot.batch_count; b++)
            {
              MshedBatch batch;

              g_assert_true (mshed_model_get_batch (model, b, &batch));
              for (guint t = 0; t < batch.index_count / 3; t++, j++)
                {
                  float p[3][3];
                  double e1[3], e2[3], n[3], len;
                  MshedTriDesc d;

                  for (guint k = 0; k < 3; k++)
                    {
                      guint16 v;

                      g_assert_true (mshed_model_get_index (model, batch.index_start + 3 * t + k,
                                                            &v));
                      g_assert_true (mshed_model_get_position (model, batch.base_vertex + v, p[k]));
                    }
                  for (guint k = 0; k < 3; k++)
                    {
                      e1[k] = (double) p[1][k] - p[0][k];
                      e2[k] = (double) p[2][k] - p[0][k];
                    }
                  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
                  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
                  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
                  len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                  g_assert_true (mshed_model_get_tri (model, j, &d));
                  if (len > 0.0)
                    {
                      double dot = 0.0;

                      for (guint k = 0; k < 3; k++)
                        dot += n[k] / len * mshed_decode_tri_normal (d.normal[k]);
                      g_assert_cmpfloat (dot, >, 0.999);
                    }
                  /* links are mutual neighbours */
                  for (guint k = 0; k < 3; k++)
                    if (d.link[k] != MSHED_NONE)
                      {
                        MshedTriDesc o;

                        g_assert_true (mshed_model_get_tri (model, d.link[k], &o));
                        g_assert_true (o.link[0] == j || o.link[1] == j || o.link[2] == j);
                      }
                }
            }
        }
    }
  g_assert_cmpuint (next_batch, ==, n_batches);
  g_assert_cmpuint (next_desc, ==, n_desc);

  /* header: the box (hull corners), sphere and capsule hold the posed model: every vertex a
   * node draws, moved by the node's pose at every frame under both readings of docs/msh.md §7.4
   * (for the legacy layout, whose nodes cannot be read, the raw positions) */
  g_assert_true (mshed_model_get_header (model, &h));
  for (guint i = 0; i < 8; i++)
    for (guint k = 0; k < 3; k++)
      g_assert_cmpfloat (h.hull[i][k], ==, (i >> k) & 1 ? h.hull[7][k] : h.hull[0][k]);
  {
    guint n_nodes = mshed_model_has_node_records (model)
                      ? mshed_model_get_n_rows (model, MSHED_TABLE_NODES) : 0;
    guint32 frames = n_nodes ? MAX (mshed_model_get_frame_count (model), 1u) : 1;
    g_autofree float *world = g_new (float, 16 * (gsize) MAX (n_nodes, 1));
    guint checked = 0;

    for (guint conv = 0; conv < 2; conv++)
      for (guint32 f = 0; f < frames; f++)
        {
          MshedPoseOptions options;

          mshed_pose_options_init (&options);
          options.convention = conv ? MSHED_ROTATION_RUNTIME : MSHED_ROTATION_FPARKAN;
          if (n_nodes)
            mshed_anim_compute_world (model, (float) f, &options, world, n_nodes, NULL);
          for (guint n = 0; n < MAX (n_nodes, 1u); n++)
            for (guint c = 0; c < (n_nodes ? MSHED_N_SLOT_CELLS : 1u); c++)
              {
                MshedNode node;
                MshedSlot slot;

                if (n_nodes)
                  {
                    g_assert_true (mshed_model_get_node (model, n, &node));
                    if (node.slot[c] == MSHED_NONE)
                      continue;
                    g_assert_true (mshed_model_get_slot (model, node.slot[c], &slot));
                  }
                for (guint b = 0; b < n_batches; b++)
                  {
                    MshedBatch batch;

                    if (n_nodes && (b < slot.batch_start || b >= slot.batch_start +
                                    slot.batch_count))
                      continue;
                    g_assert_true (mshed_model_get_batch (model, b, &batch));
                    for (guint i = 0; i < batch.index_count; i++)
                      {
                        guint16 v;
                        float p[3], w[3];
                        double ab[3], ap[3], t = 0.0, l2 = 0.0, d2 = 0.0;

                        g_assert_true (mshed_model_get_index (model, batch.index_start + i, &v));
                        g_assert_true (mshed_model_get_position (model, batch.base_vertex + v, p));
                        for (guint r = 0; r < 3; r++)
                          w[r] = n_nodes ? (float) ((double) world[16 * n + r] * p[0] +
                                                    (double) world[16 * n + 4 + r] * p[1] +
                                                    (double) world[16 * n + 8 + r] * p[2] +
                                                    world[16 * n + 12 + r])
                                         : p[r];
                        for (guint k = 0; k < 3; k++)
                          {
                            g_assert_cmpfloat (w[k], >=, h.hull[0][k] - 1e-4f);
                            g_assert_cmpfloat (w[k], <=, h.hull[7][k] + 1e-4f);
                          }
                        g_assert_cmpfloat (dist2 (w, h.sphere), <=,
                                           (double) h.sphere[3] * h.sphere[3]);
                        for (guint k = 0; k < 3; k++)
                          {
                            ab[k] = (double) h.capsule[3 + k] - h.capsule[k];
                            ap[k] = (double) w[k] - h.capsule[k];
                            t += ab[k] * ap[k];
                            l2 += ab[k] * ab[k];
                          }
                        t = l2 > 0.0 ? CLAMP (t / l2, 0.0, 1.0) : 0.0;
                        for (guint k = 0; k < 3; k++)
                          d2 += (ap[k] - t * ab[k]) * (ap[k] - t * ab[k]);
                        g_assert_cmpfloat (sqrt (d2), <=, h.capsule[6] * (1.0 + 1e-6) + 1e-6);
                        checked++;
                      }
                  }
              }
        }
    g_assert_cmpuint (checked, >, 0);
  }


}

/* docs/msh.md §7.7, checked here without the validator */
static void
check_animation (MshedModel           *model,
                 const MshedGenParams *p)
{
  guint n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES);
  guint n_keys = mshed_model_get_n_rows (model, MSHED_TABLE_KEYS);
  guint n_words = mshed_model_get_n_rows (model, MSHED_TABLE_MAP);
  guint32 frames = mshed_model_get_frame_count (model);
  guint start = 0, mapped = 0, max_time = 0, words = 0;

  if (p->legacy_nodes)
    {
      g_assert_cmpuint (n_keys, ==, 1);
      g_assert_cmpuint (n_words, ==, 0);
      g_assert_cmpuint (frames, ==, 1);
      return;
    }

  for (guint n = 0; n < n_nodes; n++)
    {
      MshedNode node;
      MshedKey key;

      memset (&key, 0, sizeof key);
      g_assert_true (mshed_model_get_node (model, n, &node));
      g_assert_cmpuint (node.hdr3, >=, start);
      g_assert_cmpuint (node.hdr3, <, n_keys);
      for (guint k = start; k <= node.hdr3; k++)
        {
          MshedKey prev;

          g_assert_true (mshed_model_get_key (model, k, &key));
          g_assert_cmpfloat (key.time, ==, floorf (key.time));
          if (k == start)
            g_assert_cmpfloat (key.time, ==, 0.0f);
          else
            {
              g_assert_true (mshed_model_get_key (model, k - 1, &prev));
              g_assert_cmpfloat (key.time, >, prev.time);
            }
        }
      max_time = MAX (max_time, (guint) key.time);
      if (node.hdr2 == MSHED_NONE)
        g_assert_cmpuint (node.hdr3, ==, start);
      else
        {
          g_assert_cmpuint (node.hdr3, >, start);
          g_assert_cmpuint (node.hdr2, ==, words);
          for (guint f = 0; f < frames; f++)
            {
              guint16 w;
              MshedKey a, b;

              g_assert_true (mshed_model_get_map_word (model, node.hdr2 + f, &w));
              g_assert_true (mshed_model_get_key (model, node.hdr3, &b));
              if (f >= b.time)
                g_assert_cmpuint (w, ==, node.hdr3);
              else
                {
                  g_assert_cmpuint (w, >=, start);
                  g_assert_cmpuint (w, <, node.hdr3);
                  g_assert_true (mshed_model_get_key (model, w, &a));
                  g_assert_true (mshed_model_get_key (model, w + 1, &b));
                  g_assert_cmpfloat (a.time, <=, (float) f);
                  g_assert_cmpfloat ((float) f, <, b.time);
                }
            }
          words += frames;
          mapped++;
        }
      start = node.hdr3 + 1u;
    }
  g_assert_cmpuint (start, ==, n_keys);
  g_assert_cmpuint (words, ==, n_words);
  g_assert_cmpuint (frames, ==, max_time + 1);
  if (p->animated)
    g_assert_cmpuint (mapped, >, 0);
  else
    {
      g_assert_cmpuint (mapped, ==, 0);
      g_assert_cmpuint (n_keys, ==, n_nodes);
      g_assert_cmpuint (frames, ==, 1);
    }
}

static void
check_promises (MshedModel           *model,
                const MshedGenParams *p,
                Coverage             *cov)
{
  MshedNres *nres = mshed_model_get_nres (model);
  const guint32 *order = p->with_res18_20 ? order_ext : order_basic;
  guint n_order = p->with_res18_20 ? G_N_ELEMENTS (order_ext) : G_N_ELEMENTS (order_basic);
  guint n_nodes, n_slots, roots = 0;
  guint expect_tris = CLAMP (p->n_triangles, MSHED_GEN_MIN_TRIANGLES, MSHED_GEN_MAX_TRIANGLES);
  g_autofree guint *refs = NULL;
  gboolean any_empty = FALSE, any_cyr = FALSE;

  /* the corpus' directory orders (docs/msh.md §11) and plain entry names */
  g_assert_cmpuint (mshed_nres_get_n_entries (nres), ==, n_order);
  for (guint i = 0; i < n_order; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      g_autofree char *name = mshed_nres_entry_dup_name (e);
      g_autofree char *expect = g_strdup_printf ("Res%u", order[i]);

      g_assert_cmpuint (e->type_id, ==, order[i]);
      g_assert_cmpstr (name, ==, expect);
    }

  g_assert_cmpuint (mshed_model_get_resource (model, 1)->attr3, ==, p->legacy_nodes ? 24 : 38);
  g_assert_cmpuint (mshed_model_has_node_records (model), ==, !p->legacy_nodes);
  n_nodes = mshed_model_get_resource (model, 1)->attr1;
  g_assert_cmpuint (n_nodes, >=, 1);
  if (p->n_nodes)
    g_assert_cmpuint (n_nodes, ==, MIN (p->n_nodes, MSHED_GEN_MAX_NODES));
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_NAMES), ==, n_nodes);
  g_assert_true (mshed_model_names_ok (model));
  g_assert_cmpuint (type_size (model, 17) > 0, ==, p->res17_data);
  g_assert_cmpuint (type_size (model, 9), >, 0);

  for (guint n = 0; n < n_nodes; n++)
    {
      const guint8 *text;
      guint32 len;
      g_autofree char *utf8 = mshed_model_dup_name (model, n);

      g_assert_true (mshed_model_get_name_raw (model, n, &text, &len));
      if (len == 0)
        {
          any_empty = TRUE;
          g_assert_null (utf8);
          continue;
        }
      g_assert_cmpuint (text[len], ==, 0);
      g_assert_nonnull (utf8);
      g_assert_true (g_utf8_validate (utf8, -1, NULL));
      if (text[0] >= 0xC0)
        {
          /* Windows-1251 on disk, shown as UTF-8 */
          static const char *const known[] = {
            "Башня", "Корпус", "Пушка", "Колесо", "Ствол", "Антенна", "Гусеница", "Люк",
          };
          gboolean found = FALSE;

          for (guint k = 0; k < G_N_ELEMENTS (known); k++)
            found |= g_strcmp0 (utf8, known[k]) == 0;
          g_assert_true (found);
          g_assert_cmpuint (len, <, strlen (utf8));  /* one byte per letter on disk */
          any_cyr = TRUE;
        }
    }
  g_assert_cmpuint (any_cyr, ==, p->cyrillic_names);
  if (p->empty_names && (n_nodes > 1 || !p->cyrillic_names))
    g_assert_true (any_empty);
  if (!p->empty_names)
    g_assert_false (any_empty);
  if (p->cyrillic_names)
    {
      const guint8 *text;
      guint32 len;

      g_assert_true (mshed_model_get_name_raw (model, 0, &text, &len));
      g_assert_cmpuint (len, >, 0);
      g_assert_cmpuint (text[0], >=, 0xC0);
    }

  check_geometry (model, expect_tris);
  check_animation (model, p);

  n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  refs = g_new0 (guint, n_slots);
  if (!p->legacy_nodes)
    for (guint n = 0; n < n_nodes; n++)
      {
        MshedNode node;

        g_assert_true (mshed_model_get_node (model, n, &node));
        g_assert_true (node.hdr1 == MSHED_NONE || node.hdr1 < n);
        roots += node.hdr1 == MSHED_NONE;
        for (guint c = 0; c < MSHED_N_SLOT_CELLS; c++)
          {
            guint lod = c / MSHED_N_GROUPS, group = c % MSHED_N_GROUPS;
            guint s = mshed_model_find_slot (model, n, lod, group);

            g_assert_cmpuint (s, ==, node.slot[c]);
            if (s != MSHED_NONE)
              refs[s]++;
            if (lod == 2 && s != MSHED_NONE && node.slot[5 + group] == MSHED_NONE)
              cov->lod_gaps++;
          }
        g_assert_cmpuint (mshed_model_find_slot (model, n, 3, 0), ==, MSHED_NONE);
        g_assert_cmpuint (mshed_model_find_slot (model, n, 0, 5), ==, MSHED_NONE);
      }
  if (!p->legacy_nodes)
    for (guint s = 0; s < n_slots; s++)
      {
        MshedSlot slot;

        g_assert_cmpuint (refs[s], >, 0);  /* no orphan slot */
        cov->shared_slots += refs[s] > 1;
        g_assert_true (mshed_model_get_slot (model, s, &slot));
        cov->multi_batch += slot.batch_count > 1;
      }

  cov->cyrillic += any_cyr;
  cov->empty_names += any_empty;
  cov->animated += mshed_model_get_n_rows (model, MSHED_TABLE_MAP) > 0;
  cov->ext += p->with_res18_20;
  cov->legacy += p->legacy_nodes;
  cov->res17 += p->res17_data;
  cov->roots += roots > 1;
}

/* Tests ------------------------------------------------------------------------------------ */

static void
test_shape (gconstpointer data)
{
  const Shape *shape = data;
  Coverage cov = { 0 };

  for (guint i = 0; i < shape->n_seeds; i++)
    {
      MshedGenParams p;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(MshedModel) model = NULL;

      params_for_shape (shape, 1000 * i + 17, &p);
      bytes = mshed_generate_model_bytes (&p);
      model = roundtrip_model (bytes, p.legacy_nodes);
      check_promises (model, &p, &cov);
    }
}

/* A corpus from mshed_gen_params_init_from_seed: every model is clean and the corpus as a
 * whole holds every feature (legacy nodes are 1 in 100: the shapes above cover them). */
static void
test_seeded_corpus (void)
{
  Coverage cov = { 0 };
  guint n = g_test_thorough () ? 1000 : 300;
  guint64 total_bytes = 0;

  for (guint64 seed = 0; seed < n; seed++)
    {
      MshedGenParams p;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(MshedModel) model = NULL;

      mshed_gen_params_init_from_seed (&p, seed);
      g_assert_cmpuint (p.n_triangles, >=, MSHED_GEN_MIN_TRIANGLES);
      bytes = mshed_generate_model_bytes (&p);
      total_bytes += g_bytes_get_size (bytes);
      model = roundtrip_model (bytes, p.legacy_nodes);
      check_promises (model, &p, &cov);
    }
  g_test_message ("%u models, %" G_GUINT64_FORMAT " bytes: %u animated, %u with Res18/20, "
                  "%u legacy, %u Cyrillic, %u empty names, %u lod gaps, %u shared slots, "
                  "%u multi-batch slots, %u non-empty Res17, %u with several roots",
                  n, total_bytes, cov.animated, cov.ext, cov.legacy, cov.cyrillic,
                  cov.empty_names, cov.lod_gaps, cov.shared_slots, cov.multi_batch, cov.res17,
                  cov.roots);
  g_assert_cmpuint (cov.animated, >, 0);
  g_assert_cmpuint (cov.ext, >, 0);
  g_assert_cmpuint (cov.cyrillic, >, 0);
  g_assert_cmpuint (cov.empty_names, >, 0);
  g_assert_cmpuint (cov.lod_gaps, >, 0);
  g_assert_cmpuint (cov.shared_slots, >, 0);
  g_assert_cmpuint (cov.multi_batch, >, 0);
  g_assert_cmpuint (cov.res17, >, 0);
  g_assert_cmpuint (cov.roots, >, 0);
}

/* 200,000 triangles: many batches with baseVertex beyond u16, 65535 descriptors at most */
static void
test_huge (void)
{
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GTimer) timer = g_timer_new ();
  Coverage cov = { 0 };
  double gen_s;
  guint n_batches;
  MshedBatch last;

  mshed_gen_params_init (&p, 200000);
  p.n_triangles = MSHED_GEN_MAX_TRIANGLES;
  p.n_nodes = 30;
  p.animated = TRUE;
  p.with_res18_20 = TRUE;
  bytes = mshed_generate_model_bytes (&p);
  gen_s = g_timer_elapsed (timer, NULL);
  g_test_message ("200k triangles: %" G_GSIZE_FORMAT " bytes generated in %.3f s",
                  g_bytes_get_size (bytes), gen_s);
  /* speed is measured by the benchmarks (bench-model), never asserted here */

  model = roundtrip_model (bytes, FALSE);
  check_promises (model, &p, &cov);
  n_batches = mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES);
  g_assert_cmpuint (n_batches, >=, MSHED_GEN_MAX_TRIANGLES / 21845);
  g_assert_true (mshed_model_get_batch (model, n_batches - 1, &last));
  g_assert_cmpuint (last.base_vertex, >, 65535);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_TRIS), <=, 65535);
  g_assert_cmpuint (mshed_model_get_n_rows (model, MSHED_TABLE_TRIS), >, 60000);

  /* below the minimum: clamped to 12 */
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_pointer (&model, mshed_model_unref);
  p.n_triangles = 3;
  bytes = mshed_generate_model_bytes (&p);
  model = roundtrip_model (bytes, FALSE);
  p.n_triangles = MSHED_GEN_MIN_TRIANGLES;
  check_promises (model, &p, &cov);
}

static void
test_determinism (void)
{
  GHashTable *seen = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                            (GDestroyNotify) g_bytes_unref, NULL);
  MshedGenParams p, q;
  g_autoptr(GBytes) a = NULL;
  g_autoptr(GBytes) b = NULL;

  for (guint64 seed = 0; seed < 60; seed++)
    {
      GBytes *one, *two;

      mshed_gen_params_init_from_seed (&p, seed);
      mshed_gen_params_init_from_seed (&q, seed);
      g_assert_cmpmem (&p, sizeof p, &q, sizeof q);
      one = mshed_generate_model_bytes (&p);
      two = mshed_generate_model_bytes (&q);
      g_assert_true (g_bytes_equal (one, two));
      g_bytes_unref (two);
      g_assert_false (g_hash_table_contains (seen, one));
      g_hash_table_add (seen, one);
    }
  g_hash_table_unref (seen);

  /* the same shape with another seed gives other bytes; so does one changed flag */
  mshed_gen_params_init (&p, 1);
  a = mshed_generate_model_bytes (&p);
  p.seed = 2;
  b = mshed_generate_model_bytes (&p);
  g_assert_false (g_bytes_equal (a, b));
  g_clear_pointer (&b, g_bytes_unref);
  p.seed = 1;
  p.res17_data = TRUE;
  b = mshed_generate_model_bytes (&p);
  g_assert_false (g_bytes_equal (a, b));

  /* archives too */
  g_clear_pointer (&a, g_bytes_unref);
  g_clear_pointer (&b, g_bytes_unref);
  a = mshed_generate_archive_bytes (99, 4, 500);
  b = mshed_generate_archive_bytes (99, 4, 500);
  g_assert_true (g_bytes_equal (a, b));
  g_clear_pointer (&b, g_bytes_unref);
  b = mshed_generate_archive_bytes (100, 4, 500);
  g_assert_false (g_bytes_equal (a, b));
}

/* Archives --------------------------------------------------------------------------------- */

/* Largest material index used by a model's batches. */
static guint
max_material (MshedModel *model)
{
  guint m = 0;

  for (guint b = 0; b < mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES); b++)
    {
      MshedBatch batch;

      g_assert_true (mshed_model_get_batch (model, b, &batch));
      m = MAX (m, batch.material_index);
    }
  return m;
}

static void
check_archive (GBytes *bytes,
               guint   n_models)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, diags, &error);
  g_autoptr(GBytes) rebuilt = NULL;
  guint models = 0, wears = 0, texms = 0, empties = 0;
  guint n;
  g_autofree guint32 *table = NULL;
  g_autofree guint32 *upper = NULL;

  g_assert_no_error (error);
  assert_clean (diags, FALSE);
  g_assert_true (mshed_nres_is_canonical (nres));
  rebuilt = mshed_nres_build_canonical (nres);
  g_assert_true (g_bytes_equal (rebuilt, bytes));

  n = mshed_nres_get_n_entries (nres);
  table = g_new (guint32, n + 1);
  upper = g_new (guint32, n + 1);
  ref_sort_table (nres, FALSE, table);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (mshed_nres_peek_entry (nres, i)->sort_index, ==, table[i]);
  ref_sort_table (nres, TRUE, upper);

  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      g_autofree char *name = mshed_nres_entry_dup_name (e);
      g_autofree char *swapped = g_strdup (name);
      gsize size = mshed_nres_entry_get_size (e);

      g_assert_cmpuint (strlen (name), <=, 35);
      for (char *c = swapped; *c; c++)
        *c = g_ascii_isupper (*c) ? g_ascii_tolower (*c) : g_ascii_toupper (*c);
      g_assert_cmpint (mshed_nres_lookup_name (nres, swapped), ==, (gint) i);

      if (entry_is_model (e))
        {
          g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (e);
          g_autoptr(MshedNres) inner = mshed_nres_parse (payload, MSHED_MODE_STRICT, NULL, &error);
          g_autoptr(MshedModel) model = NULL;
          gboolean legacy;

          g_assert_no_error (error);
          legacy = mshed_nres_peek_entry (inner, 0)->attr3 == 24;
          model = roundtrip_model (payload, legacy);
          models++;

          /* its WEAR table (same base name, any case) has a row for every material used */
          {
            g_autofree char *wea = g_strdup (name);
            gint w;

            memcpy (wea + strlen (wea) - 4, ".wea", 4);
            w = mshed_nres_lookup_name (nres, wea);
            if (w >= 0)
              {
                const MshedNresEntry *we = mshed_nres_peek_entry (nres, (guint) w);
                g_autofree char *text =
                  g_strndup ((const char *) mshed_nres_entry_get_data (we, NULL),
                             mshed_nres_entry_get_size (we));

                g_assert_cmpuint (we->type_id, ==, MSHED_WEAR_TYPE);
                g_assert_cmpuint (g_ascii_strtoull (text, NULL, 10), >, max_material (model));
              }
          }
        }
      else if (e->type_id == MSHED_WEAR_TYPE)
        {
          const char *text = (const char *) mshed_nres_entry_get_data (e, NULL);

          g_assert_true (g_str_has_suffix (name, ".wea") || g_str_has_suffix (name, ".WEA"));
          g_assert_true (g_ascii_isdigit (text[0]));
          wears++;
        }
      else if (e->type_id == MSHED_TEXM_TYPE)
        {
          g_assert_cmpmem (mshed_nres_entry_get_data (e, NULL), 4, "Texm", 4);
          texms++;
        }
      else if (size == 0)
        empties++;
    }
  g_assert_cmpuint (models, ==, n_models);
  g_assert_cmpuint (wears, >, 0);
  g_assert_cmpuint (texms, >, 0);
  g_assert_cmpuint (empties, ==, 1);
}

static void
test_archive (void)
{
  gboolean fold_matters = FALSE;

  for (guint i = 0; i < 8; i++)
    {
      g_autoptr(GBytes) bytes = mshed_generate_archive_bytes (i * 7 + 1, i, 800);
      g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
      guint n = mshed_nres_get_n_entries (nres);
      g_autofree guint32 *lower = g_new (guint32, n);
      g_autofree guint32 *upper = g_new (guint32, n);

      check_archive (bytes, i);
      ref_sort_table (nres, FALSE, lower);
      ref_sort_table (nres, TRUE, upper);
      fold_matters |= memcmp (lower, upper, n * sizeof (guint32)) != 0;
    }
  /* the odd names really exercise the fold direction */
  g_assert_true (fold_matters);
}

/* Editing a nested model: the outer archive moves later payloads and keeps its sort table. */
int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/model/roundtrip/shape/%s", shapes[i].name);

      g_test_add_data_func (path, &shapes[i], test_shape);
    }
  g_test_add_func ("/model/roundtrip/seeded-corpus", test_seeded_corpus);
  g_test_add_func ("/model/roundtrip/huge", test_huge);
  g_test_add_func ("/model/roundtrip/determinism", test_determinism);
  g_test_add_func ("/model/roundtrip/archive", test_archive);
  return g_test_run ();
}
