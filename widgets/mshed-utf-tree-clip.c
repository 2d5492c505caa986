/* mshed-utf-tree-clip.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What moves subtrees and payloads in and out of the UTF tree: the clipboard (a subtree as a
 * small UTF file under a private type plus a text/plain list of paths, mshed-utf-clip.h), drag
 * and drop of rows (before, into, after a node: moved inside their own tree, copied into another
 * window's), a leaf's payload imported from or exported to a file, and the context menu that
 * offers them.
 */
#define G_LOG_DOMAIN "mshed-utf-tree"

#include "config.h"

#include <glib/gi18n.h>

#include "mshed-save.h"
#include "mshed-utf-clip.h"
#include "mshed-utf-tree-private.h"

/* Clipboard --------------------------------------------------------------------------------- */

static void
refuse (MshedUtfTree *self,
        const char   *message)
{
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, message);

  gtk_widget_error_bell (GTK_WIDGET (self));
  _mshed_utf_tree_report (self, error);
}

gboolean
mshed_utf_tree_copy (MshedUtfTree *self,
                     GError      **error)
{
  MshedUtfNode *node;
  g_autoptr(GBytes) clip = NULL;
  g_autoptr(GBytes) text_bytes = NULL;
  g_autofree char *text = NULL;
  GdkContentProvider *providers[2];
  g_autoptr(GdkContentProvider) union_ = NULL;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);

  node = mshed_utf_tree_get_selected (self);
  if (node == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Select a node of the UTF tree to copy"));
      return FALSE;
    }
  clip = mshed_utf_clip_serialize (&node, 1, error);
  if (clip == NULL)
    return FALSE;
  text = mshed_utf_clip_dup_text (&node, 1);
  text_bytes = g_bytes_new_take (text, strlen (text));
  text = NULL;
  providers[0] = gdk_content_provider_new_for_bytes (MSHED_UTF_CLIP_MIME_TYPE, clip);
  providers[1] = gdk_content_provider_new_for_bytes ("text/plain;charset=utf-8", text_bytes);
  union_ = gdk_content_provider_new_union (providers, G_N_ELEMENTS (providers));
  return gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (self)), union_);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MshedUtfTree *self = MSHED_UTF_TREE (widget);
  g_autoptr(GError) error = NULL;

  if (!mshed_utf_tree_copy (self, &error))
    refuse (self, error->message);
}

static void
cut_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  MshedUtfTree *self = MSHED_UTF_TREE (widget);
  g_autoptr(GError) error = NULL;

  if (!mshed_utf_tree_copy (self, &error))
    refuse (self, error->message);
  else
    gtk_widget_activate_action (widget, "utf-tree.delete", NULL);
}

typedef struct {
  MshedUtfTree  *self;      /* a reference */
  MshedDocument *document;  /* the document the paste was asked for (a reference) */
  MshedUtfNode  *target;    /* compared by pointer: checked to be in the tree on arrival */
} PasteJob;

static void
paste_job_free (PasteJob *job)
{
  g_object_unref (job->self);
  g_object_unref (job->document);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PasteJob, paste_job_free)

static void
paste_bytes (MshedUtfTree *self,
             MshedUtfNode *target,
             GBytes       *clip)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pasted = NULL;

  if (!mshed_utf_clip_paste (self->document, target, clip, &pasted, &error))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      _mshed_utf_tree_report (self, error);
      return;
    }
  _mshed_utf_tree_select_and_announce (self, g_ptr_array_index (pasted, 0));
}

/* The clipboard's subtree (@clip, NULL for none) pasted where the paste was asked for. */
static void
paste_finish (MshedUtfTree *self,
              PasteJob     *job,
              GBytes       *clip)
{
  self->pastes_done++;
  g_clear_object (&self->paste_cancel);
  if (self->document != job->document || !_mshed_utf_tree_node_in_tree (self, job->target))
    return;
  if (clip == NULL)
    {
      refuse (self, _("The clipboard holds no UTF subtree to paste. Copy a node of a UTF tree "
                      "first (Ctrl+C)."));
      return;
    }
  paste_bytes (self, job->target, clip);
}

