/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every gupstat trace record shares, the holds' (trace.bpf.h) and
 * the waits' (wait.bpf.c): the ring buffer's wakeups, the stack, the
 * trace path's counters.
 */
#ifndef __GUPSTAT_RING_BPF_H
#define __GUPSTAT_RING_BPF_H

#include "common.bpf.h"

static __always_inline struct trace_counters *trace_stats_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&trace_stats, &zero);
}

static __always_inline __u64 wakeup_flag(void)
{
	if (!trace_wakeup_bytes)
		return 0;
	return bpf_ringbuf_query(&trace_events, BPF_RB_AVAIL_DATA) >= trace_wakeup_bytes ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* The current kernel stack's id if stacks are taken and @want, else -1. */
static __always_inline __s32 trace_stack(void *ctx, struct trace_counters *c, bool want)
{
	__s32 id;

	if (!trace_want_stacks || !want)
		return -1;
	id = bpf_get_stackid(ctx, &trace_stacks, 0);
	if (id < 0)
		c->stack_errors++;
	return id;
}

#endif /* __GUPSTAT_RING_BPF_H */
