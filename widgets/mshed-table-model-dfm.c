/* mshed-table-model-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table model over a DFM table (docs/dfm.md §2, mshed-dfm-schema.h): rows are the
 * records of one typed file of a level (group, part), or one row per bone for the files every
 * bone directory holds once; columns come from the DFM schema; edits go through
 * mshed_document_dfm_set_field() (names of bones through mshed_document_utf_rename()).
 * Linked files with one record per point (normals, influences) show beside the points.
 */
#define G_LOG_DOMAIN "mshed-table-model"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-cp1251.h"
#include "mshed-error.h"
#include "mshed-table-model-private.h"

static MshedDfm *
get_dfm (MshedTableModel *self)
{
  return self->document ? mshed_document_get_dfm (self->document) : NULL;
}

static guint
scope_count (MshedDfm      *dfm,
             MshedDfmScope  scope)
{
  switch (scope)
    {
    case MSHED_DFM_SCOPE_BONE:
      return mshed_dfm_get_n_bones (dfm);
    case MSHED_DFM_SCOPE_PART:
      return mshed_dfm_get_n_parts (dfm);
    case MSHED_DFM_SCOPE_MATERIAL:
      return mshed_dfm_get_n_materials (dfm);
    case MSHED_DFM_SCOPE_HARDPOINT:
      {
        guint n = 0;

        for (guint i = 0; i < mshed_dfm_get_n_bones (dfm); i++)
          {
            MshedDfmBone bone;

            if (mshed_dfm_get_bone (dfm, i, &bone))
              n += bone.n_hardpoints;
          }
        return n;
      }
    case MSHED_DFM_SCOPE_ROOT:
    case MSHED_DFM_SCOPE_MULTILEVEL:
    case MSHED_DFM_SCOPE_FACE_GROUPS:
    case MSHED_DFM_SCOPE_GROUP:
    case MSHED_DFM_SCOPE_GEOMETRY:
    case MSHED_DFM_SCOPE_SKELETON:
    case MSHED_DFM_SCOPE_CMPND:
    case MSHED_DFM_SCOPE_CONS:
    case MSHED_DFM_SCOPE_MATERIAL_LIBRARY:
    default:
      return 1;
    }
}

/* The address (a, b) of row @row of a table with one record per scope: the bone, part or
 * material; for hardpoints, every hardpoint of every bone in bone order. */
static gboolean
scope_address (MshedDfm      *dfm,
               MshedDfmScope  scope,
               guint          row,
               guint         *a,
               guint         *b)
{
  *a = row;
  *b = 0;
  if (scope != MSHED_DFM_SCOPE_HARDPOINT)
    return TRUE;
  for (guint i = 0; i < mshed_dfm_get_n_bones (dfm); i++)
    {
      MshedDfmBone bone;

      if (!mshed_dfm_get_bone (dfm, i, &bone))
        continue;
      if (row < bone.n_hardpoints)
        {
          *a = i;
          *b = row;
          return TRUE;
        }
      row -= bone.n_hardpoints;
    }
  return FALSE;
}

void
_mshed_table_model_dfm_init (MshedTableModel *self)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table ((MshedDfmTable) self->table);

  self->dfm_table = info->id;
  self->per_scope = info->single && (info->scope == MSHED_DFM_SCOPE_BONE ||
                                     info->scope == MSHED_DFM_SCOPE_HARDPOINT ||
                                     info->scope == MSHED_DFM_SCOPE_PART ||
                                     info->scope == MSHED_DFM_SCOPE_MATERIAL);
}

/* The file that holds row @row of @table, and the record's index in it. */
static MshedUtfNode *
node_for (MshedTableModel *self,
          MshedDfmTable    table,
          guint            row,
          guint           *record)
{
  MshedDfm *dfm = get_dfm (self);
  guint a, b;

  if (dfm == NULL)
    return NULL;
  *record = self->per_scope ? 0 : row;
  if (table == MSHED_DFM_TABLE_TRIANGLES)
    return _mshed_table_model_tris_node (self, NULL);
  if (!self->per_scope)
    return mshed_dfm_find_node (dfm, table, self->dfm_a, self->dfm_b);
  if (!scope_address (dfm, mshed_dfm_schema_get_table (table)->scope, row, &a, &b))
    return NULL;
  return mshed_dfm_find_node (dfm, table, a, b);
}

guint
_mshed_table_model_dfm_count_rows (MshedTableModel *self)
{
  MshedDfm *dfm = get_dfm (self);
  MshedDfmArray array;

  if (dfm == NULL)
    return 0;
  if (self->per_scope)
    return scope_count (dfm, mshed_dfm_schema_get_table (self->dfm_table)->scope);
  if (self->dfm_table == MSHED_DFM_TABLE_TRIANGLES)
    return _mshed_table_model_tris_count (self);
  if (!mshed_dfm_get_array (dfm, self->dfm_table, self->dfm_a, self->dfm_b, &array))
    return 0;
  return array.count;
}

