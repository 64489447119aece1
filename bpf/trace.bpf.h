/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gupstat trace: a ring-buffer record per PTE-lock hold, emitted from the
 * walk's exit (walk.bpf.c, the only includer) when trace_on is set.
 * Filtering by --min-ns happens here, so short holds never reach user
 * space; a full buffer is counted, never silent.
 */
#ifndef __GUPSTAT_TRACE_BPF_H
#define __GUPSTAT_TRACE_BPF_H

#include "walk.bpf.h"

/* Set by gupstat trace; live leaves them at their load-time defaults. */
const volatile __u64 trace_min_ns = 0;
/*
 * A stack is the costliest part of a record (an unwind per hold): taken
 * unless --no-stacks, and only for holds of trace_stack_min_ns or more.
 */
const volatile bool trace_want_stacks = false;
const volatile __u64 trace_stack_min_ns = 0;
/*
 * Wake the reader only once this much is waiting (0: on every record).
 * A wakeup per record is an interrupt-work and a task wakeup per hold;
 * batched, the reader also takes the records in large runs. It polls
 * at least every 100 ms besides.
 */
const volatile __u64 trace_wakeup_bytes = 0;

/*
 * Sized by user space (-b); the default it sets is large enough for
 * whole 256 MB pin calls of 4 kB pages without the reader keeping up.
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} trace_events SEC(".maps");

/*
 * Kernel stacks of the holds, by id. No BPF_F_REUSE_STACKID: an id, once
 * given, keeps meaning one stack, so records written early still refer
 * to the right one; a collision instead fails with -EEXIST, counted.
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, TRACE_STACK_DEPTH * sizeof(__u64));
} trace_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trace_counters);
} trace_stats SEC(".maps");

static __always_inline struct trace_counters *trace_stats_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&trace_stats, &zero);
}

static __always_inline __u32 stored_pages(const struct walk_entry *e,
					  __u32 pages, __u16 *flags)
{
	if (e->array == WALK_ARRAY_UNKNOWN)
		return 0;
	*flags |= TRACE_HOLD_STORED_KNOWN;
	return e->array == WALK_ARRAY_PAGES ? pages : 0;
}

static __always_inline void trace_fill(struct trace_hold *r,
				       const struct walk_entry *e, __u64 start,
				       __u64 now, long pages,
				       enum walk_result res)
{
	__u64 id = bpf_get_current_pid_tgid();

	r->type = TRACE_REC_HOLD;
	r->cpu = bpf_get_smp_processor_id();
	r->ts_ns = start;
	r->hold_ns = now - start;
	r->fill_ns = e->fill_ns;
	r->fills = e->fills;
	r->addr = e->addr;
	r->pid = id >> 32;
	r->tid = (__u32)id;
	r->pages = pages;
	r->flags = e->fills ? TRACE_HOLD_FILL : 0;
	r->stored = stored_pages(e, pages, &r->flags);
	r->gup_flags = e->gup_flags;
	r->result = res;
	r->pad = 0;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	r->cgroup = bpf_get_current_cgroup_id();
}

static __always_inline __u64 wakeup_flag(void)
{
	if (!trace_wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&trace_events, BPF_RB_AVAIL_DATA) >= trace_wakeup_bytes ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * One hold that started at @start (entry, or the exact acquire) and ended
 * at @now, the walk having looked up @pages pages. @ctx is the exit
 * program's context, for the stack.
 */
static __always_inline void trace_hold(void *ctx, const struct walk_entry *e,
				       __u64 start, __u64 now, long pages,
				       enum walk_result res)
{
	struct trace_counters *c = trace_stats_get();
	struct trace_hold *r;

	if (!c)
		return;
	if (now - start < trace_min_ns) {
		c->below_min++;
		return;
	}
	r = bpf_ringbuf_reserve(&trace_events, sizeof(*r), 0);
	if (!r) {
		c->lost++;
		return;
	}
	trace_fill(r, e, start, now, pages, res);
	r->stack_id = -1;
	if (trace_want_stacks && now - start >= trace_stack_min_ns) {
		r->stack_id = bpf_get_stackid(ctx, &trace_stacks, 0);
		if (r->stack_id < 0)
			c->stack_errors++;
	}
	bpf_ringbuf_submit(r, wakeup_flag());
	c->emitted++;
}

#endif /* __GUPSTAT_TRACE_BPF_H */
