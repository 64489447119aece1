// SPDX-License-Identifier: GPL-2.0
/*
 * Taking references: __get_user_pages() calls (pages asked, pages
 * returned, latency, counters, pin vs get, FOLL_LONGTERM) and the
 * refcount batch, refs per try_grab_folio(): 1 per page on base 6.12,
 * the whole same-folio run on the batched kernel. A kernel whose slow
 * path grabs page by page through try_grab_page(page, flags) (6.1; its
 * try_grab_folio() is the fast path's) gets the grab_page programs.
 */
#include "pmu.bpf.h"
#include "walk.bpf.h"

struct gup_entry {
	__u64 entry_ns;
	__u64 nr_pages;
	__u32 flags;
	struct pmu_mark pmu;
};

/*
 * The kernel's FOLL_* values, set by user space (src/util/foll.c): they moved
 * when the #defines became enums.
 */
const volatile __u32 foll_pin = FOLL_PIN;
const volatile __u32 foll_get = FOLL_GET;
const volatile __u32 foll_longterm = FOLL_LONGTERM;

/* Keyed by thread id; __get_user_pages() does not nest. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_INFLIGHT);
	__type(key, __u32);
	__type(value, struct gup_entry);
} gup_entries SEC(".maps");

static __always_inline enum gup_kind gup_kind_of(__u32 flags)
{
	if (flags & foll_pin)
		return GUP_PIN;
	if (flags & foll_get)
		return GUP_GET;
	return GUP_NOREF;
}

/*
 * gupstat trace: tell the walks of this call whether their pages are
 * stored (base 6.12's follow_page_pte() has no pages argument to read).
 */
static __always_inline void gup_array_set(enum walk_array array)
{
	struct walk_entry *w;

	if (!trace_on)
		return;
	w = walk_entry_get(array == WALK_ARRAY_UNKNOWN ? 0 :
			   BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (w)
		w->gup_array = array;
}

static __always_inline void gup_enter(__u64 nr_pages, __u32 flags, void *pages)
{
	struct gup_entry e = { .nr_pages = nr_pages, .flags = flags };
	__u32 tid = current_tid();

	if (!task_wanted())
		return;
	gup_array_set(pages ? WALK_ARRAY_PAGES : WALK_ARRAY_NONE);
	pmu_start(&e.pmu);
	e.entry_ns = bpf_ktime_get_ns();
	bpf_map_update_elem(&gup_entries, &tid, &e, BPF_ANY);
}

static __always_inline void gup_exit(long ret)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tid = current_tid();
	struct proc_stats *row;
	struct gup_entry *e;
	struct counters *c;
	enum gup_kind kind;

	e = bpf_map_lookup_elem(&gup_entries, &tid);
	if (!e)
		return;
	gup_array_set(WALK_ARRAY_UNKNOWN);
	pmu_stop(&e->pmu, H_PMU_GUP);
	kind = gup_kind_of(e->flags);
	hist_add(H_GUP_NS + kind, now - e->entry_ns);
	hist_add(H_GUP_ASKED + kind, e->nr_pages);
	hist_add(H_GUP_GOT + kind, ret > 0 ? ret : 0);
	c = counters_get();
	if (c) {
		c->gup_calls[kind]++;
		if (ret < 0)
			c->gup_errors[kind]++;
		if (e->flags & foll_longterm)
			c->gup_longterm++;
	}
	row = proc_count(gup_calls, gup_pages, ret > 0 ? ret : 0);
	/*
	 * A row is created at the process's first GUP call, which may come
	 * from execve() copying its arguments, before the new comm is set:
	 * refresh it once per __get_user_pages() call (not per page).
	 */
	if (row)
		bpf_get_current_comm(row->comm, sizeof(row->comm));
	bpf_map_delete_elem(&gup_entries, &tid);
}

static __always_inline void grab(int refs, __u32 flags)
{
	if (!task_wanted())
		return;
	if (flags & foll_pin)
		hist_add(H_GRAB_PIN_REFS, refs);
	else if (flags & foll_get)
		hist_add(H_GRAB_GET_REFS, refs);
}

SEC("fentry/__get_user_pages")
int BPF_PROG(gup_fentry, struct mm_struct *mm, unsigned long start,
	     unsigned long nr_pages, unsigned int gup_flags)
{
	/*
	 * pages is a struct page **: the verifier refuses reading a pointer
	 * to a pointer from the context; the helper hands it over as a
	 * number, which is all that is needed (NULL or not).
	 */
	gup_enter(nr_pages, gup_flags, (void *)func_arg(ctx, 4, 0));
	return 0;
}

SEC("fexit/__get_user_pages")
int gup_fexit(unsigned long long *ctx)
{
	__u64 ret = 0;

	bpf_get_func_ret(ctx, &ret);
	gup_exit(ret);
	return 0;
}

SEC("kprobe/__get_user_pages")
int BPF_KPROBE(gup_kprobe, struct mm_struct *mm, unsigned long start,
	       unsigned long nr_pages, unsigned int gup_flags, struct page **pages)
{
	gup_enter(nr_pages, gup_flags, pages);
	return 0;
}

SEC("kretprobe/__get_user_pages")
int BPF_KRETPROBE(gup_kretprobe, long ret)
{
	gup_exit(ret);
	return 0;
}

SEC("fentry/try_grab_folio")
int BPF_PROG(grab_fentry, struct folio *folio, int refs, unsigned int flags)
{
	grab(refs, flags);
	return 0;
}

SEC("kprobe/try_grab_folio")
int BPF_KPROBE(grab_kprobe, struct folio *folio, int refs, unsigned int flags)
{
	grab(refs, flags);
	return 0;
}

SEC("fentry/try_grab_page")
int BPF_PROG(grab_page_fentry, struct page *page, unsigned int flags)
{
	grab(1, flags);
	return 0;
}

SEC("kprobe/try_grab_page")
int BPF_KPROBE(grab_page_kprobe, struct page *page, unsigned int flags)
{
	grab(1, flags);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
