/* test-cli-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * mshed-cli on Freelancer deformable models (docs/dfm.md), run as a user runs it: generate
 * --dfm of every kind, round trip, validate with planted defects (--json), validate of a
 * folder that mixes NRes, DFM and other UTF files, info, and dump of every DFM table. Expected
 * values are decoded from the file's bytes with the layouts of docs/dfm.md written out here,
 * never through the DFM view.
 */
#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-utf-generator.h"
#include "mshed-utf.h"
#include "test-cli-util.h"

static const char *const kinds[] = { "head", "body", "hand", "four-level" };

static MshedUtf *
read_tree (const char *name)
{
  return read_utf_tree (name, MSHED_MODE_TOLERANT);
}

/* where @path's payload starts in the file @utf was read from */
static gsize
payload_offset (MshedUtf   *utf,
                const char *path)
{
  MshedUtfNode *node = mshed_utf_lookup (utf, path);
  const guint8 *base = g_bytes_get_data (mshed_utf_get_source (utf), NULL);
  gsize size = 0;
  const guint8 *data;

  g_assert_nonnull (node);
  data = mshed_utf_node_peek_data (node, &size);
  return (gsize) (data - base);
}

static void
generate (const char *kind,
          const char *extra,
          const char *output)
{
  Run run = { 0 };

  run_cli (&run, "generate", "--dfm", kind, "--seed", "7", extra ? extra : "-q", "-q", "-o",
           output, NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
}

/* Every kind: deterministic, strictly valid with notes only, and written back byte for byte
 * by roundtrip. */
static void
test_generate_roundtrip (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *a = g_strdup_printf ("%s-a.dfm", kinds[k]);
      g_autofree char *b = g_strdup_printf ("%s-b.dfm", kinds[k]);
      g_autoptr(GBytes) ba = NULL;
      g_autoptr(GBytes) bb = NULL;
      g_autoptr(MshedUtf) utf = NULL;
      g_autofree char *ok = NULL;
      Run run = { 0 };

      generate (kinds[k], NULL, a);
      generate (kinds[k], NULL, b);
      ba = read_file (a);
      bb = read_file (b);
      g_assert_true (g_bytes_equal (ba, bb));
      utf = read_tree (a);
      /* four levels: \MultiLevel\Mesh3 and no Mesh4 (docs/dfm.md §3) */
      g_assert_nonnull (mshed_utf_lookup (utf, "\\MultiLevel\\Mesh3"));
      g_assert_true ((mshed_utf_lookup (utf, "\\MultiLevel\\Mesh4") == NULL) ==
                     (strcmp (kinds[k], "four-level") == 0));

      run_cli (&run, "roundtrip", a, NULL);
      g_assert_cmpint (run.status, ==, 0);
      ok = g_strdup_printf ("%s: OK, %zu bytes identical", a, g_bytes_get_size (ba));
      g_assert_nonnull (strstr (run.out, ok));
      run_clear (&run);

      run_cli (&run, "validate", "--strict", "--json", a, NULL);
      g_assert_cmpint (run.status, ==, 0);
      {
        g_autoptr(JsonNode) root = parse_json (run.out);
        JsonObject *summary = json_object_get_object_member (json_node_get_object (root),
                                                             "summary");
        JsonArray *files = json_object_get_array_member (json_node_get_object (root),
                                                         "files");

        g_assert_cmpint (json_object_get_int_member (summary, "errors"), ==, 0);
        g_assert_cmpint (json_object_get_int_member (summary, "warnings"), ==, 0);
        g_assert_cmpint (json_object_get_int_member (summary, "dfm"), ==, 1);
        g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (files,
                                                                                       0),
                                                        "kind"), ==, "dfm");
      }
      run_clear (&run);
    }
}

/* A 32-bit value planted in the file at @offset. */
static GBytes *
patch_u32 (GBytes *bytes,
           gsize   offset,
           guint32 value)
{
  gsize size = g_bytes_get_size (bytes);
  guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, NULL), size);

  g_assert_cmpuint (offset + 4, <=, size);
  mshed_write_u32 (copy + offset, value);
  return g_bytes_new_take (copy, size);
}

