/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_PRINT_H
#define __GUPSTAT_LIVE_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include "util/attach.h"
#include "live/snapshot.h"
#include "util/json.h"

/* The probes in report order; each histogram belongs to one. */
enum probe_id {
	P_WALK,		/* follow_page_pte */
	P_LOCK,		/* __pte_offset_map_lock, --lock-exact only */
	P_GUP,		/* __get_user_pages */
	P_GRAB,		/* try_grab_folio */
	P_UNPIN,	/* unpin_user_pages */
	P_UNPIN_DIRTY,	/* unpin_user_pages_dirty_lock */
	P_PUT,		/* gup_put_folio */
	P_FILL,		/* gup_fill_pages */
	NR_PROBES,
};

/* What a report needs to say besides the numbers. */
struct report_ctx {
	const struct probe *probes;	/* NR_PROBES of them */
	bool json;
	bool walk_returns_count;
	bool lock_exact;
	const char *event;		/* counter name, NULL without one */
};

void report_print(FILE *f, const struct report_ctx *rc,
		  const struct snapshot *s, const char *stamp);
void report_hist_summary(FILE *f, const struct hist *h, const char *unit);
/* One NDJSON record, {"type":TYPE,"data":{...}}: the caller fills data. */
void report_json_record(struct jw *w, const char *type);
void report_json_record_end(struct jw *w);

#endif /* __GUPSTAT_LIVE_PRINT_H */
