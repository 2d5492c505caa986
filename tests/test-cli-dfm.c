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

/* A generic UTF tree without the signs of a DFM (a Skeleton directory, MultiLevel\Mesh0). */
static GBytes *
generic_utf (void)
{
  MshedUtfGenParams gp = { 0 };

  gp.n_nodes = 30;
  for (gp.seed = 5;; gp.seed++)
    {
      g_autoptr(MshedUtf) tree = mshed_utf_generate_tree (&gp);

      if (!mshed_utf_lookup (tree, "\\Skeleton") && !mshed_utf_lookup (tree, "\\MultiLevel"))
        return mshed_utf_generate (&gp);
    }
}

/* A folder of a model, an archive, a DFM, another UTF file and a text file, on one thread and
 * on four: every UTF file checked, counted and printed the same way. */
static void
test_validate_mixed (void)
{
  g_autofree char *dir = path_in_tmp ("mixed");
  g_autofree char *sub = path_in_tmp ("mixed/sub");
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
  cmp = generic_utf ();
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
  /* not a file: the first window of the first strip, when it draws, is (s0, s1, s2) */
  { "triangles", "i2", 4, 'h' },
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

/* edit ----------------------------------------------------------------------------------- */

/* The records of `dump FILE --table TABLE --json`. */
static JsonNode *
dump_records (const char *file,
              const char *table)
{
  Run run = { 0 };
  JsonNode *root;

  run_cli (&run, "dump", file, "--table", table, "--json", NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_json (run.out);
  run_clear (&run);
  return root;
}

/* The text between @before and @after in @text. */
static char *
between (const char *text,
         const char *before,
         const char *after)
{
  const char *a = strstr (text, before), *b;

  g_assert_nonnull (a);
  a += strlen (before);
  b = strstr (a, after);
  g_assert_nonnull (b);
  return g_strndup (a, (gsize) (b - a));
}

static void
assert_same_file (const char *name,
                  GBytes     *expected)
{
  g_autoptr(GBytes) now = read_file (name);

  g_assert_true (g_bytes_equal (now, expected));
}

/* A point of the second level by its table row (the rows dump numbers across every level):
 * exactly those 4 bytes change, dump shows exactly that row changed, the stale list names the
 * level's normals by path, FILE.bak keeps the original, and setting the old value back gives
 * the original bytes. */
static void
test_edit_set_point (void)
{
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GBytes) orig = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autoptr(JsonNode) before = NULL;
  g_autoptr(JsonNode) after = NULL;
  g_autofree char *set = NULL;
  g_autofree char *line = NULL;
  g_autofree char *old = NULL;
  g_autofree char *undo = NULL;
  JsonArray *a, *b;
  gsize size0 = 0, at, n_diff = 0;
  guint row;
  const guint8 *x, *y;
  Run run = { 0 };

  generate ("head", NULL, "edit-point.dfm");
  orig = read_file ("edit-point.dfm");
  utf = read_tree ("edit-point.dfm");
  /* docs/dfm.md §6: Points holds 3 floats per point */
  mshed_utf_node_peek_data (mshed_utf_lookup (utf, "\\MultiLevel\\Mesh0\\Geometry\\Points"),
                            &size0);
  row = (guint) (size0 / 12) + 5;  /* Mesh1's point 5 */
  at = payload_offset (utf, "\\MultiLevel\\Mesh1\\Geometry\\Points") + 5 * 12 + 4;
  before = dump_records ("edit-point.dfm", "points");

  set = g_strdup_printf ("points[%u].y=1.75", row);
  run_cli (&run, "edit", "edit-point.dfm", "--set", set, NULL);
  g_assert_cmpint (run.status, ==, 0);
  line = g_strdup_printf ("points[%u].y (\\MultiLevel\\Mesh1\\Geometry\\Points[5]): ", row);
  g_assert_nonnull (strstr (run.out, line));
  g_assert_nonnull (strstr (run.out, " → 1.75\n"));
  g_assert_nonnull (strstr (run.out, "stale: Point normals (vertex-normals: "
                                     "\\MultiLevel\\Mesh1\\Geometry\\Vertex_normals) — "));
  g_assert_nonnull (strstr (run.out, "saved "));
  assert_same_file ("edit-point.dfm.bak", orig);

  /* the bytes: the float at its offset and nothing else */
  now = read_file ("edit-point.dfm");
  g_assert_cmpuint (g_bytes_get_size (now), ==, g_bytes_get_size (orig));
  x = g_bytes_get_data (orig, NULL);
  y = g_bytes_get_data (now, NULL);
  g_assert_cmpfloat (mshed_read_f32 (y + at), ==, 1.75f);
  for (gsize i = 0; i < g_bytes_get_size (now); i++)
    if (x[i] != y[i])
      {
        g_assert_cmpuint (i, >=, at);
        g_assert_cmpuint (i, <, at + 4);
        n_diff++;
      }
  g_assert_cmpuint (n_diff, >, 0);

  /* dump: that row and no other */
  after = dump_records ("edit-point.dfm", "points");
  a = json_object_get_array_member (json_node_get_object (before), "records");
  b = json_object_get_array_member (json_node_get_object (after), "records");
  g_assert_cmpuint (json_array_get_length (a), ==, json_array_get_length (b));
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *ra = json_array_get_object_element (a, i);
      JsonObject *rb = json_array_get_object_element (b, i);

      if (i != row)
        g_assert_true (json_node_equal (json_array_get_element (a, i),
                                        json_array_get_element (b, i)));
      else
        {
          g_assert_cmpfloat (member_number (rb, "y"), ==, 1.75);
          g_assert_cmpfloat (member_number (rb, "x"), ==, member_number (ra, "x"));
          g_assert_cmpfloat (member_number (rb, "z"), ==, member_number (ra, "z"));
        }
    }

  /* the value printed before, set back: the original file, byte for byte */
  old = between (run.out, line, " → ");
  undo = g_strdup_printf ("points[%u].y=%s", row, old);
  run_clear (&run);
  run_cli (&run, "edit", "edit-point.dfm", "--set", undo, "--no-backup", NULL);
  g_assert_cmpint (run.status, ==, 0);
  assert_same_file ("edit-point.dfm", orig);
  run_clear (&run);
}

