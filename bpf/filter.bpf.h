/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which tasks gupstat counts: every task, or a set of processes: -p PID
 * (that process), or `-- COMMAND` (the command and every process it
 * forks, as perf does: gup_test run by a wrapper still counts).
 */
#ifndef __GUPSTAT_FILTER_BPF_H
#define __GUPSTAT_FILTER_BPF_H

#define FILTER_MAX_TGIDS	4096

const volatile bool filter_on = false;

/* The wanted process IDs (tgids); user space seeds it before attaching. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FILTER_MAX_TGIDS);
	__type(key, __u32);
	__type(value, __u8);
} filter_tgids SEC(".maps");

static __always_inline bool tgid_wanted(__u32 tgid)
{
	return bpf_map_lookup_elem(&filter_tgids, &tgid) != NULL;
}

static __always_inline bool task_wanted(void)
{
	return !filter_on || tgid_wanted(bpf_get_current_pid_tgid() >> 32);
}

/*
 * Loaded only for `-- COMMAND`. The forking task is current, so its tgid
 * is the parent process even when a non-main thread forks.
 */
SEC("tracepoint/sched/sched_process_fork")
int filter_fork(struct trace_event_raw_sched_process_fork *ctx)
{
	__u32 child = ctx->child_pid;
	__u8 one = 1;

	if (tgid_wanted(bpf_get_current_pid_tgid() >> 32))
		bpf_map_update_elem(&filter_tgids, &child, &one, BPF_NOEXIST);
	return 0;
}

#endif /* __GUPSTAT_FILTER_BPF_H */
