/* mshed-utf-read.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The UTF reader (docs/utf.md §2–§5, §9). The input is hostile: every offset is checked in
 * 64-bit arithmetic before it is read, the tree is walked without recursion, each entry is
 * read at most once (a bitmap of the tree block catches cycles and overlapping entries, so
 * the walk ends after at most treeSize / 44 entries) and nesting is capped at
 * MSHED_UTF_MAX_DEPTH. Payloads are slices of the input; nothing is copied.
 */
#define G_LOG_DOMAIN "mshed-utf"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-utf-private.h"

typedef struct {
  const guint8     *data;
  gsize             len;
  MshedMode         mode;
  MshedDiagnostics *diags;
  GError          **error;
  MshedUtf         *utf;
  MshedUtfHeader    h;
  guint64           names_used;  /* bytes of the dictionary names are read from */
  guint8           *occupied;    /* one bit per tree byte that belongs to an entry read */
  guint8           *starts;      /* one bit per tree offset where an entry was read */
  guint32           valid_time;  /* the last DOS time found valid (entries mostly share one) */
  gboolean          readonly;    /* mshed_utf_parse_readonly: arena nodes, names not copied */
} Reader;

typedef struct {
  MshedUtfNode *dir;
  guint32       link;        /* tree offset of the next entry to read, 0 = none */
  MshedUtfNode *holder;      /* the entry whose field holds the link */
  const char   *field;       /* "childOffset" or "nextOffset" */
  guint64       field_at;    /* absolute offset of that field */
  guint         depth;
} Frame;

static const char *const field_names[N_FIELDS] = {
  "nextOffset", "nameOffset", "fileAttributes", "sharingAttributes", "childOffset",
  "dataSizeAllocated", "dataSizeUsed", "dataSizeUncompressed", "createTime", "accessTime",
  "modifyTime",
};

static inline gboolean
bit_get (const guint8 *bits,
         guint64       i)
{
  return (bits[i >> 3] >> (i & 7)) & 1;
}

static inline void
bit_set (guint8 *bits,
         guint64 i)
{
  bits[i >> 3] |= (guint8) (1u << (i & 7));
}

/* Sets (@set) or tests the 44 bits of the entry at tree offset @from in one 64-bit word (the
 * bitmaps have 8 spare bytes; 7 + 44 bits fit). Returns whether any was set before. */
static inline gboolean
entry_bits (guint8  *bits,
            guint64  from,
            gboolean set)
{
  guint64 mask = ((G_GUINT64_CONSTANT (1) << MSHED_UTF_ENTRY_SIZE) - 1) << (from & 7);
  guint64 word;

  memcpy (&word, bits + (from >> 3), sizeof word);
  word = GUINT64_FROM_LE (word);
  if (set)
    {
      guint64 out = GUINT64_TO_LE (word | mask);

      memcpy (bits + (from >> 3), &out, sizeof out);
    }
  return (word & mask) != 0;
}

static gboolean
vfail (Reader         *r,
       MshedModelError code,
       MshedCheck      check,
       const char     *path,
       const char     *field,
       guint64         offset,
       const char     *format,
       va_list         args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  if (r->diags)
    mshed_diagnostics_add_node (r->diags, MSHED_SEVERITY_ERROR, check, path, field, offset,
                                "%s", message);
  /* TRANSLATORS: a problem with a UTF file, then the byte offset of the field it names */
  g_set_error (r->error, MSHED_MODEL_ERROR, code, _("%s (byte offset 0x%" PRIX64 ")"),
               message, offset);
  return FALSE;
}

/* A rule both modes reject (docs/utf.md §9, first list). Returns FALSE. */
static gboolean G_GNUC_PRINTF (7, 8)
fail (Reader         *r,
      MshedModelError code,
      MshedCheck      check,
      const char     *path,
      const char     *field,
      guint64         offset,
      const char     *format,
      ...)
{
  va_list args;
  gboolean ret;

  va_start (args, format);
  ret = vfail (r, code, check, path, field, offset, format, args);
  va_end (args);
  return ret;
}

/* A rule strict mode rejects and tolerant mode reports as an error, saying what it does
 * instead (@consequence). Returns FALSE when the parse must stop. */
static gboolean G_GNUC_PRINTF (7, 8)
soft (Reader     *r,
      MshedCheck  check,
      const char *path,
      const char *field,
      guint64     offset,
      const char *consequence,
      const char *format,
      ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  if (r->mode == MSHED_MODE_STRICT)
    {
      gboolean ret = vfail (r, MSHED_MODEL_ERROR_CONTAINER, check, path, field, offset,
                            format, args);

      va_end (args);
      return ret;
    }
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (r->diags)
    /* TRANSLATORS: a problem, then what the program does about it */
    mshed_diagnostics_add_node (r->diags, MSHED_SEVERITY_ERROR, check, path, field, offset,
                                _("%s; %s"), message, consequence);
  return TRUE;
}

