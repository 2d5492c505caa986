/* mshed-validate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every rule reads the raw payload bytes directly (bounds-checked once per table, then tight
 * loops over little-endian words), so validating a large model costs about one pass over its
 * index, descriptor and batch tables. One classification: a violated "E" rule is an error in
 * either mode (tolerant mode adds what a consumer drops for it); "W" rules are warnings. The
 * per-record rules live in mshed-record-rules.c, shared with the document's checks after an
 * edit; this file runs them over every record and holds the rules that look at more than one.
 */
#define G_LOG_DOMAIN "mshed-validate"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-record-rules.h"
#include "mshed-validate.h"

#define CONTAINER G_MAXUINT32
#define MAX_TYPE 21
#define N_CHECK_SLOTS 400
/* At most this many diagnostics per check and call; the rest are counted in one summary, so
 * a hostile 200k-triangle file cannot produce a million messages. */
#define REPORT_LIMIT 1000

static inline guint64
align8 (guint64 v)
{
  return (v + 7) & ~(guint64) 7;
}

/* Container layout, docs/nres.md §7.2 --------------------------------------------------------- */

typedef struct {
  guint   index;
  guint32 start;
  guint32 size;
} Region;

static int
region_cmp (gconstpointer a,
            gconstpointer b)
{
  const Region *ra = a;
  const Region *rb = b;

  if (ra->start != rb->start)
    return ra->start < rb->start ? -1 : 1;
  if (ra->size != rb->size)
    return ra->size < rb->size ? -1 : 1;
  return ra->index < rb->index ? -1 : (ra->index > rb->index);
}

/* Reports [from, to) of the data region that no payload covers: the padding part after the
 * payload of @owner (-1: the header), then anything beyond it as a gap. */
static void
check_gap (MshedDiagnostics *diags,
           const guint8     *data,
           guint64           dir_offset,
           gint              owner,
           gint              next,
           guint64           from,
           guint64           to)
{
  guint64 pad_end = MIN (align8 (from), to);
  guint64 p;
  gboolean foreign = FALSE;

  if (owner >= 0)
    {
      for (p = from; p < pad_end && data[p] == 0; p++)
        ;
      if (p < pad_end)
        mshed_diagnostics_add (diags, MSHED_SEVERITY_WARNING, MSHED_CHECK_NRES_PADDING,
                               CONTAINER, owner, MSHED_TABLE_DIRECTORY, owner, "size", p,
                               _("NRes directory record %d: the padding after its payload "
                                 "holds the non-zero byte 0x%02X at offset %" PRIu64
                                 " (kept as it is)"), owner, data[p], p);
    }
  if (pad_end >= to)
    return;

  for (p = pad_end; p < to && !foreign; p++)
    foreign = data[p] != 0;
  if (next >= 0)
    mshed_diagnostics_add (diags, MSHED_SEVERITY_WARNING, MSHED_CHECK_NRES_LAYOUT,
                           CONTAINER, next, MSHED_TABLE_DIRECTORY, next, "data_offset",
                           pad_end,
                           foreign
                             ? _("NRes directory record %d, field data_offset: %" PRIu64
                                 " bytes of foreign data (offsets %" PRIu64 "..%"
                                 PRIu64 ") lie before its payload, outside every "
                                 "payload (kept unless the archive is repacked)")
                             : _("NRes directory record %d, field data_offset: a gap of %"
                                 PRIu64 " zero bytes (offsets %" PRIu64
                                 "..%" PRIu64 ") lies before its payload (kept "
                                 "unless the archive is repacked)"),
                           next, to - pad_end, pad_end, to - 1);
  else
    mshed_diagnostics_add (diags, MSHED_SEVERITY_WARNING, MSHED_CHECK_NRES_LAYOUT,
                           CONTAINER, owner, MSHED_TABLE_DIRECTORY, owner, "size", pad_end,
                           foreign
                             ? _("NRes data region: %" PRIu64 " bytes of foreign "
                                 "data (offsets %" PRIu64 "..%" PRIu64
                                 ") lie between the last payload and the directory at %"
                                 PRIu64 " (kept unless the archive is repacked)")
                             : _("NRes data region: a gap of %" PRIu64 " zero bytes "
                                 "(offsets %" PRIu64 "..%" PRIu64 ") lies "
                                 "between the last payload and the directory at %"
                                 PRIu64 " (kept unless the archive is repacked)"),
                           to - pad_end, pad_end, to - 1, dir_offset);
}

/**
 * mshed_validate_nres_layout:
 * @nres: a parsed archive (the hard rules of docs/nres.md §8 hold)
 * @diags: receives one WARNING per canonical-layout issue (docs/nres.md §7.2)
 *
 * Looks at the bytes as stored (entry orig_offset/orig_size), not at a pending layout.
 */