/* One planted defect: a record of a table given an index out of range; validate --json must
 * name the check, the node path, the table, the record, the field and the byte offset. */
static void
check_planted (const char *path,
               guint       record,
               guint       stride,
               const char *check,
               const char *table,
               const char *field)
{
  g_autoptr(MshedUtf) utf = read_tree ("planted-base.dfm");
  g_autoptr(GBytes) bytes = read_file ("planted-base.dfm");
  gsize offset = payload_offset (utf, path) + (gsize) record * stride;
  g_autoptr(GBytes) bad = patch_u32 (bytes, offset, 60000);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *diags;
  gboolean found = FALSE;
  Run run = { 0 };

  write_file ("planted.dfm", bad);
  run_cli (&run, "validate", "--json", "planted.dfm", NULL);
  g_assert_cmpint (run.status, ==, 1);
  root = parse_json (run.out);
  diags = json_object_get_array_member (json_node_get_object (root), "diagnostics");
  for (guint i = 0; i < json_array_get_length (diags); i++)
    {
      JsonObject *d = json_array_get_object_element (diags, i);

      if (strcmp (json_object_get_string_member (d, "check"), check) != 0)
        continue;
      found = TRUE;
      g_assert_cmpstr (json_object_get_string_member (d, "severity"), ==, "error");
      g_assert_cmpstr (json_object_get_string_member (d, "path"), ==, path);
      g_assert_cmpstr (json_object_get_string_member (d, "table"), ==, table);
      g_assert_cmpint (json_object_get_int_member (d, "record"), ==, record);
      g_assert_cmpstr (json_object_get_string_member (d, "field"), ==, field);
      g_assert_cmpint (json_object_get_int_member (d, "offset"), ==, offset);
    }
  g_assert_true (found);
  run_clear (&run);

  /* the text form: the path, the check id and the offset on one line */
  run_cli (&run, "validate", "--tolerant", "planted.dfm", NULL);
  g_assert_cmpint (run.status, ==, 1);
  {
    g_autofree char *tail = g_strdup_printf ("[%s, offset 0x%zX]", check, offset);

    g_assert_nonnull (strstr (run.out, tail));
    g_assert_nonnull (strstr (run.out, path));
  }
  run_clear (&run);
}

static void
test_validate_planted (void)
{
  generate ("body", NULL, "planted-base.dfm");
  /* docs/dfm.md §14 rule 8: Point_indices ≥ P, UV0_indices ≥ UV0, a bone id ≥ the bones */
  check_planted ("\\MultiLevel\\Mesh0\\Geometry\\Point_indices", 5, 4,
                 "dfm-point-index-range", "point-indices", "point");
  check_planted ("\\MultiLevel\\Mesh1\\Geometry\\UV0_indices", 3, 4,
                 "dfm-uv-index-range", "uv0-indices", "uv");
  check_planted ("\\MultiLevel\\Mesh0\\Geometry\\Bone_id_chain", 2, 4,
                 "dfm-bone-id-range", "bone-id-chain", "bone");
}

/* A folder of a model, an archive, a DFM, another UTF file and a text file, on one thread and
 * on four: every UTF file checked, counted and printed the same way. */
