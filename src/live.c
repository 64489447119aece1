// SPDX-License-Identifier: GPL-2.0
/*
 * The live view: attach the walk probe, count until Ctrl-C, the duration
 * or the command's end, then print what was counted.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "child.h"
#include "kernel_btf.h"
#include "live.h"
#include "opts.h"
#include "privs.h"
#include "walk.h"
#include "walk.skel.h"

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

	if (kind == -ENOENT) {
		fprintf(stderr, "gupstat: follow_page_pte: not in kernel BTF (absent or inlined in this kernel)\n");
		return kind;
	}
	if (kind != RET_PTR && kind != RET_INT) {
		fprintf(stderr, "gupstat: follow_page_pte: unknown prototype (returns neither a pointer nor a count)\n");
		return -EINVAL;
	}
	*returns_count = kind == RET_INT;
	return 0;
}

/*
 * Seed the process filter with @pid (none: count everything) and, for a
 * command, follow its forks from the moment it is released.
 */
static int filter_seed(struct walk_bpf *skel, __u32 pid)
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

/* Wait for the end: signal, duration or (with a command) its exit. */
static int wait_for_end(const struct live_opts *o, struct child *c)
{
	struct timespec tick = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };
	long ticks = 0;
	int status = 0;

	while (!stop_requested) {
		if (o->duration && ticks >= (long)o->duration * 10)
			break;
		if (o->cmd && child_reap(c, &status, WNOHANG) == 1)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		nanosleep(&tick, NULL);
		ticks++;
	}
	return 0;
}

static int run(const struct live_opts *o, struct walk_bpf *skel,
	       struct probe *walk, bool returns_count)
{
	struct walk_stats st;
	struct child c = { .go_fd = -1 };
	int err, rc;

	if (o->cmd) {
		err = child_spawn(&c, o->cmd);
		if (err) {
			fprintf(stderr, "gupstat: cannot start command: %s\n", strerror(-err));
			return err;
		}
	}
	skel->rodata->filter_on = o->cmd || o->pid;
	skel->rodata->walk_returns_count = returns_count;
	bpf_program__set_autoload(skel->progs.filter_fork, o->cmd);
	err = walk_bpf__load(skel);
	if (err) {
		fprintf(stderr, "gupstat: cannot load BPF programs: %s (try -v)\n", strerror(-err));
		goto out_kill;
	}
	err = filter_seed(skel, o->cmd ? c.pid : o->pid);
	if (err)
		goto out_kill;
	err = probe_attach(walk);
	if (err)
		goto out_kill;
	if (o->cmd)
		child_release(&c);
	else
		fprintf(stderr, "Tracing follow_page_pte() via %s... Hit Ctrl-C to end.\n",
			attach_method_name(walk));
	rc = wait_for_end(o, &c);
	err = walk_stats_read(bpf_map__fd(skel->maps.walk_stats), &st);
	probe_detach(walk);
	if (err) {
		fprintf(stderr, "gupstat: cannot read the walk counters: %s\n", strerror(-err));
		return err;
	}
	walk_stats_print(stdout, &st, attach_method_name(walk), returns_count);
	return rc;

out_kill:
	if (o->cmd)
		child_kill(&c);
	return err;
}

int cmd_live(int argc, char **argv)
{
	struct walk_bpf *skel = NULL;
	struct btf *btf = NULL;
	struct probe walk = { .func = "follow_page_pte" };
	struct live_opts o;
	bool returns_count;
	int err;

	err = live_opts_parse(&o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	/* libbpf's own messages only with -v: errors are ours to word. */
	libbpf_set_print(o.verbose ? libbpf_print : NULL);
	if (check_privileges())
		return 1;
	btf = kernel_btf_load();
	if (!btf)
		return 1;
	err = walk_shape(btf, &returns_count);
	if (err)
		goto out;
	skel = walk_bpf__open();
	if (!skel) {
		fprintf(stderr, "gupstat: cannot open BPF object: %s\n", strerror(errno));
		err = -errno;
		goto out;
	}
	walk.fentry = skel->progs.walk_fexit;
	walk.kprobe = skel->progs.walk_kretprobe;
	err = probe_select(&walk, btf, o.force_kprobe);
	if (!err) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		err = run(&o, skel, &walk, returns_count);
	}
out:
	walk_bpf__destroy(skel);
	btf__free(btf);
	return err < 0 ? 1 : err;
}