const guint8 *
_mshed_table_model_dfm_record (MshedTableModel *self,
                               MshedDfmTable    table,
                               guint            row)
{
  MshedDfm *dfm = get_dfm (self);
  MshedDfmArray array;
  guint record = self->per_scope ? 0 : row;
  guint a = self->dfm_a, b = self->dfm_b;
  gboolean found;

  if (dfm == NULL)
    return NULL;
  if (table == MSHED_DFM_TABLE_TRIANGLES)
    return _mshed_table_model_tris_record (self, row);
  if (self->per_scope &&
      !scope_address (dfm, mshed_dfm_schema_get_table (table)->scope, row, &a, &b))
    return NULL;
  found = mshed_dfm_get_array (dfm, table, a, b, &array);
  if (!found || array.stride == 0 || record >= array.count)
    return NULL;
  return array.data + (gsize) record * array.stride;
}

MshedDerived
_mshed_table_model_dfm_stale_mask (MshedTableId table)
{
  MshedDerived mask = MSHED_DERIVED_NONE;

  for (guint t = 0; t < MSHED_N_DERIVED; t++)
    if (mshed_derived_get_table ((MshedDerived) (1u << t)) == table)
      mask |= (MshedDerived) (1u << t);
  return mask;
}

/* Decoded frames (docs/dfm.md §9.1, §10.2): the rotation of a record as Euler angles in
 * degrees, M = Rz (z) · Ry (y) · Rx (x) (about x first, then y, then z, fixed axes); a bone's
 * Bone to root as its bind frame [Rᵀ | −Rᵀ·t]: the bone's origin and rotation in model
 * space. */
static const struct {
  const char *id;
  const char *blurb;
} frame_columns[] = {
  { "bind_x", N_("Bone origin in model space, x (decoded, −Rᵀ·t)") },
  { "bind_y", N_("Bone origin in model space, y (decoded, −Rᵀ·t)") },
  { "bind_z", N_("Bone origin in model space, z (decoded, −Rᵀ·t)") },
  { "bind_rx", N_("Bone rotation in model space about x, degrees (decoded from Rᵀ)") },
  { "bind_ry", N_("Bone rotation in model space about y, degrees (decoded from Rᵀ)") },
  { "bind_rz", N_("Bone rotation in model space about z, degrees (decoded from Rᵀ)") },
  { "rx", N_("Rotation about x, degrees (decoded from the matrix)") },
  { "ry", N_("Rotation about y, degrees (decoded from the matrix)") },
  { "rz", N_("Rotation about z, degrees (decoded from the matrix)") },
};

/* Decoded Cons joints (docs/dfm.md §9): where the child's frame sits in the parent's, the
 * axis in the parent's frame, and the limits in degrees (turns) or model units (slides). */
static const struct {
  const char *id;
  const char *blurb;
} cons_columns[] = {
  { "origin_x", N_("Child origin in the parent frame, x (decoded)") },
  { "origin_y", N_("Child origin in the parent frame, y (decoded)") },
  { "origin_z", N_("Child origin in the parent frame, z (decoded)") },
  { "axis_x", N_("Axis in the parent frame, x (decoded: rotation · axis, normalised)") },
  { "axis_y", N_("Axis in the parent frame, y (decoded: rotation · axis, normalised)") },
  { "axis_z", N_("Axis in the parent frame, z (decoded: rotation · axis, normalised)") },
  { "min_deg", N_("Lower turn limit in degrees (decoded)") },
  { "max_deg", N_("Upper turn limit in degrees (decoded)") },
  { "slide_min", N_("Lower slide limit in model units (decoded)") },
  { "slide_max", N_("Upper slide limit in model units (decoded)") },
  { "minX_deg", N_("Lower turn limit about x in degrees (decoded)") },
  { "maxX_deg", N_("Upper turn limit about x in degrees (decoded)") },
  { "minY_deg", N_("Lower turn limit about y in degrees (decoded)") },
  { "maxY_deg", N_("Upper turn limit about y in degrees (decoded)") },
  { "minZ_deg", N_("Lower turn limit about z in degrees (decoded)") },
  { "maxZ_deg", N_("Upper turn limit about z in degrees (decoded)") },
};

enum {
  CONS_ORIGIN = 1 << 0,
  CONS_AXIS = 1 << 1,
  CONS_TURN = 1 << 2,
  CONS_SLIDE = 1 << 3,
  CONS_SPHERE = 1 << 4,
};

/* which decoded columns a kind has */
static guint
cons_decoded (MshedDfmTable table)
{
  switch (table)
    {
    case MSHED_DFM_TABLE_CONS_REV:
      return CONS_ORIGIN | CONS_AXIS | CONS_TURN;
    case MSHED_DFM_TABLE_CONS_PRIS:
      return CONS_ORIGIN | CONS_AXIS | CONS_SLIDE;
    case MSHED_DFM_TABLE_CONS_CYL:
      return CONS_ORIGIN | CONS_AXIS | CONS_SLIDE | CONS_TURN;
    case MSHED_DFM_TABLE_CONS_SPHERE:
      return CONS_ORIGIN | CONS_SPHERE;
    default:
      return CONS_ORIGIN;
    }
}

static void
add_cons_columns (MshedTableModel *self,
                  guint            first,
                  guint            n)
{
  for (guint i = first; i < first + n; i++)
    _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_FRAME, self->table,
                                    cons_columns[i].id, cons_columns[i].id,
                                    g_dgettext (GETTEXT_PACKAGE, cons_columns[i].blurb), 10,
                                    FALSE, TRUE);
}

