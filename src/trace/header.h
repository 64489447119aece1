/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACE_HEADER_H
#define __GUPSTAT_TRACE_HEADER_H

#include <stdbool.h>
#include <time.h>
#include "probe/probes.h"
#include "trace/options.h"
#include "tracefile/writer.h"

/* What the header describes: the options and what attached how. */
struct trace_setup {
	const struct trace_opts *o;
	const struct probe *probes;	/* NR_PROBES */
	const struct btf *btf;
	bool returns_count;		/* the batched walk's prototype */
};

/* Write the header, with the start time (CLOCK_MONOTONIC and realtime). */
void trace_header_write(struct trace_writer *w, const struct trace_setup *t);
__u64 trace_now_ns(clockid_t clock);

#endif /* __GUPSTAT_TRACE_HEADER_H */
