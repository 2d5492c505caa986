/* test-utf.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The UTF container's hard numbers (docs/utf.md §2, §3, §5.1, §6, §10), two files laid out
 * byte by byte (the §8 example and a non-canonical one), and one case per reader rule of
 * docs/utf.md §9 in strict and tolerant mode.
 */
#include "config.h"

#include <string.h>

#include "mshed-bytes.h"
#include "mshed-diagnostic.h"
#include "mshed-error.h"
#include "mshed-utf.h"
#include "utf-same-util.h"

/* docs/utf.md §8: root `\` with one file `Name` = "abc\0", timestamps and filetime 0 */
static const guint8 example[156] = {
  0x55, 0x54, 0x46, 0x20, 0x01, 0x01, 0x00, 0x00, 0x38, 0x00, 0x00, 0x00, 0x58, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x90, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
  0x07, 0x00, 0x00, 0x00, 0x98, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x5c, 0x00, 0x4e, 0x61, 0x6d, 0x65, 0x00, 0x00, 0x61, 0x62, 0x63, 0x00,
};

#define ROOT_AT 0x38   /* root entry */
#define FILE_AT 0x64   /* the entry of `Name` */

/* A non-canonical file, laid out by hand: the dictionary before the tree (as voice banks do),
 * a leading empty name, 7 non-zero bytes of dictionary slack, entries out of pre-order, two
 * files sharing one payload, non-zero payload padding, two trailing bytes, valid and
 * Librelancer timestamps, and Librelancer's header FILETIME.
 *
 *   \            dir,  slot 0
 *   ├─ Dir       dir,  slot 88
 *   │  ├─ a      file, slot 176, "xyz" (shared)
 *   │  └─ B      file, slot 44,  "xyz" (shared)
 *   └─ c         file, slot 132, "hello", allocated 8, padding "PAD"
 */
#define ODD_TIME 0x5A8E6C21u  /* 2025-04-14 13:33:02 */
static guint8 odd[310];

static void
put_entry (guint8  *p,
           guint32  next,
           guint32  name,
           guint32  attr,
           guint32  child,
           guint32  alloc,
           guint32  used,
           guint32  time)
{
  mshed_write_u32 (p + 0, next);
  mshed_write_u32 (p + 4, name);
  mshed_write_u32 (p + 8, attr);
  mshed_write_u32 (p + 16, child);
  mshed_write_u32 (p + 20, alloc);
  mshed_write_u32 (p + 24, used);
  mshed_write_u32 (p + 28, used);
  mshed_write_u32 (p + 32, time);
  mshed_write_u32 (p + 36, time);
  mshed_write_u32 (p + 40, time);
}

static void
build_odd (void)
{
  static const char names[] = "\0\\\0Dir\0a\0B\0c\0JUNK!!!";   /* 13 used + 7 slack */
  guint8 *t = odd + 76;

  memset (odd, 0, sizeof odd);
  memcpy (odd, "UTF ", 4);
  mshed_write_u32 (odd + 4, 0x101);
  mshed_write_u32 (odd + 8, 76);        /* tree after the dictionary */
  mshed_write_u32 (odd + 12, 220);
  mshed_write_u32 (odd + 20, 44);
  mshed_write_u32 (odd + 24, 56);       /* dictionary right after the header */
  mshed_write_u32 (odd + 28, 20);
  mshed_write_u32 (odd + 32, 13);
  mshed_write_u32 (odd + 36, 296);
  mshed_write_u32 (odd + 48, (guint32) (MSHED_UTF_LIBRELANCER_FILETIME & 0xFFFFFFFF));
  mshed_write_u32 (odd + 52, (guint32) (MSHED_UTF_LIBRELANCER_FILETIME >> 32));
  memcpy (odd + 56, names, 20);
  put_entry (t + 0, 0, 1, 0x10, 88, 0, 0, ODD_TIME);               /* \ */
  put_entry (t + 88, 132, 3, 0x10, 176, 0, 0, ODD_TIME);           /* Dir */
  put_entry (t + 176, 44, 7, 0x80, 0, 4, 3, ODD_TIME);             /* a */
  put_entry (t + 44, 0, 9, 0x80, 0, 4, 3, ODD_TIME);               /* B */
  put_entry (t + 132, 0, 11, 0x80, 4, 8, 5, MSHED_UTF_LIBRELANCER_TIME);  /* c */
  memcpy (odd + 296, "xyz\0helloPAD", 12);
  memcpy (odd + 308, "ZZ", 2);
}

/* The example with 4 bytes more in the tree block, before the file entry, which now sits at
 * tree offset 48: not a multiple of 44, overlapping nothing. */
static guint8 *
build_gapped (gsize *len)
{
  guint8 *g = g_malloc0 (sizeof example + 4);

  memcpy (g, example, FILE_AT);
  memcpy (g + FILE_AT + 4, example + FILE_AT, sizeof example - FILE_AT);
  mshed_write_u32 (g + 12, 92);          /* treeSize */
  mshed_write_u32 (g + 24, 148);         /* namesOffset */
  mshed_write_u32 (g + 36, 156);         /* dataOffset */
  mshed_write_u32 (g + ROOT_AT + 16, 48);
  *len = sizeof example + 4;
  return g;
}