/* A text by table name (one row: no [ROW]) and a Cons name by node path: written in
 * Windows-1251 with the NUL the generator wrote (docs/dfm.md §7, §9.1); --dry-run writes
 * nothing, -o leaves the input untouched and keeps no FILE.bak. */
static void
test_edit_set_texts (void)
{
  g_autoptr(GBytes) orig = NULL;
  g_autoptr(MshedUtf) utf = NULL;
  const guint8 *data;
  gsize size = 0;
  Run run = { 0 };

  generate ("head", NULL, "edit-text.dfm");
  orig = read_file ("edit-text.dfm");
  run_cli (&run, "edit", "edit-text.dfm", "--set", "skeleton-name=Череп.cmp", "--set",
           "/Cmpnd/Scale.scale=2.5", "--dry-run", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "skeleton-name[0] (\\Skeleton\\Name): “Head02.cmp” → "
                                     "“Череп.cmp”\n"));
  g_assert_nonnull (strstr (run.out, "\\Cmpnd\\Scale[0].scale: 1 → 2.5\n"));
  g_assert_nonnull (strstr (run.out, "dry run: nothing written"));
  assert_same_file ("edit-text.dfm", orig);
  g_assert_false (tmp_file_exists ("edit-text.dfm.bak"));
  run_clear (&run);

  run_cli (&run, "edit", "edit-text.dfm", "--set", "skeleton-name=Череп.cmp", "-o",
           "edit-text-out.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "wrote edit-text-out.dfm"));
  assert_same_file ("edit-text.dfm", orig);
  g_assert_false (tmp_file_exists ("edit-text.dfm.bak"));
  utf = read_tree ("edit-text-out.dfm");
  data = mshed_utf_node_peek_data (mshed_utf_lookup (utf, "\\Skeleton\\Name"), &size);
  g_assert_cmpmem (data, size, "\xD7\xE5\xF0\xE5\xEF.cmp", 10);  /* cp1251, NUL kept */
  run_clear (&run);
}

