/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACE_PROGRESS_H
#define __GUPSTAT_TRACE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/*
 * Where a running trace stands, taken once a second: what the writer
 * has put in the file, what waits in its queue, and what the kernel
 * could not keep so far.
 */
struct trace_progress {
	__u64 elapsed_ns;	/* since the probes went live */
	__u64 holds;		/* holds written to the file (not waits) */
	__u64 bytes;		/* the file's size, header included */
	__u64 lost;		/* the BPF lost counter, summed over CPUs */
	bool lost_known;	/* false when the counter could not be read */
	bool disk_behind;	/* the reader has waited for room in the queue */
	size_t queued, queue_cap;	/* records in the writer's queue, of how many */
};

/*
 * "12.0 s  65536 holds  7.0 MB written  0 lost  queue 3%" (MB of 10^6
 * bytes) into @buf; snprintf()'s return.
 */
int trace_progress_format(char *buf, size_t size, const struct trace_progress *p);
/* Why holds are being lost and what to raise, for the warning. */
const char *trace_progress_lost_why(const struct trace_progress *p);

/*
 * The status line on stderr, rewritten in place, where stderr is a
 * terminal and not @quiet; the first loss warned of on a line of its
 * own whatever stderr is, but not @quiet. Every message (util/msg.h)
 * clears the status line first, so none lands in the middle of it.
 */
struct trace_progress_out {
	bool line;	/* stderr is a terminal and not -q */
	bool quiet;
	bool warned;	/* the first loss has been said */
};

void trace_progress_open(struct trace_progress_out *o, bool quiet);
void trace_progress_show(struct trace_progress_out *o, const struct trace_progress *p);
/* Clears the status line: what follows starts at the line's start. */
void trace_progress_close(struct trace_progress_out *o);

#endif /* __GUPSTAT_TRACE_PROGRESS_H */