static MshedUtf *
parse_ok (const guint8     *data,
          gsize             len,
          MshedMode         mode,
          MshedDiagnostics *diags)
{
  g_autoptr(GBytes) in = g_bytes_new_static (data, len);
  g_autoptr(GError) error = NULL;
  MshedUtf *utf = mshed_utf_parse (in, mode, diags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (utf);
  return utf;
}

/* §6 -------------------------------------------------------------------------------------- */

static void
test_crc (void)
{
  static const struct { const char *name; guint32 crc; gint32 as_int; } vectors[] = {
    { "", 0x00000000u, 0 },
    { "a", 0xFCB7BE43u, -55067069 },
    { "Root", 0x12688F2Du, 308842285 },
    { "root", 0x12688F2Du, 308842285 },
    { "Material library", 0xFA36003Du, -97124291 },
    { "hp_head", 0xFDC927DFu, -37148705 },
    { "Head02.cmp", 0x1C329878u, 473077880 },
    { "Neck", 0xE887A6CDu, -393763123 },
    { "default", 0x1077C687u, 276285063 },
  };

  g_assert_cmphex (mshed_utf_crc_table_entry (1), ==, 0x09073096u);
  g_assert_cmphex (mshed_utf_crc_table_entry (128), ==, 0xEDB88320u);
  g_assert_cmphex (mshed_utf_crc_table_entry (255), ==, 0x0702EF8Du);
  g_assert_cmphex (mshed_utf_crc_table_entry (0), ==, 0);
  /* only the top byte differs from the standard table (standard table[1] = 0x77073096) */
  g_assert_cmphex (mshed_utf_crc_table_entry (1) & 0xFFFFFF, ==, 0x77073096u & 0xFFFFFF);

  for (guint i = 0; i < G_N_ELEMENTS (vectors); i++)
    {
      g_assert_cmphex (mshed_utf_crc (vectors[i].name), ==, vectors[i].crc);
      g_assert_cmpint ((gint32) mshed_utf_crc (vectors[i].name), ==, vectors[i].as_int);
    }
  g_assert_cmphex (mshed_utf_crc ("MATERIAL LIBRARY"), ==, 0xFA36003Du);
  g_assert_cmphex (mshed_utf_crc_bytes ((const guint8 *) "ax", 1), ==, 0xFCB7BE43u);
  /* zlib's CRC-32 of "a" differs: this is not the standard hash */
  g_assert_cmphex (mshed_utf_crc ("a"), !=, 0xE8B7BE43u);
}

static void
test_names (void)
{
  g_autofree char *shown = NULL;

  g_assert_cmpint (mshed_utf_name_compare ("Material library", "material LIBRARY"), ==, 0);
  g_assert_cmpint (mshed_utf_name_compare ("a_b", "ab"), <, 0);   /* '_' < 'b' after folding */
  g_assert_cmpint (mshed_utf_name_compare ("ab", "a"), >, 0);
  shown = mshed_utf_name_to_display ("M\xfcller\x01\x81");
  g_assert_cmpstr (shown, ==, "M\xc3\xbcller\\x01\\x81");
  g_assert_true (mshed_utf_is_string_leaf_name ("material_NAME"));
  g_assert_false (mshed_utf_is_string_leaf_name ("Points"));
}

/* §5.1, §2 -------------------------------------------------------------------------------- */

static void
test_times (void)
{
  MshedUtfDosTime t;
  g_autoptr(GDateTime) lib = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_utc (2025, 4, 14, 13, 33, 3);

  /* Librelancer's entry constant decodes to an impossible 2047-04-17 09:58:10 */
  g_assert_true (mshed_utf_dos_time_decode (MSHED_UTF_LIBRELANCER_TIME, &t));
  g_assert_cmpuint (t.year, ==, 2047);
  g_assert_cmpuint (t.month, ==, 4);
  g_assert_cmpuint (t.day, ==, 17);
  g_assert_cmpuint (t.hour, ==, 9);
  g_assert_cmpuint (t.minute, ==, 58);
  g_assert_cmpuint (t.second, ==, 10);
  g_assert_cmphex (mshed_utf_dos_time_encode (when), ==, ODD_TIME);
  g_assert_false (mshed_utf_dos_time_decode (0, NULL));            /* month 0 */
  g_assert_false (mshed_utf_dos_time_decode (0xFFFFFFFFu, NULL));
  g_assert_false (mshed_utf_dos_time_decode ((45u << 25) | (2u << 21) | (30u << 16), NULL));

  /* Librelancer's header FILETIME is 1999-01-01 00:00:00 UTC */
  lib = mshed_utf_filetime_to_datetime (MSHED_UTF_LIBRELANCER_FILETIME);
  g_assert_nonnull (lib);
  g_assert_cmpint (g_date_time_get_year (lib), ==, 1999);
  g_assert_cmpint (g_date_time_get_month (lib), ==, 1);
  g_assert_cmpint (g_date_time_get_day_of_month (lib), ==, 1);
  g_assert_cmpint (g_date_time_get_hour (lib), ==, 0);
  g_assert_cmpuint (mshed_utf_filetime_from_datetime (lib), ==, MSHED_UTF_LIBRELANCER_FILETIME);
  g_assert_null (mshed_utf_filetime_to_datetime (G_MAXUINT64));
}

/* The §8 example ------------------------------------------------------------------------- */

static void
test_example_read (void)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) utf = parse_ok (example, sizeof example, MSHED_MODE_STRICT, diags);
  g_autoptr(GBytes) out = NULL;
  const MshedUtfHeader *h = mshed_utf_get_header (utf);
  MshedUtfNode *root = mshed_utf_get_root (utf);
  MshedUtfNode *file;
  MshedUtfEntry e;
  guint32 slot;
  gsize size;
  const guint8 *data;

  g_assert_cmpuint (sizeof (MshedUtfHeader) - sizeof (guint64), ==, 48);  /* 12 u32 + u64 */
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 0);
  g_assert_cmphex (h->signature, ==, 0x20465455u);
  g_assert_cmphex (h->version, ==, 0x101);
  g_assert_cmpuint (h->tree_offset, ==, 56);
  g_assert_cmpuint (h->tree_size, ==, 88);
  g_assert_cmpuint (h->entry_offset, ==, 0);
  g_assert_cmpuint (h->entry_size, ==, 44);
  g_assert_cmpuint (h->names_offset, ==, 144);
  g_assert_cmpuint (h->names_size_allocated, ==, 8);
  g_assert_cmpuint (h->names_size_used, ==, 7);
  g_assert_cmpuint (h->data_offset, ==, 152);
  g_assert_cmpuint (h->unused_offset, ==, 0);
  g_assert_cmpuint (h->unused_size, ==, 0);
  g_assert_cmpuint (h->filetime, ==, 0);

  g_assert_cmpstr (mshed_utf_node_get_name (root), ==, "\\");
  g_assert_true (mshed_utf_node_is_directory (root));
  g_assert_cmpuint (mshed_utf_node_get_n_children (root), ==, 1);
  g_assert_cmpuint (mshed_utf_get_n_nodes (utf), ==, 2);
  file = mshed_utf_node_get_first_child (root);
  g_assert_cmpstr (mshed_utf_node_get_name (file), ==, "Name");
  g_assert_false (mshed_utf_node_is_directory (file));
  g_assert_cmphex (mshed_utf_node_get_attributes (file), ==, 0x80);
  g_assert_cmphex (mshed_utf_node_get_crc (file), ==, mshed_utf_crc ("name"));
  data = mshed_utf_node_peek_data (file, &size);
  g_assert_cmpmem (data, size, "abc", 4);
  g_assert_true (data == example + 152);  /* a slice of the source: nothing copied */
  g_assert_true (mshed_utf_node_get_source_entry (utf, file, &slot, &e));
  g_assert_cmpuint (slot, ==, 44);
  g_assert_cmpuint (e.name_offset, ==, 2);
  g_assert_cmpuint (e.child_offset, ==, 0);
  g_assert_cmpuint (e.data_size_allocated, ==, 4);
  g_assert_cmpuint (e.data_size_used, ==, 4);
  g_assert_cmpuint (e.data_size_uncompressed, ==, 4);
  g_assert_true (mshed_utf_lookup (utf, "\\NAME") == file);
  g_assert_true (mshed_utf_lookup (utf, "name") == file);
  g_assert_true (mshed_utf_lookup (utf, "\\") == root);
  g_assert_null (mshed_utf_lookup (utf, "\\Name\\x"));
  g_assert_true (mshed_utf_is_canonical (utf));

  out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), example, sizeof example);
}

