/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_CATALOG_H
#define __GUPSTAT_PROBE_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
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
 * (src/live/print.c) and serve's exposition (src/serve/metrics.c); the
 * NDJSON's "metric" and "labels" are the Prometheus family's. The
 * rows are in the live view's order; serve writes a family's series
 * together, from the family's first row.
 */
struct catalog_row {
	enum hist_id id;
	const char *id_name;	/* as include/gupstat.h spells it, for the docs */
	enum probe_id probe;
	const char *key;	/* NDJSON "name", deprecated for the family's (0.5) */
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

/*
 * A count of the -P and --per-cgroup tables, one field of struct tally:
 * its NDJSON key in a proc or cgroup record, and serve's family
 * gupstat_process_NAME_total or gupstat_cgroup_NAME_total with its help.
 */
struct catalog_tally {
	const char *name;
	const char *help;
	size_t off;		/* in struct tally */
	bool cgroup_only;	/* serve has a family per cgroup alone */
	bool waits;		/* --waits' alone: the waiter's */
	bool ns;		/* nanoseconds: serve's family is NAME less _ns, _seconds */
};

/*
 * A counter of the live object (struct counters): serve's family
 * gupstat_NAME_total, the NDJSON counters record's key NAME (an object
 * by label value where it has a label), its help, and the probe whose
 * method and walk label its series (NR_PROBES: none, the counter is the
 * tool's own). serve shows a probe's counters while the probe is
 * attached, and the counter's misses only with a counter (@pmu).
 */
struct catalog_counter {
	const char *name;
	const char *help;
	enum probe_id probe;
	const char *label;		/* NULL: one series */
	const char *const *values;	/* the label's values, @nr of them */
	unsigned int nr;
	size_t off;			/* in struct counters: @nr __u64s */
	bool pmu;
};

extern const struct catalog_counter catalog_counters[];
extern const unsigned int catalog_counters_nr;

static inline __u64 catalog_counter_value(const struct catalog_counter *c,
					  const struct counters *cs, unsigned int i)
{
	return ((const __u64 *)((const char *)cs + c->off))[i];
}

extern const struct catalog_tally catalog_tallies[];
extern const unsigned int catalog_tallies_nr;

static inline __u64 catalog_tally_value(const struct catalog_tally *c, const struct tally *t)
{
	return *(const __u64 *)((const char *)t + c->off);
}

/* A count's name in serve: a time's NAME_ns is NAME_seconds. */
const char *catalog_tally_family(const struct catalog_tally *c, char *buf, size_t len);

/* The label values of the counters, by result and by kind, in every view. */
extern const char *const catalog_walk_results[WALK_NR_RESULTS];
extern const char *const catalog_gup_kinds[GUP_NR_KINDS];

/* Nanoseconds in the kernel, seconds in Prometheus. */
bool catalog_is_ns(const struct catalog_row *r);

/* A Prometheus label of a series. */
struct catalog_label {
	const char *key, *value;
};

#define CATALOG_LABELS_MAX	5

/*
 * The labels of @r's series, in the order serve writes them: the row's
 * own (kind, foll, function), the counter's event, how the hold is
 * timed (lock), then the probe's method and the walk's shape. Returns
 * how many are in @out.
 */
unsigned int catalog_labels(const struct catalog_view *v, const struct catalog_row *r,
			    struct catalog_label out[CATALOG_LABELS_MAX]);
/* The labels every series a probe feeds carries: method, walk. */
unsigned int catalog_probe_labels(const struct catalog_view *v, enum probe_id probe,
				  struct catalog_label *out);
/*
 * A family's name in the live view's NDJSON: the Prometheus name without
 * its "gupstat_" namespace, a time's "_seconds" as "_ns" (NDJSON keeps
 * the kernel's integer nanoseconds): gupstat_gup_latency_seconds is
 * gup_latency_ns.
 */
const char *catalog_ndjson_name(const struct catalog_family *fam, char *buf, size_t len);

#endif /* __GUPSTAT_PROBE_CATALOG_H */
