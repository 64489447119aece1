/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_READER_H
#define __GUPSTAT_TRACEFILE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "gupstat_tracefile.h"

/* One hold, decoded to host endianness. */
struct trace_rec {
	__u64 ts_ns;
	__u64 hold_ns;
	__u64 fill_ns;
	__u64 addr;
	__u32 pid;
	__u32 tid;
	__u32 cpu;
	__u32 pages;
	__u32 stored;
	__u32 gup_flags;
	__u32 stack;		/* a trace_stack id, or GT_NO_STACK */
	__u32 fills;
	__u16 flags;		/* GT_R_* */
	__u8 result;
	char comm[16];		/* NUL-terminated */
};

struct trace_frame {
	__u64 addr;		/* 0 unless the file has GT_F_KERNEL_ADDRS */
	char *name;
};

struct trace_stack {
	__u32 id;
	__u32 nr_frames;
	struct trace_frame *frames;
};

struct trace_kv {
	char *key;
	char *value;
};

/* A trace file, every part of it checked (trace_file_parse()). */
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
	struct trace_rec *recs;
	size_t nr_recs;
	struct trace_stack *stacks;	/* ascending ids */
	__u32 nr_stacks;
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
	char err[256];		/* what is wrong, after a failure */
};

/*
 * Check and decode @len bytes at @buf. 0, or -EINVAL with tf->err set
 * and nothing left allocated. Never reads outside the buffer. A file
 * whose header is whole but that has no trailer is read as far as its
 * records go, with tf->incomplete set.
 */
int trace_file_parse(struct trace_file *tf, const void *buf, size_t len);
/* Read and parse @path: 0, or a negative errno with tf->err set. */
int trace_file_read(struct trace_file *tf, const char *path);
void trace_file_free(struct trace_file *tf);

/* A header string, or NULL when the file has none by that key. */
const char *trace_file_string(const struct trace_file *tf, const char *key);
/* The stack with @id, or NULL. */
const struct trace_stack *trace_file_stack(const struct trace_file *tf, __u32 id);

#endif /* __GUPSTAT_TRACEFILE_READER_H */
