/* test-gltf-progress.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Progress and Cancel of the glTF export and import (model/mshed-progress.h): the MSH and DFM
 * exporters and importers report fractions that never go back and end at exactly 1.0, with a
 * stage first, at coarse steps (at least one per node or level); the reports do not change a
 * byte of the output. Cancelled at each report in turn, an export returns no bytes and
 * G_IO_ERROR_CANCELLED, and an import either fails with G_IO_ERROR_CANCELLED leaving the
 * document as it was (same bytes, no undo step) or, cancelled once it applies, comes out
 * whole, exactly as an import nobody cancelled.
 */
#include "config.h"

#include <string.h>

#include "mshed-dfm-generator.h"
#include "mshed-generator.h"
#include "mshed-gltf-dfm.h"
#include "mshed-gltf-import.h"
#include "mshed-gltf.h"

#define N_NODES 12

/* What a run reported; with @cancel_at > 0 the cancellable is cancelled at that report. */
typedef struct {
  GArray       *fractions;  /* double */
  guint         stages;     /* reports with a stage */
  gboolean      first_had_stage;
  guint         cancel_at;
  GCancellable *cancellable;
} Recorder;

static void
recorder_init (Recorder *r,
               guint     cancel_at)
{
  r->fractions = g_array_new (FALSE, FALSE, sizeof (double));
  r->stages = 0;
  r->first_had_stage = FALSE;
  r->cancel_at = cancel_at;
  r->cancellable = g_cancellable_new ();
}

static void
recorder_clear (Recorder *r)
{
  g_array_unref (r->fractions);
  g_object_unref (r->cancellable);
}

static void
record (gpointer    data,
        double      fraction,
        const char *stage)
{
  Recorder *r = data;

  if (r->fractions->len == 0)
    r->first_had_stage = stage != NULL && *stage != '\0';
  if (stage)
    r->stages++;
  g_array_append_val (r->fractions, fraction);
  if (r->cancel_at == r->fractions->len)
    g_cancellable_cancel (r->cancellable);
}

/* Fractions in [0, 1], never smaller than the one before, the last exactly 1.0; at least
 * @min_reports of them. */
static void
assert_complete (Recorder *r,
                 guint     min_reports)
{
  g_assert_cmpuint (r->fractions->len, >=, min_reports);
  g_assert_true (r->first_had_stage);
  for (guint i = 0; i < r->fractions->len; i++)
    {
      double f = g_array_index (r->fractions, double, i);

      g_assert_cmpfloat (f, >=, 0.0);
      g_assert_cmpfloat (f, <=, 1.0);
      if (i > 0)
        g_assert_cmpfloat (f, >=, g_array_index (r->fractions, double, i - 1));
    }
  g_assert_cmpfloat (g_array_index (r->fractions, double, r->fractions->len - 1), ==, 1.0);
}

static MshedModel *
msh_model (void)
{
  MshedGenParams params;
  g_autoptr(GBytes) bytes = NULL;

  mshed_gen_params_init (&params, 7);
  params.n_nodes = N_NODES;
  params.n_triangles = 3000;
  bytes = mshed_generate_model_bytes (&params);
  return mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
}

static MshedDfm *
dfm_model (void)
{
  MshedDfmGenParams params;
  g_autoptr(GBytes) bytes = NULL;

  mshed_dfm_gen_params_init (&params, MSHED_DFM_GEN_BODY, 5);
  params.n_levels = 4;
  bytes = mshed_dfm_generate_bytes (&params);
  return mshed_dfm_new_from_bytes (bytes, MSHED_MODE_STRICT, NULL, NULL);
}

/* The model (MSH, or DFM with @dfm) to .glb, reporting to @r (NULL: no reports). */
static GBytes *
export (MshedModel  *model,
        MshedDfm    *dfm,
        Recorder    *r,
        GError     **error)
{
  MshedProgress progress;
  MshedGltfOptions options;

  if (r)
    mshed_progress_init (&progress, record, r, r->cancellable);
  mshed_gltf_options_init (&options);
  if (dfm)
    return mshed_gltf_export_dfm (dfm, MSHED_GLTF_BINARY, 0, r ? &progress : NULL, NULL,
                                  error);
  return mshed_gltf_export (model, &options, r ? &progress : NULL, NULL, error);
}

