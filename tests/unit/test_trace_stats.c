// SPDX-License-Identifier: GPL-2.0
/* Percentiles, histograms, fill share and the longest holds of a trace. */
#include <string.h>
#include "tap.h"
#include "report/summary.h"

static struct trace_rec recs[1000];

static struct trace_file file_of(size_t n)
{
	struct trace_file tf = { .recs = recs, .nr_recs = n };

	return tf;
}

int main(void)
{
	__u64 v[100];
	struct trace_summary s;
	struct trace_file tf;
	size_t i;

	for (i = 0; i < 100; i++)
		v[i] = i + 1;
	CHECK(stats_percentile(v, 100, 50) == 50 && stats_percentile(v, 100, 90) == 90 &&
	      stats_percentile(v, 100, 99) == 99 && stats_percentile(v, 100, 100) == 100,
	      "nearest rank over 1..100");
	CHECK(stats_percentile(v, 1, 99) == 1 && stats_percentile(v, 0, 50) == 0,
	      "one value, and none");
	CHECK(stats_percentile(v, 3, 50) == 2 && stats_percentile(v, 3, 99) == 3,
	      "p50 of 3 is the 2nd, p99 the 3rd");
	CHECK(summary_log2_slot(0) == 0 && summary_log2_slot(1) == 1 && summary_log2_slot(1023) == 10 &&
	      summary_log2_slot(1024) == 11 && summary_log2_slot(~0ULL) == SUMMARY_LOG2_SLOTS - 1,
	      "log2 slots as the BPF side counts, the top one clamped");

	/* 1000 holds: 990 of 1 page at 1000 ns, 10 of 512 pages, longer, with a fill. */
	for (i = 0; i < 1000; i++) {
		recs[i] = (struct trace_rec){ .ts_ns = 5000 + i * 10, .hold_ns = 1000, .pages = 1,
					      .stored = 1 };
		if (i % 100 == 7) {
			recs[i].hold_ns = 100000 + i;
			recs[i].pages = 512;
			recs[i].stored = 512;
			recs[i].flags = GT_R_FILL;
			recs[i].fill_ns = 25000;
		}
	}
	tf = file_of(1000);
	CHECK(summary_read(&tf, 3, &s) == 0, "summarize");
	/* p99 is the 990th of 1000: still short; the 10 long ones are above it. */
	CHECK(s.n == 1000 && s.hold.p50 == 1000 && s.hold.p99 == 1000 && s.hold.max == 100907,
	      "p50 %llu, p99 %llu, max %llu", (unsigned long long)s.hold.p50,
	      (unsigned long long)s.hold.p99, (unsigned long long)s.hold.max);
	CHECK(s.hold_log2[10] == 990 && s.hold_log2[17] == 10, "hold log2 slots");
	CHECK(s.pages_lin[1] == 990 && s.pages_lin[512] == 10 && s.pages == 990 + 5120 &&
	      s.max_pages == 512, "pages per hold");
	CHECK(s.with_fill == 10 && s.fill_ns == 250000, "fill: 10 holds, 250 us");
	/* Shares ascend as holds shorten: the 5th and 9th smallest. */
	CHECK(s.fill_share_p50 > 0.24873 && s.fill_share_p50 < 0.24875 &&
	      s.fill_share_p90 > 0.24972 && s.fill_share_p90 < 0.24974,
	      "fill share per hold: p50 %.5f (25000/100507), p90 %.5f (25000/100107)",
	      s.fill_share_p50, s.fill_share_p90);
	CHECK(s.bare.max == 100907 - 25000 && s.bare.min == 100007 - 25000,
	      "hold without the fill");
	CHECK(s.nr_top == 3 && s.top[0].hold_ns == 100907 && s.top[1].hold_ns == 100807 &&
	      s.top[2].hold_ns == 100707 && s.top[0].ts_ns == 5000 + 9070,
	      "the three longest, longest first");
	CHECK(s.first_ns == 5000 && s.last_end_ns == 5000 + 9070 + 100907,
	      "time span: from the first start to the latest end");
	summary_free(&s);

	/* Ties go to the earlier hold, whatever -n. */
	for (i = 0; i < 5; i++)
		recs[i] = (struct trace_rec){ .ts_ns = 100 + i, .hold_ns = i == 0 ? 5 : i == 4 ? 1 : 9 };
	tf = file_of(5);
	CHECK(summary_read(&tf, 2, &s) == 0 && s.nr_top == 2 && s.top[0].ts_ns == 101 &&
	      s.top[1].ts_ns == 102, "equal holds: the earlier first (%llu, %llu)",
	      (unsigned long long)s.top[0].ts_ns, (unsigned long long)s.top[1].ts_ns);
	summary_free(&s);
	CHECK(summary_read(&tf, 5, &s) == 0 && s.nr_top == 5 && s.top[0].ts_ns == 101 &&
	      s.top[2].ts_ns == 103 && s.top[3].ts_ns == 100 && s.top[4].ts_ns == 104,
	      "all five: 9 9 9 5 1, the 9s in order");
	summary_free(&s);

	tf = file_of(0);
	CHECK(summary_read(&tf, 10, &s) == 0 && s.n == 0 && s.nr_top == 0 && s.hold.max == 0,
	      "an empty trace");
	summary_free(&s);
	return check_done();
}
