/* test-validate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One negative test per invariant of docs/msh.md §3/§7.7/§9.1 and docs/nres.md §7.2: a small valid
 * model is built here, one defect is planted, and the exact check, resource, record, field,
 * byte offset and severity (strict and tolerant) of the finding are asserted.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-schema.h"
#include "mshed-validate.h"

/* A valid model -------------------------------------------------------------------------- */

static void
put_u16 (GByteArray *a,
         guint16     v)
{
  guint8 b[2];

  mshed_write_u16 (b, v);
  g_byte_array_append (a, b, 2);
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  guint8 b[4];

  mshed_write_u32 (b, v);
  g_byte_array_append (a, b, 4);
}

static void
put_f32 (GByteArray *a,
         float       v)
{
  guint8 b[4];

  mshed_write_f32 (b, v);
  g_byte_array_append (a, b, 4);
}

static void
add_entry (MshedNres  *nres,
           guint32     type,
           guint32     attr1,
           guint32     attr2,
           guint32     attr3,
           GByteArray *data)
{
  MshedNresEntry templ = { 0 };
  g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (data);

  templ.type_id = type;
  templ.attr1 = attr1;
  templ.attr2 = attr2;
  templ.attr3 = attr3;
  g_snprintf ((char *) templ.name, sizeof templ.name, "res%u", type);
  mshed_nres_insert_entry (nres, G_MAXUINT, &templ, bytes);
}

static void
put_node (GByteArray    *a,
          guint16        parent,
          guint16        map_start,
          guint16        fallback,
          const guint16 *slots,
          guint          stride)
{
  put_u16 (a, 0x0010);
  put_u16 (a, parent);
  put_u16 (a, map_start);
  put_u16 (a, fallback);
  for (guint i = 0; i < (stride - 8) / 2; i++)
    put_u16 (a, i < MSHED_N_SLOT_CELLS ? slots[i] : 0);
}

static void
put_slot (GByteArray *a,
          guint16     tri_start,
          guint16     batch_start,
          float       x0)
{
  put_u16 (a, tri_start);
  put_u16 (a, 1);
  put_u16 (a, batch_start);
  put_u16 (a, 1);
  put_f32 (a, x0);            /* aabbMin */
  put_f32 (a, 0.0f);
  put_f32 (a, 0.0f);
  put_f32 (a, x0 + 1.0f);     /* aabbMax */
  put_f32 (a, 1.0f);
  put_f32 (a, 0.0f);
  put_f32 (a, x0 + 0.5f);     /* sphere */
  put_f32 (a, 0.5f);
  put_f32 (a, 0.0f);
  put_f32 (a, 0.75f);
  for (guint i = 0; i < 5; i++)
    put_u32 (a, 0xA0 + i);
}

static void
put_key (GByteArray *a,
         float       x,
         float       time)
{
  put_f32 (a, x);
  put_f32 (a, 0.0f);
  put_f32 (a, 0.0f);
  put_f32 (a, time);
  put_u16 (a, 0);
  put_u16 (a, 0);
  put_u16 (a, 0);
  put_u16 (a, 32767);
}

static void
put_name (GByteArray *a,
          const char *name)
{
  guint32 len = (guint32) strlen (name);

  put_u32 (a, len);
  if (len)
    g_byte_array_append (a, (const guint8 *) name, len + 1);
}

/*
 * Two nodes: node 0 is a static root (one key, slot 0 at LOD 0 group 0); node 1 is its
 * animated child (keys 1..3 at times 0, 2, 4; a 5-frame map; slot 1 at LOD 0 and LOD 1).
 * Two slots, each one batch of one triangle over its own three vertices and one descriptor.
 * Resource order as in 414 of the 435 corpus models.
 */
static GBytes *
build_model (guint node_stride)
{
  g_autoptr(MshedNres) nres = mshed_nres_new ();
  const guint16 slots0[MSHED_N_SLOT_CELLS] = {
    0, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
    0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
  };
  const guint16 slots1[MSHED_N_SLOT_CELLS] = {
    1, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 1, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
    0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
  };
  const float pos[6][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 },
                            { 2, 0, 0 }, { 3, 0, 0 }, { 2, 1, 0 } };
  const guint16 map[5] = { 1, 1, 2, 2, 3 };
  GByteArray *a;
  gboolean repacked = TRUE;
  GBytes *bytes;

  /* Res1 */
  a = g_byte_array_new ();
  put_node (a, 0xFFFF, 0xFFFF, 0, slots0, node_stride);
  put_node (a, 0, 0, 3, slots1, node_stride);
  add_entry (nres, 1, 2, 7, node_stride, a);

  /* Res2: header + 2 slots */
  a = g_byte_array_new ();
  for (guint i = 0; i < 35; i++)
    put_f32 (a, (float) (i % 7) * 0.5f);
  put_slot (a, 0, 0, 0.0f);
  put_slot (a, 1, 1, 2.0f);
  add_entry (nres, 2, 2, 0, 68, a);

  /* Res3, Res4, Res5 */
  a = g_byte_array_new ();
  for (guint v = 0; v < 6; v++)
    for (guint k = 0; k < 3; k++)
      put_f32 (a, pos[v][k]);
  add_entry (nres, 3, 6, 0, 12, a);
  a = g_byte_array_new ();
  for (guint v = 0; v < 6; v++)
    put_u32 (a, 0x00007F00u);
  add_entry (nres, 4, 6, 0, 4, a);
  a = g_byte_array_new ();
  for (guint v = 0; v < 6; v++)
    {
      put_u16 (a, (guint16) (v * 100));
      put_u16 (a, (guint16) (v * 50));
    }
  add_entry (nres, 5, 6, 0, 4, a);

  /* Res15 */
  a = g_byte_array_new ();
  for (guint v = 0; v < 6; v++)
    {
      put_u32 (a, v);
      put_u32 (a, 0);
    }
  add_entry (nres, 15, 6, 0, 8, a);

  /* Res13: batch b draws indices 3b..3b+2 with baseVertex 3b */
  a = g_byte_array_new ();
  for (guint b = 0; b < 2; b++)
    {
      put_u16 (a, 0);
      put_u16 (a, (guint16) b);
      put_u16 (a, 0);
      put_u16 (a, 0);
      put_u16 (a, 3);
      put_u32 (a, 3 * b);
      put_u16 (a, 0);
      put_u32 (a, 3 * b);
    }
  add_entry (nres, 13, 2, 0, 20, a);

  /* Res6 */
  a = g_byte_array_new ();
  for (guint i = 0; i < 6; i++)
    put_u16 (a, (guint16) (i % 3));
  add_entry (nres, 6, 6, 0, 2, a);

  /* Res7: two descriptors, neighbours of each other */
  a = g_byte_array_new ();
  for (guint t = 0; t < 2; t++)
    {
      put_u16 (a, 0);
      put_u16 (a, (guint16) (1 - t));
      put_u16 (a, 0xFFFF);
      put_u16 (a, 0xFFFF);
      put_u16 (a, 0);
      put_u16 (a, 0);
      put_u16 (a, 32767);
      put_u16 (a, 0x3F);
    }
  add_entry (nres, 7, 2, 0, 16, a);

  /* Res8: node 0 key 0; node 1 keys 1..3 at times 0, 2, 4 */
  a = g_byte_array_new ();
  put_key (a, 0.0f, 0.0f);
  put_key (a, 1.0f, 0.0f);
  put_key (a, 2.0f, 2.0f);
  put_key (a, 3.0f, 4.0f);
  add_entry (nres, 8, 4, 0, 4, a);

  /* Res19: frames 0..4 of node 1 */
  a = g_byte_array_new ();
  for (guint f = 0; f < 5; f++)
    put_u16 (a, map[f]);
  add_entry (nres, 19, 5, 5, 2, a);

  /* Res9 (opaque) */
  a = g_byte_array_new ();
  g_byte_array_append (a, (const guint8 *) "service", 7);
  add_entry (nres, 9, 1, 2, 3, a);

  /* Res10 */
  a = g_byte_array_new ();
  put_name (a, "root");
  put_name (a, "arm");
  add_entry (nres, 10, 2, 0, 0, a);

  /* Res17 (empty) */
  add_entry (nres, 17, 0, 0, 0, g_byte_array_new ());

  bytes = mshed_nres_serialize (nres, &repacked);
  g_assert_false (repacked);
  return bytes;
}

