/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_SESSION_H
#define __GUPSTAT_PROBE_SESSION_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>
#include "kernel/child.h"
#include "probe/probes.h"

struct btf;
struct gupstat_bpf;

/*
 * One run of the live view's BPF object, as `gupstat` and `gupstat trace`
 * both make it: the kernel's BTF, the probes chosen from it, the traced
 * COMMAND, and a run that ends on Ctrl-C, at the duration or when the
 * command exits. Each step prints its own error (p_err()).
 */
struct session {
	char **cmd;			/* COMMAND, or NULL */
	pid_t pid;			/* -p, or 0 */
	unsigned int duration;		/* -d seconds, 0 for none */
	struct gupstat_bpf *skel;
	struct btf *btf;
	struct probe probes[NR_PROBES];
	struct child child;
	__u64 cgroup_id;		/* -c: the cgroup's id, or 0 */
	int cgroup_fd;			/* -c: its directory, for the programs; or -1 */
	bool returns_count;		/* the walk returns a page count */
	__u64 start_ns;
};

/* Running, or why the run ended; session_exit_code() maps it. */
enum { SESSION_END = 0, SESSION_RUNNING = 1, SESSION_CHILD_EXIT = 2 };

void session_init(struct session *s, char **cmd, pid_t pid, unsigned int duration);
/* -c PATH, after session_init(): 0, or -errno, said. */
int session_cgroup(struct session *s, const char *path);
int session_open(struct session *s, bool verbose, bool lock_exact, bool waits);
int session_load(struct session *s);
int session_attach(struct session *s);
void session_start(struct session *s, const char *banner);
int session_state(struct session *s);
int session_exit_code(int state);
void session_abort(struct session *s);
void session_close(struct session *s);

#endif /* __GUPSTAT_PROBE_SESSION_H */
