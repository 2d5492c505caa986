/* test-fuzz.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hostile input: truncated files, shortened resources and thousands of deterministic bit
 * flips and field patches over generated models and archives, in strict and tolerant mode.
 * Nothing may crash or read out of bounds (CI runs this under ASan/UBSan); a load either
 * fails with a GError or gives a model on which validation, every accessor, the schema
 * formatters and writing are safe. Set MSHED_FUZZ_ITERATIONS to run longer.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-schema.h"
#include "mshed-source.h"
#include "mshed-validate.h"

/* upper bound on accessor calls per model walk, so huge hostile ranges stay cheap */
#define WALK_BUDGET 200000

typedef struct {
  guint64 s;
} FuzzRng;

static guint64
fuzz_next (FuzzRng *r)
{
  guint64 z = (r->s += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static guint
fuzz_below (FuzzRng *r,
            guint    n)
{
  return n ? (guint) (fuzz_next (r) % n) : 0;
}

typedef struct {
  guint loads_failed;
  guint loads_ok;
  guint tolerant_models;
  guint strict_models;
  guint diagnostics;
} Stats;

/* Walking a model ------------------------------------------------------------------------- */

static guint64 sink;  /* keeps the reads from being optimised away */

static void
touch_bytes (const guint8 *p,
             gsize         n)
{
  for (gsize i = 0; i < n; i++)
    sink += p[i];
}

static void
exercise_schema (const MshedModel *model,
                 MshedTableId      table,
                 guint             rows)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);

  for (guint row = 0; row < MIN (rows, 16); row++)
    {
      const guint8 *rec = mshed_model_get_record (model, table, row);

      if (rec == NULL || info->fields == NULL)
        continue;
      for (guint f = 0; f < info->n_fields; f++)
        {
          g_autofree char *text = mshed_field_format (&info->fields[f], rec);

          g_assert_nonnull (text);
          sink += strlen (text);
        }
    }
}

