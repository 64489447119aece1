/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACE_STREAM_H
#define __GUPSTAT_TRACE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include "gupstat.h"
#include "kernel/ksyms.h"
#include "trace/cgroups.h"
#include "trace/spool.h"
#include "tracefile/writer.h"

/* From the ring buffer to the file: records as they come, stacks at the end. */
struct trace_stream {
	struct trace_writer w;
	struct trace_spool *spool;	/* records go through it, when set */
	__u8 *stack_seen;	/* per stack id, the kinds of record that used it */
	__u32 stack_entries;
	struct trace_cgroups cgroups;	/* named as they come */
	__u64 walk_ip;		/* follow_page_pte's address, 0: unknown */
	bool walk_looked;	/* walk_ip was looked up */
	__u64 bad;		/* records of an unknown type or size */
	bool addrs;		/* --kernel-addrs: a wait's lock address kept */
};

int trace_stream_init(struct trace_stream *s, __u32 stack_entries);
void trace_stream_free(struct trace_stream *s);
/* ring_buffer__new() callback; @ctx is the struct trace_stream. */
int trace_stream_event(void *ctx, void *data, size_t size);
void trace_hold_to_rec(const struct trace_hold *h, struct trace_rec *r);
/* A --waits record; the lock's address only with @addrs. */
void trace_wait_to_rec(const struct trace_wait *wt, struct trace_rec *r, bool addrs);
/*
 * The stack table: every stack id the records used, read from the
 * stack map @fd and named through @ks; raw addresses only with @addrs.
 */
void trace_stream_stacks(struct trace_stream *s, int fd, const struct ksyms *ks,
			 bool addrs);
/* The cgroup table: after the stacks, before the trailer. */
void trace_stream_cgroups(struct trace_stream *s);
/* One stack of TRACE_STACK_DEPTH addresses (0-terminated), named and cut. */
void trace_stream_write_stack(struct trace_stream *s, __u32 id, const __u64 *ips,
			      const struct ksyms *ks, bool addrs);

#endif /* __GUPSTAT_TRACE_STREAM_H */
