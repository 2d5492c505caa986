/* mshed-utf-generator.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The file layout here (mshed_utf_layout) is written independently of mshed-utf-write.c and
 * only through the public tree API, so that the reader and the writer are tested against a
 * second implementation of docs/utf.md §1–§5 and §8.
 */
#define G_LOG_DOMAIN "mshed-utf"

#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-random.h"
#include "mshed-utf-generator.h"

/* splitmix64 ------------------------------------------------------------------------------ */

typedef struct {
  guint64 x;
} Rng;

static guint64
rng_next (Rng *r)
{
  return mshed_splitmix64 (&r->x);
}

static guint
rng_below (Rng  *r,
           guint n)
{
  return n ? (guint) (rng_next (r) % n) : 0;
}

static guint8
rng_junk (Rng *r)
{
  return (guint8) (1 + rng_below (r, 255));   /* never zero: "non-zero padding" for sure */
}

static void
fill_junk (Rng    *r,
           guint8 *p,
           gsize   n)
{
  for (gsize i = 0; i < n; i++)
    p[i] = rng_junk (r);
}

#define ALIGN4(x) (((x) + 3) & ~(guint64) 3)

/* Generic trees ----------------------------------------------------------------------------- */

static const char *const words[] = {
  "Root", "Level", "Mesh", "Group", "Points", "Material library", "Texture library",
  "Hardpoints", "Fixed", "Position", "Orientation", "Skeleton", "Cmpnd", "Cons", "Part",
  "VMeshLibrary", "MIPS", "Alpha", "Scale", "Object name", "Fractions", "Lod Bits",
};

/* a name no sibling has (ignoring case); now and then a word in another case */
static char *
pick_name (Rng          *r,
           MshedUtfNode *dir)
{
  g_autofree char *base = g_strdup (words[rng_below (r, G_N_ELEMENTS (words))]);

  if (rng_below (r, 6) == 0)
    for (char *p = base; *p; p++)
      if (rng_below (r, 2))
        *p = g_ascii_isupper (*p) ? g_ascii_tolower (*p) : g_ascii_toupper (*p);
  for (guint k = 0;; k++)
    {
      char *name = k ? g_strdup_printf ("%s%u", base, k) : g_strdup (base);

      if (mshed_utf_check_child_name (dir, name, NULL, NULL))
        return name;
      g_free (name);
    }
}

static GBytes *
pick_payload (Rng       *r,
              guint      max_payload,
              GPtrArray *earlier,
              const char *name)
{
  guint kind = rng_below (r, 12);
  GBytes *bytes;

  if (mshed_utf_is_string_leaf_name (name) || kind == 0)
    {
      g_autofree char *s = g_strdup_printf ("value %u", rng_below (r, 100000));

      bytes = g_bytes_new (s, strlen (s) + 1);
    }
  else if (kind == 1 && earlier->len)
    bytes = g_bytes_ref (g_ptr_array_index (earlier, rng_below (r, earlier->len)));
  else if (kind == 2)
    bytes = g_bytes_new (NULL, 0);
  else
    {
      gsize len = 1 + rng_below (r, max_payload);
      guint8 *p = g_malloc (len);

      for (gsize i = 0; i < len; i++)
        p[i] = (guint8) rng_next (r);
      bytes = g_bytes_new_take (p, len);
    }
  g_ptr_array_add (earlier, g_bytes_ref (bytes));
  return bytes;
}

static guint32
pick_time (Rng      *r,
           gboolean  odd,
           guint32   fixed)
{
  if (!odd)
    return fixed;
  return rng_below (r, 3) == 0 ? MSHED_UTF_LIBRELANCER_TIME : (guint32) rng_next (r);
}

/**
 * mshed_utf_generate_tree:
 *
 * Returns: (transfer full): a new tree (no source) of directories and files with names from
 *   DFM-like words, payloads of random bytes, strings and repeats, and no empty directory
 */
