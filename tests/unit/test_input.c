// SPDX-License-Identifier: GPL-2.0
/*
 * util/input: a file read whole, or one line on why not, and never a
 * read that could block or run without end (a FIFO, /dev/zero).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "tap.h"
#include "scratch.h"
#include "util/input.h"

/* input_safe(): a copy, the original kept; C1 (raw and UTF-8) and newlines too. */
static void check_safe(void)
{
	const char *name = "x\e]0;t\a\x9b\xc2\x9b\n\x7f.gt";
	const char *a = input_safe(name), *b = input_safe("second");
	char *big = malloc(2 * PATH_MAX);

	CHECK(!strcmp(a, "x?]0;t??????.gt"), "input_safe: '%s'", a);
	CHECK(!strcmp(b, "second") && !strcmp(a, "x?]0;t??????.gt"),
	      "input_safe: two at once, each kept: '%s', '%s'", a, b);
	CHECK(name[1] == '\e', "input_safe: the original untouched");
	CHECK(!strcmp(input_safe(NULL), "(null)"), "input_safe(NULL)");
	if (big) {
		memset(big, 'a', 2 * PATH_MAX - 1);
		big[2 * PATH_MAX - 1] = 0;
		CHECK(strlen(input_safe(big)) == PATH_MAX, "input_safe: cut at PATH_MAX");
		free(big);
	}
}

int main(void)
{
	const char *dir = scratch_dir(), *path = scratch("f"), *fifo = scratch("fifo");
	char err[128];
	struct input in;
	char s[] = "a\x1b[31mb\x7f\xc3\xa9";
	FILE *f;

	f = fopen(path, "w");
	fputs("hello", f);
	fclose(f);
	CHECK(input_read(path, 5, "a test file", &in, err, sizeof(err)) == 0 && in.len == 5 &&
	      !strcmp(in.data, "hello"), "a regular file, at the cap: read whole, NUL-terminated");
	input_free(&in);
	CHECK(input_read(path, 4, "a test file", &in, err, sizeof(err)) == -EFBIG &&
	      !strcmp(err, "5 bytes, larger than a test file can be (4 bytes at most)") && !in.data,
	      "over the cap: '%s'", err);
	CHECK(!truncate(path, 0) &&
	      input_read(path, 4, "a test file", &in, err, sizeof(err)) == -EINVAL &&
	      !strcmp(err, "empty"), "empty: '%s'", err);
	mkfifo(fifo, 0600);
	CHECK(input_read(fifo, 4, "a test file", &in, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "FIFO"), "a FIFO, with no writer: refused at once: '%s'", err);
	CHECK(input_read("/dev/zero", 4, "a test file", &in, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "device"), "/dev/zero: '%s'", err);
	CHECK(input_read(dir, 4, "a test file", &in, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "directory"), "a directory: '%s'", err);
	CHECK(input_read("/nonexistent", 4, "a test file", &in, err, sizeof(err)) == -ENOENT &&
	      !strcmp(err, "No such file or directory"), "missing: '%s'", err);
	input_sanitise(s);
	CHECK(!strcmp(s, "a?[31mb???"), "sanitised: printable ASCII only: '%s'", s);
	check_safe();
	return check_done();
}