void
mshed_validate_nres_layout (const MshedNres  *nres,
                            MshedDiagnostics *diags)
{
  GBytes *source;
  const guint8 *data;
  gsize len = 0;
  guint n;
  guint32 total;
  guint64 dir_offset, cursor;
  gint owner;
  g_autofree Region *regions = NULL;
  g_autofree guint32 *table = NULL;
  g_autofree guint8 *seen = NULL;

  g_return_if_fail (nres != NULL);

  source = mshed_nres_get_source (nres);
  if (diags == NULL || source == NULL)
    return;
  data = g_bytes_get_data (source, &len);
  n = mshed_nres_get_n_entries (nres);
  if (len < MSHED_NRES_HEADER_SIZE)
    return;
  total = mshed_read_u32 (data + 12);
  if (total > len || (guint64) n * MSHED_NRES_RECORD_SIZE + MSHED_NRES_HEADER_SIZE > total)
    return;
  dir_offset = total - (guint64) n * MSHED_NRES_RECORD_SIZE;

  /* Sort table (docs/nres.md §5.2). A table that is not even a permutation was reported by the
   * parser. */
  if (n > 0)
    {
      gboolean permutation = TRUE;
      guint n_diff = 0;
      gint first = -1;

      table = g_new (guint32, n);
      seen = g_malloc0 (n);
      for (guint i = 0; i < n && permutation; i++)
        {
          guint32 s = mshed_nres_peek_entry (nres, i)->sort_index;

          permutation = s < n && !seen[s];
          if (permutation)
            seen[s] = 1;
        }
      if (permutation)
        {
          mshed_nres_compute_sort_table (nres, table);
          for (guint i = 0; i < n; i++)
            if (mshed_nres_peek_entry (nres, i)->sort_index != table[i])
              {
                if (first < 0)
                  first = (gint) i;
                n_diff++;
              }
        }
      if (first >= 0)
        mshed_diagnostics_add (diags, MSHED_SEVERITY_WARNING, MSHED_CHECK_NRES_SORT_ORDER,
                               CONTAINER, first, MSHED_TABLE_DIRECTORY, first, "sort_index",
                               dir_offset + (guint64) first * MSHED_NRES_RECORD_SIZE + 60,
                               _("NRes directory record %d, field sort_index: stored %u, but "
                                 "the name order gives %u (%u of %u records differ from the "
                                 "case-insensitive name order; kept as stored)"),
                               first, mshed_nres_peek_entry (nres, (guint) first)->sort_index,
                               table[first], n_diff, n);
    }

  /* Alignment and directory order */
  regions = g_new (Region, n + 1);
  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      guint64 rec = dir_offset + (guint64) i * MSHED_NRES_RECORD_SIZE;

      regions[i].index = i;
      regions[i].start = e->orig_offset;
      regions[i].size = e->orig_size;
      if (e->orig_offset % 8 != 0)
        mshed_diagnostics_add (diags, MSHED_SEVERITY_WARNING, MSHED_CHECK_NRES_ALIGNMENT,
                               CONTAINER, (gint) i, MSHED_TABLE_DIRECTORY, i, "data_offset",
                               rec + 56,
                               _("NRes directory record %u, field data_offset: %u is not a "
                                 "multiple of 8"), i, e->orig_offset);
      if (i > 0 && e->orig_offset < regions[i - 1].start)
        mshed_diagnostics_add (diags, MSHED_SEVERITY_WARNING, MSHED_CHECK_NRES_LAYOUT,
                               CONTAINER, (gint) i, MSHED_TABLE_DIRECTORY, i, "data_offset",
                               rec + 56,
                               _("NRes directory record %u, field data_offset: its payload "
                                 "(offset %u) is stored before the payload of record %u "
                                 "(offset %u), not in directory order"),
                               i, e->orig_offset, i - 1, regions[i - 1].start);
    }

  /* Overlaps, padding and gaps, in file order */
  qsort (regions, n, sizeof (Region), region_cmp);
  cursor = MSHED_NRES_HEADER_SIZE;
  owner = -1;
  for (guint k = 0; k < n; k++)
    {
      const Region *r = &regions[k];
      guint64 end = (guint64) r->start + r->size;

      if (end > dir_offset || r->start < MSHED_NRES_HEADER_SIZE)
        continue;  /* cannot happen after a successful parse */
      if (r->start < cursor)
        {
          if (r->size > 0 && owner >= 0)
            mshed_diagnostics_add (diags, MSHED_SEVERITY_WARNING, MSHED_CHECK_NRES_OVERLAP,
                                   CONTAINER, (gint) r->index, MSHED_TABLE_DIRECTORY, r->index,
                                   "data_offset",
                                   dir_offset + (guint64) r->index * MSHED_NRES_RECORD_SIZE + 56,
                                   _("NRes directory record %u, field data_offset: its payload "
                                     "%u..%" PRIu64 " overlaps the payload of record "
                                     "%d, which ends at %" PRIu64),
                                   r->index, r->start, end - 1, owner, cursor);
          if (end > cursor)
            {
              cursor = end;
              owner = (gint) r->index;
            }
          continue;
        }
      if (r->start > cursor)
        check_gap (diags, data, dir_offset, owner, (gint) r->index, cursor, r->start);
      cursor = end;
      owner = (gint) r->index;
    }
  if (cursor < dir_offset)
    check_gap (diags, data, dir_offset, owner, -1, cursor, dir_offset);
}

/* Model ---------------------------------------------------------------------------------- */

typedef struct {
  gint                  index;  /* directory index of the first entry of the type, -1 */
  const MshedNresEntry *entry;
  const guint8         *data;
  gsize                 size;
} Res;

typedef struct {
  MshedRecordRules  rules;     /* the per-record rules' counts, reporting through vreport */
  MshedDiagnostics *diags;     /* NULL: only count errors */
  MshedSeverity     err;       /* a violated "E" rule: always ERROR (one classification) */
  gboolean          tolerant;  /* say what a tolerant reader drops ("ignored: …") */
  guint             n_errors;
  guint64           dir_offset;
  Res               res[MAX_TYPE];
  guint             reported[N_CHECK_SLOTS];
  guint             suppressed[N_CHECK_SLOTS];
  MshedSeverity     suppressed_severity[N_CHECK_SLOTS];
  guint32           suppressed_type[N_CHECK_SLOTS];

  guint32           n_nodes;   /* records Res10 must hold (Res1 size / attr3) */
  gboolean          nodes_known;
  gboolean          node_records; /* Res1 has 38-byte records: node checks apply */
  guint32           n_slots;
  guint32           n_verts;
  guint32           n_indices;
  guint32           n_tris;
  guint32           n_keys;
  guint32           n_batches;
  guint32           n_words;
  guint32           frames;
} Ctx;

