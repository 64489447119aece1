/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every map and setting that more than one BPF object uses, in one
 * place. The objects are linked into one (bpftool gen object): each is
 * defined once, in shared.bpf.c, which defines GUPSTAT_SHARED_DEFINE, and
 * is extern everywhere else. A map or setting used by one object alone
 * stays in that object.
 */
#ifndef __GUPSTAT_SHARED_BPF_H
#define __GUPSTAT_SHARED_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "gupstat.h"

#ifdef GUPSTAT_SHARED_DEFINE
#define SHARED
#else
#define SHARED		extern
#endif

/* Read-only data, set by user space before the load (src/probe/setup.c). */
SHARED const volatile bool filter_on;		/* count only filter_tgids */
/*
 * Either filter: one flag for task_wanted()'s common case, which runs
 * once per page. The verifier drops a branch on a flag it knows, not
 * the flag's load, and two flags cost two.
 */
SHARED const volatile bool filter_any;
SHARED const volatile __u64 filter_cgroup;	/* -c: the cgroup's id, or 0 */
SHARED const volatile bool filter_cgroup_exact;	/* --cgroup-exact: not its descendants */
SHARED const volatile bool per_process;		/* -P: fill procs */
SHARED const volatile bool per_cgroup;		/* --per-cgroup: fill cgroups */
SHARED const volatile bool pmu_on;		/* pmu_events are open */
SHARED const volatile bool lock_exact;		/* holds start at the acquire */
/*
 * gupstat trace: emit a ring-buffer record per walk (trace.bpf.h). Read-only
 * data, so for `live` the verifier removes the trace code as dead and the
 * walk costs what it did before.
 */
SHARED const volatile bool trace_on;
/*
 * --waits: register the PTE lock each walk holds (pte_held), so that
 * a spin on it is counted (wait.bpf.c).
 */
SHARED const volatile bool waits_on;
/* gupstat trace's filters (trace.bpf.h): live leaves them 0. */
SHARED const volatile __u64 trace_min_ns;
/*
 * A stack is the costliest part of a record (an unwind per hold): taken
 * unless --no-stacks, and only for holds of trace_stack_min_ns or more.
 */
SHARED const volatile bool trace_want_stacks;
SHARED const volatile __u64 trace_stack_min_ns;
/*
 * Wake the reader only once this much is waiting (0: on every record).
 * A wakeup per record is an interrupt-work and a task wakeup per hold;
 * batched, the reader also takes the records in large runs. It polls
 * at least every 100 ms besides.
 */
SHARED const volatile __u64 trace_wakeup_bytes;

SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_HISTS);
	__type(key, __u32);
	__type(value, struct hist);
} hists SEC(".maps");

SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct counters);
} counters SEC(".maps");

SHARED struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct proc_stats);
} procs SEC(".maps");

SHARED struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct cgroup_stats);
} cgroups SEC(".maps");

/* The wanted processes (tgids): -p PID, or a command and its children. */
SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} filter_tgids SEC(".maps");

/*
 * -c: the cgroup at index 0, set by user space after the load, for
 * bpf_current_task_under_cgroup(): its tasks and its descendants' are
 * counted, as libbpf-tools' -c counts them.
 */
SHARED struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} filter_cgroup_dir SEC(".maps");

/*
 * Hardware (or software) counters per traced call: one perf event per
 * CPU, opened by user space (-e EVENT), read by the pin and unpin probes
 * (pmu.bpf.h).
 */
SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} pmu_events SEC(".maps");

/*
 * gupstat trace's records: holds (trace.bpf.h) and waits (wait.bpf.c).
 * Sized by user space (-b); the default it sets is large enough for
 * whole 256 MB pin calls of 4 kB pages without the reader keeping up.
 */
SHARED struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} trace_events SEC(".maps");

/*
 * Kernel stacks of the records, by id. No BPF_F_REUSE_STACKID: an id,
 * once given, keeps meaning one stack, so records written early still
 * refer to the right one; a collision instead fails with -EEXIST, counted.
 */
SHARED struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, TRACE_STACK_DEPTH * sizeof(__u64));
} trace_stacks SEC(".maps");

SHARED struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trace_counters);
} trace_stats SEC(".maps");

/*
 * --waits: the PTE locks GUP walks hold right now, by the spinlock's
 * address, each with its holder. Entered where the walk's acquire
 * returns (lock.bpf.c), removed at the walk's return (walk.bpf.c).
 */
struct pte_held {
	__u64 hold_ts_ns;	/* the hold's start, as its trace record says */
	__u32 pid;		/* the holder's tgid */
	__u32 tid;
	__u32 waits;		/* spins begun on it */
	__u32 pad;
};

SHARED struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct pte_held);
} pte_held SEC(".maps");

/* Whether a pages[] array came with the walk (gupstat trace's "stored"). */
enum walk_array {
	WALK_ARRAY_UNKNOWN,
	WALK_ARRAY_NONE,	/* populate, mlock: the pages are not stored */
	WALK_ARRAY_PAGES,
};

/* The walk's per-task entry state (walk.bpf.h). */
struct walk_entry {
	__u64 entry_ns;		/* follow_page_pte() entered */
	__u64 lock_ns;		/* __pte_offset_map_lock() returned inside it */
	__u64 ptl;		/* --waits: the lock entered in pte_held, or 0 */
	/* gupstat trace only (trace_on), set at entry: */
	__u64 addr;		/* the walk's start address */
	__u64 fill_start_ns;	/* inside gup_fill_pages() since */
	__u64 fill_ns;		/* time in gup_fill_pages() during this walk */
	__u32 fills;		/* gup_fill_pages() calls during this walk */
	__u32 gup_flags;
	__u8 array;		/* enum walk_array of this walk */
	/*
	 * enum walk_array of the __get_user_pages() call the task is in,
	 * set by its probe: base 6.12's follow_page_pte() has no pages
	 * argument, its caller stores the page after the walk.
	 */
	__u8 gup_array;
	/*
	 * gupstat trace: the task's name as the __get_user_pages() call it
	 * is in began (empty outside one), for every hold of the call: a
	 * task cannot rename itself inside a GUP call, and the helper's
	 * copy and padding were a tenth of a record's cost.
	 */
	char gup_comm[16];
};

/*
 * Per task: a task is inside one follow_page_pte() at a time. Task
 * storage, not a hash keyed by tid: this runs twice per page walked, and
 * a hash update and delete per call take bucket locks. Measured with
 * tools/bench/overhead-guest (TCG guest, 256 MB of 4 kB pages), the time
 * gupstat added per pin fell from 174 ms to 122 ms. An entry stays with
 * its task, zeroed between calls. Shared by the walk, the lock, the fill
 * and the GUP probes.
 */
SHARED struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct walk_entry);
} walk_entries SEC(".maps");

#endif /* __GUPSTAT_SHARED_BPF_H */
