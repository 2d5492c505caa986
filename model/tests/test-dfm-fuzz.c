/* test-dfm-fuzz.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hostile deformable models (docs/dfm.md §14): truncated files and truncated payloads, bit
 * flips, inflated counts and indices in every numeric node, and every node removed or
 * renamed, over generated heads, bodies and hands, in strict and tolerant mode. Nothing may
 * crash, hang or read out of bounds (CI runs this under ASan/UBSan); a load either fails with
 * a GError or gives a view whose every accessor can be called, and strict mode gives a view
 * only when the validator found no error. A view over the read-only parse of the same bytes
 * (mshed_utf_parse_readonly, what `validate` reads) gives the same findings, truncated,
 * flipped and inflated files included. Set MSHED_FUZZ_ITERATIONS to run longer.
 */
#include "config.h"

#include <string.h>

#include "dfm-test-util.h"
#include "mshed-diagnostic.h"
#include "mshed-dfm.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-validate.h"
#include "mshed-error.h"
#include "mshed-utf-generator.h"
#include "utf-same-util.h"

static guint64 sink;

typedef struct {
  guint failed;
  guint loaded;
  guint invalid;            /* loaded in tolerant mode with errors */
  guint compared;           /* views over a read-only parse checked against the full one */
} Stats;

/* every accessor, a little past every end */
static void
exercise_levels (MshedDfm *dfm)
{
  for (guint l = 0; l <= mshed_dfm_get_n_levels (dfm); l++)
    {
      MshedDfmLevel level;
      MshedDfmUvBone uvb;
      float f;

      sink += mshed_dfm_get_level (dfm, l, &level) + mshed_dfm_get_fraction (dfm, l, &f);
      for (guint g = 0; g <= level.n_groups; g++)
        {
          MshedDfmGroup group;
          gsize n;
          g_autofree guint16 *tris = NULL;

          sink += mshed_dfm_get_group (dfm, l, g, &group);
          tris = mshed_dfm_dup_triangles (dfm, l, g, &n);
          for (gsize k = 0; k < 3 * n && k < 3000; k++)
            {
              MshedDfmElement e;

              sink += mshed_dfm_get_element (dfm, l, tris[k], &e);
            }
        }
      for (guint e = 0; e <= level.n_elements && e < 20000; e++)
        {
          MshedDfmElement el;

          sink += mshed_dfm_get_element (dfm, l, e, &el) + el.point;
        }
      for (guint p = 0; p <= level.n_points && p < 20000; p++)
        {
          float pos[3], n[3];
          guint32 first, count, bone;
          float w;

          sink += mshed_dfm_get_point (dfm, l, p, pos, n);
          if (mshed_dfm_get_skin_range (dfm, l, p, &first, &count))
            for (guint32 k = first; k - first < count && k - first < 64; k++)
              sink += mshed_dfm_get_influence (dfm, l, k, &bone, &w) + bone;
        }
      if (mshed_dfm_get_uv_bone (dfm, l, &uvb))
        for (guint k = 0; k <= uvb.n_vertices; k++)
          {
            guint32 uv;
            float def[2];

            sink += mshed_dfm_get_uv_bone_vertex (dfm, l, k, &uv, def);
          }
    }
}

