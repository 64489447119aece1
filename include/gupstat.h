/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by gupstat's BPF programs and its user space: fixed-width
 * only, so both sides agree on the layout byte for byte.
 */
#ifndef __GUPSTAT_H
#define __GUPSTAT_H

/*
 * What one follow_page_pte() call returned. Base 6.12 returns a struct
 * page * (one page), NULL when a fault is needed, or an ERR_PTR; the
 * batched kernel returns a page count, 0 or -errno. Both map onto these.
 */
enum walk_result {
	WALK_PAGES,		/* one or more pages looked up */
	WALK_NEED_FAULT,	/* NULL / 0: the caller must fault it in */
	WALK_EMLINK,		/* -EMLINK: shared anon page needs unsharing */
	WALK_EEXIST,		/* -EEXIST: pfn-special mapping, no page */
	WALK_EFAULT,		/* -EFAULT */
	WALK_EOTHER,		/* any other -errno */
	WALK_NR_RESULTS,
};

/* How a __get_user_pages() call takes references (gup_flags). */
enum gup_kind {
	GUP_PIN,		/* FOLL_PIN: pin_user_pages*() */
	GUP_GET,		/* FOLL_GET: get_user_pages*() */
	GUP_NOREF,		/* neither: populate, mlock, fault-in */
	GUP_NR_KINDS,
};

/*
 * Histograms, aggregated in the kernel. Those before HIST_FIRST_LOG2 are
 * linear (slot i counts the value i; the last slot counts everything
 * above), the rest log2 (slot i counts [2^(i-1), 2^i - 1], slot 0 zero).
 * The id alone says which, so the BPF and printing sides cannot disagree.
 */
enum hist_id {
	H_WALK_PAGES,		/* pages per follow_page_pte() call */
	H_GRAB_PIN_REFS,	/* refs per try_grab_folio(), FOLL_PIN */
	H_GRAB_GET_REFS,	/* refs per try_grab_folio(), FOLL_GET */
	H_PUT_REFS,		/* refs per gup_put_folio() */
	H_FILL_PAGES,		/* pages per gup_fill_pages() call */
	HIST_FIRST_LOG2,
	H_WALK_HOLD_NS = HIST_FIRST_LOG2, /* PTE-lock hold per call */
	H_GUP_ASKED,		/* + enum gup_kind: pages asked per call */
	H_GUP_GOT = H_GUP_ASKED + GUP_NR_KINDS,	/* + kind: pages returned */
	H_GUP_NS = H_GUP_GOT + GUP_NR_KINDS,	/* + kind: latency */
	H_UNPIN_PAGES = H_GUP_NS + GUP_NR_KINDS, /* unpin_user_pages() */
	H_UNPIN_NS,
	H_UNPIN_DIRTY_PAGES,	/* unpin_user_pages_dirty_lock() */
	H_UNPIN_DIRTY_NS,
	H_FILL_NS,		/* gup_fill_pages() time */
	H_PMU_GUP,		/* counter delta per __get_user_pages() */
	H_PMU_UNPIN,		/* counter delta per unpin_user_pages*() */
	H_PTE_WAIT_NS,		/* spin on a PTE lock a walk holds (--waits) */
	NR_HISTS,
};

#define HIST_LINEAR_MAX		512	/* a whole page table */
#define HIST_SLOTS		(HIST_LINEAR_MAX + 2)
#define HIST_LOG2_SLOTS		64

struct hist {
	__u64 count;		/* the slots' sum, added by user space */
	__u64 sum;
	__u64 max;
	__u64 slots[HIST_SLOTS];
};

/*
 * The walk's two histograms, H_WALK_HOLD_NS and H_WALK_PAGES, in one
 * per-CPU value of their own (walk_hists): the walk's exit, run for
 * every page, finds both with one lookup. User space reads them into
 * those two ids (src/probe/snapshot.c).
 */
struct walk_hists {
	struct hist hold;
	struct hist pages;
};

/* Plain counters, summed over CPUs like the histograms. */
struct counters {
	__u64 walk_results[WALK_NR_RESULTS];
	__u64 gup_calls[GUP_NR_KINDS];
	__u64 gup_longterm;		/* of the GUP_PIN calls */
	__u64 gup_errors[GUP_NR_KINDS];	/* calls returning -errno */
	__u64 pmu_misses;		/* counter reads that failed */
	__u64 state_misses;		/* exits without a recorded entry */
	__u64 held_lost;		/* --waits: holds the held-lock map had no room for */
};