/* Helpers -------------------------------------------------------------------------------- */

static MshedNres *
parse_ok (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MshedNres *nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (nres);
  return nres;
}

static gint
find_type (MshedNres *nres,
           guint32    type)
{
  gint i = mshed_nres_find_type (nres, type);

  g_assert_cmpint (i, >=, 0);
  return i;
}

static guint8 *
payload (MshedNres *nres,
         guint32    type)
{
  return mshed_nres_entry_make_mutable (nres, (guint) find_type (nres, type));
}

static MshedNresEntry *
entry (MshedNres *nres,
       guint32    type)
{
  gint i = find_type (nres, type);

  mshed_nres_touch (nres, (guint) i);
  return mshed_nres_get_entry (nres, (guint) i);
}

/* Grows (zero bytes at the end) or shrinks the payload of the first entry of @type */
static void
resize (MshedNres *nres,
        guint32    type,
        gint       delta)
{
  gint i = find_type (nres, type);
  gsize size = mshed_nres_entry_get_size (mshed_nres_peek_entry (nres, (guint) i));
  guint8 zeros[64] = { 0 };

  g_assert_cmpint (delta, <=, 64);
  if (delta > 0)
    mshed_nres_entry_splice (nres, (guint) i, size, 0, zeros, (gsize) delta);
  else
    mshed_nres_entry_splice (nres, (guint) i, size + delta, (gsize) -delta, NULL, 0);
}

static void
set_f32 (MshedNres *nres,
         guint32    type,
         gsize      offset,
         float      v)
{
  mshed_write_f32 (payload (nres, type) + offset, v);
}

static void
set_u16 (MshedNres *nres,
         guint32    type,
         gsize      offset,
         guint16    v)
{
  mshed_write_u16 (payload (nres, type) + offset, v);
}

static void
set_u32 (MshedNres *nres,
         guint32    type,
         gsize      offset,
         guint32    v)
{
  mshed_write_u32 (payload (nres, type) + offset, v);
}

static const MshedDiagnostic *
find_diag (const MshedDiagnostics *diags,
           MshedCheck              check,
           guint32                 res_type)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);

      if (d->check == check && d->res_type == res_type)
        return d;
    }
  return NULL;
}

static void
dump (const MshedDiagnostics *diags)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      g_autofree char *line = mshed_diagnostic_format (mshed_diagnostics_get (diags, i));
      g_test_message ("%s", line);
    }
}

/* The offset a diagnostic should carry: where its field lies in @bytes (a parsed, unmodified
 * archive, so the stored layout is the current one). */
static gboolean
expected_offset (GBytes                *bytes,
                 const MshedDiagnostic *d,
                 guint64               *out)
{
  g_autoptr(MshedNres) nres = parse_ok (bytes);
  const MshedTableInfo *info;
  const MshedField *field;
  guint64 dir = mshed_nres_get_directory_offset (nres);

  if (d->field == NULL || d->record < 0 || d->table == MSHED_TABLE_NONE ||
      d->table == MSHED_TABLE_NAMES)
    return FALSE;
  info = mshed_schema_get_table (d->table);
  field = mshed_schema_find_field (info, d->field);
  g_assert_nonnull (field);
  if (d->table == MSHED_TABLE_DIRECTORY)
    {
      g_assert_cmpint (d->record, ==, d->res_index);
      *out = dir + (guint64) d->record * 64 + field->offset;
      return TRUE;
    }
  g_assert_cmpint (d->res_index, ==, mshed_nres_find_type (nres, info->res_type));
  *out = mshed_nres_peek_entry (nres, (guint) d->res_index)->data_offset + info->header_size +
         (guint64) d->record * info->stride + field->offset;
  return TRUE;
}

/* A valid model ------------------------------------------------------------------------- */

static void
assert_clean (GBytes   *bytes,
              MshedMode mode)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, mode, diags, &error);

  dump (diags);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 0);
  g_assert_true (mshed_validate_model (model, mode, NULL));
}

static void
test_valid (void)
{
  g_autoptr(GBytes) bytes = build_model (38);

  assert_clean (bytes, MSHED_MODE_STRICT);
  assert_clean (bytes, MSHED_MODE_TOLERANT);
}

static void
test_legacy_nodes (void)
{
  g_autoptr(GBytes) bytes = build_model (24);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, diags,
                                                            &error);
  const MshedDiagnostic *d;

  dump (diags);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 1);
  d = mshed_diagnostics_get (diags, 0);
  g_assert_cmpint (d->check, ==, MSHED_CHECK_LEGACY_NODES);
  g_assert_cmpint (d->severity, ==, MSHED_SEVERITY_INFO);
  g_assert_cmpuint (d->res_type, ==, 1);
  g_assert_cmpint (d->table, ==, MSHED_TABLE_DIRECTORY);
  g_assert_cmpint (d->record, ==, 0);
  g_assert_cmpstr (d->field, ==, "attr3");
}

/* Defects -------------------------------------------------------------------------------- */

typedef struct {
  const char   *name;
  void        (*plant) (MshedNres *nres);
  MshedCheck    check;
  guint32       res_type;
  MshedTableId  table;
  gint64        record;      /* -2: the directory index of the resource */
  const char   *field;
  MshedSeverity strict;      /* ERROR for spec "E" rules: tolerant reports them as WARNING */
  gboolean      strict_loads;
} Defect;

#define DIR_RECORD (-2)

/* docs/msh.md §3: Res1 */
static void plant_res1_attr3_zero (MshedNres *n) { entry (n, 1)->attr3 = 0; }
static void
plant_res1_attr3_unknown (MshedNres *n)
{
  entry (n, 1)->attr3 = 76;
  entry (n, 1)->attr1 = 1;
}
static void plant_res1_size (MshedNres *n) { resize (n, 1, 2); }
static void plant_res1_attr1 (MshedNres *n) { entry (n, 1)->attr1 = 3; }

/* Res2 */
static void plant_res2_short (MshedNres *n) { resize (n, 2, -(140 + 2 * 68 - 100)); }
static void plant_res2_tail (MshedNres *n) { resize (n, 2, 4); }
static void plant_res2_attr1 (MshedNres *n) { entry (n, 2)->attr1 = 5; }
static void plant_res2_attr2 (MshedNres *n) { entry (n, 2)->attr2 = 1; }
static void plant_res2_attr3 (MshedNres *n) { entry (n, 2)->attr3 = 64; }

