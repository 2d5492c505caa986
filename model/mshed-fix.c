/* mshed-fix.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reviewable fixes (mshed-fix.h, docs/conventions.md "Fixes"). A plan is made on a scratch
 * copy of the document: the range and sentinel fixes are set there, the recomputes run there,
 * and the plan is the list of fields whose formatted value differs between the copy and the
 * document. So a plan holds exactly what applying it changes, and applying it sets those
 * fields through the document's commands, one undo step.
 */
#define G_LOG_DOMAIN "mshed-fix"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "mshed-dfm-schema.h"
#include "mshed-error.h"
#include "mshed-fix.h"
#include "mshed-nres.h"
#include "mshed-schema.h"

/* The fix kinds ---------------------------------------------------------------------------- */

/* What a check's fix recomputes; MSHED_DERIVED_NONE for the direct fixes. */
static MshedDerived
check_recompute (MshedCheck check)
{
  switch (check)
    {
    case MSHED_CHECK_ATTR1:
    case MSHED_CHECK_ATTR3:
      return MSHED_DERIVED_ATTRIBUTES;
    case MSHED_CHECK_ANIM_FRAMES:
    case MSHED_CHECK_ANIM_MAP_VALUE:
      return MSHED_DERIVED_ANIMATION_MAP;
    case MSHED_CHECK_SLOT_AABB_ORDER:
      return MSHED_DERIVED_SLOT_BOX;
    case MSHED_CHECK_DFM_GROUP_COUNT:
      return MSHED_DERIVED_DFM_GROUP_COUNT;
    case MSHED_CHECK_DFM_UV_VERTEX_COUNT:
      return MSHED_DERIVED_DFM_UV_VERTEX_COUNT;
    case MSHED_CHECK_DFM_PART_INDEX:
      return MSHED_DERIVED_DFM_PART_INDEX;
    case MSHED_CHECK_DFM_LOD_BITS_MISSING:
      return MSHED_DERIVED_DFM_LOD_BITS;
    default:
      return MSHED_DERIVED_NONE;
    }
}

gboolean
mshed_fix_check_has_fix (MshedCheck check)
{
  switch (check)
    {
    case MSHED_CHECK_SLOT_BATCH_RANGE:
    case MSHED_CHECK_SLOT_TRI_RANGE:
    case MSHED_CHECK_BATCH_INDEX_RANGE:
    case MSHED_CHECK_TRI_LINK:
    case MSHED_CHECK_NODE_SLOT:
    case MSHED_CHECK_NODE_PARENT:
    case MSHED_CHECK_NODE_MAP:
      return TRUE;
    default:
      return check_recompute (check) != MSHED_DERIVED_NONE;
    }
}

MshedFixPlan *
mshed_fix_plan_new (const char *spec)
{
  MshedFixPlan *plan = g_new0 (MshedFixPlan, 1);

  plan->spec = g_strdup (spec);
  plan->changes = g_ptr_array_new_with_free_func ((GDestroyNotify) mshed_fix_change_free);
  plan->notes = g_ptr_array_new_with_free_func (g_free);
  return plan;
}

void
mshed_fix_plan_free (MshedFixPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->spec);
  g_ptr_array_unref (plan->changes);
  g_ptr_array_unref (plan->notes);
  g_free (plan);
}

void
mshed_fix_change_free (MshedFixChange *change)
{
  if (change == NULL)
    return;
  g_free (change->fix);
  g_free (change->node);
  g_free (change->field);
  g_free (change->old_value);
  g_free (change->new_value);
  g_free (change);
}

/* Reading a field ------------------------------------------------------------------------- */

/* The 64-byte directory record of entry @row, as docs/nres.md §4 lays it out. */
static gboolean
directory_record (MshedNres *nres,
                  guint      row,
                  guint8     record[MSHED_NRES_RECORD_SIZE])
{
  const MshedTableInfo *info = mshed_schema_get_table (MSHED_TABLE_DIRECTORY);
  const MshedNresEntry *e;
  gsize size = 0;

  if (row >= mshed_nres_get_n_entries (nres))
    return FALSE;
  e = mshed_nres_peek_entry (nres, row);
  mshed_nres_entry_get_data (e, &size);
  memset (record, 0, MSHED_NRES_RECORD_SIZE);
  for (guint i = 0; i < info->n_fields; i++)
    {
      const MshedField *f = &info->fields[i];
      double v = strcmp (f->name, "type") == 0 ? e->type_id :
                 strcmp (f->name, "attr1") == 0 ? e->attr1 :
                 strcmp (f->name, "attr2") == 0 ? e->attr2 :
                 strcmp (f->name, "attr3") == 0 ? e->attr3 :
                 strcmp (f->name, "size") == 0 ? (double) size :
                 strcmp (f->name, "data_offset") == 0 ? e->data_offset : e->sort_index;

      mshed_field_write (f, record, v);
    }
  return TRUE;
}