#define note(r, sev, check, path, field, offset, ...)                                        \
  G_STMT_START {                                                                            \
    if ((r)->diags)                                                                         \
      mshed_diagnostics_add_node ((r)->diags, sev, check, path, field, offset, __VA_ARGS__); \
  } G_STMT_END

/* Header, docs/utf.md §2 ---------------------------------------------------------------- */

static gboolean
read_header (Reader *r)
{
  const guint8 *d = r->data;
  MshedUtfHeader *h = &r->h;

  if (r->len < MSHED_UTF_HEADER_SIZE)
    return fail (r, MSHED_MODEL_ERROR_TRUNCATED, MSHED_CHECK_UTF_TOO_SHORT, NULL, "header", 0,
                 _("UTF header: the data is %zu bytes long, shorter than the 56-byte header"),
                 r->len);

  h->signature = mshed_read_u32 (d + 0);
  h->version = mshed_read_u32 (d + 4);
  h->tree_offset = mshed_read_u32 (d + 8);
  h->tree_size = mshed_read_u32 (d + 12);
  h->entry_offset = mshed_read_u32 (d + 16);
  h->entry_size = mshed_read_u32 (d + 20);
  h->names_offset = mshed_read_u32 (d + 24);
  h->names_size_allocated = mshed_read_u32 (d + 28);
  h->names_size_used = mshed_read_u32 (d + 32);
  h->data_offset = mshed_read_u32 (d + 36);
  h->unused_offset = mshed_read_u32 (d + 40);
  h->unused_size = mshed_read_u32 (d + 44);
  h->filetime = (guint64) mshed_read_u32 (d + 48) | ((guint64) mshed_read_u32 (d + 52) << 32);

  if (h->signature != MSHED_UTF_SIGNATURE)
    return fail (r, MSHED_MODEL_ERROR_BAD_MAGIC, MSHED_CHECK_UTF_SIGNATURE, NULL, "signature", 0,
                 _("UTF header, field signature: expected “UTF ”, found bytes "
                   "%02X %02X %02X %02X"), d[0], d[1], d[2], d[3]);
  if (h->version != MSHED_UTF_VERSION)
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_VERSION, NULL, "version", 4,
                 _("UTF header, field version: expected 0x101, found 0x%X"), h->version);
  if (h->entry_size != MSHED_UTF_ENTRY_SIZE)
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_ENTRY_SIZE, NULL, "entrySize", 20,
                 _("UTF header, field entrySize: expected 44, found %u (the game does not "
                   "load other values)"), h->entry_size);

  if (h->tree_offset > r->len)
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_REGION, NULL, "treeOffset", 8,
                 _("UTF header, field treeOffset: %u is past the end of the %zu-byte file"),
                 h->tree_offset, r->len);
  if (!mshed_range_ok (h->tree_offset, h->tree_size, r->len))
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_REGION, NULL, "treeSize", 12,
                 _("UTF header, field treeSize: the tree block %u..%" PRIu64 " runs past the "
                   "end of the %zu-byte file"),
                 h->tree_offset, (guint64) h->tree_offset + h->tree_size, r->len);
  if (h->names_offset > r->len)
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_REGION, NULL, "namesOffset", 24,
                 _("UTF header, field namesOffset: %u is past the end of the %zu-byte file"),
                 h->names_offset, r->len);
  if (!mshed_range_ok (h->names_offset, h->names_size_used, r->len))
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_REGION, NULL, "namesSizeUsed",
                 32, _("UTF header, field namesSizeUsed: the dictionary %u..%" PRIu64 " runs "
                       "past the end of the %zu-byte file"),
                 h->names_offset, (guint64) h->names_offset + h->names_size_used, r->len);
  if (!mshed_range_ok (h->names_offset, h->names_size_allocated, r->len))
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_REGION, NULL,
                 "namesSizeAllocated", 28,
                 _("UTF header, field namesSizeAllocated: the dictionary %u..%" PRIu64 " runs "
                   "past the end of the %zu-byte file"),
                 h->names_offset, (guint64) h->names_offset + h->names_size_allocated, r->len);
  if (h->data_offset > r->len)
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_REGION, NULL, "dataOffset", 36,
                 _("UTF header, field dataOffset: %u is past the end of the %zu-byte file"),
                 h->data_offset, r->len);
  if (h->tree_size < MSHED_UTF_ENTRY_SIZE)
    return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_ROOT, NULL, "treeSize", 12,
                 _("UTF header, field treeSize: a tree block of %u bytes cannot hold the "
                   "44-byte root entry"), h->tree_size);

  r->names_used = h->names_size_used;
  if (h->names_size_used > h->names_size_allocated
      && !soft (r, MSHED_CHECK_UTF_NAMES_SIZE, NULL, "namesSizeUsed", 32,
                _("the names are read from all namesSizeUsed bytes"),
                _("UTF header, field namesSizeUsed: %u is larger than namesSizeAllocated %u"),
                h->names_size_used, h->names_size_allocated))
    return FALSE;

  if (h->entry_offset != 0)
    note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_HEADER_EXTRA, NULL, "entryOffset", 16,
          _("UTF header, field entryOffset: %u instead of 0; readers ignore it, it is kept"),
          h->entry_offset);
  if (h->unused_offset != 0 || h->unused_size != 0)
    note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_HEADER_EXTRA, NULL, "unusedOffset", 40,
          _("UTF header: unusedOffset %u and unusedSize %u name “extra” data that no reader "
            "interprets; both are kept"), h->unused_offset, h->unused_size);
  return TRUE;
}