static void
test_example_write (void)
{
  g_autoptr(MshedUtf) utf = mshed_utf_new ();
  g_autoptr(GBytes) abc = g_bytes_new_static ("abc", 4);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  MshedUtfNode *file;

  mshed_utf_set_filetime (utf, 0);
  mshed_utf_set_new_entry_time (utf, 0);
  /* the root made by mshed_utf_new carries the time of its creation; the example has 0 */
  g_assert_true (mshed_utf_node_is_directory (mshed_utf_get_root (utf)));
  {
    g_autoptr(MshedUtf) fresh = mshed_utf_new ();
    g_autoptr(GBytes) empty = mshed_utf_serialize (fresh, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);

    /* a lone root: header, one entry, "\" + NUL padded to 4 */
    g_assert_cmpuint (g_bytes_get_size (empty), ==, 56 + 44 + 4);
  }
  file = mshed_utf_node_new_file (utf, "Name", abc);
  g_assert_true (mshed_utf_insert_child (utf, mshed_utf_get_root (utf), G_MAXUINT, file, &error));
  g_assert_no_error (error);
  out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, &error);
  g_assert_no_error (error);
  /* every byte except the root's timestamps (0x58..0x63) */
  g_assert_cmpuint (g_bytes_get_size (out), ==, sizeof example);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), 0x58, example, 0x58);
  g_assert_cmpmem ((const guint8 *) g_bytes_get_data (out, NULL) + 0x64, sizeof example - 0x64,
                   example + 0x64, sizeof example - 0x64);
}

