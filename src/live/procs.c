// SPDX-License-Identifier: GPL-2.0
/* -P and --per-cgroup: a table with a row per process or cgroup, busiest first. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "gupstat.h"
#include "kernel/cgpath.h"
#include "live/print.h"
#include "live/procs.h"
#include "probe/catalog.h"
#include "util/input.h"
#include "util/json.h"

#define ROWS_MAX	4096
#define ROWS_SHOWN	20

/* A process's or a cgroup's row, whichever the map holds. */
struct row {
	__u64 key;		/* tgid, or cgroup id */
	char comm[16];		/* processes only */
	struct tally t;
};

static __u64 busy(const struct row *r)
{
	return r->t.walk_pages + r->t.gup_pages + r->t.unpin_pages + r->t.pte_waits;
}

static int by_busy(const void *a, const void *b)
{
	__u64 x = busy(a), y = busy(b);

	return x < y ? 1 : x > y ? -1 : 0;
}

static bool read_row(int fd, bool cgroup, const void *key, struct row *r)
{
	struct proc_stats ps;
	struct cgroup_stats cs;

	if (cgroup) {
		if (bpf_map_lookup_elem(fd, key, &cs))
			return false;
		r->key = *(const __u64 *)key;
		r->t = cs.t;
		return true;
	}
	if (bpf_map_lookup_elem(fd, key, &ps))
		return false;
	r->key = *(const __u32 *)key;
	memcpy(r->comm, ps.comm, sizeof(r->comm));
	r->t = ps.t;
	return true;
}

static int collect(int fd, bool cgroup, struct row *rows, int max, bool reset)
{
	__u64 key, next;
	void *prev = NULL;
	int n = 0;

	while (n < max && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (read_row(fd, cgroup, &key, &rows[n]))
			n++;
	}
	while (reset && n && !bpf_map_get_next_key(fd, NULL, &key))
		bpf_map_delete_elem(fd, &key);
	return n;
}

static void json_tally(struct jw *w, const struct tally *t, bool waits)
{
	unsigned int i;

	for (i = 0; i < catalog_tallies_nr; i++)
		if (waits || !catalog_tallies[i].waits)
			jw_u64(w, catalog_tallies[i].name,
			       catalog_tally_value(&catalog_tallies[i], t));
	/* serve's name is longterm_pin_pages: this one is deprecated (docs/live.md). */
	jw_u64(w, "longterm_pages", t->longterm_pages);
}

/* The comm escaped: a process named a"b must not break the NDJSON. */
void procs_print_json(FILE *f, __u32 tgid, const struct proc_stats *s,
		      const struct procs_out *o)
{
	struct jw w;

	jw_init(&w, f, false);
	live_print_json_record(&w, "proc", o->json);
	jw_u64(&w, "pid", tgid);
	jw_stringn(&w, "comm", s->comm, sizeof(s->comm));
	json_tally(&w, &s->t, o->waits);
	live_print_json_record_end(&w);
}

void procs_print_cgroups_json(FILE *f, __u64 id, const char *path, const struct tally *c,
			      const struct procs_out *o)
{
	struct jw w;

	jw_init(&w, f, false);
	live_print_json_record(&w, "cgroup", o->json);
	jw_u64(&w, "id", id);
	jw_string(&w, "cgroup", path);
	json_tally(&w, c, o->waits);
	live_print_json_record_end(&w);
}

/* --waits: the waiter's spins and their total in microseconds. */
static void print_waits(FILE *f, const struct tally *t, const struct procs_out *o)
{
	if (o->waits)
		fprintf(f, " %9llu %11.1f", (unsigned long long)t->pte_waits,
			t->pte_wait_ns / 1e3);
}

static void print_counts(FILE *f, const struct tally *t, const struct procs_out *o)
{
	fprintf(f, " %11llu %11llu %10llu %11llu %11llu %11llu",
		(unsigned long long)t->walk_calls, (unsigned long long)t->walk_pages,
		(unsigned long long)t->gup_calls, (unsigned long long)t->gup_pages,
		(unsigned long long)t->unpin_calls, (unsigned long long)t->unpin_pages);
	print_waits(f, t, o);
	fputc('\n', f);
}

