/* mshed-dfm-fast.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fast path of DFM validation (docs/dfm.md §14.1). It reads the tree entries in place, in
 * one pass in the order they are stored, and runs the container rules (docs/utf.md §9) and the
 * DFM rules (docs/dfm.md §14) with no tree, no copies of names and no name index: a stack of
 * directory frames, fixed arrays of what the rules need and one table of sibling names.
 *
 * It decides only files laid out the way the writers lay them out (docs/utf.md §8: regions in
 * order without gaps, entries in pre-order, payloads in entry order) whose only findings are
 * the notes of every retail file (name residue, detached bones, unreferenced points) or an
 * unresolved material; for those it gives the same notes, made by the same functions as
 * mshed_dfm_validate. Anything else it declines, before it has reported anything, and the
 * caller runs the full validator: every other message keeps its one definition there. The
 * input is hostile: every range is checked in 64 bits before it is read.
 */
#define G_LOG_DOMAIN "mshed-dfm-fast"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-fast.h"
#include "mshed-dfm-private.h"
#include "mshed-dfm-schema.h"
#include "mshed-utf-crc.h"
#include "mshed-utf.h"

#define HEADER_SIZE   MSHED_UTF_HEADER_SIZE
#define ENTRY_SIZE    MSHED_UTF_ENTRY_SIZE
#define MAX_DEPTH     16
#define MAX_MESHES    32
#define MAX_GROUPS    256
#define MAX_BONES     256
#define MAX_PARTS     256
#define MAX_MATERIALS 64
#define MAX_CONS      8
/* the full validator lists 200 findings per check, then a summary line */
#define MAX_NOTES     200

typedef struct {
  const guint8 *data;   /* NULL: the file is absent */
  guint32       size;
  guint64       at;     /* where the payload starts in the file */
  const char   *name;   /* the entry's name in the dictionary */
} Blob;

typedef struct {
  const char *name;
  const char *face_groups;   /* the names of its directories, NULL when absent */
  const char *geometry;
  Blob        count;
  Blob        files[DFM_N_GEO];
  guint       first_group;
  guint       n_groups;
} Mesh;

typedef struct {
  const char *name;
  Blob        files[DFM_N_GROUP];
} Group;

typedef struct {
  const char *name;
  guint64     entry_at;   /* its tree entry in the file */
  Blob        files[DFM_N_BONE];
  gint        part;
} Bone;

typedef struct {
  Blob files[DFM_N_PART];
} Part;

typedef struct {
  Blob              blob;
  MshedDfmJointKind kind;
} Cons;

/* what a directory is, which decides what its children may be */
typedef enum {
  S_ROOT,
  S_MULTILEVEL,
  S_MESH,
  S_FACE_GROUPS,
  S_GROUP,
  S_GEOMETRY,
  S_SKELETON,
  S_CMPND,
  S_PART,
  S_CONS,
  S_BONE,
  S_HARDPOINTS,
  S_HP_KIND,
  S_HARDPOINT,
  S_MATLIB,
  S_OPAQUE,     /* no DFM rule looks inside (textures, materials, unknown hardpoint nodes) */
  S_FAIL,       /* a child the rules report: decline */
} Scope;

typedef struct {
  guint32 index;  /* the directory's entry */
  guint32 next;   /* its nextOffset, checked when its subtree ends */
  Scope   scope;
  guint   obj;    /* the mesh, group, bone or part it belongs to */
} Frame;

/* a name seen among the children of a directory (duplicate siblings) */
typedef struct {
  guint32 gen;    /* the file it was seen in (Fast.gen); any other: a free slot */
  guint32 dir;    /* the parent's entry */
  guint32 hash;
  guint32 name;   /* nameOffset */
} Sibling;

/* an open-addressing table of the parts' Object names, the first of equal names kept */
typedef struct {
  const char *name;
  guint32     gen;    /* the file it belongs to (Fast.gen); any other: a free slot */
  guint32     len;
  guint32     hash;
  gint        bone;
} ObjectSlot;

/* What is known about the name at one nameOffset: most names recur (every part has its
 * `Object name`, every mesh its `Points`), so each is measured, hashed and looked up once. */
typedef struct {
  guint32 gen;    /* the file it was measured in (Fast.gen); any other: a free slot */
  guint32 key;    /* nameOffset */
  guint32 hash;   /* fold_hash */
  guint32 len;
  guint8  leaf;   /* a string leaf name (docs/utf.md §5.2) */
  guint8  scope;  /* the scope @cls was found for, + 1 */
  guint8  cls;    /* what the name is in that scope (name_class) */
} NameInfo;

#define NAME_CACHE 512

/* The state of one file. Each thread keeps one (fast_of_thread) from file to file, so that
 * its tables are not cleared for every file: a slot of the name cache, the sibling table or
 * the table of Object names is in use only when it holds the file's generation. */
typedef struct {
  const guint8 *data;
  gsize         len;
  guint64       names;        /* the used dictionary: [names, names_end) */
  guint64       names_end;
  guint64       cursor;       /* where the next payload has to start */
  guint32       valid_time;
  guint32       sibling_mask;
  const char   *multilevel;   /* names, for the paths of notes */
  const char   *cmpnd;
  const char   *cons;
  gboolean      has_skeleton;
  Blob          exporter, skeleton_name, fractions, scale;
  guint         n_meshes, n_groups, n_bones, n_parts, n_materials, n_cons;
  Mesh          meshes[MAX_MESHES];
  Group         groups[MAX_GROUPS];
  Bone          bones[MAX_BONES];
  Part          parts[MAX_PARTS];
  const char   *materials[MAX_MATERIALS];
  Cons          cons_files[MAX_CONS];

  /* kept from file to file (the above is cleared up to here for each) */
  guint32       gen;
  NameInfo      cache[NAME_CACHE];
  Sibling      *siblings;
  guint32       n_siblings;   /* allocated */
  guint8       *used;         /* one byte per point of the largest mesh */
  guint32       n_used;
  ObjectSlot   *objects;
  guint32       n_objects;
} Fast;

