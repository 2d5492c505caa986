/* test-document-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One document core for both containers: a UTF file (a generated DFM, a generic tree) opened
 * as a MshedDocument, every UTF command done, undone and redone byte for byte, what DFM edits
 * make stale (docs/dfm.md §15.1), the checks after edits, reload and atomic save.
 * Expected values come from docs/dfm.md and from reading the written bytes back with the
 * plain reader, never from the document itself.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-generator.h"
#include "mshed-dfm-validate.h"
#include "mshed-document.h"
#include "mshed-error.h"
#include "mshed-source.h"
#include "mshed-utf-generator.h"

typedef struct {
  char          *dir;
  char          *path;
  GBytes        *bytes;
  MshedDocument *doc;
} Fixture;

static void
write_file (const char *path,
            GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                       &error);
  g_assert_no_error (error);
}

static void
fixture_open (Fixture         *f,
              MshedDfmGenKind  kind,
              guint64          seed)
{
  MshedDfmGenParams params;
  g_autoptr(GError) error = NULL;

  mshed_dfm_gen_params_init (&params, kind, seed);
  f->dir = g_dir_make_tmp ("mshed-docutf-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "model.dfm", NULL);
  f->bytes = mshed_dfm_generate_bytes (&params);
  write_file (f->path, f->bytes);
  f->doc = mshed_document_open (f->path, MSHED_MODE_STRICT, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f->doc);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  fixture_open (f, MSHED_DFM_GEN_HEAD, 7);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  g_clear_object (&f->doc);
  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *p = g_build_filename (f->dir, name, NULL);

      g_unlink (p);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_bytes_unref (f->bytes);
}

static MshedUtfNode *
lookup (MshedDocument *doc,
        const char    *path)
{
  MshedUtfNode *node = mshed_utf_lookup (mshed_document_get_utf (doc), path);

  if (node == NULL)
    g_error ("no %s", path);
  return node;
}

static GBytes *
serialize (MshedDocument *doc)
{
  GBytes *bytes = mshed_document_serialize_file (doc);

  g_assert_nonnull (bytes);
  return bytes;
}

/* The typed view of bytes the document wrote, read by the plain reader. */
static MshedDfm *
reread (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_dfm_new_from_bytes (bytes, MSHED_MODE_TOLERANT, NULL, &error);

  g_assert_no_error (error);
  return dfm;
}

/* Undo gives back @before exactly, redo @after exactly. */
static void
assert_undo_redo (MshedDocument *doc,
                  GBytes        *before,
                  GBytes        *after)
{
  g_assert_true (mshed_document_undo (doc));
  {
    g_autoptr(GBytes) now = serialize (doc);

    g_assert_true (g_bytes_equal (now, before));
  }
  g_assert_true (mshed_document_redo (doc));
  {
    g_autoptr(GBytes) now = serialize (doc);

    g_assert_true (g_bytes_equal (now, after));
  }
}

static gboolean
has_stale (MshedDocument *doc,
           MshedDerived   target,
           MshedEditKind  cause,
           gint           row)
{
  g_autoptr(GPtrArray) stale = mshed_document_list_stale (doc);

  for (guint i = 0; i < stale->len; i++)
    {
      const MshedStale *s = g_ptr_array_index (stale, i);

      if (s->target != target || s->cause != cause)
        continue;
      if (row < 0 || s->n_rows == 0)
        return TRUE;
      for (guint k = 0; k < s->n_rows; k++)
        if (s->rows[k] == (guint) row)
          return TRUE;
    }
  return FALSE;
}

/* Opening -------------------------------------------------------------------------------- */