static void
exercise (MshedDfm *dfm)
{
  MshedUtf *utf = mshed_dfm_get_utf (dfm);
  MshedUtfNode *root = mshed_utf_get_root (utf);

  exercise_levels (dfm);
  sink += (guint64) mshed_dfm_get_scale (dfm) + (mshed_dfm_get_skeleton_name (dfm) != NULL) +
          (mshed_dfm_get_exporter_version (dfm) != NULL) + mshed_dfm_get_n_fractions (dfm);
  for (guint i = 0; i <= mshed_dfm_get_n_parts (dfm); i++)
    {
      MshedDfmPart p;

      sink += mshed_dfm_get_part (dfm, i, &p) + (guint64) p.bone;
    }
  for (guint i = 0; i <= mshed_dfm_get_n_joints (dfm); i++)
    {
      MshedDfmJoint j;

      sink += mshed_dfm_get_joint (dfm, i, &j) + strlen (j.parent) + strlen (j.child);
    }
  for (guint b = 0; b <= mshed_dfm_get_n_bones (dfm); b++)
    {
      MshedDfmBone bone;
      float bind[12];

      sink += mshed_dfm_get_bone (dfm, b, &bone);
      mshed_dfm_bind_from_bone_to_root (bone.bone_to_root, bind);
      /* a hostile file may hang a bone below itself: walk up at most n_bones steps */
      for (gint p = bone.parent, steps = 0; p >= 0 && steps < 1000; steps++)
        {
          MshedDfmBone up;

          mshed_dfm_get_bone (dfm, (guint) p, &up);
          p = up.parent;
        }
      for (guint h = 0; h <= bone.n_hardpoints; h++)
        {
          MshedDfmHardpoint hp;

          sink += mshed_dfm_get_hardpoint (dfm, b, h, &hp);
        }
    }
  for (guint m = 0; m <= mshed_dfm_get_n_materials (dfm); m++)
    {
      MshedDfmMaterial mat;

      sink += mshed_dfm_get_material (dfm, m, &mat);
    }
  sink += mshed_dfm_find_material (dfm, "body_skin00") + mshed_dfm_find_bone (dfm, "Jaw") +
          (mshed_dfm_get_texture (dfm, mshed_dfm_get_n_textures (dfm)) != NULL);
  for (MshedDfmTable t = MSHED_DFM_TABLE_FIRST; t < MSHED_DFM_TABLE_LAST; t++)
    for (guint a = 0; a < 3; a++)
      {
        MshedDfmArray arr;
        guint64 offset;

        if (mshed_dfm_get_array (dfm, t, a, a, &arr) && arr.size)
          sink += arr.data[arr.size - 1] + mshed_dfm_get_payload_offset (dfm, arr.node, &offset);
      }
  for (MshedUtfNode *n = root; n; n = mshed_utf_node_next_preorder (n, root))
    sink += (guint64) mshed_dfm_schema_table_for_node (n);
}

static void
check_messages (const MshedDiagnostics *diags)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    g_assert_true (g_utf8_validate (mshed_diagnostics_get (diags, i)->message, -1, NULL));
}

static void
try_view (MshedUtf *utf,
          Stats    *stats)
{
  for (MshedMode mode = MSHED_MODE_STRICT; mode <= MSHED_MODE_TOLERANT; mode++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedDfm) dfm = mshed_dfm_new (utf, mode, diags, &error);

      check_messages (diags);
      if (dfm == NULL)
        {
          g_assert_true (mode == MSHED_MODE_STRICT);
          g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
          g_assert_cmpuint (diags->n_errors, >=, 1);
          stats->failed++;
          continue;
        }
      g_assert_no_error (error);
      if (mode == MSHED_MODE_STRICT)
        g_assert_cmpuint (diags->n_errors, ==, 0);
      else
        stats->invalid += diags->n_errors > 0;
      stats->loaded++;
      exercise (dfm);
    }
}

/* the views over the full and the read-only parse of @in: the same findings and outcome */
static void
check_readonly (GBytes *in,
                Stats  *stats)
{
  for (MshedMode mode = MSHED_MODE_STRICT; mode <= MSHED_MODE_TOLERANT; mode++)
    {
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedDiagnostics) ro_diags = mshed_diagnostics_new ();
      g_autoptr(MshedUtf) utf = mshed_utf_parse (in, mode, diags, NULL);
      g_autoptr(MshedUtf) ro = mshed_utf_parse_readonly (in, mode, ro_diags, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) ro_error = NULL;
      g_autoptr(MshedDfm) dfm = NULL;
      g_autoptr(MshedDfm) ro_dfm = NULL;

      t_assert_same_diagnostics (diags, ro_diags);
      g_assert_true ((utf == NULL) == (ro == NULL));
      if (utf == NULL)
        continue;
      dfm = mshed_dfm_new (utf, mode, diags, &error);
      ro_dfm = mshed_dfm_new (ro, mode, ro_diags, &ro_error);
      t_assert_same_diagnostics (diags, ro_diags);
      g_assert_true ((dfm == NULL) == (ro_dfm == NULL));
      if (error)
        g_assert_cmpstr (error->message, ==, ro_error->message);
      if (ro_dfm)
        exercise (ro_dfm);
      stats->compared++;
    }
}

/* @utf after an edit, written out and read back both ways */
static void
check_readonly_tree (MshedUtf *utf,
                     Stats    *stats)
{
  g_autoptr(GBytes) out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);

  if (out)
    check_readonly (out, stats);
}

