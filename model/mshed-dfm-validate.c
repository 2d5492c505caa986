/* mshed-dfm-validate.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules of docs/dfm.md §14 over the node index of a MshedDfm. Each check reads the
 * payloads once (bounds-checked records, then tight loops); a check's severity is fixed by its
 * id (severity_of), never by the mode. Findings about records carry the table, record, field
 * and the byte offset of that field in the source file; a payload that an edit replaced has
 * no place in the source, so its findings give the offset inside the payload. Messages start
 * with the node path.
 */
#define G_LOG_DOMAIN "mshed-dfm-validate"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "mshed-bytes.h"
#include "mshed-dfm-private.h"
#include "mshed-dfm-validate.h"

#define FIRST_CHECK  MSHED_CHECK_DFM_CMPND_MISSING
#define N_SLOTS      64
/* at most this many findings per check and call; the rest are counted in one summary */
#define REPORT_LIMIT 200

typedef struct {
  const MshedDfm   *dfm;
  MshedDiagnostics *diags;
  gboolean          tolerant;
  guint             n_errors;
  guint             n_bones;
  guint             reported[N_SLOTS];
  guint             suppressed[N_SLOTS];
} Ctx;

static MshedSeverity
severity_of (MshedCheck check)
{
  switch (check)
    {
    case MSHED_CHECK_DFM_NAME_RESIDUE:
    case MSHED_CHECK_DFM_UNREFERENCED_POINTS:
    case MSHED_CHECK_DFM_DETACHED_BONE:
    case MSHED_CHECK_DFM_MATERIAL_UNRESOLVED:
      return MSHED_SEVERITY_INFO;
    default:
      return check < MSHED_CHECK_DFM_FACE_LIST ? MSHED_SEVERITY_ERROR : MSHED_SEVERITY_WARNING;
    }
}

static guint
slot_of (MshedCheck check)
{
  guint s = (guint) check - FIRST_CHECK;

  return s < N_SLOTS ? s : 0;
}

/* Counts a finding of @check; TRUE when it is to be listed (at most REPORT_LIMIT per check,
 * the rest counted for flush_suppressed). */
static gboolean
listed (Ctx        *c,
        MshedCheck  check)
{
  guint slot = slot_of (check);

  if (severity_of (check) == MSHED_SEVERITY_ERROR)
    c->n_errors++;
  if (c->diags == NULL)
    return FALSE;
  if (c->reported[slot] >= REPORT_LIMIT)
    {
      c->suppressed[slot]++;
      return FALSE;
    }
  c->reported[slot]++;
  return TRUE;
}

/* where @node's bytes start in the file: a file's payload, a directory's tree entry */
static guint64
node_offset (Ctx                *c,
             const MshedUtfNode *node)
{
  guint64 base = 0;

  if (node)
    mshed_dfm_get_payload_offset (c->dfm, node, &base);
  return base;
}

/* A finding about @node (a file: its payload; a directory: its tree entry). @rel: offset of
 * the record field inside the payload. @consequence: what a tolerant reader drops (errors). */
static void G_GNUC_PRINTF (9, 10)
report (Ctx                *c,
        MshedCheck          check,
        const MshedUtfNode *node,
        MshedDfmTable       table,
        gint64              record,
        const char         *field,
        guint64             rel,
        const char         *consequence,
        const char         *format,
        ...)
{
  MshedSeverity severity = severity_of (check);
  g_autofree char *message = NULL;
  g_autofree char *path = NULL;
  va_list args;

  if (!listed (c, check))
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (consequence != NULL && c->tolerant && severity == MSHED_SEVERITY_ERROR)
    {
      /* TRANSLATORS: a problem, then what the program does about it ("ignored: …") */
      char *full = g_strdup_printf (_("%s; %s"), message, consequence);

      g_free (message);
      message = full;
    }
  path = node ? mshed_utf_node_dup_path (node) : g_strdup ("\\");
  mshed_diagnostics_add_node_record (c->diags, severity, check, path,
                                     table == MSHED_DFM_TABLE_NONE ? MSHED_TABLE_NONE
                                                                   : MSHED_DFM_TABLE_ID (table),
                                     record, field, node_offset (c, node) + rel, "%s", message);
}

/* The notes every retail file has, and an unresolved material: the full validator and the fast
 * path (mshed-dfm-fast.c) both make them here. @path: the node's; @base: where its payload (a
 * directory: its tree entry) starts in the file. */
void
_mshed_dfm_note_material (MshedDiagnostics *diags,
                          const char       *path,
                          guint64           base,
                          const char       *name)
{
  MshedCheck check = MSHED_CHECK_DFM_MATERIAL_UNRESOLVED;
  g_autofree char *shown = mshed_utf_name_to_display (name);

  mshed_diagnostics_add_node_record (diags, severity_of (check), check, path,
                                     MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_MATERIAL_NAME), -1, NULL,
                                     base,
                                     _("%s: “%s” is not in this file's Material library (the "
                                       "game looks it up among all loaded materials)"),
                                     path, shown);
}

void
_mshed_dfm_note_unreferenced (MshedDiagnostics *diags,
                              const char       *path,
                              guint64           base,
                              guint             n_unused,
                              guint             first_unused)
{
  MshedCheck check = MSHED_CHECK_DFM_UNREFERENCED_POINTS;

  mshed_diagnostics_add_node_record (diags, severity_of (check), check, path,
                                     MSHED_DFM_TABLE_ID (MSHED_DFM_TABLE_POINTS), first_unused,
                                     NULL, base + 12 * (guint64) first_unused,
                                     g_dngettext (GETTEXT_PACKAGE,
                                                  "%s: %u point, the first %u, is used by no "
                                                  "element (kept)",
                                                  "%s: %u points, the first %u, are used by no "
                                                  "element (kept)", n_unused),
                                     path, n_unused, first_unused);
}

/* @first_field: 0 parent, 1 child; @first_byte: in the payload */
void
_mshed_dfm_note_residue (MshedDiagnostics  *diags,
                         const char        *path,
                         MshedDfmJointKind  kind,
                         guint64            base,
                         guint              n,
                         guint              first,
                         guint              first_field,
                         guint              first_byte)
{
  MshedCheck check = MSHED_CHECK_DFM_NAME_RESIDUE;

  mshed_diagnostics_add_node_record (diags, severity_of (check), check, path,
                                     MSHED_DFM_TABLE_ID (mshed_dfm_joint_table (kind)), first,
                                     first_field ? "child" : "parent", base + first_byte,
                                     g_dngettext (GETTEXT_PACKAGE,
                                                  "%s: %u record, the first %u, has bytes after "
                                                  "a name's NUL (residue of an earlier name, as "
                                                  "in retail files; kept)",
                                                  "%s: %u records, the first %u, have bytes "
                                                  "after a name's NUL (residue of an earlier "
                                                  "name, as in retail files; kept)", n),
                                     path, n, first);
}