static void G_GNUC_PRINTF (11, 0)
vreport (Ctx          *c,
         MshedSeverity severity,
         MshedCheck    check,
         guint32       res_type,
         gint          res_index,
         MshedTableId  table,
         gint64        record,
         const char   *field,
         guint64       offset,
         const char   *consequence,
         const char   *format,
         va_list       args)
{
  guint slot = (guint) check < N_CHECK_SLOTS ? (guint) check : 0;
  g_autofree char *message = NULL;

  if (severity == MSHED_SEVERITY_ERROR)
    c->n_errors++;
  if (c->diags == NULL)
    return;
  if (c->reported[slot] >= REPORT_LIMIT)
    {
      c->suppressed[slot]++;
      c->suppressed_severity[slot] = MAX (c->suppressed_severity[slot], severity);
      c->suppressed_type[slot] = res_type;
      return;
    }
  c->reported[slot]++;

  message = g_strdup_vprintf (format, args);
  if (consequence != NULL && c->tolerant)
    {
      /* TRANSLATORS: a problem, then what the program does about it ("ignored: …") */
      char *full = g_strdup_printf (_("%s; %s"), message, consequence);

      g_free (message);
      message = full;
    }
  mshed_diagnostics_add (c->diags, severity, check, res_type, res_index, table, record, field,
                         offset, "%s", message);
}

/* A finding about resource @res_type (its first entry) */
static void G_GNUC_PRINTF (10, 11)
report (Ctx          *c,
        MshedSeverity severity,
        MshedCheck    check,
        guint32       res_type,
        MshedTableId  table,
        gint64        record,
        const char   *field,
        guint64       offset,
        const char   *consequence,
        const char   *format,
        ...)
{
  va_list args;
  gint index = res_type < MAX_TYPE ? c->res[res_type].index : -1;

  va_start (args, format);
  vreport (c, severity, check, res_type, index, table, record, field, offset, consequence,
           format, args);
  va_end (args);
}

static guint
dir_field_offset (const char *field)
{
  static const struct { const char *name; guint offset; } offsets[] = {
    { "type", 0 }, { "attr1", 4 }, { "attr2", 8 }, { "size", 12 }, { "attr3", 16 },
    { "name", 20 }, { "data_offset", 56 }, { "sort_index", 60 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (offsets); i++)
    if (strcmp (offsets[i].name, field) == 0)
      return offsets[i].offset;
  return 0;
}

/* A finding about a field of directory record @index (of type @res_type) */
static void G_GNUC_PRINTF (8, 9)
report_entry (Ctx          *c,
              MshedSeverity severity,
              MshedCheck    check,
              guint32       res_type,
              gint          index,
              const char   *field,
              const char   *consequence,
              const char   *format,
              ...)
{
  va_list args;

  va_start (args, format);
  vreport (c, severity, check, res_type, index, MSHED_TABLE_DIRECTORY, index, field,
           c->dir_offset + (guint64) index * MSHED_NRES_RECORD_SIZE + dir_field_offset (field),
           consequence, format, args);
  va_end (args);
}

/* The same, for the first entry of @res_type */
#define report_dir(c, severity, check, res_type, field, consequence, ...) \
  report_entry ((c), (severity), (check), (res_type), (c)->res[(res_type)].index, (field), \
                (consequence), __VA_ARGS__)

/* Byte offset (inside the model NRes) of a field of a fixed-stride record */
static inline guint64
rec_offset (const Ctx *c,
            guint32    res_type,
            guint      header,
            guint      stride,
            guint64    row,
            guint      field_offset)
{
  return (guint64) c->res[res_type].entry->data_offset + header + row * stride + field_offset;
}

static void
flush_suppressed (Ctx *c)
{
  if (c->diags == NULL)
    return;
  for (guint i = 0; i < N_CHECK_SLOTS; i++)
    if (c->suppressed[i] > 0)
      {
        guint32 type = c->suppressed_type[i];

        mshed_diagnostics_add (c->diags, c->suppressed_severity[i], (MshedCheck) i, type,
                               type < MAX_TYPE ? c->res[type].index : -1, MSHED_TABLE_NONE, -1,
                               NULL, 0,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "%u more problem of this kind (%s) is not listed",
                                            "%u more problems of this kind (%s) are not listed",
                                            c->suppressed[i]),
                               c->suppressed[i], mshed_check_to_string ((MshedCheck) i));
        /* the counters cover every finding, listed or not */
        if (c->suppressed_severity[i] == MSHED_SEVERITY_ERROR)
          c->diags->n_errors += c->suppressed[i] - 1;
        else if (c->suppressed_severity[i] == MSHED_SEVERITY_WARNING)
          c->diags->n_warnings += c->suppressed[i] - 1;
      }
}

/* Presence and duplicates -------------------------------------------------------------- */

