// SPDX-License-Identifier: GPL-2.0
/* Percentiles, histograms and the longest holds of a trace file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/stats.h"

/*
 * The fill's share of each hold that had one, p50 and p90: unlike the
 * summed share, a few holds stretched by something else (an interrupt,
 * a preempted vCPU) do not decide it.
 */
static int fill_shares(const struct trace_file *tf, struct trace_summary *s)
{
	double *v = malloc((s->with_fill ? s->with_fill : 1) * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < tf->nr_recs; i++) {
		const struct trace_rec *r = &tf->recs[i];

		if (!(r->flags & GT_R_FILL) || n == s->with_fill)
			continue;
		v[n++] = !r->hold_ns ? 0 : r->fill_ns >= r->hold_ns ? 1 :
			 (double)r->fill_ns / r->hold_ns;
	}
	stats_sort_double(v, n);
	s->fill_share_p50 = stats_quantile(v, n, 50, STATS_NEAREST_RANK);
	s->fill_share_p90 = stats_quantile(v, n, 90, STATS_NEAREST_RANK);
	free(v);
	return 0;
}

unsigned int stats_log2_slot(__u64 v)
{
	unsigned int slot = 0;

	while (v) {
		slot++;
		v >>= 1;
	}
	/* Values of 2^63 and above share the last slot. */
	return slot < STATS_LOG2_SLOTS ? slot : STATS_LOG2_SLOTS - 1;
}

/* Sorts @v in place. */
static void dist_of(__u64 *v, size_t n, struct stats_dist *d)
{
	long double sum = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!n)
		return;
	stats_sort_u64(v, n);
	for (i = 0; i < n; i++)
		sum += v[i];
	d->min = v[0];
	d->p50 = stats_percentile(v, n, 50);
	d->p90 = stats_percentile(v, n, 90);
	d->p99 = stats_percentile(v, n, 99);
	d->max = v[n - 1];
	d->mean = sum / n;
}

static void count_hold(struct trace_summary *s, const struct trace_rec *r)
{
	__u64 end = r->ts_ns + r->hold_ns;

	s->hold_log2[stats_log2_slot(r->hold_ns)]++;
	s->pages_lin[r->pages < STATS_PAGE_SLOTS - 1 ? r->pages : STATS_PAGE_SLOTS - 1]++;
	s->pages += r->pages;
	s->stored += r->stored;
	if (r->pages > s->max_pages)
		s->max_pages = r->pages;
	if (r->ts_ns < s->first_ns)
		s->first_ns = r->ts_ns;
	if (end > s->last_end_ns)
		s->last_end_ns = end;
	if (r->flags & GT_R_FILL) {
		s->with_fill++;
		s->fill_ns += r->fill_ns;
		s->fill_hold_ns += r->hold_ns;
	}
}

/* Hold times of all holds and, for holds with a fill, without it. */
static int distributions(const struct trace_file *tf, struct trace_summary *s)
{
	__u64 *hold = malloc((tf->nr_recs ? tf->nr_recs : 1) * sizeof(*hold));
	__u64 *bare = malloc((tf->nr_recs ? tf->nr_recs : 1) * sizeof(*bare));
	size_t i, nb = 0;

	if (!hold || !bare) {
		free(hold);
		free(bare);
		return -ENOMEM;
	}
	for (i = 0; i < tf->nr_recs; i++) {
		const struct trace_rec *r = &tf->recs[i];

		hold[i] = r->hold_ns;
		if (r->flags & GT_R_FILL)
			bare[nb++] = r->hold_ns > r->fill_ns ? r->hold_ns - r->fill_ns : 0;
	}
	dist_of(hold, tf->nr_recs, &s->hold);
	dist_of(bare, nb, &s->bare);
	free(hold);
	free(bare);
	return 0;
}

/* The @top longest holds, longest first; ties go to the earlier hold. */
static int longest(const struct trace_file *tf, size_t top, struct trace_summary *s)
{
	size_t i, j, n = 0;

	if (top > tf->nr_recs)
		top = tf->nr_recs;
	s->top = calloc(top ? top : 1, sizeof(*s->top));
	if (!s->top)
		return -ENOMEM;
	/* Insertion into a short sorted list: top is small (-n). */
	for (i = 0; i < tf->nr_recs && top; i++) {
		__u64 h = tf->recs[i].hold_ns;

		if (n == top && h <= tf->recs[s->top[n - 1]].hold_ns)
			continue;
		j = n < top ? n++ : n - 1;
		while (j > 0 && tf->recs[s->top[j - 1]].hold_ns < h) {
			s->top[j] = s->top[j - 1];
			j--;
		}
		s->top[j] = i;
	}
	s->nr_top = n;
	return 0;
}

int trace_summarize(const struct trace_file *tf, size_t top, struct trace_summary *s)
{
	size_t i;
	int err;

	memset(s, 0, sizeof(*s));
	s->n = tf->nr_recs;
	s->first_ns = tf->nr_recs ? ~0ULL : 0;
	for (i = 0; i < tf->nr_recs; i++)
		count_hold(s, &tf->recs[i]);
	err = distributions(tf, s);
	if (!err)
		err = fill_shares(tf, s);
	if (!err)
		err = longest(tf, top, s);
	if (err)
		trace_summary_free(s);
	return err;
}

void trace_summary_free(struct trace_summary *s)
{
	free(s->top);
	s->top = NULL;
	s->nr_top = 0;
}
