/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_LIVE_H
#define __GUPSTAT_LIVE_LIVE_H

#include <linux/types.h>
#include "live/options.h"
#include "live/print.h"
#include "probe/session.h"

/*
 * One run of the live view's probes, as `gupstat` prints it and `gupstat
 * serve` exports it: the options, the session, what a report says.
 */
struct live {
	struct live_opts o;
	struct session s;
	struct live_print_ctx rc;
	__u64 cgroup_id;
	struct cgpath *cgroup_names;	/* --per-cgroup */
	int *pmu_fds, nr_pmu;
};

/* Check the options against this machine, open the object, choose probes. */
int live_prepare(struct live *l);
/* Open the -e counter, if any; one the machine lacks is said and dropped. */
void live_pmu_setup(struct live *l);
/* Set the programs' read-only data from the options, load, install counters. */
int live_load(struct live *l);
void live_close(struct live *l);

int cmd_live(int argc, char **argv);

#endif /* __GUPSTAT_LIVE_LIVE_H */