/* The stride group */
static void plant_res3_size (MshedNres *n) { resize (n, 3, 4); }
static void plant_res6_attr1 (MshedNres *n) { entry (n, 6)->attr1 = 7; }
static void plant_res7_attr3 (MshedNres *n) { entry (n, 7)->attr3 = 15; }
static void plant_res13_attr2 (MshedNres *n) { entry (n, 13)->attr2 = 1; }
static void plant_res8_attr3 (MshedNres *n) { entry (n, 8)->attr3 = 24; }
static void plant_res8_size (MshedNres *n) { resize (n, 8, 8); }
static void plant_res19_attr3 (MshedNres *n) { entry (n, 19)->attr3 = 4; }
static void plant_res19_frames (MshedNres *n) { entry (n, 19)->attr2 = 0; }
static void plant_res15_attr2 (MshedNres *n) { entry (n, 15)->attr2 = 9; }

/* Res10 */
static void plant_res10_attr1 (MshedNres *n) { entry (n, 10)->attr1 = 3; }
static void plant_res10_attr3 (MshedNres *n) { entry (n, 10)->attr3 = 1; }
static void plant_res10_length (MshedNres *n) { resize (n, 10, -8); }      /* 9 bytes left */
static void plant_res10_text (MshedNres *n) { resize (n, 10, -2); }        /* "arm" cut */
static void plant_res10_nul (MshedNres *n) { payload (n, 10)[8] = 'X'; }   /* after "root" */
static void plant_res10_trailing (MshedNres *n) { resize (n, 10, 3); }

/* Vertex counts */
static void
plant_res4_count (MshedNres *n)
{
  resize (n, 4, -4);
  entry (n, 4)->attr1 = 5;
}
static void
plant_res5_count (MshedNres *n)
{
  resize (n, 5, 4);
  entry (n, 5)->attr1 = 7;
}
static void
plant_res15_count (MshedNres *n)
{
  resize (n, 15, -8);
  entry (n, 15)->attr1 = 5;
}

/* Batches: record 1 at offset 20 */
static void plant_batch_index_range (MshedNres *n) { set_u32 (n, 13, 20 + 10, 4); }
static void plant_batch_index_multiple (MshedNres *n) { set_u16 (n, 13, 20 + 8, 2); }
static void plant_batch_vertex_range (MshedNres *n) { set_u32 (n, 13, 20 + 16, 4); }

/* Slots: slot s at 140 + 68 s */
static void plant_slot_batch_range (MshedNres *n) { set_u16 (n, 2, 140 + 68 + 4, 2); }
static void plant_slot_tri_range (MshedNres *n) { set_u16 (n, 2, 140 + 68 + 2, 2); }
static void
plant_slot_tri_no_res7 (MshedNres *n)
{
  mshed_nres_remove_entry (n, (guint) find_type (n, 7));
}
static void plant_slot_nonfinite (MshedNres *n) { set_f32 (n, 2, 140 + 24, NAN); }
static void plant_slot_aabb (MshedNres *n) { set_f32 (n, 2, 140 + 8, 5.0f); }
static void plant_slot_radius (MshedNres *n) { set_f32 (n, 2, 140 + 68 + 44, -1.0f); }
static void plant_header_nonfinite (MshedNres *n) { set_f32 (n, 2, 108, INFINITY); }

/* Descriptors: record 1 at 16 */
static void plant_tri_link (MshedNres *n) { set_u16 (n, 7, 16 + 6, 2); }

/* Nodes: node k at 38 k */
static void plant_node_slot (MshedNres *n) { set_u16 (n, 1, 38 + 8 + 2 * 7, 2); }
static void plant_node_parent_later (MshedNres *n) { set_u16 (n, 1, 2, 1); }
static void plant_node_parent_self (MshedNres *n) { set_u16 (n, 1, 38 + 2, 1); }
static void plant_node_parent_missing (MshedNres *n) { set_u16 (n, 1, 38 + 2, 9); }
static void plant_node_key (MshedNres *n) { set_u16 (n, 1, 6, 4); }
static void plant_node_map (MshedNres *n) { set_u16 (n, 1, 38 + 4, 1); }
static void
plant_node_map_no_res19 (MshedNres *n)
{
  mshed_nres_remove_entry (n, (guint) find_type (n, 19));
}

/* docs/msh.md §7.7 */
static void plant_anim_track (MshedNres *n) { set_u16 (n, 1, 38 + 6, 2); }
static void plant_anim_track_static (MshedNres *n) { set_u16 (n, 1, 38 + 4, 0xFFFF); }
static void plant_anim_time (MshedNres *n) { set_f32 (n, 8, 2 * 24 + 12, 2.5f); }
static void plant_anim_first_time (MshedNres *n) { set_f32 (n, 8, 0 * 24 + 12, 1.0f); }
static void plant_anim_frames (MshedNres *n) { entry (n, 19)->attr2 = 4; }
static void
plant_anim_map_layout (MshedNres *n)
{
  resize (n, 19, 2);
  entry (n, 19)->attr1 = 6;
}
static void plant_anim_map_value (MshedNres *n) { set_u16 (n, 19, 2 * 2, 1); }
static void plant_anim_map_key (MshedNres *n) { set_u16 (n, 1, 38 + 6, 7); }
/* node 1's keys 1..3 have times 0, 2, 4: key 3 at time 1 comes before key 2's 2 */
static void plant_anim_time_order (MshedNres *n) { set_f32 (n, 8, 3 * 24 + 12, 1.0f); }
/* and key 2 at time 0 repeats key 1's */
static void plant_anim_time_equal (MshedNres *n) { set_f32 (n, 8, 2 * 24 + 12, 0.0f); }
/* node 1 keeps its map block but its track shrinks to key 1 alone */
static void plant_anim_mapped_keys (MshedNres *n) { set_u16 (n, 1, 38 + 6, 1); }

/* Presence */
static void
plant_duplicate (MshedNres *n)
{
  const MshedNresEntry *e = mshed_nres_peek_entry (n, (guint) find_type (n, 4));
  g_autoptr(GBytes) data = mshed_nres_entry_dup_bytes (e);

  mshed_nres_insert_entry (n, G_MAXUINT, e, data);
}

#define E MSHED_SEVERITY_ERROR
#define W MSHED_SEVERITY_WARNING
#define DIR MSHED_TABLE_DIRECTORY

