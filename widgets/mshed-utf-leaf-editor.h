/* mshed-utf-leaf-editor.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The typed editor of one UTF file (a leaf): a string, an int32 or float array with + and -
 * element buttons, a colour (3 or 4 floats, with a picker) or a vector (3 floats), as the DFM
 * schema (mshed-dfm-schema.h) or a well-known node name says (docs/conventions.md, "Typed UTF
 * leaves"). Every change replaces the leaf's payload through the document: one undo step.
 * Other leaves and directories show a note that the hex view edits them.
 */
#pragma once

#include <gtk/gtk.h>

#include "mshed-document.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_UTF_LEAF_UNTYPED,
  MSHED_UTF_LEAF_STRING,
  MSHED_UTF_LEAF_INT32,
  MSHED_UTF_LEAF_FLOAT,
  MSHED_UTF_LEAF_COLOUR,
  MSHED_UTF_LEAF_VECTOR,
} MshedUtfLeafKind;

#define MSHED_TYPE_UTF_LEAF_EDITOR (mshed_utf_leaf_editor_get_type ())
G_DECLARE_FINAL_TYPE (MshedUtfLeafEditor, mshed_utf_leaf_editor, MSHED, UTF_LEAF_EDITOR,
                      GtkWidget)

GtkWidget        *mshed_utf_leaf_editor_new          (void);
/* @node (nullable) of @document's tree. */
void              mshed_utf_leaf_editor_set_node     (MshedUtfLeafEditor *self,
                                                      MshedDocument      *document,
                                                      MshedUtfNode       *node);
MshedUtfLeafKind  mshed_utf_leaf_editor_get_kind     (MshedUtfLeafEditor *self);
/* What the editor offers for @node: its kind, and whether elements may be added. */
MshedUtfLeafKind  mshed_utf_leaf_kind_for_node       (MshedDocument      *document,
                                                      MshedUtfNode       *node,
                                                      gboolean           *resizable);
/* The entry of element @index (the string's entry: 0), for tests. */
GtkEditable      *mshed_utf_leaf_editor_get_entry    (MshedUtfLeafEditor *self,
                                                      guint               index);
/* A colour's picker (a GtkColorButton; NULL for other kinds): a colour it takes, from its
 * dialog or set through its API, is written as one undo step. */
GtkColorChooser  *mshed_utf_leaf_editor_get_colour_button (MshedUtfLeafEditor *self);

G_END_DECLS
