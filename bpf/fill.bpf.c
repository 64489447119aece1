// SPDX-License-Identifier: GPL-2.0
/*
 * gup_fill_pages(): the pages[] fill the batched series factors out of
 * __get_user_pages(). Absent on base 6.12, where it is skipped. Its page
 * count argument is found by name in the kernel's BTF (fill_nr_arg, -1
 * when there is none), so no prototype is assumed here.
 */
#include "common.bpf.h"

const volatile int fill_nr_arg = -1;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_INFLIGHT);
	__type(key, __u32);
	__type(value, __u64);
} fill_entries SEC(".maps");

static __always_inline void fill_enter(void)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tid = current_tid();

	if (task_wanted())
		bpf_map_update_elem(&fill_entries, &tid, &now, BPF_ANY);
}

/* @nr: the page count argument, or -1 where it cannot be read. */
static __always_inline void fill_exit(long nr)
{
	__u64 now = bpf_ktime_get_ns(), *start;
	__u32 tid = current_tid();

	start = bpf_map_lookup_elem(&fill_entries, &tid);
	if (!start)
		return;
	hist_add(H_FILL_NS, now - *start);
	if (nr >= 0)
		hist_add(H_FILL_PAGES, nr);
	bpf_map_delete_elem(&fill_entries, &tid);
}

SEC("fentry/gup_fill_pages")
int fill_fentry(void *ctx)
{
	fill_enter();
	return 0;
}

SEC("fexit/gup_fill_pages")
int fill_fexit(unsigned long long *ctx)
{
	__u64 nr = 0;

	if (fill_nr_arg < 0 || bpf_get_func_arg(ctx, fill_nr_arg, &nr))
		fill_exit(-1);
	else
		fill_exit(nr);
	return 0;
}

SEC("kprobe/gup_fill_pages")
int fill_kprobe(void *ctx)
{
	fill_enter();
	return 0;
}

/* A kretprobe cannot see arguments: time only. */
SEC("kretprobe/gup_fill_pages")
int fill_kretprobe(void *ctx)
{
	fill_exit(-1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
