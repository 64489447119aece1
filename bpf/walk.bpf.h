/* SPDX-License-Identifier: GPL-2.0 */
/* The walk's per-task entry state, shared by walk.bpf.c and lock.bpf.c. */
#ifndef __GUPSTAT_WALK_BPF_H
#define __GUPSTAT_WALK_BPF_H

#include "common.bpf.h"

struct walk_entry {
	__u64 entry_ns;		/* follow_page_pte() entered */
	__u64 lock_ns;		/* __pte_offset_map_lock() returned inside it */
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

#endif /* __GUPSTAT_WALK_BPF_H */
