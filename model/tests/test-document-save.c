/* test-document-save.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a document save writes: the layout of non-canonical containers is kept (docs/nres.md §6,
 * §7.3) at both levels of a nested model, a repack happens only on request and says what it
 * drops, and a file that would fail strict validation (any container, any model) is refused
 * unless saved anyway. Inputs and expected outputs are laid out by hand (hand-nres.h).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "doc-test-util.h"
#include "hand-nres.h"
#include "mshed-error.h"
#include "mshed-source.h"

#define NEW_NAME "longer_name_for_node_zero"

typedef struct {
  char *dir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("mshed-docsave-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  GDir *d = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (f->dir, name, NULL);

      g_unlink (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (f->dir);
  g_free (f->dir);
}

static char *
write_file (Fixture    *f,
            const char *name,
            GBytes     *bytes)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      (gssize) g_bytes_get_size (bytes), NULL));
  return path;
}

static GBytes *
read_file (const char *path)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&contents), len);
}

static void
assert_bytes_equal (GBytes *actual,
                    GBytes *expected)
{
  gsize a_len, e_len;
  const guint8 *a = g_bytes_get_data (actual, &a_len);
  const guint8 *e = g_bytes_get_data (expected, &e_len);

  for (gsize i = 0; i < MIN (a_len, e_len); i++)
    if (a[i] != e[i])
      g_error ("first difference at offset %zu: 0x%02X, expected 0x%02X", i, a[i], e[i]);
  g_assert_cmpuint (a_len, ==, e_len);
}

static GBytes *
generated_model (guint64 seed)
{
  MshedGenParams p;

  mshed_gen_params_init (&p, seed);
  p.n_triangles = 300;
  p.n_nodes = 5;
  p.animated = TRUE;
  p.cyrillic_names = TRUE;
  return mshed_generate_model_bytes (&p);
}

/* The model's resources in a non-canonical layout: a 2040-byte block before the first payload
 * (an untouched one), a block right after the name table (Res10, the payload a rename edits),
 * a block before the directory; payloads in directory order or reversed. */
static GBytes *
noncanonical_model (GArray   *entries,
                    gboolean  reverse)
{
  guint n = entries->len;
  g_autofree HandItem *items = g_new0 (HandItem, n + 3);
  gint res10 = hand_find_type (entries, 10);
  guint k = 0;

  g_assert_cmpint (res10, >=, 0);
  items[k++] = (HandItem) HAND_BLOCK (2040, 0x5A);
  for (guint i = 0; i < n; i++)
    {
      gint index = reverse ? (gint) (n - 1 - i) : (gint) i;

      items[k++] = (HandItem) HAND_PAYLOAD (index);
      if (index == res10)
        items[k++] = (HandItem) HAND_BLOCK (24, 0x6B);
    }
  items[k++] = (HandItem) HAND_BLOCK (16, 0x7C);
  return hand_nres_build (entries, items, k);
}

/* An archive around @model: a.dat, a 16-byte block, the model, a 2040-byte block before the
 * untouched tex.dat, an 8-byte block before the directory. */
static const HandItem outer_items[] = {
  HAND_PAYLOAD (0), HAND_BLOCK (16, 0xB8), HAND_PAYLOAD (1), HAND_BLOCK (2040, 0xA7),
  HAND_PAYLOAD (2), HAND_BLOCK (8, 0xC9),
};

static GArray *
outer_entries (GBytes *model)
{
  GArray *entries = hand_entries_new ();

  hand_add_entry (entries, 0x54414441, "a.dat", 8, 0x10, 0);
  hand_add_entry (entries, 0, "SHIP_29.msh", 0, 0, 1);
  hand_add_entry (entries, 0x6D786554, "tex.dat", 24, 0x30, 2);
  hand_set_payload (entries, 1, model);
  return entries;
}

/* gap.rlb in the test directory: the generated model in the non-canonical layout, inside the
 * archive of outer_items. */
typedef struct {
  GArray *inner;   /* the model's entries */
  GBytes *model;   /* the model as stored in the archive */
  GArray *outer;   /* the archive's entries */
  char   *path;
  char   *spec;    /* PATH:SHIP_29.msh */
} GapFile;