/* The non-canonical file -------------------------------------------------------------------- */

static void
test_odd_read (void)
{
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) utf = NULL;
  g_autoptr(GBytes) out = NULL;
  MshedUtfNode *dir, *a, *b, *c;
  const MshedDiagnostic *d;
  gsize size;

  build_odd ();
  utf = parse_ok (odd, sizeof odd, MSHED_MODE_STRICT, diags);
  g_assert_cmpuint (diags->n_errors, ==, 0);
  g_assert_cmpuint (mshed_utf_get_n_nodes (utf), ==, 5);
  g_assert_cmpuint (mshed_utf_get_header (utf)->filetime, ==, MSHED_UTF_LIBRELANCER_FILETIME);

  dir = mshed_utf_lookup (utf, "dir");
  a = mshed_utf_lookup (utf, "\\DIR\\A");
  b = mshed_utf_lookup (utf, "\\dir\\b");
  c = mshed_utf_lookup (utf, "\\C");
  g_assert_nonnull (dir);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_nonnull (c);
  /* child order is the chain order, not the physical order */
  g_assert_true (mshed_utf_node_get_nth_child (mshed_utf_get_root (utf), 0) == dir);
  g_assert_true (mshed_utf_node_get_nth_child (mshed_utf_get_root (utf), 1) == c);
  g_assert_true (mshed_utf_node_get_next (a) == b);
  g_assert_cmpstr (mshed_utf_node_get_name (b), ==, "B");   /* case preserved */
  g_assert_true (mshed_utf_node_peek_data (a, NULL) == mshed_utf_node_peek_data (b, NULL));
  g_assert_cmpmem (mshed_utf_node_peek_data (c, &size), size, "hello", 5);
  g_assert_cmphex (mshed_utf_node_get_time (c, MSHED_UTF_TIME_MODIFY), ==,
                   MSHED_UTF_LIBRELANCER_TIME);
  g_assert_cmphex (mshed_utf_node_get_time (a, MSHED_UTF_TIME_CREATE), ==, ODD_TIME);
  g_assert_true (mshed_utf_is_patchable (utf));
  g_assert_false (mshed_utf_is_canonical (utf));
  {
    g_autofree char *path = mshed_utf_node_dup_path (b);

    g_assert_cmpstr (path, ==, "\\Dir\\B");
  }

  /* what the layout notes say (all kept) */
  d = mshed_diagnostics_find (diags, MSHED_CHECK_UTF_PADDING);
  g_assert_nonnull (d);
  g_assert_cmpint (d->severity, ==, MSHED_SEVERITY_WARNING);
  g_assert_cmpuint (diags->n_warnings, ==, 2);   /* dictionary slack and c's padding */
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      d = mshed_diagnostics_get (diags, i);
      g_test_message ("%s %s %s 0x%" G_GINT64_MODIFIER "x: %s", mshed_check_to_string (d->check),
                      d->path ? d->path : "-", d->field ? d->field : "-", d->offset, d->message);
    }

  out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), odd, sizeof odd);
}

/* §9: one case per rule --------------------------------------------------------------------- */

typedef enum {
  REJECT,         /* both modes refuse the file */
  STRICT_ERROR,   /* strict refuses; tolerant reads it and reports an error */
  NOTE,           /* both modes read it and report a warning or an information */
} Outcome;

typedef struct {
  const char    *name;
  gsize          truncate;        /* 0: keep the length */
  struct { guint at; guint32 value; } patch[3];
  MshedCheck     check;
  Outcome        outcome;
  MshedSeverity  severity;
  const char    *path;            /* NULL: the header or a region */
  const char    *field;
  guint64        offset;
  guint          base;            /* which file is patched: EXAMPLE, ODD or GAPPED */
} Rule;

enum { EXAMPLE, ODD, GAPPED };

#define P1(a, v) { { a, v }, { 0, 0 }, { 0, 0 } }
#define P2(a, v, b, w) { { a, v }, { b, w }, { 0, 0 } }
#define NOPATCH { { 0, 0 }, { 0, 0 }, { 0, 0 } }
#define ERR MSHED_SEVERITY_ERROR
#define WARN MSHED_SEVERITY_WARNING
#define INFO MSHED_SEVERITY_INFO

