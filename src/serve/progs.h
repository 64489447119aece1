/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_PROGS_H
#define __GUPSTAT_SERVE_PROGS_H

#include <stdbool.h>
#include <linux/types.h>
#include "probe/catalog.h"

/*
 * The tracer's own cost: each attached program's run count and time,
 * as the kernel keeps them in bpf_prog_info while kernel.bpf_stats_enabled
 * is 1 (it costs two clock reads per run, so the kernel leaves it off);
 * and the runs it skipped (recursion_misses), which it always counts.
 */
struct prog_stat {
	const char *prog;		/* the BPF program's name */
	const char *func;		/* the kernel function it is attached to */
	__u64 runs;
	__u64 run_ns;
	__u64 misses;			/* runs the kernel skipped: counted always */
};

struct prog_stats {
	bool enabled;			/* kernel.bpf_stats_enabled, now */
	unsigned int nr;
	struct prog_stat p[2 * NR_PROBES];
};

/* kernel.bpf_stats_enabled: 1, 0, or -errno where it cannot be read. */
int progs_stats_enabled(void);
/* Every attached program of @probes (NR_PROBES), read now. */
void progs_read(struct prog_stats *ps, const struct probe *probes);

#endif /* __GUPSTAT_SERVE_PROGS_H */
