/* mshed-diagnostic.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "mshed-diagnostic"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "mshed-diagnostic.h"

G_DEFINE_BOXED_TYPE (MshedDiagnostic, mshed_diagnostic,
                     mshed_diagnostic_copy, mshed_diagnostic_free)

MshedDiagnostic *
mshed_diagnostic_copy (const MshedDiagnostic *self)
{
  MshedDiagnostic *copy = g_memdup2 (self, sizeof *self);

  copy->message = g_strdup (self->message);
  copy->entry = g_strdup (self->entry);
  copy->path = g_strdup (self->path);
  return copy;
}

void
mshed_diagnostic_free (MshedDiagnostic *self)
{
  if (self == NULL)
    return;
  g_free (self->message);
  g_free (self->entry);
  g_free (self->path);
  g_free (self);
}

const char *
mshed_severity_to_string (MshedSeverity severity)
{
  switch (severity)
    {
    case MSHED_SEVERITY_INFO:
      return "info";
    case MSHED_SEVERITY_WARNING:
      return "warning";
    case MSHED_SEVERITY_ERROR:
    default:
      return "error";
    }
}

/**
 * mshed_check_to_string:
 *
 * Returns: a stable, untranslated identifier of the check (for scripts and JSON)
 */
const char *
mshed_check_to_string (MshedCheck check)
{
  /* indexed by the check: a lookup per printed line */
  static const char *const names[] = {
    [MSHED_CHECK_NRES_TOO_SHORT] = "nres-too-short",
    [MSHED_CHECK_NRES_MAGIC] = "nres-magic",
    [MSHED_CHECK_NRES_VERSION] = "nres-version",
    [MSHED_CHECK_NRES_COUNT] = "nres-count",
    [MSHED_CHECK_NRES_TOTAL_SIZE] = "nres-total-size",
    [MSHED_CHECK_NRES_DIRECTORY] = "nres-directory",
    [MSHED_CHECK_NRES_NAME_NUL] = "nres-name-nul",
    [MSHED_CHECK_NRES_DATA_OFFSET] = "nres-data-offset",
    [MSHED_CHECK_NRES_DATA_RANGE] = "nres-data-range",
    [MSHED_CHECK_NRES_SORT_RANGE] = "nres-sort-range",
    [MSHED_CHECK_NRES_SORT_PERMUTATION] = "nres-sort-permutation",
    [MSHED_CHECK_NRES_SORT_ORDER] = "nres-sort-order",
    [MSHED_CHECK_NRES_ALIGNMENT] = "nres-alignment",
    [MSHED_CHECK_NRES_PADDING] = "nres-padding",
    [MSHED_CHECK_NRES_OVERLAP] = "nres-overlap",
    [MSHED_CHECK_NRES_LAYOUT] = "nres-layout",
    [MSHED_CHECK_NRES_NAME_TAIL] = "nres-name-tail",
    [MSHED_CHECK_NRES_RSLI] = "nres-rsli",
    [MSHED_CHECK_NRES_NESTED] = "nres-nested",
    [MSHED_CHECK_MISSING_TYPE] = "missing-type",
    [MSHED_CHECK_DUPLICATE_TYPE] = "duplicate-type",
    [MSHED_CHECK_STRIDE] = "stride",
    [MSHED_CHECK_ATTR1] = "attr1",
    [MSHED_CHECK_ATTR2] = "attr2",
    [MSHED_CHECK_ATTR3] = "attr3",
    [MSHED_CHECK_RES1_STRIDE] = "res1-stride",
    [MSHED_CHECK_LEGACY_NODES] = "legacy-nodes",
    [MSHED_CHECK_RES2_SIZE] = "res2-size",
    [MSHED_CHECK_RES19_FRAMES] = "res19-frames",
    [MSHED_CHECK_RES10_ATTR1] = "res10-attr1",
    [MSHED_CHECK_RES10_ATTR3] = "res10-attr3",
    [MSHED_CHECK_RES10_LENGTH] = "res10-length",
    [MSHED_CHECK_RES10_TEXT] = "res10-text",
    [MSHED_CHECK_RES10_NUL] = "res10-nul",
    [MSHED_CHECK_RES10_TRAILING] = "res10-trailing",
    [MSHED_CHECK_VERTEX_COUNT] = "vertex-count",
    [MSHED_CHECK_EXTRA_COUNT] = "extra-count",
    [MSHED_CHECK_BATCH_INDEX_RANGE] = "batch-index-range",
    [MSHED_CHECK_BATCH_INDEX_MULTIPLE] = "batch-index-multiple",
    [MSHED_CHECK_BATCH_VERTEX_RANGE] = "batch-vertex-range",
    [MSHED_CHECK_SLOT_BATCH_RANGE] = "slot-batch-range",
    [MSHED_CHECK_SLOT_TRI_RANGE] = "slot-tri-range",
    [MSHED_CHECK_SLOT_NONFINITE] = "slot-nonfinite",
    [MSHED_CHECK_SLOT_AABB_ORDER] = "slot-aabb-order",
    [MSHED_CHECK_SLOT_RADIUS] = "slot-radius",
    [MSHED_CHECK_TRI_LINK] = "tri-link",
    [MSHED_CHECK_NODE_SLOT] = "node-slot",
    [MSHED_CHECK_NODE_PARENT] = "node-parent",
    [MSHED_CHECK_NODE_KEY] = "node-key",
    [MSHED_CHECK_NODE_MAP] = "node-map",
    [MSHED_CHECK_HEADER_NONFINITE] = "header-nonfinite",
    [MSHED_CHECK_ANIM_TRACK] = "anim-track",
    [MSHED_CHECK_ANIM_TIME] = "anim-time",
    [MSHED_CHECK_ANIM_FRAMES] = "anim-frames",
    [MSHED_CHECK_ANIM_MAP_LAYOUT] = "anim-map-layout",
    [MSHED_CHECK_ANIM_MAP_VALUE] = "anim-map-value",
    [MSHED_CHECK_ANIM_MAP_KEY] = "anim-map-key",
    [MSHED_CHECK_ANIM_TIME_ORDER] = "anim-time-order",
    [MSHED_CHECK_ANIM_MAPPED_KEYS] = "anim-mapped-keys",
    [MSHED_CHECK_UTF_TOO_SHORT] = "utf-too-short",
    [MSHED_CHECK_UTF_SIGNATURE] = "utf-signature",
    [MSHED_CHECK_UTF_VERSION] = "utf-version",
    [MSHED_CHECK_UTF_ENTRY_SIZE] = "utf-entry-size",
    [MSHED_CHECK_UTF_REGION] = "utf-region",
    [MSHED_CHECK_UTF_NAMES_SIZE] = "utf-names-size",
    [MSHED_CHECK_UTF_ROOT] = "utf-root",
    [MSHED_CHECK_UTF_LINK] = "utf-link",
    [MSHED_CHECK_UTF_LINK_ALIGN] = "utf-link-align",
    [MSHED_CHECK_UTF_ENTRY_OVERLAP] = "utf-entry-overlap",
    [MSHED_CHECK_UTF_CYCLE] = "utf-cycle",
    [MSHED_CHECK_UTF_DEPTH] = "utf-depth",
    [MSHED_CHECK_UTF_DATA_RANGE] = "utf-data-range",
    [MSHED_CHECK_UTF_ATTRIBUTES] = "utf-attributes",
    [MSHED_CHECK_UTF_NAME_OFFSET] = "utf-name-offset",
    [MSHED_CHECK_UTF_NAME_NUL] = "utf-name-nul",
    [MSHED_CHECK_UTF_DATA_SIZE] = "utf-data-size",
    [MSHED_CHECK_UTF_UNCOMPRESSED] = "utf-uncompressed",
    [MSHED_CHECK_UTF_SHARING] = "utf-sharing",
    [MSHED_CHECK_UTF_TIMESTAMP] = "utf-timestamp",
    [MSHED_CHECK_UTF_DUPLICATE_NAME] = "utf-duplicate-name",
    [MSHED_CHECK_UTF_STRING_NUL] = "utf-string-nul",
    [MSHED_CHECK_UTF_LAYOUT] = "utf-layout",
    [MSHED_CHECK_UTF_PADDING] = "utf-padding",
    [MSHED_CHECK_UTF_OVERLAP] = "utf-overlap",
    [MSHED_CHECK_UTF_EMPTY_DIRECTORY] = "utf-empty-directory",
    [MSHED_CHECK_UTF_HEADER_EXTRA] = "utf-header-extra",
    [MSHED_CHECK_DFM_CMPND_MISSING] = "dfm-cmpnd-missing",
    [MSHED_CHECK_DFM_PART_MISSING] = "dfm-part-missing",
    [MSHED_CHECK_DFM_PART_BONE] = "dfm-part-bone",
    [MSHED_CHECK_DFM_PART_INDEX] = "dfm-part-index",
    [MSHED_CHECK_DFM_PART_DUPLICATE] = "dfm-part-duplicate",
    [MSHED_CHECK_DFM_CONS_KIND] = "dfm-cons-kind",
    [MSHED_CHECK_DFM_CONS_SIZE] = "dfm-cons-size",
    [MSHED_CHECK_DFM_FRACTIONS] = "dfm-fractions",
    [MSHED_CHECK_DFM_MESH_MISSING] = "dfm-mesh-missing",
    [MSHED_CHECK_DFM_GROUP_MATERIAL] = "dfm-group-material",
    [MSHED_CHECK_DFM_GROUP_INDICES] = "dfm-group-indices",
    [MSHED_CHECK_DFM_GEOMETRY_MISSING] = "dfm-geometry-missing",
    [MSHED_CHECK_DFM_UV_PAIR] = "dfm-uv-pair",
    [MSHED_CHECK_DFM_ARRAY_SIZE] = "dfm-array-size",
    [MSHED_CHECK_DFM_BONE_TO_ROOT] = "dfm-bone-to-root",
    [MSHED_CHECK_DFM_POINT_INDEX_RANGE] = "dfm-point-index-range",
    [MSHED_CHECK_DFM_UV_INDEX_RANGE] = "dfm-uv-index-range",
    [MSHED_CHECK_DFM_FACE_INDEX_RANGE] = "dfm-face-index-range",
    [MSHED_CHECK_DFM_CHAIN_RANGE] = "dfm-chain-range",
    [MSHED_CHECK_DFM_BONE_ID_RANGE] = "dfm-bone-id-range",
    [MSHED_CHECK_DFM_UV_BONE_RANGE] = "dfm-uv-bone-range",
    [MSHED_CHECK_DFM_UV_VERTEX_RANGE] = "dfm-uv-vertex-range",
    [MSHED_CHECK_DFM_UV_DEFAULT_LIST] = "dfm-uv-default-list",
    [MSHED_CHECK_DFM_POINT_ARRAYS] = "dfm-point-arrays",
    [MSHED_CHECK_DFM_CHAIN_LENGTHS] = "dfm-chain-lengths",
    [MSHED_CHECK_DFM_ELEMENT_ARRAYS] = "dfm-element-arrays",
    [MSHED_CHECK_DFM_EDGE_COUNT] = "dfm-edge-count",
    [MSHED_CHECK_DFM_FACE_LIST] = "dfm-face-list",
    [MSHED_CHECK_DFM_GROUP_BOTH] = "dfm-group-both",
    [MSHED_CHECK_DFM_STRING_NUL] = "dfm-string-nul",
    [MSHED_CHECK_DFM_NAME_RESIDUE] = "dfm-name-residue",
    [MSHED_CHECK_DFM_EXPORTER_MISSING] = "dfm-exporter-missing",
    [MSHED_CHECK_DFM_SCALE_MISSING] = "dfm-scale-missing",
    [MSHED_CHECK_DFM_LOD_BITS_MISSING] = "dfm-lod-bits-missing",
    [MSHED_CHECK_DFM_GROUP_COUNT] = "dfm-group-count",
    [MSHED_CHECK_DFM_UV_VERTEX_COUNT] = "dfm-uv-vertex-count",
    [MSHED_CHECK_DFM_INFLUENCES] = "dfm-influences",
    [MSHED_CHECK_DFM_ZERO_INFLUENCES] = "dfm-zero-influences",
    [MSHED_CHECK_DFM_WEIGHT_SUM] = "dfm-weight-sum",
    [MSHED_CHECK_DFM_UNREFERENCED_POINTS] = "dfm-unreferenced-points",
    [MSHED_CHECK_DFM_DETACHED_BONE] = "dfm-detached-bone",
    [MSHED_CHECK_DFM_CONS_UNKNOWN_PART] = "dfm-cons-unknown-part",
    [MSHED_CHECK_DFM_UNKNOWN_NODE] = "dfm-unknown-node",
    [MSHED_CHECK_DFM_SKELETON_MISSING] = "dfm-skeleton-missing",
    [MSHED_CHECK_DFM_MULTILEVEL_MISSING] = "dfm-multilevel-missing",
    [MSHED_CHECK_DFM_UV_BONE_BLOCK] = "dfm-uv-bone-block",
    [MSHED_CHECK_DFM_CONS_HIERARCHY] = "dfm-cons-hierarchy",
    [MSHED_CHECK_DFM_MATERIAL_UNRESOLVED] = "dfm-material-unresolved",
  };

  if ((guint) check < G_N_ELEMENTS (names) && names[check] != NULL)
    return names[check];
  return "unknown";
}

