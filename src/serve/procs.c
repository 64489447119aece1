// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process series for gupstat serve, capped. Which processes get a
 * series is decided once, when each is first seen, and never changes:
 * a series that came and went between scrapes would read as a reset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "serve/procs.h"
#include "util/parse.h"

#define BITS_PER_WORD	(8 * sizeof(unsigned long))

int proc_series_init(struct proc_series *p, unsigned int max)
{
	memset(p, 0, sizeof(*p));
	p->max = max;
	p->rows = calloc(max ? max : 1, sizeof(*p->rows));
	/* One bit per possible PID: 512 kB at most, bounded whatever runs. */
	p->seen_dropped = calloc(PARSE_PID_MAX / BITS_PER_WORD + 1, sizeof(unsigned long));
	if (!p->rows || !p->seen_dropped) {
		proc_series_free(p);
		return -ENOMEM;
	}
	return 0;
}

void proc_series_free(struct proc_series *p)
{
	free(p->rows);
	free(p->seen_dropped);
	p->rows = NULL;
	p->seen_dropped = NULL;
}

static struct proc_serie *find(struct proc_series *p, __u32 tgid)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (p->rows[i].tgid == tgid)
			return &p->rows[i];
	return NULL;
}

/* Counted once per PID: a PID the kernel reuses is not counted again. */
static void drop(struct proc_series *p, __u32 tgid)
{
	unsigned long bit = 1UL << (tgid % BITS_PER_WORD);
	unsigned long *w;

	if (tgid > PARSE_PID_MAX)
		tgid = PARSE_PID_MAX;
	w = &p->seen_dropped[tgid / BITS_PER_WORD];
	if (!(*w & bit)) {
		*w |= bit;
		p->dropped++;
	}
}

static void add_stats(struct proc_stats *sum, const struct proc_stats *s)
{
	sum->walk_calls += s->walk_calls;
	sum->walk_pages += s->walk_pages;
	sum->gup_calls += s->gup_calls;
	sum->gup_pages += s->gup_pages;
	sum->unpin_calls += s->unpin_calls;
	sum->unpin_pages += s->unpin_pages;
}

/*
 * The kernel's map is an LRU: a row evicted under pressure comes back
 * from zero. What it had counted is kept in @base, so a series only grows.
 */
static void update_row(struct proc_serie *r, const struct proc_stats *now)
{
	if (now->walk_calls < r->last.walk_calls || now->gup_calls < r->last.gup_calls ||
	    now->unpin_calls < r->last.unpin_calls)
		add_stats(&r->base, &r->last);
	r->last = *now;
}

static void take(struct proc_series *p, __u32 tgid, const struct proc_stats *st)
{
	struct proc_serie *r = find(p, tgid);

	if (!r && p->nr < p->max) {
		r = &p->rows[p->nr++];
		r->tgid = tgid;
	}
	if (r)
		update_row(r, st);
	else
		drop(p, tgid);
}

int proc_series_update(struct proc_series *p, int map_fd)
{
	__u32 key, next, *prev = NULL;
	struct proc_stats st;

	while (!bpf_map_get_next_key(map_fd, prev, &next)) {
		key = next;
		prev = &key;
		/* A row deleted since get_next_key is simply not there. */
		if (!bpf_map_lookup_elem(map_fd, &key, &st))
			take(p, key, &st);
	}
	return errno == ENOENT ? 0 : -errno;
}

void proc_serie_total(const struct proc_serie *r, struct proc_stats *out)
{
	*out = r->base;
	memcpy(out->comm, r->last.comm, sizeof(out->comm));
	add_stats(out, &r->last);
}
