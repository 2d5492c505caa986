/* mshed-utf-crc.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-utf"

#include "config.h"

#include <pthread.h>
#include <string.h>

#include "mshed-utf-crc.h"

/* Name hash, docs/utf.md §6 ------------------------------------------------------------- */

static guint32 crc_table[256];

static void
crc_table_fill (void)
{
  for (guint i = 0; i < 256; i++)
    {
      guint32 v = i;

      /* dacom.dll shifts a signed accumulator: the sign bit is copied down (§6 step 2).
       * Spelled out on an unsigned value, so it does not depend on the compiler. */
      for (guint k = 0; k < 8; k++)
        {
          guint32 shifted = (v >> 1) | (v & 0x80000000u);

          v = (v & 1) ? (shifted ^ 0xEDB88320u) : shifted;
        }
      crc_table[i] = v;
    }
}

/* pthread_once, not g_once_init_enter: ThreadSanitizer sees pthread_once's ordering, not the
 * release store inside (uninstrumented) GLib, and would report the table as a race */
static void
crc_table_init (void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;

  pthread_once (&once, crc_table_fill);
}

/**
 * mshed_utf_crc_table_entry:
 *
 * Returns: entry @index (0..255) of the FL CRC table (docs/utf.md §6: table[1] = 0x09073096)
 */
guint32
mshed_utf_crc_table_entry (guint index)
{
  g_return_val_if_fail (index < 256, 0);
  crc_table_init ();
  return crc_table[index];
}

/**
 * mshed_utf_crc_bytes:
 *
 * FL CRC32 of @len name bytes, folding ASCII `A`..`Z` first (docs/utf.md §6 steps 1 and 3).
 */
guint32
mshed_utf_crc_bytes (const guint8 *bytes,
                     gsize         len)
{
  guint32 crc = 0xFFFFFFFFu;

  crc_table_init ();
  for (gsize i = 0; i < len; i++)
    crc = (crc >> 8) ^ crc_table[(crc ^ mshed_utf_name_fold (bytes[i])) & 0xFF];
  return ~crc;
}

/**
 * mshed_utf_crc:
 *
 * Returns: the FL CRC32 of a NUL-terminated name: crc("a") = 0xFCB7BE43, crc("") = 0
 */
guint32
mshed_utf_crc (const char *name)
{
  return mshed_utf_crc_bytes ((const guint8 *) name, strlen (name));
}

/**
 * mshed_utf_name_compare:
 *
 * Compares two names the way the game matches them (docs/utf.md §3.4): ASCII `A`..`Z` folded
 * to lower case, then unsigned bytes.
 *
 * Returns: <0, 0 or >0
 */
int
mshed_utf_name_compare (const char *a,
                        const char *b)
{
  const guint8 *p = (const guint8 *) a;
  const guint8 *q = (const guint8 *) b;

  for (;; p++, q++)
    {
      guint8 ca = *p, cb = *q;

      if (ca != cb)
        {
          /* names mostly agree byte for byte: fold only where they differ */
          ca = mshed_utf_name_fold (ca);
          cb = mshed_utf_name_fold (cb);
          if (ca != cb)
            return ca < cb ? -1 : 1;
        }
      if (ca == 0)
        return 0;
    }
}

/**
 * mshed_utf_name_hash:
 *
 * A #GHashFunc for names that agrees with mshed_utf_name_equal: names that differ only in
 * ASCII case (docs/utf.md §3.4) hash alike.
 */
guint
mshed_utf_name_hash (gconstpointer name)
{
  guint h = 5381;

  for (const guint8 *p = name; *p; p++)
    h = (h << 5) + h + mshed_utf_name_fold (*p);
  return h;
}

/**
 * mshed_utf_name_equal:
 *
 * A #GEqualFunc: whether two names match ignoring ASCII case (docs/utf.md §3.4).
 */
gboolean
mshed_utf_name_equal (gconstpointer a,
                      gconstpointer b)
{
  return mshed_utf_name_compare (a, b) == 0;
}

/* Windows-1252 0x80..0x9F; 0 = undefined (treewyrm encodes names as Windows-1252, §6) */
static const gunichar cp1252_high[32] = {
  0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
  0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
};

/**
 * mshed_utf_name_to_display:
 *
 * Names are bytes (ASCII in retail files). This decodes them as Windows-1252 for messages and
 * views; control bytes and bytes Windows-1252 leaves undefined are shown as `\xNN`.
 *
 * Returns: (transfer full): valid UTF-8
 */
char *
mshed_utf_name_to_display (const char *name)
{
  GString *s = g_string_new (NULL);

  mshed_utf_name_append_display (s, name);
  return g_string_free (s, FALSE);
}

/**
 * mshed_utf_name_append_display:
 *
 * Appends mshed_utf_name_to_display (@name) to @out.
 */
