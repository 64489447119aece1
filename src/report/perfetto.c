// SPDX-License-Identifier: GPL-2.0
/*
 * Trace-event JSON (the Chrome format Perfetto imports): one complete
 * ("X") event per hold on its process and thread, named after the
 * thread's command, with its kernel stack; with --waits one per wait on
 * the waiter's thread, and a flow from the hold it waited on to it. Times are the kernel's, on
 * the trace's clock (CLOCK_MONOTONIC), in microseconds with three
 * decimals, so nanoseconds survive and a slice lines up with ftrace,
 * perf and bpftrace of the same boot.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/export.h"
#include "report/text.h"
#include "tracefile/clock.h"
#include "tracefile/srclines.h"
#include "util/json.h"
#include "util/msg.h"

/*
 * Threads named, at most: 16 MB of keys. A trace has as many threads as
 * the traced workload; past this many, the rest keep Perfetto's default
 * names ("Thread N") and stderr says so.
 */
#define THREADS_MAX	(1U << 19)
/* New threads wait here, then are sorted into the set together. */
#define PENDING_MAX	(1U << 14)

struct thread_key {
	__u32 pid, tid;
	__u64 seq;		/* the record it was first seen in, for its comm */
	char comm[16];
};

struct threads {
	struct thread_key *set;	/* sorted by pid, tid; unique */
	size_t n;
	struct thread_key *pending;
	size_t nr_pending;
	bool full;		/* THREADS_MAX reached: some go unnamed */
};