void
_mshed_dfm_note_detached (MshedDiagnostics *diags,
                          const char       *path,
                          guint64           base,
                          guint             bone)
{
  MshedCheck check = MSHED_CHECK_DFM_DETACHED_BONE;

  mshed_diagnostics_add_node_record (diags, severity_of (check), check, path, MSHED_TABLE_NONE,
                                     -1, NULL, base,
                                     _("%s: bone %u is named by no part: a detached bone, the "
                                       "frame of the host model it attaches to (dfm.md §10.4; "
                                       "kept)"), path, bone);
}

static void
flush_suppressed (Ctx *c)
{
  if (c->diags == NULL)
    return;
  for (guint i = 0; i < N_SLOTS; i++)
    if (c->suppressed[i] > 0)
      {
        MshedCheck check = (MshedCheck) (FIRST_CHECK + i);

        mshed_diagnostics_add_suppressed (c->diags, severity_of (check), check,
                                          c->suppressed[i]);
      }
}

static const char *
field_of (MshedDfmTable table,
          guint         index)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);

  g_assert (info != NULL && index < info->n_fields);
  return info->fields[index].name;
}

static const char *
node_name (const MshedUtfNode *node)
{
  return mshed_utf_node_get_name (node);
}

static gsize
payload_size (const MshedUtfNode *node)
{
  gsize size = 0;

  if (node)
    mshed_utf_node_peek_data (node, &size);
  return size;
}

static void
array (MshedUtfNode  *node,
       MshedDfmTable  table,
       MshedDfmArray *out)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);

  memset (out, 0, sizeof *out);
  out->stride = info->stride ? info->stride : 1;
  if (node == NULL)
    return;
  out->node = node;
  out->data = mshed_utf_node_peek_data (node, &out->size);
  out->count = (guint) MIN (out->size / out->stride, G_MAXUINT);
}

/* Generic rules -------------------------------------------------------------------------- */

/* docs/dfm.md §14 item 6: a numeric file is a whole number of records; a one-value file holds
 * at least its value. Returns FALSE when the rule is broken. */
static gboolean
check_size (Ctx          *c,
            MshedUtfNode *node,
            MshedDfmTable table)
{
  const MshedDfmTableInfo *info = mshed_dfm_schema_get_table (table);
  gsize size = payload_size (node);

  if (node == NULL || info->stride == 0)
    return TRUE;
  if (info->single && size < info->stride)
    {
      g_autofree char *path = mshed_utf_node_dup_path (node);

      report (c, MSHED_CHECK_DFM_ARRAY_SIZE, node, table, -1, NULL, 0,
              _("ignored: the value is not used"),
              _("%s: %zu bytes, too short for its %u-byte value"), path, size, info->stride);
      return FALSE;
    }
  if (!info->single && size % info->stride != 0)
    {
      g_autofree char *path = mshed_utf_node_dup_path (node);

      report (c, MSHED_CHECK_DFM_ARRAY_SIZE, node, table, (gint64) (size / info->stride), NULL,
              size - size % info->stride, _("ignored: the incomplete last record is not used"),
              _("%s: %zu bytes is not a multiple of the %u-byte record"), path, size,
              info->stride);
      return FALSE;
    }
  return TRUE;
}

/* docs/dfm.md §14, tolerated: strings without a final NUL */
static void
check_string (Ctx          *c,
              MshedUtfNode *node,
              MshedDfmTable table)
{
  gsize size;
  const guint8 *data;

  if (node == NULL)
    return;
  data = mshed_utf_node_peek_data (node, &size);
  if (size == 0 || data[size - 1] != 0)
    {
      g_autofree char *path = mshed_utf_node_dup_path (node);

      report (c, MSHED_CHECK_DFM_STRING_NUL, node, table, -1, NULL, size, NULL,
              _("%s: the string has no final NUL (read to the end of its %zu bytes; kept as "
                "it is)"), path, size);
    }
}

/* a missing required child @name of directory @dir */
static void
report_missing (Ctx          *c,
                MshedCheck    check,
                MshedUtfNode *dir,
                const char   *name,
                const char   *consequence)
{
  g_autofree char *path = mshed_utf_node_dup_path (dir);

  report (c, check, dir, MSHED_DFM_TABLE_NONE, -1, name, 0, consequence,
          _("%s has no “%s”"), path, name);
}

/* docs/dfm.md §14: unknown children of the root, MultiLevel, a mesh, Face_groups, Geometry,
 * Skeleton, Cmpnd, a part or a bone. @known decides from a child's name and kind. */
static void
check_children (Ctx             *c,
                MshedUtfNode    *dir,
                gboolean       (*known) (const MshedUtfNode *child))
{
  for (MshedUtfNode *n = dir ? mshed_utf_node_get_first_child (dir) : NULL; n;
       n = mshed_utf_node_get_next (n))
    if (!known (n))
      {
        g_autofree char *path = mshed_utf_node_dup_path (n);

        report (c, MSHED_CHECK_DFM_UNKNOWN_NODE, n, MSHED_DFM_TABLE_NONE, -1, NULL, 0, NULL,
                mshed_utf_node_is_directory (n)
                  ? _("%s: a directory a deformable model does not have there (kept; "
                      "Librelancer, and possibly the game, reject the file)")
                  : _("%s: a file a deformable model does not have there (kept; Librelancer, "
                      "and possibly the game, reject the file)"), path);
      }
}

static gboolean
is (const MshedUtfNode *n,
    const char         *name,
    gboolean            directory)
{
  return mshed_utf_node_is_directory (n) == directory &&
         mshed_utf_name_compare (node_name (n), name) == 0;
}

static gboolean
known_in_root (const MshedUtfNode *n)
{
  return is (n, "Exporter Version", FALSE) || is (n, "MultiLevel", TRUE) ||
         is (n, "Material library", TRUE) || is (n, "Texture library", TRUE) ||
         is (n, "Skeleton", TRUE) || is (n, "Cmpnd", TRUE) ||
         (mshed_utf_node_is_directory (n) && _mshed_dfm_is_bone_name (node_name (n)));
}

static gboolean
known_in_multilevel (const MshedUtfNode *n)
{
  return is (n, "Fractions", FALSE) ||
         (mshed_utf_node_is_directory (n) && _mshed_dfm_is_mesh_name (node_name (n)));
}