/* Entries, docs/utf.md §3 --------------------------------------------------------------- */

static char *
path_for (MshedUtfNode *parent,
          const char   *name)
{
  g_autofree char *base = mshed_utf_node_dup_path (parent);
  g_autofree char *shown = mshed_utf_name_to_display (name);

  return g_strdup_printf ("%s%s%s", base, parent->parent ? "\\" : "", shown);
}

/* the path of an entry being read, made on first use (only findings need it) */
static const char *
lazy_path (char         **slot,
           MshedUtfNode  *parent,
           const char    *name)
{
  if (*slot == NULL)
    *slot = parent ? path_for (parent, name) : g_strdup ("\\");
  return *slot;
}

static char *
read_name (Reader       *r,
           MshedUtfNode *parent,
           guint32       slot,
           guint32       name_offset,
           gboolean     *ok)
{
  guint64 at = (guint64) r->h.tree_offset + slot + 4;
  const guint8 *start, *nul;
  gsize avail;
  char *name;

  *ok = FALSE;
  if (name_offset >= r->names_used)
    {
      g_autofree char *where = parent ? path_for (parent, "") : g_strdup ("\\");

      if (!soft (r, MSHED_CHECK_UTF_NAME_OFFSET, where, "nameOffset", at,
                 _("the entry gets an empty name"),
                 _("UTF entry at tree offset %u, field nameOffset: %u is not inside the %" PRIu64
                   " used bytes of the dictionary"), slot, name_offset, r->names_used))
        return NULL;
      return r->readonly ? (char *) "" : g_strdup ("");
    }
  start = r->data + r->h.names_offset + name_offset;
  avail = (gsize) (r->names_used - name_offset);
  nul = memchr (start, 0, avail);
  if (r->readonly && nul)
    name = (char *) start;  /* NUL-terminated in the source, which the container keeps */
  else if (r->readonly)
    name = _mshed_utf_arena_strndup (r->utf, (const char *) start, avail);
  else
    name = g_strndup ((const char *) start, nul ? (gsize) (nul - start) : avail);
  if (nul == NULL)
    {
      g_autofree char *where = parent ? path_for (parent, name) : g_strdup ("\\");

      note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_NAME_NUL, where, "nameOffset", at,
            _("UTF entry %s, field nameOffset: the name at dictionary offset %u has no NUL "
              "before the end of the used dictionary; it ends there"), where, name_offset);
    }
  *ok = TRUE;
  return name;
}

/* a name read_name gave that no node took */
static void
drop_name (Reader *r,
           char   *name)
{
  if (!r->readonly)
    g_free (name);
}

/* Reads the entry at tree offset @slot (already checked to lie in the tree block) into a new
 * node appended to @parent (NULL for the root). */
