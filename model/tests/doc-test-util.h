/* doc-test-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Helpers shared by the document tests (header-only, static functions).
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "mshed-dfm-generator.h"
#include "mshed-document.h"
#include "mshed-generator.h"
#include "mshed-validate.h"

static inline MshedDocument *
doc_test_new (guint64  seed,
              guint    n_triangles,
              gboolean animated,
              gboolean res18)
{
  MshedGenParams p;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autoptr(GError) error = NULL;

  mshed_gen_params_init (&p, seed);
  p.n_triangles = n_triangles;
  p.animated = animated;
  p.with_res18_20 = res18;
  p.cyrillic_names = TRUE;
  p.empty_names = TRUE;
  p.res17_data = TRUE;
  if (p.n_nodes == 0)
    p.n_nodes = 6;
  bytes = mshed_generate_model_bytes (&p);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  return mshed_document_new_for_model (model, MSHED_MODE_STRICT);
}

/* A generated deformable model (a body of about @n_points points) as a document. */
static inline MshedDocument *
doc_test_new_dfm (guint n_points)
{
  MshedDfmGenParams gp;
  g_autoptr(MshedUtf) utf = NULL;

  mshed_dfm_gen_params_init (&gp, MSHED_DFM_GEN_BODY, 12);
  gp.n_points = n_points;
  utf = mshed_dfm_generate (&gp);
  return mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
}

static inline GBytes *
doc_test_bytes (MshedDocument *doc)
{
  return mshed_model_serialize (mshed_document_get_model (doc));
}

/* The strict validator finds no error and the document's incremental diagnostics agree with a
 * fresh full validation. */
static inline void
doc_test_assert_valid (MshedDocument *doc)
{
  g_autoptr(MshedDiagnostics) fresh = mshed_diagnostics_new ();
  const MshedDiagnostics *mine = mshed_document_get_diagnostics (doc);
  guint n_model = 0;

  mshed_validate_model (mshed_document_get_model (doc), MSHED_MODE_STRICT, fresh);
  if (fresh->n_errors > 0)
    {
      for (guint i = 0; i < fresh->items->len; i++)
        {
          g_autofree char *text =
            mshed_diagnostic_format (g_ptr_array_index (fresh->items, i));
          g_printerr ("%s\n", text);
        }
    }
  g_assert_cmpuint (fresh->n_errors, ==, 0);
  for (guint i = 0; i < mine->items->len; i++)
    if (((MshedDiagnostic *) g_ptr_array_index (mine->items, i))->check >=
        MSHED_CHECK_MISSING_TYPE)
      n_model++;
  g_assert_cmpuint (n_model, ==, fresh->items->len);
  g_assert_cmpuint (mine->n_errors, ==, fresh->n_errors);
}

/* The document's diagnostics equal a fresh validation (same count per check). */
static inline void
doc_test_assert_diags_fresh (MshedDocument *doc)
{
  g_autoptr(MshedDiagnostics) fresh = mshed_diagnostics_new ();
  const MshedDiagnostics *mine = mshed_document_get_diagnostics (doc);
  guint counts[400] = { 0 };

  mshed_validate_model (mshed_document_get_model (doc), mshed_document_get_mode (doc), fresh);
  for (guint i = 0; i < mine->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (mine->items, i);

      if (d->check >= MSHED_CHECK_MISSING_TYPE && d->check < 400)
        counts[d->check]++;
    }
  for (guint i = 0; i < fresh->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (fresh->items, i);

      if (d->check < 400)
        {
          if (counts[d->check] == 0)
            g_error ("fresh validation has %s, the document does not: %s",
                     mshed_check_to_string (d->check), d->message);
          counts[d->check]--;
        }
    }
  for (guint i = 0; i < 400; i++)
    if (counts[i] != 0)
      g_error ("the document keeps %u stale diagnostic(s) %s", counts[i],
               mshed_check_to_string ((MshedCheck) i));
}

typedef gboolean (*DocTestOp) (MshedDocument *doc,
                               gpointer       data,
                               GError       **error);

/* do -> bytes change and modified; undo -> original bytes, clean; redo -> edited bytes. Leaves
 * the edit applied. */
static inline void
doc_test_do_undo_redo (MshedDocument *doc,
                       DocTestOp      op,
                       gpointer       data)
{
  g_autoptr(GBytes) before = doc_test_bytes (doc);
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) undone = NULL;
  g_autoptr(GBytes) redone = NULL;
  g_autoptr(GError) error = NULL;
  gboolean was_modified = mshed_document_get_modified (doc);

  g_assert_true (op (doc, data, &error));
  g_assert_no_error (error);
  after = doc_test_bytes (doc);
  g_assert_false (g_bytes_equal (before, after));
  g_assert_true (mshed_document_get_modified (doc));
  g_assert_true (mshed_document_can_undo (doc));
  doc_test_assert_diags_fresh (doc);

  g_assert_true (mshed_document_undo (doc));
  undone = doc_test_bytes (doc);
  g_assert_true (g_bytes_equal (before, undone));
  g_assert_cmpint (mshed_document_get_modified (doc), ==, was_modified);
  g_assert_true (mshed_document_can_redo (doc));
  doc_test_assert_diags_fresh (doc);

  g_assert_true (mshed_document_redo (doc));
  redone = doc_test_bytes (doc);
  g_assert_true (g_bytes_equal (after, redone));
  doc_test_assert_diags_fresh (doc);
}