/* the float of field @name of @record, NAN when the table has no such field */
static double
record_float (const MshedDfmTableInfo *info,
              const guint8            *record,
              const char              *name)
{
  const MshedField *f = mshed_dfm_schema_find_field (info, name);

  return f != NULL ? mshed_read_f32 (record + f->offset) : NAN;
}

/* A decoded Cons value (cons_columns): the origin is the position (Fix, Loose), the position
 * plus the offset (Rev, Pris, Cyl: where Librelancer puts the child), or, for Sphere,
 * parent point − rotation · child point (docs/dfm.md §9.2). */
static double
cons_value (const MshedDfmTableInfo *info,
            const guint8            *record,
            const char              *id)
{
  gboolean sphere = info->id == MSHED_DFM_TABLE_CONS_SPHERE;
  guint k = (guint) (id[strlen (id) - 1] - 'x');
  double r[9];

  for (guint i = 0; i < 9; i++)
    {
      char name[8];

      g_snprintf (name, sizeof name, "rot%u%u", i / 3, i % 3);
      r[i] = record_float (info, record, name);
    }
  if (g_str_has_prefix (id, "origin_") && k < 3)
    {
      static const char *const pos[] = { "posX", "posY", "posZ" };
      static const char *const off[] = { "offX", "offY", "offZ" };
      static const char *const parent[] = { "parentX", "parentY", "parentZ" };
      static const char *const child[] = { "childX", "childY", "childZ" };

      if (sphere)
        return record_float (info, record, parent[k]) -
               (r[3 * k] * record_float (info, record, child[0]) +
                r[3 * k + 1] * record_float (info, record, child[1]) +
                r[3 * k + 2] * record_float (info, record, child[2]));
      if (cons_decoded (info->id) & CONS_AXIS)
        return record_float (info, record, pos[k]) + record_float (info, record, off[k]);
      return record_float (info, record, pos[k]);
    }
  if (g_str_has_prefix (id, "axis_") && k < 3)
    {
      double a[3], len;

      for (guint i = 0; i < 3; i++)
        a[i] = r[3 * i] * record_float (info, record, "axisX") +
               r[3 * i + 1] * record_float (info, record, "axisY") +
               r[3 * i + 2] * record_float (info, record, "axisZ");
      len = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
      return len > 1e-9 ? a[k] / len : NAN;
    }
  if (g_str_equal (id, "slide_min") || g_str_equal (id, "slide_max"))
    return record_float (info, record,
                         info->id == MSHED_DFM_TABLE_CONS_CYL
                           ? (id[6] == 'm' && id[7] == 'i' ? "minTrans" : "maxTrans")
                           : (id[7] == 'i' ? "min" : "max"));
  if (g_str_equal (id, "min_deg") || g_str_equal (id, "max_deg"))
    return record_float (info, record,
                         info->id == MSHED_DFM_TABLE_CONS_CYL
                           ? (id[1] == 'i' ? "minRot" : "maxRot")
                           : (id[1] == 'i' ? "min" : "max")) * 180.0 / G_PI;
  if (g_str_has_suffix (id, "_deg"))
    {
      /* minX_deg → minX */
      g_autofree char *field = g_strndup (id, 4);

      return record_float (info, record, field) * 180.0 / G_PI;
    }
  return NAN;
}

static void
add_frame_columns (MshedTableModel *self,
                   MshedDfmTable    table,
                   guint            first,
                   guint            n)
{
  for (guint i = first; i < first + n; i++)
    _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_FRAME, MSHED_DFM_TABLE_ID (table),
                                    frame_columns[i].id, frame_columns[i].id,
                                    g_dgettext (GETTEXT_PACKAGE, frame_columns[i].blurb), 10,
                                    FALSE, TRUE);
}

/* Euler angles x, y, z (degrees) of the rotation M[i][j] = m[3i + j], M = Rz · Ry · Rx. */
static void
euler_degrees (const double m[9],
               double       out[3])
{
  double sy = -m[6];

  if (sy >= 1.0 - 1e-9 || sy <= -1.0 + 1e-9)
    {
      /* gimbal lock: x folds into z */
      out[0] = 0.0;
      out[1] = sy > 0 ? 90.0 : -90.0;
      out[2] = atan2 (-m[1], m[4]) * 180.0 / G_PI;
      return;
    }
  out[0] = atan2 (m[7], m[8]) * 180.0 / G_PI;
  out[1] = asin (sy) * 180.0 / G_PI;
  out[2] = atan2 (m[3], m[0]) * 180.0 / G_PI;
}

