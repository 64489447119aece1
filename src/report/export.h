/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_EXPORT_H
#define __GUPSTAT_REPORT_EXPORT_H

#include <stdio.h>
#include "report/summary.h"
#include "tracefile/folded.h"
#include "tracefile/reader.h"

/*
 * gupstat report's exports, each to a stream (the caller opens the file):
 * Chrome/Perfetto trace-event JSON with one "X" slice per hold, for a
 * timeline in ui.perfetto.dev or chrome://tracing; a self-contained
 * SVG of the hold-time distribution; and the holds per kernel stack,
 * folded, for flame graphs (folded.c).
 */
/*
 * 0, or -errno; an error of the trace file's, read again, is in tf->err.
 * The Perfetto export reads every record again (a trace is a regular
 * file); the plot is drawn from the summary alone.
 */
int export_perfetto(FILE *f, struct trace_file *tf, const struct trace_summary *s);
int export_plot(FILE *f, struct trace_file *tf, const struct trace_summary *s);
/*
 * Weighted by hold time in ns, or by holds; the lines add up to the
 * summary's hold_total_ns, or n (checked; @s NULL checks nothing, for a
 * file read here alone); or the waiters' stacks by time spun, adding up
 * to wait_total_ns. Frames by function, or @by_address as the file has
 * them. The file is read again.
 */
int export_folded(FILE *f, struct trace_file *tf, const struct trace_summary *s,
		  enum folded_weight weight, bool by_address);
/* By hold time, by function: what a plain --folded writes. */
int export_folded_ns(FILE *f, struct trace_file *tf, const struct trace_summary *s);

#endif /* __GUPSTAT_REPORT_EXPORT_H */
