/* SPDX-License-Identifier: GPL-2.0 */
/* The walk's per-task entry state, shared by walk.bpf.c and lock.bpf.c. */
#ifndef __GUPSTAT_WALK_BPF_H
#define __GUPSTAT_WALK_BPF_H

#include "common.bpf.h"

/* Whether a pages[] array came with the walk (gupstat trace's "stored"). */
enum walk_array {
	WALK_ARRAY_UNKNOWN,
	WALK_ARRAY_NONE,	/* populate, mlock: the pages are not stored */
	WALK_ARRAY_PAGES,
};

struct walk_entry {
	__u64 entry_ns;		/* follow_page_pte() entered */
	__u64 lock_ns;		/* __pte_offset_map_lock() returned inside it */
	/* gupstat trace only (trace_on), set at entry: */
	__u64 addr;		/* the walk's start address */
	__u64 fill_start_ns;	/* inside gup_fill_pages() since */
	__u64 fill_ns;		/* time in gup_fill_pages() during this walk */
	__u32 fills;		/* gup_fill_pages() calls during this walk */
	__u32 gup_flags;
	__u8 array;		/* enum walk_array of this walk */
	/*
	 * enum walk_array of the __get_user_pages() call the task is in,
	 * set by its probe: base 6.12's follow_page_pte() has no pages
	 * argument, its caller stores the page after the walk.
	 */
	__u8 gup_array;
};

#ifdef GUPSTAT_DEFINE_WALK
#define WALK_MAP
#else
#define WALK_MAP	extern
#endif

/*
 * Per task: a task is inside one follow_page_pte() at a time. Task
 * storage, not a hash keyed by tid: this runs twice per page walked, and
 * a hash update and delete per call take bucket locks. Measured with
 * tools/bench/overhead-guest (TCG guest, 256 MB of 4 kB pages), the time
 * gupstat added per pin fell from 174 ms to 122 ms. An entry stays with
 * its task, zeroed between calls.
 */
WALK_MAP struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct walk_entry);
} walk_entries SEC(".maps");

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
