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
	return r->t.walk_pages + r->t.gup_pages + r->t.unpin_pages;
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

static void json_tally(struct jw *w, const struct tally *t)
{
	unsigned int i;

	for (i = 0; i < catalog_tallies_nr; i++)
		jw_u64(w, catalog_tallies[i].name, catalog_tally_value(&catalog_tallies[i], t));
	/* serve's name is longterm_pin_pages: this one is deprecated (docs/live.md). */
	jw_u64(w, "longterm_pages", t->longterm_pages);
}

/* The comm escaped: a process named a"b must not break the NDJSON. */
void procs_print_json(FILE *f, __u32 tgid, const struct proc_stats *s,
		      const struct live_stamp *t)
{
	struct jw w;

	jw_init(&w, f, false);
	live_print_json_record(&w, "proc", t);
	jw_u64(&w, "pid", tgid);
	jw_stringn(&w, "comm", s->comm, sizeof(s->comm));
	json_tally(&w, &s->t);
	live_print_json_record_end(&w);
}

void procs_print_cgroups_json(FILE *f, __u64 id, const char *path, const struct tally *c,
			const struct live_stamp *t)
{
	struct jw w;

	jw_init(&w, f, false);
	live_print_json_record(&w, "cgroup", t);
	jw_u64(&w, "id", id);
	jw_string(&w, "cgroup", path);
	json_tally(&w, c);
	live_print_json_record_end(&w);
}

static void print_counts(FILE *f, const struct tally *t)
{
	fprintf(f, " %11llu %11llu %10llu %11llu %11llu %11llu\n",
		(unsigned long long)t->walk_calls, (unsigned long long)t->walk_pages,
		(unsigned long long)t->gup_calls, (unsigned long long)t->gup_pages,
		(unsigned long long)t->unpin_calls, (unsigned long long)t->unpin_pages);
}

static void print_proc(FILE *f, const struct row *r, const struct live_stamp *json)
{
	char comm[sizeof(r->comm) + 1];
	struct proc_stats ps;

	if (json) {
		memcpy(ps.comm, r->comm, sizeof(ps.comm));
		ps.t = r->t;
		procs_print_json(f, r->key, &ps, json);
		return;
	}
	/* A process names itself: nothing of it reaches the terminal raw. */
	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(r->comm), r->comm);
	input_sanitise(comm);
	fprintf(f, "%-7llu %-16.16s", (unsigned long long)r->key, comm);
	print_counts(f, &r->t);
}

/* The path in full, last: a cgroup's depth has no bound a column could hold. */
static void print_cgroup(FILE *f, const struct row *r, struct cgpath *names,
			 const struct live_stamp *json)
{
	const char *path = cgpath_lookup(names, r->key);

	if (json) {
		procs_print_cgroups_json(f, r->key, path, &r->t, json);
		return;
	}
	fprintf(f, "%11llu %11llu %10llu %11llu %11llu %11llu %11llu  ",
		(unsigned long long)r->t.walk_calls, (unsigned long long)r->t.walk_pages,
		(unsigned long long)r->t.gup_calls, (unsigned long long)r->t.gup_pages,
		(unsigned long long)r->t.pin_pages, (unsigned long long)r->t.unpin_calls,
		(unsigned long long)r->t.unpin_pages);
	if (path)
		fprintf(f, "%s\n", input_safe(path));
	else
		fprintf(f, "(removed, id %llu)\n", (unsigned long long)r->key);
}

/* @json: the report's stamp for NDJSON records, NULL for the text. */
static int table(FILE *f, const struct bpf_map *map, struct cgpath *names,
		 const struct live_stamp *json, bool reset)
{
	struct row *rows = calloc(ROWS_MAX, sizeof(*rows));
	int n, i;

	if (!rows)
		return -ENOMEM;
	n = collect(bpf_map__fd(map), names != NULL, rows, ROWS_MAX, reset);
	qsort(rows, n, sizeof(*rows), by_busy);
	if (!json && !names)
		fprintf(f, "\n%-7s %-16s %11s %11s %10s %11s %11s %11s\n", "PID", "COMM",
			"WALK-CALLS", "WALK-PAGES", "GUP-CALLS", "GUP-PAGES",
			"UNPIN-CALLS", "UNPIN-PAGES");
	else if (!json)
		fprintf(f, "\n%11s %11s %10s %11s %11s %11s %11s  %s\n", "WALK-CALLS",
			"WALK-PAGES", "GUP-CALLS", "GUP-PAGES", "PIN-PAGES", "UNPIN-CALLS",
			"UNPIN-PAGES", "CGROUP");
	for (i = 0; i < n && (json || i < ROWS_SHOWN); i++) {
		if (names)
			print_cgroup(f, &rows[i], names, json);
		else
			print_proc(f, &rows[i], json);
	}
	if (!json && n > ROWS_SHOWN)
		fprintf(f, "(%d more %s)\n", n - ROWS_SHOWN, names ? "cgroups" : "processes");
	free(rows);
	return 0;
}

int procs_print(FILE *f, const struct bpf_map *procs, const struct live_stamp *json,
		bool reset)
{
	return table(f, procs, NULL, json, reset);
}

int procs_print_cgroups(FILE *f, const struct bpf_map *cgroups, struct cgpath *names,
		  const struct live_stamp *json, bool reset)
{
	return table(f, cgroups, names, json, reset);
}