/* The clip read to its end (the last step of a paste). */
static void
paste_splice_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  g_autoptr(PasteJob) job = data;
  MshedUtfTree *self = job->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) clip = NULL;

  if (g_output_stream_splice_finish (G_OUTPUT_STREAM (source), result, &error) >= 0)
    clip = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (source));
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  paste_finish (self, job, clip);
}

static void
paste_read_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  g_autoptr(PasteJob) job = data;
  MshedUtfTree *self = job->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) sink = NULL;
  g_autoptr(GInputStream) in = gdk_clipboard_read_finish (GDK_CLIPBOARD (source), result, NULL,
                                                          &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (in == NULL)
    {
      paste_finish (self, job, NULL);
      return;
    }
  /* asynchronously: a clip of this process is written by the main loop itself */
  sink = g_memory_output_stream_new_resizable ();
  g_output_stream_splice_async (sink, in, G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
                                G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, G_PRIORITY_DEFAULT,
                                self->paste_cancel, paste_splice_cb, g_steal_pointer (&job));
}

void
mshed_utf_tree_paste (MshedUtfTree *self)
{
  static const char *types[] = { MSHED_UTF_CLIP_MIME_TYPE, NULL };
  MshedUtfNode *target;
  PasteJob *job;

  g_return_if_fail (MSHED_IS_UTF_TREE (self));

  if (self->document == NULL || mshed_document_get_utf (self->document) == NULL)
    return;
  target = mshed_utf_tree_get_selected (self);
  if (target == NULL)
    target = mshed_utf_get_root (mshed_document_get_utf (self->document));
  if (self->paste_cancel != NULL)
    g_cancellable_cancel (self->paste_cancel);
  g_clear_object (&self->paste_cancel);
  self->paste_cancel = g_cancellable_new ();
  job = g_new0 (PasteJob, 1);
  job->self = g_object_ref (self);
  job->document = g_object_ref (self->document);
  job->target = target;
  gdk_clipboard_read_async (gtk_widget_get_clipboard (GTK_WIDGET (self)), types,
                            G_PRIORITY_DEFAULT, self->paste_cancel, paste_read_cb, job);
}

guint
mshed_utf_tree_get_n_pastes_done (MshedUtfTree *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), 0);

  return self->pastes_done;
}

static void
paste_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  mshed_utf_tree_paste (MSHED_UTF_TREE (widget));
}

/* Drag and drop ---------------------------------------------------------------------------- */

struct _MshedUtfTreeDrag
{
  MshedDocument *document;  /* a reference */
  MshedUtfNode  *node;      /* compared by pointer: checked to be in the tree on arrival */
  GBytes        *clip;
};

G_DEFINE_BOXED_TYPE (MshedUtfTreeDrag, mshed_utf_tree_drag, mshed_utf_tree_drag_ref,
                     mshed_utf_tree_drag_unref)