static gboolean
known_in_mesh (const MshedUtfNode *n)
{
  return is (n, "Face_groups", TRUE) || is (n, "Geometry", TRUE);
}

static gboolean
known_in_face_groups (const MshedUtfNode *n)
{
  return is (n, "Count", FALSE) ||
         (mshed_utf_node_is_directory (n) && _mshed_dfm_is_group_name (node_name (n)));
}

static gboolean
known_file_in_scope (const MshedUtfNode *n,
                     MshedDfmScope       scope)
{
  return !mshed_utf_node_is_directory (n) &&
         mshed_dfm_schema_table_in_scope (scope, node_name (n)) != MSHED_DFM_TABLE_NONE;
}

static gboolean
known_in_geometry (const MshedUtfNode *n)
{
  return known_file_in_scope (n, MSHED_DFM_SCOPE_GEOMETRY);
}

static gboolean
known_in_skeleton (const MshedUtfNode *n)
{
  return known_file_in_scope (n, MSHED_DFM_SCOPE_SKELETON);
}

static gboolean
known_in_cmpnd (const MshedUtfNode *n)
{
  return is (n, "Scale", FALSE) || is (n, "Cons", TRUE) ||
         (mshed_utf_node_is_directory (n) && _mshed_dfm_is_part_name (node_name (n), NULL));
}

static gboolean
known_in_part (const MshedUtfNode *n)
{
  return known_file_in_scope (n, MSHED_DFM_SCOPE_PART);
}

static gboolean
known_in_bone (const MshedUtfNode *n)
{
  return known_file_in_scope (n, MSHED_DFM_SCOPE_BONE) || is (n, "Hardpoints", TRUE);
}

/* Root, Skeleton ------------------------------------------------------------------------- */

static void
check_root (Ctx *c)
{
  const MshedDfm *d = c->dfm;
  MshedUtfNode *root = mshed_utf_get_root (d->utf);

  check_children (c, root, known_in_root);
  if (d->exporter == NULL)
    report (c, MSHED_CHECK_DFM_EXPORTER_MISSING, root, MSHED_DFM_TABLE_NONE, -1,
            "Exporter Version", 0, NULL,
            _("\\ has no “Exporter Version” (only informative; nothing is added)"));
  check_string (c, d->exporter, MSHED_DFM_TABLE_EXPORTER_VERSION);

  if (d->skeleton == NULL)
    report (c, MSHED_CHECK_DFM_SKELETON_MISSING, root, MSHED_DFM_TABLE_NONE, -1, "Skeleton", 0,
            NULL, _("\\ has no “Skeleton”: Librelancer does not take the file for a "
                    "deformable model (dfm.md §7)"));
  else
    {
      check_children (c, d->skeleton, known_in_skeleton);
      if (d->skeleton_name == NULL)
        report (c, MSHED_CHECK_DFM_SKELETON_MISSING, d->skeleton, MSHED_DFM_TABLE_NONE, -1,
                "Name", 0, NULL,
                _("\\Skeleton has no “Name”: the model does not say which skeleton it was "
                  "rigged against (dfm.md §7)"));
      check_string (c, d->skeleton_name, MSHED_DFM_TABLE_SKELETON_NAME);
    }
  if (d->multilevel == NULL)
    report (c, MSHED_CHECK_DFM_MULTILEVEL_MISSING, root, MSHED_DFM_TABLE_NONE, -1, "MultiLevel",
            0, NULL, _("\\ has no “MultiLevel”: the model has no mesh to draw"));
  if (d->cmpnd == NULL)
    report (c, MSHED_CHECK_DFM_CMPND_MISSING, root, MSHED_DFM_TABLE_NONE, -1, "Cmpnd", 0,
            _("ignored: the bones have no parts, names or hierarchy"),
            _("\\ has no “Cmpnd”: the bones have no part table"));
}

/* MultiLevel, meshes and face groups (docs/dfm.md §3, §4) -------------------------------- */

static void
check_levels (Ctx *c)
{
  const MshedDfm *d = c->dfm;
  guint n_meshes = d->meshes->len;

  if (d->multilevel == NULL)
    return;
  check_children (c, d->multilevel, known_in_multilevel);
  if (d->fractions == NULL)
    {
      if (n_meshes > 0)
        report (c, MSHED_CHECK_DFM_FRACTIONS, d->multilevel, MSHED_DFM_TABLE_NONE, -1,
                "Fractions", 0, _("ignored: the levels have no fraction"),
                _("\\MultiLevel has no “Fractions” for its %u Mesh directories"), n_meshes);
    }
  else if (check_size (c, d->fractions, MSHED_DFM_TABLE_FRACTIONS) &&
           payload_size (d->fractions) / 4 != n_meshes)
    {
      g_autofree char *path = mshed_utf_node_dup_path (d->fractions);

      report (c, MSHED_CHECK_DFM_FRACTIONS, d->fractions, MSHED_DFM_TABLE_FRACTIONS, -1,
              field_of (MSHED_DFM_TABLE_FRACTIONS, 0), 0,
              _("ignored: fractions are paired with meshes by position"),
              _("%s, field fraction: %zu values for %u Mesh directories (one per mesh, "
                "dfm.md §3)"), path, payload_size (d->fractions) / 4, n_meshes);
    }
}

