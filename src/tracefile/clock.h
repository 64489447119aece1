/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_CLOCK_H
#define __GUPSTAT_TRACEFILE_CLOCK_H

/*
 * The clocks a trace's timestamps may be on (gt_header.clock_id, a
 * clockid_t): what report, report -j and the Perfetto export call them,
 * so that a reader lines the holds up with ftrace, perf and bpftrace of
 * the same boot. A clock not named here is refused by the reader.
 */

/* "CLOCK_MONOTONIC", "CLOCK_BOOTTIME"; NULL for a clock gupstat does not know. */
const char *trace_clock_name(unsigned int clock_id);
/* The BPF helper that reads it in the kernel, e.g. "bpf_ktime_get_ns()"; NULL if unknown. */
const char *trace_clock_helper(unsigned int clock_id);

#endif /* __GUPSTAT_TRACEFILE_CLOCK_H */
