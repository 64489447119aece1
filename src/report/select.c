// SPDX-License-Identifier: GPL-2.0
/* Exact percentiles of a trace of any length, in bounded memory (select.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/select.h"

#define SEL_BITS	16
#define SEL_BUCKETS	(1U << SEL_BITS)
#define SEL_FIRST_CAP	4096

bool sel_key(enum sel_kind kind, const struct trace_rec *r, __u64 *key)
{
	double share;

	/* A wait has one value, and a hold none of a wait's. */
	if ((kind == SEL_WAIT) != (r->kind == GT_KIND_WAIT))
		return false;
	if (kind == SEL_WAIT) {
		*key = r->wait_ns;
		return true;
	}
	if (kind == SEL_HOLD) {
		*key = r->hold_ns;
		return true;
	}
	if (!(r->flags & GT_R_FILL))
		return false;
	if (kind == SEL_BARE) {
		*key = r->hold_ns > r->fill_ns ? r->hold_ns - r->fill_ns : 0;
		return true;
	}
	share = !r->hold_ns ? 0 : r->fill_ns >= r->hold_ns ? 1 : (double)r->fill_ns / r->hold_ns;
	/* A non-negative double's bits order as the double does. */
	memcpy(key, &share, sizeof(*key));
	return true;
}

int sel_add(struct sel_values *x, __u64 key)
{
	__u64 *v;

	if (!x->n || key < x->min)
		x->min = key;
	if (!x->n || key > x->max)
		x->max = key;
	x->sum += key;
	x->n++;
	if (x->spilled)
		return 0;
	if (x->n > x->cap) {
		if (x->cap >= SEL_KEEP_MAX) {
			/* Too many to keep: sel_ranks() will re-read the file. */
			sel_free(x);
			x->spilled = true;
			return 0;
		}
		x->cap = x->cap ? x->cap * 2 : SEL_FIRST_CAP;
		v = realloc(x->v, x->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		x->v = v;
	}
	x->v[x->n - 1] = key;
	return 0;
}

void sel_free(struct sel_values *x)
{
	free(x->v);
	x->v = NULL;
	x->cap = 0;
}

/* How far right a key in [lo, hi] shifts to fit SEL_BUCKETS buckets. */
static unsigned int shift_of(const struct sel_rank *q)
{
	__u64 w = q->hi - q->lo;
	unsigned int shift = 0;

	while ((w >> shift) >= SEL_BUCKETS)
		shift++;
	return shift;
}

/* One bucket of @hist holds the rank: its range becomes the new one. */
static void narrow(struct sel_rank *q, const __u64 *hist)
{
	unsigned int shift = shift_of(q);
	__u64 mask = (1ULL << shift) - 1, lo;
	size_t b, below = q->below;

	for (b = 0; b < SEL_BUCKETS - 1 && below + hist[b] <= q->idx; b++)
		below += hist[b];
	lo = q->lo + ((__u64)b << shift);
	q->hi = q->hi - lo > mask ? lo + mask : q->hi;
	q->lo = lo;
	q->below = below;
}

static int count_pass(struct trace_file *tf, struct sel_rank *q, size_t nq, __u64 *hist)
{
	unsigned int shift[NR_SEL_KINDS * 4];
	struct trace_rec r;
	size_t i;
	__u64 k;
	int ret;

	for (i = 0; i < nq; i++)
		shift[i] = shift_of(&q[i]);
	trace_file_rewind(tf);
	while ((ret = trace_file_next(tf, &r)) > 0) {
		for (i = 0; i < nq; i++) {
			if (q[i].lo == q[i].hi || !sel_key(q[i].kind, &r, &k) ||
			    k < q[i].lo || k > q[i].hi)
				continue;
			hist[i * SEL_BUCKETS + ((k - q[i].lo) >> shift[i])]++;
		}
	}
	return ret;
}

int sel_ranks(struct trace_file *tf, struct sel_rank *q, size_t nq)
{
	__u64 *hist;
	bool open;
	size_t i;
	int ret = 0;

	if (nq > NR_SEL_KINDS * 4)
		return -EINVAL;
	hist = malloc(nq * SEL_BUCKETS * sizeof(*hist));
	if (!hist)
		return -ENOMEM;
	for (;;) {
		for (open = false, i = 0; i < nq; i++)
			open |= q[i].lo != q[i].hi;
		if (!open)
			break;
		memset(hist, 0, nq * SEL_BUCKETS * sizeof(*hist));
		ret = count_pass(tf, q, nq, hist);
		if (ret < 0)
			break;
		for (i = 0; i < nq; i++)
			if (q[i].lo != q[i].hi)
				narrow(&q[i], hist + i * SEL_BUCKETS);
	}
	for (i = 0; !ret && i < nq; i++)
		*q[i].out = q[i].lo;
	free(hist);
	return ret < 0 ? ret : 0;
}
