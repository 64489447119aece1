/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_SUMMARY_H
#define __GUPSTAT_REPORT_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "gupstat.h"
#include "report/cgroups.h"
#include "tracefile/reader.h"
#include "util/stats.h"

/* Log2 slots as in the live view: slot i counts [2^(i-1), 2^i - 1]. */
#define SUMMARY_LOG2_SLOTS	HIST_LOG2_SLOTS
/* Pages per hold, linear: 0..512, then everything above in one slot. */
#define SUMMARY_PAGE_SLOTS	(HIST_LINEAR_MAX + 2)

/* Order statistics of one quantity over the holds. */
struct summary_dist {
	__u64 min, p50, p90, p99, max;
	double mean;
};

/*
 * One of the longest waits and the hold it waited on, found by a pass
 * of its own: @found is false where the file lacks it (lost in the ring
 * buffer, or past the end of a trace that did not end cleanly).
 */
struct trace_wait_top {
	struct trace_rec wait;
	struct trace_rec hold;
	bool found;
};

/* What a report says about a trace file's holds, and its waits. */
struct trace_summary {
	size_t n;
	struct summary_dist hold;		/* hold_ns */
	__u64 hold_total_ns;		/* hold_ns summed over the holds */
	struct summary_dist bare;		/* hold_ns - fill_ns, of holds with a fill */
	__u64 hold_log2[SUMMARY_LOG2_SLOTS];
	__u64 pages_lin[SUMMARY_PAGE_SLOTS];
	__u64 pages, stored, max_pages;
	size_t with_fill;		/* holds with gup_fill_pages() inside */
	__u64 fill_ns, fill_hold_ns;	/* summed over those holds */
	double fill_share_p50;		/* fill_ns / hold_ns of one hold, */
	double fill_share_p90;		/* over the holds with a fill */
	__u64 first_ns, last_end_ns;	/* the holds' time span */
	struct cg_tallies cgroups;	/* per cgroup, most holds first */
	struct trace_rec *top;		/* the longest holds, longest first */
	size_t nr_top;
	/* --waits: spins on a PTE lock a walk held */
	size_t nr_waits;
	struct summary_dist wait;	/* wait_ns */
	__u64 wait_total_ns;		/* saturated */
	size_t waited;			/* holds with GT_R_WAITED */
	struct trace_wait_top *top_waits;	/* the longest waits, longest first */
	size_t nr_top_waits;
};

/*
 * Read every record of @tf (from the first): 0, -ENOMEM, or the
 * reader's error (tf->err says it). @top: how many of the longest holds
 * and of the longest waits (each with its hold: one more pass) to keep.
 * Memory: the -n holds and waits, and what select.h keeps, whatever the
 * trace's length.
 */
int summary_read(struct trace_file *tf, size_t top, struct trace_summary *s);
void summary_free(struct trace_summary *s);
/* The log2 slot of @v, as the BPF side counts it. */
unsigned int summary_log2_slot(__u64 v);
/* ts_ns + hold_ns, saturated at 2^64 - 1 rather than wrapped. */
__u64 summary_hold_end(const struct trace_rec *r);

#endif /* __GUPSTAT_REPORT_SUMMARY_H */
