/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_PRINT_H
#define __GUPSTAT_LIVE_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "probe/catalog.h"
#include "probe/probes.h"
#include "probe/snapshot.h"
#include "util/json.h"

/*
 * When a report was taken, read once for all its records: "time" is
 * CLOCK_REALTIME (RFC 3339, UTC), "ts_ns" CLOCK_MONOTONIC, the clock of
 * bpf_ktime_get_ns() and of trace files' holds, so that a report lines up
 * with a trace of the same boot. -T prints the realtime one, local.
 */
struct live_stamp {
	__u64 realtime_ns;
	__u64 mono_ns;
	bool text;		/* -T: HH:MM:SS above a text report */
};

void live_stamp_now(struct live_stamp *t, bool text);

/* What a report needs besides the numbers: the view, and in which format. */
struct live_print_ctx {
	const struct catalog_view *v;
	bool json;
};

void live_print(FILE *f, const struct live_print_ctx *rc,
		const struct snapshot *s, const struct live_stamp *t);
/* NDJSON's "end" record, after the -P and --per-cgroup tables' records. */
void live_print_end(FILE *f, const struct live_print_ctx *rc, const struct live_stamp *t);
void live_print_hist_summary(FILE *f, const struct hist *h, const char *unit);
/*
 * One NDJSON record, {"type":TYPE,"time":...,"ts_ns":...,"data":{...}}:
 * the caller fills data (docs/schemas/live.schema.json).
 */
void live_print_json_record(struct jw *w, const char *type, const struct live_stamp *t);
void live_print_json_record_end(struct jw *w);

#endif /* __GUPSTAT_LIVE_PRINT_H */