static MshedUtfNode *
read_entry (Reader       *r,
            MshedUtfNode *parent,
            guint32       slot)
{
  guint64 at = (guint64) r->h.tree_offset + slot;
  MshedUtfSource s = { 0 };
  MshedUtfNode *node;
  g_autofree char *path = NULL;
/* made only when a finding needs it */
#define ENTRY_PATH lazy_path (&path, parent, s.name)
  gboolean name_ok, dir_bit, file_bit, is_dir;
  guint32 attr;

  G_STATIC_ASSERT (sizeof s.f == MSHED_UTF_ENTRY_SIZE);
  memcpy (s.f, r->data + at, sizeof s.f);  /* the 11 little-endian fields */
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  for (guint i = 0; i < N_FIELDS; i++)
    s.f[i] = GUINT32_FROM_LE (s.f[i]);
#endif
  s.slot = slot;
  entry_bits (r->occupied, slot, TRUE);
  bit_set (r->starts, slot);

  s.name = read_name (r, parent, slot, s.f[F_NAME], &name_ok);
  if (s.name == NULL)
    return NULL;

  /* §3.1: exactly one of the two bits; otherwise Librelancer's rule */
  attr = s.f[F_ATTR];
  dir_bit = (attr & MSHED_UTF_ATTR_DIRECTORY) != 0;
  file_bit = (attr & MSHED_UTF_ATTR_FILE) != 0;
  is_dir = dir_bit;
  if (parent == NULL && !dir_bit)
    {
      fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_ROOT, ENTRY_PATH,
            "fileAttributes", at + 8,
            _("UTF root entry, field fileAttributes: 0x%X has no directory bit 0x10; the "
              "root must be a directory"), attr);
      drop_name (r, s.name);
      return NULL;
    }
  if (dir_bit == file_bit
      && !soft (r, MSHED_CHECK_UTF_ATTRIBUTES, ENTRY_PATH, "fileAttributes", at + 8,
                is_dir ? _("read as a directory, as Librelancer does")
                       : _("read as a file, as Librelancer does"),
                _("UTF entry %s, field fileAttributes: 0x%X should have exactly one of the "
                  "bits 0x10 (directory) and 0x80 (file)"), ENTRY_PATH, attr))
    {
      drop_name (r, s.name);
      return NULL;
    }

  if (s.f[F_SHARE] != 0)
    note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_SHARING, ENTRY_PATH,
          "sharingAttributes", at + 12,
          _("UTF entry %s, field sharingAttributes: 0x%X instead of 0 (kept)"), ENTRY_PATH,
          s.f[F_SHARE]);
  for (guint i = F_CTIME; i <= F_MTIME; i++)
    if (s.f[i] != 0 && s.f[i] != r->valid_time)
      {
        if (mshed_utf_dos_time_decode (s.f[i], NULL))
          {
            r->valid_time = s.f[i];
            continue;
          }
        note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_TIMESTAMP, ENTRY_PATH, field_names[i],
              at + 4 * i, _("UTF entry %s, field %s: 0x%08X is not a valid DOS date and time "
                            "(kept)"), ENTRY_PATH, field_names[i], s.f[i]);
        break;
      }

  if (!is_dir)
    {
      guint64 start = (guint64) r->h.data_offset + s.f[F_CHILD];
      guint32 used = s.f[F_USED];
      guint32 alloc = s.f[F_ALLOC];

      if (start > r->len)
        {
          fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_DATA_RANGE, ENTRY_PATH,
                "childOffset",
                at + 16, _("UTF entry %s, field childOffset: the payload starts at %" PRIu64
                           " (dataOffset %u + %u), past the end of the %zu-byte file"),
                ENTRY_PATH, start, r->h.data_offset, s.f[F_CHILD], r->len);
          drop_name (r, s.name);
          return NULL;
        }
      if (!mshed_range_ok (start, used, r->len))
        {
          fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_DATA_RANGE, ENTRY_PATH,
                "dataSizeUsed",
                at + 24, _("UTF entry %s, field dataSizeUsed: the payload %" PRIu64 "..%" PRIu64
                           " runs past the end of the %zu-byte file"),
                ENTRY_PATH, start, start + used, r->len);
          drop_name (r, s.name);
          return NULL;
        }
      if (used > alloc)
        note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_DATA_SIZE, ENTRY_PATH,
              "dataSizeUsed", at + 24,
              _("UTF entry %s, field dataSizeUsed: %u is larger than dataSizeAllocated %u "
                "(all %u bytes are read)"), ENTRY_PATH, used, alloc, used);
      else if (!mshed_range_ok (start, alloc, r->len))
        note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_DATA_SIZE, ENTRY_PATH, "dataSizeAllocated",
              at + 20, _("UTF entry %s, field dataSizeAllocated: the allocation of %u bytes "
                         "runs past the end of the file"), ENTRY_PATH, alloc);
      if (s.f[F_UNCOMPRESSED] != used)
        note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_UNCOMPRESSED, ENTRY_PATH,
              "dataSizeUncompressed", at + 28,
              _("UTF entry %s, field dataSizeUncompressed: %u differs from dataSizeUsed %u; "
                "no compression is known, the payload is the %u used bytes"),
              ENTRY_PATH, s.f[F_UNCOMPRESSED], used, used);

      s.is_file = TRUE;
      s.ext_start = start;
      s.ext_len = MIN ((guint64) MAX (alloc, used), r->len - start);
      if (!r->readonly)
        s.data = g_bytes_new_from_bytes (r->utf->source, start, used);
    }

  g_array_append_val (r->utf->src, s);
  if (r->readonly)
    {
      node = _mshed_utf_arena_node (r->utf);
      node->is_dir = is_dir ? 1 : 0;
      node->name = s.name;  /* the source's entry borrows it too (no clear function) */
      if (!is_dir)
        {
          node->peek = r->data + (gsize) s.ext_start;
          node->peek_len = s.f[F_USED];
        }
    }
  else
    node = _mshed_utf_node_alloc (is_dir, s.name, s.data);
  node->src = r->utf->src->len - 1;
  node->source_id = r->utf->source_id;
  node->attributes = attr;
  node->sharing = s.f[F_SHARE];
  node->times[0] = s.f[F_CTIME];
  node->times[1] = s.f[F_ATIME];
  node->times[2] = s.f[F_MTIME];
  node->sizes[0] = s.f[F_ALLOC];
  node->sizes[1] = s.f[F_USED];
  node->sizes[2] = s.f[F_UNCOMPRESSED];
  if (parent)
    _mshed_utf_append_child (parent, node);
  return node;
}
#undef ENTRY_PATH

/* §3.3: the chain childOffset → nextOffset → … of every directory, without recursion */
static const char *
lazy_node_path (char               **slot,
                const MshedUtfNode  *node)
{
  if (*slot == NULL)
    *slot = mshed_utf_node_dup_path (node);
  return *slot;
}

