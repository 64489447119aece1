/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_OPTIONS_H
#define __GUPSTAT_LIVE_OPTIONS_H

#include <argp.h>
#include <stdbool.h>
#include <sys/types.h>

struct live_opts {
	pid_t pid;		/* -p: count one process; 0 for all */
	const char *cgroup;	/* -c: count one cgroup (v2 path) */
	bool per_process;	/* -P: a row per process */
	bool per_cgroup;	/* --per-cgroup: a row per cgroup */
	unsigned int interval;	/* -i: seconds between reports; 0: at the end */
	unsigned int duration;	/* -d: seconds; 0 runs until Ctrl-C */
	bool timestamps;	/* -T */
	bool json;		/* -j: NDJSON */
	const char *event;	/* -e: perf event per call; NULL: default */
	bool no_event;		/* -e none */
	bool force_kprobe;	/* -k */
	bool lock_exact;	/* --lock-exact */
	bool dry_run;		/* --dry-run */
	bool verbose;		/* -v: libbpf debug output */
	char **cmd;		/* after --: run this and count it alone */
};

/*
 * 0 to run, 1 when help or the version was printed, -EINVAL after the
 * error. pid, duration, lock_exact, cmd, force_kprobe and verbose are the
 * shared options (util/options.h), named as OPTS_SHARED_ALL() wants them.
 */
int live_opts_parse(struct live_opts *o, int argc, char **argv);

/*
 * -c, -P, --per-cgroup and -e, for a command that counts what the live view counts: an
 * argp child whose input is a struct live_opts.
 */
extern const struct argp live_count_argp;

#endif /* __GUPSTAT_LIVE_OPTIONS_H */
