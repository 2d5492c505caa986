/* mshed-cli-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * info, ls, extract and roundtrip on Freelancer UTF files (docs/utf.md): .dfm, .cmp, .3db,
 * .mat, .txm, .sph, .vms, .ale all open as one tree of directories and raw leaves. The
 * commands find out from the first four bytes ("UTF ") which container a file is.
 */
#define G_LOG_DOMAIN "mshed-cli"
#define _XOPEN_SOURCE 700  /* POSIX read()/close() beside ISO C11 (c_std=c11) */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mshed-bytes.h"
#include "mshed-cli-private.h"
#include "mshed-dfm.h"
#include "mshed-utf-crc.h"
#include "mshed-utf.h"

gboolean
mshed_cli_is_utf_file (const char *path)
{
  int fd = mshed_open_regular (path, NULL);  /* never waits on a FIFO */
  guint8 magic[4];
  gboolean utf;

  if (fd < 0)
    return FALSE;
  utf = read (fd, magic, 4) == 4 && mshed_read_u32 (magic) == MSHED_UTF_SIGNATURE;
  close (fd);
  return utf;
}

/* The tree of @path, read tolerantly (strict when @strict); NULL after a message on stderr. */
static MshedUtf *
open_utf (const char       *path,
          gboolean          strict,
          MshedDiagnostics *diags,
          int              *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = mshed_load_file (path, &error);
  MshedUtf *utf;

  *status = MSHED_CLI_EXIT_OK;
  if (bytes == NULL)
    {
      mshed_cli_error ("%s", error->message);
      *status = mshed_cli_exit_status (error, MSHED_CLI_STEP_READ);
      return NULL;
    }
  utf = mshed_utf_parse (bytes, strict ? MSHED_MODE_STRICT : MSHED_MODE_TOLERANT, diags, &error);
  if (utf == NULL)
    {
      mshed_cli_error ("%s: %s", path, error->message);
      *status = MSHED_CLI_EXIT_PROBLEMS;
    }
  return utf;
}

/* A node by path: "\Root\Level", "/Root/Level" or "Root/Level" (names ignore case). */
MshedUtfNode *
mshed_cli_utf_find_node (MshedUtf   *utf,
                         const char *spec)
{
  g_autofree char *path = g_strdup (spec);

  for (char *p = path; *p; p++)
    if (*p == '/')
      *p = '\\';
  return mshed_utf_lookup (utf, path);
}

/* The root's children, the first twelve by name. */
static void
print_top_level (GString      *out,
                 MshedUtfNode *root)
{
  MshedUtfNode *node;

  g_string_append (out, _("Top level:\n"));
  for (node = mshed_utf_node_get_first_child (root); node; node = mshed_utf_node_get_next (node))
    {
      guint index = mshed_utf_node_get_index (node);

      if (index < 12)
        g_string_append_printf (out, "  %s%s\n", mshed_utf_node_get_name (node),
                                mshed_utf_node_is_directory (node) ? "\\" : "");
      else if (mshed_utf_node_get_next (node) == NULL)
        g_string_append_printf (out, _("  … and %u more (mshed-cli ls lists every node)\n"),
                                index + 1 - 12);
    }
}

int
mshed_cli_utf_info (const char *path)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  const MshedUtfHeader *h;
  MshedUtfNode *root, *node;
  guint dirs = 0, leaves = 0, depth_max = 0;
  guint64 data = 0;
  int status;

  utf = open_utf (path, FALSE, diags, &status);
  if (utf == NULL)
    return status;
  h = mshed_utf_get_header (utf);
  root = mshed_utf_get_root (utf);
  for (node = root; node; node = mshed_utf_node_next_preorder (node, root))
    {
      guint depth = 0;

      for (MshedUtfNode *p = mshed_utf_node_get_parent (node); p;
           p = mshed_utf_node_get_parent (p))
        depth++;
      depth_max = MAX (depth_max, depth);
      if (mshed_utf_node_is_directory (node))
        dirs++;
      else
        {
          gsize size = 0;

          mshed_utf_node_peek_data (node, &size);
          leaves++;
          data += size;
        }
    }

  g_string_append_printf (out, _("File:        %s\n"), path);
  g_string_append_printf (out, _("Size:        %zu bytes\n"),
                          g_bytes_get_size (mshed_utf_get_source (utf)));
  g_string_append_printf (out, _("Container:   UTF version 0x%X, %u nodes, %s\n"), h->version,
                          mshed_utf_get_n_nodes (utf),
                          mshed_utf_is_canonical (utf)
                            ? _("canonical layout")
                            : _("not in the canonical layout (written back as it is)"));
  g_string_append_printf (out, _("Regions:     tree %u bytes at %u, names %u of %u bytes at "
                                 "%u, data at %u\n"),
                          h->tree_size, h->tree_offset, h->names_size_used,
                          h->names_size_allocated, h->names_offset, h->data_offset);
  g_string_append_printf (out, _("Tree:        %u directories, %u leaves (%" PRIu64 " bytes of "
                                 "data), %u levels deep\n"),
                          dirs, leaves, data, depth_max);
  if (mshed_dfm_file_is_dfm (path, utf))
    mshed_cli_dfm_summary (out, utf, diags);
  else
    print_top_level (out, root);
  if (diags->n_errors || diags->n_warnings)
    g_string_append_printf (out, _("Validation:  %u errors, %u warnings (tolerant mode; run "
                                   "“mshed-cli validate %s” for the list)\n"),
                            diags->n_errors, diags->n_warnings, path);
  else
    g_string_append (out, _("Validation:  no errors or warnings (tolerant mode)\n"));
  mshed_cli_flush (out, TRUE);
  return MSHED_CLI_EXIT_OK;
}