static void
exercise_model (MshedModel *model)
{
  guint budget = WALK_BUDGET;
  guint n_nodes, n_slots;
  MshedNode node;
  MshedHeader header;
  MshedSlot slot;
  MshedBatch batch;
  MshedTriDesc tri;
  MshedKey key;
  float v3[3], v2[2];
  guint16 w;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(MshedDiagnostics) again = mshed_diagnostics_new ();

  for (gint t = 0; t < MSHED_N_TABLES; t++)
    {
      const MshedTableInfo *info = mshed_schema_get_table ((MshedTableId) t);
      guint n = mshed_model_get_n_rows (model, (MshedTableId) t);

      for (guint row = 0; row < n && budget > 0; row++, budget--)
        {
          const guint8 *rec = mshed_model_get_record (model, (MshedTableId) t, row);

          if (rec)
            touch_bytes (rec, info->stride);
          sink += mshed_model_get_record_offset (model, (MshedTableId) t, row);
        }
      if (t != MSHED_TABLE_NAMES && t != MSHED_TABLE_DIRECTORY)
        {
          g_assert_null (mshed_model_get_record (model, (MshedTableId) t, n));
          g_assert_null (mshed_model_get_record (model, (MshedTableId) t, G_MAXUINT));
        }
      exercise_schema (model, (MshedTableId) t, n);
    }

  /* typed accessors, one past the end included */
  {
    struct { MshedTableId table; } order[] = {
      { MSHED_TABLE_NODES }, { MSHED_TABLE_SLOTS }, { MSHED_TABLE_BATCHES }, { MSHED_TABLE_TRIS },
      { MSHED_TABLE_KEYS }, { MSHED_TABLE_POSITIONS }, { MSHED_TABLE_NORMALS }, { MSHED_TABLE_UVS },
      { MSHED_TABLE_INDICES }, { MSHED_TABLE_MAP },
    };

    for (guint k = 0; k < G_N_ELEMENTS (order); k++)
      {
        guint n = mshed_model_get_n_rows (model, order[k].table);

        for (guint i = 0; i <= n && budget > 0; i++, budget--)
          {
            gboolean ok = FALSE;

            switch (order[k].table)
              {
              case MSHED_TABLE_NODES: ok = mshed_model_get_node (model, i, &node); break;
              case MSHED_TABLE_SLOTS: ok = mshed_model_get_slot (model, i, &slot); break;
              case MSHED_TABLE_BATCHES: ok = mshed_model_get_batch (model, i, &batch); break;
              case MSHED_TABLE_TRIS: ok = mshed_model_get_tri (model, i, &tri); break;
              case MSHED_TABLE_KEYS: ok = mshed_model_get_key (model, i, &key); break;
              case MSHED_TABLE_POSITIONS: ok = mshed_model_get_position (model, i, v3); break;
              case MSHED_TABLE_NORMALS: ok = mshed_model_get_normal (model, i, v3); break;
              case MSHED_TABLE_UVS: ok = mshed_model_get_uv (model, i, v2); break;
              case MSHED_TABLE_INDICES: ok = mshed_model_get_index (model, i, &w); break;
              case MSHED_TABLE_MAP: ok = mshed_model_get_map_word (model, i, &w); break;
              default: g_assert_not_reached ();
              }
            g_assert_cmpint (ok, ==, i < n);
          }
      }
  }
  if (mshed_model_get_header (model, &header))
    sink += (guint64) (header.sphere[3] == header.sphere[3]);
  sink += mshed_model_get_frame_count (model);
  sink += mshed_model_get_node_stride (model);
  sink += mshed_model_names_ok (model);

  /* names */
  n_nodes = MAX (mshed_model_get_n_rows (model, MSHED_TABLE_NODES),
                 mshed_model_get_n_rows (model, MSHED_TABLE_NAMES));
  for (guint n = 0; n < n_nodes + 2 && budget > 0; n++, budget--)
    {
      const guint8 *text;
      guint32 len;
      g_autofree char *name = mshed_model_dup_name (model, n);

      if (mshed_model_get_name_raw (model, n, &text, &len))
        touch_bytes (text, len);
      if (name)
        g_assert_true (g_utf8_validate (name, -1, NULL));
      sink += mshed_model_get_name_record_offset (model, n);
    }

  /* what a renderer does in tolerant mode: every node's slot, its batches, their vertices */
  n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS);
  for (guint n = 0; n < n_nodes + 1; n++)
    for (guint lod = 0; lod <= MSHED_N_LODS; lod++)
      for (guint group = 0; group <= MSHED_N_GROUPS; group++)
        {
          guint s = mshed_model_find_slot (model, n, lod, group);

          if (lod == MSHED_N_LODS || group == MSHED_N_GROUPS)
            g_assert_cmpuint (s, ==, MSHED_NONE);
          if (s == MSHED_NONE)
            continue;
          g_assert_cmpuint (s, <, n_slots);
          g_assert_true (mshed_model_get_slot (model, s, &slot));
          for (guint b = slot.batch_start;
               b < (guint) slot.batch_start + slot.batch_count && budget > 0; b++)
            {
              if (!mshed_model_get_batch (model, b, &batch))
                break;
              for (guint i = 0; i < batch.index_count && budget > 0; i++, budget--)
                {
                  guint16 v;

                  if (!mshed_model_get_index (model, batch.index_start + i, &v))
                    break;
                  if (mshed_model_get_position (model, batch.base_vertex + v, v3))
                    sink += (guint64) (v3[0] == v3[0]);
                }
            }
          for (guint t = slot.tri_start;
               t < (guint) slot.tri_start + slot.tri_count && budget > 0; t++, budget--)
            {
              if (!mshed_model_get_tri (model, t, &tri))
                break;
              for (guint k = 0; k < 3; k++)
                sink += mshed_selector (tri.sel_packed, k);
            }
        }

  /* validating again is safe, and an unmodified model writes back its exact bytes */
  mshed_validate_model (model, MSHED_MODE_TOLERANT, again);
  mshed_validate_model (model, MSHED_MODE_STRICT, again);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (again); i++)
    {
      g_autofree char *text = mshed_diagnostic_format (mshed_diagnostics_get (again, i));

      g_assert_true (g_utf8_validate (text, -1, NULL));
    }
  out = mshed_model_serialize (model);
  if (!mshed_nres_is_modified (mshed_model_get_nres (model)))
    g_assert_true (g_bytes_equal (out, mshed_nres_get_source (mshed_model_get_nres (model))));
}

static void
check_diagnostics (const MshedDiagnostics *diags,
                   Stats                  *stats)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);
      g_autofree char *text = mshed_diagnostic_format (d);

      g_assert_nonnull (d->message);
      g_assert_true (g_utf8_validate (text, -1, NULL));
      stats->diagnostics++;
    }
}