static void
try_bytes (GBytes *in,
           Stats  *stats)
{
  g_autoptr(MshedUtf) utf = mshed_utf_parse (in, MSHED_MODE_TOLERANT, NULL, NULL);

  check_readonly (in, stats);
  if (utf == NULL)
    {
      stats->failed++;
      return;
    }
  try_view (utf, stats);
}

static GPtrArray *
corpus (void)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (MshedDfmGenKind kind = MSHED_DFM_GEN_BODY; kind <= MSHED_DFM_GEN_HAND; kind++)
    {
      MshedDfmGenParams p;
      g_autoptr(MshedUtf) tree = NULL;

      mshed_dfm_gen_params_init (&p, kind, 100 + kind);
      p.n_bones = 6 + 2 * kind;
      p.n_points = 40;
      p.n_groups = 2;
      p.n_levels = 4;
      p.uv1 = kind != MSHED_DFM_GEN_BODY;
      p.edges = TRUE;
      tree = mshed_dfm_generate (&p);
      g_ptr_array_add (files, mshed_utf_layout (tree, kind == MSHED_DFM_GEN_HAND
                                                        ? MSHED_UTF_GEN_SHARE_PAYLOADS : 0,
                                                p.seed));
    }
  return files;
}

/* prefixes of the file (the container refuses most), and every payload cut short */
static void
test_truncated (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  Stats stats = { 0 };

  for (guint f = 0; f < files->len; f++)
    {
      GBytes *file = g_ptr_array_index (files, f);
      gsize len = g_bytes_get_size (file);
      g_autoptr(MshedUtf) utf = mshed_utf_parse (file, MSHED_MODE_STRICT, NULL, NULL);
      MshedUtfNode *root = mshed_utf_get_root (utf);

      for (gsize cut = 0; cut < len; cut += 1 + cut / 64)
        {
          g_autoptr(GBytes) in = g_bytes_new_from_bytes (file, 0, cut);

          try_bytes (in, &stats);
        }
      for (MshedUtfNode *n = root; n; n = mshed_utf_node_next_preorder (n, root))
        {
          gsize size;
          const guint8 *data = mshed_utf_node_peek_data (n, &size);
          gsize cuts[] = { 0, 1, size / 2, size > 0 ? size - 1 : 0 };

          if (mshed_utf_node_is_directory (n) || size == 0)
            continue;
          for (guint k = 0; k < G_N_ELEMENTS (cuts); k++)
            {
              g_autoptr(GBytes) keep = g_bytes_ref (mshed_utf_node_get_data (n));
              g_autoptr(GBytes) cut = g_bytes_new (data, cuts[k]);

              g_bytes_unref (mshed_utf_set_data (utf, n, cut));
              try_view (utf, &stats);
              g_bytes_unref (mshed_utf_set_data (utf, n, keep));
              data = mshed_utf_node_peek_data (n, &size);
            }
        }
    }
  g_test_message ("truncations: %u refused, %u loaded (%u with errors)", stats.failed,
                  stats.loaded, stats.invalid);
  g_assert_cmpuint (stats.failed, >, 0);
  g_assert_cmpuint (stats.invalid, >, 0);
}

static void
test_bit_flips (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  guint n = t_fuzz_iterations (g_test_slow () ? 20000 : 1500);
  guint64 s = 0x9E3779B97F4A7C15u;
  Stats stats = { 0 };

  for (guint it = 0; it < n; it++)
    {
      GBytes *file = g_ptr_array_index (files, it % files->len);
      gsize len = g_bytes_get_size (file);
      g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (file, NULL), len);
      guint32 data_offset = mshed_read_u32 (copy + 36);
      g_autoptr(GBytes) in = NULL;
      guint flips = 1 + t_rnd (&s) % 6;

      for (guint k = 0; k < flips; k++)
        {
          /* mostly the payloads, where the DFM is; sometimes anywhere */
          gsize at = t_rnd (&s) % 8 && data_offset < len
                       ? data_offset + t_rnd (&s) % (len - data_offset)
                       : t_rnd (&s) % len;

          copy[at] ^= (guint8) (1u << (t_rnd (&s) % 8));
        }
      in = g_bytes_new_take (g_steal_pointer (&copy), len);
      try_bytes (in, &stats);
    }
  g_test_message ("bit flips: %u refused, %u loaded (%u with errors), %u read-only views",
                  stats.failed, stats.loaded, stats.invalid, stats.compared);
  g_assert_cmpuint (stats.compared, >, 0);
  g_assert_cmpuint (stats.loaded, >, 0);
  g_assert_cmpuint (stats.invalid, >, 0);
}

