// SPDX-License-Identifier: GPL-2.0
/*
 * gup_fill_pages(): the pages[] fill the batched series factors out of
 * __get_user_pages(). Absent on base 6.12, where it is skipped. Its page
 * count argument is found by name in the kernel's BTF (fill_nr_arg, -1
 * when there is none), so no prototype is assumed here.
 *
 * For gupstat trace it also marks the walk it runs in (walk.bpf.h): the
 * batched kernel fills the pages array from follow_page_pte().
 */
#include "walk.bpf.h"

const volatile int fill_nr_arg = -1;

struct fill_entry {
	__u64 entry_ns;
	long nr;		/* pages, or -1 where unknown */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_INFLIGHT);
	__type(key, __u32);
	__type(value, struct fill_entry);
} fill_entries SEC(".maps");

static __always_inline void fill_enter(long nr)
{
	struct fill_entry e = { .entry_ns = bpf_ktime_get_ns(), .nr = nr };
	__u32 tid = current_tid();

	if (!task_wanted())
		return;
	bpf_map_update_elem(&fill_entries, &tid, &e, BPF_ANY);
	walk_fill_start(e.entry_ns);
}

static __always_inline void fill_exit(void)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tid = current_tid();
	struct fill_entry *e;

	e = bpf_map_lookup_elem(&fill_entries, &tid);
	if (!e)
		return;
	walk_fill_end(now);
	hist_add(H_FILL_NS, now - e->entry_ns);
	if (e->nr >= 0)
		hist_add(H_FILL_PAGES, e->nr);
	bpf_map_delete_elem(&fill_entries, &tid);
}

static __always_inline void fill_on_entry(void *ctx, bool fentry)
{
	fill_enter(probe_arg(ctx, fentry, fill_nr_arg, -1));
}

static __always_inline void fill_on_exit(void *ctx, long ret)
{
	fill_exit();
}

ENTRY_TWINS(fill, gup_fill_pages)
EXIT_TWINS(fill, gup_fill_pages)

char LICENSE[] SEC("license") = "GPL";
