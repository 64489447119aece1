// SPDX-License-Identifier: GPL-2.0
/*
 * The page-table walk: one follow_page_pte() call looks up one PTE on
 * an unpatched kernel, a run of them on the batched kernel. Records pages per call,
 * why calls returned no page, and how long each call held the PTE lock.
 *
 * Lock hold: follow_page_pte() takes the PTE lock right after entry and
 * drops it just before returning, so its entry-to-return span bounds the
 * hold from above (the default). With lock_exact, the hold starts where
 * __pte_offset_map_lock() (7.x: pte_offset_map_lock()) returned inside
 * the call (lock.bpf.c).
 *
 * gupstat trace (trace_on) also emits a record per call (trace.bpf.h),
 * with the arguments saved at entry. With --waits the walk's return also
 * takes its lock out of pte_held (held.bpf.h).
 *
 * The entry state lives in task storage where other probes add to it
 * (trace, --waits, --lock-exact); otherwise in a per-CPU slot
 * (walk_slots), which costs a third as much on a path run for every page.
 */
#include "trace.bpf.h"
#include "held.bpf.h"

/* From the kernel's BTF prototype of follow_page_pte(). */
const volatile bool walk_returns_count = false;
/*
 * Argument positions, found by name in BTF (-1: none). They move: an
 * unpatched 7.3 has (vma, address, pmd, flags), 6.12 and older add ctx,
 * the batched 7.3 kernel has (vma, address, end, pmd, flags, pages) and
 * the 6.12 port added pgmap.
 */
const volatile int walk_addr_arg = -1;
const volatile int walk_flags_arg = -1;
const volatile int walk_pages_arg = -1;
/*
 * Set by user space when nothing but the walk itself is asked of it: no
 * process or cgroup filter, no -P or --per-cgroup, no trace, --waits or
 * --lock-exact. The walk's programs then run one path on which all of
 * these are known off when compiled. Each option's test on the common
 * path is a flag the verifier knows, but it keeps the flag's load: the
 * tests of one walk cost more instructions than its counting.
 */
const volatile bool walk_plain = false;

/*
 * The per-CPU walk state of the live view without trace, --waits and
 * --lock-exact: which task entered, at what count of its migrations
 * between CPUs, at which address, and when.
 */
struct walk_slot {
	__u64 task;
	__u64 migrations;
	__u64 addr;
	__u64 entry_ns;
};

/*
 * The address's position on every kernel gupstat knows (walk_addr_arg's
 * list): a plain context load where walk_addr_arg would cost a helper
 * call a page. It tells a walk's entry from the task's previous one's.
 */
#define WALK_ADDR_FIXED	1

PERCPU_VALUE(walk_slots, struct walk_slot)

/* Only the walk's own probes look at the state: the slot will do. */
static __always_inline bool walk_slot_used(void)
{
	return !trace_on && !waits_on && !lock_exact;
}

/* Changes whenever the task moves to another CPU (set_task_cpu()). */
static __always_inline __u64 task_migrations(const struct task_struct *t)
{
	return t->se.nr_migrations;
}

static __always_inline void walk_slot_enter(void *ctx, bool fentry, __u64 now)
{
	struct walk_slot *s = walk_slots_get();
	struct task_struct *t = bpf_get_current_task_btf();

	if (!s)
		return;
	s->task = (__u64)t;
	s->migrations = task_migrations(t);
	s->addr = probe_arg_fixed(ctx, fentry, WALK_ADDR_FIXED);
	s->entry_ns = now;
}

PERCPU_VALUE(walk_hists, struct walk_hists)

/* The walk's arguments, for gupstat trace; the pages array, or none. */
struct walk_args {
	__u64 flags;
	__u64 pages;
};

static __always_inline void walk_save_args(struct walk_entry *e,
					   const struct walk_args *a)
{
	e->gup_flags = a->flags;
	e->fill_ns = 0;
	e->fill_start_ns = 0;
	e->fills = 0;
	if (walk_pages_arg >= 0)
		e->array = a->pages ? WALK_ARRAY_PAGES : WALK_ARRAY_NONE;
	else
		e->array = e->gup_array;
}

/*
 * @addr names the walk to its exit (walk_entry_stale()) and, traced, is
 * the record's address.
 */
static __always_inline void walk_enter(void *ctx, bool fentry, __u64 addr,
				       const struct walk_args *a)
{
	struct walk_entry *e;

	if (!task_wanted())
		return;
	if (walk_slot_used()) {
		walk_slot_enter(ctx, fentry, bpf_ktime_get_ns());
		return;
	}
	e = walk_entry_get(BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!e)
		return;
	e->addr = addr;
	if (trace_on)
		walk_save_args(e, a);
	e->lock_ns = 0;
	held_leave(e);		/* a return missed (a kretprobe's limit) */
	e->entry_ns = bpf_ktime_get_ns();
}

/*
 * @plain: walk_plain's path, on which the per-process and per-cgroup
 * rows and the trace are known off when compiled.
 */
