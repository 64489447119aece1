/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_VIEW_H
#define __GUPSTAT_PROBE_VIEW_H

#include <argp.h>
#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>
#include "probe/catalog.h"
#include "probe/session.h"

/*
 * What the live view counts and how, which `gupstat` and `gupstat serve`
 * share: their options but for how each shows it. The field names of the
 * shared options are those OPTS_SHARED_ALL() wants.
 */
struct view_opts {
	pid_t pid;		/* -p: count one process; 0 for all */
	const char *cgroup;	/* -c: count a cgroup (v2 path) and its descendants */
	bool cgroup_exact;	/* --cgroup-exact: ... that cgroup alone */
	bool per_process;	/* -P: a row per process */
	bool per_cgroup;	/* --per-cgroup: a row per cgroup */
	unsigned int duration;	/* -d: seconds; 0 runs until Ctrl-C */
	const char *event;	/* -e: perf event per call; NULL: default */
	bool no_event;		/* -e none */
	bool force_kprobe;	/* -k */
	bool lock_exact;	/* --lock-exact */
	bool waits;		/* --waits */
	bool verbose;		/* -v: libbpf debug output */
	char **cmd;		/* after --: run this and count it alone */
};

/*
 * -c, --cgroup-exact, -P, --per-cgroup and -e: an argp child whose input
 * is a struct view_opts.
 */
extern const struct argp view_count_argp;

/*
 * One run of the live view's object: its options (the live view's or
 * serve's own, not a copy), the session, what a report says
 * besides the numbers (@cv), the --per-cgroup names and
 * the -e counter's descriptors.
 */
struct view {
	const struct view_opts *o;	/* the caller's, as parsed */
	struct session s;
	struct catalog_view cv;
	struct cgpath *cgroup_names;	/* --per-cgroup */
	int *pmu_fds, nr_pmu;
};

/* Check the options against this machine, open the object, choose probes. */
int view_prepare(struct view *v);
/* Open the -e counter, if any; one the machine lacks is said and dropped. */
void view_pmu_setup(struct view *v);
/* Set the programs' read-only data from the options, load, install counters. */
int view_load(struct view *v);
void view_close(struct view *v);

#endif /* __GUPSTAT_PROBE_VIEW_H */