/* The formatted value of one field of @doc, NULL when the cell does not exist. */
static char *
current_value (MshedDocument *doc,
               MshedTableId   table,
               const char    *node_path,
               guint          row,
               const char    *field_name)
{
  const MshedField *field = NULL;
  const guint8 *record = NULL;
  guint8 dir[MSHED_NRES_RECORD_SIZE];

  if (node_path)
    {
      MshedUtf *utf = mshed_document_get_utf (doc);
      MshedUtfNode *node = utf ? mshed_utf_lookup (utf, node_path) : NULL;
      const MshedDfmTableInfo *info = node ? mshed_dfm_schema_get_table (
                                        mshed_dfm_schema_table_for_node (node)) : NULL;
      const guint8 *data;
      gsize size = 0;

      if (info == NULL || info->stride == 0)
        return NULL;
      data = mshed_utf_node_peek_data (node, &size);
      if ((guint64) (row + 1) * info->stride > size)
        return NULL;
      field = mshed_dfm_schema_find_field (info, field_name);
      record = data + (gsize) row * info->stride;
    }
  else
    {
      MshedModel *model = mshed_document_get_model (doc);

      if (model == NULL)
        return NULL;
      field = mshed_schema_find_field (mshed_schema_get_table (table), field_name);
      if (table == MSHED_TABLE_DIRECTORY)
        record = directory_record (mshed_model_get_nres (model), row, dir) ? dir : NULL;
      else
        record = mshed_model_get_record (model, table, row);
    }
  if (field == NULL || record == NULL)
    return NULL;
  return mshed_field_format (field, record);
}

/* Planning --------------------------------------------------------------------------------- */

typedef struct {
  MshedFixPlan  *plan;
  MshedDocument *doc;      /* the document the plan is for */
  MshedDocument *scratch;  /* its copy, where the fixes are made */
  GHashTable    *tags;     /* "table/node row field" → the check id that set it */
  MshedDerived   recompute;
  GArray        *slot_rows;  /* the slots whose box is recomputed */
} Planner;

static char *
cell_key (MshedTableId  table,
          const char   *node,
          guint         row,
          const char   *field)
{
  return g_strdup_printf ("%d\x1f%s\x1f%u\x1f%s", table, node ? node : "", row, field);
}

/* Sets one field of the copy to @value (raw), tagged with the fix that wants it. */
static void
set_scratch (Planner      *p,
             MshedCheck    check,
             MshedTableId  table,
             guint         row,
             const char   *field,
             double        value)
{
  g_autoptr(GError) error = NULL;

  if (!mshed_document_set_field (p->scratch, table, row, field, value, &error))
    {
      g_ptr_array_add (p->plan->notes, g_strdup_printf ("%s: %s",
                                                        mshed_check_to_string (check),
                                                        error->message));
      return;
    }
  g_hash_table_replace (p->tags, cell_key (table, NULL, row, field),
                        (gpointer) mshed_check_to_string (check));
}

static double
read_field (MshedModel   *model,
            MshedTableId  table,
            guint         row,
            const char   *name)
{
  const MshedField *field = mshed_schema_find_field (mshed_schema_get_table (table), name);
  const guint8 *record = mshed_model_get_record (model, table, row);

  return field && record ? mshed_field_read (field, record) : 0;
}

/* A range START..START+COUNT past the @n rows of its table, clamped to the table: a start past
 * the end moves to the end (an empty range), a count is cut to what is there. @whole: keep
 * whole triangles (a count that was a multiple of 3 stays one). */
