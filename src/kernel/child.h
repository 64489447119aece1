/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_CHILD_H
#define __GUPSTAT_KERNEL_CHILD_H

#include <sys/types.h>

/*
 * A command run under gupstat (`gupstat -- CMD`). It is forked first, so
 * its PID can be the filter, and held until the probes are attached.
 */
struct child {
	pid_t pid;
	int go_fd;
};

int child_spawn(struct child *c, char **argv);
int child_release(struct child *c);
int child_reap(struct child *c, int *status, int flags);
void child_kill(struct child *c);

#endif /* __GUPSTAT_KERNEL_CHILD_H */
