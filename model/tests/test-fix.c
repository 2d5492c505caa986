/* test-fix.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reviewable fixes (mshed-fix.h): every fix kind on a planted defect. The plan lists exactly
 * the expected changes (the new values come from the spec's rules applied by hand: the table
 * sizes, the sentinel 0xFFFF, or the value the generator wrote before the defect was planted);
 * after applying it the check is gone, the bytes differ only inside the fixed fields, and one
 * undo restores the planted bytes exactly. The plan text reads back to the same plan, an
 * edited plan (a line removed) applies the rest, and a stale plan is refused untouched.
 */
#include "config.h"

#include <string.h>

#include "mshed-dfm-generator.h"
#include "mshed-document.h"
#include "mshed-error.h"
#include "mshed-fix.h"
#include "mshed-generator.h"
#include "mshed-schema.h"
#include "mshed-validate.h"

typedef struct {
  MshedTableId table;
  guint        row;
  const char  *field;
  char        *new_value;
} Expect;

typedef struct {
  GByteArray *bytes;   /* the model, defect planted */
  MshedModel *model;   /* the unplanted model (offsets, sizes, the generator's values) */
  GArray     *expect;  /* Expect */
  MshedCheck  check;
} Case;

static void
case_clear (Case *c)
{
  g_byte_array_unref (c->bytes);
  g_clear_pointer (&c->model, mshed_model_unref);
  for (guint i = 0; i < c->expect->len; i++)
    g_free (g_array_index (c->expect, Expect, i).new_value);
  g_array_unref (c->expect);
}

static void
case_init (Case       *c,
           gboolean    animated,
           MshedCheck  check)
{
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  mshed_gen_params_init (&p, 41);
  p.n_triangles = 600;
  p.n_nodes = 6;
  p.animated = animated;
  bytes = mshed_generate_model_bytes (&p);
  c->model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  c->bytes = g_byte_array_new ();
  g_byte_array_append (c->bytes, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  c->expect = g_array_new (FALSE, TRUE, sizeof (Expect));
  c->check = check;
}

static const MshedField *
field_of (MshedTableId table,
          const char  *name)
{
  const MshedField *f = mshed_schema_find_field (mshed_schema_get_table (table), name);

  g_assert_nonnull (f);
  return f;
}

/* The file offset of a field (the model is loose: its NRes starts the file). */
static gsize
field_offset (MshedModel   *model,
              MshedTableId  table,
              guint         row,
              const char   *name)
{
  return mshed_model_get_record_offset (model, table, row) + field_of (table, name)->offset;
}

static double
get (Case         *c,
     MshedTableId  table,
     guint         row,
     const char   *name)
{
  gsize off = mshed_model_get_record_offset (c->model, table, row);

  return mshed_field_read (field_of (table, name), c->bytes->data + off);
}

static void
plant (Case         *c,
       MshedTableId  table,
       guint         row,
       const char   *name,
       double        value)
{
  gsize off = mshed_model_get_record_offset (c->model, table, row);

  mshed_field_write (field_of (table, name), c->bytes->data + off, value);
}

static void
expect (Case         *c,
        MshedTableId  table,
        guint         row,
        const char   *field,
        const char   *format,
        ...) G_GNUC_PRINTF (5, 6);

static void
expect (Case         *c,
        MshedTableId  table,
        guint         row,
        const char   *field,
        const char   *format,
        ...)
{
  Expect e = { table, row, field, NULL };
  va_list ap;

  va_start (ap, format);
  e.new_value = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_array_append_val (c->expect, e);
}

static guint
count_check (GBytes     *bytes,
             MshedCheck  check)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, diags,
                                                            NULL);
  guint n = 0;

  g_assert_nonnull (model);
  mshed_diagnostics_clear (diags);
  mshed_validate_model (model, MSHED_MODE_STRICT, diags);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    n += mshed_diagnostics_get (diags, i)->check == check;
  return n;
}

static MshedDocument *
open_planted (Case *c)
{
  g_autoptr(GBytes) bytes = g_bytes_new (c->bytes->data, c->bytes->len);
  g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL,
                                                            NULL);

  g_assert_nonnull (model);
  return mshed_document_new_for_model (model, MSHED_MODE_TOLERANT);
}