int
mshed_cli_utf_ls (const char *path,
                  gboolean    long_format)
{
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  MshedUtfNode *root, *node;
  int status;

  utf = open_utf (path, FALSE, NULL, &status);
  if (utf == NULL)
    return status;
  g_string_append (out, long_format ? _("      size  crc32     attr  path\n")
                                    : _("      size  crc32     path\n"));
  root = mshed_utf_get_root (utf);
  for (node = root; node; node = mshed_utf_node_next_preorder (node, root))
    {
      g_autofree char *node_path = mshed_utf_node_dup_path (node);
      gsize size = 0;

      if (mshed_utf_node_is_directory (node))
        g_string_append (out, "         -");
      else
        {
          mshed_utf_node_peek_data (node, &size);
          g_string_append_printf (out, "%10zu", size);
        }
      g_string_append_printf (out, "  %08X", mshed_utf_node_get_crc (node));
      if (long_format)
        g_string_append_printf (out, "  0x%02X", mshed_utf_node_get_attributes (node));
      g_string_append_printf (out, "  %s%s\n", node_path,
                              mshed_utf_node_is_directory (node) && node != root ? "\\" : "");
      mshed_cli_flush (out, FALSE);
    }
  mshed_cli_flush (out, TRUE);
  return MSHED_CLI_EXIT_OK;
}

int
mshed_cli_utf_extract (const char *path,
                       const char *node_spec,
                       const char *output)
{
  g_autoptr(MshedUtf) utf = NULL;
  GBytes *payload;
  g_autoptr(GError) error = NULL;
  MshedUtfNode *node;
  const guint8 *data;
  gsize size;
  int status;

  utf = open_utf (path, FALSE, NULL, &status);
  if (utf == NULL)
    return status;
  node = mshed_cli_utf_find_node (utf, node_spec);
  if (node == NULL)
    {
      mshed_cli_error (_("%s: the tree has no node “%s” (see “mshed-cli ls %s”)"), path,
                       node_spec, path);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  if (mshed_utf_node_is_directory (node))
    {
      mshed_cli_error (_("%s: “%s” is a directory node, which holds no data"), path, node_spec);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  payload = mshed_utf_node_get_data (node);  /* (transfer none) */
  data = payload ? g_bytes_get_data (payload, &size) : NULL;
  if (payload == NULL)
    size = 0;
  if (strcmp (output, "-") == 0)
    {
      if (size && fwrite (data, 1, size, stdout) != size)
        {
          mshed_cli_error (_("cannot write to standard output"));
          return MSHED_CLI_EXIT_PROBLEMS;
        }
      fflush (stdout);
      return MSHED_CLI_EXIT_OK;
    }
  if (!g_file_set_contents (output, (const char *) data, (gssize) size, &error))
    {
      mshed_cli_error ("%s", error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  printf (_("%s: wrote %zu bytes of node %s\n"), output, size, node_spec);
  return MSHED_CLI_EXIT_OK;
}

/* Every leaf is given its own bytes again, so the writer really writes every payload in the
 * file's layout (docs/utf.md §7); the result must be the file. */
int
mshed_cli_utf_roundtrip_one (GString    *out,
                             const char *path)
{
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *leaves = g_ptr_array_new ();
  MshedUtfNode *root, *node;
  GBytes *source;
  const guint8 *a, *b;
  gsize na, nb, i;
  int status;

  utf = open_utf (path, FALSE, NULL, &status);
  if (utf == NULL)
    {
      g_ptr_array_unref (leaves);
      return status;
    }
  root = mshed_utf_get_root (utf);
  for (node = root; node; node = mshed_utf_node_next_preorder (node, root))
    if (!mshed_utf_node_is_directory (node))
      g_ptr_array_add (leaves, node);
  for (i = 0; i < leaves->len; i++)
    {
      GBytes *data = mshed_utf_node_get_data (g_ptr_array_index (leaves, i));  /* none */
      g_autoptr(GBytes) copy = data ? g_bytes_new (g_bytes_get_data (data, NULL),
                                                   g_bytes_get_size (data))
                                    : g_bytes_new (NULL, 0);
      g_autoptr(GBytes) old = mshed_utf_set_data (utf, g_ptr_array_index (leaves, i), copy);
    }
  g_ptr_array_unref (leaves);
  written = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, &error);
  if (written == NULL)
    {
      g_string_append_printf (out, _("%s: cannot write it back: %s\n"), path, error->message);
      return MSHED_CLI_EXIT_PROBLEMS;
    }
  source = mshed_utf_get_source (utf);
  a = g_bytes_get_data (source, &na);
  b = g_bytes_get_data (written, &nb);
  for (i = 0; i < MIN (na, nb) && a[i] == b[i]; i++)
    ;
  if (i == na && na == nb)
    {
      g_string_append_printf (out, _("%s: OK, %zu bytes identical\n"), path, na);
      return MSHED_CLI_EXIT_OK;
    }
  g_string_append_printf (out, _("%s: DIFFERS at offset %zu (0x%zX): read 0x%02X, wrote 0x%02X; "
                                 "sizes %zu and %zu\n"), path, i, i, i < na ? a[i] : 0,
                          i < nb ? b[i] : 0, na, nb);
  return MSHED_CLI_EXIT_PROBLEMS;
}
