/* mshed-json.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "mshed-json.h"

void
mshed_json_append_string (GString    *out,
                          const char *text)
{
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) text; *p; p++)
    switch (*p)
      {
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\b': g_string_append (out, "\\b"); break;
      case '\f': g_string_append (out, "\\f"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      default:
        if (*p < 0x20 || *p == 0x7F)
          g_string_append_printf (out, "\\u%04x", *p);
        else
          g_string_append_c (out, (char) *p);
      }
  g_string_append_c (out, '"');
}

void
mshed_json_append_float (GString *out,
                         float    value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    value = 0.0f;
  /* the float widened to double, exactly: readers that compare with the double (the glTF
   * validator's accessor bounds) see the very value the binary data holds */
  g_ascii_dtostr (buf, sizeof buf, (double) value);
  g_string_append (out, buf);
}

/* Objects in json-glib's pretty layout (the format `mshed-cli validate --json` has always had):
 * two spaces per level, a member per line, " : " between name and value. */

void
mshed_json_indent (GString *s,
                   guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append (s, "  ");
}

void
mshed_json_begin (MshedJsonWriter *w,
                  GString         *s,
                  guint            depth)
{
  w->s = s;
  w->depth = depth + 1;
  w->first = TRUE;
  g_string_append_c (s, '{');
}

void
mshed_json_end (MshedJsonWriter *w)
{
  g_string_append_c (w->s, '\n');
  mshed_json_indent (w->s, w->depth - 1);
  g_string_append_c (w->s, '}');
}

void
mshed_json_member (MshedJsonWriter *w,
                   const char      *name)
{
  g_string_append (w->s, w->first ? "\n" : ",\n");
  w->first = FALSE;
  mshed_json_indent (w->s, w->depth);
  mshed_json_append_string (w->s, name);
  g_string_append (w->s, " : ");
}

void
mshed_json_string (MshedJsonWriter *w,
                   const char      *name,
                   const char      *value)
{
  mshed_json_member (w, name);
  if (value)
    mshed_json_append_string (w->s, value);
  else
    g_string_append (w->s, "null");
}

void
mshed_json_int (MshedJsonWriter *w,
                const char      *name,
                gint64           value,
                gboolean         present)
{
  mshed_json_member (w, name);
  if (present)
    g_string_append_printf (w->s, "%" G_GINT64_FORMAT, value);
  else
    g_string_append (w->s, "null");
}

void
mshed_json_bool (MshedJsonWriter *w,
                 const char      *name,
                 gboolean         value)
{
  mshed_json_member (w, name);
  g_string_append (w->s, value ? "true" : "false");
}

void
mshed_json_begin_element (MshedJsonWriter *w,
                          GString         *array)
{
  if (array->len)
    g_string_append (array, ",\n");
  mshed_json_indent (array, 2);
  mshed_json_begin (w, array, 2);
}

void
mshed_json_array (MshedJsonWriter *w,
                  const char      *name,
                  const GString   *elements)
{
  mshed_json_member (w, name);
  g_string_append_c (w->s, '[');
  if (elements->len)
    {
      g_string_append_c (w->s, '\n');
      g_string_append_len (w->s, elements->str, (gssize) elements->len);
      g_string_append_c (w->s, '\n');
      mshed_json_indent (w->s, 1);
    }
  g_string_append_c (w->s, ']');
}
