// SPDX-License-Identifier: GPL-2.0
/* Run the traced command: fork now, exec once the probes are in place. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "kernel/child.h"
#include "util/env.h"
#include "util/msg.h"
#include "util/stdfds.h"

static void child_main(int go_fd, char **argv)
{
	char go;

	/* EOF without a byte means the parent gave up: do not run. */
	if (read(go_fd, &go, 1) != 1)
		_exit(127);
	close(go_fd);
	env_restore();
	stdfds_reclose();
	execvp(argv[0], argv);
	p_err("cannot run '%s': %s\n", argv[0], strerror(errno));
	_exit(127);
}

int child_spawn(struct child *c, char **argv)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (c->pid == 0) {
		close(fds[1]);
		child_main(fds[0], argv);
	}
	close(fds[0]);
	c->go_fd = fds[1];
	return 0;
}

int child_release(struct child *c)
{
	int err = 0;

	if (write(c->go_fd, "g", 1) != 1)
		err = -errno;
	close(c->go_fd);
	c->go_fd = -1;
	return err;
}

/* 1 once the child has exited (*status set), 0 while it runs, or -errno. */
int child_reap(struct child *c, int *status, int flags)
{
	pid_t p = waitpid(c->pid, status, flags);

	if (p < 0)
		return -errno;
	return p == c->pid;
}

void child_kill(struct child *c)
{
	int status;

	if (c->go_fd >= 0)
		close(c->go_fd);	/* the child exits without running */
	c->go_fd = -1;
	kill(c->pid, SIGKILL);
	waitpid(c->pid, &status, 0);
}