static void
check_group (Ctx            *c,
             const DfmGroup *g,
             guint           n_elements,
             gboolean        elements_known)
{
  MshedUtfNode *const *f = g->files;
  MshedUtfNode *strip = f[MSHED_DFM_TABLE_TRISTRIP - DFM_GROUP_BASE];
  MshedUtfNode *faces = f[MSHED_DFM_TABLE_FACE_INDICES - DFM_GROUP_BASE];
  MshedUtfNode *edges = f[MSHED_DFM_TABLE_EDGE_INDICES - DFM_GROUP_BASE];
  MshedUtfNode *angles = f[MSHED_DFM_TABLE_EDGE_ANGLES - DFM_GROUP_BASE];
  MshedUtfNode *material = f[MSHED_DFM_TABLE_MATERIAL_NAME - DFM_GROUP_BASE];
  MshedUtfNode *indices = strip ? strip : faces;
  MshedDfmTable itable = strip ? MSHED_DFM_TABLE_TRISTRIP : MSHED_DFM_TABLE_FACE_INDICES;

  if (material == NULL)
    report_missing (c, MSHED_CHECK_DFM_GROUP_MATERIAL, g->dir, "Material_name",
                    _("ignored: the group is drawn without a material"));
  else
    {
      check_string (c, material, MSHED_DFM_TABLE_MATERIAL_NAME);
      if (g->material < 0 && listed (c, MSHED_CHECK_DFM_MATERIAL_UNRESOLVED))
        {
          g_autofree char *path = mshed_utf_node_dup_path (material);

          _mshed_dfm_note_material (c->diags, path, node_offset (c, material), g->material_name);
        }
    }

  if (indices == NULL)
    report_missing (c, MSHED_CHECK_DFM_GROUP_INDICES, g->dir, "Tristrip_indices",
                    _("ignored: the group draws nothing"));
  else if (strip && faces)
    {
      g_autofree char *path = mshed_utf_node_dup_path (faces);

      report (c, MSHED_CHECK_DFM_GROUP_BOTH, faces, MSHED_DFM_TABLE_FACE_INDICES, -1, NULL, 0,
              NULL, _("%s: the group holds Tristrip_indices too; the strip is drawn and the "
                      "list kept"), path);
    }
  else if (faces)
    {
      g_autofree char *path = mshed_utf_node_dup_path (faces);

      report (c, MSHED_CHECK_DFM_FACE_LIST, faces, MSHED_DFM_TABLE_FACE_INDICES, -1, NULL, 0,
              NULL, _("%s: a triangle list instead of a strip (read as such; no retail file "
                      "has one and the game was never seen to draw one, dfm.md §4)"), path);
    }

  if (check_size (c, strip, MSHED_DFM_TABLE_TRISTRIP) &&
      check_size (c, faces, MSHED_DFM_TABLE_FACE_INDICES) && indices && elements_known)
    {
      MshedDfmArray a;

      array (indices, itable, &a);
      for (guint k = 0; k < a.count; k++)
        {
          guint16 v = mshed_read_u16 (a.data + 2 * k);

          if (v >= n_elements)
            {
              g_autofree char *path = mshed_utf_node_dup_path (indices);

              report (c, MSHED_CHECK_DFM_FACE_INDEX_RANGE, indices, itable, k,
                      field_of (itable, 0), 2 * (guint64) k,
                      _("ignored: triangles using it are not drawn"),
                      _("%s, entry %u, field index: element %u is past the %u elements of "
                        "Point_indices"), path, k, v, n_elements);
            }
        }
    }

  if (check_size (c, edges, MSHED_DFM_TABLE_EDGE_INDICES) &&
      check_size (c, angles, MSHED_DFM_TABLE_EDGE_ANGLES) && (edges || angles) &&
      payload_size (edges) / 2 != 2 * (payload_size (angles) / 4))
    {
      MshedUtfNode *at = angles ? angles : edges;
      g_autofree char *path = mshed_utf_node_dup_path (at);

      report (c, MSHED_CHECK_DFM_EDGE_COUNT, at,
              angles ? MSHED_DFM_TABLE_EDGE_ANGLES : MSHED_DFM_TABLE_EDGE_INDICES, -1, NULL, 0,
              _("ignored: the edge data is kept but not read"),
              _("%s: %zu Edge_indices entries for %zu Edge_angles (two per angle, dfm.md §4)"),
              path, payload_size (edges) / 2, payload_size (angles) / 4);
    }
}

static void
check_face_groups (Ctx           *c,
                   const DfmMesh *m,
                   guint          n_elements,
                   gboolean       elements_known)
{
  check_children (c, m->face_groups, known_in_face_groups);
  if (m->count == NULL)
    report_missing (c, MSHED_CHECK_DFM_GROUP_COUNT, m->face_groups, "Count", NULL);
  else if (check_size (c, m->count, MSHED_DFM_TABLE_GROUP_COUNT))
    {
      gint32 count = mshed_read_i32 (mshed_utf_node_peek_data (m->count, NULL));

      if (count < 0 || (guint) count != m->groups->len)
        {
          g_autofree char *path = mshed_utf_node_dup_path (m->count);

          report (c, MSHED_CHECK_DFM_GROUP_COUNT, m->count, MSHED_DFM_TABLE_GROUP_COUNT, 0,
                  field_of (MSHED_DFM_TABLE_GROUP_COUNT, 0), 0, NULL,
                  _("%s, field count: %d, but there are %u Group directories (derived; the "
                    "directories are used)"), path, count, m->groups->len);
        }
    }
  for (guint g = 0; g < m->groups->len; g++)
    check_group (c, &g_array_index (m->groups, DfmGroup, g), n_elements, elements_known);
}

/* Geometry (docs/dfm.md §6) ------------------------------------------------------------- */

#define GEO(m, t) ((m)->files[MSHED_DFM_TABLE_##t - DFM_GEO_BASE])

/* every entry of a u32 index array below @bound */
static void
check_index_range (Ctx           *c,
                   MshedUtfNode  *node,
                   MshedDfmTable  table,
                   guint          bound,
                   MshedCheck     check,
                   const char    *target,
                   const char    *consequence)
{
  MshedDfmArray a;

  array (node, table, &a);
  for (guint k = 0; k < a.count; k++)
    {
      guint32 v = mshed_read_u32 (a.data + 4 * (gsize) k);

      if (v >= bound)
        {
          g_autofree char *path = mshed_utf_node_dup_path (node);

          /* TRANSLATORS: "\…\Point_indices, entry 5, field point: 900 is past the 300
           * entries of Points" */
          report (c, check, node, table, k, field_of (table, 0), 4 * (guint64) k, consequence,
                  _("%s, entry %u, field %s: %u is past the %u entries of %s"), path, k,
                  field_of (table, 0), v, bound, target);
        }
    }
}

/* an array whose length must be @expected (docs/dfm.md §6.1, §6.2) */
static void
check_length (Ctx          *c,
              MshedUtfNode *node,
              MshedDfmTable table,
              guint         expected,
              MshedCheck    check,
              const char   *source)
{
  MshedDfmArray a;

  array (node, table, &a);
  if (node && a.count != expected)
    {
      g_autofree char *path = mshed_utf_node_dup_path (node);

      report (c, check, node, table, -1, NULL, 0, _("ignored: entries past the shorter one"),
              _("%s holds %u entries, but %s gives %u"), path, a.count, source, expected);
    }
}

/* docs/dfm.md §14, tolerated: the weights of a point do not sum to 1 */
static void
check_weight_sum (Ctx                 *c,
                  const MshedDfmArray *weights,
                  guint                p,
                  guint32              f,
                  guint32              k)
{
  double sum = 0;

  for (guint32 i = f; i < f + k; i++)
    sum += mshed_read_f32 (weights->data + 4 * (gsize) i);
  if (!(fabs (sum - 1.0) <= DFM_WEIGHT_TOLERANCE))
    {
      g_autofree char *path = mshed_utf_node_dup_path (weights->node);

      report (c, MSHED_CHECK_DFM_WEIGHT_SUM, weights->node, MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, f,
              field_of (MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, 0), 4 * (guint64) f, NULL,
              _("%s, entries %u..%u, field weight: the weights of point %u sum to %g, not 1"),
              path, f, f + k - 1, p, sum);
    }
}

