// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report -j: every figure the text prints (text.c), as one JSON
 * document for jq and notebooks, validated against
 * docs/schemas/report.schema.json. Units are in the names (_ns, _pages);
 * a figure the trace cannot know (the lost holds of a trace without its
 * trailer, a percentile of no holds) is null, never a 0 that reads as
 * measured. Strings from the file go through the one JSON writer, which
 * escapes them.
 */
#include <math.h>
#include "report/json.h"
#include "report/text.h"
#include "tracefile/clock.h"
#include "util/json.h"

#define FORMAT_NAME	"gupstat-report"
#define FORMAT_VERSION	1

/* A count the trailer holds: null where the trace has none. */
static void trailer_count(struct jw *w, const struct trace_file *tf, const char *key, __u64 v)
{
	if (tf->incomplete)
		jw_string(w, key, NULL);
	else
		jw_u64(w, key, v);
}

static void source_json(struct jw *w, const char *path, const struct trace_file *tf)
{
	static const char *const keys[] = { "kernel", "gupstat", "command", "method", "walk",
					    "fill", "stacks", "build_id" };
	size_t i;

	jw_object(w, "trace");
	jw_string(w, "file", path);
	jw_u64(w, "format_version", tf->version);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		jw_string(w, keys[i], trace_file_string(tf, keys[i]));
	/* The reader refused a clock it cannot name: never NULL here. */
	jw_string(w, "clock", trace_clock_name(tf->clock_id));
	jw_string(w, "clock_source", trace_clock_helper(tf->clock_id));
	jw_bool(w, "kernel_addrs", tf->flags & GT_F_KERNEL_ADDRS);
	jw_bool(w, "lock_exact", tf->flags & GT_F_LOCK_EXACT);
	jw_bool(w, "fill_probed", tf->flags & GT_F_FILL_PROBED);
	jw_bool(w, "waits_traced", tf->flags & GT_F_WAITS);
	jw_u64(w, "start_ns", tf->start_ns);
	jw_time(w, "start_time", tf->start_realtime_ns);
	jw_u64(w, "end_ns", tf->end_ns);
	jw_u64(w, "duration_ns", tf->end_ns > tf->start_ns ? tf->end_ns - tf->start_ns : 0);
	jw_bool(w, "incomplete", tf->incomplete);
	jw_u64(w, "holds", trace_file_holds(tf));
	trailer_count(w, tf, "holds_lost", tf->lost);
	trailer_count(w, tf, "stacks_not_taken", tf->stack_errors);
	jw_u64(w, "min_ns", tf->min_ns);
	trailer_count(w, tf, "holds_below_min", tf->below_min);
	jw_end_object(w);
}

/* An order statistic of no holds is not 0 ns: null. */
static void stat_u64(struct jw *w, const char *key, size_t n, __u64 v)
{
	if (n)
		jw_u64(w, key, v);
	else
		jw_string(w, key, NULL);
}

static void dist_json(struct jw *w, const char *key, const struct summary_dist *d, size_t n)
{
	jw_object(w, key);
	jw_u64(w, "holds", n);
	stat_u64(w, "min_ns", n, d->min);
	stat_u64(w, "p50_ns", n, d->p50);
	stat_u64(w, "p90_ns", n, d->p90);
	stat_u64(w, "p99_ns", n, d->p99);
	stat_u64(w, "max_ns", n, d->max);
	jw_double(w, "mean_ns", n ? d->mean : NAN);
	jw_end_object(w);
}

/*
 * The rows the text prints: slot i holds [2^(i-1), 2^i - 1], slot 0 zero,
 * the last everything from 2^62 on.
 */
