/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_SNAPSHOT_H
#define __GUPSTAT_PROBE_SNAPSHOT_H

#include <stdbool.h>
#include <linux/types.h>
#include "gupstat.h"

/* Every histogram and counter, summed over CPUs, for one interval. */
struct snapshot {
	struct hist hists[NR_HISTS];
	struct counters c;
	/* The kernel's, not the maps': since the start, never reset (probes_missed()). */
	__u64 probe_misses;
};

struct gupstat_bpf;

int snapshot_read(struct snapshot *s, const struct gupstat_bpf *skel, bool reset);
void snapshot_merge_hist(struct hist *sum, const struct hist *h);
void snapshot_merge_counters(struct counters *sum, const struct counters *c);

#endif /* __GUPSTAT_PROBE_SNAPSHOT_H */
