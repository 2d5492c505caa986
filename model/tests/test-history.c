/* test-history.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * MshedHistory on its own (as tables, after GNOME/gtk testsuite/gtk/texthistory.c), and the
 * randomized test of the whole document: thousands of random valid commands on generated
 * models, then undo everything (the original bytes) and redo everything (the edited bytes).
 */
#include "config.h"

#include <string.h>

#include "doc-test-util.h"
#include "mshed-error.h"
#include "mshed-history.h"
#include "mshed-schema.h"

/* A history over one NRes entry holding a short text ----------------------------------------- */

typedef struct {
  MshedNres    *nres;
  MshedHistory *history;
} Text;

static void
text_apply (gpointer            user_data,
            const MshedCommand *command,
            gboolean            reverse)
{
  Text *t = user_data;

  g_assert_true (mshed_command_apply (command, t->nres, reverse));
}

static void
text_init (Text *t)
{
  MshedNresEntry templ = { .type_id = 1 };
  g_autoptr(GBytes) empty = g_bytes_new ("", 0);

  t->nres = mshed_nres_new ();
  mshed_nres_insert_entry (t->nres, 0, &templ, empty);
  t->history = mshed_history_new (text_apply, t);
}

static void
text_clear (Text *t)
{
  g_clear_object (&t->history);
  g_clear_pointer (&t->nres, mshed_nres_unref);
}

static char *
text_get (Text *t)
{
  gsize size = 0;
  const guint8 *data = mshed_nres_entry_get_data (mshed_nres_peek_entry (t->nres, 0), &size);

  return g_strndup (data ? (const char *) data : "", size);
}

/* Replace [offset, offset + remove) with @insert, record it. */
static void
text_splice (Text       *t,
             gsize       offset,
             gsize       remove,
             const char *insert,
             guint64     merge_key)
{
  gsize size = 0;
  const guint8 *data = mshed_nres_entry_get_data (mshed_nres_peek_entry (t->nres, 0), &size);
  g_autoptr(GBytes) old_bytes = g_bytes_new (data + offset, remove);
  g_autoptr(GBytes) new_bytes = g_bytes_new (insert, strlen (insert));
  MshedCommand *cmd = mshed_command_new_splice (0, offset, old_bytes, new_bytes);

  mshed_history_begin_group (t->history, "splice", merge_key);
  mshed_command_apply (cmd, t->nres, FALSE);
  mshed_history_push (t->history, cmd);
  mshed_history_end_group (t->history);
}

typedef enum { INSERT, REPLACE, UNDO, REDO, BEGIN, END, SAVE, CLEAN } Kind;

typedef struct {
  Kind        kind;
  guint       offset;
  guint       remove;
  const char *text;
  guint64     merge;
  const char *expect;
  gboolean    can_undo;
  gboolean    can_redo;
  gboolean    modified;
} Step;

static void
run (const Step *steps,
     guint       n,
     guint       max_depth)
{
  Text t;

  text_init (&t);
  mshed_history_set_max_depth (t.history, max_depth);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *now = NULL;

      switch (steps[i].kind)
        {
        case INSERT:
        case REPLACE:
          text_splice (&t, steps[i].offset, steps[i].remove, steps[i].text, steps[i].merge);
          break;
        case UNDO:
          mshed_history_undo (t.history);
          break;
        case REDO:
          mshed_history_redo (t.history);
          break;
        case BEGIN:
          mshed_history_begin_group (t.history, steps[i].text, 0);
          break;
        case END:
          mshed_history_end_group (t.history);
          break;
        case SAVE:
          mshed_history_set_save_point (t.history);
          break;
        case CLEAN:
          /* a step that changes no bytes (a stale-set change) */
          mshed_history_begin_group (t.history, "clean", 0);
          mshed_history_push (t.history, mshed_command_new_custom (NULL, NULL, 0));
          mshed_history_end_group (t.history);
          break;
        }
      now = text_get (&t);
      g_assert_cmpstr (now, ==, steps[i].expect);
      g_assert_cmpint (mshed_history_can_undo (t.history), ==, steps[i].can_undo);
      g_assert_cmpint (mshed_history_can_redo (t.history), ==, steps[i].can_redo);
      g_assert_cmpint (mshed_history_is_modified (t.history), ==, steps[i].modified);
    }
  text_clear (&t);
}

static void
test_basic (void)
{
  static const Step steps[] = {
    { INSERT, 0, 0, "abc", 0, "abc", TRUE, FALSE, TRUE },
    { INSERT, 3, 0, "def", 0, "abcdef", TRUE, FALSE, TRUE },
    { REPLACE, 1, 2, "XY", 0, "aXYdef", TRUE, FALSE, TRUE },
    { UNDO, 0, 0, NULL, 0, "abcdef", TRUE, TRUE, TRUE },
    { UNDO, 0, 0, NULL, 0, "abc", TRUE, TRUE, TRUE },
    { UNDO, 0, 0, NULL, 0, "", FALSE, TRUE, FALSE },
    { REDO, 0, 0, NULL, 0, "abc", TRUE, TRUE, TRUE },
    { INSERT, 0, 0, "z", 0, "zabc", TRUE, FALSE, TRUE },  /* clears redo */
    { UNDO, 0, 0, NULL, 0, "abc", TRUE, TRUE, TRUE },
    { UNDO, 0, 0, NULL, 0, "", FALSE, TRUE, FALSE },
  };

  run (steps, G_N_ELEMENTS (steps), 0);
}

static void
test_groups (void)
{
  static const Step steps[] = {
    { BEGIN, 0, 0, "outer", 0, "", FALSE, FALSE, FALSE },
    { INSERT, 0, 0, "ab", 0, "ab", FALSE, FALSE, TRUE },
    { BEGIN, 0, 0, "inner", 0, "ab", FALSE, FALSE, TRUE },
    { INSERT, 2, 0, "cd", 0, "abcd", FALSE, FALSE, TRUE },
    { END, 0, 0, NULL, 0, "abcd", FALSE, FALSE, TRUE },
    { END, 0, 0, NULL, 0, "abcd", TRUE, FALSE, TRUE },
    { BEGIN, 0, 0, "empty", 0, "abcd", TRUE, FALSE, TRUE },
    { END, 0, 0, NULL, 0, "abcd", TRUE, FALSE, TRUE },
    { UNDO, 0, 0, NULL, 0, "", FALSE, TRUE, FALSE },
    { REDO, 0, 0, NULL, 0, "abcd", TRUE, FALSE, TRUE },
  };

  run (steps, G_N_ELEMENTS (steps), 0);
}

static void
test_merge (void)
{
  static const Step steps[] = {
    { INSERT, 0, 0, "abcd", 0, "abcd", TRUE, FALSE, TRUE },
    { REPLACE, 1, 1, "x", 7, "axcd", TRUE, FALSE, TRUE },
    { REPLACE, 1, 1, "y", 7, "aycd", TRUE, FALSE, TRUE },   /* merges */
    { REPLACE, 1, 1, "z", 7, "azcd", TRUE, FALSE, TRUE },   /* merges */
    { REPLACE, 2, 1, "q", 8, "azqd", TRUE, FALSE, TRUE },   /* another cell */
    { UNDO, 0, 0, NULL, 0, "azcd", TRUE, TRUE, TRUE },
    { UNDO, 0, 0, NULL, 0, "abcd", TRUE, TRUE, TRUE },
    { REDO, 0, 0, NULL, 0, "azcd", TRUE, TRUE, TRUE },
    { SAVE, 0, 0, NULL, 0, "azcd", TRUE, TRUE, FALSE },
    { REPLACE, 1, 1, "w", 7, "awcd", TRUE, FALSE, TRUE },   /* not across the save point */
    { UNDO, 0, 0, NULL, 0, "azcd", TRUE, TRUE, FALSE },
  };

  run (steps, G_N_ELEMENTS (steps), 0);
}

static void
test_save_point (void)
{
  static const Step steps[] = {
    { INSERT, 0, 0, "a", 0, "a", TRUE, FALSE, TRUE },
    { SAVE, 0, 0, NULL, 0, "a", TRUE, FALSE, FALSE },
    { CLEAN, 0, 0, NULL, 0, "a", TRUE, FALSE, FALSE },      /* no byte change: still clean */
    { INSERT, 1, 0, "b", 0, "ab", TRUE, FALSE, TRUE },
    { UNDO, 0, 0, NULL, 0, "a", TRUE, TRUE, FALSE },
    { UNDO, 0, 0, NULL, 0, "a", TRUE, TRUE, FALSE },        /* undoes the clean step */
    { UNDO, 0, 0, NULL, 0, "", FALSE, TRUE, TRUE },
    { REDO, 0, 0, NULL, 0, "a", TRUE, TRUE, FALSE },
  };

  run (steps, G_N_ELEMENTS (steps), 0);
}

