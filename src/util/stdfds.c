// SPDX-License-Identifier: GPL-2.0
/*
 * Descriptors 0, 1 and 2 are never left free (stdfds.h): a file opened
 * while one is closed would take its number, and what is printed to
 * stdout or stderr would go into it, then be renamed over the target.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "util/stdfds.h"

/* The descriptors that were closed, for the traced COMMAND: bit N is N. */
static unsigned int closed_at_start;

/* A stdout that was closed takes nothing: what is printed to it fails. */
static ssize_t closed_write(void *cookie, const char *buf, size_t len)
{
	errno = EBADF;
	return -1;
}

static void stdout_closed(void)
{
	cookie_io_functions_t io = { .write = closed_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (f)
		stdout = f;
}

static void fail(int fd)
{
	char msg[128];
	int n;

	n = snprintf(msg, sizeof(msg), "gupstat: descriptor %d is closed and /dev/null cannot "
		     "take its place: %s\n", fd, strerror(errno));
	if (write(STDERR_FILENO, msg, n) < 0)
		_exit(1);
	_exit(1);
}

void stdfds_guard(void)
{
	int fd, got;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* The lowest free number: @fd, the ones below it being open. */
		got = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
		if (got != fd) {
			if (got >= 0)
				close(got);
			fail(fd);
		}
		closed_at_start |= 1U << fd;
		if (fd == 1)
			stdout_closed();
	}
}

void stdfds_reclose(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (closed_at_start & (1U << fd))
			close(fd);
}
