/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_OPTIONS_H
#define __GUPSTAT_SERVE_OPTIONS_H

#include <stdbool.h>
#include "probe/view.h"
#include "serve/listen.h"

#define SERVE_MAX_SERIES_DEFAULT	100
/* 15 minutes: past the 5 and 10 minute windows rate() and alerts look over. */
#define SERVE_SERIES_IDLE_DEFAULT	900
/* Time histograms: 63 ns (2^6 - 1) to 1.07 s (2^30 - 1), 25 buckets and +Inf. */
#define SERVE_BUCKETS_NS_DEFAULT	"64:1000000000"
/* The log2 slots a time bucket may have: 2^40 - 1 ns is 18 minutes. */
#define SERVE_BUCKETS_NS_MAX		(1ULL << 40)

struct serve_opts {
	struct view_opts view;		/* what is counted: as the live view */
	const char *listen;		/* --listen ADDR:PORT, as typed */
	struct listen_addr addr;	/* ... parsed */
	bool allow_remote;		/* --allow-remote: a non-loopback address */
	unsigned int max_series;	/* --max-series: -P's, --per-cgroup's rows */
	unsigned int series_idle;	/* --series-idle: seconds before a row ages out */
	const char *buckets_ns;		/* --buckets-ns MIN:MAX, as typed */
	unsigned int ns_first_slot;	/* ... as log2 slots */
	unsigned int ns_last_slot;
};

/*
 * "MIN:MAX" nanoseconds to the log2 slots whose bounds (2^i - 1) cover
 * them: from the first with 2^i >= MIN to the first with 2^i - 1 >= MAX.
 * 0, or -EINVAL with @why said in words.
 */
int serve_buckets_parse(const char *s, unsigned int *first, unsigned int *last,
			const char **why);

/* 0 to run, 1 when help or the version was printed, -EINVAL after the error. */
int serve_opts_parse(struct serve_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_SERVE_OPTIONS_H */