static gboolean
is_single_type (guint32 type)
{
  switch (type)
    {
    case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 10: case 13:
    case 15: case 16: case 18: case 19:
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
collect_resources (Ctx             *c,
                   const MshedNres *nres)
{
  static const struct { guint32 type; const char *what; } required[] = {
    { 1, N_("the node table") },
    { 2, N_("the model header and slot table") },
    { 3, N_("the vertex positions") },
    { 6, N_("the index buffer") },
    { 13, N_("the batch table") },
  };
  guint n = mshed_nres_get_n_entries (nres);
  gboolean usable = TRUE;

  for (guint t = 0; t < MAX_TYPE; t++)
    c->res[t].index = -1;

  for (guint i = 0; i < n; i++)
    {
      const MshedNresEntry *e = mshed_nres_peek_entry (nres, i);
      guint32 t = e->type_id;

      if (t >= MAX_TYPE)
        continue;
      if (c->res[t].index < 0)
        {
          c->res[t].index = (gint) i;
          c->res[t].entry = e;
          c->res[t].data = mshed_nres_entry_get_data (e, &c->res[t].size);
          if (c->res[t].data == NULL)
            c->res[t].size = 0;
        }
      else if (is_single_type (t))
        report_entry (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_DUPLICATE_TYPE, t, (gint) i, "type",
                      _("ignored: the first one is used"),
                      _("NRes directory record %u, field type: a second Res%u (the first is "
                        "record %d)"), i, t, c->res[t].index);
    }

  /* Missing types make the model unusable in both modes. */
  for (guint k = 0; k < G_N_ELEMENTS (required); k++)
    if (c->res[required[k].type].index < 0)
      {
        report (c, MSHED_SEVERITY_ERROR, MSHED_CHECK_MISSING_TYPE, required[k].type,
                MSHED_TABLE_DIRECTORY, -1, "type", c->dir_offset, NULL,
                _("Res%u (%s) is missing: a model needs the types 1, 2, 3, 6 and 13"),
                required[k].type, _(required[k].what));
        usable = FALSE;
      }
  return usable;
}

/* Sizes and attributes (docs/msh.md §3) ----------------------------------------------------- */

static void
check_res1 (Ctx *c)
{
  const Res *r = &c->res[1];
  const MshedNresEntry *e = r->entry;

  if ((gint32) e->attr3 <= 0)
    {
      report_dir (c, c->err, MSHED_CHECK_RES1_STRIDE, 1, "attr3",
                  _("ignored: the node table and the node names are not used"),
                  _("Res1, field attr3: the node record size %d is not positive"),
                  (gint32) e->attr3);
      return;
    }

  if (e->attr3 == 24)
    report_dir (c, MSHED_SEVERITY_INFO, MSHED_CHECK_LEGACY_NODES, 1, "attr3", NULL,
                _("Res1 uses the legacy 24-byte node records: they are kept as they are, "
                  "node checks are skipped and nodes cannot be edited"));
  else if (e->attr3 != 38)
    report_dir (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_RES1_STRIDE, 1, "attr3",
                _("node checks are skipped"),
                _("Res1, field attr3: node records of %u bytes are not a known layout "
                  "(38 bytes, or 24 for the legacy table)"), e->attr3);

  if (r->size % e->attr3 != 0)
    report_dir (c, c->err, MSHED_CHECK_STRIDE, 1, "size",
                _("ignored: the incomplete last record is not used"),
                _("Res1, field size: %zu bytes is not a multiple of the "
                  "%u-byte node record"), r->size, e->attr3);
  else if (e->attr1 != r->size / e->attr3)
    report_dir (c, c->err, MSHED_CHECK_ATTR1, 1, "attr1",
                _("ignored: the count is taken from the size"),
                _("Res1, field attr1: %u nodes, but the payload holds %zu"),
                e->attr1, r->size / e->attr3);

  c->n_nodes = (guint32) MIN (r->size / e->attr3, G_MAXUINT32);
  c->nodes_known = TRUE;
  c->node_records = e->attr3 == 38;
}

static void
check_res2 (Ctx *c)
{
  const Res *r = &c->res[2];
  const MshedNresEntry *e = r->entry;

  if (r->size < MSHED_RES2_HEADER_SIZE)
    report_dir (c, c->err, MSHED_CHECK_RES2_SIZE, 2, "size",
                _("ignored: the model has no header and no slots"),
                _("Res2, field size: %zu bytes, shorter than the 140-byte "
                  "model header"), r->size);
  else
    {
      gsize tail = r->size - MSHED_RES2_HEADER_SIZE;

      c->n_slots = (guint32) MIN (tail / 68, G_MAXUINT32);
      if (tail % 68 != 0)
        report_dir (c, c->err, MSHED_CHECK_RES2_SIZE, 2, "size",
                    _("ignored: the incomplete last slot is not used"),
                    _("Res2, field size: the %zu bytes after the 140-byte "
                      "header are not a multiple of the 68-byte slot record"), tail);
      else if (e->attr1 != c->n_slots)
        report_dir (c, c->err, MSHED_CHECK_ATTR1, 2, "attr1",
                    _("ignored: the count is taken from the size"),
                    _("Res2, field attr1: %u slots, but the payload holds %u"),
                    e->attr1, c->n_slots);
    }
  if (e->attr2 != 0)
    report_dir (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ATTR2, 2, "attr2",
                _("the value is kept but not used"),
                _("Res2, field attr2: %u, expected 0"), e->attr2);
  if (e->attr3 != 68)
    report_dir (c, c->err, MSHED_CHECK_ATTR3, 2, "attr3",
                _("ignored: the attribute is not used"),
                _("Res2, field attr3: %u, expected the slot record size 68"), e->attr3);
}

static void
check_strided (Ctx *c)
{
  static const struct { guint32 type; guint stride; guint attr3; } tables[] = {
    { 3, 12, 12 }, { 4, 4, 4 }, { 5, 4, 4 }, { 6, 2, 2 }, { 7, 16, 16 }, { 8, 24, 4 },
    { 13, 20, 20 }, { 15, 8, 8 }, { 16, 8, 8 }, { 18, 4, 4 }, { 19, 2, 2 },
  };
  guint32 *counts[MAX_TYPE] = { NULL };

  counts[3] = &c->n_verts;
  counts[6] = &c->n_indices;
  counts[7] = &c->n_tris;
  counts[8] = &c->n_keys;
  counts[13] = &c->n_batches;
  counts[19] = &c->n_words;

  for (guint k = 0; k < G_N_ELEMENTS (tables); k++)
    {
      guint32 t = tables[k].type;
      const Res *r = &c->res[t];
      const MshedNresEntry *e = r->entry;
      guint stride = tables[k].stride;
      guint32 count;

      if (r->index < 0)
        continue;
      count = (guint32) MIN (r->size / stride, G_MAXUINT32);
      if (counts[t])
        *counts[t] = count;

      if (r->size % stride != 0)
        report_dir (c, c->err, MSHED_CHECK_STRIDE, t, "size",
                    _("ignored: the incomplete last record is not used"),
                    _("Res%u, field size: %zu bytes is not a multiple of the "
                      "%u-byte record"), t, r->size, stride);
      else if (e->attr1 != count)
        report_dir (c, c->err, MSHED_CHECK_ATTR1, t, "attr1",
                    _("ignored: the count is taken from the size"),
                    _("Res%u, field attr1: %u records, but the payload holds %u"),
                    t, e->attr1, count);

      if (e->attr3 != tables[k].attr3)
        {
          if (t == 8)
            report_dir (c, c->err, MSHED_CHECK_ATTR3, t, "attr3",
                        _("ignored: the attribute is not used"),
                        _("Res8, field attr3: %u, expected 4 (Res8 stores 4 here, not its "
                          "24-byte record size)"), e->attr3);
          else
            report_dir (c, c->err, MSHED_CHECK_ATTR3, t, "attr3",
                        _("ignored: the attribute is not used"),
                        _("Res%u, field attr3: %u, expected the record size %u"),
                        t, e->attr3, tables[k].attr3);
        }

      if (t == 19)
        {
          c->frames = e->attr2;
          if (e->attr2 < 1)
            report_dir (c, c->err, MSHED_CHECK_RES19_FRAMES, t, "attr2",
                        _("ignored: every node uses its fallback key"),
                        _("Res19, field attr2: the frame count is 0; it must be at least 1"));
        }
      else if (e->attr2 != 0)
        report_dir (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ATTR2, t, "attr2",
                    _("the value is kept but not used"),
                    _("Res%u, field attr2: %u, expected 0"), t, e->attr2);
    }
  if (c->res[19].index < 0)
    c->frames = 1;
}

/* Res10: attributes and the record walk (docs/msh.md §4.10) */
static void
check_res10 (Ctx *c)
{
  const Res *r = &c->res[10];
  const MshedNresEntry *e = r->entry;
  guint64 pos = 0;
  guint64 base;

  if (r->index < 0)
    return;
  if (e->attr1 != c->res[1].entry->attr1)
    report_dir (c, c->err, MSHED_CHECK_RES10_ATTR1, 10, "attr1",
                _("ignored: the name count comes from the node table"),
                _("Res10, field attr1: %u names, but Res1 declares %u nodes"),
                e->attr1, c->res[1].entry->attr1);
  if (e->attr3 != 0)
    report_dir (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_RES10_ATTR3, 10, "attr3",
                _("the value is kept but not used"),
                _("Res10, field attr3: %u, expected 0"), e->attr3);
  if (!c->nodes_known)
    return;

  base = e->data_offset;
  for (guint32 i = 0; i < c->n_nodes; i++)
    {
      guint32 len;

      if (!mshed_range_ok (pos, 4, r->size))
        {
          report (c, c->err, MSHED_CHECK_RES10_LENGTH, 10, MSHED_TABLE_NAMES, i, "len",
                  base + pos, _("ignored: node names are not shown"),
                  _("Res10 name record %u, field len: the table ends after %u of the %u "
                    "node names"), i, i, c->n_nodes);
          return;
        }
      len = mshed_read_u32 (r->data + pos);
      if (len == 0)
        {
          pos += 4;
          continue;
        }
      if (!mshed_range_ok (pos + 4, (guint64) len + 1, r->size))
        {
          report (c, c->err, MSHED_CHECK_RES10_TEXT, 10, MSHED_TABLE_NAMES, i, "text",
                  base + pos + 4, _("ignored: node names are not shown"),
                  _("Res10 name record %u, field text: the %u-byte name (and its "
                    "terminator) runs past the end of the %zu-byte table"),
                  i, len, r->size);
          return;
        }
      if (r->data[pos + 4 + len] != 0)
        report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_RES10_NUL, 10, MSHED_TABLE_NAMES, i,
                "text", base + pos + 4 + len, _("the name is still used"),
                _("Res10 name record %u, field text: the byte after the %u-byte name is "
                  "0x%02X, not the NUL terminator"), i, len, r->data[pos + 4 + len]);
      pos += 4 + (guint64) len + 1;
    }
  if (pos != r->size)
    report (c, c->err, MSHED_CHECK_RES10_TRAILING, 10, MSHED_TABLE_NAMES, -1, NULL,
            base + pos, _("ignored: the extra bytes are not used"),
            _("Res10: %" PRIu64 " bytes follow the %u name records"),
            (guint64) r->size - pos, c->n_nodes);
}

/* Res4/Res5 (error) and Res15/16/18 (warning) counts against the Res3 vertex count */
static void
check_vertex_counts (Ctx *c)
{
  static const struct { guint32 type; guint stride; } extra[] = { { 15, 8 }, { 16, 8 }, { 18, 4 } };

  if (c->res[4].index >= 0 && c->res[4].size / 4 != c->n_verts)
    report_dir (c, c->err, MSHED_CHECK_VERTEX_COUNT, 4, "size",
                _("ignored: vertices without a normal get none, extra normals are unused"),
                _("Res4 holds %zu normals, but Res3 holds %u vertices"),
                c->res[4].size / 4, c->n_verts);
  if (c->res[5].index >= 0 && c->res[5].size / 4 != c->n_verts)
    report_dir (c, c->err, MSHED_CHECK_VERTEX_COUNT, 5, "size",
                _("ignored: vertices without texture coordinates get none, extra ones are "
                  "unused"),
                _("Res5 holds %zu texture coordinates, but Res3 holds %u "
                  "vertices"), c->res[5].size / 4, c->n_verts);
  for (guint k = 0; k < G_N_ELEMENTS (extra); k++)
    {
      const Res *r = &c->res[extra[k].type];

      if (r->index >= 0 && r->size / extra[k].stride != c->n_verts)
        report_dir (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_EXTRA_COUNT, extra[k].type, "size",
                    _("the stream is kept as it is"),
                    _("Res%u holds %zu records, but Res3 holds %u vertices "
                      "(one per vertex is expected)"),
                    extra[k].type, r->size / extra[k].stride, c->n_verts);
    }
}

/* Cross-table rules (docs/msh.md §9.1) ------------------------------------------------------ */

/* The largest of @n little-endian u16 at @p. Sixteen running maxima over blocks of sixteen
 * let the compiler use vector instructions (at -O2 too): about 14 times as fast as one
 * running maximum, whose every step waits for the previous one. */
/* The per-record rules (mshed-record-rules.c) report here: the finding's file offset is the
 * record's place in its resource plus the field's place in the record. */
static void G_GNUC_PRINTF (10, 0)
rule_report (MshedRecordRules *rules,
             MshedSeverity     severity,
             MshedCheck        check,
             guint32           res_type,
             MshedTableId      table,
             guint             record,
             const char       *field,
             guint             field_offset,
             const char       *consequence,
             const char       *format,
             va_list           args)
{
  Ctx *c = rules->user_data;
  guint64 offset;

  switch (table)
    {
    case MSHED_TABLE_NODES:
      offset = rec_offset (c, 1, 0, 38, record, field_offset);
      break;
    case MSHED_TABLE_SLOTS:
      offset = rec_offset (c, 2, MSHED_RES2_HEADER_SIZE, 68, record, field_offset);
      break;
    case MSHED_TABLE_TRIS:
      offset = rec_offset (c, 7, 0, 16, record, field_offset);
      break;
    case MSHED_TABLE_BATCHES:
      offset = rec_offset (c, 13, 0, 20, record, field_offset);
      break;
    case MSHED_TABLE_HEADER:
    default:
      offset = rec_offset (c, res_type, 0, 0, 0, field_offset);
      break;
    }
  vreport (c, severity, check, res_type, c->res[res_type].index, table, record, field, offset,
           consequence, format, args);
}

static void
init_rules (Ctx *c)
{
  c->rules = (MshedRecordRules) {
    .n_nodes = c->n_nodes, .n_slots = c->n_slots, .n_batches = c->n_batches,
    .n_tris = c->n_tris, .n_indices = c->n_indices, .n_verts = c->n_verts,
    .n_keys = c->n_keys, .n_words = c->n_words, .frames = c->frames,
    .have_keys = c->res[8].index >= 0, .have_map = c->res[19].index >= 0,
    .indices = c->res[6].data, .report = rule_report, .user_data = c,
  };
}

static void
check_batches (Ctx *c)
{
  for (guint32 b = 0; b < c->n_batches; b++)
    _mshed_rules_batch (&c->rules, c->res[13].data + (gsize) b * 20, b);
}

static void
check_slots (Ctx *c)
{
  const guint8 *slots;

  if (c->res[2].size < MSHED_RES2_HEADER_SIZE)
    return;
  _mshed_rules_header (&c->rules, c->res[2].data);
  slots = c->res[2].data + MSHED_RES2_HEADER_SIZE;
  for (guint32 s = 0; s < c->n_slots; s++)
    _mshed_rules_slot (&c->rules, slots + (gsize) s * 68, s);
}

/* TRUE when every neighbour link of the @n descriptors is 0xFFFF or below @n. Branch-free
 * and vectorisable: 0xFFFF + 1 wraps to 0 in 16 bits, so one comparison tests both
 * conditions, and it runs over all eight u16 words of each 16-byte record (a whole record
 * is one vector) while only words 1..3, the links, are looked at in the end. */
static gboolean
tri_links_ok (const guint8 *tris,
              guint32       n)
{
  static const guint16 is_link[8] = { 0, 1, 1, 1, 0, 0, 0, 0 };
  guint16 bad[8] = { 0 };
  guint16 limit = (guint16) n;
  guint any = 0;

  if (n > G_MAXUINT16)
    return TRUE;  /* every u16 is below n */
  for (guint32 t = 0; t < n; t++)
    {
      const guint8 *rec = tris + (gsize) t * 16;

      for (guint k = 0; k < 8; k++)
        bad[k] |= (guint16) ((guint16) (mshed_read_u16 (rec + 2 * k) + 1) > limit);
    }
  for (guint k = 0; k < 8; k++)
    any |= bad[k] & is_link[k];
  return !any;
}

static void
check_tris (Ctx *c)
{
  const guint8 *tris = c->res[7].data;
  guint32 n = c->n_tris;

  if (tri_links_ok (tris, n))
    return;
  for (guint32 t = 0; t < n; t++)
    _mshed_rules_tri (&c->rules, tris + (gsize) t * 16, t);
}

static void
check_nodes (Ctx *c)
{
  for (guint32 n = 0; n < c->n_nodes; n++)
    _mshed_rules_node (&c->rules, c->res[1].data + (gsize) n * 38, n);
}

/* Canonical animation layout (docs/msh.md §7.7), warnings -------------------------------------- */

static inline float
key_time (const Ctx *c,
          guint32    key)
{
  return mshed_read_f32 (c->res[8].data + (gsize) key * 24 + 12);
}

static inline guint32
map_word (const Ctx *c,
          guint64    word)
{
  return mshed_read_u16 (c->res[19].data + word * 2);
}

/* Key times of the track start..end: strictly increasing (a docs/msh.md §7.7 pre-save check: the
 * sampler interpolates towards the next key and would divide by a negative or zero span),
 * then the canonical layout: 0 first, whole numbers of frames. */
static gboolean
check_track_times (Ctx     *c,
                   guint32  node,
                   guint32  start,
                   guint32  end)
{
  float prev = key_time (c, start);
  gboolean ok = TRUE;

  for (guint32 k = start + 1; k <= end; k++)
    {
      float t = key_time (c, k);

      if (!(t > prev))
        {
          report (c, c->err, MSHED_CHECK_ANIM_TIME_ORDER, 8, MSHED_TABLE_KEYS, k, "time",
                  rec_offset (c, 8, 0, 24, k, 12),
                  _("ignored: the frame map decides which key is used"),
                  _("Res8 key %u, field time: %g is not after the previous key's %g; key "
                    "times must increase strictly within node %u's track (keys %u..%u)"),
                  k, t, prev, node, start, end);
          return FALSE;
        }
      prev = t;
    }
  prev = key_time (c, start);
  if (prev != 0.0f)
    {
      report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_TIME, 8, MSHED_TABLE_KEYS, start,
              "time", rec_offset (c, 8, 0, 24, start, 12), NULL,
              _("Res8 key %u, field time: %g, but the first key of node %u's track should "
                "have time 0"), start, prev, node);
      ok = FALSE;
    }
  for (guint32 k = start; ok && k <= end; k++)
    {
      float t = key_time (c, k);

      if (!(isfinite (t) && t == floorf (t)))
        {
          report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_TIME, 8, MSHED_TABLE_KEYS, k,
                  "time", rec_offset (c, 8, 0, 24, k, 12), NULL,
                  _("Res8 key %u, field time: %g in node %u's track is not a whole number "
                    "of frames"), k, t, node);
          ok = FALSE;
        }
    }
  return ok;
}