static void
test_validate_mixed (void)
{
  g_autofree char *dir = path_in_tmp ("mixed");
  g_autofree char *sub = path_in_tmp ("mixed/sub");
  MshedUtfGenParams gp = { 0 };
  g_autoptr(GBytes) cmp = NULL;
  g_autoptr(GBytes) dfm = NULL;
  Run one = { 0 }, four = { 0 }, json = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *summary;
  JsonArray *files;

  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  run_cli (&one, "generate", "-q", "-o", "mixed/a.msh", NULL);
  g_assert_cmpint (one.status, ==, 0);
  run_clear (&one);
  run_cli (&one, "generate", "-q", "--archive", "2", "-o", "mixed/sub/b.rlb", NULL);
  g_assert_cmpint (one.status, ==, 0);
  run_clear (&one);
  generate ("hand", NULL, "mixed/sub/c.dfm");
  /* a generic tree without the signs of a DFM (a Skeleton directory, MultiLevel\Mesh0) */
  gp.n_nodes = 30;
  for (gp.seed = 5;; gp.seed++)
    {
      g_autoptr(MshedUtf) tree = mshed_utf_generate_tree (&gp);

      if (mshed_utf_lookup (tree, "\\Skeleton") || mshed_utf_lookup (tree, "\\MultiLevel"))
        continue;
      cmp = mshed_utf_generate (&gp);
      break;
    }
  write_file ("mixed/d.cmp", cmp);
  g_assert_true (write_text ("mixed/e.txt", "neither NRes nor UTF\n"));

  run_cli (&one, "validate", "--jobs", "1", dir, NULL);
  run_cli (&four, "validate", "--jobs", "4", dir, NULL);
  g_assert_cmpint (one.status, ==, 0);
  g_assert_cmpstr (one.out, ==, four.out);
  g_assert_true (g_str_has_suffix (one.out, "4 files, 3 models, 1 DFM model, 1 other UTF "
                                            "file: 0 errors, 0 warnings\n"));
  g_assert_nonnull (strstr (one.out, "c.dfm: info:"));  /* the notes of a DFM (docs/dfm.md §14) */

  run_cli (&json, "validate", "--json", dir, NULL);
  root = parse_json (json.out);
  summary = json_object_get_object_member (json_node_get_object (root), "summary");
  g_assert_cmpint (json_object_get_int_member (summary, "files"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (summary, "models"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (summary, "dfm"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (summary, "utf"), ==, 1);
  files = json_object_get_array_member (json_node_get_object (root), "files");
  g_assert_cmpuint (json_array_get_length (files), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (files, 1),
                                                  "kind"), ==, "utf");  /* d.cmp */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (files, 3),
                                                  "kind"), ==, "dfm");  /* sub/c.dfm */

  /* a broken UTF container: utf-* errors (docs/utf.md §9), counted as a UTF file */
  dfm = patch_u32 (cmp, 4, 0x999);  /* version */
  write_file ("mixed/d.cmp", dfm);
  run_clear (&one);
  run_cli (&one, "validate", "--json", "mixed/d.cmp", NULL);
  g_assert_cmpint (one.status, ==, 1);
  g_assert_nonnull (strstr (one.out, "\"check\" : \"utf-version\""));
  run_clear (&one);
  run_clear (&four);
  run_clear (&json);
}

static void
test_info (void)
{
  Run run = { 0 };

  generate ("head", NULL, "info.dfm");
  run_cli (&run, "info", "info.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Kind:        deformable model (DFM)"));
  g_assert_nonnull (strstr (run.out, "Levels:      6\n"));
  g_assert_nonnull (strstr (run.out, "\n      0  1    "));
  g_assert_nonnull (strstr (run.out, "\n      5  0.1  "));  /* docs/dfm.md §3 */
  g_assert_nonnull (strstr (run.out, "Joints:"));
  g_assert_nonnull (strstr (run.out, "Hardpoints:"));
  run_clear (&run);
}

/* Nodes the generator never writes, so that every table has a record: a Face_indices list,
 * Fix, Rev, Pris and Cyl joints, a revolute hardpoint. Each float is 1000 + its offset. */
static GBytes *
record_of (gsize size)
{
  guint8 *data = g_malloc0 (size);

  for (gsize o = 128; o + 4 <= size; o += 4)
    {
      float v = 1000.0f + (float) o;

      memcpy (data + o, &v, 4);
    }
  if (size >= 128)
    {
      memcpy (data, "Root", 5);
      memcpy (data + 64, "Part_x", 7);
    }
  return g_bytes_new_take (data, size);
}

