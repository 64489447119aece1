// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded, ageing table of -P and --per-cgroup series (series.h).
 * The kernel's maps are LRUs of 4096 rows; this table is what is
 * exported, at most --max-series rows, found by a linear search: a
 * scrape reads at most 4096 keys against at most 4096 rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "kernel/cgpath.h"
#include "serve/series.h"
#include "util/msg.h"

/* A kernel row, whichever map it came from. */
struct krow {
	__u64 key;
	char comm[16];
	struct tally t;
	__u64 user_flags;
};

/* A key of either map: the member read is the one the map's size says. */
union map_key {
	__u32 tgid;
	__u64 id;
};

int series_init(struct series *s, enum series_kind kind, unsigned int max, unsigned int idle_s,
		struct cgpath *names)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->max = max;
	s->idle_s = idle_s;
	s->names = names;
	s->rows = calloc(max ? max : 1, sizeof(*s->rows));
	return s->rows ? 0 : -ENOMEM;
}

void series_free(struct series *s)
{
	free(s->rows);
	s->rows = NULL;
}

/* Every count, a new one too: struct tally is __u64s alone (gupstat.h). */
static void add_tally(struct tally *sum, const struct tally *t)
{
	__u64 *s = (__u64 *)sum;
	const __u64 *a = (const __u64 *)t;
	size_t i;

	for (i = 0; i < sizeof(*t) / sizeof(__u64); i++)
		s[i] += a[i];
}

void serie_total(const struct serie *r, struct tally *out)
{
	*out = r->base;
	add_tally(out, &r->last);
}

static __u64 tally_sum(const struct tally *t)
{
	return t->walk_calls + t->gup_calls + t->unpin_calls + t->pin_pages + t->pte_waits;
}

/* The map's key for @key: a tgid is 32 bits, a cgroup id 64. */
static const void *map_key(const struct series *s, __u64 key, union map_key *k)
{
	if (s->kind == SERIES_PROC)
		k->tgid = key;
	else
		k->id = key;
	return k;
}

static int read_krow(const struct series *s, int fd, const void *key, struct krow *k)
{
	struct proc_stats ps;
	struct cgroup_stats cs;

	if (s->kind == SERIES_CGROUP) {
		if (bpf_map_lookup_elem(fd, key, &cs))
			return -errno;
		k->key = ((const union map_key *)key)->id;
		k->t = cs.t;
		k->user_flags = cs.user_flags;
		return 0;
	}
	if (bpf_map_lookup_elem(fd, key, &ps))
		return -errno;
	k->key = ((const union map_key *)key)->tgid;
	memcpy(k->comm, ps.comm, sizeof(k->comm));
	k->t = ps.t;
	k->user_flags = ps.user_flags;
	return 0;
}

/*
 * Mark a key's kernel row as given no series, its counts zeroed: the BPF
 * side only adds to counters, so the flag lasts until the row is evicted.
 * Counts of a refused row are never exported, so a race with an add
 * loses nothing that is shown.
 */
static void refuse(const struct series *s, int fd, __u64 key)
{
	struct proc_stats ps = { .user_flags = TALLY_REFUSED };
	struct cgroup_stats cs = { .user_flags = TALLY_REFUSED };
	union map_key k;

	bpf_map_update_elem(fd, map_key(s, key, &k),
			    s->kind == SERIES_PROC ? (void *)&ps : (void *)&cs, BPF_EXIST);
}

static struct serie *find(struct series *s, __u64 key)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->rows[i].key == key)
			return &s->rows[i];
	return NULL;
}

static void remove_row(struct series *s, struct serie *r, int fd)
{
	union map_key k;

	bpf_map_delete_elem(fd, map_key(s, r->key, &k));
	*r = s->rows[--s->nr];
}

/*
 * A cgroup removed and made again under its name (a restarted service)
 * has a new id: its series goes on from the old one's totals, which no
 * longer move, rather than two series with one label set.
 */
static void inherit(struct series *s, struct serie *r, int fd)
{
	struct serie *old;
	unsigned int i;

	for (i = 0; r->path && i < s->nr; i++) {
		old = &s->rows[i];
		if (old == r || !old->path || strcmp(old->path, r->path))
			continue;
		serie_total(old, &r->base);
		remove_row(s, old, fd);
		return;
	}
}

static void name(struct series *s, struct serie *r)
{
	r->path = cgpath_lookup(s->names, r->key);
	if (r->path || s->unnamed++)
		return;
	fprintf(stderr, "%s: a cgroup was removed before it could be named: its series is labelled "
		"cgroup=\"id:%llu\", and so are any later ones (said once)\n", msg_cmd(),
		(unsigned long long)r->key);
}

static struct serie *add_row(struct series *s, const struct krow *k, time_t now, int fd)
{
	struct serie *r = &s->rows[s->nr++];

	memset(r, 0, sizeof(*r));
	r->key = k->key;
	r->moved = now;
	if (s->kind == SERIES_CGROUP) {
		name(s, r);
		inherit(s, r, fd);
		/* inherit() may have moved this row into the one it removed. */
		r = find(s, k->key);
	}
	return r;
}

/* The kernel's map is an LRU: a row evicted comes back from zero. */
static void update_row(struct serie *r, const struct krow *k)
{
	if (k->t.walk_calls < r->last.walk_calls || k->t.gup_calls < r->last.gup_calls ||
	    k->t.unpin_calls < r->last.unpin_calls)
		add_tally(&r->base, &r->last);
	r->last = k->t;
	if (k->comm[0])
		memcpy(r->comm, k->comm, sizeof(r->comm));
}

static void take(struct series *s, int fd, const struct krow *k, time_t now)
{
	struct serie *r = find(s, k->key);

	if (!r && s->nr < s->max)
		r = add_row(s, k, now, fd);
	if (r) {
		update_row(r, k);
	} else if (!(k->user_flags & TALLY_REFUSED)) {
		s->dropped++;
		refuse(s, fd, k->key);
	}
}

static bool holds_pins(const struct serie *r)
{
	struct tally t;

	serie_total(r, &t);
	return t.pin_pages > t.unpin_pages;
}

/* Rows idle for idle_s seconds make room, unless they hold pins: how many. */
static unsigned int age(struct series *s, int fd, time_t now)
{
	unsigned int i = 0, removed = 0;
	struct tally t;

	while (i < s->nr) {
		struct serie *r = &s->rows[i];

		serie_total(r, &t);
		if (tally_sum(&t) != r->moved_sum) {
			r->moved_sum = tally_sum(&t);
			r->moved = now;
		} else if (now - r->moved >= (time_t)s->idle_s && !holds_pins(r)) {
			remove_row(s, r, fd);
			removed++;
			continue;	/* the last row moved here */
		}
		i++;
	}
	return removed;
}

static int read_map(struct series *s, int fd, time_t now)
{
	union map_key key = {}, next = {};
	void *prev = NULL;
	struct krow k;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		/* A row deleted since get_next_key is simply not there. */
		memset(&k, 0, sizeof(k));
		if (!read_krow(s, fd, &key, &k))
			take(s, fd, &k, now);
	}
	return errno == ENOENT ? 0 : -errno;
}

/* Read, age, and read again where ageing made room for refused keys. */
int series_update(struct series *s, int fd, time_t now)
{
	return read_map(s, fd, now) ?: (age(s, fd, now) ? read_map(s, fd, now) : 0);
}
