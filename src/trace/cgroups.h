/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACE_CGROUPS_H
#define __GUPSTAT_TRACE_CGROUPS_H

#include <stddef.h>
#include <linux/types.h>
#include "tracefile/writer.h"
#include "util/idarray.h"

/*
 * The cgroups the holds ran in, named as they first appear: a cgroup
 * removed before the trace ends keeps the path it had, and one removed
 * before it could be named has none (the report says "id:N").
 */
struct trace_cgroups {
	struct cgpath *paths;
	struct id_array ids;	/* of bare __u64 ids */
	__u64 last;		/* the previous record's: holds come in runs */
};

int trace_cgroups_init(struct trace_cgroups *t);
void trace_cgroups_free(struct trace_cgroups *t);
/* A hold ran in cgroup @id: remember it, and name it while it exists. */
void trace_cgroups_seen(struct trace_cgroups *t, __u64 id);
/* The cgroup table: every id seen that has a path, ascending. */
void trace_cgroups_write(struct trace_cgroups *t, struct trace_writer *w);

#endif /* __GUPSTAT_TRACE_CGROUPS_H */
