/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_CATALOG_H
#define __GUPSTAT_PROBE_CATALOG_H

#include <stdbool.h>
#include <linux/types.h>
#include "gupstat.h"
#include "probe/probes.h"

/* A Prometheus family: one histogram, or several told apart by a label. */
struct catalog_family {
	const char *name;
	const char *help;	/* "%s": the probe's function, where it varies */
};

/*
 * One histogram, as every view names it: the live text and NDJSON
 * (src/live/print.c) and serve's exposition (src/serve/metrics.c). The
 * rows are in the live view's order; serve writes a family's series
 * together, from the family's first row.
 */
struct catalog_row {
	enum hist_id id;
	enum probe_id probe;
	const char *key;	/* NDJSON name */
	const char *title;	/* live text heading; "%s" is the probe's function */
	const char *unit;	/* the live value column; "nsecs" is exported in seconds */
	bool pmu;		/* a perf counter's: shown only with one (-e) */
	const struct catalog_family *fam;
	const char *label, *value;	/* its own Prometheus label, or NULL */
};

/*
 * What a printer of the histograms says besides the numbers, the live
 * view's and serve's alike: how each probe is attached, the walk's
 * shape, how the hold is timed, and the counter.
 */
struct catalog_view {
	const struct probe *probes;	/* NR_PROBES of them */
	bool walk_returns_count;
	bool lock_exact;
	const char *event;		/* counter name, NULL without one */
};

extern const struct catalog_row catalog[];
extern const unsigned int catalog_nr;

/* Nanoseconds in the kernel, seconds in Prometheus. */
bool catalog_is_ns(const struct catalog_row *r);

#endif /* __GUPSTAT_PROBE_CATALOG_H */
