// SPDX-License-Identifier: GPL-2.0
/*
 * Releasing pins: pages and time per unpin_user_pages() and
 * unpin_user_pages_dirty_lock() call, counters per call, and refs per
 * gup_put_folio(). The dirty variant calls the plain one when it has
 * nothing to dirty: both calls are counted, each under its own name.
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
	proc_count(unpin_calls, unpin_pages, e->npages);
	bpf_map_delete_elem(&unpin_entries, &key);
}

static __always_inline void put_refs(int refs)
{
	if (task_wanted())
		hist_add(H_PUT_REFS, refs);
}

/*
 * unpin_user_pages() and unpin_user_pages_dirty_lock() both start with
 * (pages, npages): the same four programs for each, named PREFIX_fentry,
 * PREFIX_fexit, PREFIX_kprobe and PREFIX_kretprobe.
 */
#define UNPIN_PROGRAMS(prefix, func, fn)					\
SEC("fentry/" #func)								\
int BPF_PROG(prefix##_fentry, struct page **pages, unsigned long npages)	\
{										\
	unpin_enter(fn, npages);						\
	return 0;								\
}										\
SEC("fexit/" #func)								\
int prefix##_fexit(void *ctx)							\
{										\
	unpin_exit(fn);								\
	return 0;								\
}										\
SEC("kprobe/" #func)								\
int BPF_KPROBE(prefix##_kprobe, struct page **pages, unsigned long npages)	\
{										\
	unpin_enter(fn, npages);						\
	return 0;								\
}										\
SEC("kretprobe/" #func)								\
int prefix##_kretprobe(void *ctx)						\
{										\
	unpin_exit(fn);								\
	return 0;								\
}

UNPIN_PROGRAMS(unpin, unpin_user_pages, UNPIN_PLAIN)
UNPIN_PROGRAMS(unpin_dirty, unpin_user_pages_dirty_lock, UNPIN_DIRTY)

SEC("fentry/gup_put_folio")
int BPF_PROG(put_fentry, struct folio *folio, int refs)
{
	put_refs(refs);
	return 0;
}

SEC("kprobe/gup_put_folio")
int BPF_KPROBE(put_kprobe, struct folio *folio, int refs)
{
	put_refs(refs);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