/* Loads @bytes as a model in @mode. Returns TRUE when a model came out. */
static gboolean
try_model (GBytes    *bytes,
           MshedMode  mode,
           Stats     *stats)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, mode, diags, &error);
  g_autoptr(MshedModel) model = NULL;

  if (nres == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == MSHED_MODEL_ERROR);
      check_diagnostics (diags, stats);
      stats->loads_failed++;
      return FALSE;
    }
  g_assert_no_error (error);
  if (!mshed_nres_looks_like_model (nres))
    {
      check_diagnostics (diags, stats);
      stats->loads_failed++;
      return FALSE;
    }
  model = mshed_model_new (nres, mode, diags, &error);
  check_diagnostics (diags, stats);
  if (mode == MSHED_MODE_TOLERANT)
    {
      /* tolerant mode always gives a model */
      g_assert_no_error (error);
      g_assert_nonnull (model);
      stats->tolerant_models++;
    }
  else if (model == NULL)
    {
      g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
      g_assert_cmpuint (diags->n_errors, >, 0);
      stats->loads_failed++;
      return FALSE;
    }
  else
    {
      g_assert_no_error (error);
      stats->strict_models++;
    }
  stats->loads_ok++;
  exercise_model (model);
  return TRUE;
}

/* An outer archive: the container, then every nested model. */
static void
try_archive (GBytes    *bytes,
             MshedMode  mode,
             Stats     *stats)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, mode, diags, &error);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) canonical = NULL;

  check_diagnostics (diags, stats);
  if (nres == NULL)
    {
      g_assert_nonnull (error);
      stats->loads_failed++;
      return;
    }
  g_assert_no_error (error);
  out = mshed_nres_serialize (nres, NULL);
  g_assert_true (g_bytes_equal (out, bytes));
  canonical = mshed_nres_build_canonical (nres);
  g_assert_nonnull (canonical);

  for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      g_autofree char *name = mshed_nres_entry_dup_name (e);

      sink += (guint64) mshed_nres_lookup_name (nres, name) + 1;
      if (mshed_entry_is_model_name (e))
        {
          g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (e);

          try_model (payload, mode, stats);
        }
    }
}

/* Mutations ------------------------------------------------------------------------------- */

typedef struct {
  guint32 offset;  /* payload offset in the base file */
  guint32 size;
  guint32 stride;  /* record size for structured patches (1 when unknown) */
} Region;

typedef struct {
  const char *name;
  GBytes     *bytes;
  gboolean    archive;
  GArray     *regions;      /* Region: every payload, with its record stride */
  guint32     dir_offset;
  guint       n_entries;
} Base;

static guint32
stride_for_type (guint32 type)
{
  switch (type)
    {
    case 1: return 38;
    case 2: return 68;
    case 3: return 12;
    case 4: case 5: case 18: return 4;
    case 6: case 19: return 2;
    case 7: return 16;
    case 8: return 24;
    case 13: return 20;
    case 15: case 16: return 8;
    default: return 4;
    }
}

static void
base_init (Base       *base,
           const char *name,
           GBytes     *bytes,
           gboolean    archive)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
  gsize len = g_bytes_get_size (bytes);

  g_assert_nonnull (nres);
  base->name = name;
  base->bytes = g_bytes_ref (bytes);
  base->archive = archive;
  base->regions = g_array_new (FALSE, FALSE, sizeof (Region));
  base->n_entries = mshed_nres_get_n_entries (nres);
  base->dir_offset = (guint32) (len - 64 * (gsize) base->n_entries);

  for (guint i = 0; i < base->n_entries; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      Region r = { e->data_offset, (guint32) mshed_nres_entry_get_size (e),
                   archive ? 4 : stride_for_type (e->type_id) };

      if (archive && mshed_entry_is_model_name (e))
        {
          /* the nested model's own payloads, shifted to outer offsets */
          g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (e);
          g_autoptr(MshedNres) inner = mshed_nres_parse (payload, MSHED_MODE_STRICT, NULL, NULL);

          g_assert_nonnull (inner);
          for (guint k = 0; k < mshed_nres_get_n_entries (inner); k++)
            {
              const MshedNresEntry *ie = mshed_nres_peek_entry (inner, k);
              Region ir = { e->data_offset + ie->data_offset,
                            (guint32) mshed_nres_entry_get_size (ie),
                            stride_for_type (ie->type_id) };

              if (ie->type_id == 2)
                {
                  ir.offset += 140;
                  ir.size = ir.size >= 140 ? ir.size - 140 : 0;
                }
              g_array_append_val (base->regions, ir);
            }
          /* and its directory */
          {
            guint32 inner_dir = (guint32) (g_bytes_get_size (payload) -
                                           64 * (gsize) mshed_nres_get_n_entries (inner));
            Region dr = { e->data_offset + inner_dir,
                          64 * mshed_nres_get_n_entries (inner), 64 };

            g_array_append_val (base->regions, dr);
          }
          continue;
        }
      if (!archive && e->type_id == 2)
        {
          r.offset += 140;
          r.size = r.size >= 140 ? r.size - 140 : 0;
        }
      g_array_append_val (base->regions, r);
    }
  {
    Region dr = { base->dir_offset, 64 * base->n_entries, 64 };

    g_array_append_val (base->regions, dr);
  }
}

