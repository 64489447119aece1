// SPDX-License-Identifier: GPL-2.0
/*
 * The live view: attach the probes, report every interval (or once at
 * the end) until Ctrl-C, the duration, or the traced command's exit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "gupstat.skel.h"
#include "live/cgroup.h"
#include "kernel/cgpath.h"
#include "live/live.h"
#include "live/options.h"
#include "live/print.h"
#include "live/procs.h"
#include "kernel/pmu.h"
#include "probe/probes.h"
#include "probe/session.h"
#include "probe/setup.h"
#include "util/msg.h"

/*
 * The counter column: -e EVENT, the default, or none (-e none). A counter
 * the machine lacks is said once and left out. (An unknown name was
 * refused in prepare(), before anything else was printed.)
 */
void live_pmu_setup(struct live *l)
{
	const char *event = l->o.event ? l->o.event : PMU_DEFAULT_EVENT;

	if (!l->o.no_event && !pmu_open(event, &l->pmu_fds, &l->nr_pmu))
		l->rc.v.event = event;
}

static void set_rodata(struct live *l)
{
	struct setup_cfg c = {
		.filter_on = l->o.cmd || l->o.pid,
		.follow_forks = l->o.cmd,
		.cgroup_id = l->cgroup_id,
		.per_process = l->o.per_process,
		.per_cgroup = l->o.per_cgroup,
		.walk_returns_count = l->s.returns_count,
		.lock_exact = l->o.lock_exact,
		.pmu_on = l->rc.v.event != NULL,
	};

	setup_rodata(l->s.skel, l->s.btf, &c);
}

static int report(struct live *l, bool redraw)
{
	struct live_stamp t;
	struct snapshot s;
	int err;

	err = snapshot_read(&s, l->s.skel->maps.hists, l->s.skel->maps.counters,
			    l->o.interval);
	if (err) {
		p_err("cannot read the counters: %s\n", strerror(-err));
		return err;
	}
	s.probe_misses = probes_missed(l->s.probes);
	/* On a terminal the view redraws in place; piped, it appends. */
	if (redraw && isatty(STDOUT_FILENO) && !l->o.json)
		printf("\033[H\033[2J");
	live_stamp_now(&t, l->o.timestamps);
	live_print(stdout, &l->rc, &s, &t);
	if (l->o.per_process)
		procs_print(stdout, l->s.skel->maps.procs, l->o.json ? &t : NULL, l->o.interval);
	if (l->o.per_cgroup)
		cgroups_print(stdout, l->s.skel->maps.cgroups, l->cgroup_names,
			      l->o.json ? &t : NULL, l->o.interval);
	live_print_end(stdout, &l->rc, &t);
	return 0;
}

/* Every 100 ms: is the run over; every -i seconds, a report. */
static int loop(struct live *l)
{
	struct timespec t = { .tv_nsec = 100 * 1000 * 1000 };
	long ticks = 0;
	int state;

	while ((state = session_state(&l->s)) == SESSION_RUNNING) {
		nanosleep(&t, NULL);
		ticks++;
		if (l->o.interval && ticks % (l->o.interval * 10) == 0 && report(l, true))
			return 1;
	}
	if (report(l, false))
		return 1;
	return session_exit_code(state);
}

int live_load(struct live *l)
{
	set_rodata(l);
	return session_load(&l->s) ?:
		(l->rc.v.event ? pmu_install(bpf_map__fd(l->s.skel->maps.pmu_events),
					   l->pmu_fds, l->nr_pmu) : 0);
}

/*
 * --dry-run: attach each chosen program for real and detach it again, so
 * that the list says what a run gets, not a guess.
 */
static int dry_run(struct live *l)
{
	int err = live_load(l) ?: probes_attach(l->s.probes);

	probes_detach(l->s.probes);
	if (!err)
		probes_list(stdout, l->s.probes);
	return err ? 1 : 0;
}

static int run(struct live *l)
{
	if (live_load(l) || session_attach(&l->s)) {
		session_abort(&l->s);
		return 1;
	}
	session_start(&l->s, "Tracing the GUP slow path... Hit Ctrl-C to end.");
	return loop(l);
}

/* Bad input first, so its error is the only line printed. */
static int prepare(struct live *l)
{
	if (l->o.cgroup && cgroup_id_of(l->o.cgroup, &l->cgroup_id))
		return -EINVAL;
	if (l->o.event && !pmu_known_event(l->o.event))
		return -EINVAL;
	if (l->o.per_cgroup && cgroup_names_open(&l->cgroup_names))
		return -EINVAL;
	session_init(&l->s, l->o.cmd, l->o.pid, l->o.duration);
	return session_open(&l->s, l->o.verbose, l->o.lock_exact) ?:
		probes_select(l->s.probes, l->s.btf,
			      l->o.force_kprobe ? SELECT_KPROBE : SELECT_DEFAULT);
}

int live_prepare(struct live *l)
{
	int err;

	l->rc.json = l->o.json;
	l->rc.v.lock_exact = l->o.lock_exact;
	err = prepare(l);
	l->rc.v.probes = l->s.probes;
	l->rc.v.walk_returns_count = l->s.returns_count;
	return err;
}

void live_close(struct live *l)
{
	session_close(&l->s);
	cgpath_free(l->cgroup_names);
	pmu_close(l->pmu_fds, l->nr_pmu);
}

int cmd_live(int argc, char **argv)
{
	struct live l = {};
	int err;

	err = live_opts_parse(&l.o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	if (live_prepare(&l)) {
		err = 1;
	} else if (l.o.dry_run) {
		err = dry_run(&l);
	} else {
		live_pmu_setup(&l);
		err = run(&l);
	}
	live_close(&l);
	return err;
}