MshedUtf *
mshed_utf_generate_tree (const MshedUtfGenParams *params)
{
  Rng r = { params->seed ^ G_GUINT64_CONSTANT (0x55544620) };
  MshedUtf *utf = mshed_utf_new ();
  g_autoptr(GPtrArray) dirs = g_ptr_array_new ();
  g_autoptr(GArray) depth = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) earlier = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint n = params->n_nodes ? MIN (params->n_nodes, MSHED_UTF_GEN_MAX_NODES)
                            : 8 + rng_below (&r, 193);
  guint max_depth = params->max_depth ? CLAMP (params->max_depth, 1, 64) : 6;
  guint max_payload = params->max_payload ? params->max_payload : 64;
  guint32 fixed = (guint32) ((20u + rng_below (&r, 30)) << 25 | (1u + rng_below (&r, 12)) << 21
                             | (1u + rng_below (&r, 28)) << 16 | rng_below (&r, 24) << 11
                             | rng_below (&r, 60) << 5 | rng_below (&r, 30));
  MshedUtfNode *root = mshed_utf_get_root (utf);
  guint zero = 0;

  mshed_utf_set_filetime (utf, MSHED_UTF_LIBRELANCER_FILETIME + rng_next (&r) % 1000000000000u);
  for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
    mshed_utf_set_time (utf, root, t, pick_time (&r, params->odd_times, fixed));
  g_ptr_array_add (dirs, root);
  g_array_append_val (depth, zero);

  for (guint i = 1; i < n; i++)
    {
      guint pick = rng_below (&r, dirs->len);
      MshedUtfNode *dir = g_ptr_array_index (dirs, pick);
      guint d = g_array_index (depth, guint, pick);
      g_autofree char *name = pick_name (&r, dir);
      MshedUtfNode *node;

      mshed_utf_set_new_entry_time (utf, pick_time (&r, params->odd_times, fixed));
      if (d < max_depth && rng_below (&r, 10) < 3)
        {
          node = mshed_utf_node_new_directory (utf, name);
          g_ptr_array_add (dirs, node);
          d++;
          g_array_append_val (depth, d);
        }
      else
        {
          g_autoptr(GBytes) data = pick_payload (&r, max_payload, earlier, name);

          node = mshed_utf_node_new_file (utf, name, data);
        }
      mshed_utf_insert_child (utf, dir, G_MAXUINT, node, NULL);
    }

  /* docs/utf.md §3.3: avoid empty directories */
  for (guint i = 0; i < dirs->len; i++)
    {
      MshedUtfNode *dir = g_ptr_array_index (dirs, i);

      if (mshed_utf_node_get_first_child (dir) == NULL)
        {
          g_autofree char *name = pick_name (&r, dir);
          g_autoptr(GBytes) data = pick_payload (&r, max_payload, earlier, name);

          mshed_utf_insert_child (utf, dir, G_MAXUINT,
                                  mshed_utf_node_new_file (utf, name, data), NULL);
        }
    }
  return utf;
}

/* Laying a tree out --------------------------------------------------------------------- */

typedef struct {
  guint32 start;
  guint32 alloc;
} Place;

typedef enum { REG_TREE, REG_NAMES, REG_DATA } Reg;

/**
 * mshed_utf_layout:
 * @layout: 0 for the canonical layout of docs/utf.md §8, else the non-canonical choices to make
 * @seed: drives the shuffles and the junk bytes
 *
 * Returns: (transfer full): the file
 */
