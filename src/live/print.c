// SPDX-License-Identifier: GPL-2.0
/*
 * One report: every histogram whose probe is attached, as text in the
 * bcc/bpftrace shape or as NDJSON ({"type":...,"time":...,"ts_ns":...,
 * "data":...} per line, docs/schemas/live.schema.json).
 */
#include <string.h>
#include <time.h>
#include "live/print.h"
#include "probe/catalog.h"
#include "util/hist.h"
#include "util/json.h"

static bool shown(const struct live_print_ctx *rc, const struct catalog_row *d)
{
	if (rc->v->probes[d->probe].method == ATTACH_NONE)
		return false;
	return !d->pmu || rc->v->event;
}

/*
 * What qualifies how a number was taken, beside the method: the hold's
 * bounds, a counter's event; NULL where the method says it all.
 */
static const char *note_of(const struct live_print_ctx *rc, const struct catalog_row *d,
			   char *buf, size_t len)
{
	if (d->id == H_WALK_HOLD_NS && !rc->v->lock_exact)
		return "upper bound: follow_page_pte() entry to return";
	/* The lock's function is BTF's choice (probes.c): name the one used. */
	if (d->id == H_WALK_HOLD_NS) {
		snprintf(buf, len, "exact: from %s() return to follow_page_pte() return",
			 rc->v->probes[P_LOCK].func);
		return buf;
	}
	/* The slow path's name is BTF's choice too (paravirt or not). */
	if (d->id == H_PTE_WAIT_NS) {
		snprintf(buf, len, "%s() entry to return, on a lock a walk held at the entry",
			 rc->v->probes[P_WAIT].func);
		return buf;
	}
	if (!d->pmu)
		return NULL;
	snprintf(buf, len, "%s, entry to return, same CPU", rc->v->event);
	return buf;
}

/* How a number was taken, said next to it in the text: "METHOD; NOTE". */
static const char *method_note(const struct live_print_ctx *rc,
			       const struct catalog_row *d, char *buf, size_t len)
{
	const char *m = probe_method_name(&rc->v->probes[d->probe]), *n;
	char note[128];

	n = note_of(rc, d, note, sizeof(note));
	if (n)
		snprintf(buf, len, "%s; %s", m, n);
	else
		snprintf(buf, len, "%s", m);
	return buf;
}

/*
 * The heading names the function that fed the histogram where that is
 * decided per kernel (try_grab_folio() or try_grab_page()).
 */
static const char *title_of(const struct live_print_ctx *rc, const struct catalog_row *d,
			    char *buf, size_t len)
{
	if (!strstr(d->title, "%s"))
		return d->title;
	snprintf(buf, len, d->title, rc->v->probes[d->probe].func);
	return buf;
}

void live_print_hist_summary(FILE *f, const struct hist *h, const char *unit)
{
	fprintf(f, "     count %llu, total %llu %s, avg %.1f, max %llu\n",
		(unsigned long long)h->count, (unsigned long long)h->sum, unit,
		h->count ? (double)h->sum / h->count : 0.0,
		(unsigned long long)h->max);
}

static void text_hist(FILE *f, const struct live_print_ctx *rc,
		      const struct catalog_row *d, const struct hist *h)
{
	char note[160], title[160];

	fprintf(f, "\n%s [%s]\n", title_of(rc, d, title, sizeof(title)),
		method_note(rc, d, note, sizeof(note)));
	if (d->id < HIST_FIRST_LOG2)
		hist_print_linear(f, d->unit, h->slots, HIST_SLOTS, 0);
	else
		hist_print_log2(f, d->unit, h->slots, HIST_LOG2_SLOTS);
	live_print_hist_summary(f, h, d->unit);
}

