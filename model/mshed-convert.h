/* mshed-convert.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Converting between Freelancer deformable models and Parkan MSH models (docs/dfm.md §16–17):
 * DFM -> MSH in the two modes of docs/dfm.md §16 (static: one node, the bind-pose shape; rigid:
 * one node per bone, every triangle on the bone with the largest summed weight), built by the glTF
 * new-model builder (mshed-gltf-import.h) with a generated WEAR table; MSH -> DFM with one bone
 * per node, Loose records, six levels and the material and texture libraries. Each direction
 * fills a report of what the target format cannot hold (docs/dfm.md §16, §17), with counts.
 */
#pragma once

#include <glib.h>

#include "mshed-dfm.h"
#include "mshed-model.h"
#include "mshed-nres.h"
#include "mshed-utf.h"

G_BEGIN_DECLS

typedef enum {
  MSHED_CONVERT_STATIC,   /* docs/dfm.md §16: one root node, the bind-pose shape */
  MSHED_CONVERT_RIGID,    /* docs/dfm.md §16: one node per bone */
} MshedConvertMode;

/* One line of the loss report. */
typedef struct {
  const char *id;         /* stable English key ("blending", "uv1", ...) for --json */
  guint64     count;
  const char *what;       /* translated: what @count counts and what is lost with it */
} MshedConvertLoss;

typedef struct {
  guint   nodes;          /* MSH nodes, or DFM bones, written */
  guint   levels;         /* distinct MSH LOD slots per node, or DFM levels, written */
  guint64 triangles;      /* triangles written, over every level */
  guint   materials;      /* WEAR rows, or DFM materials, written */
  GArray *losses;         /* MshedConvertLoss, non-zero counts only, in the order of
                           * docs/dfm.md §16, or docs/dfm.md §17 step 9 */
} MshedConvertReport;

void        mshed_convert_report_init  (MshedConvertReport *report);
void        mshed_convert_report_clear (MshedConvertReport *report);

/* DFM -> MSH. @where names the input in messages. *@wear gets the WEAR table text (one row
 * per distinct Material_name, in order of first use). NULL with @error for what the
 * conversion cannot do (no level, mismatched Fractions, an unreadable element, a bone without
 * `Bone to root`, ...). */
MshedNres  *mshed_convert_dfm_to_msh   (MshedDfm            *dfm,
                                        const char          *where,
                                        MshedConvertMode     mode,
                                        GBytes             **wear,
                                        MshedConvertReport  *report,
                                        GError             **error);

/* DFM -> MSH, after mshed_convert_dfm_to_msh: copies Res9, Res15, Res17, hdr0, the slot tail
 * words, the batch unknowns, triFlags and selPacked from @templ (docs/dfm.md §16), Res15
 * fitted to the vertex count (reported when the counts differ). @templ NULL: adds the loss line
 * of the three missing resources. FALSE with @error for a template without Res9/15/17 or with
 * legacy node records. */
gboolean    mshed_convert_apply_template (MshedNres          *nres,
                                          MshedModel         *templ,
                                          const char         *where,
                                          MshedConvertReport *report,
                                          GError            **error);

/* MSH -> DFM. @wear: the model's WEAR table text, or NULL (materials are then named
 * `material_<row>`). NULL with @error for what a DFM cannot hold (more than 65,535 vertices in
 * a level, nothing to draw at LOD 0, ...). */
MshedUtf   *mshed_convert_msh_to_dfm   (MshedModel          *model,
                                        const char          *where,
                                        GBytes              *wear,
                                        MshedConvertReport  *report,
                                        GError             **error);

/* The material names of WEAR text (docs/msh.md §8): rows in order, up to the stated count or
 * the first empty line. NULL-terminated; never NULL. */
char      **mshed_convert_parse_wear   (GBytes              *wear);

G_END_DECLS
