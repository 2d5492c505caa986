/* mshed-error.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MSHED_MODEL_ERROR (mshed_model_error_quark ())

typedef enum {
  MSHED_MODEL_ERROR_IO,          /* cannot read or write a file */
  MSHED_MODEL_ERROR_TRUNCATED,   /* shorter than a structure it must hold */
  MSHED_MODEL_ERROR_BAD_MAGIC,   /* not an NRes archive */
  MSHED_MODEL_ERROR_CONTAINER,   /* the NRes container is broken */
  MSHED_MODEL_ERROR_NOT_A_MODEL, /* an archive, but not a model */
  MSHED_MODEL_ERROR_INVALID,     /* fails strict validation */
  MSHED_MODEL_ERROR_NOT_FOUND,   /* no such entry, record or field */
  MSHED_MODEL_ERROR_ENCODING,    /* text cannot be encoded as Windows-1251 */
  MSHED_MODEL_ERROR_RANGE,       /* a value outside the range of its field */
  MSHED_MODEL_ERROR_UNSUPPORTED, /* RsLi, legacy node editing, ... */
} MshedModelError;

GQuark mshed_model_error_quark (void);

G_END_DECLS