static void
test_depth (void)
{
  static const Step steps[] = {
    { INSERT, 0, 0, "a", 0, "a", TRUE, FALSE, TRUE },
    { INSERT, 1, 0, "b", 0, "ab", TRUE, FALSE, TRUE },
    { INSERT, 2, 0, "c", 0, "abc", TRUE, FALSE, TRUE },
    { UNDO, 0, 0, NULL, 0, "ab", TRUE, TRUE, TRUE },
    { UNDO, 0, 0, NULL, 0, "a", FALSE, TRUE, TRUE },        /* the oldest step fell off */
    { UNDO, 0, 0, NULL, 0, "a", FALSE, TRUE, TRUE },
  };

  run (steps, G_N_ELEMENTS (steps), 2);
}

static void
test_memory (void)
{
  Text t;
  gsize one, many;

  text_init (&t);
  text_splice (&t, 0, 0, "0123456789", 0);
  one = mshed_history_get_memory_size (t.history);
  for (guint i = 0; i < 100; i++)
    text_splice (&t, i % 10, 1, "x", 0);
  many = mshed_history_get_memory_size (t.history);
  g_assert_cmpuint (many, >, one);
  g_assert_cmpuint (many / 101, <, 1024);  /* a small delta per step, not a copy */
  text_clear (&t);
}

/* Randomized document test ------------------------------------------------------------------- */

static const MshedTableId edit_tables[] = {
  MSHED_TABLE_NODES, MSHED_TABLE_HEADER, MSHED_TABLE_SLOTS, MSHED_TABLE_POSITIONS,
  MSHED_TABLE_NORMALS, MSHED_TABLE_UVS, MSHED_TABLE_INDICES, MSHED_TABLE_TRIS, MSHED_TABLE_KEYS,
  MSHED_TABLE_BATCHES, MSHED_TABLE_EXTRA15, MSHED_TABLE_EXTRA18, MSHED_TABLE_MAP,
};

static double
random_value (GRand            *rand,
              const MshedField *f,
              double            current)
{
  switch (f->type)
    {
    case MSHED_FIELD_F32:
      return current + g_rand_double_range (rand, -2, 2);
    case MSHED_FIELD_U8:
      return g_rand_int_range (rand, 0, 256);
    case MSHED_FIELD_I8:
      return g_rand_int_range (rand, -128, 128);
    case MSHED_FIELD_U16:
      /* mostly small values, so references often stay valid */
      return g_rand_boolean (rand) ? (double) MIN (current + 1, 65535)
                                   : (double) g_rand_int_range (rand, 0, 65536);
    case MSHED_FIELD_I16:
      return g_rand_int_range (rand, -32768, 32768);
    case MSHED_FIELD_U32:
      return g_rand_boolean (rand) ? current : (double) g_rand_int (rand);
    case MSHED_FIELD_I32:
    default:
      return (double) (gint32) g_rand_int (rand);
    }
}