/* the path of the entry that holds the link being followed, made only for a finding */
#define HOLDER_PATH lazy_node_path (&holder, fr->holder)

static gboolean
read_tree (Reader *r)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  guint64 tree_size = r->h.tree_size;
  MshedUtfNode *root;
  Frame top;

  r->occupied = g_malloc0 ((gsize) (tree_size / 8 + 1 + 8));  /* + 8: entry_bits */
  r->starts = g_malloc0 ((gsize) (tree_size / 8 + 1));

  root = read_entry (r, NULL, 0);
  if (root == NULL)
    return FALSE;
  r->utf->root = root;
  /* §3.2: the root's nextOffset is never followed */
  top = (Frame) { root, g_array_index (r->utf->src, MshedUtfSource, 0).f[F_CHILD], root,
                  "childOffset", (guint64) r->h.tree_offset + 16, 1 };
  g_array_append_val (stack, top);

  while (stack->len > 0)
    {
      Frame *fr = &g_array_index (stack, Frame, stack->len - 1);
      guint32 off = fr->link;
      MshedUtfNode *node;
      const MshedUtfSource *s;
      g_autofree char *holder = NULL;

      if (off == 0)
        {
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      if (!mshed_range_ok (off, MSHED_UTF_ENTRY_SIZE, tree_size))
        return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_LINK, HOLDER_PATH, fr->field,
                     fr->field_at, _("UTF entry %s, field %s: entry offset %u is outside the "
                                     "%" PRIu64 "-byte tree block"),
                     HOLDER_PATH, fr->field, off, tree_size);
      if (bit_get (r->starts, off))
        return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_CYCLE, HOLDER_PATH, fr->field,
                     fr->field_at, _("UTF entry %s, field %s: entry offset %u leads to an entry "
                                     "that is already part of the tree (a cycle)"),
                     HOLDER_PATH, fr->field, off);
      if (entry_bits (r->occupied, off, FALSE))
        return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_ENTRY_OVERLAP, HOLDER_PATH,
                     fr->field, fr->field_at,
                     _("UTF entry %s, field %s: the entry at tree offset %u overlaps another "
                       "entry"), HOLDER_PATH, fr->field, off);
      if (off % MSHED_UTF_ENTRY_SIZE != 0
          && !soft (r, MSHED_CHECK_UTF_LINK_ALIGN, HOLDER_PATH, fr->field, fr->field_at,
                    _("the entry is read at that offset"),
                    _("UTF entry %s, field %s: entry offset %u is not a multiple of 44"),
                    HOLDER_PATH, fr->field, off))
        return FALSE;

      node = read_entry (r, fr->dir, off);
      if (node == NULL)
        return FALSE;
      s = _mshed_utf_node_source (r->utf, node);
      fr = &g_array_index (stack, Frame, stack->len - 1);
      fr->link = s->f[F_NEXT];
      fr->holder = node;
      fr->field = "nextOffset";
      fr->field_at = (guint64) r->h.tree_offset + off;
      if (node->is_dir)
        {
          g_autofree char *path = NULL;

          if (fr->depth >= MSHED_UTF_MAX_DEPTH)
            {
              path = mshed_utf_node_dup_path (node);
              return fail (r, MSHED_MODEL_ERROR_CONTAINER, MSHED_CHECK_UTF_DEPTH, path,
                           "childOffset", (guint64) r->h.tree_offset + off + 16,
                           _("UTF entry %s: directories are nested deeper than %u levels"),
                           path, MSHED_UTF_MAX_DEPTH);
            }
          top = (Frame) { node, s->f[F_CHILD], node, "childOffset",
                          (guint64) r->h.tree_offset + off + 16, fr->depth + 1 };
          g_array_append_val (stack, top);
        }
    }
  return TRUE;
}
#undef HOLDER_PATH

/* Findings about the whole tree ---------------------------------------------------------- */

static guint64
entry_at (Reader             *r,
          const MshedUtfNode *node,
          guint               field)
{
  return (guint64) r->h.tree_offset + _mshed_utf_node_source (r->utf, node)->slot + 4 * field;
}

/* a cheap key that names equal ignoring case share: length, first and last byte folded */
static guint64
name_key (const char *name)
{
  gsize len = strlen (name);

  if (len == 0)
    return 0;
  return ((guint64) len << 16) | ((guint) mshed_utf_name_fold ((guint8) name[0]) << 8)
         | mshed_utf_name_fold ((guint8) name[len - 1]);
}

/* siblings up to this many are compared pairwise by a cheap key (a bounded cost per child);
 * more go through a hash table, so a hostile directory stays linear */
#define DUPLICATE_PAIRWISE_MAX 64

static void
report_duplicate (Reader             *r,
                  const MshedUtfNode *c)
{
  g_autofree char *cpath = mshed_utf_node_dup_path (c);

  note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_DUPLICATE_NAME, cpath,
        "nameOffset", entry_at (r, c, F_NAME),
        _("UTF entry %s: an earlier sibling has the same name, ignoring case; "
          "lookups find only the first"), cpath);
}

