/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_PROCS_H
#define __GUPSTAT_LIVE_PROCS_H

#include <stdbool.h>
#include <stdio.h>

#include <linux/types.h>
#include "gupstat.h"

struct bpf_map;

int procs_print(FILE *f, const struct bpf_map *procs, bool json, bool reset);
/* One process's NDJSON record. */
void procs_print_json(FILE *f, __u32 tgid, const struct proc_stats *s);

#endif /* __GUPSTAT_LIVE_PROCS_H */
