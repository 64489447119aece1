/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every probe of the live view and gupstat trace builds on: the
 * shared maps (shared.bpf.h), the twin macros (twins.bpf.h), the process
 * filter and the histograms.
 */
#ifndef __GUPSTAT_COMMON_BPF_H
#define __GUPSTAT_COMMON_BPF_H

#include "shared.bpf.h"
#include "twins.bpf.h"
#include "compat.bpf.h"

/* Bound on tasks inside a traced call at once (entry state maps). */
#define MAX_INFLIGHT	10240

static __always_inline __u32 current_tgid(void)
{
	return bpf_get_current_pid_tgid() >> 32;
}

static __always_inline __u32 current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

static __always_inline bool tgid_wanted(__u32 tgid)
{
	return bpf_map_lookup_elem(&filter_tgids, &tgid) != NULL;
}

/*
 * -c: the task's cgroup is the one given or below it; with --cgroup-exact,
 * the one given. Either is a compare or two of pointers and ids, no walk
 * up the hierarchy.
 */
static __always_inline bool cgroup_wanted(void)
{
	if (filter_cgroup_exact)
		return bpf_get_current_cgroup_id() == filter_cgroup;
	return bpf_current_task_under_cgroup(&filter_cgroup_dir, 0) == 1;
}

static __always_inline bool task_wanted(void)
{
	if (!filter_any)
		return true;
	if (filter_cgroup && !cgroup_wanted())
		return false;
	return !filter_on || tgid_wanted(current_tgid());
}

/*
 * A one-entry per-CPU array @map holding a @vtype, and its getter,
 * map_get(): a CPU's own state or counts, found by an inlined lookup.
 */
#define PERCPU_VALUE(map, vtype)					\
struct {								\
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);			\
	__uint(max_entries, 1);						\
	__type(key, __u32);						\
	__type(value, vtype);						\
} map SEC(".maps");							\
									\
static __always_inline vtype *map##_get(void)				\
{									\
	__u32 zero = 0;							\
									\
	return bpf_map_lookup_elem(&map, &zero);			\
}

static __always_inline struct counters *counters_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

/*
 * One step of log2_slot()'s binary search. barrier_var() keeps it a
 * branch: clang would otherwise turn each step into selects that run
 * both sides, as the branch-free form did.
 */
#define LOG2_STEP(v, r, bits) do {					\
	if ((v) >> (bits)) {						\
		(v) >>= (bits);						\
		(r) += (bits);						\
		barrier_var(v);						\
	}								\
} while (0)

/*
 * floor(log2(v)) + 1, and 0 for 0: the log2 slot of @v, in five
 * branches, each a shift and a test when not taken. The branch-free form
 * (always a compare, a shift and an or per step) cost about twice the
 * instructions for a hold time, and it runs once per walk.
 */
static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 r = 1;

	if (!v)
		return 0;
	LOG2_STEP(v, r, 32);
	LOG2_STEP(v, r, 16);
	LOG2_STEP(v, r, 8);
	LOG2_STEP(v, r, 4);
	LOG2_STEP(v, r, 2);
	return r + (v >> 1);
}

/* @v into histogram @h, whose slots are log2 ones if @log2. */
static __always_inline void hist_put(struct hist *h, bool log2, __u64 v)
{
	__u64 slot;

	if (!log2)
		slot = v > HIST_LINEAR_MAX ? HIST_LINEAR_MAX + 1 : v;
	else
		slot = log2_slot(v);
	/* Keep the bounds check on the register used as the index. */
	asm volatile("" : "+r"(slot));
	if (slot >= HIST_SLOTS)
		return;
	/* No count: it is the slots' sum, taken when read (snapshot.c). */
	h->slots[slot]++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

static __always_inline void hist_add(__u32 id, __u64 v)
{
	struct hist *h = bpf_map_lookup_elem(&hists, &id);

	if (h)
		hist_put(h, id >= HIST_FIRST_LOG2, v);
}

/* -P: the current process's row, created on first use. */
/*
 * Nothing of it before the per_process test: the verifier drops the
 * branch without -P, but not a zeroed row (13 stores) and a pid read
 * that clang placed ahead of it, which the walk then paid on every page.
 */
static __always_inline struct proc_stats *proc_row(void)
{
	struct proc_stats *row;
	__u32 tgid;

	if (!per_process)
		return NULL;
	tgid = current_tgid();
	row = bpf_map_lookup_elem(&procs, &tgid);
	if (!row) {
		struct proc_stats zero = {};

		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&procs, &tgid, &zero, BPF_NOEXIST);
		row = bpf_map_lookup_elem(&procs, &tgid);
	}
	return row;
}

/* --per-cgroup: the current cgroup's row, created on first use. */
static __always_inline struct tally *cgroup_row(void)
{
	struct cgroup_stats *row;
	__u64 id;

	if (!per_cgroup)
		return NULL;
	id = bpf_get_current_cgroup_id();
	row = bpf_map_lookup_elem(&cgroups, &id);
	if (!row) {
		struct cgroup_stats zero = {};

		bpf_map_update_elem(&cgroups, &id, &zero, BPF_NOEXIST);
		row = bpf_map_lookup_elem(&cgroups, &id);
	}
	return row ? &row->t : NULL;
}

/* Rows are shared by all CPUs: add atomically. */
#define tally_add(t, field, n) do {					\
	if (t)								\
		__sync_fetch_and_add(&(t)->field, (n));			\
} while (0)

/*
 * -P and --per-cgroup: one call of @pages pages into a (calls, pages)
 * pair of the current process's and cgroup's rows, each looked up once.
 * Returns the process's row (NULL without -P).
 */
#define proc_count(calls, pages, n) ({					\
	struct proc_stats *__row = proc_row();				\
	struct tally *__cg = cgroup_row();				\
	if (__row) {							\
		tally_add(&__row->t, calls, 1);				\
		tally_add(&__row->t, pages, (n));			\
	}								\
	tally_add(__cg, calls, 1);					\
	tally_add(__cg, pages, (n));					\
	__row;								\
})

#endif /* __GUPSTAT_COMMON_BPF_H */