GBytes *
mshed_utf_layout (MshedUtf          *tree,
                  MshedUtfGenLayout  layout,
                  guint64            seed)
{
  Rng r = { seed ^ G_GUINT64_CONSTANT (0x4C41594F5554) };
  MshedUtfNode *root = mshed_utf_get_root (tree);
  g_autoptr(GPtrArray) nodes = g_ptr_array_new ();
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) dedup = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) shared = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GByteArray) names = g_byte_array_new ();
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree guint32 *slot = NULL;
  g_autofree guint32 *name_at = NULL;
  g_autofree Place *place = NULL;
  guint n, junk_entries = 0, tree_tail = 0, total_slots;
  guint32 names_used, names_alloc, region_at[3], region_len[3];
  Reg order[3] = { REG_TREE, REG_NAMES, REG_DATA };
  const guint8 *region_bytes[3];
  g_autofree guint8 *tree_block = NULL;
  guint8 header[MSHED_UTF_HEADER_SIZE] = { 0 };

  for (MshedUtfNode *nd = root; nd; nd = mshed_utf_node_next_preorder (nd, root))
    {
      g_hash_table_insert (index, nd, GUINT_TO_POINTER (nodes->len));
      g_ptr_array_add (nodes, nd);
    }
  n = nodes->len;
  slot = g_new0 (guint32, n);
  name_at = g_new0 (guint32, n);
  place = g_new0 (Place, n);

  /* tree slots: pre-order, or the root first and the rest shuffled among the slots */
  if (layout & MSHED_UTF_GEN_TREE_SLACK)
    {
      junk_entries = 1 + rng_below (&r, 3);
      tree_tail = 1 + rng_below (&r, 43);
    }
  total_slots = n + junk_entries;
  {
    g_autofree guint32 *perm = g_new (guint32, total_slots);

    for (guint i = 0; i < total_slots; i++)
      perm[i] = i;
    if (layout & (MSHED_UTF_GEN_SHUFFLE_ENTRIES | MSHED_UTF_GEN_TREE_SLACK))
      for (guint i = total_slots - 1; i > 1; i--)
        {
          guint j = 1 + rng_below (&r, i);
          guint32 t = perm[i];

          if (!(layout & MSHED_UTF_GEN_SHUFFLE_ENTRIES) && (i < n || j < n))
            continue;   /* unshuffled: the junk entries stay after the real ones */
          perm[i] = perm[j];
          perm[j] = t;
        }
    for (guint i = 0; i < n; i++)
      slot[i] = perm[i] * MSHED_UTF_ENTRY_SIZE;
  }

  /* dictionary */
  if (layout & MSHED_UTF_GEN_LEADING_EMPTY)
    g_byte_array_append (names, (const guint8 *) "", 1);
  for (guint i = 0; i < n; i++)
    {
      const char *name = mshed_utf_node_get_name (g_ptr_array_index (nodes, i));
      gpointer found;

      if (!(layout & MSHED_UTF_GEN_NO_DEDUP)
          && g_hash_table_lookup_extended (dedup, name, NULL, &found))
        {
          name_at[i] = GPOINTER_TO_UINT (found);
          continue;
        }
      name_at[i] = names->len;
      g_hash_table_insert (dedup, (gpointer) name, GUINT_TO_POINTER (names->len));
      g_byte_array_append (names, (const guint8 *) name, strlen (name) + 1);
    }
  names_used = names->len;
  if (layout & MSHED_UTF_GEN_NAMES_SLACK)
    {
      names_alloc = names_used + 3 + rng_below (&r, 16);
      g_byte_array_set_size (names, names_alloc);
      fill_junk (&r, names->data + names_used, names_alloc - names_used);
    }
  else
    {
      names_alloc = (guint32) ALIGN4 (names_used);
      g_byte_array_set_size (names, names_alloc);
      memset (names->data + names_used, 0, names_alloc - names_used);
    }

  /* data block */
  for (guint k = 0; k < n; k++)
    {
      guint i = (layout & MSHED_UTF_GEN_REVERSE_DATA) ? n - 1 - k : k;
      MshedUtfNode *nd = g_ptr_array_index (nodes, i);
      GBytes *bytes = mshed_utf_node_get_data (nd);
      gsize len;
      guint32 alloc;
      Place *same;

      if (mshed_utf_node_is_directory (nd))
        continue;
      len = g_bytes_get_size (bytes);
      if ((layout & MSHED_UTF_GEN_SHARE_PAYLOADS) && len > 0
          && (same = g_hash_table_lookup (shared, bytes)) != NULL)
        {
          place[i] = *same;
          continue;
        }
      if ((layout & MSHED_UTF_GEN_GAPS) && rng_below (&r, 4) == 0)
        {
          guint gap = 1 + rng_below (&r, 8);
          guint at = data->len;

          g_byte_array_set_size (data, at + gap);
          fill_junk (&r, data->data + at, gap);
        }
      alloc = (layout & MSHED_UTF_GEN_EXACT_ALLOC) ? (guint32) len : (guint32) ALIGN4 (len);
      place[i].start = data->len;
      place[i].alloc = alloc;
      g_byte_array_append (data, g_bytes_get_data (bytes, NULL), (guint) len);
      g_byte_array_set_size (data, place[i].start + alloc);
      if (alloc > len && (layout & MSHED_UTF_GEN_PAD_JUNK))
        fill_junk (&r, data->data + place[i].start + len, alloc - len);
      else if (alloc > len)
        memset (data->data + place[i].start + len, 0, alloc - len);
      if (len > 0)
        g_hash_table_insert (shared, bytes, &place[i]);
    }

  /* tree block */
  tree_block = g_malloc0 ((gsize) total_slots * MSHED_UTF_ENTRY_SIZE + tree_tail);
  fill_junk (&r, tree_block, (gsize) total_slots * MSHED_UTF_ENTRY_SIZE + tree_tail);
  for (guint i = 0; i < n; i++)
    {
      MshedUtfNode *nd = g_ptr_array_index (nodes, i);
      MshedUtfNode *next = mshed_utf_node_get_next (nd);
      MshedUtfNode *child = mshed_utf_node_get_first_child (nd);
      guint8 *e = tree_block + slot[i];
      gboolean dir = mshed_utf_node_is_directory (nd);
      guint32 used = dir ? 0 : (guint32) g_bytes_get_size (mshed_utf_node_get_data (nd));
      guint32 next_at = next ? slot[GPOINTER_TO_UINT (g_hash_table_lookup (index, next))] : 0;

      if (nd == root)
        next_at = (layout & MSHED_UTF_GEN_HEADER_EXTRA) ? 44 * (1 + rng_below (&r, 9)) : 0;
      mshed_write_u32 (e + 0, next_at);
      mshed_write_u32 (e + 4, name_at[i]);
      mshed_write_u32 (e + 8, mshed_utf_node_get_attributes (nd));
      mshed_write_u32 (e + 12, 0);
      mshed_write_u32 (e + 16, dir ? (child ? slot[GPOINTER_TO_UINT (g_hash_table_lookup (index,
                                                                                      child))]
                                            : 0)
                                   : place[i].start);
      mshed_write_u32 (e + 20, dir ? 0 : place[i].alloc);
      mshed_write_u32 (e + 24, used);
      mshed_write_u32 (e + 28, used);
      for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
        mshed_write_u32 (e + 32 + 4 * t, mshed_utf_node_get_time (nd, t));
    }

  /* §1: the regions in the chosen order, with junk between them on request */
  if ((layout & MSHED_UTF_GEN_NAMES_FIRST) && (layout & MSHED_UTF_GEN_DATA_FIRST))
    order[0] = REG_DATA, order[1] = REG_NAMES, order[2] = REG_TREE;
  else if (layout & MSHED_UTF_GEN_NAMES_FIRST)
    order[0] = REG_NAMES, order[1] = REG_TREE, order[2] = REG_DATA;
  else if (layout & MSHED_UTF_GEN_DATA_FIRST)
    order[0] = REG_TREE, order[1] = REG_DATA, order[2] = REG_NAMES;
  region_bytes[REG_TREE] = tree_block;
  region_len[REG_TREE] = total_slots * MSHED_UTF_ENTRY_SIZE + tree_tail;
  region_bytes[REG_NAMES] = names->data;
  region_len[REG_NAMES] = names->len;
  region_bytes[REG_DATA] = data->data;
  region_len[REG_DATA] = data->len;
  g_byte_array_append (out, header, sizeof header);
  for (guint k = 0; k < 3; k++)
    {
      if (layout & MSHED_UTF_GEN_GAPS)
        {
          guint gap = 1 + rng_below (&r, 7), at = out->len;

          g_byte_array_set_size (out, at + gap);
          fill_junk (&r, out->data + at, gap);
        }
      region_at[order[k]] = out->len;
      g_byte_array_append (out, region_bytes[order[k]], region_len[order[k]]);
    }
  if (layout & MSHED_UTF_GEN_GAPS)
    {
      guint gap = 1 + rng_below (&r, 7), at = out->len;

      g_byte_array_set_size (out, at + gap);
      fill_junk (&r, out->data + at, gap);
    }

  memcpy (out->data, "UTF ", 4);
  mshed_write_u32 (out->data + 4, MSHED_UTF_VERSION);
  mshed_write_u32 (out->data + 8, region_at[REG_TREE]);
  mshed_write_u32 (out->data + 12, region_len[REG_TREE]);
  mshed_write_u32 (out->data + 20, MSHED_UTF_ENTRY_SIZE);
  mshed_write_u32 (out->data + 24, region_at[REG_NAMES]);
  mshed_write_u32 (out->data + 28, names_alloc);
  mshed_write_u32 (out->data + 32, names_used);
  mshed_write_u32 (out->data + 36, region_at[REG_DATA]);
  if (layout & MSHED_UTF_GEN_HEADER_EXTRA)
    {
      mshed_write_u32 (out->data + 16, 1 + rng_below (&r, 1000));
      mshed_write_u32 (out->data + 40, region_at[REG_DATA]);
      mshed_write_u32 (out->data + 44, MIN (region_len[REG_DATA], 16u));
    }
  mshed_write_u32 (out->data + 48, (guint32) (mshed_utf_get_filetime (tree) & 0xFFFFFFFFu));
  mshed_write_u32 (out->data + 52, (guint32) (mshed_utf_get_filetime (tree) >> 32));
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/**
 * mshed_utf_generate:
 *
 * Returns: (transfer full): mshed_utf_generate_tree laid out by mshed_utf_layout
 */