static int cmp_thread(const void *a, const void *b)
{
	const struct thread_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool same_thread(const struct thread_key *x, const struct thread_key *y)
{
	return x->pid == y->pid && x->tid == y->tid;
}

/* The pending threads, sorted and each once, merged into the set. */
static int threads_merge(struct threads *t)
{
	struct thread_key *set;
	size_t i, n = 0, room, a, b, out;

	qsort(t->pending, t->nr_pending, sizeof(*t->pending), cmp_thread);
	for (i = 0; i < t->nr_pending; i++)
		if (!n || !same_thread(&t->pending[n - 1], &t->pending[i]))
			t->pending[n++] = t->pending[i];
	t->nr_pending = 0;
	room = THREADS_MAX - t->n;
	if (n > room) {
		n = room;
		t->full = true;
	}
	set = realloc(t->set, (t->n + n ? t->n + n : 1) * sizeof(*set));
	if (!set)
		return -ENOMEM;
	t->set = set;
	/* From the back, in place: neither list has a thread of the other. */
	for (a = t->n, b = n, out = t->n + n; b; ) {
		if (a && cmp_thread(&set[a - 1], &t->pending[b - 1]) > 0)
			set[--out] = set[--a];
		else
			set[--out] = t->pending[--b];
	}
	t->n += n;
	return 0;
}

static bool threads_has(const struct threads *t, const struct thread_key *k)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (same_thread(&t->set[mid], k))
			return true;
		if (cmp_thread(&t->set[mid], k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int threads_add(struct threads *t, const struct trace_rec *r, __u64 seq)
{
	struct thread_key k = { .pid = r->pid, .tid = r->tid, .seq = seq };

	if (threads_has(t, &k) || t->full)
		return 0;
	memcpy(k.comm, r->comm, sizeof(k.comm));
	t->pending[t->nr_pending++] = k;
	return t->nr_pending == PENDING_MAX ? threads_merge(t) : 0;
}

/* Every thread of the trace, read once more. */
static int threads_read(struct threads *t, struct trace_file *tf)
{
	struct trace_rec r;
	__u64 seq = 0;
	int ret, err = 0;

	t->pending = malloc(PENDING_MAX * sizeof(*t->pending));
	if (!t->pending)
		return -ENOMEM;
	trace_file_rewind(tf);
	while (!err && (ret = trace_file_next(tf, &r)) > 0)
		err = threads_add(t, &r, seq++);
	if (!err && ret < 0)
		err = ret;
	if (!err)
		err = threads_merge(t);
	free(t->pending);
	t->pending = NULL;
	return err;
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
static int name_threads(struct jw *w, struct trace_file *tf)
{
	struct threads t = {};
	size_t i;
	int err = threads_read(&t, tf);

	for (i = 0; !err && i < t.n; i++) {
		if (!i || t.set[i].pid != t.set[i - 1].pid)
			name_event(w, "process_name", t.set[i].pid, t.set[i].pid, t.set[i].comm);
		name_event(w, "thread_name", t.set[i].pid, t.set[i].tid, t.set[i].comm);
	}
	if (!err && t.full)
		p_err("WARNING: more than %u threads in the trace: the Perfetto export names the first %u by pid and tid, the others by number\n",
		      THREADS_MAX, THREADS_MAX);
	free(t.set);
	return err;
}

/*
 * A frame's id in stackFrames: its stack and its place from the
 * innermost (0), so that args.stack[i] and "S:i" name one frame, and
 * each frame is written once however many holds share its stack.
 */
static void frame_id(char *buf, size_t len, __u32 stack, __u32 i)
{
	snprintf(buf, len, "%u:%u", stack, i);
}

/*
 * Innermost first, as the text report and perf script print a stack,
 * with the file:line the kernel's DWARF gave.
 */
static void stack_arg(struct jw *w, const struct trace_stack *st)
{
	char buf[1024];
	__u32 i;

	jw_array(w, "stack");
	for (i = 0; i < st->nr_frames; i++)
		jw_string(w, NULL, trace_frame_label(&st->frames[i], buf, sizeof(buf)));
	jw_end_array(w);
}

/*
 * A slice's head, alike for holds and waits: the complete event on @r's
 * thread from its start, for @dur_ns, with its stack's first frame in sf;
 * its args left open. Returns @r's stack: NULL if it has none or an empty one.
 */
static const struct trace_stack *slice_begin(struct jw *w, struct trace_file *tf,
					     const struct trace_rec *r, const char *name,
					     __u64 dur_ns)
{
	const struct trace_stack *st = trace_file_stack(tf, r->stack);
	char sf[24];

	if (st && !st->nr_frames)
		st = NULL;
	jw_object(w, NULL);
	jw_string(w, "ph", "X");
	jw_string(w, "cat", "gup");
	jw_string(w, "name", name);
	jw_u64(w, "pid", r->pid);
	jw_u64(w, "tid", r->tid);
	/* The kernel's own time, so the slice lands where ftrace and perf put it. */
	jw_milli(w, "ts", r->ts_ns);
	jw_milli(w, "dur", dur_ns);
	if (st) {
		frame_id(sf, sizeof(sf), st->id, 0);
		jw_string(w, "sf", sf);
	}
	jw_object(w, "args");
	return st;
}

/* A slice's tail: the cgroup and the stack last among its args. */
static void slice_end(struct jw *w, struct trace_file *tf, const struct trace_rec *r,
		      const struct trace_stack *st)
{
	char cg[32];

	jw_string(w, "cgroup", trace_file_cgroup_name(tf, r->cgroup, cg, sizeof(cg)));
	/* Perfetto's importer shows args, not sf: the stack is in both. */
	if (st)
		stack_arg(w, st);
	jw_end_object(w);
	jw_end_object(w);
	jw_break(w);
}

static void hold_event(struct jw *w, struct trace_file *tf, const struct trace_rec *r)
{
	const struct trace_stack *st = slice_begin(w, tf, r, "PTE-lock hold", r->hold_ns);
	char flags[512], addr[24];

	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)r->addr);
	jw_u64(w, "pages", r->pages);
	jw_u64(w, "stored", r->stored);
	jw_bool(w, "fill", r->flags & GT_R_FILL);
	jw_u64(w, "fill_ns", r->fill_ns);
	jw_u64(w, "fills", r->fills);
	jw_u64(w, "cpu", r->cpu);
	jw_string(w, "addr", addr);
	jw_string(w, "result", trace_result_name(r->result));
	jw_string(w, "flags", trace_flags_name(tf, r->gup_flags, flags, sizeof(flags)));
	slice_end(w, tf, r, st);
}

/*
 * A wait's slice on the waiter's thread, and a flow (the format's v1
 * flow events, which Perfetto draws as an arrow) from the hold it waited
 * on: "s" on the holder's thread at the moment the spin began, which is
 * inside the hold's slice, since the lock was held then ("s" binds to
 * the slice enclosing it); "f" at the wait's start, bound to the wait's
 * own slice ("bp": "e", the enclosing slice, not the next one). With
 * --lock-exact a spin may begin a moment before the hold's recorded
 * start: the arrow then leaves at the hold's start. Each wait has a flow
 * of its own, @id, so that several waits on one hold are several arrows.
 */
static void flow_event(struct jw *w, const char *ph, __u64 id, __u32 pid, __u32 tid,
		       __u64 ts_ns)
{
	jw_object(w, NULL);
	jw_string(w, "ph", ph);
	jw_string(w, "cat", "gup");
	jw_string(w, "name", "PTE-lock wait");
	jw_u64(w, "id", id);
	jw_u64(w, "pid", pid);
	jw_u64(w, "tid", tid);
	jw_milli(w, "ts", ts_ns);
	if (!strcmp(ph, "f"))
		jw_string(w, "bp", "e");
	jw_end_object(w);
	jw_break(w);
}

static void wait_event(struct jw *w, struct trace_file *tf, const struct trace_rec *r,
		       __u64 id)
{
	const struct trace_stack *st = slice_begin(w, tf, r, "PTE-lock wait", r->wait_ns);
	char lock[24];

	jw_u64(w, "cpu", r->cpu);
	jw_u64(w, "holder_pid", r->holder_pid);
	jw_u64(w, "holder_tid", r->holder_tid);
	/* The hold's slice starts here, on the holder's thread. */
	jw_milli(w, "hold_ts", r->hold_ts_ns);
	if (tf->flags & GT_F_KERNEL_ADDRS) {
		snprintf(lock, sizeof(lock), "0x%llx", (unsigned long long)r->lock);
		jw_string(w, "lock", lock);
	}
	slice_end(w, tf, r, st);
	flow_event(w, "s", id, r->holder_pid, r->holder_tid,
		   r->ts_ns > r->hold_ts_ns ? r->ts_ns : r->hold_ts_ns);
	flow_event(w, "f", id, r->pid, r->tid, r->ts_ns);
}

/*
 * The trace-event format's stack dictionary (chrome://tracing reads it,
 * Perfetto skips it): every frame of the stack table once, linked to
 * its caller. Written from the table already in memory.
 */
static void stack_frames(struct jw *w, const struct trace_file *tf)
{
	char id[24], buf[1024];
	__u32 s, i;

	jw_object(w, "stackFrames");
	jw_break(w);
	for (s = 0; s < tf->nr_stacks; s++) {
		const struct trace_stack *st = &tf->stacks[s];

		for (i = 0; i < st->nr_frames; i++) {
			frame_id(id, sizeof(id), st->id, i);
			jw_object(w, id);
			jw_string(w, "name", trace_frame_label(&st->frames[i], buf, sizeof(buf)));
			if (i + 1 < st->nr_frames) {
				frame_id(id, sizeof(id), st->id, i + 1);
				jw_string(w, "parent", id);
			}
			jw_end_object(w);
		}
		jw_break(w);
	}
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

/*
 * Where the trace came from and what its times are on. "metadata" is
 * the key both readers take: Perfetto keeps it (json_metadata.*, in its
 * metadata table), chrome://tracing lists it under Metadata.
 */
static void metadata(struct jw *w, struct trace_file *tf)
{
	jw_object(w, "metadata");
	jw_string(w, "clock", trace_clock_name(tf->clock_id));
	jw_string(w, "clock_source", trace_clock_helper(tf->clock_id));
	jw_count(w, "start_ns", tf->start_ns);
	jw_count(w, "start_realtime_ns", tf->start_realtime_ns);
	jw_string(w, "kernel", trace_file_string(tf, "kernel"));
	jw_string(w, "method", trace_file_string(tf, "method"));
	jw_string(w, "gupstat", trace_file_string(tf, "gupstat"));
	jw_count(w, "holds", trace_file_holds(tf));
	if (tf->flags & GT_F_WAITS)
		jw_count(w, "waits", tf->nr_waits);
	jw_count(w, "lost", tf->lost);
	jw_end_object(w);
	jw_break(w);
}

/* One slice per hold and per wait, the file read once more. */
static int hold_events(struct jw *w, struct trace_file *tf, const struct trace_summary *s)
{
	struct trace_rec r;
	size_t n = 0, nw = 0;
	int ret;

	trace_file_rewind(tf);
	while ((ret = trace_file_next(tf, &r)) > 0) {
		if (r.kind == GT_KIND_WAIT) {
			/* Flow ids from 1: the wait's place among the waits. */
			wait_event(w, tf, &r, ++nw);
			continue;
		}
		hold_event(w, tf, &r);
		n++;
	}
	if (!ret && (n != s->n || nw != s->nr_waits))
		snprintf(tf->err, sizeof(tf->err), "%zu holds and %zu waits at the first reading, %zu and %zu at the second: the file changed",
			 s->n, s->nr_waits, n, nw);
	return ret < 0 || n != s->n || nw != s->nr_waits ? -EIO : 0;
}

int export_perfetto(FILE *f, struct trace_file *tf, const struct trace_summary *s)
{
	struct jw w;
	int err;

	jw_init(&w, f, false);
	jw_object(&w, NULL);
	jw_string(&w, "displayTimeUnit", "ns");
	jw_break(&w);
	metadata(&w, tf);
	jw_array(&w, "traceEvents");
	jw_break(&w);
	err = name_threads(&w, tf) ?: hold_events(&w, tf, s);
	if (err)
		return err;
	jw_end_array(&w);
	jw_break(&w);
	stack_frames(&w, tf);
	jw_end_object(&w);
	return 0;
}
