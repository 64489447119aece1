// SPDX-License-Identifier: GPL-2.0
/* The process filter's fork follower (filter_tgids, shared.bpf.h). */
#include "common.bpf.h"

/*
 * Loaded only for `gupstat -- COMMAND` (src/probe/setup.c): the command
 * and every process it forks are counted, as perf does (gup_test run by
 * a wrapper still counts). The forking task is current, so its tgid is the parent process
 * even when a non-main thread forks.
 */
SEC("?tracepoint/sched/sched_process_fork")
int filter_fork(struct trace_event_raw_sched_process_fork *ctx)
{
	__u32 child = ctx->child_pid;
	__u8 one = 1;

	if (tgid_wanted(current_tgid()))
		bpf_map_update_elem(&filter_tgids, &child, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