static void
test_open (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GBytes) out = serialize (f->doc);
  g_autoptr(GError) error = NULL;
  const MshedDiagnostics *diags = mshed_document_get_diagnostics (f->doc);

  g_assert_cmpint (mshed_document_get_container (f->doc), ==, MSHED_CONTAINER_UTF);
  g_assert_null (mshed_document_get_model (f->doc));
  g_assert_nonnull (mshed_document_get_utf (f->doc));
  g_assert_nonnull (mshed_document_get_dfm (f->doc));
  g_assert_cmpstr (mshed_document_get_title (f->doc), ==, "model.dfm");
  g_assert_true (g_bytes_equal (out, f->bytes));
  g_assert_cmpuint (diags->n_errors, ==, 0);
  g_assert_false (mshed_document_get_modified (f->doc));
  g_assert_false (mshed_document_can_undo (f->doc));

  /* the Parkan entry points refuse with a message */
  g_assert_false (mshed_document_set_field_text (f->doc, MSHED_TABLE_NODES, 0, "hdr0", "1",
                                                 &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (mshed_document_insert_rows (f->doc, MSHED_TABLE_SLOTS, 0, 1, NULL, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_UNSUPPORTED);
}

/* A strict open of a broken DFM fails with the rule; tolerant opens it with the finding. */
static void
test_open_broken (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDocument) tolerant = NULL;
  MshedUtfNode *cmpnd = lookup (f->doc, "\\Cmpnd");
  g_autofree char *broken = g_build_filename (f->dir, "broken.dfm", NULL);

  g_assert_true (mshed_document_utf_remove (f->doc, cmpnd, &error));
  g_assert_no_error (error);
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                            MSHED_CHECK_DFM_CMPND_MISSING));
  /* a strict-invalid tree is not saved unless asked */
  g_assert_false (mshed_document_save_as (f->doc, broken, MSHED_SAVE_NO_BACKUP, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Cmpnd"));
  g_assert_false (g_file_test (broken, G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  g_assert_true (mshed_document_save_as (f->doc, broken, MSHED_SAVE_ANYWAY | MSHED_SAVE_NO_BACKUP,
                                         &error));
  g_assert_no_error (error);

  g_assert_null (mshed_document_open (broken, MSHED_MODE_STRICT, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "broken.dfm"));
  g_clear_error (&error);
  tolerant = mshed_document_open (broken, MSHED_MODE_TOLERANT, &error);
  g_assert_no_error (error);
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (tolerant),
                                            MSHED_CHECK_DFM_CMPND_MISSING));
}

/* Typed field edits ---------------------------------------------------------------------- */

static void
test_set_field (Fixture       *f,
                gconstpointer  data)
{
  MshedUtfNode *points = lookup (f->doc, "\\MultiLevel\\Mesh0\\Geometry\\Points");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(MshedDfm) back = NULL;
  float p[3], q[3], np[3], nq[3];
  const guint8 *a, *b;
  guint n_diff = 0;

  g_assert_true (mshed_document_dfm_set_field (f->doc, points, 3, "y", "1.5", &error));
  g_assert_no_error (error);
  g_assert_true (mshed_document_get_modified (f->doc));
  after = serialize (f->doc);
  back = reread (after);
  g_assert_true (mshed_dfm_get_point (back, 0, 3, q, nq));
  g_assert_cmpfloat (q[1], ==, 1.5f);
  {
    g_autoptr(MshedDfm) orig = reread (f->bytes);

    g_assert_true (mshed_dfm_get_point (orig, 0, 3, p, np));
    g_assert_cmpfloat (q[0], ==, p[0]);
    g_assert_cmpfloat (q[2], ==, p[2]);
  }
  /* a payload edit in place keeps the layout: at most the 4 bytes of the float differ */
  g_assert_cmpuint (g_bytes_get_size (after), ==, g_bytes_get_size (f->bytes));
  a = g_bytes_get_data (after, NULL);
  b = g_bytes_get_data (f->bytes, NULL);
  for (gsize i = 0; i < g_bytes_get_size (after); i++)
    n_diff += a[i] != b[i];
  g_assert_cmpuint (n_diff, >=, 1);
  g_assert_cmpuint (n_diff, <=, 4);
  /* moving a point makes the normals of its mesh stale, as an option (docs/dfm.md §15.1) */
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_VERTEX_NORMALS, MSHED_EDIT_DFM_POINTS, 0));
  g_assert_cmpstr (mshed_document_get_undo_label (f->doc), ==,
                   "Edit \\MultiLevel\\Mesh0\\Geometry\\Points[3].y");

  /* a second edit of the same cell merges into one step */
  g_assert_true (mshed_document_dfm_set_field (f->doc, points, 3, "y", "2.5", &error));
  g_assert_true (mshed_document_undo (f->doc));
  {
    g_autoptr(GBytes) now = serialize (f->doc);

    g_assert_true (g_bytes_equal (now, f->bytes));
  }
  g_assert_false (mshed_document_get_modified (f->doc));
  g_assert_false (has_stale (f->doc, MSHED_DERIVED_DFM_VERTEX_NORMALS, MSHED_EDIT_DFM_POINTS, -1));
  g_assert_false (mshed_document_can_undo (f->doc));

  /* bad input names the node, record and field */
  g_assert_false (mshed_document_dfm_set_field (f->doc, points, 100000, "y", "1", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_nonnull (strstr (error->message, "Points"));
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_set_field (f->doc, points, 0, "w", "1", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (mshed_document_dfm_set_field (f->doc, points, 0, "x", "abc", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "Points[0].x"));
}

static void
test_set_strings (Fixture       *f,
                  gconstpointer  data)
{
  MshedUtfNode *name = lookup (f->doc, "\\Skeleton\\Name");
  MshedDfm *dfm = mshed_document_get_dfm (f->doc);
  MshedDfmJoint joint;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  gsize size = 0;
  const guint8 *data8;
  MshedUtfNode *cons;

  g_assert_true (mshed_document_dfm_set_field (f->doc, name, 0, NULL, "Skel02.cmp", &error));
  g_assert_no_error (error);
  data8 = mshed_utf_node_peek_data (name, &size);
  /* the generator writes the final NUL (docs/dfm.md §7); the edit keeps it */
  g_assert_cmpuint (size, ==, 11);
  g_assert_cmpmem (data8, size, "Skel02.cmp", 11);
  g_assert_cmpstr (mshed_dfm_get_skeleton_name (dfm), ==, "Skel02.cmp");
  after = serialize (f->doc);
  assert_undo_redo (f->doc, f->bytes, after);

  /* a Cons record's child name: 64 bytes, NUL-padded (docs/dfm.md §9.1) */
  g_assert_true (mshed_dfm_get_joint (dfm, 0, &joint));
  cons = joint.node;
  g_assert_true (mshed_document_dfm_set_field (f->doc, cons, joint.record, "child", "Renamed",
                                               &error));
  g_assert_no_error (error);
  data8 = mshed_utf_node_peek_data (cons, &size);
  g_assert_cmpstr ((const char *) data8 + 64, ==, "Renamed");
  for (guint i = 64 + 8; i < 128; i++)
    g_assert_cmpuint (data8[i], ==, 0);
  /* the joint names an unknown part now, and the bone below it may be posed otherwise */
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                            MSHED_CHECK_DFM_CONS_UNKNOWN_PART));
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_BONE_TO_ROOT, MSHED_EDIT_DFM_JOINTS, -1));
  g_assert_false (mshed_document_dfm_set_field (f->doc, cons, joint.record, "child",
                                                "A name that is much too long for the 64 bytes "
                                                "of a Cons record name field", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_null (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                         MSHED_CHECK_DFM_CONS_UNKNOWN_PART));
}

/* A group's triangles as a list, written back as a strip (docs/dfm.md §5.3). */
static void
test_set_triangles (Fixture       *f,
                    gconstpointer  data)
{
  MshedDfm *dfm = mshed_document_get_dfm (f->doc);
  gsize n = 0, n_back = 0;
  g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, 0, 0, &n);
  g_autofree guint16 *back_tris = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(MshedDfm) back = NULL;

  g_assert_cmpuint (n, >, 2);
  /* drop the last triangle */
  g_assert_true (mshed_document_dfm_set_triangles (f->doc, 0, 0, tris, n - 1, &error));
  g_assert_no_error (error);
  after = serialize (f->doc);
  back = reread (after);
  back_tris = mshed_dfm_dup_triangles (back, 0, 0, &n_back);
  g_assert_cmpuint (n_back, ==, n - 1);
  /* same triangles, same winding (a strip may start each at another corner) */
  for (gsize t = 0; t < n - 1; t++)
    {
      const guint16 *x = tris + 3 * t, *y = back_tris + 3 * t;
      gboolean same = FALSE;

      for (guint r = 0; r < 3 && !same; r++)
        same = x[0] == y[r] && x[1] == y[(r + 1) % 3] && x[2] == y[(r + 2) % 3];
      g_assert_true (same);
    }
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_VERTEX_NORMALS, MSHED_EDIT_DFM_TOPOLOGY,
                            0));
  assert_undo_redo (f->doc, f->bytes, after);
}