static void
base_clear (Base *base)
{
  g_clear_pointer (&base->bytes, g_bytes_unref);
  g_clear_pointer (&base->regions, g_array_unref);
}

static guint32
interesting_value (FuzzRng *rng,
                   guint32  current,
                   guint    width)
{
  static const guint32 values[] = {
    0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF, 0x10000,
    0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF,
    0x7F800000 /* +inf */, 0x7FC00000 /* nan */, 0xFF800000 /* -inf */,
  };
  guint32 v;

  switch (fuzz_below (rng, 4))
    {
    case 0:
      v = current + 1;
      break;
    case 1:
      v = current - 1;
      break;
    case 2:
      v = (guint32) fuzz_next (rng);
      break;
    default:
      v = values[fuzz_below (rng, G_N_ELEMENTS (values))];
      break;
    }
  return width == 2 ? (v & 0xFFFF) : v;
}

static void
mutate (FuzzRng    *rng,
        const Base *base,
        guint8     *data,
        gsize       len)
{
  guint n = 1 + fuzz_below (rng, 3);

  for (guint m = 0; m < n; m++)
    {
      guint kind = fuzz_below (rng, 10);

      if (kind < 3)
        {
          /* a bit anywhere */
          gsize at = fuzz_below (rng, (guint) len);

          data[at] ^= (guint8) (1u << fuzz_below (rng, 8));
        }
      else if (kind < 5)
        {
          /* a header or directory field (count, total_size, attrs, size, offset, sort) */
          static const guint fields[] = { 0, 4, 8, 12, 16, 56, 60 };
          guint32 at;

          if (fuzz_below (rng, 5) == 0)
            at = 8 + 4 * fuzz_below (rng, 2);
          else
            at = base->dir_offset + 64 * fuzz_below (rng, base->n_entries)
                 + fields[fuzz_below (rng, G_N_ELEMENTS (fields))];
          mshed_write_u32 (data + at, interesting_value (rng, mshed_read_u32 (data + at), 4));
        }
      else if (kind < 9)
        {
          /* a field of some record: u16 or u32 at an even offset */
          const Region *r = &g_array_index (base->regions, Region,
                                            fuzz_below (rng, base->regions->len));
          guint width = fuzz_below (rng, 2) ? 2 : 4;
          guint32 rec, at;

          if (r->size < width)
            continue;
          rec = r->stride > 0 ? fuzz_below (rng, MAX (r->size / r->stride, 1)) * r->stride : 0;
          at = rec + 2 * fuzz_below (rng, MAX (r->stride / 2, 1));
          if (at + width > r->size)
            at = r->size - width;
          at += r->offset;
          if (width == 2)
            mshed_write_u16 (data + at,
                             (guint16) interesting_value (rng, mshed_read_u16 (data + at), 2));
          else
            mshed_write_u32 (data + at, interesting_value (rng, mshed_read_u32 (data + at), 4));
        }
      else
        {
          /* a short run of random bytes */
          guint run = 1 + fuzz_below (rng, 8);
          gsize at = fuzz_below (rng, (guint) len);

          for (guint i = 0; i < run && at + i < len; i++)
            data[at + i] = (guint8) fuzz_next (rng);
        }
    }
}

