/* hex-test-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Helpers shared by the hex view, data inspector and unknown-table tests: a generated model
 * in a document, a shown window, and waiting for GTK.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"
#include "mshed-generator.h"
#include "mshed-model.h"
#include "widget-test-util.h"

/* A strict, generated model with Res9/Res17/Res18/Res20 and at least 8 slots. */
static inline MshedDocument *
hex_test_document (guint64 seed,
                   guint   n_triangles)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  MshedModel *model;
  MshedDocument *doc;

  mshed_gen_params_init (&params, seed);
  params.n_triangles = n_triangles;
  params.n_nodes = 12;
  params.with_res18_20 = TRUE;
  params.res17_data = TRUE;
  params.cyrillic_names = TRUE;
  bytes = mshed_generate_model_bytes (&params);
  model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  doc = mshed_document_new_for_model (model, MSHED_MODE_STRICT);
  mshed_model_unref (model);
  return doc;
}

