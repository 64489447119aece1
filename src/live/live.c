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
#include "live/live.h"
#include "live/procs.h"
#include "probe/probes.h"
#include "probe/session.h"
#include "util/msg.h"

static int report(struct live *l, bool redraw)
{
	struct live_stamp t;
	struct procs_out po = {
		.json = l->o.json ? &t : NULL,
		.reset = l->o.interval,
		.waits = l->o.v.waits,
	};
	struct snapshot s;
	int err;

	err = snapshot_read(&s, l->v.s.skel, l->o.interval);
	if (err) {
		p_err("cannot read the counters: %s\n", strerror(-err));
		return err;
	}
	s.probe_misses = probes_missed(l->v.s.probes);
	/* Reports follow one another, as bcc's do, unless --clear redraws them. */
	if (redraw && l->o.clear && isatty(STDOUT_FILENO))
		printf("\033[H\033[2J");
	live_stamp_now(&t, l->o.timestamps);
	live_print(stdout, &l->rc, &s, &t);
	if (l->o.v.per_process)
		procs_print(stdout, l->v.s.skel->maps.procs, &po);
	if (l->o.v.per_cgroup)
		procs_print_cgroups(stdout, l->v.s.skel->maps.cgroups, l->v.cgroup_names, &po);
	live_print_end(stdout, &l->rc, &t);
	return 0;
}

/*
 * Every 100 ms: is the run over; every interval, a report. The COUNTth
 * ends the run as -d does, with no report after it.
 */
static int loop(struct live *l)
{
	struct timespec t = { .tv_nsec = 100 * 1000 * 1000 };
	unsigned int reports = 0;
	long ticks = 0;
	int state;

	while ((state = session_state(&l->v.s)) == SESSION_RUNNING) {
		nanosleep(&t, NULL);
		ticks++;
		if (!l->o.interval || ticks % (l->o.interval * 10))
			continue;
		if (report(l, true))
			return 1;
		if (++reports == l->o.count)
			return 0;
	}
	if (report(l, false))
		return 1;
	return session_exit_code(state);
}

/*
 * --dry-run: attach each chosen program for real and detach it again, so
 * that the list says what a run gets, not a guess.
 */
static int dry_run(struct live *l)
{
	int err = view_load(&l->v) ?: probes_attach(l->v.s.probes);

	probes_detach(l->v.s.probes);
	if (!err)
		probes_list(stdout, l->v.s.probes);
	return err ? 1 : 0;
}

static int run(struct live *l)
{
	if (view_load(&l->v) || session_attach(&l->v.s)) {
		session_abort(&l->v.s);
		return 1;
	}
	session_start(&l->v.s, "Tracing the GUP slow path... Hit Ctrl-C to end.");
	return loop(l);
}

/* The view counts as the live view's options say; the printer reads the view. */
static int prepare(struct live *l)
{
	l->v.o = &l->o.v;
	l->rc.json = l->o.json;
	l->rc.v = &l->v.cv;
	return view_prepare(&l->v);
}

int cmd_live(int argc, char **argv)
{
	struct live l = {};
	int err;

	err = live_opts_parse(&l.o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	if (prepare(&l)) {
		err = 1;
	} else if (l.o.dry_run) {
		err = dry_run(&l);
	} else {
		view_pmu_setup(&l.v);
		err = run(&l);
	}
	view_close(&l.v);
	return err;
}
