// SPDX-License-Identifier: GPL-2.0
/*
 * Releasing pins: pages and time per unpin_user_pages() and
 * unpin_user_pages_dirty_lock() call, counters per call, and refs per
 * gup_put_folio(). The dirty variant calls the plain one when it has
 * nothing to dirty: both calls are counted, each under its own name, but
 * a process's or cgroup's pages unpinned once.
 */
#include "pmu.bpf.h"

enum unpin_fn { UNPIN_PLAIN, UNPIN_DIRTY };

struct unpin_entry {
	__u64 entry_ns;
	__u64 npages;
	struct pmu_mark pmu;
};

/* Keyed by thread id * 2 + enum unpin_fn: the two may nest. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_INFLIGHT);
	__type(key, __u64);
	__type(value, struct unpin_entry);
} unpin_entries SEC(".maps");

static __always_inline __u64 unpin_key(enum unpin_fn fn)
{
	return (__u64)current_tid() * 2 + fn;
}

static __always_inline void unpin_enter(enum unpin_fn fn, __u64 npages)
{
	struct unpin_entry e = { .npages = npages };
	__u64 key = unpin_key(fn);

	if (!task_wanted())
		return;
	pmu_start(&e.pmu);
	e.entry_ns = bpf_ktime_get_ns();
	bpf_map_update_elem(&unpin_entries, &key, &e, BPF_ANY);
}

/* The plain call inside the dirty one: its pages are the dirty call's. */
static __always_inline bool unpin_nested(enum unpin_fn fn)
{
	__u64 outer = unpin_key(UNPIN_DIRTY);

	return fn == UNPIN_PLAIN && bpf_map_lookup_elem(&unpin_entries, &outer);
}

static __always_inline void unpin_exit(enum unpin_fn fn)
{
	__u64 now = bpf_ktime_get_ns(), key = unpin_key(fn);
	struct unpin_entry *e = bpf_map_lookup_elem(&unpin_entries, &key);

	if (!e)
		return;
	pmu_stop(&e->pmu, H_PMU_UNPIN);
	if (fn == UNPIN_PLAIN) {
		hist_add(H_UNPIN_NS, now - e->entry_ns);
		hist_add(H_UNPIN_PAGES, e->npages);
	} else {
		hist_add(H_UNPIN_DIRTY_NS, now - e->entry_ns);
		hist_add(H_UNPIN_DIRTY_PAGES, e->npages);
	}
	if (!unpin_nested(fn))
		proc_count(unpin_calls, unpin_pages, e->npages);
	bpf_map_delete_elem(&unpin_entries, &key);
}

static __always_inline void put_refs(__u32 refs)
{
	if (task_wanted())
		hist_add(H_PUT_REFS, refs);
}

/*
 * unpin_user_pages() and unpin_user_pages_dirty_lock() both start with
 * (pages, npages); gup_put_folio(folio, refs).
 */
static __always_inline void unpin_on_entry(void *ctx, bool fentry)
{
	unpin_enter(UNPIN_PLAIN, probe_arg(ctx, fentry, 1, 0));
}

static __always_inline void unpin_on_exit(void *ctx, long ret)
{
	unpin_exit(UNPIN_PLAIN);
}

static __always_inline void unpin_dirty_on_entry(void *ctx, bool fentry)
{
	unpin_enter(UNPIN_DIRTY, probe_arg(ctx, fentry, 1, 0));
}

static __always_inline void unpin_dirty_on_exit(void *ctx, long ret)
{
	unpin_exit(UNPIN_DIRTY);
}

static __always_inline void put_on_entry(void *ctx, bool fentry)
{
	put_refs(probe_arg_fixed(ctx, fentry, 1));
}

ENTRY_TWINS(unpin, unpin_user_pages)
EXIT_TWINS(unpin, unpin_user_pages)
ENTRY_TWINS(unpin_dirty, unpin_user_pages_dirty_lock)
EXIT_TWINS(unpin_dirty, unpin_user_pages_dirty_lock)
ENTRY_TWINS(put, gup_put_folio)

char LICENSE[] SEC("license") = "GPL";
