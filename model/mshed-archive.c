/* mshed-archive.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Editing an NRes archive's entries as undoable commands (mshed-archive.h).
 */
#define G_LOG_DOMAIN "mshed-archive"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-archive.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-save.h"
#include "mshed-source.h"

/* One command: the container before and after it, and what it was. */
typedef struct {
  MshedNres *before;
  MshedNres *after;
  char      *label;
} Step;

struct _MshedArchive {
  GObject    parent_instance;

  char      *path;
  char      *base;     /* the file name, for messages */
  MshedNres *nres;     /* the state now: one of the steps' states, or the loaded one */
  GPtrArray *steps;    /* Step*, oldest first */
  guint      n_done;   /* steps[0 .. n_done-1] are applied */
  guint      saved;    /* n_done at the last save (or load) */
  gboolean   saved_lost;  /* the saved state was in a redo branch that an edit dropped */
};

G_DEFINE_FINAL_TYPE (MshedArchive, mshed_archive, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
step_free (Step *step)
{
  mshed_nres_unref (step->before);
  mshed_nres_unref (step->after);
  g_free (step->label);
  g_free (step);
}

static void
mshed_archive_finalize (GObject *object)
{
  MshedArchive *self = MSHED_ARCHIVE (object);

  g_free (self->path);
  g_free (self->base);
  g_clear_pointer (&self->nres, mshed_nres_unref);
  g_ptr_array_unref (self->steps);
  G_OBJECT_CLASS (mshed_archive_parent_class)->finalize (object);
}

static void
mshed_archive_class_init (MshedArchiveClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mshed_archive_finalize;

  /**
   * MshedArchive::changed:
   *
   * After every edit, undo, redo and save.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mshed_archive_init (MshedArchive *self)
{
  self->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) step_free);
}

MshedArchive *
mshed_archive_new_for_bytes (const char  *path,
                             GBytes      *bytes,
                             GError     **error)
{
  g_autoptr(MshedArchive) self = g_object_new (MSHED_TYPE_ARCHIVE, NULL);
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(GError) local = NULL;

  self->path = g_strdup (path);
  self->base = g_path_get_basename (path);
  self->nres = mshed_nres_parse (bytes, MSHED_MODE_TOLERANT, diags, &local);
  if (self->nres == NULL)
    {
      g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
      return NULL;
    }
  return g_steal_pointer (&self);
}

MshedArchive *
mshed_archive_open (const char  *path,
                    GError     **error)
{
  g_autoptr(GBytes) bytes = mshed_load_file (path, error);

  return bytes ? mshed_archive_new_for_bytes (path, bytes, error) : NULL;
}

const char *
mshed_archive_get_path (MshedArchive *self)
{
  return self->path;
}

MshedNres *
mshed_archive_get_nres (MshedArchive *self)
{
  return self->nres;
}

guint
mshed_archive_get_n_entries (MshedArchive *self)
{
  return mshed_nres_get_n_entries (self->nres);
}

gboolean
mshed_archive_get_modified (MshedArchive *self)
{
  return self->saved_lost || self->saved != self->n_done;
}

gboolean
mshed_archive_can_undo (MshedArchive *self)
{
  return self->n_done > 0;
}

gboolean
mshed_archive_can_redo (MshedArchive *self)
{
  return self->n_done < self->steps->len;
}

const char *
mshed_archive_get_undo_label (MshedArchive *self)
{
  return self->n_done > 0 ? ((Step *) self->steps->pdata[self->n_done - 1])->label : NULL;
}

const char *
mshed_archive_get_redo_label (MshedArchive *self)
{
  return mshed_archive_can_redo (self) ? ((Step *) self->steps->pdata[self->n_done])->label
                                       : NULL;
}

static void
set_state (MshedArchive *self,
           MshedNres    *nres)
{
  g_clear_pointer (&self->nres, mshed_nres_unref);
  self->nres = mshed_nres_ref (nres);
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
mshed_archive_undo (MshedArchive *self)
{
  if (!mshed_archive_can_undo (self))
    return FALSE;
  self->n_done--;
  set_state (self, ((Step *) self->steps->pdata[self->n_done])->before);
  return TRUE;
}

gboolean
mshed_archive_redo (MshedArchive *self)
{
  if (!mshed_archive_can_redo (self))
    return FALSE;
  self->n_done++;
  set_state (self, ((Step *) self->steps->pdata[self->n_done - 1])->after);
  return TRUE;
}

/* Records @after (taken) as the state after a command labelled @label (taken). */
static void
push (MshedArchive *self,
      MshedNres    *after,
      char         *label)
{
  Step *step = g_new0 (Step, 1);

  if (self->n_done < self->steps->len)
    {
      /* the redo branch goes; so does the saved state when it was in it */
      if (self->saved > self->n_done)
        self->saved_lost = TRUE;
      g_ptr_array_set_size (self->steps, self->n_done);
    }
  step->before = mshed_nres_ref (self->nres);
  step->after = after;
  step->label = label;
  g_ptr_array_add (self->steps, step);
  self->n_done++;
  set_state (self, after);
}

static char *
entry_name (MshedNres *nres,
            guint      index)
{
  return mshed_nres_entry_dup_name (mshed_nres_peek_entry (nres, index));
}

static gboolean
check_index (MshedArchive  *self,
             guint          index,
             GError       **error)
{
  guint n = mshed_nres_get_n_entries (self->nres);

  if (index < n)
    return TRUE;
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
               _("%s has no entry #%u (%u entries)"), self->base, index, n);
  return FALSE;
}

gboolean
mshed_archive_encode_name (const char  *context,
                           const char  *name,
                           guint8       field[MSHED_NRES_NAME_SIZE],
                           GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(GBytes) raw = mshed_utf8_to_cp1251 (name, &local);
  gsize len;
  const guint8 *p;

  if (raw == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_ENCODING, _("%s: name “%s”: %s"),
                   context, name, local->message);
      return FALSE;
    }
  p = g_bytes_get_data (raw, &len);
  if (len == 0)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("%s: an entry name cannot be empty"), context);
      return FALSE;
    }
  if (memchr (p, 0, len) != NULL || len > MSHED_NRES_NAME_SIZE - 1)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                   _("%s: name “%s” is %zu bytes long in Windows-1251; the NRes name field "
                     "holds at most 35 (docs/nres.md §4)"), context, name, len);
      return FALSE;
    }
  memset (field, 0, MSHED_NRES_NAME_SIZE);
  memcpy (field, p, len);
  return TRUE;
}

