// SPDX-License-Identifier: GPL-2.0
/*
 * The live view: attach the probes, report every interval (or once at
 * the end) until Ctrl-C, the duration, or the traced command's exit.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "live/cgroup.h"
#include "util/child.h"
#include "gupstat.skel.h"
#include "util/kernel_btf.h"
#include "live/live.h"
#include "live/options.h"
#include "util/pmu.h"
#include "util/privs.h"
#include "util/probes.h"
#include "live/procs.h"
#include "live/print.h"
#include "util/setup.h"

struct live {
	struct live_opts o;
	struct gupstat_bpf *skel;
	struct btf *btf;
	struct probe probes[NR_PROBES];
	struct report_ctx rc;
	struct child child;
	__u64 cgroup_id;
	int *pmu_fds, nr_pmu;
};

static volatile sig_atomic_t stop_requested;

/* The first Ctrl-C ends the run and prints; a second one ends at once. */
static void on_signal(int sig)
{
	if (stop_requested)
		_exit(128 + sig);
	stop_requested = 1;
}

/*
 * The counter column: -e EVENT, the default, or none (-e none). A counter
 * the machine lacks is said once and left out. (An unknown name was
 * refused in prepare(), before anything else was printed.)
 */
static void pmu_setup(struct live *l)
{
	const char *event = l->o.event ? l->o.event : PMU_DEFAULT_EVENT;

	if (!l->o.no_event && !pmu_open(event, &l->pmu_fds, &l->nr_pmu))
		l->rc.event = event;
}

static void set_rodata(struct live *l)
{
	struct setup_cfg c = {
		.filter_on = l->o.cmd || l->o.pid,
		.follow_forks = l->o.cmd,
		.cgroup_id = l->cgroup_id,
		.per_process = l->o.per_process,
		.walk_returns_count = l->rc.walk_returns_count,
		.lock_exact = l->o.lock_exact,
		.pmu_on = l->rc.event != NULL,
	};

	setup_rodata(l->skel, l->btf, &c);
}

static const char *stamp(const struct live *l, char *buf, size_t len)
{
	time_t t = time(NULL);

	if (!l->o.timestamps && !l->o.json)
		return NULL;
	strftime(buf, len, "%H:%M:%S", localtime(&t));
	return buf;
}

static int report(struct live *l, bool redraw)
{
	struct snapshot s;
	char ts[32];
	int err;

	err = snapshot_read(&s, l->skel->maps.hists, l->skel->maps.counters,
			    l->o.interval);
	if (err) {
		fprintf(stderr, "gupstat: cannot read the counters: %s\n", strerror(-err));
		return err;
	}
	/* On a terminal the view redraws in place; piped, it appends. */
	if (redraw && isatty(STDOUT_FILENO) && !l->o.json)
		printf("\033[H\033[2J");
	report_print(stdout, &l->rc, &s, stamp(l, ts, sizeof(ts)));
	if (l->o.per_process)
		procs_print(stdout, l->skel->maps.procs, l->o.json, l->o.interval);
	return 0;
}

/* 1 while running, 0 at the end, or the command's exit code + 2 (>=2). */
static int tick(struct live *l, long ticks)
{
	int status;

	if (stop_requested)
		return 0;
	if (l->o.duration && ticks >= (long)l->o.duration * 10)
		return 0;
	if (l->o.cmd && child_reap(&l->child, &status, WNOHANG) == 1)
		return 2 + (WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 1;
}

static int loop(struct live *l)
{
	struct timespec t = { .tv_nsec = 100 * 1000 * 1000 };
	long ticks = 0;
	int state;

	while ((state = tick(l, ticks)) == 1) {
		nanosleep(&t, NULL);
		ticks++;
		if (l->o.interval && ticks % (l->o.interval * 10) == 0 && report(l, true))
			return 1;
	}
	if (report(l, false))
		return 1;
	return state >= 2 ? state - 2 : 0;
}

static int load(struct live *l)
{
	int err;

	set_rodata(l);
	err = gupstat_bpf__load(l->skel);
	if (err)
		fprintf(stderr, "gupstat: cannot load BPF programs: %s (try -v)\n", strerror(-err));
	return err;
}

/*
 * --dry-run: attach each chosen program for real and detach it again, so
 * that the list says what a run gets, not a guess.
 */
static int dry_run(struct live *l)
{
	int err = load(l);

	if (!err)
		err = probes_attach(l->probes);
	probes_detach(l->probes);
	if (!err)
		probes_list(stdout, l->probes);
	return err ? 1 : 0;
}

static int load_and_attach(struct live *l)
{
	int err;

	if (l->o.cmd) {
		err = child_spawn(&l->child, l->o.cmd);
		if (err) {
			fprintf(stderr, "gupstat: cannot start command: %s\n", strerror(-err));
			return err;
		}
	}
	err = load(l);
	if (err)
		return err;
	err = l->rc.event ? pmu_install(bpf_map__fd(l->skel->maps.pmu_events), l->pmu_fds,
					 l->nr_pmu) : 0;
	if (!err)
		err = setup_filter_seed(l->skel, l->o.cmd ? l->child.pid : l->o.pid);
	if (!err)
		err = probes_attach(l->probes);
	return err;
}

static int run(struct live *l)
{
	int err = load_and_attach(l);

	if (err) {
		if (l->o.cmd && l->child.pid > 0)
			child_kill(&l->child);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (l->o.cmd)
		child_release(&l->child);
	else
		fprintf(stderr, "Tracing the GUP slow path... Hit Ctrl-C to end.\n");
	err = loop(l);
	probes_detach(l->probes);
	return err;
}

static int prepare(struct live *l)
{
	int err;

	libbpf_set_print(l->o.verbose ? setup_libbpf_print : NULL);
	/* Bad input first, so its error is the only line printed. */
	if (l->o.cgroup && cgroup_id_of(l->o.cgroup, &l->cgroup_id))
		return -EINVAL;
	if (l->o.event && !pmu_known_event(l->o.event))
		return -EINVAL;
	if (check_privileges())
		return -EPERM;
	l->btf = kernel_btf_load();
	if (!l->btf)
		return -ENOENT;
	err = setup_walk_shape(l->btf, &l->rc.walk_returns_count);
	if (err)
		return err;
	l->skel = gupstat_bpf__open();
	if (!l->skel) {
		fprintf(stderr, "gupstat: cannot open BPF object: %s\n", strerror(errno));
		return -errno;
	}
	probes_init(l->probes, l->skel, l->btf, l->o.lock_exact);
	return probes_select(l->probes, l->btf,
			     l->o.force_kprobe ? SELECT_KPROBE : SELECT_DEFAULT);
}

int cmd_live(int argc, char **argv)
{
	struct live l = { .child = { .go_fd = -1 } };
	int err;

	err = live_opts_parse(&l.o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	l.rc.probes = l.probes;
	l.rc.json = l.o.json;
	l.rc.lock_exact = l.o.lock_exact;
	err = prepare(&l);
	if (err) {
		err = 1;
	} else if (l.o.dry_run) {
		err = dry_run(&l);
	} else {
		pmu_setup(&l);
		err = run(&l);
	}
	gupstat_bpf__destroy(l.skel);
	btf__free(l.btf);
	pmu_close(l.pmu_fds, l.nr_pmu);
	return err;
}