static void
check_export (MshedModel *model,
              MshedDfm   *dfm,
              guint       min_reports)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) plain = export (model, dfm, NULL, &error);
  g_autoptr(GBytes) reported = NULL;
  Recorder r;
  guint n;

  g_assert_no_error (error);
  g_assert_nonnull (plain);
  recorder_init (&r, 0);
  reported = export (model, dfm, &r, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (plain, reported));
  assert_complete (&r, min_reports);
  g_assert_cmpuint (r.stages, >=, 2);
  n = r.fractions->len;
  recorder_clear (&r);

  /* cancelled at report k: nothing, G_IO_ERROR_CANCELLED; the last report (1.0) comes after
   * the work is done */
  for (guint k = 1; k < n; k++)
    {
      g_autoptr(GBytes) out = NULL;
      g_autoptr(GError) cancelled = NULL;

      recorder_init (&r, k);
      out = export (model, dfm, &r, &cancelled);
      g_assert_null (out);
      g_assert_error (cancelled, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpuint (r.fractions->len, ==, k);
      recorder_clear (&r);
    }
}

static void
test_export_msh (void)
{
  g_autoptr(MshedModel) model = msh_model ();

  g_assert_nonnull (model);
  check_export (model, NULL, N_NODES);
}

static void
test_export_dfm (void)
{
  g_autoptr(MshedDfm) dfm = dfm_model ();

  g_assert_nonnull (dfm);
  check_export (NULL, dfm, 4 + mshed_dfm_get_n_bones (dfm));
}

/* A document of the model with one point moved (history cleared): importing the unchanged
 * export moves it back, one undo step. */
static MshedDocument *
edited_document (GBytes   *bytes,
                 gboolean  dfm)
{
  MshedDocument *doc;

  if (dfm)
    {
      g_autoptr(MshedUtf) utf = mshed_utf_parse (bytes, MSHED_MODE_STRICT, NULL, NULL);
      MshedDfmLevel level;
      MshedUtfNode *points;
      g_autoptr(GBytes) moved = NULL;
      float *data;
      gsize size;

      g_assert_nonnull (utf);
      doc = mshed_document_new_for_utf (utf, MSHED_MODE_STRICT);
      g_assert_true (mshed_dfm_get_level (mshed_document_get_dfm (doc), 0, &level));
      points = mshed_utf_node_lookup (mshed_utf_node_lookup (level.node, "Geometry"), "Points");
      g_assert_nonnull (points);
      size = g_bytes_get_size (mshed_utf_node_get_data (points));
      data = g_memdup2 (g_bytes_get_data (mshed_utf_node_get_data (points), NULL), size);
      data[0] += 0.25f;
      moved = g_bytes_new_take (data, size);
      g_assert_true (mshed_document_utf_set_data (doc, points, moved, NULL));
    }
  else
    {
      g_autoptr(MshedModel) model = mshed_model_new_from_bytes (bytes, MSHED_MODE_STRICT,
                                                                NULL, NULL);

      g_assert_nonnull (model);
      doc = mshed_document_new_for_model (model, MSHED_MODE_STRICT);
      g_assert_true (mshed_document_set_field (doc, MSHED_TABLE_POSITIONS, 0, "x", 0.25, NULL));
    }
  mshed_document_clear_history (doc);
  g_assert_false (mshed_document_can_undo (doc));
  return doc;
}

static gboolean
import (MshedDocument    *doc,
        const MshedGltf  *gltf,
        gboolean          dfm,
        Recorder         *r,
        GError          **error)
{
  MshedProgress progress;

  if (r)
    mshed_progress_init (&progress, record, r, r->cancellable);
  if (dfm)
    return mshed_gltf_dfm_import_into (doc, gltf, r ? &progress : NULL, NULL, error);
  return mshed_gltf_import_into (doc, gltf, r ? &progress : NULL, NULL, error);
}