/* Refuses a name that another entry than @index has (ASCII case folded). */
static gboolean
check_unique (MshedArchive *self,
              const guint8 *field,
              gint          index,
              const char   *name,
              GError      **error)
{
  for (guint i = 0; i < mshed_nres_get_n_entries (self->nres); i++)
    if ((gint) i != index &&
        mshed_nres_name_compare (mshed_nres_peek_entry (self->nres, i)->name, field) == 0)
      {
        g_autofree char *taken = entry_name (self->nres, i);

        g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_RANGE,
                     _("%s: “%s” is taken by entry #%u “%s” (case does not count); two "
                       "entries of one name can be told apart only by index"),
                     self->base, name, i, taken);
        return FALSE;
      }
  return TRUE;
}

gint
mshed_archive_add (MshedArchive  *self,
                   guint          position,
                   const char    *name,
                   guint32        type_id,
                   GBytes        *payload,
                   GError       **error)
{
  MshedNresEntry templ = { 0 };
  MshedNres *after;
  guint at;

  g_return_val_if_fail (MSHED_IS_ARCHIVE (self), -1);
  if (!mshed_archive_encode_name (self->base, name, templ.name, error) ||
      !check_unique (self, templ.name, -1, name, error))
    return -1;
  templ.type_id = type_id;
  after = mshed_nres_copy (self->nres);
  at = mshed_nres_insert_entry (after, MIN (position, mshed_nres_get_n_entries (after)), &templ,
                                payload);
  push (self, after, g_strdup_printf (_("Add “%s”"), name));
  return (gint) at;
}

gboolean
mshed_archive_replace (MshedArchive  *self,
                       guint          index,
                       GBytes        *payload,
                       GError       **error)
{
  g_autofree char *name = NULL;
  MshedNres *after;

  g_return_val_if_fail (MSHED_IS_ARCHIVE (self), FALSE);
  if (!check_index (self, index, error))
    return FALSE;
  name = entry_name (self->nres, index);
  after = mshed_nres_copy (self->nres);
  mshed_nres_set_payload (after, index, payload);
  push (self, after, g_strdup_printf (_("Replace “%s”"), name));
  return TRUE;
}

gboolean
mshed_archive_remove (MshedArchive  *self,
                      guint          index,
                      GError       **error)
{
  g_autofree char *name = NULL;
  MshedNres *after;

  g_return_val_if_fail (MSHED_IS_ARCHIVE (self), FALSE);
  if (!check_index (self, index, error))
    return FALSE;
  name = entry_name (self->nres, index);
  after = mshed_nres_copy (self->nres);
  mshed_nres_remove_entry (after, index);
  push (self, after, g_strdup_printf (_("Remove “%s”"), name));
  return TRUE;
}

gboolean
mshed_archive_rename (MshedArchive  *self,
                      guint          index,
                      const char    *name,
                      GError       **error)
{
  g_autofree char *old = NULL;
  guint8 field[MSHED_NRES_NAME_SIZE];
  MshedNres *after;

  g_return_val_if_fail (MSHED_IS_ARCHIVE (self), FALSE);
  if (!check_index (self, index, error) ||
      !mshed_archive_encode_name (self->base, name, field, error) ||
      !check_unique (self, field, (gint) index, name, error))
    return FALSE;
  old = entry_name (self->nres, index);
  after = mshed_nres_copy (self->nres);
  if (!mshed_nres_set_name (after, index, (const char *) field, error))
    {
      mshed_nres_unref (after);
      return FALSE;
    }
  push (self, after, g_strdup_printf (_("Rename “%s” to “%s”"), old, name));
  return TRUE;
}

