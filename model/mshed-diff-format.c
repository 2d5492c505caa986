/* mshed-diff-format.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one-line text of each difference of a structural diff (docs/diff.md §4).
 */
#define G_LOG_DOMAIN "mshed-diff"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "mshed-bytes.h"
#include "mshed-diff.h"

/* Text (docs/diff.md §4) ----------------------------------------------------------------- */

/* "Res17", or the four characters of an archive type ("Texm") */
static void
append_type (GString *s,
             guint32  type)
{
  guint8 c[4];
  gboolean printable = TRUE;

  mshed_write_u32 (c, type);
  for (guint i = 0; i < 4; i++)
    printable &= c[i] >= 0x21 && c[i] <= 0x7E;
  if (printable)
    g_string_append_len (s, (const char *) c, 4);
  else
    g_string_append_printf (s, "Res%" G_GUINT32_FORMAT, type);
}

static void
append_where (GString             *s,
              const MshedDiffItem *item)
{
  gboolean more = item->path || item->table_name || item->res_type != 0;

  if (item->entry)
    g_string_append_printf (s, more ? "%s: " : "%s", item->entry);
  if (item->path)
    g_string_append (s, item->path);
  else if (item->table_name)
    g_string_append (s, item->table_name);
  else if (item->res_type != 0)
    append_type (s, item->res_type);
}

static void
append_row (GString             *s,
            const MshedDiffItem *item)
{
  if (item->row_a == MSHED_DIFF_NO_ROW && item->row_b == MSHED_DIFF_NO_ROW)
    return;
  if (item->row_a == MSHED_DIFF_NO_ROW)
    g_string_append_printf (s, "[%u]", item->row_b);
  else if (item->row_b == MSHED_DIFF_NO_ROW || item->row_a == item->row_b)
    g_string_append_printf (s, "[%u]", item->row_a);
  else
    g_string_append_printf (s, "[%u→%u]", item->row_a, item->row_b);
}

static char *
float_text (float v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", v));
}

static void
append_bounds (GString     *s,
               const float  b[6])
{
  s = g_string_append_c (s, '(');
  for (guint k = 0; k < 6; k++)
    {
      g_autofree char *v = float_text (b[k]);

      g_string_append (s, v);
      g_string_append (s, k == 2 ? ")–(" : k == 5 ? ")" : " ");
    }
}

/**
 * mshed_diff_item_format:
 *
 * Returns: (transfer full): one line without a newline, e.g. "slots[3].batchCount: 2 → 3",
 *   "names[4]: “Wheel” → “Колесо”", "nodes[5]: added"
 */
char *
mshed_diff_item_format (const MshedDiffItem *item)
{
  GString *s = g_string_new (NULL);

  switch (item->kind)
    {
    case MSHED_DIFF_FIELD:
      append_where (s, item);
      append_row (s, item);
      g_string_append_printf (s, ".%s: %s → %s", item->field, item->old_value,
                              item->new_value);
      break;
    case MSHED_DIFF_TEXT:
      append_where (s, item);
      append_row (s, item);
      if (item->field)
        g_string_append_printf (s, ".%s", item->field);
      g_string_append_printf (s, ": “%s” → “%s”", item->old_value, item->new_value);
      break;
    case MSHED_DIFF_ROW_ADDED:
    case MSHED_DIFF_ROW_REMOVED:
      append_where (s, item);
      append_row (s, item);
      g_string_append (s, ": ");
      g_string_append (s, item->kind == MSHED_DIFF_ROW_ADDED ? _("added") : _("removed"));
      if ((item->old_value && *item->old_value) || (item->new_value && *item->new_value))
        g_string_append_printf (s, " (“%s”)", item->old_value ? item->old_value
                                                              : item->new_value);
      break;
    case MSHED_DIFF_BYTES:
      append_where (s, item);
      g_string_append_printf (s, " @0x%" G_GINT64_MODIFIER "X: ", item->offset);
      if (item->length_a == item->length_b)
        g_string_append_printf (s, ngettext ("%" PRIu64 " byte", "%" PRIu64 " bytes",
                                             item->length_a), (guint64) item->length_a);
      else
        g_string_append_printf (s, _("%" PRIu64 " → %" PRIu64 " bytes"),
                                (guint64) item->length_a, (guint64) item->length_b);
      g_string_append_printf (s, ": %s → %s", *item->old_value ? item->old_value : "-",
                              *item->new_value ? item->new_value : "-");
      break;
    case MSHED_DIFF_RESOURCE_ADDED:
    case MSHED_DIFF_RESOURCE_REMOVED:
    case MSHED_DIFF_RESOURCE_CHANGED:
      append_where (s, item);
      if ((item->old_value && *item->old_value) || (item->new_value && *item->new_value))
        g_string_append_printf (s, " “%s”", item->old_value ? item->old_value
                                                            : item->new_value);
      g_string_append (s, ": ");
      g_string_append (s, item->kind == MSHED_DIFF_RESOURCE_ADDED ? _("added")
                          : item->kind == MSHED_DIFF_RESOURCE_REMOVED ? _("removed")
                          : _("changed"));
      break;
    case MSHED_DIFF_RENAMED:
      append_where (s, item);
      g_string_append_printf (s, _(": renamed from “%s”"), item->old_value);
      break;
    case MSHED_DIFF_GEOMETRY:
    default:
      {
        g_autofree char *disp = NULL;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        disp = g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", item->max_displacement));
        append_where (s, item);
        g_string_append (s, ": ");
        g_string_append_printf (s, ngettext ("%u vertex moved", "%u vertices moved",
                                             item->moved_vertices), item->moved_vertices);
        g_string_append_printf (s, _(" (largest %s), "), disp);
        g_string_append_printf (s, ngettext ("%u triangle changed", "%u triangles changed",
                                             item->changed_triangles),
                                item->changed_triangles);
        if (item->row_a != item->row_b)
          g_string_append_printf (s, _(", %u → %u rows"), item->row_a, item->row_b);
        g_string_append (s, _(", bounds "));
        append_bounds (s, item->bounds_a);
        g_string_append (s, " → ");
        append_bounds (s, item->bounds_b);
      }
      break;
    }
  return g_string_free (s, FALSE);
}
