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

G_END_DECLS