static void
gap_file_init (GapFile  *g,
               Fixture  *f,
               guint64   seed,
               gboolean  reverse)
{
  g_autoptr(GBytes) gen = generated_model (seed);
  g_autoptr(GBytes) file = NULL;

  g->inner = hand_nres_read (gen);
  g->model = noncanonical_model (g->inner, reverse);
  g->outer = outer_entries (g->model);
  file = hand_nres_build (g->outer, outer_items, G_N_ELEMENTS (outer_items));
  g->path = write_file (f, "gap.rlb", file);
  g->spec = g_strdup_printf ("%s:SHIP_29.msh", g->path);
}

static void
gap_file_clear (GapFile *g)
{
  g_array_unref (g->inner);
  g_bytes_unref (g->model);
  g_array_unref (g->outer);
  g_free (g->path);
  g_free (g->spec);
}

/* Renaming node 0 grows Res10: only what lies after it moves, by the grown padded size, at
 * both levels; every other byte is kept. The expected file is the same hand layout with the
 * renamed name table. */
static void
check_nested_rename (Fixture  *f,
                     gboolean  reverse)
{
  GapFile g;
  g_autofree char *out_path = g_build_filename (f->dir, "out.rlb", NULL);
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) renamed = NULL;
  g_autoptr(GBytes) model_out = NULL;
  g_autoptr(GBytes) file_out = NULL;
  g_autoptr(GBytes) written = NULL;
  guint32 model_at, tex_at;
  gint res10;

  gap_file_init (&g, f, 29, reverse);
  res10 = hand_find_type (g.inner, 10);
  model_at = g_array_index (g.outer, HandEntry, 1).offset;
  tex_at = g_array_index (g.outer, HandEntry, 2).offset;
  doc = mshed_document_open (g.spec, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_document_rename_node (doc, 0, NEW_NAME, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_document_save_as (doc, out_path, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_no_error (error);

  renamed = hand_rename_node0 (g_array_index (g.inner, HandEntry, res10).payload, NEW_NAME);
  g_assert_cmpuint (g_bytes_get_size (renamed), >, g_bytes_get_size (
                      g_array_index (g.inner, HandEntry, res10).payload) + 8);
  hand_set_payload (g.inner, (guint) res10, renamed);
  model_out = noncanonical_model (g.inner, reverse);
  hand_set_payload (g.outer, 1, model_out);
  file_out = hand_nres_build (g.outer, outer_items, G_N_ELEMENTS (outer_items));
  written = read_file (out_path);
  assert_bytes_equal (written, file_out);

  /* spelled out: the untouched entry before the model and the block before it stay put; the
   * one after it moves by the model's padded growth */
  g_assert_cmpuint (g_array_index (g.outer, HandEntry, 0).offset, ==, 16);
  g_assert_cmpuint (g_array_index (g.outer, HandEntry, 1).offset, ==, model_at);
  g_assert_cmpuint (g_array_index (g.outer, HandEntry, 2).offset - tex_at, ==,
                    ((g_bytes_get_size (model_out) + 7) & ~7u) -
                    ((g_bytes_get_size (g.model) + 7) & ~7u));
  gap_file_clear (&g);
}

static void
test_nested_rename (Fixture       *f,
                    gconstpointer  data)
{
  check_nested_rename (f, FALSE);
}

static void
test_nested_rename_reverse (Fixture       *f,
                            gconstpointer  data)
{
  check_nested_rename (f, TRUE);
}

/* A loose non-canonical model: the same, one level. */
static void
test_loose_rename (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GBytes) gen = generated_model (30);
  g_autoptr(GArray) inner = hand_nres_read (gen);
  g_autoptr(GBytes) model_in = noncanonical_model (inner, FALSE);
  g_autofree char *path = write_file (f, "gap.msh", model_in);
  g_autoptr(MshedDocument) doc = mshed_document_open (path, MSHED_MODE_STRICT, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) renamed = NULL;
  g_autoptr(GBytes) expected = NULL;
  g_autoptr(GBytes) written = NULL;
  gint res10 = hand_find_type (inner, 10);

  g_assert_nonnull (doc);
  g_assert_true (mshed_document_rename_node (doc, 0, NEW_NAME, &error));
  g_assert_true (mshed_document_save (doc, MSHED_SAVE_NO_BACKUP, &error));
  g_assert_no_error (error);
  renamed = hand_rename_node0 (g_array_index (inner, HandEntry, res10).payload, NEW_NAME);
  hand_set_payload (inner, (guint) res10, renamed);
  expected = noncanonical_model (inner, FALSE);
  written = read_file (path);
  assert_bytes_equal (written, expected);
}

/* Only an explicit repack drops the blocks; it names each (file, offset, size) first. */
static void
test_repack (Fixture       *f,
             gconstpointer  data)
{
  GapFile g;
  g_autofree char *out_path = g_build_filename (f->dir, "packed.rlb", NULL);
  g_autoptr(MshedDocument) doc = NULL;
  g_autoptr(GPtrArray) losses = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(MshedNres) back = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autofree char *l0 = NULL;
  g_autofree char *l1 = NULL;
  g_autofree char *l2 = NULL;
  g_autofree char *l3 = NULL;
  guint32 model_at;

  gap_file_init (&g, f, 31, FALSE);
  doc = mshed_document_open (g.spec, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  model_at = g_array_index (g.outer, HandEntry, 1).offset;
  l0 = g_strdup_printf ("%s: 16 unreferenced bytes at offset 24 (0x18)", g.path);
  l1 = g_strdup_printf ("%s: 2040 unreferenced bytes at offset %u", g.path,
                        (model_at + (guint32) g_bytes_get_size (g.model) + 7) & ~7u);
  l2 = g_strdup_printf ("%s: 8 unreferenced bytes at offset %u", g.path,
                        g_array_index (g.outer, HandEntry, 2).offset + 24);
  l3 = g_strdup_printf ("%s:SHIP_29.msh: 2040 unreferenced bytes at offset 16 of the model "
                        "(file offset %u,", g.path, model_at + 16);
  losses = mshed_document_list_repack_losses (doc);
  g_assert_cmpuint (losses->len, ==, 6);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (losses, 0), l0));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (losses, 1), l1));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (losses, 2), l2));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (losses, 3), l3));
  g_assert_nonnull (strstr (g_ptr_array_index (losses, 4), "24 unreferenced bytes"));
  g_assert_nonnull (strstr (g_ptr_array_index (losses, 5), "16 unreferenced bytes"));

  g_assert_true (mshed_document_rename_node (doc, 0, NEW_NAME, &error));
  g_assert_true (mshed_document_save_as (doc, out_path, MSHED_SAVE_REPACK, &error));
  g_assert_no_error (error);
  written = read_file (out_path);
  back = mshed_nres_parse (written, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (mshed_nres_is_canonical (back));
  {
    g_autoptr(GBytes) m = mshed_nres_entry_dup_bytes (mshed_nres_peek_entry (back, 1));
    g_autoptr(MshedNres) model = mshed_nres_parse (m, MSHED_MODE_STRICT, NULL, &error);

    g_assert_no_error (error);
    g_assert_true (mshed_nres_is_canonical (model));
  }
  /* the document continues from the repacked file */
  g_assert_false (mshed_document_get_modified (doc));
  again = mshed_document_serialize_file (doc);
  assert_bytes_equal (again, written);
  g_clear_pointer (&losses, g_ptr_array_unref);
  losses = mshed_document_list_repack_losses (doc);
  g_assert_cmpuint (losses->len, ==, 0);
  gap_file_clear (&g);
}