/* Tree edits ----------------------------------------------------------------------------- */

static void
on_changed (MshedDocument     *doc,
            const MshedChange *change,
            GPtrArray         *log)
{
  g_ptr_array_add (log, mshed_change_copy (change));
}

static void
test_tree_edits (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_change_free);
  MshedUtfNode *root = mshed_utf_get_root (mshed_document_get_utf (f->doc));
  MshedUtfNode *dir, *file, *skeleton = lookup (f->doc, "\\Skeleton");
  g_autoptr(GBytes) payload = g_bytes_new ("abc", 3);
  GBytes *steps[6];
  guint n_steps = 0;
  const MshedChange *c;

  mshed_utf_set_new_entry_time (mshed_document_get_utf (f->doc), 0x5A8E6C21u);
  g_signal_connect (f->doc, "changed", G_CALLBACK (on_changed), log);
  steps[n_steps++] = g_bytes_ref (f->bytes);

  dir = mshed_document_utf_add (f->doc, root, G_MAXUINT, "Extra", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (dir);
  c = g_ptr_array_index (log, log->len - 1);
  g_assert_true (c->node == dir);
  g_assert_cmpuint (c->n_added, ==, 1);
  g_assert_true (c->flags & MSHED_CHANGE_FLAG_DIRECTORY);
  steps[n_steps++] = serialize (f->doc);

  file = mshed_document_utf_add (f->doc, dir, 0, "Note", payload, &error);
  g_assert_no_error (error);
  steps[n_steps++] = serialize (f->doc);

  g_assert_true (mshed_document_utf_rename (f->doc, file, "Remark", &error));
  g_assert_no_error (error);
  steps[n_steps++] = serialize (f->doc);

  g_assert_true (mshed_document_utf_move (f->doc, file, skeleton, 0, &error));
  g_assert_no_error (error);
  steps[n_steps++] = serialize (f->doc);

  g_assert_true (mshed_document_utf_remove (f->doc, dir, &error));
  g_assert_no_error (error);
  steps[n_steps++] = serialize (f->doc);

  /* what each step wrote, read back by the plain reader */
  {
    g_autoptr(MshedUtf) last = mshed_utf_parse (steps[n_steps - 1], MSHED_MODE_STRICT, NULL,
                                                &error);
    MshedUtfNode *moved;
    gsize size = 0;
    const guint8 *d;

    g_assert_no_error (error);
    g_assert_null (mshed_utf_lookup (last, "\\Extra"));
    moved = mshed_utf_lookup (last, "\\Skeleton\\Remark");
    g_assert_nonnull (moved);
    g_assert_cmpuint (mshed_utf_node_get_index (moved), ==, 0);
    d = mshed_utf_node_peek_data (moved, &size);
    g_assert_cmpmem (d, size, "abc", 3);
  }

  /* refused edits change nothing and say why */
  g_assert_false (mshed_document_utf_rename (f->doc, file, "name", &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (mshed_document_utf_move (f->doc, skeleton, file, 0, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (mshed_document_utf_remove (f->doc, root, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_null (mshed_document_utf_add (f->doc, file, 0, "x", NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* every step undone and redone, byte for byte */
  for (guint i = n_steps - 1; i > 0; i--)
    {
      g_autoptr(GBytes) now = NULL;

      g_assert_true (mshed_document_undo (f->doc));
      now = serialize (f->doc);
      g_assert_true (g_bytes_equal (now, steps[i - 1]));
    }
  g_assert_false (mshed_document_get_modified (f->doc));
  for (guint i = 1; i < n_steps; i++)
    {
      g_autoptr(GBytes) now = NULL;

      g_assert_true (mshed_document_redo (f->doc));
      now = serialize (f->doc);
      g_assert_true (g_bytes_equal (now, steps[i]));
    }
  for (guint i = 0; i < n_steps; i++)
    g_bytes_unref (steps[i]);
}

/* Tree edits make DFM data stale (docs/dfm.md §15.1). */
static void
test_tree_stale (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  MshedDfm *dfm = mshed_document_get_dfm (f->doc);
  MshedDfmLevel level;
  MshedDfmGroup group;
  MshedDfmBone bone;

  g_assert_true (mshed_dfm_get_level (dfm, 1, &level));
  g_assert_cmpuint (level.n_groups, >=, 1);
  g_assert_true (mshed_dfm_get_group (dfm, 1, level.n_groups - 1, &group));
  g_assert_true (mshed_document_utf_remove (f->doc, group.node, &error));
  g_assert_no_error (error);
  /* Face_groups/Count of mesh 1 no longer counts the groups */
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, 1));
  g_assert_false (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, 0));
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                            MSHED_CHECK_DFM_GROUP_COUNT));
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_false (mshed_document_has_stale (f->doc));
  g_assert_null (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                         MSHED_CHECK_DFM_GROUP_COUNT));

  /* a level removed: Fractions and Lod Bits */
  g_assert_true (mshed_dfm_get_level (dfm, mshed_dfm_get_n_levels (dfm) - 1, &level));
  g_assert_true (mshed_document_utf_remove (f->doc, level.node, &error));
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_FRACTIONS, MSHED_EDIT_DFM_LEVELS, -1));
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_LOD_BITS, MSHED_EDIT_DFM_LEVELS, -1));
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                            MSHED_CHECK_DFM_FRACTIONS));
  g_assert_true (mshed_document_undo (f->doc));

  /* a bone moved to the end of the root: the parts' Index values */
  g_assert_true (mshed_dfm_get_bone (dfm, 1, &bone));
  g_assert_true (mshed_document_utf_move (f->doc, bone.node,
                                          mshed_utf_get_root (mshed_document_get_utf (f->doc)),
                                          G_MAXUINT, &error));
  g_assert_no_error (error);
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_PART_INDEX, MSHED_EDIT_DFM_BONES, -1));
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                            MSHED_CHECK_DFM_PART_INDEX));
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_cmpuint (mshed_document_get_diagnostics (f->doc)->n_errors, ==, 0);
}