static void
clamp_range (Planner      *p,
             MshedCheck    check,
             MshedTableId  table,
             guint         row,
             const char   *start_field,
             const char   *count_field,
             guint64       n,
             gboolean      whole)
{
  MshedModel *model = mshed_document_get_model (p->doc);
  guint64 start = (guint64) read_field (model, table, row, start_field);
  guint64 count = (guint64) read_field (model, table, row, count_field);
  guint64 new_start = MIN (start, n);
  guint64 new_count = MIN (count, n - new_start);

  if (whole && count % 3 == 0)
    new_count -= new_count % 3;
  if (new_start != start)
    set_scratch (p, check, table, row, start_field, (double) new_start);
  if (new_count != count)
    set_scratch (p, check, table, row, count_field, (double) new_count);
}

static void
plan_finding (Planner               *p,
              const MshedDiagnostic *d)
{
  MshedModel *model = mshed_document_get_model (p->doc);
  MshedDerived what = check_recompute (d->check);

  if (what != MSHED_DERIVED_NONE)
    {
      p->recompute |= what;
      if (what == MSHED_DERIVED_SLOT_BOX && d->record >= 0)
        {
          guint row = (guint) d->record;

          g_array_append_val (p->slot_rows, row);
        }
      return;
    }
  if (model == NULL || d->record < 0 || d->field == NULL)
    return;
  switch (d->check)
    {
    case MSHED_CHECK_SLOT_BATCH_RANGE:
      clamp_range (p, d->check, MSHED_TABLE_SLOTS, (guint) d->record, "batchStart",
                   "batchCount", mshed_model_get_n_rows (model, MSHED_TABLE_BATCHES), FALSE);
      break;
    case MSHED_CHECK_SLOT_TRI_RANGE:
      clamp_range (p, d->check, MSHED_TABLE_SLOTS, (guint) d->record, "triStart", "triCount",
                   mshed_model_get_n_rows (model, MSHED_TABLE_TRIS), FALSE);
      break;
    case MSHED_CHECK_BATCH_INDEX_RANGE:
      clamp_range (p, d->check, MSHED_TABLE_BATCHES, (guint) d->record, "indexStart",
                   "indexCount", mshed_model_get_n_rows (model, MSHED_TABLE_INDICES), TRUE);
      break;
    case MSHED_CHECK_TRI_LINK:
    case MSHED_CHECK_NODE_SLOT:
    case MSHED_CHECK_NODE_PARENT:
    case MSHED_CHECK_NODE_MAP:
      set_scratch (p, d->check, d->table, (guint) d->record, d->field, MSHED_NONE);
      break;
    default:
      break;
    }
}

static void
add_change (Planner      *p,
            MshedTableId  table,
            const char   *node,
            guint         row,
            const char   *field,
            char         *old_value,
            char         *new_value)
{
  g_autofree char *key = cell_key (table, node, row, field);
  const char *tag = g_hash_table_lookup (p->tags, key);
  MshedFixChange *c = g_new0 (MshedFixChange, 1);

  if (tag == NULL && node)
    {
      /* a DFM recompute: the check of the file's table */
      MshedUtfNode *n = mshed_utf_lookup (mshed_document_get_utf (p->scratch), node);

      switch (n ? mshed_dfm_schema_table_for_node (n) : MSHED_DFM_TABLE_NONE)
        {
        case MSHED_DFM_TABLE_GROUP_COUNT:
          tag = mshed_check_to_string (MSHED_CHECK_DFM_GROUP_COUNT);
          break;
        case MSHED_DFM_TABLE_UV_VERTEX_COUNT:
          tag = mshed_check_to_string (MSHED_CHECK_DFM_UV_VERTEX_COUNT);
          break;
        case MSHED_DFM_TABLE_PART_INDEX:
          tag = mshed_check_to_string (MSHED_CHECK_DFM_PART_INDEX);
          break;
        case MSHED_DFM_TABLE_LOD_BITS:
          tag = mshed_check_to_string (MSHED_CHECK_DFM_LOD_BITS_MISSING);
          break;
        default:
          break;
        }
    }
  if (tag == NULL)
    {
      /* a recompute: the one whose table this is, else the first one asked for */
      MshedDerived target = MSHED_DERIVED_NONE;

      for (guint bit = 0; bit < MSHED_N_DERIVED; bit++)
        if ((p->recompute & (1u << bit)) &&
            (target == MSHED_DERIVED_NONE ||
             mshed_derived_get_table ((MshedDerived) (1u << bit)) == table))
          target = (MshedDerived) (1u << bit);
      tag = target ? mshed_derived_get_name (target) : "recompute";
    }
  c->fix = g_strdup (tag);
  c->table = table;
  c->node = g_strdup (node);
  c->row = row;
  c->field = g_strdup (field);
  c->old_value = old_value;
  c->new_value = new_value;
  g_ptr_array_add (p->plan->changes, c);
}

