/* archive-ref.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The NRes directory order of docs/nres.md §5.2 written out independently of the library, for
 * the archive round-trip tests.
 */
#pragma once

#include "mshed-nres.h"
#include "mshed-source.h"

/* docs/nres.md §5.2 written out independently: stable insertion sort, lower-case fold. */
static inline int
ref_compare (const guint8 *a,
             const guint8 *b,
             gboolean      upper_fold)
{
  for (guint i = 0;; i++)
    {
      guint8 ca = i < 36 ? a[i] : 0, cb = i < 36 ? b[i] : 0;

      if (upper_fold)
        {
          ca = (ca >= 'a' && ca <= 'z') ? ca - 0x20 : ca;
          cb = (cb >= 'a' && cb <= 'z') ? cb - 0x20 : cb;
        }
      else
        {
          ca = (ca >= 'A' && ca <= 'Z') ? ca + 0x20 : ca;
          cb = (cb >= 'A' && cb <= 'Z') ? cb + 0x20 : cb;
        }
      if (ca != cb)
        return ca < cb ? -1 : 1;
      if (ca == 0)
        return 0;
    }
}

static inline void
ref_sort_table (const MshedNres *nres,
                gboolean         upper_fold,
                guint32         *out)
{
  guint n = mshed_nres_get_n_entries (nres);

  for (guint i = 0; i < n; i++)
    {
      guint j = i;

      out[i] = i;
      while (j > 0 && ref_compare (mshed_nres_peek_entry (nres, out[j - 1])->name,
                                   mshed_nres_peek_entry (nres, i)->name, upper_fold) > 0)
        {
          out[j] = out[j - 1];
          j--;
        }
      out[j] = i;
    }
}

static inline gboolean
entry_is_model (const MshedNresEntry *e)
{
  return mshed_entry_is_model_name (e);
}