static gboolean
random_command (MshedDocument *doc,
                GRand         *rand,
                GError       **error)
{
  MshedModel *model = mshed_document_get_model (doc);
  MshedNres *nres = mshed_model_get_nres (model);
  guint kind = g_rand_int_range (rand, 0, 100);

  if (kind < 45)
    {
      MshedTableId t = edit_tables[g_rand_int_range (rand, 0, G_N_ELEMENTS (edit_tables))];
      const MshedTableInfo *info = mshed_schema_get_table (t);
      guint n = mshed_model_get_n_rows (model, t);
      const MshedField *f;
      guint row;

      if (n == 0)
        return TRUE;
      row = g_rand_int_range (rand, 0, (gint32) MIN (n, G_MAXINT32));
      f = &info->fields[g_rand_int_range (rand, 0, info->n_fields)];
      if (mshed_model_get_record (model, t, row) == NULL)
        return TRUE;
      return mshed_document_set_field (doc, t, row, f->name,
                                       random_value (rand, f, mshed_field_read (f,
                                         mshed_model_get_record (model, t, row))),
                                       error);
    }
  if (kind < 52)
    {
      static const char *names[] = { "turret", "башня", "", "корпус_01", "a", "gun barrel" };
      guint n = mshed_model_get_n_rows (model, MSHED_TABLE_NAMES);

      if (n == 0)
        return TRUE;
      return mshed_document_rename_node (doc, g_rand_int_range (rand, 0, n),
                                         names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))],
                                         error);
    }
  if (kind < 72)
    {
      static const MshedTableId tables[] = { MSHED_TABLE_NODES, MSHED_TABLE_SLOTS,
                                             MSHED_TABLE_BATCHES };
      MshedTableId t = tables[g_rand_int_range (rand, 0, 3)];
      guint n = mshed_model_get_n_rows (model, t);
      guint op = g_rand_int_range (rand, 0, 4);
      guint pos, count;

      if (n <= 2 && op == 1)
        op = 0;
      if (n == 0 && op != 0)
        return TRUE;
      pos = g_rand_int_range (rand, 0, (gint32) n + (op == 0 ? 1 : 0));
      count = 1 + (g_rand_int_range (rand, 0, 4) == 0);
      switch (op)
        {
        case 0:
          return mshed_document_insert_rows (doc, t, pos, count, NULL, error);
        case 1:
          return mshed_document_delete_rows (doc, t, pos, MIN (count, n - pos), error);
        case 2:
          return mshed_document_duplicate_rows (doc, t, pos, MIN (count, n - pos), error);
        default:
          count = MIN (count, n - pos);
          return mshed_document_move_rows (doc, t, pos, count,
                                           g_rand_int_range (rand, 0, n - count + 1), error);
        }
    }
  if (kind < 80)
    {
      static const guint32 raw_types[] = { 9, 17, 20, 3, 7, 50 };
      gint r = mshed_nres_find_type (nres, raw_types[g_rand_int_range (rand, 0, 6)]);
      gsize size, off, old_len, new_len;
      guint8 buf[16];
      g_autoptr(GBytes) bytes = NULL;
      const MshedNresEntry *e;

      if (r < 0)
        return TRUE;
      e = mshed_nres_peek_entry (nres, (guint) r);
      size = mshed_nres_entry_get_size (e);
      off = size ? (gsize) g_rand_int_range (rand, 0, (gint32) size) : 0;
      old_len = MIN (size - off, (gsize) g_rand_int_range (rand, 0, 8));
      new_len = (e->type_id == 3 || e->type_id == 7) ? old_len
                                                     : (gsize) g_rand_int_range (rand, 0, 16);
      for (guint i = 0; i < sizeof buf; i++)
        buf[i] = (guint8) g_rand_int (rand);
      bytes = g_bytes_new (buf, new_len);
      return mshed_document_replace_bytes (doc, (guint) r, off, old_len, bytes, error);
    }
  if (kind < 86)
    {
      guint32 add[] = { 50, 51 };

      if (g_rand_boolean (rand))
        {
          guint8 buf[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
          g_autoptr(GBytes) payload = g_bytes_new (buf, g_rand_int_range (rand, 0, 12));

          return mshed_document_add_resource (doc, g_rand_int_range (rand, 0, 20),
                                              add[g_rand_boolean (rand)], "extra", 1, 2, 3,
                                              payload, error) >= 0;
        }
      else
        {
          static const guint32 removable[] = { 9, 17, 18, 20, 50, 51 };
          gint r = mshed_nres_find_type (nres, removable[g_rand_int_range (rand, 0, 6)]);

          return r < 0 ? TRUE : mshed_document_remove_resource (doc, (guint) r, error);
        }
    }
  if (kind < 90)
    {
      gint r = mshed_nres_find_type (nres, 15);
      gsize size;
      g_autofree guint8 *buf = NULL;
      g_autoptr(GBytes) payload = NULL;

      if (r < 0)
        return TRUE;
      size = mshed_nres_entry_get_size (mshed_nres_peek_entry (nres, (guint) r));
      size = g_rand_boolean (rand) ? size + 8 : (size >= 8 ? size - 8 : 0);
      buf = g_malloc0 (size + 1);
      for (gsize i = 0; i < size; i++)
        buf[i] = (guint8) i;
      payload = g_bytes_new (buf, size);
      return mshed_document_set_resource_payload (doc, (guint) r, payload, error);
    }
  if (kind < 96)
    {
      static const MshedDerived what[] = {
        MSHED_DERIVED_SLOT_BOUNDS, MSHED_DERIVED_HEADER_BOUNDS, MSHED_DERIVED_TRI_NORMALS,
        MSHED_DERIVED_TRI_LINKS, MSHED_DERIVED_VERTEX_NORMALS, MSHED_DERIVED_ATTRIBUTES,
        MSHED_DERIVED_ANIMATION_MAP, MSHED_DERIVED_DETERMINED, MSHED_DERIVED_CONVENTION,
      };

      return mshed_document_recompute (doc, what[g_rand_int_range (rand, 0, G_N_ELEMENTS (what))],
                                       NULL, 0, error);
    }
  {
    g_autoptr(GPtrArray) stale = mshed_document_list_stale (doc);
    MshedStale *s;

    if (stale->len == 0)
      return TRUE;
    s = g_ptr_array_index (stale, g_rand_int_range (rand, 0, stale->len));
    if (g_rand_boolean (rand) && s->recomputable)
      return mshed_document_recompute_stale (doc, s->target, s->cause, error);
    return mshed_document_acknowledge_stale (doc, s->target, s->cause);
  }
}