static const Defect defects[] = {
  { "duplicate-type", plant_duplicate,
    MSHED_CHECK_DUPLICATE_TYPE, 4, DIR, 14, "type", W, TRUE },
  { "res1-attr3-zero", plant_res1_attr3_zero,
    MSHED_CHECK_RES1_STRIDE, 1, DIR, DIR_RECORD, "attr3", E, FALSE },
  { "res1-attr3-unknown", plant_res1_attr3_unknown,
    MSHED_CHECK_RES1_STRIDE, 1, DIR, DIR_RECORD, "attr3", W, FALSE },
  { "res1-size", plant_res1_size,
    MSHED_CHECK_STRIDE, 1, DIR, DIR_RECORD, "size", E, FALSE },
  { "res1-attr1", plant_res1_attr1,
    MSHED_CHECK_ATTR1, 1, DIR, DIR_RECORD, "attr1", E, FALSE },
  { "res2-short", plant_res2_short,
    MSHED_CHECK_RES2_SIZE, 2, DIR, DIR_RECORD, "size", E, FALSE },
  { "res2-tail", plant_res2_tail,
    MSHED_CHECK_RES2_SIZE, 2, DIR, DIR_RECORD, "size", E, FALSE },
  { "res2-attr1", plant_res2_attr1,
    MSHED_CHECK_ATTR1, 2, DIR, DIR_RECORD, "attr1", E, FALSE },
  { "res2-attr2", plant_res2_attr2,
    MSHED_CHECK_ATTR2, 2, DIR, DIR_RECORD, "attr2", W, TRUE },
  { "res2-attr3", plant_res2_attr3,
    MSHED_CHECK_ATTR3, 2, DIR, DIR_RECORD, "attr3", E, FALSE },
  { "stride", plant_res3_size,
    MSHED_CHECK_STRIDE, 3, DIR, DIR_RECORD, "size", E, FALSE },
  { "attr1", plant_res6_attr1,
    MSHED_CHECK_ATTR1, 6, DIR, DIR_RECORD, "attr1", E, FALSE },
  { "attr3", plant_res7_attr3,
    MSHED_CHECK_ATTR3, 7, DIR, DIR_RECORD, "attr3", E, FALSE },
  { "attr2", plant_res13_attr2,
    MSHED_CHECK_ATTR2, 13, DIR, DIR_RECORD, "attr2", W, TRUE },
  { "attr2-res15", plant_res15_attr2,
    MSHED_CHECK_ATTR2, 15, DIR, DIR_RECORD, "attr2", W, TRUE },
  { "res8-attr3", plant_res8_attr3,
    MSHED_CHECK_ATTR3, 8, DIR, DIR_RECORD, "attr3", E, FALSE },
  { "res8-stride", plant_res8_size,
    MSHED_CHECK_STRIDE, 8, DIR, DIR_RECORD, "size", E, FALSE },
  { "res19-attr3", plant_res19_attr3,
    MSHED_CHECK_ATTR3, 19, DIR, DIR_RECORD, "attr3", E, FALSE },
  { "res19-frames", plant_res19_frames,
    MSHED_CHECK_RES19_FRAMES, 19, DIR, DIR_RECORD, "attr2", E, FALSE },
  { "res10-attr1", plant_res10_attr1,
    MSHED_CHECK_RES10_ATTR1, 10, DIR, DIR_RECORD, "attr1", E, FALSE },
  { "res10-attr3", plant_res10_attr3,
    MSHED_CHECK_RES10_ATTR3, 10, DIR, DIR_RECORD, "attr3", W, TRUE },
  { "res10-length", plant_res10_length,
    MSHED_CHECK_RES10_LENGTH, 10, MSHED_TABLE_NAMES, 1, "len", E, FALSE },
  { "res10-text", plant_res10_text,
    MSHED_CHECK_RES10_TEXT, 10, MSHED_TABLE_NAMES, 1, "text", E, FALSE },
  { "res10-nul", plant_res10_nul,
    MSHED_CHECK_RES10_NUL, 10, MSHED_TABLE_NAMES, 0, "text", W, TRUE },
  { "res10-trailing", plant_res10_trailing,
    MSHED_CHECK_RES10_TRAILING, 10, MSHED_TABLE_NAMES, -1, NULL, E, FALSE },
  { "res4-count", plant_res4_count,
    MSHED_CHECK_VERTEX_COUNT, 4, DIR, DIR_RECORD, "size", E, FALSE },
  { "res5-count", plant_res5_count,
    MSHED_CHECK_VERTEX_COUNT, 5, DIR, DIR_RECORD, "size", E, FALSE },
  { "res15-count", plant_res15_count,
    MSHED_CHECK_EXTRA_COUNT, 15, DIR, DIR_RECORD, "size", W, TRUE },
  { "batch-index-range", plant_batch_index_range,
    MSHED_CHECK_BATCH_INDEX_RANGE, 13, MSHED_TABLE_BATCHES, 1, "indexStart", E, FALSE },
  { "batch-index-multiple", plant_batch_index_multiple,
    MSHED_CHECK_BATCH_INDEX_MULTIPLE, 13, MSHED_TABLE_BATCHES, 1, "indexCount", W, TRUE },
  { "batch-vertex-range", plant_batch_vertex_range,
    MSHED_CHECK_BATCH_VERTEX_RANGE, 13, MSHED_TABLE_BATCHES, 1, "baseVertex", E, FALSE },
  { "slot-batch-range", plant_slot_batch_range,
    MSHED_CHECK_SLOT_BATCH_RANGE, 2, MSHED_TABLE_SLOTS, 1, "batchStart", E, FALSE },
  { "slot-tri-range", plant_slot_tri_range,
    MSHED_CHECK_SLOT_TRI_RANGE, 2, MSHED_TABLE_SLOTS, 1, "triStart", E, FALSE },
  { "slot-tri-range-no-res7", plant_slot_tri_no_res7,
    MSHED_CHECK_SLOT_TRI_RANGE, 2, MSHED_TABLE_SLOTS, 0, "triStart", E, FALSE },
  { "slot-nonfinite", plant_slot_nonfinite,
    MSHED_CHECK_SLOT_NONFINITE, 2, MSHED_TABLE_SLOTS, 0, "aabbMaxY", E, FALSE },
  { "slot-aabb-order", plant_slot_aabb,
    MSHED_CHECK_SLOT_AABB_ORDER, 2, MSHED_TABLE_SLOTS, 0, "aabbMinX", E, FALSE },
  { "slot-radius", plant_slot_radius,
    MSHED_CHECK_SLOT_RADIUS, 2, MSHED_TABLE_SLOTS, 1, "sphereR", E, FALSE },
  { "header-nonfinite", plant_header_nonfinite,
    MSHED_CHECK_HEADER_NONFINITE, 2, MSHED_TABLE_HEADER, 0, "sphereR", W, TRUE },
  { "tri-link", plant_tri_link,
    MSHED_CHECK_TRI_LINK, 7, MSHED_TABLE_TRIS, 1, "link2", E, FALSE },
  { "node-slot", plant_node_slot,
    MSHED_CHECK_NODE_SLOT, 1, MSHED_TABLE_NODES, 1, "slot7", E, FALSE },
  { "node-parent-later", plant_node_parent_later,
    MSHED_CHECK_NODE_PARENT, 1, MSHED_TABLE_NODES, 0, "hdr1", E, FALSE },
  { "node-parent-self", plant_node_parent_self,
    MSHED_CHECK_NODE_PARENT, 1, MSHED_TABLE_NODES, 1, "hdr1", E, FALSE },
  { "node-parent-missing", plant_node_parent_missing,
    MSHED_CHECK_NODE_PARENT, 1, MSHED_TABLE_NODES, 1, "hdr1", E, FALSE },
  { "node-key", plant_node_key,
    MSHED_CHECK_NODE_KEY, 1, MSHED_TABLE_NODES, 0, "hdr3", E, FALSE },
  { "node-map", plant_node_map,
    MSHED_CHECK_NODE_MAP, 1, MSHED_TABLE_NODES, 1, "hdr2", E, FALSE },
  { "node-map-no-res19", plant_node_map_no_res19,
    MSHED_CHECK_NODE_MAP, 1, MSHED_TABLE_NODES, 1, "hdr2", E, FALSE },
  { "anim-track", plant_anim_track,
    MSHED_CHECK_ANIM_TRACK, 1, MSHED_TABLE_NODES, 1, "hdr3", W, TRUE },
  { "anim-track-static", plant_anim_track_static,
    MSHED_CHECK_ANIM_TRACK, 1, MSHED_TABLE_NODES, 1, "hdr3", W, TRUE },
  { "anim-time", plant_anim_time,
    MSHED_CHECK_ANIM_TIME, 8, MSHED_TABLE_KEYS, 2, "time", W, TRUE },
  { "anim-first-time", plant_anim_first_time,
    MSHED_CHECK_ANIM_TIME, 8, MSHED_TABLE_KEYS, 0, "time", W, TRUE },
  { "anim-frames", plant_anim_frames,
    MSHED_CHECK_ANIM_FRAMES, 19, DIR, DIR_RECORD, "attr2", W, TRUE },
  { "anim-map-layout", plant_anim_map_layout,
    MSHED_CHECK_ANIM_MAP_LAYOUT, 19, DIR, DIR_RECORD, "size", W, TRUE },
  { "anim-map-value", plant_anim_map_value,
    MSHED_CHECK_ANIM_MAP_VALUE, 19, MSHED_TABLE_MAP, 2, "key", W, TRUE },
  { "anim-map-key", plant_anim_map_key,
    MSHED_CHECK_ANIM_MAP_KEY, 19, MSHED_TABLE_MAP, 4, "key", E, FALSE },
  { "anim-time-order", plant_anim_time_order,
    MSHED_CHECK_ANIM_TIME_ORDER, 8, MSHED_TABLE_KEYS, 3, "time", E, FALSE },
  { "anim-time-equal", plant_anim_time_equal,
    MSHED_CHECK_ANIM_TIME_ORDER, 8, MSHED_TABLE_KEYS, 2, "time", E, FALSE },
  { "anim-mapped-keys", plant_anim_mapped_keys,
    MSHED_CHECK_ANIM_MAPPED_KEYS, 1, MSHED_TABLE_NODES, 1, "hdr3", E, FALSE },
};