/* Compares one record's fields of the document and the copy. */
static void
diff_record (Planner          *p,
             MshedTableId      table,
             const char       *node,
             guint             row,
             const MshedField *fields,
             guint             n_fields,
             const guint8     *old_rec,
             const guint8     *new_rec,
             gsize             stride)
{
  if (memcmp (old_rec, new_rec, stride) == 0)
    return;
  for (guint i = 0; i < n_fields; i++)
    {
      char *o = mshed_field_format (&fields[i], old_rec);
      char *n = mshed_field_format (&fields[i], new_rec);

      if (strcmp (o, n) != 0)
        add_change (p, table, node, row, fields[i].name, o, n);
      else
        {
          g_free (o);
          g_free (n);
        }
    }
}

static void
diff_model (Planner *p)
{
  MshedModel *a = mshed_document_get_model (p->doc);
  MshedModel *b = mshed_document_get_model (p->scratch);

  for (MshedTableId t = 0; t < MSHED_N_TABLES; t++)
    {
      const MshedTableInfo *info = mshed_schema_get_table (t);
      guint n = mshed_model_get_n_rows (a, t);

      if (t == MSHED_TABLE_NAMES)
        continue;
      if (n != mshed_model_get_n_rows (b, t))
        {
          g_ptr_array_add (p->plan->notes,
                           g_strdup_printf (_("Table %s: the fix changes the number of rows, "
                                              "which a plan cannot hold; use “mshed-cli edit "
                                              "--recompute” instead"), info->name));
          continue;
        }
      for (guint row = 0; row < n; row++)
        {
          guint8 da[MSHED_NRES_RECORD_SIZE], db[MSHED_NRES_RECORD_SIZE];
          const guint8 *ra, *rb;
          gsize stride = info->stride;

          if (t == MSHED_TABLE_DIRECTORY)
            {
              directory_record (mshed_model_get_nres (a), row, da);
              directory_record (mshed_model_get_nres (b), row, db);
              ra = da;
              rb = db;
              stride = MSHED_NRES_RECORD_SIZE;
            }
          else
            {
              ra = mshed_model_get_record (a, t, row);
              rb = mshed_model_get_record (b, t, row);
            }
          if (ra && rb)
            diff_record (p, t, NULL, row, info->fields, info->n_fields, ra, rb, stride);
        }
    }
}

static void
diff_dfm (Planner *p)
{
  MshedUtf *a = mshed_document_get_utf (p->doc);
  MshedUtfNode *root = mshed_utf_get_root (mshed_document_get_utf (p->scratch));

  for (MshedUtfNode *nb = root; nb; nb = mshed_utf_node_next_preorder (nb, root))
    {
      const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (
                                        mshed_dfm_schema_table_for_node (nb));
      g_autofree char *path = NULL;
      MshedUtfNode *na;
      const guint8 *da, *db;
      gsize sa = 0, sb = 0;

      if (mshed_utf_node_is_directory (nb) || info == NULL || info->stride == 0)
        continue;
      path = mshed_utf_node_dup_path (nb);
      na = mshed_utf_lookup (a, path);
      db = mshed_utf_node_peek_data (nb, &sb);
      da = na ? mshed_utf_node_peek_data (na, &sa) : NULL;
      if (na && sa == sb && (sa == 0 || memcmp (da, db, sa) == 0))
        continue;
      if (na == NULL || sa != sb)
        {
          g_ptr_array_add (p->plan->notes,
                           g_strdup_printf (na ? _("%s: the fix changes its size, which a plan "
                                                   "cannot hold; use “mshed-cli edit "
                                                   "--recompute” instead")
                                               : _("%s: the fix adds this file, which a plan "
                                                   "cannot hold; use “mshed-cli edit "
                                                   "--recompute” instead"), path));
          continue;
        }
      for (guint row = 0; (gsize) (row + 1) * info->stride <= sa; row++)
        diff_record (p, MSHED_TABLE_NONE, path, row, info->fields, info->n_fields,
                     da + (gsize) row * info->stride, db + (gsize) row * info->stride,
                     info->stride);
    }
}

