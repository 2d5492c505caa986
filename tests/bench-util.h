/* bench-util.h
 *
 * Copyright 2026 The mshed authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the window and renderer benchmarks share: the median of a set of times, the CPU time
 * of the whole process, and the largest generated DFM body.
 */
#pragma once

#include <glib.h>
#include <stdlib.h>
#include <time.h>

#include "mshed-dfm-generator.h"

static inline int
bench_compare_double (const void *a,
                      const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* sorts @v */
static inline double
bench_median (double *v,
              guint   n)
{
  qsort (v, n, sizeof *v, bench_compare_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* CPU time of the whole process (all threads: Mesa's llvmpipe rasterises on its own), in
 * microseconds: steadier than wall time on a shared machine. */
static inline gint64
bench_cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* the largest generated body (as bench-document-dfm): 57 bones, Mesh0 7,749 points */
static inline void
bench_largest_body (MshedDfmGenParams *params)
{
  mshed_dfm_gen_params_init (params, MSHED_DFM_GEN_BODY, 7);
  params->n_bones = 57;
  params->n_points = 8000;
  params->n_groups = 4;
  params->uv1 = TRUE;
  params->edges = TRUE;
}
