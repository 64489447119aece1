/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scratch files for a C unit test, in a directory of its own
 * ($TMPDIR or /tmp, gupstat-TEST-XXXXXX) made on first use and removed
 * with everything in it when the test exits (not when a child it forked
 * exits). No test builds a path by hand or cleans up after itself:
 *
 *	char *trace = scratch("t.gt");		a path, nothing made
 *	char *log = scratch_file("err");	an empty file, mode 0600
 *	input_read(scratch_dir(), ...);		the directory itself
 *
 * scratch() takes printf's format. The same name gives the same
 * pointer, valid until exit; not const, so that it can go in an argv.
 * A directory that cannot be made stops the test with "Bail out!".
 */
#ifndef __GUPSTAT_SCRATCH_H
#define __GUPSTAT_SCRATCH_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scratch_name {
	struct scratch_name *next;
	char path[];
};

static char scratch_root[PATH_MAX];
static pid_t scratch_owner;
static struct scratch_name *scratch_names;

static inline int scratch_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static inline void scratch_cleanup(void)
{
	struct scratch_name *n;

	if (getpid() != scratch_owner)
		return;
	nftw(scratch_root, scratch_rm, 16, FTW_DEPTH | FTW_PHYS);
	while ((n = scratch_names)) {
		scratch_names = n->next;
		free(n);
	}
}

static inline void scratch_bail(const char *what, const char *path)
{
	printf("Bail out! scratch: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

/* The test's scratch directory, made on the first call. */
static inline const char *scratch_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (scratch_root[0])
		return scratch_root;
	snprintf(scratch_root, sizeof(scratch_root), "%s/gupstat-%s-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp", program_invocation_short_name);
	if (!mkdtemp(scratch_root))
		scratch_bail("mkdtemp", scratch_root);
	scratch_owner = getpid();
	atexit(scratch_cleanup);
	return scratch_root;
}

/* scratch(FMT, ...): the path of FMT's name in the scratch directory. */
static inline __attribute__((format(printf, 1, 2)))
char *scratch(const char *fmt, ...)
{
	const char *dir = scratch_dir();
	struct scratch_name *n;
	size_t len = strlen(dir) + 1;
	va_list ap;
	int name;

	va_start(ap, fmt);
	name = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	n = malloc(sizeof(*n) + len + name + 1);
	if (!n)
		scratch_bail("malloc", fmt);
	memcpy(n->path, dir, len - 1);
	n->path[len - 1] = '/';
	va_start(ap, fmt);
	vsnprintf(n->path + len, name + 1, fmt, ap);
	va_end(ap);
	for (struct scratch_name *o = scratch_names; o; o = o->next) {
		if (!strcmp(o->path, n->path)) {
			free(n);
			return o->path;
		}
	}
	n->next = scratch_names;
	scratch_names = n;
	return n->path;
}

/* scratch_file(NAME): as scratch(), made an empty file of mode 0600. */
static inline char *scratch_file(const char *name)
{
	char *path = scratch("%s", name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		scratch_bail("open", path);
	close(fd);
	return path;
}

#endif /* __GUPSTAT_SCRATCH_H */
