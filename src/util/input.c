// SPDX-License-Identifier: GPL-2.0
/* Reading an input file whole, checked first (input.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "util/input.h"

static int fail(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ret;
}

const char *input_kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory, not a file";
	if (S_ISFIFO(m) || S_ISSOCK(m))
		return "a FIFO or socket, not a regular file";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device, not a regular file";
	return "not a regular file";
}

/* The cap in the unit a person would write it in. */
static void human_bytes(char *buf, size_t len, size_t n)
{
	if (n >= (1UL << 30) && !(n & ((1UL << 30) - 1)))
		snprintf(buf, len, "%zu GB", n >> 30);
	else if (n >= (1UL << 20) && !(n & ((1UL << 20) - 1)))
		snprintf(buf, len, "%zu MB", n >> 20);
	else
		snprintf(buf, len, "%zu bytes", n);
}

static int read_fd(int fd, struct input *in, char *err, size_t errlen)
{
	size_t done = 0;
	ssize_t n;

	while (done < in->len) {
		n = read(fd, in->data + done, in->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail(err, errlen, -errno, "%s", strerror(errno));
		if (!n)
			return fail(err, errlen, -EIO, "the file shrank while being read");
		done += n;
	}
	in->data[done] = 0;
	return 0;
}

static int check(int fd, __u64 max, const char *what, __u64 *len,
		 char *err, size_t errlen)
{
	struct stat st;
	char cap[32];

	if (fstat(fd, &st))
		return fail(err, errlen, -errno, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(err, errlen, -EINVAL, "%s", input_kind_of(st.st_mode));
	if (!st.st_size)
		return fail(err, errlen, -EINVAL, "empty");
	if ((unsigned long long)st.st_size > max) {
		human_bytes(cap, sizeof(cap), max);
		return fail(err, errlen, -EFBIG, "%lld bytes, larger than %s can be (%s at most)",
			    (long long)st.st_size, what, cap);
	}
	*len = st.st_size;
	return 0;
}

/* Open @path read-only, without waiting for a FIFO's writer. */
static int open_input(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	return fd < 0 ? fail(err, errlen, -errno, "%s", strerror(errno)) : fd;
}

int input_open(const char *path, const char *what, int *fd, __u64 *size,
	       char *err, size_t errlen)
{
	int ret;

	*fd = open_input(path, err, errlen);
	if (*fd < 0)
		return *fd;
	ret = check(*fd, ~0ULL, what, size, err, errlen);
	if (ret) {
		close(*fd);
		*fd = -1;
	}
	return ret;
}

int input_read(const char *path, size_t max, const char *what, struct input *in,
	       char *err, size_t errlen)
{
	__u64 len = 0;
	int fd, ret;

	memset(in, 0, sizeof(*in));
	fd = open_input(path, err, errlen);
	if (fd < 0)
		return fd;
	ret = check(fd, max, what, &len, err, errlen);
	in->len = len;
	if (!ret) {
		in->data = malloc(in->len + 1);
		ret = in->data ? read_fd(fd, in, err, errlen) :
				 fail(err, errlen, -ENOMEM, "out of memory");
	}
	close(fd);
	if (ret)
		input_free(in);
	return ret;
}

void input_free(struct input *in)
{
	free(in->data);
	in->data = NULL;
	in->len = 0;
}

void input_sanitise(char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}