static guint
iterations (guint normal)
{
  const char *env = g_getenv ("MSHED_FUZZ_ITERATIONS");

  if (env && *env)
    return (guint) g_ascii_strtoull (env, NULL, 10);
  return g_test_thorough () ? normal * 10 : normal;
}

/* Bases ------------------------------------------------------------------------------------ */

static GBytes *
small_model (guint64  seed,
             guint    tris,
             guint    nodes,
             gboolean animated,
             gboolean ext,
             gboolean legacy)
{
  MshedGenParams p;

  mshed_gen_params_init (&p, seed);
  p.n_triangles = tris;
  p.n_nodes = nodes;
  p.animated = animated;
  p.with_res18_20 = ext;
  p.legacy_nodes = legacy;
  p.cyrillic_names = TRUE;
  p.empty_names = TRUE;
  p.res17_data = ext;
  return mshed_generate_model_bytes (&p);
}

/* Tests ------------------------------------------------------------------------------------ */

/* Every prefix fails with a GError in both modes; with the header's total_size patched to the
 * prefix length, the (now random) directory either fails cleanly or loads safely. */
static void
test_truncated (void)
{
  g_autoptr(GBytes) model = small_model (5, 24, 3, TRUE, TRUE, FALSE);
  g_autoptr(GBytes) archive = mshed_generate_archive_bytes (11, 2, 24);
  GBytes *inputs[] = { model, archive };
  Stats stats = { 0 };

  for (guint k = 0; k < G_N_ELEMENTS (inputs); k++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (inputs[k], &len);

      for (gsize cut = 0; cut < len; cut++)
        {
          g_autoptr(GBytes) prefix = g_bytes_new (data, cut);
          g_autoptr(GError) error = NULL;
          g_autoptr(MshedModel) m = NULL;

          for (guint mode = 0; mode < 2; mode++)
            {
              g_autoptr(MshedNres) nres = mshed_nres_parse (prefix, (MshedMode) mode, NULL, &error);

              g_assert_null (nres);
              g_assert_true (g_error_matches (error, MSHED_MODEL_ERROR,
                                              MSHED_MODEL_ERROR_TRUNCATED));
              g_clear_error (&error);
            }
          m = mshed_model_new_from_bytes (prefix, MSHED_MODE_TOLERANT, NULL, &error);
          g_assert_null (m);
          g_assert_nonnull (error);

          if (cut >= 16)
            {
              guint8 *patched = g_memdup2 (data, cut);
              g_autoptr(GBytes) reheadered = NULL;

              mshed_write_u32 (patched + 12, (guint32) cut);
              reheadered = g_bytes_new_take (patched, cut);
              for (guint mode = 0; mode < 2; mode++)
                {
                  if (k == 0)
                    try_model (reheadered, (MshedMode) mode, &stats);
                  else
                    try_archive (reheadered, (MshedMode) mode, &stats);
                }
            }
        }
    }
  g_test_message ("truncated: %u failed cleanly, %u loaded (%u tolerant), %u diagnostics",
                  stats.loads_failed, stats.loads_ok, stats.tolerant_models, stats.diagnostics);
}

/* Each resource of a model cut short (its directory size lowered): the container stays
 * readable; strict mode fails or loads, tolerant mode always loads and stays safe. */
static void
test_short_resources (void)
{
  GBytes *models[] = {
    small_model (21, 40, 4, TRUE, TRUE, FALSE),
    small_model (22, 40, 2, FALSE, FALSE, TRUE),
  };
  Stats stats = { 0 };

  for (guint k = 0; k < G_N_ELEMENTS (models); k++)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (models[k], &len);
      guint n = mshed_read_u32 (data + 8);
      gsize dir = len - 64 * (gsize) n;

      for (guint i = 0; i < n; i++)
        {
          guint32 size = mshed_read_u32 (data + dir + 64 * i + 12);
          guint32 stride = stride_for_type (mshed_read_u32 (data + dir + 64 * i));
          guint32 cuts[] = { 0, 1, 2, 3, stride - 1, stride + 1, 140, 141, size / 2,
                             size - 1, size - 2, size - stride };

          for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
            {
              guint8 *copy;
              g_autoptr(GBytes) cut = NULL;

              if (cuts[c] >= size)
                continue;
              copy = g_memdup2 (data, len);
              mshed_write_u32 (copy + dir + 64 * i + 12, cuts[c]);
              cut = g_bytes_new_take (copy, len);
              try_model (cut, MSHED_MODE_STRICT, &stats);
              g_assert_true (try_model (cut, MSHED_MODE_TOLERANT, &stats));
            }
        }
      g_bytes_unref (models[k]);
    }
  g_test_message ("short resources: %u strict models, %u tolerant models, %u rejected",
                  stats.strict_models, stats.tolerant_models, stats.loads_failed);
}

