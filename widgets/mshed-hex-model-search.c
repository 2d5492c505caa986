/* mshed-hex-model-search.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Byte-pattern search in the hex model's window, and parsing and formatting of what the user
 * types or copies (hex bytes, typed values, C arrays).
 */
#define G_LOG_DOMAIN "mshed-hex-model"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-hex-model.h"

/* Search ------------------------------------------------------------------------------- */

static gboolean
match_at (const guint8 *p,
          const guint8 *pattern,
          const guint8 *mask,
          gsize         length)
{
  if (mask == NULL)
    return memcmp (p, pattern, length) == 0;
  for (gsize i = 0; i < length; i++)
    if ((p[i] & mask[i]) != (pattern[i] & mask[i]))
      return FALSE;
  return TRUE;
}

/* First match in [lo, hi) (forwards) or last match starting in [lo, hi) (backwards). */
static gboolean
scan (const guint8 *data,
      gsize         lo,
      gsize         hi,
      gsize         end,
      const guint8 *pattern,
      const guint8 *mask,
      gsize         length,
      gboolean      backwards,
      gsize        *found)
{
  gsize last = end >= length ? end - length + 1 : 0;

  hi = MIN (hi, last);
  if (lo >= hi)
    return FALSE;
  if (!backwards)
    {
      gboolean plain_first = mask == NULL || mask[0] == 0xFF;

      for (gsize i = lo; i < hi; i++)
        {
          if (plain_first)
            {
              const guint8 *q = memchr (data + i, pattern[0], hi - i);

              if (q == NULL)
                return FALSE;
              i = (gsize) (q - data);
            }
          if (match_at (data + i, pattern, mask, length))
            {
              *found = i;
              return TRUE;
            }
        }
      return FALSE;
    }
  for (gsize i = hi; i-- > lo;)
    if (match_at (data + i, pattern, mask, length))
      {
        *found = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
mshed_hex_model_find (MshedHexModel *self,
                      const guint8  *pattern,
                      const guint8  *mask,
                      gsize          length,
                      gsize          from,
                      gboolean       backwards,
                      gsize         *found)
{
  const guint8 *data;
  gsize ws, we;

  g_return_val_if_fail (MSHED_IS_HEX_MODEL (self), FALSE);
  g_return_val_if_fail (found != NULL, FALSE);

  if (length == 0)
    return FALSE;
  mshed_hex_model_get_window (self, &ws, &we);
  data = mshed_hex_model_peek (self, 0, NULL);
  if (data == NULL || we - ws < length)
    return FALSE;
  from = CLAMP (from, ws, we);
  if (!backwards)
    return scan (data, from, we, we, pattern, mask, length, FALSE, found) ||
           scan (data, ws, from, we, pattern, mask, length, FALSE, found);
  return scan (data, ws, from + 1, we, pattern, mask, length, TRUE, found) ||
         scan (data, from + 1, we, we, pattern, mask, length, TRUE, found);
}

/* Parsing and formatting --------------------------------------------------------------- */

static gboolean
parse_hex_tokens (const char  *text,
                  gboolean     wildcards,
                  GByteArray  *out,
                  GByteArray  *mask,
                  GError     **error)
{
  const char *p = text;
  const char *open = strchr (text, '{');

  if (open != NULL)
    p = open + 1;  /* a pasted C array: only its body */

  while (*p != '\0' && *p != '}')
    {
      guint8 b, m = 0xFF;

      if (g_ascii_isspace (*p) || *p == ',' || *p == ';' || *p == ':' || *p == '-')
        {
          p++;
          continue;
        }
      if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && g_ascii_isxdigit (p[2]))
        {
          p += 2;
          if (!g_ascii_isxdigit (p[1]))
            {
              /* "0xA" */
              b = (guint8) g_ascii_xdigit_value (p[0]);
              p += 1;
              g_byte_array_append (out, &b, 1);
              if (mask)
                g_byte_array_append (mask, &m, 1);
              continue;
            }
        }
      if (wildcards && *p == '?')
        {
          b = 0;
          m = 0;
          p += (p[1] == '?') ? 2 : 1;
        }
      else if (g_ascii_isxdigit (p[0]) && g_ascii_isxdigit (p[1]))
        {
          b = (guint8) (g_ascii_xdigit_value (p[0]) << 4 | g_ascii_xdigit_value (p[1]));
          p += 2;
        }
      else
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                       g_ascii_isxdigit (p[0])
                         ? _("“%s” has an odd number of hexadecimal digits")
                         : _("“%s” is not a list of hexadecimal bytes (e.g. DE AD BE EF)"),
                       text);
          return FALSE;
        }
      g_byte_array_append (out, &b, 1);
      if (mask)
        g_byte_array_append (mask, &m, 1);
    }
  if (out->len == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("No bytes given"));
      return FALSE;
    }
  return TRUE;
}

