// SPDX-License-Identifier: GPL-2.0
/*
 * Taking references: __get_user_pages() calls (pages asked, pages
 * returned, latency, counters, pin vs get, FOLL_LONGTERM) and the
 * refcount batch, refs per try_grab_folio(): 1 per page unpatched,
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
 * The kernel's FOLL_* values, set by user space (src/kernel/foll.c): they moved
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
 * stored (an unpatched follow_page_pte() has no pages argument to read),
 * and the task's name for their records; both are unset at its return.
 */
static __always_inline void gup_array_set(enum walk_array array)
{
	struct walk_entry *w;

	if (!trace_on)
		return;
	w = walk_entry_get(array == WALK_ARRAY_UNKNOWN ? 0 :
			   BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!w)
		return;
	w->gup_array = array;
	if (array == WALK_ARRAY_UNKNOWN)
		w->gup_comm[0] = 0;
	else
		bpf_get_current_comm(w->gup_comm, sizeof(w->gup_comm));
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

/* FOLL_PIN pages into a -P or --per-cgroup row: what unpins will give back. */
static __always_inline void pins_add(struct tally *t, __u32 flags, long pages)
{
	tally_add(t, pin_pages, pages);
	if (flags & foll_longterm)
		tally_add(t, longterm_pages, pages);
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
	if (kind == GUP_PIN && ret > 0) {
		pins_add(row ? &row->t : NULL, e->flags, ret);
		pins_add(cgroup_row(), e->flags, ret);
	}
	/*
	 * A row is created at the process's first GUP call, which may come
	 * from execve() copying its arguments, before the new comm is set:
	 * refresh it once per __get_user_pages() call (not per page).
	 */
	if (row)
		bpf_get_current_comm(row->comm, sizeof(row->comm));
	bpf_map_delete_elem(&gup_entries, &tid);
}

/* @refs is never negative: unsigned, it is not sign-extended per page. */
static __always_inline void grab(__u32 refs, __u32 flags)
{
	if (!task_wanted())
		return;
	if (flags & foll_pin)
		hist_add(H_GRAB_PIN_REFS, refs);
	else if (flags & foll_get)
		hist_add(H_GRAB_GET_REFS, refs);
}

/*
 * __get_user_pages(mm, start, nr_pages, gup_flags, pages, ...): only
 * whether pages is NULL matters, so it is read as a number.
 */
static __always_inline void gup_on_entry(void *ctx, bool fentry)
{
	gup_enter(probe_arg(ctx, fentry, 2, 0), probe_arg(ctx, fentry, 3, 0),
		  (void *)probe_arg(ctx, fentry, 4, 0));
}

static __always_inline void gup_on_exit(void *ctx, long ret)
{
	gup_exit(ret);
}

/* try_grab_folio(folio, refs, flags) */
static __always_inline void grab_on_entry(void *ctx, bool fentry)
{
	grab(probe_arg_fixed(ctx, fentry, 1), probe_arg_fixed(ctx, fentry, 2));
}

/* try_grab_page(page, flags): one ref */
static __always_inline void grab_page_on_entry(void *ctx, bool fentry)
{
	grab(1, probe_arg_fixed(ctx, fentry, 1));
}

ENTRY_TWINS(gup, __get_user_pages)
EXIT_TWINS(gup, __get_user_pages)
ENTRY_TWINS(grab, try_grab_folio)
ENTRY_TWINS(grab_page, try_grab_page)

char LICENSE[] SEC("license") = "GPL";
