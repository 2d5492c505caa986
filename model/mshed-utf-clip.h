/* mshed-utf-clip.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * UTF subtrees on the clipboard (docs/conventions.md, "UTF subtrees on the clipboard"): the
 * copied nodes travel as the entries of the root of a small canonical UTF file written by our
 * own writer, so names, payload bytes, attributes, times and structure survive between two
 * open files. Pasting takes them back as detached copies and inserts them as one undo step,
 * renaming a node whose name is taken to the first free "NAME (2)", "NAME (3)", ...
 */
#pragma once

#include "mshed-document.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

/* the private clipboard type of a serialised subtree */
#define MSHED_UTF_CLIP_MIME_TYPE "application/x-mshed-utf-subtree"

/* A detached deep copy of @node's subtree: names, payloads (shared), attributes, times. */
MshedUtfNode *mshed_utf_node_copy        (const MshedUtfNode *node);
/* @nodes (none the root, none inside another) as the root's entries of a canonical UTF file. */
GBytes       *mshed_utf_clip_serialize   (MshedUtfNode *const *nodes,
                                          guint               n_nodes,
                                          GError            **error);
/* The subtrees of a clip (hostile input): detached copies, an array that frees them. Fails
 * unless @bytes is a UTF file whose root holds at least one entry. */
GPtrArray    *mshed_utf_clip_parse       (GBytes             *bytes,
                                          GError            **error);
/* The text/plain fallback: the path of every node of @nodes' subtrees, one a line, a
 * directory's ending in a backslash. */
char         *mshed_utf_clip_dup_text    (MshedUtfNode *const *nodes,
                                          guint               n_nodes);
/* @name when no child of @dir has it (case-insensitive), else the first free "@name (N)",
 * N = 2, 3, ..., with @name cut to keep the whole within 255 bytes. */
char         *mshed_utf_clip_free_name   (const MshedUtfNode *dir,
                                          const char         *name);
/* Inserts the subtrees of @clip into @document as one undo step: under directory @target at
 * its end, or right after @target when it is a file. Colliding names are renamed
 * (mshed_utf_clip_free_name). @out_nodes (nullable) receives the inserted top nodes (owned
 * by the tree). Nothing changes on failure. */
gboolean      mshed_utf_clip_paste       (MshedDocument      *document,
                                          MshedUtfNode       *target,
                                          GBytes             *clip,
                                          GPtrArray         **out_nodes,
                                          GError            **error);
/* The same under directory @parent at child index @index (G_MAXUINT or past the end: at its
 * end), e.g. where a dragged subtree is dropped. */
gboolean      mshed_utf_clip_paste_at    (MshedDocument      *document,
                                          MshedUtfNode       *parent,
                                          guint               index,
                                          GBytes             *clip,
                                          GPtrArray         **out_nodes,
                                          GError            **error);

G_END_DECLS