GBytes *
mshed_hex_parse_bytes (const char  *text,
                       GError     **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  g_return_val_if_fail (text != NULL, NULL);

  if (!parse_hex_tokens (text, FALSE, out, NULL, error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static gboolean
parse_integer (const char  *text,
               gint64       min,
               gint64       max,
               gint64      *value,
               GError     **error)
{
  g_autofree char *s = g_strstrip (g_strdup (text));
  gboolean hex = g_ascii_strncasecmp (s, "0x", 2) == 0;
  char *end = NULL;
  gint64 v;

  if (hex)
    {
      guint64 u = g_ascii_strtoull (s + 2, &end, 16);

      v = u > (guint64) G_MAXINT64 ? -1 : (gint64) u;
      /* hexadecimal gives the bit pattern of signed types */
      if (min < 0 && v > max && v <= max - min)
        v += min * 2;
    }
  else
    v = g_ascii_strtoll (s, &end, 10);
  if (*s == '\0' || (hex && s[2] == '\0') || end == NULL || *end != '\0')
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("“%s” is not an integer (decimal or 0x… hexadecimal)"), text);
      return FALSE;
    }
  if (v < min || v > max)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("%s is out of range %" PRId64 "…%" PRId64),
                   s, min, max);
      return FALSE;
    }
  *value = v;
  return TRUE;
}

gboolean
mshed_hex_parse_pattern (MshedHexSearchKind   kind,
                         const char          *text,
                         GByteArray         **pattern,
                         GByteArray         **mask,
                         GError             **error)
{
  g_autoptr(GByteArray) pat = g_byte_array_new ();
  g_autoptr(GByteArray) msk = g_byte_array_new ();
  guint8 buf[4];
  gint64 v = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (text != NULL, FALSE);

  switch (kind)
    {
    case MSHED_HEX_SEARCH_HEX:
      ok = parse_hex_tokens (text, TRUE, pat, msk, error);
      break;
    case MSHED_HEX_SEARCH_TEXT:
      {
        g_autoptr(GBytes) enc = NULL;

        if (*text == '\0')
          {
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE, _("No text given"));
            return FALSE;
          }
        enc = mshed_utf8_to_cp1251 (text, error);
        if (enc == NULL)
          return FALSE;
        g_byte_array_append (pat, g_bytes_get_data (enc, NULL), (guint) g_bytes_get_size (enc));
        g_byte_array_set_size (msk, pat->len);
        memset (msk->data, 0xFF, msk->len);
      }
      break;
    case MSHED_HEX_SEARCH_U8:
    case MSHED_HEX_SEARCH_I8:
      ok = parse_integer (text, kind == MSHED_HEX_SEARCH_U8 ? 0 : G_MININT8,
                          kind == MSHED_HEX_SEARCH_U8 ? G_MAXUINT8 : G_MAXINT8, &v, error);
      buf[0] = (guint8) v;
      g_byte_array_append (pat, buf, 1);
      break;
    case MSHED_HEX_SEARCH_U16:
    case MSHED_HEX_SEARCH_I16:
      ok = parse_integer (text, kind == MSHED_HEX_SEARCH_U16 ? 0 : G_MININT16,
                          kind == MSHED_HEX_SEARCH_U16 ? G_MAXUINT16 : G_MAXINT16, &v, error);
      mshed_write_u16 (buf, (guint16) v);
      g_byte_array_append (pat, buf, 2);
      break;
    case MSHED_HEX_SEARCH_U32:
    case MSHED_HEX_SEARCH_I32:
      ok = parse_integer (text, kind == MSHED_HEX_SEARCH_U32 ? 0 : G_MININT32,
                          kind == MSHED_HEX_SEARCH_U32 ? G_MAXUINT32 : G_MAXINT32, &v, error);
      mshed_write_u32 (buf, (guint32) v);
      g_byte_array_append (pat, buf, 4);
      break;
    case MSHED_HEX_SEARCH_F32:
    default:
      {
        g_autofree char *s = g_strstrip (g_strdup (text));
        char *end = NULL;
        double d = g_ascii_strtod (s, &end);

        if (*s == '\0' || end == NULL || *end != '\0' || !isfinite ((float) d))
          {
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                         _("“%s” is not a finite 32-bit float (use a dot for decimals)"), text);
            return FALSE;
          }
        mshed_write_f32 (buf, (float) d);
        g_byte_array_append (pat, buf, 4);
      }
      break;
    }
  if (!ok)
    return FALSE;
  if (msk->len != pat->len)
    {
      g_byte_array_set_size (msk, pat->len);
      memset (msk->data, 0xFF, msk->len);
    }
  if (pattern)
    *pattern = g_steal_pointer (&pat);
  if (mask)
    *mask = g_steal_pointer (&msk);
  return TRUE;
}

char *
mshed_hex_format_bytes (const guint8       *data,
                        gsize               length,
                        MshedHexCopyFormat  format)
{
  GString *s = g_string_sized_new (length * 3 + 64);

  switch (format)
    {
    case MSHED_HEX_COPY_C_ARRAY:
      g_string_append_printf (s, "static const unsigned char data[%zu] = {",
                              length);
      for (gsize i = 0; i < length; i++)
        {
          if (i % 12 == 0)
            g_string_append (s, "\n  ");
          else
            g_string_append_c (s, ' ');
          g_string_append_printf (s, "0x%02X%s", data[i], i + 1 < length ? "," : "");
        }
      g_string_append (s, "\n};\n");
      break;
    case MSHED_HEX_COPY_TEXT:
      for (gsize i = 0; i < length; i++)
        g_string_append_c (s, data[i] >= 0x20 && data[i] < 0x7F ? (char) data[i] : '.');
      break;
    case MSHED_HEX_COPY_HEX:
    default:
      for (gsize i = 0; i < length; i++)
        g_string_append_printf (s, i ? " %02X" : "%02X", data[i]);
      break;
    }
  return g_string_free (s, FALSE);
}