static __always_inline void walk_record(void *ctx, const struct walk_entry *e,
					__u64 ret, __u64 start_ns, __u64 now,
					bool waited, bool plain)
{
	struct walk_hists *w;
	enum walk_result res;
	struct counters *c;
	long pages;

	pages = walk_ret_pages(ret, walk_returns_count, &res);
	/* A walk that found pages is counted by H_WALK_PAGES (snapshot.c). */
	if (res != WALK_PAGES && res < WALK_NR_RESULTS) {
		c = counters_get();
		if (c)
			c->walk_results[res]++;
	}
	w = walk_hists_get();
	if (w && start_ns)
		hist_put(&w->hold, true, now - start_ns);
	if (!plain)
		proc_count(walk_calls, walk_pages, res == WALK_PAGES ? pages : 0);
	if (w && res == WALK_PAGES)
		hist_put(&w->pages, false, pages);
	if (!plain && trace_on && start_ns)
		trace_hold(ctx, e, start_ns, now, pages, res, waited);
}

static __always_inline void state_miss(void)
{
	struct counters *c = counters_get();

	if (c)
		c->state_misses++;
}

/*
 * The task's entry state is another walk's: the kernel skipped this
 * walk's entry program, and the exit program of the task's walk before
 * it (a task preempted inside each, on that CPU), which left its entry
 * behind. Measured from it, the hold would take in the time between the
 * walks. fexit sees the walk's own arguments; a kretprobe does not, and
 * its programs, run with preemption off, are skipped only when nested.
 */
static __always_inline bool walk_entry_stale(void *ctx, const struct walk_entry *e,
					     bool fexit)
{
	return fexit && e->addr != probe_arg(ctx, true, walk_addr_arg, 0);
}

/*
 * A hold the exit cannot measure: its entry program was skipped, or the
 * walk began before the attach. Counted once, in the live view's state misses and,
 * traced, as a lost hold; a skipped exit is counted by the kernel.
 */
static __always_inline void walk_unentered(struct walk_entry *e)
{
	struct trace_counters *t;

	state_miss();
	if (!e)
		return;
	held_leave(e);
	e->entry_ns = 0;
	if (!trace_on)
		return;
	t = trace_stats_get();
	if (t)
		t->unentered++;
}

/*
 * The slot holds this walk's entry if it names the task and the task has
 * not moved to another CPU since: the entry was written to this CPU's
 * slot, and no later walk of the task's can have rewritten it. A task
 * switched out and back on the same CPU keeps its walk, the time away
 * included in the hold, as with task storage; another task's walk on
 * the CPU meanwhile took the slot (another task named), or the task
 * came back elsewhere (a migration): a state miss, counted as one,
 * never a hold measured from another walk's entry. Only checking for a
 * context switch would miss the walks of every task that another
 * tracer's wakeup switches out in the same trampoline. Under fexit the
 * address also tells the walk from the task's previous one, left in the
 * slot when the kernel skipped both that walk's exit and this one's
 * entry (walk_entry_stale()).
 */
static __always_inline void walk_slot_exit(void *ctx, long ret, __u64 now,
					   bool fexit, bool plain)
{
	struct walk_slot *s = walk_slots_get();
	struct task_struct *t = bpf_get_current_task_btf();

	if (!s)
		return;
	if (s->task != (__u64)t || s->migrations != task_migrations(t) ||
	    (fexit && s->addr != probe_arg_fixed(ctx, true, WALK_ADDR_FIXED))) {
		state_miss();
		return;
	}
	s->task = 0;
	walk_record(ctx, NULL, ret, s->entry_ns, now, false, plain);
}

static __always_inline void walk_on_exit(void *ctx, long ret, bool fexit)
{
	__u64 now = bpf_ktime_get_ns();
	struct walk_entry *e;
	bool waited;

	if (walk_plain) {
		walk_slot_exit(ctx, ret, now, fexit, true);
		return;
	}
	if (!task_wanted())
		return;
	if (walk_slot_used()) {
		walk_slot_exit(ctx, ret, now, fexit, false);
		return;
	}
	e = walk_entry_get(0);
	if (!e || !e->entry_ns || walk_entry_stale(ctx, e, fexit)) {
		walk_unentered(e);
		return;
	}
	waited = held_leave(e);
	walk_record(ctx, e, ret, lock_exact ? e->lock_ns : e->entry_ns, now, waited,
		    false);
	e->entry_ns = 0;
}

static __always_inline void walk_on_entry(void *ctx, bool fentry)
{
	struct walk_args a = {};
	__u64 addr = 0;

	if (walk_plain) {
		walk_slot_enter(ctx, fentry, bpf_ktime_get_ns());
		return;
	}
	/* An argument the prototype lacks stays 0. */
	if (!walk_slot_used())
		addr = probe_arg(ctx, fentry, walk_addr_arg, 0);
	if (trace_on) {
		a.flags = probe_arg(ctx, fentry, walk_flags_arg, 0);
		a.pages = probe_arg(ctx, fentry, walk_pages_arg, 0);
	}
	walk_enter(ctx, fentry, addr, &a);
}

ENTRY_TWINS(walk, follow_page_pte)
EXIT_ARGS_TWINS(walk, follow_page_pte)

char LICENSE[] SEC("license") = "GPL";
