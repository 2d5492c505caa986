/* mshed-cp1251.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-cp1251"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "mshed-cp1251.h"
#include "mshed-error.h"

/* Code points of bytes 0x80..0xBF; 0 = no mapping (0x98). 0xC0..0xFF map to U+0410..U+044F. */
static const gunichar high[64] = {
  0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,
  0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
  0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
  0,      0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
  0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,
  0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
  0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,
  0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
};

static gunichar
decode_byte (guint8 b)
{
  if (b < 0x80)
    return (b < 0x20 || b == 0x7F) ? 0 : b;
  if (b >= 0xC0)
    return 0x0410 + (b - 0xC0);
  return high[b - 0x80];
}

/**
 * mshed_cp1251_to_utf8:
 *
 * Returns: (transfer full): the text for display
 */
char *
mshed_cp1251_to_utf8 (const guint8 *text,
                      gsize         len,
                      gboolean     *lossless)
{
  GString *out = g_string_sized_new (len * 2 + 1);
  gboolean ok = TRUE;

  for (gsize i = 0; i < len; i++)
    {
      gunichar c = decode_byte (text[i]);

      if (c == 0)
        {
          g_string_append_printf (out, "\\x%02X", text[i]);
          ok = FALSE;
        }
      else
        g_string_append_unichar (out, c);
    }
  if (lossless)
    *lossless = ok;
  return g_string_free (out, FALSE);
}

static gint
encode_char (gunichar c)
{
  if (c >= 0x20 && c < 0x7F)
    return (gint) c;
  if (c >= 0x0410 && c <= 0x044F)
    return (gint) (0xC0 + (c - 0x0410));
  for (guint i = 0; i < G_N_ELEMENTS (high); i++)
    if (high[i] != 0 && high[i] == c)
      return (gint) (0x80 + i);
  return -1;
}

/**
 * mshed_utf8_to_cp1251:
 *
 * Returns: (transfer full) (nullable): the Windows-1251 bytes
 */
GBytes *
mshed_utf8_to_cp1251 (const char *utf8,
                      GError    **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint pos = 0;

  if (!g_utf8_validate (utf8, -1, NULL))
    {
      g_set_error_literal (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING,
                           _("The text is not valid UTF-8"));
      return NULL;
    }
  for (const char *p = utf8; *p; p = g_utf8_next_char (p), pos++)
    {
      gunichar c = g_utf8_get_char (p);
      gint b = encode_char (c);
      guint8 byte;

      if (b < 0)
        {
          char buf[8] = { 0 };

          g_unichar_to_utf8 (c, buf);
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING,
                       _("Character %u (“%s”, U+%04X) has no Windows-1251 form"),
                       pos + 1, buf, c);
          return NULL;
        }
      byte = (guint8) b;
      g_byte_array_append (out, &byte, 1);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
