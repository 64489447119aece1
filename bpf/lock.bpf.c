// SPDX-License-Identifier: GPL-2.0
/*
 * The exact PTE-lock acquire point (gupstat --lock-exact): the return of
 * __pte_offset_map_lock() while the task is inside follow_page_pte(), or
 * of pte_offset_map_lock() where the kernel (7.x) has only that one, of
 * the same prototype (src/probe/probes.c picks from BTF). Very hot
 * everywhere, so loaded only on request; outside the walk it costs one
 * task-storage lookup.
 */
#include "walk.bpf.h"

static __always_inline void lock_on_exit(void *ctx, long ret)
{
	struct walk_entry *e = walk_entry_get(0);

	/* The first acquire in the call: the one follow_page_pte() holds. */
	if (e && e->entry_ns && !e->lock_ns)
		e->lock_ns = bpf_ktime_get_ns();
}

EXIT_TWINS(lock, __pte_offset_map_lock)

static __always_inline void lock_map_on_exit(void *ctx, long ret)
{
	lock_on_exit(ctx, ret);
}

EXIT_TWINS(lock_map, pte_offset_map_lock)

char LICENSE[] SEC("license") = "GPL";