/* A table kept from file to file (@buffer, @n_items allocated) with at least @n items of
 * @size bytes. New items are zero: generation 0, which no file has. */
static void *
fast_reserve (void    **buffer,
              guint32  *n_items,
              guint32   n,
              gsize     size)
{
  if (*n_items < n)
    {
      g_free (*buffer);
      *buffer = g_malloc0_n (n, size);
      *n_items = n;
    }
  return *buffer;
}

/* Names ------------------------------------------------------------------------------------ */

/* @name (@len bytes, NUL-terminated) equals @known ignoring case (docs/utf.md §3.4) */
static inline gboolean
named (const char *name,
       gsize       len,
       const char *known,
       gsize       known_len)
{
  return len == known_len && mshed_utf_name_compare (name, known) == 0;
}

#define NAMED(name, len, literal) named (name, len, literal, sizeof literal - 1)

/* @name starts with @prefix (@n bytes) ignoring case (g_ascii_strncasecmp) */
static gboolean
is_prefix (const char *name,
           gsize       len,
           const char *prefix,
           gsize       n)
{
  if (len < n)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (mshed_utf_name_fold ((guint8) name[i]) != mshed_utf_name_fold ((guint8) prefix[i]))
      return FALSE;
  return TRUE;
}

static gboolean
prefix_digits (const char *name,
               gsize       len,
               const char *prefix,
               gsize       n)
{
  if (len <= n || !is_prefix (name, len, prefix, n))
    return FALSE;
  for (gsize i = n; i < len; i++)
    if (!g_ascii_isdigit (name[i]))
      return FALSE;
  return TRUE;
}

/* docs/utf.md §5.2 */
static gboolean
is_string_leaf (const char *name,
                gsize       len)
{
  switch (len)
    {
    case 4:
      return NAMED (name, len, "Name") || NAMED (name, len, "Type");
    case 7:
      return NAMED (name, len, "Dt_name");
    case 9:
      return NAMED (name, len, "File name");
    case 11:
      return NAMED (name, len, "Object name");
    case 13:
      return NAMED (name, len, "Material_name");
    case 16:
      return NAMED (name, len, "Exporter Version");
    default:
      return FALSE;
    }
}

/* A hash that names equal ignoring case share: folding turns `A`..`Z` into `a`..`z`, which
 * differ from them only in bit 0x20, so every byte is hashed with that bit set. Eight bytes at
 * a time. */
static inline guint64
fold_mix (guint64 h,
          guint64 w)
{
  h = (h ^ (w | G_GUINT64_CONSTANT (0x2020202020202020))) * G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD);
  return h ^ (h >> 29);
}

static guint32
fold_hash (const char *name,
           gsize       len)
{
  guint64 h = len * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 w;

      memcpy (&w, name + i, 8);
      h = fold_mix (h, w);
    }
  if (i < len)
    {
      guint64 w = 0;

      memcpy (&w, name + i, len - i);
      h = fold_mix (h, w);
    }
  return (guint32) (h ^ (h >> 32));
}

/* names equal ignoring case; most are equal byte for byte */
static inline gboolean
same_name (const char *a,
           const char *b)
{
  return strcmp (a, b) == 0 || mshed_utf_name_compare (a, b) == 0;
}

/* FALSE when an earlier child of entry @dir has the name at @name (hash @h) ignoring case */
static gboolean
sibling_add (Fast    *f,
             guint32  dir,
             guint32  name,
             guint32  h)
{
  const char *names = (const char *) f->data + f->names;
  guint32 i = (h ^ (dir * 0x9E3779B1u)) & f->sibling_mask;

  for (;; i = (i + 1) & f->sibling_mask)
    {
      Sibling *s = &f->siblings[i];

      if (s->gen != f->gen)
        {
          *s = (Sibling) { f->gen, dir, h, name };
          return TRUE;
        }
      if (s->dir == dir && s->hash == h
          && (s->name == name || same_name (names + s->name, names + name)))
        return FALSE;
    }
}

/* the name at nameOffset @offset, measured once; NULL when it is not inside the used
 * dictionary or has no NUL there (utf-name-offset, utf-name-nul) */
static NameInfo *
name_info (Fast    *f,
           guint32  offset)
{
  NameInfo *ni = &f->cache[(offset * 0x9E3779B1u) >> 23];
  const char *name;
  const guint8 *nul;

  G_STATIC_ASSERT (NAME_CACHE == 1 << 9);
  if (ni->key == offset && ni->gen == f->gen)
    return ni;  /* inside the dictionary: checked when it was measured */
  if (offset >= f->names_end - f->names)
    return NULL;
  name = (const char *) f->data + f->names + offset;
  nul = memchr (name, 0, (gsize) (f->names_end - f->names - offset));
  if (nul == NULL)
    return NULL;
  ni->gen = f->gen;
  ni->key = offset;
  ni->len = (guint32) (nul - (const guint8 *) name);
  ni->hash = fold_hash (name, ni->len);
  ni->leaf = is_string_leaf (name, ni->len);
  ni->scope = 0;
  return ni;
}

/* DFM strings (docs/dfm.md §14): present, with a final NUL */
static gboolean
string_ok (const Blob *b)
{
  return b->data != NULL && b->size > 0 && b->data[b->size - 1] == 0;
}

/* a schema table's size rule (mshed-dfm-validate.c, check_size) */
static gboolean
size_ok (const Blob    *b,
         MshedDfmTable  table)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);

  if (b->data == NULL || info->stride == 0)
    return TRUE;
  return info->single ? b->size >= info->stride : b->size % info->stride == 0;
}

/* The walk ----------------------------------------------------------------------------------- */

/* the table of a file named @name in @scope, as 1 + its index among the scope's ids from
 * @base; 0 for none */
static guint8
table_class (MshedDfmScope  scope,
             MshedDfmTable  base,
             const char    *name)
{
  MshedDfmTable t = mshed_dfm_schema_table_in_scope (scope, name);

  return t == MSHED_DFM_TABLE_NONE ? 0 : (guint8) (t - base + 1);
}