/* A copy of @doc's model or tree, in a document of its own. */
static MshedDocument *
scratch_copy (MshedDocument *doc)
{
  MshedModel *model = mshed_document_get_model (doc);
  MshedUtf *utf = mshed_document_get_utf (doc);

  if (model)
    {
      g_autoptr(GBytes) bytes = mshed_model_serialize (model);
      g_autoptr(MshedDiagnostics) diags = mshed_diagnostics_new ();
      g_autoptr(MshedModel) copy = mshed_model_new_from_bytes (bytes, MSHED_MODE_TOLERANT,
                                                               diags, NULL);

      return copy ? mshed_document_new_for_model (copy, MSHED_MODE_TOLERANT) : NULL;
    }
  if (utf)
    {
      g_autoptr(MshedUtf) copy = mshed_utf_copy (utf);

      return mshed_document_new_for_utf (copy, MSHED_MODE_TOLERANT);
    }
  return NULL;
}

MshedFixPlan *
mshed_fix_plan (MshedDocument          *doc,
                const MshedDiagnostics *diags,
                const char             *spec)
{
  MshedFixPlan *plan = mshed_fix_plan_new (spec);
  g_autoptr(MshedDocument) scratch = NULL;
  g_autoptr(GHashTable) tags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) slot_rows = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GError) error = NULL;
  guint n = mshed_diagnostics_get_n_items (diags);
  Planner p = { plan, doc, NULL, tags, MSHED_DERIVED_NONE, slot_rows };
  gboolean any = FALSE;

  for (guint i = 0; i < n && !any; i++)
    any = mshed_fix_check_has_fix (mshed_diagnostics_get (diags, i)->check);
  /* nothing to fix: no copy */
  if (!any || (scratch = scratch_copy (doc)) == NULL)
    return plan;
  p.scratch = scratch;
  for (guint i = 0; i < n; i++)
    plan_finding (&p, mshed_diagnostics_get (diags, i));
  if (p.recompute & MSHED_DERIVED_SLOT_BOX)
    {
      if (!mshed_document_recompute (scratch, MSHED_DERIVED_SLOT_BOX,
                                     (const guint *) slot_rows->data, slot_rows->len, &error))
        g_ptr_array_add (plan->notes, g_strdup (error->message));
      g_clear_error (&error);
    }
  if ((p.recompute & ~MSHED_DERIVED_SLOT_BOX) &&
      !mshed_document_recompute (scratch, p.recompute & ~MSHED_DERIVED_SLOT_BOX, NULL, 0,
                                 &error))
    g_ptr_array_add (plan->notes, g_strdup (error->message));
  if (mshed_document_get_model (doc))
    diff_model (&p);
  else
    diff_dfm (&p);
  return plan;
}

/* Applying ---------------------------------------------------------------------------------- */

static char *
change_cell_text (const MshedFixChange *c)
{
  return g_strdup_printf ("%s[%u].%s", c->node ? c->node : mshed_schema_get_table (c->table)->name,
                          c->row, c->field);
}

/* "TABLE[ROW].FIELD: OLD -> NEW", as a plan line shows the change (without file and fix). */
char *
mshed_fix_change_describe (const MshedFixChange *change)
{
  g_autofree char *cell = change_cell_text (change);

  return g_strdup_printf ("%s: %s -> %s", cell, change->old_value, change->new_value);
}

static gboolean
apply_change (MshedDocument        *doc,
              const MshedFixChange *c,
              GError              **error)
{
  if (c->node)
    {
      MshedUtfNode *node = mshed_utf_lookup (mshed_document_get_utf (doc), c->node);

      return mshed_document_dfm_set_field (doc, node, c->row, c->field, c->new_value, error);
    }
  return mshed_document_set_field_text (doc, c->table, c->row, c->field, c->new_value, error);
}