static GBytes *
doc_bytes (MshedDocument *doc)
{
  return mshed_model_serialize (mshed_document_get_model (doc));
}

/* Plan, apply, compare, undo. */
static void
run_case (Case *c)
{
  g_autoptr(GBytes) planted = g_bytes_new (c->bytes->data, c->bytes->len);
  g_autoptr(MshedDocument) doc = open_planted (c);
  g_autoptr(MshedDocument) doc2 = open_planted (c);
  g_autoptr(MshedFixPlan) plan = NULL;
  g_autoptr(GPtrArray) parsed = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) after2 = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *a, *b;
  gsize size;

  g_assert_cmpuint (count_check (planted, c->check), >, 0);
  plan = mshed_fix_plan (doc, mshed_document_get_diagnostics (doc), "model.msh");
  mshed_fix_plan_write (plan, text);
  g_test_message ("%s", text->str);
  g_assert_cmpuint (plan->notes->len, ==, 0);
  g_assert_cmpuint (plan->changes->len, ==, c->expect->len);
  for (guint i = 0; i < c->expect->len; i++)
    {
      const Expect *e = &g_array_index (c->expect, Expect, i);
      gboolean found = FALSE;

      for (guint j = 0; j < plan->changes->len; j++)
        {
          const MshedFixChange *ch = g_ptr_array_index (plan->changes, j);

          if (ch->table == e->table && ch->row == e->row && strcmp (ch->field, e->field) == 0)
            {
              g_assert_cmpstr (ch->new_value, ==, e->new_value);
              found = TRUE;
            }
        }
      g_assert_true (found);
    }

  before = doc_bytes (doc);
  g_assert_true (g_bytes_equal (before, planted));
  g_assert_true (mshed_fix_plan_apply (doc, plan, &error));
  g_assert_no_error (error);
  after = doc_bytes (doc);
  g_assert_cmpuint (count_check (after, c->check), ==, 0);

  /* nothing but the fixed fields changed */
  a = g_bytes_get_data (before, &size);
  b = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (g_bytes_get_size (after), ==, size);
  for (gsize i = 0; i < size; i++)
    if (a[i] != b[i])
      {
        gboolean inside = FALSE;

        for (guint j = 0; j < c->expect->len && !inside; j++)
          {
            const Expect *e = &g_array_index (c->expect, Expect, j);
            gsize off = field_offset (c->model, e->table, e->row, e->field);

            inside = i >= off && i < off + mshed_field_type_size (field_of (e->table,
                                                                              e->field)->type);
          }
        if (!inside)
          g_error ("byte 0x%" G_GSIZE_MODIFIER "x changed outside the fixed fields", i);
      }

  /* one undo step restores the planted bytes */
  g_assert_true (mshed_document_undo (doc));
  undone = doc_bytes (doc);
  g_assert_true (g_bytes_equal (undone, planted));
  g_assert_false (mshed_document_can_undo (doc));

  /* the text reads back to a plan that does the same */
  parsed = mshed_fix_plans_parse (text->str, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parsed->len, ==, 1);
  g_assert_true (mshed_fix_plan_apply (doc2, g_ptr_array_index (parsed, 0), &error));
  g_assert_no_error (error);
  after2 = doc_bytes (doc2);
  g_assert_true (g_bytes_equal (after2, after));
}

static guint
n_rows (Case         *c,
        MshedTableId  table)
{
  return mshed_model_get_n_rows (c->model, table);
}

static void
test_slot_batch_range (void)
{
  Case c;

  case_init (&c, FALSE, MSHED_CHECK_SLOT_BATCH_RANGE);
  plant (&c, MSHED_TABLE_SLOTS, 1, "batchCount", 9000);
  /* clamped: the batches from batchStart to the end of Res13 */
  expect (&c, MSHED_TABLE_SLOTS, 1, "batchCount", "%u",
          n_rows (&c, MSHED_TABLE_BATCHES) - (guint) get (&c, MSHED_TABLE_SLOTS, 1,
                                                             "batchStart"));
  run_case (&c);
  case_clear (&c);
}

