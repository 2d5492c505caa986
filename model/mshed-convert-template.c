/* mshed-convert-template.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DFM -> MSH with a template model (docs/dfm.md §16, docs/msh.md §11): what no
 * source explains — Res9, Res15, Res17, hdr0, the slot tail words, the batch unknowns and the
 * descriptor flags and selectors — is copied from a retail-like model instead of invented.
 */
#define G_LOG_DOMAIN "mshed-convert"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-convert-private.h"
#include "mshed-schema.h"

/* Where each copied resource goes: before the first entry of these types (the retail order
 * `1, 2, 3, 4, 5, 15, 13, 6, 7, 8, 19, 9, 10, 17`, docs/msh.md §11), else at the end. */
static guint
position_for (MshedNres *nres,
              guint32    type_id)
{
  guint32 before = type_id == 15 ? 13 : type_id == 9 ? 10 : 0;
  gint at = before ? mshed_nres_find_type (nres, before) : -1;

  return at >= 0 ? (guint) at : G_MAXUINT;
}

static void
insert_copy (MshedNres            *nres,
             const MshedNresEntry *from,
             guint32               attr1,
             GBytes               *payload)
{
  MshedNresEntry templ = *from;

  templ.attr1 = attr1;
  templ.payload = NULL;
  templ.owned = NULL;
  mshed_nres_insert_entry (nres, position_for (nres, from->type_id), &templ, payload);
}

/* Res15 follows the vertex count (its runtime stride is 8, msh.md §4.12): the template's
 * records when the counts match, else the first record repeated (zeros for none). */
static gboolean
copy_res15 (MshedNres            *nres,
            const MshedNresEntry *from,
            guint                 n_vertices)
{
  gsize size = 0;
  const guint8 *data = mshed_nres_entry_get_data (from, &size);
  gsize want = (gsize) n_vertices * 8;
  g_autoptr(GBytes) payload = NULL;

  if (size == want)
    payload = g_bytes_new (data, size);
  else
    {
      guint8 *out = g_malloc0 (MAX (want, 1));

      for (gsize i = 0; size >= 8 && i < n_vertices; i++)
        memcpy (out + i * 8, data, 8);
      payload = g_bytes_new_take (out, want);
    }
  insert_copy (nres, from, n_vertices, payload);
  return size == want;
}

/* Copies @size bytes at @offset of the template's first @table record into every record of
 * the same table of @nres. */
static void
copy_fields (MshedModel       *out,
             const MshedModel *templ,
             MshedTableId      table,
             gsize             offset,
             gsize             size)
{
  const MshedTableInfo *info = mshed_schema_get_table (table);
  const guint8 *first = mshed_model_get_record (templ, table, 0);
  guint n = mshed_model_get_n_rows (out, table);
  gint res = mshed_model_find_resource (out, info->res_type);
  guint8 *data;

  if (first == NULL || n == 0 || res < 0)
    return;
  data = mshed_nres_entry_make_mutable (mshed_model_get_nres (out), (guint) res);
  for (guint r = 0; r < n; r++)
    memcpy (data + info->header_size + (gsize) r * info->stride + offset, first + offset, size);
}

gboolean
mshed_convert_apply_template (MshedNres           *nres,
                              MshedModel          *templ,
                              const char          *where,
                              MshedConvertReport  *report,
                              GError             **error)
{
  static const guint32 copied[] = { 9, 15, 17 };
  g_autoptr(MshedModel) out = NULL;
  guint n_vertices;

  g_return_val_if_fail (nres != NULL && report != NULL, FALSE);
  if (templ == NULL)
    {
      mshed_convert_lose (report, "template", 3,
                          _("resources Res9, Res15 and Res17 that every retail model has "
                            "(no template model given: --template)"));
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (copied); i++)
    {
      if (mshed_model_find_resource (templ, copied[i]) < 0)
        return mshed_convert_fail (error, where, _("the template model has no Res%u; a "
                                                   "template must have Res9, Res15 and Res17"),
                                   copied[i]);
      if (mshed_nres_find_type (nres, copied[i]) >= 0)
        return mshed_convert_fail (error, where, _("the converted model has a Res%u already"),
                                   copied[i]);
    }
  if (mshed_model_get_node_stride (templ) != 38)
    return mshed_convert_fail (error, where, _("the template model has legacy 24-byte node "
                                               "records; its hdr0 cannot be copied"));
  out = mshed_model_new (nres, MSHED_MODE_TOLERANT, NULL, NULL);
  n_vertices = mshed_model_get_n_rows (out, MSHED_TABLE_POSITIONS);
  copy_fields (out, templ, MSHED_TABLE_NODES, 0, 2);         /* hdr0 */
  copy_fields (out, templ, MSHED_TABLE_SLOTS, 48, 20);       /* unk30..unk40 */
  copy_fields (out, templ, MSHED_TABLE_BATCHES, 0, 2);       /* batchFlags */
  copy_fields (out, templ, MSHED_TABLE_BATCHES, 4, 4);       /* unk4, unk6 */
  copy_fields (out, templ, MSHED_TABLE_BATCHES, 14, 2);      /* unk14 */
  copy_fields (out, templ, MSHED_TABLE_TRIS, 0, 2);          /* triFlags */
  copy_fields (out, templ, MSHED_TABLE_TRIS, 14, 2);         /* selPacked */
  g_clear_pointer (&out, mshed_model_unref);
  for (guint i = 0; i < G_N_ELEMENTS (copied); i++)
    {
      const MshedNresEntry *from = mshed_model_get_resource (templ, copied[i]);

      if (copied[i] == 15)
        mshed_convert_lose (report, "template-res15",
                            copy_res15 (nres, from, n_vertices) ? 0 : n_vertices,
                            _("Res15 records not the template's own (its count differs from "
                              "the vertex count: its first record repeated)"));
      else
        {
          g_autoptr(GBytes) bytes = mshed_nres_entry_dup_bytes (from);

          insert_copy (nres, from, from->attr1, bytes);
        }
    }
  return TRUE;
}