#undef E
#undef W
#undef DIR

static GBytes *
planted_bytes (void (*plant) (MshedNres *nres))
{
  g_autoptr(GBytes) valid = build_model (38);
  g_autoptr(MshedNres) nres = parse_ok (valid);

  plant (nres);
  return mshed_nres_serialize (nres, NULL);
}

static void
test_defect (gconstpointer data)
{
  const Defect *t = data;
  g_autoptr(GBytes) bytes = planted_bytes (t->plant);

  for (guint m = 0; m < 2; m++)
    {
      MshedMode mode = m == 0 ? MSHED_MODE_STRICT : MSHED_MODE_TOLERANT;
      /* one classification: tolerant mode changes no severity, only what is dropped */
      MshedSeverity expect = t->strict;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, mode, diags, &error);
      const MshedDiagnostic *d;
      gint64 record = t->record;
      guint64 offset;

      dump (diags);
      if (mode == MSHED_MODE_TOLERANT || t->strict_loads)
        {
          g_assert_no_error (error);
          g_assert_nonnull (model);
        }
      else
        {
          g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
          g_assert_null (model);
        }

      d = find_diag (diags, t->check, t->res_type);
      g_assert_nonnull (d);
      g_assert_cmpint (d->severity, ==, expect);
      g_assert_cmpint (d->table, ==, t->table);
      if (record == DIR_RECORD)
        {
          g_autoptr(MshedNres) nres = parse_ok (bytes);
          record = mshed_nres_find_type (nres, t->res_type);
        }
      g_assert_cmpint (d->record, ==, record);
      g_assert_cmpstr (d->field, ==, t->field);
      g_assert_nonnull (d->message);
      if (t->strict == MSHED_SEVERITY_ERROR && mode == MSHED_MODE_TOLERANT)
        g_assert_nonnull (strstr (d->message, "ignored"));
      if (expected_offset (bytes, d, &offset))
        g_assert_cmpuint (d->offset, ==, offset);
    }
}

static void
test_missing (void)
{
  static const guint32 required[] = { 1, 2, 3, 6, 13 };

  for (guint k = 0; k < G_N_ELEMENTS (required); k++)
    {
      g_autoptr(GBytes) valid = build_model (38);
      g_autoptr(MshedNres) nres = parse_ok (valid);
      g_autoptr(GBytes) bytes = NULL;

      mshed_nres_remove_entry (nres, (guint) find_type (nres, required[k]));
      bytes = mshed_nres_serialize (nres, NULL);

      for (guint m = 0; m < 2; m++)
        {
          MshedMode mode = m == 0 ? MSHED_MODE_STRICT : MSHED_MODE_TOLERANT;
          g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
          g_autoptr(GError) error = NULL;
          g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, mode, diags, &error);
          const MshedDiagnostic *d = find_diag (diags, MSHED_CHECK_MISSING_TYPE, required[k]);

          dump (diags);
          g_assert_nonnull (d);
          g_assert_cmpint (d->severity, ==, MSHED_SEVERITY_ERROR);
          g_assert_cmpint (d->res_index, ==, -1);
          g_assert_cmpint (d->record, ==, -1);
          g_assert_cmpstr (d->field, ==, "type");
          /* unusable in both modes: the validator fails even in tolerant mode */
          if (mode == MSHED_MODE_STRICT)
            {
              g_assert_null (model);
              g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
            }
          else if (model != NULL)
            g_assert_false (mshed_validate_model (model, mode, NULL));
        }
    }
}

/* The strict-mode message of the spec's example, and the tolerant one that says what is
 * dropped. */
static void
test_messages (void)
{
  g_autoptr(GBytes) bytes = planted_bytes (plant_slot_batch_range);
  g_autoptr(MshedDiagnostics) strict = mshed_diagnostics_new ();
  g_autoptr(MshedDiagnostics) tolerant = mshed_diagnostics_new ();
  g_autoptr(MshedModel) m1 = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, strict, NULL);
  g_autoptr(MshedModel) m2 = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, tolerant,
                                                         NULL);

  g_assert_null (m1);
  g_assert_nonnull (m2);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (strict), ==, 1);
  g_assert_cmpstr (mshed_diagnostics_get (strict, 0)->message, ==,
                   "Res2 slot 1, field batchStart: batch range 2..2 ends past the 2 batches in "
                   "Res13");
  g_assert_cmpuint (mshed_diagnostics_get_n_items (tolerant), ==, 1);
  g_assert_cmpstr (mshed_diagnostics_get (tolerant, 0)->message, ==,
                   "Res2 slot 1, field batchStart: batch range 2..2 ends past the 2 batches in "
                   "Res13; ignored: the slot draws no batches");
}

/* Offsets of a nested model are shifted by the base offset the caller sets. */
static void
test_base_offset (void)
{
  g_autoptr(GBytes) bytes = planted_bytes (plant_tri_link);
  g_autoptr(MshedDiagnostics) a = mshed_diagnostics_new ();
  g_autoptr(MshedDiagnostics) b = mshed_diagnostics_new ();
  g_autoptr(MshedModel) m1 = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, a, NULL);
  g_autoptr(MshedModel) m2 = NULL;

  mshed_diagnostics_set_context (b, 4096, "MODEL.MSH");
  m2 = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, b, NULL);
  g_assert_nonnull (m1);
  g_assert_nonnull (m2);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (a), ==, 1);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (b), ==, 1);
  g_assert_cmpuint (mshed_diagnostics_get (b, 0)->offset, ==,
                    mshed_diagnostics_get (a, 0)->offset + 4096);
  g_assert_cmpstr (mshed_diagnostics_get (b, 0)->entry, ==, "MODEL.MSH");
}