/* --rename on a DFM: ls shows the new name; the stale list and the recompute report name DFM
 * data only (conventions of an unedited model: nothing stale, nothing changed). */
static void
test_edit_rename (void)
{
  g_autoptr(GBytes) orig = NULL;
  Run run = { 0 };

  generate ("head", NULL, "edit-rename.dfm");
  orig = read_file ("edit-rename.dfm");
  run_cli (&run, "edit", "edit-rename.dfm", "--rename", "\\exporter version=Exporter Note",
           "--recompute", "conventions", "-o", "edit-renamed.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\\Exporter Version name: “Exporter Version” → "
                                     "“Exporter Note”\n"));
  g_assert_nonnull (strstr (run.out, "Level fractions (mshed convention): nothing stale"));
  g_assert_nonnull (strstr (run.out, "Bone to root (bind pose) (mshed convention): nothing "
                                     "stale"));
  g_assert_null (strstr (run.out, "Slot"));
  assert_same_file ("edit-rename.dfm", orig);
  run_clear (&run);
  run_cli (&run, "ls", "edit-renamed.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "  \\Exporter Note\n"));
  g_assert_null (strstr (run.out, "Exporter Version"));
  run_clear (&run);

  /* --repack writes the canonical layout (docs/utf.md §8) and says what it drops */
  run_cli (&run, "edit", "edit-renamed.dfm", "--repack", "-o", "edit-packed.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "warning: repack: edit-renamed.dfm: "));
  {
    g_autoptr(MshedUtf) in = read_tree ("edit-renamed.dfm");
    g_autoptr(MshedUtf) packed = read_tree ("edit-packed.dfm");

    g_assert_false (mshed_utf_is_canonical (in));
    g_assert_true (mshed_utf_is_canonical (packed));
    g_assert_nonnull (mshed_utf_lookup (packed, "\\Exporter Note"));
  }
  run_clear (&run);
}

/* What no file could accept (2), what this file refuses (1), a result that fails strict
 * validation (1, unless --save-anyway): the file keeps its bytes and nothing else is
 * written. Options of the other format are refused on both sides. */
static void
test_edit_refused (void)
{
  static const struct {
    const char *file, *option, *value, *fragment;
    int         status;
  } cases[] = {
    { "edit-bad.dfm", "--set", "nope[1].x=1", "there is no table “nope”", 2 },
    { "edit-bad.dfm", "--set", "points[1].w=1", "table points has no field “w” (fields: x, y, "
      "z)", 2 },
    { "edit-bad.dfm", "--set", "points[1].x=abc", "points[1].x=abc", 2 },
    { "edit-bad.dfm", "--set", "points[999999].w=1", "no field “w”", 2 },  /* before the row */
    { "edit-bad.dfm", "--set", "points[1]=1", "name a field of points", 2 },
    { "edit-bad.dfm", "--set", "slots[1].batchCount=1", "slots is a table of Parkan models", 2 },
    { "edit-bad.dfm", "--set", "cons-sphere[0].child=塔", "Windows-1251", 2 },
    { "edit-bad.dfm", "--rename-node", "1=x", "--rename PATH=NAME", 2 },
    { "edit-bad.dfm", "--rename", "\\Skeleton\\Name=", "cannot be empty", 2 },
    { "edit-bad.dfm", "--set-bytes", "\\Skeleton\\Name=0", "HEX", 2 },
    { "edit-bad.dfm", "--recompute", "slot-boxes", "applies to Parkan models", 2 },
    { "edit-bad.dfm", "--recompute", "bogus", "--recompute bogus", 2 },
    { "edit-bad.dfm", "--set", "points[999999].x=1", "no row 999999", 1 },
    { "edit-bad.dfm", "--set", "points.x=1", "name one: points[ROW]", 1 },
    { "edit-bad.dfm", "--set", "\\Cmpnd=1", "not a table of a deformable model", 1 },
    { "edit-bad.dfm", "--rename", "\\Nope=x", "has no entry \\Nope", 1 },
    { "edit-bad.dfm", "--rename", "\\Cmpnd\\Scale=root", "--rename \\Cmpnd\\Scale=root: ", 1 },
    { "edit-bad.dfm", "--set-bytes", "\\Skeleton=00", "directory", 1 },
    /* docs/dfm.md §14 rule 8: a point index past the points */
    { "edit-bad.dfm", "--set", "point-indices[0].point=60000", "--save-anyway", 1 },
    { "edit-bad.msh", "--rename", "x=y", "--rename-node N=NAME", 2 },
    { "edit-bad.msh", "--set-bytes", "\\x=00", "UTF files", 2 },
    { "edit-bad.msh", "--recompute", "group-count", "applies to deformable models", 2 },
  };
  g_autoptr(GBytes) dfm = NULL;
  g_autoptr(GBytes) msh = NULL;
  Run run = { 0 };

  generate ("head", NULL, "edit-bad.dfm");
  run_cli (&run, "generate", "-q", "-o", "edit-bad.msh", NULL);
  g_assert_cmpint (run.status, ==, 0);
  run_clear (&run);
  dfm = read_file ("edit-bad.dfm");
  msh = read_file ("edit-bad.msh");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s %s %s", cases[i].file, cases[i].option, cases[i].value);
      run_cli (&run, "edit", cases[i].file, cases[i].option, cases[i].value, NULL);
      g_assert_cmpint (run.status, ==, cases[i].status);
      if (strstr (run.err, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” not in: %s", i, cases[i].fragment, run.err);
      g_assert_nonnull (strstr (run.err, "Nothing was written"));
      assert_same_file (cases[i].file, strstr (cases[i].file, ".dfm") ? dfm : msh);
      g_assert_false (tmp_file_exists ("edit-bad.dfm.bak"));
      g_assert_false (tmp_file_exists ("edit-bad.msh.bak"));
      run_clear (&run);
    }
  /* the strict check names the rule; --save-anyway writes it */
  run_cli (&run, "edit", "edit-bad.dfm", "--set", "point-indices[0].point=60000", "-o",
           "edit-bad-out.dfm", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "Point_indices"));
  g_assert_false (tmp_file_exists ("edit-bad-out.dfm"));
  run_clear (&run);
  run_cli (&run, "edit", "edit-bad.dfm", "--set", "point-indices[0].point=60000", "-o",
           "edit-bad-out.dfm", "--save-anyway", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (tmp_file_exists ("edit-bad-out.dfm"));
  run_clear (&run);
  /* a Parkan model's "all" is its own three targets, none of a DFM's */
  run_cli (&run, "edit", "edit-bad.msh", "--recompute", "all", "--dry-run", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Slot bounding boxes"));
  g_assert_null (strstr (run.out, "Face group counts"));
  run_clear (&run);
}

/* Another UTF file: --set-bytes replaces or overwrites an entry's bytes, --rename works,
 * --set and --recompute have nothing typed to work on. */
/* --recompute on a DFM: a determined value written wrong is written right again, and the file
 * comes back byte for byte; a bone moved by hand keeps its skin, and the stale part indices
 * are recomputed by --recompute stale (docs/dfm.md §15.1) */
static void
test_edit_recompute (void)
{
  g_autoptr(GBytes) orig = NULL;
  g_autoptr(GBytes) now = NULL;
  Run run = { 0 };

  generate ("head", NULL, "edit-recompute.dfm");
  orig = read_file ("edit-recompute.dfm");
  /* docs/dfm.md §10.3: all level bits or none; 0x01 on a six-level head is partial */
  run_cli (&run, "edit", "edit-recompute.dfm", "--set", "lod-bits[3].bits=1", "--recompute",
           "lod-bits", "-o", "edit-recompute-out.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "lod-bits[3].bits"));
  g_assert_nonnull (strstr (run.out, "Lod Bits (determined by the format):\n"));
  g_assert_nonnull (strstr (run.out, "    lod-bits[3] ("));
  now = read_file ("edit-recompute-out.dfm");
  g_assert_true (g_bytes_equal (now, orig));

  /* every determined value of an unmodified file recomputes to its stored bytes */
  run_clear (&run);
  run_cli (&run, "edit", "edit-recompute.dfm", "--recompute", "all", "-o",
           "edit-recompute-all.dfm", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_clear_pointer (&now, g_bytes_unref);
  now = read_file ("edit-recompute-all.dfm");
  g_assert_true (g_bytes_equal (now, orig));
  run_clear (&run);
}

static void
test_edit_generic_utf (void)
{
  g_autoptr(GBytes) cmp = generic_utf ();
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(MshedUtf) out = NULL;
  g_autofree char *path = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *patch = NULL;
  g_autofree char *rename = NULL;
  g_autofree char *old_path = NULL;
  g_autofree char *new_path = NULL;
  MshedUtfNode *leaf = NULL, *other = NULL;
  const guint8 *data;
  gsize size = 0;
  Run run = { 0 };

  write_file ("edit-generic.cmp", cmp);
  utf = read_tree ("edit-generic.cmp");
  for (MshedUtfNode *n = mshed_utf_get_root (utf); n;
       n = mshed_utf_node_next_preorder (n, mshed_utf_get_root (utf)))
    if (!mshed_utf_node_is_directory (n))
      {
        mshed_utf_node_peek_data (n, &size);
        if (leaf == NULL && size >= 4)
          leaf = n;
        else if (other == NULL && leaf != NULL)
          other = n;
      }
  g_assert_nonnull (leaf);
  g_assert_nonnull (other);
  path = mshed_utf_node_dup_path (leaf);
  bytes = g_strdup_printf ("%s=00 01 02", path);
  patch = g_strdup_printf ("%s@1=AbCd", path);
  old_path = mshed_utf_node_dup_path (other);
  rename = g_strdup_printf ("%s=Renamed_1", old_path);
  {
    g_autofree char *parent = mshed_utf_node_dup_path (mshed_utf_node_get_parent (other));

    new_path = g_strdup_printf ("%s\\Renamed_1", parent);
  }
  run_cli (&run, "edit", "edit-generic.cmp", "--set-bytes", bytes, "--set-bytes", patch,
           "--rename", rename, "-o", "edit-generic-out.cmp", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, " → 000102 (3 bytes)\n"));
  g_assert_nonnull (strstr (run.out, ", bytes at 1: 0102 (2 bytes) → ABCD (2 bytes)\n"));
  out = read_tree ("edit-generic-out.cmp");
  data = mshed_utf_node_peek_data (mshed_utf_lookup (out, path), &size);
  g_assert_cmpmem (data, size, "\x00\xAB\xCD", 3);
  g_assert_nonnull (mshed_utf_lookup (out, new_path));
  g_assert_null (mshed_utf_lookup (out, old_path));
  run_clear (&run);

  run_cli (&run, "edit", "edit-generic.cmp", "--set", "points[0].x=1", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "not a deformable model"));
  run_clear (&run);
  run_cli (&run, "edit", "edit-generic.cmp", "--recompute", "all", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "not a deformable model"));
  assert_same_file ("edit-generic.cmp", cmp);
  run_clear (&run);
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
  g_test_add_func ("/cli/dfm/edit-set-point", test_edit_set_point);
  g_test_add_func ("/cli/dfm/edit-set-texts", test_edit_set_texts);
  g_test_add_func ("/cli/dfm/edit-rename", test_edit_rename);
  g_test_add_func ("/cli/dfm/edit-refused", test_edit_refused);
  g_test_add_func ("/cli/dfm/edit-generic-utf", test_edit_generic_utf);
  g_test_add_func ("/cli/dfm/edit-recompute", test_edit_recompute);
  status = g_test_run ();
  cli_test_finish (status);
  return status;
}
