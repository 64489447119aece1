/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_STATS_H
#define __GUPSTAT_UTIL_STATS_H

#include <stddef.h>
#include <linux/types.h>

/*
 * Percentiles, for report (thousands of holds) and validate (15
 * repeats), in one place. Two rules, chosen by what the number is for:
 *
 * STATS_NEAREST_RANK: the smallest value with at least p% of the values
 *	at or below it. Always a value that occurred: report's "p99 5123
 *	ns" is a hold one can find in the trace.
 * STATS_INTERPOLATE: linear between the two values around p% of the way
 *	from the first to the last (numpy's and R's default). With 15
 *	repeats, p25 and p75 then move with every sample rather than jump
 *	from one to the next, which is what compare's overlap test needs.
 */
enum stats_rule { STATS_NEAREST_RANK, STATS_INTERPOLATE };

void stats_sort_u64(__u64 *v, size_t n);
void stats_sort_double(double *v, size_t n);

/* Percentile @p (0-100) of @n sorted values; 0 when @n is 0. */
double stats_quantile(const double *sorted, size_t n, unsigned int p, enum stats_rule rule);
/* The same, nearest rank, of integers: exact, with no trip through double. */
__u64 stats_percentile(const __u64 *sorted, size_t n, unsigned int p);
/* Where stats_percentile() finds percentile @p of @n (> 0) values. */
size_t stats_rank_index(size_t n, unsigned int p);

#endif /* __GUPSTAT_UTIL_STATS_H */
