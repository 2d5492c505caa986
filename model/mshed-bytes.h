/* mshed-bytes.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Little-endian readers and writers over byte pointers. Callers check bounds first;
 * these helpers never assume alignment (Batch20.indexStart sits at offset 10).
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

static inline guint16
mshed_read_u16 (const guint8 *p)
{
  return (guint16) (p[0] | ((guint16) p[1] << 8));
}

static inline gint16
mshed_read_i16 (const guint8 *p)
{
  return (gint16) mshed_read_u16 (p);
}

static inline guint32
mshed_read_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static inline gint32
mshed_read_i32 (const guint8 *p)
{
  return (gint32) mshed_read_u32 (p);
}

static inline float
mshed_read_f32 (const guint8 *p)
{
  guint32 u = mshed_read_u32 (p);
  float f;
  memcpy (&f, &u, sizeof f);
  return f;
}

static inline void
mshed_write_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) (v & 0xff);
  p[1] = (guint8) (v >> 8);
}

static inline void
mshed_write_u32 (guint8 *p, guint32 v)
{
  p[0] = (guint8) (v & 0xff);
  p[1] = (guint8) ((v >> 8) & 0xff);
  p[2] = (guint8) ((v >> 16) & 0xff);
  p[3] = (guint8) (v >> 24);
}

static inline void
mshed_write_f32 (guint8 *p, float f)
{
  guint32 u;
  memcpy (&u, &f, sizeof u);
  mshed_write_u32 (p, u);
}

/* TRUE when [offset, offset + length) lies inside a buffer of @size bytes, without overflow. */
static inline gboolean
mshed_range_ok (guint64 offset, guint64 length, guint64 size)
{
  return offset <= size && length <= size - offset;
}

G_END_DECLS
