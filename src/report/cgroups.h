/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_CGROUPS_H
#define __GUPSTAT_REPORT_CGROUPS_H

#include <stddef.h>
#include <linux/types.h>
#include "tracefile/reader.h"

/* The holds of one cgroup. */
struct cg_tally {
	__u64 id;
	__u64 holds, pages, hold_ns;
};

/* Per cgroup, ascending ids: memory grows with the cgroups, not the holds. */
struct cg_tallies {
	struct cg_tally *v;
	size_t n, cap;
	size_t last;		/* where the previous hold went: holds come in runs */
};

/* Count hold @r in its cgroup's tally: 0 or -ENOMEM. */
int cg_tally_add(struct cg_tallies *t, const struct trace_rec *r);
/* The tallies, most holds first (ties: ascending ids). */
void cg_tally_sort(struct cg_tallies *t);
void cg_tally_free(struct cg_tallies *t);

#endif /* __GUPSTAT_REPORT_CGROUPS_H */
