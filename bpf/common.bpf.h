/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every gupstat BPF object shares. The objects are linked into one
 * (bpftool gen object), so shared maps and settings are defined once, in
 * the file that defines GUPSTAT_DEFINE_SHARED (stats.bpf.c), and declared
 * extern everywhere else.
 */
#ifndef __GUPSTAT_COMMON_BPF_H
#define __GUPSTAT_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "gupstat.h"
#include "compat.bpf.h"

#ifdef GUPSTAT_DEFINE_SHARED
#define SHARED_MAP
#define SHARED_SETTING(type, name)	const volatile type name = 0
#else
#define SHARED_MAP			extern
#define SHARED_SETTING(type, name)	extern const volatile type name
#endif

/* Bound on tasks inside a traced call at once (entry state maps). */
#define MAX_INFLIGHT	10240

SHARED_SETTING(bool, filter_on);	/* count only filter_tgids */
SHARED_SETTING(__u64, filter_cgroup);	/* count only this cgroup (-c) */
SHARED_SETTING(bool, per_process);	/* -P: fill procs */
/*
 * gupstat trace: emit a ring-buffer record per walk (trace.bpf.h). Read-only
 * data, so for `live` the verifier removes the trace code as dead and the
 * walk costs what it did before.
 */
SHARED_SETTING(bool, trace_on);

SHARED_MAP struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_HISTS);
	__type(key, __u32);
	__type(value, struct hist);
} hists SEC(".maps");

SHARED_MAP struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct counters);
} counters SEC(".maps");

SHARED_MAP struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct proc_stats);
} procs SEC(".maps");

/* The wanted processes (tgids): -p PID, or a command and its children. */
SHARED_MAP struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u8);
} filter_tgids SEC(".maps");

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

static __always_inline bool task_wanted(void)
{
	if (filter_cgroup && bpf_get_current_cgroup_id() != filter_cgroup)
		return false;
	return !filter_on || tgid_wanted(current_tgid());
}

static __always_inline struct counters *counters_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

/* floor(log2(v)) + 1, and 0 for 0: the log2 slot of @v. */
static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 r = 0, shift;

	if (!v)
		return 0;
	shift = (v > 0xFFFFFFFF) << 5; v >>= shift; r |= shift;
	shift = (v > 0xFFFF) << 4; v >>= shift; r |= shift;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r + 1;
}

static __always_inline void hist_add(__u32 id, __u64 v)
{
	struct hist *h = bpf_map_lookup_elem(&hists, &id);
	__u64 slot;

	if (!h)
		return;
	if (id < HIST_FIRST_LOG2)
		slot = v > HIST_LINEAR_MAX ? HIST_LINEAR_MAX + 1 : v;
	else
		slot = log2_slot(v);
	/* Keep the bounds check on the register used as the index. */
	asm volatile("" : "+r"(slot));
	if (slot >= HIST_SLOTS)
		return;
	h->slots[slot]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

/*
 * The @n'th argument (from 0) of a kprobed function, or -1. All six are
 * read with constant offsets first: the verifier refuses a context
 * pointer moved by a variable amount, which a switch compiles into.
 * x86-64 passes the sixth in r9 (libbpf 1.1 has no PT_REGS_PARM6).
 */
static __always_inline long regs_arg(struct pt_regs *ctx, int n)
{
	long args[6] = {
		PT_REGS_PARM1(ctx), PT_REGS_PARM2(ctx), PT_REGS_PARM3(ctx),
		PT_REGS_PARM4(ctx), PT_REGS_PARM5(ctx),
#ifdef __TARGET_ARCH_x86
		ctx->r9,
#else
		-1,
#endif
	};

	if (n < 0 || n >= 6)
		return -1;
	return args[n];
}

/*
 * The @n'th argument of a function under fentry/fexit, or @dflt when
 * there is none (@n < 0, or beyond the function's arguments).
 */
static __always_inline __u64 func_arg(void *ctx, int n, __u64 dflt)
{
	__u64 v;

	if (n < 0 || bpf_get_func_arg(ctx, n, &v))
		return dflt;
	return v;
}

/* -P: the current process's row, created on first use. */
static __always_inline struct proc_stats *proc_row(void)
{
	struct proc_stats zero = {}, *row;
	__u32 tgid = current_tgid();

	if (!per_process)
		return NULL;
	row = bpf_map_lookup_elem(&procs, &tgid);
	if (row)
		return row;
	bpf_get_current_comm(zero.comm, sizeof(zero.comm));
	bpf_map_update_elem(&procs, &tgid, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&procs, &tgid);
}

/*
 * -P: one call of @pages pages into a (calls, pages) pair of the current
 * process's row, looked up once. Rows are shared by all CPUs: add
 * atomically. Returns the row (NULL without -P).
 */
#define proc_count(calls, pages, n) ({					\
	struct proc_stats *__row = proc_row();				\
	if (__row) {							\
		__sync_fetch_and_add(&__row->calls, 1);			\
		__sync_fetch_and_add(&__row->pages, (n));		\
	}								\
	__row;								\
})

#endif /* __GUPSTAT_COMMON_BPF_H */
