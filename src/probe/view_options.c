// SPDX-License-Identifier: GPL-2.0
/*
 * What is counted and how, the live view's and gupstat serve's alike:
 * one argp child, so that both take -c, --cgroup-exact, -P, --per-cgroup
 * and -e with the same words and the same refusals.
 */
#include "kernel/pmu.h"
#include "probe/view.h"
#include "util/options.h"

enum { OPT_PER_CGROUP = 512, OPT_CGROUP_EXACT };

static const struct argp_option count_options[] = {
	{ "cgroup", 'c', "PATH", 0, "count only this cgroup (v2) and its descendants", 0 },
	{ "cgroup-exact", OPT_CGROUP_EXACT, NULL, 0,
	  "with -c, count that cgroup's own tasks only, not its descendants'", 0 },
	{ "per-process", 'P', NULL, 0, "add a table with a row per process", 0 },
	{ "per-cgroup", OPT_PER_CGROUP, NULL, 0, "add a table with a row per cgroup (v2)", 0 },
	{ "event", 'e', "EVENT", 0, "perf event per call, as perf stat -e takes it: "
	  "cache-misses (default), LLC-load-misses, cycles:k, rNNNN (raw), "
	  "cpu/event=0x3c/, ...; 'help' lists them, 'none' reads no counter", 0 },
	{}
};

static error_t count_parse(int key, char *arg, struct argp_state *state)
{
	struct view_opts *o = state->input;
	error_t err;

	switch (key) {
	case 'c': o->cgroup = arg; return 0;
	case OPT_CGROUP_EXACT: o->cgroup_exact = true; return 0;
	case 'P': o->per_process = true; return 0;
	case OPT_PER_CGROUP: o->per_cgroup = true; return 0;
	case 'e':
		err = pmu_opt_event(state, key, arg, &o->event);
		o->no_event = !o->event;
		return err;
	case ARGP_KEY_END:
		return o->cgroup_exact && !o->cgroup ?
			opts_usage(state, "--cgroup-exact needs -c PATH") : 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp view_count_argp = { .options = count_options, .parser = count_parse };
