// SPDX-License-Identifier: GPL-2.0
/*
 * The exact PTE-lock acquire point (gupstat --lock-exact): the return of
 * __pte_offset_map_lock() while the task is inside follow_page_pte(), or
 * of pte_offset_map_lock() where the kernel (7.x) has only that one, of
 * the same prototype (src/probe/probes.c picks from BTF). Very hot
 * everywhere, so loaded only on request; outside the walk it costs one
 * task-storage lookup.
 *
 * With --waits it also enters the lock in pte_held (held.bpf.h): the
 * lock's address is what the function stored through its fourth
 * argument, ptlp, which only fexit can read at the return.
 */
#include "held.bpf.h"

static __always_inline void lock_on_exit(void *ctx, long ret, bool fexit)
{
	struct walk_entry *e = walk_entry_get(0);
	__u64 ptlp, ptl = 0;

	/* The first acquire in the call: the one follow_page_pte() holds. */
	if (!e || !e->entry_ns || e->lock_ns)
		return;
	e->lock_ns = bpf_ktime_get_ns();
	/* NULL: the table went away, nothing is locked. */
	if (!waits_on || !fexit || !ret)
		return;
	ptlp = probe_arg(ctx, true, 3, 0);
	if (ptlp && !bpf_probe_read_kernel(&ptl, sizeof(ptl), (void *)ptlp))
		held_enter(e, ptl);
}

EXIT_ARGS_TWINS(lock, __pte_offset_map_lock)

static __always_inline void lock_map_on_exit(void *ctx, long ret, bool fexit)
{
	lock_on_exit(ctx, ret, fexit);
}

EXIT_ARGS_TWINS(lock_map, pte_offset_map_lock)

char LICENSE[] SEC("license") = "GPL";