static void
check_duplicates (Reader             *r,
                  const MshedUtfNode *dir)
{
  g_autoptr(GHashTable) seen = NULL;
  guint64 keys[DUPLICATE_PAIRWISE_MAX];
  guint n = 0;

  for (MshedUtfNode *c = dir->first_child; c && n <= DUPLICATE_PAIRWISE_MAX; c = c->next)
    n++;
  if (n > DUPLICATE_PAIRWISE_MAX)
    {
      seen = g_hash_table_new (mshed_utf_name_hash, mshed_utf_name_equal);
      for (MshedUtfNode *c = dir->first_child; c; c = c->next)
        if (!g_hash_table_add (seen, c->name))
          report_duplicate (r, c);
      return;
    }

  n = 0;
  for (MshedUtfNode *c = dir->first_child; c; c = c->next, n++)
    {
      const MshedUtfNode *e = dir->first_child;

      keys[n] = name_key (c->name);
      for (guint i = 0; i < n; i++, e = e->next)
        if (keys[i] == keys[n] && mshed_utf_name_compare (e->name, c->name) == 0)
          {
            report_duplicate (r, c);
            break;
          }
    }
}

static void
check_nodes (Reader *r)
{
  MshedUtfNode *root = r->utf->root;

  for (MshedUtfNode *n = root; n; n = mshed_utf_node_next_preorder (n, root))
    {
      g_autofree char *path = NULL;

      if (n->is_dir && n->first_child == NULL)
        {
          path = mshed_utf_node_dup_path (n);
          note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_EMPTY_DIRECTORY, path, "childOffset",
                entry_at (r, n, F_CHILD), _("UTF directory %s is empty (Librelancer does not "
                                            "write empty directories)"), path);
        }
      if (n->is_dir && n->first_child && n->first_child->next)
        check_duplicates (r, n);
      if (!n->is_dir && mshed_utf_is_string_leaf_name (n->name))
        {
          gsize size;
          const guint8 *p = mshed_utf_node_peek_data (n, &size);

          if (size > 0 && p[size - 1] != 0)
            {
              path = mshed_utf_node_dup_path (n);
              note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_STRING_NUL, path, "dataSizeUsed",
                    entry_at (r, n, F_USED),
                    _("UTF entry %s: the string has no final NUL (the game reads it; it is "
                      "kept without one)"), path);
            }
        }
    }
}

typedef struct {
  guint64    start;
  guint64    end;
  guint      node;     /* index in the source table */
} Extent;

static int
extent_cmp (gconstpointer a,
            gconstpointer b)
{
  const Extent *x = a, *y = b;

  if (x->start != y->start)
    return _mshed_utf_cmp_u64 (x->start, y->start);
  return _mshed_utf_cmp_u64 (x->end, y->end);
}

static gboolean
ranges_overlap (guint64 a0, guint64 a1, guint64 b0, guint64 b1)
{
  return a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
}

static guint64
first_nonzero (const guint8 *data,
               guint64       from,
               guint64       to)
{
  for (guint64 i = from; i < to; i++)
    if (data[i] != 0)
      return i;
  return G_MAXUINT64;
}

static char *
source_path (MshedUtfNode **by_src,
             guint          index)
{
  return mshed_utf_node_dup_path (by_src[index]);
}

typedef struct {
  guint64     start;
  guint64     end;
  const char *field;   /* the header field that places it */
  guint64     at;      /* where that field is */
} Region;

static int
region_cmp (gconstpointer a,
            gconstpointer b)
{
  const Region *x = a, *y = b;

  return _mshed_utf_cmp_u64 (x->start, y->start);
}

/* Overlaps (they decide whether edits can be patched), padding and layout notes (§1, §4, §5,
 * §7). Payloads are swept in offset order, so this is O(n log n) in the number of files. */
