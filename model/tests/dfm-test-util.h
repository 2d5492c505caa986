/* dfm-test-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Building UTF trees by hand for the DFM tests: directories, files of words, floats, shorts
 * and strings, and lookups that fail loudly; the generator cases the tests share; the fuzz
 * tests' random numbers.
 */
#pragma once

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-generator.h"
#include "mshed-utf.h"

/* the fuzz tests' generator (xorshift64) */
static inline guint64
t_rnd (guint64 *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* MSHED_FUZZ_ITERATIONS, or @fallback */
static inline guint
t_fuzz_iterations (guint fallback)
{
  const char *env = g_getenv ("MSHED_FUZZ_ITERATIONS");

  return env ? (guint) g_ascii_strtoull (env, NULL, 10) : fallback;
}

static inline MshedUtfNode *
t_dir (MshedUtf     *utf,
       MshedUtfNode *parent,
       const char   *name)
{
  MshedUtfNode *node = mshed_utf_node_new_directory (utf, name);

  g_assert_true (mshed_utf_insert_child (utf, parent, G_MAXUINT, node, NULL));
  return node;
}

static inline MshedUtfNode *
t_file (MshedUtf     *utf,
        MshedUtfNode *parent,
        const char   *name,
        const void   *data,
        gsize         len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  MshedUtfNode *node = mshed_utf_node_new_file (utf, name, bytes);

  g_assert_true (mshed_utf_insert_child (utf, parent, G_MAXUINT, node, NULL));
  return node;
}

static inline MshedUtfNode *
t_text (MshedUtf     *utf,
        MshedUtfNode *parent,
        const char   *name,
        const char   *value)
{
  return t_file (utf, parent, name, value, strlen (value) + 1);
}

static inline MshedUtfNode *
t_u32s (MshedUtf      *utf,
        MshedUtfNode  *parent,
        const char    *name,
        const guint32 *values,
        gsize          n)
{
  g_autofree guint8 *b = g_malloc (4 * n + 1);

  for (gsize i = 0; i < n; i++)
    mshed_write_u32 (b + 4 * i, values[i]);
  return t_file (utf, parent, name, b, 4 * n);
}

static inline MshedUtfNode *
t_u16s (MshedUtf      *utf,
        MshedUtfNode  *parent,
        const char    *name,
        const guint16 *values,
        gsize          n)
{
  g_autofree guint8 *b = g_malloc (2 * n + 1);

  for (gsize i = 0; i < n; i++)
    mshed_write_u16 (b + 2 * i, values[i]);
  return t_file (utf, parent, name, b, 2 * n);
}

static inline MshedUtfNode *
t_f32s (MshedUtf     *utf,
        MshedUtfNode *parent,
        const char   *name,
        const float  *values,
        gsize         n)
{
  g_autofree guint32 *bits = g_new (guint32, n + 1);

  memcpy (bits, values, n * sizeof (float));
  return t_u32s (utf, parent, name, bits, n);
}

static inline MshedUtfNode *
t_lookup (MshedUtf   *utf,
          const char *path)
{
  MshedUtfNode *node = mshed_utf_lookup (utf, path);

  if (node == NULL)
    g_error ("no node %s", path);
  return node;
}

/* replaces the payload of @path with @len bytes of @data */
static inline void
t_set (MshedUtf   *utf,
       const char *path,
       const void *data,
       gsize       len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);

  g_bytes_unref (mshed_utf_set_data (utf, t_lookup (utf, path), bytes));
}

/* a copy of the payload of @path, @extra zero bytes longer (negative: shorter) */
static inline GByteArray *
t_copy (MshedUtf   *utf,
        const char *path,
        gssize      extra)
{
  gsize size;
  const guint8 *data = mshed_utf_node_peek_data (t_lookup (utf, path), &size);
  GByteArray *a = g_byte_array_new ();

  g_byte_array_append (a, data, size);
  g_byte_array_set_size (a, (guint) ((gssize) size + extra));
  if (extra > 0)
    memset (a->data + size, 0, (gsize) extra);
  return a;
}

static inline void
t_remove (MshedUtf   *utf,
          const char *path)
{
  mshed_utf_node_free (mshed_utf_remove (utf, t_lookup (utf, path), NULL, NULL));
}

/* a generated model to test: kind, seed and the options that vary */
typedef struct {
  MshedDfmGenKind kind;
  guint64         seed;
  guint           n_levels;
  gboolean        uv1;
  gboolean        edges;
  gboolean        no_residue;
} Case;

static inline void
case_params (const Case        *c,
             MshedDfmGenParams *p)
{
  mshed_dfm_gen_params_init (p, c->kind, c->seed);
  p->n_levels = c->n_levels;
  p->uv1 = c->uv1;
  p->edges = c->edges;
  p->no_residue = c->no_residue;
  p->right = c->seed % 2 == 0;
}
