// SPDX-License-Identifier: GPL-2.0
/* The follow_page_pte() numbers: summed over CPUs, then printed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "hist.h"
#include "walk.h"

static void walk_stats_add(struct walk_stats *sum, const struct walk_stats *st)
{
	int i;

	sum->calls += st->calls;
	sum->pages += st->pages;
	for (i = 0; i < WALK_NR_RESULTS; i++)
		sum->results[i] += st->results[i];
	for (i = 0; i < WALK_BATCH_SLOTS; i++)
		sum->batch[i] += st->batch[i];
}

int walk_stats_read(int map_fd, struct walk_stats *sum)
{
	int ncpu = libbpf_num_possible_cpus(), i, err = 0;
	struct walk_stats *percpu;
	__u32 zero = 0;

	if (ncpu < 0)
		return ncpu;
	percpu = calloc(ncpu, sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	memset(sum, 0, sizeof(*sum));
	if (bpf_map_lookup_elem(map_fd, &zero, percpu))
		err = -errno;
	for (i = 0; !err && i < ncpu; i++)
		walk_stats_add(sum, &percpu[i]);
	free(percpu);
	return err;
}

void walk_stats_print(FILE *f, const struct walk_stats *st,
		      const char *method, bool returns_count)
{
	const __u64 *r = st->results;

	fprintf(f, "follow_page_pte() via %s, returning %s\n", method,
		returns_count ? "a page count (batched walk)" :
				"struct page * (one page per call)");
	fprintf(f, "calls %llu, pages %llu, avg %.2f pages/call\n",
		(unsigned long long)st->calls, (unsigned long long)st->pages,
		st->calls ? (double)st->pages / st->calls : 0.0);
	/* Slot 0 cannot hold a successful call: print from 1 page up. */
	hist_print_linear(f, "pages/call", st->batch + 1,
			  WALK_BATCH_SLOTS - 1, 1);
	fprintf(f, "no page: fault-needed %llu, -EMLINK %llu, -EEXIST %llu, -EFAULT %llu, other %llu\n",
		(unsigned long long)r[WALK_NEED_FAULT],
		(unsigned long long)r[WALK_EMLINK],
		(unsigned long long)r[WALK_EEXIST],
		(unsigned long long)r[WALK_EFAULT],
		(unsigned long long)r[WALK_EOTHER]);
}
