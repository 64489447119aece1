// SPDX-License-Identifier: GPL-2.0
/*
 * Percentiles, histograms and the longest holds of a trace file, in one
 * pass over its records (more only for percentiles of a very long
 * trace: select.c), keeping at most what select.h and -n say.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "report/select.h"
#include "report/summary.h"

unsigned int summary_log2_slot(__u64 v)
{
	unsigned int slot = 0;

	while (v) {
		slot++;
		v >>= 1;
	}
	/* Values of 2^63 and above share the last slot. */
	return slot < SUMMARY_LOG2_SLOTS ? slot : SUMMARY_LOG2_SLOTS - 1;
}

/* When a hold ended; one that would end past 2^64 ns ends there. */
__u64 summary_hold_end(const struct trace_rec *r)
{
	return r->ts_ns + r->hold_ns < r->ts_ns ? ~0ULL : r->ts_ns + r->hold_ns;
}

static void count_hold(struct trace_summary *s, const struct trace_rec *r)
{
	__u64 end = summary_hold_end(r);

	s->hold_log2[summary_log2_slot(r->hold_ns)]++;
	s->hold_total_ns += r->hold_ns;
	s->pages_lin[r->pages < SUMMARY_PAGE_SLOTS - 1 ? r->pages : SUMMARY_PAGE_SLOTS - 1]++;
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

/*
 * The longest holds so far, as a min-heap: its root the one to drop
 * first, the shortest and, of equal ones, the latest (ties go to the
 * earlier hold). O(log -n) a record, whatever -n.
 */
struct ranked {
	struct trace_rec r;
	__u64 v;		/* what it is ranked by: hold_ns, or a wait's wait_ns */
	__u64 seq;
};

static bool worse(const struct ranked *a, const struct ranked *b)
{
	return a->v < b->v || (a->v == b->v && a->seq > b->seq);
}

static void sift_down(struct ranked *h, size_t n, size_t i)
{
	struct ranked t;
	size_t c;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && worse(&h[c + 1], &h[c]))
			c++;
		if (!worse(&h[c], &h[i]))
			break;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
	}
}

static void sift_up(struct ranked *h, size_t i)
{
	struct ranked t;

	for (; i && worse(&h[i], &h[(i - 1) / 2]); i = (i - 1) / 2) {
		t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
	}
}

static void longest(struct ranked *h, size_t *n, size_t top, const struct trace_rec *r,
		    __u64 seq)
{
	struct ranked x = { *r, r->kind == GT_KIND_WAIT ? r->wait_ns : r->hold_ns, seq };

	if (*n < top) {
		h[*n] = x;
		sift_up(h, (*n)++);
	} else if (top && worse(&h[0], &x)) {
		h[0] = x;
		sift_down(h, top, 0);
	}
}

/* Longest first; of equal holds, the earlier first. */
static int cmp_ranked(const void *a, const void *b)
{
	return worse(b, a) ? -1 : worse(a, b) ? 1 : 0;
}

static void longest_done(struct trace_summary *s, struct ranked *h, size_t n,
			 struct ranked *w, size_t nw)
{
	size_t i;

	qsort(h, n, sizeof(*h), cmp_ranked);
	for (i = 0; i < n; i++)
		s->top[i] = h[i].r;
	s->nr_top = n;
	qsort(w, nw, sizeof(*w), cmp_ranked);
	for (i = 0; i < nw; i++)
		s->top_waits[i].wait = w[i].r;
	s->nr_top_waits = nw;
}

static void count_wait(struct trace_summary *s, const struct trace_rec *r)
{
	s->nr_waits++;
	/* Saturated: a corrupt wait of 2^64 ns must not wrap the sum to little. */
	s->wait_total_ns = s->wait_total_ns + r->wait_ns < s->wait_total_ns ? ~0ULL :
			   s->wait_total_ns + r->wait_ns;
}

/* The hold a wait names: its holder's thread and start. */
struct hold_key {
	__u32 tid;
	__u64 ts_ns;
	size_t at;		/* in s->top_waits */
};

static int cmp_hold_key(const void *a, const void *b)
{
	const struct hold_key *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->ts_ns > y->ts_ns) - (x->ts_ns < y->ts_ns);
}

/*
 * The holds the longest waits waited on, in one more pass: the file has
 * them in no particular place (a wait is written when it ends, which may
 * be before or after the hold's record), so they are looked up by key.
 */
