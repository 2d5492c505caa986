/* mshed-utf-private.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The structures shared by mshed-utf.c (tree and edits), mshed-utf-read.c (parser) and
 * mshed-utf-write.c (writers).
 */
#pragma once

#include "mshed-utf.h"

G_BEGIN_DECLS

/* the 11 fields of an entry, in file order (docs/utf.md §3) */
enum {
  F_NEXT,
  F_NAME,
  F_ATTR,
  F_SHARE,
  F_CHILD,
  F_ALLOC,
  F_USED,
  F_UNCOMPRESSED,
  F_CTIME,
  F_ATIME,
  F_MTIME,
  N_FIELDS
};

/* What the parser found for one entry. Never changed after parsing; shared by copies. */
typedef struct {
  guint32  slot;            /* offset of the entry in the tree block */
  guint32  f[N_FIELDS];     /* the raw fields */
  char    *name;            /* the name as read (read-only parse: the node's, not owned) */
  GBytes  *data;            /* file: the payload, a slice of the source (read-only: NULL) */
  guint64  ext_start;       /* file: absolute offset of the payload */
  guint64  ext_len;         /* file: bytes it occupies, max (allocated, used) within the file */
  guint    is_file : 1;
} MshedUtfSource;

struct _MshedUtfNode {
  MshedUtfNode *parent;
  MshedUtfNode *first_child;
  MshedUtfNode *last_child;
  MshedUtfNode *prev;
  MshedUtfNode *next;
  char         *name;          /* read-only parse: in the source or the arena, not owned */
  GBytes       *data;          /* files only, never NULL for a file (read-only parse: NULL) */
  const guint8 *peek;          /* read-only parse: a file's payload in the source */
  gsize         peek_len;
  guint32       attributes;
  guint32       sharing;
  guint32       times[3];      /* create, access, modify */
  guint32       sizes[3];      /* directories: allocated, used, uncompressed as read */
  gint64        src;           /* index in the source table, -1 for a node made by an edit */
  guint64       source_id;     /* which parse the index belongs to */
  guint         is_dir : 1;

  /* scratch of the writer */
  guint32       out_slot;
  guint32       out_name;
  guint32       out_data;
  guint32       out_alloc;
};

struct _MshedUtf {
  gatomicrefcount ref_count;
  GBytes        *source;       /* NULL for a new container */
  guint64        source_id;
  MshedUtfHeader header;       /* as read; for a new container, docs/utf.md §8 */
  GArray        *src;          /* MshedUtfSource, shared by copies */
  MshedUtfNode  *root;
  guint32        new_time;     /* DOS time of entries made by edits */
  guint          patchable : 1;  /* regions and entries do not overlap: edits can be patched */
  guint          modified : 1;
  gint           canonical;    /* -1 unknown, else whether the source is canonical */
  guint          readonly : 1; /* mshed_utf_parse_readonly: no edits, nodes in the arena */
  GPtrArray     *arena;        /* read-only: blocks of nodes and copied names, freed at once */
  MshedUtfNode  *block;        /* read-only: the block nodes are taken from */
  guint          block_used;
  guint          block_size;
};

/* three-way comparison for qsort callbacks */
static inline int
_mshed_utf_cmp_u64 (guint64 a,
                    guint64 b)
{
  return a < b ? -1 : a > b;
}

MshedUtf     *_mshed_utf_alloc        (void);
guint64       _mshed_utf_next_source_id (void);
MshedUtfNode *_mshed_utf_node_alloc   (gboolean      is_dir,
                                       const char   *name,
                                       GBytes       *data);
MshedUtfNode *_mshed_utf_arena_node   (MshedUtf     *self);
char         *_mshed_utf_arena_strndup (MshedUtf    *self,
                                        const char  *str,
                                        gsize        len);
void          _mshed_utf_append_child (MshedUtfNode *parent,
                                       MshedUtfNode *child);
const MshedUtfSource *_mshed_utf_node_source (const MshedUtf     *self,
                                              const MshedUtfNode *node);

G_END_DECLS
