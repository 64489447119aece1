/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_OPTS_H
#define __GUPSTAT_OPTS_H

#include <stdbool.h>
#include <sys/types.h>

struct live_opts {
	pid_t pid;		/* -p: count one process; 0 for all */
	unsigned int duration;	/* -d: seconds; 0 runs until Ctrl-C */
	bool force_kprobe;	/* -k */
	bool verbose;		/* -v: libbpf debug output */
	char **cmd;		/* after --: run this and count it alone */
};

/* 0 to run, 1 when help was printed, -EINVAL after printing the error. */
int live_opts_parse(struct live_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_OPTS_H */