MshedUtfTreeDrag *
mshed_utf_tree_drag_new (MshedDocument *document,
                         MshedUtfNode  *node,
                         GError       **error)
{
  MshedUtfTreeDrag *drag;
  g_autoptr(GBytes) clip = NULL;

  g_return_val_if_fail (MSHED_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (node != NULL, NULL);

  /* the subtree as it is now: the drop may land in another document */
  if ((clip = mshed_utf_clip_serialize (&node, 1, error)) == NULL)
    return NULL;
  drag = g_rc_box_new0 (MshedUtfTreeDrag);
  drag->document = g_object_ref (document);
  drag->node = node;
  drag->clip = g_steal_pointer (&clip);
  return drag;
}

MshedUtfTreeDrag *
mshed_utf_tree_drag_ref (MshedUtfTreeDrag *drag)
{
  return g_rc_box_acquire (drag);
}

static void
drag_clear (MshedUtfTreeDrag *drag)
{
  g_object_unref (drag->document);
  g_bytes_unref (drag->clip);
}

void
mshed_utf_tree_drag_unref (MshedUtfTreeDrag *drag)
{
  g_rc_box_release_full (drag, (GDestroyNotify) drag_clear);
}

/* Where a drop at @position of @target puts a node: child @index (counting every child) of
 * directory @parent. INTO a file means AFTER it; BEFORE or AFTER the root means into it. */
static void
drop_place (MshedUtfNode          *target,
            MshedUtfDropPosition   position,
            MshedUtfNode         **parent,
            guint                 *index)
{
  if (position == MSHED_UTF_DROP_INTO && !mshed_utf_node_is_directory (target))
    position = MSHED_UTF_DROP_AFTER;
  if (position != MSHED_UTF_DROP_INTO && mshed_utf_node_get_parent (target) == NULL)
    position = MSHED_UTF_DROP_INTO;
  if (position == MSHED_UTF_DROP_INTO)
    {
      *parent = target;
      *index = mshed_utf_node_get_n_children (target);
    }
  else
    {
      *parent = mshed_utf_node_get_parent (target);
      *index = mshed_utf_node_get_index (target) + (position == MSHED_UTF_DROP_AFTER ? 1 : 0);
    }
}

gboolean
mshed_utf_tree_drop_node (MshedUtfTree         *self,
                          MshedUtfNode         *node,
                          MshedUtfNode         *target,
                          MshedUtfDropPosition  position,
                          GError              **error)
{
  MshedUtfNode *parent;
  guint index;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);

  if (self->document == NULL || !_mshed_utf_tree_node_in_tree (self, node) ||
      !_mshed_utf_tree_node_in_tree (self, target) || mshed_utf_node_get_parent (node) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Only a node of this tree, not its root, can be moved here"));
      return FALSE;
    }
  if (node == target || mshed_utf_node_is_ancestor (node, target))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("A node cannot be moved into its own subtree"));
      return FALSE;
    }
  drop_place (target, position, &parent, &index);
  /* the index counts the children without @node (mshed_document_utf_move) */
  if (mshed_utf_node_get_parent (node) == parent && mshed_utf_node_get_index (node) < index)
    index--;
  if (mshed_utf_node_get_parent (node) == parent && mshed_utf_node_get_index (node) == index)
    return TRUE;  /* dropped where it is */
  if (!mshed_document_utf_move (self->document, node, parent, index, error))
    return FALSE;
  _mshed_utf_tree_select_and_announce (self, node);
  return TRUE;
}

gboolean
mshed_utf_tree_drop (MshedUtfTree         *self,
                     MshedUtfTreeDrag     *drag,
                     MshedUtfNode         *target,
                     MshedUtfDropPosition  position,
                     GError              **error)
{
  g_autoptr(GPtrArray) pasted = NULL;
  MshedUtfNode *parent;
  guint index;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);
  g_return_val_if_fail (drag != NULL, FALSE);

  if (drag->document == self->document)
    return mshed_utf_tree_drop_node (self, drag->node, target, position, error);
  if (self->document == NULL || !_mshed_utf_tree_node_in_tree (self, target))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("A UTF subtree can only be dropped on a node of a UTF tree"));
      return FALSE;
    }
  /* from another file: a copy, as a paste there would make it */
  drop_place (target, position, &parent, &index);
  if (!mshed_utf_clip_paste_at (self->document, parent, index, drag->clip, &pasted, error))
    return FALSE;
  _mshed_utf_tree_select_and_announce (self, g_ptr_array_index (pasted, 0));
  return TRUE;
}

static MshedUtfNode *
item_node (GtkListItem *list_item)
{
  return _mshed_utf_tree_row_node (gtk_list_item_get_item (list_item));
}

static GdkContentProvider *
drag_prepare_cb (GtkDragSource *source,
                 double         x,
                 double         y,
                 GtkListItem   *list_item)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  MshedUtfTree *self = MSHED_UTF_TREE (gtk_widget_get_ancestor (row, MSHED_TYPE_UTF_TREE));
  MshedUtfNode *node = item_node (list_item);
  g_autoptr(MshedUtfTreeDrag) drag = NULL;

  /* the root stays where it is */
  if (node == NULL || mshed_utf_node_get_parent (node) == NULL || self->document == NULL)
    return NULL;
  if ((drag = mshed_utf_tree_drag_new (self->document, node, NULL)) == NULL)
    return NULL;
  return gdk_content_provider_new_typed (MSHED_TYPE_UTF_TREE_DRAG, drag);
}

