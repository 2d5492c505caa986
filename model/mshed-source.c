/* mshed-source.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-source"
#define _XOPEN_SOURCE 700  /* POSIX/XSI calls beside ISO C11 (c_std=c11) */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mshed-bytes.h"
#include "mshed-error.h"
#include "mshed-source.h"

/* Says what @path is when it is not a regular file. */
static void
set_not_regular (GError     **error,
                 const char  *path,
                 mode_t       mode)
{
  const char *format;

  if (S_ISDIR (mode))
    format = _("“%s” is a directory, not a file");
  else if (S_ISFIFO (mode))
    format = _("“%s” is a named pipe (FIFO), not a regular file");
  else if (S_ISCHR (mode) || S_ISBLK (mode))
    format = _("“%s” is a device, not a regular file");
  else if (S_ISSOCK (mode))
    format = _("“%s” is a socket, not a regular file");
  else
    format = _("“%s” is not a regular file");
  g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO, format, path);
}

/**
 * mshed_open_regular:
 * @path: a file to read
 *
 * Opens @path for reading only when it is a regular file (a symbolic link to one is fine).
 * A named pipe, device, socket or directory is refused without opening it for reading, so
 * nothing ever waits for a writer: the file's kind is checked before opening, the open does
 * not block (O_NONBLOCK), and the kind is checked again on the open descriptor, in case the
 * path was replaced in between.
 *
 * Returns: a descriptor to close(), or -1 with @error set (MSHED_MODEL_ERROR_IO)
 */
static int
open_regular (const char  *path,
              struct stat *out,
              GError     **error)
{
  struct stat st;
  int fd, errsv;

  if (g_stat (path, &st) != 0)
    {
      errsv = errno;
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO, _("Cannot open “%s”: %s"),
                   path, g_strerror (errsv));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      set_not_regular (error, path, st.st_mode);
      return -1;
    }
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
  if (fd < 0)
    {
      errsv = errno;
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO, _("Cannot open “%s”: %s"),
                   path, g_strerror (errsv));
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      set_not_regular (error, path, st.st_mode);
      close (fd);
      return -1;
    }
  *out = st;
  return fd;
}

int
mshed_open_regular (const char *path,
                    GError    **error)
{
  struct stat st;

  return open_regular (path, &st, error);
}

/**
 * mshed_check_output:
 * @path: a file about to be written or replaced
 *
 * An output must be a regular file or not exist yet: a named pipe, device, socket or
 * directory is refused (replacing /dev/null or a FIFO with a file is never what was meant).
 * Whether the file can really be written shows when it is written.
 *
 * Returns: FALSE with @error set (MSHED_MODEL_ERROR_IO) when @path exists and is not a
 *   regular file
 */
gboolean
mshed_check_output (const char *path,
                    GError    **error)
{
  struct stat st;

  if (g_stat (path, &st) != 0 || S_ISREG (st.st_mode))
    return TRUE;
  set_not_regular (error, path, st.st_mode);
  return FALSE;
}

/* Reads up to @size bytes of @fd into @data; *@got: how many there were. */
static gboolean
read_all (int          fd,
          guint8      *data,
          gsize        size,
          gsize       *got,
          const char  *path,
          GError     **error)
{
  *got = 0;
  while (*got < size)
    {
      gssize n = read (fd, data + *got, size - *got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_IO,
                       _("Cannot read “%s”: %s"), path, g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        break;  /* the file shrank since fstat: take what is there */
      *got += (gsize) n;
    }
  return TRUE;
}

static GBytes *
read_small_file (int          fd,
                 gsize        size,
                 const char  *path,
                 GError     **error)
{
  g_autofree guint8 *data = g_malloc (MAX (size, 1));
  gsize got;

  if (!read_all (fd, data, size, &got, path, error))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&data), got);
}

/**
 * mshed_read_file_into:
 * @path: a file, opened as mshed_load_file() opens it
 * @buffer: (inout): a buffer the caller keeps from file to file (and frees with g_free())
 * @capacity: (inout): its size in bytes; the buffer grows to the file's size
 * @limit: the largest file read this way
 * @len: (out): the bytes read
 *
 * Reads a file of at most @limit bytes with one read() into a buffer reused from file to
 * file: a folder of such files then costs no allocation and no fresh heap pages per file
 * (docs/dfm.md §14.1).
 *
 * Returns: 1 when the file was read, 0 when it is larger than @limit (nothing read: take
 *   mshed_load_file()), -1 with @error set (the errors of mshed_load_file())
 */
