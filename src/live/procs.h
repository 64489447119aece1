/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_PROCS_H
#define __GUPSTAT_LIVE_PROCS_H

#include <stdbool.h>
#include <stdio.h>

#include <linux/types.h>
#include "gupstat.h"

struct bpf_map;
struct cgpath;
struct live_stamp;

/* How a table is printed. */
struct procs_out {
	const struct live_stamp *json;	/* NDJSON records stamped so; NULL: text */
	bool reset;			/* empty the map after */
	bool waits;			/* --waits: the waiter's counts too */
};

/* -P: the per-process table, busiest first. */
int procs_print(FILE *f, const struct bpf_map *procs, const struct procs_out *o);
/* --per-cgroup: the per-cgroup table, named through @names. */
int procs_print_cgroups(FILE *f, const struct bpf_map *cgroups, struct cgpath *names,
			const struct procs_out *o);
/* One process's NDJSON record. */
void procs_print_json(FILE *f, __u32 tgid, const struct proc_stats *s,
		      const struct procs_out *o);
/* One cgroup's NDJSON record: @path NULL where it was removed unnamed. */
void procs_print_cgroups_json(FILE *f, __u64 id, const char *path, const struct tally *c,
			      const struct procs_out *o);

#endif /* __GUPSTAT_LIVE_PROCS_H */