static void text_counters(FILE *f, const struct live_print_ctx *rc,
			  const struct counters *c, __u64 probe_misses)
{
	const __u64 *r = c->walk_results;

	if (rc->v->probes[P_WALK].method != ATTACH_NONE)
		fprintf(f, "\nfollow_page_pte() returns (%s): pages %llu, fault-needed %llu, -EMLINK %llu, -EEXIST %llu, -EFAULT %llu, other %llu\n",
			rc->v->walk_returns_count ? "page count: batched walk" :
						 "struct page *: one page per call",
			(unsigned long long)r[WALK_PAGES],
			(unsigned long long)r[WALK_NEED_FAULT],
			(unsigned long long)r[WALK_EMLINK],
			(unsigned long long)r[WALK_EEXIST],
			(unsigned long long)r[WALK_EFAULT],
			(unsigned long long)r[WALK_EOTHER]);
	if (rc->v->probes[P_GUP].method != ATTACH_NONE)
		fprintf(f, "__get_user_pages() calls: FOLL_PIN %llu (FOLL_LONGTERM %llu), FOLL_GET %llu, no refs %llu; -errno returns %llu\n",
			(unsigned long long)c->gup_calls[GUP_PIN],
			(unsigned long long)c->gup_longterm,
			(unsigned long long)c->gup_calls[GUP_GET],
			(unsigned long long)c->gup_calls[GUP_NOREF],
			(unsigned long long)(c->gup_errors[GUP_PIN] +
					     c->gup_errors[GUP_GET] +
					     c->gup_errors[GUP_NOREF]));
	if (c->pmu_misses)
		fprintf(f, "counter not read for %llu calls (moved CPU mid-call, or read failed)\n",
			(unsigned long long)c->pmu_misses);
	if (c->state_misses)
		fprintf(f, "%llu returns without a seen entry (calls in flight at attach)\n",
			(unsigned long long)c->state_misses);
	if (c->held_lost)
		fprintf(f, "%llu PTE-lock holds not registered (map full): spins on them are not counted\n",
			(unsigned long long)c->held_lost);
	/* The kernel's count, never reset: since the start, whatever -i says. */
	if (probe_misses)
		fprintf(f, "%llu probe runs skipped by the kernel since the start (one already running on that CPU): their calls are counted nowhere above\n",
			(unsigned long long)probe_misses);
}

static void json_buckets(struct jw *w, const struct catalog_row *d, const struct hist *h)
{
	/* A log2 histogram has HIST_LOG2_SLOTS: 1 << i past them is undefined. */
	int i, n = d->id < HIST_FIRST_LOG2 ? HIST_SLOTS : HIST_LOG2_SLOTS;

	jw_array(w, "buckets");
	for (i = 0; i < n; i++) {
		unsigned long long lo, hi;

		if (!h->slots[i])
			continue;
		if (d->id < HIST_FIRST_LOG2) {
			lo = i;
			hi = i == HIST_SLOTS - 1 ? h->max : (unsigned long long)i;
		} else {
			lo = i ? 1ULL << (i - 1) : 0;
			hi = i ? (1ULL << i) - 1 : 0;
		}
		jw_object(w, NULL);
		jw_u64(w, "low", lo);
		jw_u64(w, "high", hi);
		jw_u64(w, "count", h->slots[i]);
		jw_end_object(w);
	}
	jw_end_array(w);
}

void live_stamp_now(struct live_stamp *t, bool text)
{
	struct timespec real, mono;

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	t->realtime_ns = real.tv_sec * 1000000000ULL + real.tv_nsec;
	t->mono_ns = mono.tv_sec * 1000000000ULL + mono.tv_nsec;
	t->text = text;
}

void live_print_json_record(struct jw *w, const char *type, const struct live_stamp *t)
{
	jw_object(w, NULL);
	jw_string(w, "type", type);
	jw_time(w, "time", t->realtime_ns);
	jw_u64(w, "ts_ns", t->mono_ns);
	jw_object(w, "data");
}

void live_print_json_record_end(struct jw *w)
{
	jw_end_object(w);
	jw_end_object(w);
}

/* The row's Prometheus labels (catalog_labels()), as an object. */
static void json_labels(struct jw *w, const struct live_print_ctx *rc,
			const struct catalog_row *d)
{
	struct catalog_label l[CATALOG_LABELS_MAX];
	unsigned int i, n = catalog_labels(rc->v, d, l);

	jw_object(w, "labels");
	for (i = 0; i < n; i++)
		jw_string(w, l[i].key, l[i].value);
	jw_end_object(w);
}

/*
 * A histogram under its Prometheus family's name and labels (metric,
 * labels); "name", the catalogue's older key, is deprecated (docs/live.md).
 */
