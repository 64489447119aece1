// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report: the holds per cgroup, so that on a shared host the
 * holds can be told apart by service or container, not only by pid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/cgroups.h"

void cg_tally_init(struct cg_tallies *t)
{
	id_array_init(&t->a, sizeof(struct cg_tally));
}

int cg_tally_add(struct cg_tallies *t, const struct trace_rec *r)
{
	struct cg_tally *c = id_array_get(&t->a, r->cgroup);

	if (!c)
		return -ENOMEM;
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
	if (t->a.n)
		qsort(t->a.v, t->a.n, sizeof(struct cg_tally), by_holds);
	/* Out of id order now: no lookup may trust the last one. */
	t->a.last = t->a.n;
}

void cg_tally_free(struct cg_tallies *t)
{
	id_array_free(&t->a);
}