gboolean
mshed_archive_move (MshedArchive  *self,
                    guint          index,
                    guint          to,
                    GError       **error)
{
  g_autoptr(GBytes) payload = NULL;
  g_autofree char *name = NULL;
  MshedNresEntry templ;
  MshedNres *after;

  g_return_val_if_fail (MSHED_IS_ARCHIVE (self), FALSE);
  if (!check_index (self, index, error) || !check_index (self, to, error))
    return FALSE;
  if (to == index)
    return TRUE;
  name = entry_name (self->nres, index);
  after = mshed_nres_copy (self->nres);
  /* as `mshed-cli archive move`: the same bytes, type, attributes and raw name */
  templ = *mshed_nres_peek_entry (after, index);
  payload = mshed_nres_entry_dup_bytes (&templ);
  mshed_nres_remove_entry (after, index);
  mshed_nres_insert_entry (after, to, &templ, payload);
  push (self, after, g_strdup_printf (_("Move “%s” to #%u"), name, to));
  return TRUE;
}

gboolean
mshed_archive_set_attributes (MshedArchive  *self,
                              guint          index,
                              guint32        type_id,
                              guint32        attr1,
                              guint32        attr2,
                              guint32        attr3,
                              GError       **error)
{
  const MshedNresEntry *now;
  MshedNresEntry *e;
  MshedNres *after;

  g_return_val_if_fail (MSHED_IS_ARCHIVE (self), FALSE);
  if (!check_index (self, index, error))
    return FALSE;
  now = mshed_nres_peek_entry (self->nres, index);
  if (now->type_id == type_id && now->attr1 == attr1 && now->attr2 == attr2 &&
      now->attr3 == attr3)
    return TRUE;
  after = mshed_nres_copy (self->nres);
  e = mshed_nres_get_entry (after, index);
  e->type_id = type_id;
  e->attr1 = attr1;
  e->attr2 = attr2;
  e->attr3 = attr3;
  mshed_nres_touch (after, index);
  {
    g_autofree char *name = entry_name (after, index);

    push (self, after, g_strdup_printf (_("Set the attributes of “%s”"), name));
  }
  return TRUE;
}

void
mshed_archive_validate_entry (MshedArchive     *self,
                              guint             index,
                              MshedDiagnostics *diags)
{
  const MshedNresEntry *e;

  g_return_if_fail (MSHED_IS_ARCHIVE (self));
  if (index >= mshed_nres_get_n_entries (self->nres))
    return;
  e = mshed_nres_peek_entry (self->nres, index);
  if (mshed_entry_holds_model (e))
    mshed_validate_nested_entry (e, index, MSHED_MODE_STRICT, diags);
}

GBytes *
mshed_archive_serialize (MshedArchive *self)
{
  return mshed_nres_serialize (self->nres, NULL);
}

gboolean
mshed_archive_save (MshedArchive   *self,
                    MshedSaveFlags  flags,
                    GError        **error)
{
  g_autoptr(GBytes) bytes = mshed_archive_serialize (self);

  if (!(flags & MSHED_SAVE_ANYWAY))
    {
      g_autoptr(MshedDiagnostics) strict = mshed_diagnostics_new ();
      g_autoptr(GError) unreadable = NULL;
      g_autofree char *first = NULL;
      gboolean read = mshed_validate_file_bytes (bytes, MSHED_MODE_STRICT, strict, NULL,
                                                 &unreadable);
      guint n_errors = MAX (strict->n_errors, 1);

      for (guint i = 0; i < strict->items->len && first == NULL; i++)
        {
          const MshedDiagnostic *d = g_ptr_array_index (strict->items, i);

          if (d->severity == MSHED_SEVERITY_ERROR)
            first = d->entry ? g_strdup_printf ("%s: %s", d->entry, d->message)
                             : g_strdup (d->message);
        }
      if (!read || strict->n_errors > 0)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "Not saved: %s would fail strict validation with %u error "
                                    "(%s). Fix it, or save anyway.",
                                    "Not saved: %s would fail strict validation with %u errors "
                                    "(the first: %s). Fix them, or save anyway.",
                                    n_errors),
                       self->path, n_errors,
                       first ? first : unreadable ? unreadable->message : "?");
          return FALSE;
        }
    }
  if (!mshed_save_atomic (self->path, bytes,
                          (flags & MSHED_SAVE_NO_BACKUP) ? MSHED_SAVE_ATOMIC_NO_BACKUP : 0,
                          NULL, error))
    return FALSE;
  self->saved = self->n_done;
  self->saved_lost = FALSE;
  g_signal_emit (self, signals[CHANGED], 0);
  return TRUE;
}
