// SPDX-License-Identifier: GPL-2.0
/*
 * util/input: a file read whole, or one line on why not, and never a
 * read that could block or run without end (a FIFO, /dev/zero).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "tap.h"
#include "util/input.h"

int main(void)
{
	char dir[] = "/tmp/gupstat-input-XXXXXX", path[64], fifo[64], err[128];
	struct input in;
	char s[] = "a\x1b[31mb\x7f\xc3\xa9";
	FILE *f;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
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
	unlink(fifo);
	unlink(path);
	rmdir(dir);
	return check_done();
}
