/* SPDX-License-Identifier: GPL-2.0 */
/* The walk's per-task entry state (walk_entries, shared.bpf.h). */
#ifndef __GUPSTAT_WALK_BPF_H
#define __GUPSTAT_WALK_BPF_H

#include "common.bpf.h"

static __always_inline struct walk_entry *walk_entry_get(__u64 flags)
{
	return bpf_task_storage_get(&walk_entries, bpf_get_current_task_btf(),
				    NULL, flags);
}

/*
 * gupstat trace: "did the pages fill run inside this walk?" The batched
 * kernel calls gup_fill_pages() from follow_page_pte(); its probe marks
 * the walk the task is in, if any (entry_ns set).
 */
static __always_inline void walk_fill_start(__u64 now)
{
	struct walk_entry *e;

	if (!trace_on)
		return;
	e = walk_entry_get(0);
	if (e && e->entry_ns)
		e->fill_start_ns = now;
}

static __always_inline void walk_fill_end(__u64 now)
{
	struct walk_entry *e;

	if (!trace_on)
		return;
	e = walk_entry_get(0);
	if (!e || !e->entry_ns || !e->fill_start_ns)
		return;
	e->fill_ns += now - e->fill_start_ns;
	e->fills++;
	e->fill_start_ns = 0;
}

#endif /* __GUPSTAT_WALK_BPF_H */
