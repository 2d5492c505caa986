/* mshed-convert-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the two directions of the conversion (mshed-convert.c, mshed-convert-dfm.c).
 */
#pragma once

#include "mshed-convert.h"

G_BEGIN_DECLS

/* Appends a loss line when @count is not 0; @id and @what must outlive the report. */
void     mshed_convert_lose (MshedConvertReport *report,
                             const char         *id,
                             guint64             count,
                             const char         *what);
/* Sets @error to "WHERE: MESSAGE" (MSHED_MODEL_ERROR_UNSUPPORTED); returns FALSE. */
gboolean mshed_convert_fail (GError            **error,
                             const char         *where,
                             const char         *format,
                             ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS
