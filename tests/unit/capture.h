/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a subcommand's entry point in the test's own process, its
 * stdout and stderr into two files: what a user sees, read back whole,
 * with the exit code the subcommand returned, its files put in place as
 * main() puts them.
 */
#ifndef __GUPSTAT_TEST_CAPTURE_H
#define __GUPSTAT_TEST_CAPTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "util/output.h"

/* @path's text, cut to @size - 1 bytes; empty if it cannot be read. */
static inline const char *capture_read(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* The first line of @cmd's output, without its newline; empty if none. */
static inline const char *capture_first_line(const char *cmd, char *buf, size_t size)
{
	FILE *p = popen(cmd, "r");

	buf[0] = '\0';
	if (p) {
		if (!fgets(buf, size, p))
			buf[0] = '\0';
		pclose(p);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static inline int capture_run(int (*cmd)(int, char **), int argc, char **argv,
			      const char *out_path, const char *err_path)
{
	int so = dup(1), se = dup(2), rc;
	int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	/* What the test printed so far must not land in the files. */
	fflush(stdout);
	fflush(stderr);
	dup2(fo, 1);
	dup2(fe, 2);
	/* As main() ends: the files written put in place if it succeeded. */
	rc = output_finish(cmd(argc, argv), true);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(fo);
	close(fe);
	close(so);
	close(se);
	return rc;
}

#endif /* __GUPSTAT_TEST_CAPTURE_H */