static guint32
read_u32_at (MshedDocument *doc,
             const char    *path,
             gsize          offset)
{
  gsize size = 0;
  const guint8 *d = mshed_utf_node_peek_data (lookup (doc, path), &size);

  g_assert_cmpuint (size, >=, offset + 4);
  return mshed_read_u32 (d + offset);
}

/* The names of the bones point @p's influences use, in order. */
static char *
influence_names (MshedDfm *dfm,
                 guint     level,
                 guint     p)
{
  GString *s = g_string_new (NULL);
  guint32 first = 0, count = 0;

  g_assert_true (mshed_dfm_get_skin_range (dfm, level, p, &first, &count));
  for (guint k = 0; k < count; k++)
    {
      guint32 bone_id = 0;
      float w = 0;
      MshedDfmBone bone;

      g_assert_true (mshed_dfm_get_influence (dfm, level, first + k, &bone_id, &w));
      g_assert_true (mshed_dfm_get_bone (dfm, bone_id, &bone));
      g_string_append_printf (s, "%s ", bone.name);
    }
  return g_string_free (s, FALSE);
}

/* Stale data recomputed through the document (docs/dfm.md §15.1): determined values by
 * "recompute all", conventions only on request; a bone moved keeps its skin. */
static void
test_recompute (Fixture       *f,
                gconstpointer  data)
{
  MshedDfm *dfm = mshed_document_get_dfm (f->doc);
  g_autoptr(GError) error = NULL;
  MshedDfmLevel level;
  MshedDfmGroup group;
  MshedDfmBone bone;
  guint n_levels = mshed_dfm_get_n_levels (dfm), n_groups;
  float fractions[8];
  g_autoptr(GPtrArray) skins = g_ptr_array_new_with_free_func (g_free);

  /* a face group removed: Face_groups/Count */
  g_assert_true (mshed_dfm_get_level (dfm, 1, &level));
  n_groups = level.n_groups;
  g_assert_cmpuint (read_u32_at (f->doc, "\\MultiLevel\\Mesh1\\Face_groups\\Count", 0), ==,
                    n_groups);
  g_assert_true (mshed_dfm_get_group (dfm, 1, n_groups - 1, &group));
  g_assert_true (mshed_document_utf_remove (f->doc, group.node, &error));
  g_assert_true (mshed_document_recompute_stale_all (f->doc, MSHED_DERIVED_DETERMINED, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (read_u32_at (f->doc, "\\MultiLevel\\Mesh1\\Face_groups\\Count", 0), ==,
                    n_groups - 1);
  g_assert_false (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, -1));
  /* point normals are a convention: still offered, not applied by "all" */
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_VERTEX_NORMALS, MSHED_EDIT_DFM_GROUPS, 1));
  g_assert_null (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                         MSHED_CHECK_DFM_GROUP_COUNT));
  g_assert_cmpstr (mshed_document_get_undo_label (f->doc), ==, "Recompute stale data");
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, 1));
  g_assert_true (mshed_document_undo (f->doc));

  /* a stale row follows its level when an earlier level goes */
  g_assert_true (mshed_dfm_get_level (dfm, 2, &level));
  g_assert_true (mshed_dfm_get_group (dfm, 2, level.n_groups - 1, &group));
  n_groups = level.n_groups;
  g_assert_true (mshed_document_utf_remove (f->doc, group.node, &error));
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, 2));
  g_assert_true (mshed_dfm_get_level (dfm, 1, &level));
  g_assert_true (mshed_document_utf_remove (f->doc, level.node, &error));
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, 1));
  g_assert_false (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, 2));
  g_assert_true (mshed_document_recompute_stale_all (f->doc, MSHED_DERIVED_DETERMINED, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (read_u32_at (f->doc, "\\MultiLevel\\Mesh2\\Face_groups\\Count", 0), ==,
                    n_groups - 1);
  g_assert_false (has_stale (f->doc, MSHED_DERIVED_DFM_GROUP_COUNT, MSHED_EDIT_DFM_GROUPS, -1));
  while (mshed_document_undo (f->doc))
    ;

  /* the last level removed: Lod Bits (determined) and Fractions (convention) */
  for (guint l = 0; l < n_levels; l++)
    g_assert_true (mshed_dfm_get_fraction (dfm, l, &fractions[l]));
  g_assert_true (mshed_dfm_get_level (dfm, n_levels - 1, &level));
  g_assert_true (mshed_document_utf_remove (f->doc, level.node, &error));
  g_assert_true (mshed_document_recompute_stale_all (f->doc, MSHED_DERIVED_DETERMINED, &error));
  for (guint b = 0; b < mshed_dfm_get_n_bones (dfm); b++)
    {
      g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
      /* docs/dfm.md §10.3: all level bits or none */
      g_assert_true (bone.lod_bits == 0 || bone.lod_bits == (1u << (n_levels - 1)) - 1);
    }
  g_assert_true (has_stale (f->doc, MSHED_DERIVED_DFM_FRACTIONS, MSHED_EDIT_DFM_LEVELS, -1));
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                            MSHED_CHECK_DFM_FRACTIONS));
  g_assert_true (mshed_document_recompute_stale (f->doc, MSHED_DERIVED_DFM_FRACTIONS,
                                                 MSHED_EDIT_DFM_LEVELS, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mshed_dfm_get_n_fractions (dfm), ==, n_levels - 1);
  for (guint l = 0; l + 1 < n_levels; l++)
    {
      float v;

      g_assert_true (mshed_dfm_get_fraction (dfm, l, &v));
      g_assert_cmpfloat (v, ==, fractions[l]);  /* stored values are kept */
    }
  g_assert_cmpuint (mshed_document_get_diagnostics (f->doc)->n_errors, ==, 0);
  while (mshed_document_undo (f->doc))
    ;

  /* bone 1 moved to the end of the root: the skin still names the same bones */
  g_assert_true (mshed_dfm_get_level (dfm, 0, &level));
  for (guint p = 0; p < level.n_points; p++)
    g_ptr_array_add (skins, influence_names (dfm, 0, p));
  g_assert_true (mshed_dfm_get_bone (dfm, 1, &bone));
  g_assert_true (mshed_document_utf_move (f->doc, bone.node,
                                          mshed_utf_get_root (mshed_document_get_utf (f->doc)),
                                          G_MAXUINT, &error));
  g_assert_no_error (error);
  for (guint p = 0; p < level.n_points; p++)
    {
      g_autofree char *now = influence_names (dfm, 0, p);

      g_assert_cmpstr (now, ==, g_ptr_array_index (skins, p));
    }
  g_assert_nonnull (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                            MSHED_CHECK_DFM_PART_INDEX));
  g_assert_true (mshed_document_recompute_stale_all (f->doc, MSHED_DERIVED_DETERMINED, &error));
  g_assert_cmpuint (mshed_document_get_diagnostics (f->doc)->n_errors, ==, 0);
  g_assert_false (mshed_document_has_stale (f->doc));
  {
    g_autofree char *out = g_build_filename (f->dir, "moved.dfm", NULL);

    g_assert_true (mshed_document_save_as (f->doc, out, MSHED_SAVE_NO_BACKUP, &error));
    g_assert_no_error (error);
  }
}

