/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_PROCS_H
#define __GUPSTAT_LIVE_PROCS_H

#include <stdbool.h>
#include <stdio.h>

struct bpf_map;

int procs_print(FILE *f, const struct bpf_map *procs, bool json, bool reset);

#endif /* __GUPSTAT_LIVE_PROCS_H */