MshedDiagnostics *
mshed_diagnostics_new (void)
{
  MshedDiagnostics *self = g_new0 (MshedDiagnostics, 1);

  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_diagnostic_free);
  return self;
}

void
mshed_diagnostics_free (MshedDiagnostics *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->items);
  g_free (self->entry);
  g_free (self);
}

void
mshed_diagnostics_clear (MshedDiagnostics *self)
{
  g_ptr_array_set_size (self->items, 0);
  self->n_errors = 0;
  self->n_warnings = 0;
}

/**
 * mshed_diagnostics_set_context:
 * @base_offset: where the model starts in its file (the outer entry's data_offset)
 * @entry: (nullable): the outer entry name of a nested model
 */
void
mshed_diagnostics_set_context (MshedDiagnostics *self,
                               guint64           base_offset,
                               const char       *entry)
{
  self->base_offset = base_offset;
  g_free (self->entry);
  self->entry = g_strdup (entry);
}

guint
mshed_diagnostics_get_n_items (const MshedDiagnostics *self)
{
  return self->items->len;
}

const MshedDiagnostic *
mshed_diagnostics_get (const MshedDiagnostics *self,
                       guint                   index)
{
  g_return_val_if_fail (index < self->items->len, NULL);
  return g_ptr_array_index (self->items, index);
}

