/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_OPTIONS_H
#define __GUPSTAT_LIVE_OPTIONS_H

#include <argp.h>
#include <stdbool.h>
#include "probe/view.h"

struct live_opts {
	struct view_opts v;	/* what is counted, as gupstat serve counts it */
	unsigned int interval;	/* -i or INTERVAL: seconds between reports; 0: at the end */
	unsigned int interval_arg;	/* INTERVAL, as given */
	unsigned int count;	/* COUNT: reports, then the end; 0: no limit */
	bool timestamps;	/* -T */
	bool clear;		/* --clear: redraw on a terminal */
	bool json;		/* -j: NDJSON */
	bool dry_run;		/* --dry-run */
};

/* 0 to run, 1 when help or the version was printed, -EINVAL after the error. */
int live_opts_parse(struct live_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_LIVE_OPTIONS_H */