static void
test_slot_tri_range (void)
{
  Case c;

  case_init (&c, FALSE, MSHED_CHECK_SLOT_TRI_RANGE);
  plant (&c, MSHED_TABLE_SLOTS, 0, "triStart", 60000);
  /* a start past the end: an empty range at the end */
  expect (&c, MSHED_TABLE_SLOTS, 0, "triStart", "%u", n_rows (&c, MSHED_TABLE_TRIS));
  expect (&c, MSHED_TABLE_SLOTS, 0, "triCount", "0");
  run_case (&c);
  case_clear (&c);
}

static void
test_batch_index_range (void)
{
  guint n;
  Case c;

  case_init (&c, FALSE, MSHED_CHECK_BATCH_INDEX_RANGE);
  n = n_rows (&c, MSHED_TABLE_INDICES);
  plant (&c, MSHED_TABLE_BATCHES, 0, "indexStart", n - 6);
  plant (&c, MSHED_TABLE_BATCHES, 0, "indexCount", 30);
  /* cut to the 6 indices left: two whole triangles */
  expect (&c, MSHED_TABLE_BATCHES, 0, "indexCount", "6");
  run_case (&c);
  case_clear (&c);
}

/* A reference to nothing becomes the sentinel 0xFFFF ("none", docs/msh.md §4). */
static void
sentinel_case (gboolean      animated,
               MshedCheck    check,
               MshedTableId  table,
               guint         row,
               const char   *field,
               double        value)
{
  Case c;

  case_init (&c, animated, check);
  plant (&c, table, row, field, value);
  expect (&c, table, row, field, "none");
  run_case (&c);
  case_clear (&c);
}

static void
test_node_slot (void)
{
  sentinel_case (FALSE, MSHED_CHECK_NODE_SLOT, MSHED_TABLE_NODES, 0, "slot0", 7000);
}

static void
test_node_parent (void)
{
  sentinel_case (FALSE, MSHED_CHECK_NODE_PARENT, MSHED_TABLE_NODES, 2, "hdr1", 5000);
}

static void
test_node_map (void)
{
  sentinel_case (TRUE, MSHED_CHECK_NODE_MAP, MSHED_TABLE_NODES, 1, "hdr2", 60000);
}

static void
test_tri_link (void)
{
  Case c;
  const MshedTableInfo *tris = mshed_schema_get_table (MSHED_TABLE_TRIS);

  case_init (&c, FALSE, MSHED_CHECK_TRI_LINK);
  plant (&c, MSHED_TABLE_TRIS, 3, tris->fields[1].name, 60000);
  expect (&c, MSHED_TABLE_TRIS, 3, tris->fields[1].name, "none");
  run_case (&c);
  case_clear (&c);
}

/* A directory attribute of resource @type off by @delta: recomputed, the value the generator
 * wrote comes back. */
static void
attribute_case (gboolean    animated,
                MshedCheck  check,
                guint32     type,
                const char *field,
                gint        delta)
{
  gint index;
  guint32 value;
  Case c;

  case_init (&c, animated, check);
  index = mshed_model_find_resource (c.model, type);
  g_assert_cmpint (index, >=, 0);
  value = (guint32) get (&c, MSHED_TABLE_DIRECTORY, (guint) index, field);
  plant (&c, MSHED_TABLE_DIRECTORY, (guint) index, field, (double) value + delta);
  expect (&c, MSHED_TABLE_DIRECTORY, (guint) index, field, "%u", value);
  run_case (&c);
  case_clear (&c);
}

/* Stale attributes (docs/msh.md §3): the batch count of Res13. */
static void
test_attributes (void)
{
  attribute_case (FALSE, MSHED_CHECK_ATTR1, 13, "attr1", 5);
}

/* A wrong frame count (Res19 attr2): recomputed from the key times (docs/msh.md §7.7). */
static void
test_anim_frames (void)
{
  attribute_case (TRUE, MSHED_CHECK_ANIM_FRAMES, 19, "attr2", -1);
}