/* Strict checks of the whole file before writing ----------------------------------------- */

typedef enum {
  DEFECT_VERSION,     /* header version 0x200 */
  DEFECT_SORT_INDEX,  /* directory record 0: sort_index 99 */
} Defect;

static GBytes *
with_defect (GBytes *bytes,
             Defect  defect)
{
  gsize len = g_bytes_get_size (bytes);
  guint8 *data = g_malloc (len);

  g_assert_cmpuint (len, >=, 16);
  memcpy (data, g_bytes_get_data (bytes, NULL), len);

  if (defect == DEFECT_VERSION)
    hand_put_u32 (data + 4, 0x200);
  else
    hand_put_u32 (data + hand_u32 (data + 12) - hand_u32 (data + 8) * 64 + 60, 99);
  return g_bytes_new_take (data, len);
}

typedef struct {
  Defect      defect;
  const char *where;   /* "model", "inner" or "outer" */
  const char *field;   /* what the refusal must name */
} DefectCase;

static void
test_refuses_container (Fixture       *f,
                        gconstpointer  data)
{
  static const DefectCase cases[] = {
    { DEFECT_VERSION, "model", "field version" },
    { DEFECT_SORT_INDEX, "model", "field sort_index" },
    { DEFECT_VERSION, "inner", "SHIP_29.msh: NRes header, field version" },
    { DEFECT_SORT_INDEX, "inner", "SHIP_29.msh: NRes directory record 0, field sort_index" },
    { DEFECT_VERSION, "outer", "NRes header, field version" },
    { DEFECT_SORT_INDEX, "outer", "NRes directory record 0, field sort_index" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const DefectCase *dc = &cases[c];
      g_autoptr(GBytes) model = generated_model (40 + c);
      g_autoptr(GBytes) file = NULL;
      g_autofree char *name = g_strdup_printf ("case%u.%s", c,
                                               strcmp (dc->where, "model") ? "rlb" : "msh");
      g_autofree char *path = NULL;
      g_autofree char *spec = NULL;
      g_autofree char *out = g_strdup_printf ("%s/out%u", f->dir, c);
      g_autoptr(MshedDocument) doc = NULL;
      g_autoptr(GError) error = NULL;

      if (strcmp (dc->where, "model") == 0)
        file = with_defect (model, dc->defect);
      else
        {
          g_autoptr(GBytes) inner = strcmp (dc->where, "inner") == 0
                                      ? with_defect (model, dc->defect) : g_bytes_ref (model);
          g_autoptr(GArray) outer = outer_entries (inner);
          g_autoptr(GBytes) archive = hand_nres_build (outer, outer_items,
                                                       G_N_ELEMENTS (outer_items));

          file = strcmp (dc->where, "outer") == 0 ? with_defect (archive, dc->defect)
                                                  : g_bytes_ref (archive);
        }
      path = write_file (f, name, file);
      spec = strcmp (dc->where, "model") == 0 ? g_strdup (path)
                                               : g_strdup_printf ("%s:SHIP_29.msh", path);

      /* the strict open refuses it; tolerant opens it, and an edit still cannot save it */
      g_assert_null (mshed_document_open (spec, MSHED_MODE_STRICT, NULL));
      doc = mshed_document_open (spec, MSHED_MODE_TOLERANT, &error);
      g_assert_no_error (error);
      g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_NODES, 0, "hdr0", 0, NULL));
      g_assert_false (mshed_document_save_as (doc, out, MSHED_SAVE_FLAGS_NONE, &error));
      g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
      if (strstr (error->message, dc->field) == NULL || strstr (error->message, out) == NULL)
        g_error ("case %u: “%s” and “%s” not in: %s", c, dc->field, out, error->message);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      g_clear_error (&error);

      /* saved anyway, it keeps the defect (lossless) */
      g_assert_true (mshed_document_save_as (doc, out, MSHED_SAVE_ANYWAY | MSHED_SAVE_NO_BACKUP,
                                             &error));
      g_assert_no_error (error);
      {
        g_autoptr(GBytes) written = read_file (out);
        g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();

        mshed_validate_file_bytes (written, MSHED_MODE_STRICT, diags, NULL, NULL);
        g_assert_cmpuint (diags->n_errors, >, 0);
      }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/model/document/save/lossless/nested", test_nested_rename);
  ADD ("/model/document/save/lossless/nested-reverse", test_nested_rename_reverse);
  ADD ("/model/document/save/lossless/loose", test_loose_rename);
  ADD ("/model/document/save/repack", test_repack);
  ADD ("/model/document/save/refuses-container", test_refuses_container);
#undef ADD

  return g_test_run ();
}