static void log2_json(struct jw *w, const struct trace_summary *s)
{
	unsigned int i;

	jw_array(w, "hold_log2");
	for (i = 0; i < SUMMARY_LOG2_SLOTS; i++) {
		if (!s->hold_log2[i])
			continue;
		jw_object(w, NULL);
		jw_u64(w, "low_ns", i ? 1ULL << (i - 1) : 0);
		jw_u64(w, "high_ns", i == SUMMARY_LOG2_SLOTS - 1 ? ~0ULL : (1ULL << i) - 1);
		jw_u64(w, "holds", s->hold_log2[i]);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* Linear rows; the last holds every count above 512, up to the largest. */
static void pages_json(struct jw *w, const struct trace_summary *s)
{
	int i, last = SUMMARY_PAGE_SLOTS - 1;

	jw_object(w, "pages");
	jw_u64(w, "walked_pages", s->pages);
	jw_u64(w, "stored_pages", s->stored);
	jw_u64(w, "max_pages", s->max_pages);
	jw_array(w, "per_hold");
	for (i = 0; i < SUMMARY_PAGE_SLOTS; i++) {
		if (!s->pages_lin[i])
			continue;
		jw_object(w, NULL);
		jw_u64(w, "low_pages", i);
		jw_u64(w, "high_pages", i == last ? s->max_pages : (__u64)i);
		jw_u64(w, "holds", s->pages_lin[i]);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

static void fill_json(struct jw *w, const struct trace_file *tf, const struct trace_summary *s)
{
	bool any = s->with_fill;

	jw_object(w, "fill");
	jw_bool(w, "traced", tf->flags & GT_F_FILL_PROBED);
	jw_u64(w, "holds", s->with_fill);
	jw_u64(w, "fill_ns", s->fill_ns);
	jw_u64(w, "hold_ns", s->fill_hold_ns);
	/* Fractions of 1, where the text prints per cent. */
	jw_double(w, "share", any && s->fill_hold_ns ? (double)s->fill_ns / s->fill_hold_ns : NAN);
	jw_double(w, "share_p50", any ? s->fill_share_p50 : NAN);
	jw_double(w, "share_p90", any ? s->fill_share_p90 : NAN);
	if (any)
		dist_json(w, "hold_without_fill", &s->bare, s->with_fill);
	else
		jw_string(w, "hold_without_fill", NULL);
	jw_end_object(w);
}

/* A hold's cgroup: null in a version 1 file; its path null if never named. */
static void cgroup_json(struct jw *w, const struct trace_file *tf, __u64 id)
{
	if (tf->version == GT_VERSION_V1) {
		jw_string(w, "cgroup", NULL);
		return;
	}
	jw_object(w, "cgroup");
	jw_u64(w, "id", id);
	jw_string(w, "path", trace_file_cgroup(tf, id));
	jw_end_object(w);
}

/* Every cgroup, where the text stops at its -n rows. */
static void cgroups_json(struct jw *w, const struct trace_file *tf,
			 const struct trace_summary *s)
{
	bool known = tf->version != GT_VERSION_V1;
	size_t i, n = known ? cg_tally_nr(&s->cgroups) : 0;

	jw_object(w, "cgroups");
	jw_bool(w, "known", known);
	jw_array(w, "rows");
	for (i = 0; i < n; i++) {
		const struct cg_tally *c = cg_tally_at(&s->cgroups, i);

		jw_object(w, NULL);
		jw_u64(w, "id", c->id);
		jw_string(w, "path", trace_file_cgroup(tf, c->id));
		jw_u64(w, "holds", c->holds);
		jw_u64(w, "pages", c->pages);
		jw_u64(w, "hold_ns", c->hold_ns);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

/*
 * Where the frame is in the source, when the kernel's DWARF said: an
 * inlined function's frame shares its address's symbol and addr.
 */
static void frame_src_json(struct jw *w, const struct src_line *l)
{
	if (!l)
		return;
	jw_string(w, "function", l->func);
	jw_string(w, "file", l->file);
	if (l->line)
		jw_u64(w, "line", l->line);
	else
		jw_string(w, "line", NULL);
	jw_bool(w, "inlined", l->inlined);
}

/* Innermost frame first, as the file and the text have them. */
static void stack_json(struct jw *w, const struct trace_file *tf, __u32 id)
{
	const struct trace_stack *st = trace_file_stack(tf, id);
	char addr[24];
	__u32 i;

	if (!st) {
		jw_string(w, "stack", NULL);
		return;
	}
	jw_array(w, "stack");
	for (i = 0; i < st->nr_frames; i++) {
		jw_object(w, NULL);
		jw_string(w, "symbol", st->frames[i].name);
		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)st->frames[i].addr);
		jw_string(w, "addr", tf->flags & GT_F_KERNEL_ADDRS ? addr : NULL);
		frame_src_json(w, st->frames[i].src);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/*
 * When and where @r ran: a hold, a wait and the hold a wait waited on
 * name their start and their task alike. The offset is from the
 * header's start: a record may have begun before it.
 */
static void task_json(struct jw *w, const struct trace_file *tf, const struct trace_rec *r)
{
	jw_u64(w, "ts_ns", r->ts_ns);
	jw_i64(w, "offset_ns", (long long)(r->ts_ns - tf->start_ns));
	jw_u64(w, "cpu", r->cpu);
	jw_u64(w, "pid", r->pid);
	jw_u64(w, "tid", r->tid);
	jw_stringn(w, "comm", r->comm, sizeof(r->comm));
}

static void hold_json(struct jw *w, const struct trace_file *tf, size_t rank,
		      const struct trace_rec *r)
{
	char flags[512], addr[24];

	/* Addresses as strings: above 2^53 a double reader would round them. */
	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)r->addr);
	jw_object(w, NULL);
	jw_u64(w, "rank", rank);
	jw_u64(w, "hold_ns", r->hold_ns);
	task_json(w, tf, r);
	cgroup_json(w, tf, r->cgroup);
	jw_string(w, "addr", addr);
	jw_u64(w, "pages", r->pages);
	jw_u64(w, "stored_pages", r->stored);
	jw_bool(w, "stored_known", r->flags & GT_R_STORED_KNOWN);
	jw_bool(w, "fill", r->flags & GT_R_FILL);
	jw_bool(w, "waited", r->flags & GT_R_WAITED);
	jw_u64(w, "fill_ns", r->fill_ns);
	jw_u64(w, "fill_calls", r->fills);
	jw_string(w, "result", trace_result_name(r->result));
	jw_string(w, "gup_flags", trace_flags_name(tf, r->gup_flags, flags, sizeof(flags)));
	jw_u64(w, "gup_flags_value", r->gup_flags);
	stack_json(w, tf, r->stack);
	jw_end_object(w);
}

/* The hold a wait waited on, as the text prints it; null where the file lacks it. */
static void waited_hold_json(struct jw *w, const struct trace_file *tf,
			     const struct trace_wait_top *t)
{
	const struct trace_rec *h = &t->hold;

	if (!t->found) {
		jw_string(w, "hold", NULL);
		return;
	}
	jw_object(w, "hold");
	jw_u64(w, "hold_ns", h->hold_ns);
	task_json(w, tf, h);
	jw_u64(w, "pages", h->pages);
	stack_json(w, tf, h->stack);
	jw_end_object(w);
}

static void wait_json(struct jw *w, const struct trace_file *tf, size_t rank,
		      const struct trace_wait_top *t)
{
	const struct trace_rec *r = &t->wait;
	char lock[24];

	snprintf(lock, sizeof(lock), "0x%llx", (unsigned long long)r->lock);
	jw_object(w, NULL);
	jw_u64(w, "rank", rank);
	jw_u64(w, "wait_ns", r->wait_ns);
	task_json(w, tf, r);
	cgroup_json(w, tf, r->cgroup);
	jw_string(w, "lock", tf->flags & GT_F_KERNEL_ADDRS ? lock : NULL);
	stack_json(w, tf, r->stack);
	/* What the wait names, whether or not the file has that hold. */
	jw_u64(w, "holder_pid", r->holder_pid);
	jw_u64(w, "holder_tid", r->holder_tid);
	jw_u64(w, "hold_ts_ns", r->hold_ts_ns);
	waited_hold_json(w, tf, t);
	jw_end_object(w);
}

/* null for a trace taken without --waits: no wait could be seen. */
static void waits_json(struct jw *w, const struct trace_file *tf, const struct trace_summary *s)
{
	size_t i, n = s->nr_waits;

	if (!(tf->flags & GT_F_WAITS)) {
		jw_string(w, "waits", NULL);
		return;
	}
	jw_object(w, "waits");
	jw_u64(w, "waits", n);
	jw_u64(w, "total_ns", s->wait_total_ns);
	jw_u64(w, "waited_holds", s->waited);
	stat_u64(w, "min_ns", n, s->wait.min);
	stat_u64(w, "p50_ns", n, s->wait.p50);
	stat_u64(w, "p90_ns", n, s->wait.p90);
	stat_u64(w, "p99_ns", n, s->wait.p99);
	stat_u64(w, "max_ns", n, s->wait.max);
	jw_double(w, "mean_ns", n ? s->wait.mean : NAN);
	jw_array(w, "longest");
	for (i = 0; i < s->nr_top_waits; i++)
		wait_json(w, tf, i + 1, &s->top_waits[i]);
	jw_end_array(w);
	jw_end_object(w);
}

void trace_json_print(FILE *f, const char *path, const struct trace_file *tf,
		      const struct trace_summary *s)
{
	struct jw w;
	size_t i;

	jw_document(&w, f, FORMAT_NAME, FORMAT_VERSION);
	source_json(&w, path, tf);
	dist_json(&w, "hold", &s->hold, s->n);
	/* What report --folded's lines add up to. */
	jw_u64(&w, "hold_total_ns", s->hold_total_ns);
	log2_json(&w, s);
	pages_json(&w, s);
	fill_json(&w, tf, s);
	cgroups_json(&w, tf, s);
	jw_array(&w, "longest");
	for (i = 0; i < s->nr_top; i++)
		hold_json(&w, tf, i + 1, &s->top[i]);
	jw_end_array(&w);
	waits_json(&w, tf, s);
	jw_end_object(&w);
}