/* Renaming a bone directory or a material: the strings naming it follow, in one step. */
static void
test_rename_references (Fixture       *f,
                        gconstpointer  data)
{
  MshedDfm *dfm = mshed_document_get_dfm (f->doc);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  MshedDfmBone bone;
  MshedDfmPart part;
  MshedDfmGroup group;
  MshedDfmMaterial mat;
  g_autofree char *old_name = NULL;
  gint p = -1;

  /* the bone of part 1 */
  g_assert_true (mshed_dfm_get_part (dfm, 1, &part));
  g_assert_cmpint (part.bone, >=, 0);
  g_assert_true (mshed_dfm_get_bone (dfm, (guint) part.bone, &bone));
  g_assert_true (mshed_document_utf_rename (f->doc, bone.node, "Renamed01.3db", &error));
  g_assert_no_error (error);
  after = serialize (f->doc);
  {
    g_autoptr(MshedDfm) back = reread (after);
    g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
    MshedDfmPart bp;

    g_assert_true (mshed_dfm_get_part (back, 1, &bp));
    g_assert_cmpstr (bp.file_name, ==, "Renamed01.3db");
    g_assert_cmpint (bp.bone, ==, part.bone);
    mshed_dfm_validate (back, MSHED_MODE_STRICT, diags);
    g_assert_cmpuint (diags->n_errors, ==, 0);
  }
  /* the order of the bones did not change: nothing is stale */
  g_assert_false (mshed_document_has_stale (f->doc));
  g_assert_cmpuint (mshed_document_get_diagnostics (f->doc)->n_errors, ==, 0);
  assert_undo_redo (f->doc, f->bytes, after);
  g_assert_true (mshed_document_undo (f->doc));

  /* the material of group 0 of Mesh0 */
  g_assert_true (mshed_dfm_get_group (dfm, 0, 0, &group));
  g_assert_cmpint (group.material, >=, 0);
  g_assert_true (mshed_dfm_get_material (dfm, (guint) group.material, &mat));
  old_name = g_strdup (mat.name);  /* the view's strings change with the tree */
  g_assert_true (mshed_document_utf_rename (f->doc, mat.node, "new_skin", &error));
  g_assert_no_error (error);
  for (guint l = 0; l < mshed_dfm_get_n_levels (dfm); l++)
    {
      MshedDfmLevel level;

      g_assert_true (mshed_dfm_get_level (dfm, l, &level));
      for (guint g = 0; g < level.n_groups; g++)
        {
          MshedDfmGroup gr;

          g_assert_true (mshed_dfm_get_group (dfm, l, g, &gr));
          if (gr.material == group.material)
            p = 0;
          g_assert_cmpstr (gr.material_name, !=, old_name);
        }
    }
  g_assert_cmpint (p, ==, 0);
  g_assert_true (mshed_dfm_get_group (dfm, 0, 0, &group));
  g_assert_cmpstr (group.material_name, ==, "new_skin");
  g_assert_null (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                         MSHED_CHECK_DFM_MATERIAL_UNRESOLVED));
  g_assert_true (mshed_document_undo (f->doc));
  {
    g_autoptr(GBytes) now = serialize (f->doc);

    g_assert_true (g_bytes_equal (now, f->bytes));
  }
}

static guint
count_joint_names (MshedDfm   *dfm,
                   const char *name)
{
  guint n = 0;

  for (guint j = 0; j < mshed_dfm_get_n_joints (dfm); j++)
    {
      MshedDfmJoint joint;

      g_assert_true (mshed_dfm_get_joint (dfm, j, &joint));
      n += g_ascii_strcasecmp (joint.parent, name) == 0;
      n += g_ascii_strcasecmp (joint.child, name) == 0;
    }
  return n;
}

/* A part's Object name: the Cons records naming it follow (docs/dfm.md §9.1); a texture
 * directory: the materials' Dt_name (docs/dfm.md §11). */
