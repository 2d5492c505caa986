/* mshed-cli-dfm.c
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Freelancer deformable models (docs/dfm.md) in mshed-cli: which UTF files are DFMs, the typed
 * summary of `info`, and `validate` of UTF files (a DFM with the rules of docs/dfm.md §14,
 * any other UTF file as a container, docs/utf.md §9).
 */
#define G_LOG_DOMAIN "mshed-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "mshed-cli-private.h"
#include "mshed-dfm-strip.h"
#include "mshed-dfm.h"

/* info ----------------------------------------------------------------------------------- */

static void
print_levels (GString        *out,
              const MshedDfm *dfm)
{
  guint n_levels = mshed_dfm_get_n_levels (dfm);

  g_string_append_printf (out, _("Levels:      %u\n"), n_levels);
  if (n_levels == 0)
    return;
  g_string_append (out, _("  level  fraction  groups  strips  strip indices  triangles  "
                          "elements  points  influences  UV1\n"));
  for (guint l = 0; l < n_levels; l++)
    {
      MshedDfmLevel level;
      guint strips = 0;
      guint64 strip_indices = 0, triangles = 0;
      char fraction[G_ASCII_DTOSTR_BUF_SIZE] = "-";

      if (!mshed_dfm_get_level (dfm, l, &level))
        continue;
      for (guint g = 0; g < level.n_groups; g++)
        {
          MshedDfmGroup group;
          gsize n = 0;
          g_autofree guint16 *tris = mshed_dfm_dup_triangles (dfm, l, g, &n);

          if (mshed_dfm_get_group (dfm, l, g, &group) && group.strip)
            {
              strips++;
              strip_indices += group.n_indices;
            }
          triangles += n;
        }
      if (level.has_fraction)
        g_ascii_formatd (fraction, sizeof fraction, "%g", level.fraction);
      g_string_append_printf (out, "  %5u  %-8s  %6u  %6u  %13" PRIu64 "  %9" PRIu64
                              "  %8u  %6u  %10u  %s\n", l, fraction, level.n_groups, strips,
                              strip_indices, triangles, level.n_elements, level.n_points,
                              level.n_chain, level.has_uv1 ? _("yes") : _("no"));
    }
}

static void
print_skeleton (GString        *out,
                const MshedDfm *dfm)
{
  guint n_bones = mshed_dfm_get_n_bones (dfm), n_parts = mshed_dfm_get_n_parts (dfm);
  guint detached = 0, fixed = 0, revolute = 0, with_root = 0;
  guint kinds[MSHED_DFM_N_JOINT_KINDS] = { 0 };
  guint n_joints = mshed_dfm_get_n_joints (dfm);
  gboolean first = TRUE;

  for (guint p = 0; p < n_parts; p++)
    {
      MshedDfmPart part;

      if (mshed_dfm_get_part (dfm, p, &part) && part.root)
        with_root++;
    }
  for (guint b = 0; b < n_bones; b++)
    {
      MshedDfmBone bone;

      if (!mshed_dfm_get_bone (dfm, b, &bone))
        continue;
      if (bone.part < 0)
        detached++;
      for (guint h = 0; h < bone.n_hardpoints; h++)
        {
          MshedDfmHardpoint hp;

          if (mshed_dfm_get_hardpoint (dfm, b, h, &hp))
            {
              if (hp.revolute)
                revolute++;
              else
                fixed++;
            }
        }
    }
  for (guint j = 0; j < n_joints; j++)
    {
      MshedDfmJoint joint;

      if (mshed_dfm_get_joint (dfm, j, &joint))
        kinds[joint.kind]++;
    }

  g_string_append_printf (out, _("Parts:       %u (%u Root)\n"), n_parts, with_root);
  g_string_append_printf (out, _("Bones:       %u, %u detached (named by no part)\n"), n_bones,
                          detached);
  g_string_append_printf (out, _("Joints:      %u"), n_joints);
  for (guint k = 0; k < MSHED_DFM_N_JOINT_KINDS; k++)
    if (kinds[k])
      {
        g_string_append_printf (out, "%s%u %s", first ? ": " : ", ", kinds[k],
                                mshed_dfm_joint_kind_name ((MshedDfmJointKind) k));
        first = FALSE;
      }
  g_string_append_c (out, '\n');
  g_string_append_printf (out, _("Hardpoints:  %u (%u fixed, %u revolute)\n"), fixed + revolute,
                          fixed, revolute);
}

