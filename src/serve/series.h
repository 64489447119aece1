/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_SERIES_H
#define __GUPSTAT_SERVE_SERIES_H

#include <stdbool.h>
#include <time.h>
#include <linux/types.h>
#include "gupstat.h"

struct cgpath;

/*
 * -P and --per-cgroup under gupstat serve: a bounded table of series, one
 * per process or cgroup, so that a fork-heavy host cannot grow the scrape
 * (or the monitoring's index) without bound. A row is given to a key when
 * it is first seen and the table has room; a key seen while it is full is
 * refused and counted once in @dropped. A row whose counters have not
 * moved for @idle_s seconds is removed, in the table and in the kernel's
 * map, making room: a process or cgroup that comes back starts a new
 * series from zero, which Prometheus reads as a new series. A row that
 * holds pins (more pages pinned than unpinned) is never removed: a VM's
 * pins stay in view however long it leaves GUP alone.
 */
enum series_kind { SERIES_PROC, SERIES_CGROUP };

struct serie {
	__u64 key;			/* tgid, or cgroup id */
	char comm[16];			/* processes */
	const char *path;		/* cgroups: owned by the cgpath; NULL unnamed */
	struct tally last;		/* as the kernel's row last read */
	struct tally base;		/* what rows the kernel evicted (LRU) had */
	__u64 moved_sum;		/* the counters' sum when they last moved */
	time_t moved;			/* then, CLOCK_MONOTONIC seconds */
};

struct series {
	enum series_kind kind;
	unsigned int max, nr;
	unsigned int idle_s;
	struct serie *rows;		/* @max of them, @nr used */
	struct cgpath *names;		/* cgroups */
	__u64 dropped;
	__u64 unnamed;			/* cgroups removed before they were named */
};

int series_init(struct series *s, enum series_kind kind, unsigned int max, unsigned int idle_s,
		struct cgpath *names);
void series_free(struct series *s);
/* Read the kernel's map (fd @map_fd) into @s at time @now; 0 or -errno. */
int series_update(struct series *s, int map_fd, time_t now);
/* Row @r's totals: what the kernel has now, plus what it evicted. */
void serie_total(const struct serie *r, struct tally *out);

#endif /* __GUPSTAT_SERVE_SERIES_H */
