// SPDX-License-Identifier: GPL-2.0
/*
 * A trace too long to keep its values (select.h: SEL_KEEP_MAX): report's
 * percentiles, found by re-reading the file, are the ones a sort of
 * every value gives, and the longest holds are the longest. With
 * "--write PATH N" it writes such a trace of N holds instead (the host
 * test and docs/trace.md's throughput measure use it); with
 * "--write-threads PATH N", each on a thread of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "scratch.h"
#include "synth.h"
#include "report/select.h"
#include "report/summary.h"
#include "tracefile/reader.h"

/* Hold @i: scattered over 500 ns to 1 ms, every fourth with a fill. */
static struct trace_rec big_rec(size_t i)
{
	__u64 h = 500 + ((__u64)i * 2654435761ULL) % 1000000;
	struct trace_rec r = synth_rec(i, h);

	if (i % 4 == 1) {
		r.flags |= GT_R_FILL;
		r.fill_ns = h / (2 + i % 7);
		r.fills = 1;
	}
	return r;
}

/* @threads: each hold on a thread of its own. */
static int big_write(const char *path, size_t n, bool threads)
{
	struct trace_writer w;
	FILE *f = synth_begin(path, &w, GT_F_FILL_PROBED);
	struct trace_rec r;
	size_t i;

	if (!f)
		return -errno;
	for (i = 0; i < n; i++) {
		r = big_rec(i);
		if (threads)
			r.tid = 1000 + i;
		trace_writer_record(&w, &r);
	}
	return synth_end(f, &w, GT_F_FILL_PROBED);
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return (x > y) - (x < y);
}

/* What a sort of every value says, for the summary to agree with. */
struct expect {
	__u64 *hold, *bare;
	double *share;
	size_t n, nf;
};

static void expect_of(struct expect *e, size_t n)
{
	size_t i;

	e->hold = malloc(n * sizeof(*e->hold));
	e->bare = malloc(n * sizeof(*e->bare));
	e->share = malloc(n * sizeof(*e->share));
	e->n = n;
	e->nf = 0;
	for (i = 0; i < n; i++) {
		struct trace_rec r = big_rec(i);

		e->hold[i] = r.hold_ns;
		if (!(r.flags & GT_R_FILL))
			continue;
		e->bare[e->nf] = r.hold_ns - r.fill_ns;
		e->share[e->nf++] = (double)r.fill_ns / r.hold_ns;
	}
	qsort(e->hold, n, sizeof(*e->hold), cmp_u64);
	qsort(e->bare, e->nf, sizeof(*e->bare), cmp_u64);
	stats_sort_double(e->share, e->nf);
}

int main(int argc, char **argv)
{
	/* More holds than are kept, more with a fill than are kept. */
	size_t n = 5 * (size_t)SEL_KEEP_MAX + 12345;
	char *path;
	struct trace_summary s;
	struct trace_file tf;
	struct expect e;

	if (argc == 4 && (!strcmp(argv[1], "--write") || !strcmp(argv[1], "--write-threads")))
		return big_write(argv[2], strtoull(argv[3], NULL, 10),
				 !strcmp(argv[1], "--write-threads")) ? 1 : 0;
	path = scratch_file("big.gt");
	CHECK(big_write(path, n, false) == 0, "%zu holds written", n);
	CHECK(trace_file_open(&tf, path) == 0 && !tf.recs && tf.nr_recs == n,
	      "opened, records left in the file: '%s'", tf.err);
	CHECK(summary_read(&tf, 5, &s) == 0 && s.n == n, "summarized: '%s'", tf.err);
	expect_of(&e, n);
	CHECK(s.hold.min == e.hold[0] && s.hold.max == e.hold[n - 1] &&
	      s.hold.p50 == stats_percentile(e.hold, n, 50) &&
	      s.hold.p90 == stats_percentile(e.hold, n, 90) &&
	      s.hold.p99 == stats_percentile(e.hold, n, 99),
	      "hold p50 %llu p90 %llu p99 %llu, as sorted: %llu %llu %llu",
	      (unsigned long long)s.hold.p50, (unsigned long long)s.hold.p90,
	      (unsigned long long)s.hold.p99,
	      (unsigned long long)stats_percentile(e.hold, n, 50),
	      (unsigned long long)stats_percentile(e.hold, n, 90),
	      (unsigned long long)stats_percentile(e.hold, n, 99));
	CHECK(s.with_fill == e.nf && s.bare.p50 == stats_percentile(e.bare, e.nf, 50) &&
	      s.bare.p99 == stats_percentile(e.bare, e.nf, 99) && s.bare.max == e.bare[e.nf - 1],
	      "without the fill, %zu holds: p50 %llu p99 %llu as sorted", e.nf,
	      (unsigned long long)s.bare.p50, (unsigned long long)s.bare.p99);
	CHECK(s.fill_share_p50 == stats_quantile(e.share, e.nf, 50, STATS_NEAREST_RANK) &&
	      s.fill_share_p90 == stats_quantile(e.share, e.nf, 90, STATS_NEAREST_RANK),
	      "fill share p50 %.6f p90 %.6f as sorted", s.fill_share_p50, s.fill_share_p90);
	CHECK(s.nr_top == 5 && s.top[0].hold_ns == e.hold[n - 1] &&
	      s.top[4].hold_ns == e.hold[n - 5] && s.top[3].hold_ns >= s.top[4].hold_ns,
	      "the five longest, longest first");
	summary_free(&s);
	trace_file_free(&tf);
	/* LeakSanitizer (make check's asan part) fails a test that leaks. */
	free(e.hold);
	free(e.bare);
	free(e.share);
	return check_done();
}