static void
add_file (MshedUtf     *utf,
          MshedUtfNode *dir,
          const char   *name,
          GBytes       *data)
{
  g_autoptr(GError) error = NULL;
  MshedUtfNode *node = mshed_utf_node_new_file (utf, name, data);

  g_assert_true (mshed_utf_insert_child (utf, dir, mshed_utf_node_get_n_children (dir), node,
                                         &error));
  g_assert_no_error (error);
}

static MshedUtfNode *
add_dir (MshedUtf     *utf,
         MshedUtfNode *parent,
         const char   *name)
{
  g_autoptr(GError) error = NULL;
  MshedUtfNode *node = mshed_utf_node_lookup (parent, name);

  if (node)
    return node;
  node = mshed_utf_node_new_directory (utf, name);
  g_assert_true (mshed_utf_insert_child (utf, parent, mshed_utf_node_get_n_children (parent),
                                         node, &error));
  g_assert_no_error (error);
  return node;
}

static void
make_all_tables (void)
{
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  static const guint16 list[6] = { 0, 1, 2, 1, 3, 2 };
  static const struct { const char *name; gsize size; } joints[] = {
    { "Fix", 176 }, { "Rev", 208 }, { "Pris", 208 }, { "Cyl", 216 },
  };
  MshedUtfNode *cons, *bone = NULL, *hp;

  generate ("head", "--uv1", "all-base.dfm");
  utf = read_tree ("all-base.dfm");
  {
    g_autoptr(GBytes) faces = g_bytes_new (list, sizeof list);

    add_file (utf, mshed_utf_lookup (utf, "\\MultiLevel\\Mesh0\\Face_groups\\Group0"),
              "Face_indices", faces);
  }
  {
    /* Edge data as docs/dfm.md §4 lays it out: two u16 per edge, one float per edge */
    static const guint16 edges[4] = { 1, 2, 2, 3 };
    static const float angles[2] = { 0.5f, 1.25f };
    g_autoptr(GBytes) e = g_bytes_new (edges, sizeof edges);
    g_autoptr(GBytes) a = g_bytes_new (angles, sizeof angles);
    MshedUtfNode *g1 = mshed_utf_lookup (utf, "\\MultiLevel\\Mesh0\\Face_groups\\Group1");

    if (mshed_utf_node_lookup (g1, "Edge_indices") == NULL)
      {
        add_file (utf, g1, "Edge_indices", e);
        add_file (utf, g1, "Edge_angles", a);
      }
  }
  cons = mshed_utf_lookup (utf, "\\Cmpnd\\Cons");
  for (guint i = 0; i < G_N_ELEMENTS (joints); i++)
    {
      g_autoptr(GBytes) r = record_of (joints[i].size);

      add_file (utf, cons, joints[i].name, r);
    }
  for (MshedUtfNode *n = mshed_utf_node_get_first_child (mshed_utf_get_root (utf)); n;
       n = mshed_utf_node_get_next (n))
    if (g_str_has_suffix (mshed_utf_node_get_name (n), ".3db") && bone == NULL)
      bone = n;
  g_assert_nonnull (bone);
  hp = add_dir (utf, add_dir (utf, add_dir (utf, bone, "Hardpoints"), "Revolute"), "HpTest");
  {
    static const float pos[3] = { 1, 2, 3 }, axis[3] = { 0, 0.5f, 0.75f };
    static const float rot[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    static const float lo = -0.25f, hi = 0.5f;
    g_autoptr(GBytes) p = g_bytes_new (pos, sizeof pos);
    g_autoptr(GBytes) o = g_bytes_new (rot, sizeof rot);
    g_autoptr(GBytes) x = g_bytes_new (axis, sizeof axis);
    g_autoptr(GBytes) mn = g_bytes_new (&lo, 4);
    g_autoptr(GBytes) mx = g_bytes_new (&hi, 4);

    add_file (utf, hp, "Orientation", o);
    add_file (utf, hp, "Position", p);
    add_file (utf, hp, "Axis", x);
    add_file (utf, hp, "Max", mx);
    add_file (utf, hp, "Min", mn);
  }
  out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, &error);
  g_assert_no_error (error);
  write_file ("all.dfm", out);
}