static char *
dup_frame_text (MshedTableModel        *self,
                const MshedTableColumn *c,
                guint                   row)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table ((MshedDfmTable) c->table);
  const guint8 *record = _mshed_table_model_dfm_record (self, (MshedDfmTable) c->table, row);
  const MshedField *r00 = NULL;
  double m[9], out[3], value;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean bind = g_str_has_prefix (c->id, "bind_");
  char axis = c->id[strlen (c->id) - 1];

  if (record == NULL || info == NULL)
    return NULL;
  if (info->scope == MSHED_DFM_SCOPE_CONS && !g_str_equal (c->id, "rx") &&
      !g_str_equal (c->id, "ry") && !g_str_equal (c->id, "rz"))
    {
      value = cons_value (info, record, c->id);
      goto format;
    }
  r00 = mshed_dfm_schema_find_field (info, "r00");
  if (r00 == NULL)
    r00 = mshed_dfm_schema_find_field (info, "rot00");
  if (r00 == NULL)
    return NULL;
  for (guint i = 0; i < 9; i++)
    {
      /* the bind frame's rotation is Rᵀ */
      m[bind ? 3 * (i % 3) + i / 3 : i] = mshed_read_f32 (record + r00->offset + 4 * i);
    }
  if (bind && (axis == 'x' || axis == 'y' || axis == 'z') && c->id[5] != 'r')
    {
      guint k = (guint) (axis - 'x');
      double t[3];

      for (guint i = 0; i < 3; i++)
        t[i] = mshed_read_f32 (record + 36 + 4 * i);
      /* −Rᵀ·t: row k of Rᵀ is m[3k…] */
      value = -(m[3 * k] * t[0] + m[3 * k + 1] * t[1] + m[3 * k + 2] * t[2]);
    }
  else
    {
      euler_degrees (m, out);
      value = out[axis - 'x'];
    }
format:
  if (!isfinite (value))
    return g_strdup ("—");
  /* as every cell: a dot whatever the locale (copy, paste, sort) */
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.4f", fabs (value) < 5e-5 ? 0.0 : value));
}

/* Elements (docs/dfm.md §6.1, §6.2): the values of the element's point and UVs joined in,
 * read-only, as a renderer welds them; they follow the references when those are edited. */
static const struct {
  const char *id;
  const char *blurb;
} joined_columns[] = {
  { "pos_x", N_("Position x of the element's point (joined from Points)") },
  { "pos_y", N_("Position y of the element's point (joined from Points)") },
  { "pos_z", N_("Position z of the element's point (joined from Points)") },
  { "nrm_x", N_("Normal x of the element's point (joined from Vertex_normals)") },
  { "nrm_y", N_("Normal y of the element's point (joined from Vertex_normals)") },
  { "nrm_z", N_("Normal z of the element's point (joined from Vertex_normals)") },
  { "uv0_u", N_("Texture u (joined from UV0)") },
  { "uv0_v", N_("Texture v (joined from UV0)") },
  { "uv1_u", N_("Second texture u (joined from UV1)") },
  { "uv1_v", N_("Second texture v (joined from UV1)") },
  { "skin", N_("Bones and weights of the element's point (joined from the bone chains)") },
};

static char *
format_float (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    return g_strdup ("—");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.4f", fabs (value) < 5e-5 ? 0.0 : value));
}

/* "Name 0.7500, Other 0.2500": the influences of point @point (bone names as the Bones grid
 * shows them: the part's Object name, else the directory) */
static char *
dup_skin_text (MshedDfm *dfm,
               guint     level,
               guint     point)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint32 first, count;

  if (!mshed_dfm_get_skin_range (dfm, level, point, &first, &count))
    return NULL;
  for (guint32 i = 0; i < count; i++)
    {
      MshedDfmBone bone;
      guint32 id;
      float weight;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (!mshed_dfm_get_influence (dfm, level, first + i, &id, &weight))
        continue;
      if (s->len > 0)
        g_string_append (s, ", ");
      if (mshed_dfm_get_bone (dfm, id, &bone))
        g_string_append (s, bone.object_name ? bone.object_name : bone.name);
      else
        g_string_append_printf (s, "#%u", id);
      g_string_append_printf (s, " %s", g_ascii_formatd (buf, sizeof buf, "%.4f", weight));
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
dup_joined_text (MshedTableModel        *self,
                 const MshedTableColumn *c,
                 guint                   row)
{
  MshedDfm *dfm = get_dfm (self);
  MshedDfmElement el;
  guint k = (guint) (c->id[strlen (c->id) - 1] - 'x');

  if (dfm == NULL || !mshed_dfm_get_element (dfm, self->dfm_a, row, &el))
    return NULL;
  if (g_str_equal (c->id, "skin"))
    return dup_skin_text (dfm, self->dfm_a, el.point);
  if (g_str_has_prefix (c->id, "pos_") && k < 3)
    return format_float (el.position[k]);
  if (g_str_has_prefix (c->id, "nrm_") && k < 3)
    return format_float (el.normal[k]);
  if (g_str_has_prefix (c->id, "uv0_"))
    return format_float (el.uv0[c->id[4] == 'v']);
  if (g_str_has_prefix (c->id, "uv1_") && el.has_uv1)
    return format_float (el.uv1[c->id[4] == 'v']);
  return NULL;
}

/* A joined cell follows to the element's point. */
gboolean
_mshed_table_model_dfm_joined_reference (MshedTableModel *self,
                                         guint            row,
                                         MshedTableId    *table,
                                         guint           *target)
{
  MshedDfm *dfm = get_dfm (self);
  MshedDfmArray a;

  if (dfm == NULL || !mshed_dfm_get_array (dfm, MSHED_DFM_TABLE_POINT_INDICES, self->dfm_a, 0,
                                           &a) || row >= a.count)
    return FALSE;
  *table = MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINTS);
  *target = mshed_read_u32 (a.data + 4 * (gsize) row);
  return TRUE;
}