/* every 32-bit (and, in strips, 16-bit) entry of a few positions of every numeric node set to
 * counts and extremes: indices past every end, counts of billions, negative indices */
static void
test_inflated (void)
{
  static const guint32 values[] = { 0, 1, 4, 5, 255, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000u,
                                    0xFFFFFFFFu, 0xFFFFFFFCu };
  g_autoptr(GPtrArray) files = corpus ();
  Stats stats = { 0 };

  for (guint f = 0; f < files->len; f++)
    {
      g_autoptr(MshedUtf) utf = mshed_utf_parse (g_ptr_array_index (files, f), MSHED_MODE_STRICT,
                                                 NULL, NULL);
      MshedUtfNode *root = mshed_utf_get_root (utf);

      for (MshedUtfNode *n = root; n; n = mshed_utf_node_next_preorder (n, root))
        {
          MshedDfmTable t = mshed_dfm_schema_table_for_node (n);
          const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (t);
          guint word = t == MSHED_DFM_TABLE_TRISTRIP || t == MSHED_DFM_TABLE_EDGE_INDICES ? 2 : 4;
          gsize size;

          if (info == NULL || info->stride == 0 || info->stride == 1)
            continue;
          mshed_utf_node_peek_data (n, &size);
          for (guint pos = 0; pos < 3; pos++)
            for (guint v = 0; v < G_N_ELEMENTS (values); v++)
              {
                g_autoptr(GBytes) keep = g_bytes_ref (mshed_utf_node_get_data (n));
                g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (keep, NULL), size);
                gsize at = (pos == 0 ? 0 : pos == 1 ? size / 2 : size - word) / word * word;
                g_autoptr(GBytes) bad = NULL;

                if (size < word)
                  continue;
                if (word == 2)
                  mshed_write_u16 (copy + at, (guint16) values[v]);
                else
                  mshed_write_u32 (copy + at, values[v]);
                bad = g_bytes_new_take (g_steal_pointer (&copy), size);
                g_bytes_unref (mshed_utf_set_data (utf, n, bad));
                try_view (utf, &stats);
                if (v % 4 == pos)  /* a sample: writing the file costs more than the view */
                  check_readonly_tree (utf, &stats);
                g_bytes_unref (mshed_utf_set_data (utf, n, keep));
              }
        }
    }
  g_test_message ("inflated: %u refused, %u loaded (%u with errors), %u read-only views",
                  stats.failed, stats.loaded, stats.invalid, stats.compared);
  g_assert_cmpuint (stats.invalid, >, 0);
  g_assert_cmpuint (stats.compared, >, 0);
}

/* every node taken out in turn, and renamed, then put back (the tree edits' inverses) */
static void
test_tree_edits (void)
{
  g_autoptr(GPtrArray) files = corpus ();
  Stats stats = { 0 };

  for (guint f = 0; f < files->len; f++)
    {
      GBytes *file = g_ptr_array_index (files, f);
      g_autoptr(MshedUtf) utf = mshed_utf_parse (file, MSHED_MODE_STRICT, NULL, NULL);
      MshedUtfNode *root = mshed_utf_get_root (utf);
      g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
      g_autoptr(GBytes) again = NULL;

      for (MshedUtfNode *n = mshed_utf_node_get_first_child (root); n;
           n = mshed_utf_node_next_preorder (n, root))
        g_ptr_array_add (nodes, n);
      for (guint i = 0; i < nodes->len; i++)
        {
          MshedUtfNode *n = g_ptr_array_index (nodes, i);
          MshedUtfNode *parent = NULL;
          guint index = 0;
          g_autofree char *old = NULL;

          mshed_utf_remove (utf, n, &parent, &index);
          try_view (utf, &stats);
          g_assert_true (mshed_utf_insert_child (utf, parent, index, n, NULL));
          old = mshed_utf_rename (utf, n, i % 2 ? "Mesh7" : "x.3db");
          try_view (utf, &stats);
          if (i % 8 == 0)
            check_readonly_tree (utf, &stats);
          g_free (mshed_utf_rename (utf, n, old));
        }
      again = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
      g_assert_true (g_bytes_equal (again, file));
    }
  g_test_message ("tree edits: %u refused, %u loaded (%u with errors)", stats.failed,
                  stats.loaded, stats.invalid);
  g_assert_cmpuint (stats.failed, >, 0);
}

