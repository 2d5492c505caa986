/* mshed-json.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The few JSON writing helpers model/ needs (it has no json-glib): strings and numbers
 * appended to a GString.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends @text (UTF-8) as a JSON string: the quote, the backslash and the control
 * characters escaped (\b, \f, \n, \r, \t or \u00xx, DEL as \u007f); other bytes as they are. */
void mshed_json_append_string (GString    *out,
                               const char *text);
/* Appends a float exactly (its value as a double, in the C locale whatever the user's); a NaN
 * or an infinity, which JSON cannot hold, as 0. */
void mshed_json_append_float  (GString    *out,
                               float       value);

/* Objects in json-glib's pretty layout (the format of `mshed-cli validate --json`): two
 * spaces per level, a member per line, " : " between name and value. */
typedef struct {
  GString  *s;
  guint     depth;   /* of the members */
  gboolean  first;
} MshedJsonWriter;

void mshed_json_indent        (GString         *s,
                               guint            depth);
/* Opens an object whose brace is at @depth; the caller has written the indentation. */
void mshed_json_begin         (MshedJsonWriter *w,
                               GString         *s,
                               guint            depth);
void mshed_json_end           (MshedJsonWriter *w);
void mshed_json_member        (MshedJsonWriter *w,
                               const char      *name);
/* @value: NULL writes null */
void mshed_json_string        (MshedJsonWriter *w,
                               const char      *name,
                               const char      *value);
/* @present: FALSE writes null */
void mshed_json_int           (MshedJsonWriter *w,
                               const char      *name,
                               gint64           value,
                               gboolean         present);
void mshed_json_bool          (MshedJsonWriter *w,
                               const char      *name,
                               gboolean         value);
/* Opens an object as the next element of an array at depth 1 of the document. */
void mshed_json_begin_element (MshedJsonWriter *w,
                               GString         *array);
/* Writes a member of the document (depth 1) that is an array of @elements. */
void mshed_json_array         (MshedJsonWriter *w,
                               const char      *name,
                               const GString   *elements);

G_END_DECLS
