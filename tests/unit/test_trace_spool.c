// SPDX-License-Identifier: GPL-2.0
/*
 * trace/spool: every record queued reaches the file, in order, whether
 * the disk keeps up or crawls; a full queue makes the reader wait (and
 * says how often) instead of dropping; a write error ends up reported.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tap.h"
#include "trace/spool.h"

#define NR	20000

static char *data;
static size_t data_len, data_cap;
static int slow_us, fail_after = -1;

/* A disk: each write takes @slow_us, and fails after @fail_after writes. */
static ssize_t disk_write(void *cookie, const char *buf, size_t len)
{
	struct timespec t = { .tv_nsec = slow_us * 1000L };

	if (slow_us)
		nanosleep(&t, NULL);
	if (fail_after == 0) {
		errno = ENOSPC;
		return -1;
	}
	if (fail_after > 0)
		fail_after--;
	if (data_len + len > data_cap) {
		data_cap = (data_len + len) * 2;
		data = realloc(data, data_cap);
	}
	memcpy(data + data_len, buf, len);
	data_len += len;
	return len;
}

static FILE *disk(void)
{
	cookie_io_functions_t io = { .write = disk_write };
	FILE *f = fopencookie(NULL, "w", io);

	data_len = 0;
	setvbuf(f, NULL, _IOFBF, 64 << 10);
	return f;
}

/* The first @nr records in the file have ts 0..nr-1. */
static int prefix_in_order(size_t nr)
{
	const struct gt_record *g = (const void *)data;
	size_t i;

	for (i = 0; i < nr; i++)
		if (le64toh(g[i].ts_ns) != i || le32toh(g[i].pages) != i % 512)
			return 0;
	return 1;
}

/* Every record in order: the file holds NR records with ts 0..NR-1. */
static int in_order(size_t nr)
{
	return data_len == nr * sizeof(struct gt_record) && prefix_in_order(nr);
}

static int run(size_t spool_bytes, struct trace_spool *s, struct trace_writer *w)
{
	struct trace_rec r = {};
	size_t i;

	trace_writer_init(w, disk());
	if (trace_spool_start(s, w, spool_bytes))
		return -1;
	for (i = 0; i < NR; i++) {
		r.ts_ns = i;
		r.pages = i % 512;
		trace_spool_push(s, &r);
	}
	return 0;
}

int main(void)
{
	struct trace_writer w;
	struct trace_spool_state st;
	struct trace_spool s;
	int err;

	CHECK(run(64 << 20, &s, &w) == 0, "a writer thread starts");
	err = trace_spool_stop(&s);
	fclose(w.f);
	CHECK(!err && w.nr_recs == NR && in_order(NR), "a fast disk: %d records, in order", NR);
	CHECK(s.waits == 0, "a queue larger than the run: the reader never waited");

	slow_us = 200;
	CHECK(run(100 * sizeof(struct trace_rec), &s, &w) == 0, "a 100-record queue");
	trace_spool_state(&s, &st);
	CHECK(st.cap == 100 && st.queued <= 100 && st.written + st.queued == NR &&
	      st.bytes == st.written * sizeof(struct gt_record) && st.waits == s.waits,
	      "the state the progress line reads: %llu written + %zu queued = %d, %llu bytes",
	      (unsigned long long)st.written, st.queued, NR, (unsigned long long)st.bytes);
	err = trace_spool_stop(&s);
	fclose(w.f);
	CHECK(!err && w.nr_recs == NR && in_order(NR),
	      "a slow disk, a small queue: still every record, in order");
	CHECK(s.waits > 0 && s.high_water == 100,
	      "the reader waited for room (%llu times), the queue never past its bound (%zu)",
	      s.waits, s.high_water);

	slow_us = 0;
	fail_after = 2;
	CHECK(run(1 << 20, &s, &w) == 0, "a disk that fills");
	err = trace_spool_stop(&s);
	fclose(w.f);
	CHECK(err == -ENOSPC, "the disk's error comes back: %d", err);
	CHECK(data_len > 0 && data_len < NR * sizeof(struct gt_record) &&
	      prefix_in_order(data_len / sizeof(struct gt_record)),
	      "what was written before the error stays, in order (%zu bytes)", data_len);
	free(data);
	return check_done();
}
