// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat trace: the cgroup table. The kernel gives each hold its
 * cgroup's id only (bpf_get_current_cgroup_id()); the path is looked up
 * (kernel/cgpath.c) when an id is first seen, so that a cgroup removed
 * before the trace ends is still named in the file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/cgpath.h"
#include "trace/cgroups.h"

int trace_cgroups_init(struct trace_cgroups *t)
{
	memset(t, 0, sizeof(*t));
	id_array_init(&t->ids, sizeof(__u64));
	t->paths = cgpath_new(NULL);
	return t->paths ? 0 : -ENOMEM;
}

void trace_cgroups_free(struct trace_cgroups *t)
{
	cgpath_free(t->paths);
	id_array_free(&t->ids);
	t->paths = NULL;
}

void trace_cgroups_seen(struct trace_cgroups *t, __u64 id)
{
	if (!id || id == t->last)
		return;
	t->last = id;
	/* Out of memory: the hold keeps its id, the table lacks its path. */
	if (!id_array_get(&t->ids, id))
		return;
	/* Kept once found; a miss rescans the mount at most once a second. */
	cgpath_lookup(t->paths, id);
}

void trace_cgroups_write(struct trace_cgroups *t, struct trace_writer *w)
{
	size_t i;

	for (i = 0; i < t->ids.n; i++) {
		__u64 id = *(__u64 *)id_array_at(&t->ids, i);

		trace_writer_cgroup(w, id, cgpath_lookup(t->paths, id));
	}
}