static void
check_layout (Reader *r)
{
  const MshedUtfHeader *h = &r->h;
  GArray *src = r->utf->src;
  guint64 t0 = h->tree_offset, t1 = t0 + h->tree_size;
  guint64 n0 = h->names_offset, n1 = n0 + MAX (h->names_size_allocated, h->names_size_used);
  guint64 d0 = h->data_offset, d1 = d0, covered_end = d0, unreferenced = 0;
  g_autoptr(GArray) ext = g_array_sized_new (FALSE, FALSE, sizeof (Extent), src->len);
  gboolean patchable = TRUE;
  guint64 at, prev_end = 0;
  Region regions[3];
  g_autofree MshedUtfNode **by_src = g_new0 (MshedUtfNode *, src->len + 1);

  for (MshedUtfNode *n = r->utf->root; n; n = mshed_utf_node_next_preorder (n, r->utf->root))
    by_src[n->src] = n;

  for (guint i = 0; i < src->len; i++)
    {
      const MshedUtfSource *s = &g_array_index (src, MshedUtfSource, i);
      Extent e = { s->ext_start, s->ext_start + s->ext_len, i };

      if (s->is_file && e.end > e.start)
        g_array_append_val (ext, e);
      if (s->is_file)
        d1 = MAX (d1, e.end);
    }
  for (guint i = 1; i < ext->len; i++)
    if (extent_cmp (&g_array_index (ext, Extent, i - 1), &g_array_index (ext, Extent, i)) > 0)
      {
        g_array_sort (ext, extent_cmp);  /* files written in payload order need none */
        break;
      }

  /* regions against each other and the header */
  if (ranges_overlap (0, MSHED_UTF_HEADER_SIZE, t0, t1)
      || ranges_overlap (0, MSHED_UTF_HEADER_SIZE, n0, n1) || ranges_overlap (t0, t1, n0, n1))
    {
      patchable = FALSE;
      note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_OVERLAP, NULL, "namesOffset", 24,
            _("UTF header: the header, the tree block (%" PRIu64 "..%" PRIu64 ") and the "
              "dictionary (%" PRIu64 "..%" PRIu64 ") overlap; an edited file is written anew"),
            t0, t1, n0, n1);
    }

  for (guint i = 0; i < ext->len; i++)
    {
      const Extent *e = &g_array_index (ext, Extent, i);
      const MshedUtfSource *s = &g_array_index (src, MshedUtfSource, e->node);
      const Extent *next = NULL;
      gboolean same_as_prev = i > 0 && g_array_index (ext, Extent, i - 1).start == e->start
                              && g_array_index (ext, Extent, i - 1).end == e->end;
      gboolean overlapped;
      guint k;

      if (same_as_prev)
        continue;  /* a shared payload (§5): checked once */
      for (k = i + 1; k < ext->len; k++)
        {
          next = &g_array_index (ext, Extent, k);
          if (next->start != e->start || next->end != e->end)
            break;
          next = NULL;
        }

      if (patchable && (ranges_overlap (e->start, e->end, 0, MSHED_UTF_HEADER_SIZE)
                        || ranges_overlap (e->start, e->end, t0, t1)
                        || ranges_overlap (e->start, e->end, n0, n1)))
        {
          g_autofree char *path = source_path (by_src, e->node);

          patchable = FALSE;
          note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_OVERLAP, path, "childOffset",
                t0 + s->slot + 16, _("UTF entry %s: its payload %" PRIu64 "..%" PRIu64
                                     " overlaps the header, the tree or the dictionary; an "
                                     "edited file is written anew"), path, e->start, e->end);
        }

      overlapped = prev_end > e->start || (next && next->start < e->end);
      if (next && next->start < e->end)
        {
          g_autofree char *path = source_path (by_src, next->node);
          const MshedUtfSource *ns = &g_array_index (src, MshedUtfSource, next->node);

          note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_OVERLAP, path, "childOffset",
                t0 + ns->slot + 16,
                _("UTF entry %s: its payload %" PRIu64 "..%" PRIu64 " overlaps the payload "
                  "%" PRIu64 "..%" PRIu64 " without being the same range; an edit of either "
                  "one moves it"), path, next->start, next->end, e->start, e->end);
        }
      if (!overlapped
          && (at = first_nonzero (r->data, e->start + MIN ((guint64) s->f[F_USED],
                                                           e->end - e->start), e->end))
               != G_MAXUINT64)
        {
          g_autofree char *path = source_path (by_src, e->node);

          note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_PADDING, path, "dataSizeAllocated",
                at, _("UTF entry %s: the padding after its payload holds non-zero bytes (kept)"),
                path);
        }
      if (e->start > covered_end)
        unreferenced += e->start - covered_end;
      covered_end = MAX (covered_end, e->end);
      prev_end = MAX (prev_end, e->end);
    }
  r->utf->patchable = patchable;

  /* dictionary slack, §4 */
  if (h->names_size_allocated > h->names_size_used
      && (at = first_nonzero (r->data, n0 + h->names_size_used, n0 + h->names_size_allocated))
           != G_MAXUINT64)
    note (r, MSHED_SEVERITY_WARNING, MSHED_CHECK_UTF_PADDING, NULL, "namesSizeAllocated", at,
          _("UTF dictionary: the %u unused allocated bytes hold non-zero bytes (kept)"),
          h->names_size_allocated - h->names_size_used);
  if (h->names_size_allocated > ((h->names_size_used + 3u) & ~3u))
    note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_LAYOUT, NULL, "namesSizeAllocated", 28,
          _("UTF dictionary: %u bytes are allocated for %u used (kept)"),
          h->names_size_allocated, h->names_size_used);
  if ((guint64) src->len * MSHED_UTF_ENTRY_SIZE != h->tree_size)
    note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_LAYOUT, NULL, "treeSize", 12,
          _("UTF tree block: %u bytes, of which the %u entries of the tree use %" PRIu64
            " (the rest is kept)"), h->tree_size, src->len,
          (guint64) src->len * MSHED_UTF_ENTRY_SIZE);
  if (unreferenced > 0)
    note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_LAYOUT, NULL, "dataOffset", 36,
          _("UTF data block: %" PRIu64 " bytes between payloads are referenced by no entry "
            "(kept)"), unreferenced);

  /* §1: region order, gaps between regions, bytes after the last one */
  if (!(t0 <= n0 && n0 <= d0))
    note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_LAYOUT, NULL,
          t0 > n0 ? "treeOffset" : "dataOffset", t0 > n0 ? 8 : 36,
          _("UTF header: the regions are not in the order tree, dictionary, data (tree at "
            "%" PRIu64 ", dictionary at %" PRIu64 ", data at %" PRIu64 "); the order is kept"),
          t0, n0, d0);
  regions[0] = (Region) { t0, t1, "treeOffset", 8 };
  regions[1] = (Region) { n0, n1, "namesOffset", 24 };
  regions[2] = (Region) { d0, d1, "dataOffset", 36 };
  qsort (regions, G_N_ELEMENTS (regions), sizeof (Region), region_cmp);
  prev_end = MSHED_UTF_HEADER_SIZE;
  for (guint i = 0; i < G_N_ELEMENTS (regions); i++)
    {
      if (regions[i].start > prev_end)
        note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_LAYOUT, NULL, regions[i].field, prev_end,
              _("UTF file: %" PRIu64 " bytes before the region that header field %s places "
                "are referenced by nothing (kept)"), regions[i].start - prev_end,
              regions[i].field);
      prev_end = MAX (prev_end, regions[i].end);
    }
  if (prev_end < r->len)
    note (r, MSHED_SEVERITY_INFO, MSHED_CHECK_UTF_LAYOUT, NULL, NULL, prev_end,
          _("UTF file: the last %" PRIu64 " bytes are referenced by nothing (kept)"),
          (guint64) r->len - prev_end);
}