static const Rule rules[] = {
  /* rejected in both modes */
  { "too-short", 55, NOPATCH, MSHED_CHECK_UTF_TOO_SHORT, REJECT, ERR, NULL, "header", 0 },
  { "signature", 0, P1 (0, 0x20465456), MSHED_CHECK_UTF_SIGNATURE, REJECT, ERR, NULL,
    "signature", 0 },
  { "version", 0, P1 (4, 0x102), MSHED_CHECK_UTF_VERSION, REJECT, ERR, NULL, "version", 4 },
  { "entry-size", 0, P1 (20, 40), MSHED_CHECK_UTF_ENTRY_SIZE, REJECT, ERR, NULL, "entrySize",
    20 },
  { "tree-offset", 0, P1 (8, 1000), MSHED_CHECK_UTF_REGION, REJECT, ERR, NULL, "treeOffset", 8 },
  { "tree-size", 0, P1 (12, 200), MSHED_CHECK_UTF_REGION, REJECT, ERR, NULL, "treeSize", 12 },
  { "names-offset", 0, P1 (24, 157), MSHED_CHECK_UTF_REGION, REJECT, ERR, NULL, "namesOffset",
    24 },
  { "names-used", 0, P1 (32, 100), MSHED_CHECK_UTF_REGION, REJECT, ERR, NULL, "namesSizeUsed",
    32 },
  { "names-allocated", 0, P1 (28, 40), MSHED_CHECK_UTF_REGION, REJECT, ERR, NULL,
    "namesSizeAllocated", 28 },
  { "data-offset", 0, P1 (36, 157), MSHED_CHECK_UTF_REGION, REJECT, ERR, NULL, "dataOffset", 36 },
  { "root-size", 0, P1 (12, 40), MSHED_CHECK_UTF_ROOT, REJECT, ERR, NULL, "treeSize", 12 },
  { "root-file", 0, P1 (ROOT_AT + 8, 0x80), MSHED_CHECK_UTF_ROOT, REJECT, ERR, "\\",
    "fileAttributes", ROOT_AT + 8 },
  { "link-child", 0, P1 (ROOT_AT + 16, 88), MSHED_CHECK_UTF_LINK, REJECT, ERR, "\\",
    "childOffset", ROOT_AT + 16 },
  { "link-next", 0, P1 (FILE_AT, 0xFFFFFFF0u), MSHED_CHECK_UTF_LINK, REJECT, ERR, "\\Name",
    "nextOffset", FILE_AT },
  { "cycle", 0, P1 (FILE_AT, 44), MSHED_CHECK_UTF_CYCLE, REJECT, ERR, "\\Name", "nextOffset",
    FILE_AT },
  { "entry-overlap", 0, P1 (ROOT_AT + 16, 22), MSHED_CHECK_UTF_ENTRY_OVERLAP, REJECT, ERR, "\\",
    "childOffset", ROOT_AT + 16 },
  { "data-start", 0, P1 (FILE_AT + 16, 100), MSHED_CHECK_UTF_DATA_RANGE, REJECT, ERR, "\\Name",
    "childOffset", FILE_AT + 16 },
  { "data-used", 0, P2 (FILE_AT + 24, 5, FILE_AT + 28, 5), MSHED_CHECK_UTF_DATA_RANGE, REJECT,
    ERR, "\\Name", "dataSizeUsed", FILE_AT + 24 },
  { "odd-cycle", 0, P1 (76 + 44, 88), MSHED_CHECK_UTF_CYCLE, REJECT, ERR, "\\Dir\\B",
    "nextOffset", 76 + 44, ODD },

  /* strict rejects, tolerant reads and reports an error */
  { "attributes", 0, P1 (FILE_AT + 8, 0), MSHED_CHECK_UTF_ATTRIBUTES, STRICT_ERROR, ERR,
    "\\Name", "fileAttributes", FILE_AT + 8 },
  { "attributes-both", 0, P1 (FILE_AT + 8, 0x90), MSHED_CHECK_UTF_ATTRIBUTES, STRICT_ERROR, ERR,
    "\\Name", "fileAttributes", FILE_AT + 8 },
  { "name-offset", 0, P1 (FILE_AT + 4, 7), MSHED_CHECK_UTF_NAME_OFFSET, STRICT_ERROR, ERR, "\\",
    "nameOffset", FILE_AT + 4 },
  { "names-size", 0, P1 (32, 9), MSHED_CHECK_UTF_NAMES_SIZE, STRICT_ERROR, ERR, NULL,
    "namesSizeUsed", 32 },
  { "link-align", 0, NOPATCH, MSHED_CHECK_UTF_LINK_ALIGN, STRICT_ERROR, ERR, "\\",
    "childOffset", ROOT_AT + 16, GAPPED },

  /* read in both modes, reported */
  { "data-size", 0, P1 (FILE_AT + 20, 3), MSHED_CHECK_UTF_DATA_SIZE, NOTE, WARN, "\\Name",
    "dataSizeUsed", FILE_AT + 24 },
  { "data-allocation", 0, P1 (FILE_AT + 20, 8), MSHED_CHECK_UTF_DATA_SIZE, NOTE, WARN, "\\Name",
    "dataSizeAllocated", FILE_AT + 20 },
  { "uncompressed", 0, P1 (FILE_AT + 28, 5), MSHED_CHECK_UTF_UNCOMPRESSED, NOTE, WARN, "\\Name",
    "dataSizeUncompressed", FILE_AT + 28 },
  { "sharing", 0, P1 (FILE_AT + 12, 1), MSHED_CHECK_UTF_SHARING, NOTE, WARN, "\\Name",
    "sharingAttributes", FILE_AT + 12 },
  { "timestamp", 0, P1 (FILE_AT + 36, 0xFFFFFFFFu), MSHED_CHECK_UTF_TIMESTAMP, NOTE, INFO,
    "\\Name", "accessTime", FILE_AT + 36 },
  { "name-nul", 0, P1 (32, 6), MSHED_CHECK_UTF_NAME_NUL, NOTE, WARN, "\\Name", "nameOffset",
    FILE_AT + 4 },
  { "string-nul", 0, P1 (152, 0x64636261), MSHED_CHECK_UTF_STRING_NUL, NOTE, INFO, "\\Name",
    "dataSizeUsed", FILE_AT + 24 },
  { "empty-directory", 0, P1 (ROOT_AT + 16, 0), MSHED_CHECK_UTF_EMPTY_DIRECTORY, NOTE, INFO,
    "\\", "childOffset", ROOT_AT + 16 },
  { "entry-offset", 0, P1 (16, 5), MSHED_CHECK_UTF_HEADER_EXTRA, NOTE, INFO, NULL,
    "entryOffset", 16 },
  { "unused", 0, P2 (40, 152, 44, 4), MSHED_CHECK_UTF_HEADER_EXTRA, NOTE, INFO, NULL,
    "unusedOffset", 40 },
  { "tree-slack", 0, P1 (12, 92), MSHED_CHECK_UTF_LAYOUT, NOTE, INFO, NULL, "treeSize", 12 },
  { "region-overlap", 0, P1 (12, 96), MSHED_CHECK_UTF_OVERLAP, NOTE, WARN, NULL, "namesOffset",
    24 },
  { "payload-overlap", 0, P2 (76 + 44 + 16, 2, 76 + 44 + 20, 2), MSHED_CHECK_UTF_OVERLAP, NOTE,
    WARN, "\\Dir\\B", "childOffset", 76 + 44 + 16, ODD },
  { "payload-in-tree", 0, P1 (36, 100), MSHED_CHECK_UTF_OVERLAP, NOTE,
    WARN, "\\Name", "childOffset", FILE_AT + 16 },
  { "duplicate-name", 0, P1 (56 + 9, 'A'), MSHED_CHECK_UTF_DUPLICATE_NAME, NOTE, WARN,
    "\\Dir\\A", "nameOffset", 76 + 44 + 4, ODD },
  { "region-order", 0, NOPATCH, MSHED_CHECK_UTF_LAYOUT, NOTE, INFO, NULL, "treeOffset", 8, ODD },
  { "names-slack", 0, NOPATCH, MSHED_CHECK_UTF_PADDING, NOTE, WARN, NULL, "namesSizeAllocated",
    56 + 13, ODD },
  { "names-over-allocated", 0, NOPATCH, MSHED_CHECK_UTF_LAYOUT, NOTE, INFO, NULL,
    "namesSizeAllocated", 28, ODD },
  { "payload-padding", 0, NOPATCH, MSHED_CHECK_UTF_PADDING, NOTE, WARN, "\\c",
    "dataSizeAllocated", 296 + 9, ODD },
  { "gap", 0, P2 (24, 60, 28, 16), MSHED_CHECK_UTF_LAYOUT, NOTE, INFO, NULL, "namesOffset",
    56, ODD },
  { "trailing", 0, NOPATCH, MSHED_CHECK_UTF_LAYOUT, NOTE, INFO, NULL, NULL, 308, ODD },
};