/* the check-box columns of Lod Bits: bit n is level Mesh<n> (docs/dfm.md §10.3) */
static const char *const lod_bit_ids[8] = {
  "Mesh0", "Mesh1", "Mesh2", "Mesh3", "Mesh4", "Mesh5", "Mesh6", "Mesh7",
};

static guint
bit_of (const MshedTableColumn *c)
{
  for (guint i = 0; i < G_N_ELEMENTS (lod_bit_ids); i++)
    if (g_str_equal (c->id, lod_bit_ids[i]))
      return i;
  return 0;
}

/* The byte that holds @c's bit on @row; FALSE when the file is missing. */
static gboolean
read_bits (MshedTableModel        *self,
           const MshedTableColumn *c,
           guint                   row,
           guint8                 *bits)
{
  const guint8 *record = _mshed_table_model_dfm_record (self, (MshedDfmTable) c->table, row);

  if (record == NULL)
    return FALSE;
  *bits = record[0];
  return TRUE;
}

static gboolean
write_bits (MshedTableModel        *self,
            const MshedTableColumn *c,
            guint                   row,
            guint8                  bits,
            GError                **error)
{
  guint record = 0;
  MshedUtfNode *node = node_for (self, (MshedDfmTable) c->table, row, &record);
  g_autofree char *text = g_strdup_printf ("0x%02X", bits);

  return mshed_document_dfm_set_field (self->document, node, record, "bits", text, error);
}

gboolean
mshed_table_model_toggle_bit (MshedTableModel *self,
                              guint            row,
                              guint            column,
                              GError         **error)
{
  const MshedTableColumn *c;
  guint8 bits;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);

  c = mshed_table_model_get_column (self, column);
  if (c == NULL || c->kind != MSHED_COLUMN_DFM_BIT || self->document == NULL)
    return FALSE;
  if (!read_bits (self, c, row, &bits))
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   _("Row %u has no %s file to change"), row, "Lod Bits");
      return FALSE;
    }
  return write_bits (self, c, row, bits ^ (guint8) (1u << bit_of (c)), error);
}

void
_mshed_table_model_dfm_build_columns (MshedTableModel *self)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (self->dfm_table);
  MshedDfmTable linked[MAX_LINKED];
  guint n = 0;

  switch (self->dfm_table)
    {
    case MSHED_DFM_TABLE_POINTS:
      /* one record per point (docs/dfm.md §6.1, §6.2) */
      linked[n++] = MSHED_DFM_TABLE_VERTEX_NORMALS;
      linked[n++] = MSHED_DFM_TABLE_POINT_BONE_FIRST;
      linked[n++] = MSHED_DFM_TABLE_POINT_BONE_COUNT;
      break;
    case MSHED_DFM_TABLE_POINT_INDICES:
      linked[n++] = MSHED_DFM_TABLE_UV0_INDICES;
      linked[n++] = MSHED_DFM_TABLE_UV1_INDICES;
      break;
    case MSHED_DFM_TABLE_BONE_ID_CHAIN:
      linked[n++] = MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN;
      break;
    case MSHED_DFM_TABLE_HP_POSITION:
      /* one row per hardpoint: its directory name, position, orientation, axis, limits */
      _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_NAME, self->table, "name",
                                      "name", _("Hardpoint directory (Hardpoints/Fixed or "
                                                "Revolute, docs/dfm.md §10.4)"), 16, TRUE,
                                      FALSE);
      linked[n++] = MSHED_DFM_TABLE_HP_ORIENTATION;
      linked[n++] = MSHED_DFM_TABLE_HP_AXIS;
      linked[n++] = MSHED_DFM_TABLE_HP_MIN;
      linked[n++] = MSHED_DFM_TABLE_HP_MAX;
      break;
    case MSHED_DFM_TABLE_EDGE_INDICES:
      /* one angle per pair (docs/dfm.md §4) */
      linked[n++] = MSHED_DFM_TABLE_EDGE_ANGLES;
      break;
    case MSHED_DFM_TABLE_UV_VERTEX_ID:
      linked[n++] = MSHED_DFM_TABLE_UV_DEFAULT_LIST;
      break;
    case MSHED_DFM_TABLE_UV_BONE_ID:
      /* the one-value files of the UV bone block on one row (docs/dfm.md §6.4) */
      for (MshedDfmTable t = MSHED_DFM_TABLE_UV_VERTEX_COUNT; t <= MSHED_DFM_TABLE_MAX_DV; t++)
        linked[n++] = t;
      break;
    case MSHED_DFM_TABLE_PART_INDEX:
      /* a part's names, then its bone position (docs/dfm.md §8) */
      _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_TEXT,
                                      MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_OBJECT_NAME),
                                      "object_name", "object_name",
                                      _("Object name (Cons records and animations name it)"),
                                      16, TRUE, FALSE);
      _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_TEXT,
                                      MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_FILE_NAME),
                                      "file_name", "file_name",
                                      _("File name: the bone directory of the part"), 16, TRUE,
                                      FALSE);
      break;
    case MSHED_DFM_TABLE_BONE_TO_ROOT:
      /* the bone's directory name, then R and t, then its levels (docs/dfm.md §10) */
      _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_NAME, self->table, "name",
                                      "name", _("Bone directory (<name>.3db)"), 16, TRUE,
                                      FALSE);
      linked[n++] = MSHED_DFM_TABLE_LOD_BITS;
      /* the decoded bind frame and the level check boxes first: what users read */
      add_frame_columns (self, self->dfm_table, 0, 6);
      for (guint bit = 0; bit < G_N_ELEMENTS (lod_bit_ids); bit++)
        _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_BIT,
                                        MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_LOD_BITS),
                                        lod_bit_ids[bit], lod_bit_ids[bit],
                                        _("Drawn at this level (a bit of Lod Bits, "
                                          "docs/dfm.md §10.3)"), 3, TRUE, FALSE);
      break;
    default:
      break;
    }
  for (guint i = 0; i < info->n_texts; i++)
    _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_TEXT, self->table,
                                    info->texts[i].name, info->texts[i].name,
                                    g_dgettext (GETTEXT_PACKAGE, info->texts[i].blurb), 14,
                                    TRUE, FALSE);
  /* a joint's decoded frame and limits right after its names: what users read */
  if (info->scope == MSHED_DFM_SCOPE_CONS)
    {
      guint decoded = cons_decoded (self->dfm_table);

      add_cons_columns (self, 0, 3);
      add_frame_columns (self, self->dfm_table, 6, 3);
      if (decoded & CONS_AXIS)
        add_cons_columns (self, 3, 3);
      if (decoded & CONS_SLIDE)
        add_cons_columns (self, 8, 2);
      if (decoded & CONS_TURN)
        add_cons_columns (self, 6, 2);
      if (decoded & CONS_SPHERE)
        add_cons_columns (self, 10, 6);
    }
  _mshed_table_model_add_fields (self, self->table, info->fields, info->n_fields, FALSE);
  for (guint i = 0; i < n; i++)
    {
      const MshedDfmTableInfo *other = mshed_dfm_schema_get_table (linked[i]);

      self->linked[self->n_linked++] = MSHED_DFM_TABLE_ID (linked[i]);
      _mshed_table_model_add_fields (self, MSHED_DFM_TABLE_ID (linked[i]), other->fields,
                                     other->n_fields, FALSE);
    }
  /* decoded frames after the stored fields */
  if (self->dfm_table == MSHED_DFM_TABLE_HP_POSITION)
    add_frame_columns (self, MSHED_DFM_TABLE_HP_ORIENTATION, 6, 3);
  if (self->dfm_table == MSHED_DFM_TABLE_POINT_INDICES)
    for (guint i = 0; i < G_N_ELEMENTS (joined_columns); i++)
      _mshed_table_model_add_special (self, MSHED_COLUMN_DFM_JOINED, self->table,
                                      joined_columns[i].id, joined_columns[i].id,
                                      g_dgettext (GETTEXT_PACKAGE, joined_columns[i].blurb),
                                      g_str_equal (joined_columns[i].id, "skin") ? 24 : 9,
                                      FALSE, !g_str_equal (joined_columns[i].id, "skin"));
}