void
mshed_utf_name_append_display (GString    *out,
                               const char *name)
{
  for (const guint8 *p = (const guint8 *) name; *p; p++)
    {
      gunichar c = *p;

      if (c >= 0x20 && c < 0x7F)
        {
          g_string_append_c (out, (char) c);  /* ASCII, what retail names are */
          continue;
        }
      if (c >= 0x80 && c < 0xA0)
        c = cp1252_high[c - 0x80];
      if (c < 0x20 || c == 0x7F)
        g_string_append_printf (out, "\\x%02X", *p);
      else
        g_string_append_unichar (out, c);
    }
}

/* Timestamps, docs/utf.md §5.1 and §2 -------------------------------------------------- */

/**
 * mshed_utf_dos_time_decode:
 * @out: (out) (optional): the fields, filled even when they do not form a valid date
 *
 * Returns: TRUE when the value is a real date and time (month 1..12, a day of that month,
 *   hours < 24, minutes < 60, seconds < 60)
 */
gboolean
mshed_utf_dos_time_decode (guint32          value,
                           MshedUtfDosTime *out)
{
  MshedUtfDosTime t;

  t.second = (value & 0x1F) * 2;
  t.minute = (value >> 5) & 0x3F;
  t.hour = (value >> 11) & 0x1F;
  t.day = (value >> 16) & 0x1F;
  t.month = (value >> 21) & 0x0F;
  t.year = 1980 + (value >> 25);
  if (out)
    *out = t;
  return t.second < 60 && t.minute < 60 && t.hour < 24 && t.month >= 1 && t.month <= 12
         && g_date_valid_dmy ((GDateDay) t.day, (GDateMonth) t.month, (GDateYear) t.year);
}

/**
 * mshed_utf_dos_time_encode:
 * @time: a wall-clock time (treewyrm stamps local time); clamped to 1980..2107
 *
 * Returns: the DOS date-time; odd seconds are rounded down
 */
guint32
mshed_utf_dos_time_encode (GDateTime *time)
{
  gint year = g_date_time_get_year (time);

  if (year < 1980)
    return (1u << 21) | (1u << 16);  /* 1980-01-01 00:00:00 */
  if (year > 2107)
    return (127u << 25) | (12u << 21) | (31u << 16) | (23u << 11) | (59u << 5) | 29u;
  return ((guint32) (year - 1980) << 25) | ((guint32) g_date_time_get_month (time) << 21)
         | ((guint32) g_date_time_get_day_of_month (time) << 16)
         | ((guint32) g_date_time_get_hour (time) << 11)
         | ((guint32) g_date_time_get_minute (time) << 5)
         | ((guint32) g_date_time_get_second (time) / 2);
}

#define FILETIME_UNIX_EPOCH G_GUINT64_CONSTANT (116444736000000000)
#define FILETIME_PER_SECOND G_GUINT64_CONSTANT (10000000)

/**
 * mshed_utf_filetime_to_datetime:
 *
 * Returns: (transfer full) (nullable): the UTC time of a Windows FILETIME (100 ns ticks since
 *   1601-01-01), or NULL outside the years GDateTime can hold
 */
GDateTime *
mshed_utf_filetime_to_datetime (guint64 filetime)
{
  gint64 seconds = (gint64) (filetime / FILETIME_PER_SECOND)
                   - (gint64) (FILETIME_UNIX_EPOCH / FILETIME_PER_SECOND);
  gint64 ticks = (gint64) (filetime % FILETIME_PER_SECOND);
  g_autoptr(GDateTime) whole = g_date_time_new_from_unix_utc (seconds);

  if (whole == NULL)
    return NULL;
  return g_date_time_add (whole, ticks / 10);
}

/**
 * mshed_utf_filetime_from_datetime:
 *
 * Returns: the FILETIME of @time (0 before 1601)
 */
guint64
mshed_utf_filetime_from_datetime (GDateTime *time)
{
  gint64 seconds = g_date_time_to_unix (time);
  gint64 since_1601 = seconds + (gint64) (FILETIME_UNIX_EPOCH / FILETIME_PER_SECOND);

  if (since_1601 < 0)
    return 0;
  return (guint64) since_1601 * FILETIME_PER_SECOND
         + (guint64) g_date_time_get_microsecond (time) * 10;
}

/**
 * mshed_utf_is_string_leaf_name:
 *
 * The container does not type payloads; their type follows from the entry name
 * (docs/utf.md §5). These are the names whose payload is a string in a DFM model
 * (docs/utf.md §5.2), used for the "string without a final NUL" note.
 */
gboolean
mshed_utf_is_string_leaf_name (const char *name)
{
  /* by length, so most names need no compare */
  switch (strlen (name))
    {
    case 4:
      return mshed_utf_name_compare (name, "Name") == 0
             || mshed_utf_name_compare (name, "Type") == 0;
    case 7:
      return mshed_utf_name_compare (name, "Dt_name") == 0;
    case 9:
      return mshed_utf_name_compare (name, "File name") == 0;
    case 11:
      return mshed_utf_name_compare (name, "Object name") == 0;
    case 13:
      return mshed_utf_name_compare (name, "Material_name") == 0;
    case 16:
      return mshed_utf_name_compare (name, "Exporter Version") == 0;
    default:
      return FALSE;
    }
}
