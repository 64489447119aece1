/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_PROCS_H
#define __GUPSTAT_SERVE_PROCS_H

#include <stdbool.h>
#include <linux/types.h>
#include "gupstat.h"

/*
 * -P under gupstat serve: a series per process, for the first @max
 * processes seen and for them alone, so that a fork-heavy host cannot
 * grow the scrape (or the monitoring's index) without bound. Those past
 * the cap are counted, once per PID, in @dropped.
 */
struct proc_serie {
	__u32 tgid;
	struct proc_stats last;		/* as the kernel's row last read */
	struct proc_stats base;		/* rows the kernel evicted (LRU), added up */
};

struct proc_series {
	unsigned int max;
	unsigned int nr;
	struct proc_serie *rows;	/* @max of them, @nr used */
	unsigned long *seen_dropped;	/* a bit per PID counted in @dropped */
	__u64 dropped;
};

int proc_series_init(struct proc_series *p, unsigned int max);
void proc_series_free(struct proc_series *p);
/* Read the kernel's per-process map (fd @map_fd) into @p; 0 or -errno. */
int proc_series_update(struct proc_series *p, int map_fd);
/* Row @r's totals: what the kernel has now, plus what it evicted. */
void proc_serie_total(const struct proc_serie *r, struct proc_stats *out);

#endif /* __GUPSTAT_SERVE_PROCS_H */