void
_mshed_table_model_dfm_changed (MshedTableModel   *self,
                                const MshedChange *change,
                                guint              new_n)
{
  gboolean mine = change->table == self->table;

  if ((change->flags & MSHED_CHANGE_FLAG_ALL) || change->origin == MSHED_CHANGE_ORIGIN_RELOAD ||
      new_n != self->n_items)
    {
      _mshed_table_model_reset (self);
      return;
    }
  for (guint i = 0; i < self->n_linked; i++)
    mine = mine || change->table == self->linked[i];
  /* the Triangles table shows the group's index file */
  if (self->dfm_table == MSHED_DFM_TABLE_TRIANGLES)
    mine = mine || change->table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRISTRIP) ||
           change->table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_FACE_INDICES);
  /* another level's file of the same table refreshes too: cheap, only live rows; elements
   * show values joined from the points, UVs and bones */
  if (mine || change->table == MSHED_TABLE_NONE ||
      self->dfm_table == MSHED_DFM_TABLE_POINT_INDICES)
    _mshed_table_model_refresh_range (self, 0, 0);
}

static const MshedDfmTextField *
find_text (MshedTableId  table,
           const char   *name)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table ((MshedDfmTable) table);

  for (guint i = 0; info != NULL && i < info->n_texts; i++)
    if (g_str_equal (info->texts[i].name, name))
      return &info->texts[i];
  return NULL;
}

/* The directory a name column shows on @row: a bone's, or a hardpoint's. */
static gboolean
row_directory (MshedTableModel  *self,
               MshedDfm         *dfm,
               guint             row,
               MshedUtfNode    **node,
               const char      **name)
{
  guint a, b;

  if (mshed_dfm_schema_get_table (self->dfm_table)->scope == MSHED_DFM_SCOPE_HARDPOINT)
    {
      MshedDfmHardpoint hp;

      if (!scope_address (dfm, MSHED_DFM_SCOPE_HARDPOINT, row, &a, &b) ||
          !mshed_dfm_get_hardpoint (dfm, a, b, &hp))
        return FALSE;
      *node = hp.node;
      *name = hp.name;
      return TRUE;
    }
  else
    {
      MshedDfmBone bone;

      if (!mshed_dfm_get_bone (dfm, row, &bone))
        return FALSE;
      *node = bone.node;
      *name = bone.name;
      return TRUE;
    }
}

