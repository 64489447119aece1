// SPDX-License-Identifier: GPL-2.0
/*
 * report --folded: tracefile/folded.c's lines, held to the report's own
 * summary, so that a file that changed between the two readings is
 * refused rather than folded into numbers the report does not show.
 */
#include "report/export.h"
#include "tracefile/folded.h"

int export_folded(FILE *f, struct trace_file *tf, const struct trace_summary *s,
		  enum folded_weight weight, bool by_address)
{
	struct folded_totals want = { .holds = s ? s->n : 0, .ns = s ? s->hold_total_ns : 0 };
	struct folded_how how = { .weight = weight, .by_address = by_address };

	if (s && weight == FOLDED_WAITS)
		want = (struct folded_totals){ .holds = s->nr_waits, .ns = s->wait_total_ns };
	return folded_write(f, tf, s ? &want : NULL, &how);
}

int export_folded_ns(FILE *f, struct trace_file *tf, const struct trace_summary *s)
{
	return export_folded(f, tf, s, FOLDED_NS, false);
}
