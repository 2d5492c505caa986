/* mshed-table-view-menu.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a row of the table view is and what can be done to it from its context menu (right
 * click, the Menu key or Shift+F10): where the record lies in the file, copy, paste, follow a
 * reference, show the bytes in the hex view, recompute one slot's box or apply mshed's sphere
 * convention to it, and insert, duplicate or delete rows.
 */
#define G_LOG_DOMAIN "mshed-table-view"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-table-view-private.h"

/* Where a record is ------------------------------------------------------------------------ */

guint64
_mshed_table_view_record_file_offset (MshedTableView *self,
                                      guint           row)
{
  const MshedDiagnostics *diags;
  MshedModel *model;
  guint64 offset;

  if (self->document == NULL)
    return G_MAXUINT64;
  model = mshed_document_get_model (self->document);
  if (row >= mshed_model_get_n_rows (model, self->table))
    return G_MAXUINT64;
  if (self->table == MSHED_TABLE_NODES)
    {
      gint res = mshed_model_find_resource (model, 1);

      if (res < 0)
        return G_MAXUINT64;
      /* 38-byte or legacy 24-byte records (msh.md §3) */
      offset = mshed_nres_peek_entry (mshed_model_get_nres (model), (guint) res)->data_offset +
               (guint64) row * mshed_model_get_node_stride (model);
    }
  else
    offset = mshed_model_get_record_offset (model, self->table, row);
  /* a nested model's offsets count from the start of the archive, as everywhere */
  diags = mshed_document_get_diagnostics (self->document);
  return offset + (diags != NULL ? diags->base_offset : 0);
}