char *
_mshed_table_model_dfm_dup_text (MshedTableModel        *self,
                                 const MshedTableColumn *c,
                                 guint                   row)
{
  MshedDfm *dfm = get_dfm (self);

  if (dfm == NULL)
    return NULL;
  if (c->kind == MSHED_COLUMN_DFM_NAME)
    {
      MshedUtfNode *node;
      const char *name;

      if (!row_directory (self, dfm, row, &node, &name))
        return NULL;
      return g_strdup (name);
    }
  else if (c->kind == MSHED_COLUMN_DFM_FRAME)
    return dup_frame_text (self, c, row);
  else if (c->kind == MSHED_COLUMN_DFM_JOINED)
    return dup_joined_text (self, c, row);
  else if (c->kind == MSHED_COLUMN_DFM_BIT)
    {
      guint8 bits;

      if (!read_bits (self, c, row, &bits))
        return NULL;
      return g_strdup ((bits >> bit_of (c)) & 1 ? "☑" : "☐");
    }
  else if (mshed_dfm_schema_get_table ((MshedDfmTable) c->table)->stride == 0)
    {
      /* a whole string file of the row's scope: up to its first NUL */
      guint record = 0;
      MshedUtfNode *node = node_for (self, (MshedDfmTable) c->table, row, &record);
      gsize size = 0, len = 0;
      const guint8 *data = node ? mshed_utf_node_peek_data (node, &size) : NULL;

      if (data == NULL)
        return NULL;
      while (len < size && data[len] != 0)
        len++;
      return mshed_cp1251_to_utf8 (data, len, NULL);
    }
  else
    {
      const MshedDfmTextField *t = find_text (c->table, c->id);
      const guint8 *record = _mshed_table_model_dfm_record (self, (MshedDfmTable) c->table,
                                                            row);
      gsize len = 0;

      if (t == NULL || record == NULL)
        return NULL;
      while (len < t->size && record[t->offset + len] != 0)
        len++;
      return mshed_cp1251_to_utf8 (record + t->offset, len, NULL);
    }
}

gboolean
_mshed_table_model_dfm_set (MshedTableModel        *self,
                            const MshedTableColumn *c,
                            guint                   row,
                            const char             *text,
                            GError                **error)
{
  MshedDfm *dfm = get_dfm (self);
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table ((MshedDfmTable) c->table);
  MshedUtfNode *node;
  guint record = 0;

  if (dfm != NULL && c->table == MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_TRIANGLES))
    return _mshed_table_model_tris_set (self, c, row, text, error);
  if (dfm != NULL && c->kind == MSHED_COLUMN_DFM_NAME)
    {
      const char *name;

      if (!row_directory (self, dfm, row, &node, &name))
        node = NULL;
      else if (g_strcmp0 (name, text) == 0)
        return TRUE;
      else
        return mshed_document_utf_rename (self->document, node, text, error);
    }
  if (dfm != NULL && c->kind == MSHED_COLUMN_DFM_BIT)
    {
      static const char *const on[] = { "1", "☑", "✓", "x", "yes", "true", "on" };
      static const char *const off[] = { "0", "☐", "", "no", "false", "off" };
      g_autofree char *s = g_strstrip (g_utf8_casefold (text, -1));
      guint8 bits, mask = (guint8) (1u << bit_of (c));

      if (!read_bits (self, c, row, &bits))
        {
          g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                       _("Row %u has no %s file to change"), row, "Lod Bits");
          return FALSE;
        }
      for (guint i = 0; i < G_N_ELEMENTS (on); i++)
        if (g_str_equal (s, on[i]))
          return (bits & mask) || write_bits (self, c, row, bits | mask, error);
      for (guint i = 0; i < G_N_ELEMENTS (off); i++)
        if (g_str_equal (s, off[i]))
          return !(bits & mask) || write_bits (self, c, row, bits & (guint8) ~mask, error);
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_INVALID,
                   /* translators: a check-box cell typed into */
                   _("“%s” is not 1 or 0"), text);
      return FALSE;
    }
  node = node_for (self, (MshedDfmTable) c->table, row, &record);
  if (node == NULL || info == NULL)
    {
      g_set_error (error, MSHED_MODEL_ERROR, MSHED_MODEL_ERROR_NOT_FOUND,
                   /* translators: a DFM file (e.g. "Vertex_normals") missing for a grid row */
                   _("Row %u has no %s file to change"), row, info ? info->node : "?");
      return FALSE;
    }
  if (c->kind == MSHED_COLUMN_DFM_TEXT)
    {
      g_autofree char *old = _mshed_table_model_dfm_dup_text (self, c, row);

      if (g_strcmp0 (old, text) == 0)
        return TRUE;
      if (info->stride == 0)
        return mshed_document_dfm_set_field (self->document, node, 0, NULL, text, error);
      return mshed_document_dfm_set_field (self->document, node, record, c->id, text, error);
    }
  return mshed_document_dfm_set_field (self->document, node, record, c->field->name, text,
                                       error);
}

/* Public API for both kinds of table ------------------------------------------------------ */

/**
 * mshed_table_model_new_dfm:
 * @document: (nullable): the document
 *
 * Returns: (transfer full): a new model
 */
