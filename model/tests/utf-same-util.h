/* utf-same-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the fuzz tests of mshed_utf_parse_readonly: two lists of findings that must be the same
 * item for item, and two trees that must hold the same nodes, names, payloads and entries.
 */
#pragma once

#include <string.h>

#include "mshed-diagnostic.h"
#include "mshed-utf.h"

static inline void
t_assert_same_diagnostics (const MshedDiagnostics *a,
                           const MshedDiagnostics *b)
{
  g_assert_cmpuint (mshed_diagnostics_get_n_items (a), ==, mshed_diagnostics_get_n_items (b));
  g_assert_cmpuint (a->n_errors, ==, b->n_errors);
  for (guint i = 0; i < mshed_diagnostics_get_n_items (a); i++)
    {
      const MshedDiagnostic *x = mshed_diagnostics_get (a, i);
      const MshedDiagnostic *y = mshed_diagnostics_get (b, i);

      g_assert_cmpint (x->severity, ==, y->severity);
      g_assert_cmpint (x->check, ==, y->check);
      g_assert_cmpint (x->table, ==, y->table);
      g_assert_cmpint (x->record, ==, y->record);
      g_assert_cmpstr (x->field, ==, y->field);
      g_assert_cmpuint (x->offset, ==, y->offset);
      g_assert_cmpstr (x->message, ==, y->message);
      g_assert_cmpstr (x->path, ==, y->path);
    }
}

/* @a from mshed_utf_parse, @b from mshed_utf_parse_readonly of the same bytes */
static inline void
t_assert_same_tree (MshedUtf *a,
                    MshedUtf *b)
{
  MshedUtfNode *ra = mshed_utf_get_root (a), *rb = mshed_utf_get_root (b);
  MshedUtfNode *x = ra, *y = rb;

  g_assert_false (mshed_utf_is_readonly (a));
  g_assert_true (mshed_utf_is_readonly (b));
  g_assert_cmpuint (mshed_utf_get_n_nodes (a), ==, mshed_utf_get_n_nodes (b));
  g_assert_cmpint (mshed_utf_is_patchable (a), ==, mshed_utf_is_patchable (b));
  for (; x && y;
       x = mshed_utf_node_next_preorder (x, ra), y = mshed_utf_node_next_preorder (y, rb))
    {
      gsize na, nb;
      const guint8 *da = mshed_utf_node_peek_data (x, &na);
      const guint8 *db = mshed_utf_node_peek_data (y, &nb);
      MshedUtfEntry ea = { 0 }, eb = { 0 };
      guint32 sa = 0, sb = 0;

      g_assert_cmpstr (mshed_utf_node_get_name (x), ==, mshed_utf_node_get_name (y));
      g_assert_cmpint (mshed_utf_node_is_directory (x), ==, mshed_utf_node_is_directory (y));
      g_assert_cmpuint (mshed_utf_node_get_n_children (x), ==, mshed_utf_node_get_n_children (y));
      g_assert_cmpuint (mshed_utf_node_get_attributes (x), ==, mshed_utf_node_get_attributes (y));
      g_assert_cmpuint (mshed_utf_node_get_sharing (x), ==, mshed_utf_node_get_sharing (y));
      for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
        g_assert_cmpuint (mshed_utf_node_get_time (x, t), ==, mshed_utf_node_get_time (y, t));
      g_assert_cmpmem (da, na, db, nb);
      /* a read-only tree has no payload slices; its files are peeked in the source */
      g_assert_true (mshed_utf_node_get_data (y) == NULL);
      g_assert_cmpint (mshed_utf_node_get_source_entry (a, x, &sa, &ea), ==,
                       mshed_utf_node_get_source_entry (b, y, &sb, &eb));
      g_assert_cmpuint (sa, ==, sb);
      g_assert_cmpmem (&ea, sizeof ea, &eb, sizeof eb);
    }
  g_assert_true (x == NULL && y == NULL);
}
