/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by gupstat's BPF programs and its user space: fixed-width
 * only, so both sides agree on the layout byte for byte.
 */
#ifndef __GUPSTAT_H
#define __GUPSTAT_H

/*
 * What one follow_page_pte() call returned. Base 6.12 returns a struct
 * page * (one page), NULL when a fault is needed, or an ERR_PTR; the
 * batched kernel returns a page count, 0 or -errno. Both map onto these.
 */
enum walk_result {
	WALK_PAGES,		/* one or more pages looked up */
	WALK_NEED_FAULT,	/* NULL / 0: the caller must fault it in */
	WALK_EMLINK,		/* -EMLINK: shared anon page needs unsharing */
	WALK_EEXIST,		/* -EEXIST: pfn-special mapping, no page */
	WALK_EFAULT,		/* -EFAULT */
	WALK_EOTHER,		/* any other -errno */
	WALK_NR_RESULTS,
};

/* Linear slots for pages per call: 1..WALK_BATCH_SLOTS-1, last is ">=". */
#define WALK_BATCH_SLOTS	(512 + 1)

struct walk_stats {
	__u64 calls;
	__u64 pages;
	__u64 results[WALK_NR_RESULTS];
	__u64 batch[WALK_BATCH_SLOTS];	/* pages per successful call */
};

#endif /* __GUPSTAT_H */
