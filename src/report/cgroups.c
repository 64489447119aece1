// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report: the holds per cgroup, so that on a shared host the
 * holds can be told apart by service or container, not only by pid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/cgroups.h"

static size_t find(const struct cg_tallies *t, __u64 id)
{
	size_t lo = 0, hi = t->n;

	if (t->last < t->n && t->v[t->last].id == id)
		return t->last;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert(struct cg_tallies *t, size_t at, __u64 id)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct cg_tally *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	memmove(&t->v[at + 1], &t->v[at], (t->n - at) * sizeof(*t->v));
	t->v[at] = (struct cg_tally){ .id = id };
	t->n++;
	return 0;
}

int cg_tally_add(struct cg_tallies *t, const struct trace_rec *r)
{
	size_t at = find(t, r->cgroup);
	struct cg_tally *c;

	if ((at == t->n || t->v[at].id != r->cgroup) && insert(t, at, r->cgroup))
		return -ENOMEM;
	t->last = at;
	c = &t->v[at];
	c->holds++;
	c->pages += r->pages;
	/* Saturated: a corrupt hold of 2^64 ns must not wrap the sum to little. */
	c->hold_ns = c->hold_ns + r->hold_ns < c->hold_ns ? ~0ULL : c->hold_ns + r->hold_ns;
	return 0;
}

static int by_holds(const void *a, const void *b)
{
	const struct cg_tally *x = a, *y = b;

	if (x->holds != y->holds)
		return x->holds > y->holds ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void cg_tally_sort(struct cg_tallies *t)
{
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), by_holds);
	t->last = t->n;
}

void cg_tally_free(struct cg_tallies *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
