/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_FOLDED_H
#define __GUPSTAT_TRACEFILE_FOLDED_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "tracefile/reader.h"
#include "tracefile/srclines.h"
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

/*
 * How a file is folded: by what weight, whether one function's frames
 * at different offsets stay apart (--folded-by address), and for
 * folded_file(), where its frames' source lines come from (NULL: none).
 */
struct folded_how {
	enum folded_weight weight;
	bool by_address;
	srclines_fn lines;
	void *lines_ctx;
};

/* What an earlier reading of the same file counted: holds, or waits. */
struct folded_totals {
	__u64 holds, ns;
};

/*
 * The lines, weighted by hold time in ns, by holds, or by wait time in
 * ns over the waits' stacks, into @f; the file is read again. A frame
 * is its function (an inlined one its own frame), or with by_address
 * its "symbol+0xoffset". With
 * @want, the holds (or waits) read must add up to it, or nothing is
 * printed and tf->err says the file changed. 0, or -errno.
 */
int folded_write(FILE *f, struct trace_file *tf, const struct folded_totals *want,
		 const struct folded_how *how);

/*
 * The finished trace at @path folded by hold time (@how's weight is
 * not read), its frames through how->lines when set, into @out (opened by
 * the caller, committed or discarded here), or to stdout when @out is
 * NULL. 0, or -errno after one line.
 */
int folded_file(const char *path, struct output *out, const struct folded_how *how);

#endif /* __GUPSTAT_TRACEFILE_FOLDED_H */