/* generic UTF trees and the UTF layer's DFM skeleton are no valid models; reading them as
 * one must still be safe */
static void
test_foreign_trees (void)
{
  Stats stats = { 0 };

  for (guint64 seed = 1; seed <= 40; seed++)
    {
      MshedUtfGenParams gp = { seed, 0, 5, 48, FALSE, 0 };
      MshedUtfDfmParams dp = { seed, seed % 2 ? 4 : 6, 3 + (guint) seed % 5, 1 + (guint) seed % 3,
                               8 + (guint) seed, 1, seed % 3 == 0, seed % 2 == 0 };
      g_autoptr(MshedUtf) tree = mshed_utf_generate_tree (&gp);
      g_autoptr(MshedUtf) skeleton = mshed_utf_generate_dfm (&dp);

      try_view (tree, &stats);
      try_view (skeleton, &stats);
    }
  g_test_message ("foreign trees: %u refused, %u loaded (%u with errors)", stats.failed,
                  stats.loaded, stats.invalid);
}

/* 20,000 bones in one chain, each with its part and its constraint, and as many materials
 * and face groups: indexing and validating stay linear (no name search per part, group or
 * joint, no walk up the chain per joint) */
static void
test_large (void)
{
  const guint n = 20000;
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *cmpnd = t_dir (utf, root, "Cmpnd");
  MshedUtfNode *groups = t_dir (utf, t_dir (utf, t_dir (utf, root, "MultiLevel"), "Mesh0"),
                                "Face_groups");
  MshedUtfNode *lib = t_dir (utf, root, "Material library");
  GByteArray *loose = g_byte_array_sized_new (176 * n);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedDfm) dfm = NULL;
  gint64 start;
  MshedDfmBone last;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *object = g_strdup_printf ("B%u", i);
      g_autofree char *file = g_strdup_printf ("B%u.3db", i);
      g_autofree char *part = g_strdup_printf ("Part_%u", i);
      g_autofree char *group = g_strdup_printf ("Group%u", i);
      MshedUtfNode *p = t_dir (utf, cmpnd, i == 0 ? "Root" : part);
      guint8 rec[176] = { 0 };

      t_text (utf, p, "Object name", object);
      t_text (utf, p, "File name", file);
      t_dir (utf, root, file);
      t_text (utf, t_dir (utf, groups, group), "Material_name", object);
      t_dir (utf, lib, object);
      if (i == 0)
        continue;
      g_snprintf ((char *) rec, 64, "B%u", i - 1);
      g_snprintf ((char *) rec + 64, 64, "B%u", i);
      g_byte_array_append (loose, rec, sizeof rec);
    }
  t_file (utf, t_dir (utf, cmpnd, "Cons"), "Loose", loose->data, loose->len);
  g_byte_array_unref (loose);

  start = g_get_monotonic_time ();
  dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, diags, NULL);
  g_test_message ("%u bones: %.2f s", n, (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpuint (mshed_dfm_get_n_bones (dfm), ==, n);
  g_assert_cmpuint (mshed_dfm_get_n_joints (dfm), ==, n - 1);
  g_assert_true (mshed_dfm_get_bone (dfm, n - 1, &last));
  g_assert_cmpint (last.parent, ==, (gint) n - 2);
  g_assert_null (mshed_diagnostics_find (diags, MSHED_CHECK_DFM_CONS_HIERARCHY));
  g_assert_null (mshed_diagnostics_find (diags, MSHED_CHECK_DFM_MATERIAL_UNRESOLVED));
  /* linear work takes 0.2 s here (about 1 s under ASan); a name search per part, group and
   * joint and a walk up the chain per joint took 10 s without sanitizers */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 6 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/dfm-fuzz/truncated", test_truncated);
  g_test_add_func ("/model/dfm-fuzz/bit-flips", test_bit_flips);
  g_test_add_func ("/model/dfm-fuzz/inflated", test_inflated);
  g_test_add_func ("/model/dfm-fuzz/tree-edits", test_tree_edits);
  g_test_add_func ("/model/dfm-fuzz/foreign-trees", test_foreign_trees);
  g_test_add_func ("/model/dfm-fuzz/large", test_large);
  return g_test_run ();
}
