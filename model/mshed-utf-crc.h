/* mshed-utf-crc.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Values of the UTF container that need no tree: the Freelancer name hash (docs/utf.md §6),
 * the ASCII case fold of names (§3.4), DOS entry timestamps (§5.1) and the header FILETIME (§2).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A DOS date-time (docs/utf.md §5.1), decoded. */
typedef struct {
  guint year;    /* 1980..2107 */
  guint month;   /* 1..12 when valid */
  guint day;
  guint hour;
  guint minute;
  guint second;  /* even */
} MshedUtfDosTime;

/* the ASCII case fold of one name byte (docs/utf.md §3.4): `A`..`Z` to lower case */
static inline guint8
mshed_utf_name_fold (guint8 c)
{
  return (c >= 0x41 && c <= 0x5A) ? (guint8) (c + 0x20) : c;
}

guint32         mshed_utf_crc_table_entry     (guint              index);
guint32         mshed_utf_crc                 (const char        *name);
guint32         mshed_utf_crc_bytes           (const guint8      *bytes,
                                               gsize              len);
int             mshed_utf_name_compare        (const char        *a,
                                               const char        *b);
guint           mshed_utf_name_hash           (gconstpointer      name);
gboolean        mshed_utf_name_equal          (gconstpointer      a,
                                               gconstpointer      b);
char           *mshed_utf_name_to_display     (const char        *name);
void            mshed_utf_name_append_display (GString           *out,
                                               const char        *name);
gboolean        mshed_utf_dos_time_decode     (guint32            value,
                                               MshedUtfDosTime   *out);
guint32         mshed_utf_dos_time_encode     (GDateTime         *time);
GDateTime      *mshed_utf_filetime_to_datetime (guint64           filetime);
guint64         mshed_utf_filetime_from_datetime (GDateTime      *time);
gboolean        mshed_utf_is_string_leaf_name (const char        *name);

G_END_DECLS
