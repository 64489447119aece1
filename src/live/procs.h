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

/*
 * -P: the per-process table, busiest first; @reset empties the map after.
 * @json: NDJSON records stamped with it; NULL for the text.
 */
int procs_print(FILE *f, const struct bpf_map *procs, const struct live_stamp *json,
		bool reset);
/* --per-cgroup: the per-cgroup table, named through @names. */
int procs_print_cgroups(FILE *f, const struct bpf_map *cgroups, struct cgpath *names,
		  const struct live_stamp *json, bool reset);
/* One process's NDJSON record. */
void procs_print_json(FILE *f, __u32 tgid, const struct proc_stats *s,
		      const struct live_stamp *t);
/* One cgroup's NDJSON record: @path NULL where it was removed unnamed. */
void procs_print_cgroups_json(FILE *f, __u64 id, const char *path, const struct tally *c,
			const struct live_stamp *t);

#endif /* __GUPSTAT_LIVE_PROCS_H */