static void
check_skin (Ctx           *c,
            const DfmMesh *m,
            guint          n_points)
{
  MshedDfmArray first, count, ids, weights;
  guint n_chain, n;

  array (GEO (m, POINT_BONE_FIRST), MSHED_DFM_TABLE_POINT_BONE_FIRST, &first);
  array (GEO (m, POINT_BONE_COUNT), MSHED_DFM_TABLE_POINT_BONE_COUNT, &count);
  array (GEO (m, BONE_ID_CHAIN), MSHED_DFM_TABLE_BONE_ID_CHAIN, &ids);
  array (GEO (m, BONE_WEIGHT_CHAIN), MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN, &weights);
  n_chain = MIN (ids.count, weights.count);
  n = MIN (MIN (first.count, count.count), n_points);

  for (guint p = 0; p < n; p++)
    {
      guint32 f = mshed_read_u32 (first.data + 4 * (gsize) p);
      guint32 k = mshed_read_u32 (count.data + 4 * (gsize) p);

      if ((guint64) f + k > n_chain)
        {
          g_autofree char *path = mshed_utf_node_dup_path (first.node);

          report (c, MSHED_CHECK_DFM_CHAIN_RANGE, first.node, MSHED_DFM_TABLE_POINT_BONE_FIRST,
                  p, field_of (MSHED_DFM_TABLE_POINT_BONE_FIRST, 0), 4 * (guint64) p,
                  _("ignored: the point is not skinned"),
                  _("%s, entry %u, field first: influences %u..%" PRIu64
                    " end past the %u chain entries"), path, p, f, (guint64) f + k, n_chain);
          continue;
        }
      if (k == 0)
        {
          g_autofree char *path = mshed_utf_node_dup_path (count.node);

          report (c, MSHED_CHECK_DFM_ZERO_INFLUENCES, count.node,
                  MSHED_DFM_TABLE_POINT_BONE_COUNT, p,
                  field_of (MSHED_DFM_TABLE_POINT_BONE_COUNT, 0), 4 * (guint64) p, NULL,
                  _("%s, entry %u, field count: the point has no influence (it stays at its "
                    "bind position)"), path, p);
          continue;
        }
      if (k > MSHED_DFM_MAX_INFLUENCES)
        {
          g_autofree char *path = mshed_utf_node_dup_path (count.node);

          report (c, MSHED_CHECK_DFM_INFLUENCES, count.node, MSHED_DFM_TABLE_POINT_BONE_COUNT,
                  p, field_of (MSHED_DFM_TABLE_POINT_BONE_COUNT, 0), 4 * (guint64) p, NULL,
                  _("%s, entry %u, field count: %u influences; Librelancer refuses more than "
                    "4 and a GPU path must reduce them"), path, p, k);
        }
      /* a point with hundreds of influences is already reported; summing its weights for
       * every point would cost points × chain on a hostile file */
      if (k <= 64)
        check_weight_sum (c, &weights, p, f, k);
    }

  if (ids.node)
    check_index_range (c, ids.node, MSHED_DFM_TABLE_BONE_ID_CHAIN, c->n_bones,
                       MSHED_CHECK_DFM_BONE_ID_RANGE, "the bone table",
                       _("ignored: the influence is not used"));
}

static void
check_unreferenced (Ctx           *c,
                    const DfmMesh *m,
                    guint          n_points)
{
  MshedDfmArray pi;
  g_autofree guint8 *used = NULL;
  guint n_unused = 0, first_unused = 0;

  array (GEO (m, POINT_INDICES), MSHED_DFM_TABLE_POINT_INDICES, &pi);
  if (pi.node == NULL || n_points == 0)
    return;
  used = g_malloc0 (n_points);
  for (guint e = 0; e < pi.count; e++)
    {
      guint32 p = mshed_read_u32 (pi.data + 4 * (gsize) e);

      if (p < n_points)
        used[p] = 1;
    }
  for (guint p = n_points; p > 0; p--)
    if (!used[p - 1])
      {
        n_unused++;
        first_unused = p - 1;
      }
  if (n_unused && listed (c, MSHED_CHECK_DFM_UNREFERENCED_POINTS))
    {
      g_autofree char *path = mshed_utf_node_dup_path (GEO (m, POINTS));

      _mshed_dfm_note_unreferenced (c->diags, path, node_offset (c, GEO (m, POINTS)), n_unused,
                                    first_unused);
    }
}

