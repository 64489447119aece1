/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_FOLDED_H
#define __GUPSTAT_TRACEFILE_FOLDED_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "tracefile/reader.h"
#include "util/output.h"

/*
 * A trace's holds per kernel stack, folded for flame graphs: what
 * `gupstat report --folded` exports and `gupstat trace --folded` writes
 * when its own file is finished.
 */

/* What a line weighs. */
enum folded_weight {
	FOLDED_NS,		/* the holds' time */
	FOLDED_HOLDS,		/* their number */
	FOLDED_WAITS,		/* the waiters' stacks, by time spun (--waits) */
};

/*
 * Why @tf cannot be folded by @weight (written with --no-stacks, or it
 * did not end cleanly and so has no stack table; by waits, traced
 * without --waits), or NULL when it can.
 */
const char *folded_refusal(const struct trace_file *tf, enum folded_weight weight);

/* What an earlier reading of the same file counted: holds, or waits. */
struct folded_totals {
	__u64 holds, ns;
};

/*
 * The lines, weighted by hold time in ns, by holds, or by wait time in
 * ns over the waits' stacks, into @f; the file is read again. With
 * @want, the holds (or waits) read must add up to it, or nothing is
 * printed and tf->err says the file changed. 0, or -errno.
 */
int folded_write(FILE *f, struct trace_file *tf, const struct folded_totals *want,
		 enum folded_weight weight);

/*
 * The finished trace at @path folded by hold time into @out (opened by
 * the caller, committed or discarded here), or to stdout when @out is
 * NULL. 0, or -errno after one line.
 */
int folded_file(const char *path, struct output *out);

#endif /* __GUPSTAT_TRACEFILE_FOLDED_H */
