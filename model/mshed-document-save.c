/* mshed-document-save.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Serialising and saving a document. The bytes written are those of the whole file (for a
 * nested model: the archive with that entry replaced), laid out losslessly (mshed-nres.h) or,
 * on request, repacked. Before anything is written the whole file is checked with the strict
 * validator of `mshed-cli validate` (every container and every model it holds).
 */
#define G_LOG_DOMAIN "mshed-document"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "mshed-document-private.h"
#include "mshed-error.h"
#include "mshed-save.h"

/**
 * mshed_document_serialize:
 *
 * Returns: (transfer full): the model's NRes bytes
 */
GBytes *
mshed_document_serialize (MshedDocument *self)
{
  MshedNres *nres;
  guint64 state;

  if (self->utf != NULL)
    {
      g_autoptr(GError) error = NULL;
      GBytes *bytes = _mshed_document_utf_serialize (self, &error);

      if (bytes == NULL)
        g_critical ("the UTF tree of %s cannot be written: %s", self->title, error->message);
      return bytes;
    }
  nres = mshed_model_get_nres (mshed_document_get_model (self));
  state = mshed_history_get_state_id (self->history);

  /* the state of the file last read (opened or reloaded): exactly its bytes, even for a
   * non-canonical container that a structural edit + undo would otherwise have repacked */
  if (self->source && state == self->source_state)
    return g_bytes_ref (mshed_nres_get_source (mshed_model_get_nres (self->source->model)));
  /* every edit undone: the bytes first loaded */
  if (state == 0 && mshed_nres_get_source (nres) != NULL)
    return g_bytes_ref (mshed_nres_get_source (nres));
  return mshed_model_serialize (self->model);
}

/* The whole file; @repack rebuilds the model's container and the archive around it in the
 * canonical layout (mshed_nres_repack). */
static GBytes *
serialize_file (MshedDocument *self,
                gboolean       repack)
{
  g_autoptr(GBytes) model_bytes = NULL;
  g_autoptr(MshedNres) outer = NULL;
  gboolean nested = self->source != NULL && self->source->entry_index >= 0;

  if (self->utf != NULL)
    return repack ? mshed_utf_serialize (self->utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL)
                  : mshed_document_serialize (self);
  if (repack)
    model_bytes = mshed_nres_repack (mshed_model_get_nres (self->model));
  else if (!nested)
    return mshed_document_serialize (self);
  else if (mshed_history_get_state_id (self->history) == self->source_state)
    return g_bytes_ref (self->source->file_bytes);
  else
    model_bytes = mshed_document_serialize (self);
  if (!nested)
    return g_steal_pointer (&model_bytes);

  outer = mshed_nres_copy (self->source->file_nres);
  mshed_nres_set_payload (outer, (guint) self->source->entry_index, model_bytes);
  return repack ? mshed_nres_repack (outer) : mshed_nres_serialize (outer, NULL);
}

/**
 * mshed_document_serialize_file:
 *
 * Returns: (transfer full): the bytes of the whole file
 */
GBytes *
mshed_document_serialize_file (MshedDocument *self)
{
  return serialize_file (self, FALSE);
}

/* Adds what repacking @nres drops. @where names the container; @base is where it starts in
 * the file (0 for the file's own container). */
static void
list_losses (GPtrArray       *lines,
             const MshedNres *nres,
             const char      *where,
             gboolean         nested,
             guint64          base)
{
  g_autoptr(GArray) blocks = mshed_nres_list_unreferenced (nres);

  for (guint i = 0; i < blocks->len; i++)
    {
      const MshedNresBlock *b = &g_array_index (blocks, MshedNresBlock, i);
      gulong n = (gulong) MIN (b->size, G_MAXULONG);

      if (nested)
        g_ptr_array_add (lines,
                         g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                       "%s: %" PRIu64 " unreferenced byte at "
                                                       "offset %" PRIu64 " of the model (file "
                                                       "offset %" PRIu64 ", 0x%" PRIX64 ") is "
                                                       "dropped",
                                                       "%s: %" PRIu64 " unreferenced bytes at "
                                                       "offset %" PRIu64 " of the model (file "
                                                       "offset %" PRIu64 ", 0x%" PRIX64 ") are "
                                                       "dropped", n),
                                          where, b->size, b->offset, base + b->offset,
                                          base + b->offset));
      else
        g_ptr_array_add (lines,
                         g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                       "%s: %" PRIu64 " unreferenced byte at "
                                                       "offset %" PRIu64 " (0x%" PRIX64 ") is "
                                                       "dropped",
                                                       "%s: %" PRIu64 " unreferenced bytes at "
                                                       "offset %" PRIu64 " (0x%" PRIX64 ") are "
                                                       "dropped", n),
                                          where, b->size, b->offset, b->offset));
    }
  if (!mshed_nres_sort_matches_names (nres))
    g_ptr_array_add (lines, g_strdup_printf (_("%s: the sort_index table differs from the name "
                                               "order and is rebuilt"), where));
}