GBytes *
mshed_utf_generate (const MshedUtfGenParams *params)
{
  g_autoptr(MshedUtf) tree = mshed_utf_generate_tree (params);

  return mshed_utf_layout (tree, params->layout, params->seed);
}

/* DFM skeleton ---------------------------------------------------------------------------- */

typedef struct {
  MshedUtf *utf;
  Rng       r;
} Dfm;

static MshedUtfNode *
add_dir (Dfm          *g,
         MshedUtfNode *parent,
         const char   *name)
{
  MshedUtfNode *node = mshed_utf_node_new_directory (g->utf, name);

  mshed_utf_insert_child (g->utf, parent, G_MAXUINT, node, NULL);
  return node;
}

/* adds a file and takes @buf */
static void
add_file (Dfm          *g,
          MshedUtfNode *parent,
          const char   *name,
          GByteArray   *buf)
{
  g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (buf);

  mshed_utf_insert_child (g->utf, parent, G_MAXUINT,
                          mshed_utf_node_new_file (g->utf, name, bytes), NULL);
}

static void
push_u32 (GByteArray *b,
          guint32     v)
{
  guint8 p[4];

  mshed_write_u32 (p, v);
  g_byte_array_append (b, p, 4);
}

static void
push_f32 (GByteArray *b,
          float       v)
{
  guint8 p[4];

  mshed_write_f32 (p, v);
  g_byte_array_append (b, p, 4);
}

