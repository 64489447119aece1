// SPDX-License-Identifier: GPL-2.0
/*
 * --waits: spins on a PTE lock while a GUP walk holds it. A spin_lock()
 * that finds its lock taken calls the qspinlock slow path,
 * queued_spin_lock_slowpath(lock, val), and returns from it holding the
 * lock; entry to return is the wait. A lock found in pte_held at the
 * entry is held by a walk (held.bpf.h); any other spin costs a lookup.
 *
 * Not the lock:contention_begin/end tracepoints: the slow path reaches
 * them only once it queues, so a lone waiter, which spins on the
 * pending bit, is never seen there, nor is any waiter in a guest that
 * spins in virt_spin_lock() (kernel/locking/qspinlock.c, 7.3).
 *
 * A spin does not migrate (preemption is off), so its state is per CPU,
 * and it is the lock's: PTE locks are taken in task context only, so a
 * spin on one is never nested in another spin on this CPU, and a state
 * found at its entry is one whose exit went unseen. A spin on another
 * lock leaves the state alone (an interrupt's, nested in a wait), and an
 * exit counts only when its lock, read again by fexit, is the state's.
 * No count of nested spins: one exit unseen (a spin begun between the
 * attach of the entry program and of the exit's, or an interrupt's spin
 * ending while this CPU's exit program runs, which the kernel then
 * skips) left such a count off by one, and every later wait on that CPU
 * went uncounted.
 */
#include "common.bpf.h"
#include "ring.bpf.h"

struct wait_state {
	__u64 lock;		/* 0: not a wait on a walk's lock */
	__u64 begin_ns;
	__u64 hold_ts_ns;
	__u32 holder_pid;
	__u32 holder_tid;
};

PERCPU_VALUE(wait_states, struct wait_state)

static __always_inline void wait_on_entry(void *ctx, bool fentry)
{
	struct wait_state *w = wait_states_get();
	struct pte_held *h;
	__u64 lock;

	if (!w)
		return;
	lock = probe_arg(ctx, fentry, 0, 0);
	h = bpf_map_lookup_elem(&pte_held, &lock);
	if (!h) {
		/* The state's lock again, no longer held: its exit went unseen. */
		if (lock == w->lock)
			w->lock = 0;
		return;
	}
	__sync_fetch_and_add(&h->waits, 1);
	w->hold_ts_ns = h->hold_ts_ns;
	w->holder_pid = h->pid;
	w->holder_tid = h->tid;
	w->lock = lock;
	w->begin_ns = bpf_ktime_get_ns();
}

static __always_inline void trace_wait(void *ctx, const struct wait_state *w,
				       __u64 now)
{
	struct trace_counters *c = trace_stats_get();
	__u64 id = bpf_get_current_pid_tgid();
	struct trace_wait *r;

	if (!c)
		return;
	r = bpf_ringbuf_reserve(&trace_events, sizeof(*r), 0);
	if (!r) {
		c->lost++;
		return;
	}
	r->type = TRACE_REC_WAIT;
	r->cpu = bpf_get_smp_processor_id();
	r->ts_ns = w->begin_ns;
	r->wait_ns = now - w->begin_ns;
	r->lock = w->lock;
	r->hold_ts_ns = w->hold_ts_ns;
	r->pid = id >> 32;
	r->tid = (__u32)id;
	r->holder_pid = w->holder_pid;
	r->holder_tid = w->holder_tid;
	r->pad = 0;
	bpf_get_current_comm(r->comm, sizeof(r->comm));
	r->cgroup = bpf_get_current_cgroup_id();
	r->stack_id = trace_stack(ctx, c, true);
	bpf_ringbuf_submit(r, wakeup_flag());
	c->emitted++;
}

/*
 * No state of this lock: a spin on another lock, or one whose entry was
 * not seen (begun before the attach). A kretprobe cannot read the lock
 * at the return and takes the state's. The state is cleared before
 * anything that may spin itself (a map's or the ring buffer's lock).
 */
static __always_inline void wait_on_exit(void *ctx, long ret, bool fexit)
{
	__u64 now = bpf_ktime_get_ns();
	struct wait_state *w = wait_states_get(), s;

	if (!w || !w->lock)
		return;
	if (fexit && probe_arg(ctx, true, 0, 0) != w->lock)
		return;
	s = *w;
	w->lock = 0;
	hist_add(H_PTE_WAIT_NS, now - s.begin_ns);
	proc_count(pte_waits, pte_wait_ns, now - s.begin_ns);
	if (trace_on)
		trace_wait(ctx, &s, now);
}

ENTRY_TWINS(wait, queued_spin_lock_slowpath)
EXIT_ARGS_TWINS(wait, queued_spin_lock_slowpath)

/* The same slow path, so named where spinlocks are paravirt (probes.c). */
static __always_inline void wait_native_on_entry(void *ctx, bool fentry)
{
	wait_on_entry(ctx, fentry);
}

static __always_inline void wait_native_on_exit(void *ctx, long ret, bool fexit)
{
	wait_on_exit(ctx, ret, fexit);
}

ENTRY_TWINS(wait_native, native_queued_spin_lock_slowpath)
EXIT_ARGS_TWINS(wait_native, native_queued_spin_lock_slowpath)

char LICENSE[] SEC("license") = "GPL";