/*
 * What -P counts per process and --per-cgroup per cgroup. pin_pages and
 * longterm_pages are pages returned by FOLL_PIN calls (and of them, with
 * FOLL_LONGTERM): less unpin_pages, the pins a process or cgroup holds.
 */
struct tally {
	__u64 walk_calls;
	__u64 walk_pages;
	__u64 gup_calls;
	__u64 gup_pages;
	__u64 pin_pages;
	__u64 longterm_pages;
	__u64 unpin_calls;
	__u64 unpin_pages;
	/* --waits: of the waiter, on PTE locks a GUP walk held */
	__u64 pte_waits;
	__u64 pte_wait_ns;
};

/*
 * Set by user space alone, in a row it gives no series: the BPF side
 * only adds to the counters, so the flag stays until the row is deleted.
 */
#define TALLY_REFUSED	0x1

/* -P: one row per process, keyed by tgid. */
struct proc_stats {
	char comm[16];
	struct tally t;
	__u64 user_flags;	/* TALLY_* */
};

/* --per-cgroup: one row per cgroup v2, keyed by bpf_get_current_cgroup_id(). */
struct cgroup_stats {
	struct tally t;
	__u64 user_flags;	/* TALLY_* */
};

/*
 * gupstat trace: one ring-buffer record per follow_page_pte() call (one
 * PTE-lock hold). Every record starts with its type, so that other kinds
 * can share the buffer later. This is the BPF-to-user layout, host
 * endian; the file format is in gupstat_tracefile.h.
 */
enum trace_rec_type {
	TRACE_REC_HOLD = 1,
	TRACE_REC_WAIT,		/* --waits */
};

/* struct trace_hold flags */
#define TRACE_HOLD_FILL		0x1	/* gup_fill_pages() ran inside the span */
#define TRACE_HOLD_STORED_KNOWN	0x2	/* whether a pages[] array was passed is known */
#define TRACE_HOLD_WAITED	0x4	/* --waits: another task spun on this hold's lock */

struct trace_hold {
	__u32 type;		/* TRACE_REC_HOLD */
	__u32 cpu;		/* where the walk returned */
	__u64 ts_ns;		/* hold start, bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u64 hold_ns;		/* hold duration (see the probe method) */
	__u64 fill_ns;		/* time in gup_fill_pages() within the span */
	__u64 addr;		/* user address the walk started at */
	__u32 pid;		/* tgid */
	__u32 tid;
	__u32 pages;		/* pages the walk looked up (its return) */
	__u32 stored;		/* of those, stored in the caller's pages[] */
	__u32 gup_flags;	/* FOLL_* as follow_page_pte() got them */
	__s32 stack_id;		/* trace_stacks key, or -errno */
	__u32 fills;		/* gup_fill_pages() calls within the span */
	__u16 flags;		/* TRACE_HOLD_* */
	__u8 result;		/* enum walk_result */
	__u8 pad;
	char comm[16];
	__u64 cgroup;		/* bpf_get_current_cgroup_id(): the task's cgroup v2 */
};

/*
 * --waits: one spin on a PTE lock while a GUP walk held it, emitted when
 * the waiter has the lock. The hold it waited on is the trace_hold of
 * holder_tid whose ts_ns is hold_ts_ns: that hold is always emitted,
 * whatever --min-ns says, with its stack where stacks are taken.
 */
struct trace_wait {
	__u32 type;		/* TRACE_REC_WAIT */
	__u32 cpu;		/* the waiter's */
	__u64 ts_ns;		/* the spin's start, bpf_ktime_get_ns() */
	__u64 wait_ns;		/* until the waiter held the lock */
	__u64 lock;		/* the spinlock's kernel address */
	__u64 hold_ts_ns;	/* the hold's ts_ns */
	__u32 pid;		/* the waiter's tgid */
	__u32 tid;
	__u32 holder_pid;
	__u32 holder_tid;
	__s32 stack_id;		/* the waiter's, trace_stacks key, or -errno */
	__u32 pad;
	char comm[16];
	__u64 cgroup;		/* the waiter's cgroup v2 */
};

/* Frames kept per stack (trace_stacks' value size): GUP is not deep. */
#define TRACE_STACK_DEPTH	32

/* Per-CPU counters of the trace path; "lost" is never silent. */
struct trace_counters {
	__u64 emitted;		/* records submitted to the ring buffer */
	__u64 lost;		/* ring buffer full: bpf_ringbuf_reserve() failed */
	__u64 below_min;	/* holds shorter than --min-ns, filtered out */
	__u64 stack_errors;	/* bpf_get_stackid() failed (record kept) */
	__u64 unentered;	/* holds whose entry program did not run (walk.bpf.c) */
};

#endif /* __GUPSTAT_H */
