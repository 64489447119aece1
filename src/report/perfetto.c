// SPDX-License-Identifier: GPL-2.0
/*
 * Trace-event JSON (the Chrome format Perfetto imports): one complete
 * ("X") event per hold on its process and thread, named after the
 * thread's command. Times are microseconds from the first hold, with
 * three decimals, so nanoseconds survive.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/export.h"
#include "report/text.h"
#include "util/json.h"

struct thread_key {
	__u32 pid, tid;
	size_t rec;		/* a record of the thread, for its comm */
};

static int cmp_thread(const void *a, const void *b)
{
	const struct thread_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void name_event(struct jw *w, const char *what, __u32 pid, __u32 tid, const char *name)
{
	jw_object(w, NULL);
	jw_string(w, "ph", "M");
	jw_string(w, "name", what);
	jw_u64(w, "pid", pid);
	jw_u64(w, "tid", tid);
	jw_object(w, "args");
	jw_string(w, "name", name);
	jw_end_object(w);
	jw_end_object(w);
	jw_break(w);
}

/* process_name and thread_name events: each process and thread once. */
static int name_threads(struct jw *w, const struct trace_file *tf)
{
	struct thread_key *k = malloc((tf->nr_recs ? tf->nr_recs : 1) * sizeof(*k));
	size_t i;

	if (!k)
		return -ENOMEM;
	for (i = 0; i < tf->nr_recs; i++)
		k[i] = (struct thread_key){ tf->recs[i].pid, tf->recs[i].tid, i };
	qsort(k, tf->nr_recs, sizeof(*k), cmp_thread);
	for (i = 0; i < tf->nr_recs; i++) {
		const char *comm = tf->recs[k[i].rec].comm;

		if (i && !cmp_thread(&k[i], &k[i - 1]))
			continue;
		if (!i || k[i].pid != k[i - 1].pid)
			name_event(w, "process_name", k[i].pid, k[i].pid, comm);
		name_event(w, "thread_name", k[i].pid, k[i].tid, comm);
	}
	free(k);
	return 0;
}

static void hold_event(struct jw *w, const struct trace_file *tf, const struct trace_rec *r,
		       __u64 origin)
{
	char flags[512], addr[24];

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)r->addr);
	jw_object(w, NULL);
	jw_string(w, "ph", "X");
	jw_string(w, "cat", "gup");
	jw_string(w, "name", "PTE-lock hold");
	jw_u64(w, "pid", r->pid);
	jw_u64(w, "tid", r->tid);
	jw_milli(w, "ts", r->ts_ns - origin);
	jw_milli(w, "dur", r->hold_ns);
	jw_object(w, "args");
	jw_u64(w, "pages", r->pages);
	jw_u64(w, "stored", r->stored);
	jw_bool(w, "fill", r->flags & GT_R_FILL);
	jw_u64(w, "fill_ns", r->fill_ns);
	jw_u64(w, "fills", r->fills);
	jw_u64(w, "cpu", r->cpu);
	jw_string(w, "addr", addr);
	jw_string(w, "result", trace_result_name(r->result));
	jw_string(w, "flags", trace_flags_name(tf, r->gup_flags, flags, sizeof(flags)));
	jw_end_object(w);
	jw_end_object(w);
	jw_break(w);
}

/* Counts as strings: a 64-bit count survives readers that use doubles. */
static void jw_count(struct jw *w, const char *key, __u64 v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	jw_string(w, key, buf);
}

static void other_data(struct jw *w, const struct trace_file *tf, __u64 origin)
{
	jw_object(w, "otherData");
	jw_string(w, "kernel", trace_file_string(tf, "kernel"));
	jw_string(w, "method", trace_file_string(tf, "method"));
	jw_string(w, "gupstat", trace_file_string(tf, "gupstat"));
	jw_count(w, "origin_ns", origin);
	jw_count(w, "holds", tf->nr_recs);
	jw_count(w, "lost", tf->lost);
	jw_end_object(w);
	jw_break(w);
}

int export_perfetto(FILE *f, const struct trace_file *tf, const struct trace_summary *s)
{
	__u64 origin = s->n ? s->first_ns : tf->start_ns;
	struct jw w;
	size_t i;
	int err;

	jw_init(&w, f, false);
	jw_object(&w, NULL);
	jw_string(&w, "displayTimeUnit", "ns");
	jw_break(&w);
	other_data(&w, tf, origin);
	jw_array(&w, "traceEvents");
	jw_break(&w);
	err = name_threads(&w, tf);
	if (err)
		return err;
	for (i = 0; i < tf->nr_recs; i++)
		hold_event(&w, tf, &tf->recs[i], origin);
	jw_end_array(&w);
	jw_end_object(&w);
	return 0;
}