static const MshedDiagnostic *
find_rule_diag (const MshedDiagnostics *diags,
                const Rule             *rule)
{
  for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
    {
      const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);

      if (d->check == rule->check && g_strcmp0 (d->field, rule->field) == 0
          && d->offset == rule->offset)
        return d;
    }
  return NULL;
}

static void
test_rule (gconstpointer data)
{
  const Rule *rule = data;
  g_autofree guint8 *copy = NULL;
  gsize len;
  g_autoptr(GBytes) in = NULL;

  build_odd ();
  if (rule->base == ODD)
    copy = g_memdup2 (odd, len = sizeof odd);
  else if (rule->base == GAPPED)
    copy = build_gapped (&len);
  else
    copy = g_memdup2 (example, len = sizeof example);
  for (guint i = 0; i < G_N_ELEMENTS (rule->patch); i++)
    if (rule->patch[i].at || rule->patch[i].value)
      {
        if (rule->base == ODD && rule->patch[i].at == 56 + 9)
          copy[rule->patch[i].at] = (guint8) rule->patch[i].value;   /* one name byte */
        else
          mshed_write_u32 (copy + rule->patch[i].at, rule->patch[i].value);
      }
  in = g_bytes_new (copy, rule->truncate ? rule->truncate : len);

  for (MshedMode mode = MSHED_MODE_STRICT; mode <= MSHED_MODE_TOLERANT; mode++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedUtf) utf = mshed_utf_parse (in, mode, diags, &error);
      const MshedDiagnostic *d = find_rule_diag (diags, rule);
      gboolean loads = rule->outcome == NOTE
                       || (rule->outcome == STRICT_ERROR && mode == MSHED_MODE_TOLERANT);

      g_test_message ("rule %s, %s mode: %s", rule->name,
                      mode == MSHED_MODE_STRICT ? "strict" : "tolerant",
                      error ? error->message : "loaded");
      for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
        {
          const MshedDiagnostic *x = mshed_diagnostics_get (diags, i);

          g_test_message ("  %s %s %s 0x%" G_GINT64_MODIFIER "x: %s",
                          mshed_check_to_string (x->check), x->path ? x->path : "-",
                          x->field ? x->field : "-", x->offset, x->message);
        }
      g_assert_nonnull (d);
      g_assert_cmpint (d->severity, ==, rule->severity);
      g_assert_cmpstr (d->path, ==, rule->path);
      g_assert_nonnull (d->message);
      if (loads)
        {
          g_assert_no_error (error);
          g_assert_nonnull (utf);
        }
      else
        {
          g_autofree char *at = g_strdup_printf ("0x%" G_GINT64_MODIFIER "X", rule->offset);

          gint code = MSHED_MODEL_ERROR_CONTAINER;

          if (rule->check == MSHED_CHECK_UTF_TOO_SHORT)
            code = MSHED_MODEL_ERROR_TRUNCATED;
          else if (rule->check == MSHED_CHECK_UTF_SIGNATURE)
            code = MSHED_MODEL_ERROR_BAD_MAGIC;
          g_assert_null (utf);
          g_assert_error (error, MSHED_MODEL_ERROR, code);
          /* the message names the field and the byte offset */
          g_assert_nonnull (strstr (error->message, rule->field));
          g_assert_nonnull (strstr (error->message, at));
        }
      if (rule->outcome == STRICT_ERROR && mode == MSHED_MODE_TOLERANT)
        g_assert_cmpuint (diags->n_errors, >=, 1);

      /* whatever loads writes back byte-identical */
      if (utf)
        {
          g_autoptr(GBytes) out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);

          g_assert_true (g_bytes_equal (out, in));
        }
    }
}

