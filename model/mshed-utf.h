/* mshed-utf.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Freelancer UTF container (docs/utf.md): a tree of directories and files parsed from a
 * (mapped) byte buffer without copying payloads, case-insensitive lookup with case-preserving
 * names, invertible tree edits, and a writer that gives back an unmodified file byte for byte,
 * patches an edited one (§7) and lays out new trees canonically (§8).
 *
 * Nodes are plain structs owned by their container. An edit that takes a subtree out of the
 * tree (mshed_utf_remove) hands it to the caller, who either puts it back (the inverse edit)
 * or frees it with mshed_utf_node_free. A node keeps the memory of the entry it was read from,
 * so undoing every edit writes the original bytes again.
 */
#pragma once

#include <glib-object.h>

#include "mshed-model-types.h"
#include "mshed-utf-crc.h"

G_BEGIN_DECLS

#define MSHED_UTF_SIGNATURE       0x20465455u  /* "UTF " */
#define MSHED_UTF_VERSION         0x101u
#define MSHED_UTF_HEADER_SIZE     56u
#define MSHED_UTF_ENTRY_SIZE      44u
#define MSHED_UTF_ATTR_DIRECTORY  0x10u
#define MSHED_UTF_ATTR_FILE       0x80u
#define MSHED_UTF_ROOT_NAME       "\\"
#define MSHED_UTF_MAX_DEPTH       256u          /* directory nesting the reader accepts */
#define MSHED_UTF_LIBRELANCER_TIME     0x86914F45u
#define MSHED_UTF_LIBRELANCER_FILETIME G_GUINT64_CONSTANT (125596224000000000)

typedef struct _MshedUtf MshedUtf;
typedef struct _MshedUtfNode MshedUtfNode;

/* The 56-byte header, field by field (docs/utf.md §2). */
typedef struct {
  guint32 signature;
  guint32 version;
  guint32 tree_offset;
  guint32 tree_size;
  guint32 entry_offset;
  guint32 entry_size;
  guint32 names_offset;
  guint32 names_size_allocated;
  guint32 names_size_used;
  guint32 data_offset;
  guint32 unused_offset;
  guint32 unused_size;
  guint64 filetime;
} MshedUtfHeader;

/* One 44-byte tree entry, field by field (docs/utf.md §3). */
typedef struct {
  guint32 next_offset;
  guint32 name_offset;
  guint32 file_attributes;
  guint32 sharing_attributes;
  guint32 child_offset;
  guint32 data_size_allocated;
  guint32 data_size_used;
  guint32 data_size_uncompressed;
  guint32 create_time;
  guint32 access_time;
  guint32 modify_time;
} MshedUtfEntry;

typedef enum {
  MSHED_UTF_TIME_CREATE,
  MSHED_UTF_TIME_ACCESS,
  MSHED_UTF_TIME_MODIFY,
} MshedUtfTime;

typedef enum {
  MSHED_UTF_WRITE_PRESERVE,   /* the source bytes, patched where edited (docs/utf.md §7) */
  MSHED_UTF_WRITE_CANONICAL,  /* a fresh file in the canonical layout (docs/utf.md §8) */
} MshedUtfWriteMode;

#define MSHED_TYPE_UTF (mshed_utf_get_type ())
GType mshed_utf_get_type (void) G_GNUC_CONST;

/* TRUE when @path names a regular file that starts with the UTF signature (docs/utf.md §2). */
gboolean        mshed_utf_file_has_signature  (const char        *path);

/* Container */
MshedUtf       *mshed_utf_new                 (void);
MshedUtf       *mshed_utf_parse               (GBytes            *bytes,
                                               MshedMode          mode,
                                               MshedDiagnostics  *diags,
                                               GError           **error);
MshedUtf       *mshed_utf_parse_readonly      (GBytes            *bytes,
                                               MshedMode          mode,
                                               MshedDiagnostics  *diags,
                                               GError           **error);
MshedUtf       *mshed_utf_ref                 (MshedUtf          *self);
void            mshed_utf_unref               (MshedUtf          *self);
MshedUtf       *mshed_utf_copy                (const MshedUtf    *self);
GBytes         *mshed_utf_get_source          (const MshedUtf    *self);
const MshedUtfHeader *mshed_utf_get_header    (const MshedUtf    *self);
guint64         mshed_utf_get_filetime        (const MshedUtf    *self);
void            mshed_utf_set_filetime        (MshedUtf          *self,
                                               guint64            filetime);
guint32         mshed_utf_get_new_entry_time  (const MshedUtf    *self);
void            mshed_utf_set_new_entry_time  (MshedUtf          *self,
                                               guint32            dos_time);
gboolean        mshed_utf_is_modified         (const MshedUtf    *self);
gboolean        mshed_utf_is_readonly         (const MshedUtf    *self);
gboolean        mshed_utf_is_canonical        (MshedUtf          *self);
gboolean        mshed_utf_is_patchable        (const MshedUtf    *self);
guint           mshed_utf_get_n_nodes         (const MshedUtf    *self);