static void
run_mutations (const Base *base,
               guint       count,
               guint64     seed)
{
  FuzzRng rng = { seed };
  gsize len;
  const guint8 *orig = g_bytes_get_data (base->bytes, &len);
  Stats stats = { 0 };

  for (guint it = 0; it < count; it++)
    {
      guint8 *data = g_memdup2 (orig, len);
      g_autoptr(GBytes) bytes = NULL;

      mutate (&rng, base, data, len);
      bytes = g_bytes_new_take (data, len);
      for (guint mode = 0; mode < 2; mode++)
        {
          if (base->archive)
            try_archive (bytes, (MshedMode) mode, &stats);
          else
            try_model (bytes, (MshedMode) mode, &stats);
        }
    }
  g_test_message ("%s: %u mutations, %u loads failed cleanly, %u strict and %u tolerant "
                  "models walked, %u diagnostics",
                  base->name, count, stats.loads_failed, stats.strict_models,
                  stats.tolerant_models, stats.diagnostics);
  /* the mutations must reach the model layer, not only the container checks */
  g_assert_cmpuint (stats.tolerant_models, >, count / 4);
  g_assert_cmpuint (stats.loads_failed, >, 0);
}

typedef struct {
  const char *name;
  guint64     seed;
  guint       tris;
  guint       nodes;
  gboolean    animated;
  gboolean    ext;
  gboolean    legacy;
  gboolean    archive;
} FuzzCase;

static const FuzzCase cases[] = {
  { "static",   31, 60,  4, FALSE, FALSE, FALSE, FALSE },
  { "animated", 32, 120, 6, TRUE,  TRUE,  FALSE, FALSE },
  { "legacy",   33, 40,  2, FALSE, FALSE, TRUE,  FALSE },
  { "archive",  34, 40,  0, FALSE, FALSE, FALSE, TRUE },
};

static void
test_mutations (gconstpointer data)
{
  const FuzzCase *fc = data;
  g_autoptr(GBytes) bytes = NULL;
  Base base = { 0 };

  if (fc->archive)
    bytes = mshed_generate_archive_bytes (fc->seed, 3, fc->tris);
  else
    bytes = small_model (fc->seed, fc->tris, fc->nodes, fc->animated, fc->ext, fc->legacy);
  base_init (&base, fc->name, bytes, fc->archive);
  run_mutations (&base, iterations (fc->archive ? 1500 : 2500), fc->seed * 7919);
  base_clear (&base);
}

/* Degenerate but well-formed containers: no entries, only unknown types, required types
 * present but empty. */
static void
test_degenerate (void)
{
  static const guint32 types[] = { 1, 2, 3, 6, 13 };
  Stats stats = { 0 };

  for (guint mask = 0; mask < 32; mask++)
    {
      g_autoptr(MshedNres) nres = mshed_nres_new ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);

      for (guint i = 0; i < G_N_ELEMENTS (types); i++)
        if (mask & (1u << i))
          {
            MshedNresEntry e = { 0 };

            e.type_id = types[i];
            g_snprintf ((char *) e.name, 36, "Res%u", types[i]);
            mshed_nres_insert_entry (nres, G_MAXUINT, &e, empty);
          }
      bytes = mshed_nres_build_canonical (nres);
      /* an empty Res2 cannot hold the header: never valid */
      g_assert_false (try_model (bytes, MSHED_MODE_STRICT, &stats));
      /* tolerant mode loads every directory of model types, complete or not (a model that
       * lacks a required type is still a model); no entries at all is an empty archive */
      g_assert_cmpint (try_model (bytes, MSHED_MODE_TOLERANT, &stats), ==, mask != 0);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/fuzz/truncated", test_truncated);
  g_test_add_func ("/model/fuzz/short-resources", test_short_resources);
  g_test_add_func ("/model/fuzz/degenerate", test_degenerate);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/model/fuzz/mutations/%s", cases[i].name);

      g_test_add_data_func (path, &cases[i], test_mutations);
    }
  return g_test_run ();
}