/* No "count > 0" exemptions: an empty Res6 still fails every batch that draws indices. */
static void
test_no_exemptions (void)
{
  g_autoptr(GBytes) valid = build_model (38);
  g_autoptr(MshedNres) nres = parse_ok (valid);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedModel) model = NULL;
  guint n_range = 0;

  resize (nres, 6, -12);
  entry (nres, 6)->attr1 = 0;
  bytes = mshed_nres_serialize (nres, NULL);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, NULL);
  dump (diags);
  g_assert_null (model);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    if (mshed_diagnostics_get (diags, i)->check == MSHED_CHECK_BATCH_INDEX_RANGE)
      n_range++;
  g_assert_cmpuint (n_range, ==, 2);
}

/* A flood of findings of one kind is capped and summarised. */
static void
test_report_limit (void)
{
  g_autoptr(GBytes) valid = build_model (38);
  g_autoptr(MshedNres) nres = parse_ok (valid);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedModel) model = NULL;
  const guint n = 1500;
  guint n_link = 0;
  guint8 *p;
  gint i7 = find_type (nres, 7);
  g_autofree guint8 *data = g_malloc0 (n * 16);
  g_autoptr(GBytes) payload_bytes = NULL;
  const MshedDiagnostic *last;

  for (guint t = 0; t < n; t++)
    {
      p = data + t * 16;
      mshed_write_u16 (p + 2, 0xFFFE);
      mshed_write_u16 (p + 4, 0xFFFF);
      mshed_write_u16 (p + 6, 0xFFFF);
    }
  payload_bytes = g_bytes_new (data, n * 16);
  mshed_nres_set_payload (nres, (guint) i7, payload_bytes);
  mshed_nres_get_entry (nres, (guint) i7)->attr1 = n;
  mshed_nres_layout (nres);
  bytes = mshed_nres_serialize (nres, NULL);

  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, NULL);
  g_assert_null (model);
  for (guint k = 0; k < mshed_diagnostics_get_n_items (diags); k++)
    if (mshed_diagnostics_get (diags, k)->check == MSHED_CHECK_TRI_LINK)
      n_link++;
  g_assert_cmpuint (n_link, ==, 1001);
  /* every error is counted, even the ones not listed */
  g_assert_cmpuint (diags->n_errors, >=, n);
  last = mshed_diagnostics_get (diags, mshed_diagnostics_get_n_items (diags) - 1);
  g_assert_cmpint (last->check, ==, MSHED_CHECK_TRI_LINK);
  g_assert_cmpint (last->record, ==, -1);
  g_assert_cmpuint (last->res_type, ==, 7);
  g_assert_nonnull (strstr (last->message, "500 more"));
}

/* Strict findings of @check in a copy of @file with the u16 at @offset set to @value. */
static guint
count_after_patch (GBytes     *file,
                   gsize       offset,
                   guint16     value,
                   MshedCheck  check,
                   gint64     *record,
                   const char **field)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (file, &len);
  g_autofree guint8 *copy = g_memdup2 (data, len);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedModel) model = NULL;
  guint n = 0;

  mshed_write_u16 (copy + offset, value);
  bytes = g_bytes_new (copy, len);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, diags, NULL);
  for (guint k = 0; k < mshed_diagnostics_get_n_items (diags); k++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, k);

      if (d->check != check)
        continue;
      n++;
      *record = d->record;
      *field = g_intern_string (d->field);
    }
  /* the patch breaks nothing else */
  g_assert_cmpuint (diags->n_errors, ==, n);
  return n;
}

/* The index and neighbour-link scans work on blocks of records: a defect is found wherever it
 * sits, at the start, inside or at the end of a block, in the tail, in any of the three
 * links, and a value just inside the range is not one. */
static void
test_scan_positions (void)
{
  MshedGenParams params;
  g_autoptr(GBytes) file = NULL;
  g_autoptr(MshedNres) nres = NULL;
  const MshedNresEntry *batches, *indices, *tris;
  guint32 n_verts, n_tris, best = 0, count = 0, start = 0, base = 0;
  gint64 record = 0;
  const char *field = NULL;

  mshed_gen_params_init (&params, 11);
  params.n_triangles = 3000;
  file = mshed_generate_model_bytes (&params);
  nres = parse_ok (file);
  n_verts = mshed_nres_peek_entry (nres, (guint) find_type (nres, 3))->attr1;
  batches = mshed_nres_peek_entry (nres, (guint) find_type (nres, 13));
  indices = mshed_nres_peek_entry (nres, (guint) find_type (nres, 6));
  tris = mshed_nres_peek_entry (nres, (guint) find_type (nres, 7));
  n_tris = tris->attr1;

  /* the batch with the most indices */
  for (guint32 b = 0; b < batches->attr1; b++)
    {
      const guint8 *rec = mshed_nres_entry_get_data (batches, NULL) + 20 * b;

      if (mshed_read_u16 (rec + 8) > count)
        {
          best = b;
          count = mshed_read_u16 (rec + 8);
          start = mshed_read_u32 (rec + 10);
          base = mshed_read_u32 (rec + 16);
        }
    }
  g_assert_cmpuint (count, >=, 48);
  g_assert_cmpuint (n_verts - base, <=, G_MAXUINT16);
  {
    const guint32 at[] = { 0, 1, 15, 16, 17, 31, count - 17, count - 16, count - 2, count - 1 };

    for (guint i = 0; i < G_N_ELEMENTS (at); i++)
      {
        gsize offset = indices->data_offset + 2 * ((gsize) start + at[i]);

        g_assert_cmpuint (count_after_patch (file, offset, (guint16) (n_verts - base),
                                             MSHED_CHECK_BATCH_VERTEX_RANGE, &record,
                                             &field), ==, 1);
        g_assert_cmpint (record, ==, best);
        g_assert_cmpstr (field, ==, "baseVertex");
        g_assert_cmpuint (count_after_patch (file, offset, (guint16) (n_verts - base - 1),
                                             MSHED_CHECK_BATCH_VERTEX_RANGE, &record,
                                             &field), ==, 0);
      }
  }

  g_assert_cmpuint (n_tris, >=, 20);
  g_assert_cmpuint (n_tris, <, G_MAXUINT16);
  {
    const guint32 at[] = { 0, 1, 7, 8, n_tris / 2, n_tris - 1 };
    static const char *const names[] = { "link0", "link1", "link2" };

    for (guint i = 0; i < G_N_ELEMENTS (at); i++)
      for (guint k = 0; k < 3; k++)
        {
          gsize offset = tris->data_offset + 16 * (gsize) at[i] + 2 + 2 * k;

          g_assert_cmpuint (count_after_patch (file, offset, (guint16) n_tris,
                                               MSHED_CHECK_TRI_LINK, &record, &field), ==, 1);
          g_assert_cmpint (record, ==, at[i]);
          g_assert_cmpstr (field, ==, names[k]);
          g_assert_cmpuint (count_after_patch (file, offset, 0xFFFE, MSHED_CHECK_TRI_LINK,
                                               &record, &field), ==, 1);
          g_assert_cmpuint (count_after_patch (file, offset, (guint16) (n_tris - 1),
                                               MSHED_CHECK_TRI_LINK, &record, &field), ==, 0);
          g_assert_cmpuint (count_after_patch (file, offset, 0xFFFF, MSHED_CHECK_TRI_LINK,
                                               &record, &field), ==, 0);
        }
  }
  /* the other words of a descriptor are not links */
  g_assert_cmpuint (count_after_patch (file, tris->data_offset + 16 * 3 + 0, 0xFFFE,
                                       MSHED_CHECK_TRI_LINK, &record, &field), ==, 0);
  g_assert_cmpuint (count_after_patch (file, tris->data_offset + 16 * 3 + 8, 0xFFFE,
                                       MSHED_CHECK_TRI_LINK, &record, &field), ==, 0);
}

