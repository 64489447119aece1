/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_VALIDATE_OPTIONS_H
#define __GUPSTAT_VALIDATE_OPTIONS_H

#include <stdbool.h>
#include "results/results.h"

#define V_MAX_SIZES	8

struct validate_opts {
	unsigned int sizes_mb[V_MAX_SIZES];	/* -s, ascending */
	int nr_sizes;
	bool folios[VF_NR];			/* -f */
	unsigned int repeats;			/* -r */
	const char *event;			/* -e; NULL: none */
	unsigned long evict_bytes;		/* --evict-mb; 0: default */
	int cpu;				/* --cpu; -1: the last one */
	const char *output;			/* -o */
	const char *sim_dir;			/* --sim: the cache-model plugin's */
	bool force_kprobe;			/* -k */
	bool verbose;				/* -v */
};

/*
 * argv[0] is "validate", the claim ("unpin") among the arguments. 0 to
 * run, 1 when help or the version was printed, -EINVAL after the error.
 */
int validate_opts_parse(struct validate_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_VALIDATE_OPTIONS_H */
