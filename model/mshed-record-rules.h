/* mshed-record-rules.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The per-record rules of docs/msh.md §9.1, defined once. The full validator
 * (mshed_validate_model) runs them over every record; the document runs them over the records
 * an edit touched (mshed-document-checks.c). Each caller brings the counts the rules compare
 * against and a reporter that turns a finding into a diagnostic its own way (the validator
 * caps each check at a number of messages, the document does not). Private to libmshed-model.
 */
#pragma once

#include <stdarg.h>

#include "mshed-diagnostic.h"
#include "mshed-model-types.h"

G_BEGIN_DECLS

typedef struct _MshedRecordRules MshedRecordRules;

/**
 * MshedRuleReport:
 * @field_offset: where @field starts inside the record, in bytes
 * @consequence: (nullable): what a tolerant reader does about it ("ignored: …")
 * @format: the message (translated), with @args
 *
 * Receives one finding about record @record of @table (stored in resource @res_type).
 */
typedef void (*MshedRuleReport) (MshedRecordRules *rules,
                                 MshedSeverity     severity,
                                 MshedCheck        check,
                                 guint32           res_type,
                                 MshedTableId      table,
                                 guint             record,
                                 const char       *field,
                                 guint             field_offset,
                                 const char       *consequence,
                                 const char       *format,
                                 va_list           args) G_GNUC_PRINTF (10, 0);

struct _MshedRecordRules {
  guint32         n_nodes;    /* 38-byte records in Res1 */
  guint32         n_slots;    /* 68-byte records in Res2 after its header */
  guint32         n_batches;  /* Res13 records */
  guint32         n_tris;     /* Res7 descriptors */
  guint32         n_indices;  /* Res6 words */
  guint32         n_verts;    /* Res3 positions */
  guint32         n_keys;     /* Res8 keys */
  guint32         n_words;    /* Res19 words */
  guint32         frames;     /* the frame count (1 without Res19) */
  gboolean        have_keys;  /* the model has Res8 */
  gboolean        have_map;   /* the model has Res19 */
  const guint8   *indices;    /* Res6, n_indices words */
  MshedRuleReport report;
  gpointer        user_data;
};

/* Each takes the record's bytes (the whole record, as its table's stride says). */
void _mshed_rules_header (MshedRecordRules *rules,
                          const guint8     *header);
void _mshed_rules_slot   (MshedRecordRules *rules,
                          const guint8     *rec,
                          guint             slot);
void _mshed_rules_batch  (MshedRecordRules *rules,
                          const guint8     *rec,
                          guint             batch);
void _mshed_rules_tri    (MshedRecordRules *rules,
                          const guint8     *rec,
                          guint             tri);
void _mshed_rules_node   (MshedRecordRules *rules,
                          const guint8     *rec,
                          guint             node);

G_END_DECLS
