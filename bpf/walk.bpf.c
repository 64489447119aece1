// SPDX-License-Identifier: GPL-2.0
/*
 * The page-table walk: one follow_page_pte() return is one lookup of a
 * run of PTEs (one PTE on base 6.12). Counts calls, pages and returns by
 * kind into a per-CPU map; nothing goes to user space per event.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "compat.bpf.h"
#include "filter.bpf.h"

/* Set from the kernel's BTF prototype of follow_page_pte(). */
const volatile bool walk_returns_count = false;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct walk_stats);
} walk_stats SEC(".maps");

static __always_inline void walk_record(__u64 ret)
{
	enum walk_result res;
	struct walk_stats *st;
	__u32 zero = 0;
	long pages;

	if (!task_wanted())
		return;
	st = bpf_map_lookup_elem(&walk_stats, &zero);
	if (!st)
		return;
	pages = walk_ret_pages(ret, walk_returns_count, &res);
	st->calls++;
	if (res >= WALK_NR_RESULTS)
		return;
	st->results[res]++;
	if (res != WALK_PAGES)
		return;
	st->pages += pages;
	if (pages >= WALK_BATCH_SLOTS)
		pages = WALK_BATCH_SLOTS - 1;
	st->batch[pages]++;
}

SEC("fexit/follow_page_pte")
int walk_fexit(unsigned long long *ctx)
{
	__u64 ret = 0;

	/* The return slot moves with the argument count; the helper knows. */
	bpf_get_func_ret(ctx, &ret);
	walk_record(ret);
	return 0;
}

SEC("kretprobe/follow_page_pte")
int BPF_KRETPROBE(walk_kretprobe, long ret)
{
	walk_record(ret);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