/* A slot box with min > max: the box of its vertices, as the generator wrote it. */
static void
test_slot_box (void)
{
  g_autofree char *min_x = NULL;
  const MshedField *f;
  Case c;

  case_init (&c, FALSE, MSHED_CHECK_SLOT_AABB_ORDER);
  f = mshed_schema_get_table (MSHED_TABLE_SLOTS)->fields + 4;
  min_x = mshed_field_format (f, mshed_model_get_record (c.model, MSHED_TABLE_SLOTS, 2));
  plant (&c, MSHED_TABLE_SLOTS, 2, f->name, 1e6);
  expect (&c, MSHED_TABLE_SLOTS, 2, f->name, "%s", min_x);
  run_case (&c);
  case_clear (&c);
}

/* A plan whose old value no longer matches is refused, and nothing changes. */
static void
test_stale_plan (void)
{
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(MshedFixPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  Case c;

  case_init (&c, FALSE, MSHED_CHECK_NODE_SLOT);
  plant (&c, MSHED_TABLE_NODES, 0, "slot0", 7000);
  plant (&c, MSHED_TABLE_NODES, 1, "slot0", 7001);
  doc = open_planted (&c);
  plan = mshed_fix_plan (doc, mshed_document_get_diagnostics (doc), "model.msh");
  g_assert_cmpuint (plan->changes->len, ==, 2);
  g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_NODES, 1, "slot0", 7002, NULL));
  before = doc_bytes (doc);
  g_assert_false (mshed_fix_plan_apply (doc, plan, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "nodes[1].slot0 is 7002, not 7001"));
  after = doc_bytes (doc);
  g_assert_true (g_bytes_equal (before, after));
  case_clear (&c);
}

/* An edited plan: the line of one change removed, the other applied. */
static void
test_edited_plan (void)
{
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(MshedFixPlan) plan = NULL;
  g_autoptr(GPtrArray) parsed = NULL;
  g_autoptr(GString) text = g_string_new (mshed_fix_plan_header ());
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *edited = NULL;
  MshedModel *model;
  Case c;

  case_init (&c, FALSE, MSHED_CHECK_NODE_SLOT);
  plant (&c, MSHED_TABLE_NODES, 0, "slot0", 7000);
  plant (&c, MSHED_TABLE_NODES, 1, "slot0", 7001);
  doc = open_planted (&c);
  plan = mshed_fix_plan (doc, mshed_document_get_diagnostics (doc), "model.msh");
  mshed_fix_plan_write (plan, text);
  lines = g_strsplit (text->str, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[2], "model.msh\tnodes[0].slot0: 7000 -> none\t# "));
  g_assert_true (g_str_has_prefix (lines[3], "model.msh\tnodes[1].slot0: 7001 -> none\t# "));
  edited = g_strjoin ("\n", lines[0], lines[1], lines[3], NULL);
  parsed = mshed_fix_plans_parse (edited, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_fix_plan_apply (doc, g_ptr_array_index (parsed, 0), &error));
  model = mshed_document_get_model (doc);
  g_assert_cmpuint (mshed_model_get_record (model, MSHED_TABLE_NODES, 0)[8] |
                    mshed_model_get_record (model, MSHED_TABLE_NODES, 0)[9] << 8, ==, 7000);
  g_assert_cmpuint (mshed_model_get_record (model, MSHED_TABLE_NODES, 1)[8] |
                    mshed_model_get_record (model, MSHED_TABLE_NODES, 1)[9] << 8, ==, 0xFFFF);
  case_clear (&c);

  /* malformed lines are refused with their number */
  g_clear_pointer (&parsed, g_ptr_array_unref);
  parsed = mshed_fix_plans_parse ("# c\nmodel.msh\tnodes[x].slot0: 1 -> 2\n", &error);
  g_assert_null (parsed);
  g_assert_nonnull (strstr (error->message, "line 2"));
}

/* A clean model has nothing to fix. */
static void
test_clean (void)
{
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(MshedFixPlan) plan = NULL;
  Case c;

  case_init (&c, TRUE, MSHED_CHECK_NODE_SLOT);
  doc = open_planted (&c);
  plan = mshed_fix_plan (doc, mshed_document_get_diagnostics (doc), "model.msh");
  g_assert_cmpuint (plan->changes->len, ==, 0);
  case_clear (&c);
}

/* A deformable model: a wrong Face_groups/Count and a wrong part Index (docs/dfm.md §4, §8)
 * come back as the directories say; the lines name the file paths; nothing else changes. */
