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
#include "ring.bpf.h"

static __always_inline __u32 stored_pages(const struct walk_entry *e,
					  __u32 pages, __u16 *flags)
{
	if (e->array == WALK_ARRAY_UNKNOWN)
		return 0;
	*flags |= TRACE_HOLD_STORED_KNOWN;
	return e->array == WALK_ARRAY_PAGES ? pages : 0;
}

/* The GUP call's copy of the task's name, or the helper's outside one. */
static __always_inline void trace_comm(struct trace_hold *r, const struct walk_entry *e)
{
	if (!e->gup_comm[0]) {
		bpf_get_current_comm(r->comm, sizeof(r->comm));
		return;
	}
	__builtin_memcpy(r->comm, e->gup_comm, sizeof(r->comm));
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
	trace_comm(r, e);
	r->cgroup = bpf_get_current_cgroup_id();
}

/*
 * One hold that started at @start (entry, or the exact acquire) and ended
 * at @now, the walk having looked up @pages pages. @ctx is the exit
 * program's context, for the stack. A hold someone spun on (@waited) is
 * kept whatever its length, with its stack: its waits refer to it.
 */
static __always_inline void trace_hold(void *ctx, const struct walk_entry *e,
				       __u64 start, __u64 now, long pages,
				       enum walk_result res, bool waited)
{
	struct trace_counters *c = trace_stats_get();
	struct trace_hold *r;

	if (!c)
		return;
	if (!waited && now - start < trace_min_ns) {
		c->below_min++;
		return;
	}
	r = bpf_ringbuf_reserve(&trace_events, sizeof(*r), 0);
	if (!r) {
		c->lost++;
		return;
	}
	trace_fill(r, e, start, now, pages, res);
	if (waited)
		r->flags |= TRACE_HOLD_WAITED;
	r->stack_id = trace_stack(ctx, c, waited || now - start >= trace_stack_min_ns);
	bpf_ringbuf_submit(r, wakeup_flag());
	c->emitted++;
}

#endif /* __GUPSTAT_TRACE_BPF_H */