/* Navigation */
MshedUtfNode   *mshed_utf_get_root            (const MshedUtf    *self);
MshedUtfNode   *mshed_utf_lookup              (const MshedUtf    *self,
                                               const char        *path);
MshedUtfNode   *mshed_utf_node_lookup         (const MshedUtfNode *dir,
                                               const char        *name);
MshedUtfNode   *mshed_utf_node_get_parent     (const MshedUtfNode *node);
MshedUtfNode   *mshed_utf_node_get_first_child (const MshedUtfNode *node);
MshedUtfNode   *mshed_utf_node_get_next       (const MshedUtfNode *node);
MshedUtfNode   *mshed_utf_node_get_nth_child  (const MshedUtfNode *node,
                                               guint              index);
guint           mshed_utf_node_get_n_children (const MshedUtfNode *node);
guint           mshed_utf_node_get_index      (const MshedUtfNode *node);
MshedUtfNode   *mshed_utf_node_next_preorder  (const MshedUtfNode *node,
                                               const MshedUtfNode *top);
gboolean        mshed_utf_node_is_ancestor    (const MshedUtfNode *ancestor,
                                               const MshedUtfNode *node);

/* Node properties */
const char     *mshed_utf_node_get_name       (const MshedUtfNode *node);
char           *mshed_utf_node_dup_path       (const MshedUtfNode *node);
guint32         mshed_utf_node_get_crc        (const MshedUtfNode *node);
gboolean        mshed_utf_node_is_directory   (const MshedUtfNode *node);
GBytes         *mshed_utf_node_get_data       (const MshedUtfNode *node);
const guint8   *mshed_utf_node_peek_data      (const MshedUtfNode *node,
                                               gsize             *size);
guint32         mshed_utf_node_get_attributes (const MshedUtfNode *node);
guint32         mshed_utf_node_get_sharing    (const MshedUtfNode *node);
guint32         mshed_utf_node_get_time       (const MshedUtfNode *node,
                                               MshedUtfTime       which);
gboolean        mshed_utf_node_get_source_entry (const MshedUtf   *self,
                                               const MshedUtfNode *node,
                                               guint32           *tree_offset,
                                               MshedUtfEntry     *entry);

/* Tree edits: each has an exact inverse (see the function comments) */
MshedUtfNode   *mshed_utf_node_new_directory  (MshedUtf          *self,
                                               const char        *name);
MshedUtfNode   *mshed_utf_node_new_file       (MshedUtf          *self,
                                               const char        *name,
                                               GBytes            *data);
void            mshed_utf_node_free           (MshedUtfNode      *node);
gboolean        mshed_utf_validate_name       (const char        *name,
                                               GError           **error);
gboolean        mshed_utf_check_child_name    (const MshedUtfNode *dir,
                                               const char        *name,
                                               const MshedUtfNode *exclude,
                                               GError           **error);
gboolean        mshed_utf_insert_child        (MshedUtf          *self,
                                               MshedUtfNode      *parent,
                                               guint              index,
                                               MshedUtfNode      *node,
                                               GError           **error);
/* Building a new tree (generators, converters): a new last child of @parent. The names are
 * the builder's own, so they are not checked. */
MshedUtfNode   *mshed_utf_append_directory    (MshedUtf          *self,
                                               MshedUtfNode      *parent,
                                               const char        *name);
void            mshed_utf_append_file         (MshedUtf          *self,
                                               MshedUtfNode      *parent,
                                               const char        *name,
                                               const void        *data,
                                               gsize              len);
/* a file holding @value and its NUL */
void            mshed_utf_append_text         (MshedUtf          *self,
                                               MshedUtfNode      *parent,
                                               const char        *name,
                                               const char        *value);
gboolean        mshed_utf_insert_sibling      (MshedUtf          *self,
                                               MshedUtfNode      *sibling,
                                               MshedUtfNode      *node,
                                               GError           **error);
MshedUtfNode   *mshed_utf_remove              (MshedUtf          *self,
                                               MshedUtfNode      *node,
                                               MshedUtfNode     **out_parent,
                                               guint             *out_index);
gboolean        mshed_utf_move                (MshedUtf          *self,
                                               MshedUtfNode      *node,
                                               MshedUtfNode      *new_parent,
                                               guint              index,
                                               MshedUtfNode     **out_old_parent,
                                               guint             *out_old_index,
                                               GError           **error);
char           *mshed_utf_rename              (MshedUtf          *self,
                                               MshedUtfNode      *node,
                                               const char        *name);
GBytes         *mshed_utf_set_data            (MshedUtf          *self,
                                               MshedUtfNode      *node,
                                               GBytes            *data);
guint32         mshed_utf_set_time            (MshedUtf          *self,
                                               MshedUtfNode      *node,
                                               MshedUtfTime       which,
                                               guint32            dos_time);

/* Writing */
GBytes         *mshed_utf_serialize           (MshedUtf          *self,
                                               MshedUtfWriteMode  mode,
                                               gboolean          *out_repacked,
                                               GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedUtf, mshed_utf_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MshedUtfNode, mshed_utf_node_free)

G_END_DECLS