static MshedUtf *
parse (GBytes            *bytes,
       MshedMode          mode,
       gboolean           readonly,
       MshedDiagnostics  *diags,
       GError           **error)
{
  g_autoptr(MshedUtf) utf = NULL;
  Reader r = { 0 };
  gboolean ok;

  r.data = g_bytes_get_data (bytes, &r.len);
  r.mode = mode;
  r.diags = diags;
  r.error = error;
  r.readonly = readonly;
  if (!read_header (&r))
    return NULL;

  utf = _mshed_utf_alloc ();
  utf->source = g_bytes_ref (bytes);
  utf->source_id = _mshed_utf_next_source_id ();
  utf->header = r.h;
  r.utf = utf;
  if (readonly)
    {
      /* the entries borrow the nodes' names and have no payload slices */
      guint bound = r.h.tree_size / MSHED_UTF_ENTRY_SIZE + 1;

      /* the bitmaps keep entries apart, so the tree block holds at most @bound of them: one
       * block of nodes and a source table that never grows (untouched pages cost nothing) */
      g_array_unref (utf->src);
      utf->src = g_array_sized_new (FALSE, FALSE, sizeof (MshedUtfSource), bound);
      utf->readonly = TRUE;
      utf->arena = g_ptr_array_new_with_free_func (g_free);
      utf->block_size = bound;
      utf->block = g_new (MshedUtfNode, bound);
      g_ptr_array_add (utf->arena, utf->block);
    }
  else
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();

      utf->new_time = mshed_utf_dos_time_encode (now);
    }

  ok = read_tree (&r);
  g_free (r.occupied);
  g_free (r.starts);
  if (!ok)
    return NULL;

  check_nodes (&r);
  check_layout (&r);
  return g_steal_pointer (&utf);
}

/**
 * mshed_utf_parse:
 * @bytes: the file (kept referenced: payloads are slices of it)
 * @mode: strict rejects every rule docs/utf.md §9 marks "reject" or "strict: reject";
 *   tolerant rejects only what cannot be read and reports the rest
 * @diags: (nullable): receives the findings (check, node path, field, byte offset)
 * @error: a #MSHED_MODEL_ERROR naming the field and byte offset that stopped the parse
 *
 * Returns: (transfer full) (nullable): the tree
 */
MshedUtf *
mshed_utf_parse (GBytes            *bytes,
                 MshedMode          mode,
                 MshedDiagnostics  *diags,
                 GError           **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  return parse (bytes, mode, FALSE, diags, error);
}

/**
 * mshed_utf_parse_readonly:
 *
 * mshed_utf_parse for reading only (validation, inspection): the same checks and findings,
 * but the nodes live in a few blocks freed with the container, names point into @bytes and a
 * file's payload is only peeked (mshed_utf_node_peek_data; mshed_utf_node_get_data gives
 * NULL). The tree cannot be edited, copied or written anew (those calls refuse it); its
 * serialization in the preserve mode is @bytes.
 *
 * Returns: (transfer full) (nullable): the tree
 */
MshedUtf *
mshed_utf_parse_readonly (GBytes            *bytes,
                          MshedMode          mode,
                          MshedDiagnostics  *diags,
                          GError           **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  return parse (bytes, mode, TRUE, diags, error);
}
