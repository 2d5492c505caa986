/* hand-nres.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * NRes archives read and laid out byte by byte (docs/nres.md §1, §2 and §3) for tests of the
 * writer, so that test inputs and expected outputs never come from the code under test.
 * Header-only.
 */
#pragma once

#include <glib.h>
#include <string.h>

typedef struct {
  guint32  type_id;
  guint32  attr1;
  guint32  attr2;
  guint32  attr3;
  guint8   name[36];
  guint32  sort_index;
  GBytes  *payload;
  guint32  offset;   /* where hand_nres_build put the payload */
} HandEntry;

/* One thing of the data region, in file order: a payload or an unreferenced block. */
typedef struct {
  gint    entry;  /* directory index of the payload to place here; -1: a block */
  guint32 size;   /* block: its length */
  guint8  byte;   /* block: every byte of it */
} HandItem;

#define HAND_PAYLOAD(i) { (i), 0, 0 }
#define HAND_BLOCK(size, byte) { -1, (size), (byte) }

static inline guint32
hand_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static inline void
hand_put_u32 (guint8  *p,
              guint32  v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
  p[2] = (guint8) (v >> 16);
  p[3] = (guint8) (v >> 24);
}

static inline void
hand_entry_clear (gpointer data)
{
  HandEntry *e = data;

  g_clear_pointer (&e->payload, g_bytes_unref);
}

static inline GArray *
hand_entries_new (void)
{
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (HandEntry));

  g_array_set_clear_func (entries, hand_entry_clear);
  return entries;
}

/* The entries of an archive, read from its header and directory; payloads are slices. */
static inline GArray *
hand_nres_read (GBytes *bytes)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  GArray *entries = hand_entries_new ();
  guint32 n, dir;

  g_assert_cmpuint (len, >=, 16);
  g_assert_cmpmem (data, 4, "NRes", 4);
  n = hand_u32 (data + 8);
  dir = hand_u32 (data + 12) - n * 64;
  for (guint32 i = 0; i < n; i++)
    {
      const guint8 *rec = data + dir + i * 64;
      HandEntry e = { 0 };

      e.type_id = hand_u32 (rec + 0);
      e.attr1 = hand_u32 (rec + 4);
      e.attr2 = hand_u32 (rec + 8);
      e.attr3 = hand_u32 (rec + 16);
      memcpy (e.name, rec + 20, 36);
      e.offset = hand_u32 (rec + 56);
      e.sort_index = hand_u32 (rec + 60);
      e.payload = g_bytes_new_from_bytes (bytes, e.offset, hand_u32 (rec + 12));
      g_array_append_val (entries, e);
    }
  return entries;
}

static inline gint
hand_find_type (GArray  *entries,
                guint32  type_id)
{
  for (guint i = 0; i < entries->len; i++)
    if (g_array_index (entries, HandEntry, i).type_id == type_id)
      return (gint) i;
  return -1;
}

static inline void
hand_set_payload (GArray  *entries,
                  guint    index,
                  GBytes  *payload)
{
  HandEntry *e = &g_array_index (entries, HandEntry, index);

  g_bytes_unref (e->payload);
  e->payload = g_bytes_ref (payload);
}

/* The header, then @items in file order, each payload and block at the next multiple of 8
 * (zero bytes in between), then the directory (at the next multiple of 8) in directory order.
 * Every entry must be placed by exactly one item. Sets each entry's offset. */
static inline GBytes *
hand_nres_build (GArray         *entries,
                 const HandItem *items,
                 guint           n_items)
{
  GByteArray *buf = g_byte_array_new ();
  guint8 zero[16] = { 0 };
  guint n = entries->len;

  g_byte_array_append (buf, zero, 16);
  for (guint k = 0; k < n_items; k++)
    {
      g_byte_array_append (buf, zero, (8 - buf->len % 8) % 8);
      if (items[k].entry >= 0)
        {
          HandEntry *e = &g_array_index (entries, HandEntry, items[k].entry);
          gsize size = 0;
          const guint8 *data = g_bytes_get_data (e->payload, &size);

          e->offset = buf->len;
          g_byte_array_append (buf, data, (guint) size);
        }
      else
        {
          guint old = buf->len;

          g_byte_array_set_size (buf, old + items[k].size);
          memset (buf->data + old, items[k].byte, items[k].size);
        }
    }
  g_byte_array_append (buf, zero, (8 - buf->len % 8) % 8);
  for (guint i = 0; i < n; i++)
    {
      const HandEntry *e = &g_array_index (entries, HandEntry, i);
      guint8 rec[64];

      hand_put_u32 (rec + 0, e->type_id);
      hand_put_u32 (rec + 4, e->attr1);
      hand_put_u32 (rec + 8, e->attr2);
      hand_put_u32 (rec + 12, (guint32) g_bytes_get_size (e->payload));
      hand_put_u32 (rec + 16, e->attr3);
      memcpy (rec + 20, e->name, 36);
      hand_put_u32 (rec + 56, e->offset);
      hand_put_u32 (rec + 60, e->sort_index);
      g_byte_array_append (buf, rec, 64);
    }
  memcpy (buf->data, "NRes", 4);
  hand_put_u32 (buf->data + 4, 0x100);
  hand_put_u32 (buf->data + 8, n);
  hand_put_u32 (buf->data + 12, buf->len);
  return g_byte_array_free_to_bytes (buf);
}

/* An entry with a payload of @size bytes, byte k = @seed + k. */
static inline void
hand_add_entry (GArray     *entries,
                guint32     type_id,
                const char *name,
                guint32     size,
                guint8      seed,
                guint32     sort_index)
{
  HandEntry e = { 0 };
  guint8 *data = g_malloc (size + 1);

  for (guint32 k = 0; k < size; k++)
    data[k] = (guint8) (seed + k);
  e.type_id = type_id;
  e.attr1 = size;
  strncpy ((char *) e.name, name, 35);
  e.sort_index = sort_index;
  e.payload = g_bytes_new_take (data, size);
  g_array_append_val (entries, e);
}

/* Payload of the Res10 name table @names with node 0 renamed to @name (docs/msh.md §4.10: u32
 * length, then length bytes and a NUL when the length is not 0). */
static inline GBytes *
hand_rename_node0 (GBytes     *names,
                   const char *name)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (names, &size);
  guint32 len0 = hand_u32 (data);
  gsize skip = 4 + (len0 ? len0 + 1 : 0);
  guint32 len = (guint32) strlen (name);
  GByteArray *out = g_byte_array_new ();
  guint8 word[4];

  g_assert_cmpuint (skip, <=, size);
  hand_put_u32 (word, len);
  g_byte_array_append (out, word, 4);
  g_byte_array_append (out, (const guint8 *) name, len + 1);
  g_byte_array_append (out, data + skip, (guint) (size - skip));
  return g_byte_array_free_to_bytes (out);
}