static void
add_string (Dfm          *g,
            MshedUtfNode *parent,
            const char   *name,
            const char   *text)
{
  GByteArray *b = g_byte_array_new ();

  g_byte_array_append (b, (const guint8 *) text, strlen (text) + 1);
  add_file (g, parent, name, b);
}

static void
add_u32 (Dfm          *g,
         MshedUtfNode *parent,
         const char   *name,
         guint32       v)
{
  GByteArray *b = g_byte_array_new ();

  push_u32 (b, v);
  add_file (g, parent, name, b);
}

static void
add_f32 (Dfm          *g,
         MshedUtfNode *parent,
         const char   *name,
         float         v)
{
  guint32 bits;

  memcpy (&bits, &v, sizeof bits);
  add_u32 (g, parent, name, bits);
}

/* @count u32 values below @bound (bound 0: the index itself) */
static void
add_u32s (Dfm          *g,
          MshedUtfNode *parent,
          const char   *name,
          guint         count,
          guint         bound)
{
  GByteArray *b = g_byte_array_sized_new (count * 4);

  for (guint i = 0; i < count; i++)
    push_u32 (b, bound ? rng_below (&g->r, bound) : i);
  add_file (g, parent, name, b);
}

/* @count floats in [-1, 1) (or all @fixed when it is not 0) */
static void
add_f32s (Dfm          *g,
          MshedUtfNode *parent,
          const char   *name,
          guint         count,
          float         fixed)
{
  GByteArray *b = g_byte_array_sized_new (count * 4);

  for (guint i = 0; i < count; i++)
    push_f32 (b, fixed != 0.0f ? fixed : (float) rng_below (&g->r, 512) / 256.0f - 1.0f);
  add_file (g, parent, name, b);
}