int
mshed_read_file_into (const char  *path,
                      guint8     **buffer,
                      gsize       *capacity,
                      gsize        limit,
                      gsize       *len,
                      GError     **error)
{
  struct stat st;
  gboolean ok;
  int fd = open_regular (path, &st, error);

  if (fd < 0)
    return -1;
  if ((guint64) st.st_size > limit)
    {
      close (fd);
      return 0;
    }
  if (*capacity < MAX ((gsize) st.st_size, 1))
    {
      g_free (*buffer);
      *capacity = MAX ((gsize) st.st_size, MIN (2 * *capacity, limit));
      *buffer = g_malloc (*capacity);
    }
  ok = read_all (fd, *buffer, (gsize) st.st_size, len, path, error);
  close (fd);
  return ok ? 1 : -1;
}

/**
 * mshed_load_file:
 *
 * Opens @path once, only when it is a regular file (mshed_open_regular()), and brings its
 * bytes into memory: a small file is read with one read() into the heap, a large one is
 * mapped read-only (no copy). Either way the caller gets the whole file as one #GBytes.
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
  int fd = open_regular (path, &st, error);

  if (fd < 0)
    return NULL;
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
                   _("Cannot read “%s”: %s"), path, local->message);
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

      /* any file but a directory, so that a FIFO:ENTRY is refused by name */
      if (g_file_test (left, G_FILE_TEST_EXISTS) && !g_file_test (left, G_FILE_TEST_IS_DIR))
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

/**
 * mshed_entry_holds_model:
 * @entry: an entry of an archive
 *
 * Whether an archive entry holds a nested model, as fparkan's tools decide (docs/nres.md §10): its
 * name ends in ".msh" (ASCII case-insensitive) and its payload starts with "NRes". The outer
 * entry's type and attributes play no part. Opening ARCHIVE:ENTRY reads such a payload as a
 * model whatever its own directory holds, so the CLI's listings and the editor's archive view
 * mark exactly these entries.
 */
gboolean
mshed_entry_holds_model (const MshedNresEntry *entry)
{
  gsize size = 0;
  const guint8 *data;

  if (!mshed_entry_is_model_name (entry))
    return FALSE;
  data = mshed_nres_entry_get_data (entry, &size);
  return data != NULL && size >= 4 && memcmp (data, "NRes", 4) == 0;
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

/* One nested model (the payload of archive entry @index) into @diags. */
void
mshed_validate_nested_entry (const MshedNresEntry *e,
                             guint                 index,
                             MshedMode             mode,
                             MshedDiagnostics     *diags)
{
  g_autoptr(GBytes) payload = mshed_nres_entry_dup_bytes (e);
  g_autoptr(MshedNres) inner = NULL;
  g_autoptr(MshedModel) model = NULL;
  g_autofree char *name = mshed_nres_entry_dup_name (e);
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (payload, &size);

  if (size < 4 || mshed_read_u32 (data) != MSHED_NRES_MAGIC)
    {
      mshed_diagnostics_add (diags, MSHED_SEVERITY_ERROR, MSHED_CHECK_NRES_NESTED, G_MAXUINT32,
                             (gint) index,
                             MSHED_TABLE_DIRECTORY, index, "data_offset", e->data_offset,
                             _("NRes directory record %u (“%s”): named like a model, but its "
                               "%zu-byte payload does not start with an NRes "
                               "header (first bytes %02X %02X %02X %02X)"),
                             index, name, size, size > 0 ? data[0] : 0,
                             size > 1 ? data[1] : 0, size > 2 ? data[2] : 0,
                             size > 3 ? data[3] : 0);
      return;
    }

  mshed_diagnostics_set_context (diags, e->data_offset, name);
  inner = mshed_nres_parse (payload, mode, diags, NULL);
  if (inner != NULL)
    model = mshed_model_new (inner, mode, diags, NULL);
  mshed_diagnostics_set_context (diags, 0, NULL);
}

/**
 * mshed_validate_file_bytes:
 * @bytes: the bytes of a whole file (a loose model or an archive)
 * @diags: receives every finding
 * @n_models: (out) (optional): how many models were checked
 * @error: set when the file's own container cannot be read
 *
 * Returns: FALSE when the file's own container is unreadable
 */
gboolean
mshed_validate_file_bytes (GBytes           *bytes,
                           MshedMode         mode,
                           MshedDiagnostics *diags,
                           guint            *n_models,
                           GError          **error)
{
  g_autoptr(MshedNres) nres = mshed_nres_parse (bytes, mode, diags, error);
  guint n_found = 0;

  if (n_models)
    *n_models = 0;
  if (nres == NULL)
    return FALSE;
  if (mshed_nres_looks_like_model (nres))
    {
      g_autoptr(MshedModel) model = mshed_model_new (nres, mode, diags, NULL);

      n_found = 1;
    }
  else
    for (guint i = 0; i < mshed_nres_get_n_entries (nres); i++)
      {
        const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);

        if (!mshed_entry_is_model_name (e))
          continue;
        n_found++;
        mshed_validate_nested_entry (e, i, mode, diags);
      }
  if (n_models)
    *n_models = n_found;
  return TRUE;
}
