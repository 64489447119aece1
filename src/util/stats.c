// SPDX-License-Identifier: GPL-2.0
/* Sorting and percentiles (stats.h). */
#include <stdlib.h>
#include "util/stats.h"

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort_u64(__u64 *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

void stats_sort_double(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

/*
 * Where percentile @p of @n values lies: the index of the value below
 * it, and how far (0..1) towards the next one.
 */
static size_t position(size_t n, unsigned int p, enum stats_rule rule, double *frac)
{
	size_t rank;
	double pos;

	if (p > 100)
		p = 100;
	*frac = 0;
	if (rule == STATS_NEAREST_RANK) {
		rank = ((__u64)n * p + 99) / 100;
		return rank ? rank - 1 : 0;
	}
	pos = (double)p * (n - 1) / 100;
	rank = (size_t)pos;
	if (rank >= n - 1)
		return n - 1;
	*frac = pos - rank;
	return rank;
}

double stats_quantile(const double *sorted, size_t n, unsigned int p, enum stats_rule rule)
{
	double frac;
	size_t i;

	if (!n)
		return 0;
	i = position(n, p, rule, &frac);
	return frac ? sorted[i] + frac * (sorted[i + 1] - sorted[i]) : sorted[i];
}

size_t stats_rank_index(size_t n, unsigned int p)
{
	double frac;

	return position(n, p, STATS_NEAREST_RANK, &frac);
}

__u64 stats_percentile(const __u64 *sorted, size_t n, unsigned int p)
{
	double frac;

	return n ? sorted[position(n, p, STATS_NEAREST_RANK, &frac)] : 0;
}
