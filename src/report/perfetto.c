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

/* A JSON string; the reader already limited text to printable ASCII. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

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

static void name_event(FILE *f, const char *what, __u32 pid, __u32 tid, const char *name)
{
	fprintf(f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		what, pid, tid);
	json_str(f, name);
	fprintf(f, "}},\n");
}

/* process_name and thread_name events: each process and thread once. */
static int name_threads(FILE *f, const struct trace_file *tf)
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
			name_event(f, "process_name", k[i].pid, k[i].pid, comm);
		name_event(f, "thread_name", k[i].pid, k[i].tid, comm);
	}
	free(k);
	return 0;
}

static void hold_event(FILE *f, const struct trace_file *tf, const struct trace_rec *r,
		       __u64 origin)
{
	char flags[512];

	fprintf(f, "{\"ph\":\"X\",\"cat\":\"gup\",\"name\":\"PTE-lock hold\",\"pid\":%u,\"tid\":%u,\"ts\":%llu.%03llu,\"dur\":%llu.%03llu,",
		r->pid, r->tid,
		(unsigned long long)(r->ts_ns - origin) / 1000,
		(unsigned long long)(r->ts_ns - origin) % 1000,
		(unsigned long long)r->hold_ns / 1000, (unsigned long long)r->hold_ns % 1000);
	fprintf(f, "\"args\":{\"pages\":%u,\"stored\":%u,\"fill\":%s,\"fill_ns\":%llu,\"fills\":%u,\"cpu\":%u,\"addr\":\"0x%llx\",\"result\":\"%s\",\"flags\":",
		r->pages, r->stored, r->flags & GT_R_FILL ? "true" : "false",
		(unsigned long long)r->fill_ns, r->fills, r->cpu,
		(unsigned long long)r->addr, trace_result_name(r->result));
	json_str(f, trace_flags_name(tf, r->gup_flags, flags, sizeof(flags)));
	fprintf(f, "}}");
}

static void other_data(FILE *f, const struct trace_file *tf, __u64 origin)
{
	fprintf(f, "\"otherData\":{\"kernel\":");
	json_str(f, trace_file_string(tf, "kernel"));
	fprintf(f, ",\"method\":");
	json_str(f, trace_file_string(tf, "method"));
	fprintf(f, ",\"gupstat\":");
	json_str(f, trace_file_string(tf, "gupstat"));
	fprintf(f, ",\"origin_ns\":\"%llu\",\"holds\":\"%zu\",\"lost\":\"%llu\"},\n",
		(unsigned long long)origin, tf->nr_recs, (unsigned long long)tf->lost);
}

int export_perfetto(FILE *f, const struct trace_file *tf, const struct trace_summary *s)
{
	__u64 origin = s->n ? s->first_ns : tf->start_ns;
	size_t i;
	int err;

	fprintf(f, "{\"displayTimeUnit\":\"ns\",\n");
	other_data(f, tf, origin);
	fprintf(f, "\"traceEvents\":[\n");
	err = name_threads(f, tf);
	if (err)
		return err;
	for (i = 0; i < tf->nr_recs; i++) {
		hold_event(f, tf, &tf->recs[i], origin);
		fprintf(f, i + 1 < tf->nr_recs ? ",\n" : "\n");
	}
	fprintf(f, "]}\n");
	return ferror(f) ? -EIO : 0;
}
