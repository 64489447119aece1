// SPDX-License-Identifier: GPL-2.0
/* Histogram printing: linear for small counts, log2 for times. */
#include <string.h>
#include "hist.h"

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

static __u64 slots_max(const __u64 *slots, int nr, int *lo, int *hi)
{
	__u64 max = 0;
	int i;

	*lo = -1;
	*hi = -1;
	for (i = 0; i < nr; i++) {
		if (!slots[i])
			continue;
		if (*lo < 0)
			*lo = i;
		*hi = i;
		if (slots[i] > max)
			max = slots[i];
	}
	return max;
}

/* Slot i counts the value first + i; the last slot holds everything above. */
void hist_print_linear(FILE *f, const char *unit, const __u64 *slots,
		       int nr_slots, int first)
{
	char bar[BAR_WIDTH + 1];
	int i, lo, hi;
	__u64 max = slots_max(slots, nr_slots, &lo, &hi);

	if (lo < 0) {
		fprintf(f, "     %-13s : (no events)\n", unit);
		return;
	}
	fprintf(f, "     %-13s : count    distribution\n", unit);
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

/* Slot i counts values in [2^(i-1), 2^i - 1]; slot 0 counts zero. */
void hist_print_log2(FILE *f, const char *unit, const __u64 *slots,
		     int nr_slots)
{
	char bar[BAR_WIDTH + 1];
	int i, lo, hi;
	__u64 max = slots_max(slots, nr_slots, &lo, &hi);

	if (lo < 0) {
		fprintf(f, "     %-19s : (no events)\n", unit);
		return;
	}
	fprintf(f, "     %-19s : count    distribution\n", unit);
	for (i = 0; i <= hi; i++) {
		unsigned long long low = i ? 1ULL << (i - 1) : 0;
		unsigned long long high = i ? (1ULL << i) - 1 : 0;

		hist_bar(bar, slots[i], max, BAR_WIDTH);
		fprintf(f, "%10llu -> %-10llu : %-8llu |%s|\n", low, high,
			(unsigned long long)slots[i], bar);
	}
}