/* Map words of a node's block against the rule of docs/msh.md §7.7 */
static void
check_map_values (Ctx     *c,
                  guint32  node,
                  guint32  map_start,
                  guint32  start,
                  guint32  end)
{
  float first = key_time (c, start);
  float last = key_time (c, end);
  guint32 k = start;

  for (guint32 f = 0; f < c->frames; f++)
    {
      guint32 expect, word;

      if ((float) f < first || (float) f >= last)
        expect = end;
      else
        {
          while (k < end && key_time (c, k + 1) <= (float) f)
            k++;
          expect = k;
        }
      word = map_word (c, (guint64) map_start + f);
      if (word != expect)
        {
          report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_MAP_VALUE, 19, MSHED_TABLE_MAP,
                  (gint64) map_start + f, "key",
                  rec_offset (c, 19, 0, 2, (guint64) map_start + f, 0), NULL,
                  _("Res19 word %" PRIu64 " (node %u, frame %u), field key: %u, but "
                    "the key times of the node's track give %u"),
                  (guint64) map_start + f, node, f, word, expect);
          return;
        }
    }
}

/* A node whose fallback key is out of range: the runtime reads key word + 1 for every map
 * word below the fallback (docs/msh.md §7.7 pre-save checks). */
static void
check_map_keys (Ctx     *c,
                guint32  node,
                guint32  map_start,
                guint32  fallback)
{
  for (guint32 f = 0; f < c->frames; f++)
    {
      guint32 word = map_word (c, (guint64) map_start + f);

      if (word < fallback && (guint64) word + 1 >= c->n_keys)
        {
          report (c, c->err, MSHED_CHECK_ANIM_MAP_KEY, 19, MSHED_TABLE_MAP,
                  (gint64) map_start + f, "key",
                  rec_offset (c, 19, 0, 2, (guint64) map_start + f, 0),
                  _("ignored: the node uses its fallback key"),
                  _("Res19 word %" PRIu64 " (node %u, frame %u), field key: %u is "
                    "below the fallback %u, so the runtime also reads key %" PRIu64
                    ", past the %u keys in Res8"),
                  (guint64) map_start + f, node, f, word, fallback, (guint64) word + 1,
                  c->n_keys);
          return;
        }
    }
}

