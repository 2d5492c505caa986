/* mshed-png.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-render"

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <zlib.h>

#include "mshed-png.h"
#include "mshed-renderer.h"

static void
put_u32be (GByteArray *out,
           guint32     v)
{
  guint8 b[4] = { (guint8) (v >> 24), (guint8) (v >> 16), (guint8) (v >> 8), (guint8) v };

  g_byte_array_append (out, b, 4);
}

static void
put_chunk (GByteArray   *out,
           const char   *type,
           const guint8 *data,
           gsize         len)
{
  uLong crc = crc32 (0L, Z_NULL, 0);

  put_u32be (out, (guint32) len);
  g_byte_array_append (out, (const guint8 *) type, 4);
  if (len)
    g_byte_array_append (out, data, (guint) len);
  crc = crc32 (crc, (const Bytef *) type, 4);
  if (len)
    crc = crc32 (crc, data, (uInt) len);
  put_u32be (out, (guint32) crc);
}

/**
 * mshed_png_encode:
 *
 * Returns: (transfer full) (nullable): the PNG file, or NULL when the image is empty or too
 *   large for one zlib call
 */
GBytes *
mshed_png_encode (const guint8 *rgba,
                  int           width,
                  int           height,
                  gsize         stride)
{
  static const guint8 signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  gsize row = 1 + 4 * (gsize) width;
  gsize raw_len;
  g_autofree guint8 *raw = NULL;
  g_autofree guint8 *z = NULL;
  uLongf z_len;
  guint8 ihdr[13];
  GByteArray *out;

  if (width <= 0 || height <= 0 || width > 1 << 15 || height > 1 << 15 ||
      stride < 4 * (gsize) width)
    return NULL;
  raw_len = row * (gsize) height;
  raw = g_malloc (raw_len);
  for (int y = 0; y < height; y++)
    {
      const guint8 *src = rgba + stride * (gsize) y;
      guint8 *dst = raw + row * (gsize) y;

      dst[0] = 1;  /* Sub: each byte minus the same channel of the pixel to its left */
      for (gsize i = 0; i < 4 * (gsize) width; i++)
        dst[1 + i] = (guint8) (src[i] - (i >= 4 ? src[i - 4] : 0));
    }
  z_len = compressBound ((uLong) raw_len);
  z = g_malloc (z_len);
  if (compress2 (z, &z_len, raw, (uLong) raw_len, 6) != Z_OK)
    return NULL;

  ihdr[0] = (guint8) (width >> 24);
  ihdr[1] = (guint8) (width >> 16);
  ihdr[2] = (guint8) (width >> 8);
  ihdr[3] = (guint8) width;
  ihdr[4] = (guint8) (height >> 24);
  ihdr[5] = (guint8) (height >> 16);
  ihdr[6] = (guint8) (height >> 8);
  ihdr[7] = (guint8) height;
  ihdr[8] = 8;   /* bit depth */
  ihdr[9] = 6;   /* RGBA */
  ihdr[10] = 0;  /* deflate */
  ihdr[11] = 0;  /* adaptive filtering (per-row filter byte) */
  ihdr[12] = 0;  /* no interlace */

  out = g_byte_array_sized_new ((guint) (z_len + 64));
  g_byte_array_append (out, signature, sizeof signature);
  put_chunk (out, "IHDR", ihdr, sizeof ihdr);
  put_chunk (out, "IDAT", z, z_len);
  put_chunk (out, "IEND", NULL, 0);
  return g_byte_array_free_to_bytes (out);
}

gboolean
mshed_png_write (const char    *path,
                 const guint8  *rgba,
                 int            width,
                 int            height,
                 gsize          stride,
                 GError       **error)
{
  g_autoptr(GBytes) png = mshed_png_encode (rgba, width, height, stride);
  g_autoptr(GError) local = NULL;
  gsize len;
  const char *data;

  if (png == NULL)
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_IO,
                   _("Cannot encode a %d×%d image as PNG"), width, height);
      return FALSE;
    }
  data = g_bytes_get_data (png, &len);
  if (!g_file_set_contents (path, data, (gssize) len, &local))
    {
      g_set_error (error, MSHED_RENDER_ERROR, MSHED_RENDER_ERROR_IO,
                   _("Cannot write “%s”: %s"), path, local->message);
      return FALSE;
    }
  return TRUE;
}