MshedTableModel *
mshed_table_model_new_dfm (MshedDocument *document,
                           MshedDfmTable  table,
                           guint          a,
                           guint          b)
{
  MshedTableModel *self;

  g_return_val_if_fail (document == NULL || MSHED_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (mshed_dfm_schema_get_table (table) != NULL, NULL);

  self = g_object_new (MSHED_TYPE_TABLE_MODEL, "table", MSHED_DFM_TABLE_ID (table), NULL);
  self->dfm_a = a;
  self->dfm_b = b;
  mshed_table_model_set_document (self, document);
  return self;
}

void
mshed_table_model_set_dfm_scope (MshedTableModel *self,
                                 guint            a,
                                 guint            b)
{
  g_return_if_fail (MSHED_IS_TABLE_MODEL (self));
  g_return_if_fail (self->dfm_table != MSHED_DFM_TABLE_NONE);

  if (self->dfm_a == a && self->dfm_b == b)
    return;
  self->dfm_a = a;
  self->dfm_b = b;
  _mshed_table_model_reset (self);
}

/* The DFM address (level, group) the rows come from; FALSE for the MSH tables. */
gboolean
mshed_table_model_get_dfm_scope (MshedTableModel *self,
                                 MshedDfmTable   *table,
                                 guint           *a,
                                 guint           *b)
{
  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);

  if (self->dfm_table == MSHED_DFM_TABLE_NONE)
    return FALSE;
  *table = self->dfm_table;
  *a = self->dfm_a;
  *b = self->dfm_b;
  return TRUE;
}

/**
 * mshed_table_model_get_dfm_node:
 *
 * Returns: (transfer none) (nullable): the file
 */
MshedUtfNode *
mshed_table_model_get_dfm_node (MshedTableModel *self,
                                guint            row,
                                guint            column,
                                guint           *record)
{
  const MshedTableColumn *c;
  guint r = 0;
  MshedUtfNode *node;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), NULL);

  if (self->dfm_table == MSHED_DFM_TABLE_NONE)
    return NULL;
  c = mshed_table_model_get_column (self, column);
  node = node_for (self, c != NULL ? (MshedDfmTable) c->table : self->dfm_table, row, &r);
  if (record != NULL)
    *record = r;
  return node;
}

MshedDerived
mshed_table_model_get_row_stale (MshedTableModel *self,
                                 MshedTableId     table,
                                 guint            row)
{
  const MshedDfmTableInfo *info;
  guint scope_row = row;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), MSHED_DERIVED_NONE);

  if (self->document == NULL)
    return MSHED_DERIVED_NONE;
  info = mshed_dfm_schema_get_table ((MshedDfmTable) table);
  /* DFM stale rows count levels, parts or bones (mshed-deps.h); Fractions: one per level */
  if (info != NULL && !self->per_scope && info->scope != MSHED_DFM_SCOPE_MULTILEVEL)
    scope_row = self->dfm_a;
  return mshed_document_get_row_stale (self->document, table, scope_row);
}

gboolean
mshed_table_model_diagnostic_row (MshedTableModel       *self,
                                  const MshedDiagnostic *d,
                                  guint                 *row)
{
  MshedDfm *dfm;
  guint n;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), FALSE);

  if (d->record < 0 || d->record > G_MAXUINT)
    return FALSE;
  *row = (guint) d->record;
  dfm = get_dfm (self);
  if (self->dfm_table == MSHED_DFM_TABLE_NONE || d->path == NULL || dfm == NULL)
    return TRUE;
  if (mshed_dfm_schema_get_table ((MshedDfmTable) d->table) == NULL)
    return FALSE;
  n = self->per_scope ? self->n_items : 1;
  for (guint i = 0; i < n; i++)
    {
      guint record = 0;
      MshedUtfNode *node = node_for (self, (MshedDfmTable) d->table, i, &record);
      g_autofree char *path = node ? mshed_utf_node_dup_path (node) : NULL;

      if (path != NULL && g_ascii_strcasecmp (path, d->path) == 0)
        {
          if (self->per_scope)
            *row = i;
          return TRUE;
        }
    }
  return FALSE;
}

guint
mshed_table_model_count_target (MshedTableModel *self,
                                MshedTableId     table)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table ((MshedDfmTable) table);
  MshedDfm *dfm = get_dfm (self);
  MshedModel *model;
  MshedDfmArray array;

  g_return_val_if_fail (MSHED_IS_TABLE_MODEL (self), 0);

  if (info != NULL)
    {
      if (dfm == NULL)
        return 0;
      if (info->single)
        return scope_count (dfm, info->scope);
      return mshed_dfm_get_array (dfm, info->id, self->dfm_a, self->dfm_b, &array) ? array.count
                                                                                   : 0;
    }
  model = self->document ? mshed_document_get_model (self->document) : NULL;
  return model != NULL && table >= 0 && table < MSHED_N_TABLES
           ? mshed_model_get_n_rows (model, table) : 0;
}

const char *
mshed_table_model_table_title (MshedTableId table)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table ((MshedDfmTable) table);

  if (info != NULL)
    return g_dgettext (GETTEXT_PACKAGE, info->title);
  if (table >= 0 && table < MSHED_N_TABLES)
    return g_dgettext (GETTEXT_PACKAGE, mshed_schema_get_table (table)->title);
  return "?";
}