/* Where a drop at @y on a row of height @height goes: the top quarter before, the bottom
 * quarter after, the middle into a directory (before or after a file, by halves). */
static MshedUtfDropPosition
drop_position (MshedUtfNode *target,
               double        y,
               double        height)
{
  gboolean dir = target != NULL && mshed_utf_node_is_directory (target);

  if (dir && y >= height / 4 && y < height * 3 / 4)
    return MSHED_UTF_DROP_INTO;
  return y < height / 2 ? MSHED_UTF_DROP_BEFORE : MSHED_UTF_DROP_AFTER;
}

static gboolean
drop_cb (GtkDropTarget *drop,
         const GValue  *value,
         double         x,
         double         y,
         GtkListItem   *list_item)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (drop));
  MshedUtfTree *self = MSHED_UTF_TREE (gtk_widget_get_ancestor (row, MSHED_TYPE_UTF_TREE));
  MshedUtfTreeDrag *drag = g_value_get_boxed (value);
  MshedUtfNode *target = item_node (list_item);
  g_autoptr(GError) error = NULL;

  if (drag == NULL || target == NULL ||
      !mshed_utf_tree_drop (self, drag, target,
                            drop_position (target, y, gtk_widget_get_height (row)), &error))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      if (error != NULL && drag != NULL && drag->document != self->document)
        _mshed_utf_tree_report (self, error);
      return FALSE;
    }
  return TRUE;
}

/* Context menu ------------------------------------------------------------------------------ */

static void
context_pressed_cb (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    GtkListItem     *list_item)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  MshedUtfTree *self = MSHED_UTF_TREE (gtk_widget_get_ancestor (row, MSHED_TYPE_UTF_TREE));
  MshedUtfNode *node = item_node (list_item);
  graphene_point_t p;
  GdkRectangle at = { 0, 0, 1, 1 };

  if (node == NULL)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  _mshed_utf_tree_select_and_announce (self, node);
  if (gtk_widget_compute_point (row, GTK_WIDGET (self), &GRAPHENE_POINT_INIT ((float) x,
                                                                            (float) y), &p))
    {
      at.x = (int) p.x;
      at.y = (int) p.y;
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_popover), &at);
  gtk_popover_popup (GTK_POPOVER (self->context_popover));
}

void
_mshed_utf_tree_clip_setup_row (MshedUtfTree *self,
                                GtkListItem  *list_item,
                                GtkWidget    *box)
{
  GtkDragSource *source = gtk_drag_source_new ();
  GtkDropTarget *target = gtk_drop_target_new (MSHED_TYPE_UTF_TREE_DRAG,
                                               GDK_ACTION_MOVE | GDK_ACTION_COPY);
  GtkGesture *context = gtk_gesture_click_new ();

  /* a move inside the tree, a copy into another window's */
  gtk_drag_source_set_actions (source, GDK_ACTION_MOVE | GDK_ACTION_COPY);
  g_signal_connect (source, "prepare", G_CALLBACK (drag_prepare_cb), list_item);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (source));
  g_signal_connect (target, "drop", G_CALLBACK (drop_cb), list_item);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (target));
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (context), GDK_BUTTON_SECONDARY);
  g_signal_connect (context, "pressed", G_CALLBACK (context_pressed_cb), list_item);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (context));
}

GtkPopover *
mshed_utf_tree_get_context_menu (MshedUtfTree *self)
{
  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), NULL);

  return GTK_POPOVER (self->context_popover);
}

/* Leaf import and export -------------------------------------------------------------------- */

