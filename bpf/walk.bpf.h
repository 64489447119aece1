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

/* Keyed by thread id: a task is inside one follow_page_pte() at a time. */
WALK_MAP struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_INFLIGHT);
	__type(key, __u32);
	__type(value, struct walk_entry);
} walk_entries SEC(".maps");

#endif /* __GUPSTAT_WALK_BPF_H */