static int find_holds(struct trace_file *tf, struct trace_summary *s)
{
	struct hold_key *k, want, *hit;
	struct trace_rec r;
	size_t i, j;
	int ret;

	if (!s->nr_top_waits)
		return 0;
	k = calloc(s->nr_top_waits, sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (i = 0; i < s->nr_top_waits; i++)
		k[i] = (struct hold_key){ s->top_waits[i].wait.holder_tid,
					  s->top_waits[i].wait.hold_ts_ns, i };
	qsort(k, s->nr_top_waits, sizeof(*k), cmp_hold_key);
	trace_file_rewind(tf);
	while ((ret = trace_file_next(tf, &r)) > 0) {
		if (r.kind != GT_KIND_HOLD || !(r.flags & GT_R_WAITED))
			continue;
		want = (struct hold_key){ r.tid, r.ts_ns, 0 };
		hit = bsearch(&want, k, s->nr_top_waits, sizeof(*k), cmp_hold_key);
		if (!hit)
			continue;
		/* Several of the longest waits may name one hold: each gets it. */
		while (hit > k && !cmp_hold_key(hit - 1, &want))
			hit--;
		for (j = hit - k; j < s->nr_top_waits && !cmp_hold_key(&k[j], &want); j++) {
			s->top_waits[k[j].at].hold = r;
			s->top_waits[k[j].at].found = true;
		}
	}
	free(k);
	return ret;
}

static int count_values(struct sel_values *v, const struct trace_rec *r)
{
	int k, err = 0;
	__u64 key;

	for (k = 0; k < NR_SEL_KINDS && !err; k++)
		if (sel_key(k, r, &key))
			err = sel_add(&v[k], key);
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return (x > y) - (x < y);
}

static const unsigned int pcts[] = { 50, 90, 99 };
static const size_t nr_pcts[NR_SEL_KINDS] = { 3, 3, 2, 3 };

/*
 * The percentiles into @out[kind][]: from the kept, sorted keys, or
 * found in the file where there were too many to keep.
 */
static int percentiles(struct trace_file *tf, struct sel_values *v, __u64 out[][3])
{
	struct sel_rank q[NR_SEL_KINDS * 3];
	size_t i, nq = 0;
	int k;

	for (k = 0; k < NR_SEL_KINDS; k++) {
		if (!v[k].n)
			continue;
		if (!v[k].spilled)
			qsort(v[k].v, v[k].n, sizeof(*v[k].v), cmp_u64);
		for (i = 0; i < nr_pcts[k]; i++) {
			size_t idx = stats_rank_index(v[k].n, pcts[i]);

			if (!v[k].spilled)
				out[k][i] = v[k].v[idx];
			else
				q[nq++] = (struct sel_rank){ k, idx, v[k].min, v[k].max, 0, &out[k][i] };
		}
	}
	return nq ? sel_ranks(tf, q, nq) : 0;
}

static void dist_of(const struct sel_values *v, const __u64 *p, struct summary_dist *d)
{
	memset(d, 0, sizeof(*d));
	if (!v->n)
		return;
	d->min = v->min;
	d->p50 = p[0];
	d->p90 = p[1];
	d->p99 = p[2];
	d->max = v->max;
	d->mean = v->sum / v->n;
}

static double share_of(__u64 key)
{
	double d;

	memcpy(&d, &key, sizeof(d));
	return d;
}

static int finish(struct trace_file *tf, struct sel_values *v, struct trace_summary *s)
{
	__u64 p[NR_SEL_KINDS][3] = {};
	int err = percentiles(tf, v, p);

	if (err)
		return err;
	dist_of(&v[SEL_HOLD], p[SEL_HOLD], &s->hold);
	dist_of(&v[SEL_BARE], p[SEL_BARE], &s->bare);
	dist_of(&v[SEL_WAIT], p[SEL_WAIT], &s->wait);
	s->fill_share_p50 = share_of(p[SEL_SHARE][0]);
	s->fill_share_p90 = share_of(p[SEL_SHARE][1]);
	return 0;
}

/* Holds and waits apart: the hold figures are the holds' alone. */
static int one_pass(struct trace_file *tf, size_t top, struct trace_summary *s,
		    struct sel_values *v)
{
	/* Only a --waits trace has waits (the reader checks): no room for them else. */
	size_t wtop = tf->flags & GT_F_WAITS ? top : 0;
	struct ranked *h = calloc(top ? top : 1, sizeof(*h));
	struct ranked *w = calloc(wtop ? wtop : 1, sizeof(*w));
	struct trace_rec r;
	size_t nh = 0, nw = 0;
	int ret = 0, err = h && w ? 0 : -ENOMEM;

	trace_file_rewind(tf);
	while (!err && (ret = trace_file_next(tf, &r)) > 0) {
		err = count_values(v, &r);
		if (r.kind == GT_KIND_WAIT) {
			longest(w, &nw, wtop, &r, s->nr_waits);
			count_wait(s, &r);
			continue;
		}
		count_hold(s, &r);
		s->waited += !!(r.flags & GT_R_WAITED);
		longest(h, &nh, top, &r, s->n++);
		err = err ?: cg_tally_add(&s->cgroups, &r);
	}
	if (!err && ret >= 0)
		longest_done(s, h, nh, w, nw);
	cg_tally_sort(&s->cgroups);
	free(h);
	free(w);
	return err ?: ret;
}

int summary_read(struct trace_file *tf, size_t top, struct trace_summary *s)
{
	struct sel_values v[NR_SEL_KINDS] = {};
	int k, err;

	memset(s, 0, sizeof(*s));
	s->first_ns = ~0ULL;
	cg_tally_init(&s->cgroups);
	s->top = calloc(top ? top : 1, sizeof(*s->top));
	s->top_waits = calloc(tf->flags & GT_F_WAITS && top ? top : 1, sizeof(*s->top_waits));
	err = s->top && s->top_waits ? one_pass(tf, top, s, v) : -ENOMEM;
	if (!err)
		err = finish(tf, v, s);
	if (!err)
		err = find_holds(tf, s);
	if (!s->n)
		s->first_ns = 0;
	for (k = 0; k < NR_SEL_KINDS; k++)
		sel_free(&v[k]);
	if (err)
		summary_free(s);
	return err;
}

void summary_free(struct trace_summary *s)
{
	free(s->top);
	s->top = NULL;
	s->nr_top = 0;
	free(s->top_waits);
	s->top_waits = NULL;
	s->nr_top_waits = 0;
	cg_tally_free(&s->cgroups);
}