enum { CLS_HARDPOINTS = 255 };

/* What the name @name is among the children of a directory of @scope (classify reads it):
 * the known names in the order classify tests them, 1 up; 0 for none. */
static guint8
name_class (Scope       scope,
            const char *name,
            gsize       len)
{
  guint8 cls;

  switch (scope)
    {
    case S_ROOT:
      if (NAMED (name, len, "Exporter Version"))
        return 1;
      if (NAMED (name, len, "MultiLevel"))
        return 2;
      if (NAMED (name, len, "Cmpnd"))
        return 3;
      if (NAMED (name, len, "Skeleton"))
        return 4;
      if (NAMED (name, len, "Material library"))
        return 5;
      if (NAMED (name, len, "Texture library"))
        return 6;
      return len >= 4 && named (name + len - 4, 4, ".3db", 4) ? 7 : 0;
    case S_MULTILEVEL:
      return NAMED (name, len, "Fractions") ? 1 : prefix_digits (name, len, "Mesh", 4) ? 2 : 0;
    case S_MESH:
      return NAMED (name, len, "Face_groups") ? 1 : NAMED (name, len, "Geometry") ? 2 : 0;
    case S_FACE_GROUPS:
      return NAMED (name, len, "Count") ? 1 : prefix_digits (name, len, "Group", 5) ? 2 : 0;
    case S_GROUP:
      return table_class (MSHED_DFM_SCOPE_GROUP, DFM_GROUP_BASE, name);
    case S_GEOMETRY:
      return table_class (MSHED_DFM_SCOPE_GEOMETRY, DFM_GEO_BASE, name);
    case S_SKELETON:
      return NAMED (name, len, "Name");
    case S_CMPND:
      return NAMED (name, len, "Scale") ? 1 : NAMED (name, len, "Cons") ? 2
             : NAMED (name, len, "Root") || is_prefix (name, len, "Part_", 5) ? 3 : 0;
    case S_PART:
      return table_class (MSHED_DFM_SCOPE_PART, DFM_PART_BASE, name);
    case S_CONS:
      return (guint8) (_mshed_dfm_joint_kind_of_name (name) + 1);
    case S_BONE:
      cls = table_class (MSHED_DFM_SCOPE_BONE, DFM_BONE_BASE, name);
      return cls ? cls : NAMED (name, len, "Hardpoints") ? CLS_HARDPOINTS : 0;
    case S_HARDPOINTS:
      return NAMED (name, len, "Fixed") || NAMED (name, len, "Revolute");
    case S_HARDPOINT:
      return table_class (MSHED_DFM_SCOPE_HARDPOINT, DFM_HP_BASE, name);
    case S_HP_KIND:
    case S_MATLIB:
    case S_OPAQUE:
    case S_FAIL:
    default:
      return 0;
    }
}

/* What the child named @name (name_class @cls) of a directory of @parent's kind is; records
 * what the rules need. */
static Scope
classify (Fast        *f,
          Frame       *parent,
          guint8       cls,
          const char  *name,
          gboolean     dir,
          const Blob  *b,
          guint       *obj)
{
  *obj = parent->obj;
  switch (parent->scope)
    {
    case S_ROOT:
      if (cls == 1)
        {
          if (dir)
            return S_FAIL;
          f->exporter = *b;
          return S_OPAQUE;
        }
      if (!dir)
        return S_FAIL;
      switch (cls)
        {
        case 2:
          f->multilevel = name;
          return S_MULTILEVEL;
        case 3:
          f->cmpnd = name;
          return S_CMPND;
        case 4:
          f->has_skeleton = TRUE;
          return S_SKELETON;
        case 5:
          return S_MATLIB;
        case 6:
          return S_OPAQUE;
        default:
          break;
        }
      if (cls == 7)
        {
          Bone *bone;

          if (f->n_bones == MAX_BONES)
            return S_FAIL;
          *obj = f->n_bones;
          bone = &f->bones[f->n_bones++];
          memset (bone, 0, sizeof *bone);
          bone->name = name;
          bone->entry_at = b->at;
          bone->part = -1;
          return S_BONE;
        }
      return S_FAIL;

    case S_MULTILEVEL:
      if (!dir)
        {
          if (cls != 1)
            return S_FAIL;
          f->fractions = *b;
          return S_OPAQUE;
        }
      if (cls == 2 && f->n_meshes < MAX_MESHES)
        {
          Mesh *m = &f->meshes[f->n_meshes];

          memset (m, 0, sizeof *m);
          m->name = name;
          m->first_group = f->n_groups;
          *obj = f->n_meshes++;
          return S_MESH;
        }
      return S_FAIL;

    case S_MESH:
      if (dir && cls == 1)
        {
          f->meshes[parent->obj].face_groups = name;
          return S_FACE_GROUPS;
        }
      if (dir && cls == 2)
        {
          f->meshes[parent->obj].geometry = name;
          return S_GEOMETRY;
        }
      return S_FAIL;

    case S_FACE_GROUPS:
      if (!dir)
        {
          if (cls != 1)
            return S_FAIL;
          f->meshes[parent->obj].count = *b;
          return S_OPAQUE;
        }
      if (cls == 2 && f->n_groups < MAX_GROUPS)
        {
          Group *g = &f->groups[f->n_groups];

          memset (g, 0, sizeof *g);
          g->name = name;
          f->meshes[parent->obj].n_groups++;
          *obj = f->n_groups++;
          return S_GROUP;
        }
      return S_FAIL;

    case S_GROUP:
      /* the index takes the group's known files; nothing reports the others */
      if (!dir && cls)
        f->groups[parent->obj].files[cls - 1] = *b;
      return S_OPAQUE;

    case S_GEOMETRY:
      if (dir || cls == 0)
        return S_FAIL;
      f->meshes[parent->obj].files[cls - 1] = *b;
      return S_OPAQUE;

    case S_SKELETON:
      if (dir || cls != 1)
        return S_FAIL;
      f->skeleton_name = *b;
      return S_OPAQUE;

    case S_CMPND:
      if (!dir)
        {
          if (cls != 1)
            return S_FAIL;
          f->scale = *b;
          return S_OPAQUE;
        }
      if (cls == 2)
        {
          f->cons = name;
          return S_CONS;
        }
      if (cls == 3 && f->n_parts < MAX_PARTS)
        {
          memset (&f->parts[f->n_parts], 0, sizeof (Part));
          *obj = f->n_parts++;
          return S_PART;
        }
      return S_FAIL;

    case S_PART:
      if (dir || cls == 0)
        return S_FAIL;
      f->parts[parent->obj].files[cls - 1] = *b;
      return S_OPAQUE;

    case S_CONS:
      if (dir || cls == 0 || f->n_cons == MAX_CONS)
        return S_FAIL;
      f->cons_files[f->n_cons++] = (Cons) { *b, (MshedDfmJointKind) (cls - 1) };
      return S_OPAQUE;

    case S_BONE:
      if (dir)
        return cls == CLS_HARDPOINTS ? S_HARDPOINTS : S_FAIL;
      if (cls == 0 || cls == CLS_HARDPOINTS)
        return S_FAIL;
      f->bones[parent->obj].files[cls - 1] = *b;
      return S_OPAQUE;

    case S_HARDPOINTS:
      if (dir && cls)
        return S_HP_KIND;
      return S_OPAQUE;

    case S_HP_KIND:
      return dir ? S_HARDPOINT : S_OPAQUE;

    case S_HARDPOINT:
      if (dir || cls == 0)
        return S_OPAQUE;
      return size_ok (b, DFM_HP_BASE + cls - 1) ? S_OPAQUE : S_FAIL;

    case S_MATLIB:
      if (dir)
        {
          if (f->n_materials == MAX_MATERIALS)
            return S_FAIL;
          f->materials[f->n_materials++] = name;
        }
      return S_OPAQUE;

    case S_OPAQUE:
    case S_FAIL:
    default:
      return S_OPAQUE;
    }
}

