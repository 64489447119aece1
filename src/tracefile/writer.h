/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_WRITER_H
#define __GUPSTAT_TRACEFILE_WRITER_H

#include <stdbool.h>
#include <stdio.h>
#include "tracefile/reader.h"

/*
 * Writing a trace file in order: header, records as they come, stacks
 * (ascending ids), cgroups (ascending ids), trailer. A write error is kept and returned by
 * trace_writer_finish(), so the hot path does not check each record.
 */
struct trace_writer {
	FILE *f;
	__u64 offset;		/* bytes written so far */
	__u64 nr_recs;		/* holds and waits */
	__u64 nr_waits;
	__u64 stacks_offset;	/* 0 until the first stack */
	__u32 nr_stacks;
	__u32 last_stack;
	__u64 cgroups_offset;	/* 0 until the first cgroup */
	__u32 nr_cgroups;
	__u64 last_cgroup;
	__u64 cgroup_bytes;	/* of the table so far: bounded by the format */
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
/* A hold or a wait, by r->kind. */
void trace_writer_record(struct trace_writer *w, const struct trace_rec *r);
/* One stack, innermost frame first; @addrs may be NULL (none written). */
void trace_writer_stack(struct trace_writer *w, __u32 id, __u32 nr,
			const __u64 *addrs, const char *const *names);
/*
 * One cgroup's path, after the stacks; ids ascending. A path that is
 * empty or longer than GT_CGPATH_MAX, or one past the table's bounds (GT_CGROUPS_MAX,
 * GT_CGROUP_TABLE_MAX), is left out: its holds read as "id:N".
 */
void trace_writer_cgroup(struct trace_writer *w, __u64 id, const char *path);
/* Push what is buffered to the file: 0 or the first error, -errno. */
int trace_writer_flush(struct trace_writer *w);
/* Trailer and flush: 0 or the first error, -errno. */
int trace_writer_finish(struct trace_writer *w, const struct trace_end *e);

#endif /* __GUPSTAT_TRACEFILE_WRITER_H */