/* §3.3: nesting is capped, without recursion */
static void
test_depth (void)
{
  for (guint levels = MSHED_UTF_MAX_DEPTH - 1; levels <= MSHED_UTF_MAX_DEPTH; levels++)
    {
      g_autoptr(MshedUtf) utf = mshed_utf_new ();
      g_autoptr(GBytes) out = NULL;
      g_autoptr(MshedUtf) back = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      MshedUtfNode *dir = mshed_utf_get_root (utf);

      for (guint i = 0; i < levels; i++)
        {
          g_autofree char *name = g_strdup_printf ("d%u", i);
          MshedUtfNode *sub = mshed_utf_node_new_directory (utf, name);

          g_assert_true (mshed_utf_insert_child (utf, dir, 0, sub, NULL));
          dir = sub;
        }
      out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
      back = mshed_utf_parse (out, MSHED_MODE_TOLERANT, diags, &error);
      if (levels < MSHED_UTF_MAX_DEPTH)
        {
          g_assert_no_error (error);
          g_assert_cmpuint (mshed_utf_get_n_nodes (back), ==, levels + 1);
        }
      else
        {
          const MshedDiagnostic *d = mshed_diagnostics_find (diags, MSHED_CHECK_UTF_DEPTH);

          g_assert_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_CONTAINER);
          g_assert_nonnull (d);
          g_assert_cmpstr (d->field, ==, "childOffset");
          /* the directory at depth 256 (its entry is the 256th in pre-order) */
          g_assert_cmpuint (d->offset, ==, 56 + 44 * MSHED_UTF_MAX_DEPTH + 16);
          g_assert_true (g_str_has_suffix (d->path, "\\d255"));
        }
    }
}

/* §3.4: siblings whose names differ only in ASCII case are reported once each after the first,
 * in small directories (compared pairwise) and large ones (through a hash table) alike; bytes
 * outside A..Z are not folded */
static void
test_duplicate_names (void)
{
  static const guint sizes[] = { 4, 8, 9, 40 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      guint n = sizes[k];
      g_autoptr(MshedUtf) utf = mshed_utf_new ();
      g_autoptr(GBytes) out = NULL;
      g_autoptr(MshedUtf) back = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      MshedUtfNode *root = mshed_utf_get_root (utf);
      guint found = 0;

      for (guint i = 0; i < n; i++)
        {
          /* child 0 "Dup", the last two "dUP" and "DUP", child 1 "\xC0" and child 2 "\xE0"
           * (Windows-1252 À and à: different names) */
          g_autofree char *name = i == 0 ? g_strdup ("Dup") : i == n - 2 ? g_strdup ("dUP")
                                  : i == n - 1 ? g_strdup ("DUP") : i == 1 ? g_strdup ("\xC0")
                                  : i == 2 ? g_strdup ("\xE0") : g_strdup_printf ("f%u", i);
          MshedUtfNode *file = mshed_utf_node_new_file (utf, name, NULL);

          g_assert_true (mshed_utf_insert_child (utf, root, i, file, NULL));
        }
      out = mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL);
      back = mshed_utf_parse (out, MSHED_MODE_STRICT, diags, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < mshed_diagnostics_get_n_items (diags); i++)
        {
          const MshedDiagnostic *d = mshed_diagnostics_get (diags, i);
          guint child = found == 0 ? n - 2 : n - 1;

          if (d->check != MSHED_CHECK_UTF_DUPLICATE_NAME)
            continue;
          g_assert_cmpuint (found, <, 2);
          g_assert_cmpstr (d->path, ==, found == 0 ? "\\dUP" : "\\DUP");
          g_assert_cmpstr (d->field, ==, "nameOffset");
          /* the entries follow the root in the tree block at 56 */
          g_assert_cmpuint (d->offset, ==, 56 + 44 * (child + 1) + 4);
          found++;
        }
      g_assert_cmpuint (found, ==, 2);
    }
}