static void print_proc(FILE *f, const struct row *r, const struct procs_out *o)
{
	char comm[sizeof(r->comm) + 1];
	struct proc_stats ps;

	if (o->json) {
		memcpy(ps.comm, r->comm, sizeof(ps.comm));
		ps.t = r->t;
		procs_print_json(f, r->key, &ps, o);
		return;
	}
	/* A process names itself: nothing of it reaches the terminal raw. */
	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(r->comm), r->comm);
	input_sanitise(comm);
	fprintf(f, "%-7llu %-16.16s", (unsigned long long)r->key, comm);
	print_counts(f, &r->t, o);
}

/* The path in full, last: a cgroup's depth has no bound a column could hold. */
static void print_cgroup(FILE *f, const struct row *r, struct cgpath *names,
			 const struct procs_out *o)
{
	const char *path = cgpath_lookup(names, r->key);

	if (o->json) {
		procs_print_cgroups_json(f, r->key, path, &r->t, o);
		return;
	}
	fprintf(f, "%11llu %11llu %10llu %11llu %11llu %11llu %11llu",
		(unsigned long long)r->t.walk_calls, (unsigned long long)r->t.walk_pages,
		(unsigned long long)r->t.gup_calls, (unsigned long long)r->t.gup_pages,
		(unsigned long long)r->t.pin_pages, (unsigned long long)r->t.unpin_calls,
		(unsigned long long)r->t.unpin_pages);
	print_waits(f, &r->t, o);
	fputs("  ", f);
	if (path)
		fprintf(f, "%s\n", input_safe(path));
	else
		fprintf(f, "(removed, id %llu)\n", (unsigned long long)r->key);
}

static void heading(FILE *f, bool cgroups, const struct procs_out *o)
{
	if (!cgroups)
		fprintf(f, "\n%-7s %-16s %11s %11s %10s %11s %11s %11s", "PID", "COMM",
			"WALK-CALLS", "WALK-PAGES", "GUP-CALLS", "GUP-PAGES",
			"UNPIN-CALLS", "UNPIN-PAGES");
	else
		fprintf(f, "\n%11s %11s %10s %11s %11s %11s %11s", "WALK-CALLS",
			"WALK-PAGES", "GUP-CALLS", "GUP-PAGES", "PIN-PAGES", "UNPIN-CALLS",
			"UNPIN-PAGES");
	if (o->waits)
		fprintf(f, " %9s %11s", "PTE-WAITS", "WAITED-US");
	fputs(cgroups ? "  CGROUP\n" : "\n", f);
}

static int table(FILE *f, const struct bpf_map *map, struct cgpath *names,
		 const struct procs_out *o)
{
	struct row *rows = calloc(ROWS_MAX, sizeof(*rows));
	int n, i;

	if (!rows)
		return -ENOMEM;
	n = collect(bpf_map__fd(map), names != NULL, rows, ROWS_MAX, o->reset);
	qsort(rows, n, sizeof(*rows), by_busy);
	if (!o->json)
		heading(f, names != NULL, o);
	for (i = 0; i < n && (o->json || i < ROWS_SHOWN); i++) {
		if (names)
			print_cgroup(f, &rows[i], names, o);
		else
			print_proc(f, &rows[i], o);
	}
	if (!o->json && n > ROWS_SHOWN)
		fprintf(f, "(%d more %s)\n", n - ROWS_SHOWN, names ? "cgroups" : "processes");
	free(rows);
	return 0;
}

int procs_print(FILE *f, const struct bpf_map *procs, const struct procs_out *o)
{
	return table(f, procs, NULL, o);
}

int procs_print_cgroups(FILE *f, const struct bpf_map *cgroups, struct cgpath *names,
			const struct procs_out *o)
{
	return table(f, cgroups, names, o);
}