/* docs/dfm.md's layouts: a field of each table, its byte offset in the record and its type
 * ('s' a string payload, 't' a NUL-padded text, 'f' float, 'u' u32, 'i' i32, 'h' u16, 'b' u8) */
static const struct {
  const char *table;
  const char *field;
  guint       offset;
  char        type;
} layouts[] = {
  { "exporter-version", "text", 0, 's' },    { "fractions", "fraction", 0, 'f' },
  { "group-count", "count", 0, 'i' },        { "material-name", "text", 0, 's' },
  { "tristrip", "index", 0, 'h' },           { "face-indices", "index", 0, 'h' },
  { "edge-indices", "b", 2, 'h' },           { "edge-angles", "angle", 0, 'f' },
  { "point-indices", "point", 0, 'u' },      { "uv0-indices", "uv", 0, 'u' },
  { "uv1-indices", "uv", 0, 'u' },           { "points", "z", 8, 'f' },
  { "point-bone-first", "first", 0, 'u' },   { "point-bone-count", "count", 0, 'u' },
  { "bone-id-chain", "bone", 0, 'u' },       { "bone-weight-chain", "weight", 0, 'f' },
  { "vertex-normals", "ny", 4, 'f' },        { "uv0", "v", 4, 'f' },
  { "uv1", "u", 0, 'f' },                    { "uv-bone-id", "uv_bone_id", 0, 'u' },
  { "uv-vertex-count", "uv_vertex_count", 0, 'u' },
  { "uv-plane-distance", "uv_plane_distance", 0, 'f' },
  { "bone-x-to-u-scale", "bone_x_to_u_scale", 0, 'f' },
  { "bone-y-to-v-scale", "bone_y_to_v_scale", 0, 'f' },
  { "min-du", "min_du", 0, 'f' },            { "max-du", "max_du", 0, 'f' },
  { "min-dv", "min_dv", 0, 'f' },            { "max-dv", "max_dv", 0, 'f' },
  { "uv-vertex-id", "uv", 0, 'u' },          { "uv-default-list", "v", 4, 'f' },
  { "skeleton-name", "text", 0, 's' },       { "scale", "scale", 0, 'f' },
  { "object-name", "text", 0, 's' },         { "file-name", "text", 0, 's' },
  { "part-index", "index", 0, 'i' },         { "cons-fix", "rot11", 156, 'f' },
  { "cons-rev", "axisY", 192, 'f' },         { "cons-pris", "max", 204, 'f' },
  { "cons-cyl", "maxRot", 212, 'f' },        { "cons-sphere", "maxZ", 208, 'f' },
  { "cons-loose", "child", 64, 't' },        { "bone-to-root", "tX", 36, 'f' },
  { "lod-bits", "bits", 0, 'b' },            { "hp-position", "y", 4, 'f' },
  { "hp-orientation", "r22", 32, 'f' },      { "hp-axis", "z", 8, 'f' },
  { "hp-min", "min", 0, 'f' },               { "hp-max", "max", 0, 'f' },
  { "material-count", "count", 0, 'i' },     { "material-type", "text", 0, 's' },
  { "material-dc", "g", 4, 'f' },            { "material-dt-name", "text", 0, 's' },
  { "material-dt-flags", "flags", 0, 'u' },
};

static double
member_number (JsonObject *o,
               const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  g_assert_nonnull (n);
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return (double) json_node_get_int (n);
  return json_node_get_double (n);
}

/* For every table: --list names it; --json row 0 is record 0 of the first node holding it,
 * at that payload's offset, and the field holds what the bytes say; the text form names the
 * field too. */