static void
count_item (MshedDiagnostics      *self,
            const MshedDiagnostic *d)
{
  if (d->severity == MSHED_SEVERITY_ERROR)
    self->n_errors++;
  else if (d->severity == MSHED_SEVERITY_WARNING)
    self->n_warnings++;
}

/* fills what every finding has and appends @d */
static void
push_item (MshedDiagnostics *self,
           MshedDiagnostic  *d,
           MshedSeverity     severity,
           MshedCheck        check,
           const char       *field,
           guint64           offset,
           const char       *format,
           va_list           args)
{
  d->severity = severity;
  d->check = check;
  d->field = field;
  d->offset = self->base_offset + offset;
  d->entry = g_strdup (self->entry);
  d->message = g_strdup_vprintf (format, args);
  count_item (self, d);
  g_ptr_array_add (self->items, d);
}

void
mshed_diagnostics_add (MshedDiagnostics *self,
                       MshedSeverity     severity,
                       MshedCheck        check,
                       guint32           res_type,
                       gint              res_index,
                       MshedTableId      table,
                       gint64            record,
                       const char       *field,
                       guint64           offset,
                       const char       *format,
                       ...)
{
  MshedDiagnostic *d = g_new0 (MshedDiagnostic, 1);
  va_list args;

  d->res_type = res_type;
  d->res_index = res_index;
  d->table = table;
  d->record = record;
  va_start (args, format);
  push_item (self, d, severity, check, field, offset, format, args);
  va_end (args);
}