static void
add_transform (Dfm          *g,
               MshedUtfNode *parent,
               const char   *name,
               float         y)
{
  static const float identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  GByteArray *b = g_byte_array_new ();

  for (guint i = 0; i < 9; i++)
    push_f32 (b, identity[i]);
  push_f32 (b, 0.0f);
  push_f32 (b, y);
  push_f32 (b, 0.0f);
  add_file (g, parent, name, b);
}

static void
add_hardpoint (Dfm          *g,
               MshedUtfNode *bone,
               const char   *hp)
{
  MshedUtfNode *fixed = add_dir (g, add_dir (g, bone, "Hardpoints"), "Fixed");
  MshedUtfNode *dir = add_dir (g, fixed, hp);
  GByteArray *orientation = g_byte_array_new ();

  add_f32s (g, dir, "Position", 3, 0.0f);
  for (guint i = 0; i < 9; i++)
    push_f32 (orientation, i % 4 == 0 ? 1.0f : 0.0f);
  add_file (g, dir, "Orientation", orientation);
}

/* one mesh level with its face groups and geometry (DFM reference dfm.md, section 6) */
static void
add_mesh (Dfm                     *g,
          MshedUtfNode            *multi,
          guint                    level,
          guint                    points,
          const MshedUtfDfmParams *p,
          guint                    n_groups,
          guint                    n_materials,
          guint                    n_bones)
{
  g_autofree char *mesh_name = g_strdup_printf ("Mesh%u", level);
  MshedUtfNode *mesh = add_dir (g, multi, mesh_name);
  MshedUtfNode *groups = add_dir (g, mesh, "Face_groups");
  MshedUtfNode *geo;
  guint elements = points + points / 4, strip = MAX (3, elements / n_groups);

  add_u32 (g, groups, "Count", n_groups);
  for (guint k = 0; k < n_groups; k++)
    {
      g_autofree char *group_name = g_strdup_printf ("Group%u", k);
      g_autofree char *material = g_strdup_printf ("skin_%02u", k % n_materials);
      MshedUtfNode *group = add_dir (g, groups, group_name);
      GByteArray *b = g_byte_array_sized_new (strip * 2);

      add_string (g, group, "Material_name", material);
      for (guint i = 0; i < strip; i++)
        {
          guint8 w[2];

          mshed_write_u16 (w, (guint16) ((k * strip + i) % MIN (elements, 65535u)));
          g_byte_array_append (b, w, 2);
        }
      add_file (g, group, "Tristrip_indices", b);
    }

  geo = add_dir (g, mesh, "Geometry");
  add_u32s (g, geo, "Point_indices", elements, points);
  add_u32s (g, geo, "UV0_indices", elements, 0);
  if (p->uv1)
    add_u32s (g, geo, "UV1_indices", elements, 0);
  add_f32s (g, geo, "Points", 3 * points, 0.0f);
  /* one influence per point, weight 1 (dfm.md, section 6.2) */
  add_u32s (g, geo, "Point_bone_first", points, 0);
  {
    GByteArray *count = g_byte_array_sized_new (points * 4);

    for (guint i = 0; i < points; i++)
      push_u32 (count, 1);
    add_file (g, geo, "Point_bone_count", count);
  }
  add_u32s (g, geo, "Bone_id_chain", points, n_bones);
  add_f32s (g, geo, "Bone_weight_chain", points, 1.0f);
  add_f32s (g, geo, "Vertex_normals", 3 * points, 0.0f);
  add_f32s (g, geo, "UV0", 2 * elements, 0.0f);
  if (p->uv1)
    add_f32s (g, geo, "UV1", 2 * elements, 0.0f);
  if (p->head && level == 0)
    {
      guint k = MAX (1u, elements / 16);

      add_u32 (g, geo, "UV_bone_id", rng_below (&g->r, n_bones));
      add_u32 (g, geo, "UV_vertex_count", k);
      add_f32 (g, geo, "UV_plane_distance", 1.0f);
      add_f32 (g, geo, "Bone_X_to_U_scale", 0.4f);
      add_f32 (g, geo, "Bone_Y_to_V_scale", -0.4f);
      add_f32 (g, geo, "Min_du", -0.2f);
      add_f32 (g, geo, "Max_du", 0.2f);
      add_f32 (g, geo, "Min_dv", -0.1035f);
      add_f32 (g, geo, "Max_dv", 0.1035f);
      add_u32s (g, geo, "UV_vertex_id", k, elements);
      add_f32s (g, geo, "UV_default_list", 2 * k, 0.0f);
    }
}