gboolean
mshed_fix_plan_check (MshedDocument      *doc,
                      const MshedFixPlan *plan,
                      GError            **error)
{
  for (guint i = 0; i < plan->changes->len; i++)
    {
      const MshedFixChange *c = g_ptr_array_index (plan->changes, i);
      g_autofree char *now = current_value (doc, c->table, c->node, c->row, c->field);

      if (c->node && mshed_document_get_dfm (doc) == NULL)
        g_clear_pointer (&now, g_free);
      if (now == NULL || strcmp (now, c->old_value) != 0)
        {
          g_autofree char *cell = change_cell_text (c);

          if (now == NULL)
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                         _("%s: %s does not exist; the plan does not match the file"),
                         plan->spec, cell);
          else
            g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                         _("%s: %s is %s, not %s as the plan says; the file changed since "
                           "the plan was made"), plan->spec, cell, now, c->old_value);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
mshed_fix_plan_apply (MshedDocument      *doc,
                      const MshedFixPlan *plan,
                      GError            **error)
{
  if (!mshed_fix_plan_check (doc, plan, error))
    return FALSE;
  if (plan->changes->len == 0)
    return TRUE;
  mshed_document_begin_group (doc, _("Apply fixes"));
  for (guint i = 0; i < plan->changes->len; i++)
    if (!apply_change (doc, g_ptr_array_index (plan->changes, i), error))
      {
        mshed_document_end_group (doc);
        mshed_document_undo (doc);
        g_prefix_error (error, "%s: ", plan->spec);
        return FALSE;
      }
  mshed_document_end_group (doc);
  return TRUE;
}

/* The plan text ----------------------------------------------------------------------------- */

const char *
mshed_fix_plan_header (void)
{
  return "# mshed fix plan 1\n"
         "# FILE[:ENTRY]<TAB>TABLE[ROW].FIELD: OLD -> NEW<TAB># FIX (delete a line to skip it)\n";
}

void
mshed_fix_plan_write (const MshedFixPlan *plan,
                      GString            *out)
{
  for (guint i = 0; i < plan->changes->len; i++)
    {
      const MshedFixChange *c = g_ptr_array_index (plan->changes, i);
      g_autofree char *text = mshed_fix_change_describe (c);

      g_string_append_printf (out, "%s\t%s\t# %s\n", plan->spec, text, c->fix);
    }
}

/* Parses "TABLE[ROW].FIELD: OLD -> NEW" into @c. */
static gboolean
parse_change (const char     *text,
              MshedFixChange *c)
{
  const char *arrow = g_strrstr (text, " -> ");
  g_autofree char *left = arrow ? g_strndup (text, (gsize) (arrow - text)) : NULL;
  char *dot, *colon, *open, *end = NULL;
  guint64 row;

  if (left == NULL || (dot = g_strrstr (left, "].")) == NULL ||
      (colon = strstr (dot, ": ")) == NULL)
    return FALSE;
  *dot = '\0';
  *colon = '\0';
  if ((open = strrchr (left, '[')) == NULL)
    return FALSE;
  *open = '\0';
  row = g_ascii_strtoull (open + 1, &end, 10);
  if (end == open + 1 || *end != '\0' || row > G_MAXUINT || dot[2] == '\0' || *left == '\0')
    return FALSE;
  c->row = (guint) row;
  c->field = g_strdup (dot + 2);
  c->old_value = g_strdup (colon + 2);
  c->new_value = g_strstrip (g_strdup (arrow + 4));
  if (left[0] == '\\')
    {
      c->table = MSHED_TABLE_NONE;
      c->node = g_strdup (left);
      return TRUE;
    }
  {
    const MshedTableInfo *info = mshed_schema_find_table (left);

    if (info == NULL)
      return FALSE;
    c->table = info->id;
  }
  return TRUE;
}

GPtrArray *
mshed_fix_plans_parse (const char *text,
                       GError    **error)
{
  g_autoptr(GPtrArray) plans = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                               mshed_fix_plan_free);
  g_autoptr(GHashTable) by_spec = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) parts = NULL;
      MshedFixChange *c;
      MshedFixPlan *plan;
      char *line = lines[i];

      g_strchomp (line);
      if (line[0] == '\0' || line[0] == '#')
        continue;
      parts = g_strsplit (line, "\t", 3);
      c = g_new0 (MshedFixChange, 1);
      if (g_strv_length (parts) < 2 || parts[0][0] == '\0' || !parse_change (parts[1], c))
        {
          mshed_fix_change_free (c);
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                       _("line %u: not a change (FILE<TAB>TABLE[ROW].FIELD: OLD -> NEW)"),
                       i + 1);
          return NULL;
        }
      c->fix = g_strdup (parts[2] && g_str_has_prefix (parts[2], "# ") ? parts[2] + 2 : "");
      plan = g_hash_table_lookup (by_spec, parts[0]);
      if (plan == NULL)
        {
          plan = mshed_fix_plan_new (parts[0]);
          g_ptr_array_add (plans, plan);
          g_hash_table_insert (by_spec, plan->spec, plan);
        }
      g_ptr_array_add (plan->changes, c);
    }
  return g_steal_pointer (&plans);
}