static void
check_animation (Ctx *c)
{
  const guint8 *nodes = c->res[1].data;
  gboolean have_map = c->res[19].index >= 0;
  gboolean tracks_ok = TRUE;
  guint32 start = 0, last_fallback = 0, animated = 0;
  guint64 packed = 0;
  float max_time = 0.0f;

  if (c->res[8].index < 0 || c->n_nodes == 0)
    return;

  for (guint32 n = 0; n < c->n_nodes; n++)
    {
      const guint8 *rec = nodes + (gsize) n * 38;
      guint32 map_start = mshed_read_u16 (rec + 4);
      guint32 fallback = mshed_read_u16 (rec + 6);
      gboolean block_ok = have_map && c->frames > 0 &&
                          (guint64) map_start + c->frames <= c->n_words;
      guint32 len;

      last_fallback = fallback;
      if (map_start != MSHED_NONE)
        {
          if (map_start != packed)
            report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_MAP_LAYOUT, 1,
                    MSHED_TABLE_NODES, n, "hdr2", rec_offset (c, 1, 0, 38, n, 4), NULL,
                    _("Res1 node %u, field hdr2: its frame map starts at word %u; packed in "
                      "node order it would start at word %" PRIu64),
                    n, map_start, packed);
          packed += c->frames;
          animated++;
        }

      if (fallback >= c->n_keys)
        {
          /* reported as MSHED_CHECK_NODE_KEY */
          if (map_start != MSHED_NONE && block_ok)
            check_map_keys (c, n, map_start, fallback);
          tracks_ok = FALSE;
          start = fallback + 1;
          continue;
        }
      if (fallback < start)
        {
          report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_TRACK, 1, MSHED_TABLE_NODES, n,
                  "hdr3", rec_offset (c, 1, 0, 38, n, 6), NULL,
                  _("Res1 node %u, field hdr3: key %u does not come after the previous node's "
                    "last key %u, so the node has no track of its own"),
                  n, fallback, start - 1);
          tracks_ok = FALSE;
          start = fallback + 1;
          continue;
        }

      len = fallback - start + 1;
      if (map_start == MSHED_NONE && len != 1)
        report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_TRACK, 1, MSHED_TABLE_NODES, n,
                "hdr3", rec_offset (c, 1, 0, 38, n, 6), NULL,
                _("Res1 node %u, field hdr3: the node has no frame map but a track of %u keys "
                  "(%u..%u); a static node has exactly one"), n, len, start, fallback);
      else if (map_start != MSHED_NONE && len < 2)
        report (c, c->err, MSHED_CHECK_ANIM_MAPPED_KEYS, 1, MSHED_TABLE_NODES, n,
                "hdr3", rec_offset (c, 1, 0, 38, n, 6),
                _("ignored: the node uses its fallback key"),
                _("Res1 node %u, field hdr3: the node has a frame map but only one key (%u); "
                  "an animated node has at least two"), n, fallback);

      if (check_track_times (c, n, start, fallback))
        {
          max_time = MAX (max_time, key_time (c, fallback));
          if (map_start != MSHED_NONE && block_ok)
            check_map_values (c, n, map_start, start, fallback);
        }
      else
        tracks_ok = FALSE;
      start = fallback + 1;
    }

  if (last_fallback < c->n_keys && last_fallback + 1 != c->n_keys)
    report (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_TRACK, 1, MSHED_TABLE_NODES,
            c->n_nodes - 1, "hdr3", rec_offset (c, 1, 0, 38, c->n_nodes - 1, 6), NULL,
            _("Res1 node %u, field hdr3: the last node's track ends at key %u, but Res8 holds "
              "%u keys (keys %u..%u belong to no node)"),
            c->n_nodes - 1, last_fallback, c->n_keys, last_fallback + 1, c->n_keys - 1);

  if (!have_map)
    return;
  if (tracks_ok && c->frames > 0 && (double) c->frames != (double) max_time + 1.0)
    report_dir (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_FRAMES, 19, "attr2", NULL,
                _("Res19, field attr2: frame count %u, but the key times give %.0f (the "
                  "largest key time + 1)"), c->frames, (double) max_time + 1.0);
  if (packed != c->n_words)
    report_dir (c, MSHED_SEVERITY_WARNING, MSHED_CHECK_ANIM_MAP_LAYOUT, 19, "size", NULL,
                _("Res19, field size: %u map words, but %u animated nodes of %u frames each "
                  "need %" PRIu64), c->n_words, animated, c->frames, packed);
}