static void
test_rename_object (Fixture       *f,
                    gconstpointer  data)
{
  MshedDfm *dfm = mshed_document_get_dfm (f->doc);
  g_autoptr(GError) error = NULL;
  g_autofree char *old = NULL;
  g_autofree gint *parents = NULL;
  guint n_bones = mshed_dfm_get_n_bones (dfm), n_refs;
  MshedDfmPart part;
  MshedDfmMaterial mat;
  MshedUtfNode *texture;

  parents = g_new (gint, n_bones);
  for (guint b = 0; b < n_bones; b++)
    {
      MshedDfmBone bone;

      g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
      parents[b] = bone.parent;
    }
  g_assert_true (mshed_dfm_get_part (dfm, 2, &part));
  old = g_strdup (part.object_name);
  n_refs = count_joint_names (dfm, old);
  g_assert_cmpuint (n_refs, >=, 1);
  g_assert_true (mshed_document_dfm_set_field (f->doc,
                                               mshed_dfm_find_node (dfm,
                                                                    MSHED_DFM_TABLE_OBJECT_NAME,
                                                                    2, 0),
                                               0, NULL, "Renamed part", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_joint_names (dfm, "Renamed part"), ==, n_refs);
  g_assert_cmpuint (count_joint_names (dfm, old), ==, 0);
  /* the hierarchy through the constraints is the same */
  for (guint b = 0; b < n_bones; b++)
    {
      MshedDfmBone bone;

      g_assert_true (mshed_dfm_get_bone (dfm, b, &bone));
      g_assert_cmpint (bone.parent, ==, parents[b]);
    }
  g_assert_null (mshed_diagnostics_find (mshed_document_get_diagnostics (f->doc),
                                         MSHED_CHECK_DFM_CONS_UNKNOWN_PART));
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_cmpuint (count_joint_names (dfm, old), ==, n_refs);

  /* the texture of material 0 */
  g_assert_true (mshed_dfm_get_material (dfm, 0, &mat));
  g_assert_nonnull (mat.dt_name);
  texture = mshed_utf_node_lookup (lookup (f->doc, "\\Texture library"), mat.dt_name);
  g_assert_nonnull (texture);
  g_assert_true (mshed_document_utf_rename (f->doc, texture, "renamed.tga", &error));
  g_assert_no_error (error);
  g_assert_true (mshed_dfm_get_material (dfm, 0, &mat));
  g_assert_cmpstr (mat.dt_name, ==, "renamed.tga");
  g_assert_true (mshed_document_undo (f->doc));
  {
    g_autoptr(GBytes) now = serialize (f->doc);

    g_assert_true (g_bytes_equal (now, f->bytes));
  }
}

/* Raw bytes through the container-neutral address. */
static void
test_payload_bytes (Fixture       *f,
                    gconstpointer  data)
{
  MshedUtfNode *exporter = lookup (f->doc, "\\Exporter Version");
  MshedPayloadRef ref = MSHED_PAYLOAD_UTF (exporter);
  g_autoptr(GBytes) grow = g_bytes_new ("XYZ", 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  gsize size0 = 0, size1 = 0;
  const guint8 *d;

  mshed_utf_node_peek_data (exporter, &size0);
  g_assert_true (mshed_document_replace_payload_bytes (f->doc, &ref, 0, 1, grow, &error));
  g_assert_no_error (error);
  d = mshed_utf_node_peek_data (exporter, &size1);
  g_assert_cmpuint (size1, ==, size0 + 2);
  g_assert_cmpmem (d, 3, "XYZ", 3);
  after = serialize (f->doc);
  assert_undo_redo (f->doc, f->bytes, after);
  g_assert_false (mshed_document_replace_payload_bytes (f->doc, &ref, size1, 1, grow, &error));
  g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE);
}

/* Saving and reloading ------------------------------------------------------------------- */

static void
test_save_reload (Fixture       *f,
                  gconstpointer  data)
{
  MshedUtfNode *points = lookup (f->doc, "\\MultiLevel\\Mesh0\\Geometry\\Points");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) on_disk = NULL;
  g_autofree char *bak = g_strconcat (f->path, ".bak", NULL);

  g_assert_true (mshed_document_dfm_set_field (f->doc, points, 0, "x", "-2", &error));
  after = serialize (f->doc);
  g_assert_true (mshed_document_save (f->doc, MSHED_SAVE_FLAGS_NONE, &error));
  g_assert_no_error (error);
  g_assert_false (mshed_document_get_modified (f->doc));
  on_disk = mshed_load_file (f->path, &error);
  g_assert_true (g_bytes_equal (on_disk, after));
  /* the first overwrite keeps the original */
  {
    g_autoptr(GBytes) kept = mshed_load_file (bak, &error);

    g_assert_no_error (error);
    g_assert_true (g_bytes_equal (kept, f->bytes));
  }
  /* undo past the save point is a modification again, and writes the original bytes */
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_true (mshed_document_get_modified (f->doc));
  {
    g_autoptr(GBytes) now = serialize (f->doc);

    g_assert_true (g_bytes_equal (now, f->bytes));
  }

  /* another program writes the file: reload is one undoable step */
  write_file (f->path, f->bytes);
  g_assert_true (mshed_document_redo (f->doc));
  g_assert_true (mshed_document_reload (f->doc, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GBytes) now = serialize (f->doc);

    g_assert_true (g_bytes_equal (now, f->bytes));
  }
  g_assert_false (mshed_document_get_modified (f->doc));
  g_assert_cmpstr (mshed_document_get_undo_label (f->doc), ==, "Reload from disk");
  g_assert_true (mshed_document_undo (f->doc));
  {
    g_autoptr(GBytes) now = serialize (f->doc);

    g_assert_true (g_bytes_equal (now, after));
  }
  /* the reloaded tree's nodes are not the old ones: edits still land on the right tree */
  g_assert_true (mshed_document_redo (f->doc));
  points = lookup (f->doc, "\\MultiLevel\\Mesh0\\Geometry\\Points");
  g_assert_true (mshed_document_dfm_set_field (f->doc, points, 0, "x", "-3", &error));
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_true (mshed_document_undo (f->doc));
  g_assert_true (mshed_document_undo (f->doc));
  {
    g_autoptr(GBytes) now = serialize (f->doc);

    g_assert_true (g_bytes_equal (now, f->bytes));
  }
}

/* Subtrees held by commands are freed with the commands: steps dropped at the undo limit,
 * redo steps dropped by a new edit, and the history at the end (ASan checks the frees). */