static void
check_import (GBytes   *model_bytes,
              GBytes   *glb,
              gboolean  dfm)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedGltf) gltf = NULL;
  g_autoptr(MshedDocument) plain_doc = edited_document (model_bytes, dfm);
  g_autoptr(MshedDocument) doc = edited_document (model_bytes, dfm);
  g_autoptr(GBytes) before = mshed_document_serialize (plain_doc);
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GBytes) reported = NULL;
  guint n, cancelled_runs = 0, whole_runs = 0;
  Recorder r;

  gltf = dfm ? mshed_gltf_read_skinned (glb, NULL, &error) : mshed_gltf_read (glb, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (import (plain_doc, gltf, dfm, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (mshed_document_can_undo (plain_doc));
  plain = mshed_document_serialize (plain_doc);
  g_assert_false (g_bytes_equal (plain, before));

  recorder_init (&r, 0);
  g_assert_true (import (doc, gltf, dfm, &r, &error));
  g_assert_no_error (error);
  reported = mshed_document_serialize (doc);
  g_assert_true (g_bytes_equal (plain, reported));
  assert_complete (&r, 4);
  n = r.fractions->len;
  recorder_clear (&r);
  g_clear_object (&doc);

  /* cancelled at report k: all (the changes applied whole) or nothing */
  for (guint k = 1; k <= n; k++)
    {
      g_autoptr(MshedDocument) d = edited_document (model_bytes, dfm);
      g_autoptr(GError) cancelled = NULL;
      g_autoptr(GBytes) after = NULL;
      gboolean ok;

      recorder_init (&r, k);
      ok = import (d, gltf, dfm, &r, &cancelled);
      after = mshed_document_serialize (d);
      if (ok)
        {
          g_assert_no_error (cancelled);
          g_assert_true (g_bytes_equal (after, plain));
          g_assert_true (mshed_document_can_undo (d));
          whole_runs++;
        }
      else
        {
          g_assert_error (cancelled, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          g_assert_true (g_bytes_equal (after, before));
          g_assert_false (mshed_document_can_undo (d));
          g_assert_false (mshed_document_can_redo (d));
          g_assert_cmpuint (r.fractions->len, ==, k);
          cancelled_runs++;
        }
      recorder_clear (&r);
    }
  g_assert_cmpuint (cancelled_runs, >=, 1);
  g_assert_cmpuint (whole_runs, >=, 1);
}

static void
test_import_msh (void)
{
  g_autoptr(MshedModel) model = msh_model ();
  g_autoptr(GBytes) glb = export (model, NULL, NULL, NULL);
  g_autoptr(GBytes) bytes = mshed_model_serialize (model);

  check_import (bytes, glb, FALSE);
}

static void
test_import_dfm (void)
{
  g_autoptr(MshedDfm) dfm = dfm_model ();
  g_autoptr(GBytes) glb = export (NULL, dfm, NULL, NULL);
  g_autoptr(GBytes) bytes = mshed_utf_serialize (mshed_dfm_get_utf (dfm),
                                                 MSHED_UTF_WRITE_PRESERVE, NULL, NULL);

  check_import (bytes, glb, TRUE);
}

/* A part's fractions land in its range of the parent; repeats and steps back are dropped. */
static void
test_parts (void)
{
  MshedProgress root, part, inner;
  Recorder r;
  const double expected[] = { 0.0, 0.25, 0.5, 0.625, 0.75, 1.0 };

  recorder_init (&r, 0);
  mshed_progress_init (&root, record, &r, r.cancellable);
  mshed_progress_report (&root, 0.0, "start");
  mshed_progress_part (&root, 0.25, 0.75, &part);
  mshed_progress_report (&part, 0.0, NULL);
  mshed_progress_report (&part, 0.0, NULL);          /* a repeat without a stage: dropped */
  mshed_progress_report (&part, 0.5, NULL);
  mshed_progress_part (&part, 0.5, 1.0, &inner);
  mshed_progress_report (&inner, 0.5, NULL);
  mshed_progress_report (&inner, 0.0, NULL);         /* back: held at 0.625, dropped */
  mshed_progress_report (&part, 1.0, NULL);
  mshed_progress_report (&root, 2.0, NULL);          /* clamped to 1.0 */
  g_assert_cmpuint (r.fractions->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpfloat (g_array_index (r.fractions, double, i), ==, expected[i]);
  g_assert_true (mshed_progress_check (&inner, NULL));
  g_cancellable_cancel (r.cancellable);
  g_assert_false (mshed_progress_check (&inner, NULL));
  g_assert_true (mshed_progress_check (NULL, NULL));
  recorder_clear (&r);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model/gltf-progress/parts", test_parts);
  g_test_add_func ("/model/gltf-progress/export-msh", test_export_msh);
  g_test_add_func ("/model/gltf-progress/export-dfm", test_export_dfm);
  g_test_add_func ("/model/gltf-progress/import-msh", test_import_msh);
  g_test_add_func ("/model/gltf-progress/import-dfm", test_import_dfm);
  return g_test_run ();
}
