// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the in-kernel aggregates: per-CPU values summed, then (for
 * intervals) zeroed, so each report covers its interval alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "gupstat.skel.h"
#include "probe/snapshot.h"

/*
 * The programs keep no count (bpf/common.bpf.h's hist_add()): every
 * value lands in a slot, so the count is the slots' sum.
 */
void snapshot_merge_hist(struct hist *sum, const struct hist *h)
{
	int i;

	sum->sum += h->sum;
	if (h->max > sum->max)
		sum->max = h->max;
	for (i = 0; i < HIST_SLOTS; i++) {
		sum->slots[i] += h->slots[i];
		sum->count += h->slots[i];
	}
}

void snapshot_merge_counters(struct counters *sum, const struct counters *c)
{
	const __u64 *src = (const __u64 *)c;
	__u64 *dst = (__u64 *)sum;
	size_t i;

	/* struct counters is nothing but __u64 fields. */
	for (i = 0; i < sizeof(*c) / sizeof(__u64); i++)
		dst[i] += src[i];
}

static int percpu_zero(int fd, __u32 key, size_t size, int ncpu)
{
	void *zero = calloc(ncpu, size);
	int err = 0;

	if (!zero)
		return -ENOMEM;
	if (bpf_map_update_elem(fd, &key, zero, BPF_EXIST))
		err = -errno;
	free(zero);
	return err;
}

/*
 * Read key @key of per-CPU array @map into @percpu (ncpu values of @size)
 * and, with @reset, zero it. A value that changes between the read and
 * the reset is lost to both intervals; the window is one syscall.
 */
static int percpu_read(const struct bpf_map *map, __u32 key, void *percpu,
		       size_t size, int ncpu, bool reset)
{
	int fd = bpf_map__fd(map);

	if (bpf_map_lookup_elem(fd, &key, percpu))
		return -errno;
	return reset ? percpu_zero(fd, key, size, ncpu) : 0;
}

/* The walk's own two histograms, kept apart (struct walk_hists). */
static int walk_hists_read(struct snapshot *s, const struct bpf_map *map,
			   struct walk_hists *w, int ncpu, bool reset)
{
	int cpu, err = percpu_read(map, 0, w, sizeof(*w), ncpu, reset);

	for (cpu = 0; !err && cpu < ncpu; cpu++) {
		snapshot_merge_hist(&s->hists[H_WALK_HOLD_NS], &w[cpu].hold);
		snapshot_merge_hist(&s->hists[H_WALK_PAGES], &w[cpu].pages);
	}
	return err;
}

static int counters_read(struct snapshot *s, const struct bpf_map *map,
			 struct counters *c, int ncpu, bool reset)
{
	int cpu, err = percpu_read(map, 0, c, sizeof(*c), ncpu, reset);

	for (cpu = 0; !err && cpu < ncpu; cpu++)
		snapshot_merge_counters(&s->c, &c[cpu]);
	/* The walk counts no WALK_PAGES result: its pages histogram does. */
	s->c.walk_results[WALK_PAGES] = s->hists[H_WALK_PAGES].count;
	return err;
}

int snapshot_read(struct snapshot *s, const struct gupstat_bpf *skel, bool reset)
{
	int ncpu = libbpf_num_possible_cpus(), cpu, err = 0;
	struct hist *h;
	__u32 id;

	if (ncpu < 0)
		return ncpu;
	memset(s, 0, sizeof(*s));
	_Static_assert(sizeof(struct walk_hists) >= sizeof(struct hist) &&
		       sizeof(struct walk_hists) >= sizeof(struct counters),
		       "snapshot_read()'s buffer holds every value it reads");
	/* One buffer, as large as the largest per-CPU value read. */
	h = calloc(ncpu, sizeof(struct walk_hists));
	if (!h)
		return -ENOMEM;
	for (id = 0; !err && id < NR_HISTS; id++) {
		if (id == H_WALK_HOLD_NS || id == H_WALK_PAGES)
			continue;
		err = percpu_read(skel->maps.hists, id, h, sizeof(*h), ncpu, reset);
		for (cpu = 0; !err && cpu < ncpu; cpu++)
			snapshot_merge_hist(&s->hists[id], &h[cpu]);
	}
	if (!err)
		err = walk_hists_read(s, skel->maps.walk_hists, (struct walk_hists *)h, ncpu,
				      reset);
	if (!err)
		err = counters_read(s, skel->maps.counters, (struct counters *)h, ncpu, reset);
	free(h);
	return err;
}
