/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --waits: the PTE locks GUP walks hold (pte_held, shared.bpf.h). The
 * walk's acquire enters its lock (lock.bpf.c), the walk's return takes
 * it out (walk.bpf.c); a spin that starts on a lock found here is a wait
 * on a GUP walk (wait.bpf.c).
 */
#ifndef __GUPSTAT_HELD_BPF_H
#define __GUPSTAT_HELD_BPF_H

#include "walk.bpf.h"

/*
 * @ptl: the lock the walk's acquire handed back through its ptlp
 * argument. The hold's start is the one its trace record will carry.
 */
static __always_inline void held_enter(struct walk_entry *e, __u64 ptl)
{
	struct pte_held h = {};
	struct counters *c;
	__u64 id;

	if (!ptl)
		return;
	id = bpf_get_current_pid_tgid();
	h.hold_ts_ns = lock_exact ? e->lock_ns : e->entry_ns;
	h.pid = id >> 32;
	h.tid = (__u32)id;
	if (!bpf_map_update_elem(&pte_held, &ptl, &h, BPF_ANY)) {
		e->ptl = ptl;
		return;
	}
	c = counters_get();
	if (c)
		c->held_lost++;
}

/* The walk returns, its lock released: were there waits on it? */
static __always_inline bool held_leave(struct walk_entry *e)
{
	struct pte_held *h;
	bool waited;

	if (!waits_on || !e->ptl)
		return false;
	h = bpf_map_lookup_elem(&pte_held, &e->ptl);
	waited = h && h->waits;
	bpf_map_delete_elem(&pte_held, &e->ptl);
	e->ptl = 0;
	return waited;
}

#endif /* __GUPSTAT_HELD_BPF_H */
