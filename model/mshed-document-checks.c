/* mshed-document-checks.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After a local edit the document replaces just the edited records' findings instead of
 * re-validating a 200k-triangle model: it runs the per-record rules of docs/msh.md §9.1 on
 * them, the same definitions mshed_validate_model runs (mshed-record-rules.c). Rules that
 * look at more than one record (animation layout, counts, Res10) stay with the full validator.
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "mshed-document-private.h"
#include "mshed-record-rules.h"

typedef struct {
  MshedRecordRules  rules;
  const MshedModel *model;
  MshedDiagnostics *diags;
  gboolean          tolerant;  /* append what a tolerant reader drops */
} Ctx;

gboolean
_mshed_check_is_local (MshedCheck check)
{
  switch (check)
    {
    case MSHED_CHECK_HEADER_NONFINITE:
    case MSHED_CHECK_SLOT_BATCH_RANGE:
    case MSHED_CHECK_SLOT_TRI_RANGE:
    case MSHED_CHECK_SLOT_NONFINITE:
    case MSHED_CHECK_SLOT_AABB_ORDER:
    case MSHED_CHECK_SLOT_RADIUS:
    case MSHED_CHECK_BATCH_INDEX_RANGE:
    case MSHED_CHECK_BATCH_INDEX_MULTIPLE:
    case MSHED_CHECK_BATCH_VERTEX_RANGE:
    case MSHED_CHECK_TRI_LINK:
    case MSHED_CHECK_NODE_PARENT:
    case MSHED_CHECK_NODE_MAP:
    case MSHED_CHECK_NODE_KEY:
    case MSHED_CHECK_NODE_SLOT:
      return TRUE;
    default:
      return FALSE;
    }
}

static void G_GNUC_PRINTF (10, 0)
report (MshedRecordRules *rules,
        MshedSeverity     severity,
        MshedCheck        check,
        guint32           res_type,
        MshedTableId      table,
        guint             record,
        const char       *field,
        guint             field_offset,
        const char       *consequence,
        const char       *format,
        va_list           args)
{
  Ctx *c = rules->user_data;
  g_autofree char *message = g_strdup_vprintf (format, args);
  const MshedNresEntry *e = mshed_model_get_resource (c->model, res_type);
  guint64 offset = mshed_model_get_record_offset (c->model, table, record) + field_offset;

  if (consequence != NULL && c->tolerant)
    {
      char *full = g_strdup_printf (_("%s; %s"), message, consequence);

      g_free (message);
      message = full;
    }
  mshed_diagnostics_add (c->diags, severity, check, res_type,
                         mshed_model_find_resource (c->model, res_type), table, record, field,
                         e ? offset : 0, "%s", message);
}

static guint32
count_of (const MshedModel *model,
          guint32           type,
          guint             stride)
{
  const MshedNresEntry *e = mshed_model_get_resource (model, type);

  return e ? (guint32) (mshed_nres_entry_get_size (e) / stride) : 0;
}

void
_mshed_check_record (const MshedModel *model,
                     MshedMode         mode,
                     MshedTableId      table,
                     guint             row,
                     MshedDiagnostics *diags)
{
  const MshedNresEntry *r6 = mshed_model_get_resource (model, 6);
  const guint8 *rec = mshed_model_get_record (model, table, table == MSHED_TABLE_HEADER ? 0 : row);
  Ctx c = { .model = model, .diags = diags, .tolerant = mode == MSHED_MODE_TOLERANT };

  if (rec == NULL)
    return;
  c.rules = (MshedRecordRules) {
    .n_nodes = mshed_model_get_n_rows (model, MSHED_TABLE_NODES),
    .n_slots = mshed_model_get_n_rows (model, MSHED_TABLE_SLOTS),
    .n_batches = count_of (model, 13, 20),
    .n_tris = count_of (model, 7, 16),
    .n_indices = count_of (model, 6, 2),
    .n_verts = count_of (model, 3, 12),
    .n_keys = count_of (model, 8, 24),
    .n_words = count_of (model, 19, 2),
    .frames = mshed_model_get_resource (model, 19) ? mshed_model_get_frame_count (model) : 1,
    .have_keys = mshed_model_get_resource (model, 8) != NULL,
    .have_map = mshed_model_get_resource (model, 19) != NULL,
    .indices = r6 ? mshed_nres_entry_get_data (r6, NULL) : NULL,
    .report = report,
    .user_data = &c,
  };
  switch (table)
    {
    case MSHED_TABLE_HEADER:
      _mshed_rules_header (&c.rules, rec);
      break;
    case MSHED_TABLE_SLOTS:
      _mshed_rules_slot (&c.rules, rec, row);
      break;
    case MSHED_TABLE_BATCHES:
      _mshed_rules_batch (&c.rules, rec, row);
      break;
    case MSHED_TABLE_TRIS:
      _mshed_rules_tri (&c.rules, rec, row);
      break;
    case MSHED_TABLE_NODES:
      if (mshed_model_has_node_records (model))
        _mshed_rules_node (&c.rules, rec, row);
      break;
    default:
      break;
    }
}