/* mshed_utf_parse_readonly: the same tree, with names and payloads left in the source; no
 * edits */
static void
test_readonly (void)
{
  g_autoptr(GBytes) in = g_bytes_new_static (example, sizeof example);
  g_autoptr(GError) error = NULL;
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) utf = mshed_utf_parse_readonly (in, MSHED_MODE_STRICT, diags, &error);
  g_autoptr(GBytes) same = NULL;
  MshedUtfNode *root, *file;
  gsize size;
  const guint8 *data;

  g_assert_no_error (error);
  g_assert_true (mshed_utf_is_readonly (utf));
  g_assert_cmpuint (mshed_diagnostics_get_n_items (diags), ==, 0);
  root = mshed_utf_get_root (utf);
  file = mshed_utf_node_get_first_child (root);
  g_assert_cmpstr (mshed_utf_node_get_name (root), ==, "\\");
  g_assert_cmpstr (mshed_utf_node_get_name (file), ==, "Name");
  g_assert_true ((const guint8 *) mshed_utf_node_get_name (file) == example + 144 + 2);
  data = mshed_utf_node_peek_data (file, &size);
  g_assert_cmpmem (data, size, "abc", 4);
  g_assert_true (data == example + 152);
  g_assert_null (mshed_utf_node_get_data (file));
  g_assert_true (mshed_utf_lookup (utf, "NAME") == file);
  same = mshed_utf_serialize (utf, MSHED_UTF_WRITE_PRESERVE, NULL, NULL);
  g_assert_true (g_bytes_equal (same, in));

  /* edits, copies and a canonical file need nodes of their own */
  g_test_expect_message ("mshed-utf", G_LOG_LEVEL_CRITICAL, "*readonly*");
  g_assert_null (mshed_utf_rename (utf, file, "Other"));
  g_test_assert_expected_messages ();
  g_test_expect_message ("mshed-utf", G_LOG_LEVEL_CRITICAL, "*readonly*");
  g_assert_null (mshed_utf_copy (utf));
  g_test_assert_expected_messages ();
  g_test_expect_message ("mshed-utf", G_LOG_LEVEL_CRITICAL, "*readonly*");
  g_assert_null (mshed_utf_serialize (utf, MSHED_UTF_WRITE_CANONICAL, NULL, NULL));
  g_test_assert_expected_messages ();
  g_assert_cmpstr (mshed_utf_node_get_name (file), ==, "Name");
}

/* a name the used dictionary does not end: the read-only tree keeps a copy of it */
static void
test_readonly_unterminated (void)
{
  g_autofree guint8 *cut = g_memdup2 (example, sizeof example);
  g_autoptr(GBytes) in = NULL;
  g_autoptr(MshedDiagnostics) full = mshed_diagnostics_new ();
  g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
  g_autoptr(MshedUtf) a = NULL;
  g_autoptr(MshedUtf) b = NULL;
  MshedUtfNode *file;

  mshed_write_u32 (cut + 32, 5);  /* namesSizeUsed: "\\\0Nam", no NUL after the name */
  in = g_bytes_new_static (cut, sizeof example);
  a = mshed_utf_parse (in, MSHED_MODE_TOLERANT, full, NULL);
  b = mshed_utf_parse_readonly (in, MSHED_MODE_TOLERANT, diags, NULL);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  file = mshed_utf_node_get_first_child (mshed_utf_get_root (b));
  g_assert_cmpstr (mshed_utf_node_get_name (file), ==, "Nam");
  g_assert_cmpint (mshed_diagnostics_get (diags, 0)->check, ==, MSHED_CHECK_UTF_NAME_NUL);
  g_assert_cmpstr (mshed_diagnostics_get (diags, 0)->path, ==, "\\Nam");
  t_assert_same_diagnostics (full, diags);
  t_assert_same_tree (a, b);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/utf/crc", test_crc);
  g_test_add_func ("/model/utf/names", test_names);
  g_test_add_func ("/model/utf/times", test_times);
  g_test_add_func ("/model/utf/example-read", test_example_read);
  g_test_add_func ("/model/utf/example-write", test_example_write);
  g_test_add_func ("/model/utf/odd-read", test_odd_read);
  g_test_add_func ("/model/utf/depth", test_depth);
  g_test_add_func ("/model/utf/duplicate-names", test_duplicate_names);
  g_test_add_func ("/model/utf/readonly", test_readonly);
  g_test_add_func ("/model/utf/readonly-unterminated", test_readonly_unterminated);
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    {
      g_autofree char *path = g_strdup_printf ("/model/utf/rule/%s", rules[i].name);

      g_test_add_data_func (path, &rules[i], test_rule);
    }
  return g_test_run ();
}