static void
test_history_limit (Fixture       *f,
                    gconstpointer  data)
{
  MshedUtfNode *root = mshed_utf_get_root (mshed_document_get_utf (f->doc));
  MshedDfm *dfm = mshed_document_get_dfm (f->doc);
  g_autoptr(GError) error = NULL;
  guint n_undo = 0;

  mshed_document_set_max_undo (f->doc, 3);
  for (guint i = 0; i < 5; i++)
    {
      MshedDfmBone bone;
      g_autofree char *name = g_strdup_printf ("extra%u", i);

      g_assert_true (mshed_dfm_get_bone (dfm, mshed_dfm_get_n_bones (dfm) - 1, &bone));
      g_assert_true (mshed_document_utf_remove (f->doc, bone.node, &error));
      g_assert_nonnull (mshed_document_utf_add (f->doc, root, 0, name, NULL, &error));
      g_assert_no_error (error);
    }
  while (mshed_document_undo (f->doc))
    n_undo++;
  g_assert_cmpuint (n_undo, ==, 3);
  /* a new edit drops the three redo steps, two of them holding new directories */
  g_assert_nonnull (mshed_document_utf_add (f->doc, root, 0, "last", NULL, &error));
  g_assert_false (mshed_document_can_redo (f->doc));
}

/* Randomized do / undo / redo ------------------------------------------------------------- */

static guint64
next_rand (guint64 *s)
{
  *s = *s * G_GUINT64_CONSTANT (6364136223846793005) + G_GUINT64_CONSTANT (1442695040888963407);
  return *s >> 33;
}

static MshedUtfNode *
pick_node (MshedUtf *utf,
           guint64  *s,
           gboolean  directory,
           gboolean  no_root)
{
  MshedUtfNode *root = mshed_utf_get_root (utf);
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();

  for (MshedUtfNode *n = root; n; n = mshed_utf_node_next_preorder (n, root))
    if ((!directory || mshed_utf_node_is_directory (n)) &&
        (!no_root || n != root))
      g_ptr_array_add (nodes, n);
  return nodes->len ? g_ptr_array_index (nodes, next_rand (s) % nodes->len) : NULL;
}

/* One random edit through the document's API; FALSE when it was refused (nothing changed). */
static gboolean
random_edit (MshedDocument *doc,
             guint64       *s)
{
  MshedUtf *utf = mshed_document_get_utf (doc);
  MshedDfm *dfm = mshed_document_get_dfm (doc);
  g_autofree char *name = g_strdup_printf ("n%u", (guint) (next_rand (s) % 30));
  MshedUtfNode *n, *dir;

  switch (next_rand (s) % 8)
    {
    case 0:   /* a typed field of a typed file */
      n = pick_node (utf, s, FALSE, TRUE);
      if (dfm && n && mshed_dfm_schema_table_for_node (n) != MSHED_DFM_TABLE_NONE)
        {
          const MshedDfmTableInfo *info =
            mshed_dfm_schema_get_table (mshed_dfm_schema_table_for_node (n));
          gsize size = 0;
          g_autofree char *text = g_strdup_printf ("%u", (guint) (next_rand (s) % 7));

          mshed_utf_node_peek_data (n, &size);
          if (info->n_fields == 0 || info->stride == 0 || size < info->stride)
            return FALSE;
          return mshed_document_dfm_set_field (doc, n, (guint) (next_rand (s) %
                                                               (size / info->stride)),
                                               info->fields[next_rand (s) % info->n_fields].name,
                                               text, NULL);
        }
      return FALSE;
    case 1:   /* raw bytes, any length */
      n = pick_node (utf, s, FALSE, TRUE);
      if (n == NULL || mshed_utf_node_is_directory (n))
        return FALSE;
      {
        gsize size = 0, off, old, len = next_rand (s) % 9;
        guint8 buf[8];
        g_autoptr(GBytes) bytes = NULL;
        MshedPayloadRef ref = MSHED_PAYLOAD_UTF (n);

        mshed_utf_node_peek_data (n, &size);
        off = size ? next_rand (s) % (size + 1) : 0;
        old = MIN (next_rand (s) % 9, size - off);
        for (guint i = 0; i < 8; i++)
          buf[i] = (guint8) next_rand (s);
        bytes = g_bytes_new (buf, len);
        return mshed_document_replace_payload_bytes (doc, &ref, off, old, bytes, NULL);
      }
    case 2:
      n = pick_node (utf, s, FALSE, TRUE);
      return n && mshed_document_utf_rename (doc, n, name, NULL);
    case 3:
    case 4:
      dir = pick_node (utf, s, TRUE, FALSE);
      if (dir == NULL)
        return FALSE;
      if (next_rand (s) % 2)
        {
          g_autoptr(GBytes) data = g_bytes_new (name, strlen (name));

          return mshed_document_utf_add (doc, dir, (guint) (next_rand (s) % 4), name, data,
                                         NULL) != NULL;
        }
      return mshed_document_utf_add (doc, dir, (guint) (next_rand (s) % 4), name, NULL,
                                     NULL) != NULL;
    case 5:
      n = pick_node (utf, s, FALSE, TRUE);
      return n && mshed_document_utf_remove (doc, n, NULL);
    case 6:
      n = pick_node (utf, s, FALSE, TRUE);
      dir = pick_node (utf, s, TRUE, FALSE);
      return n && dir && mshed_document_utf_move (doc, n, dir, (guint) (next_rand (s) % 5), NULL);
    default:  /* a whole payload */
      n = pick_node (utf, s, FALSE, TRUE);
      if (n == NULL || mshed_utf_node_is_directory (n))
        return FALSE;
      {
        g_autoptr(GBytes) data = g_bytes_new (name, strlen (name));

        return mshed_document_utf_set_data (doc, n, data, NULL);
      }
    }
}