/* docs/utf.md §5.1, §9: no odd timestamp, no sharing attributes */
static inline gboolean
entry_ok (Fast          *f,
          const guint32 *e)
{
  if (((e[8] ^ f->valid_time) | (e[9] ^ f->valid_time) | (e[10] ^ f->valid_time)) == 0)
    return e[3] == 0;  /* the usual case: the time of the entry before */
  for (guint k = 8; k <= 10; k++)
    if (e[k] != 0 && e[k] != f->valid_time)
      {
        if (!mshed_utf_dos_time_decode (e[k], NULL))
          return FALSE;
        f->valid_time = e[k];
      }
  return e[3] == 0;
}

/* Reads the tree block, @n entries in pre-order. FALSE: decline. */
G_GNUC_NO_INLINE static gboolean
walk (Fast    *f,
      guint64  tree,
      guint64  data0,
      guint32  n)
{
  Frame stack[MAX_DEPTH];
  guint depth = 0;

  for (guint32 i = 0; i < n; i++)
    {
      guint32 e[11];
      const char *name;
      NameInfo *ni;
      gboolean dir;
      Blob b = { 0 };
      Scope scope;
      guint obj = 0;

      memcpy (e, f->data + tree + (gsize) i * ENTRY_SIZE, sizeof e);
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
      for (guint k = 0; k < 11; k++)
        e[k] = GUINT32_FROM_LE (e[k]);
#endif
      /* the name: inside the used dictionary, with its NUL there */
      ni = name_info (f, e[1]);
      if (ni == NULL)
        return FALSE;
      name = (const char *) f->data + f->names + e[1];

      /* exactly one of the directory and file bits (docs/utf.md §3.1) */
      if ((e[2] & (MSHED_UTF_ATTR_DIRECTORY | MSHED_UTF_ATTR_FILE)) == MSHED_UTF_ATTR_DIRECTORY)
        dir = TRUE;
      else if ((e[2] & (MSHED_UTF_ATTR_DIRECTORY | MSHED_UTF_ATTR_FILE)) == MSHED_UTF_ATTR_FILE)
        dir = FALSE;
      else
        return FALSE;
      if (!entry_ok (f, e))
        return FALSE;

      if (dir)
        b.at = tree + (guint64) i * ENTRY_SIZE;
      else
        {
          guint64 start = data0 + e[4];
          guint32 used = e[6], alloc = e[5];

          if (start != f->cursor || used > alloc || e[7] != used || alloc > f->len - start)
            return FALSE;
          for (guint32 k = used; k < alloc; k++)
            if (f->data[start + k] != 0)
              return FALSE;
          f->cursor = start + alloc;
          b.data = f->data + start;
          b.size = used;
          b.at = start;
          if (ni->leaf && used > 0 && b.data[used - 1] != 0)
            return FALSE;  /* utf-string-nul */
        }
      b.name = name;

      if (i == 0)
        {
          /* the root: a directory whose children start with the next entry */
          if (!dir || e[4] != ENTRY_SIZE || n < 2)
            return FALSE;
          stack[depth++] = (Frame) { 0, 0, S_ROOT, 0 };
          continue;
        }

      if (!sibling_add (f, stack[depth - 1].index, e[1], ni->hash))
        return FALSE;
      if (ni->scope != stack[depth - 1].scope + 1)
        {
          ni->cls = name_class (stack[depth - 1].scope, name, ni->len);
          ni->scope = (guint8) (stack[depth - 1].scope + 1);
        }
      scope = classify (f, &stack[depth - 1], ni->cls, name, dir, &b, &obj);
      if (scope == S_FAIL)
        return FALSE;

      if (dir)
        {
          /* not empty, its first child the next entry (pre-order) */
          if (e[4] != (guint64) (i + 1) * ENTRY_SIZE || depth == MAX_DEPTH)
            return FALSE;
          stack[depth++] = (Frame) { i, e[0], scope, obj };
          continue;
        }
      if (e[0] != 0)
        {
          if (e[0] != (guint64) (i + 1) * ENTRY_SIZE)
            return FALSE;
          continue;
        }
      /* the last child: the directories it ends */
      for (;;)
        {
          const Frame *closed = &stack[--depth];

          if (depth == 0)
            return i + 1 == n;  /* the root: every entry is part of the tree */
          if (closed->next != 0)
            {
              if (closed->next != (guint64) (i + 1) * ENTRY_SIZE)
                return FALSE;
              break;
            }
        }
    }
  return FALSE;
}