/* Hostile input: every bit of the model flipped in turn. Tolerant mode must give a model
 * whenever the container parses and the required types exist, with no error-level findings
 * other than a missing type; strict mode must agree with the error count. */
static void
test_bitflips (void)
{
  g_autoptr(GBytes) valid = build_model (38);
  gsize len = 0;
  const guint8 *src = g_bytes_get_data (valid, &len);
  g_autofree guint8 *buf = g_memdup2 (src, len);

  for (gsize i = 0; i < len; i++)
    for (guint bit = 0; bit < 8; bit++)
      {
        g_autoptr(GBytes) bytes = NULL;
        g_autoptr(MshedNres) nres = NULL;
        g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
        g_autoptr(MshedModel) model = NULL;
        gboolean missing = FALSE;

        buf[i] ^= (guint8) (1u << bit);
        bytes = g_bytes_new (buf, len);
        buf[i] ^= (guint8) (1u << bit);

        nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, NULL, NULL);
        if (nres == NULL)
          continue;
        model = mshed_model_new (nres, MSHED_MODE_TOLERANT, diags, NULL);
        for (guint k = 0; k < mshed_diagnostics_get_n_items (diags); k++)
          {
            const MshedDiagnostic *d = mshed_diagnostics_get (diags, k);

            g_assert_nonnull (d->message);
            if (d->check == MSHED_CHECK_MISSING_TYPE)
              missing = TRUE;
          }
        g_assert_nonnull (model);
        if (!missing)
          {
            g_autoptr(MshedDiagnostics) strict = mshed_diagnostics_new ();
            gboolean ok = mshed_validate_model (model, MSHED_MODE_STRICT, strict);

            /* one classification: the mode changes no severity, only what is dropped */
            g_assert_true (ok == (strict->n_errors == 0));
            g_assert_true (mshed_validate_model (model, MSHED_MODE_TOLERANT, NULL) == ok);
            g_assert_cmpuint (mshed_diagnostics_get_n_items (strict), ==,
                              mshed_diagnostics_get_n_items (diags));
            g_assert_cmpuint (strict->n_errors, ==, diags->n_errors);
            g_assert_cmpuint (strict->n_warnings, ==, diags->n_warnings);
          }
      }
}

/* Container layout, docs/nres.md §7.2 ---------------------------------------------------------- */

/* The three-entry test vector of docs/nres.md §9 */
static guint8 *
vector_bytes (gsize *len)
{
  static const guint8 header[] = { 'N', 'R', 'e', 's', 0x00, 0x01, 0, 0, 3, 0, 0, 0,
                                   0xe0, 0, 0, 0 };
  guint8 *b = g_malloc0 (224);
  struct { guint32 type, a1, a2, size, a3; const char *name; guint32 off, sort; } recs[] = {
    { 1, 0x11, 0x22, 5, 0x33, "Res1", 16, 2 },
    { 2, 0, 0, 8, 0, "AB", 24, 1 },
    { 3, 0, 0, 0, 0, "A_B", 32, 0 },
  };

  memcpy (b, header, sizeof header);
  memcpy (b + 16, "hello", 5);
  memcpy (b + 24, "12345678", 8);
  for (guint i = 0; i < 3; i++)
    {
      guint8 *r = b + 32 + 64 * i;

      mshed_write_u32 (r + 0, recs[i].type);
      mshed_write_u32 (r + 4, recs[i].a1);
      mshed_write_u32 (r + 8, recs[i].a2);
      mshed_write_u32 (r + 12, recs[i].size);
      mshed_write_u32 (r + 16, recs[i].a3);
      memcpy (r + 20, recs[i].name, strlen (recs[i].name));
      mshed_write_u32 (r + 56, recs[i].off);
      mshed_write_u32 (r + 60, recs[i].sort);
    }
  *len = 224;
  return b;
}

static MshedDiagnostics *
layout_diags (const guint8 *data,
              gsize         len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  MshedDiagnostics *diags = mshed_diagnostics_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, MSHED_MODE_STRICT, diags, &error);

  dump (diags);
  g_assert_no_error (error);
  g_assert_nonnull (nres);
  return diags;
}

static void
assert_layout (const MshedDiagnostics *diags,
               MshedCheck              check,
               gint                    record,
               const char             *field,
               guint64                 offset)
{
  const MshedDiagnostic *d = find_diag (diags, check, G_MAXUINT32);

  g_assert_nonnull (d);
  g_assert_cmpint (d->severity, ==, MSHED_SEVERITY_WARNING);
  g_assert_cmpint (d->table, ==, MSHED_TABLE_DIRECTORY);
  g_assert_cmpint (d->res_index, ==, record);
  g_assert_cmpint (d->record, ==, record);
  g_assert_cmpstr (d->field, ==, field);
  g_assert_cmpuint (d->offset, ==, offset);
}

static void
test_layout_canonical (void)
{
  gsize len;
  g_autofree guint8 *b = vector_bytes (&len);
  g_autoptr(MshedDiagnostics) diags = layout_diags (b, len);
  g_autoptr(GBytes) model = build_model (38);
  g_autoptr(MshedDiagnostics) diags2 = layout_diags (g_bytes_get_data (model, NULL),
                                                     g_bytes_get_size (model));

  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 0);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags2), ==, 0);
}

static void
test_layout_sort_order (void)
{
  gsize len;
  g_autofree guint8 *b = vector_bytes (&len);
  g_autoptr(MshedDiagnostics) diags = NULL;

  /* an upper-case fold would give AB < A_B: [1, 2, 0] */
  mshed_write_u32 (b + 32 + 60, 1);
  mshed_write_u32 (b + 32 + 64 + 60, 2);
  mshed_write_u32 (b + 32 + 128 + 60, 0);
  diags = layout_diags (b, len);
  assert_layout (diags, MSHED_CHECK_NRES_SORT_ORDER, 0, "sort_index", 32 + 60);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 1);
}

static void
test_layout_padding (void)
{
  gsize len;
  g_autofree guint8 *b = vector_bytes (&len);
  g_autoptr(MshedDiagnostics) diags = NULL;

  b[22] = 0x5A;
  diags = layout_diags (b, len);
  assert_layout (diags, MSHED_CHECK_NRES_PADDING, 0, "size", 22);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 1);
}

static void
test_layout_alignment (void)
{
  gsize len;
  g_autofree guint8 *b = vector_bytes (&len);
  g_autoptr(MshedDiagnostics) diags = NULL;

  mshed_write_u32 (b + 32 + 64 + 56, 23);
  diags = layout_diags (b, len);
  assert_layout (diags, MSHED_CHECK_NRES_ALIGNMENT, 1, "data_offset", 32 + 64 + 56);
}