static void
random_run (MshedDocument *doc,
            GBytes        *original,
            guint64        seed,
            guint          n_edits)
{
  g_autoptr(GPtrArray) states = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint64 s = seed;
  guint tries = 0;

  mshed_utf_set_new_entry_time (mshed_document_get_utf (doc), 0x5A8E6C21u);
  g_ptr_array_add (states, g_bytes_ref (original));
  while (states->len <= n_edits && tries++ < n_edits * 20)
    {
      gboolean undone = mshed_document_can_undo (doc);

      if (!random_edit (doc, &s))
        continue;
      /* an edit that changed nothing adds no step */
      if (undone == mshed_document_can_undo (doc))
        {
          g_autoptr(GBytes) now = serialize (doc);

          if (g_bytes_equal (now, g_ptr_array_index (states, states->len - 1)))
            continue;
        }
      g_ptr_array_add (states, serialize (doc));
      /* now and then, undo and redo the last step at once */
      if (next_rand (&s) % 4 == 0)
        {
          g_autoptr(GBytes) back = NULL;
          g_autoptr(GBytes) fwd = NULL;

          g_assert_true (mshed_document_undo (doc));
          back = serialize (doc);
          g_assert_true (g_bytes_equal (back, g_ptr_array_index (states, states->len - 2)));
          g_assert_true (mshed_document_redo (doc));
          fwd = serialize (doc);
          g_assert_true (g_bytes_equal (fwd, g_ptr_array_index (states, states->len - 1)));
        }
    }
  g_assert_cmpuint (states->len, >, n_edits / 2);
  for (guint i = states->len - 1; i > 0; i--)
    {
      g_autoptr(GBytes) now = NULL;

      g_assert_true (mshed_document_undo (doc));
      now = serialize (doc);
      g_assert_true (g_bytes_equal (now, g_ptr_array_index (states, i - 1)));
    }
  g_assert_false (mshed_document_can_undo (doc));
  for (guint i = 1; i < states->len; i++)
    {
      g_autoptr(GBytes) now = NULL;

      g_assert_true (mshed_document_redo (doc));
      now = serialize (doc);
      g_assert_true (g_bytes_equal (now, g_ptr_array_index (states, i)));
    }
}

static void
test_random_dfm (void)
{
  const char *env = g_getenv ("MSHED_FUZZ_ITERATIONS");
  guint runs = env ? (guint) g_ascii_strtoull (env, NULL, 10) : g_test_slow () ? 60 : 12;
  const MshedDfmGenKind kinds[] = { MSHED_DFM_GEN_HEAD, MSHED_DFM_GEN_BODY, MSHED_DFM_GEN_HAND };

  for (guint run = 0; run < runs; run++)
    {
      MshedDfmGenParams params;
      g_autoptr(MshedUtf) utf = NULL;
      g_autoptr(MshedDocument) doc = NULL;
      g_autoptr(GBytes) original = NULL;

      mshed_dfm_gen_params_init (&params, kinds[run % 3], run + 1);
      params.n_points = 64;
      params.n_bones = run % 3 == 2 ? 0 : 8;
      utf = mshed_dfm_generate (&params);
      doc = mshed_document_new_for_utf (utf, MSHED_MODE_TOLERANT);
      g_assert_nonnull (mshed_document_get_dfm (doc));
      original = serialize (doc);
      g_test_message ("DFM run %u", run);
      random_run (doc, original, run * 7919 + 3, 60);
    }
}

static void
test_random_utf (void)
{
  const char *env = g_getenv ("MSHED_FUZZ_ITERATIONS");
  guint runs = env ? (guint) g_ascii_strtoull (env, NULL, 10) : g_test_slow () ? 100 : 20;

  for (guint run = 0; run < runs; run++)
    {
      MshedUtfGenParams params = { run + 500, 10 + run % 60, 0, 0, FALSE,
                                   (MshedUtfGenLayout) (run * 37 % MSHED_UTF_GEN_ALL_LAYOUTS) };
      g_autoptr(GBytes) src = mshed_utf_generate (&params);
      g_autofree char *dir = g_dir_make_tmp ("mshed-docutf-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "tree.utf", NULL);
      g_autoptr(MshedDocument) doc = NULL;
      g_autoptr(GError) error = NULL;

      write_file (path, src);
      doc = mshed_document_open (path, MSHED_MODE_TOLERANT, &error);
      g_assert_no_error (error);
      g_assert_true ((mshed_document_get_dfm (doc) != NULL) ==
                     mshed_dfm_file_is_dfm (NULL, mshed_document_get_utf (doc)));
      g_test_message ("UTF run %u, layout 0x%x", run, params.layout);
      random_run (doc, src, run * 104729 + 11, 40);
      g_unlink (path);
      g_rmdir (dir);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_setenv ("LANGUAGE", "C", TRUE);

  g_test_add ("/document-utf/open", Fixture, NULL, fixture_setup, test_open, fixture_teardown);
  g_test_add ("/document-utf/open-broken", Fixture, NULL, fixture_setup, test_open_broken,
              fixture_teardown);
  g_test_add ("/document-utf/set-field", Fixture, NULL, fixture_setup, test_set_field,
              fixture_teardown);
  g_test_add ("/document-utf/set-strings", Fixture, NULL, fixture_setup, test_set_strings,
              fixture_teardown);
  g_test_add ("/document-utf/set-triangles", Fixture, NULL, fixture_setup, test_set_triangles,
              fixture_teardown);
  g_test_add ("/document-utf/tree-edits", Fixture, NULL, fixture_setup, test_tree_edits,
              fixture_teardown);
  g_test_add ("/document-utf/tree-stale", Fixture, NULL, fixture_setup, test_tree_stale,
              fixture_teardown);
  g_test_add ("/document-utf/recompute", Fixture, NULL, fixture_setup, test_recompute,
              fixture_teardown);
  g_test_add ("/document-utf/rename-references", Fixture, NULL, fixture_setup,
              test_rename_references, fixture_teardown);
  g_test_add ("/document-utf/rename-object", Fixture, NULL, fixture_setup, test_rename_object,
              fixture_teardown);
  g_test_add ("/document-utf/payload-bytes", Fixture, NULL, fixture_setup, test_payload_bytes,
              fixture_teardown);
  g_test_add ("/document-utf/history-limit", Fixture, NULL, fixture_setup, test_history_limit,
              fixture_teardown);
  g_test_add ("/document-utf/save-reload", Fixture, NULL, fixture_setup, test_save_reload,
              fixture_teardown);
  g_test_add_func ("/document-utf/random-dfm", test_random_dfm);
  g_test_add_func ("/document-utf/random-utf", test_random_utf);
  return g_test_run ();
}