/* docs/dfm.md §6.4 */
static void
check_uv_bone (Ctx           *c,
               const DfmMesh *m,
               guint          n_uv0)
{
  MshedDfmArray ids, defaults;
  guint present = 0;
  MshedDfmTable missing = MSHED_DFM_TABLE_NONE;

  for (MshedDfmTable t = MSHED_DFM_TABLE_UV_BONE_ID; t <= MSHED_DFM_TABLE_UV_DEFAULT_LIST; t++)
    {
      if (m->files[t - DFM_GEO_BASE])
        present++;
      else if (missing == MSHED_DFM_TABLE_NONE)
        missing = t;
    }
  if (present == 0)
    return;
  if (missing != MSHED_DFM_TABLE_NONE)
    {
      const char *name = mshed_dfm_schema_get_table (missing)->node;
      g_autofree char *path = mshed_utf_node_dup_path (m->geometry);

      report (c, MSHED_CHECK_DFM_UV_BONE_BLOCK, m->geometry, MSHED_DFM_TABLE_NONE, -1, name, 0,
              NULL, _("%s holds %u of the 11 files of the UV bone block; “%s” is missing "
                      "(the block is optional for drawing)"), path, present, name);
    }

  if (GEO (m, UV_BONE_ID) && check_size (c, GEO (m, UV_BONE_ID), MSHED_DFM_TABLE_UV_BONE_ID))
    {
      guint32 bone = mshed_read_u32 (mshed_utf_node_peek_data (GEO (m, UV_BONE_ID), NULL));

      if (bone >= c->n_bones)
        {
          g_autofree char *path = mshed_utf_node_dup_path (GEO (m, UV_BONE_ID));

          report (c, MSHED_CHECK_DFM_UV_BONE_RANGE, GEO (m, UV_BONE_ID),
                  MSHED_DFM_TABLE_UV_BONE_ID, 0, field_of (MSHED_DFM_TABLE_UV_BONE_ID, 0), 0,
                  _("ignored: the UV patch does not move"),
                  _("%s, field uv_bone_id: bone %u is past the %u bones"), path, bone,
                  c->n_bones);
        }
    }
  array (GEO (m, UV_VERTEX_ID), MSHED_DFM_TABLE_UV_VERTEX_ID, &ids);
  array (GEO (m, UV_DEFAULT_LIST), MSHED_DFM_TABLE_UV_DEFAULT_LIST, &defaults);
  if (ids.node)
    check_index_range (c, ids.node, MSHED_DFM_TABLE_UV_VERTEX_ID, n_uv0,
                       MSHED_CHECK_DFM_UV_VERTEX_RANGE, "UV0",
                       _("ignored: the coordinate is not moved"));
  if ((ids.node || defaults.node) && defaults.size != 8 * (guint64) ids.count)
    {
      MshedUtfNode *at = defaults.node ? defaults.node : ids.node;
      g_autofree char *path = mshed_utf_node_dup_path (at);

      report (c, MSHED_CHECK_DFM_UV_DEFAULT_LIST, at,
              defaults.node ? MSHED_DFM_TABLE_UV_DEFAULT_LIST : MSHED_DFM_TABLE_UV_VERTEX_ID, -1,
              NULL, 0, _("ignored: coordinates without a default are not moved"),
              _("%s: UV_default_list holds %zu floats for %u UV_vertex_id entries (two per "
                "entry, dfm.md §6.4)"), path, defaults.size / 4, ids.count);
    }
  if (GEO (m, UV_VERTEX_COUNT) &&
      check_size (c, GEO (m, UV_VERTEX_COUNT), MSHED_DFM_TABLE_UV_VERTEX_COUNT))
    {
      guint32 n = mshed_read_u32 (mshed_utf_node_peek_data (GEO (m, UV_VERTEX_COUNT), NULL));

      if (n != ids.count)
        {
          g_autofree char *path = mshed_utf_node_dup_path (GEO (m, UV_VERTEX_COUNT));

          report (c, MSHED_CHECK_DFM_UV_VERTEX_COUNT, GEO (m, UV_VERTEX_COUNT),
                  MSHED_DFM_TABLE_UV_VERTEX_COUNT, 0,
                  field_of (MSHED_DFM_TABLE_UV_VERTEX_COUNT, 0), 0, NULL,
                  _("%s, field uv_vertex_count: %u, but UV_vertex_id holds %u entries "
                    "(derived; the entries are used)"), path, n, ids.count);
        }
    }
}

static void
check_geometry (Ctx           *c,
                const DfmMesh *m)
{
  static const MshedDfmTable required[] = {
    MSHED_DFM_TABLE_POINT_INDICES, MSHED_DFM_TABLE_UV0_INDICES, MSHED_DFM_TABLE_POINTS,
    MSHED_DFM_TABLE_POINT_BONE_FIRST, MSHED_DFM_TABLE_POINT_BONE_COUNT,
    MSHED_DFM_TABLE_BONE_ID_CHAIN, MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN,
    MSHED_DFM_TABLE_VERTEX_NORMALS, MSHED_DFM_TABLE_UV0,
  };
  MshedDfmArray pi, points, uv0, uv1;
  guint n_points;

  check_children (c, m->geometry, known_in_geometry);
  for (guint k = 0; k < G_N_ELEMENTS (required); k++)
    if (m->files[required[k] - DFM_GEO_BASE] == NULL)
      report_missing (c, MSHED_CHECK_DFM_GEOMETRY_MISSING, m->geometry,
                      mshed_dfm_schema_get_table (required[k])->node,
                      _("ignored: what needs it is not drawn"));
  if ((GEO (m, UV1_INDICES) == NULL) != (GEO (m, UV1) == NULL))
    report_missing (c, MSHED_CHECK_DFM_UV_PAIR, m->geometry,
                    GEO (m, UV1) ? "UV1_indices" : "UV1",
                    _("ignored: the level has no UV1"));
  for (guint k = 0; k < DFM_N_GEO; k++)
    check_size (c, m->files[k], DFM_GEO_BASE + (gint) k);

  array (GEO (m, POINT_INDICES), MSHED_DFM_TABLE_POINT_INDICES, &pi);
  array (GEO (m, POINTS), MSHED_DFM_TABLE_POINTS, &points);
  array (GEO (m, UV0), MSHED_DFM_TABLE_UV0, &uv0);
  array (GEO (m, UV1), MSHED_DFM_TABLE_UV1, &uv1);
  n_points = points.count;

  /* §6.1 and §6.2 length relations */
  if (pi.node)
    {
      check_length (c, GEO (m, UV0_INDICES), MSHED_DFM_TABLE_UV0_INDICES, pi.count,
                    MSHED_CHECK_DFM_ELEMENT_ARRAYS, "Point_indices");
      check_length (c, GEO (m, UV1_INDICES), MSHED_DFM_TABLE_UV1_INDICES, pi.count,
                    MSHED_CHECK_DFM_ELEMENT_ARRAYS, "Point_indices");
    }
  if (points.node)
    {
      check_length (c, GEO (m, POINT_BONE_FIRST), MSHED_DFM_TABLE_POINT_BONE_FIRST, n_points,
                    MSHED_CHECK_DFM_POINT_ARRAYS, "Points");
      check_length (c, GEO (m, POINT_BONE_COUNT), MSHED_DFM_TABLE_POINT_BONE_COUNT, n_points,
                    MSHED_CHECK_DFM_POINT_ARRAYS, "Points");
      check_length (c, GEO (m, VERTEX_NORMALS), MSHED_DFM_TABLE_VERTEX_NORMALS, n_points,
                    MSHED_CHECK_DFM_POINT_ARRAYS, "Points");
    }
  if (GEO (m, BONE_ID_CHAIN))
    check_length (c, GEO (m, BONE_WEIGHT_CHAIN), MSHED_DFM_TABLE_BONE_WEIGHT_CHAIN,
                  payload_size (GEO (m, BONE_ID_CHAIN)) / 4, MSHED_CHECK_DFM_CHAIN_LENGTHS,
                  "Bone_id_chain");

  /* §14 item 8 */
  if (pi.node && points.node)
    check_index_range (c, pi.node, MSHED_DFM_TABLE_POINT_INDICES, n_points,
                       MSHED_CHECK_DFM_POINT_INDEX_RANGE, "Points",
                       _("ignored: the element is not drawn"));
  if (GEO (m, UV0_INDICES) && uv0.node)
    check_index_range (c, GEO (m, UV0_INDICES), MSHED_DFM_TABLE_UV0_INDICES, uv0.count,
                       MSHED_CHECK_DFM_UV_INDEX_RANGE, "UV0",
                       _("ignored: the element is not drawn"));
  if (GEO (m, UV1_INDICES) && uv1.node)
    check_index_range (c, GEO (m, UV1_INDICES), MSHED_DFM_TABLE_UV1_INDICES, uv1.count,
                       MSHED_CHECK_DFM_UV_INDEX_RANGE, "UV1",
                       _("ignored: the element has no UV1"));
  check_skin (c, m, n_points);
  check_unreferenced (c, m, n_points);
  check_uv_bone (c, m, uv0.count);
}

