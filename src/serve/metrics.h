/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_METRICS_H
#define __GUPSTAT_SERVE_METRICS_H

#include <stdbool.h>
#include <stdio.h>
#include "probe/catalog.h"
#include "probe/snapshot.h"
#include "serve/progs.h"
#include "serve/series.h"

/* What a scrape says besides the numbers. */
struct metrics_ctx {
	const struct catalog_view *view;	/* probes, walk shape, counter name */
	const char *release;		/* uname -r */
	bool openmetrics;		/* OpenMetrics 1.0, else Prometheus text 0.0.4 */
	/* Time histograms' buckets: log2 slots first to last (--buckets-ns). */
	unsigned int ns_first_slot, ns_last_slot;
	const struct prog_stats *progs;	/* the programs' own cost */
	const struct series *procs;	/* -P, or NULL */
	const struct series *cgroups;	/* --per-cgroup, or NULL */
};

/* Content-Type of what metrics_write() writes. */
const char *metrics_content_type(bool openmetrics);

/*
 * The whole exposition: every histogram and counter of @s whose probe is
 * attached, the programs' cost, the per-process and per-cgroup series,
 * the info metrics, and with OpenMetrics the closing "# EOF".
 */
void metrics_write(FILE *f, const struct metrics_ctx *m, const struct snapshot *s);

#endif /* __GUPSTAT_SERVE_METRICS_H */
