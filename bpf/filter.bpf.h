/* SPDX-License-Identifier: GPL-2.0 */
/* Which tasks gupstat counts: everything, or one process (-p PID). */
#ifndef __GUPSTAT_FILTER_BPF_H
#define __GUPSTAT_FILTER_BPF_H

const volatile __u32 filter_tgid = 0;

static __always_inline bool task_wanted(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	return !filter_tgid || tgid == filter_tgid;
}

#endif /* __GUPSTAT_FILTER_BPF_H */
