// SPDX-License-Identifier: GPL-2.0
/*
 * The steps `gupstat` and `gupstat trace` share around the live view's
 * BPF object: open it against the kernel's BTF, start the COMMAND held
 * before its exec, load, seed the process filter, attach, then run until
 * Ctrl-C, the duration or the command's exit.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>
#include "gupstat.skel.h"
#include "kernel/cgroup.h"
#include "kernel/kernel_btf.h"
#include "kernel/privs.h"
#include "probe/probes.h"
#include "probe/session.h"
#include "probe/setup.h"
#include "util/input.h"
#include "util/msg.h"
#include "util/output.h"

static volatile sig_atomic_t stop_requested;

/*
 * The first Ctrl-C ends the run the normal way (report, trailer, file
 * renamed into place); a second one ends at once, leaving no temporary.
 */
static void on_signal(int sig)
{
	if (stop_requested)
		output_die_of(sig);
	stop_requested = 1;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void session_init(struct session *s, char **cmd, pid_t pid, unsigned int duration)
{
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	s->pid = pid;
	s->duration = duration;
	s->child.go_fd = -1;
	s->cgroup_fd = -1;
}

int session_cgroup(struct session *s, const char *path)
{
	int fd = cgroup_open(path, &s->cgroup_id);

	if (fd < 0)
		return fd;
	s->cgroup_fd = fd;
	return 0;
}

/* Root first, then BTF, the walk's shape, the object and its probes. */
int session_open(struct session *s, bool verbose, bool lock_exact, bool waits)
{
	int err;

	libbpf_set_print(verbose ? setup_libbpf_print : NULL);
	if (privs_check())
		return -EPERM;
	s->btf = kernel_btf_load();
	if (!s->btf)
		return -ENOENT;
	err = setup_walk_shape(s->btf, &s->returns_count);
	if (err)
		return err;
	s->skel = gupstat_bpf__open();
	if (!s->skel) {
		err = -errno;
		p_err("cannot open BPF object: %s\n", strerror(-err));
		return err;
	}
	probes_init(s->probes, s->skel, s->btf, lock_exact, waits);
	return 0;
}

/*
 * The COMMAND is forked before the load so that its PID can seed the
 * filter, and held before its exec until session_start().
 */
int session_load(struct session *s)
{
	int err;

	if (s->cmd) {
		err = child_spawn(&s->child, s->cmd);
		if (err) {
			p_err("cannot start command: %s\n", strerror(-err));
			return err;
		}
	}
	err = gupstat_bpf__load(s->skel);
	if (err)
		p_err("cannot load BPF programs: %s (try -v)\n", strerror(-err));
	return err;
}

int session_attach(struct session *s)
{
	return setup_filter_seed(s->skel, s->cmd ? s->child.pid : s->pid, s->cgroup_fd) ?:
		probes_attach(s->probes);
}

/* Ctrl-C from here on ends the run; the command execs now. @banner may be NULL. */
void session_start(struct session *s, const char *banner)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	s->start_ns = now_ns();
	if (s->cmd)
		child_release(&s->child);
	else if (banner)
		fprintf(stderr, "%s\n", input_safe(banner));	/* it names the output */
}

/* SESSION_RUNNING, SESSION_END, or SESSION_CHILD_EXIT + its exit code. */
int session_state(struct session *s)
{
	int status;

	if (stop_requested)
		return SESSION_END;
	if (s->duration && now_ns() - s->start_ns >= s->duration * 1000000000ULL)
		return SESSION_END;
	if (s->cmd && child_reap(&s->child, &status, WNOHANG) == 1)
		return SESSION_CHILD_EXIT +
		       (WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return SESSION_RUNNING;
}

/* gupstat exits as its COMMAND did, or 0. */
int session_exit_code(int state)
{
	return state >= SESSION_CHILD_EXIT ? state - SESSION_CHILD_EXIT : 0;
}

/* A run that failed before session_start(): the held command goes. */
void session_abort(struct session *s)
{
	if (s->cmd && s->child.pid > 0)
		child_kill(&s->child);
}

void session_close(struct session *s)
{
	probes_detach(s->probes);
	gupstat_bpf__destroy(s->skel);
	btf__free(s->btf);
	s->skel = NULL;
	s->btf = NULL;
	/*
	 * A session never initialised (serve's, when its port is refused) is
	 * zeroed; descriptor 0 is always open (util/stdfds.c), never the cgroup's.
	 */
	if (s->cgroup_fd > 0)
		close(s->cgroup_fd);
	s->cgroup_fd = -1;
}
