// SPDX-License-Identifier: GPL-2.0
/*
 * A trace without its trailer ends at its first record that cannot be
 * one: zero bytes (a sparse hole, a disk's preallocation), a record
 * without a start time or a task, a half-written one; nothing after it
 * is taken, however much follows. In a trace with its trailer such a
 * record is refused in one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "scratch.h"
#include "synth.h"
#include "tracefile/reader.h"

static char *path;
static size_t hs;		/* header size of the synthetic traces */

#define GR	sizeof(struct gt_record)

/* A trace of @n records, cut after them: header and records only. */
static int fd_of_records(size_t n)
{
	struct trace_rec r[8];
	size_t i;
	__u32 h;
	int fd;

	for (i = 0; i < n; i++)
		r[i] = synth_rec(i, 1000 + i);
	if (synth_write(path, r, n, 0))
		return -1;
	fd = open(path, O_RDWR);
	/* The header size, from the header: the records follow it. */
	if (fd < 0 || pread(fd, &h, 4, offsetof(struct gt_header, header_size)) != 4)
		return -1;
	hs = le32toh(h);
	return ftruncate(fd, hs + n * GR) ? -1 : fd;
}

/* Open @path and read every record: how many, -1 on an error. */
static long count(struct trace_file *tf)
{
	struct trace_rec r;
	long n = 0;
	int ret;

	if (trace_file_open(tf, path))
		return -1;
	while ((ret = trace_file_next(tf, &r)) > 0)
		n++;
	return ret < 0 ? -1 : n;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Record @i's field at @off set to @v (little-endian, @size bytes). */
static void poke(int fd, size_t i, size_t off, __u64 v, size_t size)
{
	__u64 le = htole64(v);

	if (pwrite(fd, &le, size, hs + i * GR + off) != (ssize_t)size)
		abort();
}

static void zero_hole(void)
{
	struct trace_file tf;
	double t0;
	long n;
	int fd = fd_of_records(3);

	/* 1 GiB of hole after three holds: a sparse file, no disk used. */
	CHECK(fd >= 0 && ftruncate(fd, hs + 3 * GR + (1ULL << 30)) == 0, "3 holds, then 1 GiB of zeros");
	t0 = now();
	n = count(&tf);
	CHECK(n == 3 && tf.incomplete && tf.counted && tf.nr_recs == 3,
	      "the zeros are no holds: %ld recovered", n);
	CHECK(tf.unread == (1ULL << 30), "the hole is left unread: %zu bytes", tf.unread);
	/* Not a timing test: a reader that took the zeros for holds takes seconds. */
	CHECK(now() - t0 < 5, "read in %.3f s", now() - t0);
	trace_file_free(&tf);
	close(fd);
}

/* A record that cannot be one, then good ones: only those before it count. */
static void stops_at(const char *what, size_t off, __u64 v, size_t size)
{
	struct trace_file tf;
	long n;
	int fd = fd_of_records(6);

	poke(fd, 3, off, v, size);
	n = count(&tf);
	CHECK(n == 3 && tf.nr_recs == 3 && tf.unread == 3 * GR,
	      "%s in record 3 of 6: the trace ends there (%ld recovered)", what, n);
	trace_file_free(&tf);
	close(fd);
}

static void zero_record(void)
{
	static const __u8 zeros[GR];
	struct trace_file tf;
	long n;
	int fd = fd_of_records(6);

	CHECK(pwrite(fd, zeros, GR, hs + 2 * GR) == GR, "record 2 of 6 zeroed");
	n = count(&tf);
	CHECK(n == 2, "the trace ends at the zeroed record: %ld recovered", n);
	trace_file_free(&tf);
	close(fd);
}

static void half_record(void)
{
	struct trace_file tf;
	long n;
	int fd = fd_of_records(4);

	CHECK(ftruncate(fd, hs + 3 * GR + GR / 2) == 0, "3 holds and a half");
	n = count(&tf);
	CHECK(n == 3 && tf.unread == GR / 2, "the half is not a hold: %ld recovered", n);
	trace_file_free(&tf);
	close(fd);
}

/* With the trailer, a record that cannot be one is an error. */
static void complete_refused(void)
{
	struct trace_rec r[4];
	struct trace_file tf;
	size_t i;
	long n;
	int fd;

	for (i = 0; i < 4; i++)
		r[i] = synth_rec(i, 1000);
	r[2].tid = 0;
	r[2].pid = 0;
	fd = synth_write(path, r, 4, 0);
	n = count(&tf);
	CHECK(fd == 0 && n == -1 && !strchr(tf.err, '\n') &&
	      strstr(tf.err, "record 2: start ") && strstr(tf.err, "thread 0: not a hold"),
	      "a complete trace with the idle task's record: '%s'", tf.err);
	trace_file_free(&tf);
}

int main(void)
{
	path = scratch_file("t.gt");
	zero_hole();
	zero_record();
	stops_at("start time 0", offsetof(struct gt_record, ts_ns), 0, 8);
	stops_at("thread 0", offsetof(struct gt_record, tid), 0, 4);
	stops_at("a reserved byte set", offsetof(struct gt_record, reserved1), 1, 1);
	stops_at("a kind of 2", offsetof(struct gt_record, kind), 2, 1);
	/* A hold's bytes read as a wait: its unused fields are not 0. */
	stops_at("a hold's bytes as a wait", offsetof(struct gt_record, kind), GT_KIND_WAIT, 1);
	stops_at("walk result 9", offsetof(struct gt_record, result), 9, 1);
	stops_at("more stored than walked", offsetof(struct gt_record, stored), 2, 4);
	half_record();
	complete_refused();
	return check_done();
}
