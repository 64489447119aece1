// SPDX-License-Identifier: GPL-2.0
/* Histogram printing: linear for small counts, log2 for times. */
#include <stdbool.h>
#include <string.h>
#include "util/hist.h"

#define BAR_WIDTH	40

void hist_bar(char *buf, __u64 val, __u64 max, int width)
{
	int n = max ? (int)(val * width / max) : 0;

	/* A non-zero count always shows, so rare buckets are not hidden. */
	if (val && !n)
		n = 1;
	memset(buf, '*', n);
	memset(buf + n, ' ', width - n);
	buf[width] = '\0';
}

/*
 * Find the non-empty span [*lo, *hi] and the largest count, and print the
 * header row (@width: the value column's). False when there is nothing.
 */
static bool hist_head(FILE *f, const char *unit, int width, const __u64 *slots,
		      int nr, int *lo, int *hi, __u64 *max)
{
	int i;

	*lo = -1;
	*hi = -1;
	*max = 0;
	for (i = 0; i < nr; i++) {
		if (!slots[i])
			continue;
		if (*lo < 0)
			*lo = i;
		*hi = i;
		if (slots[i] > *max)
			*max = slots[i];
	}
	fprintf(f, "     %-*s : %s\n", width, unit,
		*lo < 0 ? "(no events)" : "count    distribution");
	return *lo >= 0;
}

/* Slot i counts the value first + i; the last slot holds everything above. */
void hist_print_linear(FILE *f, const char *unit, const __u64 *slots,
		       int nr_slots, int first)
{
	char bar[BAR_WIDTH + 1];
	int i, lo, hi;
	__u64 max;

	if (!hist_head(f, unit, 13, slots, nr_slots, &lo, &hi, &max))
		return;
	for (i = lo; i <= hi; i++) {
		hist_bar(bar, slots[i], max, BAR_WIDTH);
		if (i == nr_slots - 1)
			fprintf(f, "        >= %-7d : %-8llu |%s|\n", first + i,
				(unsigned long long)slots[i], bar);
		else
			fprintf(f, "        %-10d : %-8llu |%s|\n", first + i,
				(unsigned long long)slots[i], bar);
	}
}

/*
 * Slot i counts values in [2^(i-1), 2^i - 1]; slot 0 counts zero. Rows
 * run from the first non-empty slot to the last, as bpftrace prints them.
 */
void hist_print_log2(FILE *f, const char *unit, const __u64 *slots,
		     int nr_slots)
{
	char bar[BAR_WIDTH + 1];
	int i, lo, hi;
	__u64 max;

	if (!hist_head(f, unit, 19, slots, nr_slots, &lo, &hi, &max))
		return;
	for (i = lo; i <= hi; i++) {
		unsigned long long low = i ? 1ULL << (i - 1) : 0;
		unsigned long long high = i ? (1ULL << i) - 1 : 0;

		hist_bar(bar, slots[i], max, BAR_WIDTH);
		fprintf(f, "%10llu -> %-10llu : %-8llu |%s|\n", low, high,
			(unsigned long long)slots[i], bar);
	}
}