static void
test_dump_tables (void)
{
  g_autoptr(MshedUtf) utf = NULL;
  Run list = { 0 };

  make_all_tables ();
  utf = read_tree ("all.dfm");
  run_cli (&list, "dump", "--list", "all.dfm", NULL);
  g_assert_cmpint (list.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    {
      g_autoptr(JsonNode) root = NULL;
      JsonObject *doc, *row;
      const char *path;
      const guint8 *data;
      gsize size = 0;
      Run run = { 0 };

      g_test_message ("table %s", layouts[i].table);
      g_assert_nonnull (strstr (list.out, layouts[i].table));
      run_cli (&run, "dump", "all.dfm", "--table", layouts[i].table, "--json", "--range", "0",
               NULL);
      g_assert_cmpint (run.status, ==, 0);
      root = parse_json (run.out);
      doc = json_node_get_object (root);
      g_assert_cmpint (json_object_get_int_member (doc, "rows"), >, 0);
      row = json_array_get_object_element (json_object_get_array_member (doc, "records"), 0);
      g_assert_cmpint (json_object_get_int_member (row, "record"), ==, 0);
      path = json_object_get_string_member (row, "path");
      data = mshed_utf_node_peek_data (mshed_utf_lookup (utf, path), &size);
      g_assert_nonnull (data);
      g_assert_cmpint (json_object_get_int_member (row, "offset"), ==,
                       payload_offset (utf, path));
      data += layouts[i].offset;
      switch (layouts[i].type)
        {
        case 's':
        case 't':
          {
            gsize max = layouts[i].type == 's' ? size : 64;
            g_autofree char *text = g_strndup ((const char *) data, max);

            g_assert_cmpstr (json_object_get_string_member (row, layouts[i].field), ==, text);
          }
          break;
        case 'f':
          /* nine digits: the float back exactly (not the double) */
          g_assert_cmpfloat ((float) member_number (row, layouts[i].field), ==,
                             mshed_read_f32 (data));
          break;
        case 'u':
          g_assert_cmpfloat (member_number (row, layouts[i].field), ==,
                             (double) mshed_read_u32 (data));
          break;
        case 'i':
          g_assert_cmpfloat (member_number (row, layouts[i].field), ==,
                             (double) (gint32) mshed_read_u32 (data));
          break;
        case 'h':
          g_assert_cmpfloat (member_number (row, layouts[i].field), ==,
                             (double) mshed_read_u16 (data));
          break;
        default:
          g_assert_cmpfloat (member_number (row, layouts[i].field), ==, (double) data[0]);
        }
      run_clear (&run);

      run_cli (&run, "dump", "all.dfm", "-t", layouts[i].table, "-r", "0", NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, layouts[i].field));
      g_assert_nonnull (strstr (run.out, path));
      run_clear (&run);
    }
  /* the planted values, by hand: Fix rot11 = 1000 + 156; the revolute hardpoint's Min */
  {
    Run run = { 0 };

    run_cli (&run, "dump", "all.dfm", "-t", "cons-fix", NULL);
    g_assert_nonnull (strstr (run.out, "1156"));
    g_assert_nonnull (strstr (run.out, "Part_x"));
    run_clear (&run);
    run_cli (&run, "dump", "all.dfm", "-t", "hp-min", "--json", NULL);
    g_assert_nonnull (strstr (run.out, "\"min\": -0.25"));
    run_clear (&run);
    run_cli (&run, "dump", "all.dfm", "-t", "nodes", NULL);
    g_assert_cmpint (run.status, ==, 2);  /* an MSH table is no DFM table */
    run_clear (&run);
  }
  run_clear (&list);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!cli_test_init ())
    return 77;

  g_test_add_func ("/cli/dfm/generate-roundtrip", test_generate_roundtrip);
  g_test_add_func ("/cli/dfm/validate-planted", test_validate_planted);
  g_test_add_func ("/cli/dfm/validate-mixed", test_validate_mixed);
  g_test_add_func ("/cli/dfm/info", test_info);
  g_test_add_func ("/cli/dfm/dump-tables", test_dump_tables);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
