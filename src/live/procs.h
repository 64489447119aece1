/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_PROCS_H
#define __GUPSTAT_LIVE_PROCS_H

#include <stdbool.h>
#include <stdio.h>

#include <linux/types.h>
#include "gupstat.h"

struct bpf_map;
struct cgpath;

/* -P: the per-process table, busiest first; @reset empties the map after. */
int procs_print(FILE *f, const struct bpf_map *procs, bool json, bool reset);
/* --per-cgroup: the per-cgroup table, named through @names. */
int cgroups_print(FILE *f, const struct bpf_map *cgroups, struct cgpath *names, bool json,
		  bool reset);
/* One process's NDJSON record. */
void procs_print_json(FILE *f, __u32 tgid, const struct proc_stats *s);
/* One cgroup's NDJSON record: @path NULL where it was removed unnamed. */
void cgroups_print_json(FILE *f, __u64 id, const char *path, const struct tally *t);

#endif /* __GUPSTAT_LIVE_PROCS_H */