static void
check_meshes (Ctx *c)
{
  for (guint l = 0; l < c->dfm->meshes->len; l++)
    {
      const DfmMesh *m = &g_array_index (c->dfm->meshes, DfmMesh, l);
      MshedUtfNode *pi = m->files[MSHED_DFM_TABLE_POINT_INDICES - DFM_GEO_BASE];

      check_children (c, m->dir, known_in_mesh);
      if (m->face_groups == NULL)
        report_missing (c, MSHED_CHECK_DFM_MESH_MISSING, m->dir, "Face_groups",
                        _("ignored: the level draws nothing"));
      if (m->geometry == NULL)
        report_missing (c, MSHED_CHECK_DFM_MESH_MISSING, m->dir, "Geometry",
                        _("ignored: the level draws nothing"));
      else
        check_geometry (c, m);
      if (m->face_groups)
        check_face_groups (c, m, (guint) MIN (payload_size (pi) / 4, G_MAXUINT), pi != NULL);
    }
}

/* Cmpnd: parts and Cons (docs/dfm.md §8, §9) ------------------------------------------- */

static void
check_part (Ctx           *c,
            const DfmPart *p)
{
  MshedUtfNode *object = p->files[MSHED_DFM_TABLE_OBJECT_NAME - DFM_PART_BASE];
  MshedUtfNode *file = p->files[MSHED_DFM_TABLE_FILE_NAME - DFM_PART_BASE];
  MshedUtfNode *idx = p->files[MSHED_DFM_TABLE_PART_INDEX - DFM_PART_BASE];

  check_children (c, p->dir, known_in_part);
  if (object == NULL)
    report_missing (c, MSHED_CHECK_DFM_PART_MISSING, p->dir, "Object name",
                    _("ignored: constraints cannot name the part"));
  check_string (c, object, MSHED_DFM_TABLE_OBJECT_NAME);
  if (file == NULL)
    report_missing (c, MSHED_CHECK_DFM_PART_MISSING, p->dir, "File name",
                    _("ignored: the part names no bone"));
  check_string (c, file, MSHED_DFM_TABLE_FILE_NAME);
  if (file && p->bone < 0)
    {
      g_autofree char *path = mshed_utf_node_dup_path (file);
      g_autofree char *shown = mshed_utf_name_to_display (p->file_name);

      report (c, MSHED_CHECK_DFM_PART_BONE, file, MSHED_DFM_TABLE_FILE_NAME, -1, NULL, 0,
              _("ignored: the part names no bone"),
              _("%s: “%s” names no bone directory of the root"), path, shown);
    }
  else if (p->claimed_by >= 0)
    {
      g_autofree char *path = mshed_utf_node_dup_path (file);
      g_autofree char *other = mshed_utf_node_dup_path (
        g_array_index (c->dfm->parts, DfmPart, p->claimed_by).dir);

      report (c, MSHED_CHECK_DFM_PART_DUPLICATE, file, MSHED_DFM_TABLE_FILE_NAME, -1, NULL, 0,
              _("ignored: the bone keeps its first part"),
              _("%s: bone %d is already claimed by %s"), path, p->bone, other);
    }

  if (idx == NULL)
    report_missing (c, MSHED_CHECK_DFM_PART_INDEX, p->dir, "Index",
                    _("ignored: the bone is found through File name"));
  else if (check_size (c, idx, MSHED_DFM_TABLE_PART_INDEX) && p->bone >= 0)
    {
      gint32 v = mshed_read_i32 (mshed_utf_node_peek_data (idx, NULL));

      if (v != p->bone)
        {
          g_autofree char *path = mshed_utf_node_dup_path (idx);

          report (c, MSHED_CHECK_DFM_PART_INDEX, idx, MSHED_DFM_TABLE_PART_INDEX, 0,
                  field_of (MSHED_DFM_TABLE_PART_INDEX, 0), 0,
                  _("ignored: the bone is found through File name"),
                  _("%s, field index: %d, but File name names bone %d (the position among "
                    "the root's .3db directories, dfm.md §8)"), path, v, p->bone);
        }
    }
}

static void
check_residue (Ctx               *c,
               const DfmConsFile *f)
{
  guint size = mshed_dfm_joint_record_size (f->kind);
  const guint8 *data = mshed_utf_node_peek_data (f->node, NULL);
  guint n = 0, first = 0, first_field = 0, first_byte = 0;

  for (guint r = 0; r < f->count; r++)
    for (guint k = 0; k < 2; k++)
      {
        const guint8 *name = data + (gsize) r * size + 64 * k;
        const guint8 *nul = memchr (name, 0, 64);
        guint i;

        for (i = nul ? (guint) (nul - name) : 64; i < 64 && name[i] == 0; i++)
          ;
        if (i < 64)
          {
            if (n == 0)
              {
                first = r;
                first_field = k;
                first_byte = r * size + 64 * k + i;
              }
            n++;
            break;
          }
      }
  if (n && listed (c, MSHED_CHECK_DFM_NAME_RESIDUE))
    {
      g_autofree char *path = mshed_utf_node_dup_path (f->node);

      _mshed_dfm_note_residue (c->diags, path, f->kind, node_offset (c, f->node), n, first,
                               first_field, first_byte);
    }
}