/* a finding about a UTF node, optionally a record of the typed table it holds */
static void
push_node (MshedDiagnostics *self,
           MshedSeverity     severity,
           MshedCheck        check,
           const char       *path,
           MshedTableId      table,
           gint64            record,
           const char       *field,
           guint64           offset,
           const char       *format,
           va_list           args)
{
  MshedDiagnostic *d = g_new0 (MshedDiagnostic, 1);

  d->res_type = G_MAXUINT32;
  d->res_index = -1;
  d->table = table;
  d->record = record;
  d->path = g_strdup (path);
  push_item (self, d, severity, check, field, offset, format, args);
}

/**
 * mshed_diagnostics_add_node:
 * @path: (nullable): the UTF node path (docs/utf.md §9), NULL for the header or a region
 *
 * Adds a finding about a UTF container: no resource, table or record, but a node path.
 */
void
mshed_diagnostics_add_node (MshedDiagnostics *self,
                            MshedSeverity     severity,
                            MshedCheck        check,
                            const char       *path,
                            const char       *field,
                            guint64           offset,
                            const char       *format,
                            ...)
{
  va_list args;

  va_start (args, format);
  push_node (self, severity, check, path, MSHED_TABLE_NONE, -1, field, offset, format, args);
  va_end (args);
}

/**
 * mshed_diagnostics_add_node_record:
 * @path: the UTF node path (`\MultiLevel\Mesh0\Geometry\Points`)
 * @table: the typed table the node holds (a DFM table id, mshed-dfm-schema.h), or
 *   MSHED_TABLE_NONE
 * @record: the record of that table, -1 when none
 *
 * Adds a finding about a record of a typed UTF payload (a DFM table): a node path and a
 * table, record and field, but no NRes resource.
 */
void
mshed_diagnostics_add_node_record (MshedDiagnostics *self,
                                   MshedSeverity     severity,
                                   MshedCheck        check,
                                   const char       *path,
                                   MshedTableId      table,
                                   gint64            record,
                                   const char       *field,
                                   guint64           offset,
                                   const char       *format,
                                   ...)
{
  va_list args;

  va_start (args, format);
  push_node (self, severity, check, path, table, record, field, offset, format, args);
  va_end (args);
}