/* a Sphere (212 bytes) or Loose (176 bytes) record (dfm.md, section 9.1); some names carry
 * residue of an earlier name after their NUL, as all retail records do */
static void
push_constraint (Dfm        *g,
                 GByteArray *b,
                 const char *parent,
                 const char *child,
                 gboolean    sphere)
{
  guint8 name[64];
  const char *pair[2] = { parent, child };

  for (guint k = 0; k < 2; k++)
    {
      memset (name, 0, sizeof name);
      memcpy (name, pair[k], MIN (strlen (pair[k]), 63));
      if (rng_below (&g->r, 2) && strlen (pair[k]) + 5 <= sizeof name)
        memcpy (name + strlen (pair[k]) + 1, "dy01", 4);   /* an earlier, longer name */
      g_byte_array_append (b, name, sizeof name);
    }
  for (guint i = 0; i < (sphere ? 21u : 12u); i++)
    push_f32 (b, i % 4 == 0 ? 1.0f : 0.0f);
}

/**
 * mshed_utf_generate_dfm:
 *
 * The node skeleton of a deformable model in the retail order (dfm.md, section 2): Exporter
 * Version, MultiLevel (Fractions, Mesh0..), Material library, Texture library, Skeleton,
 * Cmpnd (Scale, Root, Part_*, Cons) and the bone directories, with payload sizes that agree
 * with each other (counts, strides, record sizes). Values are plausible, not a model anybody
 * drew.
 *
 * Returns: (transfer full): a new tree (no source)
 */
