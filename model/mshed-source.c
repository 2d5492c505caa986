/* mshed-source.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-source"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mshed-error.h"
#include "mshed-source.h"

static GBytes *
read_small_file (int          fd,
                 gsize        size,
                 const char  *path,
                 GError     **error)
{
  g_autofree guint8 *data = g_malloc (MAX (size, 1));
  gsize got = 0;

  while (got < size)
    {
      gssize n = read (fd, data + got, size - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                       _("Cannot read “%s”: %s"), path, g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break;  /* the file shrank since fstat: take what is there */
      got += (gsize) n;
    }
  return g_bytes_new_take (g_steal_pointer (&data), got);
}

/**
 * mshed_load_file:
 *
 * Opens @path once and brings its bytes into memory: a small file is read with one read()
 * into the heap, a large one is mapped read-only (no copy). Either way the caller gets the
 * whole file as one #GBytes.
 *
 * Returns: (transfer full) (nullable): the file's bytes
 */
GBytes *
mshed_load_file (const char *path,
                 GError    **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local = NULL;
  struct stat st;
  GBytes *bytes;
  int fd;

  do
    fd = open (path, O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                   _("Cannot open “%s”: %s"), path, g_strerror (saved));
      return NULL;
    }
  if (S_ISDIR (st.st_mode))
    {
      close (fd);
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                   _("“%s” is a directory, not a file"), path);
      return NULL;
    }
  if (st.st_size <= MSHED_READ_LIMIT)
    {
      bytes = read_small_file (fd, (gsize) st.st_size, path, error);
      close (fd);
      return bytes;
    }
  mapped = g_mapped_file_new_from_fd (fd, FALSE, &local);
  close (fd);
  if (mapped == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                   _("Cannot open “%s”: %s"), path, local->message);
      return NULL;
    }
  return g_mapped_file_get_bytes (mapped);
}

/**
 * mshed_split_spec:
 * @spec: FILE or ARCHIVE:ENTRY
 * @path: (out) (transfer full): the file
 * @entry: (out) (transfer full) (nullable): the entry name, NULL when none
 *
 * A spec that names an existing file is taken whole (file names may contain colons);
 * otherwise it is split at the last colon whose left part is an existing file.
 *
 * Returns: TRUE when an entry was named
 */
gboolean
mshed_split_spec (const char *spec,
                  char      **path,
                  char      **entry)
{
  const char *colon;

  *entry = NULL;
  if (g_file_test (spec, G_FILE_TEST_EXISTS))
    {
      *path = g_strdup (spec);
      return FALSE;
    }
  for (colon = strrchr (spec, ':'); colon != NULL && colon > spec;)
    {
      g_autofree char *left = g_strndup (spec, (gsize) (colon - spec));

      if (g_file_test (left, G_FILE_TEST_IS_REGULAR))
        {
          *path = g_steal_pointer (&left);
          *entry = g_strdup (colon + 1);
          return TRUE;
        }
      /* try an earlier colon */
      {
        const char *p = colon - 1;
        while (p >= spec && *p != ':')
          p--;
        colon = p >= spec ? p : NULL;
      }
    }
  *path = g_strdup (spec);
  return FALSE;
}

gboolean
mshed_entry_is_model_name (const MshedNresEntry *entry)
{
  g_autofree char *name = mshed_nres_entry_dup_name (entry);
  gsize len = strlen (name);

  return len >= 4 && g_ascii_strcasecmp (name + len - 4, ".msh") == 0;
}

void
mshed_source_free (MshedSource *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->entry);
  g_clear_pointer (&self->file_bytes, g_bytes_unref);
  g_clear_pointer (&self->file_nres, mshed_nres_unref);
  g_clear_pointer (&self->model, mshed_model_unref);
  g_free (self);
}

gboolean
mshed_source_is_archive (const MshedSource *self)
{
  return self->entry != NULL || self->model == NULL;
}

/**
 * mshed_source_open:
 * @spec: a file, or ARCHIVE:ENTRY for a model nested in an archive
 * @diags: (nullable): receives the findings (offsets are file offsets)
 *
 * Returns: (transfer full) (nullable): the opened source
 */
MshedSource *
mshed_source_open (const char        *spec,
                   MshedMode          mode,
                   MshedDiagnostics  *diags,
                   GError           **error)
{
  g_autoptr(MshedSource) self = g_new0 (MshedSource, 1);
  g_autoptr(GError) local = NULL;

  self->entry_index = -1;
  mshed_split_spec (spec, &self->path, &self->entry);

  self->file_bytes = mshed_load_file (self->path, error);
  if (self->file_bytes == NULL)
    return NULL;

  if (diags)
    mshed_diagnostics_set_context (diags, 0, NULL);
  self->file_nres = mshed_nres_parse (self->file_bytes, mode, diags, &local);
  if (self->file_nres == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, local->code, "%s: %s", self->path, local->message);
      return NULL;
    }

  if (self->entry != NULL)
    {
      const MshedNresEntry *e;
      g_autoptr(GBytes) payload = NULL;

      self->entry_index = mshed_nres_lookup_name (self->file_nres, self->entry);
      if (self->entry_index < 0)
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                       _("%s: the archive has no entry named “%s”"), self->path, self->entry);
          return NULL;
        }
      e = mshed_nres_peek_entry (self->file_nres, (guint) self->entry_index);
      g_free (self->entry);
      self->entry = mshed_nres_entry_dup_name (e);  /* the stored spelling */
      payload = mshed_nres_entry_dup_bytes (e);
      if (diags)
        mshed_diagnostics_set_context (diags, e->data_offset, self->entry);
      self->model = mshed_model_new_from_bytes (payload, mode, diags, &local);
      if (diags)
        mshed_diagnostics_set_context (diags, 0, NULL);
      if (self->model == NULL)
        {
          g_set_error (error, MSHED_MODEL_ERROR, local->code, "%s:%s: %s", self->path,
                       self->entry, local->message);
          return NULL;
        }
      return g_steal_pointer (&self);
    }

  if (mshed_nres_looks_like_model (self->file_nres))
    {
      self->model = mshed_model_new (self->file_nres, mode, diags, &local);
      if (self->model == NULL)
        {
          g_set_error (error, MSHED_MODEL_ERROR, local->code, "%s: %s", self->path,
                       local->message);
          return NULL;
        }
    }
  return g_steal_pointer (&self);
}

/**
 * mshed_source_serialize:
 *
 * Returns: (transfer full): the bytes of the whole file: for a nested model, the archive with
 *   only that entry's payload replaced
 */
GBytes *
mshed_source_serialize (MshedSource *self)
{
  g_autoptr(GBytes) model_bytes = NULL;
  g_autoptr(MshedNres) outer = NULL;

  if (self->entry_index < 0)
    {
      if (self->model)
        return mshed_model_serialize (self->model);
      return mshed_nres_serialize (self->file_nres, NULL);
    }
  if (!mshed_nres_is_modified (mshed_model_get_nres (self->model)))
    return mshed_nres_serialize (self->file_nres, NULL);
  model_bytes = mshed_model_serialize (self->model);
  outer = mshed_nres_copy (self->file_nres);
  mshed_nres_set_payload (outer, (guint) self->entry_index, model_bytes);
  return mshed_nres_serialize (outer, NULL);
}