static MshedUtfNode *
selected_file (MshedUtfTree *self,
               GError      **error)
{
  MshedUtfNode *node = mshed_utf_tree_get_selected (self);

  if (node == NULL || mshed_utf_node_is_directory (node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("Select a file of the UTF tree: a directory holds no data"));
      return NULL;
    }
  return node;
}

gboolean
mshed_utf_tree_import_file (MshedUtfTree *self,
                            GFile        *file,
                            GError      **error)
{
  MshedUtfNode *node;
  g_autoptr(GBytes) data = NULL;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if ((node = selected_file (self, error)) == NULL)
    return FALSE;
  data = g_file_load_bytes (file, NULL, NULL, error);
  if (data == NULL)
    return FALSE;
  if (g_bytes_get_size (data) > G_MAXUINT32)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("%s is larger than a UTF file entry can hold (4 GiB)"), name);
      return FALSE;
    }
  return mshed_document_utf_set_data (self->document, node, data, error);
}

gboolean
mshed_utf_tree_export_file (MshedUtfTree *self,
                            GFile        *file,
                            GError      **error)
{
  MshedUtfNode *node;
  g_autoptr(GBytes) data = NULL;
  g_autofree char *path = NULL;
  const guint8 *bytes;
  gsize size = 0;

  g_return_val_if_fail (MSHED_IS_UTF_TREE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if ((node = selected_file (self, error)) == NULL)
    return FALSE;
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Data can only be exported to a local file"));
      return FALSE;
    }
  bytes = mshed_utf_node_peek_data (node, &size);
  data = g_bytes_new (bytes, size);
  return mshed_save_atomic (path, data, MSHED_SAVE_ATOMIC_NO_BACKUP, NULL, error);
}

static void
file_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  MshedUtfTree    *self)
{
  gboolean import = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "import"));
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      gboolean ok = import ? mshed_utf_tree_import_file (self, file, &error)
                           : mshed_utf_tree_export_file (self, file, &error);

      if (!ok)
        _mshed_utf_tree_report (self, error);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
file_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  MshedUtfTree *self = MSHED_UTF_TREE (widget);
  gboolean import = g_str_equal (action_name, "utf-tree.import");
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr(GError) error = NULL;
  GtkFileChooserNative *dialog;
  MshedUtfNode *node;

  if ((node = selected_file (self, &error)) == NULL)
    {
      refuse (self, error->message);
      return;
    }
  dialog = gtk_file_chooser_native_new (import ? _("Import Data From File")
                                               : _("Export Data to File"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        import ? GTK_FILE_CHOOSER_ACTION_OPEN
                                               : GTK_FILE_CHOOSER_ACTION_SAVE,
                                        import ? _("_Import") : _("_Export"), _("_Cancel"));
  if (!import)
    {
      g_autofree char *name = g_strdup (mshed_utf_node_get_name (node));

      g_strdelimit (name, "/\\", '_');
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
    }
  g_object_set_data (G_OBJECT (dialog), "import", GINT_TO_POINTER (import));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (file_response_cb), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Setup ------------------------------------------------------------------------------------- */

void
_mshed_utf_tree_clip_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "utf-tree.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "utf-tree.cut", NULL, cut_action);
  gtk_widget_class_install_action (widget_class, "utf-tree.paste", NULL, paste_action);
  gtk_widget_class_install_action (widget_class, "utf-tree.import", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "utf-tree.export", NULL, file_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "utf-tree.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK,
                                       "utf-tree.cut", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK,
                                       "utf-tree.paste", NULL);
}

void
_mshed_utf_tree_clip_init (MshedUtfTree *self)
{
  self->context_popover = gtk_popover_menu_new_from_model (self->context_menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_popover), FALSE);
  gtk_widget_set_halign (self->context_popover, GTK_ALIGN_START);
  gtk_widget_set_parent (self->context_popover, GTK_WIDGET (self));
}

void
_mshed_utf_tree_clip_dispose (MshedUtfTree *self)
{
  if (self->paste_cancel != NULL)
    g_cancellable_cancel (self->paste_cancel);
  g_clear_object (&self->paste_cancel);
  g_clear_pointer (&self->context_popover, gtk_widget_unparent);
}