static void
test_layout_alignment4 (void)
{
  gsize len;
  g_autofree guint8 *b = vector_bytes (&len);
  g_autoptr(MshedDiagnostics) diags = NULL;

  /* the empty last entry at 28: 4-aligned, not 8-aligned, and overlapping nothing */
  mshed_write_u32 (b + 32 + 128 + 56, 28);
  diags = layout_diags (b, len);
  assert_layout (diags, MSHED_CHECK_NRES_ALIGNMENT, 2, "data_offset", 32 + 128 + 56);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 1);
}

static void
test_layout_overlap (void)
{
  gsize len;
  g_autofree guint8 *b = vector_bytes (&len);
  g_autoptr(MshedDiagnostics) diags = NULL;

  mshed_write_u32 (b + 32 + 64 + 56, 16);
  diags = layout_diags (b, len);
  assert_layout (diags, MSHED_CHECK_NRES_OVERLAP, 1, "data_offset", 32 + 64 + 56);
}

static void
test_layout_out_of_order (void)
{
  gsize len;
  g_autofree guint8 *b = vector_bytes (&len);
  g_autoptr(MshedDiagnostics) diags = NULL;

  /* "12345678" first at 16, then "hello" at 24 */
  memcpy (b + 16, "12345678hello\0\0\0", 16);
  mshed_write_u32 (b + 32 + 56, 24);
  mshed_write_u32 (b + 32 + 64 + 56, 16);
  diags = layout_diags (b, len);
  assert_layout (diags, MSHED_CHECK_NRES_LAYOUT, 1, "data_offset", 32 + 64 + 56);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 1);
}

static void
test_layout_gap (void)
{
  gsize len;
  g_autofree guint8 *v = vector_bytes (&len);
  g_autofree guint8 *b = g_malloc0 (len + 8);
  g_autoptr(MshedDiagnostics) diags = NULL;
  g_autoptr(MshedDiagnostics) foreign = NULL;
  const MshedDiagnostic *d;

  /* 8 extra bytes between the last payload and the directory */
  memcpy (b, v, 32);
  memcpy (b + 40, v + 32, len - 32);
  mshed_write_u32 (b + 12, (guint32) len + 8);
  diags = layout_diags (b, len + 8);
  assert_layout (diags, MSHED_CHECK_NRES_LAYOUT, 2, "size", 32);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 1);
  d = mshed_diagnostics_get (diags, 0);
  g_assert_nonnull (strstr (d->message, "zero bytes"));

  b[35] = 0x77;
  foreign = layout_diags (b, len + 8);
  g_assert_cmpuint (mshed_diagnostics_get_n_items (foreign), ==, 1);
  d = mshed_diagnostics_get (foreign, 0);
  g_assert_cmpint (d->check, ==, MSHED_CHECK_NRES_LAYOUT);
  g_assert_nonnull (strstr (d->message, "foreign"));

  /* a gap before the first payload names the entry that follows it */
  {
    g_autofree guint8 *c = g_malloc0 (len + 8);
    g_autoptr(MshedDiagnostics) front = NULL;

    memcpy (c, v, 16);
    memcpy (c + 24, v + 16, len - 16);
    mshed_write_u32 (c + 12, (guint32) len + 8);
    for (guint i = 0; i < 3; i++)
      mshed_write_u32 (c + 40 + 64 * i + 56, mshed_read_u32 (v + 32 + 64 * i + 56) + 8);
    front = layout_diags (c, len + 8);
    assert_layout (front, MSHED_CHECK_NRES_LAYOUT, 0, "data_offset", 16);
    g_assert_cmpuint (mshed_diagnostics_get_n_items (front), ==, 1);
  }
}

/* The line `validate` prints for a finding (mshed_diagnostic_format and the appending form
 * the command line uses): severity, entry, message, check id and the offset in upper-case
 * hexadecimal without leading zeros. */
static void
test_format_line (void)
{
  static const struct {
    MshedSeverity  severity;
    MshedCheck     check;
    const char    *entry;
    guint64        offset;
    const char    *line;
  } cases[] = {
    { MSHED_SEVERITY_INFO, MSHED_CHECK_DFM_NAME_RESIDUE, NULL, 0x1E8C7,
      "info: M [dfm-name-residue, offset 0x1E8C7]" },
    { MSHED_SEVERITY_ERROR, MSHED_CHECK_NRES_MAGIC, "a.msh", 0,
      "error: a.msh: M [nres-magic, offset 0x0]" },
    { MSHED_SEVERITY_WARNING, MSHED_CHECK_DFM_MATERIAL_UNRESOLVED, NULL, G_MAXUINT64,
      "warning: M [dfm-material-unresolved, offset 0xFFFFFFFFFFFFFFFF]" },
    { MSHED_SEVERITY_INFO, (MshedCheck) 9999, NULL, 0xA0,
      "info: M [unknown, offset 0xA0]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      MshedDiagnostic d = { 0 };
      g_autofree char *line = NULL;
      g_autoptr(GString) s = g_string_new ("x: ");

      d.severity = cases[i].severity;
      d.check = cases[i].check;
      d.entry = (char *) cases[i].entry;
      d.offset = cases[i].offset;
      d.message = (char *) "M";
      line = mshed_diagnostic_format (&d);
      g_assert_cmpstr (line, ==, cases[i].line);
      mshed_diagnostic_append_format (s, &d);
      g_assert_cmpstr (s->str + 3, ==, cases[i].line);
    }
  g_assert_cmpstr (mshed_check_to_string (MSHED_CHECK_NRES_TOO_SHORT), ==, "nres-too-short");
  g_assert_cmpstr (mshed_check_to_string (MSHED_CHECK_DFM_MATERIAL_UNRESOLVED), ==,
                   "dfm-material-unresolved");
  g_assert_cmpstr (mshed_check_to_string ((MshedCheck) 0), ==, "unknown");
  g_assert_cmpstr (mshed_check_to_string ((MshedCheck) -1), ==, "unknown");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/validate/format-line", test_format_line);

  g_test_add_func ("/model/validate/valid", test_valid);
  g_test_add_func ("/model/validate/legacy-nodes", test_legacy_nodes);
  g_test_add_func ("/model/validate/missing-type", test_missing);
  for (guint i = 0; i < G_N_ELEMENTS (defects); i++)
    {
      g_autofree char *path = g_strdup_printf ("/model/validate/defect/%s", defects[i].name);
      g_test_add_data_func (path, &defects[i], test_defect);
    }
  g_test_add_func ("/model/validate/messages", test_messages);
  g_test_add_func ("/model/validate/base-offset", test_base_offset);
  g_test_add_func ("/model/validate/no-exemptions", test_no_exemptions);
  g_test_add_func ("/model/validate/report-limit", test_report_limit);
  g_test_add_func ("/model/validate/scan-positions", test_scan_positions);
  g_test_add_func ("/model/validate/bitflips", test_bitflips);
  g_test_add_func ("/model/validate/layout/canonical", test_layout_canonical);
  g_test_add_func ("/model/validate/layout/sort-order", test_layout_sort_order);
  g_test_add_func ("/model/validate/layout/padding", test_layout_padding);
  g_test_add_func ("/model/validate/layout/alignment", test_layout_alignment);
  g_test_add_func ("/model/validate/layout/alignment-4", test_layout_alignment4);
  g_test_add_func ("/model/validate/layout/overlap", test_layout_overlap);
  g_test_add_func ("/model/validate/layout/out-of-order", test_layout_out_of_order);
  g_test_add_func ("/model/validate/layout/gap", test_layout_gap);

  return g_test_run ();
}