static void
check_cons (Ctx *c)
{
  const MshedDfm *d = c->dfm;

  for (MshedUtfNode *n = d->cons ? mshed_utf_node_get_first_child (d->cons) : NULL; n;
       n = mshed_utf_node_get_next (n))
    {
      gint kind = _mshed_dfm_joint_kind_of_name (node_name (n));
      g_autofree char *path = mshed_utf_node_dup_path (n);
      gsize size = payload_size (n);
      guint rec;

      if (kind < 0 || mshed_utf_node_is_directory (n))
        {
          report (c, MSHED_CHECK_DFM_CONS_KIND, n, MSHED_DFM_TABLE_NONE, -1, NULL, 0,
                  _("ignored: its joints are not read"),
                  _("%s: not a joint kind (Fix, Rev, Pris, Cyl, Sphere, Loose), so its record "
                    "size is unknown"), path);
          continue;
        }
      rec = mshed_dfm_joint_record_size ((MshedDfmJointKind) kind);
      if (size % rec != 0)
        report (c, MSHED_CHECK_DFM_CONS_SIZE, n, mshed_dfm_joint_table ((MshedDfmJointKind) kind),
                (gint64) (size / rec), NULL, size - size % rec,
                _("ignored: the incomplete last record is not used"),
                _("%s: %zu bytes is not a multiple of the %u-byte record"), path, size, rec);
    }

  for (guint i = 0; i < d->cons_files->len; i++)
    check_residue (c, &g_array_index (d->cons_files, DfmConsFile, i));

  for (guint j = 0; j < d->n_joints; j++)
    {
      DfmJointStatus status = g_array_index (d->joint_status, DfmJointStatus, j);
      MshedDfmJoint joint;
      MshedDfmTable table;
      g_autofree char *path = NULL;
      guint size;

      if (status == DFM_JOINT_LINKED || !mshed_dfm_get_joint (d, j, &joint))
        continue;
      table = mshed_dfm_joint_table (joint.kind);
      size = mshed_dfm_joint_record_size (joint.kind);
      path = mshed_utf_node_dup_path (joint.node);
      if (status == DFM_JOINT_UNKNOWN_PARENT || status == DFM_JOINT_UNKNOWN_CHILD)
        {
          gboolean parent = status == DFM_JOINT_UNKNOWN_PARENT;
          g_autofree char *shown = mshed_utf_name_to_display (parent ? joint.parent : joint.child);

          report (c, MSHED_CHECK_DFM_CONS_UNKNOWN_PART, joint.node, table, joint.record,
                  parent ? "parent" : "child", (guint64) joint.record * size + (parent ? 0 : 64),
                  NULL, _("%s, record %u, field %s: “%s” is the Object name of no part (the "
                          "constraint is ignored)"),
                  path, joint.record, parent ? "parent" : "child", shown);
        }
      else
        {
          g_autofree char *shown = mshed_utf_name_to_display (joint.child);

          report (c, MSHED_CHECK_DFM_CONS_HIERARCHY, joint.node, table, joint.record, "parent",
                  (guint64) joint.record * size, NULL,
                  status == DFM_JOINT_CYCLE
                    ? _("%s, record %u, field parent: attaching “%s” here would close a cycle "
                        "(the constraint is ignored)")
                    : _("%s, record %u, field parent: “%s” already has a parent (the "
                        "constraint is ignored)"),
                  path, joint.record, shown);
        }
    }
}

static void
check_cmpnd (Ctx *c)
{
  const MshedDfm *d = c->dfm;

  if (d->cmpnd == NULL)
    return;
  check_children (c, d->cmpnd, known_in_cmpnd);
  if (d->scale == NULL)
    report_missing (c, MSHED_CHECK_DFM_SCALE_MISSING, d->cmpnd, "Scale", NULL);
  else
    check_size (c, d->scale, MSHED_DFM_TABLE_SCALE);
  for (guint i = 0; i < d->parts->len; i++)
    check_part (c, &g_array_index (d->parts, DfmPart, i));
  check_cons (c);
}

/* Bones (docs/dfm.md §10) --------------------------------------------------------------- */

static void
check_bones (Ctx *c)
{
  const MshedDfm *d = c->dfm;

  for (guint i = 0; i < d->bones->len; i++)
    {
      const DfmBone *b = &g_array_index (d->bones, DfmBone, i);
      MshedUtfNode *btr = b->files[MSHED_DFM_TABLE_BONE_TO_ROOT - DFM_BONE_BASE];
      MshedUtfNode *bits = b->files[MSHED_DFM_TABLE_LOD_BITS - DFM_BONE_BASE];

      check_children (c, b->dir, known_in_bone);
      if (btr == NULL)
        report_missing (c, MSHED_CHECK_DFM_BONE_TO_ROOT, b->dir, "Bone to root",
                        _("ignored: the bone is taken to sit at the origin"));
      else if (payload_size (btr) != 48)
        {
          g_autofree char *path = mshed_utf_node_dup_path (btr);

          report (c, MSHED_CHECK_DFM_BONE_TO_ROOT, btr, MSHED_DFM_TABLE_BONE_TO_ROOT, -1, NULL, 0,
                  _("ignored: the bone is taken to sit at the origin"),
                  _("%s: %zu bytes, not the 48 of twelve floats (dfm.md §10.2)"), path,
                  payload_size (btr));
        }
      if (bits == NULL)
        report_missing (c, MSHED_CHECK_DFM_LOD_BITS_MISSING, b->dir, "Lod Bits", NULL);
      else
        check_size (c, bits, MSHED_DFM_TABLE_LOD_BITS);
      if (b->part < 0 && d->cmpnd != NULL && listed (c, MSHED_CHECK_DFM_DETACHED_BONE))
        {
          g_autofree char *path = mshed_utf_node_dup_path (b->dir);

          _mshed_dfm_note_detached (c->diags, path, node_offset (c, b->dir), i);
        }
      for (guint h = 0; b->hps && h < b->hps->len; h++)
        {
          const DfmHardpoint *hp = &g_array_index (b->hps, DfmHardpoint, h);

          for (guint k = 0; k < DFM_N_HP; k++)
            check_size (c, hp->files[k], DFM_HP_BASE + (gint) k);
        }
    }
}

/**
 * mshed_dfm_validate:
 * @dfm: the view (its node index)
 * @mode: strict and tolerant report the same findings with the same severities; tolerant
 *   adds to each error what a reader of the view drops for it
 * @diags: (nullable): receives the findings
 *
 * Returns: FALSE when an error was reported (a rule docs/dfm.md §14 rejects)
 */
gboolean
mshed_dfm_validate (const MshedDfm   *dfm,
                    MshedMode         mode,
                    MshedDiagnostics *diags)
{
  g_autofree Ctx *c = g_new0 (Ctx, 1);

  g_return_val_if_fail (dfm != NULL, FALSE);
  c->dfm = dfm;
  c->diags = diags;
  c->tolerant = mode == MSHED_MODE_TOLERANT;
  c->n_bones = dfm->bones->len;

  check_root (c);
  check_levels (c);
  check_meshes (c);
  check_cmpnd (c);
  check_bones (c);
  flush_suppressed (c);
  return c->n_errors == 0;
}