/**
 * mshed_document_list_repack_losses:
 *
 * What saving with MSHED_SAVE_REPACK drops (docs/nres.md §6): one line per block of bytes that no
 * directory record references (which file or entry, offset and size), in the file's own
 * container and in the model's, and a line where the stored sort table is rebuilt.
 *
 * Returns: (transfer full) (element-type utf8): the lines; empty when a repack loses nothing
 */
GPtrArray *
mshed_document_list_repack_losses (MshedDocument *self)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  MshedNres *inner;
  const char *file = self->source ? self->source->path : _("the model");

  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), lines);
  if (self->utf != NULL)
    {
      /* docs/utf.md §8 keeps every node and payload; what goes is the layout itself */
      if (!mshed_utf_is_canonical (self->utf))
        g_ptr_array_add (lines, g_strdup_printf (_("%s: the layout, padding, unused dictionary "
                                                   "bytes and slack (written canonically, "
                                                   "docs/utf.md §8)"),
                                                 self->path ? self->path : _("the model")));
      return lines;
    }
  inner = mshed_model_get_nres (self->model);
  if (self->source != NULL && self->source->entry_index >= 0)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (self->source->file_nres,
                                                       (guint) self->source->entry_index);
      g_autofree char *where = g_strdup_printf ("%s:%s", file, self->source->entry);

      list_losses (lines, self->source->file_nres, file, FALSE, 0);
      list_losses (lines, inner, where, TRUE, e->orig_offset);
    }
  else
    list_losses (lines, inner, file, FALSE, 0);
  return lines;
}

/* The bytes about to be written pass the strict validator of `mshed-cli validate`. */
static gboolean
check_savable (MshedDocument *self,
               const char    *path,
               GBytes        *bytes,
               GError       **error)
{
  g_autoptr(MshedDiagnostics) strict = mshed_diagnostics_new ();
  g_autoptr(GError) unreadable = NULL;
  g_autofree char *first = NULL;
  guint n_errors;
  gboolean read;

  if (self->utf != NULL)
    read = _mshed_document_utf_check_savable (self, path, bytes, strict, &unreadable);
  else
    read = mshed_validate_file_bytes (bytes, MSHED_MODE_STRICT, strict, NULL, &unreadable);
  if (read && strict->n_errors == 0)
    return TRUE;
  for (guint i = 0; i < strict->items->len && first == NULL; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (strict->items, i);

      if (d->severity == MSHED_SEVERITY_ERROR)
        first = d->entry ? g_strdup_printf ("%s: %s", d->entry, d->message)
                         : g_strdup (d->message);
    }
  if (first == NULL)
    first = g_strdup (unreadable ? unreadable->message : "?");
  n_errors = MAX (strict->n_errors, 1);
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
               g_dngettext (GETTEXT_PACKAGE,
                            "Not saved: %s would fail strict validation with %u error (%s). "
                            "Fix it, or save anyway.",
                            "Not saved: %s would fail strict validation with %u errors (the "
                            "first: %s). Fix them, or save anyway.",
                            n_errors),
               path, n_errors, first);
  return FALSE;
}

static gboolean
save_to (MshedDocument  *self,
         const char     *path,
         MshedSaveFlags  flags,
         GError        **error)
{
  g_autoptr(GBytes) bytes = serialize_file (self, (flags & MSHED_SAVE_REPACK) != 0);

  if (bytes == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   _("Not saved: the tree of %s cannot be written"), path);
      return FALSE;
    }
  if (!(flags & MSHED_SAVE_ANYWAY) && !check_savable (self, path, bytes, error))
    return FALSE;
  if (!mshed_save_atomic (path, bytes,
                          (flags & MSHED_SAVE_NO_BACKUP) ? MSHED_SAVE_ATOMIC_NO_BACKUP : 0,
                          NULL, error))
    return FALSE;
  _mshed_document_saved (self, path);
  if (flags & MSHED_SAVE_REPACK)
    {
      g_autoptr(GError) local = NULL;

      /* continue from the repacked file, so a later save does not bring the layout back */
      if (!_mshed_document_reset_to_file (self, &local))
        g_debug ("after a repacking save of %s: %s", path, local->message);
    }
  return TRUE;
}

gboolean
mshed_document_save (MshedDocument  *self,
                     MshedSaveFlags  flags,
                     GError        **error)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (self->op_depth == 0, FALSE);
  if (self->path == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                   _("The model has no file yet; choose where to save it"));
      return FALSE;
    }
  return save_to (self, self->path, flags, error);
}

gboolean
mshed_document_save_as (MshedDocument  *self,
                        const char     *path,
                        MshedSaveFlags  flags,
                        GError        **error)
{
  g_return_val_if_fail (MSHED_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (self->op_depth == 0, FALSE);
  return save_to (self, path, flags, error);
}