/* The DFM rules (docs/dfm.md §14) -------------------------------------------------------- */

/* every one of the @n little-endian u32 at @p below @bound (a loop the compiler vectorizes) */
G_GNUC_NO_INLINE static gboolean
all_below_u32 (const guint8 *p,
               guint32       n,
               guint32       bound)
{
  guint32 bad = 0;

  for (guint32 i = 0; i < n; i++)
    {
      guint32 v;

      memcpy (&v, p + 4 * (gsize) i, 4);
      bad |= GUINT32_FROM_LE (v) >= bound;
    }
  return bad == 0;
}

G_GNUC_NO_INLINE static gboolean
all_below_u16 (const guint8 *p,
               guint32       n,
               guint32       bound)
{
  guint32 bad = 0;

  for (guint32 i = 0; i < n; i++)
    {
      guint16 v;

      memcpy (&v, p + 2 * (gsize) i, 2);
      bad |= GUINT16_FROM_LE (v) >= bound;
    }
  return bad == 0;
}

/* every entry of @b (u32) below @bound */
static gboolean
below (const Blob *b,
       guint32     bound)
{
  return all_below_u32 (b->data, b->size / 4, bound);
}

#define GEO(m, t) (&(m)->files[MSHED_DFM_TABLE_##t - DFM_GEO_BASE])

/* docs/dfm.md §6.2: slices inside the chains, 1 to 4 influences, weights summing to 1, known
 * bones */
G_GNUC_NO_INLINE static gboolean
skin_ok (const Fast *f,
         const Mesh *m,
         guint32     n_points)
{
  const guint8 *first = GEO (m, POINT_BONE_FIRST)->data;
  const guint8 *count = GEO (m, POINT_BONE_COUNT)->data;
  const guint8 *weights = GEO (m, BONE_WEIGHT_CHAIN)->data;
  guint32 n_chain = GEO (m, BONE_ID_CHAIN)->size / 4;

  for (guint32 p = 0; p < n_points; p++)
    {
      guint32 a = mshed_read_u32 (first + 4 * (gsize) p);
      guint32 k = mshed_read_u32 (count + 4 * (gsize) p);
      double sum = 0;

      if (k == 0 || k > MSHED_DFM_MAX_INFLUENCES || (guint64) a + k > n_chain)
        return FALSE;
      /* as check_weight_sum adds them */
      for (guint32 i = a; i < a + k; i++)
        sum += mshed_read_f32 (weights + 4 * (gsize) i);
      if (!(fabs (sum - 1.0) <= DFM_WEIGHT_TOLERANCE))
        return FALSE;
    }
  return below (GEO (m, BONE_ID_CHAIN), f->n_bones);
}

/* docs/dfm.md §6.4: all eleven files or none, in range, the counts matching */
static gboolean
uv_bone_ok (const Fast *f,
            const Mesh *m)
{
  guint present = 0;
  guint32 n_ids;

  for (MshedDfmTable t = MSHED_DFM_TABLE_UV_BONE_ID; t <= MSHED_DFM_TABLE_UV_DEFAULT_LIST; t++)
    present += m->files[t - DFM_GEO_BASE].data != NULL;
  if (present == 0)
    return TRUE;
  if (present != MSHED_DFM_TABLE_UV_DEFAULT_LIST - MSHED_DFM_TABLE_UV_BONE_ID + 1)
    return FALSE;
  n_ids = GEO (m, UV_VERTEX_ID)->size / 4;
  return mshed_read_u32 (GEO (m, UV_BONE_ID)->data) < f->n_bones
         && below (GEO (m, UV_VERTEX_ID), GEO (m, UV0)->size / 8)
         && GEO (m, UV_DEFAULT_LIST)->size == 8 * (guint64) n_ids
         && mshed_read_u32 (GEO (m, UV_VERTEX_COUNT)->data) == n_ids;
}

/* docs/dfm.md §6: the geometry of mesh @m; counts its unreferenced points */
G_GNUC_NO_INLINE static gboolean
geometry_ok (const Fast *f,
             const Mesh *m,
             guint8     *used,
             guint32    *n_unused,
             guint32    *first_unused)
{
  static const MshedDfmTable required[] = {
    MSHED_DFM_TABLE_POINT_INDICES, MSHED_DFM_TABLE_UV0_INDICES, MSHED_DFM_TABLE_POINTS,
    MSHED_DFM_TABLE_POINT_BONE_FIRST, MSHED_DFM_TABLE_POINT_BONE_COUNT,
    MSHED_DFM_TABLE_BONE_ID_CHAIN, MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN,
    MSHED_DFM_TABLE_VERTEX_NORMALS, MSHED_DFM_TABLE_UV0,
  };
  const Blob *pi = GEO (m, POINT_INDICES);
  guint32 n_elements, n_points;

  for (guint k = 0; k < G_N_ELEMENTS (required); k++)
    if (m->files[required[k] - DFM_GEO_BASE].data == NULL)
      return FALSE;
  if ((GEO (m, UV1_INDICES)->data == NULL) != (GEO (m, UV1)->data == NULL))
    return FALSE;
  for (guint k = 0; k < DFM_N_GEO; k++)
    if (!size_ok (&m->files[k], DFM_GEO_BASE + (gint) k))
      return FALSE;

  n_elements = pi->size / 4;
  n_points = GEO (m, POINTS)->size / 12;
  if (GEO (m, UV0_INDICES)->size / 4 != n_elements
      || (GEO (m, UV1_INDICES)->data && GEO (m, UV1_INDICES)->size / 4 != n_elements)
      || GEO (m, POINT_BONE_FIRST)->size / 4 != n_points
      || GEO (m, POINT_BONE_COUNT)->size / 4 != n_points
      || GEO (m, VERTEX_NORMALS)->size / 12 != n_points
      || GEO (m, BONE_WEIGHT_CHAIN)->size / 4 != GEO (m, BONE_ID_CHAIN)->size / 4)
    return FALSE;
  if (!below (pi, n_points) || !below (GEO (m, UV0_INDICES), GEO (m, UV0)->size / 8)
      || (GEO (m, UV1_INDICES)->data && !below (GEO (m, UV1_INDICES), GEO (m, UV1)->size / 8))
      || !skin_ok (f, m, n_points) || !uv_bone_ok (f, m))
    return FALSE;

  /* every index is below n_points now */
  *n_unused = 0;
  *first_unused = 0;
  if (n_points == 0)
    return TRUE;
  memset (used, 0, n_points);
  for (guint32 e = 0; e < n_elements; e++)
    used[mshed_read_u32 (pi->data + 4 * (gsize) e)] = 1;
  for (guint32 p = n_points; p > 0; p--)
    if (!used[p - 1])
      {
        (*n_unused)++;
        *first_unused = p - 1;
      }
  return TRUE;
}