static void
test_dfm (void)
{
  static const char *const paths[] = {
    "\\MultiLevel\\Mesh1\\Face_groups\\Count", "\\Cmpnd\\Part_Spine2\\Index",
  };
  static const char *const fields[] = { "count", "index" };
  static const char *const planted[] = { "7", "9" };
  static const char *const fixed[] = { "1", "2" };  /* one Group directory; bone 2 */
  MshedDfmGenParams gp;
  g_autoptr(MshedUtf) gen = NULL;
  g_autoptr(MshedDocument) gen_doc = NULL;
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedFixPlan) plan = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *a, *b;
  gsize size;
  guint n_diff = 0;

  mshed_dfm_gen_params_init (&gp, MSHED_DFM_GEN_BODY, 7);
  gen = mshed_dfm_generate (&gp);
  gen_doc = mshed_document_new_for_utf (gen, MSHED_MODE_TOLERANT);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      MshedUtfNode *node = mshed_utf_lookup (mshed_document_get_utf (gen_doc), paths[i]);

      g_assert_nonnull (node);
      g_assert_true (mshed_document_dfm_set_field (gen_doc, node, 0, fields[i], planted[i],
                                                   &error));
      g_assert_no_error (error);
    }
  before = mshed_document_serialize (gen_doc);
  utf = mshed_utf_parse (before, MSHED_MODE_TOLERANT, NULL, &error);
  g_assert_no_error (error);
  doc = mshed_document_new_for_utf (utf, MSHED_MODE_TOLERANT);
  g_assert_nonnull (mshed_document_get_dfm (doc));
  plan = mshed_fix_plan (doc, mshed_document_get_diagnostics (doc), "body.dfm");
  g_assert_cmpuint (plan->changes->len, ==, G_N_ELEMENTS (paths));
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      const MshedFixChange *c = g_ptr_array_index (plan->changes, i);

      g_assert_cmpstr (c->node, ==, paths[i]);
      g_assert_cmpuint (c->row, ==, 0);
      g_assert_cmpstr (c->field, ==, fields[i]);
      g_assert_cmpstr (c->old_value, ==, planted[i]);
      g_assert_cmpstr (c->new_value, ==, fixed[i]);
    }
  g_assert_cmpstr (((MshedFixChange *) g_ptr_array_index (plan->changes, 1))->fix, ==,
                   "dfm-part-index");
  g_assert_true (mshed_fix_plan_apply (doc, plan, &error));
  g_assert_no_error (error);
  g_assert_null (mshed_diagnostics_find (mshed_document_get_diagnostics (doc),
                                         MSHED_CHECK_DFM_GROUP_COUNT));
  g_assert_null (mshed_diagnostics_find (mshed_document_get_diagnostics (doc),
                                         MSHED_CHECK_DFM_PART_INDEX));
  after = mshed_document_serialize (doc);
  a = g_bytes_get_data (before, &size);
  b = g_bytes_get_data (after, NULL);
  g_assert_cmpuint (g_bytes_get_size (after), ==, size);
  for (gsize i = 0; i < size; i++)
    n_diff += a[i] != b[i];
  /* two little-endian values below 256: one byte each */
  g_assert_cmpuint (n_diff, ==, 2);
  g_assert_true (mshed_document_undo (doc));
  undone = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (undone, before));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fix/slot-batch-range", test_slot_batch_range);
  g_test_add_func ("/fix/slot-tri-range", test_slot_tri_range);
  g_test_add_func ("/fix/batch-index-range", test_batch_index_range);
  g_test_add_func ("/fix/node-slot", test_node_slot);
  g_test_add_func ("/fix/node-parent", test_node_parent);
  g_test_add_func ("/fix/node-map", test_node_map);
  g_test_add_func ("/fix/tri-link", test_tri_link);
  g_test_add_func ("/fix/attributes", test_attributes);
  g_test_add_func ("/fix/anim-frames", test_anim_frames);
  g_test_add_func ("/fix/slot-box", test_slot_box);
  g_test_add_func ("/fix/stale-plan", test_stale_plan);
  g_test_add_func ("/fix/edited-plan", test_edited_plan);
  g_test_add_func ("/fix/clean", test_clean);
  g_test_add_func ("/fix/dfm", test_dfm);
  return g_test_run ();
}