static void json_hist(struct jw *w, const struct live_print_ctx *rc,
		      const struct catalog_row *d, const struct hist *h,
		      const struct live_stamp *t)
{
	char note[128], title[160], metric[64];

	live_print_json_record(w, "hist", t);
	jw_string(w, "metric", catalog_ndjson_name(d->fam, metric, sizeof(metric)));
	json_labels(w, rc, d);
	jw_string(w, "name", d->key);
	jw_string(w, "function", rc->v->probes[d->probe].func);
	jw_string(w, "title", title_of(rc, d, title, sizeof(title)));
	jw_string(w, "unit", d->unit);
	jw_string(w, "scale", d->id < HIST_FIRST_LOG2 ? "linear" : "log2");
	jw_string(w, "method", probe_method_name(&rc->v->probes[d->probe]));
	jw_string(w, "note", note_of(rc, d, note, sizeof(note)));
	jw_u64(w, "count", h->count);
	jw_u64(w, "sum", h->sum);
	jw_u64(w, "max", h->max);
	json_buckets(w, d, h);
	live_print_json_record_end(w);
}

/* A counter with a label is an object of its values: {"pin":N,"get":N,...}. */
static void json_counter(struct jw *w, const struct catalog_counter *c,
			 const struct counters *cs)
{
	unsigned int i;

	if (!c->label) {
		jw_u64(w, c->name, catalog_counter_value(c, cs, 0));
		return;
	}
	jw_object(w, c->name);
	for (i = 0; i < c->nr; i++)
		jw_u64(w, c->values[i], catalog_counter_value(c, cs, i));
	jw_end_object(w);
}

/*
 * Named as serve's counter families, without "gupstat_" and "_total";
 * then the older names, deprecated (docs/live.md), with the same values.
 */
static void json_counters(struct jw *w, const struct counters *c, __u64 probe_misses,
			  const struct live_stamp *t)
{
	const __u64 *r = c->walk_results;
	unsigned int i;

	live_print_json_record(w, "counters", t);
	for (i = 0; i < catalog_counters_nr; i++)
		json_counter(w, &catalog_counters[i], c);
	jw_u64(w, "probe_misses", probe_misses);
	jw_u64(w, "walk_pages", r[WALK_PAGES]);
	jw_u64(w, "walk_need_fault", r[WALK_NEED_FAULT]);
	jw_u64(w, "walk_emlink", r[WALK_EMLINK]);
	jw_u64(w, "walk_eexist", r[WALK_EEXIST]);
	jw_u64(w, "walk_efault", r[WALK_EFAULT]);
	jw_u64(w, "walk_eother", r[WALK_EOTHER]);
	jw_u64(w, "gup_pin_calls", c->gup_calls[GUP_PIN]);
	jw_u64(w, "gup_get_calls", c->gup_calls[GUP_GET]);
	jw_u64(w, "gup_noref_calls", c->gup_calls[GUP_NOREF]);
	jw_u64(w, "pmu_misses", c->pmu_misses);
	live_print_json_record_end(w);
}

void live_print_end(FILE *f, const struct live_print_ctx *rc, const struct live_stamp *t)
{
	struct jw w;

	if (!rc->json)
		return;
	jw_init(&w, f, false);
	live_print_json_record(&w, "end", t);
	live_print_json_record_end(&w);
	fflush(f);
}

/* -T's line: the report's realtime, local, to the second. */
static void text_stamp(FILE *f, const struct live_stamp *t)
{
	time_t secs = t->realtime_ns / 1000000000ULL;
	char buf[16];
	struct tm tm;

	if (localtime_r(&secs, &tm) && strftime(buf, sizeof(buf), "%H:%M:%S", &tm))
		fprintf(f, "%s\n", buf);
}

void live_print(FILE *f, const struct live_print_ctx *rc,
		const struct snapshot *s, const struct live_stamp *t)
{
	struct jw w;
	unsigned int i;

	jw_init(&w, f, false);
	if (!rc->json && t->text)
		text_stamp(f, t);
	for (i = 0; i < catalog_nr; i++) {
		const struct hist *h = &s->hists[catalog[i].id];

		if (!shown(rc, &catalog[i]))
			continue;
		if (rc->json)
			json_hist(&w, rc, &catalog[i], h, t);
		else if (h->count || catalog[i].id == H_WALK_PAGES)
			text_hist(f, rc, &catalog[i], h);
	}
	if (rc->json)
		json_counters(&w, &s->c, s->probe_misses, t);
	else
		text_counters(f, rc, &s->c, s->probe_misses);
	fflush(f);
}
