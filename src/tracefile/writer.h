/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_WRITER_H
#define __GUPSTAT_TRACEFILE_WRITER_H

#include <stdbool.h>
#include <stdio.h>
#include "tracefile/reader.h"

/*
 * Writing a trace file in order: header, records as they come, stacks
 * (ascending ids), trailer. A write error is kept and returned by
 * trace_writer_finish(), so the hot path does not check each record.
 */
struct trace_writer {
	FILE *f;
	__u64 offset;		/* bytes written so far */
	__u64 nr_recs;
	__u64 stacks_offset;	/* 0 until the first stack */
	__u32 nr_stacks;
	__u32 last_stack;
	int err;		/* first error, -errno */
};

/* What the header says; strings are sanitised to printable ASCII. */
struct trace_meta {
	__u32 flags;		/* GT_F_* */
	__u64 start_ns;
	__u64 start_realtime_ns;
	__u64 min_ns;
	const struct trace_kv *strings;
	__u32 nr_strings;
};

/* What the trailer says, besides the counts the writer keeps itself. */
struct trace_end {
	__u64 lost;
	__u64 below_min;
	__u64 stack_errors;
	__u64 end_ns;
};

/* Write to @f; the caller opened it and closes it (util/output.h). */
void trace_writer_init(struct trace_writer *w, FILE *f);
void trace_writer_header(struct trace_writer *w, const struct trace_meta *m);
void trace_writer_record(struct trace_writer *w, const struct trace_rec *r);
/* One stack, innermost frame first; @addrs may be NULL (none written). */
void trace_writer_stack(struct trace_writer *w, __u32 id, __u32 nr,
			const __u64 *addrs, const char *const *names);
/* Push what is buffered to the file: 0 or the first error, -errno. */
int trace_writer_flush(struct trace_writer *w);
/* Trailer and flush: 0 or the first error, -errno. */
int trace_writer_finish(struct trace_writer *w, const struct trace_end *e);

#endif /* __GUPSTAT_TRACEFILE_WRITER_H */