MshedUtf *
mshed_utf_generate_dfm (const MshedUtfDfmParams *p)
{
  static const float six[6] = { 1.0f, 0.8f, 0.6f, 0.4f, 0.2f, 0.1f };
  static const float four[4] = { 1.0f, 0.8f, 0.6f, 0.2f };
  Dfm g = { mshed_utf_new (), { p->seed ^ G_GUINT64_CONSTANT (0x44464D) } };
  guint levels = p->n_levels == 4 ? 4 : 6;
  const float *fractions = levels == 4 ? four : six;
  guint n_bones = p->n_bones ? CLAMP (p->n_bones, 2, 200) : 22 + rng_below (&g.r, 65);
  guint n_groups = p->n_groups ? CLAMP (p->n_groups, 1, 16) : 1 + rng_below (&g.r, 4);
  guint points = p->n_points ? CLAMP (p->n_points, 8, 60000) : 200 + rng_below (&g.r, 401);
  guint n_materials = p->n_materials ? CLAMP (p->n_materials, 1, 16) : n_groups;
  guint detached = p->head ? 1 : G_MAXUINT;   /* bone index of the detached Neck */
  g_autofree char *stamp = g_strdup_printf ("0210%08u", rng_below (&g.r, 100000000));
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func (g_free);
  MshedUtfNode *root = mshed_utf_get_root (g.utf);
  MshedUtfNode *multi, *lib, *cmpnd, *cons, *dir;
  GByteArray *b;
  GByteArray *sphere = g_byte_array_new ();
  GByteArray *loose = g_byte_array_new ();

  mshed_utf_set_filetime (g.utf, MSHED_UTF_LIBRELANCER_FILETIME);
  mshed_utf_set_new_entry_time (g.utf, MSHED_UTF_LIBRELANCER_TIME);
  for (MshedUtfTime t = MSHED_UTF_TIME_CREATE; t <= MSHED_UTF_TIME_MODIFY; t++)
    mshed_utf_set_time (g.utf, root, t, MSHED_UTF_LIBRELANCER_TIME);

  for (guint i = 0; i < n_bones; i++)
    g_ptr_array_add (objects, i == detached ? g_strdup ("Neck")
                              : i == 0 ? g_strdup (p->head ? "Head" : "Pelvis")
                              : g_strdup_printf ("Bone%02u", i));

  add_string (&g, root, "Exporter Version", "Freelancer 3ds max exporter 2002-06-12");

  multi = add_dir (&g, root, "MultiLevel");
  b = g_byte_array_new ();
  for (guint l = 0; l < levels; l++)
    push_f32 (b, fractions[l]);
  add_file (&g, multi, "Fractions", b);
  for (guint l = 0; l < levels; l++)
    add_mesh (&g, multi, l, MAX (8u, (guint) (points * fractions[l])), p, n_groups, n_materials,
              n_bones);

  lib = add_dir (&g, root, "Material library");
  add_u32 (&g, lib, "Material count", n_materials);
  for (guint m = 0; m < n_materials; m++)
    {
      g_autofree char *name = g_strdup_printf ("skin_%02u", m);
      g_autofree char *texture = g_strdup_printf ("skin_%02u.tga", m);

      dir = add_dir (&g, lib, name);
      add_string (&g, dir, "Type", "DcDt");
      add_f32s (&g, dir, "Dc", 3, 1.0f);
      add_string (&g, dir, "Dt_name", texture);
      add_u32 (&g, dir, "Dt_flags", 0x40);
    }
  lib = add_dir (&g, root, "Texture library");
  for (guint m = 0; m < n_materials; m++)
    {
      g_autofree char *texture = g_strdup_printf ("skin_%02u.tga", m);

      add_u32s (&g, add_dir (&g, lib, texture), "MIPS", 64, 256);
    }

  add_string (&g, add_dir (&g, root, "Skeleton"), "Name",
              p->head ? "Head02.cmp" : "AutoHeaderNode.cmp");

  /* Scale, Root, Part_* in bone order, Cons (dfm.md, section 8) */
  cmpnd = add_dir (&g, root, "Cmpnd");
  add_f32 (&g, cmpnd, "Scale", 1.0f);
  for (guint i = 0; i < n_bones; i++)
    {
      const char *object = g_ptr_array_index (objects, i);
      g_autofree char *part = g_strdup_printf ("Part_%s", object);
      g_autofree char *file = g_strdup_printf ("%s%s.3db", object, stamp);
      guint parent = 0;

      if (i == detached)
        continue;
      dir = add_dir (&g, cmpnd, i == 0 ? "Root" : part);
      add_string (&g, dir, "Object name", object);
      add_string (&g, dir, "File name", file);
      add_u32 (&g, dir, "Index", i);
      if (i == 0)
        continue;
      do
        parent = rng_below (&g.r, i);
      while (parent == detached);
      if (rng_below (&g.r, 3) == 0)
        push_constraint (&g, sphere, g_ptr_array_index (objects, parent), object, TRUE);
      else
        push_constraint (&g, loose, g_ptr_array_index (objects, parent), object, FALSE);
    }
  cons = add_dir (&g, cmpnd, "Cons");
  if (sphere->len)
    add_file (&g, cons, "Sphere", sphere);
  else
    g_byte_array_unref (sphere);
  if (loose->len)
    add_file (&g, cons, "Loose", loose);
  else
    g_byte_array_unref (loose);

  /* bone directories in bone order (dfm.md, section 10) */
  for (guint i = 0; i < n_bones; i++)
    {
      const char *object = g_ptr_array_index (objects, i);
      g_autofree char *file = g_strdup_printf ("%s%s.3db", object, stamp);
      GByteArray *bits = g_byte_array_new ();
      guint8 lod = i == detached ? 0 : (guint8) ((1u << levels) - 1);

      dir = add_dir (&g, root, file);
      add_transform (&g, dir, "Bone to root", -0.05f * (float) i);
      g_byte_array_append (bits, &lod, 1);
      add_file (&g, dir, "Lod Bits", bits);
      if (i == detached)
        add_hardpoint (&g, dir, "hp_neck");
      else if (rng_below (&g.r, 8) == 0)
        add_hardpoint (&g, dir, "hp_attach");
    }
  return g.utf;
}
