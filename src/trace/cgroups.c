// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat trace: the cgroup table. The kernel gives each hold its
 * cgroup's id only (bpf_get_current_cgroup_id()); the path is looked up
 * (util/cgpath.c) when an id is first seen, so that a cgroup removed
 * before the trace ends is still named in the file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trace/cgroups.h"
#include "util/cgpath.h"

int trace_cgroups_init(struct trace_cgroups *t)
{
	memset(t, 0, sizeof(*t));
	t->paths = cgpath_new(NULL);
	return t->paths ? 0 : -ENOMEM;
}

void trace_cgroups_free(struct trace_cgroups *t)
{
	cgpath_free(t->paths);
	free(t->ids);
	memset(t, 0, sizeof(*t));
}

/* Where @id is or would go in t->ids. */
static size_t find(const struct trace_cgroups *t, __u64 id)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert(struct trace_cgroups *t, size_t at, __u64 id)
{
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		__u64 *ids = realloc(t->ids, cap * sizeof(*ids));

		if (!ids)
			return -ENOMEM;
		t->ids = ids;
		t->cap = cap;
	}
	memmove(&t->ids[at + 1], &t->ids[at], (t->nr - at) * sizeof(*t->ids));
	t->ids[at] = id;
	t->nr++;
	return 0;
}

void trace_cgroups_seen(struct trace_cgroups *t, __u64 id)
{
	size_t at;

	if (!id || id == t->last)
		return;
	t->last = id;
	at = find(t, id);
	/* Out of memory: the hold keeps its id, the table lacks its path. */
	if ((at == t->nr || t->ids[at] != id) && insert(t, at, id))
		return;
	/* Kept once found; a miss rescans the mount at most once a second. */
	cgpath_lookup(t->paths, id);
}

void trace_cgroups_write(struct trace_cgroups *t, struct trace_writer *w)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		trace_writer_cgroup(w, t->ids[i], cgpath_lookup(t->paths, t->ids[i]));
}
