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
#include "cgroup.h"
#include "child.h"
#include "gupstat.skel.h"
#include "kernel_btf.h"
#include "live.h"
#include "opts.h"
#include "pmu.h"
#include "privs.h"
#include "probes.h"
#include "procs.h"
#include "report.h"

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

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	return vfprintf(stderr, fmt, args);
}

/* Base 6.12 returns struct page *, the batched walk a count of pages. */
static int walk_shape(const struct btf *btf, bool *returns_count)
{
	int kind = kernel_btf_ret_kind(btf, "follow_page_pte");

	*returns_count = kind == RET_INT;
	if (kind == -ENOENT || kind == RET_PTR || kind == RET_INT)
		return 0;	/* absent: the probe is skipped with a reason */
	fprintf(stderr, "gupstat: follow_page_pte: unknown prototype (returns neither a pointer nor a count)\n");
	return -EINVAL;
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

static int pmu_install(struct live *l)
{
	int cpu, fd = bpf_map__fd(l->skel->maps.pmu_events);

	for (cpu = 0; l->rc.event && cpu < l->nr_pmu; cpu++) {
		if (bpf_map_update_elem(fd, &cpu, &l->pmu_fds[cpu], BPF_ANY)) {
			fprintf(stderr, "gupstat: cannot install the '%s' counter: %s\n",
				l->rc.event, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/* gup_fill_pages()'s page count argument, found by name: -1 if none. */
static int fill_nr_arg(const struct btf *btf)
{
	static const char *const names[] = { "nr", "nr_pages", "npages" };
	const struct btf_type *t;
	const struct btf_param *p;
	int id, i, n;

	id = btf__find_by_name_kind(btf, "gup_fill_pages", BTF_KIND_FUNC);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	p = btf_params(t);
	for (i = 0; i < btf_vlen(t); i++)
		for (n = 0; n < (int)(sizeof(names) / sizeof(names[0])); n++)
			if (!strcmp(btf__name_by_offset(btf, p[i].name_off), names[n]))
				return i;
	return -1;
}

static void set_rodata(struct live *l)
{
	__typeof__(*l->skel->rodata) *ro = l->skel->rodata;

	ro->filter_on = l->o.cmd || l->o.pid;
	ro->filter_cgroup = l->cgroup_id;
	ro->per_process = l->o.per_process;
	ro->walk_returns_count = l->rc.walk_returns_count;
	ro->lock_exact = l->o.lock_exact;
	ro->pmu_on = l->rc.event != NULL;
	ro->fill_nr_arg = fill_nr_arg(l->btf);
	bpf_program__set_autoload(l->skel->progs.filter_fork, l->o.cmd);
	bpf_map__set_max_entries(l->skel->maps.pmu_events, libbpf_num_possible_cpus());
}

/*
 * Seed the process filter with @pid and, for a command, follow its forks
 * from the moment it is released.
 */
static int filter_seed(struct gupstat_bpf *skel, __u32 pid)
{
	__u8 one = 1;

	if (!pid)
		return 0;
	if (bpf_program__autoload(skel->progs.filter_fork)) {
		skel->links.filter_fork = bpf_program__attach(skel->progs.filter_fork);
		if (!skel->links.filter_fork) {
			fprintf(stderr, "gupstat: cannot follow the command's forks (sched_process_fork): %s\n",
				strerror(errno));
			return -errno;
		}
	}
	if (bpf_map__update_elem(skel->maps.filter_tgids, &pid, sizeof(pid),
				 &one, sizeof(one), BPF_ANY)) {
		fprintf(stderr, "gupstat: cannot set the process filter: %s\n", strerror(errno));
		return -errno;
	}
	return 0;
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
	set_rodata(l);
	err = gupstat_bpf__load(l->skel);
	if (err) {
		fprintf(stderr, "gupstat: cannot load BPF programs: %s (try -v)\n", strerror(-err));
		return err;
	}
	err = pmu_install(l);
	if (!err)
		err = filter_seed(l->skel, l->o.cmd ? l->child.pid : l->o.pid);
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

	libbpf_set_print(l->o.verbose ? libbpf_print : NULL);
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
	err = walk_shape(l->btf, &l->rc.walk_returns_count);
	if (err)
		return err;
	l->skel = gupstat_bpf__open();
	if (!l->skel) {
		fprintf(stderr, "gupstat: cannot open BPF object: %s\n", strerror(errno));
		return -errno;
	}
	probes_init(l->probes, l->skel, &l->o);
	return probes_select(l->probes, l->btf, l->o.force_kprobe);
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
		probes_list(stdout, l.probes);
	} else {
		pmu_setup(&l);
		err = run(&l);
	}
	gupstat_bpf__destroy(l.skel);
	btf__free(l.btf);
	pmu_close(l.pmu_fds, l.nr_pmu);
	return err;
}