#define MATERIAL_NAME (MSHED_DFM_TABLE_MATERIAL_NAME - DFM_GROUP_BASE)

/* a group's Material_name (checked to end in a NUL) */
static const char *
material_of (const Group *g)
{
  return (const char *) g->files[MATERIAL_NAME].data;
}

/* the first material of the library named @name, ignoring case; -1 */
static gint
find_material (const Fast *f,
               const char *name)
{
  for (guint i = 0; i < f->n_materials; i++)
    if (same_name (f->materials[i], name))
      return (gint) i;
  return -1;
}

/* docs/dfm.md §4, §5: the face groups of mesh @m */
G_GNUC_NO_INLINE static gboolean
groups_ok (const Fast *f,
           const Mesh *m)
{
  guint32 n_elements = GEO (m, POINT_INDICES)->size / 4;

  if (m->count.data == NULL || !size_ok (&m->count, MSHED_DFM_TABLE_GROUP_COUNT)
      || mshed_read_i32 (m->count.data) != (gint32) m->n_groups)
    return FALSE;
  for (guint g = m->first_group; g < m->first_group + m->n_groups; g++)
    {
      const Blob *files = f->groups[g].files;
      const Blob *strip = &files[MSHED_DFM_TABLE_TRISTRIP - DFM_GROUP_BASE];
      const Blob *edges = &files[MSHED_DFM_TABLE_EDGE_INDICES - DFM_GROUP_BASE];
      const Blob *angles = &files[MSHED_DFM_TABLE_EDGE_ANGLES - DFM_GROUP_BASE];

      if (!string_ok (&files[MSHED_DFM_TABLE_MATERIAL_NAME - DFM_GROUP_BASE])
          || strip->data == NULL || files[MSHED_DFM_TABLE_FACE_INDICES - DFM_GROUP_BASE].data
          || !size_ok (strip, MSHED_DFM_TABLE_TRISTRIP)
          || !size_ok (edges, MSHED_DFM_TABLE_EDGE_INDICES)
          || !size_ok (angles, MSHED_DFM_TABLE_EDGE_ANGLES)
          || ((edges->data || angles->data) && edges->size / 2 != 2 * (angles->size / 4)))
        return FALSE;
      if (!all_below_u16 (strip->data, strip->size / 2, n_elements))
        return FALSE;
    }
  return TRUE;
}

/* @a (@len bytes) and the NUL-terminated @b of the same length are equal ignoring case */
static inline gboolean
same_bytes (const char *a,
            const char *b,
            gsize       len)
{
  if (memcmp (a, b, len) == 0)
    return TRUE;
  for (gsize i = 0; i < len; i++)
    if (mshed_utf_name_fold ((guint8) a[i]) != mshed_utf_name_fold ((guint8) b[i]))
      return FALSE;
  return TRUE;
}

/* the bone of the first part whose Object name is @name (@len bytes, no NUL in them), -1 */
static gint
object_find (const ObjectSlot *table,
             guint32           mask,
             guint32           gen,
             const char       *name,
             gsize             len)
{
  guint32 h = fold_hash (name, len);

  for (guint32 i = h & mask; table[i].gen == gen; i = (i + 1) & mask)
    if (table[i].hash == h && table[i].len == len && same_bytes (name, table[i].name, len))
      return table[i].bone;
  return -1;
}

static void
object_put (ObjectSlot *table,
            guint32     mask,
            guint32     gen,
            const char *name,
            gint        bone)
{
  gsize len = strlen (name);
  guint32 h = fold_hash (name, len);
  guint32 i;

  for (i = h & mask; table[i].gen == gen; i = (i + 1) & mask)
    if (table[i].hash == h && table[i].len == len && same_bytes (name, table[i].name, len))
      return;
  table[i] = (ObjectSlot) { name, gen, (guint32) len, h, bone };
}

/* the length of the name in the 64-byte field at @field, as read_cons_name reads it: up to
 * its NUL, all 64 bytes without one */
static guint
cons_name_len (const guint8 *field)
{
  const guint8 *nul = memchr (field, 0, 64);

  return nul ? (guint) (nul - field) : 64;
}

/* docs/dfm.md §8, §9: parts naming their bones, whole Cons records that all link a new child
 * under a known parent without a cycle. Counts the residue of each Cons file in @residue (n,
 * first record, its field, its byte). */