/**
 * mshed_validate_model:
 * @model: the model (its resources are looked up by type; the first of each type is used)
 * @mode: strict reports every violated "E" rule as an error; tolerant reports them as
 *   warnings that say what a consumer drops
 * @diags: (nullable): receives the findings
 *
 * Returns: FALSE when an error was reported: any "E" rule in strict mode; a missing required
 *   resource (types 1, 2, 3, 6, 13) in either mode
 */
gboolean
mshed_validate_model (const MshedModel *model,
                      MshedMode         mode,
                      MshedDiagnostics *diags)
{
  MshedNres *nres;
  g_autofree Ctx *c = NULL;

  g_return_val_if_fail (model != NULL, FALSE);

  nres = mshed_model_get_nres ((MshedModel *) model);
  c = g_new0 (Ctx, 1);
  c->diags = diags;
  /* the mode never changes a finding's severity: a strict violation is an error wherever it
   * is shown (Problems, save, CLI); tolerant mode only adds what the reader drops for it */
  c->err = MSHED_SEVERITY_ERROR;
  c->tolerant = mode == MSHED_MODE_TOLERANT;
  c->dir_offset = mshed_nres_get_directory_offset (nres);

  if (collect_resources (c, nres))
    {
      check_res1 (c);
      check_res2 (c);
      check_strided (c);
      check_res10 (c);
      check_vertex_counts (c);
      init_rules (c);
      check_batches (c);
      check_slots (c);
      check_tris (c);
      if (c->node_records)
        {
          check_nodes (c);
          check_animation (c);
        }
    }
  flush_suppressed (c);
  return c->n_errors == 0;
}
