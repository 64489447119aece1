/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_CGROUPS_H
#define __GUPSTAT_REPORT_CGROUPS_H

#include <stddef.h>
#include <linux/types.h>
#include "tracefile/reader.h"
#include "util/idarray.h"

/* The holds of one cgroup. */
struct cg_tally {
	__u64 id;
	__u64 holds, pages, hold_ns;
};

/* Per cgroup: an id_array of struct cg_tally. */
struct cg_tallies {
	struct id_array a;
};

void cg_tally_init(struct cg_tallies *t);
/* Count hold @r in its cgroup's tally: 0 or -ENOMEM. */
int cg_tally_add(struct cg_tallies *t, const struct trace_rec *r);
/* The tallies, most holds first (ties: ascending ids). */
void cg_tally_sort(struct cg_tallies *t);
void cg_tally_free(struct cg_tallies *t);
static inline size_t cg_tally_nr(const struct cg_tallies *t)
{
	return t->a.n;
}
static inline const struct cg_tally *cg_tally_at(const struct cg_tallies *t, size_t i)
{
	return id_array_at(&t->a, i);
}

#endif /* __GUPSTAT_REPORT_CGROUPS_H */
