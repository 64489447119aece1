/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_SETUP_H
#define __GUPSTAT_PROBE_SETUP_H

#include <stdarg.h>
#include <stdbool.h>
#include <linux/types.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

struct gupstat_bpf;

/* What the BPF programs are told before they load (read-only data). */
struct setup_cfg {
	bool filter_on;		/* -p PID or a COMMAND: filter_tgids */
	bool follow_forks;	/* a COMMAND: follow its children */
	__u64 cgroup_id;	/* -c */
	bool cgroup_exact;	/* --cgroup-exact: not its descendants */
	bool per_process;	/* -P */
	bool per_cgroup;	/* --per-cgroup */
	bool walk_returns_count; /* setup_walk_shape() */
	bool lock_exact;	/* --lock-exact */
	bool waits;		/* --waits */
	bool pmu_on;		/* a counter per call */
	/* gupstat trace: */
	bool trace;
	__u64 trace_min_ns;
	__u32 ringbuf_bytes;	/* a power of two, at least a page */
	__u32 wakeup_bytes;	/* wake the reader at this much; 0: every record */
	bool stacks;		/* a stack id per record */
	__u64 stack_min_ns;	/* ... for holds this long or longer */
	__u32 stack_entries;
};

int setup_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args);
int setup_walk_shape(const struct btf *btf, bool *returns_count);
void setup_rodata(struct gupstat_bpf *skel, const struct btf *btf,
		  const struct setup_cfg *c);
int setup_filter_seed(struct gupstat_bpf *skel, __u32 pid, int cgroup_fd);

#endif /* __GUPSTAT_PROBE_SETUP_H */
