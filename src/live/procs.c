// SPDX-License-Identifier: GPL-2.0
/* -P: the per-process table, busiest first. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "gupstat.h"
#include "live/print.h"
#include "live/procs.h"
#include "util/input.h"
#include "util/json.h"

#define PROCS_MAX	4096
#define PROCS_SHOWN	20

struct proc_row {
	__u32 tgid;
	struct proc_stats st;
};

static __u64 busy(const struct proc_row *r)
{
	return r->st.walk_pages + r->st.gup_pages + r->st.unpin_pages;
}

static int by_busy(const void *a, const void *b)
{
	__u64 x = busy(a), y = busy(b);

	return x < y ? 1 : x > y ? -1 : 0;
}

static int procs_collect(int fd, struct proc_row *rows, int max, bool reset)
{
	__u32 key, next, *prev = NULL;
	int n = 0;

	while (n < max && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		rows[n].tgid = key;
		if (!bpf_map_lookup_elem(fd, &key, &rows[n].st))
			n++;
	}
	while (reset && n && !bpf_map_get_next_key(fd, NULL, &key))
		bpf_map_delete_elem(fd, &key);
	return n;
}

/* The comm escaped: a process named a"b must not break the NDJSON. */
void procs_print_json(FILE *f, __u32 tgid, const struct proc_stats *s)
{
	struct jw w;

	jw_init(&w, f, false);
	live_print_json_record(&w, "proc");
	jw_u64(&w, "pid", tgid);
	jw_stringn(&w, "comm", s->comm, sizeof(s->comm));
	jw_u64(&w, "walk_calls", s->walk_calls);
	jw_u64(&w, "walk_pages", s->walk_pages);
	jw_u64(&w, "gup_calls", s->gup_calls);
	jw_u64(&w, "gup_pages", s->gup_pages);
	jw_u64(&w, "unpin_calls", s->unpin_calls);
	jw_u64(&w, "unpin_pages", s->unpin_pages);
	live_print_json_record_end(&w);
}

static void print_row(FILE *f, const struct proc_row *r, bool json)
{
	const struct proc_stats *s = &r->st;
	char comm[sizeof(s->comm) + 1];

	if (json) {
		procs_print_json(f, r->tgid, s);
		return;
	}
	/* A process names itself: nothing of it reaches the terminal raw. */
	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(s->comm), s->comm);
	input_sanitise(comm);
	fprintf(f, "%-7u %-16.16s %11llu %11llu %10llu %11llu %11llu %11llu\n",
		r->tgid, comm,
		(unsigned long long)s->walk_calls, (unsigned long long)s->walk_pages,
		(unsigned long long)s->gup_calls, (unsigned long long)s->gup_pages,
		(unsigned long long)s->unpin_calls, (unsigned long long)s->unpin_pages);
}

int procs_print(FILE *f, const struct bpf_map *procs, bool json, bool reset)
{
	struct proc_row *rows = calloc(PROCS_MAX, sizeof(*rows));
	int n, i;

	if (!rows)
		return -ENOMEM;
	n = procs_collect(bpf_map__fd(procs), rows, PROCS_MAX, reset);
	qsort(rows, n, sizeof(*rows), by_busy);
	if (!json)
		fprintf(f, "\n%-7s %-16s %11s %11s %10s %11s %11s %11s\n", "PID", "COMM",
			"WALK-CALLS", "WALK-PAGES", "GUP-CALLS", "GUP-PAGES",
			"UNPIN-CALLS", "UNPIN-PAGES");
	for (i = 0; i < n && (json || i < PROCS_SHOWN); i++)
		print_row(f, &rows[i], json);
	if (!json && n > PROCS_SHOWN)
		fprintf(f, "(%d more processes)\n", n - PROCS_SHOWN);
	free(rows);
	return 0;
}