G_GNUC_NO_INLINE static gboolean
cmpnd_ok (Fast    *f,
          guint32  residue[][4])
{
  ObjectSlot *objects;
  guint32 mask = 15;
  guint32 gen = f->gen;
  gint parent[MAX_BONES], up[MAX_BONES];
  gboolean ok = TRUE;

  if (!size_ok (&f->scale, MSHED_DFM_TABLE_SCALE) || f->scale.data == NULL)
    return FALSE;
  for (guint i = 0; i < f->n_parts; i++)
    {
      const Blob *files = f->parts[i].files;
      const Blob *idx = &files[MSHED_DFM_TABLE_PART_INDEX - DFM_PART_BASE];
      const Blob *file = &files[MSHED_DFM_TABLE_FILE_NAME - DFM_PART_BASE];
      gint32 v;

      if (!string_ok (&files[MSHED_DFM_TABLE_OBJECT_NAME - DFM_PART_BASE]) || !string_ok (file)
          || idx->data == NULL || !size_ok (idx, MSHED_DFM_TABLE_PART_INDEX))
        return FALSE;
      /* Index names the bone File name names: no duplicate root names, so it is the first */
      v = mshed_read_i32 (idx->data);
      if (v < 0 || (guint) v >= f->n_bones || f->bones[v].part >= 0
          || !same_name ((const char *) file->data, f->bones[v].name))
        return FALSE;
      f->bones[v].part = (gint) i;
    }

  while (mask + 1 < 2 * f->n_parts)
    mask = mask * 2 + 1;
  objects = fast_reserve ((void **) &f->objects, &f->n_objects, mask + 1,
                          sizeof (ObjectSlot));
  for (guint i = 0; i < f->n_parts; i++)
    {
      const Blob *files = f->parts[i].files;
      const char *object = (const char *) files[MSHED_DFM_TABLE_OBJECT_NAME - DFM_PART_BASE].data;

      object_put (objects, mask, gen, object,
                  mshed_read_i32 (files[MSHED_DFM_TABLE_PART_INDEX - DFM_PART_BASE].data));
    }
  for (guint b = 0; b < f->n_bones; b++)
    {
      parent[b] = -1;
      up[b] = (gint) b;
    }

  for (guint c = 0; c < f->n_cons && ok; c++)
    {
      const Cons *cons = &f->cons_files[c];
      guint rec = mshed_dfm_joint_record_size (cons->kind);
      guint32 n = cons->blob.size / rec;

      residue[c][0] = 0;
      if (cons->blob.size % rec != 0)
        {
          ok = FALSE;
          break;
        }
      for (guint32 r = 0; r < n && ok; r++)
        {
          const guint8 *record = cons->blob.data + (gsize) r * rec;
          guint lens[2];
          gint pb, cb;

          gboolean counted = FALSE;

          for (guint k = 0; k < 2; k++)
            {
              const guint8 *field = record + 64 * k;
              guint i = lens[k] = cons_name_len (field);

              /* check_residue: the first non-zero byte after the name's NUL */
              while (i + 8 <= 64 && mshed_read_u32 (field + i) == 0
                     && mshed_read_u32 (field + i + 4) == 0)
                i += 8;
              while (i < 64 && field[i] == 0)
                i++;
              if (i < 64 && !counted)
                {
                  if (residue[c][0] == 0)
                    {
                      residue[c][1] = r;
                      residue[c][2] = k;
                      residue[c][3] = r * rec + 64 * k + i;
                    }
                  residue[c][0]++;
                  counted = TRUE;
                }
            }
          pb = object_find (objects, mask, gen, (const char *) record, lens[0]);
          cb = object_find (objects, mask, gen, (const char *) record + 64,
                            lens[1]);
          /* every record links (mshed-dfm.c, index_joints) */
          if (pb < 0 || cb < 0 || parent[cb] >= 0 || _mshed_dfm_find_top (up, pb) == cb)
            ok = FALSE;
          else
            {
              parent[cb] = pb;
              up[cb] = _mshed_dfm_find_top (up, pb);
            }
        }
    }
  return ok;
}

/* docs/dfm.md §10: bones */
G_GNUC_NO_INLINE static gboolean
bones_ok (const Fast *f)
{
  for (guint b = 0; b < f->n_bones; b++)
    {
      const Blob *btr = &f->bones[b].files[MSHED_DFM_TABLE_BONE_TO_ROOT - DFM_BONE_BASE];
      const Blob *bits = &f->bones[b].files[MSHED_DFM_TABLE_LOD_BITS - DFM_BONE_BASE];

      if (btr->data == NULL || btr->size != 48 || bits->data == NULL
          || !size_ok (bits, MSHED_DFM_TABLE_LOD_BITS))
        return FALSE;
    }
  return TRUE;
}

/* Notes ------------------------------------------------------------------------------------ */

/* `\a\b\c`, the names in display form (mshed_utf_node_dup_path) */
static char *
path_of (const char *first,
         ...)
{
  GString *s = g_string_sized_new (64);
  va_list args;

  va_start (args, first);
  for (const char *name = first; name; name = va_arg (args, const char *))
    {
      g_string_append_c (s, '\\');
      mshed_utf_name_append_display (s, name);
    }
  va_end (args);
  return g_string_free (s, FALSE);
}

/* Entry ------------------------------------------------------------------------------------- */

typedef struct {
  guint32 n_unused;
  guint32 first_unused;
} MeshNote;