static void
randomized (guint64  seed,
            guint    n_triangles,
            gboolean animated,
            gboolean res18,
            guint    n_commands)
{
  g_autoptr(MshedDocument) doc = doc_test_new (seed, n_triangles, animated, res18);
  g_autoptr(GBytes) original = doc_test_bytes (doc);
  g_autoptr(GBytes) edited = NULL;
  GRand *rand = g_rand_new_with_seed ((guint32) seed);
  guint n_ok = 0, n_failed = 0, depth = 0;

  for (guint i = 0; i < n_commands; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) before = NULL;
      gboolean check = (i % 97) == 0;

      /* open or close a group now and then */
      if (g_rand_int_range (rand, 0, 40) == 0 && depth < 3)
        {
          mshed_document_begin_group (doc, "random group");
          depth++;
        }
      else if (depth > 0 && g_rand_int_range (rand, 0, 5) == 0)
        {
          mshed_document_end_group (doc);
          depth--;
        }
      /* and undo / redo in between */
      if (depth == 0 && g_rand_int_range (rand, 0, 10) == 0)
        {
          guint k = g_rand_int_range (rand, 1, 4);
          g_autoptr(GBytes) a = doc_test_bytes (doc);
          g_autoptr(GBytes) b = NULL;
          guint undone = 0;

          for (guint j = 0; j < k; j++)
            undone += mshed_document_undo (doc);
          for (guint j = 0; j < undone; j++)
            g_assert_true (mshed_document_redo (doc));
          b = doc_test_bytes (doc);
          g_assert_true (g_bytes_equal (a, b));
        }

      if (check)
        before = doc_test_bytes (doc);
      if (random_command (doc, rand, &error))
        {
          g_assert_no_error (error);
          n_ok++;
        }
      else
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == MSHED_MODEL_ERROR);
          n_failed++;
          if (before)
            {
              /* a refused command changes nothing */
              g_autoptr(GBytes) after = doc_test_bytes (doc);
              g_assert_true (g_bytes_equal (before, after));
            }
        }
      if (check)
        doc_test_assert_diags_fresh (doc);
    }
  while (depth-- > 0)
    mshed_document_end_group (doc);
  doc_test_assert_diags_fresh (doc);
  g_test_message ("seed %" G_GUINT64_FORMAT ": %u commands applied, %u refused, history %"
                  G_GSIZE_FORMAT " bytes", seed, n_ok, n_failed,
                  mshed_document_get_history_size (doc));
  g_assert_cmpuint (n_ok, >, n_commands / 2);

  edited = doc_test_bytes (doc);
  while (mshed_document_undo (doc))
    ;
  {
    g_autoptr(GBytes) now = doc_test_bytes (doc);
    g_autoptr(GBytes) saved = mshed_document_serialize (doc);

    g_assert_true (g_bytes_equal (now, original));
    g_assert_true (g_bytes_equal (saved, original));
  }
  g_assert_false (mshed_document_get_modified (doc));
  g_assert_false (mshed_document_has_stale (doc));
  doc_test_assert_diags_fresh (doc);
  while (mshed_document_redo (doc))
    ;
  {
    g_autoptr(GBytes) now = doc_test_bytes (doc);

    g_assert_true (g_bytes_equal (now, edited));
  }
  doc_test_assert_diags_fresh (doc);
  g_rand_free (rand);
}

static void
test_randomized (void)
{
  guint n = g_test_slow () ? 5000 : 1200;

  randomized (101, 300, TRUE, FALSE, n);
  randomized (102, 1200, FALSE, TRUE, n);
  randomized (103, 2500, TRUE, TRUE, n);
  randomized (104, 60, TRUE, FALSE, n);

  /* MSHED_RANDOM_SEEDS=N runs N more models of every shape (for soak testing) */
  if (g_getenv ("MSHED_RANDOM_SEEDS"))
    {
      guint extra = (guint) g_ascii_strtoull (g_getenv ("MSHED_RANDOM_SEEDS"), NULL, 10);

      for (guint i = 0; i < extra; i++)
        randomized (1000 + i, 12 + (i * 977) % 6000, i % 2, i % 3 == 0, n);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/history/basic", test_basic);
  g_test_add_func ("/model/history/groups", test_groups);
  g_test_add_func ("/model/history/merge", test_merge);
  g_test_add_func ("/model/history/save-point", test_save_point);
  g_test_add_func ("/model/history/depth", test_depth);
  g_test_add_func ("/model/history/memory", test_memory);
  g_test_add_func ("/model/history/randomized", test_randomized);

  return g_test_run ();
}
