/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_READER_H
#define __GUPSTAT_TRACEFILE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "gupstat_srcline.h"
#include "gupstat_tracefile.h"

/*
 * One record, decoded to host endianness: a hold, or (version 3,
 * --waits) a wait, by @kind. Both have ts_ns and the task's fields (a
 * wait's are the waiter's); what only one kind has shares its room
 * with the other's, so that a record stays 96 bytes: the spool queues
 * these (64 MB of them by default, 699050 records), and the report
 * keeps -n of them. Read a field of the record's own kind only.
 */
struct trace_rec {
	__u64 ts_ns;
	union {
		struct {			/* a hold */
			__u64 hold_ns;
			__u64 fill_ns;
			__u64 addr;
			__u32 pages;
			__u32 stored;
			__u32 gup_flags;
			__u32 fills;
		};
		struct {			/* a wait */
			__u64 wait_ns;		/* its length */
			__u64 hold_ts_ns;	/* the ts_ns of the hold it waited on */
			__u64 lock;		/* 0 without GT_F_KERNEL_ADDRS */
			__u32 holder_pid;	/* the hold's task */
			__u32 holder_tid;
			__u32 wait_unused[2];	/* 0: as large as a hold's */
		};
	};
	__u64 cgroup;		/* cgroup v2 id; 0: not known (a version 1 file) */
	__u32 pid;
	__u32 tid;
	__u32 cpu;
	__u32 stack;		/* a trace_stack id, or GT_NO_STACK */
	__u16 flags;		/* GT_R_* */
	__u8 result;		/* a hold's */
	__u8 kind;		/* GT_KIND_HOLD or GT_KIND_WAIT */
	char comm[16];		/* NUL-terminated */
};

struct trace_frame {
	__u64 addr;		/* 0 unless the file has GT_F_KERNEL_ADDRS */
	char *name;
	/* Its source line, once resolved (tracefile/srclines.c); else NULL. */
	const struct src_line *src;
};

struct trace_stack {
	__u32 id;
	__u32 nr_frames;
	struct trace_frame *frames;
};

/* A cgroup the records name, with the path the tracer found for it. */
struct trace_cgroup {
	__u64 id;
	char *path;
};

struct trace_kv {
	char *key;
	char *value;
};

/*
 * Where a trace's bytes come from: the whole file in memory (the fuzzer,
 * the unit tests), or a file read through a window of a fixed size, so
 * that reading a trace of any length takes the same memory.
 */
struct trace_src {
	const __u8 *mem;	/* the whole file, or NULL */
	int fd;			/* else read from here */
	bool owns_fd;		/* closed by trace_file_free() */
	__u64 size;
	__u8 *win;		/* the window: bytes [win_off, win_off + win_len) */
	__u64 win_off;
	size_t win_len;
	int err;		/* errno of a read that failed */
};

/*
 * A trace file. Opened (trace_file_open()), its header, trailer and
 * stack table are checked and kept; its records are read one at a time
 * (trace_file_next()), each checked as it is read, as often as a caller
 * rewinds. Parsed from memory (trace_file_parse()), the records are also
 * in @recs.
 */
struct trace_file {
	__u32 version;
	__u32 flags;		/* GT_F_* */
	__u32 clock_id;
	__u64 start_ns;
	__u64 start_realtime_ns;
	__u64 min_ns;
	__u64 end_ns;
	struct trace_kv *strings;
	__u32 nr_strings;
	struct trace_rec *recs;	/* NULL unless read into memory */
	size_t nr_recs;		/* known once counted (see below) */
	size_t nr_waits;	/* of those, waits: counted with them */
	struct trace_stack *stacks;	/* ascending ids */
	__u32 nr_stacks;
	char *names;		/* the frames' names, one allocation */
	size_t names_used;
	struct trace_cgroup *cgroups;	/* ascending ids; none before version 2 */
	__u32 nr_cgroups;
	char *cgpaths;		/* their paths, one allocation */
	size_t cgpaths_used;
	__u64 lost;
	__u64 below_min;
	__u64 stack_errors;
	/*
	 * No trailer: the tracer did not end cleanly (killed, a full disk).
	 * The whole, well-formed records after the header were read; the
	 * counts above and the stacks were never written.
	 */
	bool incomplete;
	size_t unread;		/* bytes after the last record read */
	/*
	 * nr_recs is the trailer's count, or for an incomplete trace the
	 * records of one whole pass of trace_file_next(): until then false.
	 */
	bool counted;
	struct trace_src src;
	__u64 recs_off;		/* file offset of record 0 */
	size_t rec_size;	/* a record's bytes in this version */
	size_t recs_max;	/* records the file has room for */
	size_t next;		/* the record trace_file_next() reads next */
	size_t pass_waits;	/* waits read since the last rewind */
	char err[256];		/* what is wrong, after a failure */
};

/*
 * Check and decode @len bytes at @buf. 0, or -EINVAL with tf->err set
 * and nothing left allocated. Never reads outside the buffer. A file
 * whose header is whole but that has no trailer is read as far as its
 * records go, with tf->incomplete set.
 */
int trace_file_parse(struct trace_file *tf, const void *buf, size_t len);
/*
 * Open @path and check all but its records, in memory bounded whatever
 * its size: 0, or a negative errno with tf->err set and nothing left
 * open. The file must be a regular file (it is read more than once).
 */
int trace_file_open(struct trace_file *tf, const char *path);
/*
 * The next record into @r: 1, 0 after the last, or -EINVAL / -EIO with
 * tf->err set. An incomplete trace ends at its first record that cannot
 * be one; the end of the first whole pass sets nr_recs, nr_waits and
 * counted. A complete trace's pass that finds other than the trailer's
 * count of waits fails there. Holds and waits come in the file's order.
 */
int trace_file_next(struct trace_file *tf, struct trace_rec *r);
/* The holds of a counted trace: its records but the waits. */
static inline size_t trace_file_holds(const struct trace_file *tf)
{
	return tf->nr_recs - tf->nr_waits;
}
/* Back to the first record. */
void trace_file_rewind(struct trace_file *tf);
/*
 * trace_file_open() and every record into tf->recs: for the tests and
 * small files; memory grows with the file.
 */
int trace_file_read(struct trace_file *tf, const char *path);
void trace_file_free(struct trace_file *tf);

/* A header string, or NULL when the file has none by that key. */
const char *trace_file_string(const struct trace_file *tf, const char *key);
/* The stack with @id, or NULL. */
const struct trace_stack *trace_file_stack(const struct trace_file *tf, __u32 id);
/* The path of cgroup @id, or NULL when the file does not name it. */
const char *trace_file_cgroup(const struct trace_file *tf, __u64 id);
/*
 * What a report prints for a hold's cgroup: its path; "id:N" for one
 * removed before the tracer named it; "?" in a version 1 file.
 */
const char *trace_file_cgroup_name(const struct trace_file *tf, __u64 id,
				   char *buf, size_t len);

#endif /* __GUPSTAT_TRACEFILE_READER_H */
