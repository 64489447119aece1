/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_SELECT_H
#define __GUPSTAT_REPORT_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "tracefile/reader.h"

/*
 * Exact order statistics of a trace of any length in bounded memory: a
 * distribution's values are kept while there are at most SEL_KEEP_MAX
 * of them (then sorted, as for any small trace); past that they are
 * dropped and each wanted rank is found by re-reading the file, each
 * pass narrowing the rank's range 65536-fold (at most four passes).
 */
#define SEL_KEEP_MAX	(1U << 20)	/* 8 MB of values per distribution */

/* Which value of a record: as a key whose order is the value's order. */
enum sel_kind {
	SEL_HOLD,		/* hold_ns */
	SEL_BARE,		/* hold_ns - fill_ns, holds with a fill */
	SEL_SHARE,		/* fill_ns / hold_ns as a double's bits, same */
	SEL_WAIT,		/* a wait's wait_ns (--waits) */
	NR_SEL_KINDS,
};

/* The key of @r for @kind, or false when @r has none (no fill, a wait). */
bool sel_key(enum sel_kind kind, const struct trace_rec *r, __u64 *key);

/* One distribution's keys as they are read. */
struct sel_values {
	__u64 *v;		/* NULL once spilled */
	size_t n, cap;
	bool spilled;		/* more than SEL_KEEP_MAX: v was dropped */
	__u64 min, max;
	long double sum;
};

/* 0, or -ENOMEM. */
int sel_add(struct sel_values *x, __u64 key);
void sel_free(struct sel_values *x);

/* The key at sorted index @idx of @kind, to be found in the file. */
struct sel_rank {
	enum sel_kind kind;
	size_t idx;
	__u64 lo, hi;		/* it is in [lo, hi]: start with min, max */
	size_t below;		/* keys below lo */
	__u64 *out;
};

/* Resolve every rank in @q: 0, -ENOMEM, or the reader's error. */
int sel_ranks(struct trace_file *tf, struct sel_rank *q, size_t nq);

#endif /* __GUPSTAT_REPORT_SELECT_H */