static gboolean
validate (Fast             *f,
          MshedDiagnostics *diags)
{
  const guint8 *d = f->data;
  guint64 tree, tree_size, names, alloc, used, data0;
  guint32 n;
  MeshNote mesh_notes[MAX_MESHES];
  guint32 residue[MAX_CONS][4];
  guint8 *used_points;
  guint32 max_points = 1;
  guint n_material_notes = 0, n_detached = 0;

  /* docs/utf.md §2: the header; the regions in order without gaps, nothing after them */
  if (f->len < HEADER_SIZE || mshed_read_u32 (d) != MSHED_UTF_SIGNATURE
      || mshed_read_u32 (d + 4) != MSHED_UTF_VERSION || mshed_read_u32 (d + 20) != ENTRY_SIZE
      || mshed_read_u32 (d + 16) != 0 || mshed_read_u32 (d + 40) != 0
      || mshed_read_u32 (d + 44) != 0)
    return FALSE;
  tree = mshed_read_u32 (d + 8);
  tree_size = mshed_read_u32 (d + 12);
  names = mshed_read_u32 (d + 24);
  alloc = mshed_read_u32 (d + 28);
  used = mshed_read_u32 (d + 32);
  data0 = mshed_read_u32 (d + 36);
  if (tree != HEADER_SIZE || tree_size < 2 * ENTRY_SIZE || tree_size % ENTRY_SIZE != 0
      || names != tree + tree_size || used > alloc || alloc > ((used + 3) & ~G_GUINT64_CONSTANT (3))
      || data0 != names + alloc || data0 > f->len)
    return FALSE;
  for (guint64 i = names + used; i < data0; i++)
    if (d[i] != 0)
      return FALSE;
  f->names = names;
  f->names_end = names + used;
  f->cursor = data0;
  n = (guint32) (tree_size / ENTRY_SIZE);

  f->sibling_mask = 63;
  while (f->sibling_mask + 1 < n + n / 2)
    f->sibling_mask = f->sibling_mask * 2 + 1;
  fast_reserve ((void **) &f->siblings, &f->n_siblings, f->sibling_mask + 1,
                sizeof (Sibling));
  if (!walk (f, tree, data0, n) || f->cursor != f->len)
    return FALSE;

  /* docs/dfm.md §14, in mshed_dfm_validate's order */
  if (!string_ok (&f->exporter) || !f->has_skeleton || !string_ok (&f->skeleton_name)
      || f->multilevel == NULL || f->cmpnd == NULL || f->fractions.data == NULL
      || f->fractions.size % 4 != 0 || f->fractions.size / 4 != f->n_meshes)
    return FALSE;
  for (guint l = 0; l < f->n_meshes; l++)
    max_points = MAX (max_points, GEO (&f->meshes[l], POINTS)->size / 12);
  used_points = fast_reserve ((void **) &f->used, &f->n_used, max_points, 1);
  for (guint l = 0; l < f->n_meshes; l++)
    {
      const Mesh *m = &f->meshes[l];

      if (m->face_groups == NULL || m->geometry == NULL
          || !geometry_ok (f, m, used_points, &mesh_notes[l].n_unused,
                           &mesh_notes[l].first_unused)
          || !groups_ok (f, m))
        return FALSE;
      for (guint g = m->first_group; g < m->first_group + m->n_groups; g++)
        n_material_notes += find_material (f, material_of (&f->groups[g])) < 0;
    }
  if (!cmpnd_ok (f, residue) || !bones_ok (f))
    return FALSE;
  for (guint b = 0; b < f->n_bones; b++)
    n_detached += f->bones[b].part < 0;
  if (n_material_notes > MAX_NOTES || n_detached > MAX_NOTES)
    return FALSE;

  /* decided: the notes, in the validator's order */
  if (diags == NULL)
    return TRUE;
  for (guint l = 0; l < f->n_meshes; l++)
    {
      const Mesh *m = &f->meshes[l];

      if (mesh_notes[l].n_unused)
        {
          const Blob *points = GEO (m, POINTS);
          g_autofree char *path = path_of (f->multilevel, m->name, m->geometry, points->name,
                                           NULL);

          _mshed_dfm_note_unreferenced (diags, path, points->at, mesh_notes[l].n_unused,
                                        mesh_notes[l].first_unused);
        }
      for (guint g = m->first_group; g < m->first_group + m->n_groups; g++)
        {
          const Blob *material = &f->groups[g].files[MATERIAL_NAME];
          g_autofree char *path = NULL;

          if (find_material (f, material_of (&f->groups[g])) >= 0)
            continue;
          path = path_of (f->multilevel, m->name, m->face_groups, f->groups[g].name,
                          material->name, NULL);
          _mshed_dfm_note_material (diags, path, material->at, (const char *) material->data);
        }
    }
  for (guint c = 0; c < f->n_cons; c++)
    if (residue[c][0])
      {
        const Cons *cons = &f->cons_files[c];
        g_autofree char *path = path_of (f->cmpnd, f->cons, cons->blob.name, NULL);

        _mshed_dfm_note_residue (diags, path, cons->kind, cons->blob.at, residue[c][0],
                                 residue[c][1], residue[c][2], residue[c][3]);
      }
  for (guint b = 0; b < f->n_bones; b++)
    if (f->bones[b].part < 0)
      {
        g_autofree char *path = path_of (f->bones[b].name, NULL);

        _mshed_dfm_note_detached (diags, path, f->bones[b].entry_at, b);
      }
  return TRUE;
}

static void
fast_free (gpointer data)
{
  Fast *f = data;

  g_free (f->siblings);
  g_free (f->used);
  g_free (f->objects);
  g_free (f);
}

/* the state of the calling thread, freed when the thread ends */
static GPrivate fast_key = G_PRIVATE_INIT (fast_free);

/**
 * mshed_dfm_validate_fast:
 * @data: a UTF file taken for a deformable model (named *.dfm)
 * @diags: (nullable): receives the findings when the file is decided
 *
 * The rules of docs/utf.md §9 and docs/dfm.md §14 in one pass over @data, for the files
 * their writers make (docs/dfm.md §14.1). When it returns TRUE, it has added to @diags exactly
 * what mshed_utf_parse_readonly and mshed_dfm_new (both modes alike) would add: only notes,
 * none of them errors. FALSE: the file is not decided and nothing was added; run the full
 * validator.
 */
gboolean
mshed_dfm_validate_fast (const guint8     *data,
                         gsize             len,
                         MshedDiagnostics *diags)
{
  Fast *f;

  if (data == NULL || len < HEADER_SIZE || len > G_MAXUINT32)
    return FALSE;
  f = g_private_get (&fast_key);
  if (f == NULL)
    {
      f = g_new0 (Fast, 1);
      g_private_set (&fast_key, f);
    }
  memset (f, 0, G_STRUCT_OFFSET (Fast, meshes));
  if (++f->gen == 0)
    {
      /* after 2^32 files: every slot is free again */
      memset (f->cache, 0, sizeof f->cache);
      if (f->siblings)
        memset (f->siblings, 0, f->n_siblings * sizeof (Sibling));
      if (f->objects)
        memset (f->objects, 0, f->n_objects * sizeof (ObjectSlot));
      f->gen = 1;
    }
  f->data = data;
  f->len = len;
  return validate (f, diags);
}