void
mshed_diagnostics_append (MshedDiagnostics       *self,
                          const MshedDiagnostics *other)
{
  for (guint i = 0; i < other->items->len; i++)
    mshed_diagnostics_add_copy (self, g_ptr_array_index (other->items, i));
}

/* Appends a copy of @item (counted by its severity). */
void
mshed_diagnostics_add_copy (MshedDiagnostics      *self,
                            const MshedDiagnostic *item)
{
  MshedDiagnostic *d = mshed_diagnostic_copy (item);

  count_item (self, d);
  g_ptr_array_add (self->items, d);
}

/**
 * mshed_diagnostics_find:
 *
 * Returns: (transfer none) (nullable): the first diagnostic of that check
 */
const MshedDiagnostic *
mshed_diagnostics_find (const MshedDiagnostics *self,
                        MshedCheck              check)
{
  for (guint i = 0; i < self->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (self->items, i);

      if (d->check == check)
        return d;
    }
  return NULL;
}

/**
 * mshed_diagnostic_format:
 *
 * Returns: (transfer full): "severity: [entry: ]message (offset 0x…)" for one line of output
 */
char *
mshed_diagnostic_format (const MshedDiagnostic *self)
{
  GString *s = g_string_sized_new (128);

  mshed_diagnostic_append_format (s, self);
  return g_string_free (s, FALSE);
}

/**
 * mshed_diagnostic_append_format:
 *
 * Appends what mshed_diagnostic_format() returns to @s, without a string of its own (one
 * line per finding of a folder).
 */
void
mshed_diagnostic_append_format (GString               *s,
                                const MshedDiagnostic *self)
{
  char hex[16];
  guint n = 0;
  guint64 offset = self->offset;
  const char *sev;

  switch (self->severity)
    {
    case MSHED_SEVERITY_INFO:
      sev = _("info");
      break;
    case MSHED_SEVERITY_WARNING:
      sev = _("warning");
      break;
    case MSHED_SEVERITY_ERROR:
    default:
      sev = _("error");
      break;
    }
  g_string_append (s, sev);
  g_string_append (s, ": ");
  if (self->entry)
    {
      g_string_append (s, self->entry);
      g_string_append (s, ": ");
    }
  g_string_append (s, self->message);
  g_string_append (s, " [");
  g_string_append (s, mshed_check_to_string (self->check));
  g_string_append (s, ", offset 0x");
  /* as PRIX64 writes it: upper-case digits, no leading zeros, "0" for zero */
  do
    {
      hex[G_N_ELEMENTS (hex) - ++n] = "0123456789ABCDEF"[offset & 15];
      offset >>= 4;
    }
  while (offset != 0);
  g_string_append_len (s, hex + G_N_ELEMENTS (hex) - n, (gssize) n);
  g_string_append_c (s, ']');
}

/**
 * mshed_diagnostics_find_error:
 * @from: the index of the first item to look at
 *
 * Returns: (transfer none) (nullable): the first error-severity item at or after @from
 */
const MshedDiagnostic *
mshed_diagnostics_find_error (const MshedDiagnostics *self,
                              guint                   from)
{
  for (guint i = from; i < self->items->len; i++)
    {
      const MshedDiagnostic *d = g_ptr_array_index (self->items, i);

      if (d->severity == MSHED_SEVERITY_ERROR)
        return d;
    }
  return NULL;
}

/**
 * mshed_diagnostics_add_suppressed:
 * @count: how many findings of @check a validator did not list (at least 1)
 *
 * Adds one line "N more problems of this kind are not listed" for a check whose findings
 * were cut off, and counts all @count of them in n_errors / n_warnings.
 */
void
mshed_diagnostics_add_suppressed (MshedDiagnostics *self,
                                  MshedSeverity     severity,
                                  MshedCheck        check,
                                  guint             count)
{
  g_return_if_fail (count > 0);
  mshed_diagnostics_add_node_record (self, severity, check, NULL, MSHED_TABLE_NONE, -1, NULL, 0,
                                     g_dngettext (GETTEXT_PACKAGE,
                                                  "%u more problem of this kind (%s) is not "
                                                  "listed",
                                                  "%u more problems of this kind (%s) are not "
                                                  "listed", count),
                                     count, mshed_check_to_string (check));
  /* the counters cover every finding, listed or not */
  if (severity == MSHED_SEVERITY_ERROR)
    self->n_errors += count - 1;
  else if (severity == MSHED_SEVERITY_WARNING)
    self->n_warnings += count - 1;
}
