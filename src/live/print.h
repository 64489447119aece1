/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_PRINT_H
#define __GUPSTAT_LIVE_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include "probe/catalog.h"
#include "probe/probes.h"
#include "probe/snapshot.h"
#include "util/json.h"

/* What a report needs besides the numbers: the view, and in which format. */
struct live_print_ctx {
	struct catalog_view v;
	bool json;
};

void live_print(FILE *f, const struct live_print_ctx *rc,
		  const struct snapshot *s, const char *stamp);
void live_print_hist_summary(FILE *f, const struct hist *h, const char *unit);
/* One NDJSON record, {"type":TYPE,"data":{...}}: the caller fills data. */
void live_print_json_record(struct jw *w, const char *type);
void live_print_json_record_end(struct jw *w);

#endif /* __GUPSTAT_LIVE_PRINT_H */
