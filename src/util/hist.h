/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_HIST_H
#define __GUPSTAT_UTIL_HIST_H

#include <stdio.h>
#include <linux/types.h>

/*
 * Histogram text in the shape bcc's tools and bpftrace users know:
 *
 *      pages/call     : count     distribution
 *          1          : 16384    |****************************************|
 */
void hist_print_linear(FILE *f, const char *unit, const __u64 *slots,
		       int nr_slots, int first);
void hist_print_log2(FILE *f, const char *unit, const __u64 *slots,
		     int nr_slots);
void hist_bar(char *buf, __u64 val, __u64 max, int width);

#endif /* __GUPSTAT_UTIL_HIST_H */