/**
 * mshed_cli_dfm_summary:
 *
 * Appends what `info` shows of a deformable model: the skeleton, the levels with their
 * counts, parts, bones, joints by kind, hardpoints and materials; the findings of a tolerant
 * validation go to @diags.
 */
void
mshed_cli_dfm_summary (GString          *out,
                       MshedUtf         *utf,
                       MshedDiagnostics *diags)
{
  g_autoptr(MshedDfm) dfm = mshed_dfm_new (utf, MSHED_MODE_TOLERANT, diags, NULL);
  const char *skeleton, *exporter;
  char scale[G_ASCII_DTOSTR_BUF_SIZE];

  if (dfm == NULL)
    return;
  skeleton = mshed_dfm_get_skeleton_name (dfm);
  exporter = mshed_dfm_get_exporter_version (dfm);
  g_ascii_formatd (scale, sizeof scale, "%g", mshed_dfm_get_scale (dfm));
  g_string_append_printf (out, _("Kind:        deformable model (DFM), skeleton “%s”, scale "
                                 "%s\n"), skeleton ? skeleton : "-", scale);
  g_string_append_printf (out, _("Exporter:    %s\n"), exporter ? exporter : "-");
  print_levels (out, dfm);
  print_skeleton (out, dfm);
  g_string_append_printf (out, _("Materials:   %u, %u textures embedded\n"),
                          mshed_dfm_get_n_materials (dfm), mshed_dfm_get_n_textures (dfm));
}

/* Table rows (dump --table, edit --set) ------------------------------------------------- */

/**
 * mshed_cli_dfm_spans:
 * @n_rows: (out) (optional): the rows of the table in the whole file
 *
 * The rows of a DFM table as `dump --table` numbers them and `edit --set TABLE[ROW]` takes
 * them: every node of the tree below @root that holds @info's table, in pre-order, one row per
 * record (one per node for a string payload), numbered on across the nodes.
 *
 * Returns: (transfer full) (element-type MshedCliDfmSpan): one span per node
 */
GArray *
mshed_cli_dfm_spans (MshedUtfNode            *root,
                     const MshedDfmTableInfo *info,
                     guint64                 *n_rows)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (MshedCliDfmSpan));
  guint64 total = 0;

  for (MshedUtfNode *node = root; node; node = mshed_utf_node_next_preorder (node, root))
    {
      MshedDfmTable table = mshed_dfm_schema_table_for_node (node);
      /* the Triangles table: the triangles every strip or list draws (docs/dfm.md §5.1) */
      gboolean tris = info->id == MSHED_DFM_TABLE_TRIANGLES &&
                      (table == MSHED_DFM_TABLE_TRISTRIP || table == MSHED_DFM_TABLE_FACE_INDICES);
      MshedCliDfmSpan span = { node, total, 1 };
      gsize size = 0;
      const guint8 *data;

      if (table != info->id && !tris)
        continue;
      data = mshed_utf_node_peek_data (node, &size);
      if (tris)
        span.n_rows = table == MSHED_DFM_TABLE_TRISTRIP
                        ? mshed_dfm_strip_count_triangles (data, size / 2) : size / 6;
      else if (info->stride > 0)
        span.n_rows = size / info->stride;
      total += span.n_rows;
      g_array_append_val (spans, span);
    }
  if (n_rows)
    *n_rows = total;
  return spans;
}

/* The span that holds table row @row, or the one of @node (whichever is given); NULL when
 * none does. */
const MshedCliDfmSpan *
mshed_cli_dfm_find_span (GArray             *spans,
                         guint64             row,
                         const MshedUtfNode *node)
{
  for (guint i = 0; i < spans->len; i++)
    {
      const MshedCliDfmSpan *span = &g_array_index (spans, MshedCliDfmSpan, i);

      if (node != NULL ? span->node == node
                       : row >= span->first_row && row - span->first_row < span->n_rows)
        return span;
    }
  return NULL;
}

gsize
mshed_cli_text_length (const guint8 *p,
                       gsize         size)
{
  const guint8 *nul = p ? memchr (p, 0, size) : NULL;

  return p == NULL ? 0 : nul ? (gsize) (nul - p) : size;
}
